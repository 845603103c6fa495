// fuzz_bmp8.c -- libFuzzer harness: 8-bit BMPs, uncompressed and RLE8 (assets/bmp8.c: Forsaken's Data/Pictures)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=bmp8_load.
// A loaded picture has every pixel read (a wrong size or an unwritten buffer shows under
// ASan/MSan); a failed load must leave an "offset N: expected ..." message.
#include <stdint.h>
#include <stdlib.h>

#include "assets/bmp8.h"
#include "fuzz_common.h"

static void run(const uint8_t *d, size_t n)
{
    char err[512] = "";
    bmp8_t b;
    int rc = bmp8_load(&b, d, n, 1024, err, sizeof err);
    check_error(rc < 0, err);
    if (rc < 0)
        return;
    if (b.width < 1 || b.height < 1 || b.width > 1024 || b.height > 1024 || b.colors < 1 || b.colors > 256)
        abort();
    unsigned sum = 0;
    for (size_t i = 0; i < (size_t)b.width * (size_t)b.height; i++)
        sum += b.pixels[i];
    if (sum == 0xffffffffu)
        abort();
    bmp8_free(&b);
}
