// cmd_timedemo.c -- `demoplay timedemo`: draw every server frame once, headless, as fast as possible
//
// Counting: one drawn frame per server frame, as the decoder counts them for
// `info` (for Quake: each demo block that carries an svc_time; the sign-on
// blocks before the first one are decoded but neither drawn nor counted), so
// N equals `info`'s frames. A frame's time is its decode + r_frame + r_render
// at the frame's own time. Level loading (renderer and sound data) is not
// counted, as Quake does not count the first frame, which includes the load.
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "camera.h"
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

// One drawing thread: its own demo, player and renderer; it decodes every frame and draws
// the server frames whose number is index modulo count (all of them with one thread).
typedef struct {
    const cli_t *cli;
    int index, count, w, h;
    double *ft;            // frame times of the frames drawn here
    size_t n, cap;
    double total;          // their sum
    double world_polys;    // world polygons drawn, summed over those frames
    double tables_ms;      // GoldSrc blend tables' build time
    int status;
    char err[1700];        // the demo's name and message, said by the main thread
    pthread_t thread;
} td_worker_t;

static void *td_worker(void *arg)
{
    td_worker_t *tw = arg;
    const cli_t *cli = tw->cli;
    if (tw->index > 0)
        log_mute_thread(1);   // the first thread says what is missing
    tw->status = EXIT_INTERNAL;
    tw->tables_ms = -1;
    demo_t d;
    if (demo_open(&d, cli, cli->files[0], NULL, 0) < 0) {
        snprintf(tw->err, sizeof tw->err, "%s", d.errmsg);
        tw->status = d.failed ? EXIT_DEMO_ERRORS : EXIT_USAGE;
        demo_close(&d);
        return NULL;
    }
    renderer_t *r = r_create(tw->w, tw->h);
    player_opts_t po = { 0, 0, 0 };   // no snapshots: nothing seeks
    player_t *p = r ? player_create(&d, cli, r, NULL, &po) : NULL;
    tw->cap = 4096;
    tw->ft = malloc(tw->cap * sizeof(*tw->ft));
    if (!p || !tw->ft) {
        snprintf(tw->err, sizeof tw->err, "%s: out of memory", d.name);
        goto out;
    }
    if (cam_from_cli(r, cli->camera, "timedemo") < 0) {
        tw->status = EXIT_USAGE;
        goto out;
    }
    tw->status = EXIT_OK;
    long long drawn_or_not = 0;
    for (;;) {
        player_stats_t st;
        player_get_stats(p, &st);
        double load_before = st.load_seconds;
        long long counted = player_info_frames(p);
        double t0 = now_seconds();
        int rc = player_step(p);
        if (rc < 0) {
            snprintf(tw->err, sizeof tw->err, "%s: out of memory", d.name);
            tw->status = EXIT_INTERNAL;
            break;
        }
        if (rc == 0)
            break;
        if (player_info_frames(p) == counted)
            continue;   // not a server frame (sign-on): loading, not drawn
        if (drawn_or_not++ % tw->count != tw->index)
            continue;   // another thread draws this one
        r_render(r, d.world, d.world->time);
        double t1 = now_seconds();
        tw->world_polys += r_world_polys(r);
        player_get_stats(p, &st);
        double dt = (t1 - t0) - (st.load_seconds - load_before);
        if (dt < 0)
            dt = 0;
        if (tw->n == tw->cap) {
            double *nf = realloc(tw->ft, tw->cap * 2 * sizeof(*nf));
            if (!nf) {
                snprintf(tw->err, sizeof tw->err, "%s: out of memory", d.name);
                tw->status = EXIT_INTERNAL;
                break;
            }
            tw->ft = nf;
            tw->cap *= 2;
        }
        tw->ft[tw->n++] = dt;
        tw->total += dt;
    }
    if (tw->status == EXIT_OK && player_error(p)) {
        snprintf(tw->err, sizeof tw->err, "%s", player_error(p));
        tw->status = EXIT_DEMO_ERRORS;
    }
    tw->tables_ms = r ? r_level_tables_ms(r) : -1;
out:
    player_destroy(p);
    r_destroy(r);
    demo_close(&d);
    return NULL;
}

