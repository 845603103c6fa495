// test_forsaken_spotfx.c -- Forsaken spot effects (Data/Levels/NAME/NAME.FX, assets/fsspot.c): the
// two files of the data read to their last byte with their effects pinned (types, groups,
// positions, times), every group inside its level, every cut and 10 corruptions refused with offsets.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/fsspot.h"
#include "assets/mxv.h"
#include "engine/vfs.h"

static uint8_t *data_file(const char *rel, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/forsaken/Data/%s", tu_data_dir(), rel);
    char *real = vfs_resolve_path(path);
    uint8_t *d = real ? tu_read(real, size) : NULL;
    free(real);
    return d;
}

static int level_groups(const char *lvl)
{
    char rel[256];
    snprintf(rel, sizeof rel, "levels/%s/%s.mxv", lvl, lvl);
    size_t size;
    uint8_t *d = data_file(rel, &size);
    assert_non_null(d);
    char err[256];
    mxv_t *m = mxv_load(d, size, lvl, err, sizeof err);
    assert_non_null(m);
    int n = m->num_groups;
    mxv_free(m);
    free(d);
    return n;
}

static void near3(const float *v, float x, float y, float z)
{
    if (fabsf(v[0] - x) > 0.1f || fabsf(v[1] - y) > 0.1f || fabsf(v[2] - z) > 0.1f)
        fail_msg("%.2f %.2f %.2f, wanted %.1f %.1f %.1f", v[0], v[1], v[2], x, y, z);
}

static void test_levels(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *names[] = { "arena", "therm" };
    const int counts[] = { 10, 15 }, sounds[] = { 8, 10 };
    for (int l = 0; l < 2; l++) {
        char rel[256];
        snprintf(rel, sizeof rel, "levels/%s/%s.fx", names[l], names[l]);
        size_t size;
        uint8_t *d = data_file(rel, &size);
        assert_non_null(d);
        char err[256];
        fsspot_t *s = fsspot_load(d, size, rel, err, sizeof err);
        if (!s)
            fail_msg("%s", err);
        assert_int_equal(s->count, counts[l]);
        assert_int_equal(s->end, size);
        int groups = level_groups(names[l]), nsound = 0;
        for (int i = 0; i < s->count; i++) {
            const fsspot_fx_t *f = &s->fx[i];
            printf("%s %2d: %-13s group %2d at %8.1f %8.1f %8.1f dir %5.2f %5.2f %5.2f, on %.1f off %.1f s, gen %d, sound '%s'\n",
                   names[l], i, fsspot_type_name(f->type), f->group, f->pos[0], f->pos[1], f->pos[2], f->dir[0], f->dir[1],
                   f->dir[2], f->active, f->inactive, f->gen_type, f->sound);
            assert_true(f->group < groups);
            nsound += f->type == FSSPOT_SOUND;
            assert_int_equal(f->r, 255);   // every colour is 0x00ffffff
        }
        assert_int_equal(nsound, sounds[l]);
        if (l == 0) {   // arena: a fire wall (3 s on, 2 s off) and a smoke
            assert_int_equal(s->fx[5].type, FSSPOT_FIRE_WALL);
            assert_int_equal(s->fx[5].group, 2);
            near3(s->fx[5].pos, -952.1f, 1724.7f, -1790.8f);
            near3(s->fx[5].dir, 1, 0, 0);
            assert_true(s->fx[5].active == 3.0f && s->fx[5].inactive == 2.0f);
            assert_int_equal(s->fx[8].type, FSSPOT_SMOKE);
            assert_int_equal(s->fx[8].group, 30);
            near3(s->fx[8].pos, 128, 2176, 1408);
            assert_string_equal(s->fx[1].sound, "Thermal");
        } else {   // therm: three explosions (two started by its trigger), a flame, gravity sparks
            assert_int_equal(s->fx[0].type, FSSPOT_EXPLOSION);
            assert_int_equal(s->fx[0].gen_type, 0);
            near3(s->fx[0].pos, -740.4f, -899.1f, 668.0f);
            assert_int_equal(s->fx[1].type, FSSPOT_FLAME);
            assert_true(s->fx[1].active == 0.5f && s->fx[1].inactive == 5.0f);
            near3(s->fx[1].pos, 1601.0f, -338.7f, 2303.6f);
            assert_int_equal(s->fx[2].type, FSSPOT_GRAVITY_SPARKS);
            near3(s->fx[2].dir, 0, -1, 0);
            for (int i = 13; i <= 14; i++) {
                assert_int_equal(s->fx[i].type, FSSPOT_EXPLOSION);
                assert_int_equal(s->fx[i].gen_type, 2);
                assert_int_equal(s->fx[i].group, 14);
            }
        }
        // every cut refused at an offset within it
        for (size_t n = 0; n < size; n++) {
            err[0] = 0;
            fsspot_t *c = fsspot_load(d, n, "cut.fx", err, sizeof err);
            if (c)
                fail_msg("%s cut at %zu: loaded", names[l], n);
            const char *o = strstr(err, "offset ");
            if (!o || strtoull(o + 7, NULL, 10) > n)
                fail_msg("%s cut at %zu: '%s'", names[l], n, err);
        }
        printf("%s: %zu cuts refused\n", names[l], size);
        fsspot_free(s);
        free(d);
    }
}

