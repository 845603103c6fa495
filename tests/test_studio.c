// test_studio.c -- GoldSrc studio models: every shipped .mdl, pinned counts and poses, a rendered image, hostile copies
//
// Set DEMOPLAY_MODELS_PNG=dir to also write the rendered test images there.
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "assets/pal.h"
#include "assets/studio.h"
#include "engine/vfs.h"
#include "render/r_studio.h"

// Companion files (sequence groups, textures) from a folder, for the loader.
static uint8_t *dir_file(void *ctx, const char *path, size_t *size)
{
    char full[1024];
    snprintf(full, sizeof full, "%s/%s", (const char *)ctx, path);
    return tu_read(full, size);
}

static int load(studio_t *m, const char *game, const char *rel, const uint8_t *palette, char *err, size_t cap)
{
    char full[1024];
    snprintf(full, sizeof full, "%s/%s", tu_data(game), rel);
    size_t n = 0;
    uint8_t *b = tu_read(full, &n);
    assert_non_null(b);
    asset_files_t files = {dir_file, (void *)tu_data(game)};
    int rc = studio_load(m, b, n, rel, &files, palette, err, cap);
    free(b);
    return rc;
}

// ---- every model ------------------------------------------------------------------

typedef struct {
    int loaded, failed;
} tally_t;

static void walk(const char *root, const char *rel, tally_t *t)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", root, rel);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 4 && strcasecmp(e->d_name + n - 4, ".mdl") == 0) {
            char full[2048];
            snprintf(full, sizeof full, "%s/%s", root, sub);
            size_t size = 0;
            uint8_t *b = tu_read(full, &size);
            assert_non_null(b);
            studio_t m;
            char err[256] = "";
            asset_files_t files = {dir_file, (void *)root};
            if (studio_load(&m, b, size, sub, &files, NULL, err, sizeof err) == 0) {
                t->loaded++;
                // every corner names a vertex and normal of the model
                for (int i = 0; i < m.numcorners; i++) {
                    assert_in_range(m.corners[i].vert, 0, m.numverts - 1);
                    assert_in_range(m.corners[i].norm, 0, m.numnorms - 1);
                }
                studio_free(&m);
            } else {
                // the only files that are not models: sequence-group files ("IDSQ")
                char want[1100];
                snprintf(want, sizeof want, "%s: offset 0: expected magic \"IDST\", found \"IDSQ\"", sub);
                assert_string_equal(err, want);
                t->failed++;
            }
            free(b);
        } else if (e->d_type == DT_DIR) {
            walk(root, sub, t);
        }
    }
    closedir(d);
}

static void test_every_model(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    tally_t valve = {0, 0}, assets = {0, 0};
    walk(tu_data("goldsrc/valve"), "models", &valve);
    walk(tu_data("goldsrc/test_assets"), "models", &assets);
    print_message("valve: %d loaded, %d group files; test_assets: %d loaded\n", valve.loaded, valve.failed,
                  assets.loaded);
    assert_int_equal(valve.loaded, 115);
    assert_int_equal(valve.failed, 10);
    assert_int_equal(assets.loaded, 12);
    assert_int_equal(assets.failed, 0);
}

static void test_pinned_counts(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct {
        const char *name;
        int bones, seqs, groups, textures, parts, verts, corners;
    } pins[] = {
        {"models/scientist.mdl", 22, 128, 8, 0, 3, 760, 4053},     // textures would be in scientistt.mdl (absent)
        {"models/barney.mdl", 24, 71, 4, 26, 2, 472, 2595},        // textures from barneyt.mdl, 3 group files
        {"models/v_9mmhandgun.mdl", 48, 10, 1, 11, 3, 572, 3012},
        {"models/player.mdl", 50, 77, 1, 28, 2, 399, 2199},
        {"models/w_crossbow.mdl", 1, 2, 1, 10, 1, 168, 714},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        studio_t m;
        char err[256] = "";
        assert_int_equal(load(&m, "goldsrc/valve", pins[i].name, NULL, err, sizeof err), 0);
        assert_int_equal(m.numbones, pins[i].bones);
        assert_int_equal(m.numseq, pins[i].seqs);
        assert_int_equal(m.numseqgroups, pins[i].groups);
        for (int g = 0; g < m.numseqgroups; g++)
            assert_int_equal(m.group_loaded[g], 1);
        assert_int_equal(m.numtextures, pins[i].textures);
        assert_int_equal(m.numbodyparts, pins[i].parts);
        assert_int_equal(m.numverts, pins[i].verts);
        assert_int_equal(m.numcorners, pins[i].corners);
        studio_free(&m);
    }
    // without the companion files: barney has no textures and only group 0 animates
    size_t n;
    uint8_t *b = tu_read(tu_data("goldsrc/valve/models/barney.mdl"), &n);
    studio_t m;
    char err[256];
    assert_int_equal(studio_load(&m, b, n, "models/barney.mdl", NULL, NULL, err, sizeof err), 0);
    assert_int_equal(m.numtextures, 0);
    assert_int_equal(m.group_loaded[0], 1);
    assert_int_equal(m.group_loaded[1], 0);
    free(b);
    studio_free(&m);
}

