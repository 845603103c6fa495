// mx.c -- Forsaken models (.MX, .MXA), every read bounded by the file (layout in mx.h, docs/forsaken.md)
#include "mx.h"

#include "asset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MX_VERTEX_SIZE 32
#define MX_TRIANGLE_SIZE 20
#define MX_TEXGROUP_SIZE 10
#define MX_FIREPOINT_SIZE 38    // u16 id, f32 pos[3], dir[3], up[3]
#define MX_SPOTFX_FIXED 58      // u16 type, f32 pos dir up [9], three f32 delays, two s16, u32 colour
#define MX_SPOTFX_TAIL 8        // after the sound name: f32 volume, f32 speed
#define MX_POLYANIM_TAG 32

static int skip(asset_rd_t *c, size_t n, size_t each, const char *what)
{
    if (c->failed || asset_rd_need(c, n, each, what) < 0)
        return -1;
    c->at += n * each;
    return 0;
}

// A NUL-terminated string of at most `max` bytes before the NUL.
static int skip_string(asset_rd_t *c, size_t max, const char *what)
{
    size_t start = c->at;
    while (c->at < c->n && c->d[c->at] && c->at - start < max)
        c->at++;
    if (c->at >= c->n || c->d[c->at])
        return asset_rd_fail(c, start, "a %s ending with a NUL within %zu bytes", what, max + 1);
    c->at++;
    return 0;
}

// The walk is done twice: counting (m->verts == NULL) and copying.
typedef struct {
    mx_t *m;
    int nv, nt;                   // filled so far
    int ntg;                      // texture groups so far
    size_t frames_at;             // an MXA's frames (after the frame count)
    int nanim;                    // their animated vertices
    int tgroups[MX_MAX_GROUPS * MX_MAX_BUFFERS];   // texture groups per buffer, in order
    int nbuf;
} walk_t;

static int texgroup(asset_rd_t *c, walk_t *w, int base, int nv)
{
    if (asset_rd_need(c, 1, MX_TEXGROUP_SIZE, "a texture group header") < 0)
        return -1;
    size_t at = c->at;
    const uint8_t *p = c->d + at;
    int first = asset_u16(p + 2), count = asset_u16(p + 4), tex = asset_u16(p + 6), ntri = asset_u16(p + 8);
    c->at += MX_TEXGROUP_SIZE;
    // snbia200.mxa names a texture past its list: its triangles get none (drawn in their colour)
    int bad_tex = tex >= w->m->num_textures;
    if (bad_tex && !w->m->verts)
        w->m->bad_texture_groups++;
    if (first + count > nv)
        return asset_rd_fail(c, at + 2, "vertices %d..%d inside the buffer's %d", first, first + count - 1, nv);
    if (w->m->tg_first) {   // drawn from first + the box's 8 (an MXA frame's vertices replace them from there)
        w->m->tg_first[w->ntg] = base + MX_BOX_VERTS + first;
        w->m->tg_end[w->ntg] = base + nv;
    }
    w->ntg++;
    if (asset_rd_need(c, (size_t)ntri, MX_TRIANGLE_SIZE, "triangles") < 0)
        return -1;
    for (int i = 0; i < ntri; i++) {
        const uint8_t *t = c->d + c->at + (size_t)i * MX_TRIANGLE_SIZE;
        for (int k = 0; k < 3; k++) {
            int vi = asset_u16(t + k * 2);
            if (vi >= nv)
                return asset_rd_fail(c, c->at + (size_t)i * MX_TRIANGLE_SIZE + (size_t)k * 2,
                             "a vertex index below the buffer's %d, found %d", nv, vi);
        }
        if (w->m->tris) {
            mx_tri_t *o = &w->m->tris[w->nt];
            for (int k = 0; k < 3; k++)
                o->v[k] = (uint32_t)(base + asset_u16(t + k * 2));
            o->texture = bad_tex ? -1 : tex;
            o->flags = asset_u16(t + 6);
        }
        w->nt++;
    }
    c->at += (size_t)ntri * MX_TRIANGLE_SIZE;
    return 0;
}

