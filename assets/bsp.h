// bsp.h -- level files: BSP29 (Quake), BSP30 (GoldSrc) and IBSP38 (Quake II) loaded into one in-memory form
//
//     bsp_t *b = bsp_load(bytes, size, "maps/e1m3.bsp", err, sizeof err);   // NULL + "maps/e1m3.bsp: offset N: expected ..."
//     bsp_t *b = bsp_load_files(bytes, size, "maps/base1.bsp", &files, err, sizeof err);  // + external textures
//     ... b->faces[i], b->nodes[..] ...
//     bsp_free(b);
//
// Every index in the file is checked when loading, so users can follow indices
// without further checks. Children: >= 0 is a node, < 0 is leaf -(c + 1).
// The loader owns no pointers into the file bytes: the caller may free them.
#ifndef BSP_H
#define BSP_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/world.h"
#include "asset.h"

// Leaf contents (Quake's numbers).
enum { BSP_CONTENTS_EMPTY = -1, BSP_CONTENTS_SOLID = -2, BSP_CONTENTS_WATER = -3, BSP_CONTENTS_SLIME = -4,
       BSP_CONTENTS_LAVA = -5, BSP_CONTENTS_SKY = -6 };

// Face flags (set by the loader from the texture name and the plane side).
enum { BSP_SURF_PLANEBACK = 1, BSP_SURF_SKY = 2, BSP_SURF_TURB = 4, BSP_SURF_NOLIGHT = 8, BSP_SURF_NODRAW = 16,
       BSP_SURF_TRANS33 = 32, BSP_SURF_TRANS66 = 64,   // Quake II see-through surfaces
       BSP_SURF_FLOWING = 128 };                       // Quake II: texture scrolls along s

#define BSP_MAXSTYLES 4
#define BSP_MIPLEVELS 4
#define BSP_MAX_ANIM 10

typedef struct {
    vec3_t normal;
    float dist;
    int type;          // 0,1,2: axial x,y,z; 3..5 not axial
} bsp_plane_t;

typedef struct {
    float vecs[2][4];  // s = dot(p, vecs[0]) + vecs[0][3]
    int texture;       // index into textures (always valid)
    int flags;
} bsp_texinfo_t;

typedef struct {
    char name[16];               // IBSP38: the texinfo's name ("e1u1/floor3_1"), cut to 15 characters
    int width, height;           // mip 0; multiples of 16 after loading
    uint32_t offsets[BSP_MIPLEVELS];  // into bsp_t.texels
    // animation: frame chains as Quake's R_TextureAnimation expects them
    int anim_total;              // number of frames in the chain (0 = not animated)
    int anim_frames[BSP_MAX_ANIM];      // texture indices of the +0.. chain
    int alt_total;               // +a.. chain
    int alt_frames[BSP_MAX_ANIM];
    int missing;                 // 1: not in the file (or its WADs): the default checkerboard
} bsp_texture_t;

typedef struct {
    int plane;
    int firstedge, numedges;     // into surfedges
    int texinfo;
    int flags;                   // BSP_SURF_*
    uint8_t styles[BSP_MAXSTYLES];   // 255 = none
    int lightofs;                // into lightdata, -1 = none
    int texturemins[2];          // multiples of 16
    int extents[2];              // multiples of 16
} bsp_face_t;

typedef struct {
    int plane;
    int children[2];
    float mins[3], maxs[3];
    int firstface, numfaces;
    int parent;                  // -1 for a root
} bsp_node_t;

typedef struct {
    int contents;
    int visofs;                  // into visdata, -1 = none (IBSP38: the PVS row of the leaf's cluster)
    float mins[3], maxs[3];
    int firstmark, nummarks;     // into marksurfaces
    int parent;
    uint8_t ambient[4];
    int cluster;                 // IBSP38: PVS cluster (-1 = none); BSP29/30: leaf - 1
} bsp_leaf_t;