static void test_pose(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    studio_t m;
    char err[256] = "";
    assert_int_equal(load(&m, "goldsrc/valve", "models/scientist.mdl", NULL, err, sizeof err), 0);
    studio_pose_t p;
    assert_int_equal(studio_pose_alloc(&m, &p), 0);
    // sequence 0 ("walk"), frame 5.5: vertex 100 in model space (a foot: the origin is on the floor)
    print_message("seq 0 %s: %d frames at %g fps, flags %d\n", m.seqs[0].label, m.seqs[0].numframes,
                  (double)m.seqs[0].fps, m.seqs[0].flags);
    studio_pose(&m, &p, 0, 5.5f, 0, NULL, 0);
    print_message("vertex 100: %.4f %.4f %.4f\n", (double)p.verts[100][0], (double)p.verts[100][1],
                  (double)p.verts[100][2]);
    float x = p.verts[100][0], y = p.verts[100][1], z = p.verts[100][2];
    assert_true(fabsf(x - 4.3414f) < 0.01f && fabsf(y - -2.4498f) < 0.01f && fabsf(z - 2.0077f) < 0.01f);
    // frames blend: 5.5 lies between 5 and 6
    studio_pose(&m, &p, 0, 5.0f, 0, NULL, 0);
    float a = p.verts[100][2];
    studio_pose(&m, &p, 0, 6.0f, 0, NULL, 0);
    float c = p.verts[100][2];
    assert_true(z >= fminf(a, c) - 0.01f && z <= fmaxf(a, c) + 0.01f);
    // GoldSrc frame selection: loops wrap, others clamp
    assert_true(m.seqs[0].flags & STUDIO_LOOPING);
    float last = (float)(m.seqs[0].numframes - 1);
    float f = studio_frame(&m, 0, 0, 1.0, 1.0f);
    assert_true(fabsf(f - fmodf(m.seqs[0].fps, last)) < 0.001f);
    studio_pose_free(&p);
    studio_free(&m);
}

// ---- rendered image -----------------------------------------------------------------

