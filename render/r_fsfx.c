// r_fsfx.c -- Forsaken's invulnerability bits, worked out from the time alone (see r_fsfx.h)
#include "r_fsfx.h"

#include <math.h>
#include <stdint.h>

#include "../engine/world.h"

static uint32_t next(uint32_t *x)
{
    *x = world_hash32(*x + 0x9e3779b9u);
    return *x;
}

// CreateInvEffect's direction: each axis Random_Range(5120) / 20480 - 0.125, normalised.
static void random_dir(uint32_t *x, float d[3])
{
    float l = 0;
    for (int k = 0; k < 3; k++) {
        d[k] = (float)(next(x) % 5120u) / 20480.0f - 0.125f;
        l += d[k] * d[k];
    }
    l = sqrtf(l);
    if (l < 1e-6f) {
        d[0] = d[1] = 0;
        d[2] = 1;
        return;
    }
    for (int k = 0; k < 3; k++)
        d[k] /= l;
}

// The slide from s to e: its angle, and the lerp's step a tick (2 degrees of it: D2R(2 / Angle),
// at most all of it).
static float slide_step(const float s[3], const float e[3], float *angle)
{
    float c = s[0] * e[0] + s[1] * e[1] + s[2] * e[2];
    c = c > 1 ? 1 : c < -1 ? -1 : c;
    *angle = acosf(c);
    float step = *angle > 0 ? (2.0f / *angle) * (float)(M_PI / 180) : 1;
    return step > 1 ? 1 : step;
}

// u (0..1) of the way from s to e along the great circle (`angle` apart), unit.
static void slide_at(const float s[3], const float e[3], float angle, float u, float out[3])
{
    float sn = sinf(angle);
    float wa = sn > 1e-5f ? sinf((1 - u) * angle) / sn : 1 - u, wb = sn > 1e-5f ? sinf(u * angle) / sn : u, l = 0;
    for (int j = 0; j < 3; j++) {
        out[j] = s[j] * wa + e[j] * wb;
        l += out[j] * out[j];
    }
    l = sqrtf(l);
    for (int j = 0; j < 3; j++)
        out[j] = l > 1e-6f ? out[j] / l : s[j];
}

int r_fsfx_inv_bits(int ship, double t, double since, int frames, r_fsfx_bit_t *out, int max)
{
    if (!isfinite(t) || !out || max <= 0)
        return 0;
    if (frames < 1)
        frames = 1;
    double now = t * FSFX_TICKS_PER_SEC;
    double last = floor(now), first = last - (FSFX_INV_MAX_AGE - 1);
    if (isfinite(since) && since * FSFX_TICKS_PER_SEC > first)
        first = ceil(since * FSFX_TICKS_PER_SEC);
    int n = 0;
    for (double tick = last; tick >= first && n < max; tick--) {
        float age = (float)(now - tick);
        for (int k = 0; k < FSFX_INV_PER_TICK && n < max; k++) {
            uint32_t x = world_hash32((uint32_t)ship * 0x85ebca6bu ^ (uint32_t)(int64_t)tick * 0xc2b2ae35u ^ (uint32_t)k);
            float s[3], e[3];
            random_dir(&x, s);
            random_dir(&x, e);
            float angle, step = slide_step(s, e, &angle);
            // ProcessPolys kills it the tick after its lerp reached the end
            if ((age - 1) * step >= 1)
                continue;
            float red = 255 - 5 * age, rest = 64 - 5 * age;
            if (red <= 0)
                continue;   // black, added: nothing to see
            float u = age * step < 1 ? age * step : 1;
            r_fsfx_bit_t *b = &out[n++];
            slide_at(s, e, angle, u, b->dir);
            b->rgb[0] = red / 255;
            b->rgb[1] = b->rgb[2] = rest > 0 ? rest / 255 : 0;
            b->age = age;
            b->scale = 0.5f;
            b->frame = (int)(age / 6) % frames;
            b->id = (uint32_t)(int64_t)tick * 8u + (uint32_t)k;
        }
    }
    return n;
}

int r_fsfx_shield_hit(const float hit_dir[3], uint32_t seed, int spirals, const float rgb[3], float ticks,
                      r_fsfx_bit_t *out, int max)
{
    if (!out || max <= 0 || !(ticks >= 0) || !isfinite(ticks) || spirals <= 0)
        return 0;
    float s[3], l = 0;
    for (int k = 0; k < 3; k++) {
        s[k] = isfinite(hit_dir[k]) ? hit_dir[k] : 0;
        l += s[k] * s[k];
    }
    l = sqrtf(l);
    if (l < 1e-6f)
        return 0;
    for (int k = 0; k < 3; k++)
        s[k] /= l;
    int n = 0;
    for (int sp = 0; sp < spirals && sp < 16 && n < max; sp++) {
        uint32_t x = world_hash32(seed * 0x85ebca6bu ^ (uint32_t)sp * 0xc2b2ae35u);
        float e[3];
        random_dir(&x, e);
        float angle, step = slide_step(s, e, &angle), start = 0;
        for (int q = 0; q < 4 && n < max && start < 1; q++, start += step * 6) {
            // ProcessPolys kills it the tick after its lerp reached the end
            if (start + (ticks - 1) * step >= 1)
                continue;
            float val = (255.0f - (float)(3 - q) * 40.0f) / 256.0f, lit[3];
            int any = 0;
            for (int k = 0; k < 3; k++) {
                float v = (rgb[k] > 0 ? rgb[k] : 0) * val - 5 * ticks;
                lit[k] = v > 0 ? v / 255 : 0;
                any |= v > 0;
            }
            if (!any)
                continue;
            float u = start + ticks * step;
            u = u < 1 ? u : 1;
            r_fsfx_bit_t *b = &out[n++];
            slide_at(s, e, angle, u, b->dir);
            for (int j = 0; j < 3; j++)
                b->rgb[j] = lit[j];
            b->age = ticks;
            b->scale = 1.0f - (float)(3 - q) * 0.15f;
            b->frame = 0;
            b->id = (uint32_t)(sp * 4 + q);
        }
    }
    return n;
}
