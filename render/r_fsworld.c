// r_fsworld.c -- Forsaken levels: every MXV triangle clipped to the near plane, z-buffered,
// perspective-correct textured (exact every 16 pixels, as d_span.c) and Gouraud lit from
// the baked vertex colours through the colormap
#include "r_fsworld.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NEAR_Z 1.0f        // level units (a corridor is 256-1024 wide)
#define SUBDIV 16
#define MAX_TEX_COORD 4096.0f   // texture wraps kept after the per-triangle shift (16.16 stays in range)
#define MAX_SCREEN 1.0e6f

struct r_fsworld_s {
    mxv_t *m;
    float *cam;        // per vertex, this frame: right, up, forward distances from the eye
    float *row;        // per vertex: colormap light row (32 = as painted .. 63 = black)
    int *wshift;       // per texture: log2 of the width (rows are that long)
};

typedef struct {
    float x, y, z;     // camera space
    float s, t;        // texels
    float row;
} cvert_t;

typedef struct {
    float sx, sy;      // screen
    float zi, sz, tz, row;
} pvert_t;

static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// NaN-safe clamp: anything not inside [lo, hi] (NaN included) goes to a bound.
static inline float clampf(float v, float lo, float hi) { return !(v > lo) ? lo : v > hi ? hi : v; }

void r_fs_angle_vectors(const float angles[3], float forward[3], float right[3], float up[3])
{
    double p = angles[0] * (M_PI / 180), y = angles[1] * (M_PI / 180), r = angles[2] * (M_PI / 180);
    double sp = sin(p), cp = cos(p), sy = sin(y), cy = cos(y), sr = sin(r), cr = cos(r);
    // The columns of Ry(yaw) Rx(pitch) Rz(roll): the images of z, x and y.
    forward[0] = (float)(cp * sy);
    forward[1] = (float)(-sp);
    forward[2] = (float)(cp * cy);
    right[0] = (float)(cr * cy + sr * sp * sy);
    right[1] = (float)(sr * cp);
    right[2] = (float)(-cr * sy + sr * sp * cy);
    up[0] = (float)(-sr * cy + cr * sp * sy);
    up[1] = (float)(cr * cp);
    up[2] = (float)(sr * sy + cr * sp * cy);
}

void r_fsworld_free(r_fsworld_t *fw)
{
    if (!fw)
        return;
    mxv_free(fw->m);
    free(fw->cam);
    free(fw->row);
    free(fw->wshift);
    free(fw);
}

const mxv_t *r_fsworld_mesh(const r_fsworld_t *fw) { return fw ? fw->m : NULL; }
const uint8_t *r_fsworld_palette(const r_fsworld_t *fw) { return fw->m->palette; }

r_fsworld_t *r_fsworld_from_bytes(const uint8_t *data, size_t size, const char *map, const asset_files_t *files, char *err,
                                  size_t errcap)
{
    mxv_t *m = mxv_load(data, size, map, err, errcap);
    if (!m)
        return NULL;
    // Textures live next to the level: "levels/ship/ship.mxv" -> "levels/ship".
    char dir[256];
    snprintf(dir, sizeof dir, "%s", map ? map : "");
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    r_fsworld_t *fw = calloc(1, sizeof(*fw));
    if (!fw || mxv_load_textures(m, files, dir) < 0) {
        if (err && errcap)
            snprintf(err, errcap, "%s: out of memory for the textures", map ? map : "mxv");
        mxv_free(m);
        free(fw);
        return NULL;
    }
    fw->m = m;
    size_t nv = m->num_verts ? (size_t)m->num_verts : 1;
    fw->cam = malloc(nv * 3 * sizeof(float));
    fw->row = malloc(nv * sizeof(float));
    fw->wshift = calloc(m->num_textures ? (size_t)m->num_textures : 1, sizeof(int));
    if (!fw->cam || !fw->row || !fw->wshift) {
        if (err && errcap)
            snprintf(err, errcap, "%s: out of memory for %d vertices", map ? map : "mxv", m->num_verts);
        r_fsworld_free(fw);
        return NULL;
    }
    // Direct3D modulated the texture by the vertex colour: full colour is the texture
    // as painted (row 32), black is black (row 63).
    for (int i = 0; i < m->num_verts; i++)
        fw->row[i] = 63.0f - m->verts[i].light * (31.0f / 255.0f);
    for (int i = 0; i < m->num_textures; i++)
        while ((1 << fw->wshift[i]) < m->textures[i].width)
            fw->wshift[i]++;
    return fw;
}

