// r_fsworld.c -- Forsaken levels: the groups visible through the portals from the eye's
// group (the game's visi.c), their triangles clipped to the near plane, z-buffered,
// perspective-correct textured (exact every 16 pixels, as d_span.c) and Gouraud lit from
// the baked vertex colours through the colormap; transparent buffers added on top
#include "r_fsworld.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/fstex.h"
#include "../assets/pal.h"
#include "../engine/angles.h"
#include "../engine/log.h"
#include "r_dither.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NEAR_Z 1.0f        // level units (a corridor is 256-1024 wide)
#define MAX_TEX_COORD 4096.0f   // texture wraps kept after the per-triangle shift (16.16 stays in range)
#define FS_MAX_SEEN_GROUPS 1024   // the game's MAXGROUPS: its visibility tables' size
#define FS_LIGHT_GROUPS 4         // groups whose box holds a light, kept (boxes overlap)
#define LIGHT_LEVELS R_FS_LEVELS   // a vertex colour channel in 64 levels: 63 = the texture as painted

struct r_fsworld_s {
    mxv_t *m;
    float *cam;        // per vertex, this frame: right, up, forward distances from the eye
    int *wshift;       // per texture: log2 of the width (rows are that long)
    uint8_t *visible;  // per group, this frame: 1 = drawn
    uint8_t *add;      // additive blend table [src * 256 + dst] from the level palette (rows made on use)
    uint8_t add_ready[256];
    uint16_t *inv;     // 5-bit r, g, b -> nearest level colour; 0xffff = not looked up yet
    // Coloured light: each pixel is its texel's colour times the vertex colours interpolated
    // across the triangle, to the level palette through the ordered dither (r_dither.h).
    r_dither_t *dith;            // the level palette's cells, built when the level loads
    uint8_t (*tab)[LIGHT_LEVELS * 256];   // tab[c][level * 256 + texel]: channel c at level / 63 (<= 248)
    r_fsshade_t shade;           // the two for the rasterizers (r_fstri.h), with the dither's pattern
    // Moving lights (the game's XLights): set before each draw, applied to the drawn groups'
    // vertices on top of the baked colours.
    r_fslight_t lights[R_FS_MAX_LIGHTS];
    int num_lights;
    uint8_t (*lit)[3];           // per vertex, this frame: baked colour plus the lights (lit groups)
    uint8_t *group_lit;          // per group, this frame: 1 = a light reached its vertices' bounds
    // Which lights a group takes (the game's GroupsAreVisible / BuildVisibleLightList): per group
    // a bitset of the groups it sees, itself and every group of its portals' trees (the game's
    // VisibleGroup table); NULL without portals or above FS_MAX_SEEN_GROUPS groups (no rule).
    uint32_t *sees;
    int sees_words;
    int8_t light_ngroups[R_FS_MAX_LIGHTS];           // the groups whose box holds each light
    uint16_t light_groups[R_FS_MAX_LIGHTS][FS_LIGHT_GROUPS];
    uint8_t light_seen[R_FS_MAX_LIGHTS];             // this frame: 1 = kept (the eye's groups see its group)
    r_fslight_t seen_lights[R_FS_MAX_LIGHTS];        // this frame: the kept ones, for models
    int num_seen_lights;
    uint8_t *tri_keyed;          // per triangle: 1 = its texels may include the colour key (checked per texel)
    int culling;       // r_fs_cull_t
    int see_through;   // 1: MXV_TRANSPARENT buffers added (default); 0: drawn opaque
    int tint;          // 1: coloured light (default); 0: brightness only
    int dither;        // 1: ordered dither (default); 0: each colour's nearest (for comparisons)
    int colour_key;    // 1: the textures' colour key (default); 0: every texel drawn
    // Texture animations (the .MXV's tail, assets/fstex.h): NULL when the level has none or its
    // tail was refused (tex_warning). st: per vertex the texture coordinates drawn (every level),
    // the file's but for the animated polygons' vertices, set from their frame every draw of their group.
    fstex_t *tex;
    char tex_warning[256];
    float (*st)[2];
    int *vert_poly, *vert_slot;  // per vertex its animated polygon (-1 none) and its place in it (NULL: none)
    int *group_poly;             // per group + 1: its first animated polygon (polygons are in group order)
    int anim_frame[FSTEX_MAX_ANIMS];   // this draw: each script's frame at the view's time
    double *trig_secs;           // per animated polygon: its script's own time a trigger set (< 0: none, NULL: no polygons)
    int texanim;       // 1: animated (default); 0: the file's coordinates (for comparisons)
    r_fsworld_stats_t stats;
};

typedef struct {
    float x0, y0, x1, y1;   // screen rectangle, pixels
} rect_t;

static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// NaN-safe clamp: anything not inside [lo, hi] (NaN included) goes to a bound.
static inline float clampf(float v, float lo, float hi) { return !(v > lo) ? lo : v > hi ? hi : v; }

void r_fs_angle_vectors(const float angles[3], float forward[3], float right[3], float up[3])
{
    fs_angle_vectors(angles, forward, right, up);   // engine/angles.h
}

