// goldsrc_delta.c -- GoldSrc delta descriptions and bit-packed delta decoding (see goldsrc_delta.h)
#include "goldsrc_delta.h"

#include <math.h>
#include <string.h>

#include "../engine/json.h"

static const char *const es_names[HL_ES_COUNT] = {
    "origin[0]", "origin[1]", "origin[2]", "angles[0]", "angles[1]", "angles[2]",
    "modelindex", "frame", "skin", "body", "sequence", "animtime",
    "framerate", "rendermode", "renderamt", "rendercolor.r", "rendercolor.g", "rendercolor.b",
    "renderfx", "scale", "effects", "colormap", "controller[0]", "controller[1]",
    "controller[2]", "controller[3]", "blending[0]", "blending[1]", "gaitsequence", "weaponmodel",
    "usehull", "solid", "owner", "mins[0]", "mins[1]", "mins[2]", "maxs[0]", "maxs[1]",
    "maxs[2]",
};

static const char *const cd_names[HL_CD_COUNT] = {
    "origin[0]", "origin[1]", "origin[2]", "velocity[0]", "velocity[1]", "velocity[2]",
    "punchangle[0]", "punchangle[1]", "punchangle[2]", "view_ofs[2]", "fov", "health",
};

static const int class_cap[HL_CLS_COUNT] = { HL_ENT_SLOTS, HL_CD_SLOTS, HL_WD_SLOTS, HL_EV_SLOTS, HL_OTHER_SLOTS };

// The fixed description the engine uses to send descriptions (delta_description_t).
static const hl_field_t meta_fields[7] = {
    { "fieldType", HL_DT_INTEGER, 32, 1, 1, 0 },
    { "fieldName", HL_DT_STRING, 8, 1, 1, 1 },
    { "fieldOffset", HL_DT_INTEGER, 16, 1, 1, 2 },
    { "fieldSize", HL_DT_INTEGER, 8, 1, 1, 3 },
    { "significant_bits", HL_DT_INTEGER, 8, 1, 1, 4 },
    { "premultiply", HL_DT_FLOAT, 32, 4000.0f, 1, 5 },
    { "postmultiply", HL_DT_FLOAT, 32, 4000.0f, 1, 6 },
};

int32_t hl_f2i(double v)
{
    if (!(v == v))
        return 0;
    if (v >= 2147483647.0)
        return INT32_MAX;
    if (v <= -2147483648.0)
        return INT32_MIN;
    return (int32_t)v;
}

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

void hl_delta_reset(hl_delta_set_t *set)
{
    memset(set, 0, sizeof(*set));
    for (int i = 0; i < HL_ES_COUNT; i++)
        set->ent_slot[i] = -1;
    for (int i = 0; i < HL_CD_COUNT; i++)
        set->cd_slot[i] = -1;
    set->d_entity = set->d_player = set->d_custom = set->d_clientdata = set->d_weapon = set->d_event = -1;
}

int hl_delta_find(const hl_delta_set_t *set, const char *name)
{
    for (int i = 0; i < set->count; i++)
        if (strcmp(set->d[i].name, name) == 0)
            return i;
    return -1;
}

static int class_of(const char *name)
{
    if (!strcmp(name, "entity_state_t") || !strcmp(name, "entity_state_player_t") ||
        !strcmp(name, "custom_entity_state_t"))
        return HL_CLS_ENT;
    if (!strcmp(name, "clientdata_t"))
        return HL_CLS_CD;
    if (!strcmp(name, "weapon_data_t"))
        return HL_CLS_WD;
    if (!strcmp(name, "event_t"))
        return HL_CLS_EV;
    return HL_CLS_OTHER;
}

static int slot_lookup(const hl_slots_t *t, const char *name)
{
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->names[i], name) == 0)
            return i;
    return -1;
}

// The slot of a field name in its class, added when new; -1 when the class is full.
static int slot_for(hl_delta_set_t *set, int cls, const char *name, int is_float)
{
    hl_slots_t *t = &set->slots[cls];
    int s = slot_lookup(t, name);
    if (s < 0) {
        if (t->count >= class_cap[cls])
            return -1;
        s = t->count++;
        snprintf(t->names[s], HL_FIELD_NAME, "%s", name);
    }
    t->is_float[s] = (uint8_t)is_float;
    return s;
}

static void refresh_indices(hl_delta_set_t *set)
{
    set->d_entity = (int16_t)hl_delta_find(set, "entity_state_t");
    set->d_player = (int16_t)hl_delta_find(set, "entity_state_player_t");
    set->d_custom = (int16_t)hl_delta_find(set, "custom_entity_state_t");
    set->d_clientdata = (int16_t)hl_delta_find(set, "clientdata_t");
    set->d_weapon = (int16_t)hl_delta_find(set, "weapon_data_t");
    set->d_event = (int16_t)hl_delta_find(set, "event_t");
    for (int i = 0; i < HL_ES_COUNT; i++)
        set->ent_slot[i] = (int16_t)slot_lookup(&set->slots[HL_CLS_ENT], es_names[i]);
    for (int i = 0; i < HL_CD_COUNT; i++)
        set->cd_slot[i] = (int16_t)slot_lookup(&set->slots[HL_CLS_CD], cd_names[i]);
}

