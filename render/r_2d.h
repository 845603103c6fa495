// r_2d.h -- 2D drawing: status bar, console font, notify lines, centerprint, intermission, screen blends
//
// Called by the frame driver (r_main.c):
//   r_2d_frame()       once per DECODED server frame (via r_frame): takes prints,
//                      centerprints, bonus flashes and damage from the events
//   r_2d_sbar_lines()  how many rows at the bottom the status bar takes; the 3D
//                      view is drawn above them
//   r_2d_draw()        after the 3D view: HUD, text, intermission/finale screens
//   r_2d_blend()       the palette the frame is shown with (damage, bonus flash,
//                      powerups, under water/slime/lava), as Quake's v_cshift does
#ifndef R_2D_H
#define R_2D_H

#include <stdint.h>

#include "../engine/vfs.h"
#include "../engine/world.h"
#include "r_view.h"

typedef struct r_2d_s r_2d_t;

r_2d_t *r_2d_create(void);
void r_2d_destroy(r_2d_t *d);
// Load the game's 2D pictures (gfx.wad, gfx/*.lmp ...). Missing pictures are skipped.
// Returns how many were loaded (0 when the game has no 2D table or no data).
int r_2d_load(r_2d_t *d, vfs_t *fs, const world_t *w, const uint8_t *palette);
void r_2d_frame(r_2d_t *d, const world_t *w);
int r_2d_sbar_lines(const r_2d_t *d, const world_t *w, int width, int height);
void r_2d_draw(r_2d_t *d, const world_t *w, r_view_t *v);
// base: 768-byte palette; out: 768 bytes with the screen blend of time t applied.
// `contents` is the view leaf's contents (Quake CONTENTS_WATER -3, SLIME -4, LAVA -5; 0 = none).
void r_2d_blend(r_2d_t *d, const world_t *w, double t, int contents, const uint8_t *base, uint8_t *out);
void r_2d_clear(r_2d_t *d, int from_start);
// on = 0: no notify, chat or centre-print lines (Quake's con_notifytime 0 and no
// centre prints; finale and cutscene texts are centre prints too). Default on.
void r_2d_set_notify(r_2d_t *d, int on);
void r_2d_set_hud(r_2d_t *d, int on);   // off: no status bar and no blends of the recording player
// The player slot a camera follows (-1: none). A game whose HUD can show any player's numbers
// (Forsaken) shows that player's; the others ignore it.
void r_2d_set_pilot(r_2d_t *d, int slot);
// The view whose status bar and blends are drawn (the renderer's r_view_t.shown: the recording
// player's, or a followed player's own); NULL: the world's. It must outlive the frame's drawing.
void r_2d_set_view(r_2d_t *d, const world_view_t *view);
// on: the game's score table is drawn (Forsaken: names, kills, deaths, team scores); it is
// also drawn when the demo is over (view.intermission). Default off.
void r_2d_show_scores(r_2d_t *d, int on);
// The integer factor 2D is drawn at on a width x height frame: max(1, min(width/320, height/240)).
// Quake drew 2D 1:1; at 1280x720 a 320-wide status bar would cover a quarter of the width.
int r_2d_scale(int width, int height);

#endif
