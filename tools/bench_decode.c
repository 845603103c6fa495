// bench_decode.c -- decode speed: every demo given, decoded in memory repeatedly, MB/s per format
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/vfs.h"
#include "formats/decoder.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    const char *format;
    double bytes, seconds;
    long long frames;
    int files;
} total_t;

int main(int argc, char **argv)
{
    total_t totals[8];
    int ntotals = 0;
    world_t *w = world_create();
    for (int i = 1; i < argc; i++) {
        size_t size;
        uint8_t *data = vfs_read_file(argv[i], &size);
        if (!data)
            continue;
        const decoder_t *d = decoder_probe(data, size);
        if (!d) {
            free(data);
            continue;
        }
        void *st = calloc(1, d->state_size);
        dec_opts_t opts = { 0 };
        dec_error_t err;
        // repeat until at least 0.2 s of work so small files are measured fairly
        double t0 = now(), t;
        int reps = 0;
        long long frames = 0;
        int r;
        do {
            r = d->open(st, data, size, w, &opts, &err);
            if (r == 0)
                while ((r = d->read_frame(st, w, &err)) > 0)
                    frames++;
            d->close(st);
            reps++;
            t = now();
        } while (t - t0 < 0.2 && r == 0);
        if (r != 0) {
            // only whole, clean decodes count towards the speed
            fprintf(stderr, "bench: %s: offset %lld: %s (not counted)\n", argv[i], err.offset, err.what);
            free(st);
            free(data);
            continue;
        }
        total_t *tt = NULL;
        for (int k = 0; k < ntotals; k++)
            if (!strcmp(totals[k].format, d->name))
                tt = &totals[k];
        if (!tt && ntotals < 8) {
            tt = &totals[ntotals++];
            memset(tt, 0, sizeof(*tt));
            tt->format = d->name;
        }
        if (tt) {
            tt->bytes += (double)size * reps;
            tt->seconds += t - t0;
            tt->frames += frames;
            tt->files++;
        }
        free(st);
        free(data);
    }
    for (int k = 0; k < ntotals; k++)
        printf("decode %-9s %3d files  %8.1f MB/s  %10.0f frames/s\n", totals[k].format, totals[k].files,
               totals[k].bytes / totals[k].seconds / 1e6, (double)totals[k].frames / totals[k].seconds);
    world_free(w);
    return 0;
}
