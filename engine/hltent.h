// hltent.h -- Half-Life's temp models: shells ejected by the weapons, gibs and breakable chunks
//
// One simulation that the renderer (where they are drawn) and the sound system (when and where
// they hit the world, for their bounce sounds) each run on their own instance: both step the same
// log entries in the same fixed steps, so they agree without talking to each other.
//
// TE_MODEL (106), TE_EXPLODEMODEL (107), TE_BREAKMODEL (108), TE_PROJECTILE (119) and the shells of the weapons' client events
// (cl_dll's EV_EjectBrass) make models that fly, tumble, bounce off the world and lie
// still, by the client's temp entity rules (HUD_TempEntUpdate; R_TempModel and
// R_BreakModel in the engine's efx API). They come from the world's log of lasting things
// (world->decal_log, which the decoder fills and snapshots carry), so that after a seek the
// same models are where playing puts them: each is simulated in fixed steps of
// HLTENT_STEP seconds from its birth, with random numbers from its log entry, so its place
// at a moment depends on nothing else. A fixed pool, nothing allocated while playing.
#ifndef HLTENT_H
#define HLTENT_H

#include <stdint.h>

#include "../assets/bsp.h"
#include "world.h"

#define HLTENT_MAX 500        // the engine's MAX_TEMP_ENTITIES (a full pool drops new ones, as CL_TempEntAlloc)
#define HLTENT_STEP 0.01      // seconds a simulation step (the client at 100 frames a second)
#define HLTENT_GRAVITY 800.0f // sv_gravity's default (movevars)

// FTENT_* flags of the SDK's r_efx.h that temp models use
enum {
    HLTENT_GRAVITY_F = 0x2,    // FTENT_GRAVITY
    HLTENT_ROTATE = 0x4,       // FTENT_ROTATE
    HLTENT_SLOWGRAVITY = 0x8, // FTENT_SLOWGRAVITY
    HLTENT_SMOKETRAIL = 0x10,  // FTENT_SMOKETRAIL
    HLTENT_COLLIDEWORLD = 0x20,// FTENT_COLLIDEWORLD
    HLTENT_FLICKER = 0x40,     // FTENT_FLICKER
    HLTENT_FADEOUT = 0x80,     // FTENT_FADEOUT
    HLTENT_COLLIDEALL = 0x1000,// FTENT_COLLIDEALL
    HLTENT_COLLIDEKILL = 0x4000,// FTENT_COLLIDEKILL: ends when it hits
};

// The client's bounce sound types (the SDK's const.h BOUNCE_*: a temp model's hitSound). TE_MODEL's
// TE_BOUNCE_SHELL / TE_BOUNCE_SHOTSHELL give SHELL / SHOTSHELL; TE_BREAKMODEL's pieces take its
// flags & BREAK_TYPEMASK (0x4f) as they are, so a combination of materials is no known type.
enum {
    HLTENT_BOUNCE_GLASS = 0x01,
    HLTENT_BOUNCE_METAL = 0x02,
    HLTENT_BOUNCE_FLESH = 0x04,
    HLTENT_BOUNCE_WOOD = 0x08,
    HLTENT_BOUNCE_SHRAP = 0x10,
    HLTENT_BOUNCE_SHELL = 0x20,
    HLTENT_BOUNCE_CONCRETE = 0x40,
    HLTENT_BOUNCE_SHOTSHELL = 0x80,
};

// A temp model with a bounce sound type hitting the world (HUD_TempEntUpdate calls the engine's
// sound callback there, before the velocity is reflected and damped).
typedef struct {
    double time;               // the end of the step it hit in
    vec3_t org;                // the contact point
    int zvel;                  // abs of its vertical speed as it hit, truncated (the callback's int)
    float damp;                // 0: it came to rest there (the callback then plays nothing)
    int hitsound;              // HLTENT_BOUNCE_*
    uint32_t id;               // the model's own number: its log entry x 128 + its piece
    uint32_t seed;             // random numbers of this hit (the model's stream and its hit count)
} hltent_bounce_t;

// One live temp model as it is drawn at a moment.
typedef struct {
    int model;                 // world model index
    uint32_t pick;             // its body (studio) or frame (sprite): pick % the model's variations
    vec3_t org, ang;
    int rendermode, amount;    // RM_* (kRenderNormal or kRenderTransTexture), 0..255
} hltent_draw_t;

typedef struct hltent_s hltent_t;

