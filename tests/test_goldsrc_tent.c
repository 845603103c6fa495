// test_goldsrc_tent.c -- Half-Life's temp models: TE_MODEL, TE_BREAKMODEL and the weapons' shells
// bouncing on c1a0's floor, drawn, and the same after a seek as when playing; the glow shell
// (kRenderFxGlowShell) of a studio model
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hlfx.h"
#include "render/r_hllight.h"
#include "render/r_hlmodes.h"
#include "engine/hlbullet.h"
#include "engine/hltent.h"
#include "render/r_local.h"
#include "render/render.h"

extern const decoder_t hl_decoder;

#ifndef TW
#define TW 320
#define TH 200
#endif

#include "hl_level.h"

// A point `d` along the view (pitch included), `side` to its left, `dz` up.
static void along_view(const world_t *w, float d, float side, float dz, vec3_t out)
{
    float y = w->view.angles[1] * (float)M_PI / 180, p = w->view.angles[0] * (float)M_PI / 180;
    out[0] = w->view.origin[0] + d * cosf(p) * cosf(y) - side * sinf(y);
    out[1] = w->view.origin[1] + d * cosf(p) * sinf(y) + side * cosf(y);
    out[2] = w->view.origin[2] - d * sinf(p) + dz;
}

// TE_MODEL as the decoder logs it: pos, velocity, yaw, model, bounce sound, life (0.1 s).
static void log_model(world_t *w, const vec3_t pos, const vec3_t vel, int model, int sound, int life)
{
    world_decal_t *d = world_add_decal(w);
    d->te = 106;
    memcpy(d->pos, pos, sizeof(vec3_t));
    memcpy(d->velocity, vel, sizeof(vec3_t));
    d->args[0] = 90;
    d->args[1] = model;
    d->args[2] = sound;
    d->args[3] = life;
    d->model = model;
    d->seed = 1234567;
}

// TE_BREAKMODEL: pos, size, velocity, random velocity (x 10), model, count, life (0.1 s), flags.
static void log_break(world_t *w, const vec3_t pos, float size, const vec3_t vel, int random, int model, int count,
                      int life, int flags, uint32_t seed)
{
    world_decal_t *d = world_add_decal(w);
    d->te = 108;
    memcpy(d->pos, pos, sizeof(vec3_t));
    d->size[0] = d->size[1] = d->size[2] = size;
    memcpy(d->velocity, vel, sizeof(vec3_t));
    d->args[0] = random;
    d->args[1] = model;
    d->args[2] = count;
    d->args[3] = life;
    d->args[4] = flags;
    d->model = model;
    d->seed = seed;
}

// TE_EXPLODEMODEL: pos, speed, model, count, life (0.1 s).
static void log_explode(world_t *w, const vec3_t pos, float speed, int model, int count, int life, uint32_t seed)
{
    world_decal_t *d = world_add_decal(w);
    d->te = 107;
    memcpy(d->pos, pos, sizeof(vec3_t));
    d->fparam[0] = speed;
    d->args[0] = model;
    d->args[1] = count;
    d->args[2] = life;
    d->model = model;
    d->seed = seed;
}

// The floor under p (a trace 512 units down).
static float floor_under(const bsp_t *b, const vec3_t p)
{
    vec3_t end = {p[0], p[1], p[2] - 512};
    bsp_trace_t tr;
    assert_int_equal(bsp_trace(b, b->models[0].headnode, p, end, &tr), 1);
    return tr.endpos[2];
}

// The server's sv_gravity (svc_newmovevars, kept in w->gravity) is what the temp models fall by:
// c1a0 says 800 (the default); a low-gravity server's 200 makes a quarter of the fall.
static void test_movevars_gravity(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    const bsp_t *b = L.r->bsp;
    assert_float_equal(w->gravity, 800, 0);   // c1a0's svc_newmovevars (`demoplay dump`: gravity=800)
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t0 = w->time;
    vec3_t pos, vel = {0, 0, 150};
    ahead(w, 60, 0, -10, pos);
    w->gravity = 200;
    log_model(w, pos, vel, model_index(w, "models/shell.mdl"), 1, 25);
    r_frame(L.r, w);
    hltent_draw_t d[HLTENT_MAX];
    // 0.1 s: up by 150 x 0.1 less 10 steps of gravity (200 x 0.01 each: 0+1+..+9)
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 0.1, d, HLTENT_MAX), 1);
    printf("sv_gravity 200: %.3f units up after 0.1 s (800: %.3f)\n", d[0].org[2] - pos[2], 15 - 0.01 * 8 * 45);
    assert_float_equal(d[0].org[2], pos[2] + 15 - 0.01 * 2 * 45, 1e-2);
    close_level(&L);
}

