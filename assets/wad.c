// wad.c -- WAD2 / WAD3 directories and 2D pictures (qpic lumps, .lmp files, raw blocks)
#include "wad.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../formats/msg.h"

static int wad_fail(char *err, size_t errcap, size_t offset, const char *fmt, ...)
{
    if (err && errcap) {
        int n = snprintf(err, errcap, "offset %zu: ", offset);
        if (n >= 0 && (size_t)n < errcap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errcap - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

int wad_open(wad_t *w, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    memset(w, 0, sizeof(*w));
    msg_t m;
    msg_init(&m, data, size, 0);
    const uint8_t *magic = msg_bytes(&m, 4);
    if (!magic)
        return wad_fail(err, errcap, 0, "expected a 12-byte WAD header, file has %zu bytes", size);
    if (!memcmp(magic, "WAD2", 4))
        w->kind = WAD_KIND_WAD2;
    else if (!memcmp(magic, "WAD3", 4))
        w->kind = WAD_KIND_WAD3;
    else
        return wad_fail(err, errcap, 0, "expected magic WAD2 or WAD3");
    int32_t num = msg_s32(&m);
    int32_t dirofs = msg_s32(&m);
    if (m.bad)
        return wad_fail(err, errcap, 4, "expected a 12-byte WAD header, file has %zu bytes", size);
    if (num < 0 || num > WAD_MAX_LUMPS)
        return wad_fail(err, errcap, 4, "expected a lump count 0..%d, got %d", WAD_MAX_LUMPS, (int)num);
    if (dirofs < 12 || (size_t)dirofs > size || (size - (size_t)dirofs) / 32 < (size_t)num)
        return wad_fail(err, errcap, 8, "expected a directory of %d entries inside the file (%zu bytes), "
                        "got directory offset %d", (int)num, size, (int)dirofs);
    w->lumps = calloc(num ? (size_t)num : 1, sizeof(wad_lump_t));
    if (!w->lumps)
        return wad_fail(err, errcap, 8, "out of memory for %d lumps", (int)num);
    msg_init(&m, data + dirofs, size - (size_t)dirofs, (size_t)dirofs);
    for (int i = 0; i < num; i++) {
        size_t at = msg_offset(&m);
        wad_lump_t *l = &w->lumps[i];
        l->offset = msg_u32(&m);
        l->disksize = msg_u32(&m);
        l->size = msg_u32(&m);
        l->type = (uint8_t)msg_u8(&m);
        l->compression = (uint8_t)msg_u8(&m);
        msg_u16(&m);
        const uint8_t *name = msg_bytes(&m, WAD_NAME_LEN);
        if (m.bad || !name) {
            wad_close(w);
            return wad_fail(err, errcap, at, "expected directory entry %d", i);
        }
        memcpy(l->name, name, WAD_NAME_LEN);
        l->name[WAD_NAME_LEN] = 0;
        // Names are NUL-padded; anything after the first NUL is junk in real files.
        l->name[strnlen(l->name, WAD_NAME_LEN)] = 0;
        if (l->offset > size || l->disksize > size - l->offset) {
            wad_fail(err, errcap, at, "expected lump \"%s\" (%u bytes at %u) inside the file (%zu bytes)",
                     l->name, l->disksize, l->offset, size);
            wad_close(w);
            return -1;
        }
    }
    w->num_lumps = num;
    w->data = data;
    w->size = size;
    return 0;
}

void wad_close(wad_t *w)
{
    free(w->lumps);
    memset(w, 0, sizeof(*w));
}

const wad_lump_t *wad_find(const wad_t *w, const char *name)
{
    for (int i = 0; i < w->num_lumps; i++)
        if (!strcasecmp(w->lumps[i].name, name))
            return &w->lumps[i];
    return NULL;
}

const uint8_t *wad_lump_data(const wad_t *w, const wad_lump_t *l, size_t *size)
{
    *size = 0;
    if (!l || l->compression)
        return NULL;
    *size = l->disksize;
    return w->data + l->offset;
}

void wad_pic_free(wad_pic_t *pic)
{
    free(pic->pixels);
    free(pic->palette);
    memset(pic, 0, sizeof(*pic));
}

// Width, height and pixels at the reader's position; the reader is left after the
// pixels. Sizes are checked against the bytes before anything is allocated.
static int pic_parse(wad_pic_t *pic, msg_t *m, char *err, size_t errcap)
{
    size_t at = msg_offset(m);
    int32_t w = msg_s32(m), h = msg_s32(m);
    if (m->bad)
        return wad_fail(err, errcap, at, "expected a picture header (width, height)");
    if (w <= 0 || h <= 0 || w > WAD_MAX_PIC_SIDE || h > WAD_MAX_PIC_SIDE)
        return wad_fail(err, errcap, at, "expected a picture size 1..%d, got %dx%d", WAD_MAX_PIC_SIDE, (int)w,
                        (int)h);
    size_t n = (size_t)w * (size_t)h;
    size_t left = msg_left(m);
    const uint8_t *px = msg_bytes(m, n);
    if (!px)
        return wad_fail(err, errcap, at + 8, "expected %zu pixel bytes (%dx%d), %zu left", n, (int)w, (int)h, left);
    pic->pixels = malloc(n);
    if (!pic->pixels)
        return wad_fail(err, errcap, at, "out of memory for a %dx%d picture", (int)w, (int)h);
    memcpy(pic->pixels, px, n);
    pic->width = w;
    pic->height = h;
    return 0;
}

int wad_pic_from_lmp(wad_pic_t *pic, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    memset(pic, 0, sizeof(*pic));
    msg_t m;
    msg_init(&m, data, size, 0);
    return pic_parse(pic, &m, err, errcap);
}

int wad_pic_from_raw(wad_pic_t *pic, const uint8_t *data, size_t size, int width, int height,
                     char *err, size_t errcap)
{
    memset(pic, 0, sizeof(*pic));
    if (width <= 0 || height <= 0 || width > WAD_MAX_PIC_SIDE || height > WAD_MAX_PIC_SIDE)
        return wad_fail(err, errcap, 0, "expected a picture size 1..%d, got %dx%d", WAD_MAX_PIC_SIDE, width,
                        height);
    size_t n = (size_t)width * (size_t)height;
    if (size < n)
        return wad_fail(err, errcap, 0, "expected %zu bytes for a raw %dx%d picture, got %zu", n, width, height,
                        size);
    pic->pixels = malloc(n);
    if (!pic->pixels)
        return wad_fail(err, errcap, 0, "out of memory for a %dx%d picture", width, height);
    memcpy(pic->pixels, data, n);
    pic->width = width;
    pic->height = height;
    return 0;
}

int wad_lump_pic(const wad_t *w, const wad_lump_t *l, wad_pic_t *pic, char *err, size_t errcap)
{
    memset(pic, 0, sizeof(*pic));
    if (!l)
        return wad_fail(err, errcap, 0, "expected a lump, got none");
    if (l->compression)
        return wad_fail(err, errcap, l->offset, "expected an uncompressed lump \"%s\" (compression %d)", l->name,
                        l->compression);
    msg_t m;
    msg_init(&m, w->data + l->offset, l->disksize, l->offset);
    if (pic_parse(pic, &m, err, errcap) < 0)
        return -1;
    if (w->kind == WAD_KIND_WAD3) {
        // WAD3 qpics carry their palette: a 16-bit colour count, then count RGB triples.
        size_t at = msg_offset(&m);
        uint32_t count = msg_u16(&m);
        const uint8_t *pal = msg_bytes(&m, (size_t)count * 3);
        if (m.bad || !pal || count > 256) {
            wad_pic_free(pic);
            return wad_fail(err, errcap, at, "expected a palette of at most 256 colours after \"%s\"", l->name);
        }
        pic->palette = calloc(768, 1);
        if (!pic->palette) {
            wad_pic_free(pic);
            return wad_fail(err, errcap, at, "out of memory");
        }
        memcpy(pic->palette, pal, (size_t)count * 3);
    }
    return 0;
}

int wad_lump_miptex(const wad_t *w, const wad_lump_t *l, wad_miptex_t *mt, char *err, size_t errcap)
{
    memset(mt, 0, sizeof *mt);
    if (!l)
        return wad_fail(err, errcap, 0, "expected a lump, got none");
    if (l->compression)
        return wad_fail(err, errcap, l->offset, "expected an uncompressed lump \"%s\" (compression %d)", l->name,
                        l->compression);
    const uint8_t *p = w->data + l->offset;
    size_t size = l->disksize;
    if (size < 40)
        return wad_fail(err, errcap, l->offset, "expected a 40-byte miptex header in \"%s\", it has %zu bytes",
                        l->name, size);
    uint32_t wd = (uint32_t)p[16] | (uint32_t)p[17] << 8 | (uint32_t)p[18] << 16 | (uint32_t)p[19] << 24;
    uint32_t ht = (uint32_t)p[20] | (uint32_t)p[21] << 8 | (uint32_t)p[22] << 16 | (uint32_t)p[23] << 24;
    if (wd < 8 || ht < 8 || wd > WAD_MAX_MIPTEX_SIDE || ht > WAD_MAX_MIPTEX_SIDE)
        return wad_fail(err, errcap, l->offset + 16, "expected a miptex size 8..%d, got %u x %u in \"%s\"",
                        WAD_MAX_MIPTEX_SIDE, wd, ht, l->name);
    size_t end = 0;
    for (int m = 0; m < 4; m++) {
        const uint8_t *q = p + 24 + 4 * m;
        size_t ofs = (size_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24);
        size_t n = (size_t)(wd >> m) * (size_t)(ht >> m);
        if (ofs < 40 || ofs > size || n > size - ofs)
            return wad_fail(err, errcap, l->offset + 24 + 4 * (size_t)m,
                            "expected mip %d (%zu bytes) inside the %zu-byte lump \"%s\", got offset %zu", m, n,
                            size, l->name, ofs);
        mt->mips[m] = p + ofs;
        if (ofs + n > end)
            end = ofs + n;
    }
    size_t ncol = end + 2 <= size ? (size_t)(p[end] | p[end + 1] << 8) : 0;
    if (ncol < 1 || ncol > 256 || end + 2 + ncol * 3 > size)
        return wad_fail(err, errcap, l->offset + end, "expected a palette of 1..256 colours after the mips of \"%s\"",
                        l->name);
    mt->width = (int)wd;
    mt->height = (int)ht;
    mt->palette = p + end + 2;
    mt->colours = (int)ncol;
    return 0;
}
