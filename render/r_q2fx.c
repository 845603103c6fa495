// r_q2fx.c -- Quake II's client effects by its own rules (see r_q2fx.h)
//
// Numbers are the released client's (cl_fx.c, cl_tent.c, cl_newfx.c, m_flash.c); the
// code is ours. Everything lives in one allocation made at start: no allocation per frame.
#include "r_q2fx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/log.h"
#include "../engine/world_q2.h"
#include "r_mlocal.h"
#include "r_q2ent.h"

const char *const r_q2fx_model_names[Q2M_COUNT] = {
    "models/objects/explode/tris.md2",  "models/objects/smoke/tris.md2",
    "models/objects/flash/tris.md2",    "models/objects/r_explode/tris.md2",
    "models/objects/r_explode2/tris.md2", "sprites/s_bfg2.sp2",
    "models/monsters/parasite/segment/tris.md2", "models/ctf/segment/tris.md2",
    "models/proj/lightning/tris.md2",   "models/proj/beam/tris.md2",
};

// Quake II's effect bits (q_shared.h)
enum {
    F_ROTATE = 1, F_GIB = 2, F_BLASTER = 8, F_ROCKET = 16, F_GRENADE = 32, F_HYPERBLASTER = 64, F_BFG = 128,
    F_ANIM_ALLFAST = 0x2000, F_FLIES = 0x4000, F_TELEPORTER = 0x20000, F_FLAG1 = 0x40000, F_FLAG2 = 0x80000,
    F_IONRIPPER = 0x100000, F_GREENGIB = 0x200000, F_BLUEHYPERBLASTER = 0x400000, F_SPINNINGLIGHTS = 0x800000,
    F_PLASMA = 0x1000000, F_TRAP = 0x2000000, F_TRACKER = 0x4000000, F_TAGTRAIL = 0x20000000,
    F_TRACKERTRAIL = 0x80000000u
};


enum { EX_FREE, EX_POLY, EX_MISC, EX_FLASH };

typedef struct {
    int type, model, frames, baseframe, skin, fullbright, translucent;
    uint32_t seq;      // order made: drawn in it (the slot depends on what came before)
    float light;
    double start;      // demo seconds: frames are counted from it
    vec3_t org, angles;
} q2ex_t;

typedef struct {
    int entity, dest, model;
    uint32_t seq;
    double endtime;
    vec3_t start, end, offset;
} q2beam_t;

typedef struct {
    int key;
    float radius;
    double die;
    vec3_t org;
    int dark;          // a light of negative colour: in software a negative light for one frame
} q2light_t;

typedef struct {
    double endtime;    // 0: free
    vec3_t start, end;
    uint8_t color;
} q2laser_t;

enum { SU_FREE, SU_STEAM, SU_WIDOW, SU_NUKE };
typedef struct {
    int kind, id, count, color, magnitude;
    double endtime, nextthink;
    float interval;
    vec3_t org, dir;
} q2sustain_t;

// warnings said once per effect state (bits)
enum { W_ENTITY = 1, W_FLASH = 2, W_TYPE = 4, W_COUNT = 8 };

struct r_q2fx_s {
    r_q2particle_t p[Q2FX_MAX_PARTICLES];
    int num;
    q2ex_t ex[Q2FX_MAX_EXPLOSIONS];
    q2beam_t beams[Q2FX_MAX_BEAMS];
    q2light_t lights[Q2FX_MAX_LIGHTS];
    q2sustain_t sus[Q2FX_MAX_SUSTAINS];
    q2laser_t lasers[Q2FX_MAX_LASERS];
    uint32_t rng;
    uint32_t seq;      // counts explosions and beams made
    double now;        // demo seconds (doubles: frame counts must not round at 1000 s)
    unsigned warned;
    float avel[MDL_NUM_NORMALS][2];          // angular speeds of the BFG ball's and flies' particles
    int16_t trailcount[WORLD_MAX_ENTITIES];  // CL_DiminishingTrail's density
    uint32_t seen[WORLD_MAX_ENTITIES];       // world seq an entity was last present in
};

// ---- random numbers and the pool ---------------------------------------------------------

static uint32_t q2rand(r_q2fx_t *fx) { return r_rand(&fx->rng); }   // 0..0x7fff
static float frand(r_q2fx_t *fx) { return (float)q2rand(fx) / 32767.0f; }
static float crand(r_q2fx_t *fx) { return frand(fx) * 2.0f - 1.0f; }

// CL_ParseLaser: the first laser slot whose time is up takes it (none free: nothing), its colour
// one of the four bytes of `colors` picked now, width 4, for 100 ms.
static void laser(r_q2fx_t *fx, const vec3_t start, const vec3_t end, uint32_t colors)
{
    for (int i = 0; i < Q2FX_MAX_LASERS; i++) {
        q2laser_t *l = &fx->lasers[i];
        if (l->endtime >= fx->now)
            continue;
        memcpy(l->start, start, sizeof l->start);
        memcpy(l->end, end, sizeof l->end);
        l->color = (uint8_t)(colors >> ((q2rand(fx) % 4) * 8));
        l->endtime = fx->now + 0.1;
        return;
    }
}

int r_q2fx_lasers(const r_q2fx_t *fx, double t, r_q2fx_laser_t *out, int max)
{
    int n = 0;
    for (int i = 0; fx && i < Q2FX_MAX_LASERS && n < max; i++) {
        const q2laser_t *l = &fx->lasers[i];
        if (l->endtime <= 0 || t > l->endtime + 1e-9 || t < l->endtime - 0.1 - 1e-9)
            continue;
        r_q2fx_laser_t *o = &out[n++];
        memcpy(o->start, l->start, sizeof o->start);
        memcpy(o->end, l->end, sizeof o->end);
        o->width = 4;
        o->color = l->color;
    }
    return n;
}

static r_q2particle_t *newp(r_q2fx_t *fx)
{
    if (fx->num >= Q2FX_MAX_PARTICLES)
        return NULL;   // the free list is empty: the effect is cut short, as the game's
    r_q2particle_t *p = &fx->p[fx->num++];
    memset(p, 0, sizeof *p);
    p->time = fx->now;
    p->alpha = 1;
    return p;
}

static int alive_at(const r_q2particle_t *p, double t)
{
    float age = (float)(t - p->time);
    if (p->instant)
        return age < 0.1f - 1e-4f;
    return p->alpha + (age > 0 ? age : 0) * p->alphavel > 0;
}

// Particles gone by time t leave the pool (its order is kept: the draw order).
static void sweep(r_q2fx_t *fx, double t)
{
    int out = 0;
    for (int i = 0; i < fx->num; i++)
        if (alive_at(&fx->p[i], t) && !(fx->p[i].instant && fx->p[i].time < t))
            fx->p[out++] = fx->p[i];
    fx->num = out;
}

r_q2fx_t *r_q2fx_create(void)
{
    r_q2fx_t *fx = calloc(1, sizeof *fx);
    if (fx)
        r_q2fx_clear(fx);
    return fx;
}

void r_q2fx_destroy(r_q2fx_t *fx) { free(fx); }

void r_q2fx_clear(r_q2fx_t *fx)
{
    fx->num = 0;
    memset(fx->ex, 0, sizeof fx->ex);
    memset(fx->beams, 0, sizeof fx->beams);
    memset(fx->lights, 0, sizeof fx->lights);
    memset(fx->sus, 0, sizeof fx->sus);
    memset(fx->lasers, 0, sizeof fx->lasers);
    memset(fx->seen, 0, sizeof fx->seen);
    for (int i = 0; i < WORLD_MAX_ENTITIES; i++) {
        fx->trailcount[i] = 1024;
    }
    fx->rng = 0x51f15e5u;
    for (int i = 0; i < MDL_NUM_NORMALS; i++)
        for (int k = 0; k < 2; k++)
            fx->avel[i][k] = (float)(q2rand(fx) & 255) * 0.01f;
    fx->now = 0;
    fx->warned = 0;
}

int r_q2fx_num_particles(const r_q2fx_t *fx) { return fx->num; }
const r_q2particle_t *r_q2fx_particle(const r_q2fx_t *fx, int i)
{
    return i >= 0 && i < fx->num ? &fx->p[i] : NULL;
}

static void warn_once(r_q2fx_t *fx, unsigned bit, const char *what, int value)
{
    if (fx->warned & bit)
        return;
    fx->warned |= bit;
    log_warn("Quake II effect with %s %d ignored (said once)", what, value);
}

// ---- vectors ----------------------------------------------------------------------------------

static float normalize(vec3_t v)
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0)
        for (int k = 0; k < 3; k++)
            v[k] /= len;
    return len;
}

// MakeNormalVectors: two unit vectors square to forward and to each other.
static void normal_vectors(const vec3_t f, vec3_t right, vec3_t up)
{
    right[1] = -f[0];
    right[2] = f[1];
    right[0] = f[2];
    float d = right[0] * f[0] + right[1] * f[1] + right[2] * f[2];
    for (int k = 0; k < 3; k++)
        right[k] -= d * f[k];
    normalize(right);
    up[0] = right[1] * f[2] - right[2] * f[1];
    up[1] = right[2] * f[0] - right[0] * f[2];
    up[2] = right[0] * f[1] - right[1] * f[0];
}

// A line from a to b: its unit direction in dir, its length returned (0 for none or a teleport).
static float line(const vec3_t a, const vec3_t b, vec3_t dir)
{
    for (int k = 0; k < 3; k++)
        dir[k] = b[k] - a[k];
    float len = normalize(dir);
    return len > 0 && len < 8192 ? len : 0;
}

