// forsaken_write.c -- a Forsaken .DMO writer (see forsaken_write.h); the layouts mirror forsaken_parse.c
#include "forsaken_write.h"

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

int fs_write_name(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_name_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_NAME, FS_MSG_NAME, m->player);
    putstr(&p, 2, FS_NAME_LEN, m->name);
    return emit(wr, ticks, sender, &p);
}

int fs_write_bikenum(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_bikenum_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_BIKENUM, FS_MSG_KILLSDEATHSBIKENUM, m->player);
    put16(&p, 2, (uint16_t)m->kills);
    put16(&p, 4, (uint16_t)m->deaths);
    put8(&p, 6, m->bike);
    return emit(wr, ticks, sender, &p);
}

int fs_write_hereiam(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_hereiam_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_HEREIAM, FS_MSG_HEREIAM, m->player);
    put8(&p, 2, m->old_player);
    put8(&p, 3, m->old_team);
    put32(&p, 4, m->id);
    put32(&p, 8, m->rejoining);
    return emit(wr, ticks, sender, &p);
}

int fs_write_playernum(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t player)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_PLAYERNUM, FS_MSG_SENDKILLSDEATHSBIKENUM, player);
    return emit(wr, ticks, sender, &p);
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
    fs_payload_t p;
    switch (type) {
    case FS_MSG_VERYSHORTUPDATE:
        p_init(&p, FS_SIZE_VERYSHORTUPDATE, type, m->player);
        put32(&p, 4, m->flags);
        put8(&p, 8, m->status);
        put8(&p, 9, m->group);
        ship_short(&p, 10, m);
        break;
    case FS_MSG_VERYSHORTFUPDATE:
        p_init(&p, FS_SIZE_VERYSHORTFUPDATE, type, m->player);
        put32(&p, 4, m->flags);
        put8(&p, 8, m->primary);
        put8(&p, 9, m->secondary);
        put8(&p, 10, m->group);
        put8(&p, 11, m->charge);
        ship_short(&p, 12, m);
        break;
    case FS_MSG_UPDATE:
        p_init(&p, FS_SIZE_UPDATE, type, m->player);
        put32(&p, 4, m->flags);
        put8(&p, 8, m->status);
        put8(&p, 9, m->group);
        ship_long(&p, m);
        break;
    case FS_MSG_FUPDATE:
        p_init(&p, FS_SIZE_FUPDATE, type, m->player);
        put32(&p, 4, m->flags);
        put8(&p, 8, m->primary);
        put8(&p, 9, m->secondary);
        put8(&p, 10, m->group);
        put8(&p, 11, m->charge);
        ship_long(&p, m);
        break;
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE:
        p_init(&p, FS_SIZE_GROUPONLY, type, m->player);
        put32(&p, 4, m->flags);
        put8(&p, 8, m->primary);
        put8(&p, 9, m->secondary);
        put8(&p, 10, m->group);
        put8(&p, 11, m->charge);
        for (int i = 0; i < 3; i++)
            put16(&p, 12 + 2 * (size_t)i, (uint16_t)s16(m->pos[i]));
        for (int i = 0; i < 4; i++)
            put16(&p, 18 + 2 * (size_t)i, (uint16_t)s16(m->quat[i] * FS_UNIT_SCALE));
        put16(&p, 26, (uint16_t)s16(m->bank * FS_UNIT_SCALE / FS_BANK_MAX));
        break;
    default:
        wr->failed = 1;
        return -1;
    }
    return emit(wr, ticks, sender, &p);
}

int fs_write_secbull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_secbull_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_SECBULL, FS_MSG_SECBULLPOSDIR, m->player);
    put16(&p, 4, m->owner_type);
    put16(&p, 6, m->owner);
    put16(&p, 8, m->bullet_id);
    put16(&p, 10, m->group);
    putvec(&p, 12, m->pos);
    putvec(&p, 24, m->offset);
    putvec(&p, 36, m->dir);
    putvec(&p, 48, m->up);
    putvec(&p, 60, m->drop_dir);
    put8(&p, 72, m->weapon);
    return emit(wr, ticks, sender, &p);
}

