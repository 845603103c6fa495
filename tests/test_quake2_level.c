// test_quake2_level.c -- Quake II levels: IBSP38 loading, WAL textures, the palette from colormap.pcx, cluster PVS,
// and damaged copies of a real level (they must fail in form or load, never crash)
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "assets/pal.h"
#include "assets/wal.h"
#include "engine/vfs.h"

// ---- helpers ------------------------------------------------------------------

// The asset callback the engine gives levels, counting the files that were not there.
typedef struct {
    vfs_t *fs;
    int asked, missing;
} files_ctx_t;

static uint8_t *vfs_file(void *ctx, const char *path, size_t *size)
{
    files_ctx_t *c = ctx;
    uint8_t *b = vfs_load(c->fs, path, size);
    c->asked++;
    c->missing += !b;
    return b;
}

static vfs_t *mount(const char *mod)
{
    vfs_t *fs = vfs_create();
    assert_non_null(fs);
    assert_true(vfs_mount_game(fs, tu_data("quake2"), "baseq2", mod) >= 0);
    return fs;
}

static uint8_t *read_data(const char *rel, size_t *size)
{
    uint8_t *b = tu_read(tu_data(rel), size);
    if (!b)
        fail_msg("%s: missing from the data folder", tu_data(rel));
    return b;
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

// Load maps/NAME.bsp of a mod folder (NULL = baseq2) with its textures.
static bsp_t *load_level(const char *mod, const char *name, files_ctx_t *fc)
{
    char rel[128];
    snprintf(rel, sizeof rel, "quake2/%s/maps/%s.bsp", mod ? mod : "baseq2", name);
    size_t size;
    uint8_t *data = read_data(rel, &size);
    memset(fc, 0, sizeof *fc);
    fc->fs = mount(mod);
    asset_files_t files = { vfs_file, fc };
    char err[512] = "";
    bsp_t *b = bsp_load_files(data, size, rel, &files, err, sizeof err);
    if (!b)
        fail_msg("%s", err);
    free(data);
    vfs_free(fc->fs);
    fc->fs = NULL;
    return b;
}

static int count_bits(const uint8_t *p, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 8; k++)
            c += (p[i] >> k) & 1;
    return c;
}

// ---- every level ----------------------------------------------------------------

static void test_every_level_loads(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const mods[] = { NULL, "action" };
    int loaded = 0;
    for (int m = 0; m < 2; m++) {
        char dir[64];
        snprintf(dir, sizeof dir, "quake2/%s/maps", mods[m] ? mods[m] : "baseq2");
        DIR *d = opendir(tu_data(dir));
        assert_non_null(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".bsp"))
                continue;
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len - 4), e->d_name);
            files_ctx_t fc;
            bsp_t *b = load_level(mods[m], name, &fc);
            assert_int_equal(b->version, 38);
            assert_true(b->num_clusters > 0);
            assert_int_equal(fc.missing, 0);   // the data has every texture its levels name
            // every leaf's PVS row decompresses; the leaf sees itself
            size_t row = ((size_t)b->num_leafs + 7) / 8 + 1;
            uint8_t *pvs = malloc(row);
            assert_non_null(pvs);
            for (int i = 1; i < b->num_leafs; i++) {
                bsp_leaf_pvs(b, i, pvs, row);
                if (b->leafs[i].cluster >= 0)
                    assert_true(pvs[(i - 1) >> 3] & (1 << ((i - 1) & 7)));
            }
            free(pvs);
            for (int i = 0; i < b->num_textures; i++)
                assert_true(b->textures[i].width % 16 == 0 && b->textures[i].height % 16 == 0);
            printf("    %s/%s: %d faces, %d leafs, %d clusters, %d textures\n", mods[m] ? mods[m] : "baseq2", name,
                   b->num_faces, b->num_leafs, b->num_clusters, b->num_textures);
            bsp_free(b);
            loaded++;
        }
        closedir(d);
    }
    assert_int_equal(loaded, 16);
}

