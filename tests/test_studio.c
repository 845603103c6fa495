// test_studio.c -- GoldSrc studio models: every shipped .mdl, pinned counts and poses, a rendered image, hostile copies
//
// Set DEMOPLAY_MODELS_PNG=dir to also write the rendered test images there.
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "assets/pal.h"
#include "assets/studio.h"
#include "engine/vfs.h"
#include "engine/world.h"
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
    memset(e.controller, 127, 4);   // as the game's servers set them: the head straight
    // barney facing the camera, walking; a scientist turned aside; a crossbow on the floor
    vec3_t org = {110, 25, -36}, ang = {0, 200, 0};
    r_studio_entity(&s.v, barney, org, ang, &e, 0, 0.3, 160);
    vec3_t org2 = {130, -40, -36}, ang2 = {0, 120, 0};
    e.sequence = 13;
    r_studio_entity(&s.v, sci, org2, ang2, &e, 0, 1.0, 160);
    vec3_t org3 = {60, 0, -30}, ang3 = {0, 45, 0};
    e.sequence = 0;
    r_studio_entity(&s.v, gun, org3, ang3, &e, 0, 0, 200);
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


// ---- the game's rules: controllers, blends, gait, chrome, attachments ---------------------------

// Angle (degrees) of the rotation between two bone matrices.
// The angle of the rotation a^T b, from its antisymmetric part and its trace (atan2, not
// acos of the trace: acos near 1 turns the float matrices' rounding into ~0.05 degrees, more
// with x87 floats, even when a and b are the same bytes).
static double rot_between(const float a[3][4], const float b[3][4])
{
    double m[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            m[i][j] = 0;
            for (int k = 0; k < 3; k++)
                m[i][j] += (double)a[k][i] * b[k][j];   // a^T b
        }
    double sx = m[2][1] - m[1][2], sy = m[0][2] - m[2][0], sz = m[1][0] - m[0][1];
    double s = sqrt(sx * sx + sy * sy + sz * sz) / 2, c = (m[0][0] + m[1][1] + m[2][2] - 1) / 2;
    return atan2(s, c) * 180.0 / M_PI;
}