static void vertex(mx_vertex_t *v, const uint8_t *p)
{
    for (int k = 0; k < 3; k++)
        v->pos[k] = asset_f32(p + k * 4);
    uint32_t col = asset_u32(p + 16);
    v->a = (uint8_t)(col >> 24);
    v->r = (uint8_t)(col >> 16);
    v->g = (uint8_t)(col >> 8);
    v->b = (uint8_t)col;
    uint8_t mx = v->r > v->g ? v->r : v->g;
    v->light = mx > v->b ? mx : v->b;
    v->st[0] = asset_f32(p + 24);
    v->st[1] = asset_f32(p + 28);
}

static int buffer(asset_rd_t *c, walk_t *w)
{
    int size_word, type, nv, ntg;
    if (asset_rd_u16(c, "a buffer size", &size_word) < 0 || asset_rd_u16(c, "a buffer type", &type) < 0 ||
        asset_rd_u16(c, "a vertex count", &nv) < 0)
        return -1;
    (void)size_word;
    (void)type;
    if (asset_rd_need(c, (size_t)nv, MX_VERTEX_SIZE, "vertices") < 0)
        return -1;
    int base = w->nv;
    if (w->m->verts)
        for (int i = 0; i < nv; i++)
            vertex(&w->m->verts[base + i], c->d + c->at + (size_t)i * MX_VERTEX_SIZE);
    c->at += (size_t)nv * MX_VERTEX_SIZE;
    w->nv += nv;
    if (asset_rd_u16(c, "a texture group count", &ntg) < 0)
        return -1;
    if (w->nbuf >= MX_MAX_GROUPS * MX_MAX_BUFFERS)
        return asset_rd_fail(c, c->at, "at most %d buffers", MX_MAX_GROUPS * MX_MAX_BUFFERS);
    w->tgroups[w->nbuf++] = ntg;
    // texture group vertex ranges count from after the bounding box; triangle indices are absolute
    for (int i = 0; i < ntg; i++)
        if (texgroup(c, w, base, nv) < 0)
            return -1;
    return 0;
}

static int meshes(asset_rd_t *c, walk_t *w)
{
    int ng;
    if (asset_rd_u16(c, "a group count", &ng) < 0)
        return -1;
    if (ng > MX_MAX_GROUPS)
        return asset_rd_fail(c, c->at - 2, "at most %d groups, found %d", MX_MAX_GROUPS, ng);
    w->m->num_groups = ng;
    for (int g = 0; g < ng; g++) {
        int nb;
        if (asset_rd_u16(c, "a buffer count", &nb) < 0)
            return -1;
        if (nb > MX_MAX_BUFFERS)
            return asset_rd_fail(c, c->at - 2, "at most %d buffers in a group, found %d", MX_MAX_BUFFERS, nb);
        for (int b = 0; b < nb; b++)
            if (buffer(c, w) < 0)
                return -1;
    }
    return 0;
}

