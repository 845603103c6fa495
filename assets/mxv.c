// mxv.c -- Forsaken level meshes (.MXV) and their BMP textures, bounded by the file
//
// Layout (established on the ten levels of the game data, docs/forsaken.md):
//   "PRJX", u32 version (3), u16 texture count, that many NUL-terminated file names,
//   u16 group count; per group u16 buffer count; per buffer u32 type (low part the
//   execute buffer's size: vertices x 32 + triangles x 8), u16 vertex count,
//   vertices (32 bytes: f32 x y z, u32 reserved, u32 colour ARGB, u32 specular,
//   f32 tu tv), u16 texture group count; per texture group five u16 (type, first
//   vertex, vertex count, texture, triangle count) and its triangles (20 bytes:
//   u16 v0 v1 v2 indexing the buffer's vertices, u16 edge flags, f32 normal[3]).
// Then the portal section (the game's Mload.c): u16 format (0 none, 2); per group its
// name (NUL-terminated), f32 centre[3], half size[3], u16 portal count; per portal u16
// corner count, f32 corners[3], u16 polygon count, 52-byte polygons (u32 type, f32
// normal[3], f32 D, f32 u v x 4); then per group, per portal, its visibility tree:
// u16 group seen, u16 child count, children as (u16 portal of that group, u16 group,
// u16 count, children ...). What follows (group connections, sound, light cells,
// start points, animations) is not read.
#include "mxv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "bmp8.h"
#include "pal.h"

typedef struct {
    mxv_t *m;
    int fill;       // 0: validate and count, 1: copy into m (already validated)
    int verts, tris, buffers;
} walk_t;

static void vertex(mxv_vertex_t *v, const uint8_t *p)
{
    for (int k = 0; k < 3; k++)
        v->pos[k] = asset_f32(p + k * 4);
    uint32_t col = asset_u32(p + 16);
    v->a = (uint8_t)(col >> 24);
    v->r = (uint8_t)(col >> 16);
    v->g = (uint8_t)(col >> 8);
    v->b = (uint8_t)col;
    // An 8-bit colormap cannot tint: a coloured light lights as much as its brightest channel.
    v->light = v->r > v->g ? (v->r > v->b ? v->r : v->b) : (v->g > v->b ? v->g : v->b);
    v->st[0] = asset_f32(p + 24);
    v->st[1] = asset_f32(p + 28);
}

static int texgroup(asset_rd_t *c, walk_t *w, int nv, int base)
{
    size_t at = c->at;
    if (asset_rd_need(c, 1, MXV_TEXGROUP_SIZE, "a texture group header") < 0)
        return -1;
    const uint8_t *p = c->d + at;
    int first = asset_u16(p + 2), count = asset_u16(p + 4), tex = asset_u16(p + 6), ntri = asset_u16(p + 8);
    if (first + count > nv)
        return asset_rd_fail(c, at + 2, "vertices %d..%d inside the buffer's %d", first, first + count - 1, nv);
    if (tex >= w->m->num_textures)
        return asset_rd_fail(c, at + 6, "a texture number below %d, got %d", w->m->num_textures, tex);
    c->at += MXV_TEXGROUP_SIZE;
    if (asset_rd_need(c, (size_t)ntri, MXV_TRIANGLE_SIZE, "triangles") < 0)
        return -1;
    for (int i = 0; i < ntri; i++, c->at += MXV_TRIANGLE_SIZE) {
        const uint8_t *t = c->d + c->at;
        int v[3] = { asset_u16(t), asset_u16(t + 2), asset_u16(t + 4) };
        for (int k = 0; k < 3; k++)
            if (v[k] < first || v[k] >= first + count)
                return asset_rd_fail(c, c->at + (size_t)k * 2, "a vertex of texture group %d..%d, got %d", first,
                                     first + count - 1, v[k]);
        if (w->fill) {
            mxv_tri_t *o = &w->m->tris[w->tris];
            for (int k = 0; k < 3; k++) {
                o->v[k] = (uint32_t)(base + v[k]);
                o->normal[k] = asset_f32(t + 8 + k * 4);
            }
            o->texture = tex;
            o->flags = (uint16_t)asset_u16(t + 6);
            w->m->num_keyed_tris += (o->flags & MXV_TRI_COLOURKEY) != 0;
        }
        w->tris++;
    }
    return 0;
}

