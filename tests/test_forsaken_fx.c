// test_forsaken_fx.c -- Forsaken's invulnerability bits (render/r_fsfx.c) by the game's rules
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "engine/vfs.h"
#include "formats/decoder.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsent.h"
#include "render/r_fsfx.h"
#include "render/r_fsworld.h"
#include "fs_data.h"

static float angle_deg(const float a[3], const float b[3])
{
    float c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    c = c > 1 ? 1 : c < -1 ? -1 : c;
    return acosf(c) * 180 / (float)M_PI;
}

// Five bits a tick, each red 255 - 5 a tick and green / blue 64 - 5 a tick, gone when black;
// unit directions moving 2 degrees a tick; BITS.OFF's frame a sixth of the age; the same at
// the same moment; none made before `since`.
static void test_inv_bits(void **state)
{
    (void)state;
    static r_fsfx_bit_t a[1024], b[1024];
    double t = 100.0;
    int n = r_fsfx_inv_bits(3, t, -1e9, 4, a, 1024);
    int again = r_fsfx_inv_bits(3, t, -1e9, 4, b, 1024);
    assert_int_equal(n, again);
    assert_memory_equal(a, b, sizeof a[0] * (size_t)n);
    // at most five bits a tick over the 51 ticks a bit can be seen
    assert_true(n > 5 * 10 && n <= 5 * 52);
    int young = 0;
    for (int i = 0; i < n; i++) {
        const r_fsfx_bit_t *x = &a[i];
        float l = sqrtf(x->dir[0] * x->dir[0] + x->dir[1] * x->dir[1] + x->dir[2] * x->dir[2]);
        assert_true(fabsf(l - 1) < 1e-4f);
        assert_true(x->age >= 0 && x->age < 51);
        assert_true(fabsf(x->rgb[0] - (255 - 5 * x->age) / 255) < 1e-5f);
        float rest = 64 - 5 * x->age;
        assert_true(fabsf(x->rgb[1] - (rest > 0 ? rest / 255 : 0)) < 1e-5f);
        assert_true(x->rgb[2] == x->rgb[1]);
        assert_int_equal(x->frame, (int)(x->age / 6) % 4);
        young += x->age < 1;
    }
    assert_int_equal(young, 5);   // the tick now made five
    // 0.005 s on (a third of a tick, the same ticks): each bit moved 2 degrees a tick at most
    double dt = 0.005;
    int m = r_fsfx_inv_bits(3, t + dt, -1e9, 4, b, 1024);
    int moved = 0;
    float most = 0;
    for (int i = 0, j = 0; i < n; i++) {
        while (j < m && b[j].id != a[i].id)
            j++;
        if (j == m) {
            j = 0;
            continue;   // finished in between
        }
        assert_true(fabsf(b[j].age - a[i].age - (float)(dt * 71)) < 1e-3f);
        float d = angle_deg(a[i].dir, b[j].dir);
        most = d > most ? d : most;
        assert_true(d <= 2 * (float)(dt * 71) + 1e-2f);
        moved += d > 1e-3f;
    }
    printf("invulnerability: %d bits at t = 100 s, %d moved in 5 ms, at most %.3f degrees (2 a tick: %.3f)\n", n, moved,
           most, 2 * dt * 71);
    assert_true(moved > n / 2);
    assert_true(most > 2 * (float)(dt * 71) * 0.9f);
    // another ship: other bits
    int o = r_fsfx_inv_bits(4, t, -1e9, 4, b, 1024);
    assert_true(o > 0);
    assert_true(memcmp(a, b, sizeof a[0] * 5) != 0);
    // invulnerable since this very tick: only its five
    int fresh = r_fsfx_inv_bits(3, t, floor(t * 71) / 71, 4, b, 1024);
    assert_int_equal(fresh, 5);
    // since after t: none; hostile times and sizes
    assert_int_equal(r_fsfx_inv_bits(3, t, t + 1, 4, b, 1024), 0);
    assert_int_equal(r_fsfx_inv_bits(3, NAN, -1e9, 4, b, 1024), 0);
    assert_int_equal(r_fsfx_inv_bits(3, t, NAN, 0, b, 3), 3);
    assert_int_equal(r_fsfx_inv_bits(3, 1e12, -1e9, 4, b, 1024) > 0, 1);
}

