// test_quake2_golden.c -- golden images of Quake II moments, one effect family each (issue 13)
//
// Each image was written, opened and looked at before it became a golden: the effect is on
// screen and looks like Quake II's. Moments come from the shared demos where a demo shows the
// family; where none does, the scene is made: a real demo frame with one entity added in
// front of the camera (said so in the test), or a level drawn without a demo (flowing water:
// no shared demo plays a level that has it).
//
// DEMOPLAY_UPDATE_GOLDEN=1 rewrites the goldens (look at them again when it does).
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/vfs.h"
#include "engine/world_q2.h"
#include "render/r_q2ent.h"
#include "render/render.h"

#define W 320
#define H 240

// A demo moment through the real command, as `demoplay shot --notify off` draws it.
static void shot_golden(const char *name, const char *demo, double at, double tolerance)
{
    char out[256], gold[256], cmd[2048];
    snprintf(out, sizeof out, "build/test_q2golden_%s.png", name);
    snprintf(gold, sizeof gold, "tests/golden/q2_%s.png", name);
    snprintf(cmd, sizeof cmd, "%s shot -q --notify off --basedir %s %s --at %.3f --size %dx%d -o %s 2>&1", tu_bin(),
             tu_data("quake2"), tu_data(demo), at, W, H, out);
    int status = 0;
    char *text = tu_run(cmd, &status);
    if (status != 0) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", text ? text : "");
        free(text);
        fail_msg("%s: exit %d: %s", cmd, status, msg);
    }
    free(text);
    tu_golden(name, out, gold, tolerance);
}

// 1) koldduel1 120.5 s: the player's own rocket flying off down the hall, its grey smoke
// trail with the yellow fire specks (one in eight), the blue rail spiral of 120 s fading above.
static void test_rocket_trail(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    shot_golden("rocket_trail", "quake2/demos/opentdm_koldduel1.dm2", 120.5, 0.005);
}

// 2) koldduel1 120.1 s: a rail shot across the hall, the blue spiral (0x74..0x7b) round the
// grey smoke core, a frame after TE_RAILTRAIL.
static void test_rail_spiral(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    shot_golden("rail_spiral", "quake2/demos/opentdm_koldduel1.dm2", 120.1, 0.005);
}

// 3) koldduel1 123.7 s: a rocket explodes at the far end of the hall (r_explode, orange
// skins), its light 350 brightening the walls round it, the particles flying out.
static void test_explosion_light(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    shot_golden("explosion_light", "quake2/demos/opentdm_koldduel1.dm2", 123.7, 0.005);
}

// 6) q2test_demo1_p25 19.6 s: an exploding barrel's r_explode a second on (frame 11: skin 5
// through the 33 % table), the wall's grating seen through the dark red ball.
static void test_translucent_explosion(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    shot_golden("translucent_explosion", "quake2/demos/q2test_demo1_p25.dm2", 19.6, 0.005);
}

// 8) koldduel1 168.2 s: the player is being hit, the game's blend (1, 0, 0, 0.44) reddens
// the whole screen; the blood of the hit flies across it.
static void test_damage_blend(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    shot_golden("damage_blend", "quake2/demos/opentdm_koldduel1.dm2", 168.2, 0.005);
}

// ---- made scenes: a demo frame, one entity added ------------------------------------

typedef struct {
    demo_t d;
    cli_t cli;
    renderer_t *r;
    vfs_t *fs;
    world_t *w;
} play_t;

// The demo read up to the first frame at or after `at`, every frame through r_frame but the last.
static void play_to(play_t *p, const char *demo, double at)
{
    memset(p, 0, sizeof *p);
    p->cli.basedir = tu_data("quake2");
    p->cli.quiet = 1;
    if (demo_open(&p->d, &p->cli, tu_data(demo), NULL, 0) < 0)
        fail_msg("%s", p->d.errmsg);
    p->r = r_create(W, H);
    assert_non_null(p->r);
    r_set_notify(p->r, 0);
    p->w = p->d.world;
    uint32_t level_seq = 0;
    int rc;
    while ((rc = demo_read_frame(&p->d)) > 0) {
        if (p->w->level_seq != level_seq) {
            level_seq = p->w->level_seq;
            vfs_free(p->fs);
            p->fs = demo_mount(&p->d, &p->cli);
            char err[1024];
            if (r_load_level(p->r, p->fs, p->w, err, sizeof err) < 0)
                fail_msg("%s", err);
        }
        if (p->w->time >= at)
            break;
        r_frame(p->r, p->w);
    }
    assert_int_equal(rc, 1);
}

