// r_hud_q2.c -- Quake II's HUD: the layout language of the status bar program and the layouts (scoreboard, help)
//
// Quake II's client draws no HUD of its own: the game sends a program (the
// status bar, configstring CS_STATUSBAR) and, when it shows one, a layout
// (svc_layout: scoreboard, help computer), both in one small language that
// the client runs every frame against the player's stats. The tokens and their
// meaning follow the released client (cl_scrn.c's layout executor):
//
//   xl N / xr N / xv N     x from the left edge, the right edge, a centered 320x240 area
//   yt N / yb N / yv N     y from the top, the bottom, the centered area
//   pic S                  the image named by CS_IMAGES + stats[S]
//   picn NAME              the image NAME (pics/NAME.pcx, or a full path after '/')
//   num W S                stats[S] in W (1..5) big digits; hnum / anum / rnum: health,
//                          ammo and armor in the width last set, red or flashing as the game does
//   stat_string S          the configstring stats[S] names (the pickup item's name)
//   string / string2 TEXT  text, in the normal / alternate (high-bit) character set
//   cstring / cstring2 T   lines of text centered in 320 pixels
//   client X Y N S P T     a deathmatch scoreboard entry (icon, name, score, ping, time)
//   ctf X Y N S P          a one-line CTF scoreboard entry
//   if S ... endif         skip to the next endif when stats[S] is 0 (no nesting)
//
// The program is hostile input: every token is bounded, unknown ones are
// skipped, stat and configstring indices are checked, numbers are clamped.
// Drawing is in virtual pixels (r_2d_canvas_t), which at 640x480 is exactly
// Quake II's 320x240. Pictures are looked up by name among those r_2d_load
// loaded for the level: nothing is read or allocated while drawing.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r_2d_local.h"

// Quake II's stat indices (q_shared.h), as the game sends them.
enum {
    Q2_STAT_HEALTH = 1, Q2_STAT_AMMO = 3, Q2_STAT_ARMOR = 5, Q2_STAT_LAYOUTS = 13, Q2_STAT_FLASHES = 15,
    Q2_MAX_STATS = 32
};

// Quake II's configstring layout.
enum {
    Q2_CS_NAME = 0, Q2_CS_STATUSBAR = 5, Q2_CS_AIRACCEL = 29, Q2_CS_MODELS = 32, Q2_CS_SOUNDS = 288,
    Q2_CS_IMAGES = 544, Q2_CS_LIGHTS = 800, Q2_CS_ITEMS = 1056, Q2_CS_PLAYERSKINS = 1312,
    Q2_CS_GENERAL = 1568, Q2_MAX_CONFIGSTRINGS = 2080, Q2_CS_LEN = 64, Q2_MAX_CLIENTS = 256
};

#define TOKEN_MAX 128       // Quake II's MAX_TOKEN_CHARS
#define COORD_LIMIT 100000  // numbers are clamped so positions never overflow

// Picture slots; the level's images follow in the named slots.
enum {
    Q2_NUM = 0,                 // [11]: 0-9, minus
    Q2_ANUM = Q2_NUM + 11,      // [11]: the alternate (red) digits
    Q2_CONCHARS = Q2_ANUM + 11,
    Q2_FIELD3,                  // behind a number that flashes (STAT_FLASHES)
    Q2_SLOTS
};

#define DIGITS(p) "pics/" p "0.pcx", "pics/" p "1.pcx", "pics/" p "2.pcx", "pics/" p "3.pcx", "pics/" p "4.pcx", \
    "pics/" p "5.pcx", "pics/" p "6.pcx", "pics/" p "7.pcx", "pics/" p "8.pcx", "pics/" p "9.pcx", "pics/" p "minus.pcx"

static const char *const q2_pics[Q2_SLOTS] = {
    [Q2_NUM] = DIGITS("num_"),
    [Q2_ANUM] = DIGITS("anum_"),
    [Q2_CONCHARS] = "pics/conchars.pcx",
    [Q2_FIELD3] = "pics/field_3.pcx",
};

// Pictures layouts name that the game may announce only when it first sends
// such a layout (the scoreboard's tags), or never (the help computer's picn).
static const char *const layout_pics[] = { "help", "tag1", "tag2", "tag3", "i_help", "i_fixme", "inventory" };

// ---- tokens and numbers -----------------------------------------------------

