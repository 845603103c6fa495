// test_forsaken_spotdraw.c -- Forsaken level spot effects drawn (render/r_fsspot.c): the on / off
// cycle and the fire wall's flames and their lights pinned from the game's numbers, and a scene on
// arena: the pilot looks at the fire wall; with spot effects on the pixels inside the flames'
// screen box differ from a render with them off, and outside it the walls are brighter (the
// flames' lights); in its off time nothing differs; a seek draws what playing drew; the golden
// image.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/fsspot.h"
#include "render/r_fsspot.h"

#include "fs_scene.h"

static fsspot_fx_t wall_fx(void)
{
    fsspot_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.type = FSSPOT_FIRE_WALL;
    fx.dir[0] = 1;
    fx.up[1] = 1;
    fx.active = 3;     // arena's: 3 s on, 2 s off (x 60 ticks)
    fx.inactive = 2;
    return fx;
}

// ProcessSpotFX's cycle: 180 ticks on, 120 off; a delay first (generation 1); a trigger: never.
static void test_cycle(void **state)
{
    (void)state;
    fsspot_fx_t fx = wall_fx();
    assert_true(r_fsspot_on(&fx, 0));
    assert_true(r_fsspot_on(&fx, 179));
    assert_false(r_fsspot_on(&fx, 180));
    assert_false(r_fsspot_on(&fx, 299));
    assert_true(r_fsspot_on(&fx, 300));
    assert_false(r_fsspot_on(&fx, -1));
    fx.gen_type = 1;
    fx.gen_delay = 1;   // 60 ticks
    assert_false(r_fsspot_on(&fx, 59));
    assert_true(r_fsspot_on(&fx, 60));
    assert_false(r_fsspot_on(&fx, 240));
    fx.gen_type = 2;
    assert_false(r_fsspot_on(&fx, 60));
    fx.gen_type = 0;
    fx.inactive = 0;   // always on
    assert_true(r_fsspot_on(&fx, 100000));
    fx.inactive = -1;   // once
    assert_true(r_fsspot_on(&fx, 179));
    assert_false(r_fsspot_on(&fx, 480));
}

// The flames (FLAMES): one a tick while on, 20 units a tick along the effect's direction until
// their move meets the first wall (no bounce), expl.off's frame a tick up to 12, 4 units a texel,
// R G B 255; their lights, 384 units of 128 0 16 with them, dying at the wall (SetLightDie).
static float flat_wall(void *ctx, const float org[3], const float dir[3], float max, float normal[3])
{
    (void)ctx;
    // a wall at x = 500 facing -x
    normal[0] = -1, normal[1] = normal[2] = 0;
    if (dir[0] <= 0)
        return max;
    float d = (500 - org[0]) / dir[0];
    return d < max ? d : max;
}

