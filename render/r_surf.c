// r_surf.c -- the surface cache: texture x lightmap (styles + dynamic lights) through the colormap
#include "r_local.h"

#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void r_surf_reset(renderer_t *r)
{
    r->cache_used = 0;
    r->cache_gen++;
}

// Light of every lightmap sample, as colormap offsets (row << 8, row 0 = brightest).
int r_dlight_on_face(const bsp_t *b, const bsp_face_t *f, const r_dlight_t *dl, const float *o, r_dlight_hit_t *h)
{
    const bsp_plane_t *pl = &b->planes[f->plane];
    const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
    float dist = o[0] * pl->normal[0] + o[1] * pl->normal[1] + o[2] * pl->normal[2] - pl->dist;
    h->rad = dl->radius - fabsf(dist);
    if (h->rad < dl->minlight)
        return 0;
    h->minlight = h->rad - dl->minlight;
    float impact[3];
    for (int k = 0; k < 3; k++)
        impact[k] = o[k] - pl->normal[k] * dist;
    h->ls = impact[0] * ti->vecs[0][0] + impact[1] * ti->vecs[0][1] + impact[2] * ti->vecs[0][2] + ti->vecs[0][3] -
            (float)f->texturemins[0];
    h->lt = impact[0] * ti->vecs[1][0] + impact[1] * ti->vecs[1][1] + impact[2] * ti->vecs[1][2] + ti->vecs[1][3] -
            (float)f->texturemins[1];
    return 1;
}

static void build_lights(renderer_t *r, const r_surfctx_t *ctx, int smax, int tmax)
{
    const bsp_face_t *f = ctx->face;
    const bsp_t *b = r->bsp;
    int size = smax * tmax;
    int32_t *bl = r->blocklights;
    if (!b->light_size) {
        for (int i = 0; i < size; i++)   // a map compiled without light: everything full bright
            bl[i] = 255 * 256;
    } else {
        memset(bl, 0, sizeof(int32_t) * (size_t)size);
        if (f->lightofs >= 0) {
            const uint8_t *lm = b->lightdata + f->lightofs;
            for (int s = 0; s < BSP_MAXSTYLES && f->styles[s] != 255; s++) {
                int scale = r->lightstyles[f->styles[s]];
                for (int i = 0; i < size; i++)
                    bl[i] += lm[i] * scale;
                lm += size;
            }
        }
    }
    const r_face_t *rf = &r->faces[ctx->face_index];
    if (rf->dlightframe == r->framecount && rf->dlightbits) {
        for (int l = 0; l < r->view.num_dlights && l < 64; l++) {
            r_dlight_hit_t h;
            if (!(rf->dlightbits & ((uint64_t)1 << l)) || !r_dlight_on_face(b, f, &r->view.dlights[l], ctx->dl_org[l], &h))
                continue;
            if (r->view.dlights[l].dark) {
                // ref_soft's negative light (PGM): take (rad - d) x 256 away within the same
                // reach, then every sample of the face below `minlight` is raised to it; its
                // blocklights are unsigned, so a sample taken below 0 wraps and ends black
                for (int t = 0; t < tmax; t++)
                    for (int s = 0; s < smax; s++) {
                        int32_t *p = &bl[t * smax + s];
                        int d = r_dlight_dist(&h, s, t);
                        if ((float)d < h.minlight)
                            *p -= (int32_t)((h.rad - (float)d) * 256);
                        if (*p < 0)
                            *p = -(1 << 24);   // wrapped: black after the bound below (added lights stay below 0)
                        else if ((float)*p < h.minlight)
                            *p = (int32_t)h.minlight;
                    }
                continue;
            }
            for (int t = 0; t < tmax; t++)
                for (int s = 0; s < smax; s++) {
                    int d = r_dlight_dist(&h, s, t);
                    if ((float)d < h.minlight)
                        bl[t * smax + s] += (int32_t)((h.rad - (float)d) * 256);
                }
        }
    }
    for (int i = 0; i < size; i++) {
        int32_t t = bl[i] < 0 ? 255 * 256 >> 2 : (255 * 256 - bl[i]) >> 2;   // below 0: ref_soft's (int) < 0, black
        if (t < 64)
            t = 64;
        if (t > 63 * 256 + 255)
            t = 63 * 256 + 255;
        bl[i] = t;
    }
}

