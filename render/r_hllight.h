// r_hllight.h -- Half-Life's light in 8 bits: coloured lightmaps, dynamic lights, studio model light
//
// World surfaces: each texel is the texture's colour times the RGB light, quantized to the level
// palette through a 15-bit (5:5:5) intermediate, dithered twice by one 4 x 4 ordered pattern: on
// the 8 -> 5 bit step, and between the two palette colours whose mix comes nearest each 5:5:5
// cell (a table built once a level), so a smooth light gradient has no bands (docs/goldsrc.md
// says why). Surface cache blocks stay 8-bit; nothing is allocated while drawing.
//
// Studio models: the engine's StudioDynamicLight / StudioEntityLight / StudioLighting rules
// (ambient + shade from the light under the model, the light's direction from the lightmap's
// gradient, dlights adding to both, entity lights per vertex, lambert 1.5, direct 0.9).
#ifndef R_HLLIGHT_H
#define R_HLLIGHT_H

#include <stdint.h>

#include "r_view.h"

#define HLL_LEVELS 64         // light levels of a channel: level / 32 of the colour (0 .. ~2x)
#define HLL_MAX_ELIGHTS 3     // entity lights on one model (the engine keeps the strongest few)

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

// A model's light by the engine's rules (GoldSrc's alight_t), in its units: 255 = the texture as painted.
typedef struct {
    float ambient, shade;
    vec3_t lightvec;          // world space, unit: the direction the light travels (down: 0 0 -1)
    int num_elights;
    vec3_t el_org[HLL_MAX_ELIGHTS];   // entity lights: world position, radius^2, intensity 0..255
    float el_r2[HLL_MAX_ELIGHTS];
    float el_intensity[HLL_MAX_ELIGHTS];
    float color[3];           // the light's colour, its brightest channel 1 (plight->color); 0 0 0: white
} r_hl_alight_t;

// The light of a studio model at org (R_StudioDynamicLight + R_StudioEntityLight): the world's light
// at org, 8 units up, traced down and at 4 points 16 units around (the gradient gives the direction),
// the dlights reaching org (not the entity lights), v_direct 0.9. fallback_light (Quake's 0..255 scale,
// 128 = as painted) stands in for the world when the view has none.
void r_hl_model_light(const r_view_t *v, const vec3_t org, int fallback_light, r_hl_alight_t *out);
// R_StudioLighting: the illumination 0..255 of a normal (world space, unit) under a light; flags the
// texture's STUDIO_NF_FLATSHADE / FULLBRIGHT.
static inline float r_hl_studio_illum(const r_hl_alight_t *al, const float normal[3], int flags)
{
    if (flags & 4)   // STUDIO_NF_FULLBRIGHT
        return 255;
    float illum = al->ambient;
    if (flags & 1) {   // STUDIO_NF_FLATSHADE
        illum += al->shade * 0.8f;
    } else {
        // -1: facing the light, 1: turned away; v_lambert 1.5 softens the falloff
        float c = normal[0] * al->lightvec[0] + normal[1] * al->lightvec[1] + normal[2] * al->lightvec[2];
        if (c > 1)
            c = 1;
        illum += al->shade;
        const float lambert = 1.5f;
        c = (c + (lambert - 1)) / lambert;
        if (c > 0)
            illum -= al->shade * c;
        if (illum < 0)
            illum = 0;
    }
    return illum > 255 ? 255 : illum;
}
// The level colormap tinted by a light's colour (64 rows x 256, as the level's: row 32 the texel as
// painted, darker below), for studio models lit by coloured light: NULL when the colour is white
// (within 1/32) or there are no tables (use v->colormap). Cached: 8 colours a level, in steps of 1/32.
const uint8_t *r_hl_model_colormap(const r_view_t *v, const float color[3]);
// The entity lights' part at a vertex (world space position and unit normal), 0..255.
float r_hl_elight_illum(const r_hl_alight_t *al, const float pos[3], const float normal[3]);

#endif
