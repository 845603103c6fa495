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
#include "r_hlfx.h"
#include "render.h"

#define R_HLSORT_MAX 512   // the engine's MAX_VISEDICTS: its list of translucent objects is that long

// What an item is, and what its `entnum` numbers.
enum {
    R_HLSORT_MODEL = 0,    // an entity's studio model or sprite (r_models.c): entnum as below
    R_HLSORT_BRUSH = 1,    // an entity's brush model (r_bsp.c)
    R_HLSORT_TSPRITE = 2,  // a temp entity's sprite (r_hlfx.c): entnum indexes r_hlsort_t.sprite
    R_HLSORT_TMODEL = 3,   // a temp model (engine/hltent.c): entnum indexes r_models' list of the frame
};

typedef struct {
    int entnum;      // a world entity, or w->num_entities + i for static entity i (or a temp one's index)
    float dist;      // squared distance of the centre from the eye (1e9: a TransAlpha brush model)
    int rank;        // at equal distance: 0 first, then TransTexture 1, TransAdd 2, Glow 3 (Xash3D)
    int kind;        // R_HLSORT_*
} r_hlsort_item_t;

#define R_HLSORT_SPRITES (HLFX_MAX_SPRITES + 1 + HLFX_MAX_PUFFS)   // what r_hlfx_sprites gives at most

typedef struct {
    int count;
    r_hlsort_item_t item[R_HLSORT_MAX];
    int num_sprites;                           // the frame's temp sprites (r_hlfx_sprites)
    r_hlsprite_t sprite[R_HLSORT_SPRITES];
} r_hlsort_t;

// Whether an entity of this render mode is drawn with the translucent ones (all but kRenderNormal).
int r_hl_sorted_mode(int rendermode);
// Put an entity into the list at its place, after those at the same distance and rank (entity
// order among equals). kind: R_HLSORT_* (a brush model in TransAlpha goes first). 0 when the list
// is full (not added).
int r_hlsort_add(r_hlsort_t *l, int entnum, int rendermode, int kind, const float centre[3],
                 const float vieworg[3]);

// The frame's translucent entities, static entities and temp entities (the sprites of r_hlfx.c, the
// temp models of engine/hltent.c), sorted, drawn (r_main.c, GoldSrc only: after the solid models
// and the solid temp models, before the beams and particles); the temp sprites in kRenderNormal
// first, unsorted, as the engine's solid ones. `r->hlsort` holds the list; one that does not fit
// is drawn when met, unsorted.
void r_hl_draw_translucent(renderer_t *r, const world_t *w, double frac);

#endif