static uint8_t *vfs_file(void *ctx, const char *path, size_t *size) { return vfs_load(ctx, path, size); }

r_fsworld_t *r_fsworld_load(vfs_t *fs, const char *map, char *err, size_t errcap)
{
    size_t size = 0;
    uint8_t *data = fs ? vfs_load(fs, map, &size) : NULL;
    if (!data) {
        if (err && errcap)
            snprintf(err, errcap, "%s: not found in the game folders (%d searched)", map, fs ? vfs_count(fs) : 0);
        return NULL;
    }
    asset_files_t files = { vfs_file, fs };
    r_fsworld_t *fw = r_fsworld_from_bytes(data, size, map, &files, err, errcap);
    free(data);
    return fw;
}

// ---- rasterizing ------------------------------------------------------------------

typedef struct {
    const r_view_t *v;
    const uint8_t *texels;
    int wshift, wmask, hmask;
} tri_ctx_t;

// One span row: 1/z, s/z, t/z linear across it; true s, t every SUBDIV pixels.
static void span(const tri_ctx_t *c, int y, int x0, int x1, float zi, float sz, float tz, float row, float dzi, float dsz,
                 float dtz, float drow)
{
    const r_view_t *v = c->v;
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
                zrow[x] = zi;
                uint32_t tu = (uint32_t)(u >> 16) & (uint32_t)c->wmask, tv = (uint32_t)(w >> 16) & (uint32_t)c->hmask;
                int l = light >> 16;
                l = l < 0 ? 0 : l > 63 ? 63 : l;
                dst[x] = cmap[l * 256 + c->texels[(tv << c->wshift) + tu]];
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

static void raster_tri(const tri_ctx_t *c, const pvert_t *a, const pvert_t *b, const pvert_t *d)
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
    const pvert_t *v[3] = { a, b, d };   // sorted top to bottom
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2 - i; j++)
            if (v[j]->sy > v[j + 1]->sy) {
                const pvert_t *tmp = v[j];
                v[j] = v[j + 1];
                v[j + 1] = tmp;
            }
    int vw = c->v->width, vh = c->v->height;
    int y0 = (int)clampf(ceilf(v[0]->sy - 0.5f), 0, (float)vh), y1 = (int)clampf(ceilf(v[2]->sy - 0.5f), 0, (float)vh);
    float long_dx = (v[2]->sx - v[0]->sx) / (v[2]->sy - v[0]->sy);
    for (int y = y0; y < y1; y++) {
        float yc = y + 0.5f;
        float xa = v[0]->sx + (yc - v[0]->sy) * long_dx, xb;
        if (yc < v[1]->sy)
            xb = v[0]->sx + (yc - v[0]->sy) * (v[1]->sx - v[0]->sx) / (v[1]->sy - v[0]->sy);
        else
            xb = v[1]->sx + (yc - v[1]->sy) * (v[2]->sx - v[1]->sx) / (v[2]->sy - v[1]->sy);
        if (xa > xb) {
            float tmp = xa;
            xa = xb;
            xb = tmp;
        }
        int x0 = (int)clampf(ceilf(xa - 0.5f), 0, (float)vw), x1 = (int)clampf(ceilf(xb - 0.5f), 0, (float)vw);
        if (x1 <= x0)
            continue;
        float px = x0 + 0.5f - a->sx, py = yc - a->sy;
        span(c, y, x0, x1, a->zi + px * dzidx + py * dzidy, a->sz + px * dszdx + py * dszdy, a->tz + px * dtzdx + py * dtzdy,
             a->row + px * drowdx + py * drowdy, dzidx, dszdx, dtzdx, drowdx);
    }
}

static void project(const r_view_t *v, const cvert_t *in, pvert_t *out)
{
    float zi = 1.0f / in->z;
    out->sx = clampf(v->xcenter + v->xscale * in->x * zi, -MAX_SCREEN, MAX_SCREEN);
    out->sy = clampf(v->ycenter - v->yscale * in->y * zi, -MAX_SCREEN, MAX_SCREEN);
    out->zi = zi;
    out->sz = in->s * zi;
    out->tz = in->t * zi;
    out->row = in->row;
}

