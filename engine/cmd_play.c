// cmd_play.c -- `demoplay play`: the demo in an SDL2 window, in real time, with pause, seek, speed and frame step
//
// The clock: playback time advances by wall time x speed; the player decodes
// ahead until the latest server frame is at or past the clock, and the renderer
// draws the clock's time between the last two frames. The 8-bit frame becomes
// RGB once, gets the status line drawn over it (a built-in 5x7 font, no game
// data), and is scaled up by SDL with nearest-neighbour sampling, aspect kept.
//
// DEMOPLAY_PLAY_LOG=FILE writes one line per shown frame and per key, for tests:
//     show N t=SECONDS frame=F speed=S paused=P end=E
//     key NAME t=SECONDS
#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "cli.h"
#include "demo.h"
#include "log.h"
#include "playback.h"

#define STATUS_SECONDS 2.5
#define MIN_SPEED (1.0 / 8)
#define MAX_SPEED 16.0

// ---- a tiny 5x7 font for the status line --------------------------------------

typedef struct {
    char c;
    uint8_t rows[7];   // 5 bits each, bit 4 = leftmost column
} glyph_t;

static const glyph_t font[] = {
    { '0', { 0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E } }, { '1', { 0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E } },
    { '2', { 0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F } }, { '3', { 0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E } },
    { '4', { 0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02 } }, { '5', { 0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E } },
    { '6', { 0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E } }, { '7', { 0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 } },
    { '8', { 0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E } }, { '9', { 0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C } },
    { 'A', { 0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11 } }, { 'D', { 0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E } },
    { 'E', { 0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F } }, { 'I', { 0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E } },
    { 'L', { 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F } }, { 'N', { 0x11, 0x19, 0x15, 0x13, 0x11, 0x11, 0x11 } },
    { 'O', { 0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E } }, { 'P', { 0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10 } },
    { 'R', { 0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11 } }, { 'S', { 0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E } },
    { 'T', { 0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04 } }, { 'U', { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E } },
    { 'x', { 0x00, 0x00, 0x11, 0x0A, 0x04, 0x0A, 0x11 } }, { '.', { 0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C } },
    { ':', { 0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00 } }, { '/', { 0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00 } },
    { '-', { 0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00 } },
};

static const glyph_t *find_glyph(char c)
{
    for (size_t i = 0; i < sizeof(font) / sizeof(font[0]); i++)
        if (font[i].c == c)
            return &font[i];
    return NULL;   // a space, or a character the font lacks
}

static void fill_rect(uint8_t *rgb, int w, int h, int x0, int y0, int rw, int rh, uint8_t v, int blend)
{
    for (int y = y0 < 0 ? 0 : y0; y < y0 + rh && y < h; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x0 + rw && x < w; x++) {
            uint8_t *px = rgb + ((size_t)y * w + x) * 3;
            for (int c = 0; c < 3; c++)
                px[c] = blend ? (uint8_t)(px[c] / 3) : v;
        }
}

// Draw `s` at (x, y) in RGB, each font pixel `sc` x `sc`, on a darkened box.
static void draw_text(uint8_t *rgb, int w, int h, int x, int y, int sc, const char *s)
{
    int n = (int)strlen(s);
    fill_rect(rgb, w, h, x - 2 * sc, y - 2 * sc, n * 6 * sc + 3 * sc, 11 * sc, 0, 1);
    for (int i = 0; i < n; i++) {
        const glyph_t *g = find_glyph(s[i]);
        if (!g)
            continue;
        for (int row = 0; row < 7; row++)
            for (int col = 0; col < 5; col++)
                if (g->rows[row] & (0x10 >> col))
                    fill_rect(rgb, w, h, x + (i * 6 + col) * sc, y + row * sc, sc, sc, 255, 0);
    }
}

static void format_time(char *out, size_t cap, double t)
{
    if (t < 0)
        t = 0;
    long tenths = lround(t * 10);
    snprintf(out, cap, "%ld:%02ld.%ld", tenths / 600, (tenths / 10) % 60, tenths % 10);
}

static void format_speed(char *out, size_t cap, double speed)
{
    if (speed >= 1)
        snprintf(out, cap, "x%d", (int)lround(speed));
    else
        snprintf(out, cap, "x1/%d", (int)lround(1 / speed));
}

// ---- the window ---------------------------------------------------------------

typedef struct {
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    int fullscreen;
} window_t;

static int window_open(window_t *wd, const char *title, int w, int h, int scale)
{
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");   // nearest neighbour: keep the pixels square and sharp
    wd->win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w * scale, h * scale,
                               SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!wd->win)
        return -1;
    wd->ren = SDL_CreateRenderer(wd->win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!wd->ren)
        wd->ren = SDL_CreateRenderer(wd->win, -1, 0);
    if (!wd->ren)
        return -1;
    SDL_RenderSetLogicalSize(wd->ren, w, h);   // letterboxed, aspect kept
    wd->tex = SDL_CreateTexture(wd->ren, SDL_PIXELFORMAT_RGB24, SDL_TEXTUREACCESS_STREAMING, w, h);
    return wd->tex ? 0 : -1;
}

