// r_hlfx.h -- Half-Life's temp entities and client events, by the engine's and the client dll's rules
//
// A fixed pool (no allocation while playing) of what GoldSrc's client makes for a frame's
// temp entities (svc_temp_entity) and client events (EV_GAMEEVENT): sprites (explosions,
// TE_SPRITE, glow sprites, smoke, blood sprites, muzzle flashes), particles (gunshot dust,
// spark showers, blood), beams and tracers, dynamic lights. r_models.c calls these through
// its per-game rules for GAME_GOLDSRC and draws the sprites with the level's models; nothing
// here loads a file. The sounds are the decoder's (formats/goldsrc_events.c).
#ifndef R_HLFX_H
#define R_HLFX_H

#include <stddef.h>
#include <stdint.h>

#include "../assets/bsp.h"
#include "../assets/studio.h"
#include "../engine/world.h"
#include "r_view.h"

#define HLFX_MAX_PARTICLES 2048
#define HLFX_MAX_SPRITES 512   // TE_LARGEFUNNEL alone makes 256
#define HLFX_MAX_BEAMS 64
#define HLFX_MAX_LIGHTS 32

// A sprite to draw: the world's model index, or one of the client's own (HLFX_CLIENT_*).
// HLFX_CLIENT_MUZZLE: the weapon events' flash (the first muzzle sprite that loads); HLFX_CLIENT_MUZZLE1
// - i: the engine's cl_muzzleflash[i] (sprites/muzzleflash1..3.spr), the view model's own flashes.
enum { HLFX_CLIENT_MUZZLE = -1, HLFX_CLIENT_MUZZLE1 = -2, HLFX_CLIENT_MUZZLE3 = -4 };
typedef struct {
    int model;           // index into world models, or HLFX_CLIENT_*
    vec3_t org;
    float frame;         // sprite frame (wrapped by the drawer)
    float scale;
    int rendermode;      // RM_*
    int amount;          // 0..255
    uint8_t color[3];
    uint8_t view;        // follows the view model's muzzle (attachment 0) when drawn
    uint8_t anim;        // HLFX_ANIM_*: what the drawer does with frames past the sprite's last
    uint8_t renderfx;    // GoldSrc's kRenderFx* (the egon's flare: kRenderFxNoDissipation); 0 none
} r_hlsprite_t;

// How a sprite's frames run (the drawer knows the frame count, the effects do not):
enum {
    HLFX_ANIM_ONCE = 0,  // frame = the frame; past the last one it is no longer drawn
    HLFX_ANIM_LOOP,      // frame wraps (FTENT_SPRANIMATELOOP, FTENT_SPRCYCLE)
    HLFX_ANIM_HOLD,      // frame stops at the last one (a one-frame sprite stays for its life)
    HLFX_ANIM_SPREAD,    // frame is a fraction 0..1 of the whole animation (frameMax / life)
};

typedef struct {
    vec3_t start, end;
    int start_ent, end_ent;  // > 0: the end follows that entity
    int model;
    float width;             // units: the line's half-width (drawn 2 x width thick, as the engine)
    uint8_t color[3];
    int amount;
    int ring;                // TE_BEAMRING: a circle through both ends
    int shape;               // HLFX_BEAM_*: TE_BEAMTORUS / DISK / CYLINDER about `start` (r_hlfx_beams sets
    float radius, radius2;   // the radius at the time asked; CYLINDER: radius at start + height, radius2
    float height;            // at start - height; TORUS: the line's half-width is `width`)
    float amplitude;         // noise (the message's byte x 0.01): a jagged line; 0 straight
    float speed;             // the message's speed (byte x 0.1)
    float freq;              // at the time asked: speed x birth + age (the engine's pbeam->freq)
    uint32_t seed;           // at the time asked: the noise of this beam in this frame
    uint8_t sine;            // FBEAM_SINENOISE: a half sine wave along the beam, turning about it, for the
                             // fractal noise (the egon's inner beam)
    int flags;               // HLFX_BEAMF_*: the custom entities' beam flags (temp entity beams: 0)
    float frame;             // the sprite frame it starts from (the message's start frame byte)
    float framerate;         // sprite frames a second (the message's byte x 0.1; TE_BEAMFOLLOW 1; 0 still)
} r_hlbeam_t;

