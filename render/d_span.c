// d_span.c -- rasterizer: span drawing for lit surfaces, liquids and sky, perspective-correct every 16 pixels
//
// A span is one row of a polygon's pixels. u/z, v/z and 1/z are linear in
// screen space; the true u, v are computed every 16 pixels (one divide) and
// stepped linearly in 16.16 fixed point in between, as Quake's d_scan does.
#include "r_local.h"

#include <limits.h>
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define SUBDIV 16
// Brush models are z-tested against the world; faces lying in the world's
// planes (lift tops, doors in their frames) would flicker between the two on
// rounding, so a brush face wins ties by 1/2000 of its depth.

static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void d_gradients(const renderer_t *r, const r_surfctx_t *ctx, float scale, float uofs, float vofs, d_grad_t *g)
{
    float den = ctx->dist - dot3(r->vieworg, ctx->normal);
    if (fabsf(den) < 1e-4f)
        den = den < 0 ? -1e-4f : 1e-4f;
    float k = 1.0f / den;
    float pn = dot3(r->vpn, ctx->normal), rn = dot3(r->vright, ctx->normal), un = dot3(r->vup, ctx->normal);
    float ixs = 1.0f / r->xscale, iys = 1.0f / r->yscale, xc = r->xc_pix, yc = r->yc_pix;
    g->dzidx = k * rn * ixs;
    g->dzidy = -k * un * iys;
    g->zi0 = k * (pn - xc * rn * ixs + yc * un * iys);
    float uo = dot3(r->vieworg, ctx->svec) + uofs;
    float ps = dot3(r->vpn, ctx->svec), rs = dot3(r->vright, ctx->svec), us = dot3(r->vup, ctx->svec);
    g->duzdx = scale * (uo * g->dzidx + rs * ixs);
    g->duzdy = scale * (uo * g->dzidy - us * iys);
    g->uz0 = scale * (uo * g->zi0 + ps - xc * rs * ixs + yc * us * iys);
    float vo = dot3(r->vieworg, ctx->tvec) + vofs;
    float pt = dot3(r->vpn, ctx->tvec), rt = dot3(r->vright, ctx->tvec), ut = dot3(r->vup, ctx->tvec);
    g->dvzdx = scale * (vo * g->dzidx + rt * ixs);
    g->dvzdy = scale * (vo * g->dzidy - ut * iys);
    g->vz0 = scale * (vo * g->zi0 + pt - xc * rt * ixs + yc * ut * iys);
}

// A z-tested pixel in one of the see-through modes (r->draw_mode != R_DRAW_OPAQUE).
static inline void put_mode(const renderer_t *r, int mode, uint8_t *dst, float *zb, float zz, uint8_t t)
{
    if (mode == R_DRAW_MASKED) {
        if (t != 255) {
            *dst = t;
            *zb = zz;
        }
    } else if (mode == R_DRAW_BLEND33 || mode == R_DRAW_BLEND66) {
        // the texel first for 33 % in pal.h's order, for 66 % in colormap.pcx's
        if ((mode == R_DRAW_BLEND33) != r->pal.alphamap_66_first)
            *dst = r->pal.alphamap[t * 256 + *dst];
        else
            *dst = r->pal.alphamap[*dst * 256 + t];
    } else if (t != 255) {   // GoldSrc's modes: '{' texels stay see-through
        *dst = r->draw_table[(mode == R_DRAW_COLOR ? r->draw_color : t) * 256 + *dst];
    }
}

// ---- lit surfaces, by Quake's numbers ------------------------------------------
//
// The same arithmetic as id's software renderer (D_CalcGradients, D_DrawSpans8
// in its C form), so a surface's pixels are the texels Quake showed: the view's
// axes give s/z, t/z and 1/z per screen pixel; the true s, t (16.16) are
// computed at the start of a span and every 8 pixels, clamped to the surface
// (the far end of a chunk no nearer than 8/65536 to its left or top edge), and
// stepped linearly between: by (next - this) >> 3 inside the span, by a
// division over the last chunk so the span ends exactly on its last texel.

static inline void view_xform(const renderer_t *r, const float *in, float out[3])
{
    out[0] = dot3(in, r->vright);
    out[1] = dot3(in, r->vup);
    out[2] = dot3(in, r->vpn);
}

int d_mip_level(const renderer_t *r, const r_surfctx_t *ctx)
{
    // mipadjust: how many texels a world unit holds, in Quake's four steps
    float len = (sqrtf(dot3(ctx->svec, ctx->svec)) + sqrtf(dot3(ctx->tvec, ctx->tvec))) * 0.5f;
    float adjust = len < 0.32f ? 4.0f : len < 0.49f ? 3.0f : len < 0.99f ? 2.0f : 1.0f;
    float scale = ctx->nearzi * (r->xscale > r->yscale ? r->xscale : r->yscale) * adjust;
    // Quake II: the reference (Yamagi's ref_soft at 320x240) changes mip level at
    // half these distances. Measured, not read: scaling the test by 1.25, 1.5, 1.8,
    // 2, 2.2, 2.5 and 3 matched its frames best at exactly 2 (walls and ceilings
    // then agree texel for texel). Faces whose texture is scaled down (2 texels a
    // unit: terminal's tiled walls, its planters) change at a quarter: the length
    // counts as well (measured too: 89.7 -> 94.5 % identical on action_demo).
    if (r->bsp && r->bsp->version == 38)
        scale *= 2.0f * (len > 1.0f ? len : 1.0f);
    return scale >= 1.0f ? 0 : scale >= 0.4f ? 1 : scale >= 0.2f ? 2 : 3;
}

