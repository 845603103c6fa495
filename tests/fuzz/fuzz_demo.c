// fuzz_demo.c -- libFuzzer harness: one demo decoder, driven through the whole file into the world
//
// Built once per decoder by tools/fuzz.sh with -DFUZZ_DECODER=q1_decoder (etc.).
// The input is fed to the decoder directly (not probed), so every byte pattern
// reaches its parser; the dump path is exercised too, into /dev/null.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "formats/decoder.h"

#ifndef FUZZ_DECODER
#define FUZZ_DECODER q1_decoder
#endif
extern const decoder_t FUZZ_DECODER;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// The decoders' warnings go through here (formats them, as the engine's logging does).
static void on_warning(void *ctx, long long offset, const char *what)
{
    char line[600];
    snprintf(line, sizeof line, "offset %lld: %s", offset, what);
    *(size_t *)ctx += line[0] != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static world_t *w;
    static void *st;
    static FILE *devnull;
    const decoder_t *d = &FUZZ_DECODER;
    if (!w) {
        w = world_create();
        st = malloc(d->state_size);
        devnull = fopen("/dev/null", "w");
    }
    // exact-size copy so any read past the end is caught by ASan
    uint8_t *copy = malloc(size ? size : 1);
    for (size_t i = 0; i < size; i++)
        copy[i] = data[i];
    (void)d->probe(copy, size);
    static size_t warnings;
    dec_opts_t opts = { .dump = (size & 1) ? devnull : NULL, .dump_json = (size & 2) != 0, .warn = on_warning,
                        .warn_ctx = &warnings };
    dec_error_t err;
    int r = d->open(st, copy, size, w, &opts, &err);
    // a frame budget keeps a hostile file from looking like a hang to the fuzzer;
    // decoders must end on their own anyway, since every frame consumes bytes
    for (int frames = 0; r >= 0 && frames < 100000; frames++)
        if ((r = d->read_frame(st, w, &err)) <= 0)
            break;
    d->close(st);
    free(copy);
    return 0;
}
