// r_text.c -- 2D drawing in virtual pixels (pictures, console font, fills, back tile), the notify lines and centerprint
#include <stdio.h>
#include <string.h>

#include "r_2d_local.h"

int r_2d_scale(int width, int height)
{
    int s = width / 320 < height / 240 ? width / 320 : height / 240;
    return s < 1 ? 1 : s;
}

void r_2d_canvas_init(r_2d_canvas_t *c, r_view_t *v)
{
    c->buf = v->buffer;
    c->width = v->width;
    c->height = v->height;
    c->rowbytes = v->rowbytes ? v->rowbytes : v->width;
    c->scale = r_2d_scale(v->width, v->height);
    c->vw = v->width / c->scale;
    c->vh = v->height / c->scale;
    // Left-over real pixels: split the columns, and put the rows at the top so
    // the status bar sits on the bottom row of the frame.
    c->ox = (v->width - c->vw * c->scale) / 2;
    c->oy = v->height - c->vh * c->scale;
}

// Copy the n pixels of src that are not `t` to dst. Eight at a time: a byte of
// src ^ t*0x01.. is zero exactly where the pixel is transparent; words wholly
// transparent are skipped, wholly opaque ones stored, the rest merged by mask.
static void trans_row(uint8_t *dst, const uint8_t *src, int n, uint8_t t)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fu, high = ~low7, tt = 0x0101010101010101u * t;
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t sv, dv;
        memcpy(&sv, src + k, 8);
        uint64_t x = sv ^ tt;
        uint64_t opaque = (((x & low7) + low7) | x) & high;   // 0x80 in each opaque byte
        if (!opaque)
            continue;
        if (opaque == high) {
            memcpy(dst + k, &sv, 8);
            continue;
        }
        uint64_t m = (opaque >> 7) * 0xffu;
        memcpy(&dv, dst + k, 8);
        dv = (dv & ~m) | (sv & m);
        memcpy(dst + k, &dv, 8);
    }
    for (; k < n; k++)
        if (src[k] != t)
            dst[k] = src[k];
}

#define BLIT_CHUNK 2048   // real columns widened at a time (scaled blits)

// Widen source pixels to s real pixels each into line[0, n), the first one
// missing its first `sub` columns. Up to a scale of 8, one 8-byte store a source
// pixel (line needs 8 bytes to spare): the next store overwrites the excess.
static void widen_row(uint8_t *line, const uint8_t *row, int sub, int n, int s)
{
    if (s <= 8) {
        uint64_t v = 0x0101010101010101u * *row++;
        memcpy(line, &v, 8);
        for (int k = s - sub; k < n; k += s) {
            v = 0x0101010101010101u * *row++;
            memcpy(line + k, &v, 8);
        }
        return;
    }
    for (int k = 0; k < n; k++) {
        line[k] = *row;
        if (++sub == s) {
            sub = 0;
            row++;
        }
    }
}

// Blit a w x h block of source pixels at virtual (x, y). transparent: the colour
// that is skipped, or -1 for none. Each source pixel becomes an s x s block.
// Unscaled rows are copied straight from the source; scaled, each source row is
// widened once into a line buffer that then serves all its s real rows.
static void blit(r_2d_canvas_t *c, int x, int y, const uint8_t *src, int srcstride, int w, int h,
                 int transparent)
{
    if (!c->buf || !src || w <= 0 || h <= 0)
        return;
    const int s = c->scale;
    const int rx0 = c->ox + x * s, ry0 = c->oy + y * s;
    const int ry_start = ry0 < 0 ? 0 : ry0;
    const int ry_end = ry0 + h * s > c->height ? c->height : ry0 + h * s;
    const int a0 = rx0 < 0 ? 0 : rx0;
    const int a1 = rx0 + w * s > c->width ? c->width : rx0 + w * s;
    if (ry_start >= ry_end || a0 >= a1)
        return;
    const size_t rowbytes = (size_t)c->rowbytes;
    const int opaque = transparent < 0 || transparent > 255;
    const uint8_t t = (uint8_t)transparent;
    if (s == 1) {
        const int n = a1 - a0;
        const uint8_t *row = src + (size_t)(ry_start - ry0) * (size_t)srcstride + (size_t)(a0 - rx0);
        uint8_t *dst = c->buf + (size_t)ry_start * rowbytes + (size_t)a0;
        for (int ry = ry_start; ry < ry_end; ry++, row += srcstride, dst += rowbytes) {
            if (opaque)
                memcpy(dst, row, (size_t)n);
            else
                trans_row(dst, row, n, t);
        }
        return;
    }
    uint8_t line[BLIT_CHUNK + 8];
    for (int cx = a0; cx < a1; cx += BLIT_CHUNK) {
        const int n = a1 - cx < BLIT_CHUNK ? a1 - cx : BLIT_CHUNK;
        const int sx0 = (cx - rx0) / s, sub0 = (cx - rx0) % s;
        for (int ry = ry_start; ry < ry_end;) {
            int sy = (ry - ry0) / s;
            int group_end = ry0 + (sy + 1) * s < ry_end ? ry0 + (sy + 1) * s : ry_end;
            const uint8_t *row = src + (size_t)sy * (size_t)srcstride;
            widen_row(line, row + sx0, sub0, n, s);
            for (; ry < group_end; ry++) {
                uint8_t *dst = c->buf + (size_t)ry * rowbytes + (size_t)cx;
                if (opaque)
                    memcpy(dst, line, (size_t)n);
                else
                    trans_row(dst, line, n, t);
            }
        }
    }
}

