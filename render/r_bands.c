// r_bands.c -- one frame's 3D view drawn in screen bands: a renderer and a thread a band
//
// Every band has a whole renderer of its own (level, surface cache, models' effects), fed
// the same level, frames and camera as the main one, and draws the same world at the same
// time with the whole screen's clipping and projection; its drawers only skip the rows
// outside its range (r_view_t.y0/y1; the span buffer's other rows start full). A row's
// pixels depend on nothing but what is drawn on that row, except where a drawer reads a
// pixel to decide (a particle's or a glow's centre): there the band draws a margin too
// (r_band_zone_t), and a read of a pixel it does not know either marks what it writes as
// unknown or, when the band's own rows would depend on it, the frame to be drawn again on
// one band. The split between bands follows each band's time in the last frame. The main
// renderer draws band 0 on the caller's thread, the workers the others; the bands' rows are
// copied into the main buffer, and the parts that read the whole frame (the underwater warp,
// the 2D layer, the blends) run once on it (r_render_finish). docs/renderer.md, "Screen bands".
//
// Threads: persistent workers with a start/finish handshake a frame (one mutex and two
// condition variables, nothing on the per-pixel path). The headless build (make pentium) has
// no threads: there the bands are drawn in turn on the caller's thread (the same bytes).
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DEMOPLAY_HEADLESS
#include <pthread.h>
#define R_BANDS_THREADS 1
#endif

#include "r_local.h"
#include "../engine/log.h"

#define R_MAX_BANDS 16

typedef struct r_bands_s r_bands_t;

typedef struct {
    r_bands_t *b;
    renderer_t *r;           // band 0: the main renderer
    r_band_zone_t zone;      // this frame's rows
    double secs;             // how long its last frame took (the split follows it)
#ifdef R_BANDS_THREADS
    pthread_t thread;
    int started;
#endif
} r_band_t;

struct r_bands_s {
    int n;
    int force_redraw;        // tests: every frame takes the one-band path after its bands
    int redraws;             // frames drawn again on one band (a read outside a band's rows)
    r_band_t band[R_MAX_BANDS];
    // where the bands meet, as fractions of the view's height: cut[0] = 0 .. cut[n] = 1;
    // moved after each frame toward equal times (any split gives the same pixels)
    double cut[R_MAX_BANDS + 1];
    // the frame being drawn
    const world_t *w;
    double t;
    int sbar;
    // or the level being loaded (r_bands_load_start): the workers load it as the main renderer does
    int loading;
    vfs_t *fs;
#ifdef R_BANDS_THREADS
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned gen;
    int pending, quit, sync_ok;
#endif
};

int r_bands_count(const renderer_t *r) { return r && r->bands ? r->bands->n : 1; }