static void test_rules(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    studio_t m;
    char err[256] = "";
    // barney's controller 0 turns bone 21 (his neck) about x, -60..60 degrees over 0..255
    assert_int_equal(load(&m, "goldsrc/valve", "models/barney.mdl", NULL, err, sizeof err), 0);
    assert_int_equal(m.controllers[0].bone, 21);
    assert_true(fabsf(studio_controller_value(&m, 0, 255) - 60.0f) < 1e-4f);
    assert_true(fabsf(studio_controller_value(&m, 0, 0) + 60.0f) < 1e-4f);
    assert_true(fabsf(studio_controller_value(&m, 0, 127) + 0.2353f) < 1e-3f);
    // the mouth (controller 1, slot 4): 0..45 degrees over 0..64
    assert_true(fabsf(studio_controller_value(&m, 1, 32) - 22.5f) < 1e-4f);
    studio_pose_t p;
    assert_int_equal(studio_pose_alloc(&m, &p), 0);
    uint8_t c0[5] = {127, 0, 0, 0, 0}, c1[5] = {255, 0, 0, 0, 0};
    studio_pose(&m, &p, 0, 0, 0, c0, 0);
    float rest[3][4];
    memcpy(rest, p.bones[21], sizeof rest);
    studio_pose(&m, &p, 0, 0, 0, c1, 0);
    double turned = rot_between((const float(*)[4])rest, (const float(*)[4])p.bones[21]);
    print_message("barney bone 21: controller 127 -> 255 turns it %.3f degrees\n", turned);
    assert_true(fabs(turned - 60.2353) < 0.01);
    studio_pose(&m, &p, 0, 0, 0, c0, 0);
    float par[3][4];
    memcpy(par, p.bones[m.bones[21].parent], sizeof par);
    studio_pose(&m, &p, 0, 0, 0, c1, 0);
    assert_true(rot_between((const float(*)[4])par, (const float(*)[4])p.bones[m.bones[21].parent]) < 0.05);   // its parent stays
    studio_pose_free(&p);
    studio_free(&m);

    // gordon's aim_2 (sequence 14) blends two poses, -45..45 degrees of aim
    assert_int_equal(load(&m, "goldsrc/valve", "models/player/gordon/gordon.mdl", NULL, err, sizeof err), 0);
    assert_int_equal(studio_pose_alloc(&m, &p), 0);
    assert_int_equal(m.seqs[14].numblends, 2);
    int hand = -1;   // a vertex on "Bip01 R Hand"
    for (int i = 0; i < m.numbones && hand < 0; i++)
        if (!strcmp(m.bones[i].name, "Bip01 R Hand"))
            for (int k = 0; k < m.numverts; k++)
                if (m.vert_bone[k] == i) {
                    hand = k;
                    break;
                }
    assert_true(hand >= 0);
    float z[3];
    for (int b = 0; b < 3; b++) {
        studio_anim_t a = {14, 0, {127.5f * (float)b, 0}, NULL, 0, 0, 0};
        studio_pose_anim(&m, &p, &a);
        z[b] = p.verts[hand][2];
        print_message("aim_2 blend %5.1f: hand vertex %d at %.3f %.3f %.3f\n", 127.5 * b, hand,
                      (double)p.verts[hand][0], (double)p.verts[hand][1], (double)p.verts[hand][2]);
    }
    // pinned from the printed poses: 255 aims up, the hand 9.7 units higher than at 0
    assert_true(fabsf(z[0] - 5.976f) < 0.01f && fabsf(z[1] - 8.476f) < 0.01f && fabsf(z[2] - 15.656f) < 0.01f);
    // the player renderer's blend from the pitch: pitch * 3 inside -45..45, the rest turns the model
    float pitch = 10;
    assert_int_equal(r_studio_player_blend(&m, 14, &pitch), 212);   // 255 * (30 + 45) / 90
    assert_true(pitch == 0);
    pitch = 20;
    assert_int_equal(r_studio_player_blend(&m, 14, &pitch), 255);
    assert_true(fabsf(pitch - 5) < 1e-5f);
    // the gait bones: the legs (and the pelvis's other children), not the spine and what hangs on it
    int spine = -1, thigh = -1;
    for (int i = 0; i < m.numbones; i++) {
        if (!strcmp(m.bones[i].name, "Bip01 Spine"))
            spine = i;
        if (!strcmp(m.bones[i].name, "Bip01 L Leg"))
            thigh = i;
    }
    assert_true(spine > 0 && thigh > 0 && hand >= 0);
    assert_int_equal(m.gait_bone[spine], 0);
    assert_int_equal(m.gait_bone[thigh], 1);
    assert_int_equal(m.gait_bone[m.vert_bone[hand]], 0);

    // the gait rules: legs face the movement, the torso turns by the rest (at most 120 degrees)
    r_studio_gait_t g = {0};
    float vel[3] = {0, 100, 0}, still[3] = {0, 0, 0};
    float turn = r_studio_gait_step(&g, &m, 13, 0, vel, 0.1f);   // first sight: no steps yet
    assert_true(fabsf(g.gaityaw - 90) < 1e-4f && fabsf(turn + 90) < 1e-4f);
    assert_int_equal((int)((turn / 4.0f + 30.0f) / (60.0f / 255.0f)), 31);   // the torso controllers
    turn = r_studio_gait_step(&g, &m, 13, 0, vel, 0.1f);   // 10 units of "walk" (56.5 units a cycle of 24)
    assert_true(fabsf(g.gaitframe - 10.0f / 56.5f * 24.0f) < 1e-3f);
    float back[3] = {-100, 0, 0};   // walking backwards: legs turned round, the cycle runs back
    turn = r_studio_gait_step(&g, &m, 13, 0, back, 0.1f);
    assert_true(fabsf(turn) < 1e-4f && fabsf(g.gaityaw - 360) < 1e-4f);
    assert_true(fabsf(g.gaitframe - (10.0f - 10.0f) / 56.5f * 24.0f) < 1e-3f);
    r_studio_gait_t h = {0, 0, 0, 1};   // standing, legs at 0, body at 90: a quarter second behind
    turn = r_studio_gait_step(&h, &m, 13, 90, still, 0.1f);
    assert_true(fabsf(h.gaityaw - 36) < 1e-4f && fabsf(turn - 54) < 1e-4f);
    // a pose with the gait: the thigh from "walk", the spine from aim_2
    studio_anim_t a = {14, 0, {127, 0}, NULL, 0, 13, 6};
    studio_pose_anim(&m, &p, &a);
    float th[3][4], hv[3];
    memcpy(th, p.bones[thigh], sizeof th);
    memcpy(hv, p.verts[hand], sizeof hv);
    studio_anim_t w = {13, 6, {0, 0}, NULL, 0, 0, 0};
    studio_pose_anim(&m, &p, &w);
    assert_true(memcmp(th, p.bones[thigh], sizeof th) == 0);   // the legs walk
    float dh = fabsf(hv[2] - p.verts[hand][2]) + fabsf(hv[0] - p.verts[hand][0]);
    print_message("gait pose: the hand %.2f units from where walking alone puts it\n", (double)dh);
    assert_true(dh > 2);   // the arms aim
    studio_pose_free(&p);
    studio_free(&m);

    // chrome: a bone 100 units ahead of the eye (looking along +x, right = -y)
    float bone[3] = {100, 0, 0}, eye[3] = {0, 0, 0}, vright[3] = {0, -1, 0}, right[3], up[3], cs, ct;
    r_studio_chrome_dirs(bone, eye, vright, right, up);
    assert_true(fabsf(up[2] + 1) < 1e-6f && fabsf(right[1] + 1) < 1e-6f);
    float n_up[3] = {0, 0, 1}, n_right[3] = {0, -1, 0}, n_eye[3] = {-1, 0, 0};
    r_studio_chrome_texel(n_up, right, up, &cs, &ct);
    assert_true(cs == 32 && ct == 0);        // a normal facing up reads the top row's middle
    r_studio_chrome_texel(n_right, right, up, &cs, &ct);
    assert_true(cs == 64 && ct == 32);       // facing the eye's right: the right edge
    r_studio_chrome_texel(n_eye, right, up, &cs, &ct);
    assert_true(cs == 32 && ct == 32);       // facing the eye: the centre

    // attachments: the 9 mm handgun's muzzle (attachment 0) at the shoot sequence's first frame
    assert_int_equal(load(&m, "goldsrc/valve", "models/v_9mmhandgun.mdl", NULL, err, sizeof err), 0);
    assert_int_equal(studio_pose_alloc(&m, &p), 0);
    studio_pose(&m, &p, 3, 0, 0, NULL, 0);
    float at[3];
    assert_int_equal(studio_attachment(&m, &p, 0, at), 0);
    print_message("v_9mmhandgun attachment 0 (shoot, frame 0): %.3f %.3f %.3f\n", (double)at[0], (double)at[1],
                  (double)at[2]);
    assert_true(fabsf(at[0] - 22.982f) < 0.01f && fabsf(at[1] + 3.477f) < 0.01f && fabsf(at[2] + 4.939f) < 0.01f);
    assert_int_equal(studio_attachment(&m, &p, m.numattachments, at), -1);
    studio_pose_free(&p);
    studio_free(&m);
}

