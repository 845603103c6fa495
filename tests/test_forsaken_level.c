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
#include "formats/forsaken_write.h"
#include "render/r_fsworld.h"
#include "fs_data.h"

static const char *const levels[] = { "alpha", "arena", "fourball", "midpand", "pandora",
                                      "ship", "smalls", "therm", "tunnels", "tworooms" };
#define NUM_LEVELS (int)(sizeof levels / sizeof levels[0])

static int start_positions(const char *level, float (*org)[3], float (*ang)[3], int *group, int max)
{
    char path[128];
    snprintf(path, sizeof path, "levels/%s/%s.stp", level, level);
    size_t size;
    uint8_t *d = fs_file(NULL, path, &size);
    if (!d || size < 10 || memcmp(d, "PRJX", 4)) {
        free(d);
        return -1;
    }
    int n = d[8] | d[9] << 8;
    if (n > max)
        n = max;
    for (int i = 0; i < n && 10 + (size_t)(i + 1) * 40 <= size; i++) {
        float f[9];
        uint32_t g;
        memcpy(f, d + 10 + i * 40, sizeof f);
        memcpy(&g, d + 10 + i * 40 + 36, 4);
        memcpy(org[i], f, 12);
        ang[i][0] = (float)(asin(-f[4]) * 180 / M_PI);
        ang[i][1] = (float)(atan2(f[3], f[5]) * 180 / M_PI);
        ang[i][2] = 0;
        group[i] = (int)g;
    }
    free(d);
    return n;
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
    // The level's colormap and see-through table take ~30 ms to compute: once a palette.
    static pal_t cache;
    static int cached;
    if (!cached || memcmp(cache.palette, r_fsworld_palette(fw), 768) != 0) {
        pal_set(&cache, r_fsworld_palette(fw), 256);
        cached = 1;
    }
    s->pal = cache;
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
        r_fsworld_t *fw = fs_load_level(levels[i]);
        const mxv_t *m = r_fsworld_mesh(fw);
        assert_int_equal(m->version, 3);
        assert_true(m->num_groups > 0 && m->num_tris > 0 && m->num_verts > 0);
        // Every texture the levels name is in the data (midpand's and therm's default.bmp
        // in the shared Data/Textures).
        assert_int_equal(m->textures_missing, 0);
        float org[3], ang[3];
        assert_int_equal(fs_start_pos(levels[i], org, ang), 0);
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
    r_fsworld_t *fw = fs_load_level("ship");
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
    // The portal section (docs/forsaken.md): names, boxes, 42 portals, 50 tree nodes.
    assert_int_equal(m->has_portals, 1);
    assert_string_equal(m->portal_warning, "");
    assert_int_equal(m->num_portals, 42);
    assert_int_equal(m->num_vis, 42 + 50);   // a root per portal, 50 below them
    assert_int_equal(m->portal_end, 213457);
    assert_string_equal(m->groups[0].name, "Basement tunnel");
    assert_string_equal(m->groups[5].name, "Bridge");
    assert_true(fabsf(m->groups[3].center[1] + 4091.215f) < 0.01f && fabsf(m->groups[3].half_size[2] - 1152) < 0.01f);
    assert_int_equal(m->groups[0].num_portals, 2);
    const mxv_portal_t *p0 = &m->portals[m->groups[0].first_portal];
    assert_int_equal(p0->num_verts, 4);
    assert_true(p0->has_plane && p0->plane[0] == -1 && fabsf(p0->plane[3] - 1039.13f) < 0.01f);
    // Group 0's first portal leads to group 2 (crossways), from which portals 3, 2, 1
    // show groups 14, 13 and 1.
    const mxv_visnode_t *root = &m->vis[p0->root];
    assert_int_equal(root->group, 2);
    int kids[3], nk = 0;
    for (int c = root->first_child; c >= 0 && nk < 3; c = m->vis[c].next_sibling)
        kids[nk++] = m->vis[c].group;
    assert_int_equal(nk, 3);
    assert_int_equal(kids[0], 14);
    assert_int_equal(kids[1], 13);
    assert_int_equal(kids[2], 1);
    assert_int_equal(m->vis[root->first_child].portal, m->groups[2].first_portal + 3);
    // Every level has its portals.
    for (int i = 0; i < NUM_LEVELS; i++) {
        r_fsworld_t *f = fs_load_level(levels[i]);
        assert_int_equal(r_fsworld_mesh(f)->has_portals, 1);
        r_fsworld_free(f);
    }
    r_fsworld_free(fw);

    fw = fs_load_level("tworooms");
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
    r_fsworld_t *fw = fs_load_level("ship");
    float org[3], ang[3];
    assert_int_equal(fs_start_pos("ship", org, ang), 0);
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
    uint8_t *d = fs_level_bytes("ship", &size, map, sizeof map);
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
    // A file ending with its meshes has no portals (every group drawn), silently.
    mxv_t *m = mxv_load(d, 0x32236, "cut.mxv", err, sizeof err);
    assert_non_null(m);
    assert_int_equal(m->has_portals, 0);
    assert_string_equal(m->portal_warning, "");
    mxv_free(m);
    // A bad portal section does not fail the level: it is drawn whole, with a warning.
    m = mxv_load(d, 213000, "cut.mxv", err, sizeof err);
    assert_non_null(m);
    assert_int_equal(m->has_portals, 0);
    assert_int_equal(m->num_portals, 0);
    assert_int_equal(m->groups[0].num_portals, 0);
    assert_string_equal(m->groups[0].name, "");
    assert_string_equal(m->portal_warning, "cut.mxv: offset 212999: expected a portal number (2 bytes), file has 1 left");
    mxv_free(m);
    struct {
        size_t at;
        uint8_t value;
        const char *warning;
    } pbad[] = {
        { 205366, 3, "p.mxv: offset 205366: expected portal section format 0 or 2, got 3" },
        { 205408, 65, "p.mxv: offset 205408: expected at most 64 portals in group 0, got 65" },
        { 212989, 19, "p.mxv: offset 212989: expected a group below 19, got 19" },
        { 212993, 9, "p.mxv: offset 212993: expected a portal of group 2 below 4, got 9" },
    };
    for (size_t i = 0; i < sizeof pbad / sizeof pbad[0]; i++) {
        uint8_t *c = malloc(size);
        memcpy(c, d, size);
        c[pbad[i].at] = pbad[i].value;
        m = mxv_load(c, size, "p.mxv", err, sizeof err);
        assert_non_null(m);
        assert_int_equal(m->has_portals, 0);
        assert_string_equal(m->portal_warning, pbad[i].warning);
        mxv_free(m);
        free(c);
    }
    // Byte flips through the portal section: loaded with or without portals, and drawn
    // from every group's middle without harm (the ASan build checks the reads).
    for (size_t at = 205366; at < 213457; at += 13) {
        uint8_t *c = malloc(size);
        memcpy(c, d, size);
        c[at] = (uint8_t)~c[at];
        r_fsworld_t *fw = r_fsworld_from_bytes(c, size, "levels/bad/bad.mxv", NULL, err, sizeof err);
        assert_non_null(fw);
        const mxv_t *fm = r_fsworld_mesh(fw);
        for (int g = 0; g < fm->num_groups; g += 3) {
            float o[3], a[3] = { 0, (float)(g * 40), 0 };
            for (int k = 0; k < 3; k++)
                o[k] = (fm->groups[g].mins[k] + fm->groups[g].maxs[k]) / 2;
            shot_t s;
            render(fw, &s, 32, 20, o, a);
            shot_free(&s);
        }
        r_fsworld_free(fw);
        free(c);
    }
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
    assert_string_equal(err, "offset 28: expected 8 bits a pixel, uncompressed or RLE8, got 24 bits, compression 0");
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
    // The fuzzing seed quad_portal.mxv: the same square, then a portal section (group
    // "quad", box 0,0,256 +- 512, a 128-unit portal at z 300 facing the eye, leading back to
    // group 0 with one child), then the texture.
    d = tu_read("tests/corpus/mxv/quad_portal.mxv", &n);
    assert_non_null(d);
    fw = r_fsworld_from_bytes(d, n, "levels/q/q.mxv", &files, err, sizeof err);
    assert_non_null(fw);
    m = r_fsworld_mesh(fw);
    assert_string_equal(m->portal_warning, "");
    assert_int_equal(m->has_portals, 1);
    assert_string_equal(m->groups[0].name, "quad");
    assert_int_equal(m->num_portals, 1);
    assert_int_equal(m->num_vis, 2);
    assert_int_equal(m->portal_end, 206 + 147);
    ang[1] = 0;
    assert_int_equal(render(fw, &s, 64, 64, org, ang), 2);
    assert_int_equal(r_fsworld_stats(fw).eye_groups, 1);
    assert_int_equal(r_fsworld_stats(fw).groups_visible, 1);
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

// Culling never leaves a hole: from 16 start positions of every level, looking six ways,
// every pixel the whole level covers is covered with culling too. Where groups do not
// overlap in space the pictures are the same; where they do (tworooms' two rooms in one
// place, fourball, midpand, pandora, therm), the groups not seen through the portals no
// longer cover the view, as in the game. FS_CULL_SHOTS=DIR writes both pictures of every
// view that differs.
static void test_culling_keeps_pixels(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *dir = getenv("FS_CULL_SHOTS");
    long total_all = 0, total_cull = 0, views = 0;
    for (int li = 0; li < NUM_LEVELS; li++) {
        r_fsworld_t *fw = fs_load_level(levels[li]);
        float org[16][3], ang[16][3];
        int grp[16];
        int n = start_positions(levels[li], org, ang, grp, 16);
        assert_true(n > 0);
        long lall = 0, lcull = 0, diff = 0, cracks = 0, tholes = 0;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 6; k++) {
                float a[3] = { k == 4 ? -60.0f : k == 5 ? 60.0f : 0, ang[i][1] + k * 90.0f, 0 };
                shot_t s0, s1, st;
                // the colour key's holes show what each culling draws behind them: compared without
                r_fsworld_set_colour_key(fw, 0);
                r_fsworld_set_culling(fw, R_FS_CULL_NONE);
                lall += render(fw, &s0, 160, 100, org[i], a);
                r_fsworld_set_culling(fw, R_FS_CULL_TREE);
                render(fw, &st, 160, 100, org[i], a);
                r_fsworld_set_culling(fw, R_FS_CULL_PORTALS);
                lcull += render(fw, &s1, 160, 100, org[i], a);
                int d = 0, holes = 0;
                for (int p = 0; p < 160 * 100; p++) {
                    d += s0.px[p] != s1.px[p];

                    // Empty with culling, covered without. A lone pixel whose four neighbours are
                    // covered is a crack between two of the level's own triangles (arena has one
                    // at 905 units), through which the whole level shows a group behind.
                    int x = p % 160, y = p / 160;
                    int crack = x > 0 && x < 159 && y > 0 && y < 99 && s1.z[p - 1] > 0 && s1.z[p + 1] > 0 &&
                                s1.z[p - 160] > 0 && s1.z[p + 160] > 0;
                    holes += s0.z[p] > 0 && s1.z[p] == 0 && !crack;
                    tholes += st.z[p] > 0 && s1.z[p] == 0 && !crack;
                    cracks += s0.z[p] > 0 && s1.z[p] == 0 && crack;
                }
                if (holes)
                    fail_msg("%s start %d view %d: %d pixels left empty by culling", levels[li], i, k, holes);
                if (d && dir) {
                    char path[512];
                    snprintf(path, sizeof path, "%s/%s_%d_%d_all.png", dir, levels[li], i, k);
                    write_png(&s0, path);
                    snprintf(path, sizeof path, "%s/%s_%d_%d_culled.png", dir, levels[li], i, k);
                    write_png(&s1, path);
                }
                diff += d;
                shot_free(&s0);
                shot_free(&s1);
                shot_free(&st);
                views++;
            }
        printf("%s: %2d starts x 6 views, triangles drawn %ld -> %ld, %ld pixels differ (%ld in cracks)\n", levels[li], n,
               lall, lcull, diff, cracks);
        // Levels whose groups do not overlap: the same pictures but for the cracks.
        if (!strcmp(levels[li], "ship") || !strcmp(levels[li], "alpha") || !strcmp(levels[li], "arena") ||
            !strcmp(levels[li], "smalls") || !strcmp(levels[li], "tunnels"))
            assert_int_equal(diff, cracks);
        assert_int_equal(tholes, 0);   // nothing the level's trees draw is lost by the screen tests
        assert_true(lcull < lall);
        total_all += lall;
        total_cull += lcull;
        r_fsworld_free(fw);
    }
    printf("all levels: %ld views, triangles drawn per view %.0f without culling, %.0f with\n", views,
           (double)total_all / views, (double)total_cull / views);
}

