// test_quake2_models.c -- MD2 models and SP2 sprites of the real Quake II data: loading, drawing, hostile copies
//
// Set DEMOPLAY_MODELS_PNG=dir to also write the rendered test images there.
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#include "assets/md2.h"
#include "assets/pcx.h"
#include "assets/sp2.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "render/r_mlocal.h"
#include "render/r_models.h"

// Files of the test data's baseq2, the way the engine hands them to loaders.
static uint8_t *data_file(void *ctx, const char *path, size_t *size)
{
    return vfs_load((vfs_t *)ctx, path, size);
}

static vfs_t *baseq2(void)
{
    vfs_t *fs = vfs_create();
    assert_non_null(fs);
    assert_true(vfs_add_dir(fs, tu_data("quake2/baseq2")) >= 0);
    return fs;
}

static uint8_t *load_q2(const char *rel, size_t *size)
{
    char path[256];
    snprintf(path, sizeof path, "quake2/baseq2/%s", rel);
    uint8_t *b = tu_read(tu_data(path), size);
    assert_non_null(b);
    return b;
}

// ---- every file loads ------------------------------------------------------------

typedef struct {
    int md2, sp2, failed;
    asset_files_t files;
} walk_t;

static void load_one(walk_t *wk, const char *path, const char *name)
{
    size_t n = strlen(name);
    int is_md2 = n > 4 && strcasecmp(name + n - 4, ".md2") == 0;
    int is_sp2 = n > 4 && strcasecmp(name + n - 4, ".sp2") == 0;
    if (!is_md2 && !is_sp2)
        return;
    size_t size;
    uint8_t *b = tu_read(path, &size);
    assert_non_null(b);
    char err[256] = "";
    int rc;
    if (is_md2) {
        mdl_t m;
        rc = md2_load(&m, b, size, &wk->files, err, sizeof err);
        if (rc == 0) {
            // every triangle corner a vertex of the model, every pose normal in the table
            for (int i = 0; i < m.numtris; i++)
                for (int k = 0; k < 3; k++)
                    assert_true(m.tris[i].v[k] >= 0 && m.tris[i].v[k] < m.numverts);
            for (int i = 0; i < m.num_poses * m.numverts; i++)
                assert_true(m.poses[i].normal < MDL_NUM_NORMALS);
            assert_non_null(m.pose_xform);
            mdl_free(&m);
        }
        wk->md2++;
    } else {
        spr_t s;
        rc = sp2_load(&s, b, size, &wk->files, err, sizeof err);
        if (rc == 0)
            spr_free(&s);
        wk->sp2++;
    }
    if (rc < 0) {
        print_message("%s: %s\n", path, err);
        wk->failed++;
    }
    free(b);
}

static void walk_dir(walk_t *wk, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d || depth > 8) {
        if (d)
            closedir(d);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk_dir(wk, path, depth + 1);
        else
            load_one(wk, path, e->d_name);
    }
    closedir(d);
}

static void test_every_file_loads(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = baseq2();
    walk_t wk = {0, 0, 0, {data_file, fs}};
    walk_dir(&wk, tu_data("quake2"), 0);
    print_message("%d md2, %d sp2 loaded\n", wk.md2, wk.sp2);
    assert_int_equal(wk.failed, 0);
    assert_int_equal(wk.md2, 130);
    assert_int_equal(wk.sp2, 8);
    vfs_free(fs);
}

// ---- pinned counts -----------------------------------------------------------------

