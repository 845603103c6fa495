// d_polyse.h -- affine triangle rasterizer with a 1/z test, for alias models and sprites
//
// Vertices come projected: x, y in pixels (pixel centres at +0.5), z = 1/z,
// s, t in texels, l = light as a colormap row (0 bright .. 63 dark, fraction
// kept). Texture coordinates and light are interpolated linearly in screen
// space, as Quake's d_polyse did: models are small on screen, so the missing
// perspective correction does not show.
//
// Fill rule: a pixel is drawn when its centre is inside the triangle; centres
// exactly on a left or top edge belong to the triangle, on a right or bottom
// edge to its neighbour, so triangles sharing an edge never overlap nor leave
// a gap. Any coordinates are accepted: spans and rows are clipped to the
// buffer. Both windings are drawn (culling is the caller's business).
#ifndef D_POLYSE_H
#define D_POLYSE_H

#include <stdint.h>

typedef struct {
    float x, y, z, s, t, l;
} d_vert_t;

enum {
    D_LIT = 0,          // colormap[row * 256 + texel], texel 255 drawn
    D_UNLIT_MASKED = 1, // texel drawn as is; 255 = transparent (sprites)
    D_LIT_MASKED = 2,   // lit as D_LIT; 255 = transparent (masked studio textures)
    D_FLAT = 3          // one colour, texture[0] (s, t unused): Quake II's colour shells and beams
};

typedef struct {
    uint8_t *buffer;
    int width, height, rowbytes;
    float *zbuffer;            // width * height, 1/z; larger = nearer
    const uint8_t *texture;    // tex_w * tex_h palette indices
    int tex_w, tex_h;
    const uint8_t *colormap;   // 64 * 256, for D_LIT
    int mode;
    // See-through: when set, pixels are blended, z-tested but z not written:
    // dst = alphamap[c * 256 + dst] (c at 33 %), or alphamap[dst * 256 + c] with alpha66.
    const uint8_t *alphamap;
    int alpha66;
    // Rows written: [y0, y1) (a screen band, r_view_t.y0/y1); y1 <= 0: every row up to height.
    int y0, y1;
} d_polyctx_t;

// Fill one triangle, z-tested (>=) and z-written.
void d_poly_triangle(const d_polyctx_t *c, const d_vert_t *a, const d_vert_t *b, const d_vert_t *d);
// Twice the signed screen area (x right, y down): > 0 when a, b, d run clockwise on screen.
static inline float d_poly_area2(const d_vert_t *a, const d_vert_t *b, const d_vert_t *d)
{
    return (b->x - a->x) * (d->y - a->y) - (d->x - a->x) * (b->y - a->y);
}

// Quake's drawing of small alias models (id's D_PolysetDrawFinalVerts and
// D_PolysetRecursiveTriangle, chosen by r_alias.c for a model wholly on screen and
// far enough away): points on whole pixels (x, y: the pixel, as Quake's truncated
// projection), skin coordinates in 16.16 texels, z = 1/z, light = colormap row * 256.
typedef struct {
    int x, y, s, t, light;
    float z;
} d_subvert_t;
// Each vertex as one pixel lit by its own light, z-tested (>=) and z-written.
void d_poly_subdiv_points(const d_polyctx_t *c, const d_subvert_t *p, int n);
// A triangle by halving its longer-than-a-pixel edges until none is left: each
// midpoint on an edge that is not a leading one (a top or left edge) is a pixel, lit by
// a's light; the corners are left to d_poly_subdiv_points. Winding is not tested.
void d_poly_subdiv_triangle(const d_polyctx_t *c, const d_subvert_t *a, const d_subvert_t *b,
                            const d_subvert_t *d);

// A square particle of size x size pixels with its top-left pixel at (u, v)
// (Quake's placement), z-tested and written; clipped to the buffer.
void d_particle(uint8_t *buffer, int width, int height, int rowbytes, float *zbuffer, int u, int v, float zi,
                int size, uint8_t color);

#endif
