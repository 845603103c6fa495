// cmd_export.c -- `demoplay export`: frames at exact demo times (PNGs or a Y4M stream) and the sound track
//
// Frame k shows demo time from + k/fps (fps as an exact ratio, see movie.h) for
// every k with that time < to; the 8-bit frames go to engine/encode.c (indexed PNGs or
// a Y4M stream, on worker threads). The sound track covers exactly [from, to):
// llround(to * 48000) - llround(from * 48000) sample frames of 16-bit stereo,
// rendered through the sound system's loopback device. Samples are rendered in
// slices whose ends are computed from absolute times, never accumulated: up to
// each server frame's own time before its sounds start, and up to the last grid
// point before each video frame's end, so nothing drifts however long the export.
// Sound starts up to 10 s before `from` (at the frame the seek reaches) and that
// pre-roll is thrown away, so sounds that began before `from` are heard. Parts
// exported with --from/--to join up exactly: all sample numbers are taken on one
// timeline (llround(time * 48000)), the renders start and end on its grid or at
// server frames, never at `from`, `to` or a video frame, and the sound system's
// lasting loops run on the level's clock (audio/snd.c), so the samples of a time
// do not depend on where the export began (docs/audio.md, "Exports in parts").
// The listener moves before each piece of 1024 samples to where the view is at the
// piece's end, blended between server frames as the pictures are (docs/audio.md,
// "Between server frames").
#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "camera.h"
#include "cli.h"
#include "demo.h"
#include "encode.h"
#include "log.h"
#include "movie.h"
#include "playback.h"

#define EXPORT_RATE 48000
#define AUDIO_GRID 1024    // the sound system's render grid (audio/snd.c SND_RENDER_CHUNK): one listener pose a piece
#define AUDIO_PREROLL 10.0

typedef struct {
    player_t *p;
    snd_t *snd;
    renderer_t *cam;          // --camera: the audio player's renderer, whose camera the listener follows
    const world_t *world;
    int free_wait;            // a free camera without a place: placed at `from` as the pictures' is
    double from;
    FILE *wav;
    long long base;           // llround(from * rate): the sample of the timeline the WAV starts at
    long long pos, total;     // sample frames rendered / to write, from base; pos < 0 in the pre-roll
    int16_t *buf;
    int failed;
} audio_out_t;

// The grid point of the timeline at or after sample `rel` (relative to base).
static long long grid_ceil(const audio_out_t *a, long long rel)
{
    long long abs = a->base + rel, q = abs / AUDIO_GRID;
    if (q * AUDIO_GRID < abs)
        q++;   // division truncates: that is the ceiling below 0, the floor above
    return q * AUDIO_GRID - a->base;
}

// The listener at playback time pt, demo time t: where the camera is at t (--camera), else the
// recording player's view at t, both blended between the world's last two frames as the picture
// at t is. A free camera without a place is placed at `from` (as the pictures' is) once the sound
// reaches it; before, the listener is the recording player's view.
static void listen_at(audio_out_t *a, player_t *p, double pt, double t)
{
    float org[3], fwd[3], up[3];
    int body;
    if (a->cam && a->free_wait && pt >= a->from) {
        r_camera_pose(a->cam, a->world, player_demo_time(p, a->from), org, fwd, up, NULL);   // it starts here
        a->free_wait = 0;
    }
    if (a->cam && !a->free_wait && r_camera_pose(a->cam, a->world, t, org, fwd, up, &body) == 0) {
        snd_listener_axes(a->snd, org, fwd, up);
        snd_listener_entity(a->snd, body);
    } else
        player_listener_at(p, a->snd, t);
}

// The listener at the world's latest frame (after the seek, and as each frame's sounds start).
static void set_listener(audio_out_t *a, player_t *p)
{
    listen_at(a, p, player_time(p), a->world->time);
}

