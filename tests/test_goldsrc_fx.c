// test_goldsrc_fx.c -- Half-Life's client events and temp entities: their sounds and effects
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/decoder.h"
#include "formats/goldsrc_events.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "render/r_hlfx.h"
#include "render/r_view.h"
#include "render/render.h"

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

// Counter-Strike's guns (cs16-client's event_<gun>.cpp): each synthetic shot plays one of the
// gun's names on CHAN_WEAPON at volume 1, ATTN_NORM, pitch 94..109 %; over many seeds every
// name of the gun comes up; the m4a1's silencer is bparam1, the usp's bparam2.
static void test_cs_gun_sounds(void **state)
{
    (void)state;
    static const struct {
        const char *script;
        int bparam1, bparam2;
        const char *names[2];   // what it may play (both come up)
    } guns[] = {
        {"events/ak47.sc", 0, 0, {"weapons/ak47-1.wav", "weapons/ak47-2.wav"}},
        {"events/m4a1.sc", 1, 0, {"weapons/m4a1-1.wav", NULL}},
        {"events/m4a1.sc", 0, 0, {"weapons/m4a1_unsil-1.wav", "weapons/m4a1_unsil-2.wav"}},
        {"events/awp.sc", 0, 0, {"weapons/awp1.wav", NULL}},
        {"events/deagle.sc", 0, 0, {"weapons/deagle-1.wav", "weapons/deagle-2.wav"}},
        {"events/m3.sc", 0, 0, {"weapons/m3-1.wav", NULL}},
        {"events/usp.sc", 0, 1, {"weapons/usp1.wav", "weapons/usp2.wav"}},
        {"events/usp.sc", 0, 0, {"weapons/usp_unsil-1.wav", NULL}},
        {"events/elite_right.sc", 0, 0, {"weapons/elite_fire.wav", NULL}},
        {"events/mp5n.sc", 0, 0, {"weapons/mp5-1.wav", "weapons/mp5-2.wav"}},
    };
    world_t *w = world_create();
    for (size_t g = 0; g < sizeof guns / sizeof guns[0]; g++) {
        int seen[2] = {0, 0};
        float plo = 9, phi = 0;
        for (int k = 0; k < 64; k++) {
            world_begin_frame(w, 1.0 + k);
            world_game_event_t a = {0};
            a.entity = 2;
            a.origin[0] = 100;
            a.seed = 1000u + 7919u * (uint32_t)k;
            a.bparam[0] = (uint8_t)guns[g].bparam1;
            a.bparam[1] = (uint8_t)guns[g].bparam2;
            assert_true(hl_event_known(guns[g].script));
            assert_int_equal(hl_event_emit(w, guns[g].script, &a), 1);
            assert_int_equal(w->num_events, 2);   // the event and one sound
            const world_sound_event_t *se = &w->events[1].u.sound;
            assert_int_equal(w->events[1].type, EV_SOUND);
            const char *name = w->text_arena + se->name - 1;
            int which = guns[g].names[0] && !strcmp(name, guns[g].names[0])   ? 0
                        : guns[g].names[1] && !strcmp(name, guns[g].names[1]) ? 1
                                                                               : -1;
            if (which < 0)
                fail_msg("%s (bparam %d %d) played %s", guns[g].script, guns[g].bparam1, guns[g].bparam2, name);
            seen[which]++;
            assert_int_equal(se->channel, 1);
            assert_int_equal(se->entity, 2);
            assert_float_equal(se->volume, 1.0, 1e-6);
            assert_float_equal(se->attenuation, 0.8, 1e-6);
            assert_float_equal(se->origin[0], 100, 1e-6);
            assert_true(se->pitch >= 0.94f - 1e-4f && se->pitch <= 1.09f + 1e-4f);
            plo = se->pitch < plo ? se->pitch : plo;
            phi = se->pitch > phi ? se->pitch : phi;
        }
        assert_true(seen[0] > 0);
        if (guns[g].names[1])
            assert_true(seen[1] > 0);
        assert_true(phi - plo > 0.08f);   // the pitch's random range is used, not one value
    }
    // what is still unknown: the event alone, no sound
    assert_false(hl_event_known("events/createsmoke.sc"));
    world_begin_frame(w, 100);
    world_game_event_t a = {0};
    assert_int_equal(hl_event_emit(w, "events/createsmoke.sc", &a), 0);
    assert_int_equal(w->num_events, 1);
    world_free(w);
}