void r_fsworld_free(r_fsworld_t *fw)
{
    if (!fw)
        return;
    mxv_free(fw->m);
    free(fw->cam);
    free(fw->wshift);
    free(fw->visible);
    free(fw->add);
    free(fw->inv);
    free(fw->lit);
    free(fw->dith);
    free(fw->tab);
    free(fw->group_lit);
    free(fw->sees);
    free(fw->tri_keyed);
    fstex_free(fw->tex);
    free(fw->st);
    free(fw->group_poly);
    free(fw->vert_poly);
    free(fw->vert_slot);
    free(fw->trig_secs);
    free(fw);
}

void r_fsworld_set_culling(r_fsworld_t *fw, r_fs_cull_t mode)
{
    if (fw)
        fw->culling = mode;
}

void r_fsworld_set_see_through(r_fsworld_t *fw, int on)
{
    if (fw)
        fw->see_through = on != 0;
}

void r_fsworld_set_tint(r_fsworld_t *fw, int on)
{
    if (fw)
        fw->tint = on != 0;
}

void r_fsworld_set_colour_key(r_fsworld_t *fw, int on)
{
    if (fw)
        fw->colour_key = on != 0;
}

void r_fsworld_set_texanim(r_fsworld_t *fw, int on)
{
    if (!fw)
        return;
    fw->texanim = on != 0;
    if (!on && fw->st)   // back to the file's coordinates
        for (int i = 0; i < fw->m->num_verts; i++) {
            fw->st[i][0] = fw->m->verts[i].st[0];
            fw->st[i][1] = fw->m->verts[i].st[1];
        }
}

const fstex_t *r_fsworld_texanims(const r_fsworld_t *fw) { return fw ? fw->tex : NULL; }

void r_fsworld_set_texanim_clock(r_fsworld_t *fw, int entry, double secs)
{
    if (!fw || !fw->tex || !fw->trig_secs || entry < 0 || entry >= fw->tex->num_index)
        return;
    int p = fw->tex->index[entry];
    if (p >= 0 && p < fw->tex->num_polys)
        fw->trig_secs[p] = secs >= 0 && isfinite(secs) ? secs : -1;
}

void r_fsworld_set_dither(r_fsworld_t *fw, int on)
{
    if (fw) {
        fw->dither = on != 0;
        fw->shade.pattern = r_dither_bayer[fw->dither ? 0 : 1];
    }
}

const r_fsshade_t *r_fsworld_shade(const r_fsworld_t *fw) { return fw ? &fw->shade : NULL; }

int r_fsworld_lights(const r_fsworld_t *fw, const r_fslight_t **out)
{
    *out = fw ? fw->seen_lights : NULL;
    return fw ? fw->num_seen_lights : 0;
}

r_fsworld_stats_t r_fsworld_stats(const r_fsworld_t *fw)
{
    r_fsworld_stats_t z = { 0 };
    return fw ? fw->stats : z;
}

// The game's translucent polygons are blended ONE + ONE (additive) where the card can
// (PreferredCaps in the game's D3dmain.c): dst + src, per channel, clamped; here the
// nearest level colour of that sum. A row of the table (one source colour) is made the
// first time that colour is drawn see-through, its sums found through a 5-bit colour
// cube filled as asked: levels without see-through buffers never pay for it.
static uint8_t add_nearest(r_fsworld_t *fw, int r, int g, int b)
{
    int i = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3);
    if (fw->inv[i] == 0xffff)
        fw->inv[i] = (uint16_t)pal_nearest(fw->m->palette, 256, (r >> 3) << 3 | 4, (g >> 3) << 3 | 4, (b >> 3) << 3 | 4);
    return (uint8_t)fw->inv[i];
}

static const uint8_t *add_row(r_fsworld_t *fw, int src)
{
    uint8_t *row = fw->add + src * 256;
    if (!fw->add_ready[src]) {
        const uint8_t *pal = fw->m->palette;
        for (int d = 0; d < 256; d++) {
            int c[3];
            for (int k = 0; k < 3; k++) {
                c[k] = pal[src * 3 + k] + pal[d * 3 + k];
                c[k] = c[k] > 255 ? 255 : c[k];
            }
            row[d] = add_nearest(fw, c[0], c[1], c[2]);
        }
        fw->add_ready[src] = 1;
    }
    return row;
}

// The level tables of the coloured light: the dither's cells for the level palette and each
// channel of each texel colour at the 64 light levels (Direct3D modulated the texel by the
// vertex colour: level 63 is the texture as painted, 0 black). 248 at most, so that the
// dither (0..7) never carries out of the 8 bits.
static int setup_light(r_fsworld_t *fw)
{
    fw->dith = malloc(sizeof *fw->dith);
    fw->tab = malloc(3 * sizeof *fw->tab);
    if (!fw->dith || !fw->tab)
        return -1;
    const uint8_t *pal = fw->m->palette;
    r_dither_build(fw->dith, pal, 256, NULL);
    for (int c = 0; c < 3; c++)
        for (int l = 0; l < LIGHT_LEVELS; l++)
            for (int t = 0; t < 256; t++) {
                int v = (pal[t * 3 + c] * l + (LIGHT_LEVELS - 1) / 2) / (LIGHT_LEVELS - 1);
                fw->tab[c][l * 256 + t] = (uint8_t)(v > 248 ? 248 : v);
            }
    fw->shade = (r_fsshade_t){ (const uint8_t(*)[LIGHT_LEVELS * 256])fw->tab, fw->dith->mix, r_dither_bayer[0] };
    return 0;
}