int fs_write_titanbits(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_titanbits_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_TITANBITS, FS_MSG_TITANBITS, m->player);
    put16(&p, 4, m->owner_type);
    put16(&p, 6, m->owner);
    put16(&p, 8, m->bullet_id);
    put16(&p, 10, m->group);
    putvec(&p, 12, m->pos);
    putvec(&p, 24, m->offset);
    putvec(&p, 36, m->up);
    putvec(&p, 48, m->drop_dir);
    for (int i = 0; i < FS_NUM_TITANBITS; i++)
        putvec(&p, 60 + 12 * (size_t)i, m->dirs[i]);
    put8(&p, 180, m->weapon);
    return emit(wr, ticks, sender, &p);
}

int fs_write_shockwave(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shockwave_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_SHOCKWAVE, FS_MSG_SHOCKWAVE, m->player);
    put16(&p, 4, m->owner);
    put16(&p, 6, m->group);
    putvec(&p, 8, m->pos);
    put8(&p, 20, m->weapon);
    putf(&p, 24, m->size);
    return emit(wr, ticks, sender, &p);
}

int fs_write_status(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_status_t *m)
{
    fs_payload_t p;
    p_init(&p, m->has_checksum ? FS_SIZE_STATUS_LONG : FS_SIZE_STATUS, FS_MSG_STATUS, m->player);
    put32(&p, 4, m->is_host);
    put8(&p, 8, m->status);
    put8(&p, 9, m->team);
    put16(&p, 10, m->team_score);
    put32(&p, 12, m->ready);
    put8(&p, 16, m->pickups);
    put8(&p, 17, m->regen_slots);
    put8(&p, 18, m->mines);
    put8(&p, 19, m->triggers);
    put8(&p, 20, m->trig_vars);
    putf(&p, 24, m->packets_per_second);
    if (m->has_checksum)
        put64(&p, 32, m->level_checksum);
    return emit(wr, ticks, sender, &p);
}

int fs_write_shipdied(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shipdied_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_SHIPDIED, FS_MSG_SHIPDIED, m->player);
    put8(&p, 2, m->killer);
    put8(&p, 3, m->type);
    put8(&p, 4, m->weapon_type);
    put8(&p, 5, m->weapon);
    putvec(&p, 8, m->pos);
    return emit(wr, ticks, sender, &p);
}

int fs_write_droppickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_droppickup_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_DROPPICKUP, FS_MSG_DROPPICKUP, m->player);
    put16(&p, 4, m->id);
    put16(&p, 6, (uint16_t)m->type);
    put16(&p, 8, m->group);
    putvec(&p, 12, m->pos);
    putvec(&p, 24, m->dir);
    putf(&p, 36, m->speed);
    put16(&p, 40, (uint16_t)m->regen_slot);
    put32(&p, 44, m->sparkle);
    putf(&p, 48, m->life_count);
    put16(&p, 52, m->trigger_mod);
    return emit(wr, ticks, sender, &p);
}

int fs_write_killpickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_killpickup_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_KILLPICKUP, FS_MSG_KILLPICKUP, m->player);
    put16(&p, 2, (uint16_t)m->owner);
    put16(&p, 4, m->id);
    put16(&p, 6, (uint16_t)m->style);
    return emit(wr, ticks, sender, &p);
}

int fs_write_text(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_text_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_TEXTMSG, FS_MSG_TEXTMSG, m->player);
    putstr(&p, 2, FS_TEXT_LEN, m->text);
    put8(&p, 130, m->type);
    return emit(wr, ticks, sender, &p);
}

int fs_write_primbull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_primbull_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_PRIMBULL, FS_MSG_PRIMBULLPOSDIR, m->player);
    put16(&p, 4, m->owner_type);
    put16(&p, 6, m->owner);
    put16(&p, 8, m->bullet_id);
    put8(&p, 10, m->weapon);
    put16(&p, 12, m->group);
    putvec(&p, 16, m->pos);
    putvec(&p, 28, m->offset);
    putvec(&p, 40, m->dir);
    putvec(&p, 52, m->up);
    put16(&p, 64, (uint16_t)m->power_level);
    putf(&p, 68, m->plevel);
    return emit(wr, ticks, sender, &p);
}

