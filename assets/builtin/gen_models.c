// gen_models.c -- progs/*.mdl (Quake alias models, "IDPO" version 6) and progs/*.spr (sprites, "IDSP" version 1)
//
// Models are built from boxes, prisms and facets in float model space (x forward,
// y left, z up), one set of positions per frame over a shared topology. Each
// triangle winds clockwise seen from outside: a front face in Quake's models and
// for the renderer. Every face gets its own vertices and its own rectangle of
// the skin, so flat faces keep flat normals (nearest of Quake's 162 anorms) and
// painting a face is painting its rectangle. The byte vertices of all frames
// share one scale/translate: the bounds over every frame.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mdl.h"
#include "gen.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

// ---- byte buffer -------------------------------------------------------------------

typedef struct {
    uint8_t *b;
    size_t n, cap;
    int bad;
} buf_t;

static void buf_bytes(buf_t *w, const void *p, size_t n)
{
    if (w->bad)
        return;
    if (w->n + n > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->n + n)
            cap *= 2;
        uint8_t *b = realloc(w->b, cap);
        if (!b) {
            w->bad = 1;
            return;
        }
        w->b = b;
        w->cap = cap;
    }
    memcpy(w->b + w->n, p, n);
    w->n += n;
}

static void buf_s32(buf_t *w, int32_t v)
{
    uint32_t u = (uint32_t)v;
    uint8_t b[4] = { (uint8_t)u, (uint8_t)(u >> 8), (uint8_t)(u >> 16), (uint8_t)(u >> 24) };
    buf_bytes(w, b, 4);
}

static void buf_f32(buf_t *w, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    buf_s32(w, (int32_t)u);
}

// Hand the bytes to gen_write (or report running out of memory) and free them.
static int buf_write(buf_t *w, const char *outdir, const char *rel)
{
    int rc = -1;
    if (w->bad)
        fprintf(stderr, "mkbuiltin: out of memory writing %s\n", rel);
    else
        rc = gen_write(outdir, rel, w->b, w->n);
    free(w->b);
    memset(w, 0, sizeof(*w));
    return rc;
}

// ---- small maths ---------------------------------------------------------------------

typedef float vec3[3];

static void v_set(vec3 o, float x, float y, float z)
{
    o[0] = x;
    o[1] = y;
    o[2] = z;
}

static float v_dot(const vec3 a, const vec3 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void v_cross(const vec3 a, const vec3 b, vec3 o)
{
    vec3 t = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
    memcpy(o, t, sizeof(vec3));
}

static void v_norm(vec3 v)
{
    float l = sqrtf(v_dot(v, v));
    if (l > 0)
        for (int k = 0; k < 3; k++)
            v[k] /= l;
}

// A rigid placement: p' = R p + T (R's columns are the rotated axes).
typedef struct {
    float r[3][3];
    vec3 t;
} xform_t;

static xform_t xf_ident(void)
{
    xform_t x = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, { 0, 0, 0 } };
    return x;
}

static void xf_apply(const xform_t *x, const vec3 p, vec3 o)
{
    vec3 t;
    for (int i = 0; i < 3; i++)
        t[i] = x->r[i][0] * p[0] + x->r[i][1] * p[1] + x->r[i][2] * p[2] + x->t[i];
    memcpy(o, t, sizeof(vec3));
}

static void xf_rotate_dir(const xform_t *x, const vec3 p, vec3 o)
{
    vec3 t;
    for (int i = 0; i < 3; i++)
        t[i] = x->r[i][0] * p[0] + x->r[i][1] * p[1] + x->r[i][2] * p[2];
    memcpy(o, t, sizeof(vec3));
}

// a then b: the result applies a first.
static xform_t xf_mul(const xform_t *b, const xform_t *a)
{
    xform_t o;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            o.r[i][j] = b->r[i][0] * a->r[0][j] + b->r[i][1] * a->r[1][j] + b->r[i][2] * a->r[2][j];
        o.t[i] = b->r[i][0] * a->t[0] + b->r[i][1] * a->t[1] + b->r[i][2] * a->t[2] + b->t[i];
    }
    return o;
}

// A rotation about the y axis at pivot (px, py, pz): positive angles swing the
// lower end of a hanging limb forward (+x).
static xform_t xf_swing(float deg, float px, float py, float pz)
{
    float a = deg * (float)(M_PI / 180.0), c = cosf(a), s = sinf(a);
    xform_t x = { { { c, 0, -s }, { 0, 1, 0 }, { s, 0, c } }, { px, py, pz } };
    return x;
}


// ---- the model builder -------------------------------------------------------------------

#define MAX_VERTS 1024
#define MAX_TRIS 1024
#define MAX_FRAMES 10

typedef struct {
    int x, y, w, h;
} rect_t;

typedef struct {
    // topology (written while building frame 0)
    int nv, nt;
    int st[MAX_VERTS][2];
    int tri[MAX_TRIS][3];
    // positions and normals of every frame
    int nf, frame, cursor;
    vec3 pos[MAX_FRAMES][MAX_VERTS];
    vec3 nrm[MAX_FRAMES][MAX_VERTS];
    char names[MAX_FRAMES][16];
    // skin
    int skin_w, skin_h;
    uint8_t *skin;
    int shelf_x, shelf_y, shelf_h;   // rectangle packer
    int bad;
} model_t;

static model_t *model_new(int skin_w, int skin_h, uint8_t background)
{
    model_t *m = calloc(1, sizeof(model_t));
    if (!m)
        return NULL;
    m->skin = malloc((size_t)skin_w * (size_t)skin_h);
    if (!m->skin) {
        free(m);
        return NULL;
    }
    memset(m->skin, background, (size_t)skin_w * (size_t)skin_h);
    m->skin_w = skin_w;
    m->skin_h = skin_h;
    return m;
}

