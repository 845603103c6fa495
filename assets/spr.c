// spr.c -- Quake / Half-Life sprite loader: every read bounded, sizes checked before allocation
#include "spr.h"
#include "asset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/msg.h"
#include "mdl.h"

#define SPR_HEADER_SIZE 36      // version 1
#define SPR2_HEADER_SIZE 40     // version 2: + texformat
#define SPR_MIN_FRAME 21        // frame type + 16-byte image header + 1 pixel


void spr_free(spr_t *s)
{
    if (!s)
        return;
    free(s->frames);
    free(s->images);
    free(s->intervals);
    free(s->pixels);
    memset(s, 0, sizeof(*s));
}

// One image: origin, size, pixels. fill: write it into s at image `idx`.
static int read_image(spr_t *s, msg_t *r, int fill, int idx, size_t *pix, char *err, size_t cap)
{
    size_t off = msg_offset(r);
    int32_t ox = msg_s32(r), oy = msg_s32(r), w = msg_s32(r), h = msg_s32(r);
    if (r->bad)
        return asset_fail(err, cap, off, "expected a sprite frame header, found end of file");
    if (w < 1 || h < 1 || w > SPR_MAX_DIM || h > SPR_MAX_DIM)
        return asset_fail(err, cap, off + 8, "expected frame size 1..%d, found %dx%d", SPR_MAX_DIM, w, h);
    if (ox < -65536 || ox > 65536 || oy < -65536 || oy > 65536)
        return asset_fail(err, cap, off, "expected a frame origin within 65536, found %d,%d", ox, oy);
    size_t n = (size_t)w * (size_t)h;
    const uint8_t *p = msg_bytes(r, n);
    if (!p)
        return asset_fail(err, cap, off + 16, "expected %zu bytes of pixels, found end of file", n);
    if (fill) {
        spr_image_t *im = &s->images[idx];
        im->width = w;
        im->height = h;
        im->origin_x = ox;
        im->origin_y = oy;
        im->offset = *pix;
        memcpy(s->pixels + *pix, p, n);
    }
    *pix += n;
    return 0;
}

// frames_at: where the frames start (after the header and any palette).
static int walk(spr_t *s, const uint8_t *data, size_t size, size_t frames_at, int fill, char *err, size_t cap)
{
    msg_t r;
    msg_init(&r, data, size, 0);
    msg_bytes(&r, frames_at);
    int images = 0, intervals = 0;
    size_t pix = 0;
    for (int i = 0; i < s->numframes; i++) {
        size_t off = msg_offset(&r);
        int32_t type = msg_s32(&r);
        if (r.bad)
            return asset_fail(err, cap, off, "expected frame %d of %d, found end of file", i, s->numframes);
        int n = 1;
        if (type != 0) {
            off = msg_offset(&r);
            n = msg_s32(&r);
            if (r.bad || n < 1 || n > SPR_MAX_FRAMES)
                return asset_fail(err, cap, off, "expected frame group size 1..%d, found %d", SPR_MAX_FRAMES, n);
            for (int k = 0; k < n; k++) {
                size_t ioff = msg_offset(&r);
                float f = msg_f32(&r);
                if (r.bad || !(f > 0.0f) || !isfinite(f))
                    return asset_fail(err, cap, ioff, "expected group interval > 0");
                if (fill)
                    s->intervals[intervals + k] = f;
            }
        }
        if (fill) {
            s->frames[i].first = images;
            s->frames[i].count = n;
            s->frames[i].first_interval = type != 0 ? intervals : -1;
        }
        if (type != 0)
            intervals += n;
        for (int k = 0; k < n; k++)
            if (read_image(s, &r, fill, images + k, &pix, err, cap) < 0)
                return -1;
        images += n;
    }
    if (!fill) {
        s->num_images = images;
        s->num_intervals = intervals;
        s->pixels_size = pix;
    }
    return 0;
}

// Version 2's palette: a 16-bit count (1..256) and count RGB triples. Returns
// where the frames start, or 0 with err set.
static size_t read_palette(spr_t *s, msg_t *r, char *err, size_t cap)
{
    size_t off = msg_offset(r);
    int n = msg_s16(r);
    if (r->bad || n < 1 || n > 256) {
        asset_fail(err, cap, off, "expected a palette of 1..256 colours, found %d", r->bad ? 0 : n);
        return 0;
    }
    const uint8_t *p = msg_bytes(r, (size_t)n * 3);
    if (!p) {
        asset_fail(err, cap, off + 2, "expected %d palette bytes, found end of file", n * 3);
        return 0;
    }
    memcpy(s->palette, p, (size_t)n * 3);
    s->has_palette = 1;
    return msg_offset(r);
}

