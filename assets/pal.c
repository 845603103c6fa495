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

void pal_near_init(pal_near_t *n, const uint8_t *palette, int count)
{
    n->count = count < 0 ? 0 : count > 256 ? 256 : count;
    // counting sort by green, stable: equal greens keep their index order
    int at[257] = {0};
    for (int i = 0; i < n->count; i++)
        at[palette[i * 3 + 1] + 1]++;
    for (int v = 0; v < 256; v++)
        at[v + 1] += at[v];
    for (int i = 0; i < n->count; i++) {
        int k = at[palette[i * 3 + 1]]++;
        n->order[k] = (uint8_t)i;
        memcpy(n->rgb[k], palette + i * 3, 3);
    }
}

int pal_near(const pal_near_t *n, int r, int g, int b)
{
    // first entry whose green is >= g; walk both ways while the green term alone can
    // still tie the best distance (greens only grow away from g, so the rest are farther)
    int lo = 0, hi = n->count;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (n->rgb[mid][1] < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    int up = lo, down = lo - 1, best = 0, bestd = 1 << 30;
    while (up < n->count || down >= 0) {
        if (up < n->count) {
            const uint8_t *c = n->rgb[up];
            int dg = c[1] - g, gd = dg * dg * 4;
            if (gd > bestd) {
                up = n->count;
            } else {
                int dr = c[0] - r, db = c[2] - b, d = dr * dr * 3 + gd + db * db * 2, i = n->order[up];
                if (d < bestd || (d == bestd && i < best)) {
                    bestd = d;
                    best = i;
                }
                up++;
            }
        }
        if (down >= 0) {
            const uint8_t *c = n->rgb[down];
            int dg = c[1] - g, gd = dg * dg * 4;
            if (gd > bestd) {
                down = -1;
            } else {
                int dr = c[0] - r, db = c[2] - b, d = dr * dr * 3 + gd + db * db * 2, i = n->order[down];
                if (d < bestd || (d == bestd && i < best)) {
                    bestd = d;
                    best = i;
                }
                down--;
            }
        }
    }
    return best;
}

void pal_make_colormap(const uint8_t *palette, int fullbright_start, uint8_t *colormap)
{
    // Row 32 is the colour as painted; rows above brighten toward 2x, rows below darken to black.
    pal_near_t near;
    pal_near_init(&near, palette, fullbright_start < 256 ? fullbright_start : 256);
    for (int row = 0; row < PAL_ROWS; row++) {
        int scale = (PAL_ROWS - row) * 256 / 32;   // 8.8 fixed: row 32 = 256
        for (int c = 0; c < 256; c++) {
            if (c >= fullbright_start) {
                colormap[row * 256 + c] = (uint8_t)c;
                continue;
            }
            int r = palette[c * 3] * scale >> 8, g = palette[c * 3 + 1] * scale >> 8, b = palette[c * 3 + 2] * scale >> 8;
            colormap[row * 256 + c] = (uint8_t)pal_near(&near, r > 255 ? 255 : r, g > 255 ? 255 : g, b > 255 ? 255 : b);
        }
    }
    memcpy(colormap + PAL_ROWS * 256, colormap + 32 * 256, 256);
}

static void grey_palette(uint8_t *palette)
{
    for (int i = 0; i < 256; i++)
        palette[i * 3] = palette[i * 3 + 1] = palette[i * 3 + 2] = (uint8_t)i;
}

void pal_make_alphamap(pal_t *p)
{
    pal_near_t near;
    pal_near_init(&near, p->palette, p->fullbright_start < 256 ? p->fullbright_start : 256);
    for (int a = 0; a < 256; a++)
        for (int b = 0; b < 256; b++) {
            const uint8_t *ca = p->palette + a * 3, *cb = p->palette + b * 3;
            p->alphamap[a * 256 + b] =
                (uint8_t)pal_near(&near, (ca[0] + 2 * cb[0]) / 3, (ca[1] + 2 * cb[1]) / 3, (ca[2] + 2 * cb[2]) / 3);
        }
    p->has_alphamap = 1;
    p->alphamap_66_first = 0;
}

void pal_set(pal_t *p, const uint8_t *palette, int fullbright_start)
{
    memcpy(p->palette, palette, 768);
    p->fullbright_start = fullbright_start;
    pal_make_colormap(p->palette, fullbright_start, p->colormap);
    pal_make_alphamap(p);
    p->loaded = 1;
}

// GoldSrc has no game palette: each level chooses one (bsp30.c). Until a level
// is loaded, a colour cube of 6 x 7 x 6 levels and greys.
static void cube_palette(uint8_t *palette)
{
    int n = 0;
    for (int r = 0; r < 6; r++)
        for (int g = 0; g < 7; g++)
            for (int b = 0; b < 6; b++, n++) {
                palette[n * 3] = (uint8_t)(r * 51);
                palette[n * 3 + 1] = (uint8_t)(g * 255 / 6);
                palette[n * 3 + 2] = (uint8_t)(b * 51);
            }
    for (; n < 256; n++)   // 252..255: four greys
        palette[n * 3] = palette[n * 3 + 1] = palette[n * 3 + 2] = (uint8_t)((n - 252) * 85);
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
            if (pic.height >= PAL_ROWS + 256) {   // the translucency table below the light rows
                memcpy(p->alphamap, pic.pixels + PAL_ROWS * 256, sizeof p->alphamap);
                p->has_alphamap = 1;
                p->alphamap_66_first = 1;
            }
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
    if (game == GAME_GOLDSRC) {
        cube_palette(p->palette);
        p->fullbright_start = 256;
        pal_make_colormap(p->palette, 256, p->colormap);
        p->loaded = 1;
        return 0;
    }
    if (game == GAME_QUAKE2)
        return load_quake2(p, fs, err, errcap);
    p->fullbright_start = 224;
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

// ---- choosing a palette for images that bring their own (GoldSrc) ---------------

// A box of the 5-bit-per-channel colour cube, as median cut splits it.
typedef struct {
    int lo[3], hi[3];   // inclusive
    uint64_t count;
} pal_box_t;

static inline int bin15(int r, int g, int b) { return r << 10 | g << 5 | b; }

static void box_shrink(pal_box_t *bx, const uint32_t *hist)
{
    int lo[3] = { 31, 31, 31 }, hi[3] = { 0, 0, 0 };
    uint64_t n = 0;
    for (int r = bx->lo[0]; r <= bx->hi[0]; r++)
        for (int g = bx->lo[1]; g <= bx->hi[1]; g++)
            for (int b = bx->lo[2]; b <= bx->hi[2]; b++) {
                uint32_t c = hist[bin15(r, g, b)];
                if (!c)
                    continue;
                n += c;
                int v[3] = { r, g, b };
                for (int k = 0; k < 3; k++) {
                    if (v[k] < lo[k]) lo[k] = v[k];
                    if (v[k] > hi[k]) hi[k] = v[k];
                }
            }
    bx->count = n;
    if (n)
        for (int k = 0; k < 3; k++) {
            bx->lo[k] = lo[k];
            bx->hi[k] = hi[k];
        }
}

int pal_median_cut(const uint32_t *hist, int ncolors, uint8_t *palette)
{
    pal_box_t boxes[256];
    if (ncolors > 256)
        ncolors = 256;
    if (ncolors < 1)
        return 0;
    int nb = 1;
    boxes[0] = (pal_box_t){ { 0, 0, 0 }, { 31, 31, 31 }, 0 };
    box_shrink(&boxes[0], hist);
    if (!boxes[0].count)
        return 0;
    while (nb < ncolors) {
        // split the box with the most pixels times its longest side (a flat box stays)
        int best = -1;
        uint64_t bestv = 0;
        for (int i = 0; i < nb; i++) {
            int side = 0;
            for (int k = 0; k < 3; k++)
                if (boxes[i].hi[k] - boxes[i].lo[k] > side)
                    side = boxes[i].hi[k] - boxes[i].lo[k];
            uint64_t v = boxes[i].count * (uint64_t)side;
            if (side > 0 && v > bestv) {
                bestv = v;
                best = i;
            }
        }
        if (best < 0)
            break;
        pal_box_t *bx = &boxes[best];
        int axis = 0;
        for (int k = 1; k < 3; k++)
            if (bx->hi[k] - bx->lo[k] > bx->hi[axis] - bx->lo[axis])
                axis = k;
        // the plane where half the pixels lie below
        uint64_t half = bx->count / 2, acc = 0;
        int cut = bx->lo[axis];
        for (int s = bx->lo[axis]; s < bx->hi[axis]; s++) {
            int lo[3] = { bx->lo[0], bx->lo[1], bx->lo[2] }, hi[3] = { bx->hi[0], bx->hi[1], bx->hi[2] };
            lo[axis] = hi[axis] = s;
            for (int r = lo[0]; r <= hi[0]; r++)
                for (int g = lo[1]; g <= hi[1]; g++)
                    for (int b = lo[2]; b <= hi[2]; b++)
                        acc += hist[bin15(r, g, b)];
            cut = s;
            if (acc >= half)
                break;
        }
        pal_box_t upper = *bx;
        bx->hi[axis] = cut;
        upper.lo[axis] = cut + 1;
        box_shrink(bx, hist);
        box_shrink(&upper, hist);
        boxes[nb++] = upper;
    }
    int out = 0;
    for (int i = 0; i < nb; i++) {
        uint64_t n = 0, sum[3] = { 0, 0, 0 };
        for (int r = boxes[i].lo[0]; r <= boxes[i].hi[0]; r++)
            for (int g = boxes[i].lo[1]; g <= boxes[i].hi[1]; g++)
                for (int b = boxes[i].lo[2]; b <= boxes[i].hi[2]; b++) {
                    uint32_t c = hist[bin15(r, g, b)];
                    n += c;
                    sum[0] += (uint64_t)c * (uint64_t)(r * 8 + 4);
                    sum[1] += (uint64_t)c * (uint64_t)(g * 8 + 4);
                    sum[2] += (uint64_t)c * (uint64_t)(b * 8 + 4);
                }
        if (!n)
            continue;
        for (int k = 0; k < 3; k++)
            palette[out * 3 + k] = (uint8_t)(sum[k] / n);
        out++;
    }
    return out;
}
