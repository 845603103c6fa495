// test_goldsrc_rfx.c -- Half-Life's render fx on studio models in c1a0, drawn: kRenderFxDeadPlayer (a
// body drawn as the player its amount names), kRenderFxExplode (the model stretched along its y axis),
// and the fx whose phase is the entity number (two entities, the same fx, the same time)
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hlmodes.h"
#include "render/r_local.h"
#include "render/render.h"

extern const decoder_t hl_decoder;

#define TW 320
#define TH 200

#include "hl_level.h"

// The floor under p (a trace 512 units down).
static float floor_under(const bsp_t *b, const vec3_t p)
{
    vec3_t end = {p[0], p[1], p[2] - 512};
    bsp_trace_t tr;
    assert_int_equal(bsp_trace(b, b->models[0].headnode, p, end, &tr), 1);
    return tr.endpos[2];
}

// A studio entity added to the frame (the next free number): `model` standing on the floor `d`
// units ahead of the eye and `side` to its left, facing the eye. Its number in *num.
static world_entity_t *add_studio(level_t *L, int model, float d, float side, int *num)
{
    world_t *w = L->w;
    int n = w->num_entities;
    assert_true(n + 1 < WORLD_MAX_ENTITIES);
    world_entity_t *e = &w->entities[n];
    memset(e, 0, sizeof *e);
    entity_state_clear(&e->cur);
    e->cur.modelindex = model;
    ahead(w, d, side, 0, e->cur.origin);
    vec3_t p;
    memcpy(p, e->cur.origin, sizeof p);
    e->cur.origin[2] = floor_under(L->r->bsp, p);   // a monster's origin is at its feet
    e->cur.angles[1] = w->view.angles[1] + 180;
    memset(e->cur.controller, 127, 4);
    e->prev = e->cur;
    e->seq = w->seq;
    w->num_entities = n + 1;
    *num = n;
    return e;
}

// Where a point `dz` above an entity's origin lands on screen, and `r` units there in pixels.
static void on_screen(const r_view_t *v, const vec3_t org, float dz, float r, int *cx, int *cy, int *reach)
{
    float p[3] = {org[0] - v->vieworg[0], org[1] - v->vieworg[1], org[2] + dz - v->vieworg[2]};
    float z = p[0] * v->vpn[0] + p[1] * v->vpn[1] + p[2] * v->vpn[2];
    *cx = (int)(v->xcenter + v->xscale * (p[0] * v->vright[0] + p[1] * v->vright[1] + p[2] * v->vright[2]) / z);
    *cy = (int)(v->ycenter - v->yscale * (p[0] * v->vup[0] + p[1] * v->vup[1] + p[2] * v->vup[2]) / z);
    *reach = (int)(r * v->xscale / z);
}

// Pixels that differ between a and b, and of those how many lie outside the box (cx, cy) +- reach.
static int differ(const uint8_t *a, const uint8_t *b, int cx, int cy, int reach, int *outside)
{
    int n = 0, out = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            if (a[y * TW + x] == b[y * TW + x])
                continue;
            n++;
            out += abs(x - cx) > reach || abs(y - cy) > reach;
        }
    if (outside)
        *outside = out;
    return n;
}

