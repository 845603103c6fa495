// quake2.c -- Quake II .dm2 decoder: client, server-side and Relay (RLA) recordings, protocols 25..34
//
// A .dm2 file is a chain of blocks (int32 length + messages); in a client
// recording each block is one network packet as the client received it.
// Entities and the player state are delta-compressed against an earlier frame
// (frame.deltaframe) or the baselines, so the decoder keeps the last
// Q2_UPDATE_BACKUP frames and a ring of entity states, all inside q2_state_t
// (plain data: a memcpy of it is a seek snapshot).
// Layouts: ../shared/specs/quake2-dm2-format.txt section 3; docs/quake2.md says
// what the spec leaves open (protocol 25, relay, server-side recordings).
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/json.h"
#include "../engine/world_q2.h"
#include "decoder.h"
#include "msg.h"

#define Q2_MAX_EDICTS     1024
#define Q2_UPDATE_BACKUP  16          // frames a delta may refer back to
#define Q2_PARSE_ENTS     4096        // ring of entity states (power of two)
#define Q2_MAX_CS         2080
#define Q2_CS_LEN         64
#define Q2_MAX_STATS      32
#define Q2_NUMNORMALS     162

// configstring layout (the same from protocol 25 on, checked on the q2test demo)
enum {
    CS_NAME = 0, CS_CDTRACK = 1, CS_SKYAXIS = 3, CS_SKYROTATE = 4, CS_STATUSBAR = 5, CS_AIRACCEL = 29, CS_MAXCLIENTS = 30,
    CS_MODELS = 32, CS_SOUNDS = 288, CS_IMAGES = 544, CS_LIGHTS = 800, CS_ITEMS = 1056,
    CS_PLAYERSKINS = 1312, CS_GENERAL = 1568
};

// serverdata.isdemo
enum { REC_NETWORK = 0, REC_CLIENT = 1, REC_SERVER = 2, REC_RELAY = 0x80 };

// message ids of protocols 26..34; protocol 25 is mapped onto these
enum {
    SVC_BAD, SVC_MUZZLEFLASH, SVC_MUZZLEFLASH2, SVC_TEMP_ENTITY, SVC_LAYOUT, SVC_INVENTORY,
    SVC_NOP, SVC_DISCONNECT, SVC_RECONNECT, SVC_SOUND, SVC_PRINT, SVC_STUFFTEXT, SVC_SERVERDATA,
    SVC_CONFIGSTRING, SVC_SPAWNBASELINE, SVC_CENTERPRINT, SVC_DOWNLOAD, SVC_PLAYERINFO,
    SVC_PACKETENTITIES, SVC_DELTAPACKETENTITIES, SVC_FRAME, SVC_COUNT
};

static const char *const svc_names[SVC_COUNT] = {
    "bad", "muzzleflash", "muzzleflash2", "temp_entity", "layout", "inventory", "nop", "disconnect",
    "reconnect", "sound", "print", "stufftext", "serverdata", "configstring", "spawnbaseline",
    "centerprint", "download", "playerinfo", "packetentities", "deltapacketentities", "frame",
};

// Protocol 25 (3.00 test release): its own numbering, established from the
// bytes of q2test_demo1_p25.dm2 (docs/quake2.md). Only the ids that demo
// shows are mapped; any other id is reported as unknown rather than guessed.
static const int8_t p25_ids[32] = {
    [0] = SVC_BAD, [1] = -1, [2] = -1, [3] = -1, [4] = SVC_SOUND, [5] = -1, [6] = SVC_STUFFTEXT,
    [7] = SVC_SERVERDATA, [8] = SVC_CONFIGSTRING, [9] = SVC_SPAWNBASELINE, [10] = SVC_TEMP_ENTITY,
    [11] = -1, [12] = SVC_MUZZLEFLASH, [13] = -1, [14] = SVC_PLAYERINFO, [15] = -1,
    [16] = SVC_PACKETENTITIES, [17] = -1, [18] = SVC_FRAME, [19] = SVC_MUZZLEFLASH2, [20] = -1,
    [21] = -1, [22] = -1, [23] = -1, [24] = -1, [25] = -1, [26] = -1, [27] = -1, [28] = -1,
    [29] = -1, [30] = -1, [31] = -1,
};

// entity delta bits (U_*)
enum {
    U_ORIGIN1 = 1 << 0, U_ORIGIN2 = 1 << 1, U_ANGLE2 = 1 << 2, U_ANGLE3 = 1 << 3, U_FRAME8 = 1 << 4,
    U_EVENT = 1 << 5, U_REMOVE = 1 << 6, U_MOREBITS1 = 1 << 7, U_NUMBER16 = 1 << 8, U_ORIGIN3 = 1 << 9,
    U_ANGLE1 = 1 << 10, U_MODEL = 1 << 11, U_RENDERFX8 = 1 << 12, U_EFFECTS8 = 1 << 14,
    U_MOREBITS2 = 1 << 15, U_SKIN8 = 1 << 16, U_FRAME16 = 1 << 17, U_RENDERFX16 = 1 << 18,
    U_EFFECTS16 = 1 << 19, U_MODEL2 = 1 << 20, U_MODEL3 = 1 << 21, U_MODEL4 = 1 << 22,
    U_MOREBITS3 = 1 << 23, U_OLDORIGIN = 1 << 24, U_SKIN16 = 1 << 25, U_SOUND = 1 << 26,
    U_SOLID = 1 << 27
};

// player state delta bits (PS_*)
enum {
    PS_M_TYPE = 1 << 0, PS_M_ORIGIN = 1 << 1, PS_M_VELOCITY = 1 << 2, PS_M_TIME = 1 << 3,
    PS_M_FLAGS = 1 << 4, PS_M_GRAVITY = 1 << 5, PS_M_DELTA_ANGLES = 1 << 6, PS_VIEWOFFSET = 1 << 7,
    PS_VIEWANGLES = 1 << 8, PS_KICKANGLES = 1 << 9, PS_BLEND = 1 << 10, PS_FOV = 1 << 11,
    PS_WEAPONINDEX = 1 << 12, PS_WEAPONFRAME = 1 << 13, PS_RDFLAGS = 1 << 14
};

// Quake II effects (EF_*) and render flags (RF_*) the world mapping needs
enum {
    Q2EF_ROTATE = 1 << 0, Q2EF_GIB = 1 << 1, Q2EF_BLASTER = 1 << 3, Q2EF_ROCKET = 1 << 4,
    Q2EF_GRENADE = 1 << 5, Q2EF_HYPERBLASTER = 1 << 6, Q2EF_BFG = 1 << 7, Q2EF_QUAD = 1 << 15,
    Q2EF_PENT = 1 << 16, Q2EF_GREENGIB = 1 << 21, Q2EF_PLASMA = 1 << 24
};
enum { RF_TRANSLUCENT = 32 };
enum { PM_FREEZE = 4 };
enum { PMF_ON_GROUND = 4 };

typedef struct {
    int32_t pm_type;
    float origin[3], velocity[3];
    int32_t pm_time, pm_flags, gravity;
    float delta_angles[3];
    float viewoffset[3], viewangles[3], kick_angles[3], gunangles[3], gunoffset[3];
    int32_t gunindex, gunframe;
    float blend[4];
    float fov;
    int32_t rdflags;
    int32_t stats[Q2_MAX_STATS];
} q2_player_t;

typedef struct {
    int32_t valid;
    int32_t serverframe, deltaframe;
    uint32_t first_ent;               // index into the ring (counts up, masked on use)
    int32_t num_ents;
    q2_player_t ps;
} q2_frame_t;

// Relay: each client's player state is kept for clients 0..Q2_RELAY_CLIENTS-1, the player
// slots the world names (CS_PLAYERSKINS); a higher client number (Quake II's MAX_CLIENTS is
// 256) is read over and not kept. Each client's state of its last Q2_RELAY_KEEP frames is kept
// (a relay frame deltas from a recent one, as
// Relay's own writer would: no relay recording was at hand to see how far back they reach).
// A client whose state in the delta frame is not kept has no view of its own until a frame
// without a delta (its entity still places it).
#define Q2_RELAY_CLIENTS WORLD_MAX_PLAYERS
#define Q2_RELAY_KEEP 4

typedef struct {
    const uint8_t *data;              // the demo bytes (owned by the caller)
    size_t size;
    FILE *dump;
    int dump_json;

    size_t pos;                       // next unread byte: a block header or a message
    size_t block_start, block_end;
    int in_block, ended, failed;
    int seen_serverdata;

    int32_t protocol;
    int record;                       // serverdata.isdemo
    int server;                       // server-side recording: frames without player state
    int relay;                        // RLA: message ids may carry a uni-cast client
    int32_t playernum;
    int32_t view_client;              // relay: whose uni-cast player state is the view (-1 unknown)
    int unicast, unicast_client;      // of the message being parsed

    int pending;                      // 0, 1: frame read, playerinfo next, 2: packetentities next
    int32_t old_frame;                // index into frames[] of the delta reference, -1 none
    q2_frame_t cur;
    q2_frame_t frames[Q2_UPDATE_BACKUP];
    uint32_t parse_count;
    uint8_t has_baseline[Q2_MAX_EDICTS / 8];   // bit per entity: baselines[] holds its spawnbaseline
    int16_t inventory[256];
    // relay: the serverframe whose state client c's entry client_ps[k][c] holds (k = serverframe %
    // Q2_RELAY_KEEP); 0 none (a delta reference is above 0); cleared each level
    int32_t client_frame[Q2_RELAY_KEEP][Q2_RELAY_CLIENTS];

    demo_info_t info;
    int counts_done;

    // The big arrays last: q2_open clears only what comes before `cs`. Nothing
    // here is read before it is written: new_level empties every configstring
    // (first byte) and has_baseline; a frame reads only ring entries it or an
    // older frame of the level wrote.
    char cs[Q2_MAX_CS][Q2_CS_LEN];    // raw configstrings; long ones run on as in the game
    // Entity states are kept as the world's entity_state_t (raw effects in
    // raw_effects, effects/rendermode/renderamt derived), so a frame hands its
    // ring entries to the world as they are; the entity numbers sit beside.
    entity_state_t baselines[Q2_MAX_EDICTS];
    entity_state_t parse_ents[Q2_PARSE_ENTS];
    uint16_t parse_nums[Q2_PARSE_ENTS];
    // relay: client c's player state in frame client_frame[k][c], read only through it
    q2_player_t client_ps[Q2_RELAY_KEEP][Q2_RELAY_CLIENTS];
} q2_state_t;