static void play_free(play_t *p)
{
    r_destroy(p->r);
    vfs_free(p->fs);
    demo_close(&p->d);
}

// The last frame through r_frame and drawn at its own time; a copy of the 8-bit picture in `pix`.
static void draw(play_t *p, uint8_t *pix)
{
    r_frame(p->r, p->w);
    r_render(p->r, p->w, p->w->time);
    int w, h, pitch;
    const uint8_t *px = r_pixels(p->r, &w, &h, &pitch);
    assert_true(w == W && h == H);
    for (int y = 0; y < H; y++)
        memcpy(pix + y * W, px + (size_t)y * pitch, W);
}

// The view's forward (level), right and up, from the frame's view angles.
static void view_axes(const world_t *w, float f[3], float r[3], float u[3])
{
    float yaw = w->view.angles[1] * (float)M_PI / 180;
    f[0] = cosf(yaw), f[1] = sinf(yaw), f[2] = 0;
    r[0] = sinf(yaw), r[1] = -cosf(yaw), r[2] = 0;
    u[0] = 0, u[1] = 0, u[2] = 1;
}

static int count_diff(const uint8_t *a, const uint8_t *b)
{
    int n = 0;
    for (int i = 0; i < W * H; i++)
        n += a[i] != b[i];
    return n;
}

// 4) Made: no shared demo has a colour shell on screen (koldduel1 has no power-ups; the green
// renderfx of q2test's items come without EF_COLOR_SHELL, which 3.20's client needs). In
// koldduel1 at 150 s a copy of the opponent (entity, model and weapon as the demo has them)
// is stood 72 units in front of the camera facing it, with EF_QUAD: the blue shell (0xF3)
// through the 33 % table, 4 units out along the normals, over the player model.
static void test_quad_shell(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    play_t p;
    play_to(&p, "quake2/demos/opentdm_koldduel1.dm2", 150.0);
    world_t *w = p.w;
    int other = -1;
    for (int n = 1; n < w->num_entities && other < 0; n++)
        if (n != w->view.entity && world_entity_visible(w, n) && w->entities[n].cur.modelindex == 255)
            other = n;
    assert_true(other > 0);
    float f[3], r[3], u[3];
    view_axes(w, f, r, u);
    entity_state_t st = w->entities[other].cur;
    for (int k = 0; k < 3; k++)
        st.origin[k] = st.old_origin[k] = w->view.origin[k] + 72 * f[k] - 22 * u[k];
    st.angles[0] = st.angles[2] = 0;
    st.angles[1] = w->view.angles[1] + 180 - 30;
    st.raw_effects &= ~(uint32_t)(Q2EF_QUAD | Q2EF_PENT | Q2EF_COLOR_SHELL);
    st.renderfx = 0;
    const int num = w->num_entities;
    assert_int_equal(world_entity_update(w, num, &st), 0);
    static uint8_t plain[W * H], quad[W * H];
    draw(&p, plain);
    // the same entity with the quad damage
    st.raw_effects |= Q2EF_QUAD;
    assert_int_equal(world_entity_update(w, num, &st), 0);
    draw(&p, quad);
    int shell = count_diff(plain, quad);
    print_message("quad shell: %d pixels changed\n", shell);
    assert_in_range(shell, 1500, 20000);
    const char *out = "build/test_q2golden_quad_shell.png";
    assert_int_equal(r_write_png(p.r, out), 0);
    tu_golden("quad_shell", out, "tests/golden/q2_quad_shell.png", 0.005);
    play_free(&p);
}