static void test_pinned_levels(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct {
        const char *mod, *name;
        int faces, leafs, clusters, textures, texinfo, models, asked;
    } pins[] = {
        { NULL, "demo2", 9228, 5369, 1313, 161, 776, 60, 160 },
        { NULL, "q2dm1", 3282, 2250, 925, 66, 238, 3, 65 },
        { "action", "terminal", 5177, 1897, 474, 61, 1789, 1, 60 },
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        files_ctx_t fc;
        bsp_t *b = load_level(pins[i].mod, pins[i].name, &fc);
        assert_int_equal(b->num_faces, pins[i].faces);
        assert_int_equal(b->num_leafs, pins[i].leafs);
        assert_int_equal(b->num_clusters, pins[i].clusters);
        assert_int_equal(b->num_textures, pins[i].textures);   // distinct names + the default
        assert_int_equal(b->num_texinfo, pins[i].texinfo);
        assert_int_equal(b->num_models, pins[i].models);
        assert_int_equal(fc.asked, pins[i].asked);             // one read per distinct name
        assert_int_equal(fc.missing, 0);
        bsp_free(b);
    }
}

// Without the file system every texture is missing: each draws with the checkerboard.
static void test_missing_textures(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *data = read_data("quake2/baseq2/maps/demo2.bsp", &size);
    char err[256] = "";
    bsp_t *b = bsp38_load(data, size, "demo2.bsp", NULL, err, sizeof err);
    assert_non_null(b);
    assert_int_equal(b->num_textures, 161);
    for (int i = 0; i < b->num_textures; i++) {
        assert_int_equal(b->textures[i].width, 16);
        assert_int_equal(b->textures[i].height, 16);
    }
    assert_int_equal(b->texel_size, 161 * (16 * 16 + 8 * 8 + 4 * 4 + 2 * 2));
    assert_string_equal(b->textures[160].name, "notexture");
    bsp_free(b);
    free(data);
}

// Texinfo chains: every frame animates through the chain from itself.
static void test_animation_chains(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    files_ctx_t fc;
    bsp_t *b = load_level(NULL, "demo2", &fc);
    int found = 0;
    for (int i = 0; i < b->num_textures; i++) {
        const bsp_texture_t *t = &b->textures[i];
        if (strcmp(t->name, "e1u1/arrowup0"))
            continue;
        found = 1;
        assert_int_equal(t->anim_total, 4);
        assert_int_equal(t->anim_frames[0], i);
        for (int k = 0; k < 4; k++) {
            char want[32];
            snprintf(want, sizeof want, "e1u1/arrowup%d", k);
            assert_string_equal(b->textures[t->anim_frames[k]].name, want);
        }
        // the second frame's chain starts at itself and comes round to the first
        const bsp_texture_t *t1 = &b->textures[t->anim_frames[1]];
        assert_int_equal(t1->anim_total, 4);
        assert_int_equal(t1->anim_frames[0], t->anim_frames[1]);
        assert_int_equal(t1->anim_frames[3], i);
    }
    assert_true(found);
    bsp_free(b);
}

// The PVS of the leaf the demo's player stands in at 20 s.
static void test_pvs_of_a_leaf(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    files_ctx_t fc;
    bsp_t *b = load_level(NULL, "demo2", &fc);
    const vec3_t eye = { 677.875f, 2386.88f, -208.75f };
    int leaf = bsp_point_leaf(b, eye);
    size_t row = ((size_t)b->num_leafs + 7) / 8 + 1;
    uint8_t *pvs = malloc(row);
    assert_non_null(pvs);
    bsp_leaf_pvs(b, leaf, pvs, row);
    int seen = count_bits(pvs, row);
    printf("    leaf %d cluster %d: %d leafs visible\n", leaf, b->leafs[leaf].cluster, seen);
    assert_int_equal(leaf, 143);
    assert_int_equal(b->leafs[leaf].cluster, 38);
    assert_int_equal(b->leafs[leaf].contents, BSP_CONTENTS_EMPTY);
    assert_int_equal(seen, 1248);   // 116 of the 1313 clusters
    // leaf 0 and a solid leaf see everything (row bytes all set)
    bsp_leaf_pvs(b, 0, pvs, row);
    assert_int_equal(count_bits(pvs, row), (int)row * 8);
    free(pvs);
    bsp_free(b);
}

