// r_alias.c -- alias model front end: pose blend, transform, Quake's normal shading, near clip, triangle setup
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "r_mlocal.h"

#define DEG2RAD(a) ((a) * (float)(M_PI / 180.0))


static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

#if defined(__SSE2__)
// view = A p + b in the lanes x, y, z at once, in the scalar lines' order
// ((A[k][0] p0 + A[k][1] p1) + A[k][2] p2) + b[k]: the same floats
static inline __m128 xform_v(const __m128 col[3], __m128 bv, __m128 p)
{
    const __m128 p0 = _mm_shuffle_ps(p, p, 0x00), p1 = _mm_shuffle_ps(p, p, 0x55), p2 = _mm_shuffle_ps(p, p, 0xAA);
    return _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(col[0], p0), _mm_mul_ps(col[1], p1)), _mm_mul_ps(col[2], p2)),
                      bv);
}

// a vertex's position in its pose's whole units (TyrQuake's blend when wb != 0), as floats
static inline __m128 pose_pos(const mdl_vert_t *va, const mdl_vert_t *vb, int wa, int wb)
{
    if (wb)
        return _mm_cvtepi32_ps(_mm_setr_epi32(((int)va->v[0] * wa + (int)vb->v[0] * wb) >> 22,
                                              ((int)va->v[1] * wa + (int)vb->v[1] * wb) >> 22,
                                              ((int)va->v[2] * wa + (int)vb->v[2] * wb) >> 22, 0));
    uint32_t w;
    memcpy(&w, va, sizeof w);
    const __m128i zero = _mm_setzero_si128();
    return _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)w), zero), zero));
}
#endif

int r_sphere_visible(const r_view_t *v, const vec3_t centre, float radius)
{
    vec3_t d = {centre[0] - v->vieworg[0], centre[1] - v->vieworg[1], centre[2] - v->vieworg[2]};
    float z = dot3(d, v->vpn), x = dot3(d, v->vright), y = dot3(d, v->vup);
    if (z + radius < R_NEAR_Z)
        return 0;
    // side planes through the eye: |x| = hw * z, |y| = hh * z
    float hw = (v->xcenter > v->width - v->xcenter ? v->xcenter : v->width - v->xcenter) / v->xscale;
    float hh = (v->ycenter > v->height - v->ycenter ? v->ycenter : v->height - v->ycenter) / v->yscale;
    float nw = sqrtf(1 + hw * hw), nh = sqrtf(1 + hh * hh);
    if (fabsf(x) - hw * z > radius * nw)
        return 0;
    if (fabsf(y) - hh * z > radius * nh)
        return 0;
    return 1;
}

// id's model drawing keeps a projected vertex in whole pixels: R_AliasProjectAndClipTestFinalVert
// (Quake II) and R_AliasTransformFinalVert (Quake) store u = xcenter + x * scale / z, with
// xcenter half the width less 0.5, in an int, cut towards zero, and the rasterizer works
// from those. Here a pixel's centre is at x + 0.5 (xcenter half the width), so the vertex
// lands on the centre of the pixel whose u the cut gives.
static inline float id_pixel(float x)
{
    float u = x - 0.5f;
    if (u > -1e9f && u < 1e9f)
        u = (float)(int)u;
    return u + 0.5f;
}

static inline void project(const r_view_t *v, const r_cvert_t *c, d_vert_t *p, float zscale, int whole)
{
    float zi = 1.0f / c->z;
    p->x = v->xcenter + v->xscale * c->x * zi;
    p->y = v->ycenter - v->yscale * c->y * zi;
    if (whole) {
        p->x = id_pixel(p->x);
        p->y = id_pixel(p->y);
    }
    p->z = zi * zscale;
    p->s = c->s;
    p->t = c->t;
    p->l = c->l;
}

void r_draw_poly(const r_view_t *v, const d_polyctx_t *c, const r_cvert_t *in, int n, int cull)
{
    r_draw_poly_z(v, c, in, n, cull, 1.0f);
}

static void draw_poly(const r_view_t *v, const d_polyctx_t *c, const r_cvert_t *in, int n, int cull, float zscale,
                      int whole);

void r_draw_poly_z(const r_view_t *v, const d_polyctx_t *c, const r_cvert_t *in, int n, int cull, float zscale)
{
    draw_poly(v, c, in, n, cull, zscale, 0);
}

