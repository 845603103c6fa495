// test_goldsrc_bounce.c -- Half-Life's temp models hitting the world: the hits the shared
// simulation (engine/hltent.c) reports for a shell on c1a0's floor.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "engine/hltent.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_local.h"
#include "render/render.h"

extern const decoder_t hl_decoder;

#define TW 64
#define TH 48
#include "hl_level.h"

// TE_MODEL as the decoder logs it: pos, velocity, yaw, model, bounce sound type, life (0.1 s).
static void log_model(world_t *w, const vec3_t pos, const vec3_t vel, int model, int sound, int life, uint32_t seed)
{
    world_decal_t *d = world_add_decal(w);
    d->te = 106;
    memcpy(d->pos, pos, sizeof(vec3_t));
    memcpy(d->velocity, vel, sizeof(vec3_t));
    d->args[0] = 90;
    d->args[1] = model;
    d->args[2] = sound;
    d->args[3] = life;
    d->model = model;
    d->seed = seed;
}

static float floor_under(const bsp_t *b, const vec3_t p)
{
    vec3_t end = {p[0], p[1], p[2] - 512};
    bsp_trace_t tr;
    assert_int_equal(bsp_trace(b, b->models[0].headnode, p, end, &tr), 1);
    return tr.endpos[2];
}

#define MAX_HITS 64

// A shell thrown straight up 150 a second from 60 units ahead of c1a0's eye: it hits the floor
// at the step the hand-stepped fall says, with the speed it had, damped by half, bounces lower
// each time and stops flat (the last hit, damp 0); the hits are the same whether asked frame by
// frame or at once, and after a clear (a seek) a window gives exactly its own hits again.
static void test_shell_hits(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    const bsp_t *b = L.r->bsp;
    int shell = model_index(w, "models/shell.mdl");
    assert_int_equal(shell, 94);
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t0 = w->time;
    vec3_t pos, vel = {0, 0, 150};
    ahead(w, 60, 0, -10, pos);
    float fl = floor_under(b, pos);
    log_model(w, pos, vel, shell, 1, 25, 1234567);

    // the fall by hand: move, then gravity (800 x 0.01 a step); the floor is crossed at step k
    double z = pos[2], v = 150;
    int k = 0;
    while (z + v * 0.01 > fl) {
        z += v * 0.01;
        v -= 8;
        k++;
    }
    k++;   // the step that crosses it

    hltent_t *once = hltent_create(), *framed = hltent_create();
    assert_non_null(once);
    assert_non_null(framed);
    hltent_frame(once, b, w);
    hltent_frame(framed, b, w);
    hltent_bounce_t all[MAX_HITS], got[MAX_HITS], part[MAX_HITS];
    int n = hltent_bounces(once, b, t0 - 0.05, t0 + 3.0, all, MAX_HITS);
    printf("  shell from %.2f above the floor: %d hits\n", pos[2] - fl, n);
    for (int i = 0; i < n; i++)
        printf("    %.2f s  z %.2f  zvel %d  damp %.1f\n", all[i].time - t0, all[i].org[2], all[i].zvel, all[i].damp);
    assert_true(n >= 3 && n < 20);
    assert_float_equal(all[0].time, t0 + k * 0.01, 1e-9);
    assert_int_equal(all[0].zvel, (int)fabs(v));
    assert_true(fabsf(all[0].org[2] - fl) < 0.5f);
    assert_int_equal(all[0].hitsound, HLTENT_BOUNCE_SHELL);
    assert_float_equal(all[0].damp, 0.5, 0);
    for (int i = 1; i < n; i++) {
        assert_true(all[i].time > all[i - 1].time);
        assert_true(all[i].zvel < all[i - 1].zvel);   // lower each time
        assert_int_equal(all[i].id, all[0].id);
        assert_true(all[i].seed != all[i - 1].seed);  // each hit its own random numbers
    }
    assert_float_equal(all[n - 1].damp, 0, 0);        // it came to rest
    for (int i = 0; i < n - 1; i++)
        assert_float_equal(all[i].damp, 0.5, 0);
    // frame by frame (windows of 0.05 s): the same hits, each once
    int m = 0;
    for (double a = t0 - 0.05; a < t0 + 3.0; a += 0.05) {
        int c = hltent_bounces(framed, b, a, a + 0.05, got + m, MAX_HITS - m);
        for (int i = 0; i < c; i++)
            assert_true(got[m + i].time > a && got[m + i].time <= a + 0.05 + 1e-9);
        m += c;
    }
    assert_int_equal(m, n);
    for (int i = 0; i < n; i++) {
        assert_float_equal(got[i].time, all[i].time, 1e-9);
        assert_int_equal(got[i].zvel, all[i].zvel);
        assert_int_equal(got[i].seed, all[i].seed);
        assert_memory_equal(got[i].org, all[i].org, sizeof(vec3_t));
    }
    // a seek: cleared, nothing until the log is spawned again; then the window after the second
    // hit gives the hits in it, and the next window the rest
    hltent_clear(framed);
    assert_int_equal(hltent_bounces(framed, b, all[0].time, all[1].time + 0.001, part, MAX_HITS), 0);
    hltent_frame(framed, b, w);
    int c = hltent_bounces(framed, b, all[1].time - 0.001, all[2].time, part, MAX_HITS);
    assert_int_equal(c, 2);
    assert_float_equal(part[0].time, all[1].time, 1e-9);
    assert_float_equal(part[1].time, all[2].time, 1e-9);
    assert_int_equal(hltent_bounces(framed, b, all[2].time, t0 + 3.0, part, MAX_HITS), n - 3);
    // the renderer's pool: the shell lies where the last hit left it
    hltent_draw_t d[4];
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 2.0, d, 4), 0);   // not spawned there (no r_frame)
    r_frame(L.r, w);
    assert_int_equal(hltent_list(L.r->hltent, b, t0 + 2.0, d, 4), 1);
    assert_float_equal(d[0].org[2], all[n - 1].org[2], 1e-4);
    hltent_free(once);
    hltent_free(framed);
    close_level(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shell_hits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