// base1.bsp's entity lump runs 875 bytes past the file's end: the level loads with the entities cut.
static void test_base1_entities_cut(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *data = read_data("quake2/baseq2/maps/base1.bsp", &size);
    assert_int_equal(size, 1990660);
    char err[256] = "";
    bsp_t *b = bsp38_load(data, size, "base1.bsp", NULL, err, sizeof err);
    assert_non_null(b);
    assert_int_equal(b->entities_size, 1990660 - 1937912);
    assert_int_equal(strlen(b->entities), b->entities_size - 2);   // the file ends in two NULs
    assert_non_null(strstr(b->entities, "\"message\" \"Outer Base\""));
    bsp_free(b);
    // a lump other than the entities past the end is refused
    uint8_t *copy = malloc(size);
    assert_non_null(copy);
    memcpy(copy, data, size);
    copy[8 + 8 * 8 + 4 + 3] = 0x10;   // leafs lump length + 256 MB
    assert_null(bsp38_load(copy, size, "base1.bsp", NULL, err, sizeof err));
    assert_string_equal(err, "base1.bsp: offset 72: expected lump 8 inside the 1990660-byte file, got 268582120 bytes at 171320");
    free(copy);
    free(data);
}

// ---- WAL textures ---------------------------------------------------------------

static void test_wal_real(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *data = read_data("quake2/baseq2/textures/e1u1/arrowup0.wal", &size);
    assert_int_equal(size, 1460);
    wal_t w;
    char err[160] = "";
    assert_int_equal(wal_load(&w, data, size, err, sizeof err), 0);
    assert_string_equal(w.name, "e1u1/arrowup0");
    assert_string_equal(w.animname, "e1u1/arrowup1");
    assert_int_equal(w.width, 32);
    assert_int_equal(w.height, 32);
    assert_int_equal(w.flags, 0);
    assert_int_equal(w.contents, 0);
    assert_int_equal(w.value, 0);
    assert_int_equal(w.pixels_size, 32 * 32 + 16 * 16 + 8 * 8 + 4 * 4);
    assert_int_equal(w.offsets[3], 32 * 32 + 16 * 16 + 8 * 8);
    // the pixels are the file's, mip after mip
    assert_memory_equal(w.pixels, data + 100, w.pixels_size);
    assert_int_equal(fnv1a(w.pixels, w.pixels_size), 0xc7c9fb27);
    wal_free(&w);
    free(data);
}

static void test_wal_errors(void **state)
{
    (void)state;
    uint8_t h[WAL_HEADER_SIZE + 8 * 8 + 4 * 4 + 2 * 2 + 1];
    memset(h, 0, sizeof h);
    wal_t w;
    char err[160] = "";
    assert_int_equal(wal_load(&w, h, 99, err, sizeof err), -1);
    assert_string_equal(err, "offset 0: expected a WAL header (100 bytes), file has 99");
    h[32] = 4;
    h[36] = 8;
    assert_int_equal(wal_load(&w, h, sizeof h, err, sizeof err), -1);
    assert_string_equal(err, "offset 32: expected a texture of 8..4096 texels a side, got 4x8");
    h[32] = 8;
    h[40] = 100;   // mip 0: 64 bytes at 100, fits; mips 1..3 at offset 0 also fit (inside the header)
    assert_int_equal(wal_load(&w, h, sizeof h, err, sizeof err), 0);
    wal_free(&w);
    h[44] = 200;   // mip 1 (16 bytes) at 200: past the end
    assert_int_equal(wal_load(&w, h, sizeof h, err, sizeof err), -1);
    assert_string_equal(err, "offset 44: expected mip 1 (16 bytes) inside the 185-byte file, got offset 200");
    assert_null(w.pixels);
}

// A texture whose sides are not multiples of 16 is repeated up to the least common
// multiple, so it wraps as the original would.
static uint8_t *odd_wal(void *ctx, const char *path, size_t *size)
{
    (void)ctx;
    (void)path;
    const int w = 24, h = 40;
    size_t total = WAL_HEADER_SIZE;
    for (int m = 0; m < 4; m++)
        total += (size_t)(w >> m) * (size_t)(h >> m);
    uint8_t *b = calloc(1, total);
    b[32] = (uint8_t)w;
    b[36] = (uint8_t)h;
    size_t o = WAL_HEADER_SIZE;
    for (int m = 0; m < 4; m++) {
        b[40 + m * 4] = (uint8_t)o;
        b[41 + m * 4] = (uint8_t)(o >> 8);
        for (int y = 0; y < h >> m; y++)
            for (int x = 0; x < w >> m; x++)
                b[o++] = (uint8_t)(y * 7 + x + m * 50);
    }
    *size = total;
    return b;
}