static uint32_t fnv(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static r_studio_model_t *load_r(vfs_t *fs, const char *name, const uint8_t *palette)
{
    size_t n = 0;
    uint8_t *b = vfs_load(fs, name, &n);
    assert_non_null(b);
    char err[256] = "";
    r_studio_model_t *sm = r_studio_load(b, n, name, fs, palette, err, sizeof err);
    free(b);
    if (!sm)
        fail_msg("%s", err);
    return sm;
}

static void test_render(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    tu_scene_t s;
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);   // a colour palette: Quake's
    vfs_t *fs = vfs_create();
    assert_true(vfs_add_dir(fs, tu_data("goldsrc/valve")) >= 0);
    r_studio_model_t *barney = load_r(fs, "models/barney.mdl", s.palette);
    r_studio_model_t *sci = load_r(fs, "models/scientist.mdl", s.palette);
    r_studio_model_t *gun = load_r(fs, "models/w_crossbow.mdl", s.palette);
    entity_state_t e;
    entity_state_clear(&e);
    e.framerate = 1;
    // barney facing the camera, walking; a scientist turned aside; a crossbow on the floor
    vec3_t org = {110, 25, -36}, ang = {0, 200, 0};
    r_studio_entity(&s.v, barney, org, ang, &e, 0.3, 160);
    vec3_t org2 = {130, -40, -36}, ang2 = {0, 120, 0};
    e.sequence = 13;
    r_studio_entity(&s.v, sci, org2, ang2, &e, 1.0, 160);
    vec3_t org3 = {60, 0, -30}, ang3 = {0, 45, 0};
    e.sequence = 0;
    r_studio_entity(&s.v, gun, org3, ang3, &e, 0, 200);
    int px = 0;
    for (int i = 0; i < s.w * s.h; i++)
        px += s.buf[i] != 0;
    uint32_t sum = fnv(s.buf, (size_t)s.w * s.h);
    print_message("studio scene: %d pixels drawn, checksum %08x\n", px, sum);
    const char *dir = getenv("DEMOPLAY_MODELS_PNG");
    char out[512];
    snprintf(out, sizeof out, "%s/studio_scene.png", dir ? dir : "/tmp");
    tu_scene_write(&s, out);
    // pinned from a viewed image (barney textured, the scientist flat grey: no scientistt.mdl here)
    assert_in_range(px, 6800, 7500);
    tu_golden("studio scene", out, "tests/golden/studio_scene.png", 0.01);
    r_studio_free(barney);
    r_studio_free(sci);
    r_studio_free(gun);
    vfs_free(fs);
    tu_scene_free(&s);
}

// ---- hostile copies ---------------------------------------------------------------------

static void test_hostile(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t n = 0;
    uint8_t *orig = tu_read(tu_data("goldsrc/valve/models/hornet.mdl"), &n);
    assert_non_null(orig);
    studio_t m;
    char err[256];
    // exact messages for a few cuts
    uint8_t *cut = malloc(n);
    memcpy(cut, orig, n);
    assert_int_equal(studio_load(&m, cut, 100, "hornet.mdl", NULL, NULL, err, sizeof err), -1);
    assert_string_equal(err, "hornet.mdl: offset 0: expected a 244-byte studio header, found 100 bytes");
    int failed = 0, loaded = 0;
    // every cut: a clear error, never a crash (an exact-size copy so ASan sees reads past the end)
    for (size_t len = 0; len < n; len += (len < 400 ? 1 : 7)) {
        uint8_t *c = malloc(len ? len : 1);
        memcpy(c, orig, len);
        err[0] = 0;
        if (studio_load(&m, c, len, "hornet.mdl", NULL, NULL, err, sizeof err) == 0) {
            loaded++;
            studio_free(&m);
        } else {
            if (!strstr(err, "hornet.mdl: offset ") || !strstr(err, "expected"))
                fail_msg("cut at %zu: \"%s\"", len, err);
            failed++;
        }
        free(c);
    }
    assert_true(failed > 100);
    // byte flips: each byte xor 0xff, then posed in every sequence
    uint32_t rng = 12345;
    for (size_t i = 0; i < n; i += 3) {
        uint8_t *c = malloc(n);
        memcpy(c, orig, n);
        c[i] ^= 0xFF;
        rng = rng * 1103515245u + 12345u;
        c[(rng >> 8) % n] = (uint8_t)(rng >> 16);
        err[0] = 0;
        if (studio_load(&m, c, n, "hornet.mdl", NULL, NULL, err, sizeof err) == 0) {
            studio_pose_t p;
            assert_int_equal(studio_pose_alloc(&m, &p), 0);
            for (int s = 0; s < m.numseq; s++)
                for (int b = 0; b < 2; b++)
                    studio_pose(&m, &p, s, (float)(m.seqs[s].numframes) * 0.7f, 255.0f * b, NULL, b);
            studio_pose_free(&p);
            studio_free(&m);
        } else if (!strstr(err, "hornet.mdl: offset ") || !strstr(err, "expected")) {
            fail_msg("flip at %zu: \"%s\"", i, err);
        }
        free(c);
    }
    print_message("hostile: %d cuts failed, %d loaded\n", failed, loaded);
    free(cut);
    free(orig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_model),
        cmocka_unit_test(test_pinned_counts),
        cmocka_unit_test(test_pose),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
