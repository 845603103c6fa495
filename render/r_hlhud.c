// r_hlhud.c -- Half-Life's HUD: health, armor and the current weapon's clip, from sprites/hud.txt pieces
//
// Placement and rules are those of Half-Life's client (facts from its released
// SDK): the numbers sit one and a half digit heights above the bottom, health
// at the left behind a cross, armor at a fifth of the width behind the suit
// (filled from the bottom by the armor value), the clip at the right. Health
// and armor are only shown once the player has the suit (bit 31 of the
// weapon bits, which the GoldSrc decoder puts in view.items).
//
// Half-Life draws these pieces additively, tinted orange-yellow (255,160,0)
// and dimmed to 100/255 except for a few seconds after a number changed. On
// the 8-bit palette each piece is kept as brightness levels (0 = nothing) and
// drawn through r_2d_t.tint: "this colour plus the tint at this level" ->
// nearest palette colour, a table built once at load.
//
// Half-Life picks the 640 pieces on screens at least 640 wide. Its HUD is
// drawn at half the 2D scale (at least 1), so a 640x480 frame shows the 640
// set 1:1 as Half-Life did and a 320x240 one the 320 set.
#include "r_hlhud.h"
#include "../assets/asset.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/pal.h"
#include "../assets/spr.h"
#include "../engine/log.h"
#include "r_2d_local.h"

#define HL_WEAPON_SUIT 31
#define HL_MIN_ALPHA 100          // the HUD's resting brightness
#define HL_FADE_TIME 5.0          // seconds a changed number takes to dim again
#define HL_MAX_FILE (1 << 20)     // hud.txt larger than this is not a layout

enum { TINT_YELLOWISH, TINT_REDISH };
static const int tint_rgb[R2D_TINTS][3] = { { 255, 160, 0 }, { 250, 0, 0 } };

// Pieces, by slot: [0, HP_COUNT) the 320 set, [HP_COUNT, 2 * HP_COUNT) the 640 set.
enum { HP_NUMBER = 0, HP_CROSS = 10, HP_SUIT_FULL, HP_SUIT_EMPTY, HP_COUNT };
static const char *const piece_names[HP_COUNT] = {
    "number_0", "number_1", "number_2", "number_3", "number_4", "number_5", "number_6", "number_7",
    "number_8", "number_9", "cross", "suit_full", "suit_empty",
};
static const int piece_res[2] = { 320, 640 };

// ---- hud.txt ----------------------------------------------------------------


typedef struct {
    const char *p;
    size_t len, pos;
} lex_t;

// The next whitespace-separated word (comments skipped) into buf; its offset in *at.
// Returns its length, 0 at the end, -1 when it does not fit in cap - 1.
static int word(lex_t *l, char *buf, size_t cap, size_t *at)
{
    for (;;) {
        while (l->pos < l->len && isspace((unsigned char)l->p[l->pos]))
            l->pos++;
        if (l->pos + 1 < l->len && l->p[l->pos] == '/' && l->p[l->pos + 1] == '/') {
            while (l->pos < l->len && l->p[l->pos] != '\n')
                l->pos++;
            continue;
        }
        break;
    }
    *at = l->pos;
    size_t n = 0;
    while (l->pos < l->len && !isspace((unsigned char)l->p[l->pos]) && l->p[l->pos]) {
        if (n + 1 >= cap)
            return -1;
        buf[n++] = l->p[l->pos++];
    }
    buf[n] = 0;
    return (int)n;
}

// A decimal integer in [lo, hi].
static int number(lex_t *l, const char *what, int lo, int hi, int *out, char *err, size_t cap)
{
    char buf[16];
    size_t at;
    int n = word(l, buf, sizeof buf, &at);
    char *end = NULL;
    long v = n > 0 ? strtol(buf, &end, 10) : 0;
    if (n <= 0 || *end || v < lo || v > hi)
        return asset_fail(err, cap, at, "expected %s %d..%d", what, lo, hi);
    *out = (int)v;
    return 0;
}

