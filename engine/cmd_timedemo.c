// cmd_timedemo.c -- `demoplay timedemo`: draw every server frame once, headless, as fast as possible
//
// Counting: one drawn frame per server frame, as the decoder counts them for
// `info` (for Quake: each demo block that carries an svc_time; the sign-on
// blocks before the first one are decoded but neither drawn nor counted), so
// N equals `info`'s frames. A frame's time is its decode + r_frame + r_render
// at the frame's own time. Level loading (renderer and sound data) is not
// counted, as Quake does not count the first frame, which includes the load.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli.h"
#include "demo.h"
#include "json.h"
#include "log.h"
#include "playback.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int cmd_timedemo(const cli_t *cli)
{
    demo_t d;
    if (demo_open(&d, cli, cli->files[0], NULL, 0) < 0) {
        log_error("%s", d.errmsg);
        int st = d.failed ? EXIT_DEMO_ERRORS : EXIT_USAGE;
        demo_close(&d);
        return st;
    }
    int w = cli->width ? cli->width : 640, h = cli->height ? cli->height : 480;
    renderer_t *r = r_create(w, h);
    player_opts_t po = { 0, 0, 0 };   // no snapshots: nothing seeks
    player_t *p = r ? player_create(&d, cli, r, NULL, &po) : NULL;
    size_t cap = 4096, n = 0;
    double *ft = malloc(cap * sizeof(*ft));
    if (!p || !ft) {
        log_error("%s: out of memory", d.name);
        free(ft);
        player_destroy(p);
        r_destroy(r);
        demo_close(&d);
        return EXIT_INTERNAL;
    }

    int status = EXIT_OK;
    double total = 0, world_polys = 0;
    for (;;) {
        player_stats_t st;
        player_get_stats(p, &st);
        double load_before = st.load_seconds;
        long long counted = player_info_frames(p);
        double t0 = now_seconds();
        int rc = player_step(p);
        if (rc < 0) {
            log_error("%s: out of memory", d.name);
            status = EXIT_INTERNAL;
            break;
        }
        if (rc == 0)
            break;
        if (player_info_frames(p) == counted)
            continue;   // not a server frame (sign-on): loading, not drawn
        r_render(r, d.world, d.world->time);
        double t1 = now_seconds();
        world_polys += r_world_polys(r);
        player_get_stats(p, &st);
        double dt = (t1 - t0) - (st.load_seconds - load_before);
        if (dt < 0)
            dt = 0;
        if (n == cap) {
            double *nf = realloc(ft, cap * 2 * sizeof(*ft));
            if (!nf) {
                log_error("%s: out of memory", d.name);
                status = EXIT_INTERNAL;
                break;
            }
            ft = nf;
            cap *= 2;
        }
        ft[n++] = dt;
        total += dt;
    }
    if (player_error(p)) {
        log_error("%s", player_error(p));
        status = EXIT_DEMO_ERRORS;
    }

    double mn = 0, mx = 0, avg = 0, p99 = 0;
    if (n > 0) {
        double *sorted = malloc(n * sizeof(*sorted));
        if (sorted) {
            memcpy(sorted, ft, n * sizeof(*sorted));
            qsort(sorted, n, sizeof(*sorted), cmp_double);
            mn = sorted[0];
            mx = sorted[n - 1];
            // nearest-rank 99th percentile
            size_t k = (size_t)ceil(0.99 * (double)n);
            p99 = sorted[k ? k - 1 : 0];
            free(sorted);
        }
        avg = total / (double)n;
    }
    double fps = total > 0 ? (double)n / total : 0;
    struct rusage ru;
    long peak_kib = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;   // Linux: KiB
    if (cli->json) {
        printf("{\"file\":");
        json_string(stdout, d.name);
        printf(",\"frames\":%zu,\"seconds\":", n);
        json_number(stdout, total);
        printf(",\"fps\":");
        json_number(stdout, fps);
        printf(",\"width\":%d,\"height\":%d,\"min_ms\":", w, h);
        json_number(stdout, mn * 1e3);
        printf(",\"avg_ms\":");
        json_number(stdout, avg * 1e3);
        printf(",\"max_ms\":");
        json_number(stdout, mx * 1e3);
        printf(",\"p99_ms\":");
        json_number(stdout, p99 * 1e3);
        printf(",\"peak_memory_kib\":%ld,\"world_polys_avg\":", peak_kib);
        json_number(stdout, n ? world_polys / (double)n : 0);
        if (r && r_level_tables_ms(r) >= 0) {
            printf(",\"level_tables_ms\":");
            json_number(stdout, r_level_tables_ms(r));
        }
        printf("}\n");
    } else {
        printf("%zu frames %5.1f seconds %5.1f fps\n", n, total, fps);
        printf("frame time: min %.3f ms, avg %.3f ms, max %.3f ms, 99th percentile %.3f ms\n", mn * 1e3, avg * 1e3,
               mx * 1e3, p99 * 1e3);
        printf("peak memory: %.1f MiB\n", (double)peak_kib / 1024.0);
        printf("world polygons drawn: %.1f a frame\n", n ? world_polys / (double)n : 0);
        if (r && r_level_tables_ms(r) >= 0)
            printf("level blend tables (GoldSrc render modes): built in %.1f ms\n", r_level_tables_ms(r));
    }
    free(ft);
    player_destroy(p);
    r_destroy(r);
    demo_close(&d);
    return status;
}
