// test_particles.c -- Quake's particle and dynamic-light rules: counts, colours, lifetimes,
// trails, D_DrawParticle's squares, muzzle flashes
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/world.h"
#include "render/r_mlocal.h"
#include "render/r_models.h"

static const uint8_t ramp1[8] = {0x6f, 0x6d, 0x6b, 0x69, 0x67, 0x65, 0x63, 0x61};
static const uint8_t ramp3[6] = {0x6d, 0x6b, 6, 5, 4, 3};

static r_particles_t *new_pool(double t)
{
    r_particles_t *ps = calloc(1, sizeof *ps);
    assert_non_null(ps);
    r_part_clear(ps);
    r_part_advance(ps, t);   // the clock starts here
    return ps;
}

static void test_explosion(void **state)
{
    (void)state;
    r_particles_t *ps = new_pool(10.0);
    const vec3_t org = {100, 200, 300};
    r_part_explosion(ps, org);
    assert_int_equal(ps->num, 1024);
    for (int i = 0; i < ps->num; i++) {
        const r_particle_t *p = &ps->p[i];
        assert_int_equal(p->type, (i & 1) ? PT_EXPLODE : PT_EXPLODE2);
        assert_int_equal(p->color, 0x6f);
        assert_true(p->ramp >= 0 && p->ramp <= 3 && p->ramp == floorf(p->ramp));
        assert_float_equal(p->die, 15.0, 1e-3);
        for (int k = 0; k < 3; k++) {
            assert_true(p->org[k] >= org[k] - 16 && p->org[k] <= org[k] + 15);
            assert_true(p->vel[k] >= -256 && p->vel[k] <= 255);
        }
    }
    // 0.1 s on: pt_explode steps its ramp 10 a second through ramp1, pt_explode2 15 a second
    float ramp0[2] = {ps->p[0].ramp, ps->p[1].ramp};
    r_part_advance(ps, 10.1);
    assert_int_equal(ps->num, 1024);
    assert_float_equal(ps->p[1].ramp, ramp0[1] + 1.0f, 1e-4);
    assert_float_equal(ps->p[0].ramp, ramp0[0] + 1.5f, 1e-4);
    for (int i = 1; i < ps->num; i += 2)
        assert_int_equal(ps->p[i].color, ramp1[(int)ps->p[i].ramp]);
    // the pool is Quake's 2048: a third explosion finds it full
    r_part_explosion(ps, org);
    r_part_explosion(ps, org);
    assert_int_equal(ps->num, R_MAX_PARTICLES);
    assert_int_equal(R_MAX_PARTICLES, 2048);
    // all gone when the ramps run out (at most 0.8 s for pt_explode)
    r_part_advance(ps, 11.0);
    assert_int_equal(ps->num, 0);
    free(ps);
}

static void test_run_effect_and_splashes(void **state)
{
    (void)state;
    r_particles_t *ps = new_pool(5.0);
    const vec3_t org = {0, 0, 0}, dir = {1, 2, -1};
    r_part_effect(ps, org, dir, 73, 20);   // blood
    assert_int_equal(ps->num, 20);
    for (int i = 0; i < ps->num; i++) {
        const r_particle_t *p = &ps->p[i];
        assert_true(p->color >= 72 && p->color <= 79);   // (color & ~7) + 0..7
        assert_int_equal(p->type, PT_SLOWGRAV);
        float life = p->die - 5.0f;   // 0.1 * (0..4)
        assert_true(life > -1e-4 && life < 0.41f);
        assert_float_equal(life * 10, roundf(life * 10), 1e-3);
        assert_float_equal(p->vel[0], 15, 1e-4);
        assert_float_equal(p->vel[1], 30, 1e-4);
        assert_float_equal(p->vel[2], -15, 1e-4);
        for (int k = 0; k < 3; k++)
            assert_true(p->org[k] >= -8 && p->org[k] <= 7);
    }
    // svc_particle's count 255 is a rocket explosion
    ps->num = 0;
    r_part_effect(ps, org, dir, 0, 255);
    assert_int_equal(ps->num, 1024);
    // teleport: 8 x 8 x 14 grey particles
    ps->num = 0;
    r_part_teleport(ps, org);
    assert_int_equal(ps->num, 896);
    for (int i = 0; i < ps->num; i++)
        assert_true(ps->p[i].color >= 7 && ps->p[i].color <= 14);
    // lava splash: 32 x 32, palette 224..231, 2 to 2.62 s
    ps->num = 0;
    r_part_lava_splash(ps, org);
    assert_int_equal(ps->num, 1024);
    for (int i = 0; i < ps->num; i++) {
        assert_true(ps->p[i].color >= 224 && ps->p[i].color <= 231);
        assert_true(ps->p[i].die >= 7.0f - 1e-4 && ps->p[i].die <= 7.62f + 1e-4);
    }
    // tarbaby: 1024, half 66..71, half 150..155
    ps->num = 0;
    r_part_blob(ps, org);
    assert_int_equal(ps->num, 1024);
    for (int i = 0; i < ps->num; i++) {
        int c = ps->p[i].color;
        if (i & 1)
            assert_true(c >= 66 && c <= 71);
        else
            assert_true(c >= 150 && c <= 155);
    }
    // TE_EXPLOSION2: 512 colours cycling through the given range, 0.3 s
    ps->num = 0;
    r_part_explosion2(ps, org, 100, 3);
    assert_int_equal(ps->num, 512);
    assert_int_equal(ps->p[4].color, 101);
    assert_float_equal(ps->p[0].die, 5.3f, 1e-4);
    free(ps);
}

