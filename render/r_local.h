// r_local.h -- private refresh defs of the world renderer: the renderer struct, surfaces, spans
//
// Front end (r_*.c): r_bsp.c walks the BSP front to back from the view leaf's
// PVS, clips each facing polygon to the view frustum, projects and scan-converts
// it, and keeps per-row lists of the pixels no nearer polygon has covered yet
// (a span buffer, instead of Quake's edge sorting: the BSP order gives front to
// back, so a polygon only draws where its row is still free: no overdraw, and
// the walk stops when every row is full). Brush models come after the world and
// are z-tested against the 1/z the world wrote (document: docs/renderer.md).
// r_surf.c builds lit surfaces (texture x lightmap through the colormap) into a
// cache, r_light.c does light styles, dynamic lights and light-at-a-point.
// Rasterizer (d_*.c): d_span.c draws the spans of one polygon (lit, turbulent,
// sky), perspective-correct every 16 pixels.
#ifndef R_LOCAL_H
#define R_LOCAL_H

#include <stddef.h>
#include <stdint.h>

#include "../assets/bsp.h"
#include "../assets/pal.h"
#include "r_2d.h"
#include "r_fsent.h"
#include "r_fsworld.h"
#include "r_hlmodes.h"
#include "r_hlsort.h"
#include "r_models.h"
#include "r_view.h"
#include "render.h"

// Inner loops with constant sizes (block, chunk) are written once and inlined per size.
#if defined(__GNUC__)
#define R_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define R_ALWAYS_INLINE inline
#endif

#define R_MAX_WIDTH 3840
#define R_MAX_HEIGHT 2160
#define R_MAX_POLY_VERTS 96        // a face plus what frustum clipping adds
#define R_ROW_FREE_MAX 64          // free intervals one row can hold
#define R_SPAN_BATCH 4096          // spans collected per polygon before drawing them
#define R_SKY_SIZE 128
#define R_SKYBOX_MAX 1024            // sky box sides larger than this are not loaded

typedef struct {
    uint8_t *pixels;                 // w*h level-palette indices
    int w, h;
} r_skyside_t;
#define R_MAX_BLOCKLIGHTS (130 * 130)   // (2048/16+1)^2: the largest lightmap a face may have

typedef struct {
    int16_t x0, x1;   // free pixels [x0, x1)
} r_free_t;

typedef struct {
    int16_t x, y, count;
    int16_t pad;
} r_span_t;

// Per face, per frame and cache state.
typedef struct {
    int visframe;
    int trans_mode;               // R_DRAW_BLEND33/66: drawn see-through after the solid world; 0 solid
    int dlightframe;
    uint64_t dlightbits;
    int32_t cache_ofs[BSP_MIPLEVELS];       // into r->cache, -1 none
    uint32_t cache_gen[BSP_MIPLEVELS];
} r_face_t;

// Header of one surface in the cache arena; pixels follow.
typedef struct {
    int face, mip, texture;
    int width, height;
    int lightvals[BSP_MAXSTYLES];
    int dlit;
    int unlit;   // built from the texture alone (r->surf_unlit)
} r_cached_t;

// How z-tested surfaces are written (r->draw_mode): brush entities and see-through world faces.
enum {
    R_DRAW_OPAQUE = 0,   // texel, and its depth
    R_DRAW_MASKED,       // the same, except texel 255 (GoldSrc '{' textures on solid-mode entities)
    R_DRAW_BLEND33,      // a third of the texel over the pixel (pal.alphamap), depth kept
    R_DRAW_BLEND66,      // two thirds
    // GoldSrc's render modes (r_hlmodes.c): texel 255 stays transparent in both
    R_DRAW_TABLE,        // r->draw_table[texel * 256 + pixel] (alpha or additive), depth kept
    R_DRAW_COLOR         // r->draw_table[r->draw_color * 256 + pixel]: kRenderTransColor
};