// A float to 16.16 the way a C cast does, kept inside int for far-off values
static inline int fix16(float f)
{
    if (fabsf(f) <= 1.0e9f)   // the usual case in one test
        return (int)f;
    return f > 0 ? 1000000000 : f < 0 ? -1000000000 : (int)f;
}

// Quake II's chunk (Yamagi's ref_soft, D_DrawSpanGetStep): 16 pixels, doubled while
// 1/z would not change by 1/65536 over a chunk in either direction (a face seen
// square on), up to the screen's width.
static int span_shift_q2(float zistepu, float zistepv, int width)
{
    float du = zistepu * 65536.0f, dv = zistepv * 65536.0f;
    int shift = 4, n = 16;
    if ((int)(du * (float)n) != 0 || (int)(dv * (float)n) != 0)
        return shift;
    do {
        shift++;
        n <<= 1;
        if ((int)(du * (float)n) != 0 || (int)(dv * (float)n) != 0)
            return shift - 1;
    } while (n < width);
    return shift;
}

void d_surf_gradients(const renderer_t *r, const r_surfctx_t *ctx, int mip, d_surfgrad_t *g)
{
    const bsp_face_t *f = ctx->face;
    float mipscale = 1.0f / (float)(1 << mip);
    float pn[3], ps[3], pt[3], mo[3];
    view_xform(r, ctx->normal, pn);
    view_xform(r, ctx->svec, ps);
    view_xform(r, ctx->tvec, pt);
    view_xform(r, r->vieworg, mo);
    float den = ctx->dist - dot3(r->vieworg, ctx->normal);
    if (fabsf(den) < 1e-4f)
        den = den < 0 ? -1e-4f : 1e-4f;
    float distinv = 1.0f / den;
    float xsi = 1.0f / r->xscale, ysi = 1.0f / r->yscale, xc = r->xc_pix, yc = r->yc_pix;
    g->zistepu = pn[0] * xsi * distinv;
    g->zistepv = -pn[1] * ysi * distinv;
    g->ziorigin = pn[2] * distinv - xc * g->zistepu - yc * g->zistepv;
    float t = xsi * mipscale;
    g->sdivzstepu = ps[0] * t;
    g->tdivzstepu = pt[0] * t;
    t = ysi * mipscale;
    g->sdivzstepv = -ps[1] * t;
    g->tdivzstepv = -pt[1] * t;
    g->sdivzorigin = ps[2] * mipscale - xc * g->sdivzstepu - yc * g->sdivzstepv;
    g->tdivzorigin = pt[2] * mipscale - xc * g->tdivzstepu - yc * g->tdivzstepv;
    for (int k = 0; k < 3; k++)
        mo[k] *= mipscale;
    t = 65536.0f * mipscale;
    // the eye's texel (rounded), less the surface's corner, plus the texinfo offset
    int eye_s = fix16(dot3(mo, ps) * 65536.0f + 0.5f), eye_t = fix16(dot3(mo, pt) * 65536.0f + 0.5f);
    int corner_s = f->texturemins[0] * (65536 >> mip), corner_t = f->texturemins[1] * (65536 >> mip);
    g->sadjust = fix16((float)(eye_s - corner_s) + ctx->svec[3] * t);
    g->tadjust = fix16((float)(eye_t - corner_t) + ctx->tvec[3] * t);
    g->bbextents = (f->extents[0] << 16 >> mip) - 1;
    g->bbextentt = (f->extents[1] << 16 >> mip) - 1;
    g->spanshift = r->bsp && r->bsp->version == 38 ? span_shift_q2(g->zistepu, g->zistepv, r->width) : 3;
}

