// test_cs_shells.c -- Counter-Strike 1.6's shells (engine/hltent.c's shell table, cs16-client's
// rules): crossfire's ten usp shots each eject a models/pshell.mdl temp model that bounces on the
// floor and is heard (the bounce sounds requested, and an export's track with a mod folder of
// tones under their names), and, with a mod folder that gives pshell.mdl (Half-Life's shell.mdl
// linked under that name at test time), the shell is drawn where the simulation puts it.
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "assets/bsp.h"
#include "audio/snd.h"
#include "audio/snd_local.h"
#include "engine/angles.h"
#include "engine/hltent.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_local.h"
#include "render/render.h"

#define TW 320
#define TH 200
#include "hl_level.h"

#define SHOTS 10
#define MAX_HITS 64

typedef struct {
    double birth;              // the usp event's frame
    vec3_t ang;                // the shooter's view then
    int hits, heard;
    double first_heard;        // the frame time of its first heard hit (-1 none)
    double rest_time;          // its last hit: the stop on the floor
    vec3_t rest;
    float floor;               // the floor under where it rests
    int rested;
} shell_t;

typedef struct {
    shell_t s[SHOTS];
    int spawned;               // new temp models counted by hltent_count, frame by frame
    int other_hits;            // hits of anything else (none: the demo has no other temp model)
    double heard_at[64];
    int heard;
} crossfire_t;

static float floor_under(const bsp_t *b, const vec3_t p)
{
    vec3_t start = {p[0], p[1], p[2] + 8}, end = {p[0], p[1], p[2] - 512};
    bsp_trace_t tr;
    if (!bsp_trace(b, b->models[0].headnode, start, end, &tr))
        return -1e9f;
    return tr.endpos[2];
}

static void take_hits(crossfire_t *C, const bsp_t *bsp, const hltent_bounce_t *h, int n, double frame_time)
{
    for (int i = 0; i < n; i++) {
        uint32_t entry = h[i].id / 128;
        if (entry >= SHOTS || h[i].hitsound != HLTENT_BOUNCE_SHELL) {
            C->other_hits++;
            continue;
        }
        shell_t *s = &C->s[entry];
        s->hits++;
        snd_req_t r[2];
        if (snd_client_hl_bounce(&h[i], r, 2) >= 1) {
            assert_true(!strcmp(r[0].name, "player/pl_shell1.wav") || !strcmp(r[0].name, "player/pl_shell2.wav") ||
                        !strcmp(r[0].name, "player/pl_shell3.wav"));
            assert_true(r[0].volume > 0 && r[0].volume <= 0.8f + 1e-6f);
            if (!s->heard)
                s->first_heard = frame_time;
            s->heard++;
            if (C->heard < 64)
                C->heard_at[C->heard++] = frame_time;
        }
        if (h[i].damp == 0) {
            s->rested = 1;
            s->rest_time = h[i].time;
            memcpy(s->rest, h[i].org, sizeof(vec3_t));
            s->floor = floor_under(bsp, h[i].org);
        }
    }
}

// crossfire decoded through one hltent pool, as the sound system steps its own (audio/snd.c):
// each frame the hits of the models already there, then the new log entries spawned, then theirs.
static void run_crossfire(crossfire_t *C)
{
    memset(C, 0, sizeof *C);
    size_t size = 0;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(data);
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    hltent_t *p = hltent_create();
    assert_non_null(p);
    bsp_t *bsp = NULL;
    uint32_t seen = 0;
    double last = 0;
    while (hl_decoder.read_frame(st, w, &err) > 0) {
        if (!bsp && w->map[0]) {
            size_t n = 0;
            uint8_t *b = vfs_load(fs, w->map, &n);
            assert_non_null(b);
            char e[256];
            bsp = bsp_load(b, n, w->map, e, sizeof e);
            assert_non_null(bsp);
            free(b);
        }
        if (!bsp)
            continue;
        hltent_bounce_t h[MAX_HITS];
        int n = hltent_bounces(p, bsp, w->prev_time, w->time, h, MAX_HITS);
        take_hits(C, bsp, h, n, w->time);
        int before = hltent_count(p, w->time);
        hltent_frame(p, bsp, w);
        n = hltent_bounces(p, bsp, w->prev_time, w->time, h, MAX_HITS);
        take_hits(C, bsp, h, n, w->time);
        // the new models (each alive at the frame it is made in: life 2.5 s)
        int made = hltent_count(p, w->time) - before;
        assert_int_equal(made, (int)(w->decal_log_count - seen));
        for (; seen < w->decal_log_count && seen < SHOTS; seen++) {
            C->s[seen].birth = w->decal_log[seen].time;
            memcpy(C->s[seen].ang, w->decal_log[seen].eye_angles, sizeof(vec3_t));
            C->s[seen].first_heard = -1;
        }
        C->spawned += made;
        last = w->time;
    }
    // the models of the last shots after the demo's end (the sound system would have heard them
    // had the demo gone on)
    hltent_bounce_t h[MAX_HITS];
    int n = hltent_bounces(p, bsp, last, last + 3, h, MAX_HITS);
    take_hits(C, bsp, h, n, -1);
    assert_int_equal(w->decal_log_count, SHOTS);
    hltent_free(p);
    bsp_free(bsp);
    hl_decoder.close(st);
    free(st);
    world_free(w);
    vfs_free(fs);
    free(data);
}

