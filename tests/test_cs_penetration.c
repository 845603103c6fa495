// test_cs_penetration.c -- Counter-Strike 1.6's bullets through walls (cs16-client's
// EV_HLDM_FireBullets and EV_DescribeBulletTypeParameters, engine/hlbullet.c; docs/goldsrc.md
// "Penetration"): in crossfire.bsp a ceiling light (babtech_ceil01) 8 units thick, 37 units ahead
// of a gun at (-225, -2481, -1689) aiming along +y, with the wall (c1a4i_w1b) 196 units beyond it.
// - an ak47 (7.62 mm: power 39, distance 5000, 2 walls) goes through it on concrete (every texture:
//   shared/ has no materials.txt): 39 x 0.25 = 9 units > 8. Three hits: the light's front, its far
//   side (found by the trace back towards the gun: y -2435.97, facing +y), the wall beyond;
// - a usp (.45 ACP: 15, 500, 2) does not: 15 x 0.25 = 3 units leaves it inside the light; with a
//   materials.txt that makes the light wood (no cut) it does, 15 > 8;
// - crossfire's own usp shots hit the wall 1250 units ahead, past .45 ACP's 500: none goes
//   through, whatever the wall is made of;
// - the renderer (render/r_hldecal.c, the hits it places decals and wall puffs for) places the far
//   side's decal and puff as well, and again after a seek (the event log's replay); the decal is
//   drawn on the light's far face.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "assets/hlmat.h"
#include "engine/hlbullet.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hldecal.h"
#include "render/r_hlfx.h"
#include "render/r_local.h"
#include "render/r_models.h"
#include "render/render.h"

#define TW 320
#define TH 200

extern const decoder_t hl_decoder;

typedef struct {
    uint8_t *data;
    vfs_t *fs;
    world_t *w;
    void *st;
    renderer_t *r;
} demo_t;

// crossfire decoded until its time reaches t (its level loaded, every frame through r_frame).
static void open_crossfire(demo_t *D, double t)
{
    size_t size = 0;
    D->data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(D->data);
    D->fs = vfs_create();
    assert_int_equal(vfs_add_dir(D->fs, tu_data("goldsrc/valve")), 0);
    D->w = world_create();
    D->st = calloc(1, hl_decoder.state_size);
    D->r = r_create(TW, TH);
    dec_error_t err;
    dec_opts_t opts = {0};
    assert_int_equal(hl_decoder.open(D->st, D->data, size, D->w, &opts, &err), 0);
    uint32_t seq = 0;
    while (hl_decoder.read_frame(D->st, D->w, &err) > 0) {
        if (D->w->level_seq != seq && D->w->map[0]) {
            char e[256];
            assert_int_equal(r_load_level(D->r, D->fs, D->w, e, sizeof e), 0);
            seq = D->w->level_seq;
        }
        r_frame(D->r, D->w);
        if (D->w->time >= t)
            break;
    }
    assert_non_null(D->r->bsp);
}

static void close_crossfire(demo_t *D)
{
    hl_decoder.close(D->st);
    r_destroy(D->r);
    free(D->st);
    world_free(D->w);
    vfs_free(D->fs);
    free(D->data);
}

// The gun: another player's event (not the recording player's), standing (28 units up from its
// origin), along +y at the light.
static const float GUN[3] = { -225, -2481, -1689 };

static void aim(world_decal_t *e, const char *gun, uint32_t seed)
{
    memset(e, 0, sizeof *e);
    snprintf(e->script, sizeof e->script, "%s", gun);
    e->entity = 0;   // no player: nobody is left out of the traces
    e->seed = seed;
    e->pos[0] = GUN[0];
    e->pos[1] = GUN[1];
    e->pos[2] = GUN[2] - 28;
    e->angles[1] = 90;
}

