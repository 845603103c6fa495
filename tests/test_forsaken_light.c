// test_forsaken_light.c -- Forsaken's moving lights on the level's vertices (render/r_fsworld.c's
// r_fsworld_set_lights, the game's XLight1Group rule) and the lights render/r_fsent.c hands it
// (shots, their dying light, explosions, headlights, pickups): the rule's numbers, every lit
// vertex of a real level against the rule, pixels that follow the light's radius, and demos
// written by the project's writer drawn by `demoplay shot` (a headlight, a pulsar shot).
//
// FS_LIGHT_SHOTS=DIR keeps the PNGs and the demos there.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>
#include <stb_image_write.h>

#include "assets/mxv.h"
#include "assets/pal.h"
#include "engine/vfs.h"
#include "engine/world_fs.h"
#include "formats/forsaken.h"
#include "formats/forsaken_write.h"
#include "render/r_fsent.h"
#include "render/r_fsworld.h"
#include "fs_data.h"

static const char *out_dir(void)
{
    return tu_tmpdir("FS_LIGHT_SHOTS");
}

// ---- the rule ---------------------------------------------------------------------------

// The game's numbers (Lights.c XLight1Group; Ships.c headlights: 1536 units, 35 degrees, 192
// grey): a point light adds colour x (1 - d^2 / size^2), truncated; a spot light by its three
// bands. Expected values worked out by hand from those rules.
static void test_rule(void **state)
{
    (void)state;
    r_fslight_t pt = { .org = { 10, 20, 30 }, .size = 384, .rgb = { 0, 255, 180 } };
    float out[3];
    struct {
        float d;
        float g, b;
    } cases[] = { { 0, 255, 180 }, { 192, 191, 135 }, { 100, 237, 167 }, { 383, 1, 0 }, { 384, 0, 0 }, { 5000, 0, 0 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        float p[3] = { 10, 20 + cases[i].d, 30 };
        r_fslight_at(&pt, p, out);
        assert_true(out[0] == 0);
        if (out[1] != cases[i].g || out[2] != cases[i].b)
            fail_msg("point light at %.0f: %.0f %.0f, expected %.0f %.0f", cases[i].d, out[1], out[2], cases[i].g,
                     cases[i].b);
    }
    r_fslight_t spot = { .org = { 0, 0, 0 }, .size = 1536, .rgb = { 192, 192, 192 }, .spot = 1, .dir = { 0, 0, 1 },
                         .cos_arc = 0.81915204f };
    const float s40 = 0.64278761f, c40 = 0.76604444f, s60 = 0.8660254f;
    struct {
        float p[3];
        float v;
    } sc[] = {
        { { 0, 0, 1000 }, 89 },                 // far band, on the axis: (1536 - 1000) / (0.75 x 1536)
        { { 1000 * s40, 0, 1000 * c40 }, 0 },   // far band, 40 degrees off: outside the 35-degree cone
        { { 500 * s60, 0, 250 }, 57 },          // middle band, 60 degrees off: inside its wider cone
        { { 0, 0, -100 }, 0 },                  // near: behind it, 1 + cos = 0
        { { 100, 0, 0 }, 192 },                 // near, square to it: 1 + 0
        { { -70.710678f, 0, -70.710678f }, 56 },// near, 135 degrees: 1 + cos
        { { 0, 0, 1600 }, 0 },                  // beyond its size
    };
    for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
        r_fslight_at(&spot, sc[i].p, out);
        if (out[0] != sc[i].v || out[1] != sc[i].v || out[2] != sc[i].v)
            fail_msg("spot case %zu: %.0f, expected %.0f", i, out[0], sc[i].v);
    }
    printf("point light: 255 at the centre, 191 at half its size, 0 at its size; spot light: 89 on its axis at 1000\n");
}

// ---- a real level, in-process -------------------------------------------------------------

typedef struct {
    int w, h;
    uint8_t *px;
    float *z;
    pal_t pal;
    r_view_t v;
} shot_t;

