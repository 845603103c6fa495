// r_hldecal.c -- Half-Life's decals (see r_hldecal.h)
//
// Where the facts come from (docs/goldsrc.md has the table): the SDK's common/com_model.h
// (a decal lives on one surface, at an offset in that surface's texture coordinates),
// const.h (the temp entities' layouts), cl_dll/ev_hldm.cpp (the weapons' bullets and their
// "{shot1".."{shot5" decals), dlls/effects.cpp (infodecal: the "texture" key, placed at
// spawn unless it has a targetname); the decal WADs themselves (a '{' decal's texel index is
// its coverage, 0 none .. 255 full, and its colour the last entry of its palette).
#include "r_hldecal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/hlmat.h"
#include "../assets/wad.h"
#include "../engine/hlbullet.h"
#include "../engine/log.h"
#include "r_hlfx.h"

enum { WAD_DECALS, WAD_TEMPDECAL, NUM_WADS };

// the puffs' sprites: the wall puffs' 4, then the gun smoke's of each HLFX_SMOKE_* type (2, 3, 4)
enum { PUFF_WALL = 0, PUFF_SMOKE = 4, PUFF_SPRITES = 4 + 2 + 3 + 4 };

typedef struct {
    char name[WAD_NAME_LEN + 1];
    int w, h;                        // mip 0
    const uint8_t *mips[BSP_MIPLEVELS];   // into the WAD's bytes: coverage 0..255
    uint8_t rgb[3];                  // the palette's last colour
    int color;                       // its nearest in the level palette
} dtex_t;

typedef struct {
    int face;                        // -1: free
    int next;                        // the next decal on the same face, -1 none
    int tex;
    float s, t;                      // the decal's centre in the face's texture space (mip-0 texels)
    double time;                     // demo time placed
    int permanent;                   // the level's own (infodecal, TE_BSPDECAL): never reused
    int map;                         // placed from the map's entities (kept over seeks)
} decal_t;

struct r_hldecal_s {
    const bsp_t *bsp;                // the level the faces belong to
    int num_faces;
    int *face_head;                  // per face: its first decal, -1 none
    uint8_t *wad_bytes[NUM_WADS];
    wad_t wad[NUM_WADS];
    int have_wad[NUM_WADS];
    dtex_t tex[HLDECAL_MAX_TEX];
    int num_tex;
    decal_t pool[HLDECAL_MAX];
    int next;                        // the slot tried next (the oldest)
    int count;
    uint32_t applied;                // the world's decal log entries placed so far
    int replay;                      // after a seek: place the log's decals again
    int warned;                      // bit flags: warnings given once a level
    hlmat_t *mat;                    // sound/materials.txt read as Counter-Strike's client (its sparks
                                     // skip wood); NULL: none read, every texture concrete
    r_hlpuff_t puff_ring[HLFX_MAX_PUFFS];   // the newest wall puffs and gun smoke made (weapon_event), a ring
    r_hlpuff_state_t puff_state[HLFX_MAX_PUFFS];   // where each one's motion was stepped to
    uint32_t puff_next;              // puffs made since the level or the seek (ring index = % size)
    r_hlpuff_t puffs[HLFX_MAX_PUFFS];   // the puffs of the frame (wall_puffs)
    int puff_models[PUFF_SPRITES];   // the world's model indices of sprites/wall_puff1..4.spr, then
                                     // pistol_smoke1..2, rifle_smoke1..3, black_smoke1..4 (0 none)
    uint32_t puff_models_seq;        // the precache list they were found in (w->models_seq)
    int puff_models_ok;
};

enum { W_NAME = 1, W_INDEX = 2, W_ENTITY = 4, W_POS = 8, W_FULL = 16, W_WAD = 32, W_BSPDECAL = 64 };

static void warn_once(r_hldecal_t *d, int bit, const char *fmt, const char *a, int n)
{
    if (d->warned & bit)
        return;
    d->warned |= bit;
    char msg[256];
    snprintf(msg, sizeof msg, fmt, a, n);
    log_warn("goldsrc decals: %s (further ones not reported)", msg);
}

// ---- pictures --------------------------------------------------------------------------

// The picture `name` from the WADs: its index in d->tex, -1 when no WAD has it (or it is damaged).
static int find_tex(renderer_t *r, r_hldecal_t *d, const char *name)
{
    for (int i = 0; i < d->num_tex; i++)
        if (!strcasecmp(d->tex[i].name, name))
            return i;
    if (d->num_tex >= HLDECAL_MAX_TEX)
        return -1;
    for (int k = 0; k < NUM_WADS; k++) {
        if (!d->have_wad[k])
            continue;
        const wad_lump_t *l = wad_find(&d->wad[k], name);
        if (!l)
            continue;
        wad_miptex_t mt;
        char err[192];
        if (wad_lump_miptex(&d->wad[k], l, &mt, err, sizeof err) < 0) {
            if (!(d->warned & W_WAD))
                log_warn("goldsrc decals: %s: %s: ignored (further ones not reported)",
                         k == WAD_DECALS ? "decals.wad" : "tempdecal.wad", err);
            d->warned |= W_WAD;
            return -1;
        }
        dtex_t *t = &d->tex[d->num_tex];
        for (int m = 0; m < BSP_MIPLEVELS; m++)
            t->mips[m] = mt.mips[m];
        // a '{' decal's colour: its palette's last entry (the texels are coverage)
        memcpy(t->rgb, mt.palette + (mt.colours - 1) * 3, 3);
        int w = mt.width, h = mt.height;
        t->color = pal_nearest(r->pal.palette, 255, t->rgb[0], t->rgb[1], t->rgb[2]);
        snprintf(t->name, sizeof t->name, "%s", name);
        t->w = w;
        t->h = h;
        return d->num_tex++;
    }
    return -1;
}

// ---- the pool ------------------------------------------------------------------------

static void drop_surfaces(renderer_t *r, int face)
{
    for (int m = 0; m < BSP_MIPLEVELS; m++)
        r->faces[face].cache_ofs[m] = -1;
}

