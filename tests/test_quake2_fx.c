// test_quake2_fx.c -- Quake II's client effects by its rules (render/r_q2fx.c): counts, colours,
// velocities, muzzle flash lights, monster flash offsets, bad input ignored
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/world.h"
#include "engine/world_q2.h"
#include "render/r_q2fx.h"
#include "render/r_view.h"

static world_t *q2world(void)
{
    world_t *w = world_create();
    assert_non_null(w);
    w->game = GAME_QUAKE2;
    w->playernum = 0;
    return w;
}

static void tempent(world_t *w, int type, float x, float y, float z, float ex, float ey, float ez)
{
    world_event_t *ev = world_add_event(w, EV_TEMPENT);
    assert_non_null(ev);
    memset(&ev->u.fx, 0, sizeof ev->u.fx);
    ev->u.fx.raw_type = type;
    ev->u.fx.entity = -1;
    ev->u.fx.origin[0] = x, ev->u.fx.origin[1] = y, ev->u.fx.origin[2] = z;
    ev->u.fx.end[0] = ex, ev->u.fx.end[1] = ey, ev->u.fx.end[2] = ez;
    ev->u.fx.dir[2] = 1;
}

// TE_GUNSHOT: 40 particles of colours 0..7 falling at 40 u/s^2, fading in 0.5..0.8 s,
// with a smoke puff and a flash (two models).
static void test_gunshot(void **state)
{
    (void)state;
    r_q2fx_t *fx = r_q2fx_create();
    world_t *w = q2world();
    world_begin_frame(w, 10.0);
    tempent(w, 0, 100, 0, 0, 0, 0, 0);
    r_q2fx_frame(fx, w, w->time, 1);
    assert_int_equal(r_q2fx_num_particles(fx), 40);
    for (int i = 0; i < 40; i++) {
        const r_q2particle_t *p = r_q2fx_particle(fx, i);
        assert_true(p->color <= 7);
        assert_true(p->accel[2] == -40.0f);
        assert_true(p->alphavel <= -1.0f / 0.8f + 1e-4f && p->alphavel >= -1.0f / 0.5f - 1e-4f);
        for (int k = 0; k < 3; k++)
            assert_true(fabsf(p->vel[k]) <= 20.0f);
    }
    r_q2fx_model_t m[8];
    // both start a frame back: between the frames before, smoke and flash; at the frame's own
    // time (what timedemo shows) the flash is over, the smoke lasts to 3 frames
    int n = r_q2fx_models(fx, 9.95, m, 8);
    assert_int_equal(n, 2);
    assert_int_equal(m[0].model, Q2M_SMOKE);
    assert_int_equal(m[1].model, Q2M_FLASH);
    assert_int_equal(r_q2fx_models(fx, 10.0, m, 8), 1);
    assert_int_equal(r_q2fx_models(fx, 10.15, m, 8), 1);
    assert_int_equal(r_q2fx_models(fx, 10.25, m, 8), 0);
    world_free(w);
    r_q2fx_destroy(fx);
}

// TE_RAILTRAIL: one spiral particle a unit (0x74..0x7b, 3 from the line, moving out at 6)
// and one grey smoke particle every 0.75 units (colours 0..15).
static void test_rail(void **state)
{
    (void)state;
    r_q2fx_t *fx = r_q2fx_create();
    world_t *w = q2world();
    world_begin_frame(w, 5.0);
    tempent(w, 3, 0, 0, 0, 300, 0, 0);
    r_q2fx_frame(fx, w, w->time, 7);
    assert_int_equal(r_q2fx_num_particles(fx), 300 + 400);
    for (int i = 0; i < 300; i++) {
        const r_q2particle_t *p = r_q2fx_particle(fx, i);
        assert_true(p->color >= 0x74 && p->color <= 0x7b);
        float r = sqrtf(p->org[1] * p->org[1] + p->org[2] * p->org[2]);
        assert_true(fabsf(r - 3) < 1e-3f);
        assert_true(fabsf(p->org[0] - (float)i) < 1e-3f);
        float v = sqrtf(p->vel[0] * p->vel[0] + p->vel[1] * p->vel[1] + p->vel[2] * p->vel[2]);
        assert_true(fabsf(v - 6) < 1e-3f);
    }
    for (int i = 300; i < 700; i++)
        assert_true(r_q2fx_particle(fx, i)->color <= 15);
    world_free(w);
    r_q2fx_destroy(fx);
}

