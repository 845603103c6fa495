// test_models.c -- MDL/SPR loaders, the triangle rasterizer, and rendered model images
//
// Set DEMOPLAY_MODELS_PNG=dir to also write the rendered test images there.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "assets/mdl.h"
#include "assets/pal.h"
#include "assets/spr.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "render/d_polyse.h"
#include "render/r_mlocal.h"
#include "render/r_models.h"

// ---- loaders ------------------------------------------------------------------

// What the frame driver draws of the models: the entities, then the particles and beams.
static void draw_models(r_models_t *m, const world_t *w, r_view_t *v)
{
    r_models_draw(m, w, v);
    r_models_draw_fx(m, w, v);
}

static uint8_t *load_progs(const char *name, size_t *size)
{
    char rel[128];
    snprintf(rel, sizeof rel, "quake/id1/progs/%s", name);
    uint8_t *b = tu_read(tu_data(rel), size);
    assert_non_null(b);
    return b;
}

static void test_mdl_real(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const struct { const char *name; int skins, images, w, h, verts, tris, frames, poses, flags; } pins[] = {
        {"player.mdl", 1, 1, 296, 194, 801, 1060, 143, 143, 0},
        {"flame.mdl", 1, 1, 256, 256, 133, 118, 1, 6, 0},        // one frame group of 6 poses
        {"armor.mdl", 3, 3, 200, 200, 141, 148, 1, 1, MDL_EF_ROTATE},
        {"missile.mdl", 1, 1, 100, 100, 82, 86, 1, 1, MDL_EF_ROCKET},
        {"w_spike.mdl", 1, 1, 64, 128, 56, 56, 4, 4, MDL_EF_TRACER},
        {"bolt2.mdl", 1, 1, 16, 16, 82, 40, 1, 1, 0},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        size_t size;
        uint8_t *b = load_progs(pins[i].name, &size);
        mdl_t m;
        char err[160] = "";
        assert_int_equal(mdl_load(&m, b, size, err, sizeof err), 0);
        assert_int_equal(m.numskins, pins[i].skins);
        assert_int_equal(m.num_skin_images, pins[i].images);
        assert_int_equal(m.skinwidth, pins[i].w);
        assert_int_equal(m.skinheight, pins[i].h);
        assert_int_equal(m.numverts, pins[i].verts);
        assert_int_equal(m.numtris, pins[i].tris);
        assert_int_equal(m.numframes, pins[i].frames);
        assert_int_equal(m.num_poses, pins[i].poses);
        assert_int_equal(m.flags, pins[i].flags);
        for (int p = 0; p < m.num_poses * m.numverts; p++)
            assert_true(m.poses[p].normal < MDL_NUM_NORMALS);
        // each pose's box holds its vertices and each of its faces touches one
        for (int p = 0; p < m.num_poses; p++) {
            const uint8_t *box = m.pose_box + p * 6;
            const mdl_vert_t *pv = mdl_pose_verts(&m, p);
            int touch = 0;
            for (int v = 0; v < m.numverts; v++)
                for (int k = 0; k < 3; k++) {
                    assert_true(pv[v].v[k] >= box[k] && pv[v].v[k] <= box[3 + k]);
                    touch |= (pv[v].v[k] == box[k]) << k | (pv[v].v[k] == box[3 + k]) << (3 + k);
                }
            assert_int_equal(touch, 63);
        }
        mdl_free(&m);
        free(b);
    }
}

static void test_mdl_groups_animate(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *b = load_progs("flame.mdl", &size);
    mdl_t m;
    char err[160];
    assert_int_equal(mdl_load(&m, b, size, err, sizeof err), 0);
    // the group's poses follow its cumulative intervals and wrap around
    const float *iv = m.intervals + m.frames[0].first_interval;
    assert_int_equal(mdl_pose(&m, 0, 0.0), 0);
    assert_int_equal(mdl_pose(&m, 0, iv[0] + 0.001), 1);
    assert_int_equal(mdl_pose(&m, 0, iv[5] + 0.001), 0);
    assert_int_equal(mdl_pose(&m, 99, 0.0), 0);     // out of range: frame 0
    assert_non_null(mdl_skin(&m, 7, 0.0));           // out of range: skin 0
    assert_ptr_equal(mdl_skin(&m, 7, 0.0), m.skin_pixels);
    mdl_free(&m);
    free(b);
}

