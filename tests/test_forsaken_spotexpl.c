// test_forsaken_spotexpl.c -- Forsaken's spot explosions (spot effect type 7, render/r_fsspot.c):
// when they go off (once at the start of the active time; again each cycle only with an inactive
// time above 0; never by themselves when a trigger starts them), their sprites and light from the
// game's numbers; and therm's explosion at once (its spot effect 0) seen by the pilot: pixels in its
// box differ from a render with spot effects off while it lasts, nothing once it and its light are
// gone; a seek draws what playing drew; the golden image. And a trigger's start (event 16, as
// therm's shotvent ones): the decoder's marker, and the explosion drawn from it.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/fsspot.h"
#include "assets/fstrig.h"
#include "engine/world_fs.h"
#include "formats/decoder.h"
#include "render/r_fsspot.h"

#include "fs_scene.h"

static fsspot_fx_t expl_fx(void)
{
    fsspot_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.type = FSSPOT_EXPLOSION;
    fx.r = fx.g = fx.b = 255;
    fx.pos[0] = 100;
    fx.dir[0] = 1;
    fx.up[1] = 1;
    fx.active = 1;      // therm's: 1 s active, inactive -1 (once)
    fx.inactive = -1;
    return fx;
}

static void test_when(void **state)
{
    (void)state;
    fsspot_fx_t fx = expl_fx();
    assert_int_equal(r_fsspot_explosion_tick(&fx, 0), 0);
    assert_int_equal(r_fsspot_explosion_tick(&fx, 5000), 0);   // once
    assert_int_equal(r_fsspot_explosion_tick(&fx, -1), -1);
    fx.gen_type = 1;   // after 0.5 s: tick 30
    fx.gen_delay = 0.5f;
    assert_int_equal(r_fsspot_explosion_tick(&fx, 29), -1);
    assert_int_equal(r_fsspot_explosion_tick(&fx, 30), 30);
    fx.inactive = 2;   // 60 on, 120 off: again at 30 + 180 k
    assert_int_equal(r_fsspot_explosion_tick(&fx, 209), 30);
    assert_int_equal(r_fsspot_explosion_tick(&fx, 210), 210);
    assert_int_equal(r_fsspot_explosion_tick(&fx, 400), 390);
    fx.inactive = 0;   // on for ever: DoneOnce never cleared
    assert_int_equal(r_fsspot_explosion_tick(&fx, 400), 30);
    fx.gen_type = 2;   // a trigger's (therm's shotvent ones): never here
    assert_int_equal(r_fsspot_explosion_tick(&fx, 400), -1);
}

