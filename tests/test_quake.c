// test_quake.c -- the Quake .dem decoder on every real demo, `info`/`dump` output, hostile bytes
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/decoder.h"

extern const decoder_t q1_decoder;

typedef struct {
    const char *file;      // under the data folder
    const char *extra;     // extra options
    long long frames;
    double start, end;
    const char *map;
    long long models, sounds;
    int protocol;
} expect_t;

// Values read from the demos by this decoder and checked by hand against the
// dump (first/last svc_time, serverinfo lists).
static const expect_t expected[] = {
    { "quake/demos/dosquake101_e2m3.dem", "", 1138, 1.4, 69.3301163, "maps/e2m3.bsp", 133, 139, 15 },
    { "quake/demos/dosquake101_e4m2.dem", "", 1305, 1.4, 73.2823181, "maps/e4m2.bsp", 124, 130, 15 },
    { "quake/demos/lq_demo1.dem", "", 2918, 4250.72949, 4280.73145, "maps/lq_e1m4.bsp", 237, 136, 15 },
    { "quake/demos/lq_demo1_lite.dem", "", 4528, 91.2315903, 151.511276, "maps/lq_e0m1.bsp", 66, 100, 15 },
    { "quake/demos/lq_demo2.dem", "", 2279, 596.49762, 626.877869, "maps/lq_e2m5.bsp", 255, 166, 15 },
    { "quake/demos/lq_demo2_lite.dem", "", 4571, 185.022858, 245.469986, "maps/lq_e0m2.bsp", 167, 140, 15 },
    { "quake/demos/lq_demo3.dem", "", 1233, 416.466125, 446.693787, "maps/lqdm3.bsp", 49, 74, 999 },
    { "quake/demos/lq_demo3_lite.dem", "", 3238, 228.242798, 288.549347, "maps/lq_e0m3.bsp", 70, 125, 15 },
    { "quake/demos/qfm_e1m3.dem", "", 4579, 1.4, 65.3522644, "maps/e1m3.bsp", 109, 118, 15 },
    { "quake/demos/qfm_e1m4.dem", "", 8386, 1.4, 117.818459, "maps/e1m4.bsp", 116, 109, 15 },
    { "quake/demos/qfm_e1m6.dem", "", 5649, 1.4, 78.3921814, "maps/e1m6.bsp", 130, 126, 15 },
    { "quake/demos/revamped_title_missing_map.dem", "", 3350, 1.331846, 45.0474243, "maps/title.bsp", 58, 98, 15 },
    { "quake/demos/vektar_bg.dem", "", 4785, 1.4, 79.7424088, "maps/bg.bsp", 29, 67, 15 },
    { "hook.dem", "--game hook", 1879, 1.4, 76.15271, "maps/e1m2.bsp", 108, 94, 15 },
};

static char *info_json(const expect_t *e, int *status)
{
    char cmd[2048];
    if (strchr(e->file, '/'))
        snprintf(cmd, sizeof(cmd), "%s info --json %s '%s'", tu_bin(), e->extra, tu_data(e->file));
    else
        snprintf(cmd, sizeof(cmd), "%s info --json --basedir '%s' %s '%s'", tu_bin(), tu_data("quake"), e->extra,
                 e->file);
    return tu_run(cmd, status);
}

static void test_info_every_demo(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
        const expect_t *e = &expected[i];
        int status = -1;
        char *out = info_json(e, &status);
        assert_non_null(out);
        if (status != 0)
            fail_msg("%s: exit %d: %s", e->file, status, out);
        long long v;
        double d;
        char s[256];
        assert_int_equal(tu_json_int(out, "frames", &v), 0);
        if (v != e->frames)
            fail_msg("%s: frames %lld, expected %lld", e->file, v, e->frames);
        assert_int_equal(tu_json_num(out, "start_time", &d), 0);
        assert_float_equal(d, e->start, 1e-4);
        assert_int_equal(tu_json_num(out, "end_time", &d), 0);
        assert_float_equal(d, e->end, 1e-4);
        assert_int_equal(tu_json_str(out, "map", s, sizeof(s)), 0);
        assert_string_equal(s, e->map);
        assert_int_equal(tu_json_int(out, "models", &v), 0);
        assert_int_equal(v, e->models);
        assert_int_equal(tu_json_int(out, "sounds", &v), 0);
        assert_int_equal(v, e->sounds);
        assert_int_equal(tu_json_int(out, "protocol", &v), 0);
        assert_int_equal(v, e->protocol);
        assert_int_equal(tu_json_str(out, "format", s, sizeof(s)), 0);
        assert_string_equal(s, "quake");
        assert_non_null(strstr(out, "\"errors\":[]"));
        free(out);
    }
}

