// test_goldsrc.c -- the Half-Life / GoldSrc .dem decoder on the real demos, the broken files, hostile bytes
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/decoder.h"

extern const decoder_t hl_decoder;

typedef struct {
    const char *file;      // under the data folder
    long long frames;      // sum of the directory entries' frame counts
    double start, end;     // first and last frame time of the Playback entry
    const char *map;
    const char *game_dir;
    long long models, sounds;
    const char *players;   // the JSON array
    const char *events;    // the JSON object of events by script name
} expect_t;

// Read from the demos with this decoder and checked against the dump by hand:
// directory frame counts (0 + 289, 0 + 736), the Playback entry's first frame
// (demostart at 0) and its nextsection frame (== the entry's track time), and
// the resource list's model / sound entries (indices 1..N with no gaps).
static const expect_t expected[] = {
    { "goldsrc/demos/valve_c1a0.dem", 289, 0.0, 2.8860817, "c1a0", "valve", 165, 199,
      "[\"^2{^7ch^2e^7a^2t^7s^2}^0__$#]^@\"]", "{}" },
    { "goldsrc/demos/cstrike_crossfire.dem", 736, 0.0, 7.35269165, "crossfire", "cstrike", 243, 322,
      "[\"Player\"]", "{\"usp\":10}" },   // 10 event frames of index 12, events/usp.sc
};

static void test_info_real_demos(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
        const expect_t *e = &expected[i];
        char cmd[2048];
        int status = -1;
        snprintf(cmd, sizeof(cmd), "%s info --json '%s'", tu_bin(), tu_data(e->file));
        char *out = tu_run(cmd, &status);
        assert_non_null(out);
        if (status != 0)
            fail_msg("%s: exit %d: %s", e->file, status, out);
        assert_non_null(strstr(out, "\"errors\":[]"));
        long long v;
        double d;
        char s[256];
        assert_int_equal(tu_json_str(out, "format", s, sizeof(s)), 0);
        assert_string_equal(s, "goldsrc");
        assert_int_equal(tu_json_int(out, "frames", &v), 0);
        if (v != e->frames)
            fail_msg("%s: frames %lld, expected %lld", e->file, v, e->frames);
        assert_int_equal(tu_json_num(out, "start_time", &d), 0);
        assert_float_equal(d, e->start, 1e-5);
        assert_int_equal(tu_json_num(out, "end_time", &d), 0);
        assert_float_equal(d, e->end, 1e-5);
        assert_int_equal(tu_json_str(out, "map", s, sizeof(s)), 0);
        assert_string_equal(s, e->map);
        assert_int_equal(tu_json_str(out, "game_dir", s, sizeof(s)), 0);
        assert_string_equal(s, e->game_dir);
        assert_int_equal(tu_json_int(out, "models", &v), 0);
        assert_int_equal(v, e->models);
        assert_int_equal(tu_json_int(out, "sounds", &v), 0);
        assert_int_equal(v, e->sounds);
        assert_int_equal(tu_json_int(out, "protocol", &v), 0);
        assert_int_equal(v, 48);
        assert_int_equal(tu_json_int(out, "maxclients", &v), 0);
        assert_int_equal(v, 1);
        assert_int_equal(tu_json_int(out, "levels", &v), 0);
        assert_int_equal(v, 1);
        char want[512];
        snprintf(want, sizeof(want), "\"players\":%s", e->players);
        if (!strstr(out, want))
            fail_msg("%s: expected %s in %s", e->file, want, out);
        snprintf(want, sizeof(want), "\"events\":%s", e->events);
        if (!strstr(out, want))
            fail_msg("%s: expected %s in %s", e->file, want, out);
        // no --basedir: the game data is found next to the demo (goldsrc/valve, two folders up),
        // and the level's see-through tables are built from its map
        if (tu_json_num(out, "level_tables_ms", &d) != 0 || !(d > 0))
            fail_msg("%s: expected level_tables_ms from the map found next to the demo: %s", e->file, out);
        free(out);
        // a --basedir without the game: no map to build them from
        snprintf(cmd, sizeof(cmd), "%s info --json --basedir /nonexistent '%s' 2>/dev/null", tu_bin(), tu_data(e->file));
        out = tu_run(cmd, &status);
        assert_non_null(out);
        if (!strstr(out, "\"level_tables_ms\":null"))
            fail_msg("%s: expected level_tables_ms null without the map: %s", e->file, out);
        free(out);
        // with the game data: the time the first level's tables took (built once a level)
        snprintf(cmd, sizeof(cmd), "%s info --json --basedir '%s' '%s'", tu_bin(), tu_data("goldsrc"), tu_data(e->file));
        out = tu_run(cmd, &status);
        assert_non_null(out);
        assert_int_equal(tu_json_num(out, "level_tables_ms", &d), 0);
        if (!(d > 0 && d < 5000))
            fail_msg("%s: level_tables_ms %g, expected a time in ms: %s", e->file, d, out);
        free(out);
    }
}