static int buffer(asset_rd_t *c, walk_t *w)
{
    size_t at = c->at;
    if (asset_rd_need(c, 1, 6, "a buffer header (u32 type, u16 vertex count)") < 0)
        return -1;
    uint32_t type = asset_u32(c->d + at);
    int nv = asset_u16(c->d + at + 4);
    c->at += 6;
    if (asset_rd_need(c, (size_t)nv, MXV_VERTEX_SIZE, "vertices") < 0)
        return -1;
    int base = w->verts, first_tri = w->tris;
    if (w->fill)
        for (int i = 0; i < nv; i++)
            vertex(&w->m->verts[base + i], c->d + c->at + (size_t)i * MXV_VERTEX_SIZE);
    c->at += (size_t)nv * MXV_VERTEX_SIZE;
    w->verts += nv;
    int ntg;
    if (asset_rd_u16(c, "a texture group count", &ntg) < 0)
        return -1;
    for (int i = 0; i < ntg; i++)
        if (texgroup(c, w, nv, base) < 0)
            return -1;
    if (w->fill) {
        mxv_buffer_t *b = &w->m->buffers[w->buffers];
        b->first_vert = base;
        b->num_verts = nv;
        b->first_tri = first_tri;
        b->num_tris = w->tris - first_tri;
        // The game reads an s16 (its execute buffer's size, less 512) then the u16 exec_type.
        b->flags = type >> 16;
    }
    w->buffers++;
    return 0;
}

static int walk(asset_rd_t *c, walk_t *w, size_t groups_at)
{
    c->at = groups_at;
    int ng;
    if (asset_rd_u16(c, "a group count", &ng) < 0)
        return -1;
    w->m->num_groups = ng;
    for (int g = 0; g < ng; g++) {
        int nb;
        if (asset_rd_u16(c, "a buffer count", &nb) < 0)
            return -1;
        int first = w->buffers;
        for (int i = 0; i < nb; i++)
            if (buffer(c, w) < 0)
                return -1;
        if (w->fill) {
            mxv_group_t *gr = &w->m->groups[g];
            gr->first_buffer = first;
            gr->num_buffers = nb;
        }
    }
    return 0;
}

static void group_bounds(mxv_t *m)
{
    for (int g = 0; g < m->num_groups; g++) {
        mxv_group_t *gr = &m->groups[g];
        int any = 0;
        for (int b = gr->first_buffer; b < gr->first_buffer + gr->num_buffers; b++)
            for (int i = 0; i < m->buffers[b].num_verts; i++) {
                const float *p = m->verts[m->buffers[b].first_vert + i].pos;
                for (int k = 0; k < 3; k++) {
                    if (!any || p[k] < gr->mins[k])
                        gr->mins[k] = p[k];
                    if (!any || p[k] > gr->maxs[k])
                        gr->maxs[k] = p[k];
                }
                any = 1;
            }
    }
}

