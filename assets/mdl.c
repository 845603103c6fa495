// mdl.c -- Quake alias model loader: every read bounded, sizes checked before allocation
#include "mdl.h"
#include "asset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/msg.h"

#define MDL_HEADER_SIZE 84


static void read_vec(msg_t *r, float *v)
{
    for (int i = 0; i < 3; i++)
        v[i] = msg_f32(r);
}

// Reads `n` intervals; Quake refuses intervals <= 0 (they would stall the
// group), so do we. NaN fails the same test.
static int read_intervals(msg_t *r, int n, float *out, char *err, size_t cap)
{
    for (int i = 0; i < n; i++) {
        size_t off = msg_offset(r);
        float f = msg_f32(r);
        if (r->bad)
            return asset_fail(err, cap, off, "expected group interval, found end of file");
        if (!(f > 0.0f) || !isfinite(f))
            return asset_fail(err, cap, off, "expected group interval > 0, found %g", (double)f);
        if (out)
            out[i] = f;
    }
    return 0;
}

void mdl_free(mdl_t *m)
{
    if (!m)
        return;
    free(m->skins);
    free(m->skin_pixels);
    free(m->st);
    free(m->tris);
    free(m->frames);
    free(m->poses);
    free(m->intervals);
    free(m->pose_xform);
    free(m->pose_box);
    memset(m, 0, sizeof(*m));
}

// Walks skins and frames. With fill == 0 it only counts images, poses and
// intervals (and validates); with fill == 1 it writes into the arrays sized by
// the first pass.
static int walk(mdl_t *m, const uint8_t *data, size_t size, int fill, char *err, size_t cap)
{
    msg_t r;
    msg_init(&r, data, size, 0);
    msg_bytes(&r, MDL_HEADER_SIZE);
    size_t skinsize = (size_t)m->skinwidth * (size_t)m->skinheight;
    int images = 0, poses = 0, intervals = 0;

    for (int i = 0; i < m->numskins; i++) {
        size_t off = msg_offset(&r);
        int32_t type = msg_s32(&r);
        if (r.bad)
            return asset_fail(err, cap, off, "expected skin %d of %d, found end of file", i, m->numskins);
        int n = 1;
        float *iv = NULL;
        if (type != 0) {
            off = msg_offset(&r);
            n = msg_s32(&r);
            if (r.bad || n < 1 || n > MDL_MAX_SKINS)
                return asset_fail(err, cap, off, "expected skin group size 1..%d, found %d", MDL_MAX_SKINS, n);
            if (fill)
                iv = m->intervals + intervals;
            if (read_intervals(&r, n, iv, err, cap) < 0)
                return -1;
        }
        if (fill) {
            m->skins[i].first = images;
            m->skins[i].count = n;
            m->skins[i].first_interval = type != 0 ? intervals : -1;
        }
        if (type != 0)
            intervals += n;
        for (int k = 0; k < n; k++) {
            off = msg_offset(&r);
            const uint8_t *px = msg_bytes(&r, skinsize);
            if (!px)
                return asset_fail(err, cap, off, "expected %zu bytes of skin %d image %d, found %zu", skinsize, i, k,
                            size > off ? size - off : 0);
            if (fill)
                memcpy(m->skin_pixels + (size_t)(images + k) * skinsize, px, skinsize);
        }
        images += n;
    }

    size_t off = msg_offset(&r);
    if (!msg_bytes(&r, (size_t)m->numverts * 12))
        return asset_fail(err, cap, off, "expected %d texture coordinates (%d bytes)", m->numverts, m->numverts * 12);
    if (fill) {
        msg_t s;
        msg_init(&s, data + off, (size_t)m->numverts * 12, off);
        for (int i = 0; i < m->numverts; i++) {
            m->st[i].onseam = msg_s32(&s);
            m->st[i].s = msg_s32(&s);
            m->st[i].t = msg_s32(&s);
        }
    }
    off = msg_offset(&r);
    if (!msg_bytes(&r, (size_t)m->numtris * 16))
        return asset_fail(err, cap, off, "expected %d triangles (%d bytes)", m->numtris, m->numtris * 16);
    if (fill) {
        msg_t s;
        msg_init(&s, data + off, (size_t)m->numtris * 16, off);
        for (int i = 0; i < m->numtris; i++) {
            size_t toff = msg_offset(&s);
            m->tris[i].facesfront = msg_s32(&s);
            for (int k = 0; k < 3; k++) {
                int32_t v = msg_s32(&s);
                if (v < 0 || v >= m->numverts)
                    return asset_fail(err, cap, toff, "expected vertex index 0..%d in triangle %d, found %d",
                                m->numverts - 1, i, v);
                m->tris[i].v[k] = v;
            }
        }
    }

    size_t posesize = (size_t)m->numverts * 4;
    for (int i = 0; i < m->numframes; i++) {
        off = msg_offset(&r);
        int32_t type = msg_s32(&r);
        if (r.bad)
            return asset_fail(err, cap, off, "expected frame %d of %d, found end of file", i, m->numframes);
        int n = 1;
        if (type != 0) {
            off = msg_offset(&r);
            n = msg_s32(&r);
            if (r.bad || n < 1 || n > MDL_MAX_FRAMES)
                return asset_fail(err, cap, off, "expected frame group size 1..%d, found %d", MDL_MAX_FRAMES, n);
            msg_bytes(&r, 8);   // group bounds
            if (read_intervals(&r, n, fill ? m->intervals + intervals : NULL, err, cap) < 0)
                return -1;
        }
        if (fill) {
            m->frames[i].first = poses;
            m->frames[i].count = n;
            m->frames[i].first_interval = type != 0 ? intervals : -1;
        }
        if (type != 0)
            intervals += n;
        for (int k = 0; k < n; k++) {
            off = msg_offset(&r);
            msg_bytes(&r, 8);   // bboxmin, bboxmax
            const uint8_t *name = msg_bytes(&r, 16);
            const uint8_t *vs = msg_bytes(&r, posesize);
            if (!vs)
                return asset_fail(err, cap, off, "expected frame %d pose %d (%zu bytes), found end of file", i, k,
                            24 + posesize);
            if (fill) {
                if (k == 0) {
                    memcpy(m->frames[i].name, name, 16);
                    m->frames[i].name[16] = 0;
                }
                mdl_vert_t *dst = m->poses + (size_t)(poses + k) * (size_t)m->numverts;
                for (int j = 0; j < m->numverts; j++) {
                    memcpy(dst[j].v, vs + j * 4, 3);
                    // a bad normal index would read past the table: clamp it
                    dst[j].normal = vs[j * 4 + 3] < MDL_NUM_NORMALS ? vs[j * 4 + 3] : 0;
                }
            }
        }
        poses += n;
    }
    if (!fill) {
        m->num_skin_images = images;
        m->num_poses = poses;
        m->num_intervals = intervals;
    }
    return 0;
}

