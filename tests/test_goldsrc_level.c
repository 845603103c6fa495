// test_goldsrc_level.c -- BSP30 levels: counts, WAD3 textures, the level palette, lighting, bad bytes
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "assets/pal.h"
#include "engine/vfs.h"

// Files a level names, read from the test data's valve folder.
static uint8_t *valve_file(void *ctx, const char *path, size_t *size)
{
    (void)ctx;
    char rel[256];
    snprintf(rel, sizeof rel, "goldsrc/valve/%s", path);
    return tu_read(tu_data(rel), size);
}

static bsp_t *load(const char *rel, int with_files)
{
    size_t size;
    uint8_t *d = tu_read(tu_data(rel), &size);
    assert_non_null(d);
    char err[256] = "";
    asset_files_t files = { valve_file, NULL };
    bsp_t *b = bsp_load_files(d, size, rel, with_files ? &files : NULL, err, sizeof err);
    if (!b)
        fail_msg("%s", err);
    free(d);
    return b;
}

// Textures the faces use that came out as the default checkerboard.
static int missing_face_textures(const bsp_t *b, int *used)
{
    char *seen = calloc((size_t)b->num_textures, 1);
    int missing = 0;
    *used = 0;
    for (int i = 0; i < b->num_faces; i++) {
        int t = b->texinfo[b->faces[i].texinfo].texture;
        if (seen[t])
            continue;
        seen[t] = 1;
        (*used)++;
        missing += b->textures[t].missing;
    }
    free(seen);
    return missing;
}

static void test_c1a0(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    bsp_t *b = load("goldsrc/valve/maps/c1a0.bsp", 1);
    assert_int_equal(b->version, 30);
    assert_int_equal(b->num_faces, 3695);
    assert_int_equal(b->num_leafs, 1438);
    assert_int_equal(b->num_nodes, 2212);
    assert_int_equal(b->num_textures, 165);   // 164 + the default
    assert_int_equal(b->num_models, 77);
    assert_int_equal(b->light_size, 125410);  // RGB samples, one byte each now
    assert_true(b->has_palette);
    int used;
    assert_int_equal(missing_face_textures(b, &used), 0);   // every texture is inside c1a0.bsp
    // the palette is the level's own: no two of the chosen colours are the same grey ramp
    int greys = 0;
    for (int i = 0; i < 224; i++)
        greys += b->palette[i * 3] == b->palette[i * 3 + 1] && b->palette[i * 3 + 1] == b->palette[i * 3 + 2];
    assert_true(greys < 40);
    // the view's leaf at the start of valve_c1a0.dem sees 150 leafs
    vec3_t eye = { 484, 318, -175 };
    int leaf = bsp_point_leaf(b, eye);
    assert_int_equal(leaf, 47);
    uint8_t pvs[1024];
    bsp_leaf_pvs(b, leaf, pvs, sizeof pvs);
    int vis = 0;
    for (int i = 0; i < b->models[0].visleafs; i++)
        vis += (pvs[i >> 3] >> (i & 7)) & 1;
    assert_int_equal(vis, 150);
    bsp_free(b);
}

static void test_crossfire_missing_wad(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    // crossfire's worldspawn names only halflife.wad, which the data lacks, and none of
    // the 91 textures its faces use is in another WAD there: all draw as the default
    // checkerboard (the data README counts 49 missing; by name none is anywhere here).
    bsp_t *b = load("goldsrc/valve/maps/crossfire.bsp", 1);
    int used;
    int missing = missing_face_textures(b, &used);
    assert_int_equal(used, 91);
    assert_int_equal(missing, 91);
    bsp_free(b);
    // with no files at all, still a level
    b = load("goldsrc/valve/maps/crossfire.bsp", 0);
    assert_int_equal(b->num_faces, 4385);
    bsp_free(b);
}

static void test_test_assets(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    // gchimp's compiler test has edges but no vertices: a clear error
    size_t size;
    uint8_t *d = tu_read(tu_data("goldsrc/test_assets/maps/gchimp/bsp_compile.bsp"), &size);
    assert_non_null(d);
    char err[256] = "";
    assert_null(bsp_load(d, size, "bsp_compile.bsp", err, sizeof err));
    assert_string_equal(err, "bsp_compile.bsp: offset 700: expected vertex index < 0");
    free(d);
    static const char *const maps[] = {
        "goldsrc/test_assets/maps/gchimp/c1a3d.bsp",
        "goldsrc/test_assets/maps/gchimp/datacore.bsp", "goldsrc/test_assets/maps/gchimp/normal.bsp",
        "goldsrc/test_assets/maps/goldsrc-renderer/entity-test.bsp",
        "goldsrc/test_assets/maps/goldsrc-renderer/in-bsp-texture-test.bsp",
        "goldsrc/test_assets/maps/goldsrc-renderer/lightmap-test.bsp",
        "goldsrc/test_assets/maps/goldsrc-renderer/sky-test-simple.bsp",
        "goldsrc/test_assets/maps/goldsrc-renderer/vis-test-simple.bsp",
        "goldsrc/test_assets/maps/goldsrc-renderer/vis-test.bsp",
    };
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        bsp_t *b = load(maps[i], 1);
        assert_int_equal(b->version, 30);
        assert_true(b->num_faces > 0);
        bsp_free(b);
    }
}

// Damaged copies: a clean "offset N: expected" error or a level, never a crash (ASan pass).
static void test_bad_bytes(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = tu_read(tu_data("goldsrc/test_assets/maps/goldsrc-renderer/in-bsp-texture-test.bsp"), &size);
    assert_non_null(d);
    int failed = 0, loaded = 0;
    for (size_t cut = 0; cut < size; cut += size / 97 + 1) {
        uint8_t *c = malloc(cut ? cut : 1);
        memcpy(c, d, cut);
        char err[256] = "";
        bsp_t *b = bsp_load(c, cut, "maps/t.bsp", err, sizeof err);
        if (b) {
            loaded++;
            bsp_free(b);
        } else {
            assert_non_null(strstr(err, "maps/t.bsp: offset "));
            assert_non_null(strstr(err, ": expected "));
            failed++;
        }
        free(c);
    }
    assert_true(failed > 90);
    uint32_t x = 12345;
    for (int k = 0; k < 300; k++) {
        uint8_t *c = malloc(size);
        memcpy(c, d, size);
        for (int j = 0; j < 8; j++) {
            x = x * 1103515245u + 12345u;
            c[(x >> 8) % size] ^= (uint8_t)(1u << (x & 7));
        }
        char err[256] = "";
        bsp_t *b = bsp_load(c, size, "maps/t.bsp", err, sizeof err);
        if (b)
            bsp_free(b);
        else
            assert_non_null(strstr(err, ": expected "));
        free(c);
    }
    free(d);
    (void)loaded;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_c1a0),
        cmocka_unit_test(test_crossfire_missing_wad),
        cmocka_unit_test(test_test_assets),
        cmocka_unit_test(test_bad_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
