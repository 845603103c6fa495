// test_forsaken_bgo.c -- Forsaken background objects: every .COB of the data loads, cuts and
// corruptions refused with offsets, the .BGO list, the game's door rule, posing, and a door
// on a real level opened by MSG_BGOUPDATE: closed, then open, then closed again at the times
// the test computes (pixels in its box), seek == play.
#include "testutil.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stb_image.h>

#include "assets/cob.h"
#include "assets/mx.h"
#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/playback.h"
#include "engine/vfs.h"
#include "engine/world_fs.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsbgo.h"
#include "render/r_fsworld.h"
#include "render/render.h"

static uint8_t *data_file(const char *rel, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/forsaken/Data/%s", tu_data_dir(), rel);
    char *real = vfs_resolve_path(path);
    uint8_t *d = real ? tu_read(real, size) : NULL;
    free(real);
    return d;
}

static cob_t *load_cob(const char *name, size_t *size_out)
{
    char rel[256], err[256] = "";
    snprintf(rel, sizeof rel, "BGObjects/%s", name);
    size_t size = 0;
    uint8_t *d = data_file(rel, &size);
    assert_non_null(d);
    cob_t *c = cob_load(d, size, name, err, sizeof err);
    if (!c)
        fail_msg("%s", err);
    free(d);
    if (size_out)
        *size_out = size;
    return c;
}

// Every .COB of Data/BGObjects loads to its last byte and names models Data/Models has.
static void test_every_cob_loads(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/forsaken/Data/BGObjects", tu_data_dir());
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    struct dirent *de;
    int files = 0, comps = 0, trans = 0, models = 0;
    while ((de = readdir(dp))) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcasecmp(de->d_name + l - 4, ".cob"))
            continue;
        size_t size;
        cob_t *c = load_cob(de->d_name, &size);
        assert_int_equal(c->end, size);
        for (int i = 0; i < c->num_models; i++) {
            char rel[256];
            snprintf(rel, sizeof rel, "Models/%s", c->model_names[i]);
            size_t ms;
            uint8_t *m = data_file(rel, &ms);
            if (!m)
                fail_msg("%s: model %s is not in Data/Models", de->d_name, c->model_names[i]);
            free(m);
        }
        files++;
        comps += c->num_comps;
        trans += c->num_trans;
        models += c->num_models;
        cob_free(c);
    }
    closedir(dp);
    printf("%d .cob files: %d components, %d transforms, %d models\n", files, comps, trans, models);
    assert_int_equal(files, 40);
    assert_int_equal(comps, 184);
    assert_int_equal(trans, 587);
    // dump.cob: the dump, its door sliding 320 units along z and back, its dish turning
    cob_t *c = load_cob("dump.cob", NULL);
    assert_int_equal(c->num_models, 3);
    assert_string_equal(c->model_names[1], "dumpdoor.mx");
    assert_int_equal(c->num_comps, 3);
    assert_int_equal(c->comps[1].model, 1);
    assert_int_equal(c->comps[1].parent, 0);
    assert_int_equal(c->comps[1].num_trans, 6);
    assert_int_equal(c->trans[c->comps[1].first_trans + 1].type, COB_TRANSLATE);
    assert_float_equal(c->trans[c->comps[1].first_trans + 1].v[2], -256.0f, 1e-4f);
    assert_float_equal(c->trans[c->comps[1].first_trans + 1].start, 30.0f, 1e-4f);
    assert_int_equal(c->trans[c->comps[2].first_trans].type, COB_ROTATE);
    assert_float_equal(c->overall_time, 300.0f, 1e-3f);
    assert_float_equal(c->mid_time, 150.0f, 1e-3f);   // no "open" property: half the overall time
    cob_free(c);
}

