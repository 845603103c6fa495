// bench_bands.c -- one frame in screen bands: r_render's time (clock_gettime) on 1 and on N bands
//
//     bench_bands WxH BANDS STRIDE DEMO[@BASEDIR[@GAME]]...
//
// Each demo is read whole, every frame fed to the renderer; every STRIDE-th frame is drawn
// (as `shot` draws one: the 3D view in bands, then the 2D layer) and only r_render is timed.
// Runs 1 band, BANDS bands, 1, BANDS (alternated: the machine is shared and noisy) and
// prints the milliseconds a frame of each run.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/cli.h"
#include "engine/demo.h"
#include "render/r_local.h"
#include "render/render.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// ms a drawn frame; -1 when the demo cannot be read
static double run(const char *path, const char *basedir, const char *game, int w, int h, int bands, int stride,
                  int *frames, int *redraws)
{
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = basedir ? basedir : ".";
    cli.game = game;
    cli.quiet = 1;
    demo_t d;
    if (demo_open(&d, &cli, path, NULL, 0) < 0) {
        fprintf(stderr, "%s\n", d.errmsg);
        return -1;
    }
    renderer_t *r = r_create(w, h);
    if (!r) {
        demo_close(&d);
        return -1;
    }
    r_set_threads(r, bands);
    vfs_t *fs = NULL;
    uint32_t level_seq = 0;
    const world_t *wd = d.world;
    double total = 0;
    int n = 0, drawn = 0;
    while (demo_read_frame(&d) > 0) {
        if (wd->level_seq != level_seq) {
            level_seq = wd->level_seq;
            vfs_free(fs);
            fs = demo_mount(&d, &cli);
            char err[512];
            r_load_level(r, fs, wd, err, sizeof err);
        }
        r_frame(r, wd);
        if (n++ % stride)
            continue;
        double t0 = now();
        r_render(r, wd, wd->time);
        total += now() - t0;
        drawn++;
    }
    *redraws += r_bands_redraws(r);
    r_destroy(r);
    vfs_free(fs);
    demo_close(&d);
    *frames = drawn;
    return drawn ? total * 1000 / drawn : -1;
}

int main(int argc, char **argv)
{
    int w, h;
    if (argc < 5 || sscanf(argv[1], "%dx%d", &w, &h) != 2) {
        fprintf(stderr, "usage: bench_bands WxH BANDS STRIDE DEMO[@BASEDIR[@GAME]]...\n");
        return 2;
    }
    int bands = atoi(argv[2]), stride = atoi(argv[3]);
    if (stride < 1)
        stride = 1;
    for (int i = 4; i < argc; i++) {
        char spec[4096];
        snprintf(spec, sizeof spec, "%s", argv[i]);
        char *basedir = strchr(spec, '@'), *game = NULL;
        if (basedir) {
            *basedir++ = 0;
            game = strchr(basedir, '@');
            if (game)
                *game++ = 0;
        }
        const char *name = strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec;
        double ms[4];
        int frames = 0, redraws = 0;
        for (int k = 0; k < 4; k++)
            ms[k] = run(spec, basedir, game, w, h, k & 1 ? bands : 1, stride, &frames, &redraws);
        printf("%-24s %dx%d, %d frames: 1 band %.2f / %.2f ms, %d bands %.2f / %.2f ms a frame (%.2fx); "
               "%d of the 2-band runs' %d frames drawn again on one band\n",
               name, w, h, frames, ms[0], ms[2], bands, ms[1], ms[3], (ms[0] + ms[2]) / (ms[1] + ms[3]), redraws,
               2 * frames);
    }
    return 0;
}
