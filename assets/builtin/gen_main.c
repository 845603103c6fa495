// gen_main.c -- mkbuiltin OUTDIR: write the built-in game folder (see gen.h)
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"

static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        int rc = mkdir(path, 0777);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return 0;
}

int gen_write(const char *outdir, const char *rel, const void *data, size_t size)
{
    char path[1024];
    if (snprintf(path, sizeof path, "%s/id1/%s", outdir, rel) >= (int)sizeof path) {
        fprintf(stderr, "mkbuiltin: path too long: %s/id1/%s\n", outdir, rel);
        return -1;
    }
    if (make_dirs(path) < 0) {
        fprintf(stderr, "mkbuiltin: cannot make the folders of %s: %s\n", path, strerror(errno));
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "mkbuiltin: cannot write %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkbuiltin OUTDIR\n");
        return 2;
    }
    const char *out = argv[1];
    static uint8_t palette[768], colormap[64 * 256];
    gen_palette(palette);
    gen_colormap(palette, colormap);
    if (gen_pics(out, palette, colormap) < 0 || gen_level(out, palette) < 0 || gen_models(out, palette) < 0 ||
        gen_sounds(out) < 0 || gen_demo(out) < 0)
        return 1;
    return 0;
}
