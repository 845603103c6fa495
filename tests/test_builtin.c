// test_builtin.c -- the built-in content (build/builtin, made by mkbuiltin): no game data needed
//
// The generated level, models, sounds and demo go through the same code paths as
// real game data: info, dump -> compile, shot (golden images), timedemo, export.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

#include <stb_image.h>

#define BASE "build/builtin"
#define DEMO BASE "/id1/demos/builtin.dem"
#define ARGS "--basedir " BASE " " DEMO

static void require_builtin(void)
{
    struct stat sb;
    if (stat(DEMO, &sb) != 0)
        fail_msg("%s is missing: `make builtin` makes it (make test does)", DEMO);
}

static char *run_ok(const char *cmd)
{
    int st = 0;
    char *out = tu_run(cmd, &st);
    if (st != 0) {
        char msg[2048];
        snprintf(msg, sizeof msg, "%s", out ? out : "");
        free(out);
        fail_msg("%s: exit %d: %s", cmd, st, msg);
    }
    return out;
}

static void test_info(void **state)
{
    (void)state;
    require_builtin();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s info --json " ARGS, tu_bin());
    char *out = run_ok(cmd);
    char s[256];
    long long v;
    double x;
    assert_int_equal(tu_json_str(out, "format", s, sizeof s), 0);
    assert_string_equal(s, "quake");
    assert_int_equal(tu_json_int(out, "protocol", &v), 0);
    assert_int_equal(v, 15);
    assert_int_equal(tu_json_str(out, "map", s, sizeof s), 0);
    assert_string_equal(s, "maps/builtin.bsp");
    assert_int_equal(tu_json_str(out, "level_name", s, sizeof s), 0);
    assert_string_equal(s, "The demoplay built-in level");
    assert_int_equal(tu_json_int(out, "frames", &v), 0);
    assert_int_equal(v, 641);   // 32 s at 20 Hz, both ends
    assert_int_equal(tu_json_num(out, "start_time", &x), 0);
    assert_float_equal(x, 1.0, 1e-6);
    assert_int_equal(tu_json_num(out, "end_time", &x), 0);
    assert_float_equal(x, 33.0, 1e-4);
    assert_int_equal(tu_json_int(out, "models", &v), 0);
    assert_int_equal(v, 8);
    assert_int_equal(tu_json_int(out, "sounds", &v), 0);
    assert_int_equal(v, 8);
    assert_non_null(strstr(out, "\"visitor\""));
    assert_non_null(strstr(out, "\"errors\":[]"));
    free(out);
}

// dump -> compile gives back the identical bytes, as for every real Quake demo.
static void test_dump_compile_roundtrip(void **state)
{
    (void)state;
    require_builtin();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s dump " DEMO " > build/test_builtin.txt && %s compile build/test_builtin.txt -o build/test_builtin.dem",
             tu_bin(), tu_bin());
    free(run_ok(cmd));
    size_t n1, n2;
    uint8_t *a = tu_read(DEMO, &n1), *b = tu_read("build/test_builtin.dem", &n2);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
}

// Golden shots of the built-in demo (DEMOPLAY_UPDATE_GOLDEN=1 rewrites them after
// a deliberate change). The shot must also load everything without a warning.
static void golden(const char *name, double at)
{
    char out[256], gold[256], cmd[1024];
    snprintf(out, sizeof out, "build/test_builtin_%s.png", name);
    snprintf(gold, sizeof gold, "tests/golden/builtin_%s.png", name);
    snprintf(cmd, sizeof cmd, "%s shot -q " ARGS " --at %.3f --size 320x200 -o %s 2>&1", tu_bin(), at, out);
    char *text = run_ok(cmd);
    if (text && text[0])
        fail_msg("shot printed: %s", text);
    free(text);
    char label[64];
    snprintf(label, sizeof label, "builtin_%s", name);
    tu_golden(label, out, gold, 0.01);
}

static void test_golden_shots(void **state)
{
    (void)state;
    require_builtin();
    golden("room_a", 3.0);       // room A, the gems
    golden("door", 11.0);        // the door two thirds open
    golden("pool", 17.2);        // room B's pool, the teleport splash
    golden("explosion", 27.6);   // the courtyard, the explosion under the sky
}

// A shot is not all one colour: the level, its light and the HUD are there.
static void test_shot_has_content(void **state)
{
    (void)state;
    require_builtin();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s shot " ARGS " --at 14.5 --size 320x200 -o build/test_builtin_content.png", tu_bin());
    free(run_ok(cmd));
    // an indexed PNG (export's encoder: IHDR bit depth 8, colour type 3); the headless build
    // has no libpng and writes RGB (colour type 2)
    size_t size = 0;
    uint8_t *file = tu_read("build/test_builtin_content.png", &size);
    assert_non_null(file);
    assert_true(size > 26);
    assert_int_equal(file[24], 8);
#ifdef DEMOPLAY_HEADLESS
    assert_int_equal(file[25], 2);
#else
    assert_int_equal(file[25], 3);
#endif
    free(file);
    int w, h, c;
    uint8_t *p = stbi_load("build/test_builtin_content.png", &w, &h, &c, 3);
    assert_non_null(p);
    assert_int_equal(w, 320);
    assert_int_equal(h, 200);
    int seen[4096] = {0}, colours = 0;
    long dark = 0;
    for (int i = 0; i < w * h; i++) {
        int key = (p[i * 3] >> 4) << 8 | (p[i * 3 + 1] >> 4) << 4 | p[i * 3 + 2] >> 4;
        colours += !seen[key]++;
        dark += p[i * 3] + p[i * 3 + 1] + p[i * 3 + 2] < 24;
    }
    stbi_image_free(p);
    assert_true(colours > 40);            // textures and light, not flat fill
    assert_true(dark < (long)w * h / 2);  // lit, not black
}

