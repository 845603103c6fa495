// world.h -- the format-neutral world state: the one contract between decoders and everything downstream
//
// A decoder (formats/) turns demo bytes into calls on a world_t; the renderer,
// the sound system and the engine read it. Nothing here knows which game wrote
// the demo except `game`, which selects game-specific presentation (HUD, palette
// files) through tables, never through `if (game == ...)` in drawing code.
//
// Life of a server frame, as a decoder drives it:
//   world_begin_frame(w, time)      new frame: bumps w->seq, clears the events
//   world_entity_update(w, n, &st)  once per entity present in this frame
//   world_add_event(w, &ev)         temp entities, sounds, prints ...
//   (stats, view, strings: written directly into the fields below)
//
// Interpolation: each entity keeps the state of the previous frame (`prev`)
// and of this one (`cur`); the renderer draws at any time t between
// w->prev_time and w->time with frac = (t - prev_time) / (time - prev_time).
// An entity is visible when it was updated in the latest frame
// (ent->seq == w->seq), as Quake's client draws only what the last packet named.
//
// Copying: world_clone() makes a tightly sized copy (a seek snapshot) and
// world_restore() copies it back into a full-capacity world. Nothing in a
// world_t points into another world or into the demo bytes.
#ifndef WORLD_H
#define WORLD_H

#include <stddef.h>
#include <stdint.h>

typedef float vec3_t[3];

// Capacities. Set by the largest engines that recorded real demos, not by the
// original specs: FitzQuake/RMQ (protocols 666/999) send 16-bit model and
// sound indices and entity numbers up to 32767; GoldSrc has 512 models.
#define WORLD_MAX_MODELS     4096
#define WORLD_MAX_SOUNDS     4096
#define WORLD_MAX_IMAGES     512      // Quake II CS_IMAGES (HUD pictures)
#define WORLD_MAX_GENERAL    512      // Quake II CS_GENERAL (strings the status bar shows)
#define WORLD_MAX_ITEMS      256      // Quake II CS_ITEMS (item names)
#define WORLD_MAX_ENTITIES   32768
#define WORLD_MAX_STATICS    8192     // static entities (spawnstatic)
#define WORLD_MAX_STATIC_SOUNDS 1024
#define WORLD_MAX_LIGHTSTYLES 256
#define WORLD_MAX_PLAYERS    64
#define WORLD_MAX_STATS      64
#define WORLD_MAX_EVENTS     1024     // per frame; extra events are counted and dropped
#define WORLD_TEXT_ARENA     32768    // per-frame text of events
#define WORLD_NAME_LEN       64       // MAX_QPATH of every game
#define WORLD_STYLE_LEN      64
#define WORLD_MAX_DECALS     512      // GoldSrc MAX_DECALS: decal names a server can precache
#define WORLD_DECAL_NAME_LEN 16       // a WAD lump name
#define WORLD_MAX_DECAL_LOG  256      // GoldSrc: the latest decal makers kept (world_decal_t)
#define WORLD_POV_STATS      32       // a player's own view keeps this many stats (Quake II's MAX_STATS)

typedef enum {
    GAME_NONE = 0,
    GAME_QUAKE,
    GAME_QUAKE2,
    GAME_GOLDSRC,
    GAME_FORSAKEN,
    GAME_COUNT
} world_game_t;

// Effects bits (entity_state.effects), Quake's meanings; other games map theirs.
enum {
    EF_BRIGHTFIELD = 1,
    EF_MUZZLEFLASH = 2,
    EF_BRIGHTLIGHT = 4,
    EF_DIMLIGHT    = 8,
    EF_NODRAW      = 16,   // FitzQuake
    EF_ROTATE      = 32,   // Quake II / generic: rotating pickup
    EF_GIB         = 64,   // blood trail
    EF_ROCKET      = 128,  // rocket trail + light
    EF_GRENADE     = 256,  // smoke trail
    EF_RAW_SHIFT   = 16    // the game's own bits are kept in raw_effects
};

// Render modes (GoldSrc kRender*; Quake is always NORMAL, FitzQuake alpha maps to TEXTURE).
enum { RM_NORMAL = 0, RM_COLOR, RM_TEXTURE, RM_GLOW, RM_SOLID, RM_ADDITIVE };

