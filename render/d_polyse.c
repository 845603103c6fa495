// d_polyse.c -- affine triangle rasterizer with a 1/z test (alias models, sprites) and particle squares
//
// Set-up computes each attribute's screen-space plane (d/dx, d/dy) once per
// triangle; rows are walked between the long edge and the two short ones, each
// edge's x always computed from its upper end so that neighbours sharing an
// edge agree bit for bit (no gaps, no double-drawn pixels).
#include "d_polyse.h"

#include <math.h>
#include <stddef.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

// (int)ceilf(v) for the clamped screen coordinates below (|v| < 2^31; NaN gives what
// the cast gives), cheaper than ceilf's inline sequence without SSE4.1's roundss (and
// than its control-word changes on the x87 of `make pentium`)
static inline int iceil(float v)
{
    int i = (int)v;
    return i + ((float)i < v);
}

// Fixed point for the span loops: 16.16 texels and light rows.
#define FIX(f) ((int32_t)((f) * 65536.0f))

static void span_lit(const d_polyctx_t *c, uint8_t *restrict dst, float *restrict zrow, int n, float zi, float dz,
                     int32_t s, int32_t ds, int32_t t, int32_t dt, int32_t l, int32_t dl)
{
    const uint8_t *restrict tex = c->texture;
    const uint8_t *restrict cmap = c->colormap;
    const int tw = c->tex_w;
    for (int i = 0; i < n; i++) {
        if (zi >= zrow[i]) {
            uint8_t texel = tex[(t >> 16) * tw + (s >> 16)];
            zrow[i] = zi;
            dst[i] = cmap[((l >> 8) & 0xFF00) + texel];
        }
        zi += dz;
        s += ds;
        t += dt;
        l += dl;
    }
}

static void span_lit_masked(const d_polyctx_t *c, uint8_t *restrict dst, float *restrict zrow, int n, float zi,
                            float dz, int32_t s, int32_t ds, int32_t t, int32_t dt, int32_t l, int32_t dl)
{
    const uint8_t *restrict tex = c->texture;
    const uint8_t *restrict cmap = c->colormap;
    const int tw = c->tex_w;
    for (int i = 0; i < n; i++) {
        if (zi >= zrow[i]) {
            uint8_t texel = tex[(t >> 16) * tw + (s >> 16)];
            if (texel != 255) {
                zrow[i] = zi;
                dst[i] = cmap[((l >> 8) & 0xFF00) + texel];
            }
        }
        zi += dz;
        s += ds;
        t += dt;
        l += dl;
    }
}

static void span_masked(const d_polyctx_t *c, uint8_t *restrict dst, float *restrict zrow, int n, float zi, float dz,
                        int32_t s, int32_t ds, int32_t t, int32_t dt)
{
    const uint8_t *restrict tex = c->texture;
    const int tw = c->tex_w;
    for (int i = 0; i < n; i++) {
        if (zi >= zrow[i]) {
            uint8_t texel = tex[(t >> 16) * tw + (s >> 16)];
            if (texel != 255) {
                zrow[i] = zi;
                dst[i] = texel;
            }
        }
        zi += dz;
        s += ds;
        t += dt;
    }
}

// See-through spans (FitzQuake's entity alpha): any mode, blended through the alphamap,
// z-tested, z not written.
static void span_blend(const d_polyctx_t *c, uint8_t *restrict dst, const float *restrict zrow, int n, float zi,
                       float dz, int32_t s, int32_t ds, int32_t t, int32_t dt, int32_t l, int32_t dl)
{
    const uint8_t *restrict tex = c->texture;
    const uint8_t *restrict cmap = c->colormap;
    const uint8_t *restrict amap = c->alphamap;
    const int tw = c->tex_w, lit = c->mode != D_UNLIT_MASKED, masked = c->mode != D_LIT;
    for (int i = 0; i < n; i++) {
        if (zi >= zrow[i]) {
            uint8_t texel = tex[(t >> 16) * tw + (s >> 16)];
            if (!masked || texel != 255) {
                uint8_t col = lit ? cmap[((l >> 8) & 0xFF00) + texel] : texel;
                dst[i] = c->alpha66 ? amap[dst[i] * 256 + col] : amap[col * 256 + dst[i]];
            }
        }
        zi += dz;
        s += ds;
        t += dt;
        l += dl;
    }
}