// ---- the particle effects ----------------------------------------------------------------------

// CL_ParticleEffect / 2 / 3: a puff along dir. spread: the random distance along dir
// (31 or 7); zgrav: accel[2]; colors: 8 random shades (else one).
static void puff(r_q2fx_t *fx, const vec3_t org, const vec3_t dir, int color, int count, int spread, float zgrav,
                 int shades)
{
    for (int i = 0; i < count; i++) {
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        p->color = (uint8_t)(color + (shades ? (int)(q2rand(fx) & 7) : 0));
        float d = (float)(q2rand(fx) & (unsigned)spread);
        for (int k = 0; k < 3; k++) {
            p->org[k] = org[k] + (float)((int)(q2rand(fx) & 7) - 4) + d * dir[k];
            p->vel[k] = crand(fx) * 20;
        }
        p->accel[2] = zgrav;
        p->alphavel = -1.0f / (0.5f + frand(fx) * 0.3f);
    }
}
static void particle_effect(r_q2fx_t *fx, const vec3_t org, const vec3_t dir, int color, int count)
{
    puff(fx, org, dir, color, count, 31, -Q2FX_GRAVITY, 1);
}

// Explosion-like bursts: count particles within 16 of org flying at up to speed/2.
static void burst(r_q2fx_t *fx, const vec3_t org, int count, int color, int run, int speed, float fade, float slow)
{
    for (int i = 0; i < count; i++) {
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        p->color = (uint8_t)(color + (run > 1 ? (int)(q2rand(fx) % (unsigned)run) : 0));
        for (int k = 0; k < 3; k++) {
            p->org[k] = org[k] + (float)((int)(q2rand(fx) % 32) - 16);
            p->vel[k] = (float)((int)(q2rand(fx) % (unsigned)speed) - speed / 2);
        }
        p->accel[2] = -Q2FX_GRAVITY;
        p->alphavel = -fade / (slow + frand(fx) * (slow == 0.6f ? 0.2f : 0.3f));
    }
}

// Wall hits of blaster bolts (CL_BlasterParticles, 2): 40 particles bouncing off along dir.
static void blaster_hit(r_q2fx_t *fx, const vec3_t org, const vec3_t dir, int color)
{
    for (int i = 0; i < 40; i++) {
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        p->color = (uint8_t)(color + (int)(q2rand(fx) & 7));
        float d = (float)(q2rand(fx) & 15);
        for (int k = 0; k < 3; k++) {
            p->org[k] = org[k] + (float)((int)(q2rand(fx) & 7) - 4) + d * dir[k];
            p->vel[k] = dir[k] * 30 + crand(fx) * 40;
        }
        p->accel[2] = -Q2FX_GRAVITY;
        p->alphavel = -1.0f / (0.5f + frand(fx) * 0.3f);
    }
}

// Trails of one particle every `step` units with a random spread, drift and life.
typedef struct {
    float step, spread, drift, life, liferand;
    int color, colors;   // color + rand & colors (colors 0: one colour)
    float alpha;
} trail_t;

static void simple_trail(r_q2fx_t *fx, const vec3_t a, const vec3_t b, const trail_t *tr)
{
    vec3_t dir, move = {a[0], a[1], a[2]};
    int len = (int)line(a, b, dir);
    while (len > 0) {
        len -= (int)tr->step;
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        p->alpha = tr->alpha;
        p->alphavel = -1.0f / (tr->life + frand(fx) * tr->liferand);
        p->color = (uint8_t)(tr->color + (tr->colors ? (int)(q2rand(fx) & (unsigned)tr->colors) : 0));
        for (int k = 0; k < 3; k++) {
            p->org[k] = move[k] + crand(fx) * tr->spread;
            p->vel[k] = crand(fx) * tr->drift;
        }
        for (int k = 0; k < 3; k++)
            move[k] += dir[k] * tr->step;
    }
}

// CL_DiminishingTrail: gibs and grenades (and a rocket's smoke), thinner as the thing flies.
static void diminishing_trail(r_q2fx_t *fx, const vec3_t a, const vec3_t b, int16_t *count, uint32_t effects)
{
    vec3_t dir, move = {a[0], a[1], a[2]};
    float len = line(a, b, dir);
    float orgscale = *count > 900 ? 4 : *count > 800 ? 2 : 1, velscale = *count > 900 ? 15 : *count > 800 ? 10 : 5;
    while (len > 0) {
        len -= 0.5f;
        if (fx->num >= Q2FX_MAX_PARTICLES)
            return;
        if ((int)(q2rand(fx) & 1023) < *count) {
            r_q2particle_t *p = newp(fx);
            int gib = (effects & F_GIB) != 0, green = !gib && (effects & F_GREENGIB);
            p->alphavel = -1.0f / (1 + frand(fx) * (gib || green ? 0.4f : 0.2f));
            p->color = (uint8_t)((gib ? 0xe8 : green ? 0xdb : 4) + (int)(q2rand(fx) & 7));
            for (int k = 0; k < 3; k++) {
                p->org[k] = move[k] + crand(fx) * orgscale;
                p->vel[k] = crand(fx) * velscale;
            }
            if (gib || green)
                p->vel[2] -= Q2FX_GRAVITY;
            else
                p->accel[2] = 20;
        }
        *count = (int16_t)(*count - 5 < 100 ? 100 : *count - 5);
        for (int k = 0; k < 3; k++)
            move[k] += dir[k] * 0.5f;
    }
}

static void rocket_trail(r_q2fx_t *fx, const vec3_t a, const vec3_t b, int16_t *count)
{
    diminishing_trail(fx, a, b, count, F_ROCKET);
    vec3_t dir, move = {a[0], a[1], a[2]};
    int len = (int)line(a, b, dir);
    while (len > 0) {
        len -= 1;
        if (fx->num >= Q2FX_MAX_PARTICLES)
            return;
        if ((q2rand(fx) & 7) == 0) {   // fire: one in eight units
            r_q2particle_t *p = newp(fx);
            p->alphavel = -1.0f / (1 + frand(fx) * 0.2f);
            p->color = (uint8_t)(0xdc + (int)(q2rand(fx) & 3));
            for (int k = 0; k < 3; k++) {
                p->org[k] = move[k] + crand(fx) * 5;
                p->vel[k] = crand(fx) * 20;
            }
            p->accel[2] = -Q2FX_GRAVITY;
        }
        for (int k = 0; k < 3; k++)
            move[k] += dir[k];
    }
}

// CL_RailTrail: a spiral of 0x74 blues around the line, a unit apart, then grey smoke.
static void rail_trail(r_q2fx_t *fx, const vec3_t a, const vec3_t b)
{
    vec3_t dir, right, up, move = {a[0], a[1], a[2]};
    float len = line(a, b, dir);
    if (len <= 0)
        return;
    normal_vectors(dir, right, up);
    for (int i = 0; i < len; i++) {
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        float d = (float)i * 0.1f, c = cosf(d), s = sinf(d);
        p->alphavel = -1.0f / (1 + frand(fx) * 0.2f);
        p->color = (uint8_t)(0x74 + (int)(q2rand(fx) & 7));
        for (int k = 0; k < 3; k++) {
            float sp = right[k] * c + up[k] * s;
            p->org[k] = move[k] + sp * 3;
            p->vel[k] = sp * 6;
        }
        for (int k = 0; k < 3; k++)
            move[k] += dir[k];
    }
    memcpy(move, a, sizeof move);
    while (len > 0) {
        len -= 0.75f;
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        p->alphavel = -1.0f / (0.6f + frand(fx) * 0.2f);
        p->color = (uint8_t)(q2rand(fx) & 15);
        for (int k = 0; k < 3; k++) {
            p->org[k] = move[k] + crand(fx) * 3;
            p->vel[k] = crand(fx) * 3;
        }
        for (int k = 0; k < 3; k++)
            move[k] += dir[k] * 0.75f;
    }
}

// CL_BubbleTrail (spacing 32) and CL_BubbleTrail2 (spacing dist, rising 20).
static void bubble_trail(r_q2fx_t *fx, const vec3_t a, const vec3_t b, int dist, int two)
{
    vec3_t dir, move = {a[0], a[1], a[2]};
    float len = line(a, b, dir);
    for (int i = 0; i < len; i += dist) {
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        p->alphavel = -1.0f / (1 + frand(fx) * (two ? 0.1f : 0.2f));
        p->color = (uint8_t)(4 + (int)(q2rand(fx) & 7));
        for (int k = 0; k < 3; k++) {
            p->org[k] = move[k] + crand(fx) * 2;
            p->vel[k] = crand(fx) * (two ? 10 : 5);
        }
        if (two)
            p->org[2] -= 4;
        p->vel[2] += two ? 20 : 6;
        for (int k = 0; k < 3; k++)
            move[k] += dir[k] * (float)dist;
    }
}

// CL_ParticleSteamEffect (zgrav -20) and CL_ParticleSmokeEffect (none).
static void steam(r_q2fx_t *fx, const vec3_t org, const vec3_t dir, int color, int count, int magnitude, float zgrav)
{
    vec3_t r, u;
    normal_vectors(dir, r, u);
    for (int i = 0; i < count; i++) {
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        p->color = (uint8_t)(color + (int)(q2rand(fx) & 7));
        for (int k = 0; k < 3; k++)
            p->org[k] = org[k] + (float)magnitude * 0.1f * crand(fx);
        float d1 = crand(fx) * (float)magnitude / 3, d2 = crand(fx) * (float)magnitude / 3;
        for (int k = 0; k < 3; k++)
            p->vel[k] = dir[k] * (float)magnitude + d1 * r[k] + d2 * u[k];
        p->accel[2] = zgrav;
        p->alphavel = -1.0f / (0.5f + frand(fx) * 0.3f);
    }
}

