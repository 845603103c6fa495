// bsp.c -- BSP29 level loader: every lump and index checked against the file before use
#include "bsp_local.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { L_ENTITIES, L_PLANES, L_TEXTURES, L_VERTEXES, L_VISIBILITY, L_NODES, L_TEXINFO, L_FACES, L_LIGHTING,
       L_CLIPNODES, L_LEAFS, L_MARKSURFACES, L_EDGES, L_SURFEDGES, L_MODELS, L_COUNT };

typedef bsp_ld_t ld_t;

int bsp_fail(bsp_ld_t *l, size_t offset, const char *fmt, ...)
{
    if (l->err && l->errcap) {
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(l->err, l->errcap, "%s: offset %zu: expected %s", l->name, offset, msg);
    }
    return -1;
}

int bsp_lump_count(bsp_ld_t *l, int i, size_t recsize, const char *what)
{
    if (l->len[i] % recsize)
        return bsp_fail(l, l->dir + (size_t)i * 8 + 4, "%s lump size a multiple of %zu, got %u", what, recsize, l->len[i]);
    return (int)(l->len[i] / recsize);
}

void *bsp_alloc_n(size_t n, size_t size) { return calloc(n ? n : 1, size); }


// Far above any map (Quake's own limit was 512): each entry costs a texture record and,
// when missing, a default texture, so the count bounds memory for a 4-byte entry.
#define BSP_MAX_TEXTURES 65536

int bsp_load_planes(bsp_ld_t *l, bsp_t *b, int lump)
{
    int n = bsp_lump_count(l, lump, 20, "planes");
    if (n < 0 || !(b->planes = bsp_alloc_n((size_t)n, sizeof(bsp_plane_t))))
        return -1;
    b->num_planes = n;
    for (int i = 0; i < n; i++) {
        const uint8_t *p = l->data + l->ofs[lump] + (size_t)i * 20;
        bsp_plane_t *pl = &b->planes[i];
        for (int k = 0; k < 3; k++)
            pl->normal[k] = rd_f32(p + k * 4);
        pl->dist = rd_f32(p + 12);
        pl->type = rd_s32(p + 16);
        if (pl->type < 0 || pl->type > 5)
            pl->type = 3;
    }
    return 0;
}

int bsp_load_vertices(bsp_ld_t *l, bsp_t *b, int lump)
{
    int n = bsp_lump_count(l, lump, 12, "vertexes");
    if (n < 0 || !(b->vertices = bsp_alloc_n((size_t)n, sizeof(vec3_t))))
        return -1;
    b->num_vertices = n;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            b->vertices[i][k] = rd_f32(l->data + l->ofs[lump] + (size_t)i * 12 + (size_t)k * 4);
    return 0;
}

int bsp_load_edges(bsp_ld_t *l, bsp_t *b, int edges, int surfedges)
{
    int n = bsp_lump_count(l, edges, 4, "edges");
    if (n < 0 || !(b->edges = bsp_alloc_n((size_t)n, sizeof(*b->edges))))
        return -1;
    b->num_edges = n;
    for (int i = 0; i < n; i++) {
        const uint8_t *p = l->data + l->ofs[edges] + (size_t)i * 4;
        b->edges[i][0] = (uint32_t)rd_u16(p);
        b->edges[i][1] = (uint32_t)rd_u16(p + 2);
        if ((int)b->edges[i][0] >= b->num_vertices || (int)b->edges[i][1] >= b->num_vertices)
            return bsp_fail(l, l->ofs[edges] + (size_t)i * 4, "vertex index < %d", b->num_vertices);
    }
    n = bsp_lump_count(l, surfedges, 4, "surfedges");
    if (n < 0 || !(b->surfedges = bsp_alloc_n((size_t)n, sizeof(int32_t))))
        return -1;
    b->num_surfedges = n;
    for (int i = 0; i < n; i++) {
        int32_t e = rd_s32(l->data + l->ofs[surfedges] + (size_t)i * 4);
        if (e >= b->num_edges || e <= -b->num_edges)
            return bsp_fail(l, l->ofs[surfedges] + (size_t)i * 4, "edge index within +-%d, got %d", b->num_edges, e);
        b->surfedges[i] = e;
    }
    return 0;
}