static void unlink_decal(renderer_t *r, r_hldecal_t *d, int k)
{
    decal_t *dc = &d->pool[k];
    if (dc->face < 0)
        return;
    int *p = &d->face_head[dc->face];
    for (int guard = 0; *p >= 0 && guard < HLDECAL_MAX; guard++) {
        if (*p == k) {
            *p = dc->next;
            break;
        }
        p = &d->pool[*p].next;
    }
    drop_surfaces(r, dc->face);
    dc->face = -1;
    d->count--;
}

// A slot for a new decal: the oldest that is not the level's own; -1 when all are.
static int take_slot(renderer_t *r, r_hldecal_t *d)
{
    for (int i = 0; i < HLDECAL_MAX; i++) {
        int k = (d->next + i) % HLDECAL_MAX;
        if (d->pool[k].face >= 0 && d->pool[k].permanent)
            continue;
        d->next = (k + 1) % HLDECAL_MAX;
        unlink_decal(r, d, k);
        return k;
    }
    return -1;
}

static void add_to_face(renderer_t *r, r_hldecal_t *d, int face, int tex, float s, float t, double time, int perm,
                        int map)
{
    if (perm) {
        // the level's own decal sent again (an infodecal placed from the map and its
        // TE_BSPDECAL in the sign-on): once is enough
        for (int k = d->face_head[face], guard = 0; k >= 0 && guard < HLDECAL_MAX; k = d->pool[k].next, guard++)
            if (d->pool[k].permanent && d->pool[k].tex == tex && fabsf(d->pool[k].s - s) < 1 && fabsf(d->pool[k].t - t) < 1)
                return;
    }
    int k = take_slot(r, d);
    if (k < 0) {
        warn_once(d, W_FULL, "%s%d decals of the level's own fill the pool: a new one is dropped", "", HLDECAL_MAX);
        return;
    }
    decal_t *dc = &d->pool[k];
    dc->face = face;
    dc->tex = tex;
    dc->s = s;
    dc->t = t;
    dc->time = time;
    dc->permanent = perm;
    dc->map = map;
    dc->next = d->face_head[face];
    d->face_head[face] = k;
    d->count++;
    drop_surfaces(r, face);
}

// ---- placing ---------------------------------------------------------------------------

typedef struct {
    renderer_t *r;
    r_hldecal_t *d;
    int tex;
    vec3_t pos;                      // in the model's space
    float size;                      // half the picture's larger side: how far from a plane it reaches
    double time;
    int permanent, map;
    int placed;
} shoot_t;

// The faces of a node a decal's square overlaps get it (GoldSrc's R_DecalNode walk: every
// node whose plane passes within `size` of the point, both sides).
static void shoot_faces(shoot_t *s, const bsp_node_t *nd)
{
    const bsp_t *b = s->r->bsp;
    const dtex_t *t = &s->d->tex[s->tex];
    for (int i = 0; i < nd->numfaces; i++) {
        int fi = nd->firstface + i;
        const bsp_face_t *f = &b->faces[fi];
        if (f->flags & (BSP_SURF_SKY | BSP_SURF_TURB | BSP_SURF_NODRAW))
            continue;
        const bsp_plane_t *pl = &b->planes[f->plane];
        float dist = s->pos[0] * pl->normal[0] + s->pos[1] * pl->normal[1] + s->pos[2] * pl->normal[2] - pl->dist;
        float p[3];
        for (int k = 0; k < 3; k++)
            p[k] = s->pos[k] - dist * pl->normal[k];   // on the face's plane
        const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
        float ds = p[0] * ti->vecs[0][0] + p[1] * ti->vecs[0][1] + p[2] * ti->vecs[0][2] + ti->vecs[0][3];
        float dt = p[0] * ti->vecs[1][0] + p[1] * ti->vecs[1][1] + p[2] * ti->vecs[1][2] + ti->vecs[1][3];
        if (!isfinite(ds) || !isfinite(dt))
            continue;
        // the decal's square against the face's texture extents
        if (ds + (float)t->w * 0.5f <= (float)f->texturemins[0] ||
            ds - (float)t->w * 0.5f >= (float)(f->texturemins[0] + f->extents[0]) ||
            dt + (float)t->h * 0.5f <= (float)f->texturemins[1] ||
            dt - (float)t->h * 0.5f >= (float)(f->texturemins[1] + f->extents[1]))
            continue;
        add_to_face(s->r, s->d, fi, s->tex, ds, dt, s->time, s->permanent, s->map);
        s->placed++;
    }
}

static void shoot_node(shoot_t *s, int num, int depth)
{
    const bsp_t *b = s->r->bsp;
    while (num >= 0 && depth < 4096) {
        const bsp_node_t *nd = &b->nodes[num];
        const bsp_plane_t *pl = &b->planes[nd->plane];
        float dist = s->pos[0] * pl->normal[0] + s->pos[1] * pl->normal[1] + s->pos[2] * pl->normal[2] - pl->dist;
        if (dist > s->size) {
            num = nd->children[0];
        } else if (dist < -s->size) {
            num = nd->children[1];
        } else {
            shoot_faces(s, nd);
            shoot_node(s, nd->children[0], depth + 1);
            num = nd->children[1];
        }
        depth++;
    }
}

static int valid_pos(const float *p)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(p[k]) || fabsf(p[k]) > 32768.0f)
            return 0;
    return 1;
}

int r_hldecal_place(renderer_t *r, const char *name, const vec3_t pos, int model, const float *org, double time,
                    int permanent)
{
    r_hldecal_t *d = r->hldecal;
    if (!d || !r->bsp || r->bsp != d->bsp)
        return 0;
    int tex = find_tex(r, d, name);
    if (tex < 0)
        return -1;
    if (model < 0 || model >= r->bsp->num_models || !valid_pos(pos) || (org && !valid_pos(org)))
        return 0;
    shoot_t s = { r, d, tex, { pos[0], pos[1], pos[2] }, 0, time, permanent > 0, permanent > 1, 0 };
    if (org)
        for (int k = 0; k < 3; k++)
            s.pos[k] -= org[k];   // brush entities: the model's own space (their angles are not applied)
    const dtex_t *t = &d->tex[tex];
    s.size = (float)(t->w > t->h ? t->w : t->h) * 0.5f;
    int head = r->bsp->models[model].headnode;
    if (head >= 0 && head < r->bsp->num_nodes)
        shoot_node(&s, head, 0);
    return s.placed;
}

