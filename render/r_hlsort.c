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

int r_hlsort_add(r_hlsort_t *l, int entnum, int rendermode, int kind, const float centre[3],
                 const float vieworg[3])
{
    if (l->count < 0 || l->count >= R_HLSORT_MAX)
        return 0;
    r_hlsort_item_t it = {entnum, 1e9f, mode_rank(rendermode), kind};
    if (kind != R_HLSORT_BRUSH || rendermode != RM_SOLID) {   // a TransAlpha brush model: "max distance", drawn first
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

static void draw_one(renderer_t *r, const world_t *w, double frac, int n, int kind)
{
    switch (kind) {
    case R_HLSORT_BRUSH:
        r_draw_brush_entity(r, w, n, frac);
        break;
    case R_HLSORT_TSPRITE:
        r_models_draw_hlsprite(r->models, &r->view, &r->hlsort.sprite[n]);
        break;
    case R_HLSORT_TMODEL:
        r_models_draw_hltent_one(r->models, w, &r->view, n);
        break;
    default:
        r_models_draw_entity(r->models, w, &r->view, n);
        break;
    }
}

static void add_or_draw(renderer_t *r, const world_t *w, double frac, int n, int rendermode, int kind,
                        const float c[3])
{
    if (!r_hlsort_add(&r->hlsort, n, rendermode, kind, c, r->view.vieworg))
        draw_one(r, w, frac, n, kind);   // beyond the engine's list ("Too many objects"): unsorted
}

void r_hl_draw_translucent(renderer_t *r, const world_t *w, double frac)
{
    r_hlsort_t *l = &r->hlsort;
    l->count = 0;
    l->num_sprites = 0;
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
        add_or_draw(r, w, frac, n, s->rendermode, brush ? R_HLSORT_BRUSH : R_HLSORT_MODEL, c);
    }
    // the temp entities come after the entities in the engine's list of visible ones (CL_AddTempEnts
    // after the packet entities), so they go after them among equals. The temp models: those fading
    // (TransTexture); the solid ones r_models_draw_hltent drew.
    int nt = r_models_hltent_count(r->models);
    for (int i = 0; i < nt; i++) {
        float c[3];
        int mode;
        if (r_models_hltent_centre(r->models, i, c, &mode) && r_hl_sorted_mode(mode))
            add_or_draw(r, w, frac, i, mode, R_HLSORT_TMODEL, c);
    }
    // the temp sprites: those in kRenderNormal drawn now, as the engine's solid entities; the
    // others sorted at their origin (a sprite's box is centred on it)
    l->num_sprites = r_hlfx_sprites(r_models_hlfx(r->models), r->view.time, l->sprite, R_HLSORT_SPRITES);
    for (int i = 0; i < l->num_sprites; i++)
        if (!r_hl_sorted_mode(l->sprite[i].rendermode))
            draw_one(r, w, frac, i, R_HLSORT_TSPRITE);
    for (int i = 0; i < l->num_sprites; i++)
        if (r_hl_sorted_mode(l->sprite[i].rendermode))
            add_or_draw(r, w, frac, i, l->sprite[i].rendermode, R_HLSORT_TSPRITE, l->sprite[i].org);
    for (int i = 0; i < l->count; i++)
        draw_one(r, w, frac, l->item[i].entnum, l->item[i].kind);
}
