// quake.c -- Quake .dem decoder: protocol 15 (Quake 0.91..1.09), FitzQuake 666 and RMQ 999
//
// A demo is an optional CD-track line ("-1\n") followed by blocks:
//   int32 size, float32 angles[3], size bytes of server messages.
// One read_frame = one block. Limits come from the engines that recorded real
// demos (FitzQuake/QuakeSpasm: 16-bit model, sound and entity numbers), not
// from the 1996 spec's prose.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "decoder.h"
#include "dump.h"
#include "msg.h"

#define Q1_MAX_BLOCK (1 << 20)    // QuakeSpasm's MAX_MSGLEN is 64000; allow headroom, not gigabytes
#define Q1_MAX_SCOREBOARD 255

enum {
    PROTOCOL_NETQUAKE = 15,
    PROTOCOL_FITZQUAKE = 666,
    PROTOCOL_RMQ = 999,
};

// RMQ protocol flags (serverinfo, protocol 999)
enum {
    PRFL_SHORTANGLE = 1 << 1,
    PRFL_FLOATANGLE = 1 << 2,
    PRFL_24BITCOORD = 1 << 3,
    PRFL_FLOATCOORD = 1 << 4,
    PRFL_EDICTSCALE = 1 << 5,
    PRFL_INT32COORD = 1 << 7,
};

enum {
    svc_bad, svc_nop, svc_disconnect, svc_updatestat, svc_version, svc_setview, svc_sound, svc_time,
    svc_print, svc_stufftext, svc_setangle, svc_serverinfo, svc_lightstyle, svc_updatename,
    svc_updatefrags, svc_clientdata, svc_stopsound, svc_updatecolors, svc_particle, svc_damage,
    svc_spawnstatic, svc_spawnbinary, svc_spawnbaseline, svc_temp_entity, svc_setpause, svc_signonnum,
    svc_centerprint, svc_killedmonster, svc_foundsecret, svc_spawnstaticsound, svc_intermission,
    svc_finale, svc_cdtrack, svc_sellscreen, svc_cutscene,
    // FitzQuake 666 / RMQ 999
    svc_skybox = 37, svc_bf = 40, svc_fog = 41, svc_spawnbaseline2 = 42, svc_spawnstatic2 = 43,
    svc_spawnstaticsound2 = 44,
};

static const char *const svc_names[] = {
    "bad", "nop", "disconnect", "updatestat", "version", "setview", "sound", "time", "print", "stufftext",
    "setangle", "serverinfo", "lightstyle", "updatename", "updatefrags", "clientdata", "stopsound",
    "updatecolors", "particle", "damage", "spawnstatic", "spawnbinary", "spawnbaseline", "temp_entity",
    "setpause", "signonnum", "centerprint", "killedmonster", "foundsecret", "spawnstaticsound",
    "intermission", "finale", "cdtrack", "sellscreen", "cutscene", "35", "36", "skybox", "38", "39", "bf",
    "fog", "spawnbaseline2", "spawnstatic2", "spawnstaticsound2",
};
#define NUM_SVC_NAMES (int)(sizeof(svc_names) / sizeof(svc_names[0]))

// entity update bits
enum {
    U_MOREBITS = 1 << 0, U_ORIGIN1 = 1 << 1, U_ORIGIN2 = 1 << 2, U_ORIGIN3 = 1 << 3, U_ANGLE2 = 1 << 4,
    U_STEP = 1 << 5, U_FRAME = 1 << 6, U_SIGNAL = 1 << 7, U_ANGLE1 = 1 << 8, U_ANGLE3 = 1 << 9,
    U_MODEL = 1 << 10, U_COLORMAP = 1 << 11, U_SKIN = 1 << 12, U_EFFECTS = 1 << 13, U_LONGENTITY = 1 << 14,
    U_EXTEND1 = 1 << 15, U_ALPHA = 1 << 16, U_FRAME2 = 1 << 17, U_MODEL2 = 1 << 18, U_LERPFINISH = 1 << 19,
    U_SCALE = 1 << 20, U_EXTEND2 = 1 << 23,
};

// clientdata bits
enum {
    SU_VIEWHEIGHT = 1 << 0, SU_IDEALPITCH = 1 << 1, SU_PUNCH1 = 1 << 2, SU_VELOCITY1 = 1 << 5,
    SU_ITEMS = 1 << 9, SU_ONGROUND = 1 << 10, SU_INWATER = 1 << 11, SU_WEAPONFRAME = 1 << 12,
    SU_ARMOR = 1 << 13, SU_WEAPON = 1 << 14, SU_EXTEND1 = 1 << 15, SU_WEAPON2 = 1 << 16, SU_ARMOR2 = 1 << 17,
    SU_AMMO2 = 1 << 18, SU_SHELLS2 = 1 << 19, SU_NAILS2 = 1 << 20, SU_ROCKETS2 = 1 << 21,
    SU_CELLS2 = 1 << 22, SU_EXTEND2 = 1 << 23, SU_WEAPONFRAME2 = 1 << 24, SU_WEAPONALPHA = 1 << 25,
};

// sound bits
enum { SND_VOLUME = 1 << 0, SND_ATTENUATION = 1 << 1, SND_LARGEENTITY = 1 << 3, SND_LARGESOUND = 1 << 4 };
// baseline2 / static2 bits
enum { B_LARGEMODEL = 1 << 0, B_LARGEFRAME = 1 << 1, B_ALPHA = 1 << 2, B_SCALE = 1 << 3 };

enum {
    TE_SPIKE, TE_SUPERSPIKE, TE_GUNSHOT, TE_EXPLOSION, TE_TAREXPLOSION, TE_LIGHTNING1, TE_LIGHTNING2,
    TE_WIZSPIKE, TE_KNIGHTSPIKE, TE_LIGHTNING3, TE_LAVASPLASH, TE_TELEPORT, TE_EXPLOSION2, TE_BEAM,
};

// How a protocol-15 clientdata without SU_ITEMS is read: Quake <= 1.06 sends no
// items long then; 1.07 and 1.08 servers leave the bit clear and send it anyway.
enum { ITEMS_UNKNOWN = 0, ITEMS_IF_BIT, ITEMS_ALWAYS };

