// forsaken.h -- Forsaken .DMO demo format facts: header, event header, message codes and decoded messages
//
// A demo is a header, then events: a log of the multiplayer network messages the
// recording player sent and received. Each event is 16 bytes (u64 timestamp,
// u32 payload size, u32 sender id) and a payload whose first byte is the message
// code. Layouts and the reasons for each choice are in docs/forsaken.md.
//
// The decoder (forsaken.c) parses payloads into fs_event_t with fs_parse_payload();
// the writer (forsaken_write.c) serialises the same structs, so a synthetic demo
// round-trips through exactly the layouts the decoder reads.
// Each layout's plain fields are one table (forsaken_fields.[ch]) that the parser,
// the writer and dump all walk.
#ifndef FORSAKEN_H
#define FORSAKEN_H

#include <stddef.h>
#include <stdint.h>

#include "decoder.h"

// Header versions: DEMO_MULTIPLAYER_VERSION (0x0109) .. MULTIPLAYER_VERSION (0x010d).
#define FS_VERSION_MIN 0x0109
#define FS_VERSION_MAX 0x010d
#define FS_HEADER_FIXED 26          // bytes before the level name
#define FS_LEVEL_MAX 256            // the game writes at most 256 name bytes including the NUL
#define FS_EVENT_HEADER 16
#define FS_EVENT_MAX (1u << 16)     // no game message comes near this (the game's buffers are 1 KiB)

// Timestamps are QueryPerformanceCounter ticks since the game started; the tick
// rate is not stored in the file. This is the rate Windows 95/98 reported (the
// 8254 timer, 14.31818 MHz / 12), the systems Forsaken was made for.
#define FS_TICKS_PER_SECOND 1193182.0

#define FS_MAX_PLAYERS 32           // MAX_PLAYERS; player number 32 is the server in server games
#define FS_NUM_TITANBITS 10
#define FS_TEXT_LEN 128
#define FS_NAME_LEN 8

// Message codes (the first payload byte).
enum {
    FS_MSG_UPDATE = 0x11,
    FS_MSG_HEREIAM = 0x22,
    FS_MSG_SECBULLPOSDIR = 0x66,    // secondary weapon launched: mines laid, missiles
    FS_MSG_SHIPDIED = 0x77,
    FS_MSG_DROPPICKUP = 0x88,
    FS_MSG_KILLPICKUP = 0x99,
    FS_MSG_STATUS = 0xbb,
    FS_MSG_SHOCKWAVE = 0xff,
    FS_MSG_FUPDATE = 0x1f,
    FS_MSG_TEXTMSG = 0x3f,
    FS_MSG_NAME = 0x7f,
    FS_MSG_KILLSDEATHSBIKENUM = 0xf4,
    FS_MSG_VERYSHORTUPDATE = 0xf5,
    FS_MSG_VERYSHORTFUPDATE = 0xf6,
    FS_MSG_SENDKILLSDEATHSBIKENUM = 0xfb,
    FS_MSG_TITANBITS = 0xfd,
    // Not in the spec; layouts from the game's structs. A payload shorter than
    // these layouts is skipped rather than an error (no recording to check them on).
    FS_MSG_PRIMBULLPOSDIR = 0x55,            // a primary weapon shot
    FS_MSG_EXPSECONDARY = 0xcc,              // a mine or missile exploded
    FS_MSG_PLAYERPINGS = 0xbe,
    FS_MSG_SERVERKILLPICKUP = 0xe5,
    FS_MSG_SERVERSAYSSHIPDIED = 0xe6,
    FS_MSG_EXPLODESHIP = 0xe8,
    FS_MSG_GROUPONLY_VERYSHORTFUPDATE = 0xec, // a ship update without movement
    FS_MSG_SHIELDHULL = 0xe9,                 // a ship's own shield and hull (the panel's numbers)
    FS_MSG_SHIPHIT = 0x44,                    // one ship's weapon hit another (damage; shown in dump)
    FS_MSG_SHORTSHIPHIT = 0xfc,               // the same with short vectors
    FS_MSG_BGOUPDATE = 0xaf,                  // a background object (door) changed state
    FS_MSG_SHORTSTATS = 0xaa,                 // one player's kills of every player (shown in dump)
    FS_MSG_TEAMGOALS = 0xf9,                  // each team's goals (flags captured; shown in dump)
    FS_MSG_SERVERSCORED = 0xea,               // a server game's score for one player (shown in dump)
    // The rest of the game's codes (Mydplay.h); layouts from its structs.
    FS_MSG_INIT = 0x33,                       // the host to a joiner: player number, teams, level name
    FS_MSG_SHORTPICKUP = 0xee,                // the host to a joiner: up to 5 pickups present in the level
    FS_MSG_SHORTMINE = 0x2f,                  // ... up to 3 mines present
    FS_MSG_SHORTREGENSLOT = 0x4f,             // ... up to 6 pickup regeneration slots
    FS_MSG_SHORTTRIGGER = 0x5f,               // ... up to 60 trigger states
    FS_MSG_SHORTTRIGVAR = 0x6f,               // ... up to 60 trigger variables
    FS_MSG_INTERPOLATE = 0x8f,                // a demo-cleaning pass: where a ship will be at the next update
    FS_MSG_BOMB = 0x9f,                       // bomb tag (disabled in the game)
    FS_MSG_PINGREQUEST = 0xbf,
    FS_MSG_PINGREPLY = 0xcf,
    FS_MSG_LONGSTATUS = 0xdf,                 // MSG_STATUS with the host's level name
    FS_MSG_SETTIME = 0xef,                    // the host's countdown time
    FS_MSG_REQTIME = 0xf1,
    FS_MSG_ACKMSG = 0xf2,
    FS_MSG_GUARANTEEDMSG = 0xf3,              // a guaranteed-delivery wrapper around one message
    FS_MSG_ALIVE = 0xf7,
    FS_MSG_VERYSHORTINTERPOLATE = 0xf8,       // MSG_INTERPOLATE with short vectors
    FS_MSG_YOUQUIT = 0xfa,                    // the host tells a player to leave
    FS_MSG_BIGPACKET = 0xfe,                  // several messages packed into one
    FS_MSG_TRACKERINFO = 0xe0,
    FS_MSG_SERVERUPDATE = 0xe1,
    FS_MSG_GAMEPARAMETERS = 0xe2,
    FS_MSG_TOSERVER = 0xe4,
    FS_MSG_LEVELNAMES = 0xe7,
    FS_MSG_TOCLIENT = 0xeb,
    FS_MSG_VERYSHORTDROPPICKUP = 0xed         // MSG_DROPPICKUP with short vectors
};

