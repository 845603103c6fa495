// test_quake2_hud.c -- Quake II's HUD: the layout interpreter on hand-written and hostile programs, the view blend, a real demo
//
// Programs are run on a 320x240 canvas (Quake II's own screen) cleared to 255,
// a colour no picture draws (it is the see-through one), so "drawn" = "not 255".
// What a program draws is checked against the PCX pictures read here on their
// own, or against an equivalent program built from simpler tokens.
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/pcx.h"
#include "engine/demo.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "render/r_2d.h"
#include "render/r_2d_local.h"   // r_hud_q2_layout, r_2d_canvas_t

#define W 320
#define H 240
#define CLEAR 255

enum { S_HEALTH = 1, S_AMMO = 3, S_ARMOR = 5, S_PICKUP_STRING = 8, S_LAYOUTS = 13, S_FLASHES = 15 };

typedef struct {
    vfs_t *fs;
    world_t *w;
    r_2d_t *d;
    uint8_t *buf;
    r_2d_canvas_t c;
} fx_t;

static void fx_open(fx_t *f)
{
    memset(f, 0, sizeof(*f));
    f->fs = vfs_create();
    assert_non_null(f->fs);
    assert_true(vfs_add_dir(f->fs, tu_data("quake2/baseq2")) >= 0);
    f->w = world_create();
    assert_non_null(f->w);
    world_t *w = f->w;
    w->game = GAME_QUAKE2;
    w->time = 10.0;   // flash phase (100 >> 2) & 1 = 1
    assert_int_equal(world_set_image(w, 1, "i_health"), 0);
    assert_int_equal(world_set_image(w, 2, "a_shells"), 0);
    assert_int_equal(world_set_image(w, 3, "/players/male/grunt_i.pcx"), 0);
    assert_int_equal(world_set_image(w, 4, "no_such_picture"), 0);
    snprintf(w->players[1].name, sizeof w->players[1].name, "bob");
    snprintf(w->players[1].skin, sizeof w->players[1].skin, "bob\\male/grunt");
    snprintf(w->item_names[7], sizeof w->item_names[7], "Shotgun");
    f->d = r_2d_create();
    assert_non_null(f->d);
    // 24 fixed slots + images (i_health, a_shells, grunt_i) + the layouts' help, tag1, tag2, i_help, i_fixme, inventory
    assert_int_equal(r_2d_load(f->d, f->fs, w, tu_palette()), 24 + 3 + 6);
    f->buf = malloc(W * H);   // exactly: the sanitizer build catches a write past it
    assert_non_null(f->buf);
}

static void fx_close(fx_t *f)
{
    r_2d_destroy(f->d);
    world_free(f->w);
    vfs_free(f->fs);
    free(f->buf);
}

static void fx_run(fx_t *f, const char *program)
{
    memset(f->buf, CLEAR, W * H);
    r_view_t v;
    memset(&v, 0, sizeof v);
    v.buffer = f->buf;
    v.width = W;
    v.height = H;
    v.rowbytes = W;
    r_2d_canvas_init(&f->c, &v);
    r_hud_q2_layout(f->d, f->w, &f->c, program);
}

static int drawn(const fx_t *f)
{
    int n = 0;
    for (int i = 0; i < W * H; i++)
        n += f->buf[i] != CLEAR;
    return n;
}

static uint32_t fnv(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static pcx_t load_pcx(fx_t *f, const char *path)
{
    size_t size = 0;
    uint8_t *bytes = vfs_load(f->fs, path, &size);
    assert_non_null(bytes);
    pcx_t p;
    char err[128];
    assert_int_equal(pcx_load(&p, bytes, size, err, sizeof err), 0);
    free(bytes);
    return p;
}

// Is the block (sx, sy, w, h) of `p` at (x, y) in the buffer, its colour `t` see-through?
static int shows_block(const fx_t *f, const pcx_t *p, int sx, int sy, int w, int h, int t, int x, int y)
{
    int opaque = 0;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            uint8_t c = p->pixels[(sy + j) * p->width + sx + i];
            if (c == t)
                continue;
            opaque++;
            if (x + i < 0 || x + i >= W || y + j < 0 || y + j >= H || f->buf[(y + j) * W + x + i] != c)
                return 0;
        }
    return opaque > 0;
}

