// fuzz_effects.c -- libFuzzer harness: a demo decoder's frames through the renderer's frame and
// effect code (temp entities, muzzle flashes, trails, particles, lights, the HUD's events)
//
// Built per decoder by tools/fuzz.sh with -DFUZZ_DECODER=q2_decoder (etc.). No level is
// loaded: what is fuzzed is what the renderer does with the events and entity states a
// hostile demo can put in the world (out-of-range entity numbers, models, colours,
// counts, non-finite origins), every frame, and a small view drawn every 8th frame.
// One level is loaded once when the data is there (GoldSrc's c1a0 from $DEMOPLAY_DATA, else
// ../shared/data): GoldSrc's decals then trace, place and draw what the hostile frames say.
#include <stdlib.h>

#include "engine/vfs.h"
#include "formats/decoder.h"
#include "render/render.h"
#include "fuzz_common.h"

static void load_goldsrc_level(renderer_t *r)
{
    const char *data = getenv("DEMOPLAY_DATA");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/goldsrc/valve", data ? data : "../shared/data");
    static vfs_t *fs;   // the renderer keeps it (models load when the frames name them)
    fs = vfs_create();
    world_t *lw = world_create();
    if (fs && lw && vfs_add_dir(fs, dir) == 0) {
        lw->game = GAME_GOLDSRC;
        snprintf(lw->map, sizeof lw->map, "maps/c1a0.bsp");
        char err[256];
        if (r_load_level(r, fs, lw, err, sizeof err) == 0)
            fprintf(stderr, "fuzz_effects: %s loaded: GoldSrc decals are fuzzed too\n", lw->map);
    }
    world_free(lw);
}

#ifndef FUZZ_DECODER
#define FUZZ_DECODER q2_decoder
#endif
extern const decoder_t FUZZ_DECODER;

// `copy` is the exact-size copy fuzz_common.h makes (a read past its end is caught)
static void run(const uint8_t *copy, size_t size)
{
    static world_t *w;
    static void *st;
    static renderer_t *r;
    const decoder_t *d = &FUZZ_DECODER;
    if (!w) {
        w = world_create();
        st = malloc(d->state_size);
        r = r_create(64, 40);
        load_goldsrc_level(r);
    }
    dec_opts_t opts = { 0 };
    dec_error_t err;
    r_clear_transients(r, 1);
    int rc = d->open(st, copy, size, w, &opts, &err);
    for (int frames = 0; rc >= 0 && frames < 20000; frames++) {
        if ((rc = d->read_frame(st, w, &err)) <= 0)
            break;
        r_frame(r, w);
        if ((frames & 7) == 0)
            r_render(r, w, w->time);
    }
    if (w->time > -1e6 && w->time < 1e6)
        r_render(r, w, w->time + 1.5);   // what lasts (GoldSrc's temp models) stepped on well past the end
    d->close(st);
}
