// cob.h -- Forsaken's componented objects (.COB) and a level's background object list (.BGO)
//
// A .COB is a tree of components, each optionally one model (.MX/.MXA, named in the
// file's model list) moved over time by a list of transforms (translate, rotate about
// an axis through a point, morph frame, property); a level's .BGO lists the objects
// placed in it (doors, moving parts): their .COB, type, group, position and
// orientation, and the type's own fields. Layouts from the game's loaders (facts in
// docs/forsaken.md, "Background objects").
//
//     cob_t *c = cob_load(bytes, size, "door.cob", err, sizeof err);
//     cob_pose(c, anim_time, pos, axes, out_pos, out_axes);   // every component placed
//     cob_free(c);
//     bgo_list_t l; bgo_load(bytes, size, "ship.bgo", &l, err, sizeof err); ... bgo_free(&l);
//
// Every count is checked against the bytes left before anything is read or
// allocated; errors are "offset N: expected ...".
#ifndef COB_H
#define COB_H

#include <stddef.h>
#include <stdint.h>

#define COB_NAME_LEN 64
#define COB_MAX_MODELS 64
#define COB_MAX_COMPS 256
#define COB_MAX_TRANS 4096
#define COB_MAX_DEPTH 32
#define COB_ANIM_SECOND 60.0f    // ANIM_SECOND: the file's seconds become 60ths

enum { COB_TRANSLATE, COB_ROTATE, COB_MORPH, COB_PROPERTY };

typedef struct {
    int type;                    // COB_*
    float start, duration;       // 60ths of a second
    float v[3];                  // translate: the offset; rotate: the axis
    float origin[3];             // rotate: the point turned about, negated as the game keeps it
    float angle;                 // rotate: radians
    int local;                   // rotate: the axis turns with the transforms before it
    int prop_type, prop_value;   // property: type (0 state, 1 sound, -1 unknown) and value
    int frame;                   // morph: the model frame it moves to (the component's morphs numbered 1, 2, ...)
} cob_trans_t;

typedef struct {
    int model;                   // index into model_names, -1 none
    int parent;                  // index of the parent component, -1 the top (components are in pre-order)
    int depth;
    int first_trans, num_trans;
    int num_zones;               // collision zones (read, not kept)
} cob_comp_t;

typedef struct {
    int num_models;
    char model_names[COB_MAX_MODELS][COB_NAME_LEN];
    int num_comps;
    cob_comp_t *comps;
    int num_trans;
    cob_trans_t *trans;
    int num_zones;
    float overall_time;          // the last transform's end, 60ths of a second (the game's OverallTime)
    float mid_time;              // the "open" state property's start, else half the overall time (MidTime)
    size_t end;                  // bytes read (the files may carry a trailing byte)
} cob_t;

cob_t *cob_load(const uint8_t *d, size_t n, const char *name, char *err, size_t cap);
void cob_free(cob_t *c);

// Every component at animation time `time` (60ths), the object at `pos` with axes `axes`
// (axes[0..2]: the world directions of the object's x, y, z). out_pos[i] / out_axes[i]
// place component i's model the same way. Arrays of c->num_comps.
void cob_pose(const cob_t *c, float time, const float pos[3], const float axes[3][3], float (*out_pos)[3],
              float (*out_axes)[3][3]);

// Component `comp`'s model frames at animation time `time` (the game's UpdateCompObjChildren):
// from 0, every morph begun sets the frame it is under way to (interp_frame, interp_time its
// share 0..1) or, once done, the frame (frame); the model is drawn between frame and
// interp_frame at interp_time (mx_pose).
void cob_morph(const cob_t *c, int comp, float time, int *frame, int *interp_frame, float *interp_time);

// ---- the level's list (.BGO) ----
enum { BGO_STATIC, BGO_DOOR, BGO_LOOPING, BGO_MULTISTEP, BGO_ONEOFF, BGO_SEQUENCES };
enum { BGO_GEN_IMMEDIATE, BGO_GEN_AFTERTIME, BGO_GEN_TRIGGERED };

typedef struct {
    char cob[COB_NAME_LEN];      // file in the level's bgobjects folder
    int type, group;
    float pos[3], dir[3], up[3];
    int open_event, close_event, shot_event, bump_event, end_event;
    int32_t pickup_needed;
    int opened_by, locked, sfx_type, gen_type, destroy_at_end, num_intervals;
    float delay;                 // seconds
    float damage_per_interval;
} bgo_entry_t;

typedef struct {
    int num;
    bgo_entry_t *e;
} bgo_list_t;

#define BGO_MAX 256              // MAXBGOBJECTS

int bgo_load(const uint8_t *d, size_t n, const char *name, bgo_list_t *out, char *err, size_t cap);
void bgo_free(bgo_list_t *l);

// Orthonormal axes of an object placed by its direction and up vector (the game's
// QuatFromDirAndUp: z = dir, y = up, x = up x dir). Degenerate vectors give the identity.
void cob_axes_from_dir_up(const float dir[3], const float up[3], float axes[3][3]);

#endif