// kRenderFxDeadPlayer: c1a0 has one client; a body (barney's monster model, as a body queue entity
// keeps the model it was given) with fx 20 and amount 1 is drawn with player 1's own model (gordon
// here), in the body's sequence (die_simple, its last frame) and place; an amount naming no player
// (0, or 2 past maxclients) draws nothing; without a model of his own, the player entity's model.
static void test_dead_player(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    assert_int_equal(w->maxclients, 1);
    snprintf(w->players[0].skin, sizeof w->players[0].skin, "gordon");
    r_frame(L.r, w);
    empty_frame(w);
    int barney = model_index(w, "models/barney.mdl");
    assert_int_equal(barney, 160);
    int n;
    world_entity_t *e = add_studio(&L, barney, 100, 0, &n);
    e->cur.origin[2] += 36;                       // a player's origin is his box's centre, 36 above his feet
    e->prev = e->cur;
    e->cur.sequence = e->prev.sequence = 18;      // the player models' die_simple
    e->cur.frame = e->prev.frame = 255;           // its end: lying
    double t = w->time;
    uint8_t *none = malloc(TW * TH), *own = malloc(TW * TH), *dead = malloc(TW * TH), *px = malloc(TW * TH);
    e->seq = 0;   // not in the frame
    render_at(L.r, w, t, none);
    e->seq = w->seq;
    render_at(L.r, w, t, own);   // fx 0: barney's model, in its own sequence 18
    e->cur.renderfx = e->prev.renderfx = HL_FX_DEAD_PLAYER;
    e->cur.renderamt = e->prev.renderamt = 1;
    render_at(L.r, w, t, dead);
    const char *out = "build/test_goldsrc_deadplayer.png";
    assert_int_equal(r_write_png(L.r, out), 0);
    tu_golden("goldsrc_deadplayer", out, "tests/golden/goldsrc/deadplayer.png", 0.01);
    int cx, cy, reach, outside;
    on_screen(&L.r->view, e->cur.origin, -20, 64, &cx, &cy, &reach);
    int drawn = differ(none, dead, cx, cy, reach, &outside);
    int unlike = differ(own, dead, cx, cy, reach, NULL);
    print_message("dead player: %d pixels drawn (%d outside the body's box), %d unlike barney's model there\n", drawn,
                  outside, unlike);
    assert_true(drawn > 300);
    assert_int_equal(outside, 0);
    assert_true(unlike > drawn / 2);
    // the body's own pose: another sequence (the player models' look_idle, standing) draws elsewhere
    e->cur.sequence = 0;
    render_at(L.r, w, t, px);
    int posed = differ(dead, px, cx, cy, reach * 2, NULL);
    print_message("dead player standing (sequence 0): %d pixels differ\n", posed);
    assert_true(posed > 300);
    e->cur.sequence = 18;
    // amounts naming no player: nothing at all
    e->cur.renderamt = 2;
    render_at(L.r, w, t, px);
    assert_int_equal(differ(none, px, cx, cy, reach, NULL), 0);
    e->cur.renderamt = 0;
    render_at(L.r, w, t, px);
    assert_int_equal(differ(none, px, cx, cy, reach, NULL), 0);
    // a player without a model of his own: the player entity's model (c1a0's player.mdl)
    int pm = model_index(w, "models/player.mdl");
    assert_true(pm > 0);
    assert_int_equal(w->entities[1].cur.modelindex, pm);
    w->players[0].skin[0] = 0;
    r_frame(L.r, w);
    e->cur.renderamt = 1;
    render_at(L.r, w, t, px);
    int fallback = differ(none, px, cx, cy, reach, &outside), other = differ(dead, px, cx, cy, reach, NULL);
    print_message("dead player 1 without his own model: %d pixels drawn (%d outside), %d unlike gordon's\n", fallback,
                  outside, other);
    assert_true(fallback > 300);
    assert_int_equal(outside, 0);
    assert_true(other > 100);
    free(none);
    free(own);
    free(dead);
    free(px);
    close_level(&L);
}

// Players' top / bottom colours (docs/goldsrc.md, "Player colours"): c1a0's one client says topcolor 30
// and bottomcolor 6 in his userinfo (the decoder keeps them); a second player standing 70 units ahead
// in gordon's model (his DM_Base texture's plate and suit ranges hue-replaced) drawn in those colours
// (the golden, looked at: the HEV suit orange) and in 160 / 100 (blue-green and green): the pixels
// differ, none outside his box; his body (kRenderFxDeadPlayer, amount 2) takes his colours too.
static void test_player_colours(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    assert_int_equal(w->players[0].top_color, 30);   // \topcolor\30 ... \bottomcolor\6 in the demo
    assert_int_equal(w->players[0].bottom_color, 6);
    w->maxclients = 2;
    w->players[1] = w->players[0];
    w->players[1].entity = 2;
    snprintf(w->players[1].skin, sizeof w->players[1].skin, "gordon");
    r_frame(L.r, w);
    empty_frame(w);
    int pm = model_index(w, "models/player.mdl");
    assert_true(pm > 0);
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = pm;
    ahead(w, 70, 0, 0, st.origin);
    vec3_t p;
    memcpy(p, st.origin, sizeof p);
    st.origin[2] = floor_under(L.r->bsp, p) + 36;
    st.angles[1] = w->view.angles[1] + 180;
    double t = w->time;
    uint8_t *none = malloc(TW * TH), *demo = malloc(TW * TH), *other = malloc(TW * TH);
    render_at(L.r, w, t, none);
    assert_int_equal(world_entity_update(w, 2, &st), 0);
    render_at(L.r, w, t, demo);
    const char *out = "build/test_goldsrc_player_colours.png";
    assert_int_equal(r_write_png(L.r, out), 0);
    tu_golden("goldsrc_player_colours", out, "tests/golden/goldsrc/player_colours.png", 0.01);
    w->players[1].top_color = 160;
    w->players[1].bottom_color = 100;
    r_frame(L.r, w);
    empty_frame(w);
    render_at(L.r, w, t, other);
    int cx, cy, reach, outside, outside2;
    on_screen(&L.r->view, st.origin, 0, 44, &cx, &cy, &reach);
    int drawn = differ(none, demo, cx, cy, reach, &outside);
    int recoloured = differ(demo, other, cx, cy, reach, &outside2);
    print_message("player 2 in 30 / 6: %d pixels drawn (%d outside his box); in 160 / 100: %d of them differ (%d outside)\n",
                  drawn, outside, recoloured, outside2);
    assert_true(drawn > 1000);
    assert_int_equal(outside, 0);
    assert_true(recoloured > drawn / 4);
    assert_int_equal(outside2, 0);
    // his body, lying where he stands (he is gone): the same two colour pairs
    w->entities[2].seq = 0;
    int n;
    world_entity_t *e = add_studio(&L, model_index(w, "models/barney.mdl"), 70, 0, &n);
    e->cur.origin[2] += 36;
    e->cur.renderfx = HL_FX_DEAD_PLAYER;
    e->cur.renderamt = 2;
    e->cur.sequence = 18;   // die_simple, its end: lying
    e->cur.frame = 255;
    e->prev = e->cur;
    render_at(L.r, w, t, other);
    w->players[1].top_color = 30;
    w->players[1].bottom_color = 6;
    r_frame(L.r, w);
    empty_frame(w);
    render_at(L.r, w, t, demo);
    int body = differ(none, demo, cx, cy, reach * 2, NULL), body_diff = differ(demo, other, cx, cy, reach * 2, &outside);
    print_message("his body: %d pixels drawn, %d differ between the two colour pairs (%d outside)\n", body, body_diff,
                  outside);
    assert_true(body > 300);
    assert_true(body_diff > body / 4);
    assert_int_equal(outside, 0);
    free(none);
    free(demo);
    free(other);
    close_level(&L);
}

