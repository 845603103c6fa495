// forsaken.c -- Forsaken .DMO decoder: the header, then one event (one network message) per frame
//
// Every event becomes one world frame at its own time. Ships are entities
// player + 1; pickups dropped into the level are entities FS_PICKUP_ENT0 + slot.
// Ships and pickups stay visible between their messages (a ship sends updates
// a few times a second, each in its own event), so every frame re-submits all
// live ships and pickups; a ship's prev state is then its last update.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../engine/json.h"
#include "../engine/world_fs.h"
#include "decoder.h"
#include "forsaken.h"
#include "forsaken_fields.h"
#include "forsaken_trig.h"
#include "msg.h"

#define FS_SHIPS FSW_SHIPS                 // player 32 is the server in server games
#define FS_MAX_PICKUPS FSW_MAX_PICKUPS
#define FS_PICKUP_ENT0 FSW_PICKUP_ENT0

// World model table the decoder fills (Forsaken demos carry no precache lists).
enum { FS_MODEL_LEVEL = FSW_MODEL_LEVEL, FS_MODEL_SHIP = FSW_MODEL_SHIP, FS_MODEL_PICKUP = FSW_MODEL_PICKUP };

typedef struct {
    uint8_t used;
    uint16_t owner;                    // the player who dropped it; 0xffff: one of the level's own
    uint16_t id;
} fs_pickup_slot_t;

// A ship moving to where a MSG_INTERPOLATE / MSG_VERYSHORTINTERPOLATE says it will be (the
// game's Old/Next Pos, Quat, Bank, Time): from where it was at t0 to there at t1.
typedef struct {
    uint8_t active;
    double t0, t1;
    float pos0[3], pos1[3];
    float quat0[4], quat1[4];
    float bank0, bank1;
} fs_interp_state_t;

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
    dec_opts_t opts;
    demo_info_t info;
    fs_header_t hdr;
    int failed;
    double time;                       // world time: the latest event time so far
    uint8_t ship_live[FS_SHIPS];
    uint8_t bike[FS_SHIPS];
    uint8_t status[FS_SHIPS];
    uint8_t group[FS_SHIPS];
    int32_t dropped_pickups;
    int32_t pickup_hi;                 // 1 + the highest slot in use: the loops stop there
    fs_pickup_slot_t pickups[FS_MAX_PICKUPS];
    uint8_t bgo_live[FSW_MAX_BGO];     // background objects a MSG_BGOUPDATE named
    uint8_t host;                      // the host's recording: no MSG_SHORTPICKUP list in it
    int32_t lpick_hi;                  // 1 + the highest level pickup id killed
    uint8_t lpick_killed[FSW_MAX_LPICK + 1];   // level pickups (owner 0xffff) a MSG_KILLPICKUP named
    float quat[FS_SHIPS][4];           // each ship's orientation and bank now (interpolation starts there)
    float bank[FS_SHIPS];
    fs_interp_state_t interp[FS_SHIPS];
    fs_trig_t trig;                    // the level's triggers run on the host's path (forsaken_trig.h)
    char msg_warning[288];             // the warning of the message being dumped ("" none)
} fs_state_t;

static float finite_or_zero(float v) { return isfinite(v) ? v : 0.0f; }

