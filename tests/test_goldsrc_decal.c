// test_goldsrc_decal.c -- Half-Life's decals: placed by temp entities, weapon events and the
// map's infodecals, drawn into the surface cache; the pool's reuse; hostile arguments
#include "testutil.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/bsp.h"
#include "assets/wad.h"
#include "engine/hlbullet.h"
#include "engine/hltent.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hldecal.h"
#include "render/r_hlfx.h"
#include "render/r_models.h"
#include "render/render.h"

extern const decoder_t hl_decoder;

#define TW 320
#define TH 200
#include "hl_level.h"   // open_c1a0 (read to frame 150: the same start as test_goldsrc_fx), close_level

// The index the demo gave decal `name` (its resource list), -1 none.
static int decal_index(const world_t *w, const char *name)
{
    for (int i = 0; i < WORLD_MAX_DECALS; i++)
        if (!strcasecmp(w->decal_names[i], name))
            return i;
    return -1;
}

// A decal temp entity as the decoder logs it (formats/goldsrc.c: the level's decal log).
static world_decal_t *tempent(world_t *w, int type, const float *pos)
{
    world_decal_t *l = world_add_decal(w);
    l->te = type;
    memcpy(l->pos, pos, sizeof(vec3_t));
    return l;
}

// ... on entity `ent`, standing where the world has it now
static void on_entity(const world_t *w, world_decal_t *l, int ent)
{
    l->entity = ent;
    if (ent > 0 && ent < w->num_entities)
        memcpy(l->ent_origin, w->entities[ent].cur.origin, sizeof(vec3_t));
}

// Where the view's line at (yaw + dyaw, pitch + dpitch) meets the world or a brush entity
// (the tram the player rides): the point, and the entity (0 the world).
static int view_hit(const world_t *w, const renderer_t *r, float dyaw, float dpitch, vec3_t out)
{
    (void)r;
    size_t size;
    uint8_t *d = tu_read(tu_data("goldsrc/valve/maps/c1a0.bsp"), &size);
    char err[128];
    bsp_t *b = bsp_load(d, size, "c1a0", err, sizeof err);
    assert_non_null(b);
    float yaw = (w->view.angles[1] + dyaw) * (float)M_PI / 180, pitch = (w->view.angles[0] + dpitch) * (float)M_PI / 180;
    vec3_t end;
    for (int k = 0; k < 3; k++)
        end[k] = w->view.origin[k];
    end[0] += 4096 * cosf(yaw) * cosf(pitch);
    end[1] += 4096 * sinf(yaw) * cosf(pitch);
    end[2] -= 4096 * sinf(pitch);
    bsp_trace_t tr, best;
    assert_int_equal(bsp_trace(b, b->models[0].headnode, w->view.origin, end, &best), 1);
    memcpy(out, best.endpos, sizeof(vec3_t));
    int ent = 0;
    for (int i = 1; i < w->num_entities; i++) {
        const world_entity_t *e = &w->entities[i];
        if (!world_entity_visible(w, i) || w->models[e->cur.modelindex][0] != '*')
            continue;
        vec3_t s, t;
        for (int k = 0; k < 3; k++) {
            s[k] = w->view.origin[k] - e->cur.origin[k];
            t[k] = end[k] - e->cur.origin[k];
        }
        int sub = atoi(w->models[e->cur.modelindex] + 1);
        if (bsp_trace(b, b->models[sub].headnode, s, t, &tr) && !tr.startsolid && tr.fraction < best.fraction) {
            best = tr;
            for (int k = 0; k < 3; k++)
                out[k] = tr.endpos[k] + e->cur.origin[k];
            ent = i;
        }
    }
    bsp_free(b);
    free(d);
    return ent;
}

// Pixels that differ between two frames, and their bounding box.
static int frame_diff(const uint8_t *a, const uint8_t *b, int w, int h, int box[4])
{
    int n = 0;
    box[0] = w;
    box[1] = h;
    box[2] = box[3] = -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (a[y * w + x] != b[y * w + x]) {
                n++;
                if (x < box[0]) box[0] = x;
                if (y < box[1]) box[1] = y;
                if (x > box[2]) box[2] = x;
                if (y > box[3]) box[3] = y;
            }
    return n;
}

// The frame a second after the world's time: the temp entities' own particles (TE_GUNSHOTDECAL's
// dust) are gone by then, the decals stay.
static uint8_t *grab(renderer_t *r, const world_t *w)
{
    r_render(r, w, w->time + 1);
    int fw, fh, pitch;
    const uint8_t *px = r_pixels(r, &fw, &fh, &pitch);
    assert_int_equal(pitch, fw);
    uint8_t *copy = malloc((size_t)fw * (size_t)fh);
    memcpy(copy, px, (size_t)fw * (size_t)fh);
    return copy;
}

