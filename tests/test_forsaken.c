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
#include <unistd.h>
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

static void make_game_messages(fs_writer_t *wr);

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
        fs_writer_init(&seed);
        make_game_messages(&seed);
        assert_int_equal(tu_write("tests/corpus/forsaken/game_messages.dmo", seed.data, seed.size), 0);
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
    // no MSG_SHORTPICKUP list in it: the host's recording (only the host records; a joiner is sent one)
    assert_non_null(strstr(text, "\"recorder\":\"host\"}"));
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

// ---- the rest of the game's message codes ------------------------------------------

// One message of every code beyond the two tables above, as the game lays them out; the
// comments give the frame index. Player 0 (alice) and 1 (bob) and 2 (cid) have ships first.
enum { GM_EVENTS = 33 };

static size_t enc(const fs_event_t *ev, uint8_t *out, size_t cap)
{
    size_t n = fs_encode(ev, out, cap);
    assert_true(n > 0);
    return n;
}

static void make_game_messages(fs_writer_t *wr)
{
    fs_header_t h = header(0x010d, "ship");
    fs_write_header(wr, &h);
    fs_write_name(wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });                          // 0
    fs_ship_t s0 = ship(0, 100, 0, 0, 0, 0, 0, 0);
    fs_write_ship(wr, fs_ticks(0.10), 1, FS_MSG_FUPDATE, &s0);                                      // 1
    fs_ship_t s1 = ship(1, 0, 0, 0, 0, 90, 0, 0);
    fs_write_ship(wr, fs_ticks(0.20), 7, FS_MSG_FUPDATE, &s1);                                      // 2
    fs_ship_t s2 = ship(2, -300, 0, 0, 0, 0, 0, 0);
    fs_write_ship(wr, fs_ticks(0.30), 9, FS_MSG_FUPDATE, &s2);                                      // 3
    fs_event_t e;
    memset(&e, 0, sizeof e);
    e.type = FS_MSG_INIT;
    e.timestamp = fs_ticks(0.40);
    e.sender = 7;
    e.u.init = (fs_init_t){ .player = 1, .you_are = 2, .status = 4, .packets_per_second = 5, .level = "ship",
                            .pickup_flags = { 0xfffff, 3 }, .goal_score = 5, .bounty_interval = 10, .random_pickups = 1,
                            .seed1 = 11, .seed2 = 22, .user3 = 0x300, .primary_pickups = 1, .from_dpid = 77 };
    for (int i = 0; i < FS_MAX_PLAYERS; i++)
        e.u.init.team[i] = 255;
    e.u.init.team[0] = 1;
    e.u.init.team[1] = 2;
    e.u.init.ready[1] = 1;
    e.u.init.game_status[1] = 4;
    fs_write_event(wr, &e);                                                                          // 4
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_SHORTPICKUP;
    e.timestamp = fs_ticks(0.50);
    e.u.list.player = 1;
    e.u.list.count = 2;
    e.u.list.batch = 7;
    e.u.list.e.pickups[0] = (fs_pickupinfo_t){ .type = 5, .group = 1, .owner = 0xffff, .id = 1, .pos = { 100, 0, 0 },
                                               .regen_slot = 3, .life_count = 1 };
    e.u.list.e.pickups[1] = (fs_pickupinfo_t){ .type = 6, .group = 2, .owner = 1, .id = 2, .pos = { 200, 0, 0 },
                                               .speed = 2.5f, .sparkle = 1 };
    e.u.list.e.pickups[2].type = 99;   // past the count: not a pickup
    fs_write_event(wr, &e);                                                                          // 5
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_SHORTMINE;
    e.timestamp = fs_ticks(0.60);
    e.u.list.player = 1;
    e.u.list.count = 1;
    e.u.list.e.mines[0].owner_type = 1;
    e.u.list.e.mines[0].owner = 1;
    e.u.list.e.mines[0].bullet_id = 40;
    e.u.list.e.mines[0].pos[1] = 55;
    e.u.list.e.mines[0].dir[2] = 1;
    e.u.list.e.mines[0].weapon = 3;
    e.u.list.e.mines[0].life_count = 300;
    fs_write_event(wr, &e);                                                                          // 6
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_SHORTREGENSLOT;
    e.timestamp = fs_ticks(0.70);
    e.u.list.player = 1;
    e.u.list.count = 1;
    e.u.list.e.slots[0].gen_delay = 600;
    e.u.list.e.slots[0].pos[0] = -8;
    e.u.list.e.slots[0].type = 12;
    e.u.list.e.slots[0].pickup_id = 9;
    fs_write_event(wr, &e);                                                                          // 7
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_SHORTTRIGGER;
    e.timestamp = fs_ticks(0.80);
    e.u.list.player = 1;
    e.u.list.count = 3;
    e.u.list.e.states[0] = 1;
    e.u.list.e.states[2] = 1;
    fs_write_event(wr, &e);                                                                          // 8
    e.type = FS_MSG_SHORTTRIGVAR;
    e.timestamp = fs_ticks(0.90);
    e.u.list.count = 2;
    e.u.list.e.states[1] = -5;
    fs_write_event(wr, &e);                                                                          // 9
    // bob's ship moves from (0 0 0) at 1.0 s to (1000 0 0) at 2.0 s
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_INTERPOLATE;
    e.timestamp = fs_ticks(1.00);
    e.u.interp = (fs_interp_t){ .player = 1, .pos = { 1000, 0, 0 }, .bank = 0, .next_time = fs_ticks(2.00) };
    float a90[3] = { 0, 90, 0 };
    fs_angles_to_quat(a90, e.u.interp.quat);
    fs_write_event(wr, &e);                                                                          // 10
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_BOMB;
    e.timestamp = fs_ticks(1.50);
    e.u.small = (fs_small_t){ .player = 1, .a = 0, .b = 2, .f = 30 };
    fs_write_event(wr, &e);                                                                          // 11
    e.type = FS_MSG_PINGREQUEST;
    e.timestamp = fs_ticks(1.60);
    e.u.small = (fs_small_t){ .player = 1, .time = 123456789 };
    fs_write_event(wr, &e);                                                                          // 12
    e.type = FS_MSG_PINGREPLY;
    e.timestamp = fs_ticks(1.70);
    e.u.small = (fs_small_t){ .player = 2, .a = 1, .time = 123456789 };
    fs_write_event(wr, &e);                                                                          // 13
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_LONGSTATUS;
    e.timestamp = fs_ticks(1.80);
    e.u.lstatus.player = 1;
    e.u.lstatus.status = (fs_status_t){ .player = 1, .is_host = 1, .status = 4, .team = 3, .packets_per_second = 5,
                                        .has_checksum = 1, .level_checksum = 0xabcdef };
    snprintf(e.u.lstatus.level, sizeof e.u.lstatus.level, "ship");
    e.u.lstatus.start_pos_modify = 6;
    fs_write_event(wr, &e);                                                                          // 14
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_SETTIME;
    e.timestamp = fs_ticks(1.90);
    e.u.small = (fs_small_t){ .player = 1, .f = 1800 };
    fs_write_event(wr, &e);                                                                          // 15
    e.type = FS_MSG_REQTIME;
    e.timestamp = fs_ticks(2.00);
    e.u.player = 2;
    fs_write_event(wr, &e);                                                                          // 16 (bob at the end)
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_ACKMSG;
    e.timestamp = fs_ticks(2.10);
    e.u.small = (fs_small_t){ .player = 2, .id = 4242, .a = 1 };
    fs_write_event(wr, &e);                                                                          // 17
    // a guaranteed pickup drop: the wrapped message is decoded as if received
    uint8_t in[FS_SIZE_INIT], out[1100];
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_DROPPICKUP;
    e.u.drop = (fs_droppickup_t){ .player = 2, .id = 70, .type = 30, .pos = { 7, 8, 9 } };
    size_t n = enc(&e, in, sizeof in);
    fs_guaranteed_t g = { .player = 2, .ack = 0x3, .id = 99, .all_players = 1, .count = 1 };
    size_t gn = fs_encode_guaranteed(&g, in, n, out, sizeof out);
    assert_int_equal(gn, 23 + FS_SIZE_DROPPICKUP);
    fs_write_raw_event(wr, fs_ticks(2.20), 9, out, gn);                                             // 18
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_ALIVE;
    e.timestamp = fs_ticks(2.30);
    e.u.player = 2;
    fs_write_event(wr, &e);                                                                          // 19
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_VERYSHORTINTERPOLATE;
    e.timestamp = fs_ticks(2.40);
    e.u.interp = (fs_interp_t){ .player = 0, .pos = { 100, 50, 0 }, .quat = { 1, 0, 0, 0 }, .bank = 15,
                                .next_time = fs_ticks(2.50) };
    fs_write_event(wr, &e);                                                                          // 20
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_YOUQUIT;
    e.timestamp = fs_ticks(2.60);
    e.u.small = (fs_small_t){ .player = 1, .a = 2 };
    fs_write_event(wr, &e);                                                                          // 21: cid leaves
    // a big packet: dave's ship, and his name guaranteed
    uint8_t m1[128], m2[64], g2[128], big[512];
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_FUPDATE;
    e.u.ship = ship(3, 640, -64, 32, 0, 0, 0, 0);
    size_t n1 = enc(&e, m1, sizeof m1);
    e.type = FS_MSG_NAME;
    memset(&e.u, 0, sizeof e.u);
    e.u.name = (fs_name_t){ .player = 3, .name = "dave" };
    size_t n2 = enc(&e, m2, sizeof m2);
    fs_guaranteed_t g3 = { .player = 3, .ack = 1, .id = 5 };
    size_t gn2 = fs_encode_guaranteed(&g3, m2, n2, g2, sizeof g2);
    const uint8_t *msgs[2] = { m1, g2 };
    size_t lens[2] = { n1, gn2 };
    float lags[2] = { 1.5f, 0 };
    size_t bn = fs_encode_bigpacket(3, msgs, lens, lags, 2, big, sizeof big);
    assert_int_equal(bn, 2 + n1 + 4 + gn2 + 4 + 1);
    fs_write_raw_event(wr, fs_ticks(2.70), 11, big, bn);                                            // 22
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_TRACKERINFO;
    e.timestamp = fs_ticks(2.80);
    e.u.tracker = (fs_tracker_t){ .player = 1, .addr = 0x0100007f, .port = 2300, .freq = 60, .type = 1 };
    fs_write_event(wr, &e);                                                                          // 23
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_SERVERUPDATE;
    e.timestamp = fs_ticks(2.90);
    e.u.supdate.player = 32;
    e.u.supdate.players = 0xb;
    e.u.supdate.group[3] = 4;
    e.u.supdate.status[3] = 4;
    fs_write_event(wr, &e);                                                                          // 24
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_GAMEPARAMETERS;
    e.timestamp = fs_ticks(3.00);
    e.u.params = (fs_gameparams_t){ .player = 1, .level = "ship", .score_limit = 4, .time_limit = 2,
                                    .game_info = 0x201, .allowed = { 7, 1 }, .primary_pickups = 2, .max_players = 8 };
    fs_write_event(wr, &e);                                                                          // 25
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_TOSERVER;
    e.timestamp = fs_ticks(3.10);
    e.u.small = (fs_small_t){ .player = 1, .a = 2, .b = 5 };
    fs_write_event(wr, &e);                                                                          // 26
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_LEVELNAMES;
    e.timestamp = fs_ticks(3.20);
    e.u.levels = (fs_levelnames_t){ .player = 32, .total = 10, .batch = 2, .first = 8 };
    snprintf(e.u.levels.names[0], 9, "ship");
    snprintf(e.u.levels.names[1], 9, "midpand");
    fs_write_event(wr, &e);                                                                          // 27
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_TOCLIENT;
    e.timestamp = fs_ticks(3.30);
    e.u.small = (fs_small_t){ .player = 32, .a = 0, .b = 1 };
    fs_write_event(wr, &e);                                                                          // 28
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_VERYSHORTDROPPICKUP;
    e.timestamp = fs_ticks(3.40);
    e.u.vsdrop = (fs_droppickup_t){ .player = 1, .id = 12, .type = 9, .group = 3, .regen_slot = 2, .sparkle = 1,
                                    .pos = { -64, 32, 16 }, .dir = { 0, 1, 0 }, .speed = 4, .life_count = 900,
                                    .trigger_mod = 65535 };
    fs_write_event(wr, &e);                                                                          // 29
    // STATUSMSG-less LONGSTATUS of an older game (68 bytes: no level checksum)
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_LONGSTATUS;
    e.timestamp = fs_ticks(3.50);
    e.u.lstatus.player = 0;
    e.u.lstatus.status = (fs_status_t){ .player = 0, .status = 4, .team = 0 };
    snprintf(e.u.lstatus.level, sizeof e.u.lstatus.level, "ship");
    fs_write_event(wr, &e);                                                                          // 30
    fs_write_name(wr, fs_ticks(3.60), 1, &(fs_name_t){ .player = 1, .name = "bob" });              // 31
    fs_write_name(wr, fs_ticks(3.70), 1, &(fs_name_t){ .player = 2, .name = "cid" });              // 32 (back)
    assert_false(wr->failed);
}

