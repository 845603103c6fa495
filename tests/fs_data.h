// fs_data.h -- for the Forsaken tests (test_forsaken_level.c, _models.c, _light.c, _fx.c,
// _hud.c): files of the shared Forsaken data, a level
// loaded into a level drawer, and a level's first start position.
// Include after testutil.h, engine/vfs.h and render/r_fsworld.h.
// static inline: a test may leave some of them unused.
#ifndef FS_DATA_H
#define FS_DATA_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Files under the Forsaken data folder, names matched ignoring case (the data mixes both);
// an asset_files_t reader.
static inline uint8_t *fs_file(void *ctx, const char *path, size_t *size)
{
    (void)ctx;
    char rel[512];
    snprintf(rel, sizeof rel, "%s/forsaken/Data/%s", tu_data_dir(), path);
    char *real = vfs_resolve_path(rel);
    uint8_t *d = real ? tu_read(real, size) : NULL;
    free(real);
    return d;
}

// A level's mesh file (levels/NAME/NAME.mxv); its path in map.
static inline uint8_t *fs_level_bytes(const char *level, size_t *size, char *map, size_t mapcap)
{
    snprintf(map, mapcap, "levels/%s/%s.mxv", level, level);
    return fs_file(NULL, map, size);
}

// The level loaded into a level drawer (the test fails when it does not load).
static inline r_fsworld_t *fs_load_level(const char *level)
{
    size_t size;
    char map[128], err[256] = "";
    uint8_t *d = fs_level_bytes(level, &size, map, sizeof map);
    assert_non_null(d);
    asset_files_t files = { fs_file, NULL };
    r_fsworld_t *fw = r_fsworld_from_bytes(d, size, map, &files, err, sizeof err);
    if (!fw)
        fail_msg("%s", err);
    free(d);
    return fw;
}

// The level's first start position (NAME.STP: "PRJX", u32 version, u16 count, 40-byte records
// of f32 position[3], direction[3], up[3], u32 group) as a position and pitch / yaw.
static inline int fs_start_pos(const char *level, float org[3], float ang[3])
{
    char path[128];
    snprintf(path, sizeof path, "levels/%s/%s.stp", level, level);
    size_t size;
    uint8_t *d = fs_file(NULL, path, &size);
    if (!d || size < 10 + 40 || memcmp(d, "PRJX", 4)) {
        free(d);
        return -1;
    }
    float f[9];
    memcpy(f, d + 10, sizeof f);
    free(d);
    memcpy(org, f, 12);
    ang[0] = (float)(asin(-f[4]) * 180 / M_PI);
    ang[1] = (float)(atan2(f[3], f[5]) * 180 / M_PI);
    ang[2] = 0;
    return 0;
}

// `demoplay shot DEMO --at AT -o PNG` on the Forsaken data (the test fails with the command's
// output when it does not succeed).
static inline void fs_shot(const char *demo, double at, const char *png)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s shot %s --basedir %s/forsaken --at %.3f -o %s 2>&1", tu_bin(), demo, tu_data_dir(), at,
             png);
    int status = -1;
    char *out = tu_run(cmd, &status);
    if (status != 0)
        fail_msg("%s: %s", cmd, out ? out : "");
    free(out);
}

#endif