typedef struct {
    vec3_t origin;
    vec3_t angles;          // pitch, yaw, roll in degrees
    vec3_t old_origin;      // Quake II: beam ends, trail starts
    int32_t modelindex;     // index into models[] (0 = none)
    int32_t modelindex2;    // Quake II: weapon / linked models
    int32_t modelindex3;
    int32_t modelindex4;
    int32_t frame;
    int32_t skin;
    int32_t colormap;       // Quake: player number + 1 (shirt/pants from players[])
    uint32_t effects;       // EF_* above
    uint32_t raw_effects;   // the game's own effect bits, unmapped
    uint32_t renderfx;      // Quake II RF_* / GoldSrc kRenderFx*
    int32_t rendermode;     // RM_*; GoldSrc beams (solid = 1): the beam's type | flags byte (CBeam)
    int32_t renderamt;      // 0..255 alpha / amount; 255 = opaque
    vec3_t rendercolor;     // GoldSrc
    float scale;            // 1.0 = normal
    int32_t sound;          // Quake II looping sound index (0 = none)
    int32_t event;          // Quake II entity event (footstep, teleport ...)
    int32_t solid;          // Quake II packed bbox (prediction only); GoldSrc: 1 a custom (beam) entity
    int32_t body;           // GoldSrc studio body / sequence
    int32_t sequence;
    float animtime;         // GoldSrc: when the sequence frame was set
    float framerate;
    uint8_t controller[4];  // GoldSrc studio bone controllers, 0..255 as sent (what each means: the model's)
    uint8_t blending[2];    // GoldSrc sequence blends, 0..255 (players: the renderer sets [0] from the pitch)
    int32_t gaitsequence;   // GoldSrc players: the legs' sequence (0 = none: the whole body plays `sequence`)
    int32_t weaponmodel;    // GoldSrc players: the held weapon's model index (0 = none)
    uint8_t usehull;        // GoldSrc players: 1 ducking (the ducked hull, 36 high), 0 standing (72)
    // GoldSrc: how the server collides the entity, as its entity_state_t delta sends it (`solid`,
    // 3 bits, and `mins` / `maxs`, the server's pev->mins / maxs about the origin). Kept apart from
    // `solid` above, which says "custom (beam) entity" for GoldSrc. The clients' traces (the
    // physents: engine/hlbullet.c) stop on the box origin + box_mins .. box_maxs of a non-player
    // entity whose solid_type is SOLID_BBOX or SOLID_SLIDEBOX. Other games: 0 and an empty box.
    uint8_t solid_type;     // GoldSrc SOLID_*: 0 not, 1 trigger, 2 bbox, 3 slidebox (monsters, players), 4 bsp
    int32_t owner;          // GoldSrc: the entity that owns it (pev->owner, 0 none); the recording player's
                            // own are left out of his traces
    vec3_t box_mins, box_maxs;
} entity_state_t;

// GoldSrc's SOLID_* (const.h of the SDK), the values of entity_state_t.solid_type.
enum { HL_SOLID_NOT = 0, HL_SOLID_TRIGGER, HL_SOLID_BBOX, HL_SOLID_SLIDEBOX, HL_SOLID_BSP };

typedef struct {
    entity_state_t baseline;
    entity_state_t prev;    // state in the previous frame (== cur if not present then)
    entity_state_t cur;     // state in the latest frame it was present
    uint32_t seq;           // w->seq of the last update; visible iff == w->seq
    int32_t anim_prev_frame; // frame shown before the last frame change
    double anim_start_time; // server time the current frame started (for frame lerp)
    uint8_t lerp_ok;        // 0 when it teleported or (re)appeared: draw cur, no lerp
    uint8_t has_baseline;
} world_entity_t;

typedef struct {
    entity_state_t s;
} world_static_t;

typedef struct {
    vec3_t origin;
    int32_t sound;          // index into sounds[]
    float volume;           // 0..1
    float attenuation;      // Quake units: 0 none, 1 normal, 2 idle, 3 static
} world_static_sound_t;

