// r_q2ent.c -- Quake II's rules for drawing entities (see r_q2ent.h); numbers from its client and ref_soft
#include "r_q2ent.h"

#include <math.h>

uint32_t r_q2_shell_bits(uint32_t effects, uint32_t renderfx, int rogue)
{
    uint32_t rfx = renderfx;
    int shell = (effects & Q2EF_COLOR_SHELL) != 0;
    // the power-ups the client turns into shells
    if (effects & Q2EF_PENT)
        rfx |= Q2RF_SHELL_RED, shell = 1;
    if (effects & Q2EF_QUAD)
        rfx |= Q2RF_SHELL_BLUE, shell = 1;
    if (effects & Q2EF_DOUBLE)
        rfx |= Q2RF_SHELL_DOUBLE, shell = 1;
    if (effects & Q2EF_HALF_DAMAGE)
        rfx |= Q2RF_SHELL_HALF_DAM, shell = 1;
    if (!shell)
        return 0;
    if (rogue) {
        // the mission pack keeps combinations readable: half damage gives way to red,
        // blue or double; double gives way to a colour, red turns purple, blue cyan
        if ((rfx & Q2RF_SHELL_HALF_DAM) && (rfx & (Q2RF_SHELL_RED | Q2RF_SHELL_BLUE | Q2RF_SHELL_DOUBLE)))
            rfx &= ~(uint32_t)Q2RF_SHELL_HALF_DAM;
        if (rfx & Q2RF_SHELL_DOUBLE) {
            if (rfx & (Q2RF_SHELL_RED | Q2RF_SHELL_BLUE | Q2RF_SHELL_GREEN))
                rfx &= ~(uint32_t)Q2RF_SHELL_DOUBLE;
            if (rfx & Q2RF_SHELL_RED)
                rfx |= Q2RF_SHELL_BLUE;
            else if (rfx & Q2RF_SHELL_BLUE)
                rfx = (rfx & Q2RF_SHELL_GREEN) ? rfx & ~(uint32_t)Q2RF_SHELL_BLUE : rfx | Q2RF_SHELL_GREEN;
        }
    }
    return rfx & Q2RF_SHELLS;
}

int r_q2_shell_color(uint32_t bits)
{
    switch (bits & Q2RF_SHELLS) {
    case Q2RF_SHELL_RED: return 0xF2;
    case Q2RF_SHELL_GREEN: return 0xD0;
    case Q2RF_SHELL_BLUE: return 0xF3;
    case Q2RF_SHELL_RED | Q2RF_SHELL_GREEN: return 0xDC;
    case Q2RF_SHELL_RED | Q2RF_SHELL_BLUE: return 0x68;
    case Q2RF_SHELL_BLUE | Q2RF_SHELL_GREEN: return 0x78;
    case Q2RF_SHELL_DOUBLE: return 0xDF;
    case Q2RF_SHELL_HALF_DAM: return 0x90;
    default: return 0xD7;   // any other mix: white
    }
}

float r_q2_entity_alpha(uint32_t effects, uint32_t renderfx)
{
    float a = 1.0f;
    int translucent = 0;
    if ((renderfx & Q2RF_TRANSLUCENT) && !(renderfx & Q2RF_BEAM))
        a = 0.70f, translucent = 1;
    if (effects & Q2EF_BFG)
        a = 0.30f, translucent = 1;
    if (effects & Q2EF_PLASMA)
        a = 0.6f, translucent = 1;
    if (effects & Q2EF_SPHERETRANS)
        a = (effects & Q2EF_TRACKERTRAIL) ? 0.6f : 0.3f, translucent = 1;
    return translucent ? a : 1.0f;
}

q2_alpha_t r_q2_alpha_mode(float alpha)
{
    return alpha > 0.66f ? Q2_ALPHA_OPAQUE : alpha > 0.33f ? Q2_ALPHA_66 : Q2_ALPHA_33;
}

q2_alpha_t r_q2_flat_alpha_mode(float alpha) { return alpha > 0.33f ? Q2_ALPHA_66 : Q2_ALPHA_33; }

int r_q2_model_light(int light, uint32_t renderfx, double t)
{
    float l = (float)light / 255.0f;
    if (renderfx & Q2RF_FULLBRIGHT)
        l = 1.0f;
    if ((renderfx & Q2RF_MINLIGHT) && l < 0.1f)
        l = 0.1f;
    if (renderfx & Q2RF_GLOW) {   // pick-ups pulse
        float lo = l * 0.8f;
        l += 0.1f * (float)sin(t * 7);
        if (l < lo)
            l = lo;
    }
    int j = (int)(l * 255);
    return j < 0 ? 0 : j;
}

int r_q2_beam_color(int32_t skinnum, int pick) { return (int)(((uint32_t)skinnum >> ((pick & 3) * 8)) & 0xff); }

int r_q2_explosion_look(int f, int frames, int *skin, float *alpha)
{
    if (f < 0)
        f = 0;
    if (f >= frames - 1)   // gone at its last frame
        return 0;
    if (f < 10) {   // the orange skins, two frames each, opaque
        *skin = f >> 1;
        *alpha = 1.0f;
    } else {        // then the dark ones, see-through as they fade
        *skin = f < 13 ? 5 : 6;
        *alpha = (16.0f - (float)f) / 16.0f;
    }
    return 1;
}
