// fuzz_asset.c -- libFuzzer harness: one asset loader, fed every byte pattern
//
// Built once per loader by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with
// -DFUZZ_LOADER=<the loader's entry point>:
//
//     bsp_load          BSP29 / BSP30 levels (no extra files) (then the point / PVS queries over the result)
//     mdl_load          alias models (then pose and skin selection)
//     spr_load          sprites (then image selection)
//     wad_open          WAD2 / WAD3 archives (then every lump as a picture and as a raw block)
//     wad_pic_from_lmp  .lmp pictures
//     wav_parse         WAV sounds (then the conversion to 16-bit)
//     vfs_add_dir       PACK archives: the input is written as pak0.pak in a private
//                       folder, mounted, and every entry its directory names is loaded;
//                       then the palette loader reads gfx/palette.lmp and
//                       gfx/colormap.lmp from it (pal_load only reads through the VFS)
//
// Each input is copied into an exact-size malloc so ASan catches any read past
// its end. A failed load must leave an "offset N: expected ..." message.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/bsp.h"
#include "assets/mdl.h"
#include "assets/pal.h"
#include "assets/spr.h"
#include "assets/wad.h"
#include "assets/wav.h"
#include "engine/log.h"
#include "engine/vfs.h"

#ifndef FUZZ_LOADER
#define FUZZ_LOADER bsp_load
#endif
// FUZZ_LOADER names a function; turn it into a number the preprocessor can test.
#define FZ_CAT_(a, b) a##b
#define FZ_CAT(a, b) FZ_CAT_(a, b)
#define FZ_bsp_load 1
#define FZ_mdl_load 2
#define FZ_spr_load 3
#define FZ_wad_open 4
#define FZ_wad_pic_from_lmp 5
#define FZ_wav_parse 6
#define FZ_vfs_add_dir 7
#define FZ_WHICH FZ_CAT(FZ_, FUZZ_LOADER)
#if FZ_WHICH < 1 || FZ_WHICH > 7
#error "FUZZ_LOADER must be one of bsp_load mdl_load spr_load wad_open wad_pic_from_lmp wav_parse vfs_add_dir"
#endif

#include "fuzz_common.h"

#if FZ_WHICH == 1
static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    bsp_t *b = bsp_load(d, n, "maps/fuzz.bsp", err, sizeof err);
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
    bsp_free(b);
}
#elif FZ_WHICH == 2
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    mdl_t m;
    int rc = mdl_load(&m, d, n, err, sizeof err);
    check_error(rc < 0, err);
    if (rc < 0)
        return;
    volatile unsigned sum = 0;
    for (int f = -1; f <= m.numframes && f < 64; f++)
        for (double t = 0; t < 2; t += 0.37) {
            int pose = mdl_pose(&m, f, t);
            if (pose < 0 || pose >= m.num_poses)
                abort();
            sum += mdl_pose_verts(&m, pose)[m.numverts - 1].v[0];
        }
    for (int s = -1; s <= m.numskins && s < 64; s++)
        sum += mdl_skin(&m, s, 0.5)[(size_t)m.skinwidth * (size_t)m.skinheight - 1];
    for (int i = 0; i < m.numtris; i++)
        for (int k = 0; k < 3; k++)
            if (m.tris[i].v[k] < 0 || m.tris[i].v[k] >= m.numverts)
                abort();
    (void)sum;
    mdl_free(&m);
}
#elif FZ_WHICH == 3
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    spr_t s;
    int rc = spr_load(&s, d, n, err, sizeof err);
    check_error(rc < 0, err);
    if (rc < 0)
        return;
    volatile unsigned sum = 0;
    for (int f = -1; f <= s.numframes && f < 64; f++)
        for (double t = 0; t < 2; t += 0.37) {
            const spr_image_t *im = spr_image(&s, f, t);
            size_t px = (size_t)im->width * (size_t)im->height;
            if (im->offset > s.pixels_size || s.pixels_size - im->offset < px)
                abort();
            sum += s.pixels[im->offset + px - 1];
        }
    (void)sum;
    spr_free(&s);
}
#elif FZ_WHICH == 4
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    wad_t w;
    int rc = wad_open(&w, d, n, err, sizeof err);
    check_error(rc < 0, err);
    if (rc < 0)
        return;
    volatile unsigned sum = 0;
    for (int i = 0; i < w.num_lumps && i < 256; i++) {
        const wad_lump_t *l = &w.lumps[i];
        if (wad_find(&w, l->name) == NULL)
            abort();
        size_t ls;
        const uint8_t *b = wad_lump_data(&w, l, &ls);
        if (b && ls)
            sum += b[ls - 1];
        wad_pic_t pic;
        err[0] = 0;
        rc = wad_lump_pic(&w, l, &pic, err, sizeof err);
        check_error(rc < 0, err);
        if (rc == 0) {
            sum += pic.pixels[(size_t)pic.width * (size_t)pic.height - 1];
            if (pic.palette)
                sum += pic.palette[767];
            wad_pic_free(&pic);
        }
        wad_miptex_t mt;   // GoldSrc textures and decals
        err[0] = 0;
        rc = wad_lump_miptex(&w, l, &mt, err, sizeof err);
        check_error(rc < 0, err);
        if (rc == 0)
            sum += mt.mips[3][(size_t)(mt.width >> 3) * (size_t)(mt.height >> 3) - 1] + mt.palette[mt.colours * 3 - 1];
        if (b && ls >= 64) {   // the conchars path: a headerless block
            rc = wad_pic_from_raw(&pic, b, ls, 8, (int)(ls / 8 > 4096 ? 4096 : ls / 8), err, sizeof err);
            check_error(rc < 0, err);
            if (rc == 0)
                wad_pic_free(&pic);
        }
    }
    (void)sum;
    wad_close(&w);
}
#elif FZ_WHICH == 5
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    wad_pic_t pic;
    int rc = wad_pic_from_lmp(&pic, d, n, err, sizeof err);
    check_error(rc < 0, err);
    if (rc == 0) {
        volatile unsigned sum = pic.pixels[(size_t)pic.width * (size_t)pic.height - 1];
        (void)sum;
        wad_pic_free(&pic);
    }
}
#elif FZ_WHICH == 6
static void run(const uint8_t *d, size_t n)
{
    char err[256] = "";
    wav_info_t info;
    int rc = wav_parse(d, n, &info, err, sizeof err);
    check_error(rc < 0, err);
    if (rc < 0)
        return;
    if (info.frames < 0 || info.frames > info.data_frames || info.data_offset > n)
        abort();
    int16_t *pcm = malloc(wav_s16_bytes(&info) + 1);
    if (!pcm)
        abort();
    if (wav_to_s16(d, n, &info, pcm) != info.frames)
        abort();
    free(pcm);
}
#elif FZ_WHICH == 7
static char dir[64];
static char pak[96];

