// r_main.c -- the frame driver (placeholder until the world renderer lands: a flat grey frame)
#include "render.h"

#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

struct renderer_s {
    int width, height;
    uint8_t *buffer;
    uint8_t palette[768];
};

renderer_t *r_create(int width, int height)
{
    renderer_t *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->width = width;
    r->height = height;
    r->buffer = calloc((size_t)width * (size_t)height, 1);
    if (!r->buffer) {
        free(r);
        return NULL;
    }
    for (int i = 0; i < 256; i++)
        r->palette[i * 3] = r->palette[i * 3 + 1] = r->palette[i * 3 + 2] = (uint8_t)i;
    return r;
}

void r_destroy(renderer_t *r)
{
    if (!r)
        return;
    free(r->buffer);
    free(r);
}

int r_load_level(renderer_t *r, vfs_t *fs, const world_t *w, char *err, size_t errcap)
{
    (void)r; (void)fs; (void)w; (void)err; (void)errcap;
    return 0;
}

void r_frame(renderer_t *r, const world_t *w) { (void)r; (void)w; }

void r_render(renderer_t *r, const world_t *w, double t)
{
    (void)w;
    memset(r->buffer, (int)((unsigned)(t * 10) & 0xff), (size_t)r->width * (size_t)r->height);
}

void r_clear_transients(renderer_t *r) { (void)r; }

const uint8_t *r_pixels(const renderer_t *r, int *width, int *height, int *pitch)
{
    *width = r->width;
    *height = r->height;
    *pitch = r->width;
    return r->buffer;
}

const uint8_t *r_palette(const renderer_t *r) { return r->palette; }

void r_frame_rgb(const renderer_t *r, uint8_t *rgb)
{
    size_t n = (size_t)r->width * (size_t)r->height;
    for (size_t i = 0; i < n; i++)
        memcpy(rgb + i * 3, r->palette + r->buffer[i] * 3, 3);
}

int r_write_png(const renderer_t *r, const char *path)
{
    uint8_t *rgb = malloc((size_t)r->width * (size_t)r->height * 3);
    if (!rgb)
        return -1;
    r_frame_rgb(r, rgb);
    int ok = stbi_write_png(path, r->width, r->height, 3, rgb, r->width * 3);
    free(rgb);
    return ok ? 0 : -1;
}
