// shelf.h -- `demoplay play DIR`: every demo under a folder, with what `info` knows about it
//
//     shelf_t *s = shelf_open("demos", cli);   // lists the files now, reads them in a thread
//     shelf_entry(s, i)->state                 // SHELF_PENDING until the thread has read it
//     shelf_close(s);                          // stops the thread, writes the cache
//
// Files are found by name (.dem .dm2 .dm2.gz .dmo, any case, folders recursively, at most
// SHELF_MAX entries); the thread opens each with the decoders and reads it to the end for
// the game, map, length and players (as `info` does). What it learned is cached in
// $XDG_CACHE_HOME/demoplay/shelf.tsv (~/.cache/...), one line a file, keyed by path, size
// and modification time, so a folder opened again shows at once.
#ifndef SHELF_H
#define SHELF_H

#include <SDL.h>

#include "cli.h"
#include "ui_text.h"

#define SHELF_MAX 4096

enum { SHELF_PENDING = 0, SHELF_READ = 1, SHELF_BAD = 2 };

typedef struct {
    char path[1024];          // as opened
    char rel[256];            // under the folder, for the list
    long long size, mtime;
    SDL_atomic_t state;       // SHELF_*: the fields below are written before it leaves PENDING
    char game[16];            // the decoder's name ("quake", "quake2", "goldsrc", "forsaken")
    char map[64];             // of the first level, without maps/ and .bsp
    int levels;
    double length;            // seconds of playback time (level restarts of the clock joined)
    char players[192];        // names, comma separated ("" none)
    char error[160];          // SHELF_BAD: why
} shelf_entry_t;

typedef struct shelf_s shelf_t;

// NULL with a message in err when the folder cannot be read or holds no demo.
shelf_t *shelf_open(const char *dir, const cli_t *cli, char *err, size_t errcap);
void shelf_close(shelf_t *s);
int shelf_count(const shelf_t *s);
const shelf_entry_t *shelf_entry(const shelf_t *s, int i);
int shelf_pending(const shelf_t *s);   // entries not read yet
void shelf_wait(shelf_t *s);           // until the thread has read every entry (tests)

// The list drawn on the canvas: `sel` highlighted, scrolled so it shows. Returns the rows
// that fit (for page keys). shelf_row_at: the entry at canvas row y (-1 none).
int shelf_draw(shelf_t *s, ui_canvas_t *c, int sel, int sc);
int shelf_row_at(const shelf_t *s, const ui_canvas_t *c, int sc, int y);

#endif
