// test_camera.c -- cameras (issue 16): --camera specs and path files, follow, chase, path
//
// The renderer reports the view it drew (r_camera_state); the tests check it against the
// world: a followed player's eye is their entity's origin + the decoder's eye height and
// their angles with the pitch scaled back; a chase camera is never in a solid leaf; a path
// camera passes through its keyframes along a Catmull-Rom spline.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/camera.h"
#include "engine/cli.h"
#include "engine/angles.h"
#include "engine/demo.h"
#include "engine/playback.h"
#include "render/render.h"

// ---- specs and path files ----------------------------------------------------------

static void expect_err(const char *spec, const char *part)
{
    char err[512] = "";
    r_camera_t *c = malloc(sizeof *c);
    assert_non_null(c);
    assert_int_equal(cam_parse(spec, c, err, sizeof err), -1);
    if (!strstr(err, part))
        fail_msg("--camera %s: '%s' does not say '%s'", spec, err, part);
    free(c);
}

static void test_specs(void **state)
{
    (void)state;
    static r_camera_t c;
    char err[256];
    assert_int_equal(cam_parse(NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.mode, R_CAM_EYES);
    assert_int_equal(cam_parse("eyes", &c, err, sizeof err), 0);
    assert_int_equal(c.mode, R_CAM_EYES);
    assert_int_equal(cam_parse("free", &c, err, sizeof err), 0);
    assert_int_equal(c.mode, R_CAM_FREE);
    assert_int_equal(c.pose_set, 0);
    assert_int_equal(cam_parse("free:1,-2.5,3,10,90", &c, err, sizeof err), 0);
    assert_int_equal(c.pose_set, 1);
    assert_float_equal(c.origin[1], -2.5, 0);
    assert_float_equal(c.angles[1], 90, 0);
    assert_int_equal(cam_parse("follow:3", &c, err, sizeof err), 0);
    assert_int_equal(c.mode, R_CAM_FOLLOW);
    assert_int_equal(c.player, 2);   // players count from 1 on the command line
    assert_int_equal(cam_parse("follow:stg", &c, err, sizeof err), 0);
    assert_string_equal(c.player_name, "stg");
    assert_int_equal(cam_parse("chase", &c, err, sizeof err), 0);
    assert_int_equal(c.mode, R_CAM_CHASE);
    assert_int_equal(c.player, -1);
    assert_int_equal(cam_check_spec("path:/no/such/file", err, sizeof err), 0);   // syntax only
    expect_err("path:/no/such/file", "/no/such/file: cannot open");
    expect_err("orbit", "expected eyes, free, chase, follow:N or path:FILE, got 'orbit'");
    expect_err("follow", "expected follow:N or follow:NAME");
    expect_err("follow:", "expected a player number or name");
    expect_err("follow:0", "expected a player number 1..");
    expect_err("follow:9999", "expected a player number 1..");
    expect_err("free:1,2", "expected X,Y,Z");
    expect_err("free:1,2,nan", "expected X,Y,Z");
    expect_err("free:1,2,3,4", "expected X,Y,Z");
    expect_err("path:", "expected path:FILE");
}

static void path_err(const char *text, const char *part)
{
    static r_camera_t c;
    char err[512] = "";
    assert_int_equal(cam_parse_path(text, "p.txt", &c, err, sizeof err), -1);
    if (!strstr(err, part))
        fail_msg("path '%s': '%s' does not say '%s'", text, err, part);
}

static void test_path_files(void **state)
{
    (void)state;
    static r_camera_t c;
    char err[256];
    const char *text = "# a fly-by\n"
                       "1.0  0 0 100   0 90 0\n"
                       "\n"
                       "2.5  100 0 100 10 180 0 70   # wider\n";
    assert_int_equal(cam_parse_path(text, "p.txt", &c, err, sizeof err), 0);
    assert_int_equal(c.num_keys, 2);
    assert_float_equal(c.keys[1].t, 2.5, 0);
    assert_float_equal(c.keys[1].angles[1], 180, 0);
    assert_float_equal(c.keys[1].fov, 70, 0);
    assert_float_equal(c.keys[0].fov, 0, 0);
    path_err("", "p.txt: expected at least one keyframe");
    path_err("1 2 3\n", "p.txt:1: expected TIME X Y Z PITCH YAW ROLL [FOV], found 3 numbers");
    path_err("1 0 0 0 0 0 0\n1 0 0 0 0 0 0\n", "p.txt:2: expected times increasing");
    path_err("1 0 0 0 0 0 x\n", "p.txt:1: expected TIME X Y Z PITCH YAW ROLL [FOV] (numbers)");
    path_err("1 0 0 0 0 0 0 200\n", "p.txt:1: expected FOV 1..179");
    path_err("1 0 0 0 0 0 0 90 9\n", "p.txt:1: expected at most 8 numbers");
    // written and read back
    const char *out = "build/test_camera_path.txt";
    assert_int_equal(cam_write_path(out, c.keys, c.num_keys), 0);
    assert_int_equal(cam_parse(NULL, &c, err, sizeof err), 0);
    assert_int_equal(cam_parse("path:build/test_camera_path.txt", &c, err, sizeof err), 0);
    assert_int_equal(c.num_keys, 2);
    assert_float_equal(c.keys[1].origin[0], 100, 1e-3);
    assert_float_equal(c.keys[1].fov, 70, 1e-3);
}

// ---- a demo read to a time, drawn with a camera ------------------------------------

typedef struct {
    cli_t cli;
    demo_t d;
    renderer_t *r;
    vfs_t *fs;
} cam_run_t;

static void open_demo(cam_run_t *p, const char *path, const char *basedir)
{
    memset(p, 0, sizeof *p);
    p->cli.basedir = basedir;
    p->cli.quiet = 1;
    if (demo_open(&p->d, &p->cli, path, NULL, 0) < 0)
        fail_msg("%s", p->d.errmsg);
    p->r = r_create(160, 120);
    assert_non_null(p->r);
}

// Read on to the first frame at or after t (loading levels); 1 when there is one.
static int read_to(cam_run_t *p, double t, uint32_t *level_seq)
{
    const world_t *w = p->d.world;
    int rc;
    while (w->time < t || !w->seq) {
        if ((rc = demo_read_frame(&p->d)) <= 0)
            return 0;
        if (w->level_seq != *level_seq) {
            *level_seq = w->level_seq;
            vfs_free(p->fs);
            p->fs = demo_mount(&p->d, &p->cli);
            char err[512];
            r_load_level(p->r, p->fs, w, err, sizeof err);
        }
        r_frame(p->r, w);
    }
    return 1;
}

static void close_demo(cam_run_t *p)
{
    r_destroy(p->r);
    vfs_free(p->fs);
    demo_close(&p->d);
}

static void set_camera(cam_run_t *p, const char *spec)
{
    static r_camera_t c;
    char err[512];
    if (cam_parse(spec, &c, err, sizeof err) < 0)
        fail_msg("%s", err);
    r_set_camera(p->r, &c);
}

// The eye a player's entity gives at the world's latest frame.
static void entity_eye(const world_t *w, int slot, float org[3], float ang[3])
{
    const world_entity_t *e = &w->entities[w->players[slot].entity];
    for (int k = 0; k < 3; k++) {
        org[k] = e->cur.origin[k];
        ang[k] = e->cur.angles[k];
    }
    org[2] += w->player_eye_height;
    float p = ang[0] - 360.0f * floorf((ang[0] + 180.0f) / 360.0f);
    ang[0] = p * w->player_pitch_scale;
}

static void assert_pose(const r_cam_state_t *st, const float org[3], const float yaw, const float pitch)
{
    for (int k = 0; k < 3; k++)
        assert_float_equal(st->origin[k], org[k], 1e-3);
    float dy = st->angles[1] - yaw;
    dy -= 360.0f * floorf((dy + 180.0f) / 360.0f);
    assert_float_equal(dy, 0, 1e-3);
    assert_float_equal(st->angles[0], pitch, 1e-3);
}

// koldduel1 (a client recording by myrmidon^, player 2): at 300 s stg (player 1, entity 1)
// is in the frame; follow:1 and follow:stg look from stg's eye, follow:2 is the eyes.
static void test_follow_quake2_client(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    cam_run_t p;
    uint32_t ls = 0;
    open_demo(&p, tu_data("quake2/demos/opentdm_koldduel1.dm2"), tu_data("quake2"));
    assert_true(read_to(&p, 300.0, &ls));
    const world_t *w = p.d.world;
    assert_string_equal(w->players[0].name, "stg");
    assert_int_equal(w->playernum, 1);
    assert_true(world_entity_visible(w, w->players[0].entity));
    float org[3], ang[3];
    entity_eye(w, 0, org, ang);
    r_cam_state_t st;
    const char *specs[] = {"follow:1", "follow:stg", "follow:STG"};
    for (int i = 0; i < 3; i++) {
        set_camera(&p, specs[i]);
        r_render(p.r, w, w->time);
        r_camera_state(p.r, &st);
        assert_int_equal(st.player, 0);
        assert_pose(&st, org, ang[1], ang[0]);
    }
    // the recording player: the eyes, as without a camera
    set_camera(&p, NULL);
    r_render(p.r, w, w->time);
    r_cam_state_t eyes;
    r_camera_state(p.r, &eyes);
    assert_int_equal(eyes.player, -1);
    set_camera(&p, "follow:2");
    r_render(p.r, w, w->time);
    r_camera_state(p.r, &st);
    assert_int_equal(st.player, -1);
    assert_int_equal(st.recorder, 1);   // in the frame: shot does not warn
    assert_memory_equal(st.origin, eyes.origin, sizeof st.origin);
    // a name nobody has: the eyes (and shot warns)
    set_camera(&p, "follow:nobody");
    r_render(p.r, w, w->time);
    r_camera_state(p.r, &st);
    assert_int_equal(st.player, -1);
    assert_int_equal(st.recorder, 0);
    assert_memory_equal(st.origin, eyes.origin, sizeof st.origin);
    close_demo(&p);
}

// ---- a Quake II server-side recording, written here ------------------------------

typedef struct {
    uint8_t b[1 << 16];
    size_t n;
} buf_t;

static void put8(buf_t *b, int v) { b->b[b->n++] = (uint8_t)v; }
static void put16(buf_t *b, int v) { put8(b, v & 255), put8(b, (v >> 8) & 255); }
static void put32(buf_t *b, int32_t v) { put16(b, v & 0xffff), put16(b, (v >> 16) & 0xffff); }
static void putstr(buf_t *b, const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(b->b + b->n, s, n);
    b->n += n;
}

// One block: its length, then the message.
static void block(buf_t *out, const buf_t *msg)
{
    put32(out, (int32_t)msg->n);
    memcpy(out->b + out->n, msg->b, msg->n);
    out->n += msg->n;
}

// Two players (entities 1 and 2, model 255) walking; frame f at f / 10 s.
static void player_at(int n, int f, float org[3], float ang[3])
{
    org[0] = 100.0f * (float)n + 8.0f * (float)f;
    org[1] = -40.0f * (float)n;
    org[2] = 24.0f;
    ang[0] = n == 1 ? 5.625f : -8.4375f;   // entity pitch: a third of the view's
    ang[1] = 45.0f * (float)n + 2.8125f * (float)f;
    ang[2] = 0;
}

static size_t write_server_demo(buf_t *out)
{
    buf_t m;
    out->n = 0;
    m.n = 0;
    put8(&m, 12);           // svc_serverdata
    put32(&m, 34);          // protocol
    put32(&m, 0x1234);      // server count
    put8(&m, 2);            // isdemo 2: a server-side recording
    putstr(&m, "");         // game dir
    put16(&m, -1);          // no player
    putstr(&m, "camera test");
    put8(&m, 13), put16(&m, 33), putstr(&m, "maps/q2dm1.bsp");                 // CS_MODELS + 1
    put8(&m, 13), put16(&m, 32 + 255), putstr(&m, "#w_blaster.md2");           // a model 255 name
    put8(&m, 13), put16(&m, 1312 + 0), putstr(&m, "alpha\\male/grunt");        // CS_PLAYERSKINS
    put8(&m, 13), put16(&m, 1312 + 1), putstr(&m, "beta\\female/athena");
    block(out, &m);
    for (int f = 1; f <= 20; f++) {
        m.n = 0;
        put8(&m, 20);       // svc_frame: a server-side recording writes the frame number alone
        put32(&m, f);
        put8(&m, 18);       // svc_packetentities
        for (int n = 1; n <= 2; n++) {
            float org[3], ang[3];
            player_at(n, f, org, ang);
            // ORIGIN1 | ORIGIN2 | ORIGIN3 | ANGLE1 | ANGLE2 | MODEL, with the second byte
            put8(&m, 0x1 | 0x2 | 0x4 | 0x80);
            put8(&m, (0x200 | 0x400 | 0x800) >> 8);
            put8(&m, n);
            put8(&m, 255);
            for (int k = 0; k < 3; k++)
                put16(&m, (int)lrintf(org[k] * 8));
            put8(&m, (int)lrintf(ang[0] * 256 / 360) & 255);
            put8(&m, (int)lrintf(ang[1] * 256 / 360) & 255);
        }
        put16(&m, 0);       // end of the entities
        block(out, &m);
    }
    put32(out, -1);
    return out->n;
}

// A server-side recording has no player of its own: follow:N looks from player N's
// entity, 22 units up, its pitch times 3; without a camera, from the first player's.
static void test_follow_quake2_server(void **state)
{
    (void)state;
    static buf_t demo;
    write_server_demo(&demo);
    const char *path = "build/test_camera_server.dm2";
    assert_int_equal(tu_write(path, demo.b, demo.n), 0);
    cam_run_t p;
    uint32_t ls = 0;
    open_demo(&p, path, ".");
    assert_true(read_to(&p, 1.2, &ls));
    const world_t *w = p.d.world;
    assert_float_equal(w->time, 1.2, 1e-6);
    assert_string_equal(w->players[1].name, "beta");
    r_cam_state_t st;
    for (int n = 1; n <= 2; n++) {
        char spec[32];
        snprintf(spec, sizeof spec, "follow:%d", n);
        set_camera(&p, spec);
        r_render(p.r, w, w->time);
        r_camera_state(p.r, &st);
        assert_int_equal(st.player, n - 1);
        float org[3], ang[3];
        player_at(n, 12, org, ang);
        org[2] += 22;
        assert_pose(&st, org, ang[1], ang[0] * 3);
    }
    // halfway between frames 12 and 13: halfway between the two places
    set_camera(&p, "follow:beta");
    assert_true(read_to(&p, 1.3, &ls));
    r_render(p.r, w, 1.25);
    r_camera_state(p.r, &st);
    float a[3], b[3], ang[3];
    player_at(2, 12, a, ang);
    player_at(2, 13, b, ang);
    assert_float_equal(st.origin[0], (a[0] + b[0]) / 2, 1e-3);
    // no camera: the first player
    set_camera(&p, NULL);
    r_render(p.r, w, w->time);
    r_camera_state(p.r, &st);
    assert_int_equal(st.player, 0);
    close_demo(&p);
}

// ---- a Quake II relay (RLA) recording, written here -------------------------------

// Two clients in q2dm1 (client c is player slot c, entity c + 1); frame f at f / 10 s.
// Their player states differ in everything the eyes show: place, view offset, angles,
// kick, weapon, field of view, blend and health.
typedef struct {
    float origin[3], viewoffset[3], viewangles[3], kick[3];
    int gun, fov, health;
    float blend[4];
} relay_ps_t;

static void relay_player(int c, int f, relay_ps_t *p)
{
    memset(p, 0, sizeof *p);
    p->origin[0] = 681.375f + (c ? -40.0f : 0.0f) + 2.0f * (float)f;
    p->origin[1] = 46.75f + (c ? 32.0f : 0.0f);
    p->origin[2] = 920.125f;
    p->viewoffset[2] = c ? 18.5f : 22.0f;
    p->viewangles[0] = c ? 5.625f : 22.5f;
    p->viewangles[1] = (c ? -50.0f : 120.0f) + (c ? 1.40625f : 4.21875f) * (float)f;   // 16-bit angles: exact
    p->kick[0] = c ? 1.5f : 0.0f;
    p->kick[2] = c ? -0.75f : 0.0f;
    p->gun = c ? 3 : 2;
    p->fov = c ? 80 : 90;
    p->health = c ? 37 : 100;
    p->blend[0] = c ? 1.0f : 0.0f;   // beta sees a red tint (255 / 255, alpha 51 / 255)
    p->blend[3] = c ? 0.2f : 0.0f;
}

static void put_angle16(buf_t *b, float a) { put16(b, (int)lrintf(a * 65536.0f / 360.0f) & 0xffff); }

// Client c's playerinfo for frame f, uni-cast to c: everything in frame 1, then only what
// moves (origin, view angles), so the rest must carry over from c's own state.
static void relay_playerinfo(buf_t *m, int c, int f)
{
    relay_ps_t p;
    relay_player(c, f, &p);
    put8(m, 17 | 0x80);     // svc_playerinfo, uni-cast
    put8(m, c);             // to client c
    int first = f == 1;
    // PS_M_ORIGIN | PS_VIEWANGLES, and first: PS_VIEWOFFSET | PS_KICKANGLES | PS_WEAPONINDEX |
    // PS_WEAPONFRAME | PS_BLEND | PS_FOV
    int flags = 0x2 | 0x100 | (first ? 0x80 | 0x200 | 0x1000 | 0x2000 | 0x400 | 0x800 : 0);
    put16(m, flags);
    for (int k = 0; k < 3; k++)
        put16(m, (int)lrintf(p.origin[k] * 8));
    if (first)
        for (int k = 0; k < 3; k++)
            put8(m, (int)lrintf(p.viewoffset[k] * 4));
    for (int k = 0; k < 3; k++)
        put_angle16(m, p.viewangles[k]);
    if (first) {
        for (int k = 0; k < 3; k++)
            put8(m, (int)lrintf(p.kick[k] * 4));
        put8(m, p.gun);                    // gunindex
        put8(m, 0);                        // gunframe, offset, angles
        for (int k = 0; k < 6; k++)
            put8(m, 0);
        for (int k = 0; k < 4; k++)
            put8(m, (int)lrintf(p.blend[k] * 255));
        put8(m, p.fov);
    }
    put32(m, first ? 1 << 1 : 0);        // stat 1: STAT_HEALTH
    if (first)
        put16(m, p.health);
}

// view_first: the client the connected list names first (whose view the recording shows);
// far: frame 10 deltas from frame 3 (further back than the decoder keeps each client's state),
// and every frame has a playerinfo uni-cast to client 200 (past the players the world names).
static size_t write_relay_demo(buf_t *out, int view_first, int far)
{
    buf_t m;
    out->n = 0;
    m.n = 0;
    put8(&m, 12);           // svc_serverdata
    put32(&m, 34);          // protocol
    put32(&m, 0x1234);      // server count
    put8(&m, 0x80);         // isdemo 0x80: a relay recording
    putstr(&m, "");         // game dir
    put16(&m, view_first);
    putstr(&m, "relay test");
    put8(&m, 13), put16(&m, 5), putstr(&m, "yb -24 xv 0 hnum");                 // CS_STATUSBAR: health
    put8(&m, 13), put16(&m, 33), putstr(&m, "maps/q2dm1.bsp");                 // CS_MODELS + 1
    put8(&m, 13), put16(&m, 34), putstr(&m, "models/weapons/v_blast/tris.md2");
    put8(&m, 13), put16(&m, 35), putstr(&m, "models/weapons/v_shotg/tris.md2");
    put8(&m, 13), put16(&m, 32 + 255), putstr(&m, "players/male/tris.md2");
    put8(&m, 13), put16(&m, 1312 + 0), putstr(&m, "alpha\\male/grunt");        // CS_PLAYERSKINS
    put8(&m, 13), put16(&m, 1312 + 1), putstr(&m, "beta\\female/athena");
    block(out, &m);
    for (int f = 1; f <= 20; f++) {
        m.n = 0;
        put8(&m, 20);       // svc_frame
        put32(&m, f);
        put32(&m, f == 1 ? -1 : far && f == 10 ? 3 : f - 1);   // delta from the frame before
        put8(&m, 0);        // suppress
        put8(&m, 0);        // no area bits
        put8(&m, 2);        // connected clients
        put8(&m, view_first), put8(&m, 1 - view_first);
        relay_playerinfo(&m, 0, f);
        relay_playerinfo(&m, 1, f);
        if (far)
            relay_playerinfo(&m, 200, f);
        put8(&m, 18);       // svc_packetentities
        for (int c = 0; c < 2; c++) {
            relay_ps_t p;
            relay_player(c, f, &p);
            // ORIGIN1 | ORIGIN2 | ORIGIN3 | ANGLE1 | ANGLE2 | MODEL, with the second byte
            put8(&m, 0x1 | 0x2 | 0x4 | 0x80);
            put8(&m, (0x200 | 0x400 | 0x800) >> 8);
            put8(&m, c + 1);
            put8(&m, 255);
            for (int k = 0; k < 3; k++)
                put16(&m, (int)lrintf(p.origin[k] * 8));
            put8(&m, (int)lrintf(p.viewangles[0] / 3 * 256 / 360) & 255);
            put8(&m, (int)lrintf(p.viewangles[1] * 256 / 360) & 255);
        }
        put16(&m, 0);       // end of the entities
        block(out, &m);
    }
    put32(out, -1);
    return out->n;
}

// The eye Quake II's client draws from client c's state between frames f and f + 1 (frac):
// origin + view offset blended, + 1/16 on each axis (V_RenderView); view angles + kick.
static void relay_eye(int c, int f, float frac, float org[3], float ang[3])
{
    relay_ps_t a, b;
    relay_player(c, f, &a);
    relay_player(c, f + 1, &b);
    for (int k = 0; k < 3; k++) {
        org[k] = a.origin[k] + (b.origin[k] - a.origin[k]) * frac + a.viewoffset[k] + 1.0f / 16;
        ang[k] = a.viewangles[k] + (b.viewangles[k] - a.viewangles[k]) * frac + a.kick[k];
    }
}

static void assert_eye(const r_cam_state_t *st, const float org[3], const float ang[3])
{
    for (int k = 0; k < 3; k++) {
        assert_float_equal(st->origin[k], org[k], 2e-3);
        float d = st->angles[k] - ang[k];
        d -= 360.0f * floorf((d + 180.0f) / 360.0f);
        assert_float_equal(d, 0, 2e-2);   // 16-bit angles
    }
}

// A relay recording carries every client's player state: the world keeps each client's own
// view (each deltas from that client's own state), seek snapshots carry them, and follow:2 is
// client 2's own view (their eye, angles, kick and field of view), blended between frames as
// the recording player's is; the eyes stay the recorded client's.
static void test_follow_quake2_relay(void **state)
{
    (void)state;
    static buf_t demo;
    const char *path = "build/test_camera_relay.dm2";
    write_relay_demo(&demo, 0, 0);
    assert_int_equal(tu_write(path, demo.b, demo.n), 0);
    cam_run_t p;
    uint32_t ls = 0;
    open_demo(&p, path, ".");
    assert_true(read_to(&p, 0.5, &ls));
    const world_t *w = p.d.world;
    assert_int_equal(w->playernum, 0);
    assert_string_equal(w->players[1].name, "beta");
    // the world keeps both clients' own views, each from its own earlier state
    const world_pov_t *a = world_player_pov(w, 0), *b = world_player_pov(w, 1);
    assert_non_null(a);
    assert_non_null(b);
    assert_null(world_player_pov(w, 2));
    assert_null(world_player_pov(w, -1));
    assert_null(world_player_pov(w, 1000));
    assert_int_equal(b->stats[1], 37);
    assert_int_equal(a->stats[1], 100);
    assert_int_equal(w->view.stats[1], 100);
    assert_float_equal(b->ofs[2], 18.5, 0);
    assert_float_equal(b->fov, 80, 0);
    assert_int_equal(b->gun_model, 3);
    assert_float_equal(b->punch[0], 1.5, 0);
    assert_float_equal(b->blend[3], 51.0f / 255, 1e-6);
    relay_ps_t ps;
    relay_player(1, 5, &ps);
    assert_float_equal(b->origin[0], ps.origin[0] + 0, 1e-3);
    assert_float_equal(b->origin[2], ps.origin[2] + 18.5f, 1e-3);
    relay_player(1, 4, &ps);
    assert_float_equal(b->prev_origin[0], ps.origin[0], 1e-3);

    // follow:2 at several times, between frames too: client 2's eye and angles
    r_cam_state_t st;
    float org[3], ang[3];
    set_camera(&p, "follow:2");
    const double times[] = {0.5, 0.525, 0.55, 0.6, 0.675, 0.7};
    for (int i = 0; i < 6; i++) {
        double t = times[i];
        int f = (int)floor(t * 10 + 1e-6);
        assert_true(read_to(&p, f * 0.1 + 0.1 - 1e-9, &ls));   // frames f and f + 1 read
        r_render(p.r, w, t);
        r_camera_state(p.r, &st);
        assert_int_equal(st.player, 1);
        relay_eye(1, f, (float)(t * 10 - f), org, ang);
        assert_eye(&st, org, ang);
        assert_float_equal(st.fov, 80, 0);
        // the eyes are still client 1's
        set_camera(&p, NULL);
        r_render(p.r, w, t);
        r_camera_state(p.r, &st);
        assert_int_equal(st.player, -1);
        relay_eye(0, f, (float)(t * 10 - f), org, ang);
        assert_eye(&st, org, ang);
        assert_float_equal(st.fov, 90, 0);
        set_camera(&p, "follow:beta");
    }
    // chase:2 is behind client 2's own eye (no level here: nothing clips it), 100 back along
    // their yaw and 16 up, looking their way
    set_camera(&p, "chase:2");
    r_render(p.r, w, w->time);
    r_camera_state(p.r, &st);
    assert_int_equal(st.player, 1);
    int fnow = (int)lrint(w->time * 10);
    relay_player(1, fnow, &ps);
    float yaw = ps.viewangles[1] * (float)M_PI / 180;
    assert_float_equal(st.origin[0], ps.origin[0] - 100 * cosf(yaw), 1e-2);
    assert_float_equal(st.origin[1], ps.origin[1] - 100 * sinf(yaw), 1e-2);
    assert_float_equal(st.origin[2], ps.origin[2] + ps.viewoffset[2] + 16, 1e-3);
    assert_float_equal(st.angles[0], ps.viewangles[0], 2e-2);
    // follow:1 is the recording client: the eyes
    set_camera(&p, "follow:1");
    r_render(p.r, w, w->time);
    r_camera_state(p.r, &st);
    assert_int_equal(st.player, -1);

    // a seek snapshot carries the views: cloned at 0.8 s, read on, restored
    world_t *snap = world_clone(w);
    assert_non_null(snap);
    assert_int_equal(snap->num_povs, 2);
    world_pov_t keep = w->povs[1];
    assert_true(read_to(&p, 1.5, &ls));
    assert_true(memcmp(&keep, &w->povs[1], sizeof keep) != 0);
    assert_int_equal(world_restore(p.d.world, snap), 0);
    assert_memory_equal(&keep, &w->povs[1], sizeof keep);
    world_free(snap);
    close_demo(&p);

    // a frame that deltas from further back than each client's state is kept: client 2's own
    // view is not known from then on (follow:2 looks from their entity), client 1's is the
    // recording's (every frame of it kept); client 200's states are read over
    write_relay_demo(&demo, 0, 1);
    assert_int_equal(tu_write(path, demo.b, demo.n), 0);
    ls = 0;
    open_demo(&p, path, ".");
    w = p.d.world;
    assert_true(read_to(&p, 0.9, &ls));
    assert_non_null(world_player_pov(w, 1));
    assert_int_equal(w->num_povs, 2);
    assert_int_equal(p.d.failed, 0);
    assert_true(read_to(&p, 1.0, &ls));
    assert_null(world_player_pov(w, 1));
    assert_non_null(world_player_pov(w, 0));
    assert_int_equal(w->view.stats[1], 100);
    set_camera(&p, "follow:2");
    r_render(p.r, w, w->time);
    r_camera_state(p.r, &st);
    assert_int_equal(st.player, 1);
    relay_player(1, 10, &ps);
    assert_float_equal(st.origin[2], ps.origin[2] + 22, 1e-3);   // the entity's eye height
    assert_true(read_to(&p, 1.1, &ls));
    assert_null(world_player_pov(w, 1));
    close_demo(&p);
}

// With q2dm1: the picture of follow:2 is the relay recording as client 2 would have it shown
// (the same file with client 2 first in the connected list): the level from their eye, their
// weapon, their status bar (health 37) and red blend; the eyes' picture is another.
static void test_follow_quake2_relay_pictures(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static buf_t demo;
    const char *path = "build/test_camera_relay.dm2", *path2 = "build/test_camera_relay2.dm2";
    write_relay_demo(&demo, 0, 0);
    assert_int_equal(tu_write(path, demo.b, demo.n), 0);
    write_relay_demo(&demo, 1, 0);
    assert_int_equal(tu_write(path2, demo.b, demo.n), 0);
    cam_run_t p, q;
    uint32_t ls = 0, ls2 = 0;
    open_demo(&p, path, tu_data("quake2"));
    open_demo(&q, path2, tu_data("quake2"));
    for (double t = 0.55; t < 1.0; t += 0.2) {
        int f = (int)floor(t * 10 + 1e-6);
        assert_true(read_to(&p, f * 0.1 + 0.1 - 1e-9, &ls));
        assert_true(read_to(&q, f * 0.1 + 0.1 - 1e-9, &ls2));
        assert_int_equal(q.d.world->playernum, 1);
        int pw, ph, pp, qw, qh, qp;
        set_camera(&p, "follow:2");
        r_render(p.r, p.d.world, t);
        const uint8_t *px = r_pixels(p.r, &pw, &ph, &pp);
        set_camera(&q, NULL);
        r_render(q.r, q.d.world, t);
        const uint8_t *qx = r_pixels(q.r, &qw, &qh, &qp);
        assert_int_equal(pw * ph, qw * qh);
        assert_memory_equal(px, qx, (size_t)pw * (size_t)ph);
        assert_memory_equal(r_palette(p.r), r_palette(q.r), 768);
        if (t < 0.6) {
            r_write_png(p.r, "build/test_camera_relay_follow2.png");
            set_camera(&p, NULL);
            r_render(p.r, p.d.world, t);
            r_write_png(p.r, "build/test_camera_relay_eyes.png");
            assert_true(memcmp(r_pixels(p.r, &pw, &ph, &pp), qx, (size_t)pw * (size_t)ph) != 0);
        }
    }
    close_demo(&q);
    close_demo(&p);
}

// Forsaken carries every ship: follow:2 is Nubia's cockpit (the ship's place and angles).
static void test_follow_forsaken(void **state)
{
    (void)state;
    cam_run_t p;
    uint32_t ls = 0;
    open_demo(&p, "tests/data/forsaken_sample.dmo", ".");
    assert_true(read_to(&p, 1.0, &ls));
    const world_t *w = p.d.world;
    assert_string_equal(w->players[1].name, "Nubia");
    set_camera(&p, "follow:2");
    r_render(p.r, w, w->time);
    r_cam_state_t st;
    r_camera_state(p.r, &st);
    assert_int_equal(st.player, 1);
    const world_entity_t *e = &w->entities[w->players[1].entity];
    for (int k = 0; k < 3; k++) {
        assert_float_equal(st.origin[k], e->cur.origin[k], 1e-3);
        float d = st.angles[k] - e->cur.angles[k];
        d -= 360.0f * floorf((d + 180.0f) / 360.0f);
        assert_float_equal(d, 0, 1e-3);
    }
    close_demo(&p);
}

// 200 chase shots across qfm_e1m3 (a Quake level of corridors and stairs): the camera is
// never inside a wall, and it is behind the player (further than 8 units from the eye
// wherever there is room).
static void test_chase_sweep(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    cam_run_t p;
    uint32_t ls = 0;
    open_demo(&p, tu_data("quake/demos/qfm_e1m3.dem"), tu_data("quake"));
    p.cli.game = "qfm";
    set_camera(&p, "chase");
    const world_t *w = p.d.world;
    int shots = 0, away = 0;
    double t = 2.0;   // at 1.4 s, its first frame, the player is not placed yet (at 0 0 0, in a wall)
    while (shots < 200 && read_to(&p, t, &ls)) {
        r_render(p.r, w, w->time);
        r_cam_state_t st;
        r_camera_state(p.r, &st);
        if (st.contents == -2)   // BSP_CONTENTS_SOLID
            fail_msg("chase camera inside a wall at %.2f s: (%g %g %g), the player at (%g %g %g)", w->time,
                     st.origin[0], st.origin[1], st.origin[2], w->entities[w->view.entity].cur.origin[0],
                     w->entities[w->view.entity].cur.origin[1], w->entities[w->view.entity].cur.origin[2]);
        assert_int_not_equal(st.contents, 0);   // the level is loaded: a real leaf
        const world_entity_t *e = &w->entities[w->view.entity];
        float dx = st.origin[0] - e->cur.origin[0], dy = st.origin[1] - e->cur.origin[1];
        away += dx * dx + dy * dy > 64;
        shots++;
        t += 0.09;
    }
    print_message("chase: %d shots, %d with the camera off the player\n", shots, away);
    assert_int_equal(shots, 200);
    assert_true(away > 150);
    close_demo(&p);
}

// r_camera_pose (the sound's listener) against the view r_render then draws from at the same time:
// the same eye, and the forward and up of the drawn angles by the game's rule (world_angle_vectors),
// asked before the frame is drawn; asking changes nothing drawn (the pose, the camera's state and
// the pixels of the next frame are those without asking). `smooth`: play's lagging chase camera.
static void pose_is_drawn(cam_run_t *p, const char *spec, int smooth, double t, const char *what, float out[3],
                          int want_body)
{
    static r_camera_t c;
    char err[512];
    if (cam_parse(spec, &c, err, sizeof err) < 0)
        fail_msg("%s", err);
    c.smooth = smooth;
    const world_t *w = p->d.world;
    float org[3], fwd[3], up[3], org2[3], fwd2[3], up2[3];
    r_set_camera(p->r, &c);
    int body = -9;
    assert_int_equal(r_camera_pose(p->r, w, t, org, fwd, up, &body), 0);
    assert_int_equal(body, want_body);   // whose sounds are the listener's own
    assert_int_equal(r_camera_pose(p->r, w, t, org2, fwd2, up2, NULL), 0);   // asking twice: the same
    assert_memory_equal(org, org2, sizeof org);
    r_render(p->r, w, t);
    r_cam_state_t st;
    r_camera_state(p->r, &st);
    float f[3], rt[3], u[3];
    world_angle_vectors(w->game, st.angles, f, rt, u);
    print_message("%s %s at %.3f s: pose (%.2f %.2f %.2f) fwd (%.3f %.3f %.3f) up (%.3f %.3f %.3f); drawn from "
                  "(%.2f %.2f %.2f) angles (%.2f %.2f %.2f)\n", what, spec, t, org[0], org[1], org[2], fwd[0], fwd[1],
                  fwd[2], up[0], up[1], up[2], st.origin[0], st.origin[1], st.origin[2], st.angles[0], st.angles[1],
                  st.angles[2]);
    for (int k = 0; k < 3; k++) {
        assert_float_equal(org[k], st.origin[k], 1e-4);
        assert_float_equal(fwd[k], f[k], 1e-5);
        assert_float_equal(up[k], u[k], 1e-5);
    }
    // after drawing, at the time drawn: still the view drawn (the lagging chase camera where it was drawn)
    assert_int_equal(r_camera_pose(p->r, w, t, org2, fwd2, up2, NULL), 0);
    for (int k = 0; k < 3; k++)
        assert_float_equal(org2[k], st.origin[k], 1e-4);
    // asking changes nothing drawn: the same frame drawn again from a fresh camera, without asking
    int pw, ph, pitch;
    const uint8_t *pix = r_pixels(p->r, &pw, &ph, &pitch);
    uint8_t *asked = malloc((size_t)ph * (size_t)pitch);
    assert_non_null(asked);
    memcpy(asked, pix, (size_t)ph * (size_t)pitch);
    r_set_camera(p->r, &c);
    r_render(p->r, w, t);
    r_cam_state_t st2;
    r_camera_state(p->r, &st2);
    assert_memory_equal(st2.origin, st.origin, sizeof st.origin);
    assert_memory_equal(r_pixels(p->r, &pw, &ph, &pitch), asked, (size_t)ph * (size_t)pitch);
    free(asked);
    memcpy(out, org, sizeof org);
}

// koldduel1 (Quake II, client recording) between two frames: follow:1 (stg's entity eye, blended) and
// chase:1 (behind him, traced through the level) are where the frame is drawn from, and away
// from the recording player's eyes; Forsaken's sample: follow:2 (Nubia's cockpit, Forsaken's own axes)
// and chase:2; qfm_e1m3 (Quake): play's lagging chase camera asked before and after each of a run of
// frames 20 ms apart is where each is drawn (the lag not applied twice).
static void test_camera_pose(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    cam_run_t p;
    uint32_t ls = 0;
    float a[3], b[3], eyes[3];
    open_demo(&p, tu_data("quake2/demos/opentdm_koldduel1.dm2"), tu_data("quake2"));
    assert_true(read_to(&p, 300.0, &ls));
    const world_t *w = p.d.world;
    double mid = (w->prev_time + w->time) / 2;
    assert_true(w->time > w->prev_time);
    pose_is_drawn(&p, "eyes", 0, mid, "koldduel1", eyes, -1);
    pose_is_drawn(&p, "follow:1", 0, mid, "koldduel1", a, w->players[0].entity);
    pose_is_drawn(&p, "chase:1", 0, mid, "koldduel1", b, 0);
    float d1 = 0, d2 = 0;
    for (int k = 0; k < 3; k++)
        d1 += (a[k] - eyes[k]) * (a[k] - eyes[k]), d2 += (b[k] - a[k]) * (b[k] - a[k]);
    assert_true(d1 > 100 * 100);   // stg is elsewhere than the recording player
    assert_true(d2 > 50 * 50);     // the chase camera is well behind his eye
    close_demo(&p);

    ls = 0;
    open_demo(&p, "tests/data/forsaken_sample.dmo", ".");
    assert_true(read_to(&p, 1.0, &ls));
    w = p.d.world;
    mid = (w->prev_time + w->time) / 2;
    pose_is_drawn(&p, "eyes", 0, mid, "forsaken_sample", eyes, -1);
    pose_is_drawn(&p, "follow:2", 0, mid, "forsaken_sample", a, w->players[1].entity);
    pose_is_drawn(&p, "chase:2", 0, mid, "forsaken_sample", b, 0);
    d1 = d2 = 0;
    for (int k = 0; k < 3; k++)
        d1 += (a[k] - eyes[k]) * (a[k] - eyes[k]), d2 += (b[k] - a[k]) * (b[k] - a[k]);
    assert_true(d1 > 100 * 100);
    assert_true(d2 > 50 * 50);
    // 100 back along the heading (level: Forsaken's forward has y -sin(pitch), 0 without it) and 16
    // up along Forsaken's up, y (no BSP: nothing clips it); main's before: 16 along z, its forward
    float back = sqrtf((b[0] - a[0]) * (b[0] - a[0]) + (b[2] - a[2]) * (b[2] - a[2]));
    print_message("forsaken_sample chase:2: %.3f up (y), %.3f back in x-z\n", b[1] - a[1], back);
    assert_float_equal(b[1] - a[1], 16.0, 0.01);
    assert_float_equal(back, 100.0, 0.01);
    close_demo(&p);

    ls = 0;
    open_demo(&p, tu_data("quake/demos/qfm_e1m3.dem"), tu_data("quake"));
    p.cli.game = "qfm";
    assert_true(read_to(&p, 5.0, &ls));
    w = p.d.world;
    static r_camera_t c;
    char err[512];
    assert_int_equal(cam_parse("chase", &c, err, sizeof err), 0);
    c.smooth = 1;
    r_set_camera(p.r, &c);
    // the same camera placed from each time alone (a shot's), on a renderer of its own
    renderer_t *q = r_create(16, 16);
    assert_non_null(q);
    char lerr[512];
    assert_int_equal(r_load_level(q, p.fs, w, lerr, sizeof lerr), 0);
    c.smooth = 0;
    r_set_camera(q, &c);
    double t = w->time;
    int frames = 0, lagged = 0;
    for (int i = 0; i < 40; i++, t += 0.02) {
        if (t > w->time && !read_to(&p, t, &ls))
            break;
        float o0[3], o1[3], o2[3], f[3], u[3];
        r_camera_pose(p.r, w, t, o0, f, u, NULL);
        r_render(p.r, w, t);
        r_cam_state_t st;
        r_camera_state(p.r, &st);
        r_camera_pose(p.r, w, t, o1, f, u, NULL);
        r_camera_pose(q, w, t, o2, f, u, NULL);
        float d = 0;
        for (int k = 0; k < 3; k++) {
            assert_float_equal(o0[k], st.origin[k], 1e-4);
            assert_float_equal(o1[k], st.origin[k], 1e-4);
            d += (o2[k] - st.origin[k]) * (o2[k] - st.origin[k]);
        }
        lagged += d > 1;   // the lag: not where a shot puts it
        frames++;
    }
    print_message("qfm_e1m3 lagging chase: %d frames 20 ms apart, each asked before and after drawing: where it is "
                  "drawn; %d of them more than 1 unit from the unlagged place\n", frames, lagged);
    assert_int_equal(frames, 40);
    assert_true(lagged > 10);
    r_destroy(q);
    close_demo(&p);
}

static float catmull(float p0, float p1, float p2, float p3, float u)
{
    return 0.5f * (2 * p1 + (-p0 + p2) * u + (2 * p0 - 5 * p1 + 4 * p2 - p3) * u * u +
                   (-p0 + 3 * p1 - 3 * p2 + p3) * u * u * u);
}

// A path of three keyframes: at each key time the view is the key; between, the spline
// (the end segments repeat their end key). Drawn over q2dm1_short (0.1 .. 0.7 s).
static void test_path(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *text = "0.1 100 200 50 0 0 0\n"
                       "0.4 300 250 80 10 90 0\n"
                       "0.7 350 450 60 -5 170 0 75\n";
    assert_int_equal(tu_write("build/test_camera_path3.txt", text, strlen(text)), 0);
    cam_run_t p;
    uint32_t ls = 0;
    open_demo(&p, tu_data("quake2/demos/q2dm1_short.dm2"), tu_data("quake2"));
    set_camera(&p, "path:build/test_camera_path3.txt");
    const world_t *w = p.d.world;
    const float key[3][4] = {{100, 200, 50, 0}, {300, 250, 80, 90}, {350, 450, 60, 170}};
    for (int i = 0; i <= 12; i++) {
        double t = 0.1 + 0.05 * i;
        // 1e-9 early: the frame of 0.7 s is 7 * 0.1, which x87 floats (make pentium) round to 0.69999999999999996
        assert_true(read_to(&p, t - 1e-9, &ls));
        r_render(p.r, w, t);
        r_cam_state_t st;
        r_camera_state(p.r, &st);
        int seg = t < 0.4 - 1e-9 ? 0 : 1;
        float u = (float)((t - (seg ? 0.4 : 0.1)) / 0.3);
        if (t > 0.7 - 1e-9)
            seg = 1, u = 1;
        const float *k0 = key[seg > 0 ? seg - 1 : 0], *k1 = key[seg], *k2 = key[seg + 1], *k3 = key[seg + 2 < 3 ? seg + 2 : 2];
        for (int j = 0; j < 3; j++)
            assert_float_equal(st.origin[j], catmull(k0[j], k1[j], k2[j], k3[j], u), 0.01);
        assert_float_equal(st.angles[1], catmull(k0[3], k1[3], k2[3], k3[3], u), 0.01);
        if (fabs(t - 0.4) < 1e-6) {
            assert_float_equal(st.origin[0], 300, 1e-3);
            assert_float_equal(st.fov, w->view.fov > 1 ? w->view.fov : 90, 1e-3);
        }
    }
    r_cam_state_t st;
    r_camera_state(p.r, &st);
    assert_float_equal(st.fov, 75, 1e-3);   // the last key's own field of view
    close_demo(&p);
}

// export --camera path: every exported frame is the frame a shot at its time draws with the
// same camera (whose view test_path checks against the spline), 7 frames at 10 a second.
static void test_export_path(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    const char *text = "0.1 100 200 50 0 0 0\n0.4 300 250 80 10 90 0\n0.7 350 450 60 -5 170 0 75\n";
    assert_int_equal(tu_write("build/test_camera_export_path.txt", text, strlen(text)), 0);
    char cmd[2048];
    int st;
    snprintf(cmd, sizeof cmd,
             "rm -rf build/test_camera_export && mkdir -p build/test_camera_export && %s export %s --basedir %s "
             "--camera path:build/test_camera_export_path.txt --fps 10 --size 160x120 --nosound -q "
             "-o build/test_camera_export",
             tu_bin(), tu_data("quake2/demos/q2dm1_short.dm2"), tu_data("quake2"));
    free(tu_run(cmd, &st));
    assert_int_equal(st, 0);
    for (int i = 0; i < 7; i++) {
        char frame[128], shot[128];
        snprintf(frame, sizeof frame, "build/test_camera_export/frame_%06d.png", i);
        snprintf(shot, sizeof shot, "build/test_camera_export/shot_%d.png", i);
        snprintf(cmd, sizeof cmd,
                 "%s shot %s --basedir %s --camera path:build/test_camera_export_path.txt --size 160x120 --at %.1f "
                 "-q -o %s",
                 tu_bin(), tu_data("quake2/demos/q2dm1_short.dm2"), tu_data("quake2"), 0.1 + 0.1 * i, shot);
        free(tu_run(cmd, &st));
        assert_int_equal(st, 0);
        double diff = tu_png_diff(frame, shot);
        if (diff != 0)
            fail_msg("export frame %d differs from the shot at %.1f s in %.2f%% of its pixels", i, 0.1 + 0.1 * i,
                     diff * 100);
    }
    // and the frames move: the first and the last are not the same picture
    assert_true(tu_png_diff("build/test_camera_export/frame_000000.png", "build/test_camera_export/frame_000006.png") >
                0.5);
}

// export --camera: the sound player follows the demo with a renderer of its own (the listener at
// the camera), which loads the level too; what the level lacks is said once, by the renderer that
// draws (main's before: crossfire's missing models were warned twice with --camera, once without).
static void test_export_camera_warns_once(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    const char *cams[] = { "", "--camera chase:1", "--camera free" };
    for (int i = 0; i < 3; i++) {
        char cmd[2048];
        int st;
        snprintf(cmd, sizeof cmd,
                 "rm -rf build/test_camera_warn && %s export %s --basedir %s %s --from 1 --to 1.2 --fps 10 "
                 "--size 64x48 -o build/test_camera_warn 2>&1",
                 tu_bin(), tu_data("goldsrc/demos/cstrike_crossfire.dem"), tu_data("goldsrc"), cams[i]);
        char *out = tu_run(cmd, &st);
        assert_non_null(out);
        assert_int_equal(st, 0);
        int models = 0, sounds = 0;
        for (const char *q = out; (q = strstr(q, "models are missing")) != NULL; q++)
            models++;
        for (const char *q = out; (q = strstr(q, "files not found")) != NULL; q++)
            sounds++;
        print_message("export %s: the missing models warned %d time(s), the missing sounds %d\n",
                      cams[i][0] ? cams[i] : "(eyes)", models, sounds);
        if (models != 1 || sounds != 1)
            fail_msg("export %s: expected each warning once, output:\n%s", cams[i], out);
        free(out);
    }
}

// A free camera without a place starts at the eyes of --from in every render thread: 1 and 3 threads
// give the same pictures of q2demo1 from 20 s, where the player moves (main's before: each thread placed it at the first frame it drew, and the
// frames of threads 2 and 3 were drawn from elsewhere).
static void test_export_free_threads(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    char cmd[2048];
    int st;
    for (int th = 1; th <= 3; th += 2) {
        snprintf(cmd, sizeof cmd,
                 "rm -rf build/test_camera_free%d && mkdir -p build/test_camera_free%d && %s export %s --basedir %s "
                 "--camera free --from 20 --to 20.5 --fps 10 --size 160x120 --nosound -q --threads %d "
                 "-o build/test_camera_free%d",
                 th, th, tu_bin(), tu_data("quake2/demos/q2demo1_p31.dm2"), tu_data("quake2"), th, th);
        free(tu_run(cmd, &st));
        assert_int_equal(st, 0);
    }
    int same = 0;
    for (int i = 0; i < 5; i++) {
        char a[128], b[128];
        snprintf(a, sizeof a, "build/test_camera_free1/frame_%06d.png", i);
        snprintf(b, sizeof b, "build/test_camera_free3/frame_%06d.png", i);
        double diff = tu_png_diff(a, b);
        if (diff != 0)
            fail_msg("free camera: frame %d with 3 threads differs from 1 thread's in %.2f%% of its pixels", i,
                     diff * 100);
        same++;
    }
    print_message("free camera: %d frames, the same with 1 and 3 render threads\n", same);
    assert_int_equal(same, 5);
}

// info --json lists the cameras and, for follow, each player's number with the frames their
// entity was in: koldduel1's stg (1) is followable, myrmidon^ (2) recorded it.
static void test_info_json(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s info --json %s", tu_bin(), tu_data("quake2/demos/opentdm_koldduel1.dm2"));
    int st;
    char *out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "\"cameras\":[\"eyes\",\"free\",\"chase\",\"follow\",\"path\"]"));
    assert_non_null(strstr(out, "{\"number\":1,\"name\":\"stg\",\"recorder\":false,\"frames\":6002}"));
    assert_non_null(strstr(out, "{\"number\":2,\"name\":\"myrmidon^\",\"recorder\":true,"));
    free(out);
}

