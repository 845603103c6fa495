// gen_pics.c -- gfx/palette.lmp, gfx/colormap.lmp and gfx.wad: our own console font and status-bar pictures
//
// gfx.wad is a WAD2 file as Quake's: a 12-byte header ("WAD2", lump count,
// directory offset), the lumps, then 32-byte directory entries. Pictures are
// qpic lumps (type 'B': int32 width, int32 height, pixels); the console font
// "conchars" is a headerless 128x128 block stored with the miptex type ('D'),
// 16x16 cells of 8x8, colour 0 transparent. Other pictures use 255 as the key.
// Everything is drawn here from shapes and seeded noise.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

// ---- pictures -------------------------------------------------------------------

typedef struct {
    int w, h;
    uint8_t *px;
} pic_t;

static int pic_new(pic_t *p, int w, int h, uint8_t fill)
{
    p->w = w;
    p->h = h;
    p->px = malloc((size_t)w * (size_t)h);
    if (!p->px) {
        fprintf(stderr, "mkbuiltin: out of memory for a %dx%d picture\n", w, h);
        return -1;
    }
    memset(p->px, fill, (size_t)w * (size_t)h);
    return 0;
}

static void pic_free(pic_t *p)
{
    free(p->px);
    p->px = NULL;
}

static void put(pic_t *p, int x, int y, int c)
{
    if (x >= 0 && y >= 0 && x < p->w && y < p->h)
        p->px[y * p->w + x] = (uint8_t)c;
}

static int get(const pic_t *p, int x, int y, int outside)
{
    return x >= 0 && y >= 0 && x < p->w && y < p->h ? p->px[y * p->w + x] : outside;
}

static void fill(pic_t *p, int x0, int y0, int x1, int y1, int c)   // [x0, x1) x [y0, y1)
{
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            put(p, x, y, c);
}