// Payload sizes of the layouts decoded (a longer payload is decoded and its tail skipped).
enum {
    FS_SIZE_NAME = 10, FS_SIZE_BIKENUM = 8, FS_SIZE_HEREIAM = 12, FS_SIZE_PLAYERNUM = 2,
    FS_SIZE_VERYSHORTUPDATE = 40, FS_SIZE_VERYSHORTFUPDATE = 44, FS_SIZE_UPDATE = 68, FS_SIZE_FUPDATE = 68,
    FS_SIZE_SECBULL = 76, FS_SIZE_STATUS = 28, FS_SIZE_STATUS_LONG = 40, FS_SIZE_SHIPDIED = 20,
    FS_SIZE_DROPPICKUP = 56, FS_SIZE_KILLPICKUP = 8, FS_SIZE_TITANBITS = 184, FS_SIZE_SHOCKWAVE = 28,
    FS_SIZE_TEXTMSG = 131,
    FS_SIZE_PRIMBULL = 72, FS_SIZE_EXPSECONDARY = 32, FS_SIZE_PLAYERPINGS = 66, FS_SIZE_SERVERKILLPICKUP = 10,
    FS_SIZE_SERVERSAYSSHIPDIED = 24, FS_SIZE_EXPLODESHIP = 4, FS_SIZE_GROUPONLY = 28,
    FS_SIZE_SHIELDHULL = 6, FS_SIZE_SHIPHIT = 60, FS_SIZE_SHORTSHIPHIT = 40, FS_SIZE_BGOUPDATE = 12,
    FS_SIZE_SHORTSTATS = 4 + 2 * 32, FS_SIZE_TEAMGOALS = 2 + 2 * 4, FS_SIZE_SERVERSCORED = 4,
    FS_SIZE_INIT = 268, FS_SIZE_SHORTPICKUP = 4 + 5 * 52, FS_SIZE_SHORTMINE = 4 + 3 * 76,
    FS_SIZE_SHORTREGENSLOT = 4 + 6 * 40, FS_SIZE_SHORTTRIGGER = 4 + 60 * 4, FS_SIZE_SHORTTRIGVAR = 4 + 60 * 4,
    FS_SIZE_INTERPOLATE = 48, FS_SIZE_VERYSHORTINTERPOLATE = 32, FS_SIZE_BOMB = 8, FS_SIZE_PING = 16,
    FS_SIZE_LONGSTATUS = 88, FS_SIZE_LONGSTATUS_SHORT = 68, FS_SIZE_SETTIME = 8, FS_SIZE_ACK = 12,
    FS_SIZE_GUARANTEED = 24, FS_SIZE_YOUQUIT = 3, FS_SIZE_SERVERUPDATE = 72, FS_SIZE_GAMEPARAMETERS = 28,
    FS_SIZE_TOSERVER = 4, FS_SIZE_LEVELNAMES = 5 + 8 * 8, FS_SIZE_TRACKERINFO = 28, FS_SIZE_VERYSHORTDROP = 36,
    FS_SIZE_BIGPACKET = 3                    // code, sender, the 0 that ends the list
};

