// r_fsent.c -- Forsaken's ships, pickups, shots and explosions (see r_fsent.h)
//
// The game's numbers used here, from its released source (ForsakenW/forsaken ProjectX,
// ForsakenX/forsaken; docs/forsaken.md lists where each comes from):
// - the bike table BikeModels[] (Multiplayer.c / Mydplay.c) and the ModelNames[] list
//   (models.c): bike n is <name>400.mxa .. <name>050.mxa, five levels of detail;
// - the level of detail (ModelDisp, models.c): distance / (12288 x GLOBAL_SCALE), at most
//   the model's count; GLOBAL_SCALE is 0.25, so a level every 3072 units;
// - PickupAttribs[] (Pickups.c) names each pickup's model; SecondaryWeaponAttribs[] each
//   missile's and mine's; PrimaryWeaponAttribs[] (Primary.c) each shot's speed, life and light;
// - InitOnePrimBull (Primary.c), Primary.h's sizes and FmPolyProcess (2dPolys.c): each primary's
//   sprite layout (Data/Offsets/*.OFF, assets/fsoff.c), world units a texel, animation, trail;
// - speeds are per game tick, GAME_SECOND (71) ticks a second;
// - MISSILE_SPEED is MAXMOVESPEED (45 x GLOBAL_SCALE) x 1.6.
#include "r_fsent.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/fsoff.h"
#include "../assets/fspic.h"
#include "../assets/fsrtl.h"
#include "r_fsfx.h"
#include "../assets/mx.h"
#include "../assets/pal.h"
#include "../engine/log.h"
#include "../engine/world_fs.h"
#include "r_fsbgo.h"
#include "r_fssnd.h"
#include "r_fsspot.h"
#include "r_fstri.h"
#include "r_fsworld.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define FSE_MAX_MODELS 128
#define FSE_MAX_TEX 64
#define FSE_MAX_SHOTS 256
#define FSE_MAX_BLASTS 64
#define FSE_LODS 5
#define FSE_NUM_BIKES 17
#define FSE_LOD_STEP 3072.0f          // 12288 x GLOBAL_SCALE
#define FSE_TICKS 71.0f               // GAME_SECOND: speeds and lives are per tick
#define FSE_ANIM_SECOND 60.0f         // ANIM_SECOND: the 60ths of animation times and light delays
#define FSE_EXTRAPOLATE_MAX 0.5       // seconds a ship is moved on past its last update
#define FSE_LIGHT_RADIUS 1024.0f      // level vertices lighting a ship
#define FSE_MIN_LIGHT 0.35f
#define FSE_BLAST_FRAMES 16           // an explosion's light: 16 frames at 30 a second (assumed;
#define FSE_BLAST_FPS 30.0            // once BIGEXP1.OFF's frames, no longer drawn)
#define FSE_PICKUP_TURN 90.0          // degrees a second (ours: the game's rate is not used)
#define FSE_SHOT_LIGHT 384.0f         // lightsize 1536 x GLOBAL_SCALE (primaries, SEC_LIGHTSIZE, PICKUPLIGHT_RADIUS)
#define FSE_DIE_SHRINK 50.0f          // SetLightDie: a dying light loses 50 units of size a tick
#define FSE_DIE_FADE 2.0f             // .. and 2 of its red a tick, from 255
#define FSE_HEADLIGHT_SIZE 1536.0f    // ships' headlights: (4096 + 2048) x GLOBAL_SCALE
#define FSE_HEADLIGHT_COS 0.81915204f // cos 35 degrees
#define FSE_HEADLIGHT_RGB 192.0f
#define FSE_QUANTUM_SIZE 1024.0f      // the quantum mine's spot light: 4096 x GLOBAL_SCALE, 30 degrees
#define FSE_QUANTUM_COS 0.8660254f
#define FSE_PICKUP_SCALE 0.5f         // COLOUR_SCALE of PickupAttribs[]
#define FSE_MAX_ORBITS 8              // MAXMULTIPLES
#define FSE_ORBIT_RADIUS 64.0f        // ORBIT_RADIUS: 256 x GLOBAL_SCALE
#define FSE_ORBIT_TURN 6.0            // degrees a game tick (AxisRot += 6 x framelag)
#define FSE_MAX_BGO_PARTS 512        // background object models drawn a frame
#define FSE_SHIP_RADIUS 75.0f         // SHIP_RADIUS: 300 x GLOBAL_SCALE (Ships.h)
#define FSE_HIT_AHEAD 0.1             // seconds a shot is tried against the ships past the frame
#define FSE_MAX_BITS 260              // invulnerability bits a ship: 5 a tick for 52 ticks
#define FSE_MAX_SPRITES 256           // a dying ship's fire (6 a tick for 32 ticks) or its smoke
#define FSE_MAX_PAGES 8               // sprite texture pages (Data/Textures, 24-bit)
#define FSE_MAX_LAYOUTS 24            // sprite layouts (Data/Offsets/*.OFF: 15 used today)
#define FSE_PAGE_KEY 48               // a page texel darker than this (brightest channel) is not drawn
#define FSE_TROJAX_CHARGE 100.0f      // the charge (PLevel 0..100) of a trojax whose message carried none
#define FSE_MAX_BOUNCES 8             // a pyrolite's bounces followed (its 64 ticks at 20 units a tick: 1280 units)
#define FSE_TRANSPULSE_BOUNCES 1      // TRANSPULSE_BOUNCES
#define FSE_TRANSPULSE_CONE 0.17364818f   // TRANSPULSE_VIEWCONE ( 160 / 2 ): cos 80 degrees
#define FSE_LASER_TICKS 12            // the laser's LifeCount: its beam is cast again each of these ticks
// the primaries' impacts and beams (Primary.c, Primary.h, 2dPolys.c; GLOBAL_SCALE 0.25; docs/forsaken.md)
#define FSE_EXPLO_DISTANCE 64.0f      // FM_FLAG_MOVEOUT: EXPLO_DISTANCE (256 x 0.25) nearer the eye ..
#define FSE_MOVEOUT_NEAR 110.0f       // .. or to 110 units from it when nearer than 174, by at least 32
#define FSE_PULSAR_EXPSIZE 1.0f       // PULSAR_EXPSIZE (8 x 0.25 x 0.5) units a texel; FM_PULSAR_EXP: a frame every 4 ticks
#define FSE_RING_OUT 8.0f             // 32 x 0.25: the trojax's and transpulse's rings stand off the wall
#define FSE_RING_FADE 8.0f            // FM_TROJAX_EXP, FM_ARC_RING: R G B lose 8 a tick ..
#define FSE_RING_GROW 0.08325f        // .. and the size grows 0.333 x 0.25 a tick ..
#define FSE_RING_MAX 4.0f             // .. until 16 x 0.25 (TROJAX_EXPMAXSIZE, TRANSPULSE_EXP_MAXSIZE)
#define FSE_TROJAX_EXPSIZE 1.0f       // TROJAX_EXPSIZE (4 x 0.25), R G B 128
#define FSE_ARC_EXPSIZE 0.25f         // TRANSPULSE_EXP_MINSIZE (1 x 0.25), R G B 255 32 32
#define FSE_ARC_FLARE 2.5f            // TRANSPULSE_FLARE_SIZE (10 x 0.25): FLARE.OFF, FM_FLARE for 48 ticks
#define FSE_ARC_FLARE_LIFE 48.0f
#define FSE_SUSS_FLARE 1.0f           // SUSSGUN_FLARESIZE (4 x 0.25): FLARE.OFF for 5 ticks ..
#define FSE_SUSS_FLARE_TICKS 5.0f
#define FSE_SUSS_EXPSIZE 2.0f         // .. then SHRAPNEL.OFF, SUSSGUN_EXPSIZE (8 x 0.25), a frame a tick
#define FSE_LASER_WIDTH_MUL 2.0f      // LaserDiameter: power x LASER_WIDTH_POWERMUL (8 x 0.25) ..
#define FSE_LASER_WIDTH_ADD 6.0f      // .. + LASER_WIDTH_ADDMIN (24 x 0.25): half the beam's width
#define FSE_ARCTRAIL_MUL 90           // CreateTransTrail: sparks up to (power x 90 + 145) x 0.25 units aside
#define FSE_ARCTRAIL_ADD 145
#define FSE_ARC_SPARK_SPEED 4.0f      // 16 x 0.25 units a tick along the shot, 0.5 less every tick
#define FSE_ARC_SPARK_SIZE 1.0f       // TRANSPULSE_SPARKSIZE (4 x 0.25); FM_ARC_SPARK: a frame every 5 ticks
#define FSE_REGEN_SIZE 2.0f           // PICKUP_REGEN_SIZE (8 x 0.25): PIKGEN.OFF, a frame every 6 ticks, R G B 192
#define FSE_SCATTER_FLARE 2.5f        // InitOneSecBull: the scatter's FLARE.OFF, 10 x 0.25 units a texel, R G B
#define FSE_SCATTER_BACK 47.5f        // 64 64 255, kept 190 x 0.25 behind it (ProcessSecondaryBullets)
#define FSE_MAX_HOMING 32             // homing missiles' paths kept at once (solaris, thief, scatter)
#define FSE_HOMING_TICKS 712          // points a path keeps: its start and 10 s of ticks
#define FSE_REGEN_HIDDEN 32.0f        // ticks a twinkling pickup's model stays hidden (PICKUPMODE_Appear)
#define FSE_MINE_TRIGGER 200.0f       // MINE_TRIGGER_RADIUS: 800 x GLOBAL_SCALE from the mine to a ship's centre
#define FSE_MINE_OWNER_SAFE 150       // ticks (LifeCount) its owner cannot set his own mine off
#define FSE_FLASH_LIFE 16.0f          // CreateBigFlash: FM_FLASH lives 16 ticks, its size less 0.1 a tick
#define FSE_PINE_AMMO 10              // InitOneSecBull: a pine mine's Ammo (whole: Ammo / 2 is 5)
#define FSE_PINE_TURN 0.75f           // SecondaryWeaponAttribs[] PINEMINE: TurnSpeed (degrees a tick) ..
#define FSE_PINE_CONE -1.0f           // .. and ViewCone 360: COSD(360 / 2), every direction
#define FSE_MAX_SHOCK 64.0f           // the largest ShockwaveSize taken from a message (QUANTUM_SHOCKWAVE is 20)
#define FSE_MAX_SOUNDS 32             // sounds one decoded frame may decide (docs/forsaken.md "Sounds")
#define FSE_MAX_LOOPS 64              // lasting loops at once (sfx.c MAX_LOOPING_SFX)
#define FSE_SOUND_GROUPS 8            // groups' boxes holding one point that are looked at (overlapping levels)

typedef struct {
    char name[MX_NAME_LEN];
    int width, height, wshift;
    uint8_t *texels;     // in the level's palette
    uint8_t *key;        // 1 where the painted texel is black (colour-keyed triangles skip it)
} fse_tex_t;

typedef struct {
    char file[COB_NAME_LEN];
    int state;           // 0 not tried, 1 loaded, -1 missing
    mx_t *mx;
    int tex[MX_MAX_TEXTURES];   // into fe->tex, -1 none
    mx_vertex_t *pose;          // an MXA with frames: its vertices in the pose being drawn (mx_pose)
} fse_model_t;

// A sprite texture page (Data/Textures/*.bmp, 24-bit), mapped to the palette once.
typedef struct {
    char file[FSOFF_NAME_LEN];
    int state;           // 0 not tried, 1 loaded, -1 missing or bad
    uint8_t *px, *key;   // palette indices; key 1 where the texel is too dark to show (the game adds it)
    int w, h, wshift;
} fse_page_t;

// A sprite layout (Data/Offsets/*.OFF) and its page.
typedef struct {
    char file[FSOFF_NAME_LEN];
    int state;           // 0 not tried, 1 loaded, -1 missing or bad
    fsoff_t *off;
    int page;            // into fe->pages (the layout's first page: every shot's has one)
} fse_layout_t;

typedef struct {
    int active, secondary, weapon, power, owner, id;
    float charge;        // the trojax's PLevel 0..100 (FSE_TROJAX_CHARGE when the message had none)
    float org[3], dir[3], end[3];
    float drop[3];       // a missile's unit drop vector (SECBULLPOSDIR's DropDir; only the MFRL falls along it)
    float up[3];         // a secondary's unit up vector (UpVector), square to dir: a mine bobs along it and
                         // turns about it
    float speed;         // units a second (a missile's once flying straight; 0: a mine, staying)
    double t0, t_end;
    int hit;             // ends on a wall or a ship (a primary's impact, draw_impact; a missile's explosion, draw_explosion)
    float normal[3];     // the wall's unit normal where it ends, facing back along the shot
    // a shot against the ships (hit_ships): where its wall was, the time swept up to, and
    // the ship it hit (entity number, 0 none) and where on it (unit, from its centre)
    double wall_t_end, checked;
    float wall_end[3], wall_normal[3];
    int wall_hit, ship;
    int bare;            // that ship had no shield (its MSG_SHIELDHULL said 0) and was not invulnerable
    float ship_dir[3];
    struct fse_homing_s *hm;   // a homing missile: its path in fe->homing (NULL: it flies straight)
    float shock;         // one that went off in CreateShockwave (a mine, or what MSG_EXPSECONDARY named): its
                         // ShockwaveSize (the BigFlash's units a texel); 0: DestroySecondary's plain explosion
    float life0;         // its LifeCount (ticks) at t0: 0 but for a mine from MSG_SHORTMINE (RegenMineList)
    float aim[3], aim_up[3];   // a pine mine's unit direction and up as ProcessMines has turned them by the
                               // tick last checked (mine_proximity, pine_aim); the others' dir and up
    // a primary's bounces (the transpulse's one, the pyrolite's): at bounce_t[b] it met its wall at
    // bounce_at[b] (unit normal bounce_normal[b]) and went on along bounce_dir[b] at bounce_speed[b]
    // (units a second); `legs` of them (org, dir, speed, t0: its first leg)
    int legs;
    double bounce_t[FSE_MAX_BOUNCES];
    float bounce_at[FSE_MAX_BOUNCES][3], bounce_normal[FSE_MAX_BOUNCES][3], bounce_dir[FSE_MAX_BOUNCES][3];
    float bounce_speed[FSE_MAX_BOUNCES];
    int turned;          // a transpulse's bounce has been looked at for a ship in its cone (transpulse_turn)
    int sounded;         // its end's sound has been asked for (a missile's CreateExplosion: end_sounds)
    // the laser's beam at each tick of its life (laser_frame): how long (from org along dir: to its
    // wall, or to the first ship's sphere on the way) and the unit normal where it ends; the ticks
    // up to the last decoded frame are kept (beam_done), those ahead of it cast again
    float beam[FSE_LASER_TICKS + 1], beam_normal[FSE_LASER_TICKS + 1][3];
    int beam_done;
} fse_shot_t;

// Where a homing missile's stepping stands (ProcessMissiles' state between ticks).
typedef struct {
    int target;          // the ship it follows (entity number; 0: none, MIS_STRAIGHT)
    int ended;           // it met a wall or a ship, or its life ran out
    float colstart[3];   // flying straight: where its wall ray starts (ColStart) ..
    float coldist;       // .. and how far the wall is along it (ColDist; < 0: to be found)
    float colnormal[3];
} fse_homing_state_t;

// A homing missile's path, stepped a tick at a time as the decoded frames come (the ships it may
// follow are where those frames put them): pos[k] where it is after tick k's move (pos[0] where it
// started), dir[k] its direction then. The points up to the last decoded frame are kept; those
// past it (FSE_HIT_AHEAD, the ships moved on by their speed) are stepped again at the next frame.
typedef struct fse_homing_s {
    int shot;            // the shot it belongs to (index in fe->shots); -1 free
    int n, n_done;       // points stepped; of them, at or before the last decoded frame
    fse_homing_state_t cur, done;   // the state after point n - 1 and after point n_done - 1
    float pos[FSE_HOMING_TICKS][3], dir[FSE_HOMING_TICKS][3];
} fse_homing_t;

typedef struct {
    int active;
    float org[3];
    float size;          // radius in units
    double t0;
    int light;           // lights the level (a message's explosion; a shot's impact has its shot's dying light)
    float shock;         // CreateShockwave's look (MSG_SHOCKWAVE): its explosion and a BigFlash of `shock` units a
                         // texel (draw_shockwave)
    uint32_t seed;       // the explosion's random parts
} fse_blast_t;

typedef struct {
    int valid;
    float cur[3], prev[3], vel[3], ang[3];
    double t_cur, t_prev;
} fse_track_t;

struct r_fsent_s {
    int on;                  // a Forsaken level is loaded
    r_fsfx_bit_t bits[FSE_MAX_BITS];   // scratch: one invulnerable ship's bits while drawing
    int spot_off;            // r_fsent_set_spotfx(fe, 0)
    r_fsfx_sprite_t sprites[FSE_MAX_SPRITES];   // scratch: one dying or damaged ship's fire or smoke
    // per ship: since when it is dying (mode 1) and damaged (hull under 64), as the decoded frames
    // showed it (-1e30: it already was at the first frame after a clear, a seek: not known)
    double dying_since[FSW_SHIPS], damaged_since[FSW_SHIPS];
    uint8_t dying_seen[FSW_SHIPS], damaged_seen[FSW_SHIPS];
    // a dying ship as the last frame of its dying showed it, and when it stopped (1e30: it has
    // not): its fire's last sprites live on after it (limbo is not drawn)
    r_fsfx_ship_t dying_ship[FSW_SHIPS];
    double dying_until[FSW_SHIPS];
    int ships_primed;
    asset_files_t files;
    uint8_t palette[768];
    const mxv_t *level;
    fse_model_t models[FSE_MAX_MODELS];
    int num_models;
    fse_tex_t tex[FSE_MAX_TEX];
    int num_tex;
    r_fsvert_t *scratch;     // camera-space vertices of the model being drawn
    int scratch_cap;
    fse_shot_t shots[FSE_MAX_SHOTS];
    fse_homing_t homing[FSE_MAX_HOMING];
    fse_blast_t blasts[FSE_MAX_BLASTS];
    fse_track_t tracks[FSW_SHIPS];
    double last_time;
    r_sound_t sounds[FSE_MAX_SOUNDS];   // what the last r_fsent_frame decided (r_fsent_sounds)
    int nsounds;
    r_loop_t loops[FSE_MAX_LOOPS];      // the lasting loops it wants (r_fsent_loops)
    int nloops;
    int eye_ok;                         // the camera the game's loudness is for, at the last r_fsent_frame
    float eye[3];
    int hear_set;                       // r_fsent_hear_from: the picture's camera, for the next frame
    float hear[3];
    int eye_groups[FSE_SOUND_GROUPS], n_eye_groups;
    const world_view_t *view;   // the view drawn (r_fsent_set_view; NULL: the world's), for r_fsent_frame
    r_fssnd_variants_t variants;        // the sound folder's NAME01.wav ... per name, looked for once a level
    double pyro_mark;        // PyroCount's zero (seconds; -1e30 not started): the pyrolite's sound rate
    int8_t mode_seen[FSW_SHIPS];   // each ship's mode at the last frame (-1 none or not enabled): SFX_BikeExplode
    // sprite pages and layouts, loaded the first time a sprite needs them
    fse_page_t pages[FSE_MAX_PAGES];
    int num_pages;
    fse_layout_t layouts[FSE_MAX_LAYOUTS];
    int num_layouts;
    uint8_t *add;            // additive blend table [src * 256 + dst] for the sprites, made the first time
    int hot_color;           // the palette's brightest colour
    // the level's background objects (r_fsbgo.c), loaded when the world first names the level
    r_fsbgo_t *bgo;
    int bgo_tried;
    // the level's own pickups (its .PIC) and the ones the host placed at its start by the
    // world's FSW_LPICK_INFO (placed_allowed, placed_flags: the header's allowed pickups and game
    // flags they were worked out for)
    fspic_t *pic;
    fsrtl_t *rtl;            // the level's real-time lights (its .RTL), those a trigger switched drawn
    // the level's spot effects (its .FX) and, per effect, a fire wall's flames' path (r_fsspot.c),
    // worked out at load
    fsspot_t *spot;
    r_fsspot_path_t *spot_path;
    r_fsspot_sound_t *spot_snd;   // per effect: its sound (r_fsspot_sound; name "" none)
    r_fsspot_sparks_t *sparks;   // its gravity sparks' walls and paths (NULL: none)
    fspic_placed_t placed[FSPIC_MAX_SLOTS];
    int num_placed, placed_ok;
    uint64_t placed_allowed;
    uint32_t placed_flags;
    r_fsbgo_part_t bgo_parts[FSE_MAX_BGO_PARTS];
    r_fslight_t light_pool[R_FS_MAX_LIGHTS];   // this frame's lights on the level
    // from the level drawer, set each frame by r_fsent_light_level (NULL / 0 before it): its
    // shading tables, and at each r_fsent_draw the lights it kept for the eye (checked, spots'
    // directions unit)
    const r_fsworld_t *fw;
    const r_fsshade_t *shade;
    const r_fslight_t *lights;
    int num_lights;
    int light_idx[R_FS_MAX_LIGHTS];            // the lights reaching the model being drawn
};

// ---- the game's tables -----------------------------------------------------------

static const char *const bike_names[FSE_NUM_BIKES] = {
    "borg", "brd", "laj", "xcop", "truk", "foet", "jap", "nut", "rhes",
    "jo", "shrk", "hk", "nbia", "mofi", "cerb", "slick", "borg"
};
static const char *const lod_suffix[FSE_LODS] = { "400", "300", "200", "100", "050" };

// PickupAttribs[] ModelType by pickup number, through ModelNames[] (the second name is its level
// of detail 1; NULL: drawn as the eyeball the game puts in for models it dropped).
static const char *const pickup_files[][2] = {
    { "troj.mx", "stroj.mx" }, { "prlt.mx", "sprlt.mx" }, { "trans.mx", "strans.mx" }, { "sus.mx", "ssus.mx" },
    { "beam.mx", "sbeam.mx" }, { "mug.mx", "fmug.mx" }, { "mugs.mx", "smugs.mx" }, { "heat.mx", "fheat.mx" },
    { "heatpk.mx", "sheatpk.mx" }, { "eyeball.mx", NULL }, { "sctr.mx", "fsctr.mx" }, { "grav.mx", "fgrav.mx" },
    { "lnch.mx", "slnch.mx" }, { "titan.mx", NULL }, { "prgpod.mx", "sprgpod.mx" }, { "pine.mx", "spine.mx" },
    { "qpod.mx", "sqpod.mx" }, { "eyeball.mx", NULL }, { "eyeball.mx", NULL }, { "eyeball.mx", NULL },
    { "nrg.mx", "snrg.mx" }, { "fuel.mx", NULL }, { "ammo.mx", "sammo.mx" }, { "pod.mx", "spod.mx" },
    { "shld.mx", "sshld.mx" }, { "vuln.mx", "svuln.mx" }, { "xtra.mx", "sxtra.mx" }, { "comp.mx", "scomp.mx" },
    { "eyeball.mx", NULL }, { "ntro.mx", "sntro.mx" }, { "eyeball.mx", NULL }, { "gold.mx", NULL },
    { "mant.mx", "smant.mx" }, { "crys.mx", NULL }, { "orb.mx", "sorb.mx" }, { "gpod.mx", "sgldpod.mx" },
    { "dna.mx", NULL }, { "key.mx", NULL }, { "bomb.mx", NULL }, { "goldfig.mx", NULL },
    { "flagmrphwave000.mxa", NULL }, { "flagmrphwave000.mxa", NULL }, { "redflagwave000.mxa", NULL },
    { "greenflagwave000.mxa", NULL }, { "blueflagwave000.mxa", NULL }, { "yellowflagwave000.mxa", NULL },
};
#define FSE_NUM_PICKUPS (int)(sizeof pickup_files / sizeof pickup_files[0])

// SecondaryWeaponAttribs[] models (MFRL and the pine missile: MODEL_PineMissile, fpin.mx in
// ModelNames[]; thief and spider: the eyeball)
static const char *const secondary_files[FSW_NUM_SECONDARY] = {
    "mug.mx", "heat.mx", "eyeball.mx", "sctr.mx", "grav.mx", "fpin.mx", "titan.mx",
    "prge.mx", "pin.mx", "qpik.mx", "eyeball.mx", "fpin.mx", "gren.mx"
};

// PrimaryWeaponAttribs[]: light colour at power levels 0..2, glow radius (ours), light size
// (lightsize: 1536 x GLOBAL_SCALE, the trojax 2048 x GLOBAL_SCALE); the speed and life are
// engine/world_fs.h's fsw_primary_speed / fsw_primary_life (the decoder's trigger areas use them too)
typedef struct {
    uint8_t rgb[3][3];
    float radius, light;
} fse_primary_t;

