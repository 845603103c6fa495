// test_forsaken_models.c -- Forsaken models (.MX/.MXA): every model of the game data loads,
// pinned counts, cuts and corruptions refused with offsets; ships, shots, explosions and
// pickups drawn by render/r_fsent.c on a real level (goldens), the bike table and the
// level-of-detail rule; the primaries' impacts, the laser's beam and the transpulse's trail.
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <stb_image.h>

#include "assets/fsoff.h"
#include "assets/mx.h"
#include "assets/mxv.h"
#include "engine/vfs.h"
#include "formats/decoder.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsent.h"
#include "render/r_fsworld.h"
#include "fs_data.h"

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

// Every 8-bit texture of Data/Textures loads as the models read them (mxv_bmp_load), the nine RLE8
// ones too (borg.bmp, Lokasenna's bike, drew as flat vertex colour before): borg.bmp is 256 x 128.
// The 24-bit and 1-bit pages (effects' pictures, read elsewhere) are refused at offset 28.
static void test_every_texture_loads(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dir[512];
    snprintf(dir, sizeof dir, "%s/forsaken/Data/Textures", tu_data_dir());
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    struct dirent *de;
    int loaded = 0, rle = 0, refused = 0;
    while ((de = readdir(dp))) {
        size_t n = strlen(de->d_name);
        if (n < 4 || strcasecmp(de->d_name + n - 4, ".bmp"))
            continue;
        char path[1024], err[256] = "";
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t size = 0;
        uint8_t *d = tu_read(path, &size);
        assert_non_null(d);
        int w = 0, h = 0;
        uint8_t pal[768], *px = NULL;
        if (mxv_bmp_load(d, size, 1024, &w, &h, &px, pal, err, sizeof err) < 0) {
            if (size < 30 || d[28] == 8 || !strstr(err, "offset 28: expected 8 bits a pixel"))
                fail_msg("%s: %s", de->d_name, err);
            refused++;
            free(d);
            continue;
        }
        rle += size >= 34 && d[30] == 1;
        if (!strcmp(de->d_name, "borg.bmp")) {
            assert_int_equal(w, 256);
            assert_int_equal(h, 128);
        }
        loaded++;
        free(px);
        free(d);
    }
    closedir(dp);
    printf("textures: %d loaded, %d of them RLE8; %d not 8-bit refused\n", loaded, rle, refused);
    assert_int_equal(loaded, 54);
    assert_int_equal(refused, 12);
    assert_int_equal(rle, 9);
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


// ---- a scene on a real level: ships, a shot, a pickup, an explosion ------------------

static fs_ship_t ship_at(int player, const float pos[3], const float ang[3], float bank)
{
    fs_ship_t s;
    memset(&s, 0, sizeof s);
    s.player = (uint8_t)player;
    s.flags = FS_SHIP_ENABLE;
    memcpy(s.pos, pos, sizeof s.pos);
    s.bank = bank;
    fs_angles_to_quat(ang, s.quat);
    return s;
}

typedef struct {
    float eye[3], ang[3], fwd[3], right[3], up[3];
    float other0[3];          // where player 1 is at t = 0 (it moves along `right` at 120 units/s)
    float pickup[3];
    float shot_org[3], shot_dir[3];
    float blast[3];
} scene_t;

#define SCENE_SHIP_SPEED 120.0f
#define SCENE_SHOT_TIME 1.0
#define SCENE_BLAST_TIME 1.5
#define SCENE_SHOCKWAVE 4.0f   // PURGE_SHOCKWAVE: CreateShockwave's BigFlash 4 units a texel

static void scene_setup(scene_t *sc)
{
    float org[3], ang[3];
    assert_int_equal(fs_start_pos("ship", org, ang), 0);
    ang[0] = 8;   // a little nose down, turned left to look down the hall
    ang[1] -= 35;
    memcpy(sc->eye, org, sizeof org);
    memcpy(sc->ang, ang, sizeof ang);
    r_fs_angle_vectors(ang, sc->fwd, sc->right, sc->up);
    for (int k = 0; k < 3; k++) {
        sc->other0[k] = org[k] + 330 * sc->fwd[k] - 60 * sc->right[k] - 20 * sc->up[k];
        sc->pickup[k] = org[k] + 220 * sc->fwd[k] - 150 * sc->right[k] - 10 * sc->up[k];
        sc->blast[k] = org[k] + 420 * sc->fwd[k] - 110 * sc->right[k];
    }
}

// The demo: the recorder (player 0) sits at the start position; with `others`, bob (player 1,
// bike 3, Excop) flies across in front of it, facing it and banked, a shield pickup lies to the
// right, bob fires a pulsar past the recorder at 1.0 s and a shockwave goes off at 1.5 s.
static void scene_demo(const scene_t *sc, int others, const char *path)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    if (others) {
        fs_write_name(&wr, fs_ticks(0.01), 7, &(fs_name_t){ .player = 1, .name = "bob" });
        fs_write_bikenum(&wr, fs_ticks(0.02), 7, &(fs_bikenum_t){ .player = 1, .bike = 3 });
    }
    float face[3] = { 0, sc->ang[1] + 120, 0 };   // bob turned to show his bike's side
    for (int i = 0; i <= 20; i++) {
        double t = 0.05 + i * 0.1;
        fs_ship_t s0 = ship_at(0, sc->eye, sc->ang, 0);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s0);
        if (others) {
            float p[3];
            for (int k = 0; k < 3; k++)
                p[k] = sc->other0[k] + SCENE_SHIP_SPEED * (float)(t + 0.02) * sc->right[k];
            fs_ship_t s1 = ship_at(1, p, face, 20);
            if (others == 2)
                s1.flags |= FS_SHIP_STEALTH;
            if (others == 3)
                s1.flags |= 3;   // three orbit pulsars (NumMultiples, bits 0-3)
            for (int k = 0; k < 3; k++)
                s1.vel[k] = SCENE_SHIP_SPEED * sc->right[k];
            fs_write_ship(&wr, fs_ticks(t + 0.02), 7, FS_MSG_FUPDATE, &s1);
        }
        if (others && i == 3) {
            fs_droppickup_t d;
            memset(&d, 0, sizeof d);
            d.player = 1;
            d.id = 5;
            d.type = 24;   // shield
            memcpy(d.pos, sc->pickup, sizeof d.pos);
            fs_write_droppickup(&wr, fs_ticks(t + 0.03), 7, &d);
        }
        if (others && fabs(t + 0.05 - SCENE_SHOT_TIME) < 1e-6) {
            fs_primbull_t pb;
            memset(&pb, 0, sizeof pb);
            pb.player = 1;
            pb.owner_type = 1;
            pb.owner = 1;
            pb.bullet_id = 9;
            pb.weapon = 0;   // pulsar
            pb.power_level = 2;
            for (int k = 0; k < 3; k++) {
                pb.pos[k] = sc->other0[k] + SCENE_SHIP_SPEED * (float)SCENE_SHOT_TIME * sc->right[k];
                // towards a point 40 units right of the eye and 30 below
                pb.dir[k] = sc->eye[k] + 40 * sc->right[k] - 30 * sc->up[k] - pb.pos[k];
            }
            fs_write_primbull(&wr, fs_ticks(SCENE_SHOT_TIME), 7, &pb);
        }
        if (others && fabs(t + 0.05 - SCENE_BLAST_TIME) < 1e-6) {
            fs_shockwave_t sw;
            memset(&sw, 0, sizeof sw);
            sw.player = 1;
            sw.owner = 1;
            memcpy(sw.pos, sc->blast, sizeof sw.pos);
            sw.weapon = 255;
            sw.size = SCENE_SHOCKWAVE;
            fs_write_shockwave(&wr, fs_ticks(SCENE_BLAST_TIME), 7, &sw);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// Screen position of p in the 320x200 shot (the view as r_main sets it: xscale 160, yscale 160 / 1.2).
static int project(const scene_t *sc, const float p[3], float *sx, float *sy, float *z)
{
    float d[3] = { p[0] - sc->eye[0], p[1] - sc->eye[1], p[2] - sc->eye[2] };
    float x = d[0] * sc->right[0] + d[1] * sc->right[1] + d[2] * sc->right[2];
    float y = d[0] * sc->up[0] + d[1] * sc->up[1] + d[2] * sc->up[2];
    *z = d[0] * sc->fwd[0] + d[1] * sc->fwd[1] + d[2] * sc->fwd[2];
    if (*z < 1)
        return -1;
    *sx = 160 + 160 * x / *z;
    *sy = 100 - 160 / 1.2f * y / *z;
    return 0;
}

// Pixels that differ between two PNGs inside the box [x0, x1) x [y0, y1), and outside it.
static void diff_box(const char *a, const char *b, int x0, int y0, int x1, int y1, int *in, int *out)
{
    int wa, ha, wb, hb, ca, cb;
    uint8_t *pa = stbi_load(a, &wa, &ha, &ca, 3), *pb = stbi_load(b, &wb, &hb, &cb, 3);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(wa, wb);
    assert_int_equal(ha, hb);
    *in = *out = 0;
    for (int y = 0; y < ha; y++)
        for (int x = 0; x < wa; x++) {
            size_t i = ((size_t)y * (size_t)wa + (size_t)x) * 3;
            int differs = memcmp(pa + i, pb + i, 3) != 0;
            if (x >= x0 && x < x1 && y >= y0 && y < y1)
                *in += differs;
            else
                *out += differs;
        }
    stbi_image_free(pa);
    stbi_image_free(pb);
}

// Mean of r + g + b over a box of a PNG.
static double mean_rgb(const char *png, int x0, int y0, int x1, int y1)
{
    int w, h, c;
    uint8_t *px = stbi_load(png, &w, &h, &c, 3);
    assert_non_null(px);
    double sum = 0;
    int n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < h; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < w; x++, n++)
            sum += px[((size_t)y * (size_t)w + (size_t)x) * 3] + px[((size_t)y * (size_t)w + (size_t)x) * 3 + 1] +
                   px[((size_t)y * (size_t)w + (size_t)x) * 3 + 2];
    stbi_image_free(px);
    return n ? sum / n : 0;
}

static const char *out_dir(void)
{
    return tu_tmpdir("FS_MODEL_SHOTS");
}

// A ship in view is its textured model: inside its projected box the shot differs from one
// without it, outside only where the other things are; golden images of the ship and the
// pickup, the shot in flight and the explosion.
static void test_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    char with[512], without[512];
    snprintf(with, sizeof with, "%s/fs_scene_%d.dmo", out_dir(), (int)getpid());
    snprintf(without, sizeof without, "%s/fs_scene_empty_%d.dmo", out_dir(), (int)getpid());
    scene_demo(&sc, 1, with);
    scene_demo(&sc, 0, without);

    // 0.6 s: the ship (moved on from its 0.57 s update) and the pickup
    double t = 0.6;
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/fs_ship.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_ship_empty.png", out_dir());
    fs_shot(with, t, a);
    fs_shot(without, t, b);
    float p[3], sx, sy, z;
    for (int k = 0; k < 3; k++)
        p[k] = sc.other0[k] + SCENE_SHIP_SPEED * (float)t * sc.right[k];
    assert_int_equal(project(&sc, p, &sx, &sy, &z), 0);
    float r = 80 * 160 / z;   // the Excop is 77 units from nose to tail
    int in, out;
    diff_box(a, b, (int)(sx - r), (int)(sy - r), (int)(sx + r), (int)(sy + r), &in, &out);
    printf("ship at (%.1f, %.1f) %.0f units away, box +-%.0f px: %d pixels differ inside, %d outside\n", sx, sy, z, r,
           in, out);
    assert_true(in > 300);
    int opaque_in = in;
    tu_golden("ship and pickup", a, "tests/golden/fs_ship_pickup.png", 0.002);

    // stealthed: the see-through stealth model; the level shows through it
    char stealth[512], c[512];
    snprintf(stealth, sizeof stealth, "%s/fs_scene_stealth_%d.dmo", out_dir(), (int)getpid());
    snprintf(c, sizeof c, "%s/fs_ship_stealth.png", out_dir());
    scene_demo(&sc, 2, stealth);
    fs_shot(stealth, t, c);
    int in_s, out_s, in_sa;
    diff_box(c, b, (int)(sx - r), (int)(sy - r), (int)(sx + r), (int)(sy + r), &in_s, &out_s);
    diff_box(c, a, (int)(sx - r), (int)(sy - r), (int)(sx + r), (int)(sy + r), &in_sa, &out_s);
    printf("stealthed ship: %d pixels differ from the empty level, %d from the solid ship\n", in_s, in_sa);
    assert_true(in_s > 100 && in_sa > 100);
    (void)opaque_in;
    if (!getenv("FS_MODEL_SHOTS"))
        remove(stealth);

    // the pickup: its own box differs too
    assert_int_equal(project(&sc, sc.pickup, &sx, &sy, &z), 0);
    r = 20 * 160 / z;
    diff_box(a, b, (int)(sx - r), (int)(sy - r), (int)(sx + r), (int)(sy + r), &in, &out);
    printf("pickup at (%.1f, %.1f): %d pixels differ inside\n", sx, sy, in);
    assert_true(in > 40);

    // 1.06 s: the pulsar shot 0.06 s out of bob's gun at 32 x 71 units a second
    t = 1.06;
    snprintf(a, sizeof a, "%s/fs_shot.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_shot_empty.png", out_dir());
    fs_shot(with, t, a);
    fs_shot(without, t, b);
    float org[3], dir[3], len = 0;
    for (int k = 0; k < 3; k++) {
        org[k] = sc.other0[k] + SCENE_SHIP_SPEED * (float)SCENE_SHOT_TIME * sc.right[k];
        dir[k] = sc.eye[k] + 40 * sc.right[k] - 30 * sc.up[k] - org[k];
        len += dir[k] * dir[k];
    }
    len = sqrtf(len);
    for (int k = 0; k < 3; k++)
        p[k] = org[k] + dir[k] / len * 32 * 71 * (float)(t - SCENE_SHOT_TIME);
    assert_int_equal(project(&sc, p, &sx, &sy, &z), 0);
    diff_box(a, b, (int)sx - 2, (int)sy - 2, (int)sx + 3, (int)sy + 3, &in, &out);
    printf("shot at (%.1f, %.1f) %.0f units away: %d of 25 pixels differ\n", sx, sy, z, in);
    assert_true(in >= 20);
    // 1 %: the shot's moving light on the walls rounds differently on the Pentium build's x87
    // (0.36 % of the pixels)
    tu_golden("shot in flight", a, "tests/golden/fs_shot.png", 0.01);

    // 1.6 s: the shockwave (CreateShockwave) 0.1 s in: expl.off's explosion and BIGFLASH.OFF at 4
    // units a texel (its frame 48 texels each side of its centre), pulled 64 units towards the eye
    t = 1.6;
    snprintf(a, sizeof a, "%s/fs_blast.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_blast_empty.png", out_dir());
    fs_shot(with, t, a);
    fs_shot(without, t, b);
    assert_int_equal(project(&sc, sc.blast, &sx, &sy, &z), 0);
    r = SCENE_SHOCKWAVE * 48 * 160 / (z - 64);
    diff_box(a, b, (int)(sx - r), (int)(sy - r), (int)(sx + r), (int)(sy + r), &in, &out);
    printf("shockwave at (%.1f, %.1f) +-%.0f px: %d pixels differ inside\n", sx, sy, r, in);
    assert_true(in > 200);
    // its light on the floor below it
    double lit = mean_rgb(a, (int)(sx - r), (int)(sy + r), (int)(sx + r), (int)(sy + 2 * r));
    double dark = mean_rgb(b, (int)(sx - r), (int)(sy + r), (int)(sx + r), (int)(sy + 2 * r));
    printf("the floor below it: r+g+b %.1f lit, %.1f without\n", lit, dark);
    assert_true(lit > dark * 1.15);
    // 1.5 %: the explosion's light on the walls rounds differently on the Pentium build's x87
    // (0.85 % of the pixels when measured, with the earlier BIGEXP1 look; the shockwave's flash and
    // explosion change 34 % of the box's pixels)
    tu_golden("explosion", a, "tests/golden/fs_explosion.png", 0.015);
    if (!getenv("FS_MODEL_SHOTS")) {   // asked for the pictures: keep the demos too
        remove(with);
        remove(without);
    }
}