// Each usp shot makes one shell (pshell.mdl is precached as model 112, the file is not needed for
// that); each falls to the floor, bounces and comes to rest on it; the hits are bounce sounds
// of the shell type (player/pl_shell1..3.wav), every shell heard at least once.
static void test_crossfire_shells(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    crossfire_t C;
    run_crossfire(&C);
    assert_int_equal(C.spawned, SHOTS);
    assert_int_equal(C.other_hits, 0);
    for (int i = 0; i < SHOTS; i++) {
        const shell_t *s = &C.s[i];
        printf("  shell %d: made at %.3f s, %d hits (%d heard, first at %.3f s), at rest %.2f s later at "
               "(%.1f %.1f %.1f), floor %.2f\n",
               i, s->birth, s->hits, s->heard, s->first_heard, s->rest_time - s->birth, s->rest[0], s->rest[1],
               s->rest[2], s->floor);
        assert_true(s->hits >= 2);
        assert_true(s->heard >= 1);
        assert_true(s->rested);
        assert_true(s->rest_time > s->birth && s->rest_time < s->birth + 2.5);
        assert_true(fabsf(s->rest[2] - s->floor) < 0.5f);
    }
}

// ---- the track an export writes, with a mod folder of tones under the shells' sounds --------

static void make_dirs(char *base, size_t cap)
{
    snprintf(base, cap, "/tmp/demoplay_csshell_%d", (int)getpid());
    char cmd[PATH_MAX * 3], valve[PATH_MAX];
    assert_non_null(realpath(tu_data("goldsrc/valve"), valve));
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/csmod/models' '%s/emptymod' && ln -sfn '%s' '%s/valve' && "
             "ln -sfn '%s/models/shell.mdl' '%s/csmod/models/pshell.mdl'",
             base, base, base, valve, base, valve, base);
    assert_int_equal(system(cmd), 0);
}

static void remove_dirs(const char *base)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    assert_int_equal(system(cmd), 0);
}

static void test_crossfire_shell_track(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    crossfire_t C;
    run_crossfire(&C);
    char base[256];
    make_dirs(base, sizeof base);
    static const char *const names[] = {"player/pl_shell1.wav", "player/pl_shell2.wav", "player/pl_shell3.wav"};
    for (size_t i = 0; i < 3; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/emptymod/sound/%s", base, names[i]);
        tu_write_tone(path, 0.03, 440);
    }
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "%s export -q --basedir %s --game emptymod --fps 5 --size 64x48 -o - --audio %s/track.wav '%s' > /dev/null",
             tu_bin(), base, base, tu_data("goldsrc/demos/cstrike_crossfire.dem"));
    int status = 0;
    free(tu_run(cmd, &status));
    assert_int_equal(status, 0);
    size_t size = 0;
    char path[512];
    snprintf(path, sizeof path, "%s/track.wav", base);
    uint8_t *wav = tu_read(path, &size);
    assert_non_null(wav);
    assert_true(size > 44);
    int rate = wav[24] | wav[25] << 8 | wav[26] << 16;
    const int16_t *pcm = (const int16_t *)(wav + 44);
    long frames = (long)((size - 44) / 4);
    // nothing else has a sound in the mod (shared/ has none): silent before the first hit heard,
    // a tone starting at the frame of each hit heard
    assert_true(C.heard >= SHOTS - 1);
    assert_true(C.heard_at[0] > 0.1);
    assert_true(tu_energy(pcm, frames, rate, 0, C.heard_at[0] - 0.02) == 0);
    int checked = 0;
    for (int i = 0; i < C.heard; i++) {
        double t = C.heard_at[i];
        if (t < 0 || t > (double)frames / rate - 0.05 || (i > 0 && t - C.heard_at[i - 1] < 0.06))
            continue;   // after the demo's end, or the one before still sounds
        double before = tu_energy(pcm, frames, rate, t - 0.03, t - 0.002);
        double after = tu_energy(pcm, frames, rate, t, t + 0.03);
        printf("  shell hit heard at %.3f s: energy before %.3g, after %.3g\n", t, before, after);
        assert_true(after > 100 * before + 1e5);
        checked++;
    }
    assert_true(checked >= 5);
    free(wav);
    remove_dirs(base);
}

