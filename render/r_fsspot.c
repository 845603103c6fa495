// r_fsspot.c -- Forsaken's spot effects as the game drew them, from the time alone (see r_fsspot.h)
//
// Rules from the game's spotfx.c (ProcessSpotFX, InitOneSpotFX, CreateSpotFXFireWall) and the
// pyrolite's primary (facts only); see docs/forsaken.md, "Spot effects".
#include "r_fsspot.h"

#include <math.h>
#include <string.h>

#include "../engine/world.h"

int r_fsspot_path(r_fsspot_path_t *p, const float org[3], const float dir[3], float reach, r_fsspot_wall_fn wall,
                  void *ctx)
{
    memset(p, 0, sizeof *p);
    float l = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!(l > 1e-6f) || !isfinite(l) || !isfinite(org[0]) || !isfinite(org[1]) || !isfinite(org[2]) || !(reach > 0))
        return 0;
    float at[3] = { org[0], org[1], org[2] }, d[3] = { dir[0] / l, dir[1] / l, dir[2] / l }, flown = 0;
    while (p->legs < FSSPOT_MAX_LEGS && flown < reach) {
        int b = p->legs++;
        memcpy(p->at[b], at, sizeof at);
        memcpy(p->dir[b], d, sizeof d);
        p->from[b] = flown;
        float n[3] = { 0, 0, 0 }, left = reach - flown;
        float w = wall ? wall(ctx, at, d, left, n) : left;
        if (!(w >= 0) || w >= left)
            break;
        if (w < 0.5f)   // stuck at a wall: no further legs
            break;
        flown += w;
        float dn = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
        for (int k = 0; k < 3; k++) {
            at[k] += d[k] * w;
            d[k] -= 2 * dn * n[k];   // ReflectVector
        }
        float dl = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(dl > 1e-6f))
            break;
        for (int k = 0; k < 3; k++)
            d[k] /= dl;
    }
    return p->legs;
}

void r_fsspot_path_at(const r_fsspot_path_t *p, float along, float out[3])
{
    int b = 0;
    while (b + 1 < p->legs && p->from[b + 1] <= along)
        b++;
    float s = along - p->from[b];
    for (int k = 0; k < 3; k++)
        out[k] = p->at[b][k] + p->dir[b][k] * s;
}

int r_fsspot_on(const fsspot_fx_t *fx, long tick)
{
    if (!fx || tick < 0 || fx->gen_type == 2)
        return 0;   // waiting for its trigger: triggers are not followed here
    double k = (double)tick;
    if (fx->gen_type == 1)
        k -= floor(fx->gen_delay * FSSPOT_DELAY_TICKS);
    if (k < 0)
        return 0;
    double on = floor(fx->active * FSSPOT_DELAY_TICKS), off = floor(fx->inactive * FSSPOT_DELAY_TICKS);
    if (!(on >= 1))
        return 0;
    if (fx->inactive < 0)
        return k < on;   // disabled once its active time is spent
    if (!(off >= 1))
        return 1;        // no inactive time: on for ever
    return fmod(k, on + off) < on;
}

int r_fsspot_firewall(const fsspot_fx_t *fx, int index, const r_fsspot_path_t *path, double t, int frames,
                      r_fsfx_sprite_t *out, int max)
{
    if (!fx || !path || path->legs < 1 || !isfinite(t) || t < 0 || max <= 0)
        return 0;
    double now = t * FSSPOT_TICKS_PER_SEC;
    long last = (long)floor(now);
    int n = 0, top = frames > 13 ? 12 : frames - 1;
    if (top < 0)
        return 0;
    for (long k = last; k > last - FSSPOT_FLAME_LIFE && k >= 0 && n < max; k--) {
        if (!r_fsspot_on(fx, k))
            continue;
        float age = (float)(now - (double)k);
        // ours: the game's Random_Range from a hash of the effect and the tick it was made
        uint32_t h = world_hash32((uint32_t)index * 0x9e3779b1u ^ (uint32_t)k * 0x85ebca6bu ^ 0x5f0f1a3eu);
        float rot0 = (float)(h % 360u), speed = (float)(20u + (h >> 9) % 30u);
        r_fsfx_sprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        r_fsspot_path_at(path, age * FSSPOT_FLAME_SPEED, s->pos);
        s->rgb[0] = s->rgb[1] = s->rgb[2] = FSSPOT_FLAME_RGB / 255.0f;
        s->scale = FSSPOT_FLAME_SCALE + FSSPOT_FLAME_GROW * age;
        s->rot = fmodf(rot0 + age * speed, 360.0f);
        s->age = age;
        int f = (int)age;
        s->frame = f > top ? top : f;
        s->kind = FSFX_SPRITE_EXPL;
        s->id = (uint32_t)k;
    }
    return n;
}