static int shows_pic(fx_t *f, const char *path, int x, int y)
{
    pcx_t p = load_pcx(f, path);
    int ok = shows_block(f, &p, 0, 0, p.width, p.height, 255, x, y);
    pcx_free(&p);
    return ok;
}

static int shows_char(fx_t *f, int ch, int x, int y)
{
    pcx_t p = load_pcx(f, "pics/conchars.pcx");
    int ok = shows_block(f, &p, (ch & 15) * 8, (ch >> 4) * 8, 8, 8, 255, x, y);
    pcx_free(&p);
    return ok;
}

// Programs a and b draw the same pixels (and something).
static void assert_same(fx_t *f, const char *a, const char *b)
{
    static uint8_t first[W * H];
    fx_run(f, a);
    assert_true(drawn(f) > 0);
    memcpy(first, f->buf, sizeof first);
    fx_run(f, b);
    assert_memory_equal(first, f->buf, sizeof first);
}

// ---- tests ------------------------------------------------------------------

static void test_numbers(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    int *st = f.w->view.stats;
    st[S_HEALTH] = 100;
    fx_run(&f, "xv 0 yv 0 num 3 1");
    assert_true(shows_pic(&f, "pics/num_1.pcx", 2, 0));
    assert_true(shows_pic(&f, "pics/num_0.pcx", 18, 0));
    assert_true(shows_pic(&f, "pics/num_0.pcx", 34, 0));
    // right-aligned in the width; a number too long keeps its FIRST digits
    st[S_HEALTH] = -5;
    fx_run(&f, "xl 10 yt 20 num 4 1");
    assert_true(shows_pic(&f, "pics/num_minus.pcx", 10 + 2 + 32, 20));
    assert_true(shows_pic(&f, "pics/num_5.pcx", 10 + 2 + 48, 20));
    st[S_HEALTH] = 98765;
    fx_run(&f, "xr -50 yb -24 num 2 1");
    assert_true(shows_pic(&f, "pics/num_9.pcx", 270 + 2, 216));
    assert_true(shows_pic(&f, "pics/num_8.pcx", 270 + 18, 216));
    assert_int_equal(drawn(&f) > 0 && !shows_pic(&f, "pics/num_5.pcx", 270 + 18, 216), 1);
    // widths above 5 are 5, below 1 draw nothing
    assert_same(&f, "num 9 1", "num 5 1");
    fx_run(&f, "num 0 1");
    assert_int_equal(drawn(&f), 0);
    fx_close(&f);
}

static void test_hnum_anum_rnum(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    int *st = f.w->view.stats;
    // healthy: normal digits in the default width 3
    st[S_HEALTH] = 87;
    fx_run(&f, "hnum");
    assert_true(shows_pic(&f, "pics/num_8.pcx", 2 + 16, 0));
    // low: the flash phase of the frame picks the set (time 10.0: phase 1, alternate)
    st[S_HEALTH] = 20;
    fx_run(&f, "hnum");
    assert_true(shows_pic(&f, "pics/anum_2.pcx", 2 + 16, 0));
    f.w->time = 10.4;   // serverframe 104: phase 0
    fx_run(&f, "hnum");
    assert_true(shows_pic(&f, "pics/num_2.pcx", 2 + 16, 0));
    // dead: always alternate; the game's flash bit puts field_3 under it
    st[S_HEALTH] = 0;
    st[S_FLASHES] = 1;
    fx_run(&f, "hnum");
    assert_true(shows_pic(&f, "pics/anum_0.pcx", 2 + 32, 0));
    pcx_t field = load_pcx(&f, "pics/field_3.pcx");
    assert_int_equal(f.buf[1 * W + 1], field.pixels[1 * field.width + 1]);
    pcx_free(&field);
    st[S_FLASHES] = 0;
    // ammo: nothing when negative, the width from the last num
    st[S_AMMO] = -1;
    fx_run(&f, "anum");
    assert_int_equal(drawn(&f), 0);
    st[S_AMMO] = 50;
    assert_same(&f, "num 2 1 anum", "num 2 3");
    // armor: nothing below 1
    st[S_ARMOR] = 0;
    fx_run(&f, "rnum");
    assert_int_equal(drawn(&f), 0);
    st[S_ARMOR] = 200;
    assert_same(&f, "rnum", "num 3 5");
    fx_close(&f);
}

