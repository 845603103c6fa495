// test_goldsrc_beament.c -- GoldSrc's custom (beam) entities (env_beam, env_laser, the tripmine's
// laser, the egon's beams): put into c1a0's world in-process and drawn as beams from their state
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hlfx.h"
#include "render/render.h"

extern const decoder_t hl_decoder;

#define TW 320
#define TH 200
#include "hl_level.h"   // open_c1a0, close_level, model_index, ahead

#define BEAM_ENT 900     // numbers no entity of c1a0 uses at frame 150
#define TARGET_ENT 901

// The frame at the world's time.
static void grab(renderer_t *r, const world_t *w, uint8_t *out)
{
    render_at(r, w, w->time, out);
}

// Where p is on the screen of the view last drawn (r_main.c's projection of a 320 x 200 frame:
// 4:3 with pixels 1.2 tall); 0 when behind the eye.
static int project(const renderer_t *r, const vec3_t p, float *sx, float *sy)
{
    r_cam_state_t cs;
    r_camera_state(r, &cs);
    float pi = (float)M_PI / 180, yaw = cs.angles[1] * pi, pitch = cs.angles[0] * pi, roll = cs.angles[2] * pi;
    float sy_ = sinf(yaw), cy = cosf(yaw), sp = sinf(pitch), cp = cosf(pitch), sr = sinf(roll), cr = cosf(roll);
    vec3_t fwd = {cp * cy, cp * sy_, -sp};
    vec3_t right = {-sr * sp * cy + cr * sy_, -sr * sp * sy_ - cr * cy, -sr * cp};
    vec3_t up = {cr * sp * cy + sr * sy_, cr * sp * sy_ - sr * cy, cr * cp};
    vec3_t d = {p[0] - cs.origin[0], p[1] - cs.origin[1], p[2] - cs.origin[2]};
    float z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
    if (z < 1)
        return 0;
    float xscale = (float)(TW / 2.0 / tan(cs.fov * M_PI / 360)), yscale = xscale / 1.2f;
    *sx = TW / 2.0f + xscale * (d[0] * right[0] + d[1] * right[1] + d[2] * right[2]) / z;
    *sy = TH / 2.0f - yscale * (d[0] * up[0] + d[1] * up[1] + d[2] * up[2]) / z;
    return 1;
}

// Distance of pixel (x, y) from the segment a..b on the screen.
static float seg_dist(float x, float y, float ax, float ay, float bx, float by)
{
    float dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    float f = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    float ex = ax + dx * f - x, ey = ay + dy * f - y;
    return sqrtf(ex * ex + ey * ey);
}

typedef struct {
    int changed;        // pixels that differ
    int near_line;      // of them within 3 pixels of the projected segment
    int far_line;       // more than 8 away
    int max_off;        // the farthest of them from the segment (pixels)
    int rows_mid;       // rows that changed in the column of the segment's middle
    int left, right;    // the brightness (r + g + b) gained in the segment's first and last third (by x)
} diff_t;

static const uint8_t *g_pal;   // the level's palette (r_palette)

static int lum(int c) { return g_pal[c * 3] + g_pal[c * 3 + 1] + g_pal[c * 3 + 2]; }

static diff_t compare(const uint8_t *a, const uint8_t *b, float ax, float ay, float bx, float by)
{
    diff_t d = {0};
    int mid = (int)((ax + bx) / 2), x0 = (int)fminf(ax, bx), x1 = (int)fmaxf(ax, bx), third = (x1 - x0) / 3;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            if (a[y * TW + x] == b[y * TW + x])
                continue;
            d.changed++;
            float dist = seg_dist((float)x, (float)y, ax, ay, bx, by);
            d.near_line += dist <= 3;
            d.far_line += dist > 8;
            d.max_off = (int)dist > d.max_off ? (int)dist : d.max_off;
            d.rows_mid += x == mid;
            int gain = lum(b[y * TW + x]) - lum(a[y * TW + x]);
            d.left += x < x0 + third ? gain : 0;
            d.right += x > x1 - third ? gain : 0;
        }
    return d;
}

// A custom entity as CBeam makes it (BeamCreate + PointsInit): the sprite, white, brightness 255,
// width `width` (the delta sends it x 0.1), noise 0; its ends at `start` and `end`.
static entity_state_t beam_state(const world_t *w, const vec3_t start, const vec3_t end, float width)
{
    entity_state_t s;
    entity_state_clear(&s);
    s.solid = 1;
    s.modelindex = model_index(w, "sprites/laserbeam.spr");
    assert_true(s.modelindex > 0);
    memcpy(s.origin, start, sizeof(vec3_t));
    memcpy(s.angles, end, sizeof(vec3_t));
    s.rendermode = HLFX_BEAMENT_POINTS;
    s.renderamt = 255;
    s.rendercolor[0] = 255;
    s.rendercolor[1] = 80;
    s.rendercolor[2] = 40;
    s.scale = width;
    return s;
}

