// wal.h -- Quake II wall textures (textures/NAME.wal): 8-bit pixels in the Quake II palette, four mip levels
//
//     wal_t w;
//     char err[128];
//     if (wal_load(&w, bytes, size, err, sizeof err) < 0) puts(err);   // "offset N: expected ..."
//     ... mip m: (w.width >> m) x (w.height >> m) indices at w.pixels + w.offsets[m] ...
//     wal_free(&w);
//
// The header names the next frame of an animation (animname) and the surface
// flags, contents and light value the map editor gave the texture; levels carry
// their own copies of those in their texinfo, so the level loader ignores them.
#ifndef WAL_H
#define WAL_H

#include <stddef.h>
#include <stdint.h>

#define WAL_HEADER_SIZE 100
#define WAL_MIPLEVELS 4
#define WAL_MIN_SIDE 8      // mip 3 is at least one texel a side
#define WAL_MAX_SIDE 4096

typedef struct {
    char name[33];                    // NUL-terminated copies of the 32-byte fields
    char animname[33];
    int width, height;                // mip 0
    int32_t flags, contents, value;
    uint8_t *pixels;                  // the four mips, one after another (malloc'd)
    size_t offsets[WAL_MIPLEVELS];    // into pixels
    size_t pixels_size;
} wal_t;

// Returns 0, or -1 with "offset N: expected ..." in err (*w zeroed: nothing to free).
int wal_load(wal_t *w, const uint8_t *data, size_t size, char *err, size_t errcap);
void wal_free(wal_t *w);

#endif