static void test_info_players_and_levels(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    int status;
    char cmd[2048];
    snprintf(cmd, sizeof(cmd), "%s info --json --game vektar '%s'", tu_bin(), tu_data("quake/demos/vektar_bg.dem"));
    char *out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "\"players\":[\"eukos\"]"));
    free(out);
    snprintf(cmd, sizeof(cmd), "%s info --json --basedir '%s' --game hook hook.dem", tu_bin(), tu_data("quake"));
    out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    long long v;
    assert_int_equal(tu_json_int(out, "maxclients", &v), 0);
    assert_int_equal(v, 8);
    free(out);
}

// Message counts by type of `dump` on one demo, counted independently by hand
// (awk over the dump output) and cross-checked with `info`'s frames.
static void test_dump_counts(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char cmd[2048];
    snprintf(cmd, sizeof(cmd), "%s dump '%s' | awk '{print $3}' | sort | uniq -c", tu_bin(),
             tu_data("quake/demos/qfm_e1m3.dem"));
    int status;
    char *out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    static const struct { const char *type; int count; } want[] = {
        { "updateentity", 89771 }, { "block", 4598 }, { "time", 4579 }, { "clientdata", 4579 },
        { "sound", 420 }, { "particle", 121 }, { "temp_entity", 102 }, { "spawnbaseline", 94 },
        { "lightstyle", 65 }, { "print", 27 }, { "spawnstaticsound", 24 }, { "spawnstatic", 23 },
        { "killedmonster", 11 }, { "stufftext", 8 }, { "updatestat", 4 }, { "signonnum", 3 },
        { "serverinfo", 1 }, { "disconnect", 1 }, { "centerprint", 1 }, { "setview", 1 },
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        char line[128];
        snprintf(line, sizeof(line), " %d %s\n", want[i].count, want[i].type);
        if (!strstr(out, line))
            fail_msg("dump: expected '%d %s' in:\n%s", want[i].count, want[i].type, out);
    }
    free(out);

    // the JSON form carries the same messages, one object per line
    snprintf(cmd, sizeof(cmd), "%s dump --json '%s' | grep -c '\"type\":\"updateentity\"'", tu_bin(),
             tu_data("quake/demos/qfm_e1m3.dem"));
    out = tu_run(cmd, &status);
    assert_int_equal(atoi(out), 89771);
    free(out);
}

// Decode a buffer to its end; returns the decoder's result and the error.
static int decode_all(const uint8_t *data, size_t size, dec_error_t *err, long long *frames)
{
    world_t *w = world_create();
    void *st = calloc(1, q1_decoder.state_size);
    dec_opts_t opts = { 0 };
    int r = q1_decoder.open(st, data, size, w, &opts, err);
    long long n = 0;
    while (r >= 0 && (r = q1_decoder.read_frame(st, w, err)) > 0)
        n++;
    if (frames)
        *frames = n;
    q1_decoder.close(st);
    free(st);
    world_free(w);
    return r;
}

static void test_truncated_and_flipped(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const files[] = {
        "quake/demos/dosquake101_e4m2.dem", "quake/demos/lq_demo3.dem", "quake/demos/vektar_bg.dem",
    };
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        size_t size;
        uint8_t *data = tu_read(tu_data(files[f]), &size);
        assert_non_null(data);
        dec_error_t err;
        // truncations: every 97th offset plus the last few bytes; copy so ASan sees the real end
        for (size_t cut = 1; cut < size; cut += (cut > size - 40 ? 1 : 97)) {
            uint8_t *copy = malloc(cut);
            memcpy(copy, data, cut);
            memset(&err, 0, sizeof(err));
            int r = decode_all(copy, cut, &err, NULL);
            if (r == 0) {
                // a cut exactly between blocks is a shorter, valid demo
            } else {
                assert_int_equal(r, -1);
                assert_true(err.offset >= 0 && (size_t)err.offset <= cut);
                assert_true(strlen(err.what) > 10);
            }
            free(copy);
        }
        // byte flips: deterministic pseudo-random positions
        uint32_t seed = 12345;
        for (int i = 0; i < 300; i++) {
            uint8_t *copy = malloc(size);
            memcpy(copy, data, size);
            for (int k = 0; k < 4; k++) {
                seed = seed * 1103515245u + 12345u;
                copy[(seed >> 8) % size] ^= (uint8_t)(1u << ((seed >> 4) & 7));
            }
            int r = decode_all(copy, size, &err, NULL);
            assert_true(r == 0 || r == -1);
            if (r < 0)
                assert_true((size_t)err.offset <= size);
            free(copy);
        }
        free(data);
    }
}