void r_2d_pic(r_2d_canvas_t *c, int x, int y, const wad_pic_t *p)
{
    if (p && p->pixels)
        blit(c, x, y, p->pixels, p->width, p->width, p->height, -1);
}

void r_2d_transpic(r_2d_canvas_t *c, int x, int y, const wad_pic_t *p)
{
    if (p && p->pixels)
        blit(c, x, y, p->pixels, p->width, p->width, p->height, 255);
}

void r_2d_char(r_2d_t *d, r_2d_canvas_t *c, int x, int y, int num)
{
    if (!d->game || d->game->conchars_slot < 0)
        return;
    const wad_pic_t *f = &d->pics[d->game->conchars_slot];
    if (!f->pixels || f->width < 128 || f->height < 128)
        return;
    num &= 255;
    if (num == ' ')
        return;
    // 16 x 16 cells of 8 x 8; one colour is transparent (Quake 0, Quake II 255).
    blit(c, x, y, f->pixels + (num >> 4) * 8 * f->width + (num & 15) * 8, f->width, 8, 8,
         d->game->conchars_transparent);
}

void r_2d_string(r_2d_t *d, r_2d_canvas_t *c, int x, int y, const char *s)
{
    for (; *s; s++, x += 8)
        r_2d_char(d, c, x, y, (uint8_t)*s);
}

void r_2d_fill(r_2d_canvas_t *c, int x, int y, int w, int h, int color)
{
    if (!c->buf)
        return;
    int s = c->scale;
    int x0 = c->ox + x * s, y0 = c->oy + y * s, x1 = x0 + w * s, y1 = y0 + h * s;
    if (x0 < 0)
        x0 = 0;
    if (y0 < 0)
        y0 = 0;
    if (x1 > c->width)
        x1 = c->width;
    if (y1 > c->height)
        y1 = c->height;
    for (int ry = y0; ry < y1; ry++)
        if (x1 > x0)
            memset(c->buf + (size_t)ry * (size_t)c->rowbytes + x0, color & 255, (size_t)(x1 - x0));
}

static int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

void r_2d_tile_rows(r_2d_t *d, r_2d_canvas_t *c, int y0, int y1)
{
    if (!c->buf || !d->game || d->game->backtile_slot < 0)
        return;
    const wad_pic_t *t = &d->pics[d->game->backtile_slot];
    if (!t->pixels)
        return;
    if (y0 < 0)
        y0 = 0;
    if (y1 > c->height)
        y1 = c->height;
    int s = c->scale;
    // The tile is fixed to the virtual screen. A row repeats every t->width
    // virtual pixels, so one period is built (stepping through virtual pixels
    // without a division) and the rest copied; the s real rows of one virtual
    // row are copies of the first.
    int vx0 = floor_div(-c->ox, s), sub0 = -c->ox - vx0 * s;
    int tx0 = ((vx0 % t->width) + t->width) % t->width;
    int period = t->width * s < c->width ? t->width * s : c->width;
    int prev_vy = 0;
    for (int ry = y0; ry < y1; ry++) {
        int vy = floor_div(ry - c->oy, s);
        uint8_t *dst = c->buf + (size_t)ry * (size_t)c->rowbytes;
        if (ry > y0 && vy == prev_vy) {
            memcpy(dst, dst - c->rowbytes, (size_t)c->width);
            continue;
        }
        prev_vy = vy;
        int ty = ((vy % t->height) + t->height) % t->height;
        const uint8_t *row = t->pixels + (size_t)ty * (size_t)t->width;
        int tx = tx0, sub = sub0;
        for (int rx = 0; rx < period; rx++) {
            dst[rx] = row[tx];
            if (++sub == s) {
                sub = 0;
                if (++tx == t->width)
                    tx = 0;
            }
        }
        // [0, done) is a whole number of periods: copying it doubles the run
        for (int done = period; done < c->width;) {
            int n = c->width - done < done ? c->width - done : done;
            memcpy(dst + done, dst, (size_t)n);
            done += n;
        }
    }
}

