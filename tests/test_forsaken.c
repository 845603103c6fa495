// test_forsaken.c -- Forsaken .DMO: writer -> decoder round trips over every event type, the sample, bad bytes
//
// No real Forsaken recording exists publicly, so the demos here are made by
// formats/forsaken_write.c. FS_WRITE_SAMPLE=1 (re)writes tests/data/forsaken_sample.dmo.
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "engine/world.h"
#include "engine/world_fs.h"
#include "formats/decoder.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"

extern const decoder_t fs_decoder;

#define SAMPLE "tests/data/forsaken_sample.dmo"

static fs_header_t header(uint32_t version, const char *level)
{
    fs_header_t h;
    memset(&h, 0, sizeof(h));
    h.version = version;
    h.seed1 = 1234;
    h.seed2 = 5678;
    h.random_pickups = 1;
    h.pickup_flags = 0x00ffffffffffull;
    h.game_flags = 0;
    h.start_pos_modify = 3;
    snprintf(h.level, sizeof(h.level), "%s", level);
    return h;
}

static fs_ship_t ship(int player, float x, float y, float z, float pitch, float yaw, float roll, float bank)
{
    fs_ship_t s;
    memset(&s, 0, sizeof(s));
    s.player = (uint8_t)player;
    s.flags = FS_SHIP_ENABLE;
    s.group = 2;
    s.pos[0] = x;
    s.pos[1] = y;
    s.pos[2] = z;
    s.vel[0] = 3;
    s.vel[1] = 0;
    s.vel[2] = 4;
    s.rot[0] = 1.5f;
    s.bank = bank;
    float a[3] = { pitch, yaw, roll };
    fs_angles_to_quat(a, s.quat);
    return s;
}

// ---- a decoder driven in-process -------------------------------------------------

typedef struct {
    void *st;
    world_t *w;
    int own_world;
    dec_error_t err;
} run_t;

// One world for the thousands of fuzz decodes: open() resets it, and creating
// a full-capacity world each time costs more than the decoding.
static world_t *g_world;

// The decoder's warnings (dec_opts_t.warn) of the latest run_open.
#define MAX_WARN 64
typedef struct {
    int n;
    long long offset[MAX_WARN];
    char what[MAX_WARN][240];
} warnings_t;
static warnings_t g_warn;

static void collect_warning(void *ctx, long long offset, const char *what)
{
    warnings_t *wn = ctx;
    if (wn->n < MAX_WARN) {
        wn->offset[wn->n] = offset;
        snprintf(wn->what[wn->n], sizeof wn->what[0], "%s", what);
    }
    wn->n++;
}

// The index of the warning containing `text`, or -1.
static int find_warning(const char *text)
{
    for (int i = 0; i < g_warn.n && i < MAX_WARN; i++)
        if (strstr(g_warn.what[i], text))
            return i;
    return -1;
}

static int run_open_in(run_t *r, const uint8_t *data, size_t size, world_t *shared)
{
    memset(r, 0, sizeof(*r));
    r->st = calloc(1, fs_decoder.state_size);
    r->own_world = shared == NULL;
    r->w = shared ? shared : world_create();
    assert_non_null(r->st);
    assert_non_null(r->w);
    memset(&g_warn, 0, sizeof g_warn);
    dec_opts_t o = { .warn = collect_warning, .warn_ctx = &g_warn };
    return fs_decoder.open(r->st, data, size, r->w, &o, &r->err);
}

static int run_open(run_t *r, const uint8_t *data, size_t size)
{
    return run_open_in(r, data, size, NULL);
}

static void run_close(run_t *r)
{
    fs_decoder.close(r->st);
    free(r->st);
    if (r->own_world)
        world_free(r->w);
}

static const world_event_t *find_event(const world_t *w, world_event_type_t type, int nth)
{
    for (int i = 0; i < w->num_events; i++)
        if (w->events[i].type == type && nth-- == 0)
            return &w->events[i];
    return NULL;
}

static int find_pickup(const world_t *w, int type)
{
    for (int n = 1; n < w->num_entities; n++)
        if (world_entity_visible(w, n) && w->entities[n].cur.modelindex == 3 && w->entities[n].cur.skin == type)
            return n;
    return -1;
}

static void assert_angle(float got, float want, float tol)
{
    double d = fmod(fabs((double)got - want), 360.0);
    if (d > 180)
        d = 360 - d;
    if (d > tol)
        fail_msg("angle %f, expected %f (+-%f)", got, want, tol);
}

// ---- the demo with every event type ------------------------------------------------

enum { N_EVENTS = 23 };

