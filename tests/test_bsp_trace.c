// test_bsp_trace.c -- bsp_trace on real levels (Quake, GoldSrc, Quake II): the distances to
// walls, checked against a ray cast through every face of the level, and bad arguments
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"

static bsp_t *load(const char *rel)
{
    size_t size;
    uint8_t *d = tu_read(tu_data(rel), &size);
    assert_non_null(d);
    char err[256] = "";
    bsp_t *b = bsp_load_files(d, size, rel, NULL, err, sizeof err);
    if (!b)
        fail_msg("%s", err);
    free(d);
    return b;
}

// The origin of the first entity of class cls in the entity text.
static int entity_origin(const bsp_t *b, const char *cls, vec3_t o)
{
    char key[80];
    snprintf(key, sizeof key, "\"classname\" \"%s\"", cls);
    const char *p = strstr(b->entities, key);
    if (!p)
        return -1;
    const char *start = p;
    while (start > b->entities && *start != '{')
        start--;
    const char *end = strchr(p, '}');
    const char *q = strstr(start, "\"origin\"");
    if (!q || (end && q > end))
        return -1;
    return sscanf(q, "\"origin\" \"%f %f %f\"", &o[0], &o[1], &o[2]) == 3 ? 0 : -1;
}

// Independent answer: the nearest crossing of the ray with any world face polygon
// (models[0]'s faces), by plane intersection and an inside-polygon test.
static float brute_nearest(const bsp_t *b, const float *s, const float *e, int *face)
{
    float best = 2;
    *face = -1;
    const bsp_model_t *m = &b->models[0];
    for (int fi = m->firstface; fi < m->firstface + m->numfaces; fi++) {
        const bsp_face_t *f = &b->faces[fi];
        if (f->flags & (BSP_SURF_TURB | BSP_SURF_TRANS33 | BSP_SURF_TRANS66))
            continue;   // liquids and windows: open leaves on both sides
        const bsp_plane_t *pl = &b->planes[f->plane];
        float d1 = s[0] * pl->normal[0] + s[1] * pl->normal[1] + s[2] * pl->normal[2] - pl->dist;
        float d2 = e[0] * pl->normal[0] + e[1] * pl->normal[1] + e[2] * pl->normal[2] - pl->dist;
        if ((d1 > 0) == (d2 > 0) || d1 == d2)
            continue;
        float t = d1 / (d1 - d2);
        float p[3] = { s[0] + t * (e[0] - s[0]), s[1] + t * (e[1] - s[1]), s[2] + t * (e[2] - s[2]) };
        int pos = 0, neg = 0;
        for (int i = 0; i < f->numedges; i++) {
            int se = b->surfedges[f->firstedge + i];
            const float *v0 = b->vertices[b->edges[se >= 0 ? se : -se][se >= 0 ? 0 : 1]];
            const float *v1 = b->vertices[b->edges[se >= 0 ? se : -se][se >= 0 ? 1 : 0]];
            float ed[3] = { v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2] };
            float w[3] = { p[0] - v0[0], p[1] - v0[1], p[2] - v0[2] };
            float c[3] = { ed[1] * w[2] - ed[2] * w[1], ed[2] * w[0] - ed[0] * w[2], ed[0] * w[1] - ed[1] * w[0] };
            float dn = c[0] * pl->normal[0] + c[1] * pl->normal[1] + c[2] * pl->normal[2];
            pos += dn > 1e-3f;
            neg += dn < -1e-3f;
        }
        if ((pos && neg) || t >= best)
            continue;
        best = t;
        *face = fi;
    }
    return best;
}

