// test_forsaken_level.c -- Forsaken levels (.MXV): every level loads, pinned counts, textures
// and palette, a golden image, truncated and corrupted files
//
// FS_LEVEL_SHOTS=DIR also writes DIR/<level>.png (640x400) of every level seen from
// its first start position (Levels/NAME/NAME.STP), to look at.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

#include "assets/mxv.h"
#include "assets/pal.h"
#include "formats/forsaken.h"
#include "render/r_fsworld.h"

static const char *const levels[] = { "alpha", "arena", "fourball", "midpand", "pandora",
                                      "ship", "smalls", "therm", "tunnels", "tworooms" };
#define NUM_LEVELS (int)(sizeof levels / sizeof levels[0])

// Files under the Forsaken data folder, names matched ignoring case (the data mixes both).
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

static uint8_t *level_bytes(const char *level, size_t *size, char *map, size_t mapcap)
{
    snprintf(map, mapcap, "levels/%s/%s.mxv", level, level);
    return fs_file(NULL, map, size);
}

static r_fsworld_t *load_level(const char *level)
{
    size_t size;
    char map[128], err[256] = "";
    uint8_t *d = level_bytes(level, &size, map, sizeof map);
    assert_non_null(d);
    asset_files_t files = { fs_file, NULL };
    r_fsworld_t *fw = r_fsworld_from_bytes(d, size, map, &files, err, sizeof err);
    if (!fw)
        fail_msg("%s", err);
    free(d);
    return fw;
}

// First start position: "PRJX", u32 version, u16 count, 40-byte records
// (f32 position[3], direction[3], up[3], u32 group).
static int start_pos(const char *level, float org[3], float ang[3])
{
    char path[128];
    snprintf(path, sizeof path, "levels/%s/%s.stp", level, level);
    size_t size;
    uint8_t *d = fs_file(NULL, path, &size);
    if (!d || size < 10 + 40 || memcmp(d, "PRJX", 4)) {
        free(d);
        return -1;
    }
    float f[9];
    memcpy(f, d + 10, sizeof f);
    free(d);
    memcpy(org, f, 12);
    ang[0] = (float)(asin(-f[4]) * 180 / M_PI);
    ang[1] = (float)(atan2(f[3], f[5]) * 180 / M_PI);
    ang[2] = 0;
    return 0;
}

typedef struct {
    int w, h;
    uint8_t *px;
    float *z;
    pal_t pal;
} shot_t;

static int render(r_fsworld_t *fw, shot_t *s, int w, int h, const float org[3], const float ang[3])
{
    s->w = w;
    s->h = h;
    s->px = calloc((size_t)w * (size_t)h, 1);
    s->z = calloc((size_t)w * (size_t)h, sizeof(float));
    pal_set(&s->pal, r_fsworld_palette(fw), 256);
    r_view_t v = { 0 };
    v.buffer = s->px;
    v.zbuffer = s->z;
    v.width = v.rowbytes = w;
    v.height = h;
    memcpy(v.vieworg, org, 12);
    r_fs_angle_vectors(ang, v.vpn, v.vright, v.vup);
    v.xcenter = w / 2.0f;
    v.ycenter = h / 2.0f;
    v.xscale = w / 2.0f;                           // 90 degrees across
    v.yscale = v.xscale * (h * 4.0f) / (w * 3.0f);   // a 4:3 screen
    v.colormap = s->pal.colormap;
    v.palette = s->pal.palette;
    v.fullbright_start = 256;
    return r_fsworld_draw(fw, &v);
}

static void write_png(const shot_t *s, const char *path)
{
    uint8_t *rgb = malloc((size_t)s->w * (size_t)s->h * 3);
    for (int i = 0; i < s->w * s->h; i++)
        memcpy(rgb + i * 3, s->pal.palette + s->px[i] * 3, 3);
    assert_true(stbi_write_png(path, s->w, s->h, 3, rgb, s->w * 3) != 0);
    free(rgb);
}

static void shot_free(shot_t *s)
{
    free(s->px);
    free(s->z);
}