static void render(r_fsworld_t *fw, shot_t *s, int w, int h, const float org[3], const float ang[3])
{
    s->w = w;
    s->h = h;
    s->px = calloc((size_t)w * (size_t)h, 1);
    s->z = calloc((size_t)w * (size_t)h, sizeof(float));
    static pal_t cache;   // the level's colormap takes ~30 ms: once
    static int cached;
    if (!cached || memcmp(cache.palette, r_fsworld_palette(fw), 768) != 0) {
        pal_set(&cache, r_fsworld_palette(fw), 256);
        cached = 1;
    }
    s->pal = cache;
    r_view_t *v = &s->v;
    memset(v, 0, sizeof *v);
    v->buffer = s->px;
    v->zbuffer = s->z;
    v->width = v->rowbytes = w;
    v->height = h;
    v->y1 = h;
    memcpy(v->vieworg, org, 12);
    r_fs_angle_vectors(ang, v->vpn, v->vright, v->vup);
    v->xcenter = w / 2.0f;
    v->ycenter = h / 2.0f;
    v->xscale = w / 2.0f;
    v->yscale = v->xscale * (h * 4.0f) / (w * 3.0f);
    v->colormap = s->pal.colormap;
    v->palette = s->pal.palette;
    v->fullbright_start = 256;
    r_fsworld_draw(fw, v);
}

static void shot_free(shot_t *s)
{
    free(s->px);
    free(s->z);
}

static void write_png(const shot_t *s, const char *name)
{
    if (!getenv("FS_LIGHT_SHOTS"))
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", out_dir(), name);
    uint8_t *rgb = malloc((size_t)s->w * (size_t)s->h * 3);
    for (int i = 0; i < s->w * s->h; i++)
        memcpy(rgb + i * 3, s->pal.palette + s->px[i] * 3, 3);
    assert_true(stbi_write_png(path, s->w, s->h, 3, rgb, s->w * 3) != 0);
    free(rgb);
}

static int brightness(const shot_t *s, int i)
{
    const uint8_t *c = s->pal.palette + s->px[i] * 3;
    return c[0] + c[1] + c[2];
}

// A point where the view from ship's first start position meets a wall: the eye's ray through
// the screen centre, `back` units before the wall.
static void wall_point(const shot_t *s, float back, float p[3])
{
    float zi = s->z[(s->h / 2) * s->w + s->w / 2];
    assert_true(zi > 0);
    float dist = 1 / zi - back;
    for (int k = 0; k < 3; k++)
        p[k] = s->v.vieworg[k] + s->v.vpn[k] * dist;
}