// Decals by temp entity on c1a0's tram: a scorch straight ahead, blood to the left, a bullet
// hole to the right. The frame changes there and only there; the golden has been looked at.
static void test_golden_c1a0(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    // the demo's resource list named the decals (index 0 "{yblood6" ...)
    assert_string_equal(w->decal_names[0], "{yblood6");
    int scorch = decal_index(w, "{scorch1"), blood = decal_index(w, "{blood1"), shot = decal_index(w, "{shot1");
    assert_true(scorch > 0 && blood > 0 && shot > 0);
    assert_true(scorch < 256 && blood < 256 && shot < 256);
    assert_int_equal(r_hldecal_count(c.r), 0);   // c1a0 has no infodecal
    empty_frame(w);
    r_frame(c.r, w);
    uint8_t *before = grab(c.r, w);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_decal_c1a0_before.png"), 0);
    // the view looks at the inside of the tram (a brush entity): TE_DECAL names it
    vec3_t p;
    int ent = view_hit(w, c.r, 35, 0, p);            // the tunnel's left wall (the world)
    assert_int_equal(ent, 0);
    world_decal_t *e = tempent(w, 104, p);           // TE_DECAL: decal, entity
    e->decal = scorch;
    on_entity(w, e, ent);
    ent = view_hit(w, c.r, -35, 5, p);               // the right wall
    e = tempent(w, 118, p);                          // TE_DECALHIGH (the decoder adds the 256)
    e->decal = blood;
    on_entity(w, e, ent);
    ent = view_hit(w, c.r, 0, 0, p);                 // ahead: the tram's front (a brush entity)
    assert_true(ent > 0);
    e = tempent(w, 109, p);                          // TE_GUNSHOTDECAL: entity, decal
    e->decal = shot;
    on_entity(w, e, ent);
    r_frame(c.r, w);
    int placed = r_hldecal_count(c.r);
    assert_true(placed >= 3);
    assert_int_equal(r_hldecal_textures(c.r), 3);
    uint8_t *after = grab(c.r, w);
    int box[4];
    int n = frame_diff(before, after, 320, 200, box);
    printf("decals: %d in the pool, %d pixels changed in (%d,%d)-(%d,%d)\n", placed, n, box[0], box[1], box[2], box[3]);
    // the scorch (96 x 96 texels) ahead covers the view's centre; nothing changes at the edges
    assert_true(n > 300 && n < 320 * 200 / 3);
    assert_true(box[0] <= 160 && box[2] >= 160 && box[1] <= 100 && box[3] >= 100);
    assert_true(box[0] > 0 && box[2] < 319);
    const char *out = "build/rel/tests/goldsrc_decal_c1a0.png";
    assert_int_equal(r_write_png(c.r, out), 0);
    tu_golden("goldsrc_decal_c1a0", out, "tests/golden/goldsrc/decal_c1a0.png", 0.01);
    free(after);

    // the pool: 4096 more decals far from the view push out the three above (the oldest go
    // first) and the frame is as before them
    empty_frame(w);
    vec3_t far;
    view_hit(w, c.r, 180, 0, far);
    int total = 0;
    for (int i = 0; total < HLDECAL_MAX + 8 && i < 2 * HLDECAL_MAX; i++) {
        int k = r_hldecal_place(c.r, "{shot2", far, 0, NULL, w->time, 0);
        assert_true(k > 0);
        total += k;
    }
    assert_int_equal(r_hldecal_count(c.r), HLDECAL_MAX);
    r_frame(c.r, w);
    after = grab(c.r, w);
    int n2 = 0;
    for (int y = box[1]; y <= box[3]; y++)
        for (int x = box[0]; x <= box[2]; x++)
            n2 += before[y * 320 + x] != after[y * 320 + x];
    assert_int_equal(n2, 0);
    free(after);
    free(before);
    close_level(&c);
}

// Read what the decal code writes to stderr while f runs.
static char *capture_stderr(void (*f)(void *), void *arg)
{
    char path[] = "/tmp/demoplay_decal_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    f(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    size_t size;
    char *text = (char *)tu_read(path, &size);
    unlink(path);
    char *s = malloc(size + 1);
    memcpy(s, text ? text : "", text ? size : 0);
    s[text ? size : 0] = 0;
    free(text);
    return s;
}

static void hostile_frame(void *arg)
{
    level_t *c = arg;
    world_t *w = c->w;
    empty_frame(w);
    vec3_t ok;
    view_hit(w, c->r, 0, 0, ok);
    tempent(w, 116, ok)->decal = 300;              // a decal index the demo never named
    tempent(w, 117, ok)->decal = 511;              // TE_WORLDDECALHIGH: 511, never named
    world_decal_t *e = tempent(w, 104, ok);        // TE_DECAL on an entity that does not exist
    e->decal = decal_index(w, "{shot1");
    e->entity = 30000;
    e = tempent(w, 104, ok);                       // ... on the player (a studio model)
    e->decal = decal_index(w, "{shot1");
    e->entity = 1;
    vec3_t bad = { NAN, 0, 0 }, huge = { 1e9f, 0, 0 };
    tempent(w, 116, bad)->decal = decal_index(w, "{shot1");
    tempent(w, 116, huge)->decal = decal_index(w, "{shot1");
    e = tempent(w, 13, ok);                        // TE_BSPDECAL naming a model that is not a brush
    e->decal = decal_index(w, "{shot1");
    e->entity = 1;
    e->model = 1;
    e = tempent(w, 109, ok);                       // TE_GUNSHOTDECAL, negative decal
    e->decal = -5;
    e = tempent(w, 116, ok);                       // a decal index past the table
    e->decal = 100000;
    r_frame(c->r, w);
}

static void test_hostile(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    char *log = capture_stderr(hostile_frame, &c);
    printf("%s", log);
    assert_int_equal(r_hldecal_count(c.r), 0);
    assert_non_null(strstr(log, "names decal 300, which the demo never named: ignored"));
    assert_non_null(strstr(log, "a decal on entity 30000, which does not exist: ignored"));
    assert_non_null(strstr(log, "at a position outside the world: ignored"));
    assert_non_null(strstr(log, "TE_BSPDECAL on entity 1 without a brush model: ignored"));
    // each kind once a level
    assert_null(strstr(strstr(log, "never named") + 1, "never named"));
    // a name in no WAD
    assert_int_equal(r_hldecal_place(c.r, "{nosuchdecal", c.w->view.origin, 0, NULL, 0, 0), -1);
    free(log);
    close_level(&c);
}

// Pixels of the frame (a second after the world's time) whose colour is orange.
static int orange_pixels(renderer_t *r, const world_t *w)
{
    r_render(r, w, w->time + 1);
    int fw, fh, pitch, n = 0;
    const uint8_t *px = r_pixels(r, &fw, &fh, &pitch);
    const uint8_t *pal = r_palette(r);
    for (int i = 0; i < fw * fh; i++) {
        const uint8_t *rgb = pal + px[i] * 3;
        n += rgb[0] > 150 && rgb[0] > rgb[1] + 40 && rgb[2] < 60;
    }
    return n;
}

