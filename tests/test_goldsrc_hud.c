// test_goldsrc_hud.c -- Half-Life sprites (IDSP version 2), sprites/hud.txt and the Half-Life HUD
//
// Set R2D_PNG_DIR=/some/dir to also write the drawn HUDs as PNGs (to look at them).
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stb_image_write.h>

#include "assets/spr.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "render/r_2d.h"
#include "render/r_hlhud.h"

static uint32_t fnv(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static int load_file(spr_t *s, const char *rel, char *err, size_t cap)
{
    size_t n = 0;
    uint8_t *b = tu_read(tu_data(rel), &n);
    assert_non_null(b);
    int rc = spr_load(s, b, n, err, cap);
    free(b);
    return rc;
}

// ---- sprites ----------------------------------------------------------------

// Load every .spr under dir (recursively); returns how many, fails on any error.
static int load_all(const char *dir)
{
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int count = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            count += load_all(path);
            continue;
        }
        size_t len = strlen(de->d_name);
        if (len < 4 || strcasecmp(de->d_name + len - 4, ".spr") != 0)
            continue;
        size_t n = 0;
        uint8_t *b = tu_read(path, &n);
        assert_non_null(b);
        spr_t s;
        char err[200] = "";
        if (spr_load(&s, b, n, err, sizeof err) != 0)
            fail_msg("%s: %s", path, err);
        assert_int_equal(s.version, 2);
        assert_int_equal(s.has_palette, 1);
        for (int i = 0; i < s.num_images; i++)
            assert_true(s.images[i].offset + (size_t)s.images[i].width * (size_t)s.images[i].height <= s.pixels_size);
        spr_free(&s);
        free(b);
        count++;
    }
    closedir(dp);
    return count;
}

static void test_sprites_all_load(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    assert_int_equal(load_all(tu_data("goldsrc")), 42);
}

static void test_sprites_pinned(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct {
        const char *file;
        int type, texformat, frames, images, w, h, w0, h0;
        uint32_t pixels;
    } pins[] = {
        { "goldsrc/valve/sprites/640hud7.spr", 2, SPR_TEX_ADDITIVE, 1, 1, 256, 128, 256, 128, 0 },
        { "goldsrc/valve/sprites/explode1.spr", 2, SPR_TEX_ALPHATEST, 9, 9, 96, 96, 56, 56, 0 },
        { "goldsrc/valve/sprites/steam1.spr", 4, SPR_TEX_INDEXALPHA, 16, 16, 32, 48, 32, 48, 0 },
        { "goldsrc/valve/sprites/fexplo.spr", 2, SPR_TEX_ADDITIVE, 30, 30, 80, 96, 80, 96, 0 },
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        spr_t s;
        char err[200] = "";
        assert_int_equal(load_file(&s, pins[i].file, err, sizeof err), 0);
        assert_int_equal(s.type, pins[i].type);
        assert_int_equal(s.texformat, pins[i].texformat);
        assert_int_equal(s.numframes, pins[i].frames);
        assert_int_equal(s.num_images, pins[i].images);
        assert_int_equal(s.width, pins[i].w);
        assert_int_equal(s.height, pins[i].h);
        assert_int_equal(s.images[0].width, pins[i].w0);
        assert_int_equal(s.images[0].height, pins[i].h0);
        spr_free(&s);
    }
    // HUD sprites carry a grey ramp: colour i is (i, i, i)
    spr_t s;
    char err[200];
    assert_int_equal(load_file(&s, "goldsrc/valve/sprites/640hud7.spr", err, sizeof err), 0);
    assert_int_equal(s.palette[17 * 3], 17);
    assert_int_equal(s.palette[255 * 3 + 2], 255);
    assert_int_equal(s.pixels_size, 256 * 128);
    assert_int_equal(fnv(s.pixels, s.pixels_size), 0x195ce903u);
    spr_free(&s);
}