// Find str in buf bit-packed at any bit offset (GoldSrc's bit stream, lowest bit first) and
// overwrite it with rep (same length). Returns the number of places changed.
static int patch_bits(uint8_t *buf, size_t size, const char *str, const char *rep)
{
    size_t n = strlen(str);
    int hits = 0;
    for (int sh = 0; sh < 8; sh++)
        for (size_t p = 0; p + n + 1 < size; p++) {
            size_t i = 0;
            while (i < n && (uint8_t)((buf[p + i] >> sh) | (buf[p + i + 1] << (8 - sh))) == (uint8_t)str[i])
                i++;
            if (i < n)
                continue;
            for (i = 0; i < n; i++) {
                unsigned v = (unsigned)(uint8_t)rep[i] << sh;
                buf[p + i] = (uint8_t)((buf[p + i] & ((1u << sh) - 1)) | (v & 0xff));
                if (sh)
                    buf[p + i + 1] = (uint8_t)((buf[p + i + 1] & ~((1u << sh) - 1)) | (v >> 8));
            }
            hits++;
        }
    return hits;
}

// The egon's sounds (the SDK's EV_EgonFire / EV_EgonStop): the wind-up (bparam1) on CHAN_WEAPON,
// the run on CHAN_STATIC, wide mode (iparam2) louder and higher; egon_stop stops CHAN_STATIC and
// plays egon_off1 on CHAN_WEAPON only when iparam1 says the egon was firing.
static void test_egon_sounds(void **state)
{
    (void)state;
    static const struct {
        const char *script;
        int bparam1, iparam1, iparam2;
        int events;              // the event, then a stop and / or a sound
        const char *name;        // the sound played (NULL: none)
        int channel;
        float volume, pitch;
    } cases[] = {
        {"events/egon_fire.sc", 1, 0, 0, 2, "weapons/egon_windup2.wav", 1, 0.9f, 1.0f},
        {"events/egon_fire.sc", 1, 0, 1, 2, "weapons/egon_windup2.wav", 1, 0.98f, 1.25f},
        {"events/egon_fire.sc", 0, 0, 0, 2, "weapons/egon_run3.wav", 6, 0.9f, 1.0f},
        {"events/egon_stop.sc", 0, 1, 0, 3, "weapons/egon_off1.wav", 1, 0.98f, 1.0f},
        {"events/egon_stop.sc", 0, 0, 0, 2, NULL, 0, 0, 0},
    };
    world_t *w = world_create();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        world_begin_frame(w, 1.0 + (double)i);
        world_game_event_t a = {0};
        a.entity = 1;
        a.seed = 77;
        a.bparam[0] = (uint8_t)cases[i].bparam1;
        a.iparam[0] = cases[i].iparam1;
        a.iparam[1] = cases[i].iparam2;
        assert_int_equal(hl_event_emit(w, cases[i].script, &a), 1);
        assert_int_equal(w->num_events, cases[i].events);
        int sounds = 0;
        for (int k = 1; k < w->num_events; k++) {
            if (w->events[k].type == EV_STOPSOUND) {
                assert_int_equal(w->events[k].u.sound.channel, 6);
                continue;
            }
            assert_int_equal(w->events[k].type, EV_SOUND);
            const world_sound_event_t *se = &w->events[k].u.sound;
            assert_non_null(cases[i].name);
            assert_string_equal(w->text_arena + se->name - 1, cases[i].name);
            assert_int_equal(se->channel, cases[i].channel);
            assert_float_equal(se->volume, cases[i].volume, 1e-6);
            assert_float_equal(se->pitch, cases[i].pitch, 1e-6);
            sounds++;
        }
        assert_int_equal(sounds, cases[i].name ? 1 : 0);
    }
    world_free(w);
}

// crossfire with its usp script renamed (events/zzz.sc): `info` warns once that zzz is not
// reproduced, and plays no sound for it; the real one warns about nothing of the kind.
static void test_unknown_event_warning(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    size_t size = 0;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(data);
    assert_int_equal(patch_bits(data, size, "events/usp.sc", "events/zzz.sc"), 1);
    const char *path = "build/test_goldsrc_fx_unknown_event.dem";
    assert_int_equal(tu_write(path, data, size), 0);
    free(data);
    char cmd[1024];
    int status = 0;
    snprintf(cmd, sizeof cmd, "%s info '%s' 2>&1", tu_bin(), path);
    char *out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    const char *want = "goldsrc: client event zzz (index 12) is not reproduced";
    const char *at = strstr(out, want);
    if (!at)
        fail_msg("no warning naming zzz in:\n%s", out);
    assert_null(strstr(at + 1, want));   // once a demo
    assert_non_null(strstr(out, "events     zzz 10"));   // still counted by its name
    free(out);
    snprintf(cmd, sizeof cmd, "%s info '%s' 2>&1", tu_bin(), tu_data("goldsrc/demos/cstrike_crossfire.dem"));
    out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    assert_null(strstr(out, "is not reproduced"));
    free(out);
}

