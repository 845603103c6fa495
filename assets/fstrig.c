// fstrig.c -- Forsaken's level triggers (.TRG) and trigger areas (.ZON): see fstrig.h
#include "fstrig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"

static int rd_s32(asset_rd_t *r, const char *what, int32_t *out)
{
    if (asset_rd_need(r, 1, 4, what) < 0)
        return -1;
    *out = asset_s32(r->d + r->at);
    r->at += 4;
    return 0;
}

static int rd_f32(asset_rd_t *r, const char *what, float *out)
{
    if (asset_rd_need(r, 1, 4, what) < 0)
        return -1;
    float v = asset_f32(r->d + r->at);
    if (!isfinite(v) || fabsf(v) > 1e9f)
        return asset_rd_fail(r, r->at, "%s, a finite number", what);
    *out = v;
    r->at += 4;
    return 0;
}

// "PRJX" and the version.
static int header(asset_rd_t *r, uint32_t version)
{
    if (asset_rd_need(r, 1, 8, "the PRJX header") < 0)
        return -1;
    if (memcmp(r->d, "PRJX", 4) != 0)
        return asset_rd_fail(r, 0, "the magic PRJX");
    uint32_t v = asset_u32(r->d + 4);
    if (v != version)
        return asset_rd_fail(r, 4, "version %u, found %u", version, v);
    r->at = 8;
    return 0;
}

// ---- .TRG ----

// A count (s32) and that many indices below `limit` into t->idx; its place in *first, *count.
static int index_list(asset_rd_t *r, fstrg_t *t, int limit, const char *what, int *first, int *count)
{
    size_t at = r->at;
    int32_t n;
    if (rd_s32(r, "a count", &n) < 0)
        return -1;
    if (n < 0 || n > FSTRG_MAX_ITEMS)
        return asset_rd_fail(r, at, "a count of %s 0..%d, found %d", what, FSTRG_MAX_ITEMS, n);
    if (asset_rd_need(r, (size_t)n, 4, what) < 0)
        return -1;
    int *q = realloc(t->idx, (size_t)(t->num_idx + n + 1) * sizeof *q);
    if (!q)
        return asset_rd_fail(r, at, "memory for %d indices", n);
    t->idx = q;
    *first = t->num_idx;
    *count = n;
    for (int i = 0; i < n; i++) {
        int32_t v = asset_s32(r->d + r->at);
        if (v < 0 || v >= limit)
            return asset_rd_fail(r, r->at, "one of %d %s (0..%d), found %d", limit, what, limit - 1, v);
        t->idx[t->num_idx++] = v;
        r->at += 4;
    }
    return 0;
}