// The sprite frame a beam is textured with at time t (R_BeamDraw: (int)(frame + framerate x the
// client's clock) modulo the sprite's frame count, numframes; the clock, not the beam's age); 0
// for a sprite of no frames, or a frame the engine would find out of range.
int r_hlfx_beam_frame(const r_hlbeam_t *b, double t, int numframes);

// A beam's flags (CBeam's BEAM_FSINE, FSOLID, FSHADEIN, FSHADEOUT: the engine's FBEAM_*).
enum {
    HLFX_BEAMF_SINE = 0x10,      // sine noise: a wave of the amplitude x 100 units, scrolling with freq
    HLFX_BEAMF_SOLID = 0x20,     // drawn opaque in the beam's colour, not added
    HLFX_BEAMF_SHADEIN = 0x40,   // brightness 0 at the start to whole at the end
    HLFX_BEAMF_SHADEOUT = 0x80,  // whole at the start to 0 at the end (SHADEIN wins when both are set)
};

// GoldSrc's custom (beam) entities (world.h: solid = 1), as the SDK's CBeam packs them: the start
// point in origin, the end point in angles, type and flags in rendermode, the start / end entity in
// sequence / skin (entity in the low 12 bits, attachment 1..15 above; 0 its origin), the noise
// (amplitude x 100) in body, the width (x 0.1) in scale, the scroll speed (x 0.1) in animtime.
enum { HLFX_BEAMENT_POINTS = 0, HLFX_BEAMENT_ENTPOINT, HLFX_BEAMENT_ENTS, HLFX_BEAMENT_HOSE };
typedef struct {
    int type;                 // HLFX_BEAMENT_*
    int start_ent, start_att; // > 0: the start is at that entity (its attachment start_att - 1 when > 0)
    int end_ent, end_att;     // > 0: the end is at that entity
} r_hlbeament_t;
// Which ends of a custom entity's beam follow entities (0 for the ends that are its points).
void r_hlfx_beament_ends(const entity_state_t *s, r_hlbeament_t *out);
// The beam a custom entity draws at time t (R_BeamDrawCustomEntity): from `start` to `end` (its
// points, or where r_hlfx_beament_ends' entities are), `amount` its brightness after its render fx
// (0..255), `entnum` its number (its noise). Made anew each frame from the state: nothing is kept.
void r_hlfx_beament(const entity_state_t *s, int entnum, const vec3_t start, const vec3_t end, int amount, double t,
                    r_hlbeam_t *out);

// The circle beams' shapes (R_DrawTorus, R_DrawDisk, R_DrawCylinder); 0 is a segment or ring.
enum { HLFX_BEAM_SEGS = 0, HLFX_BEAM_TORUS, HLFX_BEAM_DISK, HLFX_BEAM_CYLINDER };

// Particle colour ramps (the particle's colour steps through a row of the particle palette).
// HLFX_RAMP_FIRE: pt_fire, ramp3 (0x6d, 0x6b, 6, 5, 4, 3) from ramp_from, 5 steps a second, gone at 6.
enum { HLFX_RAMP_NONE = 0, HLFX_RAMP_SPARK, HLFX_RAMP_FIRE };

typedef struct {
    vec3_t org, vel;
    float birth, die;
    float gravity;           // units / s^2 downward
    float grow;              // the velocity grows by e^(grow x age) (Quake's pt_blob: 4; < 0 a drag); 0 constant
    float streak;            // > 0: a tracer, drawn from its place along vel x streak x min(life left, 0.1)
    uint8_t color[3];
    uint8_t additive;
    uint8_t grow_xy;         // `grow` acts on x and y only (the tracers' pt_grav drag)
    uint8_t ramp;            // HLFX_RAMP_*: the colour steps through a ramp, 10 steps a second
    uint8_t fade;            // additive at 255 x 2 x (life left), at most 255 (the tracers' pt_grav)
    uint8_t blob;            // GoldSrc's blobs, drawn in one frame in four (r_hlfx_blob_shown): 1 starts as
                             // pt_blob (not drawn in its first frame), 2 as pt_blob2 (drawn); 0 always drawn
    uint8_t ramp_from;       // HLFX_RAMP_FIRE: its first step of the ramp (0..5)
} r_hlparticle_t;