static int is_float_type(uint32_t t)
{
    t &= ~HL_DT_SIGNED;
    return t == HL_DT_FLOAT || t == HL_DT_ANGLE || t == HL_DT_TIMEWINDOW_8 || t == HL_DT_TIMEWINDOW_BIG;
}

static int read_fields(const hl_field_t *fields, int nfields, bitmsg_t *b, uint32_t *vals, int cap, double time,
                       char *str, size_t strcap, const hl_dump_t *dump, dec_error_t *err)
{
    size_t start = bitmsg_offset(b);
    int nbytes = (int)bitmsg_read(b, 3);
    uint8_t mask[8] = { 0 };
    for (int i = 0; i < nbytes; i++)
        mask[i] = (uint8_t)bitmsg_read(b, 8);
    if (b->bad) {
        dec_error_set(err, (long long)bitmsg_offset(b), "expected a delta mask, the message ends");
        return -1;
    }
    for (int i = nfields; i < nbytes * 8; i++) {
        if (mask[i >> 3] & (1u << (i & 7))) {
            dec_error_set(err, (long long)start, "expected a delta of at most %d fields, mask names field %d",
                          nfields, i);
            return -1;
        }
    }
    for (int i = 0; i < nfields && i < nbytes * 8; i++) {
        if (!(mask[i >> 3] & (1u << (i & 7))))
            continue;
        const hl_field_t *f = &fields[i];
        uint32_t t = f->type & ~HL_DT_SIGNED;
        int sgn = (f->type & HL_DT_SIGNED) != 0;
        int n = f->bits;
        uint32_t out = 0;
        double dv = 0;
        int64_t v = 0;
        if (t != HL_DT_STRING && t != HL_DT_ANGLE) {
            if (sgn && n > 0) {
                int neg = (int)bitmsg_read(b, 1);
                v = bitmsg_read(b, n - 1);
                if (neg)
                    v = -v;
            } else {
                v = bitmsg_read(b, n);
            }
        }
        switch (t) {
        case HL_DT_BYTE:
        case HL_DT_SHORT:
        case HL_DT_INTEGER: {
            int64_t x = v;
            if (f->pre != 1.0f)
                x = hl_f2i((double)x / f->pre);
            if (f->post != 1.0f)
                x = hl_f2i((double)x * f->post);
            // wrap to the field's width as the engine's store does (32-bit fields carry unsigned values too)
            int32_t iv = (int32_t)(uint32_t)(uint64_t)x;
            if (t == HL_DT_BYTE)
                iv = sgn ? (int32_t)(int8_t)(uint8_t)iv : (int32_t)(uint8_t)iv;
            else if (t == HL_DT_SHORT)
                iv = sgn ? (int32_t)(int16_t)(uint16_t)iv : (int32_t)(uint16_t)iv;
            out = (uint32_t)iv;
            dv = iv;
            break;
        }
        case HL_DT_FLOAT: {
            float x = (float)((double)v / f->pre * f->post);
            out = f2u(x);
            dv = x;
            break;
        }
        case HL_DT_ANGLE: {
            v = bitmsg_read(b, n);
            float x = n > 0 ? (float)((double)v * (360.0 / (double)(1ull << n))) : 0.0f;
            out = f2u(x);
            dv = x;
            break;
        }
        case HL_DT_TIMEWINDOW_8: {
            float x = (float)((time * 100.0 - (double)v) / 100.0);
            out = f2u(x);
            dv = x;
            break;
        }
        case HL_DT_TIMEWINDOW_BIG: {
            double m = f->pre > 0.0f ? f->pre : 1000.0;
            float x = (float)((time * m - (double)v) / m);
            out = f2u(x);
            dv = x;
            break;
        }
        case HL_DT_STRING: {
            char tmp[256];
            bitmsg_string(b, tmp, sizeof(tmp));
            if (str && strcap)
                snprintf(str, strcap, "%s", tmp);
            if (dump && dump->f) {
                if (dump->json) {
                    fprintf(dump->f, ",");
                    json_string(dump->f, f->name);
                    fprintf(dump->f, ":");
                    json_string(dump->f, tmp);
                } else {
                    fprintf(dump->f, " %s=\"%s\"", f->name, tmp);
                }
            }
            continue;
        }
        default:
            dec_error_set(err, (long long)start, "expected a delta field type, field '%s' has type 0x%x", f->name,
                          (unsigned)f->type);
            return -1;
        }
        if (b->bad) {
            dec_error_set(err, (long long)bitmsg_offset(b), "expected delta field '%s', the message ends", f->name);
            return -1;
        }
        if (f->slot >= 0 && f->slot < cap)
            vals[f->slot] = out;
        if (dump && dump->f) {
            int is_int = t == HL_DT_BYTE || t == HL_DT_SHORT || t == HL_DT_INTEGER;
            if (dump->json) {
                fprintf(dump->f, ",");
                json_string(dump->f, f->name);
                fprintf(dump->f, ":");
                if (is_int)
                    fprintf(dump->f, "%d", (int32_t)out);
                else
                    json_number(dump->f, dv);
            } else if (is_int) {
                fprintf(dump->f, " %s=%d", f->name, (int32_t)out);
            } else {
                fprintf(dump->f, " %s=%.9g", f->name, dv);
            }
        }
    }
    if (b->bad) {
        dec_error_set(err, (long long)bitmsg_offset(b), "expected a whole delta, the message ends");
        return -1;
    }
    return 0;
}