static const float q2_normals[Q2_NUMNORMALS][3] = {
    // the vertex normals of id's anorms.h, as numbers
    {-0.525731,0,0.850651}, {-0.442863,0.238856,0.864188}, {-0.295242,0,0.955423}, {-0.309017,0.5,0.809017},
    {-0.16246,0.262866,0.951056}, {0,0,1}, {0,0.850651,0.525731}, {-0.147621,0.716567,0.681718},
    {0.147621,0.716567,0.681718}, {0,0.525731,0.850651}, {0.309017,0.5,0.809017}, {0.525731,0,0.850651},
    {0.295242,0,0.955423}, {0.442863,0.238856,0.864188}, {0.16246,0.262866,0.951056}, {-0.681718,0.147621,0.716567},
    {-0.809017,0.309017,0.5}, {-0.587785,0.425325,0.688191}, {-0.850651,0.525731,0}, {-0.864188,0.442863,0.238856},
    {-0.716567,0.681718,0.147621}, {-0.688191,0.587785,0.425325}, {-0.5,0.809017,0.309017}, {-0.238856,0.864188,0.442863},
    {-0.425325,0.688191,0.587785}, {-0.716567,0.681718,-0.147621}, {-0.5,0.809017,-0.309017}, {-0.525731,0.850651,0},
    {0,0.850651,-0.525731}, {-0.238856,0.864188,-0.442863}, {0,0.955423,-0.295242}, {-0.262866,0.951056,-0.16246},
    {0,1,0}, {0,0.955423,0.295242}, {-0.262866,0.951056,0.16246}, {0.238856,0.864188,0.442863},
    {0.262866,0.951056,0.16246}, {0.5,0.809017,0.309017}, {0.238856,0.864188,-0.442863}, {0.262866,0.951056,-0.16246},
    {0.5,0.809017,-0.309017}, {0.850651,0.525731,0}, {0.716567,0.681718,0.147621}, {0.716567,0.681718,-0.147621},
    {0.525731,0.850651,0}, {0.425325,0.688191,0.587785}, {0.864188,0.442863,0.238856}, {0.688191,0.587785,0.425325},
    {0.809017,0.309017,0.5}, {0.681718,0.147621,0.716567}, {0.587785,0.425325,0.688191}, {0.955423,0.295242,0},
    {1,0,0}, {0.951056,0.16246,0.262866}, {0.850651,-0.525731,0}, {0.955423,-0.295242,0},
    {0.864188,-0.442863,0.238856}, {0.951056,-0.16246,0.262866}, {0.809017,-0.309017,0.5}, {0.681718,-0.147621,0.716567},
    {0.850651,0,0.525731}, {0.864188,0.442863,-0.238856}, {0.809017,0.309017,-0.5}, {0.951056,0.16246,-0.262866},
    {0.525731,0,-0.850651}, {0.681718,0.147621,-0.716567}, {0.681718,-0.147621,-0.716567}, {0.850651,0,-0.525731},
    {0.809017,-0.309017,-0.5}, {0.864188,-0.442863,-0.238856}, {0.951056,-0.16246,-0.262866}, {0.147621,0.716567,-0.681718},
    {0.309017,0.5,-0.809017}, {0.425325,0.688191,-0.587785}, {0.442863,0.238856,-0.864188}, {0.587785,0.425325,-0.688191},
    {0.688191,0.587785,-0.425325}, {-0.147621,0.716567,-0.681718}, {-0.309017,0.5,-0.809017}, {0,0.525731,-0.850651},
    {-0.525731,0,-0.850651}, {-0.442863,0.238856,-0.864188}, {-0.295242,0,-0.955423}, {-0.16246,0.262866,-0.951056},
    {0,0,-1}, {0.295242,0,-0.955423}, {0.16246,0.262866,-0.951056}, {-0.442863,-0.238856,-0.864188},
    {-0.309017,-0.5,-0.809017}, {-0.16246,-0.262866,-0.951056}, {0,-0.850651,-0.525731}, {-0.147621,-0.716567,-0.681718},
    {0.147621,-0.716567,-0.681718}, {0,-0.525731,-0.850651}, {0.309017,-0.5,-0.809017}, {0.442863,-0.238856,-0.864188},
    {0.16246,-0.262866,-0.951056}, {0.238856,-0.864188,-0.442863}, {0.5,-0.809017,-0.309017}, {0.425325,-0.688191,-0.587785},
    {0.716567,-0.681718,-0.147621}, {0.688191,-0.587785,-0.425325}, {0.587785,-0.425325,-0.688191}, {0,-0.955423,-0.295242},
    {0,-1,0}, {0.262866,-0.951056,-0.16246}, {0,-0.850651,0.525731}, {0,-0.955423,0.295242},
    {0.238856,-0.864188,0.442863}, {0.262866,-0.951056,0.16246}, {0.5,-0.809017,0.309017}, {0.716567,-0.681718,0.147621},
    {0.525731,-0.850651,0}, {-0.238856,-0.864188,-0.442863}, {-0.5,-0.809017,-0.309017}, {-0.262866,-0.951056,-0.16246},
    {-0.850651,-0.525731,0}, {-0.716567,-0.681718,-0.147621}, {-0.716567,-0.681718,0.147621}, {-0.525731,-0.850651,0},
    {-0.5,-0.809017,0.309017}, {-0.238856,-0.864188,0.442863}, {-0.262866,-0.951056,0.16246}, {-0.864188,-0.442863,0.238856},
    {-0.809017,-0.309017,0.5}, {-0.688191,-0.587785,0.425325}, {-0.681718,-0.147621,0.716567}, {-0.442863,-0.238856,0.864188},
    {-0.587785,-0.425325,0.688191}, {-0.309017,-0.5,0.809017}, {-0.147621,-0.716567,0.681718}, {-0.425325,-0.688191,0.587785},
    {-0.16246,-0.262866,0.951056}, {0.442863,-0.238856,0.864188}, {0.16246,-0.262866,0.951056}, {0.309017,-0.5,0.809017},
    {0.147621,-0.716567,0.681718}, {0,-0.525731,0.850651}, {0.425325,-0.688191,0.587785}, {0.587785,-0.425325,0.688191},
    {0.688191,-0.587785,0.425325}, {-0.955423,0.295242,0}, {-0.951056,0.16246,0.262866}, {-1,0,0},
    {-0.850651,0,0.525731}, {-0.955423,-0.295242,0}, {-0.951056,-0.16246,0.262866}, {-0.864188,0.442863,-0.238856},
    {-0.951056,0.16246,-0.262866}, {-0.809017,0.309017,-0.5}, {-0.864188,-0.442863,-0.238856}, {-0.951056,-0.16246,-0.262866},
    {-0.809017,-0.309017,-0.5}, {-0.681718,0.147621,-0.716567}, {-0.681718,-0.147621,-0.716567}, {-0.850651,0,-0.525731},
    {-0.688191,0.587785,-0.425325}, {-0.587785,0.425325,-0.688191}, {-0.425325,0.688191,-0.587785}, {-0.425325,-0.688191,-0.587785},
    {-0.587785,-0.425325,-0.688191}, {-0.688191,-0.587785,-0.425325},
};

// ---- dump lines -------------------------------------------------------------

static void dump_begin(q2_state_t *st, size_t off, const char *what)
{
    if (st->dump_json)
        fprintf(st->dump, "{\"offset\":%zu,\"msg\":\"%s\"", off, what);
    else
        fprintf(st->dump, "%8zu %s", off, what);
}

static void dump_int(q2_state_t *st, const char *key, long long v)
{
    if (st->dump_json)
        fprintf(st->dump, ",\"%s\":%lld", key, v);
    else
        fprintf(st->dump, " %s=%lld", key, v);
}

static void dump_hex(q2_state_t *st, const char *key, unsigned long v)
{
    if (st->dump_json)
        fprintf(st->dump, ",\"%s\":%lu", key, v);
    else
        fprintf(st->dump, " %s=0x%lx", key, v);
}

static void dump_num(q2_state_t *st, const char *key, double v)
{
    if (st->dump_json) {
        fprintf(st->dump, ",\"%s\":", key);
        json_number(st->dump, v);
    } else {
        fprintf(st->dump, " %s=%g", key, v);
    }
}

static void dump_vec(q2_state_t *st, const char *key, const float *v, int n)
{
    if (st->dump_json) {
        fprintf(st->dump, ",\"%s\":[", key);
        for (int i = 0; i < n; i++) {
            if (i)
                fputc(',', st->dump);
            json_number(st->dump, v[i]);
        }
        fputc(']', st->dump);
    } else {
        fprintf(st->dump, " %s=(", key);
        for (int i = 0; i < n; i++)
            fprintf(st->dump, i ? " %g" : "%g", v[i]);
        fputc(')', st->dump);
    }
}

static void dump_str(q2_state_t *st, const char *key, const char *s)
{
    if (st->dump_json) {
        fprintf(st->dump, ",\"%s\":", key);
        json_string(st->dump, s);
        return;
    }
    // readable: one line per message, so control characters are escaped
    fprintf(st->dump, " %s=\"", key);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n')
            fputs("\\n", st->dump);
        else if (*p == '"' || *p == '\\')
            fprintf(st->dump, "\\%c", *p);
        else if (*p < 32 || *p >= 127)
            fprintf(st->dump, "\\x%02x", *p);
        else
            fputc(*p, st->dump);
    }
    fputc('"', st->dump);
}

static void dump_end(q2_state_t *st)
{
    fputs(st->dump_json ? "}\n" : "\n", st->dump);
}

// ---- helpers ----------------------------------------------------------------