// A checkerboard for textures the file lacks, so a surface never points nowhere.
void bsp_default_texture(bsp_t *b, int idx, uint32_t texel_ofs)
{
    bsp_texture_t *t = &b->textures[idx];
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof t->name, "notexture");
    t->width = t->height = 16;
    t->missing = 1;
    uint32_t o = texel_ofs;
    for (int m = 0; m < BSP_MIPLEVELS; m++) {
        int w = 16 >> m;
        t->offsets[m] = o;
        for (int y = 0; y < w; y++)
            for (int x = 0; x < w; x++)
                b->texels[o++] = (uint8_t)((((x << m) ^ (y << m)) & 8) ? 15 : 6);
    }
}

static int anim_index(char c)
{
    c = (char)tolower((unsigned char)c);
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'j')
        return 10 + c - 'a';
    return -1;
}

// '+' textures grouped by the name after "+N": sorted, so linking is n log n, not
// n squared (a hostile lump can hold a million names). Ties keep the file order, so
// the first texture of each frame number wins, as in Quake's scan.
typedef struct {
    const char *key;   // name + 2
    int index;
} anim_key_t;

static int cmp_anim_key(const void *pa, const void *pb)
{
    const anim_key_t *a = pa, *b = pb;
    int c = strncmp(a->key, b->key, sizeof ((bsp_texture_t *)0)->name - 2);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

int bsp_link_animations(bsp_t *b)
{
    anim_key_t *keys = malloc((size_t)b->num_textures * sizeof *keys);
    if (!keys)
        return -1;
    int nk = 0;
    for (int i = 0; i < b->num_textures; i++)
        if (b->textures[i].name[0] == '+')
            keys[nk++] = (anim_key_t){ b->textures[i].name + 2, i };
    qsort(keys, (size_t)nk, sizeof *keys, cmp_anim_key);
    for (int first = 0, last; first < nk; first = last) {
        last = first + 1;
        while (last < nk && !strncmp(keys[last].key, keys[first].key, sizeof b->textures[0].name - 2))
            last++;
        int frames[20];
        for (int k = 0; k < 20; k++)
            frames[k] = -1;
        for (int j = first; j < last; j++) {
            int k = anim_index(b->textures[keys[j].index].name[1]);
            if (k >= 0 && frames[k] < 0)
                frames[k] = keys[j].index;
        }
        int nmain = 0, nalt = 0;
        while (nmain < 10 && frames[nmain] >= 0)
            nmain++;
        while (nalt < 10 && frames[10 + nalt] >= 0)
            nalt++;
        for (int j = 0; j < 20; j++) {
            if (frames[j] < 0)
                continue;
            bsp_texture_t *o = &b->textures[frames[j]];
            o->anim_total = nmain;
            o->alt_total = nalt;
            for (int k = 0; k < nmain; k++)
                o->anim_frames[k] = frames[k];
            for (int k = 0; k < nalt; k++)
                o->alt_frames[k] = frames[10 + k];
        }
    }
    free(keys);
    return 0;
}

static int load_textures(ld_t *l, bsp_t *b)
{
    if (b->version == 30) {
        char msg[256];
        size_t at = 0;
        if (bsp30_load_textures(b, l->data + l->ofs[L_TEXTURES], l->len[L_TEXTURES], l->ofs[L_TEXTURES], l->files,
                                &at, msg, sizeof msg) < 0)
            return bsp_fail(l, at, "%s", msg);
        return 0;
    }
    const uint8_t *base = l->data + l->ofs[L_TEXTURES];
    uint32_t len = l->len[L_TEXTURES];
    int n = 0;
    if (len >= 4) {
        n = rd_s32(base);
        uint32_t most = (len - 4) / 4 < BSP_MAX_TEXTURES ? (len - 4) / 4 : BSP_MAX_TEXTURES;
        if (n < 0 || (uint32_t)n > most)
            return bsp_fail(l, l->ofs[L_TEXTURES], "texture count <= %u, got %d", most, n);
    }
    // Pass 1: size the texel store (every texture's 4 mips, plus the default texture).
    size_t total = 16 * 16 + 8 * 8 + 4 * 4 + 2 * 2, mipbytes = 0;
    for (int i = 0; i < n; i++) {
        int32_t ofs = rd_s32(base + 4 + (size_t)i * 4);
        if (ofs < 0) {
            total += 16 * 16 + 8 * 8 + 4 * 4 + 2 * 2;   // drawn with the default texture
            continue;
        }
        if ((uint32_t)ofs > len || len - (uint32_t)ofs < 40)
            return bsp_fail(l, l->ofs[L_TEXTURES] + 4 + (size_t)i * 4, "miptex offset within the %u-byte lump, got %d", len, ofs);
        uint32_t w = rd_u32(base + ofs + 16), h = rd_u32(base + ofs + 20);
        if (w == 0 || h == 0 || w > 4096 || h > 4096 || (w & 15) || (h & 15))
            return bsp_fail(l, l->ofs[L_TEXTURES] + (size_t)ofs + 16, "texture size 16..4096 in multiples of 16, got %ux%u", w, h);
        // The mips must be in the lump, and the textures must not share bytes: the texel
        // store is then bounded by the lump size, whatever the header claims.
        for (int m = 0; m < BSP_MIPLEVELS; m++) {
            uint32_t mo = rd_u32(base + ofs + 24 + m * 4);
            size_t msize = (size_t)(w >> m) * (size_t)(h >> m);
            if (mo > len - (uint32_t)ofs || len - (uint32_t)ofs - mo < msize)
                return bsp_fail(l, l->ofs[L_TEXTURES] + (size_t)ofs + 24 + (size_t)m * 4,
                            "mip %d of texture %d (%zu bytes) inside the lump", m, i, msize);
        }
        mipbytes += (size_t)w * h / 64 * 85;
        if (mipbytes > len)
            return bsp_fail(l, l->ofs[L_TEXTURES] + 4 + (size_t)i * 4,
                        "textures of at most the %u bytes of the lump, got %zu bytes by texture %d", len, mipbytes, i);
        total += (size_t)w * h / 64 * 85;
    }
    b->num_textures = n + 1;   // the last one is the default
    b->textures = bsp_alloc_n((size_t)b->num_textures, sizeof(bsp_texture_t));
    b->texels = bsp_alloc_n(total, 1);
    if (!b->textures || !b->texels)
        return bsp_fail(l, 0, "memory for %zu texels", total);
    b->texel_size = total;
    uint32_t o = 0;
    for (int i = 0; i < n; i++) {
        int32_t ofs = rd_s32(base + 4 + (size_t)i * 4);
        bsp_texture_t *t = &b->textures[i];
        if (ofs < 0) {
            bsp_default_texture(b, i, o);
            o += 16 * 16 + 8 * 8 + 4 * 4 + 2 * 2;
            continue;
        }
        const uint8_t *mt = base + ofs;
        memcpy(t->name, mt, 16);
        t->name[15] = 0;
        for (int k = 0; k < 15; k++)
            t->name[k] = (char)tolower((unsigned char)t->name[k]);
        t->width = (int)rd_u32(mt + 16);
        t->height = (int)rd_u32(mt + 20);
        for (int m = 0; m < BSP_MIPLEVELS; m++) {
            uint32_t mo = rd_u32(mt + 24 + m * 4);
            size_t msize = (size_t)(t->width >> m) * (size_t)(t->height >> m);
            if (mo > len - (uint32_t)ofs || len - (uint32_t)ofs - mo < msize)
                return bsp_fail(l, l->ofs[L_TEXTURES] + (size_t)ofs + 24 + (size_t)m * 4,
                            "mip %d of '%s' (%zu bytes) inside the lump", m, t->name, msize);
            t->offsets[m] = o;
            memcpy(b->texels + o, mt + mo, msize);
            o += (uint32_t)msize;
        }
    }
    bsp_default_texture(b, n, o);
    if (bsp_link_animations(b) < 0)
        return bsp_fail(l, 0, "memory for %d texture names", b->num_textures);
    return 0;
}

static int load_texinfo(ld_t *l, bsp_t *b)
{
    int n = bsp_lump_count(l, L_TEXINFO, 40, "texinfo");
    if (n < 0 || !(b->texinfo = bsp_alloc_n((size_t)n, sizeof(bsp_texinfo_t))))
        return -1;
    b->num_texinfo = n;
    for (int i = 0; i < n; i++) {
        const uint8_t *p = l->data + l->ofs[L_TEXINFO] + (size_t)i * 40;
        bsp_texinfo_t *ti = &b->texinfo[i];
        for (int k = 0; k < 8; k++)
            ti->vecs[k / 4][k % 4] = rd_f32(p + k * 4);
        int t = rd_s32(p + 32);
        ti->texture = (t >= 0 && t < b->num_textures - 1) ? t : b->num_textures - 1;
        ti->flags = rd_s32(p + 36);
    }
    return 0;
}

// Quake's and GoldSrc's surface kinds come from the texture name.
static int name_flags(const bsp_t *b, const bsp_texinfo_t *ti)
{
    const char *tn = b->textures[ti->texture].name;
    if (!strncmp(tn, "sky", 3))
        return BSP_SURF_SKY | BSP_SURF_NOLIGHT;
    if (tn[0] == '*')
        return BSP_SURF_TURB | BSP_SURF_NOLIGHT;
    return 0;
}

int bsp_load_faces(bsp_ld_t *l, bsp_t *b, int lump, int (*flags)(const bsp_t *b, const bsp_texinfo_t *ti),
                   int light_bytes)
{
    int n = bsp_lump_count(l, lump, 20, "faces");
    if (n < 0 || !(b->faces = bsp_alloc_n((size_t)n, sizeof(bsp_face_t))))
        return -1;
    b->num_faces = n;
    size_t edges_total = 0;
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[lump] + (size_t)i * 20;
        const uint8_t *p = l->data + at;
        bsp_face_t *f = &b->faces[i];
        f->plane = rd_u16(p);
        int side = rd_s16(p + 2);
        f->firstedge = rd_s32(p + 4);
        f->numedges = rd_s16(p + 8);
        f->texinfo = rd_s16(p + 10);
        memcpy(f->styles, p + 12, 4);
        int32_t lightofs = rd_s32(p + 16);
        // RGB light (BSP30, IBSP38) counts bytes of three samples; one byte each is kept
        f->lightofs = lightofs >= 0 && lightofs % light_bytes == 0 ? lightofs / light_bytes : -1;
        if (f->plane >= b->num_planes)
            return bsp_fail(l, at, "plane index < %d, got %d", b->num_planes, f->plane);
        if (f->texinfo < 0 || f->texinfo >= b->num_texinfo)
            return bsp_fail(l, at + 10, "texinfo index < %d, got %d", b->num_texinfo, f->texinfo);
        if (f->numedges < 3 || f->firstedge < 0 || f->firstedge > b->num_surfedges - f->numedges)
            return bsp_fail(l, at + 4, "3 or more edges inside the %d surfedges, got %d at %d", b->num_surfedges,
                        f->numedges, f->firstedge);
        // Compilers give every face its own surfedges; faces reusing them would let a small
        // file make the extents loop below (and every face walk after it) quadratic.
        edges_total += (size_t)f->numedges;
        if (edges_total > (size_t)b->num_surfedges)
            return bsp_fail(l, at + 8, "faces with surfedges of their own (%zu edges by face %d, %d surfedges in all)",
                        edges_total, i, b->num_surfedges);
        const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
        f->flags = flags(b, ti) | (side ? BSP_SURF_PLANEBACK : 0);
        // Texture extents in 16-texel lightmap units, as the light compiler measured them.
        float mins[2] = { 1e30f, 1e30f }, maxs[2] = { -1e30f, -1e30f };
        for (int e = 0; e < f->numedges; e++) {
            int32_t se = b->surfedges[f->firstedge + e];
            const float *v = b->vertices[se >= 0 ? b->edges[se][0] : b->edges[-se][1]];
            for (int k = 0; k < 2; k++) {
                // double, as the light compiler did, so the extents match the lightmap's
                double s = (double)v[0] * ti->vecs[k][0] + (double)v[1] * ti->vecs[k][1] +
                           (double)v[2] * ti->vecs[k][2] + ti->vecs[k][3];
                if (s < mins[k]) mins[k] = (float)s;
                if (s > maxs[k]) maxs[k] = (float)s;
            }
        }
        for (int k = 0; k < 2; k++) {
            float lo = floorf(mins[k] / 16), hi = ceilf(maxs[k] / 16);
            if (!(lo > -65536 && hi < 65536)) {
                lo = hi = 0;
                f->flags |= BSP_SURF_NODRAW;
            }
            f->texturemins[k] = (int)lo * 16;
            f->extents[k] = (int)(hi - lo) * 16;
        }
        if (!(f->flags & (BSP_SURF_SKY | BSP_SURF_TURB)) && (f->extents[0] > 2048 || f->extents[1] > 2048))
            f->flags |= BSP_SURF_NODRAW;   // a lightmap that big is a broken face; skip it, not the level
        if (f->lightofs >= 0) {
            int nstyles = 0;
            while (nstyles < BSP_MAXSTYLES && f->styles[nstyles] != 255)
                nstyles++;
            size_t need = (size_t)((f->extents[0] >> 4) + 1) * (size_t)((f->extents[1] >> 4) + 1) * (size_t)nstyles;
            if ((size_t)f->lightofs > b->light_size || b->light_size - (size_t)f->lightofs < need)
                f->lightofs = -1;   // lights outside the lump: draw the face unlit rather than read past it
        }
    }
    return 0;
}