static void copy_vec(vec3_t out, const float in[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = finite_or_zero(in[i]);
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

// ---- probe -------------------------------------------------------------------

static int fs_probe(const uint8_t *data, size_t size)
{
    if (size < FS_HEADER_FIXED + 2)
        return 0;
    uint32_t version = (uint32_t)data[0] | ((uint32_t)data[1] << 8) | ((uint32_t)data[2] << 16) |
                       ((uint32_t)data[3] << 24);
    if (version < FS_VERSION_MIN || version > FS_VERSION_MAX)
        return 0;
    // a short level name: printable, NUL within 32 bytes, not empty
    size_t len = 0;
    while (len < 32 && FS_HEADER_FIXED + len < size && data[FS_HEADER_FIXED + len]) {
        uint8_t c = data[FS_HEADER_FIXED + len];
        if (c < 0x20 || c > 0x7e)
            return 0;
        len++;
    }
    if (len == 0 || len >= 32 || FS_HEADER_FIXED + len >= size)
        return 0;
    size_t ev = FS_HEADER_FIXED + len + 1;
    if (ev == size)
        return 60;   // a header and no events
    if (size - ev < FS_EVENT_HEADER + 1)
        return 0;
    msg_t m;
    msg_init(&m, data + ev, size - ev, ev);
    uint64_t ts = msg_u64(&m);
    uint32_t n = msg_u32(&m);
    if (ts >= (1ull << 40) || n == 0 || n > FS_EVENT_MAX || n > size - ev - FS_EVENT_HEADER)
        return 0;
    return 90;
}

// ---- dump --------------------------------------------------------------------

typedef struct {
    FILE *f;
    int json;
} fs_dump_t;

static void d_int(fs_dump_t *d, const char *key, long long v)
{
    if (d->json)
        fprintf(d->f, ",\"%s\":%lld", key, v);
    else
        fprintf(d->f, " %s=%lld", key, v);
}

static void d_hex(fs_dump_t *d, const char *key, unsigned long long v)
{
    if (d->json)
        fprintf(d->f, ",\"%s\":%llu", key, v);
    else
        fprintf(d->f, " %s=0x%llx", key, v);
}

static void d_num(fs_dump_t *d, const char *key, double v)
{
    if (d->json) {
        fprintf(d->f, ",\"%s\":", key);
        json_number(d->f, v);
    } else {
        fprintf(d->f, " %s=%g", key, v);
    }
}

static void d_vec(fs_dump_t *d, const char *key, const float *v, int n)
{
    if (d->json) {
        fprintf(d->f, ",\"%s\":[", key);
        for (int i = 0; i < n; i++) {
            if (i)
                fputc(',', d->f);
            json_number(d->f, v[i]);
        }
        fputc(']', d->f);
    } else {
        fprintf(d->f, " %s=(", key);
        for (int i = 0; i < n; i++)
            fprintf(d->f, "%s%g", i ? " " : "", v[i]);
        fputc(')', d->f);
    }
}

// Integers (counts, bit masks, ids): JSON numbers, or (a b c) in text.
static void d_ivec(fs_dump_t *d, const char *key, const long long *v, int n)
{
    fprintf(d->f, d->json ? ",\"%s\":[" : " %s=(", key);
    for (int i = 0; i < n; i++)
        fprintf(d->f, "%s%lld", i ? (d->json ? "," : " ") : "", v[i]);
    fputc(d->json ? ']' : ')', d->f);
}

static void d_str(fs_dump_t *d, const char *key, const char *s)
{
    if (d->json) {
        fprintf(d->f, ",\"%s\":", key);
        json_string(d->f, s);
    } else {
        fprintf(d->f, " %s=\"%s\"", key, s);
    }
}

// An integer field's element i, by its struct type.
static long long field_int(const fs_field_t *f, const uint8_t *src, int i)
{
    switch (f->kind) {
    case FS_K_U8: return src[i];
    case FS_K_U16: return ((const uint16_t *)src)[i];
    case FS_K_S16: return ((const int16_t *)src)[i];
    case FS_K_U32:
    case FS_K_U16_U32: return ((const uint32_t *)src)[i];
    case FS_K_S32: return ((const int32_t *)src)[i];
    case FS_K_U64: return (long long)((const uint64_t *)src)[i];
    default: return 0;
    }
}

// The fields of table t of the struct at in, each as its table says; entry >= 0: keys p<entry>_<name>.
static void dump_fields(fs_dump_t *d, const fs_fields_t *t, const void *in, int entry)
{
    char k[32];
    for (const fs_field_t *f = t->fields; f < t->fields + t->count; f++) {
        const uint8_t *src = (const uint8_t *)in + f->field;
        const char *key = f->name;
        if (f->dump == FS_D_NONE)
            continue;
        if (entry >= 0) {
            snprintf(k, sizeof k, "p%d_%s", entry, f->name);
            key = k;
        }
        switch (f->dump) {
        case FS_D_INT: d_int(d, key, field_int(f, src, 0)); break;
        case FS_D_HEX: d_hex(d, key, (unsigned long long)field_int(f, src, 0)); break;
        case FS_D_NUM: d_num(d, key, *(const float *)src); break;
        case FS_D_VEC: d_vec(d, key, (const float *)src, f->count); break;
        case FS_D_FVEC: {
            float v[FS_MAX_PLAYERS];
            int n = f->count < FS_MAX_PLAYERS ? f->count : FS_MAX_PLAYERS;
            for (int i = 0; i < n; i++)
                v[i] = (float)field_int(f, src, i);
            d_vec(d, key, v, n);
            break;
        }
        case FS_D_IVEC: {
            long long v[FS_MAX_PLAYERS];
            int n = f->count < FS_MAX_PLAYERS ? f->count : FS_MAX_PLAYERS;
            for (int i = 0; i < n; i++)
                v[i] = field_int(f, src, i);
            d_ivec(d, key, v, n);
            break;
        }
        case FS_D_HEX2:
            d_hex(d, key, ((unsigned long long)field_int(f, src, 1) << 32) | (unsigned long long)field_int(f, src, 0));
            break;
        case FS_D_STR: d_str(d, key, (const char *)src); break;
        case FS_D_MSGNAME: {
            const char *name = fs_msg_name((uint8_t)field_int(f, src, 0));
            d_str(d, key, name ? name : "unknown");
            break;
        }
        default: break;
        }
    }
}

static void dump_ship(fs_dump_t *d, const fs_ship_t *s, int with_weapons)
{
    dump_fields(d, with_weapons ? &fs_fship_fields : &fs_ship_fields, s, -1);
    d_vec(d, "pos", s->pos, 3);
    d_vec(d, "vel", s->vel, 3);
    d_vec(d, "rot", s->rot, 3);
    d_num(d, "bank", s->bank);
    d_vec(d, "quat", s->quat, 4);
    float ang[3];
    fs_quat_to_angles(s->quat, s->bank, ang);
    d_vec(d, "angles", ang, 3);
}

// A STATUSMSG: its player (MSG_STATUS; MSG_LONGSTATUS shows it as status_player), fields, level checksum.
static void dump_status(fs_dump_t *d, const fs_status_t *s, int with_player)
{
    fs_fields_t t = fs_status_fields;
    if (!with_player) {   // the table's first row is the player
        t.fields++;
        t.count--;
    }
    dump_fields(d, &t, s, -1);
    if (s->has_checksum)
        d_hex(d, "level_checksum", s->level_checksum);
}

// The entries of a SHORT* list the game marks valid (count), as p<i>_<field> (the list's size bounds them).
static void dump_list(fs_dump_t *d, uint8_t code, const fs_list_t *l)
{
    d_int(d, "player", l->player);
    d_int(d, "count", l->count);
    d_int(d, "batch", l->batch);
    if (code == FS_MSG_SHORTPICKUP) {
        for (int i = 0; i < l->count && i < FS_GEN_PICKUPS; i++)
            dump_fields(d, &fs_pickupinfo_fields, &l->e.pickups[i], i);
    } else if (code == FS_MSG_SHORTMINE) {
        for (int i = 0; i < l->count && i < FS_GEN_MINES; i++)
            dump_fields(d, &fs_mineinfo_fields, &l->e.mines[i], i);
    } else if (code == FS_MSG_SHORTREGENSLOT) {
        for (int i = 0; i < l->count && i < FS_GEN_REGENSLOTS; i++)
            dump_fields(d, &fs_regenslot_fields, &l->e.slots[i], i);
    } else {   // SHORTTRIGGER (Active), SHORTTRIGVAR (State)
        long long v[FS_GEN_TRIGGERS];
        int n = l->count < FS_GEN_TRIGGERS ? l->count : FS_GEN_TRIGGERS;
        for (int i = 0; i < n; i++)
            v[i] = l->e.states[i];
        d_ivec(d, code == FS_MSG_SHORTTRIGGER ? "active" : "states", v, n);
    }
}

// The messages whose layout is code (a known one with no table, or one skipped by its size).
static void dump_special(fs_dump_t *d, const fs_event_t *ev, const char *name)
{
    switch (ev->known ? ev->type : 0) {
    case FS_MSG_VERYSHORTUPDATE:
    case FS_MSG_UPDATE:
        dump_ship(d, &ev->u.ship, 0);
        break;
    case FS_MSG_VERYSHORTFUPDATE:
    case FS_MSG_FUPDATE:
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE:
        dump_ship(d, &ev->u.ship, 1);
        break;
    case FS_MSG_STATUS:
        dump_status(d, &ev->u.status, 1);
        break;
    case FS_MSG_SHORTPICKUP:
    case FS_MSG_SHORTMINE:
    case FS_MSG_SHORTREGENSLOT:
    case FS_MSG_SHORTTRIGGER:
    case FS_MSG_SHORTTRIGVAR:
        dump_list(d, ev->type, &ev->u.list);
        break;
    case FS_MSG_INTERPOLATE:
    case FS_MSG_VERYSHORTINTERPOLATE: {
        const fs_interp_t *ip = &ev->u.interp;
        float ang[3];
        fs_quat_to_angles(ip->quat, ip->bank, ang);
        d_int(d, "player", ip->player);
        d_vec(d, "next_pos", ip->pos, 3);
        d_vec(d, "next_quat", ip->quat, 4);
        d_num(d, "next_bank", ip->bank);
        d_vec(d, "next_angles", ang, 3);
        d_int(d, "next_ticks", (long long)ip->next_time);
        d_num(d, "next_time", (double)ip->next_time / FS_TICKS_PER_SECOND);
        break;
    }
    case FS_MSG_LONGSTATUS:
        d_int(d, "player", ev->u.lstatus.player);
        d_int(d, "status_player", ev->u.lstatus.status.player);
        dump_status(d, &ev->u.lstatus.status, 0);
        d_str(d, "level", ev->u.lstatus.level);
        d_int(d, "start_pos_modify", ev->u.lstatus.start_pos_modify);
        break;
    case FS_MSG_VERYSHORTDROPPICKUP: {   // in the long form's units
        const fs_droppickup_t *p = &ev->u.vsdrop;
        d_int(d, "player", p->player);
        d_int(d, "id", p->id);
        d_int(d, "pickup_type", p->type);
        d_int(d, "group", p->group);
        d_int(d, "regen_slot", p->regen_slot);
        d_int(d, "sparkle", p->sparkle);
        d_vec(d, "pos", p->pos, 3);
        d_vec(d, "dir", p->dir, 3);
        d_num(d, "speed", p->speed);
        d_num(d, "life_count", p->life_count);
        d_int(d, "trigger_mod", p->trigger_mod);
        break;
    }
    default:
        if (name)
            d_str(d, "layout", "shorter than expected");
        d_int(d, "skipped", ev->size);
        break;
    }
}

// MSG_LEVELNAMES' names: the first `batch` of them.
static void dump_levelnames(fs_dump_t *d, const fs_levelnames_t *l)
{
    char k[24];
    for (int i = 0; i < l->batch && i < FS_LEVELNAMES_BATCH; i++) {
        snprintf(k, sizeof k, "level%d", i);
        d_str(d, k, l->names[i]);
    }
}

// One line per message; `framelag` (game ticks) for a message packed in a MSG_BIGPACKET, else NAN.
static void dump_event(const fs_state_t *st, const fs_event_t *ev, double t, float framelag)
{
    fs_dump_t dd = { st->opts.dump, st->opts.dump_json }, *d = &dd;
    const char *name = fs_msg_name(ev->type);
    if (d->json) {
        fprintf(d->f, "{\"offset\":%zu,\"time\":", ev->offset);
        json_number(d->f, t);
        fprintf(d->f, ",\"ticks\":%llu,\"size\":%u,\"sender\":%u,\"type\":", (unsigned long long)ev->timestamp,
                ev->size, ev->sender);
        json_string(d->f, name ? name : "unknown");
        fprintf(d->f, ",\"code\":%u", ev->type);
    } else {
        fprintf(d->f, "%8zu %12.6f %s%-30s code=0x%02x size=%u sender=%u ticks=%llu", ev->offset, t,
                ev->depth ? "> " : "", name ? name : "unknown", ev->type, ev->size, ev->sender,
                (unsigned long long)ev->timestamp);
    }
    if (ev->depth)
        d_int(d, "depth", ev->depth);
    if (isfinite(framelag))
        d_num(d, "framelag", framelag);
    const fs_fields_t *table = ev->known ? fs_msg_fields(ev->type) : NULL;
    if (table) {   // a layout of plain fields (forsaken_fields.c)
        dump_fields(d, table, &ev->u, -1);
        if (ev->type == FS_MSG_LEVELNAMES)
            dump_levelnames(d, &ev->u.levels);
    } else {
        dump_special(d, ev, name);
    }
    if (st->msg_warning[0])
        d_str(d, "warning", st->msg_warning);
    fputs(d->json ? "}\n" : "\n", d->f);
}

// A problem with a container's structure (after the messages read from it): a line of its own.
static void dump_warning(const fs_state_t *st, long long offset, double t)
{
    fs_dump_t dd = { st->opts.dump, st->opts.dump_json }, *d = &dd;
    if (d->json) {
        fprintf(d->f, "{\"offset\":%lld,\"time\":", offset);
        json_number(d->f, t);
        fputs(",\"type\":\"warning\"", d->f);
    } else {
        fprintf(d->f, "%8lld %12.6f > %-30s", offset, t, "warning");
    }
    d_str(d, "warning", st->msg_warning);
    fputs(d->json ? "}\n" : "\n", d->f);
}

static void dump_header(const fs_state_t *st, long len)
{
    FILE *f = st->opts.dump;
    const fs_header_t *h = &st->hdr;
    if (st->opts.dump_json) {
        fprintf(f,
                "{\"offset\":0,\"type\":\"header\",\"version\":%u,\"seed1\":%u,\"seed2\":%u,\"random_pickups\":%u,"
                "\"pickup_flags\":%llu,\"game_flags\":%u,\"start_pos_modify\":%u,\"level\":",
                h->version, h->seed1, h->seed2, h->random_pickups, (unsigned long long)h->pickup_flags, h->game_flags,
                h->start_pos_modify);
        json_string(f, h->level);
        fprintf(f, ",\"size\":%ld,\"recorder\":\"%s\"}\n", len, st->host ? "host" : "joiner");
    } else {
        fprintf(f,
                "%8d header version=0x%04x seed1=%u seed2=%u random_pickups=%u pickup_flags=0x%llx game_flags=0x%x "
                "start_pos_modify=%u level=\"%s\" size=%ld recorder=%s\n",
                0, h->version, h->seed1, h->seed2, h->random_pickups, (unsigned long long)h->pickup_flags,
                h->game_flags, h->start_pos_modify, h->level, len, st->host ? "host" : "joiner");
    }
}

// ---- open --------------------------------------------------------------------

// The host's recording? Only the host records (the game opens a demo file in StartAHostSession
// alone), and a joiner is the one sent MSG_SHORTPICKUP (the pickups in the level, RegenPickupList):
// a recording with such a list, as an event or wrapped in a guaranteed message, is a joiner's.
// Reads only the event headers and each payload's first bytes; stops at the first bad header.
static int recorded_by_host(const uint8_t *data, size_t size, size_t pos)
{
    while (size - pos >= FS_EVENT_HEADER) {
        msg_t m;
        msg_init(&m, data + pos, size - pos, pos);
        msg_u64(&m);
        uint32_t n = msg_u32(&m);
        if (n > size - pos - FS_EVENT_HEADER)
            break;
        const uint8_t *p = data + pos + FS_EVENT_HEADER;
        if (n >= 1 && p[0] == FS_MSG_SHORTPICKUP)
            return 0;
        if (n > FS_GUARANTEED_MSG_AT && p[0] == FS_MSG_GUARANTEEDMSG && p[FS_GUARANTEED_MSG_AT] == FS_MSG_SHORTPICKUP)
            return 0;
        pos += FS_EVENT_HEADER + (size_t)n;
    }
    return 1;
}

// Entity FSW_LPICK_INFO: how the host placed the level's own pickups (engine/world_fs.h).
static void lpick_info(const fs_state_t *st, world_t *w)
{
    entity_state_t e;
    entity_state_clear(&e);
    e.modelindex = FSW_MODEL_LPICK;
    e.raw_effects = (st->host ? FSW_LPICK_HOST : 0) | (st->hdr.random_pickups ? FSW_LPICK_RANDOM : 0);
    e.skin = (int32_t)st->hdr.game_flags;
    e.body = (int32_t)(uint32_t)st->hdr.pickup_flags;
    e.sequence = (int32_t)(uint32_t)(st->hdr.pickup_flags >> 32);
    world_entity_update(w, FSW_LPICK_INFO, &e);
}

static void fs_warn(fs_state_t *st, long long offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fs_open(void *vst, const uint8_t *data, size_t size, world_t *w, const dec_opts_t *opts,
                   dec_error_t *err)
{
    fs_state_t *st = vst;
    memset(st, 0, sizeof(*st));
    st->data = data;
    st->size = size;
    if (opts)
        st->opts = *opts;
    st->info.format = "forsaken";
    st->info.counts_unknown = 1;
    long len = fs_parse_header(data, size, &st->hdr, err);
    if (len < 0) {
        st->failed = 1;
        return -1;
    }
    st->pos = (size_t)len;
    st->host = (uint8_t)recorded_by_host(data, size, st->pos);
    st->info.protocol = (int32_t)st->hdr.version;
    copy_str(st->info.map, sizeof(st->info.map), st->hdr.level);
    copy_str(st->info.level_name, sizeof(st->info.level_name), st->hdr.level);
    st->info.maxclients = FS_MAX_PLAYERS;
    st->info.levels = 1;

    world_reset(w);
    w->game = GAME_FORSAKEN;
    w->player_eye_height = 0.0f;   // a ship's eye is its centre; its angles are the view's
    w->player_pitch_scale = 1.0f;
    w->protocol = (int32_t)st->hdr.version;
    // Data/Levels/NAME/NAME.MXV (the file system is case-insensitive)
    snprintf(w->map, sizeof(w->map), "levels/%.24s/%.24s.mxv", st->hdr.level, st->hdr.level);
    copy_str(w->level_name, sizeof(w->level_name), st->hdr.level);
    w->level_seq++;   // tells the players and `shot` there is a level to load
    w->maxclients = FS_MAX_PLAYERS;
    w->deathmatch = 1;
    w->playernum = 0;
    world_set_model(w, FS_MODEL_LEVEL, w->map);
    world_set_model(w, FS_MODEL_SHIP, "*ship");
    world_set_model(w, FS_MODEL_PICKUP, "*pickup");
    // the game writes the recorder's own name as player 0's first: follow that ship
    w->view.entity = 1;
    for (int i = 0; i < WORLD_MAX_PLAYERS; i++) {
        w->players[i].entity = i < FS_SHIPS ? i + 1 : -1;
        w->players[i].shield = w->players[i].hull = -1;   // not said yet
        w->players[i].team = -1;
    }
    if (st->opts.dump)
        dump_header(st, len);
    // the level's triggers: only the host's recording holds the path they run on
    char warn[320];
    int trig = st->host ? fs_trig_load(&st->trig, &st->opts.files, st->hdr.level, warn, sizeof warn) : 0;
    if (trig != 0) {
        fs_warn(st, 0, "%s (%s)", warn, trig < 0 ? "the level's triggers are not run" : "the shots into trigger areas are not counted");
        st->msg_warning[0] = 0;
    }
    memset(&st->opts.files, 0, sizeof st->opts.files);   // asked only here
    return 0;
}

// ---- applying events -----------------------------------------------------------

// Say it (once per problem): info's first warning, the count, the engine's callback, the dump line.
static void fs_warn(fs_state_t *st, long long offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fs_warn(fs_state_t *st, long long offset, const char *fmt, ...)
{
    char what[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    st->info.warnings++;
    if (!st->info.warning[0]) {
        st->info.warning_offset = offset;
        snprintf(st->info.warning, sizeof st->info.warning, "%s", what);
    }
    if (!st->msg_warning[0])
        snprintf(st->msg_warning, sizeof st->msg_warning, "offset %lld: %s", offset, what);
    if (st->opts.warn)
        st->opts.warn(st->opts.warn_ctx, offset, what);
}

// A player number the game's arrays hold (0..31, 32 the server)? Else a warning at the
// field (`field` bytes into the message) and the message changes nothing.
static int bad_player(fs_state_t *st, const fs_event_t *ev, unsigned p, size_t field)
{
    if (p < FS_SHIPS)
        return 0;
    fs_warn(st, (long long)(ev->at + field), "expected a player number 0..%d in %s, found %u (ignored)", FS_SHIPS - 1,
            fs_msg_name(ev->type), p);
    return 1;
}

// A message skipped by its size: its code and size named.
static void skipped(fs_state_t *st, const fs_event_t *ev)
{
    st->info.unknown_events++;
    const char *name = fs_msg_name(ev->type);
    if (ev->size == 0)
        fs_warn(st, (long long)ev->at, "expected a message (at least its code byte), found an empty payload (skipped)");
    else if (!name)
        fs_warn(st, (long long)ev->at, "expected a message code the game defines, found 0x%02x (%u bytes skipped)",
                ev->type, ev->size);
    else
        fs_warn(st, (long long)ev->at, "expected at least %zu bytes for %s (code 0x%02x), found %u (skipped)",
                fs_msg_min_size(ev->type), name, ev->type, ev->size);
}

static void apply_ship(fs_state_t *st, world_t *w, const fs_event_t *ev)
{
    const fs_ship_t *s = &ev->u.ship;
    int p = s->player, num = p + 1;
    int with_weapons = ev->type == FS_MSG_FUPDATE || ev->type == FS_MSG_VERYSHORTFUPDATE ||
                       ev->type == FS_MSG_GROUPONLY_VERYSHORTFUPDATE;
    const entity_state_t *old = &w->entities[num].cur;
    entity_state_t e;
    entity_state_clear(&e);
    copy_vec(e.origin, s->pos);
    float ang[3];
    fs_quat_to_angles(s->quat, s->bank, ang);
    copy_vec(e.angles, ang);
    unsigned mode = (s->flags >> FS_SHIP_MODE_SHIFT) & 3;
    e.modelindex = ((s->flags & FS_SHIP_ENABLE) && mode != 2) ? FS_MODEL_SHIP : 0;
    e.skin = st->bike[p];
    // weapons: body = primary, sequence = secondary, frame = trojax charge (kept from the last F update)
    e.body = with_weapons ? s->primary : (st->ship_live[p] ? old->body : 0);
    e.sequence = with_weapons ? s->secondary : (st->ship_live[p] ? old->sequence : 0);
    e.frame = with_weapons ? s->charge : (st->ship_live[p] ? old->frame : 0);
    e.raw_effects = s->flags;
    if (s->flags & FS_SHIP_PRIMFIRE)
        e.effects |= EF_MUZZLEFLASH;
    if (s->flags & FS_SHIP_INVUL)
        e.effects |= EF_BRIGHTFIELD;
    if (s->flags & FS_SHIP_LIGHT)
        e.effects |= EF_DIMLIGHT;
    if (s->flags & FS_SHIP_STEALTH) {
        e.rendermode = RM_TEXTURE;
        e.renderamt = 48;
    }
    world_entity_update(w, num, &e);
    st->ship_live[p] = 1;
    st->interp[p].active = 0;   // where the update says; a MSG_INTERPOLATE may follow
    for (int i = 0; i < 4; i++)
        st->quat[p][i] = finite_or_zero(s->quat[i]);
    st->bank[p] = finite_or_zero(s->bank);
    if (!with_weapons)
        st->status[p] = s->status;
    st->group[p] = s->group;
    w->players[p].active = 1;
    if (st->host && p == 0)   // the recorder's own ship: the path the level's trigger areas see
        fs_trig_host(&st->trig, w, e.origin, s->group, (s->flags & FS_SHIP_ENABLE) && mode == 0, st->time);
    if (w->view.entity == num) {
        copy_vec(w->view.velocity, s->vel);
        copy_vec(w->view.angles, ang);
        w->view.stats[STAT_WEAPON] = e.body;
        w->view.stats[STAT_ACTIVEWEAPON] = e.sequence;
    }
}

static world_fx_event_t *fx_event(world_t *w, world_fx_t kind, int raw, int owner, const float *pos, const float *dir,
                                  int count, float radius)
{
    world_event_t *ev = world_add_event(w, EV_TEMPENT);
    if (!ev)
        return NULL;
    ev->u.fx.kind = kind;
    ev->u.fx.raw_type = raw;
    ev->u.fx.entity = owner;
    copy_vec(ev->u.fx.origin, pos);
    copy_vec(ev->u.fx.end, pos);
    if (dir)
        copy_vec(ev->u.fx.dir, dir);
    ev->u.fx.count = count;
    ev->u.fx.radius = finite_or_zero(radius);
    ev->u.fx.duration = 0.5f;
    return &ev->u.fx;
}

// The weapon facts a renderer needs (render/r_fsent.c): args[0] weapon, [1] power level,
// [2] bullet id, [3] owner, [4] the trojax's charge (-1: not sent), [5] the LifeCount it starts at.
static world_fx_event_t *fx_weapon(world_fx_event_t *fx, int weapon, int power, int id, int owner)
{
    if (!fx)
        return NULL;
    fx->args[0] = weapon;
    fx->args[1] = power;
    fx->args[2] = id;
    fx->args[3] = owner;
    fx->args[4] = -1;
    fx->args[FSW_FX_ARG_LIFE] = 0;
    return fx;
}

// Where InitOneSecBull starts a secondary: the message's position plus its offset (a non-finite
// offset is left out).
static void start_pos(const float pos[3], const float offset[3], float out[3])
{
    int ok = isfinite(offset[0]) && isfinite(offset[1]) && isfinite(offset[2]);
    for (int k = 0; k < 3; k++)
        out[k] = pos[k] + (ok ? offset[k] : 0);
}

static int owner_entity(unsigned owner)
{
    return owner < FS_SHIPS ? (int)owner + 1 : 0;
}

// A pickup appears (MSG_DROPPICKUP, MSG_VERYSHORTDROPPICKUP, a MSG_SHORTPICKUP list), or moves
// when the same owner drops the same id again; found again by owner and id (InitOnePickup's key).
static void apply_pickup(fs_state_t *st, world_t *w, uint16_t owner, uint16_t id, int type, const float pos[3],
                         uint32_t sparkle)
{
    int slot = -1;
    for (int i = 0; i < st->pickup_hi; i++) {
        if (st->pickups[i].used && st->pickups[i].owner == owner && st->pickups[i].id == id) {
            slot = i;   // the same pickup dropped again: move it
            break;
        }
        if (slot < 0 && !st->pickups[i].used)
            slot = i;
    }
    if (slot < 0 && st->pickup_hi < FS_MAX_PICKUPS)
        slot = st->pickup_hi;
    if (slot < 0) {
        st->dropped_pickups++;
        return;
    }
    fs_pickup_slot_t *ps = &st->pickups[slot];
    if (slot >= st->pickup_hi)
        st->pickup_hi = slot + 1;
    ps->used = 1;
    ps->owner = owner;
    ps->id = id;
    entity_state_t e;
    entity_state_clear(&e);
    copy_vec(e.origin, pos);
    e.modelindex = FS_MODEL_PICKUP;
    e.skin = type;
    e.effects = EF_ROTATE;
    e.raw_effects = sparkle ? FSW_PICKUP_SPARKLE : 0;
    e.animtime = (float)st->time;   // when it appeared here: its twinkle's start (world_fs.h)
    world_entity_update(w, FS_PICKUP_ENT0 + slot, &e);
}

static void apply_kill(fs_state_t *st, world_t *w, const fs_killpickup_t *k)
{
    uint16_t owner = (uint16_t)k->owner;   // the game's uint16: 0xffff names a pickup of the level
    if (owner == 0xffff && k->id >= 1 && k->id <= FSW_MAX_LPICK && !st->lpick_killed[k->id]) {
        // one the host placed from the level's .PIC (or one a joiner's list named): gone for good
        st->lpick_killed[k->id] = 1;
        if (k->id + 1 > st->lpick_hi)
            st->lpick_hi = k->id + 1;
        entity_state_t e;
        entity_state_clear(&e);
        e.modelindex = FSW_MODEL_LPICK;
        e.animtime = (float)st->time;
        world_entity_update(w, FSW_LPICK_INFO + k->id, &e);
    }
    for (int i = 0; i < st->pickup_hi; i++) {
        fs_pickup_slot_t *ps = &st->pickups[i];
        if (ps->used && ps->owner == owner && ps->id == k->id) {
            ps->used = 0;
            while (st->pickup_hi > 0 && !st->pickups[st->pickup_hi - 1].used)
                st->pickup_hi--;
            return;
        }
    }
}

// Player p has left the game (told to by MSG_YOUQUIT, or saying so in MSG_STATUS): not in the
// score table, no ship until an update brings one back.
static void player_gone(fs_state_t *st, world_t *w, unsigned p)
{
    w->players[p].active = 0;
    st->ship_live[p] = 0;
    st->interp[p].active = 0;
}

// A status saying the player left (STATUS_Left) or dropped out (STATUS_LeftCrashed): the game
// counts such a player out (STATUS_VALID_PLAYER). Returns 1 when it did.
static int status_left(fs_state_t *st, world_t *w, const fs_status_t *s)
{
    if (s->status != FS_STATUS_LEFT && s->status != FS_STATUS_LEFT_CRASHED)
        return 0;
    player_gone(st, w, s->player);
    return 1;
}

// MSG_(VERYSHORT)INTERPOLATE: from where ship p is now to the message's place at its time.
static void apply_interp(fs_state_t *st, world_t *w, const fs_interp_t *ip)
{
    int p = ip->player;
    if (!st->ship_live[p])
        return;   // no ship to move yet (the game's would be at the origin)
    fs_interp_state_t *s = &st->interp[p];
    s->active = 1;
    s->t0 = st->time;
    s->t1 = (double)ip->next_time / FS_TICKS_PER_SECOND;
    memcpy(s->pos0, w->entities[p + 1].cur.origin, sizeof s->pos0);
    copy_vec(s->pos1, ip->pos);
    memcpy(s->quat0, st->quat[p], sizeof s->quat0);
    for (int i = 0; i < 4; i++)
        s->quat1[i] = finite_or_zero(ip->quat[i]);
    s->bank0 = st->bank[p];
    s->bank1 = finite_or_zero(ip->bank);
}

// Where an interpolating ship is at the world's time: positions and bank linearly, the
// quaternion normalised-linearly along the shorter arc; at the end it stops there.
static void interp_at(fs_state_t *st, int p, entity_state_t *e)
{
    fs_interp_state_t *s = &st->interp[p];
    double f = s->t1 > s->t0 ? (st->time - s->t0) / (s->t1 - s->t0) : 1.0;
    if (!(f > 0))
        f = 0;
    if (f >= 1) {
        f = 1;
        s->active = 0;
    }
    float ff = (float)f, q[4];
    float dot = s->quat0[0] * s->quat1[0] + s->quat0[1] * s->quat1[1] + s->quat0[2] * s->quat1[2] + s->quat0[3] * s->quat1[3];
    float sign = dot < 0 ? -1.0f : 1.0f;
    for (int i = 0; i < 3; i++)
        e->origin[i] = s->pos0[i] + (s->pos1[i] - s->pos0[i]) * ff;
    for (int i = 0; i < 4; i++)
        q[i] = s->quat0[i] + (sign * s->quat1[i] - s->quat0[i]) * ff;
    float bank = s->bank0 + (s->bank1 - s->bank0) * ff;
    memcpy(st->quat[p], q, sizeof q);
    st->bank[p] = bank;
    float ang[3];
    fs_quat_to_angles(q, bank, ang);
    copy_vec(e->angles, ang);
}

static int count_ok(fs_state_t *st, const fs_event_t *ev, int max)
{
    if (ev->u.list.count <= max)
        return ev->u.list.count;
    fs_warn(st, (long long)(ev->at + 2), "expected at most %d entries in %s, found %u (the %d there are used)", max,
            fs_msg_name(ev->type), ev->u.list.count, max);
    return max;
}

static void apply_event(fs_state_t *st, world_t *w, const fs_event_t *ev)
{
    switch (ev->type) {
    case FS_MSG_NAME:
        if (bad_player(st, ev, ev->u.name.player, 1))
            break;
        snprintf(w->players[ev->u.name.player].name, WORLD_NAME_LEN, "%s", ev->u.name.name);
        w->players[ev->u.name.player].active = 1;
        break;
    case FS_MSG_KILLSDEATHSBIKENUM: {
        const fs_bikenum_t *b = &ev->u.bikenum;
        if (bad_player(st, ev, b->player, 1))
            break;
        w->players[b->player].frags = b->kills;
        w->players[b->player].deaths = b->deaths;
        w->players[b->player].active = 1;
        st->bike[b->player] = b->bike;
        if (st->ship_live[b->player])
            w->entities[b->player + 1].cur.skin = b->bike;
        break;
    }
    case FS_MSG_HEREIAM:
        // a joiner may not have a player number yet (255)
        if (ev->u.hereiam.player < FS_SHIPS)
            w->players[ev->u.hereiam.player].active = 1;
        break;
    case FS_MSG_SENDKILLSDEATHSBIKENUM:
        if (bad_player(st, ev, ev->u.player, 1))
            break;
        w->players[ev->u.player].active = 1;
        break;
    case FS_MSG_UPDATE:
    case FS_MSG_FUPDATE:
    case FS_MSG_VERYSHORTUPDATE:
    case FS_MSG_VERYSHORTFUPDATE:
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE:
        if (bad_player(st, ev, ev->u.ship.player, 1))
            break;
        apply_ship(st, w, ev);
        break;
    case FS_MSG_SECBULLPOSDIR: {   // InitOneSecBull starts it at Pos + Offset; pos3: its DropDir, end: its UpVector
        float at[3];
        start_pos(ev->u.mine.pos, ev->u.mine.offset, at);
        world_fx_event_t *fx = fx_weapon(fx_event(w, FX_GENERIC, ev->type, owner_entity(ev->u.mine.owner), at,
                                                  ev->u.mine.dir, 16, 0),
                                         ev->u.mine.weapon, 0, ev->u.mine.bullet_id, ev->u.mine.owner);
        if (fx) {
            copy_vec(fx->pos3, ev->u.mine.drop_dir);
            copy_vec(fx->end, ev->u.mine.up);
        }
        break;
    }
    case FS_MSG_TITANBITS: {
        float at[3];
        start_pos(ev->u.titan.pos, ev->u.titan.offset, at);
        for (int i = 0; i < FS_NUM_TITANBITS; i++)
            fx_event(w, FX_SPARKS, ev->type, owner_entity(ev->u.titan.owner), at, ev->u.titan.dirs[i], 8, 0);
        break;
    }
    case FS_MSG_SHOCKWAVE:
        fx_event(w, FX_EXPLOSION, ev->type, owner_entity(ev->u.shock.owner), ev->u.shock.pos, NULL, 0,
                 ev->u.shock.size);
        break;
    case FS_MSG_STATUS:
        if (bad_player(st, ev, ev->u.status.player, 1))
            break;
        if (status_left(st, w, &ev->u.status))
            break;
        w->players[ev->u.status.player].active = 1;
        // teams are 0..3 (MAX_TEAMS); anything else is no team
        w->players[ev->u.status.player].team = ev->u.status.team < 4 ? (int8_t)ev->u.status.team : -1;
        break;
    case FS_MSG_SHIELDHULL:
        if (bad_player(st, ev, ev->u.shieldhull.player, 1))
            break;
        w->players[ev->u.shieldhull.player].shield = ev->u.shieldhull.shield;
        w->players[ev->u.shieldhull.player].hull = ev->u.shieldhull.hull;
        break;
    case FS_MSG_SHIPDIED: {
        const fs_shipdied_t *d = &ev->u.died;
        if (bad_player(st, ev, d->player, 1))
            break;
        world_event_t *k = world_add_event(w, EV_KILL);
        if (k) {
            k->u.kill.victim = d->player;
            k->u.kill.killer = d->killer;
            k->u.kill.weapon = (d->weapon_type << 8) | d->weapon;
        }
        // the ship blows up where it died (the message's position)
        fx_event(w, FX_EXPLOSION, ev->type, (int)d->player + 1, d->pos, NULL, 0, 0);
        break;
    }
    case FS_MSG_DROPPICKUP:
        apply_pickup(st, w, ev->u.drop.player, ev->u.drop.id, ev->u.drop.type, ev->u.drop.pos, ev->u.drop.sparkle);
        break;
    case FS_MSG_KILLPICKUP:
    case FS_MSG_SERVERKILLPICKUP:
        apply_kill(st, w, &ev->u.kill);
        break;
    case FS_MSG_PRIMBULLPOSDIR:
    {
        if (st->host && ev->u.prim.owner_type == 1)   // OWNER_SHIP: the level's areas count its shots
            fs_trig_shot(&st->trig, w, ev->u.prim.pos, ev->u.prim.dir, ev->u.prim.weapon, st->time);
        world_fx_event_t *fx = fx_weapon(fx_event(w, FX_GENERIC, ev->type, ev->u.prim.owner_type == 1 ? owner_entity(ev->u.prim.owner) : 0,
                                                   ev->u.prim.pos, ev->u.prim.dir, 4, 0),
                                          ev->u.prim.weapon, ev->u.prim.power_level, ev->u.prim.bullet_id, ev->u.prim.owner);
        float pl = ev->u.prim.plevel;   // the trojax's charge, 0..100 (PrimBulls' PLevel)
        if (fx)
            fx->args[FSW_FX_ARG_CHARGE] = isfinite(pl) ? (int)(pl < 0 ? 0 : pl > 100 ? 100 : pl) : -1;
        break;
    }
    case FS_MSG_EXPSECONDARY:
        fx_weapon(fx_event(w, FX_EXPLOSION, ev->type, ev->u.expsec.owner_type == 1 ? owner_entity(ev->u.expsec.owner) : 0,
                           ev->u.expsec.pos, NULL, 0, ev->u.expsec.size),
                  -1, 0, ev->u.expsec.id, ev->u.expsec.owner);
        break;
    case FS_MSG_SERVERSAYSSHIPDIED: {
        const fs_serverdied_t *d = &ev->u.sdied;
        if (bad_player(st, ev, d->victim, 2))
            break;
        w->players[d->victim].deaths = d->deaths;
        world_event_t *k = world_add_event(w, EV_KILL);
        if (k) {
            k->u.kill.victim = d->victim;
            k->u.kill.killer = d->killer;
            k->u.kill.weapon = (d->weapon_type << 8) | d->weapon;
        }
        break;
    }
    case FS_MSG_PLAYERPINGS:
        for (int i = 0; i < FS_MAX_PLAYERS; i++)
            w->players[i].ping = ev->u.pings.ping[i];
        break;
    case FS_MSG_EXPLODESHIP: {
        unsigned ship = ev->u.explode.ship;
        if (ship < FS_SHIPS && st->ship_live[ship])
            fx_event(w, FX_EXPLOSION, ev->type, (int)ship + 1, w->entities[ship + 1].cur.origin, NULL, 0, 0);
        break;
    }
    case FS_MSG_BGOUPDATE: {
        const fs_bgoupdate_t *b = &ev->u.bgo;
        if (b->object >= FSW_MAX_BGO) {
            fs_warn(st, (long long)(ev->at + 2), "expected a background object 0..%d, got %u (MSG_BGOUPDATE skipped)",
                    FSW_MAX_BGO - 1, (unsigned)b->object);
            break;
        }
        if (!isfinite(b->time)) {
            fs_warn(st, (long long)(ev->at + 8), "expected a finite animation time (MSG_BGOUPDATE skipped)");
            break;
        }
        entity_state_t e;
        entity_state_clear(&e);
        e.modelindex = FSW_MODEL_BGO;
        e.frame = b->state;
        e.framerate = b->time;
        e.animtime = (float)st->time;
        st->bgo_live[b->object] = 1;
        world_entity_update(w, FSW_BGO_ENT0 + b->object, &e);
        break;
    }
    case FS_MSG_VERYSHORTDROPPICKUP:   // as MSG_DROPPICKUP (InitOnePickup from the short fields)
        apply_pickup(st, w, ev->u.vsdrop.player, ev->u.vsdrop.id, ev->u.vsdrop.type, ev->u.vsdrop.pos,
                     ev->u.vsdrop.sparkle);
        break;
    case FS_MSG_SHORTPICKUP: {   // the pickups already in the level when a player joins (RegenPickupList)
        int n = count_ok(st, ev, FS_GEN_PICKUPS);
        for (int i = 0; i < n; i++) {
            const fs_pickupinfo_t *e = &ev->u.list.e.pickups[i];
            apply_pickup(st, w, e->owner, e->id, e->type, e->pos, e->sparkle);
        }
        break;
    }
    case FS_MSG_SHORTMINE: {   // the mines already laid (RegenMineList): as MSG_SECBULLPOSDIR (InitOneSecBull
        // at Pos + Offset), then the mine's LifeCount set to the list's (a NaN or negative one: 0)
        int n = count_ok(st, ev, FS_GEN_MINES);
        for (int i = 0; i < n; i++) {
            float pos[3];
            start_pos(ev->u.list.e.mines[i].pos, ev->u.list.e.mines[i].offset, pos);
            unsigned owner = ev->u.list.e.mines[i].owner;
            world_fx_event_t *fx = fx_weapon(fx_event(w, FX_GENERIC, ev->type, owner_entity(owner), pos,
                                                      ev->u.list.e.mines[i].dir, 16, 0),
                                             ev->u.list.e.mines[i].weapon, 0, ev->u.list.e.mines[i].bullet_id,
                                             (int)owner);
            float life = ev->u.list.e.mines[i].life_count;
            if (fx) {
                copy_vec(fx->pos3, ev->u.list.e.mines[i].drop_dir);
                copy_vec(fx->end, ev->u.list.e.mines[i].up);
                fx->args[FSW_FX_ARG_LIFE] = life >= FSW_FX_MAX_LIFE ? FSW_FX_MAX_LIFE : life > 0 ? (int)life : 0;
            }
        }
        break;
    }
    case FS_MSG_SHORTREGENSLOT:   // nothing drawn: regeneration slots, trigger states
        count_ok(st, ev, FS_GEN_REGENSLOTS);
        break;
    case FS_MSG_SHORTTRIGGER:
    case FS_MSG_SHORTTRIGVAR:
        count_ok(st, ev, FS_GEN_TRIGGERS);
        break;
    case FS_MSG_INTERPOLATE:
    case FS_MSG_VERYSHORTINTERPOLATE:
        if (bad_player(st, ev, ev->u.interp.player, 1))
            break;
        apply_interp(st, w, &ev->u.interp);
        break;
    case FS_MSG_YOUQUIT: {   // the host tells player `you` to leave: that player is gone
        unsigned you = ev->u.small.a;
        if (bad_player(st, ev, you, 2))
            break;
        player_gone(st, w, you);
        break;
    }
    case FS_MSG_LONGSTATUS: {   // as MSG_STATUS for the player its STATUSMSG names
        const fs_status_t *s = &ev->u.lstatus.status;
        if (bad_player(st, ev, s->player, ev->size >= FS_SIZE_LONGSTATUS ? 9 : 5))
            break;
        if (status_left(st, w, s))
            break;
        w->players[s->player].active = 1;
        w->players[s->player].team = s->team < 4 ? (int8_t)s->team : -1;
        break;
    }
    case FS_MSG_INIT:   // the host's team list (TeamNumber for every player)
        for (int i = 0; i < FS_MAX_PLAYERS; i++)
            w->players[i].team = ev->u.init.team[i] < 4 ? (int8_t)ev->u.init.team[i] : -1;
        break;
    case FS_MSG_TEXTMSG: {
        unsigned t = ev->u.text.type;
        // taunts 0..2, quick taunts 5 and 13 are what players typed; the rest are game announcements
        int chat = t <= 2 || t == 5 || t == 13;
        world_add_text_event(w, chat ? EV_CHAT : EV_PRINT, ev->u.text.text, chat ? ev->u.text.player : (int)t);
        break;
    }
    default:
        break;
    }
}

// Keep everything that exists visible in this frame.
static void resubmit(fs_state_t *st, world_t *w)
{
    for (int p = 0; p < FS_SHIPS; p++) {
        world_entity_t *e = &w->entities[p + 1];
        if (st->ship_live[p] && e->seq != w->seq) {
            entity_state_t s = e->cur;
            s.effects &= ~(uint32_t)EF_MUZZLEFLASH;   // a shot lasts one message
            if (st->interp[p].active) {
                interp_at(st, p, &s);
                if (w->view.entity == p + 1)
                    copy_vec(w->view.angles, s.angles);
            }
            world_entity_update(w, p + 1, &s);
        }
    }
    for (int i = 0; i < st->pickup_hi; i++) {
        world_entity_t *e = &w->entities[FS_PICKUP_ENT0 + i];
        if (st->pickups[i].used && e->seq != w->seq) {
            entity_state_t s = e->cur;
            world_entity_update(w, FS_PICKUP_ENT0 + i, &s);
        }
    }
    lpick_info(st, w);
    for (int i = 1; i < st->lpick_hi; i++) {
        world_entity_t *e = &w->entities[FSW_LPICK_INFO + i];
        if (st->lpick_killed[i] && e->seq != w->seq) {
            entity_state_t s = e->cur;
            world_entity_update(w, FSW_LPICK_INFO + i, &s);
        }
    }
    for (int i = 0; i < FSW_MAX_BGO; i++) {
        world_entity_t *e = &w->entities[FSW_BGO_ENT0 + i];
        if (st->bgo_live[i] && e->seq != w->seq) {
            entity_state_t s = e->cur;
            world_entity_update(w, FSW_BGO_ENT0 + i, &s);
        }
    }
    fs_trig_resubmit(&st->trig, w);
}

// Decode and apply the message p[0..n) at file offset `at` (depth 0: an event; 1..: a message
// inside a MSG_GUARANTEEDMSG or MSG_BIGPACKET, applied as if received, as the game's EvaluateMessage does).
static void process(fs_state_t *st, world_t *w, const fs_event_t *hdr, const uint8_t *p, size_t n, size_t at,
                    int depth, float framelag)
{
    fs_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.timestamp = hdr->timestamp;
    ev.sender = hdr->sender;
    ev.size = (uint32_t)n;
    ev.offset = depth ? at : hdr->offset;
    ev.at = at;
    ev.depth = depth;
    double t = (double)hdr->timestamp / FS_TICKS_PER_SECOND;
    st->msg_warning[0] = 0;
    fs_parse_payload(p, n, at, &ev, NULL);
    int container = ev.known && (ev.type == FS_MSG_GUARANTEEDMSG || ev.type == FS_MSG_BIGPACKET);
    if (!ev.known)
        skipped(st, &ev);
    else if (container && depth >= FS_MAX_NESTING)
        fs_warn(st, (long long)at, "expected at most %d messages inside messages, found %s at depth %d (not read)",
                FS_MAX_NESTING, fs_msg_name(ev.type), depth);
    else
        apply_event(st, w, &ev);
    if (st->opts.dump)
        dump_event(st, &ev, t, framelag);
    if (!container || depth >= FS_MAX_NESTING)
        return;
    if (ev.type == FS_MSG_GUARANTEEDMSG) {
        // the message at StartOfMessage, its size the game's for its code (2 bytes of padding follow it)
        // (a wrapped container has no size of its own: it has the rest)
        uint8_t inner = ev.u.guar.inner_code;
        size_t left = n - FS_GUARANTEED_MSG_AT, size = fs_msg_size(inner);
        if (inner == FS_MSG_GUARANTEEDMSG || inner == FS_MSG_BIGPACKET)
            size = 0;
        process(st, w, hdr, p + FS_GUARANTEED_MSG_AT, size && size < left ? size : left, at + FS_GUARANTEED_MSG_AT,
                depth + 1, NAN);
        return;
    }
    size_t pos = FS_BIGPACKET_FIRST, msg = 0, len = 0;
    float lag = 0;
    dec_error_t err;
    int rc;
    while ((rc = fs_bigpacket_next(p, n, at, &pos, &msg, &len, &lag, &err)) > 0)
        process(st, w, hdr, p + msg, len, at + msg, depth + 1, lag);
    if (rc < 0) {
        st->msg_warning[0] = 0;
        fs_warn(st, err.offset, "%s (the rest of the MSG_BIGPACKET skipped)", err.what);
        if (st->opts.dump)
            dump_warning(st, err.offset, t);
    }
}

static int fs_read_frame(void *vst, world_t *w, dec_error_t *err)
{
    fs_state_t *st = vst;
    if (st->failed) {
        dec_error_set(err, (long long)st->pos, "expected no more reads after an error");
        return -1;
    }
    if (st->pos >= st->size)
        return 0;
    size_t left = st->size - st->pos;
    if (left < FS_EVENT_HEADER) {
        dec_error_set(err, (long long)st->pos, "expected a %d-byte event header, found %zu bytes (truncated)",
                      FS_EVENT_HEADER, left);
        st->failed = 1;
        return -1;
    }
    fs_event_t ev;
    memset(&ev, 0, sizeof(ev));
    msg_t m;
    msg_init(&m, st->data + st->pos, left, st->pos);
    ev.offset = st->pos;
    ev.timestamp = msg_u64(&m);
    ev.size = msg_u32(&m);
    ev.sender = msg_u32(&m);
    if (ev.size > FS_EVENT_MAX || ev.size > left - FS_EVENT_HEADER) {
        dec_error_set(err, (long long)(st->pos + 8), "expected an event size of at most %zu bytes, found %u%s",
                      left - FS_EVENT_HEADER < FS_EVENT_MAX ? left - FS_EVENT_HEADER : (size_t)FS_EVENT_MAX, ev.size,
                      ev.size <= FS_EVENT_MAX ? " (truncated)" : "");
        st->failed = 1;
        return -1;
    }
    size_t payload = st->pos + FS_EVENT_HEADER;
    double t = (double)ev.timestamp / FS_TICKS_PER_SECOND;
    if (st->info.frames == 0) {
        st->info.start_time = t;
        st->info.end_time = t;
        st->info.have_time = 1;
        st->time = t;
    }
    if (t > st->info.end_time)
        st->info.end_time = t;
    // events are logged as they arrive, a little out of order at times; the game
    // plays an early one at once, so world time never goes back
    if (t > st->time)
        st->time = t;
    world_begin_frame(w, st->time);
    if (st->info.frames == 0)
        world_add_event(w, EV_LEVEL);
    fs_trig_tick(&st->trig, w, st->time);
    process(st, w, &ev, st->data + payload, ev.size, payload, 0, NAN);
    resubmit(st, w);
    st->info.frames++;
    st->info.drawn_frames++;
    st->pos = payload + ev.size;
    // the last event: the game is over, the score table shows (an intermission, as the
    // other games' end-of-level screens)
    if (st->pos >= st->size && !w->view.intermission) {
        w->view.intermission = 1;
        w->view.completed_time = st->time;
    }
    return 1;
}

static size_t fs_offset(const void *vst) { return ((const fs_state_t *)vst)->pos; }
static const demo_info_t *fs_info(const void *vst) { return &((const fs_state_t *)vst)->info; }
static void fs_close(void *vst) { fs_trig_free(&((fs_state_t *)vst)->trig); }

const decoder_t fs_decoder = {
    "forsaken", GAME_FORSAKEN, sizeof(fs_state_t), fs_probe, fs_open, fs_read_frame, fs_offset, fs_info, fs_close,
};
