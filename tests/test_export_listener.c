// test_export_listener.c -- export's listener glides between server frames, as the picture does
//
// The built-in demo (build/builtin: a Quake demo at 20 server frames a second) with a mod folder
// whose machine hum (misc/hum.wav, the static sound in room B) is a steady looping 441 Hz tone and
// whose other sounds are silent. Its WAV is cut into the sound system's 1024-sample render pieces
// (on the timeline's grid: sample llround(time * 48000)), and each piece's left/right balance
// (R - L) / (R + L) of the channels' energies is compared with the balance a camera held still at
// the listener's pose at the piece's middle gives (a still camera's balance is the same in every
// piece: the expected pan, measured, not modelled -- OpenAL Soft's stereo panning is its own).
//
// Main's export before put the listener at each server frame's pose until the next one: at 20
// frames a second 2400 samples, so a piece lying inside one server frame had the balance of the
// piece before it (the step), and the pan lagged the picture by up to a frame (0.13 off at the
// centre of the sweep below; tolerance here 0.02). Run against main's binary (DEMOPLAY_BIN), both
// tests fail: 6 of 36 and 6 of 27 pieces not above the one before, 0.162 and 0.198 off.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEMO "build/builtin/id1/demos/builtin.dem"
#define RATE 48000
#define PIECE 1024

static char work[512];

// A 22050 Hz mono WAV of `frames` samples of a 441 Hz tone at `amp` (0: silence); `loop`: a cue
// point at 0, so Quake's rules loop it (a static sound plays only a looping sound).
static void write_wav(const char *rel, int frames, int amp, int loop)
{
    size_t n = 44 + (size_t)frames * 2 + (loop ? 36 : 0);
    uint8_t *b = calloc(1, n);
    assert_non_null(b);
    memcpy(b, "RIFF", 4);
    tu_put_le(b + 4, (uint32_t)(n - 8), 4);
    memcpy(b + 8, "WAVEfmt ", 8);
    tu_put_le(b + 16, 16, 4);
    tu_put_le(b + 20, 1, 2);
    tu_put_le(b + 22, 1, 2);
    tu_put_le(b + 24, 22050, 4);
    tu_put_le(b + 28, 22050 * 2, 4);
    tu_put_le(b + 32, 2, 2);
    tu_put_le(b + 34, 16, 2);
    memcpy(b + 36, "data", 4);
    tu_put_le(b + 40, (uint32_t)frames * 2, 4);
    for (int i = 0; i < frames; i++)   // 441 Hz: 441 whole cycles a second, the loop joins
        tu_put_le(b + 44 + 2 * i, (uint32_t)(int16_t)lrint(amp * sin(2 * M_PI * 441.0 * i / 22050.0)), 2);
    if (loop) {
        uint8_t *c = b + 44 + (size_t)frames * 2;
        memcpy(c, "cue ", 4);
        tu_put_le(c + 4, 28, 4);
        tu_put_le(c + 8, 1, 4);        // one cue point
        memcpy(c + 20, "data", 4);  // its dwSampleOffset (c + 32) stays 0: the loop starts at the start
    }
    char path[1024], cmd[1200];
    snprintf(path, sizeof path, "%s/mod/tones/sound/%s", work, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(tu_write(path, b, n), 0);
    free(b);
}

// The mod folder (once): the hum a steady tone, every other sound of the demo silent, the built-in
// game under it as id1.
static int setup(void)
{
    struct stat st;
    if (stat(DEMO, &st) != 0)
        return -1;
    if (work[0])
        return 0;
    snprintf(work, sizeof work, "%s/export_listener", tu_tmpdir(NULL));
    char cmd[4096], id1[1024];
    assert_non_null(realpath("build/builtin/id1", id1));
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/mod' && ln -s '%s' '%s/mod/id1'", work, work, id1, work);
    assert_int_equal(system(cmd), 0);
    write_wav("misc/hum.wav", 22050, 12000, 1);
    static const char *const quiet[] = { "doors/stndr1.wav", "doors/drclos4.wav", "weapons/r_exp3.wav",
                                         "items/itembk2.wav", "misc/talk.wav", "player/land.wav",
                                         "weapons/guncock.wav" };
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++)
        write_wav(quiet[i], 2205, 0, 0);
    write_wav("ambience/water1.wav", 2205, 0, 1);   // the leaf's ambients: centred, they would blur the pan
    write_wav("ambience/wind2.wav", 2205, 0, 1);
    return 0;
}

typedef struct {
    uint8_t *data;
    const int16_t *pcm;
    long frames;
    long long base;   // the timeline sample the track starts at
} track_t;

