// test_goldsrc_monster.c -- the monsters' boxes in the clients' traces: the decoder's solid type,
// owner and box (entity_state_t solid_type, owner, box_mins / box_maxs) on the real demos, and the
// bullets, tracers, decals, crossbow, gauss and projectiles of engine/hlbullet.c stopping on them
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hlbullet.h"
#include "engine/hltent.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hldecal.h"
#include "render/r_hlfx.h"
#include "render/r_models.h"
#include "render/render.h"

#define TW 320
#define TH 200
#include "hl_level.h"   // open_c1a0, close_level, model_index

// Every entity of a demo that is, in some frame, one of the client's box physents (a non-player
// with SOLID_BBOX or SOLID_SLIDEBOX and a box), and how many entities had any solid type at all.
typedef struct {
    int boxes, slidebox, bbox, bsp, frames;
    int brush_by_type[8];       // visible brush entities by solid type
    int first[8];               // the first few such entities
    int frame[8];               // the frame each is first seen in
    char model[8][64];
    float mins[8][3], maxs[8][3];
} census_t;

static void census(const char *rel, census_t *c)
{
    memset(c, 0, sizeof *c);
    size_t size = 0;
    uint8_t *data = tu_read(tu_data(rel), &size);
    assert_non_null(data);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    static uint8_t seen[WORLD_MAX_ENTITIES], solid_seen[WORLD_MAX_ENTITIES];
    memset(seen, 0, sizeof seen);
    memset(solid_seen, 0, sizeof solid_seen);
    while (hl_decoder.read_frame(st, w, &err) > 0) {
        c->frames++;
        for (int i = w->maxclients + 1; i < w->num_entities; i++) {
            const entity_state_t *s = &w->entities[i].cur;
            if (!world_entity_visible(w, i) || s->solid || s->modelindex <= 0)
                continue;
            if (!solid_seen[i]) {
                solid_seen[i] = 1;
                c->bsp += s->solid_type == HL_SOLID_BSP;
                if (s->modelindex < w->num_models && w->models[s->modelindex][0] == '*') {
                    c->brush_by_type[s->solid_type & 7]++;
                    if (s->solid_type != HL_SOLID_BSP)
                        printf("  brush entity %d %s: solid %d skin %d rendermode %d amt %d\n", i, w->models[s->modelindex],
                               s->solid_type, s->skin, s->rendermode, s->renderamt);
                }
            }
            int box = (s->solid_type == HL_SOLID_BBOX || s->solid_type == HL_SOLID_SLIDEBOX) &&
                      (s->box_mins[0] || s->box_mins[1] || s->box_mins[2] || s->box_maxs[0] || s->box_maxs[1] ||
                       s->box_maxs[2]);
            if (!box || seen[i])
                continue;
            seen[i] = 1;
            if (c->boxes < 8) {
                c->first[c->boxes] = i;
                c->frame[c->boxes] = c->frames;
                snprintf(c->model[c->boxes], sizeof c->model[0], "%s",
                         s->modelindex < w->num_models ? w->models[s->modelindex] : "?");
                memcpy(c->mins[c->boxes], s->box_mins, sizeof c->mins[0]);
                memcpy(c->maxs[c->boxes], s->box_maxs, sizeof c->maxs[0]);
            }
            c->boxes++;
            c->slidebox += s->solid_type == HL_SOLID_SLIDEBOX;
            c->bbox += s->solid_type == HL_SOLID_BBOX;
        }
    }
    printf("%s: %d frames; %d entities with a box (%d SOLID_SLIDEBOX, %d SOLID_BBOX), %d SOLID_BSP\n", rel, c->frames,
           c->boxes, c->slidebox, c->bbox, c->bsp);
    printf("  brush entities by solid type: not %d, trigger %d, bbox %d, slidebox %d, bsp %d\n", c->brush_by_type[0],
           c->brush_by_type[1], c->brush_by_type[2], c->brush_by_type[3], c->brush_by_type[4]);
    for (int i = 0; i < c->boxes && i < 8; i++)
        printf("  entity %d %s (frame %d on): %g %g %g .. %g %g %g\n", c->first[i], c->model[i], c->frame[i], c->mins[i][0], c->mins[i][1],
               c->mins[i][2], c->maxs[i][0], c->maxs[i][1], c->maxs[i][2]);
    hl_decoder.close(st);
    free(st);
    world_free(w);
    free(data);
}

