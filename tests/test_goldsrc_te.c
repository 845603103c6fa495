// test_goldsrc_te.c -- Half-Life's temp entities that r_hlfx.c and engine/hltent.c draw by the
// engine's efx rules: lava splash, teleport, explosion2, implosion, sprite trail, funnel, sprays,
// player sprites and attachments, fire field, kill beam (the pools' values), the explode-model
// shower and projectiles (temp models on c1a0's floor and walls), and a golden of c1a0 with
// several of them, whose changed pixels lie in the boxes where they project.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hlfx.h"
#include "render/r_hlmodes.h"
#include "engine/hlbullet.h"
#include "engine/hltent.h"
#include "render/r_local.h"
#include "render/render.h"

extern const decoder_t hl_decoder;

#define TW 320
#define TH 200

static world_fx_event_t *tempent(world_t *w, int type, float x, float y, float z)
{
    world_event_t *ev = world_add_event(w, EV_TEMPENT);
    assert_non_null(ev);
    ev->u.fx.raw_type = type;
    ev->u.fx.origin[0] = x;
    ev->u.fx.origin[1] = y;
    ev->u.fx.origin[2] = z;
    return &ev->u.fx;
}

// A world with models 1..9 precached (9 a sprite), player 1 at (10, 20, 30) in this frame.
static world_t *small_world(double t)
{
    world_t *w = world_create();
    w->game = GAME_GOLDSRC;
    w->maxclients = 8;
    for (int i = 1; i < 10; i++) {
        char name[32];
        snprintf(name, sizeof name, "sprites/s%d.spr", i);
        world_set_model(w, i, name);
    }
    world_begin_frame(w, t);
    entity_state_t st;
    memset(&st, 0, sizeof st);
    st.origin[0] = 10;
    st.origin[1] = 20;
    st.origin[2] = 30;
    st.modelindex = 1;
    world_entity_update(w, 1, &st);
    return w;
}

static void next_frame(world_t *w, double t, float player_x)
{
    world_begin_frame(w, t);
    entity_state_t st;
    memset(&st, 0, sizeof st);
    st.origin[0] = player_x;
    st.origin[1] = 20;
    st.origin[2] = 30;
    st.modelindex = 1;
    world_entity_update(w, 1, &st);
}

static int same_rgb(const uint8_t *a, const uint8_t *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static r_hlparticle_t parts[HLFX_MAX_PARTICLES];

// The particle palette: Quake's rows (the anchors are exact, the rest between them).
static void test_palette(void **state)
{
    (void)state;
    uint8_t c[3];
    r_hlfx_palette(224, c);   // lava's first: dark red
    assert_int_equal(c[0], 43);
    assert_int_equal(c[1], 0);
    assert_int_equal(c[2], 0);
    r_hlfx_palette(231, c);
    assert_int_equal(c[0], 163);
    assert_int_equal(c[1], 39);
    assert_int_equal(c[2], 11);
    r_hlfx_palette(15, c);
    assert_int_equal(c[0], 235);
    r_hlfx_palette(7, c);     // the teleport's first grey
    assert_int_equal(c[0], 107);
    assert_int_equal(c[0], c[2]);
    r_hlfx_palette(111, c);   // ramp1's bright yellow
    assert_true(c[0] == 255 && c[1] == 243 && c[2] == 27);
    r_hlfx_palette(3, c);     // between 0 and 107: 3/7 of the way
    assert_int_equal(c[0], (107 * 3 + 3) / 7);
    r_hlfx_palette(-1, c);    // wraps to 255, no out-of-bounds read
    r_hlfx_palette(100000, c);
}

// The particle effects: counts, colours, lives and where they are after a while.
static void test_particle_effects(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    world_t *w = small_world(1.0);

    // TE_LAVASPLASH: 32 x 32 drops, lava colours, 2..2.62 s, thrown up from at most 63 above
    tempent(w, 10, 100, 200, 300);
    r_hlfx_frame(fx, w, 1.0, 11);
    assert_int_equal(r_hlfx_num_particles(fx, 1.0), 1024);
    assert_int_equal(r_hlfx_num_particles(fx, 2.999), 1024);
    assert_int_equal(r_hlfx_num_particles(fx, 3.63), 0);
    uint8_t lava[8][3];
    for (int i = 0; i < 8; i++)
        r_hlfx_palette(224 + i, lava[i]);
    int n = r_hlfx_particles(fx, 1.0, parts, HLFX_MAX_PARTICLES);
    assert_int_equal(n, 1024);
    for (int i = 0; i < n; i++) {
        int ok = 0;
        for (int k = 0; k < 8; k++)
            ok |= same_rgb(parts[i].color, lava[k]);
        assert_true(ok);
        assert_true(parts[i].org[0] >= 100 - 128 && parts[i].org[0] <= 100 + 128);
        assert_true(parts[i].org[2] >= 300 && parts[i].org[2] <= 363);
        assert_true(parts[i].vel[2] > 0);
        // a second later: up by its speed, down 20 (slow gravity 40 / s^2)
        vec3_t o;
        r_hlfx_particle_at(&parts[i], 1.0f, o);
        assert_float_equal(o[2], parts[i].org[2] + parts[i].vel[2] - 20, 1e-3);
    }

    // TE_TELEPORT: 8 x 8 x 14 grey sparks, 0.2..0.34 s
    r_hlfx_clear(fx);
    next_frame(w, 5.0, 10);
    tempent(w, 11, 0, 0, 0);
    r_hlfx_frame(fx, w, 5.0, 12);
    assert_int_equal(r_hlfx_num_particles(fx, 5.19), 896);
    assert_int_equal(r_hlfx_num_particles(fx, 5.35), 0);
    n = r_hlfx_particles(fx, 5.0, parts, HLFX_MAX_PARTICLES);
    int still = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(parts[i].color[0], parts[i].color[2]);   // the grey row
        float sp = sqrtf(parts[i].vel[0] * parts[i].vel[0] + parts[i].vel[1] * parts[i].vel[1] +
                         parts[i].vel[2] * parts[i].vel[2]);
        still += sp == 0;   // the one at the grid's centre has no direction to fly
        assert_true(sp == 0 || (sp >= 49.9f && sp <= 113.1f));
    }
    assert_int_equal(still, 1);

    // TE_EXPLOSION2 colours 100..103 in turn: 512 blobs for 0.3 s; GoldSrc's pt_blob: the spark
    // ramp, the speed falling by half of itself a second (e^-0.5t), 5 x slow gravity (200 u/s^2)
    r_hlfx_clear(fx);
    next_frame(w, 6.0, 10);
    world_fx_event_t *e = tempent(w, 12, 0, 0, 0);
    e->args[0] = 100;
    e->args[1] = 4;
    r_hlfx_frame(fx, w, 6.0, 13);
    n = r_hlfx_particles(fx, 6.0, parts, HLFX_MAX_PARTICLES);
    assert_int_equal(n, 512);
    assert_int_equal(r_hlfx_num_particles(fx, 6.31), 0);
    for (int i = 0; i < n; i++) {
        uint8_t want[3];
        r_hlfx_palette(100 + i % 4, want);
        assert_true(same_rgb(parts[i].color, want));
        assert_int_equal(parts[i].ramp, HLFX_RAMP_SPARK);
        assert_float_equal(parts[i].gravity, 200, 1e-6);
        vec3_t o;
        r_hlfx_particle_at(&parts[i], 0.25f, o);
        // 0.25 s: (1 - e^-0.125) / 0.5 = 0.23500 of its first speed's second (Quake's growing
        // blob went 0.4296), and 0.5 x 200 x 0.25^2 = 6.25 down
        assert_float_equal(o[0], parts[i].org[0] + parts[i].vel[0] * 0.23500f, 1e-2);
        assert_float_equal(o[2], parts[i].org[2] + parts[i].vel[2] * 0.23500f - 6.25f, 1e-2);
    }

    // TE_IMPLOSION radius 100, 50 tracers, 1 s: from at most 100 around and above to the point
    r_hlfx_clear(fx);
    next_frame(w, 7.0, 10);
    e = tempent(w, 14, 50, 60, 70);
    e->args[0] = 100;
    e->args[1] = 50;
    e->args[2] = 10;
    r_hlfx_frame(fx, w, 7.0, 14);
    n = r_hlfx_particles(fx, 7.0, parts, HLFX_MAX_PARTICLES);
    assert_int_equal(n, 50);
    for (int i = 0; i < n; i++) {
        assert_true(parts[i].org[2] >= 70 && parts[i].org[2] <= 170);
        assert_true(fabsf(parts[i].org[0] - 50) <= 100);
        vec3_t o;
        r_hlfx_particle_at(&parts[i], 1.0f, o);
        assert_float_equal(o[0], 50, 1e-2);
        assert_float_equal(o[1], 60, 1e-2);
        assert_float_equal(o[2], 70, 1e-2);
    }
    assert_int_equal(r_hlfx_num_particles(fx, 8.0), 0);

    // TE_LARGEFUNNEL: 256 green particles flowing down into the point, 256 glow sprites
    r_hlfx_clear(fx);
    next_frame(w, 8.0, 10);
    e = tempent(w, 100, 0, 0, 0);
    e->args[0] = 9;
    r_hlfx_frame(fx, w, 8.0, 15);
    n = r_hlfx_particles(fx, 8.0, parts, HLFX_MAX_PARTICLES);
    assert_int_equal(n, 256);
    static r_hlsprite_t sp[HLFX_MAX_SPRITES + 1];
    assert_int_equal(r_hlfx_sprites(fx, 8.0, sp, HLFX_MAX_SPRITES + 1), 256);
    assert_int_equal(sp[0].rendermode, RM_GLOW);
    assert_int_equal(sp[0].amount, 200);
    for (int i = 0; i < n; i++) {
        assert_true(parts[i].org[2] >= 100 && parts[i].org[2] <= 800);
        vec3_t o;
        float life = parts[i].die - parts[i].birth;
        r_hlfx_particle_at(&parts[i], life, o);
        assert_true(fabsf(o[0]) < 0.5f && fabsf(o[1]) < 0.5f && fabsf(o[2]) < 0.5f);
        // green: Half-Life's particle palette's 244 (Quake's is light blue)
        assert_true(parts[i].color[0] == 0 && parts[i].color[1] == 255 && parts[i].color[2] == 0);
    }
    // no sprite model: the particles only
    r_hlfx_clear(fx);
    next_frame(w, 9.0, 10);
    e = tempent(w, 100, 0, 0, 0);
    e->args[0] = 500;
    r_hlfx_frame(fx, w, 9.0, 15);
    assert_int_equal(r_hlfx_num_particles(fx, 9.0), 256);
    assert_int_equal(r_hlfx_sprites(fx, 9.0, sp, HLFX_MAX_SPRITES + 1), 0);

    // hostile: not finite, nothing
    r_hlfx_clear(fx);
    next_frame(w, 10.0, 10);
    tempent(w, 10, NAN, 0, 0);
    tempent(w, 11, 0, INFINITY, 0);
    e = tempent(w, 12, 0, 0, 1e30f);
    e->args[1] = 0;
    r_hlfx_frame(fx, w, 10.0, 16);
    assert_int_equal(r_hlfx_num_particles(fx, 10.0), 0);
    // explosion2 with no colour count: one colour
    e = tempent(w, 12, 0, 0, 0);
    e->args[0] = 255;
    e->args[1] = 0;
    r_hlfx_frame(fx, w, 10.0, 16);
    assert_int_equal(r_hlfx_num_particles(fx, 10.0), 512);
    r_hlfx_destroy(fx);
    world_free(w);
}

