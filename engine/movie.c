// movie.c -- YUV4MPEG2 and WAV writers for export (see movie.h)
#include "movie.h"

#include <math.h>
#include <string.h>

static long gcd_long(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void mov_fps_ratio(double fps, long *num, long *den)
{
    if (!(fps > 0) || fps > 1e6) {
        *num = 30;
        *den = 1;
        return;
    }
    long n = lround(fps);
    if (fabs(fps - (double)n) < 1e-6 && n > 0) {
        *num = n;
        *den = 1;
        return;
    }
    // NTSC rates: 29.97 means 30000/1001, 23.976 means 24000/1001
    n = lround(fps * 1.001);
    if (n > 0 && fabs(fps - (double)n * 1000.0 / 1001.0) < 1e-4) {
        *num = n * 1000;
        *den = 1001;
        return;
    }
    n = lround(fps * 1000.0);
    long g = gcd_long(n, 1000);
    *num = n / g;
    *den = 1000 / g;
}

int mov_y4m_header(FILE *f, int w, int h, double fps)
{
    long num, den;
    mov_fps_ratio(fps, &num, &den);
    return fprintf(f, "YUV4MPEG2 W%d H%d F%ld:%ld Ip A1:1 C420jpeg\n", w, h, num, den) < 0 ? -1 : 0;
}

size_t mov_y4m_work_size(int w, int h)
{
    size_t cw = (size_t)(w + 1) / 2, ch = (size_t)(h + 1) / 2;
    return (size_t)w * (size_t)h + 2 * cw * ch;
}


void mov_rgb_to_yuv420(const uint8_t *rgb, int w, int h, uint8_t *yuv)
{
    int cw = (w + 1) / 2, ch = (h + 1) / 2;
    uint8_t *yp = yuv, *up = yuv + (size_t)w * h, *vp = up + (size_t)cw * ch;
    for (int y = 0; y < h; y++) {
        const uint8_t *s = rgb + (size_t)y * w * 3;
        for (int x = 0; x < w; x++, s += 3)
            yp[(size_t)y * w + x] = mov_y_of(s[0], s[1], s[2]);
    }
    for (int cy = 0; cy < ch; cy++) {
        for (int cx = 0; cx < cw; cx++) {
            int r = 0, g = 0, b = 0, n = 0;
            for (int dy = 0; dy < 2; dy++) {
                int yy = cy * 2 + dy;
                if (yy >= h)
                    continue;
                for (int dx = 0; dx < 2; dx++) {
                    int xx = cx * 2 + dx;
                    if (xx >= w)
                        continue;
                    const uint8_t *s = rgb + ((size_t)yy * w + xx) * 3;
                    r += s[0];
                    g += s[1];
                    b += s[2];
                    n++;
                }
            }
            r = (r + n / 2) / n;
            g = (g + n / 2) / n;
            b = (b + n / 2) / n;
            up[(size_t)cy * cw + cx] = mov_u_of(r, g, b);
            vp[(size_t)cy * cw + cx] = mov_v_of(r, g, b);
        }
    }
}

int mov_y4m_frame(FILE *f, const uint8_t *rgb, int w, int h, uint8_t *work)
{
    mov_rgb_to_yuv420(rgb, w, h, work);
    size_t n = mov_y4m_work_size(w, h);
    if (fputs("FRAME\n", f) < 0 || fwrite(work, 1, n, f) != n)
        return -1;
    return 0;
}

static void put_le(uint8_t *p, uint32_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int mov_wav_header(FILE *f, int rate, uint32_t frames)
{
    uint8_t h[44];
    uint32_t data = frames * 4u;
    memcpy(h, "RIFF", 4);
    put_le(h + 4, 36 + data, 4);
    memcpy(h + 8, "WAVEfmt ", 8);
    put_le(h + 16, 16, 4);             // fmt chunk size
    put_le(h + 20, 1, 2);              // PCM
    put_le(h + 22, 2, 2);              // stereo
    put_le(h + 24, (uint32_t)rate, 4);
    put_le(h + 28, (uint32_t)rate * 4, 4);
    put_le(h + 32, 4, 2);              // block align
    put_le(h + 34, 16, 2);             // bits
    memcpy(h + 36, "data", 4);
    put_le(h + 40, data, 4);
    return fwrite(h, 1, sizeof(h), f) == sizeof(h) ? 0 : -1;
}