// ---- the exported sound track around each shot ----------------------------------------

static void test_crossfire_export_shots(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
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
        tu_write_tone(path, 0.04, 440);
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
        double before = tu_energy(pcm, (long)frames, rate, sh.time[i] - 0.2, sh.time[i]);
        double after = tu_energy(pcm, (long)frames, rate, sh.time[i], sh.time[i] + 0.2);
        printf("  shot %d at %.3f s: energy before %.3g, after %.3g\n", i, sh.time[i], before, after);
        assert_true(after > 10 * before + 1e6);
        checked++;
    }
    assert_true(checked >= 2);
    free(wav);
}


// ---- the effects: values of the pools and a golden of c1a0 with synthetic events ------------

static world_fx_event_t *tempent(world_t *w, int type, float x, float y, float z)
{
    world_event_t *ev = world_add_event(w, type == 27 ? EV_DLIGHT : EV_TEMPENT);
    assert_non_null(ev);
    ev->u.fx.raw_type = type;
    ev->u.fx.origin[0] = x;
    ev->u.fx.origin[1] = y;
    ev->u.fx.origin[2] = z;
    return &ev->u.fx;
}

static void game_event(world_t *w, const char *name, int local)
{
    world_event_t *ev = world_add_event(w, EV_GAMEEVENT);
    assert_non_null(ev);
    size_t n = strlen(name);
    memcpy(w->text_arena + w->text_used, name, n + 1);
    ev->u.game.name = w->text_used;
    w->text_used += (uint32_t)(n + 1);
    ev->u.game.entity = 1;
    ev->u.game.local = (uint8_t)local;
}

// A 64 x 48 view of colour 7 from (0, -100, 50) looking along +y, 32 pixels a unit at 1 unit
// away (0.32 a unit at the origin's distance, 100), an empty z-buffer.
enum { VW = 64, VH = 48 };
static void beam_view(r_view_t *v, uint8_t *buf)
{
    static float z[VW * VH];
    memset(buf, 7, VW * VH);
    memset(z, 0, sizeof z);
    memset(v, 0, sizeof *v);
    v->buffer = buf;
    v->zbuffer = z;
    v->width = v->rowbytes = VW;
    v->height = VH;
    v->xcenter = VW / 2.0f;
    v->ycenter = VH / 2.0f;
    v->xscale = v->yscale = VW / 2.0f;
    v->vieworg[1] = -100;
    v->vieworg[2] = 50;
    v->vpn[1] = 1;
    v->vright[0] = 1;
    v->vup[2] = 1;
}

// A beam's brightness byte scales the colour it adds: 0 adds nothing (it was drawn at full).
static void test_beam_brightness_zero(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    world_t *w = world_create();
    w->game = GAME_GOLDSRC;
    world_begin_frame(w, 2.0);
    world_fx_event_t *e = tempent(w, 0, 0, 0, 0);   // TE_BEAMPOINTS to (0, 0, 100), white, brightness 0
    e->end[2] = 100;
    e->args[3] = 5;
    e->args[4] = 20;
    e->args[6] = e->args[7] = e->args[8] = 255;
    e->args[9] = 0;
    r_hlfx_frame(fx, w, 2.0, 77);
    r_hlbeam_t b[2];
    assert_int_equal(r_hlfx_beams(fx, 2.1, b, 2), 1);
    assert_int_equal(b[0].amount, 0);
    // drawn across a view looking along +y at the beam: no pixel changes
    static uint8_t buf[VW * VH];
    static r_view_t v;
    beam_view(&v, buf);
    r_hlfx_draw_beam(&v, &b[0]);
    for (int i = 0; i < VW * VH; i++)
        assert_int_equal(buf[i], 7);
    b[0].amount = 255;   // the same beam at full brightness does draw (the view sees it)
    r_hlfx_draw_beam(&v, &b[0]);
    int changed = 0;
    for (int i = 0; i < VW * VH; i++)
        changed += buf[i] != 7;
    assert_true(changed > 0);
    world_free(w);
    r_hlfx_destroy(fx);
}

