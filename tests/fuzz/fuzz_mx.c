// fuzz_mx.c -- libFuzzer harness: Forsaken models (.MX/.MXA) and 24-bit effect BMPs
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=
//
//     mx_load         the model (an MXA posed between its frames by mx_pose); a loaded one has every triangle drawn at 64x40 by
//                     render/r_fstri.c from three eye positions (near-plane clipping,
//                     hostile floats and texture coordinates)
//     mx_bmp24_load   the 24-bit BMP reader alone
//
// Each input is copied into an exact-size malloc so ASan catches any read past
// its end. A failed load must leave an "offset N: expected ..." message.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/mx.h"
#include "assets/pal.h"
#include "render/r_fstri.h"

#ifndef FUZZ_LOADER
#define FUZZ_LOADER mx_load
#endif
#define FZ_CAT_(a, b) a##b
#define FZ_CAT(a, b) FZ_CAT_(a, b)
#define FZ_mx_load 1
#define FZ_mx_bmp24_load 2
#define FZ_WHICH FZ_CAT(FZ_, FUZZ_LOADER)
#if FZ_WHICH < 1 || FZ_WHICH > 2
#error "FUZZ_LOADER must be one of mx_load mx_bmp24_load"
#endif

#include "fuzz_common.h"

#if FZ_WHICH == 1
static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    mx_t *m = mx_load(d, n, "fuzz.mx", err, sizeof err);
    check_error(!m, err);
    if (!m)
        return;
    for (int i = 0; i < m->num_tris; i++) {
        for (int k = 0; k < 3; k++)
            if (m->tris[i].v[k] >= (uint32_t)m->num_verts)
                abort();
        if (m->tris[i].texture < -1 || m->tris[i].texture >= m->num_textures)
            abort();
    }
    // an MXA's frames: posed between hostile and real frame numbers (mx_pose stays inside the mesh)
    if (m->anim_frames) {
        mx_vertex_t *pose = malloc((size_t)m->num_verts * sizeof *pose);
        if (pose) {
            const int fr[][2] = { { 0, 0 }, { 0, m->anim_frames - 1 }, { m->anim_frames - 1, 1 }, { -1, 0 },
                                  { m->anim_frames, 0 } };
            const float ts[] = { 0, 0.5f, 1, NAN, -7 };
            for (int i = 0; i < 5; i++)
                mx_pose(m, fr[i][0], fr[i][1], ts[i], pose);
            free(pose);
        }
    }
    enum { W = 64, H = 40, TW = 16 };
    static uint8_t px[W * H], tex[TW * TW], key[TW * TW];
    static float z[W * H];
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
    // the colormap path (no level tables): textured and keyed on odd triangles, one colour on even
    r_fstex_t t = { .texels = tex, .wshift = 4, .wmask = TW - 1, .hmask = TW - 1, .key = key, .color = 7 };
    const r_fstex_t flat = { .color = 5 };
    const float eyes[3] = { -200.0f, -40.0f, 0.0f };   // in front of, close to and inside the model
    for (int e = 0; e < 3; e++) {
        memset(z, 0, sizeof z);
        for (int i = 0; i < m->num_tris; i++) {
            r_fsvert_t in[3];
            for (int k = 0; k < 3; k++) {
                const mx_vertex_t *mv = &m->verts[m->tris[i].v[k]];
                float l = 63.0f - mv->light * (31.0f / 255.0f);
                in[k] = (r_fsvert_t){ mv->pos[0], mv->pos[1], mv->pos[2] - eyes[e], mv->st[0] * TW, mv->st[1] * TW, { l, l, l } };
            }
            t.key = (m->tris[i].flags & 1) ? key : NULL;
            r_fstri_draw(&v, i & 1 ? &t : &flat, in, e == 2);
        }
    }
    mx_free(m);
}
#else
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    int w = 0, h = 0;
    uint8_t *rgb = NULL;
    int rc = mx_bmp24_load(d, n, 1024, &w, &h, &rgb, err, sizeof err);
    check_error(rc < 0, err);
    if (rc == 0) {
        volatile uint8_t last = rgb[(size_t)w * (size_t)h * 3 - 1];
        (void)last;
    }
    free(rgb);
}
#endif
