// r_fstri.h -- the Forsaken rasterizer: one triangle's camera-space vertices clipped to the near
// plane, projected, z-tested against v->zbuffer and drawn perspective-correct textured (or in one
// colour), the vertex colours interpolated per pixel and dithered to the palette (Direct3D's
// Gouraud MODULATE), at pixel centres, exact texture coordinates every 16 pixels: the level's
// triangles (render/r_fsworld.c), models and effects (render/r_fsent.c).
#ifndef R_FSTRI_H
#define R_FSTRI_H

#include <stdint.h>

#include "r_view.h"

#define R_FS_LEVELS 64   // light levels of a colour channel: 63 = the texture as painted, 0 black

// The level's shading tables (r_fsworld.c makes them for the level palette): tab[c][level * 256 +
// colour] is channel c (<= 248) of a palette colour at level / 63 of it; mix and pattern are the
// ordered dither's cells and pattern (r_dither.h) that bring the lit colour back to the palette.
typedef struct {
    const uint8_t (*tab)[R_FS_LEVELS * 256];
    const uint32_t *mix;
    const uint8_t (*pattern)[4];
} r_fsshade_t;

typedef struct {
    float x, y, z;      // camera space: right, up, forward distances from the eye
    float s, t;         // texels
    float l[3];         // the vertex colour as light levels of r, g, b: 0 .. R_FS_LEVELS - 1
} r_fsvert_t;

typedef struct {
    const r_fsshade_t *shade;   // the level's tables; NULL: v->colormap by the brightest level
    const uint8_t *texels;   // NULL: every pixel is `color`, lit by the vertex colours
    int wshift, wmask, hmask;
    const uint8_t *key;      // optional, same layout as texels: non-zero = the colour key (not drawn, z untouched)
    int color;
    const uint8_t *blend;    // optional: see-through, dst = blend[colour * 256 + dst], z not written
    // optional, with blend: rows made on first use: row c is there when blend_ready[c], else
    // blend_row(blend_ctx, c) makes it and returns it
    const uint8_t *blend_ready;
    const uint8_t *(*blend_row)(void *ctx, int colour);
    void *blend_ctx;
} r_fstex_t;

// 1 when some of the triangle is in front of the near plane and its front faces the eye (the
// winding rule of the level files); 0 otherwise (NaN coordinates included).
int r_fstri_facing(const r_fsvert_t in[3]);

// Draw a triangle whose front faces the eye (the winding rule of the level files);
// `two_sided` draws back faces too. Returns 1 when any of it was in front of the
// near plane and facing (it was rasterized), 0 otherwise.
int r_fstri_draw(const r_view_t *v, const r_fstex_t *tex, const r_fsvert_t in[3], int two_sided);

#endif