static void test_spr_real(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *b = load_progs("s_explod.spr", &size);
    spr_t s;
    char err[160];
    assert_int_equal(spr_load(&s, b, size, err, sizeof err), 0);
    assert_int_equal(s.type, SPR_VP_PARALLEL);
    assert_int_equal(s.numframes, 6);
    assert_int_equal(s.num_images, 6);
    const spr_image_t *im = spr_image(&s, 5, 0);
    assert_true(im->width > 0 && im->height > 0);
    assert_true(im->offset + (size_t)im->width * (size_t)im->height <= s.pixels_size);
    spr_free(&s);
    free(b);
}

// A hand-made sprite with a frame group and the oriented type.
static size_t build_spr(uint8_t *out, int type)
{
    uint8_t *p = out;
#define PUT32(v) do { uint32_t u_ = (uint32_t)(v); memcpy(p, &u_, 4); p += 4; } while (0)
#define PUTF(v) do { float f_ = (v); memcpy(p, &f_, 4); p += 4; } while (0)
    memcpy(p, "IDSP", 4);
    p += 4;
    PUT32(1);
    PUT32(type);
    PUTF(8);
    PUT32(4);
    PUT32(4);
    PUT32(2);   // frames
    PUTF(0);
    PUT32(0);
    PUT32(0);   // frame 0: single 4x4
    PUT32(-2); PUT32(2); PUT32(4); PUT32(4);
    memset(p, 10, 16);
    p += 16;
    PUT32(1);   // frame 1: group of 2
    PUT32(2);
    PUTF(0.1f);
    PUTF(0.2f);
    for (int k = 0; k < 2; k++) {
        PUT32(-1); PUT32(1); PUT32(2); PUT32(2);
        memset(p, 20 + k, 4);
        p += 4;
    }
#undef PUT32
#undef PUTF
    return (size_t)(p - out);
}