// A relay recording: info --json says each player's own view is in every frame (view_frames),
// client 1 recorded it; a .dm2 without players' own views has no view_frames.
static void test_info_json_relay(void **state)
{
    (void)state;
    static buf_t demo;
    const char *path = "build/test_camera_relay_info.dm2";
    write_relay_demo(&demo, 0, 0);
    assert_int_equal(tu_write(path, demo.b, demo.n), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s info --json %s", tu_bin(), path);
    int st;
    char *out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "\"follow\":[{\"number\":1,\"name\":\"alpha\",\"recorder\":true,\"frames\":20,"
                                "\"view_frames\":20},{\"number\":2,\"name\":\"beta\",\"recorder\":false,"
                                "\"frames\":20,\"view_frames\":20}]"));
    free(out);
    write_server_demo(&demo);
    path = "build/test_camera_server_info.dm2";
    assert_int_equal(tu_write(path, demo.b, demo.n), 0);
    snprintf(cmd, sizeof cmd, "%s info --json %s", tu_bin(), path);
    out = tu_run(cmd, &st);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "{\"number\":2,\"name\":\"beta\",\"recorder\":false,\"frames\":20}"));
    assert_null(strstr(out, "view_frames"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_path_files),
        cmocka_unit_test(test_follow_quake2_client),
        cmocka_unit_test(test_follow_quake2_server),
        cmocka_unit_test(test_follow_quake2_relay),
        cmocka_unit_test(test_follow_quake2_relay_pictures),
        cmocka_unit_test(test_follow_forsaken),
        cmocka_unit_test(test_chase_sweep),
        cmocka_unit_test(test_camera_pose),
        cmocka_unit_test(test_path),
        cmocka_unit_test(test_export_path),
        cmocka_unit_test(test_export_free_threads),
        cmocka_unit_test(test_export_camera_warns_once),
        cmocka_unit_test(test_info_json),
        cmocka_unit_test(test_info_json_relay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
