// test_forsaken_texanim.c -- Forsaken level texture animations (the .MXV's tail, assets/fstex.c):
// every level of the data walked to its last byte with its counts pinned, scripts played to the
// frames the game's rule gives at given times, cuts and corruptions refused with offsets, and a
// scene on alpha: an animated wall's pixels change between two frames and come back a cycle
// later, nothing changes with the animations off, and a seek draws what playing drew.
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "assets/fstex.h"
#include "assets/mxv.h"
#include "assets/pal.h"
#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/playback.h"
#include "engine/vfs.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsworld.h"
#include "render/render.h"

static uint8_t *data_file(const char *rel, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/forsaken/Data/%s", tu_data_dir(), rel);
    char *real = vfs_resolve_path(path);
    uint8_t *d = real ? tu_read(real, size) : NULL;
    free(real);
    return d;
}

typedef struct {
    const char *name;
    int anims, polys, index, steps;
} level_t;

// Counted by walking the files with the game's layout (docs/forsaken.md "Texture animations").
static const level_t LEVELS[] = {
    { "alpha", 2, 46, 46, 0 },   { "arena", 3, 14, 14, 0 }, { "fourball", 0, 0, 0, 0 }, { "midpand", 2, 4, 4, 0 },
    { "pandora", 4, 11, 11, 0 }, { "ship", 0, 0, 0, 0 },    { "smalls", 0, 0, 0, 0 },   { "therm", 5, 45, 45, 0 },
    { "tunnels", 0, 0, 0, 0 },   { "tworooms", 1, 8, 8, 0 },
};

static uint8_t *level_bytes(const char *lvl, size_t *size)
{
    char rel[256];
    snprintf(rel, sizeof rel, "levels/%s/%s.mxv", lvl, lvl);
    return data_file(rel, size);
}

static double at_units(double u) { return u / FSTEX_UNITS_PER_SECOND; }

static void test_every_level(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    for (size_t i = 0; i < sizeof LEVELS / sizeof LEVELS[0]; i++) {
        const level_t *l = &LEVELS[i];
        size_t size;
        uint8_t *d = level_bytes(l->name, &size);
        assert_non_null(d);
        char err[256];
        mxv_t *m = mxv_load(d, size, l->name, err, sizeof err);
        assert_non_null(m);
        fstex_t *a = fstex_load(d, size, l->name, m, err, sizeof err);
        if (!a)
            fail_msg("%s: %s", l->name, err);
        printf("%-9s anims %d polygons %d index %d steps %d, tail %zu..%zu of %zu\n", l->name, a->num_anims, a->num_polys,
               a->num_index, a->num_steps, a->start, a->end, size);
        assert_int_equal(a->num_anims, l->anims);
        assert_int_equal(a->num_polys, l->polys);
        assert_int_equal(a->num_index, l->index);
        assert_int_equal(a->end, size);   // every byte walked
        int stopped = 0, frame0_same = 0;
        for (int p = 0; p < a->num_polys; p++) {
            const fstex_poly_t *po = &a->polys[p];
            assert_true(po->num_verts == 4);   // quads, every one
            for (int k = 0; k < po->num_verts; k++)
                assert_true(a->vert[po->first_vert + k] < m->num_verts);
            stopped += !po->running;
            // frame 0 is the file's own coordinates (a check of the vertex numbers and the layout)
            const float *uv = fstex_uv(a, p, 0);
            int same = 1;
            for (int k = 0; k < po->num_verts; k++)
                same &= fabsf(uv[k * 2] - m->verts[a->vert[po->first_vert + k]].st[0]) < 1e-3f &&
                        fabsf(uv[k * 2 + 1] - m->verts[a->vert[po->first_vert + k]].st[1]) < 1e-3f;
            frame0_same += same;
            assert_int_equal(po->stop_mod, -1);   // no script runs a trigger mod at its end
        }
        assert_int_equal(stopped, strcmp(l->name, "therm") ? 0 : 3);
        printf("          frame 0 = the file's coordinates on %d of %d polygons\n", frame0_same, a->num_polys);
        assert_int_equal(frame0_same, a->num_polys);
        fstex_free(a);
        mxv_free(m);
        free(d);
    }
}