// ---- a synthetic demo flying through a level --------------------------------------

typedef struct {
    float (*pts)[3];
    int *grp;
    int n, cap;
} route_t;

static void route_add(route_t *r, const float p[3], int group)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->pts = realloc(r->pts, (size_t)r->cap * sizeof(*r->pts));
        r->grp = realloc(r->grp, (size_t)r->cap * sizeof(int));
        assert_non_null(r->pts);
        assert_non_null(r->grp);
    }
    memcpy(r->pts[r->n], p, 12);
    r->grp[r->n++] = group;
}

// Depth first through the portals: to each portal's middle, 96 units on into the next
// group, its own portals, and back out the same way.
static void route_group(const mxv_t *m, int g, uint8_t *seen, route_t *r)
{
    seen[g] = 1;
    const mxv_group_t *gr = &m->groups[g];
    for (int p = gr->first_portal; p < gr->first_portal + gr->num_portals; p++) {
        const mxv_portal_t *po = &m->portals[p];
        int h = m->vis[po->root].group;
        if (seen[h] || po->num_verts == 0)
            continue;
        float c[3] = { 0, 0, 0 };
        for (int i = 0; i < po->num_verts; i++)
            for (int k = 0; k < 3; k++)
                c[k] += m->portal_verts[po->first_vert + i][k] / (float)po->num_verts;
        float in[3], out[3];   // the plane's normal points into g
        for (int k = 0; k < 3; k++) {
            in[k] = c[k] - po->plane[k] * 96;
            out[k] = c[k] + po->plane[k] * 96;
        }
        route_add(r, out, g);
        route_add(r, in, h);
        route_group(m, h, seen, r);
        route_add(r, in, h);
        route_add(r, out, g);
    }
}