static const fse_primary_t primaries[FSW_NUM_PRIMARY] = {
    [FSW_PULSAR] = { { { 0, 108, 0 }, { 0, 180, 0 }, { 0, 255, 0 } }, 10, 384 },
    [FSW_TROJAX] = { { { 100, 0, 255 }, { 100, 0, 255 }, { 100, 0, 255 } }, 14, 512 },
    [FSW_PYROLITE] = { { { 128, 0, 16 }, { 128, 0, 16 }, { 128, 0, 16 } }, 16, 384 },
    [FSW_TRANSPULSE] = { { { 108, 0, 0 }, { 180, 0, 0 }, { 255, 0, 0 } }, 12, 384 },
    [FSW_SUSSGUN] = { { { 84, 0, 0 }, { 168, 0, 0 }, { 255, 0, 0 } }, 6, 384 },
    [FSW_LASER] = { { { 255, 0, 0 }, { 255, 0, 0 }, { 255, 0, 0 } }, 3, 384 },
    [FSW_ORBITPULSAR] = { { { 108, 0, 0 }, { 180, 0, 0 }, { 255, 0, 0 } }, 10, 384 },
};

// SecondaryWeaponAttribs[] lightsize and colour (SEC_LIGHTSIZE = 1536 x GLOBAL_SCALE; the titan
// 1.5 x; MFRL none; the quantum mine a spot light, FSE_QUANTUM_*)
static const struct {
    float size;
    uint8_t rgb[3];
} secondary_lights[FSW_NUM_SECONDARY] = {
    [FSW_MUG] = { 384, { 64, 255, 64 } },        [FSW_SOLARIS] = { 384, { 255, 64, 64 } },
    [FSW_THIEF] = { 384, { 255, 255, 255 } },    [FSW_SCATTER] = { 384, { 255, 64, 64 } },
    [FSW_GRAVGON] = { 384, { 64, 64, 255 } },    [FSW_MFRL] = { 0, { 255, 192, 0 } },
    [FSW_TITAN] = { 576, { 255, 64, 64 } },      [FSW_PURGEMINE] = { 384, { 255, 64, 64 } },
    [FSW_PINEMINE] = { 384, { 255, 64, 64 } },   [FSW_QUANTUMMINE] = { FSE_QUANTUM_SIZE, { 32, 32, 255 } },
    [FSW_SPIDERMINE] = { 384, { 32, 32, 255 } }, [FSW_PINEMISSILE] = { 384, { 64, 255, 64 } },
    [FSW_TITANSHRAPNEL] = { 384, { 64, 255, 64 } },
};

// PickupAttribs[] light colours by pickup type (before COLOUR_SCALE; all PICKUPLIGHT_RADIUS;
// the extra life, 26, has none)
static const uint8_t pickup_light[][3] = {
    { 0, 0, 255 },     { 0, 0, 255 },     { 0, 0, 255 },     { 0, 0, 255 },     { 0, 0, 255 },     { 0, 128, 128 },
    { 128, 0, 0 },     { 128, 0, 0 },     { 128, 0, 0 },     { 128, 0, 0 },     { 128, 0, 0 },     { 128, 0, 0 },
    { 128, 0, 0 },     { 128, 0, 0 },     { 128, 128, 0 },   { 128, 128, 0 },   { 128, 128, 0 },   { 128, 128, 0 },
    { 128, 128, 0 },   { 0, 128, 0 },     { 0, 128, 0 },     { 0, 128, 0 },     { 0, 128, 0 },     { 0, 128, 0 },
    { 0, 128, 0 },     { 0, 128, 0 },     { 0, 0, 0 },       { 0, 128, 0 },     { 0, 128, 0 },     { 0, 128, 0 },
    { 0, 128, 0 },     { 0, 128, 0 },     { 0, 128, 0 },     { 0, 128, 0 },     { 0, 128, 0 },     { 0, 128, 0 },
    { 0, 0, 255 },     { 0, 0, 128 },     { 64, 64, 64 },    { 192, 128, 64 },  { 192, 128, 64 },  { 192, 192, 64 },
    { 192, 64, 64 },   { 64, 192, 64 },   { 64, 64, 192 },   { 192, 192, 64 },
};

const char *r_fsent_bike_file(int bike, int lod, char *buf, size_t cap)
{
    if (bike < 0 || bike >= FSE_NUM_BIKES)
        bike = 0;
    lod = lod < 0 ? 0 : lod >= FSE_LODS ? FSE_LODS - 1 : lod;
    snprintf(buf, cap, "%s%s.mxa", bike_names[bike], lod_suffix[lod]);
    return buf;
}

int r_fsent_lod(float distance)
{
    if (!(distance > 0))
        return 0;
    float l = distance / FSE_LOD_STEP;
    return l >= FSE_LODS - 1 ? FSE_LODS - 1 : (int)l;
}

// ---- loading ------------------------------------------------------------------------

r_fsent_t *r_fsent_create(void)
{
    r_fsent_t *fe = calloc(1, sizeof(r_fsent_t));
    for (int i = 0; fe && i < FSE_MAX_HOMING; i++)
        fe->homing[i].shot = -1;
    if (fe) {
        fe->pyro_mark = -1e30;
        memset(fe->mode_seen, -1, sizeof fe->mode_seen);
    }
    return fe;
}

void r_fsent_set_spotfx(r_fsent_t *fe, int on)
{
    if (fe)
        fe->spot_off = !on;
}

static void free_assets(r_fsent_t *fe)
{
    for (int i = 0; i < fe->num_models; i++) {
        mx_free(fe->models[i].mx);
        free(fe->models[i].pose);
    }
    for (int i = 0; i < fe->num_tex; i++) {
        free(fe->tex[i].texels);
        free(fe->tex[i].key);
    }
    for (int i = 0; i < fe->num_pages; i++) {
        free(fe->pages[i].px);
        free(fe->pages[i].key);
    }
    for (int i = 0; i < fe->num_layouts; i++)
        fsoff_free(fe->layouts[i].off);
    memset(fe->pages, 0, sizeof fe->pages);
    memset(fe->layouts, 0, sizeof fe->layouts);
    fe->num_pages = fe->num_layouts = 0;
    free(fe->add);
    fe->add = NULL;
    memset(fe->models, 0, sizeof fe->models);
    memset(fe->tex, 0, sizeof fe->tex);
    fe->num_models = fe->num_tex = 0;
    r_fsbgo_free(fe->bgo);
    fe->bgo = NULL;
    fe->bgo_tried = 0;
    fspic_free(fe->pic);
    fe->pic = NULL;
    fsrtl_free(fe->rtl);
    fe->rtl = NULL;
    fsspot_free(fe->spot);
    fe->spot = NULL;
    free(fe->spot_path);
    fe->spot_path = NULL;
    free(fe->spot_snd);
    fe->spot_snd = NULL;
    r_fsspot_sparks_free(fe->sparks);
    fe->sparks = NULL;
    fe->num_placed = fe->placed_ok = 0;
}

static float first_wall(const r_fsent_t *fe, const float org[3], const float dir[3], float max, float normal[3]);

static float spot_wall(void *ctx, const float org[3], const float dir[3], float max, float normal[3])
{
    return first_wall(ctx, org, dir, max, normal);
}

float r_fsent_first_wall(const r_fsent_t *fe, const float org[3], const float dir[3], float max)
{
    return fe ? first_wall(fe, org, dir, max, NULL) : max;
}

// The level's spot effects (Data/Levels/NAME/NAME.FX: arena's and therm's), and each fire wall's
// flames' path off the level's walls (the level never moves: worked out once).
static void load_spot(r_fsent_t *fe, const char *level)
{
    char path[320], err[256];
    snprintf(path, sizeof path, "levels/%s/%s.fx", level, level);
    size_t size;
    uint8_t *d = asset_load(&fe->files, path, &size);
    if (!d)
        return;   // no spot effects: every level of the data but arena and therm
    fe->spot = fsspot_load(d, size, path, err, sizeof err);
    free(d);
    if (!fe->spot) {
        log_warn("%s (the level's spot effects are not drawn)", err);
        return;
    }
    int n = fe->spot->count;
    fe->spot_path = calloc((size_t)(n ? n : 1), sizeof *fe->spot_path);
    fe->spot_snd = calloc((size_t)(n ? n : 1), sizeof *fe->spot_snd);
    if (!fe->spot_path || !fe->spot_snd) {
        free(fe->spot_path);
        free(fe->spot_snd);
        fe->spot_path = NULL;
        fe->spot_snd = NULL;
        fsspot_free(fe->spot);
        fe->spot = NULL;
        return;
    }
    for (int i = 0; i < n; i++) {
        const fsspot_fx_t *fx = &fe->spot->fx[i];
        if (fx->type == FSSPOT_FIRE_WALL)
            r_fsspot_path(&fe->spot_path[i], fx->pos, fx->dir, FSSPOT_FLAME_SPEED * FSSPOT_FLAME_LIFE, spot_wall, fe);
        r_fsspot_sound(fx, &fe->spot_snd[i]);
    }
    fe->sparks = r_fsspot_sparks_create(fe->spot, fe->level);
}

// The level's background objects, the first time the world names the level.
static void load_bgo(r_fsent_t *fe, const world_t *w)
{
    if (fe->bgo_tried || !w->level_name[0])
        return;
    fe->bgo_tried = 1;
    fe->bgo = r_fsbgo_load(&fe->files, w->level_name);
    // the level's pickup slots (Data/Levels/NAME/NAME.PIC; every level of the released data has one)
    if (strlen(w->level_name) > 48)
        return;
    char path[320], err[256];
    snprintf(path, sizeof path, "levels/%s/%s.pic", w->level_name, w->level_name);
    size_t size;
    uint8_t *d = asset_load(&fe->files, path, &size);
    if (d) {
        fe->pic = fspic_load(d, size, path, err, sizeof err);
        if (!fe->pic)
            log_warn("%s (the level's own pickups are not drawn)", err);
        free(d);
    }
    // its real-time lights (NAME.RTL: five levels of the data have one), drawn once a trigger
    // switches them (engine/world_fs.h FSW_RTL_ENT0)
    snprintf(path, sizeof path, "levels/%s/%s.rtl", w->level_name, w->level_name);
    if ((d = asset_load(&fe->files, path, &size)) != NULL) {
        fe->rtl = fsrtl_load(d, size, path, err, sizeof err);
        if (!fe->rtl)
            log_warn("%s (the level's real-time lights are not drawn)", err);
        free(d);
    }
    load_spot(fe, w->level_name);
}

// The level's own pickups the host placed at its start, as the world's FSW_LPICK_INFO says the
// game placed them (engine/world_fs.h): none in a joiner's recording (its MSG_SHORTPICKUP list
// says what was there) or with random pickups (the game's shuffle is not reproduced).
static void place_level_pickups(r_fsent_t *fe, const world_t *w)
{
    if (!fe->pic || !world_entity_visible(w, FSW_LPICK_INFO)) {
        fe->num_placed = 0;
        return;
    }
    const entity_state_t *s = &w->entities[FSW_LPICK_INFO].cur;
    if (!(s->raw_effects & FSW_LPICK_HOST) || (s->raw_effects & FSW_LPICK_RANDOM)) {
        fe->num_placed = 0;
        fe->placed_ok = 0;
        return;
    }
    uint64_t allowed = (uint64_t)(uint32_t)s->sequence << 32 | (uint32_t)s->body;
    uint32_t flags = (uint32_t)s->skin;
    if (fe->placed_ok && allowed == fe->placed_allowed && flags == fe->placed_flags)
        return;
    fe->num_placed = fspic_place(fe->pic, allowed, flags, fe->placed, FSPIC_MAX_SLOTS);
    fe->placed_allowed = allowed;
    fe->placed_flags = flags;
    fe->placed_ok = 1;
}

// Is placed pickup i still there (no MSG_KILLPICKUP named its id)?
static int level_pickup_there(const r_fsent_t *fe, const world_t *w, int i)
{
    int id = fe->placed[i].id;
    return id >= 1 && id <= FSW_MAX_LPICK && !world_entity_visible(w, FSW_LPICK_INFO + id);
}

void r_fsent_destroy(r_fsent_t *fe)
{
    if (!fe)
        return;
    free_assets(fe);
    free(fe->scratch);
    free(fe);
}

void r_fsent_clear(r_fsent_t *fe)
{
    if (!fe)
        return;
    memset(fe->shots, 0, sizeof fe->shots);
    for (int i = 0; i < FSE_MAX_HOMING; i++)
        fe->homing[i].shot = -1;
    memset(fe->blasts, 0, sizeof fe->blasts);
    memset(fe->tracks, 0, sizeof fe->tracks);
    memset(fe->dying_seen, 0, sizeof fe->dying_seen);
    for (int p = 0; p < FSW_SHIPS; p++)
        fe->dying_until[p] = -1e30;
    memset(fe->damaged_seen, 0, sizeof fe->damaged_seen);
    fe->ships_primed = 0;
    fe->last_time = -1e30;
    fe->nsounds = 0;
    fe->nloops = 0;
    fe->pyro_mark = -1e30;
    memset(fe->mode_seen, -1, sizeof fe->mode_seen);
}

void r_fsent_load(r_fsent_t *fe, const asset_files_t *files, const uint8_t *palette, const mxv_t *level)
{
    if (!fe)
        return;
    free_assets(fe);
    r_fsent_clear(fe);
    r_fssnd_variants_clear(&fe->variants);   // the sound folder's variants, looked for again
    fe->on = files != NULL;
    fe->files = files ? *files : (asset_files_t){ NULL, NULL };
    if (palette)
        memcpy(fe->palette, palette, 768);
    fe->level = level;
    fe->hot_color = pal_nearest(fe->palette, 256, 255, 255, 255);
    fe->fw = NULL;
    fe->shade = NULL;
    fe->lights = NULL;
    fe->num_lights = 0;
}

static int texture(r_fsent_t *fe, const char *name)
{
    for (int i = 0; i < fe->num_tex; i++)
        if (!strcmp(fe->tex[i].name, name))
            return fe->tex[i].texels ? i : -1;
    if (fe->num_tex >= FSE_MAX_TEX)
        return -1;
    fse_tex_t *t = &fe->tex[fe->num_tex++];
    snprintf(t->name, sizeof t->name, "%s", name);
    char path[128];
    snprintf(path, sizeof path, "textures/%s", name);
    size_t size;
    uint8_t *d = asset_load(&fe->files, path, &size);
    uint8_t pal[768], *px = NULL;
    int w = 0, h = 0;
    char err[256];
    int rc = d ? mxv_bmp_load(d, size, MXV_MAX_TEX_SIDE, &w, &h, &px, pal, err, sizeof err) : -1;
    free(d);
    if (rc < 0) {
        log_warn("%s: %s; its triangles are drawn in their vertex colour", path, d ? err : "not found");
        return -1;
    }
    uint8_t map[256];
    for (int i = 0; i < 256; i++)
        map[i] = (uint8_t)pal_nearest(fe->palette, 256, pal[i * 3], pal[i * 3 + 1], pal[i * 3 + 2]);
    size_t n = (size_t)w * (size_t)h;
    t->key = malloc(n);
    if (!t->key) {
        free(px);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const uint8_t *c = pal + px[i] * 3;
        t->key[i] = (c[0] | c[1] | c[2]) == 0;
        px[i] = map[px[i]];
    }
    t->texels = px;
    t->width = w;
    t->height = h;
    while ((1 << t->wshift) < w)
        t->wshift++;
    return (int)(t - fe->tex);
}

// The model slot of `file`, loaded the first time.
static fse_model_t *model(r_fsent_t *fe, const char *file)
{
    if (!file)
        return NULL;
    fse_model_t *md = NULL;
    for (int i = 0; i < fe->num_models && !md; i++)
        if (!strcmp(fe->models[i].file, file))
            md = &fe->models[i];
    if (!md) {
        if (fe->num_models >= FSE_MAX_MODELS)
            return NULL;
        md = &fe->models[fe->num_models++];
        snprintf(md->file, sizeof md->file, "%s", file);
    }
    if (md->state == 0) {
        md->state = -1;
        char path[320], err[256];
        snprintf(path, sizeof path, "models/%s", file);
        size_t size;
        uint8_t *d = asset_load(&fe->files, path, &size);
        md->mx = d ? mx_load(d, size, file, err, sizeof err) : NULL;
        free(d);
        if (md->mx && md->mx->num_verts > fe->scratch_cap) {
            r_fsvert_t *s = realloc(fe->scratch, (size_t)md->mx->num_verts * sizeof *s);
            if (!s) {
                mx_free(md->mx);
                md->mx = NULL;
            } else {
                fe->scratch = s;
                fe->scratch_cap = md->mx->num_verts;
            }
        }
        if (md->mx && md->mx->anim_frames && !(md->pose = malloc((size_t)md->mx->num_verts * sizeof *md->pose))) {
            mx_free(md->mx);
            md->mx = NULL;
        }
        if (md->mx) {
            md->state = 1;
            for (int i = 0; i < md->mx->num_textures; i++)
                md->tex[i] = texture(fe, md->mx->texture_names[i]);
        }
    }
    return md->state == 1 ? md : NULL;
}

// The texture page `file` (lower case, under textures/), loaded and mapped to the palette the
// first time: 24-bit, power-of-two sides. The game adds these pages to the screen (assumed from
// the black surrounds of every sprite: the D3D blend mode was not found): texels whose
// brightest channel is under FSE_PAGE_KEY are keyed out; the rest is added (add_table).
static fse_page_t *page(r_fsent_t *fe, const char *file)
{
    fse_page_t *pg = NULL;
    for (int i = 0; i < fe->num_pages && !pg; i++)
        if (!strcmp(fe->pages[i].file, file))
            pg = &fe->pages[i];
    if (!pg) {
        if (fe->num_pages >= FSE_MAX_PAGES)
            return NULL;
        pg = &fe->pages[fe->num_pages++];
        snprintf(pg->file, sizeof pg->file, "%s", file);
    }
    if (pg->state)
        return pg->state == 1 ? pg : NULL;
    pg->state = -1;
    char path[64], err[256];
    snprintf(path, sizeof path, "textures/%s", file);
    size_t size;
    uint8_t *d = asset_load(&fe->files, path, &size), *rgb = NULL;
    int w = 0, h = 0;
    int rc = d ? mx_bmp24_load(d, size, 1024, &w, &h, &rgb, err, sizeof err) : -1;
    free(d);
    if (rc < 0 || (w & (w - 1)) || (h & (h - 1))) {
        log_warn("%s: %s; its sprites are drawn as glows", path,
                 !d ? "not found" : rc < 0 ? err : "expected power-of-two sides");
        free(rgb);
        return NULL;
    }
    size_t n = (size_t)w * (size_t)h;
    pg->px = malloc(n);
    pg->key = malloc(n);
    uint16_t *near = calloc(32768, sizeof *near);   // 15-bit colour -> 1 + palette index, 0 not yet
    if (pg->px && pg->key && near) {
        for (size_t i = 0; i < n; i++) {
            const uint8_t *c = rgb + i * 3;
            int mx = c[0] > c[1] ? c[0] : c[1];
            mx = mx > c[2] ? mx : c[2];
            pg->key[i] = mx < FSE_PAGE_KEY;
            pg->px[i] = 0;
            if (pg->key[i])
                continue;
            int k = (c[0] >> 3) << 10 | (c[1] >> 3) << 5 | c[2] >> 3;
            if (!near[k])
                near[k] = (uint16_t)(1 + pal_nearest(fe->palette, 256, c[0], c[1], c[2]));
            pg->px[i] = (uint8_t)(near[k] - 1);
        }
        pg->w = w;
        pg->h = h;
        while ((1 << pg->wshift) < w)
            pg->wshift++;
        pg->state = 1;
    } else {
        free(pg->px);
        free(pg->key);
        pg->px = pg->key = NULL;
    }
    free(near);
    free(rgb);
    return pg->state == 1 ? pg : NULL;
}

// The sprites' additive table (the game adds its FmPolys and trails to the screen: ONE + ONE),
// made for the palette the first time a sprite is drawn: [src * 256 + dst] is the palette
// colour nearest the two colours' sum. NULL (drawn over, keyed) if there is no memory.
static const uint8_t *add_table(r_fsent_t *fe)
{
    if (fe->add)
        return fe->add;
    uint8_t *t = malloc(65536);
    uint16_t *near = calloc(32768, sizeof *near);   // 15-bit colour -> 1 + palette index
    if (t && near) {
        for (int a = 0; a < 256; a++)
            for (int b = 0; b < 256; b++) {
                int c[3];
                for (int k = 0; k < 3; k++) {
                    int v = fe->palette[a * 3 + k] + fe->palette[b * 3 + k];
                    c[k] = v > 255 ? 255 : v;
                }
                int key = (c[0] >> 3) << 10 | (c[1] >> 3) << 5 | c[2] >> 3;
                if (!near[key])
                    near[key] = (uint16_t)(1 + pal_nearest(fe->palette, 256, c[0], c[1], c[2]));
                t[a * 256 + b] = (uint8_t)(near[key] - 1);
            }
        fe->add = t;
        t = NULL;
    }
    free(t);
    free(near);
    return fe->add;
}

// The sprite layout `file` (under offsets/) and its page, loaded the first time.
static const fse_layout_t *layout(r_fsent_t *fe, const char *file)
{
    fse_layout_t *lo = NULL;
    for (int i = 0; i < fe->num_layouts && !lo; i++)
        if (!strcmp(fe->layouts[i].file, file))
            lo = &fe->layouts[i];
    if (!lo) {
        if (fe->num_layouts >= FSE_MAX_LAYOUTS)
            return NULL;
        lo = &fe->layouts[fe->num_layouts++];
        snprintf(lo->file, sizeof lo->file, "%s", file);
    }
    if (lo->state)
        return lo->state == 1 ? lo : NULL;
    lo->state = -1;
    char path[64], err[256], pfile[FSOFF_NAME_LEN];
    snprintf(path, sizeof path, "offsets/%s", file);
    size_t size;
    uint8_t *d = asset_load(&fe->files, path, &size);
    lo->off = d ? fsoff_load(d, size, path, err, sizeof err) : NULL;
    free(d);
    if (!lo->off) {
        log_warn("%s; its sprites are drawn as glows", d ? err : "not found");
        return NULL;
    }
    const fse_page_t *pg = page(fe, fsoff_page_file(lo->off->pages[0], pfile, sizeof pfile));
    if (!pg)
        return NULL;
    lo->page = (int)(pg - fe->pages);
    lo->state = 1;
    return lo;
}

// ---- the level: light and walls -----------------------------------------------------

// The level's baked light around p (0..1): vertex lights weighted by 1 / (d^2 + 64^2).
static float level_light(const r_fsent_t *fe, const float p[3])
{
    const mxv_t *m = fe->level;
    if (!m || m->num_verts <= 0)
        return 1;
    double sum = 0, wsum = 0;
    for (int i = 0; i < m->num_verts; i++) {
        const float *q = m->verts[i].pos;
        float d[3] = { q[0] - p[0], q[1] - p[1], q[2] - p[2] };
        float d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (!(d2 < FSE_LIGHT_RADIUS * FSE_LIGHT_RADIUS))
            continue;
        double wt = 1.0 / (d2 + 64.0 * 64.0);
        sum += wt * m->verts[i].light;
        wsum += wt;
    }
    float l = wsum > 0 ? (float)(sum / wsum / 255.0) : FSE_MIN_LIGHT;
    return l < FSE_MIN_LIGHT ? FSE_MIN_LIGHT : l > 1 ? 1 : l;
}

// Distance along the unit `dir` from `org` to the first level triangle (either side), or `max`;
// `normal` (may be NULL) gets that triangle's unit normal turned to face `org` (-dir when none).
static float first_wall(const r_fsent_t *fe, const float org[3], const float dir[3], float max, float normal[3])
{
    const mxv_t *m = fe->level;
    int hit;
    float best = mxv_first_hit(m, org, dir, max, &hit);
    if (normal) {
        for (int k = 0; k < 3; k++)
            normal[k] = -dir[k];
        if (hit >= 0) {
            const float *a = m->verts[m->tris[hit].v[0]].pos, *b = m->verts[m->tris[hit].v[1]].pos,
                        *c = m->verts[m->tris[hit].v[2]].pos;
            float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
            float n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (len > 1e-12f) {
                float sgn = n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] > 0 ? -1.0f : 1.0f;
                for (int k = 0; k < 3; k++)
                    normal[k] = n[k] * sgn / len;
            }
        }
    }
    return best;
}

// ---- per decoded frame --------------------------------------------------------------

static fse_blast_t *add_blast(r_fsent_t *fe, const float org[3], float size, double t0)
{
    fse_blast_t *slot = &fe->blasts[0];
    for (int i = 0; i < FSE_MAX_BLASTS; i++) {
        if (!fe->blasts[i].active) {
            slot = &fe->blasts[i];
            break;
        }
        if (fe->blasts[i].t0 < slot->t0)
            slot = &fe->blasts[i];   // full: the oldest goes
    }
    slot->active = 1;
    memcpy(slot->org, org, sizeof slot->org);
    slot->size = !(size > 8) ? 8 : size > 2048 ? 2048 : size;
    slot->t0 = t0;
    slot->light = 0;
    slot->shock = 0;
    slot->seed = 0;
    return slot;
}