// The scripts' timelines and the frames at given times, by the game's rule.
static void test_scripts(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = level_bytes("arena", &size);
    assert_non_null(d);
    char err[256];
    mxv_t *m = mxv_load(d, size, "arena", err, sizeof err);
    fstex_t *a = fstex_load(d, size, "arena", m, err, sizeof err);
    assert_non_null(a);
    // arena's script 0: duration 100, for ever: frame 0 (50), 1 (50), 2, 3 (50), 4, 5 (50), 6,
    // 7 (50), 8, 9, 10 (50), 11, 12, back to 0: a lead-in of frame 0, then 13 frames of 1000 units
    const fstex_anim_t *an = &a->anims[0];
    assert_int_equal(an->frames, 13);
    assert_int_equal(an->num_steps, 14);
    assert_int_equal(an->cycle_from, 1);
    assert_int_equal(an->lead_units, 50);
    assert_int_equal(an->cycle_units, 1000);
    const int64_t u[] = { 0, 49, 50, 99, 100, 199, 200, 949, 1000, 1049, 1050, 1100, 1000050 + 120 };
    const int want[] = { 0, 0, 1, 1, 2, 2, 3, 12, 0, 0, 1, 2, 2 };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        int f = fstex_anim_frame(a, 0, u[i]);
        if (f != want[i])
            fail_msg("arena script 0 at %lld units: frame %d, wanted %d", (long long)u[i], f, want[i]);
    }
    // script 1: duration 25, frames 0..7 for ever (200 units = 0.169 s a round)
    assert_int_equal(a->anims[1].cycle_units, 200);
    // in seconds, through a polygon: arena's first polygon runs script 0
    assert_int_equal(a->polys[0].anim, 0);
    assert_true(a->polys[0].running);
    assert_int_equal(fstex_frame(a, 0, at_units(75)), 1);
    assert_int_equal(fstex_frame(a, 0, at_units(150)), 2);
    assert_int_equal(fstex_frame(a, 0, -5.0), 0);
    printf("arena script 0: frame 1 at %.4f s, 2 at %.4f s, a round %.4f s\n", at_units(75), at_units(150), at_units(1000));
    fstex_free(a);
    mxv_free(m);
    free(d);

    // therm: script 0 (duration 50: frames 0, 1, then the end) holds frame 1; its polygon is
    // stopped (the index's first entry, initial state 0: the trigger shotcomp starts it), so frame 0
    d = level_bytes("therm", &size);
    assert_non_null(d);
    m = mxv_load(d, size, "therm", err, sizeof err);
    a = fstex_load(d, size, "therm", m, err, sizeof err);
    assert_non_null(a);
    assert_int_equal(a->anims[0].num_steps, 2);
    assert_int_equal(a->anims[0].cycle_from, 2);   // ends
    assert_int_equal(fstex_anim_frame(a, 0, 10), 0);
    assert_int_equal(fstex_anim_frame(a, 0, 60), 1);
    assert_int_equal(fstex_anim_frame(a, 0, 1000000), 1);
    int p0 = a->index[0];
    assert_int_equal(a->polys[p0].group, 0);
    assert_int_equal(a->polys[p0].anim, 0);
    assert_false(a->polys[p0].running);
    assert_int_equal(fstex_frame(a, p0, 60.0), 0);
    // the triggers' texture animations 43 and 44 (shotvent, shotvent2): stopped too
    int stopped = 0;
    for (int i = 0; i < a->num_index; i++)
        stopped += !a->polys[a->index[i]].running;
    printf("therm: %d of %d indexed polygons stopped (43 -> %d, 44 -> %d)\n", stopped, a->num_index,
           a->polys[a->index[43]].running, a->polys[a->index[44]].running);
    assert_false(a->polys[a->index[43]].running);
    assert_false(a->polys[a->index[44]].running);
    assert_int_equal(stopped, 3);
    fstex_free(a);
    mxv_free(m);
    free(d);
}

