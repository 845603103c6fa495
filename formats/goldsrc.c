// goldsrc.c -- Half-Life / GoldSrc .dem decoder (HLDEMO, demo protocol 5, network protocols 43..48)
//
// File: a 544-byte header, frames, and a directory of "entries" (LOADING,
// Playback) at the end, each naming where its frames start. A frame is a type
// byte, a time and a frame number, then per-type data; network-message frames
// carry what the server sent (svc_* engine messages and user messages), in
// which entities, client data and events are bit-packed deltas whose layout the
// demo itself describes with svc_deltadescription (goldsrc_delta.c).
//
// One read_frame call applies one network-message frame (a server frame) and
// the client-side frames that follow it (client data, events, sounds ...).
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../engine/json.h"
#include "decoder.h"
#include "goldsrc_delta.h"
#include "goldsrc_events.h"
#include "../engine/log.h"
#include "msg.h"

enum {
    HL_HEADER_SIZE = 544,
    HL_DIR_ENTRY_SIZE = 92,
    HL_MAX_DIR = 1024,
    HL_FRAME_HEADER = 9,          // type, time, frame number
    HL_NETMSG_INFO = 468,         // timestamp, ref params, user cmd, move vars, view, viewmodel, seq info, length
    HL_MAX_NETMSG = 65536,
    HL_MAX_SAMPLE = 65536,        // sound frame sample name
    HL_MAX_DEMOBUFFER = 1 << 20,
    HL_UPDATE_BACKUP = 64,        // client frame history (CL_UPDATE_BACKUP)
    HL_MAX_PACKET = 256,          // entities in one packet (MAX_PACKET_ENTITIES)
    HL_MAX_EDICTS = 2048,         // 11-bit entity numbers
    HL_MAX_INSTANCED = 64,        // 6-bit instanced baseline indices
    HL_MAX_WEAPONS = 64,          // 6-bit weapon indices
};

// Engine message numbers (svc_*), public facts of the GoldSrc protocol.
enum {
    SVC_BAD, SVC_NOP, SVC_DISCONNECT, SVC_EVENT, SVC_VERSION, SVC_SETVIEW, SVC_SOUND, SVC_TIME, SVC_PRINT,
    SVC_STUFFTEXT, SVC_SETANGLE, SVC_SERVERINFO, SVC_LIGHTSTYLE, SVC_UPDATEUSERINFO, SVC_DELTADESCRIPTION,
    SVC_CLIENTDATA, SVC_STOPSOUND, SVC_PINGS, SVC_PARTICLE, SVC_DAMAGE, SVC_SPAWNSTATIC, SVC_EVENT_RELIABLE,
    SVC_SPAWNBASELINE, SVC_TEMP_ENTITY, SVC_SETPAUSE, SVC_SIGNONNUM, SVC_CENTERPRINT, SVC_KILLEDMONSTER,
    SVC_FOUNDSECRET, SVC_SPAWNSTATICSOUND, SVC_INTERMISSION, SVC_FINALE, SVC_CDTRACK, SVC_RESTORE, SVC_CUTSCENE,
    SVC_WEAPONANIM, SVC_DECALNAME, SVC_ROOMTYPE, SVC_ADDANGLE, SVC_NEWUSERMSG, SVC_PACKETENTITIES,
    SVC_DELTAPACKETENTITIES, SVC_CHOKE, SVC_RESOURCELIST, SVC_NEWMOVEVARS, SVC_RESOURCEREQUEST, SVC_CUSTOMIZATION,
    SVC_CROSSHAIRANGLE, SVC_SOUNDFADE, SVC_FILETXFERFAILED, SVC_HLTV, SVC_DIRECTOR, SVC_VOICEINIT, SVC_VOICEDATA,
    SVC_SENDEXTRAINFO, SVC_TIMESCALE, SVC_RESOURCELOCATION, SVC_SENDCVARVALUE, SVC_SENDCVARVALUE2, SVC_COUNT
};

static const char *const svc_names[SVC_COUNT] = {
    "svc_bad", "svc_nop", "svc_disconnect", "svc_event", "svc_version", "svc_setview", "svc_sound", "svc_time",
    "svc_print", "svc_stufftext", "svc_setangle", "svc_serverinfo", "svc_lightstyle", "svc_updateuserinfo",
    "svc_deltadescription", "svc_clientdata", "svc_stopsound", "svc_pings", "svc_particle", "svc_damage",
    "svc_spawnstatic", "svc_event_reliable", "svc_spawnbaseline", "svc_temp_entity", "svc_setpause",
    "svc_signonnum", "svc_centerprint", "svc_killedmonster", "svc_foundsecret", "svc_spawnstaticsound",
    "svc_intermission", "svc_finale", "svc_cdtrack", "svc_restore", "svc_cutscene", "svc_weaponanim",
    "svc_decalname", "svc_roomtype", "svc_addangle", "svc_newusermsg", "svc_packetentities",
    "svc_deltapacketentities", "svc_choke", "svc_resourcelist", "svc_newmovevars", "svc_resourcerequest",
    "svc_customization", "svc_crosshairangle", "svc_soundfade", "svc_filetxferfailed", "svc_hltv", "svc_director",
    "svc_voiceinit", "svc_voicedata", "svc_sendextrainfo", "svc_timescale", "svc_resourcelocation",
    "svc_sendcvarvalue", "svc_sendcvarvalue2",
};

static const char *const frame_names[10] = {
    "net0", "net", "demostart", "consolecommand", "clientdata", "nextsection", "event", "weaponanim", "sound",
    "demobuffer",
};

// Sound flags of svc_sound
enum { SND_VOLUME = 1, SND_ATTENUATION = 2, SND_LONG_INDEX = 4, SND_PITCH = 8, SND_SENTENCE = 16, SND_STOP = 32 };

typedef struct {
    uint32_t type;
    char description[65];
    int32_t frames;
    uint32_t offset;
    uint32_t length;
    float track_time;
} hl_dir_entry_t;

typedef struct {
    uint32_t v[HL_ENT_SLOTS];
} hl_ent_t;

typedef struct {
    int32_t valid;
    int32_t count;
    uint16_t num[HL_MAX_PACKET];
    uint8_t custom[HL_MAX_PACKET];
    hl_ent_t e[HL_MAX_PACKET];
} hl_packet_t;

typedef struct {
    int32_t valid;
    uint64_t wmask;              // weapons present in wd[]
    uint32_t cd[HL_CD_SLOTS];
    uint32_t wd[HL_MAX_WEAPONS][HL_WD_SLOTS];
} hl_cdframe_t;

typedef struct {
    const uint8_t *data;
    size_t size;
    dec_opts_t opts;
    demo_info_t info;
    int failed;
    int dline;                   // a dump line is open (closed before an error is reported)

    // header and directory
    int32_t demo_protocol, net_protocol;
    char map_name[WORLD_NAME_LEN], game_dir[WORLD_NAME_LEN];
    uint32_t dir_offset;         // 0: no directory (recording crashed)
    int count_frames;            // the directory is inconsistent: info.frames counts what is read
    size_t frames_end;           // frames live in [HL_HEADER_SIZE, frames_end)
    int32_t num_entries;
    hl_dir_entry_t entries[HL_MAX_DIR];
    int32_t entry;               // entry being read
    size_t pos;                  // next frame
    int32_t playback_entry;      // the entry whose times are the playback segment
    int32_t started_playback;

    // connection
    int32_t maxclients, playernum;
    int32_t incoming_seq;
    double server_time;
    int32_t levels_done;         // first level's precache counted
    int32_t have_packet;         // last_packet holds the entities of the latest packet
    int32_t last_packet;         // ring index of it
    int32_t instanced_count;
    int32_t health_msg;          // the last Health user message (-1 none): what the HUD shows
    int32_t umsg_size[256];      // -2 = not registered; -1 (255 on the wire) = variable
    char umsg_name[256][17];
    uint8_t event_warned[DEMO_INFO_EVENTS / 8];   // unknown client events, warned once a demo
    uint32_t event_count;        // events so far: their random numbers
    uint16_t fired[WORLD_MAX_PLAYERS + 1][DEMO_INFO_EVENTS];   // client events a player fired, by index

    hl_delta_set_t deltas;
    uint8_t has_baseline[HL_MAX_EDICTS];
    hl_ent_t baseline[HL_MAX_EDICTS];
    uint8_t baseline_custom[HL_MAX_EDICTS];
    hl_ent_t instanced[HL_MAX_INSTANCED];
    hl_packet_t packets[HL_UPDATE_BACKUP];
    hl_packet_t scratch;         // the packet being decoded (its source may share its ring slot)
    hl_cdframe_t cdframes[HL_UPDATE_BACKUP];
} hl_state_t;

// ---- dump helpers ------------------------------------------------------------

static void d_begin(hl_state_t *s, size_t off, const char *kind, const char *name)
{
    FILE *f = s->opts.dump;
    if (!f)
        return;
    s->dline = 1;
    if (s->opts.dump_json) {
        fprintf(f, "{\"offset\":%zu,\"kind\":\"%s\",\"type\":", off, kind);
        json_string(f, name);
    } else {
        fprintf(f, "%zu %s%s %s", off, strcmp(kind, "frame") ? "  " : "", kind, name);
    }
}

static void d_int(hl_state_t *s, const char *key, long long v)
{
    if (s->opts.dump)
        fprintf(s->opts.dump, s->opts.dump_json ? ",\"%s\":%lld" : " %s=%lld", key, v);
}

static void d_num(hl_state_t *s, const char *key, double v)
{
    FILE *f = s->opts.dump;
    if (!f)
        return;
    if (s->opts.dump_json) {
        fprintf(f, ",\"%s\":", key);
        json_number(f, v);
    } else {
        fprintf(f, " %s=%.6g", key, v);
    }
}

static void d_vec(hl_state_t *s, const char *key, const float *v)
{
    FILE *f = s->opts.dump;
    if (!f)
        return;
    if (s->opts.dump_json) {
        fprintf(f, ",\"%s\":[", key);
        for (int i = 0; i < 3; i++) {
            if (i)
                fputc(',', f);
            json_number(f, v[i]);
        }
        fputc(']', f);
    } else {
        fprintf(f, " %s=(%.6g %.6g %.6g)", key, v[0], v[1], v[2]);
    }
}

static void d_str(hl_state_t *s, const char *key, const char *v)
{
    FILE *f = s->opts.dump;
    if (!f)
        return;
    if (s->opts.dump_json) {
        fprintf(f, ",\"%s\":", key);
        json_string(f, v);
    } else {
        fprintf(f, " %s=\"", key);
        for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
            if (*p == '\n')
                fputs("\\n", f);
            else if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
                fprintf(f, "\\x%02x", *p);
            else
                fputc(*p, f);
        }
        fputc('"', f);
    }
}

static void d_end(hl_state_t *s)
{
    if (!s->dline)
        return;
    s->dline = 0;
    if (s->opts.dump)
        fputs(s->opts.dump_json ? "}\n" : "\n", s->opts.dump);
}

static hl_dump_t dump_of(const hl_state_t *s)
{
    hl_dump_t d = { s->opts.dump, s->opts.dump_json };
    return d;
}

// Bounded string copy (truncates; always terminated).
static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

// "maps/NAME.bsp" of the header's map name, truncated to fit.
static void map_path(char *dst, size_t cap, const char *name)
{
    char tmp[WORLD_NAME_LEN];
    copy_str(tmp, cap > 10 ? cap - 9 : 1, name);
    snprintf(dst, cap, "maps/%.*s.bsp", (int)(sizeof(tmp) - 10), tmp);
}

// ---- small readers ---------------------------------------------------------

static float rd_coord(msg_t *m) { return (float)msg_s16(m) * (1.0f / 8.0f); }

static void rd_vec(msg_t *m, float *v)
{
    for (int i = 0; i < 3; i++)
        v[i] = msg_f32(m);
}

// A finite float from the file; NaN and infinities become 0 so nothing downstream sees them.
static float fin(float f) { return isfinite(f) ? f : 0.0f; }

