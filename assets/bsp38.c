// bsp38.c -- IBSP38 (Quake II) level loader into bsp_t: every lump and index checked, textures read from textures/*.wal
//
// What differs from BSP29 (bsp.c), and how it is mapped:
// - textures are external .wal files named by the texinfo; each name is read once
//   and a missing or broken one draws with a checkerboard;
// - surface flags (sky, warp, nodraw, translucency) come from the texinfo, not the name;
// - texinfo chains (nexttexinfo) animate textures: each texture gets the chain from itself;
// - lighting is RGB: it is kept as the brightest of r, g, b, one byte a sample,
//   as Quake II's software renderer did;
// - visibility is by cluster: leafs keep their cluster and the offset of its PVS
//   row, and bsp_leaf_pvs (bsp.c) expands the row to leaf bits.
#include "bsp_local.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wal.h"

enum { Q_ENTITIES, Q_PLANES, Q_VERTEXES, Q_VISIBILITY, Q_NODES, Q_TEXINFO, Q_FACES, Q_LIGHTING, Q_LEAFS, Q_LEAFFACES,
       Q_LEAFBRUSHES, Q_EDGES, Q_SURFEDGES, Q_MODELS, Q_BRUSHES, Q_BRUSHSIDES, Q_POP, Q_AREAS, Q_AREAPORTALS, Q_COUNT };

#define HEADER_SIZE (8 + Q_COUNT * 8)
#define MAX_TEXINFO 65536      // far above Quake II's 8192; the lump bounds it too
#define MAX_CLUSTERS 32768     // a leaf's cluster is a signed short

// Quake II surface flags (texinfo) and leaf contents bits.
enum { Q2_SURF_LIGHT = 0x1, Q2_SURF_SKY = 0x4, Q2_SURF_WARP = 0x8, Q2_SURF_TRANS33 = 0x10, Q2_SURF_TRANS66 = 0x20,
       Q2_SURF_FLOWING = 0x40, Q2_SURF_NODRAW = 0x80 };
enum { Q2_CONTENTS_SOLID = 1, Q2_CONTENTS_WINDOW = 2, Q2_CONTENTS_LAVA = 8, Q2_CONTENTS_SLIME = 16,
       Q2_CONTENTS_WATER = 32 };


// The texinfo as the file has it, while the texture list is built.
typedef struct {
    char texname[33];
    int next;
} q2_texinfo_t;

typedef bsp_ld_t ld_t;

static const uint8_t *lump(const ld_t *l, int i) { return l->data + l->ofs[i]; }

// ---- textures -------------------------------------------------------------------

// A checkerboard for a texture that could not be read; it keeps its name.
static void default_texture(bsp_t *b, int idx, uint32_t texel_ofs)
{
    char name[sizeof b->textures[idx].name];
    memcpy(name, b->textures[idx].name, sizeof name);
    bsp_default_texture(b, idx, texel_ofs);
    memcpy(b->textures[idx].name, name, sizeof name);
}

// The renderer builds surfaces in 16-texel lightmap blocks that must not wrap inside
// the texture, so a texture's sides must be multiples of 16. A side that is not gets
// repeated until it is (the least common multiple with 16): mip 0 then looks exactly
// as it would wrap. 0 when that is beyond the largest texture.
static int tiled_side(int n)
{
    int t = n;
    while (t % 16)
        t += n;
    return t <= WAL_MAX_SIDE ? t : 0;
}

// Mip m of the WAL repeated over (W >> m) x (H >> m).
static void tile_mip(uint8_t *dst, int dw, int dh, const uint8_t *src, int sw, int sh)
{
    for (int y = 0; y < dh; y++) {
        const uint8_t *row = src + (size_t)(y % sh) * (size_t)sw;
        for (int x = 0; x < dw; x++)
            *dst++ = row[x % sw];
    }
}

// Texinfo indices sorted by texture name (ties by index: the first texinfo of a name leads).
typedef struct {
    const char *name;
    int index;
} name_key_t;

