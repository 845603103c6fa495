// test_render.c -- the world renderer: span filling, clipping at the screen edges, fill rules, texture stepping, golden shots
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/world.h"
#include "assets/pal.h"
#include "render/r_dither.h"
#include "render/r_local.h"

// A renderer looking from the origin along +x (no level: the view is set up, nothing drawn).
static renderer_t *view_renderer(int w, int h, world_t **wout)
{
    renderer_t *r = r_create(w, h);
    assert_non_null(r);
    world_t *wd = world_create();
    assert_non_null(wd);
    wd->view.origin_valid = 1;
    r_render(r, wd, 0);
    memset(r->buffer, 0, (size_t)w * (size_t)h);
    *wout = wd;
    return r;
}

// pal_near (sorted by green, pruned) answers exactly as the full search pal_nearest,
// ties included: random palettes, one with every colour twice and one of a few greys,
// every colour of a 4-step grid and the corners.
// r_dither_build's second colour by its definition: every B in index order, the least error
// |A + m/16 (B - A) - c|^2 + |B - A|^2 / 8 below A's own, the first of equals.
static uint32_t dither_cell_oracle(const uint8_t *pal, int ncolours, int a, int cell)
{
    float c[3] = { (float)((cell >> 10) << 3 | 4), (float)(((cell >> 5) & 31) << 3 | 4), (float)((cell & 31) << 3 | 4) };
    float ca[3] = { c[0] - pal[a * 3], c[1] - pal[a * 3 + 1], c[2] - pal[a * 3 + 2] };
    float best = ca[0] * ca[0] + ca[1] * ca[1] + ca[2] * ca[2];
    int best_b = a, best_m = 0;
    for (int b = 0; b < ncolours; b++) {
        float dr = (float)pal[b * 3] - pal[a * 3], dg = (float)pal[b * 3 + 1] - pal[a * 3 + 1],
              db = (float)pal[b * 3 + 2] - pal[a * 3 + 2];
        float dd = dr * dr + dg * dg + db * db, proj = ca[0] * dr + ca[1] * dg + ca[2] * db;
        if (dd <= 0 || proj <= 0)
            continue;
        int m = (int)(proj / dd * 16 + 0.5f);
        if (m < 1)
            continue;
        if (m > 16)
            m = 16;
        float f = (float)m / 16, e = dd / 8;
        float r0 = ca[0] - f * dr, r1 = ca[1] - f * dg, r2 = ca[2] - f * db;
        e += r0 * r0 + r1 * r1 + r2 * r2;
        if (e < best) {
            best = e;
            best_b = b;
            best_m = m;
        }
    }
    return (uint32_t)a | (uint32_t)best_b << 8 | (uint32_t)best_m << 16;
}

// The dither table (r_dither_build walks each A's neighbours nearest first and stops early) is the
// table of its definition, on palettes with duplicate colours, greys and few colours.
static void test_dither_table_definition(void **state)
{
    (void)state;
    static r_dither_t d;
    uint8_t pal[768];
    uint32_t rng = 777;
    long checked = 0, differ = 0, mixed = 0;
    for (int kind = 0; kind < 4; kind++) {
        for (int i = 0; i < 768; i++) {
            rng = rng * 1664525u + 1013904223u;
            pal[i] = (uint8_t)(rng >> 24);
        }
        if (kind == 1)
            memcpy(pal + 384, pal, 384);   // every colour twice: equal errors, the lower index
        if (kind == 2)
            for (int i = 0; i < 256; i++)
                pal[i * 3] = pal[i * 3 + 1] = pal[i * 3 + 2] = (uint8_t)((i & 15) * 17);
        if (kind == 3)
            for (int i = 0; i < 768; i++)
                pal[i] &= 0xc0;   // 64 colours, each four times
        int count = kind == 0 ? 255 : 256;
        r_dither_build(&d, pal, count, NULL);
        for (int cell = 0; cell < 32768; cell += 3) {
            uint32_t want = dither_cell_oracle(pal, count, (int)(d.mix[cell] & 255), cell);
            differ += d.mix[cell] != want;
            mixed += (want >> 16) != 0;
            checked++;
        }
    }
    print_message("dither tables: %ld cells checked, %ld with a second colour, %ld differ\n", checked, mixed, differ);
    assert_int_equal(checked, 4 * 10923);
    assert_true(mixed > checked / 2);
    assert_int_equal(differ, 0);
}

