// r_fsfx.h -- Forsaken's ship effects that are neither shots nor models: the invulnerability
// bits (the game's CreateInvEffect / ProcessPolys POLY_INVBITS), as a function of time
//
// The game makes them on its own clock, with rand(), into a pool it ages a tick at a time; here
// the bits a ship shows at time t are worked out from t alone (each tick's bits from a hash of
// the ship and the tick), so a seek, a movie and a window show the same bits at the same moment.
// r_fsent.c draws them (BITS.OFF, added to the scene). Facts: docs/forsaken.md "Invulnerability".
#ifndef R_FSFX_H
#define R_FSFX_H

#include <stdint.h>

#define FSFX_TICKS_PER_SEC 71.0     // GAME_SECOND
#define FSFX_INV_PER_TICK  5        // CreateInvEffect( i, 5, 255, 64, 64 ) every tick
#define FSFX_INV_MAX_AGE   52       // ticks: its red (255 - 5 a tick) is gone at 51
#define FSFX_INV_RADIUS    75.0f    // ShieldVerts: the square 300 x GLOBAL_SCALE out from the centre
#define FSFX_INV_HALF      16.0f    // ... 128 x GLOBAL_SCALE across each way, x the bits' Scale 0.5

typedef struct {
    float dir[3];      // unit: from the ship's centre to the bit's middle (FSFX_INV_RADIUS out)
    float rgb[3];      // 0..1: red 255 - 5 a tick, green and blue 64 - 5 a tick (a = age in ticks)
    float age;         // ticks since it was made
    int frame;         // BITS.OFF's frame: a sixth of the age, wrapping over `frames`
    uint32_t id;       // which bit: its tick x 8 + its number in the tick (0..4)
} r_fsfx_bit_t;

// The bits of ship entity `ship` at time t (seconds), made every tick since `since` (seconds:
// when it became invulnerable, or a large negative number if not known) and not gone yet; at most
// max into out; `frames` is BITS.OFF's frame count (at least 1). Returns how many.
int r_fsfx_inv_bits(int ship, double t, double since, int frames, r_fsfx_bit_t *out, int max);

#endif
