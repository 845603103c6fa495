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
    p->birth = (float)(ps->time < 0 ? 0.0 : ps->time);
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
    // Quake's R_RocketTrail: one particle for every 3 units of the move (every 6 for
    // slight blood), but the spot moves on 1 unit per particle, so the trail covers the
    // first third of each frame's move (a sixth for slight blood)
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
            pos[k] += vec[k];
    }
}

typedef r_pview_t pview_t;

static int pix_shift(int width)
{
    int shift = 8 - (int)((float)width / 320.0f + 0.5f);
    return shift < 0 ? 0 : shift;
}

void r_part_view(const r_view_t *v, pview_t *pv)
{
    int w = v->width;
    // R_ViewChanged's xscaleshrink / yscaleshrink: the view's scales times (width - 6) / width
    float shrink = w > 6 ? (float)(w - 6) / (float)w : 1.0f;
    for (int k = 0; k < 3; k++) {
        pv->right[k] = v->vright[k] * v->xscale * shrink;
        pv->up[k] = v->vup[k] * v->yscale * shrink;
        pv->fwd[k] = v->vpn[k];
    }
    pv->xc = v->xcenter - 0.5f;   // Quake's centre is half a pixel up and left of the middle
    pv->yc = v->ycenter - 0.5f;
    pv->pmin = w / 320 < 1 ? 1 : w / 320;
    pv->pmax = (int)((float)w / 80.0f + 0.5f);
    if (pv->pmax < 1)
        pv->pmax = 1;
    pv->shift = pix_shift(w);
    pv->umax = w - pv->pmax;
    pv->vmax = v->height - pv->pmax;
}

int r_part_pixel_size(int width, float z)
{
    int pmin = width / 320 < 1 ? 1 : width / 320, pmax = (int)((float)width / 80.0f + 0.5f);
    if (pmax < 1)
        pmax = 1;
    int pix = (int)(32768.0f / z) >> pix_shift(width);
    return pix < pmin ? pmin : pix > pmax ? pmax : pix;
}

// The square of a particle at org: its corner (u, y0), size and 1/z at Quake's 16-bit
// precision; 0 when it is not drawn (too near, off the view).
static int particle_square(const r_view_t *v, const pview_t *pv, const float *org, int *u_out, int *y_out,
                           int *pix_out, int *izi_out)
{
    float d0 = org[0] - v->vieworg[0], d1 = org[1] - v->vieworg[1], d2 = org[2] - v->vieworg[2];
    float z = d0 * pv->fwd[0] + d1 * pv->fwd[1] + d2 * pv->fwd[2];
    if (!(z >= 8.0f))   // PARTICLE_Z_CLIP
        return 0;
    float zi = 1.0f / z;
    float fu = pv->xc + zi * (d0 * pv->right[0] + d1 * pv->right[1] + d2 * pv->right[2]) + 0.5f;
    float fv = pv->yc - zi * (d0 * pv->up[0] + d1 * pv->up[1] + d2 * pv->up[2]) + 0.5f;
    if (!(fu > -1.0f && fv > -1.0f && fu < (float)pv->umax + 1.0f && fv < (float)pv->vmax + 1.0f))
        return 0;
    int u = (int)fu, y0 = (int)fv;   // truncation toward zero, as Quake's casts
    if (u > pv->umax || y0 > pv->vmax)
        return 0;
    int izi = (int)(zi * 32768.0f);
    int pix = izi >> pv->shift;
    *u_out = u;
    *y_out = y0;
    *pix_out = pix < pv->pmin ? pv->pmin : pix > pv->pmax ? pv->pmax : pix;
    *izi_out = izi;
    return 1;
}

