// studio.h -- GoldSrc studio models (.mdl, "IDST" version 10): bounded loader, skeletal pose, flat triangle lists
//
//     studio_t m;
//     char err[160];
//     if (studio_load(&m, bytes, size, "models/scientist.mdl", &files, palette, err, sizeof err) < 0) puts(err);
//     studio_pose_t p;
//     studio_pose_alloc(&m, &p);                         // once, at load: the pose never allocates
//     studio_pose(&m, &p, seq, frame, blend, ctl, body); // bones, then the chosen body's vertices
//     for each body part b: sm = studio_body_model(&m, b, body); for each mesh of sm:
//         texture studio_skin_texture(&m, skin, mesh->skinref), corners m.corners[mesh->first ...], 3 a triangle
//     studio_pose_free(&p); studio_free(&m);
//
// Animation stays in the file's run-length form (copied, and every run of
// every channel checked at load, so a pose walks only checked bytes).
// Sequences of group n > 0 come from "<name>0n.mdl", textures of a model that
// has none from "<name>t.mdl", both through `files`; a missing group file
// leaves its sequences at the reference pose. Texture pixels are mapped to
// the given 768-byte palette (nearest colour, searched over 0..254); masked
// textures (STUDIO_NF_MASKED) keep 255 as transparent. Errors read
// "NAME: offset N: expected ...".
#ifndef STUDIO_H
#define STUDIO_H

#include <stddef.h>
#include <stdint.h>

#include "asset.h"
#include "pal.h"

// Sanity caps (the engine's own limits or far above them); they only bound allocation.
#define STUDIO_MAX_BONES 128
#define STUDIO_MAX_SEQS 2048
#define STUDIO_MAX_GROUPS 64
#define STUDIO_MAX_BLENDS 16
#define STUDIO_MAX_FRAMES 65536
#define STUDIO_MAX_TEXTURES 256
#define STUDIO_MAX_TEX_DIM 4096
#define STUDIO_MAX_BODYPARTS 32
#define STUDIO_MAX_VERTS 65536
#define STUDIO_MAX_CORNERS (1 << 22)

enum {   // texture flags
    STUDIO_NF_FLATSHADE = 1, STUDIO_NF_CHROME = 2, STUDIO_NF_FULLBRIGHT = 4,
    STUDIO_NF_ADDITIVE = 32, STUDIO_NF_MASKED = 64
};
enum {   // motion / controller types
    STUDIO_X = 1, STUDIO_Y = 2, STUDIO_Z = 4, STUDIO_XR = 8, STUDIO_YR = 16, STUDIO_ZR = 32,
    STUDIO_RLOOP = 0x8000
};
#define STUDIO_LOOPING 1   // sequence flag

typedef struct {
    char name[33];
    int32_t parent;               // -1 = root
    int32_t flags;
    int32_t controller[6];        // controller index per channel, -1 = none
    float value[6], scale[6];     // x y z, then rotation x y z (radians)
} studio_bone_t;

typedef struct {
    int32_t bone, type;
    float start, end;
    int32_t rest, index;          // index 0..3 = controllers, 4 = mouth
} studio_controller_t;

typedef struct {
    char label[33];
    float fps;
    int32_t flags, activity, actweight;
    int32_t numevents, numframes, numblends;
    int32_t motiontype, motionbone;
    float linearmovement[3];
    float bbmin[3], bbmax[3];
    int32_t blendtype[2];
    float blendstart[2], blendend[2];
    int32_t seqgroup;
    int32_t nextseq;
    int32_t first_chan;           // into chan[]: numblends * numbones * 6 entries, or -1 (no animation: reference pose)
    int32_t first_event;          // into events[]: numevents of them
} studio_seq_t;

// An animation event: at `frame` of its sequence, event number `event` (GoldSrc's client events are
// 5000 and up: 5001/5011/5021/5031 muzzle flashes at attachments 0..3, 5004 a sound) with its
// options text (a sound's name, a flash's type).
typedef struct {
    int32_t frame, event, type;
    char options[65];
} studio_event_t;

