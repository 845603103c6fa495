// fs_scene.h -- for the Forsaken spot-effect tests (test_forsaken_spotdraw.c, _spotexpl.c,
// _spotsparks.c, _spotsnd.c): a demo of one pilot holding still on a level, played in-process by
// the player on the shared data, its frames drawn with and without the spot effects; a seek ==
// play check; the level's .FX and .MXV.
// Include after testutil.h (it includes what else it needs, fs_data.h too).
// static inline: a test may leave some of them unused.
#ifndef FS_SCENE_H
#define FS_SCENE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/fsspot.h"
#include "assets/mxv.h"
#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/playback.h"
#include "engine/vfs.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsworld.h"
#include "render/render.h"

#include "fs_data.h"

// The size the scenes are drawn at (r_main's view there: a point x right, y up, z ahead of the eye
// at 160 + 160 x / z across, 100 - 160 / 1.2 y / z down).
enum { FS_SCENE_WIDTH = 320, FS_SCENE_HEIGHT = 200 };

// The pilot's eye, its angles (pitch, yaw, roll in degrees) and their axes (r_fs_angle_vectors).
typedef struct {
    float eye[3], ang[3], fwd[3], right[3], up[3];
} fs_scene_t;

static inline void fs_scene_axes(fs_scene_t *s)
{
    r_fs_angle_vectors(s->ang, s->fwd, s->right, s->up);
}

// The eye at `eye` looking at `look` (no roll).
static inline void fs_scene_look(fs_scene_t *s, const float eye[3], const float look[3])
{
    memcpy(s->eye, eye, sizeof s->eye);
    float d[3] = { look[0] - s->eye[0], look[1] - s->eye[1], look[2] - s->eye[2] };
    float l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    s->ang[0] = (float)(asin(-d[1] / l) * 180 / M_PI);
    s->ang[1] = (float)(atan2(d[0], d[2]) * 180 / M_PI);
    s->ang[2] = 0;
    fs_scene_axes(s);
}

// A point in the eye's axes: v[0] right, v[1] up, v[2] forward (its depth).
static inline void fs_scene_to_view(const fs_scene_t *s, const float p[3], float v[3])
{
    float d[3] = { p[0] - s->eye[0], p[1] - s->eye[1], p[2] - s->eye[2] };
    v[0] = d[0] * s->right[0] + d[1] * s->right[1] + d[2] * s->right[2];
    v[1] = d[0] * s->up[0] + d[1] * s->up[1] + d[2] * s->up[2];
    v[2] = d[0] * s->fwd[0] + d[1] * s->fwd[1] + d[2] * s->fwd[2];
}

// A demo at `path` on `level`: pilot "alice" (player 0) still at `eye` with angles `ang`, a ship
// update every 1/fps s from `first` s on, up to `end` s (fps x end + 1 of them).
static inline void fs_scene_demo(const char *path, const char *level, const float eye[3], const float ang[3],
                                 double end, int fps, double first)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "%s", level);
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= (int)(end * fps); i++) {
        double t = first + i * (1.0 / fps);
        fs_ship_t sh;
        memset(&sh, 0, sizeof sh);
        sh.flags = FS_SHIP_ENABLE;
        memcpy(sh.pos, eye, sizeof sh.pos);
        fs_angles_to_quat(ang, sh.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &sh);
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// The level's spot effects (levels/LEVEL/LEVEL.fx) and its mesh (levels/LEVEL/LEVEL.mxv) from the
// shared data (the test fails when they do not load).
static inline fsspot_t *fs_scene_fx(const char *level)
{
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "levels/%s/%s.fx", level, level);
    size_t size = 0;
    uint8_t *bytes = fs_file(NULL, path, &size);
    assert_non_null(bytes);
    fsspot_t *fx = fsspot_load(bytes, size, path, err, sizeof err);
    free(bytes);
    if (!fx)
        fail_msg("%s", err);
    return fx;
}

static inline mxv_t *fs_scene_mxv(const char *level)
{
    char path[128], err[256] = "";
    size_t size = 0;
    uint8_t *bytes = fs_level_bytes(level, &size, path, sizeof path);
    assert_non_null(bytes);
    mxv_t *m = mxv_load(bytes, size, path, err, sizeof err);
    free(bytes);
    if (!m)
        fail_msg("%s", err);
    return m;
}

