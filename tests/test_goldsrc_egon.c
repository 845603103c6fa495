// test_goldsrc_egon.c -- the egon's beams of the view player (EV_EgonFire / EV_EgonStop and
// hl_objects.cpp's UpdateBeams, render/r_hlfx.c): drawn from the view model's muzzle to where the
// view's line meets the wall, following the view, gone after egon_stop (a wide firing's flare
// fading there for 0.5 s), not drawn without their sprite or for another player; a seek into the
// firing draws the same picture. c1a0 with synthetic
// egon events in its log, as the decoder logs a client event.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "formats/goldsrc_events.h"
#include "render/r_hlfx.h"
#include "render/r_local.h"
#include "render/r_models.h"
#include "render/render.h"

#define TW 320
#define TH 200
#include "hl_level.h"   // open_c1a0, close_level, model_index

static int count_diff(const uint8_t *a, const uint8_t *b)
{
    int n = 0;
    for (int i = 0; i < TW * TH; i++)
        n += a[i] != b[i];
    return n;
}

// An egon event as the decoder logs it (formats/goldsrc.c client_event): the recording player's
// (entity 1, local) or another's (entity 2); startup = bparam1, mode = iparam2 (1 FIRE_WIDE).
static void egon_event(level_t *c, const char *script, int local, int startup, int mode)
{
    world_t *w = c->w;
    empty_frame(w);
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "%s", script);
    ev->entity = local ? 1 : 2;
    ev->local = (uint8_t)local;
    ev->args[1] = mode;
    ev->args[2] = startup;
    ev->seed = 4242;
    ev->eye_valid = 1;   // the demo's view then
    memcpy(ev->eye, w->view.origin, sizeof ev->eye);
    memcpy(ev->eye_angles, w->view.angles, sizeof ev->eye_angles);
    r_frame(c->r, w);
}

static int project(const r_view_t *v, const vec3_t p, float *sx, float *sy, float *z)
{
    float d[3] = {p[0] - v->vieworg[0], p[1] - v->vieworg[1], p[2] - v->vieworg[2]};
    *z = d[0] * v->vpn[0] + d[1] * v->vpn[1] + d[2] * v->vpn[2];
    if (*z < 1)
        return 0;
    *sx = v->xcenter + v->xscale * (d[0] * v->vright[0] + d[1] * v->vright[1] + d[2] * v->vright[2]) / *z;
    *sy = v->ycenter - v->yscale * (d[0] * v->vup[0] + d[1] * v->vup[1] + d[2] * v->vup[2]) / *z;
    return 1;
}

// The changed pixels inside the band the beams may cover (each point of the line from start to
// end, widened by the sine noise's 20 units (amplitude 0.2 x 100) x sin(pi f), the wider beam's
// half thickness 5 and a unit, seen at its depth, plus 2 pixels) and outside it.
static void band_count(const r_view_t *v, const uint8_t *a, const uint8_t *b, const vec3_t start, const vec3_t end,
                       int *inside, int *outside)
{
    enum { SAMPLES = 256 };
    float sx[SAMPLES + 1], sy[SAMPLES + 1], rad[SAMPLES + 1];
    int ok[SAMPLES + 1];
    for (int i = 0; i <= SAMPLES; i++) {
        float f = (float)i / SAMPLES, z;
        vec3_t p;
        for (int k = 0; k < 3; k++)
            p[k] = start[k] + (end[k] - start[k]) * f;
        ok[i] = project(v, p, &sx[i], &sy[i], &z);
        rad[i] = ok[i] ? (20.0f * sinf(3.14159265f * f) + 6.0f) * v->xscale / z + 2.0f : 0;
    }
    *inside = *outside = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            if (a[y * TW + x] == b[y * TW + x])
                continue;
            int in = 0;
            for (int i = 0; i <= SAMPLES && !in; i++) {
                float dx = (float)x + 0.5f - sx[i], dy = (float)y + 0.5f - sy[i];
                in = ok[i] && dx * dx + dy * dy <= rad[i] * rad[i];
            }
            if (in)
                (*inside)++;
            else
                (*outside)++;
        }
}

