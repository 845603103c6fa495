// test_forsaken_spotsparks.c -- Forsaken's gravity sparks (spot effect type 13, render/r_fsspot.c):
// the bursts, a spark's fall and bounces off a floor from the game's numbers, the sprites and the
// bursts' lights; and a scene on therm: the pilot looks at the level's sparks (its spot effect 2);
// the pixels inside the sparks' screen box differ from a render with spot effects off and none
// outside; a seek draws what playing drew; the golden image.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/fsspot.h"
#include "render/r_fsspot.h"

#include "fs_scene.h"

static fsspot_fx_t sparks_fx(void)
{
    fsspot_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.type = FSSPOT_GRAVITY_SPARKS;
    fx.r = fx.g = fx.b = 255;
    fx.dir[1] = -1;   // therm's: pointing down
    fx.up[2] = 1;
    fx.active = 2;    // 120 ticks on, 180 off
    fx.inactive = 3;
    return fx;
}

// One tick in eight on average makes a burst of 5..9 sparks; the same ticks every time.
static void test_bursts(void **state)
{
    (void)state;
    fsspot_fx_t fx = sparks_fx();
    int bursts = 0, sparks = 0, lo = 99, hi = 0;
    for (long k = 0; k < 8000; k++) {
        int n = r_fsspot_burst(&fx, 2, k);
        assert_int_equal(n, r_fsspot_burst(&fx, 2, k));
        if (!n)
            continue;
        bursts++;
        sparks += n;
        lo = n < lo ? n : lo;
        hi = n > hi ? n : hi;
    }
    printf("8000 ticks: %d bursts, %d sparks (%d..%d a burst)\n", bursts, sparks, lo, hi);
    assert_in_range(bursts, 900, 1100);
    assert_int_equal(lo, 5);
    assert_int_equal(hi, 9);
    assert_in_range(sparks, bursts * 6.5, bursts * 7.5);
    assert_int_equal(r_fsspot_burst(&fx, 2, -1), 0);
}

// A floor at y = -100 (facing up): a spark falls, 0.125 a tick faster each tick, bounces at half
// speed, and dies when a bounce leaves it slower than 1.25 or at the end of its life.
static float floor_wall(void *ctx, const float org[3], const float dir[3], float max, float normal[3])
{
    (void)ctx;
    normal[0] = normal[2] = 0;
    normal[1] = 1;
    if (dir[1] >= 0)
        return max;
    float d = (org[1] + 100) / -dir[1];
    return d >= 0 && d < max ? d : max;
}