// The player's own glock shot (an event with no origin: the demo's eye and angles) leaves a
// "{shot" decal where the view's centre line meets the wall.
static void test_weapon_event(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    empty_frame(w);
    world_decal_t *ev = world_add_decal(w);          // as the decoder logs a client event
    snprintf(ev->script, sizeof ev->script, "glock1");
    ev->entity = 1;
    ev->local = 1;
    ev->seed = 12345;
    ev->eye_valid = 1;
    memcpy(ev->eye, w->view.origin, sizeof ev->eye);
    memcpy(ev->eye_angles, w->view.angles, sizeof ev->eye_angles);
    r_frame(c.r, w);
    assert_true(r_hldecal_count(c.r) >= 1);
    assert_int_equal(r_hldecal_textures(c.r), 1);
    // a spray (TE_PLAYERDECAL): tempdecal.wad's LOGO, the second picture
    int n = r_hldecal_count(c.r);
    int orange_before = orange_pixels(c.r, w);
    vec3_t p;
    int ent = view_hit(w, c.r, 35, 0, p);
    world_decal_t *spray = tempent(w, 112, p);
    spray->decal = 1;   // the player
    on_entity(w, spray, ent);
    r_frame(c.r, w);
    assert_true(r_hldecal_count(c.r) > n);
    assert_int_equal(r_hldecal_textures(c.r), 2);
    r_render(c.r, w, w->time + 1);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_decal_spray.png"), 0);   // looked at
    // the spray's colour is its palette's last entry (ff7818, the orange the player chose),
    // lit by the wall: orange pixels appear, none were there before
    int orange = orange_pixels(c.r, w);
    printf("spray: %d orange pixels (%d before)\n", orange, orange_before);
    assert_true(orange > orange_before + 100);
    // an event nobody shoots with (the crowbar's miss) leaves none
    n = r_hldecal_count(c.r);
    empty_frame(w);
    ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "crowbar");
    ev->local = 1;
    r_frame(c.r, w);
    assert_int_equal(r_hldecal_count(c.r), n);
    // a seek: the decals go and come back from the world's log as they were
    r_clear_transients(c.r, 0);
    assert_int_equal(r_hldecal_count(c.r), 0);
    r_frame(c.r, w);
    assert_int_equal(r_hldecal_count(c.r), n);
    // a seek back to the start (the world's log empty again): none
    w->decal_log_count = 0;
    r_clear_transients(c.r, 1);
    r_frame(c.r, w);
    assert_int_equal(r_hldecal_count(c.r), 0);
    close_level(&c);
}

// The mp5's tracer (EV_HLDM_CheckTracer, iTracerFreq 2): the player's bullets 0, 2, 4 ... draw a
// tracer (EV_CreateTracer, the engine's R_TracerEffect) from the gun to where the bullet stops and
// leave no decal; 1, 3 ... leave a decal and no tracer. The tracer is seen in the frame it is
// made, gone a second later.
static void test_mp5_tracer(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    int fw, fh, pitch;
    r_pixels(c.r, &fw, &fh, &pitch);
    uint8_t *before = malloc((size_t)fw * (size_t)fh), *now = malloc((size_t)fw * (size_t)fh);
    int changed[2], decals[2];
    for (int fired = 0; fired < 2; fired++) {
        w->decal_log_count = 0;
        r_clear_transients(c.r, 1);
        empty_frame(w);
        r_frame(c.r, w);
        render_at(c.r, w, w->time + 0.001, before);
        int n0 = r_hldecal_count(c.r);
        world_decal_t *ev = world_add_decal(w);
        snprintf(ev->script, sizeof ev->script, "mp5");
        ev->entity = 1;
        ev->local = 1;
        ev->seed = 777;
        ev->fired = (uint32_t)fired;
        ev->eye_valid = 1;
        memcpy(ev->eye, w->view.origin, sizeof ev->eye);
        memcpy(ev->eye_angles, w->view.angles, sizeof ev->eye_angles);
        ev->eye_angles[1] += 20;   // aimed off the middle, so the streak crosses the view
        r_frame(c.r, w);
        decals[fired] = r_hldecal_count(c.r) - n0;
        render_at(c.r, w, w->time + 0.001, now);
        if (fired == 0)
            assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_decal_mp5_tracer.png"), 0);   // looked at
        changed[fired] = 0;
        for (int i = 0; i < fw * fh; i++)
            changed[fired] += now[i] != before[i];
    }
    // a second later the tracer is gone: only the decal of bullet 1 is left of both
    render_at(c.r, w, w->time + 1, now);
    printf("mp5: bullet 0 (tracer) %d pixels changed, %d decals; bullet 1 %d pixels, %d decals\n", changed[0], decals[0],
           changed[1], decals[1]);
    assert_int_equal(decals[0], 0);
    assert_true(decals[1] >= 1);
    assert_true(changed[0] > 0);
    free(before);
    free(now);
    close_level(&c);
}

// The gauss (EV_FireGauss) on c1a0, fired by the recording player: a shot's legs as beams, its
// decals and glows. Head on (primary): one orange beam 1 wide at brightness 128 to the wall, a
// decal there; aimed down at the tram's floor at 10 degrees it reflects (the second leg leaves
// the floor upward, mirrored); secondary: white, 2.5 wide, brightness = damage; damage 10 or
// less, or bparam2 (the stop), make nothing; without the sprites precached, no beam, still the decal.
static int gauss_shot(level_t *c, float dpitch, float dyaw, float damage, int primary, int stop, r_hlbeam_t *beams,
                      int *nbeams, uint8_t *px)
{
    world_t *w = c->w;
    w->decal_log_count = 0;
    r_clear_transients(c->r, 1);
    empty_frame(w);
    r_frame(c->r, w);
    int n0 = r_hldecal_count(c->r);
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "gauss");
    ev->entity = 1;
    ev->local = 1;
    ev->seed = 99;
    ev->eye_valid = 1;
    memcpy(ev->eye, w->view.origin, sizeof ev->eye);
    memcpy(ev->eye_angles, w->view.angles, sizeof ev->eye_angles);
    ev->eye_angles[0] += dpitch;
    ev->eye_angles[1] += dyaw;
    ev->fparam[0] = damage;
    ev->args[2] = primary;
    ev->args[3] = stop;
    r_frame(c->r, w);
    *nbeams = r_hlfx_beams(r_models_hlfx(c->r->models), w->time + 0.01, beams, 16);
    if (px)
        render_at(c->r, w, w->time + 0.01, px);
    return r_hldecal_count(c->r) - n0;
}