// Where the view's line meets the world or a brush entity (the tram the player rides) within
// 2048 units, each traced in its model's space.
static void view_wall(const world_t *w, const r_view_t *v, vec3_t out)
{
    size_t size;
    uint8_t *d = tu_read(tu_data("goldsrc/valve/maps/c1a0.bsp"), &size);
    char err[128];
    bsp_t *b = bsp_load(d, size, "c1a0", err, sizeof err);
    assert_non_null(b);
    vec3_t end;
    for (int k = 0; k < 3; k++)
        end[k] = v->vieworg[k] + 2048 * v->vpn[k];
    bsp_trace_t tr, best;
    assert_int_equal(bsp_trace(b, b->models[0].headnode, v->vieworg, end, &best), 1);
    memcpy(out, best.endpos, sizeof(vec3_t));
    for (int i = 1; i < w->num_entities; i++) {
        const world_entity_t *e = &w->entities[i];
        if (!world_entity_visible(w, i) || w->models[e->cur.modelindex][0] != '*')
            continue;
        vec3_t s, t;
        for (int k = 0; k < 3; k++) {
            s[k] = v->vieworg[k] - e->cur.origin[k];
            t[k] = end[k] - e->cur.origin[k];
        }
        int sub = atoi(w->models[e->cur.modelindex] + 1);
        if (bsp_trace(b, b->models[sub].headnode, s, t, &tr) && !tr.startsolid && tr.fraction < best.fraction) {
            best = tr;
            for (int k = 0; k < 3; k++)
                out[k] = tr.endpos[k] + e->cur.origin[k];
        }
    }
    assert_true(best.fraction < 1);   // c1a0's tram: a wall within reach
    bsp_free(b);
    free(d);
}