// TE_BFG_LASER (23): CL_ParseLaser(0xd0d1d2d3): a laser from the first point to the second, width 4,
// one colour of 0xd0..0xd3 picked when made, seen for 100 ms, no particles; 32 slots at once.
static void test_bfg_laser(void **state)
{
    (void)state;
    r_q2fx_t *fx = r_q2fx_create();
    world_t *w = q2world();
    world_begin_frame(w, 7.0);
    tempent(w, 23, 0, 0, 0, 200, 10, -5);
    r_q2fx_frame(fx, w, w->time, 3);
    assert_int_equal(r_q2fx_num_particles(fx), 0);
    r_q2fx_laser_t l[Q2FX_MAX_LASERS + 1];
    assert_int_equal(r_q2fx_lasers(fx, 7.0, l, Q2FX_MAX_LASERS), 1);
    assert_int_equal(l[0].width, 4);
    assert_true(l[0].color >= 0xd0 && l[0].color <= 0xd3);
    assert_true(l[0].end[0] == 200 && l[0].end[1] == 10 && l[0].end[2] == -5 && l[0].start[0] == 0);
    assert_int_equal(r_q2fx_lasers(fx, 7.09, l, Q2FX_MAX_LASERS), 1);
    assert_int_equal(r_q2fx_lasers(fx, 7.11, l, Q2FX_MAX_LASERS), 0);
    // 40 in one frame: the 32 slots hold the first 32 (the rest find none free)
    world_begin_frame(w, 8.0);
    for (int i = 0; i < 40; i++)
        tempent(w, 23, 0, (float)i, 0, 100, (float)i, 0);
    r_q2fx_frame(fx, w, w->time, 4);
    int n = r_q2fx_lasers(fx, 8.05, l, Q2FX_MAX_LASERS + 1);
    assert_int_equal(n, Q2FX_MAX_LASERS);
    for (int i = 0; i < n; i++)
        assert_true(l[i].start[1] == (float)i);
    world_free(w);
    r_q2fx_destroy(fx);
}

// Dark lights in software (CL_AddDLights: a light of negative colour becomes a negative light for the
// frame it was made in): TE_TRACKER_EXPLOSION's CL_ColorFlash(pos, 0, 150, -1, -1, -1) and an entity
// with EF_TRACKER (V_AddLight(-200)); EF_TRACKERTRAIL alone is a light of 155 (ref_soft ignores its
// colour). Every Quake II light reaches as ref_soft's: minlight 32.
static void test_dark_lights(void **state)
{
    (void)state;
    r_q2fx_t *fx = r_q2fx_create();
    world_t *w = q2world();
    world_begin_frame(w, 20.0);
    tempent(w, TE_TRACKER_EXPLOSION, 10, 20, 30, 0, 0, 0);
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = 1;
    st.origin[0] = 500;
    st.raw_effects = 0x4000000;   // EF_TRACKER
    world_entity_update(w, 2, &st);
    st.origin[0] = 900;
    st.raw_effects = 0x80000000u;   // EF_TRACKERTRAIL
    world_entity_update(w, 3, &st);
    r_q2fx_frame(fx, w, w->time, 5);
    static r_view_t v;
    memset(&v, 0, sizeof v);
    r_q2fx_lights(fx, w, &v, 20.05);
    int dark_flash = -1, dark_ent = -1, trail = -1;
    for (int i = 0; i < v.num_dlights; i++) {
        const r_dlight_t *d = &v.dlights[i];
        assert_true(d->minlight == 32);
        if (d->origin[0] == 10 && d->origin[1] == 20)
            dark_flash = i;
        else if (d->origin[0] == 500)
            dark_ent = i;
        else if (d->origin[0] == 900)
            trail = i;
    }
    assert_true(dark_flash >= 0 && v.dlights[dark_flash].dark && v.dlights[dark_flash].radius == 150);
    assert_true(dark_ent >= 0 && v.dlights[dark_ent].dark && v.dlights[dark_ent].radius == 200);
    assert_true(trail >= 0 && !v.dlights[trail].dark && v.dlights[trail].radius == 155);
    // the flash's dark light is over with its frame; the entity's lasts while it does
    memset(&v, 0, sizeof v);
    r_q2fx_lights(fx, w, &v, 20.12);
    for (int i = 0; i < v.num_dlights; i++)
        assert_false(v.dlights[i].origin[0] == 10 && v.dlights[i].origin[1] == 20);
    world_free(w);
    r_q2fx_destroy(fx);
}