static int fail(hl_state_t *s, dec_error_t *err, size_t off, const char *what)
{
    dec_error_set(err, (long long)off, "%s", what);
    s->failed = 1;
    return -1;
}

// Bit coordinate of svc_sound: int and fraction flags, sign, 12-bit integer, 3-bit eighths.
static float rd_bitcoord(bitmsg_t *b)
{
    int intflag = (int)bitmsg_read(b, 1);
    int fracflag = (int)bitmsg_read(b, 1);
    if (!intflag && !fracflag)
        return 0;
    int neg = (int)bitmsg_read(b, 1);
    float v = 0;
    if (intflag)
        v += (float)bitmsg_read(b, 12);
    if (fracflag)
        v += (float)bitmsg_read(b, 3) / 8.0f;
    return neg ? -v : v;
}

// Start bit reading at the message's position; end advances the byte reader past it.
static void bits_begin(msg_t *m, bitmsg_t *b)
{
    bitmsg_init(b, m->data + m->pos, msg_left(m), msg_offset(m));
}

static void bits_end(msg_t *m, const bitmsg_t *b)
{
    m->pos += bitmsg_bytes_used(b);
    if (b->bad)
        m->bad = 1;
}

// ---- entity conversion --------------------------------------------------------

static void ent_to_world(const hl_state_t *s, const hl_ent_t *e, int custom, entity_state_t *st)
{
    const hl_delta_set_t *ds = &s->deltas;
    const int16_t *sl = ds->ent_slot;
    entity_state_clear(st);
    for (int i = 0; i < 3; i++) {
        st->origin[i] = fin(hl_slot_f(ds, HL_CLS_ENT, e->v, sl[HL_ES_ORIGIN0 + i]));
        st->angles[i] = fin(hl_slot_f(ds, HL_CLS_ENT, e->v, sl[HL_ES_ANGLES0 + i]));
    }
    st->modelindex = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_MODELINDEX]);
    st->frame = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_FRAME]);
    st->skin = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_SKIN]);
    st->body = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_BODY]);
    st->sequence = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_SEQUENCE]);
    st->animtime = fin(hl_slot_f(ds, HL_CLS_ENT, e->v, sl[HL_ES_ANIMTIME]));
    st->framerate = fin(hl_slot_f(ds, HL_CLS_ENT, e->v, sl[HL_ES_FRAMERATE]));
    st->rendermode = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_RENDERMODE]);
    st->renderamt = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_RENDERAMT]);
    st->rendercolor[0] = (float)hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_COLOR_R]);
    st->rendercolor[1] = (float)hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_COLOR_G]);
    st->rendercolor[2] = (float)hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_COLOR_B]);
    st->renderfx = (uint32_t)hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_RENDERFX]);
    st->scale = fin(hl_slot_f(ds, HL_CLS_ENT, e->v, sl[HL_ES_SCALE]));
    st->colormap = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_COLORMAP]);
    for (int i = 0; i < 4; i++)
        st->controller[i] = (uint8_t)hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_CONTROLLER0 + i]);
    for (int i = 0; i < 2; i++)
        st->blending[i] = (uint8_t)hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_BLENDING0 + i]);
    st->gaitsequence = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_GAITSEQUENCE]);
    st->weaponmodel = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_WEAPONMODEL]);
    st->usehull = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_USEHULL]) != 0;
    // the collision box and type (the physents of the clients' traces): a type outside SOLID_NOT ..
    // SOLID_BSP (3 bits can say 7) is kept as none, a box that is not finite or inside out as empty
    int32_t solid = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_SOLID]);
    st->solid_type = solid >= HL_SOLID_NOT && solid <= HL_SOLID_BSP ? (uint8_t)solid : HL_SOLID_NOT;
    st->owner = hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_OWNER]);
    int box_ok = 1;
    for (int i = 0; i < 3; i++) {
        st->box_mins[i] = fin(hl_slot_f(ds, HL_CLS_ENT, e->v, sl[HL_ES_MINS0 + i]));
        st->box_maxs[i] = fin(hl_slot_f(ds, HL_CLS_ENT, e->v, sl[HL_ES_MAXS0 + i]));
        box_ok &= st->box_mins[i] <= st->box_maxs[i];
    }
    if (!box_ok) {
        memset(st->box_mins, 0, sizeof st->box_mins);
        memset(st->box_maxs, 0, sizeof st->box_maxs);
    }
    uint32_t fx = (uint32_t)hl_slot_i(ds, HL_CLS_ENT, e->v, sl[HL_ES_EFFECTS]);
    st->raw_effects = fx;
    // GoldSrc EF_BRIGHTFIELD..EF_DIMLIGHT have Quake's values; EF_NODRAW is 128 there
    st->effects = (fx & 15u) | ((fx & 128u) ? EF_NODRAW : 0u);
    st->solid = custom;  // beams (custom entities) are marked so the renderer can tell them apart
    if (custom) {
        // CBeam (the SDK's effects.h) packs the beam's type (low 4 bits) and flags (high 4) into
        // rendermode: kept as sent, a byte; scale is the width (x 0.1 by the delta) and kept at 0
        st->rendermode &= 0xff;
        return;
    }
    if (st->rendermode < 0 || st->rendermode > RM_ADDITIVE)
        st->rendermode = RM_NORMAL;
    // a normal one is opaque: amount 255, except a dead player's body (kRenderFxDeadPlayer, 17), whose
    // amount is the number of the player it is drawn as (r_hl_dead_player)
    if (st->rendermode == RM_NORMAL && st->renderfx != 17)
        st->renderamt = 255;
    if (st->scale == 0.0f)
        st->scale = 1.0f;
}

// ---- messages ------------------------------------------------------------------

static int is_player(const hl_state_t *s, int num) { return num >= 1 && num <= s->maxclients; }

static int packet_entities(hl_state_t *s, world_t *w, msg_t *m, int delta, dec_error_t *err)
{
    bitmsg_t b;
    bits_begin(m, &b);
    size_t start = msg_offset(m);
    int announced = (int)bitmsg_read(&b, 16);
    int from_seq = -1;
    const hl_packet_t *from = NULL;
    if (delta) {
        from_seq = (int)bitmsg_read(&b, 8);
        from = &s->packets[from_seq & (HL_UPDATE_BACKUP - 1)];
        if (!from->valid)
            from = NULL;
    }
    d_int(s, "count", announced);
    if (delta)
        d_int(s, "delta_from", from_seq);
    d_end(s);
    hl_packet_t *to = &s->scratch;
    to->count = 0;
    to->valid = 1;
    int oldi = 0, oldn = from ? from->count : 0;
    int num = 0;
    hl_dump_t dump = dump_of(s);
    for (;;) {
        size_t peek = b.bitpos;
        uint32_t footer = bitmsg_read(&b, 16);
        if (b.bad)
            return fail(s, err, bitmsg_offset(&b), "expected the end marker of the packet entities, the message ends");
        if (footer == 0)
            break;
        b.bitpos = peek;
        size_t at = bitmsg_offset(&b);
        int remove = 0;
        if (!delta) {
            if (bitmsg_read(&b, 1)) {
                num++;
            } else if (bitmsg_read(&b, 1)) {
                num = (int)bitmsg_read(&b, 11);
            } else {
                num += (int)bitmsg_read(&b, 6);
            }
        } else {
            remove = (int)bitmsg_read(&b, 1);
            if (bitmsg_read(&b, 1))
                num = (int)bitmsg_read(&b, 11);
            else
                num += (int)bitmsg_read(&b, 6);
        }
        if (num < 0 || num >= HL_MAX_EDICTS) {
            dec_error_set(err, (long long)at, "expected an entity number below %d, found %d", HL_MAX_EDICTS, num);
            s->failed = 1;
            return -1;
        }
        // carry over the old entities this one skipped
        while (from && oldi < oldn && from->num[oldi] < num) {
            if (to->count >= HL_MAX_PACKET)
                return fail(s, err, at, "expected at most 256 entities in a packet");
            to->num[to->count] = from->num[oldi];
            to->custom[to->count] = from->custom[oldi];
            to->e[to->count++] = from->e[oldi];
            oldi++;
        }
        const hl_ent_t *src = NULL;
        if (from && oldi < oldn && from->num[oldi] == num) {
            src = &from->e[oldi];
            oldi++;
        }
        if (remove) {
            if (s->opts.dump) {
                d_begin(s, at, "ent", "remove");
                d_int(s, "num", num);
                d_end(s);
            }
            continue;
        }
        int custom = (int)bitmsg_read(&b, 1);
        int newbl = -1, offset = 0;
        if (s->instanced_count > 0 && bitmsg_read(&b, 1))
            newbl = (int)bitmsg_read(&b, 6);
        if (!delta && newbl < 0 && bitmsg_read(&b, 1))
            offset = (int)bitmsg_read(&b, 6);
        if (to->count >= HL_MAX_PACKET)
            return fail(s, err, at, "expected at most 256 entities in a packet");
        hl_ent_t *dst = &to->e[to->count];
        if (newbl >= 0) {
            if (newbl >= s->instanced_count) {
                dec_error_set(err, (long long)at, "expected an instanced baseline below %d, found %d",
                              s->instanced_count, newbl);
                s->failed = 1;
                return -1;
            }
            *dst = s->instanced[newbl];
        } else if (offset) {
            if (offset > to->count) {
                dec_error_set(err, (long long)at, "expected a baseline offset of at most %d, found %d", to->count,
                              offset);
                s->failed = 1;
                return -1;
            }
            *dst = to->e[to->count - offset];
        } else if (src) {
            *dst = *src;
        } else if (s->has_baseline[num]) {
            *dst = s->baseline[num];
        } else {
            memset(dst, 0, sizeof(*dst));
        }
        int di = is_player(s, num) ? s->deltas.d_player : custom ? s->deltas.d_custom : s->deltas.d_entity;
        if (s->opts.dump) {
            d_begin(s, at, "ent", is_player(s, num) ? "player" : custom ? "custom" : "entity");
            d_int(s, "num", num);
            if (newbl >= 0)
                d_int(s, "baseline", newbl);
            if (offset)
                d_int(s, "offset", offset);
        }
        int r = hl_delta_read(&s->deltas, di, &b, dst->v, HL_ENT_SLOTS, s->server_time, NULL, 0, &dump, err);
        d_end(s);
        if (r < 0) {
            s->failed = 1;
            return -1;
        }
        to->num[to->count] = (uint16_t)num;
        to->custom[to->count] = (uint8_t)custom;
        to->count++;
    }
    while (from && oldi < oldn) {
        if (to->count >= HL_MAX_PACKET)
            return fail(s, err, start, "expected at most 256 entities in a packet");
        to->num[to->count] = from->num[oldi];
        to->custom[to->count] = from->custom[oldi];
        to->e[to->count++] = from->e[oldi];
        oldi++;
    }
    bits_end(m, &b);
    int slot = s->incoming_seq & (HL_UPDATE_BACKUP - 1);
    // copy only what is used: a whole packet is 100 KB, a frame usually a few dozen entities
    hl_packet_t *dst = &s->packets[slot];
    dst->valid = 1;
    dst->count = to->count;
    memcpy(dst->num, to->num, sizeof(to->num[0]) * (size_t)to->count);
    memcpy(dst->custom, to->custom, sizeof(to->custom[0]) * (size_t)to->count);
    memcpy(dst->e, to->e, sizeof(to->e[0]) * (size_t)to->count);
    s->last_packet = slot;
    s->have_packet = 1;
    for (int i = 0; i < to->count; i++) {
        entity_state_t st;
        ent_to_world(s, &to->e[i], to->custom[i], &st);
        world_entity_update(w, to->num[i], &st);
    }
    return 0;
}

