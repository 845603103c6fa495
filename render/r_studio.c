// r_studio.c -- studio model front end: pose, model -> view transform, normal shading, near clip, triangle setup
#include "r_studio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/pal.h"
#include "r_hlmodes.h"

static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static uint8_t *vfs_file(void *ctx, const char *path, size_t *size)
{
    return ctx ? vfs_load((vfs_t *)ctx, path, size) : NULL;
}

void r_studio_free(r_studio_model_t *sm)
{
    if (!sm)
        return;
    studio_pose_free(&sm->pose);
    studio_free(&sm->mdl);
    free(sm->view);
    free(sm->proj);
    free(sm->nlight);
    free(sm);
}

r_studio_model_t *r_studio_load(const uint8_t *bytes, size_t size, const char *name, vfs_t *fs,
                                const uint8_t *palette, char *err, size_t errcap)
{
    r_studio_model_t *sm = calloc(1, sizeof(*sm));
    if (!sm)
        return NULL;
    asset_files_t files = {vfs_file, fs};
    if (studio_load(&sm->mdl, bytes, size, name, &files, palette, err, errcap) < 0) {
        free(sm);
        return NULL;
    }
    size_t nv = (size_t)sm->mdl.numverts + 1, nn = (size_t)sm->mdl.numnorms + 1;
    sm->view = malloc(nv * sizeof(*sm->view));
    sm->proj = malloc(nv * sizeof(*sm->proj));
    sm->nlight = malloc(nn * sizeof(*sm->nlight));
    if (!sm->view || !sm->proj || !sm->nlight || studio_pose_alloc(&sm->mdl, &sm->pose) < 0) {
        r_studio_free(sm);
        return NULL;
    }
    // models whose textures are missing draw in a light grey of the level's palette
    sm->flat = palette ? (uint8_t)pal_nearest(palette, 255, 160, 160, 160) : 160;
    return sm;
}

static inline void project(const r_view_t *v, const r_cvert_t *c, d_vert_t *p)
{
    float zi = 1.0f / c->z;
    p->x = v->xcenter + v->xscale * c->x * zi;
    p->y = v->ycenter - v->yscale * c->y * zi;
    p->z = zi;
    p->s = c->s;
    p->t = c->t;
    p->l = c->l;
}

// Light vector of Quake's model shading (world space), as r_alias uses.
static const float r_lightvec[3] = {-1, 0, 0};

void r_studio_draw(const r_view_t *v, r_studio_model_t *sm, const r_studio_job_t *job)
{
    const studio_t *m = &sm->mdl;
    if (!v->zbuffer || m->numverts < 1)
        return;
    studio_pose(m, &sm->pose, job->seq, job->frame, 0, NULL, job->body);

    float s = job->scale > 0 && job->scale < 100 ? job->scale : 1.0f;
    const float scale[3] = {s, s, s}, trans[3] = {0, 0, 0};
    vec3_t ax[3];   // model x, y, z axes in world space: forward, left, up
    float A[3][3], b[3];
    r_model_to_view(v, job->axes, job->angles, job->origin, scale, trans, ax, A, b);

    // Light rows as r_alias: ambient, darkened by the side turned away from the light.
    int amb = job->ambient < 5 ? 5 : job->ambient;
    float ambient_rows = (float)(255 - (amb > 255 ? 255 : amb)) * (64.0f / 256.0f);
    float shade_rows = (float)(job->shade < 0 ? 0 : job->shade) * (64.0f / 256.0f);
    float lv[3] = {dot3(r_lightvec, ax[0]), dot3(r_lightvec, ax[1]), dot3(r_lightvec, ax[2])};

    int any_near = 0, any_in = 0;
    for (int part = 0; part < m->numbodyparts; part++) {
        const studio_submodel_t *sub = studio_body_model(m, part, job->body);
        if (!sub)
            continue;
        for (int i = sub->first_vert; i < sub->first_vert + sub->numverts; i++) {
            const float *p = sm->pose.verts[i];
            r_cvert_t *c = &sm->view[i];
            c->x = A[0][0] * p[0] + A[0][1] * p[1] + A[0][2] * p[2] + b[0];
            c->y = A[1][0] * p[0] + A[1][1] * p[1] + A[1][2] * p[2] + b[1];
            c->z = A[2][0] * p[0] + A[2][1] * p[1] + A[2][2] * p[2] + b[2];
            if (c->z >= R_NEAR_Z) {
                project(v, c, &sm->proj[i]);
                any_in = 1;
            } else {
                any_near = 1;
            }
        }
        for (int i = sub->first_norm; i < sub->first_norm + sub->numnorms; i++) {
            float d = dot3(sm->pose.norms[i], lv), l = ambient_rows;
            if (d < 0)
                l += shade_rows * d;
            sm->nlight[i] = l < 0 ? 0 : l;
        }
    }
    if (!any_in)
        return;

    d_polyctx_t ctx = {v->buffer, v->width, v->height, v->rowbytes, v->zbuffer, &sm->flat, 1, 1, job->colormap,
                       D_LIT, job->blend, 0};
    for (int part = 0; part < m->numbodyparts; part++) {
        const studio_submodel_t *sub = studio_body_model(m, part, job->body);
        if (!sub)
            continue;
        for (int me = sub->first_mesh; me < sub->first_mesh + sub->nummesh; me++) {
            const studio_mesh_t *mesh = &m->meshes[me];
            const studio_texture_t *tex = studio_skin_texture(m, job->skin, mesh->skinref);
            ctx.texture = tex ? tex->pixels : &sm->flat;
            ctx.tex_w = tex ? tex->width : 1;
            ctx.tex_h = tex ? tex->height : 1;
            ctx.mode = tex && (tex->flags & STUDIO_NF_MASKED) ? D_LIT_MASKED : D_LIT;
            int bright = tex && (tex->flags & STUDIO_NF_FULLBRIGHT);
            const studio_corner_t *c = m->corners + mesh->first;
            for (int t = 0; t + 2 < mesh->count; t += 3, c += 3) {
                int in = !any_near || (sm->view[c[0].vert].z >= R_NEAR_Z && sm->view[c[1].vert].z >= R_NEAR_Z &&
                                       sm->view[c[2].vert].z >= R_NEAR_Z);
                if (in) {
                    d_vert_t q[3];
                    for (int k = 0; k < 3; k++) {
                        q[k] = sm->proj[c[k].vert];
                        q[k].s = c[k].s;
                        q[k].t = c[k].t;
                        q[k].l = bright ? 32.0f : sm->nlight[c[k].norm];
                    }
                    // studio strips wind the other way round from alias triangles
                    if (d_poly_area2(&q[0], &q[1], &q[2]) >= 0)
                        continue;
                    d_poly_triangle(&ctx, &q[0], &q[1], &q[2]);
                } else {
                    r_cvert_t q[3];
                    for (int k = 0; k < 3; k++) {
                        q[2 - k] = sm->view[c[k].vert];
                        q[2 - k].s = c[k].s;
                        q[2 - k].t = c[k].t;
                        q[2 - k].l = bright ? 32.0f : sm->nlight[c[k].norm];
                    }
                    r_draw_poly(v, &ctx, q, 3, 1);
                }
            }
        }
    }
}

