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

#include "../assets/fstex.h"
#include "../assets/mxv.h"
#include "../engine/vfs.h"
#include "r_fstri.h"
#include "r_view.h"

typedef struct r_fsworld_s r_fsworld_t;

// A moving light on the level's vertices (the game's XLIGHT, Lights.c): every frame each
// vertex of a group the light's box reaches gets, per channel, rgb x (1 - d^2 / size^2)
// added to its baked colour (saturating at 255) when nearer than `size`; a spot light
// only inside its cone (XLight1Group's SPOT_LIGHT rule, docs/forsaken.md).
#define R_FS_MAX_LIGHTS 256        // MAXXLIGHTS
typedef struct {
    float org[3];
    float size;                    // radius in level units
    float rgb[3];                  // added at the centre, 0..255 a channel
    int spot;                      // 1: a spot light along dir
    float dir[3];                  // spot: unit direction
    float cos_arc;                 // spot: cosine of the cone's half angle
} r_fslight_t;

typedef struct {
    int eye_groups;        // groups whose box holds the eye (0: all drawn)
    int groups_visible;    // groups drawn
    int tris_considered;   // triangles of those groups
    int tris_drawn;        // of which facing the eye and in front of it
    int lights;            // moving lights given
    int verts_lit;         // vertices some light reached
    int polys_animated;    // texture-animated polygons of the drawn groups (set to their frame)
} r_fsworld_stats_t;

// Load the level mesh at `map` (a VFS path) and its textures (from the map's
// folder's textures/ and the shared textures/). NULL with a message on failure.
r_fsworld_t *r_fsworld_load(vfs_t *fs, const char *map, char *err, size_t errcap);
// The same from bytes already read (tests, fuzzing); `files` finds the textures (may be NULL).
r_fsworld_t *r_fsworld_from_bytes(const uint8_t *data, size_t size, const char *map, const asset_files_t *files, char *err,
                                  size_t errcap);
void r_fsworld_free(r_fsworld_t *fw);
const mxv_t *r_fsworld_mesh(const r_fsworld_t *fw);
const uint8_t *r_fsworld_palette(const r_fsworld_t *fw);
// Draw the groups seen from the eye through the portals (r_fsworld_find_visible): their
// triangles facing the camera, z-tested and written (1/z) into v->zbuffer; then the
// see-through buffers (MXV_TRANSPARENT) added onto the picture, z-tested, not written.
// Returns the number of triangles drawn.
int r_fsworld_draw(r_fsworld_t *fw, const r_view_t *v);
// The game's culling (visi.c): from the eye's group, through each portal whose plane
// faces the eye and whose corners are on screen, the groups of its tree, each within
// the screen rectangle of the portals before it. The eye's groups are those whose box
// (centre +- half size) holds it; none (or no portals, or culling off): every group.
// Returns the number of groups visible; r_fsworld_group_visible tells which.
int r_fsworld_find_visible(r_fsworld_t *fw, const r_view_t *v);
int r_fsworld_group_visible(const r_fsworld_t *fw, int group);
// Groups whose box holds org (up to max written to groups); returns how many.
int r_fsworld_eye_groups(const r_fsworld_t *fw, const float org[3], int *groups, int max);
typedef enum {
    R_FS_CULL_NONE,      // every group drawn (for comparisons)
    R_FS_CULL_PORTALS,   // the game's culling (the default)
    R_FS_CULL_TREE,      // every group of the eye groups' trees, no screen tests (for comparisons)
} r_fs_cull_t;
void r_fsworld_set_culling(r_fsworld_t *fw, r_fs_cull_t mode);
// See-through buffers added (default) or drawn opaque like the rest (for comparisons).
void r_fsworld_set_see_through(r_fsworld_t *fw, int on);
// The textures' colour key (black texels of textures whose palette starts with black not
// drawn, the game's Tload.c; default) or every texel drawn (for comparisons).
void r_fsworld_set_colour_key(r_fsworld_t *fw, int on);
// Coloured light from the vertex colours (default) or their brightness only (for comparisons).
void r_fsworld_set_tint(r_fsworld_t *fw, int on);
// The coloured light's ordered dither (default) or each pixel's nearest colour (for comparisons).
void r_fsworld_set_dither(r_fsworld_t *fw, int on);
// The level's texture animations (assets/fstex.h, the .MXV's tail) played at the view's time
// (r_view_t.time, the demo's: default) or the file's texture coordinates (for comparisons).
void r_fsworld_set_texanim(r_fsworld_t *fw, int on);
// The level's texture animations (NULL: none, or its tail was refused and warned).
const fstex_t *r_fsworld_texanims(const r_fsworld_t *fw);
// Index entry `entry`'s polygon (the triggers' events 8 / 9) shows its script's frame at `secs`
// of the script's own time from now on; secs < 0: back to the file's own (running from the
// demo's start, or frame 0 when the index says stopped).
void r_fsworld_set_texanim_clock(r_fsworld_t *fw, int entry, double secs);
// The level's shading tables for model triangles (r_fstri.h); valid while fw lives.
const r_fsshade_t *r_fsworld_shade(const r_fsworld_t *fw);
// The moving lights of the next r_fsworld_draw (copied into a fixed pool, at most
// R_FS_MAX_LIGHTS; n 0: the baked light alone). Lights with a non-finite position or size,
// or size <= 0, are left out.
void r_fsworld_set_lights(r_fsworld_t *fw, const r_fslight_t *lights, int n);
// The lights the last r_fsworld_draw kept for its eye (the game's BuildVisibleLightList: those
// whose group and the eye's group see a group in common; bad ones left out, spots' directions
// unit), for the models drawn after it; valid until the next draw.
int r_fsworld_lights(const r_fsworld_t *fw, const r_fslight_t **out);
// The colour vertex i of the mesh had in the last r_fsworld_draw (its baked colour when no
// light reached it or its group was not drawn); 0 when i is out of range.
int r_fsworld_vertex_light(const r_fsworld_t *fw, int i, uint8_t rgb[3]);
// The light one r_fslight_t adds at a point (per channel, before saturation), for tests.
void r_fslight_at(const r_fslight_t *l, const float p[3], float out[3]);
// Counts from the last r_fsworld_draw.
r_fsworld_stats_t r_fsworld_stats(const r_fsworld_t *fw);
// Forsaken's orientation (formats/forsaken_parse.c: R = Ry(yaw) Rx(pitch) Rz(roll),
// pitch positive nose down) as forward, right and up vectors in level axes.
void r_fs_angle_vectors(const float angles[3], float forward[3], float right[3], float up[3]);

#endif