// Lists the host sends a joiner (MAXGEN*COUNT) and other counts of the game's structs.
enum {
    FS_GEN_PICKUPS = 5, FS_GEN_MINES = 3, FS_GEN_REGENSLOTS = 6, FS_GEN_TRIGGERS = 60, FS_GEN_TRIGVARS = 60,
    FS_LEVELNAMES_BATCH = 8,
    FS_GUARANTEED_MSG_AT = 21,               // GUARANTEEDMSG.StartOfMessage: the wrapped message
    FS_BIGPACKET_FIRST = 2,                  // the first packed message
    FS_MAX_NESTING = 4                       // messages inside messages inside ... (the game has at most 2)
};

// Ship flag bits (the u32 of every update message).
enum {
    FS_SHIP_ENABLE = 1u << 10, FS_SHIP_SECFIRE = 1u << 13, FS_SHIP_PRIMFIRE = 1u << 15,
    FS_SHIP_STEALTH = 1u << 16, FS_SHIP_INVUL = 1u << 20, FS_SHIP_LIGHT = 1u << 30,
    FS_SHIP_MODE_SHIFT = 6           // 2 bits: 0 normal, 1 dying, 2 limbo (blown up)
};

// Scales of the short encodings.
#define FS_BANK_MAX 30.0f            // degrees; banks are int16 * 30 / 32767 in every update
#define FS_ROT_MAX 45.0f             // very short rotation: int16 * 45 / 32767
#define FS_UNIT_SCALE 32767.0f       // short unit vectors and short quaternions
#define FS_SPEED_SCALE 256.0f        // 8.8 fixed point

typedef struct {
    uint32_t version;
    uint16_t seed1, seed2;
    uint32_t random_pickups;
    uint64_t pickup_flags;       // one bit per pickup type allowed
    uint32_t game_flags;         // team / CTF / flag / bounty game bits
    uint16_t start_pos_modify;
    char level[FS_LEVEL_MAX];    // short level name, e.g. "ship"
} fs_header_t;

// A ship update: UPDATE, FUPDATE, VERYSHORTUPDATE, VERYSHORTFUPDATE.
typedef struct {
    uint8_t player;
    uint32_t flags;
    uint8_t status;              // ship mode / game status byte (not in the F variants)
    uint8_t group;               // level section the ship is in
    uint8_t primary, secondary;  // F variants only
    uint8_t charge;              // trojax power level, F variants only
    float pos[3];
    float vel[3];                // very short: direction * speed (x16)
    float rot[3];                // rotation speeds, degrees
    float bank;                  // degrees
    float quat[4];               // w, x, y, z (very short: short quaternion / 32767)
} fs_ship_t;

typedef struct {                 // SECBULLPOSDIR: a secondary weapon left a ship (a mine laid)
    uint8_t player;
    uint16_t owner_type, owner, bullet_id, group;
    float pos[3], offset[3], dir[3], up[3], drop_dir[3];
    uint8_t weapon;
} fs_secbull_t;

typedef struct {
    uint8_t player;
    uint16_t owner_type, owner, bullet_id, group;
    float pos[3], offset[3], up[3], drop_dir[3];
    float dirs[FS_NUM_TITANBITS][3];
    uint8_t weapon;
} fs_titanbits_t;

typedef struct {
    uint8_t player;
    uint16_t owner, group;
    float pos[3];
    uint8_t weapon;
    float size;
} fs_shockwave_t;