// CL_TeleportParticles: a box of greys flying out from its centre.
static void teleport(r_q2fx_t *fx, const vec3_t org)
{
    for (int i = -16; i <= 16; i += 4)
        for (int j = -16; j <= 16; j += 4)
            for (int k = -16; k <= 32; k += 4) {
                r_q2particle_t *p = newp(fx);
                if (!p)
                    return;
                p->color = (uint8_t)(7 + (int)(q2rand(fx) & 7));
                p->alphavel = -1.0f / (0.3f + (float)(q2rand(fx) & 7) * 0.02f);
                p->org[0] = org[0] + (float)(i + (int)(q2rand(fx) & 3));
                p->org[1] = org[1] + (float)(j + (int)(q2rand(fx) & 3));
                p->org[2] = org[2] + (float)(k + (int)(q2rand(fx) & 3));
                vec3_t dir = {(float)j * 8, (float)i * 8, (float)k * 8};
                normalize(dir);
                float vel = (float)(50 + (int)(q2rand(fx) & 63));
                for (int n = 0; n < 3; n++)
                    p->vel[n] = dir[n] * vel;
                p->accel[2] = -Q2FX_GRAVITY;
            }
}

// Random unit direction (crand on each axis, normalized).
static void rand_dir(r_q2fx_t *fx, vec3_t d)
{
    d[0] = crand(fx);
    d[1] = crand(fx);
    d[2] = crand(fx);
    normalize(d);
}

// A shell of `count` particles at radius r around org, shown for this frame only.
static void shell(r_q2fx_t *fx, const vec3_t org, int count, float r, const int *colors, int ncolors)
{
    for (int i = 0; i < count; i++) {
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        vec3_t d;
        rand_dir(fx, d);
        p->instant = 1;
        p->color = (uint8_t)colors[ncolors > 1 ? (int)(q2rand(fx) & (unsigned)(ncolors - 1)) : 0];
        for (int k = 0; k < 3; k++)
            p->org[k] = org[k] + r * d[k];
    }
}

static const int zero_color[1] = {0};
static const int widow_colors[4] = {2 * 8, 13 * 8, 21 * 8, 18 * 8}, nuke_colors[4] = {110, 112, 114, 116};

// The BFG ball's and flies' swarms (CL_BfgParticles, CL_FlyParticles): count particles on
// spinning spots around org, drawn this frame only.
static void swarm(r_q2fx_t *fx, const vec3_t org, int count, int step, int bfg, float t)
{
    if (count > MDL_NUM_NORMALS)
        count = MDL_NUM_NORMALS;
    for (int i = 0; i < count; i += step) {
        float a = t * fx->avel[i][0], sy = sinf(a), cy = cosf(a);
        a = t * fx->avel[i][1];
        float sp = sinf(a), cp = cosf(a);
        vec3_t fwd = {cp * cy, cp * sy, -sp};
        r_q2particle_t *p = newp(fx);
        if (!p)
            return;
        float dist = sinf(t + (float)i) * 64;
        for (int k = 0; k < 3; k++)
            p->org[k] = org[k] + mdl_anorms[i][k] * dist + fwd[k] * 16;
        p->instant = 1;
        if (bfg) {
            float dx = p->org[0] - org[0], dy = p->org[1] - org[1], dz = p->org[2] - org[2];
            float d = sqrtf(dx * dx + dy * dy + dz * dz) / 90.0f;
            p->color = (uint8_t)(int)floorf(0xd0 + d * 7);
            p->alpha = 1.0f - d;
        }
    }
}

// ---- explosions, beams, lights -----------------------------------------------------------------

static q2ex_t *new_ex(r_q2fx_t *fx)
{
    int oldest = 0;
    for (int i = 0; i < Q2FX_MAX_EXPLOSIONS; i++) {
        if (fx->ex[i].type == EX_FREE) {
            oldest = i;
            break;
        }
        if (fx->ex[i].start < fx->ex[oldest].start)
            oldest = i;
    }
    q2ex_t *e = &fx->ex[oldest];
    memset(e, 0, sizeof *e);
    e->seq = ++fx->seq;
    e->start = fx->now - 0.1f;   // the client starts them a frame back: the first frame drawn is the second
    return e;
}

// The explosion model r_explode (or r_explode2), lit 350, turned at random.
static void poly_explosion(r_q2fx_t *fx, const vec3_t org, int model, int frames, int baseframe, int allow_second)
{
    q2ex_t *e = new_ex(fx);
    memcpy(e->org, org, sizeof e->org);
    e->type = EX_POLY;
    e->model = model;
    e->fullbright = 1;
    e->light = 350;
    e->angles[1] = (float)(q2rand(fx) % 360);
    e->baseframe = baseframe;
    if (allow_second && frand(fx) < 0.5f)
        e->baseframe = 15;
    e->frames = frames;
}

// CL_SmokeAndFlash: a see-through smoke puff and a bright flash where a bullet hit.
static void smoke_and_flash(r_q2fx_t *fx, const vec3_t org)
{
    q2ex_t *e = new_ex(fx);
    memcpy(e->org, org, sizeof e->org);
    e->type = EX_MISC;
    e->frames = 4;
    e->translucent = 1;
    e->model = Q2M_SMOKE;
    e = new_ex(fx);
    memcpy(e->org, org, sizeof e->org);
    e->type = EX_FLASH;
    e->fullbright = 1;
    e->frames = 2;
    e->model = Q2M_FLASH;
}

// The blaster's wall hit: the explode model turned to face along dir, lit 150.
static void blaster_explosion(r_q2fx_t *fx, const vec3_t org, const vec3_t dir, int skin, int translucent)
{
    q2ex_t *e = new_ex(fx);
    memcpy(e->org, org, sizeof e->org);
    float c = dir[2] < -1 ? -1 : dir[2] > 1 ? 1 : dir[2];
    e->angles[0] = acosf(c) / (float)M_PI * 180;
    e->angles[1] = dir[0] != 0 ? atan2f(dir[1], dir[0]) / (float)M_PI * 180 : dir[1] > 0 ? 90 : dir[1] < 0 ? 270 : 0;
    e->type = EX_MISC;
    e->skin = skin;
    e->fullbright = translucent;
    e->translucent = translucent;
    e->light = 150;
    e->model = Q2M_EXPLODE;
    e->frames = 4;
}

static q2light_t *add_light(r_q2fx_t *fx, int key, const vec3_t org, float radius, float die)
{
    q2light_t *slot = NULL;
    if (key)
        for (int i = 0; i < Q2FX_MAX_LIGHTS && !slot; i++)
            if (fx->lights[i].key == key)
                slot = &fx->lights[i];
    for (int i = 0; i < Q2FX_MAX_LIGHTS && !slot; i++)
        if (fx->lights[i].die < fx->now)
            slot = &fx->lights[i];
    if (!slot)
        slot = &fx->lights[0];
    slot->key = key;
    slot->radius = radius;
    slot->die = die;
    slot->dark = 0;
    memcpy(slot->org, org, sizeof slot->org);
    return slot;
}

// A light of negative colour (CL_ColorFlash's -1, -1, -1, MZ_TRACKER, MZ2_WIDOW_DISRUPTOR): the
// software client's CL_AddDLights makes it a negative light and its radius negative, which the next
// CL_RunDLights sets to 0: dark for the one frame it was made in.
static void add_dark_light(r_q2fx_t *fx, int key, const vec3_t org, float radius)
{
    add_light(fx, key, org, radius, fx->now)->dark = 1;
}

static void add_beam(r_q2fx_t *fx, const world_fx_event_t *ev, int model, const vec3_t offset, int by_dest)
{
    q2beam_t *b = NULL;
    for (int i = 0; i < Q2FX_MAX_BEAMS && !b; i++)
        if (fx->beams[i].endtime >= fx->now && fx->beams[i].entity == ev->entity &&
            (!by_dest || fx->beams[i].dest == ev->model))
            b = &fx->beams[i];
    for (int i = 0; i < Q2FX_MAX_BEAMS && !b; i++)
        if (fx->beams[i].endtime < fx->now)
            b = &fx->beams[i];
    if (!b)
        return;
    b->entity = ev->entity;
    b->seq = ++fx->seq;
    b->dest = by_dest ? ev->model : 0;
    b->model = model;
    b->endtime = fx->now + 0.2f;
    memcpy(b->start, ev->origin, sizeof b->start);
    memcpy(b->end, ev->end, sizeof b->end);
    if (offset)
        memcpy(b->offset, offset, sizeof b->offset);
    else
        memset(b->offset, 0, sizeof b->offset);
}

// ---- muzzle flashes ------------------------------------------------------------------------------