// The six files of invalid/: five broken ones name their problem and offset;
// frame-types.dem holds one frame of each type 0..9 (two empty network-message
// frames, 0 and 1, then demostart .. demobuffer and nextsection) and plays, with a
// warning: its directory entry runs past the directory.
static void test_invalid_files(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct { const char *file, *error; } bad[] = {
        { "invalid-magic.dem", "offset 0: expected the magic \"HLDEMO\", found \"HLBEMO..\"" },
        { "invalid-demo-protocol.dem", "offset 8: expected demo protocol 5, found 4" },
        { "invalid-directory-entry-count.dem", "offset 1309: expected 1..1024 directory entries, found 65535" },
        { "invalid-frame-type.dem", "offset 544: expected a frame type 0..9, found 10" },
        { "invalid-netmsg-length.dem", "offset 1017: expected a message length of at most 65536 bytes, found 16777215" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char rel[256], cmd[2048];
        snprintf(rel, sizeof(rel), "goldsrc/demos/invalid/%s", bad[i].file);
        snprintf(cmd, sizeof(cmd), "%s info '%s' 2>&1", tu_bin(), tu_data(rel));
        int status = -1;
        char *out = tu_run(cmd, &status);
        assert_non_null(out);
        if (status != 1 || !strstr(out, bad[i].error))
            fail_msg("%s: exit %d, expected 1 and '%s' in: %s", bad[i].file, status, bad[i].error, out);
        free(out);
    }

    char cmd[2048];
    int status = -1;
    snprintf(cmd, sizeof(cmd), "%s info --json '%s'", tu_bin(), tu_data("goldsrc/demos/invalid/frame-types.dem"));
    char *out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "\"errors\":[]"));
    assert_non_null(strstr(out, "\"warnings\":[\"offset 1878: expected directory entry 0"));
    free(out);
    // its one directory entry says 25268 bytes from 544 though the directory starts at
    // 1786: a warning naming the length's offset, and the frames counted as they are read
    snprintf(cmd, sizeof(cmd), "%s info '%s' 2>&1", tu_bin(), tu_data("goldsrc/demos/invalid/frame-types.dem"));
    out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    if (!strstr(out, "frame-types.dem: offset 1878: expected directory entry 0 (LOADING) to end by the directory "
                     "at 1786, found 25268 bytes from 544") || !strstr(out, "frames     2,"))
        fail_msg("frame-types.dem: expected the directory warning and 2 frames in: %s", out);
    free(out);
    snprintf(cmd, sizeof(cmd), "%s dump '%s' | awk '$2 == \"frame\" {printf \"%%s \", $3}'", tu_bin(),
             tu_data("goldsrc/demos/invalid/frame-types.dem"));
    out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    assert_string_equal(out, "net0 net demostart consolecommand clientdata event weaponanim sound demobuffer "
                             "nextsection ");
    free(out);
}

