// test_goldsrc_light.c -- Half-Life's light in 8 bits: coloured lightmaps dithered to the level palette
// (no bands on a smooth gradient), coloured dlights on surfaces, elights on studio models only, the
// engine's studio light rules, golden views of c1a0 and crossfire
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli.h"
#include "engine/demo.h"
#include "engine/log.h"
#include "engine/playback.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "render/r_hllight.h"
#include "render/r_hlmodes.h"
#include "render/r_local.h"
#include "render/r_studio.h"

static double lum(const uint8_t *pal, int i)
{
    return 0.299 * pal[i * 3] + 0.587 * pal[i * 3 + 1] + 0.114 * pal[i * 3 + 2];
}

typedef struct {
    vfs_t *fs;
    world_t *w;
    renderer_t *r;
} level_t;

static void level_open(level_t *lv, const char *dir, const char *map)
{
    log_set_level(0);
    lv->fs = vfs_create();
    assert_non_null(lv->fs);
    assert_int_equal(vfs_add_dir(lv->fs, tu_data(dir)), 0);
    lv->w = world_create();
    lv->r = r_create(320, 200);
    lv->w->game = GAME_GOLDSRC;
    snprintf(lv->w->map, sizeof lv->w->map, "%s", map);
    world_set_model(lv->w, 1, map);
    char err[256];
    assert_int_equal(r_load_level(lv->r, lv->fs, lv->w, err, sizeof err), 0);
    assert_non_null(lv->r->hllight);
    r_light_styles(lv->r, lv->w, 0);   // no styles sent: every style at its normal 'm'
}

static void level_close(level_t *lv)
{
    r_destroy(lv->r);
    world_free(lv->w);
    vfs_free(lv->fs);
}

// A lit world face with one style and a lightmap at least smin x tmin samples.
static int find_face(const bsp_t *b, int smin, int tmin)
{
    for (int i = b->models[0].firstface; i < b->models[0].firstface + b->models[0].numfaces; i++) {
        const bsp_face_t *f = &b->faces[i];
        if (f->lightofs < 0 || (f->flags & (BSP_SURF_SKY | BSP_SURF_TURB | BSP_SURF_NODRAW)) ||
            f->styles[0] != 0 || f->styles[1] != 255)
            continue;
        if ((f->extents[0] >> 4) + 1 >= smin && (f->extents[1] >> 4) + 1 >= tmin &&
            b->textures[b->texinfo[f->texinfo].texture].name[0] != '{')
            return i;
    }
    return -1;
}

// The face's surface at mip 0, built afresh (with the view's dlights marked on it when dl).
static const uint8_t *surface(renderer_t *r, int fi, int dl, int *cw, int *ch)
{
    const bsp_face_t *f = &r->bsp->faces[fi];
    r_surfctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.face = f;
    ctx.face_index = fi;
    ctx.texture = r->bsp->texinfo[f->texinfo].texture;
    r->framecount++;
    r->faces[fi].dlightframe = 0;
    r->faces[fi].dlightbits = 0;
    if (dl) {
        r_mark_lights(r);   // as r_render: the BSP walk marks the faces a light reaches
        for (int l = 0; l < r->view.num_dlights; l++)
            memcpy(ctx.dl_org[l], r->view.dlights[l].origin, sizeof(vec3_t));
    }
    r_surf_reset(r);
    const r_cached_t *c = r_surf_get(r, &ctx, 0);
    assert_non_null(c);
    *cw = c->width;
    *ch = c->height;
    return (const uint8_t *)(c + 1);
}