static void test_timedemo_counts_frames(void **state)
{
    (void)state;
    require_builtin();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s timedemo --json --size 160x100 " ARGS, tu_bin());
    char *out = run_ok(cmd);
    long long frames;
    assert_int_equal(tu_json_int(out, "frames", &frames), 0);
    assert_int_equal(frames, 641);
    free(out);
}

// Export: the right number of frames, exactly the span of sound, not silent, and
// the same bytes twice.
static void export_once(const char *dir, const char *extra)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf %s && %s export -q --fps 10 --from 26 --to 28 --size 160x100 %s -o %s " ARGS,
             dir, tu_bin(), extra, dir);
    free(run_ok(cmd));
}

static void test_export(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    require_builtin();
    export_once("build/test_builtin_export_a", "");
    export_once("build/test_builtin_export_b", "");
    int n = 0;
    for (;; n++) {
        char p1[256], p2[256];
        snprintf(p1, sizeof p1, "build/test_builtin_export_a/frame_%06d.png", n);
        snprintf(p2, sizeof p2, "build/test_builtin_export_b/frame_%06d.png", n);
        size_t s1, s2;
        uint8_t *a = tu_read(p1, &s1), *b = tu_read(p2, &s2);
        if (!a) {
            free(b);
            break;
        }
        assert_non_null(b);
        assert_true(s1 == s2 && memcmp(a, b, s1) == 0);
        free(a);
        free(b);
    }
    assert_int_equal(n, 20);
    size_t s1, s2;
    uint8_t *w1 = tu_read("build/test_builtin_export_a/audio.wav", &s1);
    uint8_t *w2 = tu_read("build/test_builtin_export_b/audio.wav", &s2);
    assert_non_null(w1);
    assert_non_null(w2);
    assert_int_equal(s1, 44 + 2 * 48000 * 4);
    assert_true(s1 == s2 && memcmp(w1, w2, s1) == 0);
    // the gun at 26.0 and the explosion at 26.4 are loud
    int peak = 0;
    for (size_t i = 44; i + 1 < s1; i += 2) {
        int v = (int16_t)(w1[i] | w1[i + 1] << 8);
        if (abs(v) > peak)
            peak = abs(v);
    }
    assert_true(peak > 2000);
    free(w1);
    free(w2);
}

// The default volume is Quake's `volume` cvar default, 0.7, applied as Quake's
// mixer does: every sample of the default export is the --volume 1 mix times
// snd_vol = (int)(0.7 * 256) = 179, >> 8 (floor), where the full mix does not clip.
static void test_export_default_volume(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    require_builtin();
    export_once("build/test_builtin_export_vdef", "");
    export_once("build/test_builtin_export_v1", "--volume 1");
    size_t sd, s1;
    uint8_t *wd = tu_read("build/test_builtin_export_vdef/audio.wav", &sd);
    uint8_t *w1 = tu_read("build/test_builtin_export_v1/audio.wav", &s1);
    assert_non_null(wd);
    assert_non_null(w1);
    assert_int_equal(sd, 44 + 2 * 48000 * 4);
    assert_int_equal(s1, sd);
    int peak_d = 0, peak_1 = 0, loud = 0, bad = 0;
    for (size_t i = 44; i + 1 < sd; i += 2) {
        int d = (int16_t)(wd[i] | wd[i + 1] << 8), f = (int16_t)(w1[i] | w1[i + 1] << 8);
        peak_d = abs(d) > peak_d ? abs(d) : peak_d;
        peak_1 = abs(f) > peak_1 ? abs(f) : peak_1;
        if (f == 32767 || f == -32768)
            continue;
        int want = f >= 0 ? f * 179 / 256 : -((-f * 179 + 255) / 256);
        bad += d != want;
        loud += abs(f) > 2000;
    }
    assert_int_equal(bad, 0);
    assert_true(loud > 1000);   // the gun and the explosion, not a silent track
    assert_true(peak_1 > 2000);
    assert_true(peak_d < peak_1);
    free(wd);
    free(w1);
}

// `make run` with no display: exports 8 s of the built-in demo and says where.
static void test_make_run_headless(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    require_builtin();
    char *out = run_ok("env -u DISPLAY -u WAYLAND_DISPLAY sh tools/run.sh 2>&1");
    assert_non_null(strstr(out, "run: wrote 200 frames"));
    assert_non_null(strstr(out, "out/builtin/audio.wav"));
    assert_non_null(strstr(out, "watch a real demo"));
    free(out);
    struct stat sb;
    assert_int_equal(stat("out/builtin/frame_000199.png", &sb), 0);
    assert_int_not_equal(stat("out/builtin/frame_000200.png", &sb), 0);
    assert_int_equal(stat("out/builtin/audio.wav", &sb), 0);
    assert_int_equal(sb.st_size, 44 + 8 * 48000 * 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_dump_compile_roundtrip),
        cmocka_unit_test(test_golden_shots),
        cmocka_unit_test(test_shot_has_content),
        cmocka_unit_test(test_timedemo_counts_frames),
        cmocka_unit_test(test_export),
        cmocka_unit_test(test_export_default_volume),
        cmocka_unit_test(test_make_run_headless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
