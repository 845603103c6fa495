// r_fsspot.h -- Forsaken's spot effects (the level's .FX list, assets/fsspot.h) as the game drew
// them, worked out from the demo time alone
//
// The game (spotfx.c ProcessSpotFX) runs each effect's state machine a frame at a time and makes
// its particles with rand(); here whether an effect made particles at game tick k is a function of
// k (its on / off cycle from the level's start), and each particle's random parts come from a hash
// of the effect's index and k, so a seek, a movie and a window show the same at the same moment.
// r_fsent.c draws the sprites (added to the scene). Facts: docs/forsaken.md "Spot effects".
#ifndef R_FSSPOT_H
#define R_FSSPOT_H

#include <stdint.h>

#include "../assets/fsspot.h"
#include "../assets/mxv.h"
#include "r_fsfx.h"
#include "r_fsworld.h"

#define FSSPOT_TICKS_PER_SEC 71.0   // GAME_SECOND: framelag counts these
#define FSSPOT_DELAY_TICKS   60.0   // LoadSpotFX: the file's seconds x ANIM_SECOND (60) (and x 60.0 the inactive one)

// The fire wall (CreateSpotFXFireWall: InitOnePrimBull of FLAMES, power level 2, every tick it is
// on; PrimaryWeaponAttribs[FLAMES], ProcessPrimaryBullets, InitOnePrimBull's FLAMES case): each
// flame flies 20 (80 x 0.25) units a tick along the effect's direction for up to its LifeCount of
// 1000 ticks, and dies at the first wall its move meets (CleanUpPrimBull: no bounce); its FmPoly
// (FM_FLAME) is FLAMES' Exp2 layout (expl.off here), a frame a tick up to 12, 16 x 0.25 = 4 units a
// texel (not growing: only the pyrolite's grows), turning 20 .. 49 degrees a tick from a random
// start, R G B 255; its XLight 1536 x 0.25 = 384 units, 128 0 16, following it; at the wall the
// light dies as a primary's hit (SetLightDie, "Moving lights": red 255 losing 2 and 50 units a tick).
#define FSSPOT_FLAME_SPEED   20.0f
#define FSSPOT_FLAME_LIFE    1000
#define FSSPOT_FLAME_SCALE   4.0f
#define FSSPOT_FLAME_RGB     255
#define FSSPOT_FLAME_TOP     12     // FM_FLAME's last frame
#define FSSPOT_MAX_LEGS      8      // the path's legs (a flame flies the first only)

// A flame's path: straight legs from where the effect is, each from a wall to the next; `wall`:
// how far the first wall is along the first (its whole reach when none is met).
typedef struct {
    int legs;
    float wall;
    float at[FSSPOT_MAX_LEGS][3], dir[FSSPOT_MAX_LEGS][3];
    float from[FSSPOT_MAX_LEGS];   // distance flown when the leg starts
} r_fsspot_path_t;

// The distance to the first wall from org along dir (unit), at most max; the wall's normal.
typedef float (*r_fsspot_wall_fn)(void *ctx, const float org[3], const float dir[3], float max, float normal[3]);

// The path of a flame from org along dir (normalised here), `reach` units long in all, reflected at
// each wall `wall` finds (NULL: straight). Returns 0 when org or dir is not usable (no legs).
int r_fsspot_path(r_fsspot_path_t *p, const float org[3], const float dir[3], float reach, r_fsspot_wall_fn wall,
                  void *ctx);
// Where the path is `along` units from its start.
void r_fsspot_path_at(const r_fsspot_path_t *p, float along, float out[3]);

// Whether the effect makes its particles at game tick `tick` (from the level's start): its
// generation (0 at once; 1 after its delay; 2 waiting for a trigger: never here), then on for its
// active time, off for its inactive time, and so on (an inactive time below 0: once only; 0: always on).
int r_fsspot_on(const fsspot_fx_t *fx, long tick);

// The fire wall of effect `index` at time t (seconds from the level's start) along `path`:
// the flames of the ticks it was on, still flying (not yet at the first wall), newest first, as
// expl.off sprites (`frames`: its frame count). At most max into out. Returns how many.
int r_fsspot_firewall(const fsspot_fx_t *fx, int index, const r_fsspot_path_t *path, double t, int frames,
                      r_fsfx_sprite_t *out, int max);

