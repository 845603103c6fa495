// r_hlhud.h -- Half-Life's HUD layout file (sprites/hud.txt): bounded parser, shared by r_hlhud.c and the tests
//
//     r_hlhud_entry_t e[R_HLHUD_MAX_ENTRIES];
//     int n = r_hlhud_parse(text, len, e, R_HLHUD_MAX_ENTRIES, err, sizeof err);   // -1: err says where
//
// The file is a count, then that many entries of seven words:
// name, screen width it is for (320 or 640), sprite (sprites/NAME.spr), x, y, w, h:
// the piece is that rectangle of the sprite's first frame. "//" starts a comment.
#ifndef R_HLHUD_H
#define R_HLHUD_H

#include <stddef.h>

#define R_HLHUD_MAX_ENTRIES 1024
#define R_HLHUD_NAME 32

typedef struct {
    char name[R_HLHUD_NAME];
    char sprite[R_HLHUD_NAME];
    int res;                  // 320 or 640
    int x, y, w, h;
    size_t offset;            // of the entry's name in the file
} r_hlhud_entry_t;

// Returns the number of entries (<= max), or -1 with "offset N: expected ..." in err.
int r_hlhud_parse(const char *text, size_t len, r_hlhud_entry_t *out, int max, char *err, size_t errcap);
// The entry called `name` for screen width `res`, or NULL.
const r_hlhud_entry_t *r_hlhud_find(const r_hlhud_entry_t *e, int n, const char *name, int res);

#endif
