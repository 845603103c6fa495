// studio.c -- GoldSrc studio model loader and skeletal pose: every table checked against its file before use
//
// Layout facts (the public HL SDK studio.h): a 244-byte header of counts and
// file offsets; bones 112 bytes, controllers 24, hitboxes 32, sequences 176,
// sequence groups 104, textures 80 (8-bit pixels then a 768-byte palette at
// `index`), body parts 76, submodels 112, meshes 20, attachments 88, events 76.
// Animation: per sequence, blend and bone six 16-bit offsets (0 = channel does
// not move), each to a list of runs: a (valid, total) byte pair covering
// `total` frames, followed by `valid` values; frames past `valid` repeat the
// last value.
#include "studio.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pal.h"

#define HDR_SIZE 244
#define SEQHDR_SIZE 76
#define BONE_SIZE 112
#define CTL_SIZE 24
#define HITBOX_SIZE 32
#define SEQ_SIZE 176
#define GROUP_SIZE 104
#define TEX_SIZE 80
#define PART_SIZE 76
#define SUBMODEL_SIZE 112
#define MESH_SIZE 20
#define ATTACH_SIZE 88
#define EVENT_SIZE 76

// One file being read: its bytes and how errors name it.
typedef struct {
    const uint8_t *d;
    size_t size;
    const char *name;
    char *err;
    size_t cap;
} rd_t;

