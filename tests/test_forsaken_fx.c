// test_forsaken_fx.c -- Forsaken's ship effects (render/r_fsfx.c) by the game's rules: invulnerability bits,
// shield hits, dying ships' fire, damaged ships' smoke
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "engine/camera.h"
#include "engine/angles.h"
#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/playback.h"
#include "engine/vfs.h"
#include "formats/decoder.h"
#include "engine/world_fs.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fssnd.h"
#include "render/r_fsent.h"
#include "render/r_fsfx.h"
#include "render/r_fsworld.h"
#include "render/render.h"
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
// shield: bob's shield as his MSG_SHIELDHULL says (-1: none sent).
// sec: the shot is a secondary (MSG_SECBULLPOSDIR, weapon `weapon`) instead.
static void write_scene_full(const char *path, const float eye[3], const float ang[3], const float bob[3], int invul,
                             int with_bob, int shot, int weapon, float plevel, const float *aim, int shield, int sec)
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
    if (shield >= 0)
        fs_write_shieldhull(&wr, fs_ticks(0.03), 7, &(fs_shieldhull_t){ .player = 1, .shield = (uint8_t)shield, .hull = 128 });
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
        if (shot && sec && i == 9) {
            fs_secbull_t sb;
            memset(&sb, 0, sizeof sb);
            sb.player = 0;
            sb.owner_type = 1;
            sb.owner = 0;
            sb.bullet_id = 4;
            sb.weapon = (uint8_t)weapon;
            sb.up[1] = 1;
            for (int k = 0; k < 3; k++) {
                sb.pos[k] = eye[k];
                sb.dir[k] = (aim ? aim[k] : bob[k]) - eye[k];
            }
            float l = sqrtf(sb.dir[0] * sb.dir[0] + sb.dir[1] * sb.dir[1] + sb.dir[2] * sb.dir[2]);
            for (int k = 0; k < 3; k++)
                sb.dir[k] /= l;
            fs_write_secbull(&wr, fs_ticks(1.0), 1, &sb);
        } else if (shot && i == 9) {   // 0.95 + 0.05: the shot leaves alice's nose at 1.0 s
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

static void write_scene_sh(const char *path, const float eye[3], const float ang[3], const float bob[3], int invul,
                           int with_bob, int shot, int weapon, float plevel, const float *aim, int shield)
{
    write_scene_full(path, eye, ang, bob, invul, with_bob, shot, weapon, plevel, aim, shield, 0);
}

static void write_scene_ex(const char *path, const float eye[3], const float ang[3], const float bob[3], int invul,
                           int with_bob, int shot, int weapon, float plevel, const float *aim)
{
    write_scene_sh(path, eye, ang, bob, invul, with_bob, shot, weapon, plevel, aim, -1);
}

static void write_scene(const char *path, const float eye[3], const float ang[3], const float bob[3], int invul)
{
    write_scene_ex(path, eye, ang, bob, invul, 1, 0, 0, 0, NULL);
}

// ---- the scenes' set-up --------------------------------------------------------------------

// The scenes' view: alice at ship's first start position looking 8 degrees down and 35 to the
// right (down the hall, as test_forsaken_models' scene); its axes.
static void scene_view(float eye[3], float ang[3], float fwd[3], float right[3], float up[3])
{
    assert_int_equal(fs_start_pos("ship", eye, ang), 0);
    ang[0] = 8;
    ang[1] -= 35;
    r_fs_angle_vectors(ang, fwd, right, up);
}

// A scene test's files: demo[i] and png[i] named fs_fx_NAME<i>_PID.dmo / .png in $FS_FX_SHOTS
// (kept there to look at) or /tmp (removed by scene_files_done).
typedef struct {
    char demo[4][512], png[8][512];
    int nd, np;
} scene_files_t;

static void scene_files(scene_files_t *f, const char *name, int nd, int np)
{
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    int pid = (int)getpid();
    assert_true(nd <= 4 && np <= 8);
    f->nd = nd;
    f->np = np;
    for (int i = 0; i < nd; i++)
        snprintf(f->demo[i], sizeof f->demo[i], "%s/fs_fx_%s%d_%d.dmo", dir, name, i, pid);
    for (int i = 0; i < np; i++)
        snprintf(f->png[i], sizeof f->png[i], "%s/fs_fx_%s%d_%d.png", dir, name, i, pid);
}

static void scene_files_done(const scene_files_t *f)
{
    if (getenv("FS_FX_SHOTS"))
        return;
    for (int i = 0; i < f->nd; i++)
        remove(f->demo[i]);
    for (int i = 0; i < f->np; i++)
        remove(f->png[i]);
}

static void test_invul_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    scene_view(eye, ang, fwd, right, up);
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
    fs_shot(dplain, 1.0, pplain);
    fs_shot(dinv, 1.0, pinv);
    fs_shot(dinv, 1.0, pinv2);
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
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 260 * fwd[k];
    scene_files_t F;
    scene_files(&F, "hit", 3, 4);
    write_scene_ex(F.demo[0], eye, ang, bob, 0, 1, 1, 0, 0, NULL);   // bob, the pulsar
    write_scene_ex(F.demo[1], eye, ang, bob, 0, 1, 0, 0, 0, NULL);   // bob alone
    write_scene_ex(F.demo[2], eye, ang, bob, 0, 0, 1, 0, 0, NULL);   // the pulsar alone
    double at = 1.0 + 185.0 / (32 * 71) + 5.0 / 71;   // 5 ticks after the hit
    fs_shot(F.demo[0], at, F.png[0]);
    fs_shot(F.demo[1], at, F.png[1]);
    fs_shot(F.demo[2], at, F.png[2]);
    fs_shot(F.demo[0], 1.0 + 185.0 / (32 * 71) - 2.0 / 71, F.png[3]);   // 2 ticks before it
    int w, h, c;
    uint8_t *a = stbi_load(F.png[0], &w, &h, &c, 3), *b = stbi_load(F.png[1], &w, &h, &c, 3);
    uint8_t *e = stbi_load(F.png[2], &w, &h, &c, 3), *before = stbi_load(F.png[3], &w, &h, &c, 3);
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
    tu_golden("pulsar on bob's shield", F.png[0], "tests/golden/fs_shield_hit.png", 0.01);
    scene_files_done(&F);
}

// A trojax aimed to pass 120 units beside bob's centre: outside his 75-unit sphere, inside it plus
// the trojax's own radius at full charge ((3 + 100 x 0.075) x 0.25 x 30 = 78.75), not at no
// charge (22.5). Run in-process with no level (no walls): 10 ticks after it left, the charged one
// has stopped on bob, the uncharged one still flies; a pulsar aimed at bob stops too.
static int in_flight(const char *path, double at)
{
    fs_play_t pl;
    fs_play_open(&pl, path, 1);
    int n = -1;
    float p[3];
    while (fs_play_frame(&pl)) {
        if (pl.w->time <= at && pl.w->time + 0.1 > at)
            n = r_fsent_shots(pl.fe, at, p);
    }
    fs_play_close(&pl);
    return n;
}

static void test_trojax_reach(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], aim[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] + 260 * fwd[k];
        aim[k] = bob[k] + 120 * up[k];
    }
    scene_files_t F;
    scene_files(&F, "reach", 4, 0);
    write_scene_ex(F.demo[0], eye, ang, bob, 0, 1, 1, 1, 100, aim);    // full charge, beside bob
    write_scene_ex(F.demo[1], eye, ang, bob, 0, 1, 1, 1, 0, aim);      // no charge, beside bob
    write_scene_ex(F.demo[2], eye, ang, bob, 0, 1, 1, 0, 0, NULL);     // a pulsar at bob
    write_scene_ex(F.demo[3], eye, ang, bob, 0, 0, 1, 0, 0, NULL);     // a pulsar, no bob
    double at = 1.0 + 10.0 / 71;
    int full = in_flight(F.demo[0], at), none = in_flight(F.demo[1], at), pulsar = in_flight(F.demo[2], at);
    int alone = in_flight(F.demo[3], at);
    printf("10 ticks after firing: charged trojax beside bob %d in flight, uncharged %d, pulsar at bob %d, without "
           "bob %d\n", full, none, pulsar, alone);
    assert_int_equal(full, 0);
    assert_int_equal(none, 1);
    assert_int_equal(pulsar, 0);
    assert_int_equal(alone, 1);
    scene_files_done(&F);
}

// ---- other ships dying and damaged (DoDamagedEffects, CreateSpotFXBurning) ------------------

#define TICK (1.0 / 71)

// A dying ship's fire: per tick five flying sprites and one still one; the still one at the spot
// 48.75 units along the move from where the ship was that tick, a frame a tick, pulled out; the
// flying ones 6a - 0.075a^2 units out along their way plus 0.075a^2 up, half a frame a tick,
// 1.5 - 0.0375a units a texel; the same at the same moment; none made before `since` or after
// `until`; all gone 32 ticks after the last.
static void test_burning_rules(void **state)
{
    (void)state;
    static r_fsfx_sprite_t a[512], b[512];
    r_fsfx_ship_t s;
    memset(&s, 0, sizeof s);
    double t = 7100.5 / 71;   // half a tick past tick 7100
    s.time = t;
    s.org[0] = 100, s.org[1] = -50, s.org[2] = 20;
    s.vel[0] = 142;           // 2 units a tick along x
    s.fwd[0] = 1;
    s.up[1] = 1;
    int n = r_fsfx_burning(5, t, -1e30, 1e30, &s, 16, a, 512);
    assert_int_equal(n, 32 * 5 + 16);   // ages 0.5 .. 31.5 flying, 0.5 .. 15.5 still
    assert_int_equal(r_fsfx_burning(5, t, -1e30, 1e30, &s, 16, b, 512), n);
    assert_memory_equal(a, b, sizeof a[0] * (size_t)n);
    int still = 0, flying = 0;
    double back = 0;
    for (int i = 0; i < n; i++) {
        const r_fsfx_sprite_t *x = &a[i];
        double tick = 7100.5 - x->age;
        float e[3] = { (float)(100 + 142 * (tick / 71 - t) + 48.75), -50, 20 };   // the spot that tick
        assert_true(x->age > 0 && x->age < 32);
        assert_true(fabsf(x->rgb[0] - 64.0f / 255) < 1e-6f && x->rgb[1] == x->rgb[0] && x->rgb[2] == x->rgb[0]);
        if (x->moveout) {
            still++;
            assert_true(x->age < 16);
            assert_int_equal(x->frame, (int)x->age);
            assert_true(fabsf(x->scale - 1.5f) < 1e-6f);
            for (int k = 0; k < 3; k++)
                assert_true(fabsf(x->pos[k] - e[k]) < 1e-2f);
            continue;
        }
        flying++;
        float age = x->age, rise = 0.075f * age * age, d[3] = { x->pos[0] - e[0], x->pos[1] - e[1] - rise, x->pos[2] - e[2] };
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        assert_true(fabsf(len - (6 * age - 0.075f * age * age)) < 2e-2f);
        assert_int_equal(x->frame, (int)(age / 2));
        assert_true(fabsf(x->scale - (1.5f - 0.0375f * age)) < 1e-5f);
        back += d[0] / len;
    }
    assert_int_equal(still, 16);
    assert_int_equal(flying, 160);
    printf("dying ship's fire: %d sprites (%d still, %d flying), flying ones on average %.2f of their way back along the "
           "move\n", n, still, flying, -back / flying);
    assert_true(back / flying < -0.5);   // thrown back along the move (-LastMove, jittered)
    // dying since this very tick: its six; stopped 20 ticks ago: the flying ones of 20.5 .. 31.5
    // ticks; stopped 33 ticks ago: nothing left
    assert_int_equal(r_fsfx_burning(5, t, 7100.0 / 71, 1e30, &s, 16, b, 512), 6);
    assert_int_equal(r_fsfx_burning(5, t, -1e30, t - 20 * TICK, &s, 16, b, 512), 12 * 5);
    assert_int_equal(r_fsfx_burning(5, t, -1e30, t - 33 * TICK, &s, 16, b, 512), 0);
    // another ship: other sprites; no move: the fire on the centre; hostile input
    assert_int_equal(r_fsfx_burning(6, t, -1e30, 1e30, &s, 16, b, 512), n);
    assert_true(memcmp(a, b, sizeof a[0] * 6) != 0);
    memset(s.vel, 0, sizeof s.vel);
    int m = r_fsfx_burning(5, t, -1e30, 1e30, &s, 16, b, 512);
    for (int i = 0; i < m; i++)
        if (b[i].moveout)
            assert_true(fabsf(b[i].pos[0] - 100) < 1e-4f);
    assert_int_equal(r_fsfx_burning(5, NAN, -1e30, 1e30, &s, 16, b, 512), 0);
    assert_int_equal(r_fsfx_burning(5, t, -1e30, 1e30, &s, 16, b, 7), 7);
    s.org[1] = NAN;
    assert_int_equal(r_fsfx_burning(5, t, -1e30, 1e30, &s, 16, b, 512), 0);
}

// DoDamagedEffects' black smoke: one a tick while the hull is under 64 and the ship is not going
// backwards, 62.5 behind and 6.5 below its centre, R G B (64 - hull) x 3; the headlight of a
// dying ship on about half the ticks.
static void test_smoke_rules(void **state)
{
    (void)state;
    static r_fsfx_sprite_t a[128];
    r_fsfx_ship_t s;
    memset(&s, 0, sizeof s);
    double t = 7100.5 / 71;
    s.time = t;
    s.vel[2] = 284;   // 4 units a tick along its nose
    s.fwd[2] = 1;
    s.up[1] = 1;
    int n = r_fsfx_smoke(2, t, -1e30, &s, 40, 16, a, 128);
    assert_int_equal(n, 32);
    for (int i = 0; i < n; i++) {
        const r_fsfx_sprite_t *x = &a[i];
        assert_true(fabsf(x->rgb[0] - 72.0f / 255) < 1e-6f);
        assert_true(fabsf(x->scale - 0.5f) < 1e-6f);
        assert_int_equal(x->frame, (int)(x->age / 2));
        // where the ship was that tick, 62.5 behind and 6.5 below, then out behind at 0.5 .. 1.5
        // a tick (slowing 0.2 a tick) and up 0.1a^2
        float z0 = -4 * x->age - 62.5f, rise = 0.1f * x->age * x->age;
        assert_true(x->pos[2] <= z0 + 1e-3f && x->pos[2] >= z0 - 5.7f);
        assert_true(fabsf(x->pos[1] - (-6.5f + rise)) < 1e-3f);
        assert_true(fabsf(x->pos[0]) < 1e-4f);
    }
    assert_int_equal(r_fsfx_smoke(2, t, -1e30, &s, 64, 16, a, 128), 0);    // hull 64: none
    assert_int_equal(r_fsfx_smoke(2, t, -1e30, &s, -1, 16, a, 128), 0);    // not said
    assert_int_equal(r_fsfx_smoke(2, t, t - 4 * TICK, &s, 40, 16, a, 128), 4);
    s.vel[2] = -284;   // backwards: none
    assert_int_equal(r_fsfx_smoke(2, t, -1e30, &s, 40, 16, a, 128), 0);
    int on = 0;
    for (int i = 0; i < 1000; i++) {
        double at = (3550 + i + 0.3) * TICK;   // within tick 3550 + i
        on += r_fsfx_headlight_on(3, at, 1);
        assert_int_equal(r_fsfx_headlight_on(3, at, 0), 1);
        assert_int_equal(r_fsfx_headlight_on(3, at, 1), r_fsfx_headlight_on(3, at + 0.4 * TICK, 1));
    }
    printf("black smoke: %d sprites at hull 40; a dying ship's headlight on %d ticks of 1000\n", n, on);
    assert_true(on > 430 && on < 570);
}

// A scene on `ship`: alice at the first start position; bob 400 units ahead crossing the view at
// 71 units a second (1 a tick), dying (mode 1) from 0.45 s when `dying`, in limbo (mode 2) from
// 1.25 s; his hull `hull` (MSG_SHIELDHULL; -1 none sent).
static void write_dying(const char *path, const float eye[3], const float ang[3], const float bob[3], const float dir[3],
                        int dying, int hull)
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
    if (hull >= 0)
        fs_write_shieldhull(&wr, fs_ticks(0.03), 7, &(fs_shieldhull_t){ .player = 1, .shield = 0, .hull = (uint8_t)hull });
    float yaw[3] = { 0, (float)(atan2(dir[0], dir[2]) * 180 / M_PI), 0 };
    for (int i = 0; i <= 20; i++) {
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
        unsigned mode = t + 0.02 >= 1.25 ? 2 : (dying && t + 0.02 >= 0.45) ? 1 : 0;
        s1.flags = FS_SHIP_ENABLE | (mode << FS_SHIP_MODE_SHIFT);
        for (int k = 0; k < 3; k++)
            s1.pos[k] = bob[k] + dir[k] * 71.0f * (float)(t + 0.02 - 1.0);
        fs_angles_to_quat(yaw, s1.quat);
        fs_write_ship(&wr, fs_ticks(t + 0.02), 7, FS_MSG_FUPDATE, &s1);
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

typedef struct {
    int x0, y0, x1, y1;
} box_t;

// The screen box (320x200, the eye at eye looking along fwd) of sprites `sp`: each its centre
// (pulled out as FM_FLAG_MOVEOUT) give or take expl.off's 36 texels x its scale, grown by 2 pixels.
static box_t sprite_box(const r_fsfx_sprite_t *sp, int n, const float eye[3], const float fwd[3], const float right[3],
                        const float up[3])
{
    box_t b = { 320, 200, 0, 0 };
    for (int i = 0; i < n; i++) {
        float d[3], len = 0;
        for (int k = 0; k < 3; k++) {
            d[k] = sp[i].pos[k] - eye[k];
            len += d[k] * d[k];
        }
        len = sqrtf(len);
        if (sp[i].moveout) {   // 64 nearer (or to 110 away, by at least 32)
            float m = len >= 174 ? 64 : len - 110;
            m = m < 32 ? 32 : m;
            for (int k = 0; k < 3; k++)
                d[k] -= d[k] / len * m;
        }
        float z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2], r = 36 * sp[i].scale;
        if (z - r < 10) {
            b = (box_t){ 0, 0, 320, 200 };
            continue;
        }
        float x = d[0] * right[0] + d[1] * right[1] + d[2] * right[2], y = d[0] * up[0] + d[1] * up[1] + d[2] * up[2];
        int xa = (int)floorf(160 + 160 * (x - r) / (z - r)) - 2, xb = (int)ceilf(160 + 160 * (x + r) / (z - r)) + 2;
        int ya = (int)floorf(100 - 160 / 1.2f * (y + r) / (z - r)) - 2, yb = (int)ceilf(100 - 160 / 1.2f * (y - r) / (z - r)) + 2;
        b.x0 = xa < b.x0 ? xa : b.x0, b.x1 = xb > b.x1 ? xb : b.x1;
        b.y0 = ya < b.y0 ? ya : b.y0, b.y1 = yb > b.y1 ? yb : b.y1;
    }
    b.x0 = b.x0 < 0 ? 0 : b.x0, b.y0 = b.y0 < 0 ? 0 : b.y0, b.x1 = b.x1 > 320 ? 320 : b.x1, b.y1 = b.y1 > 200 ? 200 : b.y1;
    return b;
}

// Pixels of b that differ from a inside the box and outside it.
static void diff_box(const uint8_t *a, const uint8_t *b, int w, int h, box_t bx, int *in, int *out)
{
    *in = *out = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            if (memcmp(a + i, b + i, 3))
                *(x >= bx.x0 && x < bx.x1 && y >= bx.y0 && y < bx.y1 ? in : out) += 1;
        }
}

// Pixels of b brighter than a by more than `by` (r + g + b) inside the box and outside it.
static void brighter_box(const uint8_t *a, const uint8_t *b, int w, int h, box_t bx, int by, int *in, int *out)
{
    *in = *out = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            if ((b[i] + b[i + 1] + b[i + 2]) - (a[i] + a[i + 1] + a[i + 2]) > by)
                *(x >= bx.x0 && x < bx.x1 && y >= bx.y0 && y < bx.y1 ? in : out) += 1;
        }
}

static uint8_t *load_png(const char *path, int *w, int *h)
{
    int c;
    uint8_t *p = stbi_load(path, w, h, &c, 3);
    assert_non_null(p);
    return p;
}

static void test_dying_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 400 * fwd[k];
    scene_files_t F;
    scene_files(&F, "dying", 2, 6);
    write_dying(F.demo[0], eye, ang, bob, right, 1, -1);   // dying from 0.45 s
    write_dying(F.demo[1], eye, ang, bob, right, 0, -1);   // the same path, not dying
    const double at = 1.0, after = 1.25 + 10 * TICK, gone = 1.25 + 40 * TICK;
    fs_shot(F.demo[0], at, F.png[0]);
    fs_shot(F.demo[1], at, F.png[1]);
    fs_shot(F.demo[0], at, F.png[2]);
    fs_shot(F.demo[0], after, F.png[3]);
    fs_shot(F.demo[1], after, F.png[4]);
    fs_shot(F.demo[0], gone, F.png[5]);
    int w, h;
    uint8_t *dy = load_png(F.png[0], &w, &h), *plain = load_png(F.png[1], &w, &h), *dy2 = load_png(F.png[2], &w, &h);
    assert_memory_equal(dy, dy2, (size_t)w * (size_t)h * 3);   // the same moment, the same fire
    // where the renderer has bob at 1.0 s (his updates' path) and the fire's sprites then
    static r_fsfx_sprite_t sp[512];
    r_fsfx_ship_t s;
    memset(&s, 0, sizeof s);
    memcpy(s.org, bob, sizeof s.org);
    for (int k = 0; k < 3; k++)
        s.vel[k] = 71 * right[k];
    s.time = at;
    s.fwd[0] = right[0], s.fwd[1] = right[1], s.fwd[2] = right[2];
    s.up[1] = 1;
    int n = r_fsfx_burning(2, at, -1e30, 1e30, &s, 16, sp, 512);
    box_t bx = sprite_box(sp, n, eye, fwd, right, up);
    int in, out;
    diff_box(plain, dy, w, h, bx, &in, &out);
    printf("dying bob at 1.0 s: %d sprites, %d pixels changed in their box %d,%d..%d,%d, %d outside\n", n, in, bx.x0,
           bx.y0, bx.x1, bx.y1, out);
    assert_int_equal(n, 176);
    assert_true(in > 300);
    assert_int_equal(out, 0);
    // 10 ticks after he went to limbo (not drawn) the fire's last sprites are still there; 40
    // ticks after, nothing is left: the picture is the one without the fire
    uint8_t *af = load_png(F.png[3], &w, &h), *afp = load_png(F.png[4], &w, &h), *gn = load_png(F.png[5], &w, &h);
    int left = 0, none = 0;
    diff_box(afp, af, w, h, (box_t){ 0, 0, 320, 200 }, &left, &out);
    diff_box(afp, gn, w, h, (box_t){ 0, 0, 320, 200 }, &none, &out);
    printf("10 ticks into limbo: %d pixels of fire left; 40 ticks: %d\n", left, none);
    assert_true(left > 30);
    assert_int_equal(none, 0);
    stbi_image_free(dy);
    stbi_image_free(plain);
    stbi_image_free(dy2);
    stbi_image_free(af);
    stbi_image_free(afp);
    stbi_image_free(gn);
    tu_golden("dying bob", F.png[0], "tests/golden/fs_dying.png", 0.01);
    scene_files_done(&F);
}