// A scene demo played by the player on the shared data (--basedir its forsaken folder) into a
// w x h renderer.
typedef struct {
    char demo[1024];
    cli_t cli;
    renderer_t *r;
    demo_t d;
    player_t *p;
} fs_run_t;

static inline void fs_run_open(fs_run_t *run, const char *demo, int w, int h)
{
    memset(run, 0, sizeof *run);
    snprintf(run->demo, sizeof run->demo, "%s", demo);
    run->cli.basedir = tu_data("forsaken");
    run->r = r_create(w, h);
    assert_non_null(run->r);
    assert_int_equal(demo_open(&run->d, &run->cli, run->demo, NULL, 0), 0);
    run->p = player_create(&run->d, &run->cli, run->r, NULL, NULL);
    assert_non_null(run->p);
}

static inline void fs_run_close(fs_run_t *run)
{
    player_destroy(run->p);
    demo_close(&run->d);
    r_destroy(run->r);
    run->p = NULL;
    run->r = NULL;
}

// Seek to playback time t; the demo time it shows.
static inline double fs_run_seek(fs_run_t *run, double t)
{
    assert_int_equal(player_seek(run->p, t), 0);
    return player_demo_time(run->p, t);
}

// The frame drawn at demo time dt: a copy of its FS_SCENE_WIDTH x FS_SCENE_HEIGHT pixels
// (malloc'd) and its pitch.
static inline uint8_t *fs_run_grab(fs_run_t *run, double dt, int *pitch)
{
    int wd, h;
    r_render(run->r, run->d.world, dt);
    const uint8_t *px = r_pixels(run->r, &wd, &h, pitch);
    assert_int_equal(wd, FS_SCENE_WIDTH);
    assert_int_equal(h, FS_SCENE_HEIGHT);
    uint8_t *c = malloc((size_t)h * (size_t)*pitch);
    assert_non_null(c);
    memcpy(c, px, (size_t)h * (size_t)*pitch);
    return c;
}

// The frame at demo time dt drawn with the spot effects (*on) and without (*off); they are left on.
static inline void fs_run_on_off(fs_run_t *run, double dt, uint8_t **on, uint8_t **off, int *pitch)
{
    r_set_fs_spotfx(run->r, 1);
    *on = fs_run_grab(run, dt, pitch);
    r_set_fs_spotfx(run->r, 0);
    *off = fs_run_grab(run, dt, pitch);
    r_set_fs_spotfx(run->r, 1);
}

// Seek == play: the frames at the n playback times `at` (ascending, at most 16), drawn after seeks
// from the last back, are those drawn when the demo is opened again and played from its start in
// steps of `step` s (before `end`). The player is the new one after.
static inline void fs_run_seek_play(fs_run_t *run, const double *at, int n, double step, double end)
{
    uint8_t *seeked[16];
    assert_true(n > 0 && n <= 16);
    int pitch = 0;
    for (int i = n - 1; i >= 0; i--)
        seeked[i] = fs_run_grab(run, fs_run_seek(run, at[i]), &pitch);
    player_destroy(run->p);
    demo_close(&run->d);
    assert_int_equal(demo_open(&run->d, &run->cli, run->demo, NULL, 0), 0);
    run->p = player_create(&run->d, &run->cli, run->r, NULL, NULL);
    assert_non_null(run->p);
    int k = 0, differ = 0;
    for (double t = player_start(run->p); k < n && t < end; t += step) {
        while (k < n && at[k] <= t + 1e-9) {
            assert_true(player_advance(run->p, at[k]) >= 0);
            uint8_t *px = fs_run_grab(run, player_demo_time(run->p, at[k]), &pitch);
            if (memcmp(px, seeked[k], (size_t)FS_SCENE_HEIGHT * (size_t)pitch)) {
                printf("play at %.3f s differs from a seek\n", at[k]);
                differ++;
            }
            free(px);
            free(seeked[k]);
            k++;
        }
        assert_true(player_advance(run->p, t) >= 0);
    }
    printf("seek == play at %d moments: %d differ\n", k, differ);
    assert_int_equal(k, n);
    assert_int_equal(differ, 0);
}

#endif