static void model_free(model_t *m)
{
    if (m)
        free(m->skin);
    free(m);
}

static void begin_frame(model_t *m, const char *name)
{
    if (m->nf >= MAX_FRAMES) {
        m->bad = 1;   // more frames than the builder holds: a generator bug
        m->nf = MAX_FRAMES - 1;
    }
    m->frame = m->nf++;
    m->cursor = 0;
    snprintf(m->names[m->frame], sizeof m->names[m->frame], "%s", name);
}

// A skin rectangle for a face, from a row-by-row packer. Only frame 0's texture
// coordinates and paint are kept, so later frames get a dummy.
static rect_t take_rect(model_t *m, int w, int h)
{
    if (m->frame > 0)
        return (rect_t){ 0, 0, w, h };
    if (m->shelf_x + w > m->skin_w) {
        m->shelf_x = 0;
        m->shelf_y += m->shelf_h;
        m->shelf_h = 0;
    }
    rect_t r = { m->shelf_x, m->shelf_y, w, h };
    if (r.y + h > m->skin_h || w > m->skin_w) {
        m->bad = 1;   // the skin is too small for the parts: a generator bug
        return (rect_t){ 0, 0, 1, 1 };
    }
    m->shelf_x += w;
    if (h > m->shelf_h)
        m->shelf_h = h;
    return r;
}

static int add_vert(model_t *m, const vec3 p, const vec3 n, int s, int t)
{
    int i = m->cursor++;
    if (i >= MAX_VERTS || m->frame >= MAX_FRAMES) {
        m->bad = 1;
        return 0;
    }
    if (m->frame == 0) {
        m->st[i][0] = s;
        m->st[i][1] = t;
        m->nv = i + 1;
    }
    memcpy(m->pos[m->frame][i], p, sizeof(vec3));
    memcpy(m->nrm[m->frame][i], n, sizeof(vec3));
    return i;
}

static void add_tri(model_t *m, int a, int b, int c)
{
    if (m->frame != 0)
        return;
    if (m->nt >= MAX_TRIS) {
        m->bad = 1;
        return;
    }
    m->tri[m->nt][0] = a;
    m->tri[m->nt][1] = b;
    m->tri[m->nt][2] = c;
    m->nt++;
}

// A flat convex polygon (3..8 corners in model space, any winding) mapped onto
// skin rectangle r by the corners' texture coordinates uv (0..1 across r).
// `out` is the direction it must face: the winding is made clockwise seen from there.
static void add_poly(model_t *m, const vec3 *p, const float (*uv)[2], int n, const vec3 out, const rect_t *r)
{
    if (n < 3 || n > 8) {
        m->bad = 1;
        return;
    }
    vec3 e1, e2, nrm;
    for (int k = 0; k < 3; k++) {
        e1[k] = p[1][k] - p[0][k];
        e2[k] = p[2][k] - p[0][k];
    }
    v_cross(e1, e2, nrm);   // along `out` when p0, p1, p2 run counter-clockwise seen from outside
    int flip = v_dot(nrm, out) > 0;
    if (!flip)
        for (int k = 0; k < 3; k++)
            nrm[k] = -nrm[k];
    v_norm(nrm);   // the outward normal, for the light
    int idx[8];
    for (int i = 0; i < n; i++) {
        int s = r->x + (int)lrintf(uv[i][0] * (float)r->w), t = r->y + (int)lrintf(uv[i][1] * (float)r->h);
        idx[i] = add_vert(m, p[i], nrm, s, t);
    }
    for (int i = 1; i + 1 < n; i++) {
        if (flip)
            add_tri(m, idx[0], idx[i + 1], idx[i]);
        else
            add_tri(m, idx[0], idx[i], idx[i + 1]);
    }
}

// Faces of a box, for painting: which side of the part.
enum { FACE_FRONT, FACE_BACK, FACE_LEFT, FACE_RIGHT, FACE_TOP, FACE_BOTTOM };

typedef void (*paint_fn)(model_t *m, const rect_t *r, int face, int part);

// A box [lo, hi] placed by x. Each face gets a skin rectangle of its size in
// texels (texel = `tex` units) and is painted by `paint` on frame 0.
static void add_box(model_t *m, const xform_t *x, const vec3 lo, const vec3 hi, float tex,
                    paint_fn paint, int part)
{
    // face: normal axis, sign; the texture's right and up directions seen from outside
    static const struct { int axis, sign, face; } faces[6] = {
        { 0, 1, FACE_FRONT }, { 0, -1, FACE_BACK }, { 1, 1, FACE_LEFT },
        { 1, -1, FACE_RIGHT }, { 2, 1, FACE_TOP }, { 2, -1, FACE_BOTTOM },
    };
    for (int f = 0; f < 6; f++) {
        int a = faces[f].axis, sg = faces[f].sign;
        vec3 n = { 0, 0, 0 }, right, up = { 0, 0, 1 };
        n[a] = (float)sg;
        if (a == 2)
            v_set(up, (float)sg, 0, 0);   // top and bottom: the front is "up" in the texture
        v_cross(up, n, right);
        // the four corners in the face plane, and their texture coordinates
        vec3 c[4];
        float uv[4][2];
        float size_r = 0, size_u = 0;
        for (int k = 0; k < 3; k++) {
            size_r += fabsf(right[k]) * (hi[k] - lo[k]);
            size_u += fabsf(up[k]) * (hi[k] - lo[k]);
        }
        static const int corner_r[4] = { 0, 1, 1, 0 }, corner_u[4] = { 0, 0, 1, 1 };
        for (int i = 0; i < 4; i++) {
            vec3 p;
            for (int k = 0; k < 3; k++) {
                float v = sg > 0 ? hi[k] : lo[k];
                if (k != a) {
                    // along right or up: low or high end by the corner
                    int high = fabsf(right[k]) > 0.5f ? (corner_r[i] ^ (right[k] < 0)) : (corner_u[i] ^ (up[k] < 0));
                    v = high ? hi[k] : lo[k];
                }
                p[k] = v;
            }
            xf_apply(x, p, c[i]);
            uv[i][0] = (float)corner_r[i];
            uv[i][1] = 1.0f - (float)corner_u[i];
        }
        int tw = (int)lrintf(size_r / tex), th = (int)lrintf(size_u / tex);
        rect_t r = take_rect(m, tw < 1 ? 1 : tw, th < 1 ? 1 : th);
        vec3 out;
        xf_rotate_dir(x, n, out);
        add_poly(m, (const vec3 *)c, (const float (*)[2])uv, 4, out, &r);
        if (m->frame == 0 && paint && !m->bad)
            paint(m, &r, faces[f].face, part);
    }
}

