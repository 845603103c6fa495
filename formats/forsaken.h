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
    FS_MSG_SERVERSCORED = 0xea                // a server game's score for one player (shown in dump)
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
    FS_SIZE_SHORTSTATS = 4 + 2 * 32, FS_SIZE_TEAMGOALS = 2 + 2 * 4, FS_SIZE_SERVERSCORED = 4
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
    size_t offset;               // file offset of the event header
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
    } u;
} fs_event_t;

// "MSG_UPDATE" ..., or NULL for an unknown code.
const char *fs_msg_name(uint8_t code);

// Parse the payload p[0..n) (file offset base) into ev->type/known/u.
// 0 = parsed (or unknown and to be skipped), -1 = too short for its layout (err set).
int fs_parse_payload(const uint8_t *p, size_t n, size_t base, fs_event_t *ev, dec_error_t *err);

// Parse the header at data[0..size); returns its length, or -1 with err set.
long fs_parse_header(const uint8_t *data, size_t size, fs_header_t *h, dec_error_t *err);

// Orientation: a ship quaternion (w, x, y, z) and bank (degrees) to pitch, yaw,
// roll in degrees (definition in docs/forsaken.md), and back (the writer's side).
void fs_quat_to_angles(const float q[4], float bank, float angles[3]);
void fs_angles_to_quat(const float angles[3], float q[4]);

#endif