// Copy a w x h block of src at (sx, sy) into dst at (0, 0): icons drawn over the bar's own slot.
static void blit_from(pic_t *dst, const pic_t *src, int sx, int sy)
{
    for (int y = 0; y < dst->h; y++)
        for (int x = 0; x < dst->w; x++)
            put(dst, x, y, get(src, sx + x, sy + y, 0));
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

// A ramp colour with the level clamped to the ramp.
static int shade(int ramp, int level) { return GP(ramp, clampi(level, 0, 15)); }

// -1, 0 or +1, mostly 0: the grain of painted metal.
static int grain(uint32_t *s)
{
    uint32_t r = gen_rand(s) % 8;
    return r == 0 ? -1 : r == 1 ? 1 : 0;
}

// ---- the console font ---------------------------------------------------------------

// Our own 5x7 glyphs for ASCII 32..127, 16 to a band, 8 rows each (row 7 holds
// descenders). Each glyph is 5 characters wide with a space between glyphs.
static const char *const font_sheet[6][8] = {
    {   // space ! " # $ % & ' ( ) * + , - . /
        "..... ..#.. .#.#. .#.#. ..#.. ##..# .##.. ..#.. ...#. .#... ..... ..... ..... ..... ..... ....#",
        "..... ..#.. .#.#. .#.#. .#### ##..# #..#. ..#.. ..#.. ..#.. ..#.. ..#.. ..... ..... ..... ....#",
        "..... ..#.. ..... ##### #.#.. ...#. #.#.. .#... .#... ...#. #.#.# ..#.. ..... ..... ..... ...#.",
        "..... ..#.. ..... .#.#. .###. ..#.. .#... ..... .#... ...#. .###. ##### ..... ##### ..... ..#..",
        "..... ..#.. ..... ##### ..#.# .#... #.#.# ..... .#... ...#. #.#.# ..#.. ..... ..... ..... .#...",
        "..... ..... ..... .#.#. ####. #..## #..#. ..... ..#.. ..#.. ..#.. ..#.. .##.. ..... .##.. #....",
        "..... ..#.. ..... .#.#. ..#.. #..## .##.# ..... ...#. .#... ..... ..... ..#.. ..... .##.. #....",
        "..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .#... ..... ..... .....",
    },
    {   // 0 1 2 3 4 5 6 7 8 9 : ; < = > ?
        ".###. ..#.. .###. ####. ...#. ##### ..##. ##### .###. .###. ..... ..... ...#. ..... .#... .###.",
        "#...# .##.. #...# ....# ..##. #.... .#... ....# #...# #...# .##.. .##.. ..#.. ..... ..#.. #...#",
        "#..## ..#.. ....# ....# .#.#. ####. #.... ...#. #...# #...# .##.. .##.. .#... ##### ...#. ....#",
        "#.#.# ..#.. ...#. .###. #..#. ....# ####. ..#.. .###. .#### ..... ..... #.... ..... ....# ...#.",
        "##..# ..#.. ..#.. ....# ##### ....# #...# .#... #...# ....# .##.. .##.. .#... ##### ...#. ..#..",
        "#...# ..#.. .#... ....# ...#. #...# #...# .#... #...# ...#. .##.. ..#.. ..#.. ..... ..#.. .....",
        ".###. .###. ##### ####. ...#. .###. .###. .#... .###. .##.. ..... .#... ...#. ..... .#... ..#..",
        "..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....",
    },
    {   // @ A B C D E F G H I J K L M N O
        ".###. .###. ####. .###. ###.. ##### ##### .###. #...# .###. ..### #...# #.... #...# #...# .###.",
        "#...# #...# #...# #...# #..#. #.... #.... #...# #...# ..#.. ...#. #..#. #.... ##.## #...# #...#",
        "#.### #...# #...# #.... #...# #.... #.... #.... #...# ..#.. ...#. #.#.. #.... #.#.# ##..# #...#",
        "#.#.# ##### ####. #.... #...# ####. ####. #.### ##### ..#.. ...#. ##... #.... #.#.# #.#.# #...#",
        "#.##. #...# #...# #.... #...# #.... #.... #...# #...# ..#.. ...#. #.#.. #.... #...# #..## #...#",
        "#.... #...# #...# #...# #..#. #.... #.... #...# #...# ..#.. #..#. #..#. #.... #...# #...# #...#",
        ".###. #...# ####. .###. ###.. ##### #.... .#### #...# .###. .##.. #...# ##### #...# #...# .###.",
        "..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....",
    },
    {   // P Q R S T U V W X Y Z [ \ ] ^ _
        "####. .###. ####. .#### ##### #...# #...# #...# #...# #...# ##### .###. #.... .###. ..#.. .....",
        "#...# #...# #...# #.... ..#.. #...# #...# #...# #...# #...# ....# .#... #.... ...#. .#.#. .....",
        "#...# #...# #...# #.... ..#.. #...# #...# #...# .#.#. .#.#. ...#. .#... .#... ...#. #...# .....",
        "####. #...# ####. .###. ..#.. #...# #...# #.#.# ..#.. ..#.. ..#.. .#... ..#.. ...#. ..... .....",
        "#.... #.#.# #.#.. ....# ..#.. #...# #...# #.#.# .#.#. ..#.. .#... .#... ...#. ...#. ..... .....",
        "#.... #..#. #..#. ....# ..#.. #...# .#.#. #.#.# #...# ..#.. #.... .#... ....# ...#. ..... .....",
        "#.... .##.# #...# ####. ..#.. .###. ..#.. .#.#. #...# ..#.. ##### .###. ....# .###. ..... .....",
        "..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... #####",
    },
    {   // ` a b c d e f g h i j k l m n o
        ".#... ..... #.... ..... ....# ..... ..##. ..... #.... ..#.. ...#. #.... .##.. ..... ..... .....",
        "..#.. ..... #.... ..... ....# ..... .#..# ..... #.... ..... ..... #.... ..#.. ..... ..... .....",
        "...#. .###. ####. .###. .#### .###. .#... .#### #.##. .##.. ..##. #..#. ..#.. ##.#. #.##. .###.",
        "..... ....# #...# #.... #...# #...# ###.. #...# ##..# ..#.. ...#. #.#.. ..#.. #.#.# ##..# #...#",
        "..... .#### #...# #.... #...# ##### .#... #...# #...# ..#.. ...#. ##... ..#.. #.#.# #...# #...#",
        "..... #...# #...# #...# #...# #.... .#... .#### #...# ..#.. ...#. #.#.. ..#.. #.#.# #...# #...#",
        "..... .#### ####. .###. .#### .###. .#... ....# #...# .###. #..#. #..#. .###. #.#.# #...# .###.",
        "..... ..... ..... ..... ..... ..... ..... .###. ..... ..... .##.. ..... ..... ..... ..... .....",
    },
    {   // p q r s t u v w x y z { | } ~ (127 blank)
        "..... ..... ..... ..... .#... ..... ..... ..... ..... ..... ..... ...## ..#.. ##... ..... .....",
        "..... ..... ..... ..... .#... ..... ..... ..... ..... ..... ..... ..#.. ..#.. ..#.. ..... .....",
        "####. .#### #.##. .#### ###.. #...# #...# #...# #...# #...# ##### ..#.. ..#.. ..#.. .#... .....",
        "#...# #...# ##..# #.... .#... #...# #...# #...# .#.#. #...# ...#. .#... ..#.. ...#. #.#.# .....",
        "#...# #...# #.... .###. .#... #...# #...# #.#.# ..#.. #...# ..#.. ..#.. ..#.. ..#.. ...#. .....",
        "####. .#### #.... ....# .#..# #..## .#.#. #.#.# .#.#. .#### .#... ..#.. ..#.. ..#.. ..... .....",
        "#.... ....# #.... ####. ..##. .##.# ..#.. .#.#. #...# ....# ##### ...## ..#.. ##... ..... .....",
        "#.... ....# ..... ..... ..... ..... ..... ..... ..... .###. ..... ..... ..... ..... ..... .....",
    },
};

static int glyph_bit(int ch, int x, int y)
{
    if (ch < 32 || ch > 127 || x < 0 || x > 4 || y < 0 || y > 7)
        return 0;
    int band = (ch - 32) / 16, col = (ch - 32) % 16;
    return font_sheet[band][y][col * 6 + x] == '#';
}

// Quake's special characters, 8x8 with their own shading: '.' transparent,
// 'b'..'p' ramp levels 1..15 (level 0 is never used: colour 0 is transparent).
typedef struct {
    int ch;
    const char *rows[8];
} special_t;

static const special_t specials[] = {
    // 0-2 a slider track and 3 its knob (Quake's menu slider is 128-131: the second set)
    { 0, { "........", "........", "...ddddd", "..dkkkkk", "..dhhhhh", "...ddddd", "........", "........" } },
    { 1, { "........", "........", "dddddddd", "kkkkkkkk", "hhhhhhhh", "dddddddd", "........", "........" } },
    { 2, { "........", "........", "ddddd...", "kkkkkd..", "hhhhhd..", "ddddd...", "........", "........" } },
    { 3, { "..dddd..", ".dmppmd.", ".dmnnkd.", ".dlkkhd.", ".dkhhgd.", ".dhggfd.", "..dddd..", "........" } },
    // 11 the console cursor, 12 the marker beside the player's own score
    { 11, { ".nnnnnn.", ".nnnnnn.", ".mmmmmm.", ".mmmmmm.", ".llllll.", ".llllll.", ".kkkkkk.", ".kkkkkk." } },
    { 12, { "........", ".d......", ".nd.....", ".pnd....", ".ppnd...", ".pnd....", ".nd.....", ".d......" } },
    // 16, 17 the brackets around the player's frags
    { 16, { ".ppppd..", ".ond....", ".nd.....", ".md.....", ".ld.....", ".kd.....", ".kkkkd..", "........" } },
    { 17, { "..dpppp.", "....dno.", ".....dn.", ".....dm.", ".....dl.", ".....dk.", "..dkkkk.", "........" } },
    // 28 a bullet
    { 28, { "........", "........", "...nn...", "..nppn..", "..mnnm..", "...kk...", "........", "........" } },
    // 29-31 the separator line of the level banner: left end, middle, right end
    { 29, { "........", "........", "..dddddd", ".dmooooo", ".dklllll", ".dghhhhh", "..dddddd", "........" } },
    { 30, { "........", "........", "dddddddd", "oooooooo", "llllllll", "hhhhhhhh", "dddddddd", "........" } },
    { 31, { "........", "........", "dddddd..", "ooooomd.", "lllllkd.", "hhhhhgd.", "dddddd..", "........" } },
};

// Draw a 5x7 glyph in cell `cell` of the 128x128 font: a vertical light-to-dark
// gradient in `ramp`, with a one-pixel dark shadow down-right so text reads over bright walls.
static void font_glyph(pic_t *f, int cell, int ch, int ramp, int top)
{
    int cx = (cell & 15) * 8, cy = (cell >> 4) * 8;
    static const int drop[8] = { 0, 0, 1, 1, 2, 2, 3, 4 };
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 7; x++) {
            int gx = x - 1;
            if (glyph_bit(ch, gx, y))
                put(f, cx + x, cy + y, shade(ramp, top - drop[y]));
            else if (glyph_bit(ch, gx - 1, y - 1) && y >= 1)
                put(f, cx + x, cy + y, GP(GP_GREY, 1));
        }
}