static void test_spark_path(void **state)
{
    (void)state;
    fsspot_fx_t fx = sparks_fx();
    long k = 0;
    while (!r_fsspot_burst(&fx, 2, k))
        k++;
    r_fsspot_spark_t s, again, free_fall;
    r_fsspot_spark(&fx, 2, k, 0, NULL, NULL, &free_fall);
    // no walls: one leg, its velocity 3..8 an axis of a unit direction jittered about (0 -1 0)
    assert_int_equal(free_fall.legs, 1);
    assert_true(free_fall.end >= 60 && free_fall.end < 240);
    float v0 = free_fall.vel[0][1];
    assert_true(v0 < 0 && v0 > -8.01f);
    float at[3];
    assert_int_equal(r_fsspot_spark_at(&free_fall, 10, at), 1);
    // 10 moves: 10 v0 - 0.125 (0 + 1 + ... + 9)
    assert_float_equal(at[1], 10 * v0 - 0.125f * 45, 1e-3);
    assert_float_equal(at[0], 10 * free_fall.vel[0][0], 1e-3);
    assert_int_equal(r_fsspot_spark_at(&free_fall, free_fall.end, at), 0);
    assert_int_equal(r_fsspot_spark_at(&free_fall, free_fall.end - 0.5f, at), 1);

    r_fsspot_spark(&fx, 2, k, 0, floor_wall, NULL, &s);
    r_fsspot_spark(&fx, 2, k, 0, floor_wall, NULL, &again);
    assert_memory_equal(&s, &again, sizeof s);
    printf("spark: v0 %.3f %.3f %.3f, %d legs, gone at %.0f ticks\n", s.vel[0][0], s.vel[0][1], s.vel[0][2], s.legs,
           s.end);
    assert_true(s.legs >= 2);
    // the first bounce: on the floor, going up at half the speed it came down with (less a tick's pull)
    float m = s.at[1];
    float vy_hit = v0 - 0.125f * (m - 1);   // its velocity on the move that met the floor
    float speed_in = sqrtf(s.vel[0][0] * s.vel[0][0] + vy_hit * vy_hit + s.vel[0][2] * s.vel[0][2]);
    assert_float_equal(s.pos[1][1], -100 + 0.01f, 1e-3);
    assert_float_equal(s.vel[1][1], -vy_hit * 0.5f - 0.125f, 1e-3);
    assert_float_equal(s.vel[1][0], s.vel[0][0] * 0.5f, 1e-4);
    float speed_out = sqrtf(s.vel[1][0] * s.vel[1][0] + (s.vel[1][1] + 0.125f) * (s.vel[1][1] + 0.125f) +
                            s.vel[1][2] * s.vel[1][2]);
    assert_float_equal(speed_out, speed_in * 0.5f, 1e-3);
    // never below the floor while it lives; it ends on a slow bounce before its life is out
    for (float a = 0; a < s.end; a += 0.5f) {
        assert_int_equal(r_fsspot_spark_at(&s, a, at), 1);
        assert_true(at[1] >= -100.01f);
    }
    assert_true(s.end < free_fall.end);
}

