// cmd_shot.c -- `demoplay shot FILE --at SECONDS -o OUT.png [--size WxH]`: one rendered frame of a demo, headless
#include <stdio.h>
#include <string.h>

#include "../render/render.h"
#include "camera.h"
#include "cli.h"
#include "demo.h"
#include "log.h"
#ifndef DEMOPLAY_HEADLESS
#include "encode.h"
#endif

// The picture as export writes its frames: palette and one byte a pixel, libpng's fastest
// deflate (the same colours as an RGB file; at 1920x1080 137 M instructions where stb's RGB
// writer took 1 677 M); the headless build has no libpng: stb's RGB PNG there.
static int write_shot(const renderer_t *r, const char *path, char *err, size_t cap)
{
#ifdef DEMOPLAY_HEADLESS
    if (r_write_png(r, path) < 0) {
        snprintf(err, cap, "cannot write '%s'", path);
        return -1;
    }
    return 0;
#else
    int w, h, pitch;
    const uint8_t *pix = r_pixels(r, &w, &h, &pitch);
    return enc_write_png(path, pix, w, h, pitch, r_palette(r), err, cap);
#endif
}

int cmd_shot(const cli_t *cli)
{
    int width = cli->width ? cli->width : 320, height = cli->height ? cli->height : 200;
    if (width < 16 || height < 16 || width > 3840 || height > 2160) {
        log_error("shot: --size %dx%d: expected 16x16 up to 3840x2160", width, height);
        return EXIT_USAGE;
    }
    if (!cli->out) {
        log_error("shot: -o OUT.png is required");
        return EXIT_USAGE;
    }
    double at = cli->have_at ? cli->at : 0;
    demo_t d;
    if (demo_open(&d, cli, cli->files[0], NULL, 0) < 0) {
        log_error("%s", d.errmsg);
        return d.failed ? EXIT_DEMO_ERRORS : EXIT_USAGE;
    }
    renderer_t *r = r_create(width, height);
    if (!r) {
        demo_close(&d);
        log_error("shot: out of memory for a %dx%d renderer", width, height);
        return EXIT_INTERNAL;
    }
    // --threads N: the frame drawn in N screen bands, one a thread (the same bytes as one). The
    // default is one band: each band's renderer loads the level and replays the frames up to
    // --at for one picture, which costs more than splitting that picture saves (c1a0 at 2 s,
    // 1920x1080: 0.89 G instructions on one thread; with two bands 1.01 G on the main one and
    // 0.55 G on the other)
    r_set_threads(r, cli->threads >= 0 ? cli->threads : 1);
    r_set_notify(r, cli->notify);
    if (cam_from_cli(r, cli->camera, "shot") < 0) {
        r_destroy(r);
        demo_close(&d);
        return EXIT_USAGE;
    }
    int status = EXIT_OK;
    vfs_t *fs = NULL;
    char mounted_dir[WORLD_NAME_LEN] = "";
    uint32_t level_seq = 0;
    int frames = 0, rc, map_missing = 0;
    const world_t *w = d.world;
    while ((rc = demo_read_frame(&d)) > 0) {
        frames++;
        if (w->level_seq != level_seq) {
            level_seq = w->level_seq;
            if (!fs || strcmp(mounted_dir, w->game_dir)) {
                vfs_free(fs);
                fs = demo_mount(&d, cli);
                snprintf(mounted_dir, sizeof mounted_dir, "%s", w->game_dir);
            }
            char err[1024];
            map_missing = r_load_level(r, fs, w, err, sizeof err) < 0;
            if (map_missing)
                log_error("%s: %s", d.name, err);
            demo_check_mod(&d, cli);
        }
        r_frame(r, w);
        // A block is reached at its own time: demo times are floats, so a time
        // printed from one (dump's time=, info) selects that block even when the
        // decimal reads a hair above the float; dump's rounded column too (at_tol).
        // Not before the first server frame: sign-on blocks (GoldSrc's loading segment) show
        // nothing of the demo yet (player_advance's rule).
        const demo_info_t *in = d.dec->info ? d.dec->info(d.state) : NULL;
        if (in && in->drawn_frames == 0)
            continue;
        if (w->time >= at || (float)w->time == (float)at || (cli->at_tol > 0 && w->time >= at - cli->at_tol))
            break;
    }
    if (rc < 0) {
        log_error("%s", d.errmsg);
        status = EXIT_DEMO_ERRORS;
    } else if (rc == 0 && w->time < at) {
        log_warn("%s: the demo ends at %.3f s, before --at %.3f: showing its last frame", d.name, w->time, at);
    }
    if (!frames) {
        log_error("%s: no frame to show", d.name);
        status = EXIT_DEMO_ERRORS;
    } else {
        double t = at < w->prev_time ? w->prev_time : at > w->time ? w->time : at;
        r_render(r, w, t);
        int warned = 0;
        cam_check_drawn(r, cli->camera, d.name, t, &warned);
        char err[512] = "";
        if (write_shot(r, cli->out, err, sizeof err) < 0) {
            log_error("shot: %s", err);
            status = EXIT_INTERNAL;
        } else if (!cli->quiet) {
            printf("%s: %dx%d at %.9g s (%s) -> %s\n", d.name, width, height, t, w->map, cli->out);
        }
        if (map_missing && status == EXIT_OK)
            status = EXIT_DEMO_ERRORS;
    }
    r_destroy(r);
    vfs_free(fs);
    demo_close(&d);
    return status;
}
