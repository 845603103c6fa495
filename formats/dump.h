// dump.h -- one line per demo message, for people (key=value) or machines (JSON lines)
//
//     dump_begin(o, offset, time, "serverinfo");
//     dump_int(o, "protocol", 15); dump_str(o, "level", name); ...
//     dump_end(o);
// Does nothing when o->dump is NULL, so decoders call it unconditionally.
#ifndef DUMP_H
#define DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "decoder.h"

void dump_begin(const dec_opts_t *o, size_t offset, double time, const char *type);
void dump_int(const dec_opts_t *o, const char *key, long long v);
void dump_hex(const dec_opts_t *o, const char *key, unsigned long long v);
void dump_num(const dec_opts_t *o, const char *key, double v);   // %.9g: floats round-trip
void dump_str(const dec_opts_t *o, const char *key, const char *s);
void dump_vec(const dec_opts_t *o, const char *key, const float *v);
void dump_end(const dec_opts_t *o);

#endif
