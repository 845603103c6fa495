// mxv.h -- Forsaken level meshes (Data/Levels/NAME/NAME.MXV) and their 8-bit BMP textures
//
//     char err[256];
//     mxv_t *m = mxv_load(bytes, size, "ship.mxv", err, sizeof err);   // "ship.mxv: offset N: expected ..."
//     asset_files_t files = { my_loader, ctx };
//     mxv_load_textures(m, &files, "levels/ship");   // never fails: missing ones are checkerboards
//     ... m->tris[i].v[k] index m->verts; m->tris[i].texture indexes m->textures ...
//     mxv_free(m);
//
// An MXV holds the level as the game's Direct3D execute buffers: per group
// (a room or corridor), buffers of lit vertices (position, baked light colour,
// texture coordinates) and per texture a list of triangles. After the meshes,
// per group its name, box and portals (the polygons leading to other groups),
// then per portal a tree of the groups visible through it (the game's Mload.c
// layout, docs/forsaken.md): what the game's visi.c culls by.
// Textures are 8-bit BMPs with their own palettes; the loader picks one
// palette for the level by median cut and maps every texture to it.
#ifndef MXV_H
#define MXV_H

#define MXV_HUD_COLOURS 24        // the game's text and panel colours every level palette keeps

#include <stddef.h>
#include <math.h>
#include <stdint.h>

#include "asset.h"

#define MXV_MAGIC "PRJX"
#define MXV_VERSION 3
#define MXV_MAX_TEXTURES 256
#define MXV_NAME_LEN 64
#define MXV_VERTEX_SIZE 32      // a D3DLVERTEX
#define MXV_TRIANGLE_SIZE 20    // three u16 indices, u16 edge flags, f32 normal[3]
#define MXV_TEXGROUP_SIZE 10    // five u16
#define MXV_MAX_TEX_SIDE 1024
#define MXV_DEFAULT_SIDE 16     // the checkerboard drawn for a missing texture
// Portal section limits (the game's Mload.h: MAXPORTALSPERGROUP, MAXVERTSPERPORTAL,
// MAXPOLYSPERPORTAL); the tree depth is ours (a path through the level's groups).
#define MXV_VIS_FORMAT 2        // the u16 after the meshes: 0 = no portals, 2 = "recursive" tree
#define MXV_MAX_PORTALS 64      // per group
#define MXV_MAX_PORTAL_VERTS 32
#define MXV_MAX_PORTAL_POLYS 32
#define MXV_PORTAL_POLY_SIZE 52 // u32 type, f32 normal[3], f32 D, 4 x (f32 u, v)
#define MXV_MAX_VIS_DEPTH 128
#define MXV_GROUP_NAME_LEN 32
#define MXV_TRANSPARENT 0x0001  // buffer flag (exec_type HASTRANSPARENCIES): drawn see-through

typedef struct {
    float pos[3];               // game axes: x right, y up, z forward
    uint8_t r, g, b, a;         // baked light (the D3D vertex colour)
    uint8_t light;              // its brightness 0..255 (the brightest channel)
    float st[2];                // texture coordinates, 0..1 across the texture (wrapping)
} mxv_vertex_t;

#define MXV_TRI_COLOURKEY 0x0001 // edge flags bit 0: a colour-keyed triangle (its texture's black texels not drawn)

typedef struct {
    uint32_t v[3];              // into verts, in the file's order
    int texture;                // into textures
    float normal[3];            // as stored
    uint16_t flags;             // the stored edge flags (MXV_TRI_COLOURKEY)
} mxv_tri_t;

typedef struct {
    int first_vert, num_verts;
    int first_tri, num_tris;
    uint32_t flags;             // the buffer's exec_type (high 16 bits of its type word): MXV_TRANSPARENT
} mxv_buffer_t;

typedef struct {
    int first_buffer, num_buffers;
    float mins[3], maxs[3];     // bounds of its vertices (0 when it has none)
    // from the portal section (zero when the file has none)
    char name[MXV_GROUP_NAME_LEN];
    float center[3], half_size[3];   // the game's box of the group (PointInGroupBoundingBox)
    int first_portal, num_portals;   // into portals
} mxv_group_t;

typedef struct {
    int first_vert, num_verts;  // into portal_verts (the polygon's corners)
    float plane[4];             // its first polygon's plane: the eye looks through it when n . eye + D >= 0
    int has_plane;              // 0: no polygon stored (never seen): not tested
    int root;                   // into vis: the tree of groups seen through this portal
} mxv_portal_t;