// Render sound up to sample frame `upto`, in pieces ending on the grid; write what
// falls in [0, total). The last render goes on past the end to the next grid point
// (or server frame), as an export running on would: the part's last samples come
// from the same render calls as in a longer export. Before each piece the listener
// moves to where the view is at the piece's end (blended between the world's last two
// frames, as the pictures are: the engines update it once per drawn frame); OpenAL Soft
// ramps the change over the piece, so the listener glides between server frames.
static void audio_to(audio_out_t *a, long long upto)
{
    if (!a->snd || !a->wav)
        return;
    long long limit = grid_ceil(a, a->total);
    if (upto > limit)
        upto = limit;
    const world_t *w = a->world;
    while (a->pos < upto) {
        long long end = grid_ceil(a, a->pos + 1);
        if (end > upto)
            end = upto;
        double pt = (double)(a->base + end) / EXPORT_RATE, t = player_demo_time(a->p, pt);
        if (t > w->time)
            t = w->time;
        if (t < w->prev_time && w->prev_time < w->time)
            t = w->prev_time;
        listen_at(a, a->p, pt, t);
        int n = (int)(end - a->pos);
        snd_render(a->snd, a->buf, n);
        long long w0 = a->pos < 0 ? -a->pos : 0, w1 = a->pos + n > a->total ? a->total - a->pos : n;
        if (w1 > w0 && fwrite(a->buf + 2 * w0, 4, (size_t)(w1 - w0), a->wav) != (size_t)(w1 - w0))
            a->failed = 1;
        a->pos = end;
    }
}

static long long timeline_sample(double pt)
{
    return llround(pt * EXPORT_RATE);
}

static long long sample_at(const audio_out_t *a, double pt)
{
    long long s = timeline_sample(pt) - a->base;
    return s < -(long long)(AUDIO_PREROLL * EXPORT_RATE) ? -(long long)(AUDIO_PREROLL * EXPORT_RATE) : s;
}

// playback time - world time of the player's current level
static double clock_offset(const player_t *p)
{
    return -player_demo_time(p, 0.0);
}

// A new server frame is about to start its sounds: first finish the sound up to its time.
static void on_frame(void *ctx, player_t *p)
{
    audio_out_t *a = ctx;
    if (!a->snd)
        return;
    audio_to(a, sample_at(a, player_time(p)));
    snd_set_clock(a->snd, a->base + a->pos, clock_offset(p));
    set_listener(a, p);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress(long long k, long long n, double t0)
{
    double el = now_seconds() - t0;
    double eta = k > 0 ? el * (double)(n - k) / (double)k : 0;
    int bar = 30, fill = n > 0 ? (int)(bar * k / n) : bar;
    char b[64];
    for (int i = 0; i < bar; i++)
        b[i] = i < fill ? '#' : '.';
    b[bar] = 0;
    fprintf(stderr, "\r[%s] %3d%% frame %lld/%lld  %.1f frames/s  ETA %d:%02d ", b, n > 0 ? (int)(100 * k / n) : 100,
            k, n, el > 0 ? (double)k / el : 0.0, (int)eta / 60, (int)eta % 60);
    fflush(stderr);
}

static int make_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0)
        return S_ISDIR(st.st_mode) ? 0 : -1;
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

// ---- video: render threads, each drawing every K-th frame with its own player and renderer ----
//
// Frame k is drawn by worker k % K. A renderer's picture at time t depends only on the
// frames decoded before t and on t (nothing in it remembers which times were drawn), so
// K workers give the bytes one gives; the frames reach the encoders in order through a
// turn gate (a Y4M stream needs them so, and the encoders' slots then never wait for
// a frame that cannot come).

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    long long next;            // the frame whose turn it is to be handed to the encoders
    int failed;
} gate_t;

typedef struct {
    const cli_t *cli;
    int index, count;          // this worker draws frames index, index + count, ...
    double from;
    long num, den;
    long long nframes;
    int w, h;
    enc_t *enc;
    gate_t *gate;
    int status;
    pthread_t thread;
} video_t;