// bob flying along his nose with hull 40 (MSG_SHIELDHULL) against hull 200: black smoke behind him
// (R G B 72 added), in the smoke's box only; added as the game did, so no pixel goes darker (a
// subtractive or "over" blend would make them darker: the test fails).
#define FS_SMOKE_ROUNDING 8    // r + g + b a pixel may lose to the palette's nearest colour of a sum
static void test_smoke_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 300 * fwd[k];
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    int pid = (int)getpid();
    char demo[2][512], png[2][512];
    for (int i = 0; i < 2; i++) {
        snprintf(demo[i], sizeof demo[i], "%s/fs_fx_smoke%d_%d.dmo", dir, i, pid);
        snprintf(png[i], sizeof png[i], "%s/fs_fx_smoke%d_%d.png", dir, i, pid);
    }
    write_dying(demo[0], eye, ang, bob, right, 0, 40);
    write_dying(demo[1], eye, ang, bob, right, 0, 200);
    fs_shot(demo[0], 1.0, png[0]);
    fs_shot(demo[1], 1.0, png[1]);
    int w, h;
    uint8_t *sm = load_png(png[0], &w, &h), *plain = load_png(png[1], &w, &h);
    static r_fsfx_sprite_t sp[128];
    r_fsfx_ship_t s;
    memset(&s, 0, sizeof s);
    memcpy(s.org, bob, sizeof s.org);
    for (int k = 0; k < 3; k++) {
        s.vel[k] = 71 * right[k];
        s.fwd[k] = right[k];
    }
    s.up[1] = 1;
    s.time = 1.0;
    int n = r_fsfx_smoke(2, 1.0, -1e30, &s, 40, 16, sp, 128);
    // the smoke's box, grown by the slowest and fastest smoke (the jitter of its speed is ours)
    box_t bx = sprite_box(sp, n, eye, fwd, right, up);
    bx.x0 = bx.x0 > 10 ? bx.x0 - 10 : 0, bx.x1 = bx.x1 + 10 < 320 ? bx.x1 + 10 : 320;
    int in, out, brighter = 0, darker = 0, most = 0;
    diff_box(plain, sm, w, h, bx, &in, &out);
    for (int i = 0; i < w * h * 3; i += 3) {
        int d = (sm[i] + sm[i + 1] + sm[i + 2]) - (plain[i] + plain[i + 1] + plain[i + 2]);
        brighter += d > 0;
        darker += d < -FS_SMOKE_ROUNDING;
        most = -d > most ? -d : most;
    }
    printf("bob at hull 40: %d smoke sprites, %d pixels changed in their box %d,%d..%d,%d, %d outside, %d brighter, "
           "%d darker by more than %d (r + g + b; the most any went down: %d)\n", n, in, bx.x0, bx.y0, bx.x1, bx.y1, out,
           brighter, darker, FS_SMOKE_ROUNDING, most);
    assert_int_equal(n, 32);
    assert_true(in > 50);
    assert_int_equal(out, 0);
    assert_true(brighter > (in + out) / 2);
    // the game adds FM_BLACK_SMOKE as every FmPoly (docs/forsaken.md "Dying, damaged and bare
    // ships"): nothing under it goes darker but by the palette's rounding
    assert_int_equal(darker, 0);
    stbi_image_free(sm);
    stbi_image_free(plain);
    tu_golden("smoking bob", png[0], "tests/golden/fs_smoke.png", 0.01);
    if (!getenv("FS_FX_SHOTS"))
        for (int i = 0; i < 2; i++) {
            remove(demo[i]);
            remove(png[i]);
        }
}

// CreateColSparks: the flash for 16 ticks shrinking 0.1 a tick, the explosion for 48 (a frame
// every 3), 1 .. 2 sparks for 36 (a frame every 6) flying 2 .. 4 units a tick; the small ones one
// time in five.
static void test_col_spark_rules(void **state)
{
    (void)state;
    static r_fsfx_sprite_t s[16];
    const float at[3] = { 10, 20, 30 }, out[3] = { 0, 0, -1 };
    int n0 = r_fsfx_col_sparks(at, out, 9, 0, 0, 16, 6, s, 16);
    assert_true(n0 == 3 || n0 == 4);
    int kinds[3] = { 0, 0, 0 };
    for (int i = 0; i < n0; i++)
        kinds[s[i].kind]++;
    assert_int_equal(kinds[FSFX_SPRITE_FLASH], 1);
    assert_int_equal(kinds[FSFX_SPRITE_EXPL], 1);
    int n10 = r_fsfx_col_sparks(at, out, 9, 0, 10, 16, 6, s, 16);
    assert_int_equal(n10, n0);
    for (int i = 0; i < n10; i++) {
        float d[3] = { s[i].pos[0] - at[0], s[i].pos[1] - at[1], s[i].pos[2] - at[2] };
        float l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        switch (s[i].kind) {
        case FSFX_SPRITE_FLASH:
            assert_true(l < 1e-5f && fabsf(s[i].scale - 2.5f) < 1e-5f && s[i].moveout);
            break;
        case FSFX_SPRITE_EXPL:
            assert_true(fabsf(d[0]) <= 16 && fabsf(d[1]) <= 16 && fabsf(d[2]) <= 16 && s[i].frame == 3);
            assert_true(s[i].scale >= 1.25f && s[i].scale <= 2.25f && fabsf(s[i].rgb[0] - 192.0f / 255) < 1e-6f);
            break;
        default:   // out of the ship, 2 .. 4 units a tick
            assert_true(l >= 20 - 1e-3f && l <= 40 + 1e-3f && d[2] < 0 && s[i].frame == 1);
            assert_true(s[i].rgb[0] == 1 && fabsf(s[i].rgb[1] - 64.0f / 255) < 1e-6f);
            break;
        }
    }
    assert_int_equal(r_fsfx_col_sparks(at, out, 9, 0, 20, 16, 6, s, 16), n0 - 1);   // the flash is gone
    assert_int_equal(r_fsfx_col_sparks(at, out, 9, 0, 40, 16, 6, s, 16), 1);        // the explosion only
    assert_int_equal(r_fsfx_col_sparks(at, out, 9, 0, 48, 16, 6, s, 16), 0);
    int some = 0;
    for (uint32_t seed = 0; seed < 1000; seed++)
        some += r_fsfx_col_sparks(at, out, seed, 1, 0, 16, 6, s, 16) > 0;
    printf("collision sparks: %d sprites at the hit; the small ones made for %d seeds of 1000\n", n0, some);
    assert_true(some > 150 && some < 250);
    assert_int_equal(r_fsfx_col_sparks(at, out, 9, 0, NAN, 16, 6, s, 16), 0);
    assert_int_equal(r_fsfx_col_sparks(at, out, 9, 0, -1, 16, 6, s, 16), 0);
}

// A pulsar on bob (600 units ahead) with no shield (his MSG_SHIELDHULL says 0) against the same
// with his shield not said: 5 ticks after the hit BIGFLASH.OFF (3.5 units a texel, pulled 64 units
// nearer) whitens part of the view; 20 ticks after (the flash gone) the explosion and the sparks
// instead of the green circles, the pictures differing only in their box and the shield's.
static void test_col_sparks_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 600 * fwd[k];
    scene_files_t F;
    scene_files(&F, "bare", 3, 5);
    write_scene_sh(F.demo[0], eye, ang, bob, 0, 1, 1, 0, 0, NULL, 0);    // no shield
    write_scene_sh(F.demo[1], eye, ang, bob, 0, 1, 1, 0, 0, NULL, -1);   // shield not said
    write_scene_sh(F.demo[2], eye, ang, bob, 0, 1, 0, 0, 0, NULL, 0);    // no shot
    double hit = 1.0 + 525.0 / (32 * 71), at = hit + 20.0 / 71;
    for (int i = 0; i < 3; i++)
        fs_shot(F.demo[i], at, F.png[i]);
    fs_shot(F.demo[0], hit + 5.0 / 71, F.png[3]);
    fs_shot(F.demo[1], hit + 5.0 / 71, F.png[4]);
    int w, h;
    uint8_t *bare = load_png(F.png[0], &w, &h), *shielded = load_png(F.png[1], &w, &h), *none = load_png(F.png[2], &w, &h);
    uint8_t *flash = load_png(F.png[3], &w, &h), *flash_sh = load_png(F.png[4], &w, &h);
    int whiter = 0;
    for (int i = 0; i < w * h * 3; i += 3)
        whiter += flash[i] + flash[i + 1] + flash[i + 2] > flash_sh[i] + flash_sh[i + 1] + flash_sh[i + 2] + 60;
    // the sparks where the renderer puts them: on bob's sphere facing alice (bullet 3, owner 0)
    static r_fsfx_sprite_t sp[16];
    float p[3], outw[3];
    for (int k = 0; k < 3; k++) {
        p[k] = eye[k] + 525 * fwd[k];
        outw[k] = -fwd[k];
    }
    int n = r_fsfx_col_sparks(p, outw, 3u * 2654435761u, 0, 20, 16, 6, sp, 16);
    box_t bx = sprite_box(sp, n, eye, fwd, right, up);
    float reach = FSFX_INV_RADIUS + FSFX_SHIELD_HALF, z = 600;
    box_t sh = { (int)(160 - 160 * reach / (z - reach)), (int)(100 - 160 / 1.2f * reach / (z - reach)),
                 (int)(160 + 160 * reach / (z - reach)) + 1, (int)(100 + 160 / 1.2f * reach / (z - reach)) + 1 };
    int in = 0, outside = 0, shot_bare = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            shot_bare += memcmp(bare + i, none + i, 3) != 0;
            if (!memcmp(bare + i, shielded + i, 3))
                continue;
            int inb = x >= bx.x0 && x < bx.x1 && y >= bx.y0 && y < bx.y1;
            int ins = x >= sh.x0 && x < sh.x1 && y >= sh.y0 && y < sh.y1;
            in += inb;
            outside += !inb && !ins;
        }
    printf("pulsar on bob without shield: 5 ticks after, %d of %d pixels whiter (the big flash); 20 ticks after, %d "
           "sprites, %d pixels unlike the shielded hit in their box %d,%d..%d,%d, %d outside it and the shield's (%d "
           "unlike no shot at all)\n",
           whiter, w * h, n, in, bx.x0, bx.y0, bx.x1, bx.y1, outside, shot_bare);
    assert_true(whiter > 1000);
    assert_true(n >= 2);
    assert_true(in > 50);
    assert_int_equal(outside, 0);
    stbi_image_free(bare);
    stbi_image_free(shielded);
    stbi_image_free(none);
    stbi_image_free(flash);
    stbi_image_free(flash_sh);
    tu_golden("pulsar on bob without shield", F.png[0], "tests/golden/fs_col_sparks.png", 0.01);
    scene_files_done(&F);
}

// ---- missiles meeting ships (secondary.c ProcessMissiles' "Hit Ship", DestroySecondary) ------------

// DestroySecondary's CreateExplosion: 1, 2 or 3 expl.off sprites (the loop's bound drawn again each
// pass: 1/3, 4/9, 2/9), the first at the point 4 units a texel, the others up to 32 units off each
// way at 1.5 .. 3.75; a frame every 3 ticks, gone after 16 frames; R G B 192, pulled out;
// CreateSmallExplosion one of the others; the same at the same moment.
static void test_explosion_rules(void **state)
{
    (void)state;
    static r_fsfx_sprite_t sp[8], again[8];
    const float at[3] = { 100, -50, 3000 };
    int count[4] = { 0, 0, 0, 0 };
    for (uint32_t seed = 0; seed < 900; seed++) {
        int n = r_fsfx_explosion(at, seed, 0, 7.5f, 16, sp, 8);
        assert_true(n >= 1 && n <= 3);
        count[n]++;
        assert_true(fabsf(sp[0].pos[0] - at[0]) < 1e-6f && fabsf(sp[0].pos[2] - at[2]) < 1e-6f);
        assert_true(sp[0].scale == FSFX_EXPLO_SIZE);
        for (int i = 0; i < n; i++) {
            assert_int_equal(sp[i].frame, 2);
            assert_true(sp[i].moveout && sp[i].kind == FSFX_SPRITE_EXPL);
            assert_true(fabsf(sp[i].rgb[1] - 192.0f / 255) < 1e-6f);
            assert_true(sp[i].rot >= 0 && sp[i].rot < 360);
            for (int k = 0; k < 3; k++)
                assert_true(sp[i].pos[k] - at[k] >= -32 && sp[i].pos[k] - at[k] < 32);
            if (i > 0)
                assert_true(sp[i].scale >= 1.5f && sp[i].scale <= 3.75f);
        }
        assert_int_equal(r_fsfx_explosion(at, seed, 0, 7.5f, 16, again, 8), n);
        assert_memory_equal(sp, again, sizeof sp[0] * (size_t)n);
        int m = r_fsfx_explosion(at, seed, 1, 7.5f, 16, sp, 8);
        assert_int_equal(m, 1);
        assert_true(sp[0].scale >= 1.5f && sp[0].scale <= 3.75f);
    }
    assert_int_equal(r_fsfx_explosion(at, 5, 0, 47.9f, 16, sp, 8) > 0, 1);
    assert_int_equal(r_fsfx_explosion(at, 5, 0, 48, 16, sp, 8), 0);
    assert_int_equal(r_fsfx_explosion(at, 5, 0, NAN, 16, sp, 8), 0);
    assert_int_equal(r_fsfx_explosion(at, 5, 0, 1, 0, sp, 8), 0);
    printf("explosions of 900 seeds: %d of one sprite, %d of two, %d of three\n", count[1], count[2], count[3]);
    assert_true(count[1] > 240 && count[1] < 360);   // 300
    assert_true(count[2] > 340 && count[2] < 460);   // 400
    assert_true(count[3] > 140 && count[3] < 260);   // 200
}

// A mug missile alice fires at bob 260 units ahead meets his 75-unit sphere 185 units out (10.3
// ticks at 18 units a tick) and stops there; one aimed 120 units beside him flies on; the titan's
// shrapnel (ColRadius SHIP_RADIUS: 150 in all) aimed the same 120 beside him stops; without bob the
// mug flies on. In-process, no walls, 20 ticks after firing.
static void test_missile_reach(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], aim[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] + 260 * fwd[k];
        aim[k] = bob[k] + 120 * up[k];
    }
    scene_files_t F;
    scene_files(&F, "mreach", 4, 0);
    write_scene_full(F.demo[0], eye, ang, bob, 0, 1, 1, FSW_MUG, 0, NULL, -1, 1);             // at bob
    write_scene_full(F.demo[1], eye, ang, bob, 0, 1, 1, FSW_MUG, 0, aim, -1, 1);              // beside bob
    write_scene_full(F.demo[2], eye, ang, bob, 0, 1, 1, FSW_TITANSHRAPNEL, 0, aim, -1, 1);    // shrapnel beside
    write_scene_full(F.demo[3], eye, ang, bob, 0, 0, 1, FSW_MUG, 0, NULL, -1, 1);             // no bob
    double at = 1.0 + 20.0 / 71, before = 1.0 + 9.0 / 71;
    int hit = in_flight(F.demo[0], at), beside = in_flight(F.demo[1], at), shrapnel = in_flight(F.demo[2], at);
    int alone = in_flight(F.demo[3], at), early = in_flight(F.demo[0], before);
    printf("20 ticks after firing: mug at bob %d in flight (9 ticks after: %d), mug beside bob %d, shrapnel beside "
           "bob %d, mug without bob %d\n", hit, early, beside, shrapnel, alone);
    assert_int_equal(early, 1);
    assert_int_equal(hit, 0);
    assert_int_equal(beside, 1);
    assert_int_equal(shrapnel, 0);
    assert_int_equal(alone, 1);
    scene_files_done(&F);
}

// The mug on bob (600 ahead, shield 0: CreateColSparks; the hit 525 out) against the same scene
// without the missile, 8 ticks after the hit (its dying light gone: 384 - 50 x 8 < 0): pixels
// differ inside the projected box of the explosion's and the sparks' sprites (where the renderer
// puts them: r_fsfx_explosion / r_fsfx_col_sparks at the hit, bullet 4, owner 0) and nowhere
// else; the same moment drawn twice is equal; golden fs_missile_hit.png (looked at).
static void test_missile_hit_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 600 * fwd[k];
    scene_files_t F;
    scene_files(&F, "mhit", 2, 3);
    write_scene_full(F.demo[0], eye, ang, bob, 0, 1, 1, FSW_MUG, 0, NULL, 0, 1);   // the mug, bob bare
    write_scene_full(F.demo[1], eye, ang, bob, 0, 1, 0, FSW_MUG, 0, NULL, 0, 1);   // no mug
    double hit = 1.0 + 525.0 / (18 * 71), at = hit + 8.0 / 71;
    fs_shot(F.demo[0], at, F.png[0]);
    fs_shot(F.demo[1], at, F.png[1]);
    fs_shot(F.demo[0], at, F.png[2]);
    int w, h;
    uint8_t *mug = load_png(F.png[0], &w, &h), *none = load_png(F.png[1], &w, &h), *twice = load_png(F.png[2], &w, &h);
    static r_fsfx_sprite_t sp[16];
    float p[3], outw[3];
    for (int k = 0; k < 3; k++) {
        p[k] = eye[k] + 525 * fwd[k];
        outw[k] = -fwd[k];
    }
    uint32_t seed = 4u * 2654435761u + 0x5bd1e995u;
    int n = r_fsfx_explosion(p, seed, 0, 8, 16, sp, 16);
    int ne = n;
    n += r_fsfx_col_sparks(p, outw, seed, 0, 8, 16, 6, sp + n, 16 - n);
    box_t bx = sprite_box(sp, n, eye, fwd, right, up);
    int in, out;
    diff_box(none, mug, w, h, bx, &in, &out);
    printf("mug on bare bob, 8 ticks after the hit: %d explosion + %d spark sprites, %d pixels differ in their box "
           "%d,%d..%d,%d, %d outside; drawn twice %s\n", ne, n - ne, in, bx.x0, bx.y0, bx.x1, bx.y1, out,
           memcmp(mug, twice, (size_t)w * (size_t)h * 3) ? "differs" : "the same");
    assert_true(ne >= 1);
    assert_true(in > 200);
    assert_int_equal(out, 0);
    assert_memory_equal(mug, twice, (size_t)w * (size_t)h * 3);
    stbi_image_free(mug);
    stbi_image_free(none);
    stbi_image_free(twice);
    tu_golden("mug on bob without shield", F.png[0], "tests/golden/fs_missile_hit.png", 0.01);
    scene_files_done(&F);
}

// ---- missiles in flight: their own pace and their smoke (secondary.c, 2dPolys.c) ---------------

// alice (player 0) at `eye` looking along `ang`, updates every 0.1 s to 1.55 s; when `shot`, bob
// (player 1) launches secondary `weapon` at 1.0 s: MSG_SECBULLPOSDIR with pos, offset, dir and
// drop dir as given.
static void write_missile_scene(const char *path, const float eye[3], const float ang[3], int shot, int weapon,
                                const float pos[3], const float offset[3], const float dir[3], const float drop[3])
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
    for (int i = 0; i <= 15; i++) {
        double t = 0.05 + i * 0.1;
        fs_ship_t s0;
        memset(&s0, 0, sizeof s0);
        s0.player = 0;
        s0.flags = FS_SHIP_ENABLE;
        memcpy(s0.pos, eye, sizeof s0.pos);
        fs_angles_to_quat(ang, s0.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s0);
        if (shot && i == 9) {
            fs_secbull_t sb;
            memset(&sb, 0, sizeof sb);
            sb.player = 1;
            sb.owner_type = 1;
            sb.owner = 1;
            sb.bullet_id = 9;
            sb.weapon = (uint8_t)weapon;
            sb.up[1] = 1;
            memcpy(sb.pos, pos, sizeof sb.pos);
            memcpy(sb.offset, offset, sizeof sb.offset);
            memcpy(sb.dir, dir, sizeof sb.dir);
            memcpy(sb.drop_dir, drop, sizeof sb.drop_dir);
            fs_write_secbull(&wr, fs_ticks(1.0), 7, &sb);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// The rule, from SecondaryWeaponAttribs[] and ProcessMissiles (written out here, not asked of the
// renderer): units along the direction and along the drop vector `k` ticks after the launch.
static float rule_along(int weapon, float k, float *fall)
{
    *fall = 0;
    switch (weapon) {
    case FSW_TITAN:
        return 18 * 0.75f * k;
    case FSW_TITANSHRAPNEL:
        return 18 * 1.25f * k;
    case FSW_MFRL:   // 2 ticks along the drop vector at 18, a tick along dir at 18, then 36
        *fall = 18 * (k < 2 ? k : 2);
        return k <= 2 ? 0 : k <= 3 ? 18 * (k - 2) : 18 + 36 * (k - 3);
    default:
        return 18 * k;
    }
}

// In-process, no walls: each missile kind launched at 1.0 s from pos + offset (InitOneSecBull's
// start) is where the rule puts it at 0.5 .. 40 ticks after (r_fsent_shots), to 0.01 units.
static void test_missile_motion(void **state)
{
    (void)state;
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    char path[512];
    snprintf(path, sizeof path, "%s/fs_fx_mmove_%d.dmo", dir, (int)getpid());
    const float eye[3] = { 0, 0, 0 }, ang[3] = { 0, 0, 0 };
    const float pos[3] = { 100, 50, -30 }, offset[3] = { 3, -4, 5 };
    const float fdir[3] = { 0.6f, 0, 0.8f }, drop[3] = { 0, -0.8f, 0.6f };
    const int weapons[] = { FSW_MUG, FSW_SOLARIS, FSW_GRAVGON, FSW_TITAN, FSW_TITANSHRAPNEL, FSW_PINEMISSILE, FSW_MFRL };
    const float ticks[] = { 0.5f, 1, 2, 2.5f, 3, 4, 10, 40 };
    int checked = 0;
    for (size_t wi = 0; wi < sizeof weapons / sizeof weapons[0]; wi++) {
        write_missile_scene(path, eye, ang, 1, weapons[wi], pos, offset, fdir, drop);
        fs_play_t pl;
        fs_play_open(&pl, path, 1);
        while (fs_play_frame(&pl) && pl.w->time < 1.05)
            ;
        for (size_t ti = 0; ti < sizeof ticks / sizeof ticks[0]; ti++) {
            float p[3], fall, along = rule_along(weapons[wi], ticks[ti], &fall);
            assert_int_equal(r_fsent_shots(pl.fe, 1.0 + ticks[ti] / 71.0, p), 1);
            for (int k = 0; k < 3; k++)
                assert_float_equal(p[k], pos[k] + offset[k] + drop[k] * fall + fdir[k] * along, 0.01);
            checked++;
            if (ticks[ti] == 10)
                printf("weapon %2d 10 ticks after launch: %.2f %.2f %.2f\n", weapons[wi], p[0], p[1], p[2]);
        }
        fs_play_close(&pl);
    }
    printf("missiles: %d positions on the rule\n", checked);
    if (!getenv("FS_FX_SHOTS"))
        remove(path);
}

static const uint8_t shade_rule[16] = { 255, 200, 128, 104, 96, 92, 80, 77, 74, 72, 69, 66, 64, 64, 64, 64 };

// A puff's flight `age` ticks after its birth: 14.4 a tick, `slow` less each tick, never below 0.
static float rule_flight(int age, float slow)
{
    float d = 0, s = 14.4f;
    for (int j = 0; j < age && s > 0; j++, s -= slow)
        d += s;
    return d;
}

// The trails as the rule makes them (r_fsfx_missile_trail): a puff a tick once the missile no
// longer falls (the MFRL from its 3rd tick), none on the tick it ends, each born 50 behind it and
// flying on 14.4 a tick slowing 4 (smoke) or 2, its frame 0.5 / 0.166 / 0.1 a tick, gone at the
// layout's count, R G B ShadeTable; the scatter and mines make none; the same twice.
static void test_trail_rules(void **state)
{
    (void)state;
    static r_fsfx_sprite_t sp[64], sp2[64];
    const float org[3] = { 10, 20, 30 }, drop[3] = { 0, -1, 0 }, dir[3] = { 1, 0, 0 };
    // the mug at tick 10: puffs of ticks 10 .. 1
    int n = r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 10, 1e30f, 16, sp, 64);
    assert_int_equal(n, 10);
    for (int i = 0; i < n; i++) {
        int k = 10 - i, age = 10 - k;
        float x = 10 + 18.0f * (float)k - 50 + rule_flight(age, 4);
        assert_float_equal(sp[i].pos[0], x, 0.01);
        assert_float_equal(sp[i].pos[1], 20, 0.01);
        assert_float_equal(sp[i].rgb[0], shade_rule[age / 2] / 255.0f, 1e-6);
        assert_int_equal(sp[i].frame, age / 2);
        assert_float_equal(sp[i].scale, 0.5f, 1e-6);
        assert_int_equal(sp[i].kind, FSFX_SPRITE_EXPL);
        assert_true(sp[i].rot >= 0 && sp[i].rot < 360);
    }
    assert_float_equal(rule_flight(9, 4), 33.6f, 0.001);
    // 32 ticks of life (16 frames at half a frame a tick): at tick 40, ticks 9 .. 40
    assert_int_equal(r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 40, 1e30f, 16, sp, 64), 32);
    // ended at 20.5: none from tick 21 on; at tick 30 ticks 1 .. 20; at tick 53 none
    assert_int_equal(r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 30, 20.5f, 16, sp, 64), 20);
    assert_int_equal(r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 30, 20.0f, 16, sp, 64), 19);
    assert_int_equal(r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 53, 20.5f, 16, sp, 64), 0);
    // the MFRL: no smoke while it falls; its first puff at tick 3, 36 below, 18 along, 50 back
    n = r_fsfx_missile_trail(FSW_MFRL, 5, org, drop, dir, 3, 1e30f, 16, sp, 64);
    assert_int_equal(n, 1);
    assert_float_equal(sp[0].pos[0], 10 + 18 - 50, 0.01);
    assert_float_equal(sp[0].pos[1], 20 - 36, 0.01);
    assert_int_equal(r_fsfx_missile_trail(FSW_MFRL, 5, org, drop, dir, 2.9f, 1e30f, 16, sp, 64), 0);
    // solaris (SOLTRAIL.OFF, 5 frames at 0.166: 30.1 ticks), still, 1.75 a texel, shade x 3
    n = r_fsfx_missile_trail(FSW_SOLARIS, 5, org, drop, dir, 40, 1e30f, 5, sp, 64);
    assert_int_equal(n, 31);
    assert_int_equal(sp[0].kind, FSFX_SPRITE_SOLTRAIL);
    assert_float_equal(sp[0].rot, 0, 0);
    assert_float_equal(sp[0].scale, 1.75f, 1e-6);
    assert_float_equal(sp[12].rgb[0], shade_rule[(int)(12 * 0.166f * 3)] / 255.0f, 1e-6);
    assert_float_equal(sp[12].pos[0], 10 + 18.0f * 28 - 50 + rule_flight(12, 2), 0.01);
    // gravgon (GRVTRAIL.OFF, 3 frames at 0.1: 30 ticks), growing 0.1 a tick, shade x 5
    n = r_fsfx_missile_trail(FSW_GRAVGON, 5, org, drop, dir, 40, 1e30f, 3, sp, 64);
    assert_int_equal(n, 30);
    assert_int_equal(sp[10].kind, FSFX_SPRITE_GRVTRAIL);
    assert_float_equal(sp[10].scale, 1.75f + 1.0f, 1e-5);
    assert_float_equal(sp[10].rgb[0], shade_rule[5] / 255.0f, 1e-6);
    // thief and shrapnel: NEWTRAIL.OFF, turned at random; the titan and pine missile: smoke
    assert_int_equal(r_fsfx_missile_trail(FSW_THIEF, 5, org, drop, dir, 4, 1e30f, 5, sp, 64), 4);
    assert_int_equal(sp[0].kind, FSFX_SPRITE_NEWTRAIL);
    assert_int_equal(r_fsfx_missile_trail(FSW_TITANSHRAPNEL, 5, org, drop, dir, 4, 1e30f, 5, sp, 64), 4);
    assert_float_equal(sp[0].pos[0], 10 + 22.5f * 4 - 50, 0.01);
    assert_int_equal(r_fsfx_missile_trail(FSW_TITAN, 5, org, drop, dir, 4, 1e30f, 16, sp, 64), 4);
    assert_float_equal(sp[0].pos[0], 10 + 13.5f * 4 - 50, 0.01);
    assert_int_equal(r_fsfx_missile_trail(FSW_PINEMISSILE, 5, org, drop, dir, 4, 1e30f, 16, sp, 64), 4);
    assert_int_equal(sp[0].kind, FSFX_SPRITE_EXPL);
    // none for the scatter and the mines; hostile input
    assert_int_equal(r_fsfx_missile_trail(FSW_SCATTER, 5, org, drop, dir, 10, 1e30f, 16, sp, 64), 0);
    assert_int_equal(r_fsfx_missile_trail(FSW_PURGEMINE, 5, org, drop, dir, 10, 1e30f, 16, sp, 64), 0);
    assert_int_equal(r_fsfx_missile_trail(99, 5, org, drop, dir, 10, 1e30f, 16, sp, 64), 0);
    assert_int_equal(r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, NAN, 1e30f, 16, sp, 64), 0);
    assert_int_equal(r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 10, 1e30f, 0, sp, 64), 0);
    assert_int_equal(r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 40, 1e30f, 16, sp, 7), 7);
    // a moment is the same twice; another seed turns them otherwise
    n = r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 17.25f, 1e30f, 16, sp, 64);
    assert_int_equal(r_fsfx_missile_trail(FSW_MUG, 5, org, drop, dir, 17.25f, 1e30f, 16, sp2, 64), n);
    assert_memory_equal(sp, sp2, sizeof sp[0] * (size_t)n);
    r_fsfx_missile_trail(FSW_MUG, 6, org, drop, dir, 17.25f, 1e30f, 16, sp2, 64);
    int turned = 0;
    for (int i = 0; i < n; i++)
        turned += sp[i].rot != sp2[i].rot;
    assert_true(turned > n / 2);
    printf("trails: mug 10 puffs at tick 10, 32 at most; solaris 31, gravgon 30\n");
}