// ---- sprite layouts (Data/Offsets/*.OFF) and the primaries' sprites --------------------

static fsoff_t *load_off(const char *name, uint8_t **bytes, size_t *size, char *err, size_t cap)
{
    char path[256];
    snprintf(path, sizeof path, "offsets/%s", name);
    *bytes = fs_file(NULL, path, size);
    assert_non_null(*bytes);
    return fsoff_load(*bytes, *size, name, err, cap);
}

// Every .OFF of the game data loads, to its last byte; pinned counts of the shared files the
// shots use.
static void test_offsets_load(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dir[512];
    snprintf(dir, sizeof dir, "%s/forsaken/Data/Offsets", tu_data_dir());
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    struct dirent *de;
    int files = 0, boxes = 0, frames = 0, parts = 0;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.')
            continue;
        char err[256] = "";
        uint8_t *d;
        size_t n;
        fsoff_t *o = load_off(de->d_name, &d, &n, err, sizeof err);
        if (!o)
            fail_msg("%s: %s", de->d_name, err);
        assert_int_equal(o->end, n);
        files++;
        boxes += o->num_boxes;
        frames += o->num_frames;
        parts += o->num_parts;
        fsoff_free(o);
        free(d);
    }
    closedir(dp);
    printf("offsets: %d files, %d boxes, %d frames, %d parts\n", files, boxes, frames, parts);
    assert_int_equal(files, 54);
    static const struct {
        const char *name, *page;
        int boxes, frames, parts, f0_x, f0_y, f0_box, w, h;
    } pins[] = {
        { "PULSAR.OFF", "HOOP.PPM", 82, 1, 1, -17, -16, 0, 32, 32 },
        { "PULTRAIL.OFF", "HOOP.PPM", 82, 1, 1, -17, 0, 1, 32, 48 },
        { "TROJAX1.OFF", "HOOP.PPM", 82, 1, 1, -33, -32, 15, 64, 64 },
        { "TROJAX2.OFF", "HOOP.PPM", 82, 1, 1, -31, -30, 16, 64, 64 },
        { "ARC.OFF", "SPLAT.PPM", 55, 1, 1, -32, -16, 35, 64, 64 },
        { "FLARE.OFF", "SPLAT.PPM", 55, 1, 1, -33, -32, 42, 64, 64 },
        { "MULTIPLE.OFF", "SPLAT.PPM", 55, 1, 1, -33, -32, 36, 62, 64 },
        { "LASER.OFF", "HOOP.PPM", 82, 3, 3, -9, -8, 32, 16, 14 },
        { "expl.off", "EXPL.PPM", 16, 16, 16, -25, -24, 0, 40, 40 },
        { "BIGEXP1.OFF", "BIGEXP1.PPM", 16, 16, 16, 0, 0, 0, 64, 64 },
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        char err[256] = "";
        uint8_t *d;
        size_t n;
        fsoff_t *o = load_off(pins[i].name, &d, &n, err, sizeof err);
        assert_non_null(o);
        assert_int_equal(o->num_pages, 1);
        assert_string_equal(o->pages[0], pins[i].page);
        assert_int_equal(o->num_boxes, pins[i].boxes);
        assert_int_equal(o->num_frames, pins[i].frames);
        assert_int_equal(o->num_parts, pins[i].parts);
        const fsoff_part_t *pt = &o->parts[o->frames[0].first];
        if (strcmp(pins[i].name, "BIGEXP1.OFF")) {   // its offsets are not centred: not pinned here
            assert_int_equal(pt->x, pins[i].f0_x);
            assert_int_equal(pt->y, pins[i].f0_y);
        }
        assert_int_equal(pt->box, pins[i].f0_box);
        assert_int_equal(o->boxes[pt->box].width, pins[i].w);
        assert_int_equal(o->boxes[pt->box].height, pins[i].h);
        fsoff_free(o);
        free(d);
    }
    char f[32];
    assert_string_equal(fsoff_page_file("HOOP.PPM", f, sizeof f), "hoop.bmp");
}

// Every cut of the shared files is refused with an offset; hostile indices and counts too.
static void test_offsets_bad(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const names[] = { "PULSAR.OFF", "PULTRAIL.OFF", "TROJAX1.OFF", "TROJAX2.OFF", "ARC.OFF",
                                         "FLARE.OFF",  "MULTIPLE.OFF", "LASER.OFF",   "expl.off",    "BIGEXP1.OFF" };
    int cuts = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char err[256] = "";
        uint8_t *d;
        size_t n;
        fsoff_t *o = load_off(names[i], &d, &n, err, sizeof err);
        assert_non_null(o);
        fsoff_free(o);
        for (size_t k = 0; k < n; k++, cuts++) {
            uint8_t *cut = malloc(k ? k : 1);   // exact size: a read past it is caught by ASan
            memcpy(cut, d, k);
            err[0] = 0;
            o = fsoff_load(cut, k, names[i], err, sizeof err);
            if (o || !strstr(err, "offset "))
                fail_msg("%s cut to %zu bytes: %s", names[i], k, o ? "loaded" : err);
            free(cut);
        }
        free(d);
    }
    printf("offsets: %d cuts refused\n", cuts);
    uint8_t *d;
    size_t n;
    char err[256];
    fsoff_t *o = load_off("PULSAR.OFF", &d, &n, err, sizeof err);
    assert_non_null(o);
    fsoff_free(o);
    // PULSAR.OFF: pages at 0, the name at 2, boxes at 11 (82 of 24 bytes from 13), frames at 1981,
    // parts at 1987 (one, from 1989)
    static const struct {
        size_t at;
        uint8_t b0, b1;
        const char *msg;
    } bad[] = {
        { 0, 0, 0, "offset 0: expected texture pages 1..8, not 0" },
        { 0, 9, 0, "offset 0: expected texture pages 1..8, not 9" },
        { 11, 0x00, 0x10, "offset 13: expected 4096 boxes (98304 bytes), file has 1982 left" },
        { 13, 1, 0, "offset 13: expected box 0's page 0..0, not 1" },
        { 1981, 0xff, 0xff, "offset 1981: expected frames 1..32767, not -1" },
        { 1983, 1, 0, "offset 1983: expected frame 0's parts within 0..1, not 1 + 1" },
        { 1993, 82, 0, "offset 1993: expected part 0's box 0..81, not 82" },
        { 2, '/', 'x', "offset 2: expected a printable page name character without a path separator" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t *c = malloc(n);
        memcpy(c, d, n);
        c[bad[i].at] = bad[i].b0;
        c[bad[i].at + 1] = bad[i].b1;
        err[0] = 0;
        o = fsoff_load(c, n, "PULSAR.OFF", err, sizeof err);
        assert_null(o);
        if (!strstr(err, bad[i].msg))
            fail_msg("byte %zu: \"%s\", expected \"%s\"", bad[i].at, err, bad[i].msg);
        free(c);
    }
    // a float coordinate that is not a number
    uint8_t *c = malloc(n);
    memcpy(c, d, n);
    memset(c + 17, 0xff, 4);
    assert_null(fsoff_load(c, n, "PULSAR.OFF", err, sizeof err));
    assert_non_null(strstr(err, "offset 17: expected box 0's texture coordinate"));
    free(c);
    free(d);
    assert_null(fsoff_load(NULL, 0, "none.off", err, sizeof err));
    assert_non_null(strstr(err, "offset 0"));
}

