// pcx.h -- 8-bit PCX pictures (Quake II: pics/*.pcx, pics/colormap.pcx, model skins, sprite frames)
//
//     pcx_t p;
//     char err[128];
//     if (pcx_load(&p, bytes, size, err, sizeof err) < 0) puts(err);   // "offset N: expected ..."
//     ... p.width x p.height indices in p.pixels, p.palette (768 bytes, from the file's end) ...
//     pcx_free(&p);
//
// Only the form the games wrote is accepted: version 5, RLE, 8 bits, one plane,
// and the 256-colour palette after the 0x0C marker at the end of the file.
#ifndef PCX_H
#define PCX_H

#include <stddef.h>
#include <stdint.h>

#define PCX_MAX_SIDE 4096

typedef struct {
    int width, height;
    uint8_t *pixels;          // width*height (malloc'd)
    uint8_t palette[768];
} pcx_t;

// Returns 0, or -1 with "offset N: expected ..." in err (*p zeroed: nothing to free).
int pcx_load(pcx_t *p, const uint8_t *data, size_t size, char *err, size_t errcap);
void pcx_free(pcx_t *p);

#endif
