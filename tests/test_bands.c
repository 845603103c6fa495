// test_bands.c -- a frame drawn in 2 and 3 screen bands (r_set_threads) is the one-band frame, byte for byte
//
// Every game: the same demo fed to three renderers (1, 2 and 3 bands), drawn at many times
// (models, particles, water, the HUD, a chase camera), the 8-bit buffers and the shown
// palettes compared whole. And `shot --threads 2` writes the PNG `shot --threads 1` does.
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/camera.h"
#include "engine/cli.h"
#include "engine/demo.h"
#include "render/d_polyse.h"
#include "render/r_local.h"
#include "render/render.h"

#define NR 3

typedef struct {
    int compared, redraws, under_liquid;
} bands_result_t;

// The frame of renderer k differs from renderer 0's: where (the first row), for the message.
static int first_diff_row(const renderer_t *a, const renderer_t *b)
{
    int w, h, pitch, w2, h2, p2;
    const uint8_t *pa = r_pixels(a, &w, &h, &pitch), *pb = r_pixels(b, &w2, &h2, &p2);
    for (int y = 0; y < h; y++)
        if (memcmp(pa + (size_t)y * (size_t)pitch, pb + (size_t)y * (size_t)p2, (size_t)w))
            return y;
    return -1;
}

// Read the whole demo (up to `until` s), drawing every `stride`-th frame from `from` s in 1, 2 and 3 bands.
static bands_result_t run_bands(const char *label, const char *path, const char *basedir, const char *game, int width,
                                int height, const char *camera, double from, double until, int stride, int force_redraw)
{
    bands_result_t res = { 0, 0, 0 };
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = basedir;
    cli.game = game;
    cli.quiet = 1;
    demo_t d;
    if (demo_open(&d, &cli, path, NULL, 0) < 0)
        fail_msg("%s: %s", label, d.errmsg);
    renderer_t *r[NR];
    static r_camera_t cam;
    char err[512];
    if (camera && cam_parse(camera, &cam, err, sizeof err) < 0)
        fail_msg("%s", err);
    for (int k = 0; k < NR; k++) {
        r[k] = r_create(width, height);
        assert_non_null(r[k]);
        assert_int_equal(r_set_threads(r[k], k + 1), k + 1);
        if (camera)
            r_set_camera(r[k], &cam);
        if (force_redraw)
            r_bands_force_redraw(r[k], 1);
    }
    vfs_t *fs = NULL;
    uint32_t level_seq = 0;
    const world_t *w = d.world;
    int rc, n = 0;
    while ((rc = demo_read_frame(&d)) > 0 && w->time <= until) {
        if (w->level_seq != level_seq) {
            level_seq = w->level_seq;
            vfs_free(fs);
            fs = demo_mount(&d, &cli);
            for (int k = 0; k < NR; k++)
                r_load_level(r[k], fs, w, err, sizeof err);
        }
        for (int k = 0; k < NR; k++)
            r_frame(r[k], w);
        if (w->time < from || n++ % stride)
            continue;
        double t = w->prev_time + (w->time - w->prev_time) * 0.5;
        for (int k = 0; k < NR; k++)
            r_render(r[k], w, t);
        for (int k = 1; k < NR; k++) {
            int y = first_diff_row(r[0], r[k]);
            if (y >= 0) {
                char one[64], many[64];
                snprintf(one, sizeof one, "/tmp/test_bands_%d_1.png", (int)getpid());
                snprintf(many, sizeof many, "/tmp/test_bands_%d_n.png", (int)getpid());
                r_write_png(r[0], one);
                r_write_png(r[k], many);
                fail_msg("%s at %.3f s: %d bands differ from one at row %d (%s, %s)", label, t, k + 1, y, one, many);
            }
            if (memcmp(r_palette(r[0]), r_palette(r[k]), 768))
                fail_msg("%s at %.3f s: %d bands: the palette differs", label, t, k + 1);
        }
        res.compared++;
        r_cam_state_t st;
        r_camera_state(r[0], &st);
        res.under_liquid += st.contents == BSP_CONTENTS_WATER || st.contents == BSP_CONTENTS_SLIME ||
                            st.contents == BSP_CONTENTS_LAVA;
    }
    assert_true(rc >= 0);
    for (int k = 1; k < NR; k++)
        res.redraws += r_bands_redraws(r[k]);
    print_message("%s: %d frames at %dx%d (%d under a liquid: warped) identical in 1, 2 and 3 bands (%d of %d band "
                  "frames drawn again on one band)\n",
                  label, res.compared, width, height, res.under_liquid, res.redraws, res.compared * (NR - 1));
    for (int k = 0; k < NR; k++)
        r_destroy(r[k]);
    vfs_free(fs);
    demo_close(&d);
    assert_true(res.compared > 0);
    if (force_redraw)
        assert_int_equal(res.redraws, res.compared * (NR - 1));
    return res;
}

