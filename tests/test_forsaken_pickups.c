// test_forsaken_pickups.c -- the level's own pickups (Data/Levels/NAME/NAME.PIC, assets/fspic.c),
// placed by the host at the level's start and taken by MSG_KILLPICKUP (formats/forsaken.c,
// render/r_fsent.c); the flags' MXA frames played as the game's pickups play them.
// (docs/forsaken.md "The level's own pickups", "MXA frames")
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "assets/fspic.h"
#include "assets/mx.h"
#include "engine/vfs.h"
#include "engine/world_fs.h"
#include "formats/decoder.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsent.h"
#include "render/r_fsworld.h"
#include "fs_data.h"

#define ALL_TYPES ((1ull << FSPIC_PICKUP_TYPES) - 1)

static fspic_t *load_pic(const char *level, char *err, size_t cap)
{
    char path[128];
    snprintf(path, sizeof path, "levels/%s/%s.pic", level, level);
    size_t size;
    uint8_t *d = fs_file(NULL, path, &size);
    if (!d) {
        snprintf(err, cap, "%s: not found", path);
        return NULL;
    }
    fspic_t *p = fspic_load(d, size, path, err, cap);
    if (p)
        assert_int_equal(p->end, size);   // every released file is exactly its slots
    free(d);
    return p;
}

// Every level's .PIC loads; counts and a few slots pinned (read with the game's layout by hand);
// the host's placement by the header's allowed pickups and game flags.
static void test_pic_files(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct {
        const char *level;
        int count;
    } levels[] = { { "alpha", 30 },  { "arena", 36 }, { "fourball", 28 }, { "midpand", 30 },  { "pandora", 32 },
                   { "ship", 21 },   { "smalls", 29 }, { "therm", 49 },   { "tunnels", 34 }, { "tworooms", 34 } };
    char err[256];
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        fspic_t *p = load_pic(levels[i].level, err, sizeof err);
        if (!p)
            fail_msg("%s", err);
        printf("%-9s %2d slots\n", levels[i].level, p->count);
        assert_int_equal(p->count, levels[i].count);
        fspic_free(p);
    }
    fspic_t *p = load_pic("ship", err, sizeof err);
    assert_non_null(p);
    const fspic_slot_t *s = &p->slots[1];
    assert_int_equal(s->gen_type, 0);
    assert_int_equal(s->type, 12);   // the MFRL ("Rocket Launcher")
    assert_int_equal(s->group, 8);
    assert_float_equal(s->pos[0], 256.0, 1e-3);
    assert_float_equal(s->pos[1], -421.7378, 1e-3);
    assert_float_equal(s->pos[2], 4864.0, 1e-3);
    assert_float_equal(s->lifespan, -1.0, 0);
    assert_int_equal(s->trigger_mod, 0xffff);
    assert_int_equal(p->slots[13].type, FSPIC_TYPE_FLAG);
    assert_int_equal(p->slots[17].type, FSPIC_TYPE_BOUNTY);

    // the host's placement: the flag only in a capture-the-flag game, the bounty only in a bounty hunt
    fspic_placed_t out[FSPIC_MAX_SLOTS];
    assert_int_equal(fspic_place(p, ALL_TYPES, 0, out, FSPIC_MAX_SLOTS), 19);
    assert_int_equal(fspic_place(p, ALL_TYPES, FSPIC_FLAG_GAME_BIT, out, FSPIC_MAX_SLOTS), 20);
    assert_int_equal(fspic_place(p, ALL_TYPES, FSPIC_FLAG_GAME_BIT | FSPIC_BOUNTY_GAME_BIT, out, FSPIC_MAX_SLOTS), 21);
    // numbered 1, 2, ... in slot order: without the MFRL, slot 2 is id 2
    int n = fspic_place(p, ALL_TYPES & ~(1ull << 12), 0, out, FSPIC_MAX_SLOTS);
    assert_int_equal(n, 18);
    assert_int_equal(out[0].slot, 0);
    assert_int_equal(out[1].slot, 2);
    assert_int_equal(out[1].id, 2);
    for (int i = 0; i < n; i++)
        assert_int_equal(out[i].id, i + 1);
    assert_int_equal(fspic_place(p, 0, 0, out, FSPIC_MAX_SLOTS), 0);
    assert_int_equal(fspic_place(p, ALL_TYPES, 0, out, 5), 5);
    fspic_free(p);

    // arena's first slot waits 50 s (generation type 1) in the file: a multiplayer game places it at once
    p = load_pic("arena", err, sizeof err);
    assert_non_null(p);
    assert_int_equal(p->slots[0].gen_type, 1);
    assert_float_equal(p->slots[0].gen_delay, 50.0, 0);
    assert_int_equal(fspic_place(p, ALL_TYPES, 0, out, FSPIC_MAX_SLOTS), 34);
    assert_int_equal(out[0].slot, 0);
    fspic_free(p);
}

