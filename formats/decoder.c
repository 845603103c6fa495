// decoder.c -- the decoder registry and probing
#include "decoder.h"

#include <stdarg.h>

extern const decoder_t q1_decoder;
extern const decoder_t fs_decoder;
extern const decoder_t hl_decoder;
extern const decoder_t q2_decoder;

// New formats add themselves here.
const decoder_t *const decoders[] = {
    &q1_decoder,
    &fs_decoder,
    &hl_decoder,
    &q2_decoder,
    NULL
};

void dec_error_set(dec_error_t *err, long long offset, const char *fmt, ...)
{
    if (!err)
        return;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->what, sizeof(err->what), fmt, ap);
    va_end(ap);
}

const decoder_t *decoder_probe(const uint8_t *data, size_t size)
{
    const decoder_t *best = NULL;
    int best_score = 0;
    for (int i = 0; decoders[i]; i++) {
        int s = decoders[i]->probe(data, size);
        if (s > best_score) {
            best_score = s;
            best = decoders[i];
        }
    }
    return best;
}