static void gate_fail(gate_t *g)
{
    pthread_mutex_lock(&g->mu);
    g->failed = 1;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static void *video_worker(void *arg)
{
    video_t *v = arg;
    if (v->index > 0)
        log_mute_thread(1);   // the first worker says what is missing; the others would repeat it
    demo_t d;
    renderer_t *r = NULL;
    player_t *p = NULL;
    v->status = EXIT_INTERNAL;
    if (demo_open(&d, v->cli, v->cli->files[0], NULL, 0) < 0) {
        log_error("%s", d.errmsg);
        demo_close(&d);
        gate_fail(v->gate);
        return NULL;
    }
    r = r_create(v->w, v->h);
    p = r ? player_create(&d, v->cli, r, NULL, NULL) : NULL;
    if (!p || player_scan(p) < 0) {
        log_error("%s: out of memory", d.name);
        goto out;
    }
    if (cam_from_cli(r, v->cli->camera, "export") < 0 || player_seek(p, v->from) < 0)
        goto out;
    // a free camera without a place starts at the eyes of `from` in every thread (asking places it)
    float o[3], f[3], u[3];
    r_camera_pose(r, d.world, player_demo_time(p, v->from), o, f, u, NULL);
    for (long long k = v->index; k < v->nframes; k += v->count) {
        double t = v->from + (double)k * (double)v->den / (double)v->num;
        if (player_advance(p, t) < 0) {
            log_error("%s: out of memory", d.name);
            goto out;
        }
        r_render(r, d.world, player_demo_time(p, t));
        pthread_mutex_lock(&v->gate->mu);
        while (v->gate->next != k && !v->gate->failed)
            pthread_cond_wait(&v->gate->cv, &v->gate->mu);
        int failed = v->gate->failed;
        pthread_mutex_unlock(&v->gate->mu);
        if (failed)
            goto out;
        // the 8-bit frame and its palette go to the encoders; the next frame renders meanwhile
        int pw, ph, pitch;
        const uint8_t *pix = r_pixels(r, &pw, &ph, &pitch);
        if (enc_push(v->enc, k, pix, pitch, r_palette(r)) < 0) {
            log_error("export: %s", enc_error(v->enc));
            goto out;
        }
        pthread_mutex_lock(&v->gate->mu);
        v->gate->next = k + 1;
        pthread_cond_broadcast(&v->gate->cv);
        pthread_mutex_unlock(&v->gate->mu);
    }
    v->status = EXIT_OK;
out:
    if (v->status != EXIT_OK)
        gate_fail(v->gate);
    player_destroy(p);
    r_destroy(r);
    demo_close(&d);
    return NULL;
}

int cmd_export(const cli_t *cli)
{
    if (!cli->out) {
        log_error("export: -o DIR (or -o - for a YUV4MPEG2 stream on stdout) is required");
        return EXIT_USAGE;
    }
    double fps_in = cli->fps > 0 ? cli->fps : 30.0;
    if (cli->fps != 0 && !(cli->fps >= 0.01 && cli->fps <= 1000)) {
        log_error("export: --fps must be between 0.01 and 1000, got %g", cli->fps);
        return EXIT_USAGE;
    }
    long num, den;
    mov_fps_ratio(fps_in, &num, &den);
    int to_stdout = !strcmp(cli->out, "-");
    // -o - is a Y4M stream; --format y4m -o FILE the same stream into a file
    enc_format_t fmt = to_stdout || (cli->format && !strcmp(cli->format, "y4m")) ? ENC_Y4M : ENC_PNG;
    if (to_stdout && cli->format && !strcmp(cli->format, "png")) {
        log_error("export: -o - writes a YUV4MPEG2 stream; --format png needs -o DIR");
        return EXIT_USAGE;
    }
    int detached = 0;   // a camera away from the recording player's eyes: the listener follows it
    int free_unplaced = 0;
    if (cli->camera) {   // a bad spec or path file is said once, here, not by every render thread
        char cam_err[512];
        r_camera_t *cam = malloc(sizeof *cam);
        int rc = cam ? cam_parse(cli->camera, cam, cam_err, sizeof cam_err) : -1;
        if (rc < 0)
            log_error("export: --camera: %s", cam ? cam_err : "out of memory");
        else
            detached = cam->mode != R_CAM_EYES, free_unplaced = cam->mode == R_CAM_FREE && !cam->pose_set;
        free(cam);
        if (rc < 0)
            return EXIT_USAGE;
    }
    if (fmt == ENC_PNG && make_dir(cli->out) < 0) {
        log_error("export: cannot create the folder '%s'", cli->out);
        return EXIT_INTERNAL;
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    // --threads N: N render threads and N encoder threads; 0: everything on this thread
    int threads = cli->threads >= 0 ? cli->threads : ncpu > 0 ? (int)(ncpu > 16 ? 16 : ncpu) : 1;
    if (threads > 16)
        threads = 16;

    // the sound, the length and the span come from a player of its own: no renderer, unless the
    // game's rules in the renderer decide sounds (Forsaken's weapons) or the listener follows a
    // camera other than the eyes (--camera: where the pictures are drawn from): then one that draws
    // nothing; with the eyes the listener is the recording player's view of each frame
    demo_t d;
    if (demo_open(&d, cli, cli->files[0], NULL, 0) < 0) {
        log_error("%s", d.errmsg);
        int st = d.failed ? EXIT_DEMO_ERRORS : EXIT_USAGE;
        demo_close(&d);
        return st;
    }
    int w = cli->width ? cli->width : 640, h = cli->height ? cli->height : 480;
    int want_audio = !cli->nosound && (!to_stdout || cli->audio);
    snd_t *snd = want_audio ? snd_create_loopback(EXPORT_RATE, (float)cli->volume) : NULL;
    int rules_sound = snd && d.dec && r_game_sounds(d.dec->game), cam_sound = snd && detached;
    renderer_t *sr = rules_sound || cam_sound ? r_create(16, 16) : NULL;
    if (sr)
        r_set_quiet(sr, 1);   // the drawing renderers say what the level lacks
    player_t *p = (rules_sound || cam_sound) && !sr ? NULL : player_create(&d, cli, sr, snd, NULL);
    if (p && cam_sound && cam_from_cli(sr, cli->camera, "export") < 0) {
        player_destroy(p);   // the path file went away since it was read above
        r_destroy(sr);
        snd_destroy(snd);
        demo_close(&d);
        return EXIT_USAGE;
    }
    int16_t *abuf = malloc(AUDIO_GRID * 4);
    int status = EXIT_OK;
    FILE *wav = NULL, *stream = NULL;
    enc_t *enc = NULL;
    video_t *vids = NULL;
    int nvids = threads > 0 ? threads : 1, started = 0;
    gate_t gate;
    memset(&gate, 0, sizeof gate);
    pthread_mutex_init(&gate.mu, NULL);
    pthread_cond_init(&gate.cv, NULL);
    audio_out_t a;
    memset(&a, 0, sizeof(a));
    if (!p || !abuf || player_scan(p) < 0) {
        log_error("%s: out of memory", d.name);
        status = EXIT_INTERNAL;
        goto done;
    }
    if (want_audio && !snd)
        log_warn("%s: no loopback sound device: exporting without sound", d.name);

    double from = cli->have_from ? cli->from : player_start(p);
    double to = cli->have_to ? cli->to : player_end(p);
    if (to > player_end(p) && player_length_known(p)) {
        if (cli->have_to)
            log_info("%s: --to %.3f is past the end of the demo (%.3f): stopping there", d.name, to, player_end(p));
        to = player_end(p);
    }
    if (!(to > from)) {
        log_error("%s: nothing to export: --from %.3f is not before --to %.3f (the demo runs %.3f .. %.3f)", d.name,
                  from, to, player_start(p), player_end(p));
        status = EXIT_USAGE;
        goto done;
    }
    long long nframes = 0;
    while (from + (double)nframes * (double)den / (double)num < to)
        nframes++;
    double total_s = (double)(timeline_sample(to) - timeline_sample(from));
    if (total_s * 4 + 36 > 4294967295.0) {
        log_error("%s: the sound track of %.0f s does not fit in one WAV file: export it in parts with --from/--to",
                  d.name, to - from);
        status = EXIT_USAGE;
        goto done;
    }

    if (fmt == ENC_Y4M) {
        stream = to_stdout ? stdout : fopen(cli->out, "wb");
        if (!stream) {
            log_error("export: cannot write '%s'", cli->out);
            status = EXIT_INTERNAL;
            goto done;
        }
    }
    char enc_err[600];
    enc = enc_create(fmt, w, h, threads, stream, cli->out, enc_err, sizeof enc_err);
    if (!enc) {
        log_error("export: %s", enc_err);
        status = EXIT_INTERNAL;
        goto done;
    }
    if (snd) {
        char path[4200];
        if (cli->audio)
            snprintf(path, sizeof(path), "%s", cli->audio);
        else if (fmt == ENC_Y4M)   // beside the stream: movie.y4m -> movie.y4m.wav
            snprintf(path, sizeof(path), "%s.wav", cli->out);
        else
            snprintf(path, sizeof(path), "%s/audio.wav", cli->out);
        wav = fopen(path, "wb");
        if (!wav || mov_wav_header(wav, EXPORT_RATE, (uint32_t)total_s) < 0) {
            log_error("export: cannot write '%s'", path);
            status = EXIT_INTERNAL;
            goto done;
        }
    }
    a.p = p;
    a.snd = snd;
    a.cam = cam_sound ? sr : NULL;
    a.world = d.world;
    a.free_wait = cam_sound && free_unplaced;
    a.from = from;
    a.wav = wav;
    a.base = timeline_sample(from);
    a.total = (long long)total_s;
    a.buf = abuf;
    player_set_frame_hook(p, on_frame, &a);

    if (stream && mov_y4m_header(stream, w, h, fps_in) < 0) {
        log_error("export: cannot write to %s", to_stdout ? "stdout" : cli->out);
        status = EXIT_INTERNAL;
        goto done;
    }
    int show_progress = isatty(2) && !cli->quiet;
    double t0 = now_seconds();

    // the pictures: render threads (or, with --threads 0, this thread before the sound)
    vids = calloc((size_t)nvids, sizeof *vids);
    if (!vids) {
        log_error("%s: out of memory", d.name);
        status = EXIT_INTERNAL;
        goto done;
    }
    for (int i = 0; i < nvids; i++) {
        video_t *v = &vids[i];
        *v = (video_t){ .cli = cli, .index = i, .count = nvids, .from = from, .num = num, .den = den,
                        .nframes = nframes, .w = w, .h = h, .enc = enc, .gate = &gate };
        if (threads == 0) {
            video_worker(v);
        } else if (pthread_create(&v->thread, NULL, video_worker, v) != 0) {
            log_error("export: cannot start render thread %d of %d", i + 1, nvids);
            gate_fail(&gate);
            status = EXIT_INTERNAL;
            break;
        }
        started = i + 1;
    }

    // the sound, here: with sound start AUDIO_PREROLL s early and play up to `from` unheard
    a.pos = snd ? -(long long)(AUDIO_PREROLL * EXPORT_RATE) : 0;
    if (player_seek(p, snd ? from - AUDIO_PREROLL : from) < 0) {
        log_error("%s: out of memory", d.name);
        status = EXIT_INTERNAL;
        gate_fail(&gate);
        goto join;
    }
    if (snd) {
        // the pre-roll starts at the frame the seek reached (its loops started there)
        if (player_time(p) > from - AUDIO_PREROLL - 1.0 && player_time(p) < from)
            a.pos = sample_at(&a, player_time(p));
        else if (player_time(p) >= from)
            a.pos = 0;
        snd_set_clock(snd, a.base + a.pos, clock_offset(p));
        set_listener(&a, p);
    }
    for (long long k = 0; k < nframes; k++) {
        double t = from + (double)k * (double)den / (double)num;
        if (player_advance(p, t) < 0) {
            log_error("%s: out of memory", d.name);
            status = EXIT_INTERNAL;
            gate_fail(&gate);
            goto join;
        }
        // the sound up to the grid point before the frame interval starting at k ends
        long long edge = (long long)floor((double)k * EXPORT_RATE * (double)den / (double)num + 0.5);
        audio_to(&a, grid_ceil(&a, edge + 1) - AUDIO_GRID);
        if (show_progress) {
            pthread_mutex_lock(&gate.mu);
            long long shown = gate.next;
            pthread_mutex_unlock(&gate.mu);
            progress(shown, nframes, t0);
        }
    }
    // the frames between the last picture and `to` still start their sounds in the span
    if (snd && player_advance(p, to) < 0) {
        log_error("%s: out of memory", d.name);
        status = EXIT_INTERNAL;
        gate_fail(&gate);
        goto join;
    }
    audio_to(&a, grid_ceil(&a, a.total));
join:
    for (int i = 0; i < started && threads > 0; i++) {
        if (show_progress && i == 0)
            while (1) {   // the pictures still being drawn: the progress line keeps moving
                pthread_mutex_lock(&gate.mu);
                long long shown = gate.next;
                int failed = gate.failed;
                pthread_mutex_unlock(&gate.mu);
                progress(shown, nframes, t0);
                if (shown >= nframes || failed)
                    break;
                struct timespec ts = { 0, 100 * 1000 * 1000 };
                nanosleep(&ts, NULL);
            }
        pthread_join(vids[i].thread, NULL);
    }
    for (int i = 0; i < started; i++)
        if (vids[i].status != EXIT_OK && status == EXIT_OK)
            status = EXIT_INTERNAL;
    if (enc_finish(enc) < 0 && status == EXIT_OK) {
        log_error("export: %s", enc_error(enc));
        status = EXIT_INTERNAL;
    }
    if (show_progress) {
        progress(gate.next, nframes, t0);
        fputc('\n', stderr);
    }
    if (a.failed || (wav && fflush(wav) != 0)) {
        log_error("export: cannot write the sound track");
        status = EXIT_INTERNAL;
    }
    if (stream && fflush(stream) != 0) {
        log_error("export: cannot write to %s", to_stdout ? "stdout" : cli->out);
        status = EXIT_INTERNAL;
    }
    if (status == EXIT_OK && player_error(p)) {
        log_error("%s", player_error(p));
        status = EXIT_DEMO_ERRORS;
    }
    if (status == EXIT_OK) {
        double el = now_seconds() - t0;
        log_info("%s: %lld frames, %lld sound frames, %.1f frames/s (%d render and %d encoder thread%s)", d.name,
                 nframes, a.pos < a.total ? a.pos : a.total, el > 0 ? (double)nframes / el : 0.0, threads, threads, threads == 1 ? "" : "s");
    }
done:
    enc_destroy(enc);   // waits for the frames in flight
    free(vids);
    pthread_cond_destroy(&gate.cv);
    pthread_mutex_destroy(&gate.mu);
    if (stream && stream != stdout && fclose(stream) != 0 && status == EXIT_OK) {
        log_error("export: cannot write '%s'", cli->out);
        status = EXIT_INTERNAL;
    }
    if (wav && fclose(wav) != 0 && status == EXIT_OK) {
        log_error("export: cannot write the sound track");
        status = EXIT_INTERNAL;
    }
    free(abuf);
    player_destroy(p);
    r_destroy(sr);
    if (snd)
        snd_destroy(snd);
    demo_close(&d);
    return status;
}
