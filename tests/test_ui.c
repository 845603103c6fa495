// test_ui.c -- the window's own overlays: the 5x7 font (engine/ui_text.c) and the shelf of
// `play DIR` (engine/shelf.c: listing, reading in a thread, the cache). Needs no game data:
// the shelf reads the built-in demo (`make builtin`).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/log.h"
#include "engine/shelf.h"
#include "engine/ui_text.h"
#include "testutil.h"

static int lit(const ui_canvas_t *c, uint32_t color)
{
    int n = 0;
    for (int i = 0; i < c->w * c->h; i++) {
        const uint8_t *p = c->rgb + i * 3;
        n += ((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) == color;
    }
    return n;
}

static void test_font(void **state)
{
    (void)state;
    uint8_t rgb[40 * 24 * 3];
    ui_canvas_t c = { rgb, 40, 24 };
    memset(rgb, 0, sizeof rgb);
    // 'A': 0E 11 11 11 1F 11 11 = 3 + 2 + 2 + 2 + 5 + 2 + 2 pixels; at scale 2, four times that
    assert_int_equal(ui_text(&c, 1, 1, 1, 0xffffff, "A"), UI_CHAR_W);
    assert_int_equal(lit(&c, 0xffffff), 18);
    assert_int_equal(rgb[(1 * 40 + 2) * 3], 255);   // row 0: columns 1..3 lit, 0 not
    assert_int_equal(rgb[(1 * 40 + 1) * 3], 0);
    memset(rgb, 0, sizeof rgb);
    ui_text(&c, 0, 0, 2, 0x00ff00, "A");
    assert_int_equal(lit(&c, 0x00ff00), 18 * 4);
    // every printable character draws something but the space; 'g' reaches below the baseline
    for (int ch = 33; ch < 127; ch++) {
        char s[2] = { (char)ch, 0 };
        memset(rgb, 0, sizeof rgb);
        ui_text(&c, 0, 0, 1, 0xffffff, s);
        assert_true(lit(&c, 0xffffff) > 0);
    }
    memset(rgb, 0, sizeof rgb);
    ui_text(&c, 0, 0, 1, 0xffffff, "g");
    int below = 0;
    for (int x = 0; x < 5; x++)
        below += rgb[(8 * 40 + x) * 3] != 0;
    assert_true(below > 0);
    // Quake's coloured half and golden digits are drawn plain
    assert_int_equal(ui_plain_char(0xc1), 'A');
    assert_int_equal(ui_plain_char(0x12), '0');
    assert_int_equal(ui_plain_char(0x9b), '9');
    assert_int_equal(ui_plain_char(0x10), '[');
    assert_int_equal(ui_plain_char(0x05), '.');
    // clipped at every edge: only what falls inside is drawn, nothing outside is touched
    uint8_t big[(40 * 24 + 2) * 3];
    memset(big, 0x77, sizeof big);
    ui_canvas_t cc = { big + 3, 40, 24 };
    memset(cc.rgb, 0, 40 * 24 * 3);
    ui_text(&cc, -7, -5, 3, 0xffffff, "WWW");
    ui_text(&cc, 37, 20, 3, 0xffffff, "MM");
    ui_fill(&cc, -100, 0, 1000, 2, 0x123456);   // rows 0 and 1, clipped at both sides
    ui_shade(&cc, 30, 20, 100, 100, 1, 2);
    assert_int_equal(big[0], 0x77);
    assert_int_equal(big[sizeof big - 1], 0x77);
    assert_int_equal(lit(&cc, 0x123456), 40 * 2);
    assert_int_equal(ui_text_width(2, "abc"), 3 * UI_CHAR_W * 2);
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_shelf_reads_and_caches(void **state)
{
    (void)state;
    const char *demo = "build/builtin/id1/demos/builtin.dem";
    struct stat sb;
    if (stat(demo, &sb) != 0)
        fail_msg("%s is missing: `make builtin` makes it", demo);
    log_set_level(0);
    char dir[] = "/tmp/demoplay_shelf.XXXXXX", path[512], cache[600], abs[1024];
    assert_non_null(mkdtemp(dir));
    assert_non_null(realpath(demo, abs));
    snprintf(path, sizeof path, "%s/deeper", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/deeper/one.DEM", dir);
    assert_int_equal(symlink(abs, path), 0);
    snprintf(path, sizeof path, "%s/bad.dem", dir);
    put_file(path, "hello, not a demo");
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    put_file(path, "not listed");
    snprintf(cache, sizeof cache, "XDG_CACHE_HOME=%s/cache", dir);
    putenv(cache);
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = "build/builtin";

    char err[256];
    for (int pass = 0; pass < 2; pass++) {   // read by the thread, then from the cache
        shelf_t *s = shelf_open(dir, &cli, err, sizeof err);
        assert_non_null(s);
        assert_int_equal(shelf_count(s), 2);
        if (pass == 1)
            assert_int_equal(shelf_pending(s), 0);   // nothing left to read
        shelf_wait(s);
        assert_int_equal(shelf_pending(s), 0);
        const shelf_entry_t *bad = shelf_entry(s, 0), *one = shelf_entry(s, 1);
        assert_string_equal(bad->rel, "bad.dem");
        assert_int_equal(SDL_AtomicGet((SDL_atomic_t *)&bad->state), SHELF_BAD);
        assert_non_null(strstr(bad->error, "offset 0: expected a Quake"));
        assert_string_equal(one->rel, "deeper/one.DEM");
        assert_int_equal(SDL_AtomicGet((SDL_atomic_t *)&one->state), SHELF_READ);
        assert_string_equal(one->game, "quake");
        assert_string_equal(one->map, "builtin");
        assert_int_equal(one->levels, 1);
        assert_float_equal(one->length, 32.0, 0.001);
        assert_string_equal(one->players, "visitor");
        // drawn: the selected row is highlighted, the rest of the list is on the background
        uint8_t *rgb = calloc(320 * 200, 3);
        ui_canvas_t c = { rgb, 320, 200 };
        int rows = shelf_draw(s, &c, 1, 1);
        assert_true(rows >= 2);
        assert_true(lit(&c, 0x30507a) > 300);
        assert_int_equal(shelf_row_at(s, &c, 1, 0), -1);
        int y1 = -1;
        for (int y = 0; y < 200 && y1 < 0; y++)
            if (shelf_row_at(s, &c, 1, y) == 1)
                y1 = y;
        assert_true(y1 > 0);
        assert_int_equal(rgb[(y1 * 320 + 4) * 3 + 2], 0x7a);   // the highlight, from its top row
        assert_int_equal(rgb[((y1 - 1) * 320 + 4) * 3 + 2], 0x18);   // the background above it
        free(rgb);
        shelf_close(s);
        snprintf(path, sizeof path, "%s/cache/demoplay/shelf.tsv", dir);
        assert_int_equal(stat(path, &sb), 0);
    }
    // an empty folder says so
    snprintf(path, sizeof path, "%s/deeper/empty", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_null(shelf_open(path, &cli, err, sizeof err));
    assert_non_null(strstr(err, "no demo in this folder"));
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_font),
        cmocka_unit_test(test_shelf_reads_and_caches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
