// forsaken_parse.c -- Forsaken demo header and message payloads (shared by decoder and tests)
//
// The layouts are the tables of forsaken_fields.c; the rest (ship movement, the level
// checksum, conversions) is code here.
#include <math.h>
#include <string.h>

#include "forsaken.h"
#include "forsaken_fields.h"
#include "msg.h"

const char *fs_msg_name(uint8_t code)
{
    switch (code) {
    case FS_MSG_UPDATE: return "MSG_UPDATE";
    case FS_MSG_HEREIAM: return "MSG_HEREIAM";
    case FS_MSG_SECBULLPOSDIR: return "MSG_SECBULLPOSDIR";
    case FS_MSG_SHIPDIED: return "MSG_SHIPDIED";
    case FS_MSG_DROPPICKUP: return "MSG_DROPPICKUP";
    case FS_MSG_KILLPICKUP: return "MSG_KILLPICKUP";
    case FS_MSG_STATUS: return "MSG_STATUS";
    case FS_MSG_SHOCKWAVE: return "MSG_SHOCKWAVE";
    case FS_MSG_FUPDATE: return "MSG_FUPDATE";
    case FS_MSG_TEXTMSG: return "MSG_TEXTMSG";
    case FS_MSG_NAME: return "MSG_NAME";
    case FS_MSG_KILLSDEATHSBIKENUM: return "MSG_KILLSDEATHSBIKENUM";
    case FS_MSG_VERYSHORTUPDATE: return "MSG_VERYSHORTUPDATE";
    case FS_MSG_VERYSHORTFUPDATE: return "MSG_VERYSHORTFUPDATE";
    case FS_MSG_SENDKILLSDEATHSBIKENUM: return "MSG_SENDKILLSDEATHSBIKENUM";
    case FS_MSG_TITANBITS: return "MSG_TITANBITS";
    case FS_MSG_PRIMBULLPOSDIR: return "MSG_PRIMBULLPOSDIR";
    case FS_MSG_EXPSECONDARY: return "MSG_EXPSECONDARY";
    case FS_MSG_PLAYERPINGS: return "MSG_PLAYERPINGS";
    case FS_MSG_SERVERKILLPICKUP: return "MSG_SERVERKILLPICKUP";
    case FS_MSG_SERVERSAYSSHIPDIED: return "MSG_SERVERSAYSSHIPDIED";
    case FS_MSG_EXPLODESHIP: return "MSG_EXPLODESHIP";
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE: return "MSG_GROUPONLY_VERYSHORTFUPDATE";
    case FS_MSG_SHIELDHULL: return "MSG_SHIELDHULL";
    case FS_MSG_SHIPHIT: return "MSG_SHIPHIT";
    case FS_MSG_SHORTSHIPHIT: return "MSG_SHORTSHIPHIT";
    case FS_MSG_BGOUPDATE: return "MSG_BGOUPDATE";
    case FS_MSG_SHORTSTATS: return "MSG_SHORTSTATS";
    case FS_MSG_TEAMGOALS: return "MSG_TEAMGOALS";
    case FS_MSG_SERVERSCORED: return "MSG_SERVERSCORED";
    case FS_MSG_INIT: return "MSG_INIT";
    case FS_MSG_SHORTPICKUP: return "MSG_SHORTPICKUP";
    case FS_MSG_SHORTMINE: return "MSG_SHORTMINE";
    case FS_MSG_SHORTREGENSLOT: return "MSG_SHORTREGENSLOT";
    case FS_MSG_SHORTTRIGGER: return "MSG_SHORTTRIGGER";
    case FS_MSG_SHORTTRIGVAR: return "MSG_SHORTTRIGVAR";
    case FS_MSG_INTERPOLATE: return "MSG_INTERPOLATE";
    case FS_MSG_BOMB: return "MSG_BOMB";
    case FS_MSG_PINGREQUEST: return "MSG_PINGREQUEST";
    case FS_MSG_PINGREPLY: return "MSG_PINGREPLY";
    case FS_MSG_LONGSTATUS: return "MSG_LONGSTATUS";
    case FS_MSG_SETTIME: return "MSG_SETTIME";
    case FS_MSG_REQTIME: return "MSG_REQTIME";
    case FS_MSG_ACKMSG: return "MSG_ACKMSG";
    case FS_MSG_GUARANTEEDMSG: return "MSG_GUARANTEEDMSG";
    case FS_MSG_ALIVE: return "MSG_ALIVE";
    case FS_MSG_VERYSHORTINTERPOLATE: return "MSG_VERYSHORTINTERPOLATE";
    case FS_MSG_YOUQUIT: return "MSG_YOUQUIT";
    case FS_MSG_BIGPACKET: return "MSG_BIGPACKET";
    case FS_MSG_TRACKERINFO: return "MSG_TRACKERINFO";
    case FS_MSG_SERVERUPDATE: return "MSG_SERVERUPDATE";
    case FS_MSG_GAMEPARAMETERS: return "MSG_GAMEPARAMETERS";
    case FS_MSG_TOSERVER: return "MSG_TOSERVER";
    case FS_MSG_LEVELNAMES: return "MSG_LEVELNAMES";
    case FS_MSG_TOCLIENT: return "MSG_TOCLIENT";
    case FS_MSG_VERYSHORTDROPPICKUP: return "MSG_VERYSHORTDROPPICKUP";
    default: return NULL;
    }
}

