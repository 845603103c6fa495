// quake_write.c -- the Quake .dem writer (see quake_write.h)
#include "quake_write.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// The same bit and flag values the decoder reads (formats/quake.c).
enum {
    U_MOREBITS = 1 << 0, U_ORIGIN1 = 1 << 1, U_ORIGIN2 = 1 << 2, U_ORIGIN3 = 1 << 3, U_ANGLE2 = 1 << 4,
    U_FRAME = 1 << 6, U_ANGLE1 = 1 << 8, U_ANGLE3 = 1 << 9, U_MODEL = 1 << 10, U_COLORMAP = 1 << 11,
    U_SKIN = 1 << 12, U_EFFECTS = 1 << 13, U_LONGENTITY = 1 << 14, U_EXTEND1 = 1 << 15, U_ALPHA = 1 << 16,
    U_FRAME2 = 1 << 17, U_MODEL2 = 1 << 18, U_LERPFINISH = 1 << 19, U_SCALE = 1 << 20, U_EXTEND2 = 1 << 23,
};
enum { B_LARGEMODEL = 1 << 0, B_LARGEFRAME = 1 << 1, B_ALPHA = 1 << 2, B_SCALE = 1 << 3 };
enum {
    PRFL_SHORTANGLE = 1 << 1, PRFL_FLOATANGLE = 1 << 2, PRFL_24BITCOORD = 1 << 3, PRFL_FLOATCOORD = 1 << 4,
    PRFL_INT32COORD = 1 << 7,
};
enum { SND_VOLUME = 1, SND_ATTENUATION = 2, SND_LARGEENTITY = 8, SND_LARGESOUND = 16 };

void qw_init(qw_demo_t *d)
{
    memset(d, 0, sizeof(*d));
    d->block_start = SIZE_MAX;
    d->protocol = 15;
}

void qw_free(qw_demo_t *d)
{
    free(d->data);
    memset(d, 0, sizeof(*d));
}

void qw_raw(qw_demo_t *d, const void *bytes, size_t n)
{
    if (d->oom)
        return;
    if (d->size + n > d->cap) {
        size_t cap = d->cap ? d->cap : 65536;
        while (cap < d->size + n)
            cap *= 2;
        uint8_t *p = realloc(d->data, cap);
        if (!p) {
            d->oom = 1;
            return;
        }
        d->data = p;
        d->cap = cap;
    }
    memcpy(d->data + d->size, bytes, n);
    d->size += n;
}

void qw_byte(qw_demo_t *d, int v)
{
    uint8_t b = (uint8_t)v;
    qw_raw(d, &b, 1);
}

void qw_short(qw_demo_t *d, int v)
{
    uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    qw_raw(d, b, 2);
}

void qw_long(qw_demo_t *d, int32_t v)
{
    uint32_t u = (uint32_t)v;
    uint8_t b[4] = { (uint8_t)u, (uint8_t)(u >> 8), (uint8_t)(u >> 16), (uint8_t)(u >> 24) };
    qw_raw(d, b, 4);
}

void qw_float(qw_demo_t *d, float v)
{
    union { float f; uint32_t u; } x;
    x.f = v;
    qw_long(d, (int32_t)x.u);
}

void qw_string(qw_demo_t *d, const char *s)
{
    qw_raw(d, s, strlen(s) + 1);
}

void qw_coord(qw_demo_t *d, float v)
{
    if (d->protocolflags & PRFL_FLOATCOORD)
        qw_float(d, v);
    else if (d->protocolflags & PRFL_INT32COORD)
        qw_long(d, (int32_t)lrintf(v * 16.0f));
    else if (d->protocolflags & PRFL_24BITCOORD) {
        int whole = (int)floorf(v);
        int frac = (int)lrintf((v - (float)whole) * 255.0f);
        if (frac > 255) {
            whole++;
            frac = 0;
        }
        qw_short(d, whole);
        qw_byte(d, frac);
    } else
        qw_short(d, (int)lrintf(v * 8.0f));
}

void qw_angle(qw_demo_t *d, float v)
{
    if (d->protocolflags & PRFL_FLOATANGLE)
        qw_float(d, v);
    else if (d->protocolflags & PRFL_SHORTANGLE)
        qw_short(d, (int)lrintf(v * 65536.0f / 360.0f) & 0xffff);
    else
        qw_byte(d, (int)lrintf(v * 256.0f / 360.0f) & 0xff);
}

void qw_cdtrack(qw_demo_t *d, const char *line)
{
    qw_raw(d, line, strlen(line));
}

void qw_block_begin(qw_demo_t *d, const float angles[3])
{
    if (d->block_start != SIZE_MAX)
        qw_block_end(d);
    d->block_start = d->size;
    qw_long(d, 0);
    for (int i = 0; i < 3; i++)
        qw_float(d, angles[i]);
}

void qw_block_end(qw_demo_t *d)
{
    if (d->block_start == SIZE_MAX || d->oom)
        return;
    uint32_t len = (uint32_t)(d->size - d->block_start - 16);
    uint8_t *p = d->data + d->block_start;
    p[0] = (uint8_t)len;
    p[1] = (uint8_t)(len >> 8);
    p[2] = (uint8_t)(len >> 16);
    p[3] = (uint8_t)(len >> 24);
    d->block_start = SIZE_MAX;
}