// bob's MFRL (no light of its own) crosses alice's view 420 units ahead, left to right, falling
// along -up first; 12 ticks after the launch the scene differs from the one without it inside the
// projected box of its smoke (r_fsfx_missile_trail, as the renderer calls it) and of its model (48
// units about it) and nowhere else; 120 pixels of the smoke's box left of the model's differ; the
// same moment twice is equal; golden fs_missile_trail.png (looked at).
static void test_trail_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], org[3], drop[3], zero[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        org[k] = eye[k] + 420 * fwd[k] - 150 * right[k] + 30 * up[k];
        drop[k] = -up[k];
    }
    scene_files_t F;
    scene_files(&F, "mtrail", 2, 3);
    write_missile_scene(F.demo[0], eye, ang, 1, FSW_MFRL, org, zero, right, drop);
    write_missile_scene(F.demo[1], eye, ang, 0, FSW_MFRL, org, zero, right, drop);
    double at = 1.0 + 12.0 / 71;
    fs_shot(F.demo[0], at, F.png[0]);
    fs_shot(F.demo[1], at, F.png[1]);
    fs_shot(F.demo[0], at, F.png[2]);
    int w, h;
    uint8_t *with = load_png(F.png[0], &w, &h), *none = load_png(F.png[1], &w, &h), *twice = load_png(F.png[2], &w, &h);
    static r_fsfx_sprite_t sp[64];
    uint32_t seed = (9u * 2654435761u ^ 1u) + 0x5bd1e995u;   // shot_seed: bullet 9, owner 1, a secondary
    int n = r_fsfx_missile_trail(FSW_MFRL, seed, org, drop, right, 12, 1e30f, 16, sp, 64);
    box_t smoke = sprite_box(sp, n, eye, fwd, right, up);
    r_fsfx_sprite_t body = { .scale = 48.0f / 36 };
    float fall, along = rule_along(FSW_MFRL, 12, &fall);
    for (int k = 0; k < 3; k++)
        body.pos[k] = org[k] + drop[k] * fall + right[k] * along;
    box_t model = sprite_box(&body, 1, eye, fwd, right, up);
    box_t all = { smoke.x0 < model.x0 ? smoke.x0 : model.x0, smoke.y0 < model.y0 ? smoke.y0 : model.y0,
                  smoke.x1 > model.x1 ? smoke.x1 : model.x1, smoke.y1 > model.y1 ? smoke.y1 : model.y1 };
    box_t behind = smoke;
    behind.x1 = model.x0 < behind.x1 ? model.x0 : behind.x1;   // the smoke's box left of the model
    int in, out, trail, trail_out;
    diff_box(none, with, w, h, all, &in, &out);
    diff_box(none, with, w, h, behind, &trail, &trail_out);
    printf("MFRL 12 ticks after launch: %d puffs, %d pixels differ in smoke + model box %d,%d..%d,%d (%d in the "
           "smoke's box %d,%d..%d,%d behind the model), %d outside; drawn twice %s\n", n, in, all.x0, all.y0, all.x1,
           all.y1, trail, behind.x0, behind.y0, behind.x1, behind.y1, out,
           memcmp(with, twice, (size_t)w * (size_t)h * 3) ? "differs" : "the same");
    assert_int_equal(n, 10);
    assert_int_equal(out, 0);
    assert_true(trail > 120);
    assert_memory_equal(with, twice, (size_t)w * (size_t)h * 3);
    stbi_image_free(with);
    stbi_image_free(none);
    stbi_image_free(twice);
    tu_golden("MFRL's smoke trail", F.png[0], "tests/golden/fs_missile_trail.png", 0.01);
    scene_files_done(&F);
}

// seek == play for the missiles: the MFRL scene drawn while playing on (every 0.02 s) at moments
// before the launch, in its fall, in flight with its smoke, and after, equals the same moments
// reached by seeking backwards (the shots and the smoke come from the events and the time alone).
// The demo drawn while playing on (every 0.02 s) at `at` equals the same moments reached by seeking
// backwards; returns how many seeks differ, *moved how many moments differ from the one before.
static int seek_differs(const char *demo, const double *at, int N, int *moved)
{
    char base[512];
    snprintf(base, sizeof base, "%s/forsaken", tu_data_dir());
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = base;
    renderer_t *r = r_create(160, 100);
    assert_non_null(r);
    uint8_t *played[16];
    assert_true(N <= 16);
    demo_t d;
    assert_int_equal(demo_open(&d, &cli, demo, NULL, 0), 0);
    player_t *p = player_create(&d, &cli, r, NULL, NULL);
    assert_non_null(p);
    int k = 0;
    for (double t = player_start(p); k < N && t < at[N - 1] + 0.1; t += 0.02) {
        while (k < N && at[k] <= t + 1e-9) {   // drawn before the step past it: played up to at[k] only
            assert_true(player_advance(p, at[k]) >= 0);
            r_render(r, d.world, player_demo_time(p, at[k]));
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
    *moved = 0;
    for (int i = N - 1; i >= 0; i--) {   // backwards: every seek goes back
        assert_int_equal(player_seek(p, at[i]), 0);
        r_render(r, d.world, player_demo_time(p, at[i]));
        int w, h, pitch;
        const uint8_t *px = r_pixels(r, &w, &h, &pitch);
        if (memcmp(px, played[i], (size_t)h * (size_t)pitch)) {
            printf("seek to %.2f s differs from play\n", at[i]);
            differ++;
        }
        if (i > 0 && memcmp(played[i], played[i - 1], (size_t)h * (size_t)pitch))
            (*moved)++;
    }
    for (int i = 0; i < N; i++)
        free(played[i]);
    player_destroy(p);
    demo_close(&d);
    r_destroy(r);
    return differ;
}

static void test_trail_seek(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], org[3], drop[3], zero[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        org[k] = eye[k] + 420 * fwd[k] - 150 * right[k] + 30 * up[k];
        drop[k] = -up[k];
    }
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    char demo[512];
    snprintf(demo, sizeof demo, "%s/fs_fx_mseek_%d.dmo", dir, (int)getpid());
    write_missile_scene(demo, eye, ang, 1, FSW_MFRL, org, zero, right, drop);
    const double at[] = { 0.9, 1.02, 1.1, 1.17, 1.3, 1.5 };
    int moved, differ = seek_differs(demo, at, 6, &moved);
    printf("MFRL scene: %d moments, %d differ from the one before, %d seeks differ from play\n", 6, moved, differ);
    assert_true(moved >= 3);   // the moments are not all one picture
    assert_int_equal(differ, 0);
    if (!getenv("FS_FX_SHOTS"))
        remove(demo);
}

// ---- a pickup's twinkle from the world state (InitOnePickup's Sparkle) --------------------------

// alice's view; a shield dropped at 1.0 s with sparkle (and one without, id 6), the first dropped
// again 300 units on at 2.0 s. Decoded in-process with no drawer at all (as after a seek: nothing
// seen before): at every frame the world says when each began twinkling, the drop's time (1.0 s,
// then 2.0 s once moved), the one without sparkle never.
static void test_pickup_appear(void **state)
{
    (void)state;
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    char path[512];
    snprintf(path, sizeof path, "%s/fs_fx_appear_%d.dmo", dir, (int)getpid());
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t hd;
    memset(&hd, 0, sizeof hd);
    hd.version = FS_VERSION_MIN;
    snprintf(hd.level, sizeof hd.level, "ship");
    fs_write_header(&wr, &hd);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= 60; i++) {
        double t = 0.05 * i;
        fs_ship_t s0;
        memset(&s0, 0, sizeof s0);
        s0.flags = FS_SHIP_ENABLE;
        s0.quat[0] = 1;
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s0);
        if (i == 20 || i == 40) {
            fs_droppickup_t d;
            memset(&d, 0, sizeof d);
            d.player = 1;
            d.id = 5;
            d.type = 24;
            d.sparkle = 1;
            d.pos[2] = i == 20 ? 100 : 400;
            fs_write_droppickup(&wr, fs_ticks(t), 7, &d);
            if (i == 20) {
                d.id = 6;
                d.sparkle = 0;
                d.pos[0] = 50;
                fs_write_droppickup(&wr, fs_ticks(t), 7, &d);
            }
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
    fs_play_t pl;
    fs_play_open(&pl, path, 0);
    int frames = 0, sparkling = 0, plain = 0, moved = 0;
    while (fs_play_frame(&pl)) {
        const world_t *w = pl.w;
        double a = r_fsent_pickup_appear(w, FSW_PICKUP_ENT0), b = r_fsent_pickup_appear(w, FSW_PICKUP_ENT0 + 1);
        frames++;
        if (!world_entity_visible(w, FSW_PICKUP_ENT0 + 1)) {   // not dropped yet (the frames to 1.0 s)
            assert_true(a < -1e29 || fabs(w->time - 1.0) < 1e-6);
            assert_true(b < -1e29 && w->time < 1.0 + 1e-6);
            continue;
        }
        assert_true(b < -1e29);                    // no sparkle: never twinkles
        plain++;
        if (w->entities[FSW_PICKUP_ENT0].cur.origin[2] < 200) {   // not dropped again yet
            assert_true(fabs(a - 1.0) < 1e-4);
            sparkling++;
        } else {
            assert_true(fabs(a - 2.0) < 1e-4);
            moved++;
        }
    }
    fs_play_close(&pl);
    printf("pickup twinkle from the world: %d frames, %d with the drop at 1.0 s, %d after it moved at 2.0 s, the "
           "plain one never (%d frames)\n", frames, sparkling, moved, plain);
    assert_true(sparkling >= 20 && moved >= 20);
    assert_true(r_fsent_pickup_appear(NULL, FSW_PICKUP_ENT0) < -1e29);
    if (!getenv("FS_FX_SHOTS"))
        remove(path);
}

// ---- homing --------------------------------------------------------------------------

// The first shot's place at `at` as the drawer has it after the frame just before `at`; returns
// how many shots fly then (-1: no such frame).
static int shot_pos(const char *path, double at, float p[3])
{
    fs_play_t pl;
    fs_play_open(&pl, path, 1);
    int n = -1;
    while (fs_play_frame(&pl)) {
        if (pl.w->time <= at && pl.w->time + 0.1 > at)
            n = r_fsent_shots(pl.fe, at, p);
    }
    fs_play_close(&pl);
    return n;
}

// The homing rule (secondary.c ProcessMissiles, TargetClosestShip, StillGotTarget; written out here,
// not asked of the renderer), for one still ship in an open space: each tick the missile, flying
// straight, takes the ship when the cosine to it is at least the cone's (the state changes, no
// turn that tick); once it has it, it turns towards it by at most `turn` degrees along the great
// circle (at once when nearer); then it moves 18 units. Where it is after `k` ticks (k whole) and
// the tick its move first enters the ship's 75-unit sphere (0: not within `max` ticks).
static void rule_homing(const float org[3], const float dir0[3], const float ship[3], float turn, float cone_deg,
                        int ticks, float out[3], int *hit_tick, int max)
{
    float p[3], d[3];
    memcpy(p, org, sizeof p);
    memcpy(d, dir0, sizeof d);
    int have = 0;
    *hit_tick = 0;
    double rad = turn * M_PI / 180, cone = cos(cone_deg / 2 * M_PI / 180);
    for (int k = 1; k <= max; k++) {
        float to[3], l = 0;
        for (int j = 0; j < 3; j++) {
            to[j] = ship[j] - p[j];
            l += to[j] * to[j];
        }
        l = sqrtf(l);
        for (int j = 0; j < 3; j++)
            to[j] /= l;
        double c = to[0] * d[0] + to[1] * d[1] + to[2] * d[2];
        if (!have) {
            have = c >= cone;
        } else {
            double a = acos(c > 1 ? 1 : c);
            if (a <= rad) {
                memcpy(d, to, sizeof d);
            } else {   // d cos(rad) + (the part of `to` square to d, unit) sin(rad)
                float q[3], ql = 0;
                for (int j = 0; j < 3; j++) {
                    q[j] = (float)(to[j] - d[j] * c);
                    ql += q[j] * q[j];
                }
                ql = sqrtf(ql);
                for (int j = 0; j < 3; j++)
                    d[j] = (float)(d[j] * cos(rad) + q[j] / ql * sin(rad));
            }
        }
        float np[3];
        for (int j = 0; j < 3; j++)
            np[j] = p[j] + d[j] * 18;
        // the move against the sphere: the nearest point of the segment within 75
        if (!*hit_tick) {
            float m[3], mm = 0, mq = 0;
            for (int j = 0; j < 3; j++) {
                m[j] = np[j] - p[j];
                mm += m[j] * m[j];
                mq += (ship[j] - p[j]) * m[j];
            }
            float u = mq / mm;
            u = u < 0 ? 0 : u > 1 ? 1 : u;
            float dd = 0;
            for (int j = 0; j < 3; j++)
                dd += (p[j] + m[j] * u - ship[j]) * (p[j] + m[j] * u - ship[j]);
            if (dd < 75 * 75)
                *hit_tick = k;
        }
        memcpy(p, np, sizeof p);
        if (k == ticks)
            memcpy(out, p, 3 * sizeof *out);
    }
}

// A solaris fired straight ahead past bob (500 ahead, 110 to the right: flying straight it would
// pass him 110 out, beyond his 75): the drawer's missile is where the rule above puts it at 0.5,
// 4, 10, 17.5 and 24 ticks (to 0.05 units), reaches bob's sphere on the rule's tick and stops
// there (in flight the tick before, not the tick after); a mug fired the same way flies on (it does
// not home); a thief (3 degrees a tick, any direction) fired straight away from bob turns round.
static void test_homing_path(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], aim[3], back[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] + 500 * fwd[k] + 110 * right[k];
        aim[k] = eye[k] + 500 * fwd[k];
        back[k] = eye[k] - 500 * fwd[k] + 110 * right[k];
    }
    scene_files_t F;
    scene_files(&F, "homing", 3, 0);
    write_scene_full(F.demo[0], eye, ang, bob, 0, 1, 1, FSW_SOLARIS, 0, aim, -1, 1);
    write_scene_full(F.demo[1], eye, ang, bob, 0, 1, 1, FSW_MUG, 0, aim, -1, 1);
    write_scene_full(F.demo[2], eye, ang, back, 0, 1, 1, FSW_THIEF, 0, aim, -1, 1);
    static const float at[] = { 0.5f, 4, 10, 17.5f, 24 };
    int hit = 0;
    float dummy[3];
    rule_homing(eye, fwd, bob, 1.5f, 120, 1, dummy, &hit, 200);
    printf("solaris: the rule reaches bob's sphere on tick %d\n", hit);
    assert_true(hit > 24 && hit < 40);
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        float lo[3], hi[3], want[3], got[3];
        int k = (int)at[i], h2;
        if (k > 0)
            rule_homing(eye, fwd, bob, 1.5f, 120, k, lo, &h2, k);
        else
            memcpy(lo, eye, sizeof lo);
        rule_homing(eye, fwd, bob, 1.5f, 120, k + 1, hi, &h2, k + 1);
        for (int j = 0; j < 3; j++)
            want[j] = lo[j] + (hi[j] - lo[j]) * (at[i] - (float)k);
        int n = shot_pos(F.demo[0], 1.0 + at[i] / 71, got);
        float off = sqrtf((got[0] - want[0]) * (got[0] - want[0]) + (got[1] - want[1]) * (got[1] - want[1]) +
                          (got[2] - want[2]) * (got[2] - want[2]));
        float side = (got[0] - eye[0]) * right[0] + (got[1] - eye[1]) * right[1] + (got[2] - eye[2]) * right[2];
        printf("solaris at %.1f ticks: %d in flight, %.3f units from the rule, %.2f to the right\n", at[i], n, off,
               side);
        assert_int_equal(n, 1);
        assert_true(off < 0.05f);
    }
    float p[3];
    int before = shot_pos(F.demo[0], 1.0 + (hit - 1.0) / 71, p), after = shot_pos(F.demo[0], 1.0 + (hit + 1.0) / 71, p);
    int mug = shot_pos(F.demo[1], 1.0 + (hit + 1.0) / 71, p);
    float mug_side = (p[0] - eye[0]) * right[0] + (p[1] - eye[1]) * right[1] + (p[2] - eye[2]) * right[2];
    printf("solaris the tick before its hit %d in flight, the tick after %d; the mug then %d (%.2f to the right)\n",
           before, after, mug, mug_side);
    assert_int_equal(before, 1);
    assert_int_equal(after, 0);
    assert_int_equal(mug, 1);
    assert_true(fabsf(mug_side) < 0.01f);
    // the thief, fired away from bob behind it: 3 degrees a tick, its cone all round
    float th[3], want[3];
    int th_hit;
    rule_homing(eye, fwd, back, 3.0f, 360, 30, want, &th_hit, 30);
    int tn = shot_pos(F.demo[2], 1.0 + 30.0 / 71, th);
    float toff = sqrtf((th[0] - want[0]) * (th[0] - want[0]) + (th[1] - want[1]) * (th[1] - want[1]) +
                       (th[2] - want[2]) * (th[2] - want[2]));
    float ahead = (th[0] - eye[0]) * fwd[0] + (th[1] - eye[1]) * fwd[1] + (th[2] - eye[2]) * fwd[2];
    printf("thief at 30 ticks: %d in flight, %.3f units from the rule, %.1f ahead of alice (straight: 540)\n", tn,
           toff, ahead);
    assert_int_equal(tn, 1);
    assert_true(toff < 0.05f);
    assert_true(ahead < 400);
    scene_files_done(&F);
}

// alice (the view) at eye, bob at `bob`, carol at `carol` firing `weapon` along `dir` at 1.0 s
// (bullet 5) when `shot`.
static void write_homing_scene(const char *path, const float eye[3], const float ang[3], const float bob[3],
                               const float carol[3], const float dir[3], int weapon, int shot)
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
    fs_write_name(&wr, fs_ticks(0.01), 7, &(fs_name_t){ .player = 2, .name = "carol" });
    float side[3] = { 0, ang[1] + 90, 0 };
    for (int i = 0; i <= 15; i++) {
        double t = 0.05 + i * 0.1;
        const float *at[3] = { eye, bob, carol };
        for (int p = 0; p < 3; p++) {
            fs_ship_t sp;
            memset(&sp, 0, sizeof sp);
            sp.player = (uint8_t)p;
            sp.flags = FS_SHIP_ENABLE;
            memcpy(sp.pos, at[p], sizeof sp.pos);
            fs_angles_to_quat(p ? side : ang, sp.quat);
            fs_write_ship(&wr, fs_ticks(t + p * 0.01), p ? 7 : 1, p ? FS_MSG_FUPDATE : FS_MSG_UPDATE, &sp);
        }
        if (shot && i == 9) {
            fs_secbull_t sb;
            memset(&sb, 0, sizeof sb);
            sb.player = 2;
            sb.owner_type = 1;
            sb.owner = 2;
            sb.bullet_id = 5;
            sb.weapon = (uint8_t)weapon;
            sb.up[1] = 1;
            memcpy(sb.pos, carol, sizeof sb.pos);
            memcpy(sb.dir, dir, sizeof sb.dir);
            fs_write_secbull(&wr, fs_ticks(1.0), 7, &sb);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// carol's solaris, fired across alice's view (along her right) 300 ahead, turns towards bob (600
// ahead, 300 to the right; alice is outside its cone): 18 ticks after, against the scene without
// it, the pixels made far brighter (r + g + b up more than 350: its puffs and model; its red light
// on the walls and bikes raises them less) lie inside the projected box of its model and its
// trail's puffs where the rule puts them (the path of rule_homing, the puffs as
// r_fsfx_missile_trail_path makes them from it), none outside; the same moment twice equal; golden
// fs_homing.png (looked at).
static void test_homing_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        carol[k] = eye[k] + 300 * fwd[k] - 150 * right[k];
        bob[k] = eye[k] + 600 * fwd[k] + 300 * right[k];
    }
    scene_files_t F;
    scene_files(&F, "hscene", 2, 3);
    write_homing_scene(F.demo[0], eye, ang, bob, carol, right, FSW_SOLARIS, 1);
    write_homing_scene(F.demo[1], eye, ang, bob, carol, right, FSW_SOLARIS, 0);
    const int ticks = 18;
    double at = 1.0 + ticks / 71.0;
    fs_shot(F.demo[0], at, F.png[0]);
    fs_shot(F.demo[1], at, F.png[1]);
    fs_shot(F.demo[0], at, F.png[2]);
    static float path[32][3], pdir[32][3];
    int hit = 0;
    memcpy(path[0], carol, sizeof path[0]);
    memcpy(pdir[0], right, sizeof pdir[0]);
    for (int k = 1; k <= ticks; k++) {
        rule_homing(carol, right, bob, 1.5f, 120, k, path[k], &hit, k);
        float l = 0;
        for (int j = 0; j < 3; j++) {
            pdir[k][j] = path[k][j] - path[k - 1][j];
            l += pdir[k][j] * pdir[k][j];
        }
        for (int j = 0; j < 3; j++)
            pdir[k][j] /= sqrtf(l);
    }
    assert_int_equal(hit, 0);
    static r_fsfx_sprite_t sp[64];
    int n = r_fsfx_missile_trail_path(FSW_SOLARIS, 0, (const float (*)[3])path, (const float (*)[3])pdir, ticks + 1,
                                      (float)ticks, 1e30f, 5, sp, 63);
    r_fsfx_sprite_t *body = &sp[n];
    memset(body, 0, sizeof *body);
    body->scale = 48.0f / 36;
    memcpy(body->pos, path[ticks], sizeof body->pos);
    box_t bx = sprite_box(sp, n + 1, eye, fwd, right, up);
    int w, h;
    uint8_t *with = load_png(F.png[0], &w, &h), *none = load_png(F.png[1], &w, &h), *twice = load_png(F.png[2], &w, &h);
    int in, out, dif_in, dif_out;
    brighter_box(none, with, w, h, bx, 350, &in, &out);
    diff_box(none, with, w, h, bx, &dif_in, &dif_out);
    float turned = angle_deg(right, pdir[ticks]);
    printf("solaris %d ticks after carol fired it: turned %.1f degrees towards bob, %d puffs; %d pixels far brighter "
           "(r + g + b up more than 350) in the box %d,%d..%d,%d, %d outside (%d and %d differ at all: its red light "
           "on the walls and bikes); drawn twice %s\n", ticks, turned, n, in, bx.x0, bx.y0, bx.x1, bx.y1, out, dif_in,
           dif_out, memcmp(with, twice, (size_t)w * (size_t)h * 3) ? "differs" : "the same");
    assert_true(turned > 24 && turned < 27);   // 1.5 degrees a tick from its second tick
    assert_true(n > 15);
    assert_true(in > 60);
    assert_int_equal(out, 0);
    assert_memory_equal(with, twice, (size_t)w * (size_t)h * 3);
    stbi_image_free(with);
    stbi_image_free(none);
    stbi_image_free(twice);
    tu_golden("solaris homing on bob", F.png[0], "tests/golden/fs_homing.png", 0.01);
    scene_files_done(&F);
}

