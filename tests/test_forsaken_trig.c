// test_forsaken_trig.c -- Forsaken's level triggers: the .TRG and .ZON loaders (assets/fstrig.c)
// on the shared levels' files and on cut and corrupted copies written to a temp folder.
// (docs/forsaken.md "Triggers")
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "assets/fsrtl.h"
#include "assets/fstrig.h"
#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/playback.h"
#include "engine/vfs.h"
#include "engine/world_fs.h"
#include "formats/decoder.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsent.h"
#include "render/r_fsworld.h"
#include "render/render.h"
#include "fs_data.h"

static const char *tmp_dir(void) { return tu_tmpdir("FS_TRIG_DIR"); }

static uint8_t *level_file(const char *level, const char *ext, size_t *size)
{
    char path[128];
    snprintf(path, sizeof path, "levels/%s/%s.%s", level, level, ext);
    return fs_file(NULL, path, size);
}

static fstrg_t *load_trg(const char *level, size_t *size_out)
{
    size_t size;
    uint8_t *d = level_file(level, "trg", &size);
    if (!d)
        fail_msg("levels/%s/%s.trg: not found", level, level);
    char err[256] = "";
    fstrg_t *t = fstrg_load(d, size, level, err, sizeof err);
    free(d);
    if (!t)
        fail_msg("%s", err);
    if (size_out)
        *size_out = size;
    return t;
}

static fszon_t *load_zon(const char *level, size_t *size_out)
{
    size_t size;
    uint8_t *d = level_file(level, "zon", &size);
    if (!d)
        fail_msg("levels/%s/%s.zon: not found", level, level);
    char err[256] = "";
    fszon_t *z = fszon_load(d, size, level, err, sizeof err);
    free(d);
    if (!z)
        fail_msg("%s", err);
    if (size_out)
        *size_out = size;
    return z;
}

// Every level's .TRG loads to its last byte: eight are the empty 28-byte header; ship and therm
// pinned (read by hand with the game's layout). Levels without a .ZON: all but ship and therm.
static void test_trg_files(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const empty[] = { "alpha", "arena", "fourball", "midpand", "pandora", "smalls", "tunnels", "tworooms" };
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        size_t size;
        fstrg_t *t = load_trg(empty[i], &size);
        assert_int_equal(size, FSTRG_HEADER);
        assert_int_equal(t->end, size);
        assert_int_equal(t->num_vars + t->num_triggers + t->num_mods + t->num_events + t->num_conds, 0);
        fstrg_free(t);
        size_t zs;
        uint8_t *z = level_file(empty[i], "zon", &zs);
        assert_null(z);
    }
    size_t size;
    fstrg_t *t = load_trg("ship", &size);
    assert_int_equal(size, 397);
    assert_int_equal(t->end, 397);
    assert_int_equal(t->num_vars, 1);
    assert_int_equal(t->num_triggers, 1);
    assert_int_equal(t->num_mods, 1);
    assert_int_equal(t->num_events, 4);
    assert_int_equal(t->num_conds, 1);
    assert_string_equal(t->vars[0].name, "Light");
    assert_int_equal(t->vars[0].init, 0);
    assert_int_equal(t->vars[0].count, 1);
    assert_int_equal(t->triggers[0].type, FSTRG_EQUAL);
    assert_int_equal(t->triggers[0].var, 0);
    assert_int_equal(t->triggers[0].active_state, 1);
    assert_int_equal(t->mods[0].op, FSTRG_SET);
    assert_int_equal(t->mods[0].value, 1);
    assert_int_equal(t->mods[0].next, -1);
    assert_true(t->mods[0].delay == 0.0f);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(t->events[i].type, FSTRG_EV_LIGHT_ON);
        assert_int_equal(fstrg_event_arg(&t->events[i]), i);
        assert_int_equal(t->idx[t->conds[0].ev_first + i], i);
    }
    assert_int_equal(t->conds[0].trig_count, 1);
    assert_int_equal(t->conds[0].ev_count, 4);
    fstrg_free(t);

    t = load_trg("therm", &size);
    assert_int_equal(t->end, size);
    assert_int_equal(t->num_vars, 3);
    assert_int_equal(t->num_triggers, 6);
    assert_int_equal(t->num_mods, 3);
    assert_int_equal(t->num_events, 7);
    assert_int_equal(t->num_conds, 5);
    assert_string_equal(t->vars[0].name, "shotcomp");
    assert_string_equal(t->vars[1].name, "shotvent");
    assert_string_equal(t->vars[2].name, "shotvent2");
    for (int i = 0; i < 3; i++) {
        assert_int_equal(t->mods[i].op, FSTRG_INC);
        assert_int_equal(t->mods[i].var, i);
        assert_int_equal(t->mods[i].value, 1);
    }
    int tex = 0, spot = 0, pick = 0;
    for (int i = 0; i < t->num_events; i++) {
        tex += t->events[i].type == FSTRG_EV_TEXANIM_START;
        spot += t->events[i].type == FSTRG_EV_SPOTFX_START;
        if (t->events[i].type == FSTRG_EV_PICKUP) {
            pick++;
            assert_int_equal(t->events[i].data[0], 46);   // the level's "by a trigger" slot
        }
    }
    assert_int_equal(tex, 3);
    assert_int_equal(spot, 3);
    assert_int_equal(pick, 1);
    fstrg_free(t);
}