static void test_trails(void **state)
{
    (void)state;
    r_particles_t *ps = new_pool(2.0);
    const vec3_t a = {0, 0, 0}, b = {30, 0, 0};
    // rocket: one particle per 3 units, 1 unit apart from the start, ramp3 0..3, pt_fire, 2 s
    r_part_trail(ps, a, b, 0);
    assert_int_equal(ps->num, 10);
    for (int i = 0; i < ps->num; i++) {
        const r_particle_t *p = &ps->p[i];
        assert_int_equal(p->type, PT_FIRE);
        assert_true(p->ramp >= 0 && p->ramp <= 3);
        assert_int_equal(p->color, ramp3[(int)p->ramp]);
        assert_float_equal(p->die, 4.0f, 1e-4);
        assert_true(p->org[0] >= i - 3 && p->org[0] <= i + 2);
        assert_true(p->org[1] >= -3 && p->org[1] <= 2);
    }
    // grenade smoke: ramp 2..5
    ps->num = 0;
    r_part_trail(ps, a, b, 1);
    assert_int_equal(ps->num, 10);
    for (int i = 0; i < ps->num; i++)
        assert_true(ps->p[i].ramp >= 2 && ps->p[i].ramp <= 5);
    // blood 67..70 under gravity; slight blood one per 6 units
    ps->num = 0;
    r_part_trail(ps, a, b, 2);
    assert_int_equal(ps->num, 10);
    assert_true(ps->p[3].color >= 67 && ps->p[3].color <= 70);
    assert_int_equal(ps->p[3].type, PT_GRAV);
    ps->num = 0;
    r_part_trail(ps, a, b, 4);
    assert_int_equal(ps->num, 5);
    // wizard tracer: green 52 or 60, 0.5 s, sideways at 30 units a second, on the path
    ps->num = 0;
    r_part_trail(ps, a, b, 3);
    assert_int_equal(ps->num, 10);
    for (int i = 0; i < ps->num; i++) {
        const r_particle_t *p = &ps->p[i];
        assert_true(p->color == 52 || p->color == 60);
        assert_float_equal(p->die, 2.5f, 1e-4);
        assert_float_equal(p->org[0], (float)i, 1e-4);
        assert_float_equal(fabsf(p->vel[1]), 30, 1e-4);
        assert_float_equal(p->vel[0], 0, 1e-4);
    }
    // knight tracer: orange 230 or 238; voor trail 152..155 for 0.3 s
    ps->num = 0;
    r_part_trail(ps, a, b, 5);
    assert_true(ps->p[0].color == 230 || ps->p[0].color == 238);
    ps->num = 0;
    r_part_trail(ps, a, b, 6);
    assert_int_equal(ps->num, 10);
    assert_true(ps->p[0].color >= 152 && ps->p[0].color <= 155);
    assert_float_equal(ps->p[0].die, 2.3f, 1e-4);
    // no move, no trail
    ps->num = 0;
    r_part_trail(ps, a, a, 0);
    assert_int_equal(ps->num, 0);
    free(ps);
}

