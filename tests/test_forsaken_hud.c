// test_forsaken_hud.c -- Forsaken's 2D (render/r_fshud.c): the panel of the viewed pilot, the
// message lines, the score list and table, on a synthetic demo on the `ship` level; the RLE8
// pictures (assets/bmp8.c); hostile names and scores drawn safely.
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/bmp8.h"
#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/vfs.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/render.h"
#include "render/r_fsworld.h"
#include "fs_data.h"

// ---- the RLE8 loader ---------------------------------------------------------------

// The game's pictures: RLE8, sizes and a few pixels pinned; every prefix and byte change of
// PANEL.BMP either loads or is refused with an offset (never read out of bounds: ASan).
static void test_bmp8(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct { const char *file; int w, h; } pics[] = {
        { "Pictures/FONT.BMP", 128, 128 }, { "Pictures/FONT512.BMP", 256, 256 }, { "Pictures/PANEL.BMP", 128, 72 },
    };
    char err[256];
    for (size_t i = 0; i < sizeof pics / sizeof pics[0]; i++) {
        size_t size;
        uint8_t *d = fs_file(NULL, pics[i].file, &size);
        assert_non_null(d);
        bmp8_t b;
        if (bmp8_load(&b, d, size, 1024, err, sizeof err) < 0)
            fail_msg("%s: %s", pics[i].file, err);
        assert_int_equal(b.width, pics[i].w);
        assert_int_equal(b.height, pics[i].h);
        bmp8_free(&b);
        free(d);
    }
    size_t size;
    uint8_t *d = fs_file(NULL, "Pictures/PANEL.BMP", &size);
    bmp8_t b;
    assert_int_equal(bmp8_load(&b, d, size, 1024, err, sizeof err), 0);
    // the crosshair's corner (0,0) is drawn, the bar row 24 is a colour from x 0 to 63, not beyond
    int bar = 0;
    for (int x = 0; x < 128; x++) {
        const uint8_t *c = b.palette + 3 * b.pixels[24 * 128 + x];
        bar += (c[0] | c[1] | c[2]) != 0;
    }
    printf("PANEL.BMP: %d coloured pixels on the bar row\n", bar);
    assert_int_equal(bar, 64);
    bmp8_free(&b);
    uint8_t *c = malloc(size);
    int ok = 0, bad = 0;
    for (size_t n = 0; n <= size; n++) {   // every prefix
        if (bmp8_load(&b, d, n, 1024, err, sizeof err) == 0) {
            ok++;
            bmp8_free(&b);
        } else {
            bad++;
            assert_non_null(strstr(err, "offset "));
        }
    }
    for (size_t i = 0; i < size; i++) {   // every byte changed
        memcpy(c, d, size);
        c[i] ^= 0xa5;
        if (bmp8_load(&b, c, size, 1024, err, sizeof err) == 0)
            bmp8_free(&b);
    }
    printf("PANEL.BMP prefixes: %d load, %d refused\n", ok, bad);
    assert_true(bad > 0);
    free(c);
    free(d);
}

// ---- a demo on `ship` ----------------------------------------------------------------

#define CHAT_TIME 1.0
#define KILL_TIME 1.5
#define END_TIME 3.5
static const char chat_text[] = "hello there";      // "bob: hello there", 16 characters
static const char kill_text[] = "alice killed bob with a mug";