// whole: the vertices in whole pixels, as id's alias models (id_pixel)
static void draw_poly(const r_view_t *v, const d_polyctx_t *c, const r_cvert_t *in, int n, int cull, float zscale,
                      int whole)
{
    r_cvert_t clip[16];
    int m = 0;
    if (n < 3 || n > 8)
        return;
    for (int i = 0; i < n; i++) {
        const r_cvert_t *a = &in[i], *b = &in[(i + 1) % n];
        int ain = a->z >= R_NEAR_Z, bin = b->z >= R_NEAR_Z;
        if (ain)
            clip[m++] = *a;
        if (ain != bin) {
            float f = (R_NEAR_Z - a->z) / (b->z - a->z);
            r_cvert_t *o = &clip[m++];
            o->x = a->x + f * (b->x - a->x);
            o->y = a->y + f * (b->y - a->y);
            o->z = R_NEAR_Z;
            o->s = a->s + f * (b->s - a->s);
            o->t = a->t + f * (b->t - a->t);
            o->l = a->l + f * (b->l - a->l);
        }
    }
    if (m < 3)
        return;
    d_vert_t p[16];
    for (int i = 0; i < m; i++)
        project(v, &clip[i], &p[i], zscale, whole);
    if (cull) {
        // the clipped polygon keeps its winding: any non-degenerate fan triangle tells it
        float area = 0;
        for (int i = 1; i + 1 < m && area == 0; i++)
            area = d_poly_area2(&p[0], &p[i], &p[i + 1]);
        if (area <= 0)
            return;
    }
    for (int i = 1; i + 1 < m; i++)
        d_poly_triangle(c, &p[0], &p[i], &p[i + 1]);
}

// Quake's choice of drawing for a small model (R_AliasCheckBBox, R_AliasDrawModel,
// r_main.c's R_ViewChanged): the model's box (here its vertices' box, in the units of
// its byte coordinates) is "trivially accepted" when no corner is nearer than the alias
// near plane (5 units) nor projects outside the view, and it is drawn as points and
// halved triangles (r_affinetridesc.drawtype) when, besides, its nearest corner (whole
// units, at most 9999) is farther than r_aliastransbase + size / 11 * r_aliastransadj
// (200 and 100) scaled by res_scale = sqrt(view pixels / (320 x 152)) x 2 / (2 tan(fov_x / 2)).
static int quake_small_model(const r_view_t *v, const mdl_t *m, float A[3][3], const float b[3],
                             const uint8_t *box_a, const uint8_t *box_b)
{
    float lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = (float)(box_a[k] < box_b[k] ? box_a[k] : box_b[k]);
        hi[k] = (float)(box_a[3 + k] > box_b[3 + k] ? box_a[3 + k] : box_b[3 + k]);
    }
    const float vw = 2.0f * v->xcenter, vh = 2.0f * v->ycenter;
    int minz = 9999;
    for (int i = 0; i < 8; i++) {
        float p[3] = {i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]};
        float z = A[2][0] * p[0] + A[2][1] * p[1] + A[2][2] * p[2] + b[2];
        if (!(z >= 5.0f))
            return 0;
        if (z < (float)minz)
            minz = (int)z;
        float x = A[0][0] * p[0] + A[0][1] * p[1] + A[0][2] * p[2] + b[0];
        float y = A[1][0] * p[0] + A[1][1] * p[1] + A[1][2] * p[2] + b[1];
        // Quake's pixel coordinates: its centre is half a pixel left of and above ours
        float zi = 1.0f / z;
        float u = v->xcenter - 0.5f + v->xscale * x * zi, w = v->ycenter - 0.5f - v->yscale * y * zi;
        if (!(u >= 0 && u <= vw && w >= 0 && w <= vh))
            return 0;
    }
    float res_scale = sqrtf(vw * vh / (320.0f * 152.0f)) * (2.0f * v->xscale / vw);
    return (float)minz > res_scale * (200.0f + m->size * (1.0f / 11.0f) * 100.0f);
}

// Light vectors of Quake's model shading, in world space: id's, light from +x, and
// TyrQuake's, from above.
static const float r_lightvec_id[3] = {-1, 0, 0}, r_lightvec_above[3] = {0, 0, -1};

