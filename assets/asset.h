// asset.h -- what loaders that need other files (Quake II textures and skins, GoldSrc WADs) are given
//
// A loader never opens files itself: it asks `fn` for a path inside the game
// folders and gets malloc'd bytes it must free, or NULL when the file is not
// there. The engine passes a VFS look-up; tests and fuzzers pass their own
// (or NULL: every extra file is then missing, and the loader still succeeds).
#ifndef ASSET_H
#define ASSET_H

#include <stddef.h>
#include <stdint.h>

typedef uint8_t *(*asset_file_fn)(void *ctx, const char *path, size_t *size);

typedef struct {
    asset_file_fn fn;   // NULL: no extra files
    void *ctx;
} asset_files_t;

static inline uint8_t *asset_load(const asset_files_t *f, const char *path, size_t *size)
{
    *size = 0;
    return (f && f->fn) ? f->fn(f->ctx, path, size) : NULL;
}

// "offset N: " and the formatted rest into err (the loaders' error form); returns -1.
int asset_fail(char *err, size_t cap, size_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
