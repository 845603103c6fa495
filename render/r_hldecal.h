// r_hldecal.h -- Half-Life's decals: bullet holes, blood, scorch marks and sprays pasted into
// the surface cache, as GoldSrc's software renderer does
//
// Once a level (r_load_level for GoldSrc levels): decals.wad and tempdecal.wad are read and
// the map's infodecal entities placed. Once a decoded frame (r_frame): the new entries of the
// world's decal log (world->decal_log, which the decoder fills): the decal temp
// entities (TE_BSPDECAL, TE_DECAL, TE_DECALHIGH, TE_WORLDDECAL, TE_WORLDDECALHIGH,
// TE_GUNSHOTDECAL, TE_PLAYERDECAL) and the bullets of the weapons' client events (traced from
// the gun along the event's angles by engine/hlbullet.c, which the sound system shares; a
// "{shot1".."{shot5" where each hits, as the SDK's ev_hldm.cpp does). A decal belongs to the faces its square overlaps, in each face's texture
// space; r_surf.c calls r_hldecal_surface (through r->surf_overlay) when it builds a face's
// surface, which blends the decals over the lit texels. A fixed pool of HLDECAL_MAX decals,
// the oldest reused; a new decal drops the cached surfaces of the faces it lands on.
#ifndef R_HLDECAL_H
#define R_HLDECAL_H

#include "../engine/vfs.h"
#include "../engine/world.h"
#include "r_local.h"

#define HLDECAL_MAX 4096        // decals on surfaces at once (Xash3D's MAX_RENDER_DECALS; see docs/goldsrc.md)
#define HLDECAL_MAX_TEX 256     // distinct decal pictures a level uses

typedef struct r_hldecal_s r_hldecal_t;


// For a GoldSrc level (r->bsp set): reads the decal WADs through fs and places the map's
// infodecals. Other games: frees what a GoldSrc level left.
void r_hldecal_load_level(renderer_t *r, vfs_t *fs, const world_t *w);
void r_hldecal_free(renderer_t *r);
// The world's new decal log entries: decal temp entities and weapon events.
void r_hldecal_frame(renderer_t *r, const world_t *w);
// After a seek: the demo's decals go, and the next frame places the world's log again.
void r_hldecal_clear(renderer_t *r, int from_start);
// Place decal `name` (a lump of the decal WADs) at pos on the brush model `model` (0: the
// world) whose entity stands at org (NULL: the world's origin). permanent: 0 the demo's,
// 1 the level's own (TE_BSPDECAL: never reused), 2 the map's (infodecal: also kept over
// seeks). Returns the number of faces it landed on, 0 when it hit none, -1 when the name
// is not in the WADs.
int r_hldecal_place(renderer_t *r, const char *name, const vec3_t pos, int model, const float *org, double time,
                    int permanent);
// The surface hook: blend the decals of the face into its freshly built surface at mip.
void r_hldecal_surface(renderer_t *r, const r_surfctx_t *ctx, uint8_t *pixels, int width, int height, int mip);
// For tests and info: decals in the pool, decal pictures loaded.
int r_hldecal_count(const renderer_t *r);
int r_hldecal_textures(const renderer_t *r);

#endif