// The step rules on the real floor: a shell thrown up falls, bounces (damped by half),
// stops flat within a second; a TE_MODEL without bounce sound does not turn; the pool
// spawns TE_BREAKMODEL's pieces only where the box is open; hostile entries make nothing.
static void test_bounce_values(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    const bsp_t *b = L.r->bsp;
    int shell = model_index(w, "models/shell.mdl");
    assert_int_equal(shell, 94);   // c1a0 precaches it (`demoplay dump`: resource model index=94)
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t0 = w->time;
    vec3_t pos, vel = {0, 0, 150};
    ahead(w, 60, 0, -10, pos);
    float fl = floor_under(b, pos);
    assert_true(pos[2] - fl > 20 && pos[2] - fl < 80);
    log_model(w, pos, vel, shell, 1, 25);
    vec3_t bad = {NAN, 0, 0};
    log_model(w, bad, vel, shell, 1, 25);           // not finite: nothing
    vec3_t far = {40000, 0, 0};
    log_model(w, far, vel, shell, 1, 25);           // outside the world's coordinates: nothing
    log_model(w, pos, vel, 0, 1, 25);               // model 0: nothing (R_TempModel: no model)
    r_frame(L.r, w);
    hltent_draw_t d[HLTENT_MAX];
    assert_int_equal(hltent_list(L.r->hltent, b, t0, d, HLTENT_MAX), 1);
    assert_int_equal(d[0].model, shell);
    assert_float_equal(d[0].org[2], pos[2], 1e-3);
    // 0.1 s: up by 150 x 0.1 less 10 steps of gravity (800 x 0.01 each, added after each move: 0+1+..+9)
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 0.1, d, HLTENT_MAX), 1);
    assert_float_equal(d[0].org[2], pos[2] + 15 - 0.01 * 8 * 45, 1e-2);
    // 1.5 s: lying on the floor, flat (pitch and roll 0), no longer turning
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 1.5, d, HLTENT_MAX), 1);
    assert_true(fabsf(d[0].org[2] - fl) < 1.0f);
    assert_float_equal(d[0].ang[0], 0, 1e-6);
    assert_float_equal(d[0].ang[2], 0, 1e-6);
    float yaw = d[0].ang[1];
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 2.0, d, HLTENT_MAX), 1);
    assert_float_equal(d[0].ang[1], yaw, 1e-6);
    assert_float_equal(d[0].org[2], d[0].org[2], 0);
    // its life (2.5 s) ends: gone
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 2.51, d, HLTENT_MAX), 0);

    // breakable chunks: count 0 takes the box's surface (32^3: 3 x 1024 / 432 = 7 pieces), at
    // most 100; a box in solid rock makes none; glass is see-through at 128 and fades after its life
    int glass = model_index(w, "models/glassgibs.mdl");
    assert_int_equal(glass, 163);
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t1 = w->time;
    vec3_t up = {0, 0, 50}, rock = {0, 0, -100000};
    log_break(w, pos, 32, up, 5, glass, 0, 10, 1, 99);
    log_break(w, rock, 32, up, 5, glass, 10, 10, 1, 98);
    r_frame(L.r, w);
    int n = hltent_list(L.r->hltent, b, t1, d, HLTENT_MAX);
    assert_int_equal(n, 1 + 7);   // the shell still flies
    assert_int_equal(d[0].model, shell);
    memmove(d, d + 1, (size_t)--n * sizeof d[0]);
    for (int i = 0; i < n; i++) {
        assert_int_equal(d[i].rendermode, RM_TEXTURE);
        assert_int_equal(d[i].amount, 128);
        for (int k = 0; k < 3; k++)
            assert_true(fabsf(d[i].org[k] - pos[k]) <= 16.01f);
    }
    // life 1 s + 0..1 s, then 2 s of fading: at 2.5 s all fade, at 4 s and a bit all are gone
    n = hltent_list(L.r->hltent, b, t1 + 2.5, d, HLTENT_MAX);   // the shell is gone
    assert_true(n > 0 && n <= 7);
    for (int i = 0; i < n; i++)
        assert_true(d[i].amount < 128 && d[i].amount > 0);
    assert_int_equal(hltent_list(L.r->hltent, b, t1 + 4.01, d, HLTENT_MAX), 0);

    // the pool: 6 x 100 pieces in the open, 500 live at most (a full pool makes no more)
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t2 = w->time;
    for (int i = 0; i < 6; i++)
        log_break(w, pos, 24, up, 5, glass, 255, 50, 0, 1000 + (uint32_t)i);
    r_frame(L.r, w);
    assert_int_equal(hltent_list(L.r->hltent, b, t2, d, HLTENT_MAX), HLTENT_MAX);
    assert_int_equal(hltent_count(L.r->hltent, t2), HLTENT_MAX);
    close_level(&L);
}

// The weapons' shells: a glock shot of the recording player throws models/shell.mdl to the
// right of the gun and up; python (a revolver) throws none; the double shotgun two.
static void test_event_shells(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    const bsp_t *b = L.r->bsp;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    const char *scripts[3] = {"glock1", "python", "shotgun2"};
    for (int i = 0; i < 3; i++) {
        world_decal_t *e = world_add_decal(w);
        memcpy(e->pos, w->view.origin, sizeof(vec3_t));
        e->pos[2] -= 28;
        memcpy(e->eye, w->view.origin, sizeof(vec3_t));
        memcpy(e->angles, w->view.angles, sizeof(vec3_t));
        e->angles[0] = 0;
        memcpy(e->eye_angles, e->angles, sizeof(vec3_t));
        e->eye_valid = 1;
        e->local = 1;
        e->entity = 1;
        e->seed = 4242 + (uint32_t)i;
        snprintf(e->script, sizeof e->script, "%s", scripts[i]);
    }
    r_frame(L.r, w);
    hltent_draw_t d[8];
    int n = hltent_list(L.r->hltent, b, w->time, d, 8);
    assert_int_equal(n, 3);
    assert_int_equal(d[0].model, 94);                                        // shell.mdl
    assert_int_equal(d[1].model, model_index(w, "models/shotgunshell.mdl"));
    assert_int_equal(d[2].model, d[1].model);
    // the glock's: 20 ahead, 4 right, 12 below the eye (EV_GetDefaultShellInfo's scales)
    vec3_t want;
    ahead(w, 20, -4, -12, want);
    for (int k = 0; k < 3; k++)
        assert_float_equal(d[0].org[k], want[k], 1e-2);
    // 0.05 s later it moved right (50..70 u/s) and up (100..150 u/s, less gravity)
    hltent_list(L.r->hltent, b, w->time + 0.05, d, 8);
    float y = w->view.angles[1] * (float)M_PI / 180;
    float right = (d[0].org[0] - want[0]) * sinf(y) - (d[0].org[1] - want[1]) * cosf(y);
    assert_true(right > 50 * 0.05f - 0.01f && right < 70 * 0.05f + 0.01f);
    assert_true(d[0].org[2] - want[2] > 100 * 0.05f - 1.2f && d[0].org[2] - want[2] < 150 * 0.05f);
    close_level(&L);
}