static void font_special(pic_t *f, int cell, const special_t *s, int ramp)
{
    int cx = (cell & 15) * 8, cy = (cell >> 4) * 8;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            char c = s->rows[y][x];
            if (c >= 'b' && c <= 'p')
                put(f, cx + x, cy + y, shade(ramp, c - 'a'));
        }
}

// Chars 0..127 in the first colours; 128..255 the same shapes in the second
// colours (Quake's coloured text: chat, the level name, menus).
static int make_conchars(pic_t *f)
{
    if (pic_new(f, 128, 128, 0) < 0)
        return -1;
    for (int set = 0; set < 2; set++) {
        int text = set ? GP_GOLD : GP_GREY, text_top = set ? 14 : 15;
        int accent = set ? GP_RED : GP_GOLD;   // small digits and brackets
        for (int ch = 32; ch < 127; ch++)
            font_glyph(f, set * 128 + ch, ch, text, text_top);
        for (int d = 0; d < 10; d++)           // 18..27 the small digits of the inventory counts
            font_glyph(f, set * 128 + 18 + d, '0' + d, accent, 14);
        for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
            int ch = specials[i].ch;
            int ramp = ch >= 29 || ch <= 3 ? (set ? GP_GOLD : GP_TAN) : ch == 16 || ch == 17 ? accent : text;
            font_special(f, set * 128 + ch, &specials[i], ramp);
        }
    }
    return 0;
}

// ---- big status-bar digits ---------------------------------------------------------

// Seven segments a..g as bits 0..6 (a top, b upper right, c lower right, d bottom,
// e lower left, f upper left, g middle).
static const uint8_t seven_seg[10] = { 0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f };

// Is the pixel centre (px, py) inside a bevelled segment from (x0, y0) to (x1, y1)
// (horizontal or vertical), half thickness h?
static int in_segment(float px, float py, float x0, float y0, float x1, float y1, float h)
{
    if (y0 == y1) {
        float d = fabsf(py - y0);
        return d <= h && px >= x0 + d && px <= x1 - d;
    }
    float d = fabsf(px - x0);
    return d <= h && py >= y0 + d && py <= y1 - d;
}

// Which glyph: 0-9 digits, 10 minus, 11 colon, 12 slash.
static int digit_cover(int glyph, float px, float py)
{
    const float l = 5.5f, r = 18.5f, t = 3.0f, m = 12.0f, b = 21.0f, h = 2.3f;
    if (glyph == 11)
        return (px >= 9 && px <= 15 && ((py >= 6 && py <= 11) || (py >= 14 && py <= 19)));
    if (glyph == 12) {
        float d = (px - 12) + (py - 12) * 0.5f;   // a steep stroke
        return fabsf(d) <= 2.4f && py >= 2 && py <= 22;
    }
    if (glyph == 1)   // one unbroken stroke with a flag: a segmented 1 reads as '!'
        return in_segment(px, py, 14.5f, 1.5f, 14.5f, 22.5f, h) ||
               (px >= 9.5f && px <= 14.5f && fabsf((py - 4.0f) + 0.6f * (px - 12.0f)) <= 1.3f);
    int bits = glyph == 10 ? 0x40 : seven_seg[glyph];
    const float seg[7][4] = {
        { l, t, r, t }, { r, t, r, m }, { r, m, r, b }, { l, b, r, b }, { l, m, l, b }, { l, t, l, m }, { l, m, r, m },
    };
    for (int s = 0; s < 7; s++)
        if ((bits >> s & 1) && in_segment(px, py, seg[s][0], seg[s][1], seg[s][2], seg[s][3], h))
            return 1;
    return 0;
}

