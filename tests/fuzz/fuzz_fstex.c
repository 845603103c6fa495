// fuzz_fstex.c -- libFuzzer harness: Forsaken level texture animations (the .MXV's tail, assets/fstex.c)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=fstex_load.
// The input's first 8 bytes make a small mesh (byte 0: 1..4 groups; bytes 1..4: each group's
// 0..3 buffers; every buffer 16 vertices); the tail walked starts after them (as if the portal
// section ended there). A failed load must leave an "offset N: expected ..." message; a loaded
// one must give, at any time, frames below each polygon's own and vertices of the mesh.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assets/fstex.h"
#include "assets/mxv.h"
#include "fuzz_common.h"

#define HEAD 8
#define VERTS 16

static void run(const uint8_t *d, size_t n)
{
    if (n < HEAD)
        return;
    mxv_group_t groups[4];
    mxv_buffer_t buffers[12];
    mxv_t m;
    memset(&m, 0, sizeof m);
    memset(groups, 0, sizeof groups);
    memset(buffers, 0, sizeof buffers);
    m.groups = groups;
    m.buffers = buffers;
    m.num_groups = 1 + d[0] % 4;
    for (int g = 0; g < m.num_groups; g++) {
        groups[g].first_buffer = m.num_buffers;
        groups[g].num_buffers = d[1 + g] % 4 == 3 ? 0 : d[1 + g] % 4;
        for (int b = 0; b < groups[g].num_buffers; b++, m.num_buffers++) {
            buffers[m.num_buffers].first_vert = m.num_verts;
            buffers[m.num_buffers].num_verts = VERTS;
            m.num_verts += VERTS;
        }
    }
    m.has_portals = 1;
    m.portal_end = HEAD;
    char err[512] = "";
    fstex_t *a = fstex_load(d, n, "fuzz.mxv", &m, err, sizeof err);
    check_error(!a, err);
    if (!a)
        return;
    if (a->end > n || a->num_polys < 0)
        abort();
    const double at[] = { 0, 0.01, 0.5, 3.7, 1e3, 1e9, -1, NAN, INFINITY };
    for (int p = 0; p < a->num_polys; p++) {
        const fstex_poly_t *po = &a->polys[p];
        for (int k = 0; k < po->num_verts; k++)
            if (a->vert[po->first_vert + k] < 0 || a->vert[po->first_vert + k] >= m.num_verts)
                abort();
        for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
            int f = fstex_frame(a, p, at[i]);
            if (f < 0 || f >= po->frames)
                abort();
            const float *uv = fstex_uv(a, p, f);
            if (!isfinite(uv[0]) || !isfinite(uv[po->num_verts * 2 - 1]))
                abort();
        }
    }
    for (int i = 0; i < a->num_index; i++)
        if (a->index[i] < 0 || a->index[i] >= a->num_polys)
            abort();
    fstex_free(a);
}
