// test_forsaken_shoot.c -- therm's shot counters (docs/forsaken.md "Triggers"): a host's recording
// on therm whose pilot fires pulsar shots into the box in front of a vent of group 14 (area 1:
// its "shoots" mod counts `shotvent` up; at 5 the events start spot effect 14, the vent's
// explosion, and texture animation 43, the vent's polygon). Where a line enters the box
// (fszon_entry_at: when the count falls due); the decoder's markers after the 5th shot and not
// before it, nor with 4 shots; none for shots that miss the box or meet the vent's wall before
// it, nor without the level's mesh (a warning naming it); the explosion's pixels (spot effects
// drawn against not, against the recording with 4 shots) and the texture's (the vent's polygon
// on its frame 1 after the explosion, nothing else); seek == play; the golden image.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/fstrig.h"
#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/playback.h"
#include "engine/vfs.h"
#include "engine/world_fs.h"
#include "formats/decoder.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsworld.h"
#include "render/render.h"
#include "fs_data.h"

extern const decoder_t fs_decoder;

static const float VENT_AT[3] = { 2644.849f, 1076.374f, 2562.485f };   // therm's spot effect 14
static const float VENT_DIR[3] = { 0.996195f, 0, 0.0871557f };         // its direction
static const float AIM[3] = { 2630, 1085, 2555 };   // area 1 (x 2628.58 .. 2687.77) by the vent's wall (x 2624)

static const char *tmp_dir(void) { return tu_tmpdir("FS_SHOOT_DIR"); }

static void scene_eye(float eye[3], float ang[3])
{
    for (int k = 0; k < 3; k++)
        eye[k] = VENT_AT[k] + VENT_DIR[k] * 350;
    ang[0] = 0;
    ang[1] = (float)(atan2(-VENT_DIR[0], -VENT_DIR[2]) * 180 / M_PI);
    ang[2] = 0;
}

