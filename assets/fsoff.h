// fsoff.h -- Forsaken's sprite frame layouts (Data/Offsets/*.OFF)
//
// An .OFF file lays out the frames of the game's sprites ("FmPolys": face-me polygons,
// and the trails' polygons) on shared texture pages (Data/Textures/*.bmp). Layout, from
// the game's loader (2dTextures.c Load_Off_File) and its FRAME_INFO structures
// (2dTextures.h), all little-endian:
//
//     s16 page count (at most FSOFF_MAX_PAGES), then that many NUL-terminated page names
//         ("HOOP.PPM": the page is Data/Textures/<name without extension>.bmp)
//     s16 box count, then 24-byte boxes: s16 page index, 2 bytes of padding,
//         f32 u1 v1 u2 v2 (0..1 across the page), s16 width, s16 height (texels)
//     s16 frame count, then 4-byte frames: s16 first part, s16 part count
//     s16 part count, then 6-byte parts: s16 x, s16 y (texels from the sprite's centre,
//         y down), u16 box (the low 12 bits index the boxes; 0x2000 mirrors in x, 0x8000 in y)
//
// A sprite drawn at scale s (world units a texel: the game's FmPoly xsize / ysize) puts
// each part of its frame at (x, y) x s, (width, height) x s in size.
//
//     char err[256];
//     fsoff_t *o = fsoff_load(bytes, size, "PULSAR.OFF", err, sizeof err);   // "PULSAR.OFF: offset N: expected ..."
//     ... o->frames[f] -> o->parts[first .. first + count) -> o->boxes[part.box] ...
//     fsoff_free(o);
//
// Every count is checked against the bytes left before anything is read or allocated,
// every index against what it indexes; errors are "offset N: expected ...".
#ifndef FSOFF_H
#define FSOFF_H

#include <stddef.h>
#include <stdint.h>

#define FSOFF_MAX_PAGES 8        // MAX_NAMES
#define FSOFF_NAME_LEN 32
#define FSOFF_BOX_MASK 0x0fff
#define FSOFF_XFLIP 0x2000
#define FSOFF_YFLIP 0x8000

typedef struct {
    int page;                    // index into pages
    float u1, v1, u2, v2;        // 0..1 across the page (a few reach a texel past: -1..2 accepted)
    int width, height;           // texels
} fsoff_box_t;

typedef struct {
    int first, count;            // parts
} fsoff_frame_t;

typedef struct {
    int x, y;                    // texels from the sprite's centre (y down)
    int box;                     // index into boxes
    int xflip, yflip;
} fsoff_part_t;

typedef struct {
    int num_pages;
    char pages[FSOFF_MAX_PAGES][FSOFF_NAME_LEN];
    int num_boxes, num_frames, num_parts;
    fsoff_box_t *boxes;
    fsoff_frame_t *frames;
    fsoff_part_t *parts;
    size_t end;                  // bytes read
} fsoff_t;

fsoff_t *fsoff_load(const uint8_t *d, size_t n, const char *name, char *err, size_t cap);
void fsoff_free(fsoff_t *o);

// The page file for a page name: "HOOP.PPM" -> "hoop.bmp" (lower case, .bmp), into out.
const char *fsoff_page_file(const char *page, char *out, size_t cap);

#endif
