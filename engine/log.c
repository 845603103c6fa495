// log.c -- messages to stderr
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static int log_level = 1;
// a worker thread that repeats another's work (export's render threads) says nothing but errors
static _Thread_local int muted;

void log_set_level(int level) { log_level = level; }
int log_mute_thread(int on)
{
    int was = muted;
    muted = on;
    return was;
}

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
    if (log_level < 1 || muted)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog("warning: ", fmt, ap);
    va_end(ap);
}

void log_info(const char *fmt, ...)
{
    if (log_level < 2 || muted)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog("", fmt, ap);
    va_end(ap);
}