// ---- drawn: pshell.mdl given by a mod folder (Half-Life's shell.mdl under that name) ----------

// Where p is on the 320 x 200 screen of the view last drawn (r_main.c's projection: 4:3 with
// pixels 1.2 tall); 0 when behind the eye.
static int project(const renderer_t *r, const vec3_t p, float *sx, float *sy)
{
    r_cam_state_t cs;
    r_camera_state(r, &cs);
    float pi = (float)M_PI / 180, yaw = cs.angles[1] * pi, pitch = cs.angles[0] * pi, roll = cs.angles[2] * pi;
    float sy_ = sinf(yaw), cy = cosf(yaw), sp = sinf(pitch), cp = cosf(pitch), sr = sinf(roll), cr = cosf(roll);
    vec3_t fwd = {cp * cy, cp * sy_, -sp};
    vec3_t right = {-sr * sp * cy + cr * sy_, -sr * sp * sy_ - cr * cy, -sr * cp};
    vec3_t up = {cr * sp * cy + sr * sy_, cr * sp * sy_ - sr * cy, cr * cp};
    vec3_t d = {p[0] - cs.origin[0], p[1] - cs.origin[1], p[2] - cs.origin[2]};
    float z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
    if (z < 1)
        return 0;
    float xscale = (float)(TW / 2.0 / tan(cs.fov * M_PI / 360)), yscale = xscale / 1.2f;
    *sx = TW / 2.0f + xscale * (d[0] * right[0] + d[1] * right[1] + d[2] * right[2]) / z;
    *sy = TH / 2.0f - yscale * (d[0] * up[0] + d[1] * up[1] + d[2] * up[2]) / z;
    return 1;
}

// The renderer's view at time t of crossfire (decoded up to there, its level from valve), and the
// temp models it has then.
static int view_at(double t, renderer_t *r, hltent_draw_t *d, int max)
{
    size_t size = 0;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(data);
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    uint32_t seq = 0;
    while (hl_decoder.read_frame(st, w, &err) > 0) {
        if (w->level_seq != seq && w->map[0]) {
            char e[256];
            assert_int_equal(r_load_level(r, fs, w, e, sizeof e), 0);
            seq = w->level_seq;
        }
        r_frame(r, w);
        if (w->time >= t)
            break;
    }
    r_render(r, w, t);
    int n = hltent_list(r->hltent, r->bsp, t, d, max);
    hl_decoder.close(st);
    free(st);
    world_free(w);
    vfs_free(fs);
    free(data);
    return n;
}