static void test_spr_groups_and_types(void **state)
{
    (void)state;
    uint8_t buf[256];
    for (int type = 0; type <= 4; type++) {
        size_t n = build_spr(buf, type);
        spr_t s;
        char err[160];
        assert_int_equal(spr_load(&s, buf, n, err, sizeof err), 0);
        assert_int_equal(s.type, type);
        assert_int_equal(s.num_images, 3);
        assert_int_equal(s.pixels[spr_image(&s, 1, 0.05)->offset], 20);
        assert_int_equal(s.pixels[spr_image(&s, 1, 0.15)->offset], 21);
        assert_int_equal(s.pixels[spr_image(&s, 1, 0.25)->offset], 20);   // wrapped
        spr_free(&s);
        // every truncation is an error, never a crash
        for (size_t cut = 0; cut < n; cut++)
            assert_int_equal(spr_load(&s, buf, cut, err, sizeof err), -1);
    }
    size_t n = build_spr(buf, 7);
    spr_t s;
    char err[160];
    assert_int_equal(spr_load(&s, buf, n, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 8"));
}

static void test_mdl_hostile(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *b = load_progs("s_spike.mdl", &size);
    mdl_t m;
    char err[160];
    // every truncation fails cleanly
    for (size_t cut = 0; cut < size; cut += (cut < 200 ? 1 : 7))
        assert_int_equal(mdl_load(&m, b, cut, err, sizeof err), -1);
    assert_int_equal(mdl_load(&m, b, size, err, sizeof err), 0);
    mdl_free(&m);
    // corrupted bytes: a result either way, no crash or out-of-bounds read (ASan run)
    uint8_t *c = malloc(size);
    uint32_t seed = 12345;
    for (int round = 0; round < 400; round++) {
        memcpy(c, b, size);
        for (int k = 0; k < 4; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % (round < 200 ? 84 : size);
            seed = seed * 1103515245u + 12345u;
            c[at] = (uint8_t)(seed >> 16);
        }
        if (mdl_load(&m, c, size, err, sizeof err) == 0) {
            assert_non_null(mdl_skin(&m, 0, 1.0));
            assert_true(mdl_pose(&m, 0, 1.0) < m.num_poses);
            mdl_free(&m);
        } else {
            assert_non_null(strstr(err, "offset "));
        }
    }
    // huge counts are refused before allocating
    memcpy(c, b, size);
    int32_t big = 0x7fffffff;
    memcpy(c + 60, &big, 4);
    assert_int_equal(mdl_load(&m, c, size, err, sizeof err), -1);
    assert_non_null(strstr(err, "vertices"));
    memcpy(c, b, size);
    int32_t many = 4000;
    memcpy(c + 68, &many, 4);   // frames: more than the bytes can hold
    assert_int_equal(mdl_load(&m, c, size, err, sizeof err), -1);
    memcpy(c, "IDPX", 4);
    assert_int_equal(mdl_load(&m, c, size, err, sizeof err), -1);
    assert_non_null(strstr(err, "IDPO"));
    free(c);
    free(b);
}

// ---- rasterizer ---------------------------------------------------------------------

#define TW 64
#define TH 48

typedef struct {
    uint8_t buf[TW * TH];
    float z[TW * TH];
    uint8_t tex[16];
    uint8_t cmap[64 * 256];
    d_polyctx_t c;
} rast_t;

static void rast_init(rast_t *r, int mode)
{
    memset(r->buf, 0, sizeof r->buf);
    memset(r->z, 0, sizeof r->z);
    memset(r->tex, 7, sizeof r->tex);
    for (int i = 0; i < 64 * 256; i++)
        r->cmap[i] = (uint8_t)(i & 255);   // identity in every row
    d_polyctx_t c = {r->buf, TW, TH, TW, r->z, r->tex, 4, 4, r->cmap, mode, NULL, 0, 0, 0};
    r->c = c;
}

static d_vert_t dv(float x, float y, float z)
{
    d_vert_t v = {x, y, z, 1, 1, 32};
    return v;
}

static int count_color(const rast_t *r, uint8_t c)
{
    int n = 0;
    for (int i = 0; i < TW * TH; i++)
        n += r->buf[i] == c;
    return n;
}

static void test_rast_fill_rule(void **state)
{
    (void)state;
    static rast_t r;
    rast_init(&r, D_LIT);
    // a 10x8 rectangle on pixel boundaries as two triangles: exactly 80 pixels, none twice
    d_vert_t a = dv(10, 10, 1), b = dv(20, 10, 1), c = dv(20, 18, 1), d = dv(10, 18, 1);
    memset(r.tex, 1, sizeof r.tex);
    d_poly_triangle(&r.c, &a, &b, &c);
    memset(r.tex, 2, sizeof r.tex);
    d_poly_triangle(&r.c, &a, &c, &d);
    assert_int_equal(count_color(&r, 1) + count_color(&r, 2), 80);
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            int inside = x >= 10 && x < 20 && y >= 10 && y < 18;
            assert_int_equal(r.buf[y * TW + x] != 0, inside);
        }
    // a fan of triangles around a centre: every pixel of the square once, no gaps
    rast_init(&r, D_LIT);
    d_vert_t ctr = dv(30.3f, 25.7f, 1);
    d_vert_t ring[4] = {dv(22, 20, 1), dv(40, 20, 1), dv(40, 33, 1), dv(22, 33, 1)};
    for (int i = 0; i < 4; i++) {
        r.tex[5] = 0;
        memset(r.tex, 3 + i, sizeof r.tex);
        d_poly_triangle(&r.c, &ctr, &ring[i], &ring[(i + 1) % 4]);
    }
    int total = 0;
    for (int i = 3; i < 7; i++)
        total += count_color(&r, (uint8_t)i);
    assert_int_equal(total, 18 * 13);
    // degenerate triangles draw nothing; both windings draw the same
    rast_init(&r, D_LIT);
    d_vert_t p = dv(5, 5, 1), q = dv(15, 5, 1), s = dv(25, 5, 1);
    d_poly_triangle(&r.c, &p, &q, &s);
    assert_int_equal(count_color(&r, 7), 0);
    d_vert_t t0 = dv(3, 3, 1), t1 = dv(13, 4, 1), t2 = dv(6, 14, 1);
    d_poly_triangle(&r.c, &t0, &t1, &t2);
    int cw = count_color(&r, 7);
    rast_init(&r, D_LIT);
    d_poly_triangle(&r.c, &t0, &t2, &t1);
    assert_int_equal(count_color(&r, 7), cw);
    assert_true(cw > 40 && cw < 60);   // area is 48.5
}

static void test_rast_ztest(void **state)
{
    (void)state;
    static rast_t r;
    rast_init(&r, D_LIT);
    d_vert_t a = dv(0, 0, 0.5f), b = dv(32, 0, 0.5f), c = dv(0, 32, 0.5f);
    memset(r.tex, 9, sizeof r.tex);
    d_poly_triangle(&r.c, &a, &b, &c);   // near
    int near_px = count_color(&r, 9);
    a.z = b.z = c.z = 0.25f;             // farther: hidden where the near one is
    memset(r.tex, 4, sizeof r.tex);
    d_poly_triangle(&r.c, &a, &b, &c);
    assert_int_equal(count_color(&r, 4), 0);
    assert_int_equal(count_color(&r, 9), near_px);
    assert_float_equal(r.z[2 * TW + 2], 0.5f, 1e-6);
    a.z = b.z = c.z = 1.0f;              // nearer: replaces
    d_poly_triangle(&r.c, &a, &b, &c);
    assert_int_equal(count_color(&r, 4), near_px);
    // masked mode: 255 texels leave colour and z alone
    rast_init(&r, D_UNLIT_MASKED);
    memset(r.tex, 255, sizeof r.tex);
    d_poly_triangle(&r.c, &a, &b, &c);
    assert_int_equal(count_color(&r, 0), TW * TH);
    assert_float_equal(r.z[2 * TW + 2], 0.0f, 0);
}

static d_subvert_t sv(int x, int y, int s, int t, float z)
{
    d_subvert_t v = {x, y, s << 16, t << 16, 5 << 8, z};
    return v;
}

// Quake's small-model drawing: whole-pixel points, halved triangles
static void test_rast_subdiv(void **state)
{
    (void)state;
    static rast_t r, whole;
    rast_init(&r, D_LIT);
    for (int i = 0; i < 16; i++)
        r.tex[i] = (uint8_t)(100 + i);   // 4x4 skin: texel (s, t) = 100 + t * 4 + s
    for (int i = 0; i < 256; i++)
        r.cmap[5 * 256 + i] = (uint8_t)(i ^ 1);   // row 5 tells its pixels apart
    // points: each at its pixel through its light row, z-tested; off-screen ones dropped
    d_subvert_t pts[4] = {sv(3, 4, 1, 2, 0.5f), sv(63, 47, 3, 3, 0.5f), sv(64, 10, 0, 0, 1), sv(5, 48, 0, 0, 1)};
    pts[1].light = 0;
    d_poly_subdiv_points(&r.c, pts, 4);
    assert_int_equal(r.buf[4 * TW + 3], (100 + 2 * 4 + 1) ^ 1);
    assert_int_equal(r.buf[47 * TW + 63], 100 + 15);
    assert_float_equal(r.z[4 * TW + 3], 0.5f, 0);
    assert_int_equal(TW * TH - count_color(&r, 0), 2);
    pts[0].z = 0.25f;   // farther: hidden
    pts[0].s = 0;
    d_poly_subdiv_points(&r.c, pts, 1);
    assert_int_equal(r.buf[4 * TW + 3], (100 + 2 * 4 + 1) ^ 1);
    // a triangle whose edges are all a pixel or less draws nothing (its corners are points)
    rast_init(&r, D_LIT);
    d_subvert_t a = sv(10, 10, 0, 0, 1), b = sv(11, 10, 0, 0, 1), c = sv(10, 11, 0, 0, 1);
    d_poly_subdiv_triangle(&r.c, &a, &b, &c);
    assert_int_equal(count_color(&r, 0), TW * TH);
    // a larger one: its pixels stay inside it (x, y >= 0, x + y <= 20 from its corner at
    // 10, 10) and fill most of it; halving (0, 0)-(2, 0) draws its midpoint (a bottom edge
    // running right), halving (0, 2)-(0, 0) draws (0, 1) (a right edge running up)
    rast_init(&r, D_LIT);
    for (int i = 0; i < 16; i++)
        r.tex[i] = (uint8_t)(100 + i);
    a = sv(10, 10, 0, 0, 1), b = sv(30, 10, 3, 0, 1), c = sv(10, 30, 0, 3, 1);
    d_poly_subdiv_triangle(&r.c, &a, &b, &c);
    int drawn = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            if (r.buf[y * TW + x]) {
                drawn++;
                assert_true(x >= 10 && y >= 10 && x + y <= 40);
            }
    assert_true(drawn > 200 && drawn <= 231);   // 231 pixels with x, y >= 0, x + y <= 20
    assert_int_equal(r.buf[10 * TW + 20], 100 + 1);   // the long top edge's midpoint: s = 1.5
    rast_init(&r, D_LIT);
    a = sv(0, 0, 0, 0, 1), b = sv(2, 0, 0, 0, 1), c = sv(0, 2, 0, 0, 1);
    d_poly_subdiv_triangle(&r.c, &a, &b, &c);
    assert_int_not_equal(r.buf[0 * TW + 1], 0);
    assert_int_not_equal(r.buf[1 * TW + 0], 0);
    assert_int_equal(r.buf[0], 0);   // corners are not the triangle's
    // a band of rows draws exactly the whole drawing's pixels on its rows
    rast_init(&whole, D_LIT);
    a = sv(5, 3, 0, 0, 1), b = sv(40, 12, 3, 1, 1), c = sv(17, 44, 1, 3, 1);
    d_poly_subdiv_triangle(&whole.c, &a, &b, &c);
    rast_init(&r, D_LIT);
    r.c.y0 = 15;
    r.c.y1 = 30;
    d_poly_subdiv_triangle(&r.c, &a, &b, &c);
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            assert_int_equal(r.buf[y * TW + x], y >= 15 && y < 30 ? whole.buf[y * TW + x] : 0);
    assert_true(TW * TH - count_color(&whole, 0) > 300);
}

static void test_rast_clipping(void **state)
{
    (void)state;
    static rast_t r;
    rast_init(&r, D_LIT);
    // a triangle far larger than the buffer covers it all, without writing outside
    d_vert_t a = dv(-1000, -1000, 1), b = dv(5000, -1000, 1), c = dv(-1000, 5000, 1);
    d_poly_triangle(&r.c, &a, &b, &c);
    assert_int_equal(count_color(&r, 7), TW * TH);
    // half off the left edge: only the visible part
    rast_init(&r, D_LIT);
    d_vert_t l0 = dv(-10, 0, 1), l1 = dv(10, 0, 1), l2 = dv(10, 20, 1), l3 = dv(-10, 20, 1);
    d_poly_triangle(&r.c, &l0, &l1, &l2);
    d_poly_triangle(&r.c, &l0, &l2, &l3);
    assert_int_equal(count_color(&r, 7), 200);
    // off the bottom-right corner
    rast_init(&r, D_LIT);
    d_vert_t c0 = dv(TW - 4, TH - 4, 1), c1 = dv(TW + 20, TH - 4, 1), c2 = dv(TW + 20, TH + 20, 1),
             c3 = dv(TW - 4, TH + 20, 1);
    d_poly_triangle(&r.c, &c0, &c1, &c2);
    d_poly_triangle(&r.c, &c0, &c2, &c3);
    assert_int_equal(count_color(&r, 7), 16);
    // non-finite input draws nothing
    d_vert_t n0 = dv(NAN, 0, 1);
    d_poly_triangle(&r.c, &n0, &c1, &c2);
    // particles clip too
    rast_init(&r, D_LIT);
    d_particle(r.buf, TW, TH, TW, r.z, -2, -2, 1.0f, 4, 5);
    d_particle(r.buf, TW, TH, TW, r.z, TW - 1, TH - 1, 1.0f, 4, 5);
    assert_int_equal(count_color(&r, 5), 4 + 1);
}

// ---- rendered images ---------------------------------------------------------------

static uint32_t fnv(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static int nonzero(const tu_scene_t *s)
{
    int n = 0;
    for (int i = 0; i < s->w * s->h; i++)
        n += s->buf[i] != 0;
    return n;
}

// A world with a few entities using the real models.
static void add_ent(world_t *w, int num, int model, float x, float y, float z, float yaw, int frame, int colormap)
{
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = model;
    st.origin[0] = x;
    st.origin[1] = y;
    st.origin[2] = z;
    st.angles[1] = yaw;
    st.frame = frame;
    st.colormap = colormap;
    world_entity_update(w, num, &st);
}

static void test_render_scene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    tu_scene_t s;
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);
    tu_scene_camera(&s, 0, 0, 0, 0, 0);
    world_t *w = world_create();
    world_set_model(w, 1, "maps/none.bsp");
    world_set_model(w, 2, "progs/player.mdl");
    world_set_model(w, 3, "progs/armor.mdl");
    world_set_model(w, 4, "progs/nothere.mdl");
    world_set_model(w, 5, "progs/s_explod.spr");
    world_set_model(w, 6, "progs/v_shot.mdl");
    world_set_model(w, 7, "progs/ogre.mdl");
    w->num_models = 8;
    w->maxclients = 4;
    w->players[1].top_color = 4;
    w->players[1].bottom_color = 13;
    w->view.entity = 1;
    w->view.stats[STAT_HEALTH] = 100;
    w->view.stats[STAT_WEAPON] = 6;
    vfs_t *fs = vfs_create();
    assert_true(vfs_add_dir(fs, tu_data("quake/id1")) >= 0);
    r_models_t *m = r_models_create();
    assert_non_null(m);
    assert_int_equal(r_models_load_level(m, fs, w, tu_palette()), 1);   // one missing model
    world_begin_frame(w, 1.0);
    add_ent(w, 1, 2, 0, 0, 0, 0, 0, 1);              // the view entity: never drawn
    add_ent(w, 2, 2, 150, -40, -20, 150, 0, 2);      // a player in colours
    add_ent(w, 3, 3, 120, 60, -30, 0, 0, 0);         // armor (rotating)
    add_ent(w, 4, 4, 100, 0, 30, 0, 0, 0);           // missing: a box
    add_ent(w, 5, 5, 200, 90, 40, 0, 2, 0);          // sprite
    add_ent(w, 6, 7, 260, 0, -30, 200, 10, 0);       // ogre
    w->prev_time = 0.9;
    r_models_frame(m, w, NULL);
    s.v.time = 1.0;
    r_models_lights(m, w, &s.v);
    draw_models(m, w, &s.v);
    tu_scene_png_env(&s, "scene.png");
    int px = nonzero(&s);
    uint32_t sum = fnv(s.buf, (size_t)s.w * s.h);
    print_message("scene: %d pixels drawn, checksum %08x\n", px, sum);
    // pinned from a viewed image; a small tolerance absorbs float differences between compilers
    assert_in_range(px, 6000, 6700);
    // the player's shirt and pants: translated colours (4*16.., 13*16..) appear, original ones do not
    int shirt = 0, pants = 0;
    for (int i = 0; i < s.w * s.h; i++) {
        shirt += s.buf[i] >= 64 && s.buf[i] < 80;
        pants += s.buf[i] >= 208 && s.buf[i] < 224;
    }
    assert_true(shirt > 50);
    assert_true(pants > 50);
    r_models_destroy(m);
    vfs_free(fs);
    world_free(w);
    tu_scene_free(&s);
}


