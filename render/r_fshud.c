// r_fshud.c -- Forsaken's 2D: the panel (shield, hull, weapons) of the viewed pilot, the message lines, the score list and table
//
// Facts from the game's released source (ForsakenW/forsaken: ProjectX/Text.c, Text.h,
// Mydplay.h, Oct2.c; ForsakenX/forsaken oct2.c for the watch mode), docs/forsaken.md "HUD":
//
// - Text is blitted from a font page, FONT.BMP (4x5 cells) below a 512x384 screen and
//   FONT512.BMP (8x8) from there up, black the colour key. A page holds eight colour blocks
//   of three rows of 16 cells (white, red, green, blue, yellow, cyan, purple, pale green;
//   colour 8, dark grey, is block 6 moved 16 cells right). Cell 0 is blank, '0'..'9' are
//   1..10, letters 11..36 (either case), then . , ; [( ]) * / + - = ' ; every other byte
//   draws nothing but still moves on a cell (Text.c's CharTrans, InitFont).
// - The column of cells from 16 on holds the weapon names (primaries rows 0..5, secondaries
//   from row 6), "SHLD" and "HULL" at cell 28 of rows 0 and 1, the power-pod labels at cell
//   25 of rows 7 + level (Oct2.c's full-screen panel). The names' lengths (the game's
//   PrimaryLengths / SecondaryLengths, not read) are measured on the page at load.
// - The panel (Oct2.c, "Full Screen Minimum Stats"): SHLD at (FW, H-(2FH+4)) and HULL at
//   (FW, H-(FH+2)), their numbers 6 cells in, green; their bars from PANEL.BMP (0,24), a
//   quarter of the value wide and 3 high, 10 cells in; the primary above the secondary at
//   the right, ending 6 cells from the edge; the power pods centred on the bottom row; the
//   crosshair, PANEL.BMP's 16x16 corner, at the centre. Watch mode (ForsakenX): "Invulnerable",
//   "Golden Power Pod", "Stealth" above the panel for the ship watched.
// - Messages (Text.c MessageQuePrint, AddMessageToQue): a ring of four, the newest three
//   centred at y = row x (FH+1) + 16 in green, the newest on the last row; a message is cut
//   at spaces into lines of at most 62 (MAXPERLINE), each kept 480 ticks (MAXMESSAGETIME, 71
//   ticks a second) x its length / 62, at least a quarter of that; a line goes only once the
//   one before it has gone.
// - The score list (PrintScoreSort), drawn always: by kills down, then deaths up; the name at
//   (8, n x (FH+1) + FH), white for the pilot whose eyes these are and red for the others, the
//   kills 8 cells on in green. Team games list the teams (Red, Green, Blue, Yellow, each in its
//   colour: TeamCol) with the sum of their members' kills, the pilot's team flashing white
//   every 15 ticks (FLASH_RATE). In demo playback the game printed the pilot's name at the top
//   right (W - 9 FW, FH) in white.
//
// Not the game's (said in docs/forsaken.md): the game drew no panel while playing a demo
// (`Panel && !PlayDemo`); the kill and chat wordings; the score table (the game's end-of-level
// screen is a 3D room) is drawn here in the panel's font, centred.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/bmp8.h"
#include "../assets/pal.h"
#include "../engine/log.h"
#include "../engine/world_fs.h"
#include "r_2d_local.h"

enum { FS_PIC_FONT, FS_PIC_FONT512, FS_PIC_PANEL, FS_NUM_PICS };
static const char *const fs_pic_files[FS_NUM_PICS] = {
    "pictures/font.bmp", "pictures/font512.bmp", "pictures/panel.bmp",
};
static const char *const fs_slots[FS_NUM_PICS] = { NULL, NULL, NULL };   // fs_load reads them (RLE8 BMPs)

#define FS_TICKS 71.0              // the game's ticks a second (framelag units)
#define FS_MSG_TICKS 480.0         // MAXMESSAGETIME
#define FS_PERLINE 62              // MAXPERLINE
#define FS_FLASH_TICKS 15.0        // FLASH_RATE
#define FS_TRANSPARENT 255
#define FS_NAME_CHARS 8            // SHORTNAMETYPE: 8 characters a name