static void test_every_level_loads(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *dir = getenv("FS_LEVEL_SHOTS");
    for (int i = 0; i < NUM_LEVELS; i++) {
        r_fsworld_t *fw = load_level(levels[i]);
        const mxv_t *m = r_fsworld_mesh(fw);
        assert_int_equal(m->version, 3);
        assert_true(m->num_groups > 0 && m->num_tris > 0 && m->num_verts > 0);
        // Every texture the levels name is in the data (midpand's and therm's default.bmp
        // in the shared Data/Textures).
        assert_int_equal(m->textures_missing, 0);
        float org[3], ang[3];
        assert_int_equal(start_pos(levels[i], org, ang), 0);
        shot_t s;
        int drawn = render(fw, &s, 320, 200, org, ang);
        // From inside a level something is always in view, and it covers the screen.
        int empty = 0;
        for (int k = 0; k < 320 * 200; k++)
            empty += s.z[k] == 0;
        if (drawn < 20 || empty > 320 * 200 / 50)
            fail_msg("%s: %d triangles drawn, %d pixels empty", levels[i], drawn, empty);
        shot_free(&s);
        if (dir) {
            render(fw, &s, 640, 400, org, ang);
            char path[512];
            snprintf(path, sizeof path, "%s/%s.png", dir, levels[i]);
            write_png(&s, path);
            shot_free(&s);
        }
        r_fsworld_free(fw);
    }
}

static void test_pinned_counts(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    r_fsworld_t *fw = load_level("ship");
    const mxv_t *m = r_fsworld_mesh(fw);
    assert_int_equal(m->num_textures, 4);
    assert_string_equal(m->textures[0].name, "spacea.bmp");
    assert_string_equal(m->textures[3].name, "spaceb.bmp");
    assert_int_equal(m->num_groups, 19);
    assert_int_equal(m->num_buffers, 20);
    assert_int_equal(m->num_verts, 4536);
    assert_int_equal(m->num_tris, 2982);
    assert_int_equal(m->mesh_end, 0x32236);
    assert_int_equal(m->buffers[4].flags, 1);   // group 3's second buffer: type 0x101c0
    assert_int_equal(m->buffers[3].flags, 0);
    assert_int_equal(m->groups[3].num_buffers, 2);
    // The first vertex: position, colour ARGB 0xff232323, texture coordinates.
    assert_true(fabsf(m->verts[0].pos[2] - 3840.0f) < 1e-3f);
    assert_int_equal(m->verts[0].r, 0x23);
    assert_int_equal(m->verts[1].r, 0xff);
    assert_int_equal(m->verts[1].g, 0x3d);
    assert_int_equal(m->verts[1].light, 0xff);
    assert_true(m->verts[0].st[0] == 0.875f && m->verts[0].st[1] == 0.875f);
    assert_int_equal(m->tris[1].v[0], 0);
    assert_int_equal(m->tris[1].v[2], 3);
    assert_int_equal(m->textures[0].width, 256);
    assert_int_equal(m->textures[0].height, 256);
    r_fsworld_free(fw);

    fw = load_level("tworooms");
    m = r_fsworld_mesh(fw);
    assert_int_equal(m->num_textures, 4);
    assert_int_equal(m->num_groups, 16);
    assert_int_equal(m->num_verts, 3284);
    assert_int_equal(m->num_tris, 2596);
    assert_string_equal(m->textures[2].name, "bioa.bmp");
    assert_int_equal(m->textures[2].height, 128);   // BIOA.BMP is 256x128
    r_fsworld_free(fw);
}

static void test_golden(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    r_fsworld_t *fw = load_level("ship");
    float org[3], ang[3];
    assert_int_equal(start_pos("ship", org, ang), 0);
    ang[0] = 10;   // a little down and banked: roll and pitch in the picture
    ang[2] = 15;
    shot_t s;
    render(fw, &s, 320, 200, org, ang);
    write_png(&s, "build/fs_ship_start.png");
    tu_golden("forsaken ship start", "build/fs_ship_start.png", "tests/golden/fs_ship_start.png", 0.002);
    shot_free(&s);
    r_fsworld_free(fw);
}

static void check_bad(const uint8_t *d, size_t size, const char *what)
{
    char err[256] = "";
    mxv_t *m = mxv_load(d, size, "bad.mxv", err, sizeof err);
    if (m) {
        mxv_load_textures(m, NULL, "levels/bad");
        mxv_free(m);
        return;
    }
    if (!strstr(err, "bad.mxv: offset ") || !strstr(err, ": expected "))
        fail_msg("%s: message \"%s\"", what, err);
    // And the drawer must cope with whatever loads.
    r_fsworld_free(r_fsworld_from_bytes(d, size, "levels/bad/bad.mxv", NULL, err, sizeof err));
}