fstrg_t *fstrg_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap)
{
    asset_rd_t r = { data, data ? size : 0, 0, name ? name : "trg", err, cap, 0 };
    if (err && cap)
        err[0] = 0;
    fstrg_t *t = calloc(1, sizeof *t);
    if (!t) {
        asset_rd_fail(&r, 0, "memory for the triggers");
        return NULL;
    }
    if (header(&r, 1) < 0)
        goto bad;
    int32_t counts[5];
    static const char *const names[5] = { "variables", "triggers", "mods", "events", "conditions" };
    for (int i = 0; i < 5; i++) {
        size_t at = r.at;
        if (rd_s32(&r, "a count", &counts[i]) < 0)
            goto bad;
        if (counts[i] < 0 || counts[i] > FSTRG_MAX_ITEMS) {
            asset_rd_fail(&r, at, "a count of %s 0..%d, found %d", names[i], FSTRG_MAX_ITEMS, counts[i]);
            goto bad;
        }
    }
    // the smallest each item can be (no indices): a count the file cannot hold is refused at once
    size_t least = (size_t)counts[0] * 40 + (size_t)counts[1] * 13 + (size_t)counts[2] * 20 + (size_t)counts[3] * 65 +
                   (size_t)counts[4] * 8;
    if (least > r.n - r.at) {
        asset_rd_fail(&r, 8, "counts whose lists fit the file (at least %zu bytes), file has %zu left", least,
                      r.n - r.at);
        goto bad;
    }
    t->num_vars = counts[0];
    t->num_triggers = counts[1];
    t->num_mods = counts[2];
    t->num_events = counts[3];
    t->num_conds = counts[4];
    t->vars = calloc((size_t)t->num_vars + 1, sizeof *t->vars);
    t->triggers = calloc((size_t)t->num_triggers + 1, sizeof *t->triggers);
    t->mods = calloc((size_t)t->num_mods + 1, sizeof *t->mods);
    t->events = calloc((size_t)t->num_events + 1, sizeof *t->events);
    t->conds = calloc((size_t)t->num_conds + 1, sizeof *t->conds);
    if (!t->vars || !t->triggers || !t->mods || !t->events || !t->conds) {
        asset_rd_fail(&r, 8, "memory for the lists");
        goto bad;
    }
    for (int i = 0; i < t->num_vars; i++) {
        fstrg_var_t *v = &t->vars[i];
        if (asset_rd_need(&r, 1, FSTRG_NAME_LEN, "a variable's 32-byte name") < 0)
            goto bad;
        memcpy(v->name, r.d + r.at, FSTRG_NAME_LEN);
        v->name[FSTRG_NAME_LEN - 1] = 0;
        r.at += FSTRG_NAME_LEN;
        if (rd_s32(&r, "a variable's initial state", &v->init) < 0 ||
            index_list(&r, t, t->num_triggers, "triggers", &v->first, &v->count) < 0)
            goto bad;
    }
    for (int i = 0; i < t->num_triggers; i++) {
        fstrg_trigger_t *g = &t->triggers[i];
        if (asset_rd_need(&r, 1, 1, "a trigger's type") < 0)
            goto bad;
        g->type = r.d[r.at];
        if (g->type >= FSTRG_TRIGGER_TYPES) {
            asset_rd_fail(&r, r.at, "a trigger type 0..%d, found %d", FSTRG_TRIGGER_TYPES - 1, g->type);
            goto bad;
        }
        r.at++;
        size_t at = r.at;
        int32_t var;
        if (rd_s32(&r, "a trigger's variable", &var) < 0)
            goto bad;
        if (var < 0 || var >= t->num_vars) {
            asset_rd_fail(&r, at, "one of %d variables, found %d", t->num_vars, var);
            goto bad;
        }
        g->var = var;
        if (rd_s32(&r, "a trigger's active state", &g->active_state) < 0 ||
            index_list(&r, t, t->num_conds, "conditions", &g->first, &g->count) < 0)
            goto bad;
    }
    for (int i = 0; i < t->num_mods; i++) {
        fstrg_mod_t *m = &t->mods[i];
        size_t at = r.at;
        int32_t op, var, next;
        if (rd_s32(&r, "a mod's op", &op) < 0)
            goto bad;
        if (op < 0 || op >= FSTRG_OPS) {
            asset_rd_fail(&r, at, "a mod op 0..%d, found %d", FSTRG_OPS - 1, op);
            goto bad;
        }
        at = r.at;
        if (rd_s32(&r, "a mod's variable", &var) < 0)
            goto bad;
        if (var < 0 || var >= t->num_vars) {
            asset_rd_fail(&r, at, "one of %d variables, found %d", t->num_vars, var);
            goto bad;
        }
        if (rd_s32(&r, "a mod's value", &m->value) < 0 || rd_f32(&r, "a mod's delay", &m->delay) < 0)
            goto bad;
        at = r.at;
        if (rd_s32(&r, "a mod's next", &next) < 0)
            goto bad;
        if (next < -1 || next >= t->num_mods) {
            asset_rd_fail(&r, at, "-1 or one of %d mods, found %d", t->num_mods, next);
            goto bad;
        }
        m->op = op;
        m->var = var;
        m->next = next;
    }
    for (int i = 0; i < t->num_events; i++) {
        fstrg_event_t *e = &t->events[i];
        if (asset_rd_need(&r, 1, 1 + FSTRG_EVENT_DATA, "an event (type and 64 bytes)") < 0)
            goto bad;
        e->type = r.d[r.at];
        if (e->type >= FSTRG_EVENT_TYPES) {
            asset_rd_fail(&r, r.at, "an event type 0..%d, found %d", FSTRG_EVENT_TYPES - 1, e->type);
            goto bad;
        }
        memcpy(e->data, r.d + r.at + 1, FSTRG_EVENT_DATA);
        r.at += 1 + FSTRG_EVENT_DATA;
    }
    for (int i = 0; i < t->num_conds; i++) {
        fstrg_cond_t *c = &t->conds[i];
        if (index_list(&r, t, t->num_triggers, "triggers", &c->trig_first, &c->trig_count) < 0 ||
            index_list(&r, t, t->num_events, "events", &c->ev_first, &c->ev_count) < 0)
            goto bad;
    }
    // a mod chain that loops would run for ever: every chain must end within num_mods steps
    for (int i = 0; i < t->num_mods; i++) {
        int k = i, steps = 0;
        while (k >= 0 && steps <= t->num_mods) {
            k = t->mods[k].next;
            steps++;
        }
        if (k >= 0) {
            asset_rd_fail(&r, FSTRG_HEADER, "mod chains that end (mod %d's goes round)", i);
            goto bad;
        }
    }
    t->end = r.at;
    return t;
bad:
    fstrg_free(t);
    return NULL;
}

