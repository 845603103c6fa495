// bmp8.h -- 8-bit Windows BMPs, uncompressed or RLE8 (Forsaken's Data/Pictures: PANEL.BMP, FONT.BMP, FONT512.BMP)
//
//     bmp8_t b;
//     if (bmp8_load(&b, bytes, size, 1024, err, sizeof err) == 0) { ... b.pixels[y * b.width + x] ...; bmp8_free(&b); }
//
// Rows come out top first whatever the file's order. RLE8 (BI_RLE8, compression 1) is
// the run-length form the game's pictures are stored in: runs, escapes 0 (end of line),
// 1 (end of picture), 2 (delta) and absolute runs padded to 16 bits. Every run and delta
// is checked against the picture and the file; pixels a file never writes are 0.
#ifndef BMP8_H
#define BMP8_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int width, height;
    uint8_t *pixels;          // width * height palette indices, malloc'd
    uint8_t palette[768];     // RGB; colours the file does not list are black
    int colors;               // how many the file lists (1..256)
} bmp8_t;

// Returns 0, or -1 with "offset N: expected ..." in err. Sides must be 1..max_side.
int bmp8_load(bmp8_t *b, const uint8_t *data, size_t size, int max_side, char *err, size_t errcap);
void bmp8_free(bmp8_t *b);

#endif