// Message counts by type of `dump` on valve_c1a0.dem. The packet entity
// messages announce how many entities the resulting frame has; for every one of
// the 289 in this demo the decoded delta list (with the entities carried over
// from the frame it is a delta of) has exactly that many.
static void test_dump_counts(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char cmd[2048];
    snprintf(cmd, sizeof(cmd), "%s dump '%s' | awk '$2 != \"\" {print $2, $3}' | sort | uniq -c", tu_bin(),
             tu_data("goldsrc/demos/valve_c1a0.dem"));
    int status;
    char *out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    static const struct { const char *type; int count; } want[] = {
        { "msg svc_time", 290 }, { "msg svc_clientdata", 290 }, { "msg svc_deltapacketentities", 287 },
        { "msg svc_packetentities", 2 }, { "msg svc_lightstyle", 64 }, { "msg svc_newusermsg", 35 },
        { "msg WeaponList", 28 }, { "msg svc_spawnstaticsound", 21 }, { "msg svc_deltadescription", 7 },
        { "msg svc_updateuserinfo", 4 }, { "msg svc_spawnbaseline", 1 }, { "msg svc_resourcelist", 1 },
        { "msg svc_serverinfo", 1 }, { "msg svc_sound", 1 }, { "frame net", 289 }, { "frame net0", 5 },
        { "frame clientdata", 288 }, { "frame demobuffer", 288 }, { "frame consolecommand", 40 },
        { "frame sound", 4 }, { "frame nextsection", 2 }, { "frame demostart", 1 }, { "ent baseline", 96 },
        { "ent player", 205 }, { "ent entity", 128 }, { "resource model", 165 }, { "resource sound", 199 },
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        char line[128];
        snprintf(line, sizeof(line), " %d %s\n", want[i].count, want[i].type);
        if (!strstr(out, line))
            fail_msg("dump: expected '%d %s' in:\n%s", want[i].count, want[i].type, out);
    }
    free(out);

    snprintf(cmd, sizeof(cmd), "%s dump --json '%s' | grep -c '\"type\":\"svc_deltapacketentities\"'", tu_bin(),
             tu_data("goldsrc/demos/valve_c1a0.dem"));
    out = tu_run(cmd, &status);
    assert_int_equal(atoi(out), 287);
    free(out);
}

static void test_probe(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/valve_c1a0.dem"), &size);
    assert_non_null(data);
    assert_int_equal(hl_decoder.probe(data, size), 100);
    assert_ptr_equal(decoder_probe(data, size), &hl_decoder);
    free(data);
    data = tu_read(tu_data("quake/demos/qfm_e1m3.dem"), &size);
    if (data) {
        assert_int_equal(hl_decoder.probe(data, size), 0);
        free(data);
    }
    static const uint8_t junk[] = "HLDEMO";   // shorter than the 8-byte magic field: not claimed
    assert_int_equal(hl_decoder.probe(junk, 6), 0);
}

// Decode a buffer to its end with one reused state; returns the decoder's result.
static int decode_all(void *st, world_t *w, const uint8_t *data, size_t size, dec_error_t *err)
{
    dec_opts_t opts = { 0 };
    int r = hl_decoder.open(st, data, size, w, &opts, err);
    int guard = 0;
    while (r >= 0 && (r = hl_decoder.read_frame(st, w, err)) > 0)
        if (++guard > 1000000)
            fail_msg("decoder does not end");
    hl_decoder.close(st);
    return r;
}

