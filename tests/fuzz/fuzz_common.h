// fuzz_common.h -- what the loader harnesses share: the entry point, the exact-size copy, the error check
//
// A harness defines `static void run(const uint8_t *d, size_t n)` and includes this once.
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
static void run(const uint8_t *d, size_t n);

// A failed load must explain itself in the project's form.
static inline void check_error(int failed, const char *err)
{
    if (failed && !strstr(err, "offset ")) {
        fprintf(stderr, "load failed without an offset: \"%s\"\n", err);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // exact-size copy so any read past the end is caught by ASan
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    if (size)
        memcpy(copy, data, size);
    run(copy, size);
    free(copy);
    return 0;
}

#endif