// EF_TRAP's light: the client's V_AddLight(origin + 32 up, 100 + rand() % 100) each frame it
// draws; here a hash of the picture's millisecond: 100..199, the same at the same moment, changing.
static void test_trap_flicker(void **state)
{
    (void)state;
    r_q2fx_t *fx = r_q2fx_create();
    world_t *w = q2world();
    world_begin_frame(w, 20.0);
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = 1;
    st.origin[0] = 300;
    st.origin[2] = 40;
    st.raw_effects = 0x2000000;   // EF_TRAP
    world_entity_update(w, 2, &st);
    r_q2fx_frame(fx, w, w->time, 5);
    static r_view_t v;
    int seen[100] = {0}, distinct = 0;
    float lo = 1e9f, hi = 0;
    for (int i = 0; i < 50; i++) {
        double t = 20.0 + i * 0.002;
        float r[2];
        for (int again = 0; again < 2; again++) {
            memset(&v, 0, sizeof v);
            r_q2fx_lights(fx, w, &v, t);
            assert_int_equal(v.num_dlights, 1);
            assert_true(v.dlights[0].origin[0] == 300 && v.dlights[0].origin[2] == 72);
            r[again] = v.dlights[0].radius;
        }
        assert_true(r[0] == r[1]);
        assert_true(r[0] >= 100 && r[0] <= 199 && r[0] == floorf(r[0]));
        lo = r[0] < lo ? r[0] : lo;
        hi = r[0] > hi ? r[0] : hi;
        if (!seen[(int)r[0] - 100]++)
            distinct++;
    }
    printf("trap light over 50 pictures: %d radii, %.0f..%.0f\n", distinct, lo, hi);
    assert_true(distinct >= 25);
    assert_true(hi - lo >= 60);
    world_free(w);
    r_q2fx_destroy(fx);
}

// TE_ROCKET_EXPLOSION: r_explode starting a frame back (frame 2 or 17 first), 256 particles
// of 0xe0..0xe7, a light of 350 * (16 - f) / 16; the pool holds at most 4096.
static void test_explosion_and_pool(void **state)
{
    (void)state;
    r_q2fx_t *fx = r_q2fx_create();
    world_t *w = q2world();
    world_begin_frame(w, 20.0);
    tempent(w, 7, 0, 0, 0, 0, 0, 0);
    r_q2fx_frame(fx, w, w->time, 3);
    assert_int_equal(r_q2fx_num_particles(fx), 256);
    for (int i = 0; i < 256; i++)
        assert_true(r_q2fx_particle(fx, i)->color >= 0xe0 && r_q2fx_particle(fx, i)->color <= 0xe7);
    r_q2fx_model_t m[4];
    assert_int_equal(r_q2fx_models(fx, 20.0, m, 4), 1);
    assert_int_equal(m[0].model, Q2M_EXPLO4);
    assert_true(m[0].frame == 2 || m[0].frame == 17);
    assert_int_equal(m[0].skin, 0);
    static r_view_t v;
    memset(&v, 0, sizeof v);
    r_q2fx_lights(fx, w, &v, 20.0);
    assert_int_equal(v.num_dlights, 1);
    assert_true(fabsf(v.dlights[0].radius - 350.0f * 15 / 16) < 1e-3f);
    // 20 more explosions: 20 * 256 particles do not fit, the pool stops at 4096
    world_begin_frame(w, 20.1);
    for (int i = 0; i < 20; i++)
        tempent(w, 7, 0, 0, 0, 0, 0, 0);
    r_q2fx_frame(fx, w, w->time, 4);
    assert_int_equal(r_q2fx_num_particles(fx), 4096);
    world_free(w);
    r_q2fx_destroy(fx);
}