static int cmp_name_key(const void *pa, const void *pb)
{
    const name_key_t *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

// Read every distinct texture once. `uniq` gets, for each texture, the texinfo that named it first.
static int load_wals(ld_t *l, bsp_t *b, const q2_texinfo_t *qt, const int *uniq, int nuniq)
{
    wal_t *wals = bsp_alloc_n((size_t)nuniq, sizeof(wal_t));
    int *tw = bsp_alloc_n((size_t)nuniq * 2, sizeof(int));
    b->num_textures = nuniq + 1;   // the last one is the default, as for BSP29
    b->textures = bsp_alloc_n((size_t)b->num_textures, sizeof(bsp_texture_t));
    if (!wals || !tw || !b->textures) {
        free(wals);
        free(tw);
        return bsp_fail(l, l->ofs[Q_TEXINFO], "memory for %d textures", nuniq);
    }
    size_t total = BSP_DEFAULT_TEXELS;
    for (int i = 0; i < nuniq; i++) {
        const char *tn = qt[uniq[i]].texname;
        snprintf(b->textures[i].name, sizeof b->textures[i].name, "%.15s", tn);   // cut: the name is informative
        char path[64];
        snprintf(path, sizeof path, "textures/%s.wal", tn);
        size_t fsize = 0;
        uint8_t *bytes = asset_load(l->files, path, &fsize);
        char werr[160];
        int ok = bytes && wal_load(&wals[i], bytes, fsize, werr, sizeof werr) == 0;
        free(bytes);
        int w = ok ? tiled_side(wals[i].width) : 0, h = ok ? tiled_side(wals[i].height) : 0;
        if (!w || !h) {
            wal_free(&wals[i]);   // drawn with the checkerboard
            total += BSP_DEFAULT_TEXELS;
            continue;
        }
        tw[i * 2] = w;
        tw[i * 2 + 1] = h;
        total += (size_t)w * (size_t)h / 64 * 85;
    }
    int rc = 0;
    b->texels = bsp_alloc_n(total, 1);
    if (!b->texels) {
        rc = bsp_fail(l, l->ofs[Q_TEXINFO], "memory for %zu texels", total);
        goto done;
    }
    b->texel_size = total;
    uint32_t o = 0;
    for (int i = 0; i < nuniq; i++) {
        bsp_texture_t *t = &b->textures[i];
        if (!wals[i].pixels) {
            default_texture(b, i, o);
            o += BSP_DEFAULT_TEXELS;
            continue;
        }
        t->width = tw[i * 2];
        t->height = tw[i * 2 + 1];
        for (int m = 0; m < BSP_MIPLEVELS; m++) {
            int dw = t->width >> m, dh = t->height >> m;
            t->offsets[m] = o;
            tile_mip(b->texels + o, dw, dh, wals[i].pixels + wals[i].offsets[m], wals[i].width >> m,
                     wals[i].height >> m);
            o += (uint32_t)(dw * dh);
        }
    }
    bsp_default_texture(b, nuniq, o);
done:
    for (int i = 0; i < nuniq; i++)
        wal_free(&wals[i]);
    free(wals);
    free(tw);
    return rc;
}

// nexttexinfo chains: each texture animates through the chain that starts at it
// (Quake II steps from the texinfo's own frame). A chain that does not come back
// to its start, or is longer than BSP_MAX_ANIM, is cut there.
static void link_animations(bsp_t *b, const q2_texinfo_t *qt)
{
    for (int i = 0; i < b->num_texinfo; i++) {
        bsp_texture_t *t = &b->textures[b->texinfo[i].texture];
        if (qt[i].next < 0 || t->anim_total)
            continue;
        int n = 0;
        for (int j = i; j >= 0 && n < BSP_MAX_ANIM; j = qt[j].next) {
            if (n && j == i)
                break;
            t->anim_frames[n++] = b->texinfo[j].texture;
        }
        t->anim_total = n > 1 ? n : 0;
    }
}

static int load_texinfo(ld_t *l, bsp_t *b)
{
    int n = bsp_lump_count(l, Q_TEXINFO, 76, "texinfo");
    if (n < 0)
        return -1;
    if (n > MAX_TEXINFO)
        return bsp_fail(l, 8 + Q_TEXINFO * 8 + 4, "at most %d texinfo, got %d", MAX_TEXINFO, n);
    q2_texinfo_t *qt = bsp_alloc_n((size_t)n, sizeof *qt);
    name_key_t *keys = bsp_alloc_n((size_t)n, sizeof *keys);
    int *uniq = bsp_alloc_n((size_t)n, sizeof(int));
    b->texinfo = bsp_alloc_n((size_t)n, sizeof(bsp_texinfo_t));
    int rc = 0;
    if (!qt || !keys || !uniq || !b->texinfo) {
        rc = bsp_fail(l, l->ofs[Q_TEXINFO], "memory for %d texinfo", n);
        goto done;
    }
    b->num_texinfo = n;
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[Q_TEXINFO] + (size_t)i * 76;
        const uint8_t *p = l->data + at;
        bsp_texinfo_t *ti = &b->texinfo[i];
        for (int k = 0; k < 8; k++)
            ti->vecs[k / 4][k % 4] = rd_f32(p + k * 4);
        ti->flags = rd_s32(p + 32);   // Quake II surface flags (value at p + 36 is for the light compiler)
        memcpy(qt[i].texname, p + 40, 32);
        qt[i].texname[32] = 0;
        // The file system ignores case; names must compare equal when they name the same file.
        for (char *c = qt[i].texname; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        qt[i].next = rd_s32(p + 72);
        if (qt[i].next < -1 || qt[i].next >= n) {
            rc = bsp_fail(l, at + 72, "next texinfo -1 or < %d, got %d", n, qt[i].next);
            goto done;
        }
        keys[i] = (name_key_t){ qt[i].texname, i };
    }
    qsort(keys, (size_t)n, sizeof *keys, cmp_name_key);
    int nuniq = 0;
    for (int k = 0; k < n; k++) {
        if (k == 0 || strcmp(keys[k].name, keys[k - 1].name))
            uniq[nuniq++] = keys[k].index;
        b->texinfo[keys[k].index].texture = nuniq - 1;
    }
    if (load_wals(l, b, qt, uniq, nuniq) < 0) {
        rc = -1;
        goto done;
    }
    link_animations(b, qt);
done:
    free(qt);
    free(keys);
    free(uniq);
    return rc;
}

// ---- faces, light, visibility -----------------------------------------------------

// RGB samples to one byte each: the brightest channel, as Quake II's software renderer.
static int load_lighting(ld_t *l, bsp_t *b)
{
    size_t n = l->len[Q_LIGHTING] / 3;
    if (!(b->lightdata = bsp_alloc_n(n + 1, 1)) || !(b->lightdata_mean = bsp_alloc_n(n + 1, 1)))
        return bsp_fail(l, l->ofs[Q_LIGHTING], "memory for %zu light samples", n);
    b->light_size = n;
    const uint8_t *p = lump(l, Q_LIGHTING);
    for (size_t i = 0; i < n; i++, p += 3) {
        uint8_t m = p[0] > p[1] ? p[0] : p[1];
        b->lightdata[i] = m > p[2] ? m : p[2];
        b->lightdata_mean[i] = (uint8_t)((p[0] + p[1] + p[2]) / 3);
    }
    return 0;
}

// A face's BSP_SURF_* from its texinfo's Quake II surface flags.
static int texinfo_flags(const bsp_t *b, const bsp_texinfo_t *ti)
{
    (void)b;
    int q2flags = ti->flags;
    int f = 0;
    if (q2flags & Q2_SURF_SKY)
        f |= BSP_SURF_SKY | BSP_SURF_NOLIGHT;
    else if (q2flags & Q2_SURF_WARP)
        f |= BSP_SURF_TURB | BSP_SURF_NOLIGHT;
    if (q2flags & Q2_SURF_TRANS33)
        f |= BSP_SURF_TRANS33;
    if (q2flags & Q2_SURF_TRANS66)
        f |= BSP_SURF_TRANS66;
    if (q2flags & Q2_SURF_FLOWING)
        f |= BSP_SURF_FLOWING;
    // Compilers keep nodraw faces only where they close off the sky; Quake II draws those as sky.
    if ((q2flags & Q2_SURF_NODRAW) && !(q2flags & Q2_SURF_SKY))
        f |= BSP_SURF_NODRAW;
    return f;
}

// The visibility lump: a cluster count, then per cluster the offsets of its PVS and
// PHS rows from the lump start. Kept whole; the PVS offsets are checked here.
static int load_visibility(ld_t *l, bsp_t *b)
{
    uint32_t len = l->len[Q_VISIBILITY];
    if (!(b->visdata = bsp_alloc_n((size_t)len + 1, 1)))
        return bsp_fail(l, l->ofs[Q_VISIBILITY], "memory for a %u-byte lump", len);
    memcpy(b->visdata, lump(l, Q_VISIBILITY), len);
    b->vis_size = len;
    if (len == 0)
        return 0;   // compiled without vis: everything visible
    if (len < 4)
        return bsp_fail(l, 8 + Q_VISIBILITY * 8 + 4, "a visibility lump of 0 or at least 4 bytes, got %u", len);
    int32_t nc = rd_s32(b->visdata);
    uint64_t most = ((uint64_t)len - 4) / 8 < MAX_CLUSTERS ? ((uint64_t)len - 4) / 8 : MAX_CLUSTERS;
    if (nc < 0 || (uint64_t)nc > most)
        return bsp_fail(l, l->ofs[Q_VISIBILITY], "a cluster count of 0..%llu, got %d", (unsigned long long)most, nc);
    for (int c = 0; c < nc; c++) {
        uint32_t ofs = rd_u32(b->visdata + 4 + (size_t)c * 8);
        if (ofs < 4 + (uint64_t)nc * 8 || ofs >= len)
            return bsp_fail(l, l->ofs[Q_VISIBILITY] + 4 + (size_t)c * 8, "PVS row of cluster %d inside the %u-byte lump, got %u",
                        c, len, ofs);
    }
    b->num_clusters = nc;
    return 0;
}

// ---- the tree -----------------------------------------------------------------

// Quake II's contents bits as the one Quake value the renderer knows. Windows are
// seen through, so their leafs are walked like empty ones.
static int leaf_contents(int32_t c)
{
    if (c & Q2_CONTENTS_SOLID)
        return BSP_CONTENTS_SOLID;
    if (c & Q2_CONTENTS_LAVA)
        return BSP_CONTENTS_LAVA;
    if (c & Q2_CONTENTS_SLIME)
        return BSP_CONTENTS_SLIME;
    if (c & Q2_CONTENTS_WATER)
        return BSP_CONTENTS_WATER;
    return BSP_CONTENTS_EMPTY;
}


static int load_leafs(ld_t *l, bsp_t *b)
{
    int n = bsp_lump_count(l, Q_LEAFS, 28, "leafs");
    if (n < 0 || !(b->leafs = bsp_alloc_n((size_t)n, sizeof(bsp_leaf_t))))
        return -1;
    b->num_leafs = n;
    if (n < 1)
        return bsp_fail(l, 8 + Q_LEAFS * 8, "at least one leaf");
    int nm = bsp_lump_count(l, Q_LEAFFACES, 2, "leaffaces");
    if (nm < 0 || !(b->marks = bsp_alloc_n((size_t)nm, sizeof(int32_t))))
        return -1;
    b->num_marks = nm;
    for (int i = 0; i < nm; i++) {
        size_t at = l->ofs[Q_LEAFFACES] + (size_t)i * 2;
        b->marks[i] = rd_u16(l->data + at);
        if (b->marks[i] >= b->num_faces)
            return bsp_fail(l, at, "face index < %d, got %d", b->num_faces, b->marks[i]);
    }
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[Q_LEAFS] + (size_t)i * 28;
        const uint8_t *p = l->data + at;
        bsp_leaf_t *lf = &b->leafs[i];
        lf->contents = leaf_contents(rd_s32(p));
        lf->cluster = rd_s16(p + 4);
        for (int k = 0; k < 3; k++) {
            lf->mins[k] = (float)rd_s16(p + 8 + k * 2);
            lf->maxs[k] = (float)rd_s16(p + 14 + k * 2);
        }
        lf->firstmark = rd_u16(p + 20);
        lf->nummarks = rd_u16(p + 22);
        lf->parent = -1;
        if (lf->firstmark + lf->nummarks > nm)
            return bsp_fail(l, at + 20, "leaffaces inside the %d, got %d at %d", nm, lf->nummarks, lf->firstmark);
        if (lf->cluster < -1 || (b->num_clusters && lf->cluster >= b->num_clusters))
            return bsp_fail(l, at + 4, "cluster -1 or < %d, got %d", b->num_clusters, lf->cluster);
        // Without vis data the clusters index nothing: the leaf sees everything.
        lf->visofs = (b->num_clusters && lf->cluster >= 0) ? (int)rd_u32(b->visdata + 4 + (size_t)lf->cluster * 8) : -1;
    }
    return 0;
}


