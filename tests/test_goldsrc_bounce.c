// test_goldsrc_bounce.c -- Half-Life's temp models hitting the world, heard: the hits the shared
// simulation (engine/hltent.c) reports for a shell on c1a0's floor, the client's sound rules for
// them (audio/snd_client.c), and the sound track an OpenAL loopback renders from the same log
// (what `export` writes), with a mod folder of generated tones under the bounce sounds' names.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "audio/snd.h"
#include "audio/snd_local.h"
#include "engine/hltent.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_local.h"
#include "render/render.h"

extern const decoder_t hl_decoder;

#define TW 64
#define TH 48
#include "hl_level.h"

#define RATE 48000

// TE_MODEL as the decoder logs it: pos, velocity, yaw, model, bounce sound type, life (0.1 s).
static void log_model(world_t *w, const vec3_t pos, const vec3_t vel, int model, int sound, int life, uint32_t seed)
{
    world_decal_t *d = world_add_decal(w);
    d->te = 106;
    memcpy(d->pos, pos, sizeof(vec3_t));
    memcpy(d->velocity, vel, sizeof(vec3_t));
    d->args[0] = 90;
    d->args[1] = model;
    d->args[2] = sound;
    d->args[3] = life;
    d->model = model;
    d->seed = seed;
}

static float floor_under(const bsp_t *b, const vec3_t p)
{
    vec3_t end = {p[0], p[1], p[2] - 512};
    bsp_trace_t tr;
    assert_int_equal(bsp_trace(b, b->models[0].headnode, p, end, &tr), 1);
    return tr.endpos[2];
}

#define MAX_HITS 64

// A shell thrown straight up 150 a second from 60 units ahead of c1a0's eye: it hits the floor
// at the step the hand-stepped fall says, with the speed it had, damped by half, bounces lower
// each time and stops flat (the last hit, damp 0); the hits are the same whether asked frame by
// frame or at once, and after a clear (a seek) a window gives exactly its own hits again.
static void test_shell_hits(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    const bsp_t *b = L.r->bsp;
    int shell = model_index(w, "models/shell.mdl");
    assert_int_equal(shell, 94);
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t0 = w->time;
    vec3_t pos, vel = {0, 0, 150};
    ahead(w, 60, 0, -10, pos);
    float fl = floor_under(b, pos);
    log_model(w, pos, vel, shell, 1, 25, 1234567);

    // the fall by hand: move, then gravity (800 x 0.01 a step); the floor is crossed at step k
    double z = pos[2], v = 150;
    int k = 0;
    while (z + v * 0.01 > fl) {
        z += v * 0.01;
        v -= 8;
        k++;
    }
    k++;   // the step that crosses it

    hltent_t *once = hltent_create(), *framed = hltent_create();
    assert_non_null(once);
    assert_non_null(framed);
    hltent_frame(once, b, w);
    hltent_frame(framed, b, w);
    hltent_bounce_t all[MAX_HITS], got[MAX_HITS], part[MAX_HITS];
    int n = hltent_bounces(once, b, t0 - 0.05, t0 + 3.0, all, MAX_HITS);
    printf("  shell from %.2f above the floor: %d hits\n", pos[2] - fl, n);
    for (int i = 0; i < n; i++)
        printf("    %.2f s  z %.2f  zvel %d  damp %.1f\n", all[i].time - t0, all[i].org[2], all[i].zvel, all[i].damp);
    assert_true(n >= 3 && n < 20);
    assert_float_equal(all[0].time, t0 + k * 0.01, 1e-9);
    assert_int_equal(all[0].zvel, (int)fabs(v));
    assert_true(fabsf(all[0].org[2] - fl) < 0.5f);
    assert_int_equal(all[0].hitsound, HLTENT_BOUNCE_SHELL);
    assert_float_equal(all[0].damp, 0.5, 0);
    for (int i = 1; i < n; i++) {
        assert_true(all[i].time > all[i - 1].time);
        assert_true(all[i].zvel < all[i - 1].zvel);   // lower each time
        assert_int_equal(all[i].id, all[0].id);
        assert_true(all[i].seed != all[i - 1].seed);  // each hit its own random numbers
    }
    assert_float_equal(all[n - 1].damp, 0, 0);        // it came to rest
    for (int i = 0; i < n - 1; i++)
        assert_float_equal(all[i].damp, 0.5, 0);
    // frame by frame (windows of 0.05 s): the same hits, each once
    int m = 0;
    for (double a = t0 - 0.05; a < t0 + 3.0; a += 0.05) {
        int c = hltent_bounces(framed, b, a, a + 0.05, got + m, MAX_HITS - m);
        for (int i = 0; i < c; i++)
            assert_true(got[m + i].time > a && got[m + i].time <= a + 0.05 + 1e-9);
        m += c;
    }
    assert_int_equal(m, n);
    for (int i = 0; i < n; i++) {
        assert_float_equal(got[i].time, all[i].time, 1e-9);
        assert_int_equal(got[i].zvel, all[i].zvel);
        assert_int_equal(got[i].seed, all[i].seed);
        assert_memory_equal(got[i].org, all[i].org, sizeof(vec3_t));
    }
    // a seek: cleared, nothing until the log is spawned again; then the window after the second
    // hit gives the hits in it, and the next window the rest
    hltent_clear(framed);
    assert_int_equal(hltent_bounces(framed, b, all[0].time, all[1].time + 0.001, part, MAX_HITS), 0);
    hltent_frame(framed, b, w);
    int c = hltent_bounces(framed, b, all[1].time - 0.001, all[2].time, part, MAX_HITS);
    assert_int_equal(c, 2);
    assert_float_equal(part[0].time, all[1].time, 1e-9);
    assert_float_equal(part[1].time, all[2].time, 1e-9);
    assert_int_equal(hltent_bounces(framed, b, all[2].time, t0 + 3.0, part, MAX_HITS), n - 3);
    // the renderer's pool: the shell lies where the last hit left it
    hltent_draw_t d[4];
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 2.0, d, 4), 0);   // not spawned there (no r_frame)
    r_frame(L.r, w);
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 2.0, d, 4), 1);
    assert_float_equal(d[0].org[2], all[n - 1].org[2], 1e-4);
    hltent_free(once);
    hltent_free(framed);
    close_level(&L);
}