typedef struct {
    demo_info_t info;
    dec_opts_t opts;
    const uint8_t *data;
    size_t size;
    size_t pos;               // next block
    size_t header_len;        // CD-track line length
    int32_t cdtrack;
    int failed;
    int32_t protocol;
    uint32_t protocolflags;
    int items_mode;
    int have_serverinfo;
    int64_t blocks;
    int32_t static_count;
} q1_state_t;

// ---- readers with protocol-dependent widths -------------------------------

static float read_coord(msg_t *m, const q1_state_t *s)
{
    if (s->protocolflags & PRFL_FLOATCOORD)
        return msg_f32(m);
    if (s->protocolflags & PRFL_INT32COORD)
        return (float)msg_s32(m) * (1.0f / 16.0f);
    if (s->protocolflags & PRFL_24BITCOORD) {
        int whole = msg_s16(m);
        return (float)whole + (float)msg_u8(m) * (1.0f / 255.0f);
    }
    return (float)msg_s16(m) * (1.0f / 8.0f);
}

static float read_angle(msg_t *m, const q1_state_t *s)
{
    if (s->protocolflags & PRFL_FLOATANGLE)
        return msg_f32(m);
    if (s->protocolflags & PRFL_SHORTANGLE)
        return (float)msg_s16(m) * (360.0f / 65536.0f);
    return (float)msg_s8(m) * (360.0f / 256.0f);
}

static void read_coords(msg_t *m, const q1_state_t *s, vec3_t out)
{
    for (int i = 0; i < 3; i++)
        out[i] = read_coord(m, s);
}

// ---- errors -----------------------------------------------------------------

static int fail(q1_state_t *s, dec_error_t *err, size_t offset, const char *fmt, const char *a, long long b)
{
    char what[400];
    snprintf(what, sizeof(what), fmt, a, b);
    dec_error_set(err, (long long)offset, "%s", what);
    s->failed = 1;
    return -1;
}

static int truncated(q1_state_t *s, dec_error_t *err, const msg_t *m, size_t msg_start, int cmd)
{
    const char *name = (cmd >= 0 && cmd < NUM_SVC_NAMES) ? svc_names[cmd] : "updateentity";
    return fail(s, err, msg_start, "expected a complete %s message, but the block ends at %lld", name,
                (long long)(m->base + m->size));
}

// ---- probing and opening ----------------------------------------------------

// Length of the CD-track line ("-1\n", "2\n", possibly with spaces), or 0 when
// the file starts directly with a block (the fscanf-era files without one).
static size_t cdtrack_length(const uint8_t *data, size_t size, int32_t *track)
{
    int32_t t = 0;
    int neg = 0, digits = 0;
    for (size_t i = 0; i < size && i < 16; i++) {
        uint8_t c = data[i];
        if (c == '\n') {
            *track = neg ? -t : t;
            return digits || i > 0 ? i + 1 : 0;
        }
        if (c == '-' && !digits)
            neg = 1;
        else if (c >= '0' && c <= '9') {
            if (t < 100000000)   // digits past the ninth are not added: no int overflow
                t = t * 10 + (c - '0');
            digits++;
        } else if (c != ' ' && c != '\t' && c != '\r')
            return 0;
    }
    return 0;
}

static int q1_probe(const uint8_t *data, size_t size)
{
    int32_t track = 0;
    size_t h = cdtrack_length(data, size, &track);
    if (size < h + 17)
        return 0;
    msg_t m;
    msg_init(&m, data + h, size - h, h);
    int32_t len = msg_s32(&m);
    for (int i = 0; i < 3; i++) {
        float a = msg_f32(&m);
        if (!isfinite(a))
            return 0;
    }
    if (len <= 0 || len > Q1_MAX_BLOCK || (size_t)len > size - h - 16)
        return 0;
    // the first message of a recording is serverinfo (possibly after nops/prints)
    uint8_t first = data[h + 16];
    int score = h ? 60 : 30;
    if (first == svc_serverinfo) {
        msg_init(&m, data + h + 17, size - h - 17, h + 17);
        int32_t proto = msg_s32(&m);
        if (proto == PROTOCOL_NETQUAKE || proto == PROTOCOL_FITZQUAKE || proto == PROTOCOL_RMQ)
            score += 35;
    } else if (!h && first != svc_print && first != svc_nop && first != svc_stufftext) {
        // no CD-track line and no typical first message: too little to claim the bytes
        return 0;
    } else if (first > svc_cutscene && first < 0x80) {
        score -= 20;
    }
    return score;
}

static int q1_open(void *st, const uint8_t *data, size_t size, world_t *w, const dec_opts_t *opts, dec_error_t *err)
{
    q1_state_t *s = st;
    memset(s, 0, sizeof(*s));
    s->data = data;
    s->size = size;
    if (opts)
        s->opts = *opts;
    s->info.format = "quake";
    s->header_len = cdtrack_length(data, size, &s->cdtrack);
    s->pos = s->header_len;
    world_reset(w);
    w->game = GAME_QUAKE;
    w->player_eye_height = 22.0f;   // view_ofs 22; SV_ClientThink: angles[PITCH] = -v_angle[PITCH] / 3
    w->player_pitch_scale = -3.0f;
    w->view.cdtrack = s->cdtrack;
    if (s->opts.dump) {
        char header[32];
        size_t n = s->header_len < sizeof(header) - 1 ? s->header_len : sizeof(header) - 1;
        memcpy(header, data, n);
        header[n] = 0;
        dump_begin(&s->opts, 0, 0, "cdtrack");
        dump_int(&s->opts, "track", s->cdtrack);
        dump_str(&s->opts, "raw", header);
        dump_end(&s->opts);
    }
    if (size < s->header_len + 16)
        return fail(s, err, s->header_len, "expected a demo block (16-byte header), but the file has %s%lld bytes", "",
                    (long long)size);
    return 0;
}

// ---- messages -----------------------------------------------------------------

static void set_stat(world_t *w, int index, int32_t value)
{
    if (index >= 0 && index < WORLD_MAX_STATS)
        w->view.stats[index] = value;
}

