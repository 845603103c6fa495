// forsaken_write.c -- a Forsaken .DMO writer (see forsaken_write.h)
//
// The layouts are the tables of forsaken_fields.c; the rest is code mirroring forsaken_parse.c.
#include "forsaken_write.h"

#include "forsaken_fields.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// One payload under construction: little-endian puts at fixed offsets.
typedef struct {
    uint8_t b[FS_SIZE_INIT + 32];   // the largest message written field by field (MSG_INIT)
    size_t n;
} fs_payload_t;

static void p_init(fs_payload_t *p, size_t n, uint8_t code, uint8_t player)
{
    memset(p->b, 0, sizeof(p->b));
    p->n = n;
    p->b[0] = code;
    p->b[1] = player;
}

static void put8(fs_payload_t *p, size_t at, uint32_t v) { p->b[at] = (uint8_t)v; }

static void put16(fs_payload_t *p, size_t at, uint32_t v)
{
    p->b[at] = (uint8_t)v;
    p->b[at + 1] = (uint8_t)(v >> 8);
}

static void put32(fs_payload_t *p, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p->b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static void put32or16(fs_payload_t *p, size_t at, uint32_t v, size_t bytes)
{
    if (bytes == 2)
        put16(p, at, v);
    else
        put32(p, at, v);
}

static void put64(fs_payload_t *p, size_t at, uint64_t v)
{
    put32(p, at, (uint32_t)v);
    put32(p, at + 4, (uint32_t)(v >> 32));
}

static void putf(fs_payload_t *p, size_t at, float f)
{
    union { float f; uint32_t u; } v;
    v.f = f;
    put32(p, at, v.u);
}

static void putvec(fs_payload_t *p, size_t at, const float v[3])
{
    for (int i = 0; i < 3; i++)
        putf(p, at + 4 * (size_t)i, v[i]);
}

// Round and clamp to int16 (the short encodings).
static int16_t s16(double v)
{
    if (!(v == v))
        return 0;
    v = floor(v + 0.5);
    if (v > 32767)
        v = 32767;
    if (v < -32768)
        v = -32768;
    return (int16_t)v;
}

static uint16_t u16c(double v)
{
    if (!(v == v) || v < 0)
        return 0;
    v = floor(v + 0.5);
    return (uint16_t)(v > 65535 ? 65535 : v);
}

static void putstr(fs_payload_t *p, size_t at, size_t n, const char *s)
{
    size_t k = strlen(s);
    if (k > n - 1)
        k = n - 1;   // always NUL-terminated inside the field
    memcpy(p->b + at, s, k);
}

void fs_writer_init(fs_writer_t *wr) { memset(wr, 0, sizeof(*wr)); }

void fs_writer_free(fs_writer_t *wr)
{
    free(wr->data);
    memset(wr, 0, sizeof(*wr));
}

uint64_t fs_ticks(double seconds)
{
    if (!(seconds > 0))
        return 0;
    return (uint64_t)floor(seconds * FS_TICKS_PER_SECOND + 0.5);
}

static int append(fs_writer_t *wr, const void *bytes, size_t n)
{
    if (wr->failed)
        return -1;
    if (wr->size + n > wr->cap) {
        size_t cap = wr->cap ? wr->cap : 4096;
        while (cap < wr->size + n)
            cap *= 2;
        uint8_t *d = realloc(wr->data, cap);
        if (!d) {
            wr->failed = 1;
            return -1;
        }
        wr->data = d;
        wr->cap = cap;
    }
    memcpy(wr->data + wr->size, bytes, n);
    wr->size += n;
    return 0;
}

int fs_write_header(fs_writer_t *wr, const fs_header_t *h)
{
    fs_payload_t p;
    p_init(&p, FS_HEADER_FIXED, 0, 0);
    put32(&p, 0, h->version);
    put16(&p, 4, h->seed1);
    put16(&p, 6, h->seed2);
    put32(&p, 8, h->random_pickups);
    put64(&p, 12, h->pickup_flags);
    put32(&p, 20, h->game_flags);
    put16(&p, 24, h->start_pos_modify);
    size_t len = strnlen(h->level, FS_LEVEL_MAX - 1);
    if (append(wr, p.b, p.n) < 0 || append(wr, h->level, len) < 0)
        return -1;
    return append(wr, "", 1);
}

int fs_write_raw_event(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const uint8_t *payload, size_t n)
{
    fs_payload_t h;
    p_init(&h, FS_EVENT_HEADER, 0, 0);
    put64(&h, 0, ticks);
    put32(&h, 8, (uint32_t)n);
    put32(&h, 12, sender);
    if (append(wr, h.b, h.n) < 0)
        return -1;
    return n ? append(wr, payload, n) : 0;
}

static int emit(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_payload_t *p)
{
    return fs_write_raw_event(wr, ticks, sender, p->b, p->n);
}

// The fields of table t from the struct at in, the table's offsets counted from `from`.
static void put_fields(fs_payload_t *p, const fs_fields_t *t, size_t from, const void *in)
{
    for (const fs_field_t *f = t->fields; f < t->fields + t->count; f++) {
        const uint8_t *src = (const uint8_t *)in + f->field;
        size_t at = from + f->wire, w = fs_field_wire_size(f);
        if (f->kind >= FS_K_STR) {
            putstr(p, at, f->kind == FS_K_STR_FULL ? (size_t)f->count + 1 : f->count, (const char *)src);
            continue;
        }
        for (size_t i = 0; i < f->count; i++, at += w) {
            switch (f->kind) {
            case FS_K_U8: put8(p, at, src[i]); break;
            case FS_K_U16:
            case FS_K_S16: put16(p, at, ((const uint16_t *)src)[i]); break;
            case FS_K_U32:
            case FS_K_S32:
            case FS_K_U16_U32: put32or16(p, at, ((const uint32_t *)src)[i], w); break;
            case FS_K_U64: put64(p, at, ((const uint64_t *)src)[i]); break;
            case FS_K_F32: putf(p, at, ((const float *)src)[i]); break;
            case FS_K_S16_F32: put16(p, at, (uint16_t)(int16_t)((const float *)src)[i]); break;
            default: break;
            }
        }
    }
}

// A STATUSMSG at `from` (MSG_STATUS: 0; in MSG_LONGSTATUS: 8, or 4 without the level checksum).
static void put_status(fs_payload_t *p, size_t from, uint8_t code, const fs_status_t *m)
{
    put8(p, from, code);
    put_fields(p, &fs_status_fields, from, m);
    if (m->has_checksum)
        put64(p, from + 32, m->level_checksum);
}

// A message whose layout is a table (forsaken_fields.c), from its struct m.
static int write_fields(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t code, const void *m)
{
    const fs_fields_t *t = fs_msg_fields(code);
    if (!t || t->no_writer) {
        wr->failed = 1;
        return -1;
    }
    fs_payload_t p;
    p_init(&p, fs_msg_size(code), code, 0);
    put_fields(&p, t, 0, m);
    return emit(wr, ticks, sender, &p);
}

int fs_write_name(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_name_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_NAME, m);
}