static void put16(uint8_t *d, size_t at, int v)
{
    d[at] = (uint8_t)v;
    d[at + 1] = (uint8_t)(v >> 8);
}

static void expect_refused(const uint8_t *d, size_t size, const mxv_t *m, const char *what, const char *want)
{
    char err[256] = "";
    fstex_t *a = fstex_load(d, size, "tworooms.mxv", m, err, sizeof err);
    if (a)
        fail_msg("%s: loaded", what);
    printf("%s: %s\n", what, err);
    if (!strstr(err, "tworooms.mxv: offset ") || !strstr(err, want))
        fail_msg("%s: '%s' lacks '%s'", what, err, want);
}

static void test_bad_bytes(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = level_bytes("tworooms", &size);
    assert_non_null(d);
    char err[256];
    mxv_t *m = mxv_load(d, size, "tworooms", err, sizeof err);
    assert_non_null(m);
    fstex_t *a = fstex_load(d, size, "tworooms", m, err, sizeof err);
    assert_non_null(a);
    size_t start = a->start;
    fstex_free(a);
    // every cut from the mesh's end on: refused with an offset inside the cut (the mesh itself
    // loads from the whole file: the tail's walk is given the cut bytes)
    int cuts = 0;
    for (size_t n = m->portal_end; n < size; n++, cuts++) {
        err[0] = 0;
        a = fstex_load(d, n, "cut.mxv", m, err, sizeof err);
        if (a)
            fail_msg("cut at %zu: loaded", n);
        const char *o = strstr(err, "offset ");
        assert_non_null(o);
        if (strtoull(o + 7, NULL, 10) > n)
            fail_msg("cut at %zu: %s", n, err);
    }
    printf("%d cuts refused\n", cuts);
    assert_true(cuts > 1800);
    // the script (19 words at start + 8): 8001 200 8003 0 ffff 0 1 2 3 8002 50 4 8002 50 5 8004 0 5 ffff
    size_t sc = start + 8;
    assert_int_equal(d[start + 6], 19);
    uint8_t *c = malloc(size);
    struct {
        size_t at;
        int v;
        const char *what, *want;
    } bad[] = {
        { start, 129, "129 animations", "at most 128 animations" },
        { sc + 3 * 2, 9, "loop counter 9", "a loop counter below 8, got 9" },
        { sc + 17 * 2, 40, "loop start 40", "a loop start inside the script" },
        { sc + 18 * 2, 0x8000, "no end", "a frame or the end (0xffff) before the script's end" },
        { sc + 5 * 2, 6, "frame 6 of 6", "frames enough for animation 0's frame 6" },
        { sc + 16 * 2, 0x8000, "a loop of commands", "" },
        { size - 80, 99, "index group 99", "a group below 16, got 99" },
        { size - 76, 60, "index polygon 60", "an animated polygon of group" },
        { start + 8 + 38, 99, "99 polygons in a buffer", "at most 64 animated polygons a buffer, got 99" },
        { start + 8 + 38, 1, "a polygon made of the next counts", "1..256 frames, got 0" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(c, d, size);
        put16(c, bad[i].at, bad[i].v);
        if (i == 3)   // the loop runs once, then the script runs off its end
            put16(c, sc + 4 * 2, 1);
        if (i == 5) {   // 8004 0 0 -> 8004 0 3 with 8003 0 ffff: back to the counter for ever, no frame
            put16(c, sc + 15 * 2, 0x8004);
            put16(c, sc + 16 * 2, 0);
            put16(c, sc + 17 * 2, 2);
            put16(c, sc + 5 * 2, 0x8000);
            put16(c, sc + 6 * 2, 0x8000);
            put16(c, sc + 7 * 2, 0x8000);
            put16(c, sc + 8 * 2, 0x8000);
            put16(c, sc + 11 * 2, 0x8000);
            put16(c, sc + 14 * 2, 0x8000);
            bad[i].want = "a frame within 65536 commands";
        }
        expect_refused(c, size, m, bad[i].what, bad[i].want);
    }
    free(c);
    mxv_free(m);
    free(d);
}

// ---- a scene on alpha: the pilot faces an animated wall --------------------------------

typedef struct {
    float eye[3], ang[3], fwd[3], right[3], up[3];
    float corner[4][3];
    int anim;
    fstex_t *tex;   // alpha's
} wall_t;

#define SCENE_END 4.0

static void wall_setup(wall_t *s)
{
    size_t size;
    uint8_t *d = level_bytes("alpha", &size);
    assert_non_null(d);
    char err[256];
    mxv_t *m = mxv_load(d, size, "alpha", err, sizeof err);
    fstex_t *a = fstex_load(d, size, "alpha", m, err, sizeof err);
    assert_non_null(a);
    const fstex_poly_t *po = &a->polys[0];
    s->anim = po->anim;
    float c[3] = { 0, 0, 0 };
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 3; j++) {
            s->corner[k][j] = m->verts[a->vert[po->first_vert + k]].pos[j];
            c[j] += s->corner[k][j] / 4;
        }
    // its triangles' stored normal: the side it is seen from
    float n[3] = { 0, 0, 0 };
    for (int i = 0; i < m->num_tris; i++)
        if ((int)m->tris[i].v[0] == a->vert[po->first_vert] || (int)m->tris[i].v[1] == a->vert[po->first_vert] ||
            (int)m->tris[i].v[2] == a->vert[po->first_vert]) {
            memcpy(n, m->tris[i].normal, sizeof n);
            break;
        }
    printf("alpha polygon 0: group %d, centre %.1f %.1f %.1f, normal %.2f %.2f %.2f, script %d\n", po->group, c[0], c[1],
           c[2], n[0], n[1], n[2], s->anim);
    for (int j = 0; j < 3; j++)
        s->eye[j] = c[j] + 300 * n[j];
    s->ang[0] = (float)(asin(n[1]) * 180 / M_PI);   // looking along -n
    s->ang[1] = (float)(atan2(-n[0], -n[2]) * 180 / M_PI);
    s->ang[2] = 0;
    r_fs_angle_vectors(s->ang, s->fwd, s->right, s->up);
    s->tex = a;
    mxv_free(m);
    free(d);
}