// The bounding box (x0, y0, x1, y1) of the pixels where a and b differ; 0 when none.
static int diff_box(const uint8_t *a, const uint8_t *b, int box[4])
{
    box[0] = TW, box[1] = TH, box[2] = -1, box[3] = -1;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            if (a[y * TW + x] != b[y * TW + x]) {
                box[0] = x < box[0] ? x : box[0];
                box[1] = y < box[1] ? y : box[1];
                box[2] = x > box[2] ? x : box[2];
                box[3] = y > box[3] ? y : box[3];
            }
    return box[2] >= 0;
}

// kRenderFxExplode: the SDK's StudioFxTransform stretches the model's own y axis by 1 + 10 x (time -
// animtime), at most 2. The rule's values; then barney in c1a0, facing the eye (his y axis across
// the screen): at animtime = now he is drawn as without fx, 0.05 s later 1.5 times, from 0.1 s on
// twice as wide, as tall as before.
static void test_explode(void **state)
{
    (void)state;
    entity_state_t s;
    entity_state_clear(&s);
    s.animtime = 10.0f;
    assert_true(r_hl_explode_stretch(&s, 12.0) == 1.0f);   // fx 0: as is
    s.renderfx = HL_FX_EXPLODE;
    assert_true(r_hl_explode_stretch(&s, 10.0) == 1.0f);
    assert_true(fabsf(r_hl_explode_stretch(&s, 10.05) - 1.5f) < 1e-4f);
    assert_true(r_hl_explode_stretch(&s, 10.1) == 2.0f);
    assert_true(r_hl_explode_stretch(&s, 30.0) == 2.0f);
    assert_true(r_hl_explode_stretch(&s, 9.0) == 0.0f);    // an animtime ahead of the clock: flat, not mirrored
    s.animtime = NAN;
    assert_true(r_hl_explode_stretch(&s, 9.0) == 0.0f);
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(L.r, w);
    empty_frame(w);
    int n;
    world_entity_t *e = add_studio(&L, model_index(w, "models/barney.mdl"), 110, 0, &n);
    double t = w->time;
    float now = (float)w->server_time;   // the clock the models' animtime counts on, at time t
    uint8_t *none = malloc(TW * TH), *plain = malloc(TW * TH), *px = malloc(TW * TH);
    e->seq = 0;
    render_at(L.r, w, t, none);
    e->seq = w->seq;
    e->cur.animtime = now;
    render_at(L.r, w, t, plain);
    int b0[4], b[4];
    assert_true(diff_box(none, plain, b0));
    e->cur.renderfx = HL_FX_EXPLODE;
    render_at(L.r, w, t, px);
    assert_int_equal(differ(plain, px, 0, 0, TW, NULL), 0);   // no time since animtime: as without fx
    const float elapsed[3] = {0.05f, 0.1f, 1.0f}, want[3] = {1.5f, 2.0f, 2.0f};
    int width[3];
    for (int i = 0; i < 3; i++) {
        e->cur.animtime = now - elapsed[i];
        render_at(L.r, w, t, px);
        assert_true(diff_box(none, px, b));
        int w0 = b0[2] - b0[0] + 1, h0 = b0[3] - b0[1] + 1;
        width[i] = b[2] - b[0] + 1;
        int h = b[3] - b[1] + 1;
        print_message("explode %.2f s after animtime: %d x %d pixels (without: %d x %d), x %.2f wide\n",
                      (double)elapsed[i], width[i], h, w0, h0, (double)width[i] / w0);
        assert_true(fabs((double)width[i] / w0 - want[i]) < 0.2 * want[i]);
        assert_true(abs(h - h0) <= h0 / 10 + 1);
        if (i == 1) {
            const char *out = "build/test_goldsrc_explode.png";
            assert_int_equal(r_write_png(L.r, out), 0);
            tu_golden("goldsrc_explode", out, "tests/golden/goldsrc/explode.png", 0.01);
        }
    }
    assert_int_equal(width[1], width[2]);   // at most twice
    free(none);
    free(plain);
    free(px);
    close_level(&L);
}

