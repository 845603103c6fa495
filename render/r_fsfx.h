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
#define FSFX_SHIELD_HALF   32.0f    // ... 128 x GLOBAL_SCALE across each way (x each square's scale)
#define FSFX_INV_HALF      16.0f    // the invulnerability bits' scale 0.5

typedef struct {
    float dir[3];      // unit: from the ship's centre to the bit's middle (FSFX_INV_RADIUS out)
    float rgb[3];      // 0..1: red 255 - 5 a tick, green and blue 64 - 5 a tick (a = age in ticks)
    float age;         // ticks since it was made
    float scale;       // of ShieldVerts' square: half-width FSFX_SHIELD_HALF x scale (the bits: 0.5)
    int frame;         // BITS.OFF's frame: a sixth of the age, wrapping over `frames`
    uint32_t id;       // which bit: its tick x 8 + its number in the tick (0..4)
} r_fsfx_bit_t;

// The bits of ship entity `ship` at time t (seconds), made every tick since `since` (seconds:
// when it became invulnerable, or a large negative number if not known) and not gone yet; at most
// max into out; `frames` is BITS.OFF's frame count (at least 1). Returns how many.
int r_fsfx_inv_bits(int ship, double t, double since, int frames, r_fsfx_bit_t *out, int max);

// The shield's flash where a shot hit a ship (Primary.c's CreateShieldEffect, Polys.c's POLY_SHIELD):
// `spirals` of 4 CIRCLE.OFF squares each, all starting at `hit_dir` (unit, from the ship's centre
// to the hit) and sliding 2 degrees a tick towards a random direction of their own (from `seed`),
// the 4 a spiral set off 6 steps apart along it, sized 0.55, 0.7, 0.85, 1 of ShieldVerts (32 units
// each way) and lit 0.53 .. 1 of `rgb` (0..255), every channel losing 5 a tick; `ticks` since the
// hit (out[i].age). Returns how many (at most max).
int r_fsfx_shield_hit(const float hit_dir[3], uint32_t seed, int spirals, const float rgb[3], float ticks,
                      r_fsfx_bit_t *out, int max);

#endif
