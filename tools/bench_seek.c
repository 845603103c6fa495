// bench_seek.c -- seek time: 100 seeks to random times of each demo (the same times on every run),
// each through the player as play does it (snapshot restored, frames replayed through the
// renderer, the frame at the target drawn), as milliseconds: median, 99th percentile, worst.
//
//     bench_seek DEMO[@BASEDIR[@GAME]]...
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/playback.h"
#include "render/render.h"

#define SEEKS 100

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int status = 0;
    for (int i = 1; i < argc; i++) {
        char spec[4096];
        snprintf(spec, sizeof spec, "%s", argv[i]);
        char *basedir = strchr(spec, '@'), *game = NULL;
        if (basedir) {
            *basedir++ = 0;
            game = strchr(basedir, '@');
            if (game)
                *game++ = 0;
        }
        cli_t cli;
        memset(&cli, 0, sizeof cli);
        cli.basedir = basedir ? basedir : ".";
        cli.game = game;
        cli.quiet = 1;
        cli.threads = -1;
        demo_t d;
        if (demo_open(&d, &cli, spec, NULL, 0) < 0) {
            fprintf(stderr, "bench_seek: %s\n", d.errmsg);
            demo_close(&d);
            status = 1;
            continue;
        }
        renderer_t *r = r_create(320, 200);
        player_t *p = r ? player_create(&d, &cli, r, NULL, NULL) : NULL;
        if (!p || player_scan(p) < 0) {
            fprintf(stderr, "bench_seek: %s: out of memory\n", spec);
            status = 1;
        } else {
            double start = player_start(p), end = player_end(p), ms[SEEKS];
            uint32_t rng = 0x5eed;
            player_seek(p, start);
            for (int k = 0; k < SEEKS; k++) {
                rng = rng * 1664525u + 1013904223u;
                double t = start + (end - start) * (double)(rng >> 8) / 16777216.0;
                double t0 = now();
                player_seek(p, t);
                r_render(r, d.world, player_demo_time(p, t));
                ms[k] = (now() - t0) * 1000;
                if (getenv("BENCH_SEEK_VERBOSE")) fprintf(stderr, "seek %d to %.3f: %.1f ms\n", k, t, ms[k]);
            }
            qsort(ms, SEEKS, sizeof ms[0], cmp);
            player_stats_t st;
            player_get_stats(p, &st);
            const char *name = strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec;
            printf("seek %-26s %3d seeks over %7.1f s: median %6.1f ms, p99 %6.1f ms, worst %6.1f ms "
                   "(%d snapshots, %zu KB)\n",
                   name, SEEKS, end - start, ms[SEEKS / 2], ms[SEEKS * 99 / 100], ms[SEEKS - 1], st.count,
                   st.bytes / 1024);
        }
        player_destroy(p);
        r_destroy(r);
        demo_close(&d);
    }
    return status;
}
