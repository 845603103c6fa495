// render.h -- the renderer's public contract: world state in, one 8-bit frame out
//
//     renderer_t *r = r_create(320, 200);
//     r_load_level(r, fs, world, err, sizeof err);   // when world->level_seq changed
//     r_frame(r, world);                              // after every decoded frame
//     r_render(r, world, t);                          // t between world->prev_time and world->time
//     r_write_png(r, "shot.png");  or  r_frame_rgb(r, rgb)  or r_pixels(...)
//
// The renderer never parses demo bytes; it reads the world (engine/world.h)
// and game data through the VFS. Everything draws into one 8-bit indexed
// framebuffer; palette to RGB happens once, when a frame leaves the renderer.
// Missing data never crashes: a missing model draws as a small box, a missing
// map gives r_load_level() < 0 with a message, and r_render then draws what it can.
#ifndef RENDER_H
#define RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/vfs.h"
#include "../engine/world.h"

typedef struct renderer_s renderer_t;

renderer_t *r_create(int width, int height);
void r_destroy(renderer_t *r);
// on: the level loads and frames of r warn nothing (their errors are still said), for a
// renderer that follows the demo beside the one that draws (export's sound player's), which
// would repeat its warnings
void r_set_quiet(renderer_t *r, int on);
int r_quiet(const renderer_t *r);
// Load palette, colormap, the level and its models for the world's current
// level. Returns 0, or -1 with a message in err (the map is missing or bad);
// what could be loaded is kept and drawn.
int r_load_level(renderer_t *r, vfs_t *fs, const world_t *w, char *err, size_t errcap);
// Call after EVERY decoded server frame: takes the frame's events (particles,
// temp entities, dynamic lights, prints), which live in the world for one frame only.
void r_frame(renderer_t *r, const world_t *w);
// A sound a game's own rules decided in the last r_frame where no message carries it as a sound
// (Forsaken: weapons fired, explosions, ship deaths, mines set off by ships; docs/forsaken.md
// "Sounds"): its file under the game's sound folder ("exp4.wav"), where it plays and its volume
// (1 full: the game's VolModify).
typedef struct {
    const char *name;
    float origin[3];
    float volume;
    float attenuation;   // Quake's units: 1 normal; 0 none (the game's own loudness is in volume)
} r_sound_t;
// The sounds the last r_frame decided (at most max); the player plays them unless it is seeking. The
// names stay valid until the next r_frame or r_load_level (a variant's, a level's: the renderer's own).
int r_sounds(const renderer_t *r, r_sound_t *out, int max);
// A lasting looping sound a game's own rules keep going at the last r_frame (Forsaken: the level's
// placed sounds, the fire wall's), keyed by a stable id: the player asks for the list after each
// decoded frame (and after a seek) and the sound system starts the new ones where they would be
// since `start` (world time), moves and re-levels the others, and stops those gone (snd_loops).
typedef struct {
    uint32_t id;
    const char *name;
    float origin[3];
    float volume;
    float attenuation;   // as r_sound_t's
    uint8_t centred;     // heard in both ears alike
    double start;
} r_loop_t;
int r_loops(const renderer_t *r, r_loop_t *out, int max);
// Whether a renderer decides sounds for demos of this game (r_sounds): a player that makes only a
// sound track (export's) then gives itself a renderer that takes the frames and draws nothing.
int r_game_sounds(world_game_t game);
// Draw the view at demo time t (interpolating between the world's last two frames).
void r_render(renderer_t *r, const world_t *w, double t);
// Draw each frame's 3D view in n screen bands, one a thread (the caller's and n - 1 workers),
// byte-identical to one band (docs/renderer.md, "Screen bands"). Call before r_load_level:
// every band has a renderer of its own (level, surface cache, effects), fed by r_load_level,
// r_frame, r_clear_transients and r_set_camera through this one. Returns the bands made
// (1 when n <= 1, out of memory, or a build without threads: then the bands are drawn in turn).
int r_set_threads(renderer_t *r, int n);
// Forget transient effects (particles, dlights, console lines): after a seek.
// from_start: the world is back before its first frame, so the frames that
// follow are drawn exactly as by a new renderer (level banner, pickup flashes);
// otherwise the HUD takes the state it finds without flashes.
void r_clear_transients(renderer_t *r, int from_start);
// on = 0: the frame shows no notify, chat or centre-print lines (--notify off). Default on.
void r_set_notify(renderer_t *r, int on);
// on = 1: the game's score table is drawn over the view (Forsaken: names, kills, deaths, team
// scores; the window holds it on a key, as the game's Tab). Games without one ignore it. Default off.
void r_show_scores(renderer_t *r, int on);
// on = 0: Forsaken's level spot effects (its .FX: arena's fire wall) are not drawn. Default on.
void r_set_fs_spotfx(renderer_t *r, int on);
// The 8-bit frame and the palette (768 bytes, RGB) it is shown with, blends applied.
const uint8_t *r_pixels(const renderer_t *r, int *width, int *height, int *pitch);
const uint8_t *r_palette(const renderer_t *r);
// Convert the frame to packed RGB (width*height*3 bytes).
void r_frame_rgb(const renderer_t *r, uint8_t *rgb);
int r_write_png(const renderer_t *r, const char *path);
// ---- cameras (docs/cameras.md) ----------------------------------------------------------
// Where the view is drawn from. R_CAM_EYES is the recording player's view (the default).
// The others detach the camera: no view weapon, no status bar, and the recording player's
// own model is drawn (the followed player's is not, in R_CAM_FOLLOW).
typedef enum { R_CAM_EYES, R_CAM_FREE, R_CAM_CHASE, R_CAM_FOLLOW, R_CAM_PATH } r_cam_mode_t;

