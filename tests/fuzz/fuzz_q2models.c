// fuzz_q2models.c -- libFuzzer harness: the Quake II model loaders, fed every byte pattern
//
// Built once per loader by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with
// -DFUZZ_LOADER=<the loader's entry point>:
//
//     md2_load    MD2 alias models (then pose and skin selection over the result)
//     sp2_load    SP2 sprites (then image selection)
//
// No other files are given (files = NULL): skins and sprite images are the
// plain stand-ins. Each input is copied into an exact-size malloc so ASan
// catches any read past its end. A failed load must leave an
// "offset N: expected ..." message.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/md2.h"
#include "assets/sp2.h"

#ifndef FUZZ_LOADER
#define FUZZ_LOADER md2_load
#endif
#define FZ_CAT_(a, b) a##b
#define FZ_CAT(a, b) FZ_CAT_(a, b)
#define FZ_md2_load 1
#define FZ_sp2_load 2
#define FZ_WHICH FZ_CAT(FZ_, FUZZ_LOADER)
#if FZ_WHICH < 1 || FZ_WHICH > 2
#error "FUZZ_LOADER must be md2_load or sp2_load"
#endif

#include "fuzz_common.h"

// Stricter than check_error: the message starts with the offset and says what was expected.
static void check_error_strict(int failed, const char *err)
{
    if (failed && (strncmp(err, "offset ", 7) != 0 || !strstr(err, "expected"))) {
        fprintf(stderr, "load failed without an offset: \"%s\"\n", err);
        abort();
    }
}

#if FZ_WHICH == 1
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    mdl_t m;
    int rc = md2_load(&m, d, n, NULL, err, sizeof err);
    check_error_strict(rc < 0, err);
    if (rc < 0)
        return;
    volatile float sum = 0;
    for (int f = -1; f <= m.numframes && f < 64; f++) {
        int pose = mdl_pose(&m, f, 0.5);
        if (pose < 0 || pose >= m.num_poses)
            abort();
        const mdl_vert_t *v = mdl_pose_verts(&m, pose);
        sum += v[m.numverts - 1].v[0] * m.pose_xform[pose * 6] + m.pose_xform[pose * 6 + 5];
        if (v[0].normal >= MDL_NUM_NORMALS)
            abort();
    }
    for (int s = -1; s <= m.numskins && s < 64; s++)
        sum += mdl_skin(&m, s, 0.5)[(size_t)m.skinwidth * (size_t)m.skinheight - 1];
    for (int i = 0; i < m.numtris; i++)
        for (int k = 0; k < 3; k++)
            if (m.tris[i].v[k] < 0 || m.tris[i].v[k] >= m.numverts)
                abort();
    for (int i = 0; i < m.numverts; i++)
        if (m.st[i].s < 0 || m.st[i].s > m.skinwidth || m.st[i].t < 0 || m.st[i].t > m.skinheight)
            abort();
    (void)sum;
    mdl_free(&m);
}
#else
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    spr_t s;
    int rc = sp2_load(&s, d, n, NULL, err, sizeof err);
    check_error_strict(rc < 0, err);
    if (rc < 0)
        return;
    volatile unsigned sum = 0;
    for (int f = -1; f <= s.numframes && f < 64; f++) {
        const spr_image_t *im = spr_image(&s, f, 0.5);
        size_t px = (size_t)im->width * (size_t)im->height;
        if (im->offset + px > s.pixels_size)
            abort();
        sum += s.pixels[im->offset + px - 1];
    }
    (void)sum;
    spr_free(&s);
}
#endif