int fs_write_bikenum(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_bikenum_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_KILLSDEATHSBIKENUM, m);
}

int fs_write_hereiam(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_hereiam_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_HEREIAM, m);
}

int fs_write_playernum(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t player)
{
    return write_fields(wr, ticks, sender, FS_MSG_SENDKILLSDEATHSBIKENUM, &player);
}

static void ship_short(fs_payload_t *p, size_t at, const fs_ship_t *m)
{
    double speed = sqrt((double)m->vel[0] * m->vel[0] + (double)m->vel[1] * m->vel[1] + (double)m->vel[2] * m->vel[2]);
    for (int i = 0; i < 3; i++) {
        put16(p, at + 2 * (size_t)i, (uint16_t)s16(m->pos[i]));
        put16(p, at + 6 + 2 * (size_t)i, (uint16_t)s16(speed > 0 ? m->vel[i] / speed * FS_UNIT_SCALE : 0));
        put16(p, at + 12 + 2 * (size_t)i, (uint16_t)s16(m->rot[i] * FS_UNIT_SCALE / FS_ROT_MAX));
    }
    put16(p, at + 18, (uint16_t)s16(m->bank * FS_UNIT_SCALE / FS_BANK_MAX));
    put16(p, at + 20, u16c(speed * FS_SPEED_SCALE));
    for (int i = 0; i < 4; i++)
        put16(p, at + 22 + 2 * (size_t)i, (uint16_t)s16(m->quat[i] * FS_UNIT_SCALE));
}

