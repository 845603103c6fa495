// fsspot.h -- Forsaken's spot effects (Data/Levels/<level>/<level>.FX): the level's placed
// smoke, steam, sparks, flames, fire walls, explosions, drips ... and its placed sounds
//
// Layout, from the game's loader (ForsakenX/forsaken spotfx.c LoadSpotFX, spotfx.h), all
// little-endian, fields read one by one (no padding):
//
//     char[4] "PRJX", u32 version 4 (FX_VERSION_NUMBER), s32 count (at most 512, MAXSPOTFX),
//     then per effect: u16 type (SPOTFX_*, below), u16 group, u32 colour (0x00RRGGBB),
//     f32 position[3], direction[3], up[3], f32 active time, f32 inactive time (seconds),
//     u16 generation type (0 at once, 1 after the delay, 2 by a trigger), f32 generation delay
//     (seconds), s16 primary and s16 secondary weapon (-1 none), a NUL-terminated sound name
//     (the game reads it into 128 bytes), f32 sound volume, f32 sound speed, s16 sound type.
//
//     char err[256];
//     fsspot_t *s = fsspot_load(bytes, size, "ARENA.FX", err, sizeof err);   // "ARENA.FX: offset N: expected ..."
//     ... s->fx[i].type, .pos, .group ...
//     fsspot_free(s);
#ifndef FSSPOT_H
#define FSSPOT_H

#include <stddef.h>
#include <stdint.h>

#define FSSPOT_VERSION 4
#define FSSPOT_MAX 512              // MAXSPOTFX
#define FSSPOT_TYPES 36             // SPOTFX_Smoke (0) .. SPOTFX_SlickAfterburner (35)
#define FSSPOT_NAME_LEN 128         // the game's SFXFilename buffer, NUL included
#define FSSPOT_FIXED 72             // an effect's bytes besides its sound name and its NUL

enum {   // spotfx.h's SPOTFX_* (the afterburners 18..35 are enemies' and not listed)
    FSSPOT_SMOKE, FSSPOT_STEAM, FSSPOT_SPARKS, FSSPOT_NME_TRAIL, FSSPOT_NME_GLOW, FSSPOT_NME_VAPOUR_TRAIL,
    FSSPOT_FLAME, FSSPOT_EXPLOSION, FSSPOT_FIRE_PRIMARY, FSSPOT_FIRE_SECONDARY, FSSPOT_ELECTRIC_BEAMS,
    FSSPOT_GRAVGON_TRAIL, FSSPOT_FIRE_WALL, FSSPOT_GRAVITY_SPARKS, FSSPOT_SHRAPNEL, FSSPOT_BUBBLES, FSSPOT_DRIP,
    FSSPOT_SOUND,
};

typedef struct {
    uint16_t type, group;
    uint8_t r, g, b;                // the colour's bytes
    float pos[3], dir[3], up[3];
    float active, inactive;         // seconds (the game: x 60, ANIM_SECOND)
    uint16_t gen_type;
    float gen_delay;                // seconds
    int16_t primary, secondary;
    char sound[FSSPOT_NAME_LEN];
    float volume, speed;
    int16_t sound_type;
    size_t offset;                  // where its record starts in the file
} fsspot_fx_t;

typedef struct {
    int count;
    fsspot_fx_t *fx;
    size_t end;                     // bytes read (the file's size when it is exactly as laid out)
} fsspot_t;

// NULL and "name: offset N: expected ..." in err when the bytes are not a .FX as laid out (cut
// short, another magic or version, a count below 0 or above 512, a type above 35, a generation
// type above 2, a sound name of 128 bytes or more or not printable, a non-finite or huge number).
fsspot_t *fsspot_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap);
void fsspot_free(fsspot_t *s);
// The type's name in spotfx.h ("Smoke", "FireWall", ...; "Afterburner" for 18..35).
const char *fsspot_type_name(int type);

#endif