static int spawn_baseline(hl_state_t *s, world_t *w, msg_t *m, dec_error_t *err)
{
    bitmsg_t b;
    bits_begin(m, &b);
    d_end(s);
    hl_dump_t dump = dump_of(s);
    for (;;) {
        size_t at = bitmsg_offset(&b);
        int num = (int)bitmsg_read(&b, 11);
        if (b.bad)
            return fail(s, err, at, "expected an entity number in svc_spawnbaseline, the message ends");
        if (num == HL_MAX_EDICTS - 1)
            break;
        int type = (int)bitmsg_read(&b, 2);
        int custom = !(type & 1);
        int di = custom ? s->deltas.d_custom : is_player(s, num) ? s->deltas.d_player : s->deltas.d_entity;
        hl_ent_t e;
        memset(&e, 0, sizeof(e));
        d_begin(s, at, "ent", custom ? "baseline_custom" : "baseline");
        d_int(s, "num", num);
        int r = hl_delta_read(&s->deltas, di, &b, e.v, HL_ENT_SLOTS, s->server_time, NULL, 0, &dump, err);
        d_end(s);
        if (r < 0) {
            s->failed = 1;
            return -1;
        }
        s->baseline[num] = e;
        s->has_baseline[num] = 1;
        s->baseline_custom[num] = (uint8_t)custom;
        entity_state_t st;
        ent_to_world(s, &e, custom, &st);
        world_set_baseline(w, num, &st);
    }
    size_t at = bitmsg_offset(&b);
    uint32_t footer = bitmsg_read(&b, 5);
    if (footer != 31) {
        dec_error_set(err, (long long)at, "expected the svc_spawnbaseline footer 31, found %u", (unsigned)footer);
        s->failed = 1;
        return -1;
    }
    int n = (int)bitmsg_read(&b, 6);
    s->instanced_count = n;
    for (int i = 0; i < n; i++) {
        memset(&s->instanced[i], 0, sizeof(s->instanced[i]));
        d_begin(s, bitmsg_offset(&b), "ent", "instanced_baseline");
        d_int(s, "index", i);
        int r = hl_delta_read(&s->deltas, s->deltas.d_entity, &b, s->instanced[i].v, HL_ENT_SLOTS, s->server_time,
                              NULL, 0, &dump, err);
        d_end(s);
        if (r < 0) {
            s->failed = 1;
            return -1;
        }
    }
    if (b.bad)
        return fail(s, err, bitmsg_offset(&b), "expected a whole svc_spawnbaseline, the message ends");
    bits_end(m, &b);
    return 0;
}

static int client_data(hl_state_t *s, world_t *w, msg_t *m, dec_error_t *err)
{
    bitmsg_t b;
    bits_begin(m, &b);
    hl_dump_t dump = dump_of(s);
    const hl_cdframe_t *from = NULL;
    int from_seq = -1;
    if (bitmsg_read(&b, 1)) {
        from_seq = (int)bitmsg_read(&b, 8);
        from = &s->cdframes[from_seq & (HL_UPDATE_BACKUP - 1)];
        if (!from->valid)
            from = NULL;
        d_int(s, "delta_from", from_seq);
    }
    // decode straight into this frame's slot; copy only the weapons the old frame has
    hl_cdframe_t *to = &s->cdframes[s->incoming_seq & (HL_UPDATE_BACKUP - 1)];
    if (from != to) {
        if (from) {
            memcpy(to->cd, from->cd, sizeof(to->cd));
            to->wmask = from->wmask;
            for (int i = 0; i < HL_MAX_WEAPONS; i++)
                if (from->wmask >> i & 1)
                    memcpy(to->wd[i], from->wd[i], sizeof(to->wd[i]));
        } else {
            memset(to->cd, 0, sizeof(to->cd));
            to->wmask = 0;
        }
    }
    to->valid = 1;
    int r = hl_delta_read(&s->deltas, s->deltas.d_clientdata, &b, to->cd, HL_CD_SLOTS, s->server_time, NULL, 0,
                          &dump, err);
    d_end(s);
    if (r < 0) {
        s->failed = 1;
        return -1;
    }
    for (;;) {
        size_t at = bitmsg_offset(&b);
        if (!bitmsg_read(&b, 1))
            break;
        int idx = (int)bitmsg_read(&b, 6);
        if (!(to->wmask >> idx & 1)) {
            memset(to->wd[idx], 0, sizeof(to->wd[idx]));
            to->wmask |= 1ull << idx;
        }
        d_begin(s, at, "weapon", "weapon_data");
        d_int(s, "index", idx);
        r = hl_delta_read(&s->deltas, s->deltas.d_weapon, &b, to->wd[idx], HL_WD_SLOTS, s->server_time, NULL, 0, &dump,
                          err);
        d_end(s);
        if (r < 0) {
            s->failed = 1;
            return -1;
        }
    }
    if (b.bad)
        return fail(s, err, bitmsg_offset(&b), "expected a whole svc_clientdata, the message ends");
    bits_end(m, &b);
    const hl_delta_set_t *ds = &s->deltas;
    float fov = hl_slot_f(ds, HL_CLS_CD, to->cd, ds->cd_slot[HL_CD_FOV]);
    if (isfinite(fov) && fov > 0.0f && fov < 180.0f)
        w->view.fov = fov;
    for (int i = 0; i < 3; i++)
        w->view.velocity[i] = fin(hl_slot_f(ds, HL_CLS_CD, to->cd, ds->cd_slot[HL_CD_VELOCITY0 + i]));
    // The game's Health message is what its HUD shows; client data's health (511 in
    // Counter-Strike demos) only stands in until one came.
    w->view.stats[STAT_HEALTH] = s->health_msg >= 0 ? s->health_msg
                                                    : hl_slot_i(ds, HL_CLS_CD, to->cd, ds->cd_slot[HL_CD_HEALTH]);
    return 0;
}

// A client event's arguments from an event_t delta: the fields by name (what the description sent).
static float ev_field(const hl_state_t *s, const uint32_t *vals, const char *name)
{
    const hl_slots_t *t = &s->deltas.slots[HL_CLS_EV];
    for (int i = 0; i < t->count && i < HL_EV_SLOTS; i++)
        if (!strcmp(t->names[i], name))
            return hl_slot_f(&s->deltas, HL_CLS_EV, vals, i);
    return 0;
}

// an event's seed, never 0: its users step xorshift generators from it, which 0 would stall
static uint32_t ev_seed(uint32_t x)
{
    return world_hash32(x) | 1u;
}

// Hand a client event to the world (its sounds: goldsrc_events.c; its effects: r_hlfx.c);
// an event whose script the rules do not know is warned once a demo.
static void client_event(hl_state_t *s, world_t *w, int index, world_game_event_t *a)
{
    if (index <= 0 || index >= DEMO_INFO_EVENTS || !s->info.event_names[index][0])
        return;
    a->index = index;
    a->local = a->entity == w->playernum + 1 || a->entity == 0;
    if (a->entity == 0)
        a->entity = w->playernum + 1;
    a->seed = ev_seed(++s->event_count * 0x9e3779b9U ^ (uint32_t)index);
    // for the decals of its bullets (render/r_hldecal.c): kept in the level's log
    world_decal_t *dl = world_add_decal(w);
    dl->entity = a->entity;
    memcpy(dl->pos, a->origin, sizeof dl->pos);
    memcpy(dl->angles, a->angles, sizeof dl->angles);
    memcpy(dl->eye, w->view.origin, sizeof dl->eye);
    memcpy(dl->eye_angles, w->view.angles, sizeof dl->eye_angles);
    dl->eye_valid = w->view.origin_valid;
    dl->view_model = w->view.stats[STAT_WEAPON];
    dl->view_seq = w->view.stats[STAT_WEAPONFRAME];
    dl->view_body = w->view.weaponanim_body;
    dl->view_anim_time = w->view.weaponanim_time;
    memcpy(dl->fparam, a->fparam, sizeof dl->fparam);
    dl->args[0] = a->iparam[0];   // Counter-Strike's punch x 100 (render/r_hldecal.c)
    dl->args[1] = a->iparam[1];
    dl->args[2] = a->bparam[0];   // the gauss: primary fire / stop
    dl->args[3] = a->bparam[1];
    memcpy(dl->velocity, a->velocity, sizeof dl->velocity);
    dl->seed = a->seed;
    dl->local = a->local;
    dl->ducking = a->ducking;
    int who = a->entity > 0 && a->entity <= WORLD_MAX_PLAYERS ? a->entity : 0;
    dl->fired = s->fired[who][index]++;
    hl_event_short_name(s->info.event_names[index], dl->script, sizeof dl->script);
    if (!hl_event_emit(w, s->info.event_names[index], a) && !(s->event_warned[index / 8] & (1u << (index % 8)))) {
        s->event_warned[index / 8] |= (uint8_t)(1u << (index % 8));
        log_warn("goldsrc: client event %s (index %d) is not reproduced", s->info.event_names[index], index);
    }
}

static void ev_args_from_delta(const hl_state_t *s, const uint32_t *vals, world_game_event_t *a)
{
    static const char *const org[3] = {"origin[0]", "origin[1]", "origin[2]"};
    static const char *const ang[3] = {"angles[0]", "angles[1]", "angles[2]"};
    memset(a, 0, sizeof *a);
    a->entity = hl_f2i(ev_field(s, vals, "entindex"));
    for (int k = 0; k < 3; k++) {
        a->origin[k] = ev_field(s, vals, org[k]);
        a->angles[k] = ev_field(s, vals, ang[k]);
    }
    a->fparam[0] = ev_field(s, vals, "fparam1");
    a->fparam[1] = ev_field(s, vals, "fparam2");
    a->iparam[0] = hl_f2i(ev_field(s, vals, "iparam1"));
    a->iparam[1] = hl_f2i(ev_field(s, vals, "iparam2"));
    a->bparam[0] = ev_field(s, vals, "bparam1") != 0;
    a->bparam[1] = ev_field(s, vals, "bparam2") != 0;
    a->ducking = ev_field(s, vals, "ducking") != 0;
}

static int event_msg(hl_state_t *s, world_t *w, msg_t *m, int reliable, dec_error_t *err)
{
    bitmsg_t b;
    bits_begin(m, &b);
    hl_dump_t dump = dump_of(s);
    int count = reliable ? 1 : (int)bitmsg_read(&b, 5);
    if (!reliable)
        d_int(s, "count", count);
    if (!reliable)
        d_end(s);
    for (int i = 0; i < count; i++) {
        size_t at = bitmsg_offset(&b);
        uint32_t vals[HL_EV_SLOTS] = { 0 };
        int index = (int)bitmsg_read(&b, 10);
        if (index < DEMO_INFO_EVENTS)
            s->info.events[index]++;
        if (!reliable)
            d_begin(s, at, "event", "event");
        d_int(s, "index", index);
        int r = 0;
        if (reliable) {
            r = hl_delta_read(&s->deltas, s->deltas.d_event, &b, vals, HL_EV_SLOTS, s->server_time, NULL, 0, &dump,
                              err);
        } else if (bitmsg_read(&b, 1)) {
            d_int(s, "packet_index", (int)bitmsg_read(&b, 11));
            if (bitmsg_read(&b, 1))
                r = hl_delta_read(&s->deltas, s->deltas.d_event, &b, vals, HL_EV_SLOTS, s->server_time, NULL, 0,
                                  &dump, err);
        }
        if (r == 0 && bitmsg_read(&b, 1))
            d_num(s, "fire_time", (double)bitmsg_read(&b, 16) / 100.0);
        d_end(s);
        if (r < 0) {
            s->failed = 1;
            return -1;
        }
        if (!b.bad) {
            world_game_event_t a;
            ev_args_from_delta(s, vals, &a);
            client_event(s, w, index, &a);
        }
    }
    if (b.bad)
        return fail(s, err, bitmsg_offset(&b), "expected a whole svc_event, the message ends");
    bits_end(m, &b);
    return 0;
}