static char *dump_text(const uint8_t *data, size_t size, int json)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    void *st = calloc(1, fs_decoder.state_size);
    world_t *w = world_create();
    dec_error_t err;
    dec_opts_t o = { .dump = f, .dump_json = json };
    assert_int_equal(fs_decoder.open(st, data, size, w, &o, &err), 0);
    while (fs_decoder.read_frame(st, w, &err) > 0)
        ;
    fclose(f);
    free(st);
    world_free(w);
    return text;
}

// The line of `dump` whose message is `name` (the nth such), or fail.
static const char *dump_line(const char *text, const char *name, int nth, char *out, size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, " %s ", name);
    const char *p = text;
    while ((p = strstr(p, key)) != NULL) {
        if (nth-- == 0) {
            const char *b = p;
            while (b > text && b[-1] != '\n')
                b--;
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - b) : strlen(b);
            if (n >= cap)
                n = cap - 1;
            memcpy(out, b, n);
            out[n] = 0;
            return out;
        }
        p++;
    }
    fail_msg("no %s line in the dump", name);
    return NULL;
}

static void expect_fields(const char *text, const char *name, int nth, const char *const *fields)
{
    char line[8192];
    dump_line(text, name, nth, line, sizeof line);
    for (int i = 0; fields[i]; i++)
        if (!strstr(line, fields[i]))
            fail_msg("%s: no \"%s\" in: %s", name, fields[i], line);
    if (strstr(line, "warning=") || strstr(line, "layout="))
        fail_msg("%s: %s", name, line);
}