// The pixels the temp models changed (against the same moment without them) lie in boxes of
// 16 units about where their origins project, and
// every model in view changed some pixel of the 12 x 12 pixels about it (or is hidden behind another's).
static void check_boxes(renderer_t *r, const uint8_t *none, double t, int count)
{
    const r_view_t *v = &r->view;
    hltent_draw_t d[64];
    int n = hltent_list(r->hltent, r->bsp, t, d, 64);
    assert_int_equal(n, count);
    int box[64][3], in_view = 0, changed_models = 0;
    for (int i = 0; i < n; i++) {
        float p[3] = {d[i].org[0] - v->vieworg[0], d[i].org[1] - v->vieworg[1], d[i].org[2] - v->vieworg[2]};
        float z = p[0] * v->vpn[0] + p[1] * v->vpn[1] + p[2] * v->vpn[2];
        box[i][0] = box[i][1] = -1000;
        if (z < 8)
            continue;
        box[i][2] = (int)(16 * v->xscale / z) + 2;   // the pieces reach up to 16 units from their origin
        box[i][0] = (int)(v->xcenter + v->xscale * (p[0] * v->vright[0] + p[1] * v->vright[1] + p[2] * v->vright[2]) / z);
        box[i][1] = (int)(v->ycenter - v->yscale * (p[0] * v->vup[0] + p[1] * v->vup[1] + p[2] * v->vup[2]) / z);
    }
    int inside = 0, outside = 0;
    int half = 6 * TW / 320;
    for (int y = 0; y < v->height; y++)
        for (int x = 0; x < v->width; x++) {
            if (r->buffer[y * TW + x] == none[y * TW + x])
                continue;
            int in = 0;
            for (int i = 0; i < n && !in; i++)
                in = abs(x - box[i][0]) <= box[i][2] && abs(y - box[i][1]) <= box[i][2];
            inside += in;
            outside += !in;
        }
    for (int i = 0; i < n; i++) {
        if (box[i][0] < half || box[i][0] >= v->width - half || box[i][1] < half || box[i][1] >= v->height - half)
            continue;
        in_view++;
        int ch = 0;
        for (int y = box[i][1] - half; y <= box[i][1] + half; y++)
            for (int x = box[i][0] - half; x <= box[i][0] + half; x++)
                ch += r->buffer[y * TW + x] != none[y * TW + x];
        changed_models += ch > 0;
    }
    print_message("temp models at %.2f: %d in view, %d changed their box; pixels changed %d inside the boxes, %d outside\n",
                  t, in_view, changed_models, inside, outside);
    assert_true(in_view >= count / 2);
    assert_true(changed_models >= in_view * 3 / 4);
    assert_true(inside > 20 && outside * 20 <= inside);
}

// A golden of c1a0 with a shell in flight, chunks of the ceiling (opaque) thrown up and glass,
// 0.25 s after they were made, and 2.4 s after (everything on the floor, the shell's 2.5 s nearly over); then the same
// moments after a seek (the log replayed into a fresh pool) are byte-identical to playing.
static void test_golden_and_seek(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    int shell = model_index(w, "models/shell.mdl"), ceil = model_index(w, "models/ceilinggibs.mdl"),
        glass = model_index(w, "models/glassgibs.mdl");
    assert_true(shell > 0 && ceil > 0 && glass > 0);
    vec3_t pos, vel = {0, 40, 120};
    along_view(w, 40, 6, 0, pos);
    log_model(w, pos, vel, shell, 1, 25);
    vec3_t p2, up = {0, 0, 180};
    along_view(w, 110, -25, 0, p2);
    log_break(w, p2, 24, up, 6, ceil, 10, 60, 0x40, 7);   // BREAK_CONCRETE: opaque
    along_view(w, 90, 30, 0, p2);
    log_break(w, p2, 16, up, 4, glass, 6, 60, 0x01, 8);   // BREAK_GLASS: see-through
    double t0 = w->time;
    r_frame(L.r, w);
    const char *out = "build/test_goldsrc_tent_flight.png", *out2 = "build/test_goldsrc_tent_rest.png";
    double times[2] = {t0 + 0.25, t0 + 2.4};
    // the same moments without temp models (the demo alone)
    uint8_t *none[2];
    {
        level_t M;
        open_c1a0(&M, 201);
        for (int i = 0; i < 2; i++) {
            r_render(M.r, M.w, times[i]);
            none[i] = malloc(TW * TH);
            memcpy(none[i], M.r->buffer, TW * TH);
        }
        close_level(&M);
    }
    r_render(L.r, w, times[0]);
    assert_int_equal(r_write_png(L.r, out), 0);
    uint8_t *play0 = malloc(TW * TH);
    memcpy(play0, L.r->buffer, TW * TH);
    check_boxes(L.r, none[0], times[0], 1 + 10 + 6);
    // on the way to 2.4 s, as playing draws it: every 1/30 s
    for (double t = times[0]; t < times[1]; t += 1.0 / 30)
        r_render(L.r, w, t);
    r_render(L.r, w, times[1]);
    assert_int_equal(r_write_png(L.r, out2), 0);
    uint8_t *play1 = malloc(TW * TH);
    memcpy(play1, L.r->buffer, TW * TH);
    check_boxes(L.r, none[1], times[1], 1 + 10 + 6);
    if (TW == 320)   // (a bigger build of this file, -DTW=960 -DTH=600, is for looking at the pictures)
        tu_golden("goldsrc_tent_flight", out, "tests/golden/goldsrc/tent_flight.png", 0.01);
    if (TW == 320)   // (a bigger build of this file, -DTW=960 -DTH=600, is for looking at the pictures)
        tu_golden("goldsrc_tent_rest", out2, "tests/golden/goldsrc/tent_rest.png", 0.01);
    free(none[0]);
    free(none[1]);
    hltent_draw_t d[64];
    assert_int_equal(hltent_list(L.r->hltent, L.r->bsp, times[1], d, 64), 1 + 10 + 6);   // nothing lost
    // a seek: the pool cleared, the frame's log spawns them again, the moments drawn directly
    for (int i = 0; i < 2; i++) {
        r_clear_transients(L.r, 0);
        r_frame(L.r, w);
        r_render(L.r, w, times[i]);
        assert_memory_equal(L.r->buffer, i ? play1 : play0, TW * TH);
    }
    free(play0);
    free(play1);
    close_level(&L);
}

