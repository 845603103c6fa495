// md2.c -- Quake II alias model loader: header and sections checked against the file before use
#include "md2.h"
#include "asset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/msg.h"
#include "pcx.h"

#define MD2_HEADER_SIZE 68
#define MD2_FRAME_HEADER 40     // scale[3], translate[3], name[16]
#define MD2_SKIN_NAME 64
#define MD2_PLAIN_SKIN 8        // a mid grey of Quake II's palette

// The header's 17 ints, in file order.
typedef struct {
    int32_t ident, version, skinwidth, skinheight, framesize;
    int32_t num_skins, num_xyz, num_st, num_tris, num_glcmds, num_frames;
    int32_t ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_glcmds, ofs_end;
} md2_header_t;


// A count in the header (at byte `at`) within lo..hi.
static int check_count(int32_t v, int32_t lo, int32_t hi, size_t at, const char *what, char *err, size_t cap)
{
    if (v < lo || v > hi)
        return asset_fail(err, cap, at, "expected %d..%d %s, found %d", lo, hi, what, v);
    return 0;
}

// A section of `count` items of `elem` bytes at the offset stored in the header at byte `at`.
static int check_section(int32_t ofs, int32_t count, size_t elem, size_t size, size_t at, const char *what,
                         char *err, size_t cap)
{
    size_t bytes = (size_t)count * elem;
    if (ofs < MD2_HEADER_SIZE || (size_t)ofs > size || bytes > size - (size_t)ofs)
        return asset_fail(err, cap, at, "expected %s (%zu bytes) inside the %zu-byte file, found them at %d", what, bytes,
                    size, ofs);
    return 0;
}