// The sprites at a moment: a flash for the 4 ticks after each burst, each spark of the bursts
// still alive; BITS.OFF 2 units a texel, its frame 0.1 a tick on; the bursts' lights shrink 38.4
// units and fade 25 a tick.
static void test_sprites_lights(void **state)
{
    (void)state;
    fsspot_fx_t fx = sparks_fx();
    long k = 0;
    while (!r_fsspot_burst(&fx, 0, k))
        k++;
    int frames[FSFX_SPRITE_KINDS] = { 0 };
    frames[FSFX_SPRITE_BITS] = 8;
    frames[FSFX_SPRITE_FLARE] = 1;
    r_fsfx_sprite_t sp[256];
    const mxv_t *none = NULL;
    fsspot_t list = { 1, &fx, 0 };
    r_fsspot_sparks_t *ctx = r_fsspot_sparks_create(&list, none);
    assert_non_null(ctx);
    // 2 ticks after the first burst: the flash and its sparks (no later burst yet, or its own)
    double t = (k + 2.0) / FSSPOT_TICKS_PER_SEC;
    int n = r_fsspot_gravity(ctx, &fx, 0, t, frames, sp, 256);
    int flashes = 0, bits = 0;
    for (int i = 0; i < n; i++) {
        if (sp[i].kind == FSFX_SPRITE_FLARE) {
            flashes++;
            assert_float_equal(sp[i].scale, 1.5f, 1e-6);
            assert_int_equal(sp[i].moveout, 1);
        } else {
            assert_int_equal(sp[i].kind, FSFX_SPRITE_BITS);
            assert_float_equal(sp[i].scale, 2.0f, 1e-6);
            assert_float_equal(sp[i].rgb[0], 1, 1e-6);
            bits++;
        }
    }
    int expect = 0, expect_flash = 0;
    for (long j = k; j <= k + 2; j++) {
        expect += r_fsspot_burst(&fx, 0, j);
        expect_flash += r_fsspot_burst(&fx, 0, j) > 0;
    }
    assert_int_equal(bits, expect);
    assert_int_equal(flashes, expect_flash);
    // the same again (a function of t, the cache aside)
    r_fsfx_sprite_t sp2[256];
    assert_int_equal(r_fsspot_gravity(ctx, &fx, 0, t, frames, sp2, 256), n);
    assert_memory_equal(sp, sp2, sizeof sp[0] * (size_t)n);
    // no BITS.OFF: only the flashes
    frames[FSFX_SPRITE_BITS] = 0;
    assert_int_equal(r_fsspot_gravity(ctx, &fx, 0, t, frames, sp, 256), expect_flash);
    frames[FSFX_SPRITE_BITS] = 8;
    // off (ticks 120..299): at tick 299 no flash, only sparks of the bursts up to tick 119 (older
    // than 180 ticks), a spark living at most 239 ticks
    n = r_fsspot_gravity(ctx, &fx, 0, 299.0 / FSSPOT_TICKS_PER_SEC, frames, sp, 256);
    for (int i = 0; i < n; i++) {
        assert_int_equal(sp[i].kind, FSFX_SPRITE_BITS);
        assert_true(sp[i].age >= 180 - 1e-3f && sp[i].age < 240);
    }
    // at tick 359.5 the first cycle's are all gone: only the second's (from tick 300)
    n = r_fsspot_gravity(ctx, &fx, 0, 359.5 / FSSPOT_TICKS_PER_SEC, frames, sp, 256);
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        assert_true(sp[i].age <= 59.5f + 1e-3f);
    // the light of the burst at k, 3 ticks on: 384 - 3 x 38.4 units, 255 - 75
    r_fslight_t l[16];
    long k2 = k;   // a burst with none in the 3 ticks after it
    while (r_fsspot_burst(&fx, 0, k2 + 1) || r_fsspot_burst(&fx, 0, k2 + 2) || r_fsspot_burst(&fx, 0, k2 + 3) ||
           !r_fsspot_burst(&fx, 0, k2))
        k2++;
    assert_true(k2 < 117);
    int nl = r_fsspot_lights(&fx, 0, NULL, (k2 + 3.0) / FSSPOT_TICKS_PER_SEC, l, 16);
    int found = 0;
    for (int i = 0; i < nl; i++)
        if (fabsf(l[i].size - (384 - 3 * 38.4f)) < 1e-2f) {
            found++;
            assert_float_equal(l[i].rgb[0], 255 - 75, 1e-2);
        }
    assert_int_equal(found, 1);
    // none 10 ticks on (its size is spent), none of another type
    for (int i = 0; i < r_fsspot_lights(&fx, 0, NULL, (k2 + 10.0) / FSSPOT_TICKS_PER_SEC, l, 16); i++)
        assert_true(fabsf(l[i].size - (384 - 10 * 38.4f)) > 1e-2f);
    fx.type = FSSPOT_SMOKE;
    assert_int_equal(r_fsspot_lights(&fx, 0, NULL, (k2 + 3.0) / FSSPOT_TICKS_PER_SEC, l, 16), 0);
    r_fsspot_sparks_free(ctx);
}

// ---- therm: the pilot looks at the gravity sparks ------------------------------------

#define SCENE_END 6.0
static const float SPARKS_AT[3] = { 448.0f, 6.533f, 1993.13f };
#ifndef EYE_DX
#define EYE_DX 0
#define EYE_DY -120
#define EYE_DZ -420
#define LOOK_DY -150
#endif

static void scene_setup(fs_scene_t *s)
{
    float dx = getenv("EYE_DX") ? (float)atof(getenv("EYE_DX")) : EYE_DX;
    float dy = getenv("EYE_DY") ? (float)atof(getenv("EYE_DY")) : EYE_DY;
    float dz = getenv("EYE_DZ") ? (float)atof(getenv("EYE_DZ")) : EYE_DZ;
    float ly = getenv("LOOK_DY") ? (float)atof(getenv("LOOK_DY")) : LOOK_DY;
    float look[3] = { SPARKS_AT[0], SPARKS_AT[1] + ly, SPARKS_AT[2] };
    float eye[3] = { SPARKS_AT[0] + dx, SPARKS_AT[1] + dy, SPARKS_AT[2] + dz };
    fs_scene_look(s, eye, look);
}

enum { W = FS_SCENE_WIDTH, H = FS_SCENE_HEIGHT };

