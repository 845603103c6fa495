// bmp8.c -- 8-bit BMP loader: BITMAPFILEHEADER + BITMAPINFOHEADER, palette, uncompressed or RLE8 rows
#include "bmp8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

void bmp8_free(bmp8_t *b)
{
    if (b) {
        free(b->pixels);
        b->pixels = NULL;
    }
}

// RLE8 into rows counted from the bottom (row 0 = the file's first row).
static int rle8(uint8_t *px, int w, int h, const uint8_t *data, size_t size, size_t off, char *err, size_t cap)
{
    int x = 0, y = 0;
    size_t p = off;
    for (;;) {
        if (p + 2 > size)
            return asset_fail(err, cap, p, "expected an RLE8 code pair, found the end of the file");
        unsigned n = data[p], c = data[p + 1];
        size_t at = p;
        p += 2;
        if (n > 0) {   // a run of n pixels of colour c
            if (y >= h || x + (int)n > w)
                return asset_fail(err, cap, at, "expected a run inside the %dx%d picture, found %u pixels at (%d,%d)", w,
                                  h, n, x, y);
            memset(px + (size_t)y * (size_t)w + (size_t)x, (int)c, n);
            x += (int)n;
        } else if (c == 0) {   // end of line
            x = 0;
            y++;
        } else if (c == 1) {   // end of picture
            return 0;
        } else if (c == 2) {   // delta
            if (p + 2 > size)
                return asset_fail(err, cap, at, "expected an RLE8 delta, found the end of the file");
            x += data[p];
            y += data[p + 1];
            p += 2;
            if (x > w || y > h)
                return asset_fail(err, cap, at, "expected a delta inside the %dx%d picture, found (%d,%d)", w, h, x, y);
        } else {   // c literal pixels, padded to an even count
            size_t len = c + (c & 1);
            if (p + len > size)
                return asset_fail(err, cap, at, "expected %u literal pixels, found %zu bytes", c, size - p);
            if (y >= h || x + (int)c > w)
                return asset_fail(err, cap, at, "expected literal pixels inside the %dx%d picture, found %u at (%d,%d)",
                                  w, h, c, x, y);
            memcpy(px + (size_t)y * (size_t)w + (size_t)x, data + p, c);
            x += (int)c;
            p += len;
        }
    }
}

int bmp8_load(bmp8_t *b, const uint8_t *data, size_t size, int max_side, char *err, size_t cap)
{
    memset(b, 0, sizeof(*b));
    if (size < 54 || data[0] != 'B' || data[1] != 'M')
        return asset_fail(err, cap, 0, "expected a BMP (\"BM\" and a 54-byte header), found %zu bytes", size);
    uint32_t bits_off = rd32(data + 10), hsize = rd32(data + 14);
    if (hsize < 40 || hsize > size - 14)
        return asset_fail(err, cap, 14, "expected an info header of 40..%zu bytes, found %u", size - 14, hsize);
    int32_t w = (int32_t)rd32(data + 18), h = (int32_t)rd32(data + 22);
    unsigned bpp = rd16(data + 28), comp = rd32(data + 30), ncol = rd32(data + 46);
    int top_down = h < 0;
    if (top_down)
        h = h == INT32_MIN ? 0 : -h;
    if (w < 1 || h < 1 || w > max_side || h > max_side)
        return asset_fail(err, cap, 18, "expected sides of 1..%d pixels, found %dx%d", max_side, (int)w, (int)h);
    if (bpp != 8)
        return asset_fail(err, cap, 28, "expected 8 bits a pixel, found %u", bpp);
    if (comp != 0 && !(comp == 1 && !top_down))
        return asset_fail(err, cap, 30, "expected no compression or RLE8 (bottom-up), found compression %u", comp);
    if (ncol == 0)
        ncol = 256;
    size_t pal_off = 14 + (size_t)hsize;
    if (ncol > 256 || pal_off + (size_t)ncol * 4 > size)
        return asset_fail(err, cap, 46, "expected 1..256 palette colours inside the file, found %u", ncol);
    for (unsigned i = 0; i < ncol; i++) {
        const uint8_t *q = data + pal_off + i * 4;   // B G R 0
        b->palette[i * 3] = q[2];
        b->palette[i * 3 + 1] = q[1];
        b->palette[i * 3 + 2] = q[0];
    }
    b->colors = (int)ncol;
    if (bits_off < pal_off || bits_off >= size)
        return asset_fail(err, cap, 10, "expected the pixels after the palette and inside the file, found offset %u",
                          bits_off);
    size_t stride = ((size_t)w + 3) & ~(size_t)3;
    if (comp == 0 && (size - bits_off) / stride < (size_t)h)
        return asset_fail(err, cap, bits_off, "expected %d rows of %zu bytes, found %zu bytes", (int)h, stride,
                          size - bits_off);
    uint8_t *px = calloc((size_t)w * (size_t)h, 1);
    if (!px)
        return asset_fail(err, cap, 0, "out of memory");
    if (comp == 1) {
        if (rle8(px, (int)w, (int)h, data, size, bits_off, err, cap) < 0) {
            free(px);
            return -1;
        }
    } else {
        for (int y = 0; y < h; y++)
            memcpy(px + (size_t)y * (size_t)w, data + bits_off + (size_t)y * stride, (size_t)w);
    }
    if (!top_down)   // the file's first row is the bottom one
        for (int y = 0; y < h / 2; y++) {
            uint8_t *a = px + (size_t)y * (size_t)w, *c = px + (size_t)(h - 1 - y) * (size_t)w;
            for (int x = 0; x < w; x++) {
                uint8_t t = a[x];
                a[x] = c[x];
                c[x] = t;
            }
        }
    b->width = (int)w;
    b->height = (int)h;
    b->pixels = px;
    return 0;
}
