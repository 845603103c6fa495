// r_fstri.c -- a Forsaken triangle (the level's, a model's, an effect's): near clip, projection,
// z-test, perspective-correct texture (exact every 16 pixels), the vertex colours per pixel
// (see r_fstri.h)
#include "r_fstri.h"

#include <math.h>
#include <string.h>

#define NEAR_Z 1.0f
#define SUBDIV 16
#define MAX_TEX_COORD 4096.0f
#define MAX_SCREEN 1.0e6f
#define FLAT_AREA_MIN 8192.0f   // screen pixels: a triangle this large with one light shades each colour once a phase

typedef struct {
    float sx, sy;
    float zi, sz, tz, l[3];
} pvert_t;

static inline float clampf(float v, float lo, float hi) { return !(v > lo) ? lo : v > hi ? hi : v; }

// One span: 1/z, s/z, t/z and the three light levels linear (levels clamped at both ends, so
// every pixel between is in range). The modes are constants at each call, so each combination
// is its own loop: `rgb` through the level's tables and dither (else the colormap row of the
// brightest level), `textured` (else tex->color), `keyed` (key texels not drawn), `blend`
// (see-through through the table, z not written).
static inline __attribute__((always_inline)) void span_body(const r_view_t *v, const r_fstex_t *tex, const int rgb,
                                                            const int textured, const int keyed, const int blend, int y,
                                                            int x0, int x1, float zi, float sz, float tz, const float *l,
                                                            float dzi, float dsz, float dtz, const float *dl,
                                                            uint16_t (*memo)[256])
{
    uint8_t *dst = v->buffer + (size_t)y * (size_t)v->rowbytes;
    float *zrow = v->zbuffer + (size_t)y * (size_t)v->width;
    const uint8_t *cmap = v->colormap;
    const r_fsshade_t *sh = tex->shade;
    const uint8_t *tr = rgb ? sh->tab[0] : NULL, *tg = rgb ? sh->tab[1] : NULL, *tb = rgb ? sh->tab[2] : NULL;
    const uint32_t *mix = rgb ? sh->mix : NULL;
    const uint8_t *d1 = rgb ? sh->pattern[y & 3] : NULL, *d2 = rgb ? sh->pattern[(y + 1) & 3] : NULL;
    const uint8_t *texels = tex->texels, *key = tex->key;
    const uint32_t wmask = (uint32_t)tex->wmask, hmask = (uint32_t)tex->hmask;
    const int wshift = tex->wshift;
    int lc[3], dlc[3], last = x1 - x0 - 1;
    for (int k = 0; k < 3; k++) {
        float a = clampf(l[k], 0, R_FS_LEVELS - 0.01f), b = clampf(l[k] + dl[k] * (float)last, 0, R_FS_LEVELS - 0.01f);
        lc[k] = (int)(a * 256);
        dlc[k] = last > 0 ? (int)((b - a) * 256 / (float)last) : 0;   // cut towards a: never past b
    }
    float zc = zi > 1e-6f ? zi : 1e-6f;
    float s = clampf(sz / zc, -MAX_TEX_COORD, MAX_TEX_COORD), t = clampf(tz / zc, -MAX_TEX_COORD, MAX_TEX_COORD);
    int x = x0;
    while (x < x1) {
        int n = x1 - x < SUBDIV ? x1 - x : SUBDIV;
        float zi2 = zi + dzi * n, sz2 = sz + dsz * n, tz2 = tz + dtz * n;
        float zc2 = zi2 > 1e-6f ? zi2 : 1e-6f;
        float s2 = clampf(sz2 / zc2, -MAX_TEX_COORD, MAX_TEX_COORD), t2 = clampf(tz2 / zc2, -MAX_TEX_COORD, MAX_TEX_COORD);
        int32_t u = (int32_t)(s * 65536), w = (int32_t)(t * 65536);
        int32_t du = (int32_t)((s2 - s) * 65536 / n), dw = (int32_t)((t2 - t) * 65536 / n);
        for (const int xe = x + n; x < xe; x++) {
            if (zi >= zrow[x]) {
                unsigned colour = (unsigned)tex->color & 255u;
                int drawn = 1;
                if (textured) {
                    uint32_t tu = (uint32_t)(u >> 16) & wmask, tv = (uint32_t)(w >> 16) & hmask;
                    uint32_t at = (tv << wshift) + tu;
                    if (keyed && key[at])
                        drawn = 0;   // the key colour: nothing drawn, what is behind shows
                    else
                        colour = texels[at];
                }
                if (drawn) {
                    uint8_t c;
                    if (rgb) {   // r_dither_pick with this row's two pattern rows
                        uint16_t *m = memo ? &memo[x & 3][colour] : NULL;
                        if (m && *m) {
                            c = (uint8_t)(*m - 1);
                        } else {
                            unsigned dd = d1[x & 3] >> 1;
                            unsigned cr = tr[((unsigned)lc[0] & 0x3f00u) + colour] + dd;
                            unsigned cg = tg[((unsigned)lc[1] & 0x3f00u) + colour] + dd;
                            unsigned cb = tb[((unsigned)lc[2] & 0x3f00u) + colour] + dd;
                            uint32_t e = mix[(cr & 0xf8u) << 7 | (cg & 0xf8u) << 2 | cb >> 3];
                            c = (uint8_t)(d2[(x + 2) & 3] < (e >> 16) ? e >> 8 : e);
                            if (m)
                                *m = (uint16_t)(c + 1);
                        }
                    } else {
                        int m = lc[0] > lc[1] ? lc[0] : lc[1];
                        m = m > lc[2] ? m : lc[2];
                        int row = 63 - (m >> 8) * 31 / (R_FS_LEVELS - 1);   // 63 = black, 32 = as painted
                        c = cmap[row * 256 + colour];
                    }
                    if (blend) {
                        const uint8_t *brow = tex->blend + c * 256;
                        if (tex->blend_ready && !tex->blend_ready[c])
                            brow = tex->blend_row(tex->blend_ctx, c);
                        dst[x] = brow[dst[x]];
                    } else {
                        zrow[x] = zi;
                        dst[x] = c;
                    }
                }
            }
            zi += dzi;
            u += du;
            w += dw;
            lc[0] += dlc[0];
            lc[1] += dlc[1];
            lc[2] += dlc[2];
        }
        sz = sz2;
        tz = tz2;
        s = s2;
        t = t2;
    }
}