// 5) Made: q2test_demo1_p25's own lasers (entities 73 and 74, RF_BEAM | RF_TRANSLUCENT, red
// 0xf2f2f0f0, 4 wide) shine from 36.8 s to 43.6 s in a room the player never looks into. At
// 37.2 s entity 73 is moved into the corridor in view, from 80 units ahead and left of the
// camera to 400 ahead and right: a red beam through the 33 % table, z-tested.
static void test_laser(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    play_t p;
    play_to(&p, "quake2/demos/q2test_demo1_p25.dm2", 37.2);
    world_t *w = p.w;
    assert_true(world_entity_visible(w, 73));
    assert_true(w->entities[73].cur.renderfx & Q2RF_BEAM);
    static uint8_t before[W * H], laser[W * H];
    entity_state_t st = w->entities[73].cur;
    float f[3], r[3], u[3];
    view_axes(w, f, r, u);
    // where the demo has it first (out of view), then across the corridor
    draw(&p, before);
    for (int k = 0; k < 3; k++) {
        st.origin[k] = w->view.origin[k] + 80 * f[k] - 50 * r[k] - 20 * u[k];
        st.old_origin[k] = w->view.origin[k] + 400 * f[k] + 120 * r[k] + 30 * u[k];
    }
    assert_int_equal(world_entity_update(w, 73, &st), 0);
    draw(&p, laser);
    int beam = count_diff(before, laser);
    print_message("laser: %d pixels changed\n", beam);
    assert_in_range(beam, 300, 6000);
    const char *out = "build/test_q2golden_laser.png";
    assert_int_equal(r_write_png(p.r, out), 0);
    tu_golden("laser", out, "tests/golden/q2_laser.png", 0.005);
    play_free(&p);
}

// 5b) Made: no shared demo fires the BFG. At 37.2 s in q2test_demo1_p25 a TE_BFG_LASER is added to
// a new frame at the same time, from 80 units ahead and left of the camera to 400 ahead and right:
// the client's own laser (CL_ParseLaser: width 4, one of 0xd0..0xd3, alpha 0.30), drawn as the
// entities' lasers are, for 0.1 s.
static void test_bfg_laser(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    play_t p;
    play_to(&p, "quake2/demos/q2test_demo1_p25.dm2", 37.2);
    world_t *w = p.w;
    static uint8_t before[W * H], after[W * H], later[W * H];
    draw(&p, before);
    float f[3], r[3], u[3];
    view_axes(w, f, r, u);
    double t = w->time;
    world_begin_frame(w, t);
    world_event_t *ev = world_add_event(w, EV_TEMPENT);
    assert_non_null(ev);
    memset(&ev->u.fx, 0, sizeof ev->u.fx);
    ev->u.fx.raw_type = TE_BFG_LASER;
    ev->u.fx.entity = -1;
    for (int k = 0; k < 3; k++) {
        ev->u.fx.origin[k] = w->view.origin[k] + 80 * f[k] - 50 * r[k] - 20 * u[k];
        ev->u.fx.end[k] = w->view.origin[k] + 400 * f[k] + 120 * r[k] + 30 * u[k];
    }
    draw(&p, after);
    int beam = count_diff(before, after);
    print_message("bfg laser: %d pixels changed\n", beam);
    assert_in_range(beam, 300, 6000);
    const char *out = "build/test_q2golden_bfg_laser.png";
    assert_int_equal(r_write_png(p.r, out), 0);
    tu_golden("bfg_laser", out, "tests/golden/q2_bfg_laser.png", 0.005);
    // 0.15 s later it is gone: the frame drawn then differs from the first only where the demo
    // itself moved (the laser's own pixels are back)
    world_begin_frame(w, t + 0.15);
    draw(&p, later);
    int left = 0;
    for (int i = 0; i < W * H; i++)
        left += after[i] != before[i] && later[i] == after[i];
    print_message("bfg laser: %d of its pixels still drawn 0.15 s later\n", left);
    assert_true(left < beam / 20);
    play_free(&p);
}

// 5c) Made: no shared demo uses the Rogue trackers. A TE_TRACKER_EXPLOSION 60 units ahead of the
// camera at 37.2 s in q2test_demo1_p25: its dark light (a negative light in software, radius 150, for
// its frame) takes the walls' light around it away, and its 128 black particles; far more pixels
// darker than the particles could cover, none brighter.
static void test_dark_light(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    play_t p;
    play_to(&p, "quake2/demos/q2test_demo1_p25.dm2", 37.2);
    world_t *w = p.w;
    static uint8_t before[W * H], after[W * H];
    draw(&p, before);
    float f[3], r[3], u[3];
    view_axes(w, f, r, u);
    world_begin_frame(w, w->time);
    world_event_t *ev = world_add_event(w, EV_TEMPENT);
    assert_non_null(ev);
    memset(&ev->u.fx, 0, sizeof ev->u.fx);
    ev->u.fx.raw_type = TE_TRACKER_EXPLOSION;
    ev->u.fx.entity = -1;
    for (int k = 0; k < 3; k++)
        ev->u.fx.origin[k] = w->view.origin[k] + 60 * f[k];
    draw(&p, after);
    const uint8_t *pal = r_palette(p.r);
    int darker = 0, brighter = 0;
    for (int i = 0; i < W * H; i++) {
        int a = pal[before[i] * 3] + pal[before[i] * 3 + 1] + pal[before[i] * 3 + 2];
        int b = pal[after[i] * 3] + pal[after[i] * 3 + 1] + pal[after[i] * 3 + 2];
        darker += b < a;
        brighter += b > a;
    }
    print_message("dark light: %d pixels darker, %d brighter\n", darker, brighter);
    assert_true(darker > 2000);
    assert_true(brighter < darker / 50);
    const char *out = "build/test_q2golden_dark_light.png";
    assert_int_equal(r_write_png(p.r, out), 0);
    tu_golden("dark_light", out, "tests/golden/q2_dark_light.png", 0.005);
    play_free(&p);
}

