// wad.h -- WAD2 / WAD3 archives (gfx.wad, halflife.wad) and 2D pictures (LMP, qpic lumps, raw lumps)
//
//     wad_t wad;
//     char err[128];
//     if (wad_open(&wad, bytes, size, err, sizeof err) < 0) ... // bytes stay owned by the caller
//     const wad_lump_t *l = wad_find(&wad, "sbar");             // case-insensitive
//     wad_pic_t pic;
//     wad_lump_pic(&wad, l, &pic, err, sizeof err);             // malloc'd pixels: wad_pic_free()
//     wad_close(&wad);
//
// The directory layout is the same in WAD2 (Quake) and WAD3 (GoldSrc): a
// 12-byte header (magic, lump count, directory offset) and 32-byte entries
// (offset, disk size, size, type, compression, 2 pad bytes, 16-byte name).
// Every entry is checked against the file size when the WAD is opened, so a
// lump's bytes can then be used without further checks. Pictures differ:
// a WAD2 qpic is width, height, pixels in the game palette; a WAD3 qpic adds
// its own palette after the pixels (kept in wad_pic_t.palette).
// Colour 255 is transparent in pictures drawn as "trans" pics (Quake's rule).
#ifndef WAD_H
#define WAD_H

#include <stddef.h>
#include <stdint.h>

#define WAD_NAME_LEN 16
#define WAD_MAX_LUMPS 65536
#define WAD_MAX_PIC_SIDE 4096

enum { WAD_KIND_WAD2 = 2, WAD_KIND_WAD3 = 3 };

// Lump types (the type byte of a directory entry).
enum {
    WAD_TYP_PALETTE = 0x40,
    WAD_TYP_QTEX = 0x41,
    WAD_TYP_QPIC = 0x42,
    WAD_TYP_SOUND = 0x43,
    WAD_TYP_MIPTEX = 0x44,   // Quake's conchars is stored with this type but is a raw 128x128 block
    WAD_TYP_FONT = 0x46      // WAD3 fonts
};

typedef struct {
    char name[WAD_NAME_LEN + 1];   // NUL-terminated, as stored (case kept)
    uint32_t offset, disksize, size;
    uint8_t type, compression;
} wad_lump_t;

typedef struct {
    int kind;                 // WAD_KIND_WAD2 / WAD_KIND_WAD3
    int num_lumps;
    wad_lump_t *lumps;        // malloc'd directory copy
    const uint8_t *data;      // the caller's bytes (not owned)
    size_t size;
} wad_t;

typedef struct {
    int width, height;
    uint8_t *pixels;          // width*height palette indices (malloc'd)
    uint8_t *palette;         // 768 bytes for WAD3 pictures, else NULL
} wad_pic_t;

// Parse the directory. Returns 0, or -1 with "offset N: expected ..." in err.
int wad_open(wad_t *w, const uint8_t *data, size_t size, char *err, size_t errcap);
void wad_close(wad_t *w);
// Find a lump by name, ignoring case (LibreQuake's gfx.wad has upper-case names).
const wad_lump_t *wad_find(const wad_t *w, const char *name);
// The bytes of a lump (bounds were checked by wad_open). NULL for compressed lumps.
const uint8_t *wad_lump_data(const wad_t *w, const wad_lump_t *l, size_t *size);
// Decode a qpic lump (WAD2, or WAD3 with its palette). 0 or -1 with a message.
int wad_lump_pic(const wad_t *w, const wad_lump_t *l, wad_pic_t *pic, char *err, size_t errcap);

// A WAD3 miptex lump (GoldSrc textures and decals): name[16], width, height, four mip
// offsets from the lump's start, the mips, a 16-bit colour count and the palette. Nothing
// is copied: the pointers are into the WAD's bytes.
typedef struct {
    int width, height;                 // mip 0; 1..WAD_MAX_MIPTEX_SIDE
    const uint8_t *mips[4];            // (width >> m) x (height >> m) palette indices each
    const uint8_t *palette;            // colours x 3 bytes
    int colours;                       // 1..256
} wad_miptex_t;
#define WAD_MAX_MIPTEX_SIDE 1024
// 0, or -1 with "offset N: expected ..." in err (N a file offset).
int wad_lump_miptex(const wad_t *w, const wad_lump_t *l, wad_miptex_t *mt, char *err, size_t errcap);

// A Quake .lmp picture file: int32 width, int32 height, width*height bytes.
int wad_pic_from_lmp(wad_pic_t *pic, const uint8_t *data, size_t size, char *err, size_t errcap);
// A headerless block of width*height bytes (Quake's conchars lump).
int wad_pic_from_raw(wad_pic_t *pic, const uint8_t *data, size_t size, int width, int height,
                     char *err, size_t errcap);
void wad_pic_free(wad_pic_t *pic);

#endif