static void test_pal_near_exact(void **state)
{
    (void)state;
    uint8_t pal[768];
    uint32_t rng = 12345;
    long checked = 0, differ = 0;
    for (int kind = 0; kind < 4; kind++) {
        for (int i = 0; i < 768; i++) {
            rng = rng * 1664525u + 1013904223u;
            pal[i] = (uint8_t)(rng >> 24);
        }
        if (kind == 1)
            memcpy(pal + 384, pal, 384);   // every colour twice: the lower index must win
        if (kind == 2)
            for (int i = 0; i < 256; i++)
                pal[i * 3] = pal[i * 3 + 1] = pal[i * 3 + 2] = (uint8_t)((i & 7) * 36);
        int count = kind == 3 ? 224 : 256;
        pal_near_t n;
        pal_near_init(&n, pal, count);
        for (int r = 0; r < 256; r += 4)
            for (int g = 0; g < 256; g += 4)
                for (int b = 0; b < 256; b += 4) {
                    int rr = r | (r >> 6), gg = g | (g >> 6), bb = b | (b >> 6);
                    differ += pal_near(&n, rr, gg, bb) != pal_nearest(pal, count, rr, gg, bb);
                    checked++;
                }
        differ += pal_near(&n, 255, 255, 255) != pal_nearest(pal, count, 255, 255, 255);
    }
    assert_int_equal(checked, 4 * 64 * 64 * 64);
    assert_int_equal(differ, 0);
    pal_near_t none;
    pal_near_init(&none, pal, 0);
    assert_int_equal(pal_near(&none, 10, 20, 30), 0);
}

static void test_span_fill_and_stepping(void **state)
{
    (void)state;
    world_t *w;
    renderer_t *r = view_renderer(64, 40, &w);
    // a 64x40 surface whose texel (u, v) is u + 3v: a span must read exactly its own texels
    static uint8_t block[sizeof(r_cached_t) + 64 * 40];
    r_cached_t *c = (r_cached_t *)block;
    memset(c, 0, sizeof *c);
    c->width = 64;
    c->height = 40;
    uint8_t *tex = (uint8_t *)(c + 1);
    for (int v = 0; v < 40; v++)
        for (int u = 0; u < 64; u++)
            tex[v * 64 + u] = (uint8_t)(u + 3 * v);
    // screen-parallel plane at z = 100: u = x, v = y at pixel centres
    // s/z = 0.005 + 0.01 x, t/z = 0.005 + 0.01 y, 1/z = 0.01: texel (x + 1/2, y + 1/2)
    d_surfgrad_t g = { 0.005f, 0.01f, 0, 0.005f, 0, 0.01f, 0.01f, 0, 0, 0, 0, (64 << 16) - 1, (40 << 16) - 1, 3 };
    r_span_t spans[3] = { { 3, 5, 40, 0 }, { 0, 6, 64, 0 }, { 17, 39, 1, 0 } };
    d_draw_spans_lit(r, &g, c, spans, 3, 0);
    for (int i = 0; i < 3; i++)
        for (int x = spans[i].x; x < spans[i].x + spans[i].count; x++) {
            int y = spans[i].y;
            assert_int_equal(r->buffer[y * 64 + x], (uint8_t)(x + 3 * y));
            assert_float_equal(r->zbuffer[y * 64 + x], 0.01f, 1e-6);
        }
    assert_int_equal(r->buffer[5 * 64 + 2], 0);    // nothing outside the span
    assert_int_equal(r->buffer[5 * 64 + 43], 0);
    r_destroy(r);
    world_free(w);
}

// Quake's damage kick: a hit from the player's right rolls the view by
// count x 0.6 degrees (count = (blood + armor) / 2, at least 10), fading over 0.5 s.
// A small renderer and a Quake world seen through entity 1's eyes (view height 22, alive).
static renderer_t *quake_eyes(world_t **wout)
{
    renderer_t *r = r_create(64, 40);
    world_t *w = world_create();
    assert_non_null(r);
    assert_non_null(w);
    w->game = GAME_QUAKE;
    w->view.entity = 1;
    w->view.ofs[2] = 22;
    w->view.stats[STAT_HEALTH] = 100;
    *wout = w;
    return r;
}