// ---- drawing -----------------------------------------------------------------------------

static void draw_decal(renderer_t *r, const decal_t *dc, const dtex_t *t, const bsp_face_t *f, uint8_t *px, int cw,
                       int ch, int mip)
{
    int dw = t->w >> mip, dh = t->h >> mip;
    if (dw < 1 || dh < 1)
        return;
    const float scale = 1.0f / (float)(1 << mip);
    int x0 = (int)floorf((dc->s - (float)t->w * 0.5f - (float)f->texturemins[0]) * scale + 0.5f);
    int y0 = (int)floorf((dc->t - (float)t->h * 0.5f - (float)f->texturemins[1]) * scale + 0.5f);
    int xa = x0 < 0 ? 0 : x0, xb = x0 + dw > cw ? cw : x0 + dw;
    int ya = y0 < 0 ? 0 : y0, yb = y0 + dh > ch ? ch : y0 + dh;
    if (xa >= xb || ya >= yb)
        return;
    const int smax = (f->extents[0] >> 4) + 1, tmax = (f->extents[1] >> 4) + 1;
    const int32_t *bl = r->blocklights;
    const uint8_t *cmap = r->pal.colormap;
    const r_hlmodes_t *hl = r->hl;
    const uint8_t *src = t->mips[mip];
    for (int y = ya; y < yb; y++) {
        // the light at this texel: the lightmap (one sample every 16 texels) bilinearly
        int ft = y << mip, by = ft >> 4, wy = ft & 15;
        if (by >= tmax - 1) {
            by = tmax - 1;
            wy = 0;
        }
        const int32_t *l0 = bl + by * smax, *l1 = wy ? l0 + smax : l0;
        const uint8_t *srow = src + (size_t)(y - y0) * (size_t)dw;
        uint8_t *out = px + (size_t)y * (size_t)cw;
        for (int x = xa; x < xb; x++) {
            int a = srow[x - x0];
            if (!a)
                continue;
            int level = r_hl_alpha_level(a);   // 0 none, 1..4 the alpha tables, 5 opaque
            if (!level)
                continue;
            int fs = x << mip, bx = fs >> 4, wx = fs & 15;
            int bx1 = bx + 1 < smax ? bx + 1 : bx;
            int top = l0[bx] + ((l0[bx1] - l0[bx]) * wx >> 4);
            int bot = l1[bx] + ((l1[bx1] - l1[bx]) * wx >> 4);
            int light = top + ((bot - top) * wy >> 4);
            uint8_t lit = cmap[((unsigned)light & 0xff00u) + (unsigned)t->color];
            out[x] = level > HL_ALPHA_LEVELS ? lit : hl->alpha[level - 1][lit * 256 + out[x]];
        }
    }
}

void r_hldecal_surface(renderer_t *r, const r_surfctx_t *ctx, uint8_t *pixels, int width, int height, int mip)
{
    r_hldecal_t *d = r->hldecal;
    if (!d || r->bsp != d->bsp || !r->hl || !r->hl->ready || ctx->face_index < 0 || ctx->face_index >= d->num_faces)
        return;
    // oldest first, so newer decals lie over older ones: the list is newest first, so
    // walk it into a small stack
    int order[64], n = 0;
    for (int k = d->face_head[ctx->face_index]; k >= 0 && n < 64; k = d->pool[k].next)
        order[n++] = k;
    if (n > 0 && r->surf_unlit) {   // a surface without light (r_hl_brush_unlit): decals as painted
        const bsp_face_t *f = ctx->face;
        int size = ((f->extents[0] >> 4) + 1) * ((f->extents[1] >> 4) + 1);
        for (int i = 0; i < size && i < R_MAX_BLOCKLIGHTS; i++)
            r->blocklights[i] = 32 << 8;   // colormap row 32: the colour as painted
    } else if (n > 0) {   // the surface was built with coloured light (r_hllight.c): the face's light, plain
        r_surf_face_lights(r, ctx);
    }
    while (n > 0) {
        const decal_t *dc = &d->pool[order[--n]];
        draw_decal(r, dc, &d->tex[dc->tex], ctx->face, pixels, width, height, mip);
    }
}

// ---- life cycle ----------------------------------------------------------------------------

// Every decal the demo placed goes (the map's own stay).
static void reset_pool(renderer_t *r, r_hldecal_t *d)
{
    for (int k = 0; k < HLDECAL_MAX; k++)
        if (d->pool[k].face >= 0 && !d->pool[k].map)
            unlink_decal(r, d, k);
}

static void free_level(r_hldecal_t *d)
{
    for (int k = 0; k < NUM_WADS; k++) {
        if (d->have_wad[k])
            wad_close(&d->wad[k]);
        free(d->wad_bytes[k]);
        d->wad_bytes[k] = NULL;
        d->have_wad[k] = 0;
    }
    free(d->face_head);
    d->face_head = NULL;
    free(d->mat);
    d->mat = NULL;
    d->num_faces = 0;
    d->num_tex = 0;
    d->bsp = NULL;
}

void r_hldecal_free(renderer_t *r)
{
    if (!r->hldecal)
        return;
    free_level(r->hldecal);
    free(r->hldecal);
    r->hldecal = NULL;
    r->surf_overlay = NULL;
}

