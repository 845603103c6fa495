// snd_sentence.c -- GoldSrc sentences: sound/sentences.txt, and the words a sentence number plays
//
// Half-Life's servers send a spoken line (a scientist, a grunt, the HEV suit) as
// svc_sound with the SND_SENTENCE flag and a sentence number instead of a sound:
// the client looks the number up in sound/sentences.txt and plays the words one
// after another on the same channel. The rules below are the engine's, as the
// released SDK's sentences.txt shows them and the engine reimplementations
// (Xash3D's s_vox.c) read them; they are written here as facts, not code:
//
// - One sentence a line: its name, a blank, its text. Leading blanks are skipped;
//   a line whose first character is '/' is a comment. Sentence numbers count the
//   sentences in file order from 0.
// - The text's folder is everything up to its last '/' ("hgrunt/"); without one
//   the words are in "vox/".
// - Words are separated by blanks, '.' and ','. A '.' or ',' that is not the last
//   character of the text is itself a word, "_period" or "_comma" (the announcer's
//   pauses); a run of separators makes one such word at most.
// - "(p90 v80 s10 e70 t20)" right after a word sets that word's pitch, volume,
//   start and end (percent of the sample) and time compression; a group with no
//   word before it sets the defaults of the words that follow (pitch unchanged,
//   volume 100, start 0, end 100, no compression, to begin with).
#include "snd_local.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void snd_sentences_free(snd_sentences_t *t)
{
    free(t->first);
    free(t->words);
    memset(t, 0, sizeof(*t));
}

// The options of "(p90 v80)" into *wd (letters other than p v s e t, and letters
// without digits, are skipped).
static void word_options(const char *p, const char *end, snd_word_t *wd)
{
    while (p < end) {
        char c = *p++;
        if (!strchr("pvset", c) || p >= end || !isdigit((unsigned char)*p))
            continue;
        int v = 0;
        while (p < end && isdigit((unsigned char)*p)) {
            if (v < 10000)
                v = v * 10 + (*p - '0');
            p++;
        }
        switch (c) {
        case 'p': wd->pitch = (int16_t)v; break;
        case 'v': wd->volume = (int16_t)v; break;
        case 's': wd->start = (int16_t)v; break;
        case 'e': wd->end = (int16_t)v; break;
        default: wd->time_compress = (int16_t)v; break;
        }
    }
}

// Append one word (name [name, name + len)) of folder `dir`; returns 0, or -1 when full.
static int add_word(snd_sentences_t *t, int *cap, const char *dir, const char *name, size_t len, const snd_word_t *opt)
{
    if (t->nwords >= *cap) {
        int ncap = *cap ? *cap * 2 : 1024;
        snd_word_t *nw = realloc(t->words, (size_t)ncap * sizeof(*nw));
        if (!nw)
            return -1;
        t->words = nw;
        *cap = ncap;
    }
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)name[i] < 32)
            return 0;   // control bytes name no file: left out
    snd_word_t *wd = &t->words[t->nwords];
    *wd = *opt;
    if ((size_t)snprintf(wd->file, sizeof(wd->file), "%s%.*s.wav", dir, (int)len, name) >= sizeof(wd->file))
        return 0;   // a name too long for any sound file: left out
    t->nwords++;
    return 0;
}

// One sentence's text into words.
static int parse_text(snd_sentences_t *t, int *cap, const char *text, size_t len)
{
    char dir[40] = "vox/";
    const char *p = text, *end = text + len;
    for (const char *q = end; q > text; q--)
        if (q[-1] == '/') {
            if ((size_t)(q - text) >= sizeof(dir))
                return 0;   // no such folder: a sentence without words
            snprintf(dir, sizeof(dir), "%.*s", (int)(q - text), text);
            p = q;
            break;
        }
    snd_word_t def = { .pitch = -1, .volume = 100, .start = 0, .end = 100 };
    int words = 0;
    while (p < end && words < SND_SENTENCE_WORDS) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '.' || *p == ','))
            p++;
        if (p >= end)
            break;
        // a word: up to a separator, with any "(...)" group inside it
        const char *w0 = p, *paren = NULL;
        while (p < end && *p != ' ' && *p != '\t' && *p != '.' && *p != ',') {
            if (*p == '(') {
                if (!paren)
                    paren = p;
                while (p < end && *p != ')')
                    p++;
            }
            if (p < end)
                p++;
        }
        const char *name_end = paren ? paren : p;
        snd_word_t wd = def;
        if (paren)
            word_options(paren + 1, p, &wd);
        if (name_end == w0) {
            def = wd;   // options alone: the defaults from here on
        } else {
            if (add_word(t, cap, dir, w0, (size_t)(name_end - w0), &wd) < 0)
                return -1;
            words++;
        }
        // '.' or ',' before the text's end: a pause word
        if (p < end && (*p == '.' || *p == ',') && p + 1 < end && words < SND_SENTENCE_WORDS) {
            const char *pause = *p == '.' ? "_period" : "_comma";
            if (add_word(t, cap, dir, pause, strlen(pause), &def) < 0)
                return -1;
            words++;
        }
    }
    return 0;
}

int snd_sentences_load(snd_sentences_t *t, const char *text, size_t size)
{
    snd_sentences_free(t);
    int cap = 0, first_cap = 256;
    t->first = malloc((size_t)first_cap * sizeof(*t->first));
    if (!t->first)
        return -1;
    t->first[0] = 0;
    const char *p = text, *end = text + size;
    while (p < end && t->count < SND_SENTENCE_MAX) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        const char *line = p;
        while (p < end && *p != '\n' && *p != '\r')
            p++;
        if (line >= p || *line == '/')
            continue;
        const char *q = line;
        while (q < p && *q != ' ' && *q != '\t')
            q++;   // the name
        while (q < p && (*q == ' ' || *q == '\t'))
            q++;
        const char *text_end = p;
        while (text_end > q && (text_end[-1] == ' ' || text_end[-1] == '\t'))
            text_end--;
        if (parse_text(t, &cap, q, (size_t)(text_end - q)) < 0)
            return -1;
        if (t->count + 2 > first_cap) {
            first_cap *= 2;
            int32_t *nf = realloc(t->first, (size_t)first_cap * sizeof(*nf));
            if (!nf)
                return -1;
            t->first = nf;
        }
        t->first[++t->count] = t->nwords;
    }
    return 0;
}

int snd_sentence_words(const snd_sentences_t *t, int index, const snd_word_t **words)
{
    if (!t->first || index < 0 || index >= t->count)
        return -1;
    *words = t->words ? t->words + t->first[index] : NULL;   // none yet: a file of wordless sentences
    return t->first[index + 1] - t->first[index];
}