static void make_all_events(fs_writer_t *wr)
{
    fs_header_t h = header(0x0109, "ship");
    fs_write_header(wr, &h);
    fs_write_name(wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });                          // 0
    fs_write_name(wr, fs_ticks(0.10), 7, &(fs_name_t){ .player = 1, .name = "bob" });               // 1
    fs_write_hereiam(wr, fs_ticks(0.20), 7, &(fs_hereiam_t){ .player = 1, .id = 7, .rejoining = 0 }); // 2
    fs_write_playernum(wr, fs_ticks(0.25), 9, 2);                                                    // 3
    fs_write_bikenum(wr, fs_ticks(0.30), 1, &(fs_bikenum_t){ .player = 0, .kills = 3, .deaths = 1, .bike = 5 }); // 4
    fs_ship_t s0 = ship(0, 100.5f, -20.25f, 3000.0f, 10, 45, 5, 0);
    fs_write_ship(wr, fs_ticks(0.40), 1, FS_MSG_UPDATE, &s0);                                       // 5
    fs_ship_t s1 = ship(1, -500, 64, 12.125f, -30, 170, -20, 10);
    s1.primary = 3;
    s1.secondary = 7;
    s1.charge = 2;
    s1.flags |= FS_SHIP_PRIMFIRE;
    fs_write_ship(wr, fs_ticks(0.50), 7, FS_MSG_FUPDATE, &s1);                                      // 6
    fs_ship_t s2 = ship(0, 101, -20, 3001, 5, 90, 0, -15);
    fs_write_ship(wr, fs_ticks(0.60), 1, FS_MSG_VERYSHORTUPDATE, &s2);                              // 7
    fs_ship_t s3 = ship(1, -499, 65, 13, 0, -90, 30, 0);
    s3.primary = 2;
    s3.secondary = 4;
    fs_write_ship(wr, fs_ticks(0.70), 7, FS_MSG_VERYSHORTFUPDATE, &s3);                             // 8
    fs_secbull_t mine = { .player = 0, .owner_type = 1, .owner = 0, .bullet_id = 11, .group = 2,
                          .pos = { 10, 20, 30 }, .dir = { 0, 0, 1 }, .up = { 0, 1, 0 }, .drop_dir = { 0, -1, 0 },
                          .weapon = 9 };
    fs_write_secbull(wr, fs_ticks(0.80), 1, &mine);                                                 // 9
    fs_titanbits_t tb = { .player = 1, .owner_type = 1, .owner = 1, .bullet_id = 12, .group = 3,
                          .pos = { -1, -2, -3 }, .weapon = 14 };
    for (int i = 0; i < FS_NUM_TITANBITS; i++) {
        tb.dirs[i][0] = (float)i;
        tb.dirs[i][1] = 1;
        tb.dirs[i][2] = -(float)i;
    }
    fs_write_titanbits(wr, fs_ticks(0.90), 7, &tb);                                                 // 10
    fs_shockwave_t sw = { .player = 1, .owner = 1, .group = 3, .pos = { 7, 8, 9 }, .weapon = 255, .size = 2.5f };
    fs_write_shockwave(wr, fs_ticks(1.00), 7, &sw);                                                 // 11
    fs_status_t st = { .player = 1, .is_host = 1, .status = 4, .team = 1, .team_score = 9, .ready = 1,
                       .pickups = 2, .packets_per_second = 15.0f };
    fs_write_status(wr, fs_ticks(1.10), 7, &st);                                                    // 12
    st.has_checksum = 1;
    st.level_checksum = 0x1122334455667788ull;
    fs_write_status(wr, fs_ticks(1.20), 7, &st);                                                    // 13
    fs_shipdied_t died = { .player = 1, .killer = 0, .type = 0, .weapon_type = 1, .weapon = 3,
                           .pos = { -499, 65, 13 } };
    fs_write_shipdied(wr, fs_ticks(1.30), 7, &died);                                                // 14
    fs_droppickup_t d1 = { .player = 1, .id = 7, .type = 12, .group = 3, .pos = { 40, 50, 60 },
                           .dir = { 0, 1, 0 }, .speed = 2, .regen_slot = -1, .sparkle = 1, .life_count = 600,
                           .trigger_mod = 65535 };
    fs_write_droppickup(wr, fs_ticks(1.40), 7, &d1);                                                // 15
    fs_droppickup_t d2 = d1;
    d2.id = 8;
    d2.type = 20;
    d2.pos[0] = -40;
    fs_write_droppickup(wr, fs_ticks(1.50), 7, &d2);                                                // 16
    fs_write_killpickup(wr, fs_ticks(1.60), 1, &(fs_killpickup_t){ .player = 0, .owner = 1, .id = 7, .style = 1 }); // 17
    fs_write_text(wr, fs_ticks(1.70), 1, &(fs_text_t){ .player = 0, .text = "alice says: hello there", .type = 5 }); // 18
    fs_write_text(wr, fs_ticks(1.80), 7, &(fs_text_t){ .player = 1, .text = "bob has the flag", .type = 6 });      // 19
    uint8_t unknown[30] = { 0x42, 1, 2, 3 };
    fs_write_raw_event(wr, fs_ticks(1.90), 7, unknown, sizeof(unknown));                            // 20
    fs_write_bikenum(wr, fs_ticks(2.00), 7, &(fs_bikenum_t){ .player = 1, .kills = 2, .deaths = 4, .bike = 9 });   // 21
    // an early event logged late: world time does not go back
    fs_write_playernum(wr, fs_ticks(1.95), 9, 2);                                                   // 22
    assert_false(wr->failed);
}

