// bsp_local.h -- what the level loaders (bsp.c: BSP29/30, bsp30.c: GoldSrc textures, bsp38.c: Quake II) share
#ifndef BSP_LOCAL_H
#define BSP_LOCAL_H

#include "bsp.h"

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