static int same_lights(const renderer_t *r, const bsp_face_t *f, const r_cached_t *c)
{
    for (int s = 0; s < BSP_MAXSTYLES && f->styles[s] != 255; s++)
        if (c->lightvals[s] != r->lightstyles[f->styles[s]])
            return 0;
    return 1;
}

// Texture x light into the surface, bs x bs texels per lightmap block (bs = 16 >> mip,
// shift = 4 - mip), the light interpolated bilinearly inside the block with
// Quake's integer steps (R_DrawSurfaceBlock8_mip*): the left and right edges
// step down by (next - this) >> shift a row, and a row steps from its right
// texel to its left by (left - right) >> shift, so the rounding is the game's
// and a surface is texel for texel what Quake built. Texture sizes and
// texturemins are multiples of 16, so s0, t0 and every block start are
// multiples of bs and a block's texels never wrap inside the texture.
static R_ALWAYS_INLINE void build_blocks(uint8_t *dst, int cw, const uint8_t *texels, int tw, int th, int s0, int t0,
                                         const int32_t *bl, int smax, int tmax, const uint8_t *cmap, const int bs,
                                         const int shift)
{
    for (int by = 0; by < tmax - 1; by++) {
        const uint8_t *trow = texels + (size_t)((t0 + by * bs) % th) * (size_t)tw;
        const int32_t *b0 = bl + by * smax, *b1 = b0 + smax;
        for (int bx = 0; bx < smax - 1; bx++) {
            int left = b0[bx], right = b0[bx + 1];
            const int lstep = (b1[bx] - left) >> shift, rstep = (b1[bx + 1] - right) >> shift;
            const uint8_t *src = trow + (s0 + bx * bs) % tw;
            uint8_t *out = dst + (size_t)(by * bs) * (size_t)cw + (size_t)(bx * bs);
#if defined(__SSE2__)
            if (bs >= 8) {
                // Eight texels at a time in 16-bit lanes: the light right + (bs - 1 - k) step
                // (pmullw: every value and product here lies in 0..32767, the lights being
                // 64..16383 and the steps between them), its colormap row (& 0xff00), plus
                // the texel; the indexes read back from memory, one load each.
                const __m128i zero = _mm_setzero_si128(), rowmask = _mm_set1_epi16((short)0xff00);
                const __m128i k_hi = _mm_setr_epi16(15, 14, 13, 12, 11, 10, 9, 8);
                const __m128i k_lo = _mm_setr_epi16(7, 6, 5, 4, 3, 2, 1, 0);
                for (int y = 0; y < bs; y++, src += tw, out += cw) {
                    const int step = (left - right) >> shift;
                    const __m128i vr = _mm_set1_epi16((short)right), vs = _mm_set1_epi16((short)step);
                    uint16_t ix[16];
                    if (bs == 16) {
                        __m128i t = _mm_loadu_si128((const __m128i *)(const void *)src);
                        __m128i l0 = _mm_and_si128(_mm_add_epi16(vr, _mm_mullo_epi16(vs, k_hi)), rowmask);
                        __m128i l1 = _mm_and_si128(_mm_add_epi16(vr, _mm_mullo_epi16(vs, k_lo)), rowmask);
                        _mm_storeu_si128((__m128i *)(void *)ix, _mm_add_epi16(l0, _mm_unpacklo_epi8(t, zero)));
                        _mm_storeu_si128((__m128i *)(void *)(ix + 8), _mm_add_epi16(l1, _mm_unpackhi_epi8(t, zero)));
                    } else {
                        __m128i t = _mm_loadl_epi64((const __m128i *)(const void *)src);
                        __m128i l1 = _mm_and_si128(_mm_add_epi16(vr, _mm_mullo_epi16(vs, k_lo)), rowmask);
                        _mm_storeu_si128((__m128i *)(void *)ix, _mm_add_epi16(l1, _mm_unpacklo_epi8(t, zero)));
                    }
                    __asm__("" : "+m"(*(uint16_t(*)[16])ix));
#define TEXEL(k) if ((k) < bs) out[k] = cmap[ix[k]]
                    TEXEL(0); TEXEL(1); TEXEL(2); TEXEL(3); TEXEL(4); TEXEL(5); TEXEL(6); TEXEL(7);
                    TEXEL(8); TEXEL(9); TEXEL(10); TEXEL(11); TEXEL(12); TEXEL(13); TEXEL(14); TEXEL(15);
#undef TEXEL
                    left += lstep;
                    right += rstep;
                }
                continue;
            }
#endif
            for (int y = 0; y < bs; y++, src += tw, out += cw) {
                const int step = (left - right) >> shift;
                // unrolled (bs is a constant): measured 12 -> 8 instructions a texel (callgrind)
#define TEXEL(k) if ((k) < bs) out[k] = cmap[((unsigned)(right + (bs - 1 - (k)) * step) & 0xff00u) + src[k]]
                TEXEL(0); TEXEL(1); TEXEL(2); TEXEL(3); TEXEL(4); TEXEL(5); TEXEL(6); TEXEL(7);
                TEXEL(8); TEXEL(9); TEXEL(10); TEXEL(11); TEXEL(12); TEXEL(13); TEXEL(14); TEXEL(15);
#undef TEXEL
                left += lstep;
                right += rstep;
            }
        }
    }
}