// One colour (D_FLAT): seen through as the other blends (z tested, not written), or solid.
static void span_flat(const d_polyctx_t *c, uint8_t *restrict dst, float *restrict zrow, int n, float zi, float dz)
{
    const uint8_t *restrict amap = c->alphamap;
    const uint8_t col = c->texture[0];
    for (int i = 0; i < n; i++, zi += dz) {
        if (zi < zrow[i])
            continue;
        if (!amap) {
            dst[i] = col;
            zrow[i] = zi;
        } else {
            dst[i] = c->alpha66 ? amap[dst[i] * 256 + col] : amap[col * 256 + dst[i]];
        }
    }
}

void d_poly_triangle(const d_polyctx_t *c, const d_vert_t *a, const d_vert_t *b, const d_vert_t *d)
{
    const d_vert_t *v0 = a, *v1 = b, *v2 = d, *tmp;
    if (v1->y < v0->y) { tmp = v0; v0 = v1; v1 = tmp; }
    if (v2->y < v1->y) { tmp = v1; v1 = v2; v2 = tmp; }
    if (v1->y < v0->y) { tmp = v0; v0 = v1; v1 = tmp; }

    // the rows whose centres the triangle covers: none (a small model's many tiny
    // triangles), nothing to set up
    int y0 = iceil(clampf(v0->y - 0.5f, -1.0f, (float)c->height));
    int y2 = iceil(clampf(v2->y - 0.5f, -1.0f, (float)c->height));
    if (y0 < 0)
        y0 = 0;
    if (y2 > c->height)
        y2 = c->height;
    if (y0 < c->y0)   // a band: its rows only (each row is computed from the vertices alone)
        y0 = c->y0;
    if (c->y1 > 0 && y2 > c->y1)
        y2 = c->y1;
    if (y0 >= y2)
        return;
    float x10 = v1->x - v0->x, y10 = v1->y - v0->y;
    float x20 = v2->x - v0->x, y20 = v2->y - v0->y;
    float area = x10 * y20 - x20 * y10;
    if (!(area != 0.0f) || !isfinite(area))
        return;
    if (!(v0->y < 1e7f && v2->y > -1e7f))   // absurd coordinates: nothing sensible to draw
        return;
    // The attributes' gradients wait for the first row with a pixel: half the triangles
    // of a small model that cover a row centre cover no pixel centre on it.
    float dzdx = 0, dzdy = 0, dsdx = 0, dsdy = 0, dtdx = 0, dtdy = 0, dldx = 0, dldy = 0;
    int have_grad = 0;

    float slope_long = x20 / y20;   // y20 > 0 when any row is covered
    float slope_top = y10 > 0 ? x10 / y10 : 0;
    float slope_bot = v2->y > v1->y ? (v2->x - v1->x) / (v2->y - v1->y) : 0;
    int long_left = area > 0;   // v1 lies right of the long edge
    const float smax = (float)c->tex_w - 1.0f / 256.0f, tmax = (float)c->tex_h - 1.0f / 256.0f;
#if defined(__SSE2__)
    // lanes z, s, t, light: the clamps (none for z), and the light lane picked by lmask
    const __m128 vlo = _mm_setr_ps(-INFINITY, 0, 0, 0), vhi = _mm_setr_ps(INFINITY, smax, tmax, 63.99f);
    const __m128 lmask = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
    __m128 vbase = _mm_setzero_ps(), vdx = vbase, vdy = vbase;
    (void)tmax;
#endif

    for (int y = y0; y < y2; y++) {
        float yc = (float)y + 0.5f;
        float xlong = v0->x + (yc - v0->y) * slope_long;
        float xshort = yc < v1->y ? v0->x + (yc - v0->y) * slope_top : v1->x + (yc - v1->y) * slope_bot;
        float xl = long_left ? xlong : xshort, xr = long_left ? xshort : xlong;
        int x0 = iceil(clampf(xl - 0.5f, -1.0f, (float)c->width));
        int x1 = iceil(clampf(xr - 0.5f, -1.0f, (float)c->width));
        if (x0 < 0)
            x0 = 0;
        int n = x1 - x0;
        if (n <= 0)
            continue;
        if (!have_grad) {
            float inv = 1.0f / area;
#define GRAD(f, dx, dy)                                               \
    dx = ((v1->f - v0->f) * y20 - (v2->f - v0->f) * y10) * inv;       \
    dy = ((v2->f - v0->f) * x10 - (v1->f - v0->f) * x20) * inv;
            GRAD(z, dzdx, dzdy)
            GRAD(s, dsdx, dsdy)
            GRAD(t, dtdx, dtdy)
            GRAD(l, dldx, dldy)
#undef GRAD
            have_grad = 1;
#if defined(__SSE2__)
            vbase = _mm_setr_ps(v0->z, v0->s, v0->t, v0->l);
            vdx = _mm_setr_ps(dzdx, dsdx, dtdx, dldx);
            vdy = _mm_setr_ps(dzdy, dsdy, dtdy, dldy);
#endif
        }
        float px = (float)x0 + 0.5f - v0->x, py = yc - v0->y;
        uint8_t *dst = c->buffer + (size_t)y * (size_t)c->rowbytes + x0;
        float *zrow = c->zbuffer + (size_t)y * (size_t)c->width + x0;
#if defined(__SSE2__)
        // z, s, t and the light in the four lanes of one register, with the scalar
        // path's operations in its order (below): the same floats, and truncated, the
        // same 16.16 integers. s1 and t1 step from the unclamped starts, l1 from the
        // clamped one, as there.
        const __m128 p0 = _mm_add_ps(_mm_add_ps(vbase, _mm_mul_ps(_mm_set1_ps(px), vdx)),
                                     _mm_mul_ps(_mm_set1_ps(py), vdy));
        const float zi = _mm_cvtss_f32(p0);
        if (c->mode == D_FLAT) {
            span_flat(c, dst, zrow, n, zi, dzdx);
            continue;
        }
        const __m128 p0c = _mm_min_ps(_mm_max_ps(p0, vlo), vhi);
        const __m128 e0 = _mm_or_ps(_mm_and_ps(lmask, p0c), _mm_andnot_ps(lmask, p0));
        const __m128 e = _mm_min_ps(_mm_max_ps(_mm_add_ps(e0, _mm_mul_ps(_mm_set1_ps((float)(n - 1)), vdx)), vlo), vhi);
        const float rn = n > 1 ? 1.0f / (float)(n - 1) : 0.0f;
        const __m128 k16 = _mm_set1_ps(65536.0f);
        int32_t fx[8];   // 16.16: z (unused), s0, t0, l0, then z, s, t and light steps
        _mm_storeu_si128((__m128i *)(void *)fx, _mm_cvttps_epi32(_mm_mul_ps(p0c, k16)));
        _mm_storeu_si128((__m128i *)(void *)(fx + 4),
                         _mm_cvttps_epi32(_mm_mul_ps(_mm_mul_ps(_mm_sub_ps(e, p0c), _mm_set1_ps(rn)), k16)));
        __asm__("" : "+m"(*(int32_t(*)[8])fx));
        const int32_t fs = fx[1], ft = fx[2], fdsx = fx[5], fdtx = fx[6];
        const int32_t fl = c->mode == D_UNLIT_MASKED ? 0 : fx[3], fdlx = c->mode == D_UNLIT_MASKED ? 0 : fx[7];
        if (c->alphamap)
            span_blend(c, dst, zrow, n, zi, dzdx, fs, fdsx, ft, fdtx, fl, fdlx);
        else if (c->mode == D_LIT_MASKED)
            span_lit_masked(c, dst, zrow, n, zi, dzdx, fs, fdsx, ft, fdtx, fl, fdlx);
        else if (c->mode == D_LIT)
            span_lit(c, dst, zrow, n, zi, dzdx, fs, fdsx, ft, fdtx, fl, fdlx);
        else
            span_masked(c, dst, zrow, n, zi, dzdx, fs, fdsx, ft, fdtx);
#else
        float zi = v0->z + px * dzdx + py * dzdy;
        float s0 = v0->s + px * dsdx + py * dsdy, s1 = s0 + (float)(n - 1) * dsdx;
        float t0 = v0->t + px * dtdx + py * dtdy, t1 = t0 + (float)(n - 1) * dtdx;
        // Clamp the span's ends into the texture: values between two in-range ends stay in range.
        s0 = clampf(s0, 0, smax);
        s1 = clampf(s1, 0, smax);
        t0 = clampf(t0, 0, tmax);
        t1 = clampf(t1, 0, tmax);
        float rn = n > 1 ? 1.0f / (float)(n - 1) : 0.0f;
        if (c->mode == D_FLAT) {
            span_flat(c, dst, zrow, n, zi, dzdx);
        } else if (c->alphamap) {
            float l0 = c->mode == D_UNLIT_MASKED ? 0 : clampf(v0->l + px * dldx + py * dldy, 0, 63.99f);
            float l1 = c->mode == D_UNLIT_MASKED ? 0 : clampf(l0 + (float)(n - 1) * dldx, 0, 63.99f);
            span_blend(c, dst, zrow, n, zi, dzdx, FIX(s0), FIX((s1 - s0) * rn), FIX(t0), FIX((t1 - t0) * rn), FIX(l0),
                       FIX((l1 - l0) * rn));
        } else if (c->mode != D_UNLIT_MASKED) {
            float l0 = clampf(v0->l + px * dldx + py * dldy, 0, 63.99f);
            float l1 = clampf(l0 + (float)(n - 1) * dldx, 0, 63.99f);
            if (c->mode == D_LIT_MASKED)
                span_lit_masked(c, dst, zrow, n, zi, dzdx, FIX(s0), FIX((s1 - s0) * rn), FIX(t0), FIX((t1 - t0) * rn),
                                FIX(l0), FIX((l1 - l0) * rn));
            else
                span_lit(c, dst, zrow, n, zi, dzdx, FIX(s0), FIX((s1 - s0) * rn), FIX(t0), FIX((t1 - t0) * rn),
                         FIX(l0), FIX((l1 - l0) * rn));
        } else {
            span_masked(c, dst, zrow, n, zi, dzdx, FIX(s0), FIX((s1 - s0) * rn), FIX(t0), FIX((t1 - t0) * rn));
        }
#endif
    }
}

