// test_goldsrc_fx.c -- Half-Life's client events and temp entities: their sounds and effects
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/decoder.h"
#include "formats/goldsrc_events.h"
#include "engine/world.h"

extern const decoder_t hl_decoder;

#define MAX_SHOTS 64

typedef struct {
    int n;
    double time[MAX_SHOTS];
    char sound[MAX_SHOTS][WORLD_NAME_LEN];
    int silenced[MAX_SHOTS];
} shots_t;

// Every client event of crossfire and the sound by name queued with it.
static void crossfire_shots(shots_t *sh)
{
    memset(sh, 0, sizeof *sh);
    size_t size = 0;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(data);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    while (hl_decoder.read_frame(st, w, &err) > 0) {
        for (int i = 0; i < w->num_events; i++) {
            const world_event_t *ev = &w->events[i];
            if (ev->type != EV_GAMEEVENT || sh->n >= MAX_SHOTS)
                continue;
            assert_string_equal(w->text_arena + ev->u.game.name, "usp");
            sh->time[sh->n] = w->time;
            sh->silenced[sh->n] = ev->u.game.bparam[1];
            // the sound the client plays comes right after it
            assert_true(i + 1 < w->num_events);
            const world_event_t *se = &w->events[i + 1];
            assert_int_equal(se->type, EV_SOUND);
            assert_true(se->u.sound.name > 0);
            snprintf(sh->sound[sh->n], WORLD_NAME_LEN, "%s", w->text_arena + se->u.sound.name - 1);
            assert_int_equal(se->u.sound.channel, 1);
            assert_true(se->u.sound.pitch >= 0.94f - 1e-4f && se->u.sound.pitch <= 1.09f + 1e-4f);
            assert_float_equal(se->u.sound.volume, 1.0, 1e-6);
            sh->n++;
        }
    }
    hl_decoder.close(st);
    free(st);
    world_free(w);
    free(data);
}

static void test_crossfire_usp_sounds(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    shots_t sh;
    crossfire_shots(&sh);
    assert_int_equal(sh.n, 10);   // `demoplay info`: events usp 10
    for (int i = 0; i < sh.n; i++) {
        const char *want = sh.silenced[i] ? "weapons/usp" : "weapons/usp_unsil-1.wav";
        assert_true(!strncmp(sh.sound[i], want, strlen(want)));
    }
}

static void test_event_rules(void **state)
{
    (void)state;
    char s[32];
    hl_event_short_name("events/glock1.sc", s, sizeof s);
    assert_string_equal(s, "glock1");
    assert_true(hl_event_known("events/mp5.sc"));
    assert_true(hl_event_known("events/usp.sc"));
    assert_false(hl_event_known("events/displacer.sc"));
    world_t *w = world_create();
    world_begin_frame(w, 1.0);
    world_game_event_t a = {0};
    a.entity = 1;
    a.seed = 12345;
    a.fparam[0] = 200;   // gauss: 0.5 + 200 / 400 = 1
    assert_int_equal(hl_event_emit(w, "events/gauss.sc", &a), 1);
    assert_int_equal(w->num_events, 2);
    assert_int_equal(w->events[0].type, EV_GAMEEVENT);
    assert_int_equal(w->events[1].type, EV_SOUND);
    assert_string_equal(w->text_arena + w->events[1].u.sound.name - 1, "weapons/gauss2.wav");
    assert_float_equal(w->events[1].u.sound.volume, 1.0, 1e-6);
    float p = w->events[1].u.sound.pitch;
    assert_true(p >= 0.85f - 1e-4f && p <= 1.16f + 1e-4f);
    // the train: noise 2 (ttrain2), volume 20 / 40, pitch 10 x 10
    world_begin_frame(w, 1.1);
    a.iparam[0] = 2 << 12 | 20 << 6 | 10;
    hl_event_emit(w, "events/train.sc", &a);
    assert_string_equal(w->text_arena + w->events[1].u.sound.name - 1, "plats/ttrain2.wav");
    assert_float_equal(w->events[1].u.sound.volume, 0.5, 1e-6);
    assert_float_equal(w->events[1].u.sound.pitch, 1.0, 1e-6);
    // an unknown script: the event alone
    world_begin_frame(w, 1.2);
    assert_int_equal(hl_event_emit(w, "events/displacer.sc", &a), 0);
    assert_int_equal(w->num_events, 1);
    world_free(w);
}

// ---- the exported sound track around each shot ----------------------------------------

