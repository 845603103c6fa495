// r_surf.c -- the surface cache: texture x lightmap (styles + dynamic lights) through the colormap
#include "r_local.h"

#include <math.h>
#include <string.h>

void r_surf_reset(renderer_t *r)
{
    r->cache_used = 0;
    r->cache_gen++;
}

// Light of every lightmap sample, as colormap offsets (row << 8, row 0 = brightest).
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
        const bsp_plane_t *pl = &b->planes[f->plane];
        const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
        for (int l = 0; l < r->view.num_dlights && l < 64; l++) {
            if (!(rf->dlightbits & ((uint64_t)1 << l)))
                continue;
            const r_dlight_t *dl = &r->view.dlights[l];
            const float *o = ctx->dl_org[l];
            float dist = o[0] * pl->normal[0] + o[1] * pl->normal[1] + o[2] * pl->normal[2] - pl->dist;
            float rad = dl->radius - fabsf(dist);
            if (rad < dl->minlight)
                continue;
            float minlight = rad - dl->minlight;
            float impact[3];
            for (int k = 0; k < 3; k++)
                impact[k] = o[k] - pl->normal[k] * dist;
            float ls = impact[0] * ti->vecs[0][0] + impact[1] * ti->vecs[0][1] + impact[2] * ti->vecs[0][2] +
                       ti->vecs[0][3] - (float)f->texturemins[0];
            float lt = impact[0] * ti->vecs[1][0] + impact[1] * ti->vecs[1][1] + impact[2] * ti->vecs[1][2] +
                       ti->vecs[1][3] - (float)f->texturemins[1];
            for (int t = 0; t < tmax; t++) {
                int td = (int)(lt - (float)(t * 16));
                if (td < 0) td = -td;
                for (int s = 0; s < smax; s++) {
                    int sd = (int)(ls - (float)(s * 16));
                    if (sd < 0) sd = -sd;
                    // Quake's cheap distance: the longer axis plus half the shorter
                    int d = sd > td ? sd + (td >> 1) : td + (sd >> 1);
                    if ((float)d < minlight)
                        bl[t * smax + s] += (int32_t)((rad - (float)d) * 256);
                }
            }
        }
    }
    for (int i = 0; i < size; i++) {
        int32_t t = (255 * 256 - bl[i]) >> 2;
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

const r_cached_t *r_surf_get(renderer_t *r, const r_surfctx_t *ctx, int mip)
{
    const bsp_face_t *f = ctx->face;
    r_face_t *rf = &r->faces[ctx->face_index];
    int dlit = rf->dlightframe == r->framecount && rf->dlightbits;
    if (rf->cache_ofs[mip] >= 0 && rf->cache_gen[mip] == r->cache_gen) {
        const r_cached_t *c = (const r_cached_t *)(r->cache + rf->cache_ofs[mip]);
        if (!dlit && !c->dlit && c->texture == ctx->texture && same_lights(r, f, c))
            return c;
    }
    int cw = f->extents[0] >> mip, ch = f->extents[1] >> mip;
    if (cw < 1) cw = 1;
    if (ch < 1) ch = 1;
    size_t need = (sizeof(r_cached_t) + (size_t)cw * (size_t)ch + 15) & ~(size_t)15;
    if (need > r->cache_size)
        return NULL;
    if (r->cache_used + need > r->cache_size)
        r_surf_reset(r);   // everything drawn so far this frame is already on screen
    r_cached_t *c = (r_cached_t *)(r->cache + r->cache_used);
    rf->cache_ofs[mip] = (int32_t)r->cache_used;
    rf->cache_gen[mip] = r->cache_gen;
    r->cache_used += need;
    r->stat_surfs_built++;
    c->face = ctx->face_index;
    c->mip = mip;
    c->texture = ctx->texture;
    c->width = cw;
    c->height = ch;
    c->dlit = dlit;
    for (int s = 0; s < BSP_MAXSTYLES; s++)
        c->lightvals[s] = f->styles[s] != 255 ? r->lightstyles[f->styles[s]] : 0;
    uint8_t *dst = (uint8_t *)(c + 1);

    int smax = (f->extents[0] >> 4) + 1, tmax = (f->extents[1] >> 4) + 1;
    build_lights(r, ctx, smax, tmax);
    const bsp_texture_t *tex = &r->bsp->textures[ctx->texture];
    const uint8_t *texels = r->bsp->texels + tex->offsets[mip];
    int tw = tex->width >> mip, th = tex->height >> mip;
    int bs = 16 >> mip, shift = 4 - mip;
    // texturemins are multiples of 16 and texture sizes multiples of 16, so a
    // block's texels never wrap inside a texture row.
    int s0 = (f->texturemins[0] >> mip) % tw, t0 = (f->texturemins[1] >> mip) % th;
    if (s0 < 0) s0 += tw;
    if (t0 < 0) t0 += th;
    const uint8_t *cmap = r->pal.colormap;
    const int32_t *bl = r->blocklights;
    for (int by = 0; by < tmax - 1; by++) {
        for (int bx = 0; bx < smax - 1; bx++) {
            int l00 = bl[by * smax + bx], l10 = bl[by * smax + bx + 1];
            int l01 = bl[(by + 1) * smax + bx], l11 = bl[(by + 1) * smax + bx + 1];
            int left = l00 << shift, right = l10 << shift;          // scaled by bs
            int lstep = l01 - l00, rstep = l11 - l10;
            int scol = (s0 + bx * bs) % tw;
            for (int y = 0; y < bs; y++) {
                const uint8_t *src = texels + (size_t)((t0 + by * bs + y) % th) * (size_t)tw + scol;
                uint8_t *out = dst + (size_t)(by * bs + y) * (size_t)cw + (size_t)(bx * bs);
                int light = left, step = (right - left) >> shift;
                for (int x = 0; x < bs; x++) {
                    out[x] = cmap[((light >> shift) & 0xff00) + src[x]];
                    light += step;
                }
                left += lstep;
                right += rstep;
            }
        }
    }
    return c;
}
