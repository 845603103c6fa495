// r_skybox.c -- six-sided sky boxes (Quake II env/NAMEside.pcx, GoldSrc gfx/env/NAMEside.tga)
//
// Quake II and GoldSrc levels name a sky box in their worldspawn ("sky" /
// "skyname"): six pictures around the viewer, drawn on the level's sky
// surfaces by the direction each pixel looks in. Side order and orientation
// are the games': rt = +x, lf = -x, bk = +y, ft = -y, up = +z, dn = -z, each
// with up on screen toward +z (the up and down sides toward -x and +x).
// The pictures become 8-bit level-palette images once, at level load; d_span.c
// draws them (d_draw_spans_skybox).
#include "r_local.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "../assets/pcx.h"
#include "../assets/pal.h"

static const char *const sides[6] = { "rt", "lf", "bk", "ft", "up", "dn" };

void r_skybox_free(renderer_t *r)
{
    for (int i = 0; i < 6; i++) {
        free(r->skybox[i].pixels);
        r->skybox[i].pixels = NULL;
    }
    r->skybox_ok = 0;
}

// A true-colour side mapped to the palette, through a cache over 15-bit colours.
static uint8_t *map_rgb(const uint8_t *rgb, int w, int h, const uint8_t *palette, int16_t *cache)
{
    uint8_t *out = malloc((size_t)w * (size_t)h);
    if (!out)
        return NULL;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        const uint8_t *p = rgb + i * 3;
        int key = (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | p[2] >> 3;
        if (cache[key] < 0)
            cache[key] = (int16_t)pal_nearest(palette, 255, (p[0] & ~7) | 4, (p[1] & ~7) | 4, (p[2] & ~7) | 4);
        out[i] = (uint8_t)cache[key];
    }
    return out;
}

int r_skybox_load(renderer_t *r, vfs_t *fs)
{
    r_skybox_free(r);
    const bsp_t *b = r->bsp;
    if (!b || !fs || (b->version != 30 && b->version != 38))
        return 0;
    char name[64];
    bsp_worldspawn_value(b, b->version == 38 ? "sky" : "skyname", name, sizeof name);
    if (!name[0])   // the games' defaults: Quake II's worldspawn, GoldSrc's sv_skyname
        snprintf(name, sizeof name, "%s", b->version == 38 ? "unit1_" : "desert");
    if (!name[0] || strchr(name, '/') || strstr(name, ".."))
        return 0;
    int16_t *cache = NULL;
    int ok = 0;
    for (int i = 0; i < 6; i++) {
        char path[128];
        size_t size = 0;
        uint8_t *data = NULL;
        r_skyside_t *sd = &r->skybox[i];
        if (b->version == 38) {
            snprintf(path, sizeof path, "env/%s%s.pcx", name, sides[i]);
            data = vfs_load(fs, path, &size);
            pcx_t p;
            char err[128];
            if (data && pcx_load(&p, data, size, err, sizeof err) == 0) {
                if (p.width <= R_SKYBOX_MAX && p.height <= R_SKYBOX_MAX) {
                    sd->pixels = p.pixels;
                    sd->w = p.width;
                    sd->h = p.height;
                    p.pixels = NULL;
                }
                pcx_free(&p);
            }
        } else {
            snprintf(path, sizeof path, "gfx/env/%s%s.tga", name, sides[i]);
            data = vfs_load(fs, path, &size);
            int w, h, n;
            uint8_t *rgb = (data && size < (1u << 30)) ? stbi_load_from_memory(data, (int)size, &w, &h, &n, 3) : NULL;
            if (rgb && w > 0 && h > 0 && w <= R_SKYBOX_MAX && h <= R_SKYBOX_MAX) {
                if (!cache && (cache = malloc(32768 * sizeof *cache)))
                    memset(cache, 0xff, 32768 * sizeof *cache);
                if (cache && (sd->pixels = map_rgb(rgb, w, h, r->pal.palette, cache))) {
                    sd->w = w;
                    sd->h = h;
                }
            }
            stbi_image_free(rgb);
        }
        free(data);
        ok += sd->pixels != NULL;
    }
    free(cache);
    if (ok < 6) {
        r_skybox_free(r);
        return -1;
    }
    r->skybox_ok = 1;
    return 0;
}
