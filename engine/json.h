// json.h -- tiny JSON output helpers (strings escaped, numbers finite)
#ifndef JSON_H
#define JSON_H

#include <stdio.h>

void json_string(FILE *f, const char *s);
void json_number(FILE *f, double v);   // "null" for NaN/inf; shortest exact-enough form

#endif