// One node of a visibility tree: through `portal` (an index into portals, a portal of the
// group the parent node leads to) the group `group` may be seen; then its children.
typedef struct {
    int group;
    int portal;
    int first_child, next_sibling;   // into vis, -1 = none
} mxv_visnode_t;

typedef struct {
    char name[MXV_NAME_LEN];    // as listed in the MXV
    int width, height;
    size_t offset;              // into texels, top row first
    int missing;                // 1: not found or unreadable, a checkerboard
    int key_texels;             // texels of the key colour (black, when the BMP's first colour is black)
} mxv_texture_t;

typedef struct {
    int version;
    int num_textures, num_groups, num_buffers, num_verts, num_tris;
    int num_keyed_tris;         // triangles with MXV_TRI_COLOURKEY
    mxv_texture_t *textures;
    mxv_group_t *groups;
    mxv_buffer_t *buffers;
    mxv_vertex_t *verts;
    mxv_tri_t *tris;
    size_t mesh_end;            // file offset where the portal section starts
    // portal section (has_portals 0: absent or unreadable, see portal_warning; draw everything)
    int has_portals;
    int num_portals, num_portal_verts, num_vis;
    mxv_portal_t *portals;
    float (*portal_verts)[3];
    mxv_visnode_t *vis;
    size_t portal_end;          // file offset after the visibility trees
    char portal_warning[200];   // why the portal section was not used ("" when it was, or is absent)
    // after the portal section, past the three group connection tables (Visi.c ReadGroupConnections):
    // the sound distances, num_groups x num_groups f32 (the game's SoundInfo[from][to]: units added to
    // a sound's distance, negative: not heard); NULL when absent or unreadable (sound_warning says why)
    float *sound_info;
    char sound_warning[200];
    // set by mxv_load_textures
    uint8_t palette[768];       // the level's palette: median cut of the textures (up to 216), the HUD's
                                // colours (MXV_HUD_COLOURS, from 240 - MXV_HUD_COLOURS at most), a grey ramp (240..255)
    uint8_t *texels;
    size_t texels_size;
    uint8_t *keys;              // parallel to texels: 1 = the key colour (see mxv_load_textures); NULL: no key texels
    int textures_missing;
} mxv_t;

// Parse the meshes. NULL with "NAME: offset N: expected ..." in err on bad input.
mxv_t *mxv_load(const uint8_t *data, size_t size, const char *name, char *err, size_t errcap);
// Load the textures from DIR/textures/NAME, else textures/NAME (the game's shared
// folder), choose the palette and map them to it. Returns the number missing, -1 out of memory.
// A texture whose BMP palette starts with black has a colour key, black (the game's Tload.c:
// HasBmpGotRealBlack, SetColorKey RGB 0 0 0): its black texels are marked in keys.
int mxv_load_textures(mxv_t *m, const asset_files_t *files, const char *dir);
void mxv_free(mxv_t *m);

// Where the line from `org` along `dir` meets the triangle a, a + e1, a + e2 (either side), in
// units of dir; -1 when it misses or lies in the triangle's plane (Moller-Trumbore).
static inline float mxv_ray_tri(const float org[3], const float dir[3], const float a[3], const float e1[3],
                                const float e2[3])
{
    float p[3] = { dir[1] * e2[2] - dir[2] * e2[1], dir[2] * e2[0] - dir[0] * e2[2], dir[0] * e2[1] - dir[1] * e2[0] };
    float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (fabsf(det) < 1e-8f)
        return -1;
    float inv = 1 / det, s[3] = { org[0] - a[0], org[1] - a[1], org[2] - a[2] };
    float u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
    if (u < 0 || u > 1)
        return -1;
    float q[3] = { s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0] };
    float v = (dir[0] * q[0] + dir[1] * q[1] + dir[2] * q[2]) * inv;
    if (v < 0 || u + v > 1)
        return -1;
    return (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
}

// Distance along the unit `dir` from `org` to the first triangle of the mesh it meets (either
// side, further than half a unit), or `max` when none is nearer; *tri (may be NULL) that
// triangle, -1 none. Every triangle is tested (no partition): callers ask once per shot.
float mxv_first_hit(const mxv_t *m, const float org[3], const float dir[3], float max, int *tri);

// 8-bit BMP, uncompressed or RLE8 (what Forsaken's textures are): pixels top row first.
// Returns 0, or -1 with "offset N: expected ..." in err. *pixels is malloc'd.
int mxv_bmp_load(const uint8_t *data, size_t size, int max_side, int *width, int *height, uint8_t **pixels,
                 uint8_t palette[768], char *err, size_t errcap);

#endif