// Every prefix of two files is refused with an offset (but the whole), and every byte
// changed at every offset is loaded or refused with an offset, never read past.
static void test_cob_bad_bytes(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *names[] = { "dump.cob", "Metatank.cob" };
    for (int f = 0; f < 2; f++) {
        char rel[64];
        snprintf(rel, sizeof rel, "BGObjects/%s", names[f]);
        size_t size;
        uint8_t *d = data_file(rel, &size);
        assert_non_null(d);
        int refused = 0, loaded = 0;
        for (size_t n = 0; n < size; n++) {
            uint8_t *cut = malloc(n ? n : 1);
            memcpy(cut, d, n);
            char err[256] = "";
            cob_t *c = cob_load(cut, n, names[f], err, sizeof err);
            if (c)
                fail_msg("%s cut to %zu bytes loaded", names[f], n);
            if (!strstr(err, "offset "))
                fail_msg("%s cut to %zu: no offset in \"%s\"", names[f], n, err);
            refused++;
            free(cut);
        }
        for (size_t i = 0; i < size; i++)
            for (int v = 0; v < 2; v++) {
                uint8_t *b = malloc(size);
                memcpy(b, d, size);
                b[i] = v ? (uint8_t)(b[i] + 1) : (uint8_t)(b[i] ^ 0xff);
                char err[256] = "";
                cob_t *c = cob_load(b, size, names[f], err, sizeof err);
                if (c) {
                    loaded++;
                    float pos[COB_MAX_COMPS][3], axes[COB_MAX_COMPS][3][3];
                    const float id[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, o[3] = { 0, 0, 0 };
                    cob_pose(c, c->mid_time, o, id, pos, axes);
                    for (int k = 0; k < c->num_comps; k++)
                        assert_true(c->comps[k].model >= -1 && c->comps[k].model < c->num_models);
                    cob_free(c);
                } else if (!strstr(err, "offset ")) {
                    fail_msg("%s byte %zu changed: no offset in \"%s\"", names[f], i, err);
                } else {
                    refused++;
                }
                free(b);
            }
        printf("%s: %d refused, %d changed files loaded\n", names[f], refused, loaded);
        free(d);
    }
}

// ---- a .BGO list, written as the game's PreLoadBGOFiles reads it ----

typedef struct {
    uint8_t b[4096];
    size_t n;
} buf_t;

static void put(buf_t *b, const void *p, size_t n)
{
    assert_true(b->n + n <= sizeof b->b);
    memcpy(b->b + b->n, p, n);
    b->n += n;
}
static void p16(buf_t *b, int v) { int16_t x = (int16_t)v; put(b, &x, 2); }
static void p32(buf_t *b, int32_t v) { put(b, &v, 4); }
static void pf(buf_t *b, float v) { put(b, &v, 4); }

static void bgo_header(buf_t *b, int count)
{
    put(b, "PRJX", 4);
    p32(b, 3);
    p16(b, count);
}

static void bgo_entry(buf_t *b, const char *cob, int type, int group, const float pos[3], const float dir[3],
                      const float up[3])
{
    put(b, cob, strlen(cob) + 1);
    p16(b, type);
    p16(b, group);
    for (int k = 0; k < 3; k++)
        pf(b, pos[k]);
    for (int k = 0; k < 3; k++)
        pf(b, dir[k]);
    for (int k = 0; k < 3; k++)
        pf(b, up[k]);
}

static void bgo_door_fields(buf_t *b)
{
    p16(b, 7);    // open event
    p16(b, -1);   // close event
    p16(b, -1);   // shot event
    p16(b, 3);    // bump event
    p32(b, -1);   // pickup needed
    p16(b, 1);    // opened by: a player's bump
    p16(b, 0);    // locked
    p16(b, 1);    // sound: stone
}

static void test_bgo_list(void **state)
{
    (void)state;
    buf_t b = { .n = 0 };
    const float pos[3] = { 10, 20, 30 }, dir[3] = { 0, 0, 1 }, up[3] = { 0, 1, 0 };
    bgo_header(&b, 4);
    bgo_entry(&b, "door.cob", BGO_DOOR, 5, pos, dir, up);
    bgo_door_fields(&b);
    bgo_entry(&b, "fan.cob", BGO_LOOPING, 6, pos, dir, up);
    p16(&b, -1), p16(&b, -1), p16(&b, 4), p16(&b, BGO_GEN_TRIGGERED), pf(&b, 2.5f);
    bgo_entry(&b, "wall.cob", BGO_MULTISTEP, 7, pos, dir, up);
    p16(&b, 1), p16(&b, 2), p16(&b, 3), p16(&b, 1), p16(&b, 2), p16(&b, 4), pf(&b, 50);
    bgo_entry(&b, "statue.cob", BGO_STATIC, 8, pos, dir, up);
    const char *env = getenv("FS_WRITE_SAMPLE");
    if (env && !strcmp(env, "1")) {   // the seed of `FUZZ_ONLY=bgo make fuzz`
        mkdir("tests/corpus/bgo", 0755);
        assert_int_equal(tu_write("tests/corpus/bgo/four.bgo", b.b, b.n), 0);
    }
    bgo_list_t l;
    char err[256] = "";
    if (bgo_load(b.b, b.n, "t.bgo", &l, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(l.num, 4);
    assert_string_equal(l.e[0].cob, "door.cob");
    assert_int_equal(l.e[0].type, BGO_DOOR);
    assert_int_equal(l.e[0].group, 5);
    assert_float_equal(l.e[0].pos[2], 30, 0);
    assert_int_equal(l.e[0].open_event, 7);
    assert_int_equal(l.e[0].bump_event, 3);
    assert_int_equal(l.e[0].pickup_needed, -1);
    assert_int_equal(l.e[0].opened_by, 1);
    assert_int_equal(l.e[0].sfx_type, 1);
    assert_int_equal(l.e[1].end_event, 4);
    assert_int_equal(l.e[1].gen_type, BGO_GEN_TRIGGERED);
    assert_float_equal(l.e[1].delay, 2.5f, 0);
    assert_int_equal(l.e[2].num_intervals, 4);
    assert_int_equal(l.e[2].destroy_at_end, 1);
    assert_float_equal(l.e[2].damage_per_interval, 50, 0);
    assert_string_equal(l.e[3].cob, "statue.cob");
    bgo_free(&l);
    // every cut is refused with its offset
    for (size_t n = 0; n < b.n; n++) {
        err[0] = 0;
        assert_int_equal(bgo_load(b.b, n, "t.bgo", &l, err, sizeof err), -1);
        if (!strstr(err, "offset "))
            fail_msg("cut to %zu: \"%s\"", n, err);
    }
    // hostile counts and versions
    b.b[8] = 0xff, b.b[9] = 0x7f;
    assert_int_equal(bgo_load(b.b, b.n, "t.bgo", &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.bgo: offset 8: expected an object count 0..256, got 32767"));
    b.b[4] = 2;
    assert_int_equal(bgo_load(b.b, b.n, "t.bgo", &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.bgo: offset 4: expected version 3, got 2"));
}

// The game's door (ProcessBGObjects): opening at one animation tick a game tick up to its
// mid time, open for 180, closing to its overall time, then closed.
static void test_door_rule(void **state)
{
    (void)state;
    const float mid = 150, all = 300;
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_CLOSED, 77, 10, mid, all), 0, 0);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPENING, 0, 0, mid, all), 0, 0);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPENING, 0, 100, mid, all), 100, 1e-4f);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPENING, 40, 100, mid, all), 140, 1e-4f);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPENING, 0, 150 + 180, mid, all), 150, 1e-4f);   // held
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPENING, 0, 150 + 180 + 50, mid, all), 200, 1e-4f);   // closing
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPENING, 0, 150 + 180 + 151, mid, all), 0, 0);      // closed
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPEN, 150, 100, mid, all), 150, 0);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPEN, 150, 200, mid, all), 170, 1e-4f);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_CLOSING, 150, 100, mid, all), 250, 1e-4f);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_CLOSING, 150, 151, mid, all), 0, 0);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_REVERSEOPENING, 100, 30, mid, all), 70, 1e-4f);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_REVERSEOPENING, 100, 130, mid, all), 0, 0);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_REVERSECLOSING, 250, 50, mid, all), 200, 1e-4f);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_REVERSECLOSING, 250, 150, mid, all), 150, 1e-4f);   // open again
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_REVERSECLOSING, 250, 100 + 180 + 20, mid, all), 170, 1e-4f);
    assert_float_equal(r_fsbgo_door_time(99, 10, 10, mid, all), 0, 0);
    assert_float_equal(r_fsbgo_door_time(FSW_DOOR_OPENING, 0, NAN, mid, all), 0, 0);
}

