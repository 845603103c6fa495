// r_fstri.h -- one Forsaken triangle: camera-space vertices clipped to the near plane, projected,
// z-tested against v->zbuffer and drawn perspective-correct textured (or in one colour) and
// Gouraud lit through the colormap; the same rules as r_fsworld.c's level triangles
// (pixel centres, exact texture coordinates every 16 pixels), for models and effects
// (render/r_fsent.c).
#ifndef R_FSTRI_H
#define R_FSTRI_H

#include <stdint.h>

#include "r_view.h"

typedef struct {
    float x, y, z;      // camera space: right, up, forward distances from the eye
    float s, t;         // texels
    float row;          // colormap light row: 32 = as painted .. 63 = black
} r_fsvert_t;

typedef struct {
    const uint8_t *texels;   // NULL: every pixel is `color`, lit by the row
    int wshift, wmask, hmask;
    const uint8_t *key;      // optional: 0 = texel not drawn (colour-keyed), same layout as texels
    int color;
    const uint8_t *blend;    // optional: see-through, dst = blend[colour * 256 + dst] (pal_t.alphamap), z not written
} r_fstex_t;

// Draw a triangle whose front faces the eye (the winding rule of the level files);
// `two_sided` draws back faces too. Returns 1 when any of it was in front of the
// near plane and facing (it was rasterized), 0 otherwise.
int r_fstri_draw(const r_view_t *v, const r_fstex_t *tex, const r_fsvert_t in[3], int two_sided);

#endif