static float dist3(const float *a, const float *b)
{
    return sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

// The table, as cs16-client has it (facts in docs/goldsrc.md).
static void test_table(void **state)
{
    (void)state;
    int power = -1, walls = -1;
    float reach = -1;
    static const struct { const char *gun; int power; float reach; int walls; } rows[] = {
        {"usp", 15, 500, 2},       {"ump45", 15, 500, 2},    {"mac10", 15, 500, 2},  {"glock18", 21, 800, 2},
        {"elite_left", 21, 800, 2}, {"tmp", 21, 800, 2},     {"mp5n", 21, 800, 2},   {"p228", 25, 800, 2},
        {"deagle", 30, 1000, 2},   {"fiveseven", 30, 2000, 2}, {"p90", 30, 2000, 2}, {"ak47", 39, 5000, 2},
        {"scout", 39, 5000, 2},    {"g3sg1", 39, 5000, 2},   {"m4a1", 35, 4000, 2},  {"famas", 35, 4000, 2},
        {"m249", 35, 4000, 2},     {"awp", 45, 8000, 3},     {"m3", 0, 0, 1},        {"xm1014", 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_int_equal(hlbullet_cs_penetration(rows[i].gun, &power, &reach, &walls), 1);
        assert_int_equal(power, rows[i].power);
        assert_float_equal(reach, rows[i].reach, 0);
        assert_int_equal(walls, rows[i].walls);
    }
    // Half-Life's guns and what fires nothing: no penetration
    assert_int_equal(hlbullet_cs_penetration("glock1", &power, &reach, &walls), 0);
    assert_int_equal(hlbullet_cs_penetration("knife", &power, &reach, &walls), 0);
}

// The hits of one gun at the light, in a world with nobody in it.
static int fire(const bsp_t *bsp, const hlmat_t *mat, const char *gun, hlbullet_t *b)
{
    world_t *w = world_create();
    world_decal_t e;
    aim(&e, gun, 4321);
    int kind = -1;
    int n = hlbullet_fire(bsp, w, &e, mat, b, HLBULLET_MAX, &kind);
    assert_int_equal(kind, HLBULLET_SOUND_CS);
    world_free(w);
    return n;
}

static void test_through_the_light(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    demo_t D;
    open_crossfire(&D, 0.5);
    const bsp_t *bsp = D.r->bsp;
    hlbullet_t b[HLBULLET_MAX];
    // the ak47 on concrete: front, far side, the wall beyond
    int n = fire(bsp, NULL, "ak47", b);
    for (int i = 0; i < n; i++)
        printf("  ak47 hit %d: %s (%.3f %.3f %.3f) normal (%g %g %g) %s, {shot%d, type %c\n", i, b[i].exit ? "far side" : "front",
               b[i].endpos[0], b[i].endpos[1], b[i].endpos[2], b[i].normal[0], b[i].normal[1], b[i].normal[2],
               b[i].texture, b[i].decal, b[i].type ? b[i].type : '-');
    assert_int_equal(n, 3);
    assert_int_equal(b[0].exit, 0);
    assert_int_equal(b[0].model, 0);
    assert_string_equal(b[0].texture, "babtech_ceil01");
    assert_float_equal(b[0].endpos[1], -2444.031, 0.01);   // 1/32 short of the face at -2444
    assert_float_equal(dist3(b[0].endpos, GUN), 36.97, 0.01);
    assert_float_equal(b[0].normal[1], -1, 1e-6);
    assert_int_equal(b[0].type, HLMAT_CONCRETE);
    // the far side: the trace back from 9 units past the front (-2435.03) meets the face at -2436
    assert_int_equal(b[1].exit, 1);
    assert_int_equal(b[1].model, 0);
    assert_float_equal(b[1].src[1], -2444.031 + 9, 0.01);
    assert_float_equal(b[1].endpos[0], GUN[0], 0.01);
    assert_float_equal(b[1].endpos[1], -2435.969, 0.01);
    assert_float_equal(b[1].endpos[2], GUN[2], 0.01);
    assert_float_equal(b[1].normal[1], 1, 1e-6);   // facing away from the gun
    assert_int_equal(b[1].type, HLMAT_CONCRETE);   // the front's material
    assert_true(b[1].decal >= 1 && b[1].decal <= 5);
    // the wall beyond, on the rest of the range halved: (8192 - 36.97) / 2 = 4077.5 from -2435.03
    assert_int_equal(b[2].exit, 0);
    assert_string_equal(b[2].texture, "c1a4i_w1b");
    assert_float_equal(b[2].endpos[1], -2240.031, 0.01);
    assert_float_equal(b[2].src[1], -2435.031, 0.01);
    assert_float_equal(b[2].end[1], -2435.031 + (8192 - 36.969) * 0.5, 0.05);
    for (int i = 0; i < 3; i++)
        assert_int_equal(b[i].bullet, 0);
    // the usp on concrete: 3 units in, inside the light still: the front only
    assert_int_equal(fire(bsp, NULL, "usp", b), 1);
    assert_float_equal(b[0].endpos[1], -2444.031, 0.01);
    // so too the glock18 (21 x 0.25 = 5) and the deagle (30 x 0.25 = 7); the awp (45: 11) goes
    // through like the ak47, then stops in the wall beyond (11 x 0.25 = 2 units in)
    assert_int_equal(fire(bsp, NULL, "glock18", b), 1);
    assert_int_equal(fire(bsp, NULL, "deagle", b), 1);
    assert_int_equal(fire(bsp, NULL, "awp", b), 3);
    assert_float_equal(b[1].endpos[1], -2435.969, 0.01);
    // the shotgun's buckshot never goes through: 9 pellets, 9 hits, none a far side
    n = fire(bsp, NULL, "m3", b);
    assert_int_equal(n, 9);
    for (int i = 0; i < n; i++) {
        assert_int_equal(b[i].exit, 0);
        assert_int_equal(b[i].bullet, i);
    }
    // the usp through a wooden light: no cut, 15 units in, out on the far side at the same place
    static const char wood[] = "W babtech_ceil01\n";
    hlmat_t mat;
    assert_int_equal(hlmat_load(&mat, wood, strlen(wood), HLMAT_CS), 1);
    n = fire(bsp, &mat, "usp", b);
    assert_int_equal(n, 3);
    assert_int_equal(b[0].type, HLMAT_WOOD);
    assert_int_equal(b[1].exit, 1);
    assert_int_equal(b[1].type, HLMAT_WOOD);   // a wooden far side: a brown puff, no sparks
    assert_float_equal(b[1].src[1], -2444.031 + 15, 0.01);
    assert_float_equal(b[1].endpos[1], -2435.969, 0.01);
    assert_string_equal(b[2].texture, "c1a4i_w1b");
    assert_int_equal(b[2].type, HLMAT_CONCRETE);
    close_crossfire(&D);
}

// crossfire's own shots: every usp bullet hits the wall 1250 units ahead (more than .45 ACP's
// 500): one hit each, even when the wall is made wood (no power cut).
static void test_crossfire_none(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    demo_t D;
    open_crossfire(&D, 1e9);
    world_t *w = D.w;
    int shots = 0;
    for (uint32_t i = 0; i < w->decal_log_count && i < WORLD_MAX_DECAL_LOG; i++) {
        const world_decal_t *e = &w->decal_log[i];
        if (e->te || strcmp(e->script, "usp"))
            continue;
        hlbullet_t b[HLBULLET_MAX];
        int kind;
        assert_int_equal(hlbullet_fire(D.r->bsp, w, e, NULL, b, HLBULLET_MAX, &kind), 1);
        assert_int_equal(b[0].model, 0);
        float d = dist3(b[0].src, b[0].endpos);
        char text[64];
        snprintf(text, sizeof text, "W %s\n", b[0].texture);
        hlmat_t mat;
        assert_int_equal(hlmat_load(&mat, text, strlen(text), HLMAT_CS), 1);
        assert_int_equal(hlbullet_fire(D.r->bsp, w, e, &mat, b, HLBULLET_MAX, &kind), 1);
        assert_int_equal(b[0].type, HLMAT_WOOD);
        printf("  usp shot at %.2f s: the wall (%s) %.0f units ahead, past 500: 1 hit\n", e->time, b[0].texture, d);
        assert_true(d > 1200 && d < 1300);
        shots++;
    }
    assert_true(shots >= 3);
    close_crossfire(&D);
}

// Where p is on the TW x TH screen of the view last drawn (r_main.c's projection: 4:3 with
// pixels 1.2 tall); 0 when behind the eye.
static int project(const renderer_t *r, const float *p, float *sx, float *sy)
{
    r_cam_state_t cs;
    r_camera_state(r, &cs);
    float pi = (float)M_PI / 180, yaw = cs.angles[1] * pi, pitch = cs.angles[0] * pi, roll = cs.angles[2] * pi;
    float sy_ = sinf(yaw), cy = cosf(yaw), sp = sinf(pitch), cp = cosf(pitch), sr = sinf(roll), cr = cosf(roll);
    float fwd[3] = {cp * cy, cp * sy_, -sp};
    float right[3] = {-sr * sp * cy + cr * sy_, -sr * sp * sy_ - cr * cy, -sr * cp};
    float up[3] = {cr * sp * cy + sr * sy_, cr * sp * sy_ - sr * cy, cr * cp};
    float d[3] = {p[0] - cs.origin[0], p[1] - cs.origin[1], p[2] - cs.origin[2]};
    float z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
    if (z < 1)
        return 0;
    float xscale = (float)(TW / 2.0 / tan(cs.fov * M_PI / 360)), yscale = xscale / 1.2f;
    *sx = TW / 2.0f + xscale * (d[0] * right[0] + d[1] * right[1] + d[2] * right[2]) / z;
    *sy = TH / 2.0f - yscale * (d[0] * up[0] + d[1] * up[1] + d[2] * up[2]) / z;
    return 1;
}

// The wall puffs listed at the frame's time (models 225..228: crossfire's wall_puff1..4.spr).
static int list_puffs(demo_t *D, r_hlsprite_t *out, int max)
{
    r_render(D->r, D->w, D->w->time);
    r_hlsprite_t list[HLFX_MAX_SPRITES + 1 + HLFX_MAX_PUFFS];
    int n = r_hlfx_sprites(r_models_hlfx(D->r->models), D->w->time, list, HLFX_MAX_SPRITES + 1 + HLFX_MAX_PUFFS), np = 0;
    for (int i = 0; i < n && np < max; i++)
        if (list[i].model >= 225 && list[i].model <= 228)
            out[np++] = list[i];
    return np;
}

// One event of `gun` at the light logged at the frame's time (+ `age` seconds before it), placed by
// the next r_frame: the decals it added and the puffs listed then.
static int shoot_light(demo_t *D, const char *gun, double age, r_hlsprite_t *puffs, int *npuffs)
{
    int before = r_hldecal_count(D->r);
    world_decal_t *e = world_add_decal(D->w);
    assert_non_null(e);
    aim(e, gun, 777);
    e->time = D->w->time - age;
    r_frame(D->r, D->w);
    int added = r_hldecal_count(D->r) - before;
    if (puffs)
        *npuffs = list_puffs(D, puffs, 16);
    return added;
}

// The renderer: the ak47's three hits each get a decal and (the event fresh) a wall puff, the far
// side's among them, where the usp gets one; a seek (the log's replay) places the same decals and
// makes the same puffs.
static void test_decals_and_puffs(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    demo_t A, U;
    open_crossfire(&A, 0.5);   // before the demo's first shot (1.86 s): no puffs of its own
    open_crossfire(&U, 0.5);
    r_hlsprite_t pa[16], pu[16], again[16];
    int na = 0, nu = 0;
    assert_int_equal(list_puffs(&A, pa, 16), 0);
    int da = shoot_light(&A, "ak47", 0, pa, &na);
    int du = shoot_light(&U, "usp", 0, pu, &nu);
    printf("  at %.2f s: ak47 %d decals (faces), %d puffs; usp %d decals, %d puffs\n", A.w->time, da, na, du, nu);
    assert_int_equal(na, 3);
    assert_int_equal(nu, 1);
    assert_true(du >= 1);
    assert_true(da >= du + 2);   // the far side's and the wall's at least
    // the puffs start at the hits (age 0): the front, the far side, the wall
    hlbullet_t b[HLBULLET_MAX];
    world_decal_t e;
    aim(&e, "ak47", 777);
    int kind;
    assert_int_equal(hlbullet_fire(A.r->bsp, A.w, &e, NULL, b, HLBULLET_MAX, &kind), 3);
    for (int i = 0; i < 3; i++) {
        int found = 0;
        for (int k = 0; k < na; k++)
            found += dist3(pa[k].org, b[i].endpos) < 0.5f;
        assert_int_equal(found, 1);
    }
    // a seek: the log's replay places them again
    int count = r_hldecal_count(A.r);
    r_clear_transients(A.r, 0);
    r_frame(A.r, A.w);
    assert_int_equal(r_hldecal_count(A.r), count);
    int nagain = list_puffs(&A, again, 16);
    assert_int_equal(nagain, na);
    for (int k = 0; k < na; k++) {
        assert_int_equal(again[k].model, pa[k].model);
        assert_float_equal(dist3(again[k].org, pa[k].org), 0, 1e-4);
    }
    close_crossfire(&A);
    close_crossfire(&U);
}

// What is drawn: a free camera 120 units past the light looking back at its far face; the ak47's
// event (3 s old: no sparks, particles or puffs any more, the decals only) against the usp's at
// the same place: the pixels that differ are the far side's decal, around where its hit projects.
static void test_far_side_drawn(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    demo_t D[2];
    const char *guns[2] = {"ak47", "usp"};
    uint8_t *rgb[2];
    float sx = 0, sy = 0;
    const float exit_hit[3] = { GUN[0], -2435.969f, GUN[2] };
    for (int g = 0; g < 2; g++) {
        open_crossfire(&D[g], 0.5);
        shoot_light(&D[g], guns[g], 3, NULL, NULL);
        r_camera_t cam;
        memset(&cam, 0, sizeof cam);
        cam.mode = R_CAM_FREE;
        cam.origin[0] = GUN[0];
        cam.origin[1] = -2316;
        cam.origin[2] = -1700;
        cam.angles[0] = -5;
        cam.angles[1] = 270;
        cam.pose_set = 1;
        r_set_camera(D[g].r, &cam);
        r_frame(D[g].r, D[g].w);
        r_render(D[g].r, D[g].w, D[g].w->time);
        assert_int_equal(project(D[g].r, exit_hit, &sx, &sy), 1);
        rgb[g] = malloc((size_t)TW * TH * 3);
        r_frame_rgb(D[g].r, rgb[g]);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/cs_penetration.png", tu_tmpdir(NULL));
    assert_int_equal(tu_write_png_rgb(path, rgb[0], TW, TH), 0);
    int changed = 0, darker = 0;
    float far = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            const uint8_t *a = rgb[0] + 3 * (y * TW + x), *u = rgb[1] + 3 * (y * TW + x);
            if (!memcmp(a, u, 3))
                continue;
            changed++;
            darker += a[0] + a[1] + a[2] < u[0] + u[1] + u[2];
            float d = sqrtf((x + 0.5f - sx) * (x + 0.5f - sx) + (y + 0.5f - sy) * (y + 0.5f - sy));
            far = d > far ? d : far;
        }
    printf("  far side projects at (%.1f, %.1f); %d pixels differ (%d darker), all within %.1f pixels of it\n", sx, sy,
           changed, darker, far);
    assert_true(changed >= 10);
    assert_true(darker * 2 >= changed);   // a bullet hole darkens
    assert_true(far < 16);                // a {shot decal is 16 texels or less, ~120 units away
    tu_golden("cs_penetration", path, "tests/golden/goldsrc/cs_penetration.png", 0.01);
    for (int g = 0; g < 2; g++) {
        free(rgb[g]);
        close_crossfire(&D[g]);
    }
}

// A gun on crossfire's field (0, -1500, -1600): 150 units over the pavement, 3664 units under the
// sky brush's top (its `sky` faces at z 2048 facing down, the trace going on through the sky volume,
// which is open, to the void at z 2064, where a `sky` face looks in too), 896 units from the wall
// `out_w6b` along +x.
static const float SKYGUN[3] = { 0, -1500, -1600 };

static void aim_from(world_decal_t *e, const char *gun, uint32_t seed, const float *at, float pitch, float yaw)
{
    memset(e, 0, sizeof *e);
    snprintf(e->script, sizeof e->script, "%s", gun);
    e->seed = seed;
    e->pos[0] = at[0];
    e->pos[1] = at[1];
    e->pos[2] = at[2] - 28;   // standing: the gun 28 units over the origin
    e->angles[0] = pitch;
    e->angles[1] = yaw;
}

// The newer cs16-client's isSky (EV_HLDM_PlayTextureSound: the world's texture named "sky";
// EV_HLDM_DecalGunshot then returns at once): a bullet on the sky makes its texture's sound
// (concrete) and nothing else: no decal, no puff (nor sparks, impact particles or a ricochet:
// test_goldsrc_impact's test_cs_sky_sound), no far side. The same guns at the wall beside: a decal
// and a puff.
static void test_sky(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    demo_t D;
    open_crossfire(&D, 0.5);
    const bsp_t *bsp = D.r->bsp;
    world_t *empty = world_create();
    static const char *const guns[] = { "usp", "ak47", "awp", "m3" };
    for (size_t g = 0; g < sizeof guns / sizeof guns[0]; g++) {
        world_decal_t e;
        hlbullet_t b[HLBULLET_MAX], c[HLBULLET_MAX];
        int kind;
        aim_from(&e, guns[g], 99, SKYGUN, -90, 0);   // straight up
        int n = hlbullet_fire(bsp, empty, &e, NULL, b, HLBULLET_MAX, &kind);
        aim_from(&e, guns[g], 99, SKYGUN, 0, 0);     // along +x at the wall
        int nc = hlbullet_fire(bsp, empty, &e, NULL, c, HLBULLET_MAX, &kind);
        printf("  %s up: %d hits, the first %s at z %.2f (sky %d, {shot%d); at the wall: %d hits, %s {shot%d (sky %d)\n",
               guns[g], n, b[0].texture, b[0].endpos[2], b[0].sky, b[0].decal, nc, c[0].texture, c[0].decal, c[0].sky);
        // the m3's 9 pellets, every other gun one bullet: on the sky each is one hit (the
        // awp's and the ak47's range left it walls: the way on starts in the void, which ends it)
        assert_int_equal(n, strcmp(guns[g], "m3") ? 1 : 9);
        for (int i = 0; i < n; i++) {
            assert_int_equal(b[i].model, 0);
            assert_int_equal(b[i].entity, 0);
            assert_string_equal(b[i].texture, "sky");
            assert_int_equal(b[i].sky, 1);
            assert_int_equal(b[i].decal, 0);
            assert_int_equal(b[i].exit, 0);
            assert_int_equal(b[i].type, HLMAT_CONCRETE);   // "sky" is in no materials.txt
        }
        assert_float_equal(b[0].endpos[2], 2063.969, 0.01);
        assert_true(nc >= 1);
        assert_string_equal(c[0].texture, "out_w6b");
        assert_int_equal(c[0].sky, 0);
        assert_true(c[0].decal >= 1 && c[0].decal <= 5);
        assert_float_equal(c[0].endpos[0], 895.969, 0.01);
    }
    world_free(empty);
    // the renderer: the ak47's event up places no decal and lists no puff; at the wall it does
    r_hlsprite_t puffs[16];
    assert_int_equal(list_puffs(&D, puffs, 16), 0);
    for (int up = 1; up >= 0; up--) {
        int before = r_hldecal_count(D.r);
        world_decal_t *e = world_add_decal(D.w);
        assert_non_null(e);
        aim_from(e, "ak47", 99, SKYGUN, up ? -90 : 0, 0);
        e->time = D.w->time;
        r_frame(D.r, D.w);
        int added = r_hldecal_count(D.r) - before, np = list_puffs(&D, puffs, 16);
        printf("  renderer, the ak47 %s: %d decals placed, %d puffs listed\n", up ? "up at the sky" : "at the wall", added,
               np);
        if (up) {
            assert_int_equal(added, 0);
            assert_int_equal(np, 0);
        } else {
            assert_true(added >= 1);
            assert_int_equal(np, 1);
            assert_float_equal(puffs[0].org[0], 895.969, 0.01);
        }
    }
    close_crossfire(&D);
}

// The client's first trace that starts inside something (the gun inside a brush entity, or inside
// another player's box): the engine's startsolid makes its fraction 0 (GoldSrc's _PM_PlayerTrace and
// Xash3D FWGS's PM_PlayerTraceExt: allsolid -> startsolid -> fraction 0, the smallest of the
// physents'), and EV_HLDM_FireBullets ends the bullet on flCurrentDistance 0: no hit at all, where
// the code before went on to the wall beyond. The shooter's own box is left out of the traces.
static void test_gun_inside(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    demo_t D;
    open_crossfire(&D, 0.5);
    const bsp_t *bsp = D.r->bsp;
    // a brush model whose bounds' centre is inside its brushes
    int sub = -1;
    vec3_t centre = {0, 0, 0};
    for (int m = 1; m < bsp->num_models && sub < 0; m++) {
        vec3_t a, z;
        for (int k = 0; k < 3; k++)
            a[k] = z[k] = (bsp->models[m].mins[k] + bsp->models[m].maxs[k]) * 0.5f;
        z[2] += 0.5f;
        bsp_trace_t tr;
        bsp_trace(bsp, bsp->models[m].headnode, a, z, &tr);
        if (tr.startsolid && tr.allsolid) {
            sub = m;
            memcpy(centre, a, sizeof centre);
        }
    }
    assert_true(sub > 0);
    world_t *w = world_create();
    char name[16];
    snprintf(name, sizeof name, "*%d", sub);
    assert_int_equal(world_set_model(w, 1, name), 0);
    assert_int_equal(world_set_model(w, 2, "models/player.mdl"), 0);
    world_decal_t e;
    hlbullet_t b[HLBULLET_MAX];
    int kind;
    aim_from(&e, "ak47", 99, SKYGUN, 0, 0);
    int alone = hlbullet_fire(bsp, w, &e, NULL, b, HLBULLET_MAX, &kind);
    assert_true(alone >= 1);
    assert_string_equal(b[0].texture, "out_w6b");
    // the brush entity (SOLID_BSP) placed so that the gun is at its centre
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = 1;
    st.solid_type = HL_SOLID_BSP;
    for (int k = 0; k < 3; k++)
        st.origin[k] = SKYGUN[k] - centre[k];
    world_begin_frame(w, 1);
    assert_int_equal(world_entity_update(w, 40, &st), 0);
    int n = hlbullet_fire(bsp, w, &e, NULL, b, HLBULLET_MAX, &kind);
    printf("  the gun inside brush model %s (centre %.0f %.0f %.0f): %d hits (alone: %d)\n", name, centre[0], centre[1],
           centre[2], n, alone);
    assert_int_equal(n, 0);
    // another player standing on the gun: inside his box, nothing; the shooter himself: left out
    w->maxclients = 2;
    world_begin_frame(w, 2);
    entity_state_clear(&st);
    st.modelindex = 2;
    st.solid_type = HL_SOLID_SLIDEBOX;
    memcpy(st.origin, e.pos, sizeof st.origin);
    assert_int_equal(world_entity_update(w, 2, &st), 0);
    n = hlbullet_fire(bsp, w, &e, NULL, b, HLBULLET_MAX, &kind);
    e.entity = 2;
    int own = hlbullet_fire(bsp, w, &e, NULL, b, HLBULLET_MAX, &kind);
    printf("  the gun inside another player's box: %d hits; inside the shooter's own: %d\n", n, own);
    assert_int_equal(n, 0);
    assert_int_equal(own, alone);
    assert_string_equal(b[0].texture, "out_w6b");
    world_free(w);
    close_crossfire(&D);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_through_the_light),
        cmocka_unit_test(test_crossfire_none),
        cmocka_unit_test(test_decals_and_puffs),
        cmocka_unit_test(test_far_side_drawn),
        cmocka_unit_test(test_sky),
        cmocka_unit_test(test_gun_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