// Quake's sprites load as before: version 1, no palette, 255 transparent.
static void test_sprites_version1(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    spr_t s;
    char err[200];
    assert_int_equal(load_file(&s, "quake/id1/progs/s_explod.spr", err, sizeof err), 0);
    assert_int_equal(s.version, 1);
    assert_int_equal(s.has_palette, 0);
    assert_int_equal(s.texformat, SPR_TEX_ALPHATEST);
    assert_int_equal(s.numframes, 6);
    assert_int_equal(s.width, 64);
    assert_int_equal(s.images[5].width, 64);
    assert_int_equal(s.pixels_size, 6 * 64 * 64);
    // the checksum the version-1-only loader (before Half-Life sprites) gave
    assert_int_equal(fnv(s.pixels, s.pixels_size), 0xbbdc3893u);
    spr_free(&s);
}

static void test_sprites_hostile(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t n = 0;
    uint8_t *b = tu_read(tu_data("goldsrc/valve/sprites/320hud2.spr"), &n);
    assert_non_null(b);
    assert_int_equal(n, 40 + 2 + 768 + 4 + 16 + 128 * 128);
    spr_t s;
    char err[200];
    // every truncation fails cleanly
    for (size_t cut = 0; cut < n; cut++) {
        err[0] = 0;
        assert_int_equal(spr_load(&s, b, cut, err, sizeof err), -1);
        assert_true(strncmp(err, "offset ", 7) == 0);
        assert_null(s.pixels);
    }
    assert_int_equal(spr_load(&s, b, 39, err, sizeof err), -1);
    assert_string_equal(err, "offset 0: expected a 40-byte sprite header, found 39 bytes");
    assert_int_equal(spr_load(&s, b, 41, err, sizeof err), -1);
    assert_string_equal(err, "offset 40: expected a palette of 1..256 colours, found 0");
    assert_int_equal(spr_load(&s, b, 100, err, sizeof err), -1);
    assert_string_equal(err, "offset 42: expected 768 palette bytes, found end of file");
    assert_int_equal(spr_load(&s, b, 900, err, sizeof err), -1);
    assert_string_equal(err, "offset 830: expected 16384 bytes of pixels, found end of file");
    // fields of the header and palette
    uint8_t *c = malloc(n);
    assert_non_null(c);
    memcpy(c, b, n);
    c[12] = 7;
    assert_int_equal(spr_load(&s, c, n, err, sizeof err), -1);
    assert_string_equal(err, "offset 12: expected texture format 0..3, found 7");
    memcpy(c, b, n);
    c[40] = 0x01;
    c[41] = 0x01;   // 257 colours
    assert_int_equal(spr_load(&s, c, n, err, sizeof err), -1);
    assert_string_equal(err, "offset 40: expected a palette of 1..256 colours, found 257");
    memcpy(c, b, n);
    c[4] = 3;
    assert_int_equal(spr_load(&s, c, n, err, sizeof err), -1);
    assert_string_equal(err, "offset 4: expected sprite version 1 (Quake) or 2 (Half-Life), found 3");
    // byte flips in the header, palette count and frame header: a clean load or a clean error
    for (size_t i = 0; i < 40 + 2 + 4 + 16 + 4; i++) {
        size_t at = i < 42 ? i : 810 + (i - 42);
        for (int v = 0; v < 3; v++) {
            memcpy(c, b, n);
            c[at] = v == 0 ? (uint8_t)~b[at] : v == 1 ? 0x80 : 0x00;
            int rc = spr_load(&s, c, n, err, sizeof err);
            if (rc == 0) {
                for (int k = 0; k < s.num_images; k++)
                    assert_true(s.images[k].offset + (size_t)s.images[k].width * (size_t)s.images[k].height <=
                                s.pixels_size);
                spr_free(&s);
            } else {
                assert_true(strncmp(err, "offset ", 7) == 0);
            }
        }
    }
    free(c);
    free(b);
}

// ---- hud.txt ----------------------------------------------------------------

