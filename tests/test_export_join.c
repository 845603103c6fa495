// test_export_join.c -- `export --from a --to b` and `--from b --to c` joined give `--from a --to c`
//
// Each case exports the whole span and its two parts with the demoplay binary,
// then compares every frame (PNG pixels) and every PCM sample of the WAVs. The
// split points lie on the frame grid of the whole export (b - a is a whole number
// of frame periods), as they must for the frames to be the same ones.
//
// Tolerance: frames exactly; samples within 1 (of 32768), in at most 1 sample in
// 10 000: OpenAL Soft mixes its voices in float, summed in the order of its
// internal voice slots, and which slot a sound gets depends on which were free
// when it started -- sounds that ended before the part's pre-roll still shape the
// slot order in the whole export. A sum in another order can round to the
// neighbouring 16-bit value. (The cases below are exact today but builtin_b: 4
// samples; the bugs this guards against made hundreds of thousands differ, by up
// to 16 836.)
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WORK "build/test_export_join"

typedef struct {
    long long frames;       // sample frames (stereo pairs)
    const int16_t *pcm;
    uint8_t *data;
} wav_t;

static void read_wav(const char *dir, wav_t *w)
{
    char path[512];
    snprintf(path, sizeof path, "%s/audio.wav", dir);
    size_t size = 0;
    w->data = tu_read(path, &size);
    assert_non_null(w->data);
    assert_true(size >= 44);
    assert_int_equal(w->data[22], 2);                               // stereo
    assert_int_equal(w->data[24] | w->data[25] << 8 | w->data[26] << 16, 48000);
    assert_int_equal(w->data[34], 16);
    w->pcm = (const int16_t *)(w->data + 44);
    w->frames = (long long)(size - 44) / 4;
}

static int count_frames(const char *dir)
{
    int n = 0;
    char path[512];
    struct stat st;
    for (;; n++) {
        snprintf(path, sizeof path, "%s/frame_%06d.png", dir, n);
        if (stat(path, &st) != 0)
            return n;
    }
}

static void export_span(const char *args, const char *demo, double from, double to, const char *out)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "rm -rf %s && %s export -q %s --fps 10 --size 96x72 --from %g --to %g -o %s '%s'",
             out, tu_bin(), args, from, to, out, demo);
    int status = 0;
    free(tu_run(cmd, &status));
    assert_int_equal(status, 0);
}

// Export [a,c), [a,b), [b,c) under WORK/name and compare.
static void check_join(const char *name, const char *args, const char *demo, double a, double b, double c)
{
    char whole[256], p1[256], p2[256];
    snprintf(whole, sizeof whole, WORK "/%s_whole", name);
    snprintf(p1, sizeof p1, WORK "/%s_1", name);
    snprintf(p2, sizeof p2, WORK "/%s_2", name);
    assert_int_equal(system("mkdir -p " WORK), 0);
    export_span(args, demo, a, c, whole);
    export_span(args, demo, a, b, p1);
    export_span(args, demo, b, c, p2);

    // frames: the parts' frames are the whole's, pixel for pixel
    int nw = count_frames(whole), n1 = count_frames(p1), n2 = count_frames(p2);
    assert_int_equal(nw, (int)llround((c - a) * 10));
    assert_int_equal(n1 + n2, nw);
    int frames_differ = 0;
    for (int k = 0; k < nw; k++) {
        char fw[512], fp[512];
        snprintf(fw, sizeof fw, "%s/frame_%06d.png", whole, k);
        if (k < n1)
            snprintf(fp, sizeof fp, "%s/frame_%06d.png", p1, k);
        else
            snprintf(fp, sizeof fp, "%s/frame_%06d.png", p2, k - n1);
        frames_differ += tu_png_diff(fw, fp) != 0.0;
    }

    // samples: part 1 then part 2 are the whole's
    wav_t w, x, y;
    read_wav(whole, &w);
    read_wav(p1, &x);
    read_wav(p2, &y);
    assert_int_equal(w.frames, llround(c * 48000) - llround(a * 48000));
    assert_int_equal(x.frames, llround(b * 48000) - llround(a * 48000));
    assert_int_equal(x.frames + y.frames, w.frames);
    long long differ = 0;
    int max_diff = 0;
    for (long long i = 0; i < 2 * w.frames; i++) {
        int v = i < 2 * x.frames ? x.pcm[i] : y.pcm[i - 2 * x.frames];
        int d = abs(v - w.pcm[i]);
        differ += d != 0;
        max_diff = d > max_diff ? d : max_diff;
    }
    // the second part has sound, so the comparison means something
    long long loud2 = 0;
    for (long long i = 2 * x.frames; i < 2 * w.frames; i++)
        loud2 += abs(w.pcm[i]) > 1000;
    printf("  %s [%g,%g)+[%g,%g) vs [%g,%g): %d of %d frames differ; %lld of %lld samples differ, max %d; "
           "%lld loud samples after the split\n",
           name, a, b, b, c, a, c, frames_differ, nw, differ, 2 * w.frames, max_diff, loud2);
    assert_int_equal(frames_differ, 0);
    assert_true(loud2 > 1000);
    assert_true(max_diff <= 1);
    assert_true(differ * 10000 <= 2 * w.frames);
    free(w.data);
    free(x.data);
    free(y.data);
}