static void test_gauss(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    int fw, fh, pitch;
    r_pixels(c.r, &fw, &fh, &pitch);
    uint8_t *before = malloc((size_t)fw * (size_t)fh), *now = malloc((size_t)fw * (size_t)fh);
    r_hlbeam_t b[16];
    int nb, box[4];
    // c1a0 precaches sprites/smoke.spr (its index) but not hotglow.spr
    int smoke = 0, glow = w->num_models;
    for (int i = 1; i < w->num_models; i++)
        if (!strcmp(w->models[i], "sprites/smoke.spr"))
            smoke = i;
    assert_true(smoke > 0);
    // without the beam's sprite: the decal, no beam
    world_set_model(w, smoke, "sprites/not_smoke.spr");
    int decals = gauss_shot(&c, 0, 20, 50, 1, 0, b, &nb, NULL);
    assert_true(decals >= 1);   // (a decal counts once a face it lies on)
    assert_int_equal(nb, 0);
    world_set_model(w, smoke, "sprites/smoke.spr");
    world_set_model(w, glow, "sprites/hotglow.spr");
    r_frame(c.r, w);   // the sprites load

    w->decal_log_count = 0;
    r_clear_transients(c.r, 1);
    empty_frame(w);
    r_frame(c.r, w);
    render_at(c.r, w, w->time + 0.01, before);
    decals = gauss_shot(&c, 0, 20, 50, 1, 0, b, &nb, now);
    int changed = frame_diff(before, now, fw, fh, box);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_decal_gauss.png"), 0);   // looked at
    vec3_t wall;
    view_hit(w, c.r, 20, 0, wall);
    printf("gauss primary: %d beam(s), model %d, width %.2f, colour %d %d %d, brightness %d; end %.1f %.1f %.1f (wall "
           "%.1f %.1f %.1f); %d decal(s); %d pixels changed in %d,%d..%d,%d\n",
           nb, nb ? b[0].model : -1, nb ? b[0].width : 0, nb ? b[0].color[0] : 0, nb ? b[0].color[1] : 0,
           nb ? b[0].color[2] : 0, nb ? b[0].amount : 0, nb ? b[0].end[0] : 0, nb ? b[0].end[1] : 0,
           nb ? b[0].end[2] : 0, wall[0], wall[1], wall[2], decals, changed, box[0], box[1], box[2], box[3]);
    assert_int_equal(nb, 1);
    assert_int_equal(b[0].model, smoke);
    assert_true(fabsf(b[0].width - 1.0f) < 1e-6f);
    assert_int_equal(b[0].color[0], 255);
    assert_int_equal(b[0].color[1], 128);
    assert_int_equal(b[0].color[2], 0);
    assert_int_equal(b[0].amount, 128);
    for (int k = 0; k < 3; k++)
        assert_true(fabsf(b[0].end[k] - wall[k]) < 1.0f);
    assert_true(decals >= 1);
    assert_true(changed > 100);
    // 0.2 s on the beam is gone (life 0.1), the glow and the decal stay
    render_at(c.r, w, w->time + 0.2, now);
    int later = frame_diff(before, now, fw, fh, box);
    assert_int_equal(r_hlfx_beams(r_models_hlfx(c.r->models), w->time + 0.2, b, 16), 0);
    printf("gauss: 0.2 s later %d pixels differ\n", later);
    assert_true(later > 0 && later < changed);

    // 20 degrees down and 150 to the right the line meets the floor at 70 degrees from its normal
    // (n = 0.35 < 0.5): reflected, going up again, x and y going on
    decals = gauss_shot(&c, 20, -150, 200, 1, 0, b, &nb, NULL);
    printf("gauss at the floor: %d beam(s), %d decal(s)", nb, decals);
    for (int i = 0; i < nb; i++)
        printf("; %.1f %.1f %.1f -> %.1f %.1f %.1f", b[i].start[0], b[i].start[1], b[i].start[2], b[i].end[0],
               b[i].end[1], b[i].end[2]);
    printf("\n");
    assert_true(nb >= 2);
    float d0[3], d1[3], l0 = 0, l1 = 0;
    for (int k = 0; k < 3; k++) {
        d0[k] = b[0].end[k] - b[0].start[k];
        d1[k] = b[1].end[k] - b[1].start[k];
        l0 += d0[k] * d0[k];
        l1 += d1[k] * d1[k];
        assert_true(fabsf(b[1].start[k] - b[0].end[k]) < 9);   // 8 units out along the new line
    }
    l0 = sqrtf(l0);
    l1 = sqrtf(l1);
    // the mirror of a unit line in the floor: the same x and y, z negated
    assert_true(fabsf(d1[0] / l1 - d0[0] / l0) < 0.02f);
    assert_true(fabsf(d1[1] / l1 - d0[1] / l0) < 0.02f);
    assert_true(fabsf(d1[2] / l1 + d0[2] / l0) < 0.02f);
    assert_true(d0[2] < 0);

    // secondary: white, 2.5 wide, brightness = damage
    decals = gauss_shot(&c, 0, 20, 150, 0, 0, b, &nb, NULL);
    printf("gauss secondary: %d beam(s), width %.2f, colour %d %d %d, brightness %d, %d decal(s)\n", nb,
           nb ? b[0].width : 0, nb ? b[0].color[0] : 0, nb ? b[0].color[1] : 0, nb ? b[0].color[2] : 0,
           nb ? b[0].amount : 0, decals);
    assert_true(nb >= 1);
    assert_true(fabsf(b[0].width - 2.5f) < 1e-6f);
    assert_int_equal(b[0].color[1], 255);
    assert_int_equal(b[0].amount, 150);
    assert_true(decals >= 1);
    // another player's secondary shot from 60 units to the right, across the view to the wall
    w->decal_log_count = 0;
    r_clear_transients(c.r, 1);
    empty_frame(w);
    r_frame(c.r, w);
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "gauss");
    ev->entity = 2;
    ev->seed = 5;
    float yaw = w->view.angles[1] * (float)M_PI / 180;
    memcpy(ev->pos, w->view.origin, sizeof ev->pos);
    ev->pos[0] += 60 * sinf(yaw);
    ev->pos[1] -= 60 * cosf(yaw);
    ev->pos[2] -= 28;   // the event's origin: the player's, the gun 28 above (hltent_event_gun)
    for (int k = 0; k < 3; k++)
        wall[k] -= ev->pos[k] + (k == 2 ? 28 : 0);
    ev->angles[1] = atan2f(wall[1], wall[0]) * 180 / (float)M_PI;
    ev->angles[0] = -atan2f(wall[2], sqrtf(wall[0] * wall[0] + wall[1] * wall[1])) * 180 / (float)M_PI;
    ev->fparam[0] = 200;
    r_frame(c.r, w);
    render_at(c.r, w, w->time + 0.01, now);
    int across = frame_diff(before, now, fw, fh, box);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_decal_gauss_across.png"), 0);   // looked at
    printf("gauss across the view: %d pixels changed in %d,%d..%d,%d\n", across, box[0], box[1], box[2], box[3]);
    assert_true(across > changed);
    assert_true(box[2] - box[0] > 100);   // from the right edge toward the wall in the middle
    // too weak, or the stop: nothing
    assert_int_equal(gauss_shot(&c, 0, 20, 10, 1, 0, b, &nb, NULL), 0);
    assert_int_equal(nb, 0);
    assert_int_equal(gauss_shot(&c, 0, 20, 200, 1, 1, b, &nb, NULL), 0);
    assert_int_equal(nb, 0);
    free(before);
    free(now);
    close_level(&c);
}

