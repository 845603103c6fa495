// sp2.h -- Quake II sprites (.sp2, "IDS2" version 2), loaded into the sprite form spr_t
//
//     spr_t s;
//     asset_files_t files = {load_fn, ctx};          // for the frames' PCX images
//     if (sp2_load(&s, bytes, size, &files, err, sizeof err) < 0) puts(err);
//     const spr_image_t *im = spr_image(&s, frame % s.numframes, time);
//     spr_free(&s);
//
// An SP2 file holds only the frame list (size, origin, PCX name); the images
// come through `files`. A frame whose image is missing or broken, or of another
// size than the file says, gets a transparent image of the stated size, so
// frame numbers and sizes always follow the file. Colour 255 is transparent, as
// in Quake. Quake II measures a frame's origin from its lower-left corner with
// y up; it is converted to Quake's upper-left form (spr.h). Every Quake II
// sprite faces the view plane: type SPR_VP_PARALLEL, no groups.
// Errors read "offset N: expected ...".
#ifndef SP2_H
#define SP2_H

#include <stddef.h>
#include <stdint.h>

#include "asset.h"
#include "spr.h"

#define SP2_MAX_FRAMES 32       // the game's MAX_MD2SKINS, which it uses for sprites too
#define SP2_MAX_DIM 1024
#define SP2_MAX_PIXELS (4 << 20)  // all frames together; the game's largest has 213k

// Returns 0, or -1 with "offset N: expected ..." in err (*s zeroed).
int sp2_load(spr_t *s, const uint8_t *data, size_t size, const asset_files_t *files, char *err, size_t errcap);

#endif