static int read_header(md2_header_t *h, const uint8_t *data, size_t size, char *err, size_t cap)
{
    if (size < MD2_HEADER_SIZE)
        return asset_fail(err, cap, 0, "expected a 68-byte MD2 header, found %zu bytes", size);
    if (memcmp(data, "IDP2", 4) != 0)
        return asset_fail(err, cap, 0, "expected magic \"IDP2\"");
    msg_t r;
    msg_init(&r, data, size, 0);
    int32_t *f = &h->ident;
    for (int i = 0; i < 17; i++)
        f[i] = msg_s32(&r);
    if (h->version != 8)
        return asset_fail(err, cap, 4, "expected MD2 version 8, found %d", h->version);
    if (h->skinwidth < 1 || h->skinheight < 1 || h->skinwidth > MD2_MAX_SKIN_DIM || h->skinheight > MD2_MAX_SKIN_DIM)
        return asset_fail(err, cap, 8, "expected skin size 1..%d, found %dx%d", MD2_MAX_SKIN_DIM, h->skinwidth,
                    h->skinheight);
    if (check_count(h->num_skins, 0, MD2_MAX_SKINS, 20, "skins", err, cap) < 0 ||
        check_count(h->num_xyz, 1, MD2_MAX_XYZ, 24, "vertices", err, cap) < 0 ||
        check_count(h->num_st, 1, MD2_MAX_ST, 28, "texture coordinates", err, cap) < 0 ||
        check_count(h->num_tris, 1, MD2_MAX_TRIS, 32, "triangles", err, cap) < 0 ||
        check_count(h->num_frames, 1, MD2_MAX_FRAMES, 40, "frames", err, cap) < 0)
        return -1;
    int32_t least = MD2_FRAME_HEADER + 4 * h->num_xyz;
    if (h->framesize < least || h->framesize > least + 65536)
        return asset_fail(err, cap, 16, "expected a frame size of %d (40 + 4 per vertex), found %d", least, h->framesize);
    if (check_section(h->ofs_skins, h->num_skins, MD2_SKIN_NAME, size, 44, "the skin names", err, cap) < 0 ||
        check_section(h->ofs_st, h->num_st, 4, size, 48, "the texture coordinates", err, cap) < 0 ||
        check_section(h->ofs_tris, h->num_tris, 12, size, 52, "the triangles", err, cap) < 0 ||
        check_section(h->ofs_frames, h->num_frames, (size_t)h->framesize, size, 56, "the frames", err, cap) < 0)
        return -1;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// Triangles and texture coordinates: every distinct (vertex, st) corner pair
// becomes one mdl vertex. *xyz_of gets, per mdl vertex, its MD2 vertex.
static int build_mesh(mdl_t *m, const md2_header_t *h, const uint8_t *data, int32_t **xyz_of, char *err,
                      size_t cap)
{
    size_t corners = (size_t)h->num_tris * 3;
    int rc = -1;
    uint64_t *keys = malloc(corners * sizeof(uint64_t));
    int32_t *st_of = malloc(corners * sizeof(int32_t));
    *xyz_of = malloc(corners * sizeof(int32_t));
    m->tris = calloc((size_t)h->num_tris, sizeof(mdl_tri_t));
    if (!keys || !st_of || !*xyz_of || !m->tris) {
        asset_fail(err, cap, 0, "out of memory");
        goto out;
    }
    msg_t r;
    msg_init(&r, data + h->ofs_tris, (size_t)h->num_tris * 12, (size_t)h->ofs_tris);
    for (int i = 0; i < h->num_tris; i++) {
        size_t off = msg_offset(&r);
        int32_t xyz[3], st[3];
        for (int k = 0; k < 3; k++)
            xyz[k] = (int32_t)msg_u16(&r);
        for (int k = 0; k < 3; k++)
            st[k] = (int32_t)msg_u16(&r);
        for (int k = 0; k < 3; k++) {
            if (xyz[k] >= h->num_xyz) {
                asset_fail(err, cap, off, "expected vertex index 0..%d in triangle %d, found %d", h->num_xyz - 1, i, xyz[k]);
                goto out;
            }
            if (st[k] >= h->num_st) {
                asset_fail(err, cap, off + 6, "expected texture coordinate index 0..%d in triangle %d, found %d",
                     h->num_st - 1, i, st[k]);
                goto out;
            }
            // sorted by the pair, then by the corner it came from
            size_t corner = (size_t)i * 3 + (size_t)k;
            keys[corner] = ((uint64_t)xyz[k] << 48) | ((uint64_t)st[k] << 32) | (uint64_t)corner;
        }
    }
    qsort(keys, corners, sizeof(uint64_t), cmp_u64);
    int nv = 0;
    uint64_t prev = ~(uint64_t)0;
    for (size_t c = 0; c < corners; c++) {
        uint64_t pair = keys[c] >> 32;
        if (pair != prev) {
            (*xyz_of)[nv] = (int32_t)(pair >> 16);
            st_of[nv] = (int32_t)(pair & 0xffff);
            nv++;
            prev = pair;
        }
        size_t corner = (size_t)(keys[c] & 0xffffffffu);
        // the corners keep their order: MD2 triangles wind as MDL's do (front faces clockwise on screen)
        m->tris[corner / 3].v[corner % 3] = nv - 1;
        m->tris[corner / 3].facesfront = 1;
    }
    if (nv > MDL_MAX_VERTS) {
        asset_fail(err, cap, 32, "expected at most %d distinct triangle corners, found %d", MDL_MAX_VERTS, nv);
        goto out;
    }
    m->numverts = nv;
    m->numtris = h->num_tris;
    m->st = calloc((size_t)nv, sizeof(mdl_stvert_t));
    if (!m->st) {
        asset_fail(err, cap, 0, "out of memory");
        goto out;
    }
    for (int i = 0; i < nv; i++) {
        msg_t s;
        msg_init(&s, data + h->ofs_st + 4 * st_of[i], 4, 0);
        int32_t sv = msg_s16(&s), tv = msg_s16(&s);
        // outside the skin would sample outside it
        m->st[i].s = sv < 0 ? 0 : sv > m->skinwidth ? m->skinwidth : sv;
        m->st[i].t = tv < 0 ? 0 : tv > m->skinheight ? m->skinheight : tv;
    }
    rc = 0;
out:
    free(keys);
    free(st_of);
    return rc;
}

// Every frame is one pose; its scale and translate go to pose_xform.
static int read_frames(mdl_t *m, const md2_header_t *h, const uint8_t *data, const int32_t *xyz_of, char *err,
                       size_t cap)
{
    m->numframes = m->num_poses = h->num_frames;
    m->frames = calloc((size_t)h->num_frames, sizeof(mdl_group_t));
    m->poses = malloc((size_t)h->num_frames * (size_t)m->numverts * sizeof(mdl_vert_t));
    m->pose_xform = malloc((size_t)h->num_frames * 6 * sizeof(float));
    m->intervals = calloc(1, sizeof(float));
    if (!m->frames || !m->poses || !m->pose_xform || !m->intervals)
        return asset_fail(err, cap, 0, "out of memory");
    for (int k = 0; k < 3; k++) {
        m->mins[k] = 1e30f;
        m->maxs[k] = -1e30f;
    }
    for (int i = 0; i < h->num_frames; i++) {
        size_t off = (size_t)h->ofs_frames + (size_t)i * (size_t)h->framesize;
        msg_t r;
        msg_init(&r, data + off, (size_t)h->framesize, off);
        float *x = m->pose_xform + (size_t)i * 6;
        for (int k = 0; k < 6; k++) {
            x[k] = msg_f32(&r);
            // a scale past 2^20 a step would put vertices beyond any level
            if (!isfinite(x[k]) || fabsf(x[k]) > 1048576.0f)
                return asset_fail(err, cap, off + 4 * (size_t)k, "expected a finite scale and translate in frame %d", i);
        }
        const uint8_t *name = msg_bytes(&r, 16);
        memcpy(m->frames[i].name, name, 16);
        m->frames[i].name[16] = 0;
        m->frames[i].first = i;
        m->frames[i].count = 1;
        m->frames[i].first_interval = -1;
        const uint8_t *vs = msg_bytes(&r, (size_t)h->num_xyz * 4);
        mdl_vert_t *dst = m->poses + (size_t)i * (size_t)m->numverts;
        for (int j = 0; j < m->numverts; j++) {
            const uint8_t *v = vs + (size_t)xyz_of[j] * 4;
            memcpy(dst[j].v, v, 3);
            // a bad normal index would read past the table: clamp it
            dst[j].normal = v[3] < MDL_NUM_NORMALS ? v[3] : 0;
            for (int k = 0; k < 3; k++) {
                float p = v[k] * x[k] + x[3 + k];
                if (p < m->mins[k])
                    m->mins[k] = p;
                if (p > m->maxs[k])
                    m->maxs[k] = p;
            }
        }
    }
    memcpy(m->scale, m->pose_xform, sizeof m->scale);
    memcpy(m->translate, m->pose_xform + 3, sizeof m->translate);
    float r2 = 0;
    for (int k = 0; k < 3; k++) {
        float a = fabsf(m->mins[k]) > fabsf(m->maxs[k]) ? fabsf(m->mins[k]) : fabsf(m->maxs[k]);
        r2 += a * a;
    }
    m->radius = sqrtf(r2);
    return 0;
}

// Fit a picture to the skin size (nearest texel): a skin drawn at another size
// than the header's would misplace every texture coordinate.
static void fit_skin(uint8_t *dst, int w, int h, const pcx_t *p)
{
    for (int y = 0; y < h; y++) {
        const uint8_t *row = p->pixels + (size_t)((int64_t)y * p->height / h) * (size_t)p->width;
        for (int x = 0; x < w; x++)
            dst[(size_t)y * (size_t)w + (size_t)x] = row[(int64_t)x * p->width / w];
    }
}

int md2_skin_from_pcx(uint8_t *dst, int w, int h, const uint8_t *data, size_t size)
{
    pcx_t p;
    char perr[128];
    if (!data || pcx_load(&p, data, size, perr, sizeof perr) < 0)
        return -1;
    fit_skin(dst, w, h, &p);
    pcx_free(&p);
    return 0;
}

// Skins: image 0 is the plain one; each PCX that loads adds an image.
static int read_skins(mdl_t *m, const md2_header_t *h, const uint8_t *data, const asset_files_t *files, char *err,
                      size_t cap)
{
    size_t skinsize = (size_t)m->skinwidth * (size_t)m->skinheight;
    m->numskins = h->num_skins > 0 ? h->num_skins : 1;
    m->skins = calloc((size_t)m->numskins, sizeof(mdl_group_t));
    // room for every named skin; the images that do not load are not kept
    m->skin_pixels = malloc((size_t)(1 + h->num_skins) * skinsize);
    if (!m->skins || !m->skin_pixels)
        return asset_fail(err, cap, 0, "out of memory");
    memset(m->skin_pixels, MD2_PLAIN_SKIN, skinsize);
    int loaded = 0;
    for (int i = 0; i < m->numskins; i++) {
        m->skins[i].count = 1;
        m->skins[i].first_interval = -1;
        if (i >= h->num_skins)
            continue;
        char name[MD2_SKIN_NAME + 1];
        memcpy(name, data + h->ofs_skins + (size_t)i * MD2_SKIN_NAME, MD2_SKIN_NAME);
        name[MD2_SKIN_NAME] = 0;
        size_t psize = 0;
        uint8_t *bytes = name[0] ? asset_load(files, name, &psize) : NULL;
        // a broken skin is drawn plain, as a missing one
        if (bytes && md2_skin_from_pcx(m->skin_pixels + (size_t)(loaded + 1) * skinsize, m->skinwidth,
                                       m->skinheight, bytes, psize) == 0)
            m->skins[i].first = ++loaded;
        free(bytes);
    }
    m->num_skin_images = 1 + loaded;
    if (loaded < h->num_skins) {
        uint8_t *fit = realloc(m->skin_pixels, (size_t)m->num_skin_images * skinsize);
        if (fit)
            m->skin_pixels = fit;
    }
    return 0;
}

int md2_load(mdl_t *m, const uint8_t *data, size_t size, const asset_files_t *files, char *err, size_t errcap)
{
    memset(m, 0, sizeof(*m));
    md2_header_t h;
    if (read_header(&h, data, size, err, errcap) < 0)
        return -1;
    m->skinwidth = h.skinwidth;
    m->skinheight = h.skinheight;
    int32_t *xyz_of = NULL;
    int rc = build_mesh(m, &h, data, &xyz_of, err, errcap);
    if (rc == 0)
        rc = read_frames(m, &h, data, xyz_of, err, errcap);
    free(xyz_of);
    // skins last: nothing is fetched for a file that is broken anyway
    if (rc == 0)
        rc = read_skins(m, &h, data, files, err, errcap);
    if (rc < 0) {
        mdl_free(m);
        return -1;
    }
    return 0;
}