// A 24x24 digit, slanted a little, lit from above: bright top edges, dark outline.
static int make_digit(pic_t *p, int glyph, int ramp)
{
    if (pic_new(p, 24, 24, GP_TRANSPARENT) < 0)
        return -1;
    uint8_t in[24][24];
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < 24; x++) {
            float py = y + 0.5f, px = x + 0.5f + (py - 12) * 0.12f;   // italic slant
            in[y][x] = (uint8_t)digit_cover(glyph, px, py);
        }
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < 24; x++) {
            if (in[y][x]) {
                int lvl = 14 - y * 5 / 23;
                if (y == 0 || !in[y - 1][x])
                    lvl += 2;
                else if (y == 23 || !in[y + 1][x])
                    lvl -= 2;
                put(p, x, y, shade(ramp, lvl));
                continue;
            }
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (y + dy >= 0 && y + dy < 24 && x + dx >= 0 && x + dx < 24 && in[y + dy][x + dx])
                        put(p, x, y, GP(GP_BROWN, 1));
        }
    return 0;
}

// ---- bar panels ---------------------------------------------------------------------

// Brushed bronze: horizontal streaks and grain around level `base`.
static void metal(pic_t *p, int x0, int y0, int x1, int y1, int ramp, int base, uint32_t seed)
{
    uint32_t s = seed;
    for (int y = y0; y < y1; y++) {
        int streak = (int)(gen_rand(&s) % 3) - 1;
        for (int x = x0; x < x1; x++)
            put(p, x, y, shade(ramp, base + streak + grain(&s)));
    }
}

// A bevelled rectangle [x0, x1) x [y0, y1): raised (light top-left) or sunk.
static void bevel(pic_t *p, int x0, int y0, int x1, int y1, int ramp, int light, int dark, int raised)
{
    int tl = raised ? light : dark, br = raised ? dark : light;
    for (int x = x0; x < x1; x++) {
        put(p, x, y0, shade(ramp, tl));
        put(p, x, y1 - 1, shade(ramp, br));
    }
    for (int y = y0; y < y1; y++) {
        put(p, x0, y, shade(ramp, tl));
        put(p, x1 - 1, y, shade(ramp, br));
    }
}

static void rivet(pic_t *p, int x, int y)
{
    put(p, x, y, GP(GP_TAN, 13));
    put(p, x + 1, y, GP(GP_TAN, 10));
    put(p, x, y + 1, GP(GP_TAN, 9));
    put(p, x + 1, y + 1, GP(GP_BROWN, 4));
    put(p, x + 2, y + 1, GP(GP_BROWN, 1));
    put(p, x + 1, y + 2, GP(GP_BROWN, 1));
    put(p, x + 2, y + 2, GP(GP_BROWN, 1));
}

// A sunk well behind numbers: dark, its upper-left edge in shadow.
static void well(pic_t *p, int x0, int y0, int x1, int y1, uint32_t seed)
{
    metal(p, x0, y0, x1, y1, GP_BROWN, 2, seed);
    bevel(p, x0, y0, x1, y1, GP_BROWN, 7, 0, 0);
    for (int x = x0 + 1; x < x1 - 1; x++)
        put(p, x, y0 + 1, GP(GP_BROWN, 1));
}

// A raised frame for an icon or the face.
static void slot(pic_t *p, int x0, int y0, int x1, int y1, uint32_t seed)
{
    metal(p, x0, y0, x1, y1, GP_BROWN, 3, seed);
    bevel(p, x0, y0, x1, y1, GP_BROWN, 9, 1, 1);
    bevel(p, x0 + 1, y0 + 1, x1 - 1, y1 - 1, GP_BROWN, 7, 2, 1);
}

static int make_sbar(pic_t *p)
{
    if (pic_new(p, 320, 24, 0) < 0)
        return -1;
    metal(p, 0, 0, 320, 24, GP_BROWN, 6, 0x5ba12345u);
    fill(p, 0, 0, 320, 1, GP(GP_BROWN, 10));
    fill(p, 0, 1, 320, 2, GP(GP_BROWN, 8));
    fill(p, 0, 22, 320, 23, GP(GP_BROWN, 3));
    fill(p, 0, 23, 320, 24, GP(GP_BROWN, 1));
    // icon slots: armor, face, ammo; wells behind the three numbers
    slot(p, 0, 0, 24, 24, 11);
    slot(p, 112, 0, 136, 24, 12);
    slot(p, 224, 0, 248, 24, 13);
    well(p, 25, 2, 96, 22, 21);
    well(p, 137, 2, 208, 22, 22);
    well(p, 249, 2, 319, 22, 23);
    for (int i = 0; i < 2; i++) {
        int x = i ? 213 : 101;
        rivet(p, x, 5);
        rivet(p, x, 16);
    }
    return 0;
}