// The span loop for a texture's modes (span_mode).
static void span(const r_view_t *v, const r_fstex_t *tex, int mode, int y, int x0, int x1, float zi, float sz, float tz,
                 const float *l, float dzi, float dsz, float dtz, const float *dl, uint16_t (*memo)[256])
{
#define SPAN(rgb, tx, k, b) span_body(v, tex, rgb, tx, k, b, y, x0, x1, zi, sz, tz, l, dzi, dsz, dtz, dl, rgb ? memo : NULL)
    switch (mode) {
    case 0: SPAN(0, 0, 0, 0); break;
    case 1: SPAN(0, 0, 0, 1); break;
    case 4: SPAN(0, 1, 0, 0); break;
    case 5: SPAN(0, 1, 0, 1); break;
    case 6: SPAN(0, 1, 1, 0); break;
    case 7: SPAN(0, 1, 1, 1); break;
    case 8: SPAN(1, 0, 0, 0); break;
    case 9: SPAN(1, 0, 0, 1); break;
    case 12: SPAN(1, 1, 0, 0); break;
    case 13: SPAN(1, 1, 0, 1); break;
    case 14: SPAN(1, 1, 1, 0); break;
    default: SPAN(1, 1, 1, 1); break;
    }
#undef SPAN
}

static int span_mode(const r_fstex_t *tex)
{
    return (tex->shade != NULL) << 3 | (tex->texels != NULL) << 2 | (tex->texels && tex->key) << 1 | (tex->blend != NULL);
}