static int finite3(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static int homing_start(r_fsent_t *fe, fse_shot_t *sh);

static int is_mine(int weapon)
{
    return weapon == FSW_PURGEMINE || weapon == FSW_PINEMINE || weapon == FSW_QUANTUMMINE || weapon == FSW_SPIDERMINE;
}

// A secondary's up vector: the message's UpVector (the decoder's fx->end) made square to its
// direction; when that is missing or along the direction, the up of angles_from_dir's frame.
static void angles_from_dir(const float dir[3], float ang[3]);
static void shot_up(fse_shot_t *sh, const float up[3])
{
    float u[3] = { 0, 0, 0 }, l = 0;
    if (finite3(up)) {
        float d = up[0] * sh->dir[0] + up[1] * sh->dir[1] + up[2] * sh->dir[2];
        for (int k = 0; k < 3; k++)
            u[k] = up[k] - d * sh->dir[k];
        l = sqrtf(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    }
    if (!(l > 1e-3f) || !(l < 1e30f)) {
        float ang[3], f[3], r[3];
        angles_from_dir(sh->dir, ang);
        r_fs_angle_vectors(ang, f, r, u);
        l = 1;
    }
    for (int k = 0; k < 3; k++)
        sh->up[k] = u[k] / l;
}

// The leg of a primary's path it is on at t: when it began, where, along which unit direction and
// at what speed (units a second).
static void normalize3(float a[3]);

static void shot_leg(const fse_shot_t *sh, double t, double *t_start, float org[3], float dir[3], float *speed)
{
    int b = sh->legs;
    while (b > 0 && t < sh->bounce_t[b - 1])
        b--;
    if (b == 0) {
        *t_start = sh->t0;
        memcpy(org, sh->org, sizeof sh->org);
        memcpy(dir, sh->dir, sizeof sh->dir);
        *speed = sh->speed;
    } else {
        *t_start = sh->bounce_t[b - 1];
        memcpy(org, sh->bounce_at[b - 1], sizeof sh->bounce_at[0]);
        memcpy(dir, sh->bounce_dir[b - 1], sizeof sh->bounce_dir[0]);
        *speed = sh->bounce_speed[b - 1];
    }
}

// A primary that met its wall and bounces (ProcessPrimaryBullets' "Hit Background": the pyrolite
// takes NewDir, its direction reflected at the wall, and flies on at its speed until its LifeCount
// (64 ticks) is spent; the transpulse, after CreateArcExplosion there, ChangeTranspulseDir: while
// it has Bounces left (TRANSPULSE_BOUNCES 1) one less, half its speed, NewDir): its legs on from
// that wall, each to the next wall, `life` seconds from t0 in all; where and when it ends last.
static void follow_bounces(r_fsent_t *fe, fse_shot_t *sh, float life)
{
    int max = sh->weapon == FSW_TRANSPULSE ? FSE_TRANSPULSE_BOUNCES : sh->weapon == FSW_PYROLITE ? FSE_MAX_BOUNCES : 0;
    while (sh->hit && sh->legs < max) {
        double left = sh->t0 + life - sh->t_end, ts;
        float org[3], dir[3], speed;
        shot_leg(sh, sh->t_end, &ts, org, dir, &speed);
        if (sh->weapon == FSW_TRANSPULSE)
            speed *= 0.5f;
        if (!(left > 0) || !(speed > 0))
            break;
        int b = sh->legs++;
        float d = dir[0] * sh->normal[0] + dir[1] * sh->normal[1] + dir[2] * sh->normal[2];
        for (int k = 0; k < 3; k++) {
            sh->bounce_dir[b][k] = dir[k] - 2 * d * sh->normal[k];   // ReflectVector
            sh->bounce_at[b][k] = sh->end[k];
            sh->bounce_normal[b][k] = sh->normal[k];
        }
        normalize3(sh->bounce_dir[b]);
        sh->bounce_t[b] = sh->t_end;
        sh->bounce_speed[b] = speed;
        float reach = (float)(speed * left);
        float wall = first_wall(fe, sh->bounce_at[b], sh->bounce_dir[b], reach, sh->normal);
        sh->hit = wall < reach;
        for (int k = 0; k < 3; k++)
            sh->end[k] = sh->bounce_at[b][k] + sh->bounce_dir[b][k] * wall;
        sh->t_end = sh->bounce_t[b] + (sh->hit ? wall / speed : left);
    }
}

static fse_shot_t *add_shot(r_fsent_t *fe, const world_fx_event_t *fx, int secondary, double t0)
{
    if (!finite3(fx->origin) || !finite3(fx->dir))
        return NULL;
    float len = sqrtf(fx->dir[0] * fx->dir[0] + fx->dir[1] * fx->dir[1] + fx->dir[2] * fx->dir[2]);
    if (!(len > 1e-6f))
        return NULL;
    int weapon = fx->args[FSW_FX_ARG_WEAPON];
    if (secondary ? (weapon < 0 || weapon >= FSW_NUM_SECONDARY) : (weapon < 0 || weapon >= FSW_NUM_PRIMARY))
        return NULL;
    fse_shot_t *slot = &fe->shots[0];
    for (int i = 0; i < FSE_MAX_SHOTS; i++) {
        if (!fe->shots[i].active) {
            slot = &fe->shots[i];
            break;
        }
        if (fe->shots[i].t0 < slot->t0)
            slot = &fe->shots[i];
    }
    memset(slot, 0, sizeof *slot);
    slot->active = 1;
    slot->secondary = secondary;
    slot->weapon = weapon;
    slot->power = fx->args[FSW_FX_ARG_POWER] < 0 ? 0 : fx->args[FSW_FX_ARG_POWER] > 2 ? 2 : fx->args[FSW_FX_ARG_POWER];
    slot->owner = fx->args[FSW_FX_ARG_OWNER];
    int charge = fx->args[FSW_FX_ARG_CHARGE];
    slot->charge = charge >= 0 && charge <= 100 ? (float)charge : FSE_TROJAX_CHARGE;
    slot->id = fx->args[FSW_FX_ARG_ID];
    int life0 = fx->args[FSW_FX_ARG_LIFE];
    slot->life0 = life0 > 0 ? (float)(life0 < FSW_FX_MAX_LIFE ? life0 : FSW_FX_MAX_LIFE) : 0;
    slot->t0 = t0;
    for (int k = 0; k < 3; k++) {
        slot->org[k] = fx->origin[k];
        slot->dir[k] = fx->dir[k] / len;
    }
    float life;   // seconds
    if (secondary) {
        int mine = is_mine(weapon);
        slot->speed = r_fsfx_missile_move(weapon, 1, NULL) * FSE_TICKS;   // units a second once flying straight
        if (weapon == FSW_MFRL)
            slot->speed = (r_fsfx_missile_move(weapon, 5, NULL) - r_fsfx_missile_move(weapon, 4, NULL)) * FSE_TICKS;
        life = mine ? 60 : 10;
        float dl = sqrtf(fx->pos3[0] * fx->pos3[0] + fx->pos3[1] * fx->pos3[1] + fx->pos3[2] * fx->pos3[2]);
        for (int k = 0; k < 3 && finite3(fx->pos3) && dl > 1e-6f; k++)
            slot->drop[k] = fx->pos3[k] / dl;
        shot_up(slot, fx->end);
        memcpy(slot->aim, slot->dir, sizeof slot->aim);
        memcpy(slot->aim_up, slot->up, sizeof slot->aim_up);
    } else {
        slot->speed = fsw_primary_speed(weapon) * FSE_TICKS;
        life = fsw_primary_life(weapon) / FSE_TICKS;
    }
    // the laser reaches the wall at once; everything else flies until it meets one
    if (secondary && r_fsfx_homing(weapon, NULL, NULL) && homing_start(fe, slot)) {
        // a homing missile: its path (and where it ends) is stepped as the frames come (homing_frame)
        slot->hit = 0;
        slot->t_end = t0 + (weapon == FSW_THIEF ? FSFX_THIEF_LIFE : life * FSE_TICKS) / FSE_TICKS;
        memcpy(slot->end, slot->org, sizeof slot->end);
        for (int k = 0; k < 3; k++)
            slot->normal[k] = -slot->dir[k];
    } else if (secondary && slot->speed > 0) {
        // a missile: its fall first (the MFRL's, along its drop vector), then along its direction
        // from where the fall ended, each at its own pace (r_fsfx_missile_move)
        float fall, start[3];
        float reach = r_fsfx_missile_move(weapon, life * FSE_TICKS, &fall);
        float fwall = fall > 0 ? first_wall(fe, slot->org, slot->drop, fall, slot->normal) : 0;
        float wall = fwall < fall ? 0 : first_wall(fe, (float[3]){ slot->org[0] + slot->drop[0] * fall,
                                                                   slot->org[1] + slot->drop[1] * fall,
                                                                   slot->org[2] + slot->drop[2] * fall },
                                                   slot->dir, reach, slot->normal);
        for (int k = 0; k < 3; k++)
            start[k] = slot->org[k] + slot->drop[k] * (fwall < fall ? fwall : fall);
        slot->hit = fwall < fall || wall < reach;
        for (int k = 0; k < 3; k++)
            slot->end[k] = start[k] + slot->dir[k] * wall;
        slot->t_end = t0 + (fwall < fall ? fwall / FSFX_MISSILE_SPEED : r_fsfx_missile_ticks(weapon, wall)) / FSE_TICKS;
    } else {
        float reach = slot->speed > 0 ? slot->speed * life : weapon == FSW_LASER && !secondary ? 16384 : 0;
        float wall = reach > 0 ? first_wall(fe, slot->org, slot->dir, reach, slot->normal) : 0;
        slot->hit = wall < reach;
        for (int k = 0; k < 3; k++)
            slot->end[k] = slot->org[k] + slot->dir[k] * wall;
        slot->t_end = t0 + (slot->speed > 0 ? wall / slot->speed : life);
        if (!secondary && slot->speed > 0)
            follow_bounces(fe, slot, life);
    }
    slot->wall_t_end = slot->t_end;
    slot->wall_hit = slot->hit;
    memcpy(slot->wall_end, slot->end, sizeof slot->end);
    memcpy(slot->wall_normal, slot->normal, sizeof slot->normal);
    slot->checked = t0;
    if (!secondary && weapon == FSW_LASER) {   // its wall, until laser_frame finds a ship on the way
        float reach = 0;
        for (int k = 0; k < 3; k++)
            reach += (slot->end[k] - slot->org[k]) * (slot->end[k] - slot->org[k]);
        reach = sqrtf(reach);
        for (int k = 0; k <= FSE_LASER_TICKS; k++) {
            slot->beam[k] = reach;
            memcpy(slot->beam_normal[k], slot->normal, sizeof slot->normal);
        }
    }
    return slot;
}

static int shot_at(const fse_shot_t *sh, double t, float p[3]);

// What a shot adds to a ship's SHIP_RADIUS in CheckHitShip: its ColRadius for COLTYPE_Sphere and
// COLTYPE_Trojax (COLTYPE_Transpulse: ColRadius x a factor of the angles, COLTYPE_Point: nothing).
// PrimaryWeaponAttribs[] / Primary.h: every primary's ColRadius is 0 but the trojax's, which
// InitOnePrimBull sets from its charge, (3 + PLevel x 0.075) x GLOBAL_SCALE x 30; the missiles
// (ProcessMissiles: COLTYPE_Sphere) SecondaryWeaponAttribs[]' ColRadius, 0 but the titan's
// shrapnel's SHIP_RADIUS.
static float shot_col_radius(const fse_shot_t *sh)
{
    if (sh->secondary)
        return sh->weapon == FSW_TITANSHRAPNEL ? FSE_SHIP_RADIUS : 0;
    return sh->weapon == FSW_TROJAX ? (3 + sh->charge * 0.075f) * 0.25f * 30 : 0;
}

// One straight piece of a shot's sweep, ta..tb, against every ship's sphere (each ship moving
// straight between its places at the two ends): the ship it meets first (0 none), *best the time
// and dir the way from that ship's centre to the meeting point.
static int ship_pos_at(const r_fsent_t *fe, int num, double t, float out[3]);

static int sweep_ships(const r_fsent_t *fe, const world_t *w, const fse_shot_t *sh, double ta, double tb, float radius,
                       double *best, float dir[3])
{
    float sa[3], sb[3];
    int who = 0;
    shot_at(sh, ta, sa);
    shot_at(sh, tb, sb);
    int (*ship_at)(const r_fsent_t *, int, double, float *) = sh->hm ? ship_pos_at : r_fsent_ship_origin;
    for (int p = 0; p < FSW_SHIPS; p++) {
        int num = p + 1;
        float pa[3], pb[3];
        if (num == sh->owner + 1 || !world_entity_visible(w, num) || w->entities[num].cur.modelindex != FSW_MODEL_SHIP ||
            !ship_at(fe, num, ta, pa) || !ship_at(fe, num, tb, pb))
            continue;
        // |d0 + (d1 - d0) u| = R for the first u in 0..1
        float d0[3], dd[3], A = 0, B = 0, C = 0;
        for (int k = 0; k < 3; k++) {
            d0[k] = sa[k] - pa[k];
            dd[k] = (sb[k] - pb[k]) - d0[k];
            A += dd[k] * dd[k];
            B += 2 * d0[k] * dd[k];
            C += d0[k] * d0[k];
        }
        C -= radius * radius;
        // inside already: fired from within that sphere (a ship entering it later is met on the way in)
        float disc = B * B - 4 * A * C;
        if (C <= 0 || A < 1e-9f || disc < 0)
            continue;
        float u = (-B - sqrtf(disc)) / (2 * A);
        if (u < 0 || u > 1)
            continue;
        double th = ta + u * (tb - ta);
        if (th < *best) {
            *best = th;
            who = num;
            for (int k = 0; k < 3; k++)
                dir[k] = d0[k] + dd[k] * u;
        }
    }
    return who;
}

// A shot against the ships, as every client's CheckHitShip ran it (ProcessPrimaryBullets for the
// primaries, ProcessMissiles for the missiles: every machine, not only the shooter's): the shot's
// line against each ship's sphere of SHIP_RADIUS (300 x GLOBAL_SCALE = 75 units) plus the shot's
// own ColRadius, never its owner's. Swept
// from the time checked last to this frame and on by FSE_HIT_AHEAD (the frames drawn before the
// next one), each ship moving straight between its places at the two ends; the first hit ends
// the shot there (its impact drawn as on a wall) and the ship's shield flashes. A hit found in
// the part ahead is tried again when the next frame brings the ships' new places. A shot fired
// from inside a ship's sphere does not hit that ship (only a way in counts).
static void hit_ships(r_fsent_t *fe, const world_t *w, fse_shot_t *sh, double now)
{
    if (!sh->active || (!sh->secondary && sh->weapon == FSW_LASER) || !(sh->speed > 0) || sh->hm)
        return;   // the laser reaches its wall at once; mines stay (their explosion is MSG_EXPSECONDARY's);
                  // a homing missile meets walls and ships as it is stepped (homing_frame)
    if (sh->ship && sh->t_end > sh->checked) {   // found ahead of the last frame: again
        sh->ship = 0;
        sh->bare = 0;
        sh->t_end = sh->wall_t_end;
        sh->hit = sh->wall_hit;
        memcpy(sh->end, sh->wall_end, sizeof sh->end);
        memcpy(sh->normal, sh->wall_normal, sizeof sh->normal);
    }
    if (sh->ship)
        return;
    double ta = sh->checked, tb = now + FSE_HIT_AHEAD;
    tb = tb < sh->wall_t_end ? tb : sh->wall_t_end;
    sh->checked = now > sh->checked ? now : sh->checked;
    if (!(tb > ta))
        return;
    float radius = FSE_SHIP_RADIUS + shot_col_radius(sh);
    double best = tb + 1;
    int who = 0;
    float dir[3] = { 0, 0, 0 };
    // the shot moves straight at one pace between these times (the MFRL changes at the end of its
    // fall and a tick later: swept in those pieces, the first piece with a hit wins)
    double cut[FSE_MAX_BOUNCES + 4] = { ta, tb, tb, tb };
    int ncut = 2;
    if (!sh->secondary && sh->legs) {   // a bounce turns it: each leg swept on its own
        ncut = 0;
        cut[ncut++] = ta;
        for (int b = 0; b < sh->legs; b++)
            if (sh->bounce_t[b] > ta && sh->bounce_t[b] < tb)
                cut[ncut++] = sh->bounce_t[b];
        cut[ncut++] = tb;
    }
    if (sh->secondary && sh->weapon == FSW_MFRL) {
        ncut = 0;
        cut[ncut++] = ta;
        for (int b = 0; b < 2; b++) {
            double tc = sh->t0 + (FSFX_MFRL_DROP + b) / FSE_TICKS;
            if (tc > ta && tc < tb)
                cut[ncut++] = tc;
        }
        cut[ncut++] = tb;
    }
    for (int piece = 0; piece + 1 < ncut && !who; piece++)
        who = sweep_ships(fe, w, sh, cut[piece], cut[piece + 1], radius, &best, dir);
    if (!who)
        return;
    sh->ship = who;
    // a ship with no shield and not invulnerable sparks (CreateColSparks); one whose shield the
    // demo never said is taken to have it
    sh->bare = w->players[who - 1].shield == 0 &&
               !(w->entities[who].cur.raw_effects & FSW_SHIP_INVUL);
    sh->t_end = best;
    sh->hit = 1;
    shot_at(sh, best, sh->end);
    float l = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    for (int k = 0; k < 3; k++) {
        sh->ship_dir[k] = l > 1e-6f ? dir[k] / l : -sh->dir[k];
        sh->normal[k] = sh->ship_dir[k];   // the impact lies on the sphere, facing out
    }
}

static int ship_mode(const world_t *w, int num);

// ---- mines (secondary.c ProcessMines, CheckProximityToShips, DestroySecondary, ExplodeSecondary,
// CreateShockwave; docs/forsaken.md "Mines") ------------------------------------------

// DestroySecondary's ShockwaveSize of each mine (PURGE_SHOCKWAVE 4, PINE_SHOCKWAVE 4 + its Ammo / 2:
// InitOneSecBull gives the pine mine Ammo 10 and ProcessMines fires its missiles without lowering
// it, so 4 + 5 = 9; QUANTUM_SHOCKWAVE 20, SPIDER_SHOCKWAVE 4)
static float mine_shockwave(int weapon)
{
    return weapon == FSW_QUANTUMMINE ? 20.0f : weapon == FSW_PINEMINE ? 4.0f + FSE_PINE_AMMO / 2 : 4.0f;
}

// Where a mine is at t (ProcessMines: the purge and quantum mines bob along their up vector from
// where they were laid, by their LifeCount: the list's for one from MSG_SHORTMINE, plus the ticks since).
static void mine_pos(const fse_shot_t *sh, double t, float p[3])
{
    float h = r_fsfx_mine_bob(sh->weapon, sh->life0 + (float)((t - sh->t0) * FSE_TICKS));
    for (int k = 0; k < 3; k++)
        p[k] = sh->org[k] + sh->up[k] * h;
}

// A mine's axes at t: its direction and up vector (x = up x z), turned about its up as ProcessMines
// turns it (r_fsfx_mine_turn: the forward swinging towards the right; which way the game's MakeQuat
// turns was not checked).
static void mine_axes(const fse_shot_t *sh, double t, float right[3], float up[3], float fwd[3])
{
    if (sh->weapon == FSW_PINEMINE) {   // no spin: where pine_aim has turned it (up x forward = right)
        const float *u = sh->aim_up, *d = sh->aim;
        float r[3] = { u[1] * d[2] - u[2] * d[1], u[2] * d[0] - u[0] * d[2], u[0] * d[1] - u[1] * d[0] };
        memcpy(right, r, sizeof r);
        memcpy(up, u, sizeof r);
        memcpy(fwd, d, sizeof r);
        return;
    }
    double a = r_fsfx_mine_turn(sh->weapon, (float)((t - sh->t0) * FSE_TICKS)) * (M_PI / 180);
    float ca = (float)cos(a), sa = (float)sin(a);
    const float *u = sh->up, *d = sh->dir;
    float r[3] = { u[1] * d[2] - u[2] * d[1], u[2] * d[0] - u[0] * d[2], u[0] * d[1] - u[1] * d[0] };
    for (int k = 0; k < 3; k++) {
        fwd[k] = d[k] * ca + r[k] * sa;
        right[k] = r[k] * ca - d[k] * sa;
        up[k] = u[k];
    }
}

// A mine goes off at time te (ExplodeSecondary: CreateShockwave's flash and explosion where it is,
// the mine gone).
static void mine_off(fse_shot_t *sh, double te, float shock)
{
    sh->hit = 1;
    sh->t_end = sh->wall_t_end = te;
    mine_pos(sh, te, sh->end);
    for (int k = 0; k < 3; k++)
        sh->normal[k] = -sh->dir[k];
    sh->shock = shock;
}

static int homing_sees(const r_fsent_t *fe, const world_t *w, const fse_shot_t *sh, int num, const float p[3],
                       const float dir[3], float cone, double t, float to[3], float *cos_out);

// ProcessMines' PINEMINE aiming at tick time tk (every machine runs it on every pine mine): the most
// centred ship in its cone (TargetClosestShip: every ship but the owner, not in limbo, no wall on the
// line; the cone is all round) from where the mine is along its direction; the mine turns towards it
// by at most TurnSpeed (0.75 degrees a tick, the game's quaternion lerp by D2R(TurnSpeed) x framelag /
// Angle), its up turned with it. No ship: it stays as it is. (Its firing, on its owner's machine
// only, sends a MSG_SECBULLPOSDIR of its own: the pine missiles come from the demo.)
static void pine_aim(const r_fsent_t *fe, const world_t *w, fse_shot_t *sh, double tk)
{
    float best = -2, want[3] = { 0, 0, 0 };
    int target = 0;
    for (int q = 0; q < FSW_SHIPS; q++) {
        int num = q + 1, mode = ship_mode(w, num);
        float to[3], c;
        if (mode < 0 || mode == 2)
            continue;   // not a ship, or in limbo
        if (homing_sees(fe, w, sh, num, sh->org, sh->aim, FSE_PINE_CONE, tk, to, &c) && c > best) {
            best = c;
            target = num;
            memcpy(want, to, sizeof want);
        }
    }
    if (!target)
        return;
    float nd[3];
    r_fsfx_turn_towards(sh->aim, want, FSE_PINE_TURN * (float)(M_PI / 180), nd);
    // the up goes round with it: the rotation about aim x nd taking aim to nd (Rodrigues)
    float ax[3] = { sh->aim[1] * nd[2] - sh->aim[2] * nd[1], sh->aim[2] * nd[0] - sh->aim[0] * nd[2],
                    sh->aim[0] * nd[1] - sh->aim[1] * nd[0] };
    float sn = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    float cs = sh->aim[0] * nd[0] + sh->aim[1] * nd[1] + sh->aim[2] * nd[2];
    float u[3];
    memcpy(u, sh->aim_up, sizeof u);
    if (sn > 1e-7f) {
        for (int k = 0; k < 3; k++)
            ax[k] /= sn;
        float kxu[3] = { ax[1] * u[2] - ax[2] * u[1], ax[2] * u[0] - ax[0] * u[2], ax[0] * u[1] - ax[1] * u[0] };
        float kdu = ax[0] * u[0] + ax[1] * u[1] + ax[2] * u[2];
        for (int k = 0; k < 3; k++)
            u[k] = u[k] * cs + kxu[k] * sn + ax[k] * kdu * (1 - cs);
    }
    float d = u[0] * nd[0] + u[1] * nd[1] + u[2] * nd[2], l = 0;
    for (int k = 0; k < 3; k++) {
        u[k] -= d * nd[k];
        l += u[k] * u[k];
    }
    l = sqrtf(l);
    if (l > 1e-6f)
        for (int k = 0; k < 3; k++)
            sh->aim_up[k] = u[k] / l;
    memcpy(sh->aim, nd, sizeof nd);
}

// A sound for this frame's list (r_fsent_sounds) in one of `groups` (the level's), at the game's
// VolModify `volume`: played as loud as the game's StartPannedSfx makes it for the camera (r_fssnd.c:
// distance + SoundInfo, cut at 6144, not heard from a negative entry), with no attenuation of the
// sound system's own; without a camera (no view), at `volume` with normal attenuation. NULL or a full
// list: none.
static void add_sound_in(r_fsent_t *fe, const char *name, const float at[3], float volume, const int *groups, int ng)
{
    if (!name || fe->nsounds >= FSE_MAX_SOUNDS)
        return;
    float att = 1;
    if (fe->eye_ok) {
        float d[3] = { at[0] - fe->eye[0], at[1] - fe->eye[1], at[2] - fe->eye[2] };
        float extra = r_fssnd_extra(fe->level, fe->eye_groups, fe->n_eye_groups, groups, ng);
        volume = extra < 0 ? 0 : r_fssnd_gain(sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + extra, volume);
        if (!(volume > 0))
            return;
        att = 0;
    }
    // the variant (NAME01.wav ...) from the sound's place and time: the same every time it is decided
    uint32_t b[3];
    memcpy(b, at, sizeof b);
    uint32_t seed = world_hash32(b[0] ^ world_hash32(b[1] ^ world_hash32(b[2] ^ (uint32_t)llround(fe->last_time * FSE_TICKS))));
    r_sound_t *rs = &fe->sounds[fe->nsounds++];
    rs->name = r_fssnd_variant(&fe->variants, &fe->files, name, seed);
    memcpy(rs->origin, at, sizeof rs->origin);
    rs->volume = volume;
    rs->attenuation = att;
}

// The same in the groups whose boxes hold `at`.
static void add_sound(r_fsent_t *fe, const char *name, const float at[3], float volume)
{
    int g[FSE_SOUND_GROUPS];
    add_sound_in(fe, name, at, volume, g, r_fssnd_groups(fe->level, at, g, FSE_SOUND_GROUPS));
}

// ProcessMines' proximity trigger, as every machine ran it on every mine (no message is sent: the
// recorder's copy decided it, so a demo's player decides it again): each tick of the mine's life up
// to this frame, any ship (not its owner while its LifeCount is under 150 ticks: a mine from
// MSG_SHORTMINE starts at the list's LifeCount) not in limbo whose centre is within
// MINE_TRIGGER_RADIUS of the mine with no wall on the line between sets it off.
static void mine_proximity(r_fsent_t *fe, const world_t *w, fse_shot_t *sh, double now)
{
    if (!sh->active || !sh->secondary || !is_mine(sh->weapon) || sh->hit)
        return;
    double until = now < sh->t_end ? now : sh->t_end;
    // the next tick after the one checked last (checked is that tick's time: rounded, as
    // (t0 + k / 71 - t0) x 71 may come out a hair under k and the tick be taken twice)
    int k = (int)floor((sh->checked - sh->t0) * FSE_TICKS + 0.5) + 1;
    for (; k >= 1 && sh->t0 + k / FSE_TICKS <= until + 1e-9; k++) {
        double tk = sh->t0 + k / FSE_TICKS;
        for (int p = 0; p < FSW_SHIPS; p++) {
            int num = p + 1, mode = ship_mode(w, num);
            float at[3], mp[3];
            if ((k + sh->life0 < FSE_MINE_OWNER_SAFE && num == sh->owner + 1) || mode < 0 || mode == 2 ||
                !ship_pos_at(fe, num, tk, at))
                continue;
            mine_pos(sh, tk, mp);
            float d[3] = { at[0] - mp[0], at[1] - mp[1], at[2] - mp[2] };
            float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (!(len < FSE_MINE_TRIGGER))
                continue;
            if (len > 1e-3f) {
                for (int j = 0; j < 3; j++)
                    d[j] /= len;
                if (first_wall(fe, mp, d, len, NULL) < len)
                    continue;
            }
            mine_off(sh, tk, mine_shockwave(sh->weapon));
            sh->checked = tk;
            // DestroySecondary's sound, then ExplodeSecondary's CreateShockwave's CreateExplosion's
            // SFX_BangBang (every machine plays them: no message carries this)
            add_sound(fe, r_fsfx_mine_sound(sh->weapon), sh->end, 1);
            add_sound(fe, FSFX_SND_BANG, sh->end, 1);
            sh->sounded = 1;
            return;
        }
        if (sh->weapon == FSW_PINEMINE)
            pine_aim(fe, w, sh, tk);
        sh->checked = tk;
    }
}

// ---- homing missiles (secondary.c ProcessMissiles' MIS_STRAIGHT / MIS_HOMING, TargetClosestShip,
// StillGotTarget; docs/forsaken.md "Homing missiles") -----------------------------------

// A ship's place at t from the decoded frames: between its last two updates, on the line between
// them; after the last, moved on by its speed (r_fsent_ship_origin); before them, the older one.
static int ship_pos_at(const r_fsent_t *fe, int num, double t, float out[3])
{
    if (!fe || num < 1 || num > FSW_SHIPS || !fe->tracks[num - 1].valid)
        return 0;
    const fse_track_t *tr = &fe->tracks[num - 1];
    if (t >= tr->t_cur || !(tr->t_cur > tr->t_prev))
        return r_fsent_ship_origin(fe, num, t, out);
    float u = t <= tr->t_prev ? 0 : (float)((t - tr->t_prev) / (tr->t_cur - tr->t_prev));
    for (int k = 0; k < 3; k++)
        out[k] = tr->prev[k] + (tr->cur[k] - tr->prev[k]) * u;
    return 1;
}

// A path for a new homing missile (the first free one, else the one of the oldest shot); 0 none.
static int homing_start(r_fsent_t *fe, fse_shot_t *sh)
{
    int idx = (int)(sh - fe->shots), pick = -1;
    double oldest = 1e300;
    for (int i = 0; i < FSE_MAX_HOMING; i++) {
        int s = fe->homing[i].shot;
        if (s < 0 || s >= FSE_MAX_SHOTS || s == idx || !fe->shots[s].active || fe->shots[s].hm != &fe->homing[i]) {
            pick = i;
            break;
        }
        if (fe->shots[s].t0 < oldest) {
            oldest = fe->shots[s].t0;
            pick = i;
        }
    }
    if (pick < 0)
        return 0;
    fse_homing_t *hm = &fe->homing[pick];
    int s = hm->shot;
    if (s >= 0 && s < FSE_MAX_SHOTS && s != idx && fe->shots[s].hm == hm) {
        fse_shot_t *old = &fe->shots[s];   // that older one's path is gone: it ends here if it still flies
        old->hm = NULL;
        if (old->t_end > sh->t0) {
            old->t_end = old->wall_t_end = sh->t0 > old->t0 ? sh->t0 : old->t0;
            old->hit = old->wall_hit = 0;
            old->ship = 0;
        }
    }
    hm->shot = idx;
    hm->n = hm->n_done = 1;
    memcpy(hm->pos[0], sh->org, sizeof hm->pos[0]);
    memcpy(hm->dir[0], sh->dir, sizeof hm->dir[0]);
    memset(&hm->cur, 0, sizeof hm->cur);
    hm->cur.coldist = -1;
    hm->done = hm->cur;
    sh->hm = hm;
    return 1;
}

// Whether `num` can be followed from p along dir: a ship other than the owner, in its view cone,
// no wall between (BackgroundCollide on the line to it); its cosine in *cos_out.
static int homing_sees(const r_fsent_t *fe, const world_t *w, const fse_shot_t *sh, int num, const float p[3],
                       const float dir[3], float cone, double t, float to[3], float *cos_out)
{
    float at[3];
    if (num == sh->owner + 1 || !ship_pos_at(fe, num, t, at))
        return 0;
    float d[3] = { at[0] - p[0], at[1] - p[1], at[2] - p[2] };
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 1e-3f))
        return 0;
    for (int k = 0; k < 3; k++)
        to[k] = d[k] / len;
    float c = to[0] * dir[0] + to[1] * dir[1] + to[2] * dir[2];
    if (!(c >= cone - 1e-6f))   // (the thief's cone is all round: cosine -1)
        return 0;
    (void)w;
    if (first_wall(fe, p, to, len, NULL) < len)
        return 0;
    *cos_out = c;
    return 1;
}