int r_q2fx_player_flash(int weapon, r_q2flash_t *out)
{
    static const r_q2flash_t table[40] = {
        [0] = {200, 0, 0xffff00},  [1] = {200, 0, 0xffff00},   [2] = {200, 0, 0xffff00},
        [3] = {200, 0, 0xff4000},  [4] = {225, 0.1f, 0xff8000}, [5] = {250, 0.1f, 0xffff00},
        [6] = {200, 0, 0x8080ff},  [7] = {200, 0, 0xff8033},  [8] = {200, 0, 0xff8000},
        [9] = {200, 1, 0x00ff00},  [10] = {200, 1, 0xff0000},  [11] = {200, 1, 0xffff00},
        [12] = {200, 0, 0x00ff00}, [13] = {200, 0, 0xffff00},  [14] = {200, 0, 0xffff00},
        [15] = {200, 0, 0xffffff}, [16] = {200, 0, 0xff8080},  [17] = {200, 0, 0x0000ff},
        [18] = {200, 0, 0xff8080}, [30] = {200, 0, 0xe6b300},  [32] = {200, 0, 0xffff00},
        [33] = {200, 100, 0xffff00}, [34] = {200, 0, 0x00ff00}, [35] = {200, 0, 0},
        [36] = {200, 100, 0xff0000}, [37] = {200, 100, 0xffff00}, [38] = {200, 100, 0x0000ff},
        [39] = {200, 100, 0x00ffff},
    };
    if (weapon < 0 || weapon >= 40 || table[weapon].radius == 0)
        return 0;
    *out = table[weapon];
    return 1;
}

#define S12(x, y, z) {(x) * 1.2f, (y) * 1.2f, (z) * 1.2f}
#define S115(x, y, z) {(x) * 1.15f, (y) * 1.15f, (z) * 1.15f}
// Where each monster's weapon fires from (m_flash.c): forward, right, up from its origin.
static const float monster_flash_offset[Q2FX_NUM_MONSTER_FLASHES][3] = {
    {0, 0, 0}, {20.7f, -18.5f, 28.7f}, {16.6f, -21.5f, 30.1f}, {11.8f, -23.9f, 32.1f},
    {22.9f, -0.7f, 25.3f}, {22.2f, 6.2f, 22.3f}, {19.4f, 13.1f, 18.6f}, {19.4f, 18.8f, 18.6f},
    {17.9f, 25.0f, 18.6f}, {14.1f, 30.5f, 20.6f}, {9.3f, 35.3f, 22.1f}, {4.7f, 38.4f, 22.1f},
    {-1.1f, 40.4f, 24.1f}, {-6.5f, 41.2f, 24.1f}, {3.2f, 40.1f, 24.7f}, {11.7f, 36.7f, 26.0f},
    {18.9f, 31.3f, 26.0f}, {24.4f, 24.4f, 26.4f}, {27.1f, 17.1f, 27.2f}, {28.5f, 9.1f, 28.0f},
    {27.1f, 2.2f, 28.0f}, {24.9f, -2.8f, 28.0f}, {21.6f, -7.0f, 26.4f}, {6.2f, 29.1f, 49.1f},
    {6.9f, 23.8f, 49.1f}, {8.3f, 17.8f, 49.5f},
    /* 26 infantry */ {26.6f, 7.1f, 13.1f}, {18.2f, 7.5f, 15.4f}, {17.2f, 10.3f, 17.9f}, {17.0f, 12.8f, 20.1f},
    {15.1f, 14.1f, 21.8f}, {11.8f, 17.2f, 23.1f}, {11.4f, 20.2f, 21.0f}, {9.0f, 23.0f, 18.9f},
    {13.9f, 18.6f, 17.7f}, {15.4f, 15.6f, 15.8f}, {10.2f, 15.2f, 25.1f}, {-1.9f, 15.1f, 28.2f},
    {-12.4f, 13.0f, 20.2f},
    /* 39 soldier */ S12(10.6f, 7.7f, 7.8f), S12(21.1f, 3.6f, 19.0f), S12(10.6f, 7.7f, 7.8f),
    S12(21.1f, 3.6f, 19.0f), S12(10.6f, 7.7f, 7.8f), S12(21.1f, 3.6f, 19.0f),
    /* 45 gunner */ S115(30.1f, 3.9f, 19.6f), S115(29.1f, 2.5f, 20.7f), S115(28.2f, 2.5f, 22.2f),
    S115(28.2f, 3.6f, 22.0f), S115(26.9f, 2.0f, 23.4f), S115(26.5f, 0.6f, 20.8f), S115(26.9f, 0.5f, 21.5f),
    S115(29.0f, 2.4f, 19.5f), S115(4.6f, -16.8f, 7.3f), S115(4.6f, -16.8f, 7.3f), S115(4.6f, -16.8f, 7.3f),
    S115(4.6f, -16.8f, 7.3f),
    /* 57 */ {24.8f, -9.0f, 39.0f}, {12.1f, 13.4f, -14.5f}, {12.1f, -7.4f, -14.5f}, {12.1f, 5.4f, 16.5f},
    {30.0f, 18.0f, 28.0f}, {32.5f, -0.8f, 10.0f}, {18.4f, 7.4f, 9.6f},
    /* 64 supertank */ {30, 30, 88.5f}, {30, 30, 88.5f}, {30, 30, 88.5f}, {30, 30, 88.5f}, {30, 30, 88.5f},
    {30, 30, 88.5f}, {16.0f, -22.5f, 91.2f}, {16.0f, -33.4f, 86.7f}, {16.0f, -42.8f, 83.3f},
    /* 73 boss2 */ {32, -40, 70}, {32, -40, 70}, {32, -40, 70}, {32, -40, 70}, {32, -40, 70},
    {22, 16, 10}, {22, 8, 10}, {22, -8, 10}, {22, -16, 10}, {32.5f, -0.8f, 10},
    /* 83 soldier 3..8 */ S12(20.8f, 10.1f, -2.7f), S12(20.8f, 10.1f, -2.7f), S12(20.8f, 10.1f, -2.7f),
    S12(7.6f, 9.3f, 0.8f), S12(7.6f, 9.3f, 0.8f), S12(7.6f, 9.3f, 0.8f), S12(30.5f, 9.9f, -18.7f),
    S12(30.5f, 9.9f, -18.7f), S12(30.5f, 9.9f, -18.7f), S12(27.6f, 3.4f, -10.4f), S12(27.6f, 3.4f, -10.4f),
    S12(27.6f, 3.4f, -10.4f), S12(28.9f, 4.6f, -8.1f), S12(28.9f, 4.6f, -8.1f), S12(28.9f, 4.6f, -8.1f),
    S12(31.5f, 9.6f, 10.1f), S12(34.5f, 9.6f, 6.1f), S12(34.5f, 9.6f, 6.1f),
    /* 101 makron */ {17, -19.5f, 62.9f}, {-3.6f, -24.1f, 59.5f}, {-1.6f, -19.3f, 59.5f}, {-0.1f, -14.4f, 59.5f},
    {2.0f, -7.6f, 59.5f}, {3.4f, 1.3f, 59.5f}, {3.7f, 11.1f, 59.5f}, {-0.3f, 22.3f, 59.5f}, {-6, 33, 59.5f},
    {-9.3f, 36.4f, 59.5f}, {-7, 35, 59.5f}, {-2.1f, 29, 59.5f}, {3.9f, 17.3f, 59.5f}, {6.1f, 5.8f, 59.5f},
    {5.9f, -4.4f, 59.5f}, {4.2f, -14.1f, 59.5f}, {2.4f, -18.8f, 59.5f}, {-1.8f, -25.5f, 59.5f},
    {-17.3f, 7.8f, 72.4f},
    /* 120 jorg */ {78.5f, -47.1f, 96}, {78.5f, -47.1f, 96}, {78.5f, -47.1f, 96}, {78.5f, -47.1f, 96},
    {78.5f, -47.1f, 96}, {78.5f, -47.1f, 96}, {78.5f, 46.7f, 96}, {78.5f, 46.7f, 96}, {78.5f, 46.7f, 96},
    {78.5f, 46.7f, 96}, {78.5f, 46.7f, 96}, {78.5f, 46.7f, 96}, {6.3f, -9, 111.2f},
    /* 133 boss2 right */ {32, 40, 70}, {32, 40, 70}, {32, 40, 70}, {32, 40, 70}, {32, 40, 70},
    /* 138 carrier, turret, mission packs */ {56, -32, 32}, {56, 32, 32}, {42, 24, 50}, {16, 0, 0}, {16, 0, 0},
    {16, 0, 0}, {24, 0, 6}, {32.5f, -0.8f, 10.0f}, {12.1f, 5.4f, 16.5f}, {32, 0, 6}, {57.72f, 14.50f, 88.81f},
    {56, 32, 32}, {62, -20, 84}, {32, 0, 6}, {61, -32, 12}, {61, 32, 12}, {17, -62, 91}, {68, 12, 86},
    /* 156 widow sweep */ {47.5f, 56, 89}, {54, 52, 91}, {58, 40, 91}, {68, 30, 88}, {74, 20, 88}, {73, 11, 87},
    {73, 3, 87}, {70, -12, 87}, {67, -20, 90},
    /* 165 widow 100..70L */ {-20, 76, 90}, {-8, 74, 90}, {0, 72, 90}, {10, 71, 89}, {23, 70, 87},
    {32, 64, 85}, {40, 58, 84}, {48, 50, 83}, {54, 42, 82}, {56, 34, 82}, {58, 26, 82}, {60, 16, 82},
    {59, 6, 81}, {58, -2, 80}, {57, -10, 79}, {54, -18, 78}, {42, -32, 80}, {36, -40, 78},
    /* 183 widow run */ {68.4f, 10.88f, 82.08f}, {68.51f, 8.64f, 85.14f}, {68.66f, 6.38f, 88.78f},
    {68.73f, 5.1f, 84.47f}, {68.82f, 4.79f, 80.52f}, {68.77f, 6.11f, 85.37f}, {68.67f, 7.99f, 90.24f},
    {68.55f, 9.54f, 87.36f},
    /* 191 carrier rockets */ {0, 0, -5}, {0, 0, -5}, {0, 0, -5}, {0, 0, -5},
    /* 195 widow2 beamer */ {69.00f, -17.63f, 93.77f}, {69.00f, -17.08f, 89.82f}, {69.00f, -18.40f, 90.70f},
    {69.00f, -18.34f, 94.32f}, {69.00f, -18.30f, 97.98f},
    /* 200 widow2 sweep */ {45.04f, -59.02f, 92.24f}, {50.68f, -54.70f, 91.96f}, {56.57f, -47.72f, 91.65f},
    {61.75f, -38.75f, 91.38f}, {65.55f, -28.76f, 91.24f}, {67.79f, -18.90f, 91.22f}, {68.60f, -9.52f, 91.23f},
    {68.08f, 0.18f, 91.32f}, {66.14f, 9.79f, 91.44f}, {62.77f, 18.91f, 91.65f}, {58.29f, 27.11f, 92.00f},
};

