// test_goldsrc_sort.c -- Half-Life's translucent entities drawn far to near (the engine's AddTEntity):
// the order's rules, and in c1a0 two sprites, and a sprite and a brush entity, that overlap, whatever
// their entity numbers, blended in the engine's order (the far one first)
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hltent.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hlfx.h"
#include "render/r_hlmodes.h"
#include "render/r_hlsort.h"
#include "render/r_local.h"
#include "render/render.h"

#define TW 320
#define TH 200

#include "hl_level.h"

static void test_order_rules(void **state)
{
    (void)state;
    static r_hlsort_t l;
    const float eye[3] = {0, 0, 0};
    const float at100[3] = {100, 0, 0}, at200[3] = {0, 200, 0}, at50[3] = {0, 0, -50};
    l.count = 0;
    // entity order 1..7; the list: far to near, at one distance the modes' ranks, then entity order
    assert_int_equal(r_hlsort_add(&l, 1, RM_GLOW, 0, at100, eye), 1);
    assert_int_equal(r_hlsort_add(&l, 2, RM_TEXTURE, 0, at50, eye), 1);
    assert_int_equal(r_hlsort_add(&l, 3, RM_ADDITIVE, 0, at100, eye), 1);
    assert_int_equal(r_hlsort_add(&l, 4, RM_TEXTURE, 1, at200, eye), 1);
    assert_int_equal(r_hlsort_add(&l, 5, RM_SOLID, 1, at50, eye), 1);     // a TransAlpha brush: first
    assert_int_equal(r_hlsort_add(&l, 6, RM_COLOR, 0, at100, eye), 1);
    assert_int_equal(r_hlsort_add(&l, 7, RM_SOLID, 0, at50, eye), 1);     // TransAlpha, not a brush: by distance
    assert_int_equal(r_hlsort_add(&l, 8, RM_ADDITIVE, 0, at100, eye), 1); // after 3, its equal
    const int want[] = {5, 4, 6, 3, 8, 1, 7, 2};   // 7 (rank 0) before 2 (TransTexture) at 50
    assert_int_equal(l.count, 8);
    for (int i = 0; i < 8; i++)
        assert_int_equal(l.item[i].entnum, want[i]);
    assert_float_equal(l.item[0].dist, 1e9, 1);
    assert_float_equal(l.item[1].dist, 40000, 1e-3);   // squared distance
    assert_int_equal(l.item[1].kind, R_HLSORT_BRUSH);
    assert_int_equal(r_hl_sorted_mode(RM_NORMAL), 0);
    assert_int_equal(r_hl_sorted_mode(RM_SOLID), 1);
    // full: not added, the list kept
    l.count = R_HLSORT_MAX;
    assert_int_equal(r_hlsort_add(&l, 9, RM_TEXTURE, 0, at100, eye), 0);
    assert_int_equal(l.count, R_HLSORT_MAX);
    // a temp sprite or temp model in TransAlpha is placed by its distance (only brush models go first)
    l.count = 0;
    assert_int_equal(r_hlsort_add(&l, 0, RM_SOLID, R_HLSORT_TSPRITE, at50, eye), 1);
    assert_int_equal(r_hlsort_add(&l, 3, RM_SOLID, R_HLSORT_TMODEL, at100, eye), 1);
    assert_int_equal(r_hlsort_add(&l, 1, RM_TEXTURE, R_HLSORT_MODEL, at50, eye), 1);
    assert_int_equal(l.item[0].kind, R_HLSORT_TMODEL);
    assert_float_equal(l.item[0].dist, 10000, 1e-3);
    assert_int_equal(l.item[1].kind, R_HLSORT_TSPRITE);
    assert_int_equal(l.item[2].kind, R_HLSORT_MODEL);
}