static int name(lex_t *l, const char *what, char *out, size_t *at_out, char *err, size_t cap)
{
    size_t at;
    int n = word(l, out, R_HLHUD_NAME, &at);
    if (at_out)
        *at_out = at;
    if (n <= 0)
        return asset_fail(err, cap, at, n < 0 ? "expected %s of at most %d characters" : "expected %s, found end of file",
                    what, R_HLHUD_NAME - 1);
    return 0;
}

int r_hlhud_parse(const char *text, size_t len, r_hlhud_entry_t *out, int max, char *err, size_t errcap)
{
    lex_t l = { text, len, 0 };
    int count;
    if (number(&l, "an entry count", 0, R_HLHUD_MAX_ENTRIES, &count, err, errcap) < 0)
        return -1;
    if (count > max)
        return asset_fail(err, errcap, 0, "expected at most %d entries, found %d", max, count);
    for (int i = 0; i < count; i++) {
        r_hlhud_entry_t *e = &out[i];
        if (name(&l, "an entry name", e->name, &e->offset, err, errcap) < 0 ||
            number(&l, "a screen width", 0, 100000, &e->res, err, errcap) < 0 ||
            name(&l, "a sprite name", e->sprite, NULL, err, errcap) < 0 ||
            number(&l, "x", 0, SPR_MAX_DIM, &e->x, err, errcap) < 0 ||
            number(&l, "y", 0, SPR_MAX_DIM, &e->y, err, errcap) < 0 ||
            number(&l, "a width", 1, SPR_MAX_DIM, &e->w, err, errcap) < 0 ||
            number(&l, "a height", 1, SPR_MAX_DIM, &e->h, err, errcap) < 0)
            return -1;
    }
    return count;
}

const r_hlhud_entry_t *r_hlhud_find(const r_hlhud_entry_t *e, int n, const char *nm, int res)
{
    for (int i = 0; i < n; i++)
        if (e[i].res == res && !strcmp(e[i].name, nm))
            return &e[i];
    return NULL;
}

// ---- loading ----------------------------------------------------------------

// tint[k][level][c]: colour c of the level palette plus tint k at level/31, nearest colour.
static void build_tints(r_2d_t *d)
{
    const uint8_t *pal = d->palette;
    pal_near_t near;
    pal_near_init(&near, pal, 255);
    for (int k = 0; k < R2D_TINTS; k++)
        for (int lv = 0; lv < R2D_TINT_LEVELS; lv++)
            for (int c = 0; c < 256; c++) {
                int rgb[3];
                for (int j = 0; j < 3; j++) {
                    int v = pal[c * 3 + j] + tint_rgb[k][j] * lv / (R2D_TINT_LEVELS - 1);
                    rgb[j] = v > 255 ? 255 : v;
                }
                // level 0 adds nothing: keep the colour itself
                d->tint[k][lv][c] = lv ? (uint8_t)pal_near(&near, rgb[0], rgb[1], rgb[2]) : (uint8_t)c;
            }
}

// Cut e's rectangle out of frame 0 of s as brightness levels (0 = transparent).
static int cut_piece(wad_pic_t *p, const spr_t *s, const uint8_t *level_pal, const r_hlhud_entry_t *e, char *err,
                     size_t cap)
{
    const spr_image_t *im = &s->images[s->frames[0].first];
    if (e->x + e->w > im->width || e->y + e->h > im->height)
        return asset_fail(err, cap, e->offset, "expected \"%s\" (%d,%d %dx%d) inside the %dx%d sprites/%s.spr", e->name,
                    e->x, e->y, e->w, e->h, im->width, im->height, e->sprite);
    const uint8_t *pal = s->has_palette ? s->palette : level_pal;
    uint8_t lv[256];
    for (int i = 0; i < 256; i++) {
        const uint8_t *c = pal + i * 3;
        int b = c[0] > c[1] ? (c[0] > c[2] ? c[0] : c[2]) : (c[1] > c[2] ? c[1] : c[2]);
        lv[i] = (uint8_t)((b * (R2D_TINT_LEVELS - 1) + 127) / 255);
    }
    if (s->texformat == SPR_TEX_ALPHATEST)
        lv[255] = 0;
    p->pixels = malloc((size_t)e->w * (size_t)e->h);
    if (!p->pixels)
        return asset_fail(err, cap, 0, "out of memory");
    p->width = e->w;
    p->height = e->h;
    const uint8_t *src = s->pixels + im->offset;
    for (int y = 0; y < e->h; y++)
        for (int x = 0; x < e->w; x++)
            p->pixels[y * e->w + x] = lv[src[(size_t)(e->y + y) * (size_t)im->width + (size_t)(e->x + x)]];
    return 0;
}