// Key texels in the rectangle [x0, x1) x [y0, y1) of a texture's summed-area table sat (w + 1 wide).
static long sat_sum(const int32_t *sat, int w, int x0, int y0, int x1, int y1)
{
    return (long)sat[y1 * (w + 1) + x1] - sat[y0 * (w + 1) + x1] - sat[y1 * (w + 1) + x0] + sat[y0 * (w + 1) + x0];
}

// Key texels inside a span [a, b] of texel columns or rows of a texture `n` wide, wrapping:
// up to two intervals [lo, hi) into out; returns how many.
static int wrap_span(float a, float b, int n, int out[2][2])
{
    if (!(b - a < (float)n - 2) || !isfinite(a) || !isfinite(b)) {
        out[0][0] = 0;
        out[0][1] = n;
        return 1;
    }
    float base = floorf(a / (float)n) * (float)n;
    int lo = (int)(a - base), hi = (int)(b - base) + 1;   // lo in [0, n)
    if (hi <= n) {
        out[0][0] = lo;
        out[0][1] = hi;
        return 1;
    }
    out[0][0] = lo;
    out[0][1] = n;
    out[1][0] = 0;
    out[1][1] = hi - n < n ? hi - n : n;
    return 2;
}

// g's visible set: the groups of the tree under node i.
static void mark_seen(const mxv_t *m, uint32_t *row, int i, int depth)
{
    if (i < 0 || i >= m->num_vis || depth > MXV_MAX_VIS_DEPTH)
        return;
    const mxv_visnode_t *n = &m->vis[i];
    if (n->group >= 0 && n->group < m->num_groups)
        row[n->group >> 5] |= 1u << (n->group & 31);
    for (int c = n->first_child; c >= 0 && c < m->num_vis; c = m->vis[c].next_sibling)
        mark_seen(m, row, c, depth + 1);
}

// The game's VisibleGroup table (FindGroupConnections): each group sees itself and every group
// of its portals' visibility trees.
static int setup_sees(r_fsworld_t *fw)
{
    const mxv_t *m = fw->m;
    if (!m->has_portals || m->num_groups <= 0 || m->num_groups > FS_MAX_SEEN_GROUPS)
        return 0;
    fw->sees_words = (m->num_groups + 31) / 32;
    fw->sees = calloc((size_t)m->num_groups * (size_t)fw->sees_words, sizeof(uint32_t));
    if (!fw->sees)
        return -1;
    for (int g = 0; g < m->num_groups; g++) {
        uint32_t *row = fw->sees + (size_t)g * (size_t)fw->sees_words;
        row[g >> 5] |= 1u << (g & 31);
        const mxv_group_t *gr = &m->groups[g];
        for (int p = gr->first_portal; p < gr->first_portal + gr->num_portals && p < m->num_portals; p++)
            mark_seen(m, row, m->portals[p].root, 0);
    }
    return 0;
}

static int sees(const r_fsworld_t *fw, int g1, int g2)
{
    return (fw->sees[(size_t)g1 * (size_t)fw->sees_words + (size_t)(g2 >> 5)] >> (g2 & 31)) & 1;
}

// The game's VisibleOverlap: some group both see.
static int see_overlap(const r_fsworld_t *fw, int g1, int g2)
{
    const uint32_t *a = fw->sees + (size_t)g1 * (size_t)fw->sees_words, *b = fw->sees + (size_t)g2 * (size_t)fw->sees_words;
    for (int j = 0; j < fw->sees_words; j++)
        if (a[j] & b[j])
            return 1;
    return 0;
}

// Which triangles can sample a key texel: a keyed texture's triangles whose texel bounding box
// (a texel of margin, wrapping) holds one (a summed-area table per keyed texture, made here and
// freed). Only they take the keyed span loop; the rest are drawn as before.
static int setup_keyed(r_fsworld_t *fw)
{
    const mxv_t *m = fw->m;
    fw->tri_keyed = calloc(m->num_tris ? (size_t)m->num_tris : 1, 1);
    if (!fw->tri_keyed)
        return -1;
    if (!m->keys)
        return 0;
    for (int tx = 0; tx < m->num_textures; tx++) {
        const mxv_texture_t *t = &m->textures[tx];
        if (t->key_texels <= 0)
            continue;
        int w = t->width, h = t->height;
        int32_t *sat = calloc((size_t)(w + 1) * (size_t)(h + 1), sizeof *sat);
        if (!sat)
            return -1;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1] + sat[(y + 1) * (w + 1) + x] -
                                                 sat[y * (w + 1) + x] + m->keys[t->offset + (size_t)y * (size_t)w + (size_t)x];
        for (int i = 0; i < m->num_tris; i++) {
            const mxv_tri_t *tr = &m->tris[i];
            if (tr->texture != tx)
                continue;
            // a texture-animated vertex: every frame of its polygon (frames past a polygon's
            // last take its last)
            int frames = 1;
            for (int k = 0; k < 3; k++)
                if (fw->vert_poly && fw->vert_poly[tr->v[k]] >= 0 && fw->tex->polys[fw->vert_poly[tr->v[k]]].frames > frames)
                    frames = fw->tex->polys[fw->vert_poly[tr->v[k]]].frames;
            long keys = 0;
            for (int f = 0; f < frames && keys == 0; f++) {
                float s0 = INFINITY, s1 = -INFINITY, t0 = INFINITY, t1 = -INFINITY;
                for (int k = 0; k < 3; k++) {
                    const float *st = m->verts[tr->v[k]].st;
                    int p = fw->vert_poly ? fw->vert_poly[tr->v[k]] : -1;
                    if (p >= 0) {
                        int pf = f < fw->tex->polys[p].frames ? f : fw->tex->polys[p].frames - 1;
                        st = fstex_uv(fw->tex, p, pf) + fw->vert_slot[tr->v[k]] * 2;
                    }
                    s0 = fminf(s0, st[0] * (float)w);
                    s1 = fmaxf(s1, st[0] * (float)w);
                    t0 = fminf(t0, st[1] * (float)h);
                    t1 = fmaxf(t1, st[1] * (float)h);
                }
                int xs[2][2], ys[2][2];
                int nx = wrap_span(s0 - 1, s1 + 1, w, xs), ny = wrap_span(t0 - 1, t1 + 1, h, ys);
                for (int a = 0; a < nx; a++)
                    for (int b = 0; b < ny; b++)
                        keys += sat_sum(sat, w, xs[a][0], ys[b][0], xs[a][1], ys[b][1]);
            }
            fw->tri_keyed[i] = keys > 0;
        }
        free(sat);
    }
    return 0;
}