// The polygon being drawn and its surface, in world space (brush models transformed).
typedef struct {
    const bsp_face_t *face;
    int face_index;
    int texture;                 // after animation
    vec3_t normal;
    float dist;
    float svec[4], tvec[4];      // texture axes in world space, with offsets
    vec3_t dl_org[R_MAX_DLIGHTS];   // dlight origins in the face's model space
    int ztest;                   // brush model: test and write the z-buffer
    float nearzi;                // largest 1/z of the clipped polygon (mip choice)
} r_surfctx_t;

// A model that is a BSP file of its own (Quake's item boxes, maps/b_*.bsp): its
// level data and per-face state, drawn as a brush entity with its model 0.
#define R_MAX_EXT_BSP 64
typedef struct {
    int modelindex;
    bsp_t *bsp;
    r_face_t *faces;
} r_extbsp_t;

struct renderer_s {
    int width, height;
    int quiet;   // r_set_quiet: its level loads and frames say nothing (another renderer says it)
    uint8_t *buffer;
    float *zbuffer;
    uint8_t shown_palette[768];
    // Output gamma applied to shown_palette after the screen blends (identity but for
    // Quake II: Yamagi's ref_soft raises the palette to 2.1 - vid_gamma = 1.1).
    uint8_t gamma[256];
    int gamma_on;
    pal_t pal;
    r_view_t view;
    r_models_t *models;
    r_2d_t *r2d;

    bsp_t *bsp;
    r_fsworld_t *fsworld;        // a Forsaken level (drawn instead of a BSP world)
    r_fsent_t *fsent;            // its ships, pickups, shots and explosions (r_fsent.c)
    char map[WORLD_NAME_LEN];
    r_face_t *faces;
    int *trans_faces;            // see-through world faces of this frame, drawn after the solid ones
    int num_trans;
    int q2_sky_seen;   // Quake II: a sky face of the world passed the walk this frame (the box shows)
    int draw_mode;               // R_DRAW_*, for z-tested surfaces
    int surf_unlit;              // the faces drawn now are built from the texture alone, without light
                                 // (GoldSrc's blended brush entities: r_hl_brush_unlit)
    const uint8_t *draw_table;   // R_DRAW_TABLE / R_DRAW_COLOR: the blend table
    int draw_color;              // R_DRAW_COLOR: the palette index blended
    r_hlsort_t hlsort;           // GoldSrc: this frame's translucent entities, far to near (r_hlsort.c)
    r_hlmodes_t *hl;             // GoldSrc levels: blend tables from the level palette (else NULL)
    struct r_hllight_s *hllight; // GoldSrc levels: the coloured light's tables (r_hllight.c)
    struct r_hldecal_s *hldecal; // GoldSrc levels: decals (r_hldecal.c), else NULL
    struct hltent_s *hltent;   // GoldSrc: temp models (shells, gibs; engine/hltent.c)
    // Called by r_surf_get after it built a surface (texture x light in pixels): a game's
    // marks on the face (GoldSrc decals; r_surf_face_lights gives their light); NULL none
    void (*surf_overlay)(renderer_t *r, const r_surfctx_t *ctx, uint8_t *pixels, int width, int height, int mip);
    int *node_visframe;
    int *leaf_visframe;
    uint8_t *pvs;
    size_t pvs_size;
    int framecount;
    int viewleaf, oldviewleaf;
    int view_contents;
    int lightstyles[WORLD_MAX_LIGHTSTYLES];
    double time;
    int entity_frame;            // frame of the brush entity drawn (alternate textures)
    // Quake's damage kick (V_ParseDamage): roll and pitch at the hit, fading to 0 over 0.5 s
    float dmg_roll, dmg_pitch;
    double dmg_time;             // demo time of the hit; < 0 none
    // Quake's stair smoothing (V_CalcRefdef's oldz): the eye's height follows a step up
    // at 80 units a second, at most 12 behind; stepped once a server frame
    float step_oldz;
    int step_valid;
    // Quake II's stair smoothing (the client's predicted step): a step of 8, 12 or
    // 16 units up on the ground lowers the eye by the step, fading over 100 ms of
    // the client's clock; taken once a server frame
    float q2_oldz;               // the player's origin z of the frame before
    int q2_oldz_valid;
    float q2_step;               // units; 0 none
    double q2_step_time;         // demo time the step's frame arrived (its previous frame's time)
    // cameras (r_camera.c): the one asked for, and what the last frame drew
    r_camera_t cam;
    r_cam_state_t cam_state;
    double cam_prev_t;           // the drawing time of the last frame (chase smoothing; < 0 none)
    float chase_org[3];          // the chase camera's smoothed place
    int chase_valid;
    int cam_body;                // the last r_camera_apply's: whose eyes the view is (r_camera_pose's body)
    world_view_t pov_view;       // the followed player's own view as a world_view_t (r_camera_view)
    int pov_slot;                // whose it holds (-1: the world's view is shown)
    r_extbsp_t ext[R_MAX_EXT_BSP];   // models that are BSP files (r_bsp.c)
    int num_ext;

