// fuzz_fsspot.c -- libFuzzer harness: Forsaken spot effects (.FX, assets/fsspot.c)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=fsspot_load.
// A failed load must leave an "offset N: expected ..." message; a loaded one must hold only
// types below 36, generation types 0..2, finite numbers and NUL-terminated names, records in order.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assets/fsspot.h"
#include "fuzz_common.h"

static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    fsspot_t *s = fsspot_load(d, n, "fuzz.fx", err, sizeof err);
    check_error(!s, err);
    if (!s)
        return;
    if (s->end > n || s->count < 0 || s->count > FSSPOT_MAX)
        abort();
    size_t prev = 0;
    for (int i = 0; i < s->count; i++) {
        const fsspot_fx_t *f = &s->fx[i];
        if (f->type >= FSSPOT_TYPES || f->gen_type > 2 || !isfinite(f->pos[0]) || !isfinite(f->speed) ||
            memchr(f->sound, 0, sizeof f->sound) == NULL || f->offset < prev || fsspot_type_name(f->type)[0] == '?')
            abort();
        prev = f->offset + FSSPOT_FIXED + strlen(f->sound) + 1;
    }
    if (prev && prev != s->end)
        abort();
    fsspot_free(s);
}
