// test_hostile.c -- hostile input: damaged copies of real files through every asset loader, and the fuzzers' finds
//
// For each loader (BSP, MDL, SPR, WAD + its pictures, LMP, WAV, PAK, palette):
// many truncated and byte-damaged copies of real files (read from the data folder,
// never stored here), each in an exact-size buffer so the sanitizer build catches
// any read past the end. Each load must end without a crash, and a failed load must
// say "FILE: offset N: expected ..." with N inside the file. The loaders without a
// file name argument (MDL, SPR, WAD, LMP, WAV) return "offset N: expected ..." and
// their callers put the name in front; the checks do the same.
//
// Then the regression tests: one per input the fuzzers (make fuzz) found, rebuilt here.
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assets/bsp.h"
#include "assets/mdl.h"
#include "assets/pal.h"
#include "assets/spr.h"
#include "assets/wad.h"
#include "assets/wav.h"
#include "engine/vfs.h"
#include "formats/decoder.h"

extern const decoder_t q1_decoder;

// ---- helpers ------------------------------------------------------------------

static uint32_t rng = 0x12345678u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint8_t *read_data(const char *rel, size_t *size)
{
    uint8_t *b = tu_read(tu_data(rel), size);
    if (!b)
        fail_msg("%s: missing from the data folder", tu_data(rel));
    return b;
}

// "FILE: offset N: expected ..." with N <= size.
static void check_msg(const char *file, const char *msg, size_t size)
{
    size_t fl = strlen(file);
    if (strncmp(msg, file, fl) != 0 || strncmp(msg + fl, ": offset ", 9) != 0)
        fail_msg("%s (%zu bytes): error does not read \"FILE: offset N: ...\": \"%s\"", file, size, msg);
    const char *num = msg + fl + 9;
    char *end;
    unsigned long long off = strtoull(num, &end, 10);
    if (end == num || strncmp(end, ": expected", 10) != 0)
        fail_msg("%s (%zu bytes): error does not read \"offset N: expected ...\": \"%s\"", file, size, msg);
    if (off > size)
        fail_msg("%s (%zu bytes): error names offset %llu, past the end: \"%s\"", file, size, off, msg);
}

// A loader under test: load `size` bytes of `file`; on failure fill err ("FILE: offset N: ...").
// On success it uses what it loaded (so a bad index shows here, not in a renderer).
typedef int (*loader_fn)(const char *file, const uint8_t *data, size_t size, char *err, size_t errcap);

typedef struct {
    int loads, failed;
} tally_t;

static void load_one(loader_fn fn, const char *file, const uint8_t *src, size_t size, tally_t *t)
{
    uint8_t *copy = malloc(size ? size : 1);   // exact size: ASan sees any overread
    assert_non_null(copy);
    memcpy(copy, src, size);
    char err[600] = "";
    int rc = fn(file, copy, size, err, sizeof err);
    free(copy);
    t->loads++;
    if (rc < 0) {
        t->failed++;
        check_msg(file, err, size);
    }
}

// Damage a copy: 1..4 changes, half of them in the first 256 bytes (the headers),
// as single bytes or as 32-bit values that make counts and offsets extreme.
static void damage(uint8_t *b, size_t n)
{
    static const uint32_t words[] = { 0, 0xffffffffu, 0x7fffffffu, 0x80000000u, 1, 0x10000u, 4096, 0xfffffff0u };
    static const uint8_t bytes[] = { 0, 0xff, 0x7f, 0x80, 1, 0x10 };
    int k = 1 + (int)(rnd() % 4);
    for (int i = 0; i < k && n; i++) {
        size_t range = (rnd() & 1) && n > 256 ? 256 : n;
        size_t at = rnd() % range;
        switch (rnd() % 3) {
        case 0:
            b[at] = bytes[rnd() % sizeof bytes];
            break;
        case 1:
            b[at] = (uint8_t)rnd();
            break;
        default:
            at &= ~(size_t)3;
            if (at + 4 <= n)
                put32(b + at, words[rnd() % (sizeof words / sizeof words[0])]);
            break;
        }
    }
}