static void test_builtin(void **state)
{
    (void)state;
    bands_result_t a = run_bands("built-in", "build/builtin/id1/demos/builtin.dem", "build/builtin", NULL, 320, 200, NULL,
                                 0, 1e9, 7, 0);
    // the bands did the drawing: a frame falls back to one band only for a centre read outside its rows
    assert_true(a.redraws < a.compared);
    run_bands("built-in, chase camera", "build/builtin/id1/demos/builtin.dem", "build/builtin", NULL, 400, 300,
              "chase", 0, 1e9, 11, 0);
    // the one-band fallback after the bands gives the same bytes too
    run_bands("built-in, fallback", "build/builtin/id1/demos/builtin.dem", "build/builtin", NULL, 320, 240, NULL, 0, 1e9,
              29, 1);
}

static void test_quake(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    bands_result_t a = run_bands("qfm_e1m3", tu_data("quake/demos/qfm_e1m3.dem"), tu_data("quake"), "qfm", 320, 200,
                                 NULL, 0, 1e9, 9, 0);
    assert_true(a.redraws < a.compared);
    // under water: the warp reads the whole view, after the bands are joined
    bands_result_t b = run_bands("qfm_e1m4", tu_data("quake/demos/qfm_e1m4.dem"), tu_data("quake"), "qfm", 320, 200,
                                 NULL, 0, 1e9, 5, 0);
    assert_true(b.under_liquid > 20);
    run_bands("qfm_e1m3, chase camera", tu_data("quake/demos/qfm_e1m3.dem"), tu_data("quake"), "qfm", 480, 360, "chase",
              0, 1e9, 23, 0);
}

static void test_quake2(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    run_bands("q2demo1_p31", tu_data("quake2/demos/q2demo1_p31.dm2"), tu_data("quake2"), NULL, 320, 240, NULL, 0, 1e9, 3,
              0);
    run_bands("opentdm_koldduel1", tu_data("quake2/demos/opentdm_koldduel1.dm2"), tu_data("quake2"), NULL, 400, 300,
              NULL, 690, 720, 5, 0);
}

static void test_goldsrc(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    run_bands("valve_c1a0", tu_data("goldsrc/demos/valve_c1a0.dem"), tu_data("goldsrc"), NULL, 320, 240, NULL, 0, 1e9, 7,
              0);
    run_bands("cstrike_crossfire", tu_data("goldsrc/demos/cstrike_crossfire.dem"), tu_data("goldsrc"), NULL, 320, 200,
              NULL, 0, 1e9, 13, 0);
}

static void test_forsaken(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    run_bands("forsaken_sample", "tests/data/forsaken_sample.dmo", tu_data("forsaken"), NULL, 320, 240, NULL, 0, 1e9, 3,
              0);
}