// The sprites: 1..3 expl.off, a frame every 3 ticks, 192, moved out; the first 4 units a texel at
// the spot, the others 1.5..3.75 within 32 units; gone after expl.off's frames x 3 ticks. The
// light: 384 units of 255 64 64, 38.4 and 25 less a tick.
static void test_sprites_light(void **state)
{
    (void)state;
    fsspot_fx_t fx = expl_fx();
    int frames[FSFX_SPRITE_KINDS] = { 0 };
    frames[FSFX_SPRITE_EXPL] = 13;
    r_fsfx_sprite_t s[16], s2[16];
    int counts[4] = { 0 };
    for (int index = 0; index < 300; index++) {
        int n = r_fsspot_sprites(&fx, index, NULL, 7.0 / FSSPOT_TICKS_PER_SEC, frames, s, 16);
        assert_in_range(n, 1, 3);
        counts[n]++;
        assert_int_equal(r_fsspot_sprites(&fx, index, NULL, 7.0 / FSSPOT_TICKS_PER_SEC, frames, s2, 16), n);
        assert_memory_equal(s, s2, sizeof s[0] * (size_t)n);
        assert_float_equal(s[0].scale, 4.0f, 1e-6);
        assert_float_equal(s[0].pos[0], 100, 1e-6);
        for (int i = 0; i < n; i++) {
            assert_int_equal(s[i].kind, FSFX_SPRITE_EXPL);
            assert_int_equal(s[i].frame, 2);   // 7 ticks / 3
            assert_int_equal(s[i].moveout, 1);
            assert_float_equal(s[i].rgb[1], 192 / 255.0f, 1e-6);
            if (i) {
                assert_true(s[i].scale >= 1.5f - 1e-6f && s[i].scale <= 3.75f + 1e-6f);
                assert_true(fabsf(s[i].pos[0] - 100) <= 32 && fabsf(s[i].pos[1]) <= 32 && fabsf(s[i].pos[2]) <= 32);
            }
        }
    }
    printf("300 explosions: %d of one sprite, %d of two, %d of three\n", counts[1], counts[2], counts[3]);
    // the test drawn again each time: a second when Random_Range(3) + 1 > 1 (2/3), a third when
    // it is > 2 (1/3): P(1) = 1/3, P(2) = 4/9, P(3) = 2/9
    assert_in_range(counts[1], 75, 125);
    assert_in_range(counts[2], 108, 158);
    assert_in_range(counts[3], 45, 90);
    // expl.off's 13 frames x 3 ticks: drawn at 38.9 ticks, gone at 39
    assert_true(r_fsspot_sprites(&fx, 0, NULL, 38.9 / FSSPOT_TICKS_PER_SEC, frames, s, 16) > 0);
    assert_int_equal(r_fsspot_sprites(&fx, 0, NULL, 39.0 / FSSPOT_TICKS_PER_SEC, frames, s, 16), 0);
    frames[FSFX_SPRITE_EXPL] = 0;
    assert_int_equal(r_fsspot_sprites(&fx, 0, NULL, 7.0 / FSSPOT_TICKS_PER_SEC, frames, s, 16), 0);
    r_fslight_t l[4];
    assert_int_equal(r_fsspot_lights(&fx, 0, NULL, 4.0 / FSSPOT_TICKS_PER_SEC, l, 4), 1);
    assert_float_equal(l[0].size, 384 - 4 * 38.4f, 1e-2);
    assert_float_equal(l[0].rgb[0], 255 - 100, 1e-3);
    assert_float_equal(l[0].rgb[1], 0, 1e-6);   // 64 - 100, no less than 0
    assert_float_equal(l[0].org[0], 100, 1e-6);
    assert_int_equal(r_fsspot_lights(&fx, 0, NULL, 10.0 / FSSPOT_TICKS_PER_SEC, l, 4), 0);
}

// ---- therm: the explosion at once -------------------------------------------------

#define SCENE_END 3.0
static const float EXPL_AT[3] = { -740.448f, -899.149f, 667.988f };

static void scene_setup(fs_scene_t *s)
{
    // 350 units out along its direction (0.766 0.643 0), looking back at it
    const float d[3] = { 0.766045f, 0.642788f, 0 };
    for (int k = 0; k < 3; k++)
        s->eye[k] = EXPL_AT[k] + d[k] * 350;
    s->ang[0] = (float)(asin(d[1]) * 180 / M_PI);
    s->ang[1] = (float)(atan2(-d[0], -d[2]) * 180 / M_PI);
    s->ang[2] = 0;
    fs_scene_axes(s);
}

enum { W = FS_SCENE_WIDTH, H = FS_SCENE_HEIGHT };

// Pixels that differ inside the screen box of the sprites (each its centre, pulled 64 units
// towards the eye, +- 64 texels x its scale x 0.75) and outside it.
static int differ(const fs_scene_t *s, const r_fsfx_sprite_t *sp, int n, const uint8_t *a, const uint8_t *b, int pitch,
                  int *outside)
{
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int i = 0; i < n; i++) {
        float v[3];
        fs_scene_to_view(s, sp[i].pos, v);
        float x = v[0], y = v[1], z = v[2];
        float zm = fmaxf(z - 64, 1), half = sp[i].scale * 64 * 0.75f;
        float sx = 160 + 160 * x / zm, sy = 100 - 160 / 1.2f * y / zm, r = 160 * half / zm + 2;
        x0 = fminf(x0, sx - r), x1 = fmaxf(x1, sx + r), y0 = fminf(y0, sy - r / 1.2f), y1 = fmaxf(y1, sy + r / 1.2f);
    }
    return fs_differ_in_box(a, b, W, H, pitch, x0, y0, x1, y1, outside);
}