static void assert_near(double a, double b, double tol)
{
    if (fabs(a - b) > tol)
        fail_msg("%f is not %f (+-%f)", a, b, tol);
}

// ship's one box area and therm's three, to the last byte; the segment test on ship's box.
static void test_zon_files(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    fszon_t *z = load_zon("ship", &size);
    assert_int_equal(size, 166);
    assert_int_equal(z->end, 166);
    assert_int_equal(z->count, 1);
    const fszon_area_t *a = &z->areas[0];
    assert_int_equal(a->group, 2);
    assert_int_equal(a->shape, FSZON_BOX);
    assert_int_equal(a->gen_type, 0);
    assert_near(a->pos[0], 1530.56, 0.01);
    assert_near(a->pos[1], -2167.55, 0.01);
    assert_near(a->pos[2], 4352, 0.01);
    assert_near(a->half[0], 254.39, 0.01);
    assert_near(a->half[1], 128, 0.01);
    assert_near(a->half[2], 128, 0.01);
    assert_int_equal(a->num_sides, 6);
    assert_int_equal(a->player_mod[FSZON_ENTERS], 0);
    assert_int_equal(a->player_mod[FSZON_IN], FSZON_NONE);
    assert_int_equal(a->player_mod[FSZON_EXITS], FSZON_NONE);
    assert_int_equal(a->player_mod[FSZON_SHOOTS], FSZON_NONE);
    for (int k = 0; k < 4; k++)
        assert_int_equal(a->enemy_mod[k], FSZON_NONE);
    // the box's sides are its faces: the centre is inside all six
    const float c[3] = { a->pos[0], a->pos[1], a->pos[2] };
    const float out_x[3] = { a->pos[0] - 400, a->pos[1], a->pos[2] };
    const float in2[3] = { a->pos[0] + 100, a->pos[1] + 50, a->pos[2] - 50 };
    const float far_x[3] = { a->pos[0] + 400, a->pos[1], a->pos[2] };
    const float past0[3] = { a->pos[0] - 400, a->pos[1] + 200, a->pos[2] };
    const float past1[3] = { a->pos[0] + 400, a->pos[1] + 200, a->pos[2] };
    assert_int_equal(fszon_segment(z, a, out_x, c), FSZON_HIT_ENTRY);
    assert_int_equal(fszon_segment(z, a, c, out_x), FSZON_HIT_EXIT);
    assert_int_equal(fszon_segment(z, a, c, in2), FSZON_HIT_IN);
    assert_int_equal(fszon_segment(z, a, out_x, far_x), FSZON_HIT_ENTRY | FSZON_HIT_EXIT);
    assert_int_equal(fszon_segment(z, a, past0, past1), 0);   // 200 above a box 128 high
    assert_int_equal(fszon_segment(z, a, out_x, out_x), 0);
    // the mods it names are the .TRG's
    char err[256] = "";
    fstrg_t *t = load_trg("ship", NULL);
    assert_int_equal(fszon_check(z, t, "SHIP.ZON", err, sizeof err), 0);
    fstrg_t empty = { 0 };
    assert_int_equal(fszon_check(z, &empty, "SHIP.ZON", err, sizeof err), -1);
    assert_non_null(strstr(err, "SHIP.ZON: area 0: expected mod"));
    fstrg_free(t);
    fszon_free(z);

    z = load_zon("therm", &size);
    assert_int_equal(z->end, size);
    assert_int_equal(z->count, 3);
    static const int groups[3] = { 0, 14, 14 };
    static const float pos[3][3] = { { -743.2f, -891.0f, 633.7f }, { 2658.2f, 1085.3f, 2555.1f }, { 2657.9f, 1084.7f, 2298.6f } };
    for (int i = 0; i < 3; i++) {
        a = &z->areas[i];
        assert_int_equal(a->group, groups[i]);
        assert_int_equal(a->shape, FSZON_BOX);
        assert_int_equal(a->num_sides, 6);
        for (int k = 0; k < 3; k++)
            assert_near(a->pos[k], pos[i][k], 0.5);
        assert_int_equal(a->player_mod[FSZON_SHOOTS], i);
        assert_int_equal(a->player_mod[FSZON_ENTERS], FSZON_NONE);
        assert_int_equal(a->player_primary, -1);
        assert_int_equal(a->player_secondary, -1);
    }
    t = load_trg("therm", NULL);
    assert_int_equal(fszon_check(z, t, "THERM.ZON", err, sizeof err), 0);
    fstrg_free(t);
    fszon_free(z);
}

// Load a copy written to the temp folder and read back (the loaders see a file's bytes as the
// game's folders give them).
typedef void *(*loader_fn)(const uint8_t *, size_t, const char *, char *, size_t);
static void *trg_loader(const uint8_t *d, size_t n, const char *name, char *err, size_t cap)
{
    return fstrg_load(d, n, name, err, cap);
}
static void *zon_loader(const uint8_t *d, size_t n, const char *name, char *err, size_t cap)
{
    return fszon_load(d, n, name, err, cap);
}