static int fail(const rd_t *r, size_t off, const char *fmt, ...)
{
    if (r->err && r->cap) {
        int n = snprintf(r->err, r->cap, "%s: offset %zu: ", r->name, off);
        if (n < 0)
            n = 0;
        if ((size_t)n < r->cap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->err + n, r->cap - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

// Readers for offsets already checked to lie inside the file.
static int32_t s32(const rd_t *r, size_t off)
{
    const uint8_t *p = r->d + off;
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}
static int16_t s16(const rd_t *r, size_t off) { return (int16_t)(r->d[off] | r->d[off + 1] << 8); }
static uint16_t u16(const rd_t *r, size_t off) { return (uint16_t)(r->d[off] | r->d[off + 1] << 8); }
static float f32(const rd_t *r, size_t off)
{
    int32_t i = s32(r, off);
    float f;
    memcpy(&f, &i, 4);
    return isfinite(f) ? f : 0.0f;
}
static void vec(const rd_t *r, size_t off, float *v)
{
    for (int k = 0; k < 3; k++)
        v[k] = f32(r, off + 4 * (size_t)k);
}
static void name_at(const rd_t *r, size_t off, size_t n, char *out)
{
    memcpy(out, r->d + off, n);
    out[n] = 0;
}

static int need(const rd_t *r, size_t off, size_t n, const char *what)
{
    if (off > r->size || r->size - off < n)
        return fail(r, off, "expected %s (%zu bytes), found %zu", what, n, off < r->size ? r->size - off : 0);
    return 0;
}

// A (count, index) pair of the header at `at`: count in [0, max], count * elem bytes at index inside the file.
static int table(const rd_t *r, size_t at, int32_t max, size_t elem, const char *what, int32_t *count, size_t *index)
{
    int32_t n = s32(r, at), ix = s32(r, at + 4);
    if (n < 0 || n > max)
        return fail(r, at, "expected 0..%d %s, found %d", max, what, n);
    if (n > 0 && (ix < 0 || (size_t)ix > r->size || (r->size - (size_t)ix) / elem < (size_t)n))
        return fail(r, at + 4, "expected %d %s (%zu bytes) at an offset inside the file, found offset %d", n, what,
                    (size_t)n * elem, ix);
    *count = n;
    *index = n > 0 ? (size_t)ix : 0;
    return 0;
}

static int check_header(const rd_t *r, const char *magic, size_t hdr)
{
    if (r->size < hdr)
        return fail(r, 0, "expected a %zu-byte studio header, found %zu bytes", hdr, r->size);
    if (memcmp(r->d, magic, 4) != 0)
        return fail(r, 0, "expected magic \"%s\", found \"%.4s\"", magic, (const char *)r->d);
    int32_t v = s32(r, 4);
    if (v != 10)
        return fail(r, 4, "expected studio version 10, found %d", v);
    return 0;
}

void studio_free(studio_t *m)
{
    if (!m)
        return;
    free(m->bones);
    free(m->controllers);
    free(m->seqs);
    free(m->events);
    free(m->group_loaded);
    if (m->textures)
        for (int i = 0; i < m->numtextures; i++)
            free(m->textures[i].pixels), free(m->textures[i].src), free(m->textures[i].pal);
    free(m->textures);
    free(m->skinrefs);
    free(m->bodyparts);
    free(m->submodels);
    free(m->meshes);
    free(m->corners);
    free(m->verts);
    free(m->vert_bone);
    free(m->norms);
    free(m->norm_bone);
    free(m->attach);
    free(m->attach_bone);
    free(m->gait_bone);
    free(m->chan);
    free(m->anim);
    memset(m, 0, sizeof(*m));
}

// ---- bones, controllers, attachments ------------------------------------------------

static int load_bones(studio_t *m, const rd_t *r)
{
    size_t ix, cix;
    if (table(r, 140, STUDIO_MAX_BONES, BONE_SIZE, "bones", &m->numbones, &ix) < 0 ||
        table(r, 148, 64, CTL_SIZE, "bone controllers", &m->numcontrollers, &cix) < 0)
        return -1;
    m->bones = calloc((size_t)m->numbones + 1, sizeof(*m->bones));
    m->controllers = calloc((size_t)m->numcontrollers + 1, sizeof(*m->controllers));
    if (!m->bones || !m->controllers)
        return fail(r, 0, "expected memory for %d bones", m->numbones);
    for (int i = 0; i < m->numcontrollers; i++) {
        size_t o = cix + (size_t)i * CTL_SIZE;
        studio_controller_t *c = &m->controllers[i];
        c->bone = s32(r, o);
        c->type = s32(r, o + 4);
        c->start = f32(r, o + 8);
        c->end = f32(r, o + 12);
        c->rest = s32(r, o + 16);
        c->index = s32(r, o + 20);
        if (c->index < 0 || c->index > 4)
            return fail(r, o + 20, "expected controller slot 0..4, found %d", c->index);
    }
    for (int i = 0; i < m->numbones; i++) {
        size_t o = ix + (size_t)i * BONE_SIZE;
        studio_bone_t *b = &m->bones[i];
        name_at(r, o, 32, b->name);
        b->parent = s32(r, o + 32);
        // parents come first, so one pass in index order composes every bone
        if (b->parent < -1 || b->parent >= i)
            return fail(r, o + 32, "expected parent bone -1..%d, found %d", i - 1, b->parent);
        b->flags = s32(r, o + 36);
        for (int k = 0; k < 6; k++) {
            b->controller[k] = s32(r, o + 40 + 4 * (size_t)k);
            if (b->controller[k] < -1 || b->controller[k] >= m->numcontrollers)
                return fail(r, o + 40 + 4 * (size_t)k, "expected bone controller -1..%d, found %d",
                            m->numcontrollers - 1, b->controller[k]);
            b->value[k] = f32(r, o + 64 + 4 * (size_t)k);
            b->scale[k] = f32(r, o + 88 + 4 * (size_t)k);
        }
    }
    // The player renderer's split: bones copied from the gait sequence start on, stop at
    // "Bip01 Spine" and start again at each bone whose parent is "Bip01 Pelvis".
    m->gait_bone = calloc((size_t)m->numbones + 1, 1);
    if (!m->gait_bone)
        return fail(r, 0, "expected memory for %d bones", m->numbones);
    for (int i = 0, copy = 1; i < m->numbones; i++) {
        const studio_bone_t *b = &m->bones[i];
        if (!strcmp(b->name, "Bip01 Spine"))
            copy = 0;
        else if (b->parent >= 0 && !strcmp(m->bones[b->parent].name, "Bip01 Pelvis"))
            copy = 1;
        m->gait_bone[i] = (uint8_t)copy;
    }
    // the setting of each slot that leaves its bones as modelled
    memset(m->default_ctl, 0, sizeof m->default_ctl);
    for (int i = 0; i < m->numcontrollers; i++) {
        const studio_controller_t *c = &m->controllers[i];
        float f;
        if (c->type & STUDIO_RLOOP) {
            f = fmodf(-c->start / 360.0f, 1.0f);
            if (f < 0)
                f += 1.0f;
        } else {
            f = c->end != c->start ? -c->start / (c->end - c->start) : 0.0f;
        }
        if (!(f >= 0))   // also NaN
            f = 0;
        if (f > 1)
            f = 1;
        float full = c->index == 4 ? 64.0f : (c->type & STUDIO_RLOOP) ? 256.0f : 255.0f;
        int v = (int)lrintf(f * full);
        m->default_ctl[c->index] = (uint8_t)(v > 255 ? 255 : v < 0 ? 0 : v);
    }
    int32_t n;
    if (table(r, 156, 4096, HITBOX_SIZE, "hitboxes", &n, &ix) < 0)
        return -1;
    m->numhitboxes = n;
    if (table(r, 212, 512, ATTACH_SIZE, "attachments", &m->numattachments, &ix) < 0)
        return -1;
    m->attach = calloc((size_t)m->numattachments + 1, sizeof(*m->attach));
    m->attach_bone = calloc((size_t)m->numattachments + 1, sizeof(*m->attach_bone));
    if (!m->attach || !m->attach_bone)
        return fail(r, 0, "expected memory for %d attachments", m->numattachments);
    for (int i = 0; i < m->numattachments; i++) {
        size_t o = ix + (size_t)i * ATTACH_SIZE;
        int32_t b = s32(r, o + 36);
        if (b < 0 || b >= m->numbones)
            return fail(r, o + 36, "expected attachment bone 0..%d, found %d", m->numbones - 1, b);
        m->attach_bone[i] = b;
        vec(r, o + 40, m->attach[i]);
    }
    return 0;
}

// ---- sequences and animation -----------------------------------------------------------

// Checks the run list at `off` covers `frames` frames and copies its values into m->anim
// (growing it within `budget` values). Returns the start index, or -1.
static int32_t copy_runs(studio_t *m, const rd_t *r, size_t off, int32_t frames, int32_t *cap, int32_t budget)
{
    size_t start = off;
    int32_t covered = 0;
    while (covered < frames) {
        if (need(r, off, 2, "an animation run header") < 0)
            return -1;
        int valid = r->d[off], total = r->d[off + 1];
        if (total == 0 || valid == 0 || valid > total)
            return fail(r, off, "expected an animation run of 1..255 frames with 1..total values, found %d of %d",
                        valid, total);
        if (need(r, off + 2, (size_t)valid * 2, "animation values") < 0)
            return -1;
        covered += total;
        off += 2 + (size_t)valid * 2;
    }
    size_t words = (off - start) / 2;
    if ((size_t)m->numanim + words > (size_t)budget)
        return fail(r, start, "expected animation data no larger than the files (%d values), found more",
                    budget);
    if (m->numanim + (int32_t)words > *cap) {
        int32_t nc = *cap ? *cap : 1024;
        while (nc < m->numanim + (int32_t)words)
            nc = nc > budget / 2 ? budget : nc * 2;
        uint16_t *a = realloc(m->anim, (size_t)nc * sizeof(*a));
        if (!a)
            return fail(r, start, "expected memory for %d animation values", nc);
        m->anim = a;
        *cap = nc;
    }
    int32_t at = m->numanim;
    for (size_t i = 0; i < words; i++)
        m->anim[at + (int32_t)i] = u16(r, start + 2 * i);
    m->numanim += (int32_t)words;
    return at;
}

// Group file `g` of the model at `path` ("models/x.mdl" -> "models/x01.mdl"), or "<path>t.mdl" with g < 0.
static void companion(const char *path, int g, char *out, size_t cap)
{
    size_t n = strlen(path);
    if (n >= 4 && (path[n - 4] == '.'))
        n -= 4;
    if (g < 0)
        snprintf(out, cap, "%.*st.mdl", (int)n, path);
    else
        snprintf(out, cap, "%.*s%02d.mdl", (int)n, path, g);
}

static int load_seqs(studio_t *m, const rd_t *r, const char *path, const asset_files_t *files, size_t total_size)
{
    size_t ix, gix;
    if (table(r, 164, STUDIO_MAX_SEQS, SEQ_SIZE, "sequences", &m->numseq, &ix) < 0 ||
        table(r, 172, STUDIO_MAX_GROUPS, GROUP_SIZE, "sequence groups", &m->numseqgroups, &gix) < 0)
        return -1;
    m->seqs = calloc((size_t)m->numseq + 1, sizeof(*m->seqs));
    m->group_loaded = calloc((size_t)m->numseqgroups + 1, 1);
    if (!m->seqs || !m->group_loaded)
        return fail(r, 0, "expected memory for %d sequences", m->numseq);
    // Read the group files first: they bound the animation budget.
    rd_t gr[STUDIO_MAX_GROUPS];
    uint8_t *gbytes[STUDIO_MAX_GROUPS] = {0};
    char gname[STUDIO_MAX_GROUPS][160];
    int rc = 0;
    for (int g = 0; g < m->numseqgroups; g++) {
        gr[g] = *r;
        if (g == 0) {
            m->group_loaded[0] = 1;
            continue;
        }
        companion(path, g, gname[g], sizeof gname[g]);
        size_t sz = 0;
        gbytes[g] = asset_load(files, gname[g], &sz);
        if (!gbytes[g])
            continue;   // missing: its sequences stay at the reference pose
        gr[g].d = gbytes[g];
        gr[g].size = sz;
        gr[g].name = gname[g];
        if (check_header(&gr[g], "IDSQ", SEQHDR_SIZE) < 0) {
            rc = -1;
            goto done;
        }
        m->group_loaded[g] = 1;
        total_size += sz;
    }
    {
        int32_t budget = (int32_t)(total_size > (1u << 28) ? (1u << 28) : total_size), cap = 0;
        int32_t chan_cap = 0;
        for (int i = 0; i < m->numseq && rc == 0; i++) {
            size_t o = ix + (size_t)i * SEQ_SIZE;
            studio_seq_t *s = &m->seqs[i];
            name_at(r, o, 32, s->label);
            s->fps = f32(r, o + 32);
            s->flags = s32(r, o + 36);
            s->activity = s32(r, o + 40);
            s->actweight = s32(r, o + 44);
            s->numevents = s32(r, o + 48);
            int32_t evix = s32(r, o + 52);
            s->numframes = s32(r, o + 56);
            s->motiontype = s32(r, o + 68);
            s->motionbone = s32(r, o + 72);
            vec(r, o + 76, s->linearmovement);
            vec(r, o + 96, s->bbmin);
            vec(r, o + 108, s->bbmax);
            s->numblends = s32(r, o + 120);
            int32_t animix = s32(r, o + 124);
            for (int k = 0; k < 2; k++) {
                s->blendtype[k] = s32(r, o + 128 + 4 * (size_t)k);
                s->blendstart[k] = f32(r, o + 136 + 4 * (size_t)k);
                s->blendend[k] = f32(r, o + 144 + 4 * (size_t)k);
            }
            s->seqgroup = s32(r, o + 156);
            s->nextseq = s32(r, o + 172);
            s->first_chan = -1;
            if (s->numframes < 1 || s->numframes > STUDIO_MAX_FRAMES) {
                rc = fail(r, o + 56, "expected 1..%d frames in sequence %d, found %d", STUDIO_MAX_FRAMES, i,
                          s->numframes);
                break;
            }
            if (s->numblends < 1 || s->numblends > STUDIO_MAX_BLENDS) {
                rc = fail(r, o + 120, "expected 1..%d blends in sequence %d, found %d", STUDIO_MAX_BLENDS, i,
                          s->numblends);
                break;
            }
            if (s->seqgroup < 0 || s->seqgroup >= m->numseqgroups) {
                rc = fail(r, o + 156, "expected sequence group 0..%d, found %d", m->numseqgroups - 1, s->seqgroup);
                break;
            }
            if (s->numevents < 0 || s->numevents > 1024 ||
                (s->numevents > 0 && (evix < 0 || (size_t)evix > r->size ||
                                      (r->size - (size_t)evix) / EVENT_SIZE < (size_t)s->numevents))) {
                rc = fail(r, o + 48, "expected 0..1024 events inside the file, found %d at offset %d", s->numevents,
                          evix);
                break;
            }
            s->first_event = m->numevents;
            if (s->numevents > 0) {
                studio_event_t *ev = realloc(m->events, (size_t)(m->numevents + s->numevents) * sizeof *ev);
                if (!ev) {
                    rc = fail(r, o + 48, "expected memory for %d events", m->numevents + s->numevents);
                    break;
                }
                m->events = ev;
                for (int k = 0; k < s->numevents; k++) {
                    size_t e = (size_t)evix + (size_t)k * EVENT_SIZE;
                    studio_event_t *d = &m->events[m->numevents++];
                    d->frame = s32(r, e);
                    d->event = s32(r, e + 4);
                    d->type = s32(r, e + 8);
                    name_at(r, e + 12, 64, d->options);
                }
            }
            if (s->motionbone < 0 || s->motionbone >= m->numbones)
                s->motionbone = 0;
            if (!(s->fps > 0) || s->fps > 1000)
                s->fps = 0;
            if (!m->group_loaded[s->seqgroup] || m->numbones == 0)
                continue;
            const rd_t *g = &gr[s->seqgroup];
            size_t per = (size_t)s->numblends * (size_t)m->numbones;
            if (animix < 0 || (size_t)animix > g->size || (g->size - (size_t)animix) / 12 < per) {
                rc = fail(r, o + 124, "expected %zu bone animations (%zu bytes) at offset %d", per, per * 12, animix);
                break;
            }
            // every channel needs 2 bytes of the file: more channels than that means shared tables
            if ((size_t)m->numchan + per * 6 > (size_t)budget) {
                rc = fail(g, (size_t)animix, "expected animation tables no larger than the files, found more");
                break;
            }
            if (m->numchan + (int32_t)per * 6 > chan_cap) {
                int32_t nc = chan_cap ? chan_cap * 2 : 4096;
                while (nc < m->numchan + (int32_t)per * 6)
                    nc *= 2;
                int32_t *c = realloc(m->chan, (size_t)nc * sizeof(*c));
                if (!c) {
                    rc = fail(r, 0, "expected memory for %d animation channels", nc);
                    break;
                }
                m->chan = c;
                chan_cap = nc;
            }
            s->first_chan = m->numchan;
            for (size_t a = 0; a < per && rc == 0; a++) {
                size_t base = (size_t)animix + a * 12;
                for (int k = 0; k < 6; k++) {
                    uint16_t off = u16(g, base + 2 * (size_t)k);
                    int32_t at = -1;
                    if (off != 0) {
                        at = copy_runs(m, g, base + off, s->numframes, &cap, budget);
                        if (at < 0) {
                            rc = -1;
                            break;
                        }
                    }
                    m->chan[m->numchan++] = at;
                }
            }
        }
    }
done:
    for (int g = 1; g < m->numseqgroups; g++)
        free(gbytes[g]);
    return rc;
}

// ---- textures and skins ----------------------------------------------------------------

static int load_textures(studio_t *m, const rd_t *r, const uint8_t *palette)
{
    size_t ix;
    if (table(r, 180, STUDIO_MAX_TEXTURES, TEX_SIZE, "textures", &m->numtextures, &ix) < 0)
        return -1;
    int32_t nref = s32(r, 192), nfam = s32(r, 196), skix = s32(r, 200);
    if (nref < 0 || nref > 256 || nfam < 0 || nfam > 256)
        return fail(r, 192, "expected 0..256 skin references and families, found %d and %d", nref, nfam);
    size_t skinbytes = (size_t)nref * (size_t)nfam * 2;
    if (skinbytes && (skix < 0 || (size_t)skix > r->size || r->size - (size_t)skix < skinbytes))
        return fail(r, 200, "expected %zu bytes of skin families at offset %d inside the file", skinbytes, skix);
    m->numskinref = nref;
    m->numskinfamilies = nfam;
    m->skinrefs = calloc((size_t)nref * (size_t)nfam + 1, sizeof(int16_t));
    m->textures = calloc((size_t)m->numtextures + 1, sizeof(*m->textures));
    if (!m->skinrefs || !m->textures)
        return fail(r, 0, "expected memory for %d textures", m->numtextures);
    for (size_t i = 0; i < (size_t)nref * (size_t)nfam; i++) {
        int16_t t = s16(r, (size_t)skix + 2 * i);
        if (t < 0 || t >= m->numtextures)
            return fail(r, (size_t)skix + 2 * i, "expected texture 0..%d in a skin family, found %d",
                        m->numtextures - 1, t);
        m->skinrefs[i] = t;
    }
    uint8_t grey[768];
    if (!palette) {
        for (int i = 0; i < 768; i++)
            grey[i] = (uint8_t)(i / 3);
        palette = grey;
    }
    pal_near_t near;   // each texture's own palette to the level's
    pal_near_init(&near, palette, 255);
    for (int i = 0; i < m->numtextures; i++) {
        size_t o = ix + (size_t)i * TEX_SIZE;
        studio_texture_t *t = &m->textures[i];
        name_at(r, o, 64, t->name);
        t->flags = s32(r, o + 64);
        t->width = s32(r, o + 68);
        t->height = s32(r, o + 72);
        int32_t px = s32(r, o + 76);
        if (t->width < 1 || t->height < 1 || t->width > STUDIO_MAX_TEX_DIM || t->height > STUDIO_MAX_TEX_DIM)
            return fail(r, o + 68, "expected texture size 1..%d, found %dx%d", STUDIO_MAX_TEX_DIM, t->width,
                        t->height);
        size_t n = (size_t)t->width * (size_t)t->height;
        if (px < 0 || need(r, (size_t)px, n + 768, "texture pixels and palette") < 0)
            return px < 0 ? fail(r, o + 76, "expected a texture data offset, found %d", px) : -1;
        t->pixels = malloc(n);
        if (!t->pixels)
            return fail(r, o, "expected memory for a %dx%d texture", t->width, t->height);
        // the texture's own palette to the level's, once: the renderer sees level indices only
        const uint8_t *own = r->d + (size_t)px + n;
        uint8_t lut[256];
        for (int c = 0; c < 256; c++)
            lut[c] = (uint8_t)pal_near(&near, own[c * 3], own[c * 3 + 1], own[c * 3 + 2]);
        if (t->flags & STUDIO_NF_MASKED)
            lut[255] = 255;
        const uint8_t *src = r->d + (size_t)px;
        for (size_t k = 0; k < n; k++)
            t->pixels[k] = lut[src[k]];
        // a player colour texture keeps its own indices and palette: the renderer remaps them per player
        int lo, mid, hi;
        if (studio_remap_ranges(t->name, &lo, &mid, &hi)) {
            t->src = malloc(n);
            t->pal = malloc(768);
            if (!t->src || !t->pal)
                return fail(r, o, "expected memory for a %dx%d remap texture", t->width, t->height);
            memcpy(t->src, src, n);
            memcpy(t->pal, own, 768);
            t->remap_lo = (int16_t)lo;
            t->remap_mid = (int16_t)mid;
            t->remap_hi = (int16_t)hi;
        }
    }
    return 0;
}

// ---- player colours ----------------------------------------------------------------------

// atoi of at most 3 characters of s from `at` (nothing there: 0), clamped to 0..255
static int name_number(const char *s, size_t at)
{
    size_t len = strlen(s);
    if (at >= len)
        return 0;
    char val[4] = {0};
    memcpy(val, s + at, len - at < 3 ? len - at : 3);
    int v = atoi(val);
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

int studio_remap_ranges(const char *name, int *lo, int *mid, int *hi)
{
    if (!strncasecmp(name, "DM_Base", 7)) {
        *lo = 160, *mid = 191, *hi = 223;   // the plate (top) and the suit (bottom)
        return 1;
    }
    if (!strncasecmp(name, "remap", 5)) {
        *lo = name_number(name, 7), *mid = name_number(name, 11), *hi = name_number(name, 15);
        return 1;
    }
    return 0;
}

void studio_hue_replace(uint8_t *pal, int hue, int start, int end)
{
    const float h = (float)hue * (360.0f / 255.0f);
    start = start < 0 ? 0 : start;
    end = end > 255 ? 255 : end;
    for (int i = start; i <= end; i++) {
        uint8_t *c = pal + 3 * i;
        int mx = c[0] > c[1] ? c[0] : c[1], mn = c[0] < c[1] ? c[0] : c[1];
        mx = c[2] > mx ? c[2] : mx;
        mn = c[2] < mn ? c[2] : mn;
        if (mx == 0)
            continue;   // black: value 0 (the engine's saturation would divide by it)
        // value = the brightest channel, saturation = (max - min) / max, so the least channel stays
        const float val = (float)mx / 255.0f, sat = (float)(mx - mn) / (float)mx, low = val * (1.0f - sat);
        float rgb[3];
        int top, bot, mixed;   // the channel at the value, at the least, and the one between
        float f;               // how far the mixed one is from low toward val
        if (h <= 120) {
            bot = 2;
            if (h < 60)
                top = 0, mixed = 1, f = h / (120 - h);
            else
                top = 1, mixed = 0, f = (120 - h) / h;
        } else if (h <= 240) {
            bot = 0;
            if (h < 180)
                top = 1, mixed = 2, f = (h - 120) / (240 - h);
            else
                top = 2, mixed = 1, f = (240 - h) / (h - 120);
        } else {
            bot = 1;
            if (h < 300)
                top = 2, mixed = 0, f = (h - 240) / (360 - h);
            else
                top = 0, mixed = 2, f = (360 - h) / (h - 240);
        }
        rgb[top] = val;
        rgb[bot] = low;
        rgb[mixed] = low + f * (val - low);
        for (int k = 0; k < 3; k++) {
            float x = rgb[k] * 255.0f;   // truncated, as the engine's byte cast
            c[k] = (uint8_t)(x > 0 ? (x < 255 ? x : 255) : 0);   // hues past 360 (colours 256..360) leave 0..1
        }
    }
}

int studio_remap_pixels(const studio_texture_t *t, int top, int bottom, const pal_near_t *level, uint8_t *out)
{
    if (!t->src || !t->pal)
        return -1;
    uint8_t pal[768], lut[256];
    memcpy(pal, t->pal, sizeof pal);
    studio_hue_replace(pal, top, t->remap_lo, t->remap_mid);
    studio_hue_replace(pal, bottom, t->remap_mid + 1, t->remap_hi);
    for (int c = 0; c < 256; c++)
        lut[c] = (uint8_t)pal_near(level, pal[c * 3], pal[c * 3 + 1], pal[c * 3 + 2]);
    if (t->flags & STUDIO_NF_MASKED)
        lut[255] = 255;
    size_t n = (size_t)t->width * (size_t)t->height;
    for (size_t k = 0; k < n; k++)
        out[k] = lut[t->src[k]];
    return 0;
}

// ---- geometry --------------------------------------------------------------------------

// Walks one mesh's strip/fan commands: counts corners (out == NULL) or writes them.
static int mesh_cmds(const rd_t *r, size_t off, const studio_submodel_t *sm, int32_t *count, studio_corner_t *out)
{
    int32_t n = 0;
    for (;;) {
        if (need(r, off, 2, "a triangle command") < 0)
            return -1;
        int c = s16(r, off);
        off += 2;
        if (c == 0)
            break;
        int fan = c < 0, k = fan ? -c : c;
        if (need(r, off, (size_t)k * 8, "triangle command vertices") < 0)
            return -1;
        for (int i = 0; i < k; i++) {
            size_t vo = off + (size_t)i * 8;
            int v = s16(r, vo), nn = s16(r, vo + 2);
            if (v < 0 || v >= sm->numverts || nn < 0 || nn >= sm->numnorms)
                return fail(r, vo, "expected vertex 0..%d and normal 0..%d, found %d and %d", sm->numverts - 1,
                            sm->numnorms - 1, v, nn);
        }
        for (int i = 0; i + 2 < k; i++) {
            if (n > STUDIO_MAX_CORNERS - 3)
                return fail(r, off, "expected at most %d triangle corners", STUDIO_MAX_CORNERS);
            if (out) {
                // strips flip every other triangle so all keep the strip's winding
                int idx[3];
                if (fan) {
                    idx[0] = 0, idx[1] = i + 1, idx[2] = i + 2;
                } else if (i & 1) {
                    idx[0] = i + 1, idx[1] = i, idx[2] = i + 2;
                } else {
                    idx[0] = i, idx[1] = i + 1, idx[2] = i + 2;
                }
                for (int j = 0; j < 3; j++) {
                    size_t vo = off + (size_t)idx[j] * 8;
                    studio_corner_t *cn = &out[n + j];
                    cn->vert = sm->first_vert + s16(r, vo);
                    cn->norm = sm->first_norm + s16(r, vo + 2);
                    cn->s = s16(r, vo + 4);
                    cn->t = s16(r, vo + 6);
                }
            }
            n += 3;
        }
        off += (size_t)k * 8;
    }
    *count = n;
    return 0;
}

static int load_geometry(studio_t *m, const rd_t *r)
{
    size_t ix;
    if (table(r, 204, STUDIO_MAX_BODYPARTS, PART_SIZE, "body parts", &m->numbodyparts, &ix) < 0)
        return -1;
    m->bodyparts = calloc((size_t)m->numbodyparts + 1, sizeof(*m->bodyparts));
    if (!m->bodyparts)
        return fail(r, 0, "expected memory for %d body parts", m->numbodyparts);
    // pass 1: counts
    size_t mix[STUDIO_MAX_BODYPARTS];
    for (int i = 0; i < m->numbodyparts; i++) {
        size_t o = ix + (size_t)i * PART_SIZE;
        studio_bodypart_t *b = &m->bodyparts[i];
        name_at(r, o, 64, b->name);
        b->base = s32(r, o + 68);
        int32_t n = s32(r, o + 64), mi = s32(r, o + 72);
        if (n < 0 || n > 256)
            return fail(r, o + 64, "expected 0..256 submodels, found %d", n);
        if (n > 0 && (mi < 0 || (size_t)mi > r->size || (r->size - (size_t)mi) / SUBMODEL_SIZE < (size_t)n))
            return fail(r, o + 72, "expected %d submodels at an offset inside the file, found %d", n, mi);
        mix[i] = (size_t)mi;
        if (n > 0 && (b->base < 1 || b->base > (1 << 24)))
            return fail(r, o + 68, "expected a body base of 1..%d, found %d", 1 << 24, b->base);
        b->nummodels = n;
        b->first_model = m->numsubmodels;
        m->numsubmodels += n;
    }
    m->submodels = calloc((size_t)m->numsubmodels + 1, sizeof(*m->submodels));
    if (!m->submodels)
        return fail(r, 0, "expected memory for %d submodels", m->numsubmodels);
    size_t total_verts = 0, total_norms = 0, total_meshes = 0;
    for (int i = 0; i < m->numbodyparts; i++)
        for (int j = 0; j < m->bodyparts[i].nummodels; j++) {
            size_t o = mix[i] + (size_t)j * SUBMODEL_SIZE;
            studio_submodel_t *sm = &m->submodels[m->bodyparts[i].first_model + j];
            name_at(r, o, 64, sm->name);
            sm->radius = f32(r, o + 68);
            size_t dummy;
            int32_t nm;
            if (table(r, o + 72, 4096, MESH_SIZE, "meshes", &nm, &dummy) < 0)
                return -1;
            // counts at +80 / +92, each followed by its bone-index bytes and its 12-byte vectors
            int32_t nv = s32(r, o + 80), nn = s32(r, o + 92);
            if (nv < 0 || nv > STUDIO_MAX_VERTS || nn < 0 || nn > STUDIO_MAX_VERTS)
                return fail(r, o + 80, "expected 0..%d vertices and normals, found %d and %d", STUDIO_MAX_VERTS, nv,
                            nn);
            static const struct { size_t at; size_t elem; const char *what; } arr[4] = {
                {84, 1, "vertex bone indices"}, {88, 12, "vertices"},
                {96, 1, "normal bone indices"}, {100, 12, "normals"}};
            for (int a = 0; a < 4; a++) {
                size_t cnt = (size_t)(a < 2 ? nv : nn);
                int32_t at = s32(r, o + arr[a].at);
                if (cnt && (at < 0 || (size_t)at > r->size || (r->size - (size_t)at) / arr[a].elem < cnt))
                    return fail(r, o + arr[a].at, "expected %zu %s at an offset inside the file, found offset %d",
                                cnt, arr[a].what, at);
            }
            sm->first_vert = (int32_t)total_verts;
            sm->numverts = nv;
            sm->first_norm = (int32_t)total_norms;
            sm->numnorms = nn;
            sm->first_mesh = (int32_t)total_meshes;
            sm->nummesh = nm;
            total_verts += (size_t)nv;
            total_norms += (size_t)nn;
            total_meshes += (size_t)nm;
            if (total_verts > STUDIO_MAX_VERTS || total_norms > STUDIO_MAX_VERTS)
                return fail(r, o + 80, "expected at most %d vertices and normals in all", STUDIO_MAX_VERTS);
        }
    m->numverts = (int32_t)total_verts;
    m->numnorms = (int32_t)total_norms;
    m->nummeshes = (int32_t)total_meshes;
    m->verts = calloc(total_verts + 1, sizeof(*m->verts));
    m->vert_bone = calloc(total_verts + 1, 1);
    m->norms = calloc(total_norms + 1, sizeof(*m->norms));
    m->norm_bone = calloc(total_norms + 1, 1);
    m->meshes = calloc(total_meshes + 1, sizeof(*m->meshes));
    if (!m->verts || !m->vert_bone || !m->norms || !m->norm_bone || !m->meshes)
        return fail(r, 0, "expected memory for %zu vertices", total_verts);
    // pass 2: vertices, normals, mesh corner counts
    size_t corners = 0;
    for (int i = 0; i < m->numbodyparts; i++)
        for (int j = 0; j < m->bodyparts[i].nummodels; j++) {
            size_t o = mix[i] + (size_t)j * SUBMODEL_SIZE;
            const studio_submodel_t *sm = &m->submodels[m->bodyparts[i].first_model + j];
            size_t meshix = (size_t)s32(r, o + 76), vi = (size_t)s32(r, o + 84), vx = (size_t)s32(r, o + 88);
            size_t ni = (size_t)s32(r, o + 96), nx = (size_t)s32(r, o + 100);
            for (int k = 0; k < sm->numverts; k++) {
                uint8_t b = r->d[vi + (size_t)k];
                if (b >= m->numbones)
                    return fail(r, vi + (size_t)k, "expected vertex bone 0..%d, found %d", m->numbones - 1, b);
                m->vert_bone[sm->first_vert + k] = b;
                vec(r, vx + 12 * (size_t)k, m->verts[sm->first_vert + k]);
            }
            for (int k = 0; k < sm->numnorms; k++) {
                uint8_t b = r->d[ni + (size_t)k];
                if (b >= m->numbones)
                    return fail(r, ni + (size_t)k, "expected normal bone 0..%d, found %d", m->numbones - 1, b);
                m->norm_bone[sm->first_norm + k] = b;
                vec(r, nx + 12 * (size_t)k, m->norms[sm->first_norm + k]);
            }
            for (int k = 0; k < sm->nummesh; k++) {
                size_t mo = meshix + (size_t)k * MESH_SIZE;
                studio_mesh_t *me = &m->meshes[sm->first_mesh + k];
                int32_t triix = s32(r, mo + 4), n;
                me->skinref = s32(r, mo + 8);
                if (triix < 0)
                    return fail(r, mo + 4, "expected a triangle command offset, found %d", triix);
                if (mesh_cmds(r, (size_t)triix, sm, &n, NULL) < 0)
                    return -1;
                me->first = (int32_t)corners;
                me->count = n;
                corners += (size_t)n;
                if (corners > STUDIO_MAX_CORNERS)
                    return fail(r, mo, "expected at most %d triangle corners in all", STUDIO_MAX_CORNERS);
            }
        }
    m->numcorners = (int32_t)corners;
    m->corners = calloc(corners + 1, sizeof(*m->corners));
    if (!m->corners)
        return fail(r, 0, "expected memory for %zu triangle corners", corners);
    for (int i = 0; i < m->numbodyparts; i++)
        for (int j = 0; j < m->bodyparts[i].nummodels; j++) {
            size_t o = mix[i] + (size_t)j * SUBMODEL_SIZE;
            const studio_submodel_t *sm = &m->submodels[m->bodyparts[i].first_model + j];
            size_t meshix = (size_t)s32(r, o + 76);
            for (int k = 0; k < sm->nummesh; k++) {
                studio_mesh_t *me = &m->meshes[sm->first_mesh + k];
                int32_t n;
                if (mesh_cmds(r, (size_t)s32(r, meshix + (size_t)k * MESH_SIZE + 4), sm, &n, m->corners + me->first) < 0)
                    return -1;
            }
        }
    return 0;
}

int studio_load(studio_t *m, const uint8_t *data, size_t size, const char *path, const asset_files_t *files,
                const uint8_t *palette, char *err, size_t errcap)
{
    memset(m, 0, sizeof(*m));
    rd_t r = {data, size, path ? path : "studio", err, errcap};
    if (check_header(&r, "IDST", HDR_SIZE) < 0)
        return -1;
    name_at(&r, 8, 64, m->name);
    m->length = s32(&r, 72);
    vec(&r, 76, m->eye);
    vec(&r, 88, m->min);
    vec(&r, 100, m->max);
    vec(&r, 112, m->bbmin);
    vec(&r, 124, m->bbmax);
    m->flags = s32(&r, 136);
    if (load_bones(m, &r) < 0 || load_seqs(m, &r, r.name, files, size) < 0 || load_geometry(m, &r) < 0)
        goto fail;
    // a model without textures has them in "<name>t.mdl" (skin families too)
    uint8_t *tb = NULL;
    size_t tsz = 0;
    char tname[160];
    if (s32(&r, 180) == 0) {
        companion(r.name, -1, tname, sizeof tname);
        tb = asset_load(files, tname, &tsz);
    }
    if (tb) {
        rd_t tr = {tb, tsz, tname, err, errcap};
        int rc = check_header(&tr, "IDST", HDR_SIZE) < 0 ? -1 : load_textures(m, &tr, palette);
        free(tb);
        if (rc < 0)
            goto fail;
    } else if (load_textures(m, &r, palette) < 0) {
        goto fail;
    }
    for (int i = 0; i < m->nummeshes; i++)
        if (m->meshes[i].skinref < 0 || m->meshes[i].skinref >= (m->numskinref > 0 ? m->numskinref : 1))
            m->meshes[i].skinref = 0;   // a bad reference draws with the first texture, as the game would not crash
    return 0;
fail:
    studio_free(m);
    return -1;
}

// ---- pose --------------------------------------------------------------------------------

int studio_pose_alloc(const studio_t *m, studio_pose_t *p)
{
    memset(p, 0, sizeof(*p));
    size_t nb = (size_t)m->numbones + 1, nv = (size_t)m->numverts + 1, nn = (size_t)m->numnorms + 1;
    p->bones = calloc(nb, sizeof(*p->bones));
    p->verts = calloc(nv, sizeof(*p->verts));
    p->norms = calloc(nn, sizeof(*p->norms));
    p->pos = calloc(nb * 5, sizeof(*p->pos));     // four blends, and the gait's after the first
    p->quat = calloc(nb * 5, sizeof(*p->quat));
    if (!p->bones || !p->verts || !p->norms || !p->pos || !p->quat) {
        studio_pose_free(p);
        return -1;
    }
    p->cap_bones = m->numbones;
    p->cap_verts = m->numverts;
    p->cap_norms = m->numnorms;
    return 0;
}

void studio_pose_free(studio_pose_t *p)
{
    free(p->bones);
    free(p->verts);
    free(p->norms);
    free(p->pos);
    free(p->quat);
    memset(p, 0, sizeof(*p));
}

// Value of frame k of a checked run list (k below the frames it covers).
static int anim_value(const uint16_t *a, int k)
{
    for (;;) {
        int valid = a[0] & 0xFF, total = a[0] >> 8;
        if (k < total)
            return (int16_t)(k < valid ? a[1 + k] : a[valid]);
        k -= total;
        a += valid + 1;
    }
}

// Rotation about x (roll), then y (pitch), then z (yaw), in radians, as a quaternion (x, y, z, w).
static void euler_quat(const float *ang, float *q)
{
    float sr = sinf(ang[0] * 0.5f), cr = cosf(ang[0] * 0.5f);
    float sp = sinf(ang[1] * 0.5f), cp = cosf(ang[1] * 0.5f);
    float sy = sinf(ang[2] * 0.5f), cy = cosf(ang[2] * 0.5f);
    q[0] = sr * cp * cy - cr * sp * sy;
    q[1] = cr * sp * cy + sr * cp * sy;
    q[2] = cr * cp * sy - sr * sp * cy;
    q[3] = cr * cp * cy + sr * sp * sy;
}

static void slerp(const float *p, const float *q0, float t, float *out)
{
    float q[4] = {q0[0], q0[1], q0[2], q0[3]};
    float d = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
    if (d < 0) {   // the short way round
        for (int k = 0; k < 4; k++)
            q[k] = -q[k];
        d = -d;
    }
    float a = 1 - t, b = t;
    if (d < 0.9995f) {
        float om = acosf(d), so = sinf(om);
        a = sinf((1 - t) * om) / so;
        b = sinf(t * om) / so;
    }
    float len = 0;
    for (int k = 0; k < 4; k++) {
        out[k] = a * p[k] + b * q[k];
        len += out[k] * out[k];
    }
    len = len > 0 ? 1.0f / sqrtf(len) : 1.0f;
    for (int k = 0; k < 4; k++)
        out[k] *= len;
}

float studio_controller_value(const studio_t *m, int i, int value)
{
    if (i < 0 || i >= m->numcontrollers)
        return 0;
    const studio_controller_t *c = &m->controllers[i];
    float v;
    if (c->index == 4) {   // the mouth opens 0..64
        v = (float)value / 64.0f;
        v = v > 1 ? 1 : v < 0 ? 0 : v;
        return c->start + v * (c->end - c->start);
    }
    if (c->type & STUDIO_RLOOP)   // wraps: 256 steps a turn from start
        return (float)value * (360.0f / 256.0f) + c->start;
    v = (float)value / 255.0f;
    v = v > 1 ? 1 : v < 0 ? 0 : v;
    return c->start + v * (c->end - c->start);
}

// Controller adjustments (radians for rotations, units for moves) from the settings.
static void controller_adj(const studio_t *m, const uint8_t *ctl, float *adj)
{
    for (int i = 0; i < m->numcontrollers; i++) {
        const studio_controller_t *c = &m->controllers[i];
        float v = studio_controller_value(m, i, ctl[c->index]);
        adj[i] = (c->type & (STUDIO_XR | STUDIO_YR | STUDIO_ZR)) ? v * (float)(M_PI / 180.0) : v;
    }
}

// Positions and rotations of every bone for one blend of a sequence, frames f0/f1 mixed by s.
static void calc_blend(const studio_t *m, const studio_seq_t *sq, int blend, int f0, int f1, float s,
                       const float *adj, float (*pos)[3], float (*quat)[4])
{
    for (int b = 0; b < m->numbones; b++) {
        const studio_bone_t *bn = &m->bones[b];
        const int32_t *ch = sq->first_chan >= 0
                                ? m->chan + sq->first_chan + ((size_t)blend * (size_t)m->numbones + (size_t)b) * 6
                                : NULL;
        float v0[6], v1[6];
        for (int k = 0; k < 6; k++) {
            float a = bn->value[k], c = a;
            if (ch && ch[k] >= 0) {
                const uint16_t *run = m->anim + ch[k];
                a += (float)anim_value(run, f0) * bn->scale[k];
                c += (float)anim_value(run, f1) * bn->scale[k];
            }
            if (bn->controller[k] >= 0) {
                a += adj[bn->controller[k]];
                c += adj[bn->controller[k]];
            }
            v0[k] = a;
            v1[k] = c;
        }
        for (int k = 0; k < 3; k++)
            pos[b][k] = v0[k] + s * (v1[k] - v0[k]);
        float q0[4], q1[4];
        euler_quat(v0 + 3, q0);
        euler_quat(v1 + 3, q1);
        slerp(q0, q1, s, quat[b]);
    }
    // the game moves the entity along the sequence: the root motion itself is not drawn
    int mb = sq->motionbone;
    if (sq->motiontype & STUDIO_X)
        pos[mb][0] = 0;
    if (sq->motiontype & STUDIO_Y)
        pos[mb][1] = 0;
    if (sq->motiontype & STUDIO_Z)
        pos[mb][2] = 0;
}

// a = a..b by t (rotations along the sphere)
static void mix_bones(int nb, float (*pa)[3], float (*qa)[4], float (*pb)[3], float (*qb)[4], float t)
{
    for (int b = 0; b < nb; b++) {
        slerp(qa[b], qb[b], t, qa[b]);
        for (int k = 0; k < 3; k++)
            pa[b][k] += t * (pb[b][k] - pa[b][k]);
    }
}

static void quat_matrix(const float *q, const float *p, float m[3][4])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    m[0][0] = 1 - 2 * (y * y + z * z);
    m[0][1] = 2 * (x * y - w * z);
    m[0][2] = 2 * (x * z + w * y);
    m[1][0] = 2 * (x * y + w * z);
    m[1][1] = 1 - 2 * (x * x + z * z);
    m[1][2] = 2 * (y * z - w * x);
    m[2][0] = 2 * (x * z - w * y);
    m[2][1] = 2 * (y * z + w * x);
    m[2][2] = 1 - 2 * (x * x + y * y);
    for (int k = 0; k < 3; k++)
        m[k][3] = p[k];
}

static void concat(const float a[3][4], const float b[3][4], float out[3][4])
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++)
            out[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
        out[i][3] += a[i][3];
    }
}

const studio_submodel_t *studio_body_model(const studio_t *m, int part, int body)
{
    if (part < 0 || part >= m->numbodyparts || m->bodyparts[part].nummodels < 1)
        return NULL;
    const studio_bodypart_t *b = &m->bodyparts[part];
    unsigned idx = ((unsigned)(body < 0 ? 0 : body) / (unsigned)b->base) % (unsigned)b->nummodels;
    return &m->submodels[b->first_model + (int)idx];
}

const studio_texture_t *studio_skin_texture(const studio_t *m, int skin, int skinref)
{
    if (m->numtextures < 1)
        return NULL;
    if (m->numskinref < 1 || m->numskinfamilies < 1)
        return &m->textures[skinref >= 0 && skinref < m->numtextures ? skinref : 0];
    if (skin < 0 || skin >= m->numskinfamilies)
        skin = 0;
    if (skinref < 0 || skinref >= m->numskinref)
        skinref = 0;
    return &m->textures[m->skinrefs[skin * m->numskinref + skinref]];
}

int studio_events_between(const studio_t *m, int seq, float from, float to, const studio_event_t **out, int max)
{
    if (seq < 0 || seq >= m->numseq)
        return 0;
    const studio_seq_t *s = &m->seqs[seq];
    int n = 0;
    for (int i = 0; i < s->numevents && n < max; i++) {
        const studio_event_t *e = &m->events[s->first_event + i];
        if ((float)e->frame > from && (float)e->frame <= to)
            out[n++] = e;
    }
    return n;
}

float studio_frame(const studio_t *m, int seq, float frame_byte, double elapsed, float framerate)
{
    if (m->numseq < 1)
        return 0;
    const studio_seq_t *s = &m->seqs[seq >= 0 && seq < m->numseq ? seq : 0];
    if (s->numframes <= 1)
        return 0;
    float last = (float)(s->numframes - 1);
    double f = (double)frame_byte * last / 256.0;
    if (elapsed > 0 && isfinite(elapsed) && isfinite(framerate))
        f += elapsed * framerate * s->fps;
    if (!isfinite(f))
        f = 0;
    if (s->flags & STUDIO_LOOPING) {
        f = fmod(f, last);
        if (f < 0)
            f += last;
    } else {
        if (f > last - 0.001)
            f = last - 0.001;
        if (f < 0)
            f = 0;
    }
    return (float)f;
}

// Positions and rotations of a sequence at `frame`, its blends mixed by blend[0..1], into pos/quat
// (scratch: the three slots after them).
static void calc_seq(const studio_t *m, const studio_seq_t *sq, float frame, const float *blend, const float *adj,
                     float (*pos)[3], float (*quat)[4])
{
    int nb = m->numbones;
    float last = (float)(sq->numframes - 1);
    if (!(frame >= 0) || frame > last)   // past the end: frame 0, as the game's CalcRotations
        frame = 0;
    int f0 = (int)frame, f1 = f0 + 1 < sq->numframes ? f0 + 1 : f0;
    float s = frame - (float)f0;
    calc_blend(m, sq, 0, f0, f1, s, adj, pos, quat);
    if (sq->numblends < 2)
        return;
    calc_blend(m, sq, 1, f0, f1, s, adj, pos + nb, quat + nb);
    float b0 = blend[0] / 255.0f, b1 = blend[1] / 255.0f;
    b0 = b0 > 0 ? (b0 < 1 ? b0 : 1) : 0;
    b1 = b1 > 0 ? (b1 < 1 ? b1 : 1) : 0;
    mix_bones(nb, pos, quat, pos + nb, quat + nb, b0);
    if (sq->numblends >= 4) {   // a second pair, mixed the same way, then the pairs by blend[1]
        calc_blend(m, sq, 2, f0, f1, s, adj, pos + 2 * nb, quat + 2 * nb);
        calc_blend(m, sq, 3, f0, f1, s, adj, pos + 3 * nb, quat + 3 * nb);
        mix_bones(nb, pos + 2 * nb, quat + 2 * nb, pos + 3 * nb, quat + 3 * nb, b0);
        mix_bones(nb, pos, quat, pos + 2 * nb, quat + 2 * nb, b1);
    }
}

void studio_pose(const studio_t *m, studio_pose_t *p, int seq, float frame, float blend, const uint8_t *ctl, int body)
{
    studio_anim_t a = {seq, frame, {blend, 0}, ctl, body, 0, 0};
    studio_pose_anim(m, p, &a);
}

int studio_attachment(const studio_t *m, const studio_pose_t *p, int n, float out[3])
{
    if (n < 0 || n >= m->numattachments || p->cap_bones < m->numbones) {
        out[0] = out[1] = out[2] = 0;
        return -1;
    }
    const float(*bm)[4] = (const float(*)[4])p->bones[m->attach_bone[n]];
    const float *v = m->attach[n];
    for (int k = 0; k < 3; k++)
        out[k] = bm[k][0] * v[0] + bm[k][1] * v[1] + bm[k][2] * v[2] + bm[k][3];
    return 0;
}

void studio_pose_anim(const studio_t *m, studio_pose_t *p, const studio_anim_t *an)
{
    if (p->cap_bones < m->numbones || p->cap_verts < m->numverts || p->cap_norms < m->numnorms)
        return;
    const uint8_t *ctl = an->ctl ? an->ctl : m->default_ctl;
    int body = an->body;
    float adj[65] = {0};
    controller_adj(m, ctl, adj);
    studio_seq_t none = {0};
    none.numframes = 1;
    none.numblends = 1;
    none.first_chan = -1;
    int seq = an->seq;
    const studio_seq_t *sq = m->numseq > 0 ? &m->seqs[seq >= 0 && seq < m->numseq ? seq : 0] : &none;
    int nb = m->numbones;
    calc_seq(m, sq, an->frame, an->blend, adj, p->pos, p->quat);
    if (an->gaitseq > 0 && an->gaitseq < m->numseq) {   // the legs from the gait sequence
        static const float no_blend[2] = {0, 0};
        const studio_seq_t *gs = &m->seqs[an->gaitseq];
        calc_seq(m, gs, an->gaitframe, no_blend, adj, p->pos + nb, p->quat + nb);
        for (int b = 0; b < nb; b++)
            if (m->gait_bone[b]) {
                memcpy(p->pos[b], p->pos[nb + b], sizeof(p->pos[b]));
                memcpy(p->quat[b], p->quat[nb + b], sizeof(p->quat[b]));
            }
    }
    for (int b = 0; b < nb; b++) {
        float local[3][4];
        quat_matrix(p->quat[b], p->pos[b], local);
        int par = m->bones[b].parent;
        if (par < 0)
            memcpy(p->bones[b], local, sizeof(local));
        else
            concat((const float(*)[4])p->bones[par], (const float(*)[4])local, p->bones[b]);
    }
    for (int part = 0; part < m->numbodyparts; part++) {
        const studio_submodel_t *sm = studio_body_model(m, part, body);
        if (!sm)
            continue;
        for (int i = sm->first_vert; i < sm->first_vert + sm->numverts; i++) {
            const float(*bm)[4] = (const float(*)[4])p->bones[m->vert_bone[i]];
            const float *v = m->verts[i];
            for (int k = 0; k < 3; k++)
                p->verts[i][k] = bm[k][0] * v[0] + bm[k][1] * v[1] + bm[k][2] * v[2] + bm[k][3];
        }
        for (int i = sm->first_norm; i < sm->first_norm + sm->numnorms; i++) {
            const float(*bm)[4] = (const float(*)[4])p->bones[m->norm_bone[i]];
            const float *n = m->norms[i];
            float o[3], len = 0;
            for (int k = 0; k < 3; k++) {
                o[k] = bm[k][0] * n[0] + bm[k][1] * n[1] + bm[k][2] * n[2];
                len += o[k] * o[k];
            }
            len = len > 1e-12f ? 1.0f / sqrtf(len) : 0.0f;
            for (int k = 0; k < 3; k++)
                p->norms[i][k] = o[k] * len;
        }
    }
}