static void test_therm_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fs_scene_t s;
    scene_setup(&s);
    char demo[512];
    snprintf(demo, sizeof demo, "%s/fs_expl_%d.dmo", tu_tmpdir("FS_EXPL_SHOTS"), (int)getpid());
    fs_scene_demo(demo, "therm", s.eye, s.ang, SCENE_END, 20, 0.02);
    fs_run_t run;
    fs_run_open(&run, demo, W, H);
    assert_int_equal(player_scan(run.p), 0);

    fsspot_t *fx = fs_scene_fx("therm");
    assert_int_equal(fx->fx[0].type, FSSPOT_EXPLOSION);
    assert_float_equal(fx->fx[0].pos[0], EXPL_AT[0], 0.1);
    int frames[FSFX_SPRITE_KINDS] = { 0 };
    frames[FSFX_SPRITE_EXPL] = 13;

    // while it lasts (its light gone after 10 ticks: from 0.15 s only the sprites differ)
    const double during[] = { 0.05, 0.2, 0.4 };
    for (int i = 0; i < 3; i++) {
        double dt = fs_run_seek(&run, during[i]);
        int pitch, out;
        uint8_t *on, *off;
        fs_run_on_off(&run, dt, &on, &off, &pitch);
        r_fsfx_sprite_t sp[8];
        int n = r_fsspot_sprites(&fx->fx[0], 0, NULL, dt, frames, sp, 8);
        int in = differ(&s, sp, n, on, off, pitch, &out);
        printf("%.2f s: %d sprites, %d pixels differ inside their box, %d outside\n", dt, n, in, out);
        assert_true(n >= 1);
        assert_true(in > 200);
        if (dt * FSSPOT_TICKS_PER_SEC >= 10)
            assert_int_equal(out, 0);
        else
            assert_true(out > 0);   // its light on the walls
        free(on);
        free(off);
    }
    // gone: nothing differs
    {
        double dt = fs_run_seek(&run, 0.8);
        int pitch;
        uint8_t *on, *off;
        fs_run_on_off(&run, dt, &on, &off, &pitch);
        assert_int_equal(memcmp(on, off, (size_t)H * (size_t)pitch), 0);
        printf("%.2f s: the same with and without spot effects\n", dt);
        free(on);
        free(off);
    }
    const double at[] = { 0.07, 0.12, 0.3, 0.45, 1.0 };
    fs_run_seek_play(&run, at, (int)(sizeof at / sizeof at[0]), 0.02, SCENE_END);
    fs_run_close(&run);
    fsspot_free(fx);

    char png[1024];
    snprintf(png, sizeof png, "%s/fs_spot_explosion.png", tu_tmpdir("FS_EXPL_SHOTS"));
    fs_shot(demo, 0.2, png);
    tu_golden("therm explosion at once", png, "tests/golden/fs_spot_explosion.png", 0.002);
    if (!getenv("FS_EXPL_SHOTS"))
        remove(demo);
}

// ---- a trigger starts a spot effect (event 16, EnableSpotFX) ------------------------------

extern const decoder_t fs_decoder;

typedef struct {
    uint8_t b[1024];
    size_t n;
} buf_t;
static void put(buf_t *b, const void *p, size_t n)
{
    assert_true(b->n + n <= sizeof b->b);
    memcpy(b->b + b->n, p, n);
    b->n += n;
}
static void put32(buf_t *b, int32_t v) { put(b, &v, 4); }   // little-endian hosts (the tests' x86)
static void put16(buf_t *b, int v)
{
    uint16_t u = (uint16_t)v;
    put(b, &u, 2);
}
static void putf(buf_t *b, float v) { put(b, &v, 4); }

typedef struct {
    buf_t trg, zon;
} made_t;

// therm's .trg and .zon from memory: one variable (vent), vent == 1 starts spot effect 14 (as
// therm's shotvent at 5); a sphere of 100 units in group 14 whose "enters" sets vent = 1.
static uint8_t *made_file(void *ctx, const char *path, size_t *size)
{
    const made_t *m = ctx;
    size_t l = strlen(path);
    const buf_t *b = l > 4 && !strcmp(path + l - 4, ".trg") ? &m->trg : l > 4 && !strcmp(path + l - 4, ".zon") ? &m->zon
                                                                                                             : NULL;
    if (!b || !strstr(path, "therm"))
        return NULL;
    uint8_t *d = malloc(b->n);
    memcpy(d, b->b, b->n);
    *size = b->n;
    return d;
}