static void test_hudtxt_real(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t n = 0;
    uint8_t *b = tu_read(tu_data("goldsrc/valve/sprites/hud.txt"), &n);
    assert_non_null(b);
    r_hlhud_entry_t *e = calloc(R_HLHUD_MAX_ENTRIES, sizeof(*e));
    char err[200] = "";
    int count = r_hlhud_parse((const char *)b, n, e, R_HLHUD_MAX_ENTRIES, err, sizeof err);
    if (count < 0)
        fail_msg("%s", err);
    assert_int_equal(count, 123);
    const r_hlhud_entry_t *p = r_hlhud_find(e, count, "number_0", 640);
    assert_non_null(p);
    assert_string_equal(p->sprite, "640hud7");
    assert_int_equal(p->x, 0);
    assert_int_equal(p->y, 0);
    assert_int_equal(p->w, 20);
    assert_int_equal(p->h, 24);
    p = r_hlhud_find(e, count, "suit_full", 320);
    assert_non_null(p);
    assert_string_equal(p->sprite, "320hud2");
    assert_int_equal(p->x, 0);
    assert_int_equal(p->y, 52);
    assert_int_equal(p->w, 20);
    assert_int_equal(p->h, 20);
    assert_null(r_hlhud_find(e, count, "number_0", 800));
    // every truncation fails with an offset (or, cut in the last number or the
    // trailing blanks, still parses); none reads past the end
    for (size_t cut = 0; cut < n; cut++) {
        char *t = malloc(cut ? cut : 1);
        memcpy(t, b, cut);
        err[0] = 0;
        int rc = r_hlhud_parse(t, cut, e, R_HLHUD_MAX_ENTRIES, err, sizeof err);
        assert_true((rc == -1 && strncmp(err, "offset ", 7) == 0) || (rc == 123 && cut + 8 > n));
        free(t);
    }
    // byte flips
    char *t = malloc(n);
    for (size_t i = 0; i < n; i += 7) {
        memcpy(t, b, n);
        t[i] = (char)~t[i];
        int rc = r_hlhud_parse(t, n, e, R_HLHUD_MAX_ENTRIES, err, sizeof err);
        assert_true(rc == 123 || (rc == -1 && strncmp(err, "offset ", 7) == 0));
    }
    free(t);
    free(e);
    free(b);
}

static void test_hudtxt_errors(void **state)
{
    (void)state;
    r_hlhud_entry_t e[4];
    char err[200];
    static const struct {
        const char *text, *err;
    } cases[] = {
        { "", "offset 0: expected an entry count 0..1024" },
        { "2000", "offset 0: expected an entry count 0..1024" },
        { "5", "offset 0: expected at most 4 entries, found 5" },
        { "1\n", "offset 2: expected an entry name, found end of file" },
        { "1\nnumber_0 640 640hud7 0 0 20", "offset 29: expected a height 1..4096" },
        { "1\nnumber_0 640 640hud7 0 0 20 99999", "offset 30: expected a height 1..4096" },
        { "1\nnumber_0 640 640hud7 -4 0 20 24", "offset 23: expected x 0..4096" },
        { "1\nnumber_0 abc 640hud7 0 0 20 24", "offset 11: expected a screen width 0..100000" },
        { "1\nabcdefghijklmnopqrstuvwxyz0123456789 640 640hud7 0 0 20 24",
          "offset 2: expected an entry name of at most 31 characters" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = 0;
        assert_int_equal(r_hlhud_parse(cases[i].text, strlen(cases[i].text), e, 4, err, sizeof err), -1);
        assert_string_equal(err, cases[i].err);
    }
    const char *ok = "// layout\n2\na 320 s1 1 2 3 4 // piece\n\tb 640 s2 5 6 7 8\n";
    assert_int_equal(r_hlhud_parse(ok, strlen(ok), e, 4, err, sizeof err), 2);
    assert_string_equal(e[1].name, "b");
    assert_string_equal(e[1].sprite, "s2");
    assert_int_equal(e[1].h, 8);
    assert_int_equal(e[1].offset, 39);
}

// ---- the HUD ----------------------------------------------------------------

typedef struct {
    vfs_t *fs;
    world_t *w;
    r_2d_t *d;
    uint8_t palette[768];     // Quake's, as a level palette with colours
    uint8_t *buf;
    int width, height;
} fixture_t;

static void fx_open(fixture_t *f, const char *basedir, int width, int height)
{
    memset(f, 0, sizeof(*f));
    f->fs = vfs_create();
    assert_non_null(f->fs);
    assert_true(vfs_add_dir(f->fs, basedir) >= 0);
    size_t size = 0;
    uint8_t *pal = tu_read(tu_data("quake/id1/gfx/palette.lmp"), &size);
    assert_non_null(pal);
    assert_int_equal(size, 768);
    memcpy(f->palette, pal, 768);
    free(pal);
    f->w = world_create();
    assert_non_null(f->w);
    f->w->game = GAME_GOLDSRC;
    f->w->maxclients = 1;
    f->d = r_2d_create();
    assert_non_null(f->d);
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

// Draw over a dark blue-grey background (colour 1 of Quake's palette is 15,15,15).
static void fx_draw(fixture_t *f, double t, const char *png)
{
    memset(f->buf, 1, (size_t)f->width * (size_t)f->height);
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
        size_t n = (size_t)f->width * (size_t)f->height;
        uint8_t *rgb = malloc(n * 3);
        for (size_t i = 0; i < n; i++)
            memcpy(rgb + i * 3, f->palette + f->buf[i] * 3, 3);
        char path[512];
        snprintf(path, sizeof path, "%s/%s.png", dir, png);
        stbi_write_png(path, f->width, f->height, 3, rgb, f->width * 3);
        free(rgb);
    }
}

static int changed_rows(const fixture_t *f, int y0, int y1)
{
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < f->width; x++)
            n += f->buf[y * f->width + x] != 1;
    return n;
}