static int parse_serverinfo(q1_state_t *s, world_t *w, msg_t *m, size_t at, dec_error_t *err)
{
    int32_t proto = msg_s32(m);
    if (proto != PROTOCOL_NETQUAKE && proto != PROTOCOL_FITZQUAKE && proto != PROTOCOL_RMQ)
        return fail(s, err, at + 1, "expected protocol 15, 666 or 999 in serverinfo%s, found %lld", "", proto);
    uint32_t flags = 0;
    if (proto == PROTOCOL_RMQ)
        flags = msg_u32(m);
    int maxclients = (int)msg_u8(m);
    int gametype = (int)msg_u8(m);
    char level[WORLD_NAME_LEN * 2];
    msg_string(m, level, sizeof(level));

    world_new_level(w);
    s->protocol = proto;
    s->protocolflags = flags;
    s->static_count = 0;
    w->protocol = proto;
    w->maxclients = maxclients;
    w->deathmatch = gametype;
    snprintf(w->level_name, sizeof(w->level_name), "%s", level);

    dump_begin(&s->opts, at, w->time, "serverinfo");
    dump_int(&s->opts, "protocol", proto);
    if (proto == PROTOCOL_RMQ)
        dump_hex(&s->opts, "flags", flags);
    dump_int(&s->opts, "maxclients", maxclients);
    dump_int(&s->opts, "gametype", gametype);
    dump_str(&s->opts, "level", level);

    char name[WORLD_NAME_LEN * 2];
    int n;
    for (n = 1;; n++) {
        size_t len = msg_string(m, name, sizeof(name));
        if (m->bad)
            return truncated(s, err, m, at, svc_serverinfo);
        if (len == 0)
            break;
        if (n >= WORLD_MAX_MODELS)
            return fail(s, err, msg_offset(m), "expected at most %s%lld models in serverinfo", "", WORLD_MAX_MODELS - 1);
        world_set_model(w, n, name);
        dump_str(&s->opts, "model", name);
    }
    int models = n;   // names + the empty slot 0, world model included
    for (n = 1;; n++) {
        size_t len = msg_string(m, name, sizeof(name));
        if (m->bad)
            return truncated(s, err, m, at, svc_serverinfo);
        if (len == 0)
            break;
        if (n >= WORLD_MAX_SOUNDS)
            return fail(s, err, msg_offset(m), "expected at most %s%lld sounds in serverinfo", "", WORLD_MAX_SOUNDS - 1);
        world_set_sound(w, n, name);
        dump_str(&s->opts, "sound", name);
    }
    int sounds = n;
    dump_end(&s->opts);
    snprintf(w->map, sizeof(w->map), "%s", w->num_models > 1 ? w->models[1] : "");

    s->info.levels++;
    if (!s->have_serverinfo) {
        s->have_serverinfo = 1;
        s->info.protocol = proto;
        s->info.maxclients = maxclients;
        s->info.models = models - 1;
        s->info.sounds = sounds - 1;
        snprintf(s->info.map, sizeof(s->info.map), "%s", w->map);
        snprintf(s->info.level_name, sizeof(s->info.level_name), "%s", level);
    }
    world_event_t *ev = world_add_event(w, EV_LEVEL);
    (void)ev;
    return 0;
}

// spawnbaseline / spawnstatic (and their FitzQuake "2" forms with a bits byte)
static void parse_baseline(q1_state_t *s, msg_t *m, int version2, entity_state_t *st, int *bitsp, int raw[2])
{
    raw[0] = raw[1] = 0;
    int bits = version2 ? (int)msg_u8(m) : 0;
    entity_state_clear(st);
    st->modelindex = (bits & B_LARGEMODEL) ? (int32_t)msg_u16(m) : (int32_t)msg_u8(m);
    st->frame = (bits & B_LARGEFRAME) ? (int32_t)msg_u16(m) : (int32_t)msg_u8(m);
    st->colormap = (int32_t)msg_u8(m);
    st->skin = (int32_t)msg_u8(m);
    for (int i = 0; i < 3; i++) {
        st->origin[i] = read_coord(m, s);
        st->angles[i] = read_angle(m, s);
    }
    if (bits & B_ALPHA) {
        int a = (int)msg_u8(m);
        raw[0] = a;
        if (a) {
            st->renderamt = a == 1 ? 0 : (a - 1) * 255 / 254;
            st->rendermode = RM_TEXTURE;
        }
    }
    if (bits & B_SCALE) {
        raw[1] = (int)msg_u8(m);
        st->scale = (float)raw[1] / 16.0f;
    }
    *bitsp = bits;
}

static void dump_state(const q1_state_t *s, const entity_state_t *st)
{
    dump_int(&s->opts, "model", st->modelindex);
    dump_int(&s->opts, "frame", st->frame);
    dump_int(&s->opts, "colormap", st->colormap);
    dump_int(&s->opts, "skin", st->skin);
    dump_vec(&s->opts, "origin", st->origin);
    dump_vec(&s->opts, "angles", st->angles);
}

static void dump_raw_baseline(const q1_state_t *s, int bits, const int raw[2])
{
    if (bits & B_ALPHA)
        dump_int(&s->opts, "alpha", raw[0]);
    if (bits & B_SCALE)
        dump_int(&s->opts, "scale", raw[1]);
}

static uint32_t map_effects(uint32_t fx)
{
    // Quake's EF_ bits 1..8 are ours; FitzQuake's EF_NODRAW is 16
    return fx & (EF_BRIGHTFIELD | EF_MUZZLEFLASH | EF_BRIGHTLIGHT | EF_DIMLIGHT | EF_NODRAW);
}

