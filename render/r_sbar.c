// r_sbar.c -- Quake's status bar, inventory, frag lines, intermission, finale and ranking screens
//
// Positions and rules are Quake's (sbar.c / screen.c of the released source),
// in virtual pixels: the bar is 320 wide, its top row 24 above the bottom, the
// inventory line 24 above that. In deathmatch the bar is drawn against the left
// edge (room for the mini frag list at the right), otherwise it is centered.
#include <stdio.h>
#include <string.h>

#include "r_2d_local.h"

// Quake's items bits.
enum {
    IT_SHOTGUN = 1, IT_SHELLS = 256, IT_NAILS = 512, IT_ROCKETS = 1024, IT_CELLS = 2048,
    IT_ARMOR1 = 8192, IT_ARMOR2 = 16384, IT_ARMOR3 = 32768,
    IT_KEY1 = 1 << 17, IT_INVISIBILITY = 1 << 19, IT_INVULNERABILITY = 1 << 20,
    IT_SUIT = 1 << 21, IT_QUAD = 1 << 22, IT_SIGIL1 = 1 << 28
};

#define SBAR_HEIGHT 24
#define SBAR_LINES 48   // 24 status bar + 24 inventory (Quake's sb_lines at viewsize 100)

// Picture slots.
enum {
    SB_NUM = 0,                  // [11]: 0-9, minus
    SB_ANUM = SB_NUM + 11,       // [11]: the red digits
    SB_COLON = SB_ANUM + 11,
    SB_SLASH,
    SB_IBAR, SB_SBAR, SB_SCOREBAR,
    SB_WEAPONS,                  // [7 flash states][7 weapons]: 0 owned, 1 active, 2-6 flashes
    SB_AMMO = SB_WEAPONS + 49,   // [4]
    SB_SIGIL = SB_AMMO + 4,      // [4]
    SB_ARMOR = SB_SIGIL + 4,     // [3]
    SB_ITEMS = SB_ARMOR + 3,     // [6]: key1 key2 invis invuln suit quad
    SB_FACES = SB_ITEMS + 6,     // [5][2]: by health/20, [1] = pain
    SB_FACE_INVIS = SB_FACES + 10,
    SB_FACE_QUAD, SB_FACE_INVULN, SB_FACE_INVIS_INVULN,
    SB_DISC, SB_CONCHARS, SB_BACKTILE,
    SB_COMPLETE, SB_INTER, SB_FINALE, SB_RANKING, SB_PAUSE,
    SB_COUNT
};

#define WEAPONS(p) p "shotgun", p "sshotgun", p "nailgun", p "snailgun", p "rlaunch", p "srlaunch", p "lightng"
#define DIGITS(p) p "0", p "1", p "2", p "3", p "4", p "5", p "6", p "7", p "8", p "9", p "minus"

// Names without a '/' are gfx.wad lumps, names with one are files.
static const char *const quake_pics[SB_COUNT] = {
    [SB_NUM] = DIGITS("num_"),
    [SB_ANUM] = DIGITS("anum_"),
    [SB_COLON] = "num_colon", [SB_SLASH] = "num_slash",
    [SB_IBAR] = "ibar", [SB_SBAR] = "sbar", [SB_SCOREBAR] = "scorebar",
    [SB_WEAPONS] = WEAPONS("inv_"), WEAPONS("inv2_"), WEAPONS("inva1_"), WEAPONS("inva2_"),
    WEAPONS("inva3_"), WEAPONS("inva4_"), WEAPONS("inva5_"),
    [SB_AMMO] = "sb_shells", "sb_nails", "sb_rocket", "sb_cells",
    [SB_SIGIL] = "sb_sigil1", "sb_sigil2", "sb_sigil3", "sb_sigil4",
    [SB_ARMOR] = "sb_armor1", "sb_armor2", "sb_armor3",
    [SB_ITEMS] = "sb_key1", "sb_key2", "sb_invis", "sb_invuln", "sb_suit", "sb_quad",
    // sb_faces[f] with f = health / 20: face5 is the most hurt
    [SB_FACES] = "face5", "face_p5", "face4", "face_p4", "face3", "face_p3", "face2", "face_p2",
    "face1", "face_p1",
    [SB_FACE_INVIS] = "face_invis", [SB_FACE_QUAD] = "face_quad", [SB_FACE_INVULN] = "face_invul2",
    [SB_FACE_INVIS_INVULN] = "face_inv2",
    [SB_DISC] = "disc", [SB_CONCHARS] = "conchars", [SB_BACKTILE] = "backtile",
    [SB_COMPLETE] = "gfx/complete.lmp", [SB_INTER] = "gfx/inter.lmp", [SB_FINALE] = "gfx/finale.lmp",
    [SB_RANKING] = "gfx/ranking.lmp", [SB_PAUSE] = "gfx/pause.lmp",
};