// Quake II's warping and flowing faces (ref_soft's D_TurbulentSurf): mip 0 of the
// texture, unlit, with the surface's corner at -8192 texels and 16384 texels a
// side (so s and t never clamp), flowing ones scrolled along s by
// -128 * frac(time * 0.77) texels (0.25 when they also warp). Seen through
// (R_DrawAlphaSurfaces: alpha_poly), the texinfo's offsets alone place the texture
// and flowing ones scroll at 0.25.
void d_turb_gradients_q2(const renderer_t *r, const r_surfctx_t *ctx, int alpha_poly, d_surfgrad_t *g)
{
    const bsp_face_t *f = ctx->face;
    float pn[3], ps[3], pt[3];
    view_xform(r, ctx->normal, pn);
    view_xform(r, ctx->svec, ps);
    view_xform(r, ctx->tvec, pt);
    float den = ctx->dist - dot3(r->vieworg, ctx->normal);
    if (fabsf(den) < 1e-4f)
        den = den < 0 ? -1e-4f : 1e-4f;
    float distinv = 1.0f / den;
    float xsi = 1.0f / r->xscale, ysi = 1.0f / r->yscale, xc = r->xc_pix, yc = r->yc_pix;
    g->zistepu = pn[0] * xsi * distinv;
    g->zistepv = -pn[1] * ysi * distinv;
    g->ziorigin = pn[2] * distinv - xc * g->zistepu - yc * g->zistepv;
    g->sdivzstepu = ps[0] * xsi;
    g->tdivzstepu = pt[0] * xsi;
    g->sdivzstepv = -ps[1] * ysi;
    g->tdivzstepv = -pt[1] * ysi;
    g->sdivzorigin = ps[2] - xc * g->sdivzstepu - yc * g->sdivzstepv;
    g->tdivzorigin = pt[2] - xc * g->tdivzstepu - yc * g->tdivzstepv;
    double flow = 0;
    if (f->flags & BSP_SURF_FLOWING) {
        double k = r->time * ((f->flags & BSP_SURF_TURB) || alpha_poly ? 0.25 : 0.77);
        flow = -128.0 * (k - (double)(int)k);
    }
    float es = dot3(r->vieworg, ctx->svec), et = dot3(r->vieworg, ctx->tvec);
    if (alpha_poly) {
        g->sadjust = fix16((float)((es + ctx->svec[3] + flow) * 65536.0));
        g->tadjust = fix16((et + ctx->tvec[3]) * 65536.0f);
        g->spanshift = 4;
    } else {
        // the eye's texel (rounded) less the corner (-8192 texels), plus the texinfo offset
        int eye_s = fix16(es * 65536.0f + 0.5f), eye_t = fix16(et * 65536.0f + 0.5f);
        g->sadjust = fix16((float)(eye_s + 8192 * 65536) + ctx->svec[3] * 65536.0f);
        g->tadjust = fix16((float)(eye_t + 8192 * 65536) + ctx->tvec[3] * 65536.0f);
        if (flow != 0)
            g->sadjust = fix16((float)((double)g->sadjust + 65536.0 * flow));
        g->spanshift = span_shift_q2(g->zistepu, g->zistepv, r->width);
    }
    g->bbextents = (16384 << 16) - 1;
    g->bbextentt = (16384 << 16) - 1;
}

// s (or t) in 16.16 at s/z = sz where 65536/z = z16, clamped to [lo, hi]
static inline int surf_coord(float sz, float z16, int adjust, int lo, int hi)
{
    int v = fix16(sz * z16) + adjust;
    return v > hi ? hi : v < lo ? lo : v;
}

// Where a span's drawing stands: the next pixel and its z, s/z, t/z and 1/z at the
// chunk's start, the true s and t there, the pixels left.
typedef struct {
    uint8_t *d;
    float *zp;
    float sdivz, tdivz, zi, zc;
    int ss, tt, count;
} d_spanpos_t;

// The span's whole chunks of `chunk` (= 1 << shift, a constant: 8 for Quake, 16 for
// Quake II's usual) pixels but the last, unrolled: the common case. The last chunk
// (which ends on the span's last pixel) is left to the caller. z-tested (a solid
// brush entity over the world's 1/z), a chunk no pixel of which is hidden takes the
// same unrolled path; one partly hidden is drawn pixel by pixel.
#if defined(__SSE2__)
// The texel indexes ((t + k dt) >> 16) * cw + ((s + k ds) >> 16) of 8 pixels, k = 0..7, in
// integer SSE2: s and t of two pixels a register, stepped by two pixels' steps, their
// whole parts packed to 16 bits as (s, t) pairs and multiplied by (1, cw) with pmaddwd.
// Exact (the same integers as the scalar loop) while s >> 16, t >> 16 and cw are below
// 32768, which the caller checks; s, t stay in [0, 2^31) along a chunk.
static R_ALWAYS_INLINE void texel_index8(uint32_t idx[8], int s, int t, int ds, int dt, __m128i wpair)
{
    __m128i v0 = _mm_setr_epi32(s, t, s + ds, t + dt);
    __m128i d1 = _mm_sub_epi32(_mm_shuffle_epi32(v0, _MM_SHUFFLE(3, 2, 3, 2)), _mm_shuffle_epi32(v0, _MM_SHUFFLE(1, 0, 1, 0)));
    __m128i d2 = _mm_add_epi32(d1, d1);
    __m128i v1 = _mm_add_epi32(v0, d2), v2 = _mm_add_epi32(v1, d2), v3 = _mm_add_epi32(v2, d2);
    __m128i p01 = _mm_packs_epi32(_mm_srli_epi32(v0, 16), _mm_srli_epi32(v1, 16));
    __m128i p23 = _mm_packs_epi32(_mm_srli_epi32(v2, 16), _mm_srli_epi32(v3, 16));
    _mm_storeu_si128((__m128i *)(void *)idx, _mm_madd_epi16(p01, wpair));
    _mm_storeu_si128((__m128i *)(void *)(idx + 4), _mm_madd_epi16(p23, wpair));
    // read back from memory (one load an index) rather than extracted lane by lane (two)
    __asm__("" : "+m"(*(uint32_t(*)[8])idx));
}
#endif