// Truncated copies (every length up to 256, then `cuts` lengths spread over the file)
// and `damaged` damaged copies of one real file.
static tally_t hostile_copies(loader_fn fn, const char *rel, int cuts, int damaged)
{
    tally_t t = { 0, 0 };
    size_t size;
    uint8_t *src = read_data(rel, &size);
    const char *file = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
    for (size_t n = 0; n < size && n <= 256; n++)
        load_one(fn, file, src, n, &t);
    for (int i = 0; i < cuts && size > 257; i++) {
        size_t n = 257 + (size - 257) * (size_t)i / (size_t)cuts;
        load_one(fn, file, src, n, &t);
        if (n + 1 < size)
            load_one(fn, file, src, n + 1, &t);
    }
    uint8_t *d = malloc(size);
    assert_non_null(d);
    for (int i = 0; i < damaged; i++) {
        memcpy(d, src, size);
        damage(d, size);
        load_one(fn, file, d, size, &t);
    }
    load_one(fn, file, src, size, &t);   // the file itself
    free(d);
    free(src);
    return t;
}

// Prefix a nameless loader's "offset N: ..." with the file name, as its callers do.
static void name_it(char *err, size_t errcap, const char *file)
{
    size_t fl = strlen(file), el = strlen(err);
    assert_true(fl + 3 < errcap);
    if (fl + 2 + el >= errcap)
        el = errcap - fl - 3;
    memmove(err + fl + 2, err, el);
    err[fl + 2 + el] = 0;
    memcpy(err, file, fl);
    err[fl] = ':';
    err[fl + 1] = ' ';
}

// ---- loaders as the engine uses them ------------------------------------------

static int load_bsp(const char *file, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    bsp_t *b = bsp_load(data, size, file, err, errcap);
    if (!b)
        return -1;
    static const vec3_t pts[] = { { 0, 0, 0 }, { 480, -352, 88 }, { -4000, 4000, -100 } };
    uint8_t pvs[1024];
    for (int i = 0; i < 3; i++) {
        int leaf = bsp_point_leaf(b, pts[i]);
        assert_true(leaf >= 0 && leaf < b->num_leafs);
        bsp_leaf_pvs(b, leaf, pvs, sizeof pvs);
    }
    for (int i = 0; i < b->num_faces; i++) {
        const bsp_face_t *f = &b->faces[i];
        assert_true(f->texinfo >= 0 && f->texinfo < b->num_texinfo);
        assert_true(b->texinfo[f->texinfo].texture >= 0 && b->texinfo[f->texinfo].texture < b->num_textures);
        assert_true(f->firstedge >= 0 && f->firstedge + f->numedges <= b->num_surfedges);
    }
    bsp_free(b);
    return 0;
}

static int load_mdl(const char *file, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    mdl_t m;
    if (mdl_load(&m, data, size, err, errcap) < 0) {
        name_it(err, errcap, file);
        return -1;
    }
    unsigned sum = 0;
    for (int f = 0; f < m.numframes; f++) {
        int pose = mdl_pose(&m, f, 0.3);
        assert_true(pose >= 0 && pose < m.num_poses);
        sum += mdl_pose_verts(&m, pose)[m.numverts - 1].v[0];
    }
    for (int s = 0; s < m.numskins; s++)
        sum += mdl_skin(&m, s, 0.3)[(size_t)m.skinwidth * (size_t)m.skinheight - 1];
    for (int i = 0; i < m.numtris; i++)
        for (int k = 0; k < 3; k++)
            assert_true(m.tris[i].v[k] >= 0 && m.tris[i].v[k] < m.numverts);
    (void)sum;
    mdl_free(&m);
    return 0;
}

static int load_spr(const char *file, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    spr_t s;
    if (spr_load(&s, data, size, err, errcap) < 0) {
        name_it(err, errcap, file);
        return -1;
    }
    for (int f = 0; f < s.numframes; f++) {
        const spr_image_t *im = spr_image(&s, f, 0.3);
        assert_true(im->offset + (size_t)im->width * (size_t)im->height <= s.pixels_size);
    }
    spr_free(&s);
    return 0;
}

