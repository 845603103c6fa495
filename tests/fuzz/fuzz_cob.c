// fuzz_cob.c -- libFuzzer harness: Forsaken componented objects (.COB) and background object lists (.BGO)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=
//
//     cob_load   the object; a loaded one is posed at its start, mid and end times and at
//                hostile times (every component's placement must stay finite)
//     bgo_load   the level's list; every entry's placement turned into axes
//
// Each input is copied into an exact-size malloc so ASan catches any read past
// its end. A failed load must leave an "offset N: expected ..." message.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/cob.h"

#ifndef FUZZ_LOADER
#define FUZZ_LOADER cob_load
#endif
#define FZ_CAT_(a, b) a##b
#define FZ_CAT(a, b) FZ_CAT_(a, b)
#define FZ_cob_load 1
#define FZ_bgo_load 2
#define FZ_WHICH FZ_CAT(FZ_, FUZZ_LOADER)
#if FZ_WHICH < 1 || FZ_WHICH > 2
#error "FUZZ_LOADER must be one of cob_load bgo_load"
#endif

#include "fuzz_common.h"

#if FZ_WHICH == 1
static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    cob_t *c = cob_load(d, n, "fuzz.cob", err, sizeof err);
    check_error(!c, err);
    if (!c)
        return;
    if (c->end > n || c->num_comps < 1 || c->num_comps > COB_MAX_COMPS)
        abort();
    for (int i = 0; i < c->num_comps; i++) {
        const cob_comp_t *cp = &c->comps[i];
        if (cp->model < -1 || cp->model >= c->num_models || cp->parent >= i ||
            cp->first_trans + cp->num_trans > c->num_trans)
            abort();
    }
    static float pos[COB_MAX_COMPS][3], axes[COB_MAX_COMPS][3][3];
    const float id[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, o[3] = { 1, 2, 3 };
    const float times[] = { 0, c->mid_time, c->overall_time, -1e30f, 1e30f, NAN };
    for (int t = 0; t < 6; t++) {
        cob_pose(c, times[t], o, id, pos, axes);
        for (int i = 0; i < c->num_comps; i++)
            for (int k = 0; k < 3; k++)
                if (!isfinite(pos[i][k]) || !isfinite(axes[i][k][0]))
                    abort();
    }
    cob_free(c);
}
#else
static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    bgo_list_t l;
    int rc = bgo_load(d, n, "fuzz.bgo", &l, err, sizeof err);
    check_error(rc < 0, err);
    if (rc < 0)
        return;
    if (l.num < 0 || l.num > BGO_MAX)
        abort();
    for (int i = 0; i < l.num; i++) {
        float axes[3][3];
        cob_axes_from_dir_up(l.e[i].dir, l.e[i].up, axes);
        if (!isfinite(axes[0][0]) || !l.e[i].cob[0])
            abort();
    }
    bgo_free(&l);
}
#endif