// A face of c1a0 given a flat grey texture and a smooth grey light from 20 (left) to 150 (right):
// the surface built from it must show the gradient without bands. Measured over the dither's
// 4 x 4 period, the brightness steps at most 4 (of 255) from one 4-texel column to the next
// (the true slope is under 2.5 a step); rounded to the nearest colour without the dither, the
// same surface steps by the palette's spacing, more than twice that.
static void test_gradient_no_bands(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t lv;
    level_open(&lv, "goldsrc/valve", "maps/c1a0.bsp");
    bsp_t *b = lv.r->bsp;
    assert_non_null(b->lightrgb);
    double ms = r_hllight_build_ms(lv.r->hllight);
    print_message("coloured light tables built in %.1f ms\n", ms);
    assert_true(ms >= 0 && ms < 600000);   // measured; how fast is make bench's business, not this test's
    int fi = find_face(b, 9, 5);
    assert_true(fi >= 0);
    bsp_face_t *f = &b->faces[fi];
    int smax = (f->extents[0] >> 4) + 1, tmax = (f->extents[1] >> 4) + 1;
    print_message("face %d: %d x %d samples\n", fi, smax, tmax);
    // the flat texture: every texel of mip 0 the palette's colour nearest grey 160
    bsp_texture_t *tex = &b->textures[b->texinfo[f->texinfo].texture];
    uint8_t grey = r_hl_nearest(lv.r->hl, 160, 160, 160);
    memset(b->texels + tex->offsets[0], grey, (size_t)tex->width * (size_t)tex->height);
    for (int t = 0; t < tmax; t++)
        for (int s = 0; s < smax; s++) {
            uint8_t v = (uint8_t)(20 + 130 * s / (smax - 1));
            memset(b->lightrgb + ((size_t)f->lightofs + (size_t)(t * smax + s)) * 3, v, 3);
        }
    double worst[2] = {0, 0}, first = 0, last = 0;
    int flat[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++) {
        r_hllight_set_dither(lv.r->hllight, pass == 0);
        int cw, ch;
        const uint8_t *px = surface(lv.r, fi, 0, &cw, &ch);
        assert_int_equal(cw, f->extents[0]);
        int rows = (ch / 4) * 4, groups = cw / 4;
        double prev = -1;
        for (int g = 0; g < groups; g++) {
            double sum = 0;
            for (int y = 0; y < rows; y++)
                for (int x = g * 4; x < g * 4 + 4; x++)
                    sum += lum(lv.r->pal.palette, px[y * cw + x]);
            double m = sum / (rows * 4);
            if (prev >= 0 && fabs(m - prev) > worst[pass])
                worst[pass] = fabs(m - prev);
            if (prev >= 0 && fabs(m - prev) < 0.05)   // a band: no change over a whole dither period
                flat[pass]++;
            if (pass == 0 && g == 0)
                first = m;
            if (pass == 0)
                last = m;
            prev = m;
        }
    }
    r_hllight_set_dither(lv.r->hllight, 1);
    double slope = (last - first) / (f->extents[0] / 4 - 1);
    print_message("brightness %.1f .. %.1f, %.2f a 4-texel step; largest step of the 4x4 means: dithered %.2f, "
                  "nearest colour %.2f; steps without change: %d / %d\n", first, last, slope, worst[0], worst[1],
                  flat[0], flat[1]);
    assert_true(last - first > 120);          // the gradient is there: about 25 -> 187
    assert_int_equal(flat[0], 0);             // dithered: every 4 texels a little brighter
    assert_true(flat[1] >= 2);                // nearest colour: bands
    assert_true(worst[0] <= 2 * slope);       // no step more than twice the gradient's own
    assert_true(worst[1] >= 2 * worst[0]);
    level_close(&lv);
}