static void test_md2_pins(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = baseq2();
    asset_files_t files = {data_file, fs};
    static const struct {
        const char *name;
        int skins, images, w, h, verts, tris, frames;
        const char *frame0;
    } pins[] = {
        // verts: distinct (vertex, texture coordinate) pairs; images: the plain one + each skin found
        {"models/monsters/soldier/tris.md2", 6, 7, 288, 195, 339, 434, 475, "attak101"},
        {"players/male/tris.md2", 1, 1, 284, 195, 0, 590, 198, "stand01"},
        {"models/weapons/v_blast/tris.md2", 1, 2, 296, 164, 0, 260, 56, NULL},
        {"models/items/healing/medium/tris.md2", 1, 2, 184, 84, 0, 12, 1, NULL},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        size_t size;
        uint8_t *b = load_q2(pins[i].name, &size);
        mdl_t m;
        char err[160] = "";
        assert_int_equal(md2_load(&m, b, size, &files, err, sizeof err), 0);
        print_message("%s: %d skins, %d images, %dx%d, %d verts, %d tris, %d frames, frame 0 \"%s\"\n",
                      pins[i].name, m.numskins, m.num_skin_images, m.skinwidth, m.skinheight, m.numverts,
                      m.numtris, m.numframes, m.frames[0].name);
        assert_int_equal(m.numskins, pins[i].skins);
        assert_int_equal(m.num_skin_images, pins[i].images);
        assert_int_equal(m.skinwidth, pins[i].w);
        assert_int_equal(m.skinheight, pins[i].h);
        if (pins[i].verts)
            assert_int_equal(m.numverts, pins[i].verts);
        assert_int_equal(m.numtris, pins[i].tris);
        assert_int_equal(m.numframes, pins[i].frames);
        assert_int_equal(m.num_poses, pins[i].frames);
        if (pins[i].frame0)
            assert_string_equal(m.frames[0].name, pins[i].frame0);
        mdl_free(&m);
        free(b);
    }
    vfs_free(fs);
}

static void test_sp2_pins(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = baseq2();
    asset_files_t files = {data_file, fs};
    size_t size;
    uint8_t *b = load_q2("sprites/s_explo2.sp2", &size);
    spr_t s;
    char err[160] = "";
    assert_int_equal(sp2_load(&s, b, size, &files, err, sizeof err), 0);
    assert_int_equal(s.numframes, 13);
    assert_int_equal(s.type, SPR_VP_PARALLEL);
    const spr_image_t *im = spr_image(&s, 0, 0);
    assert_int_equal(im->width, 128);
    assert_int_equal(im->height, 128);
    // Quake II's origin (64, 64) from the lower left is Quake's upper-left corner at (-64, 64)
    assert_int_equal(im->origin_x, -64);
    assert_int_equal(im->origin_y, 64);
    // the image came from its PCX: transparent edges, an opaque middle
    const uint8_t *px = s.pixels + im->offset;
    assert_int_equal(px[0], 255);
    int opaque = 0;
    for (int i = 0; i < 128 * 128; i++)
        opaque += px[i] != 255;
    print_message("s_explo2 frame 0: %d opaque pixels\n", opaque);
    assert_true(opaque > 1000);
    spr_free(&s);
    free(b);

    // without the images: the frames keep their sizes, fully transparent
    b = load_q2("sprites/s_flash.sp2", &size);
    assert_int_equal(sp2_load(&s, b, size, NULL, err, sizeof err), 0);
    assert_int_equal(s.numframes, 3);
    im = spr_image(&s, 2, 0);
    assert_int_equal(im->width, 96);
    assert_int_equal(im->height, 80);
    assert_int_equal(im->origin_x, -48);
    assert_int_equal(im->origin_y, 40);
    for (int i = 0; i < 96 * 80; i++)
        assert_int_equal(s.pixels[im->offset + (size_t)i], 255);
    spr_free(&s);
    free(b);
    vfs_free(fs);
}

// ---- hostile copies ----------------------------------------------------------------

static int md2_try(const uint8_t *b, size_t n, char *err, size_t cap)
{
    mdl_t m;
    int rc = md2_load(&m, b, n, NULL, err, cap);
    if (rc == 0)
        mdl_free(&m);
    return rc;
}

static int sp2_try(const uint8_t *b, size_t n, char *err, size_t cap)
{
    spr_t s;
    int rc = sp2_load(&s, b, n, NULL, err, cap);
    if (rc == 0)
        spr_free(&s);
    return rc;
}

