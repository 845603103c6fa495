// r_studio.c -- studio model front end: pose, model -> view transform, normal shading, near clip, triangle setup
#include "r_studio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/pal.h"
#include "../engine/world.h"
#include "r_hlmodes.h"

// One player's copy of a model's remap textures (r_studio_remap): tex[numtextures] pointers, the
// remapped pixels after them in the same block.
struct r_studio_remap_s {
    const uint8_t **tex;      // NULL: not made yet
    int16_t top, bottom;      // the colours it was made with
};

static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static uint8_t *vfs_file(void *ctx, const char *path, size_t *size)
{
    return ctx ? vfs_load((vfs_t *)ctx, path, size) : NULL;
}

// Additive textures cannot add on 8 bits: they are drawn see-through (66 %), their dark texels,
// which would add almost nothing, left out (as the additive sprites). px: t's pixels or a copy.
static void additive_dark(const studio_texture_t *t, uint8_t *px, const uint8_t *palette)
{
    if (!(t->flags & STUDIO_NF_ADDITIVE))
        return;
    for (size_t k = 0; k < (size_t)t->width * (size_t)t->height; k++) {
        const uint8_t *c = palette + 3 * px[k];
        int bright = c[0] > c[1] ? (c[0] > c[2] ? c[0] : c[2]) : (c[1] > c[2] ? c[1] : c[2]);
        if (bright < 32)
            px[k] = 255;
    }
}