// The demo: one pilot (the recorder) flying the route at 800 units a second, facing where
// it goes, an update 15 times a second. Returns the number of updates; *route the path.
static int write_fly_demo(const char *level, const char *path, route_t *route)
{
    r_fsworld_t *fw = fs_load_level(level);
    const mxv_t *m = r_fsworld_mesh(fw);
    float org[1][3], ang[1][3];
    int grp[1];
    assert_int_equal(start_positions(level, org, ang, grp, 1), 1);
    uint8_t *seen = calloc((size_t)m->num_groups, 1);
    memset(route, 0, sizeof(*route));
    route_add(route, org[0], grp[0]);
    route_group(m, grp[0], seen, route);
    free(seen);
    r_fsworld_free(fw);

    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof(h));
    h.version = 0x0109;
    snprintf(h.level, sizeof h.level, "%s", level);
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "flyer" });
    double t = 0.1, speed = 800, dt = 1.0 / 15;
    int updates = 0;
    float yaw = ang[0][1], pitch = 0;
    for (int i = 0; i + 1 < route->n; i++) {
        const float *a = route->pts[i], *b = route->pts[i + 1];
        float d[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (len < 1)
            continue;
        yaw = (float)(atan2(d[0], d[2]) * 180 / M_PI);
        pitch = (float)(asin(-d[1] / len) * 180 / M_PI);
        int steps = (int)ceil(len / (speed * dt));
        for (int k = 0; k < steps; k++, t += dt) {
            fs_ship_t sh;
            memset(&sh, 0, sizeof sh);
            sh.flags = FS_SHIP_ENABLE;
            sh.group = (uint8_t)route->grp[i + (k * 2 >= steps)];
            for (int c = 0; c < 3; c++) {
                sh.pos[c] = a[c] + d[c] * (float)k / (float)steps;
                sh.vel[c] = d[c] / len * (float)speed / 60;
            }
            float an[3] = { pitch, yaw, 0 };
            fs_angles_to_quat(an, sh.quat);
            fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &sh);
            updates++;
        }
    }
    assert_false(wr.failed);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(wr.data, 1, wr.size, f), wr.size);
    fclose(f);
    fs_writer_free(&wr);
    return updates;
}

