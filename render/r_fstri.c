// r_fstri.c -- a Forsaken model triangle: near clip, projection, z-test, perspective-correct
// texture (exact every 16 pixels), Gouraud light rows (see r_fstri.h)
#include "r_fstri.h"

#include <math.h>

#define NEAR_Z 1.0f
#define SUBDIV 16
#define MAX_TEX_COORD 4096.0f
#define MAX_SCREEN 1.0e6f

typedef struct {
    float sx, sy;
    float zi, sz, tz, row;
} pvert_t;

static inline float clampf(float v, float lo, float hi) { return !(v > lo) ? lo : v > hi ? hi : v; }

static void span(const r_view_t *v, const r_fstex_t *tex, int y, int x0, int x1, float zi, float sz, float tz, float row,
                 float dzi, float dsz, float dtz, float drow)
{
    uint8_t *dst = v->buffer + (size_t)y * (size_t)v->rowbytes;
    float *zrow = v->zbuffer + (size_t)y * (size_t)v->width;
    const uint8_t *cmap = v->colormap;
    int light = (int)(clampf(row, 0, 63) * 65536), dlight = (int)(clampf(drow, -64, 64) * 65536);
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
        for (int i = 0; i < n; i++, x++) {
            if (zi >= zrow[x]) {
                int l = light >> 16;
                l = l < 0 ? 0 : l > 63 ? 63 : l;
                if (tex->texels) {
                    uint32_t tu = (uint32_t)(u >> 16) & (uint32_t)tex->wmask, tv = (uint32_t)(w >> 16) & (uint32_t)tex->hmask;
                    size_t at = ((size_t)tv << tex->wshift) + tu;
                    if (!tex->key || tex->key[at]) {
                        uint8_t c = cmap[l * 256 + tex->texels[at]];
                        if (tex->blend)
                            dst[x] = tex->blend[c * 256 + dst[x]];
                        else {
                            zrow[x] = zi;
                            dst[x] = c;
                        }
                    }
                } else {
                    uint8_t c = cmap[l * 256 + (tex->color & 255)];
                    if (tex->blend)
                        dst[x] = tex->blend[c * 256 + dst[x]];
                    else {
                        zrow[x] = zi;
                        dst[x] = c;
                    }
                }
            }
            zi += dzi;
            u += du;
            w += dw;
            light += dlight;
        }
        sz = sz2;
        tz = tz2;
        s = s2;
        t = t2;
    }
}

static void raster(const r_view_t *v, const r_fstex_t *tex, const pvert_t *a, const pvert_t *b, const pvert_t *d)
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
    GRAD(row, drowdx, drowdy)
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
        span(v, tex, y, x0, x1, a->zi + px * dzidx + py * dzidy, a->sz + px * dszdx + py * dszdy,
             a->tz + px * dtzdx + py * dtzdy, a->row + px * drowdx + py * drowdy, dzidx, dszdx, dtzdx, drowdx);
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
    out->row = in->row;
}

int r_fstri_draw(const r_view_t *v, const r_fstex_t *tex, const r_fsvert_t in[3], int two_sided)
{
    int behind = 0;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(in[k].x) || !isfinite(in[k].y) || !isfinite(in[k].z) || !isfinite(in[k].s) || !isfinite(in[k].t) ||
            !isfinite(in[k].row))
            return 0;
        behind += in[k].z < NEAR_Z;
    }
    if (behind == 3)
        return 0;
    if (!two_sided) {
        float e1[3] = { in[1].x - in[0].x, in[1].y - in[0].y, in[1].z - in[0].z };
        float e2[3] = { in[2].x - in[0].x, in[2].y - in[0].y, in[2].z - in[0].z };
        float n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
        if (!(-(n[0] * in[0].x + n[1] * in[0].y + n[2] * in[0].z) > 0))
            return 0;
    }
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
            o->row = p->row + (q->row - p->row) * f;
        }
    }
    pvert_t pv[4];
    for (int k = 0; k < nc; k++)
        project(v, &clip[k], &pv[k]);
    for (int k = 1; k + 1 < nc; k++)
        raster(v, tex, &pv[0], &pv[k], &pv[k + 1]);
    return 1;
}