static void raster(const r_view_t *v, const r_fstex_t *tex, int mode, const pvert_t *a, const pvert_t *b, const pvert_t *d)
{
    float det = (b->sx - a->sx) * (d->sy - a->sy) - (d->sx - a->sx) * (b->sy - a->sy);
    if (!(fabsf(det) > 1e-3f))
        return;
    float id = 1.0f / det;
    float e1x = b->sx - a->sx, e1y = b->sy - a->sy, e2x = d->sx - a->sx, e2y = d->sy - a->sy;
#define GRAD(f, gx, gy)                                                                                              \
    float gx = (((b->f - a->f) * e2y) - ((d->f - a->f) * e1y)) * id;                                                 \
    float gy = (((d->f - a->f) * e1x) - ((b->f - a->f) * e2x)) * id;
    GRAD(zi, dzidx, dzidy)
    GRAD(sz, dszdx, dszdy)
    GRAD(tz, dtzdx, dtzdy)
    GRAD(l[0], dl0dx, dl0dy)
    GRAD(l[1], dl1dx, dl1dy)
    GRAD(l[2], dl2dx, dl2dy)
#undef GRAD
    const pvert_t *p[3] = { a, b, d };
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2 - i; j++)
            if (p[j]->sy > p[j + 1]->sy) {
                const pvert_t *tmp = p[j];
                p[j] = p[j + 1];
                p[j + 1] = tmp;
            }
    int vw = v->width, vh = v->height;
    int y0 = (int)clampf(ceilf(p[0]->sy - 0.5f), 0, (float)vh), y1 = (int)clampf(ceilf(p[2]->sy - 0.5f), 0, (float)vh);
    // One light over a large triangle (a sprite, most often): each (texel colour, x & 3, y & 3)
    // is shaded once, as the dither's pattern rows depend on x & 3 and y & 3 alone then
    // (memo: the colour + 1, 0 not yet). The same pixels as shading each one.
    uint16_t memo[4][4][256];
    int flat = (mode & 8) && dl0dx == 0 && dl0dy == 0 && dl1dx == 0 && dl1dy == 0 && dl2dx == 0 && dl2dy == 0 &&
               fabsf(det) >= 2.0f * FLAT_AREA_MIN;
    if (flat)
        memset(memo, 0, sizeof memo);
    if (y0 < v->y0)   // a band: its rows only (each row is computed from the vertices alone)
        y0 = v->y0;
    if (y1 > r_view_y1(v))
        y1 = r_view_y1(v);
    float long_dx = (p[2]->sx - p[0]->sx) / (p[2]->sy - p[0]->sy);
    for (int y = y0; y < y1; y++) {
        float yc = y + 0.5f;
        float xa = p[0]->sx + (yc - p[0]->sy) * long_dx, xb;
        if (yc < p[1]->sy)
            xb = p[0]->sx + (yc - p[0]->sy) * (p[1]->sx - p[0]->sx) / (p[1]->sy - p[0]->sy);
        else
            xb = p[1]->sx + (yc - p[1]->sy) * (p[2]->sx - p[1]->sx) / (p[2]->sy - p[1]->sy);
        if (xa > xb) {
            float tmp = xa;
            xa = xb;
            xb = tmp;
        }
        int x0 = (int)clampf(ceilf(xa - 0.5f), 0, (float)vw), x1 = (int)clampf(ceilf(xb - 0.5f), 0, (float)vw);
        if (x1 <= x0)
            continue;
        float px = x0 + 0.5f - a->sx, py = yc - a->sy;
        float l[3] = { a->l[0] + px * dl0dx + py * dl0dy, a->l[1] + px * dl1dx + py * dl1dy, a->l[2] + px * dl2dx + py * dl2dy };
        float dl[3] = { dl0dx, dl1dx, dl2dx };
        span(v, tex, mode, y, x0, x1, a->zi + px * dzidx + py * dzidy, a->sz + px * dszdx + py * dszdy,
             a->tz + px * dtzdx + py * dtzdy, l, dzidx, dszdx, dtzdx, dl, flat ? memo[y & 3] : NULL);
    }
}

static void project(const r_view_t *v, const r_fsvert_t *in, pvert_t *out)
{
    float zi = 1.0f / in->z;
    out->sx = clampf(v->xcenter + v->xscale * in->x * zi, -MAX_SCREEN, MAX_SCREEN);
    out->sy = clampf(v->ycenter - v->yscale * in->y * zi, -MAX_SCREEN, MAX_SCREEN);
    out->zi = zi;
    out->sz = in->s * zi;
    out->tz = in->t * zi;
    for (int k = 0; k < 3; k++)
        out->l[k] = in->l[k];
}

int r_fstri_facing(const r_fsvert_t in[3])
{
    if (in[0].z < NEAR_Z && in[1].z < NEAR_Z && in[2].z < NEAR_Z)
        return 0;
    float e1[3] = { in[1].x - in[0].x, in[1].y - in[0].y, in[1].z - in[0].z };
    float e2[3] = { in[2].x - in[0].x, in[2].y - in[0].y, in[2].z - in[0].z };
    float n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
    return -(n[0] * in[0].x + n[1] * in[0].y + n[2] * in[0].z) > 0;
}

int r_fstri_draw(const r_view_t *v, const r_fstex_t *tex, const r_fsvert_t in[3], int two_sided)
{
    int behind = 0;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(in[k].x) || !isfinite(in[k].y) || !isfinite(in[k].z) || !isfinite(in[k].s) || !isfinite(in[k].t) ||
            !isfinite(in[k].l[0]) || !isfinite(in[k].l[1]) || !isfinite(in[k].l[2]))
            return 0;
        behind += in[k].z < NEAR_Z;
    }
    if (behind == 3 || (!two_sided && !r_fstri_facing(in)))
        return 0;
    r_fsvert_t clip[4];
    int nc = 0;
    for (int k = 0; k < 3; k++) {
        const r_fsvert_t *p = &in[k], *q = &in[(k + 1) % 3];
        int pin = p->z >= NEAR_Z, qin = q->z >= NEAR_Z;
        if (pin)
            clip[nc++] = *p;
        if (pin != qin) {
            float f = (NEAR_Z - p->z) / (q->z - p->z);
            r_fsvert_t *o = &clip[nc++];
            o->x = p->x + (q->x - p->x) * f;
            o->y = p->y + (q->y - p->y) * f;
            o->z = NEAR_Z;
            o->s = p->s + (q->s - p->s) * f;
            o->t = p->t + (q->t - p->t) * f;
            for (int c = 0; c < 3; c++)
                o->l[c] = p->l[c] + (q->l[c] - p->l[c]) * f;
        }
    }
    pvert_t pv[4];
    for (int k = 0; k < nc; k++)
        project(v, &clip[k], &pv[k]);
    int mode = span_mode(tex);
    for (int k = 1; k + 1 < nc; k++)
        raster(v, tex, mode, &pv[0], &pv[k], &pv[k + 1]);
    return 1;
}