static void test_egon_beams(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    r_hlfx_t *fx = r_models_hlfx(c.r->models);
    int beam_model = model_index(w, "sprites/xbeam1.spr"), flare_model = model_index(w, "sprites/XSpark1.spr");
    int v_egon = model_index(w, "models/v_egon.mdl"), v_crowbar = model_index(w, "models/v_crowbar.mdl");
    assert_true(beam_model > 0 && flare_model > 0 && v_egon > 0 && v_crowbar > 0);   // c1a0 precaches the weapons'
    assert_int_equal(w->maxclients, 1);
    assert_true(w->view.stats[STAT_HEALTH] > 0);
    // the player holds the egon (c1a0's player has no weapon yet: its view model is set here)
    w->view.stats[STAT_WEAPON] = v_egon;
    empty_frame(w);
    r_frame(c.r, w);
    double t = w->time + 0.01;
    uint8_t *before = malloc(TW * TH), *now = malloc(TW * TH), *beams_only = malloc(TW * TH), *turned = malloc(TW * TH);
    uint8_t *before_late = malloc(TW * TH);
    render_at(c.r, w, t + 0.6, before_late);
    render_at(c.r, w, t, before);
    r_hlbeam_t b[2];
    r_hlsprite_t flare;
    int nb;
    assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 0);   // not firing

    // another player's egon: its sounds only (the client draws its own player's beams)
    egon_event(&c, "egon_fire", 0, 1, 1);
    render_at(c.r, w, t, now);
    assert_int_equal(count_diff(before, now), 0);

    // the view player's startup, wide mode; first without the flare's sprite (the beams alone)
    world_set_model(w, flare_model, "sprites/not_xspark1.spr");
    egon_event(&c, "egon_fire", 1, 1, 1);
    render_at(c.r, w, t, beams_only);
    assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 1);
    assert_int_equal(nb, 2);
    assert_int_equal(flare.model, 0);
    vec3_t muzzle, wall;
    assert_int_equal(r_hlfx_muzzle(fx, muzzle), 1);
    view_wall(w, &c.r->view, wall);
    float gun = 0;
    for (int k = 0; k < 3; k++) {
        assert_true(fabsf(b[0].start[k] - muzzle[k]) < 1e-3f);   // the view model's attachment 0
        assert_true(fabsf(b[0].end[k] - wall[k]) < 1.0f);
        gun += (muzzle[k] - c.r->view.vieworg[k]) * (muzzle[k] - c.r->view.vieworg[k]);
    }
    gun = sqrtf(gun);
    printf("egon: muzzle %.1f %.1f %.1f (%.1f from the eye), wall %.1f %.1f %.1f; beams width %.1f / %.1f, amplitude "
           "%.2f / %.2f, colour %d %d %d, brightness %d, sine %d / %d\n",
           muzzle[0], muzzle[1], muzzle[2], gun, wall[0], wall[1], wall[2], b[0].width, b[1].width, b[0].amplitude,
           b[1].amplitude, b[0].color[0], b[0].color[1], b[0].color[2], b[0].amount, b[0].sine, b[1].sine);
    assert_true(gun > 2 && gun < 40);   // the muzzle, not the eye
    assert_true(fabsf(b[0].width - 3.5f) < 1e-6f && fabsf(b[1].width - 5.0f) < 1e-6f);
    assert_true(fabsf(b[0].amplitude - 0.2f) < 1e-6f && fabsf(b[1].amplitude - 0.08f) < 1e-6f);
    assert_int_equal(b[0].color[0], 50);
    assert_int_equal(b[0].color[2], 125);
    assert_int_equal(b[0].amount, 178);
    assert_int_equal(b[0].model, beam_model);
    assert_true(b[0].sine && !b[1].sine);
    int in, out;
    band_count(&c.r->view, before, beams_only, b[0].start, b[0].end, &in, &out);
    printf("egon: %d pixels changed in the beams' band, %d outside\n", in, out);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_egon_beams.png"), 0);   // looked at
    assert_true(in > 300);
    assert_true(out <= in / 100);

    // the flare alone (the beams' sprite not precached): pixels about the wall's point only
    world_set_model(w, flare_model, "sprites/XSpark1.spr");
    world_set_model(w, beam_model, "sprites/not_xbeam1.spr");
    r_frame(c.r, w);   // the sprite loads
    render_at(c.r, w, t, now);
    assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 1);
    assert_int_equal(nb, 0);
    assert_int_equal(flare.model, flare_model);
    float ex, ey, ez;
    assert_true(project(&c.r->view, wall, &ex, &ey, &ez));
    int near_end = 0, far_diff = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            if (now[y * TW + x] != before[y * TW + x]) {
                float dx = (float)x + 0.5f - ex, dy = (float)y + 0.5f - ey;
                if (dx * dx + dy * dy < 80.0f * 80.0f)
                    near_end++;
                else
                    far_diff++;
            }
    printf("egon: the flare alone changes %d pixels about the wall's point (%.0f, %.0f), %d elsewhere\n", near_end, ex, ey,
           far_diff);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_egon_flare.png"), 0);   // looked at
    assert_true(near_end > 50);
    assert_int_equal(far_diff, 0);
    // both: the golden
    world_set_model(w, beam_model, "sprites/xbeam1.spr");
    empty_frame(w);
    r_frame(c.r, w);   // the renderer loads the sprite back (its texture)
    render_at(c.r, w, t, now);
    const char *png = "build/rel/tests/goldsrc_egon_c1a0.png";
    assert_int_equal(r_write_png(c.r, png), 0);
    tu_golden("goldsrc_egon_c1a0", png, "tests/golden/goldsrc/egon_c1a0.png", 0.01);

    // same time, same picture; a seek into the firing (the log read again) draws it again
    uint8_t *again = malloc(TW * TH);
    render_at(c.r, w, t, again);
    assert_int_equal(count_diff(now, again), 0);
    r_clear_transients(c.r, 0);
    empty_frame(w);
    r_frame(c.r, w);
    render_at(c.r, w, t, again);
    assert_int_equal(count_diff(now, again), 0);
    // a later run event (bparam1 0) keeps it as it is
    egon_event(&c, "egon_fire", 1, 0, 1);
    render_at(c.r, w, t, again);
    assert_int_equal(count_diff(now, again), 0);

    // the view turns 25 degrees left: the beams end where the new line meets the wall
    vec3_t ang0, pang0;
    memcpy(ang0, w->view.angles, sizeof ang0);
    memcpy(pang0, w->view.prev_angles, sizeof pang0);
    w->view.angles[1] += 25;
    w->view.prev_angles[1] += 25;
    empty_frame(w);
    r_frame(c.r, w);
    world_set_model(w, flare_model, "sprites/not_xspark1.spr");
    world_set_model(w, beam_model, "sprites/not_xbeam1.spr");   // the picture without the beams, from there
    render_at(c.r, w, t, turned);
    world_set_model(w, beam_model, "sprites/xbeam1.spr");
    w->view.stats[STAT_WEAPON] = v_crowbar;
    render_at(c.r, w, t, now);
    assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 0);   // another weapon: none
    w->view.stats[STAT_WEAPON] = v_egon;
    render_at(c.r, w, t, now);
    assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 1);
    vec3_t wall2;
    view_wall(w, &c.r->view, wall2);
    float moved = 0;
    for (int k = 0; k < 3; k++) {
        assert_true(fabsf(b[0].end[k] - wall2[k]) < 1.0f);
        moved += (wall2[k] - wall[k]) * (wall2[k] - wall[k]);
    }
    band_count(&c.r->view, turned, now, b[0].start, b[0].end, &in, &out);
    printf("egon: turned 25 degrees, the wall's point moved %.0f units; %d pixels in the new band, %d outside\n",
           sqrtf(moved), in, out);
    assert_true(sqrtf(moved) > 50);
    assert_true(in > 300);
    assert_true(out <= in / 100);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_egon_turned.png"), 0);   // looked at

    // egon_stop (wide mode): the beams go; the flare stays at the wall's point, growing 10 a
    // second (a step each 0.1 s) and fading over 0.5 s (halflife-updated's EV_EgonStop)
    memcpy(w->view.angles, ang0, sizeof ang0);
    memcpy(w->view.prev_angles, pang0, sizeof pang0);
    world_set_model(w, flare_model, "sprites/XSpark1.spr");
    empty_frame(w);
    r_frame(c.r, w);
    egon_event(&c, "egon_stop", 1, 0, 0);
    render_at(c.r, w, t, now);
    assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 0);
    assert_int_equal(nb, 0);
    assert_int_equal(flare.model, flare_model);
    assert_int_equal(flare.amount, 249);   // 255 x (1 - 2 x 0.01)
    for (int k = 0; k < 3; k++)
        assert_true(fabsf(flare.org[k] - wall[k]) < 1.0f);
    int fade_near = 0, fade_far = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            if (now[y * TW + x] != before[y * TW + x]) {
                float dx = (float)x + 0.5f - ex, dy = (float)y + 0.5f - ey;
                if (dx * dx + dy * dy < 80.0f * 80.0f)
                    fade_near++;
                else
                    fade_far++;
            }
    render_at(c.r, w, t + 0.25, now);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_egon_fade.png"), 0);   // looked at
    r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare);
    printf("egon: stopped (wide): the flare alone, %d pixels about the wall's point, %d elsewhere; 0.25 s on amount "
           "%d, scale %.1f\n",
           fade_near, fade_far, flare.amount, flare.scale);
    assert_int_equal(fade_far, 0);
    assert_true(fade_near > 50);
    assert_int_equal(flare.amount, 122);   // 0.26 s after the stop: 255 x 0.48
    assert_true(fabsf(flare.scale - 3.0f) < 1e-6f);
    // 0.6 s on: nothing left, the frame is that of no egon; a seek there the same
    render_at(c.r, w, t + 0.6, now);
    assert_int_equal(count_diff(before_late, now), 0);
    r_clear_transients(c.r, 0);
    empty_frame(w);
    r_frame(c.r, w);
    render_at(c.r, w, t + 0.6, now);
    assert_int_equal(count_diff(before_late, now), 0);
    // a narrow firing's stop leaves nothing at once (in a log of its own: the wide one's flare
    // would still be fading at that moment)
    w->decal_log_count = 0;
    r_clear_transients(c.r, 1);
    egon_event(&c, "egon_fire", 1, 1, 0);
    egon_event(&c, "egon_stop", 1, 0, 0);
    render_at(c.r, w, t, now);
    assert_int_equal(count_diff(before, now), 0);

    // no sprite precached: nothing drawn (EV_FindModelIndex 0), while it fires
    world_set_model(w, beam_model, "sprites/not_xbeam1.spr");
    world_set_model(w, flare_model, "sprites/not_xspark1.spr");
    egon_event(&c, "egon_fire", 1, 1, 0);
    render_at(c.r, w, t, now);
    assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 1);
    assert_int_equal(nb, 0);
    assert_int_equal(flare.model, 0);
    assert_int_equal(count_diff(before, now), 0);
    // dead: none
    world_set_model(w, beam_model, "sprites/xbeam1.spr");
    w->view.stats[STAT_HEALTH] = 0;
    assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 0);
    free(again);
    free(before);
    free(before_late);
    free(now);
    free(beams_only);
    free(turned);
    close_level(&c);
}