static int parse_update(q1_state_t *s, world_t *w, msg_t *m, int cmd, size_t at, dec_error_t *err)
{
    uint32_t bits = (uint32_t)cmd & 0x7f;
    if (bits & U_MOREBITS)
        bits |= msg_u8(m) << 8;
    if (s->protocol != PROTOCOL_NETQUAKE) {
        if (bits & U_EXTEND1)
            bits |= msg_u8(m) << 16;
        if (bits & U_EXTEND2)
            bits |= msg_u8(m) << 24;
    }
    int num = (bits & U_LONGENTITY) ? (int)msg_u16(m) : (int)msg_u8(m);
    if (num >= WORLD_MAX_ENTITIES)
        return fail(s, err, at, "expected an entity number below %s%lld in updateentity", "", WORLD_MAX_ENTITIES);
    world_entity_t *e = &w->entities[num];
    entity_state_t st = e->baseline;
    if (!e->has_baseline)
        entity_state_clear(&st);
    if (bits & U_MODEL)
        st.modelindex = (int32_t)msg_u8(m);
    if (bits & U_FRAME)
        st.frame = (int32_t)msg_u8(m);
    if (bits & U_COLORMAP)
        st.colormap = (int32_t)msg_u8(m);
    if (bits & U_SKIN)
        st.skin = (int32_t)msg_u8(m);
    if (bits & U_EFFECTS) {
        st.raw_effects = msg_u8(m);
        st.effects = map_effects(st.raw_effects);
    }
    if (bits & U_ORIGIN1)
        st.origin[0] = read_coord(m, s);
    if (bits & U_ANGLE1)
        st.angles[0] = read_angle(m, s);
    if (bits & U_ORIGIN2)
        st.origin[1] = read_coord(m, s);
    if (bits & U_ANGLE2)
        st.angles[1] = read_angle(m, s);
    if (bits & U_ORIGIN3)
        st.origin[2] = read_coord(m, s);
    if (bits & U_ANGLE3)
        st.angles[2] = read_angle(m, s);
    int alpha_raw = 0, scale_raw = 0, lerp_raw = 0;
    if (s->protocol != PROTOCOL_NETQUAKE) {
        if (bits & U_ALPHA) {
            int a = alpha_raw = (int)msg_u8(m);
            st.renderamt = a == 0 ? 255 : (a == 1 ? 0 : (a - 1) * 255 / 254);
            st.rendermode = a == 0 ? RM_NORMAL : RM_TEXTURE;
        }
        if (bits & U_SCALE) {
            scale_raw = (int)msg_u8(m);
            st.scale = (float)scale_raw / 16.0f;
        }
        if (bits & U_FRAME2)
            st.frame |= (int32_t)msg_u8(m) << 8;
        if (bits & U_MODEL2)
            st.modelindex |= (int32_t)msg_u8(m) << 8;
        if (bits & U_LERPFINISH)
            lerp_raw = (int)msg_u8(m);
    }
    if (m->bad)
        return truncated(s, err, m, at, -1);
    world_entity_update(w, num, &st);
    if (s->opts.dump) {
        dump_begin(&s->opts, at, w->time, "updateentity");
        dump_hex(&s->opts, "bits", bits);
        dump_int(&s->opts, "entity", num);
        dump_state(s, &st);
        if (st.raw_effects)
            dump_int(&s->opts, "effects", st.raw_effects);
        if (bits & U_ALPHA)
            dump_int(&s->opts, "alpha", alpha_raw);
        if (bits & U_SCALE)
            dump_int(&s->opts, "scale", scale_raw);
        if (bits & U_LERPFINISH)
            dump_int(&s->opts, "lerpfinish", lerp_raw);
        dump_end(&s->opts);
    }
    return 0;
}

typedef struct {
    int viewheight, idealpitch;
    int punch[3], vel[3];
    int32_t items;
    int has_items;
    int weaponframe, armor, weapon, health, ammo, shells, nails, rockets, cells, active, weaponalpha;
} clientdata_t;

// Parse the clientdata body; items are read when the bit says so or `items_always`.
static void read_clientdata(const q1_state_t *s, msg_t *m, uint32_t bits, int items_always, clientdata_t *c)
{
    memset(c, 0, sizeof(*c));
    c->viewheight = (bits & SU_VIEWHEIGHT) ? msg_s8(m) : 22;
    c->idealpitch = (bits & SU_IDEALPITCH) ? msg_s8(m) : 0;
    for (int i = 0; i < 3; i++) {
        if (bits & (SU_PUNCH1 << i))
            c->punch[i] = msg_s8(m);
        if (bits & (SU_VELOCITY1 << i))
            c->vel[i] = msg_s8(m) * 16;
    }
    if ((bits & SU_ITEMS) || items_always) {
        c->items = (int32_t)msg_u32(m);
        c->has_items = 1;
    }
    c->weaponframe = (bits & SU_WEAPONFRAME) ? (int)msg_u8(m) : 0;
    c->armor = (bits & SU_ARMOR) ? (int)msg_u8(m) : 0;
    c->weapon = (bits & SU_WEAPON) ? (int)msg_u8(m) : 0;
    c->health = msg_s16(m);
    c->ammo = (int)msg_u8(m);
    c->shells = (int)msg_u8(m);
    c->nails = (int)msg_u8(m);
    c->rockets = (int)msg_u8(m);
    c->cells = (int)msg_u8(m);
    c->active = (int)msg_u8(m);
    if (s->protocol != PROTOCOL_NETQUAKE) {
        if (bits & SU_WEAPON2)
            c->weapon |= (int)msg_u8(m) << 8;
        if (bits & SU_ARMOR2)
            c->armor |= (int)msg_u8(m) << 8;
        if (bits & SU_AMMO2)
            c->ammo |= (int)msg_u8(m) << 8;
        if (bits & SU_SHELLS2)
            c->shells |= (int)msg_u8(m) << 8;
        if (bits & SU_NAILS2)
            c->nails |= (int)msg_u8(m) << 8;
        if (bits & SU_ROCKETS2)
            c->rockets |= (int)msg_u8(m) << 8;
        if (bits & SU_CELLS2)
            c->cells |= (int)msg_u8(m) << 8;
        if (bits & SU_WEAPONFRAME2)
            c->weaponframe |= (int)msg_u8(m) << 8;
        c->weaponalpha = (bits & SU_WEAPONALPHA) ? (int)msg_u8(m) : 0;
    }
}

// Whether the bytes after a trial parse look like the next message of the block.
static int plausible_next(const msg_t *m)
{
    if (m->bad)
        return 0;
    if (m->pos == m->size)
        return 1;
    uint8_t c = m->data[m->pos];
    return c >= 0x80 || (c >= svc_nop && c <= svc_cutscene && c != svc_spawnbinary);
}