typedef struct {
    char name[WORLD_NAME_LEN];
    int32_t frags;
    int32_t deaths;         // Forsaken
    uint16_t top_color, bottom_color;  // Quake shirt/pants 0..15; GoldSrc topcolor / bottomcolor 0..360
    int32_t entity;         // entity number of the player (-1 unknown)
    int32_t ping;
    char skin[WORLD_NAME_LEN];         // Quake II "name\model/skin", GoldSrc model
    uint8_t active;
    // Forsaken: the ship's own shield and hull as its MSG_SHIELDHULL last said (0..255;
    // -1: the demo has not said), and its team (0..3 from MSG_STATUS; -1 none).
    int16_t shield, hull;
    int8_t team;
} world_player_t;

// ---- events of the current frame --------------------------------------------

typedef enum {
    EV_NONE = 0,
    EV_SOUND,          // .sound
    EV_STOPSOUND,      // .sound (entity, channel)
    EV_TEMPENT,        // .fx
    EV_PARTICLES,      // .fx (origin, dir = velocity, color, count)
    EV_DLIGHT,         // .fx (origin, radius, color, duration) muzzle flashes etc.
    EV_PRINT,          // .text (+ level)
    EV_CENTERPRINT,    // .text
    EV_STUFFTEXT,      // .text (console commands the demo runs)
    EV_DAMAGE,         // .damage
    EV_BONUSFLASH,     // "bf": item pickup flash
    EV_KILL,           // .kill (Forsaken / obituary)
    EV_CHAT,           // .text, .player
    EV_LEVEL,          // a new level started (precache lists replaced)
    EV_GAMEEVENT,      // .game: a client event of the game (GoldSrc svc_event / the demo's event frames)
    EV_COUNT
} world_event_type_t;

// Game-neutral effect kinds; the renderer draws each the same way whatever the game.
typedef enum {
    FX_NONE = 0,
    FX_SPIKE,            // nail hits wall
    FX_SUPERSPIKE,
    FX_GUNSHOT,          // bullet/pellet hits wall: dust puff
    FX_EXPLOSION,        // rocket/grenade explosion: particles + sprite + light
    FX_TAREXPLOSION,     // tarbaby: purple blob burst
    FX_LIGHTNING1,       // beams: entity, origin -> end
    FX_LIGHTNING2,
    FX_LIGHTNING3,
    FX_WIZSPIKE,
    FX_KNIGHTSPIKE,
    FX_LAVASPLASH,
    FX_TELEPORT,
    FX_EXPLOSION2,       // colour-mapped explosion (color, count = range)
    FX_BEAM,             // grappling hook / generic beam
    FX_BLOOD,            // origin, dir, count
    FX_SPARKS,           // origin, dir, color, count
    FX_SPLASH,           // water/slime/lava splash: origin, dir, color, count
    FX_RAILTRAIL,        // Quake II rail: origin -> end
    FX_BFG_EXPLOSION,
    FX_LASER,            // Quake II laser / GoldSrc beam points
    FX_SPRITE,           // GoldSrc sprite at origin (model = sprite index)
    FX_SMOKE,
    FX_SHIELD_SPARKS,
    FX_FLASHLIGHT,
    FX_GENERIC,          // anything else: raw code kept, drawn as a small burst
    FX_COUNT
} world_fx_t;

typedef struct {
    int32_t entity;
    int32_t channel;        // 0 = auto (never replaces), 1.. = per entity
    int32_t sound;          // index into sounds[]
    float volume;           // 0..1
    float attenuation;      // 0 none .. 3 static (Quake units)
    float pitch;            // 1.0 = normal (GoldSrc pitch / 100)
    float time_offset;      // Quake II: delay in seconds
    vec3_t origin;
    uint8_t has_origin;
    uint32_t name;          // 0: play sounds[sound]; else 1 + offset in text_arena of a sound name the
                            // game's client plays by name (GoldSrc's EV_PlaySound)
    uint16_t sentence;      // GoldSrc: 1 + a sentence number of sound/sentences.txt (SND_SENTENCE); 0: none
} world_sound_event_t;

