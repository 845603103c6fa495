// spr.h -- Quake and Half-Life sprites (.spr, "IDSP" version 1 and 2): bounded loader and frame selection
//
//     spr_t s;
//     if (spr_load(&s, bytes, size, err, sizeof err) < 0) puts(err);
//     const spr_image_t *im = spr_image(&s, frame, time);   // groups animate by time
//     // im->width x im->height palette indices at s.pixels + im->offset; 255 = transparent
//     spr_free(&s);
//
// Half-Life sprites (version 2) add a texture format after the type and their
// own palette (a 16-bit colour count, then count RGB triples) before the frames;
// s.has_palette is then 1 and s.palette holds it (unused entries black).
//
// The image's origin_x / origin_y place its upper-left corner relative to the
// entity origin: x to the right, y up (Quake's convention).
#ifndef SPR_H
#define SPR_H

#include <stddef.h>
#include <stdint.h>

// Orientation types (header `type`).
enum {
    SPR_VP_PARALLEL_UPRIGHT = 0,  // faces the view plane, stays upright
    SPR_FACING_UPRIGHT = 1,       // faces the viewer's position, stays upright
    SPR_VP_PARALLEL = 2,          // faces the view plane (explosions)
    SPR_ORIENTED = 3,             // oriented by the entity's angles
    SPR_VP_PARALLEL_ORIENTED = 4  // faces the view plane, rolled by the entity's roll
};

// Half-Life texture formats (header `texformat`, version 2): how pixels are blended.
enum {
    SPR_TEX_NORMAL = 0,       // opaque
    SPR_TEX_ADDITIVE = 1,     // added to the screen: black shows nothing
    SPR_TEX_INDEXALPHA = 2,   // the index is the alpha of the palette's last colour
    SPR_TEX_ALPHATEST = 3     // index 255 is transparent
};

#define SPR_MAX_FRAMES 4096
#define SPR_MAX_DIM 4096

typedef struct {
    int32_t width, height;
    int32_t origin_x, origin_y;
    size_t offset;            // into pixels
} spr_image_t;

typedef struct {
    int32_t first, count;     // images
    int32_t first_interval;   // -1 for a single frame
} spr_frame_t;

typedef struct {
    int32_t version;          // 1 Quake, 2 Half-Life
    int32_t type;
    int32_t texformat;        // SPR_TEX_* (version 1: SPR_TEX_ALPHATEST, Quake's rule)
    int has_palette;          // version 2: palette below is the sprite's own
    uint8_t palette[768];
    float radius;
    int32_t width, height, numframes;
    float beamlength;
    int32_t synctype;
    spr_frame_t *frames;
    spr_image_t *images;
    int32_t num_images;
    float *intervals;         // cumulative end times within each group
    int32_t num_intervals;
    uint8_t *pixels;
    size_t pixels_size;
} spr_t;

// Returns 0, or -1 with "offset N: expected ..." in err (*s zeroed).
int spr_load(spr_t *s, const uint8_t *data, size_t size, char *err, size_t errcap);
void spr_free(spr_t *s);
// Replace every pixel p by map[p] (e.g. from the sprite's own palette to a level's).
void spr_remap(spr_t *s, const uint8_t map[256]);
// Image of frame `frame` at `time`; out-of-range frames use frame 0.
const spr_image_t *spr_image(const spr_t *s, int frame, double time);

#endif