static const wad_pic_t *pic(const r_2d_t *d, int slot) { return &d->pics[slot]; }

// ---- status bar helpers: coordinates relative to the bar's top-left ---------

typedef struct {
    r_2d_t *d;
    const world_t *w;
    r_2d_canvas_t *c;
    double t;
    int x0, y0;    // virtual position of the bar's (0, 0)
} sbar_t;

static void sb_pic(sbar_t *s, int x, int y, int slot) { r_2d_pic(s->c, s->x0 + x, s->y0 + y, pic(s->d, slot)); }
static void sb_char(sbar_t *s, int x, int y, int num) { r_2d_char(s->d, s->c, s->x0 + x + 4, s->y0 + y, num); }
static void sb_string(sbar_t *s, int x, int y, const char *str) { r_2d_string(s->d, s->c, s->x0 + x, s->y0 + y, str); }

static int stat(const world_t *w, int i) { return w->view.stats[i]; }

// Draw `num` right-aligned in `digits` big digits of set `color` (0 normal, 1 red);
// a number too long keeps its last digits, as Quake's Sbar_DrawNum.
static void big_number(r_2d_canvas_t *c, const r_2d_t *d, int x, int y, int num, int digits, int color)
{
    char str[16];
    int l = snprintf(str, sizeof str, "%d", num);
    const char *p = str;
    if (l > digits)
        p += l - digits;
    if (l < digits)
        x += (digits - l) * 24;
    for (; *p; p++, x += 24) {
        int frame = *p == '-' ? 10 : *p - '0';
        r_2d_transpic(c, x, y, pic(d, (color ? SB_ANUM : SB_NUM) + frame));
    }
}

static void sb_number(sbar_t *s, int x, int y, int num, int digits, int color)
{
    big_number(s->c, s->d, s->x0 + x, s->y0 + y, num, digits, color);
}

// Players with a name, sorted by frags (highest first; ties keep slot order).
static int sort_frags(const world_t *w, int *order)
{
    int n = 0, max = w->maxclients < WORLD_MAX_PLAYERS ? w->maxclients : WORLD_MAX_PLAYERS;
    for (int i = 0; i < max; i++)
        if (w->players[i].name[0])
            order[n++] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && w->players[order[j - 1]].frags < w->players[order[j]].frags; j--) {
            int k = order[j];
            order[j] = order[j - 1];
            order[j - 1] = k;
        }
    return n;
}

static int top_color(const world_player_t *p) { return (p->top_color & 15) * 16 + 8; }
static int bottom_color(const world_player_t *p) { return (p->bottom_color & 15) * 16 + 8; }

// ---- the bar ----------------------------------------------------------------

static void draw_inventory(sbar_t *s)
{
    const world_t *w = s->w;
    uint32_t items = w->view.items;
    sb_pic(s, 0, -24, SB_IBAR);
    for (int i = 0; i < 7; i++) {
        if (!(items & (IT_SHOTGUN << i)))
            continue;
        // Flash for one second after pickup (5 frames at 10 Hz, twice), then
        // the owned picture, highlighted when it is the active weapon.
        int flashon = (int)((s->t - s->d->item_gettime[i]) * 10);
        if (flashon >= 10 || flashon < 0)
            flashon = (uint32_t)stat(w, STAT_ACTIVEWEAPON) == (uint32_t)(IT_SHOTGUN << i) ? 1 : 0;
        else
            flashon = flashon % 5 + 2;
        sb_pic(s, i * 24, -16, SB_WEAPONS + flashon * 7 + i);
    }
    for (int i = 0; i < 4; i++) {
        char num[16];
        snprintf(num, sizeof num, "%3d", stat(w, STAT_SHELLS + i));
        // Characters 18.. are the small yellow digits of the console font.
        for (int k = 0; k < 3 && num[k]; k++)
            if (num[k] != ' ')
                sb_char(s, (6 * i + 1 + k) * 8 - 2, -24, 18 + num[k] - '0');
    }
    // Quake's item flash never shows (its flashon is always 0 here): items are drawn as owned.
    for (int i = 0; i < 6; i++)
        if (items & (IT_KEY1 << i))
            sb_pic(s, 192 + i * 16, -16, SB_ITEMS + i);
    for (int i = 0; i < 4; i++)
        if (items & ((uint32_t)IT_SIGIL1 << i))
            sb_pic(s, 320 - 32 + i * 8, -16, SB_SIGIL + i);
}