// The map's infodecal entities without a targetname: placed at spawn (those with one wait
// for a trigger, which sends TE_BSPDECAL).
static int place_infodecals(renderer_t *r)
{
    const char *p = r->bsp->entities;
    int placed = 0, missing = 0;
    while (p && (p = strchr(p, '{')) != NULL) {
        const char *end = strchr(p, '}');
        if (!end)
            break;
        char cls[64] = "", tex[64] = "", origin[96] = "";
        int named = 0;
        const char *q = p + 1;
        while (q < end) {
            const char *k0 = memchr(q, '"', (size_t)(end - q));
            const char *k1 = k0 ? memchr(k0 + 1, '"', (size_t)(end - k0 - 1)) : NULL;
            const char *v0 = k1 ? memchr(k1 + 1, '"', (size_t)(end - k1 - 1)) : NULL;
            const char *v1 = v0 ? memchr(v0 + 1, '"', (size_t)(end - v0 - 1)) : NULL;
            if (!v1)
                break;
            int kl = (int)(k1 - k0 - 1), vl = (int)(v1 - v0 - 1);
            char *dst = NULL;
            size_t cap = 0;
            if (kl == 9 && !strncmp(k0 + 1, "classname", 9)) { dst = cls; cap = sizeof cls; }
            else if (kl == 7 && !strncmp(k0 + 1, "texture", 7)) { dst = tex; cap = sizeof tex; }
            else if (kl == 6 && !strncmp(k0 + 1, "origin", 6)) { dst = origin; cap = sizeof origin; }
            else if (kl == 10 && !strncmp(k0 + 1, "targetname", 10)) named = vl > 0;
            if (dst)
                snprintf(dst, cap, "%.*s", vl, v0 + 1);
            q = v1 + 1;
        }
        p = end + 1;
        vec3_t o;
        if (strcmp(cls, "infodecal") || named || !tex[0] || sscanf(origin, "%f %f %f", &o[0], &o[1], &o[2]) != 3)
            continue;
        int n = r_hldecal_place(r, tex, o, 0, NULL, -1, 2);
        if (n < 0)
            missing++;
        placed += n > 0;
    }
    if (missing)
        log_warn("%s: %d infodecal pictures are in no decal WAD: not drawn", r->map, missing);
    return placed;
}

void r_hldecal_load_level(renderer_t *r, vfs_t *fs, const world_t *w)
{
    if (!r->bsp || !r->bsp->has_palette || !r->hl || !r->hl->ready || w->game != GAME_GOLDSRC) {
        r_hldecal_free(r);
        return;
    }
    if (!r->hldecal)
        r->hldecal = calloc(1, sizeof(r_hldecal_t));
    r_hldecal_t *d = r->hldecal;
    if (!d)
        return;
    free_level(d);
    d->face_head = malloc(sizeof(int) * (size_t)(r->bsp->num_faces + 1));
    if (!d->face_head) {
        r_hldecal_free(r);
        return;
    }
    for (int i = 0; i < r->bsp->num_faces; i++)
        d->face_head[i] = -1;
    for (int k = 0; k < HLDECAL_MAX; k++) {
        d->pool[k].face = -1;
        d->pool[k].next = -1;
    }
    d->count = 0;
    d->next = 0;
    d->warned = 0;
    d->puff_models_ok = 0;
    d->puff_next = 0;
    d->applied = 0;
    d->replay = 0;
    d->num_faces = r->bsp->num_faces;
    d->bsp = r->bsp;
    static const char *const names[NUM_WADS] = { "decals.wad", "tempdecal.wad" };
    for (int k = 0; k < NUM_WADS; k++) {
        size_t size = 0;
        d->wad_bytes[k] = fs ? vfs_load(fs, names[k], &size) : NULL;
        char err[160] = "";
        if (d->wad_bytes[k] && wad_open(&d->wad[k], d->wad_bytes[k], size, err, sizeof err) == 0) {
            d->have_wad[k] = 1;
        } else {
            if (d->wad_bytes[k] || k == WAD_DECALS)
                log_warn("%s: %s%s%s: decals from it are not drawn", w->map, names[k], err[0] ? ": " : " not found",
                         err);
            free(d->wad_bytes[k]);
            d->wad_bytes[k] = NULL;
        }
    }
    size_t msize = 0;
    char *mtext = fs ? (char *)vfs_load(fs, "sound/materials.txt", &msize) : NULL;
    if (mtext && (d->mat = malloc(sizeof *d->mat)) != NULL)
        hlmat_load(d->mat, mtext, msize, HLMAT_CS);
    free(mtext);
    r->surf_overlay = r_hldecal_surface;
    int n = place_infodecals(r);
    if (n)
        log_info("%s: %d infodecals placed", w->map, n);
}

void r_hldecal_clear(renderer_t *r, int from_start)
{
    r_hldecal_t *d = r->hldecal;
    if (!d || !d->face_head)
        return;
    (void)from_start;   // either way the world's log says what is on the walls
    reset_pool(r, d);
    d->applied = 0;
    d->replay = 1;
}

// ---- the demo's decals -------------------------------------------------------------------

// The brush model of entity `ent` (0: the world); -1 when it is none.
static int entity_model(renderer_t *r, r_hldecal_t *d, const world_t *w, int ent)
{
    if (ent == 0)
        return 0;
    if (ent < 0 || ent >= w->num_entities || !w->entities) {
        warn_once(d, W_ENTITY, "a decal on entity %s%d, which does not exist: ignored", "", ent);
        return -1;
    }
    int mi = w->entities[ent].cur.modelindex;
    const char *name = mi > 0 && mi < w->num_models ? w->models[mi] : "";
    int sub = name[0] == '*' ? atoi(name + 1) : -1;
    if (sub <= 0 || sub >= r->bsp->num_models) {
        warn_once(d, W_ENTITY, "a decal on entity %s%d, which is not a brush model: ignored", "", ent);
        return -1;
    }
    return sub;
}

// A decal temp entity (the decoder's layouts: docs/goldsrc.md).
static void te_decal(renderer_t *r, r_hldecal_t *d, const world_t *w, const world_decal_t *l)
{
    int t = l->te, model;
    const char *name;
    if (!valid_pos(l->pos)) {
        warn_once(d, W_POS, "a decal temp entity (%s%d) at a position outside the world: ignored", "TE ", t);
        return;
    }
    if (t == 112) {
        name = "LOGO";   // TE_PLAYERDECAL: the spray, tempdecal.wad's for every player
    } else if (l->decal < 0 || l->decal >= WORLD_MAX_DECALS || !w->decal_names[l->decal][0]) {
        warn_once(d, W_INDEX, "a decal temp entity names decal %s%d, which the demo never named: ignored", "",
                  l->decal);
        return;
    } else {
        name = w->decal_names[l->decal];
    }
    if (t == 13 && l->entity) {
        // TE_BSPDECAL names the model itself
        const char *mn = l->model > 0 && l->model < w->num_models ? w->models[l->model] : "";
        model = mn[0] == '*' ? atoi(mn + 1) : -1;
        if (model <= 0 || model >= r->bsp->num_models) {
            warn_once(d, W_BSPDECAL, "TE_BSPDECAL on entity %s%d without a brush model: ignored", "", l->entity);
            return;
        }
    } else {
        model = entity_model(r, d, w, l->entity);
        if (model < 0)
            return;
    }
    if (r_hldecal_place(r, name, l->pos, model, model ? l->ent_origin : NULL, l->time, t == 13) < 0)
        warn_once(d, W_NAME, "decal %s (TE %d) is in no decal WAD: not drawn", name, t);
}