static int load_models(ld_t *l, bsp_t *b)
{
    int n = bsp_lump_count(l, Q_MODELS, 48, "models");
    if (n < 0 || !(b->models = bsp_alloc_n((size_t)n, sizeof(bsp_model_t))))
        return -1;
    b->num_models = n;
    if (n < 1)
        return bsp_fail(l, 8 + Q_MODELS * 8, "at least one model");
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[Q_MODELS] + (size_t)i * 48;
        const uint8_t *p = l->data + at;
        bsp_model_t *m = &b->models[i];
        for (int k = 0; k < 3; k++) {
            m->mins[k] = rd_f32(p + k * 4) - 1;    // spread by one unit, as Quake II does
            m->maxs[k] = rd_f32(p + 12 + k * 4) + 1;
            m->origin[k] = rd_f32(p + 24 + k * 4);
        }
        m->headnode = rd_s32(p + 36);
        m->firstface = rd_s32(p + 40);
        m->numfaces = rd_s32(p + 44);
        m->visleafs = b->num_leafs - 1;
        // The world needs a root node; a brush model may be a single leaf (-(leaf + 1)).
        int root_ok = m->headnode >= 0 ? m->headnode < b->num_nodes && b->nodes[m->headnode].parent < 0
                                       : i > 0 && -(m->headnode + 1) < b->num_leafs;
        if (!root_ok)
            return bsp_fail(l, at + 36, "a root node < %d, got %d", b->num_nodes, m->headnode);
        if (m->firstface < 0 || m->numfaces < 0 || m->firstface > b->num_faces - m->numfaces)
            return bsp_fail(l, at + 40, "faces inside the %d, got %d at %d", b->num_faces, m->numfaces, m->firstface);
    }
    return 0;
}