// The sprite "sprites/NAME.spr" into *s (kept while the next piece uses the same one).
static int load_sprite(spr_t *s, char *loaded, vfs_t *fs, const char *nm)
{
    if (!strcmp(loaded, nm))
        return s->numframes > 0 ? 0 : -1;
    spr_free(s);
    snprintf(loaded, R_HLHUD_NAME, "%s", nm);
    char path[R_HLHUD_NAME + 16], err[160];
    snprintf(path, sizeof path, "sprites/%s.spr", nm);
    size_t size = 0;
    uint8_t *bytes = vfs_load(fs, path, &size);
    if (!bytes) {
        log_warn("%s: missing; the HUD pieces in it are not drawn", path);
        return -1;
    }
    int rc = spr_load(s, bytes, size, err, sizeof err);
    free(bytes);
    if (rc < 0)
        log_warn("%s: %s", path, err);
    return rc;
}

static int goldsrc_load(r_2d_t *d, vfs_t *fs)
{
    d->hl_known = 0;
    build_tints(d);
    size_t size = 0;
    uint8_t *text = vfs_load(fs, "sprites/hud.txt", &size);
    if (!text)
        return 0;
    char err[160];
    r_hlhud_entry_t *e = malloc(R_HLHUD_MAX_ENTRIES * sizeof(*e));
    int n = -1;
    if (size > HL_MAX_FILE)
        snprintf(err, sizeof err, "offset 0: expected a layout of at most %d bytes, found %zu", HL_MAX_FILE, size);
    else if (!e)
        snprintf(err, sizeof err, "out of memory");
    else
        n = r_hlhud_parse((const char *)text, size, e, R_HLHUD_MAX_ENTRIES, err, sizeof err);
    free(text);
    if (n < 0) {
        log_warn("sprites/hud.txt: %s", err);
        free(e);
        return 0;
    }
    int loaded = 0, absent = 0;
    spr_t s = { 0 };
    char current[R_HLHUD_NAME] = "";
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < HP_COUNT; i++) {
            const r_hlhud_entry_t *pe = r_hlhud_find(e, n, piece_names[i], piece_res[r]);
            if (!pe) {
                if (!absent++)
                    log_warn("sprites/hud.txt: no \"%s\" for %d-wide screens", piece_names[i], piece_res[r]);
                continue;
            }
            if (load_sprite(&s, current, fs, pe->sprite) < 0)
                continue;
            if (cut_piece(&d->pics[r * HP_COUNT + i], &s, d->palette, pe, err, sizeof err) < 0)
                log_warn("sprites/hud.txt: %s", err);
            else
                loaded++;
        }
    if (absent > 1)
        log_warn("sprites/hud.txt: %d of the %d HUD pieces are not listed", absent, 2 * HP_COUNT);
    spr_free(&s);
    free(e);
    return loaded;
}

// ---- drawing ----------------------------------------------------------------

