// hlbullet.h -- the bullets of Half-Life's and Counter-Strike's client events, traced through the level
//
// One trace that the renderer (the bullet holes and tracers of render/r_hldecal.c) and the sound
// system (the impact sounds by texture and the ricochets of audio/snd_client.c) each run on their
// own copy of the level: both get the same bullets from the same log entry, so they agree without
// talking to each other (as engine/hltent.c's temp models do).
//
// A weapon's client event (a `world->decal_log` entry with te 0) fires its bullets from the gun
// (hltent_event_gun) along the event's angles with the gun's spread (the SDK's
// EV_HLDM_FireBullets, cs16-client's for Counter-Strike's guns), each traced against the world and
// the brush entities standing in the frame, the other players and the monsters (hlbullet_trace_all);
// every bullet says where it stopped, what it hit (the model, the entity, the texture under the
// hit, the player or the monster) and whether it is a tracer. Random numbers come
// from the entry's seed, in the order the decals have always drawn them.
//
// Counter-Strike's bullets go through walls (cs16-client's EV_HLDM_FireBullets, the newer
// generation; docs/goldsrc.md "Penetration"): one bullet can stop on up to its gun's number of walls
// (each a hit of its own, `exit` 0) and leave, for each wall it went through, a second hit where
// a trace from beyond the wall back to the gun meets the wall's far side (`exit` 1). The hits are
// listed in the order the client makes them; a gun's first bullet's first hit stays the first.
#ifndef HLBULLET_H
#define HLBULLET_H

#include <stdint.h>

#include "../assets/bsp.h"
#include "../assets/hlmat.h"
#include "world.h"

#define HLBULLET_MAX 16   // hits one event makes at most (shotgun2: 12 bullets; the awp: 3 walls, 2 far sides)

// How the game's client sounds a bullet's hit (docs/goldsrc.md, "Impact sounds").
enum {
    HLBULLET_SOUND_HL,        // Half-Life: the texture's sound and a ricochet (BULLET_PLAYER_9MM, 357, MP5)
    HLBULLET_SOUND_HL_BUCK,   // Half-Life's buckshot: the ricochet only (no texture sound)
    HLBULLET_SOUND_CS,        // Counter-Strike (cs16-client): the texture's sound and its own ricochets
};

typedef struct hlbullet_s {
    vec3_t src, end;          // the gun, the end of the bullet's range
    vec3_t tracer_src;        // a tracer's start (a player's: 4 down, 2 right, 16 ahead of the gun)
    int model;                // what it hit: 0 the world, > 0 a brush model (*N), -1 nothing
    int entity;               // the entity hit: 0 the world, > 0 a brush entity, -1 nothing
    vec3_t endpos;            // where it stopped (the range's end when it hit nothing)
    vec3_t ent_origin;        // the brush entity's origin (model > 0)
    vec3_t normal;            // the hit plane's normal, facing the gun (0 0 0 when nothing was hit)
    char texture[16];         // the texture's name under the hit ("" none: no face there)
    int player;               // > 0: the player (entity number) it stopped on before any wall (model -1:
                              // no decal, no ricochet, a body's sound); 0 none
    int monster;              // > 0: the other solid entity (a monster's box, entity number) it stopped
                              // on (model -1: no decal, no ricochet, the default texture's sound); 0 none
    uint8_t tracer;           // EV_HLDM_CheckTracer: a tracer, which leaves no decal and no sound
    uint8_t decal;            // 1..5: the "{shotN" it leaves (0: none, a tracer or a miss)
    uint8_t exit;             // 1: a wall's far side, found by the trace back towards the gun after the
                              // bullet went through it (a decal, sparks, a puff, maybe a ricochet: no
                              // texture sound)
    uint8_t bullet;           // which of the event's bullets made this hit (0..)
    char type;                // Counter-Strike: the material of the hit that made this one (the texture
                              // sound's: flesh for a player, the world's texture's, 0 anything else;
                              // an exit has its wall's front's), which picks the puff's colour and the
                              // sparks; 0 for Half-Life's guns (their sounds pick their own)
    uint8_t startsolid;       // the trace started inside something solid (a wall, a brush entity, a box)
    uint8_t sky;              // Counter-Strike (the newer cs16-client's isSky): the world's texture there
                              // is named `sky` (an exit: its front's): no decal, sparks, puff, impact
                              // particles or ricochet; the texture's sound (concrete) still plays
    float fraction;           // how far along src -> end it stopped (1: nothing hit)
} hlbullet_t;

// The hits of log entry e's bullets (te 0): how many were written (<= max), 0 for an event that
// fires none (or bad values: a gun outside the world, non-finite angles). *sound: HLBULLET_SOUND_*.
// Each is traced by hlbullet_trace_all with the event's entity as the shooter.
// bsp: the level (its world and brush models); w: the frame (its entities, maxclients); mat: the
// level's sound/materials.txt read as Counter-Strike's client reads it (HLMAT_CS; NULL: every
// texture concrete), whose materials cut a Counter-Strike bullet's power in a wall.
int hlbullet_fire(const bsp_t *bsp, const world_t *w, const world_decal_t *e, const hlmat_t *mat, hlbullet_t *out,
                  int max, int *sound);

// Counter-Strike's penetration table (cs16-client's EV_DescribeBulletTypeParameters and the guns'
// events): the gun's bullet type's power and distance, and the walls one of its bullets stops on at
// most (1: none gone through). 0 when `script` is no Counter-Strike gun.
int hlbullet_cs_penetration(const char *script, int *power, float *distance, int *walls);

// The events' random stream (xorshift from the entry's seed): lo..hi.
float hlbullet_frand(uint32_t *x, float lo, float hi);
// One line from b->src to b->end against the world and the frame's brush entities only: fills b's
// model, entity, endpos, ent_origin, normal, texture, fraction and startsolid (player and monster 0).
// A trace that starts inside the world or a brush entity says startsolid and finds the first wall
// it enters after leaving it (what the decals of Half-Life's first traces have always used).
void hlbullet_trace(const bsp_t *bsp, const world_t *w, hlbullet_t *b);
// The clients' traces of their events (EV_PlayerTrace with PM_STUDIO_BOX after EV_SetSolidPlayers(idx
// - 1)): hlbullet_trace, then the boxes standing in the frame, each stopping the line where it
// enters it (one it starts inside stops it where it starts):
// - every player but `shooter` (1..maxclients) whose state is not SOLID_NOT (dead), as the player
//   hull of his state: -16 -16 -36 .. 16 16 36 about the origin standing, -16 -16 -18 .. 16 16 18
//   ducking (usehull 1);
// - every other entity of the client's physents that is a box (SOLID_BBOX / SOLID_SLIDEBOX with a
//   studio or brush model and a box, not the recording player's own, not a dead body: monsters,
//   pushables), as origin + box_mins .. box_maxs.
// One met before the wall stops it there: model and entity -1, `player` or `monster` that entity;
// one the line starts inside says startsolid.
void hlbullet_trace_all(const bsp_t *bsp, const world_t *w, hlbullet_t *b, int shooter);

#endif
