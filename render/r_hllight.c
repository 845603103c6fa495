// r_hllight.c -- Half-Life's light in 8 bits: coloured lightmaps (dithered through a 5:5:5
// intermediate), coloured dynamic lights on surfaces, and the engine's studio model light
#include "r_hllight.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "r_dither.h"
#include "r_hlmodes.h"
#include "r_local.h"

struct r_hllight_s {
    int ready, dither;
    double build_ms;   // the last r_hllight_build's time
    // tab[c][level * 256 + texel]: channel c (0..248) of the texel's colour at level / 32 of it;
    // 248 at most so that the dither (0..7) never carries out of the 8 bits
    uint8_t tab[3][HLL_LEVELS * 256];
    // each 5:5:5 cell's two palette colours and their mix (palette-aware ordered dither)
    r_dither_t dith;
    int32_t bl[3][R_MAX_BLOCKLIGHTS];   // the light of a surface's samples, level << 8 (8.8)
    // studio models' colormaps tinted by their light's colour (r_hl_model_colormap): 8 slots, the
    // least recently used one rebuilt; key = the colour in 5:5:5 + 1 (0: empty)
    uint8_t palette[768];
    uint8_t tint[8][64 * 256];
    uint32_t tint_key[8], tint_used[8], tick;
};

r_hllight_t *r_hllight_create(void)
{
    r_hllight_t *hl = calloc(1, sizeof *hl);
    if (hl)
        hl->dither = 1;
    return hl;
}

void r_hllight_free(r_hllight_t *hl) { free(hl); }

void r_hllight_set_dither(r_hllight_t *hl, int on)
{
    if (hl)
        hl->dither = on != 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

double r_hllight_build_ms(const r_hllight_t *hl) { return hl ? hl->build_ms : -1; }

void r_hllight_build(r_hllight_t *hl, const uint8_t *palette, const uint8_t *inv)
{
    memcpy(hl->palette, palette, sizeof hl->palette);
    memset(hl->tint_key, 0, sizeof hl->tint_key);
    double t0 = now_ms();
    r_dither_build(&hl->dith, palette, 255, inv);   // (255: the see-through index of '{' is never a result)
    for (int c = 0; c < 3; c++)
        for (int l = 0; l < HLL_LEVELS; l++)
            for (int t = 0; t < 256; t++) {
                int v = (palette[t * 3 + c] * l + 16) / 32;
                hl->tab[c][l * 256 + t] = (uint8_t)(v > 248 ? 248 : v);
            }
    hl->ready = 1;
    hl->build_ms = now_ms() - t0;
}

// ---- surfaces ---------------------------------------------------------------------------------

// The RGB light of every lightmap sample of a face (styles, then dlights with their colours), as
// level << 8 with level = light / 4 (Quake's scale: 128 = the texture as painted), 0 .. 63.
static void build_lights(renderer_t *r, r_hllight_t *hl, const r_surfctx_t *ctx, int smax, int tmax)
{
    const bsp_face_t *f = ctx->face;
    const bsp_t *b = r->bsp;
    int size = smax * tmax;
    if (!b->light_size) {
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < size; i++)   // a map compiled without light: everything full bright
                hl->bl[c][i] = 255 * 256;
    } else {
        for (int c = 0; c < 3; c++)
            memset(hl->bl[c], 0, sizeof(int32_t) * (size_t)size);
        if (f->lightofs >= 0) {
            const uint8_t *lm = b->lightrgb + (size_t)f->lightofs * 3;
            for (int s = 0; s < BSP_MAXSTYLES && f->styles[s] != 255; s++) {
                int scale = r->lightstyles[f->styles[s]];
                for (int i = 0; i < size; i++) {
                    hl->bl[0][i] += lm[i * 3] * scale;
                    hl->bl[1][i] += lm[i * 3 + 1] * scale;
                    hl->bl[2][i] += lm[i * 3 + 2] * scale;
                }
                lm += size * 3;
            }
        }
    }
    const r_face_t *rf = &r->faces[ctx->face_index];
    if (rf->dlightframe == r->framecount && rf->dlightbits) {
        for (int l = 0; l < r->view.num_dlights && l < 64; l++) {
            if (!(rf->dlightbits & ((uint64_t)1 << l)))
                continue;
            const r_dlight_t *dl = &r->view.dlights[l];
            if (dl->elight)
                continue;
            // Quake's R_AddDynamicLights, each channel weighed by the light's colour / 255
            int col[3] = { 256, 256, 256 };
            if (dl->rgb & 0x1000000u)
                for (int k = 0; k < 3; k++) {
                    int v = (int)(dl->rgb >> (16 - 8 * k)) & 255;
                    col[k] = v + (v >> 7);   // 255 -> 256
                }
            r_dlight_hit_t h;
            if (!r_dlight_on_face(b, f, dl, ctx->dl_org[l], &h))
                continue;
            for (int t = 0; t < tmax; t++) {
                for (int s = 0; s < smax; s++) {
                    int d = r_dlight_dist(&h, s, t);
                    if ((float)d < h.minlight) {
                        int32_t add = (int32_t)(h.rad - (float)d);
                        for (int k = 0; k < 3; k++)
                            hl->bl[k][t * smax + s] += add * col[k];
                    }
                }
            }
        }
    }
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < size; i++) {
            int32_t t = hl->bl[c][i] >> 2;
            hl->bl[c][i] = t < 0 ? 0 : t > (HLL_LEVELS - 1) * 256 + 255 ? (HLL_LEVELS - 1) * 256 + 255 : t;
        }
}