// Add tint k at brightness alpha/255 to every lit virtual pixel of p (levels) at (x, y).
static void add_pic(r_2d_t *d, const r_2d_canvas_t *c, int x, int y, int w, int h, const wad_pic_t *p, int k,
                    int alpha)
{
    if (!c->buf)
        return;
    int s = c->scale;
    for (int j = 0; j < h; j++) {
        int ry = c->oy + (y + j) * s;
        if (ry + s <= 0 || ry >= c->height)
            continue;
        for (int i = 0; i < w; i++) {
            int rx = c->ox + (x + i) * s;
            if (rx + s <= 0 || rx >= c->width)
                continue;
            int lv = p ? p->pixels[j * p->width + i] : R2D_TINT_LEVELS - 1;
            lv = (lv * alpha + 127) / 255;
            if (!lv)
                continue;
            const uint8_t *t = d->tint[k][lv];
            for (int yy = ry < 0 ? 0 : ry; yy < ry + s && yy < c->height; yy++) {
                uint8_t *row = c->buf + (size_t)yy * (size_t)c->rowbytes;
                for (int xx = rx < 0 ? 0 : rx; xx < rx + s && xx < c->width; xx++)
                    row[xx] = t[row[xx]];
            }
        }
    }
}

typedef struct {
    r_2d_t *d;
    r_2d_canvas_t c;
    const wad_pic_t *pics;    // the set for this screen width
    int num_w, font_h;        // number_0's size
    int icon_w;               // width of Half-Life's ammo icons in this set
} hud_t;

static const wad_pic_t *piece(const hud_t *h, int i) { return h->pics[i].pixels ? &h->pics[i] : NULL; }

static void draw_piece(hud_t *h, int x, int y, int i, int k, int alpha)
{
    const wad_pic_t *p = piece(h, i);
    if (p)
        add_pic(h->d, &h->c, x, y, p->width, p->height, p, k, alpha);
}

// Half-Life's DrawHudNumber with three digit places: leading zeros are blank
// places; 0 is drawn as one digit in the last place. Returns x after it.
static int hud_number(hud_t *h, int x, int y, int num, int k, int alpha)
{
    if (num < 0)
        num = 0;
    if (num > 999)
        num = 999;
    int digits[3] = { num / 100, num / 10 % 10, num % 10 };
    for (int i = 0; i < 3; i++, x += h->num_w)
        if (i == 2 || (i == 0 && num >= 100) || (i == 1 && num >= 10))
            draw_piece(h, x, y, HP_NUMBER + digits[i], k, alpha);
    return x;
}

// Brightness of a number that changed at `changed`: 100 at rest, up to 228 just after.
static int fade_alpha(double changed, double t)
{
    double left = HL_FADE_TIME - (t - changed);
    if (left <= 0 || left > HL_FADE_TIME)
        return HL_MIN_ALPHA;
    return HL_MIN_ALPHA + (int)(left / HL_FADE_TIME * 128);
}

static void track_changes(r_2d_t *d, const world_t *w, double t)
{
    int now[2] = { w->view.stats[STAT_HEALTH], w->view.stats[STAT_ARMOR] };
    for (int i = 0; i < 2; i++) {
        // first sight, or time went back (a seek): take the value without a flash
        if (!d->hl_known || t < d->hl_changed[i]) {
            d->hl_last[i] = now[i];
            d->hl_changed[i] = -HL_FADE_TIME;
        } else if (now[i] != d->hl_last[i]) {
            d->hl_last[i] = now[i];
            d->hl_changed[i] = t;
        }
    }
    d->hl_known = 1;
}

static void draw_health(hud_t *h, int health, double changed, double t)
{
    int alpha = health <= 15 ? 255 : fade_alpha(changed, t);
    int k = health > 25 ? TINT_YELLOWISH : TINT_REDISH;
    const wad_pic_t *cross = piece(h, HP_CROSS);
    int cross_w = cross ? cross->width : h->num_w;
    int y = h->c.vh - h->font_h - h->font_h / 2;
    draw_piece(h, cross_w / 2, y, HP_CROSS, k, alpha);
    int x = hud_number(h, cross_w + h->num_w / 2, y, health, k, alpha) + h->num_w / 2;
    // the bar between health and armor, always yellowish
    add_pic(h->d, &h->c, x, y, h->num_w / 10 > 0 ? h->num_w / 10 : 1, h->font_h, NULL, TINT_YELLOWISH, alpha);
}

