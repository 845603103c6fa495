// decoder.h -- the demo decoder interface: one table of functions per format
//
// The engine loads the whole demo into memory, asks every decoder to probe the
// first bytes, and drives the best match:
//
//     const decoder_t *d = decoder_probe(data, size);
//     void *st = calloc(1, d->state_size);
//     if (d->open(st, data, size, world, &opts, &err) < 0) ...
//     while ((r = d->read_frame(st, world, &err)) > 0) { ... world holds the frame ... }
//     if (r < 0) report "FILE: offset err.offset: err.what"
//     d->close(st);
//
// Rules for decoders:
// - All decoder state lives in the state struct (size state_size) and in the
//   world. No globals, no pointers into the state itself: a snapshot for seeking
//   is memcpy(state) + world_clone(world) + the file offset, and a restored copy
//   must go on decoding from there. `data` stays valid while the demo is open.
// - Never read out of bounds: every byte through formats/msg.h.
// - On bad bytes, fill err with the file offset and what was expected and
//   return -1. read_frame after an error keeps returning -1.
// - When opts->dump is set, print every block and message as it is parsed
//   (one line each, offset first; JSON lines when opts->dump_json).
#ifndef DECODER_H
#define DECODER_H

#include <stdint.h>
#include <stdio.h>

#include "../assets/asset.h"
#include "../engine/world.h"

typedef struct {
    long long offset;    // file offset where the problem is
    char what[480];      // "expected ..., found ..."
} dec_error_t;

void dec_error_set(dec_error_t *err, long long offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

typedef struct {
    FILE *dump;          // non-NULL: print every message here
    int dump_json;       // dump as JSON lines
    // Non-NULL: called for every inconsistency the decoder reads past (the file plays on),
    // with the file offset and what was expected. The engine logs them (engine/demo.c).
    void (*warn)(void *ctx, long long offset, const char *what);
    void *warn_ctx;
    // Optional (fn NULL: none): the game's files, for a decoder that runs what the level's own
    // files say (Forsaken's triggers). Asked only inside open, never after.
    asset_files_t files;
} dec_opts_t;

#define DEMO_INFO_TEMPENTS 128   // GoldSrc's run to 127
#define DEMO_INFO_EVENTS 256     // GoldSrc's event scripts (MAX_EVENTS)
// What `demoplay info` prints; each decoder keeps one in its state and fills it
// as it reads (definitions per format in the README).
typedef struct {
    const char *format;        // "quake", "quake2", "goldsrc", "forsaken"
    int32_t protocol;
    int64_t frames;
    int64_t drawn_frames;      // server frames decoded so far: what playback draws (timedemo's count)
    double start_time, end_time;
    int have_time;             // start/end set
    char map[WORLD_NAME_LEN];  // of the first level
    char level_name[WORLD_NAME_LEN * 2];
    char game_dir[WORLD_NAME_LEN];
    int32_t maxclients;
    int32_t models;            // first level's precache counts, world model included
    int32_t sounds;
    int32_t levels;            // levels seen (serverinfo / serverdata messages)
    // temp entities by the game's type number (Quake II), named by tempent_names (NULL: none kept)
    int64_t tempents[DEMO_INFO_TEMPENTS];
    const char *const *tempent_names;
    int num_tempent_types;
    // client events by index (GoldSrc's svc_event), named by the demo's event scripts
    // ("glock1" for events/glock1.sc; "" an index no script named)
    int64_t events[DEMO_INFO_EVENTS];
    char event_names[DEMO_INFO_EVENTS][32];
    // The first inconsistency the decoder read past (the file still plays): "" none.
    // The engine says it once, with the file name and the offset.
    long long warning_offset;
    char warning[240];
    int64_t warnings;          // inconsistencies read past so far (each also goes to dec_opts_t.warn)
    // Messages skipped by their size, not decoded: a code the game does not define, or a
    // size its layout does not allow (Forsaken). `info` prints the count when counts_unknown.
    int counts_unknown;
    int64_t unknown_events;
} demo_info_t;

typedef struct decoder_s {
    const char *name;          // "quake" ...
    world_game_t game;
    size_t state_size;
    // How sure the decoder is that these are its bytes: 0 no .. 100 certain.
    int (*probe)(const uint8_t *data, size_t size);
    int (*open)(void *state, const uint8_t *data, size_t size, world_t *w, const dec_opts_t *opts,
                dec_error_t *err);
    // Apply the next server frame to the world: 1 = a frame, 0 = end of demo, -1 = error.
    int (*read_frame)(void *state, world_t *w, dec_error_t *err);
    size_t (*offset)(const void *state);          // file offset of the next frame
    const demo_info_t *(*info)(const void *state);
    void (*close)(void *state);                   // frees nothing the state does not own
} decoder_t;

// All decoders, NULL-terminated.
extern const decoder_t *const decoders[];

// The decoder that claims these bytes most surely, or NULL.
const decoder_t *decoder_probe(const uint8_t *data, size_t size);

#endif