static void test_damage_kick(void **state)
{
    (void)state;
    world_t *w;
    renderer_t *r = quake_eyes(&w);
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = 1;
    world_begin_frame(w, 1.0);
    world_entity_update(w, 1, &st);
    r_frame(r, w);
    world_begin_frame(w, 1.1);
    world_entity_update(w, 1, &st);
    world_event_t *ev = world_add_event(w, EV_DAMAGE);
    ev->u.damage.blood = 30;
    ev->u.damage.armor = 10;
    ev->u.damage.from[1] = -100;   // facing +x, the right is -y
    r_frame(r, w);
    r_render(r, w, 1.1);
    assert_float_equal(r->view.viewangles[2], 20 * 0.6, 1e-3);   // count = 20, all of it sideways
    assert_float_equal(r->view.viewangles[0], 0, 1e-3);
    world_begin_frame(w, 1.35);
    world_entity_update(w, 1, &st);
    r_frame(r, w);
    r_render(r, w, 1.35);
    assert_float_equal(r->view.viewangles[2], 20 * 0.6 * 0.5, 1e-3);
    world_begin_frame(w, 1.7);
    world_entity_update(w, 1, &st);
    r_frame(r, w);
    r_render(r, w, 1.7);
    assert_float_equal(r->view.viewangles[2], 0, 1e-3);
    r_destroy(r);
    world_free(w);
}

// Quake's stair smoothing: on the ground, a step up is followed by the eye at 80
// units a second (the frame time is the server frame's step), never more than 12 behind.
static void test_stair_smoothing(void **state)
{
    (void)state;
    world_t *w;
    renderer_t *r = quake_eyes(&w);
    w->view.onground = 1;
    static const float z[5] = { 0, 16, 16, 56, 56 };
    static const float eye[5] = { 0, 16 - 8, 16, 56 - 12, 56 - 4 };   // where the eye is, less 22 + 1/32
    for (int i = 0; i < 5; i++) {
        entity_state_t st;
        entity_state_clear(&st);
        st.modelindex = 1;
        st.origin[2] = z[i];
        world_begin_frame(w, 1.0 + 0.1 * i);
        world_entity_update(w, 1, &st);
        r_frame(r, w);
        r_render(r, w, 1.0 + 0.1 * i);
        assert_float_equal(r->view.vieworg[2], eye[i] + 22 + 1.0 / 32, 1e-3);
    }
    r_destroy(r);
    world_free(w);
}

