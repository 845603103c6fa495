// r_q2fx.h -- Quake II's client effects: particles, trails, temp entities, muzzle flashes, their lights
//
// The rules of Quake II's client (cl_fx.c, cl_tent.c, cl_newfx.c), in our own code:
// particles that move by org + vel t + accel t^2 and fade by alphavel from a fixed pool of
// 4096, the client's explosion models with their lights, beams, muzzle flash lights with
// the monsters' flash offsets. r_models.c calls these through its per-game rules; nothing
// here draws a model itself (r_q2fx_models / r_q2fx_beams list what to draw).
#ifndef R_Q2FX_H
#define R_Q2FX_H

#include <stdint.h>

#include "../engine/world.h"
#include "r_view.h"

#define Q2FX_MAX_PARTICLES 4096   // the client's MAX_PARTICLES
#define Q2FX_MAX_EXPLOSIONS 64    // MAX_EXPLOSIONS
#define Q2FX_MAX_BEAMS 64         // MAX_BEAMS
#define Q2FX_MAX_LASERS 32        // MAX_LASERS
#define Q2FX_MAX_LIGHTS 32        // MAX_DLIGHTS
#define Q2FX_MAX_SUSTAINS 32      // MAX_SUSTAINS
#define Q2FX_GRAVITY 40.0f        // PARTICLE_GRAVITY
#define Q2FX_NUM_MONSTER_FLASHES 211

// The client-side models the effects use (names in r_q2fx_model_names).
enum {
    Q2M_EXPLODE, Q2M_SMOKE, Q2M_FLASH, Q2M_EXPLO4, Q2M_EXPLO4_BIG, Q2M_BFG_EXPLO, Q2M_PARASITE, Q2M_GRAPPLE,
    Q2M_LIGHTNING, Q2M_HEATBEAM, Q2M_COUNT
};
extern const char *const r_q2fx_model_names[Q2M_COUNT];

typedef struct {
    vec3_t org, vel, accel;
    double time;       // when it was made (demo seconds; a float is 6e-5 s coarse at 1000 s)
    float alpha, alphavel;
    uint8_t color;
    uint8_t instant;   // drawn for one server frame only (INSTANT_PARTICLE, and alphavel -100)
} r_q2particle_t;

// A model to draw for an effect (explosion, smoke puff, flash).
typedef struct {
    int model;         // Q2M_*
    vec3_t org, angles;
    int frame, skin;
    float alpha;       // < 1: seen through (translucent)
    int fullbright;
} r_q2fx_model_t;

typedef struct {
    int model;         // Q2M_*
    vec3_t start, end;
} r_q2fx_beam_t;

// A laser of the client's own (TE_BFG_LASER, CL_ParseLaser): an RF_BEAM | RF_TRANSLUCENT line
// from start to end, `width` (its frame) wide, in one palette colour, alpha 0.30.
typedef struct {
    vec3_t start, end;
    int width;
    uint8_t color;
} r_q2fx_laser_t;

// A muzzle flash's light (svc_muzzleflash / svc_muzzleflash2): radius before its random
// part, how much longer than the frame it stays, colour (packed 0xRRGGBB; the 8-bit
// renderer draws only its brightness).
typedef struct {
    float radius;      // + (rand & 31), or + (rand & 100) for the widow's beams
    float extra;       // seconds past the frame
    uint32_t rgb;
} r_q2flash_t;

typedef struct r_q2fx_s r_q2fx_t;

r_q2fx_t *r_q2fx_create(void);
void r_q2fx_destroy(r_q2fx_t *fx);
void r_q2fx_clear(r_q2fx_t *fx);
// Once a decoded server frame: its temp entities and muzzle flashes, the trails and
// entity effects of its entities, born at `now`; random numbers restart from seed.
void r_q2fx_frame(r_q2fx_t *fx, const world_t *w, double now, uint32_t seed);
// The live lights (explosions, flashes, glowing entities) at time t into v->dlights.
void r_q2fx_lights(const r_q2fx_t *fx, const world_t *w, r_view_t *v, double t);
// The effect models and beams alive at t; return how many were written (at most max).
int r_q2fx_models(const r_q2fx_t *fx, double t, r_q2fx_model_t *out, int max);
int r_q2fx_beams(const r_q2fx_t *fx, const world_t *w, const r_view_t *v, double t, r_q2fx_beam_t *out, int max);
// The lasers alive at t (CL_AddLasers: until 0.1 s after they were made).
int r_q2fx_lasers(const r_q2fx_t *fx, double t, r_q2fx_laser_t *out, int max);
// The particles as they are at t, through alphamap (256 x 256, pal_t's) or opaque when NULL.
void r_q2fx_draw_particles(const r_q2fx_t *fx, const r_view_t *v, double t, const uint8_t *alphamap);

// For tests: the live particles and a muzzle flash's rules.
int r_q2fx_num_particles(const r_q2fx_t *fx);
const r_q2particle_t *r_q2fx_particle(const r_q2fx_t *fx, int i);
int r_q2fx_player_flash(int weapon, r_q2flash_t *out);     // MZ_* without MZ_SILENCED; 0 unknown
int r_q2fx_monster_flash(int number, r_q2flash_t *out, vec3_t offset);   // MZ2_*; 0 out of range

#endif