static void wall_demo(const wall_t *s, const char *path)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "alpha");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= (int)(SCENE_END * 10); i++) {
        double t = 0.05 + i * 0.1;
        fs_ship_t sh;
        memset(&sh, 0, sizeof sh);
        sh.flags = FS_SHIP_ENABLE;
        memcpy(sh.pos, s->eye, sizeof sh.pos);
        fs_angles_to_quat(s->ang, sh.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &sh);
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// The polygon's screen box at 320x200 (xscale 160, yscale 160 / 1.2, as r_main's view).
static void wall_box(const wall_t *s, int box[4])
{
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int c = 0; c < 4; c++) {
        float d[3] = { s->corner[c][0] - s->eye[0], s->corner[c][1] - s->eye[1], s->corner[c][2] - s->eye[2] };
        float x = d[0] * s->right[0] + d[1] * s->right[1] + d[2] * s->right[2];
        float y = d[0] * s->up[0] + d[1] * s->up[1] + d[2] * s->up[2];
        float z = d[0] * s->fwd[0] + d[1] * s->fwd[1] + d[2] * s->fwd[2];
        assert_true(z > 1);
        float sx = 160 + 160 * x / z, sy = 100 - 160 / 1.2f * y / z;
        x0 = fminf(x0, sx), x1 = fmaxf(x1, sx), y0 = fminf(y0, sy), y1 = fmaxf(y1, sy);
    }
    box[0] = (int)fmaxf(0, floorf(x0));
    box[1] = (int)fmaxf(0, floorf(y0));
    box[2] = (int)fminf(320, ceilf(x1));
    box[3] = (int)fminf(200, ceilf(y1));
}

static const char *out_dir(void) { return tu_tmpdir("FS_TEXANIM_SHOTS"); }

static void shot(const char *demo, double at, const char *png)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s shot %s --basedir %s --at %.4f -o %s 2>&1", tu_bin(), demo, tu_data("forsaken"), at, png);
    int status = -1;
    char *out = tu_run(cmd, &status);
    if (status != 0)
        fail_msg("%s: %s", cmd, out ? out : "");
    free(out);
}