static void ship_long(fs_payload_t *p, const fs_ship_t *m)
{
    putvec(p, 12, m->pos);
    putvec(p, 24, m->vel);
    putvec(p, 36, m->rot);
    put16(p, 48, (uint16_t)s16(m->bank * FS_UNIT_SCALE / FS_BANK_MAX));
    for (int i = 0; i < 4; i++)
        putf(p, 52 + 4 * (size_t)i, m->quat[i]);
}

int fs_write_ship(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t type, const fs_ship_t *m)
{
    if (type != FS_MSG_UPDATE && type != FS_MSG_FUPDATE && type != FS_MSG_VERYSHORTUPDATE &&
        type != FS_MSG_VERYSHORTFUPDATE && type != FS_MSG_GROUPONLY_VERYSHORTFUPDATE) {
        wr->failed = 1;
        return -1;
    }
    int weapons = type != FS_MSG_UPDATE && type != FS_MSG_VERYSHORTUPDATE;
    fs_payload_t p;
    p_init(&p, fs_msg_size(type), type, m->player);
    put_fields(&p, weapons ? &fs_fship_fields : &fs_ship_fields, 0, m);
    if (type == FS_MSG_VERYSHORTUPDATE || type == FS_MSG_VERYSHORTFUPDATE) {
        ship_short(&p, weapons ? 12 : 10, m);
    } else if (type == FS_MSG_UPDATE || type == FS_MSG_FUPDATE) {
        ship_long(&p, m);
    } else {   // GROUPONLY_VERYSHORTFUPDATE: no movement
        for (int i = 0; i < 3; i++)
            put16(&p, 12 + 2 * (size_t)i, (uint16_t)s16(m->pos[i]));
        for (int i = 0; i < 4; i++)
            put16(&p, 18 + 2 * (size_t)i, (uint16_t)s16(m->quat[i] * FS_UNIT_SCALE));
        put16(&p, 26, (uint16_t)s16(m->bank * FS_UNIT_SCALE / FS_BANK_MAX));
    }
    return emit(wr, ticks, sender, &p);
}

int fs_write_secbull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_secbull_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_SECBULLPOSDIR, m);
}

int fs_write_titanbits(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_titanbits_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_TITANBITS, m);
}

int fs_write_shockwave(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shockwave_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_SHOCKWAVE, m);
}

int fs_write_status(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_status_t *m)
{
    fs_payload_t p;
    p_init(&p, m->has_checksum ? FS_SIZE_STATUS_LONG : FS_SIZE_STATUS, FS_MSG_STATUS, m->player);
    put_status(&p, 0, FS_MSG_STATUS, m);
    return emit(wr, ticks, sender, &p);
}

int fs_write_shipdied(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shipdied_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_SHIPDIED, m);
}

int fs_write_droppickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_droppickup_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_DROPPICKUP, m);
}

int fs_write_killpickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_killpickup_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_KILLPICKUP, m);
}

int fs_write_text(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_text_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_TEXTMSG, m);
}

int fs_write_primbull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_primbull_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_PRIMBULLPOSDIR, m);
}

int fs_write_expsecondary(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_expsecondary_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_EXPSECONDARY, m);
}

int fs_write_serverkillpickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_killpickup_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_SERVERKILLPICKUP, m);
}

int fs_write_serverdied(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_serverdied_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_SERVERSAYSSHIPDIED, m);
}

int fs_write_pings(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_pings_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_PLAYERPINGS, m);
}

int fs_write_explodeship(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_explodeship_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_EXPLODESHIP, m);
}

int fs_write_bgoupdate(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_bgoupdate_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_BGOUPDATE, m);
}