// The host (player 0) at the eye every 0.05 s to 2.8 s, group 14; `shots` pulsar shots at 0.5,
// 0.6 ... s from `from` (NULL: the eye) towards `aim`.
static void shoot_demo(const char *path, int shots, const float *from, const float aim[3])
{
    float eye[3], ang[3];
    scene_eye(eye, ang);
    if (!from)
        from = eye;
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "therm");
    fs_write_header(&wr, &h);
    for (int i = 0; i <= 55; i++) {
        double t = 0.05 + i * 0.05;
        fs_ship_t sh;
        memset(&sh, 0, sizeof sh);
        sh.flags = FS_SHIP_ENABLE;
        memcpy(sh.pos, eye, sizeof sh.pos);
        fs_angles_to_quat(ang, sh.quat);
        sh.group = 14;
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &sh);
        int k = (int)lround((t - 0.5) / 0.1);
        if (k >= 0 && k < shots && fabs(t - (0.5 + k * 0.1)) < 1e-6) {
            fs_primbull_t b;
            memset(&b, 0, sizeof b);
            b.owner_type = 1;   // OWNER_SHIP
            b.bullet_id = (uint16_t)(k + 1);
            b.weapon = FSW_PULSAR;
            b.group = 14;
            memcpy(b.pos, from, sizeof b.pos);
            for (int j = 0; j < 3; j++)
                b.dir[j] = aim[j] - from[j];
            float l = sqrtf(b.dir[0] * b.dir[0] + b.dir[1] * b.dir[1] + b.dir[2] * b.dir[2]);
            for (int j = 0; j < 3; j++)
                b.dir[j] /= l;
            b.up[1] = 1;
            b.plevel = 100;
            fs_write_primbull(&wr, fs_ticks(t), 1, &b);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// The game's files but the level's mesh.
static uint8_t *no_mxv(void *ctx, const char *path, size_t *size)
{
    size_t l = strlen(path);
    return l > 4 && !strcmp(path + l - 4, ".mxv") ? NULL : fs_file(ctx, path, size);
}

static char last_warning[240];

// Marker entity `e` decoded (with the game's files) up to `at`: its frame (-1: not there), *when.
static int marker_files(const char *path, double at, int e, float *when, float *ran, asset_files_t files)
{
    size_t size;
    uint8_t *data = tu_read(path, &size);
    assert_non_null(data);
    void *st = calloc(1, fs_decoder.state_size);
    world_t *w = world_create();
    dec_opts_t o;
    memset(&o, 0, sizeof o);
    o.files = files;
    dec_error_t err;
    assert_int_equal(fs_decoder.open(st, data, size, w, &o, &err), 0);
    while (w->time < at && fs_decoder.read_frame(st, w, &err) > 0) {
    }
    int vis = world_entity_visible(w, e) && w->entities[e].cur.modelindex == FSW_MODEL_TRIG;
    int frame = vis ? w->entities[e].cur.frame : -1;
    if (when)
        *when = vis ? w->entities[e].cur.animtime : -1;
    if (ran)
        *ran = vis ? w->entities[e].cur.framerate : -1;
    snprintf(last_warning, sizeof last_warning, "%s", fs_decoder.info(st)->warning);
    fs_decoder.close(st);
    world_free(w);
    free(st);
    free(data);
    return frame;
}

// Where a line gets into therm's vent box (area 1) and into a sphere: the due time of a shot's count.
static void test_entry_at(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = fs_file(NULL, "levels/therm/therm.zon", &size);
    assert_non_null(d);
    char err[256] = "";
    fszon_t *z = fszon_load(d, size, "therm.zon", err, sizeof err);
    free(d);
    if (!z)
        fail_msg("%s", err);
    const fszon_area_t *a = &z->areas[1];
    float eye[3], ang[3];
    scene_eye(eye, ang);
    float f = fszon_entry_at(z, a, eye, AIM);   // in through its x 2687.77 side
    assert_float_equal(f, (eye[0] - 2687.77f) / (eye[0] - AIM[0]), 1e-4);
    assert_true(fszon_segment(z, a, eye, AIM) & FSZON_HIT_ENTRY);
    const float inside[3] = { 2660, 1085, 2555 }, aside[3] = { AIM[0], AIM[1], AIM[2] + 300 };
    assert_float_equal(fszon_entry_at(z, a, inside, AIM), 0, 0);   // starts inside
    assert_false(fszon_segment(z, a, inside, AIM) & FSZON_HIT_ENTRY);   // ... which counts nothing
    assert_float_equal(fszon_entry_at(z, a, eye, aside), -1, 0);
    const float short_of[3] = { 2700, 1085, 2555 };   // ends before the box
    assert_float_equal(fszon_entry_at(z, a, eye, short_of), -1, 0);
    fszon_area_t sp = *a;   // a sphere of 100 at the box's centre: 100 short of it along x
    sp.shape = FSZON_SPHERE;
    sp.half[0] = 100;
    const float from[3] = { a->pos[0] + 400, a->pos[1], a->pos[2] }, to[3] = { a->pos[0] - 400, a->pos[1], a->pos[2] };
    assert_float_equal(fszon_entry_at(z, &sp, from, to), 300.0f / 800.0f, 1e-5);
    printf("therm's vent box entered %.4f of the way from the eye to the wall's aim point\n", f);
    fszon_free(z);
}

static int marker_at(const char *path, double at, int e, float *when, float *ran)
{
    return marker_files(path, at, e, when, ran, (asset_files_t){ fs_file, NULL });
}

static void test_counts(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *dir = tmp_dir();
    char five[512], four[512], miss[512], wall[512];
    snprintf(five, sizeof five, "%s/fs_shoot_five_%d.dmo", dir, (int)getpid());
    snprintf(four, sizeof four, "%s/fs_shoot_four_%d.dmo", dir, (int)getpid());
    snprintf(miss, sizeof miss, "%s/fs_shoot_miss_%d.dmo", dir, (int)getpid());
    snprintf(wall, sizeof wall, "%s/fs_shoot_wall_%d.dmo", dir, (int)getpid());
    shoot_demo(five, 5, NULL, AIM);
    shoot_demo(four, 4, NULL, AIM);
    const float aside[3] = { AIM[0], AIM[1], AIM[2] + 300 };   // z 2855: past the box's 2683
    shoot_demo(miss, 8, NULL, aside);
    const float behind[3] = { 2400, 1085, 2555 };   // behind the vent's wall (x 2624), towards the box
    const float through[3] = { 2660, 1085, 2555 };
    shoot_demo(wall, 8, behind, through);

    // the 5th shot fired at 0.9 s gets into the box 307.5 units on (x 2687.77), 0.135 s later at
    // 32 units a tick: counted at the frame of 1.05 s
    const int spot = FSW_SPOT_ENT0 + 14, tex = FSW_TEXANIM_ENT0 + 43;
    float when, ran;
    assert_int_equal(marker_at(five, 1.0, spot, &when, NULL), -1);
    assert_int_equal(marker_at(five, 1.0, tex, &when, NULL), -1);
    assert_int_equal(marker_at(five, 1.05, spot, &when, NULL), 1);
    assert_float_equal(when, 1.05, 1e-4);
    assert_int_equal(marker_at(five, 1.05, tex, &when, &ran), 1);
    assert_float_equal(when, 1.05, 1e-4);
    assert_float_equal(ran, 0, 1e-6);
    assert_int_equal(marker_at(five, 2.7, spot, &when, NULL), 1);   // re-submitted every frame
    assert_float_equal(when, 1.05, 1e-4);
    assert_int_equal(marker_at(five, 2.7, tex, &when, NULL), 1);
    // the other vent's (shotvent2: spot effect 13, texture animation 44) and shotcomp's: never
    assert_int_equal(marker_at(five, 2.7, FSW_SPOT_ENT0 + 13, NULL, NULL), -1);
    assert_int_equal(marker_at(five, 2.7, FSW_TEXANIM_ENT0 + 44, NULL, NULL), -1);
    assert_int_equal(marker_at(five, 2.7, FSW_TEXANIM_ENT0 + 0, NULL, NULL), -1);
    assert_int_equal(marker_at(five, 2.7, FSW_SPOT_ENT0 + 0, NULL, NULL), -1);
    printf("shotvent at 5: spot effect 14 and texture animation 43 started at %.3f s\n", when);
    assert_string_equal(last_warning, "");
    // without the level's mesh: one warning naming it, the shots not counted
    assert_int_equal(marker_files(five, 2.7, spot, NULL, NULL, (asset_files_t){ no_mxv, NULL }), -1);
    printf("without the mesh: %s\n", last_warning);
    assert_non_null(strstr(last_warning, "levels/therm/therm.mxv: not found"));
    assert_non_null(strstr(last_warning, "the shots into trigger areas are not counted"));
    // four shots, eight beside the box, eight from behind the wall: nothing
    assert_int_equal(marker_at(four, 2.7, spot, NULL, NULL), -1);
    assert_int_equal(marker_at(four, 2.7, tex, NULL, NULL), -1);
    assert_int_equal(marker_at(miss, 2.7, spot, NULL, NULL), -1);
    assert_int_equal(marker_at(miss, 2.7, tex, NULL, NULL), -1);
    assert_int_equal(marker_at(wall, 2.7, spot, NULL, NULL), -1);
    assert_int_equal(marker_at(wall, 2.7, tex, NULL, NULL), -1);
    if (!getenv("FS_SHOOT_DIR")) {
        remove(five);
        remove(four);
        remove(miss);
        remove(wall);
    }
}

enum { W = 320, H = 200 };

typedef struct {
    demo_t d;
    player_t *p;
} played_t;

static void open_played(played_t *pl, cli_t *cli, renderer_t *r, const char *path)
{
    assert_int_equal(demo_open(&pl->d, cli, path, NULL, 0), 0);
    pl->p = player_create(&pl->d, cli, r, NULL, NULL);
    assert_non_null(pl->p);
}

static void close_played(played_t *pl)
{
    player_destroy(pl->p);
    demo_close(&pl->d);
}

static uint8_t *grab(renderer_t *r, const world_t *w, double t, int *pitch)
{
    int wd, h;
    r_render(r, w, t);
    const uint8_t *px = r_pixels(r, &wd, &h, pitch);
    assert_int_equal(wd, W);
    assert_int_equal(h, H);
    uint8_t *c = malloc((size_t)h * (size_t)*pitch);
    memcpy(c, px, (size_t)h * (size_t)*pitch);
    return c;
}

static int count_differ(const uint8_t *a, const uint8_t *b, int pitch)
{
    int n = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            n += a[y * pitch + x] != b[y * pitch + x];
    return n;
}

// Pixels that differ inside the screen box of the vent's polygon (texture animation 43: x 2624,
// y 960 .. 1216, z 2432 .. 2688), and outside it.
static int differ_vent(const uint8_t *a, const uint8_t *b, int pitch, int *outside)
{
    float eye[3], ang[3], f[3], rt[3], up[3];
    scene_eye(eye, ang);
    r_fs_angle_vectors(ang, f, rt, up);
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int c = 0; c < 4; c++) {
        float p[3] = { 2624, c & 1 ? 1216 : 960, c & 2 ? 2688 : 2432 };
        float d[3] = { p[0] - eye[0], p[1] - eye[1], p[2] - eye[2] };
        float x = d[0] * rt[0] + d[1] * rt[1] + d[2] * rt[2], y = d[0] * up[0] + d[1] * up[1] + d[2] * up[2];
        float z = d[0] * f[0] + d[1] * f[1] + d[2] * f[2];
        float sx = 160 + 160 * x / z, sy = 100 - 160 / 1.2f * y / z;
        x0 = fminf(x0, sx - 2), x1 = fmaxf(x1, sx + 2), y0 = fminf(y0, sy - 2), y1 = fmaxf(y1, sy + 2);
    }
    return fs_differ_in_box(a, b, W, H, pitch, x0, y0, x1, y1, outside);
}