static int make_scorebar(pic_t *p)
{
    if (pic_new(p, 320, 24, 0) < 0)
        return -1;
    metal(p, 0, 0, 320, 24, GP_BROWN, 6, 0x5c0be001u);
    fill(p, 0, 0, 320, 1, GP(GP_BROWN, 10));
    fill(p, 0, 23, 320, 24, GP(GP_BROWN, 1));
    well(p, 4, 2, 316, 22, 31);
    return 0;
}

// The inventory bar: four ammo counters on top, seven weapon slots and the item slots below.
static int make_ibar(pic_t *p)
{
    if (pic_new(p, 320, 24, 0) < 0)
        return -1;
    metal(p, 0, 0, 320, 24, GP_BROWN, 5, 0x1ba4ee11u);
    fill(p, 0, 0, 320, 1, GP(GP_BROWN, 9));
    for (int i = 0; i < 4; i++)
        well(p, 48 * i + 6, 0, 48 * i + 38, 8, 40u + (uint32_t)i);
    for (int i = 0; i < 7; i++)
        well(p, i * 24, 8, i * 24 + 24, 24, 50u + (uint32_t)i);
    for (int i = 0; i < 6; i++)
        well(p, 192 + i * 16, 8, 208 + i * 16, 24, 60u + (uint32_t)i);
    rivet(p, 178, 12);
    rivet(p, 300, 3);
    return 0;
}

// 64x64 back tile: staggered dark stone blocks that repeat seamlessly.
static int make_backtile(pic_t *p)
{
    if (pic_new(p, 64, 64, 0) < 0)
        return -1;
    uint32_t s = 0xbac771e5u;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            int row = y / 16, bx = (x + (row & 1) * 16) % 32, by = y % 16;
            int lvl = 4 + grain(&s);
            if (by == 0 || bx == 0)
                lvl = 1;                       // mortar
            else if (by == 1 || bx == 1)
                lvl = 6;                       // lit block edge
            else if (by == 15 || bx == 31)
                lvl = 2;                       // shadowed block edge
            else
                lvl += ((x / 32 + row) & 1);   // blocks differ a little
            put(p, x, y, shade(GP_BLUEGREY, lvl));
        }
    return 0;
}

// ---- icons ------------------------------------------------------------------------------

// A vertical cylinder-like bar [x0, x1) x [y0, y1): bright left, dark right.
static void cylinder(pic_t *p, int x0, int y0, int x1, int y1, int ramp, int base)
{
    for (int x = x0; x < x1; x++) {
        float u = (x + 0.5f - x0) / (float)(x1 - x0);   // 0 left .. 1 right
        int lvl = base + (int)lrintf(3.0f - 7.0f * u * u);
        for (int y = y0; y < y1; y++)
            put(p, x, y, shade(ramp, lvl));
    }
}

static void outline(pic_t *p, const pic_t *before, int color)
{
    // darken background pixels next to what was just drawn (changed from `before`)
    for (int y = 0; y < p->h; y++)
        for (int x = 0; x < p->w; x++) {
            if (p->px[y * p->w + x] != before->px[y * p->w + x])
                continue;
            int near = 0;
            for (int d = 0; d < 4; d++) {
                int nx = x + (d == 0) - (d == 1), ny = y + (d == 2) - (d == 3);
                if (nx >= 0 && ny >= 0 && nx < p->w && ny < p->h &&
                    p->px[ny * p->w + nx] != before->px[ny * p->w + nx])
                    near = 1;
            }
            if (near)
                p->px[y * p->w + x] = (uint8_t)color;
        }
}

static void draw_shells(pic_t *p, int ramp)
{
    (void)ramp;
    for (int i = 0; i < 2; i++) {
        int x0 = 5 + i * 8;
        cylinder(p, x0, 5, x0 + 6, 16, GP_RED, 9);
        cylinder(p, x0, 16, x0 + 6, 20, GP_YELLOW, 10);   // brass base
        for (int x = x0 + 1; x < x0 + 5; x++)
            put(p, x, 4, shade(GP_RED, 8));                // crimped top
        fill(p, x0, 16, x0 + 6, 17, GP(GP_YELLOW, 13));
    }
}

static void draw_nails(pic_t *p, int ramp)
{
    (void)ramp;
    for (int i = 0; i < 4; i++) {
        int x0 = 4 + i * 4, y0 = 4 + (i & 1) * 2;
        for (int k = 0; k < 13; k++) {           // shaft, slanted, pointed at the bottom
            int x = x0 + k / 4, y = y0 + k;
            put(p, x, y, GP(GP_GREY, 12 - k / 4));
            if (k < 11)
                put(p, x + 1, y, GP(GP_GREY, 8 - k / 4));
        }
        fill(p, x0 - 1, y0, x0 + 3, y0 + 1, GP(GP_GREY, 13));   // head
    }
}

static void draw_rocket(pic_t *p, int ramp)
{
    (void)ramp;
    cylinder(p, 9, 8, 15, 18, GP_GREY, 9);
    for (int y = 2; y < 8; y++) {                // red nose cone
        int half = (y - 2) / 2;
        for (int x = 12 - half - 1; x <= 12 + half; x++)
            put(p, x, y, shade(GP_RED, 12 - (x - 11) - (y == 2)));
    }
    for (int y = 15; y < 21; y++) {              // fins
        int out = (y - 15) / 2 + 1;
        fill(p, 9 - out, y, 9, y + 1, GP(GP_RED, 7));
        fill(p, 15, y, 15 + out, y + 1, GP(GP_RED, 5));
    }
    fill(p, 10, 18, 14, 21, GP(GP_GREY, 4));     // nozzle
    put(p, 11, 21, GP_FULLBRIGHT_START + 10);
    put(p, 12, 21, GP_FULLBRIGHT_START + 13);
}