static int parse_clientdata(q1_state_t *s, world_t *w, msg_t *m, size_t at, dec_error_t *err)
{
    uint32_t bits = msg_u16(m);
    if (s->protocol != PROTOCOL_NETQUAKE) {
        if (bits & SU_EXTEND1)
            bits |= msg_u8(m) << 16;
        if (bits & SU_EXTEND2)
            bits |= msg_u8(m) << 24;
    }
    int items_always = s->protocol != PROTOCOL_NETQUAKE;
    if (s->protocol == PROTOCOL_NETQUAKE && !(bits & SU_ITEMS)) {
        if (s->items_mode == ITEMS_UNKNOWN) {
            // settle which Quake version wrote this from what follows each reading
            msg_t a = *m, b = *m;
            clientdata_t ca, cb;
            read_clientdata(s, &a, bits, 1, &ca);
            read_clientdata(s, &b, bits, 0, &cb);
            int ok_a = plausible_next(&a), ok_b = plausible_next(&b);
            if (ok_a != ok_b)
                s->items_mode = ok_a ? ITEMS_ALWAYS : ITEMS_IF_BIT;
        }
        items_always = s->items_mode == ITEMS_ALWAYS;
    }
    clientdata_t c;
    read_clientdata(s, m, bits, items_always, &c);
    if (m->bad)
        return truncated(s, err, m, at, svc_clientdata);

    world_view_t *v = &w->view;
    v->ofs[0] = v->ofs[1] = 0;
    v->ofs[2] = (float)c.viewheight;
    for (int i = 0; i < 3; i++) {
        v->punch[i] = (float)c.punch[i];
        v->velocity[i] = (float)c.vel[i];
    }
    if (c.has_items) {
        v->items = (uint32_t)c.items;
        v->stats[STAT_ITEMS] = c.items;
    }
    v->onground = (bits & SU_ONGROUND) != 0;
    v->inwater = (bits & SU_INWATER) != 0;
    set_stat(w, STAT_WEAPONFRAME, c.weaponframe);
    set_stat(w, STAT_ARMOR, c.armor);
    set_stat(w, STAT_WEAPON, c.weapon);
    set_stat(w, STAT_HEALTH, c.health);
    set_stat(w, STAT_AMMO, c.ammo);
    set_stat(w, STAT_SHELLS, c.shells);
    set_stat(w, STAT_NAILS, c.nails);
    set_stat(w, STAT_ROCKETS, c.rockets);
    set_stat(w, STAT_CELLS, c.cells);
    set_stat(w, STAT_ACTIVEWEAPON, c.active);
    set_stat(w, STAT_VIEWHEIGHT, c.viewheight);
    set_stat(w, STAT_WEAPONALPHA, c.weaponalpha);

    if (s->opts.dump) {
        dump_begin(&s->opts, at, w->time, "clientdata");
        dump_hex(&s->opts, "bits", bits);
        dump_int(&s->opts, "viewheight", c.viewheight);
        dump_int(&s->opts, "idealpitch", c.idealpitch);
        float punch[3] = { (float)c.punch[0], (float)c.punch[1], (float)c.punch[2] };
        float vel[3] = { (float)c.vel[0], (float)c.vel[1], (float)c.vel[2] };
        dump_vec(&s->opts, "punch", punch);
        dump_vec(&s->opts, "velocity", vel);
        if (c.has_items)
            dump_hex(&s->opts, "items", (uint32_t)c.items);
        dump_int(&s->opts, "weaponframe", c.weaponframe);
        dump_int(&s->opts, "armor", c.armor);
        dump_int(&s->opts, "weapon", c.weapon);
        dump_int(&s->opts, "health", c.health);
        dump_int(&s->opts, "ammo", c.ammo);
        dump_int(&s->opts, "shells", c.shells);
        dump_int(&s->opts, "nails", c.nails);
        dump_int(&s->opts, "rockets", c.rockets);
        dump_int(&s->opts, "cells", c.cells);
        dump_int(&s->opts, "activeweapon", c.active);
        if (bits & SU_WEAPONALPHA)
            dump_int(&s->opts, "weaponalpha", c.weaponalpha);
        dump_end(&s->opts);
    }
    return 0;
}

static int parse_sound(q1_state_t *s, world_t *w, msg_t *m, size_t at, dec_error_t *err)
{
    int bits = (int)msg_u8(m);
    int vol = (bits & SND_VOLUME) ? (int)msg_u8(m) : 255;
    int atten = (bits & SND_ATTENUATION) ? (int)msg_u8(m) : 64;
    int ent, chan;
    if (s->protocol != PROTOCOL_NETQUAKE && (bits & SND_LARGEENTITY)) {
        ent = (int)msg_u16(m);
        chan = (int)msg_u8(m);
    } else {
        int v = (int)msg_u16(m);
        ent = v >> 3;
        chan = v & 7;
    }
    int snd = (s->protocol != PROTOCOL_NETQUAKE && (bits & SND_LARGESOUND)) ? (int)msg_u16(m) : (int)msg_u8(m);
    vec3_t org;
    read_coords(m, s, org);
    if (m->bad)
        return truncated(s, err, m, at, svc_sound);
    world_event_t *ev = world_add_event(w, EV_SOUND);
    if (ev) {
        ev->u.sound.entity = ent;
        ev->u.sound.channel = chan;
        ev->u.sound.sound = snd;
        ev->u.sound.volume = (float)vol / 255.0f;
        ev->u.sound.attenuation = (float)atten / 64.0f;
        ev->u.sound.pitch = 1.0f;
        memcpy(ev->u.sound.origin, org, sizeof(vec3_t));
        ev->u.sound.has_origin = 1;
    }
    if (s->opts.dump) {
        dump_begin(&s->opts, at, w->time, "sound");
        dump_hex(&s->opts, "bits", (unsigned)bits);
        dump_int(&s->opts, "volume", vol);
        dump_int(&s->opts, "attenuation", atten);
        dump_int(&s->opts, "entity", ent);
        dump_int(&s->opts, "channel", chan);
        dump_int(&s->opts, "sound", snd);
        dump_str(&s->opts, "name", snd > 0 && snd < w->num_sounds ? w->sounds[snd] : "");
        dump_vec(&s->opts, "origin", org);
        dump_end(&s->opts);
    }
    return 0;
}