typedef struct {
    world_fx_t kind;
    int32_t raw_type;       // the game's own temp entity number
    int32_t entity;         // owner (beams)
    vec3_t origin;
    vec3_t end;             // beams, trails
    vec3_t dir;             // velocity / normal
    int32_t color;          // palette index (Quake) or packed RGB for other games
    int32_t count;          // particle count, explosion2 range
    float radius, duration; // dlights
    int32_t model;          // beam / sprite model index, if any
    int32_t args[12];       // GoldSrc: the temp entity's shorts and bytes in message order (r_hlfx.c reads them)
    vec3_t pos3;            // GoldSrc: its third coordinate triple (TE_BREAKMODEL's velocity ...); TE_PLAYERATTACHMENT: [2] its height; TE_ELIGHT: [0] its decay;
                            // Forsaken MSG_SECBULLPOSDIR: the drop vector (engine/world_fs.h)
} world_fx_event_t;

// A client event (GoldSrc event_args_t): what the game's client code does with it is the
// renderer's and the decoder's per-game rules (render/r_hlfx.c, formats/goldsrc_events.c).
typedef struct {
    int32_t index;          // the game's event number
    uint32_t name;          // offset in text_arena of its script name ("glock1" for events/glock1.sc)
    int32_t entity;         // entindex: the player who fired
    int32_t flags;
    vec3_t origin, angles, velocity;
    float fparam[2];
    int32_t iparam[2];
    uint8_t bparam[2];
    uint8_t ducking;
    uint8_t local;          // the recording player's own (its view model flashes)
    uint32_t seed;          // the event's random numbers (the same event always picks the same)
} world_game_event_t;

// GoldSrc: something that lasts (a decal temp entity or a client event, whose bullets the
// renderer traces and whose shells it ejects; a temp model, TE_MODEL / TE_BREAKMODEL), kept
// for the whole level so that the decals and the bouncing models after a seek are those of
// playing (snapshots carry the log; the renderer places them again from it).
typedef struct {
    double time;
    int32_t te;             // the temp entity (13, 104, 109, 112, 116, 117, 118; 106..108, 119 temp models); 0: a
                            // client event
    int32_t entity;         // TE: the entity it names (0 the world); event: who fired
    int32_t model;          // TE_BSPDECAL: the model index it names
    int32_t decal;          // TE: the decal index (the HIGH ones + 256; TE_PLAYERDECAL: the player)
    vec3_t pos;             // TE: where; event: its origin
    vec3_t ent_origin;      // TE on an entity: where that entity stood then
    vec3_t angles;          // event
    vec3_t eye, eye_angles; // event: the demo's view then (the recording player's eye)
    float fparam[2];        // event: its float parameters; TE_EXPLODEMODEL: fparam[0] the speed
    vec3_t velocity;        // event: the shooter's; TE_MODEL / TE_BREAKMODEL / TE_PROJECTILE: the model's
    vec3_t size;            // TE_BREAKMODEL: the box the pieces fill
    int32_t args[5];        // TE_MODEL / TE_BREAKMODEL: the message's shorts and bytes (world_fx_event_t.args);
                            // event: iparam1, iparam2, bparam1, bparam2
    uint32_t seed;
    uint32_t fired;         // event: how many times before this entity fired this event
    uint8_t local, ducking, eye_valid;
    char script[24];        // event: its short name ("glock1")
    // event: the recording player's view model then (world_view_t's STAT_WEAPON model, its sequence
    // STAT_WEAPONFRAME, weaponanim_body and weaponanim_time), where Counter-Strike's gun smoke starts
    int32_t view_model, view_seq, view_body;
    double view_anim_time;
} world_decal_t;

typedef struct {
    int32_t armor, blood;
    vec3_t from;
} world_damage_event_t;

typedef struct {
    int32_t victim, killer, weapon;
} world_kill_event_t;

typedef struct {
    world_event_type_t type;
    union {
        world_sound_event_t sound;
        world_fx_event_t fx;
        world_damage_event_t damage;
        world_kill_event_t kill;
        world_game_event_t game;
        struct {
            uint32_t offset;  // into w->text_arena
            int32_t level;    // print level / chat player
        } text;
    } u;
} world_event_t;

// ---- the view --------------------------------------------------------------