// barney 90 units ahead on the floor of c1a0's corridor, facing the camera, drawn plain and with a
// blue glow shell (render colour 40 120 255, amount 20: pushed out 1 unit): the shell changes pixels
// only about him, adds light (blue most), and slides (another moment, other pixels).
static void test_glow_shell(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(L.r, w);
    int barney = model_index(w, "models/barney.mdl");
    assert_int_equal(barney, 160);
    int n = w->num_entities;
    assert_true(n + 1 < WORLD_MAX_ENTITIES);
    world_entity_t *e = &w->entities[n];
    memset(e, 0, sizeof *e);
    entity_state_clear(&e->cur);
    e->cur.modelindex = barney;
    ahead(w, 90, 0, 0, e->cur.origin);
    vec3_t fl;
    memcpy(fl, e->cur.origin, sizeof fl);
    e->cur.origin[2] = floor_under(L.r->bsp, fl);   // a monster's origin is at its feet
    e->cur.angles[1] = w->view.angles[1] + 180;
    e->cur.framerate = 1;
    memset(e->cur.controller, 127, 4);
    e->cur.rendercolor[0] = 40;
    e->cur.rendercolor[1] = 120;
    e->cur.rendercolor[2] = 255;
    e->cur.renderamt = 20;
    e->prev = e->cur;
    e->seq = w->seq;
    w->num_entities = n + 1;
    double t = w->time;
    uint8_t *plain = malloc(TW * TH), *shell = malloc(TW * TH);
    r_render(L.r, w, t);
    memcpy(plain, L.r->buffer, TW * TH);
    assert_int_equal(r_write_png(L.r, "build/test_goldsrc_glowshell_none.png"), 0);
    e->cur.renderfx = e->prev.renderfx = 19;
    r_render(L.r, w, t);
    memcpy(shell, L.r->buffer, TW * TH);
    const char *out = "build/test_goldsrc_glowshell.png";
    assert_int_equal(r_write_png(L.r, out), 0);
    if (TW == 320)   // (a bigger build of this file, -DTW=960 -DTH=600, is for looking at the pictures)
        tu_golden("goldsrc_glowshell", out, "tests/golden/goldsrc/glowshell.png", 0.01);
    // where he stands on screen, and how far the shell reaches (half his height, 36 units, and a margin)
    const r_view_t *v = &L.r->view;
    float p[3] = {e->cur.origin[0] - v->vieworg[0], e->cur.origin[1] - v->vieworg[1],
                  e->cur.origin[2] + 36 - v->vieworg[2]};   // his middle
    float z = p[0] * v->vpn[0] + p[1] * v->vpn[1] + p[2] * v->vpn[2];
    int cx = (int)(v->xcenter + v->xscale * (p[0] * v->vright[0] + p[1] * v->vright[1] + p[2] * v->vright[2]) / z);
    int cy = (int)(v->ycenter - v->yscale * (p[0] * v->vup[0] + p[1] * v->vup[1] + p[2] * v->vup[2]) / z);
    int reach = (int)(48 * v->xscale / z);
    const uint8_t *pal = L.r->pal.palette;
    int changed = 0, outside = 0;
    long gain[3] = {0, 0, 0};
    for (int y = 0; y < v->height; y++)
        for (int x = 0; x < v->width; x++) {
            int i = y * TW + x;
            if (plain[i] == shell[i])
                continue;
            changed++;
            outside += abs(x - cx) > reach || abs(y - cy) > reach;
            for (int k = 0; k < 3; k++)
                gain[k] += pal[shell[i] * 3 + k] - pal[plain[i] * 3 + k];
        }
    print_message("glow shell: %d pixels changed (%d outside his box), colour gain %.1f %.1f %.1f a pixel\n", changed,
                  outside, (double)gain[0] / changed, (double)gain[1] / changed, (double)gain[2] / changed);
    assert_true(changed > 150);
    assert_int_equal(outside, 0);
    assert_true(gain[2] > gain[1] && gain[1] > gain[0] && gain[0] >= 0);   // added, bluish
    // 0.4 s later the chrome origin has turned by 0.88 rad: the shell's texels moved
    r_render(L.r, w, t + 0.4);
    int moved = 0;
    for (int i = 0; i < TW * TH; i++)
        moved += L.r->buffer[i] != shell[i];
    print_message("glow shell 0.4 s later: %d pixels differ\n", moved);
    assert_true(moved > changed / 4);
    // with the game's chrome sprite (here a made-up one: an 8 x 8 image, white left half, black right
    // half, its own palette): the shell's texture is the sprite's, sampled to 64 x 64
    spr_t sp;
    memset(&sp, 0, sizeof sp);
    uint8_t px[64];
    for (int i = 0; i < 64; i++)
        px[i] = (i & 7) < 4 ? 1 : 0;
    spr_frame_t fr = {0, 1, -1};
    spr_image_t im = {8, 8, 0, 0, 0};
    sp.numframes = 1;
    sp.frames = &fr;
    sp.images = &im;
    sp.num_images = 1;
    sp.pixels = px;
    sp.pixels_size = sizeof px;
    sp.has_palette = 1;
    sp.palette[3] = sp.palette[4] = sp.palette[5] = 255;
    assert_int_equal(r_hl_set_shell(L.r->hl, &sp), 0);
    assert_int_equal(L.r->hl->shell[5 * 64 + 10], 15);
    assert_int_equal(L.r->hl->shell[5 * 64 + 40], 0);
    r_render(L.r, w, t);
    assert_int_equal(r_write_png(L.r, "build/test_goldsrc_glowshell_sprite.png"), 0);
    int lit = 0, dark = 0;
    for (int i = 0; i < TW * TH; i++) {
        lit += L.r->buffer[i] != plain[i];
        dark += L.r->buffer[i] != shell[i];
    }
    print_message("with a half white chrome sprite: %d pixels changed by the shell, %d unlike the stand-in's\n", lit,
                  dark);
    assert_true(lit > 100 && lit < changed);   // half the texture adds nothing
    assert_true(dark > 100);
    sp.numframes = 0;   // a sprite without an image: the stand-in again
    assert_int_equal(r_hl_set_shell(L.r->hl, &sp), -1);
    assert_int_equal(L.r->hl->has_shell, 0);
    free(plain);
    free(shell);
    close_level(&L);
}