size_t fs_msg_size(uint8_t code)
{
    switch (code) {
    case FS_MSG_UPDATE: return FS_SIZE_UPDATE;
    case FS_MSG_HEREIAM: return FS_SIZE_HEREIAM;
    case FS_MSG_SECBULLPOSDIR: return FS_SIZE_SECBULL;
    case FS_MSG_SHIPDIED: return FS_SIZE_SHIPDIED;
    case FS_MSG_DROPPICKUP: return FS_SIZE_DROPPICKUP;
    case FS_MSG_KILLPICKUP: return FS_SIZE_KILLPICKUP;
    case FS_MSG_STATUS: return FS_SIZE_STATUS_LONG;
    case FS_MSG_SHOCKWAVE: return FS_SIZE_SHOCKWAVE;
    case FS_MSG_FUPDATE: return FS_SIZE_FUPDATE;
    case FS_MSG_TEXTMSG: return FS_SIZE_TEXTMSG;
    case FS_MSG_NAME: return FS_SIZE_NAME;
    case FS_MSG_KILLSDEATHSBIKENUM: return FS_SIZE_BIKENUM;
    case FS_MSG_VERYSHORTUPDATE: return FS_SIZE_VERYSHORTUPDATE;
    case FS_MSG_VERYSHORTFUPDATE: return FS_SIZE_VERYSHORTFUPDATE;
    case FS_MSG_SENDKILLSDEATHSBIKENUM: return FS_SIZE_PLAYERNUM;
    case FS_MSG_TITANBITS: return FS_SIZE_TITANBITS;
    case FS_MSG_PRIMBULLPOSDIR: return FS_SIZE_PRIMBULL;
    case FS_MSG_EXPSECONDARY: return FS_SIZE_EXPSECONDARY;
    case FS_MSG_PLAYERPINGS: return FS_SIZE_PLAYERPINGS;
    case FS_MSG_SERVERKILLPICKUP: return FS_SIZE_SERVERKILLPICKUP;
    case FS_MSG_SERVERSAYSSHIPDIED: return FS_SIZE_SERVERSAYSSHIPDIED;
    case FS_MSG_EXPLODESHIP: return FS_SIZE_EXPLODESHIP;
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE: return FS_SIZE_GROUPONLY;
    case FS_MSG_SHIELDHULL: return FS_SIZE_SHIELDHULL;
    case FS_MSG_SHIPHIT: return FS_SIZE_SHIPHIT;
    case FS_MSG_SHORTSHIPHIT: return FS_SIZE_SHORTSHIPHIT;
    case FS_MSG_BGOUPDATE: return FS_SIZE_BGOUPDATE;
    case FS_MSG_SHORTSTATS: return FS_SIZE_SHORTSTATS;
    case FS_MSG_TEAMGOALS: return FS_SIZE_TEAMGOALS;
    case FS_MSG_SERVERSCORED: return FS_SIZE_SERVERSCORED;
    case FS_MSG_INIT: return FS_SIZE_INIT;
    case FS_MSG_SHORTPICKUP: return FS_SIZE_SHORTPICKUP;
    case FS_MSG_SHORTMINE: return FS_SIZE_SHORTMINE;
    case FS_MSG_SHORTREGENSLOT: return FS_SIZE_SHORTREGENSLOT;
    case FS_MSG_SHORTTRIGGER: return FS_SIZE_SHORTTRIGGER;
    case FS_MSG_SHORTTRIGVAR: return FS_SIZE_SHORTTRIGVAR;
    case FS_MSG_INTERPOLATE: return FS_SIZE_INTERPOLATE;
    case FS_MSG_BOMB: return FS_SIZE_BOMB;
    case FS_MSG_PINGREQUEST:
    case FS_MSG_PINGREPLY: return FS_SIZE_PING;
    case FS_MSG_LONGSTATUS: return FS_SIZE_LONGSTATUS;
    case FS_MSG_SETTIME: return FS_SIZE_SETTIME;
    case FS_MSG_REQTIME:
    case FS_MSG_ALIVE: return FS_SIZE_PLAYERNUM;
    case FS_MSG_ACKMSG: return FS_SIZE_ACK;
    case FS_MSG_GUARANTEEDMSG: return FS_SIZE_GUARANTEED;
    case FS_MSG_VERYSHORTINTERPOLATE: return FS_SIZE_VERYSHORTINTERPOLATE;
    case FS_MSG_YOUQUIT: return FS_SIZE_YOUQUIT;
    case FS_MSG_TRACKERINFO: return FS_SIZE_TRACKERINFO;
    case FS_MSG_SERVERUPDATE: return FS_SIZE_SERVERUPDATE;
    case FS_MSG_GAMEPARAMETERS: return FS_SIZE_GAMEPARAMETERS;
    case FS_MSG_TOSERVER:
    case FS_MSG_TOCLIENT: return FS_SIZE_TOSERVER;
    case FS_MSG_LEVELNAMES: return FS_SIZE_LEVELNAMES;
    case FS_MSG_VERYSHORTDROPPICKUP: return FS_SIZE_VERYSHORTDROP;
    default: return 0;   // MSG_BIGPACKET too: the game's table has no size for it
    }
}