// A .PIC of our own: n slots, slot i of type types[i] at (i, 2i, 3i).
static size_t make_pic(uint8_t *b, int n, const uint16_t *types)
{
    memcpy(b, "PRJX", 4);
    uint32_t one = 1;
    memcpy(b + 4, &one, 4);
    int16_t c = (int16_t)n;
    memcpy(b + 8, &c, 2);
    for (int i = 0; i < n; i++) {
        uint8_t *s = b + FSPIC_HEADER + i * FSPIC_SLOT_SIZE;
        memset(s, 0, FSPIC_SLOT_SIZE);
        float f[5] = { 0, -1, (float)i, 2.0f * i, 3.0f * i };
        memcpy(s + 4, f, sizeof f);
        uint16_t g[3] = { (uint16_t)i, types[i], 0xffff };
        memcpy(s + 24, g, sizeof g);
    }
    return FSPIC_HEADER + (size_t)n * FSPIC_SLOT_SIZE;
}

static void expect_refused(const uint8_t *b, size_t n, const char *want)
{
    char err[256] = "";
    fspic_t *p = fspic_load(b, n, "x.pic", err, sizeof err);
    if (p)
        fail_msg("loaded %zu bytes, expected \"%s\"", n, want);
    if (!strstr(err, want))
        fail_msg("error \"%s\", expected \"%s\"", err, want);
}

// Bad bytes: every cut, another magic or version, hostile counts, types and positions are refused
// with the offset; bytes past the last slot are left alone.
static void test_pic_bad(void **state)
{
    (void)state;
    uint8_t b[FSPIC_HEADER + 4 * FSPIC_SLOT_SIZE + 8];
    uint16_t types[3] = { 24, 12, 40 };
    size_t n = make_pic(b, 3, types);
    char err[256];
    fspic_t *p = fspic_load(b, n, "x.pic", err, sizeof err);
    assert_non_null(p);
    assert_int_equal(p->count, 3);
    assert_float_equal(p->slots[2].pos[2], 6.0, 0);
    assert_int_equal(p->slots[1].type, 12);
    fspic_free(p);
    for (size_t cut = 0; cut < n; cut++) {
        err[0] = 0;
        p = fspic_load(b, cut, "x.pic", err, sizeof err);
        if (p || !strstr(err, "x.pic: offset "))
            fail_msg("%zu bytes: %s", cut, p ? "loaded" : err);
    }
    expect_refused(b, 40, "offset 40: expected 3 slots of 30 bytes (90 bytes), found 30 (cut short)");
    memset(b + n, 0, 8);
    p = fspic_load(b, n + 8, "x.pic", err, sizeof err);   // trailing bytes: ignored
    assert_non_null(p);
    assert_int_equal(p->end, n);
    fspic_free(p);
    uint8_t c[sizeof b];
    memcpy(c, b, n);
    c[0] = 'Q';
    expect_refused(c, n, "offset 0: expected the magic PRJX");
    memcpy(c, b, n);
    c[4] = 2;
    expect_refused(c, n, "offset 4: expected version 1 (PIC_VERSION_NUMBER), found 2");
    memcpy(c, b, n);
    c[8] = 0xff, c[9] = 0xff;
    expect_refused(c, n, "offset 8: expected a slot count 0..959, found -1");
    memcpy(c, b, n);
    c[8] = 0xc0, c[9] = 0x03;   // 960
    expect_refused(c, n, "offset 8: expected a slot count 0..959, found 960");
    memcpy(c, b, n);
    c[FSPIC_HEADER + FSPIC_SLOT_SIZE + 26] = 46;
    expect_refused(c, n, "offset 66: expected a pickup type below 46 in slot 1, found 46");
    memcpy(c, b, n);
    float nan = NAN;
    memcpy(c + FSPIC_HEADER + 2 * FSPIC_SLOT_SIZE + 16, &nan, 4);
    expect_refused(c, n, "offset 82: expected a finite position in slot 2");
    assert_null(fspic_load(NULL, 0, "x.pic", err, sizeof err));
    assert_non_null(strstr(err, "offset 0: "));
    // zero slots: a file, nothing placed
    make_pic(b, 0, types);
    p = fspic_load(b, FSPIC_HEADER, "x.pic", err, sizeof err);
    assert_non_null(p);
    fspic_placed_t out[4];
    assert_int_equal(fspic_place(p, ALL_TYPES, 0, out, 4), 0);
    fspic_free(p);
}