// The smoke (CreateSpotFXSmoke, FM_SPOTFX_SMOKE): one NEWTRAIL.OFF puff a tick while on, 5 units
// a texel growing 0.125 a tick, its direction the effect's + each axis Random_Range(5120) / 5120
// - 0.5, normalised, at 2.5 units a tick slowing 0.2 a tick, rising 0.2 a tick faster up to 10
// (the FmPoly's up: taken as 0 1 0), a frame every 25 ticks, gone after the last; lit (64 - frame x
// 12) / 256 of the effect's colour.
#define FSSPOT_SMOKE_SIZE    5.0f
#define FSSPOT_SMOKE_GROW    0.125f
#define FSSPOT_SMOKE_SPEED   2.5f
#define FSSPOT_SMOKE_ANIM    25.0f
// The flame (CreateSpotFXFlame, FM_SPOTFX_FLAME): one expl.off sprite a tick while on, 1.5 units a
// texel shrinking 0.0375 a tick, along the effect's direction at 4 units a tick slowing 0.2 a tick,
// rising as the smoke, half a frame a tick, R G B 255, a random turn; gone when its size or frames
// run out. Where its size falls below 0.875 (tick 17) it leaves a flame smoke
// (CreateSpotFXFlameSmoke): NEWTRAIL.OFF, 2 units a texel, R G B 64 (x the smoke's fade), every 12
// ticks a frame, its direction jittered Random_Range(5120) / 10240 - 0.25 each axis.
#define FSSPOT_FLAME_SIZE    1.5f
#define FSSPOT_FLAME_SHRINK  0.0375f
#define FSSPOT_FLAME_UP      4.0f

// The explosion (type 7: CreateSpotFXExplosion, FM_ANIM) once when its active time starts: a
// loop of Random_Range(3) + 1 (drawn again at each test) expl.off sprites, a frame every 3 ticks,
// R G B 192, moved out: the first 16 x 0.25 units a texel, the others 32 units about it each axis
// ((Random_Range(256) - 128) x 0.25), (Random_Range(10) + 6) x 0.25; each a random turn. With it
// an XLight of 384 units, 255 64 64, losing 38.4 units and 25 of each channel a tick.
#define FSSPOT_EXPLO_SIZE     4.0f
#define FSSPOT_EXPLO_ANIM     3.0f
#define FSSPOT_EXPLO_RGB      192
#define FSSPOT_EXPLO_MAX      3
// The game tick of the explosion of effect `fx` last made at or before tick `now` (-1: none):
// its active time's first tick, again each cycle only when the inactive time is above 0
// (ProcessSpotFX clears DoneOnce only on the way back from inactive).
long r_fsspot_explosion_tick(const fsspot_fx_t *fx, long now);

// Every sprite of effect `index` at time t: its type's rules above (fire wall, smoke, flame,
// explosion; the gravity sparks: r_fsspot_gravity; the other types: none). `frames` the frame counts of the FSFX_SPRITE_* layouts (0: not loaded, its
// sprites left out). At most max into out. Returns how many.
int r_fsspot_sprites(const fsspot_fx_t *fx, int index, const r_fsspot_path_t *path, double t,
                     const int frames[FSFX_SPRITE_KINDS], r_fsfx_sprite_t *out, int max);

// ---- gravity sparks (type 13: CreateSpotFXRealSparks, FM_SPOTFX_REALSPARKS) ----
// Every tick it is on, one chance in eight (!Random_Range(8)) of a burst: Random_Range(5) + 5
// BITS.OFF sparks from the effect's place, each living Random_Range(180) + 60 ticks, its velocity
// (units a tick) the effect's direction + each axis Random_Range(5120) / 5120 - 0.5, normalised,
// each axis then x (Random_Range(10000) / 2000 + 3); 8 x 0.25 units a texel, from frame
// Random_Range(frames) on at 0.1 a frame a tick, round; the effect's colour. Each tick a spark
// moves by its velocity unless that move meets a wall: then it stops there and its velocity is
// reflected (ReflectVector) at half the speed, and dies if that is below 5 x 0.25; then 0.5 x 0.25
// comes off the velocity's y (the group's up: taken as 0 1 0). With the burst a FLARE.OFF flash
// (FM_SPOTFX_SPARKSFACEME, 6 x 0.25 units a texel, 4 ticks, moved out) and an XLight of 1536 x
// 0.25 units, the colour, losing 153.6 x 0.25 units and 25 of each channel a tick (ProcessXLights).
#define FSSPOT_SPARK_CHANCE   8u
#define FSSPOT_SPARK_MIN      5
#define FSSPOT_SPARK_MORE     5u
#define FSSPOT_SPARK_MAX      9
#define FSSPOT_SPARK_LIFE0    60
#define FSSPOT_SPARK_LIFE_RND 180u
#define FSSPOT_SPARK_GRAVITY  0.125f
#define FSSPOT_SPARK_STOP     1.25f
#define FSSPOT_SPARK_SIZE     2.0f
#define FSSPOT_SPARK_ANIM     0.1f
#define FSSPOT_FLASH_SIZE     1.5f
#define FSSPOT_FLASH_TICKS    4
#define FSSPOT_BURST_LIGHT    384.0f
#define FSSPOT_BURST_SHRINK   38.4f
#define FSSPOT_BURST_FADE     25.0f
#define FSSPOT_SPARK_LEGS     8       // ours: the bounces followed (a spark is dropped after its eighth leg)
#define FSSPOT_SPARK_REACH    1024.0f // ours: the walls within this of the effect (each axis) are the ones met
#define FSSPOT_SPARK_FX_MAX   8       // ours: gravity spark effects drawn a level (each its walls and cache)