// The engine's kRenderFxStrobeSlow (CL_FxBlend, Xash3D gl_rmain.c): on while 20 sin(4t + number x 363),
// truncated, is not negative.
static int strobe_slow_on(int num, double t)
{
    return (int)(20.0 * sin(t * 4.0 + (double)((float)num * 363.0f))) >= 0;
}

// The fx phase of studio models is their entity number: two barneys, additive (kRenderTransAdd, 255)
// with kRenderFxStrobeSlow, at times when the engine's formula has one on and the other off, are
// drawn so (before, the studio hook got entity 0 for every model: both on or both off).
static void test_studio_phase(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(L.r, w);
    empty_frame(w);
    int barney = model_index(w, "models/barney.mdl"), num[2];
    world_entity_t *e[2] = {add_studio(&L, barney, 120, 40, &num[0]), add_studio(&L, barney, 120, -40, &num[1])};
    assert_int_equal(num[1], num[0] + 1);
    uint8_t *none = malloc(TW * TH), *px = malloc(TW * TH);
    e[0]->seq = e[1]->seq = 0;
    double t0 = w->time;
    render_at(L.r, w, t0, none);
    int cx[2], cy[2], reach[2];
    for (int i = 0; i < 2; i++) {
        e[i]->seq = w->seq;
        e[i]->cur.rendermode = RM_ADDITIVE;
        e[i]->cur.renderamt = 255;
        e[i]->cur.renderfx = HL_FX_STROBE_SLOW;
        e[i]->prev = e[i]->cur;
        on_screen(&L.r->view, e[i]->cur.origin, 36, 40, &cx[i], &cy[i], &reach[i]);
    }
    // the first moments (1/100 s apart) when only the first, then only the second, is on
    int found[2] = {0, 0};
    for (int k = 0; k < 400 && !(found[0] && found[1]); k++) {
        double t = t0 + k * 0.01;
        int on0 = strobe_slow_on(num[0], t), on1 = strobe_slow_on(num[1], t);
        int only = on0 && !on1 ? 0 : on1 && !on0 ? 1 : -1;
        if (only < 0 || found[only])
            continue;
        found[only] = 1;
        render_at(L.r, w, t, px);
        int in[2];
        for (int i = 0; i < 2; i++) {
            int outside, all = differ(none, px, cx[i], cy[i], reach[i], &outside);
            in[i] = all - outside;
        }
        print_message("t + %.2f s: entity %d %s, entity %d %s: %d and %d pixels drawn in their boxes\n", k * 0.01,
                      num[0], on0 ? "on" : "off", num[1], on1 ? "on" : "off", in[0], in[1]);
        assert_true(in[only] > 200);
        assert_int_equal(in[1 - only], 0);
    }
    assert_true(found[0] && found[1]);
    free(none);
    free(px);
    close_level(&L);
}