// Text.c's Colourtrans order: the font page's colour blocks
enum { COL_WHITE, COL_RED, COL_GREEN, COL_BLUE, COL_YELLOW, COL_CYAN, COL_PURPLE, COL_PALEGREEN, COL_GREY };

static const char *const team_names[4] = { "Red", "Green", "Blue", "Yellow" };

// ---- loading ----------------------------------------------------------------

// The picture in the level's palette: black (the colour key) -> 255, every other colour
// its nearest among 0..254.
static int load_bmp(wad_pic_t *p, vfs_t *fs, const char *path, const uint8_t *pal)
{
    size_t size = 0;
    uint8_t *bytes = vfs_load(fs, path, &size);
    if (!bytes)
        return -1;
    bmp8_t b;
    char err[160];
    int rc = bmp8_load(&b, bytes, size, 1024, err, sizeof err);
    free(bytes);
    if (rc < 0) {
        log_warn("%s: %s", path, err);
        return -1;
    }
    uint8_t map[256];
    for (int i = 0; i < 256; i++) {
        const uint8_t *c = b.palette + i * 3;
        map[i] = (c[0] | c[1] | c[2]) ? (uint8_t)pal_nearest(pal, 255, c[0], c[1], c[2]) : FS_TRANSPARENT;
    }
    size_t n = (size_t)b.width * (size_t)b.height;
    for (size_t i = 0; i < n; i++)
        b.pixels[i] = map[b.pixels[i]];
    memset(p, 0, sizeof(*p));
    p->width = b.width;
    p->height = b.height;
    p->pixels = b.pixels;   // the picture owns them now (wad_pic_free)
    return 0;
}

static const int font_w[2] = { 4, 8 }, font_h[2] = { 5, 8 };

// A cell of the page with something drawn in it.
static int cell_used(const wad_pic_t *p, int fw, int fh, int cx, int row)
{
    for (int y = row * fh; y < (row + 1) * fh && y < p->height; y++)
        for (int x = cx * fw; x < (cx + 1) * fw && x < p->width; x++)
            if (p->pixels[(size_t)y * (size_t)p->width + (size_t)x] != FS_TRANSPARENT)
                return 1;
    return 0;
}

// How many cells each weapon name in column 16 takes: up to its last drawn cell before
// the labels further right (SHLD/HULL at 28, the power labels at 25 on rows 7..13).
static void measure_names(r_2d_t *d, int f)
{
    const wad_pic_t *p = &d->pics[FS_PIC_FONT + f];
    memset(d->fsfont.name_cells[f], 0, sizeof d->fsfont.name_cells[f]);
    if (!p->pixels)
        return;
    for (int row = 0; row < 32; row++) {
        int end = row >= 7 && row <= 13 ? 25 : 28, len = 0;
        for (int c = 16; c < end; c++)
            if (cell_used(p, font_w[f], font_h[f], c, row))
                len = c - 16 + 1;
        d->fsfont.name_cells[f][row] = (uint8_t)len;
    }
}

static int fs_load(r_2d_t *d, vfs_t *fs)
{
    int loaded = 0;
    for (int i = 0; i < FS_NUM_PICS; i++)
        if (load_bmp(&d->pics[i], fs, fs_pic_files[i], d->palette) == 0)
            loaded++;
        else
            log_warn("%s: missing or bad; Forsaken's %s is not drawn", fs_pic_files[i],
                     i == FS_PIC_PANEL ? "panel's bars and crosshair" : "text in this size");
    measure_names(d, 0);
    measure_names(d, 1);
    memset(&d->fsmsg, 0, sizeof d->fsmsg);
    return loaded;
}

// ---- the message queue ----------------------------------------------------------

static void add_line(r_2d_t *d, const char *s, size_t n, double t, double life)
{
    r_2d_fsmsg_t *m = &d->fsmsg;
    int k = m->count % R2D_FS_MSGS;
    if (n > R2D_FS_LINE - 1)
        n = R2D_FS_LINE - 1;
    memcpy(m->text[k], s, n);
    m->text[k][n] = 0;
    m->start[k] = t;
    m->life[k] = life;
    m->count++;
}