// build/fs_ship_fly.dmo flies through every group of ship (for timedemo and callgrind).
// At every point of its route (96 units into a group from a portal), looking along it and
// back (half way between two points the eye may be in a wall: not checked), the game's
// culling leaves no pixel empty that the groups of the eye's trees cover (R_FS_CULL_TREE:
// the level's own visibility data; what those trees leave out, the game did not draw:
// from the rec room, ship's tree holds the shaft but not the crossways above it), and
// draws fewer than half the triangles of the whole level.
static void test_fly_demo(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    route_t r;
    int updates = write_fly_demo("ship", "build/fs_ship_fly.dmo", &r);
    assert_true(r.n > 2 * 18);   // into each of the other 18 groups and back
    printf("ship fly demo: %d route points, %d updates\n", r.n, updates);
    r_fsworld_t *fw = fs_load_level("ship");
    long all = 0, cull = 0, tree_holes = 0;
    for (int i = 0; i + 1 < r.n; i++) {
        float d[3];
        for (int k = 0; k < 3; k++)
            d[k] = r.pts[i + 1][k] - r.pts[i][k];
        for (int e = 0; e < 2; e++) {   // along the route, and back
            float sgn = e ? -1.0f : 1.0f;
            float a[3] = { (float)(atan2(-d[1] * sgn, sqrt(d[0] * d[0] + d[2] * d[2])) * 180 / M_PI),
                           (float)(atan2(d[0] * sgn, d[2] * sgn) * 180 / M_PI), 0 };
            shot_t s0, s1, s2;
            r_fsworld_set_culling(fw, R_FS_CULL_NONE);
            all += render(fw, &s2, 160, 100, r.pts[i], a);
            r_fsworld_set_culling(fw, R_FS_CULL_TREE);
            render(fw, &s0, 160, 100, r.pts[i], a);
            r_fsworld_set_culling(fw, R_FS_CULL_PORTALS);
            cull += render(fw, &s1, 160, 100, r.pts[i], a);
            int holes = 0;
            for (int p = 0; p < 160 * 100; p++) {
                holes += s0.z[p] > 0 && s1.z[p] == 0;
                tree_holes += s2.z[p] > 0 && s0.z[p] == 0;
            }
            shot_free(&s2);
            if (holes)
                fail_msg("route point %d (%g %g %g) looking %s: %d pixels left empty by culling", i, r.pts[i][0],
                         r.pts[i][1], r.pts[i][2], e ? "back" : "ahead", holes);
            shot_free(&s0);
            shot_free(&s1);
        }
    }
    printf("along the route: triangles drawn %ld without culling, %ld with; %ld pixels the level's trees leave empty\n",
           all, cull, tree_holes);
    assert_true(cull * 2 < all);
    r_fsworld_free(fw);
    free(r.pts);
    free(r.grp);
}