static diff_t draw_beam(level_t *c, const entity_state_t *s, const uint8_t *before, uint8_t *after, const vec3_t a,
                        const vec3_t b)
{
    assert_int_equal(world_entity_update(c->w, BEAM_ENT, s), 0);
    r_frame(c->r, c->w);
    grab(c->r, c->w, after);
    float ax = 0, ay = 0, bx = 0, by = 0;
    assert_true(project(c->r, a, &ax, &ay));
    assert_true(project(c->r, b, &bx, &by));
    g_pal = r_palette(c->r);
    return compare(before, after, ax, ay, bx, by);
}

static void print_diff(const char *what, const diff_t *d)
{
    printf("  %-34s %5d pixels changed, %5d within 3 of the line, %4d beyond 8 (farthest %d), %d rows in its middle "
           "column, brightness %d / %d gained in its first / last third\n",
           what, d->changed, d->near_line, d->far_line, d->max_off, d->rows_mid, d->left, d->right);
}

// A points beam across the view, 200 units ahead: pixels along the line between its projected ends
// and almost none elsewhere; wider and noisier beams make a thicker band; brightness 0, no sprite
// or a state the entity no longer has draw nothing; the same moment draws the same picture.
static void test_points_beam(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    empty_frame(w);
    r_frame(c.r, w);
    static uint8_t before[TW * TH], after[TW * TH], again[TW * TH];
    grab(c.r, w, before);
    vec3_t a, b;
    ahead(w, 60, 40, -8, a);
    ahead(w, 60, -40, -8, b);

    entity_state_t s = beam_state(w, a, b, 1.0f);   // width 10: 2 units thick
    diff_t thin = draw_beam(&c, &s, before, after, a, b);
    print_diff("points, width 10:", &thin);
    const char *out = "build/rel/tests/goldsrc_beament_points.png";
    assert_int_equal(r_write_png(c.r, out), 0);
    float ax = 0, ay = 0, bx = 0, by = 0;
    assert_true(project(c.r, a, &ax, &ay) && project(c.r, b, &bx, &by));
    printf("  the ends on the screen: (%.1f, %.1f) .. (%.1f, %.1f)\n", ax, ay, bx, by);
    assert_true(ax < 110 && bx > 210);                    // across the middle of the view
    assert_true(thin.changed > (int)(bx - ax));          // a pixel or more for each column
    assert_true(thin.near_line >= thin.changed * 95 / 100);
    assert_true(thin.far_line == 0);
    assert_true(thin.rows_mid >= 1 && thin.rows_mid <= 3);

    // a moment draws the same picture whatever was drawn before it
    render_at(c.r, w, w->time + 0.05, again);
    grab(c.r, w, again);
    assert_memory_equal(after, again, sizeof after);

    s.scale = 4.0f;   // width 40: 8 units
    diff_t wide = draw_beam(&c, &s, before, again, a, b);
    print_diff("points, width 40:", &wide);
    assert_true(wide.rows_mid >= thin.rows_mid + 3);
    assert_true(wide.changed > thin.changed * 2);
    assert_true(wide.far_line == 0);

    s.scale = 1.0f;
    s.body = 100;     // noise: amplitude 1
    diff_t noisy = draw_beam(&c, &s, before, again, a, b);
    print_diff("points, noise 100:", &noisy);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_beament_noise.png"), 0);
    assert_true(noisy.max_off >= 4);
    assert_true(noisy.max_off > thin.max_off + 2);
    // the noise is new each moment, the same at the same moment
    static uint8_t later[TW * TH];
    render_at(c.r, w, w->time + 0.1, later);
    grab(c.r, w, after);
    int moved = 0;
    for (int i = 0; i < TW * TH; i++)
        moved += later[i] != again[i];
    printf("  noise 100: 0.1 s later %d pixels differ; again at the same moment %s\n", moved,
           memcmp(after, again, sizeof after) ? "DIFFERENT" : "identical");
    assert_true(moved > 20);
    assert_memory_equal(after, again, sizeof after);

    s.body = 0;
    s.rendermode = HLFX_BEAMF_SINE;   // sine noise of amplitude 0.2: a wave 20 units high
    s.body = 20;
    diff_t sine = draw_beam(&c, &s, before, again, a, b);
    print_diff("points, sine noise 20:", &sine);
    assert_int_equal(r_write_png(c.r, "build/rel/tests/goldsrc_beament_sine.png"), 0);   // to look at
    assert_true(sine.max_off >= 8);

    s.body = 0;
    s.rendermode = HLFX_BEAMF_SHADEIN;   // 0 at the start (the left end) to whole at the end
    diff_t in = draw_beam(&c, &s, before, again, a, b);
    print_diff("points, shade in:", &in);
    assert_true(in.left * 2 < in.right);
    s.rendermode = HLFX_BEAMF_SHADEOUT;
    diff_t outd = draw_beam(&c, &s, before, again, a, b);
    print_diff("points, shade out:", &outd);
    assert_true(outd.right * 2 < outd.left);

    // solid: the texture x the colour written, not added to what is behind
    s.rendermode = HLFX_BEAMF_SOLID;
    diff_t solid = draw_beam(&c, &s, before, again, a, b);
    int counts[256] = {0}, most = 0, additive_kinds = 0, solid_kinds = 0;
    for (int i = 0; i < TW * TH; i++)
        if (again[i] != before[i])
            counts[again[i]]++;
    for (int i = 0; i < 256; i++) {
        most = counts[i] > most ? counts[i] : most;
        solid_kinds += counts[i] > 0;
    }
    memset(counts, 0, sizeof counts);
    s.rendermode = HLFX_BEAMENT_POINTS;
    s.renderamt = 128;   // additive at half brightness: the colour added to each pixel behind
    draw_beam(&c, &s, before, later, a, b);
    for (int i = 0; i < TW * TH; i++)
        if (later[i] != before[i])
            counts[later[i]]++;
    for (int i = 0; i < 256; i++)
        additive_kinds += counts[i] > 0;
    printf("  solid: %d pixels in %d colours (%d of one); additive at 128: %d colours\n", solid.changed, solid_kinds,
           most, additive_kinds);
    // written, not added: the few colours of laserbeam.spr's texels x the colour (5 here), where the
    // additive beam takes as many as the pixels behind it
    assert_true(solid_kinds <= 8);
    assert_true(additive_kinds > 4 * solid_kinds);

    // brightness 0 adds nothing; a model that is not a sprite draws nothing (R_BeamDraw)
    s.renderamt = 0;
    diff_t dark = draw_beam(&c, &s, before, again, a, b);
    assert_int_equal(dark.changed, 0);
    s.renderamt = 255;
    s.modelindex = 1;   // the world
    diff_t nomodel = draw_beam(&c, &s, before, again, a, b);
    assert_int_equal(nomodel.changed, 0);
    // a non-custom entity with the same state would be a sprite at its origin: not the line
    s = beam_state(w, a, b, 1.0f);
    s.solid = 0;
    diff_t sprite = draw_beam(&c, &s, before, again, a, b);
    print_diff("the same as a plain entity:", &sprite);
    assert_true(sprite.right == 0);

    // the golden (the thin points beam, looked at: an orange line across the tunnel ahead)
    tu_golden("goldsrc_beament_points", out, "tests/golden/goldsrc/beament_points.png", 0.01);
    close_level(&c);
}