// Muzzle flash rules: a player's rocket flash 200 (+rand & 31) of colour (1, 0.5, 0.2) for the
// frame; chaingun 3: 250 for 0.1 s more; the soldier's machine gun 3 flash offset.
static void test_flashes(void **state)
{
    (void)state;
    r_q2flash_t f;
    assert_true(r_q2fx_player_flash(7, &f));
    assert_true(f.radius == 200 && f.extra == 0 && f.rgb == 0xff8033);
    assert_true(r_q2fx_player_flash(5, &f));
    assert_true(f.radius == 250 && fabsf(f.extra - 0.1f) < 1e-6f);
    assert_false(r_q2fx_player_flash(25, &f));
    vec3_t ofs;
    assert_true(r_q2fx_monster_flash(85, &f, ofs));   // MZ2_SOLDIER_MACHINEGUN_3
    assert_true(fabsf(ofs[0] - 20.8f * 1.2f) < 1e-4f && fabsf(ofs[1] - 10.1f * 1.2f) < 1e-4f &&
                fabsf(ofs[2] + 2.7f * 1.2f) < 1e-4f);
    assert_true(r_q2fx_monster_flash(26, &f, ofs));   // MZ2_INFANTRY_MACHINEGUN_1
    assert_true(ofs[0] == (float)26.6f && ofs[1] == (float)7.1f && ofs[2] == (float)13.1f);   // (float): x87, FLT_EVAL_METHOD 2
    assert_false(r_q2fx_monster_flash(211, &f, ofs));

    // a flash from entity 1 facing +x: its light 18 ahead and 16 to the right
    r_q2fx_t *fx = r_q2fx_create();
    world_t *w = q2world();
    world_begin_frame(w, 3.0);
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = 1;
    world_entity_update(w, 1, &st);
    world_event_t *ev = world_add_event(w, EV_DLIGHT);
    memset(&ev->u.fx, 0, sizeof ev->u.fx);
    ev->u.fx.entity = 1;
    ev->u.fx.raw_type = 7;
    ev->u.fx.count = 1;
    // bad ones: an entity out of range, an unknown flash, a bad temp entity: ignored
    ev = world_add_event(w, EV_DLIGHT);
    memset(&ev->u.fx, 0, sizeof ev->u.fx);
    ev->u.fx.entity = 99999;
    ev->u.fx.count = 2;
    ev = world_add_event(w, EV_DLIGHT);
    memset(&ev->u.fx, 0, sizeof ev->u.fx);
    ev->u.fx.entity = 1;
    ev->u.fx.raw_type = 250;
    ev->u.fx.count = 2;
    tempent(w, 200, 0, 0, 0, 0, 0, 0);
    tempent(w, 10, 0, 0, 0, 0, 0, 0);   // a splash with a bad colour and count 0
    w->events[w->num_events - 1].u.fx.color = 99;
    r_q2fx_frame(fx, w, w->time, 5);
    static r_view_t v;
    memset(&v, 0, sizeof v);
    r_q2fx_lights(fx, w, &v, 3.0);
    assert_int_equal(v.num_dlights, 1);
    assert_true(fabsf(v.dlights[0].origin[0] - 18) < 1e-3f && fabsf(v.dlights[0].origin[1] + 16) < 1e-3f);
    assert_true(v.dlights[0].radius >= 200 && v.dlights[0].radius < 232);
    v.num_dlights = 0;
    r_q2fx_lights(fx, w, &v, 3.15);   // gone by the next frame
    assert_int_equal(v.num_dlights, 0);
    world_free(w);
    r_q2fx_destroy(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gunshot),
        cmocka_unit_test(test_rail),
        cmocka_unit_test(test_bfg_laser),
        cmocka_unit_test(test_dark_lights),
        cmocka_unit_test(test_trap_flicker),
        cmocka_unit_test(test_explosion_and_pool),
        cmocka_unit_test(test_flashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