static void test_roundtrip_every_event(void **state)
{
    (void)state;
    fs_writer_t wr;
    fs_writer_init(&wr);
    make_all_events(&wr);
    assert_true(fs_decoder.probe(wr.data, wr.size) >= 90);
    run_t r;
    assert_int_equal(run_open(&r, wr.data, wr.size), 0);
    world_t *w = r.w;
    assert_int_equal(w->game, GAME_FORSAKEN);
    assert_string_equal(w->map, "levels/ship/ship.mxv");
    for (int i = 0; i < N_EVENTS; i++) {
        int rc = fs_decoder.read_frame(r.st, w, &r.err);
        if (rc != 1)
            fail_msg("frame %d: %d %s", i, rc, r.err.what);
        const world_event_t *ev;
        switch (i) {
        case 0:
            assert_string_equal(w->players[0].name, "alice");
            assert_non_null(find_event(w, EV_LEVEL, 0));
            break;
        case 1:
            assert_string_equal(w->players[1].name, "bob");
            break;
        case 2:
            assert_true(w->players[1].active);
            break;
        case 3:
            assert_true(w->players[2].active);
            break;
        case 4:
            assert_int_equal(w->players[0].frags, 3);
            assert_int_equal(w->players[0].deaths, 1);
            break;
        case 5: {
            const world_entity_t *e = &w->entities[1];
            assert_true(world_entity_visible(w, 1));
            assert_float_equal(e->cur.origin[0], 100.5, 0);
            assert_float_equal(e->cur.origin[1], -20.25, 0);
            assert_float_equal(e->cur.origin[2], 3000.0, 0);
            assert_angle(e->cur.angles[0], 10, 0.01f);
            assert_angle(e->cur.angles[1], 45, 0.01f);
            assert_angle(e->cur.angles[2], 5, 0.01f);
            assert_int_equal(e->cur.skin, 5);
            break;
        }
        case 6: {
            const world_entity_t *e = &w->entities[2];
            assert_true(world_entity_visible(w, 2));
            assert_true(world_entity_visible(w, 1));   // ship 0 stays, unchanged
            assert_float_equal(w->entities[1].cur.origin[0], 100.5, 0);
            assert_float_equal(e->cur.origin[0], -500, 0);
            assert_float_equal(e->cur.origin[2], 12.125, 0);
            assert_angle(e->cur.angles[0], -30, 0.01f);
            assert_angle(e->cur.angles[1], 170, 0.01f);
            assert_angle(e->cur.angles[2], -10, 0.01f);   // roll -20 + bank 10
            assert_int_equal(e->cur.body, 3);
            assert_int_equal(e->cur.sequence, 7);
            assert_int_equal(e->cur.frame, 2);
            assert_true(e->cur.effects & EF_MUZZLEFLASH);
            break;
        }
        case 7: {
            const world_entity_t *e = &w->entities[1];
            assert_float_equal(e->cur.origin[0], 101, 0);
            assert_float_equal(e->cur.origin[1], -20, 0);
            assert_float_equal(e->cur.origin[2], 3001, 0);
            assert_float_equal(e->prev.origin[0], 100.5, 0);   // lerp from the last update
            assert_true(e->lerp_ok);
            assert_angle(e->cur.angles[0], 5, 0.05f);
            assert_angle(e->cur.angles[1], 90, 0.05f);
            assert_angle(e->cur.angles[2], -15, 0.05f);
            assert_false(w->entities[2].cur.effects & EF_MUZZLEFLASH);   // the shot was one message
            break;
        }
        case 8: {
            const world_entity_t *e = &w->entities[2];
            assert_float_equal(e->cur.origin[0], -499, 0);
            assert_angle(e->cur.angles[1], -90, 0.05f);
            assert_angle(e->cur.angles[2], 30, 0.05f);
            assert_int_equal(e->cur.body, 2);
            assert_int_equal(e->cur.sequence, 4);
            break;
        }
        case 9:
            ev = find_event(w, EV_TEMPENT, 0);
            assert_non_null(ev);
            assert_int_equal(ev->u.fx.kind, FX_GENERIC);
            assert_int_equal(ev->u.fx.raw_type, FS_MSG_SECBULLPOSDIR);
            assert_int_equal(ev->u.fx.entity, 1);
            assert_float_equal(ev->u.fx.origin[2], 30, 0);
            assert_float_equal(ev->u.fx.dir[2], 1, 0);
            break;
        case 10:
            for (int k = 0; k < FS_NUM_TITANBITS; k++) {
                ev = find_event(w, EV_TEMPENT, k);
                assert_non_null(ev);
                assert_int_equal(ev->u.fx.kind, FX_SPARKS);
                assert_int_equal(ev->u.fx.raw_type, FS_MSG_TITANBITS);
                assert_int_equal(ev->u.fx.entity, 2);
                assert_float_equal(ev->u.fx.origin[0], -1, 0);
                assert_float_equal(ev->u.fx.dir[0], k, 0);
                assert_float_equal(ev->u.fx.dir[2], -k, 0);
            }
            assert_null(find_event(w, EV_TEMPENT, FS_NUM_TITANBITS));
            break;
        case 11:
            ev = find_event(w, EV_TEMPENT, 0);
            assert_non_null(ev);
            assert_int_equal(ev->u.fx.kind, FX_EXPLOSION);
            assert_int_equal(ev->u.fx.raw_type, FS_MSG_SHOCKWAVE);
            assert_float_equal(ev->u.fx.radius, 2.5, 0);
            assert_float_equal(ev->u.fx.origin[1], 8, 0);
            break;
        case 12:
            assert_int_equal(w->players[1].team, 1);   // MSG_STATUS's team byte
            assert_int_equal(w->players[0].team, -1);
            break;
        case 14:
            ev = find_event(w, EV_KILL, 0);
            assert_non_null(ev);
            assert_int_equal(ev->u.kill.victim, 1);
            assert_int_equal(ev->u.kill.killer, 0);
            assert_int_equal(ev->u.kill.weapon, 0x103);
            break;
        case 15: {
            int n = find_pickup(w, 12);
            assert_true(n > 0);
            assert_float_equal(w->entities[n].cur.origin[0], 40, 0);
            assert_float_equal(w->entities[n].cur.origin[2], 60, 0);
            break;
        }
        case 16:
            assert_true(find_pickup(w, 12) > 0);
            assert_true(find_pickup(w, 20) > 0);
            break;
        case 17:
            assert_int_equal(find_pickup(w, 12), -1);   // picked up
            assert_true(find_pickup(w, 20) > 0);
            break;
        case 18:
            ev = find_event(w, EV_CHAT, 0);
            assert_non_null(ev);
            assert_string_equal(world_event_text(w, ev), "alice says: hello there");
            assert_int_equal(ev->u.text.level, 0);
            break;
        case 19:
            ev = find_event(w, EV_PRINT, 0);
            assert_non_null(ev);
            assert_string_equal(world_event_text(w, ev), "bob has the flag");
            break;
        case 20:
            assert_int_equal(w->num_events, 0);   // unknown type: skipped by its size
            assert_true(find_pickup(w, 20) > 0);
            break;
        case 21:
            assert_int_equal(w->players[1].frags, 2);
            assert_int_equal(w->players[1].deaths, 4);
            assert_int_equal(w->entities[2].cur.skin, 9);
            break;
        case 22:
            assert_float_equal(w->time, 2.0, 1e-6);
            break;
        default:
            break;
        }
    }
    assert_int_equal(fs_decoder.read_frame(r.st, w, &r.err), 0);
    const demo_info_t *in = fs_decoder.info(r.st);
    assert_string_equal(in->format, "forsaken");
    assert_int_equal(in->protocol, 0x0109);
    assert_int_equal(in->frames, N_EVENTS);
    assert_string_equal(in->map, "ship");
    assert_float_equal(in->start_time, 1.0 / FS_TICKS_PER_SECOND, 1e-12);
    assert_float_equal(in->end_time, 2.0, 1e-6);
    assert_int_equal(fs_decoder.offset(r.st), wr.size);
    run_close(&r);
    fs_writer_free(&wr);
}

// Every event parsed back and written again gives the same bytes (the very short
// updates excepted: their speed and direction are re-derived from a velocity).
static void test_bytes_roundtrip(void **state)
{
    (void)state;
    fs_writer_t wr, again;
    fs_writer_init(&wr);
    fs_writer_init(&again);
    make_all_events(&wr);
    fs_header_t h;
    dec_error_t err;
    long pos = fs_parse_header(wr.data, wr.size, &h, &err);
    assert_true(pos > 0);
    assert_string_equal(h.level, "ship");
    assert_int_equal(h.seed1, 1234);
    assert_int_equal(h.pickup_flags, 0x00ffffffffffull);
    fs_write_header(&again, &h);
    assert_memory_equal(again.data, wr.data, (size_t)pos);
    int compared = 0;
    while ((size_t)pos < wr.size) {
        fs_event_t ev;
        memset(&ev, 0, sizeof(ev));
        const uint8_t *p = wr.data + pos;
        memcpy(&ev.timestamp, p, 8);
        memcpy(&ev.size, p + 8, 4);
        memcpy(&ev.sender, p + 12, 4);
        assert_int_equal(fs_parse_payload(p + 16, ev.size, (size_t)pos + 16, &ev, &err), 0);
        size_t n = 16 + ev.size;
        if (ev.known && ev.type != FS_MSG_VERYSHORTUPDATE && ev.type != FS_MSG_VERYSHORTFUPDATE) {
            size_t before = again.size;
            assert_int_equal(fs_write_event(&again, &ev), 0);
            assert_int_equal(again.size - before, n);
            assert_memory_equal(again.data + before, p, n);
            compared++;
        }
        pos += (long)n;
    }
    assert_int_equal(compared, N_EVENTS - 3);
    fs_writer_free(&wr);
    fs_writer_free(&again);
}