    // view (the 3D part of the frame)
    int vw, vh;                  // 3D view size (vh < height when a status bar takes rows)
    float frustum_n[4][3], frustum_d[4];
    float xcenter, ycenter, xscale, yscale;
    float xc_pix, yc_pix;        // centres with the half-pixel folded in
    vec3_t vieworg, vpn, vright, vup;

    // span buffer
    r_free_t *free;              // vh rows x R_ROW_FREE_MAX
    uint8_t *free_count;
    int rows_left;
    int *edge_a, *edge_b;        // per row: polygon bounds while scan-converting
    r_span_t spans[R_SPAN_BATCH];

    // surface cache
    uint8_t *cache;
    size_t cache_size, cache_used;
    uint32_t cache_gen;
    int32_t blocklights[R_MAX_BLOCKLIGHTS];

    // sky: the two layers of the sky texture, and their blend this frame
    uint8_t sky_front[R_SKY_SIZE * R_SKY_SIZE], sky_back[R_SKY_SIZE * R_SKY_SIZE];
    uint8_t sky[R_SKY_SIZE * R_SKY_SIZE];
    int sky_texture;             // the texture the layers came from, -1 none
    int sky_frame;               // framecount the blend was made for
    r_skyside_t skybox[6];       // rt lf bk ft up dn, level-palette pixels (r_skybox.c)
    int skybox_ok;               // all six loaded: sky surfaces show the box
    vec3_t sky_vpn, sky_vright, sky_vup;   // the view's axes in the sky box's frame (Quake II's sky turns)
    int turb_ofs;
    int turbsin[128];            // liquid warp: 8 texels * (1 + sin), 16.16

    // under water the 3D view is drawn wavy (Quake's D_WarpScreen): scratch copy and offsets
    uint8_t *warp_buf;
    int *warp_col, *warp_row;

    // screen bands (r_bands.c, r_set_threads): the other bands' renderers and their threads; NULL one
    struct r_bands_s *bands;

    // statistics of the last frame (tests, benchmarks)
    int stat_polys, stat_spans, stat_surfs_built, stat_brush_polys;
    int stat_world_polys;        // world polygons of the last r_render (r_world_polys)
};

// r_main.c
void r_angle_vectors(const vec3_t angles, vec3_t forward, vec3_t right, vec3_t up);

// r_main.c: r_render's parts (r_bands.c draws the 3D part in bands)
double r_render_setup(renderer_t *r, const world_t *w, double t, int sbar);
void r_render_3d(renderer_t *r, const world_t *w, double frac, r_band_zone_t *zone);
void r_render_finish(renderer_t *r, const world_t *w, double t);