static void test_bad_bytes(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    char map[128];
    uint8_t *d = level_bytes("ship", &size, map, sizeof map);
    assert_non_null(d);
    char err[256];
    // Every cut inside the meshes fails with the offset of what is missing.
    size_t cuts[] = { 0, 3, 9, 20, 54, 0x3e, 0x40, 0x1000, 0xb8c, 0x32235 };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        uint8_t *c = malloc(cuts[i] ? cuts[i] : 1);
        memcpy(c, d, cuts[i]);
        assert_null(mxv_load(c, cuts[i], "cut.mxv", err, sizeof err));
        assert_non_null(strstr(err, "cut.mxv: offset "));
        free(c);
    }
    assert_null(mxv_load(d, 0x100, "cut.mxv", err, sizeof err));
    assert_string_equal(err, "cut.mxv: offset 64: expected 90 vertices (2880 bytes), file has 192 left");
    assert_null(mxv_load(d, 0x1000, "cut.mxv", err, sizeof err));
    assert_string_equal(err, "cut.mxv: offset 4086: expected 28 triangles (560 bytes), file has 10 left");
    // Portals are not decoded: a cut there still loads.
    mxv_t *m = mxv_load(d, 0x32236, "cut.mxv", err, sizeof err);
    assert_non_null(m);
    mxv_free(m);
    uint8_t bad[16] = "PRJX\4\0\0\0";
    assert_null(mxv_load(bad, sizeof bad, "v.mxv", err, sizeof err));
    assert_string_equal(err, "v.mxv: offset 4: expected version 3, got 4");
    // A texture number past the list.
    uint8_t *c = malloc(size);
    memcpy(c, d, size);
    c[0xb80 + 2 + 6] = 9;
    assert_null(mxv_load(c, size, "t.mxv", err, sizeof err));
    assert_string_equal(err, "t.mxv: offset 2952: expected a texture number below 4, got 9");
    // Byte flips over the headers and a stride through the rest: fail cleanly or load.
    for (size_t at = 0; at < size; at += at < 0x1300 ? 1 : 97) {
        uint8_t keep = c[at];
        memcpy(c, d, size);
        for (int f = 0; f < 2; f++) {
            c[at] = f ? (uint8_t)~keep : 0xff;
            check_bad(c, size, "flip");
        }
        c[at] = d[at];
    }
    free(c);
    free(d);
}

static void test_bmp(void **state)
{
    (void)state;
    char err[256];
    uint8_t bmp[54 + 1024 + 8] = "BM";
    bmp[10] = 0x36;   // pixels at 1078
    bmp[11] = 0x04;
    bmp[14] = 40;
    bmp[18] = 2;   // 2 x -2: top row first
    bmp[22] = 0xfe;
    bmp[23] = bmp[24] = bmp[25] = 0xff;
    bmp[28] = 8;
    bmp[54 + 4 * 7 + 2] = 200;   // colour 7 red (stored blue, green, red)
    uint8_t rows[8] = { 7, 1, 0, 0, 2, 3, 0, 0 };
    memcpy(bmp + 54 + 1024, rows, 8);
    int w, h;
    uint8_t *px, pal[768];
    assert_int_equal(mxv_bmp_load(bmp, sizeof bmp, 64, &w, &h, &px, pal, err, sizeof err), 0);
    assert_int_equal(w, 2);
    assert_int_equal(h, 2);
    assert_int_equal(px[0], 7);
    assert_int_equal(px[3], 3);
    assert_int_equal(pal[21], 200);
    free(px);
    assert_int_equal(mxv_bmp_load(bmp, sizeof bmp - 1, 64, &w, &h, &px, pal, err, sizeof err), -1);
    assert_string_equal(err, "offset 10: expected 2 rows of 4 bytes from offset 1078 inside the 1085-byte file");
    bmp[28] = 24;
    assert_int_equal(mxv_bmp_load(bmp, sizeof bmp, 64, &w, &h, &px, pal, err, sizeof err), -1);
    assert_string_equal(err, "offset 28: expected 8 bits a pixel, uncompressed, got 24 bits, compression 0");
}