static void test_crossfire_shell_drawn(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    crossfire_t C;
    run_crossfire(&C);
    // the moment: the first shell lying on the floor, 0.2 s after it stopped
    const shell_t *s = &C.s[0];
    double t = s->rest_time + 0.2;
    assert_true(t < s->birth + 2.5);
    renderer_t *r = r_create(TW, TH);
    hltent_draw_t d[16];
    int n = view_at(t, r, d, 16);
    int found = -1;
    for (int i = 0; i < n; i++)
        if (fabsf(d[i].org[0] - s->rest[0]) < 0.01f && fabsf(d[i].org[1] - s->rest[1]) < 0.01f)
            found = i;
    assert_true(found >= 0);
    assert_int_equal(d[found].model, 112);   // models/pshell.mdl
    float sx = 0, sy = 0, px[16], py[16];
    assert_true(project(r, s->rest, &sx, &sy));
    int np = 0;
    for (int i = 0; i < n; i++)   // every shell alive then (the others: in the air, or resting elsewhere)
        if (project(r, d[i].org, &px[np], &py[np]))
            np++;
    r_destroy(r);
    printf("  shell 0 at rest at %.3f s: (%.1f %.1f %.1f), on the screen at (%.1f, %.1f)\n", t, s->rest[0],
           s->rest[1], s->rest[2], sx, sy);
    assert_true(sx > 4 && sx < TW - 4 && sy > 4 && sy < TH - 4);

    // shot with the mod that has pshell.mdl, and with one that has not (the shell not drawn)
    char base[256];
    make_dirs(base, sizeof base);
    const char *mods[2] = {"csmod", "emptymod"};
    char out[2][512];
    for (int m = 0; m < 2; m++) {
        snprintf(out[m], sizeof out[m], "%s/%s.png", base, mods[m]);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "%s shot --basedir %s --game %s --at %.4f --size %dx%d -o %s '%s' 2>&1", tu_bin(),
                 base, mods[m], t, TW, TH, out[m], tu_data("goldsrc/demos/cstrike_crossfire.dem"));
        int status = 0;
        char *log = tu_run(cmd, &status);
        assert_int_equal(status, 0);
        // without the file: the drawer says once that the shell's model is missing
        const char *want = "temp model models/pshell.mdl (index 112) is missing";
        const char *at = strstr(log, want);
        if (m == 1) {
            if (!at)
                fail_msg("no warning about pshell.mdl in:\n%s", log);
            assert_null(strstr(at + 1, want));
        } else {
            assert_null(at);
        }
        free(log);
    }
    int w0, h0, c0, w1, h1, c1;
    uint8_t *a = stbi_load(out[0], &w0, &h0, &c0, 3), *b = stbi_load(out[1], &w1, &h1, &c1, 3);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(w0, TW);
    assert_int_equal(w1, TW);
    assert_int_equal(h0, TH);
    int changed = 0, near = 0, near_any = 0;
    float far = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            const uint8_t *pa = a + 3 * (y * TW + x), *pb = b + 3 * (y * TW + x);
            if (pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2])
                continue;
            changed++;
            float dist = sqrtf((x + 0.5f - sx) * (x + 0.5f - sx) + (y + 0.5f - sy) * (y + 0.5f - sy));
            near += dist < 4;
            float best = 1e9f;
            for (int i = 0; i < np; i++) {
                float e = sqrtf((x + 0.5f - px[i]) * (x + 0.5f - px[i]) + (y + 0.5f - py[i]) * (y + 0.5f - py[i]));
                best = e < best ? e : best;
            }
            near_any += best < 6;
            far = best > far ? best : far;
        }
    printf("  drawn: %d pixels change, %d within 4 pixels of shell 0 at (%.1f, %.1f), %d within 6 of one of the %d "
           "shells alive (the farthest %.1f away)\n",
           changed, near, sx, sy, near_any, np, far);
    assert_true(near >= 3);
    assert_int_equal(near_any, changed);
    stbi_image_free(a);
    stbi_image_free(b);
    tu_golden("cs_shell", out[0], "tests/golden/goldsrc/cs_shell.png", 0.01);
    remove_dirs(base);
}

// ---- the rules on c1a0, one synthetic event at a time ------------------------------------------

// One event of `script` in c1a0's log (its level loaded, the log emptied first), the shell it makes
// as listed at its birth and one step later.
static int one_shell(level_t *L, const char *script, int local, const vec3_t pos, const vec3_t ang,
                     const vec3_t vel, int ducking, hltent_draw_t *at0, hltent_draw_t *at1)
{
    world_t *w = L->w;
    w->decal_log_count = 0;
    r_clear_transients(L->r, 1);
    empty_frame(w);
    r_frame(L->r, w);
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "%s", script);
    ev->entity = 1;
    ev->local = (uint8_t)local;
    ev->ducking = (uint8_t)ducking;
    ev->seed = 77;
    ev->time = w->time;
    memcpy(ev->pos, pos, sizeof(vec3_t));
    memcpy(ev->angles, ang, sizeof(vec3_t));
    memcpy(ev->velocity, vel, sizeof(vec3_t));
    r_frame(L->r, w);
    int n = hltent_list(L->r->hltent, L->r->bsp, w->time, at0, 1);
    if (n == 1)
        assert_int_equal(hltent_list(L->r->hltent, L->r->bsp, w->time + HLTENT_STEP, at1, 1), 1);
    return n;
}

