// mx.h -- Forsaken models (Data/Models/*.MX and *.MXA): meshes as the game's Direct3D execute buffers
//
//     char err[256];
//     mx_t *m = mx_load(bytes, size, "xcop400.mxa", err, sizeof err);   // "xcop400.mxa: offset N: expected ..."
//     ... m->tris[i].v[k] index m->verts; m->tris[i].texture indexes m->texture_names ...
//     mx_free(m);
//
// Both files are "PRJX", a u32 version (2), the texture file names, then per
// group per execute buffer: a u16 buffer size, u16 type, u16 vertex count, the
// vertices (32-byte D3DLVERTEXes: x y z, reserved, ARGB colour, specular, tu tv;
// the first 8 are the buffer's bounding box, which the game tests for clipping
// and never draws), and per texture group five u16 (type, first vertex, vertex
// count, texture, triangle count) and 20-byte triangles (three absolute u16
// vertex indices, u16 flags, f32 normal). After the meshes a u16 says what
// follows: 2 in an MXA (u16 frame count, then per frame, group, buffer and
// texture group a u16 count of 32-byte animated vertices), else texture
// animations (u16 count ...); then fire points and spot effects. Everything is
// bounds-checked and read; docs/forsaken.md has the table and where each fact
// comes from. The meshes and an MXA's animation frames are kept (mx_pose).
#ifndef MX_H
#define MX_H

#include <stddef.h>
#include <stdint.h>

#define MX_MAGIC "PRJX"
#define MX_MAX_TEXTURES 64
#define MX_NAME_LEN 64
#define MX_BOX_VERTS 8          // each buffer's first vertices: its bounding box
#define MX_MAX_GROUPS 64
#define MX_MAX_BUFFERS 64       // per group

typedef struct {
    float pos[3];               // model axes: x right, y up, z forward (the ship's)
    uint8_t r, g, b, a;         // baked colour (D3D vertex colour)
    uint8_t light;              // its brightest channel 0..255
    float st[2];                // 0..1 across the texture
} mx_vertex_t;

typedef struct {
    uint32_t v[3];              // into verts
    int texture;                // into texture_names, -1 none
    uint16_t flags;             // bit 0: a colour-keyed triangle (black texels not drawn)
} mx_tri_t;

// One animated vertex of one MXA frame (the game's MXAVERT): what it moves to, and what moves.
#define MX_ANIM_POS 1           // MXA_ANIM_POS
#define MX_ANIM_RGB 2           // MXA_ANIM_RGB
#define MX_ANIM_UV 4            // MXA_ANIM_UV
typedef struct {
    float pos[3];
    uint8_t r, g, b;
    float st[2];
    uint32_t flags;             // MX_ANIM_*
} mx_animvert_t;

typedef struct {
    int version;
    int is_mxa;                 // 1: the tail is an MXA's vertex animation
    int num_textures;
    char texture_names[MX_MAX_TEXTURES][MX_NAME_LEN];
    int num_groups, num_buffers, num_verts, num_tris;
    int num_frames;             // MXA animation frames (0: none)
    int num_fire_points, num_spotfx;
    int bad_texture_groups;     // texture groups naming a texture past the list (their triangles: texture -1)
    mx_vertex_t *verts;         // every buffer's vertices, bounding boxes included
    mx_tri_t *tris;
    float mins[3], maxs[3];     // over the drawn vertices (and their animated positions)
    float radius;               // largest distance of a drawn vertex from the origin, in any frame
    // MXA animation (anim_frames 0: none): per texture group (file order) its first drawn vertex
    // (after the buffer's box) and its buffer's end, and per frame and texture group its animated
    // vertices, which replace the group's vertices in order.
    int num_texgroups;
    int *tg_first, *tg_end;     // into verts
    int anim_frames;            // num_frames when above 1, else 0
    int num_anim;               // animated vertices over every frame
    mx_animvert_t *anim;
    int *anim_off, *anim_num;   // [frame * num_texgroups + group]: into anim, and how many
} mx_t;

// Parse a model. NULL with "NAME: offset N: expected ..." in err on bad input.
mx_t *mx_load(const uint8_t *data, size_t size, const char *name, char *err, size_t errcap);
void mx_free(mx_t *m);
// The model's vertices between frames `from` and `to` at `t` (0..1), as the game's InterpFrames
// moves them: out (num_verts) starts as the base pose; every animated vertex of frame `from`
// whose flags say so takes position and texture coordinates from + (to - from) x t, its colour
// from + the whole part of (to - from) x t (kept to a byte as the game did). No frames, or a
// frame out of range: the base pose.
void mx_pose(const mx_t *m, int from, int to, float t, mx_vertex_t *out);

// A 24-bit uncompressed BMP (the game's effect pages: Bigexp1.bmp, expl.bmp ...) as RGB
// triples, top row first, sides 1..max_side. Returns 0, or -1 with "offset N: expected ..."
// in err. *rgb is malloc'd. (8-bit BMPs: mxv_bmp_load.)
int mx_bmp24_load(const uint8_t *data, size_t size, int max_side, int *width, int *height, uint8_t **rgb, char *err,
                  size_t errcap);

#endif