static void fx_player(fixture_t *f, int health, int armor, int clip)
{
    world_view_t *v = &f->w->view;
    v->stats[STAT_HEALTH] = health;
    v->stats[STAT_ARMOR] = armor;
    v->stats[STAT_AMMO] = clip;
    v->stats[STAT_ACTIVEWEAPON] = 2;   // the 9mm handgun
    v->items = 1u << 31;               // the suit
}

static void test_hud_640(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, tu_data("goldsrc/valve"), 640, 480);
    assert_int_equal(r_2d_load(f.d, f.fs, f.w, f.palette), 26);   // 13 pieces for each of 320 and 640
    assert_int_equal(r_2d_sbar_lines(f.d, f.w, 640, 480), 0);
    // without the suit nothing is drawn, as in Half-Life's c1a0 before the suit
    fx_player(&f, 100, 0, 17);
    f.w->view.items = 0;
    fx_draw(&f, 1, "hl_nosuit");
    assert_int_equal(changed_rows(&f, 0, 480), 0);
    fx_player(&f, 87, 45, 17);
    fx_draw(&f, 1, "hl_640");
    // all of it on the bottom rows: the 24-pixel digits at 480 - 24 - 12 = 444
    assert_int_equal(changed_rows(&f, 0, 420), 0);
    assert_true(changed_rows(&f, 444, 468) > 500);
    // a lit pixel of the 8 of "87" (x = 32 + 10 + 20) is orange: red > green > blue
    int best = 1;
    for (int y = 444; y < 468; y++)
        for (int x = 62; x < 82; x++) {
            int c = f.buf[y * 640 + x];
            if (f.palette[c * 3] > f.palette[best * 3])
                best = c;
        }
    const uint8_t *rgb = f.palette + best * 3;
    assert_true(rgb[0] > rgb[1] && rgb[1] > rgb[2]);
    assert_int_equal(fnv(f.buf, 640 * 480), 0xc04d3a2eu);
    // low health is red and at full brightness
    fx_player(&f, 12, 45, 17);
    fx_draw(&f, 20, "hl_640_low");
    best = 1;
    for (int y = 444; y < 468; y++)
        for (int x = 42; x < 102; x++) {
            int c = f.buf[y * 640 + x];
            if (f.palette[c * 3] > f.palette[best * 3])
                best = c;
        }
    rgb = f.palette + best * 3;
    assert_true(rgb[0] > 2 * rgb[1] && rgb[0] > 2 * rgb[2]);
    fx_close(&f);
}