// Ship's rec room (group 3) has the level's one see-through buffer: four window panes of
// spacec.bmp at z 4352 and 4608 (x 1280..1792, y -4091..-3835), vertex colours black and
// 0x404040. The game adds them (ONE + ONE): the black ones leave the room behind them as
// it was, the grey ones brighten it by a quarter of the texture.
static void test_see_through_golden(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    r_fsworld_t *fw = fs_load_level("ship");
    float org[2][3] = { { 1536, -3963, 5300 }, { 1536, -3963, 3700 } }, ang[2][3] = { { 0, 180, 0 }, { 0, 0, 0 } };
    const char *dir = getenv("FS_LEVEL_SHOTS");
    for (int i = 0; i < 2; i++) {
        shot_t s0, s1;
        r_fsworld_set_see_through(fw, 0);
        render(fw, &s0, 320, 200, org[i], ang[i]);
        r_fsworld_set_see_through(fw, 1);
        render(fw, &s1, 320, 200, org[i], ang[i]);
        int brighter = 0, same = 0, other = 0;
        for (int p = 0; p < 320 * 200; p++) {
            const uint8_t *a = s1.pal.palette + s0.px[p] * 3, *b = s1.pal.palette + s1.px[p] * 3;
            if (s0.px[p] == s1.px[p])
                same++;
            else if (b[0] + b[1] + b[2] > a[0] + a[1] + a[2])
                brighter++;
            else
                other++;
        }
        printf("see-through view %d: %d pixels changed brighter, %d otherwise, %d same\n", i, brighter, other, same);
        assert_true(brighter > 5000);   // the panes' area (about 200 x 32 in view 0)
        assert_true(other < 16);
        if (i == 0) {
            write_png(&s1, "build/fs_ship_glass.png");
            tu_golden("forsaken ship see-through panes", "build/fs_ship_glass.png", "tests/golden/fs_ship_glass.png", 0.002);
        }
        if (dir) {
            char path[512];
            snprintf(path, sizeof path, "%s/ship_glass_%d_opaque.png", dir, i);
            write_png(&s0, path);
            snprintf(path, sizeof path, "%s/ship_glass_%d.png", dir, i);
            write_png(&s1, path);
        }
        shot_free(&s0);
        shot_free(&s1);
    }
    r_fsworld_free(fw);
}

// Forsaken has no sky texture: where nothing is drawn the game clears to black, and ship's
// space is geometry, a star field round group 5 ("Bridge": the space about the hull),
// drawn like any wall. From the bridge's far side looking out, away from the hull.
static void test_space_golden(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    r_fsworld_t *fw = fs_load_level("ship");
    float org[3] = { -5500, 48, 4096 }, ang[3] = { -20, -90, 0 };
    int eg[4];
    assert_int_equal(r_fsworld_eye_groups(fw, org, eg, 4), 1);
    assert_int_equal(eg[0], 5);
    shot_t s;
    int drawn = render(fw, &s, 320, 200, org, ang);
    r_fsworld_stats_t st = r_fsworld_stats(fw);
    printf("space: %d triangles drawn, %d groups visible\n", drawn, st.groups_visible);
    write_png(&s, "build/fs_ship_space.png");
    tu_golden("forsaken ship space", "build/fs_ship_space.png", "tests/golden/fs_ship_space.png", 0.002);
    shot_free(&s);
    r_fsworld_free(fw);
}