static void test_census(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    census_t c;
    census("goldsrc/demos/valve_c1a0.dem", &c);
    // c1a0: a barney and three scientists, each with the human hull the SDK gives them
    // (VEC_HUMAN_HULL_MIN / MAX, -16 -16 0 .. 16 16 72), SOLID_SLIDEBOX (MOVETYPE_STEP monsters)
    assert_int_equal(c.boxes, 4);
    assert_int_equal(c.slidebox, 4);
    assert_int_equal(c.bsp, 17);
    static const int nums[4] = {63, 75, 82, 92};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(c.first[i], nums[i]);
        assert_string_equal(c.model[i], i ? "models/scientist.mdl" : "models/barney.mdl");
        assert_float_equal(c.mins[i][0], -16, 0);
        assert_float_equal(c.mins[i][2], 0, 0);
        assert_float_equal(c.maxs[i][1], 16, 0);
        assert_float_equal(c.maxs[i][2], 72, 0);
    }
    assert_int_equal(c.brush_by_type[HL_SOLID_NOT], 1);
    census("goldsrc/demos/cstrike_crossfire.dem", &c);
    // crossfire: no monsters; its four SOLID_NOT brush entities are ladders (skin -16, CONTENTS_LADDER)
    assert_int_equal(c.boxes, 0);
    assert_int_equal(c.bsp, 19);
    assert_int_equal(c.brush_by_type[HL_SOLID_NOT], 4);
}

// The recording player of c1a0 as decoded: SOLID_SLIDEBOX with the standing hull (the baseline's
// -16 -16 -36 .. 16 16 36), owner 0.
static void test_player_decoded(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    const entity_state_t *p = &L.w->entities[1].cur;
    printf("c1a0 player 1: solid %d owner %d box %g %g %g .. %g %g %g\n", p->solid_type, p->owner, p->box_mins[0],
           p->box_mins[1], p->box_mins[2], p->box_maxs[0], p->box_maxs[1], p->box_maxs[2]);
    assert_int_equal(p->solid_type, HL_SOLID_SLIDEBOX);
    assert_int_equal(p->solid, 0);
    assert_float_equal(p->box_mins[2], -36, 0);
    assert_float_equal(p->box_maxs[2], 36, 0);
    assert_float_equal(p->box_maxs[0], 16, 0);
    close_level(&L);
}

// ---- c1a0's scientist in the way ------------------------------------------------------------

#define SCI 75   // c1a0's entity 75: models/scientist.mdl, seen from frame 5 on

static float dist(const float *a, const float *b)
{
    return sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

// An event of the recording player (entity 1) from his eye along the view turned by yaw.
static world_decal_t *event(world_t *w, const char *script, float yaw, uint32_t seed)
{
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "%s", script);
    ev->entity = 1;
    ev->local = 1;
    ev->seed = seed;
    ev->eye_valid = 1;
    memcpy(ev->eye, w->view.origin, sizeof ev->eye);
    ev->eye_angles[0] = 0;
    ev->eye_angles[1] = w->view.angles[1] + yaw;
    return ev;
}

// The scientist as c1a0 decoded him (his type and box checked), stood `along` units out on the
// line from the eye turned by yaw (his middle at the eye's height), `aside` units to its left.
static entity_state_t decoded_sci;   // his state as decoded (kept before the tests change it)
static int decoded_sci_ok;

