// bsp_local.h -- what the level loaders (bsp.c: BSP29/30, bsp30.c: GoldSrc textures, bsp38.c: Quake II) share
#ifndef BSP_LOCAL_H
#define BSP_LOCAL_H

#include <math.h>

#include "bsp.h"

// ---- reading a level file (shared by the BSP29/30 and IBSP38 loaders) -----------

#define BSP_MAX_LUMPS 19   // IBSP38 has the most

typedef struct {
    const uint8_t *data;
    size_t size;
    const char *name;
    char *err;
    size_t errcap;
    size_t dir;                        // file offset of the lump directory: 4 (BSP29/30), 8 (IBSP)
    uint32_t ofs[BSP_MAX_LUMPS], len[BSP_MAX_LUMPS];   // checked against the file by the caller
    const asset_files_t *files;        // textures and WADs the level names
} bsp_ld_t;

// "NAME: offset N: expected ..." into l->err; returns -1.
int bsp_fail(bsp_ld_t *l, size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// Little-endian reads; callers have checked the range.
static inline uint32_t rd_u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static inline int32_t rd_s32(const uint8_t *p) { return (int32_t)rd_u32(p); }
static inline int rd_s16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }
static inline int rd_u16(const uint8_t *p) { return p[0] | p[1] << 8; }
static inline float rd_f32(const uint8_t *p)
{
    union { uint32_t u; float f; } v;
    v.u = rd_u32(p);
    return isfinite(v.f) ? v.f : 0.0f;
}

// Records of `recsize` bytes in lump i; -1 (and the error) on a bad lump size.
int bsp_lump_count(bsp_ld_t *l, int i, size_t recsize, const char *what);
// calloc that never asks for 0 bytes.
void *bsp_alloc_n(size_t n, size_t size);
// The lumps both families store alike (20-byte planes, 12-byte vertices, 4-byte edges
// and surfedges, 20-byte faces), and nodes whose children are child_bytes (2 or 4) wide.
int bsp_load_planes(bsp_ld_t *l, bsp_t *b, int lump);
int bsp_load_vertices(bsp_ld_t *l, bsp_t *b, int lump);
int bsp_load_edges(bsp_ld_t *l, bsp_t *b, int edges, int surfedges);
// Faces: `flags` gives a face's BSP_SURF_* from its texinfo (texture names for Quake,
// surface flags for Quake II); light_bytes is 1, or 3 for RGB light kept as one byte.
int bsp_load_faces(bsp_ld_t *l, bsp_t *b, int lump, int (*flags)(const bsp_t *b, const bsp_texinfo_t *ti),
                   int light_bytes);
int bsp_load_nodes(bsp_ld_t *l, bsp_t *b, int lump, int child_bytes);

// Bytes of one texture's four mip levels when mip 0 is w x h.
#define BSP_MIP_BYTES(w, h) ((size_t)(w) * (size_t)(h) / 64 * 85)
// The texel bytes of the default (checkerboard) texture.
#define BSP_DEFAULT_TEXELS (16 * 16 + 8 * 8 + 4 * 4 + 2 * 2)

// Texture idx becomes the default checkerboard, its texels written at texel_ofs.
void bsp_default_texture(bsp_t *b, int idx, uint32_t texel_ofs);
// Link '+0..9' / '+a..j' animation chains by name (Quake's and GoldSrc's rule). -1: out of memory.
int bsp_link_animations(bsp_t *b);

// GoldSrc textures (bsp30.c): the texture lump at file offset `lump_ofs`, each
// miptex in the file or (when its mip offsets are 0) in a WAD the worldspawn names;
// fills b->textures, b->texels and b->palette. -1 with *at and "expected ..." in msg.
int bsp30_load_textures(bsp_t *b, const uint8_t *lump, uint32_t len, uint32_t lump_ofs, const asset_files_t *files,
                        size_t *at, char *msg, size_t msgcap);

#endif
