// wav.c -- RIFF WAVE loader with Quake's loop points, bounded on hostile bytes
#include "wav.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WAV_MAX_RATE 1000000   // anything above is not a sound but a damaged header

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int fail(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t cap, const char *fmt, ...)
{
    if (err && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

// Walk chunk headers from `from` (the offset of a header) as Quake's FindNextChunk
// does: each chunk is 8 bytes of id and length then the length padded to even; a
// length with the top bit set ends the walk (Quake reads it as negative). Finds
// the first chunk named `id`; *next is where the walk would go on after it.
static int find_chunk(const uint8_t *b, size_t size, size_t from, const char *id,
                      size_t *at, uint32_t *len, size_t *next)
{
    size_t p = from;
    while (p < size && size - p >= 8) {
        uint32_t l = rd32(b + p + 4);
        if (l > (uint32_t)INT32_MAX)
            return 0;
        size_t padded = ((size_t)l + 1) & ~(size_t)1;
        size_t nxt = padded > size - p - 8 ? size : p + 8 + padded;
        if (!memcmp(b + p, id, 4)) {
            *at = p;
            *len = l;
            *next = nxt;
            return 1;
        }
        p = nxt;
    }
    return 0;
}

static void note(wav_info_t *info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(wav_info_t *info, const char *fmt, ...)
{
    if (info->note[0])
        return;   // the first repair is the one worth reading
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(info->note, sizeof(info->note), fmt, ap);
    va_end(ap);
}

int wav_parse(const uint8_t *b, size_t size, wav_info_t *info, char *err, size_t errcap)
{
    memset(info, 0, sizeof(*info));
    info->loop_start = -1;
    if (err && errcap)
        err[0] = 0;
    if (!b || size < 12)
        return fail(err, errcap, "offset 0: expected a 12-byte RIFF header, the file has %zu bytes", size);
    if (memcmp(b, "RIFF", 4) || memcmp(b + 8, "WAVE", 4))
        return fail(err, errcap, "offset 0: expected \"RIFF\" .... \"WAVE\"");
    const size_t iff = 12;   // Quake ignores the RIFF length and walks to the end of the file

    size_t at, next;
    uint32_t len;
    if (!find_chunk(b, size, iff, "fmt ", &at, &len, &next))
        return fail(err, errcap, "offset %zu: expected a \"fmt \" chunk before the end of the file (%zu bytes)",
                    iff, size);
    if (len < 16 || size - at - 8 < 16)
        return fail(err, errcap, "offset %zu: expected a \"fmt \" chunk of at least 16 bytes, found %u",
                    at, (unsigned)(len < size - at - 8 ? len : size - at - 8));
    const uint8_t *f = b + at + 8;
    uint32_t format = rd16(f);
    uint32_t channels = rd16(f + 2);
    uint32_t rate = rd32(f + 4);
    uint32_t bits = rd16(f + 14);
    if (format == 0xFFFE) {   // WAVE_FORMAT_EXTENSIBLE: PCM when the sub-format GUID starts with 1
        if (len < 40 || size - at - 8 < 40 || rd16(f + 24) != 1)
            return fail(err, errcap, "offset %zu: expected PCM in the extensible \"fmt \" chunk", at + 8);
    } else if (format != 1) {
        return fail(err, errcap, "offset %zu: expected PCM format 1, found %u", at + 8, (unsigned)format);
    }
    if (channels != 1 && channels != 2)
        return fail(err, errcap, "offset %zu: expected 1 or 2 channels, found %u", at + 10, (unsigned)channels);
    if (rate == 0 || rate > WAV_MAX_RATE)
        return fail(err, errcap, "offset %zu: expected a sample rate of 1..%d, found %u", at + 12, WAV_MAX_RATE,
                    (unsigned)rate);
    if (bits != 8 && bits != 16)
        return fail(err, errcap, "offset %zu: expected 8 or 16 bits per sample, found %u", at + 22, (unsigned)bits);
    info->rate = (int)rate;
    info->channels = (int)channels;
    info->width = (int)bits / 8;
    const size_t frame_bytes = (size_t)info->width * (size_t)info->channels;

    // the data
    if (!find_chunk(b, size, iff, "data", &at, &len, &next))
        return fail(err, errcap, "offset %zu: expected a \"data\" chunk before the end of the file (%zu bytes)",
                    iff, size);
    size_t avail = size - at - 8;
    size_t dlen = len;
    if (dlen > avail) {
        note(info, "offset %zu: data chunk of %zu bytes cut to %zu by the end of the file", at, dlen, avail);
        dlen = avail;
    }
    info->data_offset = at + 8;
    size_t dframes = dlen / frame_bytes;
    if (dframes > INT_MAX)
        dframes = INT_MAX;
    info->data_frames = (int)dframes;
    info->frames = info->data_frames;

    // loop points: the first cue point, then a Cool Edit "mark" length in a later LIST
    size_t cue_next;
    if (find_chunk(b, size, iff, "cue ", &at, &len, &cue_next)) {
        if (len >= 28 && size - at < 36)
            return fail(err, errcap, "offset %zu: expected a 24-byte cue point, the file ends at %zu", at + 12, size);
        if (len < 28 || rd32(b + at + 8) == 0) {
            note(info, "offset %zu: cue chunk without a cue point ignored", at);
        } else {
            uint32_t start = rd32(b + at + 32);
            if (start > (uint32_t)INT32_MAX) {
                // Quake reads it as negative: not looped
            } else if ((int)start >= info->data_frames) {
                note(info, "offset %zu: loop start %u is past the data (%d frames): plays once", at + 32,
                     (unsigned)start, info->data_frames);
            } else {
                info->loop_start = (int)start;
                size_t lat, lnext;
                uint32_t llen;
                if (find_chunk(b, size, cue_next, "LIST", &lat, &llen, &lnext) && size - lat >= 32 &&
                    !memcmp(b + lat + 28, "mark", 4)) {
                    uint64_t end = (uint64_t)start + rd32(b + lat + 24);
                    if (end > (uint64_t)info->data_frames) {
                        // Quake stops with "bad loop length"; playing to the end of the data is kinder
                        note(info, "offset %zu: loop end %llu is past the data (%d frames): cut", lat + 24,
                             (unsigned long long)end, info->data_frames);
                    } else if (end > start) {
                        info->frames = (int)end;
                    }
                }
            }
        }
    }
    return 0;
}

size_t wav_s16_bytes(const wav_info_t *info)
{
    return (size_t)info->frames * (size_t)info->channels * sizeof(int16_t);
}

int wav_to_s16(const uint8_t *b, size_t size, const wav_info_t *info, int16_t *out)
{
    size_t n = (size_t)info->frames * (size_t)info->channels;
    size_t need = n * (size_t)info->width;
    if (info->width < 1 || info->width > 2 || info->data_offset > size || need > size - info->data_offset)
        return 0;   // not the buffer wav_parse accepted
    const uint8_t *p = b + info->data_offset;
    if (info->width == 1) {
        for (size_t i = 0; i < n; i++)
            out[i] = (int16_t)(((int)p[i] - 128) * 256);
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = (int16_t)((int32_t)(rd16(p + 2 * i) ^ 0x8000u) - 0x8000);
    }
    return info->frames;
}