// dump.cob posed: the door's offset along the object's z as its translations add up.
static void test_pose(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    cob_t *c = load_cob("dump.cob", NULL);
    float axes[3][3];
    // the object faces +x (its z), up +y: its x is then -z (x = up x dir)
    cob_axes_from_dir_up((float[3]){ 1, 0, 0 }, (float[3]){ 0, 1, 0 }, axes);
    assert_float_equal(axes[0][2], -1, 1e-6f);
    const float org[3] = { 100, 200, 300 };
    const float times[] = { 0, 15, 30, 90, 120, 150, 195, 270, 300 };
    const float door_z[] = { 0, -16, -32, -288, -320, -320, -304, 0, 0 };
    for (int i = 0; i < 9; i++) {
        float pos[COB_MAX_COMPS][3], ax[COB_MAX_COMPS][3][3];
        cob_pose(c, times[i], org, (const float(*)[3])axes, pos, ax);
        assert_float_equal(pos[0][0], 100, 1e-3f);   // the dump itself stays
        assert_float_equal(pos[1][0], 100 + door_z[i], 1e-3f);
        assert_float_equal(pos[1][1], 200, 1e-3f);
        assert_float_equal(ax[1][2][0], 1, 1e-5f);   // the door keeps the object's axes
    }
    // the dish turns a whole turn about y through its point every 60 ticks: at 30, half a turn
    float pos[COB_MAX_COMPS][3], ax[COB_MAX_COMPS][3][3];
    const float id[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, o[3] = { 0, 0, 0 };
    cob_pose(c, 30, o, id, pos, ax);
    assert_float_equal(ax[2][0][0], -1, 1e-4f);
    assert_float_equal(ax[2][1][1], 1, 1e-4f);
    cob_pose(c, 60, o, id, pos, ax);
    assert_float_equal(ax[2][0][0], 1, 1e-4f);
    assert_float_equal(pos[2][0], 0, 1e-2f);
    cob_free(c);
}

// ---- a door on ship: the dump's door (Data/BGObjects/dump.cob) listed by a .BGO in a mod folder ----

typedef struct {
    char base[256];           // --basedir: Data (a link to the game data) and bgtest/ (the .BGO)
    float eye[3], ang[3], fwd[3], right[3], up[3];
    float obj[3];             // the object's position
    float dir[3], oup[3];     // its direction and up
} door_t;

#define DOOR_MSG_TIME 1.0
#define DOOR_END 10.0

static void door_setup(door_t *s)
{
    snprintf(s->base, sizeof s->base, "/tmp/demoplay_fsbgo_%d", (int)getpid());
    char path[1024], real[PATH_MAX];
    mkdir(s->base, 0755);
    snprintf(path, sizeof path, "%s/Data", s->base);
    unlink(path);
    assert_non_null(realpath(tu_data("forsaken/Data"), real));
    assert_int_equal(symlink(real, path), 0);
    snprintf(path, sizeof path, "%s/bgtest", s->base);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/bgtest/levels", s->base);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/bgtest/levels/ship", s->base);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/bgtest/levels/ship/bgobjects", s->base);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/bgtest/levels/ship/bgobjects/dump.cob", s->base);
    unlink(path);
    char cob[PATH_MAX];
    assert_non_null(realpath(tu_data("forsaken/Data/BGObjects/dump.cob"), cob));
    assert_int_equal(symlink(cob, path), 0);
    // ship's first start position (ship.stp: "PRJX", u32, u16 count, f32 position, direction, up ...)
    size_t size;
    uint8_t *stp = data_file("levels/ship/ship.stp", &size);
    assert_non_null(stp);
    float f[9];
    memcpy(f, stp + 10, sizeof f);
    free(stp);
    memcpy(s->eye, f, 12);
    s->ang[0] = (float)(asin(-f[4]) * 180 / M_PI);
    s->ang[1] = (float)(atan2(f[3], f[5]) * 180 / M_PI) - 35;   // down the hall
    s->ang[2] = 0;
    r_fs_angle_vectors(s->ang, s->fwd, s->right, s->up);
    // the dump 800 units ahead and 250 left, its z (the door's way) along the view's right
    for (int k = 0; k < 3; k++) {
        s->obj[k] = s->eye[k] + 800 * s->fwd[k] - 250 * s->right[k] - 100 * s->up[k];
        s->dir[k] = s->right[k];
        s->oup[k] = s->up[k];
    }
    buf_t b = { .n = 0 };
    bgo_header(&b, 1);
    bgo_entry(&b, "dump.cob", BGO_DOOR, 0, s->obj, s->dir, s->oup);
    bgo_door_fields(&b);
    snprintf(path, sizeof path, "%s/bgtest/levels/ship/ship.bgo", s->base);
    assert_int_equal(tu_write(path, b.b, b.n), 0);
}

