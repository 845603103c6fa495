// test_goldsrc_modes.c -- Half-Life's render modes in 8 bits: blend tables, renderfx amounts, '{' masks, golden views of c1a0
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/log.h"
#include "engine/playback.h"
#include "engine/world.h"
#include "render/r_local.h"

static int dist2(const uint8_t *pal, int i, int r, int g, int b)
{
    int dr = pal[i * 3] - r, dg = pal[i * 3 + 1] - g, db = pal[i * 3 + 2] - b;
    return dr * dr + dg * dg + db * db;
}

// The tables on a grey-ramp palette: an entry per mode with its real value.
static void test_tables(void **state)
{
    (void)state;
    static r_hlmodes_t hl;
    r_hl_build(&hl, tu_palette());
    assert_true(hl.ready);
    // measured (info --json reports it); how fast is make bench's business, not this test's
    assert_true(hl.build_ms >= 0 && hl.build_ms < 600000);
    // alpha 2/5 (amount 96, a c1a0 window): 200 over 50 -> 50 + 150 * 102/256 = 109.8 -> the cell of 104..111
    const uint8_t *a = r_hl_table(&hl, HL_BLEND_ALPHA, 96);
    assert_ptr_equal(a, hl.alpha[1]);
    assert_int_equal(a[200 * 256 + 50], 108);
    // additive 1/2 (amount 128): 50 + 200 / 2 = 150 -> 148 (the 5-bit cell's centre)
    const uint8_t *ad = r_hl_table(&hl, HL_BLEND_ADD, 128);
    assert_ptr_equal(ad, hl.add[HL_ADD_LOW + 1]);
    assert_int_equal(ad[200 * 256 + 50], 148);
    // the low additive levels (issue 14): 1/64 .. 1/8 by the nearest power of two, 2 and less nothing
    assert_null(r_hl_table(&hl, HL_BLEND_ADD, 2));
    assert_ptr_equal(r_hl_table(&hl, HL_BLEND_ADD, 3), hl.add[0]);
    assert_ptr_equal(r_hl_table(&hl, HL_BLEND_ADD, 11), hl.add[1]);
    assert_ptr_equal(r_hl_table(&hl, HL_BLEND_ADD, 16), hl.add[2]);
    assert_ptr_equal(r_hl_table(&hl, HL_BLEND_ADD, 45), hl.add[3]);
    assert_ptr_equal(r_hl_table(&hl, HL_BLEND_ADD, 46), hl.add[HL_ADD_LOW]);   // 1/4 from here up, as before
    assert_ptr_equal(r_hl_table(&hl, HL_BLEND_ADD, 95), hl.add[HL_ADD_LOW]);
    // the level's share is within a factor 1.42 of the amount's below 1/4; from there the quarters as
    // before (95 is drawn at 1/4: 1.49)
    for (int amt = 3; amt <= 255; amt++) {
        double f = r_hl_add_frac(r_hl_add_level(amt)) / 256.0, want = amt / 255.0, k = amt < 64 ? 1.42 : 1.5;
        assert_true(f < want * k && f > want / k);
    }
    // amount 16 adds 1/16 of the texel: over the darker half of the ramp, texel 240 adds 15 on the
    // mean (the 5-bit cells' rounding, +-4 a pixel, averages out to +0.5); texel 96 adds 6
    const uint8_t *a16 = r_hl_table(&hl, HL_BLEND_ADD, 16);
    const int texel[2] = {240, 96};
    for (int k = 0; k < 2; k++) {
        int sum = 0, worst = 0;
        for (int d = 0; d < 128; d++) {
            int added = a16[texel[k] * 256 + d] - d, err = abs(added - texel[k] / 16);
            sum += added;
            worst = err > worst ? err : worst;
        }
        print_message("amount 16, texel %d: adds %.2f on the mean (1/16: %.2f), at worst %d off\n", texel[k],
                      sum / 128.0, texel[k] / 16.0, worst);
        assert_true(fabs(sum / 128.0 - texel[k] / 16.0) <= 1.0);
        assert_true(worst <= 4);   // half a 5-bit cell
    }
    // the 1/64 level still adds something to a bright texel (240 / 64 = 3.75: half the pixels move)
    int moved = 0;
    for (int d = 0; d < 128; d++)
        moved += hl.add[0][240 * 256 + d] != (d >> 3 << 3 | 4);
    assert_true(moved >= 32 && moved <= 96);
    // additive at full: saturates below 255 (255 is the see-through index)
    assert_int_equal(r_hl_table(&hl, HL_BLEND_ADD, 255)[200 * 256 + 200], 252);
    // amounts: 0 not drawn, near 255 opaque
    assert_null(r_hl_table(&hl, HL_BLEND_ALPHA, 0));
    assert_int_equal(r_hl_alpha_level(250), HL_ALPHA_LEVELS + 1);
    assert_null(r_hl_table(&hl, HL_BLEND_ALPHA, 250));
    // index-alpha: index 0 leaves the pixel, 254 is (almost) the colour
    const uint8_t red[3] = {255, 0, 0};
    const uint8_t *ia = r_hl_indexalpha(&hl, red, 255);
    assert_non_null(ia);
    assert_int_equal(ia[0 * 256 + 80], 80);
    assert_true(dist2(tu_palette(), ia[254 * 256 + 0], 85, 85, 85) <= 3 * 8 * 8);   // red on grey: 255 x (.30 .59 .11) ~ grey 85
    assert_ptr_equal(r_hl_indexalpha(&hl, red, 255), ia);   // cached
    // every table entry is within one 5-bit cell of the true mix (grey ramp: exact greys)
    for (int s = 0; s < 256; s += 17)
        for (int d = 0; d < 256; d += 13) {
            int m = (s * 153 + d * 103) >> 8;   // alpha 3/5
            assert_true(dist2(tu_palette(), hl.alpha[2][s * 256 + d], m, m, m) <= 3 * 8 * 8);
        }
}