// The light's colour on studio models (R_StudioDynamicLight's colour: the lit sample's RGB plus the
// dlights' colours, its brightest channel 1): the tinted colormaps, then barney in c1a0 under a red
// TE_DLIGHT against a white one of the same radius: his pixels redder.
static double barney_red(int color, double *mean_rgb)
{
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    int n = w->num_entities;
    world_entity_t *e = &w->entities[n];
    memset(e, 0, sizeof *e);
    entity_state_clear(&e->cur);
    e->cur.modelindex = model_index(w, "models/barney.mdl");
    ahead(w, 90, 0, 0, e->cur.origin);
    vec3_t fl;
    memcpy(fl, e->cur.origin, sizeof fl);
    e->cur.origin[2] = floor_under(L.r->bsp, fl);
    e->cur.angles[1] = w->view.angles[1] + 180;
    memset(e->cur.controller, 127, 4);
    e->prev = e->cur;
    e->seq = w->seq;
    w->num_entities = n + 1;
    world_event_t *ev = world_add_event(w, EV_DLIGHT);   // TE_DLIGHT 30 units before him, radius 120
    ev->u.fx.raw_type = 27;
    ahead(w, 60, 0, 0, ev->u.fx.origin);
    ev->u.fx.origin[2] = e->cur.origin[2] + 40;
    ev->u.fx.radius = 120;
    ev->u.fx.duration = 1;
    ev->u.fx.color = color;
    r_frame(L.r, w);
    r_render(L.r, w, w->time);
    char name[64];
    snprintf(name, sizeof name, "build/test_goldsrc_barney_%06x.png", (unsigned)color);
    assert_int_equal(r_write_png(L.r, name), 0);
    uint8_t *with = malloc(TW * TH);
    memcpy(with, L.r->buffer, TW * TH);
    e->cur.modelindex = e->prev.modelindex = 0;   // the same frame without him: his pixels
    r_render(L.r, w, w->time);
    const uint8_t *pal = L.r->pal.palette;
    double sum[3] = {0, 0, 0};
    int px = 0;
    for (int i = 0; i < TW * TH; i++) {
        if (with[i] == L.r->buffer[i])
            continue;
        px++;
        for (int k = 0; k < 3; k++)
            sum[k] += pal[with[i] * 3 + k];
    }
    assert_true(px > 300);
    for (int k = 0; k < 3; k++)
        mean_rgb[k] = sum[k] / px;
    free(with);
    close_level(&L);
    return mean_rgb[0] - (mean_rgb[1] + mean_rgb[2]) / 2;
}

static void test_model_light_colour(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    r_render(L.r, L.w, L.w->time);   // the view's tables
    r_view_t *v = &L.r->view;
    assert_non_null(v->hlmodes);
    const float white[3] = {1, 1, 1}, none[3] = {0, 0, 0}, warm[3] = {1, 0.5f, 0.25f};
    assert_null(r_hl_model_colormap(v, white));
    assert_null(r_hl_model_colormap(v, none));
    const uint8_t *t = r_hl_model_colormap(v, warm);
    assert_non_null(t);
    assert_ptr_equal(r_hl_model_colormap(v, warm), t);   // cached
    // a light grey texel as painted (row 32) under it: red > green > blue, about 1 : 0.5 : 0.25
    const uint8_t *pal = L.r->pal.palette;
    int grey = 0, best = -1;
    for (int i = 0; i < 255; i++) {
        int r = pal[i * 3], g = pal[i * 3 + 1], b = pal[i * 3 + 2];
        int d = abs(r - g) + abs(g - b), lum = r + g + b;
        if (d < 12 && lum > best) {
            best = lum;
            grey = i;
        }
    }
    const uint8_t *c = pal + 3 * t[32 * 256 + grey];
    print_message("grey %d (%d %d %d) under 1 0.5 0.25: %d %d %d\n", grey, pal[grey * 3], pal[grey * 3 + 1],
                  pal[grey * 3 + 2], c[0], c[1], c[2]);
    assert_true(c[0] > c[1] + 20 && c[1] > c[2]);
    assert_int_equal(t[40 * 256 + 255], 255);   // '{' see-through stays
    close_level(&L);
    double red_rgb[3], white_rgb[3];
    double red = barney_red(0xff0000, red_rgb), wh = barney_red(0xffffff, white_rgb);
    print_message("barney's mean colour under a red dlight %.1f %.1f %.1f, a white one %.1f %.1f %.1f\n", red_rgb[0],
                  red_rgb[1], red_rgb[2], white_rgb[0], white_rgb[1], white_rgb[2]);
    assert_true(red > wh + 10);
}