static void make_extras(fs_writer_t *wr)
{
    fs_header_t h = header(0x010d, "arena");
    fs_write_header(wr, &h);
    fs_ship_t s0 = ship(0, 10, 20, -30, 20, -60, 0, 0);
    s0.primary = 5;
    s0.secondary = 6;
    fs_write_ship(wr, 1, 1, FS_MSG_GROUPONLY_VERYSHORTFUPDATE, &s0);                                  // 0
    fs_droppickup_t d = { .player = 1, .id = 3, .type = 17, .pos = { 1, 2, 3 } };
    fs_write_droppickup(wr, 2, 1, &d);                                                                // 1
    fs_write_serverkillpickup(wr, 3, 1, &(fs_killpickup_t){ .player = 32, .owner = 1, .id = 3, .new_owner = 0 }); // 2
    fs_primbull_t pb = { .player = 0, .owner_type = 1, .owner = 0, .bullet_id = 4, .weapon = 2, .group = 1,
                         .pos = { 10, 20, -29 }, .dir = { 0, 0, 1 }, .up = { 0, 1, 0 }, .power_level = 2,
                         .plevel = 0.5f };
    fs_write_primbull(wr, 4, 1, &pb);                                                                 // 3
    fs_expsecondary_t xs = { .player = 0, .owner_type = 1, .owner = 0, .id = 5, .size = 4, .pos = { 5, 6, 7 },
                             .group = 1 };
    fs_write_expsecondary(wr, 5, 1, &xs);                                                             // 4
    fs_serverdied_t sd = { .player = 32, .victim = 0, .killer = 1, .weapon_type = 0, .weapon = 2,
                           .pos = { 10, 20, -30 }, .deaths = 5 };
    fs_write_serverdied(wr, 6, 1, &sd);                                                               // 5
    fs_pings_t pg = { .player = 32 };
    for (int i = 0; i < FS_MAX_PLAYERS; i++)
        pg.ping[i] = (uint16_t)(10 * i);
    fs_write_pings(wr, 7, 1, &pg);                                                                    // 6
    fs_write_explodeship(wr, 8, 1, &(fs_explodeship_t){ .player = 32, .ship = 0 });                  // 7
    fs_write_shieldhull(wr, 9, 1, &(fs_shieldhull_t){ .player = 3, .shield = 77, .hull = 250, .valid_change = 1,
                                                       .count = 4 });                                  // 8
    uint8_t shortprim[30] = { FS_MSG_PRIMBULLPOSDIR, 0 };
    fs_write_raw_event(wr, 10, 1, shortprim, sizeof(shortprim));                                      // 9
    fs_shiphit_t hit = { .player = 1, .victim = 0, .damage = 12.5f, .force = 3, .recoil = { 1, 2, 3 },
                         .point = { 4, 5, 6 }, .dir = { 0, 0, 1 }, .weapon_type = 0, .weapon = 1, .one_off = 1,
                         .deaths = 5 };
    fs_write_shiphit(wr, 11, 1, FS_MSG_SHIPHIT, &hit);                                                // 10
    hit.dir[2] = 32767;
    hit.recoil_scalar = 256;
    fs_write_shiphit(wr, 12, 1, FS_MSG_SHORTSHIPHIT, &hit);                                           // 11
    fs_write_bgoupdate(wr, 13, 1, &(fs_bgoupdate_t){ .player = 2, .object = 3, .state = 1, .time = 12.5f }); // 12
    fs_write_bgoupdate(wr, 14, 1, &(fs_bgoupdate_t){ .player = 2, .object = 300, .state = 2, .time = 1 });   // 13
    fs_shortstats_t ss = { .player = 1, .whose = 1 };
    ss.stats[0] = 3;
    ss.stats[31] = -1;
    fs_write_shortstats(wr, 15, 1, &ss);                                                              // 14
    fs_write_teamgoals(wr, 16, 1, &(fs_teamgoals_t){ .player = 0, .goals = { 2, 0, 5, 65535 } });   // 15
    fs_write_serverscored(wr, 17, 1, &(fs_serverscored_t){ .player = 32, .who = 3, .score = 7 });   // 16
    assert_false(wr->failed);
}