typedef struct r_hlfx_s r_hlfx_t;

r_hlfx_t *r_hlfx_create(void);
void r_hlfx_destroy(r_hlfx_t *fx);
void r_hlfx_clear(r_hlfx_t *fx);
// The level (TE_FIZZ's bubbles fill a brush model of it); NULL: none, no fizz. Not owned.
void r_hlfx_set_level(r_hlfx_t *fx, const bsp_t *bsp);
// Once a decoded frame: its temp entities, client events and dlights, born at `now`.
void r_hlfx_frame(r_hlfx_t *fx, const world_t *w, double now, uint32_t seed);
// Half-Life's view model flash rule (HUD_StudioEvent 5001, 5011, 5021, 5031: R_MuzzleFlash at
// attachment 0..3 with the event's options as its type): whether sequence `seq` of the view model,
// `age` seconds after it began, passed such an event in the last 0.05 s (the engine keeps the
// sprite a frame; a movie at 20..30 frames a second shows it once), and if so its attachment, the
// sprite (type % 10) % 3 and the scale (type / 10) x 0.1 (0: 0.5), the rifle flash (0) x 0.5..0.6
// by `seed`.
int r_hlfx_view_flash(const studio_t *st, int seq, double age, uint32_t seed, int *attachment, int *index,
                      float *scale);
// The view model's own muzzle flash in the frame drawn (its animation's events 5001, 5011, 5021,
// 5031 handed to the engine's R_MuzzleFlash): `model` 0 when the view model is not a studio model
// that can be read (the weapon events' flash is drawn instead, as before), 1 when it is: then the
// flash is this one, `shown` 0 none; `index` the sprite (0..2: muzzleflash1..3), `scale`, at `org`.
void r_hlfx_set_view_flash(r_hlfx_t *fx, int model, int shown, int index, float scale, const vec3_t org);
// The view model's muzzle (attachment 0) as last drawn, for the flash's light and sprite.
// valid: 0 none, 1 a place ahead of the eye (no view model attachment), 2 the attachment itself.
void r_hlfx_set_muzzle(r_hlfx_t *fx, const vec3_t org, int valid);
// Live lights at t into v->dlights.
void r_hlfx_lights(const r_hlfx_t *fx, const world_t *w, r_view_t *v, double t);
// The sprites alive at t (at most max).
int r_hlfx_sprites(const r_hlfx_t *fx, double t, r_hlsprite_t *out, int max);
// Counter-Strike's wall puffs and gun smoke (cs16-client's EV_CS16Client_CreateSmoke: SMOKE_WALLPUFF at a
// bullet's hit, SMOKE_PISTOL / RIFLE / BLACK at the view model's muzzle; docs/goldsrc.md): r_hldecal.c
// makes them from the world's event log and hands the frame's list here, so a seek shows the same
// puffs; r_hlfx_sprites draws each one after its other sprites.
#define HLFX_MAX_PUFFS 128
#define HLFX_PUFF_FRAMERATE 35.0f   // R_DefaultSprite's frame rate (CreateSmoke's default)
#define HLFX_PUFF_MAX_AGE 2.0f      // looked for this far back (the sprite's frames end it sooner)
// Where a puff's motion was stepped to: its place, velocity, wind and random stream after `steps`
// whole 0.01 s steps against `bsp`, so that the next frame goes on from there instead of stepping
// (and tracing) from the hit again; what it gives is what stepping from the hit gives.
typedef struct {
    const bsp_t *bsp;
    int steps;           // whole steps done; -1: none yet
    vec3_t org, vel;
    float wind[2];
    int sign[2];
    uint32_t x;
} r_hlpuff_state_t;
typedef struct {
    r_hlpuff_state_t *state;   // the maker's (r_hldecal.c's ring), kept with the puff; NULL: from the start each time
    int model;           // the world's model index of its sprite (sprites/wall_puff1..4.spr, ..._smoke*.spr)
    vec3_t org;          // where it starts (the bullet's hit, the muzzle)
    vec3_t vel;          // its velocity then (25 along the wall's normal; the gun smoke's speed along the
                         // aim plus half the shooter's velocity, 0.9 of its z)
    double start;        // the event's time
    uint32_t seed;       // the wind's turns
    int amount;          // 100..180
    float scale;         // 0.5 (wall puffs); the gun's
    uint8_t color[3];    // 40 40 40; concrete 65 65 65; wood 75 42 15; gun smoke 7..20 grey
    uint8_t wind;        // 1: EV_WallPuff_Wind moves it (wall puffs), 0: EV_SmokeRise (gun smoke)
} r_hlpuff_t;
void r_hlfx_set_puffs(r_hlfx_t *fx, const r_hlpuff_t *list, int n);
// Where puff p is `age` seconds after it was made (its callback stepped 100 times a second), its
// moves traced against bsp's world (EV_HugWalls on a wall met; NULL: not traced).
void r_hlfx_puff_at(const bsp_t *bsp, const r_hlpuff_t *p, float age, vec3_t out);