// Quake II's COM_Parse: characters up to ' ' separate tokens, "//" comments to
// the end of the line, a quoted string is one token. A token is cut at
// TOKEN_MAX - 1 characters. Returns 0 at the end of the program.
static int next_token(const char **pp, char *tok)
{
    const char *p = *pp;
    size_t n = 0;
    for (;;) {
        while (*p && (uint8_t)*p <= ' ')
            p++;
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        break;
    }
    if (!*p) {
        *pp = p;
        tok[0] = 0;
        return 0;
    }
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (n < TOKEN_MAX - 1)
                tok[n++] = *p;
        if (*p)
            p++;
    } else {
        for (; (uint8_t)*p > ' '; p++)
            if (n < TOKEN_MAX - 1)
                tok[n++] = *p;
    }
    tok[n] = 0;
    *pp = p;
    return 1;
}

// atoi, clamped: a hostile "99999999999" must not overflow a position.
static int number(const char *tok)
{
    long v = strtol(tok, NULL, 10);
    return v > COORD_LIMIT ? COORD_LIMIT : v < -COORD_LIMIT ? -COORD_LIMIT : (int)v;
}

// stats[i] of a stat index token; *ok = 0 when the index is outside Quake II's 32.
static int stat_of(const world_view_t *v, const char *tok, int *ok)
{
    int i = number(tok);
    *ok = i >= 0 && i < Q2_MAX_STATS;
    return *ok ? v->stats[i] : 0;
}

// The configstring `i` as the world keeps it ("" for ones it does not keep).
static const char *configstring(const world_t *w, int i)
{
    if (i == Q2_CS_NAME)
        return w->level_name;
    if (i >= Q2_CS_STATUSBAR && i < Q2_CS_AIRACCEL) {
        // the status bar runs on through these slots, 64 characters each
        size_t ofs = (size_t)(i - Q2_CS_STATUSBAR) * Q2_CS_LEN;
        return ofs < strnlen(w->statusbar, sizeof w->statusbar) ? w->statusbar + ofs : "";
    }
    if (i >= Q2_CS_MODELS && i < Q2_CS_SOUNDS)
        return i - Q2_CS_MODELS < w->num_models ? w->models[i - Q2_CS_MODELS] : "";
    if (i >= Q2_CS_SOUNDS && i < Q2_CS_IMAGES)
        return i - Q2_CS_SOUNDS < w->num_sounds ? w->sounds[i - Q2_CS_SOUNDS] : "";
    if (i >= Q2_CS_IMAGES && i < Q2_CS_LIGHTS)
        return i - Q2_CS_IMAGES < w->num_images ? w->images[i - Q2_CS_IMAGES] : "";
    if (i >= Q2_CS_LIGHTS && i < Q2_CS_LIGHTS + WORLD_MAX_LIGHTSTYLES)
        return w->lightstyles[i - Q2_CS_LIGHTS];
    if (i >= Q2_CS_ITEMS && i < Q2_CS_ITEMS + WORLD_MAX_ITEMS)
        return w->item_names[i - Q2_CS_ITEMS];
    if (i >= Q2_CS_PLAYERSKINS && i < Q2_CS_PLAYERSKINS + WORLD_MAX_PLAYERS)
        return w->players[i - Q2_CS_PLAYERSKINS].skin;
    if (i >= Q2_CS_GENERAL && i < Q2_CS_GENERAL + WORLD_MAX_GENERAL)
        return i - Q2_CS_GENERAL < w->num_general ? w->general[i - Q2_CS_GENERAL] : "";
    return "";
}

// ---- pictures ---------------------------------------------------------------

// A name is used in a path only when it cannot leave the game folders.
static int safe_name(const char *s)
{
    if (!*s || strstr(s, ".."))
        return 0;
    for (; *s; s++)
        if (*s == '\\' || *s == ':' || (uint8_t)*s < ' ' || (uint8_t)*s > '~')
            return 0;
    return 1;
}

// Quake II's Draw_FindPic: "name" is pics/name.pcx, "/path" (or "\path") a full path.
static int pic_path(char *out, size_t cap, const char *name)
{
    int full = name[0] == '/' || name[0] == '\\';
    const char *n = full ? name + 1 : name;
    if (!safe_name(n))
        return 0;
    int len = full ? snprintf(out, cap, "%s", n) : snprintf(out, cap, "pics/%s.pcx", n);
    return len > 0 && (size_t)len < cap;
}