// Every vertex of the drawn groups carries its baked colour plus the light by the rule; the
// rest keep their baked colour; nothing changes once the light is gone.
static void test_level_vertices(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    r_fsworld_t *fw = fs_load_level("ship");
    const mxv_t *m = r_fsworld_mesh(fw);
    float org[3], ang[3], p[3];
    assert_int_equal(fs_start_pos("ship", org, ang), 0);
    shot_t s;
    render(fw, &s, 160, 100, org, ang);
    wall_point(&s, 100, p);
    shot_free(&s);

    r_fslight_t l = { .size = 384, .rgb = { 0, 255, 0 } };
    memcpy(l.org, p, sizeof p);
    r_fsworld_set_lights(fw, &l, 1);
    render(fw, &s, 160, 100, org, ang);
    r_fsworld_stats_t st = r_fsworld_stats(fw);
    int reached = 0, changed = 0;
    for (int i = 0; i < m->num_verts; i++) {
        const mxv_vertex_t *mv = &m->verts[i];
        uint8_t got[3];
        assert_true(r_fsworld_vertex_light(fw, i, got));
        int g = -1;
        for (int gi = 0; gi < m->num_groups && g < 0; gi++)
            for (int b = m->groups[gi].first_buffer; b < m->groups[gi].first_buffer + m->groups[gi].num_buffers; b++)
                if (i >= m->buffers[b].first_vert && i < m->buffers[b].first_vert + m->buffers[b].num_verts)
                    g = gi;
        float d2 = 0;
        for (int k = 0; k < 3; k++)
            d2 += (mv->pos[k] - p[k]) * (mv->pos[k] - p[k]);
        int add = 0;
        if (r_fsworld_group_visible(fw, g) && d2 < 384.0f * 384.0f) {
            add = (int)(255 * (1 - d2 / (384.0f * 384.0f)));
            reached += add > 0;
        }
        int want = mv->g + add > 255 ? 255 : mv->g + add;
        if (got[0] != mv->r || got[2] != mv->b || got[1] != want)
            fail_msg("vertex %d (%.0f units from the light): %d %d %d, expected %d %d %d", i, sqrtf(d2), got[0], got[1],
                     got[2], mv->r, want, mv->b);
        changed += got[1] != mv->g;
    }
    printf("ship: a green light of 384 units 100 before the wall ahead reaches %d vertices (%d changed, stats %d)\n",
           reached, changed, st.verts_lit);
    assert_true(reached >= 4);
    assert_int_equal(st.lights, 1);
    assert_int_equal(st.verts_lit, reached);
    shot_free(&s);

    r_fsworld_set_lights(fw, NULL, 0);
    render(fw, &s, 160, 100, org, ang);
    for (int i = 0; i < m->num_verts; i++) {
        uint8_t got[3];
        r_fsworld_vertex_light(fw, i, got);
        assert_true(got[0] == m->verts[i].r && got[1] == m->verts[i].g && got[2] == m->verts[i].b);
    }
    assert_int_equal(r_fsworld_stats(fw).verts_lit, 0);
    shot_free(&s);

    // hostile lights are left out or made safe
    r_fslight_t bad[4] = { { .org = { NAN, 0, 0 }, .size = 100, .rgb = { 255, 255, 255 } },
                           { .org = { 0, 0, 0 }, .size = -5, .rgb = { 255, 255, 255 } },
                           { .org = { 0, 0, 0 }, .size = INFINITY, .rgb = { 255, 255, 255 } },
                           { .size = 300, .rgb = { 1e9f, -4, NAN }, .spot = 1, .dir = { 0, 0, 0 } } };
    memcpy(bad[3].org, p, sizeof p);
    r_fsworld_set_lights(fw, bad, 4);
    render(fw, &s, 160, 100, org, ang);
    assert_int_equal(r_fsworld_stats(fw).lights, 1);
    shot_free(&s);
    r_fsworld_free(fw);
}