// carol's scatter (2 degrees a tick, cone 180), the same scene: 10 ticks after, the pixels made
// bluer (blue up by more than 60 over red: its flare is R G B 64 64 255, its light red) lie inside
// the projected box of its flare, 47.5 units behind where the rule puts it (FLARE.OFF, 2.5 units a
// texel), none outside; the scatter draws no smoke (its own trail, a grey tube, greys the blue
// where it starts at the flare: 24 pixels stay bluer, 58 before the trail was drawn).
static void test_scatter_flare(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        carol[k] = eye[k] + 300 * fwd[k] - 150 * right[k];
        bob[k] = eye[k] + 600 * fwd[k] + 300 * right[k];
    }
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    int pid = (int)getpid();
    char demo[2][512], png[2][512];
    for (int i = 0; i < 2; i++) {
        snprintf(demo[i], sizeof demo[i], "%s/fs_fx_scatter%d_%d.dmo", dir, i, pid);
        snprintf(png[i], sizeof png[i], "%s/fs_fx_scatter%d_%d.png", dir, i, pid);
    }
    write_homing_scene(demo[0], eye, ang, bob, carol, right, FSW_SCATTER, 1);
    write_homing_scene(demo[1], eye, ang, bob, carol, right, FSW_SCATTER, 0);
    const int ticks = 10;
    fs_shot(demo[0], 1.0 + ticks / 71.0, png[0]);
    fs_shot(demo[1], 1.0 + ticks / 71.0, png[1]);
    float prev[3], here[3], d[3], l = 0;
    int hit;
    rule_homing(carol, right, bob, 2.0f, 180, ticks - 1, prev, &hit, ticks - 1);
    rule_homing(carol, right, bob, 2.0f, 180, ticks, here, &hit, ticks);
    for (int k = 0; k < 3; k++) {
        d[k] = here[k] - prev[k];
        l += d[k] * d[k];
    }
    r_fsfx_sprite_t flare = { .scale = 2.5f };
    for (int k = 0; k < 3; k++)
        flare.pos[k] = here[k] - d[k] / sqrtf(l) * 47.5f;
    box_t bx = sprite_box(&flare, 1, eye, fwd, right, up);
    int w, h;
    uint8_t *with = load_png(png[0], &w, &h), *none = load_png(png[1], &w, &h);
    int in = 0, out = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            int db = with[i + 2] - none[i + 2], dr = with[i] - none[i];
            if (db - dr > 60)
                *(x >= bx.x0 && x < bx.x1 && y >= bx.y0 && y < bx.y1 ? &in : &out) += 1;
        }
    printf("scatter %d ticks after carol fired it: %d pixels bluer in its flare's box %d,%d..%d,%d, %d outside\n",
           ticks, in, bx.x0, bx.y0, bx.x1, bx.y1, out);
    assert_true(in > 20);
    assert_int_equal(out, 0);
    stbi_image_free(with);
    stbi_image_free(none);
    if (!getenv("FS_FX_SHOTS"))
        for (int i = 0; i < 2; i++) {
            remove(demo[i]);
            remove(png[i]);
        }
}

// CreateScatterTrail's rules: a place kept every 8 ticks (the one before that tick's move), the
// newest first, at most 10, only those of the path known; each ring's three points 6 / 8.49 units
// round the place 47.5 units behind it, square to its direction; the fading shades.
static void test_scatter_rules(void **state)
{
    (void)state;
    int idx[16];
    assert_int_equal(r_fsfx_scatter_kept(7.9f, 100, idx, 16), 0);
    assert_int_equal(r_fsfx_scatter_kept(8.0f, 100, idx, 16), 1);
    assert_int_equal(idx[0], 7);
    assert_int_equal(r_fsfx_scatter_kept(17.5f, 100, idx, 16), 2);
    assert_int_equal(idx[0], 15);
    assert_int_equal(idx[1], 7);
    assert_int_equal(r_fsfx_scatter_kept(100.2f, 1000, idx, 16), 10);   // MAXOLDPOS
    assert_int_equal(idx[0], 95);
    assert_int_equal(idx[9], 23);
    assert_int_equal(r_fsfx_scatter_kept(100.2f, 50, idx, 16), 6);      // the path known: 50 points
    assert_int_equal(idx[0], 47);
    assert_int_equal(r_fsfx_scatter_kept(100.2f, 1000, idx, 3), 3);
    assert_int_equal(r_fsfx_scatter_kept(NAN, 1000, idx, 16), 0);
    assert_int_equal(r_fsfx_scatter_kept(1e30f, 0, idx, 16), 0);
    // shades: the missile's ring 255, kept place m (of n) (n - m) x 25 / 256 of 128
    assert_float_equal(r_fsfx_scatter_shade(10, 0), 1.0f, 1e-6f);
    assert_float_equal(r_fsfx_scatter_shade(10, 1), 125 / 255.0f, 1e-6f);
    assert_float_equal(r_fsfx_scatter_shade(10, 10), 12 / 255.0f, 1e-6f);
    assert_float_equal(r_fsfx_scatter_shade(3, 1), 37 / 255.0f, 1e-6f);
    assert_float_equal(r_fsfx_scatter_shade(3, 3), 12 / 255.0f, 1e-6f);
    // the ring along +z: the offsets as they are, 47.5 behind
    float r[3][3];
    r_fsfx_scatter_ring((const float[3]){ 10, 20, 30 }, (const float[3]){ 0, 0, 1 }, r);
    const float want[3][3] = { { 10, 14, -17.5f }, { 16, 26, -17.5f }, { 4, 26, -17.5f } };
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            assert_float_equal(r[i][k], want[i][k], 1e-4f);
    // any direction: square to it, the same distances round the centre
    const float dirs[4][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0.48f, -0.6f, 0.64f }, { 0, 0, -1 } };
    for (int d = 0; d < 4; d++) {
        r_fsfx_scatter_ring((const float[3]){ 0, 0, 0 }, dirs[d], r);
        const float len[3] = { 6, 8.4853f, 8.4853f };
        for (int i = 0; i < 3; i++) {
            float c[3], l = 0, dot = 0;
            for (int k = 0; k < 3; k++) {
                c[k] = r[i][k] + dirs[d][k] * 47.5f;
                l += c[k] * c[k];
                dot += c[k] * dirs[d][k];
            }
            assert_float_equal(sqrtf(l), len[i], 1e-3f);
            assert_float_equal(dot, 0, 1e-3f);
        }
    }
}

// carol's scatter (test_scatter_flare's scene) 22 ticks after: its trail, a grey tube from 47.5
// units behind it through the rings behind its places kept at ticks 16 and 8 (the path the rule
// puts it on), brightens the pixels along the tube's projected box away from the missile's model
// and flare (each of r, g, b up more than 50: not the missile's red light); without the trail
// none of them (0 with the trail not drawn); the same
// moment twice equal; golden fs_scatter_trail.png (looked at).
static void test_scatter_trail(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        carol[k] = eye[k] + 300 * fwd[k] - 150 * right[k];
        bob[k] = eye[k] + 600 * fwd[k] + 300 * right[k];
    }
    scene_files_t F;
    scene_files(&F, "sctrail", 2, 3);
    write_homing_scene(F.demo[0], eye, ang, bob, carol, right, FSW_SCATTER, 1);
    write_homing_scene(F.demo[1], eye, ang, bob, carol, right, FSW_SCATTER, 0);
    const int ticks = 22;
    double at = 1.0 + ticks / 71.0;
    fs_shot(F.demo[0], at, F.png[0]);
    fs_shot(F.demo[1], at, F.png[1]);
    fs_shot(F.demo[0], at, F.png[2]);
    // the rule's path: where it is now and its places kept at ticks 16 and 8 (after ticks 15, 7)
    float path[ticks + 1][3];
    int hit = 0;
    memcpy(path[0], carol, sizeof path[0]);
    for (int k = 1; k <= ticks; k++)
        rule_homing(carol, right, bob, 2.0f, 180, k, path[k], &hit, k);
    assert_int_equal(hit, 0);
    // the tube's points (each ring 47.5 behind its place along the way it flew, 8.5 round), as
    // sprites of 8.5 units for the box; the model (48 units) and flare (2.5 a texel) boxes apart
    static r_fsfx_sprite_t tube[64];
    int nt = 0;
    const int places[3] = { ticks, 15, 7 };
    for (int i = 0; i < 3; i++) {
        int k = places[i];
        float d[3], l = 0;
        for (int j = 0; j < 3; j++) {
            d[j] = path[k][j] - path[k - 1][j];
            l += d[j] * d[j];
        }
        for (int s2 = 0; s2 <= 8 && i < 2; s2++) {   // along the tube to the next ring
            int k2 = places[i + 1];
            float d2[3], l2 = 0;
            for (int j = 0; j < 3; j++) {
                d2[j] = path[k2][j] - path[k2 - 1][j];
                l2 += d2[j] * d2[j];
            }
            r_fsfx_sprite_t *sp = &tube[nt++];
            memset(sp, 0, sizeof *sp);
            sp->scale = 8.5f / 36;
            for (int j = 0; j < 3; j++) {
                float a = path[k][j] - d[j] / sqrtf(l) * 47.5f, b = path[k2][j] - d2[j] / sqrtf(l2) * 47.5f;
                sp->pos[j] = a + (b - a) * (float)s2 / 8;
            }
        }
    }
    r_fsfx_sprite_t body[2];
    memset(body, 0, sizeof body);
    body[0].scale = 48.0f / 36;
    memcpy(body[0].pos, path[ticks], sizeof body[0].pos);
    body[1].scale = 2.5f;   // the flare: FLARE.OFF's 36 texels x 2.5
    for (int j = 0; j < 3; j++)
        body[1].pos[j] = tube[0].pos[j];
    box_t tb = sprite_box(tube, nt, eye, fwd, right, up), mb = sprite_box(body, 2, eye, fwd, right, up);
    int w, h;
    uint8_t *with = load_png(F.png[0], &w, &h), *none = load_png(F.png[1], &w, &h), *twice = load_png(F.png[2], &w, &h);
    int in = 0, out = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            int dr = with[i] - none[i], dg = with[i + 1] - none[i + 1], db = with[i + 2] - none[i + 2];
            int least = dr < dg ? (dr < db ? dr : db) : (dg < db ? dg : db);   // grey: every channel up (not the red light)
            if (least <= 50 || (x >= mb.x0 && x < mb.x1 && y >= mb.y0 && y < mb.y1))
                continue;
            *(x >= tb.x0 && x < tb.x1 && y >= tb.y0 && y < tb.y1 ? &in : &out) += 1;
        }
    printf("scatter %d ticks after carol fired it: %d pixels greyer (each of r, g, b up more than 50) in its "
           "trail's box %d,%d..%d,%d outside the model's and flare's %d,%d..%d,%d, %d elsewhere; twice %s\n", ticks, in,
           tb.x0, tb.y0, tb.x1, tb.y1, mb.x0, mb.y0, mb.x1, mb.y1, out,
           memcmp(with, twice, (size_t)w * (size_t)h * 3) ? "differs" : "the same");
    assert_true(in > 20);
    assert_int_equal(out, 0);
    assert_memory_equal(with, twice, (size_t)w * (size_t)h * 3);
    stbi_image_free(with);
    stbi_image_free(none);
    stbi_image_free(twice);
    tu_golden("scatter trail", F.png[0], "tests/golden/fs_scatter_trail.png", 0.01);
    scene_files_done(&F);
}

// alice looking down the hall; carol flying from `carol0` along `vel` (units a second, from 0.05 s);
// bob parked at `bob` out of the way; the `n` events `extra` (in time order) written among the
// ships' updates at their times.
static void write_fx_scene_until(const char *path, const float eye[3], const float ang[3], const float bob[3],
                                 const float carol0[3], const float vel[3], const fs_event_t *extra, int n, double until);

static void write_fx_scene(const char *path, const float eye[3], const float ang[3], const float bob[3],
                           const float carol0[3], const float vel[3], const fs_event_t *extra, int n)
{
    write_fx_scene_until(path, eye, ang, bob, carol0, vel, extra, n, 1.55);
}

// As write_fx_scene, the frames (every 0.1 s from 0.05 s) going on to `until` seconds.
static void write_fx_scene_until(const char *path, const float eye[3], const float ang[3], const float bob[3],
                                 const float carol0[3], const float vel[3], const fs_event_t *extra, int n, double until)
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
    fs_write_name(&wr, fs_ticks(0.01), 7, &(fs_name_t){ .player = 2, .name = "carol" });
    float back[3] = { ang[0], ang[1] + 180, 0 };
    int next = 0;
    for (int i = 0; 0.05 + i * 0.1 <= until + 1e-9; i++) {
        double t = 0.05 + i * 0.1;
        for (; next < n && extra[next].timestamp <= fs_ticks(t); next++)
            fs_write_event(&wr, &extra[next]);
        for (int p = 0; p < 3; p++) {
            fs_ship_t sp;
            memset(&sp, 0, sizeof sp);
            sp.player = (uint8_t)p;
            sp.flags = FS_SHIP_ENABLE;
            double tp = t + p * 0.01;
            for (int k = 0; k < 3; k++)
                sp.pos[k] = p == 0 ? eye[k] : p == 1 ? bob[k] : carol0[k] + vel[k] * (float)(tp - 0.05);
            fs_angles_to_quat(p == 2 ? back : ang, sp.quat);
            fs_write_ship(&wr, fs_ticks(tp), p ? 7 : 1, p ? FS_MSG_FUPDATE : FS_MSG_UPDATE, &sp);
        }
    }
    for (; next < n; next++)
        fs_write_event(&wr, &extra[next]);
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// ---- the BITS sparks of the primaries' impacts (CreateTrojaxExplosion, CreateArcExplosion,
// CreateLaserPulse; FM_BITS) -----------------------------------------------------------------

// A burst of 27 sparks (a full-charge trojax: (100 + 10) / 5 + 5) along +z, 10 ticks after: each
// 2 .. 4 units a tick out (20 .. 40 units), within 55 degrees of +z (each axis of +z moved by
// -0.5 .. 0.5), frame 1 (a frame every 6 ticks), 2 units a texel, its colour, not pulled out; their
// speeds spread; the same twice; another seed elsewhere; 35.9 ticks: frame 5, all there; 36: none.
static void test_bits_burst_rules(void **state)
{
    (void)state;
    const float at[3] = { 100, 200, 300 }, z[3] = { 0, 0, 1 }, rgb[3] = { 1, 32 / 255.0f, 32 / 255.0f };
    r_fsfx_sprite_t a[64], b[64];
    int n = r_fsfx_bits_burst(at, z, 1234, 27, rgb, 10, 6, a, 64);
    assert_int_equal(n, 27);
    float dmin = 1e9f, dmax = 0, amax = 0;
    for (int i = 0; i < n; i++) {
        float d[3], l = 0;
        for (int k = 0; k < 3; k++) {
            d[k] = a[i].pos[k] - at[k];
            l += d[k] * d[k];
        }
        l = sqrtf(l);
        for (int k = 0; k < 3; k++)
            d[k] /= l;
        float ang = angle_deg(d, z);
        dmin = l < dmin ? l : dmin;
        dmax = l > dmax ? l : dmax;
        amax = ang > amax ? ang : amax;
        assert_true(l >= 20 - 1e-3f && l <= 40 + 1e-3f);
        assert_true(ang < 55);
        assert_int_equal(a[i].frame, 1);
        assert_int_equal(a[i].kind, FSFX_SPRITE_BITS);
        assert_int_equal(a[i].moveout, 0);
        assert_true(a[i].scale == 2.0f);
        assert_memory_equal(a[i].rgb, rgb, sizeof rgb);
    }
    printf("bits burst: 27 sparks 10 ticks after, %.1f .. %.1f units out, at most %.1f degrees off the normal\n", dmin,
           dmax, amax);
    assert_true(dmax - dmin > 8);    // their speeds differ
    assert_true(amax > 15);          // and their ways
    assert_int_equal(r_fsfx_bits_burst(at, z, 1234, 27, rgb, 10, 6, b, 64), 27);
    assert_memory_equal(a, b, sizeof a[0] * 27);
    assert_int_equal(r_fsfx_bits_burst(at, z, 4321, 27, rgb, 10, 6, b, 64), 27);
    int same = 0;
    for (int i = 0; i < 27; i++)
        same += !memcmp(a[i].pos, b[i].pos, sizeof a[i].pos);
    assert_int_equal(same, 0);
    n = r_fsfx_bits_burst(at, z, 1234, 27, rgb, 35.9f, 6, a, 64);
    assert_int_equal(n, 27);
    assert_int_equal(a[26].frame, 5);
    assert_int_equal(r_fsfx_bits_burst(at, z, 1234, 27, rgb, 36, 6, a, 64), 0);
    assert_int_equal(r_fsfx_bits_burst(at, z, 1234, 27, rgb, -1, 6, a, 64), 0);
    assert_int_equal(r_fsfx_bits_burst(at, z, 1234, 0, rgb, 3, 6, a, 64), 0);
    assert_int_equal(r_fsfx_bits_burst(at, z, 1234, 27, rgb, 3, 6, a, 10), 10);   // at most max
}

// A full-charge trojax and a transpulse fired at the walls from just ahead of alice at 0.5 s, a laser at 0.9 s:
// the moments around their impacts (while their sparks fly) drawn while playing on equal the
// same moments reached by seeking backwards.
static void test_impact_sparks_seek(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol[3], gun[3], zero[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] - 300 * fwd[k];   // out of sight
        carol[k] = eye[k] - 500 * fwd[k];
        gun[k] = eye[k] + 30 * fwd[k] - 15 * up[k];   // as test_forsaken_models' impacts
    }
    fs_event_t ev[3];
    static const struct { int weapon; double t; float side, upward; } f[3] = {
        { 1, 0.5, 200, 100 }, { 3, 0.5, 400, -200 }, { 5, 0.9, -100, 300 } };
    for (int i = 0; i < 3; i++) {
        memset(&ev[i], 0, sizeof ev[i]);
        ev[i].type = FS_MSG_PRIMBULLPOSDIR;
        ev[i].timestamp = fs_ticks(f[i].t);
        ev[i].sender = 7;
        fs_primbull_t *pb = &ev[i].u.prim;
        pb->player = 1;
        pb->owner_type = 1;
        pb->owner = 1;
        pb->bullet_id = (uint16_t)(21 + i);
        pb->weapon = (uint8_t)f[i].weapon;
        pb->power_level = 2;
        pb->plevel = f[i].weapon == 1 ? 100 : 0;
        float l = 0;
        for (int k = 0; k < 3; k++) {
            pb->pos[k] = gun[k];
            pb->dir[k] = eye[k] + 700 * fwd[k] + f[i].side * right[k] + f[i].upward * up[k] - gun[k];
            l += pb->dir[k] * pb->dir[k];
        }
        for (int k = 0; k < 3; k++)
            pb->dir[k] /= sqrtf(l);
    }
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    char demo[512];
    snprintf(demo, sizeof demo, "%s/fs_fx_sparkseek_%d.dmo", dir, (int)getpid());
    write_fx_scene_until(demo, eye, ang, bob, carol, zero, ev, 3, 1.6);
    const double at[] = { 0.8, 0.9, 0.96, 1.0, 1.04, 1.1, 1.2, 1.3 };
    int moved, differ = seek_differs(demo, at, 8, &moved);
    printf("impact sparks scene: %d moments, %d differ from the one before, %d seeks differ from play\n", 8, moved,
           differ);
    assert_true(moved >= 5);
    assert_int_equal(differ, 0);
    if (!getenv("FS_FX_SHOTS"))
        remove(demo);
}

// MSG_SECBULLPOSDIR: a mine laid at `mine` at 0.5 s by player `owner` (bullet id 9, facing z).
static fs_event_t mine_laid(const float mine[3], int owner, int weapon)
{
    fs_event_t e;
    memset(&e, 0, sizeof e);
    e.type = FS_MSG_SECBULLPOSDIR;
    e.timestamp = fs_ticks(0.5);
    e.sender = 7;
    e.u.mine.player = (uint8_t)owner;
    e.u.mine.owner_type = 1;
    e.u.mine.owner = (uint16_t)owner;
    e.u.mine.bullet_id = 9;
    e.u.mine.weapon = (uint8_t)weapon;
    e.u.mine.up[1] = 1;
    memcpy(e.u.mine.pos, mine, sizeof e.u.mine.pos);
    e.u.mine.dir[2] = 1;
    return e;
}

// MSG_SHORTMINE at 0.5 s: the same mine as mine_laid's in the list a joiner is sent, its LifeCount `life`.
static fs_event_t mine_listed(const float mine[3], int owner, int weapon, float life)
{
    fs_event_t e;
    memset(&e, 0, sizeof e);
    e.type = FS_MSG_SHORTMINE;
    e.timestamp = fs_ticks(0.5);
    e.sender = 7;
    e.u.list.player = 1;
    e.u.list.count = 1;
    e.u.list.e.mines[0].owner_type = 1;
    e.u.list.e.mines[0].owner = (uint16_t)owner;
    e.u.list.e.mines[0].bullet_id = 9;
    e.u.list.e.mines[0].weapon = (uint16_t)weapon;
    e.u.list.e.mines[0].up[1] = 1;
    memcpy(e.u.list.e.mines[0].pos, mine, sizeof e.u.list.e.mines[0].pos);
    e.u.list.e.mines[0].dir[2] = 1;
    e.u.list.e.mines[0].life_count = life;
    return e;
}

// alice looking down the hall; a purge mine laid at `mine` at 0.5 s by player `owner` (bob, 1, or
// carol, 2); carol flying from `carol0` along `vel` (units a second, from 0.05 s); bob parked at
// `bob` out of the way.
static void write_mine_scene(const char *path, const float eye[3], const float ang[3], const float bob[3],
                             const float mine[3], const float carol0[3], const float vel[3], int owner, int weapon)
{
    fs_event_t e = mine_laid(mine, owner, weapon);
    write_fx_scene(path, eye, ang, bob, carol0, vel, &e, 1);
}

