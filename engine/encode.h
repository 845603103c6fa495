// encode.h -- export's frame encoders: indexed PNG files (libpng) or one YUV4MPEG2 stream,
// on worker threads while the next frames render
//
//     enc_t *e = enc_create(ENC_PNG, w, h, threads, NULL, "out", err, sizeof err);
//     for each frame k: render, then enc_push(e, k, pixels, pitch, palette);   // copies them
//     enc_finish(e);                    // every frame written (or the first error)
//     enc_destroy(e);
//
// Frames are 8-bit: a PNG is the palette + one byte a pixel (colour type 3), deflated
// at zlib's fastest level without row filters; Y4M (BT.601 limited range, 4:2:0,
// chroma of each 2x2 block from its averaged colour, exactly movie.c's) is made from
// the palette through a 256-entry table, never through an RGB frame. The bytes do not
// depend on the number of threads: Y4M frames are written in order.
//
// threads = 0 encodes on the calling thread. Nothing is allocated after enc_create.
#ifndef ENCODE_H
#define ENCODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { ENC_PNG, ENC_Y4M } enc_format_t;
typedef struct enc_s enc_t;

// PNG: files dir/frame_%06lld.png. Y4M: frames (header written by the caller) to `out`.
// NULL with a message when out of memory or when a thread cannot start.
enc_t *enc_create(enc_format_t fmt, int w, int h, int threads, FILE *out, const char *dir, char *err, size_t cap);
// Queue frame k (k counts up from 0 in order): copies w x h pixels (rows `pitch` apart)
// and the 768-byte palette; waits while every slot is busy. 0, or -1 after a failed write.
int enc_push(enc_t *e, long long k, const uint8_t *pix, int pitch, const uint8_t *pal);
// Wait until every queued frame is written. 0, or -1 (enc_error says what failed).
int enc_finish(enc_t *e);
const char *enc_error(const enc_t *e);
void enc_destroy(enc_t *e);

// One indexed PNG (used by enc and by tests). 0, or -1 with a message.
int enc_write_png(const char *path, const uint8_t *pix, int w, int h, int pitch, const uint8_t *pal, char *err,
                  size_t cap);
// The Y4M frame of 8-bit pixels + palette into yuv (mov_y4m_work_size bytes).
void enc_pal_to_yuv420(const uint8_t *pix, int w, int h, int pitch, const uint8_t *pal, uint8_t *yuv);

#endif