static void test_pics_and_text(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    int *st = f.w->view.stats;
    st[0] = 1;
    st[2] = 3;
    fx_run(&f, "xv 50 yb -40 pic 0 xv 100 pic 2");
    assert_true(shows_pic(&f, "pics/i_health.pcx", 50, 200));
    assert_true(shows_pic(&f, "players/male/grunt_i.pcx", 100, 200));   // a full path image
    st[0] = 4;   // an image that is not in the data: nothing
    fx_run(&f, "pic 0 picn no_such_picture picn ../../etc/passwd picn /players/male/grunt_i.pcx");
    assert_true(shows_pic(&f, "players/male/grunt_i.pcx", 0, 0));
    assert_same(&f, "xv 10 yv 20 picn i_help", "xv 10 yv 20 picn /pics/i_help.pcx");
    fx_run(&f, "xl 8 yt 16 string \"A\" xl 16 string2 \"A\"");
    assert_true(shows_char(&f, 'A', 8, 16));
    assert_true(shows_char(&f, 'A' | 0x80, 16, 16));
    // cstring: each line centered in 320 from x
    fx_run(&f, "xv 0 yv 0 cstring \"AB\nC\" yv 32 cstring2 \"D\"");
    assert_true(shows_char(&f, 'A', 152, 0));
    assert_true(shows_char(&f, 'B', 160, 0));
    assert_true(shows_char(&f, 'C', 156, 8));
    assert_true(shows_char(&f, 'D' | 0x80, 156, 32));
    // stat_string: the configstring a stat names (the pickup item's name)
    st[S_PICKUP_STRING] = 1056 + 7;
    assert_same(&f, "xv 26 yb -42 stat_string 8", "xv 26 yb -42 string Shotgun");
    // ... or one of the game's own strings (CS_GENERAL: opentdm's "Match" timer, players' names)
    world_set_general(f.w, 6, "Match");
    st[S_PICKUP_STRING] = 1568 + 6;
    assert_same(&f, "xv 26 yb -42 stat_string 8", "xv 26 yb -42 string Match");
    world_set_general(f.w, 6, "");
    // comments and tabs separate tokens
    assert_same(&f, "xv\t26 // a comment\n yb -42 string Shotgun", "xv 26 yb -42 string \"Shotgun\"");
    fx_close(&f);
}

// Pictures a level names after it began: an image config string set in mid-level, a layout
// with a `picn` the level start did not hold. Quake II's client registers both when they
// come; r_2d_frame (each decoded frame) looks for them then, once.
static void test_pics_named_later(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    int *st = f.w->view.stats;
    st[0] = 5;
    assert_int_equal(world_set_image(f.w, 5, "a_cells"), 0);
    fx_run(&f, "xv 40 yv 40 pic 0 xv 80 picn a_rockets");
    assert_int_equal(drawn(&f), 0);   // neither was named when the level was loaded
    snprintf(f.w->view.layout, sizeof f.w->view.layout, "xv 80 yv 40 picn a_rockets");
    r_2d_frame(f.d, f.w);
    fx_run(&f, "xv 40 yv 40 pic 0 xv 80 picn a_rockets");
    assert_true(shows_pic(&f, "pics/a_cells.pcx", 40, 40));
    assert_true(shows_pic(&f, "pics/a_rockets.pcx", 80, 40));
    fx_close(&f);
}

// A picture the data lacks: Quake II's Draw_Pic prints "Can't find pic: NAME" each time it is
// asked to draw it, and its notify area shows the console's newest lines: at con_notifytime 0
// (--notify off) this frame's prints, otherwise the last four of the prints every frame repeats.
static int shows_text(fx_t *f, const char *s, int x, int y)
{
    for (; *s; s++, x += 8)
        if (*s != ' ' && !shows_char(f, (uint8_t)*s, x, y))
            return 0;
    return 1;
}