static int sound_msg(hl_state_t *s, world_t *w, msg_t *m, dec_error_t *err)
{
    bitmsg_t b;
    bits_begin(m, &b);
    int flags = (int)bitmsg_read(&b, 9);
    float vol = (flags & SND_VOLUME) ? (float)bitmsg_read(&b, 8) / 255.0f : 1.0f;
    float attn = (flags & SND_ATTENUATION) ? (float)bitmsg_read(&b, 8) / 64.0f : 0.8f;
    int channel = (int)bitmsg_read(&b, 3);
    int ent = (int)bitmsg_read(&b, 11);
    int index = (int)bitmsg_read(&b, (flags & SND_LONG_INDEX) ? 16 : 8);
    int hx = (int)bitmsg_read(&b, 1), hy = (int)bitmsg_read(&b, 1), hz = (int)bitmsg_read(&b, 1);
    vec3_t org = { 0, 0, 0 };
    if (hx)
        org[0] = rd_bitcoord(&b);
    if (hy)
        org[1] = rd_bitcoord(&b);
    if (hz)
        org[2] = rd_bitcoord(&b);
    int pitch = (flags & SND_PITCH) ? (int)bitmsg_read(&b, 8) : 100;
    if (b.bad)
        return fail(s, err, bitmsg_offset(&b), "expected a whole svc_sound, the message ends");
    bits_end(m, &b);
    d_int(s, "flags", flags);
    d_num(s, "volume", vol);
    d_num(s, "attenuation", attn);
    d_int(s, "channel", channel);
    d_int(s, "entity", ent);
    d_int(s, flags & SND_SENTENCE ? "sentence" : "sound", index);
    d_vec(s, "origin", org);
    d_int(s, "pitch", pitch);
    if (!(flags & SND_SENTENCE) && index > 0 && index < w->num_sounds)
        d_str(s, "name", w->sounds[index]);
    d_end(s);
    world_event_t *ev = world_add_event(w, (flags & SND_STOP) ? EV_STOPSOUND : EV_SOUND);
    if (ev) {
        world_sound_event_t *se = &ev->u.sound;
        se->entity = ent;
        se->channel = channel;
        // sentences are numbered in sentences.txt, not in the precache list
        se->sound = (flags & SND_SENTENCE) ? 0 : index;
        se->sentence = (flags & SND_SENTENCE) && index >= 0 && index < 65535 ? (uint16_t)(index + 1) : 0;
        se->volume = vol;
        se->attenuation = attn;
        se->pitch = (float)pitch / 100.0f;
        memcpy(se->origin, org, sizeof(org));
        se->has_origin = 1;
    }
    return 0;
}

static int resource_list(hl_state_t *s, world_t *w, msg_t *m, dec_error_t *err)
{
    bitmsg_t b;
    bits_begin(m, &b);
    int n = (int)bitmsg_read(&b, 12);
    d_int(s, "count", n);
    d_end(s);
    int models = 0, sounds = 0;
    for (int i = 0; i < n; i++) {
        size_t at = bitmsg_offset(&b);
        char name[WORLD_NAME_LEN];
        int type = (int)bitmsg_read(&b, 4);
        bitmsg_string(&b, name, sizeof(name));
        int index = (int)bitmsg_read(&b, 12);
        int size = (int)bitmsg_read(&b, 24);
        int flags = (int)bitmsg_read(&b, 3);
        if (flags & 4) {
            for (int k = 0; k < 4; k++)
                bitmsg_read(&b, 32);
        }
        if (bitmsg_read(&b, 1)) {
            for (int k = 0; k < 8; k++)
                bitmsg_read(&b, 32);
        }
        if (b.bad)
            return fail(s, err, at, "expected a whole resource in svc_resourcelist, the message ends");
        static const char *const tnames[8] = { "sound", "skin", "model", "decal", "generic", "eventscript",
                                               "world", "?" };
        d_begin(s, at, "resource", tnames[type < 7 ? type : 7]);
        d_str(s, "name", name);
        d_int(s, "index", index);
        d_int(s, "size", size);
        d_int(s, "flags", flags);
        d_end(s);
        if (type == 5 && index >= 0 && index < DEMO_INFO_EVENTS) {   // events/NAME.sc
            const char *base = strrchr(name, '/');
            base = base ? base + 1 : name;
            size_t len = strcspn(base, ".");
            if (len >= sizeof s->info.event_names[0])
                len = sizeof s->info.event_names[0] - 1;
            memcpy(s->info.event_names[index], base, len);
            s->info.event_names[index][len] = 0;
        }
        if (type == 2) {
            models++;
            world_set_model(w, index, name);
        } else if (type == 0) {
            sounds++;
            world_set_sound(w, index, name);
        } else if (type == 3 && world_set_decal(w, index, name) < 0) {
            log_warn("goldsrc: offset %zu: expected a decal resource index 0..%d, got %d (ignored)", at,
                     WORLD_MAX_DECALS - 1, index);
        }
    }
    // consistency list: files the client must check
    if (bitmsg_read(&b, 1)) {
        int guard = 0;
        // each entry: a 5-bit step from the previous resource index, or a 10-bit absolute one
        while (bitmsg_read(&b, 1) && !b.bad && guard++ < 4096)
            bitmsg_read(&b, bitmsg_read(&b, 1) ? 5 : 10);
    }
    if (b.bad)
        return fail(s, err, bitmsg_offset(&b), "expected a whole svc_resourcelist, the message ends");
    bits_end(m, &b);
    // svc_serverinfo started the level frames ago, without models: the names set here bump
    // w->models_seq, and the renderer loads them then (sounds load when first played)
    if (!s->levels_done) {
        s->info.models = models;
        s->info.sounds = sounds;
        s->levels_done = 1;
    }
    return 0;
}

// Temp entity layouts: c = coord (short / 8), s = short, b = byte, a = angle byte.
static const char *const te_formats[128] = {
    [0] = "ccccccsbbbbbbbbbb", [1] = "scccsbbbbbbbbbb", [2] = "ccc", [3] = "cccsbbb", [4] = "ccc",
    [5] = "cccsbb", [6] = "cccccc", [7] = "ccccccbbbs", [8] = "sssbbbbbbbbbb", [9] = "ccc", [10] = "ccc",
    [11] = "ccc", [12] = "cccbb", [14] = "cccbbb", [15] = "ccccccsbbbbb", [17] = "cccsbb",
    [18] = "ccccccss", [19] = "ccccccsbbbbbbbbbb", [20] = "ccccccsbbbbbbbbbb", [21] = "ccccccsbbbbbbbbbb",
    [22] = "ssbbbbbb", [23] = "cccsbbb", [24] = "sssbbbbbbbbbb", [25] = "ccccccbsss", [27] = "cccbbbbbb",
    [28] = "sccccbbbbc", [30] = "ccccccsbbb", [31] = "ccccccsbbb", [99] = "s", [100] = "cccss",
    [101] = "ccccccbb", [102] = "cccccc", [103] = "ccccccbb", [104] = "cccbs", [105] = "ssb",
    [106] = "ccccccasbb", [107] = "ccccssb", [108] = "cccccccccbsbbb", [109] = "cccsb", [110] = "ccccccsbbb",
    [111] = "cccb", [112] = "bcccsb", [113] = "cccccccsbc", [114] = "cccccccsbc", [115] = "cccssbb",
    [116] = "cccb", [117] = "cccb", [118] = "cccbs", [119] = "ccccccsbb", [120] = "ccccccsbbbb",
    [121] = "bsbb", [122] = "cccsbb", [123] = "cccssbbb", [124] = "bcss", [125] = "b",
    [126] = "ccccccccbb", [127] = "ccccccbbb",
};

// TE_* names (the Half-Life SDK's numbering), for info's counts
static const char *const te_names[DEMO_INFO_TEMPENTS] = {
    "beampoints", "beamentpoint", "gunshot", "explosion", "tarexplosion", "smoke", "tracer", "lightning",
    "beaments", "sparks", "lavasplash", "teleport", "explosion2", "bspdecal", "implosion", "spritetrail",
    "te16", "sprite", "beamsprite", "beamtorus", "beamdisk", "beamcylinder", "beamfollow", "glowsprite",
    "beamring", "streak_splash", "te26", "dlight", "elight", "textmessage", "line", "box",
    [99] = "killbeam", "largefunnel", "bloodstream", "showline", "blood", "decal", "fizz", "model",
    "explodemodel", "breakmodel", "gunshotdecal", "sprite_spray", "armor_ricochet", "playerdecal", "bubbles",
    "bubbletrail", "bloodsprite", "worlddecal", "worlddecalhigh", "decalhigh", "projectile", "spray",
    "playersprites", "particleburst", "firefield", "playerattachment", "killplayerattachments", "multigunshot",
    "usertracer",
};

static world_fx_t te_kind(int t)
{
    switch (t) {
    case 0: case 1: case 8: case 18: case 19: case 20: case 21: case 22: case 24: return FX_BEAM;
    case 2: case 109: case 126: return FX_GUNSHOT;
    case 3: return FX_EXPLOSION;
    case 4: return FX_TAREXPLOSION;
    case 5: return FX_SMOKE;
    case 7: return FX_LIGHTNING1;
    case 9: case 25: case 111: return FX_SPARKS;
    case 10: return FX_LAVASPLASH;
    case 11: return FX_TELEPORT;
    case 12: return FX_EXPLOSION2;
    case 17: case 23: return FX_SPRITE;
    case 30: case 31: case 102: return FX_LASER;
    case 101: case 103: case 115: return FX_BLOOD;
    default: return FX_GENERIC;
    }
}