// Each bullet's hit makes R_BulletImpactParticles (2 spark streaks and 4 dark specks a 100 units
// nearer the eye than 1000), Counter-Strike's also 5..7 sparks (R_StreakSplash, concrete without
// materials.txt); only when the event comes (not when a seek places its decal again).
static int impact_particles(level_t *c, const char *script, int entity, vec3_t hit, int fresh)
{
    world_t *w = c->w;
    w->decal_log_count = 0;
    r_clear_transients(c->r, 1);
    empty_frame(w);
    r_frame(c->r, w);
    r_hlfx_t *fx = r_models_hlfx(c->r->models);
    int before = r_hlfx_num_particles(fx, w->time);
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "%s", script);
    ev->entity = entity;
    ev->local = 1;
    ev->seed = 31;
    ev->eye_valid = 1;
    memcpy(ev->eye, w->view.origin, sizeof ev->eye);
    memcpy(ev->eye_angles, w->view.angles, sizeof ev->eye_angles);
    ev->eye_angles[1] += 20;
    if (!fresh)
        ev->time = w->time - 1;   // an older entry (as after a seek)
    r_frame(c->r, w);
    view_hit(w, c->r, 20, 0, hit);
    return r_hlfx_num_particles(fx, w->time) - before;
}

static void test_bullet_impact(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    vec3_t hit;
    int hl = impact_particles(&c, "glock1", 1, hit, 1);
    float d = sqrtf((hit[0] - w->view.origin[0]) * (hit[0] - w->view.origin[0]) +
                    (hit[1] - w->view.origin[1]) * (hit[1] - w->view.origin[1]) +
                    (hit[2] - w->view.origin[2]) * (hit[2] - w->view.origin[2]));
    int q = (int)((1000 - (d < 1000 ? d : 1000)) / 100);
    q = q ? q : 1;
    int cs = impact_particles(&c, "usp", 1, hit, 1);
    r_render(c.r, w, w->time + 0.05);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_decal_impact.png"), 0);   // looked at
    int old = impact_particles(&c, "glock1", 1, hit, 0);
    printf("bullet impact %.0f units away: glock %d particles (2 + 4 x %d), usp %d (and 5..7 sparks), an older entry %d\n",
           d, hl, q, cs, old);
    assert_int_equal(hl, 2 + 4 * q);
    assert_true(cs >= hl + 5 && cs <= hl + 7);
    assert_int_equal(old, 0);
    close_level(&c);
}

// The part of the line p + t d (t in 0..1) inside player box about o (-16 -16 -36 .. 16 16 36):
// *t0 .. *t1, 0 when it misses.
static int box_span(const float *p, const float *d, const float *o, float *t0, float *t1)
{
    static const float mins[3] = {-16, -16, -36}, maxs[3] = {16, 16, 36};
    float a0 = 0, a1 = 1;
    for (int k = 0; k < 3; k++) {
        float lo = o[k] + mins[k] - p[k], hi = o[k] + maxs[k] - p[k];
        if (d[k] == 0) {
            if (lo > 0 || hi < 0)
                return 0;
            continue;
        }
        float a = lo / d[k], c = hi / d[k];
        if (a > c) {
            float tmp = a;
            a = c;
            c = tmp;
        }
        a0 = a > a0 ? a : a0;
        a1 = c < a1 ? c : a1;
    }
    *t0 = a0;
    *t1 = a1;
    return a0 <= a1;
}

// The gauss with the players solid (EV_FireGauss: EV_SetSolidPlayers(idx - 1)): c1a0's primary
// shot 20 degrees right of the view meets the wall (one leg, a decal). A second player 60 units
// along it ends the leg where his box begins; the client goes on from 1 unit past, each trace from
// inside the box ending where it starts (one of the ten hits each), so a body it crosses straight
// (32 units and more) ends the shot there: one leg, no decal, no glow. A box it only clips at a
// corner (4 units of the line in it) is left after 4 steps: two legs, the first to the box, the
// second from within a unit past its far side to the wall, and the wall's decal.
static void test_gauss_player(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    int pm = model_index(w, "models/player.mdl");
    assert_true(pm > 0);
    world_set_model(w, w->num_models, "sprites/hotglow.spr");
    r_frame(c.r, w);
    r_hlbeam_t b[16];
    int nb;
    vec3_t wall;
    view_hit(w, c.r, 20, 0, wall);
    const float *eye = w->view.origin;
    float dir[3], far[3], len = 0;
    for (int k = 0; k < 3; k++) {
        dir[k] = wall[k] - eye[k];
        len += dir[k] * dir[k];
    }
    len = sqrtf(len);
    for (int k = 0; k < 3; k++) {
        dir[k] /= len;
        far[k] = dir[k] * 8192;
    }
    w->maxclients = 2;
    // none
    int decals = gauss_shot(&c, 0, 20, 50, 1, 0, b, &nb, NULL);
    printf("gauss, no player: %d leg(s), %d decal(s), the wall %.1f units out\n", nb, decals, len);
    assert_int_equal(nb, 1);
    assert_true(decals >= 1);
    // on the line
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = pm;
    st.solid_type = HL_SOLID_SLIDEBOX;   // alive (a dead player is SOLID_NOT)
    for (int k = 0; k < 3; k++)
        st.origin[k] = eye[k] + 60 * dir[k];
    assert_int_equal(world_entity_update(w, 2, &st), 0);
    r_hlfx_t *fx = r_models_hlfx(c.r->models);
    uint8_t *px = malloc(TW * TH);
    assert_non_null(px);
    decals = gauss_shot(&c, 0, 20, 50, 1, 0, b, &nb, px);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_decal_gauss_player.png"), 0);   // looked at
    free(px);
    r_hlsprite_t spr[16];
    int glows = r_hlfx_sprites(fx, w->time + 0.01, spr, 16);
    float t0, t1;
    assert_true(box_span(eye, far, st.origin, &t0, &t1));
    float end = nb ? sqrtf((b[0].end[0] - eye[0]) * (b[0].end[0] - eye[0]) + (b[0].end[1] - eye[1]) * (b[0].end[1] - eye[1]) +
                           (b[0].end[2] - eye[2]) * (b[0].end[2] - eye[2]))
                   : -1;
    printf("gauss, a player on the line: %d leg(s) ending %.1f units out (his box %.1f..%.1f), %d decal(s), %d sprite(s)\n",
           nb, end, t0 * 8192, t1 * 8192, decals, glows);
    assert_int_equal(nb, 1);
    assert_true(fabsf(end - t0 * 8192) < 0.1f);
    assert_int_equal(decals, 0);
    assert_int_equal(glows, 0);
    // at the corner: moved aside along the horizontal perpendicular until 4 units of the line cross it
    float side[3] = {-dir[1], dir[0], 0}, sl = sqrtf(dir[0] * dir[0] + dir[1] * dir[1]);
    float o[3];
    int found = 0;
    for (float off = 0; off < 40 && !found; off += 0.01f) {
        for (int k = 0; k < 3; k++)
            o[k] = eye[k] + 60 * dir[k] + off * side[k] / sl;
        found = box_span(eye, far, o, &t0, &t1) && (t1 - t0) * 8192 < 4;
    }
    assert_true(found);
    memcpy(st.origin, o, sizeof o);
    assert_int_equal(world_entity_update(w, 2, &st), 0);
    decals = gauss_shot(&c, 0, 20, 50, 1, 0, b, &nb, NULL);
    printf("gauss, a player's box clipped (%.1f..%.1f units out): %d leg(s)", t0 * 8192, t1 * 8192, nb);
    float at[2][2];
    for (int i = 0; i < nb && i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            const float *p = j ? b[i].end : b[i].start;
            at[i][j] = (p[0] - eye[0]) * dir[0] + (p[1] - eye[1]) * dir[1] + (p[2] - eye[2]) * dir[2];
        }
        printf("; %.1f -> %.1f", at[i][0], at[i][1]);
    }
    printf(" units out, %d decal(s)\n", decals);
    assert_int_equal(nb, 2);
    int first = at[0][1] < at[1][1] ? 0 : 1;
    assert_true(fabsf(at[first][1] - t0 * 8192) < 0.1f);
    assert_true(at[!first][0] >= t1 * 8192 - 0.01f && at[!first][0] <= t1 * 8192 + 1.01f);
    assert_true(fabsf(at[!first][1] - len) < 1.0f);
    assert_true(decals >= 1);
    st.modelindex = 0;
    assert_int_equal(world_entity_update(w, 2, &st), 0);
    close_level(&c);
}