// The WAD and then every lump as a picture (a lump that is no picture fails: fine, but in form).
static int load_wad(const char *file, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    wad_t w;
    if (wad_open(&w, data, size, err, errcap) < 0) {
        name_it(err, errcap, file);
        return -1;
    }
    for (int i = 0; i < w.num_lumps; i++) {
        wad_pic_t pic;
        char perr[300] = "";
        if (wad_lump_pic(&w, &w.lumps[i], &pic, perr, sizeof perr) == 0) {
            assert_true(pic.width > 0 && pic.height > 0);
            wad_pic_free(&pic);
        } else {
            name_it(perr, sizeof perr, file);
            check_msg(file, perr, size);
        }
    }
    wad_close(&w);
    return 0;
}

static int load_lmp(const char *file, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    wad_pic_t pic;
    if (wad_pic_from_lmp(&pic, data, size, err, errcap) < 0) {
        name_it(err, errcap, file);
        return -1;
    }
    assert_true((size_t)pic.width * (size_t)pic.height <= size - 8);
    wad_pic_free(&pic);
    return 0;
}

static int load_wav(const char *file, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    wav_info_t info;
    if (wav_parse(data, size, &info, err, errcap) < 0) {
        name_it(err, errcap, file);
        return -1;
    }
    assert_true(info.frames >= 0 && info.frames <= info.data_frames);
    int16_t *pcm = malloc(wav_s16_bytes(&info) + 1);
    assert_non_null(pcm);
    assert_int_equal(wav_to_s16(data, size, &info, pcm), info.frames);
    free(pcm);
    return 0;
}

// ---- one test per loader --------------------------------------------------------

static void report(const char *what, tally_t t)
{
    printf("    %s: %d loads, %d failed in form\n", what, t.loads, t.failed);
}