// The light on the picture follows its radius: pixels whose point (back from the z-buffer) is
// nearer the light gain more, and a light of twice the size brightens about twice as far.
static void test_pixels_follow_radius(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    r_fsworld_t *fw = fs_load_level("ship");
    float org[3], ang[3], p[3];
    assert_int_equal(fs_start_pos("ship", org, ang), 0);
    const int W = 320, H = 200;
    shot_t dark;
    render(fw, &dark, W, H, org, ang);
    wall_point(&dark, 60, p);
    write_png(&dark, "fs_light_none.png");
    double far_gain[2] = { 0, 0 };
    int lit_px[2] = { 0, 0 };
    for (int r = 0; r < 2; r++) {
        float size = r ? 512 : 256;
        r_fslight_t l = { .size = size, .rgb = { 255, 255, 255 } };
        memcpy(l.org, p, sizeof p);
        r_fsworld_set_lights(fw, &l, 1);
        shot_t s;
        render(fw, &s, W, H, org, ang);
        write_png(&s, r ? "fs_light_512.png" : "fs_light_256.png");
        // gain by distance from the light, in bands of a quarter of the larger size
        double gain[8] = { 0 };
        int n[8] = { 0 };
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int i = y * W + x;
                if (!(s.z[i] > 0))
                    continue;
                float z = 1 / s.z[i], q[3];
                float cx = (x + 0.5f - s.v.xcenter) / s.v.xscale * z, cy = (s.v.ycenter - (y + 0.5f)) / s.v.yscale * z;
                float d2 = 0;
                for (int k = 0; k < 3; k++) {
                    q[k] = org[k] + s.v.vright[k] * cx + s.v.vup[k] * cy + s.v.vpn[k] * z;
                    d2 += (q[k] - p[k]) * (q[k] - p[k]);
                }
                int band = (int)(sqrtf(d2) / 128);
                band = band > 7 ? 7 : band;
                int g = brightness(&s, i) - brightness(&dark, i);
                gain[band] += g;
                n[band]++;
                lit_px[r] += g > 0;
            }
        printf("light of %.0f units: mean r+g+b gain by distance (128-unit bands):", size);
        for (int b = 0; b < 8; b++) {
            gain[b] = n[b] ? gain[b] / n[b] : 0;
            printf(" %.1f", gain[b]);
        }
        printf("; %d pixels brighter\n", lit_px[r]);
        assert_true(n[0] > 20 && n[1] > 20 && n[2] > 20);
        assert_true(gain[0] > 60);                 // near it: much brighter
        assert_true(gain[0] > gain[1]);            // falling off with distance
        if (r == 0) {
            assert_true(gain[1] > gain[2]);
            assert_true(gain[3] < gain[0] * 0.15); // a 256-unit light: little beyond 384 (Gouraud across big triangles)
        } else {
            assert_true(gain[2] > gain[0] * 0.25); // a 512-unit light: still bright at 256..384
            far_gain[1] = gain[2];
        }
        if (r == 0)
            far_gain[0] = gain[2];
        for (int b = 0; b < 8; b++)
            assert_true(gain[b] >= 0);
        shot_free(&s);
    }
    assert_true(far_gain[1] > far_gain[0] * 2);
    assert_true(lit_px[1] > lit_px[0]);
    shot_free(&dark);
    r_fsworld_free(fw);
}

// A group's visible set as the game's VisibleGroup table has it: itself and every group of its
// portals' trees (walked here independently of r_fsworld.c).
static void seen_tree(const mxv_t *m, int i, uint8_t *seen)
{
    if (i < 0 || i >= m->num_vis)
        return;
    seen[m->vis[i].group] = 1;
    for (int c = m->vis[i].first_child; c >= 0; c = m->vis[c].next_sibling)
        seen_tree(m, c, seen);
}

static int group_of_vertex(const mxv_t *m, int i)
{
    for (int g = 0; g < m->num_groups; g++)
        for (int b = m->groups[g].first_buffer; b < m->groups[g].first_buffer + m->groups[g].num_buffers; b++)
            if (i >= m->buffers[b].first_vert && i < m->buffers[b].first_vert + m->buffers[b].num_verts)
                return g;
    return -1;
}