static int check_child(ld_t *l, bsp_t *b, size_t at, int c)
{
    if (c >= 0 ? c >= b->num_nodes : -(c + 1) >= b->num_leafs)
        return bsp_fail(l, at, "child node < %d or leaf < %d, got %d", b->num_nodes, b->num_leafs, c);
    return 0;
}

static int load_leafs(ld_t *l, bsp_t *b)
{
    int n = bsp_lump_count(l, L_LEAFS, 28, "leafs");
    if (n < 0 || !(b->leafs = bsp_alloc_n((size_t)n, sizeof(bsp_leaf_t))))
        return -1;
    b->num_leafs = n;
    if (n < 1)
        return bsp_fail(l, 4 + L_LEAFS * 8, "at least one leaf");
    int nm = bsp_lump_count(l, L_MARKSURFACES, 2, "marksurfaces");
    if (nm < 0 || !(b->marks = bsp_alloc_n((size_t)nm, sizeof(int32_t))))
        return -1;
    b->num_marks = nm;
    for (int i = 0; i < nm; i++) {
        size_t at = l->ofs[L_MARKSURFACES] + (size_t)i * 2;
        b->marks[i] = rd_u16(l->data + at);
        if (b->marks[i] >= b->num_faces)
            return bsp_fail(l, at, "face index < %d, got %d", b->num_faces, b->marks[i]);
    }
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[L_LEAFS] + (size_t)i * 28;
        const uint8_t *p = l->data + at;
        bsp_leaf_t *lf = &b->leafs[i];
        lf->contents = rd_s32(p);
        lf->visofs = rd_s32(p + 4);
        for (int k = 0; k < 3; k++) {
            lf->mins[k] = (float)rd_s16(p + 8 + k * 2);
            lf->maxs[k] = (float)rd_s16(p + 14 + k * 2);
        }
        lf->firstmark = rd_u16(p + 20);
        lf->nummarks = rd_u16(p + 22);
        memcpy(lf->ambient, p + 24, 4);
        lf->parent = -1;
        lf->cluster = i - 1;
        if (lf->firstmark + lf->nummarks > nm)
            return bsp_fail(l, at + 20, "marksurfaces inside the %d, got %d at %d", nm, lf->nummarks, lf->firstmark);
        if (lf->visofs >= 0 && (size_t)lf->visofs >= b->vis_size)
            lf->visofs = -1;
    }
    return 0;
}