static void test_join_quake(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char args[1024];
    snprintf(args, sizeof args, "--basedir '%s' --game qfm", tu_data("quake"));
    // static sounds and the sky ambient playing across the split (issue 17's case: was 3910)
    check_join("e1m4", args, tu_data("quake/demos/qfm_e1m4.dem"), 10, 12, 14);
    check_join("e1m3", args, tu_data("quake/demos/qfm_e1m3.dem"), 20, 27.3, 33);
}

static void test_join_quake2(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char args[1024];
    snprintf(args, sizeof args, "--basedir '%s'", tu_data("quake2"));
    // an infantry attack sound begun 3.2 s before the split still plays across it
    check_join("q2demo1", args, tu_data("quake2/demos/q2demo1_p31.dm2"), 20, 25, 30);
}

static void test_join_goldsrc(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    // the demo's folder (cstrike) is absent: valve for the level, a mod with tones
    // for the sounds crossfire plays (its usp shots and knife sounds)
    static const char *const names[] = { "weapons/usp1.wav", "weapons/usp2.wav", "weapons/usp_unsil-1.wav",
                                         "weapons/knife_deploy1.wav", "weapons/knife_slash1.wav" };
    assert_int_equal(system("rm -rf " WORK "/hl && mkdir -p " WORK "/hl"), 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, WORK "/hl/fxmod/sound/%s", names[i]);
        tu_write_tone(path, 0.5, 300 + 100 * (double)i);
    }
    char cmd[8192], valve[4096];
    assert_non_null(realpath(tu_data("goldsrc/valve"), valve));
    snprintf(cmd, sizeof cmd, "ln -sfn '%s' " WORK "/hl/valve", valve);
    assert_int_equal(system(cmd), 0);
    check_join("crossfire", "--basedir " WORK "/hl --game fxmod", tu_data("goldsrc/demos/cstrike_crossfire.dem"), 1,
               3.5, 6);
}

static void test_join_forsaken(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    // shared/ has no Forsaken sounds: a mod with tones for those the game's rules give the sample's
    // shots, mines and blasts (the renderer decides them: export's sound player has one of its own)
    static const char *const names[] = { "pulsfire.wav", "trojfire.wav", "pyroloop.wav", "tpfire2.wav", "sussgnf3.wav",
                                         "laser2c.wav", "minelay.wav", "mslaun2.wav", "mfrln.wav", "titanln.wav",
                                         "exp1.wav", "exp4.wav", "exp5.wav", "exp6.wav", "quantexp.wav", "bikexpl.wav" };
    assert_int_equal(system("rm -rf " WORK "/fs && mkdir -p " WORK "/fs"), 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, WORK "/fs/snd/sound/%s", names[i]);
        tu_write_tone(path, 0.3, 300 + 50 * (double)i);
    }
    char cmd[8192], data[4096];
    assert_non_null(realpath(tu_data("forsaken/Data"), data));
    snprintf(cmd, sizeof cmd, "ln -sfn '%s' " WORK "/fs/Data", data);
    assert_int_equal(system(cmd), 0);
    // sounds begun at 0.9 s play across the split, more begin at 1.6 s
    check_join("forsaken", "--basedir " WORK "/fs --game snd", "tests/data/forsaken_sample.dmo", 0.5, 1.0, 2.5);
}

static void test_join_builtin(void **state)
{
    (void)state;
    const char *demo = "build/builtin/id1/demos/builtin.dem";
    struct stat st;
    if (stat(demo, &st) != 0) {
        printf("[ SKIPPED  ] %s: %s is missing (make builtin)\n", __func__, demo);
        skip();
    }
    // the machine hum, water and wind loops of the built-in level across the splits
    check_join("builtin_a", "--basedir build/builtin", demo, 5, 12.3, 18);
    check_join("builtin_b", "--basedir build/builtin", demo, 20, 23, 26);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join_quake),
        cmocka_unit_test(test_join_quake2),
        cmocka_unit_test(test_join_goldsrc),
        cmocka_unit_test(test_join_forsaken),
        cmocka_unit_test(test_join_builtin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
