// wal.c -- Quake II .wal textures: header checked, every mip inside the file, pixels copied out
#include "wal.h"

#include "asset.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(wal_t *w, char *err, size_t errcap, size_t offset, const char *fmt, ...)
{
    free(w->pixels);
    memset(w, 0, sizeof(*w));
    if (err && errcap) {
        char msg[160];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(err, errcap, "offset %zu: expected %s", offset, msg);
    }
    return -1;
}

// A 32-byte name field; the 33rd byte ends it when the file's does not.
static void copy_name(char *dst, const uint8_t *src)
{
    memcpy(dst, src, 32);
    dst[32] = 0;
}

int wal_load(wal_t *w, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    memset(w, 0, sizeof(*w));
    if (size < WAL_HEADER_SIZE)
        return fail(w, err, errcap, 0, "a WAL header (%d bytes), file has %zu", WAL_HEADER_SIZE, size);
    uint32_t width = asset_u32(data + 32), height = asset_u32(data + 36);
    if (width < WAL_MIN_SIDE || height < WAL_MIN_SIDE || width > WAL_MAX_SIDE || height > WAL_MAX_SIDE)
        return fail(w, err, errcap, 32, "a texture of %d..%d texels a side, got %ux%u", WAL_MIN_SIDE, WAL_MAX_SIDE,
                    width, height);
    // Every mip must lie inside the file; they may sit anywhere (writers put them in order).
    size_t total = 0;
    for (int m = 0; m < WAL_MIPLEVELS; m++) {
        uint32_t ofs = asset_u32(data + 40 + m * 4);
        size_t msize = (size_t)(width >> m) * (size_t)(height >> m);
        if (ofs > size || size - ofs < msize)
            return fail(w, err, errcap, 40 + (size_t)m * 4, "mip %d (%zu bytes) inside the %zu-byte file, got offset %u",
                        m, msize, size, ofs);
        total += msize;
    }
    w->pixels = malloc(total);
    if (!w->pixels)
        return fail(w, err, errcap, 0, "memory for %zu texels", total);
    w->pixels_size = total;
    w->width = (int)width;
    w->height = (int)height;
    size_t o = 0;
    for (int m = 0; m < WAL_MIPLEVELS; m++) {
        size_t msize = (size_t)(width >> m) * (size_t)(height >> m);
        w->offsets[m] = o;
        memcpy(w->pixels + o, data + asset_u32(data + 40 + m * 4), msize);
        o += msize;
    }
    copy_name(w->name, data);
    copy_name(w->animname, data + 56);
    w->flags = (int32_t)asset_u32(data + 88);
    w->contents = (int32_t)asset_u32(data + 92);
    w->value = (int32_t)asset_u32(data + 96);
    return 0;
}

void wal_free(wal_t *w)
{
    free(w->pixels);
    memset(w, 0, sizeof(*w));
}