int bsp_load_nodes(bsp_ld_t *l, bsp_t *b, int lump, int child_bytes)
{
    size_t rec = 20 + 2 * (size_t)child_bytes, cw = (size_t)child_bytes;
    int n = bsp_lump_count(l, lump, rec, "nodes");
    if (n < 0 || !(b->nodes = bsp_alloc_n((size_t)n, sizeof(bsp_node_t))))
        return -1;
    b->num_nodes = n;
    for (int i = 0; i < n; i++)
        b->nodes[i].parent = -1;
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[lump] + (size_t)i * rec;
        const uint8_t *p = l->data + at;
        bsp_node_t *nd = &b->nodes[i];
        nd->plane = rd_s32(p);
        if (nd->plane < 0 || nd->plane >= b->num_planes)
            return bsp_fail(l, at, "plane index < %d, got %d", b->num_planes, nd->plane);
        for (int k = 0; k < 2; k++) {
            nd->children[k] = child_bytes == 4 ? rd_s32(p + 4 + k * 4) : rd_s16(p + 4 + k * 2);
            if (check_child(l, b, at + 4 + (size_t)k * cw, nd->children[k]) < 0)
                return -1;
        }
        for (int k = 0; k < 3; k++) {
            nd->mins[k] = (float)rd_s16(p + 4 + 2 * cw + (size_t)k * 2);
            nd->maxs[k] = (float)rd_s16(p + 10 + 2 * cw + (size_t)k * 2);
        }
        nd->firstface = rd_u16(p + 16 + 2 * cw);
        nd->numfaces = rd_u16(p + 18 + 2 * cw);
        if (nd->firstface + nd->numfaces > b->num_faces)
            return bsp_fail(l, at + 16 + 2 * cw, "faces inside the %d, got %d at %d", b->num_faces, nd->numfaces, nd->firstface);
        // A node with two parents would let a walk revisit it (or loop): refuse it.
        for (int k = 0; k < 2; k++) {
            int c = nd->children[k];
            if (c >= 0) {
                if (b->nodes[c].parent >= 0 || c == i)
                    return bsp_fail(l, at + 4 + (size_t)k * cw, "a tree (node %d has two parents)", c);
                b->nodes[c].parent = i;
            } else if (b->leafs[-(c + 1)].parent < 0) {
                b->leafs[-(c + 1)].parent = i;
            }
        }
    }
    return 0;
}