// Step a homing missile's path tick by tick up to `until` (each tick as ProcessMissiles does it:
// MIS_STRAIGHT looks for the most centred ship in its cone (TargetClosestShip) and becomes
// MIS_HOMING without turning yet; MIS_HOMING keeps its ship while StillGotTarget (a normal-mode
// ship still in the cone with no wall between), turning towards it by at most TurnSpeed, else it
// flies straight again and finds its wall anew; then it moves MISSILE_SPEED along its direction,
// flying straight against the wall ahead found once (ColStart, ColDist), homing against the move
// itself, and against the ships' spheres along the move, the nearer ending it). Sets the shot's end.
static void homing_step(r_fsent_t *fe, const world_t *w, fse_shot_t *sh, fse_homing_t *hm, double until)
{
    float turn, cone;
    if (!r_fsfx_homing(sh->weapon, &turn, &cone))
        return;
    const float step = FSFX_MISSILE_SPEED;
    while (!hm->cur.ended && hm->n < FSE_HOMING_TICKS) {
        int k = hm->n;
        double tp = sh->t0 + (k - 1) / FSE_TICKS, tk = sh->t0 + k / FSE_TICKS;
        if (tk > until)
            break;
        fse_homing_state_t *st = &hm->cur;
        const float *p = hm->pos[k - 1];
        float dir[3];
        memcpy(dir, hm->dir[k - 1], sizeof dir);
        if (sh->weapon == FSW_THIEF && (float)k > FSFX_THIEF_LIFE) {
            // its LifeSpan: CreateExplosion where it is (no shockwave)
            st->ended = 1;
            sh->hit = 1;
            sh->t_end = tp;
            memcpy(sh->end, p, sizeof sh->end);
            for (int j = 0; j < 3; j++)
                sh->normal[j] = -dir[j];
            break;
        }
        float to[3], c;
        if (!st->target) {
            float best = -2;
            for (int q = 0; q < FSW_SHIPS; q++) {
                int num = q + 1, mode = ship_mode(w, num);
                if (mode < 0 || mode == 2)
                    continue;   // not a ship, or in limbo
                if (homing_sees(fe, w, sh, num, p, dir, cone, tp, to, &c) && c > best) {
                    best = c;
                    st->target = num;
                }
            }
        } else if (ship_mode(w, st->target) == 0 && homing_sees(fe, w, sh, st->target, p, dir, cone, tp, to, &c)) {
            float nd[3];
            r_fsfx_turn_towards(dir, to, turn, nd);
            memcpy(dir, nd, sizeof dir);
        } else {
            st->target = 0;   // lost: MIS_STRAIGHT, its wall found anew (ColFlag 0)
            st->coldist = -1;
        }
        // the wall: flying straight, the one ahead found once; homing, along this move
        float wall, wnormal[3];
        if (!st->target) {
            if (st->coldist < 0) {
                memcpy(st->colstart, p, sizeof st->colstart);
                st->coldist = first_wall(fe, p, dir, step * FSE_HOMING_TICKS, st->colnormal);
            }
            float gone = 0;
            for (int j = 0; j < 3; j++)
                gone += (p[j] - st->colstart[j]) * (p[j] - st->colstart[j]);
            wall = st->coldist - sqrtf(gone);
            memcpy(wnormal, st->colnormal, sizeof wnormal);
        } else {
            wall = first_wall(fe, p, dir, step, wnormal);
        }
        for (int j = 0; j < 3; j++) {
            hm->pos[k][j] = p[j] + dir[j] * step;
            hm->dir[k][j] = dir[j];
        }
        hm->n = k + 1;
        // the ships along the move (each moving between its places at the move's two ends)
        double best = tk + 1;
        float sdir[3] = { 0, 0, 0 };
        int who = sweep_ships(fe, w, sh, tp, tk, FSE_SHIP_RADIUS + shot_col_radius(sh), &best, sdir);
        if (who && (best - tp) * FSE_TICKS * step < wall) {
            st->ended = 1;
            sh->ship = who;
            sh->bare = w->players[who - 1].shield == 0 && !(w->entities[who].cur.raw_effects & FSW_SHIP_INVUL);
            sh->t_end = best;
            sh->hit = 1;
            shot_at(sh, best, sh->end);
            float l = sqrtf(sdir[0] * sdir[0] + sdir[1] * sdir[1] + sdir[2] * sdir[2]);
            for (int j = 0; j < 3; j++)
                sh->ship_dir[j] = sh->normal[j] = l > 1e-6f ? sdir[j] / l : -dir[j];
        } else if (wall < step) {
            st->ended = 1;
            sh->hit = 1;
            sh->t_end = tp + (wall > 0 ? wall : 0) / step / FSE_TICKS;
            for (int j = 0; j < 3; j++) {
                sh->end[j] = p[j] + dir[j] * (wall > 0 ? wall : 0);
                sh->normal[j] = wnormal[j];
            }
        }
    }
}

// Each decoded frame: a homing missile's points past the last frame are stepped again (the ships
// are where this frame puts them), then it is stepped to this frame (kept) and FSE_HIT_AHEAD on.
static void homing_frame(r_fsent_t *fe, const world_t *w, int ahead)
{
    for (int i = 0; i < FSE_MAX_HOMING; i++) {
        fse_homing_t *hm = &fe->homing[i];
        if (hm->shot < 0 || hm->shot >= FSE_MAX_SHOTS)
            continue;
        fse_shot_t *sh = &fe->shots[hm->shot];
        if (!sh->active || sh->hm != hm)
            continue;
        if (hm->n > hm->n_done || (hm->cur.ended && !hm->done.ended)) {
            hm->n = hm->n_done;
            hm->cur = hm->done;
            if (!hm->done.ended) {   // what the points ahead said is undone
                sh->hit = 0;
                sh->ship = 0;
                sh->bare = 0;
                sh->t_end = sh->wall_t_end;
            }
        }
        homing_step(fe, w, sh, hm, w->time);
        hm->n_done = hm->n;
        hm->done = hm->cur;
        if (ahead)
            homing_step(fe, w, sh, hm, w->time + FSE_HIT_AHEAD);
    }
}

static void track_ships(r_fsent_t *fe, const world_t *w)
{
    for (int p = 0; p < FSW_SHIPS; p++) {
        fse_track_t *tr = &fe->tracks[p];
        int num = p + 1;
        if (!world_entity_visible(w, num) || w->entities[num].cur.modelindex != FSW_MODEL_SHIP) {
            tr->valid = 0;
            continue;
        }
        const entity_state_t *s = &w->entities[num].cur;
        if (tr->valid && !memcmp(tr->cur, s->origin, sizeof tr->cur) && !memcmp(tr->ang, s->angles, sizeof tr->ang))
            continue;   // the same update re-submitted
        if (!tr->valid) {
            memcpy(tr->prev, s->origin, sizeof tr->prev);
            memset(tr->vel, 0, sizeof tr->vel);
            tr->t_prev = w->time;
        } else {
            memcpy(tr->prev, tr->cur, sizeof tr->prev);
            tr->t_prev = tr->t_cur;
            double dt = w->time - tr->t_prev;
            for (int k = 0; k < 3; k++)
                tr->vel[k] = dt > 0.001 && dt < 1.0 ? (float)((s->origin[k] - tr->prev[k]) / dt) : 0;
        }
        memcpy(tr->cur, s->origin, sizeof tr->cur);
        memcpy(tr->ang, s->angles, sizeof tr->ang);
        tr->t_cur = w->time;
        tr->valid = 1;
    }
}

// A ship's mode (the update's flags, bits 6-7: 0 normal, 1 dying, 2 limbo); -1 not a drawn ship.
static int ship_mode(const world_t *w, int num)
{
    if (num < 1 || num > FSW_SHIPS || num >= w->num_entities || !world_entity_visible(w, num) ||
        w->entities[num].cur.modelindex != FSW_MODEL_SHIP)
        return -1;
    return (int)((w->entities[num].cur.raw_effects >> FSW_SHIP_MODE_SHIFT) & 3u);
}

// A ship's hull as its MSG_SHIELDHULL said (-1 not said).
static int ship_hull(const world_t *w, int p)
{
    return p >= 0 && p < WORLD_MAX_PLAYERS ? w->players[p].hull : -1;
}

// When each ship began dying and being damaged (DoDamagedEffects' two effects), from the first
// decoded frame that showed it; one already so at the first frame after a clear: not known.
static void track_damage(r_fsent_t *fe, const world_t *w)
{
    for (int p = 0; p < FSW_SHIPS; p++) {
        int mode = ship_mode(w, p + 1), hull = ship_hull(w, p);
        int dying = mode == 1, damaged = mode >= 0 && hull >= 0 && hull < FSFX_SMOKE_HULL;
        if (dying && !fe->dying_seen[p])
            fe->dying_since[p] = fe->ships_primed ? w->time : -1e30;
        if (dying && fe->tracks[p].valid) {
            const fse_track_t *tr = &fe->tracks[p];
            r_fsfx_ship_t *ds = &fe->dying_ship[p];
            float right[3];
            memcpy(ds->org, tr->cur, sizeof ds->org);
            memcpy(ds->vel, tr->vel, sizeof ds->vel);
            r_fs_angle_vectors(tr->ang, ds->fwd, right, ds->up);
            ds->time = tr->t_cur;
            fe->dying_until[p] = 1e30;
        } else if (!dying && fe->dying_seen[p]) {
            fe->dying_until[p] = w->time;
        }
        if (damaged && !fe->damaged_seen[p])
            fe->damaged_since[p] = fe->ships_primed ? w->time : -1e30;
        fe->dying_seen[p] = (uint8_t)dying;
        fe->damaged_seen[p] = (uint8_t)damaged;
    }
    fe->ships_primed = 1;
}

double r_fsent_pickup_appear(const world_t *w, int n)
{
    if (!w || n < FSW_PICKUP_ENT0 || n >= FSW_BGO_ENT0 || n >= w->num_entities || !world_entity_visible(w, n))
        return -1e30;
    const entity_state_t *s = &w->entities[n].cur;
    if (s->modelindex != FSW_MODEL_PICKUP || !(s->raw_effects & FSW_PICKUP_SPARKLE) || !isfinite(s->animtime))
        return -1e30;
    return s->animtime;
}

// A message's ShockwaveSize as CreateShockwave's BigFlash size (units a texel): 0 (no flash) for a
// size not above 0 or not finite, at most FSE_MAX_SHOCK (hostile values).
static float shock_size(float size)
{
    return !(size > 0) ? 0 : size < FSE_MAX_SHOCK ? size : FSE_MAX_SHOCK;
}

// MSG_EXPSECONDARY: ExplodeSecondary( Pos, Group, OwnerType, Owner, ID, ShockwaveSize ) as the
// receiver ran it: the first secondary of that owner and id still there (in this copy: a mine not
// yet gone off, a missile still flying) goes; when the size is not 0, CreateShockwave where that
// secondary is (its own place, not the message's): its explosion and BigFlash, drawn from the shot
// (draw_explosion); with 0 it just goes (CleanUpSecBull). One not there (gone already): nothing.
static void explode_secondary(r_fsent_t *fe, const world_fx_event_t *fx, double now)
{
    float shock = shock_size(fx->radius);
    for (int s = 0; s < FSE_MAX_SHOTS; s++) {
        fse_shot_t *sh = &fe->shots[s];
        if (!(sh->active && sh->secondary && sh->id == fx->args[FSW_FX_ARG_ID] &&
              sh->owner == fx->args[FSW_FX_ARG_OWNER]) || now < sh->t0)
            continue;
        if (!(sh->speed > 0)) {   // a mine (or anything that stays)
            if (sh->hit || !(now < sh->t_end))
                continue;
            if (shock > 0) {
                mine_off(sh, now, shock);
                add_sound(fe, FSFX_SND_BANG, sh->end, 1);   // CreateShockwave's CreateExplosion
                sh->sounded = 1;
            } else {
                sh->t_end = sh->wall_t_end = now;
                sh->hit = 0;
            }
            return;
        }
        if (!(now < sh->t_end))
            continue;   // ended already (its wall or a ship): gone
        float p[3];
        if (!shot_at(sh, now, p))
            continue;
        // a missile ends here; its smoke lives on
        sh->t_end = sh->wall_t_end = now;
        memcpy(sh->end, p, sizeof sh->end);
        memcpy(sh->wall_end, p, sizeof sh->wall_end);
        for (int k = 0; k < 3; k++)
            sh->normal[k] = sh->wall_normal[k] = -sh->dir[k];
        sh->hit = sh->wall_hit = shock > 0;
        sh->shock = shock;
        sh->ship = 0;
        sh->bare = 0;
        if (shock > 0)
            add_sound(fe, FSFX_SND_BANG, p, 1);   // CreateShockwave's CreateExplosion
        sh->sounded = 1;   // gone here: its own end makes no sound
        if (sh->hm) {   // its path stops at this frame
            fse_homing_t *hm = sh->hm;
            hm->n = hm->n_done;
            hm->done.ended = hm->cur.ended = 1;
        }
        return;
    }
}

// The laser against the ships (ProcessPrimaryBullets: each tick of its life the beam is cast again,
// CheckHitShip on its ray before the wall: the first ship's sphere of SHIP_RADIUS it meets, not its
// owner's, not in limbo, ends it there, CreateLaserPulse at that distance): each tick's beam from the
// ships where the decoded frames put them at that tick; the ticks up to this frame kept, those up to
// FSE_HIT_AHEAD past it cast again at the next frame. The beam's start and direction stay the
// message's (the game moves them with its owner's ship: not followed).
static void laser_frame(const r_fsent_t *fe, const world_t *w, fse_shot_t *sh, double now)
{
    if (!sh->active || sh->secondary || sh->weapon != FSW_LASER || !sh->hit)
        return;
    float wall = 0;
    for (int k = 0; k < 3; k++)
        wall += (sh->wall_end[k] - sh->org[k]) * (sh->wall_end[k] - sh->org[k]);
    wall = sqrtf(wall);
    for (int k = sh->beam_done; k <= FSE_LASER_TICKS; k++) {
        double tk = sh->t0 + k / FSE_TICKS;
        if (tk > now + FSE_HIT_AHEAD)
            break;
        float len = wall, normal[3];
        memcpy(normal, sh->wall_normal, sizeof normal);
        for (int q = 0; q < FSW_SHIPS; q++) {
            int num = q + 1, mode = ship_mode(w, num);
            float at[3];
            if (num == sh->owner + 1 || mode < 0 || mode == 2 || !ship_pos_at(fe, num, tk, at))
                continue;
            // the ray org + dir u against the sphere: its first way in, 0 < u < len
            float oc[3] = { sh->org[0] - at[0], sh->org[1] - at[1], sh->org[2] - at[2] };
            float b = oc[0] * sh->dir[0] + oc[1] * sh->dir[1] + oc[2] * sh->dir[2];
            float c = oc[0] * oc[0] + oc[1] * oc[1] + oc[2] * oc[2] - FSE_SHIP_RADIUS * FSE_SHIP_RADIUS;
            float disc = b * b - c;
            if (c <= 0 || disc < 0)
                continue;   // fired from inside it, or missing it
            float u = -b - sqrtf(disc);
            if (!(u > 0) || !(u < len))
                continue;
            len = u;
            for (int j = 0; j < 3; j++)
                normal[j] = (oc[j] + sh->dir[j] * u) / FSE_SHIP_RADIUS;   // out from the ship's centre
        }
        sh->beam[k] = len;
        memcpy(sh->beam_normal[k], normal, sizeof normal);
        if (tk <= now)
            sh->beam_done = k + 1;
    }
}

// Where the laser's beam ends at t (its tick's beam) and the normal there.
static void laser_end(const fse_shot_t *sh, double t, float end[3], float normal[3])
{
    int k = (int)floor((t - sh->t0) * FSE_TICKS + 1e-9);
    k = k < 0 ? 0 : k > FSE_LASER_TICKS ? FSE_LASER_TICKS : k;
    for (int j = 0; j < 3; j++) {
        end[j] = sh->org[j] + sh->dir[j] * sh->beam[k];
        if (normal)
            normal[j] = sh->beam_normal[k][j];
    }
}

// ChangeTranspulseDir's turn at the transpulse's bounce: from the wall point, the most centred ship
// within TRANSPULSE_VIEWCONE (80 degrees) of NewDir (TargetClosestShip: not its owner, not in limbo,
// no wall between), where the decoded frames put it at the bounce; found, the second leg goes
// straight at it (at the same half speed) to its next wall. Looked at once, at the first frame at
// or past the bounce (the ships' places there are known then); returns 1 when the leg turned.
static int transpulse_turn(r_fsent_t *fe, const world_t *w, fse_shot_t *sh, double now)
{
    if (!sh->active || sh->secondary || sh->weapon != FSW_TRANSPULSE || sh->legs < 1 || sh->turned ||
        now < sh->bounce_t[0])
        return 0;
    sh->turned = 1;
    if (sh->t_end < sh->bounce_t[0])
        return 0;   // it met a ship before its wall
    float best = -2, to[3] = { 0, 0, 0 };
    int target = 0;
    for (int q = 0; q < FSW_SHIPS; q++) {
        int num = q + 1, mode = ship_mode(w, num);
        float d[3], c;
        if (mode < 0 || mode == 2)
            continue;
        if (homing_sees(fe, w, sh, num, sh->bounce_at[0], sh->bounce_dir[0], FSE_TRANSPULSE_CONE, sh->bounce_t[0], d, &c) &&
            c > best) {
            best = c;
            target = num;
            memcpy(to, d, sizeof to);
        }
    }
    if (!target)
        return 0;
    float speed = sh->bounce_speed[0];
    double left = sh->t0 + fsw_primary_life(sh->weapon) / FSE_TICKS - sh->bounce_t[0];
    if (!(speed > 0) || !(left > 0))
        return 0;
    memcpy(sh->bounce_dir[0], to, sizeof to);
    float reach = (float)(speed * left);
    float wall = first_wall(fe, sh->bounce_at[0], to, reach, sh->normal);
    sh->hit = wall < reach;
    for (int k = 0; k < 3; k++)
        sh->end[k] = sh->bounce_at[0][k] + to[k] * wall;
    sh->t_end = sh->bounce_t[0] + (sh->hit ? wall / speed : left);
    sh->wall_t_end = sh->t_end;
    sh->wall_hit = sh->hit;
    memcpy(sh->wall_end, sh->end, sizeof sh->end);
    memcpy(sh->wall_normal, sh->normal, sizeof sh->normal);
    sh->ship = 0;   // swept again from the bounce (hit_ships)
    sh->bare = 0;
    if (sh->checked > sh->bounce_t[0])
        sh->checked = sh->bounce_t[0];
    return 1;
}