// An entity-to-point beam (BEAM_ENTPOINT, as the tripmine's laser and the egon's: PointEntInit):
// from its point to the entity in skin, wherever that entity is; none when the entity is gone.
static void test_entpoint_follows(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t c;
    open_c1a0(&c, 150);
    world_t *w = c.w;
    empty_frame(w);
    vec3_t a, p1, p2;
    ahead(w, 60, 40, -8, a);
    ahead(w, 60, -40, -8, p1);
    ahead(w, 60, -5, 12, p2);
    entity_state_t t;   // the entity the end follows: a laser dot sprite at brightness 0 (not seen)
    entity_state_clear(&t);
    t.modelindex = model_index(w, "sprites/laserdot.spr");
    assert_true(t.modelindex > 0);
    t.rendermode = RM_ADDITIVE;
    t.renderamt = 0;
    memcpy(t.origin, p1, sizeof(vec3_t));
    assert_int_equal(world_entity_update(w, TARGET_ENT, &t), 0);
    r_frame(c.r, w);
    static uint8_t before[TW * TH], after[TW * TH];
    grab(c.r, w, before);

    vec3_t nowhere = {0, 0, 0};
    entity_state_t s = beam_state(w, a, nowhere, 1.0f);
    s.rendermode = HLFX_BEAMENT_ENTPOINT;
    s.skin = TARGET_ENT;   // end entity, attachment 0: its origin
    diff_t d1 = draw_beam(&c, &s, before, after, a, p1);
    print_diff("ent-point, entity at the right:", &d1);
    assert_true(d1.changed > 100);
    assert_true(d1.near_line >= d1.changed * 95 / 100);

    memcpy(t.origin, p2, sizeof(vec3_t));   // the entity moves: the beam's end with it
    assert_int_equal(world_entity_update(w, TARGET_ENT, &t), 0);
    entity_state_t off = s;   // the frame without the beam
    off.renderamt = 0;
    assert_int_equal(world_entity_update(w, BEAM_ENT, &off), 0);
    r_frame(c.r, w);
    grab(c.r, w, before);
    diff_t d2 = draw_beam(&c, &s, before, after, a, p2);
    print_diff("ent-point, entity moved up-left:", &d2);
    float ax = 0, ay = 0, x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    assert_true(project(c.r, a, &ax, &ay) && project(c.r, p1, &x1, &y1) && project(c.r, p2, &x2, &y2));
    // every pixel on the line to where it is now, none on the old line's far half
    assert_true(d2.changed > 50);
    assert_true(d2.near_line >= d2.changed * 95 / 100);
    int old_far = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            if (after[y * TW + x] != before[y * TW + x] && x > x2 + 10 &&
                seg_dist((float)x, (float)y, ax, ay, x1, y1) <= 2)
                old_far++;
    printf("  the end at (%.0f, %.0f) then (%.0f, %.0f); pixels on the old line past the new end: %d\n", x1, y1, x2, y2,
           old_far);
    assert_int_equal(old_far, 0);

    // the end's entity gone from the frame: the beam is not drawn (R_BeamRecomputeEndpoints)
    s.skin = TARGET_ENT + 7;
    diff_t gone = draw_beam(&c, &s, before, after, a, p2);
    assert_int_equal(gone.changed, 0);
    close_level(&c);
}