// The icon of player `i`: players/MODEL/SKIN_i.pcx from "name\model/skin", as
// Quake II's client builds it; NULL when the skin string cannot name one.
static int icon_path(char *out, size_t cap, const world_player_t *p)
{
    const char *ms = strchr(p->skin, '\\');
    if (!ms || !strchr(ms + 1, '/') || !safe_name(ms + 1))
        return 0;
    int len = snprintf(out, cap, "players/%s_i.pcx", ms + 1);
    return len > 0 && (size_t)len < cap;
}

// A picture the game data lacks: Quake II's Draw_Pic prints "Can't find pic: NAME" to the
// console each time it is asked to draw it, and the notify area shows those lines.
static void draw_pic(r_2d_t *d, r_2d_canvas_t *c, int x, int y, const char *name)
{
    char path[R2D_PIC_NAME];
    const wad_pic_t *pic = pic_path(path, sizeof path, name) ? r_2d_named(d, path) : NULL;
    if (pic) {
        r_2d_transpic(c, x, y, pic);
    } else {
        char line[R2D_PIC_NAME + 24];
        snprintf(line, sizeof line, "Can't find pic: %.*s", R2D_PIC_NAME - 1, name);
        r_2d_draw_print(d, line);
    }
}

static void draw_icon(r_2d_t *d, r_2d_canvas_t *c, int x, int y, const world_player_t *p)
{
    char path[R2D_PIC_NAME];
    const wad_pic_t *pic = icon_path(path, sizeof path, p) ? r_2d_named(d, path) : NULL;
    if (!pic)   // Quake II falls back to its base client's icon
        pic = r_2d_named(d, "players/male/grunt_i.pcx");
    r_2d_transpic(c, x, y, pic);
}

// ---- text and numbers -------------------------------------------------------

static void draw_string(r_2d_t *d, r_2d_canvas_t *c, int x, int y, const char *s, int xor)
{
    for (; *s; s++, x += 8)
        r_2d_char(d, c, x, y, (uint8_t)*s ^ xor);
}

// Quake II's DrawHUDString: lines, each centered in `centerwidth` pixels from x.
static void hud_string(r_2d_t *d, r_2d_canvas_t *c, int x, int y, const char *s, int centerwidth, int xor)
{
    while (*s) {
        int len = 0;
        while (s[len] && s[len] != '\n')
            len++;
        int lx = centerwidth ? x + (centerwidth - len * 8) / 2 : x;
        for (int i = 0; i < len; i++, lx += 8)
            r_2d_char(d, c, lx, y, (uint8_t)s[i] ^ xor);
        s += len;
        if (*s) {
            s++;
            y += 8;
        }
    }
}

// Quake II's SCR_DrawField: `value` right-aligned in `width` (1..5) big digits of
// set `color`; a number too long keeps its first digits.
static void draw_field(r_2d_t *d, r_2d_canvas_t *c, int x, int y, int color, int width, int value)
{
    if (width < 1)
        return;
    if (width > 5)
        width = 5;
    char num[16];
    int l = snprintf(num, sizeof num, "%d", value);
    if (l > width)
        l = width;
    x += 2 + 16 * (width - l);
    for (int i = 0; i < l; i++, x += 16) {
        int frame = num[i] == '-' ? 10 : num[i] - '0';
        r_2d_transpic(c, x, y, &d->pics[(color ? Q2_ANUM : Q2_NUM) + frame]);
    }
}

// ---- the interpreter --------------------------------------------------------

typedef struct {
    r_2d_t *d;
    const world_t *w;
    r_2d_canvas_t *c;
    const char *p;       // the rest of the program
    char tok[TOKEN_MAX];
    int x, y, width;
    int flash;           // the frame's flash phase: Quake II's (serverframe >> 2) & 1
} layout_t;

static int next(layout_t *l) { return next_token(&l->p, l->tok); }

// The next token as a number (0 when the program ended).
static int next_number(layout_t *l) { return next(l) ? number(l->tok) : 0; }