int fs_write_shieldhull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shieldhull_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_SHIELDHULL, m);
}

int fs_write_shiphit(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t type, const fs_shiphit_t *m)
{
    if (type != FS_MSG_SHIPHIT && type != FS_MSG_SHORTSHIPHIT) {
        wr->failed = 1;
        return -1;
    }
    return write_fields(wr, ticks, sender, type, m);
}

int fs_write_shortstats(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shortstats_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_SHORTSTATS, m);
}

int fs_write_teamgoals(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_teamgoals_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_TEAMGOALS, m);
}

int fs_write_serverscored(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_serverscored_t *m)
{
    return write_fields(wr, ticks, sender, FS_MSG_SERVERSCORED, m);
}

static void putsvec(fs_payload_t *p, size_t at, const float v[3], float scale)
{
    for (int i = 0; i < 3; i++)
        put16(p, at + 2 * (size_t)i, (uint16_t)s16(v[i] * scale));
}


// The messages whose layout is code (every field of the structs in forsaken.h).
static int build_more(const fs_event_t *ev, fs_payload_t *p)
{
    uint8_t code = ev->type;
    size_t size = fs_msg_size(code);
    switch (code) {
    case FS_MSG_SHORTPICKUP:
    case FS_MSG_SHORTMINE:
    case FS_MSG_SHORTREGENSLOT:
    case FS_MSG_SHORTTRIGGER:
    case FS_MSG_SHORTTRIGVAR: {
        const fs_list_t *l = &ev->u.list;
        p_init(p, size, code, l->player);
        put8(p, 2, l->count);
        put8(p, 3, l->batch);
        if (code == FS_MSG_SHORTPICKUP) {
            for (int i = 0; i < FS_GEN_PICKUPS; i++)
                put_fields(p, &fs_pickupinfo_fields, 4 + 52 * (size_t)i, &l->e.pickups[i]);
        } else if (code == FS_MSG_SHORTMINE) {
            for (int i = 0; i < FS_GEN_MINES; i++)
                put_fields(p, &fs_mineinfo_fields, 4 + 76 * (size_t)i, &l->e.mines[i]);
        } else if (code == FS_MSG_SHORTREGENSLOT) {
            for (int i = 0; i < FS_GEN_REGENSLOTS; i++)
                put_fields(p, &fs_regenslot_fields, 4 + 40 * (size_t)i, &l->e.slots[i]);
        } else {
            for (int i = 0; i < FS_GEN_TRIGGERS; i++)
                put32(p, 4 + 4 * (size_t)i, (uint32_t)l->e.states[i]);
        }
        return 0;
    }
    case FS_MSG_INTERPOLATE: {
        const fs_interp_t *m = &ev->u.interp;
        p_init(p, size, code, m->player);
        putvec(p, 4, m->pos);
        for (int i = 0; i < 4; i++)
            putf(p, 16 + 4 * (size_t)i, m->quat[i]);
        putf(p, 32, m->bank);
        put64(p, 40, m->next_time);
        return 0;
    }
    case FS_MSG_VERYSHORTINTERPOLATE: {
        const fs_interp_t *m = &ev->u.interp;
        p_init(p, size, code, m->player);
        putsvec(p, 2, m->pos, 1);
        for (int i = 0; i < 4; i++)
            put16(p, 8 + 2 * (size_t)i, (uint16_t)s16(m->quat[i] * FS_UNIT_SCALE));
        put16(p, 16, (uint16_t)s16(m->bank * FS_UNIT_SCALE / FS_BANK_MAX));
        put64(p, 24, m->next_time);
        return 0;
    }
    case FS_MSG_LONGSTATUS: {
        const fs_longstatus_t *m = &ev->u.lstatus;
        int big = m->status.has_checksum;
        p_init(p, big ? FS_SIZE_LONGSTATUS : FS_SIZE_LONGSTATUS_SHORT, code, m->player);
        put_status(p, big ? 8 : 4, code, &m->status);
        putstr(p, big ? 48 : 32, 33, m->level);
        put16(p, big ? 80 : 64, m->start_pos_modify);
        return 0;
    }
    case FS_MSG_VERYSHORTDROPPICKUP: {
        const fs_droppickup_t *m = &ev->u.vsdrop;
        p_init(p, size, code, m->player);
        put16(p, 4, m->id);
        put8(p, 6, (uint32_t)(uint16_t)m->type);
        put8(p, 7, m->group);
        put8(p, 8, (uint32_t)(uint16_t)m->regen_slot);
        put8(p, 9, m->sparkle);
        putsvec(p, 10, m->pos, 1);
        putsvec(p, 16, m->dir, FS_UNIT_SCALE);
        putf(p, 24, m->speed);
        putf(p, 28, m->life_count);
        put16(p, 32, m->trigger_mod);
        return 0;
    }
    default:
        return -1;
    }
}