// The triangle rasterizer with a row range writes those rows as the whole triangle does, and no other.
static void test_triangle_rows(void **state)
{
    (void)state;
    enum { W = 40, H = 32 };
    static uint8_t full[W * H], band[W * H], tex[16 * 16], cmap[64 * 256];
    static float zf[W * H], zb[W * H];
    for (int i = 0; i < 16 * 16; i++)
        tex[i] = (uint8_t)(i * 7 + 1);
    for (int i = 0; i < 64 * 256; i++)
        cmap[i] = (uint8_t)(i & 255);
    d_vert_t a = { 3.2f, 1.7f, 0.5f, 0, 0, 10 }, b = { 37.9f, 9.1f, 0.25f, 15, 3, 20 }, c = { 11.4f, 30.6f, 0.4f, 4, 15, 30 };
    d_polyctx_t cf = { full, W, H, W, zf, tex, 16, 16, cmap, D_LIT, NULL, 0, 0, 0 };
    d_poly_triangle(&cf, &a, &b, &c);
    int drawn = 0;
    for (int i = 0; i < W * H; i++)
        drawn += full[i] != 0;
    assert_true(drawn > 300);
    for (int y0 = 0; y0 < H; y0 += 5) {
        memset(band, 0, sizeof band);
        memset(zb, 0, sizeof zb);
        d_polyctx_t cb = cf;
        cb.buffer = band;
        cb.zbuffer = zb;
        cb.y0 = y0;
        cb.y1 = y0 + 7;
        d_poly_triangle(&cb, &a, &b, &c);
        for (int y = 0; y < H; y++) {
            int inside = y >= y0 && y < y0 + 7;
            for (int x = 0; x < W; x++)
                if (band[y * W + x] != (inside ? full[y * W + x] : 0))
                    fail_msg("rows [%d, %d): pixel %d,%d is %d, expected %d", y0, y0 + 7, x, y, band[y * W + x],
                             inside ? full[y * W + x] : 0);
        }
    }
}

// `shot --threads 2` and `--threads 1`: the same PNG file.
static void shot_same(const char *label, const char *args)
{
    // files of this process's own: two test runs at once (rel and san, two checkouts) must
    // not write each other's (a run of the sanitizer pass read another's once)
    char cmd[2048], path[2][64];
    int status;
    for (int th = 1; th <= 2; th++) {
        snprintf(path[th - 1], sizeof path[0], "/tmp/test_bands_%d_shot%d.png", (int)getpid(), th);
        snprintf(cmd, sizeof cmd, "%s shot %s --threads %d -q -o %s", tu_bin(), args, th, path[th - 1]);
        free(tu_run(cmd, &status));
        assert_int_equal(status, 0);
    }
    size_t na, nb;
    uint8_t *a = tu_read(path[0], &na), *b = tu_read(path[1], &nb);
    remove(path[0]);
    remove(path[1]);
    assert_non_null(a);
    assert_non_null(b);
    if (na != nb || memcmp(a, b, na))
        fail_msg("%s: shot --threads 2 differs from --threads 1", label);
    free(a);
    free(b);
    print_message("%s: shot --threads 1 and 2 write the same PNG (%zu bytes)\n", label, na);
}

static void test_shot(void **state)
{
    (void)state;
    shot_same("built-in", "build/builtin/id1/demos/builtin.dem --basedir build/builtin --at 20 --size 640x400");
    if (!tu_data_dir())
        return;
    char args[1024];
    snprintf(args, sizeof args, "%s --basedir %s --game qfm --at 30 --size 640x480 --camera chase",
             tu_data("quake/demos/qfm_e1m3.dem"), tu_data("quake"));
    shot_same("qfm_e1m3", args);
    snprintf(args, sizeof args, "%s --basedir %s --at 20 --size 640x480", tu_data("goldsrc/demos/valve_c1a0.dem"),
             tu_data("goldsrc"));
    shot_same("valve_c1a0", args);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triangle_rows), cmocka_unit_test(test_builtin), cmocka_unit_test(test_quake),    cmocka_unit_test(test_quake2),
        cmocka_unit_test(test_goldsrc), cmocka_unit_test(test_forsaken), cmocka_unit_test(test_shot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