// A weapon's client event: its bullets' hits (engine/hlbullet.c traces them, as the sound system
// does for their impact sounds), a "{shotN" at each: where a bullet stops, and for Counter-Strike's
// the walls it went through, front and far side (the far side's decal, sparks and puff as the
// front's); the tracers (the mp5's every other bullet) leave none and are drawn from the gun to
// where the bullet stops, made when the event comes (not again after a seek)
static void make_puff(r_hldecal_t *d, const world_t *w, const world_decal_t *e, const hlbullet_t *b, int shot);
static void make_gunsmoke(renderer_t *r, r_hldecal_t *d, const world_t *w, const world_decal_t *e);

static void weapon_event(renderer_t *r, r_hldecal_t *d, const world_t *w, const world_decal_t *e)
{
    hlbullet_t b[HLBULLET_MAX];
    int kind = HLBULLET_SOUND_HL;
    int n = hlbullet_fire(r->bsp, w, e, d->mat, b, HLBULLET_MAX, &kind);
    int fresh = fabs(w->time - e->time) < 1e-6;   // effects when the event comes, not after a seek
    if (kind == HLBULLET_SOUND_CS)
        make_gunsmoke(r, d, w, e);
    r_hlfx_t *fx = fresh ? r_models_hlfx(r->models) : NULL;
    for (int shot = 0; shot < n; shot++) {
        if (b[shot].sky)
            continue;   // cs16-client's isSky: EV_HLDM_DecalGunshot makes nothing on the sky
        if (kind == HLBULLET_SOUND_CS)
            make_puff(d, w, e, &b[shot], shot);
        if (b[shot].tracer) {
            if (fx && (b[shot].model >= 0 || b[shot].player || b[shot].monster))
                r_hlfx_tracer(fx, b[shot].tracer_src, b[shot].endpos);
            continue;
        }
        // EV_HLDM_GunshotDecalTrace: R_BulletImpactParticles at every hit (both clients);
        // Counter-Strike's EV_HLDM_DecalGunshot adds sparks (R_StreakSplash, cl_weapon_sparks 1)
        // but on wood: dir = the normal's squares x 4..12 each, 5..7 of colour 4, speed dir.z
        if (fx && b[shot].model >= 0) {
            r_hlfx_bullet_impact(fx, b[shot].endpos, w->view.origin_valid ? w->view.origin : NULL);
            if (kind == HLBULLET_SOUND_CS && b[shot].type != HLMAT_WOOD) {
                uint32_t x = (e->seed ^ (uint32_t)(shot + 1) * 0x9e3779b9u) | 1u;
                vec3_t dir;
                for (int k = 0; k < 3; k++)
                    dir[k] = b[shot].normal[k] * b[shot].normal[k] * hlbullet_frand(&x, 4, 12);
                int count = 5 + (int)hlbullet_frand(&x, 0, 2.999f);
                r_hlfx_event_streaks(fx, b[shot].endpos, dir, 4, count, dir[2], 75);
            }
        }
        if (!b[shot].decal)
            continue;
        char name[24];
        snprintf(name, sizeof name, "{shot%d", b[shot].decal);
        if (r_hldecal_place(r, name, b[shot].endpos, b[shot].model, b[shot].model ? b[shot].ent_origin : NULL, e->time,
                            0) < 0)
            warn_once(d, W_NAME, "decal %s (%d) is in no decal WAD: not drawn", name, shot);
    }
}

// Whether the world's point p is inside solid (model 0's leaves).
static int in_solid(const bsp_t *b, const vec3_t p)
{
    int leaf = bsp_point_leaf(b, p);
    return leaf <= 0 || leaf >= b->num_leafs || b->leafs[leaf].contents == BSP_CONTENTS_SOLID;
}

