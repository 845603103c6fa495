// r_2d_local.h -- private 2D defs shared by r_2d.c (API, events, blends), r_text.c (drawing, console), r_sbar.c (Quake HUD), r_hud_q2.c (Quake II HUD)
//
// 2D is drawn on a "virtual screen" of vw x vh pixels, each an s x s block of
// the real framebuffer (s = the integer 2D scale, see r_2d_scale). Game HUD code
// works in virtual pixels exactly as Quake's did in real ones, so the Quake
// status bar code reads like the original at 320x200 and simply grows at 1280x720.
#ifndef R_2D_LOCAL_H
#define R_2D_LOCAL_H

#include <stdint.h>

#include "../assets/wad.h"
#include "r_2d.h"

#define R2D_MAX_PICS 256
#define R2D_CON_LINES 16          // logical console lines kept for the notify area
#define R2D_CON_LINE_LEN 256
#define R2D_NOTIFY_LINES 4        // Quake's NUM_CON_TIMES
#define R2D_NOTIFY_TIME 3.0       // con_notifytime
#define R2D_CENTER_TIME 2.0       // scr_centertime
#define R2D_PRINT_SPEED 8.0       // scr_printspeed: finale characters per second
#define R2D_CENTER_LEN 1024
#define R2D_TINT_LEVELS 32        // brightness steps of an additive tinted picture (Half-Life's HUD)
#define R2D_TINTS 2
#define R2D_PIC_NAME 64           // longest path of a named picture (MAX_QPATH)

// A colour shift: the palette moves percent/256 of the way to dest.
typedef struct {
    int dest[3];
    float percent;
} r_2d_cshift_t;

// One powerup tint: shown while any of `items` bits is set, first match wins.
typedef struct {
    uint32_t items;
    int dest[3];
    int percent;
} r_2d_powerup_t;

typedef struct {
    uint8_t *buf;
    int width, height, rowbytes;   // real framebuffer
    int scale;                     // real pixels per virtual pixel
    int ox, oy;                    // real position of virtual (0,0)
    int vw, vh;                    // virtual size
} r_2d_canvas_t;

// What a game's HUD needs; one entry per game (r_2d.c holds the table).
typedef struct r_2d_game_s {
    world_game_t game;
    const char *name;
    // Pictures: slot -> "wad:lumpname" (from `wad`) or a VFS path ("gfx/inter.lmp").
    const char *wad;
    const char *const *pics;
    int num_pics;
    int conchars_slot;             // slot of the 128x128 console font, -1 none
    int conchars_transparent;      // the font's see-through colour: Quake 0, Quake II 255
    int backtile_slot;             // slot of the tile behind a narrow status bar, -1 none
    int level_banner;              // print Quake's level-name banner to the console at a new level
    // Pictures the slot table cannot name (Half-Life's hud.txt pieces); returns how many loaded.
    int (*load)(r_2d_t *d, vfs_t *fs);
    int chat_print_level;          // a print of this level is drawn in the coloured set (0: none)
    int center_clears_notify;      // a centerprint empties the notify area (Quake II's Con_ClearNotify)
    float center_time;             // seconds a centerprint stays (0: Quake's scr_centertime)
    // Pictures a level names (Quake II's CS_IMAGES, player icons): loaded by
    // r_2d_load into the named slots after `num_pics` (r_2d_named_load), NULL none.
    void (*load_named)(r_2d_t *d, vfs_t *fs, const world_t *w);
    // Virtual rows the status bar takes at this virtual size (0 when hidden).
    int (*sbar_lines)(const r_2d_t *d, const world_t *w, int vw, int vh);
    void (*draw_hud)(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, double t);
    // Intermission / finale / cutscene screens; returns 1 when it drew one
    // (then notify lines and the status bar are not drawn, as in Quake).
    int (*draw_intermission)(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, double t);
    // Screen blends.
    r_2d_cshift_t contents_water, contents_slime, contents_lava;
    const r_2d_powerup_t *powerups;
    int num_powerups;
    int bonus_color[3];
    int bonus_percent;
    float damage_decay, bonus_decay;   // percent per second
    int view_blend;                // add the game's own blend (w->view.blend), as Quake II's client does
    // The game's own handling of a decoded frame's events (Forsaken: its message queue), NULL none.
    void (*frame)(r_2d_t *d, const world_t *w);
    // 1: the game queues and draws its prints, chats and kills itself (in draw_hud): the
    // console notify lines and centre prints are not fed.
    int own_text;
    // 1: draw_hud is called with a detached camera too (it checks hud_off and pilot itself):
    // Forsaken's panel can show any pilot's numbers, each ship's updates carry its own.
    int hud_always;
} r_2d_game_t;

