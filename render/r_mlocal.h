// r_mlocal.h -- private defs shared by the alias, sprite, particle and beam drawers (r_models.c owns the state)
#ifndef R_MLOCAL_H
#define R_MLOCAL_H

#include <stdint.h>

#include "../assets/mdl.h"
#include "../assets/spr.h"
#include "d_polyse.h"
#include "r_view.h"

#define R_NEAR_Z 1.0f   // view-space near plane for models, sprites and particles

typedef enum { RMOD_NONE = 0, RMOD_ALIAS, RMOD_SPRITE, RMOD_MISSING, RMOD_STUDIO } r_mod_kind_t;

struct r_studio_model_s;   // r_studio.h

typedef struct {
    r_mod_kind_t kind;
    char name[WORLD_NAME_LEN];   // the world's model name it was loaded for
    mdl_t mdl;
    spr_t spr;
    struct r_studio_model_s *studio;
} r_model_t;

// A vertex in view space (x right, y up, z forward) with its texture and light.
typedef struct {
    float x, y, z, s, t, l;
} r_cvert_t;

// Scratch for one alias model's transformed vertices; sized at level load.
typedef struct {
    r_cvert_t *view;     // numverts
    d_vert_t *proj;      // numverts (valid where view z >= R_NEAR_Z)
    d_subvert_t *sub;    // numverts: Quake's small-model points (r_alias_draw's job.subdiv)
    int cap;
} r_alias_scratch_t;

// What to draw: an alias model at a place, in a pose blend, with its light.
typedef struct {
    const mdl_t *mdl;
    int pose_a, pose_b;
    float blend;               // 0 = pose_a, 1 = pose_b
    vec3_t origin;
    vec3_t angles;             // entity angles (pitch up positive, as the game sends them)
    const vec3_t *axes;        // if set: forward, right, up used instead of angles (view weapon)
    const uint8_t *skin;
    const uint8_t *colormap;   // 64 x 256 (translated for players)
    int ambient, shade;        // Quake's ambientlight / shadelight, 0..255
    float zscale;              // 1/z scale in the depth test (Quake's gun: 3); 0 = 1
    int light_above;           // light from above (TyrQuake), else from +x (id)
    const uint8_t *alphamap;   // see-through (d_polyctx_t): NULL = opaque
    int alpha66;
    int flat;                  // 1: filled with flat_color (Quake II's shells), no skin
    uint8_t flat_color;
    float shell;               // vertices pushed out this far along their normals (POWERSUIT_SCALE)
    const float *proj_scale;   // if set: {xscale, yscale} of the model's own projection (Quake II's gun fov)
    int subdiv;                // Quake's rule: drawn as points and halved triangles when small (r_alias.c)
} r_alias_job_t;

// Quake's AngleVectors: pitch, yaw, roll in degrees to forward, right, up.
void r_angle_vectors(const vec3_t angles, vec3_t forward, vec3_t right, vec3_t up);
// A model's placement in view space. Its axes in world space (forward, left, up) come
// from `axes` (forward, right, up: the view weapon) or from the entity's angles (pitch
// inverted, as Quake draws models); a model-space point p, scaled by scale[k] and moved
// by trans[k] along axis k, lands at view = A * p + b.
void r_model_to_view(const r_view_t *v, const vec3_t *axes, const vec3_t angles, const vec3_t origin,
                     const float scale[3], const float trans[3], vec3_t ax[3], float A[3][3], float b[3]);
// Is a sphere (world centre, radius) at least partly inside the view frustum?
int r_sphere_visible(const r_view_t *v, const vec3_t centre, float radius);
// Near-clip a convex polygon given in view space, project and fill it.
// cull: skip it when it faces away (clockwise rule of the alias models).
void r_draw_poly(const r_view_t *v, const d_polyctx_t *c, const r_cvert_t *in, int n, int cull);
// The same with 1/z scaled by zscale for the depth test.
void r_draw_poly_z(const r_view_t *v, const d_polyctx_t *c, const r_cvert_t *in, int n, int cull, float zscale);
void r_alias_draw(const r_view_t *v, r_alias_scratch_t *sc, const r_alias_job_t *job);

// Sprites: draw image of s at origin (angles used by the oriented types).
void r_sprite_draw(const r_view_t *v, const spr_t *s, const spr_image_t *im, const vec3_t origin,
                   const vec3_t angles);
// The same seen through (alphamap, alpha66 as d_polyctx_t; NULL = opaque).
void r_sprite_draw_alpha(const r_view_t *v, const spr_t *s, const spr_image_t *im, const vec3_t origin,
                         const vec3_t angles, const uint8_t *alphamap, int alpha66);