static int fail(q2_state_t *st, dec_error_t *err, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(q2_state_t *st, dec_error_t *err, size_t off, const char *fmt, ...)
{
    char buf[sizeof(err->what)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    dec_error_set(err, (long long)off, "%s", buf);
    st->failed = 1;
    return -1;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static float read_coord(msg_t *m) { return (float)msg_s16(m) * 0.125f; }

static void read_pos(msg_t *m, float *v)
{
    for (int i = 0; i < 3; i++)
        v[i] = read_coord(m);
}

// A direction byte indexes the table of 162 normals; a bad index is an error.
static int read_dir(msg_t *m, float *v)
{
    uint32_t c = msg_u8(m);
    if (c >= Q2_NUMNORMALS)
        return -1;
    memcpy(v, q2_normals[c], sizeof(float) * 3);
    return 0;
}

static int svc_of(const q2_state_t *st, uint32_t raw)
{
    if (st->protocol == 25)
        return raw < 32 ? p25_ids[raw] : -1;
    return (raw >= 1 && raw < SVC_COUNT) ? (int)raw : -1;
}

// ---- a bounded reader for the hot parsers -------------------------------------

// Entity and player state deltas are read field by field through a reader
// local to the parser (a copy of the message position), which the compiler
// keeps in registers: through msg_t the position and the bad flag would be
// reloaded after every store into an entity. It reads exactly as msg.h does:
// a read past the end gives 0, marks the reader bad and leaves it at the end;
// a bad reader reads nothing more. rd_done hands the position back to the
// message. Everything taking a q2_rd_t is inlined into its parser.
#define Q2_INLINE static inline __attribute__((always_inline))

typedef struct {
    const uint8_t *p, *end;
    size_t bad;               // size_t, not int: stores into entity fields cannot alias it
} q2_rd_t;

Q2_INLINE q2_rd_t rd_begin(const msg_t *m)
{
    q2_rd_t r;
    r.end = m->data + m->size;
    r.p = (m->bad || m->pos > m->size) ? r.end : m->data + m->pos;
    r.bad = m->bad != 0;
    return r;
}

Q2_INLINE void rd_done(msg_t *m, const q2_rd_t *r)
{
    m->pos = (size_t)(r->p - m->data);
    if (r->bad)
        m->bad = 1;
}

Q2_INLINE size_t rd_offset(const msg_t *m, const q2_rd_t *r) { return m->base + (size_t)(r->p - m->data); }

// The next n (at most 8) bytes; past the end, n zero bytes.
Q2_INLINE const uint8_t *rd_take(q2_rd_t *r, size_t n)
{
    static const uint8_t zeros[8];
    if ((size_t)(r->end - r->p) < n) {
        r->p = r->end;
        r->bad = 1;
        return zeros;
    }
    const uint8_t *q = r->p;
    r->p += n;
    return q;
}

Q2_INLINE uint32_t rd_u8(q2_rd_t *r) { return rd_take(r, 1)[0]; }

Q2_INLINE uint32_t rd_u16(q2_rd_t *r)
{
    const uint8_t *q = rd_take(r, 2);
    return (uint32_t)q[0] | ((uint32_t)q[1] << 8);
}

Q2_INLINE uint32_t rd_u32(q2_rd_t *r)
{
    const uint8_t *q = rd_take(r, 4);
    return (uint32_t)q[0] | ((uint32_t)q[1] << 8) | ((uint32_t)q[2] << 16) | ((uint32_t)q[3] << 24);
}

Q2_INLINE int32_t rd_s8(q2_rd_t *r) { return (int8_t)rd_u8(r); }
Q2_INLINE int32_t rd_s16(q2_rd_t *r) { return (int16_t)rd_u16(r); }
Q2_INLINE float rd_coord(q2_rd_t *r) { return (float)rd_s16(r) * 0.125f; }
Q2_INLINE float rd_angle8(q2_rd_t *r) { return (float)rd_s8(r) * (360.0f / 256.0f); }
Q2_INLINE float rd_angle16(q2_rd_t *r) { return (float)rd_s16(r) * (360.0f / 65536.0f); }

Q2_INLINE void rd_pos(q2_rd_t *r, float *v)
{
    v[0] = rd_coord(r);
    v[1] = rd_coord(r);
    v[2] = rd_coord(r);
}

// ---- entities ---------------------------------------------------------------

// Protocol 25 entity header: a 16-bit word (number << 6 | six flag bits);
// flag 0x20 adds two flag bytes, flag 0x10 one more. Every field is read on
// its own (no 8+16 = 32-bit pairs as later). The bits are returned in the
// U_* form of later protocols so dumps and the rest read the same; *unknown is
// set for bits the q2test demo never shows (their layout is unknown).
enum { P25_RENDERFX16 = 1u << 28, P25_EFFECTS16 = 1u << 29, P25_SKIN32 = 1u << 30 };

// The header of an entity delta: its U_* bits and its number.
Q2_INLINE uint32_t entity_header(const q2_state_t *st, q2_rd_t *r, int *number, int *unknown)
{
    if (st->protocol == 25) {
        uint32_t w = rd_u16(r);
        uint32_t f0 = w & 63, f1 = 0, f2 = 0, f3 = 0;
        *number = (int)(w >> 6);
        if (f0 & 0x20) {
            f1 = rd_u8(r);
            f2 = rd_u8(r);
        }
        if (f0 & 0x10)
            f3 = rd_u8(r);
        *unknown = (f1 & 0x80) || (f2 & 0x38) || (f3 & 0xfe);
        return (f0 & 0x01 ? U_ORIGIN1 : 0) | (f0 & 0x02 ? U_ORIGIN2 : 0) | (f0 & 0x04 ? U_ORIGIN3 : 0) |
               (f0 & 0x08 ? U_FRAME8 : 0) | (f1 & 0x01 ? U_ANGLE1 : 0) | (f1 & 0x02 ? U_ANGLE2 : 0) |
               (f1 & 0x04 ? U_ANGLE3 : 0) | (f1 & 0x08 ? U_MODEL : 0) | (f1 & 0x10 ? U_RENDERFX8 : 0) |
               (f1 & 0x20 ? U_SKIN8 : 0) | (f1 & 0x40 ? U_EFFECTS8 : 0) | (f2 & 0x01 ? U_FRAME16 : 0) |
               (f2 & 0x02 ? P25_RENDERFX16 : 0) | (f2 & 0x04 ? P25_EFFECTS16 : 0) |
               (f2 & 0x40 ? U_OLDORIGIN : 0) | (f2 & 0x80 ? P25_SKIN32 : 0) | (f3 & 0x01 ? U_SOUND : 0);
    }
    *unknown = 0;
    uint32_t bits = rd_u8(r);
    if (bits & U_MOREBITS1)
        bits |= rd_u8(r) << 8;
    if (bits & U_MOREBITS2)
        bits |= rd_u8(r) << 16;
    if (bits & U_MOREBITS3)
        bits |= rd_u8(r) << 24;
    *number = (bits & U_NUMBER16) ? (int)rd_u16(r) : (int)rd_u8(r);
    return bits;
}

static uint32_t map_effects(uint32_t fx)
{
    uint32_t out = 0;
    if (fx & Q2EF_ROTATE)
        out |= EF_ROTATE;
    if (fx & (Q2EF_GIB | Q2EF_GREENGIB))
        out |= EF_GIB;
    if (fx & Q2EF_ROCKET)
        out |= EF_ROCKET;
    if (fx & Q2EF_GRENADE)
        out |= EF_GRENADE;
    if (fx & (Q2EF_BLASTER | Q2EF_HYPERBLASTER | Q2EF_PLASMA | Q2EF_QUAD | Q2EF_PENT))
        out |= EF_DIMLIGHT;
    if (fx & Q2EF_BFG)
        out |= EF_BRIGHTLIGHT;
    return out;
}

// The game's effect bits, and what the world makes of them.
static void set_effects(entity_state_t *s, uint32_t fx)
{
    s->raw_effects = fx;
    s->effects = map_effects(fx);
}

static void set_renderfx(entity_state_t *s, uint32_t rfx)
{
    s->renderfx = rfx;
    s->rendermode = RM_NORMAL;
    s->renderamt = 255;
    if (rfx & RF_TRANSLUCENT) {
        s->rendermode = RM_TEXTURE;
        s->renderamt = 77;            // the game draws translucent entities at alpha 0.3
    }
}

// The state of an entity nothing is known of (no baseline): what the world
// makes of an all-zero Quake II entity state (entity_state_clear).
static const entity_state_t q2_empty = { .renderamt = 255, .scale = 1.0f };

// `to` starts as `from` one frame on: old_origin is where it was, an event lasts one frame.
Q2_INLINE void entity_carry(entity_state_t *to, const entity_state_t *from)
{
    *to = *from;
    memcpy(to->old_origin, from->origin, sizeof(to->old_origin));
    to->event = 0;
}

// Origin and angles: the same bits and encodings in every protocol.
Q2_INLINE void entity_origin(q2_rd_t *r, entity_state_t *to, uint32_t bits)
{
    if (bits & U_ORIGIN1)
        to->origin[0] = rd_coord(r);
    if (bits & U_ORIGIN2)
        to->origin[1] = rd_coord(r);
    if (bits & U_ORIGIN3)
        to->origin[2] = rd_coord(r);
}

Q2_INLINE void entity_angles(q2_rd_t *r, entity_state_t *to, uint32_t bits)
{
    if (bits & U_ANGLE1)
        to->angles[0] = rd_angle8(r);
    if (bits & U_ANGLE2)
        to->angles[1] = rd_angle8(r);
    if (bits & U_ANGLE3)
        to->angles[2] = rd_angle8(r);
}

// The fields the bits announce, over what entity_carry left in `to`.
// skin: low byte skin/client, next byte vwep (as sent).
Q2_INLINE void entity_fields(const q2_state_t *st, q2_rd_t *r, entity_state_t *to, uint32_t bits)
{
    if (st->protocol == 25) {
        if (!bits)
            return;
        if (bits & U_MODEL)
            to->modelindex = (int32_t)rd_u8(r);
        if (bits & U_FRAME8)
            to->frame = (int32_t)rd_u8(r);
        if (bits & U_FRAME16)
            to->frame = (int32_t)rd_u16(r);
        if (bits & U_SKIN8)
            to->skin = (int32_t)rd_u8(r);
        if (bits & P25_SKIN32)
            to->skin = (int32_t)rd_u32(r);    // laser colours: four palette indices
        if (bits & (U_EFFECTS8 | P25_EFFECTS16)) {
            uint32_t fx = to->raw_effects;
            if (bits & U_EFFECTS8)
                fx = rd_u8(r);
            if (bits & P25_EFFECTS16)
                fx = rd_u16(r);
            set_effects(to, fx);
        }
        if (bits & (U_RENDERFX8 | P25_RENDERFX16)) {
            uint32_t rfx = to->renderfx;
            if (bits & U_RENDERFX8)
                rfx = rd_u8(r);
            if (bits & P25_RENDERFX16)
                rfx = rd_u16(r);
            set_renderfx(to, rfx);
        }
        entity_origin(r, to, bits);
        entity_angles(r, to, bits);
        if (bits & U_OLDORIGIN)
            rd_pos(r, to->old_origin);
        if (bits & U_SOUND)
            to->sound = (int32_t)rd_u8(r);
        return;
    }
    if (bits & (U_MODEL | U_MODEL2 | U_MODEL3 | U_MODEL4)) {
        if (bits & U_MODEL)
            to->modelindex = (int32_t)rd_u8(r);
        if (bits & U_MODEL2)
            to->modelindex2 = (int32_t)rd_u8(r);
        if (bits & U_MODEL3)
            to->modelindex3 = (int32_t)rd_u8(r);
        if (bits & U_MODEL4)
            to->modelindex4 = (int32_t)rd_u8(r);
    }
    if (bits & U_FRAME8)
        to->frame = (int32_t)rd_u8(r);
    if (bits & U_FRAME16)
        to->frame = (int32_t)rd_u16(r);
    if (bits & (U_SKIN8 | U_SKIN16 | U_EFFECTS8 | U_EFFECTS16 | U_RENDERFX8 | U_RENDERFX16)) {
        // 8 and 16 together: 32 bits
        switch (bits & (U_SKIN8 | U_SKIN16)) {
        case U_SKIN8 | U_SKIN16: to->skin = (int32_t)rd_u32(r); break;
        case U_SKIN8: to->skin = (int32_t)rd_u8(r); break;
        case U_SKIN16: to->skin = (int32_t)rd_u16(r); break;
        }
        switch (bits & (U_EFFECTS8 | U_EFFECTS16)) {
        case U_EFFECTS8 | U_EFFECTS16: set_effects(to, rd_u32(r)); break;
        case U_EFFECTS8: set_effects(to, rd_u8(r)); break;
        case U_EFFECTS16: set_effects(to, rd_u16(r)); break;
        }
        switch (bits & (U_RENDERFX8 | U_RENDERFX16)) {
        case U_RENDERFX8 | U_RENDERFX16: set_renderfx(to, rd_u32(r)); break;
        case U_RENDERFX8: set_renderfx(to, rd_u8(r)); break;
        case U_RENDERFX16: set_renderfx(to, rd_u16(r)); break;
        }
    }
    if (bits & (U_ORIGIN1 | U_ORIGIN2 | U_ORIGIN3)) {
        entity_origin(r, to, bits);
    }
    if (bits & (U_ANGLE1 | U_ANGLE2 | U_ANGLE3)) {
        entity_angles(r, to, bits);
    }
    if (bits & (U_OLDORIGIN | U_SOUND | U_EVENT | U_SOLID)) {
        if (bits & U_OLDORIGIN)
            rd_pos(r, to->old_origin);
        if (bits & U_SOUND)
            to->sound = (int32_t)rd_u8(r);
        if (bits & U_EVENT)
            to->event = (int32_t)rd_u8(r);
        if (bits & U_SOLID)
            to->solid = (int32_t)rd_u16(r);
    }
}

static void dump_entity(q2_state_t *st, size_t off, const char *what, const entity_state_t *e, int number,
                        uint32_t bits)
{
    dump_begin(st, off, what);
    dump_int(st, "number", number);
    dump_hex(st, "bits", bits);
    if (bits & U_REMOVE) {
        dump_int(st, "remove", 1);
        dump_end(st);
        return;
    }
    if (bits & U_MODEL)
        dump_int(st, "model", e->modelindex);
    if (bits & U_MODEL2)
        dump_int(st, "model2", e->modelindex2);
    if (bits & U_MODEL3)
        dump_int(st, "model3", e->modelindex3);
    if (bits & U_MODEL4)
        dump_int(st, "model4", e->modelindex4);
    if (bits & (U_FRAME8 | U_FRAME16))
        dump_int(st, "frame", e->frame);
    if (bits & (U_SKIN8 | U_SKIN16 | P25_SKIN32))
        dump_int(st, "skin", e->skin);
    if (bits & (U_EFFECTS8 | U_EFFECTS16 | P25_EFFECTS16))
        dump_hex(st, "effects", e->raw_effects);
    if (bits & (U_RENDERFX8 | U_RENDERFX16 | P25_RENDERFX16))
        dump_hex(st, "renderfx", e->renderfx);
    if (bits & (U_ORIGIN1 | U_ORIGIN2 | U_ORIGIN3))
        dump_vec(st, "origin", e->origin, 3);
    if (bits & (U_ANGLE1 | U_ANGLE2 | U_ANGLE3))
        dump_vec(st, "angles", e->angles, 3);
    if (bits & U_OLDORIGIN)
        dump_vec(st, "old_origin", e->old_origin, 3);
    if (bits & U_SOUND)
        dump_int(st, "sound", e->sound);
    if (bits & U_EVENT)
        dump_int(st, "event", e->event);
    if (bits & U_SOLID)
        dump_int(st, "solid", e->solid);
    dump_end(st);
}

static const entity_state_t *baseline_of(const q2_state_t *st, int number)
{
    return (st->has_baseline[number >> 3] >> (number & 7)) & 1 ? &st->baselines[number] : &q2_empty;
}

// ---- level and configstrings ------------------------------------------------

static void count_precache(q2_state_t *st)
{
    int models = 0, sounds = 0;
    for (int i = 1; i < 256; i++) {
        models += st->cs[CS_MODELS + i][0] != 0;
        sounds += st->cs[CS_SOUNDS + i][0] != 0;
    }
    st->info.models = models;
    st->info.sounds = sounds;
    st->counts_done = 1;
}

static void apply_configstring(q2_state_t *st, world_t *w, int index)
{
    const char *s = st->cs[index];
    int level1 = st->info.levels == 1;
    if (index == CS_NAME) {
        copy_str(w->level_name, sizeof(w->level_name), s);
        if (level1)
            copy_str(st->info.level_name, sizeof(st->info.level_name), s);
    } else if (index == CS_CDTRACK) {
        w->view.cdtrack = atoi(s);
    } else if (index == CS_SKYAXIS || index == CS_SKYROTATE) {
        // "x y z" and degrees a second; anything not a finite number counts as 0
        float v[3] = { 0, 0, 0 };
        int n = index == CS_SKYAXIS ? sscanf(s, "%f %f %f", &v[0], &v[1], &v[2]) : sscanf(s, "%f", &v[0]);
        for (int k = 0; k < 3; k++)
            if (k >= n || !isfinite(v[k]) || fabsf(v[k]) > 1e6f)
                v[k] = 0;
        if (index == CS_SKYAXIS)
            memcpy(w->sky_axis, v, sizeof v);
        else
            w->sky_rotate = v[0];
    } else if (index >= CS_STATUSBAR && index < CS_AIRACCEL) {
        // the status bar program runs on through the following configstrings
        const char *sb = st->cs[CS_STATUSBAR];
        size_t n = strnlen(sb, (size_t)(CS_AIRACCEL - CS_STATUSBAR) * Q2_CS_LEN);
        if (n >= sizeof(w->statusbar))
            n = sizeof(w->statusbar) - 1;
        memcpy(w->statusbar, sb, n);
        w->statusbar[n] = 0;
    } else if (index == CS_MAXCLIENTS) {
        w->maxclients = atoi(s);
        if (level1)
            st->info.maxclients = w->maxclients;
    } else if (index >= CS_MODELS && index < CS_SOUNDS) {
        world_set_model(w, index - CS_MODELS, s);
        if (index == CS_MODELS + 1) {
            copy_str(w->map, sizeof(w->map), s);
            if (level1 && !st->info.map[0])
                copy_str(st->info.map, sizeof(st->info.map), s);
        }
    } else if (index >= CS_SOUNDS && index < CS_IMAGES) {
        world_set_sound(w, index - CS_SOUNDS, s);
    } else if (index >= CS_IMAGES && index < CS_LIGHTS) {
        world_set_image(w, index - CS_IMAGES, s);
    } else if (index >= CS_LIGHTS && index < CS_ITEMS) {
        copy_str(w->lightstyles[index - CS_LIGHTS], WORLD_STYLE_LEN, s);
    } else if (index >= CS_ITEMS && index < CS_ITEMS + WORLD_MAX_ITEMS) {
        copy_str(w->item_names[index - CS_ITEMS], WORLD_NAME_LEN, s);
    } else if (index >= CS_PLAYERSKINS && index < CS_PLAYERSKINS + WORLD_MAX_PLAYERS) {
        // "name\model/skin"
        world_player_t *p = &w->players[index - CS_PLAYERSKINS];
        copy_str(p->skin, sizeof(p->skin), s);
        const char *bs = strchr(s, '\\');
        size_t n = bs ? (size_t)(bs - s) : strlen(s);
        if (n >= sizeof(p->name))
            n = sizeof(p->name) - 1;
        memcpy(p->name, s, n);
        p->name[n] = 0;
        p->active = s[0] != 0;
        p->entity = s[0] ? index - CS_PLAYERSKINS + 1 : -1;
    } else if (index >= CS_GENERAL && index < CS_GENERAL + WORLD_MAX_GENERAL) {
        world_set_general(w, index - CS_GENERAL, s);
    }
}

static void new_level(q2_state_t *st, world_t *w)
{
    world_new_level(w);
    memset(w->players, 0, sizeof(w->players));
    for (int i = 0; i < Q2_MAX_CS; i++)
        st->cs[i][0] = 0;             // what follows a string's NUL is never read
    memset(st->has_baseline, 0, sizeof(st->has_baseline));
    memset(st->frames, 0, sizeof(st->frames));
    memset(&st->cur, 0, sizeof(st->cur));
    memset(st->inventory, 0, sizeof(st->inventory));
    memset(st->client_frame, 0, sizeof(st->client_frame));
    st->pending = 0;
    st->old_frame = -1;
    st->view_client = -1;
}

// ---- messages ---------------------------------------------------------------

// Each parser reads its message from m (the block), applies it to the world
// when `apply` (relay: uni-cast to another client is read but not applied) and
// dumps it. Returns 0, or -1 with err set; running past the block end is
// checked once by the caller through m->bad.

static int parse_serverdata(q2_state_t *st, world_t *w, msg_t *m, size_t off, dec_error_t *err)
{
    int32_t protocol = msg_s32(m);
    if (m->bad)
        return 0;
    if (protocol < 25 || protocol > 34)
        return fail(st, err, off + 1, "expected Quake II protocol 25..34 in serverdata, found %d", protocol);
    if (st->seen_serverdata && protocol != st->protocol)
        return fail(st, err, off + 1, "expected protocol %d again in the next level's serverdata, found %d",
                    st->protocol, protocol);
    int32_t key = msg_s32(m);
    int isdemo = (int)msg_u8(m);
    char game[WORLD_NAME_LEN], name[WORLD_NAME_LEN * 2];
    msg_string(m, game, sizeof(game));
    int32_t playernum = msg_s16(m);
    msg_string(m, name, sizeof(name));
    if (m->bad)
        return 0;

    st->protocol = protocol;
    st->record = isdemo;
    st->relay = isdemo == REC_RELAY;
    // 3.17+ marks server-side recordings with isdemo 2; 3.15 wrote 1 and no player (-1)
    st->server = isdemo == REC_SERVER || (protocol <= 32 && isdemo == REC_CLIENT && playernum == -1);
    st->playernum = playernum;
    st->seen_serverdata = 1;
    new_level(st, w);
    w->game = GAME_QUAKE2;
    w->player_eye_height = 22.0f;   // viewheight 22; ClientEndServerFrame: s.angles[PITCH] = v_angle[PITCH] / 3
    w->player_pitch_scale = 3.0f;
    w->protocol = protocol;
    copy_str(w->game_dir, sizeof(w->game_dir), game);
    copy_str(w->level_name, sizeof(w->level_name), name);
    w->playernum = playernum >= 0 ? playernum : 0;
    w->view.entity = playernum >= 0 ? playernum + 1 : -1;
    st->info.levels++;
    if (st->info.levels == 1) {
        st->info.protocol = protocol;
        copy_str(st->info.game_dir, sizeof(st->info.game_dir), game);
        copy_str(st->info.level_name, sizeof(st->info.level_name), name);
    }
    world_add_event(w, EV_LEVEL);
    if (st->dump) {
        dump_begin(st, off, "serverdata");
        dump_int(st, "protocol", protocol);
        dump_int(st, "key", key);
        dump_int(st, "isdemo", isdemo);
        dump_str(st, "game", game);
        dump_int(st, "playernum", playernum);
        dump_str(st, "levelname", name);
        dump_str(st, "kind", st->relay ? "relay" : st->server ? "server" : "client");
        dump_end(st);
    }
    return 0;
}

static int parse_configstring(q2_state_t *st, world_t *w, msg_t *m, size_t off, dec_error_t *err)
{
    int index = msg_s16(m);
    char s[2048];
    size_t len = msg_string(m, s, sizeof(s));
    if (m->bad)
        return 0;
    if (index < 0 || index >= Q2_MAX_CS)
        return fail(st, err, off + 1, "expected a configstring index 0..%d, found %d", Q2_MAX_CS - 1, index);
    // as in the game, a long string (the status bar) runs on into the next slots
    size_t room = (size_t)(Q2_MAX_CS - index) * Q2_CS_LEN;
    size_t n = len < sizeof(s) - 1 ? len : sizeof(s) - 1;
    if (n >= room)
        n = room - 1;
    char *dst = st->cs[index];
    memcpy(dst, s, n);
    dst[n] = 0;
    apply_configstring(st, w, index);
    if (st->dump) {
        dump_begin(st, off, "configstring");
        dump_int(st, "index", index);
        dump_str(st, "string", s);
        dump_end(st);
    }
    return 0;
}

static int parse_spawnbaseline(q2_state_t *st, world_t *w, msg_t *m, size_t off, dec_error_t *err)
{
    int number, unknown;
    q2_rd_t r = rd_begin(m);
    uint32_t bits = entity_header(st, &r, &number, &unknown);
    rd_done(m, &r);
    if (m->bad)
        return 0;
    if (unknown)
        return fail(st, err, off + 1, "expected entity bits known for protocol 25 (baseline %d)", number);
    if (number <= 0 || number >= Q2_MAX_EDICTS)
        return fail(st, err, off + 1, "expected a baseline entity number 1..%d, found %d", Q2_MAX_EDICTS - 1,
                    number);
    entity_state_t *b = &st->baselines[number];
    st->has_baseline[number >> 3] |= (uint8_t)(1u << (number & 7));
    entity_carry(b, &q2_empty);
    entity_fields(st, &r, b, bits);
    rd_done(m, &r);
    if (m->bad)
        return 0;
    world_set_baseline(w, number, b);
    if (st->dump)
        dump_entity(st, off, "spawnbaseline", b, number, bits);
    return 0;
}

static int parse_frame(q2_state_t *st, world_t *w, msg_t *m, size_t off, dec_error_t *err)
{
    q2_frame_t *f = &st->cur;
    f->valid = 0;
    f->first_ent = 0;
    f->num_ents = 0;                   // f->ps: below, once the delta reference is known
    const uint8_t *areabits = NULL, *connected = NULL;   // into the demo bytes
    int areabytes = 0, suppress = -1, nconnected = -1;
    if (st->server) {
        f->serverframe = msg_s32(m);
        f->deltaframe = -1;
    } else {
        f->serverframe = msg_s32(m);
        f->deltaframe = st->protocol == 25 ? -1 : msg_s32(m);
        if (st->protocol > 26)
            suppress = (int)msg_u8(m);
        areabytes = (int)msg_u8(m);
        areabits = msg_bytes(m, (size_t)areabytes);
        if (st->relay) {
            nconnected = (int)msg_u8(m);
            connected = msg_bytes(m, (size_t)nconnected);
        }
    }
    if (m->bad)
        return 0;
    if (areabytes > 32)
        return fail(st, err, off + 1, "expected at most 32 bytes of area bits in frame, found %d", areabytes);

    st->old_frame = -1;
    if (f->deltaframe > 0) {
        int i = f->deltaframe & (Q2_UPDATE_BACKUP - 1);
        const q2_frame_t *old = &st->frames[i];
        if (!old->valid || old->serverframe != f->deltaframe)
            return fail(st, err, off + 1,
                        "expected frame %d to delta from one of the last %d frames, found %d (not received)",
                        f->serverframe, Q2_UPDATE_BACKUP, f->deltaframe);
        if (st->parse_count - old->first_ent > Q2_PARSE_ENTS - Q2_MAX_EDICTS)
            return fail(st, err, off + 1, "expected frame %d to delta from a recent frame, %d is too old",
                        f->serverframe, f->deltaframe);
        st->old_frame = i;
        f->ps = old->ps;               // the player state deltas from the old one
    } else {
        memset(&f->ps, 0, sizeof(f->ps));
    }
    if (st->relay && nconnected > 0 && st->view_client < 0)
        st->view_client = connected[0];

    double t = f->serverframe * (double)0.1;   // (double): a bare 0.1 is a long double on the x87 (make pentium)
    w->time = t;
    if (st->info.frames == 0) {
        st->info.start_time = t;
        st->info.have_time = 1;
    }
    st->info.end_time = t;
    st->info.frames++;
    st->info.drawn_frames++;
    st->pending = st->server ? 2 : 1;

    if (st->dump) {
        dump_begin(st, off, "frame");
        dump_int(st, "serverframe", f->serverframe);
        if (!st->server)
            dump_int(st, "deltaframe", f->deltaframe);
        if (suppress >= 0)
            dump_int(st, "suppress", suppress);
        if (!st->server) {
            float ab[32];
            for (int i = 0; i < areabytes; i++)
                ab[i] = areabits[i];
            dump_vec(st, "areabits", ab, areabytes);
        }
        if (nconnected >= 0) {
            float c[256];
            for (int i = 0; i < nconnected; i++)
                c[i] = connected[i];
            dump_vec(st, "connected", c, nconnected);
        }
        dump_end(st);
    }
    return 0;
}

// A player state delta over *ps: returns the PS_* flags and the stat bits.
// Protocol 25 flags beyond 0x1d set *unknown and are returned as they are,
// with nothing more read.
Q2_INLINE uint32_t player_fields(const q2_state_t *st, q2_rd_t *r, q2_player_t *ps, uint32_t *statbits, int *unknown)
{
    uint32_t flags = rd_u16(r);
    *unknown = 0;
    if (st->protocol == 25) {
        // 3.00: no movement state; 0x10 origin, view angles and a third angle
        // triple (kept as delta_angles), 0x04 gun model, 0x08 gun frame,
        // offset and angles, 0x01 blend (docs/quake2.md)
        uint32_t raw = flags;
        if (r->bad)
            return 0;
        if (raw & ~0x1du) {
            *unknown = 1;
            return raw;
        }
        flags = 0;
        if (raw & 0x10) {
            flags |= PS_M_ORIGIN | PS_VIEWANGLES | PS_M_DELTA_ANGLES;
            rd_pos(r, ps->origin);
            for (int i = 0; i < 3; i++)
                ps->viewangles[i] = rd_angle16(r);
            for (int i = 0; i < 3; i++)
                ps->delta_angles[i] = rd_angle16(r);
        }
        if (raw & 0x04) {
            flags |= PS_WEAPONINDEX;
            ps->gunindex = (int32_t)rd_u16(r);
        }
        if (raw & 0x08) {
            flags |= PS_WEAPONFRAME;
            ps->gunframe = (int32_t)rd_u16(r);
            for (int i = 0; i < 3; i++)
                ps->gunoffset[i] = (float)rd_s8(r) * 0.25f;
            for (int i = 0; i < 3; i++)
                ps->gunangles[i] = (float)rd_s8(r) * 0.25f;
        }
        if (raw & 0x01) {
            flags |= PS_BLEND;
            for (int i = 0; i < 4; i++)
                ps->blend[i] = (float)rd_u8(r) / 255.0f;
        }
        if (!ps->fov)
            ps->fov = 90;
    } else {
        if (flags & PS_M_TYPE)
            ps->pm_type = (int32_t)rd_u8(r);
        if (flags & PS_M_ORIGIN)
            rd_pos(r, ps->origin);
        if (flags & PS_M_VELOCITY)
            rd_pos(r, ps->velocity);
        if (flags & PS_M_TIME)
            ps->pm_time = (int32_t)rd_u8(r);
        if (flags & PS_M_FLAGS)
            ps->pm_flags = (int32_t)rd_u8(r);
        if (flags & PS_M_GRAVITY)
            ps->gravity = rd_s16(r);
        if (flags & PS_M_DELTA_ANGLES)
            for (int i = 0; i < 3; i++)
                ps->delta_angles[i] = rd_angle16(r);
        if (flags & PS_VIEWOFFSET)
            for (int i = 0; i < 3; i++)
                ps->viewoffset[i] = (float)rd_s8(r) * 0.25f;
        if (flags & PS_VIEWANGLES)
            for (int i = 0; i < 3; i++)
                ps->viewangles[i] = rd_angle16(r);
        if (flags & PS_KICKANGLES)
            for (int i = 0; i < 3; i++)
                ps->kick_angles[i] = (float)rd_s8(r) * 0.25f;
        if (flags & PS_WEAPONINDEX)
            ps->gunindex = (int32_t)rd_u8(r);
        if (flags & PS_WEAPONFRAME) {
            ps->gunframe = (int32_t)rd_u8(r);
            for (int i = 0; i < 3; i++)
                ps->gunoffset[i] = (float)rd_s8(r) * 0.25f;
            for (int i = 0; i < 3; i++)
                ps->gunangles[i] = (float)rd_s8(r) * 0.25f;
        }
        if (flags & PS_BLEND)
            for (int i = 0; i < 4; i++)
                ps->blend[i] = (float)rd_u8(r) / 255.0f;
        if (flags & PS_FOV)
            ps->fov = (float)rd_u8(r);
        if (flags & PS_RDFLAGS)
            ps->rdflags = (int32_t)rd_u8(r);
    }
    uint32_t sb = rd_u32(r);
    *statbits = sb;
    for (; sb; sb &= sb - 1)           // the stats in index order, one per bit
        ps->stats[__builtin_ctz(sb)] = rd_s16(r);
    return flags;
}

static int parse_playerinfo(q2_state_t *st, world_t *w, msg_t *m, size_t off, int apply, dec_error_t *err)
{
    if (st->server || (st->pending != 1 && !(st->relay && st->pending == 2)))
        return fail(st, err, off, "expected playerinfo only right after a frame message");
    // read over the frame's player state; not applied (relay: uni-cast to
    // another client), over a copy. A bad read fails the decoder, which then
    // reads nothing more, so a half-read state is never seen.
    q2_player_t copy;
    q2_player_t *ps = &st->cur.ps;
    // relay: each client's state deltas from that client's own in the delta frame (a second
    // time in one frame: from the one it just got; no delta frame: from nothing). When that
    // state is not kept the client's view is not known until a frame without a delta.
    int client = st->relay && st->unicast && st->unicast_client < Q2_RELAY_CLIENTS ? st->unicast_client : -1;
    const int32_t fnum = st->cur.serverframe, dnum = st->cur.deltaframe;
    const int keep = (int)((uint32_t)fnum % Q2_RELAY_KEEP);
    if (!apply) {
        copy = st->cur.ps;
        if (client >= 0) {
            const int dk = (int)((uint32_t)dnum % Q2_RELAY_KEEP);
            if (fnum > 0 && st->client_frame[keep][client] == fnum)
                copy = st->client_ps[keep][client];
            else if (dnum <= 0)
                memset(&copy, 0, sizeof copy);
            else if (st->client_frame[dk][client] == dnum)
                copy = st->client_ps[dk][client];
            else
                client = -1;   // read over; not kept
        }
        ps = &copy;
    }
    uint32_t statbits = 0;
    int unknown;
    q2_rd_t r = rd_begin(m);
    uint32_t flags = player_fields(st, &r, ps, &statbits, &unknown);
    rd_done(m, &r);
    if (m->bad)
        return 0;
    if (unknown)
        return fail(st, err, off + 1, "expected playerinfo bits known for protocol 25 (0x1d), found 0x%x", flags);
    st->pending = 2;
    (void)w;
    if (client >= 0 && fnum > 0) {   // relay: kept for that client's own view (finish_frame hands it on)
        st->client_ps[keep][client] = *ps;
        st->client_frame[keep][client] = fnum;
    }
    if (st->dump) {
        dump_begin(st, off, "playerinfo");
        dump_hex(st, "flags", flags);
        if (flags & PS_M_TYPE)
            dump_int(st, "pm_type", ps->pm_type);
        if (flags & PS_M_ORIGIN)
            dump_vec(st, "origin", ps->origin, 3);
        if (flags & PS_M_VELOCITY)
            dump_vec(st, "velocity", ps->velocity, 3);
        if (flags & PS_M_TIME)
            dump_int(st, "pm_time", ps->pm_time);
        if (flags & PS_M_FLAGS)
            dump_int(st, "pm_flags", ps->pm_flags);
        if (flags & PS_M_GRAVITY)
            dump_int(st, "gravity", ps->gravity);
        if (flags & PS_M_DELTA_ANGLES)
            dump_vec(st, "delta_angles", ps->delta_angles, 3);
        if (flags & PS_VIEWOFFSET)
            dump_vec(st, "viewoffset", ps->viewoffset, 3);
        if (flags & PS_VIEWANGLES)
            dump_vec(st, "viewangles", ps->viewangles, 3);
        if (flags & PS_KICKANGLES)
            dump_vec(st, "kick_angles", ps->kick_angles, 3);
        if (flags & PS_WEAPONINDEX)
            dump_int(st, "gunindex", ps->gunindex);
        if (flags & PS_WEAPONFRAME) {
            dump_int(st, "gunframe", ps->gunframe);
            dump_vec(st, "gunoffset", ps->gunoffset, 3);
            dump_vec(st, "gunangles", ps->gunangles, 3);
        }
        if (flags & PS_BLEND)
            dump_vec(st, "blend", ps->blend, 4);
        if (flags & PS_FOV)
            dump_num(st, "fov", ps->fov);
        if (flags & PS_RDFLAGS)
            dump_int(st, "rdflags", ps->rdflags);
        dump_hex(st, "statbits", statbits);
        for (int i = 0; i < Q2_MAX_STATS; i++)
            if (statbits & (1u << i)) {
                char key[16];
                snprintf(key, sizeof(key), "stat%d", i);
                dump_int(st, key, ps->stats[i]);
            }
        dump_end(st);
    }
    return 0;
}

// Where the entities of the frame being read go: the ring position and the
// count so far, kept out of q2_state_t while reading (in registers: stores
// into the entities would otherwise force reloads).
typedef struct {
    uint32_t count;           // st->parse_count
    int32_t num;              // st->cur.num_ents
} q2_ring_t;

// Append one entity of the new frame to the ring: `from` one frame on, and
// when r is given, with the fields `bits` announce read from r.
Q2_INLINE int add_frame_entity(q2_state_t *st, q2_ring_t *ring, size_t off, const entity_state_t *from, int number,
                               uint32_t bits, q2_rd_t *r, dec_error_t *err)
{
    if (ring->num >= Q2_MAX_EDICTS)
        return fail(st, err, off, "expected at most %d entities in a frame", Q2_MAX_EDICTS);
    uint32_t slot = ring->count & (Q2_PARSE_ENTS - 1);
    entity_state_t *e = &st->parse_ents[slot];
    st->parse_nums[slot] = (uint16_t)number;
    ring->count++;
    ring->num++;
    entity_carry(e, from);
    if (r) {
        entity_fields(st, r, e, bits);
        if (st->dump)
            dump_entity(st, off, "  entity", e, number, bits);
    }
    return 0;
}

// The frame is complete: keep it for later deltas and hand it to the world.
static void finish_frame(q2_state_t *st, world_t *w)
{
    q2_frame_t *f = &st->cur;
    f->valid = 1;
    st->frames[f->serverframe & (Q2_UPDATE_BACKUP - 1)] = *f;
    const uint32_t first = f->first_ent;
    const int32_t n = f->num_ents;
    for (int32_t i = 0; i < n; i++) {
        uint32_t slot = (first + (uint32_t)i) & (Q2_PARSE_ENTS - 1);
        world_entity_update(w, st->parse_nums[slot], &st->parse_ents[slot]);
    }
    if (!st->server) {
        const q2_player_t *ps = &f->ps;
        world_view_t *v = &w->view;
        for (int i = 0; i < 3; i++) {
            v->origin[i] = ps->origin[i] + ps->viewoffset[i];
            v->ofs[i] = ps->viewoffset[i];
            v->angles[i] = ps->viewangles[i];
            v->punch[i] = ps->kick_angles[i];
            v->velocity[i] = ps->velocity[i];
        }
        v->origin_valid = 1;
        v->fov = ps->fov > 0 ? ps->fov : 90.0f;
        memcpy(v->blend, ps->blend, sizeof(v->blend));
        v->rdflags = (uint32_t)ps->rdflags;
        memcpy(v->stats, ps->stats, sizeof(ps->stats));
        v->gun_valid = 1;
        v->gun_model = ps->gunindex;
        v->gun_frame = ps->gunframe;
        memcpy(v->gun_offset, ps->gunoffset, sizeof(v->gun_offset));
        memcpy(v->gun_angles, ps->gunangles, sizeof(v->gun_angles));
        v->intermission = ps->pm_type == PM_FREEZE;
        v->onground = (ps->pm_flags & PMF_ON_GROUND) != 0;
        if (st->relay && st->view_client >= 0) {
            v->entity = st->view_client + 1;
            w->playernum = st->view_client;   // the view is that client's: they are the recording player
        }
    }
    // relay: every client's own view (cameras follow them through it: docs/cameras.md)
    const int keep = (int)((uint32_t)f->serverframe % Q2_RELAY_KEEP);
    for (int c = 0; st->relay && f->serverframe > 0 && c < Q2_RELAY_CLIENTS; c++) {
        if (st->client_frame[keep][c] != f->serverframe)
            continue;
        const q2_player_t *ps = &st->client_ps[keep][c];
        world_pov_t pov;
        memset(&pov, 0, sizeof pov);
        for (int i = 0; i < 3; i++) {
            pov.origin[i] = ps->origin[i] + ps->viewoffset[i];
            pov.ofs[i] = ps->viewoffset[i];
            pov.angles[i] = ps->viewangles[i];
            pov.punch[i] = ps->kick_angles[i];
            pov.velocity[i] = ps->velocity[i];
            pov.gun_offset[i] = ps->gunoffset[i];
            pov.gun_angles[i] = ps->gunangles[i];
        }
        pov.gun_model = ps->gunindex;
        pov.gun_frame = ps->gunframe;
        pov.fov = ps->fov > 0 ? ps->fov : 90.0f;
        memcpy(pov.blend, ps->blend, sizeof pov.blend);
        pov.rdflags = (uint32_t)ps->rdflags;
        _Static_assert(WORLD_POV_STATS == Q2_MAX_STATS, "a client's stats fit the world's");
        memcpy(pov.stats, ps->stats, sizeof pov.stats);
        pov.onground = (ps->pm_flags & PMF_ON_GROUND) != 0;
        pov.intermission = ps->pm_type == PM_FREEZE;
        world_pov_update(w, c, &pov);
    }
    if (st->info.levels == 1 && !st->counts_done)
        count_precache(st);
    st->pending = 0;
}

// The entities of the frame, read through r into the ring (the caller hands
// both back). Returns 1 when the frame is complete, 0 when r ran out (the
// caller reports it), -1 on error.
Q2_INLINE int packetentities(q2_state_t *st, const msg_t *m, q2_rd_t *r, q2_ring_t *ring, dec_error_t *err)
{
    const q2_frame_t *old = st->old_frame >= 0 ? &st->frames[st->old_frame] : NULL;
    int oldindex = 0, oldnum;
    const entity_state_t *oldstate = NULL;
#define NEXT_OLD()                                                                                   \
    do {                                                                                             \
        if (!old || oldindex >= old->num_ents) {                                                     \
            oldnum = 99999;                                                                          \
        } else {                                                                                     \
            uint32_t oldslot = (old->first_ent + (uint32_t)oldindex) & (Q2_PARSE_ENTS - 1);          \
            oldstate = &st->parse_ents[oldslot];                                                     \
            oldnum = st->parse_nums[oldslot];                                                        \
        }                                                                                            \
    } while (0)
    NEXT_OLD();
    for (;;) {
        size_t eoff = rd_offset(m, r);
        int newnum, unknown;
        uint32_t bits = entity_header(st, r, &newnum, &unknown);
        if (r->bad)
            return 0;
        if (unknown)
            return fail(st, err, eoff, "expected entity bits known for protocol 25 (entity %d)", newnum);
        if (newnum >= Q2_MAX_EDICTS)
            return fail(st, err, eoff, "expected an entity number below %d, found %d", Q2_MAX_EDICTS, newnum);
        if (newnum == 0)
            break;
        while (oldnum < newnum) {      // unchanged since the old frame
            if (add_frame_entity(st, ring, eoff, oldstate, oldnum, 0, NULL, err) < 0)
                return -1;
            oldindex++;
            NEXT_OLD();
        }
        if (bits & U_REMOVE) {         // in the old frame, gone now
            if (st->dump)
                dump_entity(st, eoff, "  entity", &q2_empty, newnum, bits);
            if (oldnum == newnum) {
                oldindex++;
                NEXT_OLD();
            }
            continue;
        }
        // server-side recordings delta every entity from an empty state
        const entity_state_t *from = oldnum == newnum ? oldstate
                                     : st->server      ? &q2_empty
                                                       : baseline_of(st, newnum);
        if (add_frame_entity(st, ring, eoff, from, newnum, bits, r, err) < 0)
            return -1;
        if (r->bad)
            return 0;
        if (oldnum == newnum) {
            oldindex++;
            NEXT_OLD();
        }
    }
    while (oldnum != 99999) {          // the rest of the old frame carries over
        if (add_frame_entity(st, ring, rd_offset(m, r), oldstate, oldnum, 0, NULL, err) < 0)
            return -1;
        oldindex++;
        NEXT_OLD();
    }
#undef NEXT_OLD
    return 1;
}

static int parse_packetentities(q2_state_t *st, world_t *w, msg_t *m, size_t off, const char *name,
                                dec_error_t *err)
{
    if (st->pending != 2)
        return fail(st, err, off, "expected %s only after %s", name, st->server ? "a frame" : "frame and playerinfo");
    st->cur.first_ent = st->parse_count;
    st->cur.num_ents = 0;
    if (st->dump) {
        dump_begin(st, off, name);
        if (st->old_frame >= 0)
            dump_int(st, "from", st->frames[st->old_frame].serverframe);
        dump_end(st);
    }
    q2_rd_t r = rd_begin(m);
    q2_ring_t ring = { st->parse_count, 0 };
    int ret = packetentities(st, m, &r, &ring, err);
    rd_done(m, &r);
    st->parse_count = ring.count;
    st->cur.num_ents = ring.num;
    if (ret == 1)
        finish_frame(st, w);
    return ret;
}


static const char *const te_names[TE_COUNT] = {
    "gunshot", "blood", "blaster", "railtrail", "shotgun", "explosion1", "explosion2", "rocket_explosion",
    "grenade_explosion", "sparks", "splash", "bubbletrail", "screen_sparks", "shield_sparks", "bullet_sparks",
    "laser_sparks", "parasite_attack", "rocket_explosion_water", "grenade_explosion_water", "medic_cable_attack",
    "bfg_explosion", "bfg_bigexplosion", "bosstport", "bfg_laser", "grapple_cable", "welding_sparks",
    "greenblood", "bluehyperblaster", "plasma_explosion", "tunnel_sparks", "blaster2", "plasma_trail (3.14)",
    "flame", "lightning", "debugtrail", "plain_explosion", "flashlight", "forcewall", "heatbeam",
    "monster_heatbeam", "steam", "bubbletrail2", "moreblood", "heatbeam_sparks", "heatbeam_steam",
    "chainfist_smoke", "electric_sparks", "tracker_explosion", "teleport_effect", "dball_goal",
    "widowbeamout", "nukeblast", "widowsplash", "explosion1_big", "explosion1_np", "flechette",
};

// How each temp entity is laid out and what the world draws for it.
enum { L_POINT, L_IMPACT, L_LINE, L_SPLASH, L_BEAM, L_GRAPPLE, L_FLAME, L_LIGHTNING, L_FLASHLIGHT,
       L_FORCEWALL, L_STEAM, L_WIDOWBEAM, L_BAD };

static const struct { uint8_t layout; uint8_t fx; } te_kinds[TE_COUNT] = {
    [TE_GUNSHOT] = { L_IMPACT, FX_GUNSHOT }, [TE_BLOOD] = { L_IMPACT, FX_BLOOD },
    [TE_BLASTER] = { L_IMPACT, FX_SPARKS }, [TE_RAILTRAIL] = { L_LINE, FX_RAILTRAIL },
    [TE_SHOTGUN] = { L_IMPACT, FX_GUNSHOT }, [TE_EXPLOSION1] = { L_POINT, FX_EXPLOSION },
    [TE_EXPLOSION2] = { L_POINT, FX_EXPLOSION }, [TE_ROCKET_EXPLOSION] = { L_POINT, FX_EXPLOSION },
    [TE_GRENADE_EXPLOSION] = { L_POINT, FX_EXPLOSION }, [TE_SPARKS] = { L_IMPACT, FX_SPARKS },
    [TE_SPLASH] = { L_SPLASH, FX_SPLASH }, [TE_BUBBLETRAIL] = { L_LINE, FX_GENERIC },
    [TE_SCREEN_SPARKS] = { L_IMPACT, FX_SHIELD_SPARKS }, [TE_SHIELD_SPARKS] = { L_IMPACT, FX_SHIELD_SPARKS },
    [TE_BULLET_SPARKS] = { L_IMPACT, FX_SPARKS }, [TE_LASER_SPARKS] = { L_SPLASH, FX_SPARKS },
    [TE_PARASITE_ATTACK] = { L_BEAM, FX_BEAM }, [TE_ROCKET_EXPLOSION_WATER] = { L_POINT, FX_EXPLOSION },
    [TE_GRENADE_EXPLOSION_WATER] = { L_POINT, FX_EXPLOSION }, [TE_MEDIC_CABLE_ATTACK] = { L_BEAM, FX_BEAM },
    [TE_BFG_EXPLOSION] = { L_POINT, FX_BFG_EXPLOSION }, [TE_BFG_BIGEXPLOSION] = { L_POINT, FX_BFG_EXPLOSION },
    [TE_BOSSTPORT] = { L_POINT, FX_TELEPORT }, [TE_BFG_LASER] = { L_LINE, FX_LASER },
    [TE_GRAPPLE_CABLE] = { L_GRAPPLE, FX_BEAM }, [TE_WELDING_SPARKS] = { L_SPLASH, FX_SPARKS },
    [TE_GREENBLOOD] = { L_IMPACT, FX_BLOOD }, [TE_BLUEHYPERBLASTER] = { L_LINE, FX_GENERIC },
    [TE_PLASMA_EXPLOSION] = { L_POINT, FX_EXPLOSION }, [TE_TUNNEL_SPARKS] = { L_SPLASH, FX_SPARKS },
    [TE_BLASTER2] = { L_IMPACT, FX_SPARKS }, [TE_RAILTRAIL2] = { L_BAD, FX_NONE },
    [TE_FLAME] = { L_FLAME, FX_GENERIC }, [TE_LIGHTNING] = { L_LIGHTNING, FX_LIGHTNING2 },
    [TE_DEBUGTRAIL] = { L_LINE, FX_GENERIC }, [TE_PLAIN_EXPLOSION] = { L_POINT, FX_EXPLOSION },
    [TE_FLASHLIGHT] = { L_FLASHLIGHT, FX_FLASHLIGHT }, [TE_FORCEWALL] = { L_FORCEWALL, FX_LASER },
    [TE_HEATBEAM] = { L_BEAM, FX_BEAM }, [TE_MONSTER_HEATBEAM] = { L_BEAM, FX_BEAM },
    [TE_STEAM] = { L_STEAM, FX_SMOKE }, [TE_BUBBLETRAIL2] = { L_LINE, FX_GENERIC },
    [TE_MOREBLOOD] = { L_IMPACT, FX_BLOOD }, [TE_HEATBEAM_SPARKS] = { L_IMPACT, FX_SPARKS },
    [TE_HEATBEAM_STEAM] = { L_IMPACT, FX_SPARKS }, [TE_CHAINFIST_SMOKE] = { L_POINT, FX_SMOKE },
    [TE_ELECTRIC_SPARKS] = { L_IMPACT, FX_SPARKS }, [TE_TRACKER_EXPLOSION] = { L_POINT, FX_EXPLOSION },
    [TE_TELEPORT_EFFECT] = { L_POINT, FX_TELEPORT }, [TE_DBALL_GOAL] = { L_POINT, FX_TELEPORT },
    [TE_WIDOWBEAMOUT] = { L_WIDOWBEAM, FX_GENERIC }, [TE_NUKEBLAST] = { L_POINT, FX_EXPLOSION },
    [TE_WIDOWSPLASH] = { L_POINT, FX_EXPLOSION }, [TE_EXPLOSION1_BIG] = { L_POINT, FX_EXPLOSION },
    [TE_EXPLOSION1_NP] = { L_POINT, FX_EXPLOSION }, [TE_FLECHETTE] = { L_IMPACT, FX_SPARKS },
};

static int parse_temp_entity(q2_state_t *st, world_t *w, msg_t *m, size_t off, int apply, dec_error_t *err)
{
    int type = (int)msg_u8(m);
    if (m->bad)
        return 0;
    if (st->protocol != 25 && (type >= TE_COUNT || te_kinds[type].layout == L_BAD))
        return fail(st, err, off + 1, "expected a temp entity type 0..%d (not 31), found %d", TE_COUNT - 1, type);
    int layout = type < TE_COUNT ? te_kinds[type].layout : L_BAD;
    world_fx_t kind = type < TE_COUNT ? (world_fx_t)te_kinds[type].fx : FX_NONE;
    if (st->protocol == 25) {
        // 3.00 numbers its temp entities differently; the q2test demo shows
        // these, with the sizes its bytes prove (their meanings are guesses)
        switch (type) {
        case 2:
            layout = L_IMPACT, kind = FX_SPARKS;
            break;
        case 12: case 14: case 16: case 21: case 26:
            layout = L_IMPACT, kind = FX_GUNSHOT;
            break;
        case 17: case 18: case 19:
            layout = L_POINT, kind = FX_EXPLOSION;
            break;
        default:
            return fail(st, err, off + 1, "expected a temp entity type known for protocol 25, found %d", type);
        }
    }
    // raw_type: the effect in 3.20's numbers, what the renderer and `info` go by
    int canon = type;
    if (st->protocol == 25)   // the guesses above, as 3.20 names them
        canon = kind == FX_SPARKS ? TE_BLASTER : kind == FX_GUNSHOT ? TE_GUNSHOT : TE_ROCKET_EXPLOSION;
    // 3.12..3.14 (protocol 31 and before) had a plasma trail at 26 and green blood at 27
    if (st->protocol != 25 && st->protocol < 32 && type == TE_GREENBLOOD) {
        layout = L_LINE;
        kind = FX_GENERIC;
        canon = TE_RAILTRAIL2;   // no 3.20 number: counted and not drawn, as 31 (never sent)
    } else if (st->protocol != 25 && st->protocol < 32 && type == TE_BLUEHYPERBLASTER) {
        layout = L_IMPACT;
        kind = FX_BLOOD;
        canon = TE_GREENBLOOD;
    }
    world_fx_event_t fx;
    memset(&fx, 0, sizeof(fx));
    fx.kind = kind;
    fx.raw_type = canon;
    fx.entity = -1;
    float pos[4][3] = { { 0 } };
    int dir_bad = 0, count = -1, style = -1, ent2 = -1, nextid = -2, extra = -1;
    switch (layout) {
    case L_POINT:
        read_pos(m, fx.origin);
        break;
    case L_IMPACT:
        read_pos(m, fx.origin);
        dir_bad = read_dir(m, fx.dir);
        break;
    case L_LINE:
        read_pos(m, fx.origin);
        read_pos(m, fx.end);
        break;
    case L_SPLASH:
        count = (int)msg_u8(m);
        read_pos(m, fx.origin);
        dir_bad = read_dir(m, fx.dir);
        style = (int)msg_u8(m);          // splash kind / colour
        break;
    case L_BEAM:
        fx.entity = msg_s16(m);
        read_pos(m, fx.origin);
        read_pos(m, fx.end);
        break;
    case L_GRAPPLE:
        fx.entity = msg_s16(m);
        read_pos(m, fx.origin);
        read_pos(m, fx.end);
        read_pos(m, pos[0]);             // offset of the cable start
        break;
    case L_FLAME:
        fx.entity = msg_s16(m);
        count = msg_s16(m);
        read_pos(m, pos[0]);
        read_pos(m, fx.origin);
        for (int i = 0; i < 4; i++)
            read_pos(m, pos[i]);
        break;
    case L_LIGHTNING:
        ent2 = msg_s16(m);               // destination entity
        fx.entity = msg_s16(m);
        read_pos(m, fx.end);
        read_pos(m, fx.origin);
        break;
    case L_FLASHLIGHT:
        read_pos(m, fx.origin);
        fx.entity = msg_s16(m);
        break;
    case L_FORCEWALL:
        read_pos(m, fx.origin);
        read_pos(m, fx.end);
        style = (int)msg_u8(m);          // colour; the spec says short, the games write a byte
        break;
    case L_STEAM:
        nextid = msg_s16(m);
        count = (int)msg_u8(m);
        read_pos(m, fx.origin);
        dir_bad = read_dir(m, fx.dir);
        style = (int)msg_u8(m);          // colour
        extra = msg_s16(m);              // magnitude
        if (nextid != -1)
            fx.duration = (float)msg_s32(m) * 0.001f;
        break;
    case L_WIDOWBEAM:
        extra = msg_s16(m);
        read_pos(m, fx.origin);
        break;
    }
    if (m->bad)
        return 0;
    if (dir_bad)
        return fail(st, err, off + 1, "expected a direction index below %d in temp entity %d", Q2_NUMNORMALS, type);
    fx.count = count >= 0 ? count : 0;
    fx.color = style >= 0 ? style : 0;
    if (layout == L_GRAPPLE)
        memcpy(fx.dir, pos[0], sizeof(fx.dir));   // the cable's offset from its start
    if (layout == L_LIGHTNING)
        fx.model = ent2;                          // the lightning's other end (beams pair on both)
    if (layout == L_STEAM) {
        fx.model = nextid;                        // -1: a puff; else a sustained jet for `duration`
        fx.radius = (float)extra;                 // the jet's magnitude
    }
    if (apply && canon >= 0 && canon < TE_COUNT)
        st->info.tempents[canon]++;
    if (apply) {
        world_event_t *ev = world_add_event(w, EV_TEMPENT);
        if (ev)
            ev->u.fx = fx;
    }
    if (st->dump) {
        dump_begin(st, off, "temp_entity");
        dump_int(st, "type", type);
        if (fx.entity >= 0)
            dump_int(st, "entity", fx.entity);
        if (ent2 >= 0)
            dump_int(st, "dest_entity", ent2);
        if (nextid != -2)
            dump_int(st, "nextid", nextid);
        if (count >= 0)
            dump_int(st, "count", count);
        dump_vec(st, "origin", fx.origin, 3);
        if (layout == L_LINE || layout == L_BEAM || layout == L_GRAPPLE || layout == L_LIGHTNING ||
            layout == L_FORCEWALL)
            dump_vec(st, "end", fx.end, 3);
        if (layout == L_IMPACT || layout == L_SPLASH || layout == L_STEAM)
            dump_vec(st, "dir", fx.dir, 3);
        if (layout == L_GRAPPLE)
            dump_vec(st, "offset", pos[0], 3);
        if (layout == L_FLAME)
            for (int i = 0; i < 4; i++) {
                char key[16];
                snprintf(key, sizeof(key), "pos%d", i + 1);
                dump_vec(st, key, pos[i], 3);
            }
        if (style >= 0)
            dump_int(st, "style", style);
        if (extra >= 0 || layout == L_STEAM || layout == L_WIDOWBEAM)
            dump_int(st, layout == L_STEAM ? "magnitude" : "extra", extra);
        if (layout == L_STEAM && nextid != -1)
            dump_num(st, "wait", fx.duration);
        dump_end(st);
    }
    return 0;
}

static int parse_muzzleflash(q2_state_t *st, world_t *w, msg_t *m, size_t off, int monster, int apply,
                             dec_error_t *err)
{
    int ent = msg_s16(m);
    int value = (int)msg_u8(m);
    if (m->bad)
        return 0;
    if (ent < 1 || ent >= Q2_MAX_EDICTS)
        return fail(st, err, off + 1, "expected a muzzle flash entity 1..%d, found %d", Q2_MAX_EDICTS - 1, ent);
    if (apply) {
        world_event_t *ev = world_add_event(w, EV_DLIGHT);
        if (ev) {
            world_fx_event_t *fx = &ev->u.fx;
            fx->kind = FX_NONE;
            fx->raw_type = value;       // MZ_* (player, with MZ_SILENCED 128) or MZ2_* (monster)
            fx->count = monster ? 2 : 1;
            fx->entity = ent;
            if (ent < w->num_entities)
                memcpy(fx->origin, w->entities[ent].cur.origin, sizeof(fx->origin));
            fx->radius = (!monster && (value & 128)) ? 100.0f : 200.0f;
            fx->duration = 0.1f;
            fx->color = 0xffff00;       // packed RGB: the usual yellow flash
        }
    }
    if (st->dump) {
        dump_begin(st, off, monster ? "muzzleflash2" : "muzzleflash");
        dump_int(st, "entity", ent);
        dump_int(st, "value", value);
        dump_end(st);
    }
    return 0;
}

static int parse_sound(q2_state_t *st, world_t *w, msg_t *m, size_t off, int apply, dec_error_t *err)
{
    int flags = (int)msg_u8(m);
    int soundnum = (int)msg_u8(m);
    world_sound_event_t s;
    memset(&s, 0, sizeof(s));
    s.sound = soundnum;
    s.volume = (flags & 0x01) ? (float)msg_u8(m) / 255.0f : 1.0f;
    s.attenuation = (flags & 0x02) ? (float)msg_u8(m) / 64.0f : 1.0f;
    s.time_offset = (flags & 0x10) ? (float)msg_u8(m) * 0.001f : 0.0f;
    s.pitch = 1.0f;
    if (flags & 0x08) {
        int v = (int)msg_u16(m);
        s.entity = v >> 3;
        s.channel = v & 7;
    }
    if (flags & 0x04) {
        read_pos(m, s.origin);
        s.has_origin = 1;
    }
    if (m->bad)
        return 0;
    if (s.entity >= Q2_MAX_EDICTS)
        return fail(st, err, off + 1, "expected a sound entity below %d, found %d", Q2_MAX_EDICTS, s.entity);
    if (apply) {
        world_event_t *ev = world_add_event(w, EV_SOUND);
        if (ev)
            ev->u.sound = s;
    }
    if (st->dump) {
        dump_begin(st, off, "sound");
        dump_hex(st, "flags", (unsigned long)flags);
        dump_int(st, "sound", soundnum);
        dump_num(st, "volume", s.volume);
        dump_num(st, "attenuation", s.attenuation);
        dump_num(st, "timeofs", s.time_offset);
        dump_int(st, "entity", s.entity);
        dump_int(st, "channel", s.channel);
        if (s.has_origin)
            dump_vec(st, "origin", s.origin, 3);
        dump_end(st);
    }
    return 0;
}

static void text_message(q2_state_t *st, world_t *w, msg_t *m, size_t off, int svc, int apply)
{
    int level = svc == SVC_PRINT ? (int)msg_u8(m) : 0;
    char s[2048];
    msg_string(m, s, sizeof(s));
    if (m->bad)
        return;
    if (apply) {
        if (svc == SVC_PRINT)
            world_add_text_event(w, EV_PRINT, s, level);
        else if (svc == SVC_CENTERPRINT)
            world_add_text_event(w, EV_CENTERPRINT, s, 0);
        else if (svc == SVC_STUFFTEXT)
            world_add_text_event(w, EV_STUFFTEXT, s, 0);
        else if (svc == SVC_LAYOUT)
            copy_str(w->view.layout, sizeof(w->view.layout), s);
    }
    if (st->dump) {
        dump_begin(st, off, svc_names[svc]);
        if (svc == SVC_PRINT)
            dump_int(st, "level", level);
        dump_str(st, "text", s);
        dump_end(st);
    }
}

static int parse_download(q2_state_t *st, msg_t *m, size_t off)
{
    int size = msg_s16(m);
    int percent = (int)msg_u8(m);
    // the file data came with 3.15 (protocol 32); before, only size and percentage
    if (size > 0 && st->protocol >= 32)
        msg_bytes(m, (size_t)size);
    if (m->bad)
        return 0;
    if (st->dump) {
        dump_begin(st, off, "download");
        dump_int(st, "size", size);
        dump_int(st, "percent", percent);
        dump_end(st);
    }
    return 0;
}

static int parse_inventory(q2_state_t *st, msg_t *m, size_t off, int apply)
{
    int16_t inv[256];
    for (int i = 0; i < 256; i++)
        inv[i] = (int16_t)msg_s16(m);
    if (m->bad)
        return 0;
    if (apply)
        memcpy(st->inventory, inv, sizeof(inv));
    if (st->dump) {
        dump_begin(st, off, "inventory");
        int n = 0;
        for (int i = 0; i < 256; i++)
            if (inv[i]) {
                char key[16];
                snprintf(key, sizeof(key), "item%d", i);
                dump_int(st, key, inv[i]);
                n++;
            }
        dump_int(st, "nonzero", n);
        dump_end(st);
    }
    return 0;
}

// One message at m->pos. Returns 0, 1 when it completed a frame, -1 on error.
static int parse_message(q2_state_t *st, world_t *w, msg_t *m, dec_error_t *err)
{
    size_t off = msg_offset(m);
    uint32_t raw = msg_u8(m);
    st->unicast = 0;
    st->unicast_client = -1;
    if (st->relay && (raw & 0x80)) {
        st->unicast = 1;
        st->unicast_client = (int)msg_u8(m);
        raw &= 0x7f;
    }
    int svc = svc_of(st, raw);
    if (svc <= SVC_BAD)
        return fail(st, err, off, "expected a Quake II message id (protocol %d), found %u", st->protocol, raw);
    if (!st->seen_serverdata && svc != SVC_SERVERDATA)
        return fail(st, err, off, "expected serverdata as the first message, found %s", svc_names[svc]);
    if (st->pending && !st->relay && svc != SVC_PLAYERINFO && svc != SVC_PACKETENTITIES &&
        svc != SVC_DELTAPACKETENTITIES)
        return fail(st, err, off, "expected %s after the frame message, found %s",
                    st->pending == 1 ? "playerinfo" : "packetentities", svc_names[svc]);
    // relay: a message uni-cast to another client is read but not applied
    int apply = !st->unicast || st->view_client < 0 || st->unicast_client == st->view_client;
    if (st->relay && st->unicast && st->view_client < 0 && svc == SVC_PLAYERINFO)
        st->view_client = st->unicast_client;
    if (st->dump && st->unicast) {
        dump_begin(st, off, "unicast");
        dump_int(st, "client", st->unicast_client);
        dump_end(st);
    }
    int r = 0;
    switch (svc) {
    case SVC_MUZZLEFLASH:
    case SVC_MUZZLEFLASH2:
        r = parse_muzzleflash(st, w, m, off, svc == SVC_MUZZLEFLASH2, apply, err);
        break;
    case SVC_TEMP_ENTITY:
        r = parse_temp_entity(st, w, m, off, apply, err);
        break;
    case SVC_LAYOUT:
    case SVC_PRINT:
    case SVC_STUFFTEXT:
    case SVC_CENTERPRINT:
        text_message(st, w, m, off, svc, apply);
        break;
    case SVC_INVENTORY:
        r = parse_inventory(st, m, off, apply);
        break;
    case SVC_NOP:
    case SVC_DISCONNECT:
    case SVC_RECONNECT:
        if (st->dump) {
            dump_begin(st, off, svc_names[svc]);
            dump_end(st);
        }
        break;
    case SVC_SOUND:
        r = parse_sound(st, w, m, off, apply, err);
        break;
    case SVC_SERVERDATA:
        r = parse_serverdata(st, w, m, off, err);
        break;
    case SVC_CONFIGSTRING:
        r = parse_configstring(st, w, m, off, err);
        break;
    case SVC_SPAWNBASELINE:
        r = parse_spawnbaseline(st, w, m, off, err);
        break;
    case SVC_DOWNLOAD:
        r = parse_download(st, m, off);
        break;
    case SVC_PLAYERINFO:
        r = parse_playerinfo(st, w, m, off, apply, err);
        break;
    case SVC_PACKETENTITIES:
    case SVC_DELTAPACKETENTITIES:
        r = parse_packetentities(st, w, m, off, svc_names[svc], err);
        break;
    case SVC_FRAME:
        r = parse_frame(st, w, m, off, err);
        break;
    }
    if (r < 0)
        return -1;
    if (m->bad)
        return fail(st, err, off, "expected the %s message to end within its block (which ends at offset %zu)",
                    svc_names[svc], m->base + m->size);
    return r;
}

// ---- the decoder interface --------------------------------------------------

static int32_t le32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24));
}