// Messages beyond the spec: written, decoded into the world, and back to the same bytes.
static void test_extra_messages(void **state)
{
    (void)state;
    fs_writer_t wr;
    fs_writer_init(&wr);
    make_extras(&wr);
    assert_false(wr.failed);

    run_t r;
    assert_int_equal(run_open(&r, wr.data, wr.size), 0);
    world_t *w = r.w;
    const world_event_t *ev;
    assert_int_equal(w->players[3].shield, -1);   // not said yet
    assert_int_equal(w->players[3].team, -1);
    for (int i = 0; i < 17; i++) {
        int rc = fs_decoder.read_frame(r.st, w, &r.err);
        if (rc != 1)
            fail_msg("frame %d: %d %s", i, rc, r.err.what);
        switch (i) {
        case 0:
            assert_true(world_entity_visible(w, 1));
            assert_float_equal(w->entities[1].cur.origin[2], -30, 0);
            assert_angle(w->entities[1].cur.angles[0], 20, 0.05f);
            assert_angle(w->entities[1].cur.angles[1], -60, 0.05f);
            assert_int_equal(w->entities[1].cur.body, 5);
            assert_int_equal(w->entities[1].cur.sequence, 6);
            break;
        case 1:
            assert_true(find_pickup(w, 17) > 0);
            break;
        case 2:
            assert_int_equal(find_pickup(w, 17), -1);
            break;
        case 3:
            ev = find_event(w, EV_TEMPENT, 0);
            assert_non_null(ev);
            assert_int_equal(ev->u.fx.raw_type, FS_MSG_PRIMBULLPOSDIR);
            assert_int_equal(ev->u.fx.entity, 1);
            assert_float_equal(ev->u.fx.origin[2], -29, 0);
            break;
        case 4:
            ev = find_event(w, EV_TEMPENT, 0);
            assert_non_null(ev);
            assert_int_equal(ev->u.fx.kind, FX_EXPLOSION);
            assert_int_equal(ev->u.fx.raw_type, FS_MSG_EXPSECONDARY);
            assert_float_equal(ev->u.fx.radius, 4, 0);
            break;
        case 5:
            ev = find_event(w, EV_KILL, 0);
            assert_non_null(ev);
            assert_int_equal(ev->u.kill.victim, 0);
            assert_int_equal(ev->u.kill.killer, 1);
            assert_int_equal(w->players[0].deaths, 5);
            break;
        case 6:
            assert_int_equal(w->players[31].ping, 310);
            break;
        case 7:
            ev = find_event(w, EV_TEMPENT, 0);
            assert_non_null(ev);
            assert_int_equal(ev->u.fx.raw_type, FS_MSG_EXPLODESHIP);
            assert_float_equal(ev->u.fx.origin[0], 10, 0);
            break;
        case 8:
            assert_int_equal(w->players[3].shield, 77);
            assert_int_equal(w->players[3].hull, 250);
            assert_int_equal(w->players[0].shield, -1);
            assert_int_equal(w->view.intermission, 0);
            break;
        case 9: {   // too short for its layout: skipped by its size with a warning naming offset, code, size
            const demo_info_t *in = fs_decoder.info(r.st);
            assert_int_equal(w->num_events, 0);
            assert_int_equal(in->unknown_events, 1);
            assert_int_equal(g_warn.n, 1);
            assert_string_equal(g_warn.what[0], "expected at least 72 bytes for MSG_PRIMBULLPOSDIR (code 0x55), found 30 (skipped)");
            // its payload: after the 9 events before it
            size_t before = (size_t)fs_decoder.offset(r.st) - 30;
            assert_int_equal(g_warn.offset[0], (long long)before);
            assert_string_equal(in->warning, g_warn.what[0]);
            break;
        }
        case 10:
        case 11:
            assert_int_equal(w->num_events, 0);   // hits change nothing drawn (shown in dump)
            assert_int_equal(w->view.intermission, 0);
            break;
        case 12:   // a background object's state: entity FSW_BGO_ENT0 + object
            assert_true(world_entity_visible(w, FSW_BGO_ENT0 + 3));
            assert_int_equal(w->entities[FSW_BGO_ENT0 + 3].cur.modelindex, FSW_MODEL_BGO);
            assert_int_equal(w->entities[FSW_BGO_ENT0 + 3].cur.frame, FSW_DOOR_OPENING);
            assert_float_equal(w->entities[FSW_BGO_ENT0 + 3].cur.framerate, 12.5f, 0);
            assert_float_equal(w->entities[FSW_BGO_ENT0 + 3].cur.animtime, (float)w->time, 0);
            assert_int_equal(g_warn.n, 1);   // the short one above
            break;
        case 13: {   // an object beyond MAXBGOBJECTS: skipped with a warning at its offset; the rest stays
            assert_int_equal(g_warn.n, 2);
            assert_string_equal(g_warn.what[1], "expected a background object 0..255, got 300 (MSG_BGOUPDATE skipped)");
            // the object number's offset: before the three 16-byte-headed events that follow it
            size_t after = 3 * 16 + FS_SIZE_SHORTSTATS + FS_SIZE_TEAMGOALS + FS_SIZE_SERVERSCORED;
            assert_int_equal(g_warn.offset[1], (long long)(wr.size - after - 12 + 2));
            assert_true(world_entity_visible(w, FSW_BGO_ENT0 + 3));
            break;
        }
        case 14:
        case 15:
        case 16:   // stats, team goals, a server's score: in dump only, nothing drawn changes
            assert_int_equal(w->num_events, 0);
            assert_int_equal(g_warn.n, 2);
            assert_int_equal(fs_decoder.info(r.st)->warnings, 2);
            assert_int_equal(w->view.intermission, i == 16);   // the last event: the game is over
            break;
        default:
            break;
        }
    }
    assert_int_equal(fs_decoder.read_frame(r.st, w, &r.err), 0);
    run_close(&r);

    // back to bytes
    dec_error_t err;
    fs_header_t hh;
    long pos = fs_parse_header(wr.data, wr.size, &hh, &err);
    fs_writer_t again;
    fs_writer_init(&again);
    int n = 0;
    while ((size_t)pos < wr.size) {
        fs_event_t e;
        memset(&e, 0, sizeof(e));
        const uint8_t *p = wr.data + pos;
        memcpy(&e.timestamp, p, 8);
        memcpy(&e.size, p + 8, 4);
        memcpy(&e.sender, p + 12, 4);
        assert_int_equal(fs_parse_payload(p + 16, e.size, (size_t)pos + 16, &e, &err), 0);
        if (e.known) {
            size_t before = again.size;
            assert_int_equal(fs_write_event(&again, &e), 0);
            assert_memory_equal(again.data + before, p, 16 + e.size);
            n++;
        }
        pos += 16 + (long)e.size;
    }
    assert_int_equal(n, 16);
    fs_writer_free(&again);
    fs_writer_free(&wr);
}

static void test_angles(void **state)
{
    (void)state;
    for (int p = -80; p <= 80; p += 20)
        for (int y = -170; y <= 180; y += 35)
            for (int r = -170; r <= 180; r += 50) {
                float a[3] = { (float)p, (float)y, (float)r }, q[4], b[3];
                fs_angles_to_quat(a, q);
                fs_quat_to_angles(q, 0, b);
                assert_angle(b[0], a[0], 0.01f);
                assert_angle(b[1], a[1], 0.01f);
                assert_angle(b[2], a[2], 0.01f);
            }
    // nose straight up: no yaw/roll split, but no NaN either
    float a[3] = { -90, 30, 0 }, q[4], b[3];
    fs_angles_to_quat(a, q);
    fs_quat_to_angles(q, 0, b);
    assert_angle(b[0], -90, 0.05f);
    assert_true(isfinite(b[1]) && isfinite(b[2]));
    float zero[4] = { 0, 0, 0, 0 };
    fs_quat_to_angles(zero, 0, b);
    assert_float_equal(b[0], 0, 0);
    assert_float_equal(b[1], 0, 0);
}

// ---- the committed sample -------------------------------------------------------

