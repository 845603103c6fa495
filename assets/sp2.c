// sp2.c -- Quake II sprite loader: a bounded frame list, images fetched as PCX files
#include "sp2.h"
#include "asset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/msg.h"
#include "pcx.h"

#define SP2_HEADER_SIZE 12
#define SP2_FRAME_SIZE 80       // width, height, origin_x, origin_y, name[64]


// The frame's picture into its image, when there is one of the stated size.
static void load_image(spr_t *s, const spr_image_t *im, const char *name, const asset_files_t *files)
{
    uint8_t *dst = s->pixels + im->offset;
    size_t n = (size_t)im->width * (size_t)im->height;
    memset(dst, 255, n);
    size_t psize = 0;
    uint8_t *bytes = name[0] ? asset_load(files, name, &psize) : NULL;
    if (!bytes)
        return;
    pcx_t p;
    char perr[128];
    int rc = pcx_load(&p, bytes, psize, perr, sizeof perr);
    free(bytes);
    if (rc < 0)
        return;
    if (p.width == im->width && p.height == im->height)
        memcpy(dst, p.pixels, n);
    pcx_free(&p);
}

int sp2_load(spr_t *s, const uint8_t *data, size_t size, const asset_files_t *files, char *err, size_t errcap)
{
    memset(s, 0, sizeof(*s));
    if (size < SP2_HEADER_SIZE)
        return asset_fail(err, errcap, 0, "expected a 12-byte SP2 header, found %zu bytes", size);
    if (memcmp(data, "IDS2", 4) != 0)
        return asset_fail(err, errcap, 0, "expected magic \"IDS2\"");
    msg_t r;
    msg_init(&r, data, size, 0);
    msg_bytes(&r, 4);
    int32_t version = msg_s32(&r);
    if (version != 2)
        return asset_fail(err, errcap, 4, "expected sprite version 2 (Quake II), found %d", version);
    int32_t n = msg_s32(&r);
    if (n < 1 || n > SP2_MAX_FRAMES)
        return asset_fail(err, errcap, 8, "expected 1..%d frames, found %d", SP2_MAX_FRAMES, n);
    if ((size_t)n * SP2_FRAME_SIZE > size - SP2_HEADER_SIZE)
        return asset_fail(err, errcap, size, "expected %d frames of 80 bytes, found end of file", n);
    s->type = SPR_VP_PARALLEL;
    s->numframes = s->num_images = n;
    s->frames = calloc((size_t)n, sizeof(*s->frames));
    s->images = calloc((size_t)n, sizeof(*s->images));
    s->intervals = calloc(1, sizeof(float));
    if (!s->frames || !s->images || !s->intervals) {
        spr_free(s);
        return asset_fail(err, errcap, 0, "out of memory");
    }
    float radius2 = 0;
    for (int i = 0; i < n; i++) {
        size_t off = msg_offset(&r);
        int32_t w = msg_s32(&r), h = msg_s32(&r), ox = msg_s32(&r), oy = msg_s32(&r);
        msg_bytes(&r, 64);   // the name, read again below
        if (w < 1 || h < 1 || w > SP2_MAX_DIM || h > SP2_MAX_DIM) {
            spr_free(s);
            return asset_fail(err, errcap, off, "expected frame size 1..%d, found %dx%d", SP2_MAX_DIM, w, h);
        }
        if (ox < -65536 || ox > 65536 || oy < -65536 || oy > 65536) {
            spr_free(s);
            return asset_fail(err, errcap, off + 8, "expected a frame origin within 65536, found %d,%d", ox, oy);
        }
        spr_image_t *im = &s->images[i];
        im->width = w;
        im->height = h;
        // Quake II: the origin is the entity's place measured from the lower-left
        // corner; Quake: the upper-left corner measured from the entity
        im->origin_x = -ox;
        im->origin_y = h - oy;
        im->offset = s->pixels_size;
        s->pixels_size += (size_t)w * (size_t)h;
        s->frames[i].first = i;
        s->frames[i].count = 1;
        s->frames[i].first_interval = -1;
        if (w > s->width)
            s->width = w;
        if (h > s->height)
            s->height = h;
        // the farthest corner from the origin bounds the sprite
        float dx = (float)(abs(ox) > abs(w - ox) ? abs(ox) : abs(w - ox));
        float dy = (float)(abs(oy) > abs(h - oy) ? abs(oy) : abs(h - oy));
        if (dx * dx + dy * dy > radius2)
            radius2 = dx * dx + dy * dy;
    }
    s->radius = sqrtf(radius2);
    // the images are not in the file: a cap of their own bounds them
    if (s->pixels_size > SP2_MAX_PIXELS) {
        size_t total = s->pixels_size;
        spr_free(s);
        return asset_fail(err, errcap, 8, "expected at most %d pixels in all frames, found %zu", SP2_MAX_PIXELS, total);
    }
    s->pixels = malloc(s->pixels_size);
    if (!s->pixels) {
        spr_free(s);
        return asset_fail(err, errcap, 0, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        char name[65];
        memcpy(name, data + SP2_HEADER_SIZE + (size_t)i * SP2_FRAME_SIZE + 16, 64);
        name[64] = 0;
        load_image(s, &s->images[i], name, files);
    }
    return 0;
}