// First block: a plausible length, then serverdata with a Quake II protocol.
static int q2_probe(const uint8_t *data, size_t size)
{
    if (size < 9)
        return 0;
    int32_t len = le32(data);
    if (len < 5 || (size_t)len > size - 4)
        return 0;
    int32_t protocol = le32(data + 5);
    if (data[4] == SVC_SERVERDATA && protocol >= 26 && protocol <= 34)
        return 90;
    if (data[4] == 7 && protocol == 25)   // serverdata in the 3.00 numbering
        return 90;
    return 0;
}

static int q2_open(void *state, const uint8_t *data, size_t size, world_t *w, const dec_opts_t *opts,
                   dec_error_t *err)
{
    q2_state_t *st = state;
    memset(st, 0, offsetof(q2_state_t, cs));   // the rest is written before it is read (see q2_state_t)
    st->data = data;
    st->size = size;
    st->dump = opts ? opts->dump : NULL;
    st->dump_json = opts ? opts->dump_json : 0;
    st->old_frame = -1;
    st->view_client = -1;
    st->info.format = "quake2";
    st->info.tempent_names = te_names;
    st->info.num_tempent_types = TE_COUNT;
    world_reset(w);
    w->game = GAME_QUAKE2;
    w->player_eye_height = 22.0f;   // viewheight 22; ClientEndServerFrame: s.angles[PITCH] = v_angle[PITCH] / 3
    w->player_pitch_scale = 3.0f;
    if (q2_probe(data, size) == 0)
        return fail(st, err, 0, "expected a Quake II demo: a block length and serverdata with protocol 25..34");
    st->protocol = le32(data + 5);       // decides the message numbering of the first message
    return 0;
}