// ProcessMines' proximity trigger, decided by the player as every machine did (no message): bob's
// purge mine 600 ahead of alice; carol flies at it down the hall from just ahead of alice at 500
// units a second and comes within MINE_TRIGGER_RADIUS (200) of it on tick 18 after it was laid (the
// rule: the first tick whose distance to the mine, bobbing as ProcessMines moves it, is under 200). The same scene with the mine carol's own (its
// owner does not set it off in its first 150 ticks) is the control: at 0.73 s (before tick 18) the
// two pictures are the same; at 0.88 s (the frame after) bob's mine has gone off: pixels far brighter (r + g + b up more than
// 150) than the control inside the box of its explosion and flash (CreateShockwave's CreateBigFlash
// 4 units a texel, CreateExplosion), none outside (the control's still-lit mine only makes the
// control brighter elsewhere); the same twice; golden fs_mine.png (looked at).
static void test_mine_proximity(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], mine[3], carol0[3], vel[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        mine[k] = eye[k] + 600 * fwd[k];
        carol0[k] = eye[k] + 50 * fwd[k];   // flying on ahead of alice towards the mine
        vel[k] = 500 * fwd[k];
        bob[k] = eye[k] - 150 * fwd[k];   // behind alice
    }
    // the rule: tick k (at 0.5 + k / 71) is the first with carol nearer than 200 to the mine, which
    // bobs along its up (the world's y) by COSD( (int)(LifeCount x 3) % 360 ) x 50 (test_sphere_rules)
    int trig = 0;
    float boom[3];
    for (int k = 1; k < 200 && !trig; k++) {
        double tk = 0.5 + k / 71.0;
        float along = 550 - 500 * (float)(tk - 0.05), hgt = r_fsfx_mine_bob(FSW_PURGEMINE, (float)k), d2 = 0;
        for (int j = 0; j < 3; j++) {
            float dj = along * fwd[j] + (j == 1 ? hgt : 0);   // from carol to the mine
            d2 += dj * dj;
            boom[j] = mine[j] + (j == 1 ? hgt : 0);
        }
        trig = sqrtf(d2) < 200 ? k : 0;
    }
    assert_int_equal(trig, 18);
    scene_files_t F;
    scene_files(&F, "mine", 2, 5);
    write_mine_scene(F.demo[0], eye, ang, bob, mine, carol0, vel, 1, FSW_PURGEMINE);
    write_mine_scene(F.demo[1], eye, ang, bob, mine, carol0, vel, 2, FSW_PURGEMINE);
    const double before = 0.73, after = 0.88;
    fs_shot(F.demo[0], before, F.png[0]);
    fs_shot(F.demo[1], before, F.png[1]);
    fs_shot(F.demo[0], after, F.png[2]);
    fs_shot(F.demo[1], after, F.png[3]);
    fs_shot(F.demo[0], after, F.png[4]);
    int w, h;
    uint8_t *b0 = load_png(F.png[0], &w, &h), *b1 = load_png(F.png[1], &w, &h);
    uint8_t *a0 = load_png(F.png[2], &w, &h), *a1 = load_png(F.png[3], &w, &h), *a2 = load_png(F.png[4], &w, &h);
    int same_before = !memcmp(b0, b1, (size_t)w * (size_t)h * 3);
    // the explosion's and flash's box: at the mine pulled 64 towards the eye, expl.off's 36 texels
    // x 4 plus its pieces' 32-unit scatter, BIGFLASH's 48 x 4
    r_fsfx_sprite_t ex = { .scale = (4 * 36 + 45) / 36.0f, .moveout = 1 };
    memcpy(ex.pos, boom, sizeof ex.pos);   // where it was on that tick
    box_t bx = sprite_box(&ex, 1, eye, fwd, right, up);
    int in, out;
    brighter_box(a1, a0, w, h, bx, 150, &in, &out);
    printf("bob's purge mine, carol within 200 on tick %d: before it (%.2f s) the picture %s the control's; %.2f s "
           "(%.1f ticks after) %d pixels far brighter than the control in the blast's box %d,%d..%d,%d, %d outside; "
           "twice %s\n", trig, before, same_before ? "equals" : "differs from", after, (after - 0.5) * 71 - trig, in,
           bx.x0, bx.y0, bx.x1, bx.y1, out, memcmp(a0, a2, (size_t)w * (size_t)h * 3) ? "differs" : "the same");
    assert_true(same_before);
    assert_true(in > 300);
    assert_int_equal(out, 0);
    assert_memory_equal(a0, a2, (size_t)w * (size_t)h * 3);
    stbi_image_free(b0);
    stbi_image_free(b1);
    stbi_image_free(a0);
    stbi_image_free(a1);
    stbi_image_free(a2);
    tu_golden("purge mine set off by carol", F.png[2], "tests/golden/fs_mine.png", 0.01);
    scene_files_done(&F);
}

// Pixels of b that differ from a inside the box and outside it, and outside it the sums of b's
// red, green and blue less a's.
static void diff_box_rgb(const uint8_t *a, const uint8_t *b, int w, int h, box_t bx, int *in, int *out, long sum[3])
{
    *in = *out = 0;
    sum[0] = sum[1] = sum[2] = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            if (!memcmp(a + i, b + i, 3))
                continue;
            if (x >= bx.x0 && x < bx.x1 && y >= bx.y0 && y < bx.y1) {
                *in += 1;
                continue;
            }
            *out += 1;
            for (int k = 0; k < 3; k++)
                sum[k] += b[i + k] - a[i + k];
        }
}

// MSG_SHORTMINE (the mines already laid, sent to a joiner; RegenMineList: InitOneSecBull as for a
// laid mine, then its LifeCount set to the list's). Bob's purge mine 600 ahead of alice, listed at
// 0.5 s, with carol flying at it as in test_mine_proximity:
// - drawn as the same mine laid by MSG_SECBULLPOSDIR (the pictures equal at 0.73 s, and at 0.88 s:
//   set off on the same tick 18);
// - against the scene without it, at 0.73 s: most pixels of the mine's box differ (its model, +-40
//   units); outside it its light (InitOneSecBull's, 255 64 64, 384 units) brightens the walls, red
//   the most (the palette's nearest colours: not every pixel redder; not 0 outside);
// - carol's own mine listed with LifeCount 0 spares her (0 + 18 < 150 ticks); listed with LifeCount
//   140 it does not (140 + 10 >= 150): at 0.88 s far brighter than the LifeCount-0 one in the blast's
//   box, none outside.
static void test_shortmine_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], mine[3], carol0[3], vel[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        mine[k] = eye[k] + 600 * fwd[k];
        carol0[k] = eye[k] + 50 * fwd[k];
        vel[k] = 500 * fwd[k];
        bob[k] = eye[k] - 150 * fwd[k];
    }
    scene_files_t F;
    scene_files(&F, "shortmine", 4, 8);
    fs_event_t laid = mine_laid(mine, 1, FSW_PURGEMINE), listed = mine_listed(mine, 1, FSW_PURGEMINE, 0);
    fs_event_t own0 = mine_listed(mine, 2, FSW_PURGEMINE, 0), own140 = mine_listed(mine, 2, FSW_PURGEMINE, 140);
    write_fx_scene(F.demo[0], eye, ang, bob, carol0, vel, &laid, 1);
    write_fx_scene(F.demo[1], eye, ang, bob, carol0, vel, &listed, 1);
    write_fx_scene(F.demo[2], eye, ang, bob, carol0, vel, &own0, 1);
    write_fx_scene(F.demo[3], eye, ang, bob, carol0, vel, &own140, 1);
    char none[512];
    snprintf(none, sizeof none, "%.400s.none.dmo", F.demo[0]);
    write_fx_scene(none, eye, ang, bob, carol0, vel, NULL, 0);
    const double before = 0.73, after = 0.88;
    fs_shot(F.demo[0], before, F.png[0]);
    fs_shot(F.demo[1], before, F.png[1]);
    fs_shot(none, before, F.png[2]);
    fs_shot(F.demo[0], after, F.png[3]);
    fs_shot(F.demo[1], after, F.png[4]);
    fs_shot(F.demo[2], after, F.png[5]);
    fs_shot(F.demo[3], after, F.png[6]);
    int w, h;
    uint8_t *lb = load_png(F.png[0], &w, &h), *sb = load_png(F.png[1], &w, &h), *nb = load_png(F.png[2], &w, &h);
    uint8_t *la = load_png(F.png[3], &w, &h), *sa = load_png(F.png[4], &w, &h);
    uint8_t *o0 = load_png(F.png[5], &w, &h), *o140 = load_png(F.png[6], &w, &h);
    size_t bytes = (size_t)w * (size_t)h * 3;
    int same_before = !memcmp(lb, sb, bytes), same_after = !memcmp(la, sa, bytes), set_off = memcmp(sa, sb, bytes) != 0;
    // the mine's model: +-40 units round it, not pulled towards the eye
    r_fsfx_sprite_t m = { .scale = 40 / 36.0f };
    memcpy(m.pos, mine, sizeof m.pos);
    box_t mb = sprite_box(&m, 1, eye, fwd, right, up);
    int in, out;
    long light[3];
    diff_box_rgb(nb, sb, w, h, mb, &in, &out, light);
    // the blast's box as test_mine_proximity's
    r_fsfx_sprite_t ex = { .scale = (4 * 36 + 45) / 36.0f, .moveout = 1 };
    memcpy(ex.pos, mine, sizeof ex.pos);
    box_t bx = sprite_box(&ex, 1, eye, fwd, right, up);
    int bin, bout, sin, sout;
    brighter_box(o0, o140, w, h, bx, 150, &bin, &bout);
    brighter_box(o0, sa, w, h, bx, 150, &sin, &sout);
    printf("listed purge mine: at %.2f s %s the laid one, at %.2f s %s (set off: %s); against no mine at %.2f s %d "
           "of %d pixels differ in its box %d,%d..%d,%d, %d outside (its light: red %+ld green %+ld blue %+ld in all); "
           "carol's own listed at LifeCount 140 vs 0: %d pixels far brighter in the blast's box %d,%d..%d,%d, %d "
           "outside; bob's vs carol's LifeCount 0: %d in, %d outside\n",
           before, same_before ? "equals" : "differs from", after, same_after ? "equals it" : "differs", set_off ? "yes" : "no",
           before, in, (mb.x1 - mb.x0) * (mb.y1 - mb.y0), mb.x0, mb.y0, mb.x1, mb.y1, out, light[0], light[1], light[2],
           bin, bx.x0, bx.y0, bx.x1, bx.y1, bout, sin, sout);
    assert_true(same_before);
    assert_true(same_after);
    assert_true(set_off);
    assert_true(in > 300);
    // outside: its light (255 64 64), brightening the walls and red the most
    assert_true(light[0] > light[1] && light[0] > light[2] && light[1] > 0 && light[2] > 0);
    assert_true(bin > 300);
    assert_int_equal(bout, 0);
    assert_true(sin > 300);
    assert_int_equal(sout, 0);
    stbi_image_free(lb);
    stbi_image_free(sb);
    stbi_image_free(nb);
    stbi_image_free(la);
    stbi_image_free(sa);
    stbi_image_free(o0);
    stbi_image_free(o140);
    if (!getenv("FS_FX_SHOTS"))
        remove(none);
    scene_files_done(&F);
}

// Far brighter pixels (r + g + b up more than 150) of b than a in all the picture.
static int far_brighter(const uint8_t *a, const uint8_t *b, int w, int h)
{
    int in, out;
    brighter_box(a, b, w, h, (box_t){ 0, 0, w, h }, 150, &in, &out);
    return in + out;
}

// The screen box of CreateShockwave at `at` with ShockwaveSize `size` (BIGFLASH.OFF's 48 texels each
// side at `size` units a texel, or expl.off's 36 at 4 and its pieces' 45-unit scatter, whichever is
// larger; pulled towards the eye as FM_FLAG_MOVEOUT).
static box_t shockwave_box(const float at[3], float size, const float eye[3], const float fwd[3], const float right[3],
                           const float up[3])
{
    float r = size * 48 > 4 * 36 + 45 ? size * 48 : 4 * 36 + 45;
    r_fsfx_sprite_t ex = { .scale = r / 36.0f, .moveout = 1 };
    memcpy(ex.pos, at, sizeof ex.pos);
    return sprite_box(&ex, 1, eye, fwd, right, up);
}

static fs_event_t shockwave_msg(double t, const float at[3], float size)
{
    fs_event_t e;
    memset(&e, 0, sizeof e);
    e.type = FS_MSG_SHOCKWAVE;
    e.timestamp = fs_ticks(t);
    e.sender = 7;
    e.u.shock.player = 1;
    e.u.shock.owner = 1;
    memcpy(e.u.shock.pos, at, sizeof e.u.shock.pos);
    e.u.shock.weapon = 255;
    e.u.shock.size = size;
    return e;
}

// MSG_SHOCKWAVE: CreateShockwave( OWNER_SHIP, Owner, Pos, Group, ShockwaveSize, Weapon ) at the
// message's place: CreateBigFlash( Pos, ShockwaveSize ) (BIGFLASH.OFF, ShockwaveSize units a texel)
// and CreateExplosion, drawn as a mine's (draw_shockwave). At 600 units ahead of alice, 0.05 s
// (3.55 ticks) after the message, against the scene without it: size 4 (PURGE_SHOCKWAVE) far
// brighter pixels (r + g + b up more than 150) in its box, none outside; size 20 (QUANTUM_SHOCKWAVE)
// more than twice as many (the size is the flash's, not a radius clamped to 8 units as before);
// size 0 the explosion alone (fewer); the same moment twice the same; golden fs_shockwave.png.
static void test_shockwave_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], at[3], carol[3], still[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        at[k] = eye[k] + 600 * fwd[k];
        bob[k] = eye[k] - 150 * fwd[k];
        carol[k] = eye[k] - 300 * fwd[k];
    }
    scene_files_t F;
    scene_files(&F, "shockwave", 4, 5);
    fs_event_t s4 = shockwave_msg(0.5, at, 4), s20 = shockwave_msg(0.5, at, 20), s0 = shockwave_msg(0.5, at, 0);
    write_fx_scene(F.demo[0], eye, ang, bob, carol, still, NULL, 0);
    write_fx_scene(F.demo[1], eye, ang, bob, carol, still, &s4, 1);
    write_fx_scene(F.demo[2], eye, ang, bob, carol, still, &s20, 1);
    write_fx_scene(F.demo[3], eye, ang, bob, carol, still, &s0, 1);
    const double t = 0.55;
    for (int i = 0; i < 4; i++)
        fs_shot(F.demo[i], t, F.png[i]);
    fs_shot(F.demo[1], t, F.png[4]);
    int w, h;
    uint8_t *n = load_png(F.png[0], &w, &h), *a4 = load_png(F.png[1], &w, &h), *a20 = load_png(F.png[2], &w, &h);
    uint8_t *a0 = load_png(F.png[3], &w, &h), *again = load_png(F.png[4], &w, &h);
    box_t b4 = shockwave_box(at, 4, eye, fwd, right, up);
    int in, out;
    brighter_box(n, a4, w, h, b4, 150, &in, &out);
    int all20 = far_brighter(n, a20, w, h), all0 = far_brighter(n, a0, w, h);
    printf("MSG_SHOCKWAVE 600 ahead, %.2f s (%.2f ticks) after: size 4: %d pixels far brighter in its box "
           "%d,%d..%d,%d, %d outside; size 20: %d; size 0 (the explosion alone): %d; twice %s\n", t, (t - 0.5) * 71, in,
           b4.x0, b4.y0, b4.x1, b4.y1, out, all20, all0, memcmp(a4, again, (size_t)w * (size_t)h * 3) ? "differs" : "the same");
    assert_true(in > 300);
    assert_int_equal(out, 0);
    assert_true(all20 > 2 * in);
    assert_true(all0 > 0 && all0 < in);
    assert_memory_equal(a4, again, (size_t)w * (size_t)h * 3);
    stbi_image_free(n);
    stbi_image_free(a4);
    stbi_image_free(a20);
    stbi_image_free(a0);
    stbi_image_free(again);
    tu_golden("MSG_SHOCKWAVE size 4", F.png[1], "tests/golden/fs_shockwave.png", 0.01);
    scene_files_done(&F);
}

// A ship's death as the game draws it: MSG_SHIPDIED (EvaluateMessage: the kill's message line and
// stats) and MSG_EXPLODESHIP (a server scattering the ship's weapons) draw nothing and light nothing;
// the blast is the MSG_SHOCKWAVE of size 6 that the dying ship's owner sends when its death ends
// (ShipMode1). Bob dies 600 units ahead of alice at 0.5 s: the picture at 0.55 s and at 0.7 s equals
// the one where the MSG_SHIPDIED said 100 000 units away (the same kill line and scores; before, a
// 192-unit BIGEXP1 blast and its light ahead); with the owner's shockwave too, far brighter pixels
// (its flash at 6 units a texel fills the screen); the same moment twice the same.
static void test_shipdied_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], at[3], carol[3], still[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        at[k] = eye[k] + 600 * fwd[k];
        bob[k] = eye[k] - 150 * fwd[k];
        carol[k] = eye[k] - 300 * fwd[k];
    }
    scene_files_t F;
    scene_files(&F, "shipdied", 3, 6);
    fs_event_t ev[3], far_died;
    memset(ev, 0, sizeof ev);
    ev[0].type = FS_MSG_SHIPDIED;
    ev[0].timestamp = fs_ticks(0.5);
    ev[0].sender = 7;
    ev[0].u.died.player = 1;
    ev[0].u.died.killer = 2;
    ev[0].u.died.weapon_type = 1;
    ev[0].u.died.weapon = 3;
    memcpy(ev[0].u.died.pos, at, sizeof ev[0].u.died.pos);
    ev[1].type = FS_MSG_EXPLODESHIP;
    ev[1].timestamp = fs_ticks(0.5);
    ev[1].sender = 7;
    ev[1].u.explode.player = 1;
    ev[1].u.explode.ship = 1;
    ev[2] = shockwave_msg(0.5, at, 6);
    far_died = ev[0];
    for (int k = 0; k < 3; k++)
        far_died.u.died.pos[k] = eye[k] - 100000 * fwd[k];
    write_fx_scene(F.demo[0], eye, ang, bob, carol, still, &far_died, 1);
    write_fx_scene(F.demo[1], eye, ang, bob, carol, still, ev, 2);
    write_fx_scene(F.demo[2], eye, ang, bob, carol, still, ev, 3);
    fs_shot(F.demo[0], 0.55, F.png[0]);
    fs_shot(F.demo[1], 0.55, F.png[1]);
    fs_shot(F.demo[0], 0.7, F.png[2]);
    fs_shot(F.demo[1], 0.7, F.png[3]);
    fs_shot(F.demo[2], 0.55, F.png[4]);
    fs_shot(F.demo[2], 0.55, F.png[5]);
    int w, h;
    uint8_t *img[6];
    for (int i = 0; i < 6; i++)
        img[i] = load_png(F.png[i], &w, &h);
    size_t bytes = (size_t)w * (size_t)h * 3;
    int flash = far_brighter(img[1], img[4], w, h);
    printf("MSG_SHIPDIED + MSG_EXPLODESHIP 600 ahead: at 0.55 s %s, at 0.70 s %s the picture with the death far away; "
           "with the owner's MSG_SHOCKWAVE size 6: %d pixels far brighter; twice %s\n",
           memcmp(img[0], img[1], bytes) ? "unlike" : "equal to", memcmp(img[2], img[3], bytes) ? "unlike" : "equal to",
           flash, memcmp(img[4], img[5], bytes) ? "differs" : "the same");
    assert_memory_equal(img[0], img[1], bytes);
    assert_memory_equal(img[2], img[3], bytes);
    assert_true(flash > 300);
    assert_memory_equal(img[4], img[5], bytes);
    for (int i = 0; i < 6; i++)
        stbi_image_free(img[i]);
    scene_files_done(&F);
}

// MSG_EXPSECONDARY for a missile in flight: ExplodeSecondary finds it by owner and id and runs
// CreateShockwave where it is (not at the message's position); with size 0 it just goes. Bob's mug
// launched at 0.5 s 350 units ahead of alice flying away from her (18 units a tick); at 0.6 s (7.1
// ticks: 477.8 units ahead) the message, its position 400 ahead and 380 left (at the screen's left
// edge, outside the shockwave's box). At 0.65 s, size 4 against size 0: far brighter pixels in the shockwave's box at the
// missile's place, none outside (none at the message's place); a message naming another id changes
// nothing (the picture equals the one without a message).
static void test_expsecondary_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol[3], still[3] = { 0, 0, 0 }, org[3], there[3], bogus[3];
    scene_view(eye, ang, fwd, right, up);
    float fall, along = 350 + rule_along(FSW_MUG, (float)((0.6 - 0.5) * 71), &fall);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] - 150 * fwd[k];
        carol[k] = eye[k] - 300 * fwd[k];
        org[k] = eye[k] + 350 * fwd[k];
        there[k] = eye[k] + along * fwd[k];
        bogus[k] = eye[k] + 400 * fwd[k] - 380 * right[k];
    }
    fs_event_t ev[2];
    memset(ev, 0, sizeof ev);
    ev[0].type = FS_MSG_SECBULLPOSDIR;
    ev[0].timestamp = fs_ticks(0.5);
    ev[0].sender = 7;
    ev[0].u.mine = (fs_secbull_t){ .player = 1, .owner_type = 1, .owner = 1, .bullet_id = 9, .weapon = FSW_MUG };
    memcpy(ev[0].u.mine.pos, org, sizeof org);
    memcpy(ev[0].u.mine.dir, fwd, sizeof fwd);
    ev[0].u.mine.up[1] = 1;
    ev[1].type = FS_MSG_EXPSECONDARY;
    ev[1].timestamp = fs_ticks(0.6);
    ev[1].sender = 7;
    ev[1].u.expsec = (fs_expsecondary_t){ .player = 1, .owner_type = 1, .owner = 1, .id = 9, .size = 4 };
    memcpy(ev[1].u.expsec.pos, bogus, sizeof bogus);
    scene_files_t F;
    scene_files(&F, "expsec", 4, 4);
    write_fx_scene(F.demo[0], eye, ang, bob, carol, still, ev, 2);
    ev[1].u.expsec.size = 0;
    write_fx_scene(F.demo[1], eye, ang, bob, carol, still, ev, 2);
    ev[1].u.expsec.size = 4;
    ev[1].u.expsec.id = 10;
    write_fx_scene(F.demo[2], eye, ang, bob, carol, still, ev, 2);
    write_fx_scene(F.demo[3], eye, ang, bob, carol, still, ev, 1);
    const double t = 0.65;
    for (int i = 0; i < 4; i++)
        fs_shot(F.demo[i], t, F.png[i]);
    int w, h;
    uint8_t *a4 = load_png(F.png[0], &w, &h), *a0 = load_png(F.png[1], &w, &h), *other = load_png(F.png[2], &w, &h);
    uint8_t *none = load_png(F.png[3], &w, &h);
    box_t bx = shockwave_box(there, 4, eye, fwd, right, up);
    float sx, sy;   // where the message's own position is on the screen
    {
        float d[3] = { bogus[0] - eye[0], bogus[1] - eye[1], bogus[2] - eye[2] };
        float z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
        sx = 160 + 160 * (d[0] * right[0] + d[1] * right[1] + d[2] * right[2]) / z;
        sy = 100 - 160 / 1.2f * (d[0] * up[0] + d[1] * up[1] + d[2] * up[2]) / z;
    }
    int in, out;
    brighter_box(a0, a4, w, h, bx, 150, &in, &out);
    int same_other = !memcmp(other, none, (size_t)w * (size_t)h * 3);
    printf("mug ended by MSG_EXPSECONDARY %.1f units ahead: size 4 vs 0 at %.2f s: %d pixels far brighter in the box "
           "%d,%d..%d,%d at the missile, %d outside (the message's own place at %.0f,%.0f); another id: the picture %s "
           "the one without a message\n", along, t, in, bx.x0, bx.y0, bx.x1, bx.y1, out, sx, sy,
           same_other ? "equals" : "differs from");
    assert_false(sx >= bx.x0 && sx < bx.x1 && sy >= bx.y0 && sy < bx.y1);
    assert_true(sx >= 0 && sx < w && sy >= 0 && sy < h);
    assert_true(in > 300);
    assert_int_equal(out, 0);
    assert_true(same_other);
    stbi_image_free(a4);
    stbi_image_free(a0);
    stbi_image_free(other);
    stbi_image_free(none);
    scene_files_done(&F);
}

// ---- the sphere models: the gravgon's field, the shockwave's sphere, the mines' bobbing and turning

