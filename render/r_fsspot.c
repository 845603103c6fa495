// r_fsspot.c -- Forsaken's spot effects as the game drew them, from the time alone (see r_fsspot.h)
//
// Rules from the game's spotfx.c (ProcessSpotFX, InitOneSpotFX, CreateSpotFXFireWall) and the
// pyrolite's primary (facts only); see docs/forsaken.md, "Spot effects".
#include "r_fsspot.h"

#include <math.h>
#include <string.h>

#include "../engine/world.h"
#include "r_fssnd.h"

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

static uint32_t next(uint32_t *x)
{
    *x = world_hash32(*x + 0x9e3779b9u);
    return *x;
}

static uint32_t tick_seed(int index, long k, uint32_t kind)
{
    return world_hash32((uint32_t)index * 0x9e3779b1u ^ (uint32_t)k * 0x85ebca6bu ^ kind * 0x27d4eb2fu);
}

// dir + each axis next() % 5120 / div - off, normalised.
static void jitter(uint32_t *x, const float dir[3], float div, float off, float out[3])
{
    float l = 0;
    for (int k = 0; k < 3; k++) {
        out[k] = dir[k] + (float)(next(x) % 5120u) / div - off;
        l += out[k] * out[k];
    }
    l = sqrtf(l);
    if (!(l > 1e-6f)) {
        out[0] = out[2] = 0;
        out[1] = 1;
        return;
    }
    for (int k = 0; k < 3; k++)
        out[k] /= l;
}

// Flown along after `age` ticks from speed v0 slowing 0.2 a tick (to 0), and risen from 0 speeding
// up 0.2 a tick to at most 10 (continuous: the game steps it a frame at a time).
static float slowed(float v0, float age)
{
    float stop = v0 / 0.2f, a = age < stop ? age : stop;
    return v0 * a - 0.1f * a * a;
}

static float risen(float age)
{
    if (age <= 50)
        return 0.1f * age * age;
    return 250 + 10 * (age - 50);
}

// A NEWTRAIL.OFF smoke puff `age` ticks old made at `at` going `dir`: FM_SPOTFX_SMOKE's rules.
static int smoke_puff(const float at[3], const float dir[3], float v0, float size, float anim, const float rgb[3],
                      float age, int frames, uint32_t id, r_fsfx_sprite_t *s)
{
    float frame = age / anim;
    if (frames <= 0 || frame >= (float)frames)
        return 0;
    float along = slowed(v0, age), up = risen(age), fade = (64 - frame * 12) / 256;
    if (fade < 0)
        fade = 0;
    memset(s, 0, sizeof *s);
    for (int k = 0; k < 3; k++) {
        s->pos[k] = at[k] + dir[k] * along;
        s->rgb[k] = rgb[k] * fade;
    }
    s->pos[1] += up;
    s->scale = size + FSSPOT_SMOKE_GROW * age;
    s->age = age;
    s->frame = (int)frame;
    s->kind = FSFX_SPRITE_NEWTRAIL;
    s->id = id;
    return 1;
}