// Texture x RGB light into the surface, as r_surf.c's build_blocks (bs x bs texels a lightmap
// block, the light of each channel interpolated with Quake's integer steps), each texel then
// the nearest palette colour of its 5:5:5 colour, dithered. masked: texel 255 stays 255 ('{').
static inline __attribute__((always_inline)) void build_blocks(
    uint8_t *dst, int cw, const uint8_t *texels, int tw, int th, int s0, int t0, const r_hllight_t *hl,
    int smax, int tmax, const int bs, const int shift, const int masked)
{
    const uint8_t *tr = hl->tab[0], *tg = hl->tab[1], *tb = hl->tab[2];
    const uint32_t *mix = hl->dith.mix;
    const uint8_t(*dm)[4] = r_dither_bayer[hl->dither ? 0 : 1];
    for (int by = 0; by < tmax - 1; by++) {
        const uint8_t *trow = texels + (size_t)((t0 + by * bs) % th) * (size_t)tw;
        const int32_t *r0 = hl->bl[0] + by * smax, *g0 = hl->bl[1] + by * smax, *b0 = hl->bl[2] + by * smax;
        for (int bx = 0; bx < smax - 1; bx++) {
            int lr = r0[bx], rr = r0[bx + 1], lg = g0[bx], rg = g0[bx + 1], lb = b0[bx], rb = b0[bx + 1];
            const int lrs = (r0[bx + smax] - lr) >> shift, rrs = (r0[bx + smax + 1] - rr) >> shift;
            const int lgs = (g0[bx + smax] - lg) >> shift, rgs = (g0[bx + smax + 1] - rg) >> shift;
            const int lbs = (b0[bx + smax] - lb) >> shift, rbs = (b0[bx + smax + 1] - rb) >> shift;
            const uint8_t *src = trow + (s0 + bx * bs) % tw;
            uint8_t *out = dst + (size_t)(by * bs) * (size_t)cw + (size_t)(bx * bs);
            const int xd = (bx * bs) & 3;
            for (int y = 0; y < bs; y++, src += tw, out += cw) {
                const int rs = (lr - rr) >> shift, gs = (lg - rg) >> shift, bst = (lb - rb) >> shift;
                const uint8_t *d = dm[(by * bs + y) & 3], *d2 = dm[(by * bs + y + 1) & 3];
#define TEXEL(k)                                                                                        \
    if ((k) < bs) {                                                                                     \
        unsigned t = src[k], dd = d[(xd + (k)) & 3] >> 1;                                               \
        unsigned cr = tr[((unsigned)(rr + (bs - 1 - (k)) * rs) & 0xff00u) + t] + dd;                   \
        unsigned cg = tg[((unsigned)(rg + (bs - 1 - (k)) * gs) & 0xff00u) + t] + dd;                   \
        unsigned cb = tb[((unsigned)(rb + (bs - 1 - (k)) * bst) & 0xff00u) + t] + dd;                  \
        uint32_t e = mix[(cr & 0xf8u) << 7 | (cg & 0xf8u) << 2 | cb >> 3];                               \
        uint8_t px = (uint8_t)(d2[(xd + (k) + 2) & 3] < (e >> 16) ? e >> 8 : e);                          \
        out[k] = masked && t == 255 ? 255 : px;                                                         \
    }
                TEXEL(0); TEXEL(1); TEXEL(2); TEXEL(3); TEXEL(4); TEXEL(5); TEXEL(6); TEXEL(7);
                TEXEL(8); TEXEL(9); TEXEL(10); TEXEL(11); TEXEL(12); TEXEL(13); TEXEL(14); TEXEL(15);
#undef TEXEL
                lr += lrs;
                rr += rrs;
                lg += lgs;
                rg += rgs;
                lb += lbs;
                rb += rbs;
            }
        }
    }
}

