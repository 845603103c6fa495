// fsrtl.c -- Forsaken's real-time lights (.RTL): see fsrtl.h
#include "fsrtl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"

#define ANIM_SECOND 60.0      // the game's animation 60ths
#define TICKS_PER_SECOND 71.0 // its ticks (docs/forsaken.md "The game's tables")

static int rd_f32(asset_rd_t *r, const char *what, int nonneg, float *out)
{
    if (asset_rd_need(r, 1, 4, what) < 0)
        return -1;
    float v = asset_f32(r->d + r->at);
    if (!isfinite(v) || fabsf(v) > 1e9f || (nonneg && v < 0))
        return asset_rd_fail(r, r->at, "%s, a finite number%s", what, nonneg ? " of 0 or more" : "");
    *out = v;
    r->at += 4;
    return 0;
}

static int rd_u16_max(asset_rd_t *r, const char *what, int max, int *out)
{
    size_t at = r->at;
    if (asset_rd_u16(r, what, out) < 0)
        return -1;
    if (*out > max)
        return asset_rd_fail(r, at, "%s 0..%d, found %d", what, max, *out);
    return 0;
}

fsrtl_t *fsrtl_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap)
{
    asset_rd_t r = { data, data ? size : 0, 0, name ? name : "rtl", err, cap, 0 };
    if (err && cap)
        err[0] = 0;
    fsrtl_t *l = calloc(1, sizeof *l);
    if (!l) {
        asset_rd_fail(&r, 0, "memory for the lights");
        return NULL;
    }
    int count;
    if (asset_rd_need(&r, 1, 8, "the PRJX header") < 0)
        goto bad;
    if (memcmp(data, "PRJX", 4) != 0) {
        asset_rd_fail(&r, 0, "the magic PRJX");
        goto bad;
    }
    uint32_t v = asset_u32(data + 4);
    if (v != 2) {
        asset_rd_fail(&r, 4, "version 2 (RTL_VERSION_NUMBER), found %u", v);
        goto bad;
    }
    r.at = 8;
    if (asset_rd_u16(&r, "a light count", &count) < 0)
        goto bad;
    // a light is at least 54 bytes (a fixed or flickering one)
    if (asset_rd_need(&r, (size_t)count, 54, "lights") < 0)
        goto bad;
    l->lights = calloc((size_t)count + 1, sizeof *l->lights);
    if (!l->lights) {
        asset_rd_fail(&r, 8, "memory for %d lights", count);
        goto bad;
    }
    l->count = count;
    for (int i = 0; i < count; i++) {
        fsrtl_light_t *o = &l->lights[i];
        if (rd_u16_max(&r, "a light type", FSRTL_SPOT, &o->type) < 0 || asset_rd_u16(&r, "a group", &o->group) < 0)
            goto bad;
        for (int k = 0; k < 3; k++)
            if (rd_f32(&r, "a position", 0, &o->pos[k]) < 0)
                goto bad;
        if (rd_f32(&r, "a range", 1, &o->range) < 0)
            goto bad;
        for (int k = 0; k < 3; k++) {
            if (rd_f32(&r, "a colour", 0, &o->rgb[k]) < 0)
                goto bad;
            o->rgb[k] *= 255.0f;
        }
        if (rd_u16_max(&r, "a generation type", FSRTL_GEN_TRIGGER, &o->gen_type) < 0 ||
            rd_f32(&r, "a generation delay", 1, &o->gen_delay) < 0)
            goto bad;
        switch (o->type) {
        case FSRTL_FIXED:
            if (rd_u16_max(&r, "a pulse type", FSRTL_WAVE, &o->on_type) < 0 ||
                rd_u16_max(&r, "a pulse type", FSRTL_WAVE, &o->off_type) < 0 || rd_f32(&r, "an on time", 1, &o->t[0]) < 0 ||
                rd_f32(&r, "an off time", 1, &o->t[1]) < 0)
                goto bad;
            break;
        case FSRTL_PULSING:
            if (rd_u16_max(&r, "a pulse type", FSRTL_WAVE, &o->on_type) < 0)
                goto bad;
            o->off_type = o->on_type;
            for (int k = 0; k < 4; k++)
                if (rd_f32(&r, "a pulse time", 1, &o->t[k]) < 0)
                    goto bad;
            break;
        case FSRTL_FLICKERING:
            for (int k = 0; k < 4; k++)
                if (rd_f32(&r, k < 2 ? "a flicker chance" : "a flicker time", 0, &o->t[k]) < 0)
                    goto bad;
            break;
        default:
            for (int k = 0; k < 3; k++)
                if (rd_f32(&r, "a direction", 0, &o->dir[k]) < 0)
                    goto bad;
            for (int k = 0; k < 3; k++)
                if (rd_f32(&r, "an up vector", 0, &o->up[k]) < 0)
                    goto bad;
            if (rd_f32(&r, "a cone", 1, &o->cone) < 0 || rd_f32(&r, "a rotation period", 0, &o->period) < 0)
                goto bad;
            break;
        }
    }
    l->end = r.at;
    return l;
bad:
    fsrtl_free(l);
    return NULL;
}

void fsrtl_free(fsrtl_t *l)
{
    if (!l)
        return;
    free(l->lights);
    free(l);
}

// InterpLightOn / InterpLightOff's shapes of a stretch's share s (0..1).
static float shape_on(int type, float s)
{
    switch (type) {
    case FSRTL_BLINK: return 1.0f;
    case FSRTL_HALFWAVE: return sinf((float)M_PI * 0.5f * s);
    case FSRTL_WAVE: return 0.5f + 0.5f * sinf((float)M_PI * s - (float)M_PI * 0.5f);
    default: return s;
    }
}

static float shape_off(int type, float s)
{
    switch (type) {
    case FSRTL_BLINK: return 0.0f;
    case FSRTL_HALFWAVE: return sinf((float)M_PI * 0.5f + (float)M_PI * 0.5f * s);
    case FSRTL_WAVE: return 0.5f + 0.5f * sinf((float)M_PI * s + (float)M_PI * 0.5f);
    default: return 1.0f - s;
    }
}

float fsrtl_pulse(const fsrtl_light_t *l, double t)
{
    if (!l || !(t >= 0))
        return 0.0f;
    double now = t * TICKS_PER_SECOND;   // the game's now_time: ticks since it was switched on
    if (l->type == FSRTL_FIXED) {
        double on = l->t[0] * ANIM_SECOND;
        return now < on ? shape_on(l->on_type, (float)(now / on)) : 1.0f;
    }
    if (l->type != FSRTL_PULSING)
        return 1.0f;
    double on = l->t[0] * ANIM_SECOND, stay_on = on + l->t[1] * ANIM_SECOND;
    double off = stay_on + l->t[2] * ANIM_SECOND, total = off + l->t[3] * ANIM_SECOND;
    if (total <= 0)
        return 1.0f;
    if (now > total)
        now = fmod(now, total);
    if (now < on)
        return shape_on(l->on_type, (float)(now / on));
    if (now < stay_on)
        return 1.0f;
    if (now < off)
        return shape_off(l->on_type, (float)((now - stay_on) / (off - stay_on)));
    return 0.0f;
}