// The level's texture animations (fstex_load on the same bytes): a refused tail is warned by
// r_fsworld_load and the level drawn with the file's coordinates. Triangles with an animated
// vertex may sample any part of their texture: keyed ones take the per-texel test.
static int setup_texanim(r_fsworld_t *fw, const uint8_t *data, size_t size, const char *map)
{
    const mxv_t *m = fw->m;
    size_t nv = m->num_verts ? (size_t)m->num_verts : 1;
    fw->st = malloc(nv * sizeof *fw->st);   // every level: draw_tri reads its coordinates from here
    if (!fw->st)
        return -1;
    for (int i = 0; i < m->num_verts; i++) {
        fw->st[i][0] = m->verts[i].st[0];
        fw->st[i][1] = m->verts[i].st[1];
    }
    fw->tex = fstex_load(data, size, map, m, fw->tex_warning, sizeof fw->tex_warning);
    if (!fw->tex || fw->tex->num_polys == 0) {
        fstex_free(fw->tex);
        fw->tex = NULL;
        return 0;
    }
    const fstex_t *a = fw->tex;
    fw->group_poly = calloc((size_t)m->num_groups + 1, sizeof *fw->group_poly);
    fw->vert_poly = malloc(nv * sizeof *fw->vert_poly);
    fw->vert_slot = malloc(nv * sizeof *fw->vert_slot);
    fw->trig_secs = malloc((size_t)a->num_polys * sizeof *fw->trig_secs);
    if (!fw->group_poly || !fw->vert_poly || !fw->vert_slot || !fw->trig_secs)
        return -1;
    for (int p = 0; p < a->num_polys; p++)
        fw->trig_secs[p] = -1;
    for (int g = 0, p = 0; g <= m->num_groups; g++) {
        while (p < a->num_polys && a->polys[p].group < g)
            p++;
        fw->group_poly[g] = p;
    }
    for (size_t i = 0; i < nv; i++)
        fw->vert_poly[i] = -1;
    for (int p = 0; p < a->num_polys; p++)
        for (int k = 0; k < a->polys[p].num_verts; k++) {
            int v = a->vert[a->polys[p].first_vert + k];
            fw->vert_poly[v] = p;
            fw->vert_slot[v] = k;
        }
    return 0;
}

// Each animated polygon of group g to its frame at this draw (anim_frame): its vertices'
// coordinates from that frame's. Returns how many.
static int animate_group(r_fsworld_t *fw, int g)
{
    const fstex_t *a = fw->tex;
    int n = 0;
    for (int p = fw->group_poly[g]; p < fw->group_poly[g + 1]; p++, n++) {
        const fstex_poly_t *po = &a->polys[p];
        int f = po->running ? fw->anim_frame[po->anim] : 0;
        if (fw->trig_secs[p] >= 0) {   // a trigger's: its script at its own time
            double u = fw->trig_secs[p] * FSTEX_UNITS_PER_SECOND;
            f = fstex_anim_frame(a, po->anim, u > 1e15 ? (int64_t)1e15 : (int64_t)u);
        }
        const float *uv = fstex_uv(a, p, f);
        for (int k = 0; k < po->num_verts; k++) {
            float *st = fw->st[a->vert[po->first_vert + k]];
            st[0] = uv[k * 2];
            st[1] = uv[k * 2 + 1];
        }
    }
    return n;
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
    fw->wshift = calloc(m->num_textures ? (size_t)m->num_textures : 1, sizeof(int));
    fw->visible = calloc(m->num_groups ? (size_t)m->num_groups : 1, 1);
    fw->add = malloc(65536);
    fw->inv = malloc(32768 * sizeof(uint16_t));
    if (fw->inv)
        memset(fw->inv, 0xff, 32768 * sizeof(uint16_t));
    fw->lit = malloc(nv * sizeof(*fw->lit));
    fw->group_lit = calloc(m->num_groups ? (size_t)m->num_groups : 1, 1);
    fw->culling = R_FS_CULL_PORTALS;
    fw->see_through = 1;
    fw->tint = 1;
    fw->dither = 1;
    fw->colour_key = 1;
    fw->texanim = 1;
    if (!fw->cam || !fw->wshift || !fw->visible || !fw->add || !fw->inv || !fw->lit || !fw->group_lit ||
        setup_light(fw) < 0 || setup_texanim(fw, data, size, map) < 0 || setup_keyed(fw) < 0 || setup_sees(fw) < 0) {
        if (err && errcap)
            snprintf(err, errcap, "%s: out of memory for %d vertices", map ? map : "mxv", m->num_verts);
        r_fsworld_free(fw);
        return NULL;
    }
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
    if (fw && fw->m->portal_warning[0])
        log_warn("%s (every group is drawn)", fw->m->portal_warning);
    if (fw && fw->tex_warning[0])
        log_warn("%s (texture animations not played)", fw->tex_warning);
    return fw;
}