// The game lights a group only with lights whose group it sees (XLight1Group's
// GroupsAreVisible) and keeps only lights whose group shares a seen group with the eye's
// (BuildVisibleLightList). On ship: a light at the centre of a group b that group a does not
// see, sized to reach a's nearest vertex: with the eye in a, none of a's vertices is lit; with
// the portals off (every group drawn, no rule) they are, as before the rule.
static void test_light_through_walls(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    r_fsworld_t *fw = fs_load_level("ship");
    const mxv_t *m = r_fsworld_mesh(fw);
    assert_true(m->has_portals);
    int ng = m->num_groups, best_a = -1, best_b = -1, best_v = -1;
    float best_d = INFINITY;
    uint8_t *seen = calloc((size_t)ng * (size_t)ng, 1);
    assert_non_null(seen);
    for (int g = 0; g < ng; g++) {
        seen[g * ng + g] = 1;
        for (int p = m->groups[g].first_portal; p < m->groups[g].first_portal + m->groups[g].num_portals; p++) {
            uint8_t row[1024] = { 0 };
            assert_true(ng <= 1024);
            seen_tree(m, m->portals[p].root, row);
            for (int k = 0; k < ng; k++)
                seen[g * ng + k] |= row[k];
        }
    }
    // the pair (a, b) not seen either way, b's centre nearest to a vertex of a
    for (int i = 0; i < m->num_verts; i++) {
        int a = group_of_vertex(m, i);
        if (a < 0)
            continue;
        for (int b = 0; b < ng; b++) {
            if (seen[a * ng + b] || seen[b * ng + a] || m->groups[b].half_size[0] <= 0)
                continue;
            float d2 = 0;
            for (int k = 0; k < 3; k++)
                d2 += (m->verts[i].pos[k] - m->groups[b].center[k]) * (m->verts[i].pos[k] - m->groups[b].center[k]);
            if (sqrtf(d2) < best_d) {
                best_d = sqrtf(d2);
                best_a = a;
                best_b = b;
                best_v = i;
            }
        }
    }
    free(seen);
    assert_true(best_a >= 0);
    r_fslight_t l = { .size = best_d + 64, .rgb = { 255, 255, 255 } };
    memcpy(l.org, m->groups[best_b].center, sizeof l.org);
    float eye[3], ang[3] = { 0, 0, 0 };
    memcpy(eye, m->groups[best_a].center, sizeof eye);
    int lit[2] = { 0, 0 };
    for (int rule = 1; rule >= 0; rule--) {
        r_fsworld_set_culling(fw, rule ? R_FS_CULL_PORTALS : R_FS_CULL_NONE);
        r_fsworld_set_lights(fw, &l, 1);
        shot_t s;
        render(fw, &s, 160, 100, eye, ang);
        shot_free(&s);
        for (int i = 0; i < m->num_verts; i++) {
            uint8_t got[3];
            if (group_of_vertex(m, i) != best_a || !r_fsworld_vertex_light(fw, i, got))
                continue;
            lit[rule] += got[0] != m->verts[i].r || got[1] != m->verts[i].g || got[2] != m->verts[i].b;
        }
    }
    printf("ship: a light of %.0f units in group %d (%s), %.0f units from vertex %d of group %d (%s), which does not see "
           "it: %d of its vertices lit with the rule, %d without\n",
           l.size, best_b, m->groups[best_b].name, best_d, best_v, best_a, m->groups[best_a].name, lit[1], lit[0]);
    assert_int_equal(lit[1], 0);
    assert_true(lit[0] > 0);
    r_fsworld_free(fw);
}

// ---- demos drawn by demoplay -----------------------------------------------------------

static fs_ship_t ship_at(int player, const float pos[3], const float ang[3], uint32_t flags)
{
    fs_ship_t s;
    memset(&s, 0, sizeof s);
    s.player = (uint8_t)player;
    s.flags = FS_SHIP_ENABLE | flags;
    memcpy(s.pos, pos, sizeof s.pos);
    fs_angles_to_quat(ang, s.quat);
    return s;
}