// Players too: CL_FxBlend applies to them as to every entity (before, the player drawer ignored
// render modes). c1a0 made a two-player game; player 2 (entity 2, player.mdl), additive with
// kRenderFxStrobeSlow: drawn at a moment the formula has him on, nothing when off.
static void test_player_fx(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    w->maxclients = 2;
    r_frame(L.r, w);
    empty_frame(w);
    int pm = model_index(w, "models/player.mdl");
    assert_true(pm > 0);
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = pm;
    ahead(w, 120, 0, 0, st.origin);
    vec3_t p;
    memcpy(p, st.origin, sizeof p);
    st.origin[2] = floor_under(L.r->bsp, p) + 36;
    st.angles[1] = w->view.angles[1] + 180;
    uint8_t *none = malloc(TW * TH), *px = malloc(TW * TH);
    double t0 = w->time;
    render_at(L.r, w, t0, none);
    st.rendermode = RM_ADDITIVE;
    st.renderamt = 255;
    st.renderfx = HL_FX_STROBE_SLOW;
    assert_int_equal(world_entity_update(w, 2, &st), 0);
    int cx, cy, reach;
    on_screen(&L.r->view, st.origin, 0, 40, &cx, &cy, &reach);
    int seen[2] = {0, 0};
    for (int k = 0; k < 400 && !(seen[0] && seen[1]); k++) {
        double t = t0 + k * 0.01;
        int on = strobe_slow_on(2, t);
        if (seen[on])
            continue;
        seen[on] = 1;
        render_at(L.r, w, t, px);
        int outside, in = differ(none, px, cx, cy, reach, &outside);
        in -= outside;
        print_message("player 2 at t + %.2f s, strobe %s: %d pixels drawn in his box\n", k * 0.01, on ? "on" : "off",
                      in);
        if (on)
            assert_true(in > 200);
        else
            assert_int_equal(in, 0);
    }
    assert_true(seen[0] && seen[1]);
    free(none);
    free(px);
    close_level(&L);
}

// kRenderFxFadeFast drawn: an additive barney at amount 255 fades by 4 a client frame (72 a second)
// from the state's arrival (the world's previous frame; here made 0, 0.5 and 1 s before the time
// drawn): whole at once, dimmer half a second on (amount 111), gone after a second (0).
static void test_fade_drawn(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(L.r, w);
    empty_frame(w);
    int n;
    world_entity_t *e = add_studio(&L, model_index(w, "models/barney.mdl"), 110, 0, &n);
    e->cur.rendermode = RM_ADDITIVE;
    e->cur.renderamt = 255;
    e->cur.renderfx = HL_FX_FADE_FAST;
    e->prev = e->cur;
    uint8_t *none = malloc(TW * TH), *px = malloc(TW * TH), *first = malloc(TW * TH);
    int cx, cy, reach, drawn[3];
    for (int i = 0; i < 3; i++) {
        double t = w->time;
        w->prev_time = t - 0.5 * i;   // drawn at the last frame's time: the view and places as they are
        e->seq = 0;
        render_at(L.r, w, t, none);
        on_screen(&L.r->view, e->cur.origin, 36, 40, &cx, &cy, &reach);
        e->seq = w->seq;
        render_at(L.r, w, t, px);
        int outside;
        drawn[i] = differ(none, px, cx, cy, reach, &outside) - outside;
        print_message("fade fast %.1f s after the state came: %d pixels added in its box, %d unlike the first\n",
                      0.5 * i, drawn[i], i ? differ(first, px, cx, cy, reach, NULL) : 0);
        if (i == 0)
            memcpy(first, px, TW * TH);
        else if (i == 1)
            assert_true(differ(first, px, cx, cy, reach, NULL) > drawn[0] / 2);   // dimmer
    }
    assert_true(drawn[0] > 200);
    assert_true(drawn[1] > 100);
    assert_int_equal(drawn[2], 0);
    free(none);
    free(px);
    free(first);
    close_level(&L);
}

