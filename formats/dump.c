// dump.c -- one line per demo message (see dump.h)
#include "dump.h"

#include <stdio.h>

#include "../engine/json.h"

// text strings are quoted with C-style escapes so a line never breaks and can be parsed back
static void text_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void dump_begin(const dec_opts_t *o, size_t offset, double time, const char *type)
{
    if (!o || !o->dump)
        return;
    if (o->dump_json) {
        fprintf(o->dump, "{\"offset\":%zu,\"time\":", offset);
        json_number(o->dump, time);
        fputs(",\"type\":", o->dump);
        json_string(o->dump, type);
    } else {
        fprintf(o->dump, "%8zu %10.4f %s", offset, time, type);
    }
}

static void key(const dec_opts_t *o, const char *k)
{
    if (o->dump_json) {
        fputc(',', o->dump);
        json_string(o->dump, k);
        fputc(':', o->dump);
    } else {
        fprintf(o->dump, " %s=", k);
    }
}

void dump_int(const dec_opts_t *o, const char *k, long long v)
{
    if (!o || !o->dump)
        return;
    key(o, k);
    fprintf(o->dump, "%lld", v);
}

void dump_hex(const dec_opts_t *o, const char *k, unsigned long long v)
{
    if (!o || !o->dump)
        return;
    key(o, k);
    if (o->dump_json)
        fprintf(o->dump, "%llu", v);
    else
        fprintf(o->dump, "0x%llx", v);
}

void dump_num(const dec_opts_t *o, const char *k, double v)
{
    if (!o || !o->dump)
        return;
    key(o, k);
    if (o->dump_json)
        json_number(o->dump, v);
    else
        fprintf(o->dump, "%.9g", v);
}

void dump_str(const dec_opts_t *o, const char *k, const char *s)
{
    if (!o || !o->dump)
        return;
    key(o, k);
    if (o->dump_json)
        json_string(o->dump, s);
    else
        text_string(o->dump, s);
}

void dump_vec(const dec_opts_t *o, const char *k, const float *v)
{
    if (!o || !o->dump)
        return;
    key(o, k);
    if (o->dump_json)
        fprintf(o->dump, "[%.9g,%.9g,%.9g]", v[0], v[1], v[2]);
    else
        fprintf(o->dump, "%.9g,%.9g,%.9g", v[0], v[1], v[2]);
}

void dump_end(const dec_opts_t *o)
{
    if (!o || !o->dump)
        return;
    fputs(o->dump_json ? "}\n" : "\n", o->dump);
}