// MSG_STATUS's game status values (the game's Main.h) that mean the player is gone
enum { FS_STATUS_LEFT = 0x10, FS_STATUS_LEFT_CRASHED = 0xfe };

typedef struct {
    uint8_t player;
    uint32_t is_host;
    uint8_t status, team;
    uint16_t team_score;
    uint32_t ready;
    uint8_t pickups, regen_slots, mines, triggers, trig_vars;
    float packets_per_second;
    int has_checksum;            // the 40-byte layout with the level checksum
    uint64_t level_checksum;
} fs_status_t;

typedef struct {
    uint8_t player, killer, type, weapon_type, weapon;
    float pos[3];
} fs_shipdied_t;

typedef struct {
    uint8_t player;
    uint16_t id;
    int16_t type;
    uint16_t group;
    float pos[3], dir[3];
    float speed;
    int16_t regen_slot;
    uint32_t sparkle;
    float life_count;
    uint16_t trigger_mod;
} fs_droppickup_t;

typedef struct {
    uint8_t player;
    int16_t owner;
    uint16_t id;
    int16_t style;
    uint16_t new_owner;          // MSG_SERVERKILLPICKUP only
} fs_killpickup_t;

typedef struct {                 // PRIMBULLPOSDIR
    uint8_t player;
    uint16_t owner_type, owner, bullet_id;
    uint8_t weapon;
    uint16_t group;
    float pos[3], offset[3], dir[3], up[3];
    int16_t power_level;
    float plevel;
} fs_primbull_t;

typedef struct {                 // EXPSECONDARY
    uint8_t player;
    uint16_t owner_type, owner, id;
    float size;
    float pos[3];
    uint16_t group;
} fs_expsecondary_t;

typedef struct {                 // SERVERSAYSSHIPDIED
    uint8_t player, victim, killer, type, weapon_type, weapon;
    float pos[3];
    int16_t deaths;
} fs_serverdied_t;

typedef struct {
    uint8_t player;
    uint16_t ping[FS_MAX_PLAYERS];
} fs_pings_t;

typedef struct {
    uint8_t player;
    uint16_t ship;
} fs_explodeship_t;

typedef struct {                 // SHIELDHULL: the sender's own shield and hull, 0..255 each
    uint8_t player;
    uint8_t shield, hull;
    uint8_t valid_change, count;
} fs_shieldhull_t;

typedef struct {                 // SHIPHIT / SHORTSHIPHIT: WhoHitYou (player) hit You (victim)
    uint8_t player, victim;
    float damage, force;
    float recoil[3], point[3], dir[3];   // SHORTSHIPHIT: the int16 values as sent
    uint8_t weapon_type, weapon;
    uint32_t one_off;            // OneOffExternalForce: BOOL (SHIPHIT), u16 (SHORTSHIPHIT)
    uint16_t recoil_scalar;      // SHORTSHIPHIT only
    int16_t deaths;              // the victim's deaths as the hitter knew them
} fs_shiphit_t;

typedef struct {                 // BGOUPDATE (BGOUPDATEINFO): u16 object at 2, s16 state at 4, f32 time at 8
    uint8_t player;
    uint16_t object;             // index into the level's .BGO list
    int16_t state;               // doors: 0 closed, 1 opening, 2 open, 3 closing, 4 reverse opening, 5 reverse closing
    float time;                  // the object's animation time, 60ths of a second of its .COB
} fs_bgoupdate_t;

typedef struct {                 // SHORTSTATS: WhosStats at 2, int16 x MAX_PLAYERS at 4
    uint8_t player, whose;
    int16_t stats[FS_MAX_PLAYERS];   // how often `whose` killed player i (the game's KillStats row)
} fs_shortstats_t;

typedef struct {                 // TEAMGOALS (TEAMGOALSINFO): u16 x MAX_TEAMS at 2
    uint8_t player;
    uint16_t goals[4];
} fs_teamgoals_t;

typedef struct {                 // SERVERSCORED: WhoScored at 2, Score at 3
    uint8_t player, who, score;
} fs_serverscored_t;

typedef struct {                 // one pickup of a MSG_SHORTPICKUP list (SHORTPICKUP, 52 bytes)
    int16_t type, group;
    uint16_t owner, id;          // owner 0xffff: a pickup of the level (no player dropped it)
    float pos[3], dir[3];
    int16_t regen_slot;
    float speed;
    uint32_t sparkle;
    float life_count;
    uint16_t trigger_mod;
} fs_pickupinfo_t;

