// mdl.h -- Quake alias models (.mdl, "IDPO" version 6): bounded loader and frame/skin selection
//
//     mdl_t m;
//     char err[128];
//     if (mdl_load(&m, bytes, size, err, sizeof err) < 0) puts(err);
//     int pose = mdl_pose(&m, frame, time);          // frame groups animate by time
//     const mdl_vert_t *v = mdl_pose_verts(&m, pose);  // m.numverts of them
//     const uint8_t *skin = mdl_skin(&m, skinnum, time);
//     mdl_free(&m);
//
// A model is decoded once into flat arrays: every pose of every frame (a
// single frame is a group of one pose), every image of every skin (likewise),
// and the cumulative end times of group members. Vertex positions stay in the
// packed byte form (v * scale + translate gives model space); `normal`
// indexes mdl_anorms. Errors read "offset N: expected ...".
#ifndef MDL_H
#define MDL_H

#include <stddef.h>
#include <stdint.h>

#define MDL_NUM_NORMALS 162
extern const float mdl_anorms[MDL_NUM_NORMALS][3];
// Index of the normal in mdl_anorms closest to the direction n.
int mdl_nearest_normal(const float n[3]);

// Model flags (header `flags`): trails and rotation.
enum {
    MDL_EF_ROCKET = 1,    // fire trail + light
    MDL_EF_GRENADE = 2,   // smoke trail
    MDL_EF_GIB = 4,       // blood trail
    MDL_EF_ROTATE = 8,    // pickup spinning about z
    MDL_EF_TRACER = 16,   // green split trail (wizard spit)
    MDL_EF_ZOMGIB = 32,   // small blood trail
    MDL_EF_TRACER2 = 64,  // orange split trail (hellknight)
    MDL_EF_TRACER3 = 128  // purple trail (vore)
};

// Sanity caps, far above every shipped model; they only bound allocation.
#define MDL_MAX_VERTS  8192
#define MDL_MAX_TRIS   16384
#define MDL_MAX_FRAMES 4096
#define MDL_MAX_SKINS  512
#define MDL_MAX_SKIN_DIM 4096

typedef struct { uint8_t v[3], normal; } mdl_vert_t;
typedef struct { int32_t onseam, s, t; } mdl_stvert_t;
typedef struct { int32_t facesfront, v[3]; } mdl_tri_t;

typedef struct {
    int32_t first;        // first pose (frames) / first image (skins)
    int32_t count;        // poses or images in the group (1 = single)
    int32_t first_interval; // index into intervals[] (groups only, count entries)
    char name[17];        // frames only
} mdl_group_t;

typedef struct {
    float scale[3], translate[3];
    float radius;
    float eye[3];
    int32_t numskins, skinwidth, skinheight;
    int32_t numverts, numtris, numframes;
    int32_t synctype, flags;
    float size;

    mdl_group_t *skins;       // numskins
    uint8_t *skin_pixels;     // num_skin_images * skinwidth * skinheight
    int32_t num_skin_images;
    mdl_stvert_t *st;         // numverts
    mdl_tri_t *tris;          // numtris
    mdl_group_t *frames;      // numframes
    mdl_vert_t *poses;        // num_poses * numverts
    int32_t num_poses;
    float *intervals;         // cumulative end times inside each group
    int32_t num_intervals;
    float mins[3], maxs[3];   // model-space bounds over every pose
    uint8_t *pose_box;        // num_poses x {min[3], max[3]}: each pose's vertices' box in byte units
                              // (MDL; the renderer's choice of Quake's small-model drawing); NULL for MD2
    float *pose_xform;        // NULL: scale/translate above hold for every pose (MDL);
                              // else 6 floats a pose: its own scale[3], translate[3] (MD2)
} mdl_t;

// Decode `size` bytes. Returns 0, or -1 with "offset N: expected ..." in err
// (and *m zeroed: nothing to free).
int mdl_load(mdl_t *m, const uint8_t *data, size_t size, char *err, size_t errcap);
void mdl_free(mdl_t *m);

// Pose index for frame `frame` at `time` (groups cycle by their intervals);
// out-of-range frames use frame 0.
int mdl_pose(const mdl_t *m, int frame, double time);
static inline const mdl_vert_t *mdl_pose_verts(const mdl_t *m, int pose)
{
    return m->poses + (size_t)pose * (size_t)m->numverts;
}
// Skin image for skin number `skin` at `time`; out-of-range skins use skin 0.
const uint8_t *mdl_skin(const mdl_t *m, int skin, double time);

// Which member of a group with cumulative end times `iv[0..n-1]` shows at `time`.
int mdl_group_index(const float *iv, int n, double time);

#endif