// A pulsar shot crossing the view 100 units ahead of the eye: its sprite is PULSAR.OFF's frame
// on Hoop.bmp at 0.625 units a texel (at 100 units, one texel a pixel across): the shot's
// pixels follow the page's texels: the brightness they add to the scene rises and falls with the texels', the
// middle is the page's white, many colours (the old glow was two flat greens and fails all
// three; the palette's few greens keep the colours themselves from matching closely); golden
// image with a trojax, a transpulse and a pyrolite shot in view too.
#define SPRITE_Z 100.0f
#define SPRITE_T 1.02
// the trojax, the transpulse and the pyrolite at SPRITE_T: ahead, up, right of the eye
static const float SPRITE_OTHERS[3][3] = { { 300, 30, -110 }, { 300, -60, 70 }, { 160, 30, 60 } };
// the trojax's charge (its message's plevel, 0..100)
static void sprite_demo_charge(const scene_t *sc, const char *path, int mask, float trojax_charge)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= 12; i++) {
        double t = 0.05 + i * 0.1;
        fs_ship_t s0 = ship_at(0, sc->eye, sc->ang, 0);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s0);
        if (fabs(t + 0.05 - 1.0) > 1e-6)
            continue;
        // mask: bit k fires shots[k] (the pulsar; a trojax, a transpulse and a pyrolite further off)
        const struct {   // not static: SPRITE_OTHERS is not a constant expression for clang
            int weapon, power;
            float fwd, up, side, speed;   // where it is at SPRITE_T: ahead, up, right; its speed a tick
            int away;   // flies away from the eye (the trojax's disc faces along its path), else to the right
        } shots[] = { { 0, 0, SPRITE_Z, 0, 0, 32, 0 },
                      { 1, 0, SPRITE_OTHERS[0][0], SPRITE_OTHERS[0][1], SPRITE_OTHERS[0][2], 32, 1 },
                      { 3, 2, SPRITE_OTHERS[1][0], SPRITE_OTHERS[1][1], SPRITE_OTHERS[1][2], 48, 0 },
                      { 2, 2, SPRITE_OTHERS[2][0], SPRITE_OTHERS[2][1], SPRITE_OTHERS[2][2], 20, 0 } };
        for (int k = 0; k < 4; k++) {
            if (!(mask >> k & 1))
                continue;
            fs_primbull_t pb;
            memset(&pb, 0, sizeof pb);
            pb.player = 1;
            pb.owner_type = 1;
            pb.owner = 1;
            pb.bullet_id = (uint16_t)(9 + k);
            pb.weapon = (uint8_t)shots[k].weapon;
            pb.power_level = (uint8_t)shots[k].power;
            pb.plevel = shots[k].weapon == 1 ? trojax_charge : 0;
            float back = shots[k].speed * 71 * (float)(SPRITE_T - 1.0);
            const float *dir = shots[k].away ? sc->fwd : sc->right;
            for (int j = 0; j < 3; j++) {
                pb.pos[j] = sc->eye[j] + shots[k].fwd * sc->fwd[j] + shots[k].up * sc->up[j] + shots[k].side * sc->right[j] -
                            back * dir[j];
                pb.dir[j] = dir[j];
            }
            fs_write_primbull(&wr, fs_ticks(1.0), 7, &pb);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

static void sprite_demo(const scene_t *sc, const char *path, int mask) { sprite_demo_charge(sc, path, mask, 100); }

// The trojax's charge (its message's PLevel, 0..100) sizes its sprite: (3 + PLevel x 0.075) x 0.25 units
// a texel, TROJAX1.OFF below full charge: at 20 it covers far fewer pixels than at 100.
static void test_trojax_charge(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    int n[2];
    const float charge[2] = { 100, 20 };
    char none[512], e[512];
    snprintf(none, sizeof none, "%s/fs_trojax_none_%d.dmo", out_dir(), (int)getpid());
    sprite_demo(&sc, none, 0);
    snprintf(e, sizeof e, "%s/fs_trojax_none.png", out_dir());
    fs_shot(none, SPRITE_T, e);
    int w, h, c;
    uint8_t *bg = stbi_load(e, &w, &h, &c, 3);
    assert_non_null(bg);
    for (int i = 0; i < 2; i++) {
        char demo[512], png[512];
        snprintf(demo, sizeof demo, "%s/fs_trojax_%d_%d.dmo", out_dir(), (int)charge[i], (int)getpid());
        snprintf(png, sizeof png, "%s/fs_trojax_%d.png", out_dir(), (int)charge[i]);
        sprite_demo_charge(&sc, demo, 2, charge[i]);
        fs_shot(demo, SPRITE_T, png);
        uint8_t *im = stbi_load(png, &w, &h, &c, 3);
        assert_non_null(im);
        // within its full-charge box (168 units across, as test_sprites): its light brightens the
        // walls around it the same at any charge
        float oc[3], ox, oy, oz;
        for (int k = 0; k < 3; k++)
            oc[k] = sc.eye[k] + SPRITE_OTHERS[0][0] * sc.fwd[k] + SPRITE_OTHERS[0][1] * sc.up[k] +
                    SPRITE_OTHERS[0][2] * sc.right[k];
        assert_int_equal(project(&sc, oc, &ox, &oy, &oz), 0);
        float r = 84 * 160 / oz;
        n[i] = 0;
        for (int y = (int)(oy - r); y < (int)(oy + r); y++)
            for (int x = (int)(ox - r); x < (int)(ox + r); x++) {
                if (x < 0 || y < 0 || x >= w || y >= h)
                    continue;
                size_t p = (size_t)y * (size_t)w + (size_t)x;
                n[i] += im[p * 3] + im[p * 3 + 1] + im[p * 3 + 2] > bg[p * 3] + bg[p * 3 + 1] + bg[p * 3 + 2] + 48;
            }
        stbi_image_free(im);
        if (!getenv("FS_MODEL_SHOTS"))
            remove(demo);
    }
    stbi_image_free(bg);
    if (!getenv("FS_MODEL_SHOTS"))
        remove(none);
    printf("trojax: %d pixels brighter at full charge, %d at 20\n", n[0], n[1]);
    assert_true(n[1] > 0);
    assert_true(n[1] * 2 < n[0]);   // measured 5986 and 2219 (its light brightens the box the same at both)
}

static void test_sprites(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    char demo[512], all[512], none[512], a[512], b[512], e[512];
    snprintf(demo, sizeof demo, "%s/fs_sprite_%d.dmo", out_dir(), (int)getpid());
    snprintf(all, sizeof all, "%s/fs_sprites_%d.dmo", out_dir(), (int)getpid());
    sprite_demo(&sc, demo, 1);
    sprite_demo(&sc, all, 15);
    snprintf(none, sizeof none, "%s/fs_sprites_none_%d.dmo", out_dir(), (int)getpid());
    sprite_demo(&sc, none, 0);
    snprintf(e, sizeof e, "%s/fs_sprites_none.png", out_dir());
    fs_shot(none, SPRITE_T, e);
    snprintf(a, sizeof a, "%s/fs_sprite_pulsar.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_sprites.png", out_dir());
    fs_shot(demo, SPRITE_T, a);
    fs_shot(all, SPRITE_T, b);

    // the page, as the game's 24-bit texels
    size_t size;
    uint8_t *d = fs_file(NULL, "textures/hoop.bmp", &size), *rgb = NULL;
    assert_non_null(d);
    int pw, ph;
    char err[256];
    assert_int_equal(mx_bmp24_load(d, size, 1024, &pw, &ph, &rgb, err, sizeof err), 0);
    free(d);
    int iw, ih, ic;
    uint8_t *img = stbi_load(a, &iw, &ih, &ic, 3), *bg = stbi_load(e, &iw, &ih, &ic, 3);
    assert_non_null(img);
    assert_non_null(bg);
    float c[3], sx, sy, z;
    for (int k = 0; k < 3; k++)
        c[k] = sc.eye[k] + SPRITE_Z * sc.fwd[k];
    assert_int_equal(project(&sc, c, &sx, &sy, &z), 0);
    // PULSAR.OFF frame 0: box 0 (texels 0..32 x 0..32) placed at (-17, -16); 0.625 units a texel
    float kx = 0.625f * 160 / z, ky = 0.625f * 160 / 1.2f / z;
    int compared = 0, match = 0, ncolors = 0;
    uint32_t colors[64];
    double sp = 0, st = 0, spp = 0, stt = 0, spt = 0;
    for (int y = (int)(sy - 16 * ky) - 1; y <= (int)(sy + 16 * ky) + 1; y++)
        for (int x = (int)sx + 1; x <= (int)(sx + 15 * kx) + 1; x++) {   // the right half: no trail there
            float tx = (x + 0.5f - sx) / kx + 17, ty = (y + 0.5f - sy) / ky + 16;
            if (tx < 1 || tx > 31 || ty < 1 || ty > 31 || x < 0 || y < 0 || x >= iw || y >= ih)
                continue;
            const uint8_t *t = rgb + ((size_t)(int)ty * (size_t)pw + (size_t)(int)tx) * 3;
            int bright = t[0] > t[1] ? t[0] : t[1];
            bright = bright > t[2] ? bright : t[2];
            if (bright < 96)
                continue;   // keyed out or nearly: the level shows there
            const uint8_t *px = img + ((size_t)y * (size_t)iw + (size_t)x) * 3;
            compared++;
            match += abs(px[0] - t[0]) < 48 && abs(px[1] - t[1]) < 48 && abs(px[2] - t[2]) < 48;
            // added to the scene: what it adds follows the texel
            const uint8_t *q = bg + ((size_t)y * (size_t)iw + (size_t)x) * 3;
            double lp = px[0] + px[1] + px[2] - (q[0] + q[1] + q[2]), lt = t[0] + t[1] + t[2];
            sp += lp, st += lt, spp += lp * lp, stt += lt * lt, spt += lp * lt;
            uint32_t col = (uint32_t)px[0] << 16 | (uint32_t)px[1] << 8 | px[2];
            int seen = 0;
            for (int i = 0; i < ncolors; i++)
                seen |= colors[i] == col;
            if (!seen && ncolors < 64)
                colors[ncolors++] = col;
        }
    double cov = spt / compared - sp / compared * st / compared, vp = spp / compared - sp / compared * sp / compared,
           vt = stt / compared - st / compared * st / compared;
    double corr = vp > 0 && vt > 0 ? cov / sqrt(vp * vt) : 0;
    const uint8_t *mid = img + ((size_t)(int)sy * (size_t)iw + (size_t)(int)sx) * 3;
    printf("pulsar sprite at (%.1f, %.1f) %.0f units away: %d bright texels, %d of them within 48 of the page's "
           "colour, brightness correlation %.3f, %d colours, middle %d %d %d\n",
           sx, sy, z, compared, match, corr, ncolors, mid[0], mid[1], mid[2]);
    assert_true(compared >= 40);
    assert_true(corr > 0.6);   // 0.745 (the sum saturates where the scene is bright); the old glow 0.00
    assert_true(ncolors >= 6);
    assert_true(mid[0] > 200 && mid[1] > 200 && mid[2] > 200);
    stbi_image_free(img);
    stbi_image_free(bg);
    free(rgb);
    // the others: the trojax (TROJAX2.OFF, 64 texels x 2.625 = 168 units across, flying away)
    // is its blue swirl; the transpulse (FLARE.OFF 64 x 2.25 = 144 units) and the pyrolite
    // (expl.off, about 18 units) add to the scene in their boxes
    // against the same scene without that one shot (its light brightens the walls around it
    // too: the box beside it, as far again to its side, is counted the same way and must show
    // fewer)
    static const struct {
        const char *what;
        float half;   // half its size in units
    } others[] = { { "trojax", 84 }, { "transpulse", 72 }, { "pyrolite", 9 } };
    int w2, h2, c2;
    uint8_t *im = stbi_load(b, &w2, &h2, &c2, 3);
    assert_non_null(im);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        char bdemo[512], bpng[512];
        snprintf(bdemo, sizeof bdemo, "%s/fs_sprites_but%zu_%d.dmo", out_dir(), i, (int)getpid());
        snprintf(bpng, sizeof bpng, "%s/fs_sprites_but%zu.png", out_dir(), i);
        sprite_demo(&sc, bdemo, 15 & ~(2 << i));
        fs_shot(bdemo, SPRITE_T, bpng);
        if (!getenv("FS_MODEL_SHOTS"))
            remove(bdemo);
        uint8_t *bg2 = stbi_load(bpng, &w2, &h2, &c2, 3);
        assert_non_null(bg2);
        float oc[3], ox, oy, oz;
        for (int k = 0; k < 3; k++)
            oc[k] = sc.eye[k] + SPRITE_OTHERS[i][0] * sc.fwd[k] + SPRITE_OTHERS[i][1] * sc.up[k] +
                    SPRITE_OTHERS[i][2] * sc.right[k];
        assert_int_equal(project(&sc, oc, &ox, &oy, &oz), 0);
        float r = others[i].half * 160 / oz;
        int n[2] = { 0, 0 };
        for (int side = 0; side < 2; side++) {
            float cx = ox + (side ? (ox < 160 ? -2 * r : 2 * r) : 0);   // beside it, away from the middle
            for (int y = (int)(oy - r); y < (int)(oy + r); y++)
                for (int x = (int)(cx - r); x < (int)(cx + r); x++) {
                    if (x < 0 || y < 0 || x >= w2 || y >= h2)
                        continue;
                    const uint8_t *q = im + ((size_t)y * (size_t)w2 + (size_t)x) * 3,
                                  *q0 = bg2 + ((size_t)y * (size_t)w2 + (size_t)x) * 3;
                    n[side] += q[0] + q[1] + q[2] > q0[0] + q0[1] + q0[2] + 48;
                }
        }
        printf("%s at (%.1f, %.1f) %.0f units away, box +-%.0f px: %d pixels brighter than without it, %d in the box "
               "beside it\n",
               others[i].what, ox, oy, oz, r, n[0], n[1]);
        assert_true(n[0] >= (int)(r * r * 0.5f));
        assert_true(n[0] > 2 * n[1]);   // the transpulse's red light (255 at power 2) reaches the box beside it
        stbi_image_free(bg2);
    }
    stbi_image_free(im);
    tu_golden("pulsar sprite", a, "tests/golden/fs_sprite_pulsar.png", 0.01);
    tu_golden("trojax, transpulse, pyrolite sprites", b, "tests/golden/fs_sprites.png", 0.01);
    if (!getenv("FS_MODEL_SHOTS")) {
        remove(demo);
        remove(all);
        remove(none);
    }
}

