// playback.h -- the playback clock's engine: a player that decodes ahead, feeds renderer and sound, and seeks
//
//     player_t *p = player_create(&demo, cli, renderer, snd);   // renderer / snd may be NULL
//     player_scan(p);                       // optional: decode to the end once (length, snapshots)
//     player_seek(p, player_start(p));
//     for (;;) {
//         player_advance(p, t);             // decode until the latest frame is at or after t
//         r_render(r, demo.world, player_demo_time(p, t));
//     }
//
// Times. The player's time ("playback time", pt) is the demo's own time
// (world->time) with one correction: where the demo's clock jumps backwards
// (a new level restarts the server clock), the later part is shifted so that
// playback time never decreases. For a one-level demo, playback time is exactly
// world->time; every user-facing time (--start, --from, --to, seeking) is one.
// player_demo_time() converts back for r_render.
//
// Every decoded frame goes, in order: level change -> r_load_level + snd_load_level,
// then r_frame(renderer, world), then snd_frame(snd, world). Frames replayed
// silently during a seek skip snd_frame (their sounds are in the past).
//
// Snapshots: while reading, every `interval` seconds of playback time the
// player copies the decoder state (dec->state_size bytes) and world_clone(world).
// A seek restores the latest snapshot that lies at least `warmup` seconds before
// the target (so particles and lights of the last seconds are rebuilt by r_frame),
// then reads forward. Memory is bounded: when the snapshots exceed the budget,
// every other one is dropped and the interval doubles.
#ifndef PLAYBACK_H
#define PLAYBACK_H

#include <stddef.h>
#include <stdint.h>

#include "../audio/snd.h"
#include "../render/render.h"
#include "cli.h"
#include "demo.h"

typedef struct player_s player_t;

typedef struct {
    double interval;        // seconds of playback time between snapshots (default 3; 0 = no snapshots)
    double warmup;          // seconds replayed before a seek target (default 3)
    size_t budget;          // bytes of snapshots at most (default 256 MiB)
} player_opts_t;

typedef struct {
    int count;              // snapshots held
    size_t bytes;           // their memory
    double interval;        // current interval (grows when the budget is hit)
    long long frames;       // frames decoded so far (all passes)
    double load_seconds;    // wall time spent loading levels (renderer + sound)
    double last_seek_ms;    // wall time of the latest seek
    double max_seek_ms;
} player_stats_t;

// The player drives d (already opened with demo_open) and keeps it. cli gives
// --basedir/--game for the game data (NULL: no game data). r and snd may be NULL.
// opts may be NULL for the defaults. NULL when out of memory.
player_t *player_create(demo_t *d, const cli_t *cli, renderer_t *r, snd_t *snd, const player_opts_t *opts);
void player_destroy(player_t *p);

// Decode one server frame. 1 = a frame, 0 = end of demo (or an error: see player_error), -1 = out of memory.
int player_step(player_t *p);
// Decode until the latest frame's playback time is >= t (or the end). 1 reached, 0 end first.
int player_advance(player_t *p, double t);
// Make the state exactly what player_advance(t) from the start gives. 0 ok, -1 out of memory.
int player_seek(player_t *p, double t);
// Decode the whole demo once, quickly (no renderer, no sound), to learn its
// length and fill the snapshots; then return to the start. 0 ok, -1 out of memory.
int player_scan(player_t *p);

// Playback time of the latest decoded frame (-1e300 before the first) and of the one before it.
double player_time(const player_t *p);
double player_prev_time(const player_t *p);
// The world time to hand to r_render for playback time t.
double player_demo_time(const player_t *p, double t);
// First / last frame's playback time; the last is known after player_scan or at the end.
double player_start(const player_t *p);
double player_end(const player_t *p);
int player_length_known(const player_t *p);
// Index of the latest decoded frame (1 = the first frame; 0 = none yet).
long long player_frame(const player_t *p);
// Server frames the decoder has decoded so far (demo_info_t.drawn_frames; at the end
// it equals `info`'s frames). It grows by one at each player_step that
// decoded a server frame rather than, say, a sign-on block.
long long player_info_frames(const player_t *p);
// Total number of frames (after player_scan or the end), else -1.
long long player_frames(const player_t *p);
int player_ended(const player_t *p);
// Playback times at which a level began, in order (the first level's is its first frame),
// as far as decoded: all of them after player_scan. Returns the count (at most PLAYER_MAX_LEVELS).
#define PLAYER_MAX_LEVELS 64
int player_levels(const player_t *p, const double **times);
// The decoder's error message when decoding stopped on bad bytes, else NULL.
const char *player_error(const player_t *p);
// Called for every frame played (not for frames a seek or scan skips), after
// the level check and before r_frame / snd_frame: export renders the sound up
// to the frame's time there, so each frame's sounds start at their own time.
void player_set_frame_hook(player_t *p, void (*fn)(void *ctx, player_t *p), void *ctx);
void player_get_stats(const player_t *p, player_stats_t *st);
// Listener position for the sound system: the view at the latest frame.
void player_view(const player_t *p, vec3_t origin, vec3_t angles);
// The same view as the sound system's listener: its origin and forward and up in the world's own
// axes (each game's angle rule: engine/angles.h world_angle_vectors).
void player_listener(const player_t *p, snd_t *snd);
// The same at demo time t between the world's last two frames, blended as the picture blends the
// eyes (render/r_main.c view_pose, without its bob, roll, kick or step smoothing): the eye from the
// previous frame's to this one's (the view's origin, or the view entity's plus the view offset; an
// entity that teleported is not blended), the angles the short way round; t is held within
// world->prev_time .. world->time. At world->time it is player_view / player_listener's pose.
void player_view_at(const player_t *p, double t, vec3_t origin, vec3_t angles);
void player_listener_at(const player_t *p, snd_t *snd, double t);

#endif
