// fstex.h -- Forsaken level texture animations: the tail of a level's .MXV
//
//     char err[256];
//     fstex_t *a = fstex_load(bytes, size, "therm.mxv", mesh, err, sizeof err);   // mesh: mxv_load's
//     ... a->polys[i]: the vertices (into mesh->verts) whose texture coordinates it animates ...
//     int f = fstex_frame(a, i, t);          // the frame poly i shows at t seconds (seek == play)
//     const float *uv = fstex_uv(a, i, f);   // its vertices' (u, v) in that frame
//     fstex_free(a);
//
// After the portal section a level's .MXV carries (the game's Mload.c, docs/forsaken.md
// "Texture animations"): the group connection tables, the sound distances, the light cells,
// the start points and the groups' up vectors, then u16 animation count; per animation u16
// frames, u16 max loops, u16 size and `size` u16 of its script (frame numbers and commands);
// when the count is not 0, per group and buffer a u16 count of animated polygons, each u16
// animation, u16 frames, u16 vertices, that many u16 vertex numbers (in its buffer) and
// frames x vertices (f32 u, v); then u16 colour flag (per group a u32 background colour when
// set); then u16 flag and, when set, u16 count and per entry u16 group, buffer, polygon, initial
// state (0 stopped, 1 running) and s16 trigger mod at its end: the list the triggers' events 8
// and 9 (start / stop texture animation N) index.
//
// A script is played as the game's HandleAnimCommands: 0x8001 d sets the frames' duration to
// d x 0.06 game ticks (71 a second), 0x8002 d the next frame's only, 0x8003 k n sets loop
// counter k to n (0xffff: for ever), 0x8004 k o goes back to offset o while counter k has
// not run out, 0xffff ends (the last frame stays), 0x8000 and other commands do nothing, a
// number below 0x8000 is a frame shown for its duration. fstex_load plays each script once
// to a timeline (a lead-in and a cycle that repeats), so the frame at any time is a lookup.
#ifndef FSTEX_H
#define FSTEX_H

#include <stddef.h>
#include <stdint.h>

#include "mxv.h"

#define FSTEX_MAX_ANIMS 128        // MAXANIMSEQS
#define FSTEX_MAX_POLYS_PER_BUFFER 64   // MAXPOLYANIMSPEREXECBUF
#define FSTEX_MAX_LOOPS 8          // MAXANIMLOOPSTACK
#define FSTEX_MAX_STEPS 1024       // frames of a script played before it must end or repeat (ours)
#define FSTEX_MAX_FRAMES 256       // frames of one polygon (ours)
#define FSTEX_UNITS_PER_SECOND (71.0 / 0.06)   // a script's duration unit: 0.06 game ticks

typedef struct {
    uint16_t frame;
    uint16_t units;                // how long it shows (FSTEX_UNITS_PER_SECOND a second)
} fstex_step_t;

typedef struct {
    int frames, max_loops;         // as stored
    int first_step, num_steps;     // into steps: the script played out
    int cycle_from;                // the first step of the part that repeats (num_steps: none, it ends)
    int64_t lead_units, cycle_units;   // lengths of steps [0, cycle_from) and [cycle_from, num_steps)
} fstex_anim_t;

typedef struct {
    int group, buffer;             // the group, and the buffer within it, as stored
    int anim;                      // into anims
    int frames, num_verts;
    int first_vert;                // into vert (mesh vertex numbers)
    size_t first_uv;               // into uv: frames x num_verts (u, v)
    int running;                   // 0: stopped (the index list's initial state 0): frame 0 always
    int stop_mod;                  // the trigger mod run when its script ends (-1: none)
} fstex_poly_t;

typedef struct fstex_s {
    int num_anims, num_polys, num_steps, num_index;
    fstex_anim_t *anims;
    fstex_poly_t *polys;
    fstex_step_t *steps;
    int *vert;                     // mesh vertex numbers
    float *uv;
    int *index;                    // the triggers' list: entry -> polys
    int num_colours;               // the background colour flag
    size_t start;                  // where the animation count is (after the skipped sections)
    size_t end;                    // where the walk ended (the file's size on every level of the data)
} fstex_t;

// Walk the .MXV's tail after m's portal section (m: mxv_load of the same bytes). NULL with
// "NAME: offset N: expected ..." in err on bad input (or when m's portal section was refused).
fstex_t *fstex_load(const uint8_t *data, size_t size, const char *name, const mxv_t *m, char *err, size_t errcap);
void fstex_free(fstex_t *a);
// The frame polygon i shows at t seconds since the demo's start (the level's start is not in a
// recording: the scripts run from 0 at the demo's first moment), its script's steps looked up.
int fstex_frame(const fstex_t *a, int i, double t);
// Frame f's (u, v) for polygon i's vertices (num_verts pairs).
const float *fstex_uv(const fstex_t *a, int i, int f);
// A script's frame at `units` of its own time (tests).
int fstex_anim_frame(const fstex_t *a, int anim, int64_t units);

#endif