static R_ALWAYS_INLINE void whole_chunks(d_spanpos_t *p, const d_surfgrad_t *g, const uint8_t *tex, int cw,
                                         const float *zoff, float sdivzc, float tdivzc, float zic, int smax,
                                         int tmax, const int chunk, const int shift, const int ztest, int simd)
{
    uint8_t *d = p->d;
    float *zp = p->zp;
    float sdivz = p->sdivz, tdivz = p->tdivz, zi = p->zi, zc = p->zc;
    int count = p->count;
    // s, t and the steps in the pointer's width (the same values: 0 <= s, t < 2^31),
    // so the texel index needs no widening a pixel
    intptr_t ss = p->ss, tt = p->tt;
    const intptr_t w = cw;
    while (count > chunk) {
        count -= chunk;
        sdivz += sdivzc;
        tdivz += tdivzc;
        zi += zic;
        float z = 65536.0f / zi;
        intptr_t snext = surf_coord(sdivz, z, g->sadjust, chunk, smax);
        intptr_t tnext = surf_coord(tdivz, z, g->tadjust, chunk, tmax);
        intptr_t sstep = (snext - ss) >> shift, tstep = (tnext - tt) >> shift;
#define PIX(k) if ((k) < chunk) d[k] = tex[((tt + (k) * tstep) >> 16) * w + ((ss + (k) * sstep) >> 16)]
        int hidden = 0;   // z-tested (brush entities): does the world hide any pixel of the chunk?
        if (ztest)
            for (int k = 0; k < chunk; k++)
                hidden |= (zc + zoff[k]) * D_BMODEL_ZBIAS < zp[k];
#if defined(__SSE2__)
        if (!hidden && simd) {
            uint32_t idx[8];
            const __m128i wpair = _mm_set1_epi32((int)(((uint32_t)cw << 16) | 1u));
            for (int h = 0; h < chunk; h += 8) {
                texel_index8(idx, (int)(ss + h * sstep), (int)(tt + h * tstep), (int)sstep, (int)tstep, wpair);
                uint8_t *dh = d + h;
                dh[0] = tex[idx[0]]; dh[1] = tex[idx[1]]; dh[2] = tex[idx[2]]; dh[3] = tex[idx[3]];
                dh[4] = tex[idx[4]]; dh[5] = tex[idx[5]]; dh[6] = tex[idx[6]]; dh[7] = tex[idx[7]];
            }
            for (int k = 0; k < chunk; k++)
                zp[k] = zc + zoff[k];
        } else
#else
        (void)simd;
#endif
        if (!hidden) {
            PIX(0); PIX(1); PIX(2); PIX(3); PIX(4); PIX(5); PIX(6); PIX(7);
            PIX(8); PIX(9); PIX(10); PIX(11); PIX(12); PIX(13); PIX(14); PIX(15);
            for (int k = 0; k < chunk; k++)
                zp[k] = zc + zoff[k];
        } else {
            for (int k = 0; k < chunk; k++) {
                float zz = zc + zoff[k];
                if (zz * D_BMODEL_ZBIAS < zp[k])
                    continue;
                d[k] = tex[((tt + k * tstep) >> 16) * w + ((ss + k * sstep) >> 16)];
                zp[k] = zz;
            }
        }
#undef PIX
        zc += zic;
        d += chunk;
        zp += chunk;
        ss = snext;
        tt = tnext;
    }
    p->d = d;
    p->zp = zp;
    p->sdivz = sdivz;
    p->tdivz = tdivz;
    p->zi = zi;
    p->zc = zc;
    p->ss = (int)ss;
    p->tt = (int)tt;
    p->count = count;
}