// AddMessageToQue: the whole message's time, then lines of at most MAXPERLINE cut at a space
// (a line without one is dropped, as the game drops it).
static void add_message(r_2d_t *d, const char *text, double t)
{
    size_t len = strlen(text);
    double ticks = FS_MSG_TICKS * (double)len / FS_PERLINE;
    if (ticks < FS_MSG_TICKS * 0.25)
        ticks = FS_MSG_TICKS * 0.25;
    double life = ticks / FS_TICKS;
    const char *p = text;
    while (*p) {
        size_t n = strlen(p);
        if (n <= FS_PERLINE) {
            add_line(d, p, n, t, life);
            return;
        }
        size_t cut = FS_PERLINE;   // the last space within the line's first MAXPERLINE characters
        while (cut > 0 && p[cut - 1] != ' ')
            cut--;
        if (cut == 0)
            return;
        add_line(d, p, cut - 1, t, life);
        p += cut;
    }
}

// A player's name as the game held it: at most 8 characters.
static void short_name(const world_t *w, int p, char *out)
{
    const char *s = p >= 0 && p < WORLD_MAX_PLAYERS ? w->players[p].name : "";
    size_t n = strnlen(s, FS_NAME_CHARS);
    memcpy(out, s, n);
    out[n] = 0;
    if (!n)
        snprintf(out, FS_NAME_CHARS + 1, "%s", "player");
}

// The game's death methods (LT_DEATHMETHOD_*, English), by weapon type (0 primary, 1 secondary).
static const char *death_method(int type, int weapon)
{
    static const char *const prim[FSW_NUM_PRIMARY] = { "pulsars", "trojax", "pyrolite", "transpulse",
                                                       "suss-gun", "lasers", "an orbitor" };
    static const char *const sec[FSW_NUM_SECONDARY] = { "a mug", "a solaris", "a theif missile", "a scatter",
                                                        "a gravgon", "the mfrl", "a titan", "a purge mine",
                                                        "a pine mine", "a quantum mine", "a spider mine",
                                                        "a pine mine missile", "titan shrapnel" };
    if (type == 0 && weapon >= 0 && weapon < FSW_NUM_PRIMARY)
        return prim[weapon];
    if (type == 1 && weapon >= 0 && weapon < FSW_NUM_SECONDARY)
        return sec[weapon];
    return NULL;
}

static void fs_frame(r_2d_t *d, const world_t *w)
{
    for (int i = 0; i < w->num_events; i++) {
        const world_event_t *ev = &w->events[i];
        char buf[256], a[FS_NAME_CHARS + 1], b[FS_NAME_CHARS + 1];
        switch (ev->type) {
        case EV_CHAT:
            short_name(w, ev->u.text.level, a);
            snprintf(buf, sizeof buf, "%s: %s", a, world_event_text(w, ev));
            add_message(d, buf, w->time);
            break;
        case EV_PRINT:
        case EV_CENTERPRINT:
            add_message(d, world_event_text(w, ev), w->time);
            break;
        case EV_KILL: {
            const world_kill_event_t *k = &ev->u.kill;
            const char *how = death_method(k->weapon >> 8, k->weapon & 255);
            short_name(w, k->victim, b);
            if (k->killer == k->victim || k->killer < 0 || k->killer >= WORLD_MAX_PLAYERS)
                snprintf(buf, sizeof buf, "%s killed himself%s%s", b, how ? " with " : "", how ? how : "");
            else {
                short_name(w, k->killer, a);
                snprintf(buf, sizeof buf, "%s killed %s%s%s", a, b, how ? " with " : "", how ? how : "");
            }
            add_message(d, buf, w->time);
            break;
        }
        default:
            break;
        }
    }
}

// ---- drawing ------------------------------------------------------------------

typedef struct {
    r_2d_t *d;
    r_2d_canvas_t c;
    const wad_pic_t *font, *panel;
    int f;                    // 0 FONT.BMP, 1 FONT512.BMP
    int fw, fh;
} fs_hud_t;

