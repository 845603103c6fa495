// test_cs_gunsmoke.c -- Counter-Strike 1.6's gun smoke (cs16-client's cl_gunsmoke: EV_CS16Client_CreateSmoke
// with SMOKE_PISTOL / RIFLE / BLACK at the view model's muzzle for the recording player's own shots; made by
// render/r_hldecal.c from the event log, moved and listed by r_hlfx.c): the guns' rules, the smoke's rise,
// and crossfire's usp shots: one puff each (sprites/pistol_smoke1..2.spr, models 234 and 235), where and
// how long, the same after a seek; from the view model's attachment when the game's files give one (a
// mod folder with Half-Life's v_9mmhandgun.mdl as v_usp.mdl), and drawn when they give the sprites.
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "engine/hltent.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hlfx.h"
#include "render/r_local.h"
#include "render/r_models.h"
#include "render/render.h"

#define TW 640
#define TH 400
#include "hl_level.h"

// The table (cs16-client's event_<gun>.cpp), over many seeds.
static void test_rules(void **state)
{
    (void)state;
    r_hlsmoke_t s[HLFX_SMOKE_MAX];
    for (uint32_t seed = 1; seed < 400; seed++) {
        uint32_t x = seed * 2654435761u | 1u;
        // glock18: three pistol puffs 3 behind the muzzle, speeds 0 / 20 / 40, scales s, s + 0.1, s
        assert_int_equal(r_hlfx_gunsmoke("glock18", 0, &x, s), 3);
        float sc = s[0].scale;
        assert_true(sc >= 0.15f && sc <= 0.3f);
        const float speed[3] = {0, 20, 40}, scale[3] = {sc, sc + 0.1f, sc};
        const int grey[3] = {7, 10, 13};
        for (int i = 0; i < 3; i++) {
            assert_int_equal(s[i].type, HLFX_SMOKE_PISTOL);
            assert_true(s[i].pick >= 0 && s[i].pick <= 1);
            assert_float_equal(s[i].back, 3, 0);
            assert_float_equal(s[i].speed, speed[i], 0);
            assert_float_equal(s[i].scale, scale[i], 1e-6);
            assert_int_equal(s[i].grey, grey[i]);
            assert_true(s[i].amount >= 100 && s[i].amount <= 180);
        }
        // the usp: the middle puff only
        assert_int_equal(r_hlfx_gunsmoke("usp", 0, &x, s), 1);
        assert_float_equal(s[0].speed, 20, 0);
        assert_true(s[0].scale >= 0.3f - 1e-6f && s[0].scale <= 0.45f + 1e-6f);
        assert_int_equal(s[0].grey, 10);
        // a rifle: one at the muzzle, speed 3, grey 20; the m249's 0.4; the silenced m4a1's black
        assert_int_equal(r_hlfx_gunsmoke("ak47", 0, &x, s), 1);
        assert_int_equal(s[0].type, HLFX_SMOKE_RIFLE);
        assert_true(s[0].pick >= 0 && s[0].pick <= 2);
        assert_float_equal(s[0].back, 0, 0);
        assert_float_equal(s[0].speed, 3, 0);
        assert_float_equal(s[0].scale, 0.3, 1e-6);
        assert_int_equal(s[0].grey, 20);
        assert_int_equal(r_hlfx_gunsmoke("m249", 0, &x, s), 1);
        assert_float_equal(s[0].scale, 0.4, 1e-6);
        assert_int_equal(r_hlfx_gunsmoke("m4a1", 0, &x, s), 1);
        assert_int_equal(s[0].type, HLFX_SMOKE_RIFLE);
        assert_int_equal(r_hlfx_gunsmoke("m4a1", 1, &x, s), 1);
        assert_int_equal(s[0].type, HLFX_SMOKE_BLACK);
        assert_true(s[0].pick >= 0 && s[0].pick <= 3);
        assert_int_equal(r_hlfx_gunsmoke("awp", 0, &x, s), 1);
        assert_int_equal(s[0].type, HLFX_SMOKE_BLACK);
        assert_float_equal(s[0].scale, 0.5, 1e-6);
        // none: the elites, the knife, Half-Life's guns
        assert_int_equal(r_hlfx_gunsmoke("elite_left", 0, &x, s), 0);
        assert_int_equal(r_hlfx_gunsmoke("knife", 0, &x, s), 0);
        assert_int_equal(r_hlfx_gunsmoke("glock1", 0, &x, s), 0);
    }
    char name[40];
    r_hlfx_smoke_name(HLFX_SMOKE_RIFLE, 2, name, sizeof name);
    assert_string_equal(name, "sprites/rifle_smoke3.spr");
    r_hlfx_smoke_name(HLFX_SMOKE_BLACK, 0, name, sizeof name);
    assert_string_equal(name, "sprites/black_smoke1.spr");
}