// FitzQuake's entity alpha on a Quake brush entity (the built-in level's door):
// Quake has no blend table, so the palette's is made when a level first needs it,
// and every door pixel is the 66 % blend of the opaque door over what is behind.
static void test_brush_entity_alpha(void **state)
{
    (void)state;
    vfs_t *fs = vfs_create();
    assert_non_null(fs);
    if (vfs_add_dir(fs, "build/builtin/id1") < 0)
        fail_msg("build/builtin/id1 is missing: `make builtin` makes it");
    world_t *w = world_create();
    renderer_t *r = r_create(160, 100);
    assert_non_null(w);
    assert_non_null(r);
    w->game = GAME_QUAKE;
    snprintf(w->map, sizeof w->map, "maps/builtin.bsp");
    world_set_model(w, 1, "maps/builtin.bsp");
    world_set_model(w, 2, "*1");
    char err[256];
    assert_int_equal(r_load_level(r, fs, w, err, sizeof err), 0);
    assert_int_equal(r->pal.has_alphamap, 0);
    // look at the door from the open side of its thinnest axis
    const bsp_model_t *door = &r->bsp->models[1];
    int axis = 0;
    float c[3], size[3];
    for (int k = 0; k < 3; k++) {
        c[k] = (door->mins[k] + door->maxs[k]) / 2;
        size[k] = door->maxs[k] - door->mins[k];
        if (size[k] < size[axis])
            axis = k;
    }
    w->view.origin_valid = 1;
    int found = 0;
    for (int side = -1; side <= 1 && !found; side += 2) {
        memcpy(w->view.origin, c, sizeof c);
        w->view.origin[axis] += (float)side * 96;
        int leaf = bsp_point_leaf(r->bsp, w->view.origin);
        if (r->bsp->leafs[leaf].contents != BSP_CONTENTS_EMPTY)
            continue;
        memset(w->view.angles, 0, sizeof w->view.angles);
        w->view.angles[1] = axis == 0 ? (side < 0 ? 0.0f : 180.0f) : (side < 0 ? 90.0f : 270.0f);
        found = axis != 2;
    }
    assert_true(found);
    memcpy(w->view.prev_origin, w->view.origin, sizeof w->view.origin);
    memcpy(w->view.prev_angles, w->view.angles, sizeof w->view.angles);
    // the same demo time for the three pictures: liquids, sky and animated textures hold still
    static uint8_t behind[160 * 100], opaque[160 * 100];
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = 2;
    world_begin_frame(w, 1.0);
    r_frame(r, w);
    r_render(r, w, 1.0);
    memcpy(behind, r->buffer, sizeof behind);
    world_begin_frame(w, 1.0);
    world_entity_update(w, 2, &st);
    r_frame(r, w);
    r_render(r, w, 1.0);
    memcpy(opaque, r->buffer, sizeof opaque);
    st.rendermode = RM_TEXTURE;
    st.renderamt = 170;   // FitzQuake alpha 0.67: the 66 % table
    world_begin_frame(w, 1.0);
    world_entity_update(w, 2, &st);
    r_frame(r, w);
    r_render(r, w, 1.0);
    assert_int_equal(r->pal.has_alphamap, 1);
    int door_pixels = 0;
    for (int i = 0; i < 160 * 100; i++) {
        if (opaque[i] == behind[i]) {
            assert_int_equal(r->buffer[i], behind[i]);
            continue;
        }
        door_pixels++;
        assert_int_equal(r->buffer[i], r->pal.alphamap[behind[i] * 256 + opaque[i]]);
    }
    assert_true(door_pixels > 1000);
    r_destroy(r);
    world_free(w);
    vfs_free(fs);
}

// Quake II's turning sky: koldduel1's configstrings turn it 30 degrees a second
// about y; the view's axes are turned back by t x rate for the sky box's lookup.
static void test_sky_rotation(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    cli_t cli;
    memset(&cli, 0, sizeof cli);
    cli.basedir = tu_data("quake2");
    demo_t demo;
    assert_int_equal(demo_open(&demo, &cli, tu_data("quake2/demos/opentdm_koldduel1.dm2"), NULL, 0), 0);
    world_t *w = demo.world;
    while (w->num_models < 2 && demo_read_frame(&demo) > 0)
        ;
    assert_float_equal(w->sky_rotate, 30, 1e-6);
    assert_float_equal(w->sky_axis[0], 0, 1e-6);
    assert_float_equal(w->sky_axis[1], 1, 1e-6);
    assert_float_equal(w->sky_axis[2], 0, 1e-6);
    demo_close(&demo);

    renderer_t *r = r_create(64, 40);
    world_t *wd = world_create();
    assert_non_null(r);
    assert_non_null(wd);
    wd->view.origin_valid = 1;   // looking along +x
    wd->sky_rotate = 30;
    wd->sky_axis[2] = 2;          // about z (any length)
    r_render(r, wd, 3.0);         // 90 degrees turned: +x is seen where the box's -y was
    assert_float_equal(r->sky_vpn[0], 0, 1e-5);
    assert_float_equal(r->sky_vpn[1], -1, 1e-5);
    assert_float_equal(r->sky_vpn[2], 0, 1e-5);
    assert_float_equal(r->sky_vup[2], 1, 1e-5);
    wd->sky_rotate = 0;
    r_render(r, wd, 3.0);
    assert_float_equal(r->sky_vpn[0], 1, 1e-6);
    r_destroy(r);
    world_free(wd);
}

// Quake II blends the kick angles from the last frame's; Quake takes the frame's punch as it is.
static void test_kick_blend(void **state)
{
    (void)state;
    renderer_t *r = r_create(64, 40);
    world_t *w = world_create();
    assert_non_null(r);
    assert_non_null(w);
    w->view.origin_valid = 1;
    for (int g = 0; g < 2; g++) {
        w->game = g ? GAME_QUAKE2 : GAME_QUAKE;
        world_begin_frame(w, 1.0);
        w->view.punch[0] = 0;
        world_begin_frame(w, 1.1);
        w->view.punch[0] = -4;   // kicked up 4 degrees
        r_render(r, w, 1.05);
        assert_float_equal(r->view.viewangles[0], g ? -2.0 : -4.0, 1e-4);
    }
    r_destroy(r);
    world_free(w);
}