void r_alias_draw(const r_view_t *v, r_alias_scratch_t *sc, const r_alias_job_t *job)
{
    const mdl_t *m = job->mdl;
    if (!m || m->numverts > sc->cap || !v->zbuffer)
        return;
    // Composite of (byte vertex -> model -> world -> view): view = A * v + b. Models with
    // a scale and translate per pose (MD2) decode each vertex to model space first.
    static const float unit[6] = {1, 1, 1, 0, 0, 0};
    const float *mscale = m->pose_xform ? unit : m->scale, *mtrans = m->pose_xform ? unit + 3 : m->translate;
    vec3_t ax[3];   // model x, y, z axes in world space: forward, left, up
    float A[3][3], b[3];
    r_model_to_view(v, job->axes, job->angles, job->origin, mscale, mtrans, ax, A, b);

    // Quake's R_AliasSetupLighting: a vertex's light in colormap rows * 256 is the ambient
    // part, (255 - ambient) * 64, less the shade part, shade * 64, times the cosine between
    // its normal and the light when it faces the light; in whole units, as Quake's were.
    int amb = job->ambient < 5 ? 5 : job->ambient > 255 ? 255 : job->ambient;
    int ambient_light = (255 - amb) << 6;
    if (ambient_light < 5)
        ambient_light = 5;
    float shade_light = (float)(job->shade < 0 ? 0 : job->shade) * 64.0f;
    const float *lvec = job->light_above ? r_lightvec_above : r_lightvec_id;
    float lv[3] = {dot3(lvec, ax[0]), dot3(lvec, ax[1]), dot3(lvec, ax[2])};
    float ldot[MDL_NUM_NORMALS];
    int lrow[MDL_NUM_NORMALS];   // Quake's small models: the colormap row * 256 of each normal's light
    int first = 0;
#if defined(__SSE2__)
    {
        // four normals at a time, the scalar loop's operations in its order: c = n . lv;
        // the shade part (int)(shade_light * c) where c < 0 (min(c, 0) makes it 0 elsewhere,
        // as no shade part is), clamped at 0 (ambient_light alone is above it)
        const __m128 l0 = _mm_set1_ps(lv[0]), l1 = _mm_set1_ps(lv[1]), l2 = _mm_set1_ps(lv[2]);
        const __m128 sh = _mm_set1_ps(shade_light), inv = _mm_set1_ps(1.0f / 256.0f), fzero = _mm_setzero_ps();
        const __m128i vamb = _mm_set1_epi32(ambient_light), izero = _mm_setzero_si128(), row63 = _mm_set1_epi32(63);
        for (; first + 4 <= MDL_NUM_NORMALS; first += 4) {
            const float *q = mdl_anorms[first];
            __m128 x = _mm_setr_ps(q[0], q[3], q[6], q[9]), y = _mm_setr_ps(q[1], q[4], q[7], q[10]);
            __m128 z = _mm_setr_ps(q[2], q[5], q[8], q[11]);
            __m128 c = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, l0), _mm_mul_ps(y, l1)), _mm_mul_ps(z, l2));
            __m128i l = _mm_add_epi32(vamb, _mm_cvttps_epi32(_mm_mul_ps(sh, _mm_min_ps(c, fzero))));
            l = _mm_and_si128(l, _mm_cmpgt_epi32(l, izero));
            _mm_storeu_ps(&ldot[first], _mm_mul_ps(_mm_cvtepi32_ps(l), inv));
            // the colormap row * 256 (Quake's small models): min(l >> 8, 63) << 8
            __m128i row = _mm_srai_epi32(l, 8), big = _mm_cmpgt_epi32(row, row63);
            row = _mm_or_si128(_mm_andnot_si128(big, row), _mm_and_si128(big, row63));
            _mm_storeu_si128((__m128i *)(void *)&lrow[first], _mm_slli_epi32(row, 8));
        }
    }