static void window_close(window_t *wd)
{
    if (wd->tex)
        SDL_DestroyTexture(wd->tex);
    if (wd->ren)
        SDL_DestroyRenderer(wd->ren);
    if (wd->win)
        SDL_DestroyWindow(wd->win);
}

static int default_scale(int w, int h)
{
    SDL_DisplayMode dm;
    int s = 1;
    if (SDL_GetDesktopDisplayMode(0, &dm) == 0)
        while (w * (s + 1) <= dm.w * 8 / 10 && h * (s + 1) <= dm.h * 8 / 10 && s < 8)
            s++;
    return s;
}

// ---- the playback loop ----------------------------------------------------------

typedef struct {
    player_t *p;
    snd_t *snd;
    double clock, speed;
    int paused, at_end;
    double status_until;
    FILE *log;
} play_t;

static double wall(void) { return (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency(); }

static void show_status(play_t *s) { s->status_until = wall() + STATUS_SECONDS; }

static void seek_to(play_t *s, double t)
{
    double start = player_start(s->p), end = player_end(s->p);
    if (t > end)
        t = end;
    if (t < start)
        t = start;
    if (player_seek(s->p, t) < 0)
        log_warn("seek: out of memory");
    if (s->paused && s->snd)
        snd_stop_all(s->snd);   // paused means silent, also after a seek or a step
    s->clock = t;
    s->at_end = 0;
    if (s->log) {
        player_stats_t st;
        player_get_stats(s->p, &st);
        fprintf(s->log, "seek t=%.4f ms=%.2f\n", t, st.last_seek_ms);
    }
    show_status(s);
}

static void set_paused(play_t *s, int paused)
{
    if (paused && !s->paused && s->snd)
        snd_stop_all(s->snd);   // the next frame played restarts the looping sounds
    s->paused = paused;
}

static const char *key_name(SDL_Keycode k)
{
    const char *n = SDL_GetKeyName(k);
    return n && n[0] ? n : "?";
}

// Returns 1 to quit.
static int on_key(play_t *s, window_t *wd, const SDL_KeyboardEvent *ev)
{
    SDL_Keycode k = ev->keysym.sym;
    int shift = (ev->keysym.mod & KMOD_SHIFT) != 0, alt = (ev->keysym.mod & KMOD_ALT) != 0;
    if (s->log)
        fprintf(s->log, "key %s%s t=%.4f\n", shift ? "Shift+" : "", key_name(k), s->clock);
    switch (k) {
    case SDLK_ESCAPE:
    case SDLK_q:
        return 1;
    case SDLK_SPACE:
        set_paused(s, !s->paused);
        break;
    case SDLK_LEFT:
        seek_to(s, s->clock - (shift ? 30 : 5));
        break;
    case SDLK_RIGHT:
        seek_to(s, s->clock + (shift ? 30 : 5));
        break;
    case SDLK_HOME:
        seek_to(s, player_start(s->p));
        break;
    case SDLK_UP:
        s->speed = s->speed * 2 > MAX_SPEED ? MAX_SPEED : s->speed * 2;
        break;
    case SDLK_DOWN:
        s->speed = s->speed / 2 < MIN_SPEED ? MIN_SPEED : s->speed / 2;
        break;
    case SDLK_PERIOD:
        // one server frame on: show the latest decoded frame, or decode the next
        set_paused(s, 1);
        if (player_time(s->p) > s->clock + 1e-9 || player_step(s->p) > 0)
            s->clock = player_time(s->p);
        if (s->snd)
            snd_stop_all(s->snd);
        s->at_end = player_ended(s->p) && s->clock >= player_end(s->p);
        break;
    case SDLK_COMMA: {
        set_paused(s, 1);
        double prev = player_prev_time(s->p);
        seek_to(s, prev > -1e299 && prev < s->clock ? prev : player_start(s->p));
        break;
    }
    case SDLK_F11:
        wd->fullscreen = !wd->fullscreen;
        SDL_SetWindowFullscreen(wd->win, wd->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        break;
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        if (alt) {
            wd->fullscreen = !wd->fullscreen;
            SDL_SetWindowFullscreen(wd->win, wd->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        }
        break;
    default:
        return 0;
    }
    show_status(s);
    return 0;
}

int cmd_play(const cli_t *cli)
{
    demo_t d;
    if (demo_open(&d, cli, cli->files[0], NULL, 0) < 0) {
        log_error("%s", d.errmsg);
        int st = d.failed ? EXIT_DEMO_ERRORS : EXIT_USAGE;
        demo_close(&d);
        return st;
    }
    int status = EXIT_OK;
    int w = cli->width ? cli->width : 640, h = cli->height ? cli->height : 480;
    window_t wd;
    memset(&wd, 0, sizeof(wd));
    play_t s;
    memset(&s, 0, sizeof(s));
    renderer_t *r = NULL;
    uint8_t *rgb = NULL;

    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0) {
        log_error("play: cannot open a window: %s", SDL_GetError());
        demo_close(&d);
        return EXIT_INTERNAL;
    }
    const char *logpath = getenv("DEMOPLAY_PLAY_LOG");
    if (logpath && logpath[0]) {
        s.log = fopen(logpath, "w");
        if (!s.log)
            log_warn("cannot write the play log '%s'", logpath);
    }
    r = r_create(w, h);
    rgb = malloc((size_t)w * (size_t)h * 3);
    s.snd = cli->nosound ? NULL : snd_create((float)cli->volume);   // NULL: silent, warned once already
    s.p = r && rgb ? player_create(&d, cli, r, s.snd, NULL) : NULL;
    if (!s.p || player_scan(s.p) < 0) {
        log_error("%s: out of memory", d.name);
        status = EXIT_INTERNAL;
        goto done;
    }
    if (cam_from_cli(r, cli->camera, "play") < 0) {
        status = EXIT_USAGE;
        goto done;
    }
    if (player_error(s.p))
        log_warn("%s", player_error(s.p));   // play what decodes
    if (player_frames(s.p) <= 0) {
        log_error("%s: the demo has no frames to show", d.name);
        status = EXIT_DEMO_ERRORS;
        goto done;
    }
    char title[1200];
    snprintf(title, sizeof(title), "demoplay - %s", d.name);
    if (window_open(&wd, title, w, h, cli->scale > 0 ? cli->scale : default_scale(w, h)) < 0) {
        log_error("play: cannot open a window: %s", SDL_GetError());
        status = EXIT_INTERNAL;
        goto done;
    }

    s.speed = 1;
    seek_to(&s, cli->have_start ? cli->start : player_start(s.p));
    double last = wall();
    long long shown = 0;
    double shown_clock = -1e300;
    int shown_status = -1, dirty = 1, quit = 0;
    while (!quit) {
        SDL_Event ev;
        // nothing moves while paused or at the end: sleep until an event (or the status line expires)
        int idle = (s.paused || s.at_end) && !dirty;
        if (idle ? SDL_WaitEventTimeout(&ev, 100) : SDL_PollEvent(&ev)) {
            do {
                if (ev.type == SDL_QUIT)
                    quit = 1;
                else if (ev.type == SDL_KEYDOWN)
                    quit |= on_key(&s, &wd, &ev.key);
                else if (ev.type == SDL_WINDOWEVENT)
                    dirty = 1;
                dirty = 1;
            } while (SDL_PollEvent(&ev));
        }
        if (quit)
            break;
        double now = wall(), dt = now - last;
        last = now;
        if (!s.paused && !s.at_end)
            s.clock += dt * s.speed;
        if (player_advance(s.p, s.clock) < 0) {
            log_error("%s: out of memory", d.name);
            status = EXIT_INTERNAL;
            break;
        }
        if (player_ended(s.p) && s.clock >= player_end(s.p)) {
            s.clock = player_end(s.p);
            if (!s.at_end) {
                s.at_end = 1;
                show_status(&s);
            }
            if (cli->quit_at_end && shown_clock == s.clock)
                break;
        }
        int status_on = now < s.status_until;
        if (!dirty && s.clock == shown_clock && status_on == shown_status)
            continue;
        dirty = 0;

        r_render(r, d.world, player_demo_time(s.p, s.clock));
        if (s.snd) {
            vec3_t org, ang;
            player_view(s.p, org, ang);
            snd_listener(s.snd, org, ang);
        }
        r_frame_rgb(r, rgb);
        if (status_on) {
            char a[32], b[32], sp[16], line[128];
            format_time(a, sizeof(a), s.clock);
            format_time(b, sizeof(b), player_end(s.p));
            format_speed(sp, sizeof(sp), s.speed);
            snprintf(line, sizeof(line), "%s / %s  %s%s", a, b, sp,
                     s.at_end ? "  END" : s.paused ? "  PAUSED" : "");
            int sc = h >= 400 ? 2 : 1;
            draw_text(rgb, w, h, 4 * sc, h - 11 * sc, sc, line);
        }
        SDL_UpdateTexture(wd.tex, NULL, rgb, w * 3);
        SDL_SetRenderDrawColor(wd.ren, 0, 0, 0, 255);
        SDL_RenderClear(wd.ren);
        SDL_RenderCopy(wd.ren, wd.tex, NULL, NULL);
        SDL_RenderPresent(wd.ren);
        shown++;
        shown_clock = s.clock;
        shown_status = status_on;
        if (s.log) {
            fprintf(s.log, "show %lld t=%.4f frame=%lld speed=%g paused=%d end=%d\n", shown, s.clock,
                    player_frame(s.p), s.speed, s.paused, s.at_end);
            fflush(s.log);
        }
        // without vsync (e.g. a virtual display) do not spin faster than ~125 frames a second
        double spent = wall() - now;
        if (spent < 0.008)
            SDL_Delay((Uint32)((0.008 - spent) * 1000) + 1);
    }

done:
    if (s.log)
        fclose(s.log);
    window_close(&wd);
    player_destroy(s.p);
    if (s.snd)
        snd_destroy(s.snd);
    r_destroy(r);
    free(rgb);
    demo_close(&d);
    SDL_Quit();
    return status;
}