size_t fs_msg_min_size(uint8_t code)
{
    switch (code) {
    case FS_MSG_STATUS: return FS_SIZE_STATUS;
    case FS_MSG_LONGSTATUS: return FS_SIZE_LONGSTATUS_SHORT;
    case FS_MSG_BIGPACKET: return FS_SIZE_BIGPACKET;
    default: return fs_msg_size(code);
    }
}

static void vec(msg_t *m, float v[3])
{
    for (int i = 0; i < 3; i++)
        v[i] = msg_f32(m);
}

static void at(msg_t *m, size_t pos)
{
    // every layout's fields lie inside the size checked before parsing
    m->pos = pos;
}

// Fixed-size text fields: up to the first NUL; control bytes shown as '?'.
static void text_field(msg_t *m, size_t n, char *out, size_t cap)
{
    const uint8_t *p = msg_bytes(m, n);
    size_t k = 0;
    for (size_t i = 0; p && i < n && p[i] && k + 1 < cap; i++)
        out[k++] = (p[i] < 0x20 || p[i] == 0x7f) ? '?' : (char)p[i];
    out[k] = 0;
}

static void ship_common_short(msg_t *m, fs_ship_t *s)
{
    int16_t pos[3], dir[3], rot[3];
    for (int i = 0; i < 3; i++)
        pos[i] = (int16_t)msg_s16(m);
    for (int i = 0; i < 3; i++)
        dir[i] = (int16_t)msg_s16(m);
    for (int i = 0; i < 3; i++)
        rot[i] = (int16_t)msg_s16(m);
    float bank = (float)msg_s16(m);
    float speed = (float)msg_u16(m) / FS_SPEED_SCALE;
    for (int i = 0; i < 4; i++)
        s->quat[i] = (float)msg_s16(m) / FS_UNIT_SCALE;
    for (int i = 0; i < 3; i++) {
        s->pos[i] = pos[i];
        s->vel[i] = (float)dir[i] / FS_UNIT_SCALE * speed;
        s->rot[i] = (float)rot[i] * FS_ROT_MAX / FS_UNIT_SCALE;
    }
    s->bank = bank * FS_BANK_MAX / FS_UNIT_SCALE;
}