// The sprite effects: trail, sprays, fire field, player sprites and attachments, kill beam.
static void test_sprite_effects(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    world_t *w = small_world(1.0);
    static r_hlsprite_t sp[HLFX_MAX_SPRITES + 1];

    // TE_SPRITETRAIL (0,0,0) -> (100,0,0): 5 glow sprites on the line, no speed, falling slowly
    world_fx_event_t *e = tempent(w, 15, 0, 0, 0);
    e->end[0] = 100;
    e->args[0] = 9;
    e->args[1] = 5;
    e->args[2] = 10;   // life 1 s (+ 0..4 s, + 2 s of fading)
    e->args[3] = 5;    // scale 0.5
    r_hlfx_frame(fx, w, 1.0, 21);
    int n = r_hlfx_sprites(fx, 1.5, sp, HLFX_MAX_SPRITES + 1);
    assert_int_equal(n, 5);
    for (int i = 0; i < n; i++) {
        assert_float_equal(sp[i].org[0], 25.0 * i, 1e-3);
        assert_float_equal(sp[i].org[2], -0.5 * 400 * 0.25, 1e-3);   // half sv_gravity
        assert_float_equal(sp[i].scale, 0.5, 1e-6);
        assert_int_equal(sp[i].rendermode, RM_GLOW);
        assert_int_equal(sp[i].anim, HLFX_ANIM_LOOP);
        assert_int_equal(sp[i].amount, 255);
    }
    assert_int_equal(r_hlfx_sprites(fx, 2.99, sp, HLFX_MAX_SPRITES + 1), 5);
    assert_int_equal(r_hlfx_sprites(fx, 8.01, sp, HLFX_MAX_SPRITES + 1), 0);
    // bad sprite index: nothing
    r_hlfx_clear(fx);
    next_frame(w, 1.0, 10);
    e = tempent(w, 15, 0, 0, 0);
    e->args[0] = 10;   // not precached
    e->args[1] = 5;
    r_hlfx_frame(fx, w, 1.0, 21);
    assert_int_equal(r_hlfx_sprites(fx, 1.0, sp, HLFX_MAX_SPRITES + 1), 0);

    // TE_SPRITE_SPRAY straight up at 2 x 50, no noise: 10 glow sprites 0.8..1.2 x 100 u/s, 0.35 s + 0.5 s fading
    r_hlfx_clear(fx);
    next_frame(w, 2.0, 10);
    e = tempent(w, 110, 0, 0, 0);
    e->dir[2] = 1;
    e->args[0] = 9;
    e->args[1] = 10;
    e->args[2] = 50;
    r_hlfx_frame(fx, w, 2.0, 22);
    n = r_hlfx_sprites(fx, 2.1, sp, HLFX_MAX_SPRITES + 1);
    assert_int_equal(n, 10);
    for (int i = 0; i < n; i++) {
        assert_true(sp[i].org[2] >= 8 - 2 - 1e-3 && sp[i].org[2] <= 12 - 2 + 1e-3);
        assert_float_equal(sp[i].org[0], 0, 1e-6);
        assert_int_equal(sp[i].rendermode, RM_GLOW);
    }
    n = r_hlfx_sprites(fx, 2.6, sp, HLFX_MAX_SPRITES + 1);
    assert_int_equal(n, 10);
    assert_int_equal(sp[0].amount, (int)(255 * 0.25f / 0.5f));   // fading: 0.25 s of 0.5 left
    assert_int_equal(r_hlfx_sprites(fx, 2.86, sp, HLFX_MAX_SPRITES + 1), 0);

    // TE_SPRAY in additive mode: 3 sprites, frames held, 0.35 s; a render mode out of range is normal
    r_hlfx_clear(fx);
    next_frame(w, 2.0, 10);
    e = tempent(w, 120, 0, 0, 0);
    e->dir[0] = 1;
    e->args[0] = 9;
    e->args[1] = 3;
    e->args[2] = 100;
    e->args[4] = RM_ADDITIVE;
    e = tempent(w, 120, 0, 0, 0);
    e->args[0] = 9;
    e->args[1] = 2;
    e->args[4] = 77;
    r_hlfx_frame(fx, w, 2.0, 23);
    n = r_hlfx_sprites(fx, 2.3, sp, HLFX_MAX_SPRITES + 1);
    assert_int_equal(n, 5);
    assert_int_equal(sp[0].rendermode, RM_ADDITIVE);
    assert_int_equal(sp[0].anim, HLFX_ANIM_HOLD);
    assert_true(sp[0].org[0] > 0.3 * 80 - 1e-3);
    assert_int_equal(sp[4].rendermode, RM_NORMAL);
    assert_int_equal(r_hlfx_sprites(fx, 2.36, sp, HLFX_MAX_SPRITES + 1), 0);

    // TE_FIREFIELD radius 32, 20 sprites, planar + additive, 1 s (0.75 .. 1.5): at 80, on the plane
    r_hlfx_clear(fx);
    next_frame(w, 3.0, 10);
    e = tempent(w, 123, 100, 100, 50);
    e->args[0] = 32;
    e->args[1] = 9;
    e->args[2] = 20;
    e->args[3] = 16 | 32;
    e->args[4] = 10;
    e = tempent(w, 123, 100, 100, 50);   // planar, alpha-tested, looping, all drifting up
    e->args[0] = 32;
    e->args[1] = 9;
    e->args[2] = 4;
    e->args[3] = 16 | 8 | 4 | 1;
    e->args[4] = 10;
    e = tempent(w, 123, 100, 100, 50);   // radius 0 or negative: nothing
    e->args[0] = -5;
    e->args[1] = 9;
    e->args[2] = 20;
    r_hlfx_frame(fx, w, 3.0, 24);
    n = r_hlfx_sprites(fx, 3.0, sp, HLFX_MAX_SPRITES + 1);
    assert_int_equal(n, 24);
    for (int i = 0; i < 20; i++) {
        assert_int_equal(sp[i].rendermode, RM_ADDITIVE);
        assert_int_equal(sp[i].amount, 80);
        assert_int_equal(sp[i].anim, HLFX_ANIM_SPREAD);
        assert_float_equal(sp[i].org[2], 50, 1e-6);
        assert_true(fabsf(sp[i].org[0] - 100) <= 32 && fabsf(sp[i].org[1] - 100) <= 32);
    }
    for (int i = 20; i < 24; i++) {
        assert_int_equal(sp[i].rendermode, RM_SOLID);
        assert_int_equal(sp[i].amount, 128);
        assert_int_equal(sp[i].anim, HLFX_ANIM_LOOP);
    }
    assert_int_equal(r_hlfx_sprites(fx, 3.74, sp, HLFX_MAX_SPRITES + 1), 24);
    n = r_hlfx_sprites(fx, 3.5, sp, HLFX_MAX_SPRITES + 1);
    for (int i = 20; i < 24; i++)
        assert_true(sp[i].org[2] > 50 + 10 * 0.5 - 1e-3 && sp[i].org[2] < 50 + 30 * 0.5 + 1e-3);
    for (int i = 0; i < 20; i++)   // the whole animation over the life: half way or less at 0.5 s
        assert_true(sp[i].frame > 0.33f && sp[i].frame < 0.67f);
    assert_int_equal(r_hlfx_sprites(fx, 4.51, sp, HLFX_MAX_SPRITES + 1), 0);

    // TE_PLAYERATTACHMENT: 40 over player 1, following it; none for a player not here or out of range
    r_hlfx_clear(fx);
    next_frame(w, 4.0, 10);
    e = tempent(w, 124, 0, 0, 0);
    e->args[0] = 1;
    e->args[1] = 9;
    e->args[2] = 50;
    e->pos3[2] = 40;
    e = tempent(w, 124, 0, 0, 0);
    e->args[0] = 3;   // not in this frame
    e->args[1] = 9;
    e->args[2] = 50;
    e = tempent(w, 124, 0, 0, 0);
    e->args[0] = 200;   // beyond maxclients
    e->args[1] = 9;
    e->args[2] = 50;
    // TE_PLAYERSPRITES: 5 around player 1, the first flies off, four stay with it
    e = tempent(w, 121, 0, 0, 0);
    e->args[0] = 1;
    e->args[1] = 9;
    e->args[2] = 5;
    r_hlfx_frame(fx, w, 4.0, 25);
    n = r_hlfx_sprites(fx, 4.0, sp, HLFX_MAX_SPRITES + 1);
    assert_int_equal(n, 6);
    assert_float_equal(sp[0].org[0], 10, 1e-6);
    assert_float_equal(sp[0].org[2], 70, 1e-6);
    assert_int_equal(sp[0].anim, HLFX_ANIM_LOOP);
    float x1 = sp[2].org[0];
    next_frame(w, 4.1, 110);   // the player moved 100 along x
    r_hlfx_frame(fx, w, 4.1, 26);
    n = r_hlfx_sprites(fx, 4.1, sp, HLFX_MAX_SPRITES + 1);
    assert_int_equal(n, 6);
    assert_float_equal(sp[0].org[0], 110, 1e-6);
    assert_float_equal(sp[0].org[2], 70, 1e-6);
    assert_float_equal(sp[2].org[0], x1 + 100, 1e-3);
    assert_true(fabsf(sp[1].org[0] - 10) < 20);   // the first of the five flew off on its own
    // TE_KILLPLAYERATTACHMENTS of player 2: nothing; of player 1: its attached ones end
    next_frame(w, 4.2, 110);
    tempent(w, 125, 0, 0, 0)->args[0] = 2;
    r_hlfx_frame(fx, w, 4.2, 27);
    assert_int_equal(r_hlfx_sprites(fx, 4.2, sp, HLFX_MAX_SPRITES + 1), 6);
    next_frame(w, 4.3, 110);
    tempent(w, 125, 0, 0, 0)->args[0] = 1;
    r_hlfx_frame(fx, w, 4.3, 28);
    assert_int_equal(r_hlfx_sprites(fx, 4.3, sp, HLFX_MAX_SPRITES + 1), 1);   // the flyer is not attached
    assert_true(fabsf(sp[0].org[0] - 10) < 20);
    assert_int_equal(r_hlfx_sprites(fx, 4.29, sp, HLFX_MAX_SPRITES + 1), 6);   // before the kill, all
    assert_int_equal(r_hlfx_sprites(fx, 4.36, sp, HLFX_MAX_SPRITES + 1), 0);

    // TE_KILLBEAM: the beams of entity 2 end, the others stay
    r_hlfx_clear(fx);
    next_frame(w, 5.0, 10);
    e = tempent(w, 8, 0, 0, 0);   // TE_BEAMENTS 1 -> 2, 10 s
    e->args[0] = 1;
    e->args[1] = 2;
    e->args[2] = 9;
    e->args[5] = 100;
    e = tempent(w, 8, 0, 0, 0);   // 1 -> 3
    e->args[0] = 1;
    e->args[1] = 3;
    e->args[2] = 9;
    e->args[5] = 100;
    r_hlfx_frame(fx, w, 5.0, 29);
    r_hlbeam_t b[8];
    assert_int_equal(r_hlfx_beams(fx, 5.5, b, 8), 2);
    next_frame(w, 6.0, 10);
    tempent(w, 99, 0, 0, 0)->args[0] = 2;
    r_hlfx_frame(fx, w, 6.0, 30);
    assert_int_equal(r_hlfx_beams(fx, 6.0, b, 8), 1);
    assert_int_equal(b[0].end_ent, 3);

    // TE_FIZZ: density 3 = 4 bubbles on the floor of entity 5's brush model (*1: 64 x 32 x 100),
    // rising 80..140 u/s to its top, drifting along its yaw (0) at its colour's speed (0 << 8 | 20)
    static bsp_model_t bm[2];
    static bsp_t level;
    memset(&level, 0, sizeof level);
    bm[1].maxs[0] = 64;
    bm[1].maxs[1] = 32;
    bm[1].maxs[2] = 100;
    level.models = bm;
    level.num_models = 2;
    world_set_model(w, 10, "*1");
    r_hlfx_clear(fx);
    next_frame(w, 6.5, 10);
    entity_state_t st;
    memset(&st, 0, sizeof st);
    st.modelindex = 10;
    st.rendercolor[1] = 20;
    world_entity_update(w, 5, &st);
    e = tempent(w, 105, 0, 0, 0);
    e->args[0] = 5;
    e->args[1] = 9;
    e->args[2] = 3;
    r_hlfx_frame(fx, w, 6.5, 32);
    assert_int_equal(r_hlfx_sprites(fx, 6.5, sp, HLFX_MAX_SPRITES + 1), 0);   // no level given: nothing
    r_hlfx_set_level(fx, &level);
    e = tempent(w, 105, 0, 0, 0);   // entity 1 is a player, no brush model: nothing
    e->args[0] = 1;
    e->args[1] = 9;
    e->args[2] = 3;
    r_hlfx_frame(fx, w, 6.5, 32);
    n = r_hlfx_sprites(fx, 6.5, sp, HLFX_MAX_SPRITES + 1);
    assert_int_equal(n, 4);
    float x0[4];
    for (int i = 0; i < n; i++) {
        x0[i] = sp[i].org[0];
        assert_true(sp[i].org[0] >= 0 && sp[i].org[0] <= 63 && sp[i].org[1] >= 0 && sp[i].org[1] <= 31);
        assert_float_equal(sp[i].org[2], 0, 1e-6);
        assert_int_equal(sp[i].rendermode, RM_SOLID);
        assert_true(sp[i].scale >= 0.2f - 1e-6f && sp[i].scale <= 0.5f + 1e-6f);
    }
    n = r_hlfx_sprites(fx, 7.0, sp, HLFX_MAX_SPRITES + 1);
    assert_true(n >= 1 && n <= 4);   // the fast ones (over 200/3 u/s) reached the top in 0.5 s
    for (int i = 0; i < n; i++)
        assert_true(sp[i].org[2] >= 40 - 1e-3 && sp[i].org[2] <= 70 + 1e-3);
    if (n == 4)
        for (int i = 0; i < 4; i++)
            assert_float_equal(sp[i].org[0], x0[i] + 10, 1e-3);
    assert_int_equal(r_hlfx_sprites(fx, 6.5 + 100.0 / 80 - 0.1 + 0.001, sp, HLFX_MAX_SPRITES + 1), 0);

    // the pool is fixed: 3 funnels make 768 sprites, the newest 512 are kept
    r_hlfx_clear(fx);
    next_frame(w, 7.0, 10);
    for (int i = 0; i < 3; i++)
        tempent(w, 100, 0, 0, 0)->args[0] = 9;
    r_hlfx_frame(fx, w, 7.0, 31);
    assert_int_equal(r_hlfx_sprites(fx, 7.0, sp, HLFX_MAX_SPRITES + 1), HLFX_MAX_SPRITES);
    r_hlfx_destroy(fx);
    world_free(w);
}


