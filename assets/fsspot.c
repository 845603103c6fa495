// fsspot.c -- Forsaken spot effects (.FX), bounded by the file: layout in fsspot.h
#include "fsspot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"

static const char *const TYPE_NAMES[] = {
    "Smoke", "Steam", "Sparks", "NmeTrail", "NmeGlow", "NmeVapourTrail", "Flame", "Explosion", "FirePrimary",
    "FireSecondary", "ElectricBeams", "GravgonTrail", "FireWall", "GravitySparks", "Shrapnel", "Bubbles", "Drip",
    "SoundFX",
};

const char *fsspot_type_name(int type)
{
    if (type >= 0 && type < (int)(sizeof TYPE_NAMES / sizeof TYPE_NAMES[0]))
        return TYPE_NAMES[type];
    return type < FSSPOT_TYPES ? "Afterburner" : "?";
}

// n f32 at the cursor into out, each finite and within 1e7 (a level is some 10 000 units across).
static int floats(asset_rd_t *c, float *out, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        float f = asset_f32(c->d + c->at + (size_t)i * 4);
        if (!isfinite(f) || fabsf(f) > 1e7f)
            return asset_rd_fail(c, c->at + (size_t)i * 4, "%s: a finite number within 1e7, got %g", what, (double)f);
        out[i] = f;
    }
    c->at += (size_t)n * 4;
    return 0;
}

static int one(asset_rd_t *c, fsspot_fx_t *fx)
{
    fx->offset = c->at;
    if (asset_rd_need(c, 1, 52, "an effect (u16 type, group, u32 colour, f32 position, direction, up, two times)") < 0)
        return -1;
    const uint8_t *p = c->d + c->at;
    fx->type = asset_u16(p);
    fx->group = asset_u16(p + 2);
    if (fx->type >= FSSPOT_TYPES)
        return asset_rd_fail(c, c->at, "an effect type below %d, got %d", FSSPOT_TYPES, fx->type);
    uint32_t col = asset_u32(p + 4);
    fx->r = (uint8_t)(col >> 16);
    fx->g = (uint8_t)(col >> 8);
    fx->b = (uint8_t)col;
    c->at += 8;
    if (floats(c, fx->pos, 3, "position") < 0 || floats(c, fx->dir, 3, "direction") < 0 || floats(c, fx->up, 3, "up") < 0 ||
        floats(c, &fx->active, 1, "active time") < 0 || floats(c, &fx->inactive, 1, "inactive time") < 0)
        return -1;
    if (asset_rd_need(c, 1, 10, "u16 generation type, f32 delay, s16 primary, s16 secondary") < 0)
        return -1;
    fx->gen_type = asset_u16(c->d + c->at);
    if (fx->gen_type > 2)
        return asset_rd_fail(c, c->at, "a generation type 0..2, got %d", fx->gen_type);
    c->at += 2;
    if (floats(c, &fx->gen_delay, 1, "generation delay") < 0)
        return -1;
    fx->primary = asset_s16(c->d + c->at);
    fx->secondary = asset_s16(c->d + c->at + 2);
    c->at += 4;
    size_t left = c->n - c->at, max = left < FSSPOT_NAME_LEN ? left : FSSPOT_NAME_LEN;
    const uint8_t *s = c->d + c->at, *end = memchr(s, 0, max);
    if (!end)
        return asset_rd_fail(c, c->at, "a NUL-terminated sound name of at most %d characters", FSSPOT_NAME_LEN - 1);
    size_t len = (size_t)(end - s);
    for (size_t i = 0; i < len; i++)
        if (s[i] < 0x20 || s[i] > 0x7e)
            return asset_rd_fail(c, c->at + i, "a printable sound name, got byte 0x%02x", s[i]);
    memcpy(fx->sound, s, len);
    fx->sound[len] = 0;
    c->at += len + 1;
    if (asset_rd_need(c, 1, 10, "f32 volume, f32 speed, s16 sound type") < 0 || floats(c, &fx->volume, 1, "volume") < 0 ||
        floats(c, &fx->speed, 1, "speed") < 0)
        return -1;
    fx->sound_type = asset_s16(c->d + c->at);
    c->at += 2;
    return 0;
}

fsspot_t *fsspot_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap)
{
    asset_rd_t c = { data, data ? size : 0, 0, name ? name : "fx", err, cap, 0 };
    if (err && cap)
        err[0] = 0;
    if (asset_rd_need(&c, 1, 12, "a header (\"PRJX\", u32 version, s32 count)") < 0)
        return NULL;
    if (memcmp(c.d, "PRJX", 4) != 0) {
        asset_rd_fail(&c, 0, "the magic \"PRJX\"");
        return NULL;
    }
    uint32_t version = asset_u32(c.d + 4);
    if (version != FSSPOT_VERSION) {
        asset_rd_fail(&c, 4, "version %d, got %u", FSSPOT_VERSION, version);
        return NULL;
    }
    int32_t count = asset_s32(c.d + 8);
    if (count < 0 || count > FSSPOT_MAX) {
        asset_rd_fail(&c, 8, "0..%d effects, got %d", FSSPOT_MAX, count);
        return NULL;
    }
    c.at = 12;
    // each record is at least FSSPOT_FIXED + 1 bytes: the count must fit before anything is allocated
    if (asset_rd_need(&c, (size_t)count, FSSPOT_FIXED + 1, "effects") < 0)
        return NULL;
    fsspot_t *s = calloc(1, sizeof *s);
    if (s)
        s->fx = calloc(count ? (size_t)count : 1, sizeof *s->fx);
    if (!s || !s->fx) {
        asset_rd_fail(&c, 8, "memory for %d effects", count);
        fsspot_free(s);
        return NULL;
    }
    for (int i = 0; i < count; i++)
        if (one(&c, &s->fx[i]) < 0) {
            fsspot_free(s);
            return NULL;
        }
    s->count = count;
    s->end = c.at;
    return s;
}

void fsspot_free(fsspot_t *s)
{
    if (!s)
        return;
    free(s->fx);
    free(s);
}