void fstrg_free(fstrg_t *t)
{
    if (!t)
        return;
    free(t->vars);
    free(t->triggers);
    free(t->mods);
    free(t->events);
    free(t->conds);
    free(t->idx);
    free(t);
}

// ---- .ZON ----

fszon_t *fszon_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap)
{
    asset_rd_t r = { data, data ? size : 0, 0, name ? name : "zon", err, cap, 0 };
    if (err && cap)
        err[0] = 0;
    fszon_t *z = calloc(1, sizeof *z);
    if (!z) {
        asset_rd_fail(&r, 0, "memory for the areas");
        return NULL;
    }
    int count;
    if (header(&r, 2) < 0 || asset_rd_u16(&r, "an area count", &count) < 0)
        goto bad;
    // an area is at least 46 bytes (a sphere): a count the file cannot hold is refused before allocating
    if (asset_rd_need(&r, (size_t)count, 46, "areas") < 0)
        goto bad;
    z->areas = calloc((size_t)count + 1, sizeof *z->areas);
    if (!z->areas) {
        asset_rd_fail(&r, 8, "memory for %d areas", count);
        goto bad;
    }
    z->count = count;
    int side_cap = 0;
    for (int i = 0; i < count; i++) {
        fszon_area_t *a = &z->areas[i];
        int shape;
        if (asset_rd_u16(&r, "an area's group", &a->group) < 0 ||
            asset_rd_u16(&r, "an area's generation type", &a->gen_type) < 0 ||
            rd_f32(&r, "an area's generation delay", &a->gen_delay) < 0)
            goto bad;
        size_t at = r.at;
        if (asset_rd_u16(&r, "an area's shape", &shape) < 0)
            goto bad;
        if (shape > FSZON_HULL) {
            asset_rd_fail(&r, at, "an area shape 0..2 (sphere, box, hull), found %d", shape);
            goto bad;
        }
        a->shape = shape;
        for (int k = 0; k < 3; k++)
            if (rd_f32(&r, "an area's position", &a->pos[k]) < 0)
                goto bad;
        for (int k = 0; k < 3; k++)
            if (rd_f32(&r, "an area's half size", &a->half[k]) < 0)
                goto bad;
        a->first_side = z->num_sides;
        if (shape != FSZON_SPHERE) {
            int n;
            at = r.at;
            if (asset_rd_u16(&r, "a side count", &n) < 0)
                goto bad;
            if (n > FSZON_MAX_SIDES) {
                asset_rd_fail(&r, at, "at most %d sides, found %d", FSZON_MAX_SIDES, n);
                goto bad;
            }
            if (asset_rd_need(&r, (size_t)n, 16, "sides") < 0)
                goto bad;
            if (z->num_sides + n > side_cap) {
                int nc = side_cap ? side_cap * 2 : 16;
                while (nc < z->num_sides + n)
                    nc *= 2;
                fszon_side_t *q = realloc(z->sides, (size_t)nc * sizeof *q);
                if (!q) {
                    asset_rd_fail(&r, at, "memory for %d sides", n);
                    goto bad;
                }
                z->sides = q;
                side_cap = nc;
            }
            for (int s = 0; s < n; s++) {
                fszon_side_t *sd = &z->sides[z->num_sides + s];
                for (int k = 0; k < 3; k++)
                    if (rd_f32(&r, "a side's normal", &sd->normal[k]) < 0)
                        goto bad;
                if (rd_f32(&r, "a side's offset", &sd->offset) < 0)
                    goto bad;
            }
            a->num_sides = n;
            z->num_sides += n;
        }
        if (asset_rd_need(&r, 1, 24, "the area's mods and weapons (24 bytes)") < 0)
            goto bad;
        const uint8_t *p = r.d + r.at;
        for (int k = 0; k < 4; k++) {
            a->player_mod[k] = asset_u16(p + 2 * k);
            a->enemy_mod[k] = asset_u16(p + 12 + 2 * k);
        }
        a->player_primary = asset_s16(p + 8);
        a->player_secondary = asset_s16(p + 10);
        a->enemy_primary = asset_s16(p + 20);
        a->enemy_secondary = asset_s16(p + 22);
        r.at += 24;
    }
    z->end = r.at;
    return z;
bad:
    fszon_free(z);
    return NULL;
}