const uint8_t *const *r_studio_remap(r_studio_model_t *sm, int player, int top, int bottom)
{
    if (!sm || !sm->remap_near || player < 0 || player >= WORLD_MAX_PLAYERS)
        return NULL;
    top = top < 0 ? 0 : top > 360 ? 360 : top;   // the SDK's StudioDrawPlayer bounds them so
    bottom = bottom < 0 ? 0 : bottom > 360 ? 360 : bottom;
    if (!sm->remap && !(sm->remap = calloc(WORLD_MAX_PLAYERS, sizeof *sm->remap)))
        return NULL;
    struct r_studio_remap_s *r = &sm->remap[player];
    if (r->tex && r->top == top && r->bottom == bottom)
        return r->tex;
    const studio_t *m = &sm->mdl;
    size_t ptrs = (size_t)m->numtextures * sizeof(uint8_t *);
    if (!r->tex && !(r->tex = malloc(ptrs + sm->remap_texels)))
        return NULL;   // (the first time for this player only: the block is kept for the model's life)
    uint8_t *px = (uint8_t *)r->tex + ptrs;
    for (int i = 0; i < m->numtextures; i++) {
        const studio_texture_t *t = &m->textures[i];
        r->tex[i] = NULL;
        if (studio_remap_pixels(t, top, bottom, sm->remap_near, px) < 0)
            continue;
        additive_dark(t, px, sm->remap_palette);
        r->tex[i] = px;
        px += (size_t)t->width * (size_t)t->height;
    }
    r->top = (int16_t)top;
    r->bottom = (int16_t)bottom;
    return r->tex;
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
    free(sm->chrome);
    free(sm->vert_norm);
    free(sm->remap_near);
    if (sm->remap)
        for (int i = 0; i < WORLD_MAX_PLAYERS; i++)
            free(sm->remap[i].tex);
    free(sm->remap);
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
    sm->chrome = calloc((size_t)sm->mdl.numbones + 1, sizeof(*sm->chrome));
    if (!sm->view || !sm->proj || !sm->nlight || !sm->chrome || studio_pose_alloc(&sm->mdl, &sm->pose) < 0) {
        r_studio_free(sm);
        return NULL;
    }
    for (int i = 0; i < sm->mdl.numtextures && palette; i++) {
        studio_texture_t *t = &sm->mdl.textures[i];
        additive_dark(t, t->pixels, palette);
        if (t->src)   // a player colour texture (GoldSrc's DM_Base / remap)
            sm->remap_texels += (size_t)t->width * (size_t)t->height;
    }
    if (sm->remap_texels) {
        sm->remap_near = malloc(sizeof *sm->remap_near + 768);   // the search, then the palette
        if (!sm->remap_near) {
            r_studio_free(sm);
            return NULL;
        }
        pal_near_init(sm->remap_near, palette, 255);   // as the loader maps every texture
        sm->remap_palette = (uint8_t *)(sm->remap_near + 1);
        memcpy(sm->remap_palette, palette, 768);
    }
    // models whose textures are missing draw in a light grey of the level's palette
    sm->flat = palette ? (uint8_t)pal_nearest(palette, 255, 160, 160, 160) : 160;
    for (int i = 0; i < sm->mdl.numtextures; i++)
        if (sm->mdl.textures[i].flags & STUDIO_NF_CHROME)
            sm->has_chrome = 1;
    // each vertex's first normal in the triangle lists (the engine's normal table for the glow shell)
    sm->vert_norm = malloc(nv * sizeof *sm->vert_norm);
    if (!sm->vert_norm) {
        r_studio_free(sm);
        return NULL;
    }
    for (size_t i = 0; i < nv; i++)
        sm->vert_norm[i] = -1;
    for (int i = 0; i < sm->mdl.numcorners; i++) {
        const studio_corner_t *c = &sm->mdl.corners[i];
        if (c->vert >= 0 && c->vert < sm->mdl.numverts && sm->vert_norm[c->vert] < 0)
            sm->vert_norm[c->vert] = c->norm;
    }
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

// A model-space point through the view transform (A, b) into vertex i of sm's view and, when it
// is in front of the near plane, its projection. Returns 1 in front, 0 behind.
static inline int view_vert(const r_view_t *v, r_studio_model_t *sm, int i, const float A[3][3], const float *b,
                            const float *p)
{
    r_cvert_t *c = &sm->view[i];
    c->x = A[0][0] * p[0] + A[0][1] * p[1] + A[0][2] * p[2] + b[0];
    c->y = A[1][0] * p[0] + A[1][1] * p[1] + A[1][2] * p[2] + b[1];
    c->z = A[2][0] * p[0] + A[2][1] * p[1] + A[2][2] * p[2] + b[2];
    if (c->z < R_NEAR_Z)
        return 0;
    project(v, c, &sm->proj[i]);
    return 1;
}

// A corner's colormap row: its normal's illumination (or the mesh's flat / full bright one) and
// the entity lights at the vertex, 255 = the texture as painted = row 32 of the colormap.
static inline float corner_row(const r_studio_model_t *sm, const r_hl_alight_t *al, const studio_corner_t *c,
                               int bright, int flat, float flat_illum)
{
    float illum = bright ? 255.0f : flat ? flat_illum : sm->nlight[c->norm];
    if (al->num_elights)
        illum += r_hl_elight_illum(al, sm->pose.verts[c->vert], sm->pose.norms[c->norm]);
    if (illum > 255)
        illum = 255;
    float row = 64.0f - illum * (32.0f / 255.0f);
    return row > 63.0f ? 63.0f : row;   // (row 64 is not a light row)
}

// The job's scale along the model's own x, y, z (the scale, the y axis stretched by kRenderFxExplode
// as the SDK's StudioFxTransform scales the transform's second column); returns the uniform part.
static float job_scale(const r_studio_job_t *job, float scale[3])
{
    float s = job->scale > 0 && job->scale < 100 ? job->scale : 1.0f;
    float y = job->stretch_y >= -1 && job->stretch_y <= 1 ? 1 + job->stretch_y : 1;
    scale[0] = scale[2] = s;
    scale[1] = s * y;
    return s;
}

// A job with kRenderFxDistort / Hologram's jitter made part of it (the SDK's StudioFxTransform scales a
// row of the model's transform, the world x or z components of its axes, or moves its origin): the axes
// given with those components scaled, the origin moved, in *tmp. The job itself when it has none.
static const r_studio_job_t *jitter_job(const r_studio_job_t *job, r_studio_job_t *tmp)
{
    if (!job->fx_jitter)
        return job;
    *tmp = *job;
    if (job->axes) {
        memcpy(tmp->jit_axes, job->axes, sizeof tmp->jit_axes);
    } else {   // forward, right, up as r_model_to_view makes them from the angles (the pitch inverted)
        vec3_t a = {-job->angles[0], job->angles[1], job->angles[2]};
        r_angle_vectors(a, tmp->jit_axes[0], tmp->jit_axes[1], tmp->jit_axes[2]);
    }
    for (int k = 0; k < 3; k++) {
        float sc = job->fx_scale[k] > 0 && job->fx_scale[k] < 2 ? job->fx_scale[k] : 1.0f;
        for (int j = 0; j < 3; j++)
            tmp->jit_axes[j][k] *= sc;
        tmp->origin[k] += job->fx_move[k] >= -10 && job->fx_move[k] <= 10 ? job->fx_move[k] : 0.0f;
    }
    tmp->axes = (const vec3_t *)tmp->jit_axes;
    tmp->fx_jitter = 0;
    return tmp;
}

void r_studio_draw(const r_view_t *v, r_studio_model_t *sm, const r_studio_job_t *job_in)
{
    r_studio_job_t jj;
    const r_studio_job_t *job = jitter_job(job_in, &jj);
    const studio_t *m = &sm->mdl;
    if (!v->zbuffer || m->numverts < 1)
        return;
    studio_anim_t an = {job->seq, job->frame, {job->blend[0], job->blend[1]}, job->ctl, job->body,
                        job->gaitseq, job->gaitframe};
    studio_pose_anim(m, &sm->pose, &an);

    float scale[3];
    const float s = job_scale(job, scale), trans[3] = {0, 0, 0};
    vec3_t ax[3];   // model x, y, z axes in world space: forward, left, up
    float A[3][3], b[3];
    r_model_to_view(v, job->axes, job->angles, job->origin, scale, trans, ax, A, b);
    if (sm->has_chrome) {   // per bone, the chrome directions from the eye to it, in model space
        for (int i = 0; i < m->numbones; i++) {
            const float(*bm)[4] = (const float(*)[4])sm->pose.bones[i];
            float bw[3], right[3], up[3];
            for (int k = 0; k < 3; k++)
                bw[k] = job->origin[k] + ax[0][k] * scale[0] * bm[0][3] + ax[1][k] * scale[1] * bm[1][3] +
                        ax[2][k] * scale[2] * bm[2][3];
            r_studio_chrome_dirs(bw, v->vieworg, v->vright, right, up);
            for (int k = 0; k < 3; k++) {
                sm->chrome[i][0][k] = dot3(right, ax[k]);
                sm->chrome[i][1][k] = dot3(up, ax[k]);
            }
        }
    }

    // The engine's light (r_hllight.c): its direction in model space, the entity lights too
    r_hl_alight_t al = job->light;
    const float *wl = job->light.lightvec;
    float wlen = dot3(wl, wl);
    if (!(wlen > 0.5f && wlen < 2.0f)) {   // a job made without a light: straight down
        al.lightvec[0] = al.lightvec[1] = 0;
        al.lightvec[2] = -1;
        wl = al.lightvec;
    }
    float lv[3] = {dot3(wl, ax[0]), dot3(wl, ax[1]), dot3(wl, ax[2])};
    memcpy(al.lightvec, lv, sizeof lv);
    for (int i = 0; i < al.num_elights && i < HLL_MAX_ELIGHTS; i++) {
        float d[3] = {al.el_org[i][0] - job->origin[0], al.el_org[i][1] - job->origin[1],
                      al.el_org[i][2] - job->origin[2]};
        for (int k = 0; k < 3; k++)
            al.el_org[i][k] = dot3(d, ax[k]) / s;
        al.el_r2[i] /= s * s;
    }

    int any_near = 0, any_in = 0;
    for (int part = 0; part < m->numbodyparts; part++) {
        const studio_submodel_t *sub = studio_body_model(m, part, job->body);
        if (!sub)
            continue;
        for (int i = sub->first_vert; i < sub->first_vert + sub->numverts; i++) {
            if (view_vert(v, sm, i, A, b, sm->pose.verts[i]))
                any_in = 1;
            else
                any_near = 1;
        }
        for (int i = sub->first_norm; i < sub->first_norm + sub->numnorms; i++)
            sm->nlight[i] = r_hl_studio_illum(&al, sm->pose.norms[i], 0);
    }
    if (!any_in)
        return;

    // flat-shaded meshes: the ambient light and 0.8 of the shade, whatever the normal; fullbright 255
    const float flat_illum = r_hl_studio_illum(&al, lv, STUDIO_NF_FLATSHADE);
    // the light's colour (the engine tints the model by it): a colormap of its tint, when not white
    const uint8_t *cmap = job->colormap;
    if (cmap && cmap == v->colormap) {
        const uint8_t *tinted = r_hl_model_colormap(v, job->light.color);
        if (tinted)
            cmap = tinted;
    }
    d_polyctx_t ctx = {v->buffer, v->width, v->height, v->rowbytes, v->zbuffer, &sm->flat, 1, 1, cmap,
                       D_LIT, job->mode_table, 0, v->y0, v->y1};
    // additive meshes after the others: they are seen through and write no depth
    for (int pass = 0; pass < 2; pass++)
    for (int part = 0; part < m->numbodyparts; part++) {
        const studio_submodel_t *sub = studio_body_model(m, part, job->body);
        if (!sub)
            continue;
        for (int me = sub->first_mesh; me < sub->first_mesh + sub->nummesh; me++) {
            const studio_mesh_t *mesh = &m->meshes[me];
            const studio_texture_t *tex = studio_skin_texture(m, job->skin, mesh->skinref);
            int flags = tex ? tex->flags : 0;
            int additive = (flags & STUDIO_NF_ADDITIVE) && v->alphamap;
            if (additive != pass)
                continue;
            const uint8_t *remapped = tex && job->remap ? job->remap[tex - m->textures] : NULL;
            ctx.texture = remapped ? remapped : tex ? tex->pixels : &sm->flat;
            ctx.tex_w = tex ? tex->width : 1;
            ctx.tex_h = tex ? tex->height : 1;
            ctx.mode = flags & (STUDIO_NF_MASKED | STUDIO_NF_ADDITIVE) ? D_LIT_MASKED : D_LIT;
            ctx.alphamap = additive ? v->alphamap : job->mode_table;   // the entity's render mode, if any
            ctx.alpha66 = additive;
            int bright = flags & STUDIO_NF_FULLBRIGHT, flat = flags & STUDIO_NF_FLATSHADE;
            int chrome = (flags & STUDIO_NF_CHROME) != 0;
            const studio_corner_t *c = m->corners + mesh->first;
            for (int t = 0; t + 2 < mesh->count; t += 3, c += 3) {
                float cs[3], ct[3];
                for (int k = 0; k < 3; k++) {
                    if (chrome) {
                        const float(*cd)[3] = sm->chrome[m->norm_bone[c[k].norm]];
                        r_studio_chrome_texel(sm->pose.norms[c[k].norm], cd[0], cd[1], &cs[k], &ct[k]);
                    } else {
                        cs[k] = c[k].s;
                        ct[k] = c[k].t;
                    }
                }
                int in = !any_near || (sm->view[c[0].vert].z >= R_NEAR_Z && sm->view[c[1].vert].z >= R_NEAR_Z &&
                                       sm->view[c[2].vert].z >= R_NEAR_Z);
                if (in) {
                    d_vert_t q[3];
                    for (int k = 0; k < 3; k++) {
                        q[k] = sm->proj[c[k].vert];
                        q[k].s = cs[k];
                        q[k].t = ct[k];
                        q[k].l = corner_row(sm, &al, &c[k], bright, flat, flat_illum);
                    }
                    // studio triangles face the eye when they wind as alias triangles do
                    if (d_poly_area2(&q[0], &q[1], &q[2]) <= 0)
                        continue;
                    d_poly_triangle(&ctx, &q[0], &q[1], &q[2]);
                } else {
                    r_cvert_t q[3];
                    for (int k = 0; k < 3; k++) {
                        q[k] = sm->view[c[k].vert];
                        q[k].s = cs[k];
                        q[k].t = ct[k];
                        q[k].l = corner_row(sm, &al, &c[k], bright, flat, flat_illum);
                    }
                    r_draw_poly(v, &ctx, q, 3, 1);
                }
            }
        }
    }
}

// ---- the glow shell (kRenderFxGlowShell) ------------------------------------------------------
//
// The engine draws the model, then again with every mesh taken as chrome, textured by its chrome
// sprite (sprites/shellchrome.spr), in the render colour, added (StudioRenderModel in the SDK's
// cl_dll/StudioModelRenderer.cpp: the second StudioRenderFinal with STUDIO_NF_CHROME forced and
// kRenderTransAdd). Where the engine's own code is not released, the public reconstructions say:
// vertices pushed out along their normal by renderamt x 0.05 (MetaHook's BuildGlowShellVerts), the
// chrome origin at (cos 2.2t, sin 2.2t, cos 0.726t) x 4000 instead of the eye (r_glowshellfreq 2.2),
// so the chrome texture slides over the shell; colour 0 0 0 taken as white (Xash3D).

// A 64 x 64 mottled pattern standing in for shellchrome.spr: smooth value noise on an 8 x 8 grid
// (a hash of the cell), intensities 0..15. Fixed: the same texel always has the same value.
uint8_t r_studio_shell_texel(int s, int t)
{
    s &= 63;
    t &= 63;
    int cx = s >> 3, cy = t >> 3;
    float fx = (float)(s & 7) / 8.0f, fy = (float)(t & 7) / 8.0f;
    float v[2][2];
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            uint32_t h = (uint32_t)(((cx + i) & 7) * 73856093u) ^ (uint32_t)(((cy + j) & 7) * 19349663u);
            h ^= h >> 13;
            h *= 0x5bd1e995u;
            h ^= h >> 15;
            v[j][i] = (float)(h & 255) / 255.0f;
        }
    float a = v[0][0] + (v[0][1] - v[0][0]) * fx, b = v[1][0] + (v[1][1] - v[1][0]) * fx;
    float x = a + (b - a) * fy;
    int q = (int)(x * 15.0f + 0.5f);
    return (uint8_t)(q < 0 ? 0 : q > 15 ? 15 : q);
}