// The rules (r_fsfx.c) against the game's, stepped here a tick at a time as ProcessModels did
// (MODFUNC_Scale / Scale2: Scale -= 0.075, back to MaxScale 10 below 0, dead at such a wrap once
// LifeCount, 600 less 1 a tick, is 0); ProcessModel's colour; MODFUNC_Explode's growth; ProcessMines'
// bob and turn.
static void test_sphere_rules(void **state)
{
    (void)state;
    float sim[2] = { 10, 5 }, life = 600;
    int alive[2] = { 1, 1 }, died[2] = { -1, -1 };
    double worst = 0;
    for (int n = 0; n <= 700; n++) {
        if (n > 0) {
            life = life - 1 <= 0 ? 0 : life - 1;
            for (int k = 0; k < 2; k++) {
                if (!alive[k])
                    continue;
                sim[k] -= 0.075f;
                if (sim[k] < 0) {
                    sim[k] = 10;
                    if (life == 0) {
                        alive[k] = 0;
                        died[k] = n;
                    }
                }
            }
        }
        float sc[2];
        int mask = r_fsfx_gravgon((float)n, sc);
        for (int k = 0; k < 2; k++) {
            assert_int_equal((mask >> k) & 1, alive[k]);
            if (alive[k] && fabs(sc[k] - sim[k]) > worst)
                worst = fabs(sc[k] - sim[k]);
        }
    }
    printf("gravgon field: sphere 0 gone at tick %d, sphere 1 at %d; Scale off the stepped rule by %.6f at most\n",
           died[0], died[1], worst);
    assert_int_equal(died[0], 670);
    assert_int_equal(died[1], 603);
    assert_true(worst < 1e-3);
    // half a cycle apart: 67 ticks (5.025 of Scale) between them
    float sc[2];
    for (int n = 67; n < 600; n += 7) {
        r_fsfx_gravgon((float)n + 0.25f, sc);
        float d = sc[0] - sc[1];
        assert_true(fabsf(fabsf(d) - 5.025f) < 1e-3f);
    }
    // between ticks the shrink goes on, never below 0
    assert_int_equal(r_fsfx_gravgon(10.5f, sc), 3);
    assert_float_equal(sc[0], 10 - 0.075f * 10.5f, 1e-4);
    assert_float_equal(sc[1], 5 - 0.075f * 10.5f, 1e-4);
    r_fsfx_gravgon(66.9f, sc);
    assert_float_equal(sc[1], 0, 1e-6);
    r_fsfx_gravgon(67.0f, sc);
    assert_float_equal(sc[1], 10, 1e-6);
    // hostile times
    assert_int_equal(r_fsfx_gravgon(-1, sc), 0);
    assert_int_equal(r_fsfx_gravgon(NAN, sc), 0);
    assert_int_equal(r_fsfx_gravgon(INFINITY, sc), 0);
    assert_int_equal(r_fsfx_gravgon(1e30f, sc), 0);
    // ProcessModel: 255 - min(255, Scale x 128 / MaxScale + 128) as a byte
    assert_int_equal(r_fsfx_sphere_shade(10, 10), 0);
    assert_int_equal(r_fsfx_sphere_shade(0, 10), 127);
    assert_int_equal(r_fsfx_sphere_shade(5, 10), 63);
    assert_int_equal(r_fsfx_sphere_shade(2, 4), 63);
    assert_int_equal(r_fsfx_sphere_shade(1, 0), 0);
    assert_int_equal(r_fsfx_sphere_shade(NAN, 10), 0);
    // MODFUNC_Explode: Scale 0 + MaxScale / 40 a tick, gone past MaxScale
    assert_float_equal(r_fsfx_shock_sphere(4, 20), 2, 1e-6);
    assert_float_equal(r_fsfx_shock_sphere(20, 40), 20, 1e-5);
    assert_true(r_fsfx_shock_sphere(4, 40.5f) < 0);
    assert_true(r_fsfx_shock_sphere(0, 10) < 0);
    assert_true(r_fsfx_shock_sphere(4, -1) < 0);
    assert_true(r_fsfx_shock_sphere(NAN, 1) < 0);
    // ProcessMines: COSD( (int)(LifeCount x 3) % 360 ) x 50 (purge), x 2.5 and 18.75 (quantum)
    assert_float_equal(r_fsfx_mine_bob(FSW_PURGEMINE, 0), 50, 1e-4);
    assert_float_equal(r_fsfx_mine_bob(FSW_PURGEMINE, 30.2f), 0, 1e-4);   // (int) 90.6 = 90
    assert_float_equal(r_fsfx_mine_bob(FSW_PURGEMINE, 60), -50, 1e-4);
    assert_float_equal(r_fsfx_mine_bob(FSW_PURGEMINE, 20), 50 * cosf(60 * (float)M_PI / 180), 1e-4);
    assert_float_equal(r_fsfx_mine_bob(FSW_PURGEMINE, 120.3f), 50, 1e-4);   // (int) 360.9 % 360 = 0
    assert_float_equal(r_fsfx_mine_bob(FSW_QUANTUMMINE, 0), 18.75f, 1e-4);
    assert_float_equal(r_fsfx_mine_bob(FSW_QUANTUMMINE, 72), -18.75f, 1e-4);
    assert_float_equal(r_fsfx_mine_bob(FSW_PINEMINE, 10), 0, 0);
    assert_float_equal(r_fsfx_mine_bob(FSW_SPIDERMINE, 10), 0, 0);
    assert_float_equal(r_fsfx_mine_bob(FSW_PURGEMINE, NAN), 50, 1e-4);   // hostile: as LifeCount 0
    assert_float_equal(r_fsfx_mine_turn(FSW_PURGEMINE, 45), 90, 1e-4);
    assert_float_equal(r_fsfx_mine_turn(FSW_SPIDERMINE, 200), 40, 1e-3);
    assert_float_equal(r_fsfx_mine_turn(FSW_QUANTUMMINE, 1), 2, 1e-5);
    assert_float_equal(r_fsfx_mine_turn(FSW_PINEMINE, 45), 0, 0);
    assert_float_equal(r_fsfx_mine_turn(FSW_PURGEMINE, NAN), 0, 0);
}

// MSG_SECBULLPOSDIR: alice (player 0) launches `weapon` at `t` from `from` along `dir` (bullet id 5,
// up y, no offset or drop).
static fs_event_t missile_launched(double t, const float from[3], const float dir[3], int weapon)
{
    fs_event_t e;
    memset(&e, 0, sizeof e);
    e.type = FS_MSG_SECBULLPOSDIR;
    e.timestamp = fs_ticks(t);
    e.sender = 1;
    e.u.mine.player = 0;
    e.u.mine.owner_type = 1;
    e.u.mine.owner = 0;
    e.u.mine.bullet_id = 5;
    e.u.mine.weapon = (uint8_t)weapon;
    e.u.mine.up[1] = 1;
    memcpy(e.u.mine.pos, from, sizeof e.u.mine.pos);
    memcpy(e.u.mine.dir, dir, sizeof e.u.mine.dir);
    return e;
}

// The screen box (320x200) of a ball of radius r at p seen from eye along fwd (the whole screen when
// the eye is near it), grown by 2 pixels.
static box_t ball_box(const float p[3], float r, const float eye[3], const float fwd[3], const float right[3],
                      const float up[3])
{
    float d[3] = { p[0] - eye[0], p[1] - eye[1], p[2] - eye[2] };
    float z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
    float x = d[0] * right[0] + d[1] * right[1] + d[2] * right[2], y = d[0] * up[0] + d[1] * up[1] + d[2] * up[2];
    if (z - r < 10)
        return (box_t){ 0, 0, 320, 200 };
    box_t b = { (int)floorf(160 + 160 * (x - r) / (z - r)) - 2, (int)floorf(100 - 160 / 1.2f * (y + r) / (z - r)) - 2,
                (int)ceilf(160 + 160 * (x + r) / (z - r)) + 2, (int)ceilf(100 - 160 / 1.2f * (y - r) / (z - r)) + 2 };
    b.x0 = b.x0 < 0 ? 0 : b.x0, b.y0 = b.y0 < 0 ? 0 : b.y0, b.x1 = b.x1 > 320 ? 320 : b.x1, b.y1 = b.y1 > 200 ? 200 : b.y1;
    return b;
}

// Pixels of b that differ from a inside the box and outside it, and the red, green and blue b gained
// over a inside it, summed.
static void tinted_box(const uint8_t *a, const uint8_t *b, int w, int h, box_t bx, int *in, int *out, long gain[3])
{
    *in = *out = 0;
    gain[0] = gain[1] = gain[2] = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            if (!memcmp(a + i, b + i, 3))
                continue;
            if (!(x >= bx.x0 && x < bx.x1 && y >= bx.y0 && y < bx.y1)) {
                *out += 1;
                continue;
            }
            *in += 1;
            for (int k = 0; k < 3; k++)
                gain[k] += b[i + k] - a[i + k];
        }
}

// The gravgon's field (CreateGravgonField where the missile meets bob, ProcessModels' two spheres,
// ball1.mx drawn Scale times its size, blue 127 .. 0 by ProcessModel, added to the scene). Alice
// launches a gravgon at 0.5 s straight at bob parked 1000 units ahead; it meets his 75-unit sphere
// after 925 / 18 ticks (MISSILE_SPEED), where the field is. Against the same scene with no missile:
// - 150 ticks after the hit (sphere 0 at Scale 8.875, sphere 1 at 3.875: radii 444 and 194 units),
//   every pixel that differs lies in the big ball's screen box, and most of those in the small
//   ball's box are bluer (the small one is the brighter: blue 63 against 14);
// - 605 ticks after: sphere 1 is gone (it died at its wrap on tick 603), sphere 0 alone (Scale 4.825):
//   fewer pixels differ, all in its box;
// - 680 ticks after: both gone, the picture is the scene's without the missile (0 differ);
// the same moment twice equal; played and sought to, equal; golden fs_gravgon.png (looked at).
static void test_gravgon_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol[3], still[3] = { 0, 0, 0 }, at[3];
    scene_view(eye, ang, fwd, right, up);
    const float dist = 800;
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] + dist * fwd[k];
        carol[k] = eye[k] - 300 * fwd[k];
        at[k] = eye[k] + (dist - 75) * fwd[k];   // where the gravgon meets bob's sphere
    }
    double hit = 0.5 + (dist - 75) / 18.0 / 71.0;
    scene_files_t F;
    scene_files(&F, "gravgon", 2, 7);
    fs_event_t g = missile_launched(0.5, eye, fwd, FSW_GRAVGON);
    write_fx_scene_until(F.demo[0], eye, ang, bob, carol, still, NULL, 0, 11.5);
    write_fx_scene_until(F.demo[1], eye, ang, bob, carol, still, &g, 1, 11.5);
    const double t1 = hit + 150 / 71.0, t2 = hit + 605 / 71.0, t3 = hit + 680 / 71.0;
    fs_shot(F.demo[0], t1, F.png[0]);
    fs_shot(F.demo[1], t1, F.png[1]);
    fs_shot(F.demo[1], t1, F.png[2]);
    fs_shot(F.demo[0], t2, F.png[3]);
    fs_shot(F.demo[1], t2, F.png[4]);
    fs_shot(F.demo[0], t3, F.png[5]);
    fs_shot(F.demo[1], t3, F.png[6]);
    int w, h;
    uint8_t *n1 = load_png(F.png[0], &w, &h), *g1 = load_png(F.png[1], &w, &h), *g1b = load_png(F.png[2], &w, &h);
    uint8_t *n2 = load_png(F.png[3], &w, &h), *g2 = load_png(F.png[4], &w, &h);
    uint8_t *n3 = load_png(F.png[5], &w, &h), *g3 = load_png(F.png[6], &w, &h);
    size_t bytes = (size_t)w * (size_t)h * 3;
    float sc[2];
    assert_int_equal(r_fsfx_gravgon(150, sc), 3);
    box_t big = ball_box(at, 50 * sc[0], eye, fwd, right, up), small = ball_box(at, 50 * sc[1], eye, fwd, right, up);
    int in, out, sin, sout, in2, out2;
    long gain[3], sgain[3], gain2[3];
    tinted_box(n1, g1, w, h, big, &in, &out, gain);
    tinted_box(n1, g1, w, h, small, &sin, &sout, sgain);
    assert_int_equal(r_fsfx_gravgon(605, sc), 1);
    box_t last = ball_box(at, 50 * sc[0], eye, fwd, right, up);
    tinted_box(n2, g2, w, h, last, &in2, &out2, gain2);
    int gone = 0;
    for (size_t i = 0; i < bytes; i += 3)
        gone += memcmp(n3 + i, g3 + i, 3) != 0;
    printf("gravgon field %.0f units ahead: 150 ticks after the hit %d pixels differ in the big ball's box "
           "%d,%d..%d,%d, %d outside; %d in the small one's %d,%d..%d,%d (gained red %+ld green %+ld blue %+ld); "
           "605 ticks: %d in sphere 0's box %d,%d..%d,%d (red %+ld green %+ld blue %+ld), %d outside; 680 ticks: %d "
           "differ; twice %s\n", dist - 75, in, big.x0, big.y0, big.x1, big.y1, out, sin, small.x0, small.y0, small.x1,
           small.y1, sgain[0], sgain[1], sgain[2], in2, last.x0, last.y0, last.x1, last.y1, gain2[0], gain2[1], gain2[2],
           out2, gone, memcmp(g1, g1b, bytes) ? "differs" : "the same");
    assert_true(sin > 1000);
    assert_true(sgain[2] > sgain[0] && sgain[2] > sgain[1] && sgain[0] > 0);   // added, blue the most
    assert_int_equal(out, 0);
    assert_true(in2 > 500);
    assert_int_equal(out2, 0);
    assert_true(gain2[2] > gain2[0] && gain2[2] > gain2[1] && gain2[0] > 0);
    assert_int_equal(gone, 0);
    assert_memory_equal(g1, g1b, bytes);
    stbi_image_free(n1);
    stbi_image_free(g1);
    stbi_image_free(g1b);
    stbi_image_free(n2);
    stbi_image_free(g2);
    stbi_image_free(n3);
    stbi_image_free(g3);
    tu_golden("gravgon field", F.png[1], "tests/golden/fs_gravgon.png", 0.01);
    const double moments[] = { hit + 10 / 71.0, hit + 70 / 71.0, hit + 150 / 71.0, hit + 300 / 71.0 };
    int moved, differ = seek_differs(F.demo[1], moments, 4, &moved);
    printf("gravgon field: %d moments, %d differ from the one before, %d seeks differ from play\n", 4, moved, differ);
    assert_true(moved >= 3);
    assert_int_equal(differ, 0);
    scene_files_done(&F);
}

// CreateShockwave's sphere (MODFUNC_Explode: Scale 0 growing ShockwaveSize / 40 a tick, red 127 .. 0
// by ProcessModel): a MSG_SHOCKWAVE of size 10 (TENTACLE_SHOCKWAVE, DEPTHCHARGE_SHOCKWAVE) 600 units
// ahead of alice against one of size 0 (the same explosion and light, no flash, no sphere) and the
// scene with none. 20 ticks after (the flash's 16 ticks over; the sphere at Scale 5: 250 units, red
// 63): size 10 differs from size 0 only in the sphere's screen box; where the explosion left the
// scene as it was (size 0 equals none), the sphere's pixels are brighter, red gained the most; 41
// ticks after (the sphere gone) size 10 equals size 0.
static void test_shock_sphere(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], at[3], carol[3], still[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        at[k] = eye[k] + 600 * fwd[k];
        bob[k] = eye[k] - 150 * fwd[k];
        carol[k] = eye[k] - 300 * fwd[k];
    }
    scene_files_t F;
    scene_files(&F, "shocksphere", 3, 6);
    fs_event_t s10 = shockwave_msg(0.5, at, 10), s0 = shockwave_msg(0.5, at, 0);
    write_fx_scene(F.demo[0], eye, ang, bob, carol, still, &s0, 1);
    write_fx_scene(F.demo[1], eye, ang, bob, carol, still, &s10, 1);
    write_fx_scene(F.demo[2], eye, ang, bob, carol, still, NULL, 0);
    const double t1 = 0.5 + 20 / 71.0, t2 = 0.5 + 41 / 71.0;
    fs_shot(F.demo[0], t1, F.png[0]);
    fs_shot(F.demo[1], t1, F.png[1]);
    fs_shot(F.demo[1], t1, F.png[2]);
    fs_shot(F.demo[0], t2, F.png[3]);
    fs_shot(F.demo[1], t2, F.png[4]);
    fs_shot(F.demo[2], t1, F.png[5]);
    int w, h;
    uint8_t *a0 = load_png(F.png[0], &w, &h), *a10 = load_png(F.png[1], &w, &h), *again = load_png(F.png[2], &w, &h);
    uint8_t *b0 = load_png(F.png[3], &w, &h), *b10 = load_png(F.png[4], &w, &h), *none = load_png(F.png[5], &w, &h);
    size_t bytes = (size_t)w * (size_t)h * 3;
    box_t bx = ball_box(at, 50 * r_fsfx_shock_sphere(10, 20), eye, fwd, right, up);
    int in, out, later = 0, alone = 0;
    long gain[3], ring[3] = { 0, 0, 0 };
    tinted_box(a0, a10, w, h, bx, &in, &out, gain);
    for (size_t i = 0; i < bytes; i += 3) {
        later += memcmp(b0 + i, b10 + i, 3) != 0;
        if (!memcmp(a0 + i, none + i, 3) && memcmp(a10 + i, a0 + i, 3)) {   // the sphere alone
            alone++;
            for (int k = 0; k < 3; k++)
                ring[k] += a10[i + k] - a0[i + k];
        }
    }
    printf("shockwave sphere size 10, 600 ahead: 20 ticks after, %d pixels differ from size 0 in its box %d,%d..%d,%d, "
           "%d outside; %d where the explosion left the scene as it was (gained red %+ld green %+ld blue %+ld); 41 "
           "ticks after %d differ; twice %s\n", in, bx.x0, bx.y0, bx.x1, bx.y1, out, alone, ring[0], ring[1], ring[2],
           later, memcmp(a10, again, bytes) ? "differs" : "the same");
    assert_true(alone > 500);
    assert_int_equal(out, 0);
    assert_true(ring[0] > 0 && ring[0] >= ring[1] && ring[0] >= ring[2]);   // red added, the most
    assert_int_equal(later, 0);
    assert_memory_equal(a10, again, bytes);
    stbi_image_free(a0);
    stbi_image_free(a10);
    stbi_image_free(again);
    stbi_image_free(b0);
    stbi_image_free(b10);
    stbi_image_free(none);
    tu_golden("shockwave sphere", F.png[1], "tests/golden/fs_shock_sphere.png", 0.01);
    scene_files_done(&F);
}

// The mines' bobbing and turning (ProcessMines), from the time since each was laid. Alice looks at a
// purge mine laid 300 units ahead at 0.5 s (up: the world's y), nothing near it:
// - its model (the pixels far from the scene without it: its top, above its light on the floor)
//   rises and falls with COSD( (int)(LifeCount x 3) % 360 ) x 50: its top moves down the screen by
//   what the rule's heights project to between LifeCount 0 (+50) and 60 (-50), and back at 120;
// - a spider mine 215 units ahead (eyeball.mx, turning 2 degrees a tick, not bobbing): the picture a
//   whole turn (180 ticks) later is the same (but for 3 pixels at most: `--at` takes milliseconds,
//   the turn is 0.03 degrees off); a quarter turn (45 ticks) later it differs only in the mine's box;
// - played and sought to, the same pictures.
// The first row (from the top) of the box with at least 3 pixels of b far from a (r g b differences
// summed over 150): the top of the mine's model (its light brightens the floor below it, not above);
// *n: how many such pixels in the box. -1: none.
static int strong_top_y(const uint8_t *a, const uint8_t *b, int w, box_t bx, int *n)
{
    int top = -1;
    *n = 0;
    for (int y = bx.y0; y < bx.y1; y++) {
        int row = 0;
        for (int x = bx.x0; x < bx.x1; x++) {
            size_t i = ((size_t)y * (size_t)w + (size_t)x) * 3;
            row += abs(b[i] - a[i]) + abs(b[i + 1] - a[i + 1]) + abs(b[i + 2] - a[i + 2]) > 150;
        }
        if (row >= 3 && top < 0)
            top = y;
        *n += row;
    }
    return top;
}

static void test_mine_motion(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], mine[3], near[3], carol[3], still[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        mine[k] = eye[k] + 300 * fwd[k];
        near[k] = eye[k] + 215 * fwd[k];   // beyond MINE_TRIGGER_RADIUS of alice
        bob[k] = eye[k] - 150 * fwd[k];
        carol[k] = eye[k] - 300 * fwd[k];
    }
    scene_files_t F;
    scene_files(&F, "minemove", 3, 8);
    fs_event_t purge = mine_laid(mine, 1, FSW_PURGEMINE), spider = mine_laid(near, 1, FSW_SPIDERMINE);
    write_fx_scene_until(F.demo[0], eye, ang, bob, carol, still, NULL, 0, 3.5);
    write_fx_scene_until(F.demo[1], eye, ang, bob, carol, still, &purge, 1, 3.5);
    write_fx_scene_until(F.demo[2], eye, ang, bob, carol, still, &spider, 1, 3.5);
    const double life[3] = { 0, 60, 120 };
    for (int i = 0; i < 3; i++)
        fs_shot(F.demo[1], 0.5 + life[i] / 71.0, F.png[i]);
    fs_shot(F.demo[0], 1.0, F.png[3]);
    fs_shot(F.demo[2], 0.6, F.png[4]);
    fs_shot(F.demo[2], 0.6 + 45 / 71.0, F.png[5]);
    fs_shot(F.demo[2], 0.6 + 180 / 71.0, F.png[6]);
    int w, h;
    uint8_t *p0 = load_png(F.png[0], &w, &h), *p60 = load_png(F.png[1], &w, &h), *p120 = load_png(F.png[2], &w, &h);
    uint8_t *none = load_png(F.png[3], &w, &h);
    uint8_t *s0 = load_png(F.png[4], &w, &h), *s45 = load_png(F.png[5], &w, &h), *s180 = load_png(F.png[6], &w, &h);
    // the projected heights of the rule's places (the world's y is the mine's up)
    float y_at[3];
    for (int i = 0; i < 3; i++) {
        float hgt = r_fsfx_mine_bob(FSW_PURGEMINE, (float)life[i]), p[3];
        for (int k = 0; k < 3; k++)
            p[k] = mine[k] + (k == 1 ? hgt : 0) - eye[k];
        float z = p[0] * fwd[0] + p[1] * fwd[1] + p[2] * fwd[2], y = p[0] * up[0] + p[1] * up[1] + p[2] * up[2];
        y_at[i] = 100 - 160 / 1.2f * y / z;
    }
    box_t col = ball_box(mine, 110, eye, fwd, right, up);
    int n0, n60, n120;
    int m0 = strong_top_y(none, p0, w, col, &n0), m60 = strong_top_y(none, p60, w, col, &n60),
        m120 = strong_top_y(none, p120, w, col, &n120);
    box_t sbx = ball_box(near, 45, eye, fwd, right, up);
    int in, out;
    diff_box(s0, s45, w, h, sbx, &in, &out);
    size_t bytes = (size_t)w * (size_t)h * 3;
    int turned = 0;
    for (size_t i = 0; i < bytes; i += 3)
        turned += memcmp(s0 + i, s180 + i, 3) != 0;
    printf("purge mine 300 ahead: its model's top at row %d (LifeCount 0), %d (60), %d (120) (%d, %d, %d pixels far "
           "from the scene without it); the rule's places project to rows %.1f, %.1f, %.1f; spider mine a quarter turn on: %d pixels differ "
           "in its box %d,%d..%d,%d, %d outside; a whole turn on %d differ\n", m0, m60, m120, n0, n60, n120, y_at[0], y_at[1],
           y_at[2], in, sbx.x0, sbx.y0, sbx.x1, sbx.y1, out, turned);
    assert_true(n0 > 100 && n60 > 100 && n120 > 100);
    assert_true(fabsf((float)(m60 - m0) - (y_at[1] - y_at[0])) < 3);
    assert_true(abs(m120 - m0) <= 1);
    assert_true(in > 50);
    assert_int_equal(out, 0);
    assert_true(turned <= 3);   // --at takes milliseconds: 180 ticks is 2.535211 s, 0.03 degrees off
    stbi_image_free(p0);
    stbi_image_free(p60);
    stbi_image_free(p120);
    stbi_image_free(none);
    stbi_image_free(s0);
    stbi_image_free(s45);
    stbi_image_free(s180);
    tu_golden("purge mine bobbing (LifeCount 60)", F.png[1], "tests/golden/fs_mine_bob.png", 0.01);
    const double moments[] = { 0.55, 0.7, 0.9, 1.2 };
    int moved, differ = seek_differs(F.demo[1], moments, 4, &moved);
    printf("purge mine: %d moments, %d differ from the one before, %d seeks differ from play\n", 4, moved, differ);
    assert_true(moved >= 3);
    assert_int_equal(differ, 0);
    scene_files_done(&F);
}