// The zoomed crossbow (EV_FireCrossbow2): its bolt stuck 10 units short of the wall it hits, along
// the shot, for 5 s (when models/crossbow_bolt.mdl is precached), and a spark shower there.
static void test_crossbow_bolt(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    int bolt = 0;   // c1a0 precaches it (else add it)
    for (int i = 1; i < w->num_models && !bolt; i++)
        if (!strcmp(w->models[i], "models/crossbow_bolt.mdl"))
            bolt = i;
    if (!bolt)
        world_set_model(w, bolt = w->num_models, "models/crossbow_bolt.mdl");
    r_frame(c.r, w);
    w->decal_log_count = 0;
    r_clear_transients(c.r, 1);
    empty_frame(w);
    r_frame(c.r, w);
    r_hlfx_t *fx = r_models_hlfx(c.r->models);
    int before = r_hlfx_num_particles(fx, w->time), models0 = hltent_count(c.r->hltent, w->time);
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "crossbow2");
    ev->entity = 1;
    ev->local = 1;
    ev->seed = 5;
    ev->eye_valid = 1;
    memcpy(ev->eye, w->view.origin, sizeof ev->eye);
    memcpy(ev->eye_angles, w->view.angles, sizeof ev->eye_angles);
    ev->eye_angles[1] += 20;
    r_frame(c.r, w);
    vec3_t hit;
    view_hit(w, c.r, 20, 0, hit);
    hltent_draw_t d[8];
    int n = hltent_list(c.r->hltent, c.r->bsp, w->time + 0.5, d, 8);
    int sparks = r_hlfx_num_particles(fx, w->time) - before;
    float dist = n ? sqrtf((d[0].org[0] - hit[0]) * (d[0].org[0] - hit[0]) + (d[0].org[1] - hit[1]) * (d[0].org[1] - hit[1]) +
                           (d[0].org[2] - hit[2]) * (d[0].org[2] - hit[2]))
                   : -1;
    printf("crossbow bolt: %d model(s) at 0.5 s (%d before), %.2f units short of the wall, yaw %.1f (aim %.1f); %d sparks; "
           "%d left at 5.5 s\n",
           n, models0, dist, n ? d[0].ang[1] : 0, w->view.angles[1] + 20, sparks, hltent_count(c.r->hltent, w->time + 5.5));
    assert_int_equal(models0, 0);
    assert_int_equal(n, 1);
    assert_int_equal(d[0].model, bolt);
    assert_true(fabsf(dist - 10) < 0.5f);
    float yaw = fmodf(d[0].ang[1] - (w->view.angles[1] + 20) + 720, 360);
    assert_true(yaw < 0.5f || yaw > 359.5f);
    assert_int_equal(sparks, 16);
    assert_int_equal(hltent_count(c.r->hltent, w->time + 5.5), 0);
    close_level(&c);
}

// The zoomed crossbow with the players solid (EV_SetSolidPlayers): a second player 60 units along
// the shot takes it (hltent_crossbow_hit: HLTENT_BOLT_BODY, where his box begins): no bolt, no
// sparks; the same player 76 units over the line lets it reach the wall: one bolt, 16 sparks.
static int crossbow_with_player(level_t *c, int bolt, float over, int *sparks, float *stop)
{
    world_t *w = c->w;
    w->decal_log_count = 0;   // each shot alone
    r_clear_transients(c->r, 1);
    empty_frame(w);
    r_frame(c->r, w);
    w->maxclients = 2;
    entity_state_t st;
    entity_state_clear(&st);
    st.modelindex = model_index(w, "models/player.mdl");
    st.solid_type = HL_SOLID_SLIDEBOX;   // alive (a dead player is SOLID_NOT)
    assert_true(st.modelindex > 0);
    ahead(w, 60, 0, over, st.origin);   // the eye's line: the event's gun is the eye
    assert_int_equal(world_entity_update(w, 2, &st), 0);
    r_hlfx_t *fx = r_models_hlfx(c->r->models);
    int before = r_hlfx_num_particles(fx, w->time);
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "crossbow2");
    ev->entity = 1;
    ev->local = 1;
    ev->seed = 5;
    ev->eye_valid = 1;
    memcpy(ev->eye, w->view.origin, sizeof ev->eye);
    ev->eye_angles[1] = w->view.angles[1];
    hlbullet_t b;
    vec3_t fwd;
    int hit = hltent_crossbow_hit(c->r->bsp, w, ev, &b, fwd);
    *stop = sqrtf((b.endpos[0] - b.src[0]) * (b.endpos[0] - b.src[0]) + (b.endpos[1] - b.src[1]) * (b.endpos[1] - b.src[1]) +
                  (b.endpos[2] - b.src[2]) * (b.endpos[2] - b.src[2]));
    r_frame(c->r, w);
    hltent_draw_t d[8];
    int n = hltent_list(c->r->hltent, c->r->bsp, w->time + 0.5, d, 8);
    for (int i = 0; i < n; i++)
        assert_int_equal(d[i].model, bolt);
    *sparks = r_hlfx_num_particles(fx, w->time) - before;
    w->maxclients = 1;
    st.modelindex = 0;
    assert_int_equal(world_entity_update(w, 2, &st), 0);
    return hit * 10 + n;
}