// EV_SmokeRise: straight along its velocity up to frame 7 (35 a second: 0.2 s), then 0.97 of it a
// client frame and 0.7 up, no wind; the same place whenever asked.
static void test_rise(void **state)
{
    (void)state;
    r_hlpuff_t p;
    memset(&p, 0, sizeof p);
    p.vel[0] = 20;
    p.seed = 99;
    vec3_t a, b;
    r_hlfx_puff_at(NULL, &p, 0.15f, a);
    assert_float_equal(a[0], 3.0, 1e-4);
    assert_float_equal(a[1], 0, 0);
    assert_float_equal(a[2], 0, 0);
    r_hlfx_puff_at(NULL, &p, 1.0f, b);
    printf("  a puff at 20 u/s along +x: (%.2f %.2f %.2f) at 1 s\n", b[0], b[1], b[2]);
    assert_true(b[0] > 4.0f && b[0] < 20.0f);   // slowed
    assert_float_equal(b[1], 0, 0);             // no wind
    assert_true(b[2] > 5.0f);                   // risen
    r_hlfx_puff_at(NULL, &p, 1.0f, a);
    assert_memory_equal(a, b, sizeof a);
}

// ---- crossfire ------------------------------------------------------------------------------------

typedef struct {
    uint8_t *data;
    vfs_t *fs;
    world_t *w;
    void *st;
} demo_t;

// crossfire decoded up to time t in renderer r (its game folders: valve, then `mod` when given).
static void play_to(demo_t *d, renderer_t *r, const char *mod, double t)
{
    size_t size = 0;
    d->data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(d->data);
    d->fs = vfs_create();
    assert_int_equal(vfs_add_dir(d->fs, tu_data("goldsrc/valve")), 0);
    if (mod)
        assert_true(vfs_add_dir(d->fs, mod) >= 0);
    d->w = world_create();
    d->st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    assert_int_equal(hl_decoder.open(d->st, d->data, size, d->w, &opts, &err), 0);
    uint32_t seq = 0;
    while (hl_decoder.read_frame(d->st, d->w, &err) > 0) {
        if (d->w->level_seq != seq && d->w->map[0]) {
            char e[256];
            assert_int_equal(r_load_level(r, d->fs, d->w, e, sizeof e), 0);
            seq = d->w->level_seq;
        }
        r_frame(r, d->w);
        if (d->w->time >= t)
            break;
    }
    r_render(r, d->w, t);
}

static void demo_close(demo_t *d)
{
    hl_decoder.close(d->st);
    free(d->st);
    world_free(d->w);
    vfs_free(d->fs);
    free(d->data);
}

// The gun smoke sprites listed at t (models 234, 235: pistol_smoke1..2).
static int smoke_at(renderer_t *r, double t, r_hlsprite_t *out, int max)
{
    r_hlsprite_t list[HLFX_MAX_SPRITES + 1 + HLFX_MAX_PUFFS];
    int n = r_hlfx_sprites(r_models_hlfx(r->models), t, list, HLFX_MAX_SPRITES + 1 + HLFX_MAX_PUFFS), k = 0;
    for (int i = 0; i < n && k < max; i++)
        if (list[i].model == 234 || list[i].model == 235)
            out[k++] = list[i];
    return k;
}