// The pine mine's aim (secondary.c ProcessMines' PINEMINE, written out here, not asked of the
// renderer): each tick the most centred of the ships (the owner excepted; its cone is all round)
// from the mine along its direction; the direction turns towards it by at most 0.75 degrees along
// the great circle (at once when nearer). Its direction after `ticks` ticks.
static void rule_pine(const float mine[3], const float dir0[3], const float (*ships)[3], int n, int ticks, float out[3])
{
    float d[3];
    memcpy(d, dir0, sizeof d);
    const float turn = 0.75f * (float)M_PI / 180;
    for (int k = 1; k <= ticks; k++) {
        float best = -2, to[3] = { 0, 0, 0 };
        for (int i = 0; i < n; i++) {
            float v[3] = { ships[i][0] - mine[0], ships[i][1] - mine[1], ships[i][2] - mine[2] };
            float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), c;
            for (int j = 0; j < 3; j++)
                v[j] /= l;
            c = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
            if (c > best) {
                best = c;
                memcpy(to, v, sizeof to);
            }
        }
        float c = best > 1 ? 1 : best, a = acosf(c);
        if (a <= turn) {
            memcpy(d, to, sizeof d);
            continue;
        }
        float perp[3], l = 0;
        for (int j = 0; j < 3; j++) {
            perp[j] = to[j] - d[j] * c;
            l += perp[j] * perp[j];
        }
        l = sqrtf(l);
        for (int j = 0; j < 3; j++)
            d[j] = d[j] * cosf(turn) + perp[j] / l * sinf(turn);
    }
    memcpy(out, d, 3 * sizeof *out);
}

// The pine mine's direction and up played in-process (no level: no walls) to the last frame at or
// before `at`; that frame's time in *tf; returns the mines there.
static int pine_dir(const char *path, double at, float dir[3], float up[3], double *tf)
{
    fs_play_t pl;
    fs_play_open(&pl, path, 1);
    int n = -1;
    while (fs_play_frame(&pl)) {
        if (pl.w->time > at + 1e-9)
            break;
        n = r_fsent_mines(pl.fe, pl.w->time, dir, up);
        *tf = pl.w->time;
    }
    fs_play_close(&pl);
    return n;
}

// bob's pine mine laid 300 ahead of alice at 0.5 s, nose along the world's z, up its y; carol parked
// 260 to the side of it (both beyond MINE_TRIGGER_RADIUS). ProcessMines turns it towards the more
// centred of alice and carol (bob, its owner, is never its target) by 0.75 degrees a tick: played
// in-process, its direction at the frames before 0.8, 1.5 and 3.5 s is where the rule (rule_pine) puts it to
// within 0.05 degrees, turned 0.75 degrees a tick until it is aimed at carol (34 degrees off at first,
// so 46 ticks), then staying on her; its up stays square to it.
// Its picture: 40 ticks after it was laid, the mine drawn turned differs from it drawn as laid
// (main's build: it stayed), only in the mine's box; seek == play at four moments.
static void test_pine_aim(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], mine[3], carol[3], still[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        mine[k] = eye[k] + 300 * fwd[k];
        carol[k] = mine[k] + 260 * right[k];
        bob[k] = eye[k] - 150 * fwd[k];
    }
    scene_files_t F;
    scene_files(&F, "pine", 1, 3);
    fs_event_t pine = mine_laid(mine, 1, FSW_PINEMINE);
    write_fx_scene_until(F.demo[0], eye, ang, bob, carol, still, &pine, 1, 3.6);
    const float dir0[3] = { 0, 0, 1 };
    const float ships[2][3] = { { eye[0], eye[1], eye[2] }, { carol[0], carol[1], carol[2] } };
    const double at[3] = { 0.8, 1.5, 3.5 };
    float prev_turn = 0;
    for (int i = 0; i < 3; i++) {
        float got[3], gup[3], want[3];
        double tf = 0;
        int n = pine_dir(F.demo[0], at[i], got, gup, &tf);
        int k = (int)floor((tf - 0.5) * 71 + 1e-9);
        rule_pine(mine, dir0, ships, 2, k, want);
        float off = angle_deg(got, want), turned = angle_deg(got, dir0);
        float sq = got[0] * gup[0] + got[1] * gup[1] + got[2] * gup[2];
        float to_alice[3], to_carol[3];
        for (int j = 0; j < 3; j++) {
            to_alice[j] = (eye[j] - mine[j]) / 300;
            to_carol[j] = (carol[j] - mine[j]) / 260;
        }
        printf("pine mine %d ticks after it was laid (frame %.3f s): %d mine, turned %.2f degrees from as laid (the rule "
               "%.2f), %.3f degrees from the rule's direction, %.1f from alice, %.1f from carol; up . dir %.5f\n", k, tf, n,
               turned, angle_deg(want, dir0), off, angle_deg(got, to_alice), angle_deg(got, to_carol), sq);
        assert_int_equal(n, 1);
        assert_true(off < 0.05f);
        assert_true(fabsf(sq) < 1e-3f);
        if (i == 0)
            assert_true(fabsf(turned - 0.75f * (float)k) < 0.05f);   // still turning its full 0.75 a tick
        else
            assert_true(angle_deg(got, to_carol) < 0.01f);   // aimed at carol, the more centred (0.75 a tick: 45 ticks)
        assert_true(turned >= prev_turn - 0.01f);
        prev_turn = turned;
    }
    fs_shot(F.demo[0], 0.5 + 40 / 71.0, F.png[0]);
    fs_shot(F.demo[0], 0.5 + 1 / 71.0, F.png[1]);
    fs_shot(F.demo[0], 0.5 + 40 / 71.0, F.png[2]);
    int w, h;
    uint8_t *a = load_png(F.png[0], &w, &h), *b = load_png(F.png[1], &w, &h), *c = load_png(F.png[2], &w, &h);
    box_t bx = ball_box(mine, 64, eye, fwd, right, up);   // its spikes reach out further than the purge mine's
    int in, out;
    diff_box(b, a, w, h, bx, &in, &out);
    printf("pine mine 40 ticks (30 degrees) turned against as laid: %d pixels differ in its box %d,%d..%d,%d, %d outside; "
           "twice %s\n", in, bx.x0, bx.y0, bx.x1, bx.y1, out, memcmp(a, c, (size_t)w * (size_t)h * 3) ? "differs" : "the same");
    assert_true(in > 30);
    assert_int_equal(out, 0);
    assert_memory_equal(a, c, (size_t)w * (size_t)h * 3);
    stbi_image_free(a);
    stbi_image_free(b);
    stbi_image_free(c);
    const double moments[] = { 0.55, 0.8, 1.1, 1.5 };
    int moved, differ = seek_differs(F.demo[0], moments, 4, &moved);
    printf("pine mine: %d moments, %d differ from the one before, %d seeks differ from play\n", 4, moved, differ);
    assert_true(moved >= 3);
    assert_int_equal(differ, 0);
    scene_files_done(&F);
}

// seek == play for the laser stopping on a ship and the transpulse turning at its bounce: alice's
// laser at bob 260 ahead (its beam ends on his sphere each tick), and alice's transpulse fired down
// at the floor ahead with bob above its bounce (in its cone: it turns up at him), each drawn while
// playing on and by seeking backwards at moments across the shot.
static void test_beam_seek(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], far[3], floor_aim[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] + 260 * fwd[k];
        far[k] = eye[k] - 3000 * fwd[k];
        floor_aim[k] = eye[k] + 150 * fwd[k] - 200 * up[k];
    }
    scene_files_t F;
    scene_files(&F, "beamseek", 3, 2);
    write_scene_ex(F.demo[0], eye, ang, bob, 0, 1, 1, FSW_LASER, 0, NULL);
    write_scene_ex(F.demo[1], eye, ang, bob, 0, 1, 1, FSW_TRANSPULSE, 0, floor_aim);
    write_scene_ex(F.demo[2], eye, ang, far, 0, 1, 1, FSW_TRANSPULSE, 0, floor_aim);
    fs_shot(F.demo[1], 1.0 + 14 / 71.0, F.png[0]);   // to look at: with bob, and with him far away
    fs_shot(F.demo[2], 1.0 + 14 / 71.0, F.png[1]);
    const double laser_at[] = { 1.0 + 1.5 / 71, 1.0 + 5.5 / 71, 1.0 + 11.5 / 71, 1.3 };
    int moved, differ = seek_differs(F.demo[0], laser_at, 4, &moved);
    printf("laser at bob: %d moments, %d differ from the one before, %d seeks differ from play\n", 4, moved, differ);
    assert_true(moved >= 2);
    assert_int_equal(differ, 0);
    const double trans_at[] = { 1.0 + 3.5 / 71, 1.0 + 12.5 / 71, 1.0 + 20.5 / 71, 1.0 + 40.5 / 71 };
    differ = seek_differs(F.demo[1], trans_at, 4, &moved);
    printf("transpulse turning at bob: %d moments, %d differ from the one before, %d seeks differ from play\n", 4, moved,
           differ);
    assert_true(moved >= 2);
    assert_int_equal(differ, 0);
    scene_files_done(&F);
}

// The sounds of mines going off (DestroySecondary: SFX_Exp4 purge, SFX_Exp5 pine, SFX_QuantumMineExplode
// quantum, SFX_Exp6 spider; the game's sfx table names their files exp4, exp5, quantexp, exp6): test_mine_proximity's
// scene played in-process, every frame's r_fsent_sounds gathered: bob's purge mine asks for one
// "exp4.wav" in the frame after carol comes within 200 (tick 18: 0.753 s), where the mine then was
// (its bob); carol's own mine (spared) asks for none; bob's quantum mine there one "quantexp.wav".
static int gather_sounds(const char *path, r_sound_t *out, int max, double *when)
{
    fs_play_t pl;
    fs_play_open(&pl, path, 1);
    int n = 0;
    while (fs_play_frame(&pl)) {
        r_sound_t rs[8];
        int k = r_fsent_sounds(pl.fe, rs, 8);
        for (int i = 0; i < k && n < max; i++) {
            out[n] = rs[i];
            when[n++] = pl.w->time;
        }
    }
    fs_play_close(&pl);
    return n;
}

static void test_mine_sounds(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    assert_string_equal(r_fsfx_mine_sound(FSW_PURGEMINE), "exp4.wav");
    assert_string_equal(r_fsfx_mine_sound(FSW_PINEMINE), "exp5.wav");
    assert_string_equal(r_fsfx_mine_sound(FSW_QUANTUMMINE), "quantexp.wav");
    assert_string_equal(r_fsfx_mine_sound(FSW_SPIDERMINE), "exp6.wav");
    assert_null(r_fsfx_mine_sound(FSW_MUG));
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], mine[3], carol0[3], vel[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        mine[k] = eye[k] + 600 * fwd[k];
        carol0[k] = eye[k] + 50 * fwd[k];
        vel[k] = 500 * fwd[k];
        bob[k] = eye[k] - 150 * fwd[k];
    }
    scene_files_t F;
    scene_files(&F, "minesnd", 3, 0);
    write_mine_scene(F.demo[0], eye, ang, bob, mine, carol0, vel, 1, FSW_PURGEMINE);
    write_mine_scene(F.demo[1], eye, ang, bob, mine, carol0, vel, 2, FSW_PURGEMINE);
    write_mine_scene(F.demo[2], eye, ang, bob, mine, carol0, vel, 1, FSW_QUANTUMMINE);
    r_sound_t a[4], b[4], c[4];
    double ta[4], tb[4], tc[4];
    int na = gather_sounds(F.demo[0], a, 4, ta), nb = gather_sounds(F.demo[1], b, 4, tb), nc = gather_sounds(F.demo[2], c, 4, tc);
    float boom[3], off = 0;
    float hgt = r_fsfx_mine_bob(FSW_PURGEMINE, 18);
    for (int k = 0; k < 3; k++)
        boom[k] = mine[k] + (k == 1 ? hgt : 0);
    printf("bob's purge mine: %d sound(s): %s at %.3f s, %s and %s at %.3f s, %.3f units from where it was on tick 18; "
           "carol's own: %d (%s); bob's quantum mine: %d, %s %s %s at %.3f s\n", na, na > 0 ? a[0].name : "-",
           na > 0 ? ta[0] : 0.0, na > 1 ? a[1].name : "-", na > 2 ? a[2].name : "-", na > 1 ? ta[1] : 0.0, sqrtf(off), nb,
           nb ? b[0].name : "-", nc, nc > 0 ? c[0].name : "-", nc > 1 ? c[1].name : "-", nc > 2 ? c[2].name : "-",
           nc > 1 ? tc[1] : 0.0);
    // laid: InitOneSecBull's SFX_DropMine where it was laid, at 0.5 s
    assert_int_equal(na, 3);
    assert_string_equal(a[0].name, "minelay.wav");
    assert_true(fabs(ta[0] - 0.5) < 0.001);
    for (int k = 0; k < 3; k++)
        assert_true(fabsf(a[0].origin[k] - mine[k]) < 0.01f);
    // set off: DestroySecondary's SFX_Exp4, then CreateShockwave's CreateExplosion's SFX_BangBang, both there
    assert_string_equal(a[1].name, "exp4.wav");
    assert_string_equal(a[2].name, "exp1.wav");
    assert_true(ta[1] >= 0.5 + 18 / 71.0 && ta[1] < 0.5 + 18 / 71.0 + 0.1);
    assert_true(ta[2] == ta[1]);
    for (int k = 0; k < 3; k++) {
        off += (a[1].origin[k] - boom[k]) * (a[1].origin[k] - boom[k]);
        assert_true(fabsf(a[2].origin[k] - a[1].origin[k]) < 1e-6f);
    }
    assert_true(sqrtf(off) < 0.01f);
    for (int i = 0; i < 3; i++) {   // the game's loudness for the camera (StartPannedSfx, r_fssnd_gain), all in its group
        float d[3] = { a[i].origin[0] - eye[0], a[i].origin[1] - eye[1], a[i].origin[2] - eye[2] };
        float want = r_fssnd_gain(sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 1);
        printf("  %s: gain %.4f (the game's at %.1f units: %.4f)\n", a[i].name, a[i].volume,
               sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), want);
        assert_true(fabsf(a[i].volume - want) < 1e-6f && a[i].attenuation == 0);
    }
    assert_int_equal(nb, 1);   // carol's own: laid, never set off
    assert_string_equal(b[0].name, "minelay.wav");
    assert_int_equal(nc, 3);
    assert_string_equal(c[0].name, "minelay.wav");
    assert_string_equal(c[1].name, "quantexp.wav");
    assert_string_equal(c[2].name, "exp1.wav");
    scene_files_done(&F);
}

// MSG_PRIMBULLPOSDIR: a primary shot made by alice (player 0) at `t` from `from` along `dir`.
static fs_event_t prim_fired(double t, const float from[3], const float dir[3], int weapon, int id)
{
    fs_event_t e;
    memset(&e, 0, sizeof e);
    e.type = FS_MSG_PRIMBULLPOSDIR;
    e.timestamp = fs_ticks(t);
    e.sender = 1;
    e.u.prim.player = 0;
    e.u.prim.owner_type = 1;
    e.u.prim.owner = 0;
    e.u.prim.bullet_id = (uint16_t)id;
    e.u.prim.weapon = (uint8_t)weapon;
    e.u.prim.power_level = 2;
    e.u.prim.plevel = 50;
    e.u.prim.up[1] = 1;
    memcpy(e.u.prim.pos, from, sizeof e.u.prim.pos);
    memcpy(e.u.prim.dir, dir, sizeof e.u.prim.dir);
    return e;
}

// The sounds the game plays for the shots and blasts a demo carries (InitOnePrimBull, InitOneSecBull,
// DestroySecondary's CreateExplosion, CreateShockwave's; sfx.c's file names), asked for in the frame
// of their message, at its place: alice fires a pulsar at 0.25 s ("pulsfire"), the pyrolite at 0.35,
// 1.05 and 1.15 s (PyroCount from the first frame, 0.05 s: only the 1.05 s one is past 60 ticks:
// one "pyroloop"), a transpulse at 0.45 ("tpfire2"), a mug missile down the hall at 0.55
// ("mslaun2") back at bob ("exp1" where it meets his sphere, in the frame that passes that time), an MFRL at
// 0.65 ("mfrln" at volume 0.85; its CreateSmallExplosion: none), a thief at 0.75 (none); a
// MSG_SHOCKWAVE 300 ahead at 0.85 ("exp1" there). Nothing else.
static void test_weapon_sounds(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    assert_string_equal(r_fsfx_prim_sound(FSW_TROJAX), "trojfire.wav");
    assert_string_equal(r_fsfx_prim_sound(FSW_SUSSGUN), "sussgnf3.wav");
    assert_string_equal(r_fsfx_prim_sound(FSW_LASER), "laser2c.wav");
    assert_string_equal(r_fsfx_prim_sound(FSW_ORBITPULSAR), "orbitpls.wav");
    assert_null(r_fsfx_prim_sound(FSW_NUM_PRIMARY));
    float vol = 0;
    assert_string_equal(r_fsfx_sec_sound(FSW_TITAN, &vol), "titanln.wav");
    assert_true(vol == 1);
    assert_string_equal(r_fsfx_sec_sound(FSW_SPIDERMINE, &vol), "minelay.wav");
    assert_null(r_fsfx_sec_sound(FSW_TITANSHRAPNEL, &vol));
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol0[3], still[3] = { 0, 0, 0 }, at[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] - 150 * fwd[k];
        carol0[k] = eye[k] - 100 * fwd[k] + 100 * right[k];
        at[k] = eye[k] + 300 * fwd[k];
    }
    fs_event_t ev[10];
    ev[0] = prim_fired(0.25, eye, fwd, FSW_PULSAR, 1);
    ev[1] = prim_fired(0.35, eye, fwd, FSW_PYROLITE, 2);
    ev[2] = prim_fired(0.45, eye, fwd, FSW_TRANSPULSE, 3);
    float back[3] = { -fwd[0], -fwd[1], -fwd[2] };
    ev[3] = missile_launched(0.55, eye, back, FSW_MUG);   // at bob, 150 behind alice
    ev[4] = missile_launched(0.65, bob, fwd, FSW_MFRL);
    ev[4].u.mine.bullet_id = 6;
    ev[5] = missile_launched(0.75, eye, fwd, FSW_THIEF);
    ev[5].u.mine.bullet_id = 7;
    ev[6] = shockwave_msg(0.85, at, 4);
    ev[7] = prim_fired(1.05, eye, fwd, FSW_PYROLITE, 4);
    ev[8] = prim_fired(1.15, eye, fwd, FSW_PYROLITE, 5);
    scene_files_t F;
    scene_files(&F, "wsnd", 1, 0);
    write_fx_scene(F.demo[0], eye, ang, bob, carol0, still, ev, 9);
    r_sound_t rs[16];
    double t[16];
    int n = gather_sounds(F.demo[0], rs, 16, t);
    for (int i = 0; i < n; i++)
        printf("  %.3f s %-13s vol %.2f at %.1f %.1f %.1f\n", t[i], rs[i].name, rs[i].volume, rs[i].origin[0],
               rs[i].origin[1], rs[i].origin[2]);
    const char *want[] = { "pulsfire.wav", "tpfire2.wav", "mslaun2.wav", "mfrln.wav", "exp1.wav", "exp1.wav", "pyroloop.wav" };
    assert_int_equal(n, 7);
    // the mug's end: where it meets bob's sphere (75 units: hit_ships) on its way back, 18 units a tick from 0.55 s
    float wall = -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(rs[i].name, "exp1.wav") || fabs(t[i] - 0.85) < 0.001)
            continue;
        float d[3] = { rs[i].origin[0] - eye[0], rs[i].origin[1] - eye[1], rs[i].origin[2] - eye[2] };
        wall = d[0] * back[0] + d[1] * back[1] + d[2] * back[2];
        float off = 0;
        for (int k = 0; k < 3; k++)
            off += (d[k] - wall * back[k]) * (d[k] - wall * back[k]);
        double reach = 0.55 + wall / (18 * 71.0);
        printf("mug's end %.2f units from alice towards bob, reached at %.3f s, asked for in the frame at %.3f s, %.3f off "
               "the line\n", wall, reach, t[i], sqrtf(off));
        assert_true(sqrtf(off) < 0.5f);
        assert_true(t[i] >= reach - 1e-6 && t[i] < reach + 0.1 + 1e-6);
    }
    assert_true(fabsf(wall - 75) < 0.5f);   // bob 150 behind, his sphere 75
    // in time order, each name once where wanted
    double when[] = { 0.25, 0.45, 0.55, 0.65, -1, 0.85, 1.05 };
    for (int i = 0, j = 0; i < n; i++) {
        if (!strcmp(rs[i].name, "exp1.wav") && fabs(t[i] - 0.85) > 0.001) {
            continue;   // the mug's end: looked at above
        }
        while (j < 7 && when[j] < 0)
            j++;
        assert_true(j < 7);
        assert_string_equal(rs[i].name, want[j]);
        assert_true(fabs(t[i] - when[j]) < 0.001);
        const float *p = !strcmp(want[j], "mfrln.wav") ? bob : !strcmp(want[j], "exp1.wav") ? at : eye;
        for (int k = 0; k < 3; k++)
            assert_true(fabsf(rs[i].origin[k] - p[k]) < 0.01f);
        float dv[3] = { rs[i].origin[0] - eye[0], rs[i].origin[1] - eye[1], rs[i].origin[2] - eye[2] };
        float gain = r_fssnd_gain(sqrtf(dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2]),
                                  !strcmp(want[j], "mfrln.wav") ? 0.85f : 1.0f);   // StartPannedSfx's, VolModify 0.85
        assert_true(fabsf(rs[i].volume - gain) < 1e-6f && rs[i].attenuation == 0);
        j++;
    }
    scene_files_done(&F);
}

// A fresh folder `dir` for the export tests: `dir/Data` the shared game data (a link), beside it the
// tests' mod folder `dir/snd` of generated tones.
static void export_dir(const char *dir)
{
    char cmd[8192], data[4096];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    assert_int_equal(system(cmd), 0);
    assert_non_null(realpath(tu_data("forsaken/Data"), data));
    snprintf(cmd, sizeof cmd, "ln -sfn '%s' %s/Data", data, dir);
    assert_int_equal(system(cmd), 0);
}

// `export` of demo from 0 to `to` s (10 fps, 64x48, --game snd, `extra` options) into dir/NAME; its
// WAV read back: the file's bytes (free them), the 16-bit stereo samples in *pcm, their frames in *frames.
static uint8_t *export_wav(const char *dir, const char *demo, double to, const char *extra, const char *name,
                           const int16_t **pcm, long *frames)
{
    char cmd[8192], path[1024];
    snprintf(cmd, sizeof cmd, "%s export -q %s --basedir %s --game snd --from 0 --to %g --fps 10 --size 64x48 %s -o %s/%s 2>&1",
             tu_bin(), demo, dir, to, extra, dir, name);
    int status = -1;
    char *out = tu_run(cmd, &status);
    if (status != 0)
        fail_msg("%s: %s", cmd, out ? out : "");
    free(out);
    snprintf(path, sizeof path, "%s/%s/audio.wav", dir, name);
    size_t size = 0;
    uint8_t *wav = tu_read(path, &size);
    assert_non_null(wav);
    assert_true(size > 44);
    *pcm = (const int16_t *)(wav + 44);
    *frames = (long)(size - 44) / 4;
    return wav;
}

// The same rules' sounds in `export`'s sound track (which draws no pictures with the player that
// makes it): a mod folder of tones under the names, the demo exported, and the track is silent up to
// the first shot and loud from each sound's frame on (main's export before: silent throughout), the
// tones in the game's two sound folders and in sound/ itself.
static void test_export_weapon_sounds(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol0[3], still[3] = { 0, 0, 0 }, at[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] - 150 * fwd[k];
        carol0[k] = eye[k] - 100 * fwd[k] + 100 * right[k];
        at[k] = eye[k] + 300 * fwd[k];
    }
    fs_event_t ev[3];
    ev[0] = prim_fired(0.25, eye, fwd, FSW_PULSAR, 1);
    ev[1] = prim_fired(0.45, eye, fwd, FSW_TRANSPULSE, 2);
    ev[2] = shockwave_msg(0.85, at, 4);
    const double when[] = { 0.25, 0.45, 0.85 };
    const char *dir = "build/test_forsaken_fx_export";
    char demo[512], path[512];
    export_dir(dir);
    // the game's own folders (data/sound/generic, data/sound/Mapped) and a loose file
    const char *names[] = { "pulsfire.wav", "tpfire2.wav", "exp1.wav" }, *dirs[] = { "generic/", "Mapped/", "" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/snd/sound/%s%s", dir, dirs[i], names[i]);
        tu_write_tone(path, 0.05, 440 + 220 * i);
    }
    snprintf(demo, sizeof demo, "%s/scene.dmo", dir);
    write_fx_scene(demo, eye, ang, bob, carol0, still, ev, 3);
    const int16_t *pcm;
    long frames;
    uint8_t *wav = export_wav(dir, demo, 1.2, "", "out", &pcm, &frames);
    assert_int_equal(frames, 48000 * 12 / 10);
    double silent = tu_energy(pcm, frames, 48000, 0, when[0]);
    printf("export's track: energy %.0f before the first shot;", silent);
    assert_true(silent == 0);
    for (int i = 0; i < 3; i++) {
        double before = tu_energy(pcm, frames, 48000, when[i] - 0.05, when[i]);
        double after = tu_energy(pcm, frames, 48000, when[i], when[i] + 0.05);
        printf(" %s at %.2f s: %.3g before, %.3g after;", names[i], when[i], before, after);
        assert_true(after > 1e9);
        assert_true(after > 100 * before);
    }
    printf("\n");
    free(wav);
}