static void test_truncated_and_flipped(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const files[] = { "goldsrc/demos/valve_c1a0.dem", "goldsrc/demos/cstrike_crossfire.dem" };
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    assert_non_null(w);
    assert_non_null(st);
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        size_t size;
        uint8_t *data = tu_read(tu_data(files[f]), &size);
        assert_non_null(data);
        dec_error_t err;
        // truncations (a copy each, so ASan sees the real end): 100 cuts over the file plus the last bytes
        size_t step = size / 100;
        for (size_t cut = 1; cut < size; cut += (cut > size - 40 ? 1 : step)) {
            uint8_t *copy = malloc(cut);
            memcpy(copy, data, cut);
            memset(&err, 0, sizeof(err));
            int r = decode_all(st, w, copy, cut, &err);
            // the directory sits at the end: every truncation loses it, so none is a valid demo
            assert_int_equal(r, -1);
            assert_true(err.offset >= 0 && (size_t)err.offset <= cut);
            assert_true(strlen(err.what) > 10);
            free(copy);
        }
        // byte flips at deterministic pseudo-random positions, in the frames and the directory
        uint32_t seed = 4242;
        for (int i = 0; i < 120; i++) {
            uint8_t *copy = malloc(size);
            memcpy(copy, data, size);
            for (int k = 0; k < 1 + (i % 6); k++) {
                seed = seed * 1103515245u + 12345u;
                copy[(seed >> 8) % size] ^= (uint8_t)(1u << ((seed >> 4) & 7));
            }
            int r = decode_all(st, w, copy, size, &err);
            assert_true(r == 0 || r == -1);
            if (r < 0)
                assert_true(err.offset >= 0 && (size_t)err.offset <= size);
            free(copy);
        }
        free(data);
    }
    free(st);
    world_free(w);
}

// A snapshot (state copy + world clone) mid-demo decodes on to the same world.
static void test_state_is_copyable(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(data);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    void *snap_st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = { 0 };
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    for (int i = 0; i < 300; i++)
        assert_int_equal(hl_decoder.read_frame(st, w, &err), 1);
    memcpy(snap_st, st, hl_decoder.state_size);
    world_t *snap = world_clone(w);
    for (int i = 0; i < 200; i++)
        assert_int_equal(hl_decoder.read_frame(st, w, &err), 1);
    double t1 = w->time;
    float x1 = w->view.origin[0];
    float e1 = w->entities[1].cur.origin[1];
    assert_int_equal(world_restore(w, snap), 0);
    memcpy(st, snap_st, hl_decoder.state_size);
    for (int i = 0; i < 200; i++)
        assert_int_equal(hl_decoder.read_frame(st, w, &err), 1);
    assert_float_equal(w->time, t1, 0);
    assert_float_equal(w->view.origin[0], x1, 0);
    assert_float_equal(w->entities[1].cur.origin[1], e1, 0);
    world_free(snap);
    world_free(w);
    free(st);
    free(snap_st);
    free(data);
}

// World state after the whole of valve_c1a0.dem: the level, its precache, the view and the player.
static void test_world_state(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/valve_c1a0.dem"), &size);
    assert_non_null(data);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = { 0 };
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    int frames = 0, visible_max = 0, r;
    while ((r = hl_decoder.read_frame(st, w, &err)) > 0) {
        frames++;
        int vis = 0;
        for (int i = 1; i < w->num_entities; i++)
            vis += world_entity_visible(w, i);
        if (vis > visible_max)
            visible_max = vis;
    }
    assert_int_equal(r, 0);
    assert_int_equal(frames, 294);   // 5 network frames in LOADING, 289 in Playback
    assert_int_equal(w->game, GAME_GOLDSRC);
    assert_string_equal(w->map, "maps/c1a0.bsp");
    assert_string_equal(w->game_dir, "valve");
    assert_string_equal(w->models[1], "maps/c1a0.bsp");
    assert_string_equal(w->models[165], "models/ceilinggibs.mdl");
    assert_string_equal(w->sounds[199], "debris/bustceiling.wav");
    assert_int_equal(w->num_static_sounds, 21);
    assert_true(w->view.origin_valid);
    assert_true(visible_max > 10);
    assert_string_equal(w->players[0].skin, "barney");
    assert_int_equal(w->entities[1].cur.modelindex > 0, 1);
    free(st);
    world_free(w);
    free(data);
}


// ---- a synthetic demo: the messages the two real demos never send ----------------

typedef struct {
    uint8_t b[65536];
    size_t n;
    size_t bitpos;    // bit writer position (LSB first), used between bits_start/bits_end
} buf_t;