// Quake stat indices (stats[]), the meaning the Quake HUD reads; other games
// keep their own stat layouts and HUD tables.
enum {
    STAT_HEALTH = 0, STAT_FRAGS, STAT_WEAPON, STAT_AMMO, STAT_ARMOR,
    STAT_WEAPONFRAME, STAT_SHELLS, STAT_NAILS, STAT_ROCKETS, STAT_CELLS,
    STAT_ACTIVEWEAPON, STAT_TOTALSECRETS, STAT_TOTALMONSTERS, STAT_SECRETS,
    STAT_MONSTERS, STAT_ITEMS = 15, STAT_VIEWHEIGHT = 16, STAT_WEAPONALPHA = 17
};

typedef struct {
    int32_t entity;          // view entity (Quake setview; -1 = none)
    vec3_t origin;           // eye position when origin_valid (Q2/GoldSrc/Forsaken)
    vec3_t prev_origin;
    uint8_t origin_valid;    // 0: use entity origin + ofs (Quake)
    vec3_t ofs;              // view offset from the entity origin (Quake viewheight)
    vec3_t angles;           // view angles this frame
    vec3_t prev_angles;      // and the previous frame, for interpolation
    vec3_t punch;            // punch/kick angles
    vec3_t prev_punch;       // and the previous frame's (Quake II blends its kick angles)
    uint8_t gun_valid;       // 1: the view weapon is gun_* below (Quake II); 0: stats[STAT_WEAPON] (Quake)
    int32_t gun_model;       // Quake II gunindex (0 = none) and gunframe
    int32_t gun_frame;
    vec3_t gun_offset;       // Quake II: from the eye, world axes
    vec3_t gun_angles;       // Quake II: added to the view angles
    double weaponanim_time;  // GoldSrc: demo time of the latest weapon animation (svc_weaponanim or the
                             // demo's own weaponanim frame; the same sequence again restarts it)
    int32_t weaponanim_body; // GoldSrc: the view model's body sent with it
    vec3_t velocity;
    float fov;               // horizontal fov at 4:3, degrees (90 default)
    float blend[4];          // screen blend rgba 0..1 sent by the game (Q2)
    uint32_t rdflags;        // Q2 RDF_UNDERWATER etc.
    int32_t stats[WORLD_MAX_STATS];
    uint32_t items;          // Quake items bits
    uint8_t onground, inwater;
    uint8_t intermission;    // 0 none, 1 intermission, 2 finale, 3 cutscene
    uint8_t paused;
    double completed_time;   // when the intermission started
    char finale_text[1024];
    char layout[1400];       // Quake II layout / scoreboard
    int32_t cdtrack;
} world_view_t;

// A player's own view, when the demo carries every player's (Quake II relay recordings hold
// each client's player state): what world_view_t holds for the recording player, for player
// slot i in world_t.povs[i]. Interpolated as the recording player's view is: prev_* are the
// frame before's when the player's view came in that frame too, else this frame's.
typedef struct {
    uint32_t seq;            // w->seq of the frame that carried it last: current iff == w->seq (world_player_pov)
    vec3_t origin;           // the eye: the player's origin + view offset
    vec3_t prev_origin;
    vec3_t ofs;              // the view offset (Quake II viewoffset)
    vec3_t angles, prev_angles;
    vec3_t punch, prev_punch;   // kick angles
    vec3_t velocity;
    int32_t gun_model, gun_frame;   // as world_view_t's gun_* (gun_valid)
    vec3_t gun_offset, gun_angles;
    float fov;               // 0: the game's default
    float blend[4];
    uint32_t rdflags;
    uint8_t onground, intermission;
    int32_t stats[WORLD_POV_STATS];
} world_pov_t;

