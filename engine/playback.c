// playback.c -- the player: decoding ahead, level loads, snapshots and seeking (see playback.h)
#include "playback.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "angles.h"
#include "log.h"

#define NO_TIME (-1e300)

typedef struct {
    long long frame;        // frames decoded when it was taken (0 = right after open)
    double pt, prev_pt;     // playback time of the latest frame and the one before
    double offset, last_raw;
    int have_frame;
    world_t *world;         // world_clone
    uint8_t *dec;           // copy of the decoder state
    size_t bytes;
} snap_t;

struct player_s {
    demo_t *d;
    const cli_t *cli;
    renderer_t *r;
    snd_t *snd;
    vfs_t *fs;
    char fs_game[WORLD_NAME_LEN];
    player_opts_t o;
    double interval;

    // clock bookkeeping of the latest decoded frame
    double offset;          // playback time = world->time + offset
    double last_raw;        // world->time of the latest frame
    int have_frame;
    double cur_pt, prev_pt;
    long long frame;
    int ended;

    double start_pt, first_pt;
    int have_start, have_first;
    double end_pt;
    long long total_frames;
    int length_known;

    int scanning;           // decode only: no level loads, no renderer, no sound
    int silent;             // no snd_frame (seek replays)
    int level_loaded;
    uint32_t loaded_level;
    char warned_map[WORLD_NAME_LEN];
    char mod_checked_map[WORLD_NAME_LEN];   // the level demo_check_mod last looked at

    snap_t *snaps;
    int nsnaps, capsnaps;
    size_t snap_bytes;

    void (*hook)(void *ctx, player_t *p);
    void *hook_ctx;

    double level_pt[PLAYER_MAX_LEVELS];   // where levels began (player_levels)
    int nlevels;
    uint32_t level_mark_seq;