// Gordon walking to his left, aiming up, torso turned to the camera; barney's head turned by his
// controller; the 9 mm handgun firing with its chrome glove.
static void test_render_rules(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    tu_scene_t s;
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);
    vfs_t *fs = vfs_create();
    assert_true(vfs_add_dir(fs, tu_data("goldsrc/valve")) >= 0);
    r_studio_model_t *gordon = load_r(fs, "models/player/gordon/gordon.mdl", s.palette);
    r_studio_model_t *barney = load_r(fs, "models/barney.mdl", s.palette);
    r_studio_model_t *gun = load_r(fs, "models/v_9mmhandgun.mdl", s.palette);
    r_studio_players_t *ps = r_studio_players_create();
    assert_non_null(ps);
    entity_state_t e;
    entity_state_clear(&e);
    e.framerate = 1;
    e.sequence = 14;       // aim_2
    e.gaitsequence = 13;   // walk
    // facing the camera (yaw 180), pitch 10 (the game sends a third of the view's), moving along -y
    vec3_t org = {100, 22, -30}, ang = {10, 180, 0}, vel = {0, -150, 0};
    for (int i = 0; i < 4; i++) {   // four frames of 0.05 s: the legs take steps
        s.v.time = 0.05 * i;
        tu_scene_clear(&s);
        r_studio_player(&s.v, ps, 0, gordon, org, ang, &e, vel, s.v.time, 160);
    }
    entity_state_clear(&e);
    e.framerate = 1;
    e.controller[0] = 230;   // head turned 48 degrees
    vec3_t org2 = {110, -30, -36}, ang2 = {0, 180, 0};
    r_studio_entity(&s.v, barney, org2, ang2, &e, 0, 0, 160);
    int px = 0;
    for (int i = 0; i < s.w * s.h; i++)
        px += s.buf[i] != 0;
    print_message("studio rules scene: %d pixels\n", px);
    const char *dir = getenv("DEMOPLAY_MODELS_PNG");
    char out[512];
    snprintf(out, sizeof out, "%s/studio_players.png", dir ? dir : "/tmp");
    tu_scene_write(&s, out);
    tu_golden("studio players", out, "tests/golden/studio_players.png", 0.01);

    tu_scene_clear(&s);
    r_studio_view_model(&s.v, gun, 3, 0, 0.12, 160);   // "shoot", 0.12 s in: the slide back
    px = 0;
    for (int i = 0; i < s.w * s.h; i++)
        px += s.buf[i] != 0;
    print_message("view model firing: %d pixels\n", px);
    snprintf(out, sizeof out, "%s/studio_viewmodel.png", dir ? dir : "/tmp");
    tu_scene_write(&s, out);
    assert_in_range(px, 1500, 4000);
    tu_golden("studio view model", out, "tests/golden/studio_viewmodel.png", 0.01);
    r_studio_players_free(ps);
    r_studio_free(gordon);
    r_studio_free(barney);
    r_studio_free(gun);
    vfs_free(fs);
    tu_scene_free(&s);
}