typedef struct {                 // one mine of a MSG_SHORTMINE list (SHORTMINE, 76 bytes)
    uint16_t owner_type, owner, bullet_id, group;
    float pos[3], offset[3], dir[3], up[3], drop_dir[3];
    uint16_t weapon;
    float life_count;
} fs_mineinfo_t;

typedef struct {                 // one slot of a MSG_SHORTREGENSLOT list (SHORTREGENSLOT, 40 bytes)
    uint16_t gen_type, regen_type;
    float gen_delay, lifespan, wait;   // 60ths of a second
    int16_t status, group;
    float pos[3];
    uint16_t type, trigger_mod, pickup_index, pickup_id;
} fs_regenslot_t;

typedef struct {                 // SHORTPICKUP / SHORTMINE / SHORTREGENSLOT / SHORTTRIGGER / SHORTTRIGVAR
    uint8_t player;
    uint8_t count;               // HowMany...: the valid entries (the game sends all slots)
    uint8_t batch;               // which part of the whole list (the joiner's countdown)
    union {
        fs_pickupinfo_t pickups[FS_GEN_PICKUPS];
        fs_mineinfo_t mines[FS_GEN_MINES];
        fs_regenslot_t slots[FS_GEN_REGENSLOTS];
        int32_t states[FS_GEN_TRIGGERS];   // SHORTTRIGGER.Active / SHORTTRIGVAR.State
    } e;
} fs_list_t;

typedef struct {                 // INITMSG
    uint8_t player, you_are, status;
    uint32_t ready[FS_MAX_PLAYERS];
    uint8_t team[FS_MAX_PLAYERS];
    float packets_per_second;
    char level[33];
    uint32_t pickup_flags[2];
    int16_t goal_score, bounty_interval;
    uint32_t random_pickups;
    uint16_t seed1, seed2;
    uint32_t user3, server_collisions;
    int16_t primary_pickups;
    uint32_t from_dpid;
    uint8_t game_status[FS_MAX_PLAYERS];
} fs_init_t;

typedef struct {                 // INTERPOLATE / VERYSHORTINTERPOLATE: ship `player` is at pos at next_time
    uint8_t player;
    float pos[3];
    float quat[4];               // w x y z (very short: / 32767)
    float bank;                  // degrees (very short: int16 x 30 / 32767)
    uint64_t next_time;          // demo ticks, the clock of the event headers
} fs_interp_t;

typedef struct {                 // LONGSTATUS: a whole STATUSMSG (its own code and player), level name, start modifier
    uint8_t player;
    fs_status_t status;          // status.player: the player the status is about
    char level[33];
    uint16_t start_pos_modify;
} fs_longstatus_t;

typedef struct {                 // GUARANTEEDMSG; the wrapped message at 21 is decoded on its own
    uint8_t player;
    uint32_t ack, id, override_older, all_players;
    uint8_t count, inner_code;
} fs_guaranteed_t;

typedef struct {                 // the small ones: BOMB, PING*, SETTIME, ACKMSG, YOUQUIT, TOSERVER/TOCLIENT
    uint8_t player;
    uint8_t a, b;                // BOMB: who got hit, bomb; PING: to you, pad; ACK: ack to; YOUQUIT: you;
                                 // TOSERVER/TOCLIENT: type, data
    uint32_t id;                 // ACKMSG
    float f;                     // BOMB: bomb time; SETTIME: time
    uint64_t time;               // PING*: the sender's counter
} fs_small_t;

typedef struct {                 // SERVERUPDATE
    uint8_t player;
    uint32_t players;            // one bit per player in the game
    uint8_t group[FS_MAX_PLAYERS], status[FS_MAX_PLAYERS];
} fs_serverupdate_t;

typedef struct {                 // GAMEPARAMETERS
    uint8_t player;
    char level[9];
    uint8_t score_limit, time_limit;
    uint32_t game_info, allowed[2];
    int16_t primary_pickups;
    uint16_t max_players;
} fs_gameparams_t;

typedef struct {                 // LEVELNAMES
    uint8_t player, total, batch, first;
    char names[FS_LEVELNAMES_BATCH][9];
} fs_levelnames_t;

typedef struct {                 // TRACKERINFO
    uint8_t player;
    uint32_t addr;
    uint16_t port;
    uint32_t freq;
    int32_t type;
    uint32_t shutdown, gamespy;
} fs_tracker_t;

typedef struct {
    uint8_t player, old_player, old_team;
    uint32_t id;
    uint32_t rejoining;
} fs_hereiam_t;

