// test_forsaken_trig.c -- Forsaken's level triggers: the .TRG and .ZON loaders (assets/fstrig.c)
// on the shared levels' files and on cut and corrupted copies written to a temp folder.
// (docs/forsaken.md "Triggers")
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/fsrtl.h"
#include "assets/fstrig.h"
#include "engine/vfs.h"
#include "render/r_fsworld.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trg_files),
        cmocka_unit_test(test_zon_files),
        cmocka_unit_test(test_cut_and_corrupt),
        cmocka_unit_test(test_rtl_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