// ---- Quake's small models: whole-pixel points and recursive halving ----

typedef struct {
    uint8_t *buffer;
    float *zbuffer;
    const uint8_t *tex, *cmap;   // cmap: the colormap row of the triangle's light
    int rowbytes, width, tex_w, tex_h, ylo, yhi;
} d_subctx_t;

static void subctx(d_subctx_t *k, const d_polyctx_t *c)
{
    k->buffer = c->buffer;
    k->zbuffer = c->zbuffer;
    k->tex = c->texture;
    k->cmap = c->colormap;
    k->rowbytes = c->rowbytes;
    k->width = c->width;
    k->tex_w = c->tex_w;
    k->tex_h = c->tex_h;
    k->ylo = c->y0 > 0 ? c->y0 : 0;
    k->yhi = c->y1 > 0 && c->y1 < c->height ? c->y1 : c->height;
}

// One pixel at (x, y), z-tested; skin coordinates kept in the skin (a seam vertex may
// sit on its right edge).
static inline void sub_plot(const d_subctx_t *k, const uint8_t *cmap, int x, int y, int s, int t, float z)
{
    if ((unsigned)x >= (unsigned)k->width || y < k->ylo || y >= k->yhi)
        return;
    float *zp = k->zbuffer + (size_t)y * (size_t)k->width + x;
    if (z < *zp)
        return;
    int ts = s >> 16, tt = t >> 16;
    ts = ts < 0 ? 0 : ts >= k->tex_w ? k->tex_w - 1 : ts;
    tt = tt < 0 ? 0 : tt >= k->tex_h ? k->tex_h - 1 : tt;
    *zp = z;
    k->buffer[(size_t)y * (size_t)k->rowbytes + x] = cmap[k->tex[tt * k->tex_w + ts]];
}