// Counter-Strike's gun smoke (cl_gunsmoke 1, the recording player's own shots): the puffs the event
// of gun `script` makes (bparam1: the m4a1's silencer), at most 3. Each: its sprite (HLFX_SMOKE_*;
// `pick` in 0..the type's sprites - 1, from *rng), drawn `back` units behind the muzzle along the aim,
// `speed` along it, its scale and grey; the amount 100..180 from *rng. 0 for a gun without smoke.
enum { HLFX_SMOKE_PISTOL, HLFX_SMOKE_RIFLE, HLFX_SMOKE_BLACK };
typedef struct {
    int type;            // HLFX_SMOKE_*: sprites/pistol_smoke1..2, rifle_smoke1..3, black_smoke1..4.spr
    int pick;            // which of them (0 = ..._smoke1)
    float back, speed, scale;
    uint8_t grey;
    int amount;
} r_hlsmoke_t;
#define HLFX_SMOKE_MAX 3
int r_hlfx_gunsmoke(const char *script, int bparam1, uint32_t *rng, r_hlsmoke_t out[HLFX_SMOKE_MAX]);
// How many sprites a smoke type picks from (2, 3, 4), and the name of sprite `pick` of it.
int r_hlfx_smoke_sprites(int type);
void r_hlfx_smoke_name(int type, int pick, char *out, size_t cap);

// Beams alive at t.
int r_hlfx_beams(const r_hlfx_t *fx, double t, r_hlbeam_t *out, int max);
// Particles and beams as additive dots through the level's blend tables (v->hlmodes).
void r_hlfx_draw_particles(const r_hlfx_t *fx, const r_view_t *v, double t);
void r_hlfx_draw_beam(const r_view_t *v, const r_hlbeam_t *b);
// The beam's sprite frame as R_DrawSegs maps it: across the strip (u 0..1) and along it, the
// texture once every 100 units, scrolled by fmod(freq x speed, 1); pixels are level palette
// indices, 255 not drawn.
typedef struct {
    const uint8_t *pixels;
    int width, height;
} r_hlbeam_tex_t;
// The same, textured (tex NULL or empty: the colour alone).
void r_hlfx_draw_beam_tex(const r_view_t *v, const r_hlbeam_t *b, const r_hlbeam_tex_t *tex);
// R_RocketTrail (the engine's efx API) of type 0 (rocket) or 1 (smoke; the temp models'
// FTENT_SMOKETRAIL) from start to end, born at `birth`, its random numbers from `seed`: its particles
// into out (at most max; other types make none). Returns how many. Not kept in the pool: the caller
// draws them (r_hlfx_draw_particle_list), so a trail made again from the same values is the same.
int r_hlfx_rocket_trail(const vec3_t start, const vec3_t end, int type, float birth, uint32_t seed,
                        r_hlparticle_t *out, int max);