// One spark's path: legs from a wall to the next, each where it starts (`at`: its age, ticks),
// its place and velocity then; gone at age `end`. A bounce that kills it adds a last leg (the
// point on the wall, velocity 0) that it is drawn moving to in its last tick.
typedef struct {
    int legs;
    float end;
    uint32_t frame_rnd;             // its start frame is this mod BITS.OFF's frames
    float at[FSSPOT_SPARK_LEGS + 1], pos[FSSPOT_SPARK_LEGS + 1][3], vel[FSSPOT_SPARK_LEGS + 1][3];
} r_fsspot_spark_t;

// How many sparks the effect's burst makes at game tick k (0: none that tick; the on / off cycle
// aside: see r_fsspot_on).
int r_fsspot_burst(const fsspot_fx_t *fx, int index, long k);
// Spark j of that burst, its path off the walls `wall` finds (NULL: none), stepped a tick at a time.
void r_fsspot_spark(const fsspot_fx_t *fx, int index, long k, int j, r_fsspot_wall_fn wall, void *ctx,
                    r_fsspot_spark_t *out);
// Where it is `age` ticks after it was made (between ticks as the steps' closed form). 0 when gone.
int r_fsspot_spark_at(const r_fsspot_spark_t *s, float age, float out[3]);

// The level's gravity sparks: for each such effect (at most FSSPOT_SPARK_FX_MAX) the level's
// triangles near it and a cache of its sparks' paths (each a function of the effect, the tick
// and its number: the cache only saves working them out again). Made at load; NULL if none.
typedef struct r_fsspot_sparks_s r_fsspot_sparks_t;
r_fsspot_sparks_t *r_fsspot_sparks_create(const fsspot_t *spot, const mxv_t *level);
void r_fsspot_sparks_free(r_fsspot_sparks_t *s);
// The sprites of gravity sparks effect `index` at t (seconds from the level's start): its sparks
// and flashes. At most max. Returns how many.
int r_fsspot_gravity(r_fsspot_sparks_t *s, const fsspot_fx_t *fx, int index, double t,
                     const int frames[FSFX_SPRITE_KINDS], r_fsfx_sprite_t *out, int max);
// The moving lights effect `index` makes at t: the gravity sparks' bursts' and the explosion's
// XLights, and the fire wall's flames' (on `path`, flying, then dying at the wall). At most max.
// Returns how many.
#define FSSPOT_FLAME_LIGHT    384.0f
#define FSSPOT_DIE_SHRINK     50.0f   // SetLightDie: 50 units ..
#define FSSPOT_DIE_FADE       2.0f    // .. and 2 of the red (from 255) a tick
int r_fsspot_lights(const fsspot_fx_t *fx, int index, const r_fsspot_path_t *path, double t, r_fslight_t *out,
                    int max);
// ---- sounds (spotfx.c ProcessSpotFX; docs/forsaken.md "Spot effects", Sounds) ----
//
// A placed sound (type 17: PlaySpotSfx of the file's name, volume and sound type; heard whether or not
// its group is seen), the fire wall's SFX_MedFireBlast ("firembls", volume 1) and the explosion's
// SFX_BangBang ("exp1", CreateSpotFXExplosion's PlayPannedSfx). The sound starts `lead` ticks into each
// active time (1: the first tick ProcessSpotFX's Time reaches its TimeInterval of 1; 0: the explosion,
// made on its first frame), once per active time (DoneOnce); a looping one is stopped where an inactive
// time begins (StopSfx), and never when the effect is disabled after its one active time (inactive
// below 0) or has no inactive time (0).
typedef struct {
    char name[FSSPOT_NAME_LEN + 8];   // "compamb1.wav": lower case, ".wav" added
    int loops;                        // the game's tables flag it SFX_Looping (r_fssnd_loops)
    float volume;
    int centred;                      // sound type SPOT_SFX_TYPE_NoPan (1)
    int lead;
} r_fsspot_sound_t;

// The sound effect fx makes; 0 when it makes none (other types, an empty name).
int r_fsspot_sound(const fsspot_fx_t *fx, r_fsspot_sound_t *out);
// Sparks (type 2) and gravity sparks (13): on a tick they make particles (r_fsspot_on, its group taken
// as seen), CreateSpotFXSparks / CreateSpotFXRealSparks play PlayFixedSpotSfx(SFX_ElectricSpark
// "elecspk", freq 0, volume FSSPOT_SPARK_VOLUME) when !Random_Range(8) && !Random_Range(3): here the
// draws r_fsspot_burst makes (a burst's tick: its flash and light come with the sound), one tick in 24
// on the whole. 1 when it does.
#define FSSPOT_SPARK_SOUND "elecspk.wav"
#define FSSPOT_SPARK_VOLUME 0.25f
int r_fsspot_spark_sound(const fsspot_fx_t *fx, int index, long tick);
// The tick its sound last started at or before `tick` (from the level's start; -1: none yet, or one
// waiting for its trigger: pass a started one as r_fsent.c's spot_clock makes it), and in *playing
// whether a loop begun then still plays at `tick`. The explosion's: r_fsspot_explosion_tick's.
long r_fsspot_sound_start(const fsspot_fx_t *fx, int lead, long tick, int *playing);

#endif
