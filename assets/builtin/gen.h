// gen.h -- the built-in content generator (`build/rel/mkbuiltin OUTDIR`): shared layout and palette plan
//
// Everything in build/builtin/ is made here, at build time, from nothing outside
// the repo: palette and colormap, a BSP29 level, MDL models, a sprite, WAV
// sounds, gfx.wad (console font, status-bar pictures) and a Quake demo that
// plays through the level. The output is a game folder laid out like Quake's:
//
//     OUTDIR/id1/gfx/palette.lmp, gfx/colormap.lmp, gfx.wad
//     OUTDIR/id1/maps/builtin.bsp
//     OUTDIR/id1/progs/*.mdl, progs/*.spr
//     OUTDIR/id1/sound/...
//     OUTDIR/id1/demos/builtin.dem
//
// All output is deterministic (no clock, no unseeded random numbers): two runs
// write identical bytes. Each gen_*.c file owns one kind of content.
#ifndef GEN_H
#define GEN_H

#include <stddef.h>
#include <stdint.h>

// ---- output ------------------------------------------------------------------
// Write OUTDIR/id1/<rel> (folders made as needed). 0, or -1 with a message on stderr.
int gen_write(const char *outdir, const char *rel, const void *data, size_t size);

// Seeded xorshift32, the generators' only random numbers (deterministic, no shared state).
static inline uint32_t gen_rand(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

// ---- the palette plan (gen_pal.c makes the colours) --------------------------
// 14 ramps of 16 colours, hues in the order of Quake's palette so that the
// renderer's fixed particle colours (fire 0x60-0x6f, blood 0x40-0x4f ...) mean
// the same here. As in Quake's palette, ramps 0-7 run dark to bright and ramps
// 8-13 (128..223) bright to dark: the player colour translation reverses those
// (Quake's rule), so shirts and pants in any colour keep their shading.
// GP(ramp, level) hides the direction: level 0 is always the darkest.
// 224..254 are fullbright (kept in every light row), 255 is the transparent key.
enum {
    GP_GREY = 0, GP_BROWN = 1, GP_BLUEGREY = 2, GP_GREEN = 3, GP_RED = 4, GP_ORANGE = 5, GP_GOLD = 6,
    GP_SKIN = 7, GP_PURPLE = 8, GP_MAGENTA = 9, GP_TAN = 10, GP_TEAL = 11, GP_YELLOW = 12, GP_BLUE = 13,
    GP_FIRE = 14,     // 224..239 fullbright fire, dark red .. white-yellow
    GP_BRIGHT = 15,   // 240..254 fullbright mixed (cyan, magenta, green, blue, white ...), 255 transparent
};
#define GP(ramp, level) ((uint8_t)((ramp) * 16 + ((ramp) >= 8 && (ramp) < 14 ? 15 - (level) : (level))))
#define GP_TRANSPARENT 255
#define GP_FULLBRIGHT_START 224

// gen_pal.c
void gen_palette(uint8_t palette[768]);
void gen_colormap(const uint8_t palette[768], uint8_t colormap[64 * 256]);   // row 0 brightest, 32 as painted, 63 darkest

// ---- the level layout (gen_level.c builds the BSP; gen_demo.c moves through it) ----
// The map seen from above: one character per 64x64-unit cell, row 0 is north
// (largest y). Cell (cx, row) spans x in [cx*64, cx*64+64), y in
// [(GEN_ROWS-1-row)*64, +64). Vertically the level has 5 layers of 64 units:
// layer 0 is z in [-64, 0) (floor slab / water pit), 1..3 are z in [0, 192),
// layer 4 is z in [192, 256) (ceiling slab / sky).
//
//   '#' solid rock
//   'a' room A: brick walls, 192 high           'b' room B: metal panels, 192 high
//   'w' room B's pool: water from z -64 to -8 (layer 0 is water, the surface at z = -8 is
//       not on a cell boundary: see GEN_WATER_Z), floor at z = -64
//   'c' corridor, 128 high (layers 1-2)         'D' corridor cell where the door is
//   's' courtyard: open to the sky (layer 4 is sky), 192 high walls
#define GEN_COLS 20
#define GEN_ROWS 13
#define GEN_CELL 64
static const char *const gen_layout[GEN_ROWS] = {
    "####################",
    "#aaaaaa###bbbbbbbbb#",
    "#aaaaaa###bbbwwwbbb#",
    "#aaaaaacDcbbbwwwbbb#",
    "#aaaaaa###bbbwwwbbb#",
    "#aaaaaa###bbbbbbbbb#",
    "###aa######bbb######",
    "###aa######bbb######",
    "#ssssssssssssssssss#",
    "#ssssssssssssssssss#",
    "#ssssssssssssssssss#",
    "#ssssssssssssssssss#",
    "####################",
};
#define GEN_WATER_Z (-8.0f)    // the pool's surface (the water leaf is z -64..-8)

// The door: brush model *1, a slab in the 'D' cell closing the corridor,
// drawn at its entity origin; the demo raises it by up to GEN_DOOR_RISE.
#define GEN_DOOR_MINS_X (8 * 64 + 24.0f)
#define GEN_DOOR_MAXS_X (8 * 64 + 40.0f)
#define GEN_DOOR_MINS_Y ((GEN_ROWS - 1 - 3) * 64.0f)
#define GEN_DOOR_MAXS_Y ((GEN_ROWS - 1 - 3) * 64.0f + 64.0f)
#define GEN_DOOR_MINS_Z 0.0f
#define GEN_DOOR_MAXS_Z 128.0f
#define GEN_DOOR_RISE 120.0f

// Point lights baked into the lightmaps (x, y, z, intensity as Quake's "light" key, style).
// Style 0 is normal light; style 1 flickers (its string comes from the demo's lightstyle).
typedef struct { float x, y, z, light; int style; } gen_light_t;
static const gen_light_t gen_lights[] = {
    { 2 * 64 + 32, 10 * 64 + 32, 160, 300, 0 },   // room A, west
    { 5 * 64 + 32, 8 * 64 + 32, 160, 300, 0 },    // room A, east
    { 8 * 64 + 32, 9 * 64 + 32, 100, 200, 0 },    // corridor by the door
    { 11 * 64 + 32, 10 * 64 + 32, 160, 280, 1 },  // room B, flickering
    { 17 * 64 + 32, 8 * 64 + 32, 160, 280, 0 },   // room B, east
    { 14 * 64 + 32, 9 * 64 + 32, 40, 250, 0 },    // room B, over the pool
    { 12 * 64 + 32, 5 * 64 + 32, 120, 200, 0 },   // corridor B -> courtyard
};
#define GEN_NUM_LIGHTS ((int)(sizeof(gen_lights) / sizeof(gen_lights[0])))
#define GEN_SUN_LIGHT 180   // courtyard cells under the sky get this much extra light

// Where the demo's player starts (also the level's info_player_start).
#define GEN_START_X (2 * 64 + 32.0f)
#define GEN_START_Y (9 * 64 + 32.0f)
#define GEN_START_Z 24.0f   // origin of the player (feet at 0: Quake's player box is -24..32)

// gen_level.c: write maps/builtin.bsp. 0 or -1.
int gen_level(const char *outdir, const uint8_t palette[768]);
// gen_models.c: progs/*.mdl and progs/*.spr. 0 or -1.
int gen_models(const char *outdir, const uint8_t palette[768]);
// gen_sound.c: sound/*.wav. 0 or -1.
int gen_sounds(const char *outdir);
// gen_pics.c: gfx.wad (conchars, status-bar pictures), gfx/palette.lmp, gfx/colormap.lmp. 0 or -1.
int gen_pics(const char *outdir, const uint8_t palette[768], const uint8_t colormap[64 * 256]);
// gen_demo.c: demos/builtin.dem. 0 or -1.
int gen_demo(const char *outdir);

#endif
