// encode.c -- export's frame encoders on worker threads (encode.h)
#include "encode.h"

#include <errno.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "movie.h"

enum { S_FREE, S_FILLING, S_QUEUED, S_BUSY, S_READY };

typedef struct {
    uint8_t *pix;          // w x h
    uint8_t pal[768];
    uint8_t *yuv;          // Y4M: the converted frame
    long long k;
    int state;
} slot_t;

struct enc_s {
    enc_format_t fmt;
    int w, h, nthreads, nslots;
    FILE *out;
    char dir[4096];
    slot_t *slots;
    pthread_t *threads;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    long long next_write;  // Y4M: the frame the stream waits for
    int stop, failed;
    char err[600];
};

// ---- PNG ---------------------------------------------------------------------------------------

typedef struct {
    char *err;
    size_t cap;
} png_err_t;

static void on_png_error(png_structp png, png_const_charp msg)
{
    png_err_t *pe = png_get_error_ptr(png);
    snprintf(pe->err, pe->cap, "%s", msg);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

int enc_write_png(const char *path, const uint8_t *pix, int w, int h, int pitch, const uint8_t *pal, char *err,
                  size_t cap)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, cap, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    char msg[256] = "";
    png_err_t pe = { msg, sizeof msg };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &pe, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        snprintf(err, cap, "'%s': out of memory", path);
        return -1;
    }
    // the variables below keep their values across the longjmp: nothing changes them after it
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        snprintf(err, cap, "cannot write '%s': %s", path, msg);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_color colors[256];
    for (int i = 0; i < 256; i++) {
        colors[i].red = pal[i * 3];
        colors[i].green = pal[i * 3 + 1];
        colors[i].blue = pal[i * 3 + 2];
    }
    png_set_PLTE(png, info, colors, 256);
    // palette images gain little from row filters; the fastest deflate is a third of
    // the RGB file's time and about its size
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, Z_BEST_SPEED);
    png_write_info(png, info);
    for (int y = 0; y < h; y++)
        png_write_row(png, pix + (size_t)y * (size_t)pitch);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0) {
        snprintf(err, cap, "cannot write '%s'", path);
        return -1;
    }
    return 0;
}

// ---- Y4M ---------------------------------------------------------------------------------------


// One chroma sample: the mean of the block's colours (those inside the picture), rounded.
static void chroma_edge(const uint8_t *pix, int w, int h, int pitch, const uint8_t *pal, int cx, int cy, uint8_t *u,
                        uint8_t *v)
{
    int r = 0, g = 0, b = 0, n = 0;
    for (int yy = cy * 2; yy < cy * 2 + 2 && yy < h; yy++)
        for (int xx = cx * 2; xx < cx * 2 + 2 && xx < w; xx++) {
            const uint8_t *c = pal + pix[(size_t)yy * pitch + xx] * 3;
            r += c[0];
            g += c[1];
            b += c[2];
            n++;
        }
    r = (r + n / 2) / n;
    g = (g + n / 2) / n;
    b = (b + n / 2) / n;
    *u = mov_u_of(r, g, b);
    *v = mov_v_of(r, g, b);
}

