// fs_data.h -- for the Forsaken tests (test_forsaken_level.c, _models.c, _light.c, _fx.c,
// _hud.c, and fs_scene.h's spot-effect tests): files of the shared Forsaken data, a level
// loaded into a level drawer, and a level's first start position.
// Include after testutil.h, engine/vfs.h and render/r_fsworld.h (and formats/decoder.h and
// render/r_fsent.h for fs_play_*).
// static inline: a test may leave some of them unused.
#ifndef FS_DATA_H
#define FS_DATA_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Pixels of two w x h frames (rows `pitch` bytes apart) that differ inside the screen box
// [x0, x1) x [y0, y1), and (*outside) outside it.
static inline int fs_differ_in_box(const uint8_t *a, const uint8_t *b, int w, int h, int pitch, float x0, float y0,
                                   float x1, float y1, int *outside)
{
    int in = 0, out = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int d = a[y * pitch + x] != b[y * pitch + x];
            if (x >= x0 && x < x1 && y >= y0 && y < y1)
                in += d;
            else
                out += d;
        }
    *outside = out;
    return in;
}

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
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s shot %s --basedir %s/forsaken --at %.3f -o %s 2>&1", tu_bin(), demo, tu_data_dir(), at,
             png);
    int status = -1;
    char *out = tu_run(cmd, &status);
    if (status != 0)
        fail_msg("%s: %s", cmd, out ? out : "");
    free(out);
}

#if defined(R_FSENT_H) && defined(DECODER_H)
extern const decoder_t fs_decoder;

// A demo file decoded in-process, with an entity drawer beside it (loaded without a level: no
// walls) when `with_entities`; fs_play_frame reads a frame and gives it to the drawer.
typedef struct {
    uint8_t *data;
    void *st;
    world_t *w;
    r_fsent_t *fe;
    dec_error_t err;
} fs_play_t;

static inline void fs_play_open(fs_play_t *p, const char *path, int with_entities)
{
    memset(p, 0, sizeof *p);
    size_t size;
    p->data = tu_read(path, &size);
    assert_non_null(p->data);
    p->st = calloc(1, fs_decoder.state_size);
    p->w = world_create();
    assert_non_null(p->st);
    assert_non_null(p->w);
    dec_opts_t o = { 0 };
    assert_int_equal(fs_decoder.open(p->st, p->data, size, p->w, &o, &p->err), 0);
    if (with_entities) {
        p->fe = r_fsent_create();
        asset_files_t files = { fs_file, NULL };
        r_fsent_load(p->fe, &files, tu_palette(), NULL);
    }
}

static inline int fs_play_frame(fs_play_t *p)
{
    if (fs_decoder.read_frame(p->st, p->w, &p->err) <= 0)
        return 0;
    if (p->fe)
        r_fsent_frame(p->fe, p->w);
    return 1;
}

static inline void fs_play_close(fs_play_t *p)
{
    r_fsent_destroy(p->fe);
    fs_decoder.close(p->st);
    world_free(p->w);
    free(p->st);
    free(p->data);
}
#endif

#endif
