// forsaken_trig.h -- the Forsaken decoder's trigger runner: the level's .TRG and .ZON
// (assets/fstrig.h) run on the host's ship path, as each machine of the game ran its own
//
// The game tests each frame's move of the ship it moves against the trigger areas of the ship's
// group (TriggerAreaPlayerCheck); an area's "enters" / "is in" / "exits" mod changes a trigger
// variable (ApplyTriggerMod, ModifyTriggerVar), each trigger on the variable is re-tested, and a
// condition whose triggers are all active runs its events (ProcessActiveConditions). The host's
// recording carries its own ship's updates, so the runner tests the straight line between two of
// them. Every primary shot (MSG_PRIMBULLPOSDIR) is flown to its first wall (the level's
// triangles, read at open only when an area counts shots) and its path tested against the areas'
// "shoots" mods (TriggerAreaPlayerShootsCheck), the mod run when the shot gets there. What the
// events do that demoplay draws goes into the world (engine/world_fs.h: the real-time light,
// spot effect and texture animation markers), so the picture at any time follows from the
// world alone. All of the runner's state is in fs_trig_t, inside the decoder's state: a seek's
// memcpy snapshot carries it. The loaded lists are read-only, shared by the snapshots and freed
// by the decoder's close. (docs/forsaken.md "Triggers")
#ifndef FORSAKEN_TRIG_H
#define FORSAKEN_TRIG_H

#include <stdint.h>

#include "../assets/asset.h"
#include "../assets/fstrig.h"
#include "../assets/mxv.h"
#include "../engine/world.h"
#include "../engine/world_fs.h"

#define FST_MAX_VARS 64
#define FST_MAX_TRIGGERS 256
#define FST_MAX_AREAS 64
#define FST_MAX_CONDS 256
#define FST_MAX_QUEUE 64              // delayed mods waiting (the game's TrigModQue) and shots on their way

typedef struct {
    const fstrg_t *trg;               // NULL: the level has no triggers to run (or they were refused)
    const fszon_t *zon;
    const mxv_t *mesh;                // the level's triangles: a shot's first wall (NULL: no area counts shots)
    int32_t var[FST_MAX_VARS];
    uint8_t active[FST_MAX_TRIGGERS];
    uint8_t area_on[FST_MAX_AREAS];
    uint8_t pending[FST_MAX_CONDS];   // conditions proved true: their events run
    struct {
        double due;
        int32_t mod;
        int32_t chain;                // 1: a shot's mod, run as a whole (ApplyTriggerMod) when due
    } queue[FST_MAX_QUEUE];
    int32_t nqueue;
    uint8_t have_pos;                 // the host's last update (the path's start)
    int32_t group;
    float pos[3];
    uint8_t light_on[FSW_MAX_RTL];    // the light markers the world holds (re-submitted each frame)
    uint8_t light_seen[FSW_MAX_RTL];
    uint8_t spot_seen[FSW_MAX_SPOT];  // the spot effect markers the world holds (re-submitted each frame)
    uint8_t tex_seen[FSW_MAX_TEXANIM];   // the texture animation markers likewise
    uint8_t tex_on[FSW_MAX_TEXANIM];
    double tex_run[FSW_MAX_TEXANIM];     // seconds its script ran (started by triggers) before tex_since
    double tex_since[FSW_MAX_TEXANIM];
    int64_t fired;                    // mods applied (dump, tests)
} fs_trig_t;

// Read levels/LEVEL/LEVEL.trg and .zon through `files` (and .mxv when an area counts shots); 0
// (loaded, or the level has none), or -1 with "FILE: ..." in warn (the triggers then do nothing),
// or 1 with the .mxv's "FILE: ..." in warn (not read: the shots are not counted, the rest runs).
// Levels whose lists exceed the runner's fixed sizes are refused as -1.
int fs_trig_load(fs_trig_t *t, const asset_files_t *files, const char *level, char *warn, size_t cap);
void fs_trig_free(fs_trig_t *t);

// The host's ship at `pos` in `group` at world time `time`; `moving` 0 when it is not flying
// (dying, blown up, not enabled): the path starts again at its next update.
void fs_trig_host(fs_trig_t *t, world_t *w, const float pos[3], int group, int moving, double time);
// A primary shot (MSG_PRIMBULLPOSDIR of a ship) of `weapon` (FSW_PULSAR ..) from `pos` along `dir`
// at world time `time`: each area it enters before its first wall or the end of its life counts it
// (the area's "shoots" mod, its weapon filter), when it gets there.
void fs_trig_shot(fs_trig_t *t, world_t *w, const float pos[3], const float dir[3], int weapon, double time);
// Delayed mods that are due by `time` (call before a frame's messages).
void fs_trig_tick(fs_trig_t *t, world_t *w, double time);
// The markers again this frame.
void fs_trig_resubmit(const fs_trig_t *t, world_t *w);

#endif
