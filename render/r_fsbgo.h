// r_fsbgo.h -- Forsaken's background objects (doors, moving parts) by the game's rules
//
//     r_fsbgo_t *b = r_fsbgo_load(&files, "ship");        // levels/ship/ship.bgo and its .COBs
//     n = r_fsbgo_parts(b, w, t, parts, max);             // every model of every object at time t
//     r_fsbgo_free(b);
//
// The level's .BGO lists the objects (assets/cob.h); each is a .COB in the level's
// bgobjects folder whose components are models from Data/Models. Where each is at
// time t follows from the world alone: the object's last MSG_BGOUPDATE (entity
// FSW_BGO_ENT0 + index: state, animation time, message time) moved on by the game's
// state machine (a door opens to its mid time, stays open three seconds, closes to its
// overall time), or the state the level starts it in. No allocation after loading.
#ifndef R_FSBGO_H
#define R_FSBGO_H

#include "../assets/asset.h"
#include "../assets/cob.h"
#include "../engine/world.h"

typedef struct r_fsbgo_s r_fsbgo_t;

typedef struct {
    const char *model;           // file in Data/Models
    float org[3];
    float axes[3][3];            // the model's x, y, z in the level
    int object;                  // index in the .BGO list
    int frame, interp_frame;     // its MXA frames (cob_morph): drawn between them at interp_time
    float interp_time;
} r_fsbgo_part_t;

// NULL when the level has no .BGO (every level of the released data), or it does not load
// (a warning with its offset); objects whose .COB does not load are left out, warned.
r_fsbgo_t *r_fsbgo_load(const asset_files_t *files, const char *level);
void r_fsbgo_free(r_fsbgo_t *b);
int r_fsbgo_count(const r_fsbgo_t *b);
const bgo_entry_t *r_fsbgo_entry(const r_fsbgo_t *b, int i);
const cob_t *r_fsbgo_cob(const r_fsbgo_t *b, int i);   // NULL: not loaded

// Object i's animation time (60ths of its .COB) at world time t.
float r_fsbgo_time(const r_fsbgo_t *b, const world_t *w, int i, double t);
// The game's door: last set to `state` at animation time t0, `ticks` game ticks (71 a second) ago.
float r_fsbgo_door_time(int state, float t0, float ticks, float mid, float overall);
// The models to draw at time t (at most max); returns how many.
int r_fsbgo_parts(const r_fsbgo_t *b, const world_t *w, double t, r_fsbgo_part_t *out, int max);

#endif