// export [from, to) with `camera` ("" none: the eyes) into WORK/name; its sound track
static void export_track(const char *name, const char *camera, double from, double to, track_t *t)
{
    char cmd[4096], out[1024], wav[1100];
    snprintf(out, sizeof out, "%s/%s", work, name);
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && %s export -q --basedir '%s/mod' --game tones %s --fps 10 --size 32x24 --from %.3f "
             "--to %.3f -o '%s' " DEMO,
             out, tu_bin(), work, camera, from, to, out);
    int status = 0;
    free(tu_run(cmd, &status));
    assert_int_equal(status, 0);
    snprintf(wav, sizeof wav, "%s/audio.wav", out);
    size_t size = 0;
    t->data = tu_read(wav, &size);
    assert_non_null(t->data);
    assert_true(size > 44);
    t->pcm = (const int16_t *)(t->data + 44);
    t->frames = (long)((size - 44) / 4);
    t->base = llround(from * RATE);
    assert_int_equal(t->frames, llround(to * RATE) - t->base);
}

// The balance of the samples [i0, i1) of the track; the energy of both channels in `energy`.
static double balance(const track_t *t, long i0, long i1, double *energy)
{
    double l = 0, r = 0;
    for (long i = i0; i < i1; i++) {
        l += (double)t->pcm[2 * i] * t->pcm[2 * i];
        r += (double)t->pcm[2 * i + 1] * t->pcm[2 * i + 1];
    }
    if (energy)
        *energy = l + r;
    return l + r > 0 ? (r - l) / (l + r) : 0;
}

// The balance a camera held still at a pose gives (the middle of a short export).
static double still_balance(const char *name, double t, const float org[3], float pitch, float yaw)
{
    char path[1100], cam[1200];
    snprintf(path, sizeof path, "%s/%s.txt", work, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.3f %.3f %.3f %.3f %.4f %.4f 0\n", t, org[0], org[1], org[2], pitch, yaw);
    fclose(f);
    snprintf(cam, sizeof cam, "--camera 'path:%s'", path);
    track_t s;
    export_track(name, cam, t, t + 0.1, &s);
    double e, b = balance(&s, 1024, 3072, &e);
    double b2 = balance(&s, 3072, 4096, NULL);
    assert_true(e > 1e8);              // the hum is heard
    assert_true(fabs(b - b2) < 1e-3);  // and held still it pans the same throughout
    free(s.data);
    return b;
}

// The first whole piece of the track's timeline grid, and how many there are.
static long first_piece(const track_t *t, long *count)
{
    long long g = (t->base + PIECE - 1) / PIECE * PIECE;
    long off = (long)(g - t->base);
    *count = (t->frames - off) / PIECE;
    return off;
}

// A path camera 128 units west of the hum, at its height, turning its yaw at 100 degrees a
// second through -40 .. 40 (the hum from hard left to hard right: 5 degrees a server frame, 2.1 a
// piece). Keys every 0.2 s on a straight line of yaw: Catmull-Rom keeps it straight, so the yaw at
// demo time t is 100 (t - 13.4). Each piece's balance is the still camera's at the yaw of its
// middle (a table every 5 degrees, blended), within 0.02, and differs from the piece before by more
// than 0.005 (it rises all the way): 0.0039 off at worst. Main's before: 6 of 36 pieces no higher
// than their predecessor (the same balance), the worst 0.162 off (at yaw 5.1).
static void test_export_listener_turns(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    if (setup() < 0) {
        printf("[ SKIPPED  ] %s: %s is missing (make builtin)\n", __func__, DEMO);
        skip();
    }
    const float org[3] = { 1056, 736, 64 };   // the hum: (1184, 736, 64)
    double table[17];
    for (int i = 0; i < 17; i++) {
        char name[64];
        snprintf(name, sizeof name, "still_%d", i);
        table[i] = still_balance(name, 13.0, org, 0, (float)(-40 + 5 * i));
    }
    printf("a still camera: yaw -40: %.4f, -20: %.4f, -5: %.4f, 0: %.4f, 5: %.4f, 20: %.4f, 40: %.4f\n", table[0],
           table[4], table[7], table[8], table[9], table[12], table[16]);
    assert_true(table[0] < -0.95 && table[16] > 0.95 && fabs(table[8]) < 0.01);

    char path[1100], cam[1200];
    snprintf(path, sizeof path, "%s/sweep.txt", work);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int k = 0; k <= 10; k++) {
        double t = 12.4 + 0.2 * k;
        fprintf(f, "%.1f %.0f %.0f %.0f 0 %.1f 0\n", t, org[0], org[1], org[2], 100.0 * (t - 13.4));
    }
    fclose(f);
    snprintf(cam, sizeof cam, "--camera 'path:%s'", path);
    track_t tr;
    export_track("sweep", cam, 13.0, 13.8, &tr);
    long n, off = first_piece(&tr, &n);
    assert_true(n >= 36);
    int same = 0;
    double worst = 0, prev = 0, worst_yaw = 0;
    for (long c = 0; c < n; c++) {
        long i0 = off + c * PIECE;
        double b = balance(&tr, i0, i0 + PIECE, NULL);
        double yaw = 100.0 * ((double)(tr.base + i0 + PIECE / 2) / RATE - 13.4);
        double x = (yaw + 40) / 5;
        int j = (int)floor(x);
        j = j < 0 ? 0 : j > 15 ? 15 : j;
        double want = table[j] + (table[j + 1] - table[j]) * (x - j);
        if (fabs(b - want) > worst)
            worst = fabs(b - want), worst_yaw = yaw;
        if (c > 0 && !(b - prev > 0.005))
            same++;
        prev = b;
    }
    printf("a turning camera: %ld pieces, %d not above the one before, the worst %.4f off the still camera's "
           "(at yaw %.1f)\n", n, same, worst, worst_yaw);
    assert_int_equal(same, 0);
    assert_true(worst < 0.02);
    free(tr.data);
}

