// forsaken_fields.c -- the field tables of the Forsaken messages (see forsaken_fields.h)
//
// Rows are in dump order; each names its own payload offset, so the order of the
// wire does not matter. Offsets and types are the game's structs (Mydplay.h of the
// released source, natural alignment), as listed in docs/forsaken.md.
#include "forsaken_fields.h"

// F(dump key, FS_D_ how shown, FS_K_ kind, elements, payload offset, struct member of T)
#define F(key, dump, kind, n, wire, member) \
    { key, FS_D_##dump, FS_K_##kind, n, wire, (uint16_t)offsetof(T, member) }
#define PLAYER F("player", INT, U8, 1, 1, player)
#define TABLE(name) static const fs_field_t name##_f[]
#define FIELDS(name) { name##_f, (uint8_t)(sizeof name##_f / sizeof name##_f[0]), 0 }

#define T fs_name_t
TABLE(player_only) = { PLAYER };   // SENDKILLSDEATHSBIKENUM, REQTIME, ALIVE, BIGPACKET: ev->u.player
TABLE(name) = { PLAYER, F("name", STR, STR, FS_NAME_LEN, 2, name) };
#undef T

#define T fs_bikenum_t
TABLE(bikenum) = {
    PLAYER, F("kills", INT, S16, 1, 2, kills), F("deaths", INT, S16, 1, 4, deaths), F("bike", INT, U8, 1, 6, bike),
};
#undef T

#define T fs_hereiam_t
TABLE(hereiam) = {
    PLAYER, F("old_player", INT, U8, 1, 2, old_player), F("old_team", INT, U8, 1, 3, old_team),
    F("id", INT, U32, 1, 4, id), F("rejoining", INT, U32, 1, 8, rejoining),
};
#undef T

#define T fs_secbull_t
TABLE(secbull) = {
    PLAYER,
    F("owner_type", INT, U16, 1, 4, owner_type),
    F("owner", INT, U16, 1, 6, owner),
    F("bullet_id", INT, U16, 1, 8, bullet_id),
    F("group", INT, U16, 1, 10, group),
    F("pos", VEC, F32, 3, 12, pos),
    F("offset", VEC, F32, 3, 24, offset),
    F("dir", VEC, F32, 3, 36, dir),
    F("up", VEC, F32, 3, 48, up),
    F("drop_dir", VEC, F32, 3, 60, drop_dir),
    F("weapon", INT, U8, 1, 72, weapon),   // an int8 and three bytes of padding
};
#undef T

#define T fs_titanbits_t
TABLE(titanbits) = {
    PLAYER,
    F("owner_type", INT, U16, 1, 4, owner_type),
    F("owner", INT, U16, 1, 6, owner),
    F("bullet_id", INT, U16, 1, 8, bullet_id),
    F("group", INT, U16, 1, 10, group),
    F("pos", VEC, F32, 3, 12, pos),
    F("offset", VEC, F32, 3, 24, offset),
    F("up", VEC, F32, 3, 36, up),
    F("drop_dir", VEC, F32, 3, 48, drop_dir),
    F("dirs", VEC, F32, 3 * FS_NUM_TITANBITS, 60, dirs),
    F("weapon", INT, U8, 1, 180, weapon),
};
#undef T

#define T fs_shockwave_t
TABLE(shockwave) = {
    PLAYER,
    F("owner", INT, U16, 1, 4, owner),
    F("group", INT, U16, 1, 6, group),
    F("pos", VEC, F32, 3, 8, pos),
    F("weapon", INT, U8, 1, 20, weapon),
    F("shockwave_size", NUM, F32, 1, 24, size),
};
#undef T

#define T fs_shipdied_t
TABLE(shipdied) = {
    PLAYER,
    F("killer", INT, U8, 1, 2, killer),
    F("died_type", INT, U8, 1, 3, type),
    F("weapon_type", INT, U8, 1, 4, weapon_type),
    F("weapon", INT, U8, 1, 5, weapon),
    F("pos", VEC, F32, 3, 8, pos),
};
#undef T

#define T fs_droppickup_t
TABLE(droppickup) = {
    PLAYER,
    F("id", INT, U16, 1, 4, id),
    F("pickup_type", INT, S16, 1, 6, type),
    F("group", INT, U16, 1, 8, group),
    F("pos", VEC, F32, 3, 12, pos),
    F("dir", VEC, F32, 3, 24, dir),
    F("speed", NUM, F32, 1, 36, speed),
    F("regen_slot", INT, S16, 1, 40, regen_slot),
    F("sparkle", INT, U32, 1, 44, sparkle),
    F("life_count", NUM, F32, 1, 48, life_count),
    F("trigger_mod", INT, U16, 1, 52, trigger_mod),
};
#undef T

#define T fs_killpickup_t
TABLE(serverkillpickup) = {   // MSG_KILLPICKUP: all but new_owner
    PLAYER, F("owner", INT, S16, 1, 2, owner), F("id", INT, U16, 1, 4, id), F("style", INT, S16, 1, 6, style),
    F("new_owner", INT, U16, 1, 8, new_owner),
};
#undef T

#define T fs_text_t
TABLE(text) = {
    PLAYER, F("text_type", INT, U8, 1, 130, type), F("text", STR, STR, FS_TEXT_LEN, 2, text),
};
#undef T

#define T fs_primbull_t
TABLE(primbull) = {
    PLAYER,
    F("owner_type", INT, U16, 1, 4, owner_type),
    F("owner", INT, U16, 1, 6, owner),
    F("bullet_id", INT, U16, 1, 8, bullet_id),
    F("weapon", INT, U8, 1, 10, weapon),
    F("group", INT, U16, 1, 12, group),
    F("pos", VEC, F32, 3, 16, pos),
    F("offset", VEC, F32, 3, 28, offset),
    F("dir", VEC, F32, 3, 40, dir),
    F("up", VEC, F32, 3, 52, up),
    F("power_level", INT, S16, 1, 64, power_level),
    F("plevel", NUM, F32, 1, 68, plevel),
};
#undef T

#define T fs_expsecondary_t
TABLE(expsecondary) = {
    PLAYER,
    F("owner_type", INT, U16, 1, 4, owner_type),
    F("owner", INT, U16, 1, 6, owner),
    F("id", INT, U16, 1, 8, id),
    F("shockwave_size", NUM, F32, 1, 12, size),
    F("pos", VEC, F32, 3, 16, pos),
    F("group", INT, U16, 1, 28, group),
};
#undef T

#define T fs_serverdied_t
TABLE(serverdied) = {
    PLAYER,
    F("victim", INT, U8, 1, 2, victim),
    F("killer", INT, U8, 1, 3, killer),
    F("died_type", INT, U8, 1, 4, type),
    F("weapon_type", INT, U8, 1, 5, weapon_type),
    F("weapon", INT, U8, 1, 6, weapon),
    F("pos", VEC, F32, 3, 8, pos),
    F("deaths", INT, S16, 1, 20, deaths),
};
#undef T

#define T fs_pings_t
TABLE(pings) = { PLAYER, F("pings", FVEC, U16, FS_MAX_PLAYERS, 2, ping) };
#undef T

#define T fs_explodeship_t
TABLE(explodeship) = { PLAYER, F("ship", INT, U16, 1, 2, ship) };
#undef T

#define T fs_shieldhull_t
TABLE(shieldhull) = {
    PLAYER, F("shield", INT, U8, 1, 2, shield), F("hull", INT, U8, 1, 3, hull),
    F("valid_change", INT, U8, 1, 4, valid_change), F("count", INT, U8, 1, 5, count),
};
#undef T

#define T fs_shiphit_t
TABLE(shiphit) = {   // 3 bytes, SHIPHIT at 4 (52 bytes), int16 deaths at 56
    PLAYER,
    F("victim", INT, U8, 1, 2, victim),
    F("damage", NUM, F32, 1, 4, damage),
    F("force", NUM, F32, 1, 48, force),
    F("recoil", VEC, F32, 3, 8, recoil),
    F("point", VEC, F32, 3, 20, point),
    F("dir", VEC, F32, 3, 32, dir),
    F("weapon_type", INT, U8, 1, 44, weapon_type),
    F("weapon", INT, U8, 1, 45, weapon),
    F("one_off", INT, U32, 1, 52, one_off),
    F("deaths", INT, S16, 1, 56, deaths),
};
TABLE(shortshiphit) = {   // 3 bytes, SHORTSHIPHIT at 4 (32 bytes), int16 deaths at 36
    PLAYER,
    F("victim", INT, U8, 1, 2, victim),
    F("damage", NUM, F32, 1, 4, damage),
    F("force", NUM, F32, 1, 8, force),
    F("recoil", VEC, S16_F32, 3, 12, recoil),
    F("point", VEC, S16_F32, 3, 18, point),
    F("dir", VEC, S16_F32, 3, 24, dir),
    F("weapon_type", INT, U8, 1, 30, weapon_type),
    F("weapon", INT, U8, 1, 31, weapon),
    F("one_off", INT, U16_U32, 1, 32, one_off),
    F("recoil_scalar", INT, U16, 1, 34, recoil_scalar),
    F("deaths", INT, S16, 1, 36, deaths),
};
#undef T

#define T fs_bgoupdate_t
TABLE(bgoupdate) = {
    PLAYER, F("object", INT, U16, 1, 2, object), F("state", INT, S16, 1, 4, state),
    F("anim_time", NUM, F32, 1, 8, time),
};
#undef T

#define T fs_shortstats_t
TABLE(shortstats) = {
    PLAYER, F("whose", INT, U8, 1, 2, whose), F("kills", FVEC, S16, FS_MAX_PLAYERS, 4, stats),
};
#undef T

#define T fs_teamgoals_t
TABLE(teamgoals) = { PLAYER, F("team_goals", FVEC, U16, 4, 2, goals) };
#undef T

#define T fs_serverscored_t
TABLE(serverscored) = { PLAYER, F("who_scored", INT, U8, 1, 2, who), F("score", INT, U8, 1, 3, score) };
#undef T

#define T fs_init_t
TABLE(init) = {
    PLAYER,
    F("you_are", INT, U8, 1, 2, you_are),
    F("status", INT, U8, 1, 3, status),
    F("ready", IVEC, U32, FS_MAX_PLAYERS, 4, ready),
    F("teams", IVEC, U8, FS_MAX_PLAYERS, 132, team),
    F("packets_per_second", NUM, F32, 1, 164, packets_per_second),
    F("level", STR, STR_FULL, 32, 168, level),
    F("pickup_flags", HEX2, U32, 2, 200, pickup_flags),
    F("goal_score", INT, S16, 1, 208, goal_score),
    F("bounty_interval", INT, S16, 1, 210, bounty_interval),
    F("random_pickups", INT, U32, 1, 212, random_pickups),
    F("seed1", INT, U16, 1, 216, seed1),
    F("seed2", INT, U16, 1, 218, seed2),
    F("user3", HEX, U32, 1, 220, user3),
    F("server_collisions", INT, U32, 1, 224, server_collisions),
    F("primary_pickups", INT, S16, 1, 228, primary_pickups),
    F("from_dpid", INT, U32, 1, 232, from_dpid),
    F("game_status", IVEC, U8, FS_MAX_PLAYERS, 236, game_status),
};
#undef T

#define T fs_small_t
TABLE(bomb) = {
    PLAYER, F("who_got_hit", INT, U8, 1, 2, a), F("bomb", INT, U8, 1, 3, b), F("bomb_time", NUM, F32, 1, 4, f),
};
TABLE(ping) = {
    PLAYER, F("to_you", INT, U8, 1, 2, a), F(NULL, NONE, U8, 1, 3, b), F("ping_ticks", INT, U64, 1, 8, time),
};
TABLE(settime) = { PLAYER, F("countdown", NUM, F32, 1, 4, f) };
TABLE(ackmsg) = { PLAYER, F("id", INT, U32, 1, 4, id), F("ack_to", INT, U8, 1, 8, a) };
TABLE(youquit) = { PLAYER, F("you", INT, U8, 1, 2, a) };
TABLE(toserver) = { PLAYER, F("request", INT, U8, 1, 2, a), F("data", INT, U8, 1, 3, b) };   // and TOCLIENT
#undef T

#define T fs_guaranteed_t
TABLE(guaranteed) = {   // the wrapped message at 21 is decoded on its own
    PLAYER,
    F("ack", HEX, U32, 1, 4, ack),
    F("id", INT, U32, 1, 8, id),
    F("override_older", INT, U32, 1, 12, override_older),
    F("all_players", INT, U32, 1, 16, all_players),
    F("count", INT, U8, 1, 20, count),
    F("message", MSGNAME, U8, 1, 21, inner_code),
};
#undef T

#define T fs_serverupdate_t
TABLE(serverupdate) = {
    PLAYER,
    F("players", HEX, U32, 1, 4, players),
    F("groups", IVEC, U8, FS_MAX_PLAYERS, 8, group),
    F("game_status", IVEC, U8, FS_MAX_PLAYERS, 40, status),
};
#undef T

#define T fs_gameparams_t
TABLE(gameparams) = {
    PLAYER,
    F("level", STR, STR, 8, 2, level),
    F("score_limit", INT, U8, 1, 10, score_limit),
    F("time_limit", INT, U8, 1, 11, time_limit),
    F("game_info", HEX, U32, 1, 12, game_info),
    F("allowed_pickups", HEX2, U32, 2, 16, allowed),
    F("primary_pickups", INT, S16, 1, 24, primary_pickups),
    F("max_players", INT, U16, 1, 26, max_players),
};
#undef T

#define T fs_levelnames_t
TABLE(levelnames) = {   // dump shows the first `batch` names (forsaken.c)
    PLAYER,
    F("total", INT, U8, 1, 2, total),
    F("batch", INT, U8, 1, 3, batch),
    F("first", INT, U8, 1, 4, first),
    F(NULL, NONE, STR, 8, 5, names[0]),
    F(NULL, NONE, STR, 8, 13, names[1]),
    F(NULL, NONE, STR, 8, 21, names[2]),
    F(NULL, NONE, STR, 8, 29, names[3]),
    F(NULL, NONE, STR, 8, 37, names[4]),
    F(NULL, NONE, STR, 8, 45, names[5]),
    F(NULL, NONE, STR, 8, 53, names[6]),
    F(NULL, NONE, STR, 8, 61, names[7]),
};
#undef T

#define T fs_tracker_t
TABLE(tracker) = {
    PLAYER,
    F("addr", HEX, U32, 1, 4, addr),
    F("port", INT, U16, 1, 8, port),
    F("freq", INT, U32, 1, 12, freq),
    F("heartbeat_type", INT, S32, 1, 16, type),
    F("shutdown", INT, U32, 1, 20, shutdown),
    F("gamespy", INT, U32, 1, 24, gamespy),
};
#undef T

// ---- parts of the layouts that are code --------------------------------------

#define T fs_ship_t
TABLE(ship) = {   // UPDATE, VERYSHORTUPDATE: the head before the movement (code)
    PLAYER, F("flags", HEX, U32, 1, 4, flags), F("status", INT, U8, 1, 8, status), F("group", INT, U8, 1, 9, group),
};
TABLE(fship) = {   // FUPDATE, VERYSHORTFUPDATE, GROUPONLY_VERYSHORTFUPDATE
    PLAYER,
    F("flags", HEX, U32, 1, 4, flags),
    F("primary", INT, U8, 1, 8, primary),
    F("secondary", INT, U8, 1, 9, secondary),
    F("charge", INT, U8, 1, 11, charge),
    F("group", INT, U8, 1, 10, group),
};
#undef T

#define T fs_status_t
TABLE(status) = {   // a STATUSMSG from its code; the level checksum at 32 is code (two sizes)
    PLAYER,
    F("is_host", INT, U32, 1, 4, is_host),
    F("status", INT, U8, 1, 8, status),
    F("team", INT, U8, 1, 9, team),
    F("team_score", INT, U16, 1, 10, team_score),
    F("ready", INT, U32, 1, 12, ready),
    F("pickups", INT, U8, 1, 16, pickups),
    F("regen_slots", INT, U8, 1, 17, regen_slots),
    F("mines", INT, U8, 1, 18, mines),
    F("triggers", INT, U8, 1, 19, triggers),
    F("trig_vars", INT, U8, 1, 20, trig_vars),
    F("packets_per_second", NUM, F32, 1, 24, packets_per_second),
};
#undef T

#define T fs_pickupinfo_t
TABLE(pickupinfo) = {   // SHORTPICKUP, from the entry's start
    F("type", INT, S16, 1, 0, type),
    F("group", INT, S16, 1, 2, group),
    F("owner", INT, U16, 1, 4, owner),
    F("id", INT, U16, 1, 6, id),
    F("pos", VEC, F32, 3, 8, pos),
    F("dir", VEC, F32, 3, 20, dir),
    F("regen_slot", INT, S16, 1, 32, regen_slot),
    F("speed", NUM, F32, 1, 36, speed),
    F("sparkle", INT, U32, 1, 40, sparkle),
    F("life_count", NUM, F32, 1, 44, life_count),
    F("trigger_mod", INT, U16, 1, 48, trigger_mod),
};
#undef T

#define T fs_mineinfo_t
TABLE(mineinfo) = {   // SHORTMINE, from the entry's start
    F("owner_type", INT, U16, 1, 0, owner_type),
    F("owner", INT, U16, 1, 2, owner),
    F("bullet_id", INT, U16, 1, 4, bullet_id),
    F("group", INT, U16, 1, 6, group),
    F("pos", VEC, F32, 3, 8, pos),
    F("offset", VEC, F32, 3, 20, offset),
    F("dir", VEC, F32, 3, 32, dir),
    F("up", VEC, F32, 3, 44, up),
    F("drop_dir", VEC, F32, 3, 56, drop_dir),
    F("weapon", INT, U16, 1, 68, weapon),
    F("life_count", NUM, F32, 1, 72, life_count),
};
#undef T

#define T fs_regenslot_t
TABLE(regenslot) = {   // SHORTREGENSLOT, from the entry's start
    F("gen_type", INT, U16, 1, 0, gen_type),
    F("regen_type", INT, U16, 1, 2, regen_type),
    F("gen_delay", NUM, F32, 1, 4, gen_delay),
    F("lifespan", NUM, F32, 1, 8, lifespan),
    F("wait", NUM, F32, 1, 12, wait),
    F("status", INT, S16, 1, 16, status),
    F("group", INT, S16, 1, 18, group),
    F("pos", VEC, F32, 3, 20, pos),
    F("type", INT, U16, 1, 32, type),
    F("trigger_mod", INT, U16, 1, 34, trigger_mod),
    F("pickup_index", INT, U16, 1, 36, pickup_index),
    F("pickup_id", INT, U16, 1, 38, pickup_id),
};
#undef T

const fs_fields_t fs_ship_fields = FIELDS(ship);
const fs_fields_t fs_fship_fields = FIELDS(fship);
const fs_fields_t fs_status_fields = FIELDS(status);
const fs_fields_t fs_pickupinfo_fields = FIELDS(pickupinfo);
const fs_fields_t fs_mineinfo_fields = FIELDS(mineinfo);
const fs_fields_t fs_regenslot_fields = FIELDS(regenslot);

// ---- the messages whose whole layout is a table --------------------------------

#define NO_WRITER(name) { name##_f, (uint8_t)(sizeof name##_f / sizeof name##_f[0]), 1 }

static const fs_fields_t by_code[256] = {
    [FS_MSG_NAME] = FIELDS(name),
    [FS_MSG_KILLSDEATHSBIKENUM] = FIELDS(bikenum),
    [FS_MSG_HEREIAM] = FIELDS(hereiam),
    [FS_MSG_SENDKILLSDEATHSBIKENUM] = FIELDS(player_only),
    [FS_MSG_SECBULLPOSDIR] = FIELDS(secbull),
    [FS_MSG_TITANBITS] = FIELDS(titanbits),
    [FS_MSG_SHOCKWAVE] = FIELDS(shockwave),
    [FS_MSG_SHIPDIED] = FIELDS(shipdied),
    [FS_MSG_DROPPICKUP] = FIELDS(droppickup),
    [FS_MSG_KILLPICKUP] = { serverkillpickup_f, 4, 0 },
    [FS_MSG_TEXTMSG] = FIELDS(text),
    [FS_MSG_PRIMBULLPOSDIR] = FIELDS(primbull),
    [FS_MSG_EXPSECONDARY] = FIELDS(expsecondary),
    [FS_MSG_PLAYERPINGS] = FIELDS(pings),
    [FS_MSG_SERVERKILLPICKUP] = FIELDS(serverkillpickup),
    [FS_MSG_SERVERSAYSSHIPDIED] = FIELDS(serverdied),
    [FS_MSG_EXPLODESHIP] = FIELDS(explodeship),
    [FS_MSG_SHIELDHULL] = FIELDS(shieldhull),
    [FS_MSG_SHIPHIT] = FIELDS(shiphit),
    [FS_MSG_SHORTSHIPHIT] = FIELDS(shortshiphit),
    [FS_MSG_BGOUPDATE] = FIELDS(bgoupdate),
    [FS_MSG_SHORTSTATS] = FIELDS(shortstats),
    [FS_MSG_TEAMGOALS] = FIELDS(teamgoals),
    [FS_MSG_SERVERSCORED] = FIELDS(serverscored),
    [FS_MSG_INIT] = FIELDS(init),
    [FS_MSG_BOMB] = FIELDS(bomb),
    [FS_MSG_PINGREQUEST] = FIELDS(ping),
    [FS_MSG_PINGREPLY] = FIELDS(ping),
    [FS_MSG_SETTIME] = FIELDS(settime),
    [FS_MSG_REQTIME] = FIELDS(player_only),
    [FS_MSG_ACKMSG] = FIELDS(ackmsg),
    [FS_MSG_GUARANTEEDMSG] = NO_WRITER(guaranteed),
    [FS_MSG_ALIVE] = FIELDS(player_only),
    [FS_MSG_YOUQUIT] = FIELDS(youquit),
    [FS_MSG_BIGPACKET] = NO_WRITER(player_only),
    [FS_MSG_TRACKERINFO] = FIELDS(tracker),
    [FS_MSG_SERVERUPDATE] = FIELDS(serverupdate),
    [FS_MSG_GAMEPARAMETERS] = FIELDS(gameparams),
    [FS_MSG_TOSERVER] = FIELDS(toserver),
    [FS_MSG_LEVELNAMES] = FIELDS(levelnames),
    [FS_MSG_TOCLIENT] = FIELDS(toserver),
};

const fs_fields_t *fs_msg_fields(uint8_t code)
{
    const fs_fields_t *t = &by_code[code];
    return t->fields ? t : NULL;
}
