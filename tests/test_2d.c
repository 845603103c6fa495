// test_2d.c -- WAD/LMP loaders, the Quake status bar, console text timing, centerprint and screen blends
//
// Set R2D_PNG_DIR=/some/dir to also write the drawn frames as PNGs (to look at them).
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

#include "assets/wad.h"
#include "engine/demo.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "render/r_2d.h"
#include "render/r_2d_local.h"   // r_2d_wrap, r_2d_center_print

// ---- helpers ----------------------------------------------------------------

typedef struct {
    vfs_t *fs;
    world_t *w;
    r_2d_t *d;
    uint8_t palette[768];
    uint8_t *buf;
    int width, height;
} fixture_t;

static void fx_open(fixture_t *f, int width, int height)
{
    memset(f, 0, sizeof(*f));
    f->fs = vfs_create();
    assert_non_null(f->fs);
    assert_true(vfs_add_dir(f->fs, tu_data("quake/id1")) >= 0);
    size_t size = 0;
    uint8_t *pal = vfs_load(f->fs, "gfx/palette.lmp", &size);
    assert_non_null(pal);
    assert_int_equal(size, 768);
    memcpy(f->palette, pal, 768);
    free(pal);
    f->w = world_create();
    assert_non_null(f->w);
    f->w->game = GAME_QUAKE;
    f->w->maxclients = 1;
    snprintf(f->w->level_name, sizeof f->w->level_name, "the Slipgate Complex");
    f->d = r_2d_create();
    assert_non_null(f->d);
    assert_true(r_2d_load(f->d, f->fs, f->w, tu_palette()) > 100);
    f->width = width;
    f->height = height;
    f->buf = malloc((size_t)width * (size_t)height);
    assert_non_null(f->buf);
}

static void fx_close(fixture_t *f)
{
    r_2d_destroy(f->d);
    world_free(f->w);
    vfs_free(f->fs);
    free(f->buf);
}

// A full-health single player with shotgun + nailgun, shells active.
static void fx_player(fixture_t *f)
{
    world_view_t *v = &f->w->view;
    v->entity = 1;
    v->stats[STAT_HEALTH] = 100;
    v->stats[STAT_ARMOR] = 50;
    v->stats[STAT_AMMO] = 25;
    v->stats[STAT_SHELLS] = 25;
    v->stats[STAT_NAILS] = 120;
    v->stats[STAT_ROCKETS] = 5;
    v->stats[STAT_CELLS] = 0;
    v->stats[STAT_ACTIVEWEAPON] = 1;   // IT_SHOTGUN
    v->items = 1 | 4 | 256 | 8192 | (1 << 17) | (1 << 28);   // shotgun, nailgun, shells, green armor, key1, sigil1
}

static void fx_draw(fixture_t *f, double t, const char *png)
{
    memset(f->buf, 0, (size_t)f->width * (size_t)f->height);
    r_view_t v;
    memset(&v, 0, sizeof v);
    v.buffer = f->buf;
    v.width = f->width;
    v.height = f->height;
    v.rowbytes = f->width;
    v.palette = f->palette;
    v.time = t;
    r_2d_draw(f->d, f->w, &v);
    const char *dir = getenv("R2D_PNG_DIR");
    if (dir && png) {
        uint8_t pal[768];
        r_2d_blend(f->d, f->w, t, 0, f->palette, pal);
        size_t n = (size_t)f->width * (size_t)f->height;
        uint8_t *rgb = malloc(n * 3);
        for (size_t i = 0; i < n; i++)
            memcpy(rgb + i * 3, pal + f->buf[i] * 3, 3);
        char path[512];
        snprintf(path, sizeof path, "%s/%s.png", dir, png);
        stbi_write_png(path, f->width, f->height, 3, rgb, f->width * 3);
        free(rgb);
    }
}

static uint8_t px(const fixture_t *f, int x, int y) { return f->buf[y * f->width + x]; }

static int region_nonzero(const fixture_t *f, int x0, int y0, int w, int h)
{
    int n = 0;
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++)
            n += px(f, x, y) != 0;
    return n;
}

// Does the framebuffer at (x, y) show picture `name` from gfx.wad (255 = see-through when trans)?
static int shows_lump(const fixture_t *f, const char *name, int x, int y, int scale, int trans)
{
    size_t size = 0;
    uint8_t *bytes = vfs_load(f->fs, "gfx.wad", &size);
    wad_t wad;
    char err[128];
    assert_int_equal(wad_open(&wad, bytes, size, err, sizeof err), 0);
    wad_pic_t pic;
    assert_int_equal(wad_lump_pic(&wad, wad_find(&wad, name), &pic, err, sizeof err), 0);
    int ok = 1;
    for (int j = 0; j < pic.height * scale && ok; j++)
        for (int i = 0; i < pic.width * scale; i++) {
            uint8_t p = pic.pixels[(j / scale) * pic.width + i / scale];
            if (trans && p == 255)
                continue;
            if (px(f, x + i, y + j) != p) {
                ok = 0;
                break;
            }
        }
    wad_pic_free(&pic);
    wad_close(&wad);
    free(bytes);
    return ok;
}