static int q2_read_frame(void *state, world_t *w, dec_error_t *err)
{
    q2_state_t *st = state;
    if (st->failed) {
        if (err && !err->what[0])
            dec_error_set(err, (long long)st->pos, "expected no read after an error");
        return -1;
    }
    if (st->ended)
        return 0;
    world_begin_frame(w, w->time);
    int got_frame = 0;
    for (;;) {
        if (!st->in_block) {
            size_t left = st->size - st->pos;
            if (left == 0) {
                if (st->protocol == 25) {       // the 3.00 release wrote no end block
                    st->ended = 1;
                    if (st->info.levels == 1 && !st->counts_done)
                        count_precache(st);
                    return 0;
                }
                return fail(st, err, st->pos, "expected a block length or the end block -1, found the end of the "
                                              "file (truncated?)");
            }
            if (left < 4)
                return fail(st, err, st->pos, "expected a 4-byte block length, found %zu bytes", left);
            int32_t len = le32(st->data + st->pos);
            if (len == -1) {
                if (st->dump) {
                    dump_begin(st, st->pos, "end");
                    dump_int(st, "size", -1);
                    dump_end(st);
                }
                st->pos += 4;
                st->ended = 1;
                if (st->info.levels == 1 && !st->counts_done)
                    count_precache(st);
                return 0;
            }
            if (len < 0 || (size_t)len > left - 4)
                return fail(st, err, st->pos, "expected a block length of 0..%zu bytes (what is left of the file), "
                                              "found %d", left - 4, len);
            if (st->dump) {
                dump_begin(st, st->pos, len == 0 ? "block (empty: next level)" : "block");
                dump_int(st, "size", len);
                dump_end(st);
            }
            st->block_start = st->pos + 4;
            st->block_end = st->block_start + (size_t)len;
            st->pos = st->block_start;
            st->in_block = 1;
        }
        if (st->pos >= st->block_end) {
            if (st->pending && !st->relay)
                return fail(st, err, st->pos, "expected %s before the end of the block",
                            st->pending == 1 ? "playerinfo" : "packetentities");
            st->in_block = 0;
            if (got_frame)
                return 1;
            continue;
        }
        msg_t m;
        msg_init(&m, st->data + st->block_start, st->block_end - st->block_start, st->block_start);
        m.pos = st->pos - st->block_start;
        if (got_frame) {
            // a second frame in one block (server-side and relay files): it starts the next call
            uint32_t raw = m.data[m.pos];
            if (st->relay && (raw & 0x80))
                raw = m.pos + 2 <= m.size ? m.data[m.pos + 2] : 0;
            if (svc_of(st, raw & (st->relay ? 0x7fu : 0xffu)) == SVC_FRAME)
                return 1;
        }
        int r = parse_message(st, w, &m, err);
        if (r < 0)
            return -1;
        st->pos = st->block_start + m.pos;
        if (r == 1)
            got_frame = 1;
    }
}

static size_t q2_offset(const void *state) { return ((const q2_state_t *)state)->pos; }
static const demo_info_t *q2_info(const void *state) { return &((const q2_state_t *)state)->info; }
static void q2_close(void *state) { (void)state; }

const decoder_t q2_decoder = {
    "quake2", GAME_QUAKE2, sizeof(q2_state_t), q2_probe, q2_open, q2_read_frame, q2_offset, q2_info, q2_close,
};
