// test_quake2_ents.c -- Quake II's entity drawing rules (render/r_q2ent.c) pinned with the game's own numbers
#include "testutil.h"

#include <stdint.h>

#include "render/d_polyse.h"
#include "render/r_q2ent.h"

// The client's shells: quad blue (0xF3), pent red (0xF2), both purple-ish RB (0x68),
// double yellow (0xDF), half damage (0x90), power screen green (0xD0), others white.
static void test_shells(void **state)
{
    (void)state;
    assert_int_equal(r_q2_shell_bits(0, 0, 0), 0);
    assert_int_equal(r_q2_shell_bits(Q2EF_QUAD, 0, 0), Q2RF_SHELL_BLUE);
    assert_int_equal(r_q2_shell_color(r_q2_shell_bits(Q2EF_QUAD, 0, 0)), 0xF3);
    assert_int_equal(r_q2_shell_color(r_q2_shell_bits(Q2EF_PENT, 0, 0)), 0xF2);
    assert_int_equal(r_q2_shell_color(r_q2_shell_bits(Q2EF_PENT | Q2EF_QUAD, 0, 0)), 0x68);
    assert_int_equal(r_q2_shell_color(r_q2_shell_bits(Q2EF_DOUBLE, 0, 0)), 0xDF);
    assert_int_equal(r_q2_shell_color(r_q2_shell_bits(Q2EF_HALF_DAMAGE, 0, 0)), 0x90);
    assert_int_equal(r_q2_shell_color(Q2RF_SHELL_GREEN), 0xD0);
    assert_int_equal(r_q2_shell_color(Q2RF_SHELL_RED | Q2RF_SHELL_GREEN | Q2RF_SHELL_BLUE), 0xD7);
    // EF_COLOR_SHELL takes the renderfx's shell bits
    assert_int_equal(r_q2_shell_bits(Q2EF_COLOR_SHELL, Q2RF_SHELL_GREEN | Q2RF_FULLBRIGHT, 0), Q2RF_SHELL_GREEN);
    // the rogue pack: double with red turns purple (red + blue), no yellow
    assert_int_equal(r_q2_shell_bits(Q2EF_DOUBLE | Q2EF_PENT, 0, 1), Q2RF_SHELL_RED | Q2RF_SHELL_BLUE);
    assert_int_equal(r_q2_shell_bits(Q2EF_DOUBLE | Q2EF_PENT, 0, 0), Q2RF_SHELL_RED | Q2RF_SHELL_DOUBLE);
    // a shell's alpha 0.30 fills through the 33 % table; it stands 4 units out
    assert_int_equal(r_q2_flat_alpha_mode(Q2_SHELL_ALPHA), Q2_ALPHA_33);
    assert_true(Q2_POWERSUIT_SCALE == 4.0f);
}

// ref_soft's span choice: a model above 0.66 is opaque, above 0.33 at 66 %, else 33 %;
// RF_TRANSLUCENT's 0.70 is therefore drawn solid (in the second pass), the BFG ball at 33 %.
// (float) on the constants: with x87 floats (make pentium, FLT_EVAL_METHOD 2) a bare 0.70f
// is evaluated as the long double 0.7 and equals no float.
static void test_alpha(void **state)
{
    (void)state;
    assert_true(r_q2_entity_alpha(0, 0) == 1.0f);
    assert_true(r_q2_entity_alpha(0, Q2RF_TRANSLUCENT) == (float)0.70f);
    assert_true(r_q2_entity_alpha(0, Q2RF_TRANSLUCENT | Q2RF_BEAM) == 1.0f);
    assert_true(r_q2_entity_alpha(Q2EF_BFG, 0) == (float)0.30f);
    assert_true(r_q2_entity_alpha(Q2EF_PLASMA, 0) == (float)0.6f);
    assert_true(r_q2_entity_alpha(Q2EF_SPHERETRANS, 0) == (float)0.3f);
    assert_true(r_q2_entity_alpha(Q2EF_SPHERETRANS | Q2EF_TRACKERTRAIL, 0) == (float)0.6f);
    assert_int_equal(r_q2_alpha_mode(0.70f), Q2_ALPHA_OPAQUE);
    assert_int_equal(r_q2_alpha_mode(0.6f), Q2_ALPHA_66);
    assert_int_equal(r_q2_alpha_mode(0.375f), Q2_ALPHA_66);
    assert_int_equal(r_q2_alpha_mode(0.3125f), Q2_ALPHA_33);
    assert_int_equal(r_q2_alpha_mode(0.30f), Q2_ALPHA_33);
}

