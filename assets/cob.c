// cob.c -- Forsaken .COB (componented objects) and .BGO (a level's background objects)
#include "cob.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"

#define COB_MAGIC 0x584a5250u    // "PRJX"
#define COB_VERSION 2
#define BGO_VERSION 3

static uint32_t u32(asset_rd_t *r)
{
    const uint8_t *p = r->d + r->at;
    r->at += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int s16(asset_rd_t *r)
{
    const uint8_t *p = r->d + r->at;
    r->at += 2;
    return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

static float f32(asset_rd_t *r)
{
    uint32_t u = u32(r);
    float f;
    memcpy(&f, &u, 4);
    return isfinite(f) && fabsf(f) < 1e9f ? f : 0.0f;   // hostile values become 0
}

// A NUL-terminated printable name of 1..COB_NAME_LEN-1 characters.
static int name_at(asset_rd_t *r, char *out, const char *what)
{
    size_t start = r->at, i = 0;
    while (r->at < r->n && r->d[r->at]) {
        uint8_t c = r->d[r->at];
        if (c < 32 || c > 126 || i + 1 >= COB_NAME_LEN)
            return asset_rd_fail(r, start, "%s", what);
        out[i++] = (char)c;
        r->at++;
    }
    if (r->at >= r->n || i == 0)
        return asset_rd_fail(r, start, "%s", what);
    out[i] = 0;
    r->at++;
    return 0;
}

static int header(asset_rd_t *r, uint32_t version)
{
    if (asset_rd_need(r, 1, 10, "the PRJX header") < 0)
        return -1;
    if (u32(r) != COB_MAGIC)
        return asset_rd_fail(r, 0, "PRJX");
    size_t at = r->at;
    uint32_t v = u32(r);
    if (v != version)
        return asset_rd_fail(r, at, "version %u, got %u", version, v);
    return 0;
}

// ---- .COB ----

static int grow(void **p, int *cap, int want, size_t elem)
{
    if (want <= *cap)
        return 0;
    int nc = *cap ? *cap * 2 : 16;
    while (nc < want)
        nc *= 2;
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

typedef struct {
    cob_t *c;
    int comp_cap, trans_cap;
    float mid_file;              // the open state's start (file seconds), 0 none
} cob_ld_t;

static int load_trans(asset_rd_t *r, cob_ld_t *L, cob_trans_t *t)
{
    size_t at = r->at;
    if (asset_rd_need(r, 1, 10, "a transform") < 0)
        return -1;
    t->type = s16(r);
    float start = f32(r), dur = f32(r);
    t->start = start * COB_ANIM_SECOND;
    t->duration = dur * COB_ANIM_SECOND;
    if (start + dur > L->c->overall_time)
        L->c->overall_time = start + dur;   // in file seconds until the end
    switch (t->type) {
    case COB_TRANSLATE:
        if (asset_rd_need(r, 1, 14, "a translation") < 0)
            return -1;
        for (int k = 0; k < 3; k++)
            t->v[k] = f32(r);
        t->local = s16(r);
        break;
    case COB_ROTATE:
        if (asset_rd_need(r, 1, 30, "a rotation") < 0)
            return -1;
        for (int k = 0; k < 3; k++)
            t->v[k] = f32(r);
        for (int k = 0; k < 3; k++)
            t->origin[k] = -f32(r);
        t->angle = f32(r) * (float)(3.14159265358979323846 / 180.0);
        t->local = s16(r);
        break;
    case COB_MORPH:
        break;
    case COB_PROPERTY:
        if (asset_rd_need(r, 1, 2, "a property type") < 0)
            return -1;
        t->prop_type = s16(r);
        if (t->prop_type == 1) {   // a sound: its name
            char snd[COB_NAME_LEN];
            if (name_at(r, snd, "a sound name") < 0)
                return -1;
        } else {
            if (asset_rd_need(r, 1, 2, "a property value") < 0)
                return -1;
            t->prop_value = s16(r);
            if (t->prop_type == 0 && t->prop_value == 1)   // PROPSTATE_Open: the door is open from here
                L->mid_file = start;
        }
        break;
    default:
        return asset_rd_fail(r, at, "a transform type 0..3, got %d", t->type);
    }
    return 0;
}

static int load_zones(asset_rd_t *r, int count)
{
    for (int z = 0; z < count; z++) {
        if (asset_rd_need(r, 1, 32, "a collision zone") < 0)
            return -1;
        int type = s16(r);
        r->at += 30;   // sensitive, damage, centre, half size
        if (type == 1 || type == 2) {   // box, polygonal: their sides
            size_t at = r->at;
            if (asset_rd_need(r, 1, 2, "a side count") < 0)
                return -1;
            int sides = s16(r);
            if (sides < 0 || (size_t)sides * 22 > r->n - r->at)
                return asset_rd_fail(r, at, "%d zone sides (22 bytes each), file has %zu left", sides, r->n - r->at);
            r->at += (size_t)sides * 22;
        }
    }
    return 0;
}

static int load_comps(asset_rd_t *r, cob_ld_t *L, int count, int parent, int depth)
{
    cob_t *c = L->c;
    if (depth >= COB_MAX_DEPTH)
        return asset_rd_fail(r, r->at, "components at most 32 deep");
    for (int i = 0; i < count; i++) {
        size_t at = r->at;
        if (asset_rd_need(r, 1, 8, "a component") < 0)
            return -1;
        if (c->num_comps >= COB_MAX_COMPS)
            return asset_rd_fail(r, at, "at most 256 components");
        if (grow((void **)&c->comps, &L->comp_cap, c->num_comps + 1, sizeof *c->comps) < 0)
            return asset_rd_fail(r, at, "memory for the components");
        int me = c->num_comps++;
        cob_comp_t *cp = &c->comps[me];
        memset(cp, 0, sizeof *cp);
        cp->parent = parent;
        cp->depth = depth;
        cp->model = s16(r);
        if (cp->model < -1 || cp->model >= c->num_models)
            return asset_rd_fail(r, at, "a model number -1..%d, got %d", c->num_models - 1, cp->model);
        at = r->at;
        int nt = s16(r);
        if (nt < 0 || (size_t)nt * 10 > r->n - r->at || c->num_trans + nt > COB_MAX_TRANS)
            return asset_rd_fail(r, at, "a transform count 0..%zu, got %d", (r->n - r->at) / 10, nt);
        if (grow((void **)&c->trans, &L->trans_cap, c->num_trans + nt, sizeof *c->trans) < 0)
            return asset_rd_fail(r, at, "memory for the transforms");
        c->comps[me].first_trans = c->num_trans;
        c->comps[me].num_trans = nt;
        int morphs = 0;
        for (int k = 0; k < nt; k++) {
            cob_trans_t *t = &c->trans[c->num_trans++];
            memset(t, 0, sizeof *t);
            if (load_trans(r, L, t) < 0)
                return -1;
            if (t->type == COB_MORPH)   // the game numbers a component's morphs 1, 2, ... (its frames)
                t->frame = ++morphs;
        }
        at = r->at;
        if (asset_rd_need(r, 1, 2, "a collision zone count") < 0)
            return -1;
        int nz = s16(r);
        if (nz < 0 || (size_t)nz * 32 > r->n - r->at)
            return asset_rd_fail(r, at, "a collision zone count 0..%zu, got %d", (r->n - r->at) / 32, nz);
        c->comps[me].num_zones = nz;
        c->num_zones += nz;
        if (load_zones(r, nz) < 0)
            return -1;
        at = r->at;
        if (asset_rd_need(r, 1, 2, "a child count") < 0)
            return -1;
        int nc = s16(r);
        if (nc < 0 || (size_t)nc * 8 > r->n - r->at)
            return asset_rd_fail(r, at, "a child count 0..%zu, got %d", (r->n - r->at) / 8, nc);
        if (load_comps(r, L, nc, me, depth + 1) < 0)
            return -1;
    }
    return 0;
}

cob_t *cob_load(const uint8_t *d, size_t n, const char *name, char *err, size_t cap)
{
    asset_rd_t r = { d, d ? n : 0, 0, name ? name : "cob", err, cap, 0 };
    if (header(&r, COB_VERSION) < 0)
        return NULL;
    cob_t *c = calloc(1, sizeof *c);
    if (!c) {
        asset_rd_fail(&r, 0, "memory for the object");
        return NULL;
    }
    size_t at = r.at;
    int nm = s16(&r);
    if (nm < 0 || nm > COB_MAX_MODELS || (size_t)nm * 2 > r.n - r.at) {
        asset_rd_fail(&r, at, "a model count 0..%d, got %d", COB_MAX_MODELS, nm);
        goto bad;
    }
    c->num_models = nm;
    for (int i = 0; i < nm; i++)
        if (name_at(&r, c->model_names[i], "a printable model file name") < 0)
            goto bad;
    cob_ld_t L = { c, 0, 0, 0 };
    if (load_comps(&r, &L, 1, -1, 0) < 0)
        goto bad;
    c->overall_time *= COB_ANIM_SECOND;
    c->mid_time = L.mid_file != 0 ? L.mid_file * COB_ANIM_SECOND : c->overall_time * 0.5f;
    c->end = r.at;
    return c;
bad:
    cob_free(c);
    return NULL;
}

void cob_free(cob_t *c)
{
    if (!c)
        return;
    free(c->comps);
    free(c->trans);
    free(c);
}

// ---- posing ----

typedef float m3_t[3][3];   // m[row][col]; applied to column vectors

static void m_apply(const m3_t m, const float v[3], float o[3])
{
    float r[3];
    for (int i = 0; i < 3; i++)
        r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    memcpy(o, r, sizeof r);
}

static void m_mul(const m3_t a, const m3_t b, m3_t o)
{
    m3_t r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(o, r, sizeof r);
}

static void m_axis_angle(const float axis[3], float angle, m3_t m)
{
    float l = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    float x = 0, y = 1, z = 0;
    if (l > 1e-6f) {
        x = axis[0] / l;
        y = axis[1] / l;
        z = axis[2] / l;
    }
    float c = cosf(angle), s = sinf(angle), t = 1 - c;
    m[0][0] = t * x * x + c;     m[0][1] = t * x * y - s * z; m[0][2] = t * x * z + s * y;
    m[1][0] = t * x * y + s * z; m[1][1] = t * y * y + c;     m[1][2] = t * y * z - s * x;
    m[2][0] = t * x * z - s * y; m[2][1] = t * y * z + s * x; m[2][2] = t * z * z + c;
}

void cob_pose(const cob_t *c, float time, const float pos[3], const float axes[3][3], float (*out_pos)[3],
              float (*out_axes)[3][3])
{
    // the object's matrix: columns are its axes
    m3_t top;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            top[i][j] = axes[j][i];
    m3_t disp[COB_MAX_COMPS];   // no allocation: this runs every drawn frame
    for (int i = 0; i < c->num_comps; i++) {
        const cob_comp_t *cp = &c->comps[i];
        const float *ppos = cp->parent < 0 ? pos : out_pos[cp->parent];
        const float(*pm)[3] = cp->parent < 0 ? (const float(*)[3])top : (const float(*)[3])disp[cp->parent];
        m3_t local = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
        float np[3] = { 0, 0, 0 };
        for (int k = 0; k < cp->num_trans; k++) {
            const cob_trans_t *t = &c->trans[cp->first_trans + k];
            if (!(time >= t->start))
                continue;
            float end = t->start + t->duration;
            float scale = time < end && t->duration > 0 ? (time - t->start) / t->duration : 1.0f;
            if (t->type == COB_TRANSLATE) {
                for (int a = 0; a < 3; a++)
                    np[a] += t->v[a] * scale;
            } else if (t->type == COB_ROTATE) {
                float o0[3], axis[3], o1[3];
                m3_t rot;
                m_apply((const float(*)[3])local, t->origin, o0);
                if (t->local)
                    m_apply((const float(*)[3])local, t->v, axis);
                else
                    memcpy(axis, t->v, sizeof axis);
                m_axis_angle(axis, t->angle * scale, rot);
                m_mul((const float(*)[3])rot, (const float(*)[3])local, local);
                m_apply((const float(*)[3])local, t->origin, o1);
                for (int a = 0; a < 3; a++)
                    np[a] += o1[a] - o0[a];
            }
        }
        m_apply(pm, np, out_pos[i]);
        for (int a = 0; a < 3; a++)
            out_pos[i][a] += ppos[a];
        m_mul(pm, (const float(*)[3])local, disp[i]);
        for (int a = 0; a < 3; a++)   // axes[a] = column a
            for (int b = 0; b < 3; b++)
                out_axes[i][a][b] = disp[i][b][a];
    }
}

void cob_morph(const cob_t *c, int comp, float time, int *frame, int *interp_frame, float *interp_time)
{
    *frame = *interp_frame = 0;
    *interp_time = 0;
    if (!c || comp < 0 || comp >= c->num_comps)
        return;
    const cob_comp_t *cp = &c->comps[comp];
    for (int k = 0; k < cp->num_trans; k++) {
        const cob_trans_t *t = &c->trans[cp->first_trans + k];
        if (t->type != COB_MORPH || !(time >= t->start))
            continue;
        float end = t->start + t->duration;
        float scale = time < end && t->duration > 0 ? (time - t->start) / t->duration : 1.0f;
        if (scale != 1.0f) {   // under way: towards its frame
            *interp_frame = t->frame;
            *interp_time = scale;
        } else {               // done: its frame is the pose
            *frame = t->frame;
        }
    }
}

void cob_axes_from_dir_up(const float dir[3], const float up[3], float axes[3][3])
{
    float z[3] = { dir[0], dir[1], dir[2] }, y[3] = { up[0], up[1], up[2] }, x[3];
    float lz = sqrtf(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
    x[0] = y[1] * z[2] - y[2] * z[1];
    x[1] = y[2] * z[0] - y[0] * z[2];
    x[2] = y[0] * z[1] - y[1] * z[0];
    float lx = sqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    if (!(lz > 1e-6f) || !(lx > 1e-6f) || !isfinite(lx) || !isfinite(lz)) {
        static const float id[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
        memcpy(axes, id, sizeof id);
        return;
    }
    for (int a = 0; a < 3; a++) {
        z[a] /= lz;
        x[a] /= lx;
    }
    y[0] = z[1] * x[2] - z[2] * x[1];
    y[1] = z[2] * x[0] - z[0] * x[2];
    y[2] = z[0] * x[1] - z[1] * x[0];
    memcpy(axes[0], x, sizeof x);
    memcpy(axes[1], y, sizeof y);
    memcpy(axes[2], z, sizeof z);
}

// ---- .BGO ----

int bgo_load(const uint8_t *d, size_t n, const char *name, bgo_list_t *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    asset_rd_t r = { d, d ? n : 0, 0, name ? name : "bgo", err, cap, 0 };
    if (header(&r, BGO_VERSION) < 0)
        return -1;
    size_t at = r.at;
    if (asset_rd_need(&r, 1, 2, "an object count") < 0)
        return -1;
    int count = s16(&r);
    // each entry is at least a 2-byte name, type, group and nine floats (42 bytes)
    if (count < 0 || count > BGO_MAX || (size_t)count * 42 > r.n - r.at)
        return asset_rd_fail(&r, at, "an object count 0..%d, got %d", BGO_MAX, count);
    out->e = calloc((size_t)(count ? count : 1), sizeof *out->e);
    if (!out->e)
        return asset_rd_fail(&r, at, "memory for %d objects", count);
    for (int i = 0; i < count; i++) {
        bgo_entry_t *e = &out->e[i];
        if (name_at(&r, e->cob, "a printable .COB file name") < 0 || asset_rd_need(&r, 1, 40, "an object's placement") < 0)
            goto bad;
        e->type = s16(&r);
        e->group = s16(&r);
        for (int k = 0; k < 3; k++)
            e->pos[k] = f32(&r);
        for (int k = 0; k < 3; k++)
            e->dir[k] = f32(&r);
        for (int k = 0; k < 3; k++)
            e->up[k] = f32(&r);
        e->open_event = e->close_event = e->shot_event = e->bump_event = e->end_event = -1;
        e->pickup_needed = -1;
        switch (e->type) {
        case BGO_DOOR:
            if (asset_rd_need(&r, 1, 18, "a door's fields") < 0)
                goto bad;
            e->open_event = s16(&r);
            e->close_event = s16(&r);
            e->shot_event = s16(&r);
            e->bump_event = s16(&r);
            e->pickup_needed = (int32_t)u32(&r);
            e->opened_by = s16(&r);
            e->locked = s16(&r);
            e->sfx_type = s16(&r);
            break;
        case BGO_LOOPING:
        case BGO_ONEOFF:
            if (asset_rd_need(&r, 1, e->type == BGO_ONEOFF ? 14 : 12, "an animation's fields") < 0)
                goto bad;
            e->shot_event = s16(&r);
            e->bump_event = s16(&r);
            e->end_event = s16(&r);
            e->gen_type = s16(&r);
            e->delay = f32(&r);
            if (e->type == BGO_ONEOFF)
                e->destroy_at_end = s16(&r);
            break;
        case BGO_MULTISTEP:
            if (asset_rd_need(&r, 1, 16, "a multi-step animation's fields") < 0)
                goto bad;
            e->shot_event = s16(&r);
            e->bump_event = s16(&r);
            e->end_event = s16(&r);
            e->destroy_at_end = s16(&r);
            e->opened_by = s16(&r);
            e->num_intervals = (uint16_t)s16(&r);
            e->damage_per_interval = f32(&r);
            break;
        default:   // static, sequences, unknown: the game reads nothing more
            break;
        }
        out->num = i + 1;
    }
    return 0;
bad:
    bgo_free(out);
    return -1;
}

void bgo_free(bgo_list_t *l)
{
    free(l->e);
    l->e = NULL;
    l->num = 0;
}