static int header(asset_rd_t *c, mxv_t *m)
{
    if (asset_rd_need(c, 1, 10, "a header (\"PRJX\", u32 version, u16 texture count)") < 0)
        return -1;
    if (memcmp(c->d, MXV_MAGIC, 4) != 0)
        return asset_rd_fail(c, 0, "the magic \"PRJX\"");
    m->version = asset_s32(c->d + 4);
    if (m->version != MXV_VERSION)
        return asset_rd_fail(c, 4, "version %d, got %d", MXV_VERSION, m->version);
    int nt = asset_u16(c->d + 8);
    c->at = 10;
    if (nt > MXV_MAX_TEXTURES)
        return asset_rd_fail(c, 8, "at most %d textures, got %d", MXV_MAX_TEXTURES, nt);
    m->textures = calloc(nt ? (size_t)nt : 1, sizeof(*m->textures));
    if (!m->textures)
        return asset_rd_fail(c, 8, "memory for %d textures", nt);
    m->num_textures = nt;
    for (int i = 0; i < nt; i++) {
        const uint8_t *s = c->d + c->at, *end = memchr(s, 0, c->n - c->at);
        if (!end)
            return asset_rd_fail(c, c->at, "a NUL-terminated texture file name");
        size_t len = (size_t)(end - s);
        if (len == 0 || len >= MXV_NAME_LEN)
            return asset_rd_fail(c, c->at, "a texture file name of 1..%d characters, got %zu", MXV_NAME_LEN - 1, len);
        memcpy(m->textures[i].name, s, len);
        c->at += len + 1;
    }
    return 0;
}

// ---- portals and visibility trees -----------------------------------------------

typedef struct {
    mxv_t *m;
    int fill;       // 0: validate, count and set the groups' portal fields; 1: copy into m
    int portals, pverts, nodes;
} pwalk_t;

// A node seen through `portal` (an index into m->portals): u16 group, u16 child count,
// then per child its u16 portal (of that group) and its own node.
static int vis_tree(asset_rd_t *c, pwalk_t *w, int portal, int depth, int *index)
{
    mxv_t *m = w->m;
    size_t at = c->at;
    if (depth > MXV_MAX_VIS_DEPTH)
        return asset_rd_fail(c, at, "a visibility tree at most %d deep", MXV_MAX_VIS_DEPTH);
    if (asset_rd_need(c, 1, 4, "a visibility node (u16 group, u16 count)") < 0)
        return -1;
    int group = asset_u16(c->d + at), n = asset_u16(c->d + at + 2);
    if (group >= m->num_groups)
        return asset_rd_fail(c, at, "a group below %d, got %d", m->num_groups, group);
    c->at += 4;
    int me = w->nodes++;
    *index = me;
    if (w->fill)
        m->vis[me] = (mxv_visnode_t){ group, portal, -1, -1 };
    int prev = -1;
    const mxv_group_t *g = &m->groups[group];
    for (int i = 0; i < n; i++) {
        size_t pat = c->at;
        int pidx, child;
        if (asset_rd_u16(c, "a portal number", &pidx) < 0)
            return -1;
        if (pidx >= g->num_portals)
            return asset_rd_fail(c, pat, "a portal of group %d below %d, got %d", group, g->num_portals, pidx);
        if (vis_tree(c, w, g->first_portal + pidx, depth + 1, &child) < 0)
            return -1;
        if (w->fill) {
            if (prev < 0)
                m->vis[me].first_child = child;
            else
                m->vis[prev].next_sibling = child;
        }
        prev = child;
    }
    return 0;
}