// How a monster flash looks: 1 machine gun (a puff of 40 and smoke and flash), 2 shotgun
// (smoke and flash), 3 the widow's beams (a bigger, lasting light), 4 a dark light, 0 light alone.
static int monster_flash_kind(int n)
{
    if ((n >= 4 && n <= 22) || (n >= 26 && n <= 38) || n == 43 || n == 44 || (n >= 45 && n <= 52) ||
        (n >= 63 && n <= 69) || (n >= 73 && n <= 77) || (n >= 120 && n <= 131) || (n >= 133 && n <= 139) ||
        n == 141 || n == 152 || n == 153 || (n >= 83 && n <= 100 && (n - 83) % 3 == 2))
        return 1;
    if (n == 41 || n == 42 || (n >= 83 && n <= 100 && (n - 83) % 3 == 1))
        return 2;
    if (n == 151 || (n >= 195 && n <= 210))
        return 3;
    if (n == 148)
        return 4;
    return 0;
}

int r_q2fx_monster_flash(int number, r_q2flash_t *out, vec3_t offset)
{
    if (number < 0 || number >= Q2FX_NUM_MONSTER_FLASHES)
        return 0;
    int kind = monster_flash_kind(number);
    out->radius = kind == 3 ? 300 : 200;
    out->extra = kind == 3 ? 200 : 0;
    out->rgb = kind == 4 ? 0 : 0xffff00;
    memcpy(offset, monster_flash_offset[number], sizeof(vec3_t));
    return 1;
}

static void entity_vectors(const world_entity_t *e, vec3_t f, vec3_t r)
{
    vec3_t u;
    r_angle_vectors(e->cur.angles, f, r, u);
}

static void muzzle_flash(r_q2fx_t *fx, const world_t *w, const world_fx_event_t *ev)
{
    int n = ev->entity, monster = ev->count == 2;
    if (n < 1 || n >= w->num_entities) {
        warn_once(fx, W_ENTITY, "entity", n);
        return;
    }
    const world_entity_t *e = &w->entities[n];
    vec3_t f, r, org;
    entity_vectors(e, f, r);
    r_q2flash_t fl;
    if (!monster) {
        int silenced = ev->raw_type & 128, weapon = ev->raw_type & ~128;
        if (!r_q2fx_player_flash(weapon, &fl)) {
            warn_once(fx, W_FLASH, "muzzle flash", ev->raw_type);
            return;
        }
        for (int k = 0; k < 3; k++)
            org[k] = e->cur.origin[k] + 18 * f[k] + 16 * r[k];
        float radius = (silenced && weapon != 3 && weapon != 4 && weapon != 5 ? 100 : fl.radius) +
                       (float)(q2rand(fx) & 31);
        if (weapon != 35)
            add_light(fx, n, org, radius, fx->now + fl.extra);
        else   // MZ_TRACKER: colour -1, -1, -1
            add_dark_light(fx, n, org, radius);
        if (weapon >= 9 && weapon <= 11) {   // login, logout, respawn: a column of 500
            int base = weapon == 9 ? 0xd0 : weapon == 10 ? 0x40 : 0xe0;
            for (int i = 0; i < 500; i++) {
                r_q2particle_t *p = newp(fx);
                if (!p)
                    break;
                p->color = (uint8_t)(base + (int)(q2rand(fx) & 7));
                p->org[0] = e->cur.origin[0] - 16 + frand(fx) * 32;
                p->org[1] = e->cur.origin[1] - 16 + frand(fx) * 32;
                p->org[2] = e->cur.origin[2] - 24 + frand(fx) * 56;
                for (int k = 0; k < 3; k++)
                    p->vel[k] = crand(fx) * 20;
                p->accel[2] = -Q2FX_GRAVITY;
                p->alphavel = -1.0f / (1.0f + frand(fx) * 0.3f);
            }
        }
        return;
    }
    vec3_t ofs;
    if (!r_q2fx_monster_flash(ev->raw_type, &fl, ofs)) {
        warn_once(fx, W_FLASH, "monster muzzle flash", ev->raw_type);
        return;
    }
    for (int k = 0; k < 3; k++)
        org[k] = e->cur.origin[k] + f[k] * ofs[0] + r[k] * ofs[1];
    org[2] += ofs[2];
    int kind = monster_flash_kind(ev->raw_type);
    float radius = kind == 3 ? 300 + (float)(q2rand(fx) & 100) : 200 + (float)(q2rand(fx) & 31);
    if (kind != 4)
        add_light(fx, n, org, radius, fx->now + fl.extra);
    else   // MZ2_WIDOW_DISRUPTOR: colour -1, -1, -1
        add_dark_light(fx, n, org, radius);
    static const vec3_t zero = {0, 0, 0};
    if (kind == 1)
        particle_effect(fx, org, zero, 0, 40);
    if (kind == 1 || kind == 2)
        smoke_and_flash(fx, org);
}

// ---- temp entities -----------------------------------------------------------------------------

static const uint8_t splash_color[7] = {0x00, 0xe0, 0xb0, 0x50, 0xd0, 0xe0, 0xe8};