    long long frames_decoded;
    double load_seconds, last_seek_ms, max_seek_ms;
    char error[1600];
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void snap_free(snap_t *s)
{
    world_free(s->world);
    free(s->dec);
    memset(s, 0, sizeof(*s));
}

static int take_snapshot(player_t *p)
{
    if (p->nsnaps == p->capsnaps) {
        int cap = p->capsnaps ? p->capsnaps * 2 : 64;
        snap_t *n = realloc(p->snaps, (size_t)cap * sizeof(*n));
        if (!n)
            return -1;
        p->snaps = n;
        p->capsnaps = cap;
    }
    snap_t *s = &p->snaps[p->nsnaps];
    memset(s, 0, sizeof(*s));
    s->world = world_clone(p->d->world);
    s->dec = malloc(p->d->dec->state_size ? p->d->dec->state_size : 1);
    if (!s->world || !s->dec) {
        snap_free(s);
        return -1;
    }
    // decoders promise their state is plain copyable data (formats/decoder.h)
    memcpy(s->dec, p->d->state, p->d->dec->state_size);
    s->frame = p->frame;
    s->pt = p->cur_pt;
    s->prev_pt = p->prev_pt;
    s->offset = p->offset;
    s->last_raw = p->last_raw;
    s->have_frame = p->have_frame;
    s->bytes = world_clone_bytes(p->d->world) + p->d->dec->state_size + sizeof(*s);
    p->snap_bytes += s->bytes;
    p->nsnaps++;

    // Over budget: keep the first (the start) and every second one after it, and
    // space new ones twice as far apart. Seeks get at most twice as long.
    while (p->snap_bytes > p->o.budget && p->nsnaps > 2) {
        int j = 1;
        for (int i = 1; i < p->nsnaps; i++) {
            if (i % 2 == 1 && i != p->nsnaps - 1) {
                p->snap_bytes -= p->snaps[i].bytes;
                snap_free(&p->snaps[i]);
            } else {
                p->snaps[j++] = p->snaps[i];
            }
        }
        if (j == p->nsnaps)
            break;
        p->nsnaps = j;
        p->interval *= 2;
    }
    return 0;
}

static void restore_snapshot(player_t *p, const snap_t *s)
{
    world_restore(p->d->world, s->world);
    memcpy(p->d->state, s->dec, p->d->dec->state_size);
    p->d->ended = 0;
    p->d->failed = 0;
    p->frame = s->frame;
    p->cur_pt = s->pt;
    p->prev_pt = s->prev_pt;
    p->offset = s->offset;
    p->last_raw = s->last_raw;
    p->have_frame = s->have_frame;
    p->ended = 0;
}

// Load the level in the renderer and the sound system when the world moved to another one.
static void check_level(player_t *p)
{
    world_t *w = p->d->world;
    // level_seq 0: no level has begun (a header may name the map already: GoldSrc's does);
    // a seek back to the start restores that state and must not load the level again
    if (p->scanning || !w->map[0] || !w->level_seq || (p->level_loaded && p->loaded_level == w->level_seq))
        return;
    double t0 = now_seconds();
    const char *game = p->cli && p->cli->game ? p->cli->game : w->game_dir;
    if (!p->fs || strcmp(game, p->fs_game) != 0) {
        vfs_free(p->fs);
        p->fs = p->cli ? demo_mount(p->d, p->cli) : vfs_create();
        snprintf(p->fs_game, sizeof(p->fs_game), "%s", game);
    }
    if (p->fs) {
        if (p->r) {
            char err[512] = "";
            if (r_load_level(p->r, p->fs, w, err, sizeof(err)) < 0 && strcmp(p->warned_map, w->map) != 0 &&
                !r_quiet(p->r)) {
                log_warn("%s: %s", p->d->name, err[0] ? err : "cannot load the level");
                snprintf(p->warned_map, sizeof(p->warned_map), "%s", w->map);
            }
        }
        if (p->snd)
            snd_load_level(p->snd, p->fs, w);
    }
    // a mod's demo on id1's map of the same name: once per level (not again after a seek)
    if (p->cli && strcmp(p->mod_checked_map, w->map) != 0) {
        demo_check_mod(p->d, p->cli);
        snprintf(p->mod_checked_map, sizeof(p->mod_checked_map), "%s", w->map);
    }
    p->level_loaded = 1;
    p->loaded_level = w->level_seq;
    p->load_seconds += now_seconds() - t0;
}

player_t *player_create(demo_t *d, const cli_t *cli, renderer_t *r, snd_t *snd, const player_opts_t *opts)
{
    player_t *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->d = d;
    p->cli = cli;
    p->r = r;
    p->snd = snd;
    if (cli && r)
        r_set_notify(r, cli->notify);
    p->o.interval = 3.0;
    p->o.warmup = 3.0;
    p->o.budget = (size_t)64 << 20;
    if (opts)
        p->o = *opts;
    p->interval = p->o.interval;
    p->cur_pt = p->prev_pt = NO_TIME;
    p->total_frames = -1;
    // snapshot 0: the state right after open, so any seek has somewhere to start
    if (take_snapshot(p) < 0) {
        player_destroy(p);
        return NULL;
    }
    return p;
}

void player_destroy(player_t *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nsnaps; i++)
        snap_free(&p->snaps[i]);
    free(p->snaps);
    vfs_free(p->fs);
    free(p);
}

// The lasting loops the game's rules want now (r_loops: Forsaken's placed sounds) to the sound system.
#define PLAYER_RULE_LOOPS 64
static void rule_loops(player_t *p)
{
    r_loop_t rl[PLAYER_RULE_LOOPS];
    snd_loop_t sl[PLAYER_RULE_LOOPS];
    int n = p->r ? r_loops(p->r, rl, PLAYER_RULE_LOOPS) : 0;
    for (int i = 0; i < n; i++) {
        sl[i].id = rl[i].id;
        sl[i].name = rl[i].name;
        memcpy(sl[i].origin, rl[i].origin, sizeof sl[i].origin);
        sl[i].volume = rl[i].volume;
        sl[i].attenuation = rl[i].attenuation;
        sl[i].centred = rl[i].centred;
        sl[i].start = rl[i].start;
    }
    snd_loops(p->snd, p->d->world, sl, n);
}