int fs_write_expsecondary(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_expsecondary_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_EXPSECONDARY, FS_MSG_EXPSECONDARY, m->player);
    put16(&p, 4, m->owner_type);
    put16(&p, 6, m->owner);
    put16(&p, 8, m->id);
    putf(&p, 12, m->size);
    putvec(&p, 16, m->pos);
    put16(&p, 28, m->group);
    return emit(wr, ticks, sender, &p);
}

int fs_write_serverkillpickup(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_killpickup_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_SERVERKILLPICKUP, FS_MSG_SERVERKILLPICKUP, m->player);
    put16(&p, 2, (uint16_t)m->owner);
    put16(&p, 4, m->id);
    put16(&p, 6, (uint16_t)m->style);
    put16(&p, 8, m->new_owner);
    return emit(wr, ticks, sender, &p);
}

int fs_write_serverdied(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_serverdied_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_SERVERSAYSSHIPDIED, FS_MSG_SERVERSAYSSHIPDIED, m->player);
    put8(&p, 2, m->victim);
    put8(&p, 3, m->killer);
    put8(&p, 4, m->type);
    put8(&p, 5, m->weapon_type);
    put8(&p, 6, m->weapon);
    putvec(&p, 8, m->pos);
    put16(&p, 20, (uint16_t)m->deaths);
    return emit(wr, ticks, sender, &p);
}

int fs_write_pings(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_pings_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_PLAYERPINGS, FS_MSG_PLAYERPINGS, m->player);
    for (int i = 0; i < FS_MAX_PLAYERS; i++)
        put16(&p, 2 + 2 * (size_t)i, m->ping[i]);
    return emit(wr, ticks, sender, &p);
}

int fs_write_explodeship(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_explodeship_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_EXPLODESHIP, FS_MSG_EXPLODESHIP, m->player);
    put16(&p, 2, m->ship);
    return emit(wr, ticks, sender, &p);
}

int fs_write_bgoupdate(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_bgoupdate_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_BGOUPDATE, FS_MSG_BGOUPDATE, m->player);
    put16(&p, 2, m->object);
    put16(&p, 4, (uint16_t)m->state);
    putf(&p, 8, m->time);
    return emit(wr, ticks, sender, &p);
}

int fs_write_shieldhull(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shieldhull_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_SHIELDHULL, FS_MSG_SHIELDHULL, m->player);
    p.b[2] = m->shield;
    p.b[3] = m->hull;
    p.b[4] = m->valid_change;
    p.b[5] = m->count;
    return emit(wr, ticks, sender, &p);
}

int fs_write_shiphit(fs_writer_t *wr, uint64_t ticks, uint32_t sender, uint8_t type, const fs_shiphit_t *m)
{
    fs_payload_t p;
    if (type == FS_MSG_SHIPHIT) {
        p_init(&p, FS_SIZE_SHIPHIT, FS_MSG_SHIPHIT, m->player);
        put8(&p, 2, m->victim);
        putf(&p, 4, m->damage);
        putvec(&p, 8, m->recoil);
        putvec(&p, 20, m->point);
        putvec(&p, 32, m->dir);
        put8(&p, 44, m->weapon_type);
        put8(&p, 45, m->weapon);
        putf(&p, 48, m->force);
        put32(&p, 52, m->one_off);
        put16(&p, 56, (uint16_t)m->deaths);
    } else if (type == FS_MSG_SHORTSHIPHIT) {
        p_init(&p, FS_SIZE_SHORTSHIPHIT, FS_MSG_SHORTSHIPHIT, m->player);
        put8(&p, 2, m->victim);
        putf(&p, 4, m->damage);
        putf(&p, 8, m->force);
        for (int i = 0; i < 3; i++) {
            put16(&p, 12 + 2 * (size_t)i, (uint16_t)(int16_t)m->recoil[i]);
            put16(&p, 18 + 2 * (size_t)i, (uint16_t)(int16_t)m->point[i]);
            put16(&p, 24 + 2 * (size_t)i, (uint16_t)(int16_t)m->dir[i]);
        }
        put8(&p, 30, m->weapon_type);
        put8(&p, 31, m->weapon);
        put16(&p, 32, m->one_off);
        put16(&p, 34, m->recoil_scalar);
        put16(&p, 36, (uint16_t)m->deaths);
    } else {
        wr->failed = 1;
        return -1;
    }
    return emit(wr, ticks, sender, &p);
}