// The usp events of the log made in (t - 2, t], the recording player's own.
static int usp_shots(const world_t *w, double t, const world_decal_t **out, int max)
{
    int n = 0;
    for (uint32_t i = 0; i < w->decal_log_count && n < max; i++) {
        const world_decal_t *e = &w->decal_log[i % WORLD_MAX_DECAL_LOG];
        if (!e->te && !strcmp(e->script, "usp") && e->time > t - HLFX_PUFF_MAX_AGE && e->time <= t + 1e-6) {
            assert_int_equal(e->local, 1);
            out[n++] = e;
        }
    }
    return n;
}

// The muzzle without a view model: 24 ahead of the demo's eye, 6 right, 6 down.
static void fallback_muzzle(const world_decal_t *e, vec3_t out)
{
    vec3_t f, r, u;
    r_angle_vectors(e->eye_angles, f, r, u);
    for (int k = 0; k < 3; k++)
        out[k] = e->eye[k] + 24 * f[k] + 6 * r[k] - 6 * u[k];
}

// Where shot e's puff s starts and how fast, by the rule: `muzzle` - 3 x the aim, 20 along the aim plus
// half the shooter's velocity (0.9 of its z).
static void expected_start(const world_decal_t *e, const vec3_t muzzle, vec3_t org, vec3_t vel)
{
    vec3_t src, ang, f, r, u;
    hltent_event_aim(e, src, ang);
    r_angle_vectors(ang, f, r, u);
    const float keep[3] = {0.5f, 0.5f, 0.9f};
    for (int k = 0; k < 3; k++) {
        org[k] = muzzle[k] - 3 * f[k];
        vel[k] = 20 * f[k] + e->velocity[k] * keep[k];
    }
}

// Each of crossfire's usp shots of the last 2 s has one puff, at the muzzle (no view model here:
// the fallback place), moved along its velocity (before frame 7: exactly), scale 0.3..0.45, amount
// 100..180 x 10 / 255, frame = age x 35; a seek lists the same; 2 s after the last shot none is left.
static void test_crossfire_smoke(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const double t = 2.18;   // 0.11 s after crossfire's third usp shot
    renderer_t *r = r_create(TW, TH);
    demo_t d;
    play_to(&d, r, NULL, t);
    const world_decal_t *shots[16];
    int ns = usp_shots(d.w, t, shots, 16);
    r_hlsprite_t sm[32];
    int n = smoke_at(r, t, sm, 32);
    printf("  %d usp shots of the recording player by %.2f s; %d smoke puffs listed\n", ns, t, n);
    assert_int_equal(ns, 3);
    assert_int_equal(n, ns);   // the usp: one puff a shot
    int used[32] = {0};
    for (int i = 0; i < ns; i++) {
        const world_decal_t *e = shots[i];
        float age = (float)(t - e->time);
        vec3_t muzzle, org, vel;
        fallback_muzzle(e, muzzle);
        expected_start(e, muzzle, org, vel);
        int best = -1;
        float best_err = 1e9f;
        for (int j = 0; j < n; j++) {
            float err = 0;
            for (int k = 0; k < 3; k++)
                err = fmaxf(err, fabsf(sm[j].org[k] - (org[k] + vel[k] * age)));
            if (err < best_err)
                best_err = err, best = j;
        }
        const r_hlsprite_t *q = &sm[best];
        printf("  shot at %.3f s: puff of model %d at (%.2f %.2f %.2f), %.3f off the straight line, frame %.2f, "
               "scale %.3f, amount %d\n", e->time, q->model, q->org[0], q->org[1], q->org[2], best_err, q->frame,
               q->scale, q->amount);
        if (age * HLFX_PUFF_FRAMERATE <= 7)
            assert_true(best_err < 0.01f);
        else
            assert_true(best_err < 30 && q->org[2] > org[2] + vel[2] * age);   // slowed, risen
        assert_false(used[best]);
        used[best] = 1;
        assert_float_equal(q->frame, age * HLFX_PUFF_FRAMERATE, 1e-3);
        assert_int_equal(q->rendermode, RM_ADDITIVE);
        assert_true(q->scale >= 0.3f - 1e-6f && q->scale <= 0.45f + 1e-6f);
        assert_true(q->amount >= 100 * 10 / 255 && q->amount <= 180 * 10 / 255);
        assert_int_equal(q->color[0], 10);
    }
    // a seek: the log's replay makes the same puffs
    r_clear_transients(r, 0);
    r_frame(r, d.w);
    r_render(r, d.w, t);
    r_hlsprite_t again[32];
    assert_int_equal(smoke_at(r, t, again, 32), n);
    assert_memory_equal(again, sm, sizeof sm[0] * (size_t)n);
    // their life: listed up to 2 s (the drawer ends each after its sprite's last frame), then gone
    double last = shots[ns - 1]->time;
    assert_int_equal(smoke_at(r, last + HLFX_PUFF_MAX_AGE - 0.01, again, 32), 1);
    assert_int_equal(smoke_at(r, last + HLFX_PUFF_MAX_AGE + 0.01, again, 32), 0);
    demo_close(&d);
    r_destroy(r);
}