// ---- the primaries' impacts on the walls and the laser's beam ------------------------------

// The first level triangle along the unit dir from org (either side), as the renderer finds it:
// the distance, or -1.
static float level_ray(const mxv_t *m, const float org[3], const float dir[3])
{
    float best = -1;
    for (int i = 0; i < m->num_tris; i++) {
        const float *a = m->verts[m->tris[i].v[0]].pos, *b = m->verts[m->tris[i].v[1]].pos,
                    *c = m->verts[m->tris[i].v[2]].pos;
        double e1[3], e2[3], s[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = b[k] - a[k];
            e2[k] = c[k] - a[k];
            s[k] = org[k] - a[k];
        }
        double p[3] = { dir[1] * e2[2] - dir[2] * e2[1], dir[2] * e2[0] - dir[0] * e2[2], dir[0] * e2[1] - dir[1] * e2[0] };
        double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
        if (fabs(det) < 1e-8)
            continue;
        double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
        double q[3] = { s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0] };
        double vv = (dir[0] * q[0] + dir[1] * q[1] + dir[2] * q[2]) / det;
        double t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
        if (u < 0 || u > 1 || vv < 0 || u + vv > 1 || t <= 0.5)
            continue;
        if (best < 0 || t < best)
            best = (float)t;
    }
    return best;
}

// A primary fired in impact_demo: weapon, power, from org along dir at t (a multiple of 0.05 s).
typedef struct {
    int weapon, power;
    float org[3], dir[3];
    double t;
} imp_fire_t;

// A demo of the recorder at the start position (updates every 0.05 s until `until`) and the
// primaries `fires` (bullet ids 21, 22 ...).
static void impact_demo_with(const scene_t *sc, const char *path, const imp_fire_t *fires, int nfires, double until,
                             const float *bob);

static void impact_demo(const scene_t *sc, const char *path, const imp_fire_t *fires, int nfires, double until)
{
    impact_demo_with(sc, path, fires, nfires, until, NULL);
}

// As impact_demo, with bob (player 2) parked at `bob` (NULL: none).
static void impact_demo_with(const scene_t *sc, const char *path, const imp_fire_t *fires, int nfires, double until,
                             const float *bob)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; 0.05 * i <= until; i++) {
        double t = 0.05 + i * 0.05;
        fs_ship_t s0 = ship_at(0, sc->eye, sc->ang, 0);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s0);
        if (bob) {
            fs_ship_t s2 = ship_at(2, bob, sc->ang, 0);
            fs_write_ship(&wr, fs_ticks(t + 0.01), 9, FS_MSG_FUPDATE, &s2);
        }
        for (int f = 0; f < nfires; f++) {
            if (fabs(t + 0.05 - fires[f].t) > 1e-6)
                continue;
            fs_primbull_t pb;
            memset(&pb, 0, sizeof pb);
            pb.player = 1;
            pb.owner_type = 1;
            pb.owner = 1;
            pb.bullet_id = (uint16_t)(21 + f);
            pb.weapon = (uint8_t)fires[f].weapon;
            pb.power_level = (int16_t)fires[f].power;
            pb.plevel = fires[f].weapon == 1 ? 100 : 0;
            memcpy(pb.pos, fires[f].org, sizeof pb.pos);
            memcpy(pb.dir, fires[f].dir, sizeof pb.dir);
            fs_write_primbull(&wr, fs_ticks(fires[f].t), 7, &pb);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// Pixels of box (cx +- r, cy +- r) brighter (r + g + b more than `by` up) in a than in b.
static int brighter_by(const char *a, const char *b, float cx, float cy, float r, int by)
{
    int w, h, c, w2, h2;
    uint8_t *pa = stbi_load(a, &w, &h, &c, 3), *pb = stbi_load(b, &w2, &h2, &c, 3);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(w, w2);
    int n = 0;
    for (int y = (int)floorf(cy - r); y < (int)ceilf(cy + r); y++)
        for (int x = (int)floorf(cx - r); x < (int)ceilf(cx + r); x++) {
            if (x < 0 || y < 0 || x >= w || y >= h)
                continue;
            size_t p = ((size_t)y * (size_t)w + (size_t)x) * 3;
            n += pa[p] + pa[p + 1] + pa[p + 2] > pb[p] + pb[p + 1] + pb[p + 2] + by;
        }
    stbi_image_free(pa);
    stbi_image_free(pb);
    return n;
}

static int brighter_box(const char *a, const char *b, float cx, float cy, float r)
{
    return brighter_by(a, b, cx, cy, r, 48);
}

// The gun: 30 units ahead of the eye, 15 below, as a ship's would be; the aim: `side` units right
// of the middle of the view, 700 ahead.
static void impact_aim(const scene_t *sc, float side, float upward, float org[3], float dir[3])
{
    for (int k = 0; k < 3; k++) {
        org[k] = sc->eye[k] + 30 * sc->fwd[k] - 15 * sc->up[k];
        dir[k] = sc->eye[k] + 700 * sc->fwd[k] + side * sc->right[k] + upward * sc->up[k] - org[k];
    }
    float l = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    for (int k = 0; k < 3; k++)
        dir[k] /= l;
}

// Each primary's impact where it meets the wall (the wall point found here by the same ray on
// the level's triangles): the pulsar's PULS_EXP.OFF (a frame every 4 ticks, 5 frames: gone after
// 20), the trojax's TROJ_EXP.OFF ring on the wall (fading 8 a tick from 128), the transpulse's red
// ring and flare (48 ticks), the suss-gun's flare then SHRAPNEL.OFF (5 + 24 ticks): each brightens
// the box round its (pulled out, FM_FLAG_MOVEOUT) wall point against the same scene without the
// shot a few ticks after the hit, and no longer once its time is over; golden of the four.
static void test_impacts(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    size_t size;
    char map[128], err[256] = "";
    uint8_t *d = fs_level_bytes("ship", &size, map, sizeof map);
    assert_non_null(d);
    mxv_t *m = mxv_load(d, size, map, err, sizeof err);
    free(d);
    if (!m)
        fail_msg("%s", err);
    static const struct {
        const char *what;
        int weapon, power;
        float speed;      // units a tick
        float side, up;   // the aim
        float half;       // units, half the sprite's size at the time looked at (pulled out: nearer)
        float at, gone;   // ticks after the hit: looked at, and when it is over
    } shots[] = {
        { "pulsar", 0, 2, 32, -200, -200, 16, 10, 24 },    // on the floor
        { "trojax", 1, 0, 32, 200, 100, 128, 4, 40 },      // on the wall ahead
        { "transpulse", 3, 2, 48, 400, -200, 40, 6, 60 },  // on the floor
        { "suss-gun", 4, 2, 32, -100, 300, 16, 10, 32 },   // on the ceiling
    };
    char none[512], e[512], gold[512];
    snprintf(none, sizeof none, "%s/fs_impact_none_%d.dmo", out_dir(), (int)getpid());
    impact_demo(&sc, none, NULL, 0, 3.0);
    for (size_t i = 0; i < sizeof shots / sizeof shots[0]; i++) {
        float org[3], dir[3], wall[3], sx, sy, z;
        impact_aim(&sc, shots[i].side, shots[i].up, org, dir);
        float dist = level_ray(m, org, dir);
        assert_true(dist > 200);
        for (int k = 0; k < 3; k++)
            wall[k] = org[k] + dir[k] * dist;
        assert_int_equal(project(&sc, wall, &sx, &sy, &z), 0);
        assert_true(sx > 20 && sx < 300 && sy > 20 && sy < 180);
        double hit = 1.0 + dist / (shots[i].speed * 71);
        char demo[512], a[512], b[512], c[512];
        snprintf(demo, sizeof demo, "%s/fs_impact_%zu_%d.dmo", out_dir(), i, (int)getpid());
        imp_fire_t fire = { shots[i].weapon, shots[i].power, { org[0], org[1], org[2] }, { dir[0], dir[1], dir[2] }, 1.0 };
        impact_demo(&sc, demo, &fire, 1, 3.0);
        snprintf(a, sizeof a, "%s/fs_impact_%zu.png", out_dir(), i);
        snprintf(b, sizeof b, "%s/fs_impact_%zu_none.png", out_dir(), i);
        snprintf(c, sizeof c, "%s/fs_impact_%zu_gone.png", out_dir(), i);
        double at = hit + shots[i].at / 71.0, gone = hit + (shots[i].gone + 2) / 71.0;
        fs_shot(demo, at, a);
        fs_shot(none, at, b);
        // pulled out: 64 units nearer the eye (it is more than 174 away), so larger on the screen
        float zc = z - 64 * z / sqrtf((wall[0] - sc.eye[0]) * (wall[0] - sc.eye[0]) + (wall[1] - sc.eye[1]) * (wall[1] - sc.eye[1]) +
                                      (wall[2] - sc.eye[2]) * (wall[2] - sc.eye[2]));
        float r = shots[i].half * 160 / zc;
        int n = brighter_box(a, b, sx, sy, r);
        char c2[512];
        snprintf(c2, sizeof c2, "%s/fs_impact_%zu_gone_none.png", out_dir(), i);
        fs_shot(demo, gone, c);
        fs_shot(none, gone, c2);
        int n_gone = brighter_box(c, c2, sx, sy, r);
        printf("%s: hits the wall %.0f units away at %.3f s, (%.1f, %.1f) on the screen: %d pixels of its box (+-%.0f) "
               "brighter %.0f ticks after, %d after %.0f ticks\n",
               shots[i].what, dist, hit, sx, sy, n, r, shots[i].at, n_gone, shots[i].gone + 2);
        assert_true(n >= (int)(r * r * 0.25f));
        assert_true(n_gone * 20 < n);
        if (!getenv("FS_MODEL_SHOTS"))
            remove(demo);
    }
    // the four at once at 1.5 s, each fired (on the demo's 0.05 s steps) to be about its `at`
    // ticks past its hit then
    imp_fire_t all[4];
    for (int i = 0; i < 4; i++) {
        impact_aim(&sc, shots[i].side, shots[i].up, all[i].org, all[i].dir);
        float flight = level_ray(m, all[i].org, all[i].dir) / (shots[i].speed * 71);
        all[i].weapon = shots[i].weapon;
        all[i].power = shots[i].power;
        all[i].t = floor((1.5 - flight - shots[i].at / 71.0) / 0.05 + 0.5) * 0.05;
        double age = (1.5 - all[i].t - flight) * 71;
        assert_true(age > 1 && age < shots[i].gone - 4);
    }
    char demo[512];
    snprintf(demo, sizeof demo, "%s/fs_impacts_%d.dmo", out_dir(), (int)getpid());
    impact_demo(&sc, demo, all, 4, 2.0);
    snprintf(e, sizeof e, "%s/fs_impacts.png", out_dir());
    fs_shot(demo, 1.5, e);
    snprintf(gold, sizeof gold, "tests/golden/fs_impacts.png");
    tu_golden("the primaries' impacts", e, gold, 0.01);
    mxv_free(m);
    if (!getenv("FS_MODEL_SHOTS")) {
        remove(demo);
        remove(none);
    }
}

// Pixels brighter (r + g + b more than 48 up) in a than in b inside the box [x0, x1) x [y0, y1)
// and outside it.
static void brighter_in_out(const char *a, const char *b, float x0, float y0, float x1, float y1, int *in, int *out)
{
    int w, h, c, w2, h2;
    uint8_t *pa = stbi_load(a, &w, &h, &c, 3), *pb = stbi_load(b, &w2, &h2, &c, 3);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(w, w2);
    *in = *out = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t p = ((size_t)y * (size_t)w + (size_t)x) * 3;
            if (pa[p] + pa[p + 1] + pa[p + 2] <= pb[p] + pb[p + 1] + pb[p + 2] + 48)
                continue;
            if (x >= x0 && x < x1 && y >= y0 && y < y1)
                (*in)++;
            else
                (*out)++;
        }
    stbi_image_free(pa);
    stbi_image_free(pb);
}

