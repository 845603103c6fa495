// testutil.c -- shared helpers for the cmocka tests
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>
#include <stb_image_write.h>

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

const char *tu_tmpdir(const char *env)
{
    const char *d = env ? getenv(env) : NULL;
    if (d && *d)
        return d;
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/demoplay_test_%d", (int)getpid());
        mkdir(dir, 0700);
    }
    return dir;
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

void tu_put_le(uint8_t *p, uint32_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void tu_write_tone(const char *path, double secs, double freq)
{
    int frames = (int)(22050 * secs);
    size_t n = 44 + (size_t)frames * 2;
    uint8_t *b = calloc(1, n);
    assert_non_null(b);
    memcpy(b, "RIFF", 4);
    tu_put_le(b + 4, (uint32_t)(n - 8), 4);
    memcpy(b + 8, "WAVEfmt ", 8);
    tu_put_le(b + 16, 16, 4);
    tu_put_le(b + 20, 1, 2);          // PCM
    tu_put_le(b + 22, 1, 2);          // mono
    tu_put_le(b + 24, 22050, 4);
    tu_put_le(b + 28, 22050 * 2, 4);
    tu_put_le(b + 32, 2, 2);
    tu_put_le(b + 34, 16, 2);
    memcpy(b + 36, "data", 4);
    tu_put_le(b + 40, (uint32_t)frames * 2, 4);
    for (int i = 0; i < frames; i++)
        tu_put_le(b + 44 + 2 * i, (uint32_t)(int16_t)(12000 * sin(2 * M_PI * freq * i / 22050.0)), 2);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(tu_write(path, b, n), 0);
    free(b);
}

double tu_energy(const int16_t *pcm, long frames, int rate, double t0, double t1)
{
    long a = (long)(t0 * rate), b = (long)(t1 * rate);
    double e = 0;
    for (long i = a < 0 ? 0 : a; i < b && i < frames; i++)
        e += (double)pcm[2 * i] * pcm[2 * i] + (double)pcm[2 * i + 1] * pcm[2 * i + 1];
    return e;
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

int tu_write_png_rgb(const char *path, const uint8_t *rgb, int w, int h)
{
    return stbi_write_png(path, w, h, 3, rgb, w * 3) ? 0 : -1;
}

double tu_png_diff(const char *a, const char *b)
{
    int w1, h1, n1, w2, h2, n2;
    uint8_t *p1 = stbi_load(a, &w1, &h1, &n1, 3);
    uint8_t *p2 = stbi_load(b, &w2, &h2, &n2, 3);
    double frac = 1.0;
    if (p1 && p2 && w1 == w2 && h1 == h2) {
        long diff = 0;
        for (long i = 0; i < (long)w1 * h1; i++)
            diff += memcmp(p1 + i * 3, p2 + i * 3, 3) != 0;
        frac = (double)diff / ((double)w1 * h1);
    }
    stbi_image_free(p1);
    stbi_image_free(p2);
    return frac;
}

void tu_golden(const char *label, const char *out, const char *gold, double tolerance)
{
    const char *upd = getenv("DEMOPLAY_UPDATE_GOLDEN");
    size_t gsize = 0;
    uint8_t *g = tu_read(gold, &gsize);
    if (!g || (upd && upd[0] == '1')) {
        if (tu_ci() && !g)
            fail_msg("golden image %s is missing", gold);
        size_t osize = 0;
        uint8_t *o = tu_read(out, &osize);
        assert_non_null(o);
        assert_int_equal(tu_write(gold, o, osize), 0);
        printf("[ GOLDEN   ] wrote %s\n", gold);
        free(o);
        free(g);
        return;
    }
    free(g);
    double frac = tu_png_diff(out, gold);
    printf("[ GOLDEN   ] %s: %.2f%% of pixels differ (tolerance %.2f%%)\n", label, frac * 100, tolerance * 100);
    if (frac > tolerance)
        fail_msg("%s differs from %s in %.2f%% of its pixels", out, gold, frac * 100);
}

const uint8_t *tu_palette(void)
{
    static uint8_t pal[768];
    for (int i = 0; i < 768; i++)
        pal[i] = (uint8_t)(i / 3);
    return pal;
}

void tu_scene_init(tu_scene_t *s, int w, int h, const uint8_t *palette, const uint8_t *colormap, int fullbright_start)
{
    memset(s, 0, sizeof(*s));
    memcpy(s->palette, palette, 768);
    memcpy(s->colormap, colormap, 64 * 256);
    memcpy(s->colormap + 64 * 256, colormap + 32 * 256, 256);
    s->w = w;
    s->h = h;
    s->buf = calloc((size_t)w * h, 1);
    s->z = calloc((size_t)w * h, sizeof(float));
    assert_non_null(s->buf);
    assert_non_null(s->z);
    r_view_t *v = &s->v;
    v->buffer = s->buf;
    v->width = w;
    v->height = h;
    v->rowbytes = w;
    v->zbuffer = s->z;
    v->xcenter = w / 2.0f;
    v->ycenter = h / 2.0f;
    v->xscale = w / 2.0f;   // 90 degrees across
    v->yscale = v->xscale * (4.0f / 3.0f) * ((float)h / w);
    v->fov_x = 90;
    v->colormap = s->colormap;
    v->palette = s->palette;
    v->fullbright_start = fullbright_start;
    r_angle_vectors(v->viewangles, v->vpn, v->vright, v->vup);
}

int tu_scene_init_quake(tu_scene_t *s, int w, int h)
{
    size_t np = 0, nc = 0;
    uint8_t *pal = tu_read(tu_data("quake/id1/gfx/palette.lmp"), &np);
    uint8_t *cm = tu_read(tu_data("quake/id1/gfx/colormap.lmp"), &nc);
    int rc = -1;
    if (pal && np >= 768 && cm && nc >= 64 * 256) {
        tu_scene_init(s, w, h, pal, cm, 224);
        rc = 0;
    }
    free(pal);
    free(cm);
    return rc;
}

void tu_scene_camera(tu_scene_t *s, float x, float y, float z, float pitch, float yaw)
{
    r_view_t *v = &s->v;
    v->vieworg[0] = x;
    v->vieworg[1] = y;
    v->vieworg[2] = z;
    v->viewangles[0] = pitch;
    v->viewangles[1] = yaw;
    v->viewangles[2] = 0;
    r_angle_vectors(v->viewangles, v->vpn, v->vright, v->vup);
}

void tu_scene_clear(tu_scene_t *s)
{
    memset(s->buf, 0, (size_t)s->w * s->h);
    memset(s->z, 0, (size_t)s->w * s->h * sizeof(float));
}

void tu_scene_free(tu_scene_t *s)
{
    free(s->buf);
    free(s->z);
    s->buf = NULL;
    s->z = NULL;
}

void tu_scene_write(const tu_scene_t *s, const char *path)
{
    uint8_t *rgb = malloc((size_t)s->w * s->h * 3);
    assert_non_null(rgb);
    for (int i = 0; i < s->w * s->h; i++)
        memcpy(rgb + i * 3, s->palette + s->buf[i] * 3, 3);
    assert_true(stbi_write_png(path, s->w, s->h, 3, rgb, s->w * 3) != 0);
    free(rgb);
}

void tu_scene_png_env(const tu_scene_t *s, const char *name)
{
    const char *dir = getenv("DEMOPLAY_MODELS_PNG");
    if (!dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tu_scene_write(s, path);
}