// Is real column range [x0, x1) of rows [y0, y1) the back tile fixed to the virtual screen?
static int shows_tile(const fixture_t *f, int x0, int x1, int y0, int y1, int scale, int ox, int oy)
{
    size_t size = 0;
    uint8_t *bytes = vfs_load(f->fs, "gfx.wad", &size);
    wad_t wad;
    char err[128];
    assert_int_equal(wad_open(&wad, bytes, size, err, sizeof err), 0);
    wad_pic_t pic;
    assert_int_equal(wad_lump_pic(&wad, wad_find(&wad, "backtile"), &pic, err, sizeof err), 0);
    int ok = 1;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            int vx = (x - ox + scale * 1000) / scale - 1000, vy = (y - oy + scale * 1000) / scale - 1000;
            if (px(f, x, y) != pic.pixels[((vy % 128 + 128) % 128) * 128 + (vx % 128 + 128) % 128])
                ok = 0;
        }
    wad_pic_free(&pic);
    wad_close(&wad);
    free(bytes);
    return ok;
}

static uint32_t fnv(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

// ---- WAD and LMP loaders ----------------------------------------------------

static void test_wad_real(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size = 0;
    uint8_t *bytes = tu_read(tu_data("quake/id1/gfx.wad"), &size);
    assert_non_null(bytes);
    wad_t wad;
    char err[128];
    assert_int_equal(wad_open(&wad, bytes, size, err, sizeof err), 0);
    assert_int_equal(wad.kind, WAD_KIND_WAD2);
    assert_int_equal(wad.num_lumps, 149);
    static const struct { const char *name; int w, h; } pics[] = {
        { "sbar", 320, 24 }, { "ibar", 320, 24 }, { "scorebar", 320, 24 }, { "num_0", 24, 24 },
        { "anum_minus", 24, 24 }, { "face_p5", 24, 24 }, { "inv_lightng", 48, 16 }, { "inva5_shotgun", 24, 16 },
        { "sb_sigil4", 8, 16 }, { "sb_quad", 16, 16 }, { "backtile", 128, 128 }, { "disc", 24, 24 },
    };
    for (size_t i = 0; i < sizeof pics / sizeof pics[0]; i++) {
        const wad_lump_t *l = wad_find(&wad, pics[i].name);
        assert_non_null(l);
        assert_int_equal(l->type, WAD_TYP_QPIC);
        wad_pic_t p;
        assert_int_equal(wad_lump_pic(&wad, l, &p, err, sizeof err), 0);
        assert_int_equal(p.width, pics[i].w);
        assert_int_equal(p.height, pics[i].h);
        assert_null(p.palette);
        wad_pic_free(&p);
    }
    const wad_lump_t *cc = wad_find(&wad, "CONCHARS");
    assert_non_null(cc);
    assert_int_equal(cc->type, WAD_TYP_MIPTEX);
    assert_int_equal(cc->disksize, 16384);
    assert_null(wad_find(&wad, "no_such_lump"));
    wad_close(&wad);
    free(bytes);

    // WAD3 (GoldSrc): same directory, pictures carry their own palette.
    bytes = tu_read(tu_data("goldsrc/valve/gfx.wad"), &size);
    assert_non_null(bytes);
    assert_int_equal(wad_open(&wad, bytes, size, err, sizeof err), 0);
    assert_int_equal(wad.kind, WAD_KIND_WAD3);
    assert_int_equal(wad.num_lumps, 7);
    wad_pic_t p;
    assert_int_equal(wad_lump_pic(&wad, wad_find(&wad, "lambda"), &p, err, sizeof err), 0);
    assert_int_equal(p.width, 128);
    assert_int_equal(p.height, 128);
    assert_non_null(p.palette);
    wad_pic_free(&p);
    const wad_lump_t *font = wad_find(&wad, "conchars");
    assert_non_null(font);
    assert_int_equal(font->type, WAD_TYP_FONT);
    wad_close(&wad);
    free(bytes);
}

static void test_lmp_real(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct { const char *file; int w, h; } lmps[] = {
        { "complete", 142, 28 }, { "inter", 160, 144 }, { "finale", 112, 28 }, { "ranking", 86, 28 },
        { "pause", 86, 28 }, { "conback", 320, 200 },
    };
    for (size_t i = 0; i < sizeof lmps / sizeof lmps[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "quake/id1/gfx/%s.lmp", lmps[i].file);
        size_t size = 0;
        uint8_t *bytes = tu_read(tu_data(path), &size);
        assert_non_null(bytes);
        wad_pic_t p;
        char err[128];
        assert_int_equal(wad_pic_from_lmp(&p, bytes, size, err, sizeof err), 0);
        assert_int_equal(p.width, lmps[i].w);
        assert_int_equal(p.height, lmps[i].h);
        wad_pic_free(&p);
        free(bytes);
    }
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void test_wad_hostile(void **state)
{
    (void)state;
    char err[160];
    wad_t wad;
    wad_pic_t pic;
    uint8_t b[128];
    memset(b, 0, sizeof b);
    assert_int_equal(wad_open(&wad, b, 5, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 0"));
    memcpy(b, "WAD9", 4);
    assert_int_equal(wad_open(&wad, b, sizeof b, err, sizeof err), -1);
    memcpy(b, "WAD2", 4);
    put32(b + 4, 0xffffffffu);   // -1 lumps
    assert_int_equal(wad_open(&wad, b, sizeof b, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 4"));
    put32(b + 4, 3);              // 3 entries do not fit at offset 40 in 128 bytes
    put32(b + 8, 40);
    assert_int_equal(wad_open(&wad, b, sizeof b, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 8"));
    put32(b + 4, 1);              // one entry whose lump runs past the end
    put32(b + 40, 100);
    put32(b + 44, 100);
    memcpy(b + 56, "sbar", 4);
    assert_int_equal(wad_open(&wad, b, sizeof b, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 40"));
    put32(b + 40, 12);            // a lump in bounds: a qpic claiming 1000x1000
    put32(b + 44, 28);
    b[52] = WAD_TYP_QPIC;
    put32(b + 12, 1000);
    put32(b + 16, 1000);
    assert_int_equal(wad_open(&wad, b, sizeof b, err, sizeof err), 0);
    assert_int_equal(wad_lump_pic(&wad, wad_find(&wad, "SBAR"), &pic, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 20"));
    assert_null(pic.pixels);
    put32(b + 12, 0x80000000u);   // negative width
    assert_int_equal(wad_lump_pic(&wad, wad_find(&wad, "sbar"), &pic, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 12"));
    put32(b + 12, 4);             // 4x4 = 16 pixels + 8 header = 24 <= 28 bytes: fine
    put32(b + 16, 4);
    assert_int_equal(wad_lump_pic(&wad, wad_find(&wad, "sbar"), &pic, err, sizeof err), 0);
    wad_pic_free(&pic);
    wad_close(&wad);
    assert_int_equal(wad_pic_from_lmp(&pic, b, 7, err, sizeof err), -1);
    assert_int_equal(wad_pic_from_raw(&pic, b, 100, 128, 128, err, sizeof err), -1);

    // Random corruption of the real file: errors or pictures, never a crash (ASan run).
    if (!tu_data_dir())
        return;
    size_t size = 0;
    uint8_t *real = tu_read(tu_data("quake/id1/gfx.wad"), &size);
    assert_non_null(real);
    uint8_t *copy = malloc(size);
    uint32_t seed = 12345;
    int opened = 0;
    for (int iter = 0; iter < 300; iter++) {
        memcpy(copy, real, size);
        size_t n = size;
        for (int k = 0; k < 8; k++) {
            seed = seed * 1103515245u + 12345u;
            // Hit the header and directory most of the time, the picture headers otherwise.
            size_t at = (seed >> 8) % 3 ? 128364 + (seed >> 4) % (size - 128364) : (seed >> 4) % size;
            if (k == 0 && iter % 5 == 0)
                at = (seed >> 4) % 12;
            copy[at] = (uint8_t)(seed >> 16);
        }
        if (iter % 7 == 0)
            n = (seed >> 3) % size;
        if (wad_open(&wad, copy, n, err, sizeof err) == 0) {
            opened++;
            for (int i = 0; i < wad.num_lumps; i++) {
                if (wad_lump_pic(&wad, &wad.lumps[i], &pic, err, sizeof err) == 0)
                    wad_pic_free(&pic);
            }
            wad_close(&wad);
        }
    }
    assert_true(opened > 0);
    free(copy);
    free(real);
}

// ---- the status bar ---------------------------------------------------------

static void test_sbar_320(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, 320, 200);
    fx_player(&f);
    assert_int_equal(r_2d_scale(320, 200), 1);
    assert_int_equal(r_2d_sbar_lines(f.d, f.w, 320, 200), 48);
    world_begin_frame(f.w, 10.0);
    r_2d_frame(f.d, f.w);     // first level frame: every item "just picked up"
    fx_draw(&f, 10.5, "sbar_flash");
    // shotgun flashes: inva frames at t - gettime = 0.5 s -> (5 % 5) + 2 = frame 2 = inva1
    assert_true(shows_lump(&f, "inva1_shotgun", 0, 160, 1, 0));
    fx_draw(&f, 12.0, "sbar_320");
    // the bar at the bottom 24 rows, the inventory above it
    assert_true(shows_lump(&f, "face1", 112, 176, 1, 0));        // health 100
    assert_true(shows_lump(&f, "sb_armor1", 0, 176, 1, 0));
    assert_true(shows_lump(&f, "sb_shells", 224, 176, 1, 0));
    assert_true(shows_lump(&f, "num_1", 136, 176, 1, 1));        // "100"
    assert_true(shows_lump(&f, "num_0", 160, 176, 1, 1));
    assert_true(shows_lump(&f, "num_5", 48, 176, 1, 1));         // armor " 50" right-aligned
    assert_true(shows_lump(&f, "inv2_shotgun", 0, 160, 1, 0));   // active weapon highlighted
    assert_true(shows_lump(&f, "inv_nailgun", 48, 160, 1, 0));   // owned
    assert_true(shows_lump(&f, "sb_key1", 192, 160, 1, 0));
    assert_true(shows_lump(&f, "sb_sigil1", 288, 160, 1, 0));
    // the rocket count "  5" in the small digits (console font 18 + 5) at (6*2+3)*8-2+4
    assert_true(region_nonzero(&f, 122, 152, 8, 8) > 0);
    // 3D view area untouched, notify line shows the level banner
    assert_int_equal(region_nonzero(&f, 0, 60, 320, 80), 0);
    uint32_t sum = fnv(f.buf + 320 * 152, 320 * 48);
    // Pinned: the LibreQuake gfx.wad drawn for these stats.
    assert_int_equal(sum, 0x6e1df197u);

    // a rocket launcher picked up at 12.5: inva1 .. inva5 at 10 Hz, twice, then owned
    world_begin_frame(f.w, 12.5);
    f.w->view.items |= 32;
    r_2d_frame(f.d, f.w);
    fx_draw(&f, 12.52, NULL);
    assert_true(shows_lump(&f, "inva1_srlaunch", 120, 160, 1, 0));
    fx_draw(&f, 12.83, NULL);
    assert_true(shows_lump(&f, "inva4_srlaunch", 120, 160, 1, 0));
    fx_draw(&f, 13.15, NULL);
    assert_true(shows_lump(&f, "inva2_srlaunch", 120, 160, 1, 0));
    fx_draw(&f, 13.51, NULL);
    assert_true(shows_lump(&f, "inv_srlaunch", 120, 160, 1, 0));
    // paused: the pause picture over the view
    f.w->view.paused = 1;
    fx_draw(&f, 13.51, "paused");
    assert_true(region_nonzero(&f, (320 - 86) / 2, (200 - 48 - 28) / 2, 86, 28) > 1000);
    f.w->view.paused = 0;

    // low health: red digits, hurt face; damage: pain face for 0.2 s
    f.w->view.stats[STAT_HEALTH] = 15;
    world_begin_frame(f.w, 13.0);
    world_event_t *ev = world_add_event(f.w, EV_DAMAGE);
    ev->u.damage.armor = 0;
    ev->u.damage.blood = 20;
    r_2d_frame(f.d, f.w);
    fx_draw(&f, 13.1, "sbar_pain");
    assert_true(shows_lump(&f, "face_p5", 112, 176, 1, 0));
    assert_true(shows_lump(&f, "anum_1", 160, 176, 1, 1));
    fx_draw(&f, 13.3, NULL);
    assert_true(shows_lump(&f, "face5", 112, 176, 1, 0));
    // quad: the quad face
    f.w->view.items |= 1 << 22;
    fx_draw(&f, 13.3, NULL);
    assert_true(shows_lump(&f, "face_quad", 112, 176, 1, 0));
    // dead: the score bar
    f.w->view.stats[STAT_HEALTH] = 0;
    fx_draw(&f, 14, "sbar_dead");
    assert_true(shows_lump(&f, "ibar", 0, 152, 1, 0) == 0);   // weapons drawn over it
    assert_true(region_nonzero(&f, 8, 180, 100, 8) > 0);       // "Monsters:" text
    fx_close(&f);
}

static void test_sbar_scaled(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, 1280, 720);
    fx_player(&f);
    assert_int_equal(r_2d_scale(1280, 720), 3);
    assert_int_equal(r_2d_scale(1920, 1080), 4);
    assert_int_equal(r_2d_scale(640, 480), 2);
    assert_int_equal(r_2d_sbar_lines(f.d, f.w, 1280, 720), 144);
    world_begin_frame(f.w, 1.0);
    r_2d_center_print(f.d, "The Doomed Dimension", 1.0);
    r_2d_frame(f.d, f.w);
    fx_draw(&f, 3.0, "sbar_1280");
    // virtual 426x240: bar centered at x (426-320)/2 = 53 -> real 1 + 159 (1 left-over column)
    assert_true(shows_lump(&f, "face1", 1 + (53 + 112) * 3, 720 - 24 * 3, 3, 0));
    // back tile beside the bar, over the left-over column too
    assert_true(region_nonzero(&f, 0, 700, 150, 20) > 0);
    assert_true(shows_tile(&f, 0, 1 + 53 * 3, 720 - 48 * 3, 720, 3, 1, 0));
    // deathmatch: the bar against the left edge, frag boxes on the inventory line
    f.w->deathmatch = 1;
    f.w->maxclients = 8;
    f.w->view.entity = 2;
    snprintf(f.w->players[1].name, WORLD_NAME_LEN, "me");
    f.w->players[1].frags = 3;
    f.w->players[1].top_color = 13;
    f.w->players[1].bottom_color = 4;
    snprintf(f.w->players[5].name, WORLD_NAME_LEN, "them");
    f.w->players[5].frags = -2;
    fx_draw(&f, 3.0, "sbar_1280_dm");
    assert_true(shows_lump(&f, "face1", 1 + 112 * 3, 720 - 24 * 3, 3, 0));
    // probes under the blank first digit: me first (shirt, pants), then them (colour 0)
    assert_int_equal(px(&f, 1 + 205 * 3, 720 - 47 * 3), 13 * 16 + 8);
    assert_int_equal(px(&f, 1 + 205 * 3, 720 - 43 * 3), 4 * 16 + 8);
    assert_int_equal(px(&f, 1 + 229 * 3, 720 - 47 * 3), 8);
    f.w->view.intermission = 1;
    assert_int_equal(r_2d_sbar_lines(f.d, f.w, 1280, 720), 0);
    fx_close(&f);
}

static void test_intermission(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, 320, 200);
    fx_player(&f);
    world_view_t *v = &f.w->view;
    v->intermission = 1;
    v->completed_time = 125.7;   // 2:05
    v->stats[STAT_SECRETS] = 2;
    v->stats[STAT_TOTALSECRETS] = 5;
    v->stats[STAT_MONSTERS] = 31;
    v->stats[STAT_TOTALMONSTERS] = 40;
    world_begin_frame(f.w, 126);
    r_2d_frame(f.d, f.w);
    fx_draw(&f, 127, "intermission");
    assert_true(shows_lump(&f, "num_2", 160 + 48, 64, 1, 1));   // minutes "  2"
    assert_true(shows_lump(&f, "num_0", 246, 64, 1, 1));
    assert_true(shows_lump(&f, "num_5", 266, 64, 1, 1));
    assert_true(region_nonzero(&f, 234, 64, 12, 24) > 0);        // the colon, partly under the "0"
    assert_true(shows_lump(&f, "num_4", 240 + 24, 144, 1, 1));  // " 40"
    assert_int_equal(region_nonzero(&f, 0, 176, 320, 24), 0);    // no status bar
    // finale: text typed at 8 characters a second
    v->intermission = 2;
    v->completed_time = 200;
    snprintf(v->finale_text, sizeof v->finale_text, "As the corpse of the monstrous entity\nShub-Niggurath turns to ooze");
    fx_draw(&f, 200.5, "finale_early");
    int early = region_nonzero(&f, 0, 60, 320, 30);
    fx_draw(&f, 210, "finale");
    int late = region_nonzero(&f, 0, 60, 320, 30);
    assert_true(early > 0);
    assert_true(late > early * 5);
    // deathmatch intermission: the ranking
    v->intermission = 1;
    f.w->deathmatch = 1;
    f.w->maxclients = 4;
    snprintf(f.w->players[0].name, WORLD_NAME_LEN, "player");
    f.w->players[0].frags = 7;
    f.w->players[0].top_color = 4;
    snprintf(f.w->players[2].name, WORLD_NAME_LEN, "bot");
    f.w->players[2].frags = 12;
    fx_draw(&f, 210, "ranking");
    assert_int_equal(px(&f, 80, 40), 8);          // bot first: colours 0 -> 8
    assert_int_equal(px(&f, 80, 50), 4 * 16 + 8); // then the player, shirt 4
    fx_close(&f);
}

// ---- text ---------------------------------------------------------------------

static void test_notify_timing(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, 320, 200);
    fx_player(&f);
    world_begin_frame(f.w, 5.0);
    r_2d_frame(f.d, f.w);   // level banner printed at 5.0
    world_begin_frame(f.w, 20.0);
    world_add_text_event(f.w, EV_PRINT, "You got the shells\n", 0);
    r_2d_frame(f.d, f.w);
    fx_draw(&f, 20.5, "notify");
    assert_true(region_nonzero(&f, 8, 0, 18 * 8, 8) > 0);
    assert_int_equal(region_nonzero(&f, 0, 8, 320, 8), 0);   // older lines expired
    fx_draw(&f, 22.9, NULL);
    assert_true(region_nonzero(&f, 8, 0, 18 * 8, 8) > 0);
    fx_draw(&f, 23.1, NULL);
    assert_int_equal(region_nonzero(&f, 0, 0, 320, 32), 0);
    // five lines at once: only the last four show; a partial line continues
    world_begin_frame(f.w, 30.0);
    world_add_text_event(f.w, EV_PRINT, "one\ntwo\nthree\nfour\nfive ", 0);
    world_add_text_event(f.w, EV_PRINT, "and more\n", 0);
    r_2d_frame(f.d, f.w);
    fx_draw(&f, 30.1, "notify4");
    assert_true(region_nonzero(&f, 8, 24, 8 * 13, 8) > 0);   // "five and more" on row 3
    assert_true(region_nonzero(&f, 8 + 9 * 8, 24, 8, 8) > 0);
    assert_int_equal(region_nonzero(&f, 0, 32, 320, 8), 0);
    // a long line wraps at the word before column 38
    world_begin_frame(f.w, 40.0);
    world_add_text_event(f.w, EV_PRINT, "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj\n", 0);
    r_2d_frame(f.d, f.w);
    fx_draw(&f, 40.1, "notify_wrap");
    // the lines of 30.0 have expired: "aaaa" on row 0, "hhhh" wrapped to row 1
    assert_true(region_nonzero(&f, 8, 0, 8, 8) > 0);
    assert_true(region_nonzero(&f, 8, 8, 8, 8) > 0);
    assert_int_equal(region_nonzero(&f, 8 + 35 * 8, 0, 24, 8), 0);
    assert_int_equal(region_nonzero(&f, 0, 16, 320, 8), 0);
    fx_close(&f);
}

static void test_wrap(void **state)
{
    (void)state;
    int st[4], ln[4];
    const char *s = "hello world again";
    assert_int_equal(r_2d_wrap(s, (int)strlen(s), 12, st, ln, 4), 2);
    assert_int_equal(st[0], 0);
    assert_int_equal(ln[0], 12);   // "hello world " then "again"
    assert_int_equal(st[1], 12);
    assert_int_equal(ln[1], 5);
    assert_int_equal(r_2d_wrap("", 0, 10, st, ln, 4), 1);
    assert_int_equal(ln[0], 0);
    const char *longword = "abcdefghijklmnopqrstuvwxyz";
    // Quake's quirk, kept: a word's tail shorter than the width wraps early (rows 0, 10, 17)
    assert_int_equal(r_2d_wrap(longword, 26, 10, st, ln, 2), 2);   // the last two of three rows
    assert_int_equal(st[0], 10);
    assert_int_equal(ln[0], 7);
    assert_int_equal(st[1], 17);
    assert_int_equal(ln[1], 9);
}

static void test_centerprint_timing(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, 320, 200);
    fx_player(&f);
    world_begin_frame(f.w, 1.0);
    r_2d_frame(f.d, f.w);
    world_begin_frame(f.w, 50.0);
    world_add_text_event(f.w, EV_CENTERPRINT, "You found a secret area!", 0);
    r_2d_frame(f.d, f.w);
    fx_draw(&f, 51.9, "centerprint");
    int y = (int)(200 * 0.35);
    int x = (320 - 24 * 8) / 2;
    assert_true(region_nonzero(&f, x, y, 24 * 8, 8) > 0);
    assert_int_equal(region_nonzero(&f, 0, y, x, 8), 0);
    fx_draw(&f, 52.1, NULL);
    assert_int_equal(region_nonzero(&f, 0, y, 320, 8), 0);
    fx_close(&f);
}

// ---- blends -------------------------------------------------------------------

static void test_blend(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, 320, 200);
    fx_player(&f);
    f.w->view.items = 0;
    uint8_t base[768], out[768];
    memset(base, 0, sizeof base);   // colour 0 black, colour 1 white
    memset(base + 3, 255, 3);
    world_begin_frame(f.w, 1.0);
    r_2d_frame(f.d, f.w);
    r_2d_blend(f.d, f.w, 1.0, 0, base, out);
    assert_memory_equal(out, base, 768);   // nothing: no blend
    // damage, blood only: 3 * max(10, 10) = 30 percent towards red, aged -150/s
    // once a server frame after the frame's messages, truncated (Quake's int percent)
    world_begin_frame(f.w, 1.95);
    r_2d_frame(f.d, f.w);
    world_begin_frame(f.w, 2.0);
    world_event_t *ev = world_add_event(f.w, EV_DAMAGE);
    ev->u.damage.armor = 0;
    ev->u.damage.blood = 20;
    r_2d_frame(f.d, f.w);
    r_2d_blend(f.d, f.w, 2.0, 0, base, out);
    assert_int_equal(out[0], (22 * 255) >> 8);   // (int)(30 - 0.05 * 150)
    assert_int_equal(out[1], 0);
    assert_int_equal(out[3], 255);
    assert_int_equal(out[4], 255 + ((22 * -255 - 255) / 256));   // floor, as Quake's >> 8
    r_2d_blend(f.d, f.w, 2.04, 0, base, out);                   // drawn between frames: no ageing
    assert_int_equal(out[0], (22 * 255) >> 8);
    world_begin_frame(f.w, 2.1);
    r_2d_frame(f.d, f.w);
    r_2d_blend(f.d, f.w, 2.1, 0, base, out);
    assert_int_equal(out[0], (6 * 255) >> 8);    // (int)(22 - 15.000000000000002): 2.1 - 2.0 in doubles
    world_begin_frame(f.w, 2.25);
    r_2d_frame(f.d, f.w);
    r_2d_blend(f.d, f.w, 2.25, 0, base, out);
    assert_int_equal(out[0], 0);
    // bonus flash through the stuffed "bf": 50 percent of (215, 186, 69), -100/s;
    // at 72 frames a second every step loses 1.39, truncated to 2: 25 frames to 0
    world_begin_frame(f.w, 3.0 - 1.0 / 72);
    r_2d_frame(f.d, f.w);
    world_begin_frame(f.w, 3.0);
    world_add_text_event(f.w, EV_STUFFTEXT, "bf\n", 0);
    r_2d_frame(f.d, f.w);
    r_2d_blend(f.d, f.w, 3.0, 0, base, out);
    assert_int_equal(out[0], (48 * 215) >> 8);
    assert_int_equal(out[1], (48 * 186) >> 8);
    assert_int_equal(out[2], (48 * 69) >> 8);
    int lit = 1;
    for (int k = 1; k < 40; k++) {
        world_begin_frame(f.w, 3.0 + k / 72.0);
        r_2d_frame(f.d, f.w);
        r_2d_blend(f.d, f.w, 3.0 + k / 72.0, 0, base, out);
        lit += out[0] != 0;
    }
    assert_int_equal(lit, 24);
    // contents: water 128 towards (130, 80, 50); lava, slime
    r_2d_blend(f.d, f.w, 5.0, -3, base, out);
    assert_int_equal(out[0], (128 * 130) >> 8);
    assert_int_equal(out[1], (128 * 80) >> 8);
    r_2d_blend(f.d, f.w, 5.0, -5, base, out);
    assert_int_equal(out[0], (150 * 255) >> 8);
    r_2d_blend(f.d, f.w, 5.0, -4, base, out);
    assert_int_equal(out[1], (150 * 25) >> 8);
    // powerups: quad blue 30, and it wins over the suit
    f.w->view.items = (1 << 22) | (1 << 21);
    r_2d_blend(f.d, f.w, 5.0, 0, base, out);
    assert_int_equal(out[2], (30 * 255) >> 8);
    assert_int_equal(out[1], 0);
    f.w->view.items = 1 << 21;
    r_2d_blend(f.d, f.w, 5.0, 0, base, out);
    assert_int_equal(out[1], (20 * 255) >> 8);
    // v_cshift stuffed by a mod
    world_begin_frame(f.w, 6.0);
    world_add_text_event(f.w, EV_STUFFTEXT, "v_cshift 255 255 255 128\n", 0);
    r_2d_frame(f.d, f.w);
    f.w->view.items = 0;
    r_2d_blend(f.d, f.w, 6.0, 0, base, out);
    assert_int_equal(out[0], 127);
    r_2d_clear(f.d, 0);
    r_2d_blend(f.d, f.w, 6.0, 0, base, out);
    assert_int_equal(out[0], 0);
    fx_close(&f);
}

// ---- real demos through the Quake decoder -------------------------------------

typedef struct {
    demo_t demo;
    cli_t cli;
    vfs_t *fs;
    r_2d_t *d;
    uint32_t level_seq;
} play_t;

static void play_open(play_t *p, const char *game, const char *file)
{
    memset(p, 0, sizeof(*p));
    p->cli.basedir = tu_data("quake");
    p->cli.game = game;
    assert_int_equal(demo_open(&p->demo, &p->cli, file, NULL, 0), 0);
    p->fs = demo_mount(&p->demo, &p->cli);
    p->d = r_2d_create();
    p->level_seq = (uint32_t)-1;
}

// Decode up to the first frame at or after `t`, as the frame driver would.
static void play_to(play_t *p, double t)
{
    while (p->demo.world->time < t && demo_read_frame(&p->demo) > 0) {
        world_t *w = p->demo.world;
        if (w->level_seq != p->level_seq) {
            p->level_seq = w->level_seq;
            r_2d_load(p->d, p->fs, w, tu_palette());
        }
        r_2d_frame(p->d, w);
    }
}

static void play_draw(play_t *p, fixture_t *f, double t, const char *png)
{
    // Reuse the fixture's buffer and PNG writing with the demo's world and 2D state.
    world_t *w = f->w;
    r_2d_t *d = f->d;
    f->w = p->demo.world;
    f->d = p->d;
    fx_draw(f, t, png);
    f->w = w;
    f->d = d;
}

static void play_close(play_t *p)
{
    r_2d_destroy(p->d);
    vfs_free(p->fs);
    demo_close(&p->demo);
}

static void test_real_demo_sp(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, 320, 200);
    play_t p;
    play_open(&p, NULL, tu_data("quake/demos/dosquake101_e4m2.dem"));
    play_to(&p, 5.3);   // "You got the shells" and "bf" at 5.224
    world_t *w = p.demo.world;
    assert_int_equal(w->game, GAME_QUAKE);
    assert_true(w->view.stats[STAT_HEALTH] > 0);
    assert_int_equal(r_2d_sbar_lines(p.d, w, 320, 200), 48);
    play_draw(&p, &f, 5.3, "demo_e4m2_shells");
    assert_true(region_nonzero(&f, 8, 0, 18 * 8, 8) > 0);    // the print; the banner of 0.0 has expired
    assert_int_equal(region_nonzero(&f, 0, 8, 320, 8), 0);
    assert_true(shows_lump(&f, "sbar", 0, 176, 1, 0) == 0);  // numbers drawn over the bar
    uint8_t out[768];
    r_2d_blend(p.d, w, 5.3, 0, f.palette, out);
    assert_memory_not_equal(out, f.palette, 768);   // bonus flash (and the damage of the same frame)
    play_to(&p, 6.3);   // aged once a server frame: gone a second later
    r_2d_blend(p.d, w, 6.3, 0, f.palette, out);
    assert_memory_equal(out, f.palette, 768);
    play_to(&p, 7.6);   // centerprint at 7.5356
    play_draw(&p, &f, 7.6, "demo_e4m2_center");
    int y = (int)(200 * 0.35);
    assert_true(region_nonzero(&f, 0, y, 320, 8) > 0);
    play_draw(&p, &f, 9.6, NULL);
    assert_int_equal(region_nonzero(&f, 0, y, 320, 8), 0);
    play_to(&p, 47.3);  // damage at 47.2868
    play_draw(&p, &f, 47.3, "demo_e4m2_damage");
    play_close(&p);
    fx_close(&f);
}

static void test_real_demo_dm(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, 320, 200);
    play_t p;
    play_open(&p, "hook", "hook.dem");
    play_to(&p, 60);
    world_t *w = p.demo.world;
    assert_int_equal(w->maxclients, 8);
    assert_true(w->deathmatch != 0);
    play_draw(&p, &f, w->time, "demo_hook_dm");
    // frag boxes on the inventory line: the first one is in a player's shirt colour
    int top = px(&f, 23 * 8 + 10 + 11, 200 - 47);
    assert_int_equal(top & 15, 8);
    free(f.buf);
    f.width = 1280;
    f.height = 720;
    f.buf = malloc(1280 * 720);
    play_draw(&p, &f, w->time, "demo_hook_dm_1280");
    play_close(&p);
    fx_close(&f);
}

static void test_no_data(void **state)
{
    (void)state;
    // No game data at all: nothing drawn, nothing crashes, the palette passes through.
    r_2d_t *d = r_2d_create();
    world_t *w = world_create();
    w->game = GAME_QUAKE;
    vfs_t *fs = vfs_create();
    assert_int_equal(r_2d_load(d, fs, w, tu_palette()), 0);
    assert_int_equal(r_2d_sbar_lines(d, w, 320, 200), 0);
    uint8_t buf[64 * 48];
    memset(buf, 7, sizeof buf);
    r_view_t v;
    memset(&v, 0, sizeof v);
    v.buffer = buf;
    v.width = 64;
    v.height = 48;
    v.rowbytes = 64;
    world_begin_frame(w, 1);
    world_add_text_event(w, EV_PRINT, "\2hello\n", 0);
    world_add_text_event(w, EV_CENTERPRINT, "", 0);
    r_2d_frame(d, w);
    v.time = 1;
    r_2d_draw(d, w, &v);
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 7);
    w->game = GAME_NONE;
    r_2d_load(d, fs, w, tu_palette());
    uint8_t base[768], out[768];
    for (int i = 0; i < 768; i++)
        base[i] = (uint8_t)i;
    r_2d_blend(d, w, 1, -5, base, out);
    assert_memory_equal(base, out, 768);
    vfs_free(fs);
    world_free(w);
    r_2d_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wad_real),
        cmocka_unit_test(test_lmp_real),
        cmocka_unit_test(test_wad_hostile),
        cmocka_unit_test(test_sbar_320),
        cmocka_unit_test(test_sbar_scaled),
        cmocka_unit_test(test_intermission),
        cmocka_unit_test(test_notify_timing),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_centerprint_timing),
        cmocka_unit_test(test_blend),
        cmocka_unit_test(test_real_demo_sp),
        cmocka_unit_test(test_real_demo_dm),
        cmocka_unit_test(test_no_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