// A full-charge trojax's sparks where it hits the wall ahead (CreateTrojaxExplosion: (100 + 10) /
// 5 + 5 = 27 FM_BITS sparks of BITS.OFF at 2 .. 4 units a tick, 36 ticks): 20 ticks after the hit
// its ring is black (128 less 8 a tick), so what is brighter than the scene without the shot is
// its sparks: inside the screen box of the cube round the wall point grown by their largest
// travel (4 x 20 units) and a spark's half size (BITS.OFF's widest part x SPARKSIZE 2), none
// outside; the same moment twice is the same picture; 40 ticks after, nothing is left; golden.
static void test_impact_sparks(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    size_t size;
    char map[128], err[256] = "";
    uint8_t *d = fs_level_bytes("ship", &size, map, sizeof map);
    assert_non_null(d);
    mxv_t *m = mxv_load(d, size, map, err, sizeof err);
    free(d);
    if (!m)
        fail_msg("%s", err);
    imp_fire_t fire = { 1, 2, { 0 }, { 0 }, 1.0 };
    impact_aim(&sc, 200, 100, fire.org, fire.dir);
    float dist = level_ray(m, fire.org, fire.dir), wall[3];
    mxv_free(m);
    assert_true(dist > 200);
    for (int k = 0; k < 3; k++)
        wall[k] = fire.org[k] + fire.dir[k] * dist;
    // BITS.OFF's widest part (texels) x SPARKSIZE: a spark's half size in units
    uint8_t *ob;
    size_t osz;
    fsoff_t *off = load_off("bits.off", &ob, &osz, err, sizeof err);
    if (!off)
        fail_msg("%s", err);
    int widest = 0;
    for (int i = 0; i < off->num_parts; i++) {
        const fsoff_box_t *bx = &off->boxes[off->parts[i].box];
        int e = abs(off->parts[i].x) + bx->width;
        e = abs(off->parts[i].y) + bx->height > e ? abs(off->parts[i].y) + bx->height : e;
        widest = e > widest ? e : widest;
    }
    fsoff_free(off);
    free(ob);
    float reach = 4 * 20 + 2.0f * (float)widest;
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int c = 0; c < 8; c++) {
        float p[3] = { wall[0] + (c & 1 ? reach : -reach), wall[1] + (c & 2 ? reach : -reach),
                       wall[2] + (c & 4 ? reach : -reach) }, sx, sy, z;
        assert_int_equal(project(&sc, p, &sx, &sy, &z), 0);
        x0 = sx < x0 ? sx : x0, x1 = sx > x1 ? sx : x1;
        y0 = sy < y0 ? sy : y0, y1 = sy > y1 ? sy : y1;
    }
    char demo[512], none[512], a[512], a2[512], b[512], c[512], c2[512];
    snprintf(demo, sizeof demo, "%s/fs_sparks_%d.dmo", out_dir(), (int)getpid());
    snprintf(none, sizeof none, "%s/fs_sparks_none_%d.dmo", out_dir(), (int)getpid());
    impact_demo(&sc, demo, &fire, 1, 2.5);
    impact_demo(&sc, none, NULL, 0, 2.5);
    snprintf(a, sizeof a, "%s/fs_sparks.png", out_dir());
    snprintf(a2, sizeof a2, "%s/fs_sparks_again.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_sparks_none.png", out_dir());
    snprintf(c, sizeof c, "%s/fs_sparks_gone.png", out_dir());
    snprintf(c2, sizeof c2, "%s/fs_sparks_gone_none.png", out_dir());
    double hit = 1.0 + dist / (32 * 71.0), at = hit + 20 / 71.0, gone = hit + 40 / 71.0;
    fs_shot(demo, at, a);
    fs_shot(demo, at, a2);
    fs_shot(none, at, b);
    fs_shot(demo, gone, c);
    fs_shot(none, gone, c2);
    int in, out, gone_in, gone_out;
    brighter_in_out(a, b, x0, y0, x1, y1, &in, &out);
    brighter_in_out(c, c2, x0, y0, x1, y1, &gone_in, &gone_out);
    size_t la, la2;
    uint8_t *fa = tu_read(a, &la), *fa2 = tu_read(a2, &la2);
    assert_non_null(fa);
    assert_non_null(fa2);
    assert_true(la == la2 && !memcmp(fa, fa2, la));
    free(fa);
    free(fa2);
    printf("trojax sparks: wall %.0f units away, hit at %.3f s; 20 ticks after, box (%.0f, %.0f) .. (%.0f, %.0f) (reach %.0f "
           "units): %d pixels brighter inside, %d outside; 40 ticks after: %d and %d\n",
           dist, hit, x0, y0, x1, y1, reach, in, out, gone_in, gone_out);
    assert_true(in >= 20);
    assert_int_equal(out, 0);
    assert_int_equal(gone_in + gone_out, 0);
    tu_golden("the trojax's impact sparks", a, "tests/golden/fs_impact_sparks.png", 0.01);
    if (!getenv("FS_MODEL_SHOTS")) {
        remove(demo);
        remove(none);
    }
}

// level_ray's triangle's unit normal too (facing back along dir); the distance or -1.
static float level_ray_n(const mxv_t *m, const float org[3], const float dir[3], float n[3])
{
    float best = level_ray(m, org, dir);
    if (best < 0)
        return best;
    // the triangle that ray met: the one whose plane holds the point (the nearest such)
    float p[3] = { org[0] + dir[0] * best, org[1] + dir[1] * best, org[2] + dir[2] * best }, err = 1e9f;
    for (int i = 0; i < m->num_tris; i++) {
        const float *a = m->verts[m->tris[i].v[0]].pos, *b = m->verts[m->tris[i].v[1]].pos,
                    *c = m->verts[m->tris[i].v[2]].pos;
        float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
        float q[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
        float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        if (l < 1e-6f)
            continue;
        float d = fabsf((p[0] - a[0]) * q[0] + (p[1] - a[1]) * q[1] + (p[2] - a[2]) * q[2]) / l;
        float back = q[0] * dir[0] + q[1] * dir[1] + q[2] * dir[2] > 0 ? -1.0f : 1.0f;
        // on the triangle (barycentric inside) and in its plane
        float v2[3] = { p[0] - a[0], p[1] - a[1], p[2] - a[2] };
        float d00 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2], d01 = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2],
              d11 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2], d20 = v2[0] * e1[0] + v2[1] * e1[1] + v2[2] * e1[2],
              d21 = v2[0] * e2[0] + v2[1] * e2[1] + v2[2] * e2[2], den = d00 * d11 - d01 * d01;
        if (fabsf(den) < 1e-9f)
            continue;
        float bv = (d11 * d20 - d01 * d21) / den, bw = (d00 * d21 - d01 * d20) / den;
        if (bv < -1e-3f || bw < -1e-3f || bv + bw > 1 + 1e-3f || d >= err)
            continue;
        err = d;
        for (int k = 0; k < 3; k++)
            n[k] = q[k] * back / l;
    }
    assert_true(err < 0.1f);
    return best;
}

// The first shot's place at `at` as the drawer (with the level `m`: its walls) has it after the
// frame just before `at`; returns how many shots fly then (-1: no such frame).
static int shot_pos_at(const char *path, const mxv_t *m, double at, float p[3])
{
    fs_play_t pl;
    fs_play_open(&pl, path, 0);
    pl.fe = r_fsent_create();
    asset_files_t files = { fs_file, NULL };
    r_fsent_load(pl.fe, &files, tu_palette(), m);
    int n = -1;
    while (fs_play_frame(&pl)) {
        if (pl.w->time <= at && pl.w->time + 0.1 > at)
            n = r_fsent_shots(pl.fe, at, p);
    }
    fs_play_close(&pl);
    return n;
}