void d_poly_subdiv_points(const d_polyctx_t *c, const d_subvert_t *p, int n)
{
    d_subctx_t k;
    subctx(&k, c);
    for (int i = 0; i < n; i++)
        sub_plot(&k, k.cmap + (p[i].light & 0xFF00), p[i].x, p[i].y, p[i].s, p[i].t, p[i].z);
}

static inline int sub_far(const d_subvert_t *a, const d_subvert_t *b)
{
    return (unsigned)(b->x - a->x + 1) > 2u || (unsigned)(b->y - a->y + 1) > 2u;
}

// The first edge (a-b, b-d, d-a) longer than a pixel either way is halved, its midpoint
// drawn unless the edge leads (runs down, or left along a row), and the two halves
// (opposite corner first) taken in turn.
static void sub_tri(const d_subctx_t *k, const d_subvert_t *a, const d_subvert_t *b, const d_subvert_t *d)
{
    const d_subvert_t *p, *q, *r;
    if (sub_far(a, b)) {
        p = a, q = b, r = d;
    } else if (sub_far(b, d)) {
        p = b, q = d, r = a;
    } else if (sub_far(d, a)) {
        p = d, q = a, r = b;
    } else {
        return;
    }
    d_subvert_t m;
    m.x = (p->x + q->x) >> 1;
    m.y = (p->y + q->y) >> 1;
    m.s = (p->s + q->s) >> 1;
    m.t = (p->t + q->t) >> 1;
    m.z = (p->z + q->z) * 0.5f;
    if (!(q->y > p->y || (q->y == p->y && q->x < p->x)))
        sub_plot(k, k->cmap, m.x, m.y, m.s, m.t, m.z);
    sub_tri(k, r, p, &m);
    sub_tri(k, r, &m, q);
}

void d_poly_subdiv_triangle(const d_polyctx_t *c, const d_subvert_t *a, const d_subvert_t *b,
                            const d_subvert_t *d)
{
    d_subctx_t k;
    subctx(&k, c);
    k.cmap = c->colormap + (a->light & 0xFF00);
    sub_tri(&k, a, b, d);
}

void d_particle(uint8_t *buffer, int width, int height, int rowbytes, float *zbuffer, int u, int v, float zi,
                int size, uint8_t color)
{
    int x0 = u < 0 ? 0 : u, y0 = v < 0 ? 0 : v;
    int x1 = u + size > width ? width : u + size, y1 = v + size > height ? height : v + size;
    for (int y = y0; y < y1; y++) {
        uint8_t *dst = buffer + (size_t)y * (size_t)rowbytes;
        float *z = zbuffer + (size_t)y * (size_t)width;
        for (int x = x0; x < x1; x++)
            if (zi >= z[x]) {
                z[x] = zi;
                dst[x] = color;
            }
    }
}