// The ten that were not drawn (issue 14): their pools' values by the engine's rules.
static void test_more_effects(void **state)
{
    (void)state;
    r_hlfx_t *fx = r_hlfx_create();
    world_t *w = small_world(1.0);
    uint8_t c[3];

    // TE_LINE (0,0,0) -> (100,0,0), green, 1 s: a still particle every 2 units, both ends; the
    // colour is the particle palette's nearest (244, green in Half-Life's particle palette)
    world_fx_event_t *e = tempent(w, 30, 0, 0, 0);
    e->end[0] = 100;
    e->args[0] = 10;
    e->args[2] = 255;
    r_hlfx_frame(fx, w, 1.0, 3);
    int n = r_hlfx_particles(fx, 1.5, parts, HLFX_MAX_PARTICLES);
    assert_int_equal(n, 51);
    for (int i = 0; i < n; i++) {
        assert_float_equal(parts[i].org[0], 2.0 * i, 1e-3);
        assert_true(parts[i].color[0] == 0 && parts[i].color[1] == 255 && parts[i].color[2] == 0);
        assert_float_equal(parts[i].vel[0] + parts[i].vel[1] + parts[i].vel[2] + parts[i].gravity, 0, 0);
    }
    assert_int_equal(r_hlfx_num_particles(fx, 2.01), 0);
    r_hlfx_palette(244, c);   // the funnel's colour too
    assert_true(c[0] == 0 && c[1] == 255 && c[2] == 0);

    // TE_BOX (10,20,30) .. (0,0,0) (corners in any order), red (palette 251): its 12 edges, a
    // particle every 2 units: 4 x (6 + 11 + 16)
    r_hlfx_clear(fx);
    next_frame(w, 1.0, 10);
    e = tempent(w, 31, 10, 20, 30);
    e->args[0] = 10;
    e->args[1] = 255;
    r_hlfx_frame(fx, w, 1.0, 3);
    n = r_hlfx_particles(fx, 1.0, parts, HLFX_MAX_PARTICLES);
    assert_int_equal(n, 4 * (6 + 11 + 16));
    for (int i = 0; i < n; i++) {
        const float *o = parts[i].org;
        int on = (o[0] == 0 || o[0] == 10) + (o[1] == 0 || o[1] == 20) + (o[2] == 0 || o[2] == 30);
        assert_true(on >= 2);   // on an edge: two of the three on a face of the box
        assert_true(parts[i].color[0] == 255 && parts[i].color[1] == 0 && parts[i].color[2] == 0);
    }

    // TE_SHOWLINE 12 units: one at 0, 5, 10; palette 75 (dark red); 30 s
    r_hlfx_clear(fx);
    next_frame(w, 1.0, 10);
    e = tempent(w, 102, 0, 0, 0);
    e->end[0] = 12;
    r_hlfx_frame(fx, w, 1.0, 3);
    n = r_hlfx_particles(fx, 30.99, parts, HLFX_MAX_PARTICLES);
    assert_int_equal(n, 3);
    assert_float_equal(parts[2].org[0], 10, 1e-4);
    assert_true(parts[0].color[0] == 95 && parts[0].color[1] == 0);
    assert_int_equal(r_hlfx_num_particles(fx, 31.01), 0);

    // TE_TAREXPLOSION: 1024 blobs, 1..1.4 s, the spark ramp, slowed by half a second, 200 u/s^2 down
    r_hlfx_clear(fx);
    next_frame(w, 1.0, 10);
    tempent(w, 4, 0, 0, 100);
    r_hlfx_frame(fx, w, 1.0, 5);
    assert_int_equal(r_hlfx_num_particles(fx, 1.99), 1024);
    assert_int_equal(r_hlfx_num_particles(fx, 2.41), 0);
    n = r_hlfx_particles(fx, 1.5, parts, HLFX_MAX_PARTICLES);
    float reach = 16 + 256 * (1 - expf(-0.25f)) / 0.5f;
    for (int i = 0; i < n; i++) {
        vec3_t o;
        r_hlfx_particle_at(&parts[i], 0.5f, o);
        assert_true(fabsf(o[0]) <= reach + 1e-3f && fabsf(o[1]) <= reach + 1e-3f);
        assert_true(o[2] - 100 <= reach && o[2] - 100 >= -reach - 0.5f * 200 * 0.25f - 1e-3f);
        assert_int_equal(parts[i].ramp, HLFX_RAMP_SPARK);
        assert_true(parts[i].die - parts[i].birth >= 1.0f - 1e-4f && parts[i].die - parts[i].birth <= 1.4f + 1e-4f);
    }

    // TE_STREAK_SPLASH up at 200, random 50, colour 1 (red): 30 tracers, one random number added
    // to all three axes, 0.1..0.5 s, sv_gravity; out-of-range colours take the default (4)
    r_hlfx_clear(fx);
    next_frame(w, 1.0, 10);
    e = tempent(w, 25, 0, 0, 0);
    e->dir[2] = 1;
    e->args[0] = 1;
    e->args[1] = 30;
    e->args[2] = 200;
    e->args[3] = 50;
    e = tempent(w, 25, 0, 0, 0);
    e->args[0] = 200;   // colour out of range
    e->args[1] = 1;
    e = tempent(w, 25, 0, 0, 0);
    e->args[1] = -5;    // no count
    r_hlfx_frame(fx, w, 1.0, 7);
    n = r_hlfx_particles(fx, 1.0, parts, HLFX_MAX_PARTICLES);
    assert_int_equal(n, 31);
    for (int i = 0; i < 30; i++) {
        const r_hlparticle_t *p = &parts[i];
        assert_float_equal(p->vel[0], p->vel[1], 1e-4);
        assert_float_equal(p->vel[2] - 200, p->vel[0], 1e-3);
        assert_true(fabsf(p->vel[0]) <= 50);
        assert_true(p->streak > 0 && p->additive && p->fade && p->gravity == 800);
        assert_true(p->color[0] == 255 && p->color[1] == 0 && p->color[2] == 0);
    }
    assert_true(parts[30].color[0] == 204 && parts[30].color[2] == 102);
    assert_int_equal(r_hlfx_num_particles(fx, 1.51), 0);

    // beams: TE_LIGHTNING (white at 0.6, width 2, 1 s), TE_BEAMSPRITE (a red beam and an additive
    // sprite at its end, both 0.01 s), a sprite index not precached makes none
    r_hlfx_clear(fx);
    next_frame(w, 1.0, 10);
    e = tempent(w, 7, 0, 0, 0);
    e->end[0] = 100;
    e->args[0] = 10;
    e->args[1] = 20;
    e->args[3] = 3;
    e = tempent(w, 7, 0, 0, 0);
    e->end[0] = 100;
    e->args[0] = 10;
    e->args[3] = 50;   // not precached
    e = tempent(w, 18, 0, 0, 0);
    e->end[1] = 64;
    e->args[0] = 2;
    e->args[1] = 9;
    r_hlfx_frame(fx, w, 1.0, 9);
    r_hlbeam_t b[8];
    assert_int_equal(r_hlfx_beams(fx, 1.005, b, 8), 2);
    assert_true(b[0].color[0] == 255 && b[0].color[1] == 255 && b[0].color[2] == 255);
    assert_int_equal(b[0].amount, 153);
    assert_float_equal(b[0].width, 2, 1e-5);
    assert_true(b[1].color[0] == 255 && b[1].color[1] == 0 && b[1].color[2] == 0);
    assert_true(b[1].amount >= 127 && b[1].amount <= 167);
    assert_float_equal(b[1].width, 0.4, 1e-5);
    static r_hlsprite_t sp[4];
    assert_int_equal(r_hlfx_sprites(fx, 1.005, sp, 4), 1);
    assert_float_equal(sp[0].org[1], 64, 1e-4);
    assert_int_equal(sp[0].amount, 89);
    assert_int_equal(sp[0].rendermode, RM_ADDITIVE);
    assert_int_equal(r_hlfx_beams(fx, 1.02, b, 8), 1);
    assert_int_equal(r_hlfx_sprites(fx, 1.02, sp, 4), 0);
    assert_int_equal(r_hlfx_beams(fx, 2.01, b, 8), 0);

    // TE_BEAMTORUS / DISK / CYLINDER about (0,0,0), the second point 500 up, width 8, 1 s: the
    // radius is age x 500 (the disk's age wraps at width x 0.1 = 0.8 s); the cylinder's lower
    // edge age x (500 + width)
    r_hlfx_clear(fx);
    next_frame(w, 1.0, 10);
    for (int type = 19; type <= 21; type++) {
        e = tempent(w, type, 0, 0, 0);
        e->end[2] = 500;
        e->args[0] = 2;
        e->args[3] = 10;
        e->args[4] = 8;
        e->args[8] = 255;
        e->args[9] = 200;
    }
    e = tempent(w, 20, 0, 0, 0);
    e->args[0] = 0;   // no sprite
    r_hlfx_frame(fx, w, 1.0, 9);
    assert_int_equal(r_hlfx_beams(fx, 1.2, b, 8), 3);
    assert_int_equal(b[0].shape, HLFX_BEAM_TORUS);
    assert_float_equal(b[0].radius, 100, 1e-2);
    assert_float_equal(b[0].width, 8, 1e-4);
    assert_int_equal(b[1].shape, HLFX_BEAM_DISK);
    assert_float_equal(b[1].radius, 100, 1e-2);
    assert_int_equal(b[2].shape, HLFX_BEAM_CYLINDER);
    assert_float_equal(b[2].radius2, 0.2 * 508, 1e-2);
    assert_true(b[0].color[2] == 255 && b[0].amount == 200);
    assert_int_equal(r_hlfx_beams(fx, 1.9, b, 8), 3);
    assert_float_equal(b[1].radius, 50, 1e-1);   // fmod(0.9, 0.8) x 500
    assert_float_equal(b[0].radius, 450, 1e-1);
    assert_int_equal(r_hlfx_beams(fx, 2.01, b, 8), 0);

    world_free(w);
    r_hlfx_destroy(fx);
}