// ---- the file -------------------------------------------------------------------

static int read_header(ld_t *l)
{
    if (l->size < HEADER_SIZE)
        return bsp_fail(l, 0, "an IBSP header (%d bytes), file has %zu", HEADER_SIZE, l->size);
    if (memcmp(l->data, "IBSP", 4))
        return bsp_fail(l, 0, "\"IBSP\"");
    int version = rd_s32(l->data + 4);
    if (version != 38)
        return bsp_fail(l, 4, "IBSP version 38, got %d", version);
    for (int i = 0; i < Q_COUNT; i++) {
        l->ofs[i] = rd_u32(l->data + 8 + i * 8);
        l->len[i] = rd_u32(l->data + 12 + i * 8);
        if (l->ofs[i] > l->size || l->size - l->ofs[i] < l->len[i]) {
            // Entities are text nothing points into: one cut short by the file's end
            // (id's base1.bsp) loses its tail, not the level.
            if (i == Q_ENTITIES && l->ofs[i] <= l->size) {
                l->len[i] = (uint32_t)(l->size - l->ofs[i]);
                continue;
            }
            return bsp_fail(l, 8 + (size_t)i * 8, "lump %d inside the %zu-byte file, got %u bytes at %u", i, l->size,
                        l->len[i], l->ofs[i]);
        }
    }
    return 0;
}