static void test_missing_pic_prints(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    world_t *w = f.w;
    snprintf(w->statusbar, sizeof w->statusbar, "yb -24 xv 0 hnum xv 100 picn nope_a xv 150 pic 0 picn nope_b");
    w->view.stats[S_HEALTH] = 100;
    w->view.stats[0] = 4;   // image 4: "no_such_picture"
    static uint8_t buf[W * H];
    r_view_t v;
    memset(&v, 0, sizeof v);
    v.buffer = buf;
    v.width = W;
    v.height = H;
    v.rowbytes = W;
    v.time = 10.0;
    r_2d_set_notify(f.d, 0);
    memset(buf, CLEAR, sizeof buf);
    r_2d_draw(f.d, w, &v);
    memcpy(f.buf, buf, sizeof buf);
    assert_true(shows_text(&f, "Can't find pic: nope_a", 8, 0));
    assert_true(shows_text(&f, "Can't find pic: no_such_picture", 8, 8));
    assert_true(shows_text(&f, "Can't find pic: nope_b", 8, 16));
    assert_false(shows_char(&f, 'C', 8, 24));   // three prints: three lines
    r_2d_set_notify(f.d, 1);
    memset(buf, CLEAR, sizeof buf);
    r_2d_draw(f.d, w, &v);
    memcpy(f.buf, buf, sizeof buf);
    assert_true(shows_text(&f, "Can't find pic: nope_b", 8, 0));   // the frame before's last
    assert_true(shows_text(&f, "Can't find pic: nope_a", 8, 8));
    assert_true(shows_text(&f, "Can't find pic: no_such_picture", 8, 16));
    assert_true(shows_text(&f, "Can't find pic: nope_b", 8, 24));
    // every picture there: no lines, the notify area is the console's again
    snprintf(w->statusbar, sizeof w->statusbar, "yb -24 xv 0 hnum");
    memset(buf, CLEAR, sizeof buf);
    r_2d_draw(f.d, w, &v);
    memcpy(f.buf, buf, sizeof buf);
    assert_false(shows_char(&f, 'C', 8, 0));
    fx_close(&f);
}

static void test_if_endif(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    int *st = f.w->view.stats;
    st[S_HEALTH] = 42;
    st[20] = 0;
    fx_run(&f, "if 20 num 3 1 endif");
    assert_int_equal(drawn(&f), 0);
    st[20] = 1;
    assert_same(&f, "if 20 num 3 1 endif", "num 3 1");
    // no nesting: a false if skips to the FIRST endif, as Quake II's client does
    st[20] = 0;
    assert_same(&f, "if 20 if 21 endif xv 100 num 3 1 endif", "xv 100 num 3 1");
    // unterminated: the rest of the program is skipped
    fx_run(&f, "if 20 num 3 1");
    assert_int_equal(drawn(&f), 0);
    fx_close(&f);
}

static void test_client_ctf(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    assert_same(&f, "client 16 24 1 12 34 56",
                "xv 48 yv 24 string2 bob yv 32 string \"Score: \" xv 104 string2 12 "
                "xv 48 yv 40 string \"Ping:  34\" yv 48 string \"Time:  56\" xv 16 yv 24 picn /players/male/grunt_i.pcx");
    assert_same(&f, "ctf 0 8 1 5 2000", "xv 0 yv 8 string \"  5 999 bob         \"");
    f.w->playernum = 1;   // the recording player's line in the alternate set
    assert_same(&f, "ctf 0 8 1 5 20", "xv 0 yv 8 string2 \"  5  20 bob         \"");
    // a client slot the world does not keep: nothing; missing arguments are 0, as atoi("")
    fx_run(&f, "client 0 0 64 1 2 3 ctf 0 0 -1 1 2");
    assert_int_equal(drawn(&f), 0);
    assert_same(&f, "ctf 0 8 1", "ctf 0 8 1 0 0");
    fx_close(&f);
}