// The decoder on the ten (tests/corpus/hlfx/synthetic_te_more.dem, the fuzz seed with their
// arguments set): each decoded once and counted by type (what `info` prints); each cut one byte
// short of its arguments is an error naming svc_temp_entity at its type byte's offset, never a
// read past the message.
static void test_more_decoded(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *data = tu_read("tests/corpus/hlfx/synthetic_te_more.dem", &size);
    assert_non_null(data);
    assert_true(size > 1900);
    static const struct {
        int te;
        size_t at;    // its svc_temp_entity byte
        size_t args;  // its arguments' bytes
    } ten[] = {{4, 1415, 6}, {7, 1449, 17}, {18, 1576, 16}, {19, 1594, 24}, {20, 1620, 24},
               {21, 1646, 24}, {25, 1715, 19}, {30, 1799, 17}, {31, 1818, 17}, {102, 1869, 12}};
    const size_t msg_len_at = 1017, msg_at = 1021;   // the one net frame's message
    uint8_t *copy = malloc(size);
    void *st = calloc(1, hl_decoder.state_size);
    dec_opts_t opts = {0};
    dec_error_t err;
    for (int cut = -1; cut < 10; cut++) {
        memcpy(copy, data, size);
        if (cut >= 0) {
            int32_t len = (int32_t)(ten[cut].at + 2 + ten[cut].args - 1 - msg_at);
            memcpy(copy + msg_len_at, &len, 4);   // little-endian hosts (as the decoder reads it)
        }
        world_t *w = world_create();
        memset(&err, 0, sizeof err);
        assert_int_equal(hl_decoder.open(st, copy, size, w, &opts, &err), 0);
        int r;
        while ((r = hl_decoder.read_frame(st, w, &err)) > 0)
            ;
        if (cut < 0) {
            assert_int_equal(r, 0);
            const demo_info_t *info = hl_decoder.info(st);
            for (int i = 0; i < 10; i++) {
                assert_int_equal(info->tempents[ten[i].te], 1);
                assert_non_null(info->tempent_names[ten[i].te]);
            }
            assert_string_equal(info->tempent_names[19], "beamtorus");
            assert_string_equal(info->tempent_names[102], "showline");
        } else {
            assert_int_equal(r, -1);
            assert_int_equal(err.offset, (long long)ten[cut].at + 1);
            assert_non_null(strstr(err.what, "svc_temp_entity"));
        }
        hl_decoder.close(st);
        world_free(w);
    }
    print_message("the ten decoded and counted once each; each cut short: \"%s\" at its offset\n", err.what);
    free(st);
    free(copy);
    free(data);
}