// The fuzzing seed tests/corpus/mxv/quad_tex.mxv: a 128-unit square 256 ahead, its
// texture a.bmp (the 4x2 BMP appended to it, served as every texture file).
static uint8_t *tail_bmp(void *ctx, const char *path, size_t *size)
{
    (void)path;
    size_t n;
    uint8_t *d = tu_read("tests/corpus/mxv/quad_tex.mxv", &n);
    assert_non_null(d);
    *size = 1086;
    memmove(d, d + n - 1086, 1086);
    (void)ctx;
    return d;
}

static void test_synthetic_quad(void **state)
{
    (void)state;
    size_t n;
    uint8_t *d = tu_read("tests/corpus/mxv/quad_tex.mxv", &n);
    assert_non_null(d);
    char err[256] = "";
    asset_files_t files = { tail_bmp, NULL };
    r_fsworld_t *fw = r_fsworld_from_bytes(d, 206, "levels/q/q.mxv", &files, err, sizeof err);
    assert_non_null(fw);
    const mxv_t *m = r_fsworld_mesh(fw);
    assert_int_equal(m->num_verts, 4);
    assert_int_equal(m->num_tris, 2);
    assert_int_equal(m->textures_missing, 0);
    assert_int_equal(m->textures[0].width, 4);
    float org[3] = { 0, 0, 0 }, ang[3] = { 0, 0, 0 };
    shot_t s;
    assert_int_equal(render(fw, &s, 64, 64, org, ang), 2);
    // +-64 units at 256 ahead: +-8 columns (32 pixels per unit at z = 1) and +-10.7 rows
    // (42.7 at 4:3), rows 21..42 by pixel centres.
    int covered = 0;
    for (int k = 0; k < 64 * 64; k++)
        covered += s.z[k] != 0;
    assert_int_equal(covered, 16 * 22);
    assert_true(fabsf(s.z[32 * 64 + 32] - 1.0f / 256) < 1e-6f);
    // Looking back, the square faces away: culled.
    ang[1] = 180;
    shot_free(&s);
    assert_int_equal(render(fw, &s, 64, 64, org, ang), 0);
    shot_free(&s);
    r_fsworld_free(fw);
    free(d);
}

// The camera the renderer builds from the decoder's angles is the ship's own
// frame: the quaternion's images of z (forward), x (right) and y (up), roll included.
static void test_view_vectors(void **state)
{
    (void)state;
    const float quats[][4] = { { 1, 0, 0, 0 }, { 0.9f, 0.1f, -0.3f, 0.2f }, { 0.2f, 0.7f, 0.1f, -0.6f }, { 0.5f, -0.5f, 0.5f, 0.5f } };
    const float banks[] = { 0, 20, -75, 5 };
    for (int i = 0; i < 4; i++) {
        double w = quats[i][0], x = quats[i][1], y = quats[i][2], z = quats[i][3];
        double len = sqrt(w * w + x * x + y * y + z * z);
        w /= len, x /= len, y /= len, z /= len;
        // the bank turns about the ship's forward axis after the quaternion
        double h = banks[i] * M_PI / 360, bw = cos(h), bz = sin(h);
        double qw = w * bw - z * bz, qx = x * bw + y * bz, qy = y * bw - x * bz, qz = z * bw + w * bz;
        w = qw, x = qx, y = qy, z = qz;
        double fwd[3] = { 2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y) };
        double right[3] = { 1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y) };
        double up[3] = { 2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x) };
        float ang[3], f[3], r[3], u[3];
        fs_quat_to_angles(quats[i], banks[i], ang);
        r_fs_angle_vectors(ang, f, r, u);
        for (int k = 0; k < 3; k++) {
            if (fabs(f[k] - fwd[k]) > 1e-4 || fabs(r[k] - right[k]) > 1e-4 || fabs(u[k] - up[k]) > 1e-4)
                fail_msg("quat %d axis %d: forward %g/%g right %g/%g up %g/%g", i, k, f[k], fwd[k], r[k], right[k], u[k], up[k]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_level_loads),
        cmocka_unit_test(test_pinned_counts),
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_bad_bytes),
        cmocka_unit_test(test_bmp),
        cmocka_unit_test(test_view_vectors),
        cmocka_unit_test(test_synthetic_quad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