// alice sits at the start position; at 1.0 s (with `msg`) the door starts opening.
static void door_demo(const door_t *s, int msg, const char *path)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= (int)(DOOR_END * 10); i++) {
        double t = 0.05 + i * 0.1;
        fs_ship_t sh;
        memset(&sh, 0, sizeof sh);
        sh.flags = FS_SHIP_ENABLE;
        memcpy(sh.pos, s->eye, sizeof sh.pos);
        fs_angles_to_quat(s->ang, sh.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &sh);
        if (msg && fabs(t + 0.05 - DOOR_MSG_TIME) < 1e-6)
            fs_write_bgoupdate(&wr, fs_ticks(DOOR_MSG_TIME), 1,
                               &(fs_bgoupdate_t){ .player = 0, .object = 0, .state = FSW_DOOR_OPENING, .time = 0 });
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

static void door_shot(const door_t *s, const char *demo, const char *game, double at, const char *png)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s shot %s --basedir %s %s%s --at %.3f -o %s 2>&1", tu_bin(), demo, s->base,
             game ? "--game " : "", game ? game : "", at, png);
    int status = -1;
    char *out = tu_run(cmd, &status);
    if (status != 0)
        fail_msg("%s: %s", cmd, out ? out : "");
    free(out);
}

// The screen box (320x200, as r_main sets the view: xscale 160, yscale 160 / 1.2) of the
// door model's box (dumpdoor.mx: x -287..287, y -91..228, z -47..239) offset `dz` along the object's z.
static void door_box(const door_t *s, float dz, int box[4])
{
    float axes[3][3];
    cob_axes_from_dir_up(s->dir, s->oup, axes);
    const float lo[3] = { -287, -91, -47 }, hi[3] = { 287, 228, 239 };
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int c = 0; c < 8; c++) {
        float l[3] = { c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], (c & 4 ? hi[2] : lo[2]) + dz }, p[3], d[3];
        for (int k = 0; k < 3; k++) {
            p[k] = s->obj[k] + l[0] * axes[0][k] + l[1] * axes[1][k] + l[2] * axes[2][k];
            d[k] = p[k] - s->eye[k];
        }
        float x = d[0] * s->right[0] + d[1] * s->right[1] + d[2] * s->right[2];
        float y = d[0] * s->up[0] + d[1] * s->up[1] + d[2] * s->up[2];
        float z = d[0] * s->fwd[0] + d[1] * s->fwd[1] + d[2] * s->fwd[2];
        assert_true(z > 1);
        float sx = 160 + 160 * x / z, sy = 100 - 160 / 1.2f * y / z;
        x0 = fminf(x0, sx), x1 = fmaxf(x1, sx), y0 = fminf(y0, sy), y1 = fmaxf(y1, sy);
    }
    box[0] = (int)fmaxf(0, floorf(x0));
    box[1] = (int)fmaxf(0, floorf(y0));
    box[2] = (int)fminf(320, ceilf(x1));
    box[3] = (int)fminf(200, ceilf(y1));
}