static void test_cli_errors(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dir[] = "/tmp/dp_q1_XXXXXX";
    assert_non_null(mkdtemp(dir));
    size_t size;
    uint8_t *data = tu_read(tu_data("quake/demos/qfm_e1m3.dem"), &size);
    char path[256];
    snprintf(path, sizeof(path), "%s/cut.dem", dir);
    assert_int_equal(tu_write(path, data, 5000), 0);
    char cmd[1024];
    int status;
    snprintf(cmd, sizeof(cmd), "%s info '%s' 2>&1", tu_bin(), path);
    char *out = tu_run(cmd, &status);
    assert_int_equal(status, 1);
    // the third block (at 3191) claims 2068 bytes, but the file ends at 5000
    char want[512];
    snprintf(want, sizeof(want), "%s: offset 3191: expected a block of 2068 bytes, but the file ends first", path);
    if (!strstr(out, want))
        fail_msg("expected '%s' in: %s", want, out);
    free(out);

    snprintf(cmd, sizeof(cmd), "%s info --json '%s'", tu_bin(), path);
    out = tu_run(cmd, &status);
    assert_int_equal(status, 1);
    assert_non_null(strstr(out, "\"map\":\"maps/e1m3.bsp\""));   // decoded up to there
    assert_null(strstr(out, "\"errors\":[]"));
    free(out);

    // not a demo at all
    snprintf(path, sizeof(path), "%s/text.dem", dir);
    assert_int_equal(tu_write(path, "hello world, not a demo\n", 24), 0);
    snprintf(cmd, sizeof(cmd), "%s info '%s' 2>&1", tu_bin(), path);
    out = tu_run(cmd, &status);
    assert_int_equal(status, 1);
    assert_non_null(strstr(out, "offset 0: expected a Quake, Quake II, Half-Life or Forsaken demo"));
    free(out);

    // missing file and bad options: one line, status 2
    snprintf(cmd, sizeof(cmd), "%s info '%s/nope.dem' 2>&1", tu_bin(), dir);
    out = tu_run(cmd, &status);
    assert_int_equal(status, 2);
    assert_non_null(strstr(out, "no such file"));
    free(out);
    snprintf(cmd, sizeof(cmd), "%s info --bogus x.dem 2>&1", tu_bin());
    out = tu_run(cmd, &status);
    assert_int_equal(status, 2);
    assert_non_null(strstr(out, "unknown option '--bogus'"));
    free(out);
    free(data);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    free(tu_run(cmd, &status));
}

// The whole-world snapshot restores the decoder mid-demo: decoding on from a
// copy gives the same frames as decoding straight through.
static void test_state_is_copyable(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *data = tu_read(tu_data("quake/demos/qfm_e1m3.dem"), &size);
    world_t *w = world_create();
    void *st = calloc(1, q1_decoder.state_size);
    void *snap_st = calloc(1, q1_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = { 0 };
    assert_int_equal(q1_decoder.open(st, data, size, w, &opts, &err), 0);
    for (int i = 0; i < 2000; i++)
        assert_int_equal(q1_decoder.read_frame(st, w, &err), 1);
    memcpy(snap_st, st, q1_decoder.state_size);
    world_t *snap = world_clone(w);
    for (int i = 0; i < 500; i++)
        assert_int_equal(q1_decoder.read_frame(st, w, &err), 1);
    double t1 = w->time;
    float x1 = w->entities[1].cur.origin[0];
    int health1 = w->view.stats[STAT_HEALTH];
    assert_int_equal(world_restore(w, snap), 0);
    memcpy(st, snap_st, q1_decoder.state_size);
    for (int i = 0; i < 500; i++)
        assert_int_equal(q1_decoder.read_frame(st, w, &err), 1);
    assert_float_equal(w->time, t1, 0);
    assert_float_equal(w->entities[1].cur.origin[0], x1, 0);
    assert_int_equal(w->view.stats[STAT_HEALTH], health1);
    world_free(snap);
    world_free(w);
    free(st);
    free(snap_st);
    free(data);
}

// A time dump prints selects that very block in `shot --at`: the exact `time=`
// value (%.9g of the float, a hair above it as a double), the rounded column,
// and the float written out in full; the next block's time selects the next one.
static void test_shot_at_dump_time(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *demo = tu_data("quake/demos/qfm_e1m3.dem");
    const char *base = tu_data("quake");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s dump '%s' | awk '$3 == \"time\" {n++; if (n == 131 || n == 132) print $2, $4}'",
             tu_bin(), demo);
    int status;
    char *out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    char col[2][32], val[2][32];
    assert_int_equal(sscanf(out, "%31s time=%31s %31s time=%31s", col[0], val[0], col[1], val[1]), 4);
    free(out);
    assert_string_equal(col[0], "3.4127");        // block 132 of the fidelity reference
    assert_string_equal(val[0], "3.41265917");   // the float 3.412659168243408 as %.9g
    const char *ats[4] = { val[0], col[0], "3.412659168243408", val[1] };
    const char *want[4] = { "at 3.41265917 s", "at 3.41265917 s", "at 3.41265917 s", "at 3.42654967 s" };
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "%s shot --basedir '%s' --game qfm '%s' --at %s -o /tmp/dp_shot_at_%d.png", tu_bin(),
                 base, demo, ats[i], (int)getpid());
        out = tu_run(cmd, &status);
        assert_int_equal(status, 0);
        if (!strstr(out, want[i]))
            fail_msg("shot --at %s: expected '%s' in: %s", ats[i], want[i], out);
        free(out);
    }
    snprintf(cmd, sizeof cmd, "/tmp/dp_shot_at_%d.png", (int)getpid());
    remove(cmd);
}