// A glow sprite (kRenderGlow): sprites/hotglow.spr, precached by c1a0, at the eye's height ahead,
// drawn additively at 19000 / d^2 of its amount with its scale d / 200, so that it keeps its size on
// screen and dims with distance: at 100 and 165 units (1, clamped, and 0.70). Golden glowsprite.png.
static void test_glow_sprite(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(L.r, w);
    empty_frame(w);
    int glow = model_index(w, "sprites/hotglow.spr");
    assert_int_equal(glow, 109);
    int n = w->num_entities;
    world_entity_t *e = &w->entities[n];
    memset(e, 0, sizeof *e);
    entity_state_clear(&e->cur);
    e->cur.modelindex = glow;
    e->cur.rendermode = RM_GLOW;
    e->cur.renderamt = 255;
    e->cur.rendercolor[0] = 255;
    e->cur.rendercolor[1] = 160;
    e->cur.rendercolor[2] = 60;
    e->seq = w->seq;
    w->num_entities = n + 1;
    uint8_t *none = malloc(TW * TH), *px = malloc(TW * TH);
    const uint8_t *pal = L.r->pal.palette;
    const float dist[2] = {100, 165};
    int width[2], changed[2];
    double gain[2];
    for (int i = 0; i < 2; i++) {
        ahead(w, dist[i], 0, 0, e->cur.origin);
        e->prev = e->cur;
        e->seq = 0;
        render_at(L.r, w, w->time, none);
        e->seq = w->seq;
        render_at(L.r, w, w->time, px);
        if (i == 0) {
            const char *out = "build/test_goldsrc_glowsprite.png";
            assert_int_equal(r_write_png(L.r, out), 0);
            tu_golden("goldsrc_glowsprite", out, "tests/golden/goldsrc/glowsprite.png", 0.01);
        }
        int box[4];
        assert_true(diff_box(none, px, box));
        width[i] = box[2] - box[0] + 1;
        changed[i] = differ(none, px, 0, 0, TW, NULL);
        long g = 0;
        int darker = 0;
        for (int k = 0; k < TW * TH; k++) {
            int d = 0;
            for (int c = 0; c < 3; c++)
                d += pal[px[k] * 3 + c] - pal[none[k] * 3 + c];
            g += d;
            darker += d < -24;   // added light never darkens (beyond the palette's rounding)
        }
        gain[i] = (double)g / (changed[i] > 0 ? changed[i] : 1);
        print_message("glow sprite %.0f units ahead: %d pixels changed, %d wide, mean gain %.1f (r+g+b), %d darker\n",
                      (double)dist[i], changed[i], width[i], gain[i], darker);
        assert_true(changed[i] > 100);
        assert_int_equal(darker, 0);
    }
    assert_true(abs(width[0] - width[1]) <= width[0] / 5 + 1);   // the same size on screen
    assert_true(gain[1] < gain[0] * 0.85);   // dimmer (0.70 of the amount, give or take the palette)
    free(none);
    free(px);
    close_level(&L);
}

// The low additive levels on a real palette (c1a0's): what each adds to a pixel on the mean, over the
// colours that do not saturate (every channel under 192), for the level's brightest colour, against
// the level's share of it (the palette's error: the 5-bit cells and the nearest colour's distance).
static void test_low_levels_c1a0(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    const uint8_t *pal = L.r->pal.palette;
    const r_hlmodes_t *hl = L.r->hl;
    int bright = 0;
    for (int i = 0; i < 255; i++)
        bright = pal[i * 3] + pal[i * 3 + 1] + pal[i * 3 + 2] > pal[bright * 3] + pal[bright * 3 + 1] + pal[bright * 3 + 2]
                     ? i : bright;
    int bsum = pal[bright * 3] + pal[bright * 3 + 1] + pal[bright * 3 + 2];
    for (int l = 0; l <= HL_ADD_LOW; l++) {
        long added = 0;
        int count = 0;
        for (int d = 0; d < 255; d++) {
            if (pal[d * 3] >= 192 || pal[d * 3 + 1] >= 192 || pal[d * 3 + 2] >= 192)
                continue;
            int o = hl->add[l][bright * 256 + d];
            added += pal[o * 3] + pal[o * 3 + 1] + pal[o * 3 + 2] - (pal[d * 3] + pal[d * 3 + 1] + pal[d * 3 + 2]);
            count++;
        }
        double mean = (double)added / count, want = bsum * r_hl_add_frac(l) / 256.0;
        print_message("c1a0 add level %d/256: colour %d (r+g+b %d) adds %.1f on the mean over %d pixels, %.1f wanted\n",
                      r_hl_add_frac(l), bright, bsum, mean, count, want);
        // 1/8 .. 1/4 within 30 % (+3) of the share; 1/64 (+4 a channel at most) mostly rounds back to the
        // pixel's own colour here (1.1 of 12): amounts 3..5 are all but invisible on this palette
        if (l >= 1)
            assert_true(fabs(mean - want) < want * 0.3 + 3);
        else
            assert_true(mean >= 0 && mean <= want);
    }
    close_level(&L);
}