// Another player's ak47 shell (cs16-client): rshell.mdl from the gun (origin + 28) 20 forward, 12
// down, 4 right, plus a tenth of his velocity; thrown left (its right offset is positive) 50..70,
// up 75..175, forward 25..250 on half his velocity; the yaw as its roll. Ducking: the gun 12 up.
// The recording player's own: 20 forward, 8 down, 10 right of its gun (here an event without the
// demo's eye: origin + 28). Not precached: none.
static void test_cs_rules(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 150);
    world_t *w = L.w;
    vec3_t pos, ang = {0, 30, 0}, vel = {100, 0, 0}, still = {0, 0, 0}, f, r, u;
    ahead(w, 0, 0, -28, pos);   // the eye 28 above: the room around it is open
    hltent_draw_t a, b;
    assert_int_equal(one_shell(&L, "ak47", 0, pos, ang, vel, 0, &a, &b), 0);   // rshell.mdl not precached
    int rshell = w->num_models;
    assert_int_equal(world_set_model(w, rshell, "models/rshell.mdl"), 0);
    angle_vectors(ang, f, r, u);
    for (int duck = 0; duck < 2; duck++) {
        assert_int_equal(one_shell(&L, "ak47", 0, pos, ang, vel, duck, &a, &b), 1);
        assert_int_equal(a.model, rshell);
        vec3_t want, v;
        for (int k = 0; k < 3; k++) {
            want[k] = pos[k] + (k == 2 ? (duck ? 12.0f : 28.0f) : 0) + vel[k] * 0.1f + f[k] * 20 - u[k] * 12 + r[k] * 4;
            v[k] = (b.org[k] - a.org[k]) / (float)HLTENT_STEP - vel[k] * 0.5f;
        }
        float vr = v[0] * r[0] + v[1] * r[1] + v[2] * r[2], vf = v[0] * f[0] + v[1] * f[1] + v[2] * f[2];
        float vu = v[0] * u[0] + v[1] * u[1] + v[2] * u[2];
        printf("  another player's ak47 shell%s: at (%.2f %.2f %.2f), want (%.2f %.2f %.2f); thrown right %.1f, "
               "forward %.1f, up %.1f; angles (%.1f %.1f %.1f)\n",
               duck ? " (ducking)" : "", a.org[0], a.org[1], a.org[2], want[0], want[1], want[2], vr, vf, vu,
               a.ang[0], a.ang[1], a.ang[2]);
        for (int k = 0; k < 3; k++)
            assert_true(fabsf(a.org[k] - want[k]) < 0.01f);
        assert_true(vr <= -50 + 0.1f && vr >= -70 - 0.1f);
        assert_true(vf >= 25 - 0.1f && vf <= 250 + 0.1f);
        // up: 75..175, less the step's gravity (the first step adds it after moving: none here)
        assert_true(vu >= 75 - 0.1f && vu <= 175 + 0.1f);
        assert_true(a.ang[0] == 0 && a.ang[1] == 0 && fabsf(a.ang[2] - 30) < 0.01f);
    }
    // the recording player's own, the event with its origin (no demo eye in it: the gun 28 up)
    w->decal_log_count = 0;
    assert_int_equal(one_shell(&L, "ak47", 1, pos, ang, still, 0, &a, &b), 1);
    vec3_t want;
    for (int k = 0; k < 3; k++)
        want[k] = pos[k] + (k == 2 ? 28.0f : 0) + f[k] * 20 - u[k] * 8 + r[k] * 10;   // no eye: 28
    for (int k = 0; k < 3; k++)
        assert_true(fabsf(a.org[k] - want[k]) < 0.01f);
    // Half-Life's glock is unchanged: 20 forward, 12 down, 4 right, the yaw as its yaw
    assert_int_equal(one_shell(&L, "glock1", 0, pos, ang, still, 0, &a, &b), 1);
    for (int k = 0; k < 3; k++)
        want[k] = pos[k] + (k == 2 ? 28.0f : 0) + f[k] * 20 - u[k] * 12 + r[k] * 4;
    for (int k = 0; k < 3; k++)
        assert_true(fabsf(a.org[k] - want[k]) < 0.01f);
    assert_true(fabsf(a.ang[1] - 30) < 0.01f && a.ang[2] == 0);
    // the guns without a shell
    assert_int_equal(one_shell(&L, "m3", 0, pos, ang, still, 0, &a, &b), 0);
    assert_int_equal(one_shell(&L, "awp", 0, pos, ang, still, 0, &a, &b), 0);
    close_level(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cs_rules),
        cmocka_unit_test(test_crossfire_shells),
        cmocka_unit_test(test_crossfire_shell_track),
        cmocka_unit_test(test_crossfire_shell_drawn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