static void test_bsp_damaged(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const files[] = { "quake/id1/maps/b_batt0.bsp", "quake/id1/maps/b_bh100.bsp",
                                         "quake/id1/maps/b_rock1.bsp" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        report(files[i], hostile_copies(load_bsp, files[i], 200, 1500));
    // one whole level: damage lands in its header and lumps
    report("dm4.bsp", hostile_copies(load_bsp, "quake/id1/maps/dm4.bsp", 30, 80));
}

static void test_mdl_damaged(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const files[] = { "quake/id1/progs/bolt.mdl", "quake/id1/progs/h_player.mdl",
                                         "quake/id1/progs/eyes.mdl", "quake/id1/progs/backpack.mdl" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        report(files[i], hostile_copies(load_mdl, files[i], 200, 1500));
}

static void test_spr_damaged(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const files[] = { "quake/id1/progs/s_bubble.spr", "quake/id1/progs/s_light.spr",
                                         "quake/id1/progs/s_explod.spr" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        report(files[i], hostile_copies(load_spr, files[i], 200, 1500));
}

static void test_wad_damaged(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    report("gfx.wad", hostile_copies(load_wad, "quake/id1/gfx.wad", 60, 400));
    report("tempdecal.wad", hostile_copies(load_wad, "goldsrc/valve/tempdecal.wad", 200, 1500));
    report("gfx.wad (WAD3)", hostile_copies(load_wad, "goldsrc/valve/gfx.wad", 60, 400));
}

static void test_lmp_damaged(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const files[] = { "quake/id1/gfx/qplaque.lmp", "quake/id1/gfx/menudot1.lmp",
                                         "quake/id1/gfx/mainmenu.lmp" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        report(files[i], hostile_copies(load_lmp, files[i], 200, 1000));
}

static void test_wav_damaged(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const files[] = { "quake/id1/sound/soldier/pain2.wav", "quake/id1/sound/ambience/fire1.wav",
                                         "quake/id1/sound/misc/water1.wav" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        report(files[i], hostile_copies(load_wav, files[i], 200, 1500));
}

// ---- PAK and palette: they read through the file system ---------------------

static char root[64];

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dp_hostile_XXXXXX");
    return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    int st;
    free(tu_run(cmd, &st));
    return 0;
}

// stderr into a file for a while, to read the warnings a bad pak gives
static int saved_fd = -1;
static char cap_path[96];
static void capture_begin(void)
{
    fflush(stderr);
    snprintf(cap_path, sizeof cap_path, "%s/stderr.txt", root);
    int fd = open(cap_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    saved_fd = dup(2);
    assert_true(saved_fd >= 0);
    assert_true(dup2(fd, 2) == 2);
    close(fd);
}
static char *capture_end(void)
{
    fflush(stderr);
    assert_true(dup2(saved_fd, 2) == 2);
    close(saved_fd);
    saved_fd = -1;
    size_t n;
    char *text = (char *)tu_read(cap_path, &n);
    assert_non_null(text);
    return text;
}

// Every warning about `path` reads "PATH: offset N: expected ..." with N <= size.
static int check_warnings(const char *text, const char *path, size_t size)
{
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *at = strstr(line, path);
        if (at && at < line + len) {
            char one[1024];
            size_t ol = (size_t)(line + len - at) < sizeof one - 1 ? (size_t)(line + len - at) : sizeof one - 1;
            memcpy(one, at, ol);
            one[ol] = 0;
            check_msg(path, one, size);
            n++;
        }
        line = nl ? nl + 1 : NULL;
    }
    return n;
}

static void pak_one(const char *dir, const char *pak, const uint8_t *b, size_t n, const uint8_t *orig_dir,
                    int orig_entries, tally_t *t)
{
    assert_int_equal(tu_write(pak, b, n), 0);
    capture_begin();
    vfs_t *fs = vfs_create();
    int mounted = vfs_add_dir(fs, dir);
    // every name of the original directory: absent, or loaded whole and NUL-terminated
    for (int i = 0; i < orig_entries; i++) {
        char name[57];
        memcpy(name, orig_dir + i * 64, 56);
        name[56] = 0;
        size_t sz = 0;
        uint8_t *f = vfs_load(fs, name, &sz);
        if (f) {
            assert_true(sz <= n);
            assert_int_equal(f[sz], 0);
        }
        free(f);
    }
    vfs_free(fs);
    char *text = capture_end();
    assert_true(mounted >= 0);
    t->loads++;
    int warned = check_warnings(text, pak, n);
    if (mounted == 0) {
        t->failed++;
        if (!warned)
            fail_msg("%s (%zu bytes): skipped without a warning", pak, n);
    }
    free(text);
}

static void test_pak_damaged(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *src = read_data("quake/hook/pak0.pak", &size);
    assert_true(size > 12 && !memcmp(src, "PACK", 4));
    uint32_t dirofs = src[4] | src[5] << 8 | src[6] << 16 | (uint32_t)src[7] << 24;
    uint32_t dirlen = src[8] | src[9] << 8 | src[10] << 16 | (uint32_t)src[11] << 24;
    assert_true((uint64_t)dirofs + dirlen <= size);
    int entries = (int)(dirlen / 64);
    char dir[128], pak[160];
    snprintf(dir, sizeof dir, "%s/pakgame", root);
    mkdir(dir, 0755);
    snprintf(pak, sizeof pak, "%s/pak0.pak", dir);
    tally_t t = { 0, 0 };
    // truncated: headers, then cuts through the data and the directory
    static const size_t small[] = { 0, 1, 4, 11, 12, 13 };
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        pak_one(dir, pak, src, small[i], src + dirofs, entries, &t);
    for (int i = 0; i < 24; i++)
        pak_one(dir, pak, src, 12 + (size - 12) * (size_t)i / 24, src + dirofs, entries, &t);
    for (uint32_t i = 1; i <= 8; i++)
        pak_one(dir, pak, src, size - i * 37, src + dirofs, entries, &t);
    // damaged header and directory
    uint8_t *d = malloc(size);
    assert_non_null(d);
    for (int i = 0; i < 60; i++) {
        memcpy(d, src, size);
        if (i % 4 == 0) {
            damage(d, 12);
        } else {
            damage(d + dirofs, dirlen);
        }
        pak_one(dir, pak, d, size, src + dirofs, entries, &t);
    }
    pak_one(dir, pak, src, size, src + dirofs, entries, &t);
    report("hook/pak0.pak", t);
    free(d);
    free(src);
}

static void test_palette_damaged(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t psize, csize;
    uint8_t *pal = read_data("quake/id1/gfx/palette.lmp", &psize);
    uint8_t *cm = read_data("quake/id1/gfx/colormap.lmp", &csize);
    char dir[128], gfx[160], pp[192], cp[192];
    snprintf(dir, sizeof dir, "%s/palgame", root);
    snprintf(gfx, sizeof gfx, "%s/gfx", dir);
    mkdir(dir, 0755);
    mkdir(gfx, 0755);
    snprintf(pp, sizeof pp, "%s/palette.lmp", gfx);
    snprintf(cp, sizeof cp, "%s/colormap.lmp", gfx);
    // palette cuts (colormap whole), then colormap cuts (palette whole)
    static const size_t pcuts[] = { 0, 1, 3, 384, 767, 768 };
    static const size_t ccuts[] = { 0, 255, 16383, 16384 };
    for (size_t i = 0; i < sizeof pcuts / sizeof pcuts[0] + sizeof ccuts / sizeof ccuts[0]; i++) {
        int cut_pal = i < sizeof pcuts / sizeof pcuts[0];
        size_t pn = cut_pal ? pcuts[i] : psize;
        size_t cn = cut_pal ? csize : ccuts[i - sizeof pcuts / sizeof pcuts[0]];
        assert_int_equal(tu_write(pp, pal, pn), 0);
        assert_int_equal(tu_write(cp, cm, cn), 0);
        vfs_t *fs = vfs_create();
        assert_true(vfs_add_dir(fs, dir) >= 0);
        pal_t p;
        char err[300] = "";
        int rc = pal_load(&p, fs, GAME_QUAKE, err, sizeof err);
        if (pn >= 768 && cn >= PAL_ROWS * 256) {
            assert_int_equal(rc, 0);
            assert_int_equal(p.loaded, 1);
        } else {
            assert_int_equal(rc, -1);
            check_msg(pn < 768 ? "gfx/palette.lmp" : "gfx/colormap.lmp", err, pn < 768 ? pn : cn);
        }
        vfs_free(fs);
    }
    free(pal);
    free(cm);
}

// ---- regressions: inputs the fuzzers found --------------------------------------

// A texture lump of `count` entries that all point at one miptex of w x h (mip data of
// a 16x16 texture present), written into out; returns its length.
static size_t shared_miptex(uint8_t *out, int count, uint32_t w, uint32_t h)
{
    size_t mt = 4 + (size_t)count * 4;
    put32(out, (uint32_t)count);
    for (int i = 0; i < count; i++)
        put32(out + 4 + i * 4, (uint32_t)mt);
    memset(out + mt, 0, 40);
    memcpy(out + mt, "shared", 6);
    put32(out + mt + 16, w);
    put32(out + mt + 20, h);
    put32(out + mt + 24, 40);
    put32(out + mt + 28, 40 + 256);
    put32(out + mt + 32, 40 + 256 + 64);
    put32(out + mt + 36, 40 + 256 + 64 + 16);
    for (int i = 0; i < 340; i++)
        out[mt + 40 + i] = (uint8_t)(i * 7);
    return mt + 40 + 340;
}

// A minimal valid BSP29: one square face, two leafs, one node, one model, one 16x16
// texture; lump `lump` (if >= 0) replaced by `data`.
static size_t tiny_bsp(uint8_t *out, size_t cap, int lump, const uint8_t *data, size_t datalen)
{
    uint8_t lumps[15][512];
    size_t len[15] = { 0 };
    memset(lumps, 0, sizeof lumps);
#define P32(l, v) (put32(lumps[l] + len[l], (uint32_t)(v)), len[l] += 4)
#define PF(l, v) do { float f_ = (v); uint32_t u_; memcpy(&u_, &f_, 4); P32(l, u_); } while (0)
#define P16(l, v) (lumps[l][len[l]] = (uint8_t)(v), lumps[l][len[l] + 1] = (uint8_t)((uint32_t)(v) >> 8), len[l] += 2)
#define P8(l, v) (lumps[l][len[l]++] = (uint8_t)(v))
    const char *ents = "{\n\"classname\" \"worldspawn\"\n}\n";
    memcpy(lumps[0], ents, strlen(ents) + 1);
    len[0] = strlen(ents) + 1;
    PF(1, 0); PF(1, 0); PF(1, 1); PF(1, 0); P32(1, 2);                 // plane z = 0
    len[2] = shared_miptex(lumps[2], 1, 16, 16);
    static const float v[4][3] = { { 0, 0, 0 }, { 32, 0, 0 }, { 32, 32, 0 }, { 0, 32, 0 } };
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            PF(3, v[i][k]);
    P8(4, 1); P8(4, 0); P8(4, 3);                                      // visibility
    P32(5, 0); P16(5, -1); P16(5, -2);                                 // node: plane 0, leafs 0 and 1
    for (int k = 0; k < 3; k++) P16(5, -16);
    for (int k = 0; k < 3; k++) P16(5, 48);
    P16(5, 0); P16(5, 1);
    PF(6, 1); PF(6, 0); PF(6, 0); PF(6, 0); PF(6, 0); PF(6, 1); PF(6, 0); PF(6, 0); P32(6, 0); P32(6, 0);
    P16(7, 0); P16(7, 0); P32(7, 0); P16(7, 4); P16(7, 0);             // face: 4 edges from 0, texinfo 0
    P8(7, 0); P8(7, 255); P8(7, 255); P8(7, 255); P32(7, 0);
    for (int i = 0; i < 9; i++) P8(8, 100 + i);                        // 3x3 light samples
    P32(10, -2); P32(10, -1); for (int k = 0; k < 10; k++) P16(10, 0); // leaf 0: solid
    P32(10, -1); P32(10, 0);                                           // leaf 1: empty, mark 0
    for (int k = 0; k < 3; k++) P16(10, -16);
    for (int k = 0; k < 3; k++) P16(10, 48);
    P16(10, 0); P16(10, 1); P32(10, 0);
    P16(11, 0);
    static const int e[5][2] = { { 0, 0 }, { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 } };
    for (int i = 0; i < 5; i++) { P16(12, e[i][0]); P16(12, e[i][1]); }
    for (int i = 1; i <= 4; i++) P32(13, i);
    PF(14, -1); PF(14, -1); PF(14, -1); PF(14, 33); PF(14, 33); PF(14, 1);
    for (int k = 0; k < 3; k++) PF(14, 0);
    for (int k = 0; k < 4; k++) P32(14, 0);
    P32(14, 1); P32(14, 0); P32(14, 1);
#undef P32
#undef PF
#undef P16
#undef P8
    size_t pos = 4 + 15 * 8;
    assert_true(cap >= pos);
    put32(out, 29);
    for (int i = 0; i < 15; i++) {
        const uint8_t *src = i == lump ? data : lumps[i];
        size_t n = i == lump ? datalen : len[i];
        assert_true(pos + n <= cap);
        put32(out + 4 + i * 8, (uint32_t)pos);
        put32(out + 8 + i * 8, (uint32_t)n);
        memcpy(out + pos, src, n);
        pos += (n + 3) & ~(size_t)3;
    }
    return pos;
}

// Found reading the loader, confirmed as "out-of-memory" by the bsp fuzz harness
// (tests/corpus/bsp/shared_miptex.bsp): the texture lump lists the same miptex many
// times with a header claiming 4096x4096 and no mip data. The loader sized its texel
// store from the headers alone (1000 x 22 MB) before it checked a single mip.
static void test_bsp_shared_miptex_no_huge_alloc(void **state)
{
    (void)state;
    static uint8_t tex[8192], file[16384];
    char err[512] = "";
    size_t tl = shared_miptex(tex, 1000, 4096, 4096);
    size_t n = tiny_bsp(file, sizeof file, 2, tex, tl);
    bsp_t *b = bsp_load(file, n, "maps/shared.bsp", err, sizeof err);
    assert_null(b);
    check_msg("maps/shared.bsp", err, n);
    assert_non_null(strstr(err, "mip 0 of texture 0"));
    // the same with real mip data for 16x16: every entry is in the lump, but together
    // they claim more texels than the lump holds
    tl = shared_miptex(tex, 1000, 16, 16);
    n = tiny_bsp(file, sizeof file, 2, tex, tl);
    assert_null(b = bsp_load(file, n, "maps/shared.bsp", err, sizeof err));
    check_msg("maps/shared.bsp", err, n);
    assert_non_null(strstr(err, "textures of at most"));
    // one entry: a valid level
    tl = shared_miptex(tex, 1, 16, 16);
    n = tiny_bsp(file, sizeof file, 2, tex, tl);
    b = bsp_load(file, n, "maps/shared.bsp", err, sizeof err);
    if (!b)
        fail_msg("%s", err);
    assert_int_equal(b->num_textures, 2);
    assert_string_equal(b->textures[0].name, "shared");
    assert_int_equal(b->faces[0].lightofs, 0);
    bsp_free(b);
}

// Found reading the loader, measured at 7.5 s for a 1 MB file (tests/corpus/bsp/
// shared_surfedges.bsp is the small form): every face may name the same 32767
// surfedges, and the extents loop walks them all per face. Compilers give each face
// its own surfedges (true of every map in the data), so the edge total is bounded.
static void test_bsp_faces_share_surfedges(void **state)
{
    (void)state;
    static uint8_t file[16384];
    uint8_t faces[3 * 20];
    static const uint8_t face[20] = { 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 255, 255, 255, 0, 0, 0, 0 };
    for (int i = 0; i < 3; i++)
        memcpy(faces + i * 20, face, 20);   // three faces on surfedges 0..3
    char err[512] = "";
    size_t n = tiny_bsp(file, sizeof file, 7, faces, 20);
    bsp_t *b = bsp_load(file, n, "maps/edges.bsp", err, sizeof err);
    if (!b)
        fail_msg("one face: %s", err);
    bsp_free(b);
    n = tiny_bsp(file, sizeof file, 7, faces, sizeof faces);
    assert_null(bsp_load(file, n, "maps/edges.bsp", err, sizeof err));
    check_msg("maps/edges.bsp", err, n);
    assert_non_null(strstr(err, "faces with surfedges of their own (8 edges by face 1, 4 surfedges"));
}

// Found reading the loader, measured at 3 minutes for an 8 MB file: animation linking
// compared every '+' texture with every texture (a 4-byte entry is a texture). Now the
// count has a ceiling and linking sorts; the chains must come out as Quake's scan made them.
static void test_bsp_many_textures_and_animation_chains(void **state)
{
    (void)state;
    size_t cap = 4 + 65537 * 4 + 16;
    uint8_t *tex = calloc(1, cap), *file = malloc(cap + 4096);
    assert_non_null(tex);
    assert_non_null(file);
    char err[512] = "";
    // 65537 entries, all "missing" (-1): one too many
    put32(tex, 65537);
    for (int i = 0; i < 65537; i++)
        put32(tex + 4 + i * 4, 0xffffffffu);
    size_t n = tiny_bsp(file, cap + 4096, 2, tex, 4 + 65537 * 4);
    assert_null(bsp_load(file, n, "maps/many.bsp", err, sizeof err));
    check_msg("maps/many.bsp", err, n);
    assert_non_null(strstr(err, "texture count <= 65536"));
    // 65536 entries: loads (all drawn with the default texture)
    put32(tex, 65536);
    n = tiny_bsp(file, cap + 4096, 2, tex, 4 + 65536 * 4);
    bsp_t *b = bsp_load(file, n, "maps/many.bsp", err, sizeof err);
    if (!b)
        fail_msg("%s", err);
    assert_int_equal(b->num_textures, 65537);
    bsp_free(b);
    // chains: names in file order; a second "+0lava" is ignored, "+2gap" has no frame 0 or 1
    static const char *const names[] = { "+1lava", "+0lava", "+alava", "+0LAVA", "+2gap", "+blava", "+0gap", "+zlava",
                                         "plain" };
    enum { NT = sizeof names / sizeof names[0] };
    size_t mt = 4 + NT * 4, pos = mt;
    put32(tex, NT);
    for (int i = 0; i < NT; i++) {
        put32(tex + 4 + i * 4, (uint32_t)(pos - 0));
        memset(tex + pos, 0, 40 + 340);
        memcpy(tex + pos, names[i], strlen(names[i]));
        put32(tex + pos + 16, 16);
        put32(tex + pos + 20, 16);
        put32(tex + pos + 24, 40);
        put32(tex + pos + 28, 40 + 256);
        put32(tex + pos + 32, 40 + 320);
        put32(tex + pos + 36, 40 + 336);
        pos += 40 + 340;
    }
    assert_true(pos <= cap);
    n = tiny_bsp(file, cap + 4096, 2, tex, pos);
    b = bsp_load(file, n, "maps/anim.bsp", err, sizeof err);
    if (!b)
        fail_msg("%s", err);
    // names are lower-cased: "+0LAVA" is a second frame 0 of "lava" (the first one wins)
    const bsp_texture_t *t = b->textures;
    static const int main_lava[] = { 1, 0 }, alt_lava[] = { 2, 5 };
    static const int lava_members[] = { 0, 1, 2, 5 };
    for (int m = 0; m < 4; m++) {
        const bsp_texture_t *x = &t[lava_members[m]];
        assert_int_equal(x->anim_total, 2);
        assert_int_equal(x->alt_total, 2);
        for (int k = 0; k < 2; k++) {
            assert_int_equal(x->anim_frames[k], main_lava[k]);
            assert_int_equal(x->alt_frames[k], alt_lava[k]);
        }
    }
    assert_int_equal(t[3].anim_total + t[3].alt_total, 0);   // the second frame 0
    assert_int_equal(t[7].anim_total + t[7].alt_total, 0);   // "+z": no frame number
    assert_int_equal(t[8].anim_total + t[8].alt_total, 0);
    assert_int_equal(t[6].anim_total, 1);                    // "+0gap" alone: one frame
    assert_int_equal(t[6].anim_frames[0], 6);
    assert_int_equal(t[4].anim_total, 1);                    // "+2gap" carries the chain it is cut from
    assert_int_equal(t[4].alt_total, 0);
    bsp_free(b);
    free(tex);
    free(file);
}

// Found by the quake demo fuzzer (UBSan: signed overflow): a CD-track line of more
// than nine digits overflowed the track number while probing.
static void test_quake_cdtrack_digits(void **state)
{
    (void)state;
    const decoder_t *d = &q1_decoder;
    uint8_t buf[160];
    memset(buf, '9', 112);   // the fuzzer's input: 112 nines and a space
    buf[112] = ' ';
    (void)d->probe(buf, 113);
    world_t *w = world_create();
    void *st = calloc(1, d->state_size);
    assert_non_null(w);
    assert_non_null(st);
    dec_error_t err;
    if (d->open(st, buf, 113, w, NULL, &err) == 0)
        while (d->read_frame(st, w, &err) > 0) {
        }
    d->close(st);
    // eleven digits and a newline, then one empty block: the track stops growing at nine digits
    memcpy(buf, "99999999999\n", 12);
    memset(buf + 12, 0, 16);
    (void)d->probe(buf, 28);
    assert_int_equal(d->open(st, buf, 28, w, NULL, &err), 0);
    assert_int_equal(w->view.cdtrack, 999999999);
    d->close(st);
    free(st);
    world_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bsp_damaged),
        cmocka_unit_test(test_mdl_damaged),
        cmocka_unit_test(test_spr_damaged),
        cmocka_unit_test(test_wad_damaged),
        cmocka_unit_test(test_lmp_damaged),
        cmocka_unit_test(test_wav_damaged),
        cmocka_unit_test(test_pak_damaged),
        cmocka_unit_test(test_palette_damaged),
        cmocka_unit_test(test_bsp_shared_miptex_no_huge_alloc),
        cmocka_unit_test(test_bsp_faces_share_surfedges),
        cmocka_unit_test(test_bsp_many_textures_and_animation_chains),
        cmocka_unit_test(test_quake_cdtrack_digits),
    };
    return cmocka_run_group_tests_name("hostile", tests, setup, teardown);
}
