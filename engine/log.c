// log.c -- messages to stderr
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static int log_level = 1;

void log_set_level(int level) { log_level = level; }

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
    fputs("demoplay: ", stderr);
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog("", fmt, ap);
    va_end(ap);
}

void log_warn(const char *fmt, ...)
{
    if (log_level < 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog("warning: ", fmt, ap);
    va_end(ap);
}

void log_info(const char *fmt, ...)
{
    if (log_level < 2)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog("", fmt, ap);
    va_end(ap);
}