hltent_t *hltent_create(void);
void hltent_free(hltent_t *p);
// After a seek or a new demo: the next hltent_frame spawns the log's models again.
void hltent_clear(hltent_t *p);
// Once a decoded frame: the log's new entries spawn their models (the level's bsp for the
// spots of TE_BREAKMODEL's pieces; NULL: no level, nothing spawns). w is kept (not owned) until the
// next call or hltent_clear: its brush entities and players are what the steps of FTENT_COLLIDEALL
// models (TE_PROJECTILE) meet; the other models collide with the world alone (PM_WORLD_ONLY).
void hltent_frame(hltent_t *p, const bsp_t *bsp, const world_t *w);
// Step the models to time t (fixed steps, each against the world) and list those alive
// then (at most max). Steps are only ever taken forward; t before a model's state shows it
// where it is.
int hltent_list(hltent_t *p, const bsp_t *bsp, double t, hltent_draw_t *out, int max);
// Step the models to time t1 and write the hits with a bounce sound type taken in steps ending
// in (t0, t1] (at most max, the earliest steps first per model; the rest are dropped); returns
// how many. Hits of steps taken by an earlier call are not given again: called once a decoded
// frame with (w->prev_time, w->time], each hit comes once, also after a seek (a cleared pool
// gives nothing until hltent_frame spawned the log again, then steps again from it and gives
// only the window's hits).
int hltent_bounces(hltent_t *p, const bsp_t *bsp, double t0, double t1, hltent_bounce_t *out, int max);
// FTENT_SMOKETRAIL: after each step a model with the flag took (its collision done; the stop on a
// floor clears it), HUD_TempEntUpdate calls the engine's R_RocketTrail(its place before the step,
// after it, 1): a smoke trail along the step. The steps whose smoke can still be seen at t.
#define HLTENT_TRAIL_LIFE 0.8   // a smoke particle's longest life (pt_fire from ramp 2, 5 a second, to 6)
typedef struct {
    vec3_t start, end;         // the model's place before and after the step
    double time;               // the end of the step (the particles' birth)
    uint32_t seed;             // random numbers of this step's trail (the model's stream and the step)
} hltent_trail_t;
// The trail steps of the models at t (their steps ending in (t - HLTENT_TRAIL_LIFE, t]; a model's
// trail stays after it is gone, while its slot is not taken): steps the models to t as hltent_list
// does; at most max, the pool's first models and each one's oldest steps first.
int hltent_trails(hltent_t *p, const bsp_t *bsp, double t, hltent_trail_t *out, int max);
// FTENT_FLICKER (R_TempSphereModel's models, TE_EXPLODEMODEL): HUD_TempEntUpdate counts its frames
// (gTempEntFrame, 0..31, one a frame, not by time) and gives the model a light on the frames where
// the count equals the model's curstate.effects (its number in the message, & 31): radius 60, colour
// 255 120 0, for 0.01 s. Here a frame is a step (0.01 s) and the count is the step's number since time
// 0, & 31. The models that light at t (stepped to t as hltent_list does), at most max, where they are.
#define HLTENT_FLICKER_RADIUS 60.0f
int hltent_lights(hltent_t *p, const bsp_t *bsp, double t, vec3_t *out, int max);
// For tests: the models alive at t (after hltent_list stepped them there).
int hltent_count(const hltent_t *p, double t);

// A client event's gun (the SDK's EV_GetGunPosition): its origin plus the view height (28, ducked
// 12; the recording player's own from the demo's eye, Counter-Strike's 17) and its angles; or,
// for the recording player's events that come without an origin, the demo's eye and view angles
// (returns 0 then, 1 for the event's own). The shells here and the bullets of r_hldecal.c.
int hltent_event_gun(const world_decal_t *e, vec3_t src, vec3_t ang);
// The same, aimed as the gun fired: Counter-Strike's events add the punch the server fired with
// (iparam1 / iparam2 / 100, pitch and yaw) to an event's own angles. The bullets and the shells.
int hltent_event_aim(const world_decal_t *e, vec3_t src, vec3_t ang);

// EV_FireCrossbow2 (the zoomed crossbow's shot, cl_dll/ev_hldm.cpp): log entry e's line from the gun
// 8192 units along its aim, with the players solid as the client makes them (EV_SetSolidPlayers:
// hlbullet_trace_all, the shooter left out). HLTENT_BOLT_WALL when it stops on the world or a
// brush entity drawn normally (where the client sticks a bolt, plays weapons/xbow_hit1.wav and
// throws sparks), HLTENT_BOLT_BODY when it stops on a player or a monster first (not SOLID_BSP:
// xbow_hitbod1/2 there, no bolt,
// no sparks), with the hit in *b and the shot's direction in fwd; 0 for another event, a miss or glass.
enum { HLTENT_BOLT_WALL = 1, HLTENT_BOLT_BODY = 2 };
struct hlbullet_s;
int hltent_crossbow_hit(const bsp_t *bsp, const world_t *w, const world_decal_t *e, struct hlbullet_s *b, vec3_t fwd);

#endif
