// r_part.c -- particles: Quake's effects, ramps and physics in a fixed pool, drawn as z-tested squares
#include <math.h>
#include <string.h>

#include "r_mlocal.h"

// Colour ramps of fire and explosions (palette indices), as Quake's.
static const uint8_t ramp1[8] = {0x6f, 0x6d, 0x6b, 0x69, 0x67, 0x65, 0x63, 0x61};
static const uint8_t ramp2[8] = {0x6f, 0x6e, 0x6d, 0x6c, 0x6b, 0x6a, 0x68, 0x66};
static const uint8_t ramp3[8] = {0x6d, 0x6b, 6, 5, 4, 3, 3, 3};

#define GRAVITY 800.0f   // sv_gravity default

uint32_t r_rand(uint32_t *state)
{
    // xorshift32: deterministic, so golden images of effects are stable
    uint32_t x = *state ? *state : 0x2545f491u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (x >> 8) & 0x7fff;
}

void r_part_clear(r_particles_t *ps)
{
    ps->num = 0;
    ps->time = -1;
    ps->rng = 0x1234567u;
    ps->tracer_count = 0;
    for (int i = 0; i < MDL_NUM_NORMALS; i++)
        for (int k = 0; k < 3; k++)
            ps->avel[i][k] = (float)(r_rand(&ps->rng) & 255) * 0.01f;
}

static r_particle_t *alloc_p(r_particles_t *ps)
{
    if (ps->num >= R_MAX_PARTICLES)
        return NULL;   // pool full: the effect is thinner, as in Quake
    r_particle_t *p = &ps->p[ps->num++];
    memset(p, 0, sizeof(*p));
    return p;
}

static float now(const r_particles_t *ps) { return ps->time < 0 ? 0.0f : (float)ps->time; }

static void step(r_particles_t *ps, float dt)
{
    float t1 = dt * 5, t2 = dt * 10, t3 = dt * 15;
    float grav = dt * GRAVITY * 0.05f, dvel = 4 * dt;
    float clock = (float)ps->time;
    int out = 0;
    for (int i = 0; i < ps->num; i++) {
        r_particle_t *p = &ps->p[i];
        if (p->die < clock)
            continue;
        for (int k = 0; k < 3; k++)
            p->org[k] += p->vel[k] * dt;
        switch (p->type) {
        case PT_FIRE:
            p->ramp += t1;
            if (p->ramp >= 6)
                p->die = -1;
            else
                p->color = ramp3[(int)p->ramp];
            p->vel[2] += grav;
            break;
        case PT_EXPLODE:
            p->ramp += t2;
            if (p->ramp >= 8)
                p->die = -1;
            else
                p->color = ramp1[(int)p->ramp];
            for (int k = 0; k < 3; k++)
                p->vel[k] += p->vel[k] * dvel;
            p->vel[2] -= grav;
            break;
        case PT_EXPLODE2:
            p->ramp += t3;
            if (p->ramp >= 8)
                p->die = -1;
            else
                p->color = ramp2[(int)p->ramp];
            for (int k = 0; k < 3; k++)
                p->vel[k] -= p->vel[k] * dt;
            p->vel[2] -= grav;
            break;
        case PT_BLOB:
            for (int k = 0; k < 3; k++)
                p->vel[k] += p->vel[k] * dvel;
            p->vel[2] -= grav;
            break;
        case PT_BLOB2:
            for (int k = 0; k < 2; k++)
                p->vel[k] -= p->vel[k] * dvel;
            p->vel[2] -= grav;
            break;
        case PT_GRAV:
        case PT_SLOWGRAV:
            p->vel[2] -= grav;
            break;
        default:
            break;
        }
        if (p->die < clock)
            continue;
        if (out != i)
            ps->p[out] = *p;
        out++;
    }
    ps->num = out;
}

void r_part_advance(r_particles_t *ps, double t)
{
    if (ps->time < 0 || t < ps->time - 1.0) {   // first use, or time went back: restart the clock
        ps->time = t;
        return;
    }
    double dt = t - ps->time;
    if (dt <= 0)
        return;
    if (dt > 10) {   // a long jump forward: every particle is long gone
        ps->num = 0;
        ps->time = t;
        return;
    }
    while (dt > 0) {
        double d = dt > 0.05 ? 0.05 : dt;
        ps->time += d;
        dt -= d;
        step(ps, (float)d);
    }
    ps->time = t;
}

static float crand_off(r_particles_t *ps, int range) { return (float)((int)(r_rand(&ps->rng) % (unsigned)range) - range / 2); }

void r_part_explosion(r_particles_t *ps, const vec3_t org)
{
    for (int i = 0; i < 1024; i++) {
        r_particle_t *p = alloc_p(ps);
        if (!p)
            return;
        p->die = now(ps) + 5;
        p->color = ramp1[0];
        p->ramp = (float)(r_rand(&ps->rng) & 3);
        p->type = (i & 1) ? PT_EXPLODE : PT_EXPLODE2;
        for (int k = 0; k < 3; k++) {
            p->org[k] = org[k] + crand_off(ps, 32);
            p->vel[k] = crand_off(ps, 512);
        }
    }
}