// renderfx amounts by the engine's rules, at given times (entity number as phase)
static void test_fx_amounts(void **state)
{
    (void)state;
    entity_state_t s;
    entity_state_clear(&s);
    s.rendermode = RM_TEXTURE;
    s.renderamt = 128;
    s.renderfx = HL_FX_PULSE_SLOW_WIDE;   // 128 + 64 sin(2t + 5 * 363)
    assert_int_equal(r_hl_fx_amount(&s, 5, 1.0, 0, NULL, NULL, NULL), 186);
    s.renderamt = 200;
    s.renderfx = HL_FX_PULSE_FAST;        // 200 + 16 sin(8t + 7 * 363)
    assert_int_equal(r_hl_fx_amount(&s, 7, 3.0, 0, NULL, NULL, NULL), 215);
    s.renderfx = HL_FX_STROBE_SLOW;       // 20 sin(4t + 9 * 363) < 0: off
    assert_int_equal(r_hl_fx_amount(&s, 9, 0.5, 0, NULL, NULL, NULL), 200);
    assert_int_equal(r_hl_fx_amount(&s, 9, 1.0, 0, NULL, NULL, NULL), 0);
    s.renderfx = HL_FX_NONE;
    s.renderamt = 300;                    // clamped
    assert_int_equal(r_hl_fx_amount(&s, 1, 0, 0, NULL, NULL, NULL), 255);
    // hologram: amount 180 up to 100 units ahead, fading to 0 at 500, +-32 of noise
    s.renderfx = HL_FX_HOLOGRAM;
    s.renderamt = 20;
    float eye[3] = {0, 0, 0}, fwd[3] = {1, 0, 0}, near[3] = {50, 0, 0}, mid[3] = {300, 0, 0}, behind[3] = {-10, 0, 0};
    int an = r_hl_fx_amount(&s, 3, 1.0, 0, eye, fwd, near), am = r_hl_fx_amount(&s, 3, 1.0, 0, eye, fwd, mid);
    assert_true(an >= 180 - 32 && an <= 180 + 31);
    assert_true(am >= 90 - 32 && am <= 90 + 31);
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, 0, eye, fwd, behind), 0);
    // fades and solids: stepped each client frame (72 a second) since the state came, -1 / -4 / +1 / +4
    s.renderamt = 200;
    s.renderfx = HL_FX_FADE_SLOW;
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, 0, NULL, NULL, NULL), 200);
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, 0.1, NULL, NULL, NULL), 193);    // 7 frames
    s.renderfx = HL_FX_FADE_FAST;
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, 0.1, NULL, NULL, NULL), 172);
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, 1.0, NULL, NULL, NULL), 0);      // 288 down: at least 0
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, -1.0, NULL, NULL, NULL), 200);   // a clock going back: none
    s.renderfx = HL_FX_SOLID_SLOW;
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, 0.05, NULL, NULL, NULL), 203);
    s.renderfx = HL_FX_SOLID_FAST;
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, 0.05, NULL, NULL, NULL), 212);
    assert_int_equal(r_hl_fx_amount(&s, 3, 1.0, 1e30, NULL, NULL, NULL), 255);  // at most 255, however long
    // glow sprites: 19000 / d^2 between 0.05 and 1, scale d / 200
    float sc;
    assert_float_equal(r_hl_glow(100, &sc), 1.0, 1e-6);
    assert_float_equal(sc, 0.5, 1e-6);
    assert_float_equal(r_hl_glow(200, &sc), 0.475, 1e-6);
    assert_float_equal(r_hl_glow(2000, &sc), 0.05, 1e-6);
}