static void make_sample(fs_writer_t *wr)
{
    static const char *const names[3] = { "Kaz", "Nubia", "Flygirl" };
    fs_header_t h = header(0x0109, "ship");
    fs_write_header(wr, &h);
    fs_write_name(wr, 1, 1, &(fs_name_t){ .player = 0, .name = "Kaz" });
    for (int p = 1; p < 3; p++) {
        fs_name_t n = { .player = (uint8_t)p };
        snprintf(n.name, sizeof(n.name), "%s", names[p]);
        fs_write_name(wr, fs_ticks(0.01 * p), (uint32_t)(100 + p), &n);
    }
    for (int p = 0; p < 3; p++)
        fs_write_bikenum(wr, fs_ticks(0.05), (uint32_t)(100 + p),
                         &(fs_bikenum_t){ .player = (uint8_t)p, .bike = (uint8_t)(p * 4) });
    fs_write_status(wr, fs_ticks(0.06), 100,
                    &(fs_status_t){ .player = 0, .is_host = 1, .status = 4, .packets_per_second = 10 });
    // three ships circling for three seconds at 10 updates a second
    for (int f = 0; f < 30; f++) {
        double t = 0.1 + f * 0.1;
        for (int p = 0; p < 3; p++) {
            double a = f * 12.0 + p * 120.0;
            float x = (float)(512 * cos(a * 3.14159265358979 / 180)), z = (float)(512 * sin(a * 3.14159265358979 / 180));
            fs_ship_t s = ship(p, x, (float)(64 * p), z, 0, (float)(-a), 0, 20);
            s.vel[0] = (float)(-sin(a * 3.14159265358979 / 180) * 107);
            s.vel[2] = (float)(cos(a * 3.14159265358979 / 180) * 107);
            int fire = (f % 7) == p;
            if (fire) {
                s.flags |= FS_SHIP_PRIMFIRE;
                s.primary = 1;
                s.secondary = 2;
            }
            fs_write_ship(wr, fs_ticks(t + 0.01 * p), (uint32_t)(100 + p),
                          fire ? FS_MSG_VERYSHORTFUPDATE : FS_MSG_VERYSHORTUPDATE, &s);
        }
        if (f == 8)
            fs_write_secbull(wr, fs_ticks(t + 0.05), 101,
                             &(fs_secbull_t){ .player = 1, .owner_type = 1, .owner = 1, .bullet_id = 1, .group = 2,
                                              .pos = { 0, 64, 512 }, .dir = { 0, 0, 1 }, .up = { 0, 1, 0 },
                                              .weapon = 9 });
        if (f == 15) {
            fs_titanbits_t tb = { .player = 2, .owner_type = 1, .owner = 2, .bullet_id = 2, .group = 2,
                                  .pos = { -256, 128, 0 }, .weapon = 14 };
            for (int i = 0; i < FS_NUM_TITANBITS; i++) {
                tb.dirs[i][0] = (float)((i % 3) - 1);
                tb.dirs[i][1] = (float)((i % 2) * 2 - 1);
                tb.dirs[i][2] = (float)(((i / 3) % 3) - 1);
            }
            fs_write_titanbits(wr, fs_ticks(t + 0.05), 102, &tb);
            fs_write_shockwave(wr, fs_ticks(t + 0.06), 102,
                               &(fs_shockwave_t){ .player = 2, .owner = 2, .group = 2, .pos = { -256, 128, 0 },
                                                  .weapon = 255, .size = 3 });
            fs_write_shipdied(wr, fs_ticks(t + 0.07), 101,
                              &(fs_shipdied_t){ .player = 1, .killer = 2, .weapon_type = 1, .weapon = 3,
                                                .pos = { -256, 64, 0 } });
            fs_write_droppickup(wr, fs_ticks(t + 0.08), 101,
                                &(fs_droppickup_t){ .player = 1, .id = 1, .type = 5, .group = 2,
                                                    .pos = { -256, 64, 0 }, .dir = { 0, 1, 0 }, .speed = 1,
                                                    .regen_slot = -1, .sparkle = 1, .life_count = 600 });
            fs_write_bikenum(wr, fs_ticks(t + 0.09), 102,
                             &(fs_bikenum_t){ .player = 2, .kills = 1, .deaths = 0, .bike = 8 });
            fs_write_bikenum(wr, fs_ticks(t + 0.09), 101,
                             &(fs_bikenum_t){ .player = 1, .kills = 0, .deaths = 1, .bike = 4 });
            fs_write_text(wr, fs_ticks(t + 0.095), 102, &(fs_text_t){ .player = 2, .text = "Flygirl: gotcha", .type = 5 });
        }
        if (f == 22)
            fs_write_killpickup(wr, fs_ticks(t + 0.05), 100,
                                &(fs_killpickup_t){ .player = 0, .owner = 1, .id = 1, .style = 0 });
    }
    assert_false(wr->failed);
}

enum { SAMPLE_EVENTS = 3 + 3 + 1 + 90 + 1 + 7 + 1 };

static void test_sample_file(void **state)
{
    (void)state;
    fs_writer_t wr;
    fs_writer_init(&wr);
    make_sample(&wr);
    const char *env = getenv("FS_WRITE_SAMPLE");
    if (env && strcmp(env, "1") == 0) {
        assert_int_equal(tu_write(SAMPLE, wr.data, wr.size), 0);
        // seeds for `make fuzz` (tools/fuzz.sh reads tests/corpus/forsaken/)
        fs_writer_t seed;
        fs_writer_init(&seed);
        make_all_events(&seed);
        assert_int_equal(tu_write("tests/corpus/forsaken/every_event.dmo", seed.data, seed.size), 0);
        fs_writer_free(&seed);
        fs_writer_init(&seed);
        make_extras(&seed);
        assert_int_equal(tu_write("tests/corpus/forsaken/beyond_spec.dmo", seed.data, seed.size), 0);
        fs_writer_free(&seed);
        assert_int_equal(tu_write("tests/corpus/forsaken/sample.dmo", wr.data, wr.size), 0);
    }
    size_t size = 0;
    uint8_t *data = tu_read(SAMPLE, &size);
    assert_non_null(data);
    // made by this code (the floats go through cos/sin, so compare what they decode to)
    assert_int_equal(size, wr.size);
    free(data);
    fs_writer_free(&wr);

    char cmd[512];
    int status = -1;
    snprintf(cmd, sizeof(cmd), "%s info --json %s", tu_bin(), SAMPLE);
    char *out = tu_run(cmd, &status);
    assert_non_null(out);
    assert_int_equal(status, 0);
    char s[256];
    long long v;
    double d;
    assert_int_equal(tu_json_str(out, "format", s, sizeof(s)), 0);
    assert_string_equal(s, "forsaken");
    assert_int_equal(tu_json_str(out, "map", s, sizeof(s)), 0);
    assert_string_equal(s, "ship");
    assert_int_equal(tu_json_int(out, "protocol", &v), 0);
    assert_int_equal(v, 0x0109);
    assert_int_equal(tu_json_int(out, "frames", &v), 0);
    assert_int_equal(v, SAMPLE_EVENTS);
    assert_int_equal(tu_json_num(out, "start_time", &d), 0);
    assert_true(d < 1e-5);
    assert_int_equal(tu_json_num(out, "end_time", &d), 0);
    assert_float_equal(d, 3.02, 1e-5);
    assert_int_equal(tu_json_int(out, "models", &v), 0);
    assert_int_equal(v, 0);
    assert_non_null(strstr(out, "\"players\":[\"Kaz\",\"Nubia\",\"Flygirl\"]"));
    assert_non_null(strstr(out, "\"errors\":[]"));
    free(out);

    // dump: a header line, then one line per event
    snprintf(cmd, sizeof(cmd), "%s dump %s", tu_bin(), SAMPLE);
    out = tu_run(cmd, &status);
    assert_non_null(out);
    assert_int_equal(status, 0);
    int lines = 0;
    for (char *p = out; *p; p++)
        if (*p == '\n')
            lines++;
    assert_int_equal(lines, 1 + SAMPLE_EVENTS);
    assert_non_null(strstr(out, "MSG_TITANBITS"));
    assert_non_null(strstr(out, "name=\"Flygirl\""));
    free(out);

    snprintf(cmd, sizeof(cmd), "%s dump --json %s", tu_bin(), SAMPLE);
    out = tu_run(cmd, &status);
    assert_non_null(out);
    assert_int_equal(status, 0);
    lines = 0;
    for (char *p = out; *p; p++)
        if (*p == '\n')
            lines++;
    assert_int_equal(lines, 1 + SAMPLE_EVENTS);
    assert_non_null(strstr(out, "\"type\":\"MSG_SHIPDIED\",\"code\":119,\"player\":1,\"killer\":2"));
    free(out);
}