static entity_state_t place_scientist(world_t *w, float yaw, float along, float aside)
{
    assert_true(SCI < w->num_entities);
    if (!decoded_sci_ok) {
        decoded_sci = w->entities[SCI].cur;
        decoded_sci_ok = 1;
    }
    entity_state_t st = decoded_sci;
    assert_string_equal(w->models[st.modelindex], "models/scientist.mdl");
    assert_int_equal(st.solid_type, HL_SOLID_SLIDEBOX);
    static const float mins[3] = {-16, -16, 0}, maxs[3] = {16, 16, 72};
    for (int k = 0; k < 3; k++) {
        assert_float_equal(st.box_mins[k], mins[k], 0);
        assert_float_equal(st.box_maxs[k], maxs[k], 0);
    }
    assert_int_equal(st.owner, 0);
    float y = (w->view.angles[1] + yaw) * (float)M_PI / 180;
    st.origin[0] = w->view.origin[0] + along * cosf(y) - aside * sinf(y);
    st.origin[1] = w->view.origin[1] + along * sinf(y) + aside * cosf(y);
    st.origin[2] = w->view.origin[2] - 36;
    assert_int_equal(world_entity_update(w, SCI, &st), 0);
    return st;
}

// c1a0 at frame 40 (as test_bullet_player): the glock shot 90 degrees left of the view meets the
// metal wall 102 units out. c1a0's scientist put 60 units along it stops the bullet where it
// enters his box (b.monster his number, no model, no decal); moved 40 units aside, off the line,
// he lets it reach the wall (its decal). Neither does he stop it when he is the recording player's
// own (owner 1), not solid (SOLID_NOT, as a dead monster is), a dead body's box (z 0 .. 1) or a
// trigger. The mp5's tracer bullet ends on him too.
static void test_bullet_monster(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    const bsp_t *bsp = L.r->bsp;
    hlbullet_t b[HLBULLET_MAX];
    int kind;
    entity_state_t st = place_scientist(w, 90, 0, 400);   // far off the line first
    assert_int_equal(hlbullet_fire(bsp, w, event(w, "glock1", 90, 777), NULL, b, HLBULLET_MAX, &kind), 1);
    assert_int_equal(b[0].model, 0);
    assert_int_equal(b[0].monster, 0);
    float wall = dist(b[0].src, b[0].endpos);
    printf("glock 90 left: the wall %.1f units out, decal %d\n", wall, b[0].decal);
    assert_true(wall > 90 && wall < 110);
    assert_true(b[0].decal >= 1);
    st = place_scientist(w, 90, 60, 0);
    assert_int_equal(hlbullet_fire(bsp, w, event(w, "glock1", 90, 777), NULL, b, HLBULLET_MAX, &kind), 1);
    float d = dist(b[0].src, b[0].endpos);
    printf("the scientist 60 units out on the line: monster %d player %d model %d at %.1f units, decal %d\n",
           b[0].monster, b[0].player, b[0].model, d, b[0].decal);
    assert_int_equal(b[0].monster, SCI);
    assert_int_equal(b[0].player, 0);
    assert_int_equal(b[0].model, -1);
    assert_int_equal(b[0].entity, -1);
    assert_int_equal(b[0].decal, 0);
    assert_true(d >= 60 - 16 * 1.4143f - 0.01f && d <= 60 - 16 + 0.01f);
    // the mp5's first bullet is a tracer (no decal): it ends on him too
    hlbullet_t t[HLBULLET_MAX];
    assert_int_equal(hlbullet_fire(bsp, w, event(w, "mp5", 90, 777), NULL, t, HLBULLET_MAX, &kind), 1);
    assert_int_equal(t[0].tracer, 1);
    assert_int_equal(t[0].monster, SCI);
    assert_true(fabsf(dist(t[0].src, t[0].endpos) - d) < 0.01f);
    // off the line; his own; not solid; a dead body's box; a trigger
    for (int c = 0; c < 5; c++) {
        st = place_scientist(w, 90, 60, c == 0 ? 40 : 0);
        if (c == 1)
            st.owner = w->playernum + 1;
        if (c == 2)
            st.solid_type = HL_SOLID_NOT;
        if (c == 3) {
            st.box_mins[2] = 0;
            st.box_maxs[2] = 1;
            st.origin[2] += 36;   // the line through it
        }
        if (c == 4)
            st.solid_type = HL_SOLID_TRIGGER;
        assert_int_equal(world_entity_update(w, SCI, &st), 0);
        assert_int_equal(hlbullet_fire(bsp, w, event(w, "glock1", 90, 777), NULL, b, HLBULLET_MAX, &kind), 1);
        printf("  case %d: monster %d, %.1f units out, decal %d\n", c, b[0].monster, dist(b[0].src, b[0].endpos),
               b[0].decal);
        assert_int_equal(b[0].monster, 0);
        assert_int_equal(b[0].model, 0);
        assert_true(fabsf(dist(b[0].src, b[0].endpos) - wall) < 0.01f);
        assert_true(b[0].decal >= 1);
    }
    // a SOLID_BBOX one stops it as SOLID_SLIDEBOX does
    st = place_scientist(w, 90, 60, 0);
    st.solid_type = HL_SOLID_BBOX;
    assert_int_equal(world_entity_update(w, SCI, &st), 0);
    assert_int_equal(hlbullet_fire(bsp, w, event(w, "glock1", 90, 777), NULL, b, HLBULLET_MAX, &kind), 1);
    assert_int_equal(b[0].monster, SCI);
    close_level(&L);
}