// FitzQuake's entity alpha: an alias model drawn see-through blends every pixel it
// covers through the palette's 33 % / 66 % table, z-tested, z left alone; alpha 0
// draws nothing.
static void test_render_alpha(void **state)
{
    (void)state;
    tu_scene_t s;
    TU_REQUIRE_DATA();
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);
    tu_scene_camera(&s, 0, 0, 0, 0, 0);
    world_t *w = world_create();
    w->game = GAME_QUAKE;
    world_set_model(w, 1, "maps/none.bsp");
    world_set_model(w, 2, "progs/missing_for_test.mdl");   // a box, no data needed
    w->num_models = 3;
    r_models_t *m = r_models_create();
    assert_int_equal(r_models_load_level(m, NULL, w, tu_palette()), 1);
    world_begin_frame(w, 1.0);
    add_ent(w, 3, 2, 100, 0, 0, 30, 0, 0);
    w->prev_time = 1.0;
    r_models_frame(m, w, NULL);
    s.v.time = 1.0;
    const size_t n = (size_t)s.w * (size_t)s.h;
    // opaque: the colours to blend
    draw_models(m, w, &s.v);
    uint8_t *opaque = malloc(n);
    assert_non_null(opaque);
    memcpy(opaque, s.buf, n);
    int covered = nonzero(&s);
    assert_true(covered > 500);
    static pal_t pal;
    memcpy(pal.palette, tu_palette(), 768);
    pal.fullbright_start = s.v.fullbright_start;
    pal_make_alphamap(&pal);
    const int amts[2] = {100, 200};   // 33 % and 66 %
    for (int k = 0; k < 2; k++) {
        tu_scene_clear(&s);
        memset(s.buf, 15, n);
        w->entities[3].cur.rendermode = RM_TEXTURE;
        w->entities[3].cur.renderamt = amts[k];
        draw_models(m, w, &s.v);
        int blended = 0;
        for (size_t i = 0; i < n; i++) {
            uint8_t want = 15;
            if (opaque[i])
                want = k == 0 ? pal.alphamap[opaque[i] * 256 + 15] : pal.alphamap[15 * 256 + opaque[i]];
            assert_int_equal(s.buf[i], want);
            assert_float_equal(s.z[i], 0.0f, 0);   // z not written
            blended += opaque[i] != 0 && want != 15;
        }
        assert_true(blended > covered / 2);
    }
    // the blend is z-tested: a nearer surface everywhere hides it
    tu_scene_clear(&s);
    memset(s.buf, 15, n);
    for (size_t i = 0; i < n; i++)
        s.z[i] = 1.0f;
    draw_models(m, w, &s.v);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(s.buf[i], 15);
    // alpha 0: not drawn at all
    tu_scene_clear(&s);
    w->entities[3].cur.renderamt = 0;
    draw_models(m, w, &s.v);
    assert_int_equal(nonzero(&s), 0);
    free(opaque);
    r_models_destroy(m);
    world_free(w);
    tu_scene_free(&s);
}