int r_fsspot_sprites(const fsspot_fx_t *fx, int index, const r_fsspot_path_t *path, double t,
                     const int frames[FSFX_SPRITE_KINDS], r_fsfx_sprite_t *out, int max)
{
    if (!fx || !frames || !isfinite(t) || t < 0 || max <= 0)
        return 0;
    if (fx->type == FSSPOT_FIRE_WALL)
        return frames[FSFX_SPRITE_EXPL] > 0 ? r_fsspot_firewall(fx, index, path, t, frames[FSFX_SPRITE_EXPL], out, max) : 0;
    double now = t * FSSPOT_TICKS_PER_SEC;
    long last = (long)floor(now);
    int n = 0, trail = frames[FSFX_SPRITE_NEWTRAIL], expl = frames[FSFX_SPRITE_EXPL];
    const float rgb[3] = { fx->r / 255.0f, fx->g / 255.0f, fx->b / 255.0f };
    if (fx->type == FSSPOT_SMOKE) {
        long life = (long)ceil(trail * FSSPOT_SMOKE_ANIM);
        for (long k = last; k > last - life && k >= 0 && n < max; k--) {
            if (!r_fsspot_on(fx, k))
                continue;
            uint32_t h = tick_seed(index, k, 1);
            float d[3];
            next(&h);   // Rot: Random_Range(360), not drawn by the smoke (its sprite turns 0)
            jitter(&h, fx->dir, 5120.0f, 0.5f, d);
            n += smoke_puff(fx->pos, d, FSSPOT_SMOKE_SPEED, FSSPOT_SMOKE_SIZE, FSSPOT_SMOKE_ANIM, rgb,
                            (float)(now - (double)k), trail, (uint32_t)k, &out[n]);
        }
        return n;
    }
    if (fx->type == FSSPOT_FLAME) {
        // a flame lives while its size (1.5 - 0.0375 a tick) and its frames (half a tick) last; its
        // smoke from tick 17 on for NEWTRAIL's frames x 12 ticks
        float size_life = FSSPOT_FLAME_SIZE / FSSPOT_FLAME_SHRINK, frame_life = expl > 0 ? expl * 2.0f : 0;
        float life = size_life < frame_life ? size_life : frame_life, puff = 17.0f;
        float longest = life > puff + trail * 12.0f ? life : puff + trail * 12.0f;
        const float grey[3] = { 64 / 255.0f, 64 / 255.0f, 64 / 255.0f };
        for (long k = last; k > last - (long)ceil(longest) && k >= 0 && n < max; k--) {
            if (!r_fsspot_on(fx, k))
                continue;
            float age = (float)(now - (double)k);
            uint32_t h = tick_seed(index, k, 2);
            float rot = (float)(next(&h) % 360u);
            float d[3], l = sqrtf(fx->dir[0] * fx->dir[0] + fx->dir[1] * fx->dir[1] + fx->dir[2] * fx->dir[2]);
            for (int j = 0; j < 3; j++)
                d[j] = l > 1e-6f ? fx->dir[j] / l : 0;
            if (age < life && expl > 0) {
                r_fsfx_sprite_t *s = &out[n++];
                memset(s, 0, sizeof *s);
                float along = slowed(FSSPOT_FLAME_UP, age), up = risen(age);
                for (int j = 0; j < 3; j++)
                    s->pos[j] = fx->pos[j] + d[j] * along;
                s->pos[1] += up;
                s->rgb[0] = s->rgb[1] = s->rgb[2] = 1;
                s->scale = FSSPOT_FLAME_SIZE - FSSPOT_FLAME_SHRINK * age;
                s->rot = rot;
                s->age = age;
                s->frame = (int)(age * 0.5f);
                s->kind = FSFX_SPRITE_EXPL;
                s->id = (uint32_t)k;
            }
            if (age >= puff && puff < life && n < max) {   // the flame smoke it left at tick 17
                float at[3], sd[3];
                float along = slowed(FSSPOT_FLAME_UP, puff), up = risen(puff);
                for (int j = 0; j < 3; j++)
                    at[j] = fx->pos[j] + d[j] * along;
                at[1] += up;
                uint32_t hs = tick_seed(index, k, 3);
                next(&hs);   // its Rot
                jitter(&hs, d, 10240.0f, 0.25f, sd);
                n += smoke_puff(at, sd, FSSPOT_SMOKE_SPEED, 2.0f, 12.0f, grey, age - puff, trail, (uint32_t)k, &out[n]);
            }
        }
        return n;
    }
    return 0;
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

// ---- sounds ------------------------------------------------------------------------------

int r_fsspot_sound(const fsspot_fx_t *fx, r_fsspot_sound_t *out)
{
    if (!fx || !out)
        return 0;
    memset(out, 0, sizeof *out);
    const char *name = NULL;
    out->volume = 1;
    out->lead = 1;
    switch (fx->type) {
    case FSSPOT_SOUND:
        name = fx->sound;
        out->volume = fx->volume;
        out->centred = fx->sound_type == 1;   // SPOT_SFX_TYPE_NoPan
        break;
    case FSSPOT_FIRE_WALL:
        name = "firembls";   // SFX_MedFireBlast
        break;
    case FSSPOT_EXPLOSION:
        name = "exp1";       // SFX_BangBang
        out->lead = 0;
        break;
    default:
        return 0;
    }
    const char *nul = memchr(name, 0, FSSPOT_NAME_LEN);
    size_t n = nul ? (size_t)(nul - name) : 0;
    if (n > 4 && !strncmp(name + n - 4, ".wav", 4))
        n -= 4;   // ReturnSFXIndex drops it
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        out->name[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
    memcpy(out->name + n, ".wav", 5);
    out->loops = fx->type != FSSPOT_EXPLOSION && r_fssnd_loops(out->name);
    return 1;
}

long r_fsspot_sound_start(const fsspot_fx_t *fx, int lead, long tick, int *playing)
{
    int dummy;
    if (!playing)
        playing = &dummy;
    *playing = 0;
    if (!fx || fx->gen_type == 2)
        return -1;   // waiting for its trigger: triggers are not followed here
    long d = fx->gen_type == 1 ? (long)floor(fx->gen_delay * FSSPOT_DELAY_TICKS) : 0;
    long rel = tick - d;
    if (rel < lead)
        return -1;
    double on = floor(fx->active * FSSPOT_DELAY_TICKS), off = floor(fx->inactive * FSSPOT_DELAY_TICKS);
    if (fx->inactive < 0 || !(off >= 1)) {
        *playing = 1;   // one start; a loop never stopped
        return d + lead;
    }
    if (!(on >= 1))
        return -1;      // stopped in the frame it started: never heard
    long period = (long)(on + off);
    long k = (rel - lead) / period;
    *playing = (double)(rel - k * period) < on;
    return d + k * period + lead;
}

int r_fsspot_spark_sound(const fsspot_fx_t *fx, int index, long tick)
{
    if (!fx || (fx->type != FSSPOT_SPARKS && fx->type != FSSPOT_GRAVITY_SPARKS) || !r_fsspot_on(fx, tick))
        return 0;
    uint32_t x = world_hash32((uint32_t)index * 0x9e3779b1u ^ (uint32_t)tick * 0x85ebca6bu ^ 0x3c6ef372u);
    uint32_t a = next(&x) % 8, b = next(&x) % 3;   // Random_Range( 8 ), then Random_Range( 3 )
    return a == 0 && b == 0;
}