// The decals the renderer places for a glock event (r_hldecal.c through hlbullet_fire): none on
// the scientist in the way, one on the wall when he stands aside.
static int decals_of_shot(level_t *L, float aside)
{
    world_t *w = L->w;
    w->decal_log_count = 0;
    r_clear_transients(L->r, 1);
    empty_frame(w);
    place_scientist(w, 90, 60, aside);
    r_frame(L->r, w);
    int n0 = r_hldecal_count(L->r);
    event(w, "glock1", 90, 777);
    r_frame(L->r, w);
    return r_hldecal_count(L->r) - n0;
}

static void test_decal_monster(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    int on = decals_of_shot(&L, 0), off = decals_of_shot(&L, 40);
    printf("glock decals: the scientist on the line %d, aside %d\n", on, off);
    assert_int_equal(on, 0);
    assert_int_equal(off, 1);
    close_level(&L);
}

// The zoomed crossbow (EV_FireCrossbow2): the scientist on the line is "something organic" (not
// SOLID_BSP): HLTENT_BOLT_BODY where his box begins; aside, the wall (HLTENT_BOLT_WALL).
static void test_crossbow_monster(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    hlbullet_t b;
    vec3_t fwd;
    place_scientist(w, 90, 60, 0);
    int on = hltent_crossbow_hit(L.r->bsp, w, event(w, "crossbow2", 90, 5), &b, fwd);
    float d_on = dist(b.src, b.endpos);
    assert_int_equal(b.monster, SCI);
    place_scientist(w, 90, 60, 40);
    int off = hltent_crossbow_hit(L.r->bsp, w, event(w, "crossbow2", 90, 5), &b, fwd);
    float d_off = dist(b.src, b.endpos);
    printf("crossbow: the scientist on the line %d at %.1f units, aside %d at %.1f\n", on, d_on, off, d_off);
    assert_int_equal(on, HLTENT_BOLT_BODY);
    assert_true(d_on >= 60 - 16 * 1.4143f - 0.01f && d_on <= 60 - 16 + 0.01f);
    assert_int_equal(off, HLTENT_BOLT_WALL);
    assert_true(d_off > 90);
    close_level(&L);
}

// A dead player is SOLID_NOT (his entity state says so, entity_state_player_t's solid): the
// clients leave him out of their traces (Xash3D FWGS CL_SetSolidPlayers). A second player 60
// units along the glock shot stops it alive (SOLID_SLIDEBOX), not dead.
static void test_dead_player(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    w->maxclients = 2;
    hlbullet_t b[HLBULLET_MAX];
    int kind;
    float stop[2];
    for (int dead = 0; dead < 2; dead++) {
        entity_state_t st = w->entities[1].cur;   // the recording player's, as decoded: SOLID_SLIDEBOX
        assert_int_equal(st.solid_type, HL_SOLID_SLIDEBOX);
        if (dead)
            st.solid_type = HL_SOLID_NOT;
        float y = (w->view.angles[1] + 90) * (float)M_PI / 180;
        st.origin[0] = w->view.origin[0] + 60 * cosf(y);
        st.origin[1] = w->view.origin[1] + 60 * sinf(y);
        st.origin[2] = w->view.origin[2];
        assert_int_equal(world_entity_update(w, 2, &st), 0);
        assert_int_equal(hlbullet_fire(L.r->bsp, w, event(w, "glock1", 90, 777), NULL, b, HLBULLET_MAX, &kind), 1);
        stop[dead] = dist(b[0].src, b[0].endpos);
        printf("player 2 %s on the line: player %d, %.1f units out\n", dead ? "dead" : "alive", b[0].player, stop[dead]);
        assert_int_equal(b[0].player, dead ? 0 : 2);
    }
    assert_true(stop[0] >= 60 - 16 * 1.4143f - 0.01f && stop[0] <= 60 - 16 + 0.01f);
    assert_true(fabsf(stop[1] - 102.0f) < 0.5f);
    close_level(&L);
}