// The screen box (as r_main's view at W x H) of the sprites in front of the eye, each its centre
// +- 64 texels x its scale x 0.75 (BITS.OFF's and FLARE.OFF's frames are smaller).
static int sprites_box(const fs_scene_t *s, const r_fsfx_sprite_t *sp, int n, int box[4])
{
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int i = 0; i < n; i++) {
        float v[3];
        fs_scene_to_view(s, sp[i].pos, v);
        float x = v[0], y = v[1], z = v[2];
        if (z < 1)
            continue;   // behind the eye: not drawn
        if (sp[i].moveout)
            z = fmaxf(z - 64, 1);   // pulled towards the eye: larger on the screen
        float half = sp[i].scale * 64 * 0.75f;
        float sx = 160 + 160 * x / z, sy = 100 - 160 / 1.2f * y / z, r = 160 * half / z + 2;
        x0 = fminf(x0, sx - r), x1 = fmaxf(x1, sx + r), y0 = fminf(y0, sy - r / 1.2f), y1 = fmaxf(y1, sy + r / 1.2f);
    }
    if (x1 < x0)
        return -1;
    box[0] = (int)fmaxf(0, floorf(x0));
    box[1] = (int)fmaxf(0, floorf(y0));
    box[2] = (int)fminf(W, ceilf(x1));
    box[3] = (int)fminf(H, ceilf(y1));
    return 0;
}

// Pixels that differ inside the box; outside it, how many got brighter and darker (r+g+b by
// more than 12) from b to a.
static int differ_in(const uint8_t *a, const uint8_t *b, int pitch, const int box[4], const uint8_t *pal,
                     int *brighter, int *darker)
{
    int in = 0, up = 0, down = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int pa = a[y * pitch + x], pb = b[y * pitch + x];
            if (x >= box[0] && x < box[2] && y >= box[1] && y < box[3]) {
                in += pa != pb;
                continue;
            }
            int la = pal[pa * 3] + pal[pa * 3 + 1] + pal[pa * 3 + 2], lb = pal[pb * 3] + pal[pb * 3 + 1] + pal[pb * 3 + 2];
            up += la > lb + 12;
            down += la < lb - 12;
        }
    *brighter = up;
    *darker = down;
    return in;
}

// The sparks r_fsspot.c places at dt off the level's walls.
static int sparks_now(const fsspot_t *list, const mxv_t *level, int index, double dt, r_fsfx_sprite_t *sp, int max)
{
    r_fsspot_sparks_t *ctx = r_fsspot_sparks_create(list, level);
    int frames[FSFX_SPRITE_KINDS] = { 0 };
    frames[FSFX_SPRITE_BITS] = 8;
    frames[FSFX_SPRITE_FLARE] = 1;
    int n = r_fsspot_gravity(ctx, &list->fx[index], index, dt, frames, sp, max);
    r_fsspot_sparks_free(ctx);
    return n;
}