static void test_wal_sides_not_multiples_of_16(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *data = read_data("quake2/baseq2/maps/q2dm1.bsp", &size);
    asset_files_t files = { odd_wal, NULL };
    char err[256] = "";
    bsp_t *b = bsp38_load(data, size, "q2dm1.bsp", &files, err, sizeof err);
    assert_non_null(b);
    const bsp_texture_t *t = &b->textures[0];
    assert_int_equal(t->width, 48);
    assert_int_equal(t->height, 80);
    for (int m = 0; m < 4; m++) {
        const uint8_t *p = b->texels + t->offsets[m];
        int sw = 24 >> m, sh = 40 >> m;
        for (int y = 0; y < 80 >> m; y++)
            for (int x = 0; x < 48 >> m; x++)
                assert_int_equal(p[y * (48 >> m) + x], (uint8_t)((y % sh) * 7 + x % sw + m * 50));
    }
    bsp_free(b);
    free(data);
}

// ---- palette --------------------------------------------------------------------

static void test_palette_from_colormap_pcx(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = mount(NULL);
    pal_t p;
    char err[256] = "";
    assert_int_equal(pal_load(&p, fs, GAME_QUAKE2, err, sizeof err), 0);
    assert_int_equal(p.loaded, 1);
    assert_int_equal(p.fullbright_start, 256);
    assert_int_equal(fnv1a(p.palette, 768), 0x5161d8c3);
    assert_int_equal(fnv1a(p.colormap, sizeof p.colormap), 0x7a6e0bf9);
    // row 32 is the colours as painted (all but a few near-duplicates map to themselves),
    // row 0 the brightest, row 63 black
    int same = 0;
    for (int c = 0; c < 256; c++)
        same += p.colormap[32 * 256 + c] == c;
    assert_int_equal(same, 247);
    int lum0 = 0, lum63 = 0;
    for (int c = 0; c < 256; c++) {
        const uint8_t *a = p.palette + 3 * p.colormap[c], *z = p.palette + 3 * p.colormap[63 * 256 + c];
        lum0 += a[0] + a[1] + a[2];
        lum63 += z[0] + z[1] + z[2];
    }
    assert_int_equal(lum0 / 256, 392);
    assert_int_equal(lum63 / 256, 1);
    vfs_free(fs);
    // no file system: the grey ramp, and the file named in the error
    assert_int_equal(pal_load(&p, NULL, GAME_QUAKE2, err, sizeof err), -1);
    assert_string_equal(err, "pics/colormap.pcx: not found");
    assert_int_equal(p.palette[3 * 200], 200);
    assert_int_equal(p.loaded, 0);
}

// ---- hostile copies -------------------------------------------------------------

static uint32_t rng = 0x2468aceu;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

// "PREFIXoffset N: expected ..." with N <= size.
static void check_msg(const char *prefix, const char *msg, size_t size)
{
    size_t pl = strlen(prefix);
    if (strncmp(msg, prefix, pl) || strncmp(msg + pl, "offset ", 7))
        fail_msg("(%zu bytes) error does not read \"%soffset N: ...\": \"%s\"", size, prefix, msg);
    char *end;
    unsigned long long off = strtoull(msg + pl + 7, &end, 10);
    if (strncmp(end, ": expected", 10))
        fail_msg("(%zu bytes) error does not read \"offset N: expected ...\": \"%s\"", size, msg);
    if (off > size)
        fail_msg("(%zu bytes) error names offset %llu, past the end: \"%s\"", size, off, msg);
}

// 1..4 changes, half in the first 256 bytes (the header), as bytes or extreme 32-bit values.
static void damage(uint8_t *b, size_t n)
{
    static const uint32_t words[] = { 0, 0xffffffffu, 0x7fffffffu, 0x80000000u, 1, 0x10000u, 4096, 0xfffffff0u };
    int k = 1 + (int)(rnd() % 4);
    for (int i = 0; i < k && n; i++) {
        size_t range = (rnd() & 1) && n > 256 ? 256 : n;   // two statements: rnd() calls in one expression are unordered
        size_t at = rnd() % range;
        if (rnd() & 1) {
            b[at] = (uint8_t)rnd();
        } else if ((at & ~(size_t)3) + 4 <= n) {
            uint32_t v = words[rnd() % 8];
            at &= ~(size_t)3;
            for (int j = 0; j < 4; j++)
                b[at + j] = (uint8_t)(v >> (8 * j));
        }
    }
}