static void draw_cells(pic_t *p, int ramp)
{
    (void)ramp;
    cylinder(p, 5, 6, 19, 20, GP_BLUEGREY, 9);
    fill(p, 7, 4, 10, 6, GP(GP_GREY, 10));       // terminals
    fill(p, 14, 4, 17, 6, GP(GP_GREY, 10));
    // a fullbright lightning bolt
    static const int bolt[][2] = { { 13, 7 }, { 12, 8 }, { 12, 9 }, { 11, 10 }, { 10, 11 }, { 11, 11 }, { 12, 11 },
                                   { 13, 11 }, { 12, 12 }, { 12, 13 }, { 11, 14 }, { 11, 15 }, { 10, 16 },
                                   { 10, 17 }, { 13, 8 }, { 11, 12 } };
    for (size_t i = 0; i < sizeof bolt / sizeof bolt[0]; i++)
        put(p, bolt[i][0], bolt[i][1], 250);
}

// An armor vest: shoulders, a V neck, a plated body.
static void draw_armor(pic_t *p, int ramp)
{
    for (int y = 3; y < 22; y++)
        for (int x = 3; x < 21; x++) {
            float u = x + 0.5f - 12;
            int inside = fabsf(u) <= (y < 7 ? 8.5f : y < 11 ? 7.0f : 6.5f);
            if (y < 10 && fabsf(u) < (10 - y) * 0.9f)   // the neck
                inside = 0;
            if (y < 6 && fabsf(u) > 5.5f && fabsf(u) < 7.0f)
                inside = 1;
            if (!inside)
                continue;
            int lvl = 11 - (int)(fabsf(u) * 0.5f) - (y - 3) / 5;
            if ((y - 3) % 6 == 5)
                lvl -= 3;                                  // plate seams
            if (fabsf(u) < 0.6f && y > 10)
                lvl -= 2;                                  // centre seam
            put(p, x, y, shade(ramp, lvl));
        }
    put(p, 8, 14, GP(GP_GREY, 13));
    put(p, 15, 14, GP(GP_GREY, 13));
    put(p, 8, 19, GP(GP_GREY, 13));
    put(p, 15, 19, GP(GP_GREY, 13));
}

// The shotgun of the inventory bar (24x16): stock left, barrel right.
static void draw_inv_shotgun(pic_t *p)
{
    fill(p, 2, 7, 9, 10, GP(GP_BROWN, 9));       // stock
    fill(p, 3, 10, 8, 12, GP(GP_BROWN, 6));
    fill(p, 9, 6, 14, 10, GP(GP_GREY, 8));       // receiver
    fill(p, 9, 9, 14, 10, GP(GP_GREY, 5));
    fill(p, 14, 6, 23, 8, GP(GP_GREY, 11));      // barrel
    fill(p, 14, 7, 23, 8, GP(GP_GREY, 7));
    fill(p, 14, 8, 20, 9, GP(GP_BROWN, 7));      // fore-end
    put(p, 11, 11, GP(GP_GREY, 6));              // trigger
}

// ---- faces ----------------------------------------------------------------------------

// A face on the face slot: hurt = 0 (fine) .. 4 (nearly dead); pain: flinching.
static void draw_face(pic_t *p, int hurt, int pain)
{
    int skin = hurt >= 3 ? 1 : 0;   // paler when badly hurt
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < 24; x++) {
            float dx = (x + 0.5f - 12) / 8.0f, dy = (y + 0.5f - 12.5f) / 10.5f;
            float d = dx * dx + dy * dy;
            if (d > 1)
                continue;
            float lit = -dx * 0.6f - dy * 0.3f + (1 - d) * 0.6f;
            int lvl = 8 + (int)lrintf(lit * 4) - skin;
            if (y < 6 || (y < 9 && d > 0.55f))
                put(p, x, y, shade(GP_BROWN, 3 + (int)lrintf(lit * 2) + ((x * 7 + y * 3) % 5 == 0)));   // hair
            else
                put(p, x, y, shade(GP_SKIN, lvl));
        }
    // brows, eyes, nose, mouth
    int eye_y = 11;
    for (int s = 0; s < 2; s++) {
        int ex = s ? 14 : 7;
        int shut = pain || (hurt >= 4) || (hurt >= 2 && s == 0);
        fill(p, ex - 1, eye_y - 2, ex + 3, eye_y - 1, GP(GP_BROWN, 2));   // brow
        if (pain)
            put(p, s ? ex - 1 : ex + 2, eye_y - 3, GP(GP_BROWN, 2));        // brows pinched
        if (shut) {
            fill(p, ex - 1, eye_y, ex + 3, eye_y + 1, GP(GP_SKIN, 3));
        } else {
            fill(p, ex - 1, eye_y, ex + 3, eye_y + 2, GP(GP_GREY, 13));
            fill(p, ex + (s ? 0 : 1), eye_y, ex + (s ? 2 : 3), eye_y + 2, GP(GP_BLUE, 5));
            put(p, ex + (s ? 0 : 1), eye_y, GP(GP_GREY, 1));
        }
    }
    fill(p, 11, 12, 13, 16, GP(GP_SKIN, 6));     // nose shadow
    put(p, 13, 15, GP(GP_SKIN, 4));
    if (pain || hurt >= 4) {                     // mouth open
        fill(p, 9, 17, 15, 20, GP(GP_RED, 2));
        fill(p, 10, 17, 14, 18, GP(GP_GREY, 12));
    } else if (hurt >= 2) {                      // grimace
        fill(p, 9, 18, 15, 19, GP(GP_RED, 4));
        put(p, 8, 19, GP(GP_RED, 4));
        put(p, 15, 19, GP(GP_RED, 4));
    } else {                                     // a straight, set mouth
        fill(p, 9, 18, 15, 19, GP(GP_RED, 5));
        fill(p, 10, 19, 14, 20, GP(GP_SKIN, 6));
    }
    // damage: a bruise, then cuts and blood
    if (hurt >= 1) {
        fill(p, 16, 14, 19, 16, GP(GP_PURPLE, 6));
        put(p, 17, 13, GP(GP_PURPLE, 7));
    }
    if (hurt >= 2) {
        for (int k = 0; k < 5; k++)
            put(p, 6 + k, 5 + k / 2, GP(GP_RED, 6));   // a cut on the forehead
        for (int y = 8; y < 8 + hurt * 2; y++)
            put(p, 8, y, GP(GP_RED, 8 - (y > 12)));   // blood running down
    }
    if (hurt >= 3) {
        fill(p, 15, 6, 18, 8, GP(GP_RED, 7));
        for (int y = 8; y < 19; y++)
            put(p, 17 + (y > 14), y, GP(GP_RED, 7));
        put(p, 5, 15, GP(GP_RED, 5));
        put(p, 6, 16, GP(GP_RED, 6));
    }
    if (hurt >= 4) {
        fill(p, 4, 17, 8, 21, GP(GP_RED, 5));
        fill(p, 13, 20, 18, 22, GP(GP_RED, 6));
        put(p, 10, 21, GP(GP_RED, 8));
    }
}