// A red dlight (TE_DLIGHT's colour) 32 units in front of a c1a0 wall reddens the surface around its
// foot, and only there; an entity light (TE_ELIGHT) at the same place leaves the surface as it was.
static void test_dlight_elight_surface(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t lv;
    level_open(&lv, "goldsrc/valve", "maps/c1a0.bsp");
    bsp_t *b = lv.r->bsp;
    int fi = find_face(b, 9, 9);
    assert_true(fi >= 0);
    const bsp_face_t *f = &b->faces[fi];
    // the face's centre in the world: the middle of its texture extents, on its plane
    const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
    const bsp_plane_t *pl = &b->planes[f->plane];
    float c[3] = {0, 0, 0};
    for (int e = 0; e < f->numedges; e++) {
        int32_t se = b->surfedges[f->firstedge + e];
        const float *p = b->vertices[se >= 0 ? b->edges[se][0] : b->edges[-se][1]];
        for (int k = 0; k < 3; k++)
            c[k] += p[k] / (float)f->numedges;
    }
    float side = (f->flags & BSP_SURF_PLANEBACK) ? -1.0f : 1.0f;
    float org[3];
    for (int k = 0; k < 3; k++)
        org[k] = c[k] + pl->normal[k] * side * 32;
    int cw, ch;
    const uint8_t *px = surface(lv.r, fi, 0, &cw, &ch);
    uint8_t *plain = malloc((size_t)cw * (size_t)ch);
    memcpy(plain, px, (size_t)cw * (size_t)ch);
    // the texel under the light
    int us = (int)(c[0] * ti->vecs[0][0] + c[1] * ti->vecs[0][1] + c[2] * ti->vecs[0][2] + ti->vecs[0][3]) -
             f->texturemins[0];
    int ut = (int)(c[0] * ti->vecs[1][0] + c[1] * ti->vecs[1][1] + c[2] * ti->vecs[1][2] + ti->vecs[1][3]) -
             f->texturemins[1];
    assert_true(us >= 8 && ut >= 8 && us + 8 <= cw && ut + 8 <= ch);
    r_view_t *v = &lv.r->view;
    memset(v->dlights, 0, sizeof v->dlights[0]);
    memcpy(v->dlights[0].origin, org, sizeof org);
    v->dlights[0].radius = 200;
    v->dlights[0].die = 1e9f;
    v->dlights[0].color = -1;
    v->dlights[0].rgb = 0x1ff0000u;   // pure red
    v->num_dlights = 1;
    px = surface(lv.r, fi, 1, &cw, &ch);
    const uint8_t *pal = lv.r->pal.palette;
    double before[3] = {0, 0, 0}, after[3] = {0, 0, 0};
    for (int y = ut - 8; y < ut + 8; y++)
        for (int x = us - 8; x < us + 8; x++)
            for (int k = 0; k < 3; k++) {
                before[k] += pal[plain[y * cw + x] * 3 + k] / 256.0;
                after[k] += pal[px[y * cw + x] * 3 + k] / 256.0;
            }
    print_message("16x16 texels under the red light: rgb %.0f %.0f %.0f -> %.0f %.0f %.0f\n", before[0], before[1],
                  before[2], after[0], after[1], after[2]);
    // red up by more than 60 a texel on average; green and blue move less than a third of that
    // (the level's palette has few reds as light as these: the nearest trade a little blue)
    double dr = after[0] - before[0];
    assert_true(dr > 60);
    assert_true(fabs(after[1] - before[1]) < dr / 3);
    assert_true(fabs(after[2] - before[2]) < dr / 3);
    // far corners out of the light's reach (radius 200 - 32 = 168 texels) are unchanged
    if (cw > 200 + us) assert_int_equal(px[cw - 1], plain[cw - 1]);
    // the same as an entity light: the surface is byte for byte as without it, and it is not marked
    v->dlights[0].elight = 1;
    px = surface(lv.r, fi, 1, &cw, &ch);
    assert_int_equal(lv.r->faces[fi].dlightframe == lv.r->framecount && lv.r->faces[fi].dlightbits, 0);
    assert_memory_equal(px, plain, (size_t)cw * (size_t)ch);
    // light styles animate the coloured surfaces too: style 0 at 'a' (none) leaves the dlight alone
    v->num_dlights = 0;
    snprintf(lv.w->lightstyles[0], WORLD_STYLE_LEN, "a");
    r_light_styles(lv.r, lv.w, 0);
    px = surface(lv.r, fi, 0, &cw, &ch);
    double lit = 0, dark = 0;
    for (int i = 0; i < cw * ch; i++) {
        lit += lum(pal, plain[i]);
        dark += lum(pal, px[i]);
    }
    print_message("style 0 'm' -> 'a': mean brightness %.1f -> %.1f\n", lit / (cw * ch), dark / (cw * ch));
    assert_true(dark < lit / 8);
    free(plain);
    level_close(&lv);
}