static void test_flames(void **state)
{
    (void)state;
    fsspot_fx_t fx = wall_fx();
    r_fsspot_path_t p;
    const float org[3] = { 0, 0, 0 }, dir[3] = { 2, 0, 0 };
    assert_int_equal(r_fsspot_path(&p, org, dir, 20000, flat_wall, NULL), 2);
    assert_float_equal(p.wall, 500, 1e-3);
    float at[3];
    r_fsspot_path_at(&p, 300, at);
    assert_float_equal(at[0], 300, 1e-3);
    r_fsfx_sprite_t s[128];
    // 1 s: tick 71; flames of ticks 47..71 (ages 0..24: 24 x 20 = 480 short of the wall, 25 x 20 on it)
    int n = r_fsspot_firewall(&fx, 0, &p, 1.0, 20, s, 128);
    assert_int_equal(n, 25);
    assert_float_equal(s[0].age, 0, 1e-3);
    assert_float_equal(s[0].scale, 4.0f, 1e-6);
    assert_int_equal(s[0].frame, 0);
    assert_int_equal(s[0].kind, FSFX_SPRITE_EXPL);
    assert_float_equal(s[0].rgb[0], 1.0f, 1e-6);
    assert_float_equal(s[10].age, 10, 1e-3);
    assert_float_equal(s[10].pos[0], 200, 1e-2);
    assert_float_equal(s[10].scale, 4.0f, 1e-6);   // FLAMES do not grow
    assert_int_equal(s[10].frame, 10);
    assert_int_equal(s[20].frame, 12);
    assert_float_equal(s[24].pos[0], 480, 1e-2);
    for (int i = 0; i < n; i++)
        assert_true(s[i].pos[0] < 500);
    // the same again (a function of t); none in its off time after the last one met the wall
    r_fsfx_sprite_t s2[128];
    assert_int_equal(r_fsspot_firewall(&fx, 0, &p, 1.0, 20, s2, 128), 25);
    assert_memory_equal(s, s2, sizeof s[0] * 25);
    assert_int_equal(r_fsspot_firewall(&fx, 0, &p, 250.0 / 71, 20, s, 128), 0);
    // at tick 200: flames of ticks 176..179 (ages 21..24) still flying
    assert_int_equal(r_fsspot_firewall(&fx, 0, &p, 200.0 / 71, 20, s, 128), 4);
    // at most max
    assert_int_equal(r_fsspot_firewall(&fx, 0, &p, 1.0, 20, s, 5), 5);
    // their lights at 1 s: 25 flying (384 units, 128 0 16, with them) and the 8 that met the wall
    // in the 7.68 ticks before (ticks 39..46: red 255 - 2 a tick, 384 - 50 a tick, at x = 500)
    r_fslight_t l[64];
    int nl = r_fsspot_lights(&fx, 0, &p, 1.0, l, 64), flying = 0, dying = 0;
    for (int i = 0; i < nl; i++) {
        if (l[i].rgb[2] > 0) {
            flying++;
            assert_float_equal(l[i].size, 384, 1e-3);
            assert_float_equal(l[i].rgb[0], 128, 1e-3);
            assert_float_equal(l[i].rgb[1], 0, 1e-6);
            assert_float_equal(l[i].rgb[2], 16, 1e-3);
            assert_true(l[i].org[0] < 500);
        } else {
            float since = (384 - l[i].size) / 50;
            dying++;
            assert_float_equal(l[i].org[0], 500, 1e-2);
            assert_float_equal(l[i].rgb[0], 255 - 2 * since, 1e-2);
            assert_float_equal(since, roundf(since), 1e-3);
        }
    }
    assert_int_equal(flying, 25);
    assert_int_equal(dying, 8);
    // a path without legs: none
    assert_int_equal(r_fsspot_path(&p, org, (const float[3]){ 0, 0, 0 }, 1280, NULL, NULL), 0);
    assert_int_equal(r_fsspot_firewall(&fx, 0, &p, 1.0, 20, s, 128), 0);
    assert_int_equal(r_fsspot_lights(&fx, 0, &p, 1.0, l, 64), 0);
}