// The view model's own muzzle flash (its animation's events 5001..5031, the engine's R_MuzzleFlash):
// c1a0's player given a weapon in-process. The glock's shoot (v_9mmhandgun sequence 3, "11" at
// frame 0) shows muzzleflash2 (index 1) at scale 0.1 for 0.05 s from the sequence's start, the
// python's fire1 ("31") scale 0.3, the mp5's shoot ("20") the rifle flash (index 0) at 0.2 x 0.5..0.6;
// an idle sequence, or a local weapon event while the view model is a studio model, none. The
// glock's frame with its flash is a golden (looked at).
static int view_muzzle(r_hlfx_t *fx, double t, r_hlsprite_t *out)
{
    r_hlsprite_t list[HLFX_MAX_SPRITES + 1];
    int n = r_hlfx_sprites(fx, t, list, HLFX_MAX_SPRITES + 1), found = 0;
    for (int i = 0; i < n; i++)
        if (list[i].model < 0) {
            *out = list[i];
            found++;
        }
    return found;
}

static void test_view_flash(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    r_hlfx_t *fx = r_models_hlfx(c.r->models);
    static const struct {
        const char *model;
        int seq;
        int index;           // -1: no flash
        float lo, hi;        // its scale
    } cases[] = {
        {"models/v_9mmhandgun.mdl", 3, 1, 0.1f, 0.1f},
        {"models/v_357.mdl", 2, 1, 0.3f, 0.3f},
        {"models/v_9mmAR.mdl", 5, 0, 0.1f, 0.12f},
        {"models/v_9mmhandgun.mdl", 0, -1, 0, 0},   // idle1: no events
    };
    uint8_t *a = malloc(TW * TH), *b = malloc(TW * TH);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int vm = model_index(w, cases[i].model);
        assert_true(vm > 0);   // c1a0 precaches the weapons' view models
        w->view.stats[STAT_WEAPON] = vm;
        w->view.stats[STAT_WEAPONFRAME] = cases[i].seq;
        w->view.weaponanim_time = w->time;
        empty_frame(w);
        r_frame(c.r, w);
        r_hlsprite_t s;
        render_at(c.r, w, w->time + 0.01, a);
        int found = view_muzzle(fx, w->time + 0.01, &s);
        printf("  %s sequence %d: %d flash sprite(s)", cases[i].model, cases[i].seq, found);
        if (found)
            printf(" (model %d, scale %.3f)", s.model, s.scale);
        printf("\n");
        if (cases[i].index < 0) {
            assert_int_equal(found, 0);
            continue;
        }
        assert_int_equal(found, 1);
        assert_int_equal(s.model, HLFX_CLIENT_MUZZLE1 - cases[i].index);
        assert_true(s.scale >= cases[i].lo - 1e-5f && s.scale <= cases[i].hi + 1e-5f);
        render_at(c.r, w, w->time + 0.06, b);   // 0.05 s on: gone
        assert_int_equal(view_muzzle(fx, w->time + 0.06, &s), 0);
        if (i == 0) {   // the glock's flash (muzzleflash2.spr is in shared/), as drawn
            render_at(c.r, w, w->time + 0.01, a);
            assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_view_flash.png"), 0);   // looked at
            tu_golden("goldsrc_view_flash", "build/rel/tests/goldsrc_view_flash.png",
                      "tests/golden/goldsrc/view_flash_c1a0.png", 0.01);
        }
    }
    // a local weapon event's flash (the weapon events' rule) is not drawn over a studio view model's
    w->view.stats[STAT_WEAPON] = model_index(w, "models/v_9mmhandgun.mdl");
    w->view.stats[STAT_WEAPONFRAME] = 0;
    w->view.weaponanim_time = w->time;
    empty_frame(w);
    world_game_event_t ge = {0};
    ge.entity = 1;
    ge.local = 1;
    assert_int_equal(hl_event_emit(w, "events/glock1.sc", &ge), 1);
    r_frame(c.r, w);
    assert_true(fabs(r_hlfx_flash_time(fx) - w->time) < 1e-6);   // the event was seen (its light)
    r_hlsprite_t s;
    render_at(c.r, w, w->time + 0.01, a);
    assert_int_equal(view_muzzle(fx, w->time + 0.01, &s), 0);
    free(a);
    free(b);
    close_level(&c);
}

