// r_models.h -- alias models (MDL), sprites (SPR), particles, beams and dynamic lights
//
// Called by the frame driver (r_main.c) in this order each drawn frame:
//   r_models_frame()   once per DECODED server frame (via r_frame): takes the
//                      frame's events (temp entities, particles, muzzle flashes)
//   r_models_lights()  adds the live dynamic lights to v->dlights, before the
//                      world is drawn, so the world's lightmaps include them
//   (world drawn: fills v->zbuffer)
//   r_models_draw()    entities with alias/sprite models, static entities, the
//                      view weapon, z-tested against the world (GoldSrc: the solid ones;
//                      r_hlsort.c draws the others with r_models_draw_entity)
//   r_models_draw_fx() then the particles, beams and temp entities (GoldSrc: the temp sprites
//                      and translucent temp models are r_hlsort.c's, sorted)
#ifndef R_MODELS_H
#define R_MODELS_H

#include "../engine/vfs.h"
#include "../engine/world.h"
#include "../engine/hltent.h"
#include "r_hlfx.h"
#include "r_view.h"

typedef struct r_models_s r_models_t;

r_models_t *r_models_create(void);
void r_models_destroy(r_models_t *m);
// Load every model of the world's model list (missing ones draw as a small box).
// `palette` (768 bytes) is the level's: images that carry their own palette
// (GoldSrc models and sprites) are mapped to it.
// `fs` must stay open until the next load or r_models_destroy: Quake II player
// models are loaded from it when a player's skin string changes (r_models_frame).
int r_models_load_level(r_models_t *m, vfs_t *fs, const world_t *w, const uint8_t *palette);
// vw: the view the frames are drawn from (r_view_t.shown; NULL: the world's).
void r_models_frame(r_models_t *m, const world_t *w, const world_view_t *vw);
// The level's bsp for the effects that need its brush models (GoldSrc's TE_FIZZ); NULL: none.
void r_models_set_bsp(r_models_t *m, const bsp_t *bsp);
void r_models_lights(r_models_t *m, const world_t *w, r_view_t *v);
void r_models_draw(r_models_t *m, const world_t *w, r_view_t *v);
void r_models_draw_fx(r_models_t *m, const world_t *w, r_view_t *v);
// GoldSrc's translucent entity n (n >= w->num_entities: static entity n - w->num_entities), drawn now.
void r_models_draw_entity(r_models_t *m, const world_t *w, r_view_t *v, int n);
// Entity n when one of these models draws it: 1 and its origin plus the middle of its model's box
// (a studio model's header bbmin / bbmax); 0 for none (brush models are r_bsp.c's).
int r_models_entity_centre(r_models_t *m, const world_t *w, const r_view_t *v, int n, float centre[3]);
void r_models_clear(r_models_t *m);
// Half-Life's temp entity state (r_hlfx.c), for the events' tracers r_hldecal.c traces.
struct r_hlfx_s *r_models_hlfx(r_models_t *m);
// View model `model` (a world model index) posed as r_models_draw draws it (sequence seq, body, started
// `elapsed` seconds before) at an eye at `eye` looking along `angles`: its attachment n in world space.
// 0, or -1 when the model is not a loaded studio model or has no attachment n.
int r_models_view_attachment(r_models_t *m, int model, int seq, int body, double elapsed, const vec3_t eye,
                             const vec3_t angles, int n, vec3_t out);
// GoldSrc's temp models (engine/hltent.c): stepped to the view's time and drawn with their
// studio model or sprite (the world's model index in their log entry).
// Those in kRenderNormal only: the others (fading) are drawn sorted with the translucent
// entities (r_hlsort.c), through the three below, by their index in this frame's list.
void r_models_draw_hltent(r_models_t *m, const world_t *w, r_view_t *v, hltent_t *tents, const bsp_t *bsp);
int r_models_hltent_count(const r_models_t *m);
// Temp model i's origin plus the middle of its studio model's box, and its render mode; 0: no such one.
int r_models_hltent_centre(r_models_t *m, int i, float centre[3], int *rendermode);
void r_models_draw_hltent_one(r_models_t *m, const world_t *w, r_view_t *v, int i);
// A temp entity's sprite of r_hlfx.c (r_hlfx_sprites) drawn now, through the render-mode tables.
void r_models_draw_hlsprite(r_models_t *m, r_view_t *v, const r_hlsprite_t *hs);
// Their lights at the view's time (FTENT_FLICKER: hltent_lights) into v->dlights.
void r_models_hltent_lights(r_view_t *v, hltent_t *tents, const bsp_t *bsp);

#endif