// The texels of a surface: the texture lit through the colormap (Quake's and Quake II's rule).
static void build_surface(renderer_t *r, const r_surfctx_t *ctx, int mip, uint8_t *dst, int cw)
{
    const bsp_face_t *f = ctx->face;
    int smax = (f->extents[0] >> 4) + 1, tmax = (f->extents[1] >> 4) + 1;
    build_lights(r, ctx, smax, tmax);
    const bsp_texture_t *tex = &r->bsp->textures[ctx->texture];
    const uint8_t *texels = r->bsp->texels + tex->offsets[mip];
    int tw = tex->width >> mip, th = tex->height >> mip;
    int s0 = (f->texturemins[0] >> mip) % tw, t0 = (f->texturemins[1] >> mip) % th;
    if (s0 < 0) s0 += tw;
    if (t0 < 0) t0 += th;
    const uint8_t *cmap = r->pal.colormap;
    const int32_t *bl = r->blocklights;
    // The block size as a constant in each case, so the compiler can unroll the texel loop.
    switch (mip) {
    case 0: build_blocks(dst, cw, texels, tw, th, s0, t0, bl, smax, tmax, cmap, 16, 4); break;
    case 1: build_blocks(dst, cw, texels, tw, th, s0, t0, bl, smax, tmax, cmap, 8, 3); break;
    case 2: build_blocks(dst, cw, texels, tw, th, s0, t0, bl, smax, tmax, cmap, 4, 2); break;
    default: build_blocks(dst, cw, texels, tw, th, s0, t0, bl, smax, tmax, cmap, 2, 1); break;
    }
}

void r_surf_face_lights(renderer_t *r, const r_surfctx_t *ctx)
{
    const bsp_face_t *f = ctx->face;
    build_lights(r, ctx, (f->extents[0] >> 4) + 1, (f->extents[1] >> 4) + 1);
}