static int load_models(ld_t *l, bsp_t *b)
{
    int n = bsp_lump_count(l, L_MODELS, 64, "models");
    if (n < 0 || !(b->models = bsp_alloc_n((size_t)n, sizeof(bsp_model_t))))
        return -1;
    b->num_models = n;
    if (n < 1)
        return bsp_fail(l, 4 + L_MODELS * 8, "at least one model");
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[L_MODELS] + (size_t)i * 64;
        const uint8_t *p = l->data + at;
        bsp_model_t *m = &b->models[i];
        for (int k = 0; k < 3; k++) {
            m->mins[k] = rd_f32(p + k * 4) - 1;    // spread by one unit, as Quake does
            m->maxs[k] = rd_f32(p + 12 + k * 4) + 1;
            m->origin[k] = rd_f32(p + 24 + k * 4);
        }
        m->headnode = rd_s32(p + 36);
        m->visleafs = rd_s32(p + 52);
        m->firstface = rd_s32(p + 56);
        m->numfaces = rd_s32(p + 60);
        if (m->headnode < 0 || m->headnode >= b->num_nodes || b->nodes[m->headnode].parent >= 0)
            return bsp_fail(l, at + 36, "a root node < %d, got %d", b->num_nodes, m->headnode);
        if (m->firstface < 0 || m->numfaces < 0 || m->firstface > b->num_faces - m->numfaces)
            return bsp_fail(l, at + 56, "faces inside the %d, got %d at %d", b->num_faces, m->numfaces, m->firstface);
        if (m->visleafs < 0 || m->visleafs > b->num_leafs - 1)
            m->visleafs = b->num_leafs - 1;
    }
    return 0;
}