int hl_delta_parse_description(hl_delta_set_t *set, bitmsg_t *b, const char *name, int nfields,
                               const hl_dump_t *dump, dec_error_t *err)
{
    size_t start = bitmsg_offset(b);
    if (nfields < 0 || nfields > HL_MAX_FIELDS) {
        dec_error_set(err, (long long)start, "expected at most %d fields in delta description '%s', found %d",
                      HL_MAX_FIELDS, name, nfields);
        return -1;
    }
    int di = hl_delta_find(set, name);
    if (di < 0) {
        if (set->count >= HL_MAX_DELTAS) {
            dec_error_set(err, (long long)start, "expected at most %d delta descriptions", HL_MAX_DELTAS);
            return -1;
        }
        di = set->count++;
    }
    hl_delta_t *d = &set->d[di];
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "%s", name);
    d->cls = class_of(name);
    for (int i = 0; i < nfields; i++) {
        uint32_t v[7] = { 0 };
        char fname[HL_FIELD_NAME] = "";
        size_t at = bitmsg_offset(b);
        if (dump && dump->f)
            fprintf(dump->f, dump->json ? "{\"offset\":%zu,\"kind\":\"field\",\"index\":%d" : "%zu   field %d", at, i);
        int r = read_fields(meta_fields, 7, b, v, 7, 0, fname, sizeof(fname), dump, err);
        if (dump && dump->f)
            fputs(dump->json ? "}\n" : "\n", dump->f);
        if (r < 0) {
            d->nfields = i;
            refresh_indices(set);
            return -1;
        }
        hl_field_t *f = &d->f[i];
        snprintf(f->name, sizeof(f->name), "%s", fname);
        f->type = v[0];
        f->bits = (int32_t)v[4];
        f->pre = u2f(v[5]);
        f->post = u2f(v[6]);
        // an absent or unusable multiplier means "none": GoldSrc sends 1.0 for fields without one
        if (!(f->pre > 0.0f) || !isfinite(f->pre))
            f->pre = 1.0f;
        if (!(f->post > 0.0f) || !isfinite(f->post))
            f->post = 1.0f;
        uint32_t t = f->type & ~HL_DT_SIGNED;
        if (t != HL_DT_BYTE && t != HL_DT_SHORT && t != HL_DT_FLOAT && t != HL_DT_INTEGER && t != HL_DT_ANGLE &&
            t != HL_DT_TIMEWINDOW_8 && t != HL_DT_TIMEWINDOW_BIG && t != HL_DT_STRING) {
            dec_error_set(err, (long long)at, "expected a delta field type, field '%s' of '%s' has 0x%x", fname,
                          name, (unsigned)f->type);
            d->nfields = i;
            refresh_indices(set);
            return -1;
        }
        if (f->bits < 0 || f->bits > 32) {
            dec_error_set(err, (long long)at, "expected 0..32 significant bits, field '%s' of '%s' has %d", fname,
                          name, f->bits);
            d->nfields = i;
            refresh_indices(set);
            return -1;
        }
        f->slot = (int16_t)(t == HL_DT_STRING ? -1 : slot_for(set, d->cls, fname, is_float_type(t)));
        d->nfields = i + 1;
    }
    refresh_indices(set);
    return 0;
}

int hl_delta_read(const hl_delta_set_t *set, int di, bitmsg_t *b, uint32_t *vals, int cap, double time,
                  char *str, size_t strcap, const hl_dump_t *dump, dec_error_t *err)
{
    if (di < 0 || di >= set->count) {
        dec_error_set(err, (long long)bitmsg_offset(b), "expected a delta description before its first use");
        return -1;
    }
    const hl_delta_t *d = &set->d[di];
    return read_fields(d->f, d->nfields, b, vals, cap, time, str, strcap, dump, err);
}

float hl_slot_f(const hl_delta_set_t *set, int cls, const uint32_t *vals, int slot)
{
    if (slot < 0 || slot >= class_cap[cls])
        return 0;
    return set->slots[cls].is_float[slot] ? u2f(vals[slot]) : (float)(int32_t)vals[slot];
}

int32_t hl_slot_i(const hl_delta_set_t *set, int cls, const uint32_t *vals, int slot)
{
    if (slot < 0 || slot >= class_cap[cls])
        return 0;
    return set->slots[cls].is_float[slot] ? hl_f2i(u2f(vals[slot])) : (int32_t)vals[slot];
}