static void draw_frags(sbar_t *s)
{
    const world_t *w = s->w;
    int order[WORLD_MAX_PLAYERS];
    int n = sort_frags(w, order);
    if (n > 4)
        n = 4;
    int x = 23;
    int xofs = s->x0;
    int y = s->y0 - 23;
    for (int i = 0; i < n; i++) {
        int k = order[i];
        const world_player_t *p = &w->players[k];
        r_2d_fill(s->c, xofs + x * 8 + 10, y, 28, 4, top_color(p));
        r_2d_fill(s->c, xofs + x * 8 + 10, y + 4, 28, 3, bottom_color(p));
        char num[16];
        snprintf(num, sizeof num, "%3d", p->frags);
        for (int j = 0; j < 3 && num[j]; j++)
            sb_char(s, (x + 1 + j) * 8, -24, (uint8_t)num[j]);
        if (k == w->view.entity - 1) {
            sb_char(s, x * 8 + 2, -24, 16);
            sb_char(s, (x + 4) * 8 - 4, -24, 17);
        }
        x += 4;
    }
}

static void draw_face(sbar_t *s)
{
    uint32_t items = s->w->view.items;
    if ((items & (IT_INVISIBILITY | IT_INVULNERABILITY)) == (IT_INVISIBILITY | IT_INVULNERABILITY))
        sb_pic(s, 112, 0, SB_FACE_INVIS_INVULN);
    else if (items & IT_QUAD)
        sb_pic(s, 112, 0, SB_FACE_QUAD);
    else if (items & IT_INVISIBILITY)
        sb_pic(s, 112, 0, SB_FACE_INVIS);
    else if (items & IT_INVULNERABILITY)
        sb_pic(s, 112, 0, SB_FACE_INVULN);
    else {
        int health = stat(s->w, STAT_HEALTH);
        int f = health >= 100 ? 4 : health / 20;
        if (f < 0)
            f = 0;
        int anim = s->t <= s->d->faceanimtime ? 1 : 0;   // pain face for 0.2 s after damage
        sb_pic(s, 112, 0, SB_FACES + f * 2 + anim);
    }
}

static void solo_scoreboard(sbar_t *s)
{
    const world_t *w = s->w;
    char str[80];
    snprintf(str, sizeof str, "Monsters:%3d /%3d", stat(w, STAT_MONSTERS), stat(w, STAT_TOTALMONSTERS));
    sb_string(s, 8, 4, str);
    snprintf(str, sizeof str, "Secrets :%3d /%3d", stat(w, STAT_SECRETS), stat(w, STAT_TOTALSECRETS));
    sb_string(s, 8, 12, str);
    int t = s->t > 0 ? (int)s->t : 0;
    int minutes = t / 60, seconds = t - 60 * minutes;
    snprintf(str, sizeof str, "Time :%3d:%d%d", minutes, seconds / 10, seconds % 10);
    sb_string(s, 184, 4, str);
    int l = (int)strnlen(w->level_name, 40);
    char name[41];
    memcpy(name, w->level_name, (size_t)l);
    name[l] = 0;
    sb_string(s, 232 - l * 4, 12, name);
}

static void deathmatch_overlay(r_2d_t *d, const world_t *w, r_2d_canvas_t *c)
{
    const wad_pic_t *rank = pic(d, SB_RANKING);
    int xc = (c->vw - 320) >> 1;
    if (rank->pixels)
        r_2d_pic(c, xc + (320 - rank->width) / 2, 8, rank);
    int order[WORLD_MAX_PLAYERS];
    int n = sort_frags(w, order);
    int x = 80 + xc, y = 40;
    for (int i = 0; i < n; i++) {
        int k = order[i];
        const world_player_t *p = &w->players[k];
        r_2d_fill(c, x, y, 40, 4, top_color(p));
        r_2d_fill(c, x, y + 4, 40, 4, bottom_color(p));
        char num[16];
        snprintf(num, sizeof num, "%3d", p->frags);
        for (int j = 0; j < 3 && num[j]; j++)
            r_2d_char(d, c, x + 8 + j * 8, y, (uint8_t)num[j]);
        if (k == w->view.entity - 1)
            r_2d_char(d, c, x - 8, y, 12);
        r_2d_string(d, c, x + 64, y, p->name);
        y += 10;
    }
}

