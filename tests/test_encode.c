// test_encode.c -- export's encoders (engine/encode.c): indexed PNGs, Y4M from the palette,
// and the same bytes whatever the number of threads
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/encode.h"
#include "engine/movie.h"

static uint32_t rng = 12345;
static uint8_t rnd8(void)
{
    rng = rng * 1103515245u + 12345u;
    return (uint8_t)(rng >> 16);
}

// Y4M from 8-bit pixels + palette is byte for byte what movie.c makes from the RGB frame,
// odd sizes included.
static void test_yuv_matches_rgb_path(void **state)
{
    (void)state;
    const int sizes[][2] = {{64, 48}, {33, 17}, {1, 1}, {320, 200}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int w = sizes[s][0], h = sizes[s][1], pitch = w + 7;
        uint8_t pal[768];
        for (int i = 0; i < 768; i++)
            pal[i] = rnd8();
        uint8_t *pix = malloc((size_t)pitch * h), *rgb = malloc((size_t)w * h * 3);
        uint8_t *a = malloc(mov_y4m_work_size(w, h)), *b = malloc(mov_y4m_work_size(w, h));
        assert_true(pix && rgb && a && b);
        for (int i = 0; i < pitch * h; i++)
            pix[i] = rnd8();
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                memcpy(rgb + ((size_t)y * w + x) * 3, pal + pix[y * pitch + x] * 3, 3);
        mov_rgb_to_yuv420(rgb, w, h, a);
        enc_pal_to_yuv420(pix, w, h, pitch, pal, b);
        assert_memory_equal(a, b, mov_y4m_work_size(w, h));
        free(pix), free(rgb), free(a), free(b);
    }
}