static void test_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *dir = tmp_dir();
    char five[512], four[512];
    snprintf(five, sizeof five, "%s/fs_shoot_scene5_%d.dmo", dir, (int)getpid());
    snprintf(four, sizeof four, "%s/fs_shoot_scene4_%d.dmo", dir, (int)getpid());
    shoot_demo(five, 5, NULL, AIM);
    shoot_demo(four, 4, NULL, AIM);
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    char base[512];
    snprintf(base, sizeof base, "%s/forsaken", tu_data_dir());
    cli.basedir = base;
    renderer_t *r = r_create(W, H), *r4 = r_create(W, H);   // one each: a renderer keeps its demo's shots
    assert_non_null(r);
    assert_non_null(r4);

    // played through, both recordings side by side: equal before the 5th shot (0.85 s); the
    // explosion from 1.05 s; after it (2.6 s) only the vent's polygon on its frame 1
    const double at[] = { 0.85, 1.0, 1.05, 1.1, 1.2, 1.5, 2.6 };
    enum { N = sizeof at / sizeof at[0] };
    uint8_t *p5[N], *p4[N];
    int pitch = 0, differ[N], expl5 = -1, expl4 = -1;
    played_t a, b;
    open_played(&a, &cli, r, five);
    open_played(&b, &cli, r4, four);
    for (int i = 0; i < N; i++) {
        assert_true(player_advance(a.p, at[i]) >= 0);
        p5[i] = grab(r, a.d.world, player_demo_time(a.p, at[i]), &pitch);
        assert_true(player_advance(b.p, at[i]) >= 0);
        p4[i] = grab(r4, b.d.world, player_demo_time(b.p, at[i]), &pitch);
        differ[i] = count_differ(p5[i], p4[i], pitch);
        printf("%.2f s: %d pixels differ from the recording with 4 shots\n", at[i], differ[i]);
        if (i == 3) {   // 1.1 s (by index: the Pentium build's x87 compares a literal 1.1 in long double)
            // the explosion itself: spot effects drawn against not drawn, in each recording
            r_set_fs_spotfx(r, 0);
            uint8_t *off5 = grab(r, a.d.world, player_demo_time(a.p, at[i]), &pitch);
            r_set_fs_spotfx(r, 1);
            r_set_fs_spotfx(r4, 0);
            uint8_t *off4 = grab(r4, b.d.world, player_demo_time(b.p, at[i]), &pitch);
            r_set_fs_spotfx(r4, 1);
            expl5 = count_differ(p5[i], off5, pitch);
            expl4 = count_differ(p4[i], off4, pitch);
            printf("%.2f s: the spot effects draw %d pixels with 5 shots, %d with 4\n", at[i], expl5, expl4);
            free(off5);
            free(off4);
            char png[1024];
            r_render(r, a.d.world, player_demo_time(a.p, at[i]));
            snprintf(png, sizeof png, "%s/fs_shoot_vent.png", dir);
            assert_int_equal(r_write_png(r, png), 0);
            tu_golden("therm's vent set off by 5 shots", png, "tests/golden/fs_shoot_vent.png", 0.002);
        }
    }
    close_played(&b);
    close_played(&a);
    assert_int_equal(differ[0], 0);
    assert_true(differ[3] > 1000);   // the explosion
    assert_true(expl5 > 1000);
    assert_int_equal(expl4, 0);
    int outside, inside = differ_vent(p5[N - 1], p4[N - 1], pitch, &outside);
    printf("%.2f s: %d pixels of the vent's polygon differ (its frame 1, the grille blown out), %d outside it\n", at[N - 1],
           inside, outside);
    assert_true(inside > 3000);   // the texture animation's frame 1
    assert_int_equal(outside, 0);

    // seek == play on the recording with 5 shots, backwards
    open_played(&a, &cli, r, five);
    assert_int_equal(player_scan(a.p), 0);
    int bad = 0;
    for (int i = N - 1; i >= 0; i--) {
        assert_int_equal(player_seek(a.p, at[i]), 0);
        uint8_t *s = grab(r, a.d.world, player_demo_time(a.p, at[i]), &pitch);
        if (memcmp(s, p5[i], (size_t)H * (size_t)pitch)) {
            printf("seek to %.2f s differs from play (%d pixels)\n", at[i], count_differ(s, p5[i], pitch));
            if (getenv("FS_SHOOT_DIR")) {
                char png[1024];
                snprintf(png, sizeof png, "%s/fs_shoot_seek_%.2f.png", dir, at[i]);
                r_write_png(r, png);
            }
            bad++;
        }
        free(s);
    }
    close_played(&a);
    assert_int_equal(bad, 0);
    printf("seek == play at %d moments\n", N);
    for (int i = 0; i < N; i++) {
        free(p5[i]);
        free(p4[i]);
    }
    r_destroy(r);
    r_destroy(r4);
    if (!getenv("FS_SHOOT_DIR")) {
        remove(five);
        remove(four);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_at),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