// The sound InitOnePrimBull / InitOneSecBull plays for a shot the demo carries (every machine makes
// the shot from the message, so every machine plays it), at the message's place.
static void fire_sound(r_fsent_t *fe, const world_fx_event_t *fx, int secondary, double now)
{
    if (!finite3(fx->origin))
        return;
    int weapon = fx->args[FSW_FX_ARG_WEAPON];
    if (secondary) {
        float vol;
        const char *name = r_fsfx_sec_sound(weapon, &vol);
        add_sound(fe, name, fx->origin, vol);
        return;
    }
    if (weapon == FSW_PYROLITE) {   // PyroCount: framelag summed, played once past 60 ticks, then kept mod 60
        double ticks = (now - fe->pyro_mark) * FSE_TICKS;
        if (!(ticks > FSFX_PYRO_SOUND_TICKS))
            return;
        fe->pyro_mark = now - fmod(ticks, FSFX_PYRO_SOUND_TICKS) / FSE_TICKS;
    }
    add_sound(fe, r_fsfx_prim_sound(weapon), fx->origin, 1);
}

// A ship whose mode goes from normal or dying to limbo in an update: SFX_BikeExplode at the update's
// place (EvaluateMessage's MSG_VERYSHORTFUPDATE; the owner's own ShipMode1 plays it there too).
static void death_sounds(r_fsent_t *fe, const world_t *w)
{
    for (int p = 0; p < FSW_SHIPS; p++) {
        int num = p + 1, mode = -1;   // the update's own mode: a ship in limbo is not drawn (no model)
        if (num < w->num_entities && w->entities[num].seq == w->seq &&
            (w->entities[num].cur.raw_effects & FSW_SHIP_ENABLE))
            mode = (int)((w->entities[num].cur.raw_effects >> FSW_SHIP_MODE_SHIFT) & 3u);
        if (mode == 2 && (fe->mode_seen[p] == 0 || fe->mode_seen[p] == 1) && finite3(w->entities[num].cur.origin))
            add_sound(fe, FSFX_SND_BIKE, w->entities[num].cur.origin, 1);
        fe->mode_seen[p] = (int8_t)mode;
    }
}

// A missile that ended on a wall or a ship since the last frame (its end time in (prev, now]):
// DestroySecondary's CreateExplosion plays SFX_BangBang there (the weapons r_fsfx_sec_bang names;
// the MFRL's and pine missile's CreateSmallExplosion: none). A primary that ended on a ship:
// ProcessPrimaryBullets' "Hit Ship" plays SFX_ShipHit ("shieldht") at the point it met the ship's
// sphere (every machine; shield or not). Each end is asked for once.
static void end_sounds(r_fsent_t *fe, double prev, double now)
{
    for (int s = 0; s < FSE_MAX_SHOTS; s++) {
        fse_shot_t *sh = &fe->shots[s];
        if (sh->active && !sh->secondary && sh->ship && !sh->sounded && sh->t_end > prev && sh->t_end <= now) {
            add_sound(fe, FSFX_SND_SHIPHIT, sh->end, 1);
            sh->sounded = 1;
            continue;
        }
        if (!sh->active || !sh->secondary || sh->sounded || !sh->hit || is_mine(sh->weapon) ||
            !r_fsfx_sec_bang(sh->weapon) || !(sh->t_end > prev && sh->t_end <= now))
            continue;
        add_sound(fe, FSFX_SND_BANG, sh->end, 1);
        sh->sounded = 1;
    }
}

// The camera the game's loudness is for (Ships[Current_Camera_View]): the world's view, the
// listener the player places the sounds for.
// Where this frame's sounds are heard from: the view the frames are drawn from (r_fsent_set_view:
// a followed pilot's), else the recording pilot's.
static int view_origin(const r_fsent_t *fe, const world_t *w, float out[3])
{
    return world_view_origin(w, fe->view ? fe->view : &w->view, out) && finite3(out);
}

void r_fsent_set_view(r_fsent_t *fe, const world_view_t *view)
{
    if (fe)
        fe->view = view;
}

static const fsspot_fx_t *spot_clock(const world_t *w, const fsspot_fx_t *fx, int i, double t, fsspot_fx_t *copy,
                                     double *tr);

#define FSE_SOUND_JOIN 0.25   // seconds of one-shots heard at the first frame after a load or a jump back

// The level's spot effects' sounds at this frame (r_fsspot_sound: placed sounds, the fire wall's, the
// explosion's): a loop begun and not stopped is in the frame's loops while the game's loop rule hears
// it (r_fssnd_loop_gain: inside 4608 units), keyed by its effect, from its start; a one-shot begun in
// (prev, now] is in the frame's sounds when the game's one-shot rule hears it (r_fssnd_gain). Loudness
// is the game's: the sound system places them with no attenuation of its own.
static void spot_sounds(r_fsent_t *fe, const world_t *w, double prev)
{
    fe->nloops = 0;
    const float *eye = fe->eye;
    if (!fe->spot || !fe->spot_snd || !fe->eye_ok)
        return;
    if (prev < -1e29)
        prev = w->time - FSE_SOUND_JOIN;
    for (int i = 0; i < fe->spot->count; i++) {
        const r_fsspot_sound_t *sn = &fe->spot_snd[i];
        // as it runs now: a trigger's from when the trigger started it (its clock `shift` later)
        fsspot_fx_t copy;
        double tr;
        const fsspot_fx_t *fx = spot_clock(w, &fe->spot->fx[i], i, w->time, &copy, &tr);
        if (!fx)
            continue;
        double shift = w->time - tr;
        long tick = (long)floor(tr * FSE_TICKS);
        if (fx->type == FSSPOT_SPARKS || fx->type == FSSPOT_GRAVITY_SPARKS) {   // the ticks since the frame before
            int g = fx->group;
            long k0 = (long)floor((prev - shift) * FSE_TICKS) + 1;
            for (long k = k0 > 0 ? k0 : 0; k <= tick; k++)
                if (r_fsspot_spark_sound(fx, i, k) && finite3(fx->pos))
                    add_sound_in(fe, FSSPOT_SPARK_SOUND, fx->pos, FSSPOT_SPARK_VOLUME, &g, 1);
            continue;
        }
        int playing;
        long start = sn->name[0] ? r_fsspot_sound_start(fx, sn->lead, tick, &playing) : -1;
        if (start < 0 || !finite3(fx->pos))
            continue;
        float dv[3] = { fx->pos[0] - eye[0], fx->pos[1] - eye[1], fx->pos[2] - eye[2] };
        int group = fx->group;
        float extra = r_fssnd_extra(fe->level, fe->eye_groups, fe->n_eye_groups, &group, 1);
        float d = sqrtf(dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2]) + extra;
        double t0 = shift + start / (double)FSE_TICKS;
        if (sn->loops) {
            float g = extra < 0 ? 0 : r_fssnd_loop_gain(d, sn->volume);
            if (!playing || !(g > 0) || fe->nloops >= FSE_MAX_LOOPS)
                continue;
            r_loop_t *l = &fe->loops[fe->nloops++];
            l->id = 0x46530000u + (uint32_t)i;   // "FS" + the effect
            l->name = r_fssnd_variant(&fe->variants, &fe->files, sn->name, world_hash32((uint32_t)i * 0x9e3779b9u ^ (uint32_t)start));
            memcpy(l->origin, fx->pos, sizeof l->origin);
            l->volume = g;
            l->attenuation = 0;
            l->centred = (uint8_t)sn->centred;
            l->start = t0;
        } else if (t0 > prev && t0 <= w->time + 1e-9) {
            add_sound_in(fe, sn->name, fx->pos, sn->volume, &group, 1);   // PlaySpotSfx of a one-shot
        }
    }
}

void r_fsent_hear_from(r_fsent_t *fe, const float eye[3])
{
    if (!fe)
        return;
    fe->hear_set = eye != NULL;
    if (eye)
        memcpy(fe->hear, eye, sizeof fe->hear);
}

void r_fsent_frame(r_fsent_t *fe, const world_t *w)
{
    if (!fe || !fe->on)
        return;
    if (w->time < fe->last_time - 1e-9)
        r_fsent_clear(fe);   // time went back: a seek
    double prev = fe->last_time;
    fe->last_time = w->time;
    fe->nsounds = 0;
    // the camera of this frame's sounds (add_sound): the picture's (r_fsent_hear_from), else the view's
    if (fe->hear_set) {
        memcpy(fe->eye, fe->hear, sizeof fe->eye);
        fe->eye_ok = finite3(fe->eye);
    } else {
        fe->eye_ok = view_origin(fe, w, fe->eye);
    }
    fe->n_eye_groups = fe->eye_ok ? r_fssnd_groups(fe->level, fe->eye, fe->eye_groups, FSE_SOUND_GROUPS) : 0;
    if (fe->pyro_mark < -1e29)
        fe->pyro_mark = w->time;   // PyroCount counts from the level's start: here from the first frame seen
    load_bgo(fe, w);
    place_level_pickups(fe, w);
    track_ships(fe, w);
    death_sounds(fe, w);
    track_damage(fe, w);
    homing_frame(fe, w, 0);   // the homing missiles to this frame, before its messages end any
    for (int i = 0; i < w->num_events; i++) {
        const world_event_t *ev = &w->events[i];
        if (ev->type != EV_TEMPENT)
            continue;
        const world_fx_event_t *fx = &ev->u.fx;
        switch (fx->raw_type) {
        case FSW_FX_PRIMBULL:
            add_shot(fe, fx, 0, w->time);
            fire_sound(fe, fx, 0, w->time);
            break;
        case FSW_FX_TITANBITS: {
            world_fx_event_t bit = *fx;
            bit.args[FSW_FX_ARG_WEAPON] = FSW_TITANSHRAPNEL;
            add_shot(fe, &bit, 1, w->time);
            break;
        }
        case FSW_FX_SECBULL:
        case FSW_FX_SHORTMINE:   // RegenMineList: InitOneSecBull, its LifeCount the list's (life0)
            add_shot(fe, fx, 1, w->time);
            fire_sound(fe, fx, 1, w->time);   // InitOneSecBull's (a listed mine's SFX_DropMine too)
            break;
        case FSW_FX_EXPSECONDARY:
            explode_secondary(fe, fx, w->time);
            break;
        case FSW_FX_SHOCKWAVE:
            // CreateShockwave( Pos, ShockwaveSize ) at the message's place: its explosion and BigFlash
            // (and light: assumed, as the other messages' explosions), drawn as a mine's (draw_shockwave)
            if (finite3(fx->origin)) {
                add_sound(fe, FSFX_SND_BANG, fx->origin, 1);   // its CreateExplosion's SFX_BangBang
                fse_blast_t *b = add_blast(fe, fx->origin, 0, w->time);
                b->light = 1;
                b->shock = shock_size(fx->radius);
                uint32_t bits[3];
                memcpy(bits, fx->origin, sizeof bits);   // from the message alone: a seek draws what playing does
                b->seed = (bits[0] * 2654435761u) ^ (bits[1] * 0x85ebca6bu) ^ bits[2] ^ (uint32_t)fx->entity;
            }
            break;
        // FSW_FX_SHIPDIED, FSW_FX_EXPLODESHIP: nothing to draw. The game's EvaluateMessage only prints
        // and counts the kill (MSG_SHIPDIED) or scatters the ship's weapons on a server (MSG_EXPLODESHIP);
        // the ship's blast is the MSG_SHOCKWAVE of size 6 its owner sends when its death ends (ShipMode1:
        // CreateShockwave + CreateShockwaveSend at the ship), drawn above (docs/forsaken.md "Shockwaves").
        default:
            break;
        }
    }
    // shots that meet a ship end there (what they leave, a primary's impact or a missile's
    // explosion, is drawn from the shot: draw_impact, draw_explosion)
    for (int s = 0; s < FSE_MAX_SHOTS; s++) {
        hit_ships(fe, w, &fe->shots[s], w->time);
        laser_frame(fe, w, &fe->shots[s], w->time);
        if (transpulse_turn(fe, w, &fe->shots[s], w->time))
            hit_ships(fe, w, &fe->shots[s], w->time);   // its new leg against the ships
        mine_proximity(fe, w, &fe->shots[s], w->time);
    }
    homing_frame(fe, w, 1);   // new ones to this frame, and every one on past it
    end_sounds(fe, prev, w->time);
    spot_sounds(fe, w, prev);
}

int r_fsent_ship_origin(const r_fsent_t *fe, int num, double t, float out[3])
{
    if (!fe || num < 1 || num > FSW_SHIPS || !fe->tracks[num - 1].valid)
        return 0;
    const fse_track_t *tr = &fe->tracks[num - 1];
    double dt = t - tr->t_cur;
    dt = dt < 0 ? 0 : dt > FSE_EXTRAPOLATE_MAX ? FSE_EXTRAPOLATE_MAX : dt;
    for (int k = 0; k < 3; k++)
        out[k] = tr->cur[k] + tr->vel[k] * (float)dt;
    return 1;
}

// A homing missile's place and direction at t on its stepped path (straight on from its last
// point when t is past it).
static void homing_at(const fse_shot_t *sh, double t, float p[3], float dir[3])
{
    const fse_homing_t *hm = sh->hm;
    double ft = (t - sh->t0) * FSE_TICKS;
    int k = ft < 0 ? 0 : (int)ft;
    if (k + 1 < hm->n) {
        float u = (float)(ft - k);
        for (int j = 0; j < 3; j++) {
            p[j] = hm->pos[k][j] + (hm->pos[k + 1][j] - hm->pos[k][j]) * u;
            if (dir)
                dir[j] = hm->dir[k + 1][j];
        }
        return;
    }
    int last = hm->n - 1;
    float u = (float)(ft - last);
    for (int j = 0; j < 3; j++) {
        p[j] = hm->pos[last][j] + hm->dir[last][j] * FSFX_MISSILE_SPEED * (u > 0 ? u : 0);
        if (dir)
            dir[j] = hm->dir[last][j];
    }
}

static int shot_at(const fse_shot_t *sh, double t, float p[3])
{
    if (!sh->active || t < sh->t0 || t > sh->t_end)
        return 0;
    if (sh->hm) {
        homing_at(sh, t, p, NULL);
        return 1;
    }
    if (sh->secondary && is_mine(sh->weapon)) {
        mine_pos(sh, t, p);
        return 1;
    }
    if (sh->secondary) {   // at the missile's own pace (its fall, its speed)
        float fall, along = r_fsfx_missile_move(sh->weapon, (float)((t - sh->t0) * FSE_TICKS), &fall);
        for (int k = 0; k < 3; k++)
            p[k] = sh->org[k] + sh->drop[k] * fall + sh->dir[k] * along;
        return 1;
    }
    double ts;
    float org[3], dir[3], speed;
    shot_leg(sh, t, &ts, org, dir, &speed);
    float d = speed > 0 ? (float)((t - ts) * speed) : 0;
    for (int k = 0; k < 3; k++)
        p[k] = org[k] + dir[k] * d;
    return 1;
}

int r_fsent_shots(const r_fsent_t *fe, double t, float first[3])
{
    int n = 0;
    for (int s = 0; fe && s < FSE_MAX_SHOTS; s++) {
        float p[3];
        if (shot_at(&fe->shots[s], t, p) && n++ == 0 && first)
            memcpy(first, p, sizeof p);
    }
    return n;
}

int r_fsent_mines(const r_fsent_t *fe, double t, float dir[3], float up[3])
{
    int n = 0;
    for (int s = 0; fe && s < FSE_MAX_SHOTS; s++) {
        const fse_shot_t *sh = &fe->shots[s];
        float p[3], r[3], u[3], f[3];
        if (!sh->secondary || !is_mine(sh->weapon) || !shot_at(sh, t, p) || (sh->hit && t >= sh->t_end))
            continue;
        if (n++ == 0) {
            mine_axes(sh, t, r, u, f);
            if (dir)
                memcpy(dir, f, sizeof f);
            if (up)
                memcpy(up, u, sizeof u);
        }
    }
    return n;
}

int r_fsent_sounds(const r_fsent_t *fe, r_sound_t *out, int max)
{
    int n = 0;
    for (int i = 0; fe && fe->on && out && i < fe->nsounds && n < max; i++)
        out[n++] = fe->sounds[i];
    return n;
}

int r_fsent_loops(const r_fsent_t *fe, r_loop_t *out, int max)
{
    int n = 0;
    for (int i = 0; fe && fe->on && out && i < fe->nloops && n < max; i++)
        out[n++] = fe->loops[i];
    return n;
}

int r_fsent_lasers(const r_fsent_t *fe, double t, float end[3])
{
    int n = 0;
    for (int s = 0; fe && s < FSE_MAX_SHOTS; s++) {
        const fse_shot_t *sh = &fe->shots[s];
        if (!sh->active || sh->secondary || sh->weapon != FSW_LASER || !sh->hit || t < sh->t0 || t >= sh->t_end)
            continue;
        if (n++ == 0 && end)
            laser_end(sh, t, end, NULL);
    }
    return n;
}

// ---- drawing -----------------------------------------------------------------------

static void to_cam(const r_view_t *v, const float p[3], float c[3])
{
    float d[3] = { p[0] - v->vieworg[0], p[1] - v->vieworg[1], p[2] - v->vieworg[2] };
    c[0] = d[0] * v->vright[0] + d[1] * v->vright[1] + d[2] * v->vright[2];
    c[1] = d[0] * v->vup[0] + d[1] * v->vup[1] + d[2] * v->vup[2];
    c[2] = d[0] * v->vpn[0] + d[1] * v->vpn[1] + d[2] * v->vpn[2];
}

// A model at org with axes right, up, forward (its x, y, z), lit by `light` (0..1); `verts`
// its vertices in a pose (mx_pose), NULL the base pose. Each vertex's colour is its own times
// `light`, plus the moving lights (the game's XLightMxloadHeader: the lights whose box, grown by
// the model's radius, holds the model, each adding by the level's rule at the vertex, saturating).
// `size`: how many times the model's own size its axes are (the radius it is culled by); `tint`:
// NULL, or every vertex's colour (R G B 0..255, the game's ProcessModel: no light, no moving lights);
// `two_sided`: back faces drawn too.
static int draw_model_ex(r_fsent_t *fe, const r_view_t *v, const fse_model_t *md, const float org[3],
                         const float right[3], const float up[3], const float fwd[3], float light, const uint8_t *blend,
                         const mx_vertex_t *verts, float size, const uint8_t *tint, int two_sided)
{
    const mx_t *m = md->mx;
    const mx_vertex_t *mverts = verts ? verts : m->verts;
    float c[3], radius = m->radius * size;
    to_cam(v, org, c);
    if (!(c[2] + radius >= 1))
        return 0;   // wholly behind the eye
    // off the sides of the view
    if (fabsf(c[0]) - radius > (c[2] + radius) * (v->width / 2.0f + 2) / v->xscale ||
        fabsf(c[1]) - radius > (c[2] + radius) * (v->height / 2.0f + 2) / v->yscale)
        return 0;
    float ax[3][3];   // the model's axes in camera space
    const float *axes[3] = { right, up, fwd };
    for (int a = 0; a < 3; a++) {
        ax[a][0] = axes[a][0] * v->vright[0] + axes[a][1] * v->vright[1] + axes[a][2] * v->vright[2];
        ax[a][1] = axes[a][0] * v->vup[0] + axes[a][1] * v->vup[1] + axes[a][2] * v->vup[2];
        ax[a][2] = axes[a][0] * v->vpn[0] + axes[a][1] * v->vpn[1] + axes[a][2] * v->vpn[2];
    }
    int nl = 0;
    for (int i = 0; !tint && i < fe->num_lights; i++) {
        const r_fslight_t *l = &fe->lights[i];
        int in = 1;
        for (int k = 0; k < 3; k++)
            in &= fabsf(l->org[k] - org[k]) <= radius + l->size;
        if (in)
            fe->light_idx[nl++] = i;
    }
    for (int i = 0; i < m->num_verts; i++) {
        const mx_vertex_t *mv = &mverts[i];
        r_fsvert_t *o = &fe->scratch[i];
        o->x = c[0] + mv->pos[0] * ax[0][0] + mv->pos[1] * ax[1][0] + mv->pos[2] * ax[2][0];
        o->y = c[1] + mv->pos[0] * ax[0][1] + mv->pos[1] * ax[1][1] + mv->pos[2] * ax[2][1];
        o->z = c[2] + mv->pos[0] * ax[0][2] + mv->pos[1] * ax[1][2] + mv->pos[2] * ax[2][2];
        // Direct3D modulated the texture by the vertex colour; the level's light scales it
        float rgb[3] = { (float)(int)(mv->r * light), (float)(int)(mv->g * light), (float)(int)(mv->b * light) };
        if (tint)
            for (int k = 0; k < 3; k++)
                rgb[k] = tint[k];
        if (nl) {
            float p[3], add[3];
            for (int k = 0; k < 3; k++)
                p[k] = org[k] + mv->pos[0] * right[k] + mv->pos[1] * up[k] + mv->pos[2] * fwd[k];
            for (int j = 0; j < nl; j++) {
                r_fslight_at(&fe->lights[fe->light_idx[j]], p, add);
                for (int k = 0; k < 3; k++)
                    rgb[k] += add[k];
            }
        }
        for (int k = 0; k < 3; k++)
            o->l[k] = (rgb[k] < 255 ? rgb[k] : 255) * ((R_FS_LEVELS - 1) / 255.0f);
    }
    int drawn = 0;
    for (int i = 0; i < m->num_tris; i++) {
        const mx_tri_t *t = &m->tris[i];
        const fse_tex_t *tx = t->texture >= 0 && md->tex[t->texture] >= 0 ? &fe->tex[md->tex[t->texture]] : NULL;
        r_fsvert_t in[3];
        float smin = INFINITY, tmin = INFINITY;
        for (int k = 0; k < 3; k++) {
            in[k] = fe->scratch[t->v[k]];
            const mx_vertex_t *mv = &mverts[t->v[k]];
            in[k].s = isfinite(mv->st[0]) && fabsf(mv->st[0]) < 1e6f ? mv->st[0] : 0;
            in[k].t = isfinite(mv->st[1]) && fabsf(mv->st[1]) < 1e6f ? mv->st[1] : 0;
            smin = in[k].s < smin ? in[k].s : smin;
            tmin = in[k].t < tmin ? in[k].t : tmin;
        }
        r_fstex_t rt = { fe->shade, NULL, 0, 0, 0, NULL, 0, blend, NULL, NULL, NULL };
        if (tx) {
            float so = floorf(smin), to = floorf(tmin);
            for (int k = 0; k < 3; k++) {
                in[k].s = (in[k].s - so) * (float)tx->width;
                in[k].t = (in[k].t - to) * (float)tx->height;
            }
            rt.texels = tx->texels;
            rt.wshift = tx->wshift;
            rt.wmask = tx->width - 1;
            rt.hmask = tx->height - 1;
            rt.key = (t->flags & 1) ? tx->key : NULL;
        } else if (fe->shade) {
            rt.color = fe->hot_color;   // no texture: white, times the vertex colours
        } else {
            const mx_vertex_t *mv = &mverts[t->v[0]];
            rt.color = pal_nearest(fe->palette, 256, mv->r, mv->g, mv->b);
        }
        drawn += r_fstri_draw(v, &rt, in, two_sided);
    }
    return drawn;
}

static int draw_model(r_fsent_t *fe, const r_view_t *v, const fse_model_t *md, const float org[3], const float right[3],
                      const float up[3], const float fwd[3], float light, const uint8_t *blend, const mx_vertex_t *verts)
{
    return draw_model_ex(fe, v, md, org, right, up, fwd, light, blend, verts, 1, NULL, 0);
}

// A round glow of radius r (units) at p: `inner` in the middle half, `outer` around it; z-tested, not written.
static void draw_glow(const r_view_t *v, const float p[3], float r, int inner, int outer)
{
    float c[3];
    to_cam(v, p, c);
    if (c[2] < 1)
        return;
    float zi = 1 / c[2];
    float sx = v->xcenter + v->xscale * c[0] * zi, sy = v->ycenter - v->yscale * c[1] * zi;
    float rp = r * v->xscale * zi;
    rp = rp < 1 ? 1 : rp > v->width ? (float)v->width : rp;
    int x0 = (int)floorf(sx - rp), x1 = (int)ceilf(sx + rp), y0 = (int)floorf(sy - rp), y1 = (int)ceilf(sy + rp);
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > v->width ? v->width : x1;
    y1 = y1 > v->height ? v->height : y1;
    y0 = y0 < v->y0 ? v->y0 : y0;   // a band: its rows only
    y1 = y1 > r_view_y1(v) ? r_view_y1(v) : y1;
    for (int y = y0; y < y1; y++) {
        uint8_t *dst = v->buffer + (size_t)y * (size_t)v->rowbytes;
        const float *zrow = v->zbuffer + (size_t)y * (size_t)v->width;
        float dy = y + 0.5f - sy;
        for (int x = x0; x < x1; x++) {
            float dx = x + 0.5f - sx, d2 = dx * dx + dy * dy;
            if (d2 > rp * rp || zi < zrow[x])
                continue;
            dst[x] = (uint8_t)(d2 < rp * rp * 0.25f ? inner : outer);
        }
    }
}

// ---- the primaries' sprites (the game's FmPolys and trail polygons) -----------------------

