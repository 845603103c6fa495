// r_studio.h -- GoldSrc studio models in the software renderer: load (level palette) and draw one entity
//
// r_models.c owns one r_studio_model_t per loaded studio model (kind RMOD_STUDIO):
// the model, its pose buffers and its transform scratch, all sized at load, so
// drawing allocates nothing.
#ifndef R_STUDIO_H
#define R_STUDIO_H

#include "../assets/studio.h"
#include "../engine/vfs.h"
#include "r_mlocal.h"

typedef struct r_studio_model_s {
    studio_t mdl;
    studio_pose_t pose;
    r_cvert_t *view;        // numverts: view-space positions
    d_vert_t *proj;         // numverts: projected (where view z >= R_NEAR_Z)
    float *nlight;          // numnorms: light row per normal
    uint8_t flat;           // texel of the stand-in texture of models without textures
} r_studio_model_t;

// Load a studio model (bytes start with "IDST"); companion files come from fs.
// Returns NULL with a message in err.
r_studio_model_t *r_studio_load(const uint8_t *bytes, size_t size, const char *name, vfs_t *fs,
                                const uint8_t *palette, char *err, size_t errcap);
void r_studio_free(r_studio_model_t *sm);

// What to draw: a posed studio model at a place, with its light.
typedef struct {
    int seq, body, skin;
    float frame;               // in the sequence's frames (studio_frame)
    vec3_t origin, angles;     // entity angles, as the game sends them
    const vec3_t *axes;        // if set: forward, right, up used instead of angles (view model)
    float scale;               // 0 = 1
    const uint8_t *colormap;
    int ambient, shade;        // 0..255, as r_alias_job_t
    const uint8_t *blend;      // GoldSrc render mode's table (r_hl_studio_blend), NULL = opaque
} r_studio_job_t;

void r_studio_draw(const r_view_t *v, r_studio_model_t *sm, const r_studio_job_t *job);
// An entity: frame from the state's animtime on the game's clock `anim_clock`, light at its origin.
void r_studio_entity(const r_view_t *v, r_studio_model_t *sm, const vec3_t org, const vec3_t ang,
                     const entity_state_t *s, double anim_clock, int light);
// The view model (weapon): sequence `seq` started `elapsed` seconds ago, at the eye, turned with the view.
void r_studio_view_model(const r_view_t *v, r_studio_model_t *sm, int seq, double elapsed, int light);

#endif