static void test_pixel_size(void **state)
{
    (void)state;
    // 320 wide: (int)(32768 / z) >> 7, so 256 / z pixels, 1 to 4
    assert_int_equal(r_part_pixel_size(320, 8), 4);
    assert_int_equal(r_part_pixel_size(320, 64), 4);
    assert_int_equal(r_part_pixel_size(320, 80), 3);
    assert_int_equal(r_part_pixel_size(320, 100), 2);
    assert_int_equal(r_part_pixel_size(320, 128), 2);
    assert_int_equal(r_part_pixel_size(320, 129), 1);
    assert_int_equal(r_part_pixel_size(320, 2000), 1);
    // 640 wide: >> 6, 2 to 8
    assert_int_equal(r_part_pixel_size(640, 1000), 2);
    assert_int_equal(r_part_pixel_size(640, 100), 5);
    assert_int_equal(r_part_pixel_size(640, 20), 8);
}

static int count_colour(const tu_scene_t *s, int c, int *minx, int *miny)
{
    int n = 0;
    *minx = *miny = 1 << 30;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++)
            if (s->buf[y * s->w + x] == c) {
                n++;
                *minx = x < *minx ? x : *minx;
                *miny = y < *miny ? y : *miny;
            }
    return n;
}

static void put(const tu_scene_t *s, float fwd, float right, float up, int colour)
{
    vec3_t o;
    for (int k = 0; k < 3; k++)
        o[k] = s->v.vieworg[k] + s->v.vpn[k] * fwd + s->v.vright[k] * right + s->v.vup[k] * up;
    r_part_draw_one(&s->v, o, colour);
}

static void test_draw_particle(void **state)
{
    (void)state;
    static const uint8_t grey[768];
    static uint8_t cmap[64 * 256];
    tu_scene_t s;
    tu_scene_init(&s, 320, 152, grey, cmap, 224);
    tu_scene_camera(&s, 0, 0, 0, 0, 0);
    int x, y;
    // straight ahead at 100: a 2x2 square whose corner is Quake's centre (159.5, 75.5) rounded
    put(&s, 100, 0, 0, 9);
    assert_int_equal(count_colour(&s, 9, &x, &y), 4);
    assert_int_equal(x, 160);
    assert_int_equal(y, 76);
    // near (z 20): 4x4; nearer than 8: nothing
    put(&s, 20, 0, -5, 10);
    assert_int_equal(count_colour(&s, 10, &x, &y), 16);
    put(&s, 7.9f, 0, 0, 11);
    assert_int_equal(count_colour(&s, 11, &x, &y), 0);
    // the scale is shrunk by (320 - 6) / 320: 50 units right at z 100 is 78.5 pixels, not 80
    put(&s, 100, 50, 0, 12);
    assert_int_equal(count_colour(&s, 12, &x, &y), 4);
    assert_int_equal(x, 238);
    // a square's corner may be 4 pixels short of the right edge at most
    put(&s, 100, 99.7f, 0, 13);   // 316.5
    assert_int_equal(count_colour(&s, 13, &x, &y), 4);
    assert_int_equal(x, 316);
    put(&s, 100, 100, 0, 14);     // 317: not drawn at all
    assert_int_equal(count_colour(&s, 14, &x, &y), 0);
    free(s.buf);
    free(s.z);
}

static void test_draw_particle_zbuffer(void **state)
{
    (void)state;
    static const uint8_t grey[768];
    static uint8_t cmap[64 * 256];
    tu_scene_t s;
    tu_scene_init(&s, 320, 152, grey, cmap, 224);
    tu_scene_camera(&s, 0, 0, 0, 0, 0);
    int x, y;
    // Quake's 16-bit z-buffer holds (int)(32768 / z): a particle at 100 (327) shows through a
    // wall at 100.2 (also 327: equal passes), not through one at 99.9 (328)
    for (int i = 0; i < s.w * s.h; i++)
        s.z[i] = 1.0f / 100.2f;
    put(&s, 100, 0, 0, 9);
    assert_int_equal(count_colour(&s, 9, &x, &y), 4);
    for (int i = 0; i < s.w * s.h; i++)
        s.z[i] = 1.0f / 99.9f;
    put(&s, 100, 0, 0, 10);
    assert_int_equal(count_colour(&s, 10, &x, &y), 0);
    free(s.buf);
    free(s.z);
}