// CreateShieldEffect's squares: per spiral 4 (while their start is on the way), scaled 0.55 ..
// 1, lit (255 - (3 - k) x 40) / 256 of the colour less 5 a tick, all starting at the hit; gone
// once black.
static void test_shield_rules(void **state)
{
    (void)state;
    static r_fsfx_bit_t b[64];
    const float hit[3] = { 0, 0, 2 }, green[3] = { 0, 255, 0 };
    int n = r_fsfx_shield_hit(hit, 77, 2, green, 0, b, 64);
    assert_true(n >= 2 && n <= 8);
    int leading = 0;
    for (int i = 0; i < n; i++) {
        int q = (int)(b[i].id % 4);
        assert_true(fabsf(b[i].scale - (1.0f - (float)(3 - q) * 0.15f)) < 1e-6f);
        assert_true(fabsf(b[i].rgb[1] - (255.0f - (float)(3 - q) * 40) / 256) < 1e-5f);
        assert_true(b[i].rgb[0] == 0 && b[i].rgb[2] == 0);
        if (q == 0) {   // the first square of a spiral starts at the hit
            assert_true(fabsf(b[i].dir[2] - 1) < 1e-5f);
            leading++;
        }
    }
    assert_int_equal(leading, 2);
    int later = r_fsfx_shield_hit(hit, 77, 2, green, 10, b, 64);
    for (int i = 0; i < later; i++) {
        int q = (int)(b[i].id % 4);
        assert_true(fabsf(b[i].rgb[1] - ((255.0f - (float)(3 - q) * 40) / 256 * 255 - 50) / 255) < 1e-4f);
    }
    assert_int_equal(r_fsfx_shield_hit(hit, 77, 2, green, 52, b, 64), 0);   // 255 - 5 x 52 < 0
    const float none[3] = { 0, 0, 0 };
    assert_int_equal(r_fsfx_shield_hit(none, 77, 2, green, 0, b, 64), 0);
    assert_int_equal(r_fsfx_shield_hit(hit, 77, 0, green, 0, b, 64), 0);
    assert_int_equal(r_fsfx_shield_hit(hit, 77, 2, green, NAN, b, 64), 0);
    printf("shield hit: %d squares at the hit, %d 10 ticks on\n", n, later);
}

// A scene on `ship`: alice records at the first start position; bob hangs 260 units ahead,
// invulnerable or not. Shot at 1.0 s at 320x200: with the flag, pixels change round bob (inside
// the shield's projected box, 75 + 16 units about his centre) and nowhere else, and what changed
// is red; the bits of one moment are the same drawn twice; golden fs_invul.png (looked at).
// with_bob 0: bob is not in it; shot: alice fires at 1.0 s, weapon `weapon` (trojax: its charge
// `plevel`) towards `aim` (NULL: bob).
static void write_scene_ex(const char *path, const float eye[3], const float ang[3], const float bob[3], int invul,
                           int with_bob, int shot, int weapon, float plevel, const float *aim)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    fs_write_name(&wr, fs_ticks(0.01), 7, &(fs_name_t){ .player = 1, .name = "bob" });
    fs_write_bikenum(&wr, fs_ticks(0.02), 7, &(fs_bikenum_t){ .player = 1, .bike = 3 });
    float side[3] = { 0, ang[1] + 90, 0 };
    for (int i = 0; i <= 15; i++) {
        double t = 0.05 + i * 0.1;
        fs_ship_t s0, s1;
        memset(&s0, 0, sizeof s0);
        s0.player = 0;
        s0.flags = FS_SHIP_ENABLE;
        memcpy(s0.pos, eye, sizeof s0.pos);
        fs_angles_to_quat(ang, s0.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s0);
        memset(&s1, 0, sizeof s1);
        s1.player = 1;
        s1.flags = FS_SHIP_ENABLE | (invul ? FS_SHIP_INVUL : 0);
        memcpy(s1.pos, bob, sizeof s1.pos);
        fs_angles_to_quat(side, s1.quat);
        if (with_bob)
            fs_write_ship(&wr, fs_ticks(t + 0.02), 7, FS_MSG_FUPDATE, &s1);
        if (shot && i == 9) {   // 0.95 + 0.05: the shot leaves alice's nose at 1.0 s
            fs_primbull_t pb;
            memset(&pb, 0, sizeof pb);
            pb.player = 0;
            pb.owner_type = 1;
            pb.owner = 0;
            pb.bullet_id = 3;
            pb.weapon = (uint8_t)weapon;
            pb.power_level = 2;
            pb.plevel = plevel;
            for (int k = 0; k < 3; k++) {
                pb.pos[k] = eye[k];
                pb.dir[k] = (aim ? aim[k] : bob[k]) - eye[k];
            }
            fs_write_primbull(&wr, fs_ticks(1.0), 1, &pb);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

static void write_scene(const char *path, const float eye[3], const float ang[3], const float bob[3], int invul)
{
    write_scene_ex(path, eye, ang, bob, invul, 1, 0, 0, 0, NULL);
}

static void shoot(const char *demo, double at, const char *png)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s shot %s --basedir %s/forsaken --at %.3f -o %s 2>&1", tu_bin(), demo, tu_data_dir(), at,
             png);
    int status = -1;
    char *out = tu_run(cmd, &status);
    if (status != 0)
        fail_msg("%s: %s", cmd, out ? out : "");
    free(out);
}