// ---- console lines (the notify area) ----------------------------------------

// Quake's Con_Print, reduced to what the notify area shows: logical lines with
// the time each started; wrapping happens when drawn, at the width of the screen.
void r_2d_con_print(r_2d_t *d, const char *text, double time, int mask)
{
    const uint8_t *p = (const uint8_t *)text;
    if (p[0] == 1 || p[0] == 2) {   // chat / coloured message: the whole text in the second colour set
        mask = 128;
        p++;
    }
    for (; *p; p++) {
        if (!d->con_open) {
            if (!d->con_cr || d->con_count == 0) {
                d->con_head = (d->con_head + 1) % R2D_CON_LINES;
                if (d->con_count < R2D_CON_LINES)
                    d->con_count++;
            }
            r_2d_conline_t *l = &d->con[d->con_head];
            l->len = 0;
            l->time = time;
            d->con_open = 1;
            d->con_cr = 0;
        }
        r_2d_conline_t *l = &d->con[d->con_head];
        if (*p == '\n') {
            d->con_open = 0;
        } else if (*p == '\r') {
            d->con_open = 0;
            d->con_cr = 1;
        } else if (l->len < R2D_CON_LINE_LEN - 1) {
            l->text[l->len++] = (char)(*p | mask);
        }
    }
}

// A character that ends a word for the wrap: Quake compares signed chars with
// ' ', so the coloured (high-bit) half of the font also breaks words.
static int word_break(char ch) { return (uint8_t)ch <= ' ' || ((uint8_t)ch & 0x80); }

int r_2d_wrap(const char *text, int len, int width, int *starts, int *lens, int maxrows)
{
    if (width < 1)
        width = 1;
    if (maxrows < 1)
        return 0;
    // Pass 1 counts the rows, pass 2 records the last maxrows of them.
    int total = 0;
    for (int pass = 0; pass < 2; pass++) {
        int x = 0, row = 0, first = total - maxrows;
        if (first < 0)
            first = 0;
        if (pass == 1 && first == 0) {
            starts[0] = 0;
        }
        for (int i = 0; i < len; i++) {
            int l = 0;
            while (l < width && i + l < len && !word_break(text[i + l]))
                l++;
            if (l != width && x + l > width)
                x = 0;
            if (x == 0 && i > 0) {
                if (pass == 1 && row >= first)
                    lens[row - first] = i - starts[row - first];
                row++;
                if (pass == 1 && row >= first)
                    starts[row - first] = i;
            }
            if (++x >= width)
                x = 0;
        }
        if (pass == 0) {
            total = row + 1;
        } else if (row >= first) {
            lens[row - first] = len - starts[row - first];
        }
    }
    return total < maxrows ? total : maxrows;
}

void r_2d_draw_notify(r_2d_t *d, r_2d_canvas_t *c, double t)
{
    int width = (c->vw >> 3) - 2;   // con_linewidth
    if (width < 1)
        return;
    // Collect the newest R2D_NOTIFY_LINES wrapped rows, newest line first.
    const char *rtext[R2D_NOTIFY_LINES];
    int rlen[R2D_NOTIFY_LINES];
    double rtime[R2D_NOTIFY_LINES];
    int n = 0;
    for (int k = 0; k < d->con_count && n < R2D_NOTIFY_LINES; k++) {
        const r_2d_conline_t *l = &d->con[(d->con_head - k + R2D_CON_LINES) % R2D_CON_LINES];
        int starts[R2D_NOTIFY_LINES], lens[R2D_NOTIFY_LINES];
        int rows = r_2d_wrap(l->text, l->len, width, starts, lens, R2D_NOTIFY_LINES - n);
        for (int r = rows - 1; r >= 0; r--) {
            rtext[n] = l->text + starts[r];
            rlen[n] = lens[r];
            rtime[n] = l->time;
            n++;
        }
    }
    int y = 0;
    for (int i = n - 1; i >= 0; i--) {
        if (t - rtime[i] > R2D_NOTIFY_TIME)
            continue;
        for (int x = 0; x < rlen[i]; x++)
            r_2d_char(d, c, (x + 1) << 3, y, (uint8_t)rtext[i][x]);
        y += 8;
    }
}