// The engine's model light rules, number by number: ambient + shade from the light under the model
// (v_direct 0.9, ambient at most 128, the sum at most 255), lambert 1.5, flat shade, full bright, a
// dlight pulling the direction, entity lights per vertex.
static void test_model_light_rules(void **state)
{
    (void)state;
    r_view_t v;
    memset(&v, 0, sizeof v);   // no world: the light given stands for it
    r_hl_alight_t al;
    r_hl_model_light(&v, (vec3_t){0, 0, 0}, 150, &al);   // 150: the level's brightest -> 255
    assert_true(fabsf(al.ambient - 25.5f) < 0.01f);    // 255 - 0.9 x 255
    assert_true(fabsf(al.shade - 229.5f) < 0.01f);
    assert_true(fabsf(al.lightvec[2] + 1) < 1e-6f);
    const float up[3] = {0, 0, 1}, down[3] = {0, 0, -1}, side[3] = {1, 0, 0};
    assert_true(fabsf(r_hl_studio_illum(&al, up, 0) - 255) < 0.01f);        // facing the light
    assert_true(fabsf(r_hl_studio_illum(&al, down, 0) - 25.5f) < 0.01f);    // turned away: ambient
    assert_true(fabsf(r_hl_studio_illum(&al, side, 0) - (25.5f + 229.5f * 2 / 3)) < 0.01f);
    assert_true(fabsf(r_hl_studio_illum(&al, down, 1) - (25.5f + 0.8f * 229.5f)) < 0.01f);   // flat shade
    assert_true(fabsf(r_hl_studio_illum(&al, down, 4) - 255) < 0.01f);                        // full bright
    // dark: 30 -> 51; ambient 5.1, shade 45.9
    r_hl_model_light(&v, (vec3_t){0, 0, 0}, 30, &al);
    assert_true(fabsf(al.ambient - 5.1f) < 0.01f && fabsf(al.shade - 45.9f) < 0.01f);
    // a dlight of radius 300 100 units to the +x side adds 200 and turns the light to travel along +x...
    v.dlights[0].origin[0] = -100;
    v.dlights[0].radius = 300;
    v.num_dlights = 1;
    r_hl_model_light(&v, (vec3_t){0, 0, 0}, 30, &al);
    assert_true(al.lightvec[0] > 0.9f);   // (-(-100) x 2 = +200 against -51 down)
    assert_true(fabsf(al.ambient + al.shade - 251) < 0.5f);
    // ...but an entity light there does not change the ambient or shade: it lights per vertex
    v.dlights[0].elight = 1;
    v.dlights[0].rgb = 0x1000080u;   // blue 128
    r_hl_model_light(&v, (vec3_t){0, 0, 0}, 30, &al);
    assert_true(fabsf(al.ambient - 5.1f) < 0.01f && fabsf(al.shade - 45.9f) < 0.01f);
    assert_int_equal(al.num_elights, 1);
    // a vertex 50 units from it facing it: 128 x cos 1 x 300^2 / 50^2 (capped by the illumination's 255)
    const float pos[3] = {-50, 0, 0}, face[3] = {-1, 0, 0}, away[3] = {1, 0, 0};
    assert_true(fabsf(r_hl_elight_illum(&al, pos, face) - 128 * 36.0f) < 0.5f);
    assert_true(r_hl_elight_illum(&al, pos, away) == 0);
    // 400 units away (strength 300^2 / 500^2 = 0.36 at the origin): 128 x 300^2 / 300^2 at (-400, 0, 0)
    const float far[3] = {200, 0, 0};
    assert_true(fabsf(r_hl_elight_illum(&al, far, face) - 128 * 90000.0f / 90000.0f) < 0.5f);
    // too far from the model (strength 0.05 or less): left out
    v.dlights[0].origin[0] = -2000;
    r_hl_model_light(&v, (vec3_t){0, 0, 0}, 30, &al);
    assert_int_equal(al.num_elights, 0);
}

static double scene_mean(const tu_scene_t *s, int *n)
{
    double sum = 0;
    *n = 0;
    for (int i = 0; i < s->w * s->h; i++)
        if (s->z[i] > 0) {   // drawn
            sum += lum(s->palette, s->buf[i]);
            (*n)++;
        }
    return *n ? sum / *n : 0;
}

// A studio model (barney) lit by an entity light in front of it gets brighter where it faces the light;
// a white TE_DLIGHT there too; an entity light behind it leaves its front as it was.
static void test_elight_model_pixels(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    tu_scene_t s;
    assert_int_equal(tu_scene_init_quake(&s, 320, 200), 0);
    vfs_t *fs = vfs_create();
    assert_true(vfs_add_dir(fs, tu_data("goldsrc/valve")) >= 0);
    size_t n = 0;
    uint8_t *bytes = vfs_load(fs, "models/barney.mdl", &n);
    assert_non_null(bytes);
    char err[256] = "";
    r_studio_model_t *sm = r_studio_load(bytes, n, "models/barney.mdl", fs, s.palette, err, sizeof err);
    free(bytes);
    assert_non_null(sm);
    entity_state_t e;
    entity_state_clear(&e);
    e.framerate = 1;
    memset(e.controller, 127, 4);
    vec3_t org = {110, 0, -36}, ang = {0, 180, 0};   // facing the camera
    double mean[4];
    int px[4];
    for (int pass = 0; pass < 4; pass++) {
        tu_scene_clear(&s);
        s.v.num_dlights = 0;
        if (pass > 0) {
            r_dlight_t *d = &s.v.dlights[s.v.num_dlights++];
            memset(d, 0, sizeof *d);
            d->origin[0] = pass == 3 ? 160 : 70;   // in front (between model and camera) or behind
            d->origin[2] = 0;
            d->radius = pass == 2 ? 150 : 60;
            d->die = 1e9f;
            d->elight = pass != 2;
        }
        r_studio_entity(&s.v, sm, org, ang, &e, 0, 0.3, 60);
        mean[pass] = scene_mean(&s, &px[pass]);
        char name[64];
        snprintf(name, sizeof name, "studio_elight%d.png", pass);
        tu_scene_png_env(&s, name);
    }
    print_message("barney's mean brightness: %.1f, elight in front %.1f, dlight in front %.1f, elight behind %.1f"
                  " (%d pixels)\n", mean[0], mean[1], mean[2], mean[3], px[0]);
    assert_true(px[0] > 1000 && px[1] == px[0]);   // the same pixels drawn
    assert_true(mean[1] > mean[0] + 25);           // lit from the front by the entity light
    assert_true(mean[2] > mean[0] + 5);            // the dlight adds to ambient and shade
    assert_true(fabs(mean[3] - mean[0]) < 6);      // behind: his front is as it was (edges catch a little)
    r_studio_free(sm);
    vfs_free(fs);
    tu_scene_free(&s);
}