// A gauss event of the recording player from his eye, the view turned by yaw: the beams' legs
// (their starts and ends as units out along the line) and the decals it places.
static int gauss_shot(level_t *L, float yaw, float damage, int primary, float at[][2], int *legs)
{
    world_t *w = L->w;
    w->decal_log_count = 0;
    r_clear_transients(L->r, 1);
    empty_frame(w);
    r_frame(L->r, w);
    int n0 = r_hldecal_count(L->r);
    world_decal_t *ev = event(w, "gauss", yaw, 99);
    ev->fparam[0] = damage;
    ev->args[2] = primary;
    r_frame(L->r, w);
    r_hlbeam_t b[16];
    *legs = r_hlfx_beams(r_models_hlfx(L->r->models), w->time + 0.01, b, 16);
    float y = (w->view.angles[1] + yaw) * (float)M_PI / 180, dir[3] = {cosf(y), sinf(y), 0};
    const float *eye = w->view.origin;
    for (int i = 0; i < *legs && i < 4; i++)
        for (int j = 0; j < 2; j++) {
            const float *p = j ? b[i].end : b[i].start;
            at[i][j] = (p[0] - eye[0]) * dir[0] + (p[1] - eye[1]) * dir[1] + (p[2] - eye[2]) * dir[2];
        }
    return r_hldecal_count(L->r) - n0;
}

// The gauss (EV_FireGauss) with c1a0's scientist (frame 150, the view turned 30 degrees: the
// world's wall head on 146.9 units out, 155 thick, the next wall beyond it about 510 further).
// Primary fire: the scientist 60 units out ends the beam on his box (one leg, no decal); aside it
// reaches the wall (its decal). Secondary fire at 400: through the wall, out 155 units on, to the
// next wall (two legs; the entry's, the exit's and the far wall's decals: 7 decal pieces). With the scientist
// standing 100 units past the way out, the client's trace back from the far wall (the players and
// monsters solid) stops on his far side: the shot comes out there (the second leg starts 1 unit
// past his box) and leaves no decal at the way out.
static void test_gauss_monster(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 150);
    world_t *w = L.w;
    world_set_model(w, w->num_models, "sprites/hotglow.spr");
    r_frame(L.r, w);
    float at[4][2];
    int legs;
    place_scientist(w, 30, 0, 400);
    int decals = gauss_shot(&L, 30, 50, 1, at, &legs);
    printf("gauss primary, nobody: %d leg(s) to %.1f, %d decal(s)\n", legs, legs ? at[0][1] : 0, decals);
    assert_int_equal(legs, 1);
    assert_true(fabsf(at[0][1] - 146.9f) < 0.5f);
    assert_true(decals >= 1);
    place_scientist(w, 30, 60, 0);
    decals = gauss_shot(&L, 30, 50, 1, at, &legs);
    uint8_t *px = malloc(TW * TH);
    assert_non_null(px);
    render_at(L.r, w, w->time + 0.01, px);
    free(px);
    assert_int_equal(r_write_png(L.r, "build/rel/tests/goldsrc_monster_gauss.png"), 0);   // looked at
    printf("gauss primary, the scientist 60 out: %d leg(s) to %.1f, %d decal(s)\n", legs, legs ? at[0][1] : 0, decals);
    assert_int_equal(legs, 1);
    assert_true(at[0][1] >= 60 - 16 * 1.4143f - 0.1f && at[0][1] <= 60 - 16 + 0.1f);
    assert_int_equal(decals, 0);
    // secondary through the wall
    place_scientist(w, 30, 0, 400);
    int through = gauss_shot(&L, 30, 400, 0, at, &legs);
    printf("gauss secondary, nobody: %d leg(s)", legs);
    for (int i = 0; i < legs && i < 4; i++)
        printf("; %.1f -> %.1f", at[i][0], at[i][1]);
    printf(" units out, %d decal(s)\n", through);
    assert_int_equal(legs, 2);
    float exit = at[1][0];   // the way out, + 1
    assert_true(exit > 146.9f + 150 && exit < 146.9f + 160);
    assert_true(at[1][1] > exit + 400);
    assert_true(through >= 3);   // (a decal counts once for each surface it lies on)
    float far = at[1][1];
    place_scientist(w, 30, exit + 100, 0);
    int behind = gauss_shot(&L, 30, 400, 0, at, &legs);
    printf("gauss secondary, the scientist 100 units past the way out: %d leg(s)", legs);
    for (int i = 0; i < legs && i < 4; i++)
        printf("; %.1f -> %.1f", at[i][0], at[i][1]);
    printf(" units out, %d decal(s)\n", behind);
    assert_int_equal(legs, 2);
    // his far side is 16 units past his middle (straight on, up to 16 x sqrt 2 slanted), then + 1
    assert_true(at[1][0] >= exit + 100 + 16 - 0.5f && at[1][0] <= exit + 100 + 16 * 1.4143f + 1.5f);
    assert_true(fabsf(at[1][1] - far) < 0.5f);
    // the entry's and the far wall's: none where it came out
    assert_true(behind >= 2 && behind < through);
    close_level(&L);
}