#endif
    for (int i = first; i < MDL_NUM_NORMALS; i++) {
        float c = dot3(mdl_anorms[i], lv);
        int l = ambient_light;
        if (c < 0) {
            l += (int)(shade_light * c);
            if (l < 0)
                l = 0;
        }
        ldot[i] = (float)l * (1.0f / 256.0f);
        lrow[i] = ((l >> 8) > 63 ? 63 : l >> 8) << 8;
    }
    float zscale = job->zscale > 0 ? job->zscale : 1.0f;
    const float shell = job->shell;
    // a projection of its own (Quake II's view weapon at r_gunfov): the same view with other scales
    r_view_t pv;
    if (job->proj_scale) {
        pv = *v;
        pv.xscale = job->proj_scale[0];
        pv.yscale = job->proj_scale[1];
        v = &pv;
    }

    const mdl_vert_t *pa = mdl_pose_verts(m, job->pose_a), *pb = mdl_pose_verts(m, job->pose_b);
    float f = job->blend < 0 ? 0 : job->blend > 1 ? 1 : job->blend;
    if (job->pose_a == job->pose_b)
        f = 0;
    const float *xa = m->pose_xform ? m->pose_xform + (size_t)job->pose_a * 6 : NULL;
    const float *xb = m->pose_xform ? m->pose_xform + (size_t)job->pose_b * 6 : NULL;
    // Byte poses blend in whole units (TyrQuake's blend: 22-bit weights, truncated), each
    // vertex lit by the normal of the nearer pose.
    const int wb = (int)(f * (float)(1 << 22)), wa = (1 << 22) - wb;
    const mdl_vert_t *pn = f < 0.5f ? pa : pb;
    d_polyctx_t ctx = {v->buffer, v->width, v->height, v->rowbytes, v->zbuffer,
                       job->flat ? &job->flat_color : job->skin, m->skinwidth, m->skinheight, job->colormap,
                       job->flat ? D_FLAT : D_LIT, job->alphamap, job->alpha66, v->y0, v->y1};
    // Quake's small models (the box of the poses drawn: Quake's frame box): every vertex in
    // front of the near plane and on screen
    if (job->subdiv && m->pose_box && !xa && !job->alphamap && !job->flat && !job->proj_scale && sc->sub &&
        quake_small_model(v, m, A, b, m->pose_box + (size_t)job->pose_a * 6, m->pose_box + (size_t)job->pose_b * 6)) {
        // D_PolysetDrawFinalVerts, then D_DrawSubdiv: whole pixels (Quake's projection
        // truncated), skin coordinates in 16.16, a vertex's light row; each vertex drawn
        d_subvert_t *q = sc->sub;
#if defined(__SSE2__)
        const __m128 col[3] = {_mm_setr_ps(A[0][0], A[1][0], A[2][0], 0), _mm_setr_ps(A[0][1], A[1][1], A[2][1], 0),
                               _mm_setr_ps(A[0][2], A[1][2], A[2][2], 0)};
        const __m128 bv = _mm_setr_ps(b[0], b[1], b[2], 0);
#endif
        for (int i = 0; i < m->numverts; i++) {
            const mdl_vert_t *va = &pa[i], *vb = &pb[i];
            const int normal = wb ? pn[i].normal : va->normal;
#if defined(__SSE2__)
            const __m128 vv = xform_v(col, bv, pose_pos(va, vb, wa, wb));
            const float x = _mm_cvtss_f32(vv), y = _mm_cvtss_f32(_mm_shuffle_ps(vv, vv, 0x55));
            const float z = _mm_cvtss_f32(_mm_movehl_ps(vv, vv));
#else
            float p[3];
            if (wb) {
                for (int k = 0; k < 3; k++)
                    p[k] = (float)(((int)va->v[k] * wa + (int)vb->v[k] * wb) >> 22);
            } else {
                p[0] = (float)va->v[0];
                p[1] = (float)va->v[1];
                p[2] = (float)va->v[2];
            }
            float x = A[0][0] * p[0] + A[0][1] * p[1] + A[0][2] * p[2] + b[0];
            float y = A[1][0] * p[0] + A[1][1] * p[1] + A[1][2] * p[2] + b[1];
            float z = A[2][0] * p[0] + A[2][1] * p[1] + A[2][2] * p[2] + b[2];
#endif
            float zi = 1.0f / z;
            q[i].x = (int)(v->xcenter + v->xscale * x * zi - 0.5f);
            q[i].y = (int)(v->ycenter - v->yscale * y * zi - 0.5f);
            q[i].z = zi * zscale;
            q[i].s = m->st[i].s << 16;
            q[i].t = m->st[i].t << 16;
            q[i].light = lrow[normal];
        }
        d_poly_subdiv_points(&ctx, q, m->numverts);
        const int seam = (m->skinwidth >> 1) << 16;
        for (int i = 0; i < m->numtris; i++) {
            const mdl_tri_t *t = &m->tris[i];
            const d_subvert_t *a = &q[t->v[0]], *bb = &q[t->v[1]], *d = &q[t->v[2]];
            // Quake's integer facing test: ties face away
            if ((a->y - bb->y) * (a->x - d->x) - (a->x - bb->x) * (a->y - d->y) >= 0)
                continue;
            if (!t->facesfront && (m->st[t->v[0]].onseam || m->st[t->v[1]].onseam || m->st[t->v[2]].onseam)) {
                d_subvert_t e[3] = {*a, *bb, *d};
                for (int k = 0; k < 3; k++)
                    if (m->st[t->v[k]].onseam)
                        e[k].s += seam;
                d_poly_subdiv_triangle(&ctx, &e[0], &e[1], &e[2]);
            } else {
                d_poly_subdiv_triangle(&ctx, a, bb, d);
            }
        }
        return;
    }
    int any_near = 0, any_in = 0;