// r_bands.c: 0 when the renderer draws on one band (then r_render draws itself)
// A level without a BSP (Forsaken's mesh): the distance along the unit `dir` from `org` to its
// first wall, or `max` (r_main.c picks the game's: r_fsent_first_wall).
float r_mesh_wall(const renderer_t *r, const float org[3], const float dir[3], float max);
int r_bands_render(renderer_t *r, const world_t *w, double t);
int r_bands_count(const renderer_t *r);              // bands (1: none)
renderer_t *r_bands_get(const renderer_t *r, int i); // band i's renderer, 1 <= i < count
void r_bands_free(renderer_t *r);
// Tests: on = 1 draws every frame again on one band after its bands (the fallback's path).
void r_bands_force_redraw(renderer_t *r, int on);
int r_bands_redraws(const renderer_t *r);
// The other bands' renderers load the level on their threads while the caller loads the main
// one (start, then finish waits for them; without threads finish loads them in turn)
void r_bands_load_start(renderer_t *r, vfs_t *fs, const world_t *w);
void r_bands_load_finish(renderer_t *r);             // frames drawn again on one band so far

// r_bsp.c
void r_world_setup(renderer_t *r);        // after the level loaded: sizes per-face arrays
void r_draw_world(renderer_t *r, const world_t *w);
void r_draw_brush_entities(renderer_t *r, const world_t *w, double frac);   // the solid ones
// The world's see-through faces and (brush_entities 1) see-through brush entities: after the models
// and particles.
void r_draw_see_through(renderer_t *r, const world_t *w, double frac, int brush_entities);
// Entity n (n >= w->num_entities: static entity n - w->num_entities) when its model is a brush
// model: 1 and its origin plus the middle of its model's bounds; 0 for any other.
int r_brush_entity_centre(renderer_t *r, const world_t *w, int n, double frac, float centre[3]);
// Its see-through faces (GoldSrc's blended render modes), drawn now (r_hlsort.c's order).
void r_draw_brush_entity(renderer_t *r, const world_t *w, int n, double frac);
void r_spanbuf_clear(renderer_t *r);
// Models of the level that are BSP files of their own (not the world, not "*N"): load / free.
void r_ext_models_load(renderer_t *r, vfs_t *fs, const world_t *w);
void r_ext_models_free(renderer_t *r);
// Tests: a polygon (world space) through the same clipping and fill rules as
// the world. use_spanbuf: fill with `color` where the span buffer is free;
// else add 1 to every pixel it covers. Returns the number of spans.
int r_test_poly(renderer_t *r, const float (*verts)[3], int n, int use_spanbuf, uint8_t color);

// r_surf.c
void r_surf_reset(renderer_t *r);
// The lit surface of ctx at mip level; NULL only when out of cache (then the caller skips it).
const r_cached_t *r_surf_get(renderer_t *r, const r_surfctx_t *ctx, int mip);
// The face's light as Quake's rule makes it (one value a lightmap sample, colormap rows) into
// r->blocklights: for marks drawn over a surface its game built another way (GoldSrc decals).
void r_surf_face_lights(renderer_t *r, const r_surfctx_t *ctx);

// Where a dynamic light (at org, in the face's model space) falls on face f, as Quake's
// R_AddDynamicLights measures it: the radius left at the plane (*rad), the distance within which
// a sample is lit (*minlight), the impact point in lightmap units from the face's texture mins
// (*ls, *lt). 0: it does not reach the plane.
typedef struct {
    float rad, minlight, ls, lt;
} r_dlight_hit_t;
int r_dlight_on_face(const bsp_t *b, const bsp_face_t *f, const r_dlight_t *dl, const float *org, r_dlight_hit_t *h);
// Quake's cheap distance from the impact to sample (s, t), 16 units a sample: the longer axis
// plus half the shorter.
static inline int r_dlight_dist(const r_dlight_hit_t *h, int s, int t)
{
    int sd = (int)(h->ls - (float)(s * 16)), td = (int)(h->lt - (float)(t * 16));
    if (sd < 0)
        sd = -sd;
    if (td < 0)
        td = -td;
    return sd > td ? sd + (td >> 1) : td + (sd >> 1);
}
// GoldSrc: the surface's texels lit by the RGB lightmap, dithered to the palette (r_hllight.c);
// 0 when the level is not one (then r_surf.c builds it).
int r_hl_surface(renderer_t *r, const r_surfctx_t *ctx, int mip, uint8_t *dst, int cw);