void d_draw_spans_lit(renderer_t *r, const d_surfgrad_t *gin, const r_cached_t *c, const r_span_t *s, int n,
                      int ztest)
{
    // a copy of the gradients the pixel stores (bytes, which may alias anything) cannot
    // touch, so they stay in registers instead of being read again every span and chunk
    const d_surfgrad_t gl = *gin, *g = &gl;
    const uint8_t *tex = (const uint8_t *)(c + 1);
    const int cw = c->width, mode = ztest ? r->draw_mode : R_DRAW_OPAQUE;
    const int smax = g->bbextents, tmax = g->bbextentt;
    const int rowbytes = r->view.rowbytes, zw = r->width;
    uint8_t *const buffer = r->buffer;
    float *const zbuffer = r->zbuffer;
    const int shift = g->spanshift, chunk = 1 << shift;
    const float sdivzc = g->sdivzstepu * (float)chunk, tdivzc = g->tdivzstepu * (float)chunk;
    const float zic = g->zistepu * (float)chunk;
    float zoff[16];
    for (int k = 0; k < 16; k++)
        zoff[k] = (float)k * g->zistepu;
    // texel_index8's 16-bit whole parts: every s, t of a chunk lies in [0, smax], [0, tmax]
    const int simd = cw < 32768 && smax >= 0 && tmax >= 0 && (smax >> 16) < 32768 && (tmax >> 16) < 32768;
    for (int i = 0; i < n; i++) {
        int x = s[i].x, y = s[i].y;
        d_spanpos_t p;
        p.count = s[i].count;
        p.d = buffer + (size_t)y * (size_t)rowbytes + (size_t)x;
        p.zp = zbuffer + (size_t)y * (size_t)zw + (size_t)x;
        float du = (float)x, dv = (float)y;
        p.sdivz = g->sdivzorigin + dv * g->sdivzstepv + du * g->sdivzstepu;
        p.tdivz = g->tdivzorigin + dv * g->tdivzstepv + du * g->tdivzstepu;
        p.zi = g->ziorigin + dv * g->zistepv + du * g->zistepu;
        p.zc = p.zi;   // 1/z at the chunk's first pixel, for the z-buffer
        float z0 = 65536.0f / p.zi;
        p.ss = surf_coord(p.sdivz, z0, g->sadjust, 0, smax);
        p.tt = surf_coord(p.tdivz, z0, g->tadjust, 0, tmax);
        if (!ztest && shift == 3)   // whole chunks of 8 (Quake): the common case, unrolled
            whole_chunks(&p, g, tex, cw, zoff, sdivzc, tdivzc, zic, smax, tmax, 8, 3, 0, simd);
        else if (!ztest && shift == 4)   // and of 16 (Quake II's usual chunk)
            whole_chunks(&p, g, tex, cw, zoff, sdivzc, tdivzc, zic, smax, tmax, 16, 4, 0, simd);
        else if (mode == R_DRAW_OPAQUE && shift == 3)   // solid brush entities: z-tested a chunk at a time
            whole_chunks(&p, g, tex, cw, zoff, sdivzc, tdivzc, zic, smax, tmax, 8, 3, 1, simd);
        uint8_t *d = p.d;
        float *zp = p.zp;
        float sdivz = p.sdivz, tdivz = p.tdivz, zi = p.zi, zc = p.zc, z;
        int ss = p.ss, tt = p.tt, count = p.count;
        while (count > 0) {
            int nn = count >= chunk ? chunk : count;
            count -= nn;
            int snext, tnext, sstep = 0, tstep = 0;
            if (count) {
                sdivz += sdivzc;
                tdivz += tdivzc;
                zi += zic;
                z = 65536.0f / zi;
                snext = surf_coord(sdivz, z, g->sadjust, chunk, smax);
                tnext = surf_coord(tdivz, z, g->tadjust, chunk, tmax);
                sstep = (snext - ss) >> shift;
                tstep = (tnext - tt) >> shift;
            } else {
                // the last chunk ends on the span's last pixel
                float m1 = (float)(nn - 1);
                sdivz += g->sdivzstepu * m1;
                tdivz += g->tdivzstepu * m1;
                zi += g->zistepu * m1;
                z = 65536.0f / zi;
                snext = surf_coord(sdivz, z, g->sadjust, chunk, smax);
                tnext = surf_coord(tdivz, z, g->tadjust, chunk, tmax);
                if (nn > 1) {
                    sstep = (snext - ss) / (nn - 1);
                    tstep = (tnext - tt) / (nn - 1);
                }
            }
#if defined(__SSE2__)
            if (!ztest && simd && nn >= 4 && nn <= 8) {
                // a long last chunk: its indexes as a whole chunk's (those past nn unused)
                uint32_t idx[8];
                texel_index8(idx, ss, tt, sstep, tstep, _mm_set1_epi32((int)(((uint32_t)cw << 16) | 1u)));
#define LAST(k) d[k] = tex[idx[k]]; zp[k] = zc + zoff[k]
                switch (nn) {
                case 8: LAST(7); /* fall through */
                case 7: LAST(6); /* fall through */
                case 6: LAST(5); /* fall through */
                case 5: LAST(4); /* fall through */
                default: LAST(3); LAST(2); LAST(1); LAST(0);
                }
#undef LAST
            } else
#endif
            if (!ztest && nn <= 8) {
                // a span's last chunk (or a short span): straight-line code from its last
                // pixel down, entered at nn (the same texels and 1/z as the loop below)
                const intptr_t s0 = ss, t0 = tt, ds = sstep, dt = tstep, w = cw;
#define LAST(k) d[k] = tex[((t0 + (k) * dt) >> 16) * w + ((s0 + (k) * ds) >> 16)]; zp[k] = zc + zoff[k]
                switch (nn) {
                case 8: LAST(7); /* fall through */
                case 7: LAST(6); /* fall through */
                case 6: LAST(5); /* fall through */
                case 5: LAST(4); /* fall through */
                case 4: LAST(3); /* fall through */
                case 3: LAST(2); /* fall through */
                case 2: LAST(1); /* fall through */
                default: LAST(0);
                }
#undef LAST
            } else if (!ztest) {
                for (int k = 0; k < nn; k++) {
                    d[k] = tex[((tt + k * tstep) >> 16) * cw + ((ss + k * sstep) >> 16)];
                    zp[k] = zc + (float)k * g->zistepu;
                }
            } else {
                for (int k = 0; k < nn; k++) {
                    float zz = zc + (float)k * g->zistepu;
                    if (zz * D_BMODEL_ZBIAS < zp[k])
                        continue;
                    uint8_t texel = tex[((tt + k * tstep) >> 16) * cw + ((ss + k * sstep) >> 16)];
                    if (mode == R_DRAW_OPAQUE) {
                        d[k] = texel;
                        zp[k] = zz;
                    } else {
                        put_mode(r, mode, d + k, zp + k, zz, texel);
                    }
                }
            }
            zc += zic;
            d += nn;
            zp += nn;
            ss = snext;
            tt = tnext;
        }
    }
}

