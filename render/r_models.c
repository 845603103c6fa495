// r_models.c -- alias models, sprites, particles (placeholder until the models work lands)
#include "r_models.h"

#include <stdlib.h>

struct r_models_s { int unused; };

r_models_t *r_models_create(void) { return calloc(1, sizeof(r_models_t)); }
void r_models_destroy(r_models_t *m) { free(m); }
int r_models_load_level(r_models_t *m, vfs_t *fs, const world_t *w) { (void)m; (void)fs; (void)w; return 0; }
void r_models_frame(r_models_t *m, const world_t *w) { (void)m; (void)w; }
void r_models_lights(r_models_t *m, const world_t *w, r_view_t *v) { (void)m; (void)w; (void)v; }
void r_models_draw(r_models_t *m, const world_t *w, r_view_t *v) { (void)m; (void)w; (void)v; }
void r_models_clear(r_models_t *m) { (void)m; }