static int portal_walk(asset_rd_t *c, pwalk_t *w, size_t start)
{
    mxv_t *m = w->m;
    c->at = start;
    for (int gi = 0; gi < m->num_groups; gi++) {
        mxv_group_t *g = &m->groups[gi];
        const uint8_t *s = c->d + c->at, *end = memchr(s, 0, c->n - c->at);
        if (!end)
            return asset_rd_fail(c, c->at, "a NUL-terminated group name");
        size_t len = (size_t)(end - s);
        if (len >= MXV_GROUP_NAME_LEN)
            return asset_rd_fail(c, c->at, "a group name of 0..%d characters, got %zu", MXV_GROUP_NAME_LEN - 1, len);
        if (!w->fill)
            memcpy(g->name, s, len);
        c->at += len + 1;
        if (asset_rd_need(c, 1, 26, "a group box (f32 centre[3], half size[3]) and u16 portal count") < 0)
            return -1;
        if (!w->fill)
            for (int k = 0; k < 3; k++) {
                g->center[k] = asset_f32(c->d + c->at + k * 4);
                g->half_size[k] = asset_f32(c->d + c->at + 12 + k * 4);
            }
        int np = asset_u16(c->d + c->at + 24);
        if (np > MXV_MAX_PORTALS)
            return asset_rd_fail(c, c->at + 24, "at most %d portals in group %d, got %d", MXV_MAX_PORTALS, gi, np);
        c->at += 26;
        if (!w->fill) {
            g->first_portal = w->portals;
            g->num_portals = np;
        }
        for (int p = 0; p < np; p++, w->portals++) {
            size_t at = c->at;
            int nv, npoly;
            if (asset_rd_u16(c, "a portal corner count", &nv) < 0)
                return -1;
            if (nv > MXV_MAX_PORTAL_VERTS)
                return asset_rd_fail(c, at, "at most %d portal corners, got %d", MXV_MAX_PORTAL_VERTS, nv);
            if (asset_rd_need(c, (size_t)nv, 12, "portal corners") < 0)
                return -1;
            if (w->fill) {
                mxv_portal_t *o = &m->portals[w->portals];
                o->first_vert = w->pverts;
                o->num_verts = nv;
                for (int i = 0; i < nv; i++)
                    for (int k = 0; k < 3; k++)
                        m->portal_verts[w->pverts + i][k] = asset_f32(c->d + c->at + (size_t)i * 12 + (size_t)k * 4);
            }
            w->pverts += nv;
            c->at += (size_t)nv * 12;
            at = c->at;
            if (asset_rd_u16(c, "a portal polygon count", &npoly) < 0)
                return -1;
            if (npoly > MXV_MAX_PORTAL_POLYS)
                return asset_rd_fail(c, at, "at most %d portal polygons, got %d", MXV_MAX_PORTAL_POLYS, npoly);
            if (asset_rd_need(c, (size_t)npoly, MXV_PORTAL_POLY_SIZE, "portal polygons") < 0)
                return -1;
            if (w->fill) {
                mxv_portal_t *o = &m->portals[w->portals];
                o->has_plane = npoly > 0;
                for (int k = 0; npoly > 0 && k < 4; k++)
                    o->plane[k] = asset_f32(c->d + c->at + 4 + (size_t)k * 4);
            }
            c->at += (size_t)npoly * MXV_PORTAL_POLY_SIZE;
        }
    }
    for (int gi = 0; gi < m->num_groups; gi++) {
        const mxv_group_t *g = &m->groups[gi];
        for (int p = 0; p < g->num_portals; p++) {
            int root;
            if (vis_tree(c, w, g->first_portal + p, 1, &root) < 0)
                return -1;
            if (w->fill)
                m->portals[g->first_portal + p].root = root;
        }
    }
    return 0;
}

static void drop_portals(mxv_t *m)
{
    free(m->portals);
    free(m->portal_verts);
    free(m->vis);
    m->portals = NULL;
    m->portal_verts = NULL;
    m->vis = NULL;
    m->num_portals = m->num_portal_verts = m->num_vis = 0;
    m->has_portals = 0;
    for (int g = 0; g < m->num_groups; g++) {
        memset(m->groups[g].name, 0, sizeof m->groups[g].name);
        m->groups[g].first_portal = m->groups[g].num_portals = 0;
        for (int k = 0; k < 3; k++)
            m->groups[g].center[k] = m->groups[g].half_size[k] = 0;
    }
}