// (int)fmodf(f, 1024 texels in 16.16) in integers: a float that large is a whole
// number (its step is 8 and more), so the cast is exact and C's % keeps fmodf's sign
static inline int wrap_1024(float f)
{
    return fabsf(f) < 2147483648.0f ? (int)f % (65536 * 1024) : (int)fmodf(f, 65536.0f * 1024.0f);
}

void d_draw_spans_turb(renderer_t *r, const d_grad_t *g, const uint8_t *tex, int tw, int th, const r_span_t *s, int n,
                       int ztest)
{
    // Liquid textures are 64x64 (any power of two works; others wrap on the largest one inside)
    int wmask = 1, hmask = 1;
    while (wmask * 2 <= tw) wmask *= 2;
    while (hmask * 2 <= th) hmask *= 2;
    wmask--;
    hmask--;
    const int *turb = r->turbsin;
    const int ofs = r->turb_ofs, mode = ztest ? r->draw_mode : R_DRAW_OPAQUE;
    const int rowbytes = r->view.rowbytes, zw = r->width;
    int tr[128];   // the sine table turned to this frame's phase, for the unmasked loop
    if (!ztest)
        for (int i = 0; i < 128; i++)
            tr[i] = turb[(i + ofs) & 127];
    for (int i = 0; i < n; i++) {
        int x = s[i].x, y = s[i].y, count = s[i].count;
        uint8_t *dst = r->buffer + (size_t)y * (size_t)rowbytes + (size_t)x;
        float *zb = r->zbuffer + (size_t)y * (size_t)zw + (size_t)x;
        float fx = (float)x, fy = (float)y;
        float zi = g->zi0 + fy * g->dzidy + fx * g->dzidx;
        float uz = g->uz0 + fy * g->duzdy + fx * g->duzdx;
        float vz = g->vz0 + fy * g->dvzdy + fx * g->dvzdx;
        while (count > 0) {
            int nn = count > SUBDIV ? SUBDIV : count;
            float z = 65536.0f / zi;
            // wrap far texture coordinates (a multiple of every power-of-two size up to 1024)
            float fu = uz * z, fv = vz * z;
            float zi2 = zi + (float)nn * g->dzidx, uz2 = uz + (float)nn * g->duzdx, vz2 = vz + (float)nn * g->dvzdx;
            float z2 = 65536.0f / zi2;
            int du = (int)((uz2 * z2 - fu) / (float)nn), dv = (int)((vz2 * z2 - fv) / (float)nn);
            int u = wrap_1024(fu), v = wrap_1024(fv);
            float zz = zi;
            if (!ztest) {   // the world's solid liquids: the common case, no tests a pixel
                for (int k = 0; k < nn; k++) {
                    int ss = ((u + tr[(v >> 16) & 127]) >> 16) & wmask;
                    int tt = ((v + tr[(u >> 16) & 127]) >> 16) & hmask;
                    dst[k] = tex[tt * tw + ss];
                    zb[k] = zz;
                    u += du;
                    v += dv;
                    zz += g->dzidx;
                }
                dst += nn;
                zb += nn;
                count -= nn;
                zi = zi2;
                uz = uz2;
                vz = vz2;
                continue;
            }
            for (int k = 0; k < nn; k++) {
                int ss = ((u + turb[((v >> 16) + ofs) & 127]) >> 16) & wmask;
                int tt = ((v + turb[((u >> 16) + ofs) & 127]) >> 16) & hmask;
                if (!ztest || zz * D_BMODEL_ZBIAS >= zb[k]) {
                    if (mode == R_DRAW_OPAQUE) {
                        dst[k] = tex[tt * tw + ss];
                        zb[k] = zz;
                    } else {
                        put_mode(r, mode, dst + k, zb + k, zz, tex[tt * tw + ss]);
                    }
                }
                u += du;
                v += dv;
                zz += g->dzidx;
            }
            dst += nn;
            zb += nn;
            count -= nn;
            zi = zi2;
            uz = uz2;
            vz = vz2;
        }
    }
}

// As surf_coord, the sum wrapping as ref_soft's int arithmetic does far from the surface
static inline int turb_coord(float sz, float z16, int adjust, int lo, int hi)
{
    int v = (int)((unsigned)fix16(sz * z16) + (unsigned)adjust);
    return v > hi ? hi : v < lo ? lo : v;
}