// Every truncation fails with an offset; byte flips never crash and explain any failure.
static void hostile(const char *rel, int (*try)(const uint8_t *, size_t, char *, size_t), size_t step)
{
    size_t size;
    uint8_t *b = load_q2(rel, &size);
    char err[256];
    for (size_t n = 0; n < size; n += n < 256 ? 1 : step) {
        uint8_t *c = malloc(n ? n : 1);
        memcpy(c, b, n);
        err[0] = 0;
        int rc = try(c, n, err, sizeof err);
        free(c);
        // an MD2 may end in unused GL commands: cut there it still loads
        if (rc == 0)
            continue;
        if (strncmp(err, "offset ", 7) != 0 || !strstr(err, "expected"))
            fail_msg("%s cut at %zu: \"%s\"", rel, n, err);
    }
    uint8_t *c = malloc(size);
    uint32_t x = 12345;
    for (int round = 0; round < 3000; round++) {
        memcpy(c, b, size);
        for (int k = 0; k < 4; k++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            // the header is where a flip matters most: hit it half the time
            size_t at = (x & 1) ? (x >> 8) % (size < 68 ? size : 68) : (x >> 8) % size;
            c[at] = (uint8_t)(x >> 1);
        }
        err[0] = 0;
        if (try(c, size, err, sizeof err) < 0 && (strncmp(err, "offset ", 7) != 0 || !strstr(err, "expected")))
            fail_msg("%s flipped (round %d): \"%s\"", rel, round, err);
    }
    free(c);
    free(b);
}

static void test_hostile_copies(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    hostile("models/items/healing/medium/tris.md2", md2_try, 1);
    hostile("models/monsters/soldier/tris.md2", md2_try, 97);
    hostile("sprites/s_explo2.sp2", sp2_try, 1);

    char err[160];
    size_t size;
    uint8_t *b = load_q2("models/items/healing/medium/tris.md2", &size);
    assert_int_equal(md2_try(b, 40, err, sizeof err), -1);
    assert_string_equal(err, "offset 0: expected a 68-byte MD2 header, found 40 bytes");
    b[4] = 7;
    assert_int_equal(md2_try(b, size, err, sizeof err), -1);
    assert_string_equal(err, "offset 4: expected MD2 version 8, found 7");
    b[4] = 8;
    // cut inside the one frame (at 56 the header says where frames start, at 16 their size)
    size_t frames_end = (size_t)(b[56] | b[57] << 8) + (size_t)(b[16] | b[17] << 8);
    assert_int_equal(md2_try(b, frames_end - 1, err, sizeof err), -1);
    print_message("%s\n", err);
    assert_string_equal(err, "offset 56: expected the frames (72 bytes) inside the 395-byte file, found them at 324");
    free(b);
    b = load_q2("sprites/s_explod.sp2", &size);
    assert_int_equal(sp2_try(b, size - 1, err, sizeof err), -1);
    assert_string_equal(err, "offset 491: expected 6 frames of 80 bytes, found end of file");
    b[12] = 0;   // frame 0 width
    b[13] = 0;
    assert_int_equal(sp2_try(b, size, err, sizeof err), -1);
    assert_string_equal(err, "offset 12: expected frame size 1..1024, found 0x56");
    free(b);
}

// ---- a rendered model --------------------------------------------------------------