int fs_write_shortstats(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_shortstats_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_SHORTSTATS, FS_MSG_SHORTSTATS, m->player);
    put8(&p, 2, m->whose);
    for (int i = 0; i < FS_MAX_PLAYERS; i++)
        put16(&p, 4 + 2 * (size_t)i, (uint16_t)m->stats[i]);
    return emit(wr, ticks, sender, &p);
}

int fs_write_teamgoals(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_teamgoals_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_TEAMGOALS, FS_MSG_TEAMGOALS, m->player);
    for (int i = 0; i < 4; i++)
        put16(&p, 2 + 2 * (size_t)i, m->goals[i]);
    return emit(wr, ticks, sender, &p);
}

int fs_write_serverscored(fs_writer_t *wr, uint64_t ticks, uint32_t sender, const fs_serverscored_t *m)
{
    fs_payload_t p;
    p_init(&p, FS_SIZE_SERVERSCORED, FS_MSG_SERVERSCORED, m->player);
    put8(&p, 2, m->who);
    put8(&p, 3, m->score);
    return emit(wr, ticks, sender, &p);
}

static void putsvec(fs_payload_t *p, size_t at, const float v[3], float scale)
{
    for (int i = 0; i < 3; i++)
        put16(p, at + 2 * (size_t)i, (uint16_t)s16(v[i] * scale));
}

// A STATUSMSG at `from` (see forsaken_parse.c's status_at).
static void put_status(fs_payload_t *p, size_t from, uint8_t code, const fs_status_t *m)
{
    put8(p, from, code);
    put8(p, from + 1, m->player);
    put32(p, from + 4, m->is_host);
    put8(p, from + 8, m->status);
    put8(p, from + 9, m->team);
    put16(p, from + 10, m->team_score);
    put32(p, from + 12, m->ready);
    put8(p, from + 16, m->pickups);
    put8(p, from + 17, m->regen_slots);
    put8(p, from + 18, m->mines);
    put8(p, from + 19, m->triggers);
    put8(p, from + 20, m->trig_vars);
    putf(p, from + 24, m->packets_per_second);
    if (m->has_checksum)
        put64(p, from + 32, m->level_checksum);
}

