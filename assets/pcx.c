// pcx.c -- 8-bit run-length PCX decoding, bounded by the file
#include "pcx.h"

#include "asset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(pcx_t *p, char *err, size_t errcap, size_t offset, const char *what)
{
    free(p->pixels);
    memset(p, 0, sizeof(*p));
    if (err && errcap)
        snprintf(err, errcap, "offset %zu: expected %s", offset, what);
    return -1;
}

int pcx_load(pcx_t *p, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    memset(p, 0, sizeof(*p));
    if (size < 128 + 769)
        return fail(p, err, errcap, 0, "a PCX header (128 bytes) and a 769-byte palette");
    if (data[0] != 0x0a || data[1] != 5 || data[2] != 1 || data[3] != 8)
        return fail(p, err, errcap, 0, "PCX version 5, RLE, 8 bits a pixel");
    if (data[65] != 1)
        return fail(p, err, errcap, 65, "one colour plane");
    int xmin = asset_u16(data + 4), ymin = asset_u16(data + 6), xmax = asset_u16(data + 8), ymax = asset_u16(data + 10);
    if (xmax < xmin || ymax < ymin || xmax - xmin >= PCX_MAX_SIDE || ymax - ymin >= PCX_MAX_SIDE)
        return fail(p, err, errcap, 4, "a picture of 1..4096 pixels a side");
    int w = xmax - xmin + 1, h = ymax - ymin + 1;
    int pitch = asset_u16(data + 66);
    if (pitch < w || pitch > PCX_MAX_SIDE + 1)
        return fail(p, err, errcap, 66, "bytes per line >= the width");
    // The palette: 0x0C and 768 bytes at the end. Some writers pad the file after
    // them (Action Quake 2's env/wnight*.pcx: zeros to 132072 bytes); Quake II
    // decodes those all the same, so then the marker that ends the picture data counts.
    int marked = data[size - 769] == 0x0c;
    p->width = w;
    p->height = h;
    p->pixels = malloc((size_t)w * (size_t)h);
    if (!p->pixels)
        return fail(p, err, errcap, 0, "memory for the picture");
    size_t in = 128, end = marked ? size - 769 : size;
    for (int y = 0; y < h; y++) {
        uint8_t *row = p->pixels + (size_t)y * (size_t)w;
        int x = 0;
        while (x < pitch) {
            if (in >= end)
                return fail(p, err, errcap, in, "more picture data (the image ends early)");
            int c = data[in++], run = 1;
            if ((c & 0xc0) == 0xc0) {
                run = c & 0x3f;
                if (in >= end)
                    return fail(p, err, errcap, in, "the value of a run");
                c = data[in++];
            }
            // A run may cross into the next row, as some writers do: carry it over.
            while (run-- > 0) {
                if (x >= pitch) {
                    if (++y >= h)
                        break;
                    row = p->pixels + (size_t)y * (size_t)w;
                    x = 0;
                }
                if (x < w)
                    row[x] = (uint8_t)c;
                x++;
            }
            if (y >= h)
                break;
        }
    }
    if (!marked) {
        if (in + 769 > size || data[in] != 0x0c)
            return fail(p, err, errcap, size - 769, "the 0x0C palette marker 769 bytes before the end");
        memcpy(p->palette, data + in + 1, 768);
    } else {
        memcpy(p->palette, data + size - 768, 768);
    }
    return 0;
}

void pcx_free(pcx_t *p)
{
    free(p->pixels);
    memset(p, 0, sizeof(*p));
}