// ---- the WAD ------------------------------------------------------------------------------

#define MAX_LUMPS 64

typedef struct {
    char name[16];
    uint8_t type;
    uint8_t *data;
    size_t size;
} lump_t;

typedef struct {
    lump_t l[MAX_LUMPS];
    int n;
} wadb_t;

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static int wad_add(wadb_t *w, const char *name, uint8_t type, const uint8_t *data, size_t size, int qpic_w,
                   int qpic_h)
{
    if (w->n >= MAX_LUMPS || strlen(name) >= 16) {
        fprintf(stderr, "mkbuiltin: gfx.wad: cannot add lump %s\n", name);
        return -1;
    }
    lump_t *l = &w->l[w->n];
    size_t head = qpic_w ? 8 : 0;
    l->data = malloc(head + size);
    if (!l->data) {
        fprintf(stderr, "mkbuiltin: out of memory for lump %s\n", name);
        return -1;
    }
    if (head) {
        put32(l->data, (uint32_t)qpic_w);
        put32(l->data + 4, (uint32_t)qpic_h);
    }
    memcpy(l->data + head, data, size);
    memset(l->name, 0, sizeof l->name);
    memcpy(l->name, name, strlen(name));
    l->type = type;
    l->size = head + size;
    w->n++;
    return 0;
}

static int wad_pic(wadb_t *w, const char *name, const pic_t *p)
{
    return wad_add(w, name, 0x42, p->px, (size_t)p->w * (size_t)p->h, p->w, p->h);
}

// Lumps at 4-byte aligned offsets after the header, the directory after them.
static int wad_write(const wadb_t *w, const char *outdir)
{
    size_t size = 12;
    for (int i = 0; i < w->n; i++)
        size += (w->l[i].size + 3) & ~(size_t)3;
    size_t dirofs = size;
    size += (size_t)w->n * 32;
    uint8_t *b = calloc(size, 1);
    if (!b) {
        fprintf(stderr, "mkbuiltin: out of memory for gfx.wad\n");
        return -1;
    }
    memcpy(b, "WAD2", 4);
    put32(b + 4, (uint32_t)w->n);
    put32(b + 8, (uint32_t)dirofs);
    size_t at = 12;
    for (int i = 0; i < w->n; i++) {
        const lump_t *l = &w->l[i];
        memcpy(b + at, l->data, l->size);
        uint8_t *e = b + dirofs + (size_t)i * 32;
        put32(e, (uint32_t)at);
        put32(e + 4, (uint32_t)l->size);   // disk size
        put32(e + 8, (uint32_t)l->size);   // size in memory (no compression)
        e[12] = l->type;
        memcpy(e + 16, l->name, 16);
        at += (l->size + 3) & ~(size_t)3;
    }
    int rc = gen_write(outdir, "gfx.wad", b, size);
    free(b);
    return rc;
}

static void wad_free(wadb_t *w)
{
    for (int i = 0; i < w->n; i++)
        free(w->l[i].data);
    w->n = 0;
}

// ---- everything -----------------------------------------------------------------------------

static int add_digits(wadb_t *w)
{
    static const char *const extra[3] = { "minus", "colon", "slash" };
    for (int set = 0; set < 2; set++)
        for (int g = 0; g < 13; g++) {
            if (set && g > 10)
                break;   // Quake has no red colon or slash
            char name[16];
            if (g < 10)
                snprintf(name, sizeof name, "%s_%d", set ? "anum" : "num", g);
            else
                snprintf(name, sizeof name, "%s_%s", set ? "anum" : "num", extra[g - 10]);
            pic_t p;
            if (make_digit(&p, g, set ? GP_RED : GP_GOLD) < 0)
                return -1;
            int rc = wad_pic(w, name, &p);
            pic_free(&p);
            if (rc < 0)
                return -1;
        }
    return 0;
}