// The portal section after the meshes. A bad one is not an error for the level: it is
// drawn whole (as the game draws when the eye is in no group), with portal_warning set.
static void load_portals(const uint8_t *data, size_t size, const char *name, mxv_t *m)
{
    asset_rd_t c = { data, size, m->mesh_end, name, m->portal_warning, sizeof m->portal_warning, 0 };
    int format;
    if (c.at >= c.n)
        return;   // the file ends with its meshes: no portals
    if (asset_rd_u16(&c, "a portal section format (u16)", &format) < 0)
        return;
    if (format == 0)
        return;   // no portals: everything is drawn
    if (format != MXV_VIS_FORMAT) {
        asset_rd_fail(&c, m->mesh_end, "portal section format 0 or %d, got %d", MXV_VIS_FORMAT, format);
        return;
    }
    size_t start = c.at;
    pwalk_t w = { m, 0, 0, 0, 0 };
    if (portal_walk(&c, &w, start) < 0) {
        drop_portals(m);
        return;
    }
    m->portals = calloc(w.portals ? (size_t)w.portals : 1, sizeof(*m->portals));
    m->portal_verts = malloc((w.pverts ? (size_t)w.pverts : 1) * sizeof(*m->portal_verts));
    m->vis = malloc((w.nodes ? (size_t)w.nodes : 1) * sizeof(*m->vis));
    if (!m->portals || !m->portal_verts || !m->vis) {
        asset_rd_fail(&c, start, "memory for %d portals and %d visibility nodes", w.portals, w.nodes);
        drop_portals(m);
        return;
    }
    m->num_portals = w.portals;
    m->num_portal_verts = w.pverts;
    m->num_vis = w.nodes;
    pwalk_t fill = { m, 1, 0, 0, 0 };
    portal_walk(&c, &fill, start);
    m->portal_end = c.at;
    m->has_portals = 1;
}

// The sound distances after the portal section's group connection tables (a bad or missing table:
// sound_info stays NULL, sound_warning says why).
static void load_sound_info(const uint8_t *data, size_t size, const char *name, mxv_t *m)
{
    if (!m->has_portals)
        return;
    asset_rd_t c = { data, size, m->portal_end, name, m->sound_warning, sizeof m->sound_warning, 0 };
    size_t ng = (size_t)m->num_groups;
    for (int t = 0; t < 3; t++) {   // connected, visible, indirectly visible: table then lists
        if (asset_rd_need(&c, ng, 16, "a group connection table") < 0)
            return;
        c.at += ng * 16;
        for (size_t g = 0; g < ng; g++) {
            int n;
            if (asset_rd_u16(&c, "a group list's count", &n) < 0 || asset_rd_need(&c, (size_t)n, 2, "a group list") < 0)
                return;
            c.at += (size_t)n * 2;
        }
    }
    if (asset_rd_need(&c, ng * ng, 4, "the sound distances") < 0)
        return;
    m->sound_info = malloc((ng ? ng * ng : 1) * sizeof *m->sound_info);
    if (!m->sound_info) {
        asset_rd_fail(&c, c.at, "memory for the sound distances");
        return;
    }
    for (size_t i = 0; i < ng * ng; i++) {
        float v = asset_f32(data + c.at + i * 4);
        m->sound_info[i] = isfinite(v) ? v : -1.0f;   // a damaged entry: not heard
    }
}

float mxv_first_hit(const mxv_t *m, const float org[3], const float dir[3], float max, int *tri)
{
    float best = max;
    int hit = -1;
    for (int i = 0; m && i < m->num_tris; i++) {
        const float *a = m->verts[m->tris[i].v[0]].pos, *b = m->verts[m->tris[i].v[1]].pos,
                    *c = m->verts[m->tris[i].v[2]].pos;
        float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
        float t = mxv_ray_tri(org, dir, a, e1, e2);
        if (t > 0.5f && t < best) {
            best = t;
            hit = i;
        }
    }
    if (tri)
        *tri = hit;
    return best;
}

void mxv_free(mxv_t *m)
{
    if (!m)
        return;
    free(m->sound_info);
    free(m->portals);
    free(m->portal_verts);
    free(m->vis);
    free(m->textures);
    free(m->groups);
    free(m->buffers);
    free(m->verts);
    free(m->tris);
    free(m->texels);
    free(m->keys);
    free(m);
}