static int parse_temp_entity(q1_state_t *s, world_t *w, msg_t *m, size_t at, dec_error_t *err)
{
    static const world_fx_t kinds[] = {
        [TE_SPIKE] = FX_SPIKE, [TE_SUPERSPIKE] = FX_SUPERSPIKE, [TE_GUNSHOT] = FX_GUNSHOT,
        [TE_EXPLOSION] = FX_EXPLOSION, [TE_TAREXPLOSION] = FX_TAREXPLOSION, [TE_LIGHTNING1] = FX_LIGHTNING1,
        [TE_LIGHTNING2] = FX_LIGHTNING2, [TE_WIZSPIKE] = FX_WIZSPIKE, [TE_KNIGHTSPIKE] = FX_KNIGHTSPIKE,
        [TE_LIGHTNING3] = FX_LIGHTNING3, [TE_LAVASPLASH] = FX_LAVASPLASH, [TE_TELEPORT] = FX_TELEPORT,
        [TE_EXPLOSION2] = FX_EXPLOSION2, [TE_BEAM] = FX_BEAM,
    };
    int type = (int)msg_u8(m);
    world_fx_event_t fx;
    memset(&fx, 0, sizeof(fx));
    fx.raw_type = type;
    fx.entity = -1;
    switch (type) {
    case TE_LIGHTNING1:
    case TE_LIGHTNING2:
    case TE_LIGHTNING3:
    case TE_BEAM:
        fx.entity = (int)msg_u16(m);
        read_coords(m, s, fx.origin);
        read_coords(m, s, fx.end);
        break;
    case TE_EXPLOSION2:
        read_coords(m, s, fx.origin);
        fx.color = (int)msg_u8(m);
        fx.count = (int)msg_u8(m);
        break;
    default:
        if (type > TE_BEAM)
            return fail(s, err, at + 1, "expected a temp entity type 0..13%s, found %lld", "", type);
        read_coords(m, s, fx.origin);
        break;
    }
    if (m->bad)
        return truncated(s, err, m, at, svc_temp_entity);
    fx.kind = kinds[type];
    world_event_t *ev = world_add_event(w, EV_TEMPENT);
    if (ev)
        ev->u.fx = fx;
    if (s->opts.dump) {
        dump_begin(&s->opts, at, w->time, "temp_entity");
        dump_int(&s->opts, "type", type);
        if (fx.entity >= 0)
            dump_int(&s->opts, "entity", fx.entity);
        dump_vec(&s->opts, "origin", fx.origin);
        if (fx.entity >= 0)
            dump_vec(&s->opts, "end", fx.end);
        if (type == TE_EXPLOSION2) {
            dump_int(&s->opts, "colorstart", fx.color);
            dump_int(&s->opts, "colorlength", fx.count);
        }
        dump_end(&s->opts);
    }
    return 0;
}

static void text_message(q1_state_t *s, world_t *w, msg_t *m, size_t at, int cmd, world_event_type_t type)
{
    char text[2048];
    msg_string(m, text, sizeof(text));
    if (m->bad)
        return;
    if (type != EV_NONE) {
        // "bf" stuffed by the server is Quake's item pickup flash
        if (type == EV_STUFFTEXT && strncmp(text, "bf\n", 3) == 0)
            world_add_event(w, EV_BONUSFLASH);
        world_add_text_event(w, type, text, 0);
    }
    dump_begin(&s->opts, at, w->time, svc_names[cmd]);
    dump_str(&s->opts, "text", text);
    dump_end(&s->opts);
}