static void draw_armor(hud_t *h, int armor, double changed, double t)
{
    int alpha = fade_alpha(changed, t);
    const wad_pic_t *empty = piece(h, HP_SUIT_EMPTY), *full = piece(h, HP_SUIT_FULL);
    int y = h->c.vh - h->font_h - h->font_h / 2, x = h->c.vw / 5;
    int suit_w = h->num_w * 2;
    if (empty) {
        int off = empty->height / 6;
        suit_w = empty->width;
        add_pic(h->d, &h->c, x, y - off, empty->width, empty->height, empty, TINT_YELLOWISH, alpha);
        if (full) {
            // the full suit shows from the bottom up, armor percent of its height
            int a = armor < 0 ? 0 : armor > 100 ? 100 : armor;
            int top = full->height * (100 - a) / 100;
            if (top < full->height) {
                wad_pic_t part = { full->width, full->height - top, full->pixels + (size_t)top * full->width, NULL };
                add_pic(h->d, &h->c, x, y - off + top, part.width, part.height, &part, TINT_YELLOWISH, alpha);
            }
        }
    }
    hud_number(h, x + suit_w, y, armor, TINT_YELLOWISH, alpha);
}

// The clip of the current weapon (CurWeapon's; -1: the weapon has none). The
// reserve ammo and its icon are not in the world state, so only the clip is drawn,
// where Half-Life puts it (room for clip, bar, reserve and icon at the right).
static void draw_ammo(hud_t *h, int clip)
{
    if (clip < 0)
        return;
    int y = h->c.vh - h->font_h - h->font_h / 2;
    int x = h->c.vw - 8 * h->num_w - h->icon_w;
    hud_number(h, x, y, clip, TINT_YELLOWISH, HL_MIN_ALPHA);
}

static void goldsrc_draw_hud(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, double t)
{
    track_changes(d, w, t);
    if (w->view.intermission || !(w->view.items & (1u << HL_WEAPON_SUIT)))
        return;
    hud_t h = { .d = d, .c = *c };
    // half the 2D scale: Half-Life drew its HUD 1:1 and has a set for 640-wide screens
    h.c.scale = c->scale >= 2 ? c->scale / 2 : 1;
    h.c.vw = c->width / h.c.scale;
    h.c.vh = c->height / h.c.scale;
    h.c.ox = (c->width - h.c.vw * h.c.scale) / 2;
    h.c.oy = c->height - h.c.vh * h.c.scale;
    h.pics = d->pics + (h.c.vw >= 640 ? HP_COUNT : 0);
    h.icon_w = h.c.vw >= 640 ? 24 : 18;
    const wad_pic_t *zero = piece(&h, HP_NUMBER);
    if (!zero)
        return;
    h.num_w = zero->width;
    h.font_h = zero->height;
    draw_health(&h, w->view.stats[STAT_HEALTH], d->hl_changed[0], t);
    draw_armor(&h, w->view.stats[STAT_ARMOR], d->hl_changed[1], t);
    draw_ammo(&h, w->view.stats[STAT_ACTIVEWEAPON] > 0 ? w->view.stats[STAT_AMMO] : -1);
}

const r_2d_game_t r_2d_game_goldsrc = {
    .game = GAME_GOLDSRC,
    .name = "goldsrc",
    .conchars_slot = -1,
    .backtile_slot = -1,
    .load = goldsrc_load,
    .draw_hud = goldsrc_draw_hud,
    .contents_water = { { 130, 80, 50 }, 0 },
    .contents_slime = { { 0, 25, 5 }, 0 },
    .contents_lava = { { 255, 80, 0 }, 0 },
    .damage_decay = 150,
    .bonus_decay = 100,
};