static void temp_entity(r_q2fx_t *fx, const world_t *w, const world_fx_event_t *ev)
{
    const float *pos = ev->origin, *dir = ev->dir;
    int count = ev->count < 0 ? 0 : ev->count > 255 ? 255 : ev->count;
    int color = ev->color & 255;
    switch (ev->raw_type) {
    case TE_BLOOD: particle_effect(fx, pos, dir, 0xe8, 60); break;
    case TE_GUNSHOT:
    case TE_SPARKS:
    case TE_BULLET_SPARKS:
        particle_effect(fx, pos, dir, ev->raw_type == TE_GUNSHOT ? 0 : 0xe0, ev->raw_type == TE_GUNSHOT ? 40 : 6);
        if (ev->raw_type != TE_SPARKS)
            smoke_and_flash(fx, pos);
        break;
    case TE_SCREEN_SPARKS: particle_effect(fx, pos, dir, 0xd0, 40); break;
    case TE_SHIELD_SPARKS: particle_effect(fx, pos, dir, 0xb0, 40); break;
    case TE_SHOTGUN:
        particle_effect(fx, pos, dir, 0, 20);
        smoke_and_flash(fx, pos);
        break;
    case TE_SPLASH: particle_effect(fx, pos, dir, color <= 6 ? splash_color[color] : 0, count); break;
    case TE_LASER_SPARKS: puff(fx, pos, dir, color, count, 7, -Q2FX_GRAVITY, 1); break;
    case TE_BLUEHYPERBLASTER: {
        vec3_t d = {ev->end[0], ev->end[1], ev->end[2]};   // sent as a position, used as the direction
        blaster_hit(fx, pos, d, 0xe0);
        break;
    }
    case TE_BLASTER:
        blaster_hit(fx, pos, dir, 0xe0);
        blaster_explosion(fx, pos, dir, 0, 0);
        break;
    case TE_BLASTER2:
    case TE_FLECHETTE:
        blaster_hit(fx, pos, dir, ev->raw_type == TE_BLASTER2 ? 0xd0 : 0x6f);
        blaster_explosion(fx, pos, dir, ev->raw_type == TE_BLASTER2 ? 1 : 2, 1);
        break;
    case TE_RAILTRAIL: rail_trail(fx, pos, ev->end); break;
    case TE_EXPLOSION2:
    case TE_GRENADE_EXPLOSION:
    case TE_GRENADE_EXPLOSION_WATER:
        poly_explosion(fx, pos, Q2M_EXPLO4, 19, 30, 0);   // the grenade's frames, from 30
        burst(fx, pos, 256, 0xe0, 8, 384, 0.8f, 0.5f);
        break;
    case TE_PLASMA_EXPLOSION:
    case TE_EXPLOSION1:
    case TE_EXPLOSION1_NP:
    case TE_EXPLOSION1_BIG:
    case TE_ROCKET_EXPLOSION:
    case TE_ROCKET_EXPLOSION_WATER:
        poly_explosion(fx, pos, ev->raw_type == TE_EXPLOSION1_BIG ? Q2M_EXPLO4_BIG : Q2M_EXPLO4, 15, 0, 1);
        if (ev->raw_type != TE_EXPLOSION1_BIG && ev->raw_type != TE_EXPLOSION1_NP)
            burst(fx, pos, 256, 0xe0, 8, 384, 0.8f, 0.5f);
        break;
    case TE_PLAIN_EXPLOSION: poly_explosion(fx, pos, Q2M_EXPLO4, 15, 0, 1); break;
    case TE_BFG_EXPLOSION: {
        q2ex_t *e = new_ex(fx);
        memcpy(e->org, pos, sizeof e->org);
        e->type = EX_POLY;
        e->fullbright = 1;
        e->translucent = 1;
        e->light = 350;
        e->model = Q2M_BFG_EXPLO;
        e->frames = 4;
        break;
    }
    case TE_BFG_BIGEXPLOSION: burst(fx, pos, 256, 0xd0, 8, 384, 0.8f, 0.5f); break;
    case TE_BUBBLETRAIL: bubble_trail(fx, pos, ev->end, 32, 0); break;
    case TE_BUBBLETRAIL2: bubble_trail(fx, pos, ev->end, 8, 1); break;
    case TE_PARASITE_ATTACK:
    case TE_MEDIC_CABLE_ATTACK: add_beam(fx, ev, Q2M_PARASITE, NULL, 0); break;
    case TE_GRAPPLE_CABLE: add_beam(fx, ev, Q2M_GRAPPLE, ev->dir, 0); break;   // dir: the cable's offset
    case TE_LIGHTNING: add_beam(fx, ev, Q2M_LIGHTNING, NULL, 1); break;
    case TE_HEATBEAM:
    case TE_MONSTER_HEATBEAM: {
        const vec3_t ofs = {2, 7, -3};
        add_beam(fx, ev, Q2M_HEATBEAM, ev->raw_type == TE_HEATBEAM ? ofs : NULL, 0);
        break;
    }
    case TE_BOSSTPORT: {   // CL_BigTeleportParticles
        static const int colors[4] = {2 * 8, 13 * 8, 21 * 8, 18 * 8};
        for (int i = 0; i < 4096; i++) {
            r_q2particle_t *p = newp(fx);
            if (!p)
                break;
            p->color = (uint8_t)colors[q2rand(fx) & 3];
            float a = (float)M_PI * 2 * (float)(q2rand(fx) & 1023) / 1023.0f, d = (float)(q2rand(fx) & 31);
            float c = cosf(a), s = sinf(a), v = (float)(70 + (int)(q2rand(fx) & 63));
            p->org[0] = pos[0] + c * d;
            p->vel[0] = c * v;
            p->accel[0] = -c * 100;
            p->org[1] = pos[1] + s * d;
            p->vel[1] = s * v;
            p->accel[1] = -s * 100;
            p->org[2] = pos[2] + 8 + (float)(q2rand(fx) % 90);
            p->vel[2] = -100 + (float)(q2rand(fx) & 31);
            p->accel[2] = Q2FX_GRAVITY * 4;
            p->alphavel = -0.3f / (0.5f + frand(fx) * 0.3f);
        }
        break;
    }
    case TE_WELDING_SPARKS: {
        puff(fx, pos, dir, color, count, 7, -Q2FX_GRAVITY, 1);
        q2ex_t *e = new_ex(fx);
        memcpy(e->org, pos, sizeof e->org);
        e->type = EX_FLASH;
        e->light = 100 + (float)(q2rand(fx) % 75);
        e->model = -1;   // a light alone: the flash model is drawn as a beam, not at all in 8 bits
        e->frames = 2;
        break;
    }
    case TE_GREENBLOOD: puff(fx, pos, dir, 0xdf, 30, 7, -Q2FX_GRAVITY, 1); break;
    case TE_TUNNEL_SPARKS: puff(fx, pos, dir, color, count, 7, Q2FX_GRAVITY, 0); break;
    case TE_DEBUGTRAIL: {
        vec3_t d, move = {pos[0], pos[1], pos[2]};
        float len = line(pos, ev->end, d);
        while (len > 0) {
            len -= 3;
            r_q2particle_t *p = newp(fx);
            if (!p)
                break;
            p->alphavel = -0.1f;
            p->color = (uint8_t)(0x74 + (int)(q2rand(fx) & 7));
            memcpy(p->org, move, sizeof p->org);
            for (int k = 0; k < 3; k++)
                move[k] += d[k] * 3;
        }
        break;
    }
    case TE_FLASHLIGHT: add_light(fx, ev->entity, pos, 400, fx->now + 0.1f); break;
    case TE_FORCEWALL: {
        vec3_t d, move = {pos[0], pos[1], pos[2]};
        float len = line(pos, ev->end, d);
        while (len > 0) {
            len -= 4;
            if (frand(fx) > 0.3f) {
                r_q2particle_t *p = newp(fx);
                if (!p)
                    break;
                p->alphavel = -1.0f / (3.0f + frand(fx) * 0.5f);
                p->color = (uint8_t)color;
                for (int k = 0; k < 3; k++)
                    p->org[k] = move[k] + crand(fx) * 3;
                p->vel[2] = -40 - crand(fx) * 10;
            }
            for (int k = 0; k < 3; k++)
                move[k] += d[k] * 4;
        }
        break;
    }
    case TE_HEATBEAM_SPARKS: steam(fx, pos, dir, 8, 50, 60, -Q2FX_GRAVITY / 2); break;
    case TE_HEATBEAM_STEAM: steam(fx, pos, dir, 0xe0, 20, 60, -Q2FX_GRAVITY / 2); break;
    case TE_STEAM: {
        int magnitude = (int)ev->radius;   // the decoder's place for it
        if (ev->model == -1) {
            steam(fx, pos, dir, color, count, magnitude, -Q2FX_GRAVITY / 2);
            break;
        }
        for (int i = 0; i < Q2FX_MAX_SUSTAINS; i++)
            if (fx->sus[i].kind == SU_FREE) {
                q2sustain_t *s = &fx->sus[i];
                s->kind = SU_STEAM;
                s->id = ev->model;
                s->count = count;
                s->color = color;
                s->magnitude = magnitude;
                memcpy(s->org, pos, sizeof s->org);
                memcpy(s->dir, dir, sizeof s->dir);
                s->endtime = fx->now + (ev->duration > 0 && ev->duration < 60 ? ev->duration : 0);
                s->interval = 0.1f;
                s->nextthink = fx->now;
                break;
            }
        break;
    }
    case TE_MOREBLOOD: particle_effect(fx, pos, dir, 0xe8, 250); break;
    case TE_CHAINFIST_SMOKE: {
        const vec3_t up = {0, 0, 1};
        steam(fx, pos, up, 0, 20, 20, 0);
        break;
    }
    case TE_ELECTRIC_SPARKS: particle_effect(fx, pos, dir, 0x75, 40); break;
    case TE_TRACKER_EXPLOSION:   // CL_ColorFlash(pos, 0, 150, -1, -1, -1): a dark light; a black burst
        add_dark_light(fx, 0, pos, 150);
        burst(fx, pos, 128, 0, 1, 256, 0.4f, 0.6f);
        break;
    case TE_TELEPORT_EFFECT:
    case TE_DBALL_GOAL: teleport(fx, pos); break;
    case TE_WIDOWBEAMOUT:
    case TE_NUKEBLAST:
        for (int i = 0; i < Q2FX_MAX_SUSTAINS; i++)
            if (fx->sus[i].kind == SU_FREE) {
                q2sustain_t *s = &fx->sus[i];
                s->kind = ev->raw_type == TE_NUKEBLAST ? SU_NUKE : SU_WIDOW;
                memcpy(s->org, pos, sizeof s->org);
                s->endtime = fx->now + (s->kind == SU_NUKE ? 1.0f : 2.1f);
                s->nextthink = fx->now;
                break;
            }
        break;
    case TE_WIDOWSPLASH:
        for (int i = 0; i < 256; i++) {
            r_q2particle_t *p = newp(fx);
            if (!p)
                break;
            p->color = (uint8_t)widow_colors[q2rand(fx) & 3];
            vec3_t d;
            rand_dir(fx, d);
            for (int k = 0; k < 3; k++) {
                p->org[k] = pos[k] + 45 * d[k];
                p->vel[k] = 40 * d[k];
            }
            p->alphavel = -0.8f / (0.5f + frand(fx) * 0.3f);
        }
        break;
    case TE_BFG_LASER:   // CL_ParseLaser(0xd0d1d2d3): a see-through laser for 0.1 s, r_q2fx_lasers
        laser(fx, pos, ev->end, 0xd0d1d2d3u);
        break;
    case TE_FLAME:       // never sent by the games
        break;
    default:
        warn_once(fx, W_TYPE, "temp entity type", ev->raw_type);
        break;
    }
    (void)w;
}

static void sustains(r_q2fx_t *fx)
{
    for (int i = 0; i < Q2FX_MAX_SUSTAINS; i++) {
        q2sustain_t *s = &fx->sus[i];
        if (s->kind == SU_FREE)
            continue;
        if (s->endtime < fx->now) {
            s->kind = SU_FREE;
            continue;
        }
        if (s->kind == SU_STEAM) {
            for (int n = 0; n < 4 && s->nextthink <= fx->now; n++) {
                steam(fx, s->org, s->dir, s->color, s->count, s->magnitude, -Q2FX_GRAVITY / 2);
                s->nextthink += s->interval;
            }
        } else {
            float life = s->kind == SU_NUKE ? 1.0f : 2.1f, ratio = 1.0f - (s->endtime - fx->now) / life;
            if (s->kind == SU_NUKE)
                shell(fx, s->org, 700, 200 * ratio, nuke_colors, 4);
            else
                shell(fx, s->org, 300, 45 * ratio, widow_colors, 4);
        }
    }
}

static void explosion_frame(const q2ex_t *e, double t, int *f, float *alpha);
static int ex_alive(const q2ex_t *e, int f);