// ---- rasterizing ------------------------------------------------------------------

static const uint8_t *blend_row(void *fw, int colour) { return add_row(fw, colour); }

static int draw_tri(r_fsworld_t *fw, const r_view_t *v, const mxv_tri_t *t, int blend, int lit)
{
    const mxv_t *m = fw->m;
    const mxv_texture_t *tex = &m->textures[t->texture];
    r_fsvert_t in[3];
    float smin = INFINITY, tmin = INFINITY;
    for (int k = 0; k < 3; k++) {
        const float *c = fw->cam + (size_t)t->v[k] * 3;
        const mxv_vertex_t *mv = &m->verts[t->v[k]];
        // the vertex colour (the baked one, or with this frame's lights), 255 -> level 63;
        // brightness only: the brightest channel on all three
        const uint8_t baked[3] = { mv->r, mv->g, mv->b }, *rgb = lit ? fw->lit[t->v[k]] : baked;
        float lv[3] = { rgb[0], rgb[1], rgb[2] };
        if (!fw->tint)
            lv[0] = lv[1] = lv[2] = fmaxf(lv[0], fmaxf(lv[1], lv[2]));
        const float *st = fw->st[t->v[k]];   // the file's, or this draw's frame
        in[k] = (r_fsvert_t){ c[0], c[1], c[2], st[0], st[1],
                              { lv[0] * ((LIGHT_LEVELS - 1) / 255.0f), lv[1] * ((LIGHT_LEVELS - 1) / 255.0f), lv[2] * ((LIGHT_LEVELS - 1) / 255.0f) } };
        if (!isfinite(in[k].s) || fabsf(in[k].s) > 1e6f)
            in[k].s = 0;
        if (!isfinite(in[k].t) || fabsf(in[k].t) > 1e6f)
            in[k].t = 0;
        smin = in[k].s < smin ? in[k].s : smin;
        tmin = in[k].t < tmin ? in[k].t : tmin;
    }
    // Front faces only: the file's normals agree with the winding on every level.
    if (!r_fstri_facing(in))
        return 0;
    // Whole texture wraps off, so texel coordinates stay small.
    float so = floorf(smin), to = floorf(tmin);
    for (int k = 0; k < 3; k++) {
        in[k].s = clampf((in[k].s - so) * (float)tex->width, -MAX_TEX_COORD, MAX_TEX_COORD);
        in[k].t = clampf((in[k].t - to) * (float)tex->height, -MAX_TEX_COORD, MAX_TEX_COORD);
    }
    // The game's colour key (Tload.c): black texels of a texture whose palette starts with black
    // are not drawn, on every triangle of it.
    const uint8_t *key = fw->colour_key && fw->tri_keyed[t - m->tris] ? m->keys + tex->offset : NULL;
    r_fstex_t rt = { &fw->shade, m->texels + tex->offset, fw->wshift[t->texture], tex->width - 1, tex->height - 1, key, 0,
                     blend ? fw->add : NULL, blend ? fw->add_ready : NULL, blend ? blend_row : NULL, fw };
    return r_fstri_draw(v, &rt, in, 1);
}

// ---- visibility (the game's visi.c: FindVisible, ProcessVisiblePortal) -------------

enum { OUT_LEFT = 1, OUT_RIGHT = 2, OUT_TOP = 4, OUT_BOTTOM = 8, OUT_FRONT = 16 };

// The screen rectangle a portal covers, cut to the view. 0: not seen (the eye is behind its
// plane, or every corner is off the same side of the view). A corner nearer than the near
// plane makes it the whole view, as in the game.
static int portal_extent(const mxv_t *m, const r_view_t *v, const mxv_portal_t *p, rect_t *e)
{
    if (p->has_plane && dot3(p->plane, v->vieworg) + p->plane[3] < 0)
        return 0;
    float w = (float)v->width, h = (float)v->height;
    int all = OUT_LEFT | OUT_RIGHT | OUT_TOP | OUT_BOTTOM | OUT_FRONT, front = 0, init = 0;
    for (int i = 0; i < p->num_verts; i++) {
        const float *q = m->portal_verts[p->first_vert + i];
        float d[3] = { q[0] - v->vieworg[0], q[1] - v->vieworg[1], q[2] - v->vieworg[2] };
        float x = dot3(d, v->vright), y = dot3(d, v->vup), z = dot3(d, v->vpn);
        // The view's side planes through the eye, valid on both sides of it.
        int code = 0;
        if (v->xscale * x + v->xcenter * z < 0)
            code |= OUT_LEFT;
        else if (v->xscale * x - (w - v->xcenter) * z > 0)
            code |= OUT_RIGHT;
        if (v->ycenter * z - v->yscale * y < 0)
            code |= OUT_TOP;
        else if ((v->ycenter - h) * z - v->yscale * y > 0)
            code |= OUT_BOTTOM;
        if (!(z >= NEAR_Z)) {
            code |= OUT_FRONT;
            front = 1;
        } else {
            float sx = clampf(v->xcenter + v->xscale * x / z, 0, w), sy = clampf(v->ycenter - v->yscale * y / z, 0, h);
            if (!init) {
                *e = (rect_t){ sx, sy, sx, sy };
                init = 1;
            }
            e->x0 = sx < e->x0 ? sx : e->x0;
            e->y0 = sy < e->y0 ? sy : e->y0;
            e->x1 = sx > e->x1 ? sx : e->x1;
            e->y1 = sy > e->y1 ? sy : e->y1;
        }
        all &= code;
    }
    if (all)
        return 0;
    if (front || !init)
        *e = (rect_t){ 0, 0, w, h };
    return 1;
}