// The 255 mask on a z-tested span: '{' texels leave the pixel and its depth alone,
// and so do GoldSrc's table modes.
static void test_mask_span(void **state)
{
    (void)state;
    renderer_t *r = r_create(64, 40);
    world_t *w = world_create();
    w->view.origin_valid = 1;
    r_render(r, w, 0);
    memset(r->buffer, 7, 64 * 40);
    for (int i = 0; i < 64 * 40; i++)
        r->zbuffer[i] = 0.001f;
    static uint8_t block[sizeof(r_cached_t) + 64 * 40];
    r_cached_t *c = (r_cached_t *)block;
    memset(c, 0, sizeof *c);
    c->width = 64;
    c->height = 40;
    uint8_t *tex = (uint8_t *)(c + 1);
    for (int i = 0; i < 64 * 40; i++)
        tex[i] = (i & 1) ? 255 : 40;   // odd columns see-through
    d_surfgrad_t g = {0.005f, 0.01f, 0, 0.005f, 0, 0.01f, 0.01f, 0, 0, 0, 0, (64 << 16) - 1, (40 << 16) - 1, 3};
    r_span_t sp[1] = {{0, 5, 64, 0}};
    r->draw_mode = R_DRAW_MASKED;
    d_draw_spans_lit(r, &g, c, sp, 1, 1);
    for (int x = 0; x < 64; x++) {
        assert_int_equal(r->buffer[5 * 64 + x], (x & 1) ? 7 : 40);
        assert_float_equal(r->zbuffer[5 * 64 + x], (x & 1) ? 0.001f : 0.01f, 1e-6);
    }
    static uint8_t table[65536];
    for (int i = 0; i < 65536; i++)
        table[i] = (uint8_t)((i >> 8) / 2 + (i & 255) / 2);
    r->draw_mode = R_DRAW_TABLE;
    r->draw_table = table;
    sp[0].y = 6;
    d_draw_spans_lit(r, &g, c, sp, 1, 1);
    for (int x = 0; x < 64; x++) {
        assert_int_equal(r->buffer[6 * 64 + x], (x & 1) ? 7 : 20 + 3);   // 40/2 + 7/2
        assert_float_equal(r->zbuffer[6 * 64 + x], 0.001f, 1e-6);        // blends keep the depth
    }
    r->draw_mode = R_DRAW_OPAQUE;
    r_destroy(r);
    world_free(w);
}

// ---- c1a0 seen from chosen places ----------------------------------------------------

typedef struct {
    demo_t d;
    cli_t cli;
    player_t *p;
    renderer_t *r;
} scene_t;

static void scene_open(scene_t *sc, const char *demo, double t)
{
    memset(sc, 0, sizeof *sc);
    log_set_level(0);
    sc->cli.basedir = tu_data("goldsrc");
    sc->r = r_create(320, 200);
    assert_non_null(sc->r);
    assert_int_equal(demo_open(&sc->d, &sc->cli, tu_data(demo), NULL, 0), 0);
    sc->p = player_create(&sc->d, &sc->cli, sc->r, NULL, NULL);
    assert_non_null(sc->p);
    assert_true(player_advance(sc->p, t) >= 0);
}

static void scene_close(scene_t *sc)
{
    player_destroy(sc->p);
    demo_close(&sc->d);
    r_destroy(sc->r);
}