static void mini_deathmatch_overlay(sbar_t *s, int sb_lines)
{
    r_2d_canvas_t *c = s->c;
    const world_t *w = s->w;
    if (c->vw < 512 || !sb_lines)
        return;
    int order[WORLD_MAX_PLAYERS];
    int n = sort_frags(w, order);
    int y = c->vh - sb_lines, numlines = sb_lines / 8;
    if (numlines < 3)
        return;
    int i;
    for (i = 0; i < n; i++)
        if (order[i] == w->view.entity - 1)
            break;
    i = i == n ? 0 : i - numlines / 2;   // center the list on the recording player
    if (i > n - numlines)
        i = n - numlines;
    if (i < 0)
        i = 0;
    int x = 324;
    for (; i < n && y < c->vh - 8; i++) {
        int k = order[i];
        const world_player_t *p = &w->players[k];
        r_2d_fill(c, x, y + 1, 40, 3, top_color(p));
        r_2d_fill(c, x, y + 4, 40, 4, bottom_color(p));
        char num[16];
        snprintf(num, sizeof num, "%3d", p->frags);
        for (int j = 0; j < 3 && num[j]; j++)
            r_2d_char(s->d, c, x + 8 + j * 8, y, (uint8_t)num[j]);
        if (k == w->view.entity - 1) {
            r_2d_char(s->d, c, x, y, 16);
            r_2d_char(s->d, c, x + 32, y, 17);
        }
        r_2d_string(s->d, c, x + 48, y, p->name);
        y += 8;
    }
}

static int quake_sbar_lines(const r_2d_t *d, const world_t *w, int vw, int vh)
{
    (void)vw;
    if (w->view.intermission || !d->pics[SB_SBAR].pixels || vh < SBAR_LINES)
        return 0;
    return SBAR_LINES;
}

static void quake_draw_hud(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, double t)
{
    if (w->view.paused) {
        const wad_pic_t *p = pic(d, SB_PAUSE);
        if (p->pixels)
            r_2d_pic(c, (c->vw - p->width) / 2, (c->vh - 48 - p->height) / 2, p);
    }
    int lines = quake_sbar_lines(d, w, c->vw, c->vh);
    if (!lines)
        return;
    sbar_t s = { d, w, c, t, w->deathmatch ? 0 : (c->vw - 320) >> 1, c->vh - SBAR_HEIGHT };
    if (c->vw > 320)
        r_2d_tile_rows(d, c, c->oy + (c->vh - lines) * c->scale, c->height);
    if (lines > 24) {
        draw_inventory(&s);
        if (w->maxclients != 1)
            draw_frags(&s);
    }
    const world_view_t *v = &w->view;
    if (v->stats[STAT_HEALTH] <= 0) {
        // Dead: the score bar instead of the status bar, as Quake shows it.
        sb_pic(&s, 0, 0, SB_SCOREBAR);
        solo_scoreboard(&s);
        if (w->deathmatch)
            deathmatch_overlay(d, w, c);
    } else {
        sb_pic(&s, 0, 0, SB_SBAR);
        if (v->items & IT_INVULNERABILITY) {
            sb_number(&s, 24, 0, 666, 3, 1);
            sb_pic(&s, 0, 0, SB_DISC);
        } else {
            sb_number(&s, 24, 0, v->stats[STAT_ARMOR], 3, v->stats[STAT_ARMOR] <= 25);
            if (v->items & IT_ARMOR3)
                sb_pic(&s, 0, 0, SB_ARMOR + 2);
            else if (v->items & IT_ARMOR2)
                sb_pic(&s, 0, 0, SB_ARMOR + 1);
            else if (v->items & IT_ARMOR1)
                sb_pic(&s, 0, 0, SB_ARMOR);
        }
        draw_face(&s);
        sb_number(&s, 136, 0, v->stats[STAT_HEALTH], 3, v->stats[STAT_HEALTH] <= 25);
        static const uint32_t ammo_bits[4] = { IT_SHELLS, IT_NAILS, IT_ROCKETS, IT_CELLS };
        for (int i = 0; i < 4; i++)
            if (v->items & ammo_bits[i]) {
                sb_pic(&s, 224, 0, SB_AMMO + i);
                break;
            }
        sb_number(&s, 248, 0, v->stats[STAT_AMMO], 3, v->stats[STAT_AMMO] <= 10);
    }
    if (c->vw > 320 && w->deathmatch)
        mini_deathmatch_overlay(&s, lines);
}