// Mean screen x of the drawn pixels (-1 when none).
static float centroid_x(const tu_scene_t *s)
{
    double sum = 0;
    int n = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++)
            if (s->buf[y * s->w + x]) {
                sum += x;
                n++;
            }
    return n ? (float)(sum / n) : -1.0f;
}

static void test_render_interpolation(void **state)
{
    (void)state;
    tu_scene_t s;
    TU_REQUIRE_DATA();
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);
    tu_scene_camera(&s, 0, 0, 0, 0, 0);
    world_t *w = world_create();
    world_set_model(w, 1, "maps/none.bsp");
    world_set_model(w, 2, "progs/missing_for_test.mdl");   // a box, no data needed
    w->num_models = 3;
    r_models_t *m = r_models_create();
    assert_int_equal(r_models_load_level(m, NULL, w, tu_palette()), 1);
    world_begin_frame(w, 1.0);
    add_ent(w, 3, 2, 100, 30, 0, 0, 0, 0);
    world_begin_frame(w, 1.1);
    add_ent(w, 3, 2, 100, -30, 0, 0, 0, 0);   // moved 60 units to the right
    w->prev_time = 1.0;
    assert_true(w->entities[3].lerp_ok);
    r_models_frame(m, w, NULL);
    const double times[3] = {1.0, 1.05, 1.1};
    float cx[3];
    for (int i = 0; i < 3; i++) {
        tu_scene_clear(&s);
        s.v.time = times[i];
        draw_models(m, w, &s.v);
        cx[i] = centroid_x(&s);
    }
    // y = 30 at distance 100: 160 - 160 * 30 / 100 = 112; y = 0: 160; y = -30: 208
    assert_float_equal(cx[0], 112, 4);   // the box is 16 deep: its front face sits nearer
    assert_float_equal(cx[1], 160, 2);
    assert_float_equal(cx[2], 208, 4);
    // a teleport (no lerp) draws at the new place at once
    w->entities[3].lerp_ok = 0;
    tu_scene_clear(&s);
    s.v.time = 1.0;
    draw_models(m, w, &s.v);
    assert_float_equal(centroid_x(&s), 208, 4);
    // EF_NODRAW and the view entity are not drawn
    w->entities[3].cur.effects = EF_NODRAW;
    tu_scene_clear(&s);
    draw_models(m, w, &s.v);
    assert_float_equal(centroid_x(&s), -1, 0);
    w->entities[3].cur.effects = 0;
    w->view.entity = 3;
    draw_models(m, w, &s.v);
    assert_float_equal(centroid_x(&s), -1, 0);
    r_models_destroy(m);
    world_free(w);
    tu_scene_free(&s);
}