void fszon_free(fszon_t *z)
{
    if (!z)
        return;
    free(z->areas);
    free(z->sides);
    free(z);
}

int fszon_check(const fszon_t *z, const fstrg_t *t, const char *name, char *err, size_t cap)
{
    int mods = t ? t->num_mods : 0;
    for (int i = 0; z && i < z->count; i++)
        for (int k = 0; k < 8; k++) {
            int m = k < 4 ? z->areas[i].player_mod[k] : z->areas[i].enemy_mod[k - 4];
            if (m != FSZON_NONE && m >= mods) {
                if (err && cap)
                    snprintf(err, cap, "%s: area %d: expected mod 0xffff or one of the .TRG's %d, found %d",
                             name ? name : "zon", i, mods, m);
                return -1;
            }
        }
    return 0;
}

static float side_dist(const fszon_side_t *s, const float p[3])
{
    return s->normal[0] * p[0] + s->normal[1] * p[1] + s->normal[2] * p[2] + s->offset;
}

int fszon_segment(const fszon_t *z, const fszon_area_t *ar, const float a[3], const float b[3])
{
    if (ar->shape == FSZON_SPHERE) {
        float da = 0, db = 0;
        for (int k = 0; k < 3; k++) {
            da += (a[k] - ar->pos[k]) * (a[k] - ar->pos[k]);
            db += (b[k] - ar->pos[k]) * (b[k] - ar->pos[k]);
        }
        float r2 = ar->half[0] * ar->half[0];
        int in_a = ar->half[0] > 0 && da < r2, in_b = ar->half[0] > 0 && db < r2;
        return (!in_a && in_b ? FSZON_HIT_ENTRY : 0) | (in_a && !in_b ? FSZON_HIT_EXIT : 0) |
               (in_a && in_b ? FSZON_HIT_IN : 0);
    }
    if (!z || ar->first_side < 0 || ar->num_sides <= 0 || ar->first_side + ar->num_sides > z->num_sides)
        return 0;
    const fszon_side_t *sides = z->sides + ar->first_side;
    int n = ar->num_sides, inside = 0, hit = 0;
    for (int i = 0; i < n; i++) {
        float d1 = side_dist(&sides[i], a), d2 = side_dist(&sides[i], b);
        if (d1 >= 0 && d2 >= 0)
            return 0;   // both ends outside this side: a miss (RayToHull)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) {
            float f = d1 / (d1 - d2), p[3];
            for (int k = 0; k < 3; k++)
                p[k] = a[k] + f * (b[k] - a[k]);
            int within = 1;
            for (int j = 0; j < n && within; j++)
                if (j != i && side_dist(&sides[j], p) > 0)
                    within = 0;
            if (within)
                hit |= d1 < 0 ? FSZON_HIT_EXIT : FSZON_HIT_ENTRY;
        } else {
            inside++;
        }
    }
    if (inside == n)
        hit |= FSZON_HIT_IN;
    return hit;
}

float fszon_entry_at(const fszon_t *z, const fszon_area_t *ar, const float a[3], const float b[3])
{
    if (ar->shape == FSZON_SPHERE) {
        float d[3], m[3], dd = 0, md = 0, mm = 0, r = ar->half[0];
        for (int k = 0; k < 3; k++) {
            d[k] = b[k] - a[k];
            m[k] = a[k] - ar->pos[k];
            dd += d[k] * d[k];
            md += m[k] * d[k];
            mm += m[k] * m[k];
        }
        if (!(r > 0))
            return -1;
        if (mm < r * r)
            return 0;
        float disc = md * md - dd * (mm - r * r);
        if (!(dd > 0) || disc < 0)
            return -1;
        float f = (-md - sqrtf(disc)) / dd;
        return f >= 0 && f <= 1 ? f : -1;
    }
    if (!z || ar->first_side < 0 || ar->num_sides <= 0 || ar->first_side + ar->num_sides > z->num_sides)
        return -1;
    const fszon_side_t *sides = z->sides + ar->first_side;
    float lo = 0, hi = 1;
    for (int i = 0; i < ar->num_sides; i++) {
        float d1 = side_dist(&sides[i], a), d2 = side_dist(&sides[i], b);
        if (d1 > 0 && d2 > 0)
            return -1;   // wholly outside this side
        if (d1 > 0 && d2 <= 0)
            lo = fmaxf(lo, d1 / (d1 - d2));   // comes in through it
        else if (d1 <= 0 && d2 > 0)
            hi = fminf(hi, d1 / (d1 - d2));   // goes out through it
    }
    return lo <= hi ? lo : -1;
}