static void ship_common_long(msg_t *m, fs_ship_t *s)
{
    vec(m, s->pos);
    vec(m, s->vel);
    vec(m, s->rot);
    // SHORTBANK: an int16 and two bytes of padding where the spec guessed a float
    s->bank = (float)msg_s16(m) * FS_BANK_MAX / FS_UNIT_SCALE;
    msg_u16(m);
    for (int i = 0; i < 4; i++)
        s->quat[i] = msg_f32(m);
}

static void svec(msg_t *m, float v[3])
{
    for (int i = 0; i < 3; i++)
        v[i] = (float)msg_s16(m);
}

static void squat(msg_t *m, float q[4])
{
    for (int i = 0; i < 4; i++)
        q[i] = (float)msg_s16(m) / FS_UNIT_SCALE;
}

// The fields of table t into the struct at out, the table's offsets counted from `from`.
static void read_fields(msg_t *m, const fs_fields_t *t, size_t from, void *out)
{
    for (const fs_field_t *f = t->fields; f < t->fields + t->count; f++) {
        uint8_t *dst = (uint8_t *)out + f->field;
        at(m, from + f->wire);
        if (f->kind >= FS_K_STR) {
            text_field(m, f->count, (char *)dst, (size_t)f->count + 1);
            continue;
        }
        for (int i = 0; i < f->count; i++) {
            switch (f->kind) {
            case FS_K_U8: dst[i] = (uint8_t)msg_u8(m); break;
            case FS_K_U16: ((uint16_t *)dst)[i] = (uint16_t)msg_u16(m); break;
            case FS_K_S16: ((int16_t *)dst)[i] = (int16_t)msg_s16(m); break;
            case FS_K_U32: ((uint32_t *)dst)[i] = msg_u32(m); break;
            case FS_K_S32: ((int32_t *)dst)[i] = (int32_t)msg_u32(m); break;
            case FS_K_U64: ((uint64_t *)dst)[i] = msg_u64(m); break;
            case FS_K_F32: ((float *)dst)[i] = msg_f32(m); break;
            case FS_K_U16_U32: ((uint32_t *)dst)[i] = (uint16_t)msg_u16(m); break;
            case FS_K_S16_F32: ((float *)dst)[i] = (float)msg_s16(m); break;
            default: break;
            }
        }
    }
}

// A ship update: its head from the table, then the movement in the message's own encoding.
static void parse_ship(msg_t *m, uint8_t code, fs_ship_t *s)
{
    int weapons = code != FS_MSG_UPDATE && code != FS_MSG_VERYSHORTUPDATE;
    read_fields(m, weapons ? &fs_fship_fields : &fs_ship_fields, 0, s);
    switch (code) {
    case FS_MSG_VERYSHORTUPDATE:
        at(m, 10);
        ship_common_short(m, s);
        break;
    case FS_MSG_VERYSHORTFUPDATE:
        at(m, 12);
        ship_common_short(m, s);
        break;
    case FS_MSG_UPDATE:
    case FS_MSG_FUPDATE:
        at(m, 12);
        ship_common_long(m, s);
        break;
    default:   // GROUPONLY_VERYSHORTFUPDATE: no movement
        at(m, 12);
        for (int i = 0; i < 3; i++)
            s->pos[i] = (float)msg_s16(m);
        for (int i = 0; i < 4; i++)
            s->quat[i] = (float)msg_s16(m) / FS_UNIT_SCALE;
        s->bank = (float)msg_s16(m) * FS_BANK_MAX / FS_UNIT_SCALE;
        break;
    }
}