void r_studio_entity(const r_view_t *v, r_studio_model_t *sm, const vec3_t org, const vec3_t ang,
                     const entity_state_t *s, double anim_clock, int light)
{
    const studio_t *m = &sm->mdl;
    // render mode, amount and fx (r_hlmodes.c); fully transparent entities are hidden
    const uint8_t *blend;
    if (!r_hl_studio_blend(v->hlmodes, s, 0, v->time, v->vieworg, v->vpn, org, &blend))
        return;
    float scale = s->scale > 0 && s->scale < 100 ? s->scale : 1.0f;
    int seq = s->sequence >= 0 && s->sequence < m->numseq ? s->sequence : 0;
    float radius = 16;
    if (m->numseq > 0) {
        const studio_seq_t *sq = &m->seqs[seq];
        float r2 = 0;
        for (int k = 0; k < 3; k++) {
            float a = fabsf(sq->bbmin[k]) > fabsf(sq->bbmax[k]) ? fabsf(sq->bbmin[k]) : fabsf(sq->bbmax[k]);
            r2 += a * a;
        }
        radius = sqrtf(r2) + 16;   // a margin for limbs outside the sequence box
    }
    if (!r_sphere_visible(v, org, radius * scale))
        return;
    r_studio_job_t job = {0};
    job.seq = seq;
    job.body = s->body;
    job.skin = s->skin;
    job.frame = studio_frame(m, seq, (float)s->frame, anim_clock - s->animtime, s->framerate);
    memcpy(job.origin, org, sizeof(vec3_t));
    memcpy(job.angles, ang, sizeof(vec3_t));
    job.scale = scale;
    job.blend = blend;
    job.colormap = v->colormap;
    job.ambient = light > 128 ? 128 : light;
    job.shade = light;
    if (job.ambient + job.shade > 192)
        job.shade = 192 - job.ambient;
    r_studio_draw(v, sm, &job);
}

void r_studio_view_model(const r_view_t *v, r_studio_model_t *sm, int seq, double elapsed, int light)
{
    const studio_t *m = &sm->mdl;
    r_studio_job_t job = {0};
    job.seq = seq >= 0 && seq < m->numseq ? seq : 0;
    // the client starts the sequence when the game asks for it; an unknown start shows it finished (or looping)
    job.frame = studio_frame(m, job.seq, 0, elapsed > 1e6 || !(elapsed >= 0) ? 1e6 : elapsed, 1.0f);
    vec3_t axes[3];
    memcpy(axes[0], v->vpn, sizeof(vec3_t));
    memcpy(axes[1], v->vright, sizeof(vec3_t));
    memcpy(axes[2], v->vup, sizeof(vec3_t));
    job.axes = (const vec3_t *)axes;
    memcpy(job.origin, v->vieworg, sizeof(vec3_t));
    job.colormap = v->colormap;
    job.ambient = light < 24 ? 24 : light > 128 ? 128 : light;   // always some light on the weapon
    job.shade = light;
    if (job.ambient + job.shade > 192)
        job.shade = 192 - job.ambient;
    r_studio_draw(v, sm, &job);
}
