// testutil.c -- shared helpers for the cmocka tests
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

const char *tu_data_dir(void)
{
    static char dir[4096];
    const char *env = getenv("DEMOPLAY_DATA");
    snprintf(dir, sizeof(dir), "%s", env && *env ? env : "../shared/data");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return dir;
}

const char *tu_data(const char *rel)
{
    static char bufs[8][4096];
    static int next;
    char *b = bufs[next++ & 7];
    const char *d = tu_data_dir();
    snprintf(b, 4096, "%s/%s", d ? d : "../shared/data", rel);
    return b;
}

int tu_ci(void)
{
    const char *ci = getenv("CI");
    return ci && strcmp(ci, "true") == 0;
}

void tu_skip_banner(const char *test)
{
    fprintf(stderr, "\n*** SKIPPED %s: test data not found (set DEMOPLAY_DATA or provide ../shared/data) ***\n\n",
            test);
}

const char *tu_bin(void)
{
    const char *b = getenv("DEMOPLAY_BIN");
    return b && *b ? b : "./demoplay";
}

char *tu_run(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 65536, len = 0;
    char *out = malloc(cap);
    size_t n;
    while (out && (n = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 4096) {
            cap *= 2;
            char *o = realloc(out, cap);
            if (!o) {
                free(out);
                out = NULL;
                break;
            }
            out = o;
        }
    }
    int st = pclose(p);
    if (status)
        *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    if (out)
        out[len] = 0;
    return out;
}

uint8_t *tu_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = 0;
        if (size)
            *size = (size_t)n;
    }
    return b;
}

int tu_write(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, size, f);
    fclose(f);
    return w == size ? 0 : -1;
}

static const char *find_key(const char *json, const char *key)
{
    char pat[256];
    snprintf(pat, sizeof(pat), "\"%s\":", key);
    const char *p = strstr(json, pat);
    return p ? p + strlen(pat) : NULL;
}

int tu_json_int(const char *json, const char *key, long long *out)
{
    const char *p = find_key(json, key);
    if (!p)
        return -1;
    char *end;
    *out = strtoll(p, &end, 10);
    return end == p ? -1 : 0;
}

int tu_json_num(const char *json, const char *key, double *out)
{
    const char *p = find_key(json, key);
    if (!p)
        return -1;
    char *end;
    *out = strtod(p, &end);
    return end == p ? -1 : 0;
}

int tu_json_str(const char *json, const char *key, char *out, size_t cap)
{
    const char *p = find_key(json, key);
    if (!p || *p != '"')
        return -1;
    p++;
    size_t n = 0;
    while (*p && *p != '"') {
        if (*p == '\\' && p[1])
            p++;
        if (n + 1 < cap)
            out[n++] = *p;
        p++;
    }
    out[n] = 0;
    return *p == '"' ? 0 : -1;
}