// ---- demos on ship ------------------------------------------------------------------------

typedef struct {
    float eye[3], ang[3], fwd[3], right[3], up[3];
} view_t;

// The recorder 150 units from ship's slot 1 (the MFRL at 256, -421.7, 4864), looking at it along z.
static void view_setup(view_t *v)
{
    v->eye[0] = 256;
    v->eye[1] = -421.74f + 20;
    v->eye[2] = 4864 - 150;
    v->ang[0] = 7;
    v->ang[1] = 0;
    v->ang[2] = 0;
    r_fs_angle_vectors(v->ang, v->fwd, v->right, v->up);
}

enum { DEMO_HOST, DEMO_RANDOM, DEMO_JOINER, DEMO_NONE_ALLOWED };

// The recorder sits still for 2 s; `kind`: the host's recording (every pickup allowed), one with
// random pickups, a joiner's (a MSG_SHORTPICKUP list at 0.1 s), one allowing no pickup. With
// kill_id, a MSG_KILLPICKUP for pickup kill_id of kill_owner (-1: 0xffff, the level's own) at kill_t s.
static void level_demo(const view_t *v, int kind, int kill_id, int kill_owner, double kill_t, const char *path)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    h.pickup_flags = kind == DEMO_NONE_ALLOWED ? 0 : ALL_TYPES;
    h.random_pickups = kind == DEMO_RANDOM;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= 40; i++) {
        double t = 0.05 + i * 0.05;
        fs_ship_t s;
        memset(&s, 0, sizeof s);
        s.flags = FS_SHIP_ENABLE;
        memcpy(s.pos, v->eye, sizeof s.pos);
        fs_angles_to_quat(v->ang, s.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s);
        if (kind == DEMO_JOINER && i == 1) {
            fs_event_t e;
            memset(&e, 0, sizeof e);
            e.type = FS_MSG_SHORTPICKUP;
            e.timestamp = fs_ticks(0.1);
            e.sender = 7;
            e.u.list.player = 1;
            e.u.list.count = 1;
            e.u.list.e.pickups[0] = (fs_pickupinfo_t){ .type = 24, .group = 8, .owner = 0xffff, .id = 1,
                                                       .pos = { 300, -421, 4864 }, .life_count = -1 };
            fs_write_event(&wr, &e);
        }
        if (kill_id && fabs(t - kill_t) < 1e-6) {
            fs_killpickup_t k;
            memset(&k, 0, sizeof k);
            k.player = 1;
            k.owner = (int16_t)kill_owner;
            k.id = (uint16_t)kill_id;
            fs_write_killpickup(&wr, fs_ticks(kill_t), 7, &k);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

static const char *out_dir(void) { return tu_tmpdir("FS_MODEL_SHOTS"); }

// The level pickups the drawer has at `at` seconds into the demo (decoded in-process).
static int placed_at(const char *path, double at, fspic_placed_t *out, int max, uint32_t *info)
{
    fs_play_t pl;
    fs_play_open(&pl, path, 1);
    while (pl.w->time < at && fs_play_frame(&pl)) {
    }
    *info = world_entity_visible(pl.w, FSW_LPICK_INFO) ? pl.w->entities[FSW_LPICK_INFO].cur.raw_effects : 0xdead;
    int n = r_fsent_level_pickups(pl.fe, pl.w, out, max);
    fs_play_close(&pl);
    return n;
}

// Host or joiner, and which level pickups each shows: the host's recording all it placed (ship:
// 19 of its 21 slots, the flag and the bounty left out of a plain game) until a MSG_KILLPICKUP
// names one; a joiner's (a MSG_SHORTPICKUP list in it) and one with random pickups none of them;
// a header allowing no pickup none.
static void test_host_placed(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    view_t v;
    view_setup(&v);
    char path[512];
    snprintf(path, sizeof path, "%s/fs_lpick_%d.dmo", out_dir(), (int)getpid());
    fspic_placed_t out[FSPIC_MAX_SLOTS];
    uint32_t info;

    level_demo(&v, DEMO_HOST, 3, -1, 1.0, path);
    int n = placed_at(path, 0.5, out, FSPIC_MAX_SLOTS, &info);
    printf("host: %d placed at 0.5 s (info 0x%x)\n", n, info);
    assert_int_equal(info, FSW_LPICK_HOST);
    assert_int_equal(n, 19);
    assert_int_equal(out[1].id, 2);
    assert_int_equal(out[1].type, 12);
    assert_int_equal(out[2].id, 3);
    n = placed_at(path, 1.5, out, FSPIC_MAX_SLOTS, &info);
    printf("host: %d after MSG_KILLPICKUP (0xffff, 3)\n", n);
    assert_int_equal(n, 18);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(out[i].id, 3);

    // another owner's id 3 is not the level's
    level_demo(&v, DEMO_HOST, 3, 0, 1.0, path);
    assert_int_equal(placed_at(path, 1.5, out, FSPIC_MAX_SLOTS, &info), 19);

    level_demo(&v, DEMO_RANDOM, 0, 0, 1.0, path);
    assert_int_equal(placed_at(path, 0.5, out, FSPIC_MAX_SLOTS, &info), 0);
    assert_int_equal(info, FSW_LPICK_HOST | FSW_LPICK_RANDOM);
    level_demo(&v, DEMO_JOINER, 0, 0, 1.0, path);
    assert_int_equal(placed_at(path, 0.05, out, FSPIC_MAX_SLOTS, &info), 0);   // before its list too
    assert_int_equal(info, 0);
    level_demo(&v, DEMO_NONE_ALLOWED, 0, 0, 1.0, path);
    assert_int_equal(placed_at(path, 0.5, out, FSPIC_MAX_SLOTS, &info), 0);
    assert_int_equal(info, FSW_LPICK_HOST);
    if (!getenv("FS_MODEL_SHOTS"))
        remove(path);
}

// Screen position of p in the 320x200 shot (r_main's view: xscale 160, yscale 160 / 1.2).
static int project(const view_t *v, const float p[3], float *sx, float *sy, float *z)
{
    float d[3] = { p[0] - v->eye[0], p[1] - v->eye[1], p[2] - v->eye[2] };
    float x = d[0] * v->right[0] + d[1] * v->right[1] + d[2] * v->right[2];
    float y = d[0] * v->up[0] + d[1] * v->up[1] + d[2] * v->up[2];
    *z = d[0] * v->fwd[0] + d[1] * v->fwd[1] + d[2] * v->fwd[2];
    if (*z < 1)
        return -1;
    *sx = 160 + 160 * x / *z;
    *sy = 100 - 160 / 1.2f * y / *z;
    return 0;
}

// Pixels that differ between two PNGs inside the box [x0, x1) x [y0, y1), and outside it.
static void diff_box(const char *a, const char *b, int x0, int y0, int x1, int y1, int *in, int *out)
{
    int wa, ha, wb, hb, ca, cb;
    uint8_t *pa = stbi_load(a, &wa, &ha, &ca, 3), *pb = stbi_load(b, &wb, &hb, &cb, 3);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(wa, wb);
    assert_int_equal(ha, hb);
    *in = *out = 0;
    for (int y = 0; y < ha; y++)
        for (int x = 0; x < wa; x++) {
            size_t i = ((size_t)y * (size_t)wa + (size_t)x) * 3;
            int differs = memcmp(pa + i, pb + i, 3) != 0;
            if (x >= x0 && x < x1 && y >= y0 && y < y1)
                *in += differs;
            else
                *out += differs;
        }
    stbi_image_free(pa);
    stbi_image_free(pb);
}

// The MFRL the host placed in ship's slot 1 is drawn where the .PIC puts it from the first frame
// (its box differs from the same recording with random pickups, where none is drawn), and once a
// MSG_KILLPICKUP takes it the picture there is that recording's again; golden.
static void test_placed_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    view_t v;
    view_setup(&v);
    char host[512], none[512], early[512], a[512], b[512], c[512], d[512];
    snprintf(host, sizeof host, "%s/fs_lpick_host_%d.dmo", out_dir(), (int)getpid());
    snprintf(none, sizeof none, "%s/fs_lpick_none_%d.dmo", out_dir(), (int)getpid());
    snprintf(a, sizeof a, "%s/fs_lpick.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_lpick_none.png", out_dir());
    snprintf(c, sizeof c, "%s/fs_lpick_taken.png", out_dir());
    snprintf(early, sizeof early, "%s/fs_lpick_early_%d.dmo", out_dir(), (int)getpid());
    snprintf(d, sizeof d, "%s/fs_lpick_early.png", out_dir());
    level_demo(&v, DEMO_HOST, 2, -1, 1.0, host);   // slot 1's MFRL is id 2
    level_demo(&v, DEMO_RANDOM, 0, 0, 1.0, none);
    fs_shot(host, 0.5, a);
    fs_shot(none, 0.5, b);
    const float mfrl[3] = { 256, -421.7378f, 4864 };
    float sx = 0, sy = 0, z = 0;
    assert_int_equal(project(&v, mfrl, &sx, &sy, &z), 0);
    float r = 40 * 160 / z;
    int in, out;
    diff_box(a, b, (int)(sx - r), (int)(sy - r), (int)(sx + r) + 1, (int)(sy + r) + 1, &in, &out);
    printf("placed MFRL at (%.1f, %.1f) %.0f units away, box +-%.0f px: %d pixels differ inside, %d outside\n", sx, sy,
           z, r, in, out);
    assert_true(in > 200);
    tu_golden("the level's own pickup", a, "tests/golden/fs_level_pickup.png", 0.002);
    // taken at 1.0 s: at 1.5 s the same picture as a recording where it was taken at 0.05 s, which
    // differs from the one at 0.5 s inside its box (the other placed pickups lie elsewhere)
    level_demo(&v, DEMO_HOST, 2, -1, 0.05, early);
    fs_shot(host, 1.5, c);
    fs_shot(early, 0.5, d);
    int in2, out2, in3, out3;
    diff_box(c, d, (int)(sx - r), (int)(sy - r), (int)(sx + r) + 1, (int)(sy + r) + 1, &in2, &out2);
    diff_box(a, d, (int)(sx - r), (int)(sy - r), (int)(sx + r) + 1, (int)(sy + r) + 1, &in3, &out3);
    printf("taken at 1.0 s, at 1.5 s: %d pixels differ from the one taken at 0.05 s (%d outside); before: %d inside\n",
           in2, out2, in3);
    assert_int_equal(in2, 0);   // outside: the other placed pickups, turned on by another second
    assert_true(in3 > 200);
    if (!getenv("FS_MODEL_SHOTS")) {
        remove(host);
        remove(none);
        remove(early);
    }
}


// ---- the flags' MXA frames -------------------------------------------------------------------

// A flag (pickup 40, FlagmrphWAVE000.mxa) dropped 250 units ahead of the still recorder at 0.1 s.
static void flag_demo(const view_t *v, const char *path)
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= 130; i++) {
        double t = 0.05 + i * 0.05;
        fs_ship_t s;
        memset(&s, 0, sizeof s);
        s.flags = FS_SHIP_ENABLE;
        memcpy(s.pos, v->eye, sizeof s.pos);
        fs_angles_to_quat(v->ang, s.quat);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s);
        if (i == 1) {
            fs_droppickup_t d;
            memset(&d, 0, sizeof d);
            d.player = 0;
            d.id = 1;
            d.type = 40;   // PICKUP_Flag
            for (int k = 0; k < 3; k++)
                d.pos[k] = v->eye[k] + 250 * v->fwd[k];
            fs_write_droppickup(&wr, fs_ticks(0.1), 1, &d);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// The flag pickups' models have frames (FlagmrphWAVE000.mxa: 11 of 120 vertices) but the game
// plays none of them on a pickup: ModelNames[] gives the flags DoIMorph = MODELTYPE_Static (0),
// so ModelDisp draws them through the MX path (ExecuteMxloadHeader) without InterpFrames: the
// mesh's own pose and colours, whatever the time. So a flag lying there looks the same a whole
// turn later (4 s at 90 degrees a second: at 1.0 s and at 5.0 s, 0 pixels differ; a waving flag,
// 11 frames of 15 ticks, would not: 4 s is not a whole number of its 2.75 s loops), and only half
// a turn later does it differ (3.0 s).
static void test_flag_frames(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = fs_file(NULL, "models/flagmrphwave000.mxa", &size);
    assert_non_null(d);
    char err[256];
    mx_t *mx = mx_load(d, size, "flagmrphwave000.mxa", err, sizeof err);
    free(d);
    if (!mx)
        fail_msg("%s", err);
    printf("FlagmrphWAVE000.mxa: %d frames, %d vertices\n", mx->anim_frames, mx->num_verts);
    assert_int_equal(mx->anim_frames, 11);
    mx_free(mx);

    view_t v;
    view_setup(&v);
    char path[512], a[512], b[512], c[512];
    snprintf(path, sizeof path, "%s/fs_flag_%d.dmo", out_dir(), (int)getpid());
    snprintf(a, sizeof a, "%s/fs_flag_1.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_flag_5.png", out_dir());
    snprintf(c, sizeof c, "%s/fs_flag_3.png", out_dir());
    flag_demo(&v, path);
    fs_shot(path, 1.0, a);
    fs_shot(path, 5.0, b);
    fs_shot(path, 3.0, c);
    double same = tu_png_diff(a, b), half = tu_png_diff(a, c);
    printf("flag pickup: a whole turn apart %.4f %% of the pixels differ, half a turn %.4f %%\n", same * 100,
           half * 100);
    assert_true(same == 0);
    assert_true(half > 0.002);
    if (!getenv("FS_MODEL_SHOTS"))
        remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pic_files),
        cmocka_unit_test(test_pic_bad),
        cmocka_unit_test(test_host_placed),
        cmocka_unit_test(test_placed_scene),
        cmocka_unit_test(test_flag_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
