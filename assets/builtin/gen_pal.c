// gen_pal.c -- the built-in palette (14 computed ramps, fire, brights, the key colour) and its light colormap
#include <math.h>

#include "../pal.h"
#include "gen.h"

// One ramp: hue (degrees) and saturation at its dark and bright ends, the
// brightness of its top level, and how far its brightest levels pale toward white.
typedef struct {
    float hue0, hue1, sat0, sat1, vmax, pale;
} ramp_t;

// In the order of Quake's palette rows, so fixed colours (fire 0x60-0x6f,
// blood 0x40-0x4f, the shirt/pants rows 1 and 6) keep their meaning.
static const ramp_t ramps[14] = {
    [GP_GREY] = { 0, 0, 0.00f, 0.00f, 236, 0.00f },
    [GP_BROWN] = { 24, 34, 0.62f, 0.50f, 150, 0.00f },
    [GP_BLUEGREY] = { 215, 220, 0.30f, 0.24f, 205, 0.00f },
    [GP_GREEN] = { 100, 90, 0.62f, 0.50f, 165, 0.00f },
    [GP_RED] = { 0, 4, 0.92f, 0.85f, 235, 0.00f },
    [GP_ORANGE] = { 18, 30, 0.90f, 0.80f, 245, 0.05f },
    // fire: dark red embers up to yellow flame, as the particle ramps expect
    [GP_GOLD] = { 4, 54, 0.97f, 0.82f, 255, 0.20f },
    [GP_SKIN] = { 16, 24, 0.50f, 0.38f, 240, 0.05f },
    [GP_PURPLE] = { 272, 280, 0.55f, 0.45f, 205, 0.00f },
    [GP_MAGENTA] = { 318, 325, 0.70f, 0.55f, 235, 0.00f },
    [GP_TAN] = { 36, 42, 0.42f, 0.32f, 232, 0.00f },
    [GP_TEAL] = { 172, 178, 0.65f, 0.50f, 195, 0.00f },
    [GP_YELLOW] = { 50, 58, 0.85f, 0.70f, 250, 0.10f },
    [GP_BLUE] = { 228, 222, 0.82f, 0.62f, 250, 0.05f },
};

// The assorted fullbrights 240..254: hue, saturation, value (0..1).
static const float brights[15][3] = {
    { 185, 0.75f, 1.00f }, { 185, 0.35f, 1.00f },   // cyan, pale cyan
    { 225, 0.85f, 1.00f }, { 215, 0.40f, 1.00f },   // blue, pale blue
    { 120, 0.85f, 0.95f }, { 110, 0.40f, 1.00f },   // green, pale green
    { 305, 0.80f, 1.00f }, { 330, 0.40f, 1.00f },   // magenta, pink
    { 0, 0.90f, 1.00f },   { 28, 0.90f, 1.00f },    // red, orange
    { 56, 0.95f, 1.00f },  { 56, 0.40f, 1.00f },    // yellow (the renderer's placeholder box), pale yellow
    { 275, 0.70f, 1.00f }, { 0, 0.00f, 0.78f },     // violet, light grey
    { 0, 0.00f, 1.00f },                            // white
};

static uint8_t to_byte(float x)
{
    x = x * 255.0f + 0.5f;
    return (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
}

static void hsv(float h, float s, float v, uint8_t *rgb)
{
    h = fmodf(h, 360.0f) / 60.0f;
    int i = (int)h;
    float f = h - (float)i;
    float p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    float r, g, b;
    switch (i) {
    case 0: r = v; g = t; b = p; break;
    case 1: r = q; g = v; b = p; break;
    case 2: r = p; g = v; b = t; break;
    case 3: r = p; g = q; b = v; break;
    case 4: r = t; g = p; b = v; break;
    default: r = v; g = p; b = q; break;
    }
    rgb[0] = to_byte(r);
    rgb[1] = to_byte(g);
    rgb[2] = to_byte(b);
}

void gen_palette(uint8_t palette[768])
{
    for (int r = 0; r < 14; r++) {
        const ramp_t *p = &ramps[r];
        for (int l = 0; l < 16; l++) {
            // index 0 must be black (the console font's transparent colour is 0 too)
            float t = r == GP_GREY ? l / 15.0f : (l + 1) / 16.0f;
            float s = p->sat0 + (p->sat1 - p->sat0) * t;
            float v = p->vmax / 255.0f * powf(t, 0.9f);
            float w = t > 0.6f ? p->pale * (t - 0.6f) / 0.4f : 0;   // the top levels pale a little
            hsv(p->hue0 + (p->hue1 - p->hue0) * t, s * (1 - w), v + (1 - v) * w * 0.5f, palette + GP(r, l) * 3);
        }
    }
    // 224..239 fullbright fire: deep red embers to a white-yellow core
    for (int l = 0; l < 16; l++) {
        float t = l / 15.0f;
        float s = t < 0.7f ? 1.0f : 1.0f - (t - 0.7f) / 0.3f * 0.75f;
        hsv(2 + 56 * t * t, s, 0.45f + 0.55f * sqrtf(t), palette + (GP_FULLBRIGHT_START + l) * 3);
    }
    for (int i = 0; i < 15; i++)
        hsv(brights[i][0], brights[i][1], brights[i][2], palette + (240 + i) * 3);
    // 255: the transparent key, a colour no picture means to show
    palette[765] = 159;
    palette[766] = 91;
    palette[767] = 83;
}

void gen_colormap(const uint8_t palette[768], uint8_t colormap[64 * 256])
{
    // Row r shows a colour at (64 - r) / 32 of its painted light, matched to the
    // lit colours 0..223; the fullbrights (and the key) stay themselves.
    for (int row = 0; row < 64; row++) {
        int scale = (64 - row) * 256 / 32;
        for (int c = 0; c < 256; c++) {
            if (c >= GP_FULLBRIGHT_START) {
                colormap[row * 256 + c] = (uint8_t)c;
                continue;
            }
            int rgb[3];
            for (int k = 0; k < 3; k++) {
                int x = (palette[c * 3 + k] * scale + 128) >> 8;
                rgb[k] = x > 255 ? 255 : x;
            }
            colormap[row * 256 + c] = (uint8_t)pal_nearest(palette, GP_FULLBRIGHT_START, rgb[0], rgb[1], rgb[2]);
        }
    }
}
