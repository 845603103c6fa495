// r_fsent.h -- Forsaken's ships, pickups, weapon shots and explosions, by the game's own tables
//
//     r_fsent_t *fe = r_fsent_create();
//     r_fsent_load(fe, &files, palette, level_mesh);   // at a new level (models load when first seen)
//     r_fsent_frame(fe, w);                            // every decoded frame: updates, shots, blasts
//     r_fsent_draw(fe, w, &view);                      // every drawn frame, after the level
//     r_fsent_destroy(fe);
//
// Ships are each player's bike (the skin = the bike number, through the game's bike
// table) at one of five levels of detail chosen by distance as the game did, oriented by
// the entity's angles (quaternion and bank), moved on from their last update by the
// velocity of the last two, lit by the level's baked light around them. Pickups are the
// game's pickup models, turning (twinkling into life when dropped so). Shots fly from the muzzle along the
// message's direction at the weapon's speed until the first level wall, primaries drawn
// with the game's sprites (Data/Offsets/*.OFF frames on the Data/Textures pages, added to
// the scene), the pulsar's trail, the transpulse's sparks and the laser's beam, and where a
// primary meets its wall the game's impact sprite (PULS_EXP, TROJ_EXP, SHRAPNEL ...);
// explosions are the game's 16-frame BIGEXP1 animation sized by the message. Everything lives in fixed
// pools; models and textures are loaded the first time they are needed, then kept.
#ifndef R_FSENT_H
#define R_FSENT_H

#include "../assets/asset.h"
#include "../assets/fspic.h"
#include "../assets/mxv.h"
#include "../engine/world.h"
#include "r_fsworld.h"
#include "r_view.h"
#include "render.h"

typedef struct r_fsent_s r_fsent_t;

r_fsent_t *r_fsent_create(void);
void r_fsent_destroy(r_fsent_t *fe);
// A new level: forget models, shots and tracks; `files` finds Data's models/ and textures/
// (it must stay valid until the next load); `palette` is the level's (768 bytes, copied);
// `level` (kept, not copied) lights the ships and stops the shots; NULL: no light, no walls.
void r_fsent_load(r_fsent_t *fe, const asset_files_t *files, const uint8_t *palette, const mxv_t *level);
// Forget shots, explosions and the ships' update history (a seek).
void r_fsent_clear(r_fsent_t *fe);
// Once per decoded frame.
void r_fsent_frame(r_fsent_t *fe, const world_t *w);
// The view the frames are drawn from (the renderer's camera: a followed pilot's), which the next
// r_fsent_frame hears its sounds from (their loudness); NULL: the recording pilot's (w->view).
// Valid for that call.
void r_fsent_set_view(r_fsent_t *fe, const world_view_t *view);
// Distance along the unit `dir` from `org` to the level's first triangle (either side), or `max`
// (no level loaded: max). The chase camera's trace (r_camera.c through r_mesh_wall).
float r_fsent_first_wall(const r_fsent_t *fe, const float org[3], const float dir[3], float max);
// Where the game's loudness is heard from in the next r_fsent_frame (Ships[Current_Camera_View]):
// the picture's camera's eye when it is not the eyes (chase, a path, a free camera, a followed
// pilot); it goes before r_fsent_set_view's view. NULL: that view.
void r_fsent_hear_from(r_fsent_t *fe, const float eye[3]);
// The game's moving lights at time t (shots, their dying lights, explosions, headlights,
// pickups) into out (at most max); returns how many. w may be NULL (no ships or pickups).
int r_fsent_lights(const r_fsent_t *fe, const world_t *w, double t, r_fslight_t *out, int max);
// The same handed to the level (r_fsworld_set_lights) from a fixed pool: before r_fsworld_draw.
void r_fsent_light_level(r_fsent_t *fe, const world_t *w, double t, r_fsworld_t *fw);
// The level's texture animations the triggers started or stopped (the decoder's markers,
// engine/world_fs.h FSW_TEXANIM_ENT0) handed to the level at time t: before r_fsworld_draw.
void r_fsent_level_texanims(const world_t *w, double t, r_fsworld_t *fw);
// Draw at v->time (z-tested against the level). Returns the triangles drawn.
int r_fsent_draw(r_fsent_t *fe, const world_t *w, const r_view_t *v);
// on = 0: the level's spot effects (r_fsspot.c) are not drawn. Default on.
void r_fsent_set_spotfx(r_fsent_t *fe, int on);

// ---- the game's tables, for tests ----
// The model file of bike `bike` at level of detail `lod` (0 = nearest, "borg400.mxa" .. 4 "borg050.mxa").
const char *r_fsent_bike_file(int bike, int lod, char *buf, size_t cap);
// The level of detail the game draws at `distance` units (0..4).
int r_fsent_lod(float distance);
// Where entity `num` (a ship) is drawn at time t (its last update moved on by its velocity);
// 0 when it is not known.
int r_fsent_ship_origin(const r_fsent_t *fe, int num, double t, float out[3]);
// When pickup entity `n` began twinkling into life (its message asked for the sparkle: the world
// time it was put where it is, carried in the world state), -1e30 when it does not twinkle.
double r_fsent_pickup_appear(const world_t *w, int n);
// The orbit pulsars of ship entity `num` drawn at `org` at time t: their centres (and their up
// vectors, the way out from the ship) into out[0..8); returns how many (the flags' bits 0-3).
int r_fsent_orbitals(const world_t *w, int num, const float org[3], double t, float out[][3], float up_out[][3]);
// The level's own pickups (its .PIC) that the host placed at the level's start and that no
// MSG_KILLPICKUP has taken by the world's latest frame, in slot order, into out (at most max);
// returns how many (0 in a joiner's recording, with random pickups, or with no .PIC).
int r_fsent_level_pickups(r_fsent_t *fe, const world_t *w, fspic_placed_t *out, int max);
// Shots in flight at time t, and where the first of them is.
int r_fsent_shots(const r_fsent_t *fe, double t, float first[3]);
// Mines there at time t (laid, not gone off), and the first one's direction and up as drawn.
int r_fsent_mines(const r_fsent_t *fe, double t, float dir[3], float up[3]);
// Lasers drawn at time t (their beam there), and where the first one's beam ends.
int r_fsent_lasers(const r_fsent_t *fe, double t, float end[3]);
// The sounds the last r_fsent_frame decided (DestroySecondary's for a mine a ship set off:
// r_fsfx_mine_sound), at most max; returns how many.
int r_fsent_sounds(const r_fsent_t *fe, r_sound_t *out, int max);
// The lasting loops the last r_fsent_frame wants (r_loops; docs/forsaken.md "Spot effects"), at most max.
int r_fsent_loops(const r_fsent_t *fe, r_loop_t *out, int max);

#endif