// A sprite entity added to the frame (the next free number) at `org`, TransTexture at `amt`.
static world_entity_t *add_sprite(world_t *w, int model, const vec3_t org, int amt, int *num)
{
    int n = w->num_entities;
    assert_true(n + 1 < WORLD_MAX_ENTITIES);
    world_entity_t *e = &w->entities[n];
    memset(e, 0, sizeof *e);
    entity_state_clear(&e->cur);
    e->cur.modelindex = model;
    memcpy(e->cur.origin, org, sizeof(vec3_t));
    e->cur.rendermode = RM_TEXTURE;
    e->cur.renderamt = amt;
    e->cur.scale = 1;
    e->prev = e->cur;
    e->seq = w->seq;
    w->num_entities = n + 1;
    *num = n;
    return e;
}

static void set_amount(world_entity_t *e, int amt)
{
    e->cur.renderamt = amt;
    e->prev = e->cur;
}

// Over the pixels both cover (each drawn alone at amount 255 differs from `bg` there): how many
// are the near one's texel blended over the far one's blended over bg (the engine's order), and
// how many the other way round.
static int check_order(const uint8_t *px, const uint8_t *bg, const uint8_t *near, const uint8_t *far,
                       const uint8_t *tab_near, const uint8_t *tab_far, int *both, int *reverse)
{
    int n = 0, ok = 0, rev = 0;
    for (int i = 0; i < TW * TH; i++) {
        if (near[i] == bg[i] || far[i] == bg[i])
            continue;
        n++;
        ok += px[i] == tab_near[near[i] * 256 + tab_far[far[i] * 256 + bg[i]]];
        rev += px[i] == tab_far[far[i] * 256 + tab_near[near[i] * 256 + bg[i]]];
    }
    *both = n;
    *reverse = rev;
    return ok;
}

static void write_png(renderer_t *r, const char *path)
{
    assert_int_equal(r_write_png(r, path), 0);
    print_message("wrote %s\n", path);
}

// Two flare sprites in TransTexture 128 on one line of sight, the near one first in entity order
// (main drew them in entity order: the far one over the near one).
static void test_two_sprites(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    renderer_t *r = L.r;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(r, w);
    empty_frame(w);
    int flare = model_index(w, "sprites/flare1.spr");
    assert_true(flare > 0);
    vec3_t pn, pf;
    ahead(w, 70, 0, -4, pn);
    ahead(w, 110, 0, -4, pf);
    int nn, nf;
    world_entity_t *en = add_sprite(w, flare, pn, 255, &nn), *ef = add_sprite(w, flare, pf, 255, &nf);
    assert_true(nn < nf);
    double t = w->time;
    uint8_t *bg = malloc(TW * TH), *near = malloc(TW * TH), *far = malloc(TW * TH), *px = malloc(TW * TH);
    en->seq = ef->seq = 0;
    render_at(r, w, t, bg);
    en->seq = w->seq;
    render_at(r, w, t, near);   // the near one alone, opaque: its texels
    en->seq = 0;
    ef->seq = w->seq;
    render_at(r, w, t, far);
    en->seq = w->seq;
    set_amount(en, 128);
    set_amount(ef, 128);
    render_at(r, w, t, px);
    write_png(r, "build/test_goldsrc_sort_sprites.png");
    const uint8_t *tab = r_hl_table(r->hl, HL_BLEND_ALPHA, 128);
    assert_non_null(tab);
    int both, rev, ok = check_order(px, bg, near, far, tab, tab, &both, &rev);
    print_message("two sprites: %d pixels covered by both; %d the near over the far (engine), %d the far over "
                  "the near (entity order)\n", both, ok, rev);
    assert_true(both > 500);
    assert_true(ok >= both - both / 100);
    assert_true(rev < both / 2);
    // the same with the numbers swapped (the near one last in entity order): the same picture
    en->cur.origin[0] = pf[0], en->cur.origin[1] = pf[1], en->cur.origin[2] = pf[2];
    ef->cur.origin[0] = pn[0], ef->cur.origin[1] = pn[1], ef->cur.origin[2] = pn[2];
    en->prev = en->cur;
    ef->prev = ef->cur;
    uint8_t *swapped = malloc(TW * TH);
    render_at(r, w, t, swapped);
    assert_memory_equal(swapped, px, TW * TH);
    free(swapped);
    free(bg);
    free(near);
    free(far);
    free(px);
    close_level(&L);
}