static void test_crossbow_player(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    int bolt = model_index(w, "models/crossbow_bolt.mdl");
    if (!bolt)
        world_set_model(w, bolt = w->num_models, "models/crossbow_bolt.mdl");
    r_frame(c.r, w);
    int sparks_on, sparks_over;
    float on, over;
    int r_on = crossbow_with_player(&c, bolt, 0, &sparks_on, &on);
    int r_over = crossbow_with_player(&c, bolt, 76, &sparks_over, &over);
    printf("crossbow and a player 60 units ahead: on the line hit %d, %d bolt(s), %d sparks, stops %.1f units out; "
           "76 over it hit %d, %d bolt(s), %d sparks, stops %.1f units out\n",
           r_on / 10, r_on % 10, sparks_on, on, r_over / 10, r_over % 10, sparks_over, over);
    assert_int_equal(r_on, HLTENT_BOLT_BODY * 10);
    assert_int_equal(sparks_on, 0);
    assert_true(on >= 60 - 16 * 1.4143f - 0.01f && on <= 60 - 16 + 0.01f);
    assert_int_equal(r_over, HLTENT_BOLT_WALL * 10 + 1);
    assert_int_equal(sparks_over, 16);
    assert_true(over > 60);
    close_level(&c);
}

// Counter-Strike's gun events on c1a0 (cs16-client's rules): another player's shot (the
// event's origin + 28, its angles) from where the view stands. The punch in iparam1/2 (x 100)
// turns the aim as much as turning the angles does; m3 fires 9 pellets, xm1014 6, ak47 one;
// an event without bullets (createexplo) leaves none.
static int cs_shot(level_t *c, const char *script, float dpitch, float dyaw, int ip1, int ip2, float fp1, uint8_t **px)
{
    world_t *w = c->w;
    w->decal_log_count = 0;   // each shot alone (a seek back to the start)
    r_clear_transients(c->r, 1);
    r_frame(c->r, w);
    empty_frame(w);
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "%s", script);
    ev->entity = 2;
    ev->seed = 4242;
    memcpy(ev->pos, w->view.origin, sizeof ev->pos);
    ev->pos[2] -= 28;
    memcpy(ev->angles, w->view.angles, sizeof ev->angles);
    ev->angles[0] += dpitch;
    ev->angles[1] += dyaw;
    ev->args[0] = ip1;
    ev->args[1] = ip2;
    ev->fparam[0] = fp1;
    r_frame(c->r, w);
    if (px)
        *px = grab(c->r, w);
    return r_hldecal_count(c->r);
}

static void test_cs_weapon_events(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    int fw, fh, pitch;
    r_pixels(c.r, &fw, &fh, &pitch);
    uint8_t *none, *aim, *punched, *turned, *hl;
    int n0 = cs_shot(&c, "createexplo", 0, 0, 0, 0, 0, &none);
    assert_int_equal(n0, 0);
    int n1 = cs_shot(&c, "ak47", 0, 12, 0, 0, 0, &aim);
    assert_true(n1 >= 1 && n1 <= 8);
    // 7 degrees up and 10 to the left by the punch (-700, 1000) = the same by the angles
    int n2 = cs_shot(&c, "ak47", 0, 12, -700, 1000, 0, &punched);
    int n3 = cs_shot(&c, "ak47", -7, 22, 0, 0, 0, &turned);
    assert_true(n2 >= 1 && n3 >= 1);
    int box[4];
    int moved = frame_diff(aim, punched, fw, fh, box);
    printf("ak47: %d decal(s); the punch moves it: %d pixels differ\n", n1, moved);
    assert_true(moved > 20);
    assert_int_equal(frame_diff(punched, turned, fw, fh, box), 0);
    int seen = frame_diff(none, aim, fw, fh, box);
    printf("the hole: %d pixels (box %d,%d..%d,%d)\n", seen, box[0], box[1], box[2], box[3]);
    assert_true(seen > 10);   // the hole is seen
    // Half-Life's guns take no punch: glock1 with the same iparams hits where the aim is
    cs_shot(&c, "glock1", 0, 12, -700, 1000, 0, &hl);
    uint8_t *hl0;
    cs_shot(&c, "glock1", 0, 12, 0, 0, 0, &hl0);
    assert_int_equal(frame_diff(hl, hl0, fw, fh, box), 0);
    // buckshot: a decal per pellet (a decal across faces takes more than one slot)
    uint8_t *m3px;
    int m3 = cs_shot(&c, "m3", 0, 12, 0, 0, 0, &m3px);
    free(m3px);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_decal_m3.png"), 0);   // looked at
    int xm = cs_shot(&c, "xm1014", 0, 12, 0, 0, 0, NULL);
    printf("m3: %d decals, xm1014: %d\n", m3, xm);
    assert_true(m3 >= 9 && m3 <= 9 * 8);
    assert_true(xm >= 6 && xm <= 6 * 8 && xm < m3);
    // the scout's spread comes x 1000: fparam1 = 100 is 0.1 to the right, not 100
    uint8_t *scout, *ak;
    assert_true(cs_shot(&c, "scout", 0, 12, 0, 0, 100, &scout) >= 1);
    assert_true(cs_shot(&c, "ak47", 0, 12, 0, 0, 0.1f, &ak) >= 1);
    assert_int_equal(frame_diff(scout, ak, fw, fh, box), 0);
    assert_true(frame_diff(scout, aim, fw, fh, box) > 20);
    free(scout);
    free(ak);
    free(none);
    free(aim);
    free(punched);
    free(turned);
    free(hl);
    free(hl0);
    close_level(&c);
}

