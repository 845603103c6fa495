// r_sky.c -- the sky: two layers of the level's sky texture, scrolling at different speeds, blended each frame
#include "r_local.h"

#include <string.h>

// The sky texture is 256x128: the left half is the front layer (colour 0 = see
// through), the right half the back layer.
void r_sky_load(renderer_t *r)
{
    r->sky_texture = -1;
    r->sky_frame = -1;
    const bsp_t *b = r->bsp;
    if (!b)
        return;
    for (int i = 0; i < b->num_textures; i++) {
        const bsp_texture_t *t = &b->textures[i];
        if (strncmp(t->name, "sky", 3) || t->width < 2 * R_SKY_SIZE || t->height < R_SKY_SIZE)
            continue;
        const uint8_t *src = b->texels + t->offsets[0];
        for (int y = 0; y < R_SKY_SIZE; y++) {
            memcpy(r->sky_front + y * R_SKY_SIZE, src + (size_t)y * (size_t)t->width, R_SKY_SIZE);
            memcpy(r->sky_back + y * R_SKY_SIZE, src + (size_t)y * (size_t)t->width + R_SKY_SIZE, R_SKY_SIZE);
        }
        r->sky_texture = i;
        return;
    }
    memset(r->sky_front, 0, sizeof r->sky_front);
    memset(r->sky_back, 0, sizeof r->sky_back);
}

// Quake's sky clock: the time modulo 512 s (128 texels x the speeds' 8 / 2 ratio),
// so the layers' positions repeat exactly.
float r_sky_time(const renderer_t *r)
{
    double t = r->time < 0 ? 0 : r->time;
    return (float)(t - (double)(int)(t / 512.0) * 512.0);
}

// The sky of this frame: the back layer as it is, the front layer over it moved
// by (int)(skytime * 8) texels down and right. The whole then scrolls by
// skytime * 8 where it is sampled (d_span.c), so the back layer moves 8 texels a
// second and the front 16, as in Quake.
void r_sky_frame(renderer_t *r)
{
    if (r->sky_frame == r->framecount)
        return;
    r->sky_frame = r->framecount;
    int fo = (int)(r_sky_time(r) * 8.0f) & (R_SKY_SIZE - 1);
    for (int y = 0; y < R_SKY_SIZE; y++) {
        const uint8_t *front = r->sky_front + ((y + fo) & (R_SKY_SIZE - 1)) * R_SKY_SIZE;
        const uint8_t *back = r->sky_back + y * R_SKY_SIZE;
        uint8_t *dst = r->sky + y * R_SKY_SIZE;
        for (int x = 0; x < R_SKY_SIZE; x++) {
            uint8_t c = front[(x + fo) & (R_SKY_SIZE - 1)];
            dst[x] = c ? c : back[x];
        }
    }
}