// The transpulse's bounce and the pyrolite's (ProcessPrimaryBullets "Hit Background": NewDir, the
// direction reflected at the wall; ChangeTranspulseDir halves the transpulse's speed, one bounce):
// fired at the floor, `k` ticks after it met it the shot is at the wall point + the reflected
// direction x its speed (24, 20 units a tick) x k, found by the same ray on the level's triangles
// here, not where it would be had it gone on straight; the transpulse then ends on its next wall.
static void test_bounces(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    size_t size;
    char map[128], err[256] = "";
    uint8_t *d = fs_level_bytes("ship", &size, map, sizeof map);
    assert_non_null(d);
    mxv_t *m = mxv_load(d, size, map, err, sizeof err);
    free(d);
    if (!m)
        fail_msg("%s", err);
    static const struct {
        const char *what;
        int weapon;
        float speed, speed2;   // units a tick, before and after the bounce
        float side, up;
        int life;              // ticks
    } shots[] = {
        { "transpulse", 3, 48, 24, 400, -200, 1000 },
        { "pyrolite", 2, 20, 20, -200, -200, 64 },
    };
    for (size_t i = 0; i < sizeof shots / sizeof shots[0]; i++) {
        imp_fire_t fire = { shots[i].weapon, 2, { 0 }, { 0 }, 1.0 };
        float n[3], wall[3], r[3], dot = 0;
        impact_aim(&sc, shots[i].side, shots[i].up, fire.org, fire.dir);
        float dist = level_ray_n(m, fire.org, fire.dir, n);
        assert_true(dist > 100);
        for (int k = 0; k < 3; k++) {
            wall[k] = fire.org[k] + fire.dir[k] * dist;
            dot += fire.dir[k] * n[k];
        }
        for (int k = 0; k < 3; k++)
            r[k] = fire.dir[k] - 2 * dot * n[k];
        float d2 = level_ray(m, wall, r);
        double hit = 1.0 + dist / (shots[i].speed * 71);
        int k = 10;
        while (k > 1 && (d2 > 0 && shots[i].speed2 * (float)k > d2 - 20))
            k--;
        assert_true(dist / shots[i].speed + (float)k < (float)shots[i].life);
        char demo[512];
        snprintf(demo, sizeof demo, "%s/fs_bounce_%zu_%d.dmo", out_dir(), i, (int)getpid());
        impact_demo(&sc, demo, &fire, 1, 2.5);
        float p[3], want[3], straight[3], e = 0, off = 0;
        int nshots = shot_pos_at(demo, m, hit + k / 71.0, p);
        for (int j = 0; j < 3; j++) {
            want[j] = wall[j] + r[j] * shots[i].speed2 * (float)k;
            straight[j] = wall[j] + fire.dir[j] * shots[i].speed * (float)k;
            e += (p[j] - want[j]) * (p[j] - want[j]);
            off += (p[j] - straight[j]) * (p[j] - straight[j]);
        }
        printf("%s: meets the floor %.0f units away at %.3f s (normal %.2f %.2f %.2f), next wall %.0f units on; %d ticks "
               "after, %d shot(s), at %.1f units from the reflected place, %.0f from the straight one\n",
               shots[i].what, dist, hit, n[0], n[1], n[2], d2, k, nshots, sqrtf(e), sqrtf(off));
        assert_int_equal(nshots, 1);
        assert_true(sqrtf(e) < 1.0f);
        assert_true(sqrtf(off) > 20);
        if (shots[i].weapon == 3 && d2 > 0) {   // gone after its next wall (no bounce left)
            double end = hit + d2 / (shots[i].speed2 * 71);
            assert_int_equal(shot_pos_at(demo, m, end + 2 / 71.0, p), 0);
            assert_int_equal(shot_pos_at(demo, m, end - 2 / 71.0, p), 1);
        }
        if (!getenv("FS_MODEL_SHOTS"))
            remove(demo);
    }
    mxv_free(m);
}

// Where a laser's beam ends at `at`, played in-process with the level (its walls); returns the lasers
// drawn then.
static int laser_end_at(const char *path, const mxv_t *m, double at, float p[3])
{
    fs_play_t pl;
    fs_play_open(&pl, path, 0);
    pl.fe = r_fsent_create();
    asset_files_t files = { fs_file, NULL };
    r_fsent_load(pl.fe, &files, tu_palette(), m);
    int n = -1;
    while (fs_play_frame(&pl)) {
        if (pl.w->time <= at && pl.w->time + 0.1 > at)
            n = r_fsent_lasers(pl.fe, at, p);
    }
    fs_play_close(&pl);
    return n;
}

// The laser stops on the first ship in its way (ProcessPrimaryBullets: CheckHitShip on each tick's
// beam before the wall; CreateLaserPulse at that ship): test_laser's beam with bob parked on it 40 %
// of the way to the wall. In-process, 2 and 10 ticks after it was fired its beam ends where its line
// meets bob's 75-unit sphere (its distance from the gun 40 % less 75), without bob on its wall (main's
// build: on the wall through bob). In the picture (looked at: the beam ends in its flare on bob),
// against the same scene without the laser, the points of its projected line before bob's sphere
// are brighter; golden fs_laser_bob.png.
static void test_laser_ship(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    size_t size;
    char map[128], err[256] = "";
    uint8_t *d = fs_level_bytes("ship", &size, map, sizeof map);
    assert_non_null(d);
    mxv_t *m = mxv_load(d, size, map, err, sizeof err);
    free(d);
    if (!m)
        fail_msg("%s", err);
    imp_fire_t fire = { 5, 2, { 0 }, { 0 }, 1.0 };
    impact_aim(&sc, 200, 100, fire.org, fire.dir);
    for (int k = 0; k < 3; k++)
        fire.org[k] += -60 * sc.right[k] - 10 * sc.up[k];
    float aim[3], bob[3];
    for (int k = 0; k < 3; k++)
        aim[k] = sc.eye[k] + 700 * sc.fwd[k] + 200 * sc.right[k] + 100 * sc.up[k] - fire.org[k];
    float l = sqrtf(aim[0] * aim[0] + aim[1] * aim[1] + aim[2] * aim[2]);
    for (int k = 0; k < 3; k++)
        fire.dir[k] = aim[k] / l;
    float dist = level_ray(m, fire.org, fire.dir);
    mxv_free(m);
    assert_true(dist > 300);
    for (int k = 0; k < 3; k++)
        bob[k] = fire.org[k] + fire.dir[k] * dist * 0.4f;
    float meet = dist * 0.4f - 75;   // where the beam meets bob's sphere (it runs through his centre)
    char demo[512], none[512], a[512], b[512];
    snprintf(demo, sizeof demo, "%s/fs_laser_bob_%d.dmo", out_dir(), (int)getpid());
    snprintf(none, sizeof none, "%s/fs_laser_bob_none_%d.dmo", out_dir(), (int)getpid());
    impact_demo_with(&sc, demo, &fire, 1, 2.0, bob);
    impact_demo_with(&sc, none, NULL, 0, 2.0, bob);
    snprintf(a, sizeof a, "%s/fs_laser_bob.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_laser_bob_none.png", out_dir());
    double at = 1.0 + 2 / 71.0;
    fs_shot(demo, at, a);
    fs_shot(none, at, b);
    size_t lsize;
    uint8_t *ld = fs_level_bytes("ship", &lsize, map, sizeof map);
    assert_non_null(ld);
    m = mxv_load(ld, lsize, map, err, sizeof err);
    free(ld);
    assert_non_null(m);
    char alone[512];
    snprintf(alone, sizeof alone, "%s/fs_laser_alone_%d.dmo", out_dir(), (int)getpid());
    impact_demo_with(&sc, alone, &fire, 1, 2.0, NULL);
    for (int tick = 2; tick <= 10; tick += 8) {
        float e1[3], e2[3], l1 = 0, l2 = 0;
        int n1 = laser_end_at(demo, m, 1.0 + (tick + 0.5) / 71.0, e1), n2 = laser_end_at(alone, m, 1.0 + (tick + 0.5) / 71.0, e2);
        for (int k = 0; k < 3; k++) {
            l1 += (e1[k] - fire.org[k]) * (e1[k] - fire.org[k]);
            l2 += (e2[k] - fire.org[k]) * (e2[k] - fire.org[k]);
        }
        printf("laser %d ticks after it was fired: with bob %d beam ending %.2f units from the gun (his sphere: %.2f), "
               "without him %d ending %.2f (its wall: %.2f)\n", tick, n1, sqrtf(l1), meet, n2, sqrtf(l2), dist);
        assert_int_equal(n1, 1);
        assert_int_equal(n2, 1);
        assert_true(fabsf(sqrtf(l1) - meet) < 0.5f);
        assert_true(fabsf(sqrtf(l2) - dist) < 1.0f);
    }
    mxv_free(m);
    if (!getenv("FS_MODEL_SHOTS"))
        remove(alone);
    int before = 0, nbefore = 0, past = 0, npast = 0;
    for (int i = 0; i <= 14; i++) {
        float f = 0.15f + 0.05f * (float)i, p[3], sx, sy, z, along = dist * f;
        for (int k = 0; k < 3; k++)
            p[k] = fire.org[k] + fire.dir[k] * along;
        if (project(&sc, p, &sx, &sy, &z) || sx < 3 || sx > 316 || sy < 33 || sy > 196)
            continue;
        if (along < meet - 10) {
            nbefore++;
            before += brighter_box(a, b, sx, sy, 1.5f) > 0;
        } else if (along > meet + 0.15f * dist) {
            npast++;
            past += brighter_box(a, b, sx, sy, 1.5f) > 0;
        }
    }
    printf("laser at bob 40 %% of the way (%.0f units) to its wall (%.0f): it meets his sphere %.0f units out; of %d "
           "points of its line before that %d brighter than without it (of %d from 15 %% past it, which lie behind his "
           "flare on the screen, %d)\n", dist * 0.4f, dist, meet, nbefore, before, npast, past);
    assert_true(nbefore >= 2 && before >= nbefore - 1);
    tu_golden("the laser stopping on bob", a, "tests/golden/fs_laser_bob.png", 0.01);
    if (!getenv("FS_MODEL_SHOTS")) {
        remove(demo);
        remove(none);
    }
}

// The transpulse's turn at its bounce (ChangeTranspulseDir: from the wall point, the most centred
// ship within TRANSPULSE_VIEWCONE, 160 / 2 = 80 degrees, of NewDir takes it straight at that ship):
// test_bounces' transpulse off the floor with bob parked 35 degrees off its reflected way, 300 units
// from the wall point (alice well outside the cone): 6 ticks after the bounce the shot is at the wall
// point + the way to bob x 24 units a tick x 6, not at the reflected place (main's build); the same
// with bob 100 degrees off the reflected way (outside the cone): on the reflected place.
static void test_transpulse_turn(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    size_t size;
    char map[128], err[256] = "";
    uint8_t *d = fs_level_bytes("ship", &size, map, sizeof map);
    assert_non_null(d);
    mxv_t *m = mxv_load(d, size, map, err, sizeof err);
    free(d);
    if (!m)
        fail_msg("%s", err);
    imp_fire_t fire = { 3, 2, { 0 }, { 0 }, 1.0 };
    float n[3], wall[3], r[3], dot = 0;
    impact_aim(&sc, 400, -200, fire.org, fire.dir);
    float dist = level_ray_n(m, fire.org, fire.dir, n);
    assert_true(dist > 100);
    for (int k = 0; k < 3; k++) {
        wall[k] = fire.org[k] + fire.dir[k] * dist;
        dot += fire.dir[k] * n[k];
    }
    for (int k = 0; k < 3; k++)
        r[k] = fire.dir[k] - 2 * dot * n[k];
    // two ways square to r (s1 from the view's right, s2 = r x s1)
    float s1[3], s2[3], sd = 0, sl = 0;
    for (int k = 0; k < 3; k++)
        sd += sc.right[k] * r[k];
    for (int k = 0; k < 3; k++) {
        s1[k] = sc.right[k] - sd * r[k];
        sl += s1[k] * s1[k];
    }
    sl = sqrtf(sl);
    for (int k = 0; k < 3; k++)
        s1[k] /= sl;
    s2[0] = r[1] * s1[2] - r[2] * s1[1];
    s2[1] = r[2] * s1[0] - r[0] * s1[2];
    s2[2] = r[0] * s1[1] - r[1] * s1[0];
    double hit = 1.0 + dist / (48 * 71.0);
    static const float degs[2] = { 35, 100 };
    for (int i = 0; i < 2; i++) {
        float a = degs[i] * (float)M_PI / 180, bob[3], to[3], ta = 0, alice_c = 0, clear = 0;
        // the first of 16 ways round r at that angle with no wall for 330 units
        for (int j = 0; j < 16 && clear <= 330; j++) {
            float b = (float)j * (float)M_PI / 8;
            for (int k = 0; k < 3; k++)
                to[k] = r[k] * cosf(a) + (s1[k] * cosf(b) + s2[k] * sinf(b)) * sinf(a);
            clear = level_ray(m, wall, to);
        }
        for (int k = 0; k < 3; k++)
            bob[k] = wall[k] + to[k] * 300;
        for (int k = 0; k < 3; k++) {
            float v = sc.eye[k] - wall[k];
            ta += v * v;
            alice_c += v * r[k];
        }
        alice_c /= sqrtf(ta);
        // bob off the first leg (its sweep must not meet him before the floor)
        float rel[3], u = 0, off2 = 0;
        for (int k = 0; k < 3; k++)
            rel[k] = bob[k] - fire.org[k];
        for (int k = 0; k < 3; k++)
            u += rel[k] * fire.dir[k];
        u = u < 0 ? 0 : u > dist ? dist : u;
        for (int k = 0; k < 3; k++)
            off2 += (rel[k] - fire.dir[k] * u) * (rel[k] - fire.dir[k] * u);
        char demo[512];
        snprintf(demo, sizeof demo, "%s/fs_transturn_%d_%d.dmo", out_dir(), i, (int)getpid());
        impact_demo_with(&sc, demo, &fire, 1, 2.5, bob);
        const int k = 6;
        float p[3], want[3], refl[3], e = 0, e2 = 0;
        int nshots = shot_pos_at(demo, m, hit + k / 71.0, p);
        for (int j = 0; j < 3; j++) {
            want[j] = wall[j] + (i == 0 ? to[j] : r[j]) * 24 * (float)k;
            refl[j] = wall[j] + r[j] * 24 * (float)k;
            e += (p[j] - want[j]) * (p[j] - want[j]);
            e2 += (p[j] - refl[j]) * (p[j] - refl[j]);
        }
        printf("transpulse off the floor (%.0f units), bob %.0f degrees off its reflected way 300 units on (no wall "
               "for %.0f; %.0f units off its first leg; alice %.0f degrees off it): %d ticks after the bounce %d shot(s), "
               "%.2f units from the rule's place, %.1f from the reflected one\n", dist, degs[i], clear, sqrtf(off2),
               acosf(alice_c) * 180 / (float)M_PI, k, nshots, sqrtf(e), sqrtf(e2));
        assert_true(clear > 300);
        assert_true(sqrtf(off2) > 100);
        assert_true(acosf(alice_c) * 180 / (float)M_PI > 80);
        assert_int_equal(nshots, 1);
        assert_true(sqrtf(e) < 1.0f);
        if (i == 0)
            assert_true(sqrtf(e2) > 40);
        if (!getenv("FS_MODEL_SHOTS"))
            remove(demo);
    }
    mxv_free(m);
}

