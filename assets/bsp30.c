// bsp30.c -- GoldSrc (BSP30) textures: per-texture palettes, WAD3 look-ups, one palette for the level
//
// A BSP30 level is a BSP29 level whose textures carry their own 256-colour
// palettes (after mip 3: a 16-bit count, then count RGB triples) and whose
// miptex entries may hold no pixels at all (mip offsets 0): those live in the
// WAD3 files the worldspawn entity names in its "wad" key. The renderer draws
// 8-bit indices through one palette, so the loader chooses a palette for the
// level by median cut over the colours its textures use, keeps a few fixed
// colours for effects and pictures, and maps every texel to it. Index 255
// stays 255 in '{' (see-through) textures, as GoldSrc treats it.
#include "bsp_local.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "pal.h"
#include "wad.h"

#define BSP30_MAX_WADS 16
#define BSP30_MEDIAN_COLORS 224     // chosen from the textures; the rest are fixed

// One texture's source: a miptex (header + mips + palette) inside some buffer.
typedef struct {
    const uint8_t *mt;     // the 40-byte miptex header; NULL: default texture
    size_t avail;          // bytes from mt to the end of its buffer
    const uint8_t *pal;    // 768 bytes (a short palette is padded), NULL: grey
    uint8_t padded[768];
    int width, height;
} tex_src_t;

typedef struct {
    uint8_t *bytes;
    wad_t wad;
} wad_file_t;

// The worldspawn's "wad" value, "\half-life\valve\halflife.wad;\...\decals.wad": the file names.
static int worldspawn_wads(const bsp_t *b, char names[][64], int max)
{
    char val[1024], *save = NULL;
    int n = 0;
    bsp_worldspawn_value(b, "wad", val, sizeof val);
    for (char *s = strtok_r(val, ";", &save); s && n < max; s = strtok_r(NULL, ";", &save)) {
        const char *base = s;
        for (const char *c = s; *c; c++)
            if (*c == '/' || *c == '\\')
                base = c + 1;
        if (*base)
            snprintf(names[n++], 64, "%s", base);
    }
    return n;
}

// Check a miptex of mip-0 size w x h at mt (avail bytes to the buffer's end): every mip
// inside, and find its palette. Returns 0, or -1 with the failing field's offset from mt.
static int check_miptex(tex_src_t *t, const uint8_t *mt, size_t avail, size_t *bad)
{
    if (avail < 40) {
        *bad = 0;
        return -1;
    }
    uint32_t w = rd_u32(mt + 16), h = rd_u32(mt + 20);
    if (w == 0 || h == 0 || w > 4096 || h > 4096 || (w & 15) || (h & 15)) {
        *bad = 16;
        return -1;
    }
    for (int m = 0; m < BSP_MIPLEVELS; m++) {
        uint32_t mo = rd_u32(mt + 24 + m * 4);
        size_t msize = (size_t)(w >> m) * (size_t)(h >> m);
        if (mo > avail || avail - mo < msize) {
            *bad = 24 + (size_t)m * 4;
            return -1;
        }
    }
    t->mt = mt;
    t->avail = avail;
    t->width = (int)w;
    t->height = (int)h;
    // the palette: after mip 3; a missing or short one leaves grey
    size_t po = (size_t)rd_u32(mt + 36) + (size_t)(w >> 3) * (size_t)(h >> 3);
    t->pal = NULL;
    if (po <= avail && avail - po >= 2) {
        size_t count = (size_t)(mt[po] | mt[po + 1] << 8);
        if (count > 256)
            count = 256;
        if (avail - po - 2 >= count * 3) {
            for (int i = 0; i < 256; i++)
                t->padded[i * 3] = t->padded[i * 3 + 1] = t->padded[i * 3 + 2] = (uint8_t)i;
            memcpy(t->padded, mt + po + 2, count * 3);
            t->pal = t->padded;
        }
    }
    if (!t->pal) {
        for (int i = 0; i < 256; i++)
            t->padded[i * 3] = t->padded[i * 3 + 1] = t->padded[i * 3 + 2] = (uint8_t)i;
        t->pal = t->padded;
    }
    return 0;
}

// Fixed colours after the chosen ones: greys and six hues at four levels, for
// particles, pictures and models whose colours the level's textures lack.
static int add_fixed_colors(uint8_t *pal, int n)
{
    static const uint8_t hues[6][3] = { { 255, 0, 0 }, { 255, 160, 0 }, { 255, 255, 0 },
                                        { 0, 255, 0 }, { 0, 128, 255 }, { 160, 0, 255 } };
    for (int g = 0; g < 7 && n < 255; g++, n++)
        pal[n * 3] = pal[n * 3 + 1] = pal[n * 3 + 2] = (uint8_t)(g * 255 / 6);
    for (int lv = 1; lv <= 4; lv++)
        for (int h = 0; h < 6 && n < 255; h++, n++)
            for (int k = 0; k < 3; k++)
                pal[n * 3 + k] = (uint8_t)(hues[h][k] * lv / 4);
    return n;
}