static void draw_particle(const r_view_t *v, const pview_t *pv, const float *org, uint8_t color)
{
    int u, y0, pix, izi;
    if (!particle_square(v, pv, org, &u, &y0, &pix, &izi))
        return;
    // the z-buffer holds 1/z; Quake's holds (int)(32768 / z) and lets a particle through
    // where its own value is at least that
    const float pass = (float)(izi + 1) * (1.0f / 32768.0f), store = (float)izi * (1.0f / 32768.0f);
    const int ya = y0 < v->y0 ? v->y0 : y0, yb = y0 + pix < r_view_y1(v) ? y0 + pix : r_view_y1(v);   // a band's rows
    for (int y = ya; y < yb; y++) {
        uint8_t *dst = v->buffer + (size_t)y * (size_t)v->rowbytes + u;
        float *zb = v->zbuffer + (size_t)y * (size_t)v->width + u;
        for (int x = 0; x < pix; x++)
            if (zb[x] < pass) {
                zb[x] = store;
                dst[x] = color;
            }
    }
}

void r_part_draw_one(const r_view_t *v, const vec3_t org, int color)
{
    pview_t pv;
    r_part_view(v, &pv);
    draw_particle(v, &pv, org, (uint8_t)color);
}

void r_part_draw(const r_particles_t *ps, const r_view_t *v, double t)
{
    // The state is at the clock (the latest server frame's time); a view a little before
    // or after carries each particle along its velocity.
    float dt = (float)(t - ps->time);
    dt = dt < -0.2f ? -0.2f : dt > 0.2f ? 0.2f : dt;
    float clock = (float)(ps->time + dt);
    pview_t pv;
    r_part_view(v, &pv);
    for (int i = 0; i < ps->num; i++) {
        const r_particle_t *p = &ps->p[i];
        if (p->die < clock)
            continue;
        // made after t (by the latest frame, drawn before its time): where it was made
        float dtp = p->birth > clock ? 0.0f : dt;
        vec3_t org = {p->org[0] + p->vel[0] * dtp, p->org[1] + p->vel[1] * dtp, p->org[2] + p->vel[2] * dtp};
        draw_particle(v, &pv, org, p->color);
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
    pview_t pv;
    r_part_view(v, &pv);
    for (int i = 0; i < MDL_NUM_NORMALS; i++) {
        float a = t * ps->avel[i][0], sy = sinf(a), cy = cosf(a);
        a = t * ps->avel[i][1];
        float sp = sinf(a), cp = cosf(a);
        vec3_t fwd = {cp * cy, cp * sy, -sp}, org;
        for (int k = 0; k < 3; k++)
            org[k] = origin[k] + mdl_anorms[i][k] * dist + fwd[k] * beamlength;
        draw_particle(v, &pv, org, 0x6f);
    }
}

void r_part_draw_blend(const r_view_t *v, const r_pview_t *pv, const vec3_t org, int color, int level,
                       const uint8_t *alphamap)
{
    int u, y0, pix, izi;
    if (!particle_square(v, pv, org, &u, &y0, &pix, &izi))
        return;
    if (!alphamap)
        level = 2;
    // the whole square is left out when the pixel at its centre is nearer (R_DrawParticle)
    int cy = y0 + pix / 2, cx = u + pix / 2;
    if (cy < v->height && cx < v->width && !r_view_pixel_known(v, cx, cy))   // a band that has not drawn it
        r_view_pixels_unknown(v, u, y0, u + pix, y0 + pix);
    if (cy < v->height && cx < v->width &&
        v->zbuffer[(size_t)cy * (size_t)v->width + cx] > (float)izi * (1.0f / 32768.0f) + (0.5f / 32768.0f))
        return;
    const float pass = (float)(izi + 1) * (1.0f / 32768.0f), store = (float)izi * (1.0f / 32768.0f);
    const uint8_t *row = level == 1 ? alphamap + (size_t)color * 256 : NULL;
    const int ya = y0 < v->y0 ? v->y0 : y0, yb = y0 + pix < r_view_y1(v) ? y0 + pix : r_view_y1(v);   // a band's rows
    for (int y = ya; y < yb; y++) {
        uint8_t *dst = v->buffer + (size_t)y * (size_t)v->rowbytes + u;
        float *zb = v->zbuffer + (size_t)y * (size_t)v->width + u;
        for (int x = 0; x < pix; x++) {
            if (!(zb[x] < pass))
                continue;
            zb[x] = store;
            dst[x] = level == 2 ? (uint8_t)color : row ? row[dst[x]] : alphamap[(size_t)dst[x] * 256 + color];
        }
    }
}