// TE_PROJECTILE (FTENT_COLLIDEALL: EV_PlayerTrace without PM_WORLD_ONLY, so the monsters are in its
// way too): c1a0 at frame 200, a shell thrown from the eye straight ahead at 500 u/s ends on the
// scientist standing 100 units ahead (his box's near side, 84..100 units; a step is 5 units); with
// him 60 units aside it flies on to the brush entity about 200 units out (test_projectile_collideall).
static float projectile_end(float aside)
{
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    int shell = model_index(w, "models/shell.mdl");
    assert_true(shell > 0);
    float y = w->view.angles[1] * (float)M_PI / 180;
    vec3_t dir = {cosf(y), sinf(y), 0}, start, vel;
    memcpy(start, w->view.origin, sizeof start);
    for (int k = 0; k < 3; k++)
        vel[k] = 500 * dir[k];
    place_scientist(w, 0, 100, aside);
    world_decal_t *d = world_add_decal(w);
    d->te = 119;
    memcpy(d->pos, start, sizeof(vec3_t));
    memcpy(d->velocity, vel, sizeof(vec3_t));
    d->args[0] = shell;
    d->args[1] = 5;
    d->model = shell;
    d->seed = 77;
    double t0 = w->time;
    r_frame(L.r, w);
    hltent_draw_t dr[4];
    vec3_t at = {0, 0, 0};
    for (double t = t0; t < t0 + 1.0; t += 0.01) {
        if (hltent_list(L.r->hltent, L.r->bsp, t, dr, 4) < 1)
            break;
        memcpy(at, dr[0].org, sizeof at);
    }
    close_level(&L);
    return (at[0] - start[0]) * dir[0] + (at[1] - start[1]) * dir[1];
}

static void test_projectile_monster(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float on = projectile_end(0), off = projectile_end(60);
    printf("projectile: the scientist 100 units ahead stops it %.1f units out; aside, %.1f\n", on, off);
    assert_true(on > 84 - 5 && on < 100);
    assert_true(off > 195 && off < 204);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_census),
        cmocka_unit_test(test_player_decoded),
        cmocka_unit_test(test_bullet_monster),
        cmocka_unit_test(test_decal_monster),
        cmocka_unit_test(test_crossbow_monster),
        cmocka_unit_test(test_gauss_monster),
        cmocka_unit_test(test_dead_player),
        cmocka_unit_test(test_projectile_monster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