// alice at ship's first start position, looking down the hall: `lights` her headlights on;
// `shot` a pulsar fired from 150 units ahead of her towards the wall at 1.0 s; `pickup` a
// shield 300 units ahead; `bob` a second ship 250 units ahead, facing her.
static void light_demo(const char *path, int lights, int shot, int pickup, int bob)
{
    float org[3], ang[3], fwd[3], right[3], up[3];
    assert_int_equal(fs_start_pos("ship", org, ang), 0);
    r_fs_angle_vectors(ang, fwd, right, up);
    fs_writer_t wr;
    fs_writer_init(&wr);
    fs_header_t h;
    memset(&h, 0, sizeof h);
    h.version = FS_VERSION_MIN;
    snprintf(h.level, sizeof h.level, "ship");
    fs_write_header(&wr, &h);
    fs_write_name(&wr, 1, 1, &(fs_name_t){ .player = 0, .name = "alice" });
    for (int i = 0; i <= 20; i++) {
        double t = 0.05 + i * 0.1;
        fs_ship_t s0 = ship_at(0, org, ang, lights ? FS_SHIP_LIGHT : 0);
        fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s0);
        if (bob) {
            float pos[3], back[3] = { -ang[0], ang[1] + 180, 0 };
            for (int k = 0; k < 3; k++)
                pos[k] = org[k] + 250 * fwd[k] - 20 * up[k];
            fs_ship_t s1 = ship_at(1, pos, back, 0);
            fs_write_ship(&wr, fs_ticks(t), 1, FS_MSG_UPDATE, &s1);
        }
        if (pickup && i == 2) {
            fs_droppickup_t d;
            memset(&d, 0, sizeof d);
            d.player = 0;
            d.id = 5;
            d.type = 24;   // shield: light (0, 128, 0) x 0.5
            for (int k = 0; k < 3; k++)
                d.pos[k] = org[k] + 300 * fwd[k] - 40 * up[k];
            fs_write_droppickup(&wr, fs_ticks(t + 0.01), 1, &d);
        }
        if (shot && i == 9) {
            fs_primbull_t pb;
            memset(&pb, 0, sizeof pb);
            pb.player = 0;
            pb.owner_type = 1;
            pb.owner = 0;
            pb.bullet_id = 3;
            pb.weapon = 0;   // pulsar, power 2: green 255
            pb.power_level = 2;
            for (int k = 0; k < 3; k++) {
                pb.pos[k] = org[k] + 150 * fwd[k] - 30 * up[k];
                pb.dir[k] = fwd[k];
            }
            fs_write_primbull(&wr, fs_ticks(1.0), 1, &pb);
        }
    }
    assert_false(wr.failed);
    assert_int_equal(tu_write(path, wr.data, wr.size), 0);
    fs_writer_free(&wr);
}

// Sums of r, g, b over a box of a PNG.
static void box_rgb(const char *png, int x0, int y0, int x1, int y1, double sum[3])
{
    int w, h, c;
    uint8_t *px = stbi_load(png, &w, &h, &c, 3);
    assert_non_null(px);
    sum[0] = sum[1] = sum[2] = 0;
    for (int y = y0; y < y1 && y < h; y++)
        for (int x = x0; x < x1 && x < w; x++)
            for (int k = 0; k < 3; k++)
                sum[k] += px[((size_t)y * (size_t)w + (size_t)x) * 3 + k];
    stbi_image_free(px);
}