// What follows the meshes: read to be sure the file is whole, nothing kept but counts.
static int tail(asset_rd_t *c, walk_t *w)
{
    mx_t *m = w->m;
    int kind;
    if (asset_rd_u16(c, "the model kind (0 MX, 2 MXA)", &kind) < 0)
        return -1;
    if (kind == 2) {
        m->is_mxa = 1;
        int nf;
        if (asset_rd_u16(c, "a frame count", &nf) < 0)
            return -1;
        m->num_frames = nf;
        w->frames_at = c->at;
        for (int f = 0; nf > 1 && f < nf; f++)
            for (int b = 0; b < w->nbuf; b++)
                for (int t = 0; t < w->tgroups[b]; t++) {
                    int na;
                    if (asset_rd_u16(c, "an animated vertex count", &na) < 0 ||
                        skip(c, (size_t)na, MX_VERTEX_SIZE, "animated vertices") < 0)
                        return -1;
                    w->nanim += na;
                }
    } else {
        int nanim;
        if (asset_rd_u16(c, "a texture animation count", &nanim) < 0)
            return -1;
        for (int i = 0; i < nanim; i++) {
            int frames, loops, len;
            if (asset_rd_u16(c, "animation frames", &frames) < 0 || asset_rd_u16(c, "animation loops", &loops) < 0 ||
                asset_rd_u16(c, "an animation length", &len) < 0 || skip(c, (size_t)len, 2, "animation steps") < 0)
                return -1;
        }
        for (int b = 0; nanim && b < w->nbuf; b++) {
            int npoly;
            if (asset_rd_u16(c, "an animated polygon count", &npoly) < 0)
                return -1;
            for (int p = 0; p < npoly; p++) {
                int anim, frames, nverts;
                if (skip(c, 1, MX_POLYANIM_TAG, "a polygon animation tag") < 0 ||
                    asset_rd_u16(c, "its animation", &anim) < 0 || asset_rd_u16(c, "its frames", &frames) < 0 ||
                    asset_rd_u16(c, "its vertex count", &nverts) < 0 || skip(c, (size_t)nverts, 2, "vertex numbers") < 0 ||
                    skip(c, (size_t)nverts * (size_t)frames, 8, "texture coordinates") < 0)
                    return -1;
            }
        }
    }
    int has_points;
    if (asset_rd_u16(c, "the fire point flag", &has_points) < 0)
        return -1;
    if (!has_points)
        return c->at < c->n ? skip(c, 1, 2, "padding") : 0;
    int nfp, nsp;
    if (asset_rd_u16(c, "a fire point count", &nfp) < 0 || skip(c, (size_t)nfp, MX_FIREPOINT_SIZE, "fire points") < 0 ||
        asset_rd_u16(c, "a spot effect count", &nsp) < 0)
        return -1;
    m->num_fire_points = nfp;
    m->num_spotfx = nsp;
    for (int i = 0; i < nsp; i++)
        if (skip(c, 1, MX_SPOTFX_FIXED, "a spot effect") < 0 || skip_string(c, 127, "sound name") < 0 ||
            skip(c, 1, MX_SPOTFX_TAIL, "its sound volume and speed") < 0)
            return -1;
    return 0;
}

static int header(asset_rd_t *c, mx_t *m)
{
    if (c->n < 10 || memcmp(c->d, MX_MAGIC, 4) != 0)
        return asset_rd_fail(c, 0, "\"PRJX\" and a version");
    m->version = (int)asset_u32(c->d + 4);
    c->at = 8;
    int nt;
    if (asset_rd_u16(c, "a texture count", &nt) < 0)
        return -1;
    if (nt > MX_MAX_TEXTURES)
        return asset_rd_fail(c, 8, "at most %d textures, found %d", MX_MAX_TEXTURES, nt);
    m->num_textures = nt;
    for (int i = 0; i < nt; i++) {
        size_t start = c->at;
        if (skip_string(c, MX_NAME_LEN - 1, "texture name") < 0)
            return -1;
        size_t len = c->at - 1 - start;
        for (size_t k = 0; k < len; k++)
            if (c->d[start + k] < 32 || c->d[start + k] > 126)
                return asset_rd_fail(c, start + k, "a printable texture file name");
        memcpy(m->texture_names[i], c->d + start, len);
        m->texture_names[i][len] = 0;
    }
    return 0;
}

