// test_vfs.c -- game file system: folders, PACK archives, priority, case-insensitive names, bad paks
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/vfs.h"

static char root[64];

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

// Write a PACK with the given files (name, contents).
static void write_pak(const char *path, int n, const char *const *names, const char *const *data)
{
    uint8_t buf[8192];
    size_t pos = 12;
    uint32_t offs[16];
    for (int i = 0; i < n; i++) {
        offs[i] = (uint32_t)pos;
        memcpy(buf + pos, data[i], strlen(data[i]));
        pos += strlen(data[i]);
    }
    uint32_t dirofs = (uint32_t)pos;
    for (int i = 0; i < n; i++) {
        memset(buf + pos, 0, 64);
        memcpy(buf + pos, names[i], strlen(names[i]));
        put_le32(buf + pos + 56, offs[i]);
        put_le32(buf + pos + 60, (uint32_t)strlen(data[i]));
        pos += 64;
    }
    memcpy(buf, "PACK", 4);
    put_le32(buf + 4, dirofs);
    put_le32(buf + 8, (uint32_t)(n * 64));
    assert_int_equal(tu_write(path, buf, pos), 0);
}

static char *path_of(const char *rel)
{
    static char p[4][512];
    static int k;
    char *b = p[k++ & 3];
    snprintf(b, 512, "%s/%s", root, rel);
    return b;
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "/tmp/dp_vfs_XXXXXX");
    if (!mkdtemp(root))
        return -1;
    mkdir(path_of("id1"), 0755);
    mkdir(path_of("id1/maps"), 0755);
    mkdir(path_of("Mod"), 0755);
    const char *n0[] = { "maps/e1m1.bsp", "gfx/palette.lmp", "progs/player.mdl" };
    const char *d0[] = { "pak0-e1m1", "pak0-palette", "pak0-player" };
    write_pak(path_of("id1/pak0.pak"), 3, n0, d0);
    const char *n1[] = { "progs/player.mdl" };
    const char *d1[] = { "pak1-player" };
    write_pak(path_of("id1/pak1.pak"), 1, n1, d1);
    tu_write(path_of("id1/maps/e1m1.bsp"), "loose-e1m1", 10);   // paks win over loose files
    tu_write(path_of("id1/maps/E1M2.BSP"), "loose-e1m2", 10);   // upper case on disk
    tu_write(path_of("Mod/autoexec.cfg"), "mod-cfg", 7);
    const char *n2[] = { "GFX/PALETTE.LMP" };
    const char *d2[] = { "mod-palette" };
    write_pak(path_of("Mod/PAK0.PAK"), 1, n2, d2);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    int st;
    free(tu_run(cmd, &st));
    return 0;
}

static void expect_file(vfs_t *fs, const char *name, const char *want)
{
    size_t n = 0;
    uint8_t *b = vfs_load(fs, name, &n);
    if (!want) {
        assert_null(b);
        assert_false(vfs_exists(fs, name));
        return;
    }
    if (!b)
        fail_msg("%s: not found, expected '%s'", name, want);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(b, want, n);
    assert_int_equal(b[n], 0);   // loads are NUL-terminated for text parsers
    assert_true(vfs_exists(fs, name));
    free(b);
}

static void test_priority_and_case(void **state)
{
    (void)state;
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_mount_game(fs, root, "id1", "mod"), 2);
    assert_int_equal(vfs_count(fs), 5);   // id1, its 2 paks, Mod, its pak
    expect_file(fs, "maps/e1m1.bsp", "pak0-e1m1");
    expect_file(fs, "progs/player.mdl", "pak1-player");   // later pak wins
    expect_file(fs, "gfx/palette.lmp", "mod-palette");    // mod wins over base
    expect_file(fs, "MAPS/e1m2.bsp", "loose-e1m2");       // case-insensitive on disk
    expect_file(fs, "autoexec.cfg", "mod-cfg");
    expect_file(fs, "maps/none.bsp", NULL);
    expect_file(fs, "../id1/maps/e1m1.bsp", NULL);        // never climbs out
    expect_file(fs, "/etc/passwd", NULL);
    vfs_free(fs);
}

