// pal.c -- palettes and light colormaps (Quake: gfx/palette.lmp + gfx/colormap.lmp, Quake II: pics/colormap.pcx, or computed)
#include "pal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcx.h"

int pal_nearest(const uint8_t *palette, int count, int r, int g, int b)
{
    int best = 0, bestd = 1 << 30;
    for (int i = 0; i < count; i++) {
        int dr = palette[i * 3] - r, dg = palette[i * 3 + 1] - g, db = palette[i * 3 + 2] - b;
        int d = dr * dr * 3 + dg * dg * 4 + db * db * 2;
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    return best;
}

void pal_make_colormap(const uint8_t *palette, int fullbright_start, uint8_t *colormap)
{
    // Row 32 is the colour as painted; rows above brighten toward 2x, rows below darken to black.
    for (int row = 0; row < PAL_ROWS; row++) {
        int scale = (PAL_ROWS - row) * 256 / 32;   // 8.8 fixed: row 32 = 256
        for (int c = 0; c < 256; c++) {
            if (c >= fullbright_start) {
                colormap[row * 256 + c] = (uint8_t)c;
                continue;
            }
            int r = palette[c * 3] * scale >> 8, g = palette[c * 3 + 1] * scale >> 8, b = palette[c * 3 + 2] * scale >> 8;
            colormap[row * 256 + c] = (uint8_t)pal_nearest(palette, fullbright_start < 256 ? fullbright_start : 256,
                                                           r > 255 ? 255 : r, g > 255 ? 255 : g, b > 255 ? 255 : b);
        }
    }
    memcpy(colormap + PAL_ROWS * 256, colormap + 32 * 256, 256);
}

static void grey_palette(uint8_t *palette)
{
    for (int i = 0; i < 256; i++)
        palette[i * 3] = palette[i * 3 + 1] = palette[i * 3 + 2] = (uint8_t)i;
}

// The grey ramp, for when the game's palette cannot be read: light rows scale the
// index itself, no search needed.
static void grey_fallback(pal_t *p)
{
    grey_palette(p->palette);
    p->fullbright_start = 256;
    for (int row = 0; row < PAL_ROWS; row++)
        for (int c = 0; c < 256; c++) {
            int v = c * (PAL_ROWS - row) / 32;
            p->colormap[row * 256 + c] = (uint8_t)(v > 255 ? 255 : v);
        }
    memcpy(p->colormap + PAL_ROWS * 256, p->colormap + 32 * 256, 256);
}

// Quake II keeps both in one picture: its palette is the game's, and its first 64
// rows of 256 are the light rows in Quake's order (row 0 brightest, 32 as painted,
// 63 darkest; the rows below are the translucency table). No colour is full bright.
static int load_quake2(pal_t *p, vfs_t *fs, char *err, size_t errcap)
{
    p->fullbright_start = 256;
    size_t size = 0;
    uint8_t *data = fs ? vfs_load(fs, "pics/colormap.pcx", &size) : NULL;
    char perr[160] = "not found";
    pcx_t pic;
    int rc = -1;
    if (data && pcx_load(&pic, data, size, perr, sizeof perr) == 0) {
        if (pic.width == 256 && pic.height >= PAL_ROWS) {
            memcpy(p->palette, pic.palette, 768);
            memcpy(p->colormap, pic.pixels, PAL_ROWS * 256);
            memcpy(p->colormap + PAL_ROWS * 256, pic.pixels + 32 * 256, 256);
            p->loaded = 1;
            rc = 0;
        } else {
            snprintf(perr, sizeof perr, "offset 8: expected a 256-pixel-wide picture of at least 64 rows, got %dx%d",
                     pic.width, pic.height);
        }
        pcx_free(&pic);
    }
    free(data);
    if (rc < 0) {
        grey_fallback(p);
        if (err && errcap)
            snprintf(err, errcap, "pics/colormap.pcx: %s", perr);
    }
    return rc;
}

int pal_load(pal_t *p, vfs_t *fs, world_game_t game, char *err, size_t errcap)
{
    memset(p, 0, sizeof(*p));
    if (game == GAME_QUAKE2)
        return load_quake2(p, fs, err, errcap);
    p->fullbright_start = 224;   // GoldSrc (per-level quantizing) comes later
    size_t size = 0;
    uint8_t *pal = fs ? vfs_load(fs, "gfx/palette.lmp", &size) : NULL;
    int rc = 0;
    if (pal && size >= 768) {
        memcpy(p->palette, pal, 768);
    } else {
        grey_palette(p->palette);
        if (err)
            snprintf(err, errcap, "gfx/palette.lmp: %s", pal ? "offset 0: expected 768 bytes" : "not found");
        rc = -1;
    }
    free(pal);
    uint8_t *cm = (fs && rc == 0) ? vfs_load(fs, "gfx/colormap.lmp", &size) : NULL;
    if (cm && size >= PAL_ROWS * 256) {
        memcpy(p->colormap, cm, PAL_ROWS * 256);
        memcpy(p->colormap + PAL_ROWS * 256, cm + 32 * 256, 256);
        p->loaded = 1;
    } else {
        if (rc == 0 && err)
            snprintf(err, errcap, "gfx/colormap.lmp: %s", cm ? "offset 0: expected 16384 bytes" : "not found");
        if (rc < 0) {
            grey_fallback(p);
        } else {
            pal_make_colormap(p->palette, p->fullbright_start, p->colormap);
        }
        rc = -1;
    }
    free(cm);
    return rc;
}