// Trace the 6 axial and 8 diagonal directions from `from`; each hit must agree with the
// brute-force ray cast to a fraction of a unit. Returns the distance straight down.
static float check_directions(const bsp_t *b, const vec3_t from, int *faces_named)
{
    static const float dirs[14][3] = {
        { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 },
        { 1, 1, 0.3f }, { -1, 1, 0.2f }, { 1, -1, -0.2f }, { -1, -1, 0.1f },
        { 0.7f, 0.2f, -0.5f }, { -0.3f, 0.8f, -0.4f }, { 0.5f, -0.9f, 0.35f }, { -0.9f, -0.1f, -0.25f },
    };
    float down = -1;
    *faces_named = 0;
    for (int i = 0; i < 14; i++) {
        float len = sqrtf(dirs[i][0] * dirs[i][0] + dirs[i][1] * dirs[i][1] + dirs[i][2] * dirs[i][2]);
        vec3_t end;
        for (int k = 0; k < 3; k++)
            end[k] = from[k] + dirs[i][k] / len * 8192;
        bsp_trace_t tr;
        int hit = bsp_trace(b, b->models[0].headnode, from, end, &tr);
        assert_int_equal(tr.startsolid, 0);
        int bf;
        float bt = brute_nearest(b, from, end, &bf);
        assert_true(hit);
        assert_true(bt <= 1);
        float dist = tr.fraction * 8192, bdist = bt * 8192;
        // a sky face is the edge of a sky volume, which is open (Quake's rule): the
        // trace goes on to the void behind it
        if (b->faces[bf].flags & BSP_SURF_SKY) {
            assert_true(dist >= bdist - 0.25f);
            continue;
        }
        if (fabsf(dist - bdist) > 0.25f)
            fail_msg("direction %d: trace %.3f units, faces %.3f units", i, dist, bdist);
        // the end point is on the open side of the plane, within 1/32 + rounding
        const bsp_plane_t *pl = &b->planes[tr.plane];
        float d = tr.endpos[0] * pl->normal[0] + tr.endpos[1] * pl->normal[1] + tr.endpos[2] * pl->normal[2] - pl->dist;
        float dn = tr.normal[0] * pl->normal[0] + tr.normal[1] * pl->normal[1] + tr.normal[2] * pl->normal[2];
        assert_true(d * dn > 0 && fabsf(d) < 0.2f);
        // the normal faces the start
        assert_true(tr.normal[0] * dirs[i][0] + tr.normal[1] * dirs[i][1] + tr.normal[2] * dirs[i][2] < 0);
        if (tr.face >= 0) {
            (*faces_named)++;
            assert_int_equal(b->faces[tr.face].plane, tr.plane);
        }
        if (i == 5)
            down = dist;
    }
    return down;
}

static void test_goldsrc(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    bsp_t *b = load("goldsrc/valve/maps/c1a0.bsp");
    // the eye at the start of valve_c1a0.dem, in the tram: its floor is at z -240, so
    // the trace stops 65 units down, 1/32 short
    vec3_t eye = { 484, 318, -175 };
    int named;
    float down = check_directions(b, eye, &named);
    printf("c1a0: down %.3f, %d faces named\n", down, named);
    assert_true(fabsf(down - (65.0f - 0.03125f)) < 0.01f);
    assert_true(named >= 12);
    bsp_trace_t tr;
    vec3_t up = { 484, 318, 4000 };
    assert_int_equal(bsp_trace(b, b->models[0].headnode, eye, up, &tr), 1);
    printf("c1a0: down %.3f, up %.3f, face %d\n", down, tr.fraction * (4000 + 175), tr.face);
    bsp_free(b);
}

static void test_quake(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    bsp_t *b = load("quake/id1/maps/e1m5.bsp");
    vec3_t o;
    assert_int_equal(entity_origin(b, "info_player_start", o), 0);
    int named;
    float down = check_directions(b, o, &named);
    // a player's origin stands 24 above the floor (the hull's mins), give or take the
    // map's placement
    printf("e1m5 start (%g %g %g): down %.3f, %d faces named\n", o[0], o[1], o[2], down, named);
    // the start (-576 192 184) is 37 above the floor at 147 (24 of hull + 13 the mapper left)
    assert_true(fabsf(down - (37.0f - 0.03125f)) < 0.01f);
    assert_true(named >= 12);
    bsp_free(b);
}

static void test_quake2(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    bsp_t *b = load("quake2/baseq2/maps/base1.bsp");
    vec3_t o;
    assert_int_equal(entity_origin(b, "info_player_start", o), 0);
    int named;
    float down = check_directions(b, o, &named);
    printf("base1 start (%g %g %g): down %.3f, %d faces named\n", o[0], o[1], o[2], down, named);
    // base1's first info_player_start (-1768 1536 128) is 208 above the floor (z -80)
    assert_true(fabsf(down - (208.0f - 0.03125f)) < 0.01f);
    assert_true(named >= 12);
    bsp_free(b);
}

static void test_bad_args(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    bsp_t *b = load("goldsrc/valve/maps/c1a0.bsp");
    bsp_trace_t tr;
    vec3_t a = { 484, 318, -175 }, e = { 484, 318, -4000 };
    assert_int_equal(bsp_trace(b, -1, a, e, &tr), 0);
    assert_true(tr.fraction == 1);
    assert_int_equal(bsp_trace(b, b->num_nodes, a, e, &tr), 0);
    vec3_t nan = { NAN, 0, 0 };
    assert_int_equal(bsp_trace(b, 0, nan, e, &tr), 0);
    assert_int_equal(bsp_trace(NULL, 0, a, e, &tr), 0);
    // a segment wholly in the open: no hit, the end reached
    vec3_t near = { 484, 318, -180 };
    assert_int_equal(bsp_trace(b, 0, a, near, &tr), 0);
    assert_true(tr.fraction == 1 && tr.endpos[2] == -180);
    // starting inside a wall: startsolid
    vec3_t out = { 484, 318, -4000 }, far = { 484, 318, -5000 };
    bsp_trace(b, 0, out, far, &tr);
    assert_int_equal(tr.startsolid, 1);
    bsp_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_goldsrc),
        cmocka_unit_test(test_quake),
        cmocka_unit_test(test_quake2),
        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