static void test_therm_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fs_scene_t s;
    scene_setup(&s);
    char demo[512];
    snprintf(demo, sizeof demo, "%s/fs_sparks_%d.dmo", tu_tmpdir("FS_SPARKS_SHOTS"), (int)getpid());
    fs_scene_demo(demo, "therm", s.eye, s.ang, SCENE_END, 10, 0.05);
    fs_run_t run;
    fs_run_open(&run, demo, W, H);
    assert_int_equal(player_scan(run.p), 0);

    fsspot_t *fx = fs_scene_fx("therm");
    mxv_t *level = fs_scene_mxv("therm");
    const int idx = 2;   // therm's spot effect 2: gravity sparks in group 11
    assert_int_equal(fx->fx[idx].type, FSSPOT_GRAVITY_SPARKS);
    assert_float_equal(fx->fx[idx].pos[0], SPARKS_AT[0], 0.1);

    // moments just after a burst (its flash and sparks near the source), while it is on
    int checked = 0;
    for (long k = 30; k < 110 && checked < 3; k++) {
        if (!r_fsspot_burst(&fx->fx[idx], idx, k) || r_fsspot_burst(&fx->fx[idx], idx, k - 1) ||
            r_fsspot_burst(&fx->fx[idx], idx, k - 2))
            continue;
        // the player's time is the demo's (the demo starts at 0)
        double dt = fs_run_seek(&run, (k + 1.5) / FSSPOT_TICKS_PER_SEC);
        int pitch;
        uint8_t *on, *off;
        fs_run_on_off(&run, dt, &on, &off, &pitch);
        r_fsfx_sprite_t sp[256];
        int n = sparks_now(fx, level, idx, dt, sp, 256);
        int box[4] = { 0, 0, 0, 0 }, up, down;
        assert_int_equal(sprites_box(&s, sp, n, box), 0);
        int in = differ_in(on, off, pitch, box, r_palette(run.r), &up, &down);
        printf("%.3f s (burst at tick %ld): %d sprites, box %d,%d..%d,%d: %d pixels differ inside; outside %d brighter, "
               "%d darker (the burst's light)\n",
               dt, k, n, box[0], box[1], box[2], box[3], in, up, down);
        assert_true(n >= 5);
        assert_true(in > 20);
        assert_true(up > 100 && up > 4 * down);
        free(on);
        free(off);
        checked++;
    }
    assert_int_equal(checked, 3);
    // a moment 10 ticks or more after the last burst (its light gone, 384 / 38.4 ticks): only the
    // sparks' own pixels differ, all inside their box
    {
        long k = 40;
        while (r_fsspot_burst(&fx->fx[idx], idx, k) == 0 || !r_fsspot_on(&fx->fx[idx], k + 12))
            k++;
        for (;;) {   // k + 11 .. k + 12 with no burst in k + 1 .. k + 12
            int quiet = 1;
            for (long j = k + 1; j <= k + 12; j++)
                quiet &= r_fsspot_burst(&fx->fx[idx], idx, j) == 0;
            if (quiet)
                break;
            k++;
        }
        assert_true(k < 110);
        double dt = fs_run_seek(&run, (k + 11.5) / FSSPOT_TICKS_PER_SEC);
        int pitch, up, down, box[4];
        uint8_t *on, *off;
        fs_run_on_off(&run, dt, &on, &off, &pitch);
        r_fsfx_sprite_t sp[256];
        int n = sparks_now(fx, level, idx, dt, sp, 256);
        assert_int_equal(sprites_box(&s, sp, n, box), 0);
        int in = differ_in(on, off, pitch, box, r_palette(run.r), &up, &down), outside = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                outside += !(x >= box[0] && x < box[2] && y >= box[1] && y < box[3]) && on[y * pitch + x] != off[y * pitch + x];
        printf("%.3f s (11.5 ticks after the burst at %ld, no light): %d sprites, box %d,%d..%d,%d: %d pixels differ "
               "inside, %d outside\n", dt, k, n, box[0], box[1], box[2], box[3], in, outside);
        assert_true(in > 20);
        assert_int_equal(outside, 0);
        free(on);
        free(off);
    }
    const double at[] = { 0.5, 1.05, 1.6, 2.4, 3.0, 4.5 };
    fs_run_seek_play(&run, at, (int)(sizeof at / sizeof at[0]), 0.05, SCENE_END);
    fs_run_close(&run);
    fsspot_free(fx);
    mxv_free(level);

    // the golden image: the shot command at 1.6 s
    char png[1024];
    snprintf(png, sizeof png, "%s/fs_spot_sparks.png", tu_tmpdir("FS_SPARKS_SHOTS"));
    fs_shot(demo, 1.6, png);
    tu_golden("therm gravity sparks", png, "tests/golden/fs_spot_sparks.png", 0.002);
    if (!getenv("FS_SPARKS_SHOTS"))
        remove(demo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bursts),
        cmocka_unit_test(test_spark_path),
        cmocka_unit_test(test_sprites_lights),
        cmocka_unit_test(test_therm_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
