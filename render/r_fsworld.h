// r_fsworld.h -- Forsaken levels: the MXV mesh drawn as textured, Gouraud-lit triangles into the z-buffer
//
//     r_fsworld_t *fw = r_fsworld_load(fs, "levels/ship/ship.mxv", err, sizeof err);
//     pal_set(&pal, r_fsworld_palette(fw), 256);   // the level's own palette
//     r_fsworld_draw(fw, &view);    // every frame, after the buffer and z-buffer are cleared
//     r_fsworld_free(fw);
//
// Forsaken's axes are x right, y up, z forward (left-handed, Direct3D's). The
// view's vpn, vright and vup are the camera's axes in those coordinates
// (r_fs_angle_vectors), so everything else that projects through the view
// (models, particles) works in level coordinates unchanged.
#ifndef R_FSWORLD_H
#define R_FSWORLD_H

#include <stddef.h>

#include "../assets/mxv.h"
#include "../engine/vfs.h"
#include "r_view.h"

typedef struct r_fsworld_s r_fsworld_t;

// Load the level mesh at `map` (a VFS path) and its textures (from the map's
// folder's textures/ and the shared textures/). NULL with a message on failure.
r_fsworld_t *r_fsworld_load(vfs_t *fs, const char *map, char *err, size_t errcap);
// The same from bytes already read (tests, fuzzing); `files` finds the textures (may be NULL).
r_fsworld_t *r_fsworld_from_bytes(const uint8_t *data, size_t size, const char *map, const asset_files_t *files, char *err,
                                  size_t errcap);
void r_fsworld_free(r_fsworld_t *fw);
const mxv_t *r_fsworld_mesh(const r_fsworld_t *fw);
const uint8_t *r_fsworld_palette(const r_fsworld_t *fw);
// Draw every triangle facing the camera, z-tested and written (1/z) into v->zbuffer.
// Returns the number of triangles drawn.
int r_fsworld_draw(r_fsworld_t *fw, const r_view_t *v);
// Forsaken's orientation (formats/forsaken_parse.c: R = Ry(yaw) Rx(pitch) Rz(roll),
// pitch positive nose down) as forward, right and up vectors in level axes.
void r_fs_angle_vectors(const float angles[3], float forward[3], float right[3], float up[3]);

#endif