// ---- entities -----------------------------------------------------------------------------------

static void entity_effects(r_q2fx_t *fx, const world_t *w, int n)
{
    const world_entity_t *e = &w->entities[n];
    uint32_t ef = e->cur.raw_effects;
    const float *a = e->prev.origin, *b = e->cur.origin;
    int16_t *tc = &fx->trailcount[n];
    if (ef & F_TELEPORTER)   // CL_TeleporterParticles, with the frame's entity events
        for (int i = 0; i < 8; i++) {
            r_q2particle_t *p = newp(fx);
            if (!p)
                break;
            p->color = 0xdb;
            for (int k = 0; k < 2; k++) {
                p->org[k] = b[k] - 16 + (float)(q2rand(fx) & 31);
                p->vel[k] = crand(fx) * 14;
            }
            p->org[2] = b[2] - 8 + (float)(q2rand(fx) & 7);
            p->vel[2] = 80 + (float)(q2rand(fx) & 7);
            p->accel[2] = -Q2FX_GRAVITY;
            p->alphavel = -0.5f;
        }
    if (e->cur.event == 1) {   // EV_ITEM_RESPAWN
        for (int i = 0; i < 64; i++) {
            r_q2particle_t *p = newp(fx);
            if (!p)
                break;
            p->color = (uint8_t)(0xd4 + (int)(q2rand(fx) & 3));
            for (int k = 0; k < 3; k++)
                p->org[k] = b[k] + crand(fx) * 8;
            for (int k = 0; k < 3; k++)
                p->vel[k] = crand(fx) * 8;
            p->accel[2] = -Q2FX_GRAVITY * 0.2f;
            p->alphavel = -1.0f / (1.0f + frand(fx) * 0.3f);
        }
    } else if (e->cur.event == 6) {   // EV_PLAYER_TELEPORT
        teleport(fx, b);
    }
    if (n == w->playernum + 1 || !(ef & ~(uint32_t)F_ROTATE) || !e->cur.modelindex)
        return;
    static const trail_t blaster = {5, 1, 5, 0.3f, 0.2f, 0xe0, 0, 1}, blaster2 = {5, 1, 5, 0.3f, 0.2f, 0, 0, 1},
                         flag1 = {5, 16, 5, 0.8f, 0.2f, 242, 0, 1}, flag2 = {5, 16, 5, 0.8f, 0.2f, 115, 0, 1},
                         tag = {5, 16, 5, 0.8f, 0.2f, 220, 0, 1}, ion = {5, 0, 0, 0.3f, 0.2f, 0xe4, 3, 0.5f};
    int moved = e->lerp_ok;
    if (ef & F_ROCKET) {
        if (moved)
            rocket_trail(fx, a, b, tc);
    } else if (ef & F_BLASTER) {
        if (moved)
            simple_trail(fx, a, b, (ef & F_TRACKER) ? &blaster2 : &blaster);
    } else if (ef & F_HYPERBLASTER) {
    } else if (ef & (F_GIB | F_GRENADE)) {
        if (moved)
            diminishing_trail(fx, a, b, tc, ef);
    } else if (ef & F_FLIES) {
        // CL_FlyEffect grows the swarm over the first 20 s the client sees it and shrinks it
        // over the last 20 of its minute: that depends on when playing began, so a seek would
        // show another swarm; the grown one (162) is drawn
        int count = MDL_NUM_NORMALS;
        swarm(fx, b, count, 2, 0, fx->now);
    } else if (ef & F_BFG) {
        if (ef & F_ANIM_ALLFAST)
            swarm(fx, b, MDL_NUM_NORMALS, 1, 1, fx->now);
    } else if (ef & F_TRAP) {   // CL_TrapParticles, 32 up
        vec3_t o = {b[0], b[1], b[2] + 32 - 14}, top = {o[0], o[1], o[2] + 64};
        static const trail_t trap = {5, 1, 15, 0.3f, 0.2f, 0xe0, 0, 1};
        int first = fx->num;
        simple_trail(fx, o, top, &trap);
        for (int i = first; i < fx->num; i++)
            fx->p[i].accel[2] = Q2FX_GRAVITY;
        o[2] += 14;
        for (int i = -2; i <= 2; i += 4)
            for (int j = -2; j <= 2; j += 4)
                for (int k = -2; k <= 4; k += 4) {
                    r_q2particle_t *p = newp(fx);
                    if (!p)
                        return;
                    p->color = (uint8_t)(0xe0 + (int)(q2rand(fx) & 3));
                    p->alphavel = -1.0f / (0.3f + (float)(q2rand(fx) & 7) * 0.02f);
                    p->org[0] = o[0] + (float)i + (float)(q2rand(fx) & 23) * crand(fx);
                    p->org[1] = o[1] + (float)j + (float)(q2rand(fx) & 23) * crand(fx);
                    p->org[2] = o[2] + (float)k + (float)(q2rand(fx) & 23) * crand(fx);
                    vec3_t d = {(float)j * 8, (float)i * 8, (float)k * 8};
                    normalize(d);
                    float v = (float)(50 + (int)(q2rand(fx) & 63));
                    for (int m = 0; m < 3; m++)
                        p->vel[m] = d[m] * v;
                    p->accel[2] = -Q2FX_GRAVITY;
                }
    } else if (ef & F_FLAG1) {
        if (moved)
            simple_trail(fx, a, b, &flag1);
    } else if (ef & F_FLAG2) {
        if (moved)
            simple_trail(fx, a, b, &flag2);
    } else if (ef & F_TAGTRAIL) {
        if (moved)
            simple_trail(fx, a, b, &tag);
    } else if (ef & F_TRACKERTRAIL) {
        if (!(ef & F_TRACKER))
            shell(fx, a, 300, 40, zero_color, 1);
    } else if (ef & F_TRACKER) {   // CL_TrackerTrail: a black wave along the flight
        vec3_t d, move = {a[0], a[1], a[2]}, f, r, up, ang;
        float len = moved ? line(a, b, d) : 0;
        if (len > 0) {
            ang[0] = -asinf(d[2]) * 180 / (float)M_PI;
            ang[1] = atan2f(d[1], d[0]) * 180 / (float)M_PI;
            ang[2] = 0;
            r_angle_vectors(ang, f, r, up);
        }
        while (len > 0) {
            len -= 3;
            r_q2particle_t *p = newp(fx);
            if (!p)
                break;
            p->alphavel = -2.0f;
            float dist = move[0] * f[0] + move[1] * f[1] + move[2] * f[2];
            for (int k = 0; k < 3; k++)
                p->org[k] = move[k] + 8 * cosf(dist) * up[k];
            p->vel[2] = 5;
            for (int k = 0; k < 3; k++)
                move[k] += d[k] * 3;
        }
    } else if (ef & F_IONRIPPER) {
        if (moved) {
            int first = fx->num;
            simple_trail(fx, a, b, &ion);
            for (int i = first; i < fx->num; i++)   // alternately left and right
                fx->p[i].vel[0] = ((i - first) & 1) ? 10.0f : -10.0f, fx->p[i].vel[1] = fx->p[i].vel[2] = 0;
        }
    } else if (ef & F_PLASMA) {
        if ((ef & F_ANIM_ALLFAST) && moved)
            simple_trail(fx, a, b, &blaster);
    }
}

void r_q2fx_frame(r_q2fx_t *fx, const world_t *w, double now, uint32_t seed)
{
    if (now < fx->now - 1.0) {   // time went back (a seek): nothing made later stays
        fx->num = 0;
        memset(fx->ex, 0, sizeof fx->ex);
        memset(fx->beams, 0, sizeof fx->beams);
        memset(fx->lights, 0, sizeof fx->lights);
        memset(fx->sus, 0, sizeof fx->sus);
    }
    fx->now = now;
    fx->rng = seed ? seed : 0x51f15e5u;
    sweep(fx, fx->now);
    for (int i = 0; i < Q2FX_MAX_EXPLOSIONS; i++) {   // those past their last frame free their slot
        int f;
        float alpha;
        explosion_frame(&fx->ex[i], fx->now, &f, &alpha);
        if (!ex_alive(&fx->ex[i], f))
            fx->ex[i].type = EX_FREE;
    }
    for (int i = 0; i < w->num_events; i++) {
        const world_event_t *ev = &w->events[i];
        if (ev->type == EV_TEMPENT)
            temp_entity(fx, w, &ev->u.fx);
        else if (ev->type == EV_DLIGHT && ev->u.fx.kind == FX_NONE)
            muzzle_flash(fx, w, &ev->u.fx);
    }
    sustains(fx);
    int ne = w->num_entities < WORLD_MAX_ENTITIES ? w->num_entities : WORLD_MAX_ENTITIES;
    for (int n = 1; n < ne; n++) {
        const world_entity_t *e = &w->entities[n];
        if (e->seq != w->seq)
            continue;
        // new in view, or moved without a trail: the trail starts thick again
        if (fx->seen[n] + 1 != w->seq || !e->lerp_ok)
            fx->trailcount[n] = 1024;
        fx->seen[n] = w->seq;
        entity_effects(fx, w, n);
    }
}

// ---- what is drawn -------------------------------------------------------------------------------

static void explosion_frame(const q2ex_t *e, double t, int *f, float *alpha)
{
    *f = (int)floor((t - e->start) / 0.1 + 1e-4);
    *alpha = e->type == EX_MISC ? 1.0f - (float)((t - e->start) / 0.1) / (float)(e->frames - 1)
             : e->type == EX_POLY ? (16.0f - (float)*f) / 16.0f : 1.0f;
}