// Low additive amounts (issue 14): Counter-Strike's wall puffs and gun smoke add 3..46 / 255 of their
// texture. The same glow sprite (hotglow.spr, kRenderTransAdd, 100 units ahead) at amounts 64 (1/4),
// 16 (the 1/16 table) and 2 (below the 1/64 level: not drawn): the light it adds (r+g+b summed over the
// screen) at 16 is about a quarter of that at 64; before the low levels 16 was drawn at 1/4 too.
static void test_low_additive(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(L.r, w);
    empty_frame(w);
    int glow = model_index(w, "sprites/hotglow.spr");
    assert_int_equal(glow, 109);
    int n = w->num_entities;
    world_entity_t *e = &w->entities[n];
    memset(e, 0, sizeof *e);
    entity_state_clear(&e->cur);
    e->cur.modelindex = glow;
    e->cur.rendermode = RM_ADDITIVE;
    e->cur.rendercolor[0] = e->cur.rendercolor[1] = e->cur.rendercolor[2] = 255;
    e->seq = w->seq;
    w->num_entities = n + 1;
    ahead(w, 100, 0, 0, e->cur.origin);
    uint8_t *none = malloc(TW * TH), *px = malloc(TW * TH);
    const uint8_t *pal = L.r->pal.palette;
    e->seq = 0;
    render_at(L.r, w, w->time, none);
    const int amount[3] = {64, 16, 2};
    long gain[3];
    int changed[3];
    for (int i = 0; i < 3; i++) {
        e->cur.renderamt = amount[i];
        e->prev = e->cur;
        e->seq = w->seq;
        render_at(L.r, w, w->time, px);
        if (i == 1)
            assert_int_equal(r_write_png(L.r, "build/test_goldsrc_low_additive.png"), 0);
        gain[i] = 0;
        for (int k = 0; k < TW * TH; k++)
            for (int c = 0; c < 3; c++)
                gain[i] += pal[px[k] * 3 + c] - pal[none[k] * 3 + c];
        changed[i] = differ(none, px, 0, 0, TW, NULL);
        print_message("additive sprite at amount %d: %d pixels changed, r+g+b added %ld\n", amount[i], changed[i],
                      gain[i]);
    }
    assert_true(changed[0] > 100 && gain[0] > 0);
    assert_true(changed[1] > 50 && gain[1] > 0);              // drawn, and brighter than nothing
    assert_true(gain[1] * 5 < gain[0] * 2);                    // 1/16 against 1/4: well under half
    assert_true(gain[1] * 8 > gain[0]);                        // and not vanishingly dim (1/4 of it, give or take)
    assert_int_equal(changed[2], 0);                           // amount 2: nothing
    free(none);
    free(px);
    close_level(&L);
}