// EV_FireGauss (the SDK's ev_hldm.cpp; facts and what is assumed in docs/goldsrc.md): the shot
// from the gun along the aim, up to 10 hits while its damage (fparam1) is over 10. A wall met at
// more than 60 degrees from its normal reflects it (a glow and three balls there; the damage
// loses that share); one met head on takes a decal and a glow, and stops a primary shot (a small
// glow, eight balls); a secondary one goes through a wall thinner than its damage (losing that
// many) once, with balls and a decal on the way out. Each leg is a beam of sprites/smoke.spr for
// 0.1 s, orange and 1 wide (primary, brightness 128) or white and 2.5 wide (brightness = damage).
// Another player or a monster met (the players are solid, but the shooter; the monsters' boxes
// always) ends a leg, and it goes on from 1 unit past the hit; one standing behind a wall the
// secondary shot goes through is where its way out is found (the trace back has them solid). Its decals are placed again after a seek; its beams and sprites only when the event comes.
static void gauss_event(renderer_t *r, const world_t *w, const world_decal_t *e)
{
    static const uint8_t orange[3] = {255, 128, 0}, white[3] = {255, 255, 255};
    if (e->args[3])
        return;   // bparam2: the charge is stopped (the spin sound's end only)
    vec3_t src, ang, fwd, right, up;
    hltent_event_gun(e, src, ang);
    if (!valid_pos(src) || !isfinite(ang[0]) || !isfinite(ang[1]) || !isfinite(ang[2]))
        return;
    r_angle_vectors(ang, fwd, right, up);
    int primary = e->args[2] != 0;
    float damage = isfinite(e->fparam[0]) ? (e->fparam[0] < 1000 ? e->fparam[0] : 1000) : 0;
    r_hlfx_t *fx = fabs(w->time - e->time) < 1e-6 ? r_models_hlfx(r->models) : NULL;
    uint32_t x = e->seed ? e->seed : 1;
    vec3_t dest, beam_from;
    for (int k = 0; k < 3; k++)
        dest[k] = src[k] + fwd[k] * 8192;
    // the first leg starts at the gun's attachment (idx | 0x1000): the recording player's view
    // model's muzzle; another player's: 4 down, 2 right, 16 ahead of the gun (as the tracers)
    int player = e->entity >= 1 && e->entity <= (w->maxclients > 0 ? w->maxclients : WORLD_MAX_PLAYERS);
    if (!(e->local && fx && r_hlfx_muzzle(fx, beam_from)))
        for (int k = 0; k < 3; k++)
            beam_from[k] = src[k] + (player ? (k == 2 ? -4.0f : 0.0f) + right[k] * 2 + fwd[k] * 16 : 0);
    int punched = 0;
    for (int hits = 10; damage > 10 && hits > 0; hits--) {
        hlbullet_t tr;
        memcpy(tr.src, src, sizeof tr.src);
        memcpy(tr.end, dest, sizeof tr.end);
        hlbullet_trace_all(r->bsp, w, &tr, e->entity);   // EV_SetSolidPlayers(idx - 1)
        int model = tr.model;
        const float *org = model > 0 ? tr.ent_origin : NULL;
        float len2 = 0;
        for (int k = 0; k < 3; k++)
            len2 += (tr.endpos[k] - beam_from[k]) * (tr.endpos[k] - beam_from[k]);
        // a leg of no length (the client's steps through a player's box, each trace starting
        // inside it ends where it starts) draws nothing: not made, it would only take a beam's slot
        if (fx && len2 > 1e-4f)
            r_hlfx_event_beam(fx, w, beam_from, tr.endpos, "sprites/smoke.spr", 0.1f, primary ? 1.0f : 2.5f,
                              primary ? 128 : damage, primary ? orange : white);
        if (tr.player > 0 || tr.monster > 0) {
            // not SOLID_BSP: no reflection, decal or glow; on from 1 unit past the hit, the damage
            // kept, one of the ten traces used
            for (int k = 0; k < 3; k++)
                src[k] = tr.endpos[k] + fwd[k];
            memcpy(beam_from, src, sizeof beam_from);
            continue;
        }
        if (model < 0)
            break;   // nothing hit (EV_GetPhysent of no entity)
        float n = -(tr.normal[0] * fwd[0] + tr.normal[1] * fwd[1] + tr.normal[2] * fwd[2]);
        vec3_t off;
        for (int k = 0; k < 3; k++)
            off[k] = tr.endpos[k] + tr.normal[k];
        if (n < 0.5f) {   // reflect
            for (int k = 0; k < 3; k++) {
                fwd[k] += tr.normal[k] * 2 * n;
                src[k] = tr.endpos[k] + fwd[k] * 8;
                dest[k] = src[k] + fwd[k] * 8192;
            }
            if (fx) {
                r_hlfx_event_glow(fx, w, tr.endpos, "sprites/hotglow.spr", 0.2f, damage * n / 255, damage * n * 0.05f);
                r_hlfx_event_trail(fx, w, tr.endpos, off, "sprites/hotglow.spr", 3, 0.1f, hlbullet_frand(&x, 10, 20) / 100, 100,
                                   100);
            }
            damage *= 1 - (n == 0 ? 0.1f : n);
            memcpy(beam_from, src, sizeof beam_from);
            continue;
        }
        // head on: EV_HLDM_DecalGunshot (BULLET_MONSTER_12MM: a {shot decal) and a glow
        char name[24];
        snprintf(name, sizeof name, "{shot%d", (int)hlbullet_frand(&x, 0, 4.999f) + 1);
        r_hldecal_place(r, name, tr.endpos, model, org, e->time, 0);
        if (fx)
            r_hlfx_event_glow(fx, w, tr.endpos, "sprites/hotglow.spr", 1.0f, damage / 255, 6.0f);
        if (punched)
            break;
        punched = 1;
        if (primary) {   // the slug never goes through: a little glow and balls
            if (fx) {
                r_hlfx_event_glow(fx, w, tr.endpos, "sprites/hotglow.spr", 0.2f, 200.0f / 255, 0.3f);
                r_hlfx_event_trail(fx, w, tr.endpos, off, "sprites/hotglow.spr", 8, 0.6f, hlbullet_frand(&x, 10, 20) / 100, 100,
                                   200);
            }
            break;
        }
        // through the wall: the client traces on from 8 units in and back to find the way out;
        // here the world's leaves are stepped through a unit at a time, up to the damage left
        vec3_t out;
        float thick = -1;
        for (int step = 8; step <= 8192 && (float)step <= damage + 8; step++) {
            for (int k = 0; k < 3; k++)
                out[k] = tr.endpos[k] + fwd[k] * (float)step;
            if (!in_solid(r->bsp, out)) {
                thick = (float)step;
                break;
            }
        }
        if (thick < 0)
            break;   // too thick (or solid to the end): the beam stops in it
        // The client's trace on starts inside the wall, so the world's trace wins (startsolid) and
        // ends at the next wall beyond; its trace back from there has the players (EV_SetSolidPlayers)
        // and the monsters solid: a box standing between that wall and this one stops it first, and
        // the way out is taken on its far side (no decal there: not SOLID_BSP)
        int body = 0;
        bsp_trace_t on;
        vec3_t beyond;
        for (int k = 0; k < 3; k++)
            beyond[k] = out[k] + fwd[k] * 8192;
        int far = bsp_trace(r->bsp, r->bsp->models[0].headnode, out, beyond, &on);
        if (!on.startsolid) {
            hlbullet_t back;
            memset(&back, 0, sizeof back);
            memcpy(back.src, far ? on.endpos : beyond, sizeof back.src);
            memcpy(back.end, out, sizeof back.end);
            hlbullet_trace_all(r->bsp, w, &back, e->entity);
            if (back.player > 0 || back.monster > 0) {
                body = 1;
                memcpy(out, back.endpos, sizeof out);
                thick = sqrtf((out[0] - tr.endpos[0]) * (out[0] - tr.endpos[0]) +
                              (out[1] - tr.endpos[1]) * (out[1] - tr.endpos[1]) +
                              (out[2] - tr.endpos[2]) * (out[2] - tr.endpos[2]));
            }
        }
        if (thick >= damage)
            break;
        damage -= thick > 0 ? thick : 1;
        if (fx) {
            vec3_t back;
            for (int k = 0; k < 3; k++)
                back[k] = tr.endpos[k] - fwd[k];
            r_hlfx_event_trail(fx, w, tr.endpos, back, "sprites/hotglow.spr", 3, 0.1f, hlbullet_frand(&x, 10, 20) / 100, 100,
                               100);
            r_hlfx_event_glow(fx, w, out, "sprites/hotglow.spr", 0.1f, damage / 255, 6.0f);
            for (int k = 0; k < 3; k++)
                back[k] = out[k] - fwd[k];
            r_hlfx_event_trail(fx, w, out, back, "sprites/hotglow.spr", (int)(damage * 0.3f), 0.1f,
                               hlbullet_frand(&x, 10, 20) / 100, 200, 40);
        }
        // the decal on the way out faces back along the shot
        bsp_trace_t back_tr;
        vec3_t back_end;
        for (int k = 0; k < 3; k++)
            back_end[k] = out[k] - fwd[k] * (thick + 1);
        if (!body && bsp_trace(r->bsp, r->bsp->models[0].headnode, out, back_end, &back_tr) && !back_tr.startsolid) {
            snprintf(name, sizeof name, "{shot%d", (int)hlbullet_frand(&x, 0, 4.999f) + 1);
            r_hldecal_place(r, name, back_tr.endpos, 0, NULL, e->time, 0);
        }
        for (int k = 0; k < 3; k++)
            src[k] = out[k] + fwd[k];
        memcpy(beam_from, src, sizeof beam_from);
    }
}