// A view of w x h lit by Quake II's own palette and light table (pics/colormap.pcx).
static void scene_init(tu_scene_t *s, int w, int h)
{
    size_t n;
    uint8_t *b = load_q2("pics/colormap.pcx", &n);
    pcx_t p;
    char err[128];
    assert_int_equal(pcx_load(&p, b, n, err, sizeof err), 0);
    assert_true(p.width == 256 && p.height >= 64);
    tu_scene_init(s, w, h, p.palette, p.pixels, 256);
    pcx_free(&p);
    free(b);
}
// A PCX padded after its palette (Action Quake 2's env/wnight*.pcx): the marker right
// after the picture data counts; with no marker at all the file is refused.
static void test_pcx_padded(void **state)
{
    (void)state;
    uint8_t f[128 + 4 + 769 + 1000];
    memset(f, 0, sizeof f);
    f[0] = 0x0a, f[1] = 5, f[2] = 1, f[3] = 8;
    f[8] = 1, f[10] = 1;   // 2 x 2
    f[65] = 1, f[66] = 2;  // one plane, 2 bytes a line
    f[128] = 7, f[129] = 9, f[130] = 0xc2, f[131] = 200;   // 7 9 / 200 200 (a run of 2)
    f[132] = 0x0c;
    for (int i = 0; i < 768; i++)
        f[133 + i] = (uint8_t)(i * 7);
    pcx_t p;
    char err[128];
    assert_int_equal(pcx_load(&p, f, sizeof f, err, sizeof err), 0);
    assert_true(p.width == 2 && p.height == 2);
    assert_true(p.pixels[0] == 7 && p.pixels[1] == 9 && p.pixels[2] == 200 && p.pixels[3] == 200);
    assert_int_equal(p.palette[5], 35);
    pcx_free(&p);
    f[132] = 0;
    assert_int_equal(pcx_load(&p, f, sizeof f, err, sizeof err), -1);
}

static uint32_t fnv(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static int nonzero(const tu_scene_t *s)
{
    int n = 0;
    for (int i = 0; i < s->w * s->h; i++)
        n += s->buf[i] != 0;
    return n;
}

// The soldier, three times: facing us in frame 0, from the side mid-run, and half-way between two frames.
static void test_render_soldier(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = baseq2();
    asset_files_t files = {data_file, fs};
    size_t size;
    uint8_t *b = load_q2("models/monsters/soldier/tris.md2", &size);
    mdl_t m;
    char err[160];
    assert_int_equal(md2_load(&m, b, size, &files, err, sizeof err), 0);
    free(b);
    tu_scene_t s;
    scene_init(&s, 320, 200);
    r_alias_scratch_t sc = {0};
    sc.cap = m.numverts;
    sc.view = malloc((size_t)m.numverts * sizeof(r_cvert_t));
    sc.proj = malloc((size_t)m.numverts * sizeof(d_vert_t));
    static const struct { float x, y, yaw; int a, b; float blend; } poses[] = {
        {80, -45, 180, 0, 0, 0}, {90, 0, 90, 50, 50, 0}, {80, 45, 200, 50, 51, 0.5f}};
    for (int i = 0; i < 3; i++) {
        r_alias_job_t job = {0};
        job.mdl = &m;
        job.pose_a = poses[i].a;
        job.pose_b = poses[i].b;
        job.blend = poses[i].blend;
        job.origin[0] = poses[i].x;
        job.origin[1] = poses[i].y;
        job.origin[2] = 0;
        job.angles[1] = poses[i].yaw;
        job.skin = mdl_skin(&m, 0, 0);
        job.colormap = s.colormap;
        job.ambient = 96;
        job.shade = 64;
        r_alias_draw(&s.v, &sc, &job);
    }
    tu_scene_png_env(&s, "q2_soldier.png");
    int px = nonzero(&s);
    uint32_t sum = fnv(s.buf, (size_t)s.w * s.h);
    print_message("soldier: %d pixels drawn, checksum %08x\n", px, sum);
    // a golden image pins the look (a few pixels of slack for other compilers' float rounding)
    const char *out = "build/test_quake2_soldier.png";
    tu_scene_write(&s, out);
    tu_golden("soldier", out, "tests/golden/q2_soldier.png", 0.002);
    assert_in_range(px, 4000, 12000);
    free(sc.view);
    free(sc.proj);
    mdl_free(&m);
    tu_scene_free(&s);
    vfs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcx_padded),
        cmocka_unit_test(test_every_file_loads),
        cmocka_unit_test(test_md2_pins),
        cmocka_unit_test(test_sp2_pins),
        cmocka_unit_test(test_hostile_copies),
        cmocka_unit_test(test_render_soldier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
