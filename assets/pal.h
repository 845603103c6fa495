// pal.h -- palettes and light colormaps: Quake's gfx/palette.lmp + gfx/colormap.lmp, Quake II's pics/colormap.pcx, or one computed from a palette
//
//     pal_t p;
//     pal_load(&p, fs, GAME_QUAKE, err, sizeof err);   // never fails hard: falls back to a grey ramp
//
// The colormap is 64 light rows x 256 colours: colormap[row * 256 + c], row 0
// brightest, row 32 the colour as painted, row 63 darkest; colours from
// fullbright_start up keep their colour in every row (Quake's last 32).
#ifndef PAL_H
#define PAL_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/vfs.h"
#include "../engine/world.h"

#define PAL_ROWS 64

typedef struct {
    uint8_t palette[768];
    uint8_t colormap[PAL_ROWS * 256 + 256];   // +256 spare row for translation tables
    int fullbright_start;                     // 224 for Quake, 256 = none
    int loaded;                               // 1: from the game's files, 0: fallback
    // See-through drawing: alphamap[a * 256 + b] is the colour a third of the way from
    // b to a (a over b at 33 %; swap them for 66 %); pal_set computes one.
    // has_alphamap = 0: Quake (nothing is see-through). Quake II's table, from
    // colormap.pcx, is the other way round (a over b at 66 %: ref_soft draws a
    // 33 % texel t over pixel p as [p * 256 + t]): alphamap_66_first = 1.
    int has_alphamap;
    int alphamap_66_first;
    uint8_t alphamap[256 * 256];
} pal_t;

// Load the game's palette and colormap. Returns 0, or -1 with a message in err
// and a usable fallback (grey ramp palette, computed colormap) in *p.
int pal_load(pal_t *p, vfs_t *fs, world_game_t game, char *err, size_t errcap);
// Use `palette` (768 bytes) with a computed colormap and see-through table (a GoldSrc
// level's palette). Colours from fullbright_start up stay themselves in every light row
// (GoldSrc passes 255: the see-through index of '{' textures survives lighting).
void pal_set(pal_t *p, const uint8_t *palette, int fullbright_start);
// Compute p->alphamap from p->palette (nearest colour of every 33 % mix).
void pal_make_alphamap(pal_t *p);
// Build a colormap for `palette` by nearest-colour search (for games without one).
void pal_make_colormap(const uint8_t *palette, int fullbright_start, uint8_t *colormap);
// Nearest palette index to an RGB colour, searching indices [0, count).
int pal_nearest(const uint8_t *palette, int count, int r, int g, int b);

// The same search for many colours against one palette: pal_near gives exactly
// pal_nearest's answer (the lowest index among equally near colours) but looks only
// at the colours whose green is near enough, walking out from the query's green in
// the palette sorted by green. Init costs a sort of `count` entries; no allocation.
typedef struct {
    int count;
    uint8_t order[256];    // palette indices, by ascending green
    uint8_t rgb[256][3];   // their colours, in that order
} pal_near_t;
void pal_near_init(pal_near_t *n, const uint8_t *palette, int count);
int pal_near(const pal_near_t *n, int r, int g, int b);

// Median cut: up to `ncolors` colours for the pixels counted in `hist` (32768 bins of
// 5-bit r,g,b: hist[r << 10 | g << 5 | b]), written to palette. Returns how many.
int pal_median_cut(const uint32_t *hist, int ncolors, uint8_t *palette);

#endif