// TE_ELIGHT's decay (its last coord) over its life, as CL_ParseTempEntity divides it: the fuzz
// seed's TE_BEAMSPRITE (16 argument bytes at 1578) made an ELIGHT of as many: entity 5 at
// (100, -40, 16), radius 120, orange, 2 s, decay 60: 30 units a second, radius 90 a second later.
static void test_elight_decay(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *data = tu_read("tests/corpus/hlfx/synthetic_te_more.dem", &size);
    assert_non_null(data);
    assert_true(size > 1600 && data[1576] == 23 && data[1577] == 18);
    static const uint8_t elight[17] = {28,   5,    0,    0x20, 0x03, 0xc0, 0xfe, 0x80, 0x00,
                                       0xc0, 0x03, 0xff, 0x80, 0x00, 20,   0xe0, 0x01};
    memcpy(data + 1577, elight, sizeof elight);
    void *st = calloc(1, hl_decoder.state_size);
    dec_opts_t opts = {0};
    dec_error_t err;
    world_t *w = world_create();
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    r_hlfx_t *fx = r_hlfx_create();
    int found = 0;   // the seed's own ELIGHT (entity 0) comes in the same message
    while (!found && hl_decoder.read_frame(st, w, &err) > 0) {
        for (int i = 0; i < w->num_events; i++) {
            const world_fx_event_t *d = &w->events[i].u.fx;
            if (w->events[i].type != EV_DLIGHT || d->raw_type != 28 || d->entity != 5)
                continue;
            found = 1;
            assert_int_equal(d->entity, 5);
            assert_float_equal(d->origin[0], 100, 1e-6);
            assert_float_equal(d->origin[1], -40, 1e-6);
            assert_float_equal(d->radius, 120, 1e-6);
            assert_float_equal(d->duration, 2.0, 1e-6);
            assert_float_equal(d->pos3[0], 60, 1e-6);
        }
        if (found)
            r_hlfx_frame(fx, w, w->time, 3);
    }
    assert_true(found);
    static r_view_t v;
    float radius[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        memset(&v, 0, sizeof v);
        r_hlfx_lights(fx, NULL, &v, w->time + k);
        for (int i = 0; i < v.num_dlights; i++)
            if (v.dlights[i].elight && v.dlights[i].origin[0] == 100)
                radius[k] = v.dlights[i].radius;
    }
    print_message("elight radius %.1f, a second later %.1f\n", radius[0], radius[1]);
    assert_float_equal(radius[0], 120, 1e-3);
    assert_float_equal(radius[1], 90, 1e-3);   // main kept 120: the decay was dropped
    r_hlfx_destroy(fx);
    hl_decoder.close(st);
    world_free(w);
    free(st);
    free(data);
}

// ---- on c1a0: temp models, and a golden --------------------------------------------------------

#include "hl_level.h"

// TE_EXPLODEMODEL and TE_PROJECTILE as the decoder logs them.
static void log_explode(world_t *w, const vec3_t pos, float speed, int model, int count, int life, uint32_t seed)
{
    world_decal_t *d = world_add_decal(w);
    d->te = 107;
    memcpy(d->pos, pos, sizeof(vec3_t));
    d->fparam[0] = speed;
    d->args[0] = model;
    d->args[1] = count;
    d->args[2] = life;
    d->model = model;
    d->seed = seed;
}

static void log_projectile(world_t *w, const vec3_t pos, const vec3_t vel, int model, int life)
{
    world_decal_t *d = world_add_decal(w);
    d->te = 119;
    memcpy(d->pos, pos, sizeof(vec3_t));
    memcpy(d->velocity, vel, sizeof(vec3_t));
    d->args[0] = model;
    d->args[1] = life;
    d->args[2] = 1;
    d->model = model;
    d->seed = 77;
}

