// asset.c -- what every bounded loader shares: the "offset N: expected ..." message, the cursor
#include "asset.h"

#include <stdarg.h>
#include <stdio.h>

int asset_fail(char *err, size_t cap, size_t off, const char *fmt, ...)
{
    if (err && cap) {
        int n = snprintf(err, cap, "offset %zu: ", off);
        if (n < 0)
            n = 0;
        if ((size_t)n < cap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, cap - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

int asset_rd_fail(asset_rd_t *r, size_t at, const char *fmt, ...)
{
    if (r->failed)
        return -1;
    r->failed = 1;
    if (r->err && r->cap) {
        char what[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        snprintf(r->err, r->cap, "%s: offset %zu: expected %s", r->name ? r->name : "file", at, what);
    }
    return -1;
}

int asset_rd_short(asset_rd_t *r, size_t count, size_t each, const char *what)
{
    if (r->failed)
        return -1;
    size_t left = r->at < r->n ? r->n - r->at : 0;
    if (count == 1)
        return asset_rd_fail(r, r->at, "%s (%zu bytes), file has %zu left", what, each, left);
    return asset_rd_fail(r, r->at, "%zu %s (%zu bytes), file has %zu left", count, what, count * each, left);
}
