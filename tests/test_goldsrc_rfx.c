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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dead_player),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