// The sky box (gfx/env/NAMEside.tga, name from the worldspawn's "skyname", "desert" by
// default) fills much of an outdoor view: its colours count toward the palette too.
static void add_sky_colors(const bsp_t *b, const asset_files_t *files, uint32_t *hist)
{
    static const char *const sides[6] = { "rt", "lf", "bk", "ft", "up", "dn" };
    char name[64];
    bsp_worldspawn_value(b, "skyname", name, sizeof name);
    const char *sky = name[0] ? name : "desert";
    if (strchr(sky, '/') || strstr(sky, ".."))
        return;
    for (int i = 0; i < 6; i++) {
        char path[128];
        size_t size;
        snprintf(path, sizeof path, "gfx/env/%s%s.tga", sky, sides[i]);
        uint8_t *data = asset_load(files, path, &size);
        int w = 0, h = 0, n;
        uint8_t *rgb = (data && size < (1u << 30)) ? stbi_load_from_memory(data, (int)size, &w, &h, &n, 3) : NULL;
        if (rgb && w <= 4096 && h <= 4096)
            for (size_t k = 0; k < (size_t)w * (size_t)h; k++)
                hist[(rgb[k * 3] >> 3) << 10 | (rgb[k * 3 + 1] >> 3) << 5 | rgb[k * 3 + 2] >> 3]++;
        stbi_image_free(rgb);
        free(data);
    }
}