void qw_serverinfo(qw_demo_t *d, int32_t protocol, uint32_t flags, int maxclients, int gametype, const char *level,
                   const char *const *models, int nmodels, const char *const *sounds, int nsounds)
{
    qw_byte(d, 11);
    qw_long(d, protocol);
    d->protocol = protocol;
    d->protocolflags = protocol == 999 ? flags : 0;
    if (protocol == 999)
        qw_long(d, (int32_t)flags);
    qw_byte(d, maxclients);
    qw_byte(d, gametype);
    qw_string(d, level);
    for (int i = 0; i < nmodels; i++)
        qw_string(d, models[i]);
    qw_byte(d, 0);
    for (int i = 0; i < nsounds; i++)
        qw_string(d, sounds[i]);
    qw_byte(d, 0);
}

void qw_time(qw_demo_t *d, float t)
{
    qw_byte(d, QW_SVC_TIME);
    qw_float(d, t);
}

void qw_text(qw_demo_t *d, int svc, const char *text)
{
    qw_byte(d, svc);
    qw_string(d, text);
}

void qw_update(qw_demo_t *d, uint32_t bits, int num, const entity_state_t *st, int alpha, int scale, int lerpfinish)
{
    int fitz = d->protocol != 15;
    qw_byte(d, (int)((bits & 0x7f) | 0x80));
    if (bits & U_MOREBITS)
        qw_byte(d, (int)(bits >> 8));
    if (fitz) {
        if (bits & U_EXTEND1)
            qw_byte(d, (int)(bits >> 16));
        if (bits & U_EXTEND2)
            qw_byte(d, (int)(bits >> 24));
    }
    if (bits & U_LONGENTITY)
        qw_short(d, num);
    else
        qw_byte(d, num);
    if (bits & U_MODEL)
        qw_byte(d, st->modelindex);
    if (bits & U_FRAME)
        qw_byte(d, st->frame);
    if (bits & U_COLORMAP)
        qw_byte(d, st->colormap);
    if (bits & U_SKIN)
        qw_byte(d, st->skin);
    if (bits & U_EFFECTS)
        qw_byte(d, (int)st->raw_effects);
    if (bits & U_ORIGIN1)
        qw_coord(d, st->origin[0]);
    if (bits & U_ANGLE1)
        qw_angle(d, st->angles[0]);
    if (bits & U_ORIGIN2)
        qw_coord(d, st->origin[1]);
    if (bits & U_ANGLE2)
        qw_angle(d, st->angles[1]);
    if (bits & U_ORIGIN3)
        qw_coord(d, st->origin[2]);
    if (bits & U_ANGLE3)
        qw_angle(d, st->angles[2]);
    if (fitz) {
        if (bits & U_ALPHA)
            qw_byte(d, alpha);
        if (bits & U_SCALE)
            qw_byte(d, scale);
        if (bits & U_FRAME2)
            qw_byte(d, st->frame >> 8);
        if (bits & U_MODEL2)
            qw_byte(d, st->modelindex >> 8);
        if (bits & U_LERPFINISH)
            qw_byte(d, lerpfinish);
    }
}

void qw_baseline(qw_demo_t *d, int num, int version2, int bits, const entity_state_t *st, int alpha, int scale)
{
    if (num >= 0) {
        qw_byte(d, version2 ? 42 : 22);
        qw_short(d, num);
    } else {
        qw_byte(d, version2 ? 43 : 20);
    }
    if (!version2)
        bits = 0;
    else
        qw_byte(d, bits);
    if (bits & B_LARGEMODEL)
        qw_short(d, st->modelindex);
    else
        qw_byte(d, st->modelindex);
    if (bits & B_LARGEFRAME)
        qw_short(d, st->frame);
    else
        qw_byte(d, st->frame);
    qw_byte(d, st->colormap);
    qw_byte(d, st->skin);
    for (int i = 0; i < 3; i++) {
        qw_coord(d, st->origin[i]);
        qw_angle(d, st->angles[i]);
    }
    if (bits & B_ALPHA)
        qw_byte(d, alpha);
    if (bits & B_SCALE)
        qw_byte(d, scale);
}

void qw_sound(qw_demo_t *d, int bits, int volume, int attenuation, int entity, int channel, int sound,
              const float origin[3])
{
    int fitz = d->protocol != 15;
    qw_byte(d, 6);
    qw_byte(d, bits);
    if (bits & SND_VOLUME)
        qw_byte(d, volume);
    if (bits & SND_ATTENUATION)
        qw_byte(d, attenuation);
    if (fitz && (bits & SND_LARGEENTITY)) {
        qw_short(d, entity);
        qw_byte(d, channel);
    } else {
        qw_short(d, (entity << 3) | (channel & 7));
    }
    if (fitz && (bits & SND_LARGESOUND))
        qw_short(d, sound);
    else
        qw_byte(d, sound);
    for (int i = 0; i < 3; i++)
        qw_coord(d, origin[i]);
}