typedef struct {
    char text[R2D_CON_LINE_LEN];
    int len;
    double time;                   // when the line started (Quake's con_times)
} r_2d_conline_t;

// Forsaken's message queue (r_fshud.c): the newest lines, each with when it came and how
// long the game kept it (Text.c's MessageTime, in seconds here).
#define R2D_FS_MSGS 8
#define R2D_FS_LINE 64             // MAXPERLINE 62 and a NUL
typedef struct {
    char text[R2D_FS_MSGS][R2D_FS_LINE];
    double start[R2D_FS_MSGS];
    double life[R2D_FS_MSGS];
    int count;                     // lines ever added (the ring holds the last R2D_FS_MSGS)
} r_2d_fsmsg_t;

// Forsaken's pictures as r_fshud.c keeps them: a font page's name lengths (cells) measured at load.
typedef struct {
    uint8_t name_cells[2][32];     // [font][row of the weapon-name column]
} r_2d_fsfont_t;

struct r_2d_s {
    const r_2d_game_t *game;
    uint8_t palette[768];          // the level's (r_2d_load): pictures with their own palette map to it
    wad_pic_t pics[R2D_MAX_PICS];
    // Named slots [first_named, first_named + num_named) of pics[]: the path each
    // was loaded from (a missing file keeps its name and no pixels, so it is not looked for again).
    char pic_names[R2D_MAX_PICS][R2D_PIC_NAME];
    int first_named, num_named;
    // What the named pictures were last looked for with (r_2d_frame looks again when the
    // level names new images or the status bar / layout programs change, as Quake II's
    // client registers them when their config strings come)
    vfs_t *fs;
    uint32_t named_images_seq;
    uint32_t named_programs;       // a hash of the status bar and layout programs

    // console: a ring of logical lines, wrapped when drawn
    r_2d_conline_t con[R2D_CON_LINES];
    int con_head;                  // index of the newest line
    int con_count;
    int con_open;                  // the newest line takes more characters
    int con_cr;                    // a '\r' came: the next line overwrites the newest

    int notify_off;                // --notify off: no notify, chat or centre-print lines (con_notifytime 0)
    // Lines the game prints to its console while drawing the frame (Quake II's "Can't find
    // pic: NAME" for every missing picture it is asked to draw): the newest R2D_NOTIFY_LINES
    // of this frame's, emptied when a frame's drawing starts (drawing keeps nothing from
    // frame to frame: a picture depends on the demo and the time only).
    char draw_prints[R2D_NOTIFY_LINES][R2D_PIC_NAME + 24];
    int num_draw_prints;           // printed this frame (the ring keeps the last R2D_NOTIFY_LINES)
    int hud_off;                   // a detached camera: no status bar, no blends of the recording player
    int pilot;                     // a camera following this player slot (-1: none; r_2d_set_pilot)
    const world_view_t *view;      // the view the frame is drawn from (r_2d_set_view; NULL: the world's)
    int scores_on;                 // the score table on request (r_2d_show_scores)
    r_2d_fsmsg_t fsmsg;            // Forsaken (r_fshud.c)
    r_2d_fsfont_t fsfont;

    // centerprint
    char center[R2D_CENTER_LEN];
    double center_start;
    int center_lines;
    int center_set;

