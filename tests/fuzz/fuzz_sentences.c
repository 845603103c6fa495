// fuzz_sentences.c -- libFuzzer harness: GoldSrc's sound/sentences.txt (audio/snd_sentence.c)
//
// Built by tools/fuzz.sh (targets in tests/fuzz/targets.txt) with -DFUZZ_LOADER=snd_sentences_load.
// The input, copied into an exact-size buffer so ASan catches a read past its end, is read
// as a sentences file; then every sentence's words are walked and their fields checked.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audio/snd_local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    snd_sentences_t t = { 0 };
    if (snd_sentences_load(&t, text, size) == 0) {
        if (t.count < 0 || t.count > SND_SENTENCE_MAX)
            abort();
        for (int i = 0; i < t.count; i++) {
            const snd_word_t *wd;
            int n = snd_sentence_words(&t, i, &wd);
            if (n < 0 || n > SND_SENTENCE_WORDS)
                abort();
            for (int k = 0; k < n; k++)
                if (!memchr(wd[k].file, 0, sizeof(wd[k].file)) || strlen(wd[k].file) < 5)
                    abort();   // a NUL-terminated "x.wav" at least
        }
    }
    snd_sentences_free(&t);
    free(text);
    return 0;
}