// The rest of the game's messages (every field of the structs in forsaken.h).
static int build_more(const fs_event_t *ev, fs_payload_t *p)
{
    uint8_t code = ev->type;
    size_t size = fs_msg_size(code);
    switch (code) {
    case FS_MSG_INIT: {
        const fs_init_t *m = &ev->u.init;
        p_init(p, size, code, m->player);
        put8(p, 2, m->you_are);
        put8(p, 3, m->status);
        for (int i = 0; i < FS_MAX_PLAYERS; i++) {
            put32(p, 4 + 4 * (size_t)i, m->ready[i]);
            put8(p, 132 + (size_t)i, m->team[i]);
            put8(p, 236 + (size_t)i, m->game_status[i]);
        }
        putf(p, 164, m->packets_per_second);
        putstr(p, 168, 33, m->level);   // all 32 bytes may be name (no NUL needed)
        put32(p, 200, m->pickup_flags[0]);
        put32(p, 204, m->pickup_flags[1]);
        put16(p, 208, (uint16_t)m->goal_score);
        put16(p, 210, (uint16_t)m->bounty_interval);
        put32(p, 212, m->random_pickups);
        put16(p, 216, m->seed1);
        put16(p, 218, m->seed2);
        put32(p, 220, m->user3);
        put32(p, 224, m->server_collisions);
        put16(p, 228, (uint16_t)m->primary_pickups);
        put32(p, 232, m->from_dpid);
        return 0;
    }
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
            for (int i = 0; i < FS_GEN_PICKUPS; i++) {
                const fs_pickupinfo_t *e = &l->e.pickups[i];
                size_t a = 4 + 52 * (size_t)i;
                put16(p, a, (uint16_t)e->type);
                put16(p, a + 2, (uint16_t)e->group);
                put16(p, a + 4, e->owner);
                put16(p, a + 6, e->id);
                putvec(p, a + 8, e->pos);
                putvec(p, a + 20, e->dir);
                put16(p, a + 32, (uint16_t)e->regen_slot);
                putf(p, a + 36, e->speed);
                put32(p, a + 40, e->sparkle);
                putf(p, a + 44, e->life_count);
                put16(p, a + 48, e->trigger_mod);
            }
        } else if (code == FS_MSG_SHORTMINE) {
            for (int i = 0; i < FS_GEN_MINES; i++) {
                size_t a = 4 + 76 * (size_t)i;
                put16(p, a, l->e.mines[i].owner_type);
                put16(p, a + 2, l->e.mines[i].owner);
                put16(p, a + 4, l->e.mines[i].bullet_id);
                put16(p, a + 6, l->e.mines[i].group);
                putvec(p, a + 8, l->e.mines[i].pos);
                putvec(p, a + 20, l->e.mines[i].offset);
                putvec(p, a + 32, l->e.mines[i].dir);
                putvec(p, a + 44, l->e.mines[i].up);
                putvec(p, a + 56, l->e.mines[i].drop_dir);
                put16(p, a + 68, l->e.mines[i].weapon);
                putf(p, a + 72, l->e.mines[i].life_count);
            }
        } else if (code == FS_MSG_SHORTREGENSLOT) {
            for (int i = 0; i < FS_GEN_REGENSLOTS; i++) {
                size_t a = 4 + 40 * (size_t)i;
                put16(p, a, l->e.slots[i].gen_type);
                put16(p, a + 2, l->e.slots[i].regen_type);
                putf(p, a + 4, l->e.slots[i].gen_delay);
                putf(p, a + 8, l->e.slots[i].lifespan);
                putf(p, a + 12, l->e.slots[i].wait);
                put16(p, a + 16, (uint16_t)l->e.slots[i].status);
                put16(p, a + 18, (uint16_t)l->e.slots[i].group);
                putvec(p, a + 20, l->e.slots[i].pos);
                put16(p, a + 32, l->e.slots[i].type);
                put16(p, a + 34, l->e.slots[i].trigger_mod);
                put16(p, a + 36, l->e.slots[i].pickup_index);
                put16(p, a + 38, l->e.slots[i].pickup_id);
            }
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
    case FS_MSG_BOMB:
        p_init(p, size, code, ev->u.small.player);
        put8(p, 2, ev->u.small.a);
        put8(p, 3, ev->u.small.b);
        putf(p, 4, ev->u.small.f);
        return 0;
    case FS_MSG_PINGREQUEST:
    case FS_MSG_PINGREPLY:
        p_init(p, size, code, ev->u.small.player);
        put8(p, 2, ev->u.small.a);
        put8(p, 3, ev->u.small.b);
        put64(p, 8, ev->u.small.time);
        return 0;
    case FS_MSG_SETTIME:
        p_init(p, size, code, ev->u.small.player);
        putf(p, 4, ev->u.small.f);
        return 0;
    case FS_MSG_ACKMSG:
        p_init(p, size, code, ev->u.small.player);
        put32(p, 4, ev->u.small.id);
        put8(p, 8, ev->u.small.a);
        return 0;
    case FS_MSG_YOUQUIT:
    case FS_MSG_TOSERVER:
    case FS_MSG_TOCLIENT:
        p_init(p, size, code, ev->u.small.player);
        put8(p, 2, ev->u.small.a);
        if (code != FS_MSG_YOUQUIT)
            put8(p, 3, ev->u.small.b);
        return 0;
    case FS_MSG_REQTIME:
    case FS_MSG_ALIVE:
        p_init(p, size, code, ev->u.player);
        return 0;
    case FS_MSG_SERVERUPDATE:
        p_init(p, size, code, ev->u.supdate.player);
        put32(p, 4, ev->u.supdate.players);
        for (int i = 0; i < FS_MAX_PLAYERS; i++) {
            put8(p, 8 + (size_t)i, ev->u.supdate.group[i]);
            put8(p, 40 + (size_t)i, ev->u.supdate.status[i]);
        }
        return 0;
    case FS_MSG_GAMEPARAMETERS:
        p_init(p, size, code, ev->u.params.player);
        putstr(p, 2, 8, ev->u.params.level);
        put8(p, 10, ev->u.params.score_limit);
        put8(p, 11, ev->u.params.time_limit);
        put32(p, 12, ev->u.params.game_info);
        put32(p, 16, ev->u.params.allowed[0]);
        put32(p, 20, ev->u.params.allowed[1]);
        put16(p, 24, (uint16_t)ev->u.params.primary_pickups);
        put16(p, 26, ev->u.params.max_players);
        return 0;
    case FS_MSG_LEVELNAMES:
        p_init(p, size, code, ev->u.levels.player);
        put8(p, 2, ev->u.levels.total);
        put8(p, 3, ev->u.levels.batch);
        put8(p, 4, ev->u.levels.first);
        for (int i = 0; i < FS_LEVELNAMES_BATCH; i++)
            putstr(p, 5 + 8 * (size_t)i, 8, ev->u.levels.names[i]);
        return 0;
    case FS_MSG_TRACKERINFO:
        p_init(p, size, code, ev->u.tracker.player);
        put32(p, 4, ev->u.tracker.addr);
        put16(p, 8, ev->u.tracker.port);
        put32(p, 12, ev->u.tracker.freq);
        put32(p, 16, (uint32_t)ev->u.tracker.type);
        put32(p, 20, ev->u.tracker.shutdown);
        put32(p, 24, ev->u.tracker.gamespy);
        return 0;
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
    switch (ev->type) {
    case FS_MSG_NAME: return fs_write_name(wr, t, s, &ev->u.name);
    case FS_MSG_KILLSDEATHSBIKENUM: return fs_write_bikenum(wr, t, s, &ev->u.bikenum);
    case FS_MSG_HEREIAM: return fs_write_hereiam(wr, t, s, &ev->u.hereiam);
    case FS_MSG_SENDKILLSDEATHSBIKENUM: return fs_write_playernum(wr, t, s, ev->u.player);
    case FS_MSG_UPDATE:
    case FS_MSG_FUPDATE:
    case FS_MSG_VERYSHORTUPDATE:
    case FS_MSG_VERYSHORTFUPDATE:
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE: return fs_write_ship(wr, t, s, ev->type, &ev->u.ship);
    case FS_MSG_SECBULLPOSDIR: return fs_write_secbull(wr, t, s, &ev->u.mine);
    case FS_MSG_TITANBITS: return fs_write_titanbits(wr, t, s, &ev->u.titan);
    case FS_MSG_SHOCKWAVE: return fs_write_shockwave(wr, t, s, &ev->u.shock);
    case FS_MSG_STATUS: return fs_write_status(wr, t, s, &ev->u.status);
    case FS_MSG_SHIPDIED: return fs_write_shipdied(wr, t, s, &ev->u.died);
    case FS_MSG_DROPPICKUP: return fs_write_droppickup(wr, t, s, &ev->u.drop);
    case FS_MSG_KILLPICKUP: return fs_write_killpickup(wr, t, s, &ev->u.kill);
    case FS_MSG_TEXTMSG: return fs_write_text(wr, t, s, &ev->u.text);
    case FS_MSG_PRIMBULLPOSDIR: return fs_write_primbull(wr, t, s, &ev->u.prim);
    case FS_MSG_EXPSECONDARY: return fs_write_expsecondary(wr, t, s, &ev->u.expsec);
    case FS_MSG_SERVERKILLPICKUP: return fs_write_serverkillpickup(wr, t, s, &ev->u.kill);
    case FS_MSG_SERVERSAYSSHIPDIED: return fs_write_serverdied(wr, t, s, &ev->u.sdied);
    case FS_MSG_PLAYERPINGS: return fs_write_pings(wr, t, s, &ev->u.pings);
    case FS_MSG_EXPLODESHIP: return fs_write_explodeship(wr, t, s, &ev->u.explode);
    case FS_MSG_SHIELDHULL: return fs_write_shieldhull(wr, t, s, &ev->u.shieldhull);
    case FS_MSG_BGOUPDATE: return fs_write_bgoupdate(wr, t, s, &ev->u.bgo);
    case FS_MSG_SHORTSTATS: return fs_write_shortstats(wr, t, s, &ev->u.stats);
    case FS_MSG_TEAMGOALS: return fs_write_teamgoals(wr, t, s, &ev->u.goals);
    case FS_MSG_SERVERSCORED: return fs_write_serverscored(wr, t, s, &ev->u.scored);
    case FS_MSG_SHIPHIT:
    case FS_MSG_SHORTSHIPHIT: return fs_write_shiphit(wr, t, s, ev->type, &ev->u.hit);
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