// Through node i's portal, within the parent's rectangle: its group is seen, then its children.
// The trees are at most MXV_MAX_VIS_DEPTH deep (checked when loaded).
static void visit(r_fsworld_t *fw, const r_view_t *v, int i, const rect_t *parent)
{
    const mxv_t *m = fw->m;
    const mxv_visnode_t *n = &m->vis[i];
    rect_t e = *parent;
    if (fw->culling == R_FS_CULL_PORTALS && !portal_extent(m, v, &m->portals[n->portal], &e))
        return;
    e.x0 = e.x0 > parent->x0 ? e.x0 : parent->x0;
    e.y0 = e.y0 > parent->y0 ? e.y0 : parent->y0;
    e.x1 = e.x1 < parent->x1 ? e.x1 : parent->x1;
    e.y1 = e.y1 < parent->y1 ? e.y1 : parent->y1;
    if (!(e.x0 < e.x1 && e.y0 < e.y1))
        return;
    fw->visible[n->group] = 1;
    for (int c = n->first_child; c >= 0; c = m->vis[c].next_sibling)
        visit(fw, v, c, &e);
}

// The game's PointInGroupBoundingBox: within the group's centre +- half size.
static int in_group_box(const mxv_group_t *g, const float p[3])
{
    int in = 1;
    for (int k = 0; k < 3; k++)
        in &= fabsf(p[k] - g->center[k]) <= g->half_size[k];
    return in;
}

int r_fsworld_eye_groups(const r_fsworld_t *fw, const float org[3], int *groups, int max)
{
    int n = 0;
    if (!fw || !fw->m->has_portals)
        return 0;
    for (int g = 0; g < fw->m->num_groups; g++) {
        if (in_group_box(&fw->m->groups[g], org)) {
            if (n < max)
                groups[n] = g;
            n++;
        }
    }
    return n;
}

int r_fsworld_find_visible(r_fsworld_t *fw, const r_view_t *v)
{
    if (!fw)
        return 0;
    const mxv_t *m = fw->m;
    int any = 0;
    memset(fw->visible, 0, (size_t)m->num_groups);
    fw->stats.eye_groups = 0;
    if (fw->culling != R_FS_CULL_NONE && m->has_portals) {
        // The game knows the group the eye is in (it follows the ship through the portals);
        // here every group whose box holds the eye is taken as the eye's, and what all of
        // them see is drawn: never less than the game drew.
        rect_t full = { 0, 0, (float)v->width, (float)v->height };
        for (int g = 0; g < m->num_groups; g++) {
            const mxv_group_t *gr = &m->groups[g];
            if (!in_group_box(gr, v->vieworg))
                continue;
            any = 1;
            fw->stats.eye_groups++;
            fw->visible[g] = 1;
            for (int p = gr->first_portal; p < gr->first_portal + gr->num_portals; p++)
                visit(fw, v, m->portals[p].root, &full);
        }
    }
    // No portals, culling off, or the eye outside every group (the game's outside_map): all.
    if (!any)
        memset(fw->visible, 1, (size_t)m->num_groups);
    int n = 0;
    for (int g = 0; g < m->num_groups; g++)
        n += fw->visible[g];
    fw->stats.groups_visible = n;
    return n;
}

int r_fsworld_group_visible(const r_fsworld_t *fw, int group)
{
    return fw && group >= 0 && group < fw->m->num_groups && fw->visible[group];
}

// ---- moving lights (the game's XLight1Group, Lights.c) ------------------------------

#define MIN_LIGHT_SIZE 384.0f   // MIN_LIGHT_SIZE: 1536 x GLOBAL_SCALE, where a spot light's cone opens up

