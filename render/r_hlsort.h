// r_hlsort.h -- GoldSrc's order of the translucent entities: far to near from the view
//
// The engine draws the entities of kRenderNormal first, in entity order, then every other one
// (brush entities, studio models and sprites alike) from a list kept sorted by distance, far to
// near (the engine's AddTEntity; docs/goldsrc.md "Translucent entities"):
//
//     r_hlsort_t list = {0};
//     r_hlsort_add(&list, entnum, s->rendermode, is_brush, centre, vieworg);   // each one
//     for (int i = 0; i < list.count; i++) draw(list.item[i].entnum);
//
// `centre` is the entity's origin plus the middle of its model's bounds (a brush model's
// mins / maxs, a studio model's header box; a sprite's box is centred on its origin).
#ifndef R_HLSORT_H
#define R_HLSORT_H

#include "../engine/world.h"
#include "render.h"

#define R_HLSORT_MAX 512   // the engine's MAX_VISEDICTS: its list of translucent objects is that long

typedef struct {
    int entnum;      // a world entity, or w->num_entities + i for static entity i
    float dist;      // squared distance of the centre from the eye (1e9: a TransAlpha brush model)
    int rank;        // at equal distance: 0 first, then TransTexture 1, TransAdd 2, Glow 3 (Xash3D)
    int brush;       // a brush model (r_bsp.c draws it), else a studio model or sprite (r_models.c)
} r_hlsort_item_t;

typedef struct {
    int count;
    r_hlsort_item_t item[R_HLSORT_MAX];
} r_hlsort_t;

// Whether an entity of this render mode is drawn with the translucent ones (all but kRenderNormal).
int r_hl_sorted_mode(int rendermode);
// Put an entity into the list at its place, after those at the same distance and rank (entity
// order among equals). brush: its model is a brush model. 0 when the list is full (not added).
int r_hlsort_add(r_hlsort_t *l, int entnum, int rendermode, int brush, const float centre[3],
                 const float vieworg[3]);

// The frame's translucent entities and static entities, sorted, drawn (r_main.c, GoldSrc only:
// after the solid models, before the beams, temp entities and particles). `r->hlsort` holds
// the list; one that does not fit is drawn when met, unsorted.
void r_hl_draw_translucent(renderer_t *r, const world_t *w, double frac);

#endif