// The built-in demo's script (assets/builtin/gen_demo.c camera()) from its 17.5 s to 19.0 s (demo
// time 18.5 .. 20: the server clock starts at 1): the player from (1120, 744, 24) to (1120, 544, 24),
// pitch 20 -> 5, yaw -120 -> -160, eased in and out (smoothstep).
static void script(double demo_t, float org[3], float ang[2])
{
    double f = (demo_t - 18.5) / 1.5;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    f = f * f * (3 - 2 * f);
    org[0] = 1120;
    org[1] = (float)(744 - 200 * f);
    org[2] = 24;
    ang[0] = (float)(20 - 15 * f);
    ang[1] = (float)(-120 - 40 * f);
}

// The eyes (no --camera): the built-in demo's own view walks south past the hum (script above),
// each server frame (20 a second) at the script's pose: between two frames the eye is their blend,
// 22 above the player (Quake's view height). From 18.8 to 19.4 s the hum swings from the left ear
// to the right. Every piece's balance rises above its predecessor's, and at eight pieces it is a
// still camera's at the eye's pose of the piece's middle, within 0.02: 0.0018 off at worst. Main's
// before: 6 of 27 pieces with their predecessor's balance, and up to 0.198 off (at 19.104 s: -0.246
// where the still camera hears -0.048).
static void test_export_listener_eyes(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    if (setup() < 0) {
        printf("[ SKIPPED  ] %s: %s is missing (make builtin)\n", __func__, DEMO);
        skip();
    }
    track_t tr;
    export_track("eyes", "", 18.8, 19.4, &tr);
    long n, off = first_piece(&tr, &n);
    assert_true(n >= 26);
    int same = 0, checked = 0;
    double prev = 0, worst = 0;
    for (long c = 0; c < n; c++) {
        long i0 = off + c * PIECE;
        double b = balance(&tr, i0, i0 + PIECE, NULL);
        if (c > 0 && !(b - prev > 0.002))
            same++;
        prev = b;
        if (c % 3 != 1 || checked >= 8)
            continue;
        double t = (double)(tr.base + i0 + PIECE / 2) / RATE;
        double f0 = 1.0 + floor((t - 1.0) * 20) / 20, f1 = f0 + 0.05, x = (t - f0) / 0.05;   // the frames around t
        float o0[3], o1[3], a0[2], a1[2], eye[3], ang[2];
        script(f0, o0, a0);
        script(f1, o1, a1);
        for (int k = 0; k < 3; k++)
            eye[k] = (float)(o0[k] + (o1[k] - o0[k]) * x) + (k == 2 ? 22.0f : 0.0f);
        for (int k = 0; k < 2; k++)
            ang[k] = (float)(a0[k] + (a1[k] - a0[k]) * x);
        char name[64];
        snprintf(name, sizeof name, "eye_%ld", c);
        double want = still_balance(name, t, eye, ang[0], ang[1]);
        printf("  %.4f s: balance %.4f, a still camera at the eye %.4f\n", t, b, want);
        worst = fabs(b - want) > worst ? fabs(b - want) : worst;
        checked++;
    }
    printf("the eyes: %ld pieces, %d not above the one before, the worst of %d %.4f off\n", n, same, checked, worst);
    assert_int_equal(checked, 8);
    assert_int_equal(same, 0);
    assert_true(worst < 0.02);
    free(tr.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_listener_turns),
        cmocka_unit_test(test_export_listener_eyes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
