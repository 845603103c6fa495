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
#include "r_fsfx.h"

#define FSSPOT_TICKS_PER_SEC 71.0   // GAME_SECOND: framelag counts these
#define FSSPOT_DELAY_TICKS   60.0   // LoadSpotFX: the file's seconds x ANIM_SECOND (60) (and x 60.0 the inactive one)

// The fire wall (CreateSpotFXFireWall: InitOnePrimBull of FLAMES, the pyrolite, power level 2,
// every tick it is on): each flame flies 20 units a tick for its 64 ticks (PrimaryWeaponAttribs),
// bouncing off the walls (ReflectVector); its FmPoly (FM_FLAME) is expl.off, a frame a tick up to
// 12, 2 x 0.125 + 0.1875 units a texel growing 0.01875 a tick, turning 20 .. 49 degrees a tick from
// a random start, R G B 128.
#define FSSPOT_FLAME_SPEED   20.0f
#define FSSPOT_FLAME_LIFE    64
#define FSSPOT_FLAME_SCALE   0.4375f
#define FSSPOT_FLAME_GROW    0.01875f
#define FSSPOT_FLAME_RGB     128
#define FSSPOT_MAX_LEGS      8      // bounces followed (64 ticks x 20 units: 1280 units)

// A flame's path: straight legs from where the effect is, each from a wall to the next.
typedef struct {
    int legs;
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
// the flames of the ticks it was on, still alive, as expl.off sprites (`frames`: its frame count).
// At most max into out. Returns how many.
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

// Every sprite of effect `index` at time t: its type's rules above (fire wall, smoke, flame; the
// other types: none). `frames` the frame counts of the FSFX_SPRITE_* layouts (0: not loaded, its
// sprites left out). At most max into out. Returns how many.
int r_fsspot_sprites(const fsspot_fx_t *fx, int index, const r_fsspot_path_t *path, double t,
                     const int frames[FSFX_SPRITE_KINDS], r_fsfx_sprite_t *out, int max);

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
// "elecspk", freq 0, volume FSSPOT_SPARK_VOLUME) when !Random_Range(8) && !Random_Range(3): here both
// draws from a hash of the effect's index and the tick (one tick in 24 on the whole). 1 when it does.
#define FSSPOT_SPARK_SOUND "elecspk.wav"
#define FSSPOT_SPARK_VOLUME 0.25f
int r_fsspot_spark_sound(const fsspot_fx_t *fx, int index, long tick);
// The tick its sound last started at or before `tick` (from the level's start; -1: none yet, or a
// trigger's, not followed), and in *playing whether a loop begun then still plays at `tick`.
long r_fsspot_sound_start(const fsspot_fx_t *fx, int lead, long tick, int *playing);

#endif