void r_studio_draw_shell(const r_view_t *v, r_studio_model_t *sm, const r_studio_job_t *job_in, const uint8_t rgb[3],
                         int amount, double time)
{
    r_studio_job_t jj;
    const r_studio_job_t *job = jitter_job(job_in, &jj);
    const studio_t *m = &sm->mdl;
    const uint8_t *add = v->hlmodes ? r_hl_table(v->hlmodes, HL_BLEND_ADD, 255) : NULL;
    if (!add || !v->zbuffer || m->numverts < 1 || !isfinite(time))
        return;
    // the texture: the render colour at the chrome sprite's 16 intensities (or the stand-in's), as level
    // palette indices
    int r = rgb[0], g = rgb[1], b = rgb[2];
    if (!r && !g && !b)
        r = g = b = 255;
    uint8_t level[16], tex[64 * 64];
    for (int i = 0; i < 16; i++)
        level[i] = r_hl_nearest(v->hlmodes, r * i / 15, g * i / 15, b * i / 15);
    const r_hlmodes_t *hm = v->hlmodes;
    for (int t = 0; t < 64; t++)
        for (int s = 0; s < 64; s++)
            tex[t * 64 + s] = level[hm->has_shell ? hm->shell[t * 64 + s] & 15 : r_studio_shell_texel(s, t)];

    studio_anim_t an = {job->seq, job->frame, {job->blend[0], job->blend[1]}, job->ctl, job->body,
                        job->gaitseq, job->gaitframe};
    studio_pose_anim(m, &sm->pose, &an);
    float scale[3];
    job_scale(job, scale);
    const float trans[3] = {0, 0, 0};
    vec3_t ax[3];
    float A[3][3], bv[3];
    r_model_to_view(v, job->axes, job->angles, job->origin, scale, trans, ax, A, bv);
    // the chrome directions from the circling origin, per bone, in model space
    double f = 2.2 * fmod(time, 3600.0);
    const float corg[3] = {(float)(cos(f) * 4000.0), (float)(sin(f) * 4000.0), (float)(cos(f * 0.33) * 4000.0)};
    for (int i = 0; i < m->numbones; i++) {
        const float(*bm)[4] = (const float(*)[4])sm->pose.bones[i];
        float bw[3], right[3], up[3];
        for (int k = 0; k < 3; k++)
            bw[k] = job->origin[k] + ax[0][k] * scale[0] * bm[0][3] + ax[1][k] * scale[1] * bm[1][3] +
                    ax[2][k] * scale[2] * bm[2][3];
        r_studio_chrome_dirs(bw, corg, v->vright, right, up);
        for (int k = 0; k < 3; k++) {
            sm->chrome[i][0][k] = dot3(right, ax[k]);
            sm->chrome[i][1][k] = dot3(up, ax[k]);
        }
    }
    float push = (float)(amount > 0 ? (amount < 255 ? amount : 255) : 0) * 0.05f;
    int any_near = 0, any_in = 0;
    for (int part = 0; part < m->numbodyparts; part++) {
        const studio_submodel_t *sub = studio_body_model(m, part, job->body);
        if (!sub)
            continue;
        for (int i = sub->first_vert; i < sub->first_vert + sub->numverts; i++) {
            float p[3];
            const float *pv = sm->pose.verts[i];
            int n = sm->vert_norm[i];
            const float *nv = n >= 0 && n < m->numnorms ? sm->pose.norms[n] : NULL;
            for (int k = 0; k < 3; k++)
                p[k] = pv[k] + (nv ? push * nv[k] : 0);
            if (view_vert(v, sm, i, A, bv, p))
                any_in = 1;
            else
                any_near = 1;
        }
    }
    if (!any_in)
        return;
    d_polyctx_t ctx = {v->buffer, v->width, v->height, v->rowbytes, v->zbuffer, tex, 64, 64, job->colormap,
                       D_UNLIT_MASKED, add, 0, v->y0, v->y1};
    for (int part = 0; part < m->numbodyparts; part++) {
        const studio_submodel_t *sub = studio_body_model(m, part, job->body);
        if (!sub)
            continue;
        for (int me = sub->first_mesh; me < sub->first_mesh + sub->nummesh; me++) {
            const studio_mesh_t *mesh = &m->meshes[me];
            const studio_corner_t *c = m->corners + mesh->first;
            for (int t = 0; t + 2 < mesh->count; t += 3, c += 3) {
                float cs[3], ct[3];
                for (int k = 0; k < 3; k++) {
                    const float(*cd)[3] = sm->chrome[m->norm_bone[c[k].norm]];
                    r_studio_chrome_texel(sm->pose.norms[c[k].norm], cd[0], cd[1], &cs[k], &ct[k]);
                }
                int in = !any_near || (sm->view[c[0].vert].z >= R_NEAR_Z && sm->view[c[1].vert].z >= R_NEAR_Z &&
                                       sm->view[c[2].vert].z >= R_NEAR_Z);
                if (in) {
                    d_vert_t q[3];
                    for (int k = 0; k < 3; k++) {
                        q[k] = sm->proj[c[k].vert];
                        q[k].s = cs[k];
                        q[k].t = ct[k];
                        q[k].l = 32;
                    }
                    if (d_poly_area2(&q[0], &q[1], &q[2]) <= 0)
                        continue;
                    d_poly_triangle(&ctx, &q[0], &q[1], &q[2]);
                } else {
                    r_cvert_t q[3];
                    for (int k = 0; k < 3; k++) {
                        q[k] = sm->view[c[k].vert];
                        q[k].s = cs[k];
                        q[k].t = ct[k];
                        q[k].l = 32;
                    }
                    r_draw_poly(v, &ctx, q, 3, 1);
                }
            }
        }
    }
}