size_t fs_encode(const fs_event_t *ev, uint8_t *out, size_t cap)
{
    fs_writer_t tmp;
    fs_writer_init(&tmp);
    size_t n = 0;
    if (fs_write_event(&tmp, ev) == 0 && tmp.size > FS_EVENT_HEADER && tmp.size - FS_EVENT_HEADER <= cap) {
        n = tmp.size - FS_EVENT_HEADER;
        memcpy(out, tmp.data + FS_EVENT_HEADER, n);
    }
    fs_writer_free(&tmp);
    return n;
}

size_t fs_encode_guaranteed(const fs_guaranteed_t *g, const uint8_t *msg, size_t n, uint8_t *out, size_t cap)
{
    size_t total = FS_SIZE_GUARANTEED - 1 + n;
    if (n < 1 || total > cap)
        return 0;
    memset(out, 0, total);
    out[0] = FS_MSG_GUARANTEEDMSG;
    out[1] = g->player;
    for (int i = 0; i < 4; i++) {
        out[4 + i] = (uint8_t)(g->ack >> (8 * i));
        out[8 + i] = (uint8_t)(g->id >> (8 * i));
        out[12 + i] = (uint8_t)(g->override_older >> (8 * i));
        out[16 + i] = (uint8_t)(g->all_players >> (8 * i));
    }
    out[20] = g->count;
    memcpy(out + FS_GUARANTEED_MSG_AT, msg, n);
    return total;
}

size_t fs_encode_bigpacket(uint8_t player, const uint8_t *const *msgs, const size_t *lens, const float *framelag,
                           int count, uint8_t *out, size_t cap)
{
    size_t n = FS_BIGPACKET_FIRST;
    if (cap < FS_SIZE_BIGPACKET)
        return 0;
    out[0] = FS_MSG_BIGPACKET;
    out[1] = player;
    for (int i = 0; i < count; i++) {
        if (n + lens[i] + 4 + 1 > cap)
            return 0;
        memcpy(out + n, msgs[i], lens[i]);
        n += lens[i];
        union { float f; uint32_t u; } v;
        v.f = framelag ? framelag[i] : 0.0f;
        for (int k = 0; k < 4; k++)
            out[n + (size_t)k] = (uint8_t)(v.u >> (8 * k));
        n += 4;
    }
    out[n++] = 0;
    return n;
}

int fs_write_event(fs_writer_t *wr, const fs_event_t *ev)
{
    uint64_t t = ev->timestamp;
    uint32_t s = ev->sender;
    if (fs_msg_fields(ev->type))   // a table's layout (MSG_GUARANTEEDMSG and MSG_BIGPACKET: fails)
        return write_fields(wr, t, s, ev->type, &ev->u);
    switch (ev->type) {
    case FS_MSG_UPDATE:
    case FS_MSG_FUPDATE:
    case FS_MSG_VERYSHORTUPDATE:
    case FS_MSG_VERYSHORTFUPDATE:
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE: return fs_write_ship(wr, t, s, ev->type, &ev->u.ship);
    case FS_MSG_STATUS: return fs_write_status(wr, t, s, &ev->u.status);
    default: {
        fs_payload_t p;
        if (build_more(ev, &p) < 0) {
            wr->failed = 1;
            return -1;
        }
        return emit(wr, t, s, &p);
    }
    }
}
