// bsp_trace.c -- a line through a level's drawing tree (see bsp.h: bsp_trace)
//
// The walk is Quake's point-size hull check (SV_RecursiveHullCheck) on the node tree
// whose leaves carry contents: the segment is split at each node plane it crosses, the
// near side first; where the near half ends in an open leaf and the far half begins in a
// solid one, that crossing is the hit, backed off DIST_EPSILON (1/32 unit) to the open
// side as Quake does so the end point is never inside the wall. GoldSrc traces its
// hull 0 the same way; Quake II's tree has the same shape (its leaf contents mapped to
// Quake's by the loader, so a window leaf is open here).
#include "bsp.h"

#include <math.h>
#include <string.h>

#define TRACE_EPSILON 0.03125f
#define TRACE_MAX_DEPTH 4096   // deeper than any real tree; a hostile one stops there as open

static float plane_dist(const bsp_plane_t *pl, const float *p)
{
    if (pl->type < 3)
        return p[pl->type] - pl->dist;
    return p[0] * pl->normal[0] + p[1] * pl->normal[1] + p[2] * pl->normal[2] - pl->dist;
}

// Contents of the leaf holding p, starting at node num (< 0: a leaf).
static int point_contents(const bsp_t *b, int num, const float *p)
{
    for (int guard = 0; num >= 0 && guard < b->num_nodes; guard++) {
        const bsp_node_t *nd = &b->nodes[num];
        num = nd->children[plane_dist(&b->planes[nd->plane], p) >= 0 ? 0 : 1];
    }
    return num < 0 ? b->leafs[-(num + 1)].contents : BSP_CONTENTS_EMPTY;
}

typedef struct {
    const bsp_t *b;
    int head;
    bsp_trace_t *tr;
} walk_t;

// 1: the segment p1..p2 (fractions f1..f2 of the whole) is open; 0: it hit, tr filled.
static int walk(walk_t *w, int num, float f1, float f2, const float *p1, const float *p2, int depth)
{
    const bsp_t *b = w->b;
    bsp_trace_t *tr = w->tr;
    if (num < 0) {
        if (b->leafs[-(num + 1)].contents != BSP_CONTENTS_SOLID)
            tr->allsolid = 0;
        else
            tr->startsolid = 1;
        return 1;
    }
    if (depth > TRACE_MAX_DEPTH)
        return 1;
    const bsp_node_t *nd = &b->nodes[num];
    const bsp_plane_t *pl = &b->planes[nd->plane];
    float t1 = plane_dist(pl, p1), t2 = plane_dist(pl, p2);
    if (t1 >= 0 && t2 >= 0)
        return walk(w, nd->children[0], f1, f2, p1, p2, depth + 1);
    if (t1 < 0 && t2 < 0)
        return walk(w, nd->children[1], f1, f2, p1, p2, depth + 1);
    // the crossing, put a hair on the near side
    float frac = t1 < 0 ? (t1 + TRACE_EPSILON) / (t1 - t2) : (t1 - TRACE_EPSILON) / (t1 - t2);
    if (frac < 0) frac = 0;
    if (frac > 1) frac = 1;
    float midf = f1 + (f2 - f1) * frac;
    float mid[3];
    for (int k = 0; k < 3; k++)
        mid[k] = p1[k] + frac * (p2[k] - p1[k]);
    int side = t1 < 0;
    if (!walk(w, nd->children[side], f1, midf, p1, mid, depth + 1))
        return 0;
    if (point_contents(b, nd->children[side ^ 1], mid) != BSP_CONTENTS_SOLID)
        return walk(w, nd->children[side ^ 1], midf, f2, mid, p2, depth + 1);
    if (tr->allsolid)
        return 0;   // never left the solid: no plane to report
    // the far side is solid: this plane was hit, seen from the near side
    for (int k = 0; k < 3; k++)
        tr->normal[k] = side ? -pl->normal[k] : pl->normal[k];
    tr->plane = nd->plane;
    tr->node = num;
    // Quake backs the point off while rounding left it inside the solid
    while (point_contents(b, w->head, mid) == BSP_CONTENTS_SOLID) {
        frac -= 0.1f;
        if (frac < 0) {
            tr->fraction = midf;
            memcpy(tr->endpos, mid, sizeof tr->endpos);
            return 0;
        }
        midf = f1 + (f2 - f1) * frac;
        for (int k = 0; k < 3; k++)
            mid[k] = p1[k] + frac * (p2[k] - p1[k]);
    }
    tr->fraction = midf;
    memcpy(tr->endpos, mid, sizeof tr->endpos);
    return 0;
}