// gchimp's c1a3d: three infodecals in its entities ({C1A3_RED2, {C1A3_RED3, {BIGBLOOD2),
// placed with the level; the blood under the dead barney seen from above.
static void test_infodecal(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/test_assets")), 0);
    world_t *w = world_create();
    w->game = GAME_GOLDSRC;
    snprintf(w->map, sizeof w->map, "maps/gchimp/c1a3d.bsp");
    renderer_t *r = r_create(320, 200);
    char err[256];
    r_load_level(r, fs, w, err, sizeof err);
    int n = r_hldecal_count(r);
    printf("c1a3d: %d decals from its infodecals\n", n);
    assert_true(n >= 3);
    assert_int_equal(r_hldecal_textures(r), 3);
    // seen from above the barney's blood ({BIGBLOOD2 at 1769 -328 640)
    w->view.origin_valid = 1;
    w->view.origin[0] = 1769 - 90;
    w->view.origin[1] = -328;
    w->view.origin[2] = 700;
    w->view.angles[0] = 35;
    w->view.fov = 90;
    w->view.stats[STAT_HEALTH] = 100;
    r_render(r, w, 0);
    const char *out = "build/rel/tests/goldsrc_decal_c1a3d.png";
    assert_int_equal(r_write_png(r, out), 0);
    tu_golden("goldsrc_decal_c1a3d", out, "tests/golden/goldsrc/decal_c1a3d.png", 0.01);
    // the same level with its decals dropped by a seek to the start: they stay (the level's own)
    r_clear_transients(r, 1);
    assert_int_equal(r_hldecal_count(r), n);
    r_destroy(r);
    world_free(w);
    vfs_free(fs);
}

// decals.wad's miptex lumps as the decals read them, and damaged ones
static void test_wad_miptex(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = tu_read(tu_data("goldsrc/valve/decals.wad"), &size);
    assert_non_null(d);
    wad_t w;
    char err[256] = "";
    assert_int_equal(wad_open(&w, d, size, err, sizeof err), 0);
    assert_int_equal(w.num_lumps, 222);
    wad_miptex_t mt;
    assert_int_equal(wad_lump_miptex(&w, wad_find(&w, "{shot1"), &mt, err, sizeof err), 0);
    assert_int_equal(mt.width, 16);
    assert_int_equal(mt.height, 16);
    assert_int_equal(mt.colours, 256);
    assert_int_equal(mt.mips[0][0], 0);            // the corner: no coverage
    assert_int_equal(mt.mips[0][8 * 16 + 8], 115); // the hole's middle
    assert_int_equal(mt.palette[255 * 3], 0);      // black
    assert_int_equal(wad_lump_miptex(&w, wad_find(&w, "{blood1"), &mt, err, sizeof err), 0);
    assert_int_equal(mt.width, 48);
    assert_int_equal(mt.palette[255 * 3], 0x16);   // dark red 160000
    // every lump of the file reads
    for (int i = 0; i < w.num_lumps; i++)
        assert_int_equal(wad_lump_miptex(&w, &w.lumps[i], &mt, err, sizeof err), 0);
    // a damaged copy: {shot1's mip 3 offset past its lump, its width 0
    const wad_lump_t *l = wad_find(&w, "{shot1");
    uint8_t *c = malloc(size);
    memcpy(c, d, size);
    c[l->offset + 36] = 0xff;
    c[l->offset + 37] = 0xff;
    wad_t w2;
    assert_int_equal(wad_open(&w2, c, size, err, sizeof err), 0);
    assert_int_equal(wad_lump_miptex(&w2, wad_find(&w2, "{shot1"), &mt, err, sizeof err), -1);
    char want[160];
    snprintf(want, sizeof want, "offset %u: expected mip 3 (4 bytes) inside the %u-byte lump \"{SHOT1\", got offset 65535",
             l->offset + 36, l->disksize);
    assert_string_equal(err, want);
    c[l->offset + 16] = 0;
    c[l->offset + 17] = 0;
    assert_int_equal(wad_lump_miptex(&w2, wad_find(&w2, "{shot1"), &mt, err, sizeof err), -1);
    assert_non_null(strstr(err, "expected a miptex size 8..1024, got 0 x 16"));
    wad_close(&w2);
    free(c);
    wad_close(&w);
    free(d);
}

// The decoder's log: crossfire's ten usp shots (the recording player's, at its eye), and on
// the renderer's side ten "{shot" decals on the wall ahead.
static void test_crossfire_log(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size = 0;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(data);
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    renderer_t *r = r_create(320, 200);
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    uint32_t seq = 0;
    while (hl_decoder.read_frame(st, w, &err) > 0) {
        if (w->level_seq != seq && w->map[0]) {
            char e[256];
            r_load_level(r, fs, w, e, sizeof e);
            seq = w->level_seq;
        }
        r_frame(r, w);
    }
    assert_int_equal(w->decal_log_count, 10);
    for (int i = 0; i < 10; i++) {
        const world_decal_t *l = &w->decal_log[i];
        assert_string_equal(l->script, "usp");
        assert_int_equal(l->te, 0);
        assert_int_equal(l->local, 1);
        assert_int_equal(l->fired, (uint32_t)i);
        assert_true(l->eye_valid);
        // the eye 17 units above the event's origin (Counter-Strike's view height)
        assert_true(fabsf(l->eye[2] - l->pos[2] - 17.0f) < 0.1f);
    }
    // each shot hit the wall 1250 units ahead (plane y = -1632): one decal each
    assert_int_equal(r_hldecal_count(r), 10);
    assert_true(r_hldecal_textures(r) >= 1 && r_hldecal_textures(r) <= 5);
    hl_decoder.close(st);
    r_destroy(r);
    free(st);
    world_free(w);
    vfs_free(fs);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wad_miptex),
        cmocka_unit_test(test_golden_c1a0),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_weapon_event),
        cmocka_unit_test(test_mp5_tracer),
        cmocka_unit_test(test_gauss),
        cmocka_unit_test(test_gauss_player),
        cmocka_unit_test(test_bullet_impact),
        cmocka_unit_test(test_crossbow_bolt),
        cmocka_unit_test(test_crossbow_player),
        cmocka_unit_test(test_cs_weapon_events),
        cmocka_unit_test(test_infodecal),
        cmocka_unit_test(test_crossfire_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