// alice (player 0, the recorder) at the first start position looking down the hall: pyrolite,
// gravgon, two power pods, invulnerable, shield 200, hull 90; bob (player 1) behind her: laser,
// pine mine, shield 40, hull 255; a third pilot whose name is control bytes and whose score is
// the largest a message holds. bob says hello at 1.0 s and alice kills him with a mug at 1.5 s.
static void write_demo(const char *path)
{
    float org[3], ang[3];
    assert_int_equal(fs_start_pos("ship", org, ang), 0);
    ang[0] = 8;
    ang[1] -= 35;
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MAX;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    fs_write_name(&wr, fs_ticks(0.01), 7, &(fs_name_t){ .player = 1, .name = "bob" });
    fs_write_name(&wr, fs_ticks(0.01), 9, &(fs_name_t){ .player = 2, .name = "\x01\x02x\x7fy\x1bz" });
    fs_write_bikenum(&wr, fs_ticks(0.02), 1, &(fs_bikenum_t){ .player = 0, .kills = 3, .deaths = 1, .bike = 3 });
    fs_write_bikenum(&wr, fs_ticks(0.02), 7, &(fs_bikenum_t){ .player = 1, .kills = 7, .deaths = 2, .bike = 1 });
    fs_write_bikenum(&wr, fs_ticks(0.02), 9, &(fs_bikenum_t){ .player = 2, .kills = 32767, .deaths = -32768 });
    fs_write_shieldhull(&wr, fs_ticks(0.03), 1, &(fs_shieldhull_t){ .player = 0, .shield = 200, .hull = 90 });
    fs_write_shieldhull(&wr, fs_ticks(0.03), 7, &(fs_shieldhull_t){ .player = 1, .shield = 40, .hull = 255 });
    float fwd[3] = { sinf(ang[1] * (float)M_PI / 180), 0, cosf(ang[1] * (float)M_PI / 180) };
    for (int i = 0; i * 0.1 + 0.05 < END_TIME; i++) {
        double t = 0.05 + i * 0.1;
        fs_ship_t s;
        memset(&s, 0, sizeof s);
        s.player = 0;
        s.flags = FS_SHIP_ENABLE | (2u << 4) | FS_SHIP_INVUL;
        s.primary = 2;     // pyrolite
        s.secondary = 4;   // gravgon
        memcpy(s.pos, org, sizeof s.pos);
        fs_angles_to_quat(ang, s.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_FUPDATE, &s);
        s.player = 1;
        s.flags = FS_SHIP_ENABLE;
        s.primary = 5;     // laser
        s.secondary = 8;   // pine mine
        for (int k = 0; k < 3; k++)
            s.pos[k] = org[k] - 200 * fwd[k];
        fs_write_ship(&wr, fs_ticks(t + 0.01), 7, FS_MSG_FUPDATE, &s);
        if (fabs(t + 0.05 - CHAT_TIME) < 1e-6) {
            fs_text_t m = { .player = 1, .type = 5 };
            snprintf(m.text, sizeof m.text, "%s", chat_text);
            fs_write_text(&wr, fs_ticks(CHAT_TIME), 7, &m);
        }
        if (fabs(t + 0.05 - KILL_TIME) < 1e-6)
            fs_write_shipdied(&wr, fs_ticks(KILL_TIME), 7,
                              &(fs_shipdied_t){ .player = 1, .killer = 0, .weapon_type = 1, .weapon = 0 });
    }
    fs_write_shieldhull(&wr, fs_ticks(END_TIME), 1, &(fs_shieldhull_t){ .player = 0, .shield = 200, .hull = 90 });
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

typedef struct {
    cli_t cli;
    demo_t d;
    renderer_t *r;
    vfs_t *fs;
    uint32_t level_seq;
    int w, h;
} run_t;

static void open_run(run_t *p, const char *path, int w, int h)
{
    memset(p, 0, sizeof *p);
    p->cli.basedir = tu_data("forsaken");
    p->cli.quiet = 1;
    if (demo_open(&p->d, &p->cli, path, NULL, 0) < 0)
        fail_msg("%s", p->d.errmsg);
    p->r = r_create(w, h);
    assert_non_null(p->r);
    p->w = w;
    p->h = h;
}

static int read_to(run_t *p, double t)
{
    world_t *w = p->d.world;
    while (w->time < t || !w->seq) {
        if (demo_read_frame(&p->d) <= 0)
            return 0;
        if (w->level_seq != p->level_seq) {
            p->level_seq = w->level_seq;
            vfs_free(p->fs);
            p->fs = demo_mount(&p->d, &p->cli);
            char err[512];
            if (r_load_level(p->r, p->fs, w, err, sizeof err) < 0)
                fail_msg("%s", err);
        }
        r_frame(p->r, w);
    }
    return 1;
}

static void close_run(run_t *p)
{
    r_destroy(p->r);
    vfs_free(p->fs);
    demo_close(&p->d);
}

// A copy of the frame (w*h palette indices) drawn at t.
static uint8_t *draw(run_t *p, double t)
{
    r_render(p->r, p->d.world, t);
    int w, h, pitch;
    const uint8_t *px = r_pixels(p->r, &w, &h, &pitch);
    uint8_t *out = malloc((size_t)w * (size_t)h);
    for (int y = 0; y < h; y++)
        memcpy(out + (size_t)y * (size_t)w, px + (size_t)y * (size_t)pitch, (size_t)w);
    return out;
}

// The box holding every pixel where a and b differ; returns how many differ.
static int diff_box(const uint8_t *a, const uint8_t *b, int w, int h, int box[4])
{
    int n = 0;
    box[0] = w, box[1] = h, box[2] = -1, box[3] = -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (a[y * w + x] != b[y * w + x]) {
                n++;
                box[0] = x < box[0] ? x : box[0];
                box[1] = y < box[1] ? y : box[1];
                box[2] = x > box[2] ? x : box[2];
                box[3] = y > box[3] ? y : box[3];
            }
    return n;
}

// Columns in [x0, x1) with a pixel of rows [y0, y1) that differs.
static int diff_cols(const uint8_t *a, const uint8_t *b, int w, int x0, int x1, int y0, int y1)
{
    int n = 0;
    for (int x = x0; x < x1; x++) {
        int d = 0;
        for (int y = y0; y < y1; y++)
            d |= a[y * w + x] != b[y * w + x];
        n += d;
    }
    return n;
}

static const char *out_dir(void)
{
    const char *d = getenv("FS_HUD_SHOTS");
    return d && *d ? d : "build";
}

static void golden(run_t *p, const char *label, const char *name)
{
    char a[512], g[512];
    snprintf(a, sizeof a, "%s/%s", out_dir(), name);
    snprintf(g, sizeof g, "tests/golden/%s", name);
    assert_int_equal(r_write_png(p->r, a), 0);
    tu_golden(label, a, g, 0.002);
}

static char demo_path[512];

static void make_demo(void)
{
    if (!demo_path[0]) {
        snprintf(demo_path, sizeof demo_path, "%s/fs_hud_%d.dmo", out_dir(), (int)getpid());
        write_demo(demo_path);
    }
}

// The panel at 640x480 (FONT512, 8x8 cells): the shield bar is a quarter of the shield wide
// (200 -> 50 pixels from x 80 on the rows 461..463), the hull's 90 -> 22 on 471..473; following
// bob (follow:2) it shows his 40 and 255 -> 10 and 63 pixels. A camera away from every pilot
// (free) has no panel.
static void test_panel(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    make_demo();
    run_t p;
    open_run(&p, demo_path, 640, 480);
    assert_true(read_to(&p, 2.0));
    world_t *w = p.d.world;
    assert_int_equal(w->players[0].shield, 200);
    assert_int_equal(w->players[0].hull, 90);
    assert_int_equal(w->players[1].shield, 40);
    assert_int_equal(w->players[1].hull, 255);
    assert_string_equal(w->players[2].name, "??x?y?z");   // control bytes as '?' (drawn as blanks)

    uint8_t *known = draw(&p, w->time);
    golden(&p, "forsaken panel 640x480", "fs_hud_panel.png");
    // the same frame without the numbers: only the numbers and bars change
    int16_t sh[2] = { w->players[0].shield, w->players[0].hull };
    w->players[0].shield = w->players[0].hull = -1;
    uint8_t *unknown = draw(&p, w->time);
    w->players[0].shield = sh[0];
    w->players[0].hull = sh[1];
    int box[4];
    int n = diff_box(known, unknown, 640, 480, box);
    printf("shield and hull: %d pixels in (%d,%d)-(%d,%d)\n", n, box[0], box[1], box[2], box[3]);
    assert_true(n > 100);
    assert_true(box[0] >= 48 && box[1] >= 480 - 20 && box[3] <= 480 - 3);   // numbers from 6 cells in, bars
    int shield_cols = diff_cols(known, unknown, 640, 80, 200, 461, 464);
    int hull_cols = diff_cols(known, unknown, 640, 80, 200, 471, 474);
    printf("bars: shield %d columns, hull %d\n", shield_cols, hull_cols);
    assert_true(shield_cols >= 48 && shield_cols <= 50);
    assert_int_equal(diff_cols(known, unknown, 640, 130, 640, 461, 464), 0);
    assert_true(hull_cols >= 20 && hull_cols <= 22);
    assert_int_equal(diff_cols(known, unknown, 640, 102, 640, 471, 474), 0);

    // the trojax charge: full (100) is 8 rows of PANEL.BMP's 4-wide column, 16 left of the
    // centre, from 4 rows below it upwards
    w->entities[1].cur.frame = 100;
    uint8_t *charged = draw(&p, w->time);
    w->entities[1].cur.frame = 0;
    n = diff_box(charged, known, 640, 480, box);
    printf("trojax charge: %d pixels in (%d,%d)-(%d,%d)\n", n, box[0], box[1], box[2], box[3]);
    assert_true(n > 8 && n <= 32);
    assert_true(box[0] >= 320 - 16 && box[2] < 320 - 12 && box[1] >= 240 + 4 - 8 && box[3] < 240 + 4);
    free(charged);

    // follow bob: his numbers; his name at the top right
    static r_camera_t cam;
    memset(&cam, 0, sizeof cam);
    cam.mode = R_CAM_FOLLOW;
    cam.player = 1;
    r_set_camera(p.r, &cam);
    uint8_t *bob = draw(&p, w->time);
    r_cam_state_t st;
    r_camera_state(p.r, &st);
    assert_int_equal(st.player, 1);
    w->players[1].shield = w->players[1].hull = -1;
    uint8_t *bob_unknown = draw(&p, w->time);
    w->players[1].shield = 40;
    w->players[1].hull = 255;
    shield_cols = diff_cols(bob, bob_unknown, 640, 80, 200, 461, 464);
    hull_cols = diff_cols(bob, bob_unknown, 640, 80, 200, 471, 474);
    printf("following bob: shield %d columns, hull %d\n", shield_cols, hull_cols);
    assert_true(shield_cols >= 9 && shield_cols <= 10);
    assert_int_equal(diff_cols(bob, bob_unknown, 640, 90, 640, 461, 464), 0);
    assert_true(hull_cols >= 60 && hull_cols <= 63);
    golden(&p, "forsaken panel following bob", "fs_hud_follow.png");

    // a free camera: no panel (the bars' rows are the level's)
    cam.mode = R_CAM_FREE;
    r_set_camera(p.r, &cam);
    uint8_t *free_cam = draw(&p, w->time);
    w->players[0].shield = w->players[0].hull = -1;
    uint8_t *free_unknown = draw(&p, w->time);
    assert_int_equal(diff_cols(free_cam, free_unknown, 640, 0, 640, 440, 480), 0);
    free(known);
    free(unknown);
    free(bob);
    free(bob_unknown);
    free(free_cam);
    free(free_unknown);
    close_run(&p);
}

// The message lines at 320x200 (FONT, 4x5 cells): bob's chat alone is on the third row (y 28),
// centred: 16 characters, x 128..191; after the kill the chat moves up a row and the kill is
// on the third; the chat goes after 480 x 16/62 ticks (1.75 s), the kill stays.
static void test_messages(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    make_demo();
    run_t p;
    open_run(&p, demo_path, 320, 200);
    world_t *w = p.d.world;

    assert_true(read_to(&p, CHAT_TIME + 0.1));
    uint8_t *on = draw(&p, w->time);
    r_set_notify(p.r, 0);
    uint8_t *off = draw(&p, w->time);
    r_set_notify(p.r, 1);
    int box[4];
    int n = diff_box(on, off, 320, 200, box);
    printf("chat line: %d pixels in (%d,%d)-(%d,%d)\n", n, box[0], box[1], box[2], box[3]);
    assert_true(n > 40);
    assert_true(box[1] >= 28 && box[3] < 28 + 5);
    assert_true(box[0] >= 128 && box[2] <= 191);
    assert_true(box[0] <= 132 && box[2] >= 186);   // "b" .. "e" reach the ends
    // in the game's green on ship, a grey level (the level palette keeps the HUD's colours):
    // every pixel of the line is one of FONT.BMP's green shades, exactly
    const uint8_t *pal = r_palette(p.r);
    int green = 0, other = 0;
    for (int i = 0; i < 320 * 200; i++) {
        if (on[i] == off[i])
            continue;
        const uint8_t *c = pal + on[i] * 3;
        if (c[0] == 0 && c[2] == 0 && (c[1] == 255 || c[1] == 197 || c[1] == 96))
            green++;
        else
            other++;
    }
    printf("chat line colours: %d green, %d other\n", green, other);
    assert_true(green > 40);
    assert_int_equal(other, 0);
    free(on);
    free(off);

    assert_true(read_to(&p, 2.0));
    on = draw(&p, w->time);
    golden(&p, "forsaken chat and kill 320x200", "fs_hud_messages.png");
    r_set_notify(p.r, 0);
    off = draw(&p, w->time);
    r_set_notify(p.r, 1);
    int row1 = diff_cols(on, off, 320, 0, 320, 22, 27), row2 = diff_cols(on, off, 320, 0, 320, 28, 33);
    printf("at 2.0 s: row 2 %d columns, row 3 %d columns\n", row1, row2);
    assert_true(row1 > 30 && row1 <= 64);             // the chat, moved up
    assert_true(row2 > 50 && row2 <= 4 * (int)strlen(kill_text));   // the kill
    free(on);
    free(off);

    assert_true(read_to(&p, 3.0));
    on = draw(&p, w->time);
    r_set_notify(p.r, 0);
    off = draw(&p, w->time);
    r_set_notify(p.r, 1);
    row1 = diff_cols(on, off, 320, 0, 320, 22, 27);
    row2 = diff_cols(on, off, 320, 0, 320, 28, 33);
    printf("at 3.0 s: row 2 %d columns, row 3 %d columns\n", row1, row2);
    assert_int_equal(row1, 0);
    assert_true(row2 > 50);
    free(on);
    free(off);
    close_run(&p);
}

// The score table: at the end of the demo (the decoder's intermission) and on request
// (r_show_scores) it is the same picture; hostile names and scores (control bytes, bytes
// above 127, the largest and smallest 32-bit numbers, odd teams) are drawn without harm at
// several sizes.
static void test_scores(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    make_demo();
    run_t p;
    open_run(&p, demo_path, 640, 480);
    world_t *w = p.d.world;
    assert_true(read_to(&p, 1e9) == 0);   // to the end
    assert_int_equal(w->view.intermission, 1);
    uint8_t *end = draw(&p, w->time);
    golden(&p, "forsaken score table", "fs_hud_scores.png");
    w->view.intermission = 0;
    uint8_t *no_table = draw(&p, w->time);
    r_show_scores(p.r, 1);
    uint8_t *asked = draw(&p, w->time);
    int box[4];
    int n = diff_box(end, no_table, 640, 480, box);
    printf("score table: %d pixels in (%d,%d)-(%d,%d)\n", n, box[0], box[1], box[2], box[3]);
    assert_true(n > 300);
    assert_true(box[0] >= 640 / 2 - 12 * 8 && box[2] < 640 / 2 + 12 * 8);
    assert_int_equal(diff_box(end, asked, 640, 480, box), 0);
    free(end);
    free(no_table);
    free(asked);

    // a team game (teams from MSG_STATUS): the list is the teams, Red (alice's 3 kills) and
    // Green (bob's 7), in the list's place at the top left
    r_show_scores(p.r, 0);
    uint8_t *solo = draw(&p, w->time);
    w->players[0].team = 0;
    w->players[1].team = 1;
    uint8_t *teams = draw(&p, w->time);
    n = diff_box(solo, teams, 640, 480, box);
    printf("team list: %d pixels in (%d,%d)-(%d,%d)\n", n, box[0], box[1], box[2], box[3]);
    assert_true(n > 50);
    assert_true(box[0] >= 8 && box[2] < 8 + 14 * 8 && box[1] >= 8 && box[3] < 8 + 3 * 9);
    free(solo);
    free(teams);

    // hostile values
    snprintf(w->players[2].name, sizeof w->players[2].name, "%s", "\x01\x7f\xff\x80\x1b[2Jabcdefghijklmnopqrstuvwxyz");
    w->players[2].frags = INT32_MAX;
    w->players[2].deaths = INT32_MIN;
    w->players[0].frags = INT32_MIN;
    w->players[0].shield = 32767;
    w->players[0].hull = 300;
    w->players[1].team = 0;
    w->players[0].team = 1;
    w->players[2].team = 127;
    for (int i = 3; i < WORLD_MAX_PLAYERS; i++) {   // every slot a player
        w->players[i].active = 1;
        memset(w->players[i].name, 0xff, sizeof w->players[i].name - 1);
        w->players[i].frags = i * 1000003;
    }
    static const int sizes[][2] = { { 320, 200 }, { 640, 480 }, { 1920, 1080 }, { 64, 48 } };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        renderer_t *r = r_create(sizes[i][0], sizes[i][1]);
        char err[512];
        r_load_level(r, p.fs, w, err, sizeof err);
        r_frame(r, w);
        r_show_scores(r, 1);
        r_render(r, w, w->time);
        r_destroy(r);
    }
    close_run(&p);
    if (!getenv("FS_HUD_SHOTS"))
        remove(demo_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bmp8),
        cmocka_unit_test(test_panel),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