renderer_t *r_bands_get(const renderer_t *r, int i) { return r->bands->band[i].r; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void draw_band(r_bands_t *b, r_band_t *bd)
{
    double t0 = now();
    double frac = r_render_setup(bd->r, b->w, b->t, b->sbar);
    r_render_3d(bd->r, b->w, frac, &bd->zone);
    bd->secs = now() - t0;
}

// The next frame's split: each band's rows in proportion to the rows it drew a second in
// this one, half-way from the old split (a frame's cost moves little from one to the next).
static void rebalance(r_bands_t *b, int vh)
{
    double speed[R_MAX_BANDS], sum = 0;
    for (int i = 0; i < b->n; i++) {
        const r_band_zone_t *z = &b->band[i].zone;
        double secs = b->band[i].secs > 1e-6 ? b->band[i].secs : 1e-6;
        speed[i] = (double)(z->out1 - z->out0 > 1 ? z->out1 - z->out0 : 1) / secs;
        sum += speed[i];
    }
    if (!(sum > 0) || vh < 8 * b->n)
        return;
    double at = 0, min = 8.0 / vh;
    for (int i = 0; i < b->n - 1; i++) {
        at += speed[i] / sum;
        double c = 0.5 * b->cut[i + 1] + 0.5 * at;
        double lo = b->cut[i] + min, hi = 1.0 - min * (b->n - 1 - i);
        b->cut[i + 1] = c < lo ? lo : c > hi ? hi : c;
    }
}

#ifdef R_BANDS_THREADS
static void *band_thread(void *arg)
{
    r_band_t *bd = arg;
    r_bands_t *b = bd->b;
    unsigned seen = 0;   // the frames start at gen 1 (a thread that starts late still sees the first)
    log_mute_thread(1);  // what its band meets, the main renderer's band says
    pthread_mutex_lock(&b->mu);
    for (;;) {
        while (b->gen == seen && !b->quit)
            pthread_cond_wait(&b->go, &b->mu);
        if (b->quit)
            break;
        seen = b->gen;
        int loading = b->loading;
        pthread_mutex_unlock(&b->mu);
        if (loading)
            r_load_level(bd->r, b->fs, b->w, NULL, 0);
        else
            draw_band(b, bd);
        pthread_mutex_lock(&b->mu);
        if (--b->pending == 0)
            pthread_cond_signal(&b->done);
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}
#endif

void r_bands_free(renderer_t *r)
{
    r_bands_t *b = r->bands;
    if (!b)
        return;
#ifdef R_BANDS_THREADS
    if (b->sync_ok) {
        pthread_mutex_lock(&b->mu);
        b->quit = 1;
        pthread_cond_broadcast(&b->go);
        pthread_mutex_unlock(&b->mu);
        for (int i = 1; i < b->n; i++)
            if (b->band[i].started)
                pthread_join(b->band[i].thread, NULL);
        pthread_cond_destroy(&b->go);
        pthread_cond_destroy(&b->done);
        pthread_mutex_destroy(&b->mu);
    }
#endif
    for (int i = 1; i < b->n; i++)
        r_destroy(b->band[i].r);
    free(b);
    r->bands = NULL;
}

int r_set_threads(renderer_t *r, int n)
{
    if (!r)
        return 0;
    r_bands_free(r);
    if (n <= 1)
        return 1;
    if (n > R_MAX_BANDS)
        n = R_MAX_BANDS;
    r_bands_t *b = calloc(1, sizeof *b);
    if (!b)
        return 1;
    b->band[0].r = r;
    b->band[0].b = b;
    for (int i = 0; i <= n; i++)
        b->cut[i] = (double)i / n;
    for (b->n = 1; b->n < n; b->n++) {
        renderer_t *s = r_create(r->width, r->height);
        if (!s)
            break;
        r_set_camera(s, &r->cam);
        b->band[b->n].r = s;
        b->band[b->n].b = b;
    }
    r->bands = b;
#ifdef R_BANDS_THREADS
    if (pthread_mutex_init(&b->mu, NULL) == 0) {
        if (pthread_cond_init(&b->go, NULL) == 0) {
            if (pthread_cond_init(&b->done, NULL) == 0)
                b->sync_ok = 1;
            else
                pthread_cond_destroy(&b->go);
        }
        if (!b->sync_ok)
            pthread_mutex_destroy(&b->mu);
    }
    int ok = b->sync_ok;
    for (int i = 1; i < b->n && ok; i++)
        ok = b->band[i].started = pthread_create(&b->band[i].thread, NULL, band_thread, &b->band[i]) == 0;
    if (!ok) {   // no threads: one band
        r_bands_free(r);
        return 1;
    }
#endif
    if (b->n < 2) {
        r_bands_free(r);
        return 1;
    }
    for (int i = 0; i <= b->n; i++)   // fewer renderers than asked: an even split of those
        b->cut[i] = (double)i / b->n;
    return b->n;
}

void r_bands_force_redraw(renderer_t *r, int on)
{
    if (r->bands)
        r->bands->force_redraw = on;
}

int r_bands_redraws(const renderer_t *r) { return r->bands ? r->bands->redraws : 0; }

void r_bands_load_start(renderer_t *r, vfs_t *fs, const world_t *w)
{
    r_bands_t *b = r->bands;
    if (!b || b->n < 2)
        return;
    b->w = w;
    b->fs = fs;
#ifdef R_BANDS_THREADS
    pthread_mutex_lock(&b->mu);
    b->loading = 1;
    b->pending = b->n - 1;
    b->gen++;
    pthread_cond_broadcast(&b->go);
    pthread_mutex_unlock(&b->mu);
#endif
}

void r_bands_load_finish(renderer_t *r)
{
    r_bands_t *b = r->bands;
    if (!b || b->n < 2)
        return;
#ifdef R_BANDS_THREADS
    pthread_mutex_lock(&b->mu);
    while (b->pending > 0)
        pthread_cond_wait(&b->done, &b->mu);
    b->loading = 0;
    pthread_mutex_unlock(&b->mu);
#else
    int was = log_mute_thread(1);   // (the main renderer's band said what the level lacks)
    for (int i = 1; i < b->n; i++)
        r_load_level(b->band[i].r, b->fs, b->w, NULL, 0);
    log_mute_thread(was);
#endif
}

int r_bands_render(renderer_t *r, const world_t *w, double t)
{
    r_bands_t *b = r->bands;
    if (!b || b->n < 2)
        return 0;
    double frac = r_render_setup(r, w, t, -1);
    // band i: rows [vh * cut[i], vh * cut[i + 1]), and a margin for the drawers that read a
    // pixel at a centre: Quake II's particles (4 x the largest, r_part.c's width / 80, and
    // 2), GoldSrc's glows (one particle's worth); the other games read none
    int pmax = (int)((float)r->width / 80.0f + 0.5f);
    int vh = r->vh, n = b->n, margin = w->game == GAME_QUAKE2 ? 4 * pmax + 2 : w->game == GAME_GOLDSRC ? pmax + 2 : 0;
    for (int i = 0; i < n; i++) {
        r_band_zone_t *z = &b->band[i].zone;
        z->out0 = i == 0 ? 0 : (int)(b->cut[i] * vh + 0.5);
        z->out1 = i == n - 1 ? vh : (int)(b->cut[i + 1] * vh + 0.5);
        z->y0 = z->out0 - margin < 0 ? 0 : z->out0 - margin;
        z->y1 = z->out1 + margin > vh ? vh : z->out1 + margin;
        z->miss = 0;
        z->nrect = 0;
    }
    b->w = w;
    b->t = t;
    b->sbar = r->height - r->vh;
#ifdef R_BANDS_THREADS
    pthread_mutex_lock(&b->mu);
    b->pending = n - 1;
    b->gen++;
    pthread_cond_broadcast(&b->go);
    pthread_mutex_unlock(&b->mu);
    double t0 = now();
    r_render_3d(r, w, frac, &b->band[0].zone);
    b->band[0].secs = now() - t0;
    pthread_mutex_lock(&b->mu);
    while (b->pending > 0)
        pthread_cond_wait(&b->done, &b->mu);
    pthread_mutex_unlock(&b->mu);
#else
    double t0 = now();
    r_render_3d(r, w, frac, &b->band[0].zone);
    b->band[0].secs = now() - t0;
    for (int i = 1; i < n; i++)
        draw_band(b, &b->band[i]);
#endif
    int miss = b->force_redraw;
    for (int i = 0; i < n; i++)
        miss |= b->band[i].zone.miss;
    if (miss) {
        // a band's own rows were decided from a pixel it had not drawn: the whole view again here
        b->redraws++;
        r_render_3d(r, w, frac, NULL);
    } else {
        rebalance(b, vh);
        size_t pitch = (size_t)r->width;
        for (int i = 1; i < n; i++) {
            const r_band_zone_t *z = &b->band[i].zone;
            if (z->out1 > z->out0)
                memcpy(r->buffer + (size_t)z->out0 * pitch, b->band[i].r->buffer + (size_t)z->out0 * pitch,
                       (size_t)(z->out1 - z->out0) * pitch);
        }
    }
    r_render_finish(r, w, t);
    return 1;
}