int r_hl_surface(renderer_t *r, const r_surfctx_t *ctx, int mip, uint8_t *dst, int cw)
{
    r_hllight_t *hl = r->hllight;
    if (!hl || !hl->ready || !r->hl || !r->hl->ready || !r->bsp || r->bsp->version != 30 ||
        (r->bsp->light_size && !r->bsp->lightrgb))
        return 0;
    const bsp_face_t *f = ctx->face;
    int smax = (f->extents[0] >> 4) + 1, tmax = (f->extents[1] >> 4) + 1;
    build_lights(r, hl, ctx, smax, tmax);
    const bsp_texture_t *tex = &r->bsp->textures[ctx->texture];
    const uint8_t *texels = r->bsp->texels + tex->offsets[mip];
    int tw = tex->width >> mip, th = tex->height >> mip;
    int s0 = (f->texturemins[0] >> mip) % tw, t0 = (f->texturemins[1] >> mip) % th;
    if (s0 < 0) s0 += tw;
    if (t0 < 0) t0 += th;
    // '{' textures keep their see-through index 255 (a separate copy, so the others pay no test)
    if (tex->name[0] == '{') {
        switch (mip) {
        case 0: build_blocks(dst, cw, texels, tw, th, s0, t0, hl, smax, tmax, 16, 4, 1); break;
        case 1: build_blocks(dst, cw, texels, tw, th, s0, t0, hl, smax, tmax, 8, 3, 1); break;
        case 2: build_blocks(dst, cw, texels, tw, th, s0, t0, hl, smax, tmax, 4, 2, 1); break;
        default: build_blocks(dst, cw, texels, tw, th, s0, t0, hl, smax, tmax, 2, 1, 1); break;
        }
        return 1;
    }
    switch (mip) {
    case 0: build_blocks(dst, cw, texels, tw, th, s0, t0, hl, smax, tmax, 16, 4, 0); break;
    case 1: build_blocks(dst, cw, texels, tw, th, s0, t0, hl, smax, tmax, 8, 3, 0); break;
    case 2: build_blocks(dst, cw, texels, tw, th, s0, t0, hl, smax, tmax, 4, 2, 0); break;
    default: build_blocks(dst, cw, texels, tw, th, s0, t0, hl, smax, tmax, 2, 1, 0); break;
    }
    return 1;
}

