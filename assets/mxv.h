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
// texture coordinates) and per texture a list of triangles. What follows the
// meshes (group names, bounds and portals) is not decoded (docs/forsaken.md).
// Textures are 8-bit BMPs with their own palettes; the loader picks one
// palette for the level by median cut and maps every texture to it.
#ifndef MXV_H
#define MXV_H

#include <stddef.h>
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

typedef struct {
    float pos[3];               // game axes: x right, y up, z forward
    uint8_t r, g, b, a;         // baked light (the D3D vertex colour)
    uint8_t light;              // its brightness 0..255 (the brightest channel)
    float st[2];                // texture coordinates, 0..1 across the texture (wrapping)
} mxv_vertex_t;

typedef struct {
    uint32_t v[3];              // into verts, in the file's order
    int texture;                // into textures
    float normal[3];            // as stored
} mxv_tri_t;

typedef struct {
    int first_vert, num_verts;
    int first_tri, num_tris;
    uint32_t flags;             // the high 16 bits of the buffer's type word (bit 16 seen; meaning unknown)
} mxv_buffer_t;

typedef struct {
    int first_buffer, num_buffers;
    float mins[3], maxs[3];     // bounds of its vertices (0 when it has none)
} mxv_group_t;

typedef struct {
    char name[MXV_NAME_LEN];    // as listed in the MXV
    int width, height;
    size_t offset;              // into texels, top row first
    int missing;                // 1: not found or unreadable, a checkerboard
} mxv_texture_t;

typedef struct {
    int version;
    int num_textures, num_groups, num_buffers, num_verts, num_tris;
    mxv_texture_t *textures;
    mxv_group_t *groups;
    mxv_buffer_t *buffers;
    mxv_vertex_t *verts;
    mxv_tri_t *tris;
    size_t mesh_end;            // file offset where the undecoded portal section starts
    // set by mxv_load_textures
    uint8_t palette[768];       // the level's palette (median cut of the textures)
    uint8_t *texels;
    size_t texels_size;
    int textures_missing;
} mxv_t;

// Parse the meshes. NULL with "NAME: offset N: expected ..." in err on bad input.
mxv_t *mxv_load(const uint8_t *data, size_t size, const char *name, char *err, size_t errcap);
// Load the textures from DIR/textures/NAME, else textures/NAME (the game's shared
// folder), choose the palette and map them to it. Returns the number missing, -1 out of memory.
int mxv_load_textures(mxv_t *m, const asset_files_t *files, const char *dir);
void mxv_free(mxv_t *m);

// 8-bit uncompressed BMP (what Forsaken's textures are): pixels top row first.
// Returns 0, or -1 with "offset N: expected ..." in err. *pixels is malloc'd.
int mxv_bmp_load(const uint8_t *data, size_t size, int max_side, int *width, int *height, uint8_t **pixels,
                 uint8_t palette[768], char *err, size_t errcap);

#endif