// ---- chrome ---------------------------------------------------------------------------------

static void normalize3(float *a)
{
    float l = sqrtf(dot3(a, a));
    if (l > 1e-12f)
        for (int k = 0; k < 3; k++)
            a[k] /= l;
}

static void cross3(const float *a, const float *b, float *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

void r_studio_chrome_dirs(const float bone_world[3], const float vieworg[3], const float vright[3],
                          float right[3], float up[3])
{
    float dir[3] = {bone_world[0] - vieworg[0], bone_world[1] - vieworg[1], bone_world[2] - vieworg[2]};
    normalize3(dir);
    cross3(dir, vright, up);   // t runs across the eye's line and its right
    normalize3(up);
    cross3(up, dir, right);    // s across that (the engine's order: up x dir)
    normalize3(right);
}

void r_studio_chrome_texel(const float normal[3], const float right[3], const float up[3], float *s, float *t)
{
    *s = (dot3(normal, right) + 1.0f) * 32.0f;
    *t = (dot3(normal, up) + 1.0f) * 32.0f;
}

// ---- attachments ----------------------------------------------------------------------------

int r_studio_attachment(r_studio_model_t *sm, const r_studio_job_t *job, int n, vec3_t out)
{
    const studio_t *m = &sm->mdl;
    memcpy(out, job->origin, sizeof(vec3_t));
    if (n < 0 || n >= m->numattachments)
        return -1;
    studio_anim_t an = {job->seq, job->frame, {job->blend[0], job->blend[1]}, job->ctl, job->body,
                        job->gaitseq, job->gaitframe};
    studio_pose_anim(m, &sm->pose, &an);
    float p[3];
    if (studio_attachment(m, &sm->pose, n, p) < 0)
        return -1;
    float scale[3];
    job_scale(job, scale);
    const float trans[3] = {0, 0, 0};
    vec3_t ax[3];
    float A[3][3], b[3];
    r_view_t dummy;   // the axes only: r_model_to_view also makes a view transform, unused here
    memset(&dummy, 0, sizeof dummy);
    r_model_to_view(&dummy, job->axes, job->angles, job->origin, scale, trans, ax, A, b);
    for (int k = 0; k < 3; k++)
        out[k] = job->origin[k] + ax[0][k] * scale[0] * p[0] + ax[1][k] * scale[1] * p[1] + ax[2][k] * scale[2] * p[2];
    return 0;
}

// ---- entities -------------------------------------------------------------------------------

// The engine's light at the model's origin (r_hllight.c); `light` (Quake's scale) stands in for
// the world's when the view has none.
static void light_job(const r_view_t *v, r_studio_job_t *job, int light)
{
    r_hl_model_light(v, job->origin, light, &job->light);
}

// The job of an entity's state (its controllers with the mouth shut); 0 when nothing is drawn.
static int entity_job(const studio_t *m, const vec3_t org, const vec3_t ang, const entity_state_t *s,
                      double anim_clock, uint8_t ctl[5], r_studio_job_t *job)
{
    // the game hides entities by making them fully transparent
    if (s->rendermode != RM_NORMAL && s->renderamt <= 0)
        return 0;
    memset(job, 0, sizeof(*job));
    job->seq = s->sequence >= 0 && s->sequence < m->numseq ? s->sequence : 0;
    job->body = s->body;
    job->skin = s->skin;
    job->frame = studio_frame(m, job->seq, (float)s->frame, anim_clock - s->animtime, s->framerate);
    job->blend[0] = s->blending[0];
    job->blend[1] = s->blending[1];
    memcpy(ctl, s->controller, 4);
    ctl[4] = 0;
    job->ctl = ctl;
    memcpy(job->origin, org, sizeof(vec3_t));
    memcpy(job->angles, ang, sizeof(vec3_t));
    job->scale = s->scale > 0 && s->scale < 100 ? s->scale : 1.0f;
    job->stretch_y = r_hl_explode_stretch(s, anim_clock) - 1.0f;   // kRenderFxExplode
    return 1;
}

// kRenderFxDistort / Hologram's jitter of the drawn frame (r_hl_fx_jitter), for entity `entnum` at `time`.
static void jitter_entity_job(const entity_state_t *s, int entnum, double time, r_studio_job_t *job)
{
    job->fx_jitter = r_hl_fx_jitter(s, entnum, time, job->fx_scale, job->fx_move);
}

static float seq_radius(const studio_t *m, int seq)
{
    if (m->numseq < 1)
        return 16;
    const studio_seq_t *sq = &m->seqs[seq];
    float r2 = 0;
    for (int k = 0; k < 3; k++) {
        float a = fabsf(sq->bbmin[k]) > fabsf(sq->bbmax[k]) ? fabsf(sq->bbmin[k]) : fabsf(sq->bbmax[k]);
        r2 += a * a;
    }
    return sqrtf(r2) + 16;   // a margin for limbs outside the sequence box
}

// A made job drawn when its sphere (the sequence's, scaled, grown by the explode stretch) is in
// view: through the entity's render mode table, lit. 0 when it was out of view.
static int draw_entity_job(const r_view_t *v, r_studio_model_t *sm, r_studio_job_t *job, const vec3_t org,
                           const uint8_t *mode_table, int light)
{
    float grow = job->stretch_y > 0 ? 1 + job->stretch_y : 1;   // kRenderFxExplode's stretch
    float more = job->fx_jitter ? 10.0f : 0.0f;                   // the distort jitter: moved up to 10,
    if (job->fx_jitter)                                           // stretched up to 1.484
        grow *= 1.5f;
    if (!r_sphere_visible(v, org, seq_radius(&sm->mdl, job->seq) * job->scale * grow + more))
        return 0;
    job->mode_table = mode_table;
    job->colormap = v->colormap;
    light_job(v, job, light);
    r_studio_draw(v, sm, job);
    return 1;
}

void r_studio_entity(const r_view_t *v, r_studio_model_t *sm, const vec3_t org, const vec3_t ang,
                     const entity_state_t *s, int entnum, double anim_clock, int light)
{
    // render mode, amount and fx (r_hlmodes.c), phased by the entity number; fully transparent
    // entities are hidden
    const uint8_t *mode_table;
    if (!r_hl_studio_blend(v->hlmodes, s, entnum, v->time, v->fx_since, v->vieworg, v->vpn, org, &mode_table))
        return;
    r_studio_job_t job;
    uint8_t ctl[5];
    if (!entity_job(&sm->mdl, org, ang, s, anim_clock, ctl, &job))
        return;
    jitter_entity_job(s, entnum, v->time, &job);
    if (!draw_entity_job(v, sm, &job, org, mode_table, light))
        return;
    if (s->renderfx == 19) {   // kRenderFxGlowShell: the shell over it
        uint8_t rgb[3];
        for (int k = 0; k < 3; k++) {
            float c = s->rendercolor[k];
            rgb[k] = (uint8_t)(c > 0 && c < 256 ? c : c >= 256 ? 255 : 0);
        }
        r_studio_draw_shell(v, sm, &job, rgb, s->renderamt, v->time);
    }
}

int r_studio_entity_attachment(r_studio_model_t *sm, const vec3_t org, const vec3_t ang, const entity_state_t *s,
                               double anim_clock, int n, vec3_t out)
{
    r_studio_job_t job;
    uint8_t ctl[5];
    memcpy(out, org, sizeof(vec3_t));
    if (!entity_job(&sm->mdl, org, ang, s, anim_clock, ctl, &job))
        return -1;
    return r_studio_attachment(sm, &job, n, out);
}

// The view model's job: sequence, frame, at the eye turned with the view.
static void view_job(const vec3_t org, const vec3_t axes[3], r_studio_model_t *sm, int seq, int body, double elapsed,
                     r_studio_job_t *job)
{
    const studio_t *m = &sm->mdl;
    memset(job, 0, sizeof *job);
    job->seq = seq >= 0 && seq < m->numseq ? seq : 0;
    job->body = body;
    job->frame = studio_frame(m, job->seq, 0, elapsed > 1e6 || !(elapsed >= 0) ? 1e6 : elapsed, 1.0f);
    job->axes = axes;
    memcpy(job->origin, org, sizeof(vec3_t));
}

int r_studio_view_attachment_at(r_studio_model_t *sm, const vec3_t org, const vec3_t axes[3], int seq, int body,
                                double elapsed, int n, vec3_t out)
{
    r_studio_job_t job;
    view_job(org, axes, sm, seq, body, elapsed, &job);
    return r_studio_attachment(sm, &job, n, out);
}

int r_studio_view_attachment(const r_view_t *v, r_studio_model_t *sm, int seq, int body, double elapsed, int n,
                             vec3_t out)
{
    vec3_t axes[3];
    memcpy(axes[0], v->vpn, sizeof(vec3_t));
    memcpy(axes[1], v->vright, sizeof(vec3_t));
    memcpy(axes[2], v->vup, sizeof(vec3_t));
    return r_studio_view_attachment_at(sm, v->vieworg, (const vec3_t *)axes, seq, body, elapsed, n, out);
}

void r_studio_view_model(const r_view_t *v, r_studio_model_t *sm, int seq, int body, double elapsed, int light)
{
    const studio_t *m = &sm->mdl;
    r_studio_job_t job = {0};
    job.seq = seq >= 0 && seq < m->numseq ? seq : 0;
    job.body = body;
    // the client starts the sequence when the game asks for it; an unknown start shows it finished (or looping)
    job.frame = studio_frame(m, job.seq, 0, elapsed > 1e6 || !(elapsed >= 0) ? 1e6 : elapsed, 1.0f);
    vec3_t axes[3];
    memcpy(axes[0], v->vpn, sizeof(vec3_t));
    memcpy(axes[1], v->vright, sizeof(vec3_t));
    memcpy(axes[2], v->vup, sizeof(vec3_t));
    job.axes = (const vec3_t *)axes;
    memcpy(job.origin, v->vieworg, sizeof(vec3_t));
    job.colormap = v->colormap;
    light_job(v, &job, light);   // at the eye, as the engine lights its view entity
    r_studio_draw(v, sm, &job);
}

// ---- players --------------------------------------------------------------------------------

// x - (int)(x / 360) * 360: the game's truncating wrap (keeps the sign)
static float wrap360(float x) { return x - (float)(int)(x / 360.0f) * 360.0f; }

float r_studio_gait_step(r_studio_gait_t *g, const studio_t *m, int gaitseq, float yaw, const float vel[3], float dt)
{
    dt = dt > 0 ? (dt < 1 ? dt : 1) : 0;
    float vx = vel[0], vy = vel[1];
    float speed = sqrtf(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]);
    if (!(speed >= 5))   // slower than 5 units a second: standing (the game's estimate)
        vx = vy = speed = 0;
    float movement = speed * dt;
    if (!g->valid) {   // first sight: the legs start where the body faces, or where it goes
        g->valid = 1;
        g->gaitframe = 0;
        g->gaityaw = yaw;
        movement = 0;
    }
    if (vx == 0 && vy == 0) {   // standing: the legs turn after the body, a quarter second behind
        float d = wrap360(yaw - g->gaityaw);
        if (d > 180)
            d -= 360;
        if (d < -180)
            d += 360;
        d *= dt < 0.25f ? dt * 4 : dt;
        g->gaityaw = wrap360(g->gaityaw + d);
        movement = 0;
    } else {   // moving: the legs face the way it goes
        g->gaityaw = atan2f(vy, vx) * (float)(180.0 / M_PI);
    }
    // the torso turns from the legs; past 120 degrees the legs run backwards instead
    float turn = wrap360(yaw - g->gaityaw);
    if (turn < -180)
        turn += 360;
    if (turn > 180)
        turn -= 360;
    if (turn > 120) {
        g->gaityaw -= 180;
        movement = -movement;
        turn -= 180;
    } else if (turn < -120) {
        g->gaityaw += 180;
        movement = -movement;
        turn += 180;
    }
    if (gaitseq > 0 && gaitseq < m->numseq) {
        const studio_seq_t *gs = &m->seqs[gaitseq];
        float n = (float)gs->numframes;
        if (gs->linearmovement[0] > 0)   // the feet keep to the ground: frames by distance
            g->gaitframe += movement / gs->linearmovement[0] * n;
        else
            g->gaitframe += gs->fps * dt;
        g->gaitframe -= (float)(int)(g->gaitframe / n) * n;
        if (g->gaitframe < 0)
            g->gaitframe += n;
        if (!isfinite(g->gaitframe))
            g->gaitframe = 0;
    }
    return turn;
}