// Rectangle (sx, sy, w, h) of p at virtual (x, y), 255 see-through, clipped to p and the frame.
static void blit(const r_2d_canvas_t *c, const wad_pic_t *p, int sx, int sy, int w, int h, int x, int y)
{
    if (!p || !p->pixels || !c->buf || w <= 0 || h <= 0)
        return;
    if (sx < 0) { w += sx; x -= sx; sx = 0; }
    if (sy < 0) { h += sy; y -= sy; sy = 0; }
    if (sx + w > p->width)
        w = p->width - sx;
    if (sy + h > p->height)
        h = p->height - sy;
    int s = c->scale;
    for (int j = 0; j < h; j++) {
        long ry = (long)c->oy + (long)(y + j) * s;
        if (ry + s <= 0 || ry >= c->height)
            continue;
        const uint8_t *src = p->pixels + (size_t)(sy + j) * (size_t)p->width + (size_t)sx;
        for (int i = 0; i < w; i++) {
            uint8_t v = src[i];
            if (v == FS_TRANSPARENT)
                continue;
            long rx = (long)c->ox + (long)(x + i) * s;
            if (rx + s <= 0 || rx >= c->width)
                continue;
            for (long yy = ry < 0 ? 0 : ry; yy < ry + s && yy < c->height; yy++) {
                uint8_t *row = c->buf + (size_t)yy * (size_t)c->rowbytes;
                for (long xx = rx < 0 ? 0 : rx; xx < rx + s && xx < c->width; xx++)
                    row[xx] = v;
            }
        }
    }
}

// Text.c's CharTrans: the cell of a byte (0: nothing drawn).
static int char_cell(unsigned char ch)
{
    if (ch >= '0' && ch <= '9')
        return 1 + (ch - '0');
    if (ch >= 'A' && ch <= 'Z')
        return 11 + (ch - 'A');
    if (ch >= 'a' && ch <= 'z')
        return 11 + (ch - 'a');
    static const char punct[] = ".,;[]*/+-='";
    static const int cells[] = { 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47 };
    if (ch == '(')
        return 40;
    if (ch == ')')
        return 41;
    for (int i = 0; punct[i]; i++)
        if ((unsigned char)punct[i] == ch)
            return cells[i];
    return 0;
}

// Print4x5Text: returns x after the text. At most `max` characters (<0: all).
static int text(const fs_hud_t *h, const char *s, int x, int y, int col, int max)
{
    if (col < 0 || col > COL_GREY)
        col = COL_GREEN;
    for (int n = 0; *s && (max < 0 || n < max); s++, n++, x += h->fw) {
        int cell = char_cell((unsigned char)*s);
        if (!cell)
            continue;
        int cx = cell & 15, cy = cell / 16;
        if (col < COL_GREY)
            cy += col * 3;
        else {
            cy += 6 * 3;
            cx += 16;
        }
        blit(&h->c, h->font, cx * h->fw, cy * h->fh, h->fw, h->fh, x, y);
    }
    return x;
}

static int text_len(const char *s, int max)
{
    int n = (int)strlen(s);
    return max >= 0 && n > max ? max : n;
}

// Printuint16: the last four digits, leading zeros left out.
static void number_u16(const fs_hud_t *h, unsigned v, int x, int y, int col)
{
    char buf[8];
    snprintf(buf, sizeof buf, "%u", (v & 0xffffu) % 10000u);
    text(h, buf, x, y, col, -1);
}

// Printint16 (sprintf "%hd"): a number the game kept in 16 bits.
static void number_s16(const fs_hud_t *h, long v, int x, int y, int col)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%d", (int)(int16_t)(uint16_t)(v & 0xffff));
    text(h, buf, x, y, col, -1);
}

// A piece of the font page (labels, weapon names): cells (cx, row) .. (cx + cells, row).
static void page_cells(const fs_hud_t *h, int cx, int row, int cells, int x, int y)
{
    blit(&h->c, h->font, cx * h->fw, row * h->fh, cells * h->fw, h->fh, x, y);
}

static int pilot_slot(const r_2d_t *d, const world_t *w)
{
    if (d->pilot >= 0)
        return d->pilot;
    return w->playernum >= 0 && w->playernum < WORLD_MAX_PLAYERS ? w->playernum : 0;
}