static void test_hud_320(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, tu_data("goldsrc/valve"), 320, 240);
    assert_int_equal(r_2d_load(f.d, f.fs, f.w, f.palette), 26);
    fx_player(&f, 100, 100, 250);
    fx_draw(&f, 1, "hl_320");
    // the 16-pixel digits at 240 - 16 - 8 = 216
    assert_int_equal(changed_rows(&f, 0, 200), 0);
    assert_true(changed_rows(&f, 216, 232) > 200);
    assert_int_equal(fnv(f.buf, 320 * 240), 0x304a997cu);
    fx_close(&f);
}

// A changed number is brighter for five seconds, then rests at 100/255.
static void test_hud_fade(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fixture_t f;
    fx_open(&f, tu_data("goldsrc/valve"), 640, 480);
    r_2d_load(f.d, f.fs, f.w, f.palette);
    fx_player(&f, 100, 0, -1);
    fx_draw(&f, 1, NULL);
    uint32_t rest = fnv(f.buf, 640 * 480);
    f.w->view.stats[STAT_HEALTH] = 90;
    fx_draw(&f, 2, NULL);
    uint32_t flash = fnv(f.buf, 640 * 480);
    fx_draw(&f, 8, NULL);
    uint32_t rest90 = fnv(f.buf, 640 * 480);
    assert_true(flash != rest90);
    assert_true(rest != rest90);
    // going back in time (a seek) takes the value without a flash
    fx_draw(&f, 0.5, NULL);
    assert_int_equal(fnv(f.buf, 640 * 480), rest90);
    fx_close(&f);
}

// A layout and sprites that are broken: logged, nothing drawn, nothing crashes.
static void test_hud_hostile_files(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dir[] = "/tmp/hlhudXXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[64], path[128];
    snprintf(sub, sizeof sub, "%s/sprites", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    size_t n = 0;
    uint8_t *spr = tu_read(tu_data("goldsrc/valve/sprites/640hud7.spr"), &n);
    assert_non_null(spr);
    static const char *const layouts[] = {
        "3\nnumber_0 640 640hud7 0 0 20 24\n",                                       // short
        "2\nnumber_0 640 640hud7 250 0 20 24\ncross 640 640hud7 0 120 32 32\n",      // outside the sprite
        "2\nnumber_0 640 nosuch 0 0 20 24\ncross 640 640hud7 80 24 32 32\n",         // a missing sprite
        "1\nnumber_0 640 640hud7 0 0 20 24\n",                                       // with a truncated sprite
    };
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        snprintf(path, sizeof path, "%s/hud.txt", sub);
        assert_int_equal(tu_write(path, layouts[i], strlen(layouts[i])), 0);
        snprintf(path, sizeof path, "%s/640hud7.spr", sub);
        assert_int_equal(tu_write(path, spr, i == 3 ? n / 2 : n), 0);
        fixture_t f;
        fx_open(&f, dir, 640, 480);
        int loaded = r_2d_load(f.d, f.fs, f.w, f.palette);
        assert_int_equal(loaded, i == 2 ? 1 : 0);
        fx_player(&f, 100, 50, 10);
        fx_draw(&f, 1, NULL);
        assert_int_equal(changed_rows(&f, 0, 480), 0);
        fx_close(&f);
    }
    snprintf(path, sizeof path, "%s/hud.txt", sub);
    unlink(path);
    snprintf(path, sizeof path, "%s/640hud7.spr", sub);
    unlink(path);
    rmdir(sub);
    rmdir(dir);
    free(spr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sprites_all_load),
        cmocka_unit_test(test_sprites_pinned),
        cmocka_unit_test(test_sprites_version1),
        cmocka_unit_test(test_sprites_hostile),
        cmocka_unit_test(test_hudtxt_real),
        cmocka_unit_test(test_hudtxt_errors),
        cmocka_unit_test(test_hud_640),
        cmocka_unit_test(test_hud_320),
        cmocka_unit_test(test_hud_fade),
        cmocka_unit_test(test_hud_hostile_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