// Quake II's warping and flowing spans (TurbulentPow2, NonTurbulentPow2 and the
// see-through spanlets): the true s, t every chunk as for lit spans, clamped to the
// surface unless seen through (alpha_poly), each chunk's start wrapped to 128
// texels, and every pixel displaced by the sine table along the other axis (flowing
// faces: by nothing) and wrapped to the texture's 64 x 64 texels.
void d_draw_spans_turb_q2(renderer_t *r, const d_surfgrad_t *g, const uint8_t *tex, const int *turb, int alpha_poly,
                          const r_span_t *s, int n, int ztest)
{
    const int mode = ztest ? r->draw_mode : R_DRAW_OPAQUE;
    const int smax = g->bbextents, tmax = g->bbextentt;
    const int lo = alpha_poly ? INT_MIN : 0, shi = alpha_poly ? INT_MAX : smax, thi = alpha_poly ? INT_MAX : tmax;
    const int rowbytes = r->view.rowbytes, zw = r->width;
    const int shift = g->spanshift, chunk = 1 << shift, clo = alpha_poly ? INT_MIN : chunk;
    const float sdivzc = g->sdivzstepu * (float)chunk, tdivzc = g->tdivzstepu * (float)chunk;
    const float zic = g->zistepu * (float)chunk;
    for (int i = 0; i < n; i++) {
        int x = s[i].x, y = s[i].y, count = s[i].count;
        uint8_t *d = r->buffer + (size_t)y * (size_t)rowbytes + (size_t)x;
        float *zp = r->zbuffer + (size_t)y * (size_t)zw + (size_t)x;
        float du = (float)x, dv = (float)y;
        float sdivz = g->sdivzorigin + dv * g->sdivzstepv + du * g->sdivzstepu;
        float tdivz = g->tdivzorigin + dv * g->tdivzstepv + du * g->tdivzstepu;
        float zi = g->ziorigin + dv * g->zistepv + du * g->zistepu;
        float zc = zi;
        float z = 65536.0f / zi;
        int ss = turb_coord(sdivz, z, g->sadjust, lo, shi), tt = turb_coord(tdivz, z, g->tadjust, lo, thi);
        while (count > 0) {
            int nn = count >= chunk ? chunk : count;
            count -= nn;
            int snext, tnext, sstep = 0, tstep = 0;
            if (count) {
                sdivz += sdivzc;
                tdivz += tdivzc;
                zi += zic;
                z = 65536.0f / zi;
                snext = turb_coord(sdivz, z, g->sadjust, clo, shi);
                tnext = turb_coord(tdivz, z, g->tadjust, clo, thi);
                sstep = (int)((unsigned)snext - (unsigned)ss) >> shift;
                tstep = (int)((unsigned)tnext - (unsigned)tt) >> shift;
            } else {
                float m1 = (float)(nn - 1);
                sdivz += g->sdivzstepu * m1;
                tdivz += g->tdivzstepu * m1;
                zi += g->zistepu * m1;
                z = 65536.0f / zi;
                snext = turb_coord(sdivz, z, g->sadjust, clo, shi);
                tnext = turb_coord(tdivz, z, g->tadjust, clo, thi);
                if (nn > 1) {
                    sstep = (int)((unsigned)snext - (unsigned)ss) / (nn - 1);
                    tstep = (int)((unsigned)tnext - (unsigned)tt) / (nn - 1);
                }
            }
            unsigned us = (unsigned)ss & ((128u << 16) - 1), ut = (unsigned)tt & ((128u << 16) - 1);
            for (int k = 0; k < nn; k++) {
                int st = (int)(((us + (unsigned)turb[(ut >> 16) & 127]) >> 16) & 63);
                int tu = (int)(((ut + (unsigned)turb[(us >> 16) & 127]) >> 16) & 63);
                uint8_t texel = tex[tu * 64 + st];
                float zz = zc + (float)k * g->zistepu;
                if (!ztest) {
                    d[k] = texel;
                    zp[k] = zz;
                } else if (zz * D_BMODEL_ZBIAS >= zp[k]) {
                    if (mode == R_DRAW_OPAQUE) {
                        d[k] = texel;
                        zp[k] = zz;
                    } else {
                        put_mode(r, mode, d + k, zp + k, zz, texel);
                    }
                }
                us += (unsigned)sstep;
                ut += (unsigned)tstep;
            }
            zc += zic;
            d += nn;
            zp += nn;
            ss = snext;
            tt = tnext;
        }
    }
}

// Sky pixel -> texel (16.16), by Quake's numbers (D_Sky_uv_To_st): the ray
// through the pixel, measured from the centre of the whole screen (not the 3D
// view: the horizon of the sky sits on the screen's middle row) in units of the
// view's larger side with no pixel aspect, is flattened (z counts triple),
// normalized, and scaled by 378 texels, plus the sky's scroll.
static inline void sky_st(const renderer_t *r, int x, int y, float scroll, int *s, int *t)
{
    float side = (float)(r->vw >= r->vh ? r->vw : r->vh);
    float wu = (float)(8192.0 * (float)(x - (r->width >> 1)) / side);
    float wv = (float)(8192.0 * (float)((r->height >> 1) - y) / side);
    float e[3];
    for (int k = 0; k < 3; k++)
        e[k] = 4096.0f * r->vpn[k] + wu * r->vright[k] + wv * r->vup[k];
    e[2] *= 3.0f;
    float len = (float)sqrt((double)(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]));
    if (len > 0) {
        float il = 1.0f / len;
        e[0] *= il;
        e[1] *= il;
    }
    *s = (int)((scroll + 378.0f * e[0]) * 65536.0f);
    *t = (int)((scroll + 378.0f * e[1]) * 65536.0f);
}