// CBeam's packing: type and flags in rendermode, entity and attachment in sequence / skin.
static void test_beament_fields(void **state)
{
    (void)state;
    entity_state_t s;
    entity_state_clear(&s);
    r_hlbeament_t e;
    s.rendermode = HLFX_BEAMENT_ENTS | HLFX_BEAMF_SINE;
    s.sequence = 5 | (2 << 12);
    s.skin = 0xfff | (15 << 12);
    r_hlfx_beament_ends(&s, &e);
    assert_int_equal(e.type, HLFX_BEAMENT_ENTS);
    assert_int_equal(e.start_ent, 5);
    assert_int_equal(e.start_att, 2);
    assert_int_equal(e.end_ent, 0xfff);
    assert_int_equal(e.end_att, 15);
    s.rendermode = HLFX_BEAMENT_ENTPOINT;   // the start is its point
    r_hlfx_beament_ends(&s, &e);
    assert_int_equal(e.start_ent, 0);
    assert_int_equal(e.end_ent, 0xfff);
    s.rendermode = HLFX_BEAMENT_POINTS;
    r_hlfx_beament_ends(&s, &e);
    assert_int_equal(e.start_ent + e.end_ent, 0);
    s.rendermode = 9;   // no such type: its points
    r_hlfx_beament_ends(&s, &e);
    assert_int_equal(e.type, HLFX_BEAMENT_POINTS);
    // the other fields: width (scale), noise (body / 100), scroll (animtime), colour, brightness
    s.rendermode = HLFX_BEAMF_SOLID | HLFX_BEAMF_SHADEOUT;
    s.scale = 5.5f;
    s.body = 64;
    s.animtime = 2.5f;
    s.rendercolor[0] = 300;
    s.rendercolor[1] = -4;
    s.rendercolor[2] = 17;
    s.sequence = -1;   // hostile: masked to 16 bits
    r_hlbeam_t b;
    vec3_t p0 = {1, 2, 3}, p1 = {4, 5, 6};
    r_hlfx_beament(&s, 12, p0, p1, 300, 2.0, &b);
    assert_float_equal(b.width, 5.5f, 1e-6);
    assert_float_equal(b.amplitude, 0.64f, 1e-6);
    assert_float_equal(b.speed, 2.5f, 1e-6);
    assert_float_equal(b.freq, 5.0f, 1e-6);
    assert_int_equal(b.color[0], 255);
    assert_int_equal(b.color[1], 0);
    assert_int_equal(b.color[2], 17);
    assert_int_equal(b.amount, 255);
    assert_int_equal(b.flags, HLFX_BEAMF_SOLID | HLFX_BEAMF_SHADEOUT);
    assert_float_equal(b.end[2], 6.0f, 0);
    r_hlfx_beament_ends(&s, &e);
    s.scale = NAN;
    s.animtime = INFINITY;
    r_hlfx_beament(&s, 12, p0, p1, -5, NAN, &b);
    assert_float_equal(b.width, 0.0f, 0);
    assert_float_equal(b.speed, 0.0f, 0);
    assert_int_equal(b.amount, 0);
    assert_true(isfinite(b.freq));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beament_fields),
        cmocka_unit_test(test_points_beam),
        cmocka_unit_test(test_entpoint_follows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