// Quake II's stair smoothing on the demo's clock: a 16-unit step on the ground is
// the frame's height less the step, coming up over 100 ms. At ten frames a second
// that is the blend between the frames; two tenths apart, the eye is up after one.
static void test_q2_stair_smoothing(void **state)
{
    (void)state;
    renderer_t *r = r_create(64, 40);
    world_t *w = world_create();
    assert_non_null(r);
    assert_non_null(w);
    w->game = GAME_QUAKE2;
    w->view.origin_valid = 1;
    w->view.onground = 1;
    w->view.velocity[0] = 300;
    w->view.ofs[2] = 22;
    static const double times[4] = { 1.0, 1.1, 1.2, 1.4 };
    static const float feet[4] = { 0, 0, 16, 32 };
    for (int i = 0; i < 4; i++) {
        world_begin_frame(w, times[i]);
        w->view.origin[2] = feet[i] + 22;
        r_frame(r, w);
    }
    // the last step, 16 up between 1.2 and 1.4: lagging 16 x (1 - ms / 100)
    // (and the 1/16 the client adds to keep the eye off node planes)
    r_render(r, w, 1.25);
    assert_float_equal(r->view.vieworg[2], 32 + 22 - 8 + 1.0 / 16, 1e-3);   // 50 ms into it: 8 below
    r_render(r, w, 1.35);
    assert_float_equal(r->view.vieworg[2], 32 + 22 + 1.0 / 16, 1e-3);       // done after 100 ms (a blend would say 28)
    r_destroy(r);
    world_free(w);
}

// Perspective: a floor plane seen at an angle; every pixel's texel must match the
// exact ray-plane intersection within one texel (16-pixel subdivision error).
static void test_perspective_texture_coords(void **state)
{
    (void)state;
    world_t *w;
    renderer_t *r = view_renderer(320, 200, &w);
    r_surfctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.normal[2] = 1;
    ctx.dist = -50;    // floor 50 units below the eye
    ctx.svec[0] = 1;   // u = x world, v = y world
    ctx.tvec[1] = 1;
    d_grad_t g;
    d_gradients(r, &ctx, 1.0f, 0, 0, &g);
    int checked = 0;
    for (int y = 101; y < 200; y += 7)
        for (int x = 0; x < 320; x += 5) {
            float zi = g.zi0 + g.dzidx * (float)x + g.dzidy * (float)y;
            float u = (g.uz0 + g.duzdx * (float)x + g.duzdy * (float)y) / zi;
            float v = (g.vz0 + g.dvzdx * (float)x + g.dvzdy * (float)y) / zi;
            // the exact intersection of the ray through the pixel centre with z = -50
            float a = ((float)x + 0.5f - r->xcenter) / r->xscale, b = ((float)y + 0.5f - r->ycenter) / r->yscale;
            float d[3] = { r->vpn[0] + a * r->vright[0] - b * r->vup[0], r->vpn[1] + a * r->vright[1] - b * r->vup[1],
                           r->vpn[2] + a * r->vright[2] - b * r->vup[2] };
            float t = -50 / d[2];
            assert_float_equal(u, d[0] * t, 0.01 * fabs(d[0] * t) + 0.01);
            assert_float_equal(v, d[1] * t, 0.01 * fabs(d[1] * t) + 0.01);
            assert_float_equal(zi, 1 / t, 1e-4);
            checked++;
        }
    assert_true(checked > 100);
    r_destroy(r);
    world_free(w);
}