int r_studio_player_blend(const studio_t *m, int seq, float *pitch)
{
    if (m->numseq < 1)
        return 0;
    const studio_seq_t *sq = &m->seqs[seq >= 0 && seq < m->numseq ? seq : 0];
    int blend = (int)(*pitch * 3);
    if (blend < sq->blendstart[0]) {
        *pitch -= sq->blendstart[0] / 3.0f;
        return 0;
    }
    if (blend > sq->blendend[0]) {
        *pitch -= sq->blendend[0] / 3.0f;
        return 255;
    }
    *pitch = 0;
    if (sq->blendend[0] - sq->blendstart[0] < 0.1f)   // a model without a range
        return 127;
    return (int)(255 * ((float)blend - sq->blendstart[0]) / (sq->blendend[0] - sq->blendstart[0]));
}

#define R_STUDIO_MAX_PMODELS 32

struct r_studio_players_s {
    uint32_t level_seq;
    char key[WORLD_MAX_PLAYERS][WORLD_NAME_LEN];   // the model userinfo each player's model is for
    int model[WORLD_MAX_PLAYERS];                  // index into models, -1 none
    r_studio_gait_t gait[WORLD_MAX_PLAYERS];
    int16_t top[WORLD_MAX_PLAYERS], bottom[WORLD_MAX_PLAYERS];   // userinfo topcolor / bottomcolor
    char names[R_STUDIO_MAX_PMODELS][WORLD_NAME_LEN];
    r_studio_model_t *models[R_STUDIO_MAX_PMODELS];   // NULL: looked for, absent
    int num_models;
};

