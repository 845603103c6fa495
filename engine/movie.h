// movie.h -- movie output for export: YUV4MPEG2 frames and a 16-bit stereo WAV
//
//     mov_y4m_header(stdout, w, h, fps);       // "YUV4MPEG2 W.. H.. F30:1 Ip A1:1 C420jpeg"
//     mov_y4m_frame(stdout, rgb, w, h, work);  // work: mov_y4m_work_size(w, h) bytes
//     mov_wav_header(f, rate, frames);         // the size is known before the samples
//
// Colour: BT.601, limited range (Y 16..235, Cb/Cr 16..240), chroma averaged over
// each 2x2 block (centred siting, hence C420jpeg); odd sizes round chroma up.
// Integer arithmetic only, so the same frame gives the same bytes everywhere.
#ifndef MOVIE_H
#define MOVIE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// BT.601 limited range in 8.8 fixed point (the usual integer form of the matrix), shared by
// movie.c's RGB path and encode.c's palette path so both give the same bytes.
static inline uint8_t mov_y_of(int r, int g, int b) { return (uint8_t)(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16); }
static inline uint8_t mov_u_of(int r, int g, int b) { return (uint8_t)(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128); }
static inline uint8_t mov_v_of(int r, int g, int b) { return (uint8_t)(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128); }

// fps as a ratio num/den (29.97 -> 30000/1001, 30 -> 30/1).
void mov_fps_ratio(double fps, long *num, long *den);
int mov_y4m_header(FILE *f, int w, int h, double fps);
size_t mov_y4m_work_size(int w, int h);
void mov_rgb_to_yuv420(const uint8_t *rgb, int w, int h, uint8_t *yuv);
int mov_y4m_frame(FILE *f, const uint8_t *rgb, int w, int h, uint8_t *work);
// 44-byte RIFF header of a 16-bit stereo PCM file of `frames` sample frames.
int mov_wav_header(FILE *f, int rate, uint32_t frames);

#endif