// 6) Made: no shared demo plays a level with SURF_FLOWING faces; action's urbanjungle has a
// waterfall of them (shadowfire/s_water, faces 9795..9798: the plane y = 28, x -368..-192,
// z -703..-331) over a pool (z = -696). The level is drawn without a demo from (-280, 330,
// -600), looking at the waterfall (yaw -90, 10 degrees down), at 10 s and 10.5 s: flowing
// faces scroll by 0.25 of the texture width a second (ref_soft's
// D_TurbulentSurf), so their pixels move between the two and the rest stays.
static void test_flowing_water(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = vfs_create();
    assert_non_null(fs);
    assert_true(vfs_mount_game(fs, tu_data("quake2"), "baseq2", "action") >= 0);
    world_t *w = world_create();
    assert_non_null(w);
    w->game = GAME_QUAKE2;
    w->protocol = 34;
    assert_int_equal(world_set_model(w, 1, "maps/urbanjungle.bsp"), 0);
    snprintf(w->map, sizeof w->map, "maps/urbanjungle.bsp");
    w->view.origin_valid = 1;
    const float org[3] = {-280, 330, -600}, ang[3] = {10, -90, 0};
    for (int k = 0; k < 3; k++) {
        w->view.origin[k] = w->view.prev_origin[k] = org[k];
        w->view.angles[k] = w->view.prev_angles[k] = ang[k];
    }
    w->view.fov = 90;
    renderer_t *r = r_create(W, H);
    assert_non_null(r);
    r_set_notify(r, 0);
    char err[1024] = "";
    if (r_load_level(r, fs, w, err, sizeof err) < 0)
        fail_msg("%s", err);
    static uint8_t a[W * H], b[W * H];
    uint8_t *pics[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        w->time = w->prev_time = 10.0 + 0.5 * i;
        r_frame(r, w);
        r_render(r, w, w->time);
        int pw, ph, pitch;
        const uint8_t *px = r_pixels(r, &pw, &ph, &pitch);
        assert_true(pw == W && ph == H);
        for (int y = 0; y < H; y++)
            memcpy(pics[i] + y * W, px + (size_t)y * pitch, W);
    }
    const char *out = "build/test_q2golden_flowing_water.png";
    assert_int_equal(r_write_png(r, out), 0);
    // the waterfall fills the middle of the view and moves; the walls at the sides do not
    int mid = 0, sides = 0;
    for (int y = 40; y < 160; y++)
        for (int x = 0; x < W; x++) {
            int d = a[y * W + x] != b[y * W + x];
            if (x >= 120 && x < 200)
                mid += d;
            else if (x < 20 || x >= 300)
                sides += d;
        }
    print_message("flowing water: %d of %d middle pixels moved, %d at the sides\n", mid, 80 * 120, sides);
    assert_true(mid > 80 * 120 / 2);
    assert_int_equal(sides, 0);
    tu_golden("flowing_water", out, "tests/golden/q2_flowing_water.png", 0.005);
    r_destroy(r);
    world_free(w);
    vfs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rocket_trail),  cmocka_unit_test(test_rail_spiral),
        cmocka_unit_test(test_explosion_light), cmocka_unit_test(test_quad_shell),
        cmocka_unit_test(test_laser),
        cmocka_unit_test(test_bfg_laser),
        cmocka_unit_test(test_dark_light),         cmocka_unit_test(test_translucent_explosion),
        cmocka_unit_test(test_damage_blend),  cmocka_unit_test(test_flowing_water),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