static void flash_ent(world_t *w, int num, float x, float y, float z, float yaw, uint32_t effects)
{
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = 2;
    st.origin[0] = x;
    st.origin[1] = y;
    st.origin[2] = z;
    st.angles[1] = yaw;
    st.effects = effects;
    world_entity_update(w, num, &st);
}

static void test_muzzle_flash(void **state)
{
    (void)state;
    world_t *w = world_create();
    world_set_model(w, 1, "maps/none.bsp");
    world_set_model(w, 2, "progs/missing_for_test.mdl");
    w->num_models = 3;
    r_models_t *m = r_models_create();
    assert_int_equal(r_models_load_level(m, NULL, w, tu_palette()), 1);
    r_view_t v;
    int seen_lo = 0, seen_hi = 0;
    for (int f = 0; f < 64; f++) {
        double t = 1.0 + f * 0.25;
        world_begin_frame(w, t);
        w->prev_time = t - 0.25;
        flash_ent(w, 3, 100, 50, 24, 90, EF_MUZZLEFLASH);   // facing +y
        r_models_frame(m, w, NULL);
        memset(&v, 0, sizeof v);
        v.time = t;
        r_models_lights(m, w, &v);
        assert_int_equal(v.num_dlights, 1);
        const r_dlight_t *d = &v.dlights[0];
        // 200 + (rand & 31), minlight 32, 18 units forward and 16 up of the origin, 0.1 s
        assert_true(d->radius >= 200 && d->radius <= 231 && d->radius == floorf(d->radius));
        seen_lo |= d->radius < 208;
        seen_hi |= d->radius > 223;
        assert_float_equal(d->minlight, 32, 1e-4);
        assert_float_equal(d->origin[0], 100, 1e-3);
        assert_float_equal(d->origin[1], 68, 1e-3);
        assert_float_equal(d->origin[2], 40, 1e-3);
        assert_float_equal(d->die, t + 0.1, 1e-4);
        v.num_dlights = 0;
        v.time = t + 0.099;
        r_models_lights(m, w, &v);
        assert_int_equal(v.num_dlights, 1);
        v.num_dlights = 0;
        v.time = t + 0.101;
        r_models_lights(m, w, &v);
        assert_int_equal(v.num_dlights, 0);
    }
    assert_true(seen_lo && seen_hi);
    // EF_BRIGHTLIGHT: 400 + (rand & 31), 16 up; it takes the muzzle flash's place (one light an entity)
    world_begin_frame(w, 30.0);
    w->prev_time = 29.9;
    flash_ent(w, 3, 0, 0, 0, 0, EF_MUZZLEFLASH | EF_BRIGHTLIGHT);
    r_models_frame(m, w, NULL);
    memset(&v, 0, sizeof v);
    v.time = 30.0;
    r_models_lights(m, w, &v);
    assert_int_equal(v.num_dlights, 1);
    assert_true(v.dlights[0].radius >= 400 && v.dlights[0].radius <= 431);
    assert_float_equal(v.dlights[0].origin[2], 16, 1e-3);
    // EF_DIMLIGHT: 200 + (rand & 31) at the origin
    world_begin_frame(w, 31.0);
    w->prev_time = 30.9;
    flash_ent(w, 3, 0, 0, 0, 0, EF_DIMLIGHT);
    r_models_frame(m, w, NULL);
    memset(&v, 0, sizeof v);
    v.time = 31.0;
    r_models_lights(m, w, &v);
    assert_int_equal(v.num_dlights, 1);
    assert_true(v.dlights[0].radius >= 200 && v.dlights[0].radius <= 231);
    assert_float_equal(v.dlights[0].origin[2], 0, 1e-3);
    r_models_destroy(m);
    world_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explosion),
        cmocka_unit_test(test_run_effect_and_splashes),
        cmocka_unit_test(test_trails),
        cmocka_unit_test(test_pixel_size),
        cmocka_unit_test(test_draw_particle),
        cmocka_unit_test(test_draw_particle_zbuffer),
        cmocka_unit_test(test_muzzle_flash),
    };
    return cmocka_run_group_tests_name("particles", tests, NULL, NULL);
}