// (a) every code named in `dump` with its fields; `info` counts no unknown event
static void test_game_messages_dump(void **state)
{
    (void)state;
    fs_writer_t wr;
    fs_writer_init(&wr);
    make_game_messages(&wr);
    char *text = dump_text(wr.data, wr.size, 0);
#define F(...) ((const char *const[]){ __VA_ARGS__, NULL })
    expect_fields(text, "MSG_INIT", 0, F("size=268", "player=1", "you_are=2", "status=4", "teams=(1 2 255 ",
                                          "level=\"ship\"", "pickup_flags=0x3000fffff", "seed1=11", "seed2=22",
                                          "goal_score=5", "bounty_interval=10", "from_dpid=77", "user3=0x300",
                                          "game_status=(0 4 0"));
    expect_fields(text, "MSG_SHORTPICKUP", 0, F("size=264", "count=2", "batch=7", "p0_type=5", "p0_owner=65535",
                                                 "p0_pos=(100 0 0)", "p0_regen_slot=3", "p1_type=6", "p1_owner=1",
                                                 "p1_id=2", "p1_speed=2.5", "p1_sparkle=1"));
    expect_fields(text, "MSG_SHORTMINE", 0, F("size=232", "count=1", "p0_owner=1", "p0_bullet_id=40",
                                               "p0_pos=(0 55 0)", "p0_weapon=3", "p0_life_count=300"));
    expect_fields(text, "MSG_SHORTREGENSLOT", 0, F("size=244", "count=1", "p0_gen_delay=600", "p0_pos=(-8 0 0)",
                                                    "p0_type=12", "p0_pickup_id=9"));
    expect_fields(text, "MSG_SHORTTRIGGER", 0, F("size=244", "count=3", "active=(1 0 1)"));
    expect_fields(text, "MSG_SHORTTRIGVAR", 0, F("size=244", "count=2", "states=(1 -5)"));
    expect_fields(text, "MSG_INTERPOLATE", 0, F("size=48", "player=1", "next_pos=(1000 0 0)", "next_angles=(0 90 0)",
                                                 "next_time=2"));
    expect_fields(text, "MSG_BOMB", 0, F("size=8", "who_got_hit=0", "bomb=2", "bomb_time=30"));
    expect_fields(text, "MSG_PINGREQUEST", 0, F("size=16", "ping_ticks=123456789"));
    expect_fields(text, "MSG_PINGREPLY", 0, F("size=16", "to_you=1", "ping_ticks=123456789"));
    expect_fields(text, "MSG_LONGSTATUS", 0, F("size=88", "status_player=1", "team=3", "level_checksum=0xabcdef",
                                                "level=\"ship\"", "start_pos_modify=6"));
    expect_fields(text, "MSG_LONGSTATUS", 1, F("size=68", "status_player=0", "level=\"ship\""));
    expect_fields(text, "MSG_SETTIME", 0, F("size=8", "countdown=1800"));
    expect_fields(text, "MSG_REQTIME", 0, F("size=2", "player=2"));
    expect_fields(text, "MSG_ACKMSG", 0, F("size=12", "id=4242", "ack_to=1"));
    expect_fields(text, "MSG_GUARANTEEDMSG", 0, F("size=79", "ack=0x3", "id=99", "all_players=1", "count=1",
                                                   "message=\"MSG_DROPPICKUP\""));
    expect_fields(text, "MSG_DROPPICKUP", 0, F("> MSG_DROPPICKUP", "depth=1", "pickup_type=30", "pos=(7 8 9)"));
    expect_fields(text, "MSG_ALIVE", 0, F("size=2", "player=2"));
    expect_fields(text, "MSG_VERYSHORTINTERPOLATE", 0, F("size=32", "player=0", "next_pos=(100 50 0)", "next_bank=15"));
    expect_fields(text, "MSG_YOUQUIT", 0, F("size=3", "player=1", "you=2"));
    expect_fields(text, "MSG_BIGPACKET", 0, F("player=3"));
    expect_fields(text, "MSG_FUPDATE", 3, F("> MSG_FUPDATE", "depth=1", "framelag=1.5", "player=3", "pos=(640 -64 32)"));
    expect_fields(text, "MSG_GUARANTEEDMSG", 1, F("> MSG_GUARANTEEDMSG", "depth=1", "framelag=0", "message=\"MSG_NAME\""));
    expect_fields(text, "MSG_NAME", 1, F("> MSG_NAME", "depth=2", "player=3", "name=\"dave\""));
    expect_fields(text, "MSG_TRACKERINFO", 0, F("size=28", "addr=0x100007f", "port=2300", "freq=60", "heartbeat_type=1"));
    expect_fields(text, "MSG_SERVERUPDATE", 0, F("size=72", "players=0xb", "groups=(0 0 0 4 ", "game_status=(0 0 0 4 "));
    expect_fields(text, "MSG_GAMEPARAMETERS", 0, F("size=28", "level=\"ship\"", "score_limit=4", "time_limit=2",
                                                    "game_info=0x201", "allowed_pickups=0x100000007", "max_players=8"));
    expect_fields(text, "MSG_TOSERVER", 0, F("size=4", "request=2", "data=5"));
    expect_fields(text, "MSG_LEVELNAMES", 0, F("size=69", "total=10", "batch=2", "first=8", "level0=\"ship\"",
                                                "level1=\"midpand\""));
    expect_fields(text, "MSG_TOCLIENT", 0, F("size=4", "request=0", "data=1"));
    expect_fields(text, "MSG_VERYSHORTDROPPICKUP", 0, F("size=36", "id=12", "pickup_type=9", "group=3", "regen_slot=2",
                                                         "pos=(-64 32 16)", "dir=(0 1 0)", "speed=4", "life_count=900"));
#undef F
    assert_null(strstr(text, "unknown"));
    assert_null(strstr(text, "warning"));
    int lines = 0;
    for (char *p = text; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + GM_EVENTS + 1 + 3);   // the header, the events, the guaranteed's and big packet's
    free(text);
    text = dump_text(wr.data, wr.size, 1);
    assert_non_null(strstr(text, "\"type\":\"MSG_SHORTPICKUP\",\"code\":238,\"player\":1,\"count\":2,\"batch\":7,\"p0_type\":5"));
    assert_non_null(strstr(text, "\"type\":\"MSG_NAME\",\"code\":127,\"depth\":2,\"player\":3,\"name\":\"dave\"}"));
    free(text);

    // the command line: info counts 0 unknown events, 0 warnings
    char path[64], cmd[512];
    snprintf(path, sizeof path, "/tmp/demoplay_fs_msgs_%d.dmo", (int)getpid());
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    int status = -1;
    snprintf(cmd, sizeof cmd, "%s info %s 2>&1", tu_bin(), path);
    char *out = tu_run(cmd, &status);
    assert_non_null(out);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "unknown events: 0\n"));
    assert_null(strstr(out, "warning"));
    free(out);
    snprintf(cmd, sizeof cmd, "%s info --json %s", tu_bin(), path);
    out = tu_run(cmd, &status);
    assert_non_null(out);
    long long v;
    assert_int_equal(tu_json_int(out, "unknown_events", &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(tu_json_int(out, "frames", &v), 0);
    assert_int_equal(v, GM_EVENTS);
    free(out);
    remove(path);
    fs_writer_free(&wr);
}

// (b) what they change in the world
// MSG_STATUS (and MSG_LONGSTATUS's) status STATUS_Left / STATUS_LeftCrashed: the game counts
// the player out (STATUS_VALID_PLAYER); their ship goes until an update brings one back.
static void test_status_left(void **state)
{
    (void)state;
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h = header(0x010d, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    fs_write_name(&wr, 1, 7, &(fs_name_t){ .player = 1, .name = "bob" });
    fs_ship_t s0 = ship(0, 100, 0, 0, 0, 0, 0, 0), s1 = ship(1, 0, 0, 0, 0, 90, 0, 0);
    fs_write_ship(&wr, fs_ticks(0.10), 1, FS_MSG_FUPDATE, &s0);
    fs_write_ship(&wr, fs_ticks(0.20), 7, FS_MSG_FUPDATE, &s1);
    fs_write_status(&wr, fs_ticks(0.30), 7, &(fs_status_t){ .player = 1, .status = 10, .team = 2 });      // Normal
    fs_write_status(&wr, fs_ticks(0.40), 7, &(fs_status_t){ .player = 1, .status = FS_STATUS_LEFT });
    fs_write_ship(&wr, fs_ticks(0.50), 1, FS_MSG_FUPDATE, &s0);
    fs_write_ship(&wr, fs_ticks(0.60), 7, FS_MSG_FUPDATE, &s1);                                          // back
    fs_write_status(&wr, fs_ticks(0.70), 7, &(fs_status_t){ .player = 1, .status = FS_STATUS_LEFT_CRASHED });
    assert_false(wr.failed);
    run_t r;
    assert_int_equal(run_open(&r, wr.data, wr.size), 0);
    world_t *w = r.w;
    for (int i = 0; i < 9; i++) {
        int rc = fs_decoder.read_frame(r.st, w, &r.err);
        if (rc != 1)
            fail_msg("event %d: %d %s", i, rc, r.err.what);
        if (i == 4) {   // Normal: bob plays, in team 2
            assert_true(w->players[1].active);
            assert_int_equal(w->players[1].team, 2);
            assert_true(world_entity_visible(w, 2));
        }
        if (i == 5 || i == 6) {   // Left: gone, alice stays
            assert_false(w->players[1].active);
            assert_false(world_entity_visible(w, 2));
            assert_true(world_entity_visible(w, 1));
        }
        if (i == 7)   // an update brings his ship back
            assert_true(world_entity_visible(w, 2));
        if (i == 8) {   // LeftCrashed: gone again
            assert_false(w->players[1].active);
            assert_false(world_entity_visible(w, 2));
        }
    }
    run_close(&r);
    fs_writer_free(&wr);
}

static void test_game_messages_world(void **state)
{
    (void)state;
    fs_writer_t wr;
    fs_writer_init(&wr);
    make_game_messages(&wr);
    run_t r;
    assert_int_equal(run_open(&r, wr.data, wr.size), 0);
    world_t *w = r.w;
    const world_event_t *ev;
    int n;
    for (int i = 0; i < GM_EVENTS; i++) {
        int rc = fs_decoder.read_frame(r.st, w, &r.err);
        if (rc != 1)
            fail_msg("frame %d: %d %s", i, rc, r.err.what);
        switch (i) {
        case 3:
            assert_true(world_entity_visible(w, 3));
            assert_int_equal(w->players[0].team, -1);
            break;
        case 4:   // MSG_INIT: the host's teams
            assert_int_equal(w->players[0].team, 1);
            assert_int_equal(w->players[1].team, 2);
            assert_int_equal(w->players[2].team, -1);   // 255: none
            break;
        case 5:   // MSG_SHORTPICKUP: the two valid entries are pickups where they lie
            n = find_pickup(w, 5);
            assert_true(n >= FSW_PICKUP_ENT0);
            assert_float_equal(w->entities[n].cur.origin[0], 100, 0);
            n = find_pickup(w, 6);
            assert_true(n >= FSW_PICKUP_ENT0);
            assert_float_equal(w->entities[n].cur.origin[0], 200, 0);
            assert_int_equal(find_pickup(w, 99), -1);
            break;
        case 6:   // MSG_SHORTMINE: a mine in the level, as a laid mine's FX
            ev = find_event(w, EV_TEMPENT, 0);
            assert_non_null(ev);
            assert_int_equal(ev->u.fx.raw_type, FS_MSG_SHORTMINE);
            assert_int_equal(ev->u.fx.kind, FX_GENERIC);
            assert_int_equal(ev->u.fx.entity, 2);
            assert_float_equal(ev->u.fx.origin[1], 55, 0);
            assert_int_equal(ev->u.fx.args[0], 3);
            assert_int_equal(ev->u.fx.args[2], 40);
            assert_int_equal(ev->u.fx.args[FSW_FX_ARG_LIFE], 300);   // RegenMineList: its LifeCount goes on from 300
            assert_true(find_pickup(w, 5) > 0);   // pickups stay
            break;
        case 10:   // MSG_INTERPOLATE at 1.0 s: bob still where his update put him
            assert_float_equal(w->entities[2].cur.origin[0], 0, 1e-4);
            break;
        case 11:   // 1.5 s: half-way to (1000 0 0)
            assert_float_equal(w->entities[2].cur.origin[0], 500, 0.01);
            assert_angle(w->entities[2].cur.angles[1], 90, 0.05f);
            assert_true(world_entity_visible(w, 2));
            break;
        case 14:   // MSG_LONGSTATUS: bob's team
            assert_int_equal(w->players[1].team, 3);
            assert_float_equal(w->entities[2].cur.origin[0], 800, 0.01);
            break;
        case 16:   // 2.0 s: there, and stays
            assert_float_equal(w->entities[2].cur.origin[0], 1000, 1e-3);
            break;
        case 18:   // the guaranteed drop
            n = find_pickup(w, 30);
            assert_true(n >= FSW_PICKUP_ENT0);
            assert_float_equal(w->entities[n].cur.origin[2], 9, 0);
            assert_float_equal(w->entities[2].cur.origin[0], 1000, 1e-3);
            break;
        case 20:   // VERYSHORTINTERPOLATE for alice: from (100 0 0) at 2.4 s to (100 50 0) at 2.5 s
            assert_float_equal(w->entities[1].cur.origin[1], 0, 1e-4);
            break;
        case 21:   // 2.6 s: alice arrived, banked 15; MSG_YOUQUIT: cid is gone
            assert_float_equal(w->entities[1].cur.origin[1], 50, 1e-3);
            assert_angle(w->entities[1].cur.angles[2], 15, 0.05f);
            assert_angle(w->view.angles[2], 15, 0.05f);   // the view follows alice's ship
            assert_false(w->players[2].active);
            assert_false(world_entity_visible(w, 3));
            assert_true(world_entity_visible(w, 2));
            break;
        case 22:   // the big packet: dave's ship and his (guaranteed) name
            assert_true(world_entity_visible(w, 4));
            assert_float_equal(w->entities[4].cur.origin[0], 640, 0);
            assert_string_equal(w->players[3].name, "dave");
            assert_true(w->players[3].active);
            assert_false(world_entity_visible(w, 3));
            break;
        case 29: {   // MSG_VERYSHORTDROPPICKUP: a pickup where it says
            n = find_pickup(w, 9);
            assert_true(n >= FSW_PICKUP_ENT0);
            assert_float_equal(w->entities[n].cur.origin[0], -64, 0);
            assert_float_equal(w->entities[n].cur.origin[1], 32, 0);
            assert_float_equal(w->entities[n].cur.origin[2], 16, 0);
            assert_int_equal(w->entities[n].cur.effects, EF_ROTATE);
            break;
        }
        case 30:
            assert_int_equal(w->players[0].team, 0);
            break;
        case 32:
            assert_true(w->players[2].active);   // a name: cid is back (his ship is not: no update since)
            assert_false(world_entity_visible(w, 3));
            break;
        default:
            break;
        }
    }
    assert_int_equal(fs_decoder.read_frame(r.st, w, &r.err), 0);
    const demo_info_t *in = fs_decoder.info(r.st);
    assert_int_equal(in->unknown_events, 0);
    assert_int_equal(in->warnings, 0);
    assert_int_equal(g_warn.n, 0);
    run_close(&r);
    fs_writer_free(&wr);
}

// (c) a message shorter than its layout, a truncated or hostile container: a warning with
// its offset, and the demo plays on
static void test_game_messages_odd(void **state)
{
    (void)state;
    static const uint8_t codes[] = { FS_MSG_INIT, FS_MSG_SHORTPICKUP, FS_MSG_SHORTMINE, FS_MSG_SHORTREGENSLOT,
                                     FS_MSG_SHORTTRIGGER, FS_MSG_SHORTTRIGVAR, FS_MSG_INTERPOLATE, FS_MSG_BOMB,
                                     FS_MSG_PINGREQUEST, FS_MSG_PINGREPLY, FS_MSG_LONGSTATUS, FS_MSG_SETTIME,
                                     FS_MSG_REQTIME, FS_MSG_ACKMSG, FS_MSG_GUARANTEEDMSG, FS_MSG_ALIVE,
                                     FS_MSG_VERYSHORTINTERPOLATE, FS_MSG_YOUQUIT, FS_MSG_BIGPACKET, FS_MSG_TRACKERINFO,
                                     FS_MSG_SERVERUPDATE, FS_MSG_GAMEPARAMETERS, FS_MSG_TOSERVER, FS_MSG_LEVELNAMES,
                                     FS_MSG_TOCLIENT, FS_MSG_VERYSHORTDROPPICKUP };
    enum { NC = sizeof codes };
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h = header(0x010d, "ship");
    fs_write_header(&wr, &h);
    size_t at[NC];
    uint8_t pay[400];
    for (int i = 0; i < NC; i++) {
        memset(pay, 0, sizeof pay);
        pay[0] = codes[i];
        pay[1] = 1;
        at[i] = wr.size + 16;
        fs_write_raw_event(&wr, (uint64_t)i + 1, 1, pay, fs_msg_min_size(codes[i]) - 1);
    }
    fs_write_name(&wr, 100, 1, &(fs_name_t){ .player = 1, .name = "after" });
    run_t r;
    assert_int_equal(run_open(&r, wr.data, wr.size), 0);
    int rc, frames = 0;
    while ((rc = fs_decoder.read_frame(r.st, r.w, &r.err)) > 0)
        frames++;
    assert_int_equal(rc, 0);
    assert_int_equal(frames, NC + 1);
    assert_string_equal(r.w->players[1].name, "after");
    assert_int_equal(g_warn.n, NC);
    for (int i = 0; i < NC; i++) {
        char want[240];
        snprintf(want, sizeof want, "expected at least %zu bytes for %s (code 0x%02x), found %zu (skipped)",
                 fs_msg_min_size(codes[i]), fs_msg_name(codes[i]), codes[i], fs_msg_min_size(codes[i]) - 1);
        assert_string_equal(g_warn.what[i], want);
        assert_int_equal(g_warn.offset[i], (long long)at[i]);
    }
    assert_int_equal(fs_decoder.info(r.st)->unknown_events, NC);
    run_close(&r);
    fs_writer_free(&wr);

    // containers cut short or hostile, each followed by a name that still applies
    fs_writer_init(&wr);
    fs_write_header(&wr, &h);
    fs_event_t e;
    memset(&e, 0, sizeof e);
    uint8_t m1[128], m2[200], g1[300], big[700];
    e.type = FS_MSG_VERYSHORTDROPPICKUP;
    e.u.vsdrop = (fs_droppickup_t){ .player = 1, .id = 1, .type = 41, .pos = { 1, 2, 3 } };
    size_t n1 = enc(&e, m1, sizeof m1);
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_TEXTMSG;
    e.u.text = (fs_text_t){ .player = 1, .text = "hi", .type = 0 };
    size_t n2 = enc(&e, m2, sizeof m2);
    const uint8_t *msgs[2] = { m1, m2 };
    size_t lens[2] = { n1, n2 };
    size_t bn = fs_encode_bigpacket(1, msgs, lens, NULL, 2, big, sizeof big);
    size_t ev_at[8];
    // 0: the second message cut: the first applies
    ev_at[0] = wr.size + 16;
    fs_write_raw_event(&wr, 1, 1, big, 2 + n1 + 4 + 50);
    // 1: no 0 at the end
    ev_at[1] = wr.size + 16;
    fs_write_raw_event(&wr, 2, 1, big, bn - 1);
    // 2: a code the game has no size for inside
    memcpy(pay, big, 2);
    pay[2] = 0x42;
    ev_at[2] = wr.size + 16;
    fs_write_raw_event(&wr, 3, 1, pay, 40);
    // 3: a frame lag out of the game's 0..300
    float bad_lag[2] = { 1000, 0 };
    bn = fs_encode_bigpacket(1, msgs, lens, bad_lag, 2, big, sizeof big);
    ev_at[3] = wr.size + 16;
    fs_write_raw_event(&wr, 4, 1, big, bn);
    // 4: a guaranteed message whose text is cut: that message is skipped by its size
    fs_guaranteed_t g = { .player = 1 };
    size_t gn = fs_encode_guaranteed(&g, m2, n2, g1, sizeof g1);
    ev_at[4] = wr.size + 16;
    fs_write_raw_event(&wr, 5, 1, g1, gn - 40);
    // 5: a SHORTPICKUP claiming 200 entries: the 5 there are
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_SHORTPICKUP;
    e.u.list.count = 200;
    for (int i = 0; i < FS_GEN_PICKUPS; i++)
        e.u.list.e.pickups[i] = (fs_pickupinfo_t){ .type = (int16_t)(50 + i), .owner = 1, .id = (uint16_t)(100 + i) };
    ev_at[5] = wr.size + 16;
    fs_write_event(&wr, &e);
    // 6: an interpolation for player 99, a quit for player 77
    memset(&e.u, 0, sizeof e.u);
    e.type = FS_MSG_INTERPOLATE;
    e.u.interp.player = 99;
    ev_at[6] = wr.size + 16;
    fs_write_event(&wr, &e);
    e.type = FS_MSG_YOUQUIT;
    e.u.small = (fs_small_t){ .player = 1, .a = 77 };
    ev_at[7] = wr.size + 16;
    fs_write_event(&wr, &e);
    // 8: guaranteed messages nested 6 deep around a drop: read to depth 4
    uint8_t nest[2][400];
    size_t nn = n1;
    memcpy(nest[0], m1, n1);
    for (int d = 0; d < 6; d++) {
        nn = fs_encode_guaranteed(&g, nest[d & 1], nn, nest[(d + 1) & 1], sizeof nest[0]);
        assert_true(nn > 0);
    }
    size_t nest_at = wr.size + 16;
    fs_write_raw_event(&wr, 9, 1, nest[0], nn);
    fs_write_name(&wr, 10, 1, &(fs_name_t){ .player = 1, .name = "after" });
    assert_false(wr.failed);

    assert_int_equal(run_open(&r, wr.data, wr.size), 0);
    frames = 0;
    while ((rc = fs_decoder.read_frame(r.st, r.w, &r.err)) > 0) {
        if (frames == 0)
            assert_true(find_pickup(r.w, 41) > 0);   // the message before the cut applied
        frames++;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(frames, 10);
    assert_string_equal(r.w->players[1].name, "after");
    for (int i = 0; i < FS_GEN_PICKUPS; i++)
        assert_true(find_pickup(r.w, 50 + i) > 0);
    int k;
    k = find_warning("expected 135 bytes for MSG_TEXTMSG and its frame lag, found 50 (truncated)");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(ev_at[0] + 2 + n1 + 4));
    assert_true(strstr(g_warn.what[k], "the rest of the MSG_BIGPACKET skipped") != NULL);
    k = find_warning("expected a 0 code ending the MSG_BIGPACKET, found its end");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(ev_at[1] + bn - 1));
    k = find_warning("expected a message code the game gives a size inside MSG_BIGPACKET, found 0x42");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(ev_at[2] + 2));
    k = find_warning("expected a frame lag of 0..300 after MSG_VERYSHORTDROPPICKUP, found 1000");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(ev_at[3] + 2 + n1));
    k = find_warning("expected at least 131 bytes for MSG_TEXTMSG (code 0x3f), found 93 (skipped)");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(ev_at[4] + 21));
    k = find_warning("expected at most 5 entries in MSG_SHORTPICKUP, found 200");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(ev_at[5] + 2));
    k = find_warning("expected a player number 0..32 in MSG_INTERPOLATE, found 99 (ignored)");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(ev_at[6] + 1));
    k = find_warning("expected a player number 0..32 in MSG_YOUQUIT, found 77 (ignored)");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(ev_at[7] + 2));
    k = find_warning("expected at most 4 messages inside messages, found MSG_GUARANTEEDMSG at depth 4");
    assert_true(k >= 0);
    assert_int_equal(g_warn.offset[k], (long long)(nest_at + 4 * 21));
    assert_int_equal(g_warn.n, 9);
    assert_int_equal(fs_decoder.info(r.st)->unknown_events, 1);   // the cut text
    run_close(&r);

    // the dump shows where each was
    char *text = dump_text(wr.data, wr.size, 0);
    char want[128];
    snprintf(want, sizeof want, "warning=\"offset %zu: expected a frame lag of 0..300", ev_at[3] + 2 + n1);
    assert_non_null(strstr(text, want));
    free(text);
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
                                     0xf6, 0xfb, 0xfd, 0x55, 0xcc, 0xbe, 0xe5, 0xe6, 0xe8, 0xec, 0x42,
                                     0x33, 0xee, 0x2f, 0x4f, 0x5f, 0x6f, 0x8f, 0x9f, 0xbf, 0xcf, 0xdf, 0xef,
                                     0xf1, 0xf2, 0xf3, 0xf7, 0xf8, 0xfa, 0xfe, 0xe0, 0xe1, 0xe2, 0xe4, 0xe7,
                                     0xeb, 0xed };
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
    fuzz_demo(make_game_messages);
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
        visible += world_entity_visible(r.w, n) && r.w->entities[n].cur.modelindex == FSW_MODEL_PICKUP;
    assert_int_equal(visible, 1024 / 2 + 1);   // odd ids of the first 1024 and the new one
    // and the level pickups' marker (engine/world_fs.h): the host's recording, random pickups, the
    // header's allowed bits
    assert_true(world_entity_visible(r.w, FSW_LPICK_INFO));
    assert_int_equal(r.w->entities[FSW_LPICK_INFO].cur.raw_effects, FSW_LPICK_HOST | FSW_LPICK_RANDOM);
    assert_int_equal((uint32_t)r.w->entities[FSW_LPICK_INFO].cur.body, 0xffffffffu);
    assert_int_equal(r.w->entities[FSW_LPICK_INFO].cur.sequence, 0xff);
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
        cmocka_unit_test(test_game_messages_dump),
        cmocka_unit_test(test_game_messages_world),
        cmocka_unit_test(test_status_left),
        cmocka_unit_test(test_game_messages_odd),
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