static void test_bad_bytes(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = data_file("levels/arena/arena.fx", &size);
    assert_non_null(d);
    uint8_t *c = malloc(size);
    const float nan_f = NAN, big = 1e9f;
    struct {
        size_t at;
        const void *v;
        size_t n;
        const char *want;
    } bad[] = {
        { 0, "PRJY", 4, "offset 0: expected the magic \"PRJX\"" },
        { 4, (const uint32_t[]){ 3 }, 4, "offset 4: expected version 4, got 3" },
        { 8, (const int32_t[]){ 513 }, 4, "offset 8: expected 0..512 effects, got 513" },
        { 8, (const int32_t[]){ -1 }, 4, "offset 8: expected 0..512 effects, got -1" },
        { 8, (const int32_t[]){ 12 }, 4, "offset 12: expected 12 effects (876 bytes), file has 800 left" },
        { 12, (const uint16_t[]){ 36 }, 2, "offset 12: expected an effect type below 36, got 36" },
        { 20, &nan_f, 4, "offset 20: expected position: a finite number" },
        { 36, &big, 4, "offset 36: expected direction: a finite number within 1e7, got 1e+09" },
        { 64, (const uint16_t[]){ 3 }, 2, "offset 64: expected a generation type 0..2, got 3" },
        { 74, "\x01", 1, "offset 74: expected a printable sound name, got byte 0x01" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(c, d, size);
        memcpy(c + bad[i].at, bad[i].v, bad[i].n);
        char err[256] = "";
        fsspot_t *s = fsspot_load(c, size, "arena.fx", err, sizeof err);
        printf("%s\n", err);
        assert_null(s);
        if (!strstr(err, "arena.fx: offset ") || !strstr(err, bad[i].want))
            fail_msg("'%s' lacks '%s'", err, bad[i].want);
    }
    // a name of 128 characters or more: no NUL within the game's buffer
    uint8_t *l = calloc(1, 12 + 72 + 200);
    memcpy(l, d, 12);
    memcpy(l + 8, (const int32_t[]){ 1 }, 4);
    memcpy(l + 12, d + 12, 62);
    memset(l + 74, 'a', 150);
    char err[256] = "";
    assert_null(fsspot_load(l, 12 + 72 + 200, "long.fx", err, sizeof err));
    printf("%s\n", err);
    assert_non_null(strstr(err, "long.fx: offset 74: expected a NUL-terminated sound name of at most 127 characters"));
    free(l);
    free(c);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_bad_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