// A polygon far larger than the view is clipped at the four screen edges and
// fills every pixel exactly once, whatever the size.
static void test_clip_at_screen_edges(void **state)
{
    (void)state;
    int sizes[3][2] = { { 64, 48 }, { 320, 200 }, { 17, 31 } };
    for (int s = 0; s < 3; s++) {
        world_t *w;
        renderer_t *r = view_renderer(sizes[s][0], sizes[s][1], &w);
        const float quad[4][3] = { { 100, 5000, 5000 }, { 100, -5000, 5000 }, { 100, -5000, -5000 }, { 100, 5000, -5000 } };
        assert_true(r_test_poly(r, quad, 4, 0, 0) > 0);
        size_t n = (size_t)sizes[s][0] * (size_t)sizes[s][1];
        for (size_t i = 0; i < n; i++)
            assert_int_equal(r->buffer[i], 1);
        // partly off screen to the left and top: only the visible part, once
        memset(r->buffer, 0, n);
        const float tri[3][3] = { { 100, 5000, 5000 }, { 100, -5000, 5000 }, { 100, 5000, -5000 } };
        r_test_poly(r, tri, 3, 0, 0);
        size_t covered = 0;
        for (size_t i = 0; i < n; i++) {
            assert_true(r->buffer[i] <= 1);
            covered += r->buffer[i];
        }
        assert_true(covered > 0 && covered < n);
        assert_int_equal(r->buffer[0], 1);                       // top-left corner is inside
        assert_int_equal(r->buffer[n - 1], 0);                   // bottom-right is not
        // behind the eye: nothing
        memset(r->buffer, 0, n);
        const float back[3][3] = { { -100, 50, 50 }, { -100, -50, 50 }, { -100, 0, -50 } };
        assert_int_equal(r_test_poly(r, back, 3, 0, 0), 0);
        r_destroy(r);
        world_free(w);
    }
}

// Polygons sharing edges (a fan around a point, crossing the screen edges)
// cover each pixel exactly once: no cracks, no double-drawn seams.
static void test_shared_edges_no_cracks(void **state)
{
    (void)state;
    world_t *w;
    renderer_t *r = view_renderer(160, 100, &w);
    const int nfan = 13;
    float ring[13][3];
    for (int i = 0; i < nfan; i++) {
        double a = i * 2 * 3.14159265358979 / nfan + 0.1;
        ring[i][0] = 40 + 3.7f * (float)cos(a);     // a tilted plane, near and far
        ring[i][1] = 200 * (float)cos(a);
        ring[i][2] = 150 * (float)sin(a);
    }
    const float centre[3] = { 40.3f, 3.1f, -2.7f };
    for (int i = 0; i < nfan; i++) {
        float tri[3][3];
        memcpy(tri[0], centre, sizeof tri[0]);
        memcpy(tri[1], ring[i], sizeof tri[1]);
        memcpy(tri[2], ring[(i + 1) % nfan], sizeof tri[2]);
        r_test_poly(r, (const float (*)[3])tri, 3, 0, 0);
    }
    for (int i = 0; i < 160 * 100; i++)
        assert_int_equal(r->buffer[i], 1);
    // the span buffer: a near polygon first, then a far one only where the near one is not
    r_spanbuf_clear(r);
    memset(r->buffer, 0, 160 * 100);
    const float near[4][3] = { { 50, 20, 20 }, { 50, -20, 20 }, { 50, -20, -20 }, { 50, 20, -20 } };
    const float far[4][3] = { { 500, 5000, 5000 }, { 500, -5000, 5000 }, { 500, -5000, -5000 }, { 500, 5000, -5000 } };
    r_test_poly(r, near, 4, 1, 7);
    r_test_poly(r, far, 4, 1, 9);
    int n7 = 0, n9 = 0;
    for (int i = 0; i < 160 * 100; i++) {
        assert_true(r->buffer[i] == 7 || r->buffer[i] == 9);
        n7 += r->buffer[i] == 7;
        n9 += r->buffer[i] == 9;
    }
    assert_true(n7 > 100 && n9 > 100);
    assert_int_equal(r->buffer[50 * 160 + 80], 7);
    assert_int_equal(r->rows_left, 0);   // every row full: the walk can stop
    r_destroy(r);
    world_free(w);
}