int cmd_timedemo(const cli_t *cli)
{
    int w = cli->width ? cli->width : 640, h = cli->height ? cli->height : 480;
    // --threads N: N threads each drawing every N-th frame (default 1: the figure to compare
    // with the old engines' single-threaded timedemo)
    int nthreads = cli->threads > 1 ? (cli->threads > 16 ? 16 : cli->threads) : 1;
    td_worker_t *tws = calloc((size_t)nthreads, sizeof *tws);
    if (!tws) {
        log_error("timedemo: out of memory");
        return EXIT_INTERNAL;
    }
    int started = 0;
    for (int i = 0; i < nthreads; i++) {
        tws[i] = (td_worker_t){ .cli = cli, .index = i, .count = nthreads, .w = w, .h = h };
        if (nthreads == 1) {
            td_worker(&tws[i]);
        } else if (pthread_create(&tws[i].thread, NULL, td_worker, &tws[i]) != 0) {
            log_error("timedemo: cannot start drawing thread %d of %d", i + 1, nthreads);
            break;
        }
        started = i + 1;
    }
    for (int i = 0; i < started && nthreads > 1; i++)
        pthread_join(tws[i].thread, NULL);
    int status = started == nthreads ? EXIT_OK : EXIT_INTERNAL;
    size_t n = 0;
    double total = 0, world_polys = 0;
    for (int i = 0; i < started; i++) {
        if (tws[i].status != EXIT_OK && (status == EXIT_OK || tws[i].status == EXIT_USAGE)) {
            if (tws[i].err[0])
                log_error("%s", tws[i].err);
            status = tws[i].status;
        }
        n += tws[i].n;
        world_polys += tws[i].world_polys;
        if (tws[i].total > total)   // the threads draw at once: the slowest one's time
            total = tws[i].total;
    }
    double *ft = malloc((n ? n : 1) * sizeof(*ft));
    if (!ft) {
        log_error("timedemo: out of memory");
        status = EXIT_INTERNAL;
        n = 0;
    }
    for (int i = 0, k = 0; ft && i < started; i++) {
        memcpy(ft + k, tws[i].ft, tws[i].n * sizeof(*ft));
        k += (int)tws[i].n;
    }
    double tables_ms = started ? tws[0].tables_ms : -1;
    const char *name = cli->files[0];
    for (int i = 0; i < started; i++)
        free(tws[i].ft);
    free(tws);
    if (status == EXIT_USAGE) {
        free(ft);
        return status;
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
        json_string(stdout, name);
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
        printf(",\"peak_memory_kib\":%ld,\"threads\":%d,\"world_polys_avg\":", peak_kib, nthreads);
        json_number(stdout, n ? world_polys / (double)n : 0);
        if (tables_ms >= 0) {
            printf(",\"level_tables_ms\":");
            json_number(stdout, tables_ms);
        }
        printf("}\n");
    } else {
        printf("%zu frames %5.1f seconds %5.1f fps%s\n", n, total, fps,
               nthreads > 1 ? " (drawn on several threads: the slowest thread's time)" : "");
        printf("frame time: min %.3f ms, avg %.3f ms, max %.3f ms, 99th percentile %.3f ms\n", mn * 1e3, avg * 1e3,
               mx * 1e3, p99 * 1e3);
        printf("peak memory: %.1f MiB\n", (double)peak_kib / 1024.0);
        printf("world polygons drawn: %.1f a frame\n", n ? world_polys / (double)n : 0);
        if (tables_ms >= 0)
            printf("level blend tables (GoldSrc render modes): built in %.1f ms\n", tables_ms);
    }
    free(ft);
    return status;
}