// Light: full bright is 255 (ambient 128, shade 64 after the clamps), minlight at least 25.
static void test_light(void **state)
{
    (void)state;
    assert_int_equal(r_q2_model_light(40, 0, 0), 40);
    assert_int_equal(r_q2_model_light(40, Q2RF_FULLBRIGHT, 0), 255);
    assert_int_equal(r_q2_model_light(3, Q2RF_MINLIGHT, 0), 25);
    assert_int_equal(r_q2_model_light(100, Q2RF_MINLIGHT, 0), 100);
    // glow: 0.1 * sin(7 t) added, never below 0.8 of the light
    int lo = r_q2_model_light(100, Q2RF_GLOW, 3 * 3.14159265 / 14), hi = r_q2_model_light(100, Q2RF_GLOW, 3.14159265 / 14);
    assert_int_equal(lo, 80);
    assert_int_equal(hi, 125);
}

// A laser's colour is one byte of its skin number (the game's target_laser: 0xf2f2f0f0 red).
static void test_beam_color(void **state)
{
    (void)state;
    int32_t red = (int32_t)0xf2f2f0f0u;
    assert_int_equal(r_q2_beam_color(red, 0), 0xf0);
    assert_int_equal(r_q2_beam_color(red, 1), 0xf0);
    assert_int_equal(r_q2_beam_color(red, 2), 0xf2);
    assert_int_equal(r_q2_beam_color(red, 3), 0xf2);
}

// The rocket explosion: orange skins 0..4 two frames each, then skin 5 at 66 % (f 10),
// 33 % after, skin 6 from frame 13, gone at 14; grenades (19 frames) last to frame 17.
static void test_explosion(void **state)
{
    (void)state;
    int skin;
    float a;
    assert_true(r_q2_explosion_look(1, 15, &skin, &a) && skin == 0 && a == 1.0f);
    assert_true(r_q2_explosion_look(9, 15, &skin, &a) && skin == 4 && a == 1.0f);
    assert_true(r_q2_explosion_look(10, 15, &skin, &a) && skin == 5);
    assert_int_equal(r_q2_alpha_mode(a), Q2_ALPHA_66);
    assert_true(r_q2_explosion_look(11, 15, &skin, &a) && skin == 5);
    assert_int_equal(r_q2_alpha_mode(a), Q2_ALPHA_33);
    assert_true(r_q2_explosion_look(13, 15, &skin, &a) && skin == 6);
    assert_false(r_q2_explosion_look(14, 15, &skin, &a));
    assert_true(r_q2_explosion_look(17, 19, &skin, &a) && skin == 6);
    assert_false(r_q2_explosion_look(18, 19, &skin, &a));
}

// D_FLAT through a table: the colour at [c * 256 + dst] (alpha66 0) or [dst * 256 + c],
// z tested, z not written.
static void test_flat_span(void **state)
{
    (void)state;
    static uint8_t amap[256 * 256];
    for (int a = 0; a < 256; a++)
        for (int b = 0; b < 256; b++)
            amap[a * 256 + b] = (uint8_t)(a == 7 ? 100 + (b & 15) : 200);
    uint8_t buf[16 * 16];
    float z[16 * 16];
    for (int i = 0; i < 256; i++) {
        buf[i] = 3;
        z[i] = (i % 16) < 8 ? 0.0f : 10.0f;   // the right half is nearer than the triangle
    }
    uint8_t col = 7;
    d_polyctx_t c = {buf, 16, 16, 16, z, &col, 1, 1, NULL, D_FLAT, amap, 0, 0, 0};
    d_vert_t p[3] = {{0, 0, 0.5f, 0, 0, 0}, {16, 0, 0.5f, 0, 0, 0}, {0, 16, 0.5f, 0, 0, 0}};
    d_poly_triangle(&c, &p[0], &p[1], &p[2]);
    assert_int_equal(buf[0], 103);     // blended: amap[7 * 256 + 3]
    assert_true(z[0] == 0.0f);         // z kept
    assert_int_equal(buf[9], 3);       // hidden behind the nearer half
    assert_int_equal(buf[15 * 16 + 15], 3);   // outside the triangle
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shells),     cmocka_unit_test(test_alpha),     cmocka_unit_test(test_light),
        cmocka_unit_test(test_beam_color), cmocka_unit_test(test_explosion), cmocka_unit_test(test_flat_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
