// fuzz_hlmat.c -- libFuzzer harness: GoldSrc's sound/materials.txt (assets/hlmat.c)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=hlmat_load.
// The input, copied into an exact-size buffer so ASan catches a read past its end, is read
// both ways (Half-Life's 512 entries of 12 characters, Counter-Strike's 1024 of 16); every kept
// name is NUL-terminated within its length and sorted, and looking each up, and the input's first
// bytes as a name, gives a known type.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assets/hlmat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hlmat_t m;   // 17 KB: not on the stack

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    for (int flavour = HLMAT_HL; flavour <= HLMAT_CS; flavour++) {
        int n = hlmat_load(&m, text, size, flavour);
        if (n < 0 || n > (flavour == HLMAT_CS ? HLMAT_MAX : 512) || n != m.count)
            abort();
        for (int i = 0; i < n; i++) {
            const char *e = memchr(m.names[i], 0, HLMAT_NAME);
            if (!e || (size_t)(e - m.names[i]) > (size_t)m.name_len)
                abort();
            if (i && strcasecmp(m.names[i - 1], m.names[i]) > 0)
                abort();
            if (!hlmat_type(&m, m.names[i]))
                abort();
        }
        char key[40];
        size_t k = size < sizeof key - 1 ? size : sizeof key - 1;
        memcpy(key, text, k);
        key[k] = 0;
        if (!hlmat_type(&m, key))
            abort();
    }
    free(text);
    return 0;
}