void enc_pal_to_yuv420(const uint8_t *pix, int w, int h, int pitch, const uint8_t *pal, uint8_t *yuv)
{
    // luma a byte lookup; chroma from the four colours' sums, packed 10 bits a channel so one
    // add sums all three (4 x 255 fits), rounded as the RGB path rounds ((sum + 2) / 4)
    uint8_t ylut[256];
    uint32_t packed[256];
    for (int i = 0; i < 256; i++) {
        ylut[i] = mov_y_of(pal[i * 3], pal[i * 3 + 1], pal[i * 3 + 2]);
        packed[i] = (uint32_t)pal[i * 3] | (uint32_t)pal[i * 3 + 1] << 10 | (uint32_t)pal[i * 3 + 2] << 20;
    }
    int cw = (w + 1) / 2, ch = (h + 1) / 2;
    uint8_t *yp = yuv, *up = yuv + (size_t)w * h, *vp = up + (size_t)cw * ch;
    // two rows at a time: their luma and the chroma between them, while the rows are in cache
    for (int cy = 0; cy < h / 2; cy++) {
        const uint8_t *s0 = pix + (size_t)cy * 2 * pitch, *s1 = s0 + pitch;
        uint8_t *y0 = yp + (size_t)cy * 2 * w, *y1 = y0 + w;
        uint8_t *u = up + (size_t)cy * cw, *v = vp + (size_t)cy * cw;
        for (int cx = 0; cx < w / 2; cx++) {
            int a = s0[2 * cx], b = s0[2 * cx + 1], c = s1[2 * cx], d = s1[2 * cx + 1];
            y0[2 * cx] = ylut[a];
            y0[2 * cx + 1] = ylut[b];
            y1[2 * cx] = ylut[c];
            y1[2 * cx + 1] = ylut[d];
            uint32_t t = packed[a] + packed[b] + packed[c] + packed[d];
            int r = (int)((t & 1023) + 2) >> 2, g = (int)((t >> 10 & 1023) + 2) >> 2, bl = (int)((t >> 20) + 2) >> 2;
            u[cx] = mov_u_of(r, g, bl);
            v[cx] = mov_v_of(r, g, bl);
        }
        if (w & 1) {
            y0[w - 1] = ylut[s0[w - 1]];
            y1[w - 1] = ylut[s1[w - 1]];
            chroma_edge(pix, w, h, pitch, pal, cw - 1, cy, &u[cw - 1], &v[cw - 1]);
        }
    }
    if (h & 1)
        for (int x = 0; x < w; x++)
            yp[(size_t)(h - 1) * w + x] = ylut[pix[(size_t)(h - 1) * pitch + x]];
    if (h & 1)
        for (int cx = 0; cx < cw; cx++)
            chroma_edge(pix, w, h, pitch, pal, cx, ch - 1, &up[(size_t)(ch - 1) * cw + cx], &vp[(size_t)(ch - 1) * cw + cx]);
}

static int write_y4m(enc_t *e, const uint8_t *yuv)
{
    size_t n = mov_y4m_work_size(e->w, e->h);
    if (fputs("FRAME\n", e->out) < 0 || fwrite(yuv, 1, n, e->out) != n) {
        snprintf(e->err, sizeof e->err, "cannot write the Y4M stream");
        return -1;
    }
    return 0;
}

// ---- the pool ----------------------------------------------------------------------------------

