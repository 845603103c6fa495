// r_fsspot.c -- Forsaken's spot effects as the game drew them, from the time alone (see r_fsspot.h)
//
// Rules from the game's spotfx.c (ProcessSpotFX, InitOneSpotFX, CreateSpotFXFireWall) and the
// pyrolite's primary (facts only); see docs/forsaken.md, "Spot effects".
#include "r_fsspot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/world.h"
#include "r_fssnd.h"

int r_fsspot_path(r_fsspot_path_t *p, const float org[3], const float dir[3], float reach, r_fsspot_wall_fn wall,
                  void *ctx)
{
    memset(p, 0, sizeof *p);
    p->wall = reach > 0 ? reach : 0;
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
        if (b == 0)
            p->wall = w;
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

long r_fsspot_explosion_tick(const fsspot_fx_t *fx, long now)
{
    if (!fx || now < 0 || fx->gen_type == 2)
        return -1;
    double start = fx->gen_type == 1 ? floor(fx->gen_delay * FSSPOT_DELAY_TICKS) : 0;
    double on = floor(fx->active * FSSPOT_DELAY_TICKS), off = floor(fx->inactive * FSSPOT_DELAY_TICKS);
    if (!(on >= 1) || !(start >= 0) || (double)now < start)
        return -1;
    if (!(fx->inactive > 0) || !(off >= 1))
        return (long)start;   // once: no way back from inactive
    double cycle = on + off;
    return (long)(start + floor(((double)now - start) / cycle) * cycle);
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
    if (fx->type == FSSPOT_EXPLOSION) {
        long k = r_fsspot_explosion_tick(fx, last);
        float age = (float)(now - (double)k);
        if (k < 0 || expl <= 0 || age / FSSPOT_EXPLO_ANIM >= (float)expl)
            return 0;
        // ours: the game's Random_Range calls in its order, from a hash of the effect and the tick
        uint32_t h = tick_seed(index, k, 5);
        for (int c = 0; c < FSSPOT_EXPLO_MAX && n < max; c++) {
            if ((uint32_t)c >= next(&h) % 3u + 1u)
                break;   // the loop's test, Random_Range(3) + 1 drawn again each time
            r_fsfx_sprite_t *sp = &out[n++];
            memset(sp, 0, sizeof *sp);
            memcpy(sp->pos, fx->pos, sizeof sp->pos);
            sp->scale = FSSPOT_EXPLO_SIZE;
            if (c > 0)
                for (int j = 0; j < 3; j++)
                    sp->pos[j] += ((float)(next(&h) % 256u) - 128.0f) * 0.25f;
            sp->rot = (float)(next(&h) % 360u);
            if (c > 0)
                sp->scale = (float)(next(&h) % 10u + 6u) * 0.25f;
            sp->rgb[0] = sp->rgb[1] = sp->rgb[2] = FSSPOT_EXPLO_RGB / 255.0f;
            sp->age = age;
            sp->frame = (int)(age / FSSPOT_EXPLO_ANIM);
            sp->moveout = 1;
            sp->kind = FSFX_SPRITE_EXPL;
            sp->id = (uint32_t)k * 4u + (uint32_t)c;
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

// How many ticks a flame of `path` flies: while its place is short of the first wall, at most
// its LifeCount.
static long flame_ticks(const r_fsspot_path_t *path)
{
    double t = ceil((double)path->wall / FSSPOT_FLAME_SPEED);
    return t < 0 ? 0 : t > FSSPOT_FLAME_LIFE ? FSSPOT_FLAME_LIFE : (long)t;
}

int r_fsspot_firewall(const fsspot_fx_t *fx, int index, const r_fsspot_path_t *path, double t, int frames,
                      r_fsfx_sprite_t *out, int max)
{
    if (!fx || !path || path->legs < 1 || !isfinite(t) || t < 0 || max <= 0)
        return 0;
    double now = t * FSSPOT_TICKS_PER_SEC;
    long last = (long)floor(now), life = flame_ticks(path);
    int n = 0, top = frames > FSSPOT_FLAME_TOP + 1 ? FSSPOT_FLAME_TOP : frames - 1;
    if (top < 0)
        return 0;
    for (long k = last; k > last - life && k >= 0 && n < max; k--) {
        if (!r_fsspot_on(fx, k))
            continue;
        float age = (float)(now - (double)k);
        if (!(age * FSSPOT_FLAME_SPEED < path->wall))
            continue;   // its move met the wall: gone
        // ours: the game's Random_Range from a hash of the effect and the tick it was made
        uint32_t h = world_hash32((uint32_t)index * 0x9e3779b1u ^ (uint32_t)k * 0x85ebca6bu ^ 0x5f0f1a3eu);
        float rot0 = (float)(h % 360u), speed = (float)(20u + (h >> 9) % 30u);
        r_fsfx_sprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        r_fsspot_path_at(path, age * FSSPOT_FLAME_SPEED, s->pos);
        s->rgb[0] = s->rgb[1] = s->rgb[2] = FSSPOT_FLAME_RGB / 255.0f;
        s->scale = FSSPOT_FLAME_SCALE;
        s->rot = fmodf(rot0 + age * speed, 360.0f);
        s->age = age;
        int f = (int)age;
        s->frame = f > top ? top : f;
        s->kind = FSFX_SPRITE_EXPL;
        s->id = (uint32_t)k;
    }
    return n;
}

// ---- gravity sparks ----------------------------------------------------------------

int r_fsspot_burst(const fsspot_fx_t *fx, int index, long k)
{
    (void)fx;
    if (k < 0)
        return 0;
    uint32_t h = tick_seed(index, k, 4);
    if (next(&h) % FSSPOT_SPARK_CHANCE != 0)
        return 0;   // !Random_Range(8)
    next(&h);       // Random_Range(3): the spark sound's chance (r_fsspot_spark_sound)
    return FSSPOT_SPARK_MIN + (int)(next(&h) % FSSPOT_SPARK_MORE);
}

void r_fsspot_spark(const fsspot_fx_t *fx, int index, long k, int j, r_fsspot_wall_fn wall, void *ctx,
                    r_fsspot_spark_t *out)
{
    memset(out, 0, sizeof *out);
    // ours: the game's Random_Range calls in its order, from a hash of the effect, the tick and the spark
    uint32_t h = tick_seed(index, k, 16u + (uint32_t)j);
    int life = FSSPOT_SPARK_LIFE0 + (int)(next(&h) % FSSPOT_SPARK_LIFE_RND);
    out->frame_rnd = next(&h);
    float d[3], p[3], v[3];
    jitter(&h, fx->dir, 5120.0f, 0.5f, d);
    for (int c = 0; c < 3; c++) {
        v[c] = d[c] * ((float)(next(&h) % 10000u) / 2000.0f + 3.0f);
        p[c] = fx->pos[c];
    }
    out->legs = 1;
    memcpy(out->pos[0], p, sizeof p);
    memcpy(out->vel[0], v, sizeof v);
    out->end = (float)life;
    for (int m = 0; m < life; m++) {
        float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), n[3] = { 0, 0, 0 };
        float w = len > 1e-6f && wall ? wall(ctx, p, (const float[3]){ v[0] / len, v[1] / len, v[2] / len }, len, n) : len;
        int hit = len > 1e-6f && w >= 0 && w < len;
        if (hit) {   // stopped at the wall, reflected at half speed (or gone)
            float u[3], dn = 0;
            for (int c = 0; c < 3; c++) {
                u[c] = v[c] / len;
                dn += u[c] * n[c];
            }
            float speed = len * 0.5f;
            for (int c = 0; c < 3; c++) {
                p[c] += u[c] * w + n[c] * 0.01f;   // ours: a hair off the wall
                v[c] = (u[c] - 2 * dn * n[c]) * speed;
            }
            if (speed < FSSPOT_SPARK_STOP) {   // gone on the wall: its last leg the point it stopped at
                int b = out->legs++;
                out->at[b] = out->end = (float)(m + 1);
                memcpy(out->pos[b], p, sizeof p);
                break;
            }
        } else {
            for (int c = 0; c < 3; c++)
                p[c] += v[c];
        }
        v[1] -= FSSPOT_SPARK_GRAVITY;
        if (hit) {   // a new leg from here, a tick after
            if (out->legs >= FSSPOT_SPARK_LEGS) {
                out->end = (float)(m + 1);
                break;
            }
            int b = out->legs++;
            out->at[b] = (float)(m + 1);
            memcpy(out->pos[b], p, sizeof p);
            memcpy(out->vel[b], v, sizeof v);
        }
    }
}

int r_fsspot_spark_at(const r_fsspot_spark_t *s, float age, float out[3])
{
    if (!s || s->legs < 1 || !(age >= 0) || age >= s->end)
        return 0;
    int b = 0;
    while (b + 1 < s->legs && s->at[b + 1] <= age)
        b++;
    // m moves from the leg's start: m velocities, each 0.125 less in y than the one before; the
    // tick that meets the next wall goes straight to where the next leg starts
    float m = age - s->at[b], f = 0;
    if (b + 1 < s->legs && age > s->at[b + 1] - 1) {
        f = age - (s->at[b + 1] - 1);
        m = s->at[b + 1] - 1 - s->at[b];
    }
    for (int c = 0; c < 3; c++)
        out[c] = s->pos[b][c] + s->vel[b][c] * m;
    out[1] -= FSSPOT_SPARK_GRAVITY * m * (m - 1) * 0.5f;
    for (int c = 0; f > 0 && c < 3; c++)
        out[c] += (s->pos[b + 1][c] - out[c]) * f;
    return 1;
}

// The walls near one effect: its triangles' corners and boxes, copied at load.
typedef struct {
    float a[3], e1[3], e2[3], lo[3], hi[3];
} spark_tri_t;

#define SPARK_SLOTS (256 * FSSPOT_SPARK_MAX)   // (tick mod 256, spark): a spark lives under 240 ticks

typedef struct {
    int index;                       // the effect's
    spark_tri_t *tris;
    int num_tris;
    long key_k[SPARK_SLOTS];         // the tick of the path in each slot (-1 none)
    r_fsspot_spark_t path[SPARK_SLOTS];
} spark_fx_t;

struct r_fsspot_sparks_s {
    int count;
    spark_fx_t *fx[FSSPOT_SPARK_FX_MAX];   // each allocated at load
};

r_fsspot_sparks_t *r_fsspot_sparks_create(const fsspot_t *spot, const mxv_t *level)
{
    int n = 0;
    for (int i = 0; spot && i < spot->count; i++)
        n += spot->fx[i].type == FSSPOT_GRAVITY_SPARKS;
    if (!n)
        return NULL;
    r_fsspot_sparks_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    for (int i = 0; i < spot->count && s->count < FSSPOT_SPARK_FX_MAX; i++) {
        const fsspot_fx_t *fx = &spot->fx[i];
        if (fx->type != FSSPOT_GRAVITY_SPARKS)
            continue;
        spark_fx_t *f = calloc(1, sizeof *f);
        if (!f)
            break;
        s->fx[s->count++] = f;
        f->index = i;
        for (int k = 0; k < SPARK_SLOTS; k++)
            f->key_k[k] = -1;
        int cap = 0;
        for (int pass = 0; pass < 2 && level; pass++) {
            int m = 0;
            for (int t = 0; t < level->num_tris; t++) {
                const float *a = level->verts[level->tris[t].v[0]].pos, *b = level->verts[level->tris[t].v[1]].pos,
                            *c = level->verts[level->tris[t].v[2]].pos;
                spark_tri_t st;
                int out = 0;
                for (int q = 0; q < 3; q++) {
                    st.lo[q] = fminf(a[q], fminf(b[q], c[q]));
                    st.hi[q] = fmaxf(a[q], fmaxf(b[q], c[q]));
                    out |= st.hi[q] < fx->pos[q] - FSSPOT_SPARK_REACH || st.lo[q] > fx->pos[q] + FSSPOT_SPARK_REACH;
                    st.a[q] = a[q];
                    st.e1[q] = b[q] - a[q];
                    st.e2[q] = c[q] - a[q];
                }
                if (out)
                    continue;
                if (pass)
                    f->tris[m] = st;
                m++;
            }
            if (!pass) {
                cap = m;
                f->tris = m ? malloc((size_t)m * sizeof *f->tris) : NULL;
                if (m && !f->tris)
                    break;
            } else {
                f->num_tris = cap;
            }
        }
    }
    return s;
}

void r_fsspot_sparks_free(r_fsspot_sparks_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->count; i++) {
        free(s->fx[i]->tris);
        free(s->fx[i]);
    }
    free(s);
}

// The first of the effect's walls along dir (unit) from org within max; its normal facing back.
static float spark_wall(void *ctx, const float org[3], const float dir[3], float max, float normal[3])
{
    const spark_fx_t *f = ctx;
    float lo[3], hi[3], best = max;
    int hit = -1;
    for (int c = 0; c < 3; c++) {
        float e = org[c] + dir[c] * max;
        lo[c] = fminf(org[c], e);
        hi[c] = fmaxf(org[c], e);
    }
    for (int i = 0; i < f->num_tris; i++) {
        const spark_tri_t *t = &f->tris[i];
        if (t->hi[0] < lo[0] || t->lo[0] > hi[0] || t->hi[1] < lo[1] || t->lo[1] > hi[1] || t->hi[2] < lo[2] ||
            t->lo[2] > hi[2])
            continue;
        float d = mxv_ray_tri(org, dir, t->a, t->e1, t->e2);
        if (d > 1e-3f && d < best) {
            best = d;
            hit = i;
        }
    }
    if (hit >= 0) {
        const float *e1 = f->tris[hit].e1, *e2 = f->tris[hit].e2;
        float n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        float sgn = n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] > 0 ? -1.0f : 1.0f;
        for (int c = 0; c < 3; c++)
            normal[c] = len > 1e-12f ? n[c] * sgn / len : -dir[c];
    }
    return best;
}

static const r_fsspot_spark_t *spark_path(r_fsspot_sparks_t *s, const fsspot_fx_t *fx, int index, long k, int j)
{
    spark_fx_t *f = NULL;
    for (int i = 0; i < s->count && !f; i++)
        if (s->fx[i]->index == index)
            f = s->fx[i];
    if (!f)
        return NULL;
    int slot = (int)(k & 255) * FSSPOT_SPARK_MAX + j;
    if (f->key_k[slot] != k) {
        r_fsspot_spark(fx, index, k, j, spark_wall, f, &f->path[slot]);
        f->key_k[slot] = k;
    }
    return &f->path[slot];
}

int r_fsspot_gravity(r_fsspot_sparks_t *s, const fsspot_fx_t *fx, int index, double t,
                     const int frames[FSFX_SPRITE_KINDS], r_fsfx_sprite_t *out, int max)
{
    if (!s || !fx || !frames || !isfinite(t) || t < 0 || max <= 0)
        return 0;
    double now = t * FSSPOT_TICKS_PER_SEC;
    long last = (long)floor(now);
    int n = 0, bits = frames[FSFX_SPRITE_BITS], flare = frames[FSFX_SPRITE_FLARE];
    const float rgb[3] = { fx->r / 255.0f, fx->g / 255.0f, fx->b / 255.0f };
    long oldest = last - (FSSPOT_SPARK_LIFE0 + (long)FSSPOT_SPARK_LIFE_RND);
    for (long k = last; k > oldest && k >= 0 && n < max; k--) {
        if (!r_fsspot_on(fx, k))
            continue;
        int sparks = r_fsspot_burst(fx, index, k);
        if (!sparks)
            continue;
        float age = (float)(now - (double)k);
        if (age < FSSPOT_FLASH_TICKS && flare > 0 && n < max) {   // the flash, FLARE.OFF's first frame
            r_fsfx_sprite_t *sp = &out[n++];
            memset(sp, 0, sizeof *sp);
            memcpy(sp->pos, fx->pos, sizeof sp->pos);
            memcpy(sp->rgb, rgb, sizeof sp->rgb);
            sp->scale = FSSPOT_FLASH_SIZE;
            sp->age = age;
            sp->moveout = 1;
            sp->kind = FSFX_SPRITE_FLARE;
            sp->id = (uint32_t)k * 16u;
        }
        for (int j = 0; j < sparks && bits > 0 && n < max; j++) {
            const r_fsspot_spark_t *p = spark_path(s, fx, index, k, j);
            float at[3];
            if (!p || !r_fsspot_spark_at(p, age, at))
                continue;
            r_fsfx_sprite_t *sp = &out[n++];
            memset(sp, 0, sizeof *sp);
            memcpy(sp->pos, at, sizeof sp->pos);
            memcpy(sp->rgb, rgb, sizeof sp->rgb);
            sp->scale = FSSPOT_SPARK_SIZE;
            sp->age = age;
            sp->frame = (int)fmodf((float)(p->frame_rnd % (uint32_t)bits) + FSSPOT_SPARK_ANIM * age, (float)bits);
            sp->kind = FSFX_SPRITE_BITS;
            sp->id = (uint32_t)k * 16u + 1u + (uint32_t)j;
        }
    }
    return n;
}

static int add_light(r_fslight_t *out, int n, int max, const float at[3], float size, const float rgb[3])
{
    if (n >= max || !(size > 0) || !(rgb[0] > 0 || rgb[1] > 0 || rgb[2] > 0))
        return n;
    r_fslight_t *l = &out[n];
    memset(l, 0, sizeof *l);
    memcpy(l->org, at, sizeof l->org);
    memcpy(l->rgb, rgb, sizeof l->rgb);
    l->size = size;
    return n + 1;
}

// An XLight of 384 units made at tick k in colour c, at `now` (ProcessXLights: SizeCount 38.4,
// ColorCount 25 a tick).
static int fading_light(r_fslight_t *out, int n, int max, const float at[3], const float c[3], double now, long k)
{
    float age = (float)(now - (double)k), size = FSSPOT_BURST_LIGHT - FSSPOT_BURST_SHRINK * age, rgb[3];
    for (int j = 0; j < 3; j++)
        rgb[j] = fmaxf(0, c[j] - FSSPOT_BURST_FADE * age);
    return add_light(out, n, max, at, size, rgb);
}

int r_fsspot_lights(const fsspot_fx_t *fx, int index, const r_fsspot_path_t *path, double t, r_fslight_t *out,
                    int max)
{
    if (!fx || !out || max <= 0 || !isfinite(t) || t < 0)
        return 0;
    double now = t * FSSPOT_TICKS_PER_SEC;
    long last = (long)floor(now);
    int n = 0;
    long life = (long)ceil(FSSPOT_BURST_LIGHT / FSSPOT_BURST_SHRINK);
    if (fx->type == FSSPOT_GRAVITY_SPARKS) {
        const float rgb[3] = { fx->r, fx->g, fx->b };
        for (long k = last; k > last - life && k >= 0 && n < max; k--)
            if (r_fsspot_on(fx, k) && r_fsspot_burst(fx, index, k))
                n = fading_light(out, n, max, fx->pos, rgb, now, k);
    } else if (fx->type == FSSPOT_EXPLOSION) {
        const float rgb[3] = { 255, 64, 64 };
        long k = r_fsspot_explosion_tick(fx, last);
        if (k >= 0 && k > last - life)
            n = fading_light(out, n, max, fx->pos, rgb, now, k);
    } else if (fx->type == FSSPOT_FIRE_WALL && path && path->legs > 0) {
        const float rgb[3] = { 128, 0, 16 };
        long flying = flame_ticks(path), dying = (long)ceil(FSSPOT_FLAME_LIGHT / FSSPOT_DIE_SHRINK);
        float end[3];
        r_fsspot_path_at(path, path->wall, end);
        for (long k = last; k > last - flying - dying && k >= 0 && n < max; k--) {
            if (!r_fsspot_on(fx, k))
                continue;
            float age = (float)(now - (double)k), at[3];
            if (age * FSSPOT_FLAME_SPEED < path->wall) {   // flying, its light with it
                r_fsspot_path_at(path, age * FSSPOT_FLAME_SPEED, at);
                n = add_light(out, n, max, at, FSSPOT_FLAME_LIGHT, rgb);
            } else if (path->wall < FSSPOT_FLAME_SPEED * FSSPOT_FLAME_LIFE) {   // dying at the wall
                // from the tick its move met the wall (ours: the light stays where the wall is met)
                float since = age - (float)ceil(path->wall / FSSPOT_FLAME_SPEED);
                if (since < 0)
                    since = 0;
                const float red[3] = { 255 - FSSPOT_DIE_FADE * since, 0, 0 };
                n = add_light(out, n, max, end, FSSPOT_FLAME_LIGHT - FSSPOT_DIE_SHRINK * since, red);
            }
        }
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
        return -1;   // waiting for its trigger (a started one: the caller's copy, as r_fsent.c's spot_clock)
    if (fx->type == FSSPOT_EXPLOSION)
        return r_fsspot_explosion_tick(fx, tick);   // as it is drawn: at its active time's first tick
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
    // the draws of the burst's (r_fsspot_burst): the flash, light and sparks come with the same Random_Range(8)
    uint32_t h = tick_seed(index, tick, 4);
    if (next(&h) % FSSPOT_SPARK_CHANCE != 0)
        return 0;
    return next(&h) % 3 == 0;   // Random_Range( 3 ): the sound
}