// dump -> compile gives back the identical bytes, for every real demo
static void test_dump_compile_roundtrip(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dir[] = "/tmp/dp_rt_XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
        const expect_t *e = &expected[i];
        char cmd[4096], src[1024];
        int status;
        if (strchr(e->file, '/'))
            snprintf(src, sizeof(src), "'%s'", tu_data(e->file));
        else
            snprintf(src, sizeof(src), "--basedir '%s' %s '%s'", tu_data("quake"), e->extra, e->file);
        snprintf(cmd, sizeof(cmd), "%s dump %s > %s/d.txt && %s compile %s/d.txt -o %s/d.dem && %s info --json %s/d.dem",
                 tu_bin(), src, dir, tu_bin(), dir, dir, tu_bin(), dir);
        char *out = tu_run(cmd, &status);
        if (status != 0)
            fail_msg("%s: dump/compile failed (%d): %s", e->file, status, out);
        free(out);
        size_t a_size, b_size;
        uint8_t *a = NULL;
        if (strchr(e->file, '/')) {
            a = tu_read(tu_data(e->file), &a_size);
        } else {
            // hook.dem lives in a pak: compare with what dump decoded via a second dump
            snprintf(cmd, sizeof(cmd), "%s dump %s/d.dem | cut -c20- > %s/2.txt; cut -c20- %s/d.txt | cmp - %s/2.txt",
                     tu_bin(), dir, dir, dir, dir);
            out = tu_run(cmd, &status);
            assert_int_equal(status, 0);
            free(out);
            continue;
        }
        char path[1100];
        snprintf(path, sizeof(path), "%s/d.dem", dir);
        uint8_t *b = tu_read(path, &b_size);
        assert_non_null(a);
        assert_non_null(b);
        if (a_size != b_size || memcmp(a, b, a_size) != 0)
            fail_msg("%s: compiled demo differs (%zu vs %zu bytes)", e->file, b_size, a_size);
        free(a);
        free(b);
    }
    char cmd[256];
    int status;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    free(tu_run(cmd, &status));
}

// dump + edit + compile edits a demo; bad text gets a line number
static void test_compile_edit_and_errors(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dir[] = "/tmp/dp_ed_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[4096];
    int status;
    snprintf(cmd, sizeof(cmd),
             "%s dump '%s' | sed 's/centerprint text=\"[^\"]*\"/centerprint text=\"Edited by demoplay\"/' > %s/e.txt && "
             "%s compile %s/e.txt -o %s/e.dem && %s dump %s/e.dem | grep centerprint",
             tu_bin(), tu_data("quake/demos/qfm_e1m3.dem"), dir, tu_bin(), dir, dir, tu_bin(), dir);
    char *out = tu_run(cmd, &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "centerprint text=\"Edited by demoplay\""));
    free(out);
    snprintf(cmd, sizeof(cmd), "printf '0 0 block size=0 angles=0,0,0\\n1 0 frobnicate x=1\\n' > %s/bad.txt && "
             "%s compile %s/bad.txt -o %s/bad.dem 2>&1", dir, tu_bin(), dir, dir);
    out = tu_run(cmd, &status);
    assert_int_equal(status, 1);
    assert_non_null(strstr(out, "bad.txt: line 2: frobnicate: expected a Quake message name"));
    free(out);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    free(tu_run(cmd, &status));
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