static void parse_list(msg_t *m, uint8_t code, fs_list_t *l)
{
    l->count = (uint8_t)msg_u8(m);
    l->batch = (uint8_t)msg_u8(m);
    switch (code) {
    case FS_MSG_SHORTPICKUP:
        for (int i = 0; i < FS_GEN_PICKUPS; i++)
            read_fields(m, &fs_pickupinfo_fields, 4 + 52 * (size_t)i, &l->e.pickups[i]);
        break;
    case FS_MSG_SHORTMINE:
        for (int i = 0; i < FS_GEN_MINES; i++)
            read_fields(m, &fs_mineinfo_fields, 4 + 76 * (size_t)i, &l->e.mines[i]);
        break;
    case FS_MSG_SHORTREGENSLOT:
        for (int i = 0; i < FS_GEN_REGENSLOTS; i++)
            read_fields(m, &fs_regenslot_fields, 4 + 40 * (size_t)i, &l->e.slots[i]);
        break;
    default:   // SHORTTRIGGER, SHORTTRIGVAR: an int each
        at(m, 4);
        for (int i = 0; i < FS_GEN_TRIGGERS; i++)
            l->e.states[i] = (int32_t)msg_u32(m);
        break;
    }
}

// A STATUSMSG at `from` (MSG_STATUS: 0; inside MSG_LONGSTATUS: 8, or 4 without the checksum).
static void status_at(msg_t *m, size_t from, int with_checksum, fs_status_t *s)
{
    read_fields(m, &fs_status_fields, from, s);
    if (with_checksum) {
        at(m, from + 32);
        s->has_checksum = 1;
        s->level_checksum = msg_u64(m);
    }
}

int fs_parse_payload(const uint8_t *p, size_t n, size_t base, fs_event_t *ev, dec_error_t *err)
{
    (void)err;
    memset(&ev->u, 0, sizeof(ev->u));
    ev->type = n ? p[0] : 0;
    ev->known = 0;
    if (n < 1 || !fs_msg_name(p[0]) || n < fs_msg_min_size(p[0]))
        return 0;   // skipped by its size; the decoder says why
    ev->known = 1;
    msg_t m;
    msg_init(&m, p, n, base);
    const fs_fields_t *t = fs_msg_fields(p[0]);
    if (t) {   // a layout of plain fields (forsaken_fields.c)
        read_fields(&m, t, 0, &ev->u);
        return 0;
    }
    at(&m, 1);
    uint8_t player = (uint8_t)msg_u8(&m);
    switch (p[0]) {
    case FS_MSG_UPDATE:
    case FS_MSG_FUPDATE:
    case FS_MSG_VERYSHORTUPDATE:
    case FS_MSG_VERYSHORTFUPDATE:
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE:
        parse_ship(&m, p[0], &ev->u.ship);
        break;
    case FS_MSG_STATUS:
        status_at(&m, 0, n >= FS_SIZE_STATUS_LONG, &ev->u.status);
        break;
    case FS_MSG_SHORTPICKUP:
    case FS_MSG_SHORTMINE:
    case FS_MSG_SHORTREGENSLOT:
    case FS_MSG_SHORTTRIGGER:
    case FS_MSG_SHORTTRIGVAR:
        ev->u.list.player = player;
        parse_list(&m, p[0], &ev->u.list);
        break;
    case FS_MSG_INTERPOLATE: {   // VECTOR 4, QUAT 16, f32 bank 32, LONGLONG time 40
        fs_interp_t *ip = &ev->u.interp;
        ip->player = player;
        at(&m, 4);
        vec(&m, ip->pos);
        for (int i = 0; i < 4; i++)
            ip->quat[i] = msg_f32(&m);
        ip->bank = msg_f32(&m);
        at(&m, 40);
        ip->next_time = msg_u64(&m);
        break;
    }
    case FS_MSG_VERYSHORTINTERPOLATE: {   // SHORTVECTOR 2, SHORTQUAT 8, int16 bank 16, LONGLONG time 24
        fs_interp_t *ip = &ev->u.interp;
        ip->player = player;
        svec(&m, ip->pos);
        squat(&m, ip->quat);
        ip->bank = (float)msg_s16(&m) * FS_BANK_MAX / FS_UNIT_SCALE;
        at(&m, 24);
        ip->next_time = msg_u64(&m);
        break;
    }
    case FS_MSG_LONGSTATUS: {   // STATUSMSG at 8 (8-byte aligned by its LONGLONG), or at 4 without it
        fs_longstatus_t *ls = &ev->u.lstatus;
        int big = n >= FS_SIZE_LONGSTATUS;
        size_t st_at = big ? 8 : 4, name_at = big ? 48 : 32;
        ls->player = player;
        status_at(&m, st_at, big, &ls->status);
        at(&m, name_at);
        text_field(&m, 32, ls->level, sizeof(ls->level));
        ls->start_pos_modify = (uint16_t)msg_u16(&m);
        break;
    }
    case FS_MSG_VERYSHORTDROPPICKUP: {   // VERYSHORTPICKUPINFO at 4 (aligned by its floats)
        fs_droppickup_t *d = &ev->u.vsdrop;
        d->player = player;
        at(&m, 4);
        d->id = (uint16_t)msg_u16(&m);
        d->type = (int16_t)msg_u8(&m);
        d->group = (uint16_t)msg_u8(&m);
        d->regen_slot = (int16_t)msg_u8(&m);
        d->sparkle = (uint32_t)msg_u8(&m);
        svec(&m, d->pos);
        for (int i = 0; i < 3; i++)
            d->dir[i] = (float)msg_s16(&m) / FS_UNIT_SCALE;
        at(&m, 24);
        d->speed = msg_f32(&m);
        d->life_count = msg_f32(&m);
        d->trigger_mod = (uint16_t)msg_u16(&m);
        break;
    }
    default:
        break;
    }
    return 0;
}

