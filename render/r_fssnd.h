// r_fssnd.h -- Forsaken's sound rules (the game's sfx.c, facts only): which sounds loop, and how loud a
// placed sound is for the camera (docs/forsaken.md "Sound rules")
//
// The game plays a sound through StartPannedSfx: its distance from the camera ship plus the level's
// SoundInfo entry from the camera's group to the sound's (a negative entry: not heard) decides its
// volume in DirectSound millibels, from 0 down to sound_minimum_volume (-10000 / 3 = -3333), which
// its OpenAL layer (sound_openal.c sound_volume) turns into a gain 10^(mB / 2000). A one-shot
// (PlayPannedSfx, PlaySpotSfx of a sound without SFX_Looping) is not played at or past 24 x 1024 x
// GLOBAL_SCALE = 6144 units and has -(distance x 0.6) mB, pulled towards -3333 by VolModify; a looping
// one (ProcessLoopingSfx, every frame) is heard inside 0.75 of that (4608 units), -3333 x distance /
// 4608 mB, pulled the same way by its volume. The game's sfx slider (GlobalSoundAttenuation, 0..0.9)
// scales both; demoplay takes it as 1 (its --volume is the listener's).
#ifndef R_FSSND_H
#define R_FSSND_H

#include <stdint.h>

#include "../assets/asset.h"
#include "../assets/mxv.h"

#define FSSND_MIN_MB        (-3333)     // sound_minimum_volume: -10000 / 3
#define FSSND_MAX_DISTANCE  6144.0f     // 24 * 1024 * GLOBAL_SCALE
#define FSSND_LOOP_DISTANCE 4608.0f     // x LOOPING_SFX_SCALE 0.75

// Whether the game's tables (sfx.c Sfx_Filenames, LevelSpecificSfxLookup) flag the sound SFX_Looping;
// `name` in any case, with or without ".wav" (a name not listed: its last two digits dropped, as
// ReturnSFXIndex looks it up again).
int r_fssnd_loops(const char *name);
// A one-shot's gain (0..1) at `distance` (SoundInfo included) with VolModify `vol`; 0 when the game
// would not play it (at or past 6144, or a negative distance).
float r_fssnd_gain(float distance, float vol);
// A loop's gain at `distance` with its volume `vol`; 0 when out of range (at or past 4608).
float r_fssnd_loop_gain(float distance, float vol);

// The groups whose box (the portal section's centre +- half size: PointInGroupBoundingBox) holds p, at
// most max; how many.
int r_fssnd_groups(const mxv_t *m, const float p[3], int *out, int max);
// The level's SoundInfo entry from a camera in one of `from` to a sound in one of `to`: of several
// (overlapping boxes) the smallest; 0 when either list is empty (the game's camera in no group: 0) or
// the level has no table; below 0: not heard.
float r_fssnd_extra(const mxv_t *m, const int *from, int nfrom, const int *to, int nto);

// Variants (sfx.c PreProcessSfx, GetFullSfxPath, StartPannedSfx, InitLoopingSfx): the game looks for
// NAME.wav, else NAME01.wav, NAME02.wav ... up to the first missing (at most MAX_SFX_VARIANTS, 16), and
// each time it plays the sound takes one of them at random (Random_Range).
#define FSSND_VARIANTS 16
#define FSSND_VARIANT_NAMES 64         // names looked up per level (more: played as asked)
#define FSSND_NAME_LEN 48
typedef struct {
    char base[FSSND_NAME_LEN];         // the name asked for ("exp1.wav")
    int count;                         // 0: NAME.wav itself (or nothing found); n: NAME01 .. NAMEnn
    char names[FSSND_VARIANTS][FSSND_NAME_LEN + 12];   // under the sound folder: "generic/exp101.wav"
} r_fssnd_variant_t;
typedef struct {
    r_fssnd_variant_t v[FSSND_VARIANT_NAMES];
    int n;
} r_fssnd_variants_t;

// The file to play for `name` ("NAME.wav"), as a path under the sound folder. The game looks in
// data/sound/generic/ (its sounds) and data/sound/Mapped/ (the levels' own: sfx.c GetSfxPath's
// GenericSfxPath and LevelSpecSfxPath); demoplay looks in those two, then in sound/ itself (a
// folder of loose files, as the tests make): the first that has NAME.wav, else the first that has
// NAME01.wav, where the variant `seed` picks among NAME01.wav ... (ours: a hash instead of the
// game's rand(), so a seek and a second run hear the same). The files are looked for once per name
// (kept in vs until r_fssnd_variants_clear); a name found in a subfolder or a variant lives as
// long, else `name` itself is returned. NULL name: NULL.
const char *r_fssnd_variant(r_fssnd_variants_t *vs, const asset_files_t *files, const char *name, uint32_t seed);
void r_fssnd_variants_clear(r_fssnd_variants_t *vs);

#endif
