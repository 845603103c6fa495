// r_beam.c -- segmented beams (lightning bolts, grappling cable) drawn as a chain of alias models
#include <math.h>

#include "r_mlocal.h"
#include "r_beam.h"

void r_beam_draw(const r_view_t *v, r_alias_scratch_t *sc, const mdl_t *mdl, const vec3_t start, const vec3_t end,
                 uint32_t *rng)
{
    vec3_t dist = {end[0] - start[0], end[1] - start[1], end[2] - start[2]};
    float yaw, pitch;
    // The beam model points along +x; aim it with Quake's yaw/pitch of the segment.
    if (dist[0] == 0 && dist[1] == 0) {
        yaw = 0;
        pitch = dist[2] > 0 ? 90 : 270;
    } else {
        // whole degrees, as CL_UpdateTEnts
        yaw = (float)(int)(atan2f(dist[1], dist[0]) * (float)(180.0 / M_PI));
        if (yaw < 0)
            yaw += 360;
        float fwd = sqrtf(dist[0] * dist[0] + dist[1] * dist[1]);
        pitch = (float)(int)(atan2f(dist[2], fwd) * (float)(180.0 / M_PI));
        if (pitch < 0)
            pitch += 360;
    }
    float d = sqrtf(dist[0] * dist[0] + dist[1] * dist[1] + dist[2] * dist[2]);
    if (!(d > 0) || d > 8192)
        return;
    for (int k = 0; k < 3; k++)
        dist[k] /= d;
    vec3_t org = {start[0], start[1], start[2]};
    r_alias_job_t job = {0};
    job.mdl = mdl;
    job.skin = mdl->skin_pixels;
    job.colormap = v->colormap;
    for (int seg = 0; d > 0 && seg < 512; seg++) {
        for (int k = 0; k < 3; k++)
            job.origin[k] = org[k];
        // each segment is an entity of its own to Quake, lit where it is (with the
        // same clamps as other models)
        int j = v->light_point ? v->light_point(v->light_ctx, org) : 255;
        job.ambient = j > 128 ? 128 : j;
        job.shade = job.ambient + j > 192 ? 192 - job.ambient : j;
        job.angles[0] = pitch;
        job.angles[1] = yaw;
        job.angles[2] = (float)(r_rand(rng) % 360);
        if (r_sphere_visible(v, org, 40))
            r_alias_draw(v, sc, &job);
        for (int k = 0; k < 3; k++)
            org[k] += dist[k] * 30;
        d -= 30;
    }
}

// Quake II's RF_BEAM (R_DrawBeam): a six-sided tube, `width` across, from start to end,
// each side a flat quad of one colour seen through (R_IMFlatShadedQuad: 33 % whatever the alpha).
void r_beam_laser(const r_view_t *v, const vec3_t start, const vec3_t end, int width, uint8_t color,
                  const uint8_t *alphamap, int alpha66)
{
    vec3_t dir = {end[0] - start[0], end[1] - start[1], end[2] - start[2]};
    float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!(len > 0) || len > 65536 || !v->zbuffer)
        return;
    vec3_t n = {dir[0] / len, dir[1] / len, dir[2] / len};
    // a vector across the beam (PerpendicularVector: the axis the beam is least along,
    // less its part along the beam), half the width long (the width halved in whole units)
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (fabsf(n[k]) < fabsf(n[axis]))
            axis = k;
    vec3_t p = {0, 0, 0};
    p[axis] = 1;
    float dn = p[0] * n[0] + p[1] * n[1] + p[2] * n[2];
    for (int k = 0; k < 3; k++)
        p[k] -= dn * n[k];
    float pl = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    float half = (float)(width / 2);
    for (int k = 0; k < 3; k++)
        p[k] *= half / pl;
    vec3_t q = {n[1] * p[2] - n[2] * p[1], n[2] * p[0] - n[0] * p[2], n[0] * p[1] - n[1] * p[0]};   // p turned 90 degrees
    const float *vaxis[3] = {v->vright, v->vup, v->vpn};
    r_cvert_t ring[6][2];
    for (int i = 0; i < 6; i++) {
        float a = (float)(M_PI / 3.0) * (float)i, c = cosf(a), sn = sinf(a);
        for (int e = 0; e < 2; e++) {
            const float *o = e ? end : start;
            vec3_t w;
            for (int k = 0; k < 3; k++)
                w[k] = o[k] + c * p[k] + sn * q[k] - v->vieworg[k];
            r_cvert_t *cv = &ring[i][e];
            cv->x = w[0] * vaxis[0][0] + w[1] * vaxis[0][1] + w[2] * vaxis[0][2];
            cv->y = w[0] * vaxis[1][0] + w[1] * vaxis[1][1] + w[2] * vaxis[1][2];
            cv->z = w[0] * vaxis[2][0] + w[1] * vaxis[2][1] + w[2] * vaxis[2][2];
            cv->s = cv->t = cv->l = 0;
        }
    }
    d_polyctx_t ctx = {v->buffer, v->width, v->height, v->rowbytes, v->zbuffer, &color, 1, 1, v->colormap,
                       D_FLAT, alphamap, alpha66, v->y0, v->y1};
    for (int i = 0; i < 6; i++) {
        int j = (i + 1) % 6;
        // the sides facing the eye, as ref_soft's polygon scan draws them
        r_cvert_t quad[4] = {ring[i][0], ring[i][1], ring[j][1], ring[j][0]};
        r_draw_poly(v, &ctx, quad, 4, 1);
    }
}