static int differ_in(const char *a, const char *b, const int box[4], int *outside)
{
    int wa, ha, wb, hb, ca, cb;
    uint8_t *pa = stbi_load(a, &wa, &ha, &ca, 3), *pb = stbi_load(b, &wb, &hb, &cb, 3);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(wa, wb);
    assert_int_equal(ha, hb);
    int in = 0, out = 0;
    for (int y = 0; y < ha; y++)
        for (int x = 0; x < wa; x++) {
            int d = memcmp(pa + ((size_t)y * (size_t)wa + (size_t)x) * 3, pb + ((size_t)y * (size_t)wa + (size_t)x) * 3, 3);
            if (x >= box[0] && x < box[2] && y >= box[1] && y < box[3])
                in += d != 0;
            else
                out += d != 0;
        }
    stbi_image_free(pa);
    stbi_image_free(pb);
    if (outside)
        *outside = out;
    return in;
}

static const char *out_dir(void)
{
    return tu_tmpdir("FS_BGO_SHOTS");
}

static void door_cleanup(const door_t *s)
{
    char path[1024];
    const char *links[] = { "bgtest/levels/ship/bgobjects/dump.cob", "bgtest/levels/ship/ship.bgo", "Data" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", s->base, links[i]);
        unlink(path);
    }
    const char *dirs[] = { "bgtest/levels/ship/bgobjects", "bgtest/levels/ship", "bgtest/levels", "bgtest", "" };
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", s->base, dirs[i]);
        rmdir(path);
    }
}