// In multiplayer the egon's beams stop on another player in the eye's line (UpdateBeams' trace
// with the players solid; here the player hull's box) and the flare shows there (halflife-updated
// draws it in multiplayer only over a creature): c1a0 made a two-player game, a second player put 60
// units along the view; without him the beams reach the wall and there is no flare.
static void test_egon_player(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    r_hlfx_t *fx = r_models_hlfx(c.r->models);
    int v_egon = model_index(w, "models/v_egon.mdl"), pm = model_index(w, "models/player.mdl");
    int flare_model = model_index(w, "sprites/XSpark1.spr");
    assert_true(v_egon > 0 && pm > 0 && flare_model > 0);
    w->maxclients = 2;
    w->view.stats[STAT_WEAPON] = v_egon;
    empty_frame(w);
    r_frame(c.r, w);
    egon_event(&c, "egon_fire", 1, 1, 0);
    double t = w->time + 0.01;
    uint8_t *img = malloc(TW * TH);
    assert_non_null(img);
    r_hlbeam_t b[2];
    r_hlsprite_t flare;
    int nb;
    for (int with = 0; with < 2; with++) {
        entity_state_t st;
        entity_state_clear(&st);
        st.modelindex = with ? pm : 0;
        st.solid_type = HL_SOLID_SLIDEBOX;   // alive (a dead player is SOLID_NOT)
        for (int k = 0; k < 3; k++)
            st.origin[k] = c.r->view.vieworg[k] + 60 * c.r->view.vpn[k];
        assert_int_equal(world_entity_update(w, 2, &st), 0);
        render_at(c.r, w, t, img);
        assert_int_equal(r_hlfx_egon(fx, w, &c.r->view, b, &nb, &flare), 1);
        assert_int_equal(nb, 2);
        float d = 0;
        for (int k = 0; k < 3; k++)
            d += (b[0].end[k] - c.r->view.vieworg[k]) * (b[0].end[k] - c.r->view.vieworg[k]);
        d = sqrtf(d);
        printf("  egon %s a player in the way: beams end %.1f units from the eye, flare %d\n", with ? "with" : "without",
               d, flare.model);
        if (with) {
            assert_true(d > 60 - 43 && d < 60);   // the box's near side (its half-diagonal is 42.5)
            assert_int_equal(flare.model, flare_model);
        } else {
            assert_true(d > 60);
            assert_int_equal(flare.model, 0);   // multiplayer, no creature: no flare
        }
    }
    free(img);
    close_level(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_egon_beams),
        cmocka_unit_test(test_view_flash),
        cmocka_unit_test(test_egon_player),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