static int temp_entity(hl_state_t *s, world_t *w, msg_t *m, dec_error_t *err)
{
    size_t at = msg_offset(m);
    int t = (int)msg_u8(m);
    s->info.tempents[t & (DEMO_INFO_TEMPENTS - 1)] += t < DEMO_INFO_TEMPENTS;
    float c[9] = { 0 };
    int iv[12] = { 0 };
    int nc = 0, ni = 0;
    d_int(s, "te", t);
    if (t == 29) {
        // TE_TEXTMESSAGE: channel, x, y, effect, two colours, fades, [fx time], text
        int channel = msg_s8(m);
        int x = msg_s16(m), y = msg_s16(m);
        int effect = msg_u8(m);
        msg_bytes(m, 8);
        int fadein = msg_s16(m), fadeout = msg_s16(m), hold = msg_s16(m);
        if (effect == 2)
            msg_s16(m);
        char text[512];
        msg_string(m, text, sizeof(text));
        if (m->bad)
            return fail(s, err, at, "expected a whole TE_TEXTMESSAGE, the message ends");
        d_int(s, "channel", channel);
        d_int(s, "x", x);
        d_int(s, "y", y);
        d_int(s, "effect", effect);
        d_int(s, "fadein", fadein);
        d_int(s, "fadeout", fadeout);
        d_int(s, "hold", hold);
        d_str(s, "text", text);
        d_end(s);
        world_add_text_event(w, EV_CENTERPRINT, text, 0);
        return 0;
    }
    const char *fmt = (t >= 0 && t < 128) ? te_formats[t] : NULL;
    if (t == 13) {
        fmt = "cccss";
    }
    if (!fmt) {
        dec_error_set(err, (long long)at, "expected a temp entity type (0..31, 99..127), found %d", t);
        s->failed = 1;
        return -1;
    }
    for (const char *p = fmt; *p; p++) {
        switch (*p) {
        case 'c': c[nc < 9 ? nc++ : 8] = rd_coord(m); break;
        case 's': iv[ni < 11 ? ni++ : 11] = msg_s16(m); break;
        case 'b': iv[ni < 11 ? ni++ : 11] = (int)msg_u8(m); break;
        case 'a': iv[ni < 11 ? ni++ : 11] = (int)msg_u8(m) * 360 / 256; break;
        }
    }
    if (t == 13 && iv[1] != 0)
        iv[ni++] = msg_s16(m);   // TE_BSPDECAL: model index only for a non-world entity
    if (m->bad)
        return fail(s, err, at, "expected a whole svc_temp_entity, the message ends");
    if (s->opts.dump) {
        if (nc >= 3)
            d_vec(s, "pos", c);
        if (nc >= 6)
            d_vec(s, "pos2", c + 3);
        if (nc >= 9)
            d_vec(s, "pos3", c + 6);
        for (int i = 0; i < ni; i++) {
            char key[16];
            snprintf(key, sizeof(key), "i%d", i);
            d_int(s, key, iv[i]);
        }
        d_end(s);
    }
    world_event_type_t et = (t == 27 || t == 28) ? EV_DLIGHT : (t == 122) ? EV_PARTICLES : EV_TEMPENT;
    world_event_t *ev = world_add_event(w, et);
    if (!ev)
        return 0;
    world_fx_event_t *fx = &ev->u.fx;
    fx->kind = te_kind(t);
    fx->raw_type = t;
    memcpy(fx->args, iv, sizeof fx->args);
    if (nc >= 9)
        memcpy(fx->pos3, c + 6, sizeof(vec3_t));
    // the fields the renderer needs, by layout: entity-first beams, then positions
    int first_short_is_ent = (t == 1 || t == 8 || t == 22 || t == 24 || t == 28 || t == 99 || t == 105);
    if (first_short_is_ent)
        fx->entity = iv[0];
    if (nc >= 3)
        memcpy(fx->origin, c, sizeof(vec3_t));
    if (nc >= 6 && t != 106 && t != 107 && t != 110 && t != 119 && t != 120 && t != 101 && t != 103 && t != 25 &&
        t != 126 && t != 127 && t != 108)
        memcpy(fx->end, c + 3, sizeof(vec3_t));
    else if (nc >= 6)
        memcpy(fx->dir, c + 3, sizeof(vec3_t));
    switch (t) {
    case 0: case 19: case 20: case 21: fx->model = iv[0]; fx->duration = (float)iv[3] / 10.0f; break;
    case 1: fx->model = iv[1]; fx->duration = (float)iv[4] / 10.0f; break;
    case 8: case 24: fx->model = iv[2]; fx->duration = (float)iv[5] / 10.0f; break;
    case 3: case 5: case 17: case 23: fx->model = iv[0]; break;
    case 12: fx->color = iv[0]; fx->count = iv[1]; break;
    case 27: fx->radius = (float)iv[0] * 10.0f; fx->color = iv[1] << 16 | iv[2] << 8 | iv[3];
        fx->duration = (float)iv[4] / 10.0f; break;
    case 28: fx->radius = c[3]; fx->color = iv[1] << 16 | iv[2] << 8 | iv[3]; fx->duration = (float)iv[4] / 10.0f;
        fx->pos3[0] = c[4];   // its decay coord, as sent (the engine divides it by the life)
        break;
    case 101: case 103: fx->color = iv[0]; fx->count = iv[1]; break;
    case 122: fx->color = iv[1]; fx->count = iv[0]; break;
    case 124: fx->pos3[2] = c[0]; break;   // TE_PLAYERATTACHMENT: one coord, the height over the player
    default: break;
    }
    if (t == 13 || t == 104 || t == 109 || t == 112 || t == 116 || t == 117 || t == 118) {
        // decals: into the level's log, with where the entity they name stands now
        world_decal_t *dl = world_add_decal(w);
        dl->te = t;
        memcpy(dl->pos, c, sizeof dl->pos);
        switch (t) {
        case 13: dl->decal = iv[0]; dl->entity = iv[1]; dl->model = iv[1] ? iv[2] : 0; break;
        case 104: dl->decal = iv[0]; dl->entity = iv[1]; break;
        case 118: dl->decal = iv[0] + 256; dl->entity = iv[1]; break;
        case 116: dl->decal = iv[0]; break;
        case 117: dl->decal = iv[0] + 256; break;
        case 109: dl->entity = iv[0]; dl->decal = iv[1]; break;
        default: dl->decal = iv[0]; dl->entity = iv[1]; break;   // 112: player, entity
        }
        if (dl->entity > 0 && dl->entity < w->num_entities)
            memcpy(dl->ent_origin, w->entities[dl->entity].cur.origin, sizeof dl->ent_origin);
    }
    uint32_t seed = ev_seed(++s->event_count * 0x85ebca6bU ^ (uint32_t)t);
    if (t == 106 || t == 107 || t == 108 || t == 119) {
        // temp models (shells, gibs, breakable chunks, TE_EXPLODEMODEL's shower, projectiles): they
        // fly and bounce for seconds, so the level's log keeps them for seeks (engine/hltent.c)
        world_decal_t *dl = world_add_decal(w);
        dl->te = t;
        memcpy(dl->pos, c, sizeof dl->pos);
        if (t == 107)
            dl->fparam[0] = c[3];   // TE_EXPLODEMODEL: one coord, the speed
        else
            memcpy(dl->velocity, t == 108 ? c + 6 : c + 3, sizeof dl->velocity);
        if (t == 108)
            memcpy(dl->size, c + 3, sizeof dl->size);
        for (int i = 0; i < 5; i++)
            dl->args[i] = iv[i];
        dl->model = iv[1];
        dl->seed = seed;
    }
    hl_tempent_sounds(w, t, c, iv, seed);
    return 0;
}

// A topcolor / bottomcolor value: its number (the engine's atoi; not a number: 0) bounded to 0..360 as
// the SDK's StudioDrawPlayer bounds it (the studio renderer reads it as a hue, 255 = 360 degrees)
static uint16_t userinfo_color(const char *val)
{
    long v = strtol(val, NULL, 10);
    return (uint16_t)(v < 0 ? 0 : v > 360 ? 360 : v);
}

static void set_player_info(hl_state_t *s, world_t *w, int slot, const char *info)
{
    (void)s;
    if (slot < 0 || slot >= WORLD_MAX_PLAYERS)
        return;
    world_player_t *p = &w->players[slot];
    memset(p, 0, sizeof(*p));
    p->entity = slot + 1;
    // "\key\value\key\value..."
    const char *q = info;
    while (*q == '\\') {
        char key[64] = "", val[WORLD_NAME_LEN] = "";
        size_t k = 0, v = 0;
        q++;
        while (*q && *q != '\\') {
            if (k + 1 < sizeof(key))
                key[k++] = *q;
            q++;
        }
        key[k] = 0;
        if (*q != '\\')
            break;
        q++;
        while (*q && *q != '\\') {
            if (v + 1 < sizeof(val))
                val[v++] = *q;
            q++;
        }
        val[v] = 0;
        if (!strcmp(key, "name"))
            snprintf(p->name, sizeof(p->name), "%s", val);
        else if (!strcmp(key, "model"))
            snprintf(p->skin, sizeof(p->skin), "%s", val);
        else if (!strcmp(key, "topcolor"))
            p->top_color = userinfo_color(val);
        else if (!strcmp(key, "bottomcolor"))
            p->bottom_color = userinfo_color(val);
    }
    p->active = p->name[0] != 0;
}

// User messages the world state can use: chat and HUD text.
static void user_message(hl_state_t *s, world_t *w, int type, const uint8_t *p, size_t len, size_t off)
{
    msg_t um;
    msg_init(&um, p, len, off);
    const char *name = s->umsg_name[type];
    char text[512];
    if (!strcmp(name, "SayText")) {
        int who = (int)msg_u8(&um);
        msg_string(&um, text, sizeof(text));
        if (!um.bad) {
            d_str(s, "text", text);
            world_add_text_event(w, EV_CHAT, text, who);
        }
    } else if (!strcmp(name, "TextMsg")) {
        int dest = (int)msg_u8(&um);
        msg_string(&um, text, sizeof(text));
        if (!um.bad) {
            d_str(s, "text", text);
            world_add_text_event(w, dest == 4 ? EV_CENTERPRINT : EV_PRINT, text, dest);
        }
    } else if (!strcmp(name, "Health") && len >= 1) {
        w->view.stats[STAT_HEALTH] = s->health_msg = (int)msg_u8(&um);
        d_int(s, "health", w->view.stats[STAT_HEALTH]);
    } else if (!strcmp(name, "Battery") && len >= 2) {
        w->view.stats[STAT_ARMOR] = msg_s16(&um);
        d_int(s, "armor", w->view.stats[STAT_ARMOR]);
    } else if (!strcmp(name, "CurWeapon") && len >= 3) {
        int active = (int)msg_u8(&um), id = msg_s8(&um), clip = msg_s8(&um);
        if (active) {
            w->view.stats[STAT_ACTIVEWEAPON] = id;
            w->view.stats[STAT_AMMO] = clip;
        }
        d_int(s, "active", active);
        d_int(s, "weapon", id);
        d_int(s, "clip", clip);
    } else if (!strcmp(name, "HudText")) {
        msg_string(&um, text, sizeof(text));
        if (!um.bad) {
            d_str(s, "text", text);
            world_add_text_event(w, EV_CENTERPRINT, text, 0);
        }
    }
}

static int server_info(hl_state_t *s, world_t *w, msg_t *m, dec_error_t *err)
{
    size_t at = msg_offset(m);
    int32_t protocol = msg_s32(m);
    int32_t spawncount = msg_s32(m);
    int32_t crc = msg_s32(m);
    msg_bytes(m, 16);
    int maxclients = (int)msg_u8(m);
    int playernum = (int)msg_u8(m);
    int dm = (int)msg_u8(m);
    char gamedir[WORLD_NAME_LEN], host[128], mapfile[WORLD_NAME_LEN], cycle[1024];
    msg_string(m, gamedir, sizeof(gamedir));
    msg_string(m, host, sizeof(host));
    msg_string(m, mapfile, sizeof(mapfile));
    msg_string(m, cycle, sizeof(cycle));
    msg_u8(m);
    if (m->bad)
        return fail(s, err, at, "expected a whole svc_serverinfo, the message ends");
    s->health_msg = -1;   // a new level: the game sends Health again
    d_int(s, "protocol", protocol);
    d_int(s, "spawncount", spawncount);
    d_int(s, "map_crc", crc);
    d_int(s, "maxclients", maxclients);
    d_int(s, "playernum", playernum);
    d_int(s, "deathmatch", dm);
    d_str(s, "gamedir", gamedir);
    d_str(s, "hostname", host);
    d_str(s, "map", mapfile);
    d_end(s);
    if (maxclients < 1 || maxclients > 32) {
        dec_error_set(err, (long long)at, "expected maxclients 1..32 in svc_serverinfo, found %d", maxclients);
        s->failed = 1;
        return -1;
    }
    world_new_level(w);
    w->protocol = protocol;
    w->maxclients = maxclients;
    w->playernum = playernum;
    w->deathmatch = dm;
    w->view.fov = 90;
    w->view.entity = playernum + 1;
    w->view.origin_valid = 1;
    map_path(w->map, sizeof(w->map), s->map_name);
    snprintf(w->level_name, sizeof(w->level_name), "%s", host);
    s->maxclients = maxclients;
    s->playernum = playernum;
    s->have_packet = 0;
    s->instanced_count = 0;
    memset(s->has_baseline, 0, sizeof(s->has_baseline));
    for (int i = 0; i < HL_UPDATE_BACKUP; i++) {
        s->packets[i].valid = 0;
        s->cdframes[i].valid = 0;
    }
    s->info.levels++;
    if (s->info.levels == 1) {
        s->info.maxclients = maxclients;
        snprintf(s->info.level_name, sizeof(s->info.level_name), "%s", host);
    }
    world_add_event(w, EV_LEVEL);
    return 0;
}