static void bounds(mx_t *m)
{
    int any = 0;
    m->radius = 0;
    for (int i = 0; i < m->num_tris; i++)
        for (int k = 0; k < 3; k++) {
            const float *p = m->verts[m->tris[i].v[k]].pos;
            if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
                continue;
            for (int a = 0; a < 3; a++) {
                if (!any || p[a] < m->mins[a])
                    m->mins[a] = p[a];
                if (!any || p[a] > m->maxs[a])
                    m->maxs[a] = p[a];
            }
            any = 1;
            float r = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            if (r > m->radius)
                m->radius = r;
        }
    for (int i = 0; i < m->num_anim; i++) {   // where the frames move vertices to
        const float *p = m->anim[i].pos;
        if (!(m->anim[i].flags & MX_ANIM_POS) || !isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
            continue;
        for (int a = 0; a < 3; a++) {
            m->mins[a] = !any || p[a] < m->mins[a] ? p[a] : m->mins[a];
            m->maxs[a] = !any || p[a] > m->maxs[a] ? p[a] : m->maxs[a];
        }
        any = 1;
        float r = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        m->radius = r > m->radius ? r : m->radius;
    }
}

// An MXA's frames, read again into m->anim (their counts were checked by tail()).
static void read_frames(asset_rd_t *c, walk_t *w)
{
    mx_t *m = w->m;
    c->at = w->frames_at;
    int n = 0;
    for (int f = 0; f < m->anim_frames; f++) {
        int g = 0;
        for (int b = 0; b < w->nbuf; b++)
            for (int t = 0; t < w->tgroups[b]; t++, g++) {
                int na = asset_u16(c->d + c->at);
                c->at += 2;
                m->anim_off[f * m->num_texgroups + g] = n;
                m->anim_num[f * m->num_texgroups + g] = na;
                for (int k = 0; k < na; k++, n++, c->at += MX_VERTEX_SIZE) {
                    const uint8_t *p = c->d + c->at;
                    mx_animvert_t *a = &m->anim[n];
                    for (int i = 0; i < 3; i++)
                        a->pos[i] = asset_f32(p + i * 4);
                    uint32_t col = asset_u32(p + 12);
                    a->r = (uint8_t)(col >> 16);
                    a->g = (uint8_t)(col >> 8);
                    a->b = (uint8_t)col;
                    a->st[0] = asset_f32(p + 20);
                    a->st[1] = asset_f32(p + 24);
                    a->flags = asset_u32(p + 28);
                }
            }
    }
}

// The game's colour step: from + (int8) floor((to - from) x t), in a byte.
static uint8_t colour_step(uint8_t from, uint8_t to, float t)
{
    double d = floor(((int)to - (int)from) * (double)t);
    int32_t i = (int32_t)d;   // |d| <= 255
    return (uint8_t)(from + (int8_t)(uint8_t)i);
}

void mx_pose(const mx_t *m, int from, int to, float t, mx_vertex_t *out)
{
    memcpy(out, m->verts, (size_t)m->num_verts * sizeof *out);
    if (m->anim_frames <= 1 || from < 0 || to < 0 || from >= m->anim_frames || to >= m->anim_frames)
        return;
    t = !(t >= 0) ? 0 : t > 1 ? 1 : t;
    for (int g = 0; g < m->num_texgroups; g++) {
        const mx_animvert_t *fv = m->anim + m->anim_off[from * m->num_texgroups + g];
        const mx_animvert_t *tv = m->anim + m->anim_off[to * m->num_texgroups + g];
        int nf = m->anim_num[from * m->num_texgroups + g], nt = m->anim_num[to * m->num_texgroups + g];
        for (int k = 0; k < nf && m->tg_first[g] + k < m->tg_end[g]; k++) {
            const mx_animvert_t *a = &fv[k], *b = k < nt ? &tv[k] : &fv[k];
            mx_vertex_t *o = &out[m->tg_first[g] + k];
            if (a->flags & MX_ANIM_POS)
                for (int i = 0; i < 3; i++)
                    o->pos[i] = a->pos[i] + (b->pos[i] - a->pos[i]) * t;
            if (a->flags & MX_ANIM_RGB) {
                o->r = colour_step(a->r, b->r, t);
                o->g = colour_step(a->g, b->g, t);
                o->b = colour_step(a->b, b->b, t);
                uint8_t mx = o->r > o->g ? o->r : o->g;
                o->light = mx > o->b ? mx : o->b;
            }
            if (a->flags & MX_ANIM_UV)
                for (int i = 0; i < 2; i++)
                    o->st[i] = a->st[i] + (b->st[i] - a->st[i]) * t;
        }
    }
}

mx_t *mx_load(const uint8_t *data, size_t size, const char *name, char *err, size_t errcap)
{
    if (err && errcap)
        err[0] = 0;
    asset_rd_t c = { data, data ? size : 0, 0, name ? name : "model", err, errcap, 0 };
    mx_t *m = calloc(1, sizeof *m);
    walk_t *w = calloc(1, sizeof *w);
    if (!m || !w) {
        if (err && errcap)
            snprintf(err, errcap, "%s: out of memory", c.name);
        free(m);
        free(w);
        return NULL;
    }
    w->m = m;
    if (header(&c, m) < 0)
        goto fail;
    size_t meshes_at = c.at;
    if (meshes(&c, w) < 0 || tail(&c, w) < 0)   // count, and check the whole file
        goto fail;
    m->num_verts = w->nv;
    m->num_tris = w->nt;
    m->num_texgroups = w->ntg;
    m->verts = malloc((size_t)(w->nv ? w->nv : 1) * sizeof *m->verts);
    m->tris = malloc((size_t)(w->nt ? w->nt : 1) * sizeof *m->tris);
    m->tg_first = malloc((size_t)(w->ntg ? w->ntg : 1) * sizeof *m->tg_first);
    m->tg_end = malloc((size_t)(w->ntg ? w->ntg : 1) * sizeof *m->tg_end);
    if (m->num_frames > 1) {   // bounded by the file: every count was checked against it
        m->anim_frames = m->num_frames;
        m->num_anim = w->nanim;
        size_t slots = (size_t)m->anim_frames * (size_t)(w->ntg ? w->ntg : 1);
        m->anim = malloc((size_t)(w->nanim ? w->nanim : 1) * sizeof *m->anim);
        m->anim_off = calloc(slots, sizeof *m->anim_off);
        m->anim_num = calloc(slots, sizeof *m->anim_num);
    }
    if (!m->verts || !m->tris || !m->tg_first || !m->tg_end || (m->anim_frames && (!m->anim || !m->anim_off || !m->anim_num))) {
        if (err && errcap)
            snprintf(err, errcap, "%s: out of memory for %d vertices", c.name, w->nv);
        goto fail;
    }
    c.at = meshes_at;   // copy
    w->nv = w->nt = w->nbuf = w->ntg = 0;
    if (meshes(&c, w) < 0)
        goto fail;
    if (m->anim_frames)
        read_frames(&c, w);
    for (int g = 0; g < w->nbuf; g++)
        m->num_buffers++;
    bounds(m);
    free(w);
    return m;
fail:
    free(w);
    mx_free(m);
    return NULL;
}

void mx_free(mx_t *m)
{
    if (!m)
        return;
    free(m->verts);
    free(m->tris);
    free(m->tg_first);
    free(m->tg_end);
    free(m->anim);
    free(m->anim_off);
    free(m->anim_num);
    free(m);
}

int mx_bmp24_load(const uint8_t *data, size_t size, int max_side, int *width, int *height, uint8_t **rgb, char *err,
                  size_t errcap)
{
    *rgb = NULL;
    if (!data || size < 54 || data[0] != 'B' || data[1] != 'M')
        return asset_fail(err, errcap, 0, "expected a BMP (\"BM\" and a 54-byte header)");
    uint32_t pix = asset_u32(data + 10);
    int64_t w = (int32_t)asset_u32(data + 18), h = (int32_t)asset_u32(data + 22);
    int bpp = asset_u16(data + 28);
    uint32_t comp = asset_u32(data + 30);
    if (bpp != 24 || comp != 0)
        return asset_fail(err, errcap, 28, "expected 24 bits a pixel, uncompressed, found %d bits, compression %u", bpp, comp);
    int flip = h > 0;   // rows bottom-up unless the height is negative
    if (h < 0)
        h = -h;
    if (w < 1 || h < 1 || w > max_side || h > max_side)
        return asset_fail(err, errcap, 18, "expected sides 1..%d, found %lld x %lld", max_side, (long long)w, (long long)h);
    size_t row = ((size_t)w * 3 + 3) & ~(size_t)3;
    if (pix > size || (size - pix) / row < (size_t)h)
        return asset_fail(err, errcap, pix, "expected %d rows of %zu bytes, file has %zu left", (int)h, row,
                          pix > size ? 0 : size - pix);
    uint8_t *out = malloc((size_t)w * (size_t)h * 3);
    if (!out)
        return asset_fail(err, errcap, 0, "out of memory for %d x %d pixels", (int)w, (int)h);
    for (int y = 0; y < h; y++) {
        const uint8_t *src = data + pix + (size_t)(flip ? h - 1 - y : y) * row;
        uint8_t *dst = out + (size_t)y * (size_t)w * 3;
        for (int x = 0; x < w; x++) {   // stored blue, green, red
            dst[x * 3] = src[x * 3 + 2];
            dst[x * 3 + 1] = src[x * 3 + 1];
            dst[x * 3 + 2] = src[x * 3];
        }
    }
    *width = (int)w;
    *height = (int)h;
    *rgb = out;
    return 0;
}
