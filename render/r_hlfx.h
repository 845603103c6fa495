// r_hlfx.h -- Half-Life's temp entities and client events, by the engine's and the client dll's rules
//
// A fixed pool (no allocation while playing) of what GoldSrc's client makes for a frame's
// temp entities (svc_temp_entity) and client events (EV_GAMEEVENT): sprites (explosions,
// TE_SPRITE, glow sprites, smoke, blood sprites, muzzle flashes), particles (gunshot dust,
// spark showers, blood), beams and tracers, dynamic lights. r_models.c calls these through
// its per-game rules for GAME_GOLDSRC and draws the sprites with the level's models; nothing
// here loads a file. The sounds are the decoder's (formats/goldsrc_events.c).
#ifndef R_HLFX_H
#define R_HLFX_H

#include <stdint.h>

#include "../engine/world.h"
#include "r_view.h"

#define HLFX_MAX_PARTICLES 2048
#define HLFX_MAX_SPRITES 128
#define HLFX_MAX_BEAMS 64
#define HLFX_MAX_LIGHTS 32

// A sprite to draw: the world's model index, or one of the client's own (HLFX_CLIENT_*).
enum { HLFX_CLIENT_MUZZLE = -1 };
typedef struct {
    int model;           // index into world models, or HLFX_CLIENT_*
    vec3_t org;
    float frame;         // sprite frame (wrapped by the drawer)
    float scale;
    int rendermode;      // RM_*
    int amount;          // 0..255
    uint8_t color[3];
    uint8_t view;        // follows the view model's muzzle (attachment 0) when drawn
} r_hlsprite_t;

typedef struct {
    vec3_t start, end;
    int start_ent, end_ent;  // > 0: the end follows that entity
    int model;
    float width;             // units
    uint8_t color[3];
    int amount;
    int ring;                // TE_BEAMRING: a circle through both ends
} r_hlbeam_t;

typedef struct {
    vec3_t org, vel;
    float birth, die;
    float gravity;           // units / s^2 downward
    uint8_t color[3];
    uint8_t additive;
} r_hlparticle_t;

typedef struct r_hlfx_s r_hlfx_t;

r_hlfx_t *r_hlfx_create(void);
void r_hlfx_destroy(r_hlfx_t *fx);
void r_hlfx_clear(r_hlfx_t *fx);
// Once a decoded frame: its temp entities, client events and dlights, born at `now`.
void r_hlfx_frame(r_hlfx_t *fx, const world_t *w, double now, uint32_t seed);
// The view model's muzzle (attachment 0) as last drawn, for the flash's light and sprite.
void r_hlfx_set_muzzle(r_hlfx_t *fx, const vec3_t org, int valid);
// Live lights at t into v->dlights.
void r_hlfx_lights(const r_hlfx_t *fx, const world_t *w, r_view_t *v, double t);
// The sprites alive at t (at most max).
int r_hlfx_sprites(const r_hlfx_t *fx, double t, r_hlsprite_t *out, int max);
// Beams alive at t.
int r_hlfx_beams(const r_hlfx_t *fx, double t, r_hlbeam_t *out, int max);
// Particles and beams as additive dots through the level's blend tables (v->hlmodes).
void r_hlfx_draw_particles(const r_hlfx_t *fx, const r_view_t *v, double t);
void r_hlfx_draw_beam(const r_view_t *v, const r_hlbeam_t *b);
// For tests.
int r_hlfx_num_particles(const r_hlfx_t *fx, double t);
double r_hlfx_flash_time(const r_hlfx_t *fx);
// Whether the client dll's rules draw a muzzle flash for this event script ("glock1").
int r_hlfx_event_flashes(const char *name);

#endif
