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
#include "bsp.h"

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
#define DEFAULT_TEXELS (16 * 16 + 8 * 8 + 4 * 4 + 2 * 2)

// Quake II surface flags (texinfo) and leaf contents bits.
enum { Q2_SURF_LIGHT = 0x1, Q2_SURF_SKY = 0x4, Q2_SURF_WARP = 0x8, Q2_SURF_TRANS33 = 0x10, Q2_SURF_TRANS66 = 0x20,
       Q2_SURF_FLOWING = 0x40, Q2_SURF_NODRAW = 0x80 };
enum { Q2_CONTENTS_SOLID = 1, Q2_CONTENTS_WINDOW = 2, Q2_CONTENTS_LAVA = 8, Q2_CONTENTS_SLIME = 16,
       Q2_CONTENTS_WATER = 32 };

typedef struct {
    const uint8_t *data;
    size_t size;
    const char *name;
    const asset_files_t *files;
    char *err;
    size_t errcap;
    uint32_t ofs[Q_COUNT], len[Q_COUNT];
} ld_t;

// The texinfo as the file has it, while the texture list is built.
typedef struct {
    char texname[33];
    int next;
} q2_texinfo_t;

static int fail(ld_t *l, size_t offset, const char *fmt, ...)
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

// Little-endian reads; callers have checked the range.
static uint32_t rd_u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static int32_t rd_s32(const uint8_t *p) { return (int32_t)rd_u32(p); }
static int rd_s16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }
static int rd_u16(const uint8_t *p) { return p[0] | p[1] << 8; }
static float rd_f32(const uint8_t *p)
{
    union { uint32_t u; float f; } v;
    v.u = rd_u32(p);
    return isfinite(v.f) ? v.f : 0.0f;
}

static const uint8_t *lump(const ld_t *l, int i) { return l->data + l->ofs[i]; }

// Count of records of `recsize` bytes in lump i; -1 on a bad lump size.
static int lump_count(ld_t *l, int i, size_t recsize, const char *what)
{
    if (l->len[i] % recsize)
        return fail(l, 8 + (size_t)i * 8 + 4, "%s lump size a multiple of %zu, got %u", what, recsize, l->len[i]);
    return (int)(l->len[i] / recsize);
}

static void *alloc_n(size_t n, size_t size) { return calloc(n ? n : 1, size); }