// r_light.c
void r_light_styles(renderer_t *r, const world_t *w, double t);
void r_mark_lights(renderer_t *r);
int r_light_point(void *ctx, const vec3_t p);
int r_light_point_world(void *ctx, const vec3_t p);   // without dlights

// r_sky.c
void r_sky_load(renderer_t *r);
void r_sky_frame(renderer_t *r);
float r_sky_time(const renderer_t *r);

// r_skybox.c: the level's sky box, if it names one (Quake II, GoldSrc)
int r_skybox_load(renderer_t *r, vfs_t *fs);
void r_skybox_free(renderer_t *r);

// d_span.c
// Brush entities a hair in front of the world surfaces they touch win the z test.
#define D_BMODEL_ZBIAS 1.0005f
typedef struct {
    float zi0, dzidx, dzidy;
    float uz0, duzdx, duzdy;
    float vz0, dvzdx, dvzdy;
} d_grad_t;
void d_gradients(const renderer_t *r, const r_surfctx_t *ctx, float scale, float uofs, float vofs, d_grad_t *g);
// A lit surface's mapping, in Quake's terms (D_CalcGradients): s/z, t/z and 1/z
// linear in screen x (u) and y (v); the texel is (s/z * 65536/(1/z)) + sadjust in
// 16.16, clamped to [0, bbextent] of the cached surface.
typedef struct {
    float sdivzorigin, sdivzstepu, sdivzstepv;
    float tdivzorigin, tdivzstepu, tdivzstepv;
    float ziorigin, zistepu, zistepv;
    int sadjust, tadjust;
    int bbextents, bbextentt;
    int spanshift;   // true s, t every 1 << spanshift pixels: Quake 3; Quake II 4, more on faces facing the eye
} d_surfgrad_t;
void d_surf_gradients(const renderer_t *r, const r_surfctx_t *ctx, int mip, d_surfgrad_t *g);
// Quake's mip level of a face: 0..3 from its nearest 1/z, the projection scale and the texinfo's mipadjust.
int d_mip_level(const renderer_t *r, const r_surfctx_t *ctx);
void d_draw_spans_lit(renderer_t *r, const d_surfgrad_t *g, const r_cached_t *c, const r_span_t *s, int n, int ztest);
void d_draw_spans_turb(renderer_t *r, const d_grad_t *g, const uint8_t *tex, int tw, int th, const r_span_t *s, int n,
                       int ztest);
// Quake II's warping and flowing faces (ref_soft): the mapping (alpha_poly: seen through,
// drawn as R_DrawAlphaSurfaces does) and the spans, unlit, from the 64 x 64 texture.
void d_turb_gradients_q2(const renderer_t *r, const r_surfctx_t *ctx, int alpha_poly, d_surfgrad_t *g);
void d_draw_spans_turb_q2(renderer_t *r, const d_surfgrad_t *g, const uint8_t *tex, const int *turb, int alpha_poly,
                          const r_span_t *s, int n, int ztest);
void d_draw_spans_sky(renderer_t *r, const r_span_t *s, int n, const d_grad_t *zg, int ztest);
void d_fill_span(renderer_t *r, int x0, int x1, int y, uint8_t color);

// The view's forward, right and up for angles, by the game's angle convention (r_main.c).
void r_view_vectors(const world_t *w, const float ang[3], float f[3], float rt[3], float up[3]);
// r_camera.c: the camera asked for (r_set_camera) replaces the eyes' origin, angles and fov
// computed for the frame; sets r->view.detached / hide_entity and r->cam_state (commit 0: none of
// them, nor the chase camera's lag: only the pose, for r_camera_pose).
void r_camera_apply(renderer_t *r, const world_t *w, double t, double frac, vec3_t org, vec3_t ang, float *fov,
                    int commit);
// The view the frame is drawn from: the followed player's own when the camera follows a
// player whose view the demo carries (world_player_pov; r->pov_view, r->pov_slot), else the
// world's. Everything the eyes show (weapon, status bar, blends, kick) comes from it.
const world_view_t *r_camera_view(renderer_t *r, const world_t *w);

#endif