static void test_bsp_rejects_bad_bytes(void **state)
{
    (void)state;
    char err[256] = "";
    uint8_t small[16] = { 29 };
    assert_null(bsp_load(small, sizeof small, "maps/x.bsp", err, sizeof err));
    assert_non_null(strstr(err, "maps/x.bsp: offset 0: expected"));
    uint8_t hdr[124];
    memset(hdr, 0, sizeof hdr);
    hdr[0] = 31;
    assert_null(bsp_load(hdr, sizeof hdr, "maps/x.bsp", err, sizeof err));
    assert_non_null(strstr(err, "version 29 or 30, got 31"));
    hdr[0] = 29;
    hdr[4 + 8 * 3] = 200;   // vertex lump offset past the end
    hdr[8 + 8 * 3] = 12;
    assert_null(bsp_load(hdr, sizeof hdr, "maps/x.bsp", err, sizeof err));
    assert_non_null(strstr(err, "offset 28: expected lump 3"));
}

// A real level: every byte flipped somewhere must never crash the loader.
static void test_bsp_fuzz_real_level(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size = 0;
    uint8_t *data = tu_read(tu_data("quake/id1/maps/e1m1.bsp"), &size);
    assert_non_null(data);
    char err[512];
    bsp_t *b = bsp_load(data, size, "maps/e1m1.bsp", err, sizeof err);
    assert_non_null(b);
    assert_true(b->num_faces > 1000 && b->num_models > 1);
    bsp_free(b);
    uint8_t *copy = malloc(size);
    assert_non_null(copy);
    uint32_t seed = 12345;
    for (int round = 0; round < 60; round++) {
        memcpy(copy, data, size);
        for (int k = 0; k < 40; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = round < 20 ? (seed >> 8) % 124 : (seed >> 4) % size;   // header first, then anywhere
            copy[at] ^= (uint8_t)(seed >> 24 | 1);
        }
        b = bsp_load(copy, size, "maps/e1m1.bsp", err, sizeof err);
        bsp_free(b);
    }
    free(copy);
    free(data);
}

// Golden images: small shots of real demos. DEMOPLAY_UPDATE_GOLDEN=1 rewrites
// them (after a deliberate change in how things look: models, HUD ...).
static void golden_in(const char *base, const char *name, const char *demo, const char *game, double at,
                      double tolerance)
{
    char out[256], gold[256], cmd[2048];
    snprintf(out, sizeof out, "build/test_render_%s.png", name);
    snprintf(gold, sizeof gold, "tests/golden/%s.png", name);
    snprintf(cmd, sizeof cmd, "%s shot -q --basedir %s %s%s %s --at %.3f --size 160x100 -o %s 2>&1", tu_bin(),
             tu_data(base), game ? "--game " : "", game ? game : "", tu_data(demo), at, out);
    int status = 0;
    char *text = tu_run(cmd, &status);
    if (status != 0) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", text ? text : "");
        free(text);
        fail_msg("%s: exit %d: %s", cmd, status, msg);
    }
    free(text);
    tu_golden(name, out, gold, tolerance);
}

static void golden(const char *name, const char *demo, const char *game, double at, double tolerance)
{
    golden_in("quake", name, demo, game, at, tolerance);
}

// Quake II: demo2's warehouse with soldiers, the view weapon and the HUD; q2dm1's sky box;
// AQtion's terminal through a window.
static void test_golden_quake2(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    golden_in("quake2", "q2demo1_p31_40s", "quake2/demos/q2demo1_p31.dm2", NULL, 40.0, 0.01);
    golden_in("quake2", "q2dm1_short_0.7s", "quake2/demos/q2dm1_short.dm2", NULL, 0.7, 0.01);
    // terminal's glass panel (33 % see-through faces) with the hall behind it
    golden_in("quake2", "action_demo_99.8s", "quake2/demos/action_demo.dm2", NULL, 99.8, 0.01);
}

// GoldSrc: c1a0's tram (level palette chosen from its textures, the ceiling grate a
// solid-mode '{' entity: see-through where its texel is 255), crossfire's sky box,
// its default-texture faces (halflife.wad is absent) and the Half-Life HUD.
static void test_golden_goldsrc(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    golden_in("goldsrc", "valve_c1a0_2s", "goldsrc/demos/valve_c1a0.dem", NULL, 2.0, 0.01);
    golden_in("goldsrc", "cstrike_crossfire_4s", "goldsrc/demos/cstrike_crossfire.dem", NULL, 4.0, 0.01);
}

static void test_golden_qfm_e1m3(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    golden("qfm_e1m3_20s", "quake/demos/qfm_e1m3.dem", "qfm", 20.0, 0.01);
}

