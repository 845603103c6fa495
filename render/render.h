// render.h -- the renderer's public contract: world state in, one 8-bit frame out
//
//     renderer_t *r = r_create(320, 200);
//     r_load_level(r, fs, world, err, sizeof err);   // when world->level_seq changed
//     r_frame(r, world);                              // after every decoded frame
//     r_render(r, world, t);                          // t between world->prev_time and world->time
//     r_write_png(r, "shot.png");  or  r_frame_rgb(r, rgb)  or r_pixels(...)
//
// The renderer never parses demo bytes; it reads the world (engine/world.h)
// and game data through the VFS. Everything draws into one 8-bit indexed
// framebuffer; palette to RGB happens once, when a frame leaves the renderer.
// Missing data never crashes: a missing model draws as a small box, a missing
// map gives r_load_level() < 0 with a message, and r_render then draws what it can.
#ifndef RENDER_H
#define RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/vfs.h"
#include "../engine/world.h"

typedef struct renderer_s renderer_t;

renderer_t *r_create(int width, int height);
void r_destroy(renderer_t *r);
// Load palette, colormap, the level and its models for the world's current
// level. Returns 0, or -1 with a message in err (the map is missing or bad);
// what could be loaded is kept and drawn.
int r_load_level(renderer_t *r, vfs_t *fs, const world_t *w, char *err, size_t errcap);
// Call after EVERY decoded server frame: takes the frame's events (particles,
// temp entities, dynamic lights, prints), which live in the world for one frame only.
void r_frame(renderer_t *r, const world_t *w);
// Draw the view at demo time t (interpolating between the world's last two frames).
void r_render(renderer_t *r, const world_t *w, double t);
// Forget transient effects (particles, dlights, console lines): after a seek.
// from_start: the world is back before its first frame, so the frames that
// follow are drawn exactly as by a new renderer (level banner, pickup flashes);
// otherwise the HUD takes the state it finds without flashes.
void r_clear_transients(renderer_t *r, int from_start);
// on = 0: the frame shows no notify, chat or centre-print lines (--notify off). Default on.
void r_set_notify(renderer_t *r, int on);
// The 8-bit frame and the palette (768 bytes, RGB) it is shown with, blends applied.
const uint8_t *r_pixels(const renderer_t *r, int *width, int *height, int *pitch);
const uint8_t *r_palette(const renderer_t *r);
// Convert the frame to packed RGB (width*height*3 bytes).
void r_frame_rgb(const renderer_t *r, uint8_t *rgb);
int r_write_png(const renderer_t *r, const char *path);
// World polygons drawn by the last r_render (Quake / Quake II / GoldSrc surfaces, or
// Forsaken level triangles, after visibility and back-face culling).
int r_world_polys(const renderer_t *r);
// How long the level's blend tables took to build (GoldSrc render modes), in ms; -1 none.
double r_level_tables_ms(const renderer_t *r);

#endif