// Half-Life's sprites (v->hlmodes set): the entity's render mode, amount after its
// renderfx, scale, and the sprite's texture format (additive, index-alpha, alpha
// test); kRenderGlow ones hidden behind what is solid at their centre, kept at their
// size on screen, dimmed with distance and drawn over what is near.
void r_sprite_draw_hl(const r_view_t *v, const spr_t *s, const spr_image_t *im, const vec3_t origin,
                      const vec3_t angles, const entity_state_t *st, int entnum);
// The blend r_sprite_draw_hl uses: 0 = not drawn; *table NULL = masked opaque.
int r_sprite_hl_blend(const r_view_t *v, const spr_t *s, const entity_state_t *st, int entnum, const vec3_t origin,
                      const uint8_t **table, float *scale, float *zscale);

// ---- particles ----
#define R_MAX_PARTICLES 2048   // Quake's pool (r_part.c MAX_PARTICLES without -particles): a full pool drops new ones
typedef enum { PT_STATIC, PT_GRAV, PT_SLOWGRAV, PT_FIRE, PT_EXPLODE, PT_EXPLODE2, PT_BLOB, PT_BLOB2 } r_ptype_t;
typedef struct {
    vec3_t org, vel;
    float die, ramp;
    float birth;   // the particle clock when it was made: not moved back before it
    uint8_t color, type;
} r_particle_t;

typedef struct {
    r_particle_t p[R_MAX_PARTICLES];
    int num;
    double time;           // particle clock; < 0 until the first frame sets it
    uint32_t rng;
    int tracer_count;
    float avel[MDL_NUM_NORMALS][3];   // entity-particle angular speeds
} r_particles_t;

void r_part_clear(r_particles_t *ps);
uint32_t r_rand(uint32_t *state);   // 0..0x7fff, deterministic
// Move the clock to t, running Quake's particle physics in steps of at most 50 ms.
// Effects made after this are born at t: drawn at t where they were made, as
// Quake draws a new particle once before it first moves.
void r_part_advance(r_particles_t *ps, double t);
void r_part_effect(r_particles_t *ps, const vec3_t org, const vec3_t dir, int color, int count);
void r_part_explosion(r_particles_t *ps, const vec3_t org);
void r_part_explosion2(r_particles_t *ps, const vec3_t org, int color_start, int color_len);
void r_part_blob(r_particles_t *ps, const vec3_t org);
void r_part_lava_splash(r_particles_t *ps, const vec3_t org);
void r_part_teleport(r_particles_t *ps, const vec3_t org);
// Trail types as Quake's R_RocketTrail: 0 rocket, 1 smoke, 2 blood, 3 tracer, 4 slight blood, 5 tracer2, 6 voor.
void r_part_trail(r_particles_t *ps, const vec3_t start, const vec3_t end, int type);
// Draw the particles as they are at time t (near the particle clock, before or after it:
// carried along their velocities; those made after t where they were made); no state changes.
// Each is Quake's D_DrawParticle: a square of 1/z size, see r_part_draw_one.
void r_part_draw(const r_particles_t *ps, const r_view_t *v, double t);
// Restart the random numbers from seed: effects then depend on the frame alone, not on what was played before.
void r_part_reseed(r_particles_t *ps, uint32_t seed);
// EF_BRIGHTFIELD: the sphere of particles around an entity, drawn directly.
void r_part_entity_field(r_particles_t *ps, const r_view_t *v, const vec3_t origin);
// One particle as D_DrawParticle draws it: projected with the view's scale shrunk by
// (width - 6) / width and Quake's half-pixel centre, dropped nearer than z 8 or when its
// square's corner is off the view less the largest square; the square is
// (int)(32768 / z) >> shift pixels (256 / z at 320 wide), 1..4 (width / 320 ..
// width / 80), tested and written against the z-buffer at Quake's 16-bit precision
// (1/z in 1/32768 steps, equal passes).
void r_part_draw_one(const r_view_t *v, const vec3_t org, int color);
// D_DrawParticle's view: the axes scaled to pixels, centre and square limits (r_part_view).
typedef struct {
    vec3_t right, up, fwd;
    float xc, yc;
    int pmin, pmax, shift, umax, vmax;
} r_pview_t;
void r_part_view(const r_view_t *v, r_pview_t *pv);
// One particle seen through, by Quake II's R_DrawParticle: level 2 opaque, 1 its colour
// row of the alphamap over what is there (alphamap[color * 256 + dst]), 0 the other way
// round (alphamap[dst * 256 + color]); a square whose centre pixel is nearer is left out.
// alphamap NULL: opaque.
void r_part_draw_blend(const r_view_t *v, const r_pview_t *pv, const vec3_t org, int color, int level,
                       const uint8_t *alphamap);
// The square size D_DrawParticle gives a particle at depth z on a view `width` pixels wide.
int r_part_pixel_size(int width, float z);

#endif