// The smoke (arena's: 1 s on, then disabled) and the flame (therm's: 0.5 s on, 5 s off): counts,
// sizes, fades, motion from the game's numbers; expl.off 13 frames and NEWTRAIL.OFF 6 given here.
static void test_smoke_flame(void **state)
{
    (void)state;
    fsspot_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.type = FSSPOT_SMOKE;
    fx.r = fx.g = fx.b = 255;
    fx.dir[2] = 1;
    fx.up[1] = 1;
    fx.active = 1;
    fx.inactive = -1;
    int frames[FSFX_SPRITE_KINDS] = { 0 };
    frames[FSFX_SPRITE_EXPL] = 13;
    frames[FSFX_SPRITE_NEWTRAIL] = 6;
    r_fsfx_sprite_t s[256];
    // at tick 100: puffs of ticks 0..59 (on), all younger than 6 x 25 ticks
    int n = r_fsspot_sprites(&fx, 8, NULL, 100.0 / 71, frames, s, 256);
    assert_int_equal(n, 60);
    assert_int_equal(s[0].kind, FSFX_SPRITE_NEWTRAIL);
    assert_float_equal(s[0].age, 41, 1e-3);   // tick 59
    assert_float_equal(s[0].scale, 5 + 0.125f * 41, 1e-4);
    assert_int_equal(s[0].frame, 1);          // 41 / 25
    assert_float_equal(s[0].rgb[0], (64 - 41 / 25.0f * 12) / 256, 1e-4);
    // 41 ticks: 2.5 a tick slowing 0.2 stops at 12.5 ticks (15.6 units); risen 0.1 x 41^2
    float flat = sqrtf(s[0].pos[0] * s[0].pos[0] + s[0].pos[2] * s[0].pos[2]);
    assert_true(flat <= 15.625f + 1e-3f);
    assert_true(s[0].pos[1] >= 0.1f * 41 * 41 - 15.625f - 1e-3f);
    // disabled after its first second: nothing once the last puff (tick 59) is 150 ticks old
    assert_int_equal(r_fsspot_sprites(&fx, 8, NULL, 210.0 / 71, frames, s, 256), 0);
    assert_int_equal(r_fsspot_sprites(&fx, 8, NULL, 208.0 / 71, frames, s, 256), 1);
    // no NEWTRAIL.OFF: none
    frames[FSFX_SPRITE_NEWTRAIL] = 0;
    assert_int_equal(r_fsspot_sprites(&fx, 8, NULL, 100.0 / 71, frames, s, 256), 0);
    frames[FSFX_SPRITE_NEWTRAIL] = 6;

    fx.type = FSSPOT_FLAME;
    fx.active = 0.5f;   // 30 ticks on, 300 off
    fx.inactive = 5;
    fx.dir[2] = 0;
    fx.dir[1] = 1;
    // at tick 10: flames of ticks 0..10, the newest 1.5 a texel at the spot
    n = r_fsspot_sprites(&fx, 1, NULL, 10.0 / 71, frames, s, 256);
    assert_int_equal(n, 11);
    assert_int_equal(s[0].kind, FSFX_SPRITE_EXPL);
    assert_float_equal(s[0].scale, 1.5f, 1e-4);
    assert_float_equal(s[0].pos[1], 0, 1e-3);
    assert_float_equal(s[10].scale, 1.5f - 0.0375f * 10, 1e-4);
    assert_int_equal(s[10].frame, 5);
    assert_float_equal(s[10].pos[1], 30 + 10, 1e-3);   // 4 a tick slowing 0.2: 30 along (up); risen 0.1 x 10^2
    // at tick 20: flames of ticks 0..20; those 17 ticks old or more (ticks 0..3) left a smoke each
    n = r_fsspot_sprites(&fx, 1, NULL, 20.0 / 71, frames, s, 256);
    int smokes = 0;
    for (int i = 0; i < n; i++)
        smokes += s[i].kind == FSFX_SPRITE_NEWTRAIL;
    assert_int_equal(smokes, 4);
    assert_int_equal(n, 21 + 4);
    // 40 ticks after the last flame (tick 29): only smokes
    n = r_fsspot_sprites(&fx, 1, NULL, 69.0 / 71, frames, s, 256);
    for (int i = 0; i < n; i++)
        assert_int_equal(s[i].kind, FSFX_SPRITE_NEWTRAIL);
    assert_int_equal(n, 30);
    // off until tick 330
    assert_int_equal(r_fsspot_sprites(&fx, 1, NULL, 300.0 / 71, frames, s, 256), 0);
    assert_true(r_fsspot_sprites(&fx, 1, NULL, 331.0 / 71, frames, s, 256) > 0);
}

// ---- arena: the pilot looks at the fire wall ----------------------------------------

#define SCENE_END 6.0
#ifndef SCENE_EYE_X
#define SCENE_EYE_X 0
#define SCENE_EYE_Y 0
#define SCENE_EYE_Z 500
#endif
static const float FIRE_AT[3] = { -952, 1725, -1791 };

static void scene_setup(fs_scene_t *s)
{
    // beside the flames' path (along +x from the fire wall), looking at its middle
    float look[3] = { FIRE_AT[0] + 320, FIRE_AT[1], FIRE_AT[2] };
    float eye[3] = { FIRE_AT[0] + 320 + SCENE_EYE_X, FIRE_AT[1] + SCENE_EYE_Y, FIRE_AT[2] + SCENE_EYE_Z };
    fs_scene_look(s, eye, look);
}

enum { W = FS_SCENE_WIDTH, H = FS_SCENE_HEIGHT };

// The screen box (at W x H, as r_main's view) of the flames alive at t: each one's centre +- its
// half size (expl.off's largest frame, 64 texels across at most: checked by the margin) grown by
// the margin.
static int flames_box(const fs_scene_t *s, const r_fsfx_sprite_t *sp, int n, int box[4])
{
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int i = 0; i < n; i++) {
        float v[3];
        fs_scene_to_view(s, sp[i].pos, v);
        float x = v[0], y = v[1], z = v[2];
        if (z < 1)
            return -1;
        float half = sp[i].scale * 64 * 0.75f;   // 64 texels x scale, its diagonal's half
        float sx = 160 + 160 * x / z, sy = 100 - 160 / 1.2f * y / z, r = 160 * half / z;
        x0 = fminf(x0, sx - r), x1 = fmaxf(x1, sx + r), y0 = fminf(y0, sy - r / 1.2f), y1 = fmaxf(y1, sy + r / 1.2f);
    }
    box[0] = (int)fmaxf(0, floorf(x0));
    box[1] = (int)fmaxf(0, floorf(y0));
    box[2] = (int)fminf(W, ceilf(x1));
    box[3] = (int)fminf(H, ceilf(y1));
    return 0;
}