void r_part_explosion2(r_particles_t *ps, const vec3_t org, int color_start, int color_len)
{
    if (color_len < 1)
        color_len = 1;
    for (int i = 0; i < 512; i++) {
        r_particle_t *p = alloc_p(ps);
        if (!p)
            return;
        p->die = now(ps) + 0.3f;
        p->color = (uint8_t)(color_start + (i % color_len));
        p->type = PT_BLOB;
        for (int k = 0; k < 3; k++) {
            p->org[k] = org[k] + crand_off(ps, 32);
            p->vel[k] = crand_off(ps, 512);
        }
    }
}

void r_part_blob(r_particles_t *ps, const vec3_t org)
{
    for (int i = 0; i < 1024; i++) {
        r_particle_t *p = alloc_p(ps);
        if (!p)
            return;
        p->die = now(ps) + 1 + (float)(r_rand(&ps->rng) & 8) * 0.05f;
        if (i & 1) {
            p->type = PT_BLOB;
            p->color = (uint8_t)(66 + r_rand(&ps->rng) % 6);
        } else {
            p->type = PT_BLOB2;
            p->color = (uint8_t)(150 + r_rand(&ps->rng) % 6);
        }
        for (int k = 0; k < 3; k++) {
            p->org[k] = org[k] + crand_off(ps, 32);
            p->vel[k] = crand_off(ps, 512);
        }
    }
}

void r_part_effect(r_particles_t *ps, const vec3_t org, const vec3_t dir, int color, int count)
{
    if (count == 255 || count == 1024) {   // svc_particle's "255" is the rocket explosion
        r_part_explosion(ps, org);
        return;
    }
    for (int i = 0; i < count; i++) {
        r_particle_t *p = alloc_p(ps);
        if (!p)
            return;
        p->die = now(ps) + 0.1f * (float)(r_rand(&ps->rng) % 5);
        p->color = (uint8_t)((color & ~7) + (r_rand(&ps->rng) & 7));
        p->type = PT_SLOWGRAV;
        for (int k = 0; k < 3; k++) {
            p->org[k] = org[k] + (float)((int)(r_rand(&ps->rng) & 15) - 8);
            p->vel[k] = dir[k] * 15;
        }
    }
}

void r_part_lava_splash(r_particles_t *ps, const vec3_t org)
{
    for (int i = -16; i < 16; i++)
        for (int j = -16; j < 16; j++) {
            r_particle_t *p = alloc_p(ps);
            if (!p)
                return;
            p->die = now(ps) + 2 + (float)(r_rand(&ps->rng) & 31) * 0.02f;
            p->color = (uint8_t)(224 + (r_rand(&ps->rng) & 7));
            p->type = PT_SLOWGRAV;
            vec3_t dir = {(float)(j * 8 + (int)(r_rand(&ps->rng) & 7)), (float)(i * 8 + (int)(r_rand(&ps->rng) & 7)),
                          256};
            p->org[0] = org[0] + dir[0];
            p->org[1] = org[1] + dir[1];
            p->org[2] = org[2] + (float)(r_rand(&ps->rng) & 63);
            float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            float vel = (50 + (float)(r_rand(&ps->rng) & 63)) / len;
            for (int k = 0; k < 3; k++)
                p->vel[k] = dir[k] * vel;
        }
}

void r_part_teleport(r_particles_t *ps, const vec3_t org)
{
    for (int i = -16; i < 16; i += 4)
        for (int j = -16; j < 16; j += 4)
            for (int k = -24; k < 32; k += 4) {
                r_particle_t *p = alloc_p(ps);
                if (!p)
                    return;
                p->die = now(ps) + 0.2f + (float)(r_rand(&ps->rng) & 7) * 0.02f;
                p->color = (uint8_t)(7 + (r_rand(&ps->rng) & 7));
                p->type = PT_SLOWGRAV;
                vec3_t dir = {(float)(j * 8), (float)(i * 8), (float)(k * 8)};
                p->org[0] = org[0] + (float)(i + (int)(r_rand(&ps->rng) & 3));
                p->org[1] = org[1] + (float)(j + (int)(r_rand(&ps->rng) & 3));
                p->org[2] = org[2] + (float)(k + (int)(r_rand(&ps->rng) & 3));
                float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
                float vel = (50 + (float)(r_rand(&ps->rng) & 63)) / (len > 0 ? len : 1);
                for (int n = 0; n < 3; n++)
                    p->vel[n] = dir[n] * vel;
            }
}