// ---- studio models ----------------------------------------------------------------------------

// The level's light (Quake's scale, the brightest sample of a level about 150) in the engine's units,
// where 255 is the texture as painted: the lightmaps' full 255 is 150 after bsp.c's curve.
#define HL_LIGHT_SCALE (255.0f / 150.0f)

static float world_light(const r_view_t *v, float x, float y, float z, int fallback)
{
    if (!v->light_point_world)
        return (float)fallback * HL_LIGHT_SCALE;
    vec3_t p = { x, y, z };
    return (float)v->light_point_world(v->light_ctx, p) * HL_LIGHT_SCALE;
}

// The colour of the light where the segment start..end first meets a lit surface (the styles' sum
// of the BSP30 RGB samples, in the lightmap's curve): 1 with it in rgb, 0 when nothing lit is met.
static int rgb_trace(const renderer_t *r, int node, const float *start, const float *end, int depth, float rgb[3])
{
    const bsp_t *b = r->bsp;
    if (node < 0 || depth > 1024)
        return 0;
    const bsp_node_t *nd = &b->nodes[node];
    const bsp_plane_t *pl = &b->planes[nd->plane];
    float front = start[0] * pl->normal[0] + start[1] * pl->normal[1] + start[2] * pl->normal[2] - pl->dist;
    float back = end[0] * pl->normal[0] + end[1] * pl->normal[1] + end[2] * pl->normal[2] - pl->dist;
    int side = front < 0;
    if ((back < 0) == side)
        return rgb_trace(r, nd->children[side], start, end, depth + 1, rgb);
    float frac = front / (front - back), mid[3];
    for (int k = 0; k < 3; k++)
        mid[k] = start[k] + (end[k] - start[k]) * frac;
    if (rgb_trace(r, nd->children[side], start, mid, depth + 1, rgb))
        return 1;
    for (int i = 0; i < nd->numfaces; i++) {
        const bsp_face_t *f = &b->faces[nd->firstface + i];
        if (f->flags & (BSP_SURF_SKY | BSP_SURF_TURB | BSP_SURF_NODRAW))
            continue;
        const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
        float s = mid[0] * ti->vecs[0][0] + mid[1] * ti->vecs[0][1] + mid[2] * ti->vecs[0][2] + ti->vecs[0][3];
        float t = mid[0] * ti->vecs[1][0] + mid[1] * ti->vecs[1][1] + mid[2] * ti->vecs[1][2] + ti->vecs[1][3];
        int ds = (int)s - f->texturemins[0], dt = (int)t - f->texturemins[1];
        if (ds < 0 || dt < 0 || ds > f->extents[0] || dt > f->extents[1])
            continue;
        rgb[0] = rgb[1] = rgb[2] = 0;
        if (f->lightofs < 0 || !b->lightrgb)
            return 1;
        int smax = (f->extents[0] >> 4) + 1, tmax = (f->extents[1] >> 4) + 1;
        const uint8_t *lm = b->lightrgb + ((size_t)f->lightofs + (size_t)((dt >> 4) * smax + (ds >> 4))) * 3;
        for (int st = 0; st < BSP_MAXSTYLES && f->styles[st] != 255; st++) {
            for (int k = 0; k < 3; k++)
                rgb[k] += (float)(lm[k] * r->lightstyles[f->styles[st]]) / 256.0f;
            lm += (size_t)smax * (size_t)tmax * 3;
        }
        return 1;
    }
    return rgb_trace(r, nd->children[!side], mid, end, depth + 1, rgb);
}

