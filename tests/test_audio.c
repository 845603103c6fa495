// test_audio.c -- WAV loader (real files, loop points, hostile bytes) and the OpenAL loopback mix
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assets/wav.h"
#include "audio/snd.h"
#include "audio/snd_local.h"
#include "engine/vfs.h"
#include "engine/world.h"

// ---- synthetic WAV files -------------------------------------------------------

typedef struct {
    uint8_t b[1 << 16];
    size_t n;
} buf_t;

static void put(buf_t *o, const void *p, size_t n)
{
    assert_true(o->n + n <= sizeof(o->b));
    memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void put32(buf_t *o, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    put(o, b, 4);
}
static void put16(buf_t *o, uint32_t v)
{
    uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    put(o, b, 2);
}

// A PCM WAV: `frames` of a sine (amplitude amp of full scale), optional cue point
// and Cool Edit "mark" loop length, in Quake's chunk order (fmt, data, cue, LIST).
static void make_wav(buf_t *o, int rate, int channels, int bits, int frames, double freq, double amp,
                     int cue, int mark_len)
{
    o->n = 0;
    put(o, "RIFF", 4);
    put32(o, 0);   // patched below
    put(o, "WAVE", 4);
    put(o, "fmt ", 4);
    put32(o, 16);
    put16(o, 1);
    put16(o, (uint32_t)channels);
    put32(o, (uint32_t)rate);
    put32(o, (uint32_t)(rate * channels * bits / 8));
    put16(o, (uint32_t)(channels * bits / 8));
    put16(o, (uint32_t)bits);
    put(o, "data", 4);
    uint32_t dlen = (uint32_t)(frames * channels * bits / 8);
    put32(o, dlen);
    for (int i = 0; i < frames; i++) {
        double v = amp * sin(2 * M_PI * freq * i / rate);
        for (int c = 0; c < channels; c++) {
            if (bits == 8) {
                uint8_t u = (uint8_t)lrint(128 + 127 * v);
                put(o, &u, 1);
            } else {
                put16(o, (uint32_t)(uint16_t)(int16_t)lrint(32767 * v));
            }
        }
    }
    if (dlen & 1) {
        uint8_t z = 0;
        put(o, &z, 1);
    }
    if (cue >= 0) {
        put(o, "cue ", 4);
        put32(o, 28);
        put32(o, 1);                  // one cue point
        put32(o, 1);                  // dwName
        put32(o, 0);                  // dwPosition
        put(o, "data", 4);            // fccChunk
        put32(o, 0);                  // dwChunkStart
        put32(o, 0);                  // dwBlockStart
        put32(o, (uint32_t)cue);      // dwSampleOffset: the loop start Quake reads
    }
    if (mark_len >= 0) {
        put(o, "LIST", 4);
        put32(o, 4 + 4 + 4 + 20);
        put(o, "adtl", 4);
        put(o, "ltxt", 4);
        put32(o, 20);
        put32(o, 1);                  // dwName
        put32(o, (uint32_t)mark_len); // dwSampleLength: the loop length
        put(o, "mark", 4);            // dwPurpose, where Quake looks (+28 from "LIST")
        put32(o, 0);
        put32(o, 0);
    }
    uint32_t riff = (uint32_t)(o->n - 8);
    memcpy(o->b + 4, (uint8_t[4]){ (uint8_t)riff, (uint8_t)(riff >> 8), (uint8_t)(riff >> 16), 0 }, 4);
}

// ---- WAV loader ----------------------------------------------------------------

static void test_wav_real_files(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct {
        const char *path;
        int rate, width, frames, loop;
    } cases[] = {
        // a door movement sound: cue point, no "mark" (its LIST is Sound Forge's)
        { "quake/id1/sound/doors/doormv1.wav", 11025, 2, 31541, 10985 },
        // an explosion: 8-bit, plays once
        { "quake/id1/sound/weapons/r_exp3.wav", 22050, 1, 21813, -1 },
        // an ambient loop from the start
        { "quake/id1/sound/ambience/wind2.wav", 11025, 2, 352830, 0 },
        // 64 kHz
        { "quake/id1/sound/misc/menu1.wav", 64000, 2, 66848, -1 },
        // Quake II: an "ltxt" with purpose "rgn ", not "mark": loops over all the data
        { "quake2/baseq2/sound/world/amb1.wav", 22050, 2, 24840, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t size;
        uint8_t *b = tu_read(tu_data(cases[i].path), &size);
        assert_non_null(b);
        wav_info_t info;
        char err[160];
        assert_int_equal(wav_parse(b, size, &info, err, sizeof(err)), 0);
        assert_int_equal(info.rate, cases[i].rate);
        assert_int_equal(info.width, cases[i].width);
        assert_int_equal(info.channels, 1);
        assert_int_equal(info.frames, cases[i].frames);
        assert_int_equal(info.data_frames, cases[i].frames);
        assert_int_equal(info.loop_start, cases[i].loop);
        assert_int_equal(info.data_offset, 44);
        assert_string_equal(info.note, "");
        int16_t *pcm = malloc(wav_s16_bytes(&info));
        assert_int_equal(wav_to_s16(b, size, &info, pcm), info.frames);
        if (info.width == 1)   // unsigned 8-bit: 128 is silence
            assert_int_equal(pcm[0], ((int)b[44] - 128) * 256);
        else
            assert_int_equal(pcm[0], (int16_t)(b[44] | (b[45] << 8)));
        free(pcm);
        free(b);
    }
}

static void test_wav_loop_points(void **state)
{
    (void)state;
    buf_t *o = malloc(sizeof(*o));
    wav_info_t info;
    char err[160];

    // cue + "mark": the sound ends at loop start + loop length (Quake's info.samples)
    make_wav(o, 11025, 1, 16, 1000, 440, 0.5, 100, 300);
    assert_int_equal(wav_parse(o->b, o->n, &info, err, sizeof(err)), 0);
    assert_int_equal(info.loop_start, 100);
    assert_int_equal(info.frames, 400);
    assert_int_equal(info.data_frames, 1000);
    assert_string_equal(info.note, "");

    // cue alone: loops from the cue to the end of the data
    make_wav(o, 11025, 1, 16, 1000, 440, 0.5, 250, -1);
    assert_int_equal(wav_parse(o->b, o->n, &info, err, sizeof(err)), 0);
    assert_int_equal(info.loop_start, 250);
    assert_int_equal(info.frames, 1000);

    // a loop running past the data: Quake stops with "bad loop length"; we cut it
    make_wav(o, 11025, 1, 16, 1000, 440, 0.5, 900, 500);
    assert_int_equal(wav_parse(o->b, o->n, &info, err, sizeof(err)), 0);
    assert_int_equal(info.loop_start, 900);
    assert_int_equal(info.frames, 1000);
    assert_non_null(strstr(info.note, "loop end 1400"));

    // a cue past the data: plays once
    make_wav(o, 11025, 1, 16, 1000, 440, 0.5, 5000, -1);
    assert_int_equal(wav_parse(o->b, o->n, &info, err, sizeof(err)), 0);
    assert_int_equal(info.loop_start, -1);
    assert_non_null(strstr(info.note, "loop start 5000"));

    // stereo 8-bit, odd data length padded
    make_wav(o, 8000, 2, 8, 333, 100, 1.0, -1, -1);
    assert_int_equal(wav_parse(o->b, o->n, &info, err, sizeof(err)), 0);
    assert_int_equal(info.channels, 2);
    assert_int_equal(info.width, 1);
    assert_int_equal(info.frames, 333);
    assert_int_equal(info.loop_start, -1);
    int16_t *pcm = malloc(wav_s16_bytes(&info));
    assert_int_equal(wav_to_s16(o->b, o->n, &info, pcm), 333);
    assert_int_equal(pcm[0], 0);
    assert_int_equal(pcm[1], 0);
    free(pcm);
    free(o);
}

static void expect_error(const uint8_t *b, size_t n, const char *want)
{
    wav_info_t info;
    char err[160];
    assert_int_equal(wav_parse(b, n, &info, err, sizeof(err)), -1);
    if (!strstr(err, want))
        fail_msg("error \"%s\" does not contain \"%s\"", err, want);
}

static void test_wav_errors(void **state)
{
    (void)state;
    buf_t *o = malloc(sizeof(*o));
    make_wav(o, 11025, 1, 16, 100, 440, 0.5, 10, 20);
    expect_error(o->b, 8, "offset 0: expected a 12-byte RIFF header");
    expect_error((const uint8_t *)"RIFX\0\0\0\0WAVEfmt ", 16, "offset 0: expected \"RIFF\"");

    buf_t *m = malloc(sizeof(*m));
    *m = *o;
    m->b[20] = 3;   // IEEE float
    expect_error(m->b, m->n, "offset 20: expected PCM format 1, found 3");
    *m = *o;
    m->b[22] = 6;
    expect_error(m->b, m->n, "offset 22: expected 1 or 2 channels, found 6");
    *m = *o;
    m->b[34] = 24;
    expect_error(m->b, m->n, "offset 34: expected 8 or 16 bits per sample, found 24");
    *m = *o;
    memset(m->b + 24, 0, 4);
    expect_error(m->b, m->n, "offset 24: expected a sample rate");
    *m = *o;
    memcpy(m->b + 36, "daTa", 4);
    expect_error(m->b, m->n, "expected a \"data\" chunk");
    *m = *o;
    m->b[16] = 12;   // fmt too short
    expect_error(m->b, m->n, "offset 12: expected a \"fmt \" chunk of at least 16 bytes");

    // the data chunk says more than the file has: cut, and said so
    wav_info_t info;
    char err[160];
    assert_int_equal(wav_parse(o->b, 44 + 50, &info, err, sizeof(err)), 0);
    assert_int_equal(info.frames, 25);
    assert_non_null(strstr(info.note, "offset 36: data chunk of 200 bytes cut to 50"));
    free(m);
    free(o);
}

static uint32_t rng(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

// Every prefix and thousands of mutations of a valid file: parse and convert must
// return cleanly (the sanitizer build catches any read out of bounds).
static void test_wav_hostile_bytes(void **state)
{
    (void)state;
    buf_t *o = malloc(sizeof(*o));
    make_wav(o, 11025, 2, 16, 64, 440, 0.5, 10, 20);
    wav_info_t info;
    char err[160];
    int16_t *pcm = malloc(1 << 20);
    for (size_t n = 0; n <= o->n; n++) {
        uint8_t *copy = malloc(n ? n : 1);   // exact size: ASan sees any overread
        memcpy(copy, o->b, n);
        if (wav_parse(copy, n, &info, err, sizeof(err)) == 0) {
            assert_true(wav_s16_bytes(&info) <= (1 << 20));
            wav_to_s16(copy, n, &info, pcm);
        } else {
            assert_true(strncmp(err, "offset ", 7) == 0);
        }
        free(copy);
    }
    uint32_t seed = 12345;
    for (int iter = 0; iter < 20000; iter++) {
        uint8_t *copy = malloc(o->n);
        memcpy(copy, o->b, o->n);
        int flips = 1 + (int)(rng(&seed) % 8);
        for (int k = 0; k < flips; k++) {
            size_t at = rng(&seed) % o->n;
            copy[at] = (rng(&seed) & 1) ? (uint8_t)rng(&seed) : (uint8_t)(rng(&seed) & 1 ? 0xff : 0);
        }
        size_t n = o->n - (rng(&seed) & 1 ? rng(&seed) % 16 : 0);
        if (wav_parse(copy, n, &info, err, sizeof(err)) == 0) {
            assert_true(info.frames >= 0 && info.frames <= info.data_frames);
            assert_true(info.loop_start < info.frames || info.loop_start < 0 || info.frames == 0);
            if (wav_s16_bytes(&info) <= (1 << 20))
                wav_to_s16(copy, n, &info, pcm);
        } else {
            assert_true(strncmp(err, "offset ", 7) == 0);
        }
        free(copy);
    }
    // lengths with the top bit set, huge sizes
    buf_t *m = malloc(sizeof(*m));
    *m = *o;
    memset(m->b + 16, 0xff, 4);
    assert_int_equal(wav_parse(m->b, m->n, &info, err, sizeof(err)), -1);
    *m = *o;
    memcpy(m->b + 40, "\xfe\xfe\xfe\x7f", 4);
    assert_int_equal(wav_parse(m->b, m->n, &info, err, sizeof(err)), 0);
    assert_true(info.note[0] != 0);
    assert_int_equal(wav_parse(NULL, 0, &info, err, sizeof(err)), -1);
    free(m);
    free(pcm);
    free(o);
}

// ---- the loopback mix ------------------------------------------------------------

#define RATE 48000

typedef struct {
    char dir[64];
    vfs_t *fs;
    world_t *w;
} scene_t;

static void write_wav(const char *dir, const char *name, const buf_t *o)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/sound/t/%s", dir, name);
    assert_int_equal(tu_write(path, o->b, o->n), 0);
}

// A file anywhere in the game folder (folders made as needed).
static void write_file(const char *dir, const char *rel, const buf_t *o)
{
    char path[256], cmd[320];
    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(tu_write(path, o->b, o->n), 0);
}

// A game folder with test sounds, a world naming them, the listener at the origin
// looking along +x (Quake yaw 0: +y is to the left, -y to the right).
static void scene_open(scene_t *sc)
{
    snprintf(sc->dir, sizeof(sc->dir), "/tmp/demoplay_audio_XXXXXX");
    assert_non_null(mkdtemp(sc->dir));
    char sub[128];
    snprintf(sub, sizeof(sub), "%s/sound", sc->dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(sub, sizeof(sub), "%s/sound/t", sc->dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    buf_t *o = malloc(sizeof(*o));
    make_wav(o, 22050, 1, 16, 22050, 440, 0.5, -1, -1);      // 1 s tone, plays once
    write_wav(sc->dir, "tone.wav", o);
    make_wav(o, 11025, 1, 16, 2205, 300, 0.5, 0, -1);        // 0.2 s, loops (cue at 0)
    write_wav(sc->dir, "loop.wav", o);
    make_wav(o, 22050, 1, 8, 2205, 660, 0.5, -1, -1);        // 0.1 s, 8-bit
    write_wav(sc->dir, "short.wav", o);
    make_wav(o, 11025, 2, 16, 11025, 200, 0.5, 1000, 5000);  // stereo, loop 1000..6000
    write_wav(sc->dir, "stereo.wav", o);
    // sounds the clients play themselves, 0.2 s each, and Quake II player sounds:
    // the female one lasts 0.6 s, the male fallback 0.2 s
    make_wav(o, 22050, 1, 16, 4410, 500, 0.5, -1, -1);
    static const char *const client[] = { "sound/weapons/r_exp3.wav", "sound/misc/talk.wav",
                                          "sound/weapons/rocklf1a.wav", "sound/weapons/rocklr1b.wav",
                                          "sound/player/step1.wav", "sound/player/step2.wav",
                                          "sound/player/step3.wav", "sound/player/step4.wav",
                                          "sound/player/male/death1.wav", "sound/soldier/solatck3.wav" };
    for (size_t i = 0; i < sizeof(client) / sizeof(client[0]); i++)
        write_file(sc->dir, client[i], o);
    make_wav(o, 22050, 1, 16, 13230, 500, 0.5, -1, -1);
    write_file(sc->dir, "players/female/death1.wav", o);
    free(o);
    snprintf(sub, sizeof(sub), "%s/sound/t/bad.wav", sc->dir);
    assert_int_equal(tu_write(sub, "RIFF\x04\0\0\0WAVE", 12), 0);

    sc->fs = vfs_create();
    assert_int_equal(vfs_add_dir(sc->fs, sc->dir), 0);
    sc->w = world_create();
    assert_non_null(sc->w);
    sc->w->game = GAME_QUAKE;
    world_new_level(sc->w);
    world_set_sound(sc->w, 1, "t/tone.wav");
    world_set_sound(sc->w, 2, "t/loop.wav");
    world_set_sound(sc->w, 3, "t/short.wav");
    world_set_sound(sc->w, 4, "t/stereo.wav");
    world_set_sound(sc->w, 5, "t/missing.wav");
    world_set_sound(sc->w, 6, "t/bad.wav");
    sc->w->view.entity = 1;
}

static void scene_close(scene_t *sc)
{
    world_free(sc->w);
    vfs_free(sc->fs);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sc->dir);
    assert_int_equal(system(cmd), 0);
}

static void add_sound(world_t *w, int entity, int channel, int sound, float x, float y, float z, float vol,
                      float atten)
{
    world_event_t *ev = world_add_event(w, EV_SOUND);
    assert_non_null(ev);
    memset(&ev->u.sound, 0, sizeof(ev->u.sound));
    ev->u.sound.entity = entity;
    ev->u.sound.channel = channel;
    ev->u.sound.sound = sound;
    ev->u.sound.volume = vol;
    ev->u.sound.attenuation = atten;
    ev->u.sound.pitch = 1.0f;
    ev->u.sound.origin[0] = x;
    ev->u.sound.origin[1] = y;
    ev->u.sound.origin[2] = z;
    ev->u.sound.has_origin = 1;
}

static snd_t *open_snd(scene_t *sc, float volume)
{
    snd_t *s = snd_create_loopback(RATE, volume);
    assert_non_null(s);
    snd_load_level(s, sc->fs, sc->w);
    vec3_t org = { 0, 0, 0 }, ang = { 0, 0, 0 };
    snd_listener(s, org, ang);
    return s;
}

typedef struct {
    double left, right;   // sum of |sample|
    int peak;
} level_t;

static level_t measure(const int16_t *pcm, int frames)
{
    level_t l = { 0, 0, 0 };
    for (int i = 0; i < frames; i++) {
        l.left += abs(pcm[2 * i]);
        l.right += abs(pcm[2 * i + 1]);
        int a = abs(pcm[2 * i]) > abs(pcm[2 * i + 1]) ? abs(pcm[2 * i]) : abs(pcm[2 * i + 1]);
        if (a > l.peak)
            l.peak = a;
    }
    return l;
}

static int is_silent(const int16_t *pcm, int frames)
{
    for (int i = 0; i < 2 * frames; i++)
        if (pcm[i])
            return 0;
    return 1;
}

static void test_loopback_panning(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    snd_t *s = open_snd(&sc, 1.0f);
    static int16_t pcm[RATE / 4 * 2];

    // to the listener's right (-y at yaw 0), 200 units away
    world_begin_frame(sc.w, 1.0);
    add_sound(sc.w, 5, 1, 1, 0, -200, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    assert_int_equal(snd_render(s, pcm, RATE / 4), 0);
    level_t right = measure(pcm, RATE / 4);
    assert_true(right.peak > 1000);
    assert_true(right.right > 2 * right.left);

    // turn around (yaw 180): the same sound is now on the left
    snd_stop_all(s);
    vec3_t org = { 0, 0, 0 }, back = { 0, 180, 0 };
    snd_listener(s, org, back);
    world_begin_frame(sc.w, 1.1);
    add_sound(sc.w, 5, 1, 1, 0, -200, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    snd_render(s, pcm, RATE / 4);
    level_t left = measure(pcm, RATE / 4);
    assert_true(left.left > 2 * left.right);

    // yaw 90 (looking along +y): a sound at +x is on the right
    snd_stop_all(s);
    vec3_t yaw90 = { 0, 90, 0 };
    snd_listener(s, org, yaw90);
    world_begin_frame(sc.w, 1.2);
    add_sound(sc.w, 5, 1, 1, 200, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    snd_render(s, pcm, RATE / 4);
    level_t r90 = measure(pcm, RATE / 4);
    assert_true(r90.right > 2 * r90.left);

    // the view entity's own sounds are centred whatever their origin
    snd_stop_all(s);
    world_begin_frame(sc.w, 1.3);
    add_sound(sc.w, 1, 1, 1, 0, -200, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    snd_render(s, pcm, RATE / 4);
    level_t own = measure(pcm, RATE / 4);
    assert_true(own.peak > 1000);
    assert_true(fabs(own.left - own.right) < 0.01 * own.left);
    snd_destroy(s);
    scene_close(&sc);
}

// snd_listener_entity: whose sounds are the listener's own. The view entity (1) by default: its sound
// 200 units to the right is centred; 0 (a chase or free camera): the same sound is placed, on the
// right; 5 (a followed player): entity 5's sound there is centred and entity 1's placed; -1: the view
// entity's again.
static level_t own_sound(snd_t *s, scene_t *sc, int entity, double t)
{
    static int16_t pcm[RATE / 4 * 2];
    snd_stop_all(s);
    world_begin_frame(sc->w, t);
    add_sound(sc->w, entity, 1, 1, 0, -200, 0, 1.0f, 1.0f);
    snd_frame(s, sc->w);
    assert_int_equal(snd_render(s, pcm, RATE / 4), 0);
    level_t l = measure(pcm, RATE / 4);
    assert_true(l.peak > 1000);
    return l;
}

static void test_listener_entity(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    snd_t *s = open_snd(&sc, 1.0f);
    level_t view = own_sound(s, &sc, 1, 1.0);
    snd_listener_entity(s, 0);
    level_t none = own_sound(s, &sc, 1, 1.1);
    snd_listener_entity(s, 5);
    level_t followed = own_sound(s, &sc, 5, 1.2), recorder = own_sound(s, &sc, 1, 1.3);
    snd_listener_entity(s, -1);
    level_t back = own_sound(s, &sc, 1, 1.4);
    print_message("entity 1's sound 200 units right: left %.0f right %.0f (the view's); with no body %.0f / %.0f; "
                  "following 5: 5's %.0f / %.0f, 1's %.0f / %.0f; back to the view: %.0f / %.0f\n", view.left,
                  view.right, none.left, none.right, followed.left, followed.right, recorder.left, recorder.right,
                  back.left, back.right);
    assert_true(fabs(view.left - view.right) < 0.01 * view.left);
    assert_true(none.right > 2 * none.left);
    assert_true(fabs(followed.left - followed.right) < 0.01 * followed.left);
    assert_true(recorder.right > 2 * recorder.left);
    assert_true(fabs(back.left - back.right) < 0.01 * back.left);
    snd_destroy(s);
    scene_close(&sc);
}

static void test_loopback_attenuation_and_volume(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    static int16_t pcm[RATE / 4 * 2];
    int peaks[4];
    const float dist[4] = { 100, 500, 900, 1200 };
    for (int i = 0; i < 4; i++) {
        snd_t *s = open_snd(&sc, 1.0f);
        world_begin_frame(sc.w, 1.0 + i);
        add_sound(sc.w, 5, 1, 1, dist[i], 0, 0, 1.0f, 1.0f);   // straight ahead
        snd_frame(s, sc.w);
        snd_render(s, pcm, RATE / 4);
        peaks[i] = measure(pcm, RATE / 4).peak;
        snd_destroy(s);
    }
    // Quake: gain 1 - dist / 1000 at attenuation 1, nothing beyond 1000 units
    assert_true(peaks[0] > peaks[1] && peaks[1] > peaks[2]);
    double r = (double)peaks[1] / peaks[0];
    assert_true(fabs(r - 0.5 / 0.9) < 0.05);
    assert_int_equal(peaks[3], 0);

    // attenuation 0: heard everywhere; --volume scales the mix
    int p[2];
    const float vols[2] = { 1.0f, 0.5f };
    for (int i = 0; i < 2; i++) {
        snd_t *s = open_snd(&sc, vols[i]);
        world_begin_frame(sc.w, 10.0 + i);
        add_sound(sc.w, 5, 1, 1, 5000, 0, 0, 1.0f, 0.0f);
        snd_frame(s, sc.w);
        snd_render(s, pcm, RATE / 4);
        p[i] = measure(pcm, RATE / 4).peak;
        snd_destroy(s);
    }
    assert_true(p[0] > 1000);
    assert_true(fabs((double)p[1] / p[0] - 0.5) < 0.02);
    snd_t *s = open_snd(&sc, 0.0f);
    world_begin_frame(sc.w, 20.0);
    add_sound(sc.w, 5, 1, 1, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    snd_render(s, pcm, RATE / 4);
    assert_true(is_silent(pcm, RATE / 4));
    snd_destroy(s);
    scene_close(&sc);
}

// The same calls, on two devices: the same bytes.
static void run_script(scene_t *sc, int16_t *pcm, int frames_per_step)
{
    snd_t *s = open_snd(sc, 0.8f);
    for (int step = 0; step < 8; step++) {
        world_begin_frame(sc->w, 1.0 + step * 0.1);
        add_sound(sc->w, 5 + step % 3, step % 2, 1 + step % 4, 100.0f * step, -50.0f * step, 10, 0.7f, 1.0f);
        if (step == 5) {
            world_event_t *ev = world_add_event(sc->w, EV_STOPSOUND);
            memset(&ev->u.sound, 0, sizeof(ev->u.sound));
            ev->u.sound.entity = 6;
            ev->u.sound.channel = 1;
        }
        snd_frame(s, sc->w);
        vec3_t org = { 10.0f * step, 0, 0 }, ang = { 5.0f * step, 20.0f * step, 0 };
        snd_listener(s, org, ang);
        snd_render(s, pcm + 2 * (size_t)step * frames_per_step, frames_per_step);
    }
    snd_destroy(s);
}

static void test_loopback_deterministic(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    const int step = 4800;
    int16_t *a = calloc(8 * step * 2, sizeof(int16_t));
    int16_t *b = calloc(8 * step * 2, sizeof(int16_t));
    run_script(&sc, a, step);
    run_script(&sc, b, step);
    assert_false(is_silent(a, 8 * step));
    assert_memory_equal(a, b, 8 * step * 2 * sizeof(int16_t));
    free(a);
    free(b);
    scene_close(&sc);
}

static void test_loopback_channels(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    static int16_t pcm[RATE * 2];
    snd_t *s = open_snd(&sc, 1.0f);

    // a looping sound, then a short one on the same entity and channel: replaced,
    // so once the short one ends all is quiet
    world_begin_frame(sc.w, 1.0);
    add_sound(sc.w, 5, 2, 2, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    snd_render(s, pcm, RATE / 10);
    assert_int_equal(snd_active_voices(s), 1);
    world_begin_frame(sc.w, 1.1);
    add_sound(sc.w, 5, 2, 3, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_render(s, pcm, RATE / 2);
    snd_render(s, pcm, RATE / 2);
    assert_true(is_silent(pcm, RATE / 2));
    assert_int_equal(snd_active_voices(s), 0);

    // on channel 0 nothing is replaced: the loop goes on
    world_begin_frame(sc.w, 2.0);
    add_sound(sc.w, 5, 0, 2, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    world_begin_frame(sc.w, 2.1);
    add_sound(sc.w, 5, 0, 3, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 2);
    snd_render(s, pcm, RATE / 2);
    snd_render(s, pcm, RATE / 2);
    assert_false(is_silent(pcm, RATE / 2));
    assert_int_equal(snd_active_voices(s), 1);

    // other entities and channels do not interfere; stopsound stops one
    world_begin_frame(sc.w, 3.0);
    add_sound(sc.w, 6, 2, 2, 100, 0, 0, 1.0f, 1.0f);
    add_sound(sc.w, 5, 3, 2, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 3);
    world_begin_frame(sc.w, 3.1);
    world_event_t *ev = world_add_event(sc.w, EV_STOPSOUND);
    memset(&ev->u.sound, 0, sizeof(ev->u.sound));
    ev->u.sound.entity = 6;
    ev->u.sound.channel = 2;
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 2);
    // the same frame again (no new seq): its events are not played twice
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 2);

    // missing and damaged sounds are silent; indices out of range are ignored
    world_begin_frame(sc.w, 4.0);
    add_sound(sc.w, 7, 1, 5, 100, 0, 0, 1.0f, 1.0f);
    add_sound(sc.w, 7, 2, 6, 100, 0, 0, 1.0f, 1.0f);
    add_sound(sc.w, 7, 3, 999, 100, 0, 0, 1.0f, 1.0f);
    add_sound(sc.w, 7, 4, -1, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 2);

    // more sounds than voices: the oldest are stolen, nothing breaks
    for (int i = 0; i < 300; i++) {
        world_begin_frame(sc.w, 5.0 + i * 0.01);
        add_sound(sc.w, 100 + i, 1, 2, 100, 0, 0, 1.0f, 1.0f);
        snd_frame(s, sc.w);
    }
    assert_true(snd_active_voices(s) <= 128);
    snd_render(s, pcm, RATE / 10);
    snd_destroy(s);
    scene_close(&sc);
}

static void test_loopback_stop_all_and_statics(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    static int16_t pcm[RATE * 2];
    world_static_sound_t ss = { { 0, -100, 0 }, 2, 1.0f, 1.0f };   // looped: plays
    world_add_static_sound(sc.w, &ss);
    world_static_sound_t once = { { 0, 100, 0 }, 1, 1.0f, 1.0f };  // not looped: Quake skips it
    world_add_static_sound(sc.w, &once);
    snd_t *s = open_snd(&sc, 1.0f);

    world_begin_frame(sc.w, 1.0);
    add_sound(sc.w, 5, 1, 1, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 2);
    snd_render(s, pcm, RATE);
    assert_false(is_silent(pcm + RATE, RATE / 2));
    snd_render(s, pcm, RATE / 2);   // the 1 s tone has ended
    assert_int_equal(snd_active_voices(s), 1);
    level_t l = measure(pcm, RATE / 2);   // the static loop is on the right
    assert_true(l.right > 2 * l.left);

    // stop_all: silence (after the library's short fade)
    snd_stop_all(s);
    assert_int_equal(snd_active_voices(s), 0);
    snd_render(s, pcm, RATE / 100);
    snd_render(s, pcm, RATE / 2);
    assert_true(is_silent(pcm, RATE / 2));
    // the next frame starts the static loop again, not the old events
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_render(s, pcm, RATE / 2);
    assert_false(is_silent(pcm + RATE / 4, RATE / 4));

    // a new level stops everything and forgets the statics
    world_new_level(sc.w);
    sc.w->level_seq++;
    world_set_sound(sc.w, 1, "t/stereo.wav");
    snd_load_level(s, sc.fs, sc.w);
    assert_int_equal(snd_active_voices(s), 0);
    world_begin_frame(sc.w, 9.0);
    add_sound(sc.w, 5, 1, 1, 100, 0, 0, 1.0f, 1.0f);   // stereo file, folded to mono, looping
    snd_frame(s, sc.w);
    snd_render(s, pcm, RATE);
    assert_int_equal(snd_active_voices(s), 1);
    assert_false(is_silent(pcm + RATE, RATE / 2));
    snd_destroy(s);
    scene_close(&sc);
}

// Lasting loops run on the level clock: started at 0.9 s (a seek, an export's
// pre-roll) they sound from 1.5 s on exactly as when started with the level, to
// the sample; with the clock told one sample wrong they do not.
static void render_loops(scene_t *sc, double start, long long skew, int16_t *out)
{
    snd_t *s = snd_create_loopback(RATE, 1.0f);
    assert_non_null(s);
    snd_load_level(s, sc->fs, sc->w);
    vec3_t org = { 0, 0, 0 }, ang = { 0, 0, 0 };
    snd_listener(s, org, ang);
    long long head = llround(start * RATE);
    snd_set_clock(s, head + skew, 0.0);
    static int16_t pcm[RATE * 2];
    for (int k = (int)llround(start / 0.05); k <= 40; k++) {
        long long at = llround(k * 0.05 * RATE);   // render up to the frame, then its sounds
        if (at > head) {
            snd_render(s, pcm, (int)(at - head));
            for (long long i = head; i < at; i++)
                if (i >= RATE * 3 / 2 && i < 2 * RATE)
                    memcpy(out + 2 * (i - RATE * 3 / 2), pcm + 2 * (i - head), 4);
            head = at;
        }
        world_begin_frame(sc->w, k * 0.05);
        snd_frame(s, sc->w);
    }
    assert_true(snd_active_voices(s) >= 2);
    snd_destroy(s);
}

static void test_loops_level_clock(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    world_static_sound_t a = { { 0, -100, 0 }, 2, 1.0f, 1.0f };   // 0.2 s, loops from 0, 11025 Hz
    world_static_sound_t b = { { 0, 100, 0 }, 4, 1.0f, 1.0f };    // loops 1000..6000 after a first pass
    world_add_static_sound(sc.w, &a);
    world_add_static_sound(sc.w, &b);
    enum { N = RATE / 2 };
    static int16_t from_start[2 * N], joined[2 * N], skewed[2 * N];
    render_loops(&sc, 0.0, 0, from_start);
    render_loops(&sc, 0.9, 0, joined);
    render_loops(&sc, 0.9, 1, skewed);
    assert_false(is_silent(from_start, N));
    int diff = 0, skew_diff = 0;
    for (int i = 0; i < 2 * N; i++) {
        diff += from_start[i] != joined[i];
        skew_diff += from_start[i] != skewed[i];
    }
    printf("  loops joined at 0.9 s: %d of %d samples differ; with the clock 1 sample off: %d\n", diff, 2 * N,
           skew_diff);
    assert_int_equal(diff, 0);
    assert_true(skew_diff > N / 10);
    scene_close(&sc);
}

// snd_loops (a game's rules' lasting loops, keyed by id): a loop listed from 0.3 s to 1.6 s at the
// listener's left, begun at 0.3 s, then one listed centred from 1.2 s. Rendered from the start and
// joined at 0.9 s (a seek, an export's pre-roll: a new sound system told the clock) they give the same
// samples from 1.0 s on; nothing before 0.3 s, the left one heard on the left, nothing after both end.
static void render_rule_loops(scene_t *sc, double start, double begun, int16_t *out /* 2 s, stereo */)
{
    snd_t *s = snd_create_loopback(RATE, 1.0f);
    assert_non_null(s);
    snd_load_level(s, sc->fs, sc->w);
    vec3_t org = { 0, 0, 0 }, ang = { 0, 0, 0 };
    snd_listener(s, org, ang);
    long long head = llround(start * RATE);
    snd_set_clock(s, head, 0.0);
    memset(out, 0, sizeof(int16_t) * 2 * 2 * RATE);
    for (int k = (int)llround(start / 0.05); k <= 40; k++) {
        long long at = llround(k * 0.05 * RATE);
        if (at > head) {
            snd_render(s, out + 2 * head, (int)(at - head));
            head = at;
        }
        double t = k * 0.05;
        world_begin_frame(sc->w, t);
        snd_frame(s, sc->w);
        snd_loop_t l[2];
        int n = 0;
        if (t >= 0.3 - 1e-9 && t < 1.6 - 1e-9)
            l[n++] = (snd_loop_t){ 7, "t/stereo.wav", { 0, 100, 0 }, 0.8f, 1.0f, 0, begun };
        if (t >= 1.2 - 1e-9 && t < 1.6 - 1e-9)
            l[n++] = (snd_loop_t){ 9, "t/loop.wav", { 0, 100, 0 }, 0.5f, 1.0f, 1, 1.2 };
        snd_loops(s, sc->w, l, n);
        if (t > 1.0 && t < 1.15)
            assert_int_equal(snd_active_voices(s), 1);
        if (t > 1.65)
            assert_int_equal(snd_active_voices(s), 0);
    }
    snd_destroy(s);
}

static void test_rule_loops(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    static int16_t whole[2 * 2 * RATE], joined[2 * 2 * RATE], early[2 * 2 * RATE];
    render_rule_loops(&sc, 0.0, 0.3, whole);
    render_rule_loops(&sc, 0.9, 0.3, joined);
    render_rule_loops(&sc, 0.0, 0.25, early);   // the same loop said to have begun 0.05 s before it is listed
    int diff = 0, shifted = 0;
    for (int i = 2 * RATE; i < 2 * 2 * RATE; i++)
        diff += whole[i] != joined[i];
    for (int i = 2 * (RATE * 3 / 10); i < 2 * (RATE / 2); i++)
        shifted += whole[i] != early[i];
    level_t before = measure(whole, RATE * 3 / 10), left = measure(whole + 2 * (RATE / 2), RATE / 2);
    level_t both = measure(whole + 2 * (RATE * 13 / 10), RATE / 5), after = measure(whole + 2 * (RATE * 33 / 20), RATE / 4);
    printf("  rule loops: before 0.3 s %.0f; 0.5..1 s left %.0f right %.0f; 1.3..1.5 s left %.0f right %.0f; after "
           "1.65 s %.0f; joined at 0.9 s: %d of %d samples from 1 s differ; begun 0.05 s earlier: %d of %d differ\n",
           before.left + before.right, left.left, left.right, both.left, both.right, after.left + after.right, diff,
           2 * RATE, shifted, 2 * (RATE / 5));
    assert_true(before.left + before.right == 0);
    assert_true(left.left > 1e7 && left.right == 0);   // hard left (OpenAL's pan at the side)
    assert_true(both.right > 1e7);   // the centred one is in the right ear too
    assert_true(after.left + after.right == 0);
    assert_int_equal(diff, 0);
    assert_true(shifted > RATE / 10);
    scene_close(&sc);
}

// Quake II: entity loops follow the entity and stop when it is gone.
static void test_loopback_entity_loops(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    sc.w->game = GAME_QUAKE2;
    static int16_t pcm[RATE / 4 * 2];
    snd_t *s = open_snd(&sc, 1.0f);
    entity_state_t st;
    entity_state_clear(&st);
    st.sound = 2;
    st.origin[1] = -150;   // right
    world_begin_frame(sc.w, 1.0);
    world_entity_update(sc.w, 9, &st);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_render(s, pcm, RATE / 4);
    level_t r = measure(pcm, RATE / 4);
    assert_true(r.right > 2 * r.left);
    st.origin[1] = 150;    // moves to the left
    world_begin_frame(sc.w, 1.1);
    world_entity_update(sc.w, 9, &st);
    snd_frame(s, sc.w);
    snd_render(s, pcm, RATE / 4);
    level_t l = measure(pcm + RATE / 8, RATE / 8);
    assert_true(l.left > 2 * l.right);
    world_begin_frame(sc.w, 1.2);   // entity absent
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 0);
    snd_destroy(s);
    scene_close(&sc);
}

// Rising zero crossings of the left channel.
static int crossings(const int16_t *pcm, int frames)
{
    int n = 0;
    for (int i = 1; i < frames; i++)
        n += pcm[2 * (i - 1)] < 0 && pcm[2 * i] >= 0;
    return n;
}

// GoldSrc sentences (svc_sound with SND_SENTENCE): sound/sentences.txt's words one
// after another on the event's channel, each cut at its end %, from its start %, at its
// volume; ',' inside the text is the folder's _comma word; an unknown sentence warns.
static void test_sentences(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    sc.w->game = GAME_GOLDSRC;
    static const char txt[] = "// comments start with a slash\r\n"
                              "  SC_FIRST vox/short\n"
                              "SC_HELLO t/(v100) tone(e50) short, tone(s50 v50).\n";
    buf_t *o = malloc(sizeof(*o));
    memcpy(o->b, txt, sizeof(txt) - 1);
    o->n = sizeof(txt) - 1;
    write_file(sc.dir, "sound/sentences.txt", o);
    make_wav(o, 22050, 1, 16, 2205, 660, 0.5, -1, -1);
    write_file(sc.dir, "sound/vox/short.wav", o);
    make_wav(o, 22050, 1, 16, 2205, 0, 0.0, -1, -1);   // 0.1 s of silence
    write_file(sc.dir, "sound/t/_comma.wav", o);
    free(o);
    // the table: two sentences, the second with five words
    snd_sentences_t t = { 0 };
    assert_int_equal(snd_sentences_load(&t, txt, sizeof(txt) - 1), 0);
    assert_int_equal(t.count, 2);
    const snd_word_t *wd;
    assert_int_equal(snd_sentence_words(&t, 0, &wd), 1);
    assert_string_equal(wd[0].file, "vox/short.wav");
    assert_int_equal(snd_sentence_words(&t, 1, &wd), 4);
    assert_string_equal(wd[0].file, "t/tone.wav");
    assert_int_equal(wd[0].end, 50);
    assert_string_equal(wd[1].file, "t/short.wav");
    assert_string_equal(wd[2].file, "t/_comma.wav");   // the final '.' is no word
    assert_string_equal(wd[3].file, "t/tone.wav");
    assert_int_equal(wd[3].start, 50);
    assert_int_equal(wd[3].volume, 50);
    assert_int_equal(snd_sentence_words(&t, 2, &wd), -1);
    snd_sentences_free(&t);

    snd_t *s = open_snd(&sc, 1.0f);
    enum { STEP = RATE / 20 };   // 0.05 s
    static int16_t pcm[STEP * 2];
    int cross[40], peak[40];
    for (int k = 0; k < 40; k++) {   // 1.0 .. 3.0 s
        world_begin_frame(sc.w, 1.0 + 0.05 * k);
        if (k == 0) {
            add_sound(sc.w, 1, 2, 0, 0, 0, 0, 1.0f, 0.0f);
            sc.w->events[sc.w->num_events - 1].u.sound.sentence = 2;   // SC_HELLO
        }
        snd_frame(s, sc.w);
        snd_render(s, pcm, STEP);
        cross[k] = crossings(pcm, STEP);
        peak[k] = measure(pcm, STEP).peak;
    }
    // tone (440 Hz, 22 rising crossings a window) to its half, 1.0 .. 1.5 s
    for (int k = 1; k < 10; k++)
        if (cross[k] < 20 || cross[k] > 24)
            fail_msg("window %d: %d crossings, expected 440 Hz's 22", k, cross[k]);
    // then short (660 Hz: 33) for 0.1 s, the comma's silence for 0.1 s
    for (int k = 10; k < 12; k++)
        if (cross[k] < 31 || cross[k] > 35)
            fail_msg("window %d: %d crossings, expected 660 Hz's 33", k, cross[k]);
    for (int k = 12; k < 14; k++)
        if (peak[k] != 0)
            fail_msg("window %d: peak %d in the comma's silence", k, peak[k]);
    // the tone's second half at half volume for 0.5 s, then nothing
    for (int k = 15; k < 23; k++) {
        if (cross[k] < 20 || cross[k] > 24)
            fail_msg("window %d: %d crossings, expected 440 Hz's 22", k, cross[k]);
        if (abs(2 * peak[k] - peak[5]) > peak[5] / 10)
            fail_msg("window %d: peak %d, expected half of %d", k, peak[k], peak[5]);
    }
    for (int k = 25; k < 40; k++)
        assert_int_equal(peak[k], 0);
    // sentence 0 plays from vox/
    world_begin_frame(sc.w, 4.0);
    add_sound(sc.w, 1, 2, 0, 0, 0, 0, 1.0f, 0.0f);
    sc.w->events[sc.w->num_events - 1].u.sound.sentence = 1;
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_render(s, pcm, STEP);
    assert_true(crossings(pcm, STEP) >= 31);
    snd_stop_all(s);
    // a number past the file's: nothing plays
    world_begin_frame(sc.w, 5.0);
    add_sound(sc.w, 1, 2, 0, 0, 0, 0, 1.0f, 0.0f);
    sc.w->events[sc.w->num_events - 1].u.sound.sentence = 9;
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 0);
    snd_destroy(s);
    scene_close(&sc);
}

// Sounds the clients make themselves: Quake's explosion and chat beep.
static void test_client_sounds_quake(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    static int16_t pcm[RATE / 10 * 2];
    snd_t *s = open_snd(&sc, 1.0f);
    world_begin_frame(sc.w, 1.0);
    world_event_t *ev = world_add_event(sc.w, EV_TEMPENT);
    memset(&ev->u.fx, 0, sizeof(ev->u.fx));
    ev->u.fx.kind = FX_EXPLOSION;
    ev->u.fx.origin[1] = -100;   // right
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_render(s, pcm, RATE / 10);
    level_t l = measure(pcm, RATE / 10);
    assert_true(l.right > 2 * l.left);
    snd_stop_all(s);
    world_begin_frame(sc.w, 2.0);
    world_add_text_event(sc.w, EV_PRINT, "plain text\n", 0);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 0);
    world_begin_frame(sc.w, 3.0);
    world_add_text_event(sc.w, EV_PRINT, "\001Bob: hello\n", 0);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_destroy(s);
    scene_close(&sc);
}

// Quake II: weapon sounds from muzzle flashes (with the delayed reload), time
// offsets, footsteps, and player sounds from the player's model folder.
static void test_client_sounds_quake2(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    sc.w->game = GAME_QUAKE2;
    world_set_sound(sc.w, 7, "*death1.wav");
    snprintf(sc.w->players[0].skin, sizeof(sc.w->players[0].skin), "Alice\\female/athena");
    static int16_t pcm[RATE * 2];
    snd_t *s = open_snd(&sc, 1.0f);
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = 1;
    st.origin[0] = 100;

    world_begin_frame(sc.w, 1.0);
    world_entity_update(sc.w, 3, &st);
    world_event_t *ev = world_add_event(sc.w, EV_DLIGHT);
    memset(&ev->u.fx, 0, sizeof(ev->u.fx));
    ev->u.fx.kind = FX_NONE;
    ev->u.fx.raw_type = 7;   // MZ_ROCKET: fire now, reload 0.1 s later
    ev->u.fx.count = 1;
    ev->u.fx.entity = 3;
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_render(s, pcm, RATE / 20);
    world_begin_frame(sc.w, 1.05);   // not yet
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    world_begin_frame(sc.w, 1.1);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 2);
    snd_stop_all(s);

    // a monster's muzzle flash: its weapon sound (MZ2_SOLDIER_MACHINEGUN_1)
    world_begin_frame(sc.w, 1.5);
    ev = world_add_event(sc.w, EV_DLIGHT);
    memset(&ev->u.fx, 0, sizeof(ev->u.fx));
    ev->u.fx.raw_type = 43;
    ev->u.fx.count = 2;
    ev->u.fx.entity = 3;
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_stop_all(s);

    // a server sound with a time offset waits for its time
    world_begin_frame(sc.w, 2.0);
    add_sound(sc.w, 5, 1, 3, 100, 0, 0, 1.0f, 1.0f);
    sc.w->events[sc.w->num_events - 1].u.sound.time_offset = 0.05f;
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 0);
    world_begin_frame(sc.w, 2.1);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_stop_all(s);

    // a footstep (entity event)
    world_begin_frame(sc.w, 3.0);
    st.event = 2;
    world_entity_update(sc.w, 3, &st);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_stop_all(s);

    // "*death1.wav": Alice (entity 1) is female (0.6 s), entity 2 falls back to male (0.2 s)
    world_begin_frame(sc.w, 4.0);
    add_sound(sc.w, 1, 2, 7, 100, 0, 0, 1.0f, 1.0f);
    add_sound(sc.w, 2, 2, 7, 100, 0, 0, 1.0f, 1.0f);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 2);
    snd_render(s, pcm, RATE * 4 / 10);
    assert_int_equal(snd_active_voices(s), 1);
    snd_render(s, pcm, RATE * 4 / 10);
    assert_int_equal(snd_active_voices(s), 0);
    snd_destroy(s);
    scene_close(&sc);
}

// ---- Quake's ambient sounds -------------------------------------------------------

// A BSP29 with one plane (x = 0): in front a leaf full of water, behind a quiet one.
static void make_bsp(buf_t *o)
{
    o->n = 0;
    put32(o, 29);
    size_t dir = o->n;
    for (int i = 0; i < 15; i++) {
        put32(o, 0);
        put32(o, 0);
    }
    size_t at[15] = { 0 }, len[15] = { 0 };
    at[1] = o->n;   // planes: normal, dist, type
    put32(o, 0x3f800000u);
    put32(o, 0);
    put32(o, 0);
    put32(o, 0);
    put32(o, 0);
    len[1] = o->n - at[1];
    at[5] = o->n;   // nodes: plane 0, front leaf 1, back leaf 2
    put32(o, 0);
    put16(o, (uint16_t)-2);
    put16(o, (uint16_t)-3);
    for (int i = 0; i < 16; i++)
        put(o, "\0", 1);
    len[5] = o->n - at[5];
    at[10] = o->n;   // leaves: solid, water 255, none
    static const uint8_t amb[3][4] = { { 0, 0, 0, 0 }, { 255, 0, 0, 0 }, { 0, 0, 0, 0 } };
    for (int l = 0; l < 3; l++) {
        put32(o, l == 0 ? (uint32_t)-2 : (uint32_t)-1);
        for (int i = 0; i < 20; i++)
            put(o, "\0", 1);
        put(o, amb[l], 4);
    }
    len[10] = o->n - at[10];
    at[14] = o->n;   // the world model: head node 0
    for (int i = 0; i < 9; i++)
        put32(o, 0);
    for (int i = 0; i < 7; i++)
        put32(o, 0);
    len[14] = o->n - at[14];
    for (int i = 0; i < 15; i++) {
        uint8_t *d = o->b + dir + 8 * i;
        uint32_t v[2] = { (uint32_t)at[i], (uint32_t)len[i] };
        for (int k = 0; k < 8; k++)
            d[k] = (uint8_t)(v[k / 4] >> (8 * (k % 4)));
    }
}

static void test_ambient_sounds(void **state)
{
    (void)state;
    scene_t sc;
    scene_open(&sc);
    buf_t *o = malloc(sizeof(*o));
    make_bsp(o);
    write_file(sc.dir, "maps/amb.bsp", o);
    make_wav(o, 11025, 1, 16, 2205, 300, 0.5, -1, -1);   // no cue: ambients loop anyway
    write_file(sc.dir, "sound/ambience/water1.wav", o);
    write_file(sc.dir, "sound/ambience/wind2.wav", o);
    free(o);
    snprintf(sc.w->map, sizeof(sc.w->map), "maps/amb.bsp");
    static int16_t pcm[RATE / 10 * 2];
    snd_t *s = snd_create_loopback(RATE, 1.0f);
    snd_load_level(s, sc.fs, sc.w);
    vec3_t in_water = { 100, 0, 0 }, dry = { -100, 0, 0 }, ang = { 0, 0, 0 };
    snd_listener(s, in_water, ang);
    // joining the level: at 0.3 x 255 from the first frame (not faded in from 0,
    // so the level at a time does not depend on where playback began)
    for (int i = 0; i <= 10; i++) {
        world_begin_frame(sc.w, 1.0 + 0.1 * i);
        snd_frame(s, sc.w);
        assert_int_equal(snd_active_voices(s), 1);
        snd_render(s, pcm, RATE / 10);
    }
    level_t l = measure(pcm, RATE / 10);
    assert_true(l.peak > 500);
    assert_true(fabs(l.left - l.right) < 0.01 * l.left);   // centred
    // out of the water it fades out and stops
    snd_listener(s, dry, ang);
    for (int i = 0; i <= 10; i++) {
        world_begin_frame(sc.w, 2.1 + 0.1 * i);
        snd_frame(s, sc.w);
        snd_render(s, pcm, RATE / 10);
    }
    assert_int_equal(snd_active_voices(s), 0);
    // a seek stops it; back in the water it comes again
    snd_listener(s, in_water, ang);
    world_begin_frame(sc.w, 4.0);
    snd_frame(s, sc.w);
    world_begin_frame(sc.w, 4.1);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_stop_all(s);
    assert_int_equal(snd_active_voices(s), 0);
    // a seek plays its frame before the view is known: the ambients join where the
    // listener then goes, at once
    snd_listener(s, dry, ang);
    world_begin_frame(sc.w, 7.0);
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 0);
    snd_listener(s, in_water, ang);
    assert_int_equal(snd_active_voices(s), 1);
    world_begin_frame(sc.w, 7.1);   // and stay there
    snd_frame(s, sc.w);
    assert_int_equal(snd_active_voices(s), 1);
    snd_destroy(s);
    scene_close(&sc);
}

static void test_ambient_bsp_hostile(void **state)
{
    (void)state;
    buf_t *o = malloc(sizeof(*o));
    make_bsp(o);
    snd_ambient_t a;
    char err[200];
    assert_int_equal(snd_ambient_load(&a, o->b, o->n, err, sizeof(err)), 0);
    const float front[3] = { 5, 0, 0 }, back[3] = { -5, 0, 0 };
    assert_int_equal(snd_ambient_levels(&a, front)[0], 255);
    assert_int_equal(snd_ambient_levels(&a, back)[0], 0);
    snd_ambient_free(&a);
    assert_int_equal(snd_ambient_load(&a, o->b, 20, err, sizeof(err)), -1);
    assert_true(strncmp(err, "offset 0:", 9) == 0);
    uint32_t seed = 99;
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = o->n;
        uint8_t *copy = malloc(n);
        memcpy(copy, o->b, n);
        for (int k = 0; k < 1 + (int)(rng(&seed) % 4); k++)
            copy[rng(&seed) % n] = (uint8_t)rng(&seed);
        if (snd_ambient_load(&a, copy, n - (rng(&seed) % 3 == 0 ? rng(&seed) % 8 : 0), err, sizeof(err)) == 0) {
            for (int k = 0; k < 8; k++) {
                float p[3] = { (float)((int)(rng(&seed) % 200) - 100), 0, 0 };
                snd_ambient_levels(&a, p);
            }
            snd_ambient_free(&a);
        } else {
            assert_true(strncmp(err, "offset ", 7) == 0);
        }
        free(copy);
    }
    free(o);
}

static void test_ambient_real_map(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *b = tu_read(tu_data("quake/qfm/maps/e1m4.bsp"), &size);
    assert_non_null(b);
    snd_ambient_t a;
    char err[200];
    assert_int_equal(snd_ambient_load(&a, b, size, err, sizeof(err)), 0);
    assert_int_equal(a.num_leafs, 1723);
    const float start[3] = { -779, 890, 78 };   // where qfm_e1m4.dem begins: under the sky
    const uint8_t *lv = snd_ambient_levels(&a, start);
    assert_non_null(lv);
    assert_int_equal(lv[0], 0);
    assert_int_equal(lv[1], 255);
    snd_ambient_free(&a);
    free(b);
}

// A NULL sound system is silent and never crashes; a live device may be absent.
static void test_null_and_live(void **state)
{
    (void)state;
    world_t *w = world_create();
    int16_t pcm[64];
    vec3_t v = { 0, 0, 0 };
    snd_load_level(NULL, NULL, w);
    snd_frame(NULL, w);
    snd_listener(NULL, v, v);
    snd_stop_all(NULL);
    memset(pcm, 1, sizeof(pcm));
    assert_int_equal(snd_render(NULL, pcm, 32), 0);
    assert_true(is_silent(pcm, 32));
    snd_destroy(NULL);
    assert_null(snd_create_loopback(100, 1.0f));
    snd_t *live = snd_create(1.0f);   // NULL here without a sound card
    snd_frame(live, w);
    if (live)
        assert_int_equal(snd_render(live, pcm, 32), -1);
    snd_destroy(live);
    world_free(w);
}

// Real Quake sounds through the game folder.
static void test_loopback_real_sounds(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = vfs_create();
    assert_true(vfs_add_dir(fs, tu_data("quake/id1")) >= 0);
    world_t *w = world_create();
    w->game = GAME_QUAKE;
    world_set_sound(w, 1, "weapons/r_exp3.wav");
    world_set_sound(w, 2, "doors/doormv1.wav");
    world_set_sound(w, 3, "ambience/wind2.wav");
    world_static_sound_t ss = { { 300, 0, 0 }, 3, 1.0f, 3.0f };
    world_add_static_sound(w, &ss);
    snd_t *s = snd_create_loopback(RATE, 1.0f);
    snd_load_level(s, fs, w);
    vec3_t org = { 0, 0, 0 }, ang = { 0, 0, 0 };
    snd_listener(s, org, ang);
    world_begin_frame(w, 1.0);
    add_sound(w, 5, 1, 1, 0, -300, 0, 1.0f, 1.0f);
    add_sound(w, 6, 4, 2, 0, 300, 0, 1.0f, 1.0f);
    snd_frame(s, w);
    assert_int_equal(snd_active_voices(s), 3);
    static int16_t pcm[RATE * 2];
    snd_render(s, pcm, RATE / 2);
    assert_false(is_silent(pcm, RATE / 2));
    snd_render(s, pcm, RATE);
    snd_render(s, pcm, RATE);
    snd_render(s, pcm, RATE);   // 3.5 s: the explosion ended, the door loop and wind go on
    assert_int_equal(snd_active_voices(s), 2);
    snd_destroy(s);
    world_free(w);
    vfs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wav_real_files),
        cmocka_unit_test(test_wav_loop_points),
        cmocka_unit_test(test_wav_errors),
        cmocka_unit_test(test_wav_hostile_bytes),
        cmocka_unit_test(test_loopback_panning),
        cmocka_unit_test(test_listener_entity),
        cmocka_unit_test(test_loopback_attenuation_and_volume),
        cmocka_unit_test(test_loopback_deterministic),
        cmocka_unit_test(test_loopback_channels),
        cmocka_unit_test(test_loopback_stop_all_and_statics),
        cmocka_unit_test(test_loopback_entity_loops),
        cmocka_unit_test(test_sentences),
        cmocka_unit_test(test_client_sounds_quake),
        cmocka_unit_test(test_client_sounds_quake2),
        cmocka_unit_test(test_loops_level_clock),
        cmocka_unit_test(test_rule_loops),
        cmocka_unit_test(test_ambient_sounds),
        cmocka_unit_test(test_ambient_bsp_hostile),
        cmocka_unit_test(test_ambient_real_map),
        cmocka_unit_test(test_null_and_live),
        cmocka_unit_test(test_loopback_real_sounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