// client X Y N SCORE PING TIME
static void do_client(layout_t *l)
{
    l->x = l->c->vw / 2 - 160 + next_number(l);
    l->y = l->c->vh / 2 - 120 + next_number(l);
    int n = next_number(l), score = next_number(l), ping = next_number(l), time = next_number(l);
    if (n < 0 || n >= Q2_MAX_CLIENTS || n >= WORLD_MAX_PLAYERS)
        return;
    const world_player_t *p = &l->w->players[n];
    char s[64];
    draw_string(l->d, l->c, l->x + 32, l->y, p->name, 0x80);
    draw_string(l->d, l->c, l->x + 32, l->y + 8, "Score: ", 0);
    snprintf(s, sizeof s, "%d", score);
    draw_string(l->d, l->c, l->x + 32 + 7 * 8, l->y + 8, s, 0x80);
    snprintf(s, sizeof s, "Ping:  %d", ping);
    draw_string(l->d, l->c, l->x + 32, l->y + 16, s, 0);
    snprintf(s, sizeof s, "Time:  %d", time);
    draw_string(l->d, l->c, l->x + 32, l->y + 24, s, 0);
    draw_icon(l->d, l->c, l->x, l->y, p);
}

// ctf X Y N SCORE PING
static void do_ctf(layout_t *l)
{
    l->x = l->c->vw / 2 - 160 + next_number(l);
    l->y = l->c->vh / 2 - 120 + next_number(l);
    int n = next_number(l), score = next_number(l), ping = next_number(l);
    if (n < 0 || n >= Q2_MAX_CLIENTS || n >= WORLD_MAX_PLAYERS)
        return;
    if (ping > 999)
        ping = 999;
    char s[64];
    snprintf(s, sizeof s, "%3d %3d %-12.12s", score, ping, l->w->players[n].name);
    draw_string(l->d, l->c, l->x, l->y, s, n == l->w->playernum ? 0x80 : 0);
}

// hnum / anum / rnum: a stat in the current width, red or flashing by its
// value, over the field_3 picture while the game flashes it.
static void do_special_num(layout_t *l, int stat, int flash_bit)
{
    const int *stats = r_2d_view(l->d, l->w)->stats;
    int value = stats[stat], color;
    if (stat == Q2_STAT_HEALTH)
        color = value > 25 ? 0 : value > 0 ? l->flash : 1;
    else if (stat == Q2_STAT_AMMO) {
        if (value < 0)
            return;
        color = value > 5 ? 0 : l->flash;
    } else {
        if (value < 1)
            return;
        color = 0;
    }
    if (stats[Q2_STAT_FLASHES] & flash_bit)
        r_2d_transpic(l->c, l->x, l->y, &l->d->pics[Q2_FIELD3]);
    draw_field(l->d, l->c, l->x, l->y, color, l->width, value);
}

static void step(layout_t *l)
{
    const char *t = l->tok;
    r_2d_canvas_t *c = l->c;
    const world_t *w = l->w;
    int ok;
    if (!strcmp(t, "xl")) {
        l->x = next_number(l);
    } else if (!strcmp(t, "xr")) {
        l->x = c->vw + next_number(l);
    } else if (!strcmp(t, "xv")) {
        l->x = c->vw / 2 - 160 + next_number(l);
    } else if (!strcmp(t, "yt")) {
        l->y = next_number(l);
    } else if (!strcmp(t, "yb")) {
        l->y = c->vh + next_number(l);
    } else if (!strcmp(t, "yv")) {
        l->y = c->vh / 2 - 120 + next_number(l);
    } else if (!strcmp(t, "pic")) {
        int v = next(l) ? stat_of(r_2d_view(l->d, w), l->tok, &ok) : (ok = 0);
        if (ok && v >= 0 && v < w->num_images && w->images[v][0])
            draw_pic(l->d, c, l->x, l->y, w->images[v]);
    } else if (!strcmp(t, "picn")) {
        if (next(l))
            draw_pic(l->d, c, l->x, l->y, l->tok);
    } else if (!strcmp(t, "num")) {
        l->width = next_number(l);
        int v = next(l) ? stat_of(r_2d_view(l->d, w), l->tok, &ok) : (ok = 0);
        if (ok)
            draw_field(l->d, c, l->x, l->y, 0, l->width, v);
    } else if (!strcmp(t, "hnum")) {
        do_special_num(l, Q2_STAT_HEALTH, 1);
    } else if (!strcmp(t, "anum")) {
        do_special_num(l, Q2_STAT_AMMO, 4);
    } else if (!strcmp(t, "rnum")) {
        do_special_num(l, Q2_STAT_ARMOR, 2);
    } else if (!strcmp(t, "stat_string")) {
        int v = next(l) ? stat_of(r_2d_view(l->d, w), l->tok, &ok) : (ok = 0);
        if (ok && v >= 0 && v < Q2_MAX_CONFIGSTRINGS)
            draw_string(l->d, c, l->x, l->y, configstring(w, v), 0);
    } else if (!strcmp(t, "string") || !strcmp(t, "string2")) {
        int xor = t[6] ? 0x80 : 0;
        if (next(l))
            draw_string(l->d, c, l->x, l->y, l->tok, xor);
    } else if (!strcmp(t, "cstring") || !strcmp(t, "cstring2")) {
        int xor = t[7] ? 0x80 : 0;
        if (next(l))
            hud_string(l->d, c, l->x, l->y, l->tok, 320, xor);
    } else if (!strcmp(t, "client")) {
        do_client(l);
    } else if (!strcmp(t, "ctf")) {
        do_ctf(l);
    } else if (!strcmp(t, "if")) {
        int v = next(l) ? stat_of(r_2d_view(l->d, w), l->tok, &ok) : (ok = 0);
        if (!ok || !v)   // skip to the next endif (or the end: an unterminated if)
            while (next(l) && strcmp(l->tok, "endif"))
                ;
    }
    // anything else (endif, unknown tokens) is passed over
}

