// fuzz_fsoff.c -- libFuzzer harness: Forsaken sprite layouts (.OFF, assets/fsoff.c)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=fsoff_load.
// Each input is copied into an exact-size malloc so ASan catches any read past its end. A
// failed load must leave an "offset N: expected ..." message; a loaded one must hold only
// indices that are in range (every frame's parts, every part's box, every box's page).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/fsoff.h"
#include "fuzz_common.h"

static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    fsoff_t *o = fsoff_load(d, n, "fuzz.off", err, sizeof err);
    check_error(!o, err);
    if (!o)
        return;
    if (o->end > n || o->num_pages < 1 || o->num_pages > FSOFF_MAX_PAGES)
        abort();
    for (int f = 0; f < o->num_frames; f++) {
        const fsoff_frame_t *fr = &o->frames[f];
        if (fr->first < 0 || fr->count < 1 || fr->first + fr->count > o->num_parts)
            abort();
        for (int i = fr->first; i < fr->first + fr->count; i++) {
            const fsoff_box_t *b = &o->boxes[o->parts[i].box];
            if (b->page < 0 || b->page >= o->num_pages || !isfinite(b->u1) || b->width < 0 || b->height < 0)
                abort();
        }
    }
    char file[FSOFF_NAME_LEN];
    fsoff_page_file(o->pages[0], file, sizeof file);
    fsoff_free(o);
}