// A line beam is 2 x width thick (R_DrawSegs: the strip's edges +-width about the line, width the
// byte x 0.1): TE_BEAMPOINTS of width byte 100 (10 units) up the view's middle covers 20 units of
// its centre row, 6 pixels at 0.32 a unit (it covered 3).
static void test_beam_width(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    world_t *w = world_create();
    w->game = GAME_GOLDSRC;
    world_begin_frame(w, 2.0);
    world_fx_event_t *e = tempent(w, 0, 0, 0, 0);   // TE_BEAMPOINTS to (0, 0, 100), white, full
    e->end[2] = 100;
    e->args[3] = 5;
    e->args[4] = 100;
    e->args[6] = e->args[7] = e->args[8] = 255;
    e->args[9] = 255;
    tempent(w, 6, 0, 0, 0)->end[2] = 100;   // TE_TRACER up the same line: 1 unit thick
    r_hlfx_frame(fx, w, 2.0, 77);
    r_hlbeam_t b[4];
    assert_int_equal(r_hlfx_beams(fx, 2.001, b, 4), 2);
    assert_float_equal(b[0].width, 10.0, 1e-5);   // the engine's pbeam->width: byte x 0.1
    static uint8_t buf[VW * VH];
    static r_view_t v;
    beam_view(&v, buf);
    r_hlfx_draw_beam(&v, &b[0]);
    int row = VH / 2, n = 0, lo = VW, hi = -1;
    for (int x = 0; x < VW; x++)
        if (buf[row * VW + x] != 7) {
            n++;
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    printf("  beam width 10: %d pixels of the centre row (%d..%d)\n", n, lo, hi);
    assert_int_equal(n, (int)(2 * 10 * 0.32f + 0.5f));
    assert_int_equal(hi - lo + 1, n);
    assert_true(lo <= VW / 2 && hi >= VW / 2 - 1);
    // the tracer keeps its 1 unit: one pixel of the row
    beam_view(&v, buf);
    r_hlfx_draw_beam(&v, &b[1]);
    n = 0;
    for (int x = 0; x < VW; x++)
        n += buf[row * VW + x] != 7;
    assert_int_equal(n, 1);
    world_free(w);
    r_hlfx_destroy(fx);
}

// A beam's noise byte (amplitude x 100) makes it a jagged bolt (R_BeamSetup's segments, R_DrawSegs'
// fractal noise along the view's up and, times a cosine, its right; new noise every frame): up the
// view's middle, noise 0 keeps every pixel within 1 of the centre column; noise 100 moves some
// columns away, the ends stay where they were, the same moment draws the same bolt and another
// moment another one.
static void beam_at(r_hlfx_t *fx, int noise, double t, uint8_t *buf)
{
    world_t *w = world_create();
    w->game = GAME_GOLDSRC;
    world_begin_frame(w, 2.0);
    world_fx_event_t *e = tempent(w, 0, 0, 0, -20);   // TE_BEAMPOINTS (0 0 -20) to (0 0 120), white, full
    e->end[2] = 120;
    e->args[3] = 50;
    e->args[4] = 5;
    e->args[5] = noise;
    e->args[6] = e->args[7] = e->args[8] = 255;
    e->args[9] = 255;
    e->args[10] = 35;
    r_hlfx_clear(fx);
    r_hlfx_frame(fx, w, 2.0, 77);
    r_hlbeam_t bm[2];
    assert_int_equal(r_hlfx_beams(fx, t, bm, 2), 1);
    assert_float_equal(bm[0].amplitude, noise * 0.01f, 1e-6);
    static r_view_t v;
    beam_view(&v, buf);
    r_hlfx_draw_beam(&v, &bm[0]);
    world_free(w);
}

static void test_beam_noise(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    static uint8_t a[VW * VH], b[VW * VH], c[VW * VH];
    int far[2] = { 0, 0 };
    for (int n = 0; n < 2; n++) {
        beam_at(fx, n ? 100 : 0, 2.1, a);
        for (int y = 0; y < VH; y++)
            for (int x = 0; x < VW; x++)
                if (a[y * VW + x] != 7) {
                    int dx = abs(x - VW / 2) > abs(x - (VW / 2 - 1)) ? abs(x - (VW / 2 - 1)) : abs(x - VW / 2);
                    far[n] = dx > far[n] ? dx : far[n];
                }
    }
    beam_at(fx, 100, 2.1, b);
    beam_at(fx, 100, 2.2, c);
    int same = memcmp(a, b, sizeof a) == 0, other = 0;
    for (int i = 0; i < VW * VH; i++)
        other += b[i] != c[i];
    printf("  beam noise 0: pixels at most %d columns from the middle; noise 100: %d; again at the same time %s, "
           "0.1 s later %d pixels differ\n", far[0], far[1], same ? "identical" : "DIFFERENT", other);
    assert_true(far[0] <= 1);
    assert_true(far[1] >= 3);
    assert_true(same);
    assert_true(other > 0);
    r_hlfx_destroy(fx);
}

// Beams' sprite frames (CL_ParseTEnt: the start frame byte, the frame rate byte x 0.1; R_BeamDraw:
// (int)(frame + frame rate x the clock) modulo the sprite's frames): TE_BEAMPOINTS reads them from
// its arguments 1 and 2, BEAMENTPOINT from 2 and 3, BEAMENTS and BEAMRING from 3 and 4;
// TE_BEAMFOLLOW runs at 1 from 0, TE_LIGHTNING stays on frame 0. Start frame 3 at 2.5 a second
// shows frame (int)(3 + 25) % 5 = 3 of 5 at 10 s, 4 at 10.4 s, 0 at 10.8 s; a sprite of one or no
// frames, a negative or huge sum: frame 0; rate 0: the start frame. A custom entity: its state's
// frame, still.
static void test_beam_frames(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    world_t *w = world_create();
    w->game = GAME_GOLDSRC;
    world_begin_frame(w, 2.0);
    static const int types[] = {0, 1, 8, 24, 22, 7};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        world_fx_event_t *e = tempent(w, types[i], 0, 0, 0);
        e->end[2] = 100;
        for (int k = 0; k < 12; k++)
            e->args[k] = 40;   // every byte 40: each type reads its own
        e->args[0] = e->args[1] = e->args[2] = 1;
        if (types[i] == 7)
            e->args[3] = 1;   // TE_LIGHTNING's sprite
    }
    world_set_model(w, 1, "sprites/laserbeam.spr");
    r_hlfx_frame(fx, w, 2.0, 77);
    r_hlbeam_t b[8];
    assert_int_equal(r_hlfx_beams(fx, 2.01, b, 8), 6);
    // TE_BEAMPOINTS: args 1, 2 (here 1, 1: frame 1 at 0.1 a second)
    assert_float_equal(b[0].frame, 1, 1e-6);
    assert_float_equal(b[0].framerate, 0.1, 1e-6);
    // BEAMENTPOINT: args 2 (1), 3 (40: 4 a second); BEAMENTS, BEAMRING: args 3, 4 (40, 40)
    assert_float_equal(b[1].frame, 1, 1e-6);
    assert_float_equal(b[1].framerate, 4, 1e-6);
    for (int i = 2; i < 4; i++) {
        assert_float_equal(b[i].frame, 40, 1e-6);
        assert_float_equal(b[i].framerate, 4, 1e-6);
    }
    assert_float_equal(b[4].frame, 0, 1e-6);   // TE_BEAMFOLLOW
    assert_float_equal(b[4].framerate, 1, 1e-6);
    assert_float_equal(b[5].frame, 0, 1e-6);   // TE_LIGHTNING
    assert_float_equal(b[5].framerate, 0, 1e-6);
    r_hlbeam_t r = {0};
    r.frame = 3;
    r.framerate = 2.5f;
    assert_int_equal(r_hlfx_beam_frame(&r, 10.0, 5), 3);
    assert_int_equal(r_hlfx_beam_frame(&r, 10.4, 5), 4);
    assert_int_equal(r_hlfx_beam_frame(&r, 10.8, 5), 0);
    assert_int_equal(r_hlfx_beam_frame(&r, 10.8, 1), 0);
    assert_int_equal(r_hlfx_beam_frame(&r, 10.8, 0), 0);
    assert_int_equal(r_hlfx_beam_frame(&r, -10.0, 5), 0);
    assert_int_equal(r_hlfx_beam_frame(&r, 1e300, 5), 0);
    r.framerate = 0;
    assert_int_equal(r_hlfx_beam_frame(&r, 10.4, 5), 3);
    assert_int_equal(r_hlfx_beam_frame(&r, 99.9, 5), 3);
    // a custom entity: the state's frame, no rate
    entity_state_t st;
    entity_state_clear(&st);
    st.frame = 7;
    st.framerate = 5;
    const vec3_t s0 = {0, 0, 0}, s1 = {0, 0, 100};
    r_hlfx_beament(&st, 3, s0, s1, 255, 4.0, &r);
    assert_float_equal(r.frame, 7, 1e-6);
    assert_float_equal(r.framerate, 0, 1e-6);
    assert_int_equal(r_hlfx_beam_frame(&r, 4.0, 5), 2);
    world_free(w);
    r_hlfx_destroy(fx);
}