typedef struct {
    uint8_t player;
    int16_t kills, deaths;
    uint8_t bike;
} fs_bikenum_t;

typedef struct {
    uint8_t player;
    char name[FS_NAME_LEN + 1];
} fs_name_t;

typedef struct {
    uint8_t player;
    char text[FS_TEXT_LEN + 1];
    uint8_t type;                // 0..2 taunts, 5 chat; others are game announcements
} fs_text_t;

typedef struct {
    uint64_t timestamp;
    uint32_t size;
    uint32_t sender;
    size_t offset;               // file offset of the event header (a packed message: of the message)
    size_t at;                   // file offset of the payload (the message code)
    int depth;                   // 0: an event; 1..: a message inside a GUARANTEEDMSG or BIGPACKET
    uint8_t type;                // message code
    int known;                   // 0: unknown code (or too short for its layout), skipped by size
    union {
        uint8_t player;          // SENDKILLSDEATHSBIKENUM
        fs_name_t name;
        fs_bikenum_t bikenum;
        fs_hereiam_t hereiam;
        fs_ship_t ship;
        fs_secbull_t mine;
        fs_status_t status;
        fs_shipdied_t died;
        fs_droppickup_t drop;
        fs_killpickup_t kill;
        fs_titanbits_t titan;
        fs_shockwave_t shock;
        fs_text_t text;
        fs_primbull_t prim;
        fs_expsecondary_t expsec;
        fs_serverdied_t sdied;
        fs_pings_t pings;
        fs_explodeship_t explode;
        fs_shieldhull_t shieldhull;
        fs_shiphit_t hit;
        fs_bgoupdate_t bgo;
        fs_shortstats_t stats;
        fs_teamgoals_t goals;
        fs_serverscored_t scored;
        fs_droppickup_t vsdrop;  // VERYSHORTDROPPICKUP, in the long form's units
        fs_list_t list;
        fs_init_t init;
        fs_interp_t interp;
        fs_longstatus_t lstatus;
        fs_guaranteed_t guar;
        fs_small_t small;
        fs_serverupdate_t supdate;
        fs_gameparams_t params;
        fs_levelnames_t levels;
        fs_tracker_t tracker;
    } u;
} fs_event_t;

// "MSG_UPDATE" ..., or NULL for an unknown code.
const char *fs_msg_name(uint8_t code);

// The size the game gives message `code` (its RealPacketSize table: the struct's size,
// MSG_STATUS and MSG_LONGSTATUS with the level checksum), 0 for a code it has no size for.
// This is how far a MSG_BIGPACKET steps, and what a MSG_GUARANTEEDMSG wraps.
size_t fs_msg_size(uint8_t code);
// The fewest bytes a decoded `code` needs (its layout; the old MSG_STATUS / LONGSTATUS without the checksum).
size_t fs_msg_min_size(uint8_t code);

// Parse the payload p[0..n) (file offset base) into ev->type/known/u. Always 0: a code
// the game does not define, or a payload shorter than its layout, leaves ev->known 0
// (the caller skips it by its size and says so); err is not used.
int fs_parse_payload(const uint8_t *p, size_t n, size_t base, fs_event_t *ev, dec_error_t *err);

// The next message packed in a MSG_BIGPACKET payload p[0..n) (the game's EvaluateMessage):
// from *pos (FS_BIGPACKET_FIRST at first) a message of fs_msg_size(code) bytes -- a
// GUARANTEEDMSG 23 + its wrapped message's size -- then its f32 frame lag (0..300 game ticks),
// until a 0 code. Returns 1 with *msg, *len, *framelag and *pos moved on; 0 at the 0 code;
// -1 when the rest cannot be read (err says where and what was expected).
int fs_bigpacket_next(const uint8_t *p, size_t n, size_t base, size_t *pos, size_t *msg, size_t *len,
                      float *framelag, dec_error_t *err);

// Parse the header at data[0..size); returns its length, or -1 with err set.
long fs_parse_header(const uint8_t *data, size_t size, fs_header_t *h, dec_error_t *err);

// Orientation: a ship quaternion (w, x, y, z) and bank (degrees) to pitch, yaw,
// roll in degrees (definition in docs/forsaken.md), and back (the writer's side).
void fs_quat_to_angles(const float q[4], float bank, float angles[3]);
void fs_angles_to_quat(const float angles[3], float q[4]);

#endif
