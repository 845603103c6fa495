// r_dither.h -- an RGB colour to a palette index without bands: palette-aware ordered dithering
//
// Game-neutral. A colour (three 8-bit channels) is quantized in two dithered steps by one 4 x 4
// Bayer pattern:
// 1. to a 15-bit (5:5:5) cell: the pattern's half (0..7) is added to each channel before it is
//    cut to 5 bits, so a channel between two 5-bit steps shows as a mix of both;
// 2. to one of the cell's two palette colours A and B (a table built once a palette): the pattern
//    picks B where its threshold (read 2 columns and 1 row further on, so the two steps are not
//    in step) is below the cell's share of B.
// Used by GoldSrc's coloured lightmaps (r_hllight.c, in texture space) and Forsaken's vertex
// colours (r_fsworld.c, in screen space, as the 16-bit cards the game ran on dithered).
// docs/goldsrc.md ("Light") says why both steps and how the pair is chosen.
#ifndef R_DITHER_H
#define R_DITHER_H

#include <stdint.h>

// The 4 x 4 Bayer matrix (0..15); [1]: the dither off (the middle of both steps: nearest colours).
extern const uint8_t r_dither_bayer[2][4][4];

// For each 5:5:5 cell (r << 10 | g << 5 | b): its nearest colour A (bits 0..7), a second colour
// B (8..15) and B's share m in 16ths (16..20).
typedef struct {
    uint32_t mix[32768];
} r_dither_t;

// The cells of a palette of `ncolours` colours (the first ncolours of palette[768]); inv: each
// cell's nearest colour (r << 10 | g << 5 | b, centre of the cell), or NULL to find them here.
void r_dither_build(r_dither_t *d, const uint8_t *palette, int ncolours, const uint8_t *inv);

// A colour whose channels are 0..248 at a pixel of the pattern: its palette index.
static inline uint8_t r_dither_pick(const uint32_t *mix, const uint8_t (*pattern)[4], unsigned r, unsigned g, unsigned b,
                                    unsigned x, unsigned y)
{
    unsigned dd = pattern[y & 3][x & 3] >> 1;
    r += dd;
    g += dd;
    b += dd;
    uint32_t e = mix[(r & 0xf8u) << 7 | (g & 0xf8u) << 2 | b >> 3];
    return (uint8_t)(pattern[(y + 1) & 3][(x + 2) & 3] < (e >> 16) ? e >> 8 : e);
}

#endif