// Pixels that differ inside the box; outside it, how many differ and how many of those got
// brighter and darker (r+g+b by more than 12) from b to a.
static int differ_in(const uint8_t *a, const uint8_t *b, int pitch, const int box[4], const uint8_t *pal,
                     int *outside, int *brighter, int *darker)
{
    int in = 0, out = 0, up = 0, down = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int pa = a[y * pitch + x], pb = b[y * pitch + x];
            if (x >= box[0] && x < box[2] && y >= box[1] && y < box[3]) {
                in += pa != pb;
                continue;
            }
            out += pa != pb;
            int la = pal[pa * 3] + pal[pa * 3 + 1] + pal[pa * 3 + 2], lb = pal[pb * 3] + pal[pb * 3 + 1] + pal[pb * 3 + 2];
            up += la > lb + 12;
            down += la < lb - 12;
        }
    *outside = out;
    *brighter = up;
    *darker = down;
    return in;
}

static void test_arena_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fs_scene_t s;
    scene_setup(&s);
    char demo[512];
    snprintf(demo, sizeof demo, "%s/fs_spot_%d.dmo", tu_tmpdir("FS_SPOT_SHOTS"), (int)getpid());
    fs_scene_demo(demo, "arena", s.eye, s.ang, SCENE_END, 10, 0.05);
    fs_run_t run;
    fs_run_open(&run, demo, W, H);
    assert_int_equal(player_scan(run.p), 0);

    // the flames r_fsspot.c places (arena's fire wall is its spot effect 5: checked by its place)
    fsspot_t *fx = fs_scene_fx("arena");
    int wall = -1;
    for (int i = 0; i < fx->count; i++)
        if (fx->fx[i].type == FSSPOT_FIRE_WALL)
            wall = i;
    assert_true(wall >= 0);
    assert_float_equal(fx->fx[wall].pos[0], FIRE_AT[0], 0.1);

    const double on_at[] = { 0.6, 1.3, 2.2 };
    for (int k = 0; k < 3; k++) {
        double dt = fs_run_seek(&run, on_at[k]);
        int pitch;
        uint8_t *on, *off;
        fs_run_on_off(&run, dt, &on, &off, &pitch);
        r_fsfx_sprite_t sp[128];
        r_fsspot_path_t straight;   // arena's first wall along +x is 1 913.7 units out (96 ticks' flight)
        r_fsspot_path(&straight, fx->fx[wall].pos, fx->fx[wall].dir, 1913.7f, NULL, NULL);
        int n = r_fsspot_firewall(&fx->fx[wall], wall, &straight, dt, 13, sp, 128);
        int box[4] = { 0, 0, 0, 0 }, out, up, down;
        assert_int_equal(flames_box(&s, sp, n, box), 0);
        int in = differ_in(on, off, pitch, box, r_palette(run.r), &out, &up, &down);
        printf("%.2f s: %d flames, box %d,%d..%d,%d: %d pixels differ inside; outside %d (%d brighter, %d darker: "
               "the flames' light)\n",
               dt, n, box[0], box[1], box[2], box[3], in, out, up, down);
        assert_true(n > 40);
        assert_true(in > 3000);
        assert_true(up > 4 * down);
        free(on);
        free(off);
    }
    // its off time after the last flame met the wall and its light died: (180 + 96 + 8) / 71 ..
    // 300 / 71 s
    {
        double dt = fs_run_seek(&run, 4.1);
        int pitch, box[4] = { 0, 0, 0, 0 }, out, up, down;
        uint8_t *on, *off;
        fs_run_on_off(&run, dt, &on, &off, &pitch);
        differ_in(on, off, pitch, box, r_palette(run.r), &out, &up, &down);
        printf("%.2f s (off): %d pixels differ\n", dt, out);
        assert_int_equal(out, 0);
        free(on);
        free(off);
    }
    const double at[] = { 0.5, 1.05, 2.4, 3.0, 4.5, 5.2 };
    fs_run_seek_play(&run, at, (int)(sizeof at / sizeof at[0]), 0.05, SCENE_END);
    fs_run_close(&run);
    fsspot_free(fx);

    // the golden image: the shot command at 1.3 s
    char png[1024];
    snprintf(png, sizeof png, "%s/fs_spot_firewall.png", tu_tmpdir("FS_SPOT_SHOTS"));
    fs_shot(demo, 1.3, png);
    tu_golden("arena fire wall", png, "tests/golden/fs_spot_firewall.png", 0.002);
    if (!getenv("FS_SPOT_SHOTS"))
        remove(demo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cycle),
        cmocka_unit_test(test_flames),
        cmocka_unit_test(test_smoke_flame),
        cmocka_unit_test(test_arena_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