static int is_brush(const world_t *w, int e)
{
    int mi = w->entities[e].cur.modelindex;
    return mi > 0 && mi < w->num_models && w->models[mi][0] == '*';
}

// The visible brush entity in kRenderNormal covering the most pixels of the frame `all` (found by
// hiding each), and the pixels it covers.
static int biggest_brush(level_t *L, const uint8_t *all, uint8_t *px, int *count)
{
    world_t *w = L->w;
    int best = -1, most = 0;
    for (int e = 1; e < w->num_entities; e++) {
        if (!world_entity_visible(w, e) || !is_brush(w, e) || w->entities[e].cur.rendermode != RM_NORMAL)
            continue;
        int fx = w->entities[e].cur.effects;
        w->entities[e].cur.effects |= EF_NODRAW;
        render_at(L->r, w, w->time, px);
        w->entities[e].cur.effects = fx;
        int n = 0;
        for (int i = 0; i < TW * TH; i++)
            n += px[i] != all[i];
        if (n > most) {
            most = n;
            best = e;
        }
    }
    *count = most;
    return best;
}

// A brush entity in TransTexture 128 and a flare sprite in TransTexture 128 in front of it: the
// engine draws the brush first (its centre, origin + the middle of its bounds, is farther), then the
// sprite over it; main drew every brush entity's blended faces after all the models.
static void test_sprite_and_brush(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    renderer_t *r = L.r;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(r, w);
    empty_frame(w);
    double t = w->time;
    uint8_t *all = malloc(TW * TH), *bg = malloc(TW * TH), *brush = malloc(TW * TH), *spr = malloc(TW * TH),
            *px = malloc(TW * TH);
    render_at(r, w, t, all);
    int covered;
    int e = biggest_brush(&L, all, px, &covered);
    assert_true(e > 0);
    world_entity_t *be = &w->entities[e];
    float c[3];
    assert_int_equal(r_brush_entity_centre(r, w, e, 1, c), 1);
    const bsp_model_t *bm = &r->bsp->models[atoi(w->models[be->cur.modelindex] + 1)];
    for (int k = 0; k < 3; k++)   // origin + the middle of the model's bounds
        assert_float_equal(c[k], be->cur.origin[k] + (bm->mins[k] + bm->maxs[k]) / 2, 1e-3);
    const float *eye = r->view.vieworg;
    float dc = sqrtf((c[0] - eye[0]) * (c[0] - eye[0]) + (c[1] - eye[1]) * (c[1] - eye[1]) +
                     (c[2] - eye[2]) * (c[2] - eye[2]));
    float d0 = sqrtf(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
    print_message("brush entity %d (%s) covers %d pixels; its centre %.0f units from the eye, its origin %.0f\n", e,
                  w->models[be->cur.modelindex], covered, dc, d0);
    assert_true(covered > 1000);
    // the middle of what it covers, and a sprite 40 units deep on the line through it
    be->cur.effects |= EF_NODRAW;
    render_at(r, w, t, bg);
    be->cur.effects &= ~EF_NODRAW;
    long sx = 0, sy = 0, n = 0;
    for (int i = 0; i < TW * TH; i++)
        if (bg[i] != all[i]) {
            sx += i % TW;
            sy += i / TW;
            n++;
        }
    const r_view_t *v = &r->view;
    float x = (float)sx / (float)n, y = (float)sy / (float)n, depth = 40;
    vec3_t org;
    for (int k = 0; k < 3; k++)
        org[k] = eye[k] + depth * (v->vpn[k] + v->vright[k] * (x - v->xcenter) / v->xscale -
                                   v->vup[k] * (y - v->ycenter) / v->yscale);
    assert_true(depth < dc);
    int ns;
    world_entity_t *se = add_sprite(w, model_index(w, "sprites/flare1.spr"), org, 255, &ns);
    assert_true(ns > e);
    entity_state_t keep = be->cur;
    be->cur.effects |= EF_NODRAW;
    render_at(r, w, t, spr);   // the sprite alone, opaque
    be->cur = keep;
    be->cur.rendermode = RM_TEXTURE;
    be->cur.renderamt = 255;   // masked, opaque, without light: the texels blended below
    se->seq = 0;
    render_at(r, w, t, brush);
    se->seq = w->seq;
    be->cur.renderamt = 128;
    set_amount(se, 128);
    render_at(r, w, t, px);
    write_png(r, "build/test_goldsrc_sort_brush.png");
    const uint8_t *tab = r_hl_table(r->hl, HL_BLEND_ALPHA, 128);
    int both, rev, ok = check_order(px, bg, spr, brush, tab, tab, &both, &rev);
    print_message("sprite and brush: %d pixels covered by both; %d the sprite over the brush (engine), %d the "
                  "brush over the sprite (main)\n", both, ok, rev);
    assert_true(both > 500);
    assert_true(ok >= both - both / 100);
    assert_true(rev < both / 2);
    be->cur = keep;
    free(all);
    free(bg);
    free(brush);
    free(spr);
    free(px);
    close_level(&L);
}

// A temp entity's glow sprite (r_hlfx_event_glow: kRenderGlow 255, as TE_GLOWSPRITE) 110 units ahead
// and a flare entity in TransTexture 128 70 units ahead on the same line of sight: the engine puts
// both in one list and draws the far glow first, the flare blended over it; main drew the temp
// entities after every translucent entity (the glow added over the flare).
static void test_temp_sprite_and_entity(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    renderer_t *r = L.r;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    r_frame(r, w);
    empty_frame(w);
    int flare = model_index(w, "sprites/flare1.spr");
    assert_true(flare > 0);
    vec3_t pn, pf;
    ahead(w, 70, 0, -4, pn);
    ahead(w, 110, 0, -4, pf);
    double t = w->time;
    uint8_t *bg = malloc(TW * TH), *near = malloc(TW * TH), *glow = malloc(TW * TH), *px = malloc(TW * TH);
    render_at(r, w, t, bg);
    int nn;
    world_entity_t *en = add_sprite(w, flare, pn, 255, &nn);
    render_at(r, w, t, near);   // the flare alone, opaque: its texels
    en->seq = 0;
    r_hlfx_event_glow(r_models_hlfx(r->models), w, pf, "sprites/flare1.spr", 1, 1, 10);
    render_at(r, w, t, glow);   // the glow alone over the level
    assert_true(r->hlsort.num_sprites >= 1);
    en->seq = w->seq;
    set_amount(en, 128);
    render_at(r, w, t, px);
    write_png(r, "build/test_goldsrc_sort_tempsprite.png");
    // the list of the frame: the glow (a temp sprite) first, the flare entity after it
    int kglow = -1, kflare = -1;
    for (int i = 0; i < r->hlsort.count; i++) {
        if (r->hlsort.item[i].kind == R_HLSORT_TSPRITE && r->hlsort.sprite[r->hlsort.item[i].entnum].rendermode == RM_GLOW)
            kglow = i;
        if (r->hlsort.item[i].kind == R_HLSORT_MODEL && r->hlsort.item[i].entnum == nn)
            kflare = i;
    }
    assert_true(kglow >= 0 && kflare >= 0);
    assert_true(kglow < kflare);
    const uint8_t *tab = r_hl_table(r->hl, HL_BLEND_ALPHA, 128);
    assert_non_null(tab);
    int both = 0, ok = 0;
    for (int i = 0; i < TW * TH; i++) {
        if (near[i] == bg[i] || glow[i] == bg[i])
            continue;
        both++;
        ok += px[i] == tab[near[i] * 256 + glow[i]];   // the flare's texel blended over glow-over-level
    }
    print_message("temp glow and flare entity: %d pixels covered by both; %d of them the flare over the glow "
                  "(the engine's order; main: 125, it added the glow last)\n", both, ok);
    assert_true(both > 300);
    assert_true(ok >= both - both / 100);
    free(bg);
    free(near);
    free(glow);
    free(px);
    close_level(&L);
}

// Glass chunks (TE_BREAKMODEL of models/glassgibs.mdl with BREAK_GLASS: temp models in TransTexture
// 128) 40 units ahead, a shell (kRenderNormal) beside them and a flare entity in TransTexture 110
// units ahead: the chunks are in the frame's sorted list after the flare (nearer), the shell is not
// (drawn with the solid ones); main drew every temp model before the sorted list.
static void test_temp_models_sorted(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    renderer_t *r = L.r;
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    int glass = model_index(w, "models/glassgibs.mdl"), shell = model_index(w, "models/shell.mdl");
    int flare = model_index(w, "sprites/flare1.spr");
    assert_true(glass > 0 && shell > 0 && flare > 0);
    vec3_t pg, ps, pf, up = {0, 0, 30}, none = {0, 0, 0};
    ahead(w, 40, 0, -4, pg);
    ahead(w, 40, 12, -4, ps);
    ahead(w, 110, 0, -4, pf);
    world_decal_t *d = world_add_decal(w);   // TE_BREAKMODEL as the decoder logs it
    d->te = 108;
    memcpy(d->pos, pg, sizeof(vec3_t));
    d->size[0] = d->size[1] = d->size[2] = 8;
    memcpy(d->velocity, up, sizeof(vec3_t));
    d->args[0] = 2, d->args[1] = glass, d->args[2] = 4, d->args[3] = 60, d->args[4] = 0x01;
    d->model = glass;
    d->seed = 77;
    d = world_add_decal(w);   // TE_MODEL: a shell
    d->te = 106;
    memcpy(d->pos, ps, sizeof(vec3_t));
    memcpy(d->velocity, none, sizeof(vec3_t));
    d->args[0] = 90, d->args[1] = shell, d->args[2] = 1, d->args[3] = 25;
    d->model = shell;
    d->seed = 1234567;
    int nf;
    add_sprite(w, flare, pf, 128, &nf);
    r_frame(r, w);
    double t = w->time + 0.1;
    uint8_t *px = malloc(TW * TH);
    render_at(r, w, t, px);
    write_png(r, "build/test_goldsrc_sort_tempmodels.png");
    hltent_draw_t td[16];
    int n = hltent_list(r->hltent, r->bsp, t, td, 16), trans = 0, solid = 0;
    for (int i = 0; i < n; i++) {
        trans += td[i].rendermode == RM_TEXTURE;
        solid += td[i].rendermode == RM_NORMAL;
    }
    assert_int_equal(trans, 4);
    assert_int_equal(solid, 1);
    int kflare = -1, ntm = 0, after = 0;
    float dflare = 0;
    for (int i = 0; i < r->hlsort.count; i++)
        if (r->hlsort.item[i].kind == R_HLSORT_MODEL && r->hlsort.item[i].entnum == nf) {
            kflare = i;
            dflare = r->hlsort.item[i].dist;
        }
    assert_true(kflare >= 0);
    assert_float_equal(dflare, 110 * 110 + 4 * 4, 2);   // a sprite: its origin (110 ahead, 4 below the eye)
    for (int i = 0; i < r->hlsort.count; i++) {
        if (r->hlsort.item[i].kind != R_HLSORT_TMODEL)
            continue;
        ntm++;
        after += i > kflare;
        float dd = r->hlsort.item[i].dist;
        assert_true(dd > 10 * 10 && dd < 70 * 70);   // about 40 units away (their box's middle)
    }
    print_message("temp models: %d in the sorted list (of %d: %d solid drawn before it), %d after the far flare\n",
                  ntm, n, solid, after);
    assert_int_equal(ntm, trans);
    assert_int_equal(after, trans);
    free(px);
    close_level(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_rules),
        cmocka_unit_test(test_two_sprites),
        cmocka_unit_test(test_sprite_and_brush),
        cmocka_unit_test(test_temp_sprite_and_entity),
        cmocka_unit_test(test_temp_models_sorted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