// FTENT_SMOKETRAIL. R_RocketTrail's smoke (r_hlfx_rocket_trail): a particle every 3 units of the line,
// within 3 units of it (one random offset on all three axes), ramp 2..5, 0.2..0.8 s, rising. The
// temp models' trail steps: every step of a model that has the flag, the last 0.8 s, from where it was
// to where it went. Drawn: TE_BREAKMODEL with BREAK_SMOKE against the same pieces without it (the
// same random numbers: the flag only gates the draw) changes grey pixels only, near the pieces' paths,
// and a seek draws the same.
static void test_smoke_trail(void **state)
{
    (void)state;
    r_hlparticle_t ps[64];
    vec3_t a = {0, 0, 0}, b = {30, 0, 0}, c = {1, 0, 0};
    assert_int_equal(r_hlfx_rocket_trail(a, b, 1, 5.0f, 77, ps, 64), 10);
    assert_int_equal(r_hlfx_rocket_trail(a, c, 1, 5.0f, 77, ps + 10, 54), 1);
    assert_int_equal(r_hlfx_rocket_trail(a, a, 1, 5.0f, 77, ps, 64), 0);   // it did not move: none
    assert_int_equal(r_hlfx_rocket_trail(a, b, 2, 5.0f, 77, ps, 64), 0);   // blood: not this one
    assert_int_equal(r_hlfx_rocket_trail(a, b, 1, 5.0f, 77, ps, 64), 10);
    int seen[6] = {0};
    for (int i = 0; i < 10; i++) {
        float off = ps[i].org[1];
        assert_float_equal(ps[i].org[2], off, 1e-5);                  // the same offset on every axis
        assert_float_equal(ps[i].org[0], 3.0f * (float)i + off, 1e-4);
        assert_true(off >= -3 && off <= 3);
        assert_true(ps[i].ramp == HLFX_RAMP_FIRE && ps[i].ramp_from >= 2 && ps[i].ramp_from <= 5);
        seen[ps[i].ramp_from]++;
        assert_float_equal(ps[i].die - ps[i].birth, (6 - ps[i].ramp_from) * 0.2f, 1e-5);
        vec3_t o;
        r_hlfx_particle_at(&ps[i], 0.5f, o);
        assert_float_equal(o[2] - ps[i].org[2], 20 * 0.25f, 1e-4);   // 40 u/s^2 up from still
    }
    assert_true(seen[2] + seen[3] + seen[4] + seen[5] == 10 && seen[2] < 10 && seen[5] < 10);

    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    const bsp_t *bsp = L.r->bsp;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    int ceil = model_index(w, "models/ceilinggibs.mdl");
    assert_true(ceil > 0);
    vec3_t pos, up = {0, 0, 200};
    along_view(w, 110, 0, 10, pos);
    log_break(w, pos, 24, up, 8, ceil, 40, 60, 0x40 | 0x10, 31);   // BREAK_CONCRETE | BREAK_SMOKE
    double t0 = w->time;
    r_frame(L.r, w);
    hltent_draw_t d[64];
    static hltent_trail_t tr[4096];
    // 0.1 s: ten steps of each smoking piece, end to end, the last one ending where the piece is
    int n = hltent_list(L.r->hltent, bsp, t0 + 0.1, d, 64);
    assert_int_equal(n, 40);
    int nt = hltent_trails(L.r->hltent, bsp, t0 + 0.1, tr, 4096);
    int smoking = nt / 10;
    print_message("smoke: %d of 40 pieces smoke (100 in 256 by the engine), %d steps at 0.1 s\n", smoking, nt);
    assert_int_equal(nt % 10, 0);
    assert_true(smoking >= 6 && smoking <= 28);
    for (int i = 0; i < nt; i++) {
        assert_float_equal(tr[i].time, t0 + 0.01 * (double)(i % 10 + 1), 1e-9);
        if (i % 10)
            assert_memory_equal(tr[i].start, tr[i - 1].end, sizeof(vec3_t));
    }
    for (int s = 0; s < smoking; s++) {   // each trail's last step ends at one of the pieces
        int found = 0;
        for (int i = 0; i < n && !found; i++)
            found = fabsf(d[i].org[0] - tr[s * 10 + 9].end[0]) < 1e-3f && fabsf(d[i].org[1] - tr[s * 10 + 9].end[1]) < 1e-3f &&
                    fabsf(d[i].org[2] - tr[s * 10 + 9].end[2]) < 1e-3f;
        assert_true(found);
    }

    // drawn at 0.3 s: with BREAK_SMOKE against without (a second level, the same piece)
    double t = t0 + 0.3;
    uint8_t *smoke = malloc(TW * TH), *plain = malloc(TW * TH), *seek = malloc(TW * TH);
    render_at(L.r, w, t, smoke);
    assert_int_equal(r_write_png(L.r, "build/test_goldsrc_tent_smoke.png"), 0);
    {
        level_t M;
        open_c1a0(&M, 200);
        assert_int_equal(hl_decoder.read_frame(M.st, M.w, &(dec_error_t){0}), 1);
        log_break(M.w, pos, 24, up, 8, ceil, 40, 60, 0x40, 31);
        r_frame(M.r, M.w);
        assert_int_equal(hltent_trails(M.r->hltent, M.r->bsp, t, tr, 4096), 0);
        render_at(M.r, M.w, t, plain);
        assert_int_equal(r_write_png(M.r, "build/test_goldsrc_tent_nosmoke.png"), 0);
        close_level(&M);
    }
    int changed = 0, grey = 0;
    const uint8_t *pal = L.r->view.palette;
    for (int i = 0; i < TW * TH; i++) {
        if (smoke[i] == plain[i])
            continue;
        changed++;
        const uint8_t *col = pal + smoke[i] * 3;
        int mx = col[0] > col[1] ? col[0] : col[1], mn = col[0] < col[1] ? col[0] : col[1];
        mx = col[2] > mx ? col[2] : mx;
        mn = col[2] < mn ? col[2] : mn;
        grey += mx - mn <= 24 && mx <= 110;   // the particle palette's 3..6: greys 46..92
    }
    print_message("smoke at 0.3 s: %d pixels changed, %d of them dark grey\n", changed, grey);
    assert_true(changed > 100);
    assert_true(grey * 10 >= changed * 9);
    // (after the drawing: steps are only taken forward) 0.5 s: the window is 0.8 s; at 1.5 s only the last 0.8 s of those still flying (or none on the floor)
    assert_true(hltent_trails(L.r->hltent, bsp, t0 + 0.5, tr, 4096) <= smoking * 50);
    int late = hltent_trails(L.r->hltent, bsp, t0 + 1.5, tr, 4096);
    for (int i = 0; i < late; i++)
        assert_true(tr[i].time > t0 + 1.5 - HLTENT_TRAIL_LIFE && tr[i].time <= t0 + 1.5 + 1e-9);
    // a seek to the moment: the same smoke
    r_clear_transients(L.r, 0);
    r_frame(L.r, w);
    render_at(L.r, w, t, seek);
    assert_memory_equal(seek, smoke, TW * TH);
    free(smoke);
    free(plain);
    free(seek);
    close_level(&L);
}