int mdl_load(mdl_t *m, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    memset(m, 0, sizeof(*m));
    msg_t r;
    msg_init(&r, data, size, 0);
    if (size < MDL_HEADER_SIZE)
        return asset_fail(err, errcap, 0, "expected an 84-byte MDL header, found %zu bytes", size);
    if (memcmp(data, "IDPO", 4) != 0)
        return asset_fail(err, errcap, 0, "expected magic \"IDPO\"");
    msg_bytes(&r, 4);
    int32_t version = msg_s32(&r);
    if (version != 6)
        return asset_fail(err, errcap, 4, "expected MDL version 6, found %d", version);
    read_vec(&r, m->scale);
    read_vec(&r, m->translate);
    m->radius = msg_f32(&r);
    read_vec(&r, m->eye);
    m->numskins = msg_s32(&r);
    m->skinwidth = msg_s32(&r);
    m->skinheight = msg_s32(&r);
    m->numverts = msg_s32(&r);
    m->numtris = msg_s32(&r);
    m->numframes = msg_s32(&r);
    m->synctype = msg_s32(&r);
    m->flags = msg_s32(&r);
    m->size = msg_f32(&r);
    for (int i = 0; i < 3; i++)
        if (!isfinite(m->scale[i]) || !isfinite(m->translate[i]))
            return asset_fail(err, errcap, 8, "expected finite scale and origin");
    if (!isfinite(m->radius))
        m->radius = 0;
    if (m->numskins < 1 || m->numskins > MDL_MAX_SKINS)
        return asset_fail(err, errcap, 48, "expected 1..%d skins, found %d", MDL_MAX_SKINS, m->numskins);
    if (m->skinwidth < 1 || m->skinheight < 1 || m->skinwidth > MDL_MAX_SKIN_DIM || m->skinheight > MDL_MAX_SKIN_DIM)
        return asset_fail(err, errcap, 52, "expected skin size 1..%d, found %dx%d", MDL_MAX_SKIN_DIM, m->skinwidth,
                    m->skinheight);
    if (m->numverts < 1 || m->numverts > MDL_MAX_VERTS)
        return asset_fail(err, errcap, 60, "expected 1..%d vertices, found %d", MDL_MAX_VERTS, m->numverts);
    if (m->numtris < 1 || m->numtris > MDL_MAX_TRIS)
        return asset_fail(err, errcap, 64, "expected 1..%d triangles, found %d", MDL_MAX_TRIS, m->numtris);
    if (m->numframes < 1 || m->numframes > MDL_MAX_FRAMES)
        return asset_fail(err, errcap, 68, "expected 1..%d frames, found %d", MDL_MAX_FRAMES, m->numframes);
    // The smallest possible body must fit before anything is allocated.
    size_t skinsize = (size_t)m->skinwidth * (size_t)m->skinheight;
    size_t least = MDL_HEADER_SIZE + (size_t)m->numskins * (4 + skinsize) + (size_t)m->numverts * 12 +
                   (size_t)m->numtris * 16 + (size_t)m->numframes * (4 + 24 + (size_t)m->numverts * 4);
    if (least > size)
        return asset_fail(err, errcap, size, "expected at least %zu bytes for the counts in the header", least);

    if (walk(m, data, size, 0, err, errcap) < 0) {
        memset(m, 0, sizeof(*m));
        return -1;
    }
    // Each image / pose / interval was bounds-checked against the bytes in the first pass,
    // so these sizes are bounded by the file size.
    m->skins = calloc((size_t)m->numskins, sizeof(*m->skins));
    m->skin_pixels = malloc((size_t)m->num_skin_images * skinsize);
    m->st = calloc((size_t)m->numverts, sizeof(*m->st));
    m->tris = calloc((size_t)m->numtris, sizeof(*m->tris));
    m->frames = calloc((size_t)m->numframes, sizeof(*m->frames));
    m->poses = malloc((size_t)m->num_poses * (size_t)m->numverts * sizeof(mdl_vert_t));
    m->intervals = calloc((size_t)m->num_intervals + 1, sizeof(float));
    m->pose_box = malloc((size_t)m->num_poses * 6);
    if (!m->skins || !m->skin_pixels || !m->st || !m->tris || !m->frames || !m->poses || !m->intervals ||
        !m->pose_box) {
        mdl_free(m);
        return asset_fail(err, errcap, 0, "out of memory");
    }
    if (walk(m, data, size, 1, err, errcap) < 0) {
        mdl_free(m);
        return -1;
    }
    for (int i = 0; i < m->numverts; i++) {
        // texture coordinates outside the skin would sample outside it
        if (m->st[i].s < 0 || m->st[i].s > m->skinwidth || m->st[i].t < 0 || m->st[i].t > m->skinheight) {
            m->st[i].s = m->st[i].s < 0 ? 0 : m->st[i].s > m->skinwidth ? m->skinwidth : m->st[i].s;
            m->st[i].t = m->st[i].t < 0 ? 0 : m->st[i].t > m->skinheight ? m->skinheight : m->st[i].t;
        }
    }
    for (int k = 0; k < 3; k++) {
        m->mins[k] = 1e30f;
        m->maxs[k] = -1e30f;
    }
    uint8_t lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (int p = 0; p < m->num_poses; p++) {
        uint8_t *box = m->pose_box + (size_t)p * 6;
        const mdl_vert_t *pv = mdl_pose_verts(m, p);
        for (int k = 0; k < 3; k++) {
            box[k] = 255;
            box[3 + k] = 0;
        }
        for (int i = 0; i < m->numverts; i++)
            for (int k = 0; k < 3; k++) {
                if (pv[i].v[k] < box[k])
                    box[k] = pv[i].v[k];
                if (pv[i].v[k] > box[3 + k])
                    box[3 + k] = pv[i].v[k];
            }
        for (int k = 0; k < 3; k++) {
            lo[k] = box[k] < lo[k] ? box[k] : lo[k];
            hi[k] = box[3 + k] > hi[k] ? box[3 + k] : hi[k];
        }
    }
    for (int k = 0; k < 3; k++) {
        float a = lo[k] * m->scale[k] + m->translate[k], b = hi[k] * m->scale[k] + m->translate[k];
        m->mins[k] = a < b ? a : b;
        m->maxs[k] = a < b ? b : a;
    }
    return 0;
}

int mdl_group_index(const float *iv, int n, double time)
{
    if (n <= 1)
        return 0;
    double full = iv[n - 1];
    if (!(full > 0))
        return 0;
    double t = fmod(time, full);
    if (t < 0)
        t += full;
    int i = 0;
    while (i < n - 1 && iv[i] <= t)
        i++;
    return i;
}

int mdl_pose(const mdl_t *m, int frame, double time)
{
    if (frame < 0 || frame >= m->numframes)
        frame = 0;
    const mdl_group_t *g = &m->frames[frame];
    if (g->count <= 1 || g->first_interval < 0)
        return g->first;
    return g->first + mdl_group_index(m->intervals + g->first_interval, g->count, time);
}

const uint8_t *mdl_skin(const mdl_t *m, int skin, double time)
{
    if (skin < 0 || skin >= m->numskins)
        skin = 0;
    const mdl_group_t *g = &m->skins[skin];
    int img = g->first;
    if (g->count > 1 && g->first_interval >= 0)
        img += mdl_group_index(m->intervals + g->first_interval, g->count, time);
    return m->skin_pixels + (size_t)img * (size_t)m->skinwidth * (size_t)m->skinheight;
}