// CL_TempEntPlaySound's rules: names, chances, volume, pitch, channel, attenuation.
static void test_bounce_rules(void **state)
{
    (void)state;
    hltent_bounce_t h = {.time = 1, .org = {10, 20, 30}, .zvel = 280, .damp = 0.5f,
                         .hitsound = HLTENT_BOUNCE_SHELL, .id = 5};
    snd_req_t r[2];
    int names[3] = {0}, played = 0;
    for (uint32_t seed = 0; seed < 300; seed++) {   // at 200 a second or more a shell always sounds
        h.seed = seed;
        assert_int_equal(snd_client_hl_bounce(&h, r, 2), 1);
        assert_true(!strncmp(r[0].name, "player/pl_shell", 15));
        names[r[0].name[15] - '1']++;
        assert_float_equal(r[0].volume, 0.8 * 280 / 350.0, 1e-6);
        assert_float_equal(r[0].pitch, 1.0, 0);
        assert_int_equal(r[0].channel, 4);             // CHAN_BODY
        assert_float_equal(r[0].attenuation, 0.8, 1e-6);  // GoldSrc's ATTN_NORM
        assert_int_equal(r[0].entity, -6);             // the model's own
        assert_int_equal(r[0].has_origin, 1);
        assert_float_equal(r[0].origin[2], 30, 0);
    }
    for (int i = 0; i < 3; i++)
        assert_true(names[i] > 60);
    h.zvel = 120;   // slower: one hit in four
    for (uint32_t seed = 0; seed < 4000; seed++) {
        h.seed = seed;
        played += snd_client_hl_bounce(&h, r, 2);
    }
    printf("  slow shell hits heard: %d of 4000\n", played);
    assert_true(played > 850 && played < 1150);
    h.damp = 0;   // at rest: silent
    for (uint32_t seed = 0; seed < 100; seed++) {
        h.seed = seed;
        h.zvel = 300;
        assert_int_equal(snd_client_hl_bounce(&h, r, 2), 0);
    }
    h.damp = 0.5f;
    h.hitsound = HLTENT_BOUNCE_SHOTSHELL;
    h.zvel = 1000;
    h.seed = 7;
    assert_int_equal(snd_client_hl_bounce(&h, r, 2), 1);
    assert_true(!strncmp(r[0].name, "weapons/sshell", 14));
    assert_float_equal(r[0].volume, 0.5, 1e-6);   // capped at 1 x 0.5
    // debris: one hit in six; one in four of those at 95..105 % pitch; volume by 450
    static const struct { int type; const char *prefix; int count; } debris[] = {
        {HLTENT_BOUNCE_GLASS, "debris/glass", 4}, {HLTENT_BOUNCE_METAL, "debris/metal", 6},
        {HLTENT_BOUNCE_FLESH, "debris/flesh", 7}, {HLTENT_BOUNCE_WOOD, "debris/wood", 4},
        {HLTENT_BOUNCE_CONCRETE, "debris/concrete", 3}, {HLTENT_BOUNCE_SHRAP, "weapons/ric", 5},
    };
    for (size_t t = 0; t < sizeof debris / sizeof debris[0]; t++) {
        h.hitsound = debris[t].type;
        h.zvel = 225;
        int heard = 0, pitched = 0, highest = 0;
        for (uint32_t seed = 0; seed < 6000; seed++) {
            h.seed = seed;
            if (!snd_client_hl_bounce(&h, r, 2))
                continue;
            heard++;
            size_t len = strlen(debris[t].prefix);
            assert_true(!strncmp(r[0].name, debris[t].prefix, len));
            int num = atoi(r[0].name + len);
            assert_true(num >= 1 && num <= debris[t].count);
            highest = num > highest ? num : highest;
            assert_float_equal(r[0].volume, 0.8 * 225 / 450.0, 1e-6);
            if (r[0].pitch != 1.0f) {
                pitched++;
                assert_true(r[0].pitch >= 0.95f - 1e-6f && r[0].pitch <= 1.05f + 1e-6f);
            }
        }
        printf("  %s*: heard %d of 6000, %d at another pitch\n", debris[t].prefix, heard, pitched);
        assert_true(heard > 850 && heard < 1150);
        // a quarter draw a pitch of 95..105, one in eleven of those 100: 10/44 of them differ
        assert_true(pitched > heard * 10 / 44 - heard / 20 && pitched < heard * 10 / 44 + heard / 20);
        assert_int_equal(highest, debris[t].count);
    }
    h.hitsound = HLTENT_BOUNCE_GLASS | HLTENT_BOUNCE_METAL;   // a mix of materials: no sound
    for (uint32_t seed = 0; seed < 100; seed++) {
        h.seed = seed;
        assert_int_equal(snd_client_hl_bounce(&h, r, 2), 0);
    }
}