    // blends
    r_2d_cshift_t damage, bonus, vcshift;   // vcshift: the "v_cshift" command's empty-contents shift
    double damage_time, bonus_time;

    // HUD timing, as Quake's client keeps it
    uint32_t items;
    int items_known;
    double item_gettime[32];
    double faceanimtime;
    uint32_t level_seq;
    int level_known;
    int adopt_silently;            // after a seek: take the items as they are, no flashes, no banner

    // Additive tints on the 8-bit palette (built at load): tint[k][level][c] is
    // the palette colour nearest to colour c plus tint k at brightness level/31.
    uint8_t tint[R2D_TINTS][R2D_TINT_LEVELS][256];
    // Half-Life HUD: a number flashes brighter for a while after it changed
    int hl_known;
    int hl_last[2];                // health, armor
    double hl_changed[2];
};

// r_text.c: drawing in virtual pixels, clipped to the real framebuffer.
void r_2d_canvas_init(r_2d_canvas_t *c, r_view_t *v);
void r_2d_pic(r_2d_canvas_t *c, int x, int y, const wad_pic_t *p);        // opaque (Draw_Pic)
void r_2d_transpic(r_2d_canvas_t *c, int x, int y, const wad_pic_t *p);   // 255 transparent (Draw_TransPic)
void r_2d_char(r_2d_t *d, r_2d_canvas_t *c, int x, int y, int num);       // conchars, 0 transparent
void r_2d_string(r_2d_t *d, r_2d_canvas_t *c, int x, int y, const char *s);
void r_2d_fill(r_2d_canvas_t *c, int x, int y, int w, int h, int color);
// Fill real rows [y0, y1) across the whole width with the game's back tile.
void r_2d_tile_rows(r_2d_t *d, r_2d_canvas_t *c, int y0, int y1);
void r_2d_con_print(r_2d_t *d, const char *text, double time, int mask);
void r_2d_draw_notify(r_2d_t *d, r_2d_canvas_t *c, double t);
// A line the game prints while drawing this frame (no newline): shown by r_2d_draw in the
// notify area as the game's console would (r_2d_draw_prints).
void r_2d_draw_print(r_2d_t *d, const char *text);
void r_2d_draw_prints(r_2d_t *d, r_2d_canvas_t *c);
void r_2d_center_print(r_2d_t *d, const char *text, double time);
// Draw the centered text `s` typed out to `chars` characters (-1 = all).
void r_2d_draw_center_text(r_2d_t *d, r_2d_canvas_t *c, const char *s, int chars);
// Word-wrap like Quake's Con_Print into rows of `width`; returns rows written (at most maxrows,
// the LAST rows of the text are kept). starts/lens receive each row.
int r_2d_wrap(const char *text, int len, int width, int *starts, int *lens, int maxrows);

// r_2d.c: named pictures (by VFS path, case ignored), loaded per level, looked up when drawn.
// Returns the slot, or -1 when the slots are full or the path is too long.
int r_2d_named_load(r_2d_t *d, vfs_t *fs, const char *path);
// The picture loaded from `path`, or NULL (not loaded, or the file was missing).
const wad_pic_t *r_2d_named(const r_2d_t *d, const char *path);

// r_sbar.c
extern const r_2d_game_t r_2d_game_quake;
// r_hlhud.c
extern const r_2d_game_t r_2d_game_goldsrc;
// r_hud_q2.c
extern const r_2d_game_t r_2d_game_quake2;
// r_fshud.c
extern const r_2d_game_t r_2d_game_forsaken;
// Run one program of Quake II's layout language (the status bar, a layout) on
// canvas c: stats from w->view.stats, pictures from the named slots.
void r_hud_q2_layout(r_2d_t *d, const world_t *w, r_2d_canvas_t *c, const char *program);

// The view whose status bar and blends are drawn: the one r_2d_set_view named, else the world's.
static inline const world_view_t *r_2d_view(const r_2d_t *d, const world_t *w)
{
    return d->view ? d->view : &w->view;
}

#endif