// FTENT_FLICKER (TE_EXPLODEMODEL's models): a light (radius 60, 255 120 0) on the frames whose count
// & 31 is the model's number in the message & 31. 40 models: on frame k two of them light (k < 8),
// else one, each where it is; one model at rest on c1a0's floor: the frame it lights, the floor about
// it is lit orange (red up more than blue), the next frame not.
static void test_flicker(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    const bsp_t *bsp = L.r->bsp;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    int gib = model_index(w, "models/ceilinggibs.mdl");
    assert_true(gib > 0);
    vec3_t pos;
    along_view(w, 120, 0, 0, pos);
    log_explode(w, pos, 150, gib, 40, 50, 5);
    double t0 = w->time;
    r_frame(L.r, w);
    hltent_draw_t d[64];
    vec3_t at[8];
    for (int f = 0; f < 32; f++) {
        double n0 = ceil(t0 / 0.01);
        double n = n0 + fmod(fmod((double)f - n0, 32) + 32, 32);   // the first step >= t0 numbered f (& 31)
        double t = n * 0.01 + 0.002;
        assert_int_equal(hltent_list(L.r->hltent, bsp, t, d, 64), 40);
        int lit = hltent_lights(L.r->hltent, bsp, t, at, 8);
        assert_int_equal(lit, f < 8 ? 2 : 1);
        for (int i = 0; i < lit; i++) {   // the models numbered f and f + 32
            const float *o = d[f + 32 * i].org;
            assert_true(fabsf(at[i][0] - o[0]) < 1e-3f && fabsf(at[i][1] - o[1]) < 1e-3f && fabsf(at[i][2] - o[2]) < 1e-3f);
        }
        assert_int_equal(hltent_lights(L.r->hltent, bsp, t + 0.01, at, 8), (f + 1) % 32 < 8 ? 2 : 1);
    }
    close_level(&L);

    // one model still on the floor
    open_c1a0(&L, 200);
    w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    along_view(w, 70, 0, 0, pos);
    pos[2] = floor_under(L.r->bsp, pos) + 2;
    log_explode(w, pos, 0, gib, 1, 50, 6);
    t0 = w->time;
    r_frame(L.r, w);
    double n = ceil((t0 + 1) / 0.01);
    n += fmod(32 - fmod(n, 32), 32);   // a step numbered 0 (& 31), a second on
    double t = n * 0.01 + 0.002;
    assert_int_equal(hltent_lights(L.r->hltent, L.r->bsp, t, at, 8), 1);
    assert_int_equal(hltent_lights(L.r->hltent, L.r->bsp, t + 0.01, at, 8), 0);
    uint8_t *lit = malloc(TW * TH), *dark = malloc(TW * TH);
    render_at(L.r, w, t, lit);
    assert_int_equal(r_write_png(L.r, "build/test_goldsrc_tent_flicker.png"), 0);
    render_at(L.r, w, t + 0.01, dark);
    assert_int_equal(r_write_png(L.r, "build/test_goldsrc_tent_flicker_off.png"), 0);
    const uint8_t *pal = L.r->view.palette;
    int changed = 0;
    double dr = 0, db = 0;
    for (int i = 0; i < TW * TH; i++) {
        if (lit[i] == dark[i])
            continue;
        changed++;
        dr += pal[lit[i] * 3] - pal[dark[i] * 3];
        db += pal[lit[i] * 3 + 2] - pal[dark[i] * 3 + 2];
    }
    print_message("flicker light: %d pixels changed, red +%.1f, blue +%.1f a pixel\n", changed,
                  changed ? dr / changed : 0, changed ? db / changed : 0);
    assert_true(changed > 200);
    assert_true(dr > db + 5.0 * changed);
    free(lit);
    free(dark);
    close_level(&L);
}