mxv_t *mxv_load(const uint8_t *data, size_t size, const char *name, char *err, size_t errcap)
{
    asset_rd_t c = { data, size, 0, name ? name : "mxv", err, errcap, 0 };
    if (err && errcap)
        err[0] = 0;
    mxv_t *m = calloc(1, sizeof(*m));
    if (!m) {
        asset_rd_fail(&c, 0, "memory for the level");
        return NULL;
    }
    if (!data)
        c.n = 0;
    if (header(&c, m) < 0)
        goto bad;
    size_t groups_at = c.at;
    walk_t w = { m, 0, 0, 0, 0 };
    if (walk(&c, &w, groups_at) < 0)
        goto bad;
    m->mesh_end = c.at;
    // Every count was read from bytes that are in the file: these are bounded by its size.
    m->groups = calloc(m->num_groups ? (size_t)m->num_groups : 1, sizeof(*m->groups));
    m->buffers = calloc(w.buffers ? (size_t)w.buffers : 1, sizeof(*m->buffers));
    m->verts = malloc((w.verts ? (size_t)w.verts : 1) * sizeof(*m->verts));
    m->tris = malloc((w.tris ? (size_t)w.tris : 1) * sizeof(*m->tris));
    if (!m->groups || !m->buffers || !m->verts || !m->tris) {
        asset_rd_fail(&c, groups_at, "memory for %d vertices and %d triangles", w.verts, w.tris);
        goto bad;
    }
    m->num_buffers = w.buffers;
    m->num_verts = w.verts;
    m->num_tris = w.tris;
    walk_t fill = { m, 1, 0, 0, 0 };
    walk(&c, &fill, groups_at);
    group_bounds(m);
    load_portals(data, c.n, c.name, m);
    load_sound_info(data, c.n, c.name, m);
    return m;
bad:
    mxv_free(m);
    return NULL;
}

// ---- textures -------------------------------------------------------------------

int mxv_bmp_load(const uint8_t *data, size_t size, int max_side, int *width, int *height, uint8_t **pixels,
                 uint8_t palette[768], char *err, size_t errcap)
{
    asset_rd_t c = { data, data ? size : 0, 0, "bmp", NULL, 0, 0 };
    char msg[256] = "";
    c.err = msg;
    c.cap = sizeof msg;
    *pixels = NULL;
    if (c.n < 54 || data[0] != 'B' || data[1] != 'M') {
        asset_rd_fail(&c, 0, "a BMP file header (\"BM\", 54 bytes)");
        goto bad;
    }
    uint32_t bits_at = asset_u32(data + 10), hsize = asset_u32(data + 14);
    int32_t w = asset_s32(data + 18), h = asset_s32(data + 22);
    int bpp = asset_u16(data + 28);
    uint32_t comp = asset_u32(data + 30), used = asset_u32(data + 46);
    if (hsize < 40 || hsize > c.n - 14) {
        asset_rd_fail(&c, 14, "an info header of 40.. bytes, got %u", hsize);
        goto bad;
    }
    if (bpp == 8 && comp == 1) {
        // RLE8 (borg.bmp, Flags.bmp and seven more of Data/Textures): bmp8.c reads the runs
        bmp8_t b;
        if (bmp8_load(&b, data, size, max_side, msg, sizeof msg) < 0) {
            if (err && errcap)
                snprintf(err, errcap, "%s", msg);
            return -1;
        }
        memcpy(palette, b.palette, 768);
        *pixels = b.pixels;
        *width = b.width;
        *height = b.height;
        return 0;
    }
    if (bpp != 8 || comp != 0) {
        asset_rd_fail(&c, 28, "8 bits a pixel, uncompressed or RLE8, got %d bits, compression %u", bpp, comp);
        goto bad;
    }
    int flip = h > 0;   // positive height: bottom row first
    int64_t ah = h < 0 ? -(int64_t)h : h;
    if (w < 1 || w > max_side || ah < 1 || ah > max_side) {
        asset_rd_fail(&c, 18, "a picture of 1..%d pixels a side, got %dx%lld", max_side, w, (long long)ah);
        goto bad;
    }
    if (used == 0 || used > 256)
        used = 256;
    size_t pal_at = 14 + (size_t)hsize;
    if ((size_t)used * 4 > c.n - pal_at) {
        asset_rd_fail(&c, pal_at, "a palette of %u colours", used);
        goto bad;
    }
    memset(palette, 0, 768);
    for (uint32_t i = 0; i < used; i++) {   // stored blue, green, red, 0
        palette[i * 3] = data[pal_at + i * 4 + 2];
        palette[i * 3 + 1] = data[pal_at + i * 4 + 1];
        palette[i * 3 + 2] = data[pal_at + i * 4];
    }
    size_t pitch = ((size_t)w + 3) & ~(size_t)3;
    if (bits_at > c.n || (size_t)ah > (c.n - bits_at) / pitch) {
        asset_rd_fail(&c, 10, "%lld rows of %zu bytes from offset %u inside the %zu-byte file", (long long)ah, pitch,
                      bits_at, c.n);
        goto bad;
    }
    *pixels = malloc((size_t)w * (size_t)ah);
    if (!*pixels) {
        asset_rd_fail(&c, 0, "memory for the picture");
        goto bad;
    }
    for (int64_t y = 0; y < ah; y++) {
        int64_t src = flip ? ah - 1 - y : y;
        memcpy(*pixels + (size_t)y * (size_t)w, data + bits_at + (size_t)src * pitch, (size_t)w);
    }
    *width = w;
    *height = (int)ah;
    return 0;
bad:
    if (err && errcap)
        snprintf(err, errcap, "%s", msg + 5);   // without the "bmp: " prefix
    return -1;
}

