// asset.c -- what every bounded loader shares: the "offset N: expected ..." message
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