void r_hl_model_light(const r_view_t *v, const vec3_t org, int fallback_light, r_hl_alight_t *out)
{
    memset(out, 0, sizeof *out);
    // the light under the model, traced down from 8 units above its origin
    float z = org[2] + 8;
    float total = world_light(v, org[0], org[1], z, fallback_light);
    // its colour (R_StudioDynamicLight's finalLight): the lit sample's RGB, then the dlights' colours
    float fin[3] = { 1, 1, 1 };
    const renderer_t *rr = v->light_point_world ? v->light_ctx : NULL;
    if (rr && rr->bsp && rr->bsp->lightrgb) {
        const float st[3] = { org[0], org[1], z }, en[3] = { org[0], org[1], z - 2048 };
        if (!rgb_trace(rr, rr->bsp->models[0].headnode, st, en, 0, fin))
            fin[0] = fin[1] = fin[2] = 0;
    }
    // no light direction in a BSP30 lightmap: the gradient of 4 samples 16 units around gives it
    float dir[3] = { 0, 0, -1 };
    if (v->light_point_world) {
        float g0 = world_light(v, org[0] - 16, org[1] - 16, z, 0) / 255.0f;
        float g1 = world_light(v, org[0] + 16, org[1] - 16, z, 0) / 255.0f;
        float g2 = world_light(v, org[0] + 16, org[1] + 16, z, 0) / 255.0f;
        float g3 = world_light(v, org[0] - 16, org[1] + 16, z, 0) / 255.0f;
        dir[0] = g0 - g1 - g2 + g3;
        dir[1] = g1 + g0 - g2 - g3;
    }
    float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (total <= 0)
        total = 1;
    for (int k = 0; k < 3; k++)
        dir[k] *= total / len;
    // dlights reaching the model add to the total and pull the direction away from them
    for (int l = 0; l < v->num_dlights && l < R_MAX_DLIGHTS; l++) {
        const r_dlight_t *dl = &v->dlights[l];
        if (dl->elight || dl->radius <= 0)
            continue;
        float d[3] = { org[0] - dl->origin[0], org[1] - dl->origin[1], org[2] - dl->origin[2] };
        float dist = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        float add = dl->radius - dist;
        if (add <= 0)
            continue;
        total += add;
        float s = dist > 1 ? add / dist : add;
        for (int k = 0; k < 3; k++)
            dir[k] += d[k] * s;
        // its colour x add / 256 x 2 (white for the uncoloured ones: muzzle flashes, EF_*LIGHT)
        for (int k = 0; k < 3; k++) {
            int c = dl->rgb ? (int)((dl->rgb >> (16 - 8 * k)) & 255) : 255;
            fin[k] += (float)c * add / 256.0f * 2.0f;
        }
    }
    float fmax = fin[0] > fin[1] ? (fin[0] > fin[2] ? fin[0] : fin[2]) : (fin[1] > fin[2] ? fin[1] : fin[2]);
    for (int k = 0; k < 3; k++)
        out->color[k] = fmax > 0 && isfinite(fmax) ? fin[k] / fmax : 1;
    // v_direct 0.9: that much of the light is the directed shade, the rest ambient
    for (int k = 0; k < 3; k++)
        dir[k] *= 0.9f;
    float shade = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    float ambient = total - shade;
    if (ambient > 128)
        ambient = 128;
    if (ambient + shade > 255)
        shade = 255 - ambient;
    out->ambient = ambient;
    out->shade = shade;
    len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (len > 0) {
        for (int k = 0; k < 3; k++)
            out->lightvec[k] = dir[k] / len;
    } else {
        out->lightvec[2] = -1;
    }
    // entity lights: those whose strength at the origin (radius^2 / distance^2, at most 1) is above
    // 0.05, the strongest HLL_MAX_ELIGHTS
    float strength[HLL_MAX_ELIGHTS] = { 0 };
    for (int l = 0; l < v->num_dlights && l < R_MAX_DLIGHTS; l++) {
        const r_dlight_t *el = &v->dlights[l];
        if (!el->elight || el->radius <= 0)
            continue;
        float d[3] = { org[0] - el->origin[0], org[1] - el->origin[1], org[2] - el->origin[2] };
        float f2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], r2 = el->radius * el->radius;
        float st = f2 > r2 ? r2 / f2 : 1;
        if (st <= 0.05f)
            continue;
        int k = out->num_elights;
        if (k >= HLL_MAX_ELIGHTS) {   // replace the weakest, if weaker
            k = -1;
            for (int j = 0; j < HLL_MAX_ELIGHTS; j++)
                if (strength[j] < st && (k < 0 || strength[j] < strength[k]))
                    k = j;
            if (k < 0)
                continue;
        } else {
            out->num_elights++;
        }
        strength[k] = st;
        memcpy(out->el_org[k], el->origin, sizeof(vec3_t));
        out->el_r2[k] = r2;
        int m = 255;
        if (el->rgb & 0x1000000u) {
            int cr = (int)(el->rgb >> 16) & 255, cg = (int)(el->rgb >> 8) & 255, cb = (int)el->rgb & 255;
            m = cr > cg ? cr : cg;
            m = m > cb ? m : cb;
        }
        out->el_intensity[k] = (float)m;
    }
}