// EV_FireCrossbow2: where the zoomed crossbow's shot sticks its bolt (engine/hltent.c draws the
// bolt), a spark shower unless the point is under water (none on a player); when the event comes.
static void crossbow_event(renderer_t *r, const world_t *w, const world_decal_t *e)
{
    hlbullet_t b;
    vec3_t fwd;
    if (fabs(w->time - e->time) > 1e-6 || hltent_crossbow_hit(r->bsp, w, e, &b, fwd) != HLTENT_BOLT_WALL)
        return;
    int leaf = bsp_point_leaf(r->bsp, b.endpos);
    if (leaf > 0 && leaf < r->bsp->num_leafs && r->bsp->leafs[leaf].contents == BSP_CONTENTS_WATER)
        return;
    r_hlfx_event_sparks(r_models_hlfx(r->models), b.endpos);
}

// The world's model indices of the puffs' sprites (PUFF_*; 0 none), found again when the precache
// list changes.
static const int *puff_models(r_hldecal_t *d, const world_t *w)
{
    int *models = d->puff_models;
    if (!d->puff_models_ok || d->puff_models_seq != w->models_seq) {
        for (int k = 0; k < PUFF_SPRITES; k++) {
            char name[40];
            if (k < PUFF_SMOKE) {
                snprintf(name, sizeof name, "sprites/wall_puff%d.spr", k + 1);
            } else {
                int type = 0, pick = k - PUFF_SMOKE;
                while (pick >= r_hlfx_smoke_sprites(type))
                    pick -= r_hlfx_smoke_sprites(type++);
                r_hlfx_smoke_name(type, pick, name, sizeof name);
            }
            models[k] = 0;
            for (int i = 1; i < w->num_models && !models[k]; i++)
                if (!strcasecmp(w->models[i], name))
                    models[k] = i;
        }
        d->puff_models_seq = w->models_seq;
        d->puff_models_ok = 1;
    }
    return models;
}

// The model of gun smoke sprite `pick` of type `type` (0: not precached).
static int smoke_model(const int *models, int type, int pick)
{
    int k = PUFF_SMOKE;
    for (int t = 0; t < type; t++)
        k += r_hlfx_smoke_sprites(t);
    return models[k + pick];
}

// The ring's next puff, cleared, with its motion's state not stepped yet.
static r_hlpuff_t *new_puff(r_hldecal_t *d)
{
    uint32_t slot = d->puff_next++ % HLFX_MAX_PUFFS;
    r_hlpuff_t *p = &d->puff_ring[slot];
    memset(p, 0, sizeof *p);
    p->state = &d->puff_state[slot];
    p->state->steps = -1;
    return p;
}

// Counter-Strike's gun smoke (cl_gunsmoke, on in cs16-client; facts in docs/goldsrc.md): the recording
// player's own shot (EV_IsLocal) of log entry e makes its gun's puffs (r_hlfx_gunsmoke) at the view
// model's muzzle, attachment 0 of the view model the demo's view had then, posed as it was then, from
// the demo's eye then (no such attachment: 24 ahead of the eye, 6 right, 6 down, as the muzzle flash's
// light); each `back` units behind it along the aim, `speed` along the aim plus half the shooter's
// velocity (0.9 of its z), rising as EV_SmokeRise. Kept in the puffs' ring with the wall puffs, so a
// seek's log replay makes them again; the sprite, scale and amount from the entry's seed.
static void make_gunsmoke(renderer_t *r, r_hldecal_t *d, const world_t *w, const world_decal_t *e)
{
    if (!e->local || !e->eye_valid || e->time < w->time - HLFX_PUFF_MAX_AGE)
        return;
    uint32_t x = (e->seed ^ 0x5bd1e995u) | 1u;
    r_hlsmoke_t sm[HLFX_SMOKE_MAX];
    int n = r_hlfx_gunsmoke(e->script, e->args[2], &x, sm);
    if (n <= 0)
        return;
    vec3_t src, ang, fwd, right, up, muzzle;
    hltent_event_aim(e, src, ang);
    if (!valid_pos(e->eye) || !valid_pos(src) || !isfinite(ang[0]) || !isfinite(ang[1]) || !isfinite(ang[2]) ||
        !isfinite(e->velocity[0]) || !isfinite(e->velocity[1]) || !isfinite(e->velocity[2]))
        return;
    r_angle_vectors(ang, fwd, right, up);
    if (r_models_view_attachment(r->models, e->view_model, e->view_seq, e->view_body, e->time - e->view_anim_time,
                                 e->eye, e->eye_angles, 0, muzzle) != 0 || !valid_pos(muzzle)) {
        vec3_t f, rt, u;
        r_angle_vectors(e->eye_angles, f, rt, u);
        for (int k = 0; k < 3; k++)
            muzzle[k] = e->eye[k] + 24 * f[k] + 6 * rt[k] - 6 * u[k];
    }
    const int *models = puff_models(d, w);
    int moving = e->velocity[0] != 0 || e->velocity[1] != 0 || e->velocity[2] != 0;
    const float keep[3] = {0.5f, 0.5f, 0.9f};
    for (int i = 0; i < n; i++) {
        int model = smoke_model(models, sm[i].type, sm[i].pick);
        if (!model)
            continue;   // not precached: EV_FindModelIndex finds none, no sprite
        r_hlpuff_t *p = new_puff(d);
        p->model = model;
        for (int k = 0; k < 3; k++) {
            p->org[k] = muzzle[k] - fwd[k] * sm[i].back;
            p->vel[k] = fwd[k] * sm[i].speed + (moving ? e->velocity[k] * keep[k] : 0);
        }
        p->start = e->time;
        p->amount = sm[i].amount;
        p->scale = sm[i].scale;
        p->seed = x;
        p->color[0] = p->color[1] = p->color[2] = sm[i].grey;
        p->wind = 0;
    }
}