int player_step(player_t *p)
{
    if (p->ended)
        return 0;
    long long counted = player_info_frames(p);
    int rc = demo_read_frame(p->d);
    if (rc <= 0) {
        if (rc < 0 && !p->error[0])
            snprintf(p->error, sizeof(p->error), "%s", p->d->errmsg);
        p->ended = 1;
        p->end_pt = p->have_frame ? p->cur_pt : 0;
        p->total_frames = p->frame;
        p->length_known = 1;
        return 0;
    }
    world_t *w = p->d->world;
    double raw = w->time;
    // the server clock restarts at a new level: keep playback time from going back
    if (p->have_frame && raw < p->last_raw)
        p->offset += p->last_raw - raw;
    p->last_raw = raw;
    p->prev_pt = p->cur_pt;
    p->cur_pt = raw + p->offset;
    p->have_frame = 1;
    p->frame++;
    p->frames_decoded++;
    if (!p->have_first) {
        p->first_pt = p->cur_pt;
        p->have_first = 1;
    }
    // a level begins: remember where, once (a seek back replays frames already marked)
    if ((p->nlevels == 0 || w->level_seq != p->level_mark_seq) && p->nlevels < PLAYER_MAX_LEVELS &&
        (p->nlevels == 0 || p->cur_pt > p->level_pt[p->nlevels - 1])) {
        p->level_pt[p->nlevels++] = p->cur_pt;
    }
    p->level_mark_seq = w->level_seq;
    // the demo starts at its first server frame, not at the sign-on blocks before it
    if (!p->have_start && player_info_frames(p) != counted) {
        p->start_pt = p->cur_pt;
        p->have_start = 1;
    }

    if (!p->scanning) {
        check_level(p);
        if (p->hook && !p->silent)
            p->hook(p->hook_ctx, p);
        if (p->r)
            r_frame(p->r, w);
        if (p->snd && !p->silent) {
            snd_frame(p->snd, w);
            // the sounds the game's rules decided in the renderer (Forsaken's weapons, explosions, mines)
            r_sound_t rs[32];
            int n = p->r ? r_sounds(p->r, rs, 32) : 0;
            for (int i = 0; i < n; i++)
                snd_play_at(p->snd, w, rs[i].name, rs[i].origin, rs[i].volume, rs[i].attenuation);
            rule_loops(p);
        }
    }

    const snap_t *last = &p->snaps[p->nsnaps - 1];
    if (p->interval > 0 && p->frame > last->frame && (!last->have_frame || p->cur_pt - last->pt >= p->interval))
        if (take_snapshot(p) < 0)
            return -1;
    return 1;
}

int player_advance(player_t *p, double t)
{
    // a sign-on block (before the demo's first server frame: GoldSrc's loading segment, whose
    // view is still at the origin) never stands for a time: the first frame shown is the first
    // server frame, as play starts there (have_start: the decoder counts its server frames)
    while (!p->ended && (!p->have_frame || p->cur_pt < t || (p->have_start && player_info_frames(p) == 0))) {
        int rc = player_step(p);
        if (rc < 0)
            return -1;
    }
    return p->have_frame && p->cur_pt >= t;
}

int player_seek(player_t *p, double t)
{
    double t0 = now_seconds();
    // the latest snapshot whose frames all lie before t - warmup: playing from the
    // start passes through it on the way to t
    int best = 0;
    for (int i = 1; i < p->nsnaps; i++)
        if (p->snaps[i].have_frame && p->snaps[i].pt < t - p->o.warmup)
            best = i;
    const snap_t *s = &p->snaps[best];
    int forward = p->have_frame ? p->cur_pt < t : !p->ended;
    p->silent = 1;
    if (!(forward && s->frame <= p->frame)) {
        // going back, or far enough forward that a snapshot beats reading on
        restore_snapshot(p, s);
        if (p->r)
            r_clear_transients(p->r, !s->have_frame);
        check_level(p);
    }
    int rc = player_advance(p, t);
    p->silent = 0;
    if (p->snd) {
        // the sounds of the skipped stretch are in the past; this frame's events
        // and the level's looping sounds start now
        snd_stop_all(p->snd);
        if (p->have_frame && !p->ended) {
            snd_frame(p->snd, p->d->world);
            rule_loops(p);   // the game's lasting loops where they would be now
        }
    }
    p->last_seek_ms = (now_seconds() - t0) * 1000.0;
    if (p->last_seek_ms > p->max_seek_ms)
        p->max_seek_ms = p->last_seek_ms;
    return rc < 0 ? -1 : 0;
}