static void test_invul_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    assert_int_equal(fs_start_pos("ship", eye, ang), 0);
    ang[0] = 8;
    ang[1] -= 35;   // down the hall, as test_forsaken_models' scene
    r_fs_angle_vectors(ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 260 * fwd[k];
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    char dplain[512], dinv[512], pplain[512], pinv[512], pinv2[512];
    int pid = (int)getpid();
    snprintf(dplain, sizeof dplain, "%s/fs_fx_plain_%d.dmo", dir, pid);
    snprintf(dinv, sizeof dinv, "%s/fs_fx_invul_%d.dmo", dir, pid);
    snprintf(pplain, sizeof pplain, "%s/fs_fx_plain_%d.png", dir, pid);
    snprintf(pinv, sizeof pinv, "%s/fs_fx_invul_%d.png", dir, pid);
    snprintf(pinv2, sizeof pinv2, "%s/fs_fx_invul2_%d.png", dir, pid);
    write_scene(dplain, eye, ang, bob, 0);
    write_scene(dinv, eye, ang, bob, 1);
    shoot(dplain, 1.0, pplain);
    shoot(dinv, 1.0, pinv);
    shoot(dinv, 1.0, pinv2);
    // the shield's box on the screen (320x200: xscale 160, yscale 160 / 1.2)
    float reach = FSFX_INV_RADIUS + FSFX_INV_HALF * 1.5f, z = 260;
    int x0 = (int)(160 - 160 * reach / (z - reach)) - 1, x1 = (int)(160 + 160 * reach / (z - reach)) + 2;
    int y0 = (int)(100 - 160 / 1.2f * reach / (z - reach)) - 1, y1 = (int)(100 + 160 / 1.2f * reach / (z - reach)) + 2;
    int w, h, c, w2, h2, c2, w3, h3, c3;
    uint8_t *a = stbi_load(pplain, &w, &h, &c, 3), *b = stbi_load(pinv, &w2, &h2, &c2, 3), *b2 = stbi_load(pinv2, &w3, &h3, &c3, 3);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(b2);
    assert_int_equal(w * h, w2 * h2);
    assert_memory_equal(b, b2, (size_t)w * (size_t)h * 3);   // the same moment, the same bits
    int in = 0, out = 0, redder = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            if (!memcmp(a + i, b + i, 3))
                continue;
            if (x >= x0 && x < x1 && y >= y0 && y < y1)
                in++;
            else
                out++;
            // added red: red grows more than green and blue
            redder += (b[i] - a[i]) > (b[i + 1] - a[i + 1]) && (b[i] - a[i]) > (b[i + 2] - a[i + 2]);
        }
    printf("invulnerable bob: %d pixels changed in the shield's box %d,%d..%d,%d, %d outside, %d of them redder\n", in,
           x0, y0, x1, y1, out, redder);
    assert_true(in > 300);
    assert_int_equal(out, 0);
    assert_true(redder > (in + out) * 3 / 4);
    stbi_image_free(a);
    stbi_image_free(b);
    stbi_image_free(b2);
    tu_golden("invulnerable bob", pinv, "tests/golden/fs_invul.png", 0.01);
    if (!getenv("FS_FX_SHOTS")) {
        remove(dplain);
        remove(dinv);
        remove(pplain);
        remove(pinv);
        remove(pinv2);
    }
}