static int ex_alive(const q2ex_t *e, int f)
{
    if (e->type == EX_FREE || f < -1)
        return 0;
    return e->type == EX_FLASH ? f < 1 : f < e->frames - 1;
}

// Slots in the order they were made (an insertion sort of at most 64).
static int by_seq(const uint32_t *seq, int count, int *order)
{
    int n = 0;
    for (int i = 0; i < count; i++) {
        int j = n++;
        while (j > 0 && seq[order[j - 1]] > seq[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    return n;
}

int r_q2fx_models(const r_q2fx_t *fx, double t, r_q2fx_model_t *out, int max)
{
    uint32_t seq[Q2FX_MAX_EXPLOSIONS];
    int order[Q2FX_MAX_EXPLOSIONS];
    for (int i = 0; i < Q2FX_MAX_EXPLOSIONS; i++)
        seq[i] = fx->ex[i].seq;
    by_seq(seq, Q2FX_MAX_EXPLOSIONS, order);
    int n = 0;
    for (int i = 0; i < Q2FX_MAX_EXPLOSIONS && n < max; i++) {
        const q2ex_t *e = &fx->ex[order[i]];
        int f;
        float alpha;
        explosion_frame(e, t, &f, &alpha);
        if (!ex_alive(e, f) || e->model < 0)
            continue;
        r_q2fx_model_t *m = &out[n++];
        m->model = e->model;
        memcpy(m->org, e->org, sizeof m->org);
        memcpy(m->angles, e->angles, sizeof m->angles);
        if (f < 0)
            f = 0;
        m->frame = e->baseframe + f + 1;
        m->skin = e->skin;
        m->fullbright = e->fullbright;
        m->alpha = e->translucent ? (e->model == Q2M_BFG_EXPLO ? 0.3f : alpha) : 1.0f;
        if (e->type == EX_POLY && e->model != Q2M_BFG_EXPLO) {
            // r_explode's skins: 0..4 by pairs of frames, then 5 and 6 seen through
            int skin;
            float a;
            if (r_q2_explosion_look(f, e->frames, &skin, &a)) {
                m->skin = skin;
                m->alpha = a;
            }
        }
    }
    return n;
}

int r_q2fx_beams(const r_q2fx_t *fx, const world_t *w, const r_view_t *v, double t, r_q2fx_beam_t *out, int max)
{
    uint32_t seq[Q2FX_MAX_BEAMS];
    int order[Q2FX_MAX_BEAMS];
    for (int i = 0; i < Q2FX_MAX_BEAMS; i++)
        seq[i] = fx->beams[i].seq;
    by_seq(seq, Q2FX_MAX_BEAMS, order);
    int n = 0;
    for (int i = 0; i < Q2FX_MAX_BEAMS && n < max; i++) {
        const q2beam_t *b = &fx->beams[order[i]];
        if (b->endtime < t || b->endtime <= 0)
            continue;
        r_q2fx_beam_t *o = &out[n++];
        o->model = b->model;
        memcpy(o->start, b->start, sizeof o->start);
        if (b->entity == w->playernum + 1 && v) {   // the player's own: from the eye, 22 below
            memcpy(o->start, v->vieworg, sizeof o->start);
            o->start[2] -= 22;
        }
        for (int k = 0; k < 3; k++)
            o->start[k] += b->offset[k] * (b->model == Q2M_HEATBEAM ? 0 : 1);
        memcpy(o->end, b->end, sizeof o->end);
    }
    return n;
}

static void push_light(r_view_t *v, const vec3_t org, float radius, float die, int dark)
{
    if (radius <= 0 || v->num_dlights >= R_MAX_DLIGHTS || v->num_dlights < 0)
        return;
    r_dlight_t *d = &v->dlights[v->num_dlights++];
    memset(d, 0, sizeof *d);
    memcpy(d->origin, org, sizeof d->origin);
    d->radius = radius;
    d->die = die;
    d->minlight = 32;   // ref_soft's R_AddDynamicLights: minlight 32 for every light (dl->minlight unused)
    d->color = -1;
    d->dark = dark;
}

void r_q2fx_lights(const r_q2fx_t *fx, const world_t *w, r_view_t *v, double t)
{
    float ft = (float)t;
    for (int i = 0; i < Q2FX_MAX_LIGHTS; i++) {
        const q2light_t *l = &fx->lights[i];
        // a light made with a frame lasts until the next one (die = cl.time), or longer
        if (l->radius > 0 && l->die + 0.1f > ft && l->die >= fx->now - 1e-4f)
            push_light(v, l->org, l->radius, ft + 0.001f, l->dark);
    }
    for (int i = 0; i < Q2FX_MAX_EXPLOSIONS; i++) {
        const q2ex_t *e = &fx->ex[i];
        int f;
        float alpha;
        explosion_frame(e, t, &f, &alpha);
        if (ex_alive(e, f) && e->light > 0)
            push_light(v, e->org, e->light * alpha, ft + 0.001f, 0);
    }
    // glowing entities (CL_AddPacketEntities' V_AddLight), at their place at t
    double span = w->time - w->prev_time;
    float frac = span > 0 ? (float)((t - w->prev_time) / span) : 1;
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    for (int n = 1; n < w->num_entities; n++) {
        const world_entity_t *e = &w->entities[n];
        if (e->seq != w->seq)
            continue;
        uint32_t ef = e->cur.raw_effects;
        if (!(ef & ~(uint32_t)F_ROTATE))
            continue;
        vec3_t org;
        for (int k = 0; k < 3; k++)
            org[k] = e->lerp_ok ? e->prev.origin[k] + frac * (e->cur.origin[k] - e->prev.origin[k]) : e->cur.origin[k];
        float radius = 0;
        int dark = 0;
        if (n == w->playernum + 1) {   // the viewer's own: only its flag's glow
            radius = (ef & (F_FLAG1 | F_FLAG2 | F_TAGTRAIL)) ? 225 : 0;
        } else if (!e->cur.modelindex) {
            continue;
        } else if (ef & (F_ROCKET | F_BLASTER | F_HYPERBLASTER | F_BLUEHYPERBLASTER)) {
            radius = 200;
        } else if (ef & (F_GIB | F_GRENADE | F_FLIES)) {
            radius = 0;
        } else if (ef & F_BFG) {
            static const int ramp[6] = {300, 400, 600, 300, 150, 75};
            radius = (ef & F_ANIM_ALLFAST) ? 200 : e->cur.frame >= 0 && e->cur.frame < 6 ? (float)ramp[e->cur.frame] : 0;
        } else if (ef & F_TRAP) {
            // 100 + rand() % 100 each frame the client draws: here a hash of the picture's
            // millisecond and the entity (the same moment always shows the same light)
            radius = 100 + (float)(world_hash32((uint32_t)llround(t * 1000) * 0x9e3779b9u ^ (uint32_t)n) % 100);
            org[2] += 32;
        } else if (ef & (F_FLAG1 | F_FLAG2 | F_TAGTRAIL)) {
            radius = 225;
        } else if (ef & F_TRACKERTRAIL) {
            // the software client: with EF_TRACKER a negative light of 50 + 500 (sin(cl.time / 500) + 1)
            // (cl.time in ms); without, V_AddLight(155, -1, -1, -1), whose colour ref_soft ignores: a light
            if (ef & F_TRACKER) {
                radius = (float)(50 + 500 * (sin(t * 1000.0 / 500.0) + 1));
                dark = 1;
            } else {
                radius = 155;
            }
        } else if (ef & F_TRACKER) {   // V_AddLight(-200, 1, 1, 1) in software
            radius = 200;
            dark = 1;
        } else if (ef & F_IONRIPPER) {
            radius = 100;
        } else if (ef & F_PLASMA) {
            radius = 130;
        }
        if (ef & F_SPINNINGLIGHTS) {   // the light 64 ahead of its turning beacon
            float yaw = (float)fmod(t * 500.0 / 2.0, 360.0) + e->cur.angles[1];
            vec3_t ang = {0, yaw, 180}, f, r, u;
            r_angle_vectors(ang, f, r, u);
            vec3_t o = {org[0] + 64 * f[0], org[1] + 64 * f[1], org[2] + 64 * f[2]};
            push_light(v, o, 100, ft + 0.001f, 0);
        }
        if (radius > 0)
            push_light(v, org, radius, ft + 0.001f, dark);
    }
}

void r_q2fx_draw_particles(const r_q2fx_t *fx, const r_view_t *v, double t, const uint8_t *alphamap)
{
    r_pview_t pv;
    r_part_view(v, &pv);
    float ft = (float)t;
    for (int i = 0; i < fx->num; i++) {
        const r_q2particle_t *p = &fx->p[i];
        float age = ft - p->time;
        if (age < 0)
            age = 0;   // made by the frame after t: where it was made
        float alpha = p->alpha;
        if (p->instant) {
            if (age >= 0.1f - 1e-4f)
                continue;
            age = 0;
        } else {
            alpha += age * p->alphavel;
            if (alpha <= 0)
                continue;
        }
        if (alpha > 1)
            alpha = 1;
        float a2 = age * age;
        vec3_t org;
        for (int k = 0; k < 3; k++)
            org[k] = p->org[k] + p->vel[k] * age + p->accel[k] * a2;
        r_part_draw_blend(v, &pv, org, p->color, alpha > 0.66f ? 2 : alpha > 0.33f ? 1 : 0, alphamap);
    }
}