void r_hud_q2_layout(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, const char *program)
{
    if (!d->game || !program)
        return;
    layout_t l = { .d = d, .w = w, .c = c, .p = program, .width = 3 };
    l.flash = (w->time > 0 ? (int)(w->time * 10) >> 2 : 0) & 1;
    while (next(&l))
        step(&l);
}

// ---- the game entry ---------------------------------------------------------

// Every `picn` of a program.
static void load_program_pics(r_2d_t *d, vfs_t *fs, const char *program)
{
    char tok[TOKEN_MAX], path[R2D_PIC_NAME];
    const char *p = program;
    while (next_token(&p, tok))
        if (!strcmp(tok, "picn") && next_token(&p, tok) && pic_path(path, sizeof path, tok))
            r_2d_named_load(d, fs, path);
}

static void q2_load_named(r_2d_t *d, vfs_t *fs, const world_t *w)
{
    char path[R2D_PIC_NAME];
    for (int i = 0; i < w->num_images; i++)
        if (w->images[i][0] && pic_path(path, sizeof path, w->images[i]))
            r_2d_named_load(d, fs, path);
    load_program_pics(d, fs, w->statusbar);
    load_program_pics(d, fs, w->view.layout);
    for (size_t i = 0; i < sizeof layout_pics / sizeof layout_pics[0]; i++)
        if (pic_path(path, sizeof path, layout_pics[i]))
            r_2d_named_load(d, fs, path);
    r_2d_named_load(d, fs, "players/male/grunt_i.pcx");
    for (int i = 0; i < WORLD_MAX_PLAYERS; i++)
        if (w->players[i].name[0] && icon_path(path, sizeof path, &w->players[i]))
            r_2d_named_load(d, fs, path);
}

static void q2_draw_hud(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, double t)
{
    (void)t;
    r_hud_q2_layout(d, w, c, w->statusbar);
    const world_view_t *v = r_2d_view(d, w);   // the recording player's, or a followed player's own
    if (v->stats[Q2_STAT_LAYOUTS] & 1)
        r_hud_q2_layout(d, w, c, v->layout);
}

const r_2d_game_t r_2d_game_quake2 = {
    .game = GAME_QUAKE2,
    .name = "quake2",
    .pics = q2_pics,
    .num_pics = Q2_SLOTS,
    .conchars_slot = Q2_CONCHARS,
    .conchars_transparent = 255,
    .backtile_slot = -1,
    .level_banner = 1,
    .chat_print_level = 3,        // PRINT_CHAT
    .center_clears_notify = 1,
    .center_time = 2.5f,          // Quake II's scr_centertime
    .load_named = q2_load_named,
    .draw_hud = q2_draw_hud,
    // The game computes every screen blend itself (liquids, damage, pickups,
    // powerups) and sends it in the player state: no client-side shifts.
    .view_blend = 1,
};