static void test_render_sprite_types(void **state)
{
    (void)state;
    uint8_t bytes[256];
    tu_scene_t s;
    TU_REQUIRE_DATA();
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);
    for (int type = 0; type <= 4; type++) {
        size_t n = build_spr(bytes, type);
        spr_t sp;
        char err[160];
        assert_int_equal(spr_load(&sp, bytes, n, err, sizeof err), 0);
        // a 4x4 sprite 50 units ahead: about 13x13 pixels, wherever it faces
        tu_scene_camera(&s, 0, 0, 0, 0, 0);
        tu_scene_clear(&s);
        vec3_t org = {50, 0, 0}, ang = {0, 180, 0};
        r_sprite_draw(&s.v, &sp, spr_image(&sp, 0, 0), org, ang);
        int px = nonzero(&s);
        assert_in_range(px, 120, 200);
        // seen from straight above, upright sprites vanish (Quake's rule); the others still draw
        tu_scene_camera(&s, 50, 0, 100, 90, 0);
        tu_scene_clear(&s);
        r_sprite_draw(&s.v, &sp, spr_image(&sp, 0, 0), org, ang);
        px = nonzero(&s);
        if (type == SPR_VP_PARALLEL_UPRIGHT || type == SPR_FACING_UPRIGHT)
            assert_int_equal(px, 0);
        else if (type != SPR_ORIENTED)
            assert_true(px > 0);
        spr_free(&sp);
    }
    tu_scene_free(&s);
}