// ---- with the game's files: a mod folder giving a view model and the sprites ------------------------

static void make_mod(char *base, size_t cap)
{
    snprintf(base, cap, "/tmp/demoplay_cssmoke_%d", (int)getpid());
    char cmd[PATH_MAX * 8], valve[PATH_MAX];
    assert_non_null(realpath(tu_data("goldsrc/valve"), valve));
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && mkdir -p '%s/csmod/sprites' '%s/csmod/models' '%s/gunmod/models' && "
             "ln -sfn '%s' '%s/valve' && ln -sfn '%s/models/v_9mmhandgun.mdl' '%s/csmod/models/v_usp.mdl' && "
             "ln -sfn '%s/models/v_9mmhandgun.mdl' '%s/gunmod/models/v_usp.mdl' && "
             "for i in 1 2; do ln -sfn '%s/sprites/zerogxplode.spr' \"%s/csmod/sprites/pistol_smoke$i.spr\"; done",
             base, base, base, base, valve, base, valve, base, valve, base, valve, base);
    assert_int_equal(system(cmd), 0);
}

// With a view model, the puffs start at its attachment 0 posed as the demo's view had it (not the
// fallback); drawn through the sprite (the mod's): brighter pixels near where they project, against
// none without the sprite files, which are each warned about once.
static void test_crossfire_smoke_files(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char base[256];
    make_mod(base, sizeof base);
    char mod[300];
    snprintf(mod, sizeof mod, "%s/csmod", base);
    const double t = 2.09;   // 0.02 s after the third shot
    renderer_t *r = r_create(TW, TH);
    demo_t d;
    play_to(&d, r, mod, t);
    const world_decal_t *shots[16];
    int ns = usp_shots(d.w, t, shots, 16);
    assert_int_equal(ns, 3);
    const world_decal_t last = *shots[ns - 1], *e = &last;   // kept past demo_close
    vec3_t muzzle, fb, org, vel;
    assert_int_equal(r_models_view_attachment(r->models, e->view_model, e->view_seq, e->view_body,
                                              e->time - e->view_anim_time, e->eye, e->eye_angles, 0, muzzle), 0);
    fallback_muzzle(e, fb);
    expected_start(e, muzzle, org, vel);
    r_hlsprite_t sm[32];
    int n = smoke_at(r, t, sm, 32);
    assert_int_equal(n, 3);
    float age = (float)(t - e->time), best = 1e9f, d_eye = 0, d_fb = 0;
    for (int j = 0; j < n; j++) {
        float err = 0;
        for (int k = 0; k < 3; k++)
            err = fmaxf(err, fabsf(sm[j].org[k] - (org[k] + vel[k] * age)));
        best = fminf(best, err);
    }
    for (int k = 0; k < 3; k++) {
        d_eye += (muzzle[k] - e->eye[k]) * (muzzle[k] - e->eye[k]);
        d_fb += (muzzle[k] - fb[k]) * (muzzle[k] - fb[k]);
    }
    printf("  view model %s seq %d: muzzle (%.1f %.1f %.1f), %.1f from the eye, %.1f from the fallback; the last "
           "shot's puff %.3f off its line\n", d.w->models[e->view_model], e->view_seq, muzzle[0], muzzle[1], muzzle[2],
           sqrtf(d_eye), sqrtf(d_fb), best);
    assert_true(best < 0.01f);
    assert_true(sqrtf(d_eye) > 5 && sqrtf(d_eye) < 60);   // in the gun's reach
    assert_true(sqrtf(d_fb) > 1);                         // the attachment, not the fallback
    demo_close(&d);
    r_destroy(r);
    // drawn: the mod's sprites against none
    const char *mods[2] = {"csmod", "gunmod"};   // the same view model, with and without the sprites
    char out[2][512];
    for (int m = 0; m < 2; m++) {
        snprintf(out[m], sizeof out[m], "%s/%s.png", base, mods[m]);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "%s shot --basedir %s --game %s --at %.4f --size %dx%d -o %s '%s' 2>&1", tu_bin(),
                 base, mods[m], t, TW, TH, out[m], tu_data("goldsrc/demos/cstrike_crossfire.dem"));
        int status = 0;
        char *log = tu_run(cmd, &status);
        assert_int_equal(status, 0);
        for (int k = 1; k <= 2; k++) {
            char one[96];
            snprintf(one, sizeof one, "effect sprite sprites/pistol_smoke%d.spr (index %d) is missing", k, 233 + k);
            const char *at = strstr(log, one);
            if (m == 0)
                assert_null(at);
            else if (at)
                assert_null(strstr(at + 1, one));   // once
        }
        if (m == 1 && !strstr(log, "effect sprite sprites/pistol_smoke"))
            fail_msg("no warning about the gun smoke sprites in:\n%s", log);
        free(log);
    }
    int w0, h0, c0, w1, h1, c1;
    uint8_t *a = stbi_load(out[0], &w0, &h0, &c0, 3), *b = stbi_load(out[1], &w1, &h1, &c1, 3);
    assert_non_null(a);
    assert_non_null(b);
    int changed = 0, brighter = 0, darkest = 0, x0 = TW, x1 = -1, y0 = TH, y1 = -1;
    for (int i = 0; i < TW * TH; i++) {
        const uint8_t *pa = a + 3 * i, *pb = b + 3 * i;
        if (pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2])
            continue;
        changed++;
        int gain = pa[0] + pa[1] + pa[2] - (pb[0] + pb[1] + pb[2]);
        brighter += gain >= 0;
        darkest = gain < darkest ? gain : darkest;
        x0 = i % TW < x0 ? i % TW : x0, x1 = i % TW > x1 ? i % TW : x1;
        y0 = i / TW < y0 ? i / TW : y0, y1 = i / TW > y1 ? i / TW : y1;
    }
    // the muzzle on the screen (the view as drawn: the demo's eye there, 4:3 pixels 1.2 tall)
    vec3_t f, rt, u, dm;
    r_angle_vectors(e->eye_angles, f, rt, u);
    for (int k = 0; k < 3; k++)
        dm[k] = muzzle[k] - e->eye[k];
    float z = dm[0] * f[0] + dm[1] * f[1] + dm[2] * f[2];
    float xs = (float)(TW / 2.0 / tan(90 * M_PI / 360)), ys = xs / 1.2f;
    float mx = TW / 2.0f + xs * (dm[0] * rt[0] + dm[1] * rt[1] + dm[2] * rt[2]) / z;
    float my = TH / 2.0f - ys * (dm[0] * u[0] + dm[1] * u[1] + dm[2] * u[2]) / z;
    printf("  drawn with the sprites: %d pixels change, %d of them brighter (the others at most %d darker: the "
           "table's nearest colour), in x %d..%d y %d..%d; the muzzle at (%.0f, %.0f)\n", changed, brighter, -darkest,
           x0, x1, y0, y1, mx, my);
    assert_true(brighter >= changed - changed / 10);   // added
    assert_true(darkest >= -40);
    assert_true(mx >= x0 - 2 && mx <= x1 + 2 && my >= y0 - 2 && my <= y1 + 2);
    stbi_image_free(a);
    stbi_image_free(b);
    char keep[600];
    snprintf(keep, sizeof keep, "cp '%s' build/test_cs_gunsmoke.png", out[0]);
    assert_int_equal(system(keep), 0);
    snprintf(keep, sizeof keep, "rm -rf '%s'", base);
    assert_int_equal(system(keep), 0);
    assert_true(changed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_rise),
        cmocka_unit_test(test_crossfire_smoke),
        cmocka_unit_test(test_crossfire_smoke_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