// ---- goldens of the two demos ----------------------------------------------------------------

typedef struct {
    demo_t d;
    cli_t cli;
    player_t *p;
    renderer_t *r;
} scene_t;

static void shot(const char *demo, double t, const char *name, uint8_t **rgb)
{
    scene_t sc;
    memset(&sc, 0, sizeof sc);
    log_set_level(0);
    sc.cli.basedir = tu_data("goldsrc");
    sc.r = r_create(320, 200);
    assert_non_null(sc.r);
    assert_int_equal(demo_open(&sc.d, &sc.cli, tu_data(demo), NULL, 0), 0);
    sc.p = player_create(&sc.d, &sc.cli, sc.r, NULL, NULL);
    assert_non_null(sc.p);
    assert_true(player_advance(sc.p, t) >= 0);
    r_render(sc.r, sc.d.world, sc.d.world->time);
    char out[256], gold[256];
    snprintf(out, sizeof out, "build/rel/tests/%s.png", name);
    snprintf(gold, sizeof gold, "tests/golden/goldsrc/%s.png", name);
    assert_int_equal(r_write_png(sc.r, out), 0);
    tu_golden(name, out, gold, 0.01);
    *rgb = malloc(320 * 200 * 3);
    r_frame_rgb(sc.r, *rgb);
    player_destroy(sc.p);
    demo_close(&sc.d);
    r_destroy(sc.r);
}

// c1a0 at 2.5 s: the tunnel under its bluish light (the level's lightmaps average 80 80 89); the
// lamp in the floor stays near white. crossfire at 4 s: the red light over the stairs at the left
// (a lightmap the brightest-channel reduction drew grey) shows red on the grey checkerboard.
static void test_golden_demos(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    uint8_t *rgb;
    shot("goldsrc/demos/valve_c1a0.dem", 2.5, "light_c1a0", &rgb);
    double sum[3] = {0, 0, 0};
    int white = 0;
    for (int i = 0; i < 320 * 200; i++) {
        for (int k = 0; k < 3; k++)
            sum[k] += rgb[i * 3 + k];
        white += rgb[i * 3] > 220 && rgb[i * 3 + 1] > 220 && rgb[i * 3 + 2] > 220;
    }
    print_message("c1a0 2.5 s: mean rgb %.1f %.1f %.1f, %d near-white pixels\n", sum[0] / 64000, sum[1] / 64000,
                  sum[2] / 64000, white);
    assert_true(sum[2] > sum[0] * 1.05);   // bluer than red over the frame
    assert_true(white > 30);
    free(rgb);
    shot("goldsrc/demos/cstrike_crossfire.dem", 4.0, "light_crossfire", &rgb);
    int red = 0;
    for (int y = 90; y < 150; y++)
        for (int x = 0; x < 60; x++) {
            const uint8_t *p = rgb + (y * 320 + x) * 3;
            red += p[0] > p[1] + 30 && p[0] > p[2] + 30;
        }
    print_message("crossfire 4 s: %d red pixels at the stairs\n", red);
    assert_true(red > 40);
    free(rgb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gradient_no_bands),
        cmocka_unit_test(test_dlight_elight_surface),
        cmocka_unit_test(test_model_light_rules),
        cmocka_unit_test(test_elight_model_pixels),
        cmocka_unit_test(test_golden_demos),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