// GoldSrc lighting is RGB: keep one byte a sample, the brightest channel (as Quake II's
// software renderer reduced its RGB light), so coloured light keeps its strength.
// GoldSrc's full light shows a texture as painted (Quake's 255 shows it twice as bright)
// and its light gamma lifts the shadows: a curve does both (255 -> 150, 64 -> 60).
static void light_to_8bit(bsp_t *b)
{
    uint8_t curve[256];
    for (int v = 0; v < 256; v++)
        curve[v] = (uint8_t)(150.0 * pow(v / 255.0, 0.65) + 0.5);
    size_t n = b->light_size / 3;
    // the colours too, through the same curve, for GoldSrc's coloured surfaces (render/r_hllight.c)
    b->lightrgb = n ? malloc(n * 3) : NULL;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = b->lightdata + i * 3;
        if (b->lightrgb)
            for (int k = 0; k < 3; k++)
                b->lightrgb[i * 3 + k] = curve[p[k]];
        uint8_t m = p[0] > p[1] ? p[0] : p[1];
        b->lightdata[i] = curve[m > p[2] ? m : p[2]];
    }
    b->light_size = n;
}

static int copy_lump(ld_t *l, int i, uint8_t **out, size_t *outsize)
{
    *outsize = l->len[i];
    *out = bsp_alloc_n((size_t)l->len[i] + 1, 1);
    if (!*out)
        return bsp_fail(l, 0, "memory for a %u-byte lump", l->len[i]);
    memcpy(*out, l->data + l->ofs[i], l->len[i]);
    return 0;
}

