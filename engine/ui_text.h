// ui_text.h -- the window's own drawing: boxes and a 5x7 text font (with descenders) on a packed RGB frame
//
// Used by `play` for its status line, timeline, key help and the shelf; no game data,
// so it draws the same for all four games and with no data at all. Every call clips to
// the canvas and allocates nothing.
#ifndef UI_TEXT_H
#define UI_TEXT_H

#include <stdint.h>

typedef struct {
    uint8_t *rgb;   // w * h * 3 bytes, rows packed
    int w, h;
} ui_canvas_t;

#define UI_CHAR_W 6    // glyph cell at scale 1: 5 columns and a gap
#define UI_CHAR_H 10   // 7 rows, 2 of descenders, a gap (the line height)

// A solid box of colour 0xRRGGBB.
void ui_fill(ui_canvas_t *c, int x, int y, int w, int h, uint32_t color);
// Darken a box: each channel times num / den (den > 0).
void ui_shade(ui_canvas_t *c, int x, int y, int w, int h, int num, int den);
// Text at (x, y), top left, each font pixel sc x sc. Quake's coloured names (high bit) are
// drawn plain; its golden digits and brackets as digits and brackets. Returns the width drawn.
int ui_text(ui_canvas_t *c, int x, int y, int sc, uint32_t color, const char *s);
// The width `s` takes (the same as ui_text returns).
int ui_text_width(int sc, const char *s);
// The printable form of a character as ui_text draws it (ASCII 32..126).
char ui_plain_char(unsigned char ch);

#endif