static void put8(buf_t *o, int v) { o->b[o->n++] = (uint8_t)v; }
static void put16(buf_t *o, int v) { put8(o, v & 255); put8(o, (v >> 8) & 255); }
static void put32(buf_t *o, uint32_t v) { put16(o, (int)(v & 0xffff)); put16(o, (int)(v >> 16)); }
static void putf(buf_t *o, float f) { uint32_t u; memcpy(&u, &f, 4); put32(o, u); }
static void putstr(buf_t *o, const char *str) { do put8(o, *str); while (*str++); }
static void putzero(buf_t *o, size_t k) { memset(o->b + o->n, 0, k); o->n += k; }

static void bits_start(buf_t *o) { o->bitpos = o->n * 8; }
static void putbits(buf_t *o, uint32_t v, int nbits)
{
    for (int i = 0; i < nbits; i++, o->bitpos++) {
        size_t byte = o->bitpos >> 3;
        if ((o->bitpos & 7) == 0)
            o->b[byte] = 0;
        if (v >> i & 1)
            o->b[byte] |= (uint8_t)(1u << (o->bitpos & 7));
    }
}
static void bits_end(buf_t *o) { o->n = (o->bitpos + 7) / 8; }

// One delta_description_t field: mask of the 7 meta fields we send, then the values.
static void put_field(buf_t *o, uint32_t type, const char *name, int bits)
{
    putbits(o, 1, 3);                 // one mask byte
    putbits(o, 1 | 2 | 16 | 32 | 64, 8); // type, name, bits, pre, post
    putbits(o, type, 32);
    for (const char *p = name; ; p++) {
        putbits(o, (uint8_t)*p, 8);
        if (!*p)
            break;
    }
    putbits(o, (uint32_t)bits, 8);
    putbits(o, 4000, 32);             // premultiply 1.0 (sent x 4000)
    putbits(o, 4000, 32);             // postmultiply 1.0
}