int bsp_model_count(const uint8_t *data, size_t size)
{
    if (!data || size < 4 + L_COUNT * 8)
        return -1;
    int version = rd_s32(data);
    if (version != 29 && version != 30)
        return -1;
    uint32_t ofs = rd_u32(data + 4 + L_MODELS * 8), len = rd_u32(data + 8 + L_MODELS * 8);
    if (ofs > size || size - ofs < len || len % 64 || len / 64 > INT32_MAX)
        return -1;
    return (int)(len / 64);
}

bsp_t *bsp_load(const uint8_t *data, size_t size, const char *name, char *err, size_t errcap)
{
    return bsp_load_files(data, size, name, NULL, err, errcap);
}

bsp_t *bsp_load_files(const uint8_t *data, size_t size, const char *name, const asset_files_t *files,
                      char *err, size_t errcap)
{
    ld_t l = { data, size, name ? name : "bsp", err, errcap, 4, { 0 }, { 0 }, files };
    if (size >= 4 && !memcmp(data, "IBSP", 4))
        return bsp38_load(data, size, l.name, files, err, errcap);
    if (size < 4 + L_COUNT * 8) {
        bsp_fail(&l, 0, "a BSP header (%d bytes), file has %zu", 4 + L_COUNT * 8, size);
        return NULL;
    }
    int version = rd_s32(data);
    if (version != 29 && version != 30) {
        bsp_fail(&l, 0, "BSP version 29 or 30, got %d (%.4s)", version, (const char *)data);
        return NULL;
    }
    for (int i = 0; i < L_COUNT; i++) {
        l.ofs[i] = rd_u32(data + 4 + i * 8);
        l.len[i] = rd_u32(data + 8 + i * 8);
        if (l.ofs[i] > size || size - l.ofs[i] < l.len[i]) {
            bsp_fail(&l, 4 + (size_t)i * 8, "lump %d inside the %zu-byte file, got %u bytes at %u", i, size, l.len[i], l.ofs[i]);
            return NULL;
        }
    }
    bsp_t *b = calloc(1, sizeof(*b));
    if (!b)
        return NULL;
    b->version = version;
    snprintf(b->name, sizeof b->name, "%s", l.name);
    uint8_t *ents = NULL;
    if (copy_lump(&l, L_LIGHTING, &b->lightdata, &b->light_size) < 0 ||
        copy_lump(&l, L_VISIBILITY, &b->visdata, &b->vis_size) < 0 ||
        copy_lump(&l, L_ENTITIES, &ents, &b->entities_size) < 0)
        goto fail;
    b->entities = (char *)ents;
    if (version == 30)
        light_to_8bit(b);
    if (bsp_load_planes(&l, b, L_PLANES) < 0 || bsp_load_vertices(&l, b, L_VERTEXES) < 0 ||
        bsp_load_edges(&l, b, L_EDGES, L_SURFEDGES) < 0 || load_textures(&l, b) < 0 || load_texinfo(&l, b) < 0 ||
        bsp_load_faces(&l, b, L_FACES, name_flags, version == 30 ? 3 : 1) < 0 || load_leafs(&l, b) < 0 ||
        bsp_load_nodes(&l, b, L_NODES, 2) < 0 || load_models(&l, b) < 0)
        goto fail;
    return b;
fail:
    bsp_free(b);
    return NULL;
}