static void draw_panel(const fs_hud_t *h, const world_t *w, int p)
{
    int W = h->c.vw, H = h->c.vh, fw = h->fw, fh = h->fh;
    int ent = p + 1;
    const world_entity_t *e = ent < w->num_entities ? &w->entities[ent] : NULL;
    int live = e && e->seq == w->seq;
    uint32_t flags = live ? e->cur.raw_effects : 0;
    // crosshair at the centre of the view
    blit(&h->c, h->panel, 0, 0, 16, 16, W / 2 - 8, H / 2 - 8);
    // the trojax charge beside it: (charge / 100) x 9 rows of PANEL.BMP's 4-wide column, at
    // most 8, growing upwards from 4 below the centre (the charge from the last F update)
    int energy = live ? (int)(e->cur.frame * 0.01 * 9.0) : 0;
    if (energy > 8)
        energy = 8;
    if (energy > 0)
        blit(&h->c, h->panel, 0, 24 - energy, 4, energy, W / 2 - 16, H / 2 + 4 - energy);
    int y_shld = H - (2 * fh + 4), y_hull = H - (fh + 2);
    page_cells(h, 28, 0, 4, fw, y_shld);   // SHLD
    page_cells(h, 28, 1, 4, fw, y_hull);   // HULL
    const world_player_t *pl = &w->players[p];
    if (pl->shield >= 0) {
        int v = pl->shield > 255 ? 255 : pl->shield;
        blit(&h->c, h->panel, 0, 24, v / 4, 3, fw * 10, H - (2 * fh + 3));
        number_u16(h, (unsigned)v, fw * 6, y_shld, COL_GREEN);
    }
    if (pl->hull >= 0) {
        int v = pl->hull > 255 ? 255 : pl->hull;
        blit(&h->c, h->panel, 0, 24, v / 4, 3, fw * 10, H - (fh + 1));
        number_u16(h, (unsigned)v, fw * 6, y_hull, COL_GREEN);
    }
    if (!live)
        return;
    int prim = e->cur.body, sec = e->cur.sequence;
    if (prim >= 0 && prim < FSW_NUM_PRIMARY - 1) {   // the orbit pulsar is never the selected primary
        int n = h->d->fsfont.name_cells[h->f][prim];
        page_cells(h, 16, prim, n, W - fw * 6 - fw * n, y_shld);
    }
    if (sec >= 0 && 6 + sec < 32 && sec < FSW_NUM_SECONDARY) {
        int n = h->d->fsfont.name_cells[h->f][6 + sec];
        page_cells(h, 16, 6 + sec, n, W - fw * 6 - fw * n, y_hull);
    }
    int power = (int)((flags >> 4) & 3);   // SHIP_PowerLevel bits 4-5
    page_cells(h, 32 - 7, 7 + power, 7, W / 2 - fw * 7 / 2, y_hull);
    // the watch mode's words for the ship watched
    if (flags & FSW_SHIP_INVUL)
        text(h, "Invulnerable", fw, H - (fh * 4 + 8), COL_GREEN, -1);
    if (flags & (1u << 21))   // SHIP_SuperNashram
        text(h, "Golden Power Pod", fw, H - (fh * 5 + 10), COL_GREEN, -1);
    if (flags & FSW_SHIP_STEALTH)
        text(h, "Stealth", fw, H - (fh * 6 + 12), COL_GREEN, -1);
}