#if defined(__SSE2__)
    const __m128 col[3] = {_mm_setr_ps(A[0][0], A[1][0], A[2][0], 0), _mm_setr_ps(A[0][1], A[1][1], A[2][1], 0),
                           _mm_setr_ps(A[0][2], A[1][2], A[2][2], 0)};
    const __m128 bv = _mm_setr_ps(b[0], b[1], b[2], 0);
#endif
    for (int i = 0; i < m->numverts; i++) {
        float p[3];
        const mdl_vert_t *va = &pa[i], *vb = &pb[i];
        r_cvert_t *c = &sc->view[i];
        int normal;
        if (xa) {
            for (int k = 0; k < 3; k++) {
                float a = (float)va->v[k] * xa[k] + xa[3 + k], bb = (float)vb->v[k] * xb[k] + xb[3 + k];
                p[k] = a + f * (bb - a) + shell * mdl_anorms[vb->normal][k];
            }
            normal = vb->normal;
        } else {
            // byte poses: blended (wb != 0) or one pose's own whole units
            normal = wb ? pn[i].normal : va->normal;
#if defined(__SSE2__)
            const __m128 vv = xform_v(col, bv, pose_pos(va, vb, wa, wb));
            c->x = _mm_cvtss_f32(vv);
            c->y = _mm_cvtss_f32(_mm_shuffle_ps(vv, vv, 0x55));
            c->z = _mm_cvtss_f32(_mm_movehl_ps(vv, vv));
            goto placed;
#else
            for (int k = 0; k < 3; k++)
                p[k] = wb ? (float)(((int)va->v[k] * wa + (int)vb->v[k] * wb) >> 22) : (float)va->v[k];
#endif
        }
        c->x = A[0][0] * p[0] + A[0][1] * p[1] + A[0][2] * p[2] + b[0];
        c->y = A[1][0] * p[0] + A[1][1] * p[1] + A[1][2] * p[2] + b[1];
        c->z = A[2][0] * p[0] + A[2][1] * p[1] + A[2][2] * p[2] + b[2];
#if defined(__SSE2__)
    placed:
#endif
        c->s = (float)m->st[i].s;
        c->t = (float)m->st[i].t;
        // MD2 (Quake II's R_AliasTransformFinalVerts): lit by the normal of the frame blended to
        c->l = ldot[normal];
        if (c->z >= R_NEAR_Z) {
            project(v, c, &sc->proj[i], zscale, 1);
            any_in = 1;
        } else {
            any_near = 1;
        }
    }
    if (!any_in)
        return;

    float half = (float)(m->skinwidth / 2);
    for (int i = 0; i < m->numtris; i++) {
        const mdl_tri_t *t = &m->tris[i];
        int i0 = t->v[0], i1 = t->v[1], i2 = t->v[2];
        int back = !t->facesfront;
        if (!any_near || (sc->view[i0].z >= R_NEAR_Z && sc->view[i1].z >= R_NEAR_Z && sc->view[i2].z >= R_NEAR_Z)) {
            const d_vert_t *p0 = &sc->proj[i0], *p1 = &sc->proj[i1], *p2 = &sc->proj[i2];
            if (d_poly_area2(p0, p1, p2) <= 0)
                continue;   // faces away
            if (back && (m->st[i0].onseam || m->st[i1].onseam || m->st[i2].onseam)) {
                // back-facing skin half: seam vertices move to the right half of the skin
                d_vert_t q[3] = {*p0, *p1, *p2};
                for (int k = 0; k < 3; k++)
                    if (m->st[t->v[k]].onseam)
                        q[k].s += half;
                d_poly_triangle(&ctx, &q[0], &q[1], &q[2]);
            } else {
                d_poly_triangle(&ctx, p0, p1, p2);
            }
        } else {
            r_cvert_t q[3] = {sc->view[i0], sc->view[i1], sc->view[i2]};
            if (back)
                for (int k = 0; k < 3; k++)
                    if (m->st[t->v[k]].onseam)
                        q[k].s += half;
            draw_poly(v, &ctx, q, 3, 1, zscale, 1);
        }
    }
}