int fs_bigpacket_next(const uint8_t *p, size_t n, size_t base, size_t *pos, size_t *msg, size_t *len,
                      float *framelag, dec_error_t *err)
{
    size_t at0 = *pos;
    if (at0 >= n) {
        dec_error_set(err, (long long)(base + n), "expected a 0 code ending the MSG_BIGPACKET, found its end");
        return -1;
    }
    uint8_t code = p[at0];
    if (code == 0)
        return 0;
    size_t size = fs_msg_size(code);
    if (code == FS_MSG_GUARANTEEDMSG) {
        // the wrapped message's size decides: the block is GUARANTEEDMSG less its last byte, plus the message
        if (n - at0 <= FS_GUARANTEED_MSG_AT) {
            dec_error_set(err, (long long)(base + at0), "expected a %d-byte MSG_GUARANTEEDMSG head, found %zu bytes",
                          FS_GUARANTEED_MSG_AT + 1, n - at0);
            return -1;
        }
        uint8_t inner = p[at0 + FS_GUARANTEED_MSG_AT];
        size_t isize = fs_msg_size(inner);
        if (!isize || inner == FS_MSG_GUARANTEEDMSG) {
            dec_error_set(err, (long long)(base + at0 + FS_GUARANTEED_MSG_AT),
                          "expected a message code the game gives a size inside MSG_GUARANTEEDMSG, found 0x%02x", inner);
            return -1;
        }
        size = FS_SIZE_GUARANTEED - 1 + isize;
    } else if (!size) {
        dec_error_set(err, (long long)(base + at0),
                      "expected a message code the game gives a size inside MSG_BIGPACKET, found 0x%02x", code);
        return -1;
    }
    if (n - at0 < size + 4) {
        dec_error_set(err, (long long)(base + at0), "expected %zu bytes for %s and its frame lag, found %zu (truncated)",
                      size + 4, fs_msg_name(code), n - at0);
        return -1;
    }
    union { uint32_t u; float f; } v;
    const uint8_t *q = p + at0 + size;
    v.u = (uint32_t)q[0] | ((uint32_t)q[1] << 8) | ((uint32_t)q[2] << 16) | ((uint32_t)q[3] << 24);
    if (!(v.f >= 0.0f && v.f <= 300.0f)) {   // the game drops the rest of the packet (EvaluateMessage)
        dec_error_set(err, (long long)(base + at0 + size), "expected a frame lag of 0..300 after %s, found %g",
                      fs_msg_name(code), (double)v.f);
        return -1;
    }
    *msg = at0;
    *len = size;
    *framelag = v.f;
    *pos = at0 + size + 4;
    return 1;
}