// The surface without light: the texture's texels as they are (its '{' index 255 too), tiled from
// the face's texturemins as the lit builds tile it.
static void build_unlit(const renderer_t *r, const r_surfctx_t *ctx, int mip, uint8_t *dst, int cw, int ch)
{
    const bsp_face_t *f = ctx->face;
    const bsp_texture_t *tex = &r->bsp->textures[ctx->texture];
    const uint8_t *texels = r->bsp->texels + tex->offsets[mip];
    int tw = tex->width >> mip, th = tex->height >> mip;
    if (tw < 1 || th < 1) {
        memset(dst, 0, (size_t)cw * (size_t)ch);
        return;
    }
    int s0 = (f->texturemins[0] >> mip) % tw, t0 = (f->texturemins[1] >> mip) % th;
    if (s0 < 0) s0 += tw;
    if (t0 < 0) t0 += th;
    for (int y = 0; y < ch; y++) {
        const uint8_t *row = texels + (size_t)((t0 + y) % th) * (size_t)tw;
        uint8_t *out = dst + (size_t)y * (size_t)cw;
        int s = s0;
        for (int x = 0; x < cw;) {
            int n = tw - s < cw - x ? tw - s : cw - x;   // the run up to the texture's right edge
            memcpy(out + x, row + s, (size_t)n);
            x += n;
            s = 0;
        }
    }
}

const r_cached_t *r_surf_get(renderer_t *r, const r_surfctx_t *ctx, int mip)
{
    const bsp_face_t *f = ctx->face;
    r_face_t *rf = &r->faces[ctx->face_index];
    const int unlit = r->surf_unlit != 0;
    int dlit = !unlit && rf->dlightframe == r->framecount && rf->dlightbits;
    int cw = f->extents[0] >> mip, ch = f->extents[1] >> mip;
    if (cw < 1) cw = 1;
    if (ch < 1) ch = 1;
    r_cached_t *c;
    if (rf->cache_ofs[mip] >= 0 && rf->cache_gen[mip] == r->cache_gen) {
        c = (r_cached_t *)(r->cache + rf->cache_ofs[mip]);
        if (!dlit && !c->dlit && c->unlit == unlit && c->texture == ctx->texture && (unlit || same_lights(r, f, c)))
            return c;
        // Stale (a light style, dynamic light or animation frame changed): rebuilt where
        // it is, the same face and mip level being the same size. Flickering lights and
        // muzzle flashes so no longer fill the arena with dead copies and force a reset
        // (every surface rebuilt) every few seconds.
    } else {
        size_t need = (sizeof(r_cached_t) + (size_t)cw * (size_t)ch + 15) & ~(size_t)15;
        if (need > r->cache_size)
            return NULL;
        if (r->cache_used + need > r->cache_size)
            r_surf_reset(r);   // everything drawn so far this frame is already on screen
        c = (r_cached_t *)(r->cache + r->cache_used);
        rf->cache_ofs[mip] = (int32_t)r->cache_used;
        rf->cache_gen[mip] = r->cache_gen;
        r->cache_used += need;
    }
    r->stat_surfs_built++;
    c->face = ctx->face_index;
    c->mip = mip;
    c->texture = ctx->texture;
    c->width = cw;
    c->height = ch;
    c->dlit = dlit;
    c->unlit = unlit;
    for (int s = 0; s < BSP_MAXSTYLES; s++)
        c->lightvals[s] = f->styles[s] != 255 ? r->lightstyles[f->styles[s]] : 0;
    uint8_t *dst = (uint8_t *)(c + 1);
    if (unlit)
        build_unlit(r, ctx, mip, dst, cw, ch);   // the texels as they are
    else if (!r_hl_surface(r, ctx, mip, dst, cw))   // GoldSrc: coloured light, dithered (r_hllight.c)
        build_surface(r, ctx, mip, dst, cw);     // the others: the light through the colormap
    if (r->surf_overlay)   // a game's marks on the face (GoldSrc decals, r_hldecal.c)
        r->surf_overlay(r, ctx, dst, cw, ch, mip);
    return c;
}