typedef struct {
    uint8_t *pixels;
    int width, height;
    uint8_t pal[768];
} bmp_src_t;

static uint8_t *load_texture_file(const asset_files_t *files, const char *dir, const char *name, size_t *size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/textures/%s", dir ? dir : ".", name);
    uint8_t *d = asset_load(files, path, size);
    if (!d) {
        snprintf(path, sizeof path, "textures/%s", name);
        d = asset_load(files, path, size);
    }
    return d;
}

// The game's text and panel colours (Data/Pictures FONT.BMP, FONT512.BMP, PANEL.BMP: the
// colour blocks of Text.c's Colourtrans in both fonts' brightest shades, the large font's
// mid greens, the panel bars' reds and yellows). A level palette made from grey textures
// has no green, so the messages would come out grey-teal: these are kept in every level's
// palette (docs/forsaken.md, "Colours").
static const uint8_t hud_colours[MXV_HUD_COLOURS][3] = {
    { 255, 255, 255 }, { 255, 28, 28 }, { 0, 255, 0 },   { 0, 197, 0 },   { 56, 56, 255 },  { 255, 255, 0 },
    { 0, 255, 255 },   { 255, 128, 255 }, { 148, 244, 148 }, { 79, 79, 79 }, { 205, 0, 0 },   { 0, 178, 0 },
    { 0, 205, 0 },     { 205, 205, 0 },   { 0, 205, 205 },   { 205, 0, 200 }, { 102, 102, 102 }, { 108, 205, 108 },
    { 0, 0, 205 },     { 0, 130, 0 },     { 0, 83, 0 },      { 255, 0, 0 },   { 192, 60, 0 },   { 116, 116, 0 },
};

// The palette: the textures' colours by median cut (as a GoldSrc level's), the game's HUD
// colours, and a grey ramp kept so the darkened colormap rows have something to fall on.
static void choose_palette(mxv_t *m, const bmp_src_t *src, uint32_t *hist)
{
    for (int i = 0; i < m->num_textures; i++) {
        const bmp_src_t *s = &src[i];
        if (!s->pixels)
            continue;
        uint32_t counts[256] = { 0 };
        size_t np = (size_t)s->width * (size_t)s->height;
        for (size_t k = 0; k < np; k++)
            counts[s->pixels[k]]++;
        for (int c = 0; c < 256; c++)
            if (counts[c])
                hist[(s->pal[c * 3] >> 3) << 10 | (s->pal[c * 3 + 1] >> 3) << 5 | s->pal[c * 3 + 2] >> 3] += counts[c];
    }
    memset(m->palette, 0, sizeof m->palette);
    int n = pal_median_cut(hist, 240 - MXV_HUD_COLOURS, m->palette);
    for (int i = 0; i < MXV_HUD_COLOURS; i++, n++)
        memcpy(m->palette + n * 3, hud_colours[i], 3);
    n = 240;   // the ramp is always the last 16
    for (int g = 0; n < 256; g++, n++)
        m->palette[n * 3] = m->palette[n * 3 + 1] = m->palette[n * 3 + 2] = (uint8_t)(g * 255 / 15 > 255 ? 255 : g * 255 / 15);
}