// Part `pt` of a layout, a quad at c with axes ax (texel x, right) and ay (texel y, down) in
// world units a texel, coloured `rgb` (0..1 each: the FmPoly's R G B / 255). A mirrored part
// (2dPolys.c: its size negated) runs from its x (y) back by its width (height), the texture
// turned with it.
static int draw_part(r_fsent_t *fe, const r_view_t *v, const fse_layout_t *lo, const fsoff_part_t *pt, const float c[3],
                     const float ax[3], const float ay[3], const float rgb[3])
{
    const fse_page_t *pg = &fe->pages[lo->page];
    const fsoff_box_t *b = &lo->off->boxes[pt->box];
    float x0 = (float)pt->x, x1 = (float)(pt->x + b->width), y0 = (float)pt->y, y1 = (float)(pt->y + b->height);
    // texel coordinates, a hair inside the box so the page's wrap never shows its other edge
    float s0 = b->u1 * (float)pg->w + 0.01f, s1 = b->u2 * (float)pg->w - 0.01f;
    float t0 = b->v1 * (float)pg->h + 0.01f, t1 = b->v2 * (float)pg->h - 0.01f;
    if (pt->xflip) {
        float k = s0;
        s0 = s1;
        s1 = k;
        x0 = (float)(pt->x - b->width);
        x1 = (float)pt->x;
    }
    if (pt->yflip) {
        float k = t0;
        t0 = t1;
        t1 = k;
        y0 = (float)(pt->y - b->height);
        y1 = (float)pt->y;
    }
    const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
    const float ss[4] = { s0, s1, s1, s0 }, ts[4] = { t0, t0, t1, t1 };
    r_fsvert_t q[4];
    for (int k = 0; k < 4; k++) {
        float w[3];
        for (int j = 0; j < 3; j++)
            w[j] = c[j] + ax[j] * xs[k] + ay[j] * ys[k];
        float cc[3];
        to_cam(v, w, cc);
        q[k].x = cc[0];
        q[k].y = cc[1];
        q[k].z = cc[2];
        q[k].s = ss[k];
        q[k].t = ts[k];
        for (int j = 0; j < 3; j++)
            q[k].l[j] = (rgb[j] < 0 ? 0 : rgb[j] > 1 ? 1 : rgb[j]) * (R_FS_LEVELS - 1);
    }
    r_fstex_t rt = { fe->shade, pg->px, pg->wshift, pg->w - 1, pg->h - 1, pg->key, 0, add_table(fe), NULL, NULL, NULL };
    r_fsvert_t t1v[3] = { q[0], q[1], q[2] }, t2v[3] = { q[0], q[2], q[3] };
    return r_fstri_draw(v, &rt, t1v, 1) + r_fstri_draw(v, &rt, t2v, 1);
}

static const float fse_white[3] = { 1, 1, 1 };
static const float fse_spark_red[3] = { 1, 32 / 255.0f, 32 / 255.0f };   // the impacts' FM_BITS sparks: R G B 255 32 32

// Frame f of a layout (every part of it) at c, axes ax / ay as draw_part.
static int draw_frame(r_fsent_t *fe, const r_view_t *v, const fse_layout_t *lo, int f, const float c[3],
                      const float ax[3], const float ay[3], const float rgb[3])
{
    const fsoff_t *o = lo->off;
    f = f < 0 ? 0 : f >= o->num_frames ? o->num_frames - 1 : f;
    int drawn = 0;
    for (int i = 0; i < o->frames[f].count; i++)
        drawn += draw_part(fe, v, lo, &o->parts[o->frames[f].first + i], c, ax, ay, rgb);
    return drawn;
}

// A face-me sprite (FM_FLAG_ZERO): the eye's right and down, turned `rot` degrees about the
// line of sight, `scale` world units a texel.
static int draw_faceme(r_fsent_t *fe, const r_view_t *v, const fse_layout_t *lo, int f, const float c[3], float scale,
                       float rot, const float rgb[3])
{
    float sn = sinf(rot * (float)(M_PI / 180)), cs = cosf(rot * (float)(M_PI / 180)), ax[3], ay[3];
    for (int k = 0; k < 3; k++) {
        ax[k] = (v->vright[k] * cs - v->vup[k] * sn) * scale;
        ay[k] = (-v->vup[k] * cs - v->vright[k] * sn) * scale;
    }
    return draw_frame(fe, v, lo, f, c, ax, ay, rgb);
}

// FM_FLAG_MOVEOUT (2dPolys.c): the sprite is drawn pulled towards the eye, EXPLO_DISTANCE (64
// units) when it is 174 or more away, else to 110 units from the eye but by at least 32 (so an
// impact on a wall is not cut by the wall; a very near one goes behind the eye).
static void moveout(const r_view_t *v, const float p[3], float out[3])
{
    float d[3] = { p[0] - v->vieworg[0], p[1] - v->vieworg[1], p[2] - v->vieworg[2] };
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 1e-3f)) {
        memcpy(out, p, sizeof(float) * 3);
        return;
    }
    float m = len >= FSE_EXPLO_DISTANCE + FSE_MOVEOUT_NEAR ? FSE_EXPLO_DISTANCE : len - FSE_MOVEOUT_NEAR;
    m = m < 32 ? 32 : m;
    for (int k = 0; k < 3; k++)
        out[k] = p[k] - d[k] / len * m;
}

static void normalize3(float a[3])
{
    float l = sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (l > 1e-6f)
        for (int k = 0; k < 3; k++)
            a[k] /= l;
}

// Two unit vectors square to the unit `dir` and each other: `a` across the line from the eye to
// p as much as it can be (a flat thing along dir seen broadside), b = dir x a.
static void across(const r_view_t *v, const float p[3], const float dir[3], float a[3], float b[3])
{
    float e[3] = { p[0] - v->vieworg[0], p[1] - v->vieworg[1], p[2] - v->vieworg[2] };
    a[0] = dir[1] * e[2] - dir[2] * e[1];
    a[1] = dir[2] * e[0] - dir[0] * e[2];
    a[2] = dir[0] * e[1] - dir[1] * e[0];
    if (a[0] * a[0] + a[1] * a[1] + a[2] * a[2] < 1e-8f) {   // looking straight along it
        memcpy(a, v->vright, sizeof(float) * 3);
    }
    normalize3(a);
    b[0] = dir[1] * a[2] - dir[2] * a[1];
    b[1] = dir[2] * a[0] - dir[0] * a[2];
    b[2] = dir[0] * a[1] - dir[1] * a[0];
    normalize3(b);
}

// One of the game's trail polygons (Polys.c's POLY): the quad q[0..3] textured with frame f's
// first box, q[0] -> q[1] its width (u1 -> u2), q[1] -> q[2] its height (v1 -> v2), two-sided,
// added to the scene.
static int draw_quad_shaded(r_fsent_t *fe, const r_view_t *v, const fse_layout_t *lo, int f, const float q[4][3],
                            const float rgb[4][3]);

static int draw_quad(r_fsent_t *fe, const r_view_t *v, const fse_layout_t *lo, int f, const float q[4][3],
                     const float rgb[3])
{
    const float four[4][3] = { { rgb[0], rgb[1], rgb[2] }, { rgb[0], rgb[1], rgb[2] }, { rgb[0], rgb[1], rgb[2] },
                               { rgb[0], rgb[1], rgb[2] } };
    return draw_quad_shaded(fe, v, lo, f, q, four);
}

// draw_quad with a colour at each corner (Polys.c's Col1 .. Col4), Gouraud between them.
static int draw_quad_shaded(r_fsent_t *fe, const r_view_t *v, const fse_layout_t *lo, int f, const float q[4][3],
                            const float rgb[4][3])
{
    const fsoff_t *o = lo->off;
    f = f < 0 ? 0 : f >= o->num_frames ? o->num_frames - 1 : f;
    if (o->frames[f].count < 1)
        return 0;
    const fsoff_box_t *bx = &o->boxes[o->parts[o->frames[f].first].box];
    const fse_page_t *pg = &fe->pages[lo->page];
    float s0 = bx->u1 * (float)pg->w + 0.01f, s1 = bx->u2 * (float)pg->w - 0.01f;
    float t0 = bx->v1 * (float)pg->h + 0.01f, t1 = bx->v2 * (float)pg->h - 0.01f;
    const float ss[4] = { s0, s1, s1, s0 }, ts[4] = { t0, t0, t1, t1 };
    r_fsvert_t vv[4];
    for (int j = 0; j < 4; j++) {
        float cc[3];
        to_cam(v, q[j], cc);
        vv[j] = (r_fsvert_t){ cc[0], cc[1], cc[2], ss[j], ts[j], { 0, 0, 0 } };
        for (int c = 0; c < 3; c++)
            vv[j].l[c] = (rgb[j][c] < 0 ? 0 : rgb[j][c] > 1 ? 1 : rgb[j][c]) * (R_FS_LEVELS - 1);
    }
    r_fstex_t rt = { fe->shade, pg->px, pg->wshift, pg->w - 1, pg->h - 1, pg->key, 0, add_table(fe), NULL, NULL, NULL };
    r_fsvert_t t1v[3] = { vv[0], vv[1], vv[2] }, t2v[3] = { vv[0], vv[2], vv[3] };
    return r_fstri_draw(v, &rt, t1v, 1) + r_fstri_draw(v, &rt, t2v, 1);
}

// The pulsar's trail (InitOnePrimBull): two crossed two-sided quads of PULTRAIL.OFF's frame,
// from the shot back along its path: half-width PULSAR_TAILSTART (5 units) at the shot,
// PULSAR_TAILEND (2.5) at the end, power x 30 + 47 units long; the game lays them along the
// ship's left and up, we along two axes square to the path (the message carries no up).
static int draw_pulsar_trail(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, const float p[3])
{
    const fse_layout_t *lo = layout(fe, "pultrail.off");
    if (!lo)
        return 0;
    float len = sh->power * 30.0f + 47.0f, a[3], b[3], back[3];
    across(v, p, sh->dir, a, b);
    // not past where it was fired
    float flown = (p[0] - sh->org[0]) * sh->dir[0] + (p[1] - sh->org[1]) * sh->dir[1] + (p[2] - sh->org[2]) * sh->dir[2];
    len = flown < len ? (flown > 0 ? flown : 0) : len;
    if (len <= 0)
        return 0;
    int drawn = 0;
    for (int k = 0; k < 3; k++)
        back[k] = p[k] - sh->dir[k] * len;
    for (int side = 0; side < 2; side++) {
        const float *ax = side ? b : a;
        // x across, y from the shot (top) back (bottom); its corners taper from 5 to 2.5 units across
        float q[4][3];
        for (int k = 0; k < 3; k++) {
            q[0][k] = p[k] - ax[k] * 5.0f;
            q[1][k] = p[k] + ax[k] * 5.0f;
            q[2][k] = back[k] + ax[k] * 2.5f;
            q[3][k] = back[k] - ax[k] * 2.5f;
        }
        drawn += draw_quad(fe, v, lo, 0, q, fse_white);
    }
    return drawn;
}

// The random parts of what a shot leaves, from the shot (a missile's apart from a primary's of the
// same owner and id).
static uint32_t shot_seed(const fse_shot_t *sh)
{
    return ((uint32_t)sh->id * 2654435761u ^ (uint32_t)sh->owner) + (sh->secondary ? 0x5bd1e995u : 0);
}

// Squares on a ship's shield (the game's Polys with ShieldVerts: 75 units out from its centre at
// `org`, facing out, two-sided), each a frame of `lo` in its colour, added.
static int draw_shield_squares(r_fsent_t *fe, const r_view_t *v, const fse_layout_t *lo, const float org[3],
                               const r_fsfx_bit_t *bits, int n)
{
    int drawn = 0;
    for (int i = 0; i < n; i++) {
        const r_fsfx_bit_t *b = &bits[i];
        // two axes square to the way out (the game's: QuatFrom2Vectors(Forward, dir) of its x, y)
        float a[3], c[3], up[3] = { 0, 1, 0 };
        if (fabsf(b->dir[1]) > 0.9f)
            up[0] = 1, up[1] = 0;
        a[0] = up[1] * b->dir[2] - up[2] * b->dir[1];
        a[1] = up[2] * b->dir[0] - up[0] * b->dir[2];
        a[2] = up[0] * b->dir[1] - up[1] * b->dir[0];
        normalize3(a);
        c[0] = b->dir[1] * a[2] - b->dir[2] * a[1];
        c[1] = b->dir[2] * a[0] - b->dir[0] * a[2];
        c[2] = b->dir[0] * a[1] - b->dir[1] * a[0];
        float q[4][3], h = FSFX_SHIELD_HALF * b->scale;
        for (int k = 0; k < 3; k++) {
            float m = org[k] + b->dir[k] * FSFX_INV_RADIUS;
            q[0][k] = m - a[k] * h - c[k] * h;
            q[1][k] = m + a[k] * h - c[k] * h;
            q[2][k] = m + a[k] * h + c[k] * h;
            q[3][k] = m - a[k] * h + c[k] * h;
        }
        drawn += draw_quad(fe, v, lo, b->frame, (const float(*)[3])q, b->rgb);
    }
    return drawn;
}

// An invulnerable ship's bits (CreateInvEffect, ProcessPolys' POLY_INVBITS; r_fsfx.c works out
// which at t): squares of BITS.OFF's frames 32 units across, red fading to black.
static int draw_inv_bits(r_fsent_t *fe, const r_view_t *v, int num, const float org[3], double t)
{
    const fse_layout_t *lo = layout(fe, "bits.off");
    if (!lo)
        return 0;
    int n = r_fsfx_inv_bits(num, t, -1e9, lo->off->num_frames, fe->bits, FSE_MAX_BITS);
    return draw_shield_squares(fe, v, lo, org, fe->bits, n);
}

// The shield's flash where a shot hit a ship (CreateShieldEffect: the game's spirals and
// colours by weapon; r_fsfx.c places the CIRCLE.OFF squares), following the ship.
static int draw_shield_hit(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, double t)
{
    static const struct { int spirals; float rgb[3]; } by_weapon[FSW_NUM_PRIMARY] = {
        [FSW_PULSAR] = { 2, { 0, 255, 0 } },         [FSW_TROJAX] = { 4, { 128, 128, 255 } },
        [FSW_PYROLITE] = { 1, { 255, 100, 100 } },   [FSW_TRANSPULSE] = { 4, { 255, 100, 100 } },
        [FSW_SUSSGUN] = { 1, { 255, 100, 100 } },    [FSW_LASER] = { 1, { 200, 200, 255 } },
        [FSW_ORBITPULSAR] = { 2, { 0, 255, 0 } },
    };
    // ProcessMissiles' "Hit Ship": the thief 2 of (255, 192, 0), the MFRL 1 and every other
    // missile 5 of (255, 255, 255)
    static const struct { int spirals; float rgb[3]; } by_missile[FSW_NUM_SECONDARY] = {
        [FSW_MUG] = { 5, { 255, 255, 255 } },       [FSW_SOLARIS] = { 5, { 255, 255, 255 } },
        [FSW_THIEF] = { 2, { 255, 192, 0 } },       [FSW_SCATTER] = { 5, { 255, 255, 255 } },
        [FSW_GRAVGON] = { 5, { 255, 255, 255 } },   [FSW_MFRL] = { 1, { 255, 255, 255 } },
        [FSW_TITAN] = { 5, { 255, 255, 255 } },     [FSW_PINEMISSILE] = { 5, { 255, 255, 255 } },
        [FSW_TITANSHRAPNEL] = { 5, { 255, 255, 255 } },
    };
    float org[3];
    const fse_layout_t *lo = layout(fe, "circle.off");
    if (!lo || sh->weapon < 0 || sh->weapon >= (sh->secondary ? FSW_NUM_SECONDARY : FSW_NUM_PRIMARY) ||
        !r_fsent_ship_origin(fe, sh->ship, t, org))
        return 0;
    int spirals = sh->secondary ? by_missile[sh->weapon].spirals : by_weapon[sh->weapon].spirals;
    const float *rgb = sh->secondary ? by_missile[sh->weapon].rgb : by_weapon[sh->weapon].rgb;
    int n = r_fsfx_shield_hit(sh->ship_dir, shot_seed(sh), spirals, rgb,
                              (float)((t - sh->t_end) * FSE_TICKS), fe->bits, FSE_MAX_BITS);
    return draw_shield_squares(fe, v, lo, org, fe->bits, n);
}

// The sprites r_fsfx.c worked out into fe->sprites[0 .. n), each its kind's layout (expl.off,
// BITS.OFF, BIGFLASH.OFF; one that did not load: not drawn) facing the eye, pulled towards it
// when it says so (FM_FLAG_MOVEOUT), added.
// The sprite layouts of r_fsfx.c's FSFX_SPRITE_* kinds.
static const char *const fx_layout_files[FSFX_SPRITE_KINDS] = {
    [FSFX_SPRITE_EXPL] = "expl.off",         [FSFX_SPRITE_BITS] = "bits.off",
    [FSFX_SPRITE_FLASH] = "bigflash.off",    [FSFX_SPRITE_SOLTRAIL] = "soltrail.off",
    [FSFX_SPRITE_GRVTRAIL] = "grvtrail.off", [FSFX_SPRITE_NEWTRAIL] = "newtrail.off",
    [FSFX_SPRITE_FLARE] = "flare.off",
};

static int draw_fx_sprites(r_fsent_t *fe, const r_view_t *v, int n)
{
    const fse_layout_t *lo[FSFX_SPRITE_KINDS];
    uint8_t tried[FSFX_SPRITE_KINDS] = { 0 };
    int drawn = 0;
    for (int i = 0; i < n; i++) {
        const r_fsfx_sprite_t *sp = &fe->sprites[i];
        int kind = sp->kind;
        if (kind < 0 || kind >= FSFX_SPRITE_KINDS)
            continue;
        if (!tried[kind]) {
            lo[kind] = layout(fe, fx_layout_files[kind]);
            tried[kind] = 1;
        }
        const fse_layout_t *l = lo[kind];
        float at[3];
        if (!l)
            continue;
        if (sp->moveout)
            moveout(v, sp->pos, at);
        else
            memcpy(at, sp->pos, sizeof at);
        drawn += draw_faceme(fe, v, l, sp->frame, at, sp->scale, sp->rot, sp->rgb);
    }
    return drawn;
}

// Spot effect i as it runs at t: one waiting for a trigger from the moment a trigger started it
// (its marker, engine/world_fs.h FSW_SPOT_ENT0; EnableSpotFX: active at once, or after its
// generation delay), in *copy with its time in *tr; the others as they are. NULL: not running.
static const fsspot_fx_t *spot_clock(const world_t *w, const fsspot_fx_t *fx, int i, double t, fsspot_fx_t *copy,
                                     double *tr)
{
    *tr = t;
    if (fx->gen_type != 2)
        return fx;
    int e = FSW_SPOT_ENT0 + i;
    if (!w || i >= FSW_MAX_SPOT || !world_entity_visible(w, e) || w->entities[e].cur.modelindex != FSW_MODEL_TRIG ||
        !w->entities[e].cur.frame)
        return NULL;   // not started, or stopped (DisableSpotFX: ours, its particles go with it)
    *copy = *fx;
    copy->gen_type = fx->gen_delay != 0 ? 1 : 0;
    *tr = t - w->entities[e].cur.animtime;
    return *tr >= 0 ? copy : NULL;
}

// The level's spot effects at t (r_fsspot.c: which sprites, where), their layouts' frames facing
// the eye, added. Drawn whether or not the game would see their group (ProcessSpotFX makes them
// only while it does: that depends on every earlier frame's eye, not followed).
static int draw_spot(r_fsent_t *fe, const world_t *w, const r_view_t *v, double t)
{
    if (!fe->spot || !fe->spot_path || fe->spot_off)
        return 0;
    int drawn = 0, frames[FSFX_SPRITE_KINDS] = { 0 };
    for (int i = 0; i < fe->spot->count; i++) {
        const fsspot_fx_t *fx = &fe->spot->fx[i];
        if (fx->type != FSSPOT_FIRE_WALL && fx->type != FSSPOT_SMOKE && fx->type != FSSPOT_FLAME &&
            fx->type != FSSPOT_GRAVITY_SPARKS && fx->type != FSSPOT_EXPLOSION)
            continue;
        if (!frames[FSFX_SPRITE_EXPL]) {   // the layouts the spot effects use (-1: did not load)
            static const int kinds[] = { FSFX_SPRITE_EXPL, FSFX_SPRITE_NEWTRAIL, FSFX_SPRITE_BITS, FSFX_SPRITE_FLARE };
            for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
                const fse_layout_t *l = layout(fe, fx_layout_files[kinds[k]]);
                frames[kinds[k]] = l ? l->off->num_frames : -1;
            }
        }
        fsspot_fx_t copy;
        double tr;
        const fsspot_fx_t *run = spot_clock(w, fx, i, t, &copy, &tr);
        if (!run)
            continue;
        int n = fx->type == FSSPOT_GRAVITY_SPARKS
                    ? r_fsspot_gravity(fe->sparks, run, i, tr, frames, fe->sprites, FSE_MAX_SPRITES)
                    : r_fsspot_sprites(run, i, &fe->spot_path[i], tr, frames, fe->sprites, FSE_MAX_SPRITES);
        drawn += draw_fx_sprites(fe, v, n);
    }
    return drawn;
}

// A dying ship's fire (CreateSpotFXBurning every tick of DEATH_MODE; its last sprites live on
// after it stopped) and a damaged one's black smoke (hull under 64), expl.off's frames facing the
// eye, added (r_fsfx.c: which, where, at t).
static int draw_damage(r_fsent_t *fe, const world_t *w, const r_view_t *v, int num, double t)
{
    int p = num - 1, mode = ship_mode(w, num), hull = ship_hull(w, p);
    int smoke = mode >= 0 && hull >= 0 && hull < FSFX_SMOKE_HULL && fe->tracks[p].valid;
    double until = fe->dying_until[p];
    int fire = until > -1e29 && t - until < 64.0 / FSE_TICKS;   // dying, or stopped within its fire's life
    if (!fire && !smoke)
        return 0;
    const fse_layout_t *lo = layout(fe, "expl.off");
    if (!lo)
        return 0;
    r_fsfx_ship_t now = fe->dying_ship[p];
    if (fe->tracks[p].valid && r_fsent_ship_origin(fe, num, t, now.org)) {   // where it is drawn at t
        float right[3];
        memcpy(now.vel, fe->tracks[p].vel, sizeof now.vel);
        r_fs_angle_vectors(w->entities[num].cur.angles, now.fwd, right, now.up);
        now.time = t;
    } else if (!smoke && t > until) {
        now = fe->dying_ship[p];   // gone (limbo): its fire from where it was last
    } else {
        return 0;
    }
    int drawn = 0;
    for (int pass = 0; pass < 2; pass++) {
        int n = 0;
        if (pass == 0 && fire)
            n = r_fsfx_burning(num, t, fe->dying_since[p], until, t > until ? &fe->dying_ship[p] : &now,
                               lo->off->num_frames, fe->sprites, FSE_MAX_SPRITES);
        else if (pass == 1 && smoke)
            n = r_fsfx_smoke(num, t, fe->damaged_since[p], &now, hull, lo->off->num_frames, fe->sprites, FSE_MAX_SPRITES);
        drawn += draw_fx_sprites(fe, v, n);
    }
    return drawn;
}

// The sparks where a shot hit a ship with no shield (CreateColSparks; the suss-gun's and the
// laser's CreateSmallColSparks; every missile's CreateColSparks), where it hit, added (r_fsfx.c:
// which, where, at t).
static int draw_col_sparks(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, double t)
{
    const fse_layout_t *lo[3] = { layout(fe, "expl.off"), layout(fe, "bits.off"), layout(fe, "bigflash.off") };
    if (!lo[0] || !lo[1])
        return 0;
    int small = !sh->secondary && (sh->weapon == FSW_SUSSGUN || sh->weapon == FSW_LASER);
    int n = r_fsfx_col_sparks(sh->end, sh->ship_dir, shot_seed(sh), small,
                              (float)((t - sh->t_end) * FSE_TICKS), lo[0]->off->num_frames, lo[1]->off->num_frames,
                              fe->sprites, FSE_MAX_SPRITES);
    return draw_fx_sprites(fe, v, n);
}

// A missile's explosion where it ended, on its wall or on a ship (DestroySecondary's
// CreateExplosion; the MFRL's and pine missile's CreateSmallExplosion): expl.off's frames facing
// the eye, added (r_fsfx.c: which, where, at t).
// A missile's smoke trail at t (ProcessMissiles' "Do Trails", 2dPolys.c's puffs: r_fsfx.c), its
// layout's frames facing the eye, added; the puffs live on after the missile ended.
static int draw_missile_trail(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, double t)
{
    int kind = r_fsfx_missile_trail_kind(sh->weapon);
    if (kind < 0 || t < sh->t0)
        return 0;
    const fse_layout_t *lo = layout(fe, fx_layout_files[kind]);
    if (!lo)
        return 0;
    int max = FSE_MAX_SPRITES < FSFX_MAX_TRAIL ? FSE_MAX_SPRITES : FSFX_MAX_TRAIL;
    float ticks = (float)((t - sh->t0) * FSE_TICKS), end = (float)((sh->t_end - sh->t0) * FSE_TICKS);
    int n = sh->hm ? r_fsfx_missile_trail_path(sh->weapon, shot_seed(sh), (const float (*)[3])sh->hm->pos,
                                               (const float (*)[3])sh->hm->dir, sh->hm->n, ticks, end,
                                               lo->off->num_frames, fe->sprites, max)
                   : r_fsfx_missile_trail(sh->weapon, shot_seed(sh), sh->org, sh->drop, sh->dir, ticks, end,
                                          lo->off->num_frames, fe->sprites, max);
    return draw_fx_sprites(fe, v, n);
}