static int differ_in(const char *a, const char *b, const int box[4], int *outside)
{
    int wa, ha, wb, hb, ca, cb;
    uint8_t *pa = stbi_load(a, &wa, &ha, &ca, 3), *pb = stbi_load(b, &wb, &hb, &cb, 3);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(wa, wb);
    assert_int_equal(ha, hb);
    int in = 0, out = 0;
    for (int y = 0; y < ha; y++)
        for (int x = 0; x < wa; x++) {
            int d = memcmp(pa + ((size_t)y * (size_t)wa + (size_t)x) * 3, pb + ((size_t)y * (size_t)wa + (size_t)x) * 3, 3);
            if (x >= box[0] && x < box[2] && y >= box[1] && y < box[3])
                in += d != 0;
            else
                out += d != 0;
        }
    stbi_image_free(pa);
    stbi_image_free(pb);
    if (outside)
        *outside = out;
    return in;
}

static void test_wall_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    TU_REQUIRE_FULL_BUILD();
    wall_t s;
    wall_setup(&s);
    char demo[512], f0[512], f1[512], again[512];
    snprintf(demo, sizeof demo, "%s/fs_texanim_%d.dmo", out_dir(), (int)getpid());
    wall_demo(&s, demo);
    // alpha's script 0: duration 150 (0.1268 s), for ever: a lead-in frame 0 (150 units), then
    // frames 1..5 and 0 (a round of 900 units, 0.7606 s). Units 1125: frame 1; 1275: frame 2;
    // 2025: frame 1 again.
    double t0 = at_units(1125), t1 = at_units(1275), t2 = at_units(2025);
    printf("script %d: frame %d at %.4f s, %d at %.4f s, %d at %.4f s\n", s.anim, fstex_anim_frame(s.tex, s.anim, 1125), t0,
           fstex_anim_frame(s.tex, s.anim, 1275), t1, fstex_anim_frame(s.tex, s.anim, 2025), t2);
    assert_int_equal(fstex_anim_frame(s.tex, s.anim, 1125), 1);
    assert_int_equal(fstex_anim_frame(s.tex, s.anim, 1275), 2);
    assert_int_equal(fstex_anim_frame(s.tex, s.anim, 2025), 1);
    snprintf(f0, sizeof f0, "%s/fs_texanim_f1.png", out_dir());
    snprintf(f1, sizeof f1, "%s/fs_texanim_f2.png", out_dir());
    snprintf(again, sizeof again, "%s/fs_texanim_again.png", out_dir());
    shot(demo, t0, f0);
    shot(demo, t1, f1);
    shot(demo, t2, again);
    int box[4], out;
    wall_box(&s, box);
    int area = (box[2] - box[0]) * (box[3] - box[1]);
    int changed = differ_in(f0, f1, box, &out);
    printf("wall box %d,%d..%d,%d (%d pixels): frame 0 vs 1 %d differ inside, %d outside\n", box[0], box[1], box[2], box[3],
           area, changed, out);
    assert_true(area > 1000);
    assert_true(changed > area / 10);
    int back = differ_in(f0, again, box, &out);
    printf("a round later (frame 1 again): %d differ inside, %d outside\n", back, out);
    assert_int_equal(back, 0);
    tu_golden("texture animation frame 1", f1, "tests/golden/fs_texanim.png", 0.002);

    // the renderer itself: with the animations off frames 0 and 1 draw the same; seek == play
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = tu_data("forsaken");
    const double at[] = { 0.5, t0, t1, t2, 2.37, 3.3 };
    enum { N = sizeof at / sizeof at[0] };
    renderer_t *r = r_create(160, 100);
    assert_non_null(r);
    uint8_t *played[N];
    demo_t d;
    assert_int_equal(demo_open(&d, &cli, demo, NULL, 0), 0);
    player_t *p = player_create(&d, &cli, r, NULL, NULL);
    assert_non_null(p);
    int k = 0;
    for (double t = player_start(p); k < N && t < SCENE_END; t += 0.05) {
        while (k < N && at[k] <= t + 1e-9) {
            double tt = at[k];
            assert_true(player_advance(p, tt) >= 0);
            r_render(r, d.world, player_demo_time(p, tt));
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
    assert_int_equal(demo_open(&d, &cli, demo, NULL, 0), 0);
    p = player_create(&d, &cli, r, NULL, NULL);
    assert_int_equal(player_scan(p), 0);
    int differ = 0;
    for (int i = N - 1; i >= 0; i--) {
        assert_int_equal(player_seek(p, at[i]), 0);
        r_render(r, d.world, player_demo_time(p, at[i]));
        int w, h, pitch;
        const uint8_t *px = r_pixels(r, &w, &h, &pitch);
        if (memcmp(px, played[i], (size_t)h * (size_t)pitch)) {
            printf("seek to %.3f s differs from play\n", at[i]);
            differ++;
        }
        free(played[i]);
    }
    printf("seek == play at %d moments: %d differ\n", N, differ);
    assert_int_equal(differ, 0);
    player_destroy(p);
    demo_close(&d);
    r_destroy(r);
    fstex_free(s.tex);
    if (!getenv("FS_TEXANIM_SHOTS"))
        remove(demo);
}

// The world renderer alone, off: two frames' times draw the same; on: they differ.
static void test_world_off(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    wall_t s;
    wall_setup(&s);
    vfs_t *fs = vfs_create();
    assert_non_null(fs);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/Data", tu_data("forsaken"));
    assert_true(vfs_add_dir(fs, dir) >= 0);
    char err[512];
    r_fsworld_t *fw = r_fsworld_load(fs, "levels/alpha/alpha.mxv", err, sizeof err);
    if (!fw)
        fail_msg("%s", err);
    assert_non_null(r_fsworld_texanims(fw));
    enum { W = 160, H = 100 };
    static pal_t pal;
    pal_set(&pal, r_fsworld_palette(fw), 256);
    uint8_t *img[2][2];
    float *z = malloc(W * H * sizeof *z);
    for (int on = 0; on < 2; on++) {
        r_fsworld_set_texanim(fw, on);
        for (int f = 0; f < 2; f++) {
            img[on][f] = calloc(W * H, 1);
            memset(z, 0, W * H * sizeof *z);
            r_view_t v = { 0 };
            v.buffer = img[on][f];
            v.zbuffer = z;
            v.width = v.rowbytes = W;
            v.height = H;
            memcpy(v.vieworg, s.eye, 12);
            r_fs_angle_vectors(s.ang, v.vpn, v.vright, v.vup);
            v.xcenter = W / 2.0f;
            v.ycenter = H / 2.0f;
            v.xscale = W / 2.0f;
            v.yscale = v.xscale * (H * 4.0f) / (W * 3.0f);
            v.colormap = pal.colormap;
            v.palette = pal.palette;
            v.fullbright_start = 256;
            v.time = at_units(f ? 1275 : 1125);   // alpha's script 0: frames 1 and 2
            r_fsworld_draw(fw, &v);
            printf("texanim %s, %.4f s: %d animated polygons drawn\n", on ? "on" : "off", v.time,
                   r_fsworld_stats(fw).polys_animated);
            if (on)
                assert_true(r_fsworld_stats(fw).polys_animated > 0);
            else
                assert_int_equal(r_fsworld_stats(fw).polys_animated, 0);
        }
    }
    int off = 0, onc = 0;
    for (int i = 0; i < W * H; i++) {
        off += img[0][0][i] != img[0][1][i];
        onc += img[1][0][i] != img[1][1][i];
    }
    printf("%dx%d, frames 1 and 2: %d pixels differ animated, %d with the animations off\n", W, H, onc, off);
    assert_int_equal(off, 0);
    assert_true(onc > 200);
    for (int i = 0; i < 4; i++)
        free(img[i / 2][i % 2]);
    free(z);
    fstex_free(s.tex);
    r_fsworld_free(fw);
    vfs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_level), cmocka_unit_test(test_scripts),    cmocka_unit_test(test_bad_bytes),
        cmocka_unit_test(test_wall_scene),  cmocka_unit_test(test_world_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