// A 24x24 icon drawn over the bar's slot at (sx, 0), outlined in dark.
static int add_icon(wadb_t *w, const char *name, const pic_t *bar, int sx, void (*draw)(pic_t *, int), int ramp)
{
    pic_t p, before;
    if (pic_new(&p, 24, 24, 0) < 0)
        return -1;
    if (pic_new(&before, 24, 24, 0) < 0) {
        pic_free(&p);
        return -1;
    }
    blit_from(&p, bar, sx, 0);
    memcpy(before.px, p.px, 24 * 24);
    draw(&p, ramp);
    outline(&p, &before, GP(GP_BROWN, 0));
    int rc = wad_pic(w, name, &p);
    pic_free(&p);
    pic_free(&before);
    return rc;
}

static int add_faces(wadb_t *w, const pic_t *bar)
{
    for (int pain = 0; pain < 2; pain++)
        for (int i = 1; i <= 5; i++) {
            pic_t p;
            if (pic_new(&p, 24, 24, 0) < 0)
                return -1;
            blit_from(&p, bar, 112, 0);
            draw_face(&p, i - 1, pain);
            char name[16];
            snprintf(name, sizeof name, pain ? "face_p%d" : "face%d", i);
            int rc = wad_pic(w, name, &p);
            pic_free(&p);
            if (rc < 0)
                return -1;
        }
    return 0;
}

// The shotgun's inventory pictures: owned, selected (inv2_) and the five pickup flashes.
static int add_inventory(wadb_t *w, const pic_t *ibar)
{
    static const char *const prefix[7] = { "inv_", "inv2_", "inva1_", "inva2_", "inva3_", "inva4_", "inva5_" };
    for (int k = 0; k < 7; k++) {
        pic_t p;
        if (pic_new(&p, 24, 16, 0) < 0)
            return -1;
        blit_from(&p, ibar, 0, 8);
        if (k == 1) {
            bevel(&p, 0, 0, 24, 16, GP_GOLD, 13, 9, 1);   // the selected weapon: a gold frame
        } else if (k >= 2) {
            // flashes: the slot lit up, fading over the five pictures
            int lvl = 14 - (k - 2) * 2;
            for (int y = 1; y < 15; y++)
                for (int x = 1; x < 23; x++)
                    put(&p, x, y, shade(GP_TAN, lvl - (y + x) % 3));
        }
        draw_inv_shotgun(&p);
        char name[16];
        snprintf(name, sizeof name, "%sshotgun", prefix[k]);
        int rc = wad_pic(w, name, &p);
        pic_free(&p);
        if (rc < 0)
            return -1;
    }
    return 0;
}

int gen_pics(const char *outdir, const uint8_t palette[768], const uint8_t colormap[64 * 256])
{
    if (gen_write(outdir, "gfx/palette.lmp", palette, 768) < 0)
        return -1;
    // Quake's colormap.lmp has one byte after its 64 rows (id's tool stored the
    // count of fullbright colours there); engines read only the rows.
    uint8_t *cm = malloc(64 * 256 + 1);
    if (!cm) {
        fprintf(stderr, "mkbuiltin: out of memory for the colormap\n");
        return -1;
    }
    memcpy(cm, colormap, 64 * 256);
    cm[64 * 256] = 256 - GP_FULLBRIGHT_START;
    int cm_rc = gen_write(outdir, "gfx/colormap.lmp", cm, 64 * 256 + 1);
    free(cm);
    if (cm_rc < 0)
        return -1;

    wadb_t w;
    w.n = 0;
    pic_t font = { 0 }, sbar = { 0 }, ibar = { 0 }, score = { 0 }, tile = { 0 };
    int rc = -1;
    if (make_conchars(&font) < 0 || make_sbar(&sbar) < 0 || make_ibar(&ibar) < 0 || make_scorebar(&score) < 0 ||
        make_backtile(&tile) < 0)
        goto done;
    if (wad_add(&w, "conchars", 0x44, font.px, 128 * 128, 0, 0) < 0 || add_digits(&w) < 0 ||
        wad_pic(&w, "sbar", &sbar) < 0 || wad_pic(&w, "ibar", &ibar) < 0 || wad_pic(&w, "scorebar", &score) < 0 ||
        wad_pic(&w, "backtile", &tile) < 0)
        goto done;
    if (add_icon(&w, "sb_shells", &sbar, 224, draw_shells, 0) < 0 ||
        add_icon(&w, "sb_nails", &sbar, 224, draw_nails, 0) < 0 ||
        add_icon(&w, "sb_rocket", &sbar, 224, draw_rocket, 0) < 0 ||
        add_icon(&w, "sb_cells", &sbar, 224, draw_cells, 0) < 0 ||
        add_icon(&w, "sb_armor1", &sbar, 0, draw_armor, GP_GREEN) < 0 ||
        add_icon(&w, "sb_armor2", &sbar, 0, draw_armor, GP_YELLOW) < 0 ||
        add_icon(&w, "sb_armor3", &sbar, 0, draw_armor, GP_RED) < 0)
        goto done;
    if (add_faces(&w, &sbar) < 0 || add_inventory(&w, &ibar) < 0)
        goto done;
    rc = wad_write(&w, outdir);
done:
    wad_free(&w);
    pic_free(&font);
    pic_free(&sbar);
    pic_free(&ibar);
    pic_free(&score);
    pic_free(&tile);
    return rc;
}
