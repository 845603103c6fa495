// r_2d.c -- 2D drawing (placeholder until the 2D work lands)
#include "r_2d.h"

#include <stdlib.h>
#include <string.h>

struct r_2d_s { int unused; };

r_2d_t *r_2d_create(void) { return calloc(1, sizeof(r_2d_t)); }
void r_2d_destroy(r_2d_t *d) { free(d); }
int r_2d_load(r_2d_t *d, vfs_t *fs, const world_t *w) { (void)d; (void)fs; (void)w; return 0; }
void r_2d_frame(r_2d_t *d, const world_t *w) { (void)d; (void)w; }
int r_2d_sbar_lines(const r_2d_t *d, const world_t *w, int width, int height)
{
    (void)d; (void)w; (void)width; (void)height;
    return 0;
}
void r_2d_draw(r_2d_t *d, const world_t *w, r_view_t *v) { (void)d; (void)w; (void)v; }
void r_2d_blend(r_2d_t *d, const world_t *w, double t, int contents, const uint8_t *base, uint8_t *out)
{
    (void)d; (void)w; (void)t; (void)contents;
    memcpy(out, base, 768);
}
void r_2d_clear(r_2d_t *d) { (void)d; }