// ---- the sound track --------------------------------------------------------------------------

#define SECONDS 5.0
#define MAX_PLAYED 64

typedef struct {
    int16_t *pcm;
    long upto;                     // frames of pcm
    double played_at[MAX_PLAYED];  // from the first frame played
    char names[MAX_PLAYED][32];
    int played, hits, frames;
} track_t;

static const char *const shell_names[] = {"player/pl_shell1.wav", "player/pl_shell2.wav", "player/pl_shell3.wav",
                                          "weapons/sshell1.wav", "weapons/sshell2.wav", "weapons/sshell3.wav"};

// c1a0 from 0.33 s to its end through a loopback, with three temp models thrown into its log (a
// shell, a shotgun shell, a shell thrown down hard); the sound system hears their hits itself. A
// second pool stepped alongside with the same rules says which hits it should hear. seek_at >= 0:
// from there 0.3 s of frames the sound system does not hear, then a stop as a seek does.
static void track(double seek_at, track_t *T)
{
    memset(T, 0, sizeof *T);
    level_t L;
    open_c1a0(&L, 40);   // c1a0 lasts 2.9 s
    world_t *w = L.w;
    const bsp_t *b = L.r->bsp;
    int shell = model_index(w, "models/shell.mdl"), sshell = model_index(w, "models/shotgunshell.mdl");
    assert_true(shell > 0 && sshell > 0);
    char dir[512];
    snprintf(dir, sizeof dir, "%s/bouncemod", tu_tmpdir(NULL));
    for (size_t i = 0; i < 6; i++) {
        char path[700];
        snprintf(path, sizeof path, "%s/sound/%s", dir, shell_names[i]);
        tu_write_tone(path, 0.03, 440);
    }
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    assert_int_equal(vfs_add_dir(fs, dir), 0);
    snd_t *s = snd_create_loopback(RATE, 1.0f);
    assert_non_null(s);
    snd_load_level(s, fs, w);

    long total = (long)(SECONDS * RATE) + RATE;
    T->pcm = calloc((size_t)total * 2, sizeof *T->pcm);
    assert_non_null(T->pcm);
    hltent_t *ref = hltent_create();
    assert_non_null(ref);
    hltent_frame(ref, b, w);
    double start = w->time;
    int thrown = 0, was_silent = 0;
    long pos = 0;
    dec_error_t err;
    while (hl_decoder.read_frame(L.st, w, &err) > 0 && w->time - start < SECONDS) {
        T->frames++;
        double t = w->time - start;
        vec3_t p;
        if (thrown == 0 && t > 0.05) {
            ahead(w, 60, 0, -10, p);
            log_model(w, p, (vec3_t){0, 0, 150}, shell, 1, 25, 11);
            thrown++;
        } else if (thrown == 1 && t > 0.7) {
            ahead(w, 50, 10, 0, p);
            log_model(w, p, (vec3_t){20, 0, 100}, sshell, 2, 25, 22);
            thrown++;
        } else if (thrown == 2 && t > 1.5) {
            ahead(w, 70, -10, 0, p);
            log_model(w, p, (vec3_t){0, 0, -300}, shell, 1, 25, 33);
            thrown++;
        }
        // the track up to this frame, then this frame's sounds (as export's on_frame does)
        long upto = lround(t * RATE);
        if (upto > pos) {
            assert_int_equal(snd_render(s, T->pcm + 2 * pos, (int)(upto - pos)), 0);
            pos = upto;
        }
        int silent = seek_at >= 0 && t >= seek_at && t < seek_at + 0.3;
        if (silent) {
            was_silent = 1;
            hltent_clear(ref);
            continue;
        }
        if (was_silent) {
            snd_stop_all(s);   // player_seek: the skipped stretch is in the past
            was_silent = 0;
        }
        snd_listener(s, w->view.origin, w->view.angles);
        snd_frame(s, w);
        // what it should have heard: the same simulation and rules beside it
        for (int pass = 0; pass < 2; pass++) {
            hltent_bounce_t h[MAX_HITS];
            snd_req_t r[2];
            if (pass == 1)
                hltent_frame(ref, b, w);
            int n = hltent_bounces(ref, b, w->prev_time, w->time, h, MAX_HITS);
            T->hits += n;
            for (int i = 0; i < n; i++)
                if (snd_client_hl_bounce(&h[i], r, 2) && T->played < MAX_PLAYED) {
                    snprintf(T->names[T->played], 32, "%s", r[0].name);
                    T->played_at[T->played++] = t;
                }
        }
    }
    printf("  %d frames from %.2f s to %.2f s, %d hits, %d heard\n", T->frames, start, w->time, T->hits, T->played);
    assert_int_equal(thrown, 3);
    T->upto = pos + RATE / 2;
    assert_int_equal(snd_render(s, T->pcm + 2 * pos, (int)(T->upto - pos)), 0);
    hltent_free(ref);
    snd_destroy(s);
    vfs_free(fs);
    close_level(&L);
}