typedef struct world_s {
    world_game_t game;
    int32_t protocol;
    uint32_t level_seq;      // bumped at every new level (serverinfo, serverdata ...)
    uint32_t seq;            // bumped at every server frame
    double time;             // demo time of the latest server frame (seconds)
    double prev_time;        // of the frame before
    double server_time;      // GoldSrc: the game's clock (svc_time) in the latest frame; animtime counts on it

    char map[WORLD_NAME_LEN];         // world model path, e.g. "maps/e1m3.bsp"
    char level_name[WORLD_NAME_LEN * 2];
    char game_dir[WORLD_NAME_LEN];    // mod folder the demo asks for ("" = base)
    int32_t maxclients;
    int32_t deathmatch;               // Quake "multi" / Q2 deathmatch flag
    int32_t playernum;                // the recording client (0-based)
    // How to look through another player's eyes (cameras): a player entity's eye is this far
    // above its origin, and its view pitch is its entity pitch times this (the games store a
    // third of the pitch, Quake and GoldSrc negated); set by the decoder with `game`.
    float player_eye_height;
    float player_pitch_scale;

    int32_t num_models;               // models[1..num_models-1] valid; [0] = ""
    int32_t num_sounds;
    int32_t num_images;
    int32_t num_general;
    char (*models)[WORLD_NAME_LEN];
    uint32_t models_seq;              // bumped when a model name is set to a new value (Quake II
                                      // names models in mid-level): the renderer loads them then
    uint32_t sounds_seq;              // the same for sound names (the sound system loads them)
    uint32_t images_seq;              // the same for image names (Quake II CS_IMAGES: the HUD loads them)
    char (*sounds)[WORLD_NAME_LEN];
    char (*images)[WORLD_NAME_LEN];
    char (*general)[WORLD_NAME_LEN];  // Quake II CS_GENERAL: the game's own strings (timers, names) that
                                      //   the status bar's stat_string shows
    char lightstyles[WORLD_MAX_LIGHTSTYLES][WORLD_STYLE_LEN];
    char statusbar[2048];             // Quake II CS_STATUSBAR
    float sky_rotate;                 // Quake II CS_SKYROTATE: the sky box turns this many degrees a second
    vec3_t sky_axis;                  //   about this axis (CS_SKYAXIS)
    float gravity;                    // the server's sv_gravity (GoldSrc svc_newmovevars: its temp models
                                      //   fall by it); 0 when the demo has not said (games' defaults)
    char item_names[WORLD_MAX_ITEMS][WORLD_NAME_LEN];   // Quake II CS_ITEMS: the HUD's pickup string
    // GoldSrc: the decal of each index the temp entities name ("{shot1"; svc_resourcelist's
    // decal resources, svc_decalname); "" unknown
    char decal_names[WORLD_MAX_DECALS][WORLD_DECAL_NAME_LEN];
    uint32_t decals_seq;              // bumped when a decal name changes
    world_decal_t decal_log[WORLD_MAX_DECAL_LOG];   // ring: entry i at [i % WORLD_MAX_DECAL_LOG]
    uint32_t decal_log_count;         // entries this level, ever (the ring keeps the latest)

    world_player_t players[WORLD_MAX_PLAYERS];
    // Each player's own view, when the demo carries it (world_pov_t); capacity WORLD_MAX_PLAYERS
    // (clone: num_povs), povs[i] for players[i]; num_povs: 1 + the highest slot ever given one
    // this level (0: the demo carries no player's own view but the recording player's, w->view).
    int32_t num_povs;
    world_pov_t *povs;

    int32_t num_entities;             // 1 + highest entity number ever used
    world_entity_t *entities;         // capacity WORLD_MAX_ENTITIES (clone: num_entities)
    int32_t num_statics;
    world_static_t *statics;
    int32_t num_static_sounds;
    world_static_sound_t *static_sounds;

    world_view_t view;

    int32_t num_events;
    int32_t dropped_events;
    world_event_t events[WORLD_MAX_EVENTS];
    uint32_t text_used;
    char text_arena[WORLD_TEXT_ARENA];

    int32_t capacity_full;            // 1: arrays have full capacity (not a clone)
} world_t;

// Allocate a world with full capacities. Returns NULL when out of memory.
world_t *world_create(void);
void world_free(world_t *w);
// Clear everything for a new demo (keeps the allocations).
void world_reset(world_t *w);
// New level: clears precaches, entities, statics, lightstyles, view state.
void world_new_level(world_t *w);