typedef struct {
    char name[65];
    int32_t flags, width, height;
    uint8_t *pixels;              // width * height palette indices (the level palette's)
    // GoldSrc's player colours (studio_remap_ranges): for a texture named "DM_Base..." or "remap...",
    // the file's own indices and palette are kept (src, pal; NULL otherwise) and the top colour's
    // range of its palette is remap_lo..remap_mid, the bottom colour's remap_mid + 1..remap_hi
    uint8_t *src, *pal;
    int16_t remap_lo, remap_mid, remap_hi;
} studio_texture_t;

// One corner of a triangle: global vertex and normal indices, texture coordinates in texels.
typedef struct {
    int32_t vert, norm;
    int16_t s, t;
} studio_corner_t;

typedef struct {
    int32_t first, count;         // corners[first .. first + count), 3 a triangle
    int32_t skinref;
} studio_mesh_t;

typedef struct {
    char name[65];
    float radius;
    int32_t first_vert, numverts; // into verts / vert_bone
    int32_t first_norm, numnorms;
    int32_t first_mesh, nummesh;
} studio_submodel_t;

typedef struct {
    char name[65];
    int32_t nummodels, base, first_model;
} studio_bodypart_t;

typedef struct {
    char name[65];
    int32_t length, flags;
    float eye[3], min[3], max[3], bbmin[3], bbmax[3];
    int32_t numbones, numcontrollers, numhitboxes, numseq, numseqgroups;
    int32_t numtextures, numskinref, numskinfamilies, numbodyparts, numattachments;
    int32_t numsubmodels, numverts, numnorms, nummeshes, numcorners;

    studio_bone_t *bones;
    studio_controller_t *controllers;
    studio_seq_t *seqs;
    uint8_t *group_loaded;        // numseqgroups: 1 when its animation is present
    studio_texture_t *textures;
    int16_t *skinrefs;            // numskinfamilies * numskinref, each < numtextures
    studio_bodypart_t *bodyparts;
    studio_submodel_t *submodels;
    studio_mesh_t *meshes;
    studio_corner_t *corners;
    float (*verts)[3];            // reference-pose vertices in their bone's space
    uint8_t *vert_bone;
    float (*norms)[3];
    uint8_t *norm_bone;
    float (*attach)[3];           // numattachments: origin in its bone's space
    int32_t *attach_bone;
    uint8_t *gait_bone;           // numbones: 1 for the bones a player's gait sequence moves (the legs:
                                  // from the start, and again after each child of "Bip01 Pelvis", up to "Bip01 Spine")

    // animation: per sequence, blend, bone and channel, the start of its value run list
    // in anim (an index of 16-bit values), or -1 when the channel does not move
    int32_t *chan;
    int32_t numchan;
    uint16_t *anim;
    int32_t numanim;
    uint8_t default_ctl[5];       // controller settings that give no adjustment (4 = mouth)
    studio_event_t *events;       // every sequence's events, each sequence's together (first_event)
    int32_t numevents;
} studio_t;

// Caller-owned pose buffers, sized for one model by studio_pose_alloc.
typedef struct {
    float (*bones)[3][4];         // numbones: bone -> model space (rotation | translation)
    float (*verts)[3];            // numverts, model space (those of the chosen body)
    float (*norms)[3];            // numnorms, model space, unit length
    float (*pos)[3];              // scratch: numbones * 5 (four blends, a gait)
    float (*quat)[4];             // scratch: numbones * 5
    int32_t cap_bones, cap_verts, cap_norms;
} studio_pose_t;

// Decode `size` bytes; `path` names the file (for errors and the companion files
// read through `files`, which may be NULL); `palette` is 768 bytes, or NULL for a
// grey ramp. Returns 0, or -1 with "NAME: offset N: expected ..." in err and *m
// zeroed.
int studio_load(studio_t *m, const uint8_t *data, size_t size, const char *path, const asset_files_t *files,
                const uint8_t *palette, char *err, size_t errcap);