// SFX_ShipHit: test_shield_hit's pulsar meeting bob's sphere (185 units ahead, 32 units a tick from
// 1.0 s): "shieldht.wav" in the frame that passes the hit, where it met the sphere, at the game's gain
// for 185 units; the same pulsar with no bob there: none (main's code before: none in either).
static void test_ship_hit_sound(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 260 * fwd[k];
    scene_files_t F;
    scene_files(&F, "hitsnd", 2, 0);
    write_scene_ex(F.demo[0], eye, ang, bob, 0, 1, 1, 0, 0, NULL);   // bob, the pulsar
    write_scene_ex(F.demo[1], eye, ang, bob, 0, 0, 1, 0, 0, NULL);   // the pulsar alone
    r_sound_t a[8], b[8];
    double ta[8], tb[8];
    int na = gather_sounds(F.demo[0], a, 8, ta), nb = gather_sounds(F.demo[1], b, 8, tb);
    int hit = -1, hits_b = 0;
    for (int i = 0; i < na; i++)
        if (!strcmp(a[i].name, "shieldht.wav")) {
            assert_int_equal(hit, -1);
            hit = i;
        }
    for (int i = 0; i < nb; i++)
        hits_b += !strcmp(b[i].name, "shieldht.wav");
    double when = 1.0 + 185.0 / (32 * 71);
    float off = 0;
    for (int k = 0; k < 3; k++) {
        float p = eye[k] + 185 * fwd[k];
        off += hit >= 0 ? (a[hit].origin[k] - p) * (a[hit].origin[k] - p) : 1e9f;
    }
    printf("pulsar on bob: %d sound(s), shieldht %s at %.3f s (the hit at %.3f s), %.3f units from the sphere's "
           "front, gain %.4f (the game's at 185 units %.4f); without bob: %d shieldht\n", na, hit >= 0 ? "asked for" : "not",
           hit >= 0 ? ta[hit] : -1.0, when, sqrtf(off), hit >= 0 ? a[hit].volume : 0.0f, r_fssnd_gain(185, 1), hits_b);
    assert_true(hit >= 0);
    assert_true(ta[hit] >= when - 1e-6 && ta[hit] < when + 0.1 + 1e-6);
    assert_true(sqrtf(off) < 1.0f);
    assert_true(fabsf(a[hit].volume - r_fssnd_gain(185, 1)) < 0.01f);
    assert_int_equal(hits_b, 0);
    scene_files_done(&F);
}

// Left and right in `export`'s track: a pulsar shot 120 units to alice's right at 0.25 s, one 120 to
// her left at 0.65 s (she looks along the scene's view, 35 degrees off the level's start). Forsaken's
// axes are left-handed (x right, y up, z forward): the sound system mirrors them into OpenAL's
// (world_left_handed), and the listener faces where she looks (fs_angle_vectors). Main's before:
// her view taken as Quake's angles on Quake's axes, the listener faced elsewhere and each shot leaked
// into the other ear (right 8.1e10 / left 8.9e9; left 7.3e10 / right 8.9e9); now 1.4e11 / 0 each.
static double channel_energy(const int16_t *pcm, long frames, int ch, double t0, double t1)
{
    double e = 0;
    for (long i = (long)(t0 * 48000); i < (long)(t1 * 48000) && i < frames; i++)
        e += (double)pcm[2 * i + ch] * pcm[2 * i + ch];
    return e;
}

static void test_export_sound_sides(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol0[3], still[3] = { 0, 0, 0 }, r[3], l[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] - 150 * fwd[k];
        carol0[k] = eye[k] - 100 * fwd[k] + 100 * right[k];
        r[k] = eye[k] + 120 * right[k];
        l[k] = eye[k] - 120 * right[k];
    }
    fs_event_t ev[2] = { prim_fired(0.25, r, fwd, FSW_PULSAR, 1), prim_fired(0.65, l, fwd, FSW_PULSAR, 2) };
    const char *dir = "build/test_forsaken_fx_sides";
    char demo[512], path[512];
    export_dir(dir);
    snprintf(path, sizeof path, "%s/snd/sound/pulsfire.wav", dir);
    tu_write_tone(path, 0.1, 440);
    snprintf(demo, sizeof demo, "%s/scene.dmo", dir);
    write_fx_scene(demo, eye, ang, bob, carol0, still, ev, 2);
    const int16_t *pcm;
    long frames;
    uint8_t *wav = export_wav(dir, demo, 1, "", "out", &pcm, &frames);
    double rl = channel_energy(pcm, frames, 0, 0.25, 0.35), rr = channel_energy(pcm, frames, 1, 0.25, 0.35);
    double ll = channel_energy(pcm, frames, 0, 0.65, 0.75), lr = channel_energy(pcm, frames, 1, 0.65, 0.75);
    printf("the shot on her right: left %.3g, right %.3g; on her left: left %.3g, right %.3g\n", rl, rr, ll, lr);
    assert_true(rr > 1e9 && ll > 1e9);
    assert_true(rr > 50 * rl);   // main's before: 9.1 and 8.2 times
    assert_true(ll > 50 * lr);
    free(wav);
}

// The listener follows the picture's camera: carol (player 3) parked 100 units behind alice, facing
// the other way, is followed with `--camera follow:3` while alice fires a pulsar 120 units to her own
// left at 0.25 s (on carol's right: 100 behind her, 120 to her right) and one 120 to her own right at
// 0.65 s (on carol's left). Heard from carol's cockpit, the first is in the right channel and the
// second in the left; main's code before placed the listener at alice's view whatever the camera,
// and heard them the other way round (the first on the left).
static void test_export_sound_follow(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol0[3], still[3] = { 0, 0, 0 }, r[3], l[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] + 400 * fwd[k];
        carol0[k] = eye[k] - 100 * fwd[k];
        r[k] = eye[k] + 120 * right[k];
        l[k] = eye[k] - 120 * right[k];
    }
    fs_event_t ev[2] = { prim_fired(0.25, l, fwd, FSW_PULSAR, 1), prim_fired(0.65, r, fwd, FSW_PULSAR, 2) };
    const char *dir = "build/test_forsaken_fx_follow";
    char demo[512], path[512];
    export_dir(dir);
    snprintf(path, sizeof path, "%s/snd/sound/pulsfire.wav", dir);
    tu_write_tone(path, 0.1, 440);
    snprintf(demo, sizeof demo, "%s/scene.dmo", dir);
    write_fx_scene(demo, eye, ang, bob, carol0, still, ev, 2);
    double e[2][2][2];   // [eyes, follow:3][shot][left, right]
    for (int run = 0; run < 2; run++) {
        const int16_t *pcm;
        long frames;
        uint8_t *wav = export_wav(dir, demo, 1, run ? "--camera follow:3" : "", run ? "out1" : "out0", &pcm, &frames);
        for (int shot = 0; shot < 2; shot++)
            for (int ch = 0; ch < 2; ch++)
                e[run][shot][ch] = channel_energy(pcm, frames, ch, shot ? 0.65 : 0.25, shot ? 0.75 : 0.35);
        free(wav);
    }
    printf("alice's view: the shot on her left: left %.3g, right %.3g; on her right: left %.3g, right %.3g\n"
           "carol's (--camera follow:3): the first: left %.3g, right %.3g; the second: left %.3g, right %.3g\n",
           e[0][0][0], e[0][0][1], e[0][1][0], e[0][1][1], e[1][0][0], e[1][0][1], e[1][1][0], e[1][1][1]);
    assert_true(e[0][0][0] > 1e9 && e[0][0][0] > 50 * e[0][0][1]);   // alice hears it on her left
    assert_true(e[0][1][1] > 1e9 && e[0][1][1] > 50 * e[0][1][0]);
    assert_true(e[1][0][1] > 1e9 && e[1][0][1] > 50 * e[1][0][0]);   // carol on her right (main's: left)
    assert_true(e[1][1][0] > 1e9 && e[1][1][0] > 50 * e[1][1][1]);
}

// The game's loudness is for the camera the picture is drawn from (StartPannedSfx's distance from
// Ships[Current_Camera_View]): alice fires a pulsar at 0.25 s from 60 units to the right of carol, who
// is parked 500 units down the hall; with `follow:3` on the renderer the "pulsfire" asked for is as
// loud as the game makes it 60 units away, with the eyes (no camera) as loud as 500-odd units away.
// Main's before: the recording pilot's distance whatever the camera (the same volume both times).
static float pulsfire_volume(const char *demo, const r_camera_t *cam)
{
    char base[512];
    snprintf(base, sizeof base, "%s/forsaken", tu_data_dir());
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = base;
    renderer_t *r = r_create(16, 16);
    assert_non_null(r);
    r_set_camera(r, cam);
    demo_t d;
    assert_int_equal(demo_open(&d, &cli, demo, NULL, 0), 0);
    player_t *p = player_create(&d, &cli, r, NULL, NULL);
    assert_non_null(p);
    float vol = -1;
    while (player_step(p) > 0) {
        r_sound_t rs[8];
        int n = r_sounds(r, rs, 8);
        for (int i = 0; i < n; i++)
            if (!strcmp(rs[i].name, "pulsfire.wav")) {
                assert_true(vol < 0);
                vol = rs[i].volume;
            }
    }
    player_destroy(p);
    demo_close(&d);
    r_destroy(r);
    return vol;
}

static void test_camera_loudness(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol0[3], still[3] = { 0, 0, 0 }, at[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] - 150 * fwd[k];
        carol0[k] = eye[k] + 500 * fwd[k];
        at[k] = carol0[k] + 60 * right[k];
    }
    fs_event_t ev = prim_fired(0.25, at, fwd, FSW_PULSAR, 1);
    scene_files_t F;
    scene_files(&F, "camloud", 1, 0);
    write_fx_scene(F.demo[0], eye, ang, bob, carol0, still, &ev, 1);
    r_camera_t *cam = calloc(1, sizeof *cam);
    assert_non_null(cam);
    cam->mode = R_CAM_FOLLOW;
    cam->player = 2;
    float eyes = pulsfire_volume(F.demo[0], NULL), follow = pulsfire_volume(F.demo[0], cam);
    float d = sqrtf(500 * 500 + 60 * 60);
    printf("pulsfire 60 units from carol, %.1f from alice: volume %.4f with alice's eyes (the game's at %.1f: %.4f), "
           "%.4f following carol (at 60: %.4f)\n", d, eyes, d, r_fssnd_gain(d, 1), follow, r_fssnd_gain(60, 1));
    assert_true(fabsf(eyes - r_fssnd_gain(d, 1)) < 0.01f);
    assert_true(fabsf(follow - r_fssnd_gain(60, 1)) < 0.01f);
    assert_true(follow > eyes + 0.05f);
    free(cam);
    scene_files_done(&F);
}

// The loudness of the rules' sounds is heard from the view drawn (r_fsent_set_view: the renderer's
// camera, a followed pilot's), not always from the recording pilot's: bob fires a pulsar where he is,
// 150 units behind alice, at 0.25 s; heard from alice's view (the world's) at the game's gain for 150
// units, from bob's own at full volume. Main's before: alice's gain whoever was followed.
static double shot_volume(const char *demo, const world_view_t *view)
{
    fs_play_t pl;
    fs_play_open(&pl, demo, 1);
    double vol = -1;
    for (;;) {
        r_fsent_set_view(pl.fe, view);
        if (!fs_play_frame(&pl))
            break;
        r_sound_t rs[8];
        int k = r_fsent_sounds(pl.fe, rs, 8);
        for (int i = 0; i < k; i++)
            if (!strcmp(rs[i].name, "pulsfire.wav"))
                vol = rs[i].volume;
    }
    fs_play_close(&pl);
    return vol;
}

static void test_sound_heard_from_view(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol0[3], still[3] = { 0, 0, 0 };
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        bob[k] = eye[k] - 150 * fwd[k];
        carol0[k] = eye[k] - 100 * fwd[k] + 100 * right[k];
    }
    fs_event_t ev = prim_fired(0.25, bob, fwd, FSW_PULSAR, 1);
    scene_files_t F;
    scene_files(&F, "heard", 1, 0);
    write_fx_scene(F.demo[0], eye, ang, bob, carol0, still, &ev, 1);
    world_view_t at_bob;
    memset(&at_bob, 0, sizeof at_bob);
    at_bob.origin_valid = 1;
    memcpy(at_bob.origin, bob, sizeof at_bob.origin);
    double from_alice = shot_volume(F.demo[0], NULL), from_bob = shot_volume(F.demo[0], &at_bob);
    printf("bob's pulsar heard from alice's view %.4f (the game's gain at 150 units: %.4f), from bob's %.4f\n", from_alice,
           r_fssnd_gain(150, 1), from_bob);
    assert_true(fabs(from_alice - r_fssnd_gain(150, 1)) < 1e-3);
    assert_true(fabs(from_bob - r_fssnd_gain(0, 1)) < 1e-4);
    assert_true(from_bob > from_alice + 0.05);
    scene_files_done(&F);
}

// Forsaken's chase camera stops 4 units before the level's first wall on its way back from the
// pilot's eye (r_camera.c through r_mesh_wall: the level's triangles), as Quake's stops at its
// BSP: alice at ship's start, turned so that a wall is behind her within the 101.3 units to the
// chase place (found here by the test's own ray through the level's triangles), and turned so that
// none is. Main's before: the camera went through the wall (100 back, 16 up, always).
static float test_ray(const mxv_t *m, const float org[3], const float dir[3], float max)
{
    float best = max;
    for (int i = 0; i < m->num_tris; i++) {
        const float *a = m->verts[m->tris[i].v[0]].pos, *b = m->verts[m->tris[i].v[1]].pos, *c = m->verts[m->tris[i].v[2]].pos;
        double e1[3], e2[3], s3[3], p[3], q[3];
        for (int k = 0; k < 3; k++)
            e1[k] = b[k] - a[k], e2[k] = c[k] - a[k], s3[k] = org[k] - a[k];
        p[0] = dir[1] * e2[2] - dir[2] * e2[1], p[1] = dir[2] * e2[0] - dir[0] * e2[2], p[2] = dir[0] * e2[1] - dir[1] * e2[0];
        double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
        if (fabs(det) < 1e-9)
            continue;
        double u = (s3[0] * p[0] + s3[1] * p[1] + s3[2] * p[2]) / det;
        q[0] = s3[1] * e1[2] - s3[2] * e1[1], q[1] = s3[2] * e1[0] - s3[0] * e1[2], q[2] = s3[0] * e1[1] - s3[1] * e1[0];
        double v = (dir[0] * q[0] + dir[1] * q[1] + dir[2] * q[2]) / det;
        double t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
        if (u >= 0 && u <= 1 && v >= 0 && u + v <= 1 && t > 0.5 && t < best)
            best = (float)t;
    }
    return best;
}

// alice's chase camera (in-process: the renderer with ship loaded) at 0.5 s of a scene of her
// at eye, turned yaw; its place in out.
static void chase_place(const float eye[3], float yaw, float out[3])
{
    float ang[3] = { 0, yaw, 0 }, far_[3] = { eye[0] + 5000, eye[1] + 5000, eye[2] + 5000 }, still[3] = { 0, 0, 0 };
    char path[512];
    snprintf(path, sizeof path, "%s/fs_chase_%d.dmo", tu_tmpdir(NULL), (int)getpid());
    write_fx_scene(path, eye, ang, far_, far_, still, NULL, 0);
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = tu_data("forsaken");
    cli.quiet = 1;
    demo_t d;
    assert_int_equal(demo_open(&d, &cli, path, NULL, 0), 0);
    renderer_t *r = r_create(64, 48);
    assert_non_null(r);
    vfs_t *fs = NULL;
    uint32_t ls = 0;
    while (d.world->time < 0.5 && demo_read_frame(&d) > 0) {
        if (d.world->level_seq != ls) {
            ls = d.world->level_seq;
            vfs_free(fs);
            fs = demo_mount(&d, &cli);
            char err[512];
            assert_int_equal(r_load_level(r, fs, d.world, err, sizeof err), 0);
        }
        r_frame(r, d.world);
    }
    static r_camera_t c;
    char err[256];
    float f[3], u[3];
    assert_int_equal(cam_parse("chase:1", &c, err, sizeof err), 0);
    r_set_camera(r, &c);
    assert_int_equal(r_camera_pose(r, d.world, d.world->time, out, f, u, NULL), 0);
    r_destroy(r);
    vfs_free(fs);
    demo_close(&d);
    remove(path);
}

static void test_chase_stops_at_walls(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3];
    assert_int_equal(fs_start_pos("ship", eye, ang), 0);
    r_fsworld_t *fw = fs_load_level("ship");
    assert_non_null(fw);
    const mxv_t *m = r_fsworld_mesh(fw);
    assert_non_null(m);
    // the chase place of a yaw: 100 back along the heading (x-z), 16 up (y); the way there, its wall
    float walled = -1, open = -1, hit_walled = 0, len = sqrtf(100 * 100 + 16 * 16);
    {   // the start is some 240 units from the walls about it: 180 units nearer the one behind yaw 270
        float f[3], rt[3], up[3], a[3] = { 0, 270, 0 };
        fs_angle_vectors(a, f, rt, up);
        eye[0] -= 180 * f[0], eye[2] -= 180 * f[2];
    }
    for (int y = 0; y < 360 && (walled < 0 || open < 0); y += 5) {
        float f[3], rt[3], up[3], a[3] = { 0, (float)y, 0 };
        fs_angle_vectors(a, f, rt, up);
        float dir[3] = { -100 * f[0] / len, 16 / len, -100 * f[2] / len };
        float hit = test_ray(m, eye, dir, len);
        if (hit < len - 10 && hit > 20 && walled < 0)
            walled = (float)y, hit_walled = hit;
        else if (hit >= len && open < 0)
            open = (float)y;
    }
    printf("ship's start %.1f %.1f %.1f: a wall behind when turned %g (%.2f), none when turned %g\n", eye[0], eye[1], eye[2],
           walled, hit_walled, open);
    assert_true(walled >= 0 && open >= 0);
    float b[3], c[3], f[3], rt[3], up[3];
    chase_place(eye, walled, b);
    chase_place(eye, open, c);
    float d_b = sqrtf((b[0] - eye[0]) * (b[0] - eye[0]) + (b[1] - eye[1]) * (b[1] - eye[1]) + (b[2] - eye[2]) * (b[2] - eye[2]));
    float d_c = sqrtf((c[0] - eye[0]) * (c[0] - eye[0]) + (c[1] - eye[1]) * (c[1] - eye[1]) + (c[2] - eye[2]) * (c[2] - eye[2]));
    printf("ship's start, turned %g: a wall %.2f units on the way back: the chase camera %.2f from the eye; turned %g "
           "(nothing in the way): %.2f\n", walled, hit_walled, d_b, open, d_c);
    assert_float_equal(d_b, hit_walled - 4, 0.05);
    assert_float_equal(d_c, len, 0.05);
    float a1[3] = { 0, walled, 0 };
    fs_angle_vectors(a1, f, rt, up);
    assert_float_equal(b[1] - eye[1], (hit_walled - 4) * 16 / len, 0.05);   // on the line, 16 up in 101.3
    r_fsworld_free(fw);
}

// SFX_BikeExplode: bob's updates turn his mode from dying to limbo at 1.27 s (write_dying): one
// "bikexpl.wav" in that frame at his place then; the same path not dying (normal straight to limbo at
// 1.27 s): one too, as EvaluateMessage plays it for either (test_weapon_sounds' scene, never in
// limbo, asks for none).
static void test_death_sound(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++)
        bob[k] = eye[k] + 400 * fwd[k];
    scene_files_t F;
    scene_files(&F, "dsnd", 2, 0);
    write_dying(F.demo[0], eye, ang, bob, right, 1, -1);
    write_dying(F.demo[1], eye, ang, bob, right, 0, -1);
    r_sound_t a[4], b[4];
    double ta[4], tb[4];
    int na = gather_sounds(F.demo[0], a, 4, ta), nb = gather_sounds(F.demo[1], b, 4, tb);
    float off = 0;
    for (int k = 0; k < 3; k++) {
        float p = bob[k] + right[k] * 71.0f * 0.27f;
        off += na ? (a[0].origin[k] - p) * (a[0].origin[k] - p) : 0;
    }
    printf("bob's death: %d sound(s), %s at %.3f s, %.3f units from his update then; not dying: %d (%s)\n", na,
           na ? a[0].name : "-", na ? ta[0] : 0.0, sqrtf(off), nb, nb ? b[0].name : "-");
    assert_int_equal(na, 1);
    assert_string_equal(a[0].name, "bikexpl.wav");
    assert_true(fabs(ta[0] - 1.27) < 0.001);
    assert_true(sqrtf(off) < 0.01f);
    assert_int_equal(nb, 1);   // straight to limbo from normal: the game plays it too
    assert_string_equal(b[0].name, "bikexpl.wav");
    scene_files_done(&F);
}

// seek == play for a homing missile: carol's solaris turning towards bob (test_homing_scene's demo),
// drawn while playing on and by seeking backwards, at moments before, during and after its flight.
static void test_homing_seek(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3], fwd[3], right[3], up[3], bob[3], carol[3];
    scene_view(eye, ang, fwd, right, up);
    for (int k = 0; k < 3; k++) {
        carol[k] = eye[k] + 300 * fwd[k] - 150 * right[k];
        bob[k] = eye[k] + 600 * fwd[k] + 300 * right[k];
    }
    const char *dir = getenv("FS_FX_SHOTS") ? getenv("FS_FX_SHOTS") : "/tmp";
    char demo[512];
    snprintf(demo, sizeof demo, "%s/fs_fx_hseek_%d.dmo", dir, (int)getpid());
    write_homing_scene(demo, eye, ang, bob, carol, right, FSW_SOLARIS, 1);
    const double at[] = { 0.9, 1.05, 1.13, 1.21, 1.3, 1.45 };
    int moved, differ = seek_differs(demo, at, 6, &moved);
    printf("solaris homing scene: %d moments, %d differ from the one before, %d seeks differ from play\n", 6, moved,
           differ);
    assert_true(moved >= 3);
    assert_int_equal(differ, 0);
    if (!getenv("FS_FX_SHOTS"))
        remove(demo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inv_bits),
        cmocka_unit_test(test_shield_rules),
        cmocka_unit_test(test_invul_scene),
        cmocka_unit_test(test_shield_hit),
        cmocka_unit_test(test_trojax_reach),
        cmocka_unit_test(test_burning_rules),
        cmocka_unit_test(test_smoke_rules),
        cmocka_unit_test(test_dying_scene),
        cmocka_unit_test(test_smoke_scene),
        cmocka_unit_test(test_col_spark_rules),
        cmocka_unit_test(test_col_sparks_scene),
        cmocka_unit_test(test_explosion_rules),
        cmocka_unit_test(test_missile_reach),
        cmocka_unit_test(test_missile_hit_scene),
        cmocka_unit_test(test_missile_motion),
        cmocka_unit_test(test_trail_rules),
        cmocka_unit_test(test_trail_scene),
        cmocka_unit_test(test_trail_seek),
        cmocka_unit_test(test_bits_burst_rules),
        cmocka_unit_test(test_impact_sparks_seek),
        cmocka_unit_test(test_pickup_appear),
        cmocka_unit_test(test_homing_path),
        cmocka_unit_test(test_homing_scene),
        cmocka_unit_test(test_scatter_flare),
        cmocka_unit_test(test_scatter_rules),
        cmocka_unit_test(test_scatter_trail),
        cmocka_unit_test(test_mine_proximity),
        cmocka_unit_test(test_shortmine_scene),
        cmocka_unit_test(test_shockwave_scene),
        cmocka_unit_test(test_expsecondary_scene),
        cmocka_unit_test(test_shipdied_scene),
        cmocka_unit_test(test_homing_seek),
        cmocka_unit_test(test_sphere_rules),
        cmocka_unit_test(test_gravgon_scene),
        cmocka_unit_test(test_shock_sphere),
        cmocka_unit_test(test_mine_motion),
        cmocka_unit_test(test_pine_aim),
        cmocka_unit_test(test_beam_seek),
        cmocka_unit_test(test_mine_sounds),
        cmocka_unit_test(test_weapon_sounds),
        cmocka_unit_test(test_export_weapon_sounds),
        cmocka_unit_test(test_export_sound_sides),
        cmocka_unit_test(test_export_sound_follow),
        cmocka_unit_test(test_camera_loudness),
        cmocka_unit_test(test_sound_heard_from_view),
        cmocka_unit_test(test_chase_stops_at_walls),
        cmocka_unit_test(test_death_sound),
        cmocka_unit_test(test_ship_hit_sound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
