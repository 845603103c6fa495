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