// Where the scatter was after tick k's move and its direction then (its stepped path; straight on
// from its start when it has none). 0: not known.
static int scatter_place(const fse_shot_t *sh, int k, float p[3], float dir[3])
{
    if (k < 0)
        return 0;
    if (sh->hm) {
        if (k >= sh->hm->n)
            return 0;
        memcpy(p, sh->hm->pos[k], 3 * sizeof *p);
        memcpy(dir, sh->hm->dir[k], 3 * sizeof *dir);
        return 1;
    }
    float along = r_fsfx_missile_move(sh->weapon, (float)k, NULL);
    for (int j = 0; j < 3; j++) {
        p[j] = sh->org[j] + sh->dir[j] * along;
        dir[j] = sh->dir[j];
    }
    return 1;
}

// The scatter's own trail (CreateScatterTrail, made again every frame while it flies): a tube of
// POLY_SCATTER_TRAIL quads of SCTTRAIL.OFF's frame (its life / 2, round its frames) from the ring
// behind the missile through the rings behind its kept places, fading (r_fsfx.c: which, where),
// added as the other trail polygons; gone with the missile.
static int draw_scatter_trail(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, double t)
{
    float p[3], dir[3];
    if (sh->weapon != FSW_SCATTER || !shot_at(sh, t, p))
        return 0;
    const fse_layout_t *lo = layout(fe, "scttrail.off");
    if (!lo || lo->off->num_frames < 1)
        return 0;
    memcpy(dir, sh->dir, sizeof dir);
    if (sh->hm)
        homing_at(sh, t, p, dir);
    float ticks = (float)((t - sh->t0) * FSE_TICKS);
    int idx[FSFX_SCATTER_MAXOLD];
    int kept = r_fsfx_scatter_kept(ticks, sh->hm ? sh->hm->n : FSE_HOMING_TICKS, idx, FSFX_SCATTER_MAXOLD);
    float ring[FSFX_SCATTER_MAXOLD + 1][3][3];
    r_fsfx_scatter_ring(p, dir, ring[0]);
    int nr = 1;
    for (int m = 0; m < kept; m++) {
        float kp[3], kd[3];
        if (!scatter_place(sh, idx[m], kp, kd))
            break;
        r_fsfx_scatter_ring(kp, kd, ring[nr++]);
    }
    int f = (int)(ticks / 2) % lo->off->num_frames, drawn = 0;
    for (int m = 0; m + 1 < nr; m++) {
        float a = r_fsfx_scatter_shade(kept, m), b = r_fsfx_scatter_shade(kept, m + 1);
        const float rgb[4][3] = { { a, a, a }, { b, b, b }, { b, b, b }, { a, a, a } };
        for (int c = 0; c < 3; c++) {
            float q[4][3];
            memcpy(q[0], ring[m][c], sizeof q[0]);
            memcpy(q[1], ring[m + 1][c], sizeof q[1]);
            memcpy(q[2], ring[m + 1][(c + 1) % 3], sizeof q[2]);
            memcpy(q[3], ring[m][(c + 1) % 3], sizeof q[3]);
            drawn += draw_quad_shaded(fe, v, lo, f, q, rgb);
        }
    }
    return drawn;
}

// MODEL_Sphere (ModelNames[]: ball1.mx, its levels of detail ball2.mx and ball3.mx, by its distance as
// any model's: r_fsent_lod, at most 2) at `at`, `scale` times its size (a 50-unit ball), facing the eye
// (ModelDisp: its z along the camera's forward, its x and y the camera's), every vertex `rgb`
// (ProcessModel: no light), added to the scene (its one buffer is of the see-through kind; drawn
// through the sprites' add table, not writing z), both sides of every triangle (ours: ball1.mx's
// triangles face inwards by the winding the level and the bikes are drawn by, so one-sided it would
// show only its far half; the game's cull state for it was not read). Black adds nothing: not drawn.
static int draw_sphere(r_fsent_t *fe, const r_view_t *v, const float at[3], float scale, const uint8_t rgb[3])
{
    static const char *const balls[3] = { "ball1.mx", "ball2.mx", "ball3.mx" };
    if (!(scale > 0) || !(scale < 1e4f) || !finite3(at) || (!rgb[0] && !rgb[1] && !rgb[2]))
        return 0;
    float c[3];
    to_cam(v, at, c);
    int lod = r_fsent_lod(sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
    const fse_model_t *md = model(fe, balls[lod < 2 ? lod : 2]);
    if (!md)
        md = model(fe, balls[0]);
    const uint8_t *add = md ? add_table(fe) : NULL;
    if (!add)
        return 0;
    float r[3], u[3], f[3];
    for (int k = 0; k < 3; k++) {
        r[k] = v->vright[k] * scale;
        u[k] = v->vup[k] * scale;
        f[k] = v->vpn[k] * scale;
    }
    return draw_model_ex(fe, v, md, at, r, u, f, 1, add, NULL, scale, rgb, 1);
}

// The gravgon's field `ticks` after the missile met its wall or ship (CreateGravgonField at its
// ColPoint): its two spheres (r_fsfx_gravgon), each blue by ProcessModel's rule (0, 0, 127 .. 0: the
// brighter the smaller).
static int draw_gravgon_field(r_fsent_t *fe, const r_view_t *v, const float at[3], float ticks)
{
    float sc[2];
    int mask = r_fsfx_gravgon(ticks, sc), drawn = 0;
    for (int k = 0; k < 2; k++)
        if (mask & (1 << k)) {
            uint8_t rgb[3] = { 0, 0, (uint8_t)r_fsfx_sphere_shade(sc[k], FSFX_FIELD_MAX) };
            drawn += draw_sphere(fe, v, at, sc[k], rgb);
        }
    return drawn;
}

// What CreateShockwave (and DestroySecondary's CreateExplosion) leave at `at`, `ticks` after: expl.off's
// explosion (CreateSmallExplosion's scattered pieces when `small`) and, when shock > 0, CreateBigFlash(
// Pos, ShockwaveSize ): FM_FLASH of BIGFLASH.OFF, R G B 255, MOVEOUT, `shock` units a texel less 0.1
// a tick, 16 ticks, and its MODEL_Sphere (MODFUNC_Explode: Scale 0 growing to ShockwaveSize in 40
// ticks, red by ProcessModel's rule, 127 .. 0 as it grows). Nothing once all of it is over.
static int draw_shockwave(r_fsent_t *fe, const r_view_t *v, const float at[3], uint32_t seed, int small, float ticks,
                          float shock)
{
    float sc = r_fsfx_shock_sphere(shock, ticks);
    int sphere = 0;
    if (sc >= 0) {
        uint8_t rgb[3] = { (uint8_t)r_fsfx_sphere_shade(sc, shock), 0, 0 };
        sphere = draw_sphere(fe, v, at, sc, rgb);
    }
    const fse_layout_t *lo = layout(fe, "expl.off");
    if (!lo || !(ticks >= 0))
        return sphere;
    int n = r_fsfx_explosion(at, seed, small, ticks, lo->off->num_frames, fe->sprites, FSE_MAX_SPRITES - 1);
    if (shock > 0 && ticks < FSE_FLASH_LIFE && shock - 0.1f * ticks > 0) {
        r_fsfx_sprite_t *f = &fe->sprites[n++];
        memset(f, 0, sizeof *f);
        memcpy(f->pos, at, sizeof f->pos);
        f->rgb[0] = f->rgb[1] = f->rgb[2] = 1;
        f->scale = shock - 0.1f * ticks;
        f->age = ticks;
        f->moveout = 1;
        f->kind = FSFX_SPRITE_FLASH;
        f->id = 99;
    }
    return sphere + (n ? draw_fx_sprites(fe, v, n) : 0);
}

// Where a missile or mine ended: DestroySecondary's explosion (the MFRL's and pine missile's small
// one), or CreateShockwave's when it went off in one (sh->shock: a mine, or MSG_EXPSECONDARY).
static int draw_explosion(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, double t)
{
    int small = !(sh->shock > 0) && (sh->weapon == FSW_MFRL || sh->weapon == FSW_PINEMISSILE);
    return draw_shockwave(fe, v, sh->end, shot_seed(sh), small, (float)((t - sh->t_end) * FSE_TICKS), sh->shock);
}

// A primary shot as the game's InitOnePrimBull made it (facts in docs/forsaken.md): its FmPoly
// sprite, size, animation and trail. Returns the triangles drawn, -1 when the weapon's sprite
// is not known or its files did not load (the caller draws the glow).
static int draw_primary(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, const float p[3], double t)
{
    float ticks = (float)((t - sh->t0) * FSE_TICKS), pw = (float)sh->power;
    const fse_layout_t *lo;
    switch (sh->weapon) {
    case FSW_PULSAR:   // PULSAR.OFF, PULSAR_FMSIZE 0.625 units a texel, FM_PULSAR: still; the trail
        if (!(lo = layout(fe, "pulsar.off")))
            return -1;
        return draw_faceme(fe, v, lo, 0, p, 0.625f, 0, fse_white) + draw_pulsar_trail(fe, v, sh, p);
    case FSW_ORBITPULSAR:   // MULTIPLE.OFF, ORBITPULSAR_FMSIZE 0.25, FM_PULSAR: still
        if (!(lo = layout(fe, "multiple.off")))
            return -1;
        return draw_faceme(fe, v, lo, 0, p, 0.25f, 0, fse_white);
    case FSW_TROJAX: {   // TROJAX1.OFF, TROJAX2.OFF at full charge; (3 + PLevel x 0.075) x 0.25 a
                         // texel; square to its path (FM_FLAG_DIRCONST, two-sided), turning
                         // PLevel + 10 degrees a tick; R G B 205 + PLevel / 2
        float plevel = sh->charge;
        if (!(lo = layout(fe, plevel >= 100 ? "trojax2.off" : "trojax1.off")))
            return -1;
        float a[3], b[3], ax[3], ay[3], scale = (3 + plevel * 0.075f) * 0.25f;
        across(v, p, sh->dir, a, b);
        float rot = fmodf(ticks * (plevel + 10), 360.0f) * (float)(M_PI / 180), sn = sinf(rot), cs = cosf(rot);
        for (int k = 0; k < 3; k++) {
            float up = a[k] * cs + b[k] * sn, right = b[k] * cs - a[k] * sn;
            ax[k] = right * scale;
            ay[k] = -up * scale;
        }
        float l = (205 + plevel * 0.5f) / 255;
        return draw_frame(fe, v, lo, 0, p, ax, ay, (const float[3]){ l, l, l });
    }
    case FSW_PYROLITE: {   // expl.off, FM_FLAME: a frame a tick up to 12, turning a random 20..49
                           // degrees a tick from a random start; power x 0.125 + 0.1875 a texel,
                           // growing 0.01875 a tick; R G B 128
        if (!(lo = layout(fe, "expl.off")))
            return -1;
        unsigned h = (unsigned)sh->id * 2654435761u + (unsigned)sh->owner * 40503u;   // ours: the game's Random_Range
        float rot0 = (float)(h % 360), speed = (float)(20 + (h >> 9) % 30);
        float scale = pw * 0.125f + 0.1875f + ticks * 0.01875f, l = 128.0f / 255;
        int f = (int)ticks;
        return draw_faceme(fe, v, lo, f > 12 ? 12 : f, p, scale, fmodf(rot0 + ticks * speed, 360.0f),
                           (const float[3]){ l, l, l });
    }
    case FSW_TRANSPULSE: {   // FLARE.OFF facing the eye, power x 0.6 + 1.05 a texel; ARC.OFF along
                             // its path (DIRCONST, two-sided), power x 0.75 + 1.5 across, 3 along;
                             // both still (FM_ARC2, FM_ARC)
        const fse_layout_t *arc = layout(fe, "arc.off");
        if (!(lo = layout(fe, "flare.off")) || !arc)
            return -1;
        float a[3], b[3], ax[3], ay[3], across_scale = pw * 0.75f + 1.5f, lo_org[3], dir[3], speed;
        double ts;
        shot_leg(sh, t, &ts, lo_org, dir, &speed);
        if (ts > sh->t0)
            across_scale *= 0.5f;   // ChangeTranspulseDir halves the arc's xsize
        across(v, p, dir, a, b);
        for (int k = 0; k < 3; k++) {
            ax[k] = a[k] * across_scale;
            ay[k] = -dir[k] * 3.0f;
        }
        return draw_faceme(fe, v, lo, 0, p, pw * 0.6f + 1.05f, 0, fse_white) +
               draw_frame(fe, v, arc, 0, p, ax, ay, fse_white);
    }
    case FSW_SUSSGUN:   // FLARE.OFF, power x 0.125 + 0.125 a texel, FM_ARC2: still
        if (!(lo = layout(fe, "flare.off")))
            return -1;
        return draw_faceme(fe, v, lo, 0, p, pw * 0.125f + 0.125f, 0, fse_white);
    case FSW_LASER:   // its beam and the flare where it ends: draw_laser
        return 0;
    default:
        return -1;
    }
}

// A burst of BITS.OFF sparks made at once at `at`, `ticks` after (FM_BITS: r_fsfx_bits_burst),
// added; `seed` picks their random directions and speeds.
static int draw_bits_burst(r_fsent_t *fe, const r_view_t *v, const float at[3], const float dir[3], uint32_t seed,
                           int count, const float rgb[3], float ticks)
{
    const fse_layout_t *lo = layout(fe, "bits.off");
    if (!lo)
        return 0;
    int n = r_fsfx_bits_burst(at, dir, seed, count, rgb, ticks, lo->off->num_frames, fe->sprites, FSE_MAX_SPRITES);
    return draw_fx_sprites(fe, v, n);
}

// The laser's sparks where it ends, at t (CreateLaserPulse, every frame of its 12 ticks while it
// hits: Random_Range(3) = 0 .. 2 FM_BITS sparks, R G B 255 64 64, along its direction reflected
// at the wall, NewDir): those made at each tick of its life, each tick's count and sparks from a
// hash of the shot and the tick (ours: the game makes them each frame, 0 .. 2 at 71 frames a
// second), living on 36 ticks after it ended.
static int draw_laser_sparks(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, double t)
{
    const fse_layout_t *lo = layout(fe, "bits.off");
    if (!lo || !sh->hit || t < sh->t0)
        return 0;
    static const float rgb[3] = { 1, 64.0f / 255, 64.0f / 255 };
    double now = (t - sh->t0) * FSE_TICKS, life = (sh->t_end - sh->t0) * FSE_TICKS;
    int k0 = (int)ceil(now - FSFX_BITS_TICKS * (float)lo->off->num_frames), drawn = 0;
    for (int k = k0 < 0 ? 0 : k0; k <= now && k < life; k++) {
        float end[3], n[3], out[3];
        laser_end(sh, sh->t0 + (k + 0.5) / FSE_TICKS, end, n);   // that tick's beam (on a ship: off its sphere)
        float d = sh->dir[0] * n[0] + sh->dir[1] * n[1] + sh->dir[2] * n[2];
        for (int j = 0; j < 3; j++)
            out[j] = sh->dir[j] - 2 * d * n[j];   // ReflectVector
        uint32_t seed = world_hash32(shot_seed(sh) ^ (uint32_t)k * 0x9e3779b1u);
        drawn += draw_bits_burst(fe, v, end, out, seed, (int)(seed % 3u), rgb, (float)(now - k));
    }
    return drawn;
}

// The laser (InitOnePrimBull's LASER, CreateLaserPulse): while it lasts (12 ticks), a two-sided
// quad of LASER.OFF (frame every 4 ticks, looping: POLY_LASER) from the gun to the wall,
// LaserDiameter = power x 2 + 6 units either side of its line along the ship's left, and a second
// along its up that only the other players see (the pilot's own view has one); FLARE.OFF, 1.5
// units a texel, R G B 255, pulled out (FM_FLAG_MOVEOUT) where it ends. The ship's left and up are
// not in the message: the quads lie across and along the line of sight (assumed, as the trail's).
// Only a laser that hits something is drawn (the game cleans up one that does not).
static int draw_laser(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, double t, int own)
{
    const fse_layout_t *lo = layout(fe, "laser.off"), *flare = layout(fe, "flare.off");
    if (!lo || !sh->hit)
        return -1;
    float ticks = (float)((t - sh->t0) * FSE_TICKS), half = sh->power * FSE_LASER_WIDTH_MUL + FSE_LASER_WIDTH_ADD;
    float mid[3], a[3], b[3], end[3];
    laser_end(sh, t, end, NULL);   // its wall, or the first ship on the way (laser_frame)
    for (int k = 0; k < 3; k++)
        mid[k] = (sh->org[k] + end[k]) * 0.5f;
    across(v, mid, sh->dir, a, b);
    int f = (int)(ticks / 4) % lo->off->num_frames, drawn = 0;
    for (int side = 0; side < (own ? 1 : 2); side++) {
        const float *ax = side ? b : a;
        float q[4][3];
        for (int k = 0; k < 3; k++) {
            q[0][k] = sh->org[k] - ax[k] * half;
            q[1][k] = sh->org[k] + ax[k] * half;
            q[2][k] = end[k] + ax[k] * half;
            q[3][k] = end[k] - ax[k] * half;
        }
        drawn += draw_quad(fe, v, lo, f, q, fse_white);
    }
    if (flare) {
        float p[3];
        moveout(v, end, p);
        drawn += draw_faceme(fe, v, flare, 0, p, 1.5f, 0, fse_white);
    }
    return drawn + (t < sh->t_end ? draw_laser_sparks(fe, v, sh, t) : 0);   // after: draw_impact
}

// The transpulse's trail (CreateTransTrail, called every tick while it flies): a spark of BITS.OFF
// (FM_ARC_SPARK: a frame every 5 ticks, 6 frames), TRANSPULSE_SPARKSIZE 1 unit a texel, R G B 255
// 64 64, born where the shot is, a random (power x 90 + 145) x 0.25 units or less to either side
// along the shot's right (its path x the ship's up: here across the line of sight, assumed),
// then moving along the shot's path at 4 units a tick, 0.5 less each tick (assumed a tick: the
// game takes 0.5 every frame). The random side comes from a hash of the shot and the tick (ours).
static int draw_trans_trail(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, double t)
{
    const fse_layout_t *lo = layout(fe, "bits.off");
    if (!lo || t < sh->t0)
        return 0;
    float life = 5.0f * (float)lo->off->num_frames;   // ticks a spark lasts
    double now = (t - sh->t0) * FSE_TICKS, last = (sh->t_end - sh->t0) * FSE_TICKS;
    int k1 = (int)floor(now < last ? now : last), k0 = (int)ceil(now - life);
    k0 = k0 < 1 ? 1 : k0;
    if (k1 < k0)
        return 0;
    float here[3], a[3], b[3], lo_org[3], dir[3], speed;
    double ts, tn = t < sh->t_end ? t : sh->t_end;
    shot_leg(sh, tn, &ts, lo_org, dir, &speed);
    for (int k = 0; k < 3; k++)
        here[k] = lo_org[k] + dir[k] * speed * (float)(tn - ts);
    across(v, here, dir, a, b);
    int size = (int)(sh->power * FSE_ARCTRAIL_MUL + FSE_ARCTRAIL_ADD), drawn = 0;
    const float rgb[3] = { 1, 64.0f / 255, 64.0f / 255 };
    for (int k = k0; k <= k1; k++) {
        float age = (float)(now - k);
        int f = (int)(age / 5);
        if (age < 0 || f >= lo->off->num_frames)
            continue;
        unsigned h = ((unsigned)sh->id * 2654435761u) ^ ((unsigned)sh->owner * 40503u) ^ ((unsigned)k * 2246822519u);
        h ^= h >> 15;
        h *= 2654435761u;
        h ^= h >> 13;
        float side = (float)((int)(h % (unsigned)(2 * size)) - size) * 0.25f;
        float n = age < 8 ? age : 8, moved = FSE_ARC_SPARK_SPEED * n - 0.25f * n * (n + 1);   // 4 - 0.5 i, i = 1 .. n
        // born where the shot was at its tick k, drifting along the leg it was on then
        double tk = sh->t0 + k / FSE_TICKS;
        shot_leg(sh, tk, &ts, lo_org, dir, &speed);
        float along = speed * (float)(tk - ts) + moved, p[3];
        for (int j = 0; j < 3; j++)
            p[j] = lo_org[j] + dir[j] * along + a[j] * side;
        drawn += draw_faceme(fe, v, lo, f, p, FSE_ARC_SPARK_SIZE, 0, rgb);
    }
    return drawn;
}

// The up vector the game gives a ring on a wall of unit normal n: SlideUp (0 1 0) turned by the
// shortest turn from Forward (0 0 1) to n (QuatFrom2Vectors), and right = up x n.
static void ring_axes(const float n[3], float right[3], float up[3])
{
    float c = n[2], kx = -n[1], ky = n[0];   // axis z x n = (-n.y, n.x, 0), |axis| = sin
    float s2 = kx * kx + ky * ky;
    if (s2 < 1e-10f) {
        up[0] = 0, up[1] = 1, up[2] = 0;
    } else {
        float s = sqrtf(s2);
        kx /= s, ky /= s;
        // Rodrigues on (0 1 0): v cos + (k x v) sin + k (k . v)(1 - cos), k = (kx ky 0)
        up[0] = kx * ky * (1 - c);
        up[1] = c + ky * ky * (1 - c);
        up[2] = kx * s;
    }
    right[0] = up[1] * n[2] - up[2] * n[1];
    right[1] = up[2] * n[0] - up[0] * n[2];
    right[2] = up[0] * n[1] - up[1] * n[0];
    normalize3(right);
}

// A flat ring of TROJ_EXP.OFF on the wall (FM_TROJAX_EXP, FM_ARC_RING; FM_FLAG_DIRCONST): 8 units
// off it along its normal, `size` units a texel, coloured rgb.
static int draw_ring(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, float size, const float rgb[3])
{
    const fse_layout_t *lo = layout(fe, "troj_exp.off");
    if (!lo)
        return 0;
    float c[3], right[3], up[3], ax[3], ay[3];
    ring_axes(sh->normal, right, up);
    for (int k = 0; k < 3; k++) {
        c[k] = sh->end[k] + sh->normal[k] * FSE_RING_OUT;
        ax[k] = right[k] * size;
        ay[k] = -up[k] * size;
    }
    return draw_frame(fe, v, lo, 0, c, ax, ay, rgb);
}

// Where a primary hit its wall, `ticks` (game ticks) after (ProcessPrimaryBullets' "hit
// background": facts in docs/forsaken.md): the pulsar's and orbit pulsar's PULS_EXP.OFF, the
// trojax's TROJ_EXP.OFF ring, the transpulse's red ring and flare, the suss-gun's flare then
// SHRAPNEL.OFF; the trojax's and transpulse's BITS.OFF sparks, the laser's after its beam went.
// The pyrolite bounces (not followed): nothing here.
static int draw_impact(r_fsent_t *fe, const r_view_t *v, const fse_shot_t *sh, float ticks)
{
    const fse_layout_t *lo;
    float p[3];
    switch (sh->weapon) {
    case FSW_PULSAR:
    case FSW_ORBITPULSAR: {   // CreatePulsarExplosion: FM_PULSAR_EXP, a frame every 4 ticks, R G B 128, MOVEOUT
        int f = (int)(ticks / 4);
        if (!(lo = layout(fe, "puls_exp.off")) || f >= lo->off->num_frames)
            return 0;
        moveout(v, sh->end, p);
        float l = 128.0f / 255;
        return draw_faceme(fe, v, lo, f, p, FSE_PULSAR_EXPSIZE, 0, (const float[3]){ l, l, l });
    }
    case FSW_TROJAX: {   // CreateTrojaxExplosion (type 0): R G B 128 fading 8 a tick, growing to its end;
                         // RotSpeed / 5 + 5 sparks (RotSpeed = PLevel + 10) along the wall's normal
        int drawn = 0;
        float size = FSE_TROJAX_EXPSIZE + FSE_RING_GROW * ticks, l = (128 - FSE_RING_FADE * ticks) / 255;
        if (size < FSE_RING_MAX && l > 0)
            drawn += draw_ring(fe, v, sh, size, (const float[3]){ l, l, l });
        return drawn + draw_bits_burst(fe, v, sh->end, sh->normal, shot_seed(sh), (int)((sh->charge + 10) / 5 + 5),
                                       fse_spark_red, ticks);
    }
    case FSW_TRANSPULSE: {   // CreateArcExplosion: the ring R G B 255 32 32 fading; FLARE.OFF for 48 ticks
        int drawn = 0;
        float size = FSE_ARC_EXPSIZE + FSE_RING_GROW * ticks, fade = FSE_RING_FADE * ticks;
        float rgb[3] = { (255 - fade) / 255, (32 - fade) / 255, (32 - fade) / 255 };
        if (size < FSE_RING_MAX && rgb[0] > 0)
            drawn += draw_ring(fe, v, sh, size, rgb);
        if (ticks < FSE_ARC_FLARE_LIFE && (lo = layout(fe, "flare.off"))) {
            float c[3];
            for (int k = 0; k < 3; k++)
                c[k] = sh->end[k] + sh->normal[k] * FSE_RING_OUT;
            moveout(v, c, p);
            drawn += draw_faceme(fe, v, lo, 0, p, FSE_ARC_FLARE, 0, fse_white);
        }
        // 10 + Random_Range(10) sparks along the wall's normal
        uint32_t seed = shot_seed(sh);
        return drawn + draw_bits_burst(fe, v, sh->end, sh->normal, seed, 10 + (int)(world_hash32(seed) % 10u),
                                       fse_spark_red, ticks);
    }
    case FSW_SUSSGUN: {   // CreateShrapnelExplosion: FM_SHRAPNEL_EXP, R G B 128, MOVEOUT
        float l = 128.0f / 255;
        moveout(v, sh->end, p);
        if (ticks < FSE_SUSS_FLARE_TICKS)
            return (lo = layout(fe, "flare.off")) ? draw_faceme(fe, v, lo, 0, p, FSE_SUSS_FLARE, 0, (const float[3]){ l, l, l }) : 0;
        int f = (int)(ticks - FSE_SUSS_FLARE_TICKS);
        if (!(lo = layout(fe, "shrapnel.off")) || f >= lo->off->num_frames)
            return 0;
        return draw_faceme(fe, v, lo, f, p, FSE_SUSS_EXPSIZE, 0, (const float[3]){ l, l, l });
    }
    case FSW_LASER:   // its sparks live on after the beam (draw_laser_sparks)
        return draw_laser_sparks(fe, v, sh, sh->t_end + ticks / FSE_TICKS);
    default:
        return 0;
    }
}

// ---- moving lights on the level (the game's XLights) ------------------------------------

_Static_assert(sizeof pickup_light / sizeof pickup_light[0] == FSE_NUM_PICKUPS, "a light for every pickup");
_Static_assert(FSE_NUM_PICKUPS == FSPIC_PICKUP_TYPES, "a model and a light for every type a .PIC can place");

static int add_light(r_fslight_t *out, int n, int max, const float org[3], float size, float r, float g, float b)
{
    if (n >= max || !(size > 0) || !(r > 0 || g > 0 || b > 0))
        return n;
    r_fslight_t *l = &out[n];
    memset(l, 0, sizeof *l);
    memcpy(l->org, org, sizeof l->org);
    l->size = size;
    l->rgb[0] = r;
    l->rgb[1] = g;
    l->rgb[2] = b;
    return n + 1;
}

int r_fsent_lights(const r_fsent_t *fe, const world_t *w, double t, r_fslight_t *out, int max)
{
    if (!fe || !fe->on || !out || max <= 0)
        return 0;
    int n = 0;
    // shots: a light that flies with each (InitOnePrimBull, InitOneSecBull); a primary that
    // hits a wall leaves it dying there (CleanUpPrimBull -> SetLightDie: red, shrinking)
    for (int i = 0; i < FSE_MAX_SHOTS; i++) {
        const fse_shot_t *sh = &fe->shots[i];
        if (!sh->active)
            continue;
        float p[3], size = sh->secondary ? secondary_lights[sh->weapon].size : primaries[sh->weapon].light;
        if (shot_at(sh, t, p)) {
            if (sh->secondary) {
                const uint8_t *c = secondary_lights[sh->weapon].rgb;
                int before = n;
                n = add_light(out, n, max, p, size, c[0], c[1], c[2]);
                if (n > before && sh->weapon == FSW_QUANTUMMINE) {
                    out[before].spot = 1;
                    memcpy(out[before].dir, sh->dir, sizeof out[before].dir);
                    out[before].cos_arc = FSE_QUANTUM_COS;
                }
            } else {
                const uint8_t *c = primaries[sh->weapon].rgb[sh->power];
                n = add_light(out, n, max, p, size, c[0], c[1], c[2]);
            }
        } else if (sh->hit && t >= sh->t_end) {   // a missile's too: CleanUpSecBull's SetLightDie
            float ticks = (float)((t - sh->t_end) * FSE_TICKS);
            float left = size - FSE_DIE_SHRINK * ticks, red = 255 - FSE_DIE_FADE * ticks;
            n = add_light(out, n, max, sh->end, left, red, 0, 0);
        }
    }
    // explosions (assumed: the game's explosion lights were not found): a warm light of three
    // times the blast's size (at least 384 units) fading out over its animation
    for (int i = 0; i < FSE_MAX_BLASTS; i++) {
        const fse_blast_t *b = &fe->blasts[i];
        double f = (t - b->t0) * FSE_BLAST_FPS / FSE_BLAST_FRAMES;   // 0..1 through the animation
        if (!b->active || !b->light || f < 0 || f >= 1)
            continue;
        float k = (float)(1 - f), size = b->size * 3 > FSE_SHOT_LIGHT ? b->size * 3 : FSE_SHOT_LIGHT;
        n = add_light(out, n, max, b->org, size, 255 * k, 160 * k, 64 * k);
    }
    if (!w)
        return n;
    // headlights (ProcessShips): a spot light along each ship's nose while its light flag is
    // set, not blown up; the pilot's own lights the walls too
    for (int p = 0; p < FSW_SHIPS; p++) {
        int num = p + 1;
        float org[3], fwd[3], right[3], up[3];
        if (!world_entity_visible(w, num) || w->entities[num].cur.modelindex != FSW_MODEL_SHIP ||
            !(w->entities[num].cur.raw_effects & FSW_SHIP_LIGHT) || !r_fsent_ship_origin(fe, num, t, org))
            continue;
        if (!r_fsfx_headlight_on(num, t, ship_mode(w, num) == 1))
            continue;   // a dying ship's light blinks
        r_fs_angle_vectors(w->entities[num].cur.angles, fwd, right, up);
        int before = n;
        n = add_light(out, n, max, org, FSE_HEADLIGHT_SIZE, FSE_HEADLIGHT_RGB, FSE_HEADLIGHT_RGB, FSE_HEADLIGHT_RGB);
        if (n > before) {
            out[before].spot = 1;
            memcpy(out[before].dir, fwd, sizeof fwd);
            out[before].cos_arc = FSE_HEADLIGHT_COS;
        }
    }
    // pickups (InitOnePickup): PickupAttribs[]' light where each lies
    for (int e = FSW_PICKUP_ENT0; e < w->num_entities && e < FSW_BGO_ENT0; e++) {
        if (!world_entity_visible(w, e) || w->entities[e].cur.modelindex != FSW_MODEL_PICKUP)
            continue;
        int type = w->entities[e].cur.skin;
        if (type < 0 || type >= FSE_NUM_PICKUPS)
            continue;
        const uint8_t *c = pickup_light[type];
        n = add_light(out, n, max, w->entities[e].cur.origin, FSE_SHOT_LIGHT, c[0] * FSE_PICKUP_SCALE,
                      c[1] * FSE_PICKUP_SCALE, c[2] * FSE_PICKUP_SCALE);
    }
    // the level's real-time lights a trigger switched on (EnableRTLight, ProcessRTLights): each
    // waits its generation delay (60ths, counted by 71 ticks a second), then pulses by its .RTL
    for (int k = 0; fe->rtl && k < fe->rtl->count && k < FSW_MAX_RTL; k++) {
        int e = FSW_RTL_ENT0 + k;
        if (!world_entity_visible(w, e) || w->entities[e].cur.modelindex != FSW_MODEL_TRIG || !w->entities[e].cur.frame)
            continue;
        const fsrtl_light_t *x = &fe->rtl->lights[k];
        double since = t - w->entities[e].cur.animtime - x->gen_delay * FSE_ANIM_SECOND / FSE_TICKS;
        float f = fsrtl_pulse(x, since);
        int before = n;
        n = add_light(out, n, max, x->pos, x->range, x->rgb[0] * f, x->rgb[1] * f, x->rgb[2] * f);
        if (n > before && x->type == FSRTL_SPOT) {   // a turning spot's direction is not followed (no level has one)
            float len = sqrtf(x->dir[0] * x->dir[0] + x->dir[1] * x->dir[1] + x->dir[2] * x->dir[2]);
            if (len > 0) {
                out[before].spot = 1;
                for (int c = 0; c < 3; c++)
                    out[before].dir[c] = x->dir[c] / len;
                out[before].cos_arc = cosf(x->cone * 0.5f * (float)M_PI / 180);
            }
        }
    }
    // the level's spot effects' lights (r_fsspot.c: the gravity sparks' bursts, the explosions,
    // the fire wall's flames)
    for (int i = 0; fe->spot && fe->spot_path && !fe->spot_off && i < fe->spot->count && n < max; i++) {
        fsspot_fx_t copy;
        double tr;
        const fsspot_fx_t *run = spot_clock(w, &fe->spot->fx[i], i, t, &copy, &tr);
        if (run)
            n += r_fsspot_lights(run, i, &fe->spot_path[i], tr, out + n, max - n);
    }
    // the level's own, where the host placed them and until they are taken
    for (int i = 0; i < fe->num_placed; i++) {
        if (!level_pickup_there(fe, w, i))
            continue;
        const uint8_t *c = pickup_light[fe->placed[i].type];
        n = add_light(out, n, max, fe->placed[i].pos, FSE_SHOT_LIGHT, c[0] * FSE_PICKUP_SCALE, c[1] * FSE_PICKUP_SCALE,
                      c[2] * FSE_PICKUP_SCALE);
    }
    return n;
}

void r_fsent_light_level(r_fsent_t *fe, const world_t *w, double t, r_fsworld_t *fw)
{
    if (!fe || !fw)
        return;
    int n = r_fsent_lights(fe, w, t, fe->light_pool, R_FS_MAX_LIGHTS);
    r_fsworld_set_lights(fw, fe->light_pool, n);
    fe->fw = fw;
    fe->shade = r_fsworld_shade(fw);
}

void r_fsent_level_texanims(const world_t *w, double t, r_fsworld_t *fw)
{
    const fstex_t *a = r_fsworld_texanims(fw);
    for (int i = 0; a && i < a->num_index; i++) {
        int e = FSW_TEXANIM_ENT0 + i;
        double secs = -1;   // no trigger has named it: the file's own state
        if (w && i < FSW_MAX_TEXANIM && world_entity_visible(w, e) && w->entities[e].cur.modelindex == FSW_MODEL_TRIG) {
            const entity_state_t *s = &w->entities[e].cur;
            if (a->polys[a->index[i]].running)   // going from the start: a Go changes nothing, a Stop holds
                secs = s->frame ? -1 : s->animtime;   // the frame it showed then (assumed: as demoplay runs it)
            else if (s->frame || s->framerate > 0)
                secs = s->framerate + (s->frame && t > s->animtime ? t - s->animtime : 0);
        }
        r_fsworld_set_texanim_clock(fw, i, secs);
    }
}

static void angles_from_dir(const float dir[3], float ang[3])
{
    ang[0] = (float)(asin(-(dir[1] < -1 ? -1 : dir[1] > 1 ? 1 : dir[1])) * 180 / M_PI);
    ang[1] = (float)(atan2(dir[0], dir[2]) * 180 / M_PI);
    ang[2] = 0;
}

int r_fsent_orbitals(const world_t *w, int num, const float org[3], double t, float out[][3], float up_out[][3])
{
    if (!w || num < 1 || num > FSW_SHIPS || !world_entity_visible(w, num))
        return 0;
    const entity_state_t *s = &w->entities[num].cur;
    int n = (int)(s->raw_effects & FSW_SHIP_MULTIPLES);
    n = n > FSE_MAX_ORBITS ? FSE_MAX_ORBITS : n;
    float fwd[3], right[3], up[3];
    r_fs_angle_vectors(s->angles, fwd, right, up);
    // the game turns each one's AxisRot 6 degrees a tick about the ship's forward axis, at
    // ORBIT_RADIUS from its centre in the ship's x-y plane; spread evenly (assumed)
    double base = fmod(t * FSE_TICKS * FSE_ORBIT_TURN, 360.0);
    for (int k = 0; k < n; k++) {
        double a = (base + 360.0 * k / n) * M_PI / 180.0;
        float sx = (float)sin(a), cy = (float)cos(a);
        for (int c = 0; c < 3; c++) {
            float u = sx * right[c] + cy * up[c];
            out[k][c] = org[c] + FSE_ORBIT_RADIUS * u;
            if (up_out)
                up_out[k][c] = u;
        }
    }
    return n;
}

int r_fsent_level_pickups(r_fsent_t *fe, const world_t *w, fspic_placed_t *out, int max)
{
    if (!fe || !w)
        return 0;
    load_bgo(fe, w);
    place_level_pickups(fe, w);
    int n = 0;
    for (int i = 0; i < fe->num_placed && n < max; i++)
        if (level_pickup_there(fe, w, i))
            out[n++] = fe->placed[i];
    return n;
}

// A pickup's model (level of detail 1 beyond 3072 units) at org, turning about the vertical
// (`phase`: its own start, so pickups side by side are not in step).
static int draw_pickup(r_fsent_t *fe, const r_view_t *v, int type, const float org[3], int phase, double t)
{
    if (type < 0 || type >= FSE_NUM_PICKUPS)
        return 0;
    float c[3], fwd[3], right[3], up[3];
    to_cam(v, org, c);
    int lod = r_fsent_lod(sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2])) > 0 && pickup_files[type][1] ? 1 : 0;
    const fse_model_t *md = model(fe, pickup_files[type][lod]);
    if (!md)
        md = model(fe, pickup_files[type][0]);
    if (!md)
        return 0;
    double turn = fmod(t * FSE_PICKUP_TURN + phase * 37.0, 360.0);
    float ang[3] = { 0, (float)turn, 0 };
    r_fs_angle_vectors(ang, fwd, right, up);
    return draw_model(fe, v, md, org, right, up, fwd, level_light(fe, org), NULL, NULL);
}

