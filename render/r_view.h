// r_view.h -- private refresh defs shared by the world, model, sprite, particle and 2D drawers
//
// One r_view_t describes the frame being drawn: where the 8-bit framebuffer and
// the z-buffer are, the camera, the projection and the lighting tables. The
// world drawer (r_bsp/r_surf/d_*) fills it and draws the world first, writing
// 1/z for every pixel; models, sprites and particles then test and write the
// same z-buffer; 2D drawing comes last and ignores it.
//
// Conventions (Quake's):
// - world axes x forward, y left, z up; angles pitch, yaw, roll in degrees.
// - projection: screen x = xcenter + xscale * dot(p - vieworg, vright) / z,
//   screen y = ycenter - yscale * dot(p - vieworg, vup) / z, z = dot(p - vieworg, vpn).
// - zbuffer holds 1/z as float; larger is nearer; 0 = nothing drawn.
// - colormap: 64 rows x 256 colours (gfx/colormap.lmp): colormap[row * 256 + c],
//   row 0 brightest .. row 63 darkest, row 32 = the colour as painted; colours
//   from fullbright_start up are the same in every row.
#ifndef R_VIEW_H
#define R_VIEW_H

#include <stdint.h>

#include "../engine/world.h"

#define R_MAX_DLIGHTS 64

typedef struct {
    vec3_t origin;
    float radius;
    float die;        // time it goes out
    float decay;      // radius lost per second
    float minlight;
    int color;        // palette index tint, or -1 for white
    uint32_t rgb;     // GoldSrc: 0x1RRGGBB for a coloured light (TE_DLIGHT), 0 = white
    int elight;       // GoldSrc: an entity light (TE_ELIGHT): lights studio models only, not surfaces
    int dark;         // Quake II in software: a negative light, taking light from surfaces (not models)
} r_dlight_t;

// A screen band's drawing (r_bands.c): it draws rows [y0, y1), its own rows [out0, out1) and
// a margin. A drawer whose choice reads a pixel (a particle's centre, a glow's) that this band
// does not know (outside [y0, y1), or in a rectangle a choice made from such a pixel wrote)
// adds what it writes to the unknown rectangles (the last one grows when they are all taken);
// one that reaches the band's own rows sets miss: that frame is then drawn again on one band.
#define R_BAND_RECTS 64
typedef struct {
    int y0, y1, out0, out1;
    int miss;
    int nrect;
    int rect[R_BAND_RECTS][4];   // x0, y0, x1, y1 (exclusive)
} r_band_zone_t;

typedef struct {
    uint8_t *buffer;          // 8-bit framebuffer
    int width, height, rowbytes;
    float *zbuffer;           // width*height, 1/z
    // The rows drawn, [y0, y1) (a screen band: r_set_threads); 0, height when one thread draws
    // the view. Everything else (clipping, projection, culling) is the whole view's: a drawer
    // only skips the writes of rows outside, so a band's pixels are the whole frame's.
    int y0, y1;
    r_band_zone_t *zone;      // a band's exact rows (r_bands.c); NULL: the whole view is drawn
    vec3_t vieworg;
    vec3_t viewangles;
    vec3_t vpn, vright, vup;  // forward, right, up unit vectors
    float xcenter, ycenter;
    float xscale, yscale;     // pixels per unit at z = 1
    float fov_x, fov_y;       // degrees
    const uint8_t *colormap;  // 64*256 (+ 256 for the translation tables' use)
    const uint8_t *palette;   // 768 RGB
    const uint8_t *alphamap;  // the palette's see-through table (pal_t.alphamap), NULL if it has none
    int fullbright_start;     // first fullbright colour (224 in Quake)
    struct r_hlmodes_s *hlmodes;   // GoldSrc: render-mode tables (r_hlmodes.h), NULL in other games
    double time;              // demo time being drawn
    double fx_since;          // GoldSrc: seconds since the state drawn came (time - the world's previous frame's
                              // time, as entities are drawn between the two): the per-frame fades' steps
    // Quake's view: the client's angles before the view roll and the punch
    // (the view weapon turns with these) and the bob in units (cl_bob).
    vec3_t base_angles;
    float bob;
    // Light at a point (0 dark .. 255 bright, Quake's R_LightPoint scale), with
    // dlights added; provided by the world drawer.
    int (*light_point)(void *ctx, const vec3_t p);
    // The same without dlights (Quake's R_LightPoint: the lightmaps alone).
    int (*light_point_world)(void *ctx, const vec3_t p);
    void *light_ctx;
    r_dlight_t dlights[R_MAX_DLIGHTS];
    int num_dlights;
    // A camera away from the recording player's eyes (r_camera.c): no view weapon, and the
    // recording player's own model is drawn; hide_entity (> 0) is not drawn (the followed
    // player, whose eyes the view is).
    int detached;
    int hide_entity;
    // The view drawn from: the world's (the recording player's), or the followed player's own
    // when the demo carries it (r_camera_view); its entity is the camera's body, not drawn.
    const world_view_t *shown;
} r_view_t;

// The end of the rows drawn (r_view_t.y1; a view that does not set it draws to its height).
static inline int r_view_y1(const r_view_t *v) { return v->y1 > 0 && v->y1 < v->height ? v->y1 : v->height; }

// Whether pixel (x, y) may be read to decide what to draw (a band: only the pixels it knows).
static inline int r_view_pixel_known(const r_view_t *v, int x, int y)
{
    const r_band_zone_t *z = v->zone;
    if (!z)
        return 1;
    if (y < z->y0 || y >= z->y1)
        return 0;
    for (int i = 0; i < z->nrect; i++)
        if (x >= z->rect[i][0] && x < z->rect[i][2] && y >= z->rect[i][1] && y < z->rect[i][3])
            return 0;
    return 1;
}
// A drawer decided the pixels [x0, x1) x [y0, y1) from a pixel not known here.
static inline void r_view_pixels_unknown(const r_view_t *v, int x0, int y0, int x1, int y1)
{
    r_band_zone_t *z = v->zone;
    if (!z || y1 <= z->y0 || y0 >= z->y1 || x1 <= x0)
        return;
    if (y0 < z->out1 && y1 > z->out0) {
        z->miss = 1;
        return;
    }
    if (z->nrect < R_BAND_RECTS) {
        int *r = z->rect[z->nrect++];
        r[0] = x0, r[1] = y0, r[2] = x1, r[3] = y1;
        return;
    }
    // all rectangles taken: the last one grows to hold this one too (a larger unknown area)
    int *r = z->rect[R_BAND_RECTS - 1];
    r[0] = x0 < r[0] ? x0 : r[0], r[1] = y0 < r[1] ? y0 : r[1];
    r[2] = x1 > r[2] ? x1 : r[2], r[3] = y1 > r[3] ? y1 : r[3];
    if (r[1] < z->out1 && r[3] > z->out0)
        z->miss = 1;
}

// Quake's AngleVectors: forward, right, up from pitch/yaw/roll in degrees (render/r_math.c).
void r_angle_vectors(const vec3_t angles, vec3_t forward, vec3_t right, vec3_t up);

#endif