float r_hl_elight_illum(const r_hl_alight_t *al, const float pos[3], const float normal[3])
{
    float sum = 0;
    for (int i = 0; i < al->num_elights; i++) {
        float d[3] = { al->el_org[i][0] - pos[0], al->el_org[i][1] - pos[1], al->el_org[i][2] - pos[2] };
        float d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        float r = normal[0] * d[0] + normal[1] * d[1] + normal[2] * d[2];
        if (r <= 0 || d2 <= 0)
            continue;
        // the light's colour x cos x radius^2 / distance^2 (the engine caps that factor at 255)
        float s = r * al->el_r2[i] / (d2 * sqrtf(d2));
        sum += al->el_intensity[i] * (s > 255 ? 255 : s);
    }
    return sum;
}

const uint8_t *r_hl_model_colormap(const r_view_t *v, const float color[3])
{
    const renderer_t *r = v->light_point_world ? v->light_ctx : NULL;
    r_hllight_t *hl = r ? r->hllight : NULL;
    if (!hl || !hl->ready || !v->hlmodes || !color)
        return NULL;
    int q[3];
    for (int k = 0; k < 3; k++) {
        float c = color[k];
        q[k] = c > 0 && c <= 1 ? (int)(c * 31 + 0.5f) : c > 1 ? 31 : 0;
    }
    if ((q[0] == 31 && q[1] == 31 && q[2] == 31) || (q[0] | q[1] | q[2]) == 0)
        return NULL;   // white (or no colour given): the level's own colormap
    uint32_t key = (uint32_t)(q[0] << 10 | q[1] << 5 | q[2]) + 1;
    int slot = 0;
    hl->tick++;
    for (int i = 0; i < 8; i++) {
        if (hl->tint_key[i] == key) {
            hl->tint_used[i] = hl->tick;
            return hl->tint[i];
        }
        if (hl->tint_used[i] < hl->tint_used[slot])
            slot = i;
    }
    // rows as the level's colormap (pal_make_colormap): (64 - row) / 32 of the colour, here times the
    // light's; the nearest palette colour by the level's 5:5:5 table; 255 ('{' see-through) kept
    uint8_t *t = hl->tint[slot];
    for (int row = 0; row < 64; row++) {
        float sc = (float)(64 - row) / 32.0f;
        for (int c = 0; c < 256; c++) {
            if (c == 255) {
                t[row * 256 + c] = 255;
                continue;
            }
            int rgb[3];
            for (int k = 0; k < 3; k++) {
                float x = (float)hl->palette[c * 3 + k] * sc * (float)q[k] / 31.0f;
                rgb[k] = x > 255 ? 255 : (int)x;
            }
            t[row * 256 + c] = r_hl_nearest(v->hlmodes, rgb[0], rgb[1], rgb[2]);
        }
    }
    hl->tint_key[slot] = key;
    hl->tint_used[slot] = hl->tick;
    return t;
}