// TE_EXPLODEMODEL: count models from one spot at `speed`, bouncing, for their life; TE_PROJECTILE:
// straight on at its velocity, turned along it, ended where it hits the wall; hostile entries
// make nothing.
static void test_temp_models(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    const bsp_t *b = L.r->bsp;
    int gib = model_index(w, "models/glassgibs.mdl"), shell = model_index(w, "models/shell.mdl");
    assert_true(gib > 0 && shell > 0);
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t0 = w->time;
    vec3_t pos;
    ahead(w, 60, 0, 0, pos);
    log_explode(w, pos, 200, gib, 12, 20, 5);
    vec3_t nan3 = {NAN, 0, 0};
    log_explode(w, nan3, 200, gib, 12, 20, 6);      // not finite
    log_explode(w, pos, NAN, gib, 12, 20, 7);       // speed not finite
    log_explode(w, pos, 200, 0, 12, 20, 8);         // no model
    log_explode(w, pos, 200, gib, -3, 20, 9);       // no count
    log_explode(w, pos, 200, gib, 30000, 20, 10);   // a huge count: the pool's 500 at most
    r_frame(L.r, w);
    static hltent_draw_t d[HLTENT_MAX];
    int n = hltent_list(L.r->hltent, b, t0, d, HLTENT_MAX);
    assert_int_equal(n, HLTENT_MAX);
    // the first 12: at the spot, 0.05 s later 200 x 0.05 = 10 units away (less the fall)
    n = hltent_list(L.r->hltent, b, t0 + 0.05, d, HLTENT_MAX);
    for (int i = 0; i < 12; i++) {
        assert_int_equal(d[i].model, gib);
        float dx = d[i].org[0] - pos[0], dy = d[i].org[1] - pos[1], dz = d[i].org[2] - pos[2];
        float dist = sqrtf(dx * dx + dy * dy + dz * dz);
        assert_true(dist > 7 && dist < 12);
    }
    // life 2 s: gone after it
    hltent_list(L.r->hltent, b, t0 + 2.01, d, HLTENT_MAX);
    assert_int_equal(hltent_count(L.r->hltent, t0 + 2.01), 0);

    // a projectile (shell.mdl) flying ahead at 500 u/s: turned along its flight, and ended at the
    // first wall ahead before its 5 s are over (FTENT_COLLIDEALL: the world's or a brush entity's, here
    // the tram's the player rides; the world's own is further)
    // (made 2.5 s later, when the shower is gone: c1a0's demo ends before that)
    double t1 = t0 + 2.5;
    float y = w->view.angles[1] * (float)M_PI / 180;
    vec3_t vel = {500 * cosf(y), 500 * sinf(y), 0}, start;
    memcpy(start, w->view.origin, sizeof start);
    vec3_t far = {start[0] + 8000 * cosf(y), start[1] + 8000 * sinf(y), start[2]};
    bsp_trace_t tr;
    assert_int_equal(bsp_trace(b, b->models[0].headnode, start, far, &tr), 1);
    float world_wall = tr.fraction * 8000;
    hlbullet_t line;
    memset(&line, 0, sizeof line);
    memcpy(line.src, start, sizeof line.src);
    memcpy(line.end, far, sizeof line.end);
    hlbullet_trace(b, w, &line);
    assert_true(line.model > 0);   // a brush entity first
    float wall = sqrtf((line.endpos[0] - start[0]) * (line.endpos[0] - start[0]) +
                       (line.endpos[1] - start[1]) * (line.endpos[1] - start[1]) +
                       (line.endpos[2] - start[2]) * (line.endpos[2] - start[2]));
    assert_true(wall > 20 && wall < world_wall - 20);
    log_projectile(w, start, vel, shell, 5);
    vec3_t bad = {1e7f, 0, 0};
    log_projectile(w, start, bad, shell, 5);   // a speed out of range: nothing
    log_projectile(w, start, vel, 0, 5);       // no model: nothing
    for (uint32_t i = w->decal_log_count - 3; i < w->decal_log_count; i++)
        w->decal_log[i % WORLD_MAX_DECAL_LOG].time = t1;
    r_frame(L.r, w);
    n = hltent_list(L.r->hltent, b, t1 + 0.01, d, HLTENT_MAX);
    assert_int_equal(n, 1);
    assert_float_equal(d[0].ang[1], fmod(w->view.angles[1] + 540.0, 360.0) - 180.0, 0.5);
    assert_float_equal(d[0].ang[0], 0, 1e-3);
    double hit = t1 + wall / 500.0;
    n = hltent_list(L.r->hltent, b, hit - 0.03, d, HLTENT_MAX);
    assert_int_equal(n, 1);
    assert_int_equal(hltent_list(L.r->hltent, b, hit + 0.03, d, HLTENT_MAX), 0);
    print_message("projectile: brush entity %d's wall %.1f units ahead (the world's %.1f), ended there after %.3f s\n",
                  line.entity, wall, world_wall, wall / 500.0);
    close_level(&L);
}

// Projects p; 0 when behind the eye.
static int project(const r_view_t *v, const vec3_t p, float *sx, float *sy)
{
    float d[3] = {p[0] - v->vieworg[0], p[1] - v->vieworg[1], p[2] - v->vieworg[2]};
    float z = d[0] * v->vpn[0] + d[1] * v->vpn[1] + d[2] * v->vpn[2];
    if (z < 4)
        return 0;
    *sx = v->xcenter + v->xscale * (d[0] * v->vright[0] + d[1] * v->vright[1] + d[2] * v->vright[2]) / z;
    *sy = v->ycenter - v->yscale * (d[0] * v->vup[0] + d[1] * v->vup[1] + d[2] * v->vup[2]) / z;
    return 1;
}

// Grows the screen box by the 8 corners of the world box c +- h (all in front of the eye).
static void box_corners(const r_view_t *v, const vec3_t c, const vec3_t lo, const vec3_t hi, float *bx)
{
    for (int i = 0; i < 8; i++) {
        vec3_t p = {c[0] + ((i & 1) ? hi[0] : lo[0]), c[1] + ((i & 2) ? hi[1] : lo[1]), c[2] + ((i & 4) ? hi[2] : lo[2])};
        float sx = 0, sy = 0;
        assert_true(project(v, p, &sx, &sy));
        bx[0] = fminf(bx[0], sx), bx[1] = fminf(bx[1], sy), bx[2] = fmaxf(bx[2], sx), bx[3] = fmaxf(bx[3], sy);
    }
}

// c1a0 with a teleport splash ahead and to the left, an implosion ahead, explosion2 (the blue
// row) to the right and a trail of flares above: the pixels that changed (against the same
// moment without them) lie in the screen box of the world boxes the effects can reach by then
// (from their rules, not from the random numbers), none outside; and a golden.
static void test_golden_c1a0(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    int flare = w->num_models;
    world_set_model(w, flare, "sprites/flare1.spr");
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t = w->time + 0.15;
    w->num_events = 0;   // the frame without its own events: the picture to compare with
    r_frame(L.r, w);
    r_render(L.r, w, t);
    const r_view_t *v = &L.r->view;
    static uint8_t none[TW * TH];
    for (int y = 0; y < TH; y++)
        memcpy(none + y * TW, L.r->buffer + y * v->rowbytes, TW);

    float bx[4] = {1e9f, 1e9f, -1e9f, -1e9f};
    vec3_t p;
    ahead(w, 140, 50, -10, p);   // teleport: from +-16 (+3) and -24..31, at most 113 u/s for 0.15 s
    tempent(w, 11, p[0], p[1], p[2]);
    box_corners(v, p, (vec3_t){-16 - 17, -16 - 17, -24 - 17 - 1}, (vec3_t){19 + 17, 19 + 17, 34 + 17}, bx);
    ahead(w, 120, 0, -40, p);    // implosion: radius 40, 80 tracers, 0.5 s, coming in
    world_fx_event_t *e = tempent(w, 14, p[0], p[1], p[2]);
    e->args[0] = 40;
    e->args[1] = 80;
    e->args[2] = 5;
    box_corners(v, p, (vec3_t){-40, -40, 0}, (vec3_t){40, 40, 40}, bx);
    ahead(w, 160, -60, 0, p);    // explosion2: +-16, then at most 256 u/s x (1 - e^-0.075) / 0.5, 2.25 down
    e = tempent(w, 12, p[0], p[1], p[2]);
    e->args[0] = 208;
    e->args[1] = 8;
    float r2 = 16 + 256 * (1 - expf(-0.075f)) / 0.5f;
    box_corners(v, p, (vec3_t){-r2, -r2, -r2 - 2.25f - 1}, (vec3_t){r2, r2, r2}, bx);
    ahead(w, 100, -20, 20, p);   // a sprite trail of 6 flares (scale 0.2) across the top
    e = tempent(w, 15, p[0], p[1], p[2]);
    ahead(w, 100, 30, 20, e->end);
    e->args[0] = flare;
    e->args[1] = 6;
    e->args[2] = 20;
    e->args[3] = 2;
    box_corners(v, p, (vec3_t){-16, -16, -16 - 5}, (vec3_t){16, 16, 16}, bx);
    box_corners(v, e->end, (vec3_t){-16, -16, -16 - 5}, (vec3_t){16, 16, 16}, bx);
    r_frame(L.r, w);
    r_render(L.r, w, t);

    int inside = 0, outside = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            if (L.r->buffer[y * v->rowbytes + x] == none[y * TW + x])
                continue;
            // +- 4 pixels: a dot is up to 8 wide about its place
            if (x >= bx[0] - 4 && x <= bx[2] + 4 && y >= bx[1] - 4 && y <= bx[3] + 4)
                inside++;
            else
                outside++;
        }
    print_message("te golden: box x %.0f..%.0f y %.0f..%.0f; %d pixels changed inside, %d outside\n", bx[0], bx[2],
                  bx[1], bx[3], inside, outside);
    assert_true(inside > 300);
    assert_int_equal(outside, 0);
    assert_true(bx[2] - bx[0] < TW && bx[3] - bx[1] < TH);   // the box is not the whole screen
    const char *out = "build/test_goldsrc_te_c1a0.png";
    assert_int_equal(r_write_png(L.r, out), 0);
    tu_golden("goldsrc_te_c1a0", out, "tests/golden/goldsrc/te_c1a0.png", 0.01);
    close_level(&L);
}