void r_part_trail(r_particles_t *ps, const vec3_t start, const vec3_t end, int type)
{
    vec3_t vec = {end[0] - start[0], end[1] - start[1], end[2] - start[2]}, pos = {start[0], start[1], start[2]};
    float len = sqrtf(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]);
    if (!(len > 0) || len > 4096)   // nothing moved, or a teleport: no trail
        return;
    for (int k = 0; k < 3; k++)
        vec[k] /= len;
    const float dec = 3;
    while (len > 0) {
        len -= dec;
        r_particle_t *p = alloc_p(ps);
        if (!p)
            return;
        p->die = now(ps) + 2;
        switch (type) {
        case 0:   // rocket
        case 1:   // smoke
            p->ramp = (float)(r_rand(&ps->rng) & 3) + (type == 1 ? 2 : 0);
            p->color = ramp3[(int)p->ramp];
            p->type = PT_FIRE;
            for (int k = 0; k < 3; k++)
                p->org[k] = pos[k] + (float)((int)(r_rand(&ps->rng) % 6) - 3);
            break;
        case 2:   // blood
        case 4:   // slight blood
            p->type = PT_GRAV;
            p->color = (uint8_t)(67 + (r_rand(&ps->rng) & 3));
            for (int k = 0; k < 3; k++)
                p->org[k] = pos[k] + (float)((int)(r_rand(&ps->rng) % 6) - 3);
            if (type == 4)
                len -= 3;
            break;
        case 3:   // tracer (green)
        case 5: { // tracer2 (orange)
            p->die = now(ps) + 0.5f;
            p->type = PT_STATIC;
            p->color = (uint8_t)((type == 3 ? 52 : 230) + ((ps->tracer_count & 4) << 1));
            ps->tracer_count++;
            memcpy(p->org, pos, sizeof(vec3_t));
            float sgn = (ps->tracer_count & 1) ? 30.0f : -30.0f;
            p->vel[0] = sgn * vec[1];
            p->vel[1] = -sgn * vec[0];
            break;
        }
        default:  // 6: voor trail
            p->color = (uint8_t)(9 * 16 + 8 + (r_rand(&ps->rng) & 3));
            p->type = PT_STATIC;
            p->die = now(ps) + 0.3f;
            for (int k = 0; k < 3; k++)
                p->org[k] = pos[k] + (float)((int)(r_rand(&ps->rng) & 15) - 8);
            break;
        }
        for (int k = 0; k < 3; k++)
            pos[k] += vec[k] * dec;
    }
}

void r_part_draw_one(const r_view_t *v, const vec3_t org, int color)
{
    vec3_t d = {org[0] - v->vieworg[0], org[1] - v->vieworg[1], org[2] - v->vieworg[2]};
    float z = d[0] * v->vpn[0] + d[1] * v->vpn[1] + d[2] * v->vpn[2];
    if (z < R_NEAR_Z * 8)   // Quake drops particles this close: they would fill the screen
        return;
    float x = d[0] * v->vright[0] + d[1] * v->vright[1] + d[2] * v->vright[2];
    float y = d[0] * v->vup[0] + d[1] * v->vup[1] + d[2] * v->vup[2];
    float zi = 1.0f / z;
    float sx = v->xcenter + v->xscale * x * zi, sy = v->ycenter - v->yscale * y * zi;
    if (!(sx > -64 && sx < v->width + 64 && sy > -64 && sy < v->height + 64))
        return;
    // Quake's size rule: 1 pixel at 256 units on a 320-wide screen, scaled with the width
    float scale = (float)v->width / 320.0f;
    int pmin = scale < 1 ? 1 : (int)scale, pmax = (int)(scale * 4 + 0.5f);
    int size = (int)(256.0f * scale * zi);
    size = size < pmin ? pmin : size > pmax ? pmax : size;
    d_particle(v->buffer, v->width, v->height, v->rowbytes, v->zbuffer, (int)(sx + 0.5f), (int)(sy + 0.5f), zi, size,
               (uint8_t)color);
}

void r_part_draw(const r_particles_t *ps, const r_view_t *v, double t)
{
    // The particle state moves only with server frames; here each particle is
    // carried along its velocity to t, so what is drawn depends on t alone.
    float dt = (float)(t - ps->time);
    dt = dt < 0 ? 0 : dt > 0.2f ? 0.2f : dt;
    float clock = (float)ps->time + dt;
    for (int i = 0; i < ps->num; i++) {
        const r_particle_t *p = &ps->p[i];
        if (p->die < clock)
            continue;
        vec3_t org = {p->org[0] + p->vel[0] * dt, p->org[1] + p->vel[1] * dt, p->org[2] + p->vel[2] * dt};
        r_part_draw_one(v, org, p->color);
    }
}

void r_part_reseed(r_particles_t *ps, uint32_t seed)
{
    ps->rng = seed ? seed : 0x1234567u;
    ps->tracer_count = 0;
}

void r_part_entity_field(r_particles_t *ps, const r_view_t *v, const vec3_t origin)
{
    const float dist = 64, beamlength = 16;
    float t = (float)v->time;
    for (int i = 0; i < MDL_NUM_NORMALS; i++) {
        float a = t * ps->avel[i][0], sy = sinf(a), cy = cosf(a);
        a = t * ps->avel[i][1];
        float sp = sinf(a), cp = cosf(a);
        vec3_t fwd = {cp * cy, cp * sy, -sp}, org;
        for (int k = 0; k < 3; k++)
            org[k] = origin[k] + mdl_anorms[i][k] * dist + fwd[k] * beamlength;
        r_part_draw_one(v, org, 0x6f);
    }
}
