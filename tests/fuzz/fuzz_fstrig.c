// fuzz_fstrig.c -- libFuzzer harness: Forsaken level triggers (.TRG, .ZON: assets/fstrig.c) and
// real-time lights (.RTL: assets/fsrtl.c)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=fstrg_load,
// -DFUZZ_LOADER=fszon_load or -DFUZZ_LOADER=fsrtl_load. A failed load must leave an "offset N: expected ..." message; a
// loaded .TRG must hold only indices inside its lists, a loaded .ZON's areas only sides of its
// pool, and fszon_segment and fszon_entry_at must answer for every area at hostile points; a loaded .RTL's
// lights must pulse between 0 and 1 at any time.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "assets/fsrtl.h"
#include "assets/fstrig.h"
#include "fuzz_common.h"

#define fstrg_load_ 1
#define fszon_load_ 2
#define fsrtl_load_ 3
#define PICK_(x) x##_
#define PICK(x) PICK_(x)

static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
#if PICK(FUZZ_LOADER) == 1
    fstrg_t *t = fstrg_load(d, n, "fuzz.trg", err, sizeof err);
    check_error(!t, err);
    if (!t)
        return;
    if (t->end > n)
        abort();
    for (int i = 0; i < t->num_vars; i++)
        for (int k = 0; k < t->vars[i].count; k++)
            if (t->idx[t->vars[i].first + k] >= t->num_triggers)
                abort();
    for (int i = 0; i < t->num_triggers; i++)
        if (t->triggers[i].var >= t->num_vars || t->triggers[i].first + t->triggers[i].count > t->num_idx)
            abort();
    for (int i = 0; i < t->num_mods; i++)
        if (t->mods[i].var >= t->num_vars || t->mods[i].next >= t->num_mods || !isfinite(t->mods[i].delay))
            abort();
    for (int i = 0; i < t->num_conds; i++)
        for (int k = 0; k < t->conds[i].ev_count; k++)
            if (t->idx[t->conds[i].ev_first + k] >= t->num_events)
                abort();
    fstrg_free(t);
#elif PICK(FUZZ_LOADER) == 3
    fsrtl_t *l = fsrtl_load(d, n, "fuzz.rtl", err, sizeof err);
    check_error(!l, err);
    if (!l)
        return;
    if (l->end > n)
        abort();
    static const double ts[] = { -1, 0, 0.01, 0.5, 3.7, 1e6, 1e300 };
    for (int i = 0; i < l->count; i++)
        for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
            float v = fsrtl_pulse(&l->lights[i], ts[k]);
            if (!(v >= 0.0f && v <= 1.0f))
                abort();
        }
    fsrtl_free(l);
#else
    fszon_t *z = fszon_load(d, n, "fuzz.zon", err, sizeof err);
    check_error(!z, err);
    if (!z)
        return;
    if (z->end > n)
        abort();
    static const float pts[4][3] = { { 0, 0, 0 }, { 1e9f, -1e9f, 3 }, { 1530, -2168, 4352 }, { -1e30f, 0, 1e30f } };
    for (int i = 0; i < z->count; i++) {
        const fszon_area_t *a = &z->areas[i];
        if (a->shape > FSZON_HULL || a->first_side + a->num_sides > z->num_sides)
            abort();
        for (int p = 0; p < 4; p++)
            if (fszon_segment(z, a, pts[p], pts[(p + 1) % 4]) & ~7)
                abort();
        if (fszon_segment(z, a, a->pos, pts[0]) & ~7)
            abort();
        for (int p = 0; p < 4; p++) {   // where a line gets in: -1 or within it
            float f = fszon_entry_at(z, a, pts[p], pts[(p + 1) % 4]);
            if (!(f == -1 || (f >= 0 && f <= 1)))
                abort();
        }
    }
    fszon_check(z, NULL, "fuzz.zon", err, sizeof err);
    fszon_free(z);
#endif
}