// Whether p (on face f's plane) lies inside the face's polygon: on the inner side of
// every edge, the edges turning the way the face's normal says.
static int face_contains(const bsp_t *b, const bsp_face_t *f, const float *p, float slack)
{
    const bsp_plane_t *pl = &b->planes[f->plane];
    float n[3] = { pl->normal[0], pl->normal[1], pl->normal[2] };
    if (f->flags & BSP_SURF_PLANEBACK)
        for (int k = 0; k < 3; k++)
            n[k] = -n[k];
    for (int i = 0; i < f->numedges; i++) {
        int se = b->surfedges[f->firstedge + i];
        const float *v0, *v1;
        if (se >= 0) {
            v0 = b->vertices[b->edges[se][0]];
            v1 = b->vertices[b->edges[se][1]];
        } else {
            v0 = b->vertices[b->edges[-se][1]];
            v1 = b->vertices[b->edges[-se][0]];
        }
        float e[3] = { v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2] };
        // n x e points inside for one winding; the caller tries both (see node_face)
        float in[3] = { n[1] * e[2] - n[2] * e[1], n[2] * e[0] - n[0] * e[2], n[0] * e[1] - n[1] * e[0] };
        float len = sqrtf(in[0] * in[0] + in[1] * in[1] + in[2] * in[2]);
        if (len <= 0)
            continue;
        float d = ((p[0] - v0[0]) * in[0] + (p[1] - v0[1]) * in[1] + (p[2] - v0[2]) * in[2]) / len;
        if (d < -slack)
            return 0;
    }
    return 1;
}

// The face of node `num` that holds p: -1 when none does (a hit on a plane no face covers
// there, as where brushes meet).
static int node_face(const bsp_t *b, int num, const float *p)
{
    const bsp_node_t *nd = &b->nodes[num];
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nd->numfaces; i++) {
            int fi = nd->firstface + i;
            const bsp_face_t *f = &b->faces[fi];
            // both windings: Quake's and Quake II's faces wind clockwise seen from the front;
            // the test only asks for one side, so a face is tried as both
            if (face_contains(b, f, p, pass ? 0.5f : 0.01f))
                return fi;
            bsp_face_t g = *f;
            g.flags ^= BSP_SURF_PLANEBACK;
            if (face_contains(b, &g, p, pass ? 0.5f : 0.01f))
                return fi;
        }
    return -1;
}

int bsp_trace(const bsp_t *b, int headnode, const vec3_t start, const vec3_t end, bsp_trace_t *tr)
{
    memset(tr, 0, sizeof *tr);
    tr->fraction = 1;
    tr->allsolid = 1;
    tr->plane = -1;
    tr->node = -1;
    tr->face = -1;
    memcpy(tr->endpos, end, sizeof(vec3_t));
    if (!b || b->num_nodes <= 0 || headnode < 0 || headnode >= b->num_nodes)
        return 0;
    for (int k = 0; k < 3; k++)
        if (!isfinite(start[k]) || !isfinite(end[k]))
            return 0;
    walk_t w = { b, headnode, tr };
    if (walk(&w, headnode, 0, 1, start, end, 0)) {
        tr->fraction = 1;
        memcpy(tr->endpos, end, sizeof(vec3_t));
        return 0;
    }
    if (tr->node >= 0) {
        // the face: on the hit plane, at the point the segment crosses it
        const bsp_plane_t *pl = &b->planes[tr->plane];
        float d1 = plane_dist(pl, start), d2 = plane_dist(pl, end);
        float on[3];
        float f = d1 != d2 ? d1 / (d1 - d2) : 0;
        for (int k = 0; k < 3; k++)
            on[k] = start[k] + f * (end[k] - start[k]);
        tr->face = node_face(b, tr->node, on);
    }
    return tr->fraction < 1;
}
