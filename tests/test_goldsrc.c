// test_goldsrc.c -- the Half-Life / GoldSrc .dem decoder on the real demos, the broken files, hostile bytes
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
} expect_t;

// Read from the demos with this decoder and checked against the dump by hand:
// directory frame counts (0 + 289, 0 + 736), the Playback entry's first frame
// (demostart at 0) and its nextsection frame (== the entry's track time), and
// the resource list's model / sound entries (indices 1..N with no gaps).
static const expect_t expected[] = {
    { "goldsrc/demos/valve_c1a0.dem", 289, 0.0, 2.8860817, "c1a0", "valve", 165, 199,
      "[\"^2{^7ch^2e^7a^2t^7s^2}^0__$#]^@\"]" },
    { "goldsrc/demos/cstrike_crossfire.dem", 736, 0.0, 7.35269165, "crossfire", "cstrike", 243, 322,
      "[\"Player\"]" },
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
        free(out);
    }
}

// The six files of invalid/: five broken ones name their problem and offset;
// frame-types.dem holds one frame of each type 0..9 (two empty network-message
// frames, 0 and 1, then demostart .. demobuffer and nextsection) and is valid.
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