static size_t build_synthetic(uint8_t *out, size_t cap)
{
    static buf_t msg, file;
    memset(&msg, 0, sizeof(msg));
    memset(&file, 0, sizeof(file));
    // messages of the one server frame
    put8(&msg, 11);                   // svc_serverinfo
    put32(&msg, 48); put32(&msg, 1); put32(&msg, 0); putzero(&msg, 16);
    put8(&msg, 4); put8(&msg, 0); put8(&msg, 1);
    putstr(&msg, "valve"); putstr(&msg, "Synthetic"); putstr(&msg, "maps/synth.bsp"); putstr(&msg, ""); put8(&msg, 0);
    put8(&msg, 14);                   // svc_deltadescription event_t: entindex (10 bits), origin[0] (signed float 16)
    putstr(&msg, "event_t"); put16(&msg, 2);
    bits_start(&msg);
    put_field(&msg, 8, "entindex", 10);
    put_field(&msg, 4 | 0x80000000u, "origin[0]", 16);
    bits_end(&msg);
    put8(&msg, 12); put8(&msg, 0); putstr(&msg, "mmnmmommommnonmmonqnmmo");      // svc_lightstyle
    put8(&msg, 13); put8(&msg, 1); put32(&msg, 7);                                  // svc_updateuserinfo
    putstr(&msg, "\\name\\Alyx\\model\\gina\\topcolor\\5"); putzero(&msg, 16);
    put8(&msg, 8); putstr(&msg, "hello\n");                                         // svc_print
    put8(&msg, 26); putstr(&msg, "centered");                                       // svc_centerprint
    put8(&msg, 39); put8(&msg, 64); put8(&msg, 255);                                // svc_newusermsg SayText, variable
    { char nm[16] = "SayText"; memcpy(msg.b + msg.n, nm, 16); msg.n += 16; }
    put8(&msg, 39); put8(&msg, 65); put8(&msg, 3);                                  // svc_newusermsg Fixed3, 3 bytes
    { char nm[16] = "Fixed3"; memcpy(msg.b + msg.n, nm, 16); msg.n += 16; }
    put8(&msg, 64); put8(&msg, 4); put8(&msg, 2); putstr(&msg, "hi");              // SayText: len, client, text
    put8(&msg, 65); put8(&msg, 1); put8(&msg, 2); put8(&msg, 3);                    // Fixed3
    put8(&msg, 6);                    // svc_sound: volume + pitch, entity 5, channel 2, sound 3, x = -12.5
    bits_start(&msg);
    putbits(&msg, 1 | 8, 9); putbits(&msg, 128, 8); putbits(&msg, 2, 3); putbits(&msg, 5, 11); putbits(&msg, 3, 8);
    putbits(&msg, 1, 1); putbits(&msg, 0, 1); putbits(&msg, 0, 1);
    putbits(&msg, 1, 1); putbits(&msg, 1, 1); putbits(&msg, 1, 1); putbits(&msg, 12, 12); putbits(&msg, 4, 3);
    putbits(&msg, 150, 8);
    bits_end(&msg);
    put8(&msg, 17);                   // svc_pings: player 0, ping 42, loss 3
    bits_start(&msg);
    putbits(&msg, 1, 1); putbits(&msg, 0, 5); putbits(&msg, 42, 12); putbits(&msg, 3, 7); putbits(&msg, 0, 1);
    bits_end(&msg);
    put8(&msg, 3);                    // svc_event: one event, index 7, with delta entindex = 9, and a fire time
    bits_start(&msg);
    putbits(&msg, 1, 5); putbits(&msg, 7, 10); putbits(&msg, 1, 1); putbits(&msg, 2, 11); putbits(&msg, 1, 1);
    putbits(&msg, 1, 3); putbits(&msg, 1, 8); putbits(&msg, 9, 10);
    putbits(&msg, 1, 1); putbits(&msg, 50, 16);
    bits_end(&msg);
    put8(&msg, 21);                   // svc_event_reliable: index 8, delta origin[0] = -3, no delay
    bits_start(&msg);
    putbits(&msg, 8, 10); putbits(&msg, 1, 3); putbits(&msg, 2, 8); putbits(&msg, 1, 1); putbits(&msg, 3, 15);
    putbits(&msg, 0, 1);
    bits_end(&msg);
    put8(&msg, 20);                   // svc_spawnstatic with a render mode
    put16(&msg, 2); put8(&msg, 0); put8(&msg, 0); put16(&msg, 0); put8(&msg, 0);
    for (int i = 0; i < 3; i++) { put16(&msg, 80); put8(&msg, 64); }
    put8(&msg, 5); put8(&msg, 200); put8(&msg, 1); put8(&msg, 2); put8(&msg, 3); put8(&msg, 0);
    // one temp entity of every type: zero payloads of the SDK sizes, with their types' extras
    static const int te_types[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23,
                                    24, 25, 27, 28, 29, 30, 31, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108,
                                    109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124,
                                    125, 126, 127 };
    static const int te_sizes[] = { 24, 20, 6, 11, 6, 10, 12, 17, 16, 6, 6, 6, 8, 10, 9, 19, 10, 16, 24, 24, 24, 10,
                                    11, 16, 19, 12, 16, 0, 17, 17, 2, 10, 14, 12, 14, 9, 5, 17, 13, 24, 9, 17, 7,
                                    10, 19, 19, 12, 7, 7, 9, 16, 18, 5, 10, 13, 7, 1, 18, 15 };
    for (size_t i = 0; i < sizeof(te_types) / sizeof(te_types[0]); i++) {
        put8(&msg, 23);
        put8(&msg, te_types[i]);
        if (te_types[i] == 29) {      // TE_TEXTMESSAGE, effect 2 (has the fx time)
            put8(&msg, 1); put16(&msg, 0); put16(&msg, 0); put8(&msg, 2); putzero(&msg, 8);
            put16(&msg, 0); put16(&msg, 0); put16(&msg, 0); put16(&msg, 0); putstr(&msg, "titles");
        } else if (te_types[i] == 3) { // TE_EXPLOSION at (8, 16, -4), sprite 2
            put16(&msg, 64); put16(&msg, 128); put16(&msg, -32); put16(&msg, 2); putzero(&msg, 3);
        } else {
            putzero(&msg, (size_t)te_sizes[i]);
        }
    }
    put8(&msg, 14);                   // svc_deltadescription entity_state_t: renderfx, renderamt (bytes, 8 bits)
    putstr(&msg, "entity_state_t"); put16(&msg, 2);
    bits_start(&msg);
    put_field(&msg, 1, "renderfx", 8);
    put_field(&msg, 1, "renderamt", 8);
    bits_end(&msg);
    put8(&msg, 40);                   // svc_packetentities: entity 7, a dead player's body (fx 17) of player 1,
    bits_start(&msg);                 // entity 8, normal with amount 100
    putbits(&msg, 2, 16);
    putbits(&msg, 0, 1); putbits(&msg, 1, 1); putbits(&msg, 7, 11); putbits(&msg, 0, 1); putbits(&msg, 0, 1);
    putbits(&msg, 1, 3); putbits(&msg, 3, 8); putbits(&msg, 17, 8); putbits(&msg, 1, 8);
    putbits(&msg, 1, 1); putbits(&msg, 0, 1); putbits(&msg, 0, 1);
    putbits(&msg, 1, 3); putbits(&msg, 2, 8); putbits(&msg, 100, 8);
    putbits(&msg, 0, 16);
    bits_end(&msg);
    put8(&msg, 1);                    // svc_nop

    // the file: header, one network frame, nextsection, directory
    memcpy(file.b, "HLDEMO", 7);
    file.n = 8;
    put32(&file, 5); put32(&file, 48);
    memset(file.b + file.n, 0, 520);
    memcpy(file.b + file.n, "synth", 5);
    memcpy(file.b + file.n + 260, "valve", 5);
    file.n += 520;
    put32(&file, 0);
    size_t dir_at = file.n;
    put32(&file, 0);                  // directory offset, patched below
    put8(&file, 1); putf(&file, 0.5f); put32(&file, 1);
    putf(&file, 0.5f);
    putzero(&file, 464 - 4 - 28);     // ref params, user cmd, move vars, view, viewmodel
    put32(&file, 10); putzero(&file, 24);  // sequence info: incoming sequence 10
    put32(&file, (uint32_t)msg.n);
    memcpy(file.b + file.n, msg.b, msg.n);
    file.n += msg.n;
    put8(&file, 5); putf(&file, 0.5f); put32(&file, 1);
    size_t dir = file.n;
    put32(&file, 1);
    put32(&file, 1);
    memset(file.b + file.n, 0, 64); memcpy(file.b + file.n, "Playback", 8); file.n += 64;
    put32(&file, 0); put32(&file, (uint32_t)-1); putf(&file, 0.5f); put32(&file, 1); put32(&file, 544);
    put32(&file, (uint32_t)(dir - 544));
    file.b[dir_at] = (uint8_t)dir; file.b[dir_at + 1] = (uint8_t)(dir >> 8);
    assert_true(file.n <= cap);
    memcpy(out, file.b, file.n);
    return file.n;
}

