// fuzz_mxv.c -- libFuzzer harness: Forsaken level meshes (.MXV) and their BMP textures
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=
//
//     mxv_load       the mesh; a loaded one gets its textures (every texture file is the
//                    input's last 4 KiB, so BMP headers are fuzzed too) and is drawn at 64x40
//                    from the centre of every group (near-plane clipping, hostile floats)
//     mxv_bmp_load   the BMP reader alone
//
// Each input is copied into an exact-size malloc so ASan catches any read past
// its end. A failed load must leave an "offset N: expected ..." message.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/mxv.h"
#include "assets/pal.h"
#include "render/r_fsworld.h"

#ifndef FUZZ_LOADER
#define FUZZ_LOADER mxv_load
#endif
#define FZ_CAT_(a, b) a##b
#define FZ_CAT(a, b) FZ_CAT_(a, b)
#define FZ_mxv_load 1
#define FZ_mxv_bmp_load 2
#define FZ_WHICH FZ_CAT(FZ_, FUZZ_LOADER)
#if FZ_WHICH < 1 || FZ_WHICH > 2
#error "FUZZ_LOADER must be one of mxv_load mxv_bmp_load"
#endif

#include "fuzz_common.h"

#if FZ_WHICH == 1
typedef struct {
    const uint8_t *d;
    size_t n;
} input_t;

static uint8_t *tail_file(void *ctx, const char *path, size_t *size)
{
    (void)path;
    const input_t *in = ctx;
    size_t n = in->n < 4096 ? in->n : 4096;
    uint8_t *c = malloc(n ? n : 1);
    if (!c)
        return NULL;
    memcpy(c, in->d + in->n - n, n);
    *size = n;
    return c;
}

static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    mxv_t *m = mxv_load(d, n, "fuzz.mxv", err, sizeof err);
    check_error(!m, err);
    if (!m)
        return;
    for (int i = 0; i < m->num_tris; i++)
        for (int k = 0; k < 3; k++)
            if (m->tris[i].v[k] >= (uint32_t)m->num_verts || m->tris[i].texture >= m->num_textures)
                abort();
    mxv_free(m);
    input_t in = { d, n };
    asset_files_t files = { tail_file, &in };
    r_fsworld_t *fw = r_fsworld_from_bytes(d, n, "levels/fuzz/fuzz.mxv", &files, err, sizeof err);
    if (!fw)
        return;
    enum { W = 64, H = 40 };
    static uint8_t px[W * H];
    static float z[W * H];
    // Any colormap will do for memory safety; computing the level's (pal_set, 23 ms)
    // would make this harness 50 times slower.
    static uint8_t cmap[PAL_ROWS * 256 + 256];
    for (int i = 0; i < PAL_ROWS * 256; i++)
        cmap[i] = (uint8_t)i;
    r_view_t v = { 0 };
    v.buffer = px;
    v.zbuffer = z;
    v.width = v.rowbytes = W;
    v.height = H;
    v.xcenter = W / 2.0f;
    v.ycenter = H / 2.0f;
    v.xscale = v.yscale = W / 2.0f;
    v.colormap = cmap;
    v.palette = r_fsworld_palette(fw);
    v.fullbright_start = 256;
    const mxv_t *mm = r_fsworld_mesh(fw);
    for (int g = 0; g < mm->num_groups && g < 8; g++) {
        float ang[3] = { (float)(g * 37 % 180) - 90, (float)(g * 71), (float)(g * 13) };
        for (int k = 0; k < 3; k++)
            v.vieworg[k] = (mm->groups[g].mins[k] + mm->groups[g].maxs[k]) * 0.5f;
        r_fs_angle_vectors(ang, v.vpn, v.vright, v.vup);
        memset(z, 0, sizeof z);
        r_fsworld_draw(fw, &v);
    }
    r_fsworld_free(fw);
}
#else
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    int w = 0, h = 0;
    uint8_t *px = NULL, pal[768];
    int rc = mxv_bmp_load(d, n, MXV_MAX_TEX_SIDE, &w, &h, &px, pal, err, sizeof err);
    check_error(rc < 0, err);
    if (rc == 0) {
        volatile uint8_t last = px[(size_t)w * (size_t)h - 1];
        (void)last;
    }
    free(px);
}
#endif