// The transpulse's trail (CreateTransTrail): a spark of BITS.OFF every tick where the shot is,
// up to (power x 90 + 145) x 0.25 units to its side, drifting on along its path, 30 ticks each:
// fired down the hall at the far wall (1273 units), 20 ticks later the part of the view where it
// flew its first 60 .. 300 units is much brighter than without it in some pixels (its light on
// the far walls there brightens them less), and 60 ticks later (all its sparks out) in none; golden.
static void test_trans_trail(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    imp_fire_t fire = { 3, 2, { 0 }, { 0 }, 1.0 };
    impact_aim(&sc, 0, 0, fire.org, fire.dir);
    char demo[512], none[512], a[512], b[512], c[512], c2[512];
    snprintf(demo, sizeof demo, "%s/fs_trail_%d.dmo", out_dir(), (int)getpid());
    snprintf(none, sizeof none, "%s/fs_trail_none_%d.dmo", out_dir(), (int)getpid());
    impact_demo(&sc, demo, &fire, 1, 2.5);
    impact_demo(&sc, none, NULL, 0, 2.5);
    snprintf(a, sizeof a, "%s/fs_trail.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_trail_none.png", out_dir());
    snprintf(c, sizeof c, "%s/fs_trail_gone.png", out_dir());
    snprintf(c2, sizeof c2, "%s/fs_trail_gone_none.png", out_dir());
    fs_shot(demo, 1.0 + 20 / 71.0, a);
    fs_shot(none, 1.0 + 20 / 71.0, b);
    fs_shot(demo, 1.0 + 60 / 71.0, c);
    fs_shot(none, 1.0 + 60 / 71.0, c2);
    float p0[3], p1[3], x0, y0, x1, y1, z;
    for (int k = 0; k < 3; k++) {
        p0[k] = fire.org[k] + fire.dir[k] * 60;
        p1[k] = fire.org[k] + fire.dir[k] * 300;
    }
    assert_int_equal(project(&sc, p0, &x0, &y0, &z), 0);
    assert_int_equal(project(&sc, p1, &x1, &y1, &z), 0);
    // the band of rows between them, but for the 80 columns in the middle (where the shot, far
    // down the hall, and its flare are: sparks are far out to the sides of its path there)
    float cy = (y0 + y1) / 2, r = (y0 - y1) / 2;
    int n = 0, n_gone = 0;
    for (float cx = 0; cx < 320; cx += 2 * r) {
        if (cx + 2 * r > 120 && cx < 200)
            continue;
        n += brighter_by(a, b, cx + r, cy, r, 120);
        n_gone += brighter_by(c, c2, cx + r, cy, r, 120);
    }
    printf("transpulse trail: rows %.0f .. %.0f: %d pixels brighter (r + g + b up more than 120) than without it 20 ticks "
           "after it was fired, %d after 60\n",
           y1, y0, n, n_gone);
    assert_true(n >= 10);   // 21; 0 with the trail not drawn (the shot's light on the far walls is not that bright)
    assert_int_equal(n_gone, 0);
    tu_golden("the transpulse's trail", a, "tests/golden/fs_trail.png", 0.01);
    if (!getenv("FS_MODEL_SHOTS")) {
        remove(demo);
        remove(none);
    }
}