// A prism along x of 3..8 sides (radius rad, from x0 to x1, centre cy, cz), both ends capped.
static void add_prism(model_t *m, const xform_t *x, int sides, float rad, float x0, float x1, float cy,
                      float cz, float tex, paint_fn paint, int part)
{
    if (sides < 3 || sides > 8) {
        m->bad = 1;   // the caps are single polygons of at most 8 corners
        return;
    }
    for (int i = 0; i < sides; i++) {
        float a0 = (float)(2 * M_PI * i / sides), a1 = (float)(2 * M_PI * (i + 1) / sides);
        vec3 p[4], c[4], out, mid = { 0, cosf((a0 + a1) / 2), sinf((a0 + a1) / 2) };
        v_set(p[0], x0, cy + rad * cosf(a0), cz + rad * sinf(a0));
        v_set(p[1], x1, cy + rad * cosf(a0), cz + rad * sinf(a0));
        v_set(p[2], x1, cy + rad * cosf(a1), cz + rad * sinf(a1));
        v_set(p[3], x0, cy + rad * cosf(a1), cz + rad * sinf(a1));
        for (int k = 0; k < 4; k++)
            xf_apply(x, p[k], c[k]);
        static const float uv[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
        float edge = 2 * rad * sinf((float)(M_PI / sides));
        int tw = (int)lrintf((x1 - x0) / tex), th = (int)lrintf(edge / tex);
        rect_t r = take_rect(m, tw < 1 ? 1 : tw, th < 1 ? 1 : th);
        xf_rotate_dir(x, mid, out);
        add_poly(m, (const vec3 *)c, uv, 4, out, &r);
        if (m->frame == 0 && paint && !m->bad)
            paint(m, &r, FACE_TOP, part);
    }
    for (int e = 0; e < 2; e++) {   // end caps
        vec3 c[8], out, dir = { e ? 1.0f : -1.0f, 0, 0 };
        float uv[8][2];
        int n = sides;
        for (int i = 0; i < n; i++) {
            float a = (float)(2 * M_PI * i / n);
            vec3 p = { e ? x1 : x0, cy + rad * cosf(a), cz + rad * sinf(a) };
            xf_apply(x, p, c[i]);
            uv[i][0] = 0.5f + 0.5f * cosf(a);
            uv[i][1] = 0.5f - 0.5f * sinf(a);
        }
        int d = (int)lrintf(2 * rad / tex);
        rect_t r = take_rect(m, d < 1 ? 1 : d, d < 1 ? 1 : d);
        xf_rotate_dir(x, dir, out);
        add_poly(m, (const vec3 *)c, (const float (*)[2])uv, n, out, &r);
        if (m->frame == 0 && paint && !m->bad)
            paint(m, &r, e ? FACE_FRONT : FACE_BACK, part);
    }
}

static void end_frame(model_t *m)
{
    if (m->frame > 0 && m->cursor != m->nv)
        m->bad = 1;   // every frame must place the same vertices
}

// Write the model: header, one skin, texture coordinates, triangles, simple frames.
static int model_write(model_t *m, const char *outdir, const char *rel, int flags, const vec3 eye)
{
    if (m->bad || m->nv == 0 || m->nt == 0 || m->nf == 0) {
        fprintf(stderr, "mkbuiltin: %s: the model did not build\n", rel);
        return -1;
    }
    vec3 lo = { 1e9f, 1e9f, 1e9f }, hi = { -1e9f, -1e9f, -1e9f };
    float radius = 0;
    for (int f = 0; f < m->nf; f++)
        for (int i = 0; i < m->nv; i++) {
            const float *p = m->pos[f][i];
            for (int k = 0; k < 3; k++) {
                lo[k] = p[k] < lo[k] ? p[k] : lo[k];
                hi[k] = p[k] > hi[k] ? p[k] : hi[k];
            }
            float r = sqrtf(v_dot(p, p));
            radius = r > radius ? r : radius;
        }
    vec3 scale;
    for (int k = 0; k < 3; k++)
        scale[k] = hi[k] > lo[k] ? (hi[k] - lo[k]) / 255.0f : 1.0f / 255.0f;
    double area = 0;
    for (int i = 0; i < m->nt; i++) {
        vec3 e1, e2, c;
        for (int k = 0; k < 3; k++) {
            e1[k] = m->pos[0][m->tri[i][1]][k] - m->pos[0][m->tri[i][0]][k];
            e2[k] = m->pos[0][m->tri[i][2]][k] - m->pos[0][m->tri[i][0]][k];
        }
        v_cross(e1, e2, c);
        area += 0.5 * sqrt(v_dot(c, c));
    }

    buf_t w = { 0 };
    buf_bytes(&w, "IDPO", 4);
    buf_s32(&w, 6);
    for (int k = 0; k < 3; k++)
        buf_f32(&w, scale[k]);
    for (int k = 0; k < 3; k++)
        buf_f32(&w, lo[k]);
    buf_f32(&w, radius);
    for (int k = 0; k < 3; k++)
        buf_f32(&w, eye[k]);
    buf_s32(&w, 1);   // skins
    buf_s32(&w, m->skin_w);
    buf_s32(&w, m->skin_h);
    buf_s32(&w, m->nv);
    buf_s32(&w, m->nt);
    buf_s32(&w, m->nf);
    buf_s32(&w, 0);   // synctype: synchronized
    buf_s32(&w, flags);
    buf_f32(&w, (float)(area / m->nt));   // average triangle area
    buf_s32(&w, 0);   // a single skin
    buf_bytes(&w, m->skin, (size_t)m->skin_w * (size_t)m->skin_h);
    for (int i = 0; i < m->nv; i++) {
        buf_s32(&w, 0);   // onseam: every face has its own vertices, no seams
        buf_s32(&w, m->st[i][0]);
        buf_s32(&w, m->st[i][1]);
    }
    for (int i = 0; i < m->nt; i++) {
        buf_s32(&w, 1);   // faces front: the whole skin is front
        for (int k = 0; k < 3; k++)
            buf_s32(&w, m->tri[i][k]);
    }
    for (int f = 0; f < m->nf; f++) {
        uint8_t bmin[4] = { 255, 255, 255, 0 }, bmax[4] = { 0, 0, 0, 0 };
        uint8_t *v = malloc((size_t)m->nv * 4);
        if (!v) {
            w.bad = 1;
            break;
        }
        for (int i = 0; i < m->nv; i++) {
            for (int k = 0; k < 3; k++) {
                long q = lrintf((m->pos[f][i][k] - lo[k]) / scale[k]);
                uint8_t b = (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
                v[i * 4 + k] = b;
                bmin[k] = b < bmin[k] ? b : bmin[k];
                bmax[k] = b > bmax[k] ? b : bmax[k];
            }
            v[i * 4 + 3] = (uint8_t)mdl_nearest_normal(m->nrm[f][i]);
        }
        char name[16] = { 0 };
        memcpy(name, m->names[f], strnlen(m->names[f], 15));
        buf_s32(&w, 0);   // a simple frame
        buf_bytes(&w, bmin, 4);
        buf_bytes(&w, bmax, 4);
        buf_bytes(&w, name, 16);
        buf_bytes(&w, v, (size_t)m->nv * 4);
        free(v);
    }
    return buf_write(&w, outdir, rel);
}

// ---- skin painting -----------------------------------------------------------------------

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static int shade(int ramp, int level) { return GP(ramp, clampi(level, 0, 15)); }

static void skin_put(model_t *m, const rect_t *r, int x, int y, int c)
{
    if (x >= 0 && y >= 0 && x < r->w && y < r->h)
        m->skin[(r->y + y) * m->skin_w + r->x + x] = (uint8_t)c;
}

// Fill a face with ramp levels around `base` (light grain), its border a step darker
// so the box edges read.
static void paint_plain(model_t *m, const rect_t *r, int ramp, int base, uint32_t seed)
{
    uint32_t s = seed * 2654435761u + 12345u;
    for (int y = 0; y < r->h; y++)
        for (int x = 0; x < r->w; x++) {
            int g = (int)(gen_rand(&s) % 5);
            int lvl = base + (g == 0 ? -1 : g == 1 ? 1 : 0);
            if (x == 0 || y == 0 || x == r->w - 1 || y == r->h - 1)
                lvl -= 1;
            skin_put(m, r, x, y, shade(ramp, lvl));
        }
}

// ---- progs/walker.mdl, progs/player.mdl -----------------------------------------------------

// Parts of the figure. Shirt colours are palette 16..31 and pants 96..111:
// the rows Quake's renderer swaps for a player's colours.
enum { P_TORSO, P_HEAD, P_ARM_L, P_ARM_R, P_THIGH_L, P_THIGH_R, P_SHIN_L, P_SHIN_R, P_FOOT_L, P_FOOT_R };

#define SHIRT GP_BROWN
#define PANTS GP_GOLD
#define SKIN GP_SKIN

static void paint_walker(model_t *m, const rect_t *r, int face, int part)
{
    uint32_t seed = (uint32_t)(part * 8 + face + 1);
    switch (part) {
    case P_TORSO:
        paint_plain(m, r, SHIRT, 8, seed);
        if (face != FACE_TOP && face != FACE_BOTTOM) {
            for (int x = 0; x < r->w; x++) {   // a belt with a buckle
                skin_put(m, r, x, r->h - 3, GP(GP_GREY, 3));
                skin_put(m, r, x, r->h - 2, GP(GP_GREY, 2));
            }
            if (face == FACE_FRONT) {
                skin_put(m, r, r->w / 2 - 1, r->h - 3, GP(GP_YELLOW, 11));
                skin_put(m, r, r->w / 2, r->h - 3, GP(GP_YELLOW, 12));
                skin_put(m, r, r->w / 2 - 1, r->h - 2, GP(GP_YELLOW, 9));
                skin_put(m, r, r->w / 2, r->h - 2, GP(GP_YELLOW, 10));
                for (int y = 2; y < r->h - 3; y++)   // a seam down the front
                    skin_put(m, r, r->w / 2, y, GP(SHIRT, 5));
                for (int x = 3; x < r->w - 3; x++)   // the collar
                    skin_put(m, r, x, 0, GP(SHIRT, 11));
                for (int k = 0; k < 3; k++) {        // a chest emblem in the shirt colours
                    skin_put(m, r, 3 + k, 4, GP(SHIRT, 13));
                    skin_put(m, r, 4, 3 + k, GP(SHIRT, 13));
                }
            }
        }
        break;
    case P_HEAD:
        if (face == FACE_TOP) {
            paint_plain(m, r, GP_TAN, 3, seed);   // hair
            break;
        }
        paint_plain(m, r, SKIN, 9, seed);
        if (face == FACE_BOTTOM)
            break;
        for (int y = 0; y < (face == FACE_FRONT ? 2 : face == FACE_BACK ? 7 : 4); y++)
            for (int x = 0; x < r->w; x++)
                skin_put(m, r, x, y, shade(GP_TAN, 3 + ((x + y) % 3 == 0)));
        if (face == FACE_FRONT) {
            int c = r->w / 2;
            for (int s = -1; s <= 1; s += 2) {
                int ex = c + s * 2 - (s < 0);
                skin_put(m, r, ex, 3, GP(GP_GREY, 14));   // eyes
                skin_put(m, r, ex + (s < 0 ? 1 : 0) - (s > 0 ? 0 : 0), 4, GP(GP_BLUE, 4));
                skin_put(m, r, ex, 2, GP(GP_TAN, 2));     // brows
            }
            skin_put(m, r, c, 5, GP(SKIN, 6));            // nose
            skin_put(m, r, c, 6, GP(SKIN, 7));
            for (int x = c - 2; x <= c + 1; x++)
                skin_put(m, r, x, 8, GP(SKIN, 4));       // mouth
        }
        break;
    case P_ARM_L:
    case P_ARM_R:
        paint_plain(m, r, SHIRT, 7, seed);
        if (face == FACE_BOTTOM) {
            paint_plain(m, r, SKIN, 8, seed);   // the hand
            break;
        }
        if (face != FACE_TOP)
            for (int y = r->h - 4; y < r->h; y++)
                for (int x = 0; x < r->w; x++)
                    skin_put(m, r, x, y, shade(SKIN, 9 - (x == 0 || x == r->w - 1)));
        break;
    case P_THIGH_L:
    case P_THIGH_R:
        // pants: a narrow band of levels, so a reversed ramp in a player's colours still reads
        paint_plain(m, r, PANTS, 8, seed);
        break;
    case P_SHIN_L:
    case P_SHIN_R:
        paint_plain(m, r, PANTS, 7, seed);
        if (face != FACE_TOP && face != FACE_BOTTOM)
            for (int y = r->h * 3 / 5; y < r->h; y++)   // boots
                for (int x = 0; x < r->w; x++)
                    skin_put(m, r, x, y, shade(GP_GREY, 4 - (y == r->h * 3 / 5) + (x == 1)));
        if (face == FACE_BOTTOM)
            paint_plain(m, r, GP_GREY, 3, seed);
        break;
    default:   // feet: boots
        paint_plain(m, r, GP_GREY, 4, seed);
        break;
    }
}

// The figure in one pose: phase in radians (walking), or stand when walk == 0.
// Model origin at its middle, as Quake's monsters: feet at z = -24, head top near 32.
static void walker_pose(model_t *m, float phase, int walk)
{
    float swing = walk ? 28.0f * sinf(phase) : 0;   // thigh swing, degrees (+ = forward)
    // the body sinks as the legs spread, so the straight leg's foot stays on the floor
    float bob = walk ? 25.0f * (cosf(swing * (float)(M_PI / 180.0)) - 1.0f) : 0;
    xform_t body = xf_ident();
    body.t[2] = bob;
    if (walk) {   // lean into the walk
        xform_t lean = xf_swing(-4.0f, 0, 0, 0);
        body = xf_mul(&body, &lean);
    }
    vec3 lo, hi;
    // torso and head
    v_set(lo, -4, -8, 2);
    v_set(hi, 4, 8, 22);
    add_box(m, &body, lo, hi, 1.0f, paint_walker, P_TORSO);
    xform_t head = body;
    if (walk) {
        xform_t turn = xf_swing(2.0f * sinf(2 * phase), 0, 0, 22);
        head = xf_mul(&body, &turn);
    } else {
        head.t[2] += 22;
    }
    v_set(lo, -4.5f, -4.5f, 1);
    v_set(hi, 4.5f, 4.5f, 11);
    add_box(m, &head, lo, hi, 1.0f, paint_walker, P_HEAD);
    // arms swing against the legs
    for (int side = 0; side < 2; side++) {
        float sgn = side ? -1.0f : 1.0f;   // +y is the figure's left
        float a = walk ? -sgn * 24.0f * sinf(phase) : 0;
        xform_t shoulder = xf_swing(a, 0, sgn * 10.5f, 21);
        xform_t arm = xf_mul(&body, &shoulder);
        v_set(lo, -2.5f, -2.5f, -21);
        v_set(hi, 2.5f, 2.5f, 0);
        add_box(m, &arm, lo, hi, 1.0f, paint_walker, side ? P_ARM_R : P_ARM_L);
    }
    // legs: thigh from the hip, shin from the knee (bends only backward), foot
    for (int side = 0; side < 2; side++) {
        float sgn = side ? -1.0f : 1.0f;
        float ph = phase + (side ? (float)M_PI : 0);
        float th = walk ? sgn * swing : 0;
        // the knee bends while the leg swings forward (cos > 0) and is straight while it carries the body
        float c = cosf(ph + 0.3f);
        float knee = walk && c > 0 ? 40.0f * c * sqrtf(c) : 0;
        xform_t hip = xf_swing(th, 0, sgn * 4.0f, 2);
        xform_t thigh = xf_mul(&body, &hip);
        v_set(lo, -3, -3, -13);
        v_set(hi, 3, 3, 0);
        add_box(m, &thigh, lo, hi, 1.0f, paint_walker, side ? P_THIGH_R : P_THIGH_L);
        xform_t kn = xf_swing(-knee, 0, 0, -13);
        xform_t shin = xf_mul(&thigh, &kn);
        v_set(lo, -2.75f, -2.75f, -12);
        v_set(hi, 2.75f, 2.75f, 0);
        add_box(m, &shin, lo, hi, 1.0f, paint_walker, side ? P_SHIN_R : P_SHIN_L);
        xform_t ankle = xf_swing(-(th - knee) * 0.8f, 0, 0, -12);   // the foot stays nearly level
        xform_t foot = xf_mul(&shin, &ankle);
        v_set(lo, -3, -3, -1);   // the sole at z = -24 when standing
        v_set(hi, 7, 3, 2.5f);
        add_box(m, &foot, lo, hi, 1.0f, paint_walker, side ? P_FOOT_R : P_FOOT_L);
    }
}

static int make_walker(const char *outdir)
{
    model_t *m = model_new(128, 64, GP(GP_GREY, 2));
    if (!m) {
        fprintf(stderr, "mkbuiltin: out of memory for the walker\n");
        return -1;
    }
    for (int f = 0; f < 8; f++) {
        char name[16];
        snprintf(name, sizeof name, "walk%d", f + 1);
        begin_frame(m, name);
        walker_pose(m, (float)(2 * M_PI * f / 8), 1);
        end_frame(m);
    }
    begin_frame(m, "stand1");
    walker_pose(m, 0, 0);
    end_frame(m);
    vec3 eye = { 0, 0, 26 };
    int rc = model_write(m, outdir, "progs/walker.mdl", 0, eye);
    if (rc == 0)
        rc = model_write(m, outdir, "progs/player.mdl", 0, eye);
    model_free(m);
    return rc;
}

// ---- progs/gem.mdl ---------------------------------------------------------------------------

enum { GEM_TABLE, GEM_CROWN, GEM_PAVILION };

// Cyan crystal: facets shaded across, a bright edge, fullbright glints that stay
// lit in the dark (240/241 are the fullbright cyans).
static void paint_gem(model_t *m, const rect_t *r, int face, int part)
{
    (void)face;
    uint32_t s = 0x6e3u + (uint32_t)part;
    int base = part == GEM_TABLE ? 11 : part == GEM_CROWN ? 9 : 6;
    for (int y = 0; y < r->h; y++)
        for (int x = 0; x < r->w; x++) {
            int lvl = base + (x + y) * 3 / (r->w + r->h) - 1;
            int c = shade(GP_TEAL, lvl);
            if (x + y == r->w / 2 || x == 0)
                c = shade(GP_TEAL, base + 4);   // a bright edge line
            if (gen_rand(&s) % 23 == 0)
                c = gen_rand(&s) & 1 ? 240 : 241;     // glints
            skin_put(m, r, x, y, c);
        }
}

static int make_gem(const char *outdir)
{
    model_t *m = model_new(32, 32, GP(GP_TEAL, 8));
    if (!m) {
        fprintf(stderr, "mkbuiltin: out of memory for the gem\n");
        return -1;
    }
    begin_frame(m, "gem");
    // a round cut: an octagonal table on top, a crown down to the girdle, a pavilion to a point
    const int n = 8;
    const float table_r = 5.5f, table_z = 8.5f, girdle_r = 11, girdle_z = 1.5f, culet_z = -15;
    rect_t rt = take_rect(m, 16, 16), rc = take_rect(m, 16, 8), rp = take_rect(m, 16, 16);
    paint_gem(m, &rt, FACE_TOP, GEM_TABLE);
    paint_gem(m, &rc, FACE_FRONT, GEM_CROWN);
    paint_gem(m, &rp, FACE_FRONT, GEM_PAVILION);
    vec3 up = { 0, 0, 1 };
    vec3 table[8];
    float tuv[8][2];
    for (int i = 0; i < n; i++) {
        float a = (float)(2 * M_PI * (i + 0.5) / n);
        v_set(table[i], table_r * cosf(a), table_r * sinf(a), table_z);
        tuv[i][0] = 0.5f + 0.5f * cosf(a);
        tuv[i][1] = 0.5f - 0.5f * sinf(a);
    }
    add_poly(m, (const vec3 *)table, (const float (*)[2])tuv, n, up, &rt);
    for (int i = 0; i < n; i++) {
        float a0 = (float)(2 * M_PI * (i + 0.5) / n), a1 = (float)(2 * M_PI * (i + 1.5) / n);
        float am = (a0 + a1) / 2;
        vec3 crown[4], out = { cosf(am), sinf(am), 0.6f };
        memcpy(crown[0], table[i], sizeof(vec3));
        v_set(crown[1], girdle_r * cosf(a0), girdle_r * sinf(a0), girdle_z);
        v_set(crown[2], girdle_r * cosf(a1), girdle_r * sinf(a1), girdle_z);
        memcpy(crown[3], table[(i + 1) % n], sizeof(vec3));
        static const float cuv[4][2] = { { 0.25f, 0 }, { 0, 1 }, { 1, 1 }, { 0.75f, 0 } };
        add_poly(m, (const vec3 *)crown, cuv, 4, out, &rc);
        vec3 pav[3], pout = { cosf(am), sinf(am), -0.5f };
        memcpy(pav[0], crown[1], sizeof(vec3));
        memcpy(pav[1], crown[2], sizeof(vec3));
        v_set(pav[2], 0, 0, culet_z);
        static const float puv[3][2] = { { 0, 0 }, { 1, 0 }, { 0.5f, 1 } };
        add_poly(m, (const vec3 *)pav, puv, 3, pout, &rp);
    }
    end_frame(m);
    vec3 eye = { 0, 0, 0 };
    int rc2 = model_write(m, outdir, "progs/gem.mdl", MDL_EF_ROTATE, eye);
    model_free(m);
    return rc2;
}

// ---- progs/v_gun.mdl -----------------------------------------------------------------------------

enum { GUN_BODY, GUN_BARREL, GUN_STOCK, GUN_SIGHT, GUN_GRIP };

static void paint_gun(model_t *m, const rect_t *r, int face, int part)
{
    uint32_t seed = (uint32_t)(part * 8 + face + 100);
    switch (part) {
    case GUN_STOCK:
    case GUN_GRIP:
        // wood: streaks along the length
        paint_plain(m, r, GP_TAN, part == GUN_GRIP ? 5 : 6, seed);
        for (int y = 1; y < r->h; y += 3)
            for (int x = (y * 5) % 4; x < r->w; x += 5)
                skin_put(m, r, x, y, GP(GP_TAN, 4));
        break;
    case GUN_BARREL:
        paint_plain(m, r, GP_BLUEGREY, face == FACE_FRONT ? 1 : 6, seed);
        if (face == FACE_TOP)   // a polished line along each side
            for (int x = 0; x < r->w; x++)
                skin_put(m, r, x, r->h / 2, GP(GP_BLUEGREY, 10));
        break;
    case GUN_SIGHT:
        paint_plain(m, r, GP_GREY, 9, seed);
        break;
    default:
        paint_plain(m, r, GP_BLUEGREY, 5, seed);
        if (face == FACE_TOP)   // what the eye sees most: rails either side of a dark groove
            for (int y = 0; y < r->h; y++) {
                skin_put(m, r, r->w / 2, y, GP(GP_BLUEGREY, 2));
                skin_put(m, r, r->w / 2 - 1, y, GP(GP_BLUEGREY, 8));
                skin_put(m, r, r->w / 2 + 1, y, GP(GP_BLUEGREY, 8));
            }
        if (face == FACE_LEFT || face == FACE_RIGHT)   // screws and an ejection port
            for (int k = 0; k < 2; k++) {
                skin_put(m, r, 2 + k * 6, r->h / 2, GP(GP_GREY, 11));
                skin_put(m, r, 3 + k * 6, r->h / 2 + 1, GP(GP_GREY, 3));
            }
        break;
    }
}

// The gun at the view origin: the barrel along +x, below and right of the eye
// (right is -y). Placed by where it lands on a 90-degree 4:3 view: the muzzle a
// little right of and below the centre, the receiver leaving the lower right corner.
static void gun_pose(model_t *m, float back, float tilt)
{
    xform_t x = xf_swing(tilt, -back, 0, 0);   // recoil: pushed back, muzzle up
    vec3 lo, hi;
    v_set(lo, 4, -5.9f, -10.5f);
    v_set(hi, 15, -3.1f, -6.4f);
    add_box(m, &x, lo, hi, 0.5f, paint_gun, GUN_BODY);
    add_prism(m, &x, 8, 1.3f, 12, 32, -4.5f, -7.6f, 0.5f, paint_gun, GUN_BARREL);
    v_set(lo, 14, -5.8f, -10);
    v_set(hi, 26, -3.2f, -8.3f);
    add_box(m, &x, lo, hi, 0.5f, paint_gun, GUN_GRIP);   // the wooden fore-end under the barrel
    v_set(lo, 30, -4.9f, -6.6f);
    v_set(hi, 31.5f, -4.1f, -5.8f);
    add_box(m, &x, lo, hi, 0.5f, paint_gun, GUN_SIGHT);
    v_set(lo, -2, -5.8f, -14);
    v_set(hi, 5, -3.2f, -9);
    add_box(m, &x, lo, hi, 0.5f, paint_gun, GUN_STOCK);   // mostly below the view: seen when it kicks
}

static int make_gun(const char *outdir)
{
    model_t *m = model_new(128, 64, GP(GP_GREY, 4));
    if (!m) {
        fprintf(stderr, "mkbuiltin: out of memory for the gun\n");
        return -1;
    }
    begin_frame(m, "idle");
    gun_pose(m, 0, 0);
    end_frame(m);
    begin_frame(m, "recoil");
    gun_pose(m, 3.0f, 5.0f);
    end_frame(m);
    vec3 eye = { 0, 0, 0 };
    int rc = model_write(m, outdir, "progs/v_gun.mdl", 0, eye);
    model_free(m);
    return rc;
}

// ---- sprites ------------------------------------------------------------------------------------

// Smooth value noise over a lattice of `cells` per side, repeating; seeded.
static float value_noise(uint32_t seed, int cells, float x, float y)
{
    int x0 = (int)floorf(x), y0 = (int)floorf(y);
    float fx = x - (float)x0, fy = y - (float)y0;
    fx = fx * fx * (3 - 2 * fx);
    fy = fy * fy * (3 - 2 * fy);
    float v[2][2];
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            uint32_t h = seed ^ ((uint32_t)((x0 + i) % cells + cells) % (uint32_t)cells * 73856093u) ^
                         ((uint32_t)((y0 + j) % cells + cells) % (uint32_t)cells * 19349663u);
            h = h * 2654435761u;
            h ^= h >> 15;
            h *= 2246822519u;
            h ^= h >> 13;
            v[j][i] = (float)(h & 0xffff) / 65535.0f;
        }
    float a = v[0][0] + (v[0][1] - v[0][0]) * fx, b = v[1][0] + (v[1][1] - v[1][0]) * fx;
    return a + (b - a) * fy;
}

static void spr_header(buf_t *w, int type, float radius, int width, int height, int frames)
{
    buf_bytes(w, "IDSP", 4);
    buf_s32(w, 1);
    buf_s32(w, type);
    buf_f32(w, radius);
    buf_s32(w, width);
    buf_s32(w, height);
    buf_s32(w, frames);
    buf_f32(w, 0);   // beam length
    buf_s32(w, 0);   // synctype
}

// One image: its upper-left corner at (-w/2, h/2) from the entity origin, so it is centred.
static void spr_image(buf_t *w, const uint8_t *px, int width, int height)
{
    buf_s32(w, -width / 2);
    buf_s32(w, height / 2);
    buf_s32(w, width);
    buf_s32(w, height);
    buf_bytes(w, px, (size_t)width * (size_t)height);
}

// Six frames of a fireball that swells, burns down from white-yellow to red and
// breaks into smoke; the fire colours are fullbright (224..239).
#define EXP_SIZE 64
static int make_explosion(const char *outdir)
{
    buf_t w = { 0 };
    spr_header(&w, 2, 45.0f, EXP_SIZE, EXP_SIZE, 6);   // 2: parallel to the view plane, as Quake's
    uint8_t px[EXP_SIZE * EXP_SIZE];
    for (int f = 0; f < 6; f++) {
        float u = (f + 0.5f) / 6.0f;
        float radius = 10.0f + 20.0f * powf(u, 0.6f);
        for (int y = 0; y < EXP_SIZE; y++)
            for (int x = 0; x < EXP_SIZE; x++) {
                float dx = x + 0.5f - EXP_SIZE / 2, dy = y + 0.5f - EXP_SIZE / 2;
                float d = sqrtf(dx * dx + dy * dy) / radius;
                // billows: three octaves of noise, rolling outward frame by frame
                float nx = (x + 0.5f) / 8.0f + u * 1.5f, ny = (y + 0.5f) / 8.0f - u * 2.5f;
                float turb = value_noise(0xe4u, 8, nx, ny) * 0.5f + value_noise(0x51u, 16, nx * 2, ny * 2) * 0.3f +
                             value_noise(0x3au, 32, nx * 4, ny * 4) * 0.2f;
                float edge = d + (turb - 0.5f) * 0.8f;
                // hot in the middle and early; the fire breaks up into smoke as it cools
                float heat = (1.0f - d * d) * (1.5f - 1.5f * u) + (turb - 0.5f) * (0.6f + 1.2f * u);
                int c = GP_TRANSPARENT;
                if (edge < 1.0f) {
                    if (heat > 0.15f)
                        c = GP_FULLBRIGHT_START + clampi((int)(sqrtf(heat) * 14.0f * (1.05f - 0.45f * u)), 0, 15);
                    else if (u > 0.25f && turb > 0.3f + 0.35f * u * u)
                        c = GP(GP_GREY, clampi(2 + (int)(turb * 7.0f), 2, 7));   // smoke
                    else if (u <= 0.25f)
                        c = GP_FULLBRIGHT_START + 1;   // dark red rim while it is young
                }
                px[y * EXP_SIZE + x] = (uint8_t)c;
            }
        buf_s32(&w, 0);   // a single frame
        spr_image(&w, px, EXP_SIZE, EXP_SIZE);
    }
    return buf_write(&w, outdir, "progs/s_explod.spr");
}

// A small glowing orb: a white core, yellow and orange rings, a dithered rim;
// one frame that is a group of two images, so it pulses by itself.
#define GLOW_SIZE 16
static int make_glow(const char *outdir)
{
    buf_t w = { 0 };
    spr_header(&w, 0, 12.0f, GLOW_SIZE, GLOW_SIZE, 1);   // 0: upright, facing the view plane
    buf_s32(&w, 1);   // a group
    buf_s32(&w, 2);
    buf_f32(&w, 0.3f);   // cumulative end times of its images
    buf_f32(&w, 0.6f);
    uint8_t px[GLOW_SIZE * GLOW_SIZE];
    for (int k = 0; k < 2; k++) {
        float r = k ? 6.6f : 7.6f;
        uint32_t s = 0x910u + (uint32_t)k;
        for (int y = 0; y < GLOW_SIZE; y++)
            for (int x = 0; x < GLOW_SIZE; x++) {
                float dx = x + 0.5f - GLOW_SIZE / 2, dy = y + 0.5f - GLOW_SIZE / 2;
                float d = sqrtf(dx * dx + dy * dy) / r;
                int c = GP_TRANSPARENT;
                if (d < 0.3f)
                    c = 254;                                    // white
                else if (d < 0.75f)
                    c = GP_FULLBRIGHT_START + 15 - (int)((d - 0.3f) * 16);   // yellow to orange
                else if (d < 1.0f && (float)(gen_rand(&s) % 100) / 100.0f > (d - 0.75f) * 3.2f)
                    c = GP_FULLBRIGHT_START + 6 + (int)(gen_rand(&s) % 3);  // a ragged rim
                px[y * GLOW_SIZE + x] = (uint8_t)c;
            }
        spr_image(&w, px, GLOW_SIZE, GLOW_SIZE);
    }
    return buf_write(&w, outdir, "progs/s_glow.spr");
}

int gen_models(const char *outdir, const uint8_t palette[768])
{
    (void)palette;   // everything is painted in the plan's ramps (gen.h)
    if (make_gem(outdir) < 0 || make_walker(outdir) < 0 || make_gun(outdir) < 0 || make_explosion(outdir) < 0 ||
        make_glow(outdir) < 0)
        return -1;
    return 0;
}
