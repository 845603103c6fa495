// r_hllight.h -- Half-Life's light in 8 bits: coloured lightmaps and coloured dynamic lights
//
// World surfaces: each texel is the texture's colour times the RGB light, quantized to the level
// palette through a 15-bit (5:5:5) intermediate, dithered twice by one 4 x 4 ordered pattern: on
// the 8 -> 5 bit step, and between the two palette colours whose mix comes nearest each 5:5:5
// cell (a table built once a level), so a smooth light gradient has no bands (docs/goldsrc.md
// says why). Surface cache blocks stay 8-bit; nothing is allocated while drawing.
#ifndef R_HLLIGHT_H
#define R_HLLIGHT_H

#include <stdint.h>

#include "r_view.h"

#define HLL_LEVELS 64         // light levels of a channel: level / 32 of the colour (0 .. ~2x)

typedef struct r_hllight_s r_hllight_t;

// Once a level (GoldSrc levels only): the tables for its palette. NULL on no memory.
r_hllight_t *r_hllight_create(void);
void r_hllight_free(r_hllight_t *hl);
// inv: the level's 5:5:5 inverse colour table (r_hlmodes_t.inv).
void r_hllight_build(r_hllight_t *hl, const uint8_t *palette, const uint8_t *inv);
double r_hllight_build_ms(const r_hllight_t *hl);   // how long the last build took
// Test hook: 0 turns the dither off (each texel its 5:5:5 cell's nearest colour, or the mix's
// majority colour).
void r_hllight_set_dither(r_hllight_t *hl, int on);

#endif