// Start a server frame at `time`: bumps seq, clears the events.
void world_begin_frame(world_t *w, double time);
// Entity `num` is present in this frame with state `st`. Returns -1 if num is
// out of range (the decoder reports it with its offset), 0 otherwise.
int world_entity_update(world_t *w, int num, const entity_state_t *st);
// Set the baseline of `num` (spawnbaseline). -1 if out of range.
int world_set_baseline(world_t *w, int num, const entity_state_t *st);
int world_add_static(world_t *w, const entity_state_t *st);
int world_add_static_sound(world_t *w, const world_static_sound_t *s);
// Set precache names; index range checked, returns -1 out of range.
int world_set_model(world_t *w, int index, const char *name);
int world_set_sound(world_t *w, int index, const char *name);
int world_set_image(world_t *w, int index, const char *name);
int world_set_general(world_t *w, int index, const char *s);
int world_set_decal(world_t *w, int index, const char *name);
// A new decal log entry (zeroed, time set): the oldest is overwritten when the ring is full.
world_decal_t *world_add_decal(world_t *w);

// Queue an event; returns a pointer into the world's array or NULL when full.
world_event_t *world_add_event(world_t *w, world_event_type_t type);
// Queue a text event (print, centerprint ...); the text is copied.
world_event_t *world_add_text_event(world_t *w, world_event_type_t type, const char *text, int level);
static inline const char *world_event_text(const world_t *w, const world_event_t *ev)
{
    return w->text_arena + ev->u.text.offset;
}

// Whether a game's world axes are left-handed: Forsaken's x right, y up, z forward (as Direct3D's;
// docs/forsaken.md "Orientation"), against Quake's right-handed x forward, y left, z up. What places
// the world in a right-handed space (the sound system: OpenAL) mirrors a left-handed one.
static inline int world_left_handed(world_game_t game)
{
    return game == GAME_FORSAKEN;
}

// The axis of a game's world that points up: Quake's z (2), Forsaken's y (1).
static inline int world_up_axis(world_game_t game)
{
    return game == GAME_FORSAKEN ? 1 : 2;
}

// Where the view `v` (the world's own, or a camera's copy of it) is at the world's latest frame,
// not blended between frames: its origin when origin_valid (Quake II, GoldSrc, Forsaken), else its
// entity's origin plus ofs (Quake's view entity and view height). 0 when it has neither (`out`
// left as it was).
static inline int world_view_origin(const world_t *w, const world_view_t *v, float out[3])
{
    if (v->origin_valid) {
        for (int k = 0; k < 3; k++)
            out[k] = v->origin[k];
        return 1;
    }
    if (v->entity > 0 && v->entity < w->num_entities) {
        for (int k = 0; k < 3; k++)
            out[k] = w->entities[v->entity].cur.origin[k] + v->ofs[k];
        return 1;
    }
    return 0;
}

// The fraction of demo time t between the world's last two frames (0..1; 1 when they are not in
// order, as at a level's first frame): how far the picture at t blends from the previous frame's
// view and entities to this one's.
static inline double world_frac(const world_t *w, double t)
{
    double frac = 1;
    if (w->time > w->prev_time)
        frac = (t - w->prev_time) / (w->time - w->prev_time);
    return frac < 0 ? 0 : frac > 1 ? 1 : frac;
}

static inline int world_entity_visible(const world_t *w, int num)
{
    return num > 0 && num < w->num_entities && w->entities[num].seq == w->seq &&
           w->entities[num].cur.modelindex != 0;
}

// Player `slot`'s own view in this frame (the decoder hands a copy: seq is set here, prev_*
// from the frame before when it came then too). -1 when slot is out of range.
int world_pov_update(world_t *w, int slot, const world_pov_t *pov);
// Player `slot`'s own view as of the latest frame, or NULL when the demo does not carry it
// (then only their entity shows where they are).
static inline const world_pov_t *world_player_pov(const world_t *w, int slot)
{
    return slot >= 0 && slot < w->num_povs && w->povs[slot].seq == w->seq && w->seq != 0 ? &w->povs[slot] : NULL;
}

// Snapshots for seeking: a copy sized to what is used, and its restore.
world_t *world_clone(const world_t *w);
int world_restore(world_t *dst, const world_t *snap);
size_t world_clone_bytes(const world_t *w);

void entity_state_clear(entity_state_t *s);

// A 32-bit integer hash (xorshift-multiply, full avalanche): the stand-in for the games'
// rand() wherever a pick must follow from the demo alone (a frame, an event, a salt), so
// that a seek or another export part draws and sounds the same. Decoders seed client
// effects with it, the sound client picks with it.
static inline uint32_t world_hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

#endif