static void put_le(uint8_t *p, uint32_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

// A 22050 Hz mono 16-bit WAV: a 440 Hz tone of `secs` seconds.
static void write_tone(const char *path, double secs)
{
    int frames = (int)(22050 * secs);
    size_t n = 44 + (size_t)frames * 2;
    uint8_t *b = calloc(1, n);
    memcpy(b, "RIFF", 4);
    put_le(b + 4, (uint32_t)(n - 8), 4);
    memcpy(b + 8, "WAVEfmt ", 8);
    put_le(b + 16, 16, 4);
    put_le(b + 20, 1, 2);
    put_le(b + 22, 1, 2);
    put_le(b + 24, 22050, 4);
    put_le(b + 28, 22050 * 2, 4);
    put_le(b + 32, 2, 2);
    put_le(b + 34, 16, 2);
    memcpy(b + 36, "data", 4);
    put_le(b + 40, (uint32_t)frames * 2, 4);
    for (int i = 0; i < frames; i++)
        put_le(b + 44 + 2 * i, (uint32_t)(int16_t)(12000 * sin(2 * M_PI * 440 * i / 22050.0)), 2);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(tu_write(path, b, n), 0);
    free(b);
}

// Energy of the stereo 16-bit track between t0 and t1 (seconds from its start).
static double energy(const int16_t *pcm, size_t frames, int rate, double t0, double t1)
{
    long a = (long)(t0 * rate), b = (long)(t1 * rate);
    double e = 0;
    for (long i = a < 0 ? 0 : a; i < b && i < (long)frames; i++)
        e += (double)pcm[2 * i] * pcm[2 * i] + (double)pcm[2 * i + 1] * pcm[2 * i + 1];
    return e;
}

static void test_crossfire_export_shots(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    shots_t sh;
    crossfire_shots(&sh);
    assert_true(sh.n > 0);
    // a mod folder with a short tone under every name the shots play, nothing else
    const char *base = "build/test_goldsrc_fx";
    assert_int_equal(system("rm -rf build/test_goldsrc_fx && mkdir -p build/test_goldsrc_fx"), 0);
    static const char *const names[] = {"weapons/usp1.wav", "weapons/usp2.wav", "weapons/usp_unsil-1.wav"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/fxmod/sound/%s", base, names[i]);
        write_tone(path, 0.04);
    }
    for (int i = 0; i < sh.n; i++) {   // every name the demo plays was one of those
        int found = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            found |= !strcmp(sh.sound[i], names[k]);
        assert_true(found);
    }
    // the demo's own folder (cstrike) is absent: valve for the level, the mod for the sounds
    char cmd[8192], valve[PATH_MAX];
    assert_non_null(realpath(tu_data("goldsrc/valve"), valve));
    snprintf(cmd, sizeof cmd,
             "ln -sfn '%s' %s/valve && %s export -q --basedir %s --game fxmod --fps 5 --size 64x48 "
             "--to 6.5 -o - --audio %s/track.wav '%s' > /dev/null",
             valve, base, tu_bin(), base, base, tu_data("goldsrc/demos/cstrike_crossfire.dem"));
    int status = 0;
    free(tu_run(cmd, &status));
    assert_int_equal(status, 0);
    size_t size = 0;
    char path[256];
    snprintf(path, sizeof path, "%s/track.wav", base);
    uint8_t *wav = tu_read(path, &size);
    assert_non_null(wav);
    assert_true(size > 44);
    int rate = wav[24] | wav[25] << 8 | wav[26] << 16;
    assert_int_equal(wav[22], 2);
    const int16_t *pcm = (const int16_t *)(wav + 44);
    size_t frames = (size - 44) / 4;
    // the track starts at the demo's first frame time (0 in crossfire's playback segment)
    int checked = 0;
    for (int i = 0; i < sh.n; i++) {
        printf("  shot %d at %.3f s: %s\n", i, sh.time[i], sh.sound[i]);
        if (sh.time[i] > 6.2 || (i > 0 && sh.time[i] - sh.time[i - 1] < 0.25))
            continue;   // a shot with another just before it: its window is not quiet
        double before = energy(pcm, frames, rate, sh.time[i] - 0.2, sh.time[i]);
        double after = energy(pcm, frames, rate, sh.time[i], sh.time[i] + 0.2);
        printf("  shot %d at %.3f s: energy before %.3g, after %.3g\n", i, sh.time[i], before, after);
        assert_true(after > 10 * before + 1e6);
        checked++;
    }
    assert_true(checked >= 2);
    free(wav);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_rules),
        cmocka_unit_test(test_crossfire_usp_sounds),
        cmocka_unit_test(test_crossfire_export_shots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
