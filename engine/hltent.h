// hltent.h -- Half-Life's temp models: shells ejected by the weapons, gibs and breakable chunks
//
// In engine/ (not render/) so that more than the renderer can run it: it reads only the world's
// log and the level's bsp tree.
//
// TE_MODEL (106), TE_EXPLODEMODEL (107), TE_BREAKMODEL (108), TE_PROJECTILE (119) and the shells of the weapons' client events
// (cl_dll's EV_EjectBrass) make models that fly, tumble, bounce off the world and lie
// still, by the client's temp entity rules (HUD_TempEntUpdate; R_TempModel and
// R_BreakModel in the engine's efx API). They come from the world's log of lasting things
// (world->decal_log, which the decoder fills and snapshots carry), so that after a seek the
// same models are where playing puts them: each is simulated in fixed steps of
// HLTENT_STEP seconds from its birth, with random numbers from its log entry, so its place
// at a moment depends on nothing else. A fixed pool, nothing allocated while playing.
#ifndef HLTENT_H
#define HLTENT_H

#include <stdint.h>

#include "../assets/bsp.h"
#include "world.h"

#define HLTENT_MAX 500        // the engine's MAX_TEMP_ENTITIES (a full pool drops new ones, as CL_TempEntAlloc)
#define HLTENT_STEP 0.01      // seconds a simulation step (the client at 100 frames a second)
#define HLTENT_GRAVITY 800.0f // sv_gravity's default (movevars)

// FTENT_* flags of the SDK's r_efx.h that temp models use
enum {
    HLTENT_GRAVITY_F = 0x2,    // FTENT_GRAVITY
    HLTENT_ROTATE = 0x4,       // FTENT_ROTATE
    HLTENT_SLOWGRAVITY = 0x8, // FTENT_SLOWGRAVITY
    HLTENT_SMOKETRAIL = 0x10,  // FTENT_SMOKETRAIL
    HLTENT_COLLIDEWORLD = 0x20,// FTENT_COLLIDEWORLD
    HLTENT_FADEOUT = 0x80,     // FTENT_FADEOUT
    HLTENT_COLLIDEKILL = 0x4000,// FTENT_COLLIDEKILL: ends when it hits
};

// One live temp model as it is drawn at a moment.
typedef struct {
    int model;                 // world model index
    uint32_t pick;             // its body (studio) or frame (sprite): pick % the model's variations
    vec3_t org, ang;
    int rendermode, amount;    // RM_* (kRenderNormal or kRenderTransTexture), 0..255
} hltent_draw_t;

typedef struct hltent_s hltent_t;

hltent_t *hltent_create(void);
void hltent_free(hltent_t *p);
// After a seek or a new demo: the next hltent_frame spawns the log's models again.
void hltent_clear(hltent_t *p);
// Once a decoded frame: the log's new entries spawn their models (the level's bsp for the
// spots of TE_BREAKMODEL's pieces; NULL: no level, nothing spawns).
void hltent_frame(hltent_t *p, const bsp_t *bsp, const world_t *w);
// Step the models to time t (fixed steps, each against the world) and list those alive
// then (at most max). Steps are only ever taken forward; t before a model's state shows it
// where it is.
int hltent_list(hltent_t *p, const bsp_t *bsp, double t, hltent_draw_t *out, int max);
// For tests: the models alive at t (after hltent_list stepped them there).
int hltent_count(const hltent_t *p, double t);

#endif