// the engine's own sounds of the temp entities: TE_EXPLOSION, the ricochets of TE_GUNSHOT, TE_GUNSHOTDECAL, TE_ARMOR_RICOCHET
#define NAMED_SOUNDS 4
static void test_synthetic_messages(void **state)
{
    (void)state;
    static uint8_t data[70000];
    size_t size = build_synthetic(data, sizeof(data));
    char path[] = "/tmp/dp_hl_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(tu_write(path, data, size), 0);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err = { 0, "" };
    dec_opts_t opts = { 0 };
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    int r = hl_decoder.read_frame(st, w, &err);
    if (r != 1)
        fail_msg("offset %lld: %s", err.offset, err.what);
    assert_string_equal(w->map, "maps/synth.bsp");
    assert_int_equal(w->maxclients, 4);
    assert_string_equal(w->lightstyles[0], "mmnmmommommnonmmonqnmmo");
    assert_string_equal(w->players[1].name, "Alyx");
    assert_string_equal(w->players[1].skin, "gina");
    assert_int_equal(w->players[1].top_color, 5);
    assert_int_equal(w->players[0].ping, 42);
    assert_int_equal(w->num_statics, 1);
    assert_int_equal(w->statics[0].s.rendermode, RM_ADDITIVE);
    assert_int_equal(w->statics[0].s.renderamt, 200);
    assert_float_equal(w->statics[0].s.origin[0], 10.0, 0);
    // a normal entity is opaque (amount 255), but a dead player's body keeps its amount: the player's number
    assert_int_equal(w->entities[7].cur.renderfx, 17);
    assert_int_equal(w->entities[7].cur.renderamt, 1);
    assert_int_equal(w->entities[8].cur.renderfx, 0);
    assert_int_equal(w->entities[8].cur.renderamt, 255);
    int tents = 0, prints = 0, centers = 0, chats = 0, sounds = 0, dlights = 0, particles = 0, explosions = 0, named_sounds = 0;
    for (int i = 0; i < w->num_events; i++) {
        const world_event_t *ev = &w->events[i];
        switch (ev->type) {
        case EV_TEMPENT:
            tents++;
            if (ev->u.fx.raw_type == 3) {
                explosions++;
                assert_int_equal(ev->u.fx.kind, FX_EXPLOSION);
                assert_float_equal(ev->u.fx.origin[0], 8.0, 0);
                assert_float_equal(ev->u.fx.origin[2], -4.0, 0);
                assert_int_equal(ev->u.fx.model, 2);
            }
            break;
        case EV_DLIGHT: dlights++; break;
        case EV_PARTICLES: particles++; break;
        case EV_PRINT: prints++; assert_string_equal(world_event_text(w, ev), "hello\n"); break;
        case EV_CENTERPRINT: centers++; break;
        case EV_CHAT:
            chats++;
            assert_string_equal(world_event_text(w, ev), "hi");
            assert_int_equal(ev->u.text.level, 2);
            break;
        case EV_SOUND:
            if (ev->u.sound.name) {   // the engine's own: explosion, ricochets (goldsrc_events.c)
                named_sounds++;
                break;
            }
            sounds++;
            assert_int_equal(ev->u.sound.entity, 5);
            assert_int_equal(ev->u.sound.channel, 2);
            assert_int_equal(ev->u.sound.sound, 3);
            assert_float_equal(ev->u.sound.volume, 128 / 255.0, 1e-6);
            assert_float_equal(ev->u.sound.pitch, 1.5, 1e-6);
            assert_float_equal(ev->u.sound.origin[0], -12.5, 0);
            break;
        default: break;
        }
    }
    assert_int_equal(tents, 58 - 3);   // 59 types, minus two dlights and the particle burst, minus the text
    assert_int_equal(dlights, 2);
    assert_int_equal(particles, 1);
    assert_int_equal(explosions, 1);
    assert_int_equal(prints, 1);
    assert_int_equal(centers, 2);      // svc_centerprint and TE_TEXTMESSAGE
    assert_int_equal(chats, 1);
    assert_int_equal(sounds, 1);
    assert_int_equal(named_sounds, NAMED_SOUNDS);
    assert_int_equal(hl_decoder.read_frame(st, w, &err), 0);
    free(st);
    world_free(w);

    // the dump of it names every temp entity
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "%s dump '%s' | grep -c 'svc_temp_entity te='", tu_bin(), path);
    int status;
    char *out = tu_run(cmd, &status);
    assert_int_equal(atoi(out), 59);
    free(out);
    snprintf(cmd, sizeof(cmd), "%s dump --json '%s' | grep -c '\"type\":\"svc_event\"'", tu_bin(), path);
    out = tu_run(cmd, &status);
    assert_int_equal(atoi(out), 1);
    free(out);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_real_demos),
        cmocka_unit_test(test_invalid_files),
        cmocka_unit_test(test_dump_counts),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_truncated_and_flipped),
        cmocka_unit_test(test_state_is_copyable),
        cmocka_unit_test(test_world_state),
        cmocka_unit_test(test_synthetic_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
