// fuzz_hud.c -- libFuzzer harness: the HUD programs and layout files a demo or a game folder brings
//
// Built once per entry point by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with
// -DFUZZ_LOADER=<the entry point>:
//
//     r_hud_q2_layout   Quake II's layout language (the status bar program and layouts come
//                       from the demo's configstrings and svc_layout): the input, cut at its
//                       first NUL, runs on a 320x240 canvas with stats taken from its first bytes
//     r_hlhud_parse     Half-Life's sprites/hud.txt
//
// Each input is copied into an exact-size buffer so ASan catches any read past its end.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/world.h"
#include "render/r_2d_local.h"
#include "render/r_hlhud.h"

#ifndef FUZZ_LOADER
#define FUZZ_LOADER r_hud_q2_layout
#endif
#define FZ_CAT_(a, b) a##b
#define FZ_CAT(a, b) FZ_CAT_(a, b)
#define FZ_r_hud_q2_layout 1
#define FZ_r_hlhud_parse 2
#define FZ_WHICH FZ_CAT(FZ_, FUZZ_LOADER)
#if FZ_WHICH < 1 || FZ_WHICH > 2
#error "FUZZ_LOADER must be one of r_hud_q2_layout r_hlhud_parse"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if FZ_WHICH == 1
enum { W = 320, H = 240 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // one world and 2D state for the whole run (a harness, not a decoder)
    static world_t *w;
    static r_2d_t *d;
    static uint8_t palette[768];
    if (!w) {
        w = world_create();
        d = r_2d_create();
        if (!w || !d)
            abort();
        w->game = GAME_QUAKE2;
        world_set_image(w, 1, "i_health");
        snprintf(w->players[1].name, sizeof w->players[1].name, "bob");
        r_2d_load(d, NULL, w, palette);   // no files: every picture is missing
    }
    char *program = malloc(size + 1);
    uint8_t *buf = malloc(W * H);
    if (!program || !buf)
        abort();
    memcpy(program, data, size);
    program[size] = 0;
    for (int i = 0; i < WORLD_MAX_STATS; i++)
        w->view.stats[i] = i < (int)size ? (int16_t)(data[i] | data[size - 1 - i] << 8) : 0;
    r_view_t v;
    memset(&v, 0, sizeof v);
    v.buffer = buf;
    v.width = W;
    v.height = H;
    v.rowbytes = W;
    r_2d_canvas_t c;
    r_2d_canvas_init(&c, &v);
    r_hud_q2_layout(d, w, &c, program);
    free(program);
    free(buf);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    r_hlhud_entry_t *e = malloc(64 * sizeof *e);
    if (!text || !e)
        abort();
    memcpy(text, data, size);
    char err[160] = "";
    int n = r_hlhud_parse(text, size, e, 64, err, sizeof err);
    if (n < 0 && !strstr(err, "offset ")) {
        fprintf(stderr, "parse failed without an offset: \"%s\"\n", err);
        abort();
    }
    if (n > 64)
        abort();
    for (int i = 0; i < n; i++)
        if (r_hlhud_find(e, n, e[i].name, e[i].res) == NULL)
            abort();
    free(text);
    free(e);
    return 0;
}
#endif