// Load one copy in an exact-size buffer and use what loaded: points, PVS rows, face texels.
static int load_copy(const uint8_t *src, size_t n, int *failed)
{
    uint8_t *copy = malloc(n ? n : 1);
    assert_non_null(copy);
    memcpy(copy, src, n);
    char err[512] = "";
    bsp_t *b = bsp38_load(copy, n, "demo2.bsp", NULL, err, sizeof err);
    free(copy);
    if (!b) {
        check_msg("demo2.bsp: ", err, n);
        (*failed)++;
        return 0;
    }
    static const vec3_t pts[] = { { 0, 0, 0 }, { 677.875f, 2386.88f, -208.75f }, { -4096, 4096, 0 } };
    size_t row = ((size_t)b->num_leafs + 7) / 8 + 1;
    uint8_t *pvs = malloc(row);
    assert_non_null(pvs);
    for (size_t i = 0; i < 3; i++) {
        int leaf = bsp_point_leaf(b, pts[i]);
        assert_true(leaf >= 0 && leaf < b->num_leafs);
        bsp_leaf_pvs(b, leaf, pvs, row);
    }
    free(pvs);
    volatile unsigned sum = 0;
    for (int i = 0; i < b->num_faces; i++) {
        const bsp_texture_t *t = &b->textures[b->texinfo[b->faces[i].texinfo].texture];
        sum += b->texels[t->offsets[3] + (size_t)(t->width >> 3) * (size_t)(t->height >> 3) - 1];
        for (int k = 0; k < t->anim_total; k++)
            assert_true(t->anim_frames[k] >= 0 && t->anim_frames[k] < b->num_textures);
    }
    (void)sum;
    bsp_free(b);
    return 1;
}

static void test_damaged_level(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *src = read_data("quake2/baseq2/maps/demo2.bsp", &size);
    int loads = 0, failed = 0;
    for (size_t n = 0; n <= 256; n++, loads++)
        load_copy(src, n, &failed);
    for (int i = 0; i < 60; i++, loads++)
        load_copy(src, 257 + (size - 257) * (size_t)i / 60, &failed);
    uint8_t *d = malloc(size);
    assert_non_null(d);
    for (int i = 0; i < 150; i++, loads++) {
        memcpy(d, src, size);
        damage(d, size);
        load_copy(d, size, &failed);
    }
    printf("    demo2.bsp: %d loads, %d failed in form\n", loads, failed);
    assert_true(failed >= 317);   // every truncated copy fails
    // one pinned message: the texinfo lump's size broken
    memcpy(d, src, size);
    d[8 + 5 * 8 + 4] ^= 1;
    char err[256];
    assert_null(bsp38_load(d, size, "demo2.bsp", NULL, err, sizeof err));
    assert_string_equal(err, "demo2.bsp: offset 52: expected texinfo lump size a multiple of 76, got 58977");
    free(d);
    free(src);
}

static void test_damaged_wal(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *src = read_data("quake2/baseq2/textures/e1u1/floor3_1.wal", &size);
    int failed = 0;
    for (int i = 0; i < 600; i++) {
        size_t n = i < 300 ? (size_t)i * size / 300 : size;
        uint8_t *copy = malloc(n ? n : 1);
        assert_non_null(copy);
        memcpy(copy, src, n);
        if (i >= 300)
            damage(copy, n);
        wal_t w;
        char err[160] = "";
        if (wal_load(&w, copy, n, err, sizeof err) < 0) {
            check_msg("", err, n);
            failed++;
        } else {
            volatile uint8_t last = w.pixels[w.offsets[3] + (size_t)(w.width >> 3) * (size_t)(w.height >> 3) - 1];
            (void)last;
            wal_free(&w);
        }
        free(copy);
    }
    assert_true(failed >= 300);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_level_loads),
        cmocka_unit_test(test_pinned_levels),
        cmocka_unit_test(test_missing_textures),
        cmocka_unit_test(test_animation_chains),
        cmocka_unit_test(test_pvs_of_a_leaf),
        cmocka_unit_test(test_base1_entities_cut),
        cmocka_unit_test(test_wal_real),
        cmocka_unit_test(test_wal_errors),
        cmocka_unit_test(test_wal_sides_not_multiples_of_16),
        cmocka_unit_test(test_palette_from_colormap_pcx),
        cmocka_unit_test(test_damaged_level),
        cmocka_unit_test(test_damaged_wal),
    };
    return cmocka_run_group_tests_name("quake2_level", tests, NULL, NULL);
}
