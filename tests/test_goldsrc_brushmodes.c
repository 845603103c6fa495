// test_goldsrc_brushmodes.c -- Half-Life's brush entities in the blended render modes, drawn: without
// their lightmaps (the engine's R_BlendLightmaps skips kRenderTransTexture, TransColor, TransAdd and
// Glow; Normal and TransAlpha keep the light), kRenderGlow blended as TransTexture (R_SetRenderMode has
// no case of its own for it), in c1a0
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hlmodes.h"
#include "render/r_local.h"
#include "render/render.h"

#define TW 320
#define TH 200

#include "hl_level.h"

static void test_unlit_rule(void **state)
{
    (void)state;
    assert_int_equal(r_hl_brush_unlit(RM_NORMAL), 0);
    assert_int_equal(r_hl_brush_unlit(RM_SOLID), 0);   // kRenderTransAlpha: lightmapped
    assert_int_equal(r_hl_brush_unlit(RM_TEXTURE), 1);
    assert_int_equal(r_hl_brush_unlit(RM_COLOR), 1);
    assert_int_equal(r_hl_brush_unlit(RM_ADDITIVE), 1);
    assert_int_equal(r_hl_brush_unlit(RM_GLOW), 1);
}

static int is_brush(const world_t *w, int e)
{
    int mi = w->entities[e].cur.modelindex;
    return mi > 0 && mi < w->num_models && w->models[mi][0] == '*';
}

// The visible brush entity of c1a0's frame 200 covering the most pixels (found by hiding each), and
// how many it covers.
static int biggest_brush(level_t *L, const uint8_t *all, uint8_t *px, int *count)
{
    world_t *w = L->w;
    double t = w->time;
    int best = -1, most = 0;
    for (int e = 1; e < w->num_entities; e++) {
        if (!world_entity_visible(w, e) || !is_brush(w, e) || w->entities[e].cur.rendermode != RM_NORMAL)
            continue;
        int fx = w->entities[e].cur.effects;
        w->entities[e].cur.effects |= EF_NODRAW;
        render_at(L->r, w, t, px);
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

// A brush entity of c1a0, lit unevenly (its faces' lightmaps), drawn in each blended mode: every
// pixel it covers is the blend of its *unlit* texel (the same entity in TransTexture at 255: masked
// opaque, built without light) over what is behind (the entity hidden), through the mode's table;
// the lit texels (kRenderNormal) differ from the unlit ones on most of its pixels, so the old rule
// (the lit surface blended) gives another picture. kRenderTransAlpha keeps the light.
static void test_blended_brush_unlit(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    renderer_t *r = L.r;
    assert_non_null(r->hl);
    assert_true(r->hl->ready);
    double t = w->time;
    uint8_t *lit = malloc(TW * TH), *hidden = malloc(TW * TH), *unlit = malloc(TW * TH), *px = malloc(TW * TH);
    render_at(r, w, t, lit);
    assert_int_equal(r_write_png(r, "build/test_goldsrc_brush_lit.png"), 0);   // to look at beside the golden
    int covered = 0;
    int e = biggest_brush(&L, lit, px, &covered);
    assert_true(e > 0);
    world_entity_t *ent = &w->entities[e];
    print_message("brush entity %d (%s) covers %d pixels\n", e, w->models[ent->cur.modelindex], covered);
    assert_true(covered > 1000);
    entity_state_t keep = ent->cur;
    ent->cur.effects |= EF_NODRAW;
    render_at(r, w, t, hidden);
    ent->cur = keep;
    ent->cur.rendermode = RM_TEXTURE;   // amount 255: masked, opaque, without light
    ent->cur.renderamt = 255;
    render_at(r, w, t, unlit);
    int cov = 0, changed = 0;
    for (int i = 0; i < TW * TH; i++) {
        if (lit[i] == hidden[i] && unlit[i] == hidden[i])
            continue;
        cov++;
        changed += unlit[i] != lit[i];
    }
    print_message("unlit against lit: %d of %d pixels differ\n", changed, cov);
    assert_true(changed > cov / 2);
    // kRenderTransAlpha: the lit texels (the entity has no '{' texture here)
    ent->cur.rendermode = RM_SOLID;
    render_at(r, w, t, px);
    assert_memory_equal(px, lit, TW * TH);

    static const struct { int mode, amt; hl_blend_t kind; const char *name; } modes[] = {
        {RM_ADDITIVE, 255, HL_BLEND_ADD, "TransAdd 255"},
        {RM_ADDITIVE, 120, HL_BLEND_ADD, "TransAdd 120"},
        {RM_TEXTURE, 128, HL_BLEND_ALPHA, "TransTexture 128"},
        {RM_GLOW, 128, HL_BLEND_ALPHA, "Glow 128"},   // blended as TransTexture, not added
        {RM_GLOW, 60, HL_BLEND_ALPHA, "Glow 60"},
    };
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        ent->cur.rendermode = modes[m].mode;
        ent->cur.renderamt = modes[m].amt;
        render_at(r, w, t, px);
        const uint8_t *tab = r_hl_table(r->hl, modes[m].kind, modes[m].amt);
        assert_non_null(tab);
        const uint8_t *add = r_hl_table(r->hl, HL_BLEND_ADD, modes[m].amt);
        int n = 0, same = 0, old = 0, added = 0;
        for (int i = 0; i < TW * TH; i++) {
            if (unlit[i] == hidden[i])
                continue;
            n++;
            same += px[i] == tab[unlit[i] * 256 + hidden[i]];
            old += px[i] != tab[lit[i] * 256 + hidden[i]];
            added += px[i] != add[lit[i] * 256 + hidden[i]];
        }
        if (modes[m].mode == RM_GLOW) {   // main added the lit texel for brush glow
            print_message("%s: %d pixels differ from the lit texel added\n", modes[m].name, added);
            assert_true(added > n / 2);
        }
        print_message("%s: %d of %d pixels are the unlit texel blended; %d differ from the lit one blended\n",
                      modes[m].name, same, n, old);
        assert_true(n > 1000);
        assert_true(same >= n - n / 100);   // all but the odd pixel on an edge
        assert_true(old > n / 4);
        if (m == 0) {
            const char *out = "build/test_goldsrc_brush_transadd.png";
            assert_int_equal(r_write_png(r, out), 0);
            tu_golden("goldsrc_brush_transadd", out, "tests/golden/goldsrc/brush_transadd.png", 0.01);
        }
    }
    ent->cur = keep;
    free(lit);
    free(hidden);
    free(unlit);
    free(px);
    close_level(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unlit_rule),
        cmocka_unit_test(test_blended_brush_unlit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
