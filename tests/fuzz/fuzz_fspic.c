// fuzz_fspic.c -- libFuzzer harness: Forsaken placed pickups (.PIC, assets/fspic.c)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=fspic_load.
// A failed load must leave an "offset N: expected ..." message; a loaded one must hold only
// types below 46 and finite positions, and fspic_place must number what it places 1, 2, ...
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "assets/fspic.h"
#include "fuzz_common.h"

static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    fspic_t *p = fspic_load(d, n, "fuzz.pic", err, sizeof err);
    check_error(!p, err);
    if (!p)
        return;
    if (p->end > n || p->count < 0 || p->count > FSPIC_MAX_SLOTS)
        abort();
    static fspic_placed_t out[FSPIC_MAX_SLOTS];
    uint64_t allowed = n >= 16 ? (uint64_t)d[n - 1] << 40 | (uint64_t)d[n - 2] << 8 | d[n - 3] : ~0ull;
    int k = fspic_place(p, allowed, n ? d[0] << 4 : 0, out, FSPIC_MAX_SLOTS);
    for (int i = 0; i < k; i++)
        if (out[i].id != i + 1 || out[i].type >= FSPIC_PICKUP_TYPES || out[i].slot < 0 || out[i].slot >= p->count ||
            !isfinite(out[i].pos[0]))
            abort();
    fspic_free(p);
}