// The newest three lines of the ring; a line is cleared once its time is up and the line
// before it has gone (MessageQuePrint), the fourth newest goes when a line arrives.
static void draw_messages(const fs_hud_t *h, double t)
{
    const r_2d_fsmsg_t *m = &h->d->fsmsg;
    if (m->count <= 0)
        return;
    int newest = m->count - 1;
    int oldest = m->count - R2D_FS_MSGS > 0 ? m->count - R2D_FS_MSGS : 0;
    double gone = -1e300;   // when the line before went
    double gone_at[R2D_FS_MSGS];
    for (int i = oldest; i <= newest; i++) {
        int k = i % R2D_FS_MSGS;
        double g = m->start[k] + m->life[k];
        if (g < gone)
            g = gone;
        if (i + 3 <= newest) {   // pushed out by the third line after it
            double pushed = m->start[(i + 3) % R2D_FS_MSGS];
            if (pushed < g)
                g = pushed;
        }
        gone_at[k] = g;
        gone = g;
    }
    for (int row = 0; row < 3; row++) {
        int i = newest - 2 + row;
        if (i < oldest)
            continue;
        int k = i % R2D_FS_MSGS;
        if (t < m->start[k] || t >= gone_at[k] || !m->text[k][0])
            continue;
        int n = text_len(m->text[k], -1);
        int x = h->c.vw / 2 - n * (h->fw / 2);
        text(h, m->text[k], x, row * (h->fh + 1) + 16, COL_GREEN, -1);
    }
}

typedef struct {
    int slot;
    int kills, deaths;
} fs_score_t;

// ScoreSort: kills down, then deaths up (then slot, so the order is the same every time).
static int score_cmp(const void *a, const void *b)
{
    const fs_score_t *x = a, *y = b;
    if (x->kills != y->kills)
        return x->kills > y->kills ? -1 : 1;
    if (x->deaths != y->deaths)
        return x->deaths < y->deaths ? -1 : 1;
    return x->slot - y->slot;
}

static int16_t clamp16(int32_t v) { return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }

static int sorted_scores(const world_t *w, fs_score_t *out)
{
    int n = 0;
    for (int i = 0; i < FSW_SHIPS - 1 && i < WORLD_MAX_PLAYERS; i++)
        if (w->players[i].active)
            out[n++] = (fs_score_t){ i, clamp16(w->players[i].frags), clamp16(w->players[i].deaths) };
    qsort(out, (size_t)n, sizeof(*out), score_cmp);
    return n;
}

// Team scores (the sum of the members' kills, as PrintScoreSort adds them); returns how many
// teams have members, 0 when fewer than two (not a team game).
static int team_scores(const world_t *w, int score[4], int has[4])
{
    memset(score, 0, 4 * sizeof(int));
    memset(has, 0, 4 * sizeof(int));
    for (int i = 0; i < FSW_SHIPS - 1 && i < WORLD_MAX_PLAYERS; i++) {
        const world_player_t *pl = &w->players[i];
        if (pl->active && pl->team >= 0 && pl->team < 4) {
            score[pl->team] = clamp16(score[pl->team] + clamp16(pl->frags));
            has[pl->team] = 1;
        }
    }
    int teams = has[0] + has[1] + has[2] + has[3];
    return teams >= 2 ? teams : 0;
}

static void draw_score_list(const fs_hud_t *h, const world_t *w, int pilot, double t)
{
    int fw = h->fw, fh = h->fh;
    int score[4], has[4];
    if (team_scores(w, score, has)) {
        int flash = (long long)(t * FS_TICKS / FS_FLASH_TICKS) & 1;
        int mine = w->players[pilot].team;
        int pos = 0;
        for (int i = 0; i < 4; i++) {
            if (!has[i])
                continue;
            int col = (mine == i && flash) ? COL_WHITE : i + 1;
            int y = pos * (fh + 1) + fh;
            text(h, team_names[i], 8, y, col, -1);
            number_s16(h, score[i], 8 + 7 * fw, y, col);
            pos++;
        }
        return;
    }
    fs_score_t s[WORLD_MAX_PLAYERS];
    int n = sorted_scores(w, s);
    for (int i = 0; i < n; i++) {
        int y = i * (fh + 1) + fh;
        char name[FS_NAME_CHARS + 1];
        short_name(w, s[i].slot, name);
        text(h, name, 8, y, s[i].slot == pilot ? COL_WHITE : COL_RED, -1);
        number_s16(h, s[i].kills, 8 + 8 * fw, y, COL_GREEN);
    }
}