// Closed before the message, open 2 s after it (the door's anim time 142 of its 0..120 slide
// and 150 mid), closed again once the game's hold and the closing have run (from 7.76 s).
static void test_door_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    door_t s;
    door_setup(&s);
    char demo[512], nodoor[512], closed[512], open[512], again[512], bare[512];
    snprintf(demo, sizeof demo, "%s/fs_door_%d.dmo", out_dir(), (int)getpid());
    snprintf(nodoor, sizeof nodoor, "%s/fs_door_nomsg_%d.dmo", out_dir(), (int)getpid());
    door_demo(&s, 1, demo);
    door_demo(&s, 0, nodoor);
    snprintf(closed, sizeof closed, "%s/fs_door_closed.png", out_dir());
    snprintf(open, sizeof open, "%s/fs_door_open.png", out_dir());
    snprintf(again, sizeof again, "%s/fs_door_again.png", out_dir());
    snprintf(bare, sizeof bare, "%s/fs_door_bare.png", out_dir());
    // times the game's rule gives: open from 1 + 150/71 s, held 180/71 s, closed 150/71 s later
    double t_open = DOOR_MSG_TIME + 150.0 / 71, t_closing = t_open + 180.0 / 71, t_shut = t_closing + 150.0 / 71;
    printf("door: message at %.2f s, open at %.3f s, closing from %.3f s, closed at %.3f s\n", DOOR_MSG_TIME, t_open,
           t_closing, t_shut);
    door_shot(&s, demo, "bgtest", 0.5, closed);
    door_shot(&s, demo, "bgtest", 3.0, open);
    door_shot(&s, demo, "bgtest", t_shut + 0.5, again);
    door_shot(&s, demo, NULL, 0.5, bare);   // the level as released: no .BGO
    int shut_box[4], open_box[4], out;
    door_box(&s, 0, shut_box);
    door_box(&s, -320, open_box);
    int area = (shut_box[2] - shut_box[0]) * (shut_box[3] - shut_box[1]);
    printf("closed door box %d,%d..%d,%d (%d pixels), open %d,%d..%d,%d\n", shut_box[0], shut_box[1], shut_box[2],
           shut_box[3], area, open_box[0], open_box[1], open_box[2], open_box[3]);
    assert_true(area > 400);
    // the object is drawn: the closed shot differs from the bare level inside the closed door's box
    int drawn = differ_in(closed, bare, shut_box, NULL);
    printf("closed vs no object: %d pixels of the door's box differ\n", drawn);
    assert_true(drawn > area / 3);
    // opened: the closed door's box changes, and so does the open door's
    int moved = differ_in(closed, open, shut_box, &out);
    printf("closed vs open: %d in the closed door's box, %d elsewhere\n", moved, out);
    assert_true(moved > area / 4);
    assert_true(differ_in(closed, open, open_box, NULL) > 100);
    // closed again: the same picture as before the message
    assert_int_equal(differ_in(closed, again, (int[4]){ 0, 0, 320, 200 }, NULL), 0);
    // without the message the door stays shut: at 3.0 s the picture is the closed one
    char still[512];
    snprintf(still, sizeof still, "%s/fs_door_nomsg.png", out_dir());
    door_shot(&s, nodoor, "bgtest", 3.0, still);
    assert_int_equal(differ_in(closed, still, (int[4]){ 0, 0, 320, 200 }, NULL), 0);
    tu_golden("door closed", closed, "tests/golden/fs_door_closed.png", 0.002);
    tu_golden("door open", open, "tests/golden/fs_door_open.png", 0.002);

    // seek == play: the frames a player draws while playing on equal a seek's
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = s.base;
    cli.game = "bgtest";
    const double at[] = { 0.5, 2.0, 3.0, 5.9, 6.8, 8.5 };
    enum { N = sizeof at / sizeof at[0] };
    renderer_t *r = r_create(160, 100);
    assert_non_null(r);
    uint8_t *played[N];
    demo_t d;
    assert_int_equal(demo_open(&d, &cli, demo, NULL, 0), 0);
    player_t *p = player_create(&d, &cli, r, NULL, NULL);
    assert_non_null(p);
    int k = 0;
    for (double t = player_start(p); k < N && t < DOOR_END; t += 0.05) {
        while (k < N && at[k] <= t + 1e-9) {   // drawn before the step past it: played up to at[k] only
            double tt = at[k];
            assert_true(player_advance(p, tt) >= 0);
            r_render(r, d.world, player_demo_time(p, tt));
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
    for (int i = N - 1; i >= 0; i--) {   // backwards: every seek goes back
        assert_int_equal(player_seek(p, at[i]), 0);
        r_render(r, d.world, player_demo_time(p, at[i]));
        int w, h, pitch;
        const uint8_t *px = r_pixels(r, &w, &h, &pitch);
        if (memcmp(px, played[i], (size_t)h * (size_t)pitch)) {
            printf("seek to %.2f s differs from play\n", at[i]);
            differ++;
        }
        free(played[i]);
    }
    assert_int_equal(differ, 0);
    player_destroy(p);
    demo_close(&d);
    r_destroy(r);
    door_cleanup(&s);
    if (!getenv("FS_BGO_SHOTS")) {   // asked for the pictures: keep the demos too
        remove(demo);
        remove(nodoor);
    }
}

// ---- morphs: an MXA's frames played by its .COB (the flags' waving) ----

// Flagmrph.cob: one component (FlagmrphWAVE000.mxa) with ten morphs of 15/60 s each; the
// game numbers them 1..10 and draws the model between Frame and InterpFrame (UpdateCompObjChildren,
// InterpFrames).
static void test_morph_rule(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    cob_t *c = load_cob("Flagmrph.cob", NULL);
    assert_int_equal(c->num_comps, 2);
    assert_int_equal(c->comps[1].num_trans, 10);
    for (int k = 0; k < 10; k++) {
        const cob_trans_t *t = &c->trans[c->comps[1].first_trans + k];
        assert_int_equal(t->type, COB_MORPH);
        assert_int_equal(t->frame, k + 1);
        assert_true(fabsf(t->start - 15.0f * k) < 1e-4f && fabsf(t->duration - 15) < 1e-4f);
    }
    struct {
        float time;
        int frame, interp;
        float share;
    } want[] = { { 0, 0, 1, 0 }, { 7.5f, 0, 1, 0.5f }, { 18.75f, 1, 2, 0.25f }, { 75, 5, 6, 0 },
                 { 93.75f, 6, 7, 0.25f }, { 149, 9, 10, 14.0f / 15 }, { 150, 10, 0, 0 }, { 500, 10, 0, 0 } };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int f, fi;
        float it;
        cob_morph(c, 1, want[i].time, &f, &fi, &it);
        if (f != want[i].frame || fi != want[i].interp || fabsf(it - want[i].share) > 1e-5f)
            fail_msg("morph at %.2f: %d -> %d at %.3f, expected %d -> %d at %.3f", want[i].time, f, fi, it, want[i].frame,
                     want[i].interp, want[i].share);
    }
    int f, fi;
    float it;
    cob_morph(c, 0, 50, &f, &fi, &it);   // no morphs: frame 0
    assert_true(f == 0 && fi == 0 && it == 0);
    cob_morph(c, 7, 50, &f, &fi, &it);   // no such component
    assert_true(f == 0 && fi == 0 && it == 0);
    cob_free(c);

    // the model: 11 frames of 120 animated vertices (its 128 less the box), frame 0 the mesh
    size_t size;
    uint8_t *d = data_file("models/FlagmrphWAVE000.mxa", &size);
    assert_non_null(d);
    char err[256];
    mx_t *m = mx_load(d, size, "FlagmrphWAVE000.mxa", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    free(d);
    assert_int_equal(m->anim_frames, 11);
    assert_int_equal(m->num_texgroups, 1);
    assert_int_equal(m->num_anim, 11 * 120);
    assert_int_equal(m->tg_first[0], 8);
    mx_vertex_t *pose = malloc((size_t)m->num_verts * sizeof *pose);
    // frame 0: the mesh's positions, frame 0's colours (0xbfbfbf where the mesh has white)
    mx_pose(m, 0, 0, 0, pose);
    int greyed = 0;
    for (int i = 0; i < m->num_verts; i++) {
        assert_memory_equal(pose[i].pos, m->verts[i].pos, sizeof pose[i].pos);
        if (i >= 8) {
            const mx_animvert_t *a = &m->anim[i - 8];
            assert_true(pose[i].r == a->r && pose[i].g == a->g && pose[i].b == a->b);
            greyed += pose[i].r != m->verts[i].r;
        }
    }
    printf("frame 0: the mesh's positions; %d vertex colours from the frame differ from the mesh's\n", greyed);
    // between frames 1 and 2 a quarter of the way: every animated vertex where the rule puts it
    mx_pose(m, 1, 2, 0.25f, pose);
    double moved = 0;
    int colours = 0;
    for (int k = 0; k < 120; k++) {
        const mx_animvert_t *a = &m->anim[m->anim_off[1] + k], *b = &m->anim[m->anim_off[2] + k];
        const mx_vertex_t *o = &pose[8 + k];
        assert_true(a->flags & MX_ANIM_POS);
        for (int i = 0; i < 3; i++) {
            assert_true(fabsf(o->pos[i] - (a->pos[i] + (b->pos[i] - a->pos[i]) * 0.25f)) < 1e-4f);
            moved += fabs(o->pos[i] - m->verts[8 + k].pos[i]);
        }
        if (a->flags & MX_ANIM_RGB) {   // the game's byte step: from + floor((to - from) x t)
            int want_r = (a->r + (int)floor((b->r - a->r) * 0.25)) & 255;
            assert_int_equal(o->r, want_r);
            colours++;
        }
    }
    printf("FlagmrphWAVE000.mxa between frames 1 and 2 at 0.25: vertices moved %.1f units in all from the mesh, %d "
           "colours stepped\n",
           moved, colours);
    assert_true(moved > 100);
    // frames out of range: the mesh
    mx_pose(m, 11, 2, 0.5f, pose);
    for (int i = 0; i < m->num_verts; i++)
        assert_true(!memcmp(pose[i].pos, m->verts[i].pos, sizeof pose[i].pos) && pose[i].r == m->verts[i].r);
    mx_pose(m, -1, 0, 0.5f, pose);
    for (int i = 0; i < m->num_verts; i++)
        assert_true(!memcmp(pose[i].pos, m->verts[i].pos, sizeof pose[i].pos) && pose[i].r == m->verts[i].r);
    free(pose);
    mx_free(m);
}

// The flag waving on ship: Flagmrph.cob as a looping object of a mod folder's ship.bgo, 300 units
// ahead: a looping object runs in step with the demo's clock (one a game tick, 71 a second, over its
// 150), so two times in different morphs draw different flags, and times a whole loop apart the same.
static void test_flag_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    door_t s;
    door_setup(&s);   // the mod folder, the view; the object replaced below
    char path[1024], cob[PATH_MAX];
    snprintf(path, sizeof path, "%s/bgtest/levels/ship/bgobjects/dump.cob", s.base);
    unlink(path);
    assert_non_null(realpath(tu_data("forsaken/Data/BGObjects/Flagmrph.cob"), cob));
    assert_int_equal(symlink(cob, path), 0);   // the flag, under the dump's name
    float obj[3], dir[3];
    for (int k = 0; k < 3; k++) {
        obj[k] = s.eye[k] + 300 * s.fwd[k] - 60 * s.up[k];
        dir[k] = -s.fwd[k];   // facing the eye
    }
    buf_t b = { .n = 0 };
    bgo_header(&b, 1);
    bgo_entry(&b, "dump.cob", BGO_LOOPING, 0, obj, dir, s.up);
    p16(&b, -1);   // shot event
    p16(&b, -1);   // bump event
    p16(&b, -1);   // end event
    p16(&b, BGO_GEN_IMMEDIATE);
    pf(&b, 0);     // delay
    snprintf(path, sizeof path, "%s/bgtest/levels/ship/ship.bgo", s.base);
    unlink(path);
    assert_int_equal(tu_write(path, b.b, b.n), 0);
    char demo[512], a[512], c2[512], c3[512], bare[512];
    snprintf(demo, sizeof demo, "%s/fs_flag_%d.dmo", out_dir(), (int)getpid());
    door_demo(&s, 0, demo);
    // animation times 18.75 (frames 1 -> 2), 93.75 (6 -> 7), and 18.75 again a loop (150/71 s) later (to the
    // millisecond `shot --at` takes)
    double t1 = 18.75 / 71, t2 = 93.75 / 71, t3 = t1 + 150.0 / 71;
    snprintf(a, sizeof a, "%s/fs_flag_a.png", out_dir());
    snprintf(c2, sizeof c2, "%s/fs_flag_b.png", out_dir());
    snprintf(c3, sizeof c3, "%s/fs_flag_a_again.png", out_dir());
    snprintf(bare, sizeof bare, "%s/fs_flag_bare.png", out_dir());
    door_shot(&s, demo, "bgtest", t1, a);
    door_shot(&s, demo, "bgtest", t2, c2);
    door_shot(&s, demo, "bgtest", t3, c3);
    door_shot(&s, demo, NULL, t1, bare);
    // the flag's screen box: the model within its radius (95) of the object
    float d[3] = { obj[0] - s.eye[0], obj[1] - s.eye[1], obj[2] - s.eye[2] };
    float z = d[0] * s.fwd[0] + d[1] * s.fwd[1] + d[2] * s.fwd[2];
    float x = d[0] * s.right[0] + d[1] * s.right[1] + d[2] * s.right[2];
    float y = d[0] * s.up[0] + d[1] * s.up[1] + d[2] * s.up[2];
    float sx = 160 + 160 * x / z, sy = 100 - 160 / 1.2f * y / z, r = 100 * 160 / z;
    int box[4] = { (int)fmaxf(0, sx - r), (int)fmaxf(0, sy - r), (int)fminf(320, sx + r), (int)fminf(200, sy + r) };
    int out;
    int drawn = differ_in(a, bare, box, &out);
    int waved = differ_in(a, c2, box, &out);
    int again = differ_in(a, c3, (int[4]){ 0, 0, 320, 200 }, NULL);
    printf("flag at (%.0f, %.0f) +-%.0f px: %d pixels differ from the bare level, %d between frames 1-2 and 6-7 "
           "(%d outside), %d a loop later\n",
           sx, sy, r, drawn, waved, out, again);
    assert_true(drawn > 300);
    assert_true(waved > 100);
    assert_int_equal(out, 0);
    assert_true(again * 20 < waved);   // --at has whole milliseconds: the same morph to within 0.02 of a tick
    tu_golden("flag waving", c2, "tests/golden/fs_flag_wave.png", 0.002);
    door_cleanup(&s);
    if (!getenv("FS_BGO_SHOTS"))
        remove(demo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cob_loads),
        cmocka_unit_test(test_cob_bad_bytes),
        cmocka_unit_test(test_bgo_list),
        cmocka_unit_test(test_door_rule),
        cmocka_unit_test(test_pose),
        cmocka_unit_test(test_door_scene),
        cmocka_unit_test(test_morph_rule),
        cmocka_unit_test(test_flag_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