static void test_golden_dosquake_e4m2(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    golden("dosquake101_e4m2_40s", "quake/demos/dosquake101_e4m2.dem", NULL, 40.0, 0.01);
}

// Frames of the fidelity reference (../shared/data/reference/quake), at the
// reference's size and exact block time, drawn as the reference was (--notify
// off); looked at beside id's frame when written.
static void golden_ref(const char *name, const char *demo, const char *game, const char *at)
{
    char out[256], gold[256], cmd[2048];
    snprintf(out, sizeof out, "build/test_render_%s.png", name);
    snprintf(gold, sizeof gold, "tests/golden/%s.png", name);
    snprintf(cmd, sizeof cmd, "%s shot -q --notify off --basedir %s %s%s %s --at %s --size 320x200 -o %s 2>&1",
             tu_bin(), tu_data("quake"), game ? "--game " : "", game ? game : "", tu_data(demo), at, out);
    int status = 0;
    char *text = tu_run(cmd, &status);
    if (status != 0) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", text ? text : "");
        free(text);
        fail_msg("%s: exit %d: %s", cmd, status, msg);
    }
    free(text);
    tu_golden(name, out, gold, 0.005);
}

// lq_demo2_lite's cutscene: the camera is the view entity with its own angles
// (and the intermission sway), not the client's angles, which look into a wall;
// the map's water is see-through (worldspawn _wateralpha 0.66).
static void test_golden_cutscene(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    golden_ref("lq_demo2_lite_cutscene_2945", "quake/demos/lq_demo2_lite.dem", NULL, "225.84425354003906");
}

// qfm_e1m3 block 2524: the super nailgun firing, its muzzle-flash frame shown at
// once, lit from above as the reference renderer lights models.
static void test_golden_view_weapon(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    golden_ref("qfm_e1m3_weapon_2524", "quake/demos/qfm_e1m3.dem", "qfm", "37.02592468261719");
}

// lq_demo1_lite: health and ammo boxes are BSP files of their own (maps/b_*.bsp).
static void test_golden_bsp_items(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    golden_ref("lq_demo1_lite_items_154", "quake/demos/lq_demo1_lite.dem", NULL, "93.2315902709961");
}

static void test_shot_missing_map(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s shot --basedir %s %s --at 2 -o build/test_render_missing.png 2>&1", tu_bin(),
             tu_data("quake"), tu_data("quake/demos/revamped_title_missing_map.dem"));
    int status = 0;
    char *text = tu_run(cmd, &status);
    assert_non_null(text);
    assert_int_equal(status, 1);
    assert_non_null(strstr(text, "not found"));
    free(text);
}

static void test_shot_bad_size(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s shot --size 5000x100 --at 1 -o build/x.png nothing.dem 2>&1", tu_bin());
    int status = 0;
    free(tu_run(cmd, &status));
    assert_int_equal(status, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pal_near_exact),
        cmocka_unit_test(test_dither_table_definition),
        cmocka_unit_test(test_span_fill_and_stepping),
        cmocka_unit_test(test_perspective_texture_coords),
        cmocka_unit_test(test_clip_at_screen_edges),
        cmocka_unit_test(test_shared_edges_no_cracks),
        cmocka_unit_test(test_bsp_rejects_bad_bytes),
        cmocka_unit_test(test_bsp_fuzz_real_level),
        cmocka_unit_test(test_golden_qfm_e1m3),
        cmocka_unit_test(test_golden_dosquake_e4m2),
        cmocka_unit_test(test_golden_cutscene),
        cmocka_unit_test(test_damage_kick),
        cmocka_unit_test(test_stair_smoothing),
        cmocka_unit_test(test_sky_rotation),
        cmocka_unit_test(test_kick_blend),
        cmocka_unit_test(test_q2_stair_smoothing),
        cmocka_unit_test(test_brush_entity_alpha),
        cmocka_unit_test(test_golden_bsp_items),
        cmocka_unit_test(test_golden_view_weapon),
        cmocka_unit_test(test_golden_quake2),
        cmocka_unit_test(test_golden_goldsrc),
        cmocka_unit_test(test_shot_missing_map),
        cmocka_unit_test(test_shot_bad_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