bsp_t *bsp38_load(const uint8_t *data, size_t size, const char *name, const asset_files_t *files,
                  char *err, size_t errcap)
{
    ld_t l = { data, size, name ? name : "bsp", err, errcap, 8, { 0 }, { 0 }, files };
    if (read_header(&l) < 0)
        return NULL;
    bsp_t *b = calloc(1, sizeof(*b));
    if (!b)
        return NULL;
    b->version = 38;
    snprintf(b->name, sizeof b->name, "%s", l.name);
    b->entities_size = l.len[Q_ENTITIES];
    if (!(b->entities = bsp_alloc_n((size_t)l.len[Q_ENTITIES] + 1, 1))) {
        bsp_fail(&l, l.ofs[Q_ENTITIES], "memory for a %u-byte lump", l.len[Q_ENTITIES]);
        goto fail;
    }
    memcpy(b->entities, lump(&l, Q_ENTITIES), l.len[Q_ENTITIES]);
    if (load_lighting(&l, b) < 0 || load_visibility(&l, b) < 0 || bsp_load_planes(&l, b, Q_PLANES) < 0 ||
        bsp_load_vertices(&l, b, Q_VERTEXES) < 0 || bsp_load_edges(&l, b, Q_EDGES, Q_SURFEDGES) < 0 ||
        load_texinfo(&l, b) < 0 || bsp_load_faces(&l, b, Q_FACES, texinfo_flags, 3) < 0 || load_leafs(&l, b) < 0 ||
        bsp_load_nodes(&l, b, Q_NODES, 4) < 0 || load_models(&l, b) < 0)
        goto fail;
    return b;
fail:
    bsp_free(b);
    return NULL;
}