static void make_lists(made_t *m, const float centre[3])
{
    memset(m, 0, sizeof *m);
    buf_t *t = &m->trg;
    put(t, "PRJX", 4);
    put32(t, 1);
    put32(t, 1); put32(t, 1); put32(t, 1); put32(t, 1); put32(t, 1);
    char name[32] = "vent";
    put(t, name, 32); put32(t, 0); put32(t, 1); put32(t, 0);
    uint8_t type = FSTRG_EQUAL;
    put(t, &type, 1); put32(t, 0); put32(t, 1); put32(t, 1); put32(t, 0);
    put32(t, FSTRG_SET); put32(t, 0); put32(t, 1); putf(t, 0); put32(t, -1);
    uint8_t ev = FSTRG_EV_SPOTFX_START, data[FSTRG_EVENT_DATA] = { 14 };
    put(t, &ev, 1);
    put(t, data, sizeof data);
    put32(t, 1); put32(t, 0); put32(t, 1); put32(t, 0);
    buf_t *z = &m->zon;
    put(z, "PRJX", 4);
    put32(z, 2);
    put16(z, 1);
    put16(z, 14); put16(z, 0); putf(z, 0); put16(z, FSZON_SPHERE);
    for (int k = 0; k < 3; k++)
        putf(z, centre[k]);
    for (int k = 0; k < 3; k++)
        putf(z, 100);
    put16(z, FSZON_NONE); put16(z, 0); put16(z, FSZON_NONE); put16(z, FSZON_NONE); put16(z, -1); put16(z, -1);
    for (int k = 0; k < 4; k++)
        put16(z, FSZON_NONE);
    put16(z, -1); put16(z, -1);
}

// The host's updates every 0.05 s at `eye`, but at enter_t in the sphere (group 14 both).
static void host_demo(const float eye[3], const float ang[3], const float inside[3], double enter_t, const char *path)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "therm");
    fs_write_header(&wr, &h);
    for (int i = 0; i <= 50; i++) {
        double t = 0.05 + i * 0.05;
        fs_ship_t sh;
        memset(&sh, 0, sizeof sh);
        sh.flags = FS_SHIP_ENABLE;
        memcpy(sh.pos, fabs(t - enter_t) < 1e-6 ? inside : eye, sizeof sh.pos);
        fs_angles_to_quat(ang, sh.quat);
        sh.group = 14;
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &sh);
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// Spot effect 14's marker decoded up to `at` (files: the lists above): *frame, *when; 0 none.
static int spot_marker(const char *path, double at, made_t *m, int *frame, float *when)
{
    size_t size;
    uint8_t *data = tu_read(path, &size);
    assert_non_null(data);
    void *st = calloc(1, fs_decoder.state_size);
    world_t *w = world_create();
    dec_opts_t o;
    memset(&o, 0, sizeof o);
    o.files = (asset_files_t){ made_file, m };
    dec_error_t err;
    assert_int_equal(fs_decoder.open(st, data, size, w, &o, &err), 0);
    while (w->time < at && fs_decoder.read_frame(st, w, &err) > 0) {
    }
    int e = FSW_SPOT_ENT0 + 14, vis = world_entity_visible(w, e) && w->entities[e].cur.modelindex == FSW_MODEL_TRIG;
    *frame = vis ? w->entities[e].cur.frame : -1;
    *when = vis ? w->entities[e].cur.animtime : -1;
    fs_decoder.close(st);
    world_free(w);
    free(st);
    free(data);
    return vis;
}

static const float VENT_AT[3] = { 2644.849f, 1076.374f, 2562.485f };   // therm's spot effect 14