// A pickup dropped at 1.0 s with the message's sparkle set (`sparkle` 1), without (0), or none (-1).
static void pickup_demo(const scene_t *sc, const char *path, int sparkle)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; 0.05 * i <= 3.0; i++) {
        double t = 0.05 + i * 0.05;
        fs_ship_t s0 = ship_at(0, sc->eye, sc->ang, 0);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s0);
        if (sparkle >= 0 && fabs(t + 0.05 - 1.0) < 1e-6) {
            fs_droppickup_t d;
            memset(&d, 0, sizeof d);
            d.player = 1;
            d.id = 5;
            d.type = 24;   // shield
            d.sparkle = (uint32_t)sparkle;
            memcpy(d.pos, sc->pickup, sizeof d.pos);
            fs_write_droppickup(&wr, fs_ticks(1.0), 7, &d);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// A pickup that twinkles into life (InitOnePickup's Sparkle, MSG_DROPPICKUP's sparkle): PIKGEN.OFF's
// 14 frames (a frame every 6 ticks, 2 units a texel, pulled out) where it appears and its model
// hidden for 32 ticks: 10 ticks after the drop its box is brighter than the same drop without
// sparkle (the model shown) in many pixels and differs from it only round the pickup; after 90
// ticks (the sprite done, the model shown) it is the same as that drop, pixel for pixel; golden.
static void test_pickup_sparkle(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    char dem[3][512], png[3][512], late[3][512];
    for (int i = 0; i < 3; i++) {
        snprintf(dem[i], sizeof dem[i], "%s/fs_sparkle_%d_%d.dmo", out_dir(), i, (int)getpid());
        snprintf(png[i], sizeof png[i], "%s/fs_sparkle_%d.png", out_dir(), i);
        snprintf(late[i], sizeof late[i], "%s/fs_sparkle_%d_late.png", out_dir(), i);
        pickup_demo(&sc, dem[i], 1 - i);   // 0: sparkle, 1: none, 2: no pickup
        fs_shot(dem[i], 1.0 + 10 / 71.0, png[i]);
        fs_shot(dem[i], 1.0 + 90 / 71.0, late[i]);
    }
    float sx, sy, z;
    assert_int_equal(project(&sc, sc.pickup, &sx, &sy, &z), 0);
    // PIKGEN.OFF: 32 x 32 texels x 2 = 64 units, 64 units nearer the eye
    float r = 32 * 160 / (z * (1 - 64 / sqrtf((sc.pickup[0] - sc.eye[0]) * (sc.pickup[0] - sc.eye[0]) +
                                            (sc.pickup[1] - sc.eye[1]) * (sc.pickup[1] - sc.eye[1]) +
                                            (sc.pickup[2] - sc.eye[2]) * (sc.pickup[2] - sc.eye[2]))));
    // the sprite's box, and a box half as large again that holds the model too (the shield is wider)
    float rb = r * 1.5f;
    int bright = brighter_box(png[0], png[1], sx, sy, r), in, out, late_in, late_out;
    diff_box(png[0], png[1], (int)(sx - rb), (int)(sy - rb), (int)(sx + rb) + 1, (int)(sy + rb) + 1, &in, &out);
    diff_box(late[0], late[1], 0, 0, 320, 200, &late_in, &late_out);
    printf("pickup sparkle at (%.1f, %.1f) +-%.0f px: 10 ticks after the drop %d pixels brighter than the drop without "
           "sparkle (its model shown), %d differ within +-%.0f px, %d outside; after 90 ticks %d differ\n",
           sx, sy, r, bright, in, rb, out, late_in + late_out);
    assert_true(bright >= 100);   // 0 without the twinkle
    assert_true(in >= (int)(r * r));
    assert_int_equal(out, 0);
    assert_int_equal(late_in + late_out, 0);
    tu_golden("pickup twinkling into life", png[0], "tests/golden/fs_pickup_sparkle.png", 0.01);
    if (!getenv("FS_MODEL_SHOTS"))
        for (int i = 0; i < 3; i++)
            remove(dem[i]);
}

// The laser (CreateLaserPulse): a beam of LASER.OFF from the gun to the wall for its 12 ticks,
// power x 2 + 6 units either side of its line, two quads crossed (another pilot's laser), and
// FLARE.OFF where it ends: along its projected line the scene is brighter than without it at
// nearly every point, beside the line (30 pixels off) not; after its 12 ticks nothing is left
// but the dying light where it ended; golden.
static void test_laser(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    size_t size;
    char map[128], err[256] = "";
    uint8_t *d = fs_level_bytes("ship", &size, map, sizeof map);
    assert_non_null(d);
    mxv_t *m = mxv_load(d, size, map, err, sizeof err);
    free(d);
    if (!m)
        fail_msg("%s", err);
    imp_fire_t fire = { 5, 2, { 0 }, { 0 }, 1.0 };
    impact_aim(&sc, 200, 100, fire.org, fire.dir);
    // the gun off to the left and below, so the beam crosses the view
    for (int k = 0; k < 3; k++)
        fire.org[k] += -60 * sc.right[k] - 10 * sc.up[k];
    float aim[3];
    for (int k = 0; k < 3; k++)
        aim[k] = sc.eye[k] + 700 * sc.fwd[k] + 200 * sc.right[k] + 100 * sc.up[k] - fire.org[k];
    float l = sqrtf(aim[0] * aim[0] + aim[1] * aim[1] + aim[2] * aim[2]);
    for (int k = 0; k < 3; k++)
        fire.dir[k] = aim[k] / l;
    float dist = level_ray(m, fire.org, fire.dir);
    mxv_free(m);
    assert_true(dist > 300);
    char demo[512], none[512], a[512], b[512], c[512], c2[512];
    snprintf(demo, sizeof demo, "%s/fs_laser_%d.dmo", out_dir(), (int)getpid());
    snprintf(none, sizeof none, "%s/fs_laser_none_%d.dmo", out_dir(), (int)getpid());
    impact_demo(&sc, demo, &fire, 1, 2.0);
    impact_demo(&sc, none, NULL, 0, 2.0);
    snprintf(a, sizeof a, "%s/fs_laser.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_laser_none.png", out_dir());
    snprintf(c, sizeof c, "%s/fs_laser_gone.png", out_dir());
    snprintf(c2, sizeof c2, "%s/fs_laser_gone_none.png", out_dir());
    double at = 1.0 + 2 / 71.0, gone = 1.0 + 14 / 71.0;   // frame 0 (the bright one of three)
    fs_shot(demo, at, a);
    fs_shot(none, at, b);
    fs_shot(demo, gone, c);
    fs_shot(none, gone, c2);
    // sample the beam's line from 15 % to 85 % of its length (in front of the eye)
    int on = 0, off = 0, gone_on = 0, samples = 0;
    for (int i = 0; i <= 14; i++) {
        float f = 0.15f + 0.05f * (float)i, p[3], sx, sy, z;
        for (int k = 0; k < 3; k++)
            p[k] = fire.org[k] + fire.dir[k] * dist * f;
        if (project(&sc, p, &sx, &sy, &z) || sx < 3 || sx > 316 || sy < 33 || sy > 196)
            continue;
        samples++;
        on += brighter_box(a, b, sx, sy, 1.5f) > 0;
        off += brighter_box(a, b, sx, sy - 30, 1.5f) > 0;
        if (f <= 0.6f)   // (the dying light where it ended still brightens the walls near it)
            gone_on += brighter_box(c, c2, sx, sy, 1.5f) > 0;
    }
    printf("laser: %.0f units to the wall; of %d points along its projected line %d brighter than without it, %d of the "
           "points 30 pixels above, %d of those on its first 60 %% after 14 ticks\n",
           dist, samples, on, off, gone_on);
    assert_true(samples >= 10);
    assert_true(on >= samples - 1);
    assert_true(off <= 1);
    assert_int_equal(gone_on, 0);
    tu_golden("the laser's beam", a, "tests/golden/fs_laser.png", 0.01);
    if (!getenv("FS_MODEL_SHOTS")) {
        remove(demo);
        remove(none);
    }
}

// ---- the game's tables and the ships' motion, in-process ------------------------------


// The bike table and the level of detail rule.
static void test_tables(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(r_fsent_bike_file(0, 0, b, sizeof b), "borg400.mxa");
    assert_string_equal(r_fsent_bike_file(3, 4, b, sizeof b), "xcop050.mxa");
    assert_string_equal(r_fsent_bike_file(15, 2, b, sizeof b), "slick200.mxa");
    assert_string_equal(r_fsent_bike_file(16, 1, b, sizeof b), "borg300.mxa");   // the 17th entry is the Borg again
    assert_string_equal(r_fsent_bike_file(99, 9, b, sizeof b), "borg050.mxa");   // out of range: clamped
    assert_int_equal(r_fsent_lod(0), 0);
    assert_int_equal(r_fsent_lod(3071), 0);
    assert_int_equal(r_fsent_lod(3072), 1);
    assert_int_equal(r_fsent_lod(9300), 3);
    assert_int_equal(r_fsent_lod(1e9f), 4);
    assert_int_equal(r_fsent_lod(NAN), 0);
    if (!tu_data_dir())
        return;
    for (int bike = 0; bike < 17; bike++)   // every bike at every level of detail is in the data
        for (int lod = 0; lod < 5; lod++) {
            char err[256];
            mx_t *m = load_model(r_fsent_bike_file(bike, lod, b, sizeof b), err, sizeof err);
            if (!m)
                fail_msg("%s", err);
            mx_free(m);
        }
}

// Decode the scene demo in-process, feeding r_fsent every frame: bob is drawn where his
// last update put him, moved on by the velocity of his last two (the scene's exact path);
// the shot flies at the pulsar's 32 x 71 units a second; the recorder's own ship is tracked
// too, standing still.
static void test_motion(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    char path[512];
    snprintf(path, sizeof path, "%s/fs_motion_%d.dmo", out_dir(), (int)getpid());
    scene_demo(&sc, 1, path);
    fs_play_t pl;
    fs_play_open(&pl, path, 1);
    remove(path);
    world_t *w = pl.w;
    r_fsent_t *fe = pl.fe;
    int checked = 0, shots_seen = 0;
    while (fs_play_frame(&pl)) {
        // at a few times after this event and before the next update (updates are 0.1 s apart)
        for (double dt = 0.0; dt < 0.05 && w->time > 0.3 && w->time < 2.0; dt += 0.02) {
            double t = w->time + dt;
            float got[3];
            if (!r_fsent_ship_origin(fe, 2, t, got))
                continue;
            for (int k = 0; k < 3; k++)
                assert_float_equal(got[k], sc.other0[k] + SCENE_SHIP_SPEED * (float)t * sc.right[k], 0.05f);
            assert_int_equal(r_fsent_ship_origin(fe, 1, t, got), 1);
            for (int k = 0; k < 3; k++)
                assert_float_equal(got[k], sc.eye[k], 1e-3f);
            checked++;
        }
        float p[3];
        if (w->time >= SCENE_SHOT_TIME && w->time < SCENE_SHOT_TIME + 0.08 && r_fsent_shots(fe, w->time + 0.01, p) == 1) {
            float org[3], d = 0;
            for (int k = 0; k < 3; k++) {
                org[k] = sc.other0[k] + SCENE_SHIP_SPEED * (float)SCENE_SHOT_TIME * sc.right[k];
                d += (p[k] - org[k]) * (p[k] - org[k]);
            }
            assert_float_equal(sqrtf(d), 32 * 71 * (w->time + 0.01 - SCENE_SHOT_TIME), 0.5);
            shots_seen++;
        }
    }
    printf("ship positions checked at %d times, the shot at %d\n", checked, shots_seen);
    assert_true(checked > 60);
    assert_true(shots_seen > 0);
    assert_int_equal(r_fsent_ship_origin(fe, 5, 1.0, (float[3]){ 0 }), 0);   // nobody
    fs_play_close(&pl);
}

// Orbit pulsars: bob carries three (flags bits 0-3). Each is 64 units (ORBIT_RADIUS) from
// his centre in his x-y plane, 120 degrees apart, turning 6 degrees a game tick; drawn, they
// change the picture around his ship and nowhere else.
static void test_orbitals(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_setup(&sc);
    char path[512], plain[512];
    snprintf(path, sizeof path, "%s/fs_orbit_%d.dmo", out_dir(), (int)getpid());
    snprintf(plain, sizeof plain, "%s/fs_orbit_plain_%d.dmo", out_dir(), (int)getpid());
    scene_demo(&sc, 3, path);
    scene_demo(&sc, 1, plain);
    fs_play_t pl;
    fs_play_open(&pl, path, 0);
    world_t *w = pl.w;
    while (w->time < 0.6 && fs_play_frame(&pl)) {
    }
    const double t = 0.6;
    float org[3], pos[8][3], up[8][3], pos2[8][3], up2[8][3], fwd[3], right[3], vup[3];
    for (int k = 0; k < 3; k++)
        org[k] = sc.other0[k] + SCENE_SHIP_SPEED * (float)t * sc.right[k];
    assert_int_equal(r_fsent_orbitals(w, 2, org, t, pos, up), 3);
    assert_int_equal(r_fsent_orbitals(w, 1, org, t, pos, NULL), 0);   // alice has none
    assert_int_equal(r_fsent_orbitals(w, 2, org, t + 1 / 71.0, pos2, up2), 3);
    r_fs_angle_vectors(w->entities[2].cur.angles, fwd, right, vup);
    for (int i = 0; i < 3; i++) {
        float d = 0, along = 0, turn = 0, next = 0;
        for (int k = 0; k < 3; k++) {
            d += (pos[i][k] - org[k]) * (pos[i][k] - org[k]);
            along += up[i][k] * fwd[k];
            turn += up[i][k] * up2[i][k];
            next += up[i][k] * up[(i + 1) % 3][k];
        }
        assert_float_equal(sqrtf(d), 64, 1e-3f);
        assert_float_equal(along, 0, 1e-4f);
        assert_float_equal(turn, cosf(6 * (float)M_PI / 180), 1e-4f);   // 6 degrees a tick
        assert_float_equal(next, -0.5f, 1e-4f);                          // 120 degrees apart
    }
    fs_play_close(&pl);

    char a[512], b[512];
    snprintf(a, sizeof a, "%s/fs_orbit.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_orbit_plain.png", out_dir());
    fs_shot(path, t, a);
    fs_shot(plain, t, b);
    float sx, sy, z;
    assert_int_equal(project(&sc, org, &sx, &sy, &z), 0);
    float r = (80 + 64 + 20) * 160 / z;
    int in, out;
    diff_box(a, b, (int)(sx - r), (int)(sy - r), (int)(sx + r) + 1, (int)(sy + r) + 1, &in, &out);
    printf("orbit pulsars around bob (%.1f, %.1f) +-%.0f px: %d pixels differ inside, %d outside\n", sx, sy, r, in, out);
    assert_true(in > 30);
    assert_int_equal(out, 0);
    // each one is where the rule puts it: every changed pixel lies in an orbital's box (one
    // may be hidden behind the ship)
    int boxes[3][4], seen = 0;
    for (int i = 0; i < 3; i++) {
        float ox, oy, oz;
        assert_int_equal(project(&sc, pos[i], &ox, &oy, &oz), 0);
        float rr = 20 * 160 / oz + 1;   // orb2.mx: radius 20
        boxes[i][0] = (int)(ox - rr), boxes[i][1] = (int)(oy - rr), boxes[i][2] = (int)(ox + rr) + 1,
        boxes[i][3] = (int)(oy + rr) + 1;
        int in_o, out_o;
        diff_box(a, b, boxes[i][0], boxes[i][1], boxes[i][2], boxes[i][3], &in_o, &out_o);
        printf("  orbital %d at (%.1f, %.1f): %d pixels differ\n", i, ox, oy, in_o);
        seen += in_o > 0;
    }
    assert_true(seen >= 2);
    int wa, ha, ca, wb, hb, cb, stray = 0;
    uint8_t *pa = stbi_load(a, &wa, &ha, &ca, 3), *pb = stbi_load(b, &wb, &hb, &cb, 3);
    assert_non_null(pa);
    assert_non_null(pb);
    for (int y = 0; y < ha; y++)
        for (int x = 0; x < wa; x++) {
            size_t i = ((size_t)y * (size_t)wa + (size_t)x) * 3;
            if (!memcmp(pa + i, pb + i, 3))
                continue;
            int inside = 0;
            for (int k = 0; k < 3; k++)
                inside |= x >= boxes[k][0] && x < boxes[k][2] && y >= boxes[k][1] && y < boxes[k][3];
            stray += !inside;
        }
    stbi_image_free(pa);
    stbi_image_free(pb);
    assert_int_equal(stray, 0);
    tu_golden("orbit pulsars", a, "tests/golden/fs_orbit.png", 0.002);
    if (!getenv("FS_MODEL_SHOTS")) {
        remove(path);
        remove(plain);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orbitals),
        cmocka_unit_test(test_every_model_loads),
        cmocka_unit_test(test_every_texture_loads),
        cmocka_unit_test(test_pinned),
        cmocka_unit_test(test_bad_bytes),
        cmocka_unit_test(test_scene),
        cmocka_unit_test(test_offsets_load),
        cmocka_unit_test(test_offsets_bad),
        cmocka_unit_test(test_sprites),
        cmocka_unit_test(test_trojax_charge),
        cmocka_unit_test(test_impacts),
        cmocka_unit_test(test_impact_sparks),
        cmocka_unit_test(test_bounces),
        cmocka_unit_test(test_laser_ship),
        cmocka_unit_test(test_transpulse_turn),
        cmocka_unit_test(test_laser),
        cmocka_unit_test(test_trans_trail),
        cmocka_unit_test(test_pickup_sparkle),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_motion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
