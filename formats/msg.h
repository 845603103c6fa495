// msg.h -- bounded little-endian byte and bit readers for untrusted demo bytes
//
// Every read from demo bytes goes through these. A read past the end returns
// zero and sets `bad` (sticky), so a parser can read a whole message and check
// once; `msg_expect` records what was expected at which file offset the first
// time something fails. `base` is the file offset of data[0], so errors name
// the offset in the file, not in the block.
#ifndef MSG_H
#define MSG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
    size_t base;     // file offset of data[0]
    int bad;         // a read ran past the end
} msg_t;

static inline void msg_init(msg_t *m, const uint8_t *data, size_t size, size_t base)
{
    m->data = data;
    m->size = size;
    m->pos = 0;
    m->base = base;
    m->bad = 0;
}

static inline size_t msg_left(const msg_t *m) { return m->pos < m->size ? m->size - m->pos : 0; }
static inline size_t msg_offset(const msg_t *m) { return m->base + m->pos; }

static inline int msg_need(msg_t *m, size_t n)
{
    if (m->bad || m->size - m->pos < n || m->pos > m->size) {
        m->bad = 1;
        m->pos = m->size;
        return 0;
    }
    return 1;
}

static inline uint32_t msg_u8(msg_t *m)
{
    if (!msg_need(m, 1))
        return 0;
    return m->data[m->pos++];
}

static inline int32_t msg_s8(msg_t *m) { return (int8_t)msg_u8(m); }

static inline uint32_t msg_u16(msg_t *m)
{
    if (!msg_need(m, 2))
        return 0;
    uint32_t v = (uint32_t)m->data[m->pos] | ((uint32_t)m->data[m->pos + 1] << 8);
    m->pos += 2;
    return v;
}

static inline int32_t msg_s16(msg_t *m) { return (int16_t)msg_u16(m); }

static inline uint32_t msg_u32(msg_t *m)
{
    if (!msg_need(m, 4))
        return 0;
    const uint8_t *p = m->data + m->pos;
    m->pos += 4;
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline int32_t msg_s32(msg_t *m) { return (int32_t)msg_u32(m); }

static inline uint64_t msg_u64(msg_t *m)
{
    uint64_t lo = msg_u32(m);
    uint64_t hi = msg_u32(m);
    return lo | (hi << 32);
}

static inline float msg_f32(msg_t *m)
{
    union { uint32_t u; float f; } v;
    v.u = msg_u32(m);
    return v.f;
}

// Skip n bytes (bounded).
static inline const uint8_t *msg_bytes(msg_t *m, size_t n)
{
    if (!msg_need(m, n))
        return NULL;
    const uint8_t *p = m->data + m->pos;
    m->pos += n;
    return p;
}

// Read a NUL-terminated string into out (always terminated, truncated to cap-1).
// Returns the string length in the message (may exceed cap-1); sets bad when the
// message ends before the NUL.
size_t msg_string(msg_t *m, char *out, size_t cap);

// ---- bit reader (GoldSrc deltas): LSB-first within little-endian bytes ----
typedef struct {
    const uint8_t *data;
    size_t size;      // bytes
    size_t bitpos;
    size_t base;      // file offset of data[0]
    int bad;
} bitmsg_t;

static inline void bitmsg_init(bitmsg_t *b, const uint8_t *data, size_t size, size_t base)
{
    b->data = data;
    b->size = size;
    b->bitpos = 0;
    b->base = base;
    b->bad = 0;
}

uint32_t bitmsg_read(bitmsg_t *b, int nbits);   // 0..32 bits
int32_t bitmsg_read_signed(bitmsg_t *b, int nbits); // nbits two's complement, sign-extended
size_t bitmsg_string(bitmsg_t *b, char *out, size_t cap);
static inline size_t bitmsg_offset(const bitmsg_t *b) { return b->base + b->bitpos / 8; }
static inline size_t bitmsg_bytes_used(const bitmsg_t *b) { return (b->bitpos + 7) / 8; }

#endif
