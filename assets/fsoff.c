// fsoff.c -- Forsaken's sprite frame layouts (.OFF); see fsoff.h
#include "fsoff.h"

#include "asset.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int s16(asset_rd_t *r)
{
    int v = asset_s16(r->d + r->at);
    r->at += 2;
    return v;
}

static float f32(asset_rd_t *r)
{
    float f = asset_f32(r->d + r->at);
    r->at += 4;
    return f;
}

// A count: an s16 from 0 (or 1) up to max, whose records of `size` bytes all fit.
static int count(asset_rd_t *r, int min, int max, size_t size, const char *what)
{
    if (asset_rd_need(r, 1, 2, what) < 0)
        return -1;
    size_t at = r->at;
    int c = s16(r);
    if (c < min || c > max)
        return asset_rd_fail(r, at, "%s %d..%d, not %d", what, min, max, c);
    if (asset_rd_need(r, (size_t)c, size, what) < 0)
        return -1;
    return c;
}

void fsoff_free(fsoff_t *o)
{
    if (!o)
        return;
    free(o->boxes);
    free(o->frames);
    free(o->parts);
    free(o);
}

fsoff_t *fsoff_load(const uint8_t *d, size_t n, const char *name, char *err, size_t cap)
{
    asset_rd_t r = { d, d ? n : 0, 0, name ? name : "offsets", err, cap, 0 };
    fsoff_t *o = calloc(1, sizeof *o);
    if (!o) {
        asset_rd_fail(&r, 0, "memory for the layout");
        return NULL;
    }
    if ((o->num_pages = count(&r, 1, FSOFF_MAX_PAGES, 1, "texture pages")) < 0)
        goto bad;
    for (int i = 0; i < o->num_pages; i++) {
        size_t at = r.at, len = 0;
        while (at + len < r.n && d[at + len] && len < FSOFF_NAME_LEN)
            len++;
        if (at + len >= r.n || len >= FSOFF_NAME_LEN || len == 0) {
            asset_rd_fail(&r, at, "page name %d: 1..%d characters ending in a NUL", i, FSOFF_NAME_LEN - 1);
            goto bad;
        }
        for (size_t k = 0; k < len; k++)
            if (!isprint(d[at + k]) || d[at + k] == '/' || d[at + k] == '\\') {
                asset_rd_fail(&r, at + k, "a printable page name character without a path separator, not 0x%02x", d[at + k]);
                goto bad;
            }
        memcpy(o->pages[i], d + at, len);
        o->pages[i][len] = 0;
        r.at = at + len + 1;
    }
    if ((o->num_boxes = count(&r, 1, FSOFF_BOX_MASK + 1, 24, "boxes")) < 0)
        goto bad;
    o->boxes = calloc((size_t)o->num_boxes, sizeof *o->boxes);
    if (!o->boxes) {
        asset_rd_fail(&r, r.at, "memory for %d boxes", o->num_boxes);
        goto bad;
    }
    for (int i = 0; i < o->num_boxes; i++) {
        fsoff_box_t *b = &o->boxes[i];
        size_t at = r.at;
        b->page = s16(&r);
        r.at += 2;   // padding
        b->u1 = f32(&r);
        b->v1 = f32(&r);
        b->u2 = f32(&r);
        b->v2 = f32(&r);
        b->width = s16(&r);
        b->height = s16(&r);
        if (b->page < 0 || b->page >= o->num_pages) {
            asset_rd_fail(&r, at, "box %d's page 0..%d, not %d", i, o->num_pages - 1, b->page);
            goto bad;
        }
        const float uv[4] = { b->u1, b->v1, b->u2, b->v2 };
        for (int k = 0; k < 4; k++)
            if (!(uv[k] >= -1 && uv[k] <= 2)) {   // the title's font pages reach a texel past 0 and 1
                asset_rd_fail(&r, at + 4 + 4 * (size_t)k, "box %d's texture coordinate -1..2 (0..1 across the page)", i);
                goto bad;
            }
        if (b->width < 0 || b->height < 0) {
            asset_rd_fail(&r, at + 20, "box %d's size 0 or more, not %d x %d", i, b->width, b->height);
            goto bad;
        }
    }
    if ((o->num_frames = count(&r, 1, 32767, 4, "frames")) < 0)
        goto bad;
    size_t frames_at = r.at;
    o->frames = calloc((size_t)o->num_frames, sizeof *o->frames);
    if (!o->frames) {
        asset_rd_fail(&r, r.at, "memory for %d frames", o->num_frames);
        goto bad;
    }
    for (int i = 0; i < o->num_frames; i++) {
        o->frames[i].first = s16(&r);
        o->frames[i].count = s16(&r);
    }
    if ((o->num_parts = count(&r, 1, 32767, 6, "parts")) < 0)
        goto bad;
    o->parts = calloc((size_t)o->num_parts, sizeof *o->parts);
    if (!o->parts) {
        asset_rd_fail(&r, r.at, "memory for %d parts", o->num_parts);
        goto bad;
    }
    for (int i = 0; i < o->num_parts; i++) {
        fsoff_part_t *p = &o->parts[i];
        size_t at = r.at;
        p->x = s16(&r);
        p->y = s16(&r);
        unsigned box = (unsigned)(uint16_t)s16(&r);
        p->box = (int)(box & FSOFF_BOX_MASK);
        p->xflip = (box & FSOFF_XFLIP) != 0;
        p->yflip = (box & FSOFF_YFLIP) != 0;
        if (p->box >= o->num_boxes) {
            asset_rd_fail(&r, at + 4, "part %d's box 0..%d, not %d", i, o->num_boxes - 1, p->box);
            goto bad;
        }
    }
    // each frame's parts lie in the part list
    for (int i = 0; i < o->num_frames; i++) {
        const fsoff_frame_t *f = &o->frames[i];
        if (f->first < 0 || f->count < 1 || f->first + f->count > o->num_parts) {
            asset_rd_fail(&r, frames_at + 4 * (size_t)i, "frame %d's parts within 0..%d, not %d + %d", i, o->num_parts, f->first,
                 f->count);
            goto bad;
        }
    }
    o->end = r.at;
    return o;
bad:
    fsoff_free(o);
    return NULL;
}

const char *fsoff_page_file(const char *page, char *out, size_t cap)
{
    if (!out || !cap)
        return out;
    size_t k = 0;
    for (; page && page[k] && page[k] != '.' && k + 5 < cap; k++)
        out[k] = (char)tolower((unsigned char)page[k]);
    snprintf(out + k, cap - k, ".bmp");
    return out;
}