// Coloured light: Direct3D multiplied each texel by the vertex colour. Arena's rooms are
// lit red and midpand's green: from their first start positions the picture's mean red
// (arena) and green (midpand) share rises over brightness-only light.
static void test_coloured_light(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *lv[2] = { "arena", "midpand" };
    for (int i = 0; i < 2; i++) {
        r_fsworld_t *fw = fs_load_level(lv[i]);
        float org[3], ang[3];
        assert_int_equal(fs_start_pos(lv[i], org, ang), 0);
        double share[2];
        for (int t = 0; t < 2; t++) {
            r_fsworld_set_tint(fw, t);
            shot_t s;
            render(fw, &s, 160, 100, org, ang);
            double sum[3] = { 0, 0, 0 };
            for (int p = 0; p < 160 * 100; p++)
                for (int k = 0; k < 3; k++)
                    sum[k] += s.pal.palette[s.px[p] * 3 + k];
            share[t] = sum[i == 0 ? 0 : 1] / (sum[0] + sum[1] + sum[2] + 1);
            shot_free(&s);
        }
        printf("%s: %s share %.3f brightness only, %.3f coloured\n", lv[i], i ? "green" : "red", share[0], share[1]);
        assert_true(share[1] > share[0] + (i == 0 ? 0.2 : 0.03));   // measured: arena 0.38 -> 0.66, midpand 0.33 -> 0.37
        r_fsworld_free(fw);
    }
}

// ---- the colour key ---------------------------------------------------------------

// An 8-bit BMP of 4x4 texels, top row first: `first` palette colour 0, colour 1 white,
// colour 2 red; texels from `px`.
static size_t bmp4(uint8_t *out, const uint8_t first[3], const uint8_t px[16])
{
    memset(out, 0, 54 + 1024 + 16);
    out[0] = 'B';
    out[1] = 'M';
    out[10] = 0x36;   // pixels at 1078
    out[11] = 0x04;
    out[14] = 40;
    out[18] = 4;      // 4 x -4: top row first
    out[22] = 0xfc;
    out[23] = out[24] = out[25] = 0xff;
    out[26] = 1;
    out[28] = 8;
    for (int k = 0; k < 3; k++)
        out[54 + 2 - k] = first[k];   // stored blue, green, red
    out[54 + 4] = out[54 + 5] = out[54 + 6] = 255;
    out[54 + 8 + 2] = 255;
    memcpy(out + 54 + 1024, px, 16);
    return 54 + 1024 + 16;
}

