// json.c -- tiny JSON output helpers
#include "json.h"

#include <math.h>

void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            // Quake's high-bit "coloured" characters and control codes are escaped,
            // so the output is always valid UTF-8
            if (*p < 0x20 || *p >= 0x7f)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void json_number(FILE *f, double v)
{
    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    char buf[64];
    // %.9g round-trips every float, which is what demos store
    snprintf(buf, sizeof(buf), "%.9g", v);
    fputs(buf, f);
}
