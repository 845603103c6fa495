// fuzz_q2level.c -- libFuzzer harness: the Quake II level and texture loaders, fed every byte pattern
//
// Built once per loader by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with
// -DFUZZ_LOADER=<the loader's entry point>:
//
//     bsp38_load   IBSP38 levels, with no file system (every texture missing), then
//                  the point / PVS queries and a read of every face's texture
//     wal_load     .wal textures, then the last texel of every mip
//     pcx_load     .pcx pictures (Quake II's pics, skins, sky sides), then the last pixel
//
// Each input is copied into an exact-size malloc so ASan catches any read past
// its end. A failed load must leave an "offset N: expected ..." message.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "assets/pcx.h"
#include "assets/wal.h"

#ifndef FUZZ_LOADER
#define FUZZ_LOADER bsp38_load
#endif
// FUZZ_LOADER names a function; turn it into a number the preprocessor can test.
#define FZ_CAT_(a, b) a##b
#define FZ_CAT(a, b) FZ_CAT_(a, b)
#define FZ_bsp38_load 1
#define FZ_wal_load 2
#define FZ_pcx_load 3
#define FZ_WHICH FZ_CAT(FZ_, FUZZ_LOADER)
#if FZ_WHICH < 1 || FZ_WHICH > 3
#error "FUZZ_LOADER must be one of bsp38_load wal_load pcx_load"
#endif

#include "fuzz_common.h"

#if FZ_WHICH == 1
static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    bsp_t *b = bsp38_load(d, n, "maps/fuzz.bsp", NULL, err, sizeof err);
    check_error(!b, err);
    if (!b)
        return;
    static const vec3_t pts[] = { { 0, 0, 0 }, { 100, -50, 20 }, { -4096, 4096, 0 } };
    uint8_t pvs[4096];
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        int leaf = bsp_point_leaf(b, pts[i]);
        if (leaf < 0 || leaf >= b->num_leafs)
            abort();
        bsp_leaf_pvs(b, leaf, pvs, sizeof pvs);
    }
    for (int i = 0; i < b->num_leafs && i < 64; i++)
        bsp_leaf_pvs(b, i, pvs, sizeof pvs);
    volatile unsigned sum = 0;
    for (int i = 0; i < b->num_faces; i++) {
        const bsp_texture_t *t = &b->textures[b->texinfo[b->faces[i].texinfo].texture];
        sum += b->texels[t->offsets[3] + (size_t)(t->width >> 3) * (size_t)(t->height >> 3) - 1];
        for (int k = 0; k < t->anim_total; k++)
            if (t->anim_frames[k] < 0 || t->anim_frames[k] >= b->num_textures)
                abort();
        if (b->faces[i].lightofs >= 0)
            sum += b->lightdata[b->faces[i].lightofs];
    }
    (void)sum;
    bsp_free(b);
}
#elif FZ_WHICH == 2
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    wal_t w;
    int rc = wal_load(&w, d, n, err, sizeof err);
    check_error(rc < 0, err);
    if (rc < 0)
        return;
    volatile unsigned sum = 0;
    for (int m = 0; m < WAL_MIPLEVELS; m++) {
        size_t px = (size_t)(w.width >> m) * (size_t)(w.height >> m);
        if (!px || w.offsets[m] > w.pixels_size || w.pixels_size - w.offsets[m] < px)
            abort();
        sum += w.pixels[w.offsets[m] + px - 1];
    }
    (void)sum;
    wal_free(&w);
}
#elif FZ_WHICH == 3
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    pcx_t p;
    int rc = pcx_load(&p, d, n, err, sizeof err);
    check_error(rc < 0, err);
    if (rc < 0)
        return;
    if (p.width < 1 || p.height < 1 || p.width > PCX_MAX_SIDE || p.height > PCX_MAX_SIDE)
        abort();
    volatile unsigned sum = p.pixels[(size_t)p.width * (size_t)p.height - 1] + p.palette[767];
    (void)sum;
    pcx_free(&p);
}
#endif