typedef struct {
    double t;                  // demo time
    float origin[3], angles[3];
    float fov;                 // horizontal at 4:3; 0 = the demo's
} r_cam_key_t;

#define R_CAM_MAX_KEYS 256

typedef struct {
    r_cam_mode_t mode;
    int player;                // FOLLOW / CHASE: a player slot (0-based); -1: the recording player
    char player_name[64];      // FOLLOW / CHASE by name (matched each frame; "" = by slot)
    float origin[3], angles[3];// FREE: the camera (pose_set 0: it starts at the view of the frame)
    int pose_set;
    float fov;                 // FREE: 0 = the demo's
    int smooth;                // CHASE: follow with a lag from frame to frame (play); 0: each frame
                               //   placed from its own time alone (shot, export: any frame order)
    int num_keys;              // PATH: the keyframes, times increasing
    r_cam_key_t keys[R_CAM_MAX_KEYS];
} r_camera_t;

// NULL or R_CAM_EYES: the recording player's eyes. The renderer keeps its own copy.
void r_set_camera(renderer_t *r, const r_camera_t *cam);
// The view last drawn: origin, angles, fov; for FREE the pose the camera holds (its start
// is filled in at the first frame); the player slot followed (-1 the recording player).
typedef struct {
    float origin[3], angles[3], fov;
    int player;                // the player slot whose eyes or back the view is (-1 recording player)
    int recorder;              // follow/chase named the recording player, who is in the frame: the eyes are theirs
    int contents;              // the level's contents at the eye (BSP_CONTENTS_*; 0 no level)
} r_cam_state_t;
void r_camera_state(const renderer_t *r, r_cam_state_t *out);
// Where the camera is at demo time t (between world->prev_time and world->time), without drawing:
// the eye r_render would draw from (origin) and its forward and up, in the world's own axes (each
// game's angle rule), for the camera set (follow, chase and paths at t; the free camera where it
// is). Nothing the next r_render draws changes (a free camera not yet placed takes its start, as a
// drawn frame would); a lagging chase camera (play) asked at the time last drawn is where it was
// drawn. The sound's listener (docs/audio.md "The listener"). `body` (may be NULL): the entity whose
// eyes the view is (a followed player's; -1 the recording player's view; 0 none: chase, free, a
// path). 0, or -1 without a renderer or world.
int r_camera_pose(renderer_t *r, const world_t *w, double t, float origin[3], float forward[3], float up[3],
                  int *body);
// World polygons drawn by the last r_render (Quake / Quake II / GoldSrc surfaces, or
// Forsaken level triangles, after visibility and back-face culling).
int r_world_polys(const renderer_t *r);
// How long the level's blend tables took to build (GoldSrc render modes), in ms; -1 none.
double r_level_tables_ms(const renderer_t *r);

#endif