static void lerp_vert(const cvert_t *a, const cvert_t *b, float f, cvert_t *o)
{
    o->x = a->x + (b->x - a->x) * f;
    o->y = a->y + (b->y - a->y) * f;
    o->z = NEAR_Z;
    o->s = a->s + (b->s - a->s) * f;
    o->t = a->t + (b->t - a->t) * f;
    o->row = a->row + (b->row - a->row) * f;
}

static int draw_tri(const r_fsworld_t *fw, const r_view_t *v, const mxv_tri_t *t)
{
    const mxv_t *m = fw->m;
    const mxv_texture_t *tex = &m->textures[t->texture];
    cvert_t in[3];
    float smin = INFINITY, tmin = INFINITY;
    int behind = 0;
    for (int k = 0; k < 3; k++) {
        const float *c = fw->cam + (size_t)t->v[k] * 3;
        if (!isfinite(c[0]) || !isfinite(c[1]) || !isfinite(c[2]))
            return 0;
        const mxv_vertex_t *mv = &m->verts[t->v[k]];
        in[k] = (cvert_t){ c[0], c[1], c[2], mv->st[0], mv->st[1], fw->row[t->v[k]] };
        if (!isfinite(in[k].s) || fabsf(in[k].s) > 1e6f)
            in[k].s = 0;
        if (!isfinite(in[k].t) || fabsf(in[k].t) > 1e6f)
            in[k].t = 0;
        smin = in[k].s < smin ? in[k].s : smin;
        tmin = in[k].t < tmin ? in[k].t : tmin;
        behind += c[2] < NEAR_Z;
    }
    if (behind == 3)
        return 0;
    // The triangle's front faces the eye when its winding normal points at it
    // (the file's normals agree with the winding on every level).
    float e1[3] = { in[1].x - in[0].x, in[1].y - in[0].y, in[1].z - in[0].z };
    float e2[3] = { in[2].x - in[0].x, in[2].y - in[0].y, in[2].z - in[0].z };
    float n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
    // Camera axes (right, up, forward) have the level's handedness: same test as in level space.
    if (!(-dot3(n, &in[0].x) > 0))
        return 0;
    // Whole texture wraps off, so texel coordinates stay small.
    float so = floorf(smin), to = floorf(tmin);
    for (int k = 0; k < 3; k++) {
        in[k].s = clampf((in[k].s - so) * (float)tex->width, -MAX_TEX_COORD, MAX_TEX_COORD);
        in[k].t = clampf((in[k].t - to) * (float)tex->height, -MAX_TEX_COORD, MAX_TEX_COORD);
    }
    cvert_t clip[4];
    int nc = 0;
    for (int k = 0; k < 3; k++) {
        const cvert_t *p = &in[k], *q = &in[(k + 1) % 3];
        int pin = p->z >= NEAR_Z, qin = q->z >= NEAR_Z;
        if (pin)
            clip[nc++] = *p;
        if (pin != qin)
            lerp_vert(p, q, (NEAR_Z - p->z) / (q->z - p->z), &clip[nc++]);
    }
    pvert_t pv[4];
    for (int k = 0; k < nc; k++)
        project(v, &clip[k], &pv[k]);
    tri_ctx_t c = { v, m->texels + tex->offset, fw->wshift[t->texture], tex->width - 1, tex->height - 1 };
    for (int k = 1; k + 1 < nc; k++)
        raster_tri(&c, &pv[0], &pv[k], &pv[k + 1]);
    return 1;
}

int r_fsworld_draw(r_fsworld_t *fw, const r_view_t *v)
{
    if (!fw || !fw->m->texels)
        return 0;
    const mxv_t *m = fw->m;
    for (int i = 0; i < m->num_verts; i++) {
        const float *p = m->verts[i].pos;
        float d[3] = { p[0] - v->vieworg[0], p[1] - v->vieworg[1], p[2] - v->vieworg[2] };
        float *c = fw->cam + (size_t)i * 3;
        c[0] = dot3(d, v->vright);
        c[1] = dot3(d, v->vup);
        c[2] = dot3(d, v->vpn);
    }
    int drawn = 0;
    for (int i = 0; i < m->num_tris; i++)
        drawn += draw_tri(fw, v, &m->tris[i]);
    return drawn;
}