// ---- player colours (GoldSrc's DM_Base / remap textures) -----------------------------------------

// Where a and b differ: count, and the box of those pixels (x0, y0, x1, y1).
static int diff_px(const tu_scene_t *s, const uint8_t *a, const uint8_t *b, int box[4])
{
    int n = 0;
    box[0] = s->w, box[1] = s->h, box[2] = -1, box[3] = -1;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++)
            if (a[y * s->w + x] != b[y * s->w + x]) {
                n++;
                box[0] = x < box[0] ? x : box[0];
                box[1] = y < box[1] ? y : box[1];
                box[2] = x > box[2] ? x : box[2];
                box[3] = y > box[3] ? y : box[3];
            }
    return n;
}

// The rules: which names are remap textures and their ranges, the hue replacement (values worked by
// hand from the engine's formula), the remapped pixels (only the two ranges' texels change); then
// gordon drawn as player 1 in two colour pairs: the pixels differ, all of them where his DM_Base
// texture is drawn (found by drawing it filled with flat colours), none where his face is.
static void test_player_colours(void **state)
{
    (void)state;
    int lo, mid, hi;
    assert_int_equal(studio_remap_ranges("DM_Base.bmp", &lo, &mid, &hi), 1);
    assert_true(lo == 160 && mid == 191 && hi == 223);
    assert_int_equal(studio_remap_ranges("dm_base.bmp", &lo, &mid, &hi), 1);   // recon.mdl, gman.mdl
    assert_true(lo == 160 && mid == 191 && hi == 223);
    assert_int_equal(studio_remap_ranges("remap1_032_064_128.bmp", &lo, &mid, &hi), 1);
    assert_true(lo == 32 && mid == 64 && hi == 128);
    assert_int_equal(studio_remap_ranges("REMAPa_999_-10_7", &lo, &mid, &hi), 1);   // clamped, short
    assert_true(lo == 255 && mid == 0 && hi == 7);
    assert_int_equal(studio_remap_ranges("remap", &lo, &mid, &hi), 1);
    assert_true(lo == 0 && mid == 0 && hi == 0);
    assert_int_equal(studio_remap_ranges("DM_Face.bmp", &lo, &mid, &hi), 0);
    assert_int_equal(studio_remap_ranges("face.bmp", &lo, &mid, &hi), 0);

    // (200, 100, 50): value 200/255, saturation 0.75, least 50/255
    uint8_t pal[768];
    memset(pal, 0, sizeof pal);
    for (int i = 1; i < 256; i++)
        pal[i * 3] = 200, pal[i * 3 + 1] = 100, pal[i * 3 + 2] = 50;
    uint8_t orig[768];
    memcpy(orig, pal, sizeof pal);
    studio_hue_replace(pal, 30, 0, 10);   // 42.35 degrees: red full, green 50 + 42.35 x 150 / 77.65 = 131.8
    print_message("hue 30 of (200, 100, 50): %d %d %d\n", pal[3], pal[4], pal[5]);
    assert_in_range(pal[3], 199, 200);
    assert_int_equal(pal[4], 131);
    assert_in_range(pal[5], 49, 50);
    assert_true(pal[0] == 0 && pal[1] == 0 && pal[2] == 0);   // black stays black
    assert_memory_equal(pal + 33, orig + 33, 768 - 33);       // entries 11.. untouched
    studio_hue_replace(pal, 170, 20, 20);                     // 240 degrees: blue
    assert_true(pal[60] <= 50 && pal[60] >= 49 && pal[61] <= 50 && pal[61] >= 49 && pal[62] >= 199);
    studio_hue_replace(pal, 85, 21, 21);                      // 120 degrees: green
    assert_true(pal[63] <= 50 && pal[64] >= 199 && pal[65] <= 50);
    studio_hue_replace(pal, 360, 22, 22);                     // past 255 (the SDK allows 360): kept in 0..255
    print_message("hue 360 (508 degrees) of (200, 100, 50): %d %d %d\n", pal[66], pal[67], pal[68]);
    studio_hue_replace(pal, 30, -5, 300);                     // out of range bounds: clamped, no overrun

    TU_REQUIRE_DATA();
    tu_scene_t s;
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);
    vfs_t *fs = vfs_create();
    assert_true(vfs_add_dir(fs, tu_data("goldsrc/valve")) >= 0);
    r_studio_model_t *gordon = load_r(fs, "models/player/gordon/gordon.mdl", s.palette);
    r_studio_model_t *barney = load_r(fs, "models/barney.mdl", s.palette);
    assert_non_null(gordon->remap_near);
    assert_null(barney->remap_near);   // the monster has no DM_Base texture: nothing kept, nothing remapped
    assert_null(r_studio_remap(barney, 0, 30, 6));
    assert_int_equal(gordon->mdl.numtextures, 2);
    const studio_texture_t *base = &gordon->mdl.textures[0], *face = &gordon->mdl.textures[1];
    assert_string_equal(base->name, "DM_Base.bmp");
    assert_non_null(base->src);
    assert_null(face->src);
    assert_int_equal(gordon->remap_texels, 256 * 256);

    // the remapped pixels: texels outside 160..223 as loaded; inside, most changed for these colours
    const uint8_t *const *tex = r_studio_remap(gordon, 0, 30, 6);
    assert_non_null(tex);
    assert_null(tex[1]);
    assert_non_null(tex[0]);
    int inside = 0, changed = 0;
    for (int k = 0; k < 256 * 256; k++) {
        if (base->src[k] < 160 || base->src[k] > 223) {
            assert_int_equal(tex[0][k], base->pixels[k]);
            continue;
        }
        inside++;
        changed += tex[0][k] != base->pixels[k];
    }
    print_message("gordon's DM_Base: %d texels in the colour ranges, %d of them changed by colours 30 / 6\n", inside,
                  changed);
    assert_int_equal(inside, 23984 + 9101);   // counted in the file: 160..191 and 192..223
    assert_true(changed > inside / 2);
    assert_ptr_equal(r_studio_remap(gordon, 0, 30, 6), tex);   // cached: the same copy, not made again
    assert_ptr_equal(r_studio_remap(gordon, 0, -4, 6), r_studio_remap(gordon, 0, 0, 6));   // bounded 0..360

    world_t *w = world_create();
    assert_non_null(w);
    w->game = GAME_GOLDSRC;
    r_studio_players_t *ps = r_studio_players_create();
    entity_state_t e;
    entity_state_clear(&e);
    e.framerate = 1;   // standing in look_idle, facing the camera
    vec3_t org = {100, 0, -30}, ang = {0, 180, 0}, vel = {0, 0, 0};
    size_t n = (size_t)s.w * (size_t)s.h;
    uint8_t *a = malloc(n), *b = malloc(n), *c = malloc(n);
    const int pairs[2][2] = {{30, 6}, {160, 100}};
    for (int i = 0; i < 2; i++) {
        w->players[0].top_color = (uint16_t)pairs[i][0];
        w->players[0].bottom_color = (uint16_t)pairs[i][1];
        r_studio_players_update(ps, w, fs, s.palette);
        tu_scene_clear(&s);
        r_studio_player(&s.v, ps, 0, gordon, org, ang, &e, vel, 0, 160);
        memcpy(i ? b : a, s.buf, n);
        tu_scene_png_env(&s, i ? "studio_player_colours_160_100.png" : "studio_player_colours_30_6.png");
    }
    int box[4], full[4];
    memset(c, 0, n);
    int drawn = diff_px(&s, a, c, full), differ = diff_px(&s, a, b, box);
    print_message("gordon in 30 / 6 and in 160 / 100: %d of his %d pixels differ, in (%d %d)..(%d %d) of (%d %d)..(%d %d)\n",
                  differ, drawn, box[0], box[1], box[2], box[3], full[0], full[1], full[2], full[3]);
    assert_true(drawn > 2000);
    assert_true(differ > drawn / 4);
    assert_true(box[0] >= full[0] && box[1] >= full[1] && box[2] <= full[2] && box[3] <= full[3]);
    // where DM_Base is drawn: the cached copy for 160 / 100 filled with two flat colours in turn
    uint8_t *where = calloc(n, 1);
    uint8_t *copy = (uint8_t *)(uintptr_t)r_studio_remap(gordon, 0, 160, 100)[0];
    uint8_t *keep = malloc(256 * 256);
    memcpy(keep, copy, 256 * 256);
    const uint8_t flat[2] = {15, 250};
    for (int f = 0; f < 2; f++) {
        memset(copy, flat[f], 256 * 256);
        tu_scene_clear(&s);
        r_studio_player(&s.v, ps, 0, gordon, org, ang, &e, vel, 0, 160);
        for (size_t k = 0; k < n; k++)
            where[k] |= s.buf[k] != b[k];
    }
    memcpy(copy, keep, 256 * 256);
    int base_px = 0, off_base = 0;
    for (size_t k = 0; k < n; k++) {
        base_px += where[k];
        off_base += a[k] != b[k] && !where[k];
    }
    print_message("DM_Base drawn on %d pixels; %d pixels differ elsewhere (the face, the background)\n", base_px,
                  off_base);
    assert_true(base_px > differ && base_px < drawn);
    assert_int_equal(off_base, 0);
    free(keep);
    free(where);
    free(a);
    free(b);
    free(c);
    r_studio_players_free(ps);
    world_free(w);
    r_studio_free(gordon);
    r_studio_free(barney);
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
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_render_rules),
        cmocka_unit_test(test_player_colours),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