r_studio_players_t *r_studio_players_create(void)
{
    r_studio_players_t *ps = calloc(1, sizeof(*ps));
    if (ps)
        for (int i = 0; i < WORLD_MAX_PLAYERS; i++)
            ps->model[i] = -1;
    return ps;
}

static void players_forget(r_studio_players_t *ps)
{
    for (int i = 0; i < ps->num_models; i++)
        r_studio_free(ps->models[i]);
    ps->num_models = 0;
    for (int i = 0; i < WORLD_MAX_PLAYERS; i++) {
        ps->model[i] = -1;
        ps->key[i][0] = 0;
        ps->gait[i].valid = 0;
    }
}

void r_studio_players_free(r_studio_players_t *ps)
{
    if (!ps)
        return;
    players_forget(ps);
    free(ps);
}

// A model name the game would accept as a folder name (no path tricks).
static int plain_model_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 31 || s[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_' || s[i] == '-' || s[i] == '.'))
            return 0;
    return 1;
}

static int player_model_get(r_studio_players_t *ps, const char *name, vfs_t *fs, const uint8_t *palette)
{
    for (int i = 0; i < ps->num_models; i++)
        if (!strcmp(ps->names[i], name))
            return ps->models[i] ? i : -1;
    if (ps->num_models >= R_STUDIO_MAX_PMODELS)
        return -1;
    int i = ps->num_models++;
    snprintf(ps->names[i], sizeof ps->names[i], "%s", name);
    ps->models[i] = NULL;
    char path[WORLD_NAME_LEN * 3];
    snprintf(path, sizeof path, "models/player/%s/%s.mdl", name, name);
    size_t size = 0;
    uint8_t *bytes = fs ? vfs_load(fs, path, &size) : NULL;
    if (!bytes)
        return -1;   // remembered as absent: the entity's own model stands in
    char err[160];
    ps->models[i] = size >= 4 && !memcmp(bytes, "IDST", 4)
                        ? r_studio_load(bytes, size, path, fs, palette, err, sizeof err)
                        : NULL;
    free(bytes);
    return ps->models[i] ? i : -1;
}

