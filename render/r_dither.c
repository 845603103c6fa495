// r_dither.c -- palette-aware ordered dithering (r_dither.h): the pattern and each palette's cell table
#include "r_dither.h"

#include "../assets/pal.h"

const uint8_t r_dither_bayer[2][4][4] = {
    { { 0, 8, 2, 10 }, { 12, 4, 14, 6 }, { 3, 11, 1, 9 }, { 15, 7, 13, 5 } },
    { { 8, 8, 8, 8 }, { 8, 8, 8, 8 }, { 8, 8, 8, 8 }, { 8, 8, 8, 8 } },
};

// For each 5:5:5 cell (its centre c): A its nearest colour, then the colour B and share q (in 16ths)
// whose mix A + q (B - A) comes nearest c, a little against pairs far apart (their pattern shows):
// error |A + q (B - A) - c|^2 + |B - A|^2 / 8. Measured on c1a0 (tests/test_goldsrc_light.c): 1/4
// leaves a band in a smooth gradient, 1/16 .. 1/256 speckle flat areas more for no smoother one.
void r_dither_build(r_dither_t *d, const uint8_t *palette, int ncolours, const uint8_t *inv)
{
    if (ncolours < 1 || ncolours > 256)
        ncolours = 256;
    pal_near_t near;
    if (!inv)
        pal_near_init(&near, palette, ncolours);
    float pr[256], pg[256], pb[256], dd[256], proj[256];
    for (int i = 0; i < 256; i++) {
        pr[i] = palette[i * 3];
        pg[i] = palette[i * 3 + 1];
        pb[i] = palette[i * 3 + 2];
    }
    for (int cell = 0; cell < 32768; cell++) {
        float c[3] = { (float)((cell >> 10) << 3 | 4), (float)(((cell >> 5) & 31) << 3 | 4), (float)((cell & 31) << 3 | 4) };
        int a = inv ? inv[cell] : pal_near(&near, (int)c[0], (int)c[1], (int)c[2]);
        a = a < ncolours ? a : 0;
        int best_b = a, best_m = 0;
        float ca[3] = { c[0] - pr[a], c[1] - pg[a], c[2] - pb[a] };
        float best = ca[0] * ca[0] + ca[1] * ca[1] + ca[2] * ca[2];
        // every candidate's distance from A and how far along it the cell lies (a loop the compiler
        // can vectorize), then the few near enough to be worth it
        for (int b = 0; b < ncolours; b++) {
            float dr = pr[b] - pr[a], dg = pg[b] - pg[a], db = pb[b] - pb[a];
            dd[b] = dr * dr + dg * dg + db * db;
            proj[b] = ca[0] * dr + ca[1] * dg + ca[2] * db;
        }
        for (int b = 0; b < ncolours; b++) {
            if (dd[b] <= 0 || proj[b] <= 0 || dd[b] * (1.0f / 8) >= best)   // (the penalty alone loses)
                continue;
            int m = (int)(proj[b] / dd[b] * 16 + 0.5f);
            if (m < 1)
                continue;
            if (m > 16)
                m = 16;
            float f = (float)m / 16, e = dd[b] / 8;
            float r0 = ca[0] - f * (pr[b] - pr[a]), r1 = ca[1] - f * (pg[b] - pg[a]), r2 = ca[2] - f * (pb[b] - pb[a]);
            e += r0 * r0 + r1 * r1 + r2 * r2;
            if (e < best) {
                best = e;
                best_b = b;
                best_m = m;
            }
        }
        d->mix[cell] = (uint32_t)a | (uint32_t)best_b << 8 | (uint32_t)best_m << 16;
    }
}