static void test_demo_lights(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char plain[512], lit[512], fire[512], a[512], b[512], c[512], d[512];
    snprintf(plain, sizeof plain, "%s/fs_light_plain_%d.dmo", out_dir(), (int)getpid());
    snprintf(lit, sizeof lit, "%s/fs_light_head_%d.dmo", out_dir(), (int)getpid());
    snprintf(fire, sizeof fire, "%s/fs_light_shot_%d.dmo", out_dir(), (int)getpid());
    light_demo(plain, 0, 0, 0, 0);
    light_demo(lit, 1, 0, 0, 0);
    light_demo(fire, 0, 1, 1, 0);

    // headlights: the wall ahead brighter in the middle of the view than without
    snprintf(a, sizeof a, "%s/fs_light_plain.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_light_headlights.png", out_dir());
    fs_shot(plain, 0.5, a);
    fs_shot(lit, 0.5, b);
    double s0[3], s1[3];
    box_rgb(a, 120, 60, 200, 140, s0);
    box_rgb(b, 120, 60, 200, 140, s1);
    double g0 = s0[0] + s0[1] + s0[2], g1 = s1[0] + s1[1] + s1[2];
    printf("headlights: the middle of the view r+g+b %.0f with, %.0f without (x %.2f)\n", g1, g0, g1 / g0);
    assert_true(g1 > g0 * 1.1);
    tu_golden("headlights", b, "tests/golden/fs_light_headlights.png", 0.002);

    // the pulsar 0.05 s out (green, 384 units) and the shield pickup (green 64): more green
    // than without, in the lower middle of the view
    snprintf(c, sizeof c, "%s/fs_light_pulsar.png", out_dir());
    snprintf(d, sizeof d, "%s/fs_light_pickup.png", out_dir());
    fs_shot(fire, 1.05, c);
    fs_shot(fire, 0.9, d);
    double sp[3], sk[3];
    box_rgb(c, 60, 100, 260, 200, sp);
    box_rgb(d, 60, 100, 260, 200, sk);
    box_rgb(a, 60, 100, 260, 200, s0);
    printf("lower view green share: %.3f plain, %.3f with the pickup, %.3f with the pickup and the pulsar\n",
           s0[1] / (s0[0] + s0[1] + s0[2]), sk[1] / (sk[0] + sk[1] + sk[2]), sp[1] / (sp[0] + sp[1] + sp[2]));
    assert_true(sk[1] / (sk[0] + sk[1] + sk[2]) > s0[1] / (s0[0] + s0[1] + s0[2]) + 0.005);
    assert_true(sp[1] / (sp[0] + sp[1] + sp[2]) > sk[1] / (sk[0] + sk[1] + sk[2]) + 0.02);
    // 1 %: the Pentium build's x87 sums put 0.45 % of these pixels on the other side of a light
    // row or tint step (the light itself changes 64 % of them)
    tu_golden("pulsar light", c, "tests/golden/fs_light_pulsar.png", 0.01);
    if (!getenv("FS_LIGHT_SHOTS")) {
        remove(plain);
        remove(lit);
        remove(fire);
    }
}

// The lights r_fsent hands the level, in-process: a pulsar's light flies with it, dies red where
// it hits (size 384 - 50 a tick), and is gone 384 / 50 ticks later.
static void test_shot_lights(void **state)
{
    (void)state;
    r_fsent_t *fe = r_fsent_create();
    assert_non_null(fe);
    asset_files_t none = { NULL, NULL };
    uint8_t pal[768] = { 0 };
    mxv_t wall;   // a one-triangle level: a wall 500 units ahead on +z
    memset(&wall, 0, sizeof wall);
    mxv_vertex_t verts[3] = { { .pos = { -1000, -1000, 500 } }, { .pos = { 1000, -1000, 500 } }, { .pos = { 0, 1000, 500 } } };
    mxv_tri_t tri = { .v = { 0, 1, 2 } };
    wall.verts = verts;
    wall.num_verts = 3;
    wall.tris = &tri;
    wall.num_tris = 1;
    r_fsent_load(fe, &none, pal, &wall);
    world_t *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->time = 1.0;
    w->num_events = 1;
    world_fx_event_t *fx = &w->events[0].u.fx;
    w->events[0].type = EV_TEMPENT;
    fx->raw_type = FSW_FX_PRIMBULL;
    fx->dir[2] = 1;
    fx->args[FSW_FX_ARG_WEAPON] = FSW_PULSAR;
    fx->args[FSW_FX_ARG_POWER] = 1;
    r_fsent_frame(fe, w);
    r_fslight_t out[8];
    // in flight at 0.1 s: 227 units along, green 180, 384 units
    int n = r_fsent_lights(fe, NULL, 1.1, out, 8);
    assert_int_equal(n, 1);
    assert_true(fabsf(out[0].org[2] - 32 * 71 * 0.1f) < 0.01f);
    assert_true(out[0].size == 384 && out[0].rgb[0] == 0 && out[0].rgb[1] == 180 && out[0].spot == 0);
    // it reaches the wall at 500 / 2272 s; 3 ticks later its light is red, 384 - 150 units
    double hit = 1.0 + 500.0 / (32 * 71);
    w->num_events = 0;
    w->time = hit + 3.0 / 71;
    r_fsent_frame(fe, w);
    n = r_fsent_lights(fe, NULL, hit + 3.0 / 71, out, 8);
    assert_int_equal(n, 1);
    printf("pulsar at the wall 3 ticks after: size %.1f, red %.1f, at z %.1f\n", out[0].size, out[0].rgb[0], out[0].org[2]);
    assert_true(fabsf(out[0].size - 234) < 0.01f && fabsf(out[0].rgb[0] - 249) < 0.01f && out[0].rgb[1] == 0);
    assert_true(fabsf(out[0].org[2] - 500) < 0.01f);
    assert_int_equal(r_fsent_lights(fe, NULL, hit + 7.6 / 71, out, 8), 1);
    assert_int_equal(r_fsent_lights(fe, NULL, hit + 7.7 / 71, out, 8), 0);   // 384 / 50 = 7.68 ticks
    free(w);
    r_fsent_destroy(fe);
}