long fs_parse_header(const uint8_t *data, size_t size, fs_header_t *h, dec_error_t *err)
{
    memset(h, 0, sizeof(*h));
    if (size < FS_HEADER_FIXED + 1) {
        dec_error_set(err, (long long)size, "expected a Forsaken demo header of at least %d bytes, found %zu",
                      FS_HEADER_FIXED + 1, size);
        return -1;
    }
    msg_t m;
    msg_init(&m, data, size, 0);
    h->version = msg_u32(&m);
    if (h->version < FS_VERSION_MIN || h->version > FS_VERSION_MAX) {
        dec_error_set(err, 0, "expected a demo version 0x%04x..0x%04x, found 0x%x", FS_VERSION_MIN, FS_VERSION_MAX,
                      h->version);
        return -1;
    }
    h->seed1 = (uint16_t)msg_u16(&m);
    h->seed2 = (uint16_t)msg_u16(&m);
    h->random_pickups = msg_u32(&m);
    h->pickup_flags = msg_u64(&m);
    h->game_flags = msg_u32(&m);
    h->start_pos_modify = (uint16_t)msg_u16(&m);
    size_t len = 0;
    while (len < FS_LEVEL_MAX && FS_HEADER_FIXED + len < size && data[FS_HEADER_FIXED + len])
        len++;
    if (len >= FS_LEVEL_MAX || FS_HEADER_FIXED + len >= size) {
        dec_error_set(err, FS_HEADER_FIXED, "expected the level name to end with a NUL within %d bytes",
                      FS_LEVEL_MAX);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        uint8_t c = data[FS_HEADER_FIXED + i];
        h->level[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    h->level[len] = 0;
    return (long)(FS_HEADER_FIXED + len + 1);
}

// ---- orientation -------------------------------------------------------------
//
// Axes are the game's: x right, y up, z forward. q rotates ship-local vectors
// into the level (v' = q v q*). The angles are the R = Ry(yaw) Rx(pitch) Rz(roll)
// decomposition of that rotation, pitch positive nose down as Quake's; the bank
// is a last rotation about the ship's own z axis, so it adds to the roll.

#define FS_RAD2DEG (180.0 / 3.14159265358979323846)

void fs_quat_to_angles(const float qin[4], float bank, float angles[3])
{
    double w = qin[0], x = qin[1], y = qin[2], z = qin[3];
    double len = sqrt(w * w + x * x + y * y + z * z);
    if (!(len > 1e-9) || !isfinite(len)) {
        w = 1;
        x = y = z = 0;
    } else {
        w /= len;
        x /= len;
        y /= len;
        z /= len;
    }
    // columns of R: right = R(1,0,0), up = R(0,1,0), forward = R(0,0,1)
    double fx = 2 * (x * z + w * y), fy = 2 * (y * z - w * x), fz = 1 - 2 * (x * x + y * y);
    double rx = 1 - 2 * (y * y + z * z), ry = 2 * (x * y + w * z), rz = 2 * (x * z - w * y);
    double uy = 1 - 2 * (x * x + z * z);
    if (fy > 1)
        fy = 1;
    if (fy < -1)
        fy = -1;
    double pitch = asin(-fy), yaw, roll;
    if (fabs(fy) > 0.999999) {
        roll = 0;   // gimbal lock: put the whole turn into yaw
        yaw = atan2(-rz, rx);
    } else {
        yaw = atan2(fx, fz);
        roll = atan2(ry, uy);
    }
    angles[0] = (float)(pitch * FS_RAD2DEG) + 0.0f;   // no "-0" in dumps
    angles[1] = (float)(yaw * FS_RAD2DEG) + 0.0f;
    double r = roll * FS_RAD2DEG + (isfinite(bank) ? fmod(bank, 360.0) : 0.0);   // a hostile bank is any float
    while (r > 180)
        r -= 360;
    while (r <= -180)
        r += 360;
    angles[2] = (float)r;
}

static void quat_mul(const double a[4], const double b[4], double out[4])
{
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void fs_angles_to_quat(const float angles[3], float q[4])
{
    double p = angles[0] / FS_RAD2DEG / 2, yw = angles[1] / FS_RAD2DEG / 2, r = angles[2] / FS_RAD2DEG / 2;
    double qy[4] = { cos(yw), 0, sin(yw), 0 };
    double qx[4] = { cos(p), sin(p), 0, 0 };
    double qz[4] = { cos(r), 0, 0, sin(r) };
    double t[4], o[4];
    quat_mul(qy, qx, t);
    quat_mul(t, qz, o);
    for (int i = 0; i < 4; i++)
        q[i] = (float)o[i];
}