// The sky box texel a view direction d meets.
static inline uint8_t skybox_texel(const renderer_t *r, float d0, float d1, float d2)
{
    float a0 = d0 < 0 ? -d0 : d0, a1 = d1 < 0 ? -d1 : d1, a2 = d2 < 0 ? -d2 : d2;
    int side;
    float s, t;
    if (a0 >= a1 && a0 >= a2) {
        side = d0 > 0 ? 0 : 1;
        s = (d0 > 0 ? -d1 : d1) / a0;
        t = d2 / a0;
    } else if (a1 >= a2) {
        side = d1 > 0 ? 2 : 3;
        s = (d1 > 0 ? d0 : -d0) / a1;
        t = d2 / a1;
    } else {
        side = d2 > 0 ? 4 : 5;
        s = -d1 / a2;
        t = (d2 > 0 ? -d0 : d0) / a2;
    }
    const r_skyside_t *sd = &r->skybox[side];
    int x = (int)((s + 1) * 0.5f * (float)sd->w), y = (int)((1 - t) * 0.5f * (float)sd->h);
    x = x < 0 ? 0 : x >= sd->w ? sd->w - 1 : x;
    y = y < 0 ? 0 : y >= sd->h ? sd->h - 1 : y;
    return sd->pixels[(size_t)y * (size_t)sd->w + (size_t)x];
}

static void draw_spans_skybox(renderer_t *r, const r_span_t *s, int n, const d_grad_t *zg, int ztest)
{
    const int rowbytes = r->view.rowbytes, zw = r->width;
    for (int i = 0; i < n; i++) {
        int x = s[i].x, y = s[i].y;
        uint8_t *dst = r->buffer + (size_t)y * (size_t)rowbytes + (size_t)x;
        float *zb = r->zbuffer + (size_t)y * (size_t)zw + (size_t)x;
        float zz = zg->zi0 + (float)y * zg->dzidy + (float)x * zg->dzidx;
        // the direction is linear along a row: forward + a * right - b * up
        float a = ((float)x - r->xc_pix) / r->xscale, bb = ((float)y - r->yc_pix) / r->yscale, da = 1.0f / r->xscale;
        float d[3], dd[3];
        for (int k = 0; k < 3; k++) {   // the view's axes as the (turning) sky box sees them
            d[k] = r->sky_vpn[k] + a * r->sky_vright[k] - bb * r->sky_vup[k];
            dd[k] = da * r->sky_vright[k];
        }
        for (int k = 0; k < s[i].count; k++) {
            if (!ztest || zz * D_BMODEL_ZBIAS >= zb[k]) {
                dst[k] = skybox_texel(r, d[0], d[1], d[2]);
                zb[k] = zz;
            }
            d[0] += dd[0];
            d[1] += dd[1];
            d[2] += dd[2];
            zz += zg->dzidx;
        }
    }
}

void d_draw_spans_sky(renderer_t *r, const r_span_t *s, int n, const d_grad_t *zg, int ztest)
{
    if (r->skybox_ok) {
        draw_spans_skybox(r, s, n, zg, ztest);
        return;
    }
    r_sky_frame(r);
    const uint8_t *sky = r->sky;
    const int rowbytes = r->view.rowbytes, zw = r->width;
    const float scroll = r_sky_time(r) * 8.0f;
    for (int i = 0; i < n; i++) {
        int x = s[i].x, y = s[i].y, count = s[i].count;
        uint8_t *dst = r->buffer + (size_t)y * (size_t)rowbytes + (size_t)x;
        float *zb = r->zbuffer + (size_t)y * (size_t)zw + (size_t)x;
        float zz = zg->zi0 + (float)y * zg->dzidy + (float)x * zg->dzidx;
        int ss, tt;
        sky_st(r, x, y, scroll, &ss, &tt);
        // 32-pixel chunks stepped by >> 5; the last one ends on its last pixel
        while (count > 0) {
            int nn = count >= 32 ? 32 : count;
            count -= nn;
            int s2 = ss, t2 = tt, ds = 0, dt = 0;
            if (count) {
                sky_st(r, x + nn, y, scroll, &s2, &t2);
                ds = (s2 - ss) >> 5;
                dt = (t2 - tt) >> 5;
            } else if (nn > 1) {
                sky_st(r, x + nn - 1, y, scroll, &s2, &t2);
                ds = (int)((float)(s2 - ss) / (float)(nn - 1));
                dt = (int)((float)(t2 - tt) / (float)(nn - 1));
            }
            for (int k = 0; k < nn; k++) {
                if (!ztest || zz * D_BMODEL_ZBIAS >= zb[k]) {
                    dst[k] = sky[((tt >> 16) & (R_SKY_SIZE - 1)) * R_SKY_SIZE + ((ss >> 16) & (R_SKY_SIZE - 1))];
                    zb[k] = zz;
                }
                ss += ds;
                tt += dt;
                zz += zg->dzidx;
            }
            ss = s2;
            tt = t2;
            x += nn;
            dst += nn;
            zb += nn;
        }
    }
}

void d_fill_span(renderer_t *r, int x0, int x1, int y, uint8_t color)
{
    if (x1 <= x0)
        return;
    memset(r->buffer + (size_t)y * (size_t)r->view.rowbytes + (size_t)x0, color, (size_t)(x1 - x0));
    memset(r->zbuffer + (size_t)y * (size_t)r->width + (size_t)x0, 0, sizeof(float) * (size_t)(x1 - x0));
}