static void test_bad_paks(void **state)
{
    (void)state;
    uint8_t bad[64];
    memset(bad, 0, sizeof(bad));
    memcpy(bad, "PACK", 4);
    put_le32(bad + 4, 12);
    put_le32(bad + 8, 64 * 1000);   // directory runs past the end
    mkdir(path_of("badgame"), 0755);
    assert_int_equal(tu_write(path_of("badgame/pak0.pak"), bad, sizeof(bad)), 0);
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, path_of("badgame")), 0);   // skipped with a warning
    expect_file(fs, "anything", NULL);
    vfs_free(fs);
    assert_int_equal(vfs_add_dir(fs = vfs_create(), path_of("nope")), -1);
    vfs_free(fs);
}

static void test_real_hook_pak(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = vfs_create();
    vfs_mount_game(fs, tu_data("quake"), "id1", "hook");
    size_t n;
    uint8_t *b = vfs_load(fs, "hook.dem", &n);
    assert_non_null(b);
    assert_int_equal(n, 281826);
    assert_memory_equal(b, "-1\n", 3);
    free(b);
    assert_true(vfs_exists(fs, "gfx/palette.lmp"));   // falls back to id1
    vfs_free(fs);
}

// Where a demo's game data is looked for without --basedir: "." when it holds the base folder,
// else the nearest of the demo's folder and its parents (4 up) that does (a demo in Quake/id1/demos/
// plays from anywhere); --basedir always wins; a bare name or a demo too deep keeps ".".
static void test_basedir_from_demo(void **state)
{
    (void)state;
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = ".";
    demo_t *d = calloc(1, sizeof *d);   // no decoder: Quake's base folder, id1
    char buf[4096];
    mkdir(path_of("id1/demos"), 0755);
    snprintf(d->name, sizeof d->name, "%s", path_of("id1/demos/a.dem"));
    assert_string_equal(demo_basedir(d, &cli, buf, sizeof buf), root);
    snprintf(d->name, sizeof d->name, "%s", path_of("a.dem"));
    assert_string_equal(demo_basedir(d, &cli, buf, sizeof buf), root);
    snprintf(d->name, sizeof d->name, "%s", path_of("Mod/a/b/c/d/e/a.dem"));   // 6 up: too far
    assert_string_equal(demo_basedir(d, &cli, buf, sizeof buf), ".");
    snprintf(d->name, sizeof d->name, "a.dem");
    assert_string_equal(demo_basedir(d, &cli, buf, sizeof buf), ".");
    cli.basedir = "/nowhere";
    cli.basedir_given = 1;
    snprintf(d->name, sizeof d->name, "%s", path_of("id1/demos/a.dem"));
    assert_string_equal(demo_basedir(d, &cli, buf, sizeof buf), "/nowhere");
    free(d);
}

// The real data: GoldSrc's c1a0 in goldsrc/demos/, its map from goldsrc/valve/ with no --basedir.
static void test_basedir_real(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = ".";
    cli.quiet = 1;
    char buf[4096];
    demo_t *g = calloc(1, sizeof *g);
    assert_int_equal(demo_open(g, &cli, tu_data("goldsrc/demos/valve_c1a0.dem"), NULL, 0), 0);
    assert_string_equal(demo_basedir(g, &cli, buf, sizeof buf), tu_data("goldsrc"));
    vfs_t *fs = demo_mount(g, &cli);
    assert_true(vfs_exists(fs, "maps/c1a0.bsp"));
    vfs_free(fs);
    demo_close(g);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priority_and_case),
        cmocka_unit_test(test_bad_paks),
        cmocka_unit_test(test_real_hook_pak),
        cmocka_unit_test(test_basedir_from_demo),
        cmocka_unit_test(test_basedir_real),
    };
    return cmocka_run_group_tests_name("vfs", tests, setup, teardown);
}