int bsp30_load_textures(bsp_t *b, const uint8_t *lump, uint32_t len, uint32_t lump_ofs, const asset_files_t *files,
                        size_t *at, char *msg, size_t msgcap)
{
    int n = 0, rc = -1;
    if (len >= 4) {
        n = (int)rd_u32(lump);
        uint32_t most = (len - 4) / 4 < 65536 ? (len - 4) / 4 : 65536;
        if (n < 0 || (uint32_t)n > most) {
            *at = lump_ofs;
            snprintf(msg, msgcap, "texture count <= %u, got %d", most, n);
            return -1;
        }
    }
    tex_src_t *src = calloc((size_t)n + 1, sizeof *src);
    uint32_t *hist = calloc(32768, sizeof *hist);
    wad_file_t wads[BSP30_MAX_WADS];
    char wad_names[BSP30_MAX_WADS][64];
    int num_wads = 0, wads_opened = 0;
    memset(wads, 0, sizeof wads);
    if (!src || !hist) {
        *at = 0;
        snprintf(msg, msgcap, "memory for %d textures", n);
        goto done;
    }
    // Pass 1: where each texture's pixels and palette are.
    size_t total = BSP_DEFAULT_TEXELS, inbytes = 0;
    for (int i = 0; i < n; i++) {
        int32_t ofs = (int32_t)rd_u32(lump + 4 + (size_t)i * 4);
        if (ofs < 0) {
            total += BSP_DEFAULT_TEXELS;   // no texture: the default one
            continue;
        }
        if ((uint32_t)ofs > len || len - (uint32_t)ofs < 40) {
            *at = lump_ofs + 4 + (size_t)i * 4;
            snprintf(msg, msgcap, "miptex offset within the %u-byte lump, got %d", len, ofs);
            goto done;
        }
        const uint8_t *mt = lump + ofs;
        if (rd_u32(mt + 24) == 0) {
            // pixels in a WAD: open the level's WADs the first time one is needed
            if (!wads_opened) {
                wads_opened = 1;
                int nn = worldspawn_wads(b, wad_names, BSP30_MAX_WADS);
                for (int k = 0; k < nn; k++) {
                    size_t sz;
                    uint8_t *bytes = asset_load(files, wad_names[k], &sz);
                    char werr[128];
                    if (!bytes)
                        continue;
                    if (wad_open(&wads[num_wads].wad, bytes, sz, werr, sizeof werr) < 0) {
                        free(bytes);
                        continue;
                    }
                    wads[num_wads++].bytes = bytes;
                }
            }
            char name[17];
            memcpy(name, mt, 16);
            name[16] = 0;
            for (int k = 0; k < num_wads; k++) {
                const wad_lump_t *wl = wad_find(&wads[k].wad, name);
                size_t ls = 0;
                const uint8_t *d = wl ? wad_lump_data(&wads[k].wad, wl, &ls) : NULL;
                size_t bad;
                if (d && check_miptex(&src[i], d, ls, &bad) == 0)
                    break;
            }
        } else {
            size_t bad;
            if (check_miptex(&src[i], mt, len - (uint32_t)ofs, &bad) < 0) {
                *at = lump_ofs + (size_t)ofs + bad;
                snprintf(msg, msgcap, bad == 16 ? "texture size 16..4096 in multiples of 16" :
                         "the mips of texture %d inside the lump", i);
                goto done;
            }
            // textures must not share bytes: the texel store is bounded by the lump
            inbytes += BSP_MIP_BYTES(src[i].width, src[i].height);
            if (inbytes > len) {
                *at = lump_ofs + 4 + (size_t)i * 4;
                snprintf(msg, msgcap, "textures of at most the %u bytes of the lump", len);
                goto done;
            }
        }
        total += src[i].mt ? BSP_MIP_BYTES(src[i].width, src[i].height) : BSP_DEFAULT_TEXELS;
    }
    b->num_textures = n + 1;
    b->textures = calloc((size_t)n + 1, sizeof(bsp_texture_t));
    b->texels = malloc(total);
    if (!b->textures || !b->texels) {
        *at = 0;
        snprintf(msg, msgcap, "memory for %zu texels", total);
        goto done;
    }
    b->texel_size = total;
    // Pass 2: the colours the level shows (mip 0 of every drawn texture).
    for (int i = 0; i < n; i++) {
        const tex_src_t *t = &src[i];
        if (!t->mt || !strncmp((const char *)t->mt, "sky", 3))
            continue;
        uint32_t counts[256] = { 0 };
        const uint8_t *px = t->mt + rd_u32(t->mt + 24);
        size_t np = (size_t)t->width * (size_t)t->height;
        for (size_t k = 0; k < np; k++)
            counts[px[k]]++;
        if (t->mt[0] == '{')
            counts[255] = 0;
        for (int c = 0; c < 256; c++)
            if (counts[c])
                hist[(t->pal[c * 3] >> 3) << 10 | (t->pal[c * 3 + 1] >> 3) << 5 | t->pal[c * 3 + 2] >> 3] += counts[c];
    }
    add_sky_colors(b, files, hist);
    memset(b->palette, 0, sizeof b->palette);
    int nc = pal_median_cut(hist, BSP30_MEDIAN_COLORS, b->palette);
    add_fixed_colors(b->palette, nc);
    b->has_palette = 1;
    // Pass 3: every texel mapped to the level palette.
    uint32_t o = 0;
    pal_near_t near;   // every texture's own palette to the level's
    pal_near_init(&near, b->palette, 255);
    for (int i = 0; i < n; i++) {
        const tex_src_t *t = &src[i];
        bsp_texture_t *bt = &b->textures[i];
        if (!t->mt) {
            bsp_default_texture(b, i, o);
            int32_t ofs = (int32_t)rd_u32(lump + 4 + (size_t)i * 4);
            if (ofs >= 0)   // keep the name: sky and animation rules still apply
                snprintf(bt->name, sizeof bt->name, "%.15s", (const char *)lump + ofs);
            bt->missing = 1;
            o += BSP_DEFAULT_TEXELS;
        } else {
            memcpy(bt->name, t->mt, 15);
            bt->name[15] = 0;
            bt->width = t->width;
            bt->height = t->height;
            uint8_t lut[256];
            for (int c = 0; c < 256; c++)
                lut[c] = (uint8_t)pal_near(&near, t->pal[c * 3], t->pal[c * 3 + 1], t->pal[c * 3 + 2]);
            if (t->mt[0] == '{')
                lut[255] = 255;
            for (int m = 0; m < BSP_MIPLEVELS; m++) {
                const uint8_t *px = t->mt + rd_u32(t->mt + 24 + m * 4);
                size_t msize = (size_t)(t->width >> m) * (size_t)(t->height >> m);
                bt->offsets[m] = o;
                for (size_t k = 0; k < msize; k++)
                    b->texels[o + k] = lut[px[k]];
                o += (uint32_t)msize;
            }
        }
        for (int k = 0; k < 15; k++)
            bt->name[k] = (char)tolower((unsigned char)bt->name[k]);
    }
    bsp_default_texture(b, n, o);
    // The checkerboard is drawn in Quake palette greys (15, 6): use this palette's.
    uint8_t light = (uint8_t)pal_nearest(b->palette, 255, 150, 150, 150), dark = (uint8_t)pal_nearest(b->palette, 255, 90, 90, 90);
    for (int i = 0; i <= n; i++) {
        const bsp_texture_t *bt = &b->textures[i];
        if (i < n && src[i].mt)
            continue;
        for (int m = 0; m < BSP_MIPLEVELS; m++)
            for (uint32_t k = 0; k < (uint32_t)(16 >> m) * (uint32_t)(16 >> m); k++)
                b->texels[bt->offsets[m] + k] = b->texels[bt->offsets[m] + k] == 15 ? light : dark;
    }
    if (bsp_link_animations(b) < 0) {
        *at = 0;
        snprintf(msg, msgcap, "memory for %d texture names", b->num_textures);
        goto done;
    }
    rc = 0;
done:
    for (int k = 0; k < num_wads; k++) {
        wad_close(&wads[k].wad);
        free(wads[k].bytes);
    }
    free(src);
    free(hist);
    return rc;
}