// GoldSrc draws a blob (pt_blob) only in the frames after it turned pt_blob2, one time in four
// (R_DrawParticles): TE_TAREXPLOSION's 1024 blobs, half of them starting as pt_blob2, show 512 in
// their first frame and about a quarter in each later one; TE_EXPLOSION2's 512 start as pt_blob.
static void test_blob_flicker(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    world_t *w = world_create();
    w->game = GAME_GOLDSRC;
    world_begin_frame(w, 2.0);
    tempent(w, 4, 0, 0, 0);   // TE_TAREXPLOSION
    r_hlfx_frame(fx, w, 2.0, 77);
    static r_hlparticle_t p[2048];
    int n = r_hlfx_particles(fx, 2.0, p, 2048), first = 0;
    assert_int_equal(n, 1024);
    for (int i = 0; i < n; i++)
        first += r_hlfx_blob_shown(&p[i], (uint32_t)i, 2.0);
    long shown = 0, frames = 0;
    int never = 0;
    static uint8_t seen[1024];
    memset(seen, 0, sizeof seen);
    for (int f = 1; f <= 40; f++) {
        double t = 2.0 + f * 0.013;
        for (int i = 0; i < n; i++) {
            int s = r_hlfx_blob_shown(&p[i], (uint32_t)i, t);
            shown += s;
            seen[i] |= (uint8_t)s;
        }
        frames++;
    }
    for (int i = 0; i < n; i++)
        never += !seen[i];
    double share = (double)shown / (double)(frames * n);
    printf("  blobs: %d of 1024 drawn in their first frame, %.3f of them in each of 40 later frames, %d never\n", first,
           share, never);
    assert_int_equal(first, 512);
    assert_true(share > 0.22 && share < 0.28);
    assert_true(never < 5);
    // the same moment shows the same blobs
    for (int i = 0; i < n; i++)
        assert_int_equal(r_hlfx_blob_shown(&p[i], (uint32_t)i, 2.5), r_hlfx_blob_shown(&p[i], (uint32_t)i, 2.5));
    // TE_EXPLOSION2: every blob starts as pt_blob, none drawn in its first frame
    r_hlfx_clear(fx);
    world_begin_frame(w, 3.0);
    tempent(w, 12, 0, 0, 0)->args[1] = 8;
    r_hlfx_frame(fx, w, 3.0, 78);
    n = r_hlfx_particles(fx, 3.0, p, 2048);
    assert_int_equal(n, 512);
    first = 0;
    for (int i = 0; i < n; i++)
        first += r_hlfx_blob_shown(&p[i], (uint32_t)i, 3.0);
    assert_int_equal(first, 0);
    world_free(w);
    r_hlfx_destroy(fx);
}