// Encode one slot outside the lock: a PNG file, or the slot's YUV frame.
static int encode(enc_t *e, slot_t *s, char *err, size_t cap)
{
    if (e->fmt == ENC_Y4M) {
        enc_pal_to_yuv420(s->pix, e->w, e->h, e->w, s->pal, s->yuv);
        return 0;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/frame_%06lld.png", e->dir, s->k);
    return enc_write_png(path, s->pix, e->w, e->h, e->w, s->pal, err, cap);
}

// With the lock held: the converted Y4M frames that are next in the stream, in order.
static void flush_ready(enc_t *e)
{
    for (;;) {
        slot_t *next = NULL;
        for (int i = 0; i < e->nslots && !next; i++)
            if (e->slots[i].state == S_READY && e->slots[i].k == e->next_write)
                next = &e->slots[i];
        if (!next)
            return;
        if (!e->failed && write_y4m(e, next->yuv) < 0)
            e->failed = 1;
        next->state = S_FREE;
        e->next_write++;
    }
}

static void *worker(void *arg)
{
    enc_t *e = arg;
    char err[600];
    pthread_mutex_lock(&e->mu);
    for (;;) {
        slot_t *s = NULL;
        for (int i = 0; i < e->nslots; i++)   // the oldest queued frame first
            if (e->slots[i].state == S_QUEUED && (!s || e->slots[i].k < s->k))
                s = &e->slots[i];
        if (!s) {
            if (e->stop)
                break;
            pthread_cond_wait(&e->work, &e->mu);
            continue;
        }
        s->state = S_BUSY;
        pthread_mutex_unlock(&e->mu);
        int rc = encode(e, s, err, sizeof err);
        pthread_mutex_lock(&e->mu);
        if (rc < 0 && !e->failed) {
            e->failed = 1;
            snprintf(e->err, sizeof e->err, "%s", err);
        }
        if (e->fmt == ENC_Y4M) {
            s->state = S_READY;
            flush_ready(e);
        } else {
            s->state = S_FREE;
        }
        pthread_cond_broadcast(&e->done);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

enc_t *enc_create(enc_format_t fmt, int w, int h, int threads, FILE *out, const char *dir, char *err, size_t cap)
{
    enc_t *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    e->fmt = fmt;
    e->w = w;
    e->h = h;
    e->out = out;
    snprintf(e->dir, sizeof e->dir, "%s", dir ? dir : ".");
    e->nthreads = threads < 0 ? 0 : threads > 64 ? 64 : threads;
    // two frames a thread: one encoding, one waiting (and one for the caller's own use)
    e->nslots = e->nthreads ? 2 * e->nthreads : 1;
    e->slots = calloc((size_t)e->nslots, sizeof(slot_t));
    e->threads = e->nthreads ? calloc((size_t)e->nthreads, sizeof(pthread_t)) : NULL;
    int ok = e->slots && (!e->nthreads || e->threads);
    for (int i = 0; ok && i < e->nslots; i++) {
        e->slots[i].pix = malloc((size_t)w * (size_t)h);
        e->slots[i].yuv = fmt == ENC_Y4M ? malloc(mov_y4m_work_size(w, h)) : NULL;
        ok = e->slots[i].pix && (fmt != ENC_Y4M || e->slots[i].yuv);
    }
    if (!ok) {
        snprintf(err, cap, "out of memory for %d frame buffers of %dx%d", e->nslots, w, h);
        enc_destroy(e);
        return NULL;
    }
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->work, NULL);
    pthread_cond_init(&e->done, NULL);
    e->started = -1;   // the mutex and conditions exist
    for (int i = 0; i < e->nthreads; i++) {
        if (pthread_create(&e->threads[i], NULL, worker, e) != 0) {
            snprintf(err, cap, "cannot start encoder thread %d of %d", i + 1, e->nthreads);
            e->nthreads = i;
            enc_destroy(e);
            return NULL;
        }
    }
    return e;
}

int enc_push(enc_t *e, long long k, const uint8_t *pix, int pitch, const uint8_t *pal)
{
    if (!e->nthreads) {   // on this thread
        slot_t *s = &e->slots[0];
        s->k = k;
        for (int y = 0; y < e->h; y++)
            memcpy(s->pix + (size_t)y * e->w, pix + (size_t)y * pitch, (size_t)e->w);
        memcpy(s->pal, pal, 768);
        if (e->failed)
            return -1;
        if (encode(e, s, e->err, sizeof e->err) < 0 || (e->fmt == ENC_Y4M && write_y4m(e, s->yuv) < 0)) {
            e->failed = 1;
            return -1;
        }
        return 0;
    }
    pthread_mutex_lock(&e->mu);
    slot_t *s = NULL;
    while (!e->failed) {
        for (int i = 0; i < e->nslots && !s; i++)
            if (e->slots[i].state == S_FREE)
                s = &e->slots[i];
        if (s)
            break;
        pthread_cond_wait(&e->done, &e->mu);
    }
    if (e->failed) {
        pthread_mutex_unlock(&e->mu);
        return -1;
    }
    s->state = S_FILLING;
    pthread_mutex_unlock(&e->mu);
    s->k = k;
    for (int y = 0; y < e->h; y++)
        memcpy(s->pix + (size_t)y * e->w, pix + (size_t)y * pitch, (size_t)e->w);
    memcpy(s->pal, pal, 768);
    pthread_mutex_lock(&e->mu);
    s->state = S_QUEUED;
    pthread_cond_signal(&e->work);
    pthread_mutex_unlock(&e->mu);
    return 0;
}

int enc_finish(enc_t *e)
{
    if (!e->nthreads)
        return e->failed ? -1 : 0;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        int busy = 0;
        for (int i = 0; i < e->nslots; i++)
            busy |= e->slots[i].state != S_FREE;
        if (!busy)
            break;
        pthread_cond_wait(&e->done, &e->mu);
    }
    int failed = e->failed;
    pthread_mutex_unlock(&e->mu);
    return failed ? -1 : 0;
}

const char *enc_error(const enc_t *e) { return e->err[0] ? e->err : "cannot write a frame"; }

void enc_destroy(enc_t *e)
{
    if (!e)
        return;
    if (e->started) {
        pthread_mutex_lock(&e->mu);
        e->stop = 1;
        pthread_cond_broadcast(&e->work);
        pthread_mutex_unlock(&e->mu);
        for (int i = 0; i < e->nthreads; i++)
            pthread_join(e->threads[i], NULL);
        pthread_cond_destroy(&e->work);
        pthread_cond_destroy(&e->done);
        pthread_mutex_destroy(&e->mu);
    }
    for (int i = 0; e->slots && i < e->nslots; i++) {
        free(e->slots[i].pix);
        free(e->slots[i].yuv);
    }
    free(e->slots);
    free(e->threads);
    free(e);
}