static uint8_t *key_textures(void *ctx, const char *path, size_t *size)
{
    (void)ctx;
    static const uint8_t black[3] = { 0, 0, 0 }, red[3] = { 255, 0, 0 };
    // key.bmp: palette starts with black; the left two columns black (colour 0), the rest white
    static const uint8_t half[16] = { 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1 };
    static const uint8_t zero[16] = { 0 };
    uint8_t *d = malloc(54 + 1024 + 16);
    static const uint8_t white[3] = { 255, 255, 255 }, ones[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    if (strstr(path, "key.bmp"))
        *size = bmp4(d, black, half);
    else if (strstr(path, "white.bmp"))   // every texel white, no key
        *size = bmp4(d, white, ones);
    else if (strstr(path, "back.bmp"))   // palette starts with red: no key; every texel red
        *size = bmp4(d, red, zero);
    else {
        free(d);
        return NULL;
    }
    return d;
}

static size_t put16(uint8_t *p, size_t at, unsigned v)
{
    p[at] = (uint8_t)v;
    p[at + 1] = (uint8_t)(v >> 8);
    return at + 2;
}

static size_t putf(uint8_t *p, size_t at, float f)
{
    memcpy(p + at, &f, 4);
    return at + 4;
}

// A level of one group and two buffers: a square of half size 64 at z 256 with `front` (8
// characters and its NUL) whose triangles carry `flags`, its corners (bottom left, top left, top
// right, bottom right) coloured `argb` (NULL: white), and a square of half size 256 at z 512
// with back.bmp. The front square's triangles are 0 1 2 and 0 2 3 (split along a diagonal).
static size_t square_level(uint8_t *p, unsigned flags, const char *front, const uint32_t *argb)
{
    size_t at = 0;
    memcpy(p, "PRJX", 4);
    p[4] = 3;
    p[5] = p[6] = p[7] = 0;
    at = put16(p, 8, 2);
    memcpy(p + at, front, strlen(front) + 1);
    at += strlen(front) + 1;
    memcpy(p + at, "back.bmp", 9);
    at += 9;
    at = put16(p, at, 1);   // groups
    at = put16(p, at, 2);   // buffers
    const float z[2] = { 256, 512 }, h[2] = { 64, 256 };
    for (int b = 0; b < 2; b++) {
        at = put16(p, at, 4 * 32 + 2 * 8);
        at = put16(p, at, 0);
        at = put16(p, at, 4);
        const float c[4][2] = { { -1, -1 }, { -1, 1 }, { 1, 1 }, { 1, -1 } };
        for (int v = 0; v < 4; v++) {
            at = putf(p, at, c[v][0] * h[b]);
            at = putf(p, at, c[v][1] * h[b]);
            at = putf(p, at, z[b]);
            memset(p + at, 0, 4);
            uint32_t col = b == 0 && argb ? argb[v] : 0xffffffffu;   // ARGB white: the texture as painted
            for (int k = 0; k < 4; k++)
                p[at + 4 + k] = (uint8_t)(col >> (8 * k));
            memset(p + at + 8, 0, 4);
            at += 12;
            at = putf(p, at, (c[v][0] + 1) / 2);
            at = putf(p, at, (1 - c[v][1]) / 2);
        }
        at = put16(p, at, 1);   // texture groups
        at = put16(p, at, 0);
        at = put16(p, at, 0);
        at = put16(p, at, 4);
        at = put16(p, at, (unsigned)b);
        at = put16(p, at, 2);
        const int tri[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
        for (int t = 0; t < 2; t++) {
            for (int k = 0; k < 3; k++)
                at = put16(p, at, (unsigned)tri[t][k]);
            at = put16(p, at, b == 0 ? flags : 0);
            at = putf(p, at, 0);
            at = putf(p, at, 0);
            at = putf(p, at, -1);
        }
    }
    return at;
}

static size_t key_level(uint8_t *p, unsigned flags) { return square_level(p, flags, "key.bmp", NULL); }

// Direct3D interpolated the vertex colours across each triangle (Gouraud) and multiplied the
// texel by them: a white square whose left corners are red and right corners blue shows a
// gradient that follows x alone, the same above and below the diagonal that splits it into
// two triangles (one colour per triangle gave a hard edge there), and each 4 x 4 block's mean
// is near the colour the rule gives (the ordered dither mixes the palette's colours).
static void test_vertex_colours_blend(void **state)
{
    (void)state;
    uint8_t lvl[1024];
    const uint32_t argb[4] = { 0xffff0000u, 0xffff0000u, 0xff0000ffu, 0xff0000ffu };
    size_t n = square_level(lvl, 0, "white.bmp", argb);
    char err[256] = "";
    asset_files_t files = { key_textures, NULL };
    r_fsworld_t *fw = r_fsworld_from_bytes(lvl, n, "levels/k/k.mxv", &files, err, sizeof err);
    if (!fw)
        fail_msg("%s", err);
    float org[3] = { 0, 0, 0 }, ang[3] = { 0, 0, 0 };
    double err_dither[2] = { 0, 0 }, split_max = 0;
    for (int dither = 1; dither >= 0; dither--) {
        r_fsworld_set_dither(fw, dither);
        shot_t s;
        assert_int_equal(render(fw, &s, 256, 256, org, ang), 4);
        // the square spans x, y 96..159 (half size 64 at z 256, 128 px a half view)
        int blocks = 0;
        for (int by = 96; by < 160; by += 4)
            for (int bx = 96; bx < 160; bx += 4) {
                double mean[3] = { 0, 0, 0 };
                for (int y = by; y < by + 4; y++)
                    for (int x = bx; x < bx + 4; x++)
                        for (int k = 0; k < 3; k++)
                            mean[k] += s.pal.palette[s.px[y * 256 + x] * 3 + k] / 16.0;
                double u = (bx + 2 - 96) / 64.0;   // 0 at the left edge, 1 at the right
                double want[3] = { 248 * (1 - u), 0, 248 * u };   // (the light tables stop at 248)
                for (int k = 0; k < 3; k++)
                    err_dither[dither] += fabs(mean[k] - want[k]);
                blocks++;
                // the same column's block mirrored about the middle row: the other triangle
                if (dither && by < 128) {
                    int my = 96 + 160 - 4 - by;
                    double other[3] = { 0, 0, 0 };
                    for (int y = my; y < my + 4; y++)
                        for (int x = bx; x < bx + 4; x++)
                            for (int k = 0; k < 3; k++)
                                other[k] += s.pal.palette[s.px[y * 256 + x] * 3 + k] / 16.0;
                    for (int k = 0; k < 3; k++)
                        split_max = fmax(split_max, fabs(other[k] - mean[k]));
                }
            }
        err_dither[dither] /= blocks * 3;
        shot_free(&s);
    }
    printf("red to blue across two triangles: 4x4 means %.1f from the rule dithered, %.1f nearest colours; "
           "above and below the diagonal differ by %.1f at most\n",
           err_dither[1], err_dither[0], split_max);
    assert_true(split_max < 40);
    assert_true(err_dither[1] < 22);   // measured 17.7 (the palette has few purples to mix)
    assert_true(err_dither[1] < err_dither[0]);
    r_fsworld_free(fw);
}

// The game's colour key (Tload.c: a texture whose BMP palette starts with black gets the
// colour key black; Mload.c strips the triangles' bit 0 for the hardware renderer): the
// key texels of the front square show the square behind, whatever the triangle's flags;
// arena's 128 flagged triangles use textures whose palettes start with white (no key).
static void test_colour_key(void **state)
{
    (void)state;
    uint8_t lvl[1024];
    for (int flagged = 0; flagged < 2; flagged++) {
        size_t n = key_level(lvl, flagged ? MXV_TRI_COLOURKEY : 0);
        char err[256] = "";
        asset_files_t files = { key_textures, NULL };
        r_fsworld_t *fw = r_fsworld_from_bytes(lvl, n, "levels/k/k.mxv", &files, err, sizeof err);
        if (!fw)
            fail_msg("%s", err);
        const mxv_t *m = r_fsworld_mesh(fw);
        assert_int_equal(m->textures_missing, 0);
        assert_int_equal(m->num_keyed_tris, flagged ? 2 : 0);
        assert_int_equal(m->tris[0].flags, flagged ? MXV_TRI_COLOURKEY : 0);
        assert_int_equal(m->textures[0].key_texels, 8);   // the two black columns
        assert_int_equal(m->textures[1].key_texels, 0);   // red first: no key
        float org[3] = { 0, 0, 0 }, ang[3] = { 0, 0, 0 };
        int keyed = 0, back = 0, front = 0;
        for (int on = 1; on >= 0; on--) {
            r_fsworld_set_colour_key(fw, on);
            shot_t s;
            assert_int_equal(render(fw, &s, 64, 64, org, ang), 4);
            // the front square covers columns 24..39 and rows 21..42; its left half is the key
            for (int y = 21; y <= 42; y++)
                for (int x = 24; x < 40; x++) {
                    const uint8_t *c = s.pal.palette + s.px[y * 64 + x] * 3;
                    float zi = s.z[y * 64 + x];
                    if (x < 32 && on) {
                        keyed++;
                        back += fabsf(zi - 1.0f / 512) < 1e-7f && c[0] > 200 && c[1] < 60 && c[2] < 60;
                    } else if (x < 32) {
                        front += fabsf(zi - 1.0f / 256) < 1e-7f && c[0] < 40 && c[1] < 40 && c[2] < 40;
                    } else {
                        front += fabsf(zi - 1.0f / 256) < 1e-7f && c[0] > 200 && c[1] > 200 && c[2] > 200;
                    }
                }
            if (flagged && on && getenv("FS_LEVEL_SHOTS")) {
                char path[512];
                snprintf(path, sizeof path, "%s/colour_key.png", getenv("FS_LEVEL_SHOTS"));
                write_png(&s, path);
            }
            shot_free(&s);
        }
        printf("colour key (triangles %s): %d key pixels, %d show the red square behind; %d front pixels as painted\n",
               flagged ? "flagged" : "not flagged", keyed, back, front);
        assert_int_equal(keyed, 8 * 22);
        assert_int_equal(back, keyed);
        assert_int_equal(front, 8 * 22 + 2 * 8 * 22);   // key off: black left half; both times the white right half
        r_fsworld_free(fw);
    }
    if (!tu_data_dir())
        return;
    r_fsworld_t *fw = fs_load_level("arena");
    const mxv_t *m = r_fsworld_mesh(fw);
    assert_int_equal(m->num_keyed_tris, 128);
    int keyed_tex = 0;
    for (int i = 0; i < m->num_textures; i++)
        keyed_tex += m->textures[i].key_texels > 0;
    assert_int_equal(keyed_tex, 0);
    r_fsworld_free(fw);
    fw = fs_load_level("ship");
    m = r_fsworld_mesh(fw);
    assert_int_equal(m->num_keyed_tris, 0);
    assert_string_equal(m->textures[0].name, "spacea.bmp");
    assert_int_equal(m->textures[0].key_texels, 667);
    r_fsworld_free(fw);
    printf("arena: 128 flagged triangles, no texture with a key (palettes start with white); ship: spacea.bmp 667 key texels\n");
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
        cmocka_unit_test(test_culling_keeps_pixels),
        cmocka_unit_test(test_fly_demo),
        cmocka_unit_test(test_see_through_golden),
        cmocka_unit_test(test_space_golden),
        cmocka_unit_test(test_coloured_light),
        cmocka_unit_test(test_vertex_colours_blend),
        cmocka_unit_test(test_colour_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