// Ships are lit by the moving lights as the level is (the game's XLightMxloadHeader): bob,
// 250 units ahead of alice, is brighter in her headlights. His pixels are those that differ
// between the scene with and without him; their mean r+g+b with her headlights off and on.
static void test_ship_in_headlights(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    char dark[512], lit[512], empty[512], a[512], b[512], c[512];
    snprintf(dark, sizeof dark, "%s/fs_bob_dark_%d.dmo", out_dir(), (int)getpid());
    snprintf(lit, sizeof lit, "%s/fs_bob_lit_%d.dmo", out_dir(), (int)getpid());
    snprintf(empty, sizeof empty, "%s/fs_bob_none_%d.dmo", out_dir(), (int)getpid());
    light_demo(dark, 0, 0, 0, 1);
    light_demo(lit, 1, 0, 0, 1);
    light_demo(empty, 1, 0, 0, 0);
    snprintf(a, sizeof a, "%s/fs_bob_dark.png", out_dir());
    snprintf(b, sizeof b, "%s/fs_bob_lit.png", out_dir());
    snprintf(c, sizeof c, "%s/fs_bob_none.png", out_dir());
    fs_shot(dark, 0.5, a);
    fs_shot(lit, 0.5, b);
    fs_shot(empty, 0.5, c);
    int w, h, n, w2, h2, w3, h3;
    uint8_t *pd = stbi_load(a, &w, &h, &n, 3), *pl = stbi_load(b, &w2, &h2, &n, 3), *pe = stbi_load(c, &w3, &h3, &n, 3);
    assert_non_null(pd);
    assert_non_null(pl);
    assert_non_null(pe);
    assert_true(w == w2 && w == w3 && h == h2 && h == h3);
    long px = 0;
    double sum_dark = 0, sum_lit = 0;
    for (int i = 0; i < w * h; i++) {
        const uint8_t *l = pl + i * 3, *e = pe + i * 3, *d = pd + i * 3;
        if (l[0] == e[0] && l[1] == e[1] && l[2] == e[2])
            continue;
        px++;
        sum_dark += d[0] + d[1] + d[2];
        sum_lit += l[0] + l[1] + l[2];
    }
    stbi_image_free(pd);
    stbi_image_free(pl);
    stbi_image_free(pe);
    printf("bob: %ld pixels; mean r+g+b %.1f without her headlights, %.1f in them (x %.2f)\n", px, sum_dark / (double)px,
           sum_lit / (double)px, sum_lit / (sum_dark + 1e-9));
    assert_true(px > 200);
    assert_true(sum_lit > sum_dark * 1.2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_shot_lights),
        cmocka_unit_test(test_level_vertices),
        cmocka_unit_test(test_pixels_follow_radius),
        cmocka_unit_test(test_light_through_walls),
        cmocka_unit_test(test_demo_lights),
        cmocka_unit_test(test_ship_in_headlights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