int player_scan(player_t *p)
{
    if (p->length_known)
        return 0;
    p->scanning = 1;
    int rc;
    while ((rc = player_step(p)) > 0) {
    }
    p->scanning = 0;
    if (rc < 0)
        return -1;
    // back to the start; the renderer sees the level again when frames come
    restore_snapshot(p, &p->snaps[0]);
    if (p->r)
        r_clear_transients(p->r, 1);
    return 0;
}

double player_time(const player_t *p) { return p->have_frame ? p->cur_pt : NO_TIME; }
double player_prev_time(const player_t *p) { return p->prev_pt; }
double player_demo_time(const player_t *p, double t) { return t - p->offset; }
double player_start(const player_t *p) { return p->have_start ? p->start_pt : p->have_first ? p->first_pt : 0; }
double player_end(const player_t *p) { return p->length_known ? p->end_pt : (p->have_frame ? p->cur_pt : 0); }
int player_length_known(const player_t *p) { return p->length_known; }
long long player_frame(const player_t *p) { return p->frame; }
long long player_info_frames(const player_t *p)
{
    const demo_info_t *in = p->d->dec->info ? p->d->dec->info(p->d->state) : NULL;
    return in ? in->drawn_frames : p->frame;
}
long long player_frames(const player_t *p) { return p->length_known ? p->total_frames : -1; }
int player_ended(const player_t *p) { return p->ended; }
int player_levels(const player_t *p, const double **times)
{
    *times = p->level_pt;
    return p->nlevels;
}
const char *player_error(const player_t *p) { return p->error[0] ? p->error : NULL; }

void player_set_frame_hook(player_t *p, void (*fn)(void *ctx, player_t *p), void *ctx)
{
    p->hook = fn;
    p->hook_ctx = ctx;
}

void player_get_stats(const player_t *p, player_stats_t *st)
{
    st->count = p->nsnaps;
    st->bytes = p->snap_bytes;
    st->interval = p->interval;
    st->frames = p->frames_decoded;
    st->load_seconds = p->load_seconds;
    st->last_seek_ms = p->last_seek_ms;
    st->max_seek_ms = p->max_seek_ms;
}

void player_view(const player_t *p, vec3_t origin, vec3_t angles)
{
    const world_t *w = p->d->world;
    if (!world_view_origin(w, &w->view, origin))
        origin[0] = origin[1] = origin[2] = 0;
    memcpy(angles, w->view.angles, sizeof(vec3_t));
}

void player_listener(const player_t *p, snd_t *snd)
{
    if (!p || !snd)
        return;
    vec3_t org, ang, fwd, right, up;
    player_view(p, org, ang);
    world_angle_vectors(p->d->world->game, ang, fwd, right, up);
    snd_listener_axes(snd, org, fwd, up);
}

void player_view_at(const player_t *p, double t, vec3_t origin, vec3_t angles)
{
    const world_t *w = p->d->world;
    const world_view_t *v = &w->view;
    double frac = world_frac(w, t);
    if (frac >= 1) {   // the frame's own pose, to the bit
        player_view(p, origin, angles);
        return;
    }
    float f = (float)frac;
    if (v->origin_valid) {
        for (int k = 0; k < 3; k++)
            origin[k] = v->prev_origin[k] + (v->origin[k] - v->prev_origin[k]) * f;
    } else if (v->entity > 0 && v->entity < w->num_entities) {
        // the view entity as it is drawn: not blended when it teleported or (re)appeared
        const world_entity_t *e = &w->entities[v->entity];
        float fe = e->lerp_ok ? f : 1.0f;
        for (int k = 0; k < 3; k++)
            origin[k] = e->prev.origin[k] + (e->cur.origin[k] - e->prev.origin[k]) * fe + v->ofs[k];
    } else {
        origin[0] = origin[1] = origin[2] = 0;
    }
    for (int k = 0; k < 3; k++) {   // the short way round
        float d = v->angles[k] - v->prev_angles[k];
        d -= 360.0f * floorf((d + 180.0f) / 360.0f);
        angles[k] = v->prev_angles[k] + d * f;
    }
}

void player_listener_at(const player_t *p, snd_t *snd, double t)
{
    if (!p || !snd)
        return;
    vec3_t org, ang, fwd, right, up;
    player_view_at(p, t, org, ang);
    world_angle_vectors(p->d->world->game, ang, fwd, right, up);
    snd_listener_axes(snd, org, fwd, up);
}