static void test_pool_values(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    world_t *w = world_create();
    w->game = GAME_GOLDSRC;
    world_begin_frame(w, 2.0);
    world_fx_event_t *e = tempent(w, 3, 100, 0, 0);   // TE_EXPLOSION sprite 5, scale 1.0, 15 fps, flags 0
    e->args[0] = 5;
    e->args[1] = 10;
    e->args[2] = 15;
    e = tempent(w, 2, 0, 100, 0);   // TE_GUNSHOT: 20 dust points
    e = tempent(w, 0, 0, 0, 0);     // TE_BEAMPOINTS to (0, 0, 100): sprite 6, life 0.5 s, width 2, red, 200
    e->end[2] = 100;
    e->args[0] = 6;
    e->args[3] = 5;
    e->args[4] = 20;
    e->args[6] = 255;
    e->args[9] = 200;
    e = tempent(w, 23, 0, 0, 50);   // TE_GLOWSPRITE sprite 7: life 1 s, scale 0.5, brightness 100
    e->args[0] = 7;
    e->args[1] = 10;
    e->args[2] = 5;
    e->args[3] = 100;
    e = tempent(w, 27, 0, 0, 0);    // TE_DLIGHT: radius 150, 0.2 s, decay 100 / s
    e->radius = 150;
    e->duration = 0.2f;
    e->args[5] = 10;
    e = tempent(w, 3, NAN, 0, 0);   // a damaged one: left out
    game_event(w, "glock1", 1);     // the player's own shot: the flash
    game_event(w, "crowbar", 1);    // no flash
    r_hlfx_frame(fx, w, 2.0, 77);
    assert_float_equal(r_hlfx_flash_time(fx), 2.0, 0);
    // the explosion's 15 flicker particles (R_FlickerParticles: 2 s, the spark ramp, +-32 across,
    // 80..143 up) and the dust: 20 points, of which those whose life drew 0 (0.1 x rand % 5) are gone at once
    static r_hlparticle_t parts[HLFX_MAX_PARTICLES];
    int np = r_hlfx_particles(fx, 2.0, parts, HLFX_MAX_PARTICLES), flick = 0;
    for (int i = 0; i < np; i++) {
        const r_hlparticle_t *p = &parts[i];
        if (p->ramp != HLFX_RAMP_SPARK)
            continue;
        flick++;
        assert_float_equal(p->die - p->birth, 2.0, 1e-6);
        assert_float_equal(p->org[0], 100, 1e-6);
        assert_true(fabsf(p->vel[0]) <= 32 && fabsf(p->vel[1]) <= 32 && p->vel[2] >= 80 && p->vel[2] <= 143);
        assert_float_equal(p->gravity, 200, 1e-6);
    }
    assert_int_equal(flick, 15);
    assert_true(np - flick > 10 && np - flick <= 20);   // the dust

    r_hlsprite_t sp[16];
    int n = r_hlfx_sprites(fx, 2.2, sp, 16);
    assert_int_equal(n, 2);   // the flash is gone after 0.05 s: explosion and glow
    assert_int_equal(sp[0].model, 5);
    assert_int_equal(sp[0].rendermode, RM_ADDITIVE);
    assert_int_equal(sp[0].amount, 180);          // R_Sprite_Explode: 0xb4 when additive
    assert_float_equal(sp[0].org[0], 100, 1e-6);
    assert_float_equal(sp[0].org[2], 10 + 8 * 0.2, 1e-4);   // 10 up, rising 8 u/s for 0.2 s
    assert_float_equal(sp[0].scale, 1.0, 1e-6);
    assert_float_equal(sp[0].frame, 3.0, 1e-3);   // 0.2 s at 15 frames a second
    assert_int_equal(sp[1].model, 7);
    assert_int_equal(sp[1].rendermode, RM_GLOW);
    assert_int_equal(sp[1].amount, 80);           // fading over its second: 100 x 0.8
    n = r_hlfx_sprites(fx, 2.01, sp, 16);
    assert_int_equal(n, 3);
    assert_int_equal(sp[0].model, HLFX_CLIENT_MUZZLE);
    assert_float_equal(sp[0].scale, 0.1, 1e-6);

    r_hlbeam_t b[4];
    assert_int_equal(r_hlfx_beams(fx, 2.4, b, 4), 1);
    assert_float_equal(b[0].width, 2.0, 1e-6);
    assert_int_equal(b[0].color[0], 255);
    assert_int_equal(b[0].amount, 200);
    assert_int_equal(r_hlfx_beams(fx, 2.5, b, 4), 0);

    static r_view_t v;
    memset(&v, 0, sizeof v);
    vec3_t muzzle = {1, 2, 3};
    r_hlfx_set_muzzle(fx, muzzle, 1);
    r_hlfx_lights(fx, w, &v, 2.005);
    // explosion: the flash (200 - 4, pale yellow) and the red glow (150 - 1), TE_DLIGHT, the glock's flash
    assert_int_equal(v.num_dlights, 4);
    int seen = 0;
    for (int i = 0; i < v.num_dlights; i++) {
        const r_dlight_t *d = &v.dlights[i];
        if (fabsf(d->radius - 196) < 1e-2f && d->rgb == 0x1fafa96u)
            seen |= 1;
        else if (fabsf(d->radius - 149.5f) < 1e-2f)
            seen |= 2;
        else if (d->radius >= 200 && d->radius < 232 && d->origin[0] == 1 && d->minlight == 32)
            seen |= 4;
        else if (fabsf(d->radius - 149) < 1e-2f && d->rgb == 0x1ffbe28u && d->origin[0] == 100)
            seen |= 8;
    }
    assert_int_equal(seen, 15);
    v.num_dlights = 0;
    r_hlfx_lights(fx, w, &v, 2.15);   // the flashes are out; the red glow at 150 - 30
    assert_int_equal(v.num_dlights, 2);
    seen = 0;
    for (int i = 0; i < v.num_dlights; i++)
        seen += fabsf(v.dlights[i].radius - 120) < 1e-2f && v.dlights[i].rgb == 0x1ffbe28u;
    assert_int_equal(seen, 1);

    // TE_EXPLOSION's flags: 1 not additive (normal at 255), 16 alpha-tested (at 180)
    world_begin_frame(w, 2.5);
    e = tempent(w, 3, 0, 0, 0);
    e->args[0] = 5;
    e->args[1] = 10;
    e->args[3] = 1;
    e = tempent(w, 3, 0, 0, 0);
    e->args[0] = 5;
    e->args[1] = 10;
    e->args[3] = 16 | 8;
    r_hlfx_frame(fx, w, 2.5, 78);
    n = r_hlfx_sprites(fx, 2.5, sp, 16);
    int flagged = 0;
    for (int i = 0; i < n; i++) {
        if (sp[i].rendermode == RM_NORMAL && sp[i].amount == 255)
            flagged |= 1;
        if (sp[i].rendermode == RM_SOLID && sp[i].amount == 180)
            flagged |= 2;
    }
    assert_int_equal(flagged, 3);

    // the pools are fixed: a flood of gunshots keeps at most HLFX_MAX_PARTICLES
    world_begin_frame(w, 3.0);
    for (int i = 0; i < 500; i++)
        tempent(w, 2, 0, 0, 0);
    r_hlfx_frame(fx, w, 3.0, 5);
    int live = r_hlfx_num_particles(fx, 3.0);   // the newest 2048 (a fifth drew no life)
    assert_true(live <= HLFX_MAX_PARTICLES && live > HLFX_MAX_PARTICLES * 3 / 4);
    r_hlfx_destroy(fx);
    world_free(w);
}