void r_fsworld_set_lights(r_fsworld_t *fw, const r_fslight_t *lights, int n)
{
    if (!fw)
        return;
    fw->num_lights = 0;
    for (int i = 0; lights && i < n && fw->num_lights < R_FS_MAX_LIGHTS; i++) {
        const r_fslight_t *l = &lights[i];
        if (!isfinite(l->org[0]) || !isfinite(l->org[1]) || !isfinite(l->org[2]) || !(l->size > 0) ||
            !(l->size < 1e6f))
            continue;
        int li = fw->num_lights++;
        r_fslight_t *o = &fw->lights[li];
        *o = *l;
        // its group (the game's XLIGHT.Group): every group whose box holds it, up to FS_LIGHT_GROUPS
        fw->light_ngroups[li] = 0;
        for (int g = 0; fw->sees && g < fw->m->num_groups && fw->light_ngroups[li] < FS_LIGHT_GROUPS; g++)
            if (in_group_box(&fw->m->groups[g], o->org))
                fw->light_groups[li][fw->light_ngroups[li]++] = (uint16_t)g;
        for (int k = 0; k < 3; k++)
            o->rgb[k] = clampf(l->rgb[k], 0, 255);
        if (o->spot) {
            float len = sqrtf(dot3(o->dir, o->dir));
            if (!(len > 1e-6f) || !isfinite(len)) {
                o->spot = 0;   // no direction: a point light
            } else {
                for (int k = 0; k < 3; k++)
                    o->dir[k] /= len;
                o->cos_arc = clampf(o->cos_arc, -1, 0.9999f);
            }
        }
    }
}

// How strongly light l reaches a point d (the point minus the light's position) whose squared
// distance d2 is below size^2: a point light 1 - d2 / size^2; a spot light by its cone, wider
// near it (the game's three distance bands).
static float light_share(const r_fslight_t *l, const float d[3], float d2)
{
    if (!l->spot)
        return 1 - d2 / (l->size * l->size);
    float dist = sqrtf(d2), cosa = 1;
    if (dist > 0)
        cosa = dot3(d, l->dir) / dist;
    float size = l->size, arc = l->cos_arc;
    if (dist > 0.5f * size)
        return cosa > arc ? (size - dist) / (0.75f * size) * ((cosa - arc) / (1 - arc)) : 0;
    if (dist > MIN_LIGHT_SIZE) {
        float arc2 = arc * (1 - (size * 0.5f - dist) / (size * 0.5f - MIN_LIGHT_SIZE));
        return cosa > arc2 ? (size - dist) / (size - MIN_LIGHT_SIZE) * ((cosa - arc2) / (1 - arc2)) : 0;
    }
    return cosa > 0 ? 1 : 1 + cosa;
}

void r_fslight_at(const r_fslight_t *l, const float p[3], float out[3])
{
    float d[3] = { p[0] - l->org[0], p[1] - l->org[1], p[2] - l->org[2] };
    float d2 = dot3(d, d), f = d2 < l->size * l->size ? light_share(l, d, d2) : 0;
    for (int k = 0; k < 3; k++)
        out[k] = f > 0 ? (float)(int)(l->rgb[k] * f) : 0;
}

// Which lights the eye keeps (the game's BuildVisibleLightList: a light whose group and the eye's
// group see some group in common; all when the eye is outside every group or a light outside
// every box, or without the rule), into light_seen and seen_lights.
static void keep_seen_lights(r_fsworld_t *fw, const float eye[3])
{
    const mxv_t *m = fw->m;
    int eg[FS_LIGHT_GROUPS], ne = 0;
    for (int g = 0; fw->sees && g < m->num_groups && ne < FS_LIGHT_GROUPS; g++)
        if (in_group_box(&m->groups[g], eye))
            eg[ne++] = g;
    fw->num_seen_lights = 0;
    for (int i = 0; i < fw->num_lights; i++) {
        int keep = ne == 0 || fw->light_ngroups[i] == 0 || fw->culling != R_FS_CULL_PORTALS;
        for (int a = 0; a < ne && !keep; a++)
            for (int b = 0; b < fw->light_ngroups[i] && !keep; b++)
                keep = see_overlap(fw, eg[a], fw->light_groups[i][b]);
        fw->light_seen[i] = (uint8_t)keep;
        if (keep)
            fw->seen_lights[fw->num_seen_lights++] = fw->lights[i];
    }
}

// Which lights reach group g (the game's XLight1Group): kept by the eye, the group sees the
// light's group, and the light within the group's box grown by its size on each axis (the
// game's centre and half size; the vertices' bounds for a level without portals): into idx.
static int group_lights(const r_fsworld_t *fw, int g, int *idx)
{
    const mxv_group_t *gr = &fw->m->groups[g];
    int rule = fw->sees && fw->culling == R_FS_CULL_PORTALS, n = 0;
    for (int i = 0; i < fw->num_lights; i++) {
        const r_fslight_t *l = &fw->lights[i];
        if (!fw->light_seen[i])
            continue;
        int in = 1;
        if (rule && fw->light_ngroups[i] > 0) {
            in = 0;
            for (int b = 0; b < fw->light_ngroups[i] && !in; b++)
                in = sees(fw, g, fw->light_groups[i][b]);
        }
        for (int k = 0; k < 3 && in; k++) {
            if (rule)
                in &= fabsf(l->org[k] - gr->center[k]) <= gr->half_size[k] + l->size;
            else
                in &= l->org[k] >= gr->mins[k] - l->size && l->org[k] <= gr->maxs[k] + l->size;
        }
        if (in)
            idx[n++] = i;
    }
    return n;
}