// One engine or user message. Returns 0, or -1 with err set.
static int parse_message(hl_state_t *s, world_t *w, msg_t *m, dec_error_t *err)
{
    size_t at = msg_offset(m);
    int type = (int)msg_u8(m);
    char str[2048];
    if (type >= 64) {
        int size = s->umsg_size[type];
        size_t len;
        if (size == -2 || size == -1)
            len = msg_u8(m);   // variable size (or not registered): a length byte first
        else
            len = (size_t)size;
        const uint8_t *p = msg_bytes(m, len);
        if (!p) {
            dec_error_set(err, (long long)at, "expected %zu bytes of user message %d (%s), the frame ends", len, type,
                          s->umsg_name[type][0] ? s->umsg_name[type] : "not registered");
            s->failed = 1;
            return -1;
        }
        if (s->opts.dump) {
            d_begin(s, at, "msg", s->umsg_name[type][0] ? s->umsg_name[type] : "usermsg");
            d_int(s, "id", type);
            d_int(s, "size", (long long)len);
        }
        user_message(s, w, type, p, len, msg_offset(m) - len);
        d_end(s);
        return 0;
    }
    if (type == SVC_BAD || type >= SVC_COUNT || type == SVC_DAMAGE) {
        dec_error_set(err, (long long)at, "expected an engine message 1..%d, found %d", SVC_COUNT - 1, type);
        s->failed = 1;
        return -1;
    }
    d_begin(s, at, "msg", svc_names[type]);
    switch (type) {
    case SVC_NOP:
    case SVC_KILLEDMONSTER:
    case SVC_FOUNDSECRET:
    case SVC_CHOKE:
        break;
    case SVC_INTERMISSION:
        w->view.intermission = 1;
        w->view.completed_time = w->time;
        break;
    case SVC_DISCONNECT:
    case SVC_PRINT:
    case SVC_STUFFTEXT:
    case SVC_CENTERPRINT:
    case SVC_FINALE:
    case SVC_CUTSCENE:
    case SVC_FILETXFERFAILED:
    case SVC_RESOURCELOCATION:
    case SVC_SENDCVARVALUE:
        msg_string(m, str, sizeof(str));
        if (m->bad)
            break;
        d_str(s, "text", str);
        if (type == SVC_PRINT)
            world_add_text_event(w, EV_PRINT, str, 0);
        else if (type == SVC_STUFFTEXT)
            world_add_text_event(w, EV_STUFFTEXT, str, 0);
        else if (type == SVC_CENTERPRINT)
            world_add_text_event(w, EV_CENTERPRINT, str, 0);
        else if (type == SVC_FINALE || type == SVC_CUTSCENE) {
            w->view.intermission = type == SVC_FINALE ? 2 : 3;
            w->view.completed_time = w->time;
            copy_str(w->view.finale_text, sizeof(w->view.finale_text), str);
        }
        break;
    case SVC_EVENT:
    case SVC_EVENT_RELIABLE:
        return event_msg(s, w, m, type == SVC_EVENT_RELIABLE, err) < 0 ? -1 : 0;
    case SVC_VERSION:
        d_int(s, "protocol", msg_s32(m));
        break;
    case SVC_SETVIEW: {
        int e = msg_s16(m);
        d_int(s, "entity", e);
        w->view.entity = e;
        break;
    }
    case SVC_SOUND:
        return sound_msg(s, w, m, err);
    case SVC_TIME: {
        float t = msg_f32(m);
        d_num(s, "time", t);
        if (isfinite(t))
            s->server_time = w->server_time = t;
        break;
    }
    case SVC_SETANGLE: {
        vec3_t a;
        for (int i = 0; i < 3; i++)
            a[i] = (float)msg_s16(m) * (360.0f / 65536.0f);
        d_vec(s, "angles", a);
        break;
    }
    case SVC_SERVERINFO:
        return server_info(s, w, m, err);
    case SVC_LIGHTSTYLE: {
        int i = (int)msg_u8(m);
        msg_string(m, str, sizeof(str));
        d_int(s, "index", i);
        d_str(s, "style", str);
        if (!m->bad && i < WORLD_MAX_LIGHTSTYLES)
            copy_str(w->lightstyles[i], WORLD_STYLE_LEN, str);
        break;
    }
    case SVC_UPDATEUSERINFO: {
        int slot = (int)msg_u8(m);
        int32_t uid = msg_s32(m);
        msg_string(m, str, sizeof(str));
        msg_bytes(m, 16);
        d_int(s, "slot", slot);
        d_int(s, "userid", uid);
        d_str(s, "info", str);
        if (!m->bad)
            set_player_info(s, w, slot, str);
        break;
    }
    case SVC_DELTADESCRIPTION: {
        char name[HL_FIELD_NAME];
        msg_string(m, name, sizeof(name));
        int n = (int)msg_u16(m);
        if (m->bad)
            break;
        d_str(s, "name", name);
        d_int(s, "fields", n);
        d_end(s);
        bitmsg_t b;
        bits_begin(m, &b);
        hl_dump_t dump = dump_of(s);
        if (hl_delta_parse_description(&s->deltas, &b, name, n, &dump, err) < 0) {
            s->failed = 1;
            return -1;
        }
        bits_end(m, &b);
        return 0;
    }
    case SVC_CLIENTDATA:
        return client_data(s, w, m, err);
    case SVC_STOPSOUND: {
        int v = msg_u16(m);
        d_int(s, "entity", v >> 3);
        d_int(s, "channel", v & 7);
        world_event_t *ev = world_add_event(w, EV_STOPSOUND);
        if (ev) {
            ev->u.sound.entity = v >> 3;
            ev->u.sound.channel = v & 7;
        }
        break;
    }
    case SVC_PINGS: {
        bitmsg_t b;
        bits_begin(m, &b);
        while (bitmsg_read(&b, 1) && !b.bad) {
            int slot = (int)bitmsg_read(&b, 5);
            int ping = (int)bitmsg_read(&b, 12);
            int loss = (int)bitmsg_read(&b, 7);
            if (slot < WORLD_MAX_PLAYERS)
                w->players[slot].ping = ping;
            if (s->opts.dump)
                fprintf(s->opts.dump, s->opts.dump_json ? ",\"p%d\":[%d,%d]" : " p%d=%d/%d", slot, ping, loss);
        }
        bits_end(m, &b);
        break;
    }
    case SVC_PARTICLE: {
        vec3_t org, dir;
        for (int i = 0; i < 3; i++)
            org[i] = rd_coord(m);
        for (int i = 0; i < 3; i++)
            dir[i] = (float)msg_s8(m) / 16.0f;
        int count = (int)msg_u8(m), color = (int)msg_u8(m);
        d_vec(s, "origin", org);
        d_int(s, "count", count);
        d_int(s, "color", color);
        world_event_t *ev = m->bad ? NULL : world_add_event(w, EV_PARTICLES);
        if (ev) {
            memcpy(ev->u.fx.origin, org, sizeof(org));
            memcpy(ev->u.fx.dir, dir, sizeof(dir));
            ev->u.fx.count = count == 255 ? 1024 : count;
            ev->u.fx.color = color;
        }
        break;
    }
    case SVC_SPAWNSTATIC: {
        entity_state_t st;
        entity_state_clear(&st);
        st.modelindex = msg_s16(m);
        st.sequence = msg_s8(m);
        st.frame = msg_s8(m);
        st.colormap = msg_s16(m);
        st.skin = msg_s8(m);
        for (int i = 0; i < 3; i++) {
            st.origin[i] = rd_coord(m);
            st.angles[i] = (float)msg_s8(m) * (360.0f / 256.0f);
        }
        st.rendermode = (int)msg_u8(m);
        st.renderamt = 255;
        st.scale = 1;
        if (st.rendermode) {
            st.renderamt = (int)msg_u8(m);
            for (int i = 0; i < 3; i++)
                st.rendercolor[i] = (float)msg_u8(m);
            st.renderfx = msg_u8(m);
        }
        if (st.rendermode > RM_ADDITIVE)
            st.rendermode = RM_NORMAL;
        d_int(s, "model", st.modelindex);
        d_int(s, "sequence", st.sequence);
        d_int(s, "frame", st.frame);
        d_int(s, "skin", st.skin);
        d_vec(s, "origin", st.origin);
        d_vec(s, "angles", st.angles);
        d_int(s, "rendermode", st.rendermode);
        if (!m->bad)
            world_add_static(w, &st);
        break;
    }
    case SVC_SPAWNBASELINE:
        return spawn_baseline(s, w, m, err);
    case SVC_TEMP_ENTITY:
        return temp_entity(s, w, m, err);
    case SVC_SETPAUSE:
        w->view.paused = (uint8_t)msg_u8(m);
        d_int(s, "paused", w->view.paused);
        break;
    case SVC_SIGNONNUM:
        d_int(s, "signon", msg_u8(m));
        break;
    case SVC_SPAWNSTATICSOUND: {
        world_static_sound_t ss;
        memset(&ss, 0, sizeof(ss));
        for (int i = 0; i < 3; i++)
            ss.origin[i] = rd_coord(m);
        ss.sound = (int)msg_u16(m);
        ss.volume = (float)msg_u8(m) / 255.0f;
        ss.attenuation = (float)msg_u8(m) / 64.0f;
        int ent = (int)msg_u16(m), pitch = (int)msg_u8(m), flags = (int)msg_u8(m);
        d_vec(s, "origin", ss.origin);
        d_int(s, "sound", ss.sound);
        d_num(s, "volume", ss.volume);
        d_num(s, "attenuation", ss.attenuation);
        d_int(s, "entity", ent);
        d_int(s, "pitch", pitch);
        d_int(s, "flags", flags);
        if (!m->bad)
            world_add_static_sound(w, &ss);
        break;
    }
    case SVC_CDTRACK: {
        int track = (int)msg_u8(m), loop = (int)msg_u8(m);
        d_int(s, "track", track);
        d_int(s, "loop", loop);
        w->view.cdtrack = track;
        break;
    }
    case SVC_RESTORE: {
        msg_string(m, str, sizeof(str));
        int n = (int)msg_u8(m);
        d_str(s, "save", str);
        d_int(s, "maps", n);
        for (int i = 0; i < n && !m->bad; i++)
            msg_string(m, str, sizeof(str));
        break;
    }
    case SVC_WEAPONANIM: {
        int seq = (int)msg_u8(m), body = (int)msg_u8(m);
        w->view.stats[STAT_WEAPONFRAME] = seq;   // GoldSrc: the view model's sequence
        w->view.weaponanim_time = w->time;
        w->view.weaponanim_body = body;
        d_int(s, "sequence", seq);
        d_int(s, "body", body);
        break;
    }
    case SVC_DECALNAME: {
        int i = (int)msg_u8(m);
        msg_string(m, str, sizeof(str));
        d_int(s, "index", i);
        d_str(s, "name", str);
        world_set_decal(w, i, str);   // a byte: always in range
        break;
    }
    case SVC_ROOMTYPE:
        d_int(s, "room", msg_u16(m));
        break;
    case SVC_ADDANGLE: {
        float a = (float)msg_s16(m) * (360.0f / 65536.0f);
        d_num(s, "yaw", a);
        break;
    }
    case SVC_NEWUSERMSG: {
        int idx = (int)msg_u8(m);
        int size = (int)msg_u8(m);
        const uint8_t *nm = msg_bytes(m, 16);
        if (!nm)
            break;
        char name[17];
        memcpy(name, nm, 16);
        name[16] = 0;
        for (int i = 0; i < 16; i++)
            if (name[i] && ((unsigned char)name[i] < 0x20 || (unsigned char)name[i] >= 0x7f))
                name[i] = '?';
        d_int(s, "index", idx);
        d_int(s, "size", size == 255 ? -1 : size);
        d_str(s, "name", name);
        if (idx < 64) {
            d_end(s);
            dec_error_set(err, (long long)at, "expected a user message number 64..255, found %d", idx);
            s->failed = 1;
            return -1;
        }
        s->umsg_size[idx] = size == 255 ? -1 : size;
        memcpy(s->umsg_name[idx], name, sizeof(name));
        break;
    }
    case SVC_PACKETENTITIES:
    case SVC_DELTAPACKETENTITIES:
        return packet_entities(s, w, m, type == SVC_DELTAPACKETENTITIES, err);
    case SVC_RESOURCELIST:
        return resource_list(s, w, m, err);
    case SVC_NEWMOVEVARS: {
        size_t mv_at = msg_offset(m);
        float mv[25];
        for (int i = 0; i < 25; i++)
            mv[i] = msg_f32(m);
        msg_string(m, str, sizeof(str));
        d_num(s, "gravity", mv[0]);
        if (isfinite(mv[0]) && mv[0] >= 0 && mv[0] <= 100000)   // sv_gravity: the temp models fall by it
            w->gravity = mv[0];
        else
            log_warn("goldsrc: offset %zu: expected svc_newmovevars' gravity 0..100000, got %g (ignored)", mv_at,
                     (double)mv[0]);
        d_num(s, "maxspeed", mv[2]);
        d_str(s, "skyname", str);
        break;
    }
    case SVC_RESOURCEREQUEST:
        d_int(s, "spawncount", msg_s32(m));
        msg_u32(m);
        break;
    case SVC_CUSTOMIZATION: {
        int pl = (int)msg_u8(m), t = (int)msg_u8(m);
        msg_string(m, str, sizeof(str));
        int idx = (int)msg_u16(m);
        uint32_t dl = msg_u32(m);
        int flags = (int)msg_u8(m);
        if (flags & 4)
            msg_bytes(m, 16);
        d_int(s, "player", pl);
        d_int(s, "restype", t);
        d_str(s, "name", str);
        d_int(s, "index", idx);
        d_int(s, "download_size", dl);
        d_int(s, "flags", flags);
        break;
    }
    case SVC_CROSSHAIRANGLE: {
        int p = msg_s8(m), y = msg_s8(m);
        d_num(s, "pitch", p / 5.0);
        d_num(s, "yaw", y / 5.0);
        break;
    }
    case SVC_SOUNDFADE: {
        const uint8_t *p = msg_bytes(m, 4);
        if (p) {
            d_int(s, "percent", p[0]);
            d_int(s, "hold", p[1]);
            d_int(s, "fadeout", p[2]);
            d_int(s, "fadein", p[3]);
        }
        break;
    }
    case SVC_HLTV:
        d_int(s, "mode", msg_u8(m));
        break;
    case SVC_DIRECTOR: {
        int len = (int)msg_u8(m);
        msg_bytes(m, (size_t)len);
        d_int(s, "length", len);
        break;
    }
    case SVC_VOICEINIT:
        msg_string(m, str, sizeof(str));
        d_str(s, "codec", str);
        d_int(s, "quality", msg_s8(m));
        break;
    case SVC_VOICEDATA: {
        int pl = (int)msg_u8(m);
        int len = (int)msg_u16(m);
        msg_bytes(m, (size_t)len);
        d_int(s, "player", pl);
        d_int(s, "length", len);
        break;
    }
    case SVC_SENDEXTRAINFO:
        msg_string(m, str, sizeof(str));
        d_str(s, "fallback_dir", str);
        d_int(s, "can_cheat", msg_u8(m));
        break;
    case SVC_TIMESCALE:
        d_num(s, "timescale", msg_f32(m));
        break;
    case SVC_SENDCVARVALUE2:
        d_int(s, "request", msg_u32(m));
        msg_string(m, str, sizeof(str));
        d_str(s, "name", str);
        break;
    default:
        break;
    }
    d_end(s);
    if (m->bad) {
        dec_error_set(err, (long long)at, "expected a whole %s, the frame's messages end", svc_names[type]);
        s->failed = 1;
        return -1;
    }
    return 0;
}