static int quake_draw_intermission(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, double t)
{
    const world_view_t *v = &w->view;
    if (!v->intermission)
        return 0;
    // Quake draws these at fixed positions of a 320-wide screen; centered here
    // when the screen is wider (identical at 320).
    int xc = (c->vw - 320) >> 1;
    if (v->intermission == 1) {
        if (w->deathmatch) {
            deathmatch_overlay(d, w, c);
            return 1;
        }
        r_2d_pic(c, xc + 64, 24, pic(d, SB_COMPLETE));
        r_2d_transpic(c, xc + 0, 56, pic(d, SB_INTER));
        int secs = v->completed_time > 0 ? (int)v->completed_time : 0;
        int dig = secs / 60, num = secs - dig * 60;
        big_number(c, d, xc + 160, 64, dig, 3, 0);
        r_2d_transpic(c, xc + 234, 64, pic(d, SB_COLON));
        r_2d_transpic(c, xc + 246, 64, pic(d, SB_NUM + num / 10));
        r_2d_transpic(c, xc + 266, 64, pic(d, SB_NUM + num % 10));
        big_number(c, d, xc + 160, 104, v->stats[STAT_SECRETS], 3, 0);
        r_2d_transpic(c, xc + 232, 104, pic(d, SB_SLASH));
        big_number(c, d, xc + 240, 104, v->stats[STAT_TOTALSECRETS], 3, 0);
        big_number(c, d, xc + 160, 144, v->stats[STAT_MONSTERS], 3, 0);
        r_2d_transpic(c, xc + 232, 144, pic(d, SB_SLASH));
        big_number(c, d, xc + 240, 144, v->stats[STAT_TOTALMONSTERS], 3, 0);
        return 1;
    }
    if (v->intermission == 2) {
        const wad_pic_t *f = pic(d, SB_FINALE);
        if (f->pixels)
            r_2d_transpic(c, (c->vw - f->width) / 2, 16, f);
    }
    // Finale and cutscene: the text typed out at scr_printspeed characters a second.
    const char *text = v->finale_text[0] ? v->finale_text : (d->center_set ? d->center : "");
    double start = v->finale_text[0] ? v->completed_time : d->center_start;
    double typed = (t - start) * R2D_PRINT_SPEED;
    if (text[0] && typed >= 0 && !d->notify_off)
        r_2d_draw_center_text(d, c, text, typed > 9999 ? 9999 : (int)typed);
    return 1;
}

static const r_2d_powerup_t quake_powerups[] = {
    { IT_QUAD, { 0, 0, 255 }, 30 },
    { IT_SUIT, { 0, 255, 0 }, 20 },
    { IT_INVISIBILITY, { 100, 100, 100 }, 100 },
    { IT_INVULNERABILITY, { 255, 255, 0 }, 30 },
};

const r_2d_game_t r_2d_game_quake = {
    .game = GAME_QUAKE,
    .name = "quake",
    .wad = "gfx.wad",
    .pics = quake_pics,
    .num_pics = SB_COUNT,
    .conchars_slot = SB_CONCHARS,
    .backtile_slot = SB_BACKTILE,
    .level_banner = 1,
    .sbar_lines = quake_sbar_lines,
    .draw_hud = quake_draw_hud,
    .draw_intermission = quake_draw_intermission,
    .contents_water = { { 130, 80, 50 }, 128 },
    .contents_slime = { { 0, 25, 5 }, 150 },
    .contents_lava = { { 255, 80, 0 }, 150 },
    .powerups = quake_powerups,
    .num_powerups = 4,
    .bonus_color = { 215, 186, 69 },
    .bonus_percent = 50,
    .damage_decay = 150,
    .bonus_decay = 100,
};
