// md2.h -- Quake II alias models (.md2, "IDP2" version 8), loaded into the alias model form mdl_t
//
//     mdl_t m;
//     char err[128];
//     asset_files_t files = {load_fn, ctx};          // for the PCX skins; NULL: plain skins
//     if (md2_load(&m, bytes, size, &files, err, sizeof err) < 0) puts(err);
//     ... draw it as any mdl_t (mdl_pose, mdl_pose_verts, mdl_skin) ...
//     mdl_free(&m);
//
// What differs from an MDL, and how it is bridged:
// - each frame has its own scale and translate: kept per pose in m->pose_xform
//   (6 floats a pose), so no precision is lost; m->scale / m->translate hold
//   frame 0's for code that looks at one pose only;
// - texture coordinates belong to triangle corners: a vertex used with two
//   different (s, t) pairs becomes two vertices (no onseam, every triangle
//   faces front);
// - the triangles wind as MDL's do (checked on the soldier and the view weapons:
//   reversed, they draw inside out);
// - skins are PCX files named in the header, fetched through `files` and fitted
//   to the header's skin size; a missing or broken one (or a model with none)
//   gets a plain grey skin. Quake II's palette is the one the PCX indices use.
// Errors read "offset N: expected ...".
#ifndef MD2_H
#define MD2_H

#include <stddef.h>
#include <stdint.h>

#include "asset.h"
#include "mdl.h"

// The game's own limits (qfiles.h); a file past them is refused.
#define MD2_MAX_SKINS  32
#define MD2_MAX_XYZ    2048
#define MD2_MAX_ST     8192
#define MD2_MAX_TRIS   4096
#define MD2_MAX_FRAMES 512
#define MD2_MAX_SKIN_DIM 1024   // the game allows 480 lines; a little room for mods

// Returns 0, or -1 with "offset N: expected ..." in err (and *m zeroed).
int md2_load(mdl_t *m, const uint8_t *data, size_t size, const asset_files_t *files, char *err, size_t errcap);

// A PCX file's picture fitted (nearest texel) into a w x h skin at dst: player
// skins come apart from their model. Returns 0, or -1 (dst untouched) when it is no PCX.
int md2_skin_from_pcx(uint8_t *dst, int w, int h, const uint8_t *pcx, size_t size);

#endif