// The track has a tone starting at each frame whose hits pass the rules and is silent before
// the first and wherever none was heard (shared/ has no sounds, the mod folder only the six
// shell sounds); after a seek the hits after it sound as when playing, those skipped do not.
static void test_track(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    track_t T;
    track(-1, &T);
    assert_true(T.played >= 3);   // the two shells' first hits at least, and the shotgun shell's
    assert_true(T.hits > T.played);
    assert_true(tu_energy(T.pcm, T.upto, RATE, 0, T.played_at[0]) == 0);
    int checked = 0;
    for (int i = 0; i < T.played; i++) {
        int known = 0;
        for (size_t k = 0; k < 6; k++)
            known |= !strcmp(T.names[i], shell_names[k]);
        assert_true(known);
        if (i > 0 && T.played_at[i] - T.played_at[i - 1] < 0.06)
            continue;   // the one before still sounds
        double before = tu_energy(T.pcm, T.upto, RATE, T.played_at[i] - 0.03, T.played_at[i]);
        double after = tu_energy(T.pcm, T.upto, RATE, T.played_at[i], T.played_at[i] + 0.03);
        printf("  heard %-22s at %.3f s: energy before %.3g, after %.3g\n", T.names[i], T.played_at[i], before,
               after);
        assert_true(after > 100 * before + 1e5);
        checked++;
    }
    assert_true(checked >= 3);
    for (double a = 0; a < SECONDS; a += 0.05) {
        if (tu_energy(T.pcm, T.upto, RATE, a, a + 0.05) == 0)
            continue;
        int near = 0;
        for (int i = 0; i < T.played; i++)
            near |= T.played_at[i] <= a + 0.05 + 1e-6 && T.played_at[i] > a - 0.05;
        if (!near)
            fail_msg("sound at %.2f s without a hit heard before it", a);
    }

    // a seek over the shotgun shell's first hit (1.25 .. 1.55 s): it is not heard, the hits after
    // are heard as when playing (the same samples from 1.6 s on)
    double seek = 1.25;
    track_t S;
    track(seek, &S);
    int skipped = 0, later = 0;
    for (int i = 0; i < T.played; i++) {
        skipped += T.played_at[i] >= seek && T.played_at[i] < seek + 0.3;
        later += T.played_at[i] >= seek + 0.3;
    }
    printf("  seek at %.2f s: %d heard before, %d skipped, %d after (seeking: %d heard)\n", seek,
           T.played - skipped - later, skipped, later, S.played);
    assert_true(skipped >= 1 && later >= 1);
    assert_int_equal(S.played, T.played - skipped);
    long from = (long)((seek + 0.35) * RATE);
    assert_true(tu_energy(S.pcm, S.upto, RATE, seek + 0.35, SECONDS) > 0);
    assert_memory_equal(S.pcm + 2 * from, T.pcm + 2 * from, (size_t)(T.upto - from) * 4);
    assert_true(tu_energy(S.pcm, S.upto, RATE, seek + 0.05, seek + 0.3) == 0);
    free(T.pcm);
    free(S.pcm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shell_hits),
        cmocka_unit_test(test_bounce_rules),
        cmocka_unit_test(test_track),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
