// forsaken_parse.c -- Forsaken demo header and message payload layouts (shared by decoder and tests)
#include <math.h>
#include <string.h>

#include "forsaken.h"
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
    default: return NULL;
    }
}

static size_t min_size(uint8_t code)
{
    switch (code) {
    case FS_MSG_UPDATE: return FS_SIZE_UPDATE;
    case FS_MSG_HEREIAM: return FS_SIZE_HEREIAM;
    case FS_MSG_SECBULLPOSDIR: return FS_SIZE_SECBULL;
    case FS_MSG_SHIPDIED: return FS_SIZE_SHIPDIED;
    case FS_MSG_DROPPICKUP: return FS_SIZE_DROPPICKUP;
    case FS_MSG_KILLPICKUP: return FS_SIZE_KILLPICKUP;
    case FS_MSG_STATUS: return FS_SIZE_STATUS;
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
    default: return 1;
    }
}

// The spec's messages; the others are decoded when they fit their layout.
static int in_spec(uint8_t code)
{
    switch (code) {
    case FS_MSG_PRIMBULLPOSDIR:
    case FS_MSG_EXPSECONDARY:
    case FS_MSG_PLAYERPINGS:
    case FS_MSG_SERVERKILLPICKUP:
    case FS_MSG_SERVERSAYSSHIPDIED:
    case FS_MSG_EXPLODESHIP:
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE:
    case FS_MSG_SHIELDHULL:
    case FS_MSG_SHIPHIT:
    case FS_MSG_SHORTSHIPHIT:
    case FS_MSG_BGOUPDATE:
    case FS_MSG_SHORTSTATS:
    case FS_MSG_TEAMGOALS:
    case FS_MSG_SERVERSCORED:
        return 0;
    default:
        return 1;
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

int fs_parse_payload(const uint8_t *p, size_t n, size_t base, fs_event_t *ev, dec_error_t *err)
{
    memset(&ev->u, 0, sizeof(ev->u));
    if (n < 1) {
        dec_error_set(err, (long long)base, "expected an event payload of at least 1 byte (a message code), found 0");
        return -1;
    }
    ev->type = p[0];
    ev->known = fs_msg_name(p[0]) != NULL;
    if (!ev->known)
        return 0;
    size_t need = min_size(p[0]);
    if (n < need && !in_spec(p[0])) {
        ev->known = 0;
        return 0;
    }
    if (n < need) {
        dec_error_set(err, (long long)base, "expected at least %zu payload bytes for %s, found %zu", need,
                      fs_msg_name(p[0]), n);
        return -1;
    }
    msg_t m;
    msg_init(&m, p, n, base);
    at(&m, 1);
    uint8_t player = (uint8_t)msg_u8(&m);
    switch (p[0]) {
    case FS_MSG_NAME:
        ev->u.name.player = player;
        text_field(&m, FS_NAME_LEN, ev->u.name.name, sizeof(ev->u.name.name));
        break;
    case FS_MSG_KILLSDEATHSBIKENUM:
        ev->u.bikenum.player = player;
        ev->u.bikenum.kills = (int16_t)msg_s16(&m);
        ev->u.bikenum.deaths = (int16_t)msg_s16(&m);
        ev->u.bikenum.bike = (uint8_t)msg_u8(&m);
        break;
    case FS_MSG_HEREIAM:
        ev->u.hereiam.player = player;
        ev->u.hereiam.old_player = (uint8_t)msg_u8(&m);
        ev->u.hereiam.old_team = (uint8_t)msg_u8(&m);
        ev->u.hereiam.id = msg_u32(&m);
        ev->u.hereiam.rejoining = msg_u32(&m);
        break;
    case FS_MSG_SENDKILLSDEATHSBIKENUM:
        ev->u.player = player;
        break;
    case FS_MSG_VERYSHORTUPDATE: {
        fs_ship_t *s = &ev->u.ship;
        s->player = player;
        at(&m, 4);
        s->flags = msg_u32(&m);
        s->status = (uint8_t)msg_u8(&m);
        s->group = (uint8_t)msg_u8(&m);
        ship_common_short(&m, s);
        break;
    }
    case FS_MSG_VERYSHORTFUPDATE: {
        fs_ship_t *s = &ev->u.ship;
        s->player = player;
        at(&m, 4);
        s->flags = msg_u32(&m);
        s->primary = (uint8_t)msg_u8(&m);
        s->secondary = (uint8_t)msg_u8(&m);
        s->group = (uint8_t)msg_u8(&m);
        s->charge = (uint8_t)msg_u8(&m);
        ship_common_short(&m, s);
        break;
    }
    case FS_MSG_UPDATE: {
        fs_ship_t *s = &ev->u.ship;
        s->player = player;
        at(&m, 4);
        s->flags = msg_u32(&m);
        s->status = (uint8_t)msg_u8(&m);
        s->group = (uint8_t)msg_u8(&m);
        at(&m, 12);
        ship_common_long(&m, s);
        break;
    }
    case FS_MSG_FUPDATE: {
        fs_ship_t *s = &ev->u.ship;
        s->player = player;
        at(&m, 4);
        s->flags = msg_u32(&m);
        s->primary = (uint8_t)msg_u8(&m);
        s->secondary = (uint8_t)msg_u8(&m);
        s->group = (uint8_t)msg_u8(&m);
        s->charge = (uint8_t)msg_u8(&m);
        ship_common_long(&m, s);
        break;
    }
    case FS_MSG_SECBULLPOSDIR: {
        fs_secbull_t *b = &ev->u.mine;
        b->player = player;
        at(&m, 4);
        b->owner_type = (uint16_t)msg_u16(&m);
        b->owner = (uint16_t)msg_u16(&m);
        b->bullet_id = (uint16_t)msg_u16(&m);
        b->group = (uint16_t)msg_u16(&m);
        vec(&m, b->pos);
        vec(&m, b->offset);
        vec(&m, b->dir);
        vec(&m, b->up);
        vec(&m, b->drop_dir);
        b->weapon = (uint8_t)msg_u8(&m);   // an int8 and three bytes of padding
        break;
    }
    case FS_MSG_TITANBITS: {
        fs_titanbits_t *t = &ev->u.titan;
        t->player = player;
        at(&m, 4);
        t->owner_type = (uint16_t)msg_u16(&m);
        t->owner = (uint16_t)msg_u16(&m);
        t->bullet_id = (uint16_t)msg_u16(&m);
        t->group = (uint16_t)msg_u16(&m);
        vec(&m, t->pos);
        vec(&m, t->offset);
        vec(&m, t->up);
        vec(&m, t->drop_dir);
        for (int i = 0; i < FS_NUM_TITANBITS; i++)
            vec(&m, t->dirs[i]);
        t->weapon = (uint8_t)msg_u8(&m);
        break;
    }
    case FS_MSG_SHOCKWAVE: {
        fs_shockwave_t *s = &ev->u.shock;
        s->player = player;
        at(&m, 4);
        s->owner = (uint16_t)msg_u16(&m);
        s->group = (uint16_t)msg_u16(&m);
        vec(&m, s->pos);
        s->weapon = (uint8_t)msg_u8(&m);
        at(&m, 24);
        s->size = msg_f32(&m);
        break;
    }
    case FS_MSG_STATUS: {
        fs_status_t *s = &ev->u.status;
        s->player = player;
        at(&m, 4);
        s->is_host = msg_u32(&m);
        s->status = (uint8_t)msg_u8(&m);
        s->team = (uint8_t)msg_u8(&m);
        s->team_score = (uint16_t)msg_u16(&m);
        s->ready = msg_u32(&m);
        s->pickups = (uint8_t)msg_u8(&m);
        s->regen_slots = (uint8_t)msg_u8(&m);
        s->mines = (uint8_t)msg_u8(&m);
        s->triggers = (uint8_t)msg_u8(&m);
        s->trig_vars = (uint8_t)msg_u8(&m);
        at(&m, 24);
        s->packets_per_second = msg_f32(&m);
        if (n >= FS_SIZE_STATUS_LONG) {
            at(&m, 32);
            s->has_checksum = 1;
            s->level_checksum = msg_u64(&m);
        }
        break;
    }
    case FS_MSG_SHIPDIED: {
        fs_shipdied_t *d = &ev->u.died;
        d->player = player;
        d->killer = (uint8_t)msg_u8(&m);
        d->type = (uint8_t)msg_u8(&m);
        d->weapon_type = (uint8_t)msg_u8(&m);
        d->weapon = (uint8_t)msg_u8(&m);
        at(&m, 8);
        vec(&m, d->pos);
        break;
    }
    case FS_MSG_DROPPICKUP: {
        fs_droppickup_t *d = &ev->u.drop;
        d->player = player;
        at(&m, 4);
        d->id = (uint16_t)msg_u16(&m);
        d->type = (int16_t)msg_s16(&m);
        d->group = (uint16_t)msg_u16(&m);
        at(&m, 12);
        vec(&m, d->pos);
        vec(&m, d->dir);
        d->speed = msg_f32(&m);
        d->regen_slot = (int16_t)msg_s16(&m);
        at(&m, 44);
        d->sparkle = msg_u32(&m);
        d->life_count = msg_f32(&m);
        d->trigger_mod = (uint16_t)msg_u16(&m);
        break;
    }
    case FS_MSG_KILLPICKUP:
    case FS_MSG_SERVERKILLPICKUP:
        ev->u.kill.player = player;
        ev->u.kill.owner = (int16_t)msg_s16(&m);
        ev->u.kill.id = (uint16_t)msg_u16(&m);
        ev->u.kill.style = (int16_t)msg_s16(&m);
        if (p[0] == FS_MSG_SERVERKILLPICKUP)
            ev->u.kill.new_owner = (uint16_t)msg_u16(&m);
        break;
    case FS_MSG_GROUPONLY_VERYSHORTFUPDATE: {
        fs_ship_t *s = &ev->u.ship;
        s->player = player;
        at(&m, 4);
        s->flags = msg_u32(&m);
        s->primary = (uint8_t)msg_u8(&m);
        s->secondary = (uint8_t)msg_u8(&m);
        s->group = (uint8_t)msg_u8(&m);
        s->charge = (uint8_t)msg_u8(&m);
        for (int i = 0; i < 3; i++)
            s->pos[i] = (float)msg_s16(&m);
        for (int i = 0; i < 4; i++)
            s->quat[i] = (float)msg_s16(&m) / FS_UNIT_SCALE;
        s->bank = (float)msg_s16(&m) * FS_BANK_MAX / FS_UNIT_SCALE;
        break;
    }
    case FS_MSG_PRIMBULLPOSDIR: {
        fs_primbull_t *b = &ev->u.prim;
        b->player = player;
        at(&m, 4);
        b->owner_type = (uint16_t)msg_u16(&m);
        b->owner = (uint16_t)msg_u16(&m);
        b->bullet_id = (uint16_t)msg_u16(&m);
        b->weapon = (uint8_t)msg_u8(&m);
        at(&m, 12);
        b->group = (uint16_t)msg_u16(&m);
        at(&m, 16);
        vec(&m, b->pos);
        vec(&m, b->offset);
        vec(&m, b->dir);
        vec(&m, b->up);
        b->power_level = (int16_t)msg_s16(&m);
        at(&m, 68);
        b->plevel = msg_f32(&m);
        break;
    }
    case FS_MSG_EXPSECONDARY: {
        fs_expsecondary_t *x = &ev->u.expsec;
        x->player = player;
        at(&m, 4);
        x->owner_type = (uint16_t)msg_u16(&m);
        x->owner = (uint16_t)msg_u16(&m);
        x->id = (uint16_t)msg_u16(&m);
        at(&m, 12);
        x->size = msg_f32(&m);
        vec(&m, x->pos);
        x->group = (uint16_t)msg_u16(&m);
        break;
    }
    case FS_MSG_SERVERSAYSSHIPDIED: {
        fs_serverdied_t *d = &ev->u.sdied;
        d->player = player;
        d->victim = (uint8_t)msg_u8(&m);
        d->killer = (uint8_t)msg_u8(&m);
        d->type = (uint8_t)msg_u8(&m);
        d->weapon_type = (uint8_t)msg_u8(&m);
        d->weapon = (uint8_t)msg_u8(&m);
        at(&m, 8);
        vec(&m, d->pos);
        d->deaths = (int16_t)msg_s16(&m);
        break;
    }
    case FS_MSG_PLAYERPINGS:
        ev->u.pings.player = player;
        for (int i = 0; i < FS_MAX_PLAYERS; i++)
            ev->u.pings.ping[i] = (uint16_t)msg_u16(&m);
        break;
    case FS_MSG_EXPLODESHIP:
        ev->u.explode.player = player;
        ev->u.explode.ship = (uint16_t)msg_u16(&m);
        break;
    case FS_MSG_BGOUPDATE:
        ev->u.bgo.player = player;
        ev->u.bgo.object = (uint16_t)msg_u16(&m);
        ev->u.bgo.state = (int16_t)msg_s16(&m);
        at(&m, 8);
        ev->u.bgo.time = msg_f32(&m);
        break;
    case FS_MSG_SHORTSTATS:
        ev->u.stats.player = player;
        ev->u.stats.whose = (uint8_t)msg_u8(&m);
        at(&m, 4);
        for (int i = 0; i < FS_MAX_PLAYERS; i++)
            ev->u.stats.stats[i] = (int16_t)msg_s16(&m);
        break;
    case FS_MSG_TEAMGOALS:
        ev->u.goals.player = player;
        for (int i = 0; i < 4; i++)
            ev->u.goals.goals[i] = (uint16_t)msg_u16(&m);
        break;
    case FS_MSG_SERVERSCORED:
        ev->u.scored.player = player;
        ev->u.scored.who = (uint8_t)msg_u8(&m);
        ev->u.scored.score = (uint8_t)msg_u8(&m);
        break;
    case FS_MSG_SHIELDHULL:
        ev->u.shieldhull.player = player;
        ev->u.shieldhull.shield = (uint8_t)msg_u8(&m);
        ev->u.shieldhull.hull = (uint8_t)msg_u8(&m);
        ev->u.shieldhull.valid_change = (uint8_t)msg_u8(&m);
        ev->u.shieldhull.count = (uint8_t)msg_u8(&m);
        break;
    case FS_MSG_SHIPHIT: {   // 3 bytes, SHIPHIT at 4 (52 bytes), int16 deaths at 56
        fs_shiphit_t *h = &ev->u.hit;
        h->player = player;
        h->victim = (uint8_t)msg_u8(&m);
        at(&m, 4);
        h->damage = msg_f32(&m);
        vec(&m, h->recoil);
        vec(&m, h->point);
        vec(&m, h->dir);
        h->weapon_type = (uint8_t)msg_u8(&m);
        h->weapon = (uint8_t)msg_u8(&m);
        at(&m, 48);
        h->force = msg_f32(&m);
        h->one_off = msg_u32(&m);
        h->deaths = (int16_t)msg_s16(&m);
        break;
    }
    case FS_MSG_SHORTSHIPHIT: {   // 3 bytes, SHORTSHIPHIT at 4 (32 bytes), int16 deaths at 36
        fs_shiphit_t *h = &ev->u.hit;
        h->player = player;
        h->victim = (uint8_t)msg_u8(&m);
        at(&m, 4);
        h->damage = msg_f32(&m);
        h->force = msg_f32(&m);
        for (int i = 0; i < 3; i++)
            h->recoil[i] = (float)msg_s16(&m);
        for (int i = 0; i < 3; i++)
            h->point[i] = (float)msg_s16(&m);
        for (int i = 0; i < 3; i++)
            h->dir[i] = (float)msg_s16(&m);
        h->weapon_type = (uint8_t)msg_u8(&m);
        h->weapon = (uint8_t)msg_u8(&m);
        h->one_off = (uint16_t)msg_u16(&m);
        h->recoil_scalar = (uint16_t)msg_u16(&m);
        h->deaths = (int16_t)msg_s16(&m);
        break;
    }
    case FS_MSG_TEXTMSG:
        ev->u.text.player = player;
        text_field(&m, FS_TEXT_LEN, ev->u.text.text, sizeof(ev->u.text.text));
        ev->u.text.type = (uint8_t)msg_u8(&m);
        break;
    default:
        break;
    }
    return 0;
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
    double r = roll * FS_RAD2DEG + (isfinite(bank) ? bank : 0.0);
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
