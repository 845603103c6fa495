// r_hlsort.c -- GoldSrc's translucent entities, drawn far to near after the solid ones
#include "r_hlsort.h"

#include "r_local.h"
#include "r_models.h"

int r_hl_sorted_mode(int rendermode) { return rendermode != RM_NORMAL; }

// Xash3D's R_RankForRenderMode: at equal distance TransTexture, then TransAdd, then Glow ("must
// be last"), the other modes first.
static int mode_rank(int rendermode)
{
    switch (rendermode) {
    case RM_TEXTURE:
        return 1;
    case RM_ADDITIVE:
        return 2;
    case RM_GLOW:
        return 3;
    default:
        return 0;
    }
}

// a is drawn before b: farther, or as far and of a lower rank
static int before(const r_hlsort_item_t *a, const r_hlsort_item_t *b)
{
    return a->dist > b->dist || (a->dist == b->dist && a->rank < b->rank);
}

int r_hlsort_add(r_hlsort_t *l, int entnum, int rendermode, int brush, const float centre[3],
                 const float vieworg[3])
{
    if (l->count < 0 || l->count >= R_HLSORT_MAX)
        return 0;
    r_hlsort_item_t it = {entnum, 1e9f, mode_rank(rendermode), brush != 0};
    if (!brush || rendermode != RM_SOLID) {   // a TransAlpha brush model: "max distance", drawn first
        float d[3] = {vieworg[0] - centre[0], vieworg[1] - centre[1], vieworg[2] - centre[2]};
        it.dist = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    }
    // the engine's insertion from the end: a new entity goes after those it is not drawn before
    int i = l->count;
    while (i > 0 && before(&it, &l->item[i - 1])) {
        l->item[i] = l->item[i - 1];
        i--;
    }
    l->item[i] = it;
    l->count++;
    return 1;
}

static void draw_one(renderer_t *r, const world_t *w, double frac, int n, int brush)
{
    if (brush)
        r_draw_brush_entity(r, w, n, frac);
    else
        r_models_draw_entity(r->models, w, &r->view, n);
}

void r_hl_draw_translucent(renderer_t *r, const world_t *w, double frac)
{
    r_hlsort_t *l = &r->hlsort;
    l->count = 0;
    if (!w->entities)
        return;
    const int statics = w->statics ? w->num_statics : 0;
    for (int n = 1; n < w->num_entities + statics; n++) {
        const entity_state_t *s;
        if (n < w->num_entities) {
            if (!world_entity_visible(w, n))
                continue;
            s = &w->entities[n].cur;
        } else {
            s = &w->statics[n - w->num_entities].s;
        }
        if (!r_hl_sorted_mode(s->rendermode) || (s->effects & EF_NODRAW))
            continue;
        float c[3];
        int brush = r_brush_entity_centre(r, w, n, frac, c);
        if (!brush && !r_models_entity_centre(r->models, w, &r->view, n, c))
            continue;
        if (!r_hlsort_add(l, n, s->rendermode, brush, c, r->view.vieworg))
            draw_one(r, w, frac, n, brush);   // beyond the engine's list ("Too many objects"): unsorted
    }
    for (int i = 0; i < l->count; i++)
        draw_one(r, w, frac, l->item[i].entnum, l->item[i].brush);
}