void bsp_free(bsp_t *b)
{
    if (!b)
        return;
    free(b->planes);
    free(b->vertices);
    free(b->edges);
    free(b->surfedges);
    free(b->texinfo);
    free(b->textures);
    free(b->texels);
    free(b->faces);
    free(b->nodes);
    free(b->leafs);
    free(b->marks);
    free(b->models);
    free(b->visdata);
    free(b->lightdata);
    free(b->lightdata_mean);
    free(b->lightrgb);
    free(b->entities);
    free(b);
}

void bsp_worldspawn_value(const bsp_t *b, const char *key, char *out, size_t cap)
{
    out[0] = 0;
    const char *p = b->entities ? strchr(b->entities, '{') : NULL, *end = p ? strchr(p, '}') : NULL;
    if (!p)
        return;
    char k[64];
    while (p < end) {
        const char *q[4];
        const char *s = p;
        int i;
        for (i = 0; i < 4; i++) {
            q[i] = memchr(s, '"', (size_t)(end - s));
            if (!q[i])
                return;
            s = q[i] + 1;
        }
        p = q[3] + 1;
        snprintf(k, sizeof k, "%.*s", (int)(q[1] - q[0] - 1), q[0] + 1);
        if (!strcmp(k, key)) {
            snprintf(out, cap, "%.*s", (int)(q[3] - q[2] - 1), q[2] + 1);
            return;
        }
    }
}

int bsp_point_leaf(const bsp_t *b, const vec3_t p)
{
    int n = b->models[0].headnode;
    // Each step goes to a child; the tree has no cycles (checked at load), so this ends.
    while (n >= 0) {
        const bsp_node_t *nd = &b->nodes[n];
        const bsp_plane_t *pl = &b->planes[nd->plane];
        float d = p[0] * pl->normal[0] + p[1] * pl->normal[1] + p[2] * pl->normal[2] - pl->dist;
        n = nd->children[d >= 0 ? 0 : 1];
    }
    return -(n + 1);
}

// Run-length rows (a 0 byte, then how many 0 bytes it stands for) into out[0..row).
static void decompress_row(const uint8_t *vis, size_t vis_size, size_t in, uint8_t *out, size_t row)
{
    memset(out, 0, row);
    size_t o = 0;
    while (o < row && in < vis_size) {
        uint8_t c = vis[in++];
        if (c) {
            out[o++] = c;
            continue;
        }
        if (in >= vis_size)
            break;
        o += vis[in++];   // zeros already there
    }
}

// IBSP38: the row of the leaf's cluster, one bit a cluster, spread over the leafs
// (bit i = leaf i + 1, as for BSP29). Clusters are signed shorts, so one row fits
// the stack buffer.
static void leaf_pvs38(const bsp_t *b, int leaf, uint8_t *out, size_t outsize)
{
    uint8_t clusters[32768 / 8];
    size_t crow = ((size_t)b->num_clusters + 7) / 8;
    if (crow > sizeof clusters)
        crow = sizeof clusters;
    decompress_row(b->visdata, b->vis_size, (size_t)b->leafs[leaf].visofs, clusters, crow);
    memset(out, 0, outsize);
    size_t nleafs = (size_t)b->models[0].visleafs;
    if (nleafs > outsize * 8)
        nleafs = outsize * 8;
    for (size_t i = 0; i < nleafs; i++) {
        int c = b->leafs[i + 1].cluster;
        if (c >= 0 && (size_t)c < crow * 8 && (clusters[c >> 3] & (1 << (c & 7))))
            out[i >> 3] |= (uint8_t)(1 << (i & 7));
    }
}

void bsp_leaf_pvs(const bsp_t *b, int leaf, uint8_t *out, size_t outsize)
{
    if (b->version == 38) {
        if (leaf <= 0 || leaf >= b->num_leafs || b->leafs[leaf].visofs < 0 || !b->num_clusters)
            memset(out, 0xff, outsize);
        else
            leaf_pvs38(b, leaf, out, outsize);
        return;
    }
    size_t row = ((size_t)b->models[0].visleafs + 7) / 8;
    if (row > outsize)
        row = outsize;
    if (leaf <= 0 || leaf >= b->num_leafs || b->leafs[leaf].visofs < 0 || !b->vis_size) {
        memset(out, 0xff, outsize);
        return;
    }
    memset(out, 0, outsize);
    decompress_row(b->visdata, b->vis_size, (size_t)b->leafs[leaf].visofs, out, row);
}