typedef struct {
    float mins[3], maxs[3];
    float origin[3];
    int headnode;                // into nodes (the drawing hull); IBSP38 brush models may name a leaf, -(leaf + 1)
    int visleafs;
    int firstface, numfaces;
} bsp_model_t;

typedef struct {
    int version;                 // 29, 30 or 38
    char name[WORLD_NAME_LEN];
    int num_planes, num_vertices, num_edges, num_surfedges, num_texinfo, num_textures;
    int num_faces, num_nodes, num_leafs, num_marks, num_models;
    size_t vis_size, light_size, texel_size, entities_size;
    bsp_plane_t *planes;
    vec3_t *vertices;
    uint32_t (*edges)[2];
    int32_t *surfedges;          // < 0: edge used reversed
    bsp_texinfo_t *texinfo;
    bsp_texture_t *textures;
    uint8_t *texels;             // every texture's mip levels
    bsp_face_t *faces;
    bsp_node_t *nodes;
    bsp_leaf_t *leafs;
    int32_t *marks;              // marksurfaces -> faces
    bsp_model_t *models;
    uint8_t *visdata;
    uint8_t *lightdata;          // 8-bit light samples
    char *entities;              // NUL-terminated
    // IBSP38: visdata holds cluster rows (bsp_leaf_pvs expands them to leaf bits)
    int num_clusters;
    // BSP30: the textures came with their own palettes; the loader chose this one
    // for the level and mapped every texel to it (index 255 = transparent in '{' textures).
    int has_palette;
    uint8_t palette[768];
} bsp_t;

bsp_t *bsp_load(const uint8_t *data, size_t size, const char *name, char *err, size_t errcap);
// The same, with a way to read the files a level names: Quake II's textures/NAME.wal,
// GoldSrc's WAD3 files (worldspawn "wad"). Missing ones draw with a default texture.
bsp_t *bsp_load_files(const uint8_t *data, size_t size, const char *name, const asset_files_t *files,
                      char *err, size_t errcap);
// IBSP38 (Quake II), in bsp38.c; bsp_load_files hands "IBSP" files to it.
bsp_t *bsp38_load(const uint8_t *data, size_t size, const char *name, const asset_files_t *files,
                  char *err, size_t errcap);
void bsp_free(bsp_t *b);
// The number of models (the world + its brush models *1..*N) a BSP29/30 file holds,
// from its header alone (what bsp_load gives as num_models); -1 if the bytes are
// not such a file or the model lump lies outside them.
int bsp_model_count(const uint8_t *data, size_t size);

// The value of `key` in the worldspawn (the first entity of the entity text), or "".
void bsp_worldspawn_value(const bsp_t *b, const char *key, char *out, size_t cap);
// Leaf index containing point p in the tree of model 0.
int bsp_point_leaf(const bsp_t *b, const vec3_t p);
// Decompress the PVS row of leaf into out ((num_leafs+7)/8 bytes; all-visible
// when the leaf has no vis data). Leaf 0 (the outside) sees everything.
void bsp_leaf_pvs(const bsp_t *b, int leaf, uint8_t *out, size_t outsize);

// A line through the tree of `headnode` (the world: models[0].headnode), Quake's point
// trace: the first crossing from an open leaf into a solid one (BSP_CONTENTS_SOLID).
typedef struct {
    float fraction;              // 0..1 of start -> end where it stopped (1: nothing hit)
    vec3_t endpos;               // that point, 1/32 unit short of the wall
    vec3_t normal;               // the hit plane's normal, facing the start
    int plane;                   // the hit plane (-1 none)
    int node;                    // the node whose plane it is (-1 none)
    int face;                    // the face there holding the hit point, -1 when none does
    int startsolid, allsolid;    // the start lies in a solid leaf / the whole segment does
} bsp_trace_t;
// 1 when it hit something. Bad arguments (a head node out of range, non-finite
// points) give fraction 1 and 0.
int bsp_trace(const bsp_t *b, int headnode, const vec3_t start, const vec3_t end, bsp_trace_t *tr);

#endif