static void test_hostile(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    int *st = f.w->view.stats;
    st[S_HEALTH] = 100;
    st[0] = -7;
    st[2] = 99999;
    st[S_PICKUP_STRING] = 123456;
    static const char *const quiet[] = {
        "num 3 -1", "num 3 32", "num 3 99999999999999999999", "if -3 endif", "pic 0 pic 2 pic 40",
        "stat_string 8", "stat_string -8", "xv 99999999999999 yv -99999999999 num 5 1",
        "xr 2147483647 yb 2147483647 hnum", "xl -2147483648 yt -2147483648 num 5 1 string AAAA",
        "picn", "num", "num 3", "if", "stat_string",
        "\"\"\"\"", "endif endif endif", "//", "cstring", "string2",
    };
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        fx_run(&f, quiet[i]);
        if (drawn(&f))
            fail_msg("program %zu '%s' drew %d pixels", i, quiet[i], drawn(&f));
    }
    // an unterminated quote runs to the end, as Quake II's COM_Parse
    assert_same(&f, "string \"two words", "string \"two words\"");
    // stat_string of a configstring the world keeps as "": nothing either
    st[S_PICKUP_STRING] = 1568;
    fx_run(&f, "stat_string 8");
    assert_int_equal(drawn(&f), 0);
    // a long token is cut, not overrun: 300 'A's draw 127 characters (the last at x -800 + 126 * 8)
    char big[400] = "xl -800 yt 0 string ";
    memset(big + strlen(big), 'A', 300);
    fx_run(&f, big);
    assert_true(shows_char(&f, 'A', 208, 0));
    for (int y = 0; y < 8; y++)
        for (int x = 216; x < W; x++)
            assert_int_equal(f.buf[y * W + x], CLEAR);
    // 10 KB of garbage mixed with real tokens: never a crash, always the same pixels
    static char garbage[10241];
    static const char *const words[] = { "xv", "yv", "xr", "yb", "num", "hnum", "anum", "rnum", "pic", "picn",
                                         "if", "endif", "string", "string2", "cstring", "cstring2", "client",
                                         "ctf", "stat_string", "\"", "//", "\n", "-", "99999" };
    uint32_t x = 12345;
    size_t n = 0;
    while (n < sizeof garbage - 16) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        if (x & 1) {
            const char *wd = words[(x >> 1) % (sizeof words / sizeof words[0])];
            size_t l = strlen(wd);
            memcpy(garbage + n, wd, l);
            n += l;
            garbage[n++] = ' ';
        } else {
            char ch = (char)((x >> 8) & 0xff);
            garbage[n++] = ch ? ch : ' ';
        }
    }
    garbage[n] = 0;
    for (int i = 0; i < 32; i++)
        st[i] = (int)(i * 2654435761u);   // every stat a wild value
    fx_run(&f, garbage);
    uint32_t h = fnv(f.buf, W * H);
    fx_run(&f, garbage);
    assert_int_equal(fnv(f.buf, W * H), h);
    fx_close(&f);
}

