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
#include <string.h>

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

// Little-endian fields of a file's bytes (the caller has checked they are there).
static inline uint16_t asset_u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline int16_t asset_s16(const uint8_t *p) { return (int16_t)asset_u16(p); }
static inline uint32_t asset_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline int32_t asset_s32(const uint8_t *p) { return (int32_t)asset_u32(p); }
static inline float asset_f32(const uint8_t *p)
{
    uint32_t u = asset_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

// A cursor over one file's bytes for the loaders that walk a file front to back (the Forsaken
// models, levels, sprite layouts and objects). The first failure is kept in err as "NAME: offset
// N: expected WHAT"; after it every check fails, so a walk can test once at its end.
typedef struct {
    const uint8_t *d;
    size_t n, at;        // the bytes, their count, where the walk is
    const char *name;    // the file's name in messages
    char *err;
    size_t cap;
    int failed;
} asset_rd_t;

// Fail at byte `at` (the message says what was expected there); returns -1.
int asset_rd_fail(asset_rd_t *r, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
// The failure of asset_rd_need: "[COUNT ]WHAT (BYTES bytes), file has LEFT left"; returns -1.
int asset_rd_short(asset_rd_t *r, size_t count, size_t each, const char *what);

// Are `count` items of `each` bytes left after r->at? 0, or -1 (no multiplication that could
// overflow). Inline: the loaders ask before every field.
static inline int asset_rd_need(asset_rd_t *r, size_t count, size_t each, const char *what)
{
    size_t left = r->at < r->n ? r->n - r->at : 0;
    if (!r->failed && (!each || count <= left / each))
        return 0;
    return asset_rd_short(r, count, each, what);
}

// The u16 at r->at into *out and past it; -1 when it is not there.
static inline int asset_rd_u16(asset_rd_t *r, const char *what, int *out)
{
    if (asset_rd_need(r, 1, 2, what) < 0)
        return -1;
    *out = asset_u16(r->d + r->at);
    r->at += 2;
    return 0;
}

#endif