// One message; returns 0, or -1 on error (err set).
static int parse_message(q1_state_t *s, world_t *w, msg_t *m, dec_error_t *err)
{
    size_t at = msg_offset(m);
    int cmd = (int)msg_u8(m);
    if (cmd & U_SIGNAL)
        return parse_update(s, w, m, cmd, at, err);
    if (!s->have_serverinfo && cmd != svc_serverinfo && cmd != svc_nop && cmd != svc_print &&
        cmd != svc_stufftext && cmd != svc_disconnect && cmd != svc_cdtrack && cmd != svc_signonnum &&
        cmd != svc_time && cmd != svc_setpause && cmd != svc_version)
        return fail(s, err, at, "expected serverinfo before %s (message %lld)",
                    cmd < NUM_SVC_NAMES ? svc_names[cmd] : "an unknown message", cmd);
    int v;
    char text[2048];
    vec3_t vec;
    const dec_opts_t *o = &s->opts;
    switch (cmd) {
    case svc_nop:
    case svc_killedmonster:
    case svc_foundsecret:
    case svc_sellscreen:
    case svc_intermission:
    case svc_bf:
    case svc_disconnect:
        if (cmd == svc_killedmonster)
            w->view.stats[STAT_MONSTERS]++;
        else if (cmd == svc_foundsecret)
            w->view.stats[STAT_SECRETS]++;
        else if (cmd == svc_intermission) {
            w->view.intermission = 1;
            w->view.completed_time = w->time;
        } else if (cmd == svc_bf)
            world_add_event(w, EV_BONUSFLASH);
        dump_begin(o, at, w->time, svc_names[cmd]);
        dump_end(o);
        return 0;
    case svc_updatestat: {
        int index = (int)msg_u8(m);
        int32_t value = msg_s32(m);
        if (m->bad)
            return truncated(s, err, m, at, cmd);
        set_stat(w, index, value);
        dump_begin(o, at, w->time, "updatestat");
        dump_int(o, "index", index);
        dump_int(o, "value", value);
        dump_end(o);
        return 0;
    }
    case svc_version:
        v = msg_s32(m);
        dump_begin(o, at, w->time, "version");
        dump_int(o, "protocol", v);
        dump_end(o);
        break;
    case svc_setview:
        v = (int)msg_u16(m);
        w->view.entity = v;
        dump_begin(o, at, w->time, "setview");
        dump_int(o, "entity", v);
        dump_end(o);
        break;
    case svc_sound:
        return parse_sound(s, w, m, at, err);
    case svc_time: {
        float t = msg_f32(m);
        if (m->bad)
            return truncated(s, err, m, at, cmd);
        if (!isfinite(t))
            return fail(s, err, at + 1, "expected a finite time%s, found %lld (NaN or infinite)", "", 0);
        w->time = t;
        dump_begin(o, at, t, "time");
        dump_num(o, "time", t);
        dump_end(o);
        return 1;   // tells the block loop this block carries a time
    }
    case svc_print:
        text_message(s, w, m, at, cmd, EV_PRINT);
        break;
    case svc_stufftext:
        text_message(s, w, m, at, cmd, EV_STUFFTEXT);
        break;
    case svc_centerprint:
        text_message(s, w, m, at, cmd, EV_CENTERPRINT);
        break;
    case svc_setangle:
        for (int i = 0; i < 3; i++)
            vec[i] = read_angle(m, s);
        memcpy(w->view.angles, vec, sizeof(vec));
        dump_begin(o, at, w->time, "setangle");
        dump_vec(o, "angles", vec);
        dump_end(o);
        break;
    case svc_serverinfo:
        return parse_serverinfo(s, w, m, at, err);
    case svc_lightstyle:
        v = (int)msg_u8(m);
        msg_string(m, text, sizeof(text));
        if (v < WORLD_MAX_LIGHTSTYLES)
            snprintf(w->lightstyles[v], WORLD_STYLE_LEN, "%.*s", WORLD_STYLE_LEN - 1, text);
        dump_begin(o, at, w->time, "lightstyle");
        dump_int(o, "style", v);
        dump_str(o, "map", text);
        dump_end(o);
        break;
    case svc_updatename:
    case svc_updatefrags:
    case svc_updatecolors: {
        int p = (int)msg_u8(m);
        if (m->bad)
            return truncated(s, err, m, at, cmd);
        if (p >= w->maxclients || p >= WORLD_MAX_PLAYERS)
            return fail(s, err, at + 1, "expected a player number below maxclients in %s, found %lld", svc_names[cmd],
                        p);
        world_player_t *pl = &w->players[p];
        dump_begin(o, at, w->time, svc_names[cmd]);
        dump_int(o, "player", p);
        if (cmd == svc_updatename) {
            msg_string(m, text, sizeof(text));
            snprintf(pl->name, sizeof(pl->name), "%.*s", (int)sizeof(pl->name) - 1, text);
            pl->active = text[0] != 0;
            pl->entity = p + 1;
            dump_str(o, "name", text);
        } else if (cmd == svc_updatefrags) {
            pl->frags = msg_s16(m);
            dump_int(o, "frags", pl->frags);
        } else {
            v = (int)msg_u8(m);
            pl->top_color = (uint8_t)((v >> 4) & 15);
            pl->bottom_color = (uint8_t)(v & 15);
            dump_int(o, "colors", v);
        }
        dump_end(o);
        break;
    }
    case svc_clientdata:
        return parse_clientdata(s, w, m, at, err);
    case svc_stopsound: {
        v = (int)msg_u16(m);
        world_event_t *ev = world_add_event(w, EV_STOPSOUND);
        if (ev) {
            ev->u.sound.entity = v >> 3;
            ev->u.sound.channel = v & 7;
        }
        dump_begin(o, at, w->time, "stopsound");
        dump_int(o, "entity", v >> 3);
        dump_int(o, "channel", v & 7);
        dump_end(o);
        break;
    }
    case svc_particle: {
        world_fx_event_t fx;
        memset(&fx, 0, sizeof(fx));
        fx.kind = FX_NONE;
        read_coords(m, s, fx.origin);
        for (int i = 0; i < 3; i++)
            fx.dir[i] = (float)msg_s8(m) * (1.0f / 16.0f);
        fx.count = (int)msg_u8(m);
        fx.color = (int)msg_u8(m);
        if (m->bad)
            return truncated(s, err, m, at, cmd);
        world_event_t *ev = world_add_event(w, EV_PARTICLES);
        if (ev)
            ev->u.fx = fx;
        dump_begin(o, at, w->time, "particle");
        dump_vec(o, "origin", fx.origin);
        dump_vec(o, "velocity", fx.dir);
        dump_int(o, "count", fx.count);
        dump_int(o, "color", fx.color);
        dump_end(o);
        break;
    }
    case svc_damage: {
        int armor = (int)msg_u8(m), blood = (int)msg_u8(m);
        read_coords(m, s, vec);
        if (m->bad)
            return truncated(s, err, m, at, cmd);
        world_event_t *ev = world_add_event(w, EV_DAMAGE);
        if (ev) {
            ev->u.damage.armor = armor;
            ev->u.damage.blood = blood;
            memcpy(ev->u.damage.from, vec, sizeof(vec));
        }
        dump_begin(o, at, w->time, "damage");
        dump_int(o, "armor", armor);
        dump_int(o, "blood", blood);
        dump_vec(o, "from", vec);
        dump_end(o);
        break;
    }
    case svc_spawnstatic:
    case svc_spawnstatic2: {
        entity_state_t st;
        int bits, raw[2];
        parse_baseline(s, m, cmd == svc_spawnstatic2, &st, &bits, raw);
        if (m->bad)
            return truncated(s, err, m, at, cmd);
        if (world_add_static(w, &st) < 0)
            return fail(s, err, at, "expected at most %s%lld static entities", "", WORLD_MAX_STATICS);
        dump_begin(o, at, w->time, svc_names[cmd]);
        if (cmd == svc_spawnstatic2)
            dump_hex(o, "bits", (unsigned)bits);
        dump_state(s, &st);
        dump_raw_baseline(s, bits, raw);
        dump_end(o);
        break;
    }
    case svc_spawnbaseline:
    case svc_spawnbaseline2: {
        int num = (int)msg_u16(m);
        entity_state_t st;
        int bits, raw[2];
        parse_baseline(s, m, cmd == svc_spawnbaseline2, &st, &bits, raw);
        if (m->bad)
            return truncated(s, err, m, at, cmd);
        if (world_set_baseline(w, num, &st) < 0)
            return fail(s, err, at + 1, "expected an entity number below %s%lld in spawnbaseline", "",
                        WORLD_MAX_ENTITIES);
        dump_begin(o, at, w->time, svc_names[cmd]);
        dump_int(o, "entity", num);
        if (cmd == svc_spawnbaseline2)
            dump_hex(o, "bits", (unsigned)bits);
        dump_state(s, &st);
        dump_raw_baseline(s, bits, raw);
        dump_end(o);
        break;
    }
    case svc_temp_entity:
        return parse_temp_entity(s, w, m, at, err);
    case svc_setpause:
        v = (int)msg_u8(m);
        w->view.paused = v != 0;
        dump_begin(o, at, w->time, "setpause");
        dump_int(o, "paused", v);
        dump_end(o);
        break;
    case svc_signonnum:
        v = (int)msg_u8(m);
        dump_begin(o, at, w->time, "signonnum");
        dump_int(o, "signon", v);
        dump_end(o);
        break;
    case svc_spawnstaticsound:
    case svc_spawnstaticsound2: {
        world_static_sound_t ss;
        read_coords(m, s, ss.origin);
        ss.sound = cmd == svc_spawnstaticsound2 ? (int)msg_u16(m) : (int)msg_u8(m);
        int vol = (int)msg_u8(m), atten = (int)msg_u8(m);
        if (m->bad)
            return truncated(s, err, m, at, cmd);
        ss.volume = (float)vol / 255.0f;
        ss.attenuation = (float)atten / 64.0f;
        if (world_add_static_sound(w, &ss) < 0)
            return fail(s, err, at, "expected at most %s%lld static sounds", "", WORLD_MAX_STATIC_SOUNDS);
        dump_begin(o, at, w->time, svc_names[cmd]);
        dump_vec(o, "origin", ss.origin);
        dump_int(o, "sound", ss.sound);
        dump_int(o, "volume", vol);
        dump_int(o, "attenuation", atten);
        dump_end(o);
        break;
    }
    case svc_finale:
    case svc_cutscene:
        msg_string(m, text, sizeof(text));
        w->view.intermission = cmd == svc_finale ? 2 : 3;
        w->view.completed_time = w->time;
        snprintf(w->view.finale_text, sizeof(w->view.finale_text), "%.*s", (int)sizeof(w->view.finale_text) - 1, text);
        dump_begin(o, at, w->time, svc_names[cmd]);
        dump_str(o, "text", text);
        dump_end(o);
        break;
    case svc_cdtrack: {
        int track = (int)msg_u8(m), loop = (int)msg_u8(m);
        w->view.cdtrack = track;
        dump_begin(o, at, w->time, "cdtrack");
        dump_int(o, "track", track);
        dump_int(o, "loop", loop);
        dump_end(o);
        break;
    }
    case svc_skybox:
        if (s->protocol == PROTOCOL_NETQUAKE)
            goto unknown;
        msg_string(m, text, sizeof(text));
        dump_begin(o, at, w->time, "skybox");
        dump_str(o, "name", text);
        dump_end(o);
        break;
    case svc_fog: {
        if (s->protocol == PROTOCOL_NETQUAKE)
            goto unknown;
        int density = (int)msg_u8(m), r = (int)msg_u8(m), g = (int)msg_u8(m), b = (int)msg_u8(m);
        int time = msg_s16(m);
        dump_begin(o, at, w->time, "fog");
        dump_int(o, "density", density);
        dump_int(o, "red", r);
        dump_int(o, "green", g);
        dump_int(o, "blue", b);
        dump_int(o, "time", time);
        dump_end(o);
        break;
    }
    default:
    unknown:
        return fail(s, err, at, "expected a Quake server message (0..34, FitzQuake 37..44 or >= 128)%s, found %lld",
                    "", cmd);
    }
    if (m->bad)
        return truncated(s, err, m, at, cmd);
    return 0;
}