// Whether a pixel within +-r of (sx, sy) passes `want` (index >= 0: that index; -1: brighter than
// in `none`; -2: the same as in `none`, for every pixel of the square).
static int pixel_near(const level_t *L, const uint8_t *none, float sx, float sy, int r, int want)
{
    const r_view_t *v = &L->r->view;
    int any = 0, all = 1;
    for (int y = (int)sy - r; y <= (int)sy + r; y++)
        for (int x = (int)sx - r; x <= (int)sx + r; x++) {
            if (x < 0 || y < 0 || x >= TW || y >= TH)
                continue;
            uint8_t now = L->r->buffer[y * v->rowbytes + x], was = none[y * TW + x];
            const uint8_t *pn = v->palette + now * 3, *pw = v->palette + was * 3;
            int ok = want >= 0    ? now == want
                     : want == -1 ? pn[0] + pn[1] + pn[2] > pw[0] + pw[1] + pw[2]
                                  : now == was;
            any |= ok;
            all &= ok;
        }
    return want == -2 ? all : any;
}

// A point `f` of the way from a to b, projected.
static void project_at(const r_view_t *v, const vec3_t a, const vec3_t b, float f, float *sx, float *sy)
{
    vec3_t p = {a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f};
    assert_true(project(v, p, sx, sy));
}

// The ten on c1a0 at known places, 0.2 s after they come: the line's, the box's and the show
// line's colours where their points project (not the box's at its centre); the lightning brighter along its line; the torus
// brighter on its circle (radius 0.2 x 100) and not at its centre; the disk at its centre and
// half its radius, not at twice its radius; the cylinder's bright lower edge; the streaks and the
// tar explosion brighten their places; the beam sprite's red beam in its 0.01 s; and a golden.
static void test_more_c1a0(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    int laser = w->num_models, flare = laser + 1;
    world_set_model(w, laser, "sprites/laserbeam.spr");
    world_set_model(w, flare, "sprites/flare1.spr");
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    double t0 = w->time, t = t0 + 0.2;
    w->num_events = 0;
    r_frame(L.r, w);
    r_render(L.r, w, t);
    const r_view_t *v = &L.r->view;
    static uint8_t none[TW * TH];
    for (int y = 0; y < TH; y++)
        memcpy(none + y * TW, L.r->buffer + y * v->rowbytes, TW);

    vec3_t la, lb, sa, sb, ga, gb, bc, tc, dc, cc, so, xo;
    ahead(w, 120, 50, 30, la);     // TE_LINE, green, 1 s
    ahead(w, 120, 10, 30, lb);
    world_fx_event_t *e = tempent(w, 30, la[0], la[1], la[2]);
    memcpy(e->end, lb, sizeof lb);
    e->args[0] = 10;
    e->args[2] = 255;
    ahead(w, 150, -45, -5, bc);    // TE_BOX, red, +-10 about bc
    e = tempent(w, 31, bc[0] - 10, bc[1] - 10, bc[2] - 10);
    for (int k = 0; k < 3; k++)
        e->end[k] = bc[k] + 10;
    e->args[0] = 10;
    e->args[1] = 255;
    ahead(w, 110, 60, -10, sa);    // TE_SHOWLINE
    ahead(w, 110, 20, -10, sb);
    e = tempent(w, 102, sa[0], sa[1], sa[2]);
    memcpy(e->end, sb, sizeof sb);
    ahead(w, 200, 80, 55, ga);     // TE_LIGHTNING, width 3, 1 s
    ahead(w, 200, -80, 55, gb);
    e = tempent(w, 7, ga[0], ga[1], ga[2]);
    memcpy(e->end, gb, sizeof gb);
    e->args[0] = 10;
    e->args[1] = 30;
    e->args[3] = laser;
    ahead(w, 110, 0, -35, tc);     // circle beams: torus ahead, disk left, cylinder right, 1 s
    ahead(w, 110, 45, -35, dc);
    ahead(w, 110, -45, -35, cc);
    const float *centres[3] = {tc, dc, cc};
    for (int i = 0; i < 3; i++) {
        e = tempent(w, 19 + i, centres[i][0], centres[i][1], centres[i][2]);
        memcpy(e->end, centres[i], sizeof(vec3_t));
        e->end[2] += i == 0 ? 100 : 50;
        e->args[0] = laser;
        e->args[3] = 10;
        e->args[4] = i == 0 ? 2 : 8;
        e->args[6] = i == 1 ? 255 : 60;
        e->args[7] = i == 2 ? 255 : 120;
        e->args[8] = i == 0 ? 255 : 60;
        e->args[9] = 255;
    }
    ahead(w, 90, -25, -5, so);     // TE_STREAK_SPLASH up, yellow (4)
    e = tempent(w, 25, so[0], so[1], so[2]);
    e->dir[2] = 1;
    e->args[0] = 4;
    e->args[1] = 60;
    e->args[2] = 120;
    e->args[3] = 40;
    ahead(w, 140, 0, 45, xo);      // TE_TAREXPLOSION ahead, up
    tempent(w, 4, xo[0], xo[1], xo[2]);

    r_frame(L.r, w);
    r_render(L.r, w, t);
    float sx, sy;
    uint8_t green = r_hl_nearest(v->hlmodes, 0, 255, 0), red = r_hl_nearest(v->hlmodes, 255, 0, 0);
    uint8_t dark = r_hl_nearest(v->hlmodes, 95, 0, 0);
    int line_hits = 0, box_hits = 0, show_hits = 0, bolt_hits = 0;
    for (int i = 0; i <= 8; i++) {
        project_at(v, la, lb, (float)i / 8, &sx, &sy);
        line_hits += pixel_near(&L, none, sx, sy, 1, green);
        project_at(v, sa, sb, (float)(i * 5) / 40, &sx, &sy);
        show_hits += pixel_near(&L, none, sx, sy, 1, dark);
        project_at(v, ga, gb, (float)(i + 1) / 10, &sx, &sy);
        bolt_hits += pixel_near(&L, none, sx, sy, 1, -1);
        // the box's edge nearest the eye, top to bottom (its front lower-right corner upward)
        float y = w->view.angles[1] * (float)M_PI / 180;
        vec3_t edge = {bc[0] - 10 * (cosf(y) > 0 ? 1 : -1), bc[1] - 10 * (sinf(y) > 0 ? 1 : -1), bc[2] - 10 + 2.5f * i};
        assert_true(project(v, edge, &sx, &sy));
        box_hits += pixel_near(&L, none, sx, sy, 1, red);
    }
    assert_true(project(v, bc, &sx, &sy));
    int box_inside = !pixel_near(&L, none, sx, sy, 0, red);   // the inside is not the box's colour
    // the torus' circle at 20, the disk at its centre and radius 5 (not 20), the cylinder's lower edge
    int torus = 0, torus_mid, disk_in, disk_out, cyl = 0;
    for (int i = 0; i < 8; i++) {
        float a = (float)i * (float)M_PI / 4;
        vec3_t p = {tc[0] + 20 * sinf(a), tc[1] + 20 * cosf(a), tc[2]};
        assert_true(project(v, p, &sx, &sy));
        torus += pixel_near(&L, none, sx, sy, 1, -1);
        vec3_t q = {cc[0] + 11.5f * sinf(a), cc[1] + 11.5f * cosf(a), cc[2] - 7};
        assert_true(project(v, q, &sx, &sy));
        cyl += pixel_near(&L, none, sx, sy, 1, -1);
    }
    assert_true(project(v, tc, &sx, &sy));
    torus_mid = pixel_near(&L, none, sx, sy, 1, -2);
    assert_true(project(v, dc, &sx, &sy));
    disk_in = pixel_near(&L, none, sx, sy, 0, -1);
    vec3_t d10 = {dc[0] + 5, dc[1], dc[2]}, d40 = {dc[0], dc[1] + 20, dc[2]};
    assert_true(project(v, d10, &sx, &sy));
    disk_in += pixel_near(&L, none, sx, sy, 0, -1);
    assert_true(project(v, d40, &sx, &sy));
    disk_out = pixel_near(&L, none, sx, sy, 1, -2);
    // the streaks: changed pixels in the screen box they can reach by 0.2 s (160 u/s, up to 120 high)
    float bx[4] = {1e9f, 1e9f, -1e9f, -1e9f};
    box_corners(v, so, (vec3_t){-45, -45, -45}, (vec3_t){45, 45, 180}, bx);
    int streak = 0;
    for (int y = (int)fmaxf(bx[1], 0); y <= (int)fminf(bx[3], TH - 1); y++)
        for (int x = (int)fmaxf(bx[0], 0); x <= (int)fminf(bx[2], TW - 1); x++)
            streak += L.r->buffer[y * v->rowbytes + x] != none[y * TW + x];
    assert_true(project(v, xo, &sx, &sy));
    int tar = 0;
    for (int y = (int)sy - 15; y <= (int)sy + 15; y++)
        for (int x = (int)sx - 15; x <= (int)sx + 15; x++)
            tar += x >= 0 && y >= 0 && x < TW && y < TH && L.r->buffer[y * v->rowbytes + x] != none[y * TW + x];
    print_message("more te: line %d/9 box edge %d/9 (centre not red %d) showline %d/9 lightning %d/9 torus %d/8 "
                  "(centre unchanged %d) disk in %d/2 out unchanged %d cylinder %d/8 streak pixels %d tar %d\n",
                  line_hits, box_hits, box_inside, show_hits, bolt_hits, torus, torus_mid, disk_in, disk_out, cyl,
                  streak, tar);
    const char *out = "build/test_goldsrc_te_more_c1a0.png";
    assert_int_equal(r_write_png(L.r, out), 0);
    assert_true(line_hits >= 8);
    assert_true(box_hits >= 8);
    assert_true(box_inside);
    assert_true(show_hits >= 8);
    assert_true(bolt_hits >= 8);
    assert_true(torus >= 7);
    assert_true(torus_mid);
    assert_int_equal(disk_in, 2);
    assert_true(disk_out);
    assert_true(cyl >= 5);
    assert_true(streak > 20);
    assert_true(tar > 100);
    tu_golden("goldsrc_te_more_c1a0", out, "tests/golden/goldsrc/te_more_c1a0.png", 0.01);

    // TE_BEAMSPRITE lives 0.01 s: its red beam is there 0.005 s after it comes, gone at 0.2 s
    w->num_events = 0;
    r_frame(L.r, w);
    r_render(L.r, w, t0 + 0.005);   // the same moment without it
    for (int y = 0; y < TH; y++)
        memcpy(none + y * TW, L.r->buffer + y * v->rowbytes, TW);
    vec3_t pa, pb;
    ahead(w, 100, 40, 10, pa);
    ahead(w, 100, -40, 10, pb);
    e = tempent(w, 18, pa[0], pa[1], pa[2]);
    memcpy(e->end, pb, sizeof pb);
    e->args[0] = laser;
    e->args[1] = flare;
    r_frame(L.r, w);
    r_render(L.r, w, t0 + 0.005);
    int redder = 0;
    for (int i = 1; i < 8; i++) {
        project_at(v, pa, pb, (float)i / 8, &sx, &sy);
        int hit = 0;   // a 0.4 wide beam: dots with gaps, so +-1 pixel
        for (int y = (int)sy - 1; y <= (int)sy + 1; y++)
            for (int x = (int)sx - 1; x <= (int)sx + 1; x++) {
                const uint8_t *pn = v->palette + L.r->buffer[y * v->rowbytes + x] * 3, *pw = v->palette + none[y * TW + x] * 3;
                int dr = pn[0] - pw[0], dg = pn[1] - pw[1], db = pn[2] - pw[2];
                hit |= dr > 20 && dr > dg + 15 && dr > db + 15;
            }
        redder += hit;
    }
    assert_int_equal(r_write_png(L.r, "build/test_goldsrc_te_beamsprite.png"), 0);
    print_message("beam sprite: %d/7 points redder (red more than green and blue) at 0.005 s\n", redder);
    assert_true(redder >= 5);

    // TE_LARGEFUNNEL reversed, no sprite: its particles out of fo, green (Half-Life's particle
    // palette's 244), in the screen box of what 0.2 s at up to (fo.z + 800) / 8 + 128 u/s reaches
    w->num_events = 0;
    r_frame(L.r, w);
    r_render(L.r, w, t);
    for (int y = 0; y < TH; y++)
        memcpy(none + y * TW, L.r->buffer + y * v->rowbytes, TW);
    vec3_t fo;
    ahead(w, 180, 20, 0, fo);
    e = tempent(w, 100, fo[0], fo[1], fo[2]);
    e->args[1] = 1;
    r_frame(L.r, w);
    r_render(L.r, w, t);
    float reach = 0.2f * (fmaxf((fo[2] + 800) / 8, 64) + 128);
    float fb[4] = {1e9f, 1e9f, -1e9f, -1e9f};
    box_corners(v, fo, (vec3_t){-reach, -reach, 0}, (vec3_t){reach, reach, reach}, fb);
    int funnel = 0, other = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            uint8_t now = L.r->buffer[y * v->rowbytes + x];
            if (now == none[y * TW + x])
                continue;
            if (x >= fb[0] - 2 && x <= fb[2] + 2 && y >= fb[1] - 2 && y <= fb[3] + 2)
                funnel += now == green;
            else
                other++;
        }
    assert_int_equal(r_write_png(L.r, "build/test_goldsrc_te_funnel.png"), 0);
    print_message("funnel: %d pixels turned green in its box, %d changed outside\n", funnel, other);
    assert_true(funnel > 20);
    assert_int_equal(other, 0);
    close_level(&L);
}