// ---- frames -----------------------------------------------------------------------

// Re-present the latest packet's entities in a server frame that carried none, so they stay visible.
static void repeat_packet(hl_state_t *s, world_t *w)
{
    if (!s->have_packet)
        return;
    const hl_packet_t *p = &s->packets[s->last_packet];
    for (int i = 0; i < p->count; i++) {
        if (w->entities[p->num[i]].seq + 1 == w->seq)
            world_entity_update(w, p->num[i], &w->entities[p->num[i]].cur);
    }
}

static int net_frame(hl_state_t *s, world_t *w, msg_t *m, size_t at, dec_error_t *err)
{
    msg_bytes(m, 4);   // timestamp (== the frame time)
    // ref params: floats and ints mixed; kept as raw words and converted by index
    uint32_t ref_raw[58];
    float ref[58];
    for (int i = 0; i < 58; i++) {
        ref_raw[i] = msg_u32(m);
        memcpy(&ref[i], &ref_raw[i], 4);
        ref[i] = fin(ref[i]);
    }
    msg_bytes(m, 52);  // user command
    msg_bytes(m, 132); // move vars
    vec3_t view;
    rd_vec(m, view);
    int32_t viewmodel = msg_s32(m);
    int32_t seq[7];
    for (int i = 0; i < 7; i++)
        seq[i] = msg_s32(m);
    size_t len_at = msg_offset(m);
    uint32_t len = msg_u32(m);
    if (m->bad)
        return fail(s, err, at, "expected a whole network-message frame header, the file ends");
    if (len > HL_MAX_NETMSG) {
        dec_error_set(err, (long long)len_at, "expected a message length of at most %d bytes, found %u",
                      HL_MAX_NETMSG, (unsigned)len);
        s->failed = 1;
        return -1;
    }
    const uint8_t *p = msg_bytes(m, len);
    if (!p) {
        dec_error_set(err, (long long)len_at, "expected %u bytes of messages, the file ends", (unsigned)len);
        s->failed = 1;
        return -1;
    }
    s->incoming_seq = seq[0];
    // ref params: vieworg 0..2, viewangles 3..5, intermission 17, paused 18, onground 20 and
    // waterlevel 21 (ints), simvel 22..24, health 35 (int), punchangle 40..42
    if (s->opts.dump) {
        d_vec(s, "vieworg", ref);
        d_vec(s, "viewangles", ref + 3);
        d_vec(s, "punch", ref + 40);
        d_int(s, "health", (int32_t)ref_raw[35]);
        d_int(s, "viewmodel", viewmodel);
        d_int(s, "seq_in", seq[0]);
        d_int(s, "seq_out", seq[4]);
        d_int(s, "length", len);
        d_end(s);
    }
    memcpy(w->view.origin, ref, sizeof(vec3_t));
    memcpy(w->view.angles, ref + 3, sizeof(vec3_t));
    memcpy(w->view.punch, ref + 40, sizeof(vec3_t));
    memcpy(w->view.velocity, ref + 22, sizeof(vec3_t));
    w->view.origin_valid = 1;
    w->view.onground = ref_raw[20] != 0;
    w->view.inwater = (int32_t)ref_raw[21] >= 2;
    w->view.paused = ref_raw[18] != 0;
    w->view.stats[STAT_WEAPON] = viewmodel;   // the view weapon's model index, as Quake's STAT_WEAPON
    if (ref_raw[17] != 0 && !w->view.intermission)
        w->view.intermission = 1;
    else if (ref_raw[17] == 0)
        w->view.intermission = 0;
    if (w->view.fov <= 0)
        w->view.fov = 90;
    msg_t mm;
    msg_init(&mm, p, len, msg_offset(m) - len);
    int had_packet = s->have_packet;
    uint32_t seq_before = w->seq;
    int got_packet = 0;
    while (msg_left(&mm) > 0) {
        uint8_t t = mm.data[mm.pos];
        if (t == SVC_PACKETENTITIES || t == SVC_DELTAPACKETENTITIES)
            got_packet = 1;
        if (parse_message(s, w, &mm, err) < 0)
            return -1;
    }
    (void)had_packet;
    (void)seq_before;
    if (!got_packet)
        repeat_packet(s, w);
    return 0;
}

// Read one frame at s->pos. Returns 1 = it was a network-message frame, 0 = other, 2 = end, -1 = error.
static int read_one(hl_state_t *s, world_t *w, int may_begin, dec_error_t *err)
{
    if (s->entry >= s->num_entries && s->dir_offset)
        return 2;
    if (s->pos >= s->frames_end) {
        if (!s->dir_offset)
            return 2;
        dec_error_set(err, (long long)s->pos, "expected a frame of directory entry %d (no next-section frame before the directory)",
                      s->entry);
        s->failed = 1;
        return -1;
    }
    msg_t m;
    msg_init(&m, s->data, s->frames_end, 0);
    m.pos = s->pos;
    size_t at = s->pos;
    int type = (int)msg_u8(&m);
    float time = msg_f32(&m);
    int32_t fnum = msg_s32(&m);
    if (m.bad)
        return fail(s, err, at, "expected a 9-byte frame header, the file ends");
    if (type > 9) {
        dec_error_set(err, (long long)at, "expected a frame type 0..9, found %d", type);
        s->failed = 1;
        return -1;
    }
    if (type <= 1 && !may_begin)
        return 1;   // the caller ends its server frame here
    if (!isfinite(time))
        time = 0;
    d_begin(s, at, "frame", frame_names[type]);
    // The loading segment's frames carry the server's clock (325 s into a round, say),
    // while playback starts near 0: they happen before playback, so at time 0.
    float file_time = time;
    if (s->dir_offset && s->entry != s->playback_entry)
        time = 0;
    d_num(s, "time", file_time);
    d_int(s, "frame", fnum);
    int r = 0;
    if (s->entry == s->playback_entry || !s->dir_offset) {
        if (!s->info.have_time) {
            s->info.start_time = time;
            s->info.have_time = 1;
        }
        s->info.end_time = time;
    }
    switch (type) {
    case 0:
    case 1:
        if (s->entry == s->playback_entry || !s->dir_offset)
            s->info.drawn_frames++;   // the loading segment's frames are sign-on, not drawn
        if (s->count_frames)
            s->info.frames = s->info.drawn_frames;   // the directory's count is not to be trusted
        world_begin_frame(w, time);
        if (net_frame(s, w, &m, at, err) < 0)
            return -1;
        r = 1;
        break;
    case 2:
        d_end(s);
        break;
    case 3: {
        const uint8_t *p = msg_bytes(&m, 64);
        char cmd[65] = "";
        if (p) {
            memcpy(cmd, p, 64);
            cmd[64] = 0;
        }
        d_str(s, "command", cmd);
        d_end(s);
        break;
    }
    case 4: {
        vec3_t org, ang;
        rd_vec(&m, org);
        rd_vec(&m, ang);
        uint32_t wbits = msg_u32(&m);
        float fov = msg_f32(&m);
        d_vec(s, "origin", org);
        d_vec(s, "angles", ang);
        d_int(s, "weapons", wbits);
        d_num(s, "fov", fov);
        d_end(s);
        if (isfinite(fov) && fov > 0 && fov < 180)
            w->view.fov = fov;
        w->view.items = wbits;   // the recording client's weapon bits; 31 = the suit (the HUD's test)
        break;
    }
    case 5:
        d_end(s);
        break;
    case 6: {
        int32_t flags = msg_s32(&m), index = msg_s32(&m);
        float delay = msg_f32(&m);
        // event_args_t: flags, entindex, origin, angles, velocity, ducking, fparam1/2, iparam1/2, bparam1/2
        world_game_event_t a;
        memset(&a, 0, sizeof a);
        a.flags = msg_s32(&m);
        a.entity = msg_s32(&m);
        for (int k = 0; k < 3; k++)
            a.origin[k] = msg_f32(&m);
        for (int k = 0; k < 3; k++)
            a.angles[k] = msg_f32(&m);
        for (int k = 0; k < 3; k++)
            a.velocity[k] = msg_f32(&m);
        a.ducking = msg_s32(&m) != 0;
        a.fparam[0] = msg_f32(&m);
        a.fparam[1] = msg_f32(&m);
        a.iparam[0] = msg_s32(&m);
        a.iparam[1] = msg_s32(&m);
        a.bparam[0] = msg_s32(&m) != 0;
        a.bparam[1] = msg_s32(&m) != 0;
        for (int k = 0; k < 3; k++)   // a damaged file's NaNs stay out of the world
            if (!isfinite(a.origin[k]) || !isfinite(a.angles[k]) || !isfinite(a.velocity[k]))
                a.origin[k] = a.angles[k] = a.velocity[k] = 0;
        if (!isfinite(a.fparam[0]))
            a.fparam[0] = 0;
        if (!isfinite(a.fparam[1]))
            a.fparam[1] = 0;
        d_int(s, "flags", flags);
        d_int(s, "index", index);
        d_num(s, "delay", delay);
        d_end(s);
        if (index >= 0 && index < DEMO_INFO_EVENTS)   // the recording client's own events
            s->info.events[index]++;
        if (!m.bad && index >= 0 && index < DEMO_INFO_EVENTS)
            client_event(s, w, index, &a);
        break;
    }
    case 7: {
        int32_t anim = msg_s32(&m), body = msg_s32(&m);
        w->view.stats[STAT_WEAPONFRAME] = anim;
        w->view.weaponanim_time = w->time;
        w->view.weaponanim_body = body;
        d_int(s, "anim", anim);
        d_int(s, "body", body);
        d_end(s);
        break;
    }
    case 8: {
        int32_t channel = msg_s32(&m);
        uint32_t n = msg_u32(&m);
        if (n > HL_MAX_SAMPLE) {
            d_end(s);
            dec_error_set(err, (long long)(at + 13), "expected a sound sample name of at most %d bytes, found %u",
                          HL_MAX_SAMPLE, (unsigned)n);
            s->failed = 1;
            return -1;
        }
        const uint8_t *p = msg_bytes(&m, n);
        char sample[WORLD_NAME_LEN] = "";
        if (p) {
            size_t k = n < sizeof(sample) - 1 ? n : sizeof(sample) - 1;
            memcpy(sample, p, k);
            sample[k] = 0;
        }
        float attn = msg_f32(&m), vol = msg_f32(&m);
        int32_t flags = msg_s32(&m), pitch = msg_s32(&m);
        d_int(s, "channel", channel);
        d_str(s, "sample", sample);
        d_num(s, "attenuation", attn);
        d_num(s, "volume", vol);
        d_int(s, "flags", flags);
        d_int(s, "pitch", pitch);
        d_end(s);
        if (!m.bad) {
            // a client-side sound: play it when the precache list has it
            for (int i = 1; i < w->num_sounds; i++) {
                if (!strcasecmp(w->sounds[i], sample)) {
                    world_event_t *ev = world_add_event(w, EV_SOUND);
                    if (ev) {
                        ev->u.sound.entity = w->playernum + 1;
                        ev->u.sound.channel = channel;
                        ev->u.sound.sound = i;
                        ev->u.sound.volume = fin(vol);
                        ev->u.sound.attenuation = fin(attn);
                        ev->u.sound.pitch = (float)pitch / 100.0f;
                    }
                    break;
                }
            }
        }
        break;
    }
    case 9: {
        uint32_t n = msg_u32(&m);
        if (n > HL_MAX_DEMOBUFFER) {
            d_end(s);
            dec_error_set(err, (long long)(at + 9), "expected a demo buffer of at most %d bytes, found %u",
                          HL_MAX_DEMOBUFFER, (unsigned)n);
            s->failed = 1;
            return -1;
        }
        msg_bytes(&m, n);
        d_int(s, "length", n);
        d_end(s);
        break;
    }
    }
    if (m.bad)
        return fail(s, err, at, "expected a whole frame, the file ends");
    s->pos = m.pos;
    if (type == 5 && s->dir_offset) {
        s->entry++;
        if (s->entry < s->num_entries)
            s->pos = s->entries[s->entry].offset;
    }
    return r;
}