// kRenderFxDistort / Hologram's transform jitter (the SDK's StudioFxTransform): a frame jitters when
// RandomLong(0, 49) is 0 (an axis scaled 1..1.484) or else when a second one is (moved -10..10), so
// 1/50 + 49/50 x 1/50 = 3.96 % of the frames; here the numbers are a hash of the entity and the
// 1/72 s frame: over 7200 frames about 285 jitter, the same moment always the same.
static void test_distort_jitter(void **state)
{
    (void)state;
    entity_state_t s;
    entity_state_clear(&s);
    float sc[3] = {7, 7, 7}, mv[3] = {7, 7, 7};
    s.renderfx = HL_FX_GLOW_SHELL;
    for (int i = 0; i < 7200; i++)
        assert_int_equal(r_hl_fx_jitter(&s, 5, i / 72.0, sc, mv), 0);   // other fx: never
    assert_true(sc[0] == 7 && mv[0] == 7);
    static const int fx[2] = {HL_FX_DISTORT, HL_FX_HOLOGRAM};
    for (int f = 0; f < 2; f++) {
        s.renderfx = fx[f];
        int jit = 0, scaled = 0, moved = 0, same_as_5 = 0;
        for (int i = 0; i < 7200; i++) {
            double t = 1000.0 + (i + 0.25) / 72.0;
            if (!r_hl_fx_jitter(&s, 5, t, sc, mv))
                continue;
            jit++;
            int ns = 0, nm = 0;
            for (int k = 0; k < 3; k++) {
                assert_true(sc[k] >= 1.0f && sc[k] <= 1.484f);
                assert_true(mv[k] >= -10.0f && mv[k] <= 10.0f);
                ns += sc[k] != 1.0f;
                nm += mv[k] != 0.0f;
            }
            assert_int_equal(ns + nm, 1);   // one axis scaled, or one moved
            assert_true(sc[1] == 1.0f);     // the scale takes world x or z, never y
            scaled += ns;
            moved += nm;
            // the same moment (anywhere in its 1/72 s frame) jitters the same; another entity mostly not
            float sc2[3], mv2[3];
            assert_int_equal(r_hl_fx_jitter(&s, 5, t + 0.5 / 72.0, sc2, mv2), 1);
            assert_memory_equal(sc, sc2, sizeof sc);
            assert_memory_equal(mv, mv2, sizeof mv);
            same_as_5 += r_hl_fx_jitter(&s, 6, t, sc2, mv2);
        }
        print_message("fx %d: %d of 7200 frames jitter (%d scaled, %d moved; expected 285), entity 6 in %d of them\n",
                      fx[f], jit, scaled, moved, same_as_5);
        assert_true(jit >= 235 && jit <= 335);
        assert_true(scaled >= 100 && scaled <= 190 && moved >= 100 && moved <= 190);
        assert_true(same_as_5 < jit / 4);
    }
    assert_int_equal(r_hl_fx_jitter(&s, 5, NAN, sc, mv), 0);
    assert_int_equal(r_hl_fx_jitter(&s, 5, INFINITY, sc, mv), 0);

    // drawn: barney (normal mode, so the amount's noise does not show) with kRenderFxDistort in c1a0
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(L.r, w);
    empty_frame(w);
    int n;
    world_entity_t *e = add_studio(&L, model_index(w, "models/barney.mdl"), 110, 0, &n);
    e->seq = w->seq;
    e->cur.animtime = (float)w->server_time;
    e->cur.renderfx = HL_FX_DISTORT;
    int64_t f0 = (int64_t)floor(w->time * 72.0);
    double t_plain = -1, t_scaled = -1, t_moved = -1;
    for (int64_t f = f0; f < f0 + 5000 && (t_plain < 0 || t_scaled < 0 || t_moved < 0); f++) {
        double t = ((double)f + 0.5) / 72.0;
        if (!r_hl_fx_jitter(&e->cur, n, t, sc, mv)) {
            if (t_plain < 0)
                t_plain = t;
        } else if (sc[0] > 1.3f || sc[2] > 1.3f) {
            if (t_scaled < 0)
                t_scaled = t;
        } else if (fabsf(mv[0]) + fabsf(mv[1]) + fabsf(mv[2]) > 6.0f && t_moved < 0) {
            t_moved = t;
        }
    }
    assert_true(t_plain > 0 && t_scaled > 0 && t_moved > 0);
    r_hl_fx_jitter(&e->cur, n, t_scaled, sc, mv);
    print_message("entity %d: frame %.0f scaled (%.3f %.3f %.3f),", n, t_scaled * 72.0 - 0.5, (double)sc[0],
                  (double)sc[1], (double)sc[2]);
    r_hl_fx_jitter(&e->cur, n, t_moved, sc, mv);
    print_message(" frame %.0f moved (%.2f %.2f %.2f); eye yaw %.1f\n", t_moved * 72.0 - 0.5, (double)mv[0],
                  (double)mv[1], (double)mv[2], (double)w->view.angles[1]);
    uint8_t *plain = malloc(TW * TH), *px = malloc(TW * TH), *again = malloc(TW * TH);
    const double ts[3] = {t_plain, t_scaled, t_moved};
    int changed[3];
    for (int i = 0; i < 3; i++) {
        e->cur.renderfx = 0;
        e->prev = e->cur;
        render_at(L.r, w, ts[i], plain);
        e->cur.renderfx = HL_FX_DISTORT;
        e->prev = e->cur;
        render_at(L.r, w, ts[i], px);
        changed[i] = differ(plain, px, 0, 0, TW, NULL);
        render_at(L.r, w, ts[(i + 1) % 3], again);   // another moment between
        render_at(L.r, w, ts[i], again);
        assert_memory_equal(px, again, TW * TH);      // the same moment, the same picture
        if (i == 1) {
            const char *out = "build/test_goldsrc_distort.png";
            assert_int_equal(r_write_png(L.r, out), 0);
            tu_golden("goldsrc_distort", out, "tests/golden/goldsrc/distort.png", 0.01);
        }
    }
    print_message("distort: %d pixels changed at a plain frame, %d at a scaled one, %d at a moved one\n",
                  changed[0], changed[1], changed[2]);
    assert_int_equal(changed[0], 0);
    assert_true(changed[1] > 100);
    assert_true(changed[2] > 100);
    free(plain);
    free(px);
    free(again);
    close_level(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dead_player),
        cmocka_unit_test(test_player_colours),
        cmocka_unit_test(test_explode),
        cmocka_unit_test(test_studio_phase),
        cmocka_unit_test(test_player_fx),
        cmocka_unit_test(test_fade_drawn),
        cmocka_unit_test(test_glow_sprite),
        cmocka_unit_test(test_low_levels_c1a0),
        cmocka_unit_test(test_low_additive),
        cmocka_unit_test(test_distort_jitter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