static void cleanup(void)
{
    if (pak[0])
        unlink(pak);
    if (dir[0])
        rmdir(dir);
}

static void run(const uint8_t *d, size_t n)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/dp_fuzz_pak_XXXXXX");
        if (!mkdtemp(dir))
            abort();
        snprintf(pak, sizeof pak, "%s/pak0.pak", dir);
        atexit(cleanup);
        log_set_level(0);   // a bad pak is a warning: keep the run quiet
    }
    FILE *f = fopen(pak, "wb");
    if (!f || fwrite(d, 1, n, f) != n || fclose(f) != 0)
        abort();
    vfs_t *fs = vfs_create();
    if (vfs_add_dir(fs, dir) < 0)
        abort();
    // Load every name the directory holds (as far as it lies inside the input).
    if (n >= 12) {
        uint32_t dirofs = d[4] | d[5] << 8 | d[6] << 16 | (uint32_t)d[7] << 24;
        uint32_t dirlen = d[8] | d[9] << 8 | d[10] << 16 | (uint32_t)d[11] << 24;
        for (uint64_t at = dirofs, k = 0; k < 64 && at + 64 <= (uint64_t)dirofs + dirlen && at + 64 <= n;
             at += 64, k++) {
            char name[57];
            memcpy(name, d + at, 56);
            name[56] = 0;
            size_t sz = 0;
            uint8_t *b = vfs_load(fs, name, &sz);
            if (b && b[sz] != 0)
                abort();
            free(b);
            (void)vfs_exists(fs, name);
        }
    }
    // The palette loader reads through the VFS. A good palette with no usable colormap
    // makes it compute one (a fixed 4M-step search, the same for every input): that
    // case is left out so the fuzzer spends its time on the bytes.
    size_t psz = 0, csz = 0;
    uint8_t *pb = vfs_load(fs, "gfx/palette.lmp", &psz), *cb = vfs_load(fs, "gfx/colormap.lmp", &csz);
    if (!pb || psz < 768 || (cb && csz >= PAL_ROWS * 256)) {
        pal_t p;
        char err[256] = "";
        if (pal_load(&p, fs, GAME_QUAKE, err, sizeof err) < 0 && !strstr(err, "not found"))
            check_error(1, err);
    }
    free(pb);
    free(cb);
    vfs_free(fs);
}
#endif