int r_fsent_draw(r_fsent_t *fe, const world_t *w, const r_view_t *v)
{
    if (!fe || !fe->on || !v->buffer || !v->zbuffer || !v->colormap)
        return 0;
    int drawn = 0;
    double t = v->time;
    float fwd[3], right[3], up[3];
    // the lights the level kept for this eye (drawn before the models): models take them
    fe->num_lights = fe->fw ? r_fsworld_lights(fe->fw, &fe->lights) : 0;
    // background objects (doors ...): their models where the game's rules put them at t
    load_bgo(fe, w);
    int nparts = r_fsbgo_parts(fe->bgo, w, t, fe->bgo_parts, FSE_MAX_BGO_PARTS);
    for (int i = 0; i < nparts; i++) {
        const r_fsbgo_part_t *p = &fe->bgo_parts[i];
        fse_model_t *md = model(fe, p->model);
        if (!md)
            continue;
        // an MXA moved by the object's morphs: between its frames as the game's InterpFrames
        if (md->pose)
            mx_pose(md->mx, p->frame, p->interp_frame, p->interp_time, md->pose);
        drawn += draw_model(fe, v, md, p->org, p->axes[0], p->axes[1], p->axes[2], level_light(fe, p->org), NULL, md->pose);
    }
    // the level's spot effects (its .FX: arena's fire wall)
    drawn += draw_spot(fe, w, v, t);
    // ships: every one but the pilot whose eyes these are (a camera elsewhere: the followed
    // pilot's, none in chase or free, r_camera.c)
    for (int p = 0; p < FSW_SHIPS; p++) {
        int num = p + 1;
        float org[3];
        int own = v->detached ? num == v->hide_entity : num == w->view.entity;
        if (own || !world_entity_visible(w, num) || !r_fsent_ship_origin(fe, num, t, org))
            continue;
        const entity_state_t *s = &w->entities[num].cur;
        float c[3];
        to_cam(v, org, c);
        float dist = sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        // stealthed (the mantle): the bike's "s" model, see-through, as the game swaps in its stealth set
        int stealth = (s->raw_effects & FSW_SHIP_STEALTH) && v->alphamap;
        char file[32], sfile[40];
        r_fsent_bike_file(s->skin, r_fsent_lod(dist), file, sizeof file);
        snprintf(sfile, sizeof sfile, "s%s", file);
        const fse_model_t *md = model(fe, stealth ? sfile : file);
        if (!md)
            md = model(fe, r_fsent_bike_file(s->skin, 0, file, sizeof file));
        if (!md)
            continue;
        r_fs_angle_vectors(s->angles, fwd, right, up);
        drawn += draw_model(fe, v, md, org, right, up, fwd, level_light(fe, org), stealth ? v->alphamap : NULL, NULL);
        // orbit pulsars: orb2.mx circling the ship (orb3.mx, the light model, while stealthed)
        float orb[FSE_MAX_ORBITS][3], orb_up[FSE_MAX_ORBITS][3];
        int no = r_fsent_orbitals(w, num, org, t, orb, orb_up);
        const fse_model_t *om = no ? model(fe, (s->raw_effects & FSW_SHIP_STEALTH) ? "orb3.mx" : "orb2.mx") : NULL;
        for (int k = 0; om && k < no; k++) {
            float ox[3] = { orb_up[k][1] * fwd[2] - orb_up[k][2] * fwd[1], orb_up[k][2] * fwd[0] - orb_up[k][0] * fwd[2],
                            orb_up[k][0] * fwd[1] - orb_up[k][1] * fwd[0] };   // x = up x dir
            drawn += draw_model(fe, v, om, orb[k], ox, orb_up[k], fwd, level_light(fe, orb[k]), NULL, NULL);
        }
    }
    // pickups: turning; one twinkling into life (InitOnePickup's Sparkle) is PIKGEN.OFF's 14
    // frames (FM_PICKUP_REGEN: a frame every 6 ticks; PICKUP_REGEN_SIZE 2 units a texel, R G B 192,
    // FM_FLAG_MOVEOUT) while its model stays hidden for its first 32 ticks (PICKUPMODE_Appear)
    for (int n = FSW_PICKUP_ENT0; n < w->num_entities; n++) {
        if (!world_entity_visible(w, n) || w->entities[n].cur.modelindex != FSW_MODEL_PICKUP)
            continue;
        const entity_state_t *s = &w->entities[n].cur;
        int type = s->skin;
        if (type < 0 || type >= FSE_NUM_PICKUPS)
            continue;
        double age = (t - r_fsent_pickup_appear(w, n)) * FSE_TICKS;
        if (age >= 0 && age < 1e6) {
            const fse_layout_t *lo = layout(fe, "pikgen.off");
            int f = (int)(age / 6);
            if (lo && f < lo->off->num_frames) {
                float p[3], l = 192.0f / 255;
                moveout(v, s->origin, p);
                drawn += draw_faceme(fe, v, lo, f, p, FSE_REGEN_SIZE, 0, (const float[3]){ l, l, l });
            }
            if (age < FSE_REGEN_HIDDEN)
                continue;
        }
        drawn += draw_pickup(fe, v, type, s->origin, n, t);
    }
    // the level's own pickups the host placed at its start, until a MSG_KILLPICKUP takes each
    place_level_pickups(fe, w);
    for (int i = 0; i < fe->num_placed; i++)
        if (level_pickup_there(fe, w, i))
            drawn += draw_pickup(fe, v, fe->placed[i].type, fe->placed[i].pos, FSW_LPICK_INFO + fe->placed[i].id, t);
    // invulnerable ships' bits, added after everything solid (the viewer's own: none, as the
    // game made them only for the ships other than the camera's)
    for (int p = 0; p < FSW_SHIPS; p++) {
        int num = p + 1;
        float org[3];
        int own = v->detached ? num == v->hide_entity : num == w->view.entity;
        if (!own && world_entity_visible(w, num) && (w->entities[num].cur.raw_effects & FSW_SHIP_INVUL) &&
            r_fsent_ship_origin(fe, num, t, org))
            drawn += draw_inv_bits(fe, v, num, org, t);
    }
    // dying ships' fire and damaged ships' smoke (DoDamagedEffects; r_fsfx.c works out the
    // sprites at t), added after everything solid; the viewer's own: none (the cockpit shows no bike)
    for (int p = 0; p < FSW_SHIPS; p++) {
        int num = p + 1;
        int own = v->detached ? num == v->hide_entity : num == w->view.entity;
        if (!own)
            drawn += draw_damage(fe, w, v, num, t);
    }
    // shots in flight, the primaries' impacts and the missiles' explosions where they ended, the
    // shields' flashes and bare ships' sparks where they met a ship, the transpulse's trail
    int viewed = v->detached ? v->hide_entity : w->view.entity;
    for (int i = 0; i < FSE_MAX_SHOTS; i++) {
        const fse_shot_t *sh = &fe->shots[i];
        float p[3];
        if (sh->active && !sh->secondary && sh->weapon == FSW_TRANSPULSE)
            drawn += draw_trans_trail(fe, v, sh, t);
        if (sh->active && !sh->secondary && sh->hit && t >= sh->t_end)
            drawn += draw_impact(fe, v, sh, (float)((t - sh->t_end) * FSE_TICKS));
        // the walls it bounced off on the way (the transpulse's CreateArcExplosion there too; the
        // pyrolite makes nothing), each with its own sparks
        for (int b = 0; sh->active && !sh->secondary && sh->weapon == FSW_TRANSPULSE && b < sh->legs; b++) {
            if (t < sh->bounce_t[b] || sh->bounce_t[b] > sh->t_end)
                continue;
            fse_shot_t at = *sh;
            memcpy(at.end, sh->bounce_at[b], sizeof at.end);
            memcpy(at.normal, sh->bounce_normal[b], sizeof at.normal);
            at.id ^= (b + 1) << 16;   // its sparks apart from the last wall's
            drawn += draw_impact(fe, v, &at, (float)((t - sh->bounce_t[b]) * FSE_TICKS));
        }
        if (sh->active && sh->secondary && sh->hit && t >= sh->t_end)
            drawn += draw_explosion(fe, v, sh, t);
        // DestroySecondary's CreateGravgonField where a gravgon met its wall or a ship (not one that
        // MSG_EXPSECONDARY ended: ExplodeSecondary makes none)
        if (sh->active && sh->secondary && sh->weapon == FSW_GRAVGON && sh->hit && !(sh->shock > 0) && t >= sh->t_end)
            drawn += draw_gravgon_field(fe, v, sh->end, (float)((t - sh->t_end) * FSE_TICKS));
        if (sh->active && sh->secondary && sh->speed > 0)
            drawn += draw_missile_trail(fe, v, sh, t);
        if (sh->active && sh->secondary && sh->weapon == FSW_SCATTER)
            drawn += draw_scatter_trail(fe, v, sh, t);
        if (sh->active && sh->ship && t >= sh->t_end && sh->ship != viewed)
            drawn += sh->bare ? draw_col_sparks(fe, v, sh, t) : draw_shield_hit(fe, v, sh, t);
        if (!shot_at(sh, t, p))
            continue;
        if (sh->secondary) {
            const fse_model_t *md = model(fe, secondary_files[sh->weapon]);
            float ang[3], dir[3];
            memcpy(dir, sh->dir, sizeof dir);
            if (sh->hm)
                homing_at(sh, t, p, dir);   // nose along its path
            if (is_mine(sh->weapon)) {
                mine_axes(sh, t, right, up, fwd);
            } else {
                angles_from_dir(dir, ang);
                r_fs_angle_vectors(ang, fwd, right, up);
            }
            if (md)
                drawn += draw_model(fe, v, md, p, right, up, fwd, level_light(fe, p), NULL, NULL);
            const fse_layout_t *flare;
            if (sh->weapon == FSW_SCATTER && (flare = layout(fe, "flare.off"))) {
                // its FmPoly (FM_ZERO: frame 0, still), moved with it 47.5 units behind
                static const float blue[3] = { 64 / 255.0f, 64 / 255.0f, 1 };
                float c[3];
                for (int k = 0; k < 3; k++)
                    c[k] = p[k] - dir[k] * FSE_SCATTER_BACK;
                int d = draw_faceme(fe, v, flare, 0, c, FSE_SCATTER_FLARE, 0, blue);
                drawn += d > 0 ? d : 0;
            }
            continue;
        }
        int sprite = sh->weapon == FSW_LASER ? draw_laser(fe, v, sh, t, sh->owner + 1 == viewed)
                                             : draw_primary(fe, v, sh, p, t);
        drawn += sprite > 0 ? sprite : 0;
        if (sprite < 0 && !(sh->weapon == FSW_LASER && !sh->hit)) {   // its files did not load
            const fse_primary_t *pw = &primaries[sh->weapon];
            const uint8_t *rgb = pw->rgb[sh->power];
            int outer = pal_nearest(fe->palette, 256, rgb[0], rgb[1], rgb[2]);
            int inner = pal_nearest(fe->palette, 256, (rgb[0] + 255) / 2, (rgb[1] + 255) / 2, (rgb[2] + 255) / 2);
            draw_glow(v, p, pw->radius * (sh->weapon == FSW_TROJAX ? 1 + sh->power * 0.5f : 1), inner, outer);
        }
    }
    // explosions: CreateShockwave's (MSG_SHOCKWAVE; a dying ship's own blast is one of them)
    for (int i = 0; i < FSE_MAX_BLASTS; i++) {
        const fse_blast_t *b = &fe->blasts[i];
        if (b->active && t >= b->t0)
            drawn += draw_shockwave(fe, v, b->org, b->seed, 0, (float)((t - b->t0) * FSE_TICKS), b->shock);
    }
    return drawn;
}