void r_studio_players_update(r_studio_players_t *ps, const world_t *w, vfs_t *fs, const uint8_t *palette)
{
    if (!ps || w->game != GAME_GOLDSRC)
        return;
    if (ps->level_seq != w->level_seq) {
        players_forget(ps);
        ps->level_seq = w->level_seq;
    }
    for (int i = 0; i < WORLD_MAX_PLAYERS; i++) {
        ps->top[i] = (int16_t)w->players[i].top_color;
        ps->bottom[i] = (int16_t)w->players[i].bottom_color;
        const char *name = w->players[i].skin;
        if (!strcmp(name, ps->key[i]))
            continue;
        snprintf(ps->key[i], sizeof ps->key[i], "%s", name);
        ps->model[i] = plain_model_name(name) ? player_model_get(ps, name, fs, palette) : -1;
    }
}

void r_studio_player(const r_view_t *v, r_studio_players_t *ps, int player, r_studio_model_t *fallback,
                     const vec3_t org, const vec3_t ang, const entity_state_t *s, const vec3_t vel,
                     double anim_clock, int light)
{
    if (!ps || player < 0 || player >= WORLD_MAX_PLAYERS) {
        if (fallback)
            r_studio_entity(v, fallback, org, ang, s, player + 1, anim_clock, light);
        return;
    }
    r_studio_model_t *sm = ps->model[player] >= 0 ? ps->models[ps->model[player]] : fallback;
    if (!sm)
        return;
    const uint8_t *mode_table;   // the engine's CL_FxBlend applies to players as to every entity
    if (!r_hl_studio_blend(v->hlmodes, s, player + 1, v->time, v->fx_since, v->vieworg, v->vpn, org, &mode_table))
        return;
    const studio_t *m = &sm->mdl;
    r_studio_job_t job;
    uint8_t ctl[5];
    if (!entity_job(m, org, ang, s, anim_clock, ctl, &job))
        return;
    jitter_entity_job(s, player + 1, v->time, &job);
    r_studio_gait_t *g = &ps->gait[player];
    if (g->valid && (v->time < g->last_time || v->time > g->last_time + 1))
        g->valid = 0;   // a seek or a long absence: start afresh
    float dt = g->valid ? (float)(v->time - g->last_time) : 0;
    if (s->gaitsequence > 0) {
        // the aim: the blend by the pitch, the rest of the pitch turns the model
        float pitch = job.angles[0];
        job.blend[0] = (float)r_studio_player_blend(m, job.seq, &pitch);
        job.angles[0] = pitch;
        float turn = r_studio_gait_step(g, m, s->gaitsequence, ang[1], vel, dt);
        int c = (int)((turn / 4.0f + 30.0f) / (60.0f / 255.0f));
        c = c < 0 ? 0 : c > 255 ? 255 : c;
        memset(ctl, c, 4);
        job.angles[1] = g->gaityaw < 0 ? g->gaityaw + 360 : g->gaityaw;   // the model faces with its legs
        job.gaitseq = s->gaitsequence < m->numseq ? s->gaitsequence : 0;
        job.gaitframe = g->gaitframe;
    } else {
        memset(ctl, 127, 4);   // no gait: the torso straight
        g->valid = 0;
    }
    g->last_time = v->time;
    job.remap = r_studio_remap(sm, player, ps->top[player], ps->bottom[player]);
    draw_entity_job(v, sm, &job, org, mode_table, light);
}

void r_studio_dead_player(const r_view_t *v, r_studio_players_t *ps, int player, r_studio_model_t *fallback,
                          const vec3_t org, const vec3_t ang, const entity_state_t *s, int entnum,
                          double anim_clock, int light)
{
    r_studio_model_t *sm = fallback;
    if (ps && player >= 0 && player < WORLD_MAX_PLAYERS && ps->model[player] >= 0)
        sm = ps->models[ps->model[player]];
    if (!sm)
        return;
    const uint8_t *mode_table;
    if (!r_hl_studio_blend(v->hlmodes, s, entnum, v->time, v->fx_since, v->vieworg, v->vpn, org, &mode_table))
        return;
    r_studio_job_t job;
    uint8_t ctl[5];
    if (!entity_job(&sm->mdl, org, ang, s, anim_clock, ctl, &job))
        return;
    memset(ctl, 127, 4);   // the engine clears the copy's gait sequence: the torso straight, no legs
    if (ps && player >= 0 && player < WORLD_MAX_PLAYERS)   // StudioDrawPlayer: the player's colours
        job.remap = r_studio_remap(sm, player, ps->top[player], ps->bottom[player]);
    draw_entity_job(v, sm, &job, org, mode_table, light);
}