// Look from eye at target (the demo's world as it is, the view moved), write and compare a golden.
static void scene_view(scene_t *sc, const float *eye, const float *target, const char *name)
{
    world_t *w = sc->d.world;
    float d[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    w->view.origin_valid = 1;
    memcpy(w->view.origin, eye, sizeof(vec3_t));
    w->view.angles[0] = (float)(-atan2(d[2], sqrt(d[0] * d[0] + d[1] * d[1])) * 180.0 / M_PI);
    w->view.angles[1] = (float)(atan2(d[1], d[0]) * 180.0 / M_PI);
    w->view.angles[2] = 0;
    memset(w->view.punch, 0, sizeof w->view.punch);
    memset(w->view.prev_punch, 0, sizeof w->view.prev_punch);
    memcpy(w->view.prev_origin, w->view.origin, sizeof(vec3_t));
    memcpy(w->view.prev_angles, w->view.angles, sizeof(vec3_t));
    r_render(sc->r, w, w->time);
    char out[256], gold[256];
    snprintf(out, sizeof out, "build/test_goldsrc_modes_%s.png", name);
    snprintf(gold, sizeof gold, "tests/golden/goldsrc/%s.png", name);
    assert_int_equal(r_write_png(sc->r, out), 0);
    tu_golden(name, out, gold, 0.01);
}

static void test_golden_c1a0_modes(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    scene_t sc;
    scene_open(&sc, "goldsrc/demos/valve_c1a0.dem", 2.0);
    renderer_t *r = sc.r;
    assert_non_null(r->hl);
    assert_true(r->hl->ready);
    // the tram windows: func_walls in kRenderTransTexture at amount 96 (2/5 table)
    float weye[3] = {-690, -488, -135}, wtgt[3] = {-776, -488, -135};
    scene_view(&sc, weye, wtgt, "c1a0_window_transtexture");
    scene_close(&sc);
}

// A world '{' face (model 0's {fence2 in AllocBlock's in-bsp-texture-test map, textures
// inside the file): what is behind shows through the holes. c1a0 and crossfire have
// their '{' textures on brush entities only (grates, ladders, rails).
static void test_golden_world_fence(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = vfs_create();
    assert_non_null(fs);
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/test_assets")), 0);
    world_t *w = world_create();
    renderer_t *r = r_create(320, 200);
    w->game = GAME_GOLDSRC;
    snprintf(w->map, sizeof w->map, "maps/goldsrc-renderer/in-bsp-texture-test.bsp");
    world_set_model(w, 1, w->map);
    char err[256];
    assert_int_equal(r_load_level(r, fs, w, err, sizeof err), 0);
    const bsp_t *b = r->bsp;
    int found = -1;
    float eye[3], target[3];
    for (int i = 0; i < b->models[0].numfaces && found < 0; i++) {
        int fi = b->models[0].firstface + i;
        const bsp_face_t *f = &b->faces[fi];
        if (b->textures[b->texinfo[f->texinfo].texture].name[0] != '{')
            continue;
        float c[3] = {0, 0, 0}, n[3];
        for (int e = 0; e < f->numedges; e++) {
            int32_t se = b->surfedges[f->firstedge + e];
            const float *p = b->vertices[se >= 0 ? b->edges[se][0] : b->edges[-se][1]];
            for (int k = 0; k < 3; k++)
                c[k] += p[k] / (float)f->numedges;
        }
        for (int k = 0; k < 3; k++)
            n[k] = b->planes[f->plane].normal[k] * ((f->flags & BSP_SURF_PLANEBACK) ? -1.0f : 1.0f);
        for (int k = 0; k < 3; k++) {
            eye[k] = c[k] + n[k] * 128 + (k == 2 ? 16.0f : 0.0f);
            target[k] = c[k];
        }
        if (b->leafs[bsp_point_leaf(b, eye)].contents == BSP_CONTENTS_EMPTY)
            found = fi;
    }
    assert_true(found >= 0);
    assert_int_equal(r->faces[found].trans_mode, R_DRAW_MASKED);
    float d[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    w->view.origin_valid = 1;
    memcpy(w->view.origin, eye, sizeof(vec3_t));
    memcpy(w->view.prev_origin, eye, sizeof(vec3_t));
    w->view.angles[0] = (float)(-atan2(d[2], sqrt(d[0] * d[0] + d[1] * d[1])) * 180.0 / M_PI);
    w->view.angles[1] = (float)(atan2(d[1], d[0]) * 180.0 / M_PI);
    memcpy(w->view.prev_angles, w->view.angles, sizeof(vec3_t));
    world_begin_frame(w, 1.0);
    r_frame(r, w);
    r_render(r, w, 1.0);
    const char *out = "build/test_goldsrc_modes_world_fence.png";
    assert_int_equal(r_write_png(r, out), 0);
    tu_golden("world_fence", out, "tests/golden/goldsrc/world_fence.png", 0.01);
    r_destroy(r);
    world_free(w);
    vfs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_fx_amounts),
        cmocka_unit_test(test_mask_span),
        cmocka_unit_test(test_golden_c1a0_modes),
        cmocka_unit_test(test_golden_world_fence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
