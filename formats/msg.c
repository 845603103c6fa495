// msg.c -- bounded byte and bit readers (see msg.h)
#include "msg.h"

#include <string.h>

size_t msg_string(msg_t *m, char *out, size_t cap)
{
    size_t n = 0;
    if (m->bad || m->pos >= m->size) {
        m->bad = 1;
    } else {
        // the string runs to its NUL, or to the end of the message (then bad)
        const uint8_t *p = m->data + m->pos;
        size_t left = m->size - m->pos;
        const uint8_t *nul = memchr(p, 0, left);
        n = nul ? (size_t)(nul - p) : left;
        if (cap)
            memcpy(out, p, n < cap - 1 ? n : cap - 1);
        m->pos += nul ? n + 1 : n;
        if (!nul)
            m->bad = 1;
    }
    if (cap)
        out[n < cap - 1 ? n : cap - 1] = 0;
    return n;
}

uint32_t bitmsg_read(bitmsg_t *b, int nbits)
{
    if (nbits <= 0)
        return 0;
    if (nbits > 32)
        nbits = 32;
    if (b->bad || b->bitpos + (size_t)nbits > b->size * 8) {
        b->bad = 1;
        b->bitpos = b->size * 8;
        return 0;
    }
    uint64_t v = 0;
    int got = 0;
    while (got < nbits) {
        size_t byte = b->bitpos >> 3;
        int shift = (int)(b->bitpos & 7);
        int take = 8 - shift;
        if (take > nbits - got)
            take = nbits - got;
        uint64_t bits = (b->data[byte] >> shift) & ((1u << take) - 1);
        v |= bits << got;
        got += take;
        b->bitpos += (size_t)take;
    }
    return (uint32_t)v;
}

int32_t bitmsg_read_signed(bitmsg_t *b, int nbits)
{
    uint32_t v = bitmsg_read(b, nbits);
    if (nbits > 0 && nbits < 32 && (v & (1u << (nbits - 1))))
        v |= ~0u << nbits;
    return (int32_t)v;
}

size_t bitmsg_string(bitmsg_t *b, char *out, size_t cap)
{
    size_t n = 0;
    for (;;) {
        uint32_t c = bitmsg_read(b, 8);
        if (b->bad || c == 0)
            break;
        if (cap && n < cap - 1)
            out[n] = (char)c;
        n++;
    }
    if (cap)
        out[n < cap - 1 ? n : cap - 1] = 0;
    return n;
}