void studio_free(studio_t *m);

int studio_pose_alloc(const studio_t *m, studio_pose_t *p);
void studio_pose_free(studio_pose_t *p);
// Pose sequence `seq` (out of range: 0) at `frame` (clamped to the sequence,
// fractions blend neighbouring frames), `blend` 0..255 between the first two
// blends, controllers ctl[0..3] and the mouth ctl[4] as the engine sends them
// (0..255; NULL: m->default_ctl), and transform the vertices of body `body`.
void studio_pose(const studio_t *m, studio_pose_t *p, int seq, float frame, float blend, const uint8_t *ctl, int body);
// Everything that poses a model, as the game's renderer takes it from an entity.
typedef struct {
    int seq;                      // out of range: 0
    float frame;                  // in the sequence's frames (studio_frame)
    float blend[2];               // 0..255: blend[0] between blends 0|1 (and 2|3), blend[1] between those pairs
    const uint8_t *ctl;           // controllers 0..3 and the mouth [4], 0..255 as sent; NULL: m->default_ctl
    int body;
    int gaitseq;                  // > 0: the gait bones (gait_bone) play this sequence at gaitframe
    float gaitframe;
} studio_anim_t;
void studio_pose_anim(const studio_t *m, studio_pose_t *p, const studio_anim_t *a);
// Attachment `n` in model space after a pose (0 and -1 when the model has no attachment n).
int studio_attachment(const studio_t *m, const studio_pose_t *p, int n, float out[3]);
// The adjustment controller `i` of the model gives its bones for the setting `value` (0..255; the
// mouth's 0..64): degrees for rotations, units for moves, as the game's CalcBoneAdj computes it.
float studio_controller_value(const studio_t *m, int i, int value);
// The submodel body part `part` shows for body number `body`.
const studio_submodel_t *studio_body_model(const studio_t *m, int part, int body);
// The texture a mesh's skinref names in skin family `skin` (out of range: 0); NULL when the model has no textures.
const studio_texture_t *studio_skin_texture(const studio_t *m, int skin, int skinref);
// GoldSrc's frame of a sequence: entity frame byte (0..255 of the sequence) plus
// elapsed seconds * framerate * fps; looping sequences wrap, others clamp.
float studio_frame(const studio_t *m, int seq, float frame_byte, double elapsed, float framerate);
// The events of sequence `seq` that a frame moving from `from` to `to` passes: frame in (from, to]
// (the engine's StudioClientEvents; a sequence that has just begun starts from below 0). At most
// max pointers into m->events, in the file's order; their count.
int studio_events_between(const studio_t *m, int seq, float from, float to, const studio_event_t **out, int max);

// ---- player colours (GoldSrc's remap textures) -----------------------------------------
//
// The palette ranges a texture's name gives (Xash3D R_StudioLoadTexture; docs/goldsrc.md): a name
// beginning "DM_Base" (any case) 160..191 and 192..223; "remap" (any case) the numbers at
// characters 7, 11 and 15 (up to 3 digits each, as atoi reads them, each clamped to 0..255).
// Returns 1 for a remap texture (lo, mid, hi set), 0 otherwise.
int studio_remap_ranges(const char *name, int *lo, int *mid, int *hi);
// PaletteHueReplace: entries start..end of a 768-byte palette (clamped to 0..255) keep their value
// (brightest channel) and saturation and take the hue `hue` x 360 / 255 (a black entry stays black).
void studio_hue_replace(uint8_t *pal, int hue, int start, int end);
// The level-palette pixels of remap texture t with the colours top and bottom (userinfo topcolor /
// bottomcolor): its own palette with both ranges hue-replaced, then each colour's nearest level
// colour (as at load; masked textures keep 255). out holds width x height. -1 when t is not one.
int studio_remap_pixels(const studio_texture_t *t, int top, int bottom, const pal_near_t *level, uint8_t *out);

#endif
