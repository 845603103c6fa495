// r_dither.c -- palette-aware ordered dithering (r_dither.h): the pattern and each palette's cell table
#include "r_dither.h"

#include "../assets/pal.h"

const uint8_t r_dither_bayer[2][4][4] = {
    { { 0, 8, 2, 10 }, { 12, 4, 14, 6 }, { 3, 11, 1, 9 }, { 15, 7, 13, 5 } },
    { { 8, 8, 8, 8 }, { 8, 8, 8, 8 }, { 8, 8, 8, 8 }, { 8, 8, 8, 8 } },
};

// Each colour's others nearest first (distance, then index): a cell's search for B walks A's list
// and stops where the penalty alone loses, instead of trying all 256.
static void neighbours(uint8_t *list, const float *pr, const float *pg, const float *pb, int ncolours, int a)
{
    uint32_t key[256];
    for (int b = 0; b < ncolours; b++) {
        float dr = pr[b] - pr[a], dg = pg[b] - pg[a], db = pb[b] - pb[a];
        key[b] = (uint32_t)(dr * dr + dg * dg + db * db);   // a whole number below 2^18
    }
    // by distance, equal ones in index order (an insertion sort of at most 256)
    int n = 0;
    for (int b = 0; b < ncolours; b++) {
        int k = n++;
        while (k > 0 && key[list[k - 1]] > key[b]) {
            list[k] = list[k - 1];
            k--;
        }
        list[k] = (uint8_t)b;
    }
}

// For each 5:5:5 cell (its centre c): A its nearest colour, then the colour B and share q (in 16ths)
// whose mix A + q (B - A) comes nearest c, a little against pairs far apart (their pattern shows):
// error |A + q (B - A) - c|^2 + |B - A|^2 / 8. Measured on c1a0 (tests/test_goldsrc_light.c): 1/4
// leaves a band in a smooth gradient, 1/16 .. 1/256 speckle flat areas more for no smoother one.
// B: the least error, ties to the lower index (as trying every B in index order would give).
void r_dither_build(r_dither_t *d, const uint8_t *palette, int ncolours, const uint8_t *inv)
{
    if (ncolours < 1 || ncolours > 256)
        ncolours = 256;
    pal_near_t near;
    if (!inv)
        pal_near_init(&near, palette, ncolours);
    float pr[256], pg[256], pb[256];
    for (int i = 0; i < 256; i++) {
        pr[i] = palette[i * 3];
        pg[i] = palette[i * 3 + 1];
        pb[i] = palette[i * 3 + 2];
    }
    uint8_t lists[256][256], have[256] = { 0 };
    for (int cell = 0; cell < 32768; cell++) {
        float c[3] = { (float)((cell >> 10) << 3 | 4), (float)(((cell >> 5) & 31) << 3 | 4), (float)((cell & 31) << 3 | 4) };
        int a = inv ? inv[cell] : pal_near(&near, (int)c[0], (int)c[1], (int)c[2]);
        a = a < ncolours ? a : 0;
        if (!have[a]) {
            neighbours(lists[a], pr, pg, pb, ncolours, a);
            have[a] = 1;
        }
        int best_b = a, best_m = 0;
        float ca[3] = { c[0] - pr[a], c[1] - pg[a], c[2] - pb[a] };
        float best = ca[0] * ca[0] + ca[1] * ca[1] + ca[2] * ca[2];
        // the least error A + m/16 (B - A) - c plus the penalty |B - A|^2 / 8; ties to the lower B
        for (int k = 0; k < ncolours; k++) {
            int b = lists[a][k];
            float dr = pr[b] - pr[a], dg = pg[b] - pg[a], db = pb[b] - pb[a];
            float dd = dr * dr + dg * dg + db * db;
            if (dd <= 0)
                continue;
            if (dd * (1.0f / 8) > best)   // the penalty alone loses, for this B and every later one
                break;
            float proj = ca[0] * dr + ca[1] * dg + ca[2] * db;
            if (proj <= 0)
                continue;
            int m = (int)(proj / dd * 16 + 0.5f);
            if (m < 1)
                continue;
            if (m > 16)
                m = 16;
            float f = (float)m / 16, e = dd / 8;
            float r0 = ca[0] - f * (pr[b] - pr[a]), r1 = ca[1] - f * (pg[b] - pg[a]), r2 = ca[2] - f * (pb[b] - pb[a]);
            e += r0 * r0 + r1 * r1 + r2 * r2;
            if (e < best || (e == best && best_m > 0 && b < best_b)) {
                best = e;
                best_b = b;
                best_m = m;
            }
        }
        d->mix[cell] = (uint32_t)a | (uint32_t)best_b << 8 | (uint32_t)best_m << 16;
    }
}