static int load_planes(ld_t *l, bsp_t *b)
{
    int n = lump_count(l, Q_PLANES, 20, "planes");
    if (n < 0 || !(b->planes = alloc_n((size_t)n, sizeof(bsp_plane_t))))
        return -1;
    b->num_planes = n;
    for (int i = 0; i < n; i++) {
        const uint8_t *p = lump(l, Q_PLANES) + (size_t)i * 20;
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

static int load_vertices(ld_t *l, bsp_t *b)
{
    int n = lump_count(l, Q_VERTEXES, 12, "vertexes");
    if (n < 0 || !(b->vertices = alloc_n((size_t)n, sizeof(vec3_t))))
        return -1;
    b->num_vertices = n;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            b->vertices[i][k] = rd_f32(lump(l, Q_VERTEXES) + (size_t)i * 12 + (size_t)k * 4);
    return 0;
}

static int load_edges(ld_t *l, bsp_t *b)
{
    int n = lump_count(l, Q_EDGES, 4, "edges");
    if (n < 0 || !(b->edges = alloc_n((size_t)n, sizeof(*b->edges))))
        return -1;
    b->num_edges = n;
    for (int i = 0; i < n; i++) {
        const uint8_t *p = lump(l, Q_EDGES) + (size_t)i * 4;
        b->edges[i][0] = (uint32_t)rd_u16(p);
        b->edges[i][1] = (uint32_t)rd_u16(p + 2);
        if ((int)b->edges[i][0] >= b->num_vertices || (int)b->edges[i][1] >= b->num_vertices)
            return fail(l, l->ofs[Q_EDGES] + (size_t)i * 4, "vertex index < %d", b->num_vertices);
    }
    n = lump_count(l, Q_SURFEDGES, 4, "surfedges");
    if (n < 0 || !(b->surfedges = alloc_n((size_t)n, sizeof(int32_t))))
        return -1;
    b->num_surfedges = n;
    for (int i = 0; i < n; i++) {
        int32_t e = rd_s32(lump(l, Q_SURFEDGES) + (size_t)i * 4);
        if (e >= b->num_edges || e <= -b->num_edges)
            return fail(l, l->ofs[Q_SURFEDGES] + (size_t)i * 4, "edge index within +-%d, got %d", b->num_edges, e);
        b->surfedges[i] = e;
    }
    return 0;
}

// ---- textures -------------------------------------------------------------------

// A checkerboard for a texture that could not be read; it keeps its name.
static void default_texture(bsp_t *b, int idx, uint32_t texel_ofs)
{
    bsp_texture_t *t = &b->textures[idx];
    t->width = t->height = 16;
    uint32_t o = texel_ofs;
    for (int m = 0; m < BSP_MIPLEVELS; m++) {
        int w = 16 >> m;
        t->offsets[m] = o;
        for (int y = 0; y < w; y++)
            for (int x = 0; x < w; x++)
                b->texels[o++] = (uint8_t)((((x << m) ^ (y << m)) & 8) ? 15 : 6);
    }
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
    wal_t *wals = alloc_n((size_t)nuniq, sizeof(wal_t));
    int *tw = alloc_n((size_t)nuniq * 2, sizeof(int));
    b->num_textures = nuniq + 1;   // the last one is the default, as for BSP29
    b->textures = alloc_n((size_t)b->num_textures, sizeof(bsp_texture_t));
    if (!wals || !tw || !b->textures) {
        free(wals);
        free(tw);
        return fail(l, l->ofs[Q_TEXINFO], "memory for %d textures", nuniq);
    }
    size_t total = DEFAULT_TEXELS;
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
            total += DEFAULT_TEXELS;
            continue;
        }
        tw[i * 2] = w;
        tw[i * 2 + 1] = h;
        total += (size_t)w * (size_t)h / 64 * 85;
    }
    int rc = 0;
    b->texels = alloc_n(total, 1);
    if (!b->texels) {
        rc = fail(l, l->ofs[Q_TEXINFO], "memory for %zu texels", total);
        goto done;
    }
    b->texel_size = total;
    uint32_t o = 0;
    for (int i = 0; i < nuniq; i++) {
        bsp_texture_t *t = &b->textures[i];
        if (!wals[i].pixels) {
            default_texture(b, i, o);
            o += DEFAULT_TEXELS;
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
    snprintf(b->textures[nuniq].name, sizeof b->textures[nuniq].name, "notexture");
    default_texture(b, nuniq, o);
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
    int n = lump_count(l, Q_TEXINFO, 76, "texinfo");
    if (n < 0)
        return -1;
    if (n > MAX_TEXINFO)
        return fail(l, 8 + Q_TEXINFO * 8 + 4, "at most %d texinfo, got %d", MAX_TEXINFO, n);
    q2_texinfo_t *qt = alloc_n((size_t)n, sizeof *qt);
    name_key_t *keys = alloc_n((size_t)n, sizeof *keys);
    int *uniq = alloc_n((size_t)n, sizeof(int));
    b->texinfo = alloc_n((size_t)n, sizeof(bsp_texinfo_t));
    int rc = 0;
    if (!qt || !keys || !uniq || !b->texinfo) {
        rc = fail(l, l->ofs[Q_TEXINFO], "memory for %d texinfo", n);
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
            rc = fail(l, at + 72, "next texinfo -1 or < %d, got %d", n, qt[i].next);
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
    if (!(b->lightdata = alloc_n(n + 1, 1)))
        return fail(l, l->ofs[Q_LIGHTING], "memory for %zu light samples", n);
    b->light_size = n;
    const uint8_t *p = lump(l, Q_LIGHTING);
    for (size_t i = 0; i < n; i++, p += 3) {
        uint8_t m = p[0] > p[1] ? p[0] : p[1];
        b->lightdata[i] = m > p[2] ? m : p[2];
    }
    return 0;
}

static int face_flags(int q2flags)
{
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

static int load_faces(ld_t *l, bsp_t *b)
{
    int n = lump_count(l, Q_FACES, 20, "faces");
    if (n < 0 || !(b->faces = alloc_n((size_t)n, sizeof(bsp_face_t))))
        return -1;
    b->num_faces = n;
    size_t edges_total = 0;
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[Q_FACES] + (size_t)i * 20;
        const uint8_t *p = l->data + at;
        bsp_face_t *f = &b->faces[i];
        f->plane = rd_u16(p);
        int side = rd_s16(p + 2);
        f->firstedge = rd_s32(p + 4);
        f->numedges = rd_s16(p + 8);
        f->texinfo = rd_s16(p + 10);
        memcpy(f->styles, p + 12, 4);
        int32_t lightofs = rd_s32(p + 16);
        if (f->plane >= b->num_planes)
            return fail(l, at, "plane index < %d, got %d", b->num_planes, f->plane);
        if (f->texinfo < 0 || f->texinfo >= b->num_texinfo)
            return fail(l, at + 10, "texinfo index < %d, got %d", b->num_texinfo, f->texinfo);
        if (f->numedges < 3 || f->firstedge < 0 || f->firstedge > b->num_surfedges - f->numedges)
            return fail(l, at + 4, "3 or more edges inside the %d surfedges, got %d at %d", b->num_surfedges,
                        f->numedges, f->firstedge);
        // As in bsp.c: shared surfedges would make every walk over the faces quadratic.
        edges_total += (size_t)f->numedges;
        if (edges_total > (size_t)b->num_surfedges)
            return fail(l, at + 8, "faces with surfedges of their own (%zu edges by face %d, %d surfedges in all)",
                        edges_total, i, b->num_surfedges);
        const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
        f->flags = face_flags(ti->flags) | (side ? BSP_SURF_PLANEBACK : 0);
        // Extents in 16-texel lightmap blocks, in double as the light compiler measured them.
        float mins[2] = { 1e30f, 1e30f }, maxs[2] = { -1e30f, -1e30f };
        for (int e = 0; e < f->numedges; e++) {
            int32_t se = b->surfedges[f->firstedge + e];
            const float *v = b->vertices[se >= 0 ? b->edges[se][0] : b->edges[-se][1]];
            for (int k = 0; k < 2; k++) {
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
        // The file counts bytes of RGB; the samples kept are one byte each.
        f->lightofs = lightofs >= 0 && lightofs % 3 == 0 ? lightofs / 3 : -1;
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

// The visibility lump: a cluster count, then per cluster the offsets of its PVS and
// PHS rows from the lump start. Kept whole; the PVS offsets are checked here.
static int load_visibility(ld_t *l, bsp_t *b)
{
    uint32_t len = l->len[Q_VISIBILITY];
    if (!(b->visdata = alloc_n((size_t)len + 1, 1)))
        return fail(l, l->ofs[Q_VISIBILITY], "memory for a %u-byte lump", len);
    memcpy(b->visdata, lump(l, Q_VISIBILITY), len);
    b->vis_size = len;
    if (len == 0)
        return 0;   // compiled without vis: everything visible
    if (len < 4)
        return fail(l, 8 + Q_VISIBILITY * 8 + 4, "a visibility lump of 0 or at least 4 bytes, got %u", len);
    int32_t nc = rd_s32(b->visdata);
    uint64_t most = ((uint64_t)len - 4) / 8 < MAX_CLUSTERS ? ((uint64_t)len - 4) / 8 : MAX_CLUSTERS;
    if (nc < 0 || (uint64_t)nc > most)
        return fail(l, l->ofs[Q_VISIBILITY], "a cluster count of 0..%llu, got %d", (unsigned long long)most, nc);
    for (int c = 0; c < nc; c++) {
        uint32_t ofs = rd_u32(b->visdata + 4 + (size_t)c * 8);
        if (ofs < 4 + (uint64_t)nc * 8 || ofs >= len)
            return fail(l, l->ofs[Q_VISIBILITY] + 4 + (size_t)c * 8, "PVS row of cluster %d inside the %u-byte lump, got %u",
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

static int check_child(ld_t *l, bsp_t *b, size_t at, int c)
{
    if (c >= 0 ? c >= b->num_nodes : -(c + 1) >= b->num_leafs)
        return fail(l, at, "child node < %d or leaf < %d, got %d", b->num_nodes, b->num_leafs, c);
    return 0;
}

static int load_leafs(ld_t *l, bsp_t *b)
{
    int n = lump_count(l, Q_LEAFS, 28, "leafs");
    if (n < 0 || !(b->leafs = alloc_n((size_t)n, sizeof(bsp_leaf_t))))
        return -1;
    b->num_leafs = n;
    if (n < 1)
        return fail(l, 8 + Q_LEAFS * 8, "at least one leaf");
    int nm = lump_count(l, Q_LEAFFACES, 2, "leaffaces");
    if (nm < 0 || !(b->marks = alloc_n((size_t)nm, sizeof(int32_t))))
        return -1;
    b->num_marks = nm;
    for (int i = 0; i < nm; i++) {
        size_t at = l->ofs[Q_LEAFFACES] + (size_t)i * 2;
        b->marks[i] = rd_u16(l->data + at);
        if (b->marks[i] >= b->num_faces)
            return fail(l, at, "face index < %d, got %d", b->num_faces, b->marks[i]);
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
            return fail(l, at + 20, "leaffaces inside the %d, got %d at %d", nm, lf->nummarks, lf->firstmark);
        if (lf->cluster < -1 || (b->num_clusters && lf->cluster >= b->num_clusters))
            return fail(l, at + 4, "cluster -1 or < %d, got %d", b->num_clusters, lf->cluster);
        // Without vis data the clusters index nothing: the leaf sees everything.
        lf->visofs = (b->num_clusters && lf->cluster >= 0) ? (int)rd_u32(b->visdata + 4 + (size_t)lf->cluster * 8) : -1;
    }
    return 0;
}

static int load_nodes(ld_t *l, bsp_t *b)
{
    int n = lump_count(l, Q_NODES, 28, "nodes");
    if (n < 0 || !(b->nodes = alloc_n((size_t)n, sizeof(bsp_node_t))))
        return -1;
    b->num_nodes = n;
    for (int i = 0; i < n; i++)
        b->nodes[i].parent = -1;
    for (int i = 0; i < n; i++) {
        size_t at = l->ofs[Q_NODES] + (size_t)i * 28;
        const uint8_t *p = l->data + at;
        bsp_node_t *nd = &b->nodes[i];
        nd->plane = rd_s32(p);
        if (nd->plane < 0 || nd->plane >= b->num_planes)
            return fail(l, at, "plane index < %d, got %d", b->num_planes, nd->plane);
        for (int k = 0; k < 2; k++) {
            nd->children[k] = rd_s32(p + 4 + k * 4);
            if (check_child(l, b, at + 4 + (size_t)k * 4, nd->children[k]) < 0)
                return -1;
        }
        for (int k = 0; k < 3; k++) {
            nd->mins[k] = (float)rd_s16(p + 12 + k * 2);
            nd->maxs[k] = (float)rd_s16(p + 18 + k * 2);
        }
        nd->firstface = rd_u16(p + 24);
        nd->numfaces = rd_u16(p + 26);
        if (nd->firstface + nd->numfaces > b->num_faces)
            return fail(l, at + 24, "faces inside the %d, got %d at %d", b->num_faces, nd->numfaces, nd->firstface);
        // A node with two parents would let a walk revisit it (or loop): refuse it.
        for (int k = 0; k < 2; k++) {
            int c = nd->children[k];
            if (c >= 0) {
                if (b->nodes[c].parent >= 0 || c == i)
                    return fail(l, at + 4 + (size_t)k * 4, "a tree (node %d has two parents)", c);
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
    int n = lump_count(l, Q_MODELS, 48, "models");
    if (n < 0 || !(b->models = alloc_n((size_t)n, sizeof(bsp_model_t))))
        return -1;
    b->num_models = n;
    if (n < 1)
        return fail(l, 8 + Q_MODELS * 8, "at least one model");
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
            return fail(l, at + 36, "a root node < %d, got %d", b->num_nodes, m->headnode);
        if (m->firstface < 0 || m->numfaces < 0 || m->firstface > b->num_faces - m->numfaces)
            return fail(l, at + 40, "faces inside the %d, got %d at %d", b->num_faces, m->numfaces, m->firstface);
    }
    return 0;
}

// ---- the file -------------------------------------------------------------------

static int read_header(ld_t *l)
{
    if (l->size < HEADER_SIZE)
        return fail(l, 0, "an IBSP header (%d bytes), file has %zu", HEADER_SIZE, l->size);
    if (memcmp(l->data, "IBSP", 4))
        return fail(l, 0, "\"IBSP\"");
    int version = rd_s32(l->data + 4);
    if (version != 38)
        return fail(l, 4, "IBSP version 38, got %d", version);
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
            return fail(l, 8 + (size_t)i * 8, "lump %d inside the %zu-byte file, got %u bytes at %u", i, l->size,
                        l->len[i], l->ofs[i]);
        }
    }
    return 0;
}

bsp_t *bsp38_load(const uint8_t *data, size_t size, const char *name, const asset_files_t *files,
                  char *err, size_t errcap)
{
    ld_t l = { data, size, name ? name : "bsp", files, err, errcap, { 0 }, { 0 } };
    if (read_header(&l) < 0)
        return NULL;
    bsp_t *b = calloc(1, sizeof(*b));
    if (!b)
        return NULL;
    b->version = 38;
    snprintf(b->name, sizeof b->name, "%s", l.name);
    b->entities_size = l.len[Q_ENTITIES];
    if (!(b->entities = alloc_n((size_t)l.len[Q_ENTITIES] + 1, 1))) {
        fail(&l, l.ofs[Q_ENTITIES], "memory for a %u-byte lump", l.len[Q_ENTITIES]);
        goto fail;
    }
    memcpy(b->entities, lump(&l, Q_ENTITIES), l.len[Q_ENTITIES]);
    if (load_lighting(&l, b) < 0 || load_visibility(&l, b) < 0 || load_planes(&l, b) < 0 ||
        load_vertices(&l, b) < 0 || load_edges(&l, b) < 0 || load_texinfo(&l, b) < 0 || load_faces(&l, b) < 0 ||
        load_leafs(&l, b) < 0 || load_nodes(&l, b) < 0 || load_models(&l, b) < 0)
        goto fail;
    return b;
fail:
    bsp_free(b);
    return NULL;
}