// A buffer's vertices lit: per light the game adds (int)(colour x share) to each channel,
// saturating at 255.
static int light_buffer(r_fsworld_t *fw, const mxv_buffer_t *buf, const int *idx, int n)
{
    const mxv_t *m = fw->m;
    int touched = 0;
    for (int i = buf->first_vert; i < buf->first_vert + buf->num_verts; i++) {
        const mxv_vertex_t *mv = &m->verts[i];
        int acc[3] = { mv->r, mv->g, mv->b }, any = 0;
        for (int j = 0; j < n; j++) {
            const r_fslight_t *l = &fw->lights[idx[j]];
            float d[3] = { mv->pos[0] - l->org[0], mv->pos[1] - l->org[1], mv->pos[2] - l->org[2] };
            float d2 = dot3(d, d);
            if (!(d2 < l->size * l->size))
                continue;
            float f = light_share(l, d, d2);
            if (!(f > 0))
                continue;
            for (int k = 0; k < 3; k++)
                acc[k] += (int)(l->rgb[k] * f);
            any = 1;
        }
        for (int k = 0; k < 3; k++)
            fw->lit[i][k] = (uint8_t)(acc[k] > 255 ? 255 : acc[k]);
        touched += any;
    }
    return touched;
}

int r_fsworld_vertex_light(const r_fsworld_t *fw, int i, uint8_t rgb[3])
{
    if (!fw || i < 0 || i >= fw->m->num_verts)
        return 0;
    const mxv_t *m = fw->m;
    int lit = 0;
    for (int g = 0; g < m->num_groups && !lit; g++) {
        const mxv_group_t *gr = &m->groups[g];
        for (int b = gr->first_buffer; b < gr->first_buffer + gr->num_buffers; b++)
            if (i >= m->buffers[b].first_vert && i < m->buffers[b].first_vert + m->buffers[b].num_verts)
                lit = fw->group_lit[g] && fw->visible[g];
    }
    const mxv_vertex_t *mv = &m->verts[i];
    rgb[0] = lit ? fw->lit[i][0] : mv->r;
    rgb[1] = lit ? fw->lit[i][1] : mv->g;
    rgb[2] = lit ? fw->lit[i][2] : mv->b;
    return 1;
}

int r_fsworld_draw(r_fsworld_t *fw, const r_view_t *v)
{
    if (!fw || !fw->m->texels)
        return 0;
    const mxv_t *m = fw->m;
    r_fsworld_find_visible(fw, v);
    int drawn = 0, considered = 0, lit_verts = 0;
    int idx[R_FS_MAX_LIGHTS];
    memset(fw->group_lit, 0, (size_t)m->num_groups);
    keep_seen_lights(fw, v->vieworg);
    // the scripts' frames at the view's time (demo time: a seek shows what playing shows)
    int animated = 0;
    if (fw->tex && fw->texanim) {
        double u = v->time * FSTEX_UNITS_PER_SECOND;
        int64_t units = !(u > 0) ? 0 : u > 1e15 ? (int64_t)1e15 : (int64_t)u;
        for (int a = 0; a < fw->tex->num_anims; a++)
            fw->anim_frame[a] = fstex_anim_frame(fw->tex, a, units);
    }
    for (int g = 0; g < m->num_groups; g++) {
        if (!fw->visible[g])
            continue;
        const mxv_group_t *gr = &m->groups[g];
        if (fw->tex && fw->texanim)
            animated += animate_group(fw, g);
        // the moving lights whose reach touches the group: its vertices lit this frame
        int nl = fw->num_lights ? group_lights(fw, g, idx) : 0;
        fw->group_lit[g] = nl > 0;
        for (int b = gr->first_buffer; b < gr->first_buffer + gr->num_buffers; b++) {
            if (nl)
                lit_verts += light_buffer(fw, &m->buffers[b], idx, nl);
            const mxv_buffer_t *buf = &m->buffers[b];
            for (int i = buf->first_vert; i < buf->first_vert + buf->num_verts; i++) {
                const float *p = m->verts[i].pos;
                float d[3] = { p[0] - v->vieworg[0], p[1] - v->vieworg[1], p[2] - v->vieworg[2] };
                float *c = fw->cam + (size_t)i * 3;
                c[0] = dot3(d, v->vright);
                c[1] = dot3(d, v->vup);
                c[2] = dot3(d, v->vpn);
            }
            if ((buf->flags & MXV_TRANSPARENT) && fw->see_through)
                continue;
            considered += buf->num_tris;
            for (int i = buf->first_tri; i < buf->first_tri + buf->num_tris; i++)
                drawn += draw_tri(fw, v, &m->tris[i], 0, fw->group_lit[g]);
        }
    }
    // See-through buffers last (the game's AddTransExe list), over everything opaque.
    for (int g = 0; g < m->num_groups; g++) {
        if (!fw->visible[g])
            continue;
        const mxv_group_t *gr = &m->groups[g];
        for (int b = gr->first_buffer; b < gr->first_buffer + gr->num_buffers; b++) {
            const mxv_buffer_t *buf = &m->buffers[b];
            if (!(buf->flags & MXV_TRANSPARENT) || !fw->see_through)
                continue;
            considered += buf->num_tris;
            for (int i = buf->first_tri; i < buf->first_tri + buf->num_tris; i++)
                drawn += draw_tri(fw, v, &m->tris[i], 1, fw->group_lit[g]);
        }
    }
    fw->stats.tris_considered = considered;
    fw->stats.tris_drawn = drawn;
    fw->stats.lights = fw->num_lights;
    fw->stats.verts_lit = lit_verts;
    fw->stats.polys_animated = animated;
    return drawn;
}