// dump --json: JSON lines (driven in-process)
static void test_dump_json(void **state)
{
    (void)state;
    fs_writer_t wr;
    fs_writer_init(&wr);
    make_all_events(&wr);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    void *st = calloc(1, fs_decoder.state_size);
    world_t *w = world_create();
    dec_error_t err;
    dec_opts_t o = { .dump = f, .dump_json = 1 };
    assert_int_equal(fs_decoder.open(st, wr.data, wr.size, w, &o, &err), 0);
    while (fs_decoder.read_frame(st, w, &err) > 0)
        ;
    fclose(f);
    int lines = 0;
    for (char *p = text; *p; p++) {
        if (*p == '\n')
            lines++;
    }
    assert_int_equal(lines, 1 + N_EVENTS);
    for (char *line = text; *line; line = strchr(line, '\n') + 1) {
        assert_int_equal(line[0], '{');
        char *end = strchr(line, '\n');
        assert_int_equal(end[-1], '}');
    }
    assert_non_null(strstr(text, "{\"offset\":0,\"type\":\"header\",\"version\":265"));
    assert_non_null(strstr(text, "\"type\":\"MSG_NAME\",\"code\":127,\"player\":0,\"name\":\"alice\"}"));
    // skipped by its size, the warning on its line
    assert_non_null(strstr(text, "\"type\":\"unknown\",\"code\":66,\"skipped\":30,\"warning\":\"offset "));
    assert_non_null(strstr(text, ": expected a message code the game defines, found 0x42 (30 bytes skipped)\"}"));
    assert_non_null(strstr(text, "\"pos\":[100.5,-20.25,3000]"));
    free(text);
    free(st);
    world_free(w);
    fs_writer_free(&wr);
}

// ---- bad bytes ------------------------------------------------------------------

// Decode to the end or to an error; never more frames than bytes.
static int decode_all(const uint8_t *data, size_t size, dec_error_t *err)
{
    if (fs_decoder.probe(data, size) == 0 && size > 0) {
        // the engine would not pick this decoder; open must still be safe
    }
    run_t r;
    if (!g_world)
        g_world = world_create();
    int rc = run_open_in(&r, data, size, g_world);
    if (rc < 0) {
        *err = r.err;
        run_close(&r);
        return -1;
    }
    size_t frames = 0;
    while ((rc = fs_decoder.read_frame(r.st, r.w, &r.err)) > 0) {
        frames++;
        assert_true(frames <= size);
    }
    *err = r.err;
    if (rc < 0)
        assert_int_equal(fs_decoder.read_frame(r.st, r.w, &r.err), -1);   // errors are sticky
    run_close(&r);
    return rc;
}

static uint32_t rnd(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7fff;
}

static void fuzz_demo(void (*make)(fs_writer_t *))
{
    fs_writer_t wr;
    fs_writer_init(&wr);
    make(&wr);
    dec_error_t err;
    assert_int_equal(decode_all(wr.data, wr.size, &err), 0);
    uint8_t *buf = malloc(wr.size);
    assert_non_null(buf);
    int errors = 0;
    for (size_t n = 0; n < wr.size; n++) {
        memcpy(buf, wr.data, n);
        if (decode_all(buf, n, &err) < 0) {
            errors++;
            assert_non_null(strstr(err.what, "expected"));
            assert_true(err.offset >= 0 && (size_t)err.offset <= n);
        }
    }
    assert_true(errors > 0);
    // a truncated event names the size field and says so
    memcpy(buf, wr.data, wr.size - 5);
    assert_int_equal(decode_all(buf, wr.size - 5, &err), -1);
    assert_non_null(strstr(err.what, "truncated"));
    // every byte flipped, one at a time; and a few bit patterns
    static const uint8_t pats[] = { 0xff, 0x80, 0x01 };
    for (size_t k = 0; k < sizeof(pats); k++)
        for (size_t i = 0; i < wr.size; i++) {
            memcpy(buf, wr.data, wr.size);
            buf[i] ^= pats[k];
            if (decode_all(buf, wr.size, &err) < 0)
                assert_non_null(strstr(err.what, "expected"));
        }
    // hostile: the valid header, then events with sane headers and random payloads
    // starting with a message code of every kind
    static const uint8_t codes[] = { 0x11, 0x22, 0x66, 0x77, 0x88, 0x99, 0xbb, 0xff, 0x1f, 0x3f, 0x7f, 0xf4, 0xf5,
                                     0xf6, 0xfb, 0xfd, 0x55, 0xcc, 0xbe, 0xe5, 0xe6, 0xe8, 0xec, 0x42 };
    fs_header_t h;
    long hlen = fs_parse_header(wr.data, wr.size, &h, &err);
    assert_true(hlen > 0);
    uint32_t seed = 12345;
    for (int round = 0; round < 300; round++) {
        fs_writer_t hw;
        fs_writer_init(&hw);
        fs_write_header(&hw, &h);
        int events = 1 + (int)(rnd(&seed) % 40);
        for (int e = 0; e < events; e++) {
            uint8_t pay[256];
            size_t n = 1 + rnd(&seed) % 200;
            for (size_t i = 0; i < sizeof(pay); i++)
                pay[i] = (uint8_t)rnd(&seed);
            pay[0] = codes[rnd(&seed) % sizeof(codes)];
            if (n > 1)
                pay[1] = (uint8_t)(rnd(&seed) % 40);
            // grow a payload to its layout most of the time, so the decoding goes on
            uint64_t ticks = (uint64_t)rnd(&seed) << 8;
            uint32_t sender = rnd(&seed);
            size_t len = (rnd(&seed) & 3) && n < 190 ? n + 60 : n;
            fs_write_raw_event(&hw, ticks, sender, pay, len);
        }
        assert_false(hw.failed);
        size_t cut = rnd(&seed) % 20;
        if ((round & 1) && cut < hw.size - (size_t)hlen)
            hw.size -= cut;   // and cut short
        decode_all(hw.data, hw.size, &err);
        fs_writer_free(&hw);
    }
    free(buf);
    fs_writer_free(&wr);
}

static void test_truncated_and_corrupt(void **state)
{
    (void)state;
    fuzz_demo(make_all_events);
    fuzz_demo(make_extras);
}