// Beams' sprite frames (R_BeamDraw: (int)(start frame + frame rate x the clock) modulo the
// sprite's frames; the rate byte x 0.1): c1a0 with a TE_BEAMPOINTS across the view, 3 wide, white,
// 5 s. Of sprites/smoke.spr (5 frames) at 10 frames a second (byte 100), the pictures at +0.2 and
// +0.3 s are textured with two frames and differ along the beam; at rate 0 they are the same;
// sprites/laserbeam.spr (1 frame) at 10 a second is the same picture at both times.
static int beam_frames_diff(level_t *L, int model, int rate10, int start, double t0, uint8_t *a, uint8_t *b)
{
    world_t *w = L->w;
    r_clear_transients(L->r, 1);
    w->num_events = 0;
    vec3_t p0, p1;
    ahead(w, 100, 30, 0, p0);
    ahead(w, 100, -30, 0, p1);
    world_fx_event_t *e = tempent(w, 0, p0[0], p0[1], p0[2]);
    memcpy(e->end, p1, sizeof p1);
    e->args[0] = model;
    e->args[1] = start;
    e->args[2] = rate10;
    e->args[3] = 50;    // 5 s
    e->args[4] = 60;    // 6 units (drawn 12 wide)
    e->args[6] = e->args[7] = e->args[8] = 255;
    e->args[9] = 255;
    r_frame(L->r, w);
    render_at(L->r, w, t0 + 0.2, a);
    render_at(L->r, w, t0 + 0.3, b);
    w->num_events = 0;
    int n = 0;
    for (int i = 0; i < TW * TH; i++)
        n += a[i] != b[i];
    return n;
}

static void test_beam_sprite_frames(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 200);
    world_t *w = L.w;
    int smoke = model_index(w, "sprites/smoke.spr"), laser = w->num_models;
    assert_true(smoke > 0);
    world_set_model(w, laser, "sprites/laserbeam.spr");
    assert_int_equal(hl_decoder.read_frame(L.st, w, &(dec_error_t){0}), 1);
    w->num_events = 0;
    r_frame(L.r, w);
    double t0 = w->time;
    static uint8_t a[TW * TH], b[TW * TH], none[TW * TH];
    render_at(L.r, w, t0 + 0.2, none);
    // the frames the rule gives: (int)(10 x t) mod 5 at the two times
    r_hlbeam_t bm = {0};
    bm.framerate = 10;
    int f0 = r_hlfx_beam_frame(&bm, t0 + 0.2, 5), f1 = r_hlfx_beam_frame(&bm, t0 + 0.3, 5);
    int anim = beam_frames_diff(&L, smoke, 100, 0, t0, a, b);
    int drawn = 0;
    for (int i = 0; i < TW * TH; i++)
        drawn += a[i] != none[i];
    // looked at: the beam's two frames (smoke.spr's puffs, other puffs)
    render_at(L.r, w, t0 + 0.2, a);
    assert_int_equal(r_write_png(L.r, "build/rel/tests/goldsrc_te_beam_frame_a.png"), 0);
    render_at(L.r, w, t0 + 0.3, b);
    assert_int_equal(r_write_png(L.r, "build/rel/tests/goldsrc_te_beam_frame_b.png"), 0);
    int still = beam_frames_diff(&L, smoke, 0, 0, t0, a, b);
    int one = beam_frames_diff(&L, laser, 100, 0, t0, a, b);
    int laser_drawn = 0;
    for (int i = 0; i < TW * TH; i++)
        laser_drawn += a[i] != none[i];
    printf("beam sprite frames at %.2f and %.2f s: smoke.spr frames %d and %d, %d pixels drawn, %d differ; "
           "rate 0: %d differ; laserbeam.spr (1 frame, %d drawn): %d differ\n",
           t0 + 0.2, t0 + 0.3, f0, f1, drawn, anim, still, laser_drawn, one);
    assert_true(f0 != f1);
    assert_true(drawn > 150);
    assert_true(anim > 100);
    assert_int_equal(still, 0);
    assert_true(laser_drawn > 150);
    assert_int_equal(one, 0);
    close_level(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_palette),
        cmocka_unit_test(test_particle_effects),
        cmocka_unit_test(test_sprite_effects),
        cmocka_unit_test(test_more_effects),
        cmocka_unit_test(test_more_decoded),
        cmocka_unit_test(test_elight_decay),
        cmocka_unit_test(test_temp_models),
        cmocka_unit_test(test_golden_c1a0),
        cmocka_unit_test(test_more_c1a0),
        cmocka_unit_test(test_beam_sprite_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