static void test_trigger_start(void **state)
{
    (void)state;
    const float d[3] = { 0.996195f, 0, 0.0871557f };   // its direction
    float eye[3], inside[3], ang[3];
    for (int k = 0; k < 3; k++)
        eye[k] = VENT_AT[k] + d[k] * 350;
    memcpy(inside, eye, sizeof inside);
    inside[2] += 150;
    ang[0] = 0;
    ang[1] = (float)(atan2(-d[0], -d[2]) * 180 / M_PI);
    ang[2] = 0;
    made_t m;
    make_lists(&m, inside);
    char err[256] = "";
    fstrg_t *tl = fstrg_load(m.trg.b, m.trg.n, "made.trg", err, sizeof err);
    if (!tl)
        fail_msg("%s", err);
    assert_int_equal(tl->end, m.trg.n);
    fstrg_free(tl);
    fszon_t *zl = fszon_load(m.zon.b, m.zon.n, "made.zon", err, sizeof err);
    if (!zl)
        fail_msg("%s", err);
    fszon_free(zl);
    char path[512];
    snprintf(path, sizeof path, "%s/fs_spot_trig_%d.dmo", tu_tmpdir("FS_EXPL_SHOTS"), (int)getpid());
    host_demo(eye, ang, inside, 1.0, path);
    int frame;
    float when;
    assert_int_equal(spot_marker(path, 0.94, &m, &frame, &when), 0);
    assert_int_equal(spot_marker(path, 0.99, &m, &frame, &when), 1);
    assert_int_equal(frame, 1);
    assert_float_equal(when, 1.0, 1e-4);
    assert_int_equal(spot_marker(path, 2.49, &m, &frame, &when), 1);   // re-submitted every frame
    assert_int_equal(frame, 1);
    assert_float_equal(when, 1.0, 1e-4);
    printf("spot effect 14 started by the trigger at %.2f s (the host's update in the sphere)\n", when);
    remove(path);

    // drawn from there: the explosion (1..3 expl.off, 39 ticks) and its light, as the level's
    // own at once but from the start; the marker put in a therm world at the eye by hand
    TU_REQUIRE_DATA();
    snprintf(path, sizeof path, "%s/fs_spot_vent_%d.dmo", tu_tmpdir("FS_EXPL_SHOTS"), (int)getpid());
    host_demo(eye, ang, inside, -1, path);
    fs_run_t run;
    fs_run_open(&run, path, W, H);
    assert_int_equal(player_scan(run.p), 0);
    const double at[] = { 1.5, 1.9, 2.6 };   // the start at 1.8 s: before, 0.1 s into it, after it
    int differ_n[3];
    for (int i = 0; i < 3; i++) {
        double dt = fs_run_seek(&run, at[i]);
        entity_state_t e;
        entity_state_clear(&e);
        e.modelindex = FSW_MODEL_TRIG;
        e.frame = 1;
        e.animtime = 1.8f;
        world_entity_update(run.d.world, FSW_SPOT_ENT0 + 14, &e);
        int pitch;
        uint8_t *on, *off;
        fs_run_on_off(&run, dt, &on, &off, &pitch);
        differ_n[i] = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                differ_n[i] += on[y * pitch + x] != off[y * pitch + x];
        printf("%.2f s, the vent started at 1.8 s: %d pixels differ from spot effects off\n", dt, differ_n[i]);
        if (i == 1) {
            char png[1024];
            snprintf(png, sizeof png, "%s/fs_spot_vent.png", tu_tmpdir("FS_EXPL_SHOTS"));
            uint8_t *again = fs_run_grab(&run, dt, &pitch);   // drawn again with spot effects on, to look at
            free(again);
            assert_int_equal(r_write_png(run.r, png), 0);
            tu_golden("therm vent explosion started by a trigger", png, "tests/golden/fs_spot_vent.png", 0.002);
        }
        free(on);
        free(off);
    }
    assert_int_equal(differ_n[0], 0);
    assert_true(differ_n[1] > 1000);
    assert_int_equal(differ_n[2], 0);   // 0.8 s after: expl.off's 16 frames x 3 ticks and its light's 10 are over
    fs_run_close(&run);
    if (!getenv("FS_EXPL_SHOTS"))
        remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_when),
        cmocka_unit_test(test_sprites_light),
        cmocka_unit_test(test_therm_scene),
        cmocka_unit_test(test_trigger_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