// A pulsar alice fires at bob 260 units ahead (Primary.c's CheckHitShip: a sphere of 75 units):
// it stops on bob's shield (185 units out, 0.081 s at 32 units a tick) and the shield flashes
// green (CreateShieldEffect: 2 spirals of CIRCLE.OFF, 0 255 0); without bob it flies on.
static int greener(const uint8_t *a, const uint8_t *b, int w, int x0, int y0, int x1, int y1)
{
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            int dr = b[i] - a[i], dg = b[i + 1] - a[i + 1], db = b[i + 2] - a[i + 2];
            n += dg > 8 && dg > dr && dg > db;
        }
    return n;
}

static void test_shield_hit(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    assert_int_equal(fs_start_pos("ship", eye, ang), 0);
    ang[0] = 8;
    ang[1] -= 35;
    r_fs_angle_vectors(ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 260 * fwd[k];
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    int pid = (int)getpid();
    char demo[3][512], png[4][512];
    for (int i = 0; i < 3; i++)
        snprintf(demo[i], sizeof demo[i], "%s/fs_fx_hit%d_%d.dmo", dir, i, pid);
    for (int i = 0; i < 4; i++)
        snprintf(png[i], sizeof png[i], "%s/fs_fx_hit%d_%d.png", dir, i, pid);
    write_scene_ex(demo[0], eye, ang, bob, 0, 1, 1, 0, 0, NULL);   // bob, the pulsar
    write_scene_ex(demo[1], eye, ang, bob, 0, 1, 0, 0, 0, NULL);   // bob alone
    write_scene_ex(demo[2], eye, ang, bob, 0, 0, 1, 0, 0, NULL);   // the pulsar alone
    double at = 1.0 + 185.0 / (32 * 71) + 5.0 / 71;   // 5 ticks after the hit
    shoot(demo[0], at, png[0]);
    shoot(demo[1], at, png[1]);
    shoot(demo[2], at, png[2]);
    shoot(demo[0], 1.0 + 185.0 / (32 * 71) - 2.0 / 71, png[3]);   // 2 ticks before it
    int w, h, c;
    uint8_t *a = stbi_load(png[0], &w, &h, &c, 3), *b = stbi_load(png[1], &w, &h, &c, 3);
    uint8_t *e = stbi_load(png[2], &w, &h, &c, 3), *before = stbi_load(png[3], &w, &h, &c, 3);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(e);
    assert_non_null(before);
    float reach = FSFX_INV_RADIUS + FSFX_SHIELD_HALF, z = 260;
    int x0 = (int)(160 - 160 * reach / (z - reach)), x1 = (int)(160 + 160 * reach / (z - reach));
    int y0 = (int)(100 - 160 / 1.2f * reach / (z - reach)), y1 = (int)(100 + 160 / 1.2f * reach / (z - reach));
    x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0, x1 = x1 > w ? w : x1, y1 = y1 > h ? h : y1;
    // in the shield's box the flash; outside it the pulsar's green light on the walls, gone with
    // the shot when it stopped on bob (its dying light is red), still there when it flew on
    int in = greener(b, a, w, x0, y0, x1, y1), all = greener(b, a, w, 0, 0, w, h);
    int no_bob = greener(b, e, w, 0, 0, w, h) - greener(b, e, w, x0, y0, x1, y1);
    int flying = greener(b, before, w, 0, 0, w, h) - greener(b, before, w, x0, y0, x1, y1);
    printf("pulsar on bob's shield, 5 ticks after the hit: %d greener pixels in the shield's box %d,%d..%d,%d, %d "
           "outside (2 ticks before the hit: %d outside; without bob: %d outside)\n",
           in, x0, y0, x1, y1, all - in, flying, no_bob);
    assert_true(in > 300);
    assert_true(all - in < in / 10);
    assert_true(no_bob > 10 * (all - in + 1));
    assert_true(flying > 10 * (all - in + 1));
    stbi_image_free(a);
    stbi_image_free(b);
    stbi_image_free(e);
    stbi_image_free(before);
    tu_golden("pulsar on bob's shield", png[0], "tests/golden/fs_shield_hit.png", 0.01);
    if (!getenv("FS_FX_SHOTS")) {
        for (int i = 0; i < 3; i++)
            remove(demo[i]);
        for (int i = 0; i < 4; i++)
            remove(png[i]);
    }
}

// A trojax aimed to pass 120 units beside bob's centre: outside his 75-unit sphere, inside it plus
// the trojax's own radius at full charge ((3 + 100 x 0.075) x 0.25 x 30 = 78.75), not at no
// charge (22.5). Run in-process with no level (no walls): 10 ticks after it left, the charged one
// has stopped on bob, the uncharged one still flies; a pulsar aimed at bob stops too.
extern const decoder_t fs_decoder;

static int in_flight(const char *path, double at)
{
    size_t size;
    uint8_t *data = tu_read(path, &size);
    assert_non_null(data);
    void *st = calloc(1, fs_decoder.state_size);
    world_t *w = world_create();
    assert_non_null(st);
    assert_non_null(w);
    dec_opts_t o = { 0 };
    dec_error_t err;
    memset(&err, 0, sizeof err);
    assert_int_equal(fs_decoder.open(st, data, size, w, &o, &err), 0);
    r_fsent_t *fe = r_fsent_create();
    asset_files_t files = { fs_file, NULL };
    r_fsent_load(fe, &files, tu_palette(), NULL);
    int n = -1;
    float p[3];
    while (fs_decoder.read_frame(st, w, &err) > 0) {
        r_fsent_frame(fe, w);
        if (w->time <= at && w->time + 0.1 > at)
            n = r_fsent_shots(fe, at, p);
    }
    r_fsent_destroy(fe);
    fs_decoder.close(st);
    world_free(w);
    free(st);
    free(data);
    return n;
}

static void test_trojax_reach(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], aim[3];
    assert_int_equal(fs_start_pos("ship", eye, ang), 0);
    ang[0] = 8;
    ang[1] -= 35;
    r_fs_angle_vectors(ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] + 260 * fwd[k];
        aim[k] = bob[k] + 120 * up[k];
    }
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    int pid = (int)getpid();
    char demo[4][512];
    for (int i = 0; i < 4; i++)
        snprintf(demo[i], sizeof demo[i], "%s/fs_fx_reach%d_%d.dmo", dir, i, pid);
    write_scene_ex(demo[0], eye, ang, bob, 0, 1, 1, 1, 100, aim);    // full charge, beside bob
    write_scene_ex(demo[1], eye, ang, bob, 0, 1, 1, 1, 0, aim);      // no charge, beside bob
    write_scene_ex(demo[2], eye, ang, bob, 0, 1, 1, 0, 0, NULL);     // a pulsar at bob
    write_scene_ex(demo[3], eye, ang, bob, 0, 0, 1, 0, 0, NULL);     // a pulsar, no bob
    double at = 1.0 + 10.0 / 71;
    int full = in_flight(demo[0], at), none = in_flight(demo[1], at), pulsar = in_flight(demo[2], at);
    int alone = in_flight(demo[3], at);
    printf("10 ticks after firing: charged trojax beside bob %d in flight, uncharged %d, pulsar at bob %d, without "
           "bob %d\n", full, none, pulsar, alone);
    assert_int_equal(full, 0);
    assert_int_equal(none, 1);
    assert_int_equal(pulsar, 0);
    assert_int_equal(alone, 1);
    if (!getenv("FS_FX_SHOTS"))
        for (int i = 0; i < 4; i++)
            remove(demo[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inv_bits),
        cmocka_unit_test(test_shield_rules),
        cmocka_unit_test(test_invul_scene),
        cmocka_unit_test(test_shield_hit),
        cmocka_unit_test(test_trojax_reach),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