static int q1_read_frame(void *st, world_t *w, dec_error_t *err)
{
    q1_state_t *s = st;
    if (s->failed)
        return -1;
    if (s->pos >= s->size)
        return 0;
    size_t at = s->pos;
    if (s->size - at < 16)
        return fail(s, err, at, "expected a 16-byte block header%s, but only %lld bytes are left", "",
                    (long long)(s->size - at));
    msg_t h;
    msg_init(&h, s->data + at, 16, at);
    int32_t len = msg_s32(&h);
    vec3_t angles;
    for (int i = 0; i < 3; i++)
        angles[i] = msg_f32(&h);
    if (len < 0 || len > Q1_MAX_BLOCK)
        return fail(s, err, at, "expected a block size of 0..%s bytes, found %lld", "1048576", len);
    if ((size_t)len > s->size - at - 16)
        return fail(s, err, at, "expected a block of %s%lld bytes, but the file ends first (truncated)", "", len);
    for (int i = 0; i < 3; i++)
        if (!isfinite(angles[i]))
            return fail(s, err, at + 4 + (size_t)i * 4, "expected finite view angles%s, found %lld (NaN/inf)", "", 0);

    world_begin_frame(w, w->time);
    memcpy(w->view.angles, angles, sizeof(angles));
    s->blocks++;
    if (s->opts.dump) {
        dump_begin(&s->opts, at, w->time, "block");
        dump_int(&s->opts, "size", len);
        dump_vec(&s->opts, "angles", angles);
        dump_end(&s->opts);
    }
    msg_t m;
    msg_init(&m, s->data + at + 16, (size_t)len, at + 16);
    int has_time = 0;
    while (msg_left(&m) > 0) {
        int r = parse_message(s, w, &m, err);
        if (r < 0)
            return -1;
        if (r == 1)
            has_time = 1;
    }
    s->pos = at + 16 + (size_t)len;
    if (has_time) {
        if (!s->info.have_time) {
            s->info.start_time = w->time;
            s->info.have_time = 1;
        }
        s->info.end_time = w->time;
        s->info.frames++;
        s->info.drawn_frames++;
    }
    return 1;
}

static size_t q1_offset(const void *st) { return ((const q1_state_t *)st)->pos; }
static const demo_info_t *q1_info(const void *st) { return &((const q1_state_t *)st)->info; }
static void q1_close(void *st) { (void)st; }

const decoder_t q1_decoder = {
    "quake", GAME_QUAKE, sizeof(q1_state_t), q1_probe, q1_open, q1_read_frame, q1_offset, q1_info, q1_close,
};
