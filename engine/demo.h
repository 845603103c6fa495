// demo.h -- an open demo: its bytes, its decoder, its world
//
//     demo_t d;
//     if (demo_open(&d, cli, "qfm_e1m3.dem", NULL, 0) < 0) { print d.errmsg; ... }
//     while (demo_read_frame(&d) > 0) { d.world is the latest frame }
//     if (d.failed) print d.errmsg   ("FILE: offset N: what was expected")
//     demo_close(&d);
//
// The file is found as a path (case-insensitive) or as a game path inside the
// game's folders and paks (--basedir/--game): `hook.dem` inside hook/pak0.pak.
// gzip-compressed files (.dm2.gz) are inflated on load. The decoder is chosen
// by probing the bytes, never by the extension.
#ifndef DEMO_H
#define DEMO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../formats/decoder.h"
#include "cli.h"
#include "vfs.h"
#include "world.h"

#define DEMO_MAX_SIZE (1u << 30)   // 1 GiB after inflating

typedef struct {
    char name[1024];          // as given on the command line
    uint8_t *data;
    size_t size;
    const decoder_t *dec;
    void *state;
    world_t *world;
    dec_opts_t opts;
    int failed, ended;
    dec_error_t err;
    char errmsg[1600];        // full message: "FILE: offset N: ..."
    // the decoder's warnings as it reads (dec_opts_t.warn): each offset said once (a seek that
    // decodes a stretch again repeats none), at most DEMO_MAX_WARNINGS of them
    long long warned_upto;
    int warned;
} demo_t;

#define DEMO_MAX_WARNINGS 20

// Returns 0, or -1 with d->errmsg set (missing file: d->failed == 0; bad bytes: 1).
int demo_open(demo_t *d, const cli_t *cli, const char *name, FILE *dump, int dump_json);
// 1 = a frame was applied, 0 = end, -1 = error (d->errmsg set).
int demo_read_frame(demo_t *d);
void demo_close(demo_t *d);

// Base game folder of a game: "id1", "baseq2", "valve", "Data".
const char *demo_base_folder(world_game_t game);
// The folder a demo's game data is under: --basedir when given; else "." when it holds the
// game's base folder (id1, baseq2, valve, Data); else the nearest of the demo's own folder and
// its four parents that holds it (a demo in Quake/id1/ or Half-Life/valve/demos/ needs no
// --basedir); else ".". `buf` holds the path found (cap bytes).
const char *demo_basedir(const demo_t *d, const cli_t *cli, char *buf, size_t cap);
// Mount the game data a demo needs: basedir/base, then --game or the demo's own
// game dir over it. Returns a new vfs (never NULL unless out of memory).
vfs_t *demo_mount(const demo_t *d, const cli_t *cli);

// Quake: a mod's demo played with no --game (and naming no game folder itself)
// loads the map of the same name from id1. When that map's brush models (*1..*N)
// are not as many as the demo's precache list names, warn once, naming a folder
// under --basedir whose maps/<map>.bsp (loose or in a pak) has the demo's count:
//   "D: maps/e1m3.bsp in id1 has 12 brush models, the demo lists 15: it was
//    probably recorded with --game qfm"
// Call it when a level begins. Returns 1 if it warned, else 0.
int demo_check_mod(const demo_t *d, const cli_t *cli);

#endif