// A mod's demo played without --game gets id1's map of the same name: the brush
// models differ from the demo's *1..*N, and one warning names the mod whose map fits.
static void test_mod_hint_without_game(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char cmd[4096], want[2048];
    int st;
    char e1m3[1024];   // tu_data's buffers rotate
    snprintf(e1m3, sizeof e1m3, "%s", tu_data("quake/demos/qfm_e1m3.dem"));
    snprintf(cmd, sizeof cmd, "%s info --basedir '%s' '%s' 2>&1 >/dev/null", tu_bin(), tu_data("quake"), e1m3);
    char *out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    snprintf(want, sizeof want, "demoplay: warning: %s: maps/e1m3.bsp in id1 has 105 brush models, the demo lists 62: "
             "it was probably recorded with --game qfm\n", e1m3);
    assert_string_equal(out, want);
    free(out);

    // shot and timedemo say it once (timedemo: a scan and a run over the same level)
    snprintf(cmd, sizeof cmd, "%s shot --at 3 -o build/test_mod_hint.png --basedir '%s' '%s' 2>&1 >/dev/null", tu_bin(),
             tu_data("quake"), tu_data("quake/demos/qfm_e1m6.dem"));
    out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    assert_int_equal(count_of(out, "maps/e1m6.bsp in id1 has 106 brush models, the demo lists 75: it was probably "
                                   "recorded with --game qfm\n"), 1);
    free(out);
    snprintf(cmd, sizeof cmd, "%s timedemo --size 160x100 --basedir '%s' '%s' 2>&1 >/dev/null", tu_bin(),
             tu_data("quake"), tu_data("quake/demos/qfm_e1m4.dem"));
    out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    assert_int_equal(count_of(out, "maps/e1m4.bsp in id1 has 91 brush models, the demo lists 68: it was probably "
                                   "recorded with --game qfm\n"), 1);
    assert_int_equal(count_of(out, "brush models"), 1);
    free(out);

    // the right --game, or a demo of id1's own map: no warning
    snprintf(cmd, sizeof cmd, "%s info --basedir '%s' --game qfm '%s' 2>&1 >/dev/null", tu_bin(), tu_data("quake"), e1m3);
    out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    assert_null(strstr(out, "brush models"));
    free(out);
    snprintf(cmd, sizeof cmd, "%s info --basedir '%s' '%s' 2>&1 >/dev/null", tu_bin(), tu_data("quake"),
             tu_data("quake/demos/dosquake101_e4m2.dem"));
    out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    assert_null(strstr(out, "brush models"));
    free(out);

    // no folder with a fitting map (a base folder holding id1 alone): said without a guess
    const char *dir = "build/test_mod_hint_base";
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s && ln -s \"$(cd '%s' && pwd)\" %s/id1", dir, dir, tu_data("quake/id1"), dir);
    free(tu_run(cmd, &st));
    assert_int_equal(st, 0);
    snprintf(cmd, sizeof cmd, "%s info --basedir %s '%s' 2>&1 >/dev/null", tu_bin(), dir, e1m3);
    out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    snprintf(want, sizeof want, "demoplay: warning: %s: maps/e1m3.bsp in id1 has 105 brush models, the demo lists 62, "
             "and no other folder under %s has a maps/e1m3.bsp with 62: the demo was probably recorded on another "
             "version of the map\n", e1m3, dir);
    assert_string_equal(out, want);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_every_demo),
        cmocka_unit_test(test_info_players_and_levels),
        cmocka_unit_test(test_dump_counts),
        cmocka_unit_test(test_shot_at_dump_time),
        cmocka_unit_test(test_truncated_and_flipped),
        cmocka_unit_test(test_cli_errors),
        cmocka_unit_test(test_state_is_copyable),
        cmocka_unit_test(test_dump_compile_roundtrip),
        cmocka_unit_test(test_compile_edit_and_errors),
        cmocka_unit_test(test_mod_hint_without_game),
    };
    return cmocka_run_group_tests_name("quake", tests, NULL, NULL);
}