// The score table (on request, and when the demo is over): names, kills, deaths and the
// team scores, centred; ours, in the game's font and colours.
static void draw_score_table(const fs_hud_t *h, const world_t *w, int pilot)
{
    int fw = h->fw, fh = h->fh;
    fs_score_t s[WORLD_MAX_PLAYERS];
    int n = sorted_scores(w, s);
    int score[4], has[4];
    int teams = team_scores(w, score, has);
    int cols = 24;   // name 8, a gap, kills 6, deaths 6
    int rows = 2 + n + (teams ? teams + 1 : 0);
    int x0 = h->c.vw / 2 - cols * fw / 2, y = h->c.vh / 2 - rows * (fh + 2) / 2;
    if (y < 0)
        y = 0;
    text(h, "NAME", x0, y, COL_YELLOW, -1);
    text(h, "KILLS", x0 + 10 * fw, y, COL_YELLOW, -1);
    text(h, "DEATHS", x0 + 17 * fw, y, COL_YELLOW, -1);
    y += 2 * (fh + 2);
    for (int i = 0; i < n; i++, y += fh + 2) {
        char name[FS_NAME_CHARS + 1];
        short_name(w, s[i].slot, name);
        int team = w->players[s[i].slot].team;
        int col = s[i].slot == pilot ? COL_WHITE : teams && team >= 0 && team < 4 ? team + 1 : COL_RED;
        text(h, name, x0, y, col, -1);
        number_s16(h, s[i].kills, x0 + 10 * fw, y, COL_GREEN);
        number_s16(h, s[i].deaths, x0 + 17 * fw, y, COL_GREEN);
    }
    if (teams) {
        y += fh + 2;
        for (int i = 0; i < 4; i++) {
            if (!has[i])
                continue;
            text(h, team_names[i], x0, y, i + 1, -1);
            number_s16(h, score[i], x0 + 10 * fw, y, i + 1);
            y += fh + 2;
        }
    }
}

static void fs_draw_hud(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, double t)
{
    fs_hud_t h = { .d = d, .c = *c };
    // half the 2D scale, as the game drew 1:1 and has a font for screens from 512x384 up
    h.c.scale = c->scale >= 2 ? c->scale / 2 : 1;
    h.c.vw = c->width / h.c.scale;
    h.c.vh = c->height / h.c.scale;
    h.c.ox = (c->width - h.c.vw * h.c.scale) / 2;
    h.c.oy = c->height - h.c.vh * h.c.scale;
    h.f = h.c.vw >= 512 && h.c.vh >= 384 && d->pics[FS_PIC_FONT512].pixels ? 1 : 0;
    if (!h.f && !d->pics[FS_PIC_FONT].pixels && d->pics[FS_PIC_FONT512].pixels)
        h.f = 1;
    h.font = d->pics[FS_PIC_FONT + h.f].pixels ? &d->pics[FS_PIC_FONT + h.f] : NULL;
    h.panel = d->pics[FS_PIC_PANEL].pixels ? &d->pics[FS_PIC_PANEL] : NULL;
    h.fw = font_w[h.f];
    h.fh = font_h[h.f];
    int pilot = pilot_slot(d, w);
    // the panel: the recording pilot's, or the pilot a camera follows; a camera away from
    // every pilot (free, chase, path) has no panel and no pilot's name
    int in_cockpit = !d->hud_off || d->pilot >= 0;
    if (in_cockpit)
        draw_panel(&h, w, pilot);
    draw_score_list(&h, w, pilot, t);
    if (!d->notify_off)
        draw_messages(&h, t);
    char name[FS_NAME_CHARS + 1];
    if (in_cockpit && w->players[pilot].name[0]) {
        short_name(w, pilot, name);
        text(&h, name, h.c.vw - 9 * h.fw, h.fh, COL_WHITE, -1);
    }
    if (d->scores_on || w->view.intermission)
        draw_score_table(&h, w, pilot);
}

const r_2d_game_t r_2d_game_forsaken = {
    .game = GAME_FORSAKEN,
    .name = "forsaken",
    .conchars_slot = -1,
    .backtile_slot = -1,
    .pics = fs_slots,
    .num_pics = FS_NUM_PICS,
    .load = fs_load,
    .draw_hud = fs_draw_hud,
    .frame = fs_frame,
    .own_text = 1,
    .hud_always = 1,
};