int spr_load(spr_t *s, const uint8_t *data, size_t size, char *err, size_t errcap)
{
    memset(s, 0, sizeof(*s));
    if (size < SPR_HEADER_SIZE)
        return asset_fail(err, errcap, 0, "expected a 36-byte sprite header, found %zu bytes", size);
    if (memcmp(data, "IDSP", 4) != 0)
        return asset_fail(err, errcap, 0, "expected magic \"IDSP\"");
    msg_t r;
    msg_init(&r, data, size, 0);
    msg_bytes(&r, 4);
    int32_t version = msg_s32(&r);
    if (version != 1 && version != 2)
        return asset_fail(err, errcap, 4, "expected sprite version 1 (Quake) or 2 (Half-Life), found %d", version);
    if (version == 2 && size < SPR2_HEADER_SIZE)
        return asset_fail(err, errcap, 0, "expected a 40-byte sprite header, found %zu bytes", size);
    s->version = version;
    s->type = msg_s32(&r);
    s->texformat = version == 2 ? msg_s32(&r) : SPR_TEX_ALPHATEST;
    s->radius = msg_f32(&r);
    s->width = msg_s32(&r);
    s->height = msg_s32(&r);
    s->numframes = msg_s32(&r);
    s->beamlength = msg_f32(&r);
    s->synctype = msg_s32(&r);
    size_t base = version == 2 ? 4 : 0;   // fields after the type move by the texformat
    if (s->type < SPR_VP_PARALLEL_UPRIGHT || s->type > SPR_VP_PARALLEL_ORIENTED)
        return asset_fail(err, errcap, 8, "expected orientation type 0..4, found %d", s->type);
    if (s->texformat < SPR_TEX_NORMAL || s->texformat > SPR_TEX_ALPHATEST)
        return asset_fail(err, errcap, 12, "expected texture format 0..3, found %d", s->texformat);
    if (s->numframes < 1 || s->numframes > SPR_MAX_FRAMES)
        return asset_fail(err, errcap, 24 + base, "expected 1..%d frames, found %d", SPR_MAX_FRAMES, s->numframes);
    size_t frames_at = SPR_HEADER_SIZE;
    if (version == 2 && (frames_at = read_palette(s, &r, err, errcap)) == 0) {
        memset(s, 0, sizeof(*s));
        return -1;
    }
    if ((size_t)s->numframes * SPR_MIN_FRAME > size - frames_at) {
        int n = s->numframes;
        memset(s, 0, sizeof(*s));
        return asset_fail(err, errcap, size, "expected at least %zu bytes for %d frames", (size_t)n * SPR_MIN_FRAME, n);
    }
    if (!isfinite(s->radius))
        s->radius = 0;
    if (walk(s, data, size, frames_at, 0, err, errcap) < 0) {
        memset(s, 0, sizeof(*s));
        return -1;
    }
    // sizes counted by a bounded walk over the file: bounded by its size
    s->frames = calloc((size_t)s->numframes, sizeof(*s->frames));
    s->images = calloc((size_t)s->num_images, sizeof(*s->images));
    s->intervals = calloc((size_t)s->num_intervals + 1, sizeof(float));
    s->pixels = malloc(s->pixels_size);
    if (!s->frames || !s->images || !s->intervals || !s->pixels) {
        spr_free(s);
        return asset_fail(err, errcap, 0, "out of memory");
    }
    if (walk(s, data, size, frames_at, 1, err, errcap) < 0) {
        spr_free(s);
        return -1;
    }
    return 0;
}

void spr_remap(spr_t *s, const uint8_t map[256])
{
    for (size_t i = 0; i < s->pixels_size; i++)
        s->pixels[i] = map[s->pixels[i]];
}

const spr_image_t *spr_image(const spr_t *s, int frame, double time)
{
    if (frame < 0 || frame >= s->numframes)
        frame = 0;
    const spr_frame_t *f = &s->frames[frame];
    int i = f->first;
    if (f->count > 1 && f->first_interval >= 0)
        i += mdl_group_index(s->intervals + f->first_interval, f->count, time);
    return &s->images[i];
}