// c1a0 a little after the start, with an explosion (sprites/fexplo.spr) 90 units ahead, a red
// beam across the view, sparks, a TE_SPRITE glow and the player's own glock shot (no view
// model at that time: the flash in front of the eye).
static void test_golden_c1a0_effects(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size = 0;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/valve_c1a0.dem"), &size);
    assert_non_null(data);
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    renderer_t *r = r_create(320, 200);
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    int loaded = 0;
    for (int i = 0; i < 200 && hl_decoder.read_frame(st, w, &err) > 0; i++) {
        if (!loaded && w->map[0] && w->num_models > 10) {
            char e[256];
            assert_int_equal(r_load_level(r, fs, w, e, sizeof e), 0);
            loaded = 1;
        }
        if (loaded)
            r_frame(r, w);
    }
    assert_true(loaded);
    // the sprites, named as the game would precache them
    int expl = w->num_models, glow = expl + 1, laser = expl + 2;
    world_set_model(w, expl, "sprites/fexplo.spr");
    world_set_model(w, glow, "sprites/flare1.spr");
    world_set_model(w, laser, "sprites/laserbeam.spr");
    assert_int_equal(hl_decoder.read_frame(st, w, &err), 1);
    vec3_t f = {cosf(w->view.angles[1] * (float)M_PI / 180), sinf(w->view.angles[1] * (float)M_PI / 180), 0};
    vec3_t o;
    memcpy(o, w->view.origin, sizeof o);
    world_fx_event_t *e = tempent(w, 3, o[0] + 90 * f[0], o[1] + 90 * f[1], o[2] - 10);
    e->args[0] = expl;
    e->args[1] = 10;
    e->args[2] = 15;
    e = tempent(w, 0, o[0] + 100 * f[0] - 60 * f[1], o[1] + 100 * f[1] + 60 * f[0], o[2] - 20);
    e->end[0] = o[0] + 100 * f[0] + 60 * f[1];
    e->end[1] = o[1] + 100 * f[1] - 60 * f[0];
    e->end[2] = o[2] + 10;
    e->args[0] = laser;
    e->args[3] = 10;
    e->args[4] = 30;
    e->args[6] = 255;
    e->args[7] = 40;
    e->args[8] = 40;
    e->args[9] = 255;
    e = tempent(w, 17, o[0] + 80 * f[0] + 40 * f[1], o[1] + 80 * f[1] - 40 * f[0], o[2] + 10);
    e->args[0] = glow;
    e->args[1] = 3;
    e->args[2] = 200;
    tempent(w, 9, o[0] + 60 * f[0], o[1] + 60 * f[1], o[2] - 10);
    game_event(w, "glock1", 1);
    r_frame(r, w);
    r_render(r, w, w->time + 0.02);
    const char *out = "build/test_goldsrc_fx_c1a0.png";
    assert_int_equal(r_write_png(r, out), 0);
    tu_golden("goldsrc_fx_c1a0", out, "tests/golden/goldsrc/fx_c1a0.png", 0.01);
    // 0.2 s later: the flash is gone, the explosion at its fourth frame (fexplo's first are dim)
    r_render(r, w, w->time + 0.2);
    const char *out2 = "build/test_goldsrc_fx_c1a0_later.png";
    assert_int_equal(r_write_png(r, out2), 0);
    tu_golden("goldsrc_fx_c1a0_later", out2, "tests/golden/goldsrc/fx_c1a0_later.png", 0.01);
    assert_true(tu_png_diff(out, out2) > 0.01);
    hl_decoder.close(st);
    r_destroy(r);
    free(st);
    world_free(w);
    vfs_free(fs);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_rules),
        cmocka_unit_test(test_cs_gun_sounds),
        cmocka_unit_test(test_egon_sounds),
        cmocka_unit_test(test_unknown_event_warning),
        cmocka_unit_test(test_pool_values),
        cmocka_unit_test(test_beam_brightness_zero),
        cmocka_unit_test(test_beam_width),
        cmocka_unit_test(test_beam_noise),
        cmocka_unit_test(test_beam_frames),
        cmocka_unit_test(test_blob_flicker),
        cmocka_unit_test(test_golden_c1a0_effects),
        cmocka_unit_test(test_crossfire_usp_sounds),
        cmocka_unit_test(test_crossfire_export_shots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