static void test_render_effects(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    tu_scene_t s;
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);
    tu_scene_camera(&s, 0, 0, 0, 0, 0);
    world_t *w = world_create();
    world_set_model(w, 1, "maps/none.bsp");
    w->num_models = 2;
    vfs_t *fs = vfs_create();
    assert_true(vfs_add_dir(fs, tu_data("quake/id1")) >= 0);
    r_models_t *m = r_models_create();
    assert_int_equal(r_models_load_level(m, fs, w, tu_palette()), 0);
    world_begin_frame(w, 1.0);
    w->prev_time = 0.9;
    world_event_t *ev = world_add_event(w, EV_TEMPENT);
    ev->u.fx.kind = FX_EXPLOSION;
    ev->u.fx.origin[0] = 300;
    ev->u.fx.origin[1] = 80;
    ev = world_add_event(w, EV_TEMPENT);
    ev->u.fx.kind = FX_LIGHTNING2;
    ev->u.fx.entity = 9;
    ev->u.fx.origin[0] = 60;
    ev->u.fx.origin[1] = -60;
    ev->u.fx.origin[2] = -20;
    ev->u.fx.end[0] = 400;
    ev->u.fx.end[1] = -100;
    ev->u.fx.end[2] = 10;
    ev = world_add_event(w, EV_TEMPENT);
    ev->u.fx.kind = FX_TELEPORT;
    ev->u.fx.origin[0] = 150;
    ev->u.fx.origin[1] = 60;
    ev = world_add_event(w, EV_PARTICLES);
    ev->u.fx.origin[0] = 100;
    ev->u.fx.origin[1] = -30;
    ev->u.fx.color = 73;
    ev->u.fx.count = 40;
    r_models_frame(m, w, NULL);
    // the frame's effects are made at its time (1.0), and shown as made from the frame before
    s.v.time = 0.95;
    s.v.num_dlights = 0;
    r_models_lights(m, w, &s.v);
    assert_int_equal(s.v.num_dlights, 1);
    assert_float_equal(s.v.dlights[0].radius, 350, 0.5);
    s.v.time = 1.0;
    s.v.num_dlights = 0;
    r_models_lights(m, w, &s.v);
    assert_int_equal(s.v.num_dlights, 1);   // the explosion's light, at full radius when made
    assert_float_equal(s.v.dlights[0].radius, 350, 0.5);
    s.v.time = 1.05;
    s.v.num_dlights = 0;
    r_models_lights(m, w, &s.v);
    assert_int_equal(s.v.num_dlights, 1);   // then 300 units a second smaller
    assert_float_equal(s.v.dlights[0].radius, 350 - 0.05 * 300, 0.5);
    draw_models(m, w, &s.v);
    tu_scene_png_env(&s, "effects.png");
    int px = nonzero(&s);
    print_message("effects: %d pixels drawn\n", px);
    assert_true(px > 1500);
    // particles age and die: 6 s later only nothing remains
    memset(s.buf, 0, (size_t)s.w * s.h);
    memset(s.z, 0, (size_t)s.w * s.h * sizeof(float));
    world_begin_frame(w, 7.0);
    w->prev_time = 6.9;
    r_models_frame(m, w, NULL);
    s.v.time = 7.0;
    s.v.num_dlights = 0;
    r_models_lights(m, w, &s.v);
    assert_int_equal(s.v.num_dlights, 0);
    draw_models(m, w, &s.v);
    assert_int_equal(nonzero(&s), 0);
    r_models_destroy(m);
    vfs_free(fs);
    world_free(w);
    tu_scene_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mdl_real),
        cmocka_unit_test(test_mdl_groups_animate),
        cmocka_unit_test(test_spr_real),
        cmocka_unit_test(test_spr_groups_and_types),
        cmocka_unit_test(test_mdl_hostile),
        cmocka_unit_test(test_rast_fill_rule),
        cmocka_unit_test(test_rast_ztest),
        cmocka_unit_test(test_rast_clipping),
        cmocka_unit_test(test_rast_subdiv),
        cmocka_unit_test(test_render_scene),
        cmocka_unit_test(test_render_interpolation),
        cmocka_unit_test(test_render_alpha),
        cmocka_unit_test(test_render_sprite_types),
        cmocka_unit_test(test_render_effects),
    };
    return cmocka_run_group_tests_name("models", tests, NULL, NULL);
}