// ---- decoder interface -------------------------------------------------------

static int hl_probe(const uint8_t *data, size_t size)
{
    if (size >= 8 && !memcmp(data, "HLDEMO\0", 7))
        return 100;
    // a damaged magic with the rest of the header intact: claim it weakly so the error names the magic
    if (size >= HL_HEADER_SIZE && data[0] == 'H' && data[1] == 'L' && data[6] == 0 && data[7] == 0 &&
        data[9] == 0 && data[10] == 0 && data[11] == 0 && data[8] <= 5 && data[12] >= 40 && data[12] <= 48 &&
        data[13] == 0 && data[14] == 0 && data[15] == 0)
        return 10;
    return 0;
}

static void read_fixed_string(const uint8_t *p, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    while (k < n && p[k] && k + 1 < cap) {
        out[k] = (char)p[k];
        k++;
    }
    out[k] = 0;
}

static int hl_open(void *state, const uint8_t *data, size_t size, world_t *w, const dec_opts_t *opts,
                   dec_error_t *err)
{
    hl_state_t *s = state;
    // the big arrays after these are only read where a flag or count says they were written
    memset(s, 0, offsetof(hl_state_t, baseline));
    for (int i = 0; i < HL_UPDATE_BACKUP; i++) {
        s->packets[i].valid = 0;
        s->packets[i].count = 0;
        s->cdframes[i].valid = 0;
    }
    s->scratch.count = 0;
    s->data = data;
    s->size = size;
    if (opts)
        s->opts = *opts;
    s->info.format = "goldsrc";
    s->info.tempent_names = te_names;
    s->info.num_tempent_types = DEMO_INFO_TEMPENTS;
    hl_delta_reset(&s->deltas);
    for (int i = 0; i < 256; i++)
        s->umsg_size[i] = -2;
    s->health_msg = -1;
    world_reset(w);
    w->game = GAME_GOLDSRC;
    w->player_eye_height = 28.0f;   // VEC_VIEW 28 standing; angles.x = -v_angle.x / 3
    w->player_pitch_scale = -3.0f;
    if (size < HL_HEADER_SIZE)
        return fail(s, err, size, "expected a 544-byte HLDEMO header, the file ends");
    if (memcmp(data, "HLDEMO\0", 7) != 0) {
        char found[9];
        for (int i = 0; i < 8; i++)
            found[i] = (data[i] >= 0x20 && data[i] < 0x7f) ? (char)data[i] : '.';
        found[8] = 0;
        dec_error_set(err, 0, "expected the magic \"HLDEMO\", found \"%s\"", found);
        s->failed = 1;
        return -1;
    }
    msg_t m;
    msg_init(&m, data, size, 0);
    m.pos = 8;
    s->demo_protocol = msg_s32(&m);
    s->net_protocol = msg_s32(&m);
    if (s->demo_protocol != 5) {
        dec_error_set(err, 8, "expected demo protocol 5, found %d", s->demo_protocol);
        s->failed = 1;
        return -1;
    }
    if (s->net_protocol < 43 || s->net_protocol > 48) {
        dec_error_set(err, 12, "expected network protocol 43..48, found %d", s->net_protocol);
        s->failed = 1;
        return -1;
    }
    read_fixed_string(data + 16, 260, s->map_name, sizeof(s->map_name));
    read_fixed_string(data + 276, 260, s->game_dir, sizeof(s->game_dir));
    m.pos = 536;
    int32_t crc = msg_s32(&m);
    s->dir_offset = msg_u32(&m);
    s->info.protocol = s->net_protocol;
    snprintf(s->info.map, sizeof(s->info.map), "%s", s->map_name);
    snprintf(s->info.game_dir, sizeof(s->info.game_dir), "%s", s->game_dir);
    map_path(w->map, sizeof(w->map), s->map_name);
    snprintf(w->game_dir, sizeof(w->game_dir), "%s", s->game_dir);
    w->protocol = s->net_protocol;
    w->view.fov = 90;
    w->view.origin_valid = 1;
    s->playback_entry = -1;
    if (s->opts.dump) {
        d_begin(s, 0, "header", "HLDEMO");
        d_int(s, "demo_protocol", s->demo_protocol);
        d_int(s, "net_protocol", s->net_protocol);
        d_str(s, "map", s->map_name);
        d_str(s, "game_dir", s->game_dir);
        d_int(s, "map_crc", crc);
        d_int(s, "directory_offset", s->dir_offset);
        d_end(s);
    }
    if (s->dir_offset == 0) {
        // the recording stopped without writing a directory: frames run to the end of the file
        s->frames_end = size;
        s->pos = HL_HEADER_SIZE;
        s->num_entries = 0;
        return 0;
    }
    if (s->dir_offset < HL_HEADER_SIZE || s->dir_offset > size - 4) {
        dec_error_set(err, 540, "expected a directory offset in %d..%zu, found %u", HL_HEADER_SIZE, size - 4,
                      (unsigned)s->dir_offset);
        s->failed = 1;
        return -1;
    }
    m.pos = s->dir_offset;
    uint32_t n = msg_u32(&m);
    if (n < 1 || n > HL_MAX_DIR) {
        dec_error_set(err, (long long)s->dir_offset, "expected 1..%d directory entries, found %u", HL_MAX_DIR,
                      (unsigned)n);
        s->failed = 1;
        return -1;
    }
    if ((size_t)n * HL_DIR_ENTRY_SIZE > size - s->dir_offset - 4) {
        dec_error_set(err, (long long)s->dir_offset, "expected %u directory entries of 92 bytes, the file ends",
                      (unsigned)n);
        s->failed = 1;
        return -1;
    }
    s->num_entries = (int32_t)n;
    s->frames_end = s->dir_offset;
    for (uint32_t i = 0; i < n; i++) {
        size_t at = m.pos;
        hl_dir_entry_t *e = &s->entries[i];
        e->type = msg_u32(&m);
        const uint8_t *d = msg_bytes(&m, 64);
        read_fixed_string(d, 64, e->description, sizeof(e->description));
        msg_u32(&m);   // flags
        int32_t cd = msg_s32(&m);
        e->track_time = msg_f32(&m);
        e->frames = msg_s32(&m);
        e->offset = msg_u32(&m);
        e->length = msg_u32(&m);
        if (e->offset < HL_HEADER_SIZE || e->offset >= s->dir_offset) {
            dec_error_set(err, (long long)at + 84, "expected directory entry %u's frames in %d..%u, found offset %u",
                          (unsigned)i, HL_HEADER_SIZE, (unsigned)s->dir_offset, (unsigned)e->offset);
            s->failed = 1;
            return -1;
        }
        if ((uint64_t)e->offset + e->length > s->dir_offset && !s->info.warning[0]) {
            // the frames are there, the directory's account of them is not: read them up to
            // the directory and count them as they come
            s->info.warning_offset = (long long)at + 88;
            snprintf(s->info.warning, sizeof s->info.warning,
                     "expected directory entry %u (%s) to end by the directory at %u, found %u bytes from %u; "
                     "its frames are read up to the directory and counted as read",
                     (unsigned)i, e->description, (unsigned)s->dir_offset, (unsigned)e->length, (unsigned)e->offset);
            s->count_frames = 1;
        }
        if (e->frames < 0 || e->frames > (int32_t)(size / HL_FRAME_HEADER)) {
            dec_error_set(err, (long long)at + 80, "expected a frame count of at most %zu, found %d",
                          size / HL_FRAME_HEADER, e->frames);
            s->failed = 1;
            return -1;
        }
        s->info.frames += e->frames;
        if (e->type == 1 || s->playback_entry < 0)
            s->playback_entry = (int32_t)i;
        if (s->opts.dump) {
            d_begin(s, at, "entry", e->description);
            d_int(s, "entry_type", e->type);
            d_int(s, "cdtrack", cd);
            d_num(s, "track_time", e->track_time);
            d_int(s, "frames", e->frames);
            d_int(s, "frames_offset", e->offset);
            d_int(s, "length", e->length);
            d_end(s);
        }
    }
    s->entry = 0;
    s->pos = s->entries[0].offset;
    return 0;
}

static int hl_read_frame(void *state, world_t *w, dec_error_t *err)
{
    hl_state_t *s = state;
    if (s->failed)
        return -1;
    int any = 0, began = 0;
    for (;;) {
        int r = read_one(s, w, !began, err);
        if (r < 0) {
            d_end(s);
            return -1;
        }
        if (r == 2)
            return any ? 1 : 0;
        any = 1;
        if (r == 1) {
            if (began)
                return 1;   // the next server frame starts here; it stays unread
            began = 1;
        }
    }
}

static size_t hl_offset(const void *state) { return ((const hl_state_t *)state)->pos; }
static const demo_info_t *hl_info(const void *state) { return &((const hl_state_t *)state)->info; }
static void hl_close(void *state) { (void)state; }

const decoder_t hl_decoder = {
    "goldsrc", GAME_GOLDSRC, sizeof(hl_state_t), hl_probe, hl_open, hl_read_frame, hl_offset, hl_info, hl_close,
};