// Counter-Strike's wall puffs (cs16-client's EV_HLDM_DecalGunshot calling EV_CS16Client_CreateSmoke
// with SMOKE_WALLPUFF, 25 along the normal, scale 0.5, wind on; facts in docs/goldsrc.md): one at
// bullet b's hit on the world or a brush entity (shot `shot` of log entry e), kept in the ring when
// the event comes (weapon_event; after a seek the log's replay makes them again, so a seek shows them
// as playing did); the sprite (wall_puff1..4) and the amount (100..180) from the entry's seed, the
// colour from the texture's material (the FireBullets switch: 40 grey; concrete 65 grey; wood 75 42 15).
static void make_puff(r_hldecal_t *d, const world_t *w, const world_decal_t *e, const hlbullet_t *b, int shot)
{
    if (b->model < 0 || b->tracer || e->time < w->time - HLFX_PUFF_MAX_AGE)
        return;   // no wall (a player, a monster, nothing): no puff; or gone before now
    const int *models = puff_models(d, w);
    uint32_t x = (e->seed ^ (uint32_t)(shot + 1) * 0x85ebca6bu) | 1u;
    int pick = (int)hlbullet_frand(&x, 0, 3.999f);
    if (!models[pick])
        return;   // not precached: EV_FindModelIndex finds none, no sprite
    r_hlpuff_t *p = new_puff(d);
    p->model = models[PUFF_WALL + pick];
    memcpy(p->org, b->endpos, sizeof p->org);
    for (int k = 0; k < 3; k++)
        p->vel[k] = b->normal[k] * 25;   // the speed along the normal
    p->scale = 0.5f;
    p->wind = 1;
    p->start = e->time;
    p->amount = 100 + (int)hlbullet_frand(&x, 0, 80.999f);
    p->seed = x;
    // the texture's type (PlayTextureSound, hlbullet.c): the world's only, else none; a far side's
    // is its wall's front's
    char type = b->type;
    if (type == HLMAT_WOOD) {
        p->color[0] = 75, p->color[1] = 42, p->color[2] = 15;
    } else {
        uint8_t g = type == HLMAT_CONCRETE ? 65 : 40;
        p->color[0] = p->color[1] = p->color[2] = g;
    }
}

// The frame's wall puffs: the ring's made in the last HLFX_PUFF_MAX_AGE seconds, newest first.
static void wall_puffs(renderer_t *r, r_hldecal_t *d, const world_t *w)
{
    int np = 0;
    uint32_t have = d->puff_next < HLFX_MAX_PUFFS ? d->puff_next : HLFX_MAX_PUFFS;
    for (uint32_t i = 0; i < have; i++) {
        const r_hlpuff_t *p = &d->puff_ring[(d->puff_next - 1 - i) % HLFX_MAX_PUFFS];
        if (p->start >= w->time - HLFX_PUFF_MAX_AGE && p->start <= w->time + 1e-6)
            d->puffs[np++] = *p;
    }
    r_hlfx_set_puffs(r_models_hlfx(r->models), d->puffs, np);
}

void r_hldecal_frame(renderer_t *r, const world_t *w)
{
    r_hldecal_t *d = r->hldecal;
    if (!d || !r->bsp || r->bsp != d->bsp) {
        // none of another level's (nor pointers into a freed r_hldecal_t: the puffs' states)
        r_hlfx_set_puffs(r_models_hlfx(r->models), NULL, 0);
        return;
    }
    uint32_t count = w->decal_log_count;
    if (count < d->applied || d->replay) {
        // a seek: the world's log is the decals of playing up to here; place them again
        reset_pool(r, d);
        d->puff_next = 0;
        d->applied = 0;
        d->replay = 0;
    }
    uint32_t from = d->applied;
    if (count - from > WORLD_MAX_DECAL_LOG)
        from = count - WORLD_MAX_DECAL_LOG;   // older ones left the ring (and most the pool)
    for (uint32_t i = from; i < count; i++) {
        const world_decal_t *l = &w->decal_log[i % WORLD_MAX_DECAL_LOG];
        if (l->te == 106 || l->te == 107 || l->te == 108 || l->te == 119)
            continue;   // temp models (engine/hltent.c)
        if (l->te)
            te_decal(r, d, w, l);
        else if (!strcmp(l->script, "gauss"))
            gauss_event(r, w, l);
        else if (!strcmp(l->script, "crossbow2"))
            crossbow_event(r, w, l);
        else
            weapon_event(r, d, w, l);
    }
    d->applied = count;
    wall_puffs(r, d, w);
}

int r_hldecal_count(const renderer_t *r) { return r->hldecal ? r->hldecal->count : 0; }
int r_hldecal_textures(const renderer_t *r) { return r->hldecal ? r->hldecal->num_tex : 0; }