int mxv_load_textures(mxv_t *m, const asset_files_t *files, const char *dir)
{
    int nt = m->num_textures, missing = 0;
    bmp_src_t *src = calloc(nt ? (size_t)nt : 1, sizeof(*src));
    uint32_t *hist = calloc(32768, sizeof(uint32_t));
    int rc = -1;
    if (!src || !hist)
        goto done;
    size_t total = 0;
    for (int i = 0; i < nt; i++) {
        size_t size = 0;
        uint8_t *d = load_texture_file(files, dir, m->textures[i].name, &size);
        char err[256];
        int ok = d && mxv_bmp_load(d, size, MXV_MAX_TEX_SIDE, &src[i].width, &src[i].height, &src[i].pixels, src[i].pal, err,
                                   sizeof err) == 0;
        // Texture coordinates wrap by masking: sides must be powers of two (the game's all are).
        if (ok && ((src[i].width & (src[i].width - 1)) || (src[i].height & (src[i].height - 1))))
            ok = 0;
        if (!ok) {
            free(src[i].pixels);
            src[i].pixels = NULL;
            src[i].width = src[i].height = MXV_DEFAULT_SIDE;
            m->textures[i].missing = 1;
            missing++;
        }
        free(d);
        total += (size_t)src[i].width * (size_t)src[i].height;
    }
    choose_palette(m, src, hist);
    free(m->texels);
    m->texels = malloc(total ? total : 1);
    if (!m->texels)
        goto done;
    m->texels_size = total;
    free(m->keys);
    m->keys = NULL;
    uint8_t light = (uint8_t)pal_nearest(m->palette, 256, 150, 150, 150), dark = (uint8_t)pal_nearest(m->palette, 256, 90, 90, 90);
    size_t o = 0;
    for (int i = 0; i < nt; i++) {
        mxv_texture_t *t = &m->textures[i];
        t->width = src[i].width;
        t->height = src[i].height;
        t->offset = o;
        t->key_texels = 0;
        size_t np = (size_t)t->width * (size_t)t->height;
        if (!src[i].pixels) {
            for (int y = 0; y < t->height; y++)
                for (int x = 0; x < t->width; x++)
                    m->texels[o + (size_t)y * (size_t)t->width + (size_t)x] = ((x >> 2) ^ (y >> 2)) & 1 ? light : dark;
        } else {
            uint8_t lut[256];
            for (int c = 0; c < 256; c++)
                lut[c] = (uint8_t)pal_nearest(m->palette, 256, src[i].pal[c * 3], src[i].pal[c * 3 + 1], src[i].pal[c * 3 + 2]);
            for (size_t k = 0; k < np; k++)
                m->texels[o + k] = lut[src[i].pixels[k]];
            // The game's colour key: black, on textures whose palette starts with black.
            const uint8_t *p0 = src[i].pal;
            if ((p0[0] | p0[1] | p0[2]) == 0) {
                for (size_t k = 0; k < np; k++) {
                    const uint8_t *c = src[i].pal + src[i].pixels[k] * 3;
                    if ((c[0] | c[1] | c[2]) != 0)
                        continue;
                    if (!m->keys && !(m->keys = calloc(total, 1)))
                        goto done;
                    m->keys[o + k] = 1;
                    t->key_texels++;
                }
            }
        }
        o += np;
    }
    m->textures_missing = missing;
    rc = missing;
done:
    for (int i = 0; src && i < nt; i++)
        free(src[i].pixels);
    free(src);
    free(hist);
    return rc;
}