static void *load_copy(loader_fn fn, const char *name, const uint8_t *d, size_t n, char *err, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir(), name);
    assert_int_equal(tu_write(path, d, n), 0);
    size_t m;
    uint8_t *back = tu_read(path, &m);
    assert_non_null(back);
    assert_int_equal(m, n);
    void *r = fn(back, m, name, err, cap);
    free(back);
    unlink(path);
    return r;
}

// Every cut of ship's and therm's files is refused with the file's name and an offset within
// the cut; hostile values (an index outside its list, a type, op or shape out of range, a NaN, a
// mod chain that goes round, a count the file cannot hold) are refused naming where.
static void test_cut_and_corrupt(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct {
        const char *level, *ext;
        loader_fn fn;
    } files[] = { { "ship", "trg", trg_loader }, { "therm", "trg", trg_loader },
                  { "ship", "zon", zon_loader }, { "therm", "zon", zon_loader } };
    char err[256], name[64];
    int refused = 0;
    for (size_t f = 0; f < 4; f++) {
        size_t n;
        uint8_t *d = level_file(files[f].level, files[f].ext, &n);
        assert_non_null(d);
        snprintf(name, sizeof name, "%s.%s", files[f].level, files[f].ext);
        for (size_t cut = 0; cut < n; cut++) {
            err[0] = 0;
            void *r = load_copy(files[f].fn, name, d, cut, err, sizeof err);
            if (r)
                fail_msg("%s cut to %zu bytes loaded", name, cut);
            long long off;
            const char *o = strstr(err, ": offset ");
            if (strncmp(err, name, strlen(name)) || !o || sscanf(o + 9, "%lld", &off) != 1 || off > (long long)cut ||
                !strstr(err, "expected"))
                fail_msg("%s cut to %zu: \"%s\"", name, cut, err);
            refused++;
        }
        // the whole file with trailing bytes loads
        uint8_t *more = calloc(n + 5, 1);
        memcpy(more, d, n);
        void *r = load_copy(files[f].fn, name, more, n + 5, err, sizeof err);
        assert_non_null(r);
        if (files[f].fn == trg_loader)
            fstrg_free(r);
        else
            fszon_free(r);
        free(more);
        free(d);
    }
    assert_int_equal(refused, 397 + 881 + 166 + 478);

    size_t n;
    uint8_t *trg = level_file("ship", "trg", &n);
    uint8_t *b = malloc(n);
    static const struct {
        size_t at;
        uint8_t v;
        size_t off;
        const char *what;
    } bad[] = {
        { 4, 2, 4, "version 1, found 2" },
        { 0x0c, 0xff, 8, "lists fit the file (at least 3643 bytes), file has 369 left" },   // 255 triggers
        { 0x44, 5, 0x44, "one of 1 triggers" },              // the variable's trigger index
        { 0x48, 9, 0x48, "trigger type 0..7, found 9" },
        { 0x49, 3, 0x49, "one of 1 variables, found 3" },
        { 0x55, 1, 0x55, "one of 1 conditions" },
        { 0x59, 12, 0x59, "mod op 0..11, found 12" },
        { 0x69, 0, 0x69, "-1 or one of 1 mods, found -256" },
        { 0x6d, 25, 0x6d, "event type 0..24, found 25" },
        { 0x17d, 4, 0x17d, "one of 4 events" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(b, trg, n);
        b[bad[i].at] = bad[i].v;
        assert_null(load_copy(trg_loader, "SHIP.TRG", b, n, err, sizeof err));
        char want[64];
        snprintf(want, sizeof want, "SHIP.TRG: offset %zu: expected", bad[i].off);
        if (strncmp(err, want, strlen(want)) || !strstr(err, bad[i].what))
            fail_msg("byte %zu = %u: \"%s\" (wanted \"%s ... %s\")", bad[i].at, bad[i].v, err, want, bad[i].what);
    }
    // a mod whose next is itself
    memcpy(b, trg, n);
    memset(b + 0x69, 0, 4);
    assert_null(load_copy(trg_loader, "SHIP.TRG", b, n, err, sizeof err));
    assert_non_null(strstr(err, "mod 0's goes round"));
    // a NaN delay
    memcpy(b, trg, n);
    memcpy(b + 0x65, "\x00\x00\xc0\x7f", 4);
    assert_null(load_copy(trg_loader, "SHIP.TRG", b, n, err, sizeof err));
    assert_non_null(strstr(err, "offset 101: expected a mod's delay, a finite number"));
    free(b);
    free(trg);

    uint8_t *zon = level_file("ship", "zon", &n);
    b = malloc(n);
    memcpy(b, zon, n);
    b[0x12] = 3;   // shape
    assert_null(load_copy(zon_loader, "SHIP.ZON", b, n, err, sizeof err));
    assert_string_equal(err, "SHIP.ZON: offset 18: expected an area shape 0..2 (sphere, box, hull), found 3");
    memcpy(b, zon, n);
    b[0x2d] = 2;   // 518 sides
    assert_null(load_copy(zon_loader, "SHIP.ZON", b, n, err, sizeof err));
    assert_string_equal(err, "SHIP.ZON: offset 44: expected at most 256 sides, found 518");
    memcpy(b, zon, n);
    b[0x08] = 9;   // nine areas
    assert_null(load_copy(zon_loader, "SHIP.ZON", b, n, err, sizeof err));
    assert_non_null(strstr(err, "SHIP.ZON: offset 10: expected 9 areas (414 bytes), file has 156 left"));
    memcpy(b, zon, n);
    memcpy(b + 0x14, "\x00\x00\x80\x7f", 4);   // +inf x
    assert_null(load_copy(zon_loader, "SHIP.ZON", b, n, err, sizeof err));
    assert_string_equal(err, "SHIP.ZON: offset 20: expected an area's position, a finite number");
    memcpy(b, zon, n);
    b[0x12] = 0;   // a sphere has no side list: its mods follow the half size (the rest is left over)
    fszon_t *z = load_copy(zon_loader, "SHIP.ZON", b, n, err, sizeof err);
    assert_non_null(z);
    assert_int_equal(z->areas[0].num_sides, 0);
    assert_int_equal(z->end, 0x2c + 24);
    assert_int_equal(z->areas[0].player_mod[FSZON_IN], 6);
    fszon_free(z);
    free(b);
    free(zon);
    char e2[8] = "x";
    assert_null(fstrg_load(NULL, 0, NULL, e2, sizeof e2));
    assert_null(fszon_load(NULL, 0, NULL, NULL, 0));
}

// Every level's .RTL loads to its last byte (counts by type pinned); ship's four lights, read by
// hand with the game's layout: pulsing (wave), on 0.3 s, off 0.3 s, dark 0.4 s, switched on by
// the trigger 0, 0.1, 0.2, 0.3 s apart, 384 units, 100 100 255.
static void test_rtl_files(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct {
        const char *level;
        int count, types[4];
    } levels[] = { { "arena", 2, { 0, 2, 0, 0 } },   { "fourball", 16, { 0, 14, 2, 0 } }, { "pandora", 5, { 0, 1, 4, 0 } },
                   { "ship", 4, { 0, 4, 0, 0 } },    { "therm", 5, { 0, 5, 0, 0 } } };
    char err[256] = "";
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        size_t n;
        uint8_t *d = level_file(levels[i].level, "rtl", &n);
        assert_non_null(d);
        fsrtl_t *l = fsrtl_load(d, n, levels[i].level, err, sizeof err);
        if (!l)
            fail_msg("%s", err);
        assert_int_equal(l->end, n);
        assert_int_equal(l->count, levels[i].count);
        int types[4] = { 0 };
        for (int k = 0; k < l->count; k++)
            types[l->lights[k].type]++;
        assert_memory_equal(types, levels[i].types, sizeof types);
        fsrtl_free(l);
        free(d);
    }
    size_t n;
    uint8_t *d = level_file("ship", "rtl", &n);
    assert_int_equal(n, 234);
    fsrtl_t *l = fsrtl_load(d, n, "SHIP.RTL", err, sizeof err);
    assert_non_null(l);
    static const float pos[4][3] = { { 1536.0f, -2555.21f, 4873.71f }, { 1536.0f, -3067.21f, 4893.97f },
                                     { 1531.86f, -3579.21f, 4857.25f }, { 1536.0f, -4091.21f, 4881.22f } };
    static const int groups[4] = { 13, 13, 13, 3 };
    for (int i = 0; i < 4; i++) {
        const fsrtl_light_t *x = &l->lights[i];
        assert_int_equal(x->type, FSRTL_PULSING);
        assert_int_equal(x->group, groups[i]);
        for (int k = 0; k < 3; k++)
            assert_near(x->pos[k], pos[i][k], 0.01);
        assert_near(x->range, 384, 0.001);
        assert_near(x->rgb[0], 100, 0.1);
        assert_near(x->rgb[1], 100, 0.1);
        assert_near(x->rgb[2], 255, 0.001);
        assert_int_equal(x->gen_type, FSRTL_GEN_TRIGGER);
        assert_near(x->gen_delay, 0.1 * i, 1e-6);
        assert_int_equal(x->on_type, FSRTL_WAVE);
        assert_near(x->t[0], 0.3, 1e-6);
        assert_near(x->t[1], 0, 1e-6);
        assert_near(x->t[2], 0.3, 1e-6);
        assert_near(x->t[3], 0.4, 1e-6);
    }
    // the pulse: 18 60ths on, 18 off, 24 dark (60 60ths = 60/71 s a round at 71 ticks a second)
    const fsrtl_light_t *x = &l->lights[0];
    assert_near(fsrtl_pulse(x, -0.1), 0, 1e-6);
    assert_near(fsrtl_pulse(x, 0), 0, 1e-6);
    assert_near(fsrtl_pulse(x, 9 / 71.0), 0.5, 1e-4);     // half way up the wave
    assert_near(fsrtl_pulse(x, 18 / 71.0), 1, 1e-4);
    assert_near(fsrtl_pulse(x, 27 / 71.0), 0.5, 1e-4);    // half way down
    assert_near(fsrtl_pulse(x, 40 / 71.0), 0, 1e-6);      // dark
    assert_near(fsrtl_pulse(x, 69 / 71.0), 0.5, 1e-4);    // the next round, 9 in
    fsrtl_free(l);

    // every cut refused with an offset within it; hostile values refused naming where
    for (size_t cut = 0; cut < n; cut++) {
        err[0] = 0;
        assert_null(fsrtl_load(d, cut, "SHIP.RTL", err, sizeof err));
        const char *o = strstr(err, ": offset ");
        long long off;
        if (strncmp(err, "SHIP.RTL", 8) || !o || sscanf(o + 9, "%lld", &off) != 1 || off > (long long)cut)
            fail_msg("cut to %zu: \"%s\"", cut, err);
    }
    uint8_t *b = malloc(n);
    static const struct {
        size_t at;
        uint8_t v;
        const char *err;
    } bad[] = {
        { 4, 1, "SHIP.RTL: offset 4: expected version 2 (RTL_VERSION_NUMBER), found 1" },
        { 0x0a, 4, "SHIP.RTL: offset 10: expected a light type 0..3, found 4" },
        { 0x2a, 3, "SHIP.RTL: offset 42: expected a generation type 0..2, found 3" },
        { 0x30, 4, "SHIP.RTL: offset 48: expected a pulse type 0..3, found 4" },
        { 0x1d, 0xc3, "SHIP.RTL: offset 26: expected a range, a finite number of 0 or more" },
        { 0x08, 99, "SHIP.RTL: offset 10: expected 99 lights (5346 bytes), file has 224 left" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(b, d, n);
        b[bad[i].at] = bad[i].v;
        fsrtl_t *q = fsrtl_load(b, n, "SHIP.RTL", err, sizeof err);
        assert_null(q);
        assert_string_equal(err, bad[i].err);
    }
    free(b);
    free(d);
}

static void markers_at(const char *path, double at, const asset_files_t *files, int on[4], float when[4]);

// ---- the runner on lists made for the test ------------------------------------------------------

typedef struct {
    uint8_t b[2048];
    size_t n;
} buf_t;
static void put(buf_t *b, const void *p, size_t n)
{
    assert_true(b->n + n <= sizeof b->b);
    memcpy(b->b + b->n, p, n);
    b->n += n;
}
static void put32(buf_t *b, int32_t v) { put(b, &v, 4); }   // little-endian hosts (the tests' x86)
static void put16(buf_t *b, int v)
{
    uint16_t u = (uint16_t)v;
    put(b, &u, 2);
}
static void putf(buf_t *b, float v) { put(b, &v, 4); }
static void put8(buf_t *b, int v)
{
    uint8_t u = (uint8_t)v;
    put(b, &u, 1);
}

typedef struct {
    buf_t trg, zon;
} made_t;

// levels/ship/ship.trg and .zon from memory (copies the caller frees); nothing else.
static uint8_t *made_file(void *ctx, const char *path, size_t *size)
{
    const made_t *m = ctx;
    const buf_t *b = strcmp(path, "levels/ship/ship.trg") == 0 ? &m->trg : strcmp(path, "levels/ship/ship.zon") == 0 ? &m->zon : NULL;
    if (!b)
        return NULL;
    uint8_t *d = malloc(b->n);
    memcpy(d, b->b, b->n);
    *size = b->n;
    return d;
}

// Two variables (Light, count), three triggers (Light == 1, Light == 2, count >= 2), three mods
// (Light = 1 after 0.5 s; count + 1; Light = 2), a sphere of 200 units in group 2 whose enters /
// is in / exits are those mods. Light == 1 turns lights 0 and 1 on; Light == 2 turns light 2 off
// and the area off; count >= 2 turns light 2 on.
static void make_lists(made_t *m, const float centre[3])
{
    memset(m, 0, sizeof *m);
    buf_t *t = &m->trg;
    put(t, "PRJX", 4);
    put32(t, 1);
    put32(t, 2); put32(t, 3); put32(t, 3); put32(t, 5); put32(t, 3);
    char name[32] = "Light";
    put(t, name, 32); put32(t, 0); put32(t, 2); put32(t, 0); put32(t, 1);
    memset(name, 0, sizeof name);
    strcpy(name, "count");
    put(t, name, 32); put32(t, 0); put32(t, 1); put32(t, 2);
    put8(t, FSTRG_EQUAL); put32(t, 0); put32(t, 1); put32(t, 1); put32(t, 0);
    put8(t, FSTRG_EQUAL); put32(t, 0); put32(t, 2); put32(t, 1); put32(t, 1);
    put8(t, FSTRG_GREATEREQUAL); put32(t, 1); put32(t, 2); put32(t, 1); put32(t, 2);
    put32(t, FSTRG_SET); put32(t, 0); put32(t, 1); putf(t, 0.5f); put32(t, -1);
    put32(t, FSTRG_INC); put32(t, 1); put32(t, 1); putf(t, 0); put32(t, -1);
    put32(t, FSTRG_SET); put32(t, 0); put32(t, 2); putf(t, 0); put32(t, -1);
    static const int ev[5][2] = { { FSTRG_EV_LIGHT_ON, 0 }, { FSTRG_EV_LIGHT_ON, 1 }, { FSTRG_EV_LIGHT_OFF, 2 },
                                  { FSTRG_EV_AREA_OFF, 0 }, { FSTRG_EV_LIGHT_ON, 2 } };
    for (int i = 0; i < 5; i++) {
        uint8_t data[FSTRG_EVENT_DATA] = { (uint8_t)ev[i][1] };
        put8(t, ev[i][0]);
        put(t, data, sizeof data);
    }
    put32(t, 1); put32(t, 0); put32(t, 2); put32(t, 0); put32(t, 1);
    put32(t, 1); put32(t, 1); put32(t, 2); put32(t, 2); put32(t, 3);
    put32(t, 1); put32(t, 2); put32(t, 1); put32(t, 4);
    buf_t *z = &m->zon;
    put(z, "PRJX", 4);
    put32(z, 2);
    put16(z, 1);
    put16(z, 2); put16(z, 0); putf(z, 0); put16(z, FSZON_SPHERE);
    for (int k = 0; k < 3; k++)
        putf(z, centre[k]);
    for (int k = 0; k < 3; k++)
        putf(z, 200);
    put16(z, 1); put16(z, 0); put16(z, 2); put16(z, FSZON_NONE); put16(z, -1); put16(z, -1);
    for (int k = 0; k < 4; k++)
        put16(z, FSZON_NONE);
    put16(z, -1); put16(z, -1);
}

// The runner's rules on those lists: the host's updates are outside until 1.0 s, inside at 1.0,
// 1.05, 1.1 s, outside again from 1.15 s and inside at 2.0 s. Entering queues Light = 1 for
// 0.5 s (30 60ths: 0.4225 s at 71 ticks); each update inside counts (in): count 2 at 1.1 s turns
// light 2 on; leaving at 1.15 s sets Light = 2: light 2 off, the area off (so 2.0 s changes
// nothing); the queued mod, due at 1.4225 s, runs on the first frame at or after it (1.45 s):
// Light = 1, lights 0 and 1 on.
static void test_runner_rules(void **state)
{
    (void)state;
    const float centre[3] = { 1530.56f, -2167.55f, 4352 }, eye[3] = { 1536, -2350, 4870 };
    made_t m;
    make_lists(&m, centre);
    char err[256] = "";
    fstrg_t *tl = fstrg_load(m.trg.b, m.trg.n, "made.trg", err, sizeof err);
    if (!tl)
        fail_msg("%s", err);
    assert_int_equal(tl->end, m.trg.n);
    fstrg_free(tl);
    char path[512];
    snprintf(path, sizeof path, "%s/fs_trig_rules_%d.dmo", tmp_dir(), (int)getpid());
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    for (int i = 0; i <= 50; i++) {
        double t = 0.05 + i * 0.05;
        fs_ship_t s;
        memset(&s, 0, sizeof s);
        s.flags = FS_SHIP_ENABLE;
        int in = (t > 0.99 && t < 1.11) || fabs(t - 2.0) < 1e-6;
        memcpy(s.pos, in ? centre : eye, sizeof s.pos);
        s.group = 2;
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s);
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
    asset_files_t files = { made_file, &m };
    int on[4];
    float when[4];
    static const struct {
        double at;
        int on[3];
        float when[3];
    } want[] = {
        { 0.94, { -1, -1, -1 }, { -1, -1, -1 } },
        { 1.04, { -1, -1, -1 }, { -1, -1, -1 } },
        { 1.09, { -1, -1, 1 }, { -1, -1, 1.1f } },
        { 1.14, { -1, -1, 0 }, { -1, -1, 1.15f } },
        { 1.39, { -1, -1, 0 }, { -1, -1, 1.15f } },
        { 1.44, { 1, 1, 0 }, { 1.45f, 1.45f, 1.15f } },
        { 2.50, { 1, 1, 0 }, { 1.45f, 1.45f, 1.15f } },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        markers_at(path, want[i].at, &files, on, when);
        for (int k = 0; k < 3; k++) {
            if (on[k] != want[i].on[k] || fabsf(when[k] - want[i].when[k]) > 1e-4f)
                fail_msg("at %.2f s light %d: on %d at %.4f, wanted %d at %.4f", want[i].at, k, on[k], when[k],
                         want[i].on[k], want[i].when[k]);
        }
        assert_int_equal(on[3], -1);
    }
    remove(path);
}

// ---- the host flies into ship's box: its room's lights ------------------------------------------

// A host recording on ship: the recorder sits at `eye` looking along `ang`, sending an update
// every 0.05 s for 3 s; when `enter_t` > 0 its update at enter_t is at `inside` (in the box), the
// next one back at the eye, so its path crosses the box's side inward between the two.
static void trig_demo(const float eye[3], const float ang[3], const float inside[3], int group_in, double enter_t,
                      const char *path)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    h.pickup_flags = 0;   // no pickups placed: only the lights change
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= 60; i++) {
        double t = 0.05 + i * 0.05;
        fs_ship_t s;
        memset(&s, 0, sizeof s);
        s.flags = FS_SHIP_ENABLE;
        int in = enter_t > 0 && fabs(t - enter_t) < 1e-6;
        memcpy(s.pos, in ? inside : eye, sizeof s.pos);
        s.group = (uint8_t)(in ? group_in : 2);
        fs_angles_to_quat(ang, s.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s);
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// The world's light markers (FSW_RTL_ENT0 + k) decoded in-process up to the first frame at or
// after `at` seconds (the test's updates are 0.05 s apart: `at` is taken 0.01 s before one), the game's
// files given to the decoder (or not: files NULL); on[k] = frame, at[k] = animtime, -1 none.
static void markers_at(const char *path, double at, const asset_files_t *files, int on[4], float when[4])
{
    size_t size;
    uint8_t *data = tu_read(path, &size);
    assert_non_null(data);
    void *st = calloc(1, fs_decoder.state_size);
    world_t *w = world_create();
    dec_opts_t o;
    memset(&o, 0, sizeof o);
    if (files)
        o.files = *files;
    dec_error_t err;
    assert_int_equal(fs_decoder.open(st, data, size, w, &o, &err), 0);
    while (w->time < at && fs_decoder.read_frame(st, w, &err) > 0) {
    }
    for (int k = 0; k < 4; k++) {
        int e = FSW_RTL_ENT0 + k;
        int vis = world_entity_visible(w, e) && w->entities[e].cur.modelindex == FSW_MODEL_TRIG;
        on[k] = vis ? w->entities[e].cur.frame : -1;
        when[k] = vis ? w->entities[e].cur.animtime : -1;
    }
    fs_decoder.close(st);
    world_free(w);
    free(st);
    free(data);
}

// Pixels of b brighter than a (r+g+b up by more than 12), darker (down by more than 12), and
// differing at all; the mean r+g+b of each.
static void brighter(const char *a, const char *b, int *up, int *down, int *diff, double *ma, double *mb)
{
    int wa, ha, wb, hb, ca, cb;
    uint8_t *pa = stbi_load(a, &wa, &ha, &ca, 3), *pb = stbi_load(b, &wb, &hb, &cb, 3);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(wa, wb);
    assert_int_equal(ha, hb);
    *up = *down = *diff = 0;
    double sa = 0, sb = 0;
    for (int i = 0; i < wa * ha; i++) {
        int va = pa[3 * i] + pa[3 * i + 1] + pa[3 * i + 2], vb = pb[3 * i] + pb[3 * i + 1] + pb[3 * i + 2];
        sa += va;
        sb += vb;
        *up += vb > va + 12;
        *down += vb < va - 12;
        *diff += memcmp(pa + 3 * i, pb + 3 * i, 3) != 0;
    }
    *ma = sa / (wa * ha);
    *mb = sb / (wa * ha);
    stbi_image_free(pa);
    stbi_image_free(pb);
}

// ship's one trigger: the host sits at the top of the shaft its four real-time lights hang in
// (1536, -2350, 4870, looking down it), its update at 1.0 s is in the box (1530.56, -2167.55,
// 4352), the next back: the path crosses the box's side inward, Light becomes 1, lights 0..3 of
// SHIP.RTL are switched on at 1.0 s and pulse from 1.0 s + their delays (0, 6, 12, 18 60ths). At
// 1.0 + 18/71 s light 0 is at its brightest: the shaft's walls are brighter than at 0.9 s and than
// in the same recording without the visit at that time (which equals 0.9 s to the byte); a seek
// to each moment draws what playing to it drew; golden.
static void test_trig_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const float eye[3] = { 1536, -2350, 4870 }, ang[3] = { 85, 0, 0 }, inside[3] = { 1530.56f, -2167.55f, 4352 };
    char enter[512], never[512], before[512], after[512], none[512], none_before[512];
    const char *dir = tmp_dir();
    snprintf(enter, sizeof enter, "%s/fs_trig_enter_%d.dmo", dir, (int)getpid());
    snprintf(never, sizeof never, "%s/fs_trig_never_%d.dmo", dir, (int)getpid());
    snprintf(before, sizeof before, "%s/fs_trig_before.png", dir);
    snprintf(after, sizeof after, "%s/fs_trig_after.png", dir);
    snprintf(none, sizeof none, "%s/fs_trig_never.png", dir);
    snprintf(none_before, sizeof none_before, "%s/fs_trig_never_before.png", dir);
    trig_demo(eye, ang, inside, 2, 1.0, enter);
    trig_demo(eye, ang, inside, 2, -1, never);

    // the decoder: no marker before the crossing; all four at 1.0 s after it; none without the
    // visit, without the game's files, or in a group the area is not in
    asset_files_t files = { fs_file, NULL };
    int on[4];
    float when[4];
    markers_at(enter, 0.94, &files, on, when);   // the frame at 0.95 s
    for (int k = 0; k < 4; k++)
        assert_int_equal(on[k], -1);
    markers_at(enter, 0.99, &files, on, when);   // the frame at 1.0 s
    for (int k = 0; k < 4; k++) {
        assert_int_equal(on[k], 1);
        assert_true(fabs(when[k] - 1.0) < 1e-5);
    }
    markers_at(enter, 2.5, &files, on, when);
    for (int k = 0; k < 4; k++)
        assert_int_equal(on[k], 1);
    markers_at(never, 2.5, &files, on, when);
    for (int k = 0; k < 4; k++)
        assert_int_equal(on[k], -1);
    markers_at(enter, 2.5, NULL, on, when);
    for (int k = 0; k < 4; k++)
        assert_int_equal(on[k], -1);
    {   // the same path told in group 7 throughout: the box (group 2) is not tested
        char other[512];
        snprintf(other, sizeof other, "%s/fs_trig_group_%d.dmo", dir, (int)getpid());
        fs_writer_t wr;
        fs_writer_init(&wr);
        fs_header_t h;
        memset(&h, 0, sizeof h);
        h.version = FS_VERSION_MIN;
        snprintf(h.level, sizeof h.level, "ship");
        fs_write_header(&wr, &h);
        for (int i = 0; i <= 30; i++) {
            double t = 0.05 + i * 0.05;
            fs_ship_t s;
            memset(&s, 0, sizeof s);
            s.flags = FS_SHIP_ENABLE;
            memcpy(s.pos, fabs(t - 1.0) < 1e-6 ? inside : eye, sizeof s.pos);
            s.group = 7;
            fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s);
        }
        assert_false(wr.failed);
        assert_int_equal(tu_write(other, wr.data, wr.size), 0);
        fs_writer_free(&wr);
        markers_at(other, 1.5, &files, on, when);
        for (int k = 0; k < 4; k++)
            assert_int_equal(on[k], -1);
        remove(other);
    }

    // the pictures
    const double peak = 1.0 + 18 / 71.0;
    fs_shot(enter, 0.9, before);
    fs_shot(enter, peak, after);
    fs_shot(never, peak, none);
    fs_shot(never, 0.9, none_before);
    int up, down, diff;
    double ma, mb;
    brighter(before, none_before, &up, &down, &diff, &ma, &mb);
    assert_int_equal(diff, 0);   // the same before the visit
    brighter(none_before, none, &up, &down, &diff, &ma, &mb);
    assert_int_equal(diff, 0);   // never entered: no light, the picture does not change
    brighter(before, after, &up, &down, &diff, &ma, &mb);
    printf("after the box, at %.3f s: %d pixels brighter than at 0.9 s, %d darker, %d differ; mean r+g+b %.1f -> %.1f\n",
           peak, up, down, diff, ma, mb);
    assert_true(up > 20000);
    assert_true(down < up / 100);
    assert_true(mb > ma * 1.3);
    int up2, down2, diff2;
    double ma2, mb2;
    brighter(none, after, &up2, &down2, &diff2, &ma2, &mb2);
    assert_int_equal(up2, up);
    assert_int_equal(down2, down);
    tu_golden("ship's shaft lit by its trigger", after, "tests/golden/fs_trig_lights.png", 0.002);

    // seek == play, 1.0 s the update in the box itself. Played in steps of 0.05 s counted as
    // start + i x 0.05: twenty additions of 0.05 make 1.0000000000000002, and advancing there
    // before drawing 1.0 would draw a state past the moment asked for.
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    char base[512];
    snprintf(base, sizeof base, "%s/forsaken", tu_data_dir());
    cli.basedir = base;
    const double at[] = { 0.9, 1.0, 1.02, 1.1, peak, 1.6, 2.5 };
    enum { N = sizeof at / sizeof at[0] };
    renderer_t *r = r_create(160, 100);
    assert_non_null(r);
    uint8_t *played[N];
    demo_t d;
    assert_int_equal(demo_open(&d, &cli, enter, NULL, 0), 0);
    player_t *p = player_create(&d, &cli, r, NULL, NULL);
    assert_non_null(p);
    int k = 0;
    double t0 = player_start(p);
    for (int it = 0; k < N && t0 + it * 0.05 < 3.5; it++) {
        double t = t0 + it * 0.05;
        while (k < N && at[k] <= t + 1e-9) {   // drawn before the step past it: played up to at[k] only
            assert_true(player_advance(p, at[k]) >= 0);
            r_render(r, d.world, player_demo_time(p, at[k]));
            int w, h, pitch;
            const uint8_t *px = r_pixels(r, &w, &h, &pitch);
            played[k] = malloc((size_t)h * (size_t)pitch);
            memcpy(played[k], px, (size_t)h * (size_t)pitch);
            k++;
        }
        assert_true(player_advance(p, t) >= 0);
    }
    assert_int_equal(k, N);
    player_destroy(p);
    demo_close(&d);
    assert_int_equal(demo_open(&d, &cli, enter, NULL, 0), 0);
    p = player_create(&d, &cli, r, NULL, NULL);
    assert_int_equal(player_scan(p), 0);
    int differ = 0, lit_differ = 0;
    int w, h, pitch;
    for (int i = N - 1; i >= 0; i--) {   // backwards: every seek goes back
        assert_int_equal(player_seek(p, at[i]), 0);
        r_render(r, d.world, player_demo_time(p, at[i]));
        const uint8_t *px = r_pixels(r, &w, &h, &pitch);
        if (memcmp(px, played[i], (size_t)h * (size_t)pitch)) {
            printf("seek to %.3f s differs from play\n", at[i]);
            differ++;
        }
        if (i > 0 && memcmp(played[0], played[i], (size_t)h * (size_t)pitch))
            lit_differ++;
    }
    assert_int_equal(differ, 0);
    printf("seek == play at %d moments; %d of them differ from 0.9 s (the lights)\n", N, lit_differ);
    assert_true(lit_differ >= 4);   // 1.0 s itself: light 0 at its start (dark)
    for (int i = 0; i < N; i++)
        free(played[i]);
    player_destroy(p);
    demo_close(&d);
    r_destroy(r);
    if (!getenv("FS_TRIG_DIR")) {
        remove(enter);
        remove(never);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trg_files),
        cmocka_unit_test(test_zon_files),
        cmocka_unit_test(test_cut_and_corrupt),
        cmocka_unit_test(test_rtl_files),
        cmocka_unit_test(test_runner_rules),
        cmocka_unit_test(test_trig_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