void r_2d_draw_print(r_2d_t *d, const char *text)
{
    char *line = d->draw_prints[d->num_draw_prints++ % R2D_NOTIFY_LINES];
    snprintf(line, sizeof d->draw_prints[0], "%s", text);
}

// The notify area when the game printed while drawing the frame. Quake II's console stamps a
// line with the client's clock, and Con_DrawNotify shows the newest NUM_CON_TIMES lines no
// older than con_notifytime, the frame's own included at con_notifytime 0 (their age is 0).
// Printed every frame (a picture missing from the game data), they are the console's newest
// lines: at con_notifytime 0 (--notify off) this frame's; otherwise the frames before printed
// the same, so the area holds the last lines of that repeated sequence.
void r_2d_draw_prints(r_2d_t *d, r_2d_canvas_t *c)
{
    int width = (c->vw >> 3) - 2;   // con_linewidth: a longer line wraps, as the console's
    int n = d->num_draw_prints;
    if (n <= 0 || width < 1)
        return;
    int kept = n < R2D_NOTIFY_LINES ? n : R2D_NOTIFY_LINES;   // the frame's newest, in the ring
    // the newest R2D_NOTIFY_LINES rows, newest first: this frame's prints from the last back,
    // then (con_notifytime above 0) the same prints of the frames before
    const char *rtext[R2D_NOTIFY_LINES];
    int rlen[R2D_NOTIFY_LINES], rows = 0;
    int prints = d->notify_off ? kept : R2D_NOTIFY_LINES;
    for (int k = 0; k < prints && rows < R2D_NOTIFY_LINES; k++) {
        // the k-th newest print; before this frame's first come the frame before's last (the
        // ring holds every one of them: n >= 4 keeps the last four, a shorter frame all of them)
        int j = ((n - 1 - k) % n + n) % n;
        const char *s = d->draw_prints[j % R2D_NOTIFY_LINES];
        int starts[R2D_NOTIFY_LINES], lens[R2D_NOTIFY_LINES];
        int m = r_2d_wrap(s, (int)strlen(s), width, starts, lens, R2D_NOTIFY_LINES - rows);
        for (int r = m - 1; r >= 0; r--, rows++) {
            rtext[rows] = s + starts[r];
            rlen[rows] = lens[r];
        }
    }
    for (int i = rows - 1, y = 0; i >= 0; i--, y += 8)
        for (int x = 0; x < rlen[i]; x++)
            r_2d_char(d, c, (x + 1) << 3, y, (uint8_t)rtext[i][x]);
}

// ---- centerprint ------------------------------------------------------------

void r_2d_center_print(r_2d_t *d, const char *text, double time)
{
    size_t n = strlen(text);
    if (n >= sizeof(d->center))
        n = sizeof(d->center) - 1;
    memcpy(d->center, text, n);
    d->center[n] = 0;
    d->center_start = time;
    d->center_set = 1;
    d->center_lines = 1;
    for (size_t i = 0; i < n; i++)
        if (d->center[i] == '\n')
            d->center_lines++;
}

void r_2d_draw_center_text(r_2d_t *d, r_2d_canvas_t *c, const char *s, int chars)
{
    int lines = 1;
    for (const char *p = s; *p; p++)
        if (*p == '\n')
            lines++;
    int remaining = chars < 0 ? 9999 : chars;
    int y = lines <= 4 ? (int)(c->vh * 0.35) : 48;
    for (;;) {
        int l = 0;
        while (l < 40 && s[l] && s[l] != '\n')
            l++;
        int x = (c->vw - l * 8) / 2;
        for (int j = 0; j < l; j++, x += 8) {
            r_2d_char(d, c, x, y, (uint8_t)s[j]);
            if (!remaining--)   // Quake draws one more character than the count: kept
                return;
        }
        y += 8;
        while (*s && *s != '\n')
            s++;
        if (!*s)
            break;
        s++;
    }
}