// The caller's particles as r_hlfx_draw_particles draws the pool's (additive or solid dots through
// the level's tables), those alive at t.
void r_hlfx_draw_particle_list(const r_view_t *v, const r_hlparticle_t *list, int n, double t);
// For tests.
int r_hlfx_num_particles(const r_hlfx_t *fx, double t);
// Whether particle `slot` is drawn in the frame at t: GoldSrc's R_DrawParticles skips a pt_blob
// particle, and after each frame a blob is pt_blob2 (drawn in the next) one time in four, at random;
// here a hash of the slot and the moment decides (a moment always shows the same blobs), and the
// first frame follows the blob's starting type. Not a blob: always.
int r_hlfx_blob_shown(const r_hlparticle_t *p, uint32_t slot, double t);
// A client event's tracer (EV_CreateTracer: the engine's R_TracerEffect, drawn as TE_TRACER), made
// now (the frame r_hlfx_frame was last given).
void r_hlfx_tracer(r_hlfx_t *fx, const vec3_t start, const vec3_t end);
// A client event's own beams and sprites, made now, by the engine's calls the client dll makes
// (the gauss: r_hldecal.c traces its shot). Each names its sprite; one the level did not precache
// makes nothing, as EV_FindModelIndex's 0 makes nothing in the engine.
// R_BeamPoints: life in seconds, width (drawn 2 x), brightness and colour 0..255.
void r_hlfx_event_beam(r_hlfx_t *fx, const world_t *w, const vec3_t start, const vec3_t end, const char *sprite,
                       float life, float width, float brightness, const uint8_t rgb[3]);
// CL_TempSprite in glow mode with FTENT_FADEOUT: `amount` (0..1) for `life` s, then fading out.
void r_hlfx_event_glow(r_hlfx_t *fx, const world_t *w, const vec3_t org, const char *sprite, float scale,
                       float amount, float life);
// R_BulletImpactParticles (each bullet's hit, EV_HLDM_GunshotDecalTrace): two spark streaks and 4
// dark specks for every 100 units nearer the eye than 1000 (at least 4), for 0.5 s.
void r_hlfx_bullet_impact(r_hlfx_t *fx, const vec3_t pos, const vec3_t vieworg);
// R_SparkShower (as TE_SPARKS): the zoomed crossbow's bolt striking a wall.
void r_hlfx_event_sparks(r_hlfx_t *fx, const vec3_t pos);
// R_StreakSplash (as TE_STREAK_SPLASH): Counter-Strike's sparks at a bullet's hit.
void r_hlfx_event_streaks(r_hlfx_t *fx, const vec3_t pos, const vec3_t dir, int color, int count, float speed,
                          float random);
// R_Sprite_Trail (as TE_SPRITETRAIL): count glow sprites from start toward end.
void r_hlfx_event_trail(r_hlfx_t *fx, const world_t *w, const vec3_t start, const vec3_t end, const char *sprite,
                        int count, float life, float scale, float amplitude, float speed);
// Where a particle is `age` seconds after its birth.
void r_hlfx_particle_at(const r_hlparticle_t *p, float age, vec3_t out);
// The particles alive at t (copies, at most max), for tests.
int r_hlfx_particles(const r_hlfx_t *fx, double t, r_hlparticle_t *out, int max);
// An index of the engine's particle palette as r_hlfx colours it (see docs/goldsrc.md).
void r_hlfx_palette(int index, uint8_t *rgb);
double r_hlfx_flash_time(const r_hlfx_t *fx);
// The view model's muzzle as last drawn (r_hlfx_set_muzzle); 0 when none.
int r_hlfx_muzzle(const r_hlfx_t *fx, vec3_t out);
// The egon's beams of the view player (EV_EgonFire / EV_EgonStop, cl_dll/hl/hl_objects.cpp's
// UpdateBeams; docs/goldsrc.md): r_hlfx_egon_frame reads the world's log once a decoded frame
// (whether the view player's egon fires, since when, in which mode; after a seek or at a new
// level the log is read again); r_hlfx_egon gives what a view at v->time draws: two beams of
// sprites/xbeam1.spr from the view model's muzzle (or the eye, 8 down and 3 right, when the view
// model has no attachment) to where the view's line meets the world or a brush entity within
// 2048 units, and (single player) the flare sprites/XSpark1.spr there. Returns 1 while it fires
// (the view is the recording player's own, its view model the egon's, alive); *nbeams 0 and
// flare->model 0 when the level did not precache their sprites. After a wide firing stops, for
// 0.5 s, 0 with the flare growing and fading where it was (flare->model set: draw it).
void r_hlfx_egon_frame(r_hlfx_t *fx, const world_t *w);
int r_hlfx_egon(const r_hlfx_t *fx, const world_t *w, const r_view_t *v, r_hlbeam_t beams[2], int *nbeams,
                r_hlsprite_t *flare);
// Whether the client dll's rules draw a muzzle flash for this event script ("glock1").
int r_hlfx_event_flashes(const char *name);

#endif