static void test_draw_and_blend(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fx_t f;
    fx_open(&f);
    world_t *w = f.w;
    snprintf(w->statusbar, sizeof w->statusbar, "yb -24 xv 0 hnum");
    snprintf(w->view.layout, sizeof w->view.layout, "xv 0 yv 0 string2 Scores");
    w->view.stats[S_HEALTH] = 100;
    static uint8_t buf[W * H];
    r_view_t v;
    memset(&v, 0, sizeof v);
    v.buffer = buf;
    v.width = W;
    v.height = H;
    v.rowbytes = W;
    v.time = 10.0;
    // the layout only while the game sets STAT_LAYOUTS bit 0 (bit 1 is the inventory)
    for (int layouts = 0; layouts < 4; layouts++) {
        w->view.stats[S_LAYOUTS] = layouts;
        memset(buf, CLEAR, sizeof buf);
        r_2d_draw(f.d, w, &v);
        memcpy(f.buf, buf, sizeof buf);
        assert_true(shows_pic(&f, "pics/num_1.pcx", 2, 216));
        assert_int_equal(shows_char(&f, 'S' | 0x80, 0, 0), layouts & 1);
    }
    assert_int_equal(r_2d_sbar_lines(f.d, w, 640, 480), 0);   // the HUD is drawn over the view
    // the game's blend: c + a * (rgb * 255 - c)
    uint8_t base[768], out[768];
    for (int i = 0; i < 768; i++)
        base[i] = (uint8_t)(i / 3);
    r_2d_blend(f.d, w, 10.0, -3, base, out);   // no blend sent: unchanged, whatever the contents
    assert_memory_equal(out, base, 768);
    w->view.blend[0] = 1.0f;
    w->view.blend[3] = 0.5f;
    r_2d_blend(f.d, w, 10.0, 0, base, out);
    assert_int_equal(out[0], 127);            // 127.5 + 0.5 * 0
    assert_int_equal(out[1], 0);
    assert_int_equal(out[200 * 3], 227);      // 127.5 + 100
    assert_int_equal(out[200 * 3 + 2], 100);
    w->view.blend[3] = 7.0f;                  // clamped to 1
    r_2d_blend(f.d, w, 10.0, 0, base, out);
    assert_int_equal(out[100 * 3], 255);
    assert_int_equal(out[100 * 3 + 1], 0);
    fx_close(&f);
}

// The recorded demo at 40.1 s: health 67, shells 48 (from `demoplay dump`),
// drawn with the level's pictures on a cleared 320x240 frame.
static void test_real_demo(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = tu_data("quake2");
    demo_t demo;
    assert_int_equal(demo_open(&demo, &cli, tu_data("quake2/demos/q2demo1_p31.dm2"), NULL, 0), 0);
    vfs_t *fs = demo_mount(&demo, &cli);
    r_2d_t *d = r_2d_create();
    uint32_t level = (uint32_t)-1;
    world_t *w = demo.world;
    int loaded = 0;
    while (w->time < 40.0 && demo_read_frame(&demo) > 0) {
        if (w->level_seq != level) {
            level = w->level_seq;
            loaded = r_2d_load(d, fs, w, tu_palette());
        }
        r_2d_frame(d, w);
    }
    assert_int_equal(w->game, GAME_QUAKE2);
    assert_true(loaded > 40);
    assert_int_equal(w->view.stats[S_HEALTH], 67);
    assert_int_equal(w->view.stats[S_AMMO], 48);
    assert_string_equal(w->images[w->view.stats[0]], "i_health");
    assert_string_equal(w->images[w->view.stats[2]], "a_shells");
    static uint8_t buf[W * H];
    memset(buf, CLEAR, sizeof buf);
    r_view_t v;
    memset(&v, 0, sizeof v);
    v.buffer = buf;
    v.width = v.rowbytes = W;
    v.height = H;
    v.time = w->time;
    r_2d_draw(d, w, &v);
    fx_t f = { .fs = fs, .buf = buf };
    assert_true(shows_pic(&f, "pics/num_6.pcx", 2 + 16, 216));   // hnum at xv 0
    assert_true(shows_pic(&f, "pics/num_7.pcx", 2 + 32, 216));
    assert_true(shows_pic(&f, "pics/i_health.pcx", 50, 216));
    assert_true(shows_pic(&f, "pics/num_4.pcx", 100 + 2 + 16, 216));   // anum at xv 100
    assert_true(shows_pic(&f, "pics/num_8.pcx", 100 + 2 + 32, 216));
    assert_true(shows_pic(&f, "pics/a_shells.pcx", 150, 216));
    // the whole bottom of the frame, pinned
    assert_int_equal(fnv(buf + (H - 32) * W, 32 * W), 0xd3643c8bu);
    r_2d_destroy(d);
    vfs_free(fs);
    demo_close(&demo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_hnum_anum_rnum),
        cmocka_unit_test(test_pics_and_text),
        cmocka_unit_test(test_pics_named_later),
        cmocka_unit_test(test_missing_pic_prints),
        cmocka_unit_test(test_if_endif),
        cmocka_unit_test(test_client_ctf),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_draw_and_blend),
        cmocka_unit_test(test_real_demo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