// An indexed PNG reads back as the palette's colours (colour type 3, 8 bits).
static void test_png_indexed(void **state)
{
    (void)state;
    int w = 37, h = 21, pitch = 40;
    uint8_t pal[768], pix[40 * 21];
    for (int i = 0; i < 768; i++)
        pal[i] = rnd8();
    for (int i = 0; i < pitch * h; i++)
        pix[i] = rnd8();
    char err[256];
    const char *path = "build/test_encode.png";
    assert_int_equal(enc_write_png(path, pix, w, h, pitch, pal, err, sizeof err), 0);
    size_t n;
    uint8_t *f = tu_read(path, &n);
    assert_non_null(f);
    assert_int_equal(f[25], 3);   // IHDR colour type: palette
    assert_int_equal(f[24], 8);   // bit depth
    free(f);
    // it decodes (stb_image) to the same pixels as an RGB PNG of the picture
    uint8_t *rgb = malloc((size_t)w * h * 3);
    assert_non_null(rgb);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            memcpy(rgb + ((size_t)y * w + x) * 3, pal + pix[y * pitch + x] * 3, 3);
    assert_int_equal(tu_write_png_rgb("build/test_encode_rgb.png", rgb, w, h), 0);
    assert_float_equal(tu_png_diff(path, "build/test_encode_rgb.png"), 0, 0);
    free(rgb);
    assert_int_equal(enc_write_png("/no/such/dir/x.png", pix, w, h, pitch, pal, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot write '/no/such/dir/x.png'"));
}

// 40 frames through 0, 1 and 3 threads: the same Y4M bytes, in order; the same PNG files.
static void test_threads_same_bytes(void **state)
{
    (void)state;
    int w = 64, h = 40;
    enum { N = 40 };
    static uint8_t frames[N][64 * 40], pals[N][768];
    for (int k = 0; k < N; k++) {
        for (int i = 0; i < w * h; i++)
            frames[k][i] = rnd8();
        for (int i = 0; i < 768; i++)
            pals[k][i] = rnd8();
    }
    static uint8_t *streams[3];
    size_t sizes[3];
    const int threads[3] = {0, 1, 3};
    for (int t = 0; t < 3; t++) {
        char path[64], dir[64], err[256];
        snprintf(path, sizeof path, "build/test_encode_%d.y4m", threads[t]);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        enc_t *e = enc_create(ENC_Y4M, w, h, threads[t], f, NULL, err, sizeof err);
        assert_non_null(e);
        for (int k = 0; k < N; k++)
            assert_int_equal(enc_push(e, k, frames[k], w, pals[k]), 0);
        assert_int_equal(enc_finish(e), 0);
        enc_destroy(e);
        fclose(f);
        streams[t] = tu_read(path, &sizes[t]);
        assert_non_null(streams[t]);
        assert_int_equal(sizes[t], N * (6 + mov_y4m_work_size(w, h)));
        // PNG files too
        snprintf(dir, sizeof dir, "build/test_encode_png%d", threads[t]);
        char cmd[256];
        snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
        int st;
        free(tu_run(cmd, &st));
        e = enc_create(ENC_PNG, w, h, threads[t], NULL, dir, err, sizeof err);
        assert_non_null(e);
        for (int k = 0; k < N; k++)
            assert_int_equal(enc_push(e, k, frames[k], w, pals[k]), 0);
        assert_int_equal(enc_finish(e), 0);
        enc_destroy(e);
    }
    for (int t = 1; t < 3; t++) {
        assert_int_equal(sizes[t], sizes[0]);
        assert_memory_equal(streams[t], streams[0], sizes[0]);
    }
    // the frames are in order: frame 7's luma is where the 8th FRAME header puts it
    size_t fs = 6 + mov_y4m_work_size(w, h);
    uint8_t *yuv = malloc(mov_y4m_work_size(w, h));
    enc_pal_to_yuv420(frames[7], w, h, w, pals[7], yuv);
    assert_memory_equal(streams[2] + 7 * fs + 6, yuv, mov_y4m_work_size(w, h));
    free(yuv);
    for (int k = 0; k < N; k += 13) {
        char a[96], b[96];
        snprintf(a, sizeof a, "build/test_encode_png0/frame_%06d.png", k);
        snprintf(b, sizeof b, "build/test_encode_png3/frame_%06d.png", k);
        size_t na, nb;
        uint8_t *fa = tu_read(a, &na), *fb = tu_read(b, &nb);
        assert_true(fa && fb && na == nb);
        assert_memory_equal(fa, fb, na);
        free(fa), free(fb);
    }
    for (int t = 0; t < 3; t++)
        free(streams[t]);
}

// A write that fails (a folder that does not exist) is reported by push or finish, never lost.
static void test_failure_reported(void **state)
{
    (void)state;
    uint8_t pix[16 * 16] = {0}, pal[768] = {0};
    char err[256];
    enc_t *e = enc_create(ENC_PNG, 16, 16, 2, NULL, "/no/such/dir", err, sizeof err);
    assert_non_null(e);
    int rc = 0;
    for (int k = 0; k < 8 && rc == 0; k++)
        rc = enc_push(e, k, pix, 16, pal);
    if (rc == 0)
        rc = enc_finish(e);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(enc_error(e), "cannot write '/no/such/dir/frame_"));
    enc_destroy(e);
}

// export --threads 0 (all on one thread) and --threads 3 (three render threads, each drawing
// every third frame with its own player, and three encoders) give the same PNG bytes, frame
// for frame, in every game (and a chase camera, whose smoothing is play's alone).
static void export_same(const char *label, const char *args)
{
    char cmd[4096];
    int st;
    for (int t = 0; t < 2; t++) {
        snprintf(cmd, sizeof cmd, "rm -rf build/test_encode_thr%d && %s export %s --threads %d --nosound -q -o build/test_encode_thr%d",
                 t, tu_bin(), args, t ? 3 : 0, t);
        free(tu_run(cmd, &st));
        assert_int_equal(st, 0);
    }
    snprintf(cmd, sizeof cmd, "cd build && n=$(ls test_encode_thr0 | wc -l) && diff -r test_encode_thr0 test_encode_thr1 >/dev/null && echo $n");
    char *out = tu_run(cmd, &st);
    int n = out ? atoi(out) : 0;
    free(out);
    if (st != 0 || n < 20)
        fail_msg("%s: --threads 0 and 3 differ (or too few frames: %d)", label, n);
    print_message("%s: %d frames, the same bytes on 1 and 3 render threads\n", label, n);
}

static void test_export_threads(void **state)
{
    (void)state;
    export_same("built-in", "build/builtin/id1/demos/builtin.dem --basedir build/builtin --from 20 --to 21 --fps 30 --size 160x100");
    if (!tu_data_dir()) {
        if (tu_ci())
            fail_msg("CI=true but the test data folder is missing");
        tu_skip_banner("test_export_threads (real demos)");
        return;
    }
    char args[2048];
    snprintf(args, sizeof args, "%s --basedir %s --game qfm --from 20 --to 21 --fps 30 --size 160x100 --camera chase",
             tu_data("quake/demos/qfm_e1m3.dem"), tu_data("quake"));
    export_same("qfm_e1m3 chase", args);
    snprintf(args, sizeof args, "%s --basedir %s --from 700 --to 701 --fps 30 --size 160x120",
             tu_data("quake2/demos/opentdm_koldduel1.dm2"), tu_data("quake2"));
    export_same("koldduel1", args);
    snprintf(args, sizeof args, "%s --basedir %s --from 1 --to 2 --fps 30 --size 160x100",
             tu_data("goldsrc/demos/cstrike_crossfire.dem"), tu_data("goldsrc"));
    export_same("crossfire", args);
    snprintf(args, sizeof args, "tests/data/forsaken_sample.dmo --basedir %s --from 1 --to 2 --fps 30 --size 160x100",
             tu_data("forsaken"));
    export_same("forsaken sample", args);
}

// timedemo --threads 3 draws every server frame once between its threads: the same count
// as one thread (and as info's frames).
static void test_timedemo_threads(void **state)
{
    (void)state;
    char cmd[1024];
    int st;
    long long frames[2];
    for (int t = 0; t < 2; t++) {
        snprintf(cmd, sizeof cmd, "%s timedemo --json --threads %d --size 160x100 --basedir build/builtin "
                 "build/builtin/id1/demos/builtin.dem", tu_bin(), t ? 3 : 1);
        char *out = tu_run(cmd, &st);
        assert_int_equal(st, 0);
        assert_int_equal(tu_json_int(out, "frames", &frames[t]), 0);
        long long th;
        assert_int_equal(tu_json_int(out, "threads", &th), 0);
        assert_int_equal(th, t ? 3 : 1);
        free(out);
    }
    assert_true(frames[0] > 100);
    assert_int_equal(frames[1], frames[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_yuv_matches_rgb_path),
        cmocka_unit_test(test_png_indexed),
        cmocka_unit_test(test_threads_same_bytes),
        cmocka_unit_test(test_failure_reported),
        cmocka_unit_test(test_export_threads),
        cmocka_unit_test(test_timedemo_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