// FTENT_COLLIDEALL (TE_PROJECTILE): c1a0 made a two-player game; a projectile from the eye straight
// ahead at 500 u/s ends on player 2's box standing 100 units ahead (its near side: 84..100 units, as
// the egon's beams find it), flies through him when he is its owner and then ends on the brush entity
// further on (203 units: the world's wall is 796); a model with FTENT_COLLIDEWORLD (a TE_MODEL) is
// traced against the world only (PM_WORLD_ONLY) and passes that brush entity.
static void test_projectile_collideall(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float ends[3];
    for (int run = 0; run < 3; run++) {   // 0: player 2 in the way; 1: he is its owner; 2: nobody
        level_t L;
        open_c1a0(&L, 200);
        world_t *w = L.w;
        const bsp_t *b = L.r->bsp;
        assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
        int shell = model_index(w, "models/shell.mdl"), pm = model_index(w, "models/player.mdl");
        assert_true(shell > 0 && pm > 0);
        w->maxclients = 2;
        float y = w->view.angles[1] * (float)M_PI / 180;
        vec3_t dir = {cosf(y), sinf(y), 0}, start, vel;
        memcpy(start, w->view.origin, sizeof start);
        for (int k = 0; k < 3; k++)
            vel[k] = 500 * dir[k];
        entity_state_t st;
        entity_state_clear(&st);
        st.modelindex = run < 2 ? pm : 0;
        st.solid_type = HL_SOLID_SLIDEBOX;   // alive (a dead player is SOLID_NOT)
        for (int k = 0; k < 3; k++)
            st.origin[k] = start[k] + 100 * dir[k];
        assert_int_equal(world_entity_update(w, 2, &st), 0);
        world_decal_t *d = world_add_decal(w);
        d->te = 119;
        memcpy(d->pos, start, sizeof(vec3_t));
        memcpy(d->velocity, vel, sizeof(vec3_t));
        d->args[0] = shell;
        d->args[1] = 5;
        d->args[2] = run == 1 ? 2 : 0;   // owner 0: bound to 1, the recording player
        d->model = shell;
        d->seed = 77;
        if (run == 2) {   // a TE_MODEL thrown the same way, without gravity's effect over 0.5 s: it falls, so
            vec3_t lift = {vel[0], vel[1], 200};   // thrown up a little; COLLIDEWORLD: the world alone
            log_model(w, start, lift, shell, 0, 10);
        }
        double t0 = w->time;
        r_frame(L.r, w);
        hltent_draw_t dr[4];
        // the last moment it is alive, stepped frame by frame (1/100 s)
        double t = t0, last = t0;
        vec3_t at = {0, 0, 0};
        for (; t < t0 + 1.0; t += 0.01) {
            int n = hltent_list(L.r->hltent, b, t, dr, 4);
            int found = 0;
            for (int i = 0; i < n; i++)
                if (dr[i].ang[0] == 0 && fabsf(dr[i].org[2] - start[2]) < 1e-3f) {
                    found = 1;
                    memcpy(at, dr[i].org, sizeof at);
                }
            if (!found)
                break;
            last = t;
        }
        ends[run] = (at[0] - start[0]) * dir[0] + (at[1] - start[1]) * dir[1];
        print_message("projectile run %d: last seen %.2f s after, %.1f units ahead\n", run, last - t0, ends[run]);
        if (run == 2) {   // the TE_MODEL: still flying past the brush entity's wall at 0.5 s
            int n = hltent_list(L.r->hltent, b, t0 + 0.5, dr, 4);
            assert_int_equal(n, 1);
            float ahead_by = (dr[0].org[0] - start[0]) * dir[0] + (dr[0].org[1] - start[1]) * dir[1];
            print_message("TE_MODEL (COLLIDEWORLD) at 0.5 s: %.1f units ahead\n", ahead_by);
            assert_true(ahead_by > 230);
            // while the brush entity stands in its way: a line 0..32 units above the projectile's meets it
            for (int dz = 0; dz <= 32; dz += 16) {
                hlbullet_t line;
                memset(&line, 0, sizeof line);
                for (int k = 0; k < 3; k++) {
                    line.src[k] = start[k] + (k == 2 ? (float)dz : 0);
                    line.end[k] = line.src[k] + 400 * dir[k];
                }
                hlbullet_trace(b, w, &line);
                assert_true(line.model > 0);
            }
        }
        close_level(&L);
    }
    assert_true(ends[0] > 84 - 5 && ends[0] < 100);     // the box's near side (a step is 5 units)
    assert_true(ends[1] > 195 && ends[1] < 204);        // through its owner, on to the brush entity
    assert_true(ends[2] > 195 && ends[2] < 204);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounce_values),
        cmocka_unit_test(test_movevars_gravity),
        cmocka_unit_test(test_event_shells),
        cmocka_unit_test(test_golden_and_seek),
        cmocka_unit_test(test_glow_shell),
        cmocka_unit_test(test_model_light_colour),
        cmocka_unit_test(test_smoke_trail),
        cmocka_unit_test(test_flicker),
        cmocka_unit_test(test_projectile_collideall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