static void test_too_short_payload(void **state)
{
    (void)state;
    // a spec message shorter than its layout, a player number out of range, an empty payload:
    // each skipped with a warning at its offset; the demo plays on (the name after them applies)
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h = header(0x010d, "arena");
    fs_write_header(&wr, &h);
    uint8_t p[5] = { FS_MSG_UPDATE, 0 };
    fs_write_raw_event(&wr, 1, 1, p, sizeof(p));
    fs_write_name(&wr, 2, 1, &(fs_name_t){ .player = 200, .name = "x" });
    fs_write_raw_event(&wr, 3, 1, NULL, 0);
    fs_write_name(&wr, 4, 1, &(fs_name_t){ .player = 3, .name = "after" });
    run_t r;
    assert_int_equal(run_open(&r, wr.data, wr.size), 0);
    int rc, frames = 0;
    while ((rc = fs_decoder.read_frame(r.st, r.w, &r.err)) > 0)
        frames++;
    assert_int_equal(rc, 0);
    assert_int_equal(frames, 4);
    assert_string_equal(r.w->players[3].name, "after");
    assert_int_equal(g_warn.n, 3);
    assert_string_equal(g_warn.what[0], "expected at least 68 bytes for MSG_UPDATE (code 0x11), found 5 (skipped)");
    assert_int_equal(g_warn.offset[0], 32 + 16);
    assert_string_equal(g_warn.what[1], "expected a player number 0..32 in MSG_NAME, found 200 (ignored)");
    assert_int_equal(g_warn.offset[1], 32 + 16 + 5 + 16 + 1);
    assert_string_equal(g_warn.what[2], "expected a message (at least its code byte), found an empty payload (skipped)");
    assert_int_equal(g_warn.offset[2], 32 + 16 + 5 + 16 + FS_SIZE_NAME + 16);
    const demo_info_t *in = fs_decoder.info(r.st);
    assert_int_equal(in->unknown_events, 2);   // the bad player number is a known message, decoded
    assert_int_equal(in->warnings, 3);
    run_close(&r);
    fs_writer_free(&wr);
}

// More pickups than slots: the extra ones are dropped, slots are reused after a kill.
static void test_many_pickups(void **state)
{
    (void)state;
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h = header(0x0109, "ship");
    fs_write_header(&wr, &h);
    for (int i = 0; i < 1100; i++) {
        fs_droppickup_t d = { .player = (uint8_t)(i % 3), .id = (uint16_t)i, .type = (int16_t)(i % 30),
                              .pos = { (float)i, 0, 0 } };
        fs_write_droppickup(&wr, (uint64_t)i, 1, &d);
    }
    for (int i = 0; i < 1100; i += 2)
        fs_write_killpickup(&wr, 2000, 1, &(fs_killpickup_t){ .owner = (int16_t)(i % 3), .id = (uint16_t)i });
    fs_write_droppickup(&wr, 3000, 1, &(fs_droppickup_t){ .player = 5, .id = 1, .type = 99, .pos = { -7, 0, 0 } });
    run_t r;
    assert_int_equal(run_open(&r, wr.data, wr.size), 0);
    int rc;
    while ((rc = fs_decoder.read_frame(r.st, r.w, &r.err)) > 0)
        ;
    assert_int_equal(rc, 0);
    int visible = 0;
    for (int n = 64; n < r.w->num_entities; n++)
        visible += world_entity_visible(r.w, n);
    assert_int_equal(visible, 1024 / 2 + 1);   // odd ids of the first 1024 and the new one
    int n = find_pickup(r.w, 99);
    assert_true(n >= 64);
    assert_float_equal(r.w->entities[n].cur.origin[0], -7, 0);
    run_close(&r);
    fs_writer_free(&wr);
}

static void test_invalid_version(void **state)
{
    (void)state;
    static const uint32_t bad[] = { 0x0108, 0x010e, 0, 0x01090000 };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        fs_writer_t wr;
        fs_writer_init(&wr);
        fs_header_t h = header(bad[i], "ship");
        fs_write_header(&wr, &h);
        fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "a" });
        assert_int_equal(fs_decoder.probe(wr.data, wr.size), 0);
        dec_error_t err;
        assert_int_equal(decode_all(wr.data, wr.size, &err), -1);
        assert_int_equal(err.offset, 0);
        assert_non_null(strstr(err.what, "expected a demo version 0x0109..0x010d"));
        if (i == 0) {
            const char *path = "build/fs_badversion.dmo";
            assert_int_equal(tu_write(path, wr.data, wr.size), 0);
            char cmd[512];
            int status = -1;
            snprintf(cmd, sizeof(cmd), "%s info --json %s 2>&1", tu_bin(), path);
            char *out = tu_run(cmd, &status);
            assert_non_null(out);
            assert_int_equal(status, 1);
            assert_non_null(strstr(out, "offset 0: expected"));
            free(out);
            remove(path);
        }
        fs_writer_free(&wr);
    }
    // every version of the range is accepted
    for (uint32_t v = FS_VERSION_MIN; v <= FS_VERSION_MAX; v++) {
        fs_writer_t wr;
        fs_writer_init(&wr);
        fs_header_t h = header(v, "ship");
        fs_write_header(&wr, &h);
        fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "a" });
        assert_true(fs_decoder.probe(wr.data, wr.size) >= 90);
        dec_error_t err;
        assert_int_equal(decode_all(wr.data, wr.size, &err), 0);
        fs_writer_free(&wr);
    }
    // no NUL after the level name
    uint8_t hdr[40];
    memset(hdr, 'a', sizeof(hdr));
    hdr[0] = 0x09;
    hdr[1] = 0x01;
    hdr[2] = hdr[3] = 0;
    assert_int_equal(fs_decoder.probe(hdr, sizeof(hdr)), 0);
    dec_error_t err;
    assert_int_equal(decode_all(hdr, sizeof(hdr), &err), -1);
    assert_non_null(strstr(err.what, "level name"));
}

// A whole file, gunzipped when it is gzip (.dm2.gz: the engine probes the inflated bytes).
static uint8_t *read_inflated(const char *path, size_t *size)
{
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    int got;
    while (buf && (got = gzread(gz, buf + n, (unsigned)(cap - n))) > 0) {
        n += (size_t)got;
        if (n == cap) {
            uint8_t *b = cap < (1u << 28) ? realloc(buf, cap * 2) : NULL;
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    gzclose(gz);
    *size = n;
    return buf;
}

// The probe never claims another game's demo.
static void test_probe_other_games(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const dirs[] = { "quake/demos", "quake2/demos", "goldsrc/demos", "goldsrc/demos/invalid" };
    int checked = 0;
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        const char *dir = tu_data(dirs[i]);
        DIR *dp = opendir(dir);
        if (!dp)
            continue;
        struct dirent *de;
        while ((de = readdir(dp)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
            struct stat sb;
            if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
                continue;
            size_t size = 0;
            uint8_t *data = read_inflated(path, &size);
            if (!data)
                continue;
            if (fs_decoder.probe(data, size) != 0)
                fail_msg("the Forsaken probe claims %s", path);
            free(data);
            checked++;
        }
        closedir(dp);
    }
    assert_true(checked > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_every_event),
        cmocka_unit_test(test_bytes_roundtrip),
        cmocka_unit_test(test_extra_messages),
        cmocka_unit_test(test_angles),
        cmocka_unit_test(test_sample_file),
        cmocka_unit_test(test_dump_json),
        cmocka_unit_test(test_truncated_and_corrupt),
        cmocka_unit_test(test_too_short_payload),
        cmocka_unit_test(test_many_pickups),
        cmocka_unit_test(test_invalid_version),
        cmocka_unit_test(test_probe_other_games),
    };
    int rc = cmocka_run_group_tests_name("forsaken", tests, NULL, NULL);
    world_free(g_world);
    return rc;
}
