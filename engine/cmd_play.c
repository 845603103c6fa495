// cmd_play.c -- `demoplay play`: the demo in an SDL2 window, in real time, with pause, seek, speed,
// frame step, cameras, a timeline, screenshots; `play DIR` first shows a shelf of the folder's demos
//
// The clock: playback time advances by wall time x speed; the player decodes
// ahead until the latest server frame is at or past the clock, and the renderer
// draws the clock's time between the last two frames. The 8-bit frame becomes
// RGB once, gets the overlays drawn over it (status line and timeline at the top,
// where no game draws its status bar; the key help in the middle; engine/ui_text.c,
// no game data), and is scaled up by SDL with nearest-neighbour sampling, aspect kept.
// Nothing is allocated per frame: the buffers, the camera and the keyframes are made
// when a demo opens.
//
// DEMOPLAY_PLAY_LOG=FILE writes one line per shown frame and per event, for tests (the file is
// emptied, then appended to, so a test may add its own marker lines):
//     open FILE start=S end=E frames=N
//     layout tl_x0=X tl_x1=X tl_y=Y        (the timeline's ends and middle, window coordinates)
//     show N t=SECONDS frame=F speed=S paused=P end=E cam=MODE player=SLOT origin=X,Y,Z angles=P,Y,R tl=0|1 help=0|1
//     key NAME t=SECONDS   (keyup NAME t=SECONDS: a key let go in the free camera)
//     seek t=SECONDS ms=MS
//     shot PATH | keyframe N t=SECONDS | shelf N | shelf-read N
#include <SDL.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "camera.h"
#include "encode.h"
#include "cli.h"
#include "demo.h"
#include "log.h"
#include "playback.h"
#include "shelf.h"
#include "ui_text.h"

#define STATUS_SECONDS 2.5
#define TIMELINE_SECONDS 2.0
#define MIN_SPEED (1.0 / 8)
#define MAX_SPEED 16.0
#define FREE_SPEED 320.0f       // units a second (Quake's sv_maxspeed); Shift x4
#define MOUSE_YAW 0.066f        // degrees a mouse count: Quake's m_yaw 0.022 x sensitivity 3
#define MOUSE_PITCH 0.066f

static double wall(void) { return (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency(); }

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
    int w, h;               // render size
    uint8_t *rgb;           // w * h * 3
    SDL_Rect dst;           // where the frame is shown, in output pixels
    float scale;            // output pixels per render pixel
    float hidpi;            // output pixels per window coordinate
} window_t;

static int window_open(window_t *wd, int w, int h, int scale)
{
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");   // nearest neighbour: keep the pixels square and sharp
    wd->w = w;
    wd->h = h;
    wd->rgb = malloc((size_t)w * (size_t)h * 3);
    if (!wd->rgb)
        return -1;
    wd->win = SDL_CreateWindow("demoplay", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w * scale, h * scale,
                               SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!wd->win)
        return -1;
    wd->ren = SDL_CreateRenderer(wd->win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!wd->ren)
        wd->ren = SDL_CreateRenderer(wd->win, -1, 0);
    if (!wd->ren)
        return -1;
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
    free(wd->rgb);
}

// Where the frame goes: as large as fits, aspect kept, centred. 1 when it moved.
static int window_layout(window_t *wd)
{
    int ow = 1, oh = 1, ww = 1, wh = 1;
    SDL_GetRendererOutputSize(wd->ren, &ow, &oh);
    SDL_GetWindowSize(wd->win, &ww, &wh);
    float sx = (float)ow / (float)wd->w, sy = (float)oh / (float)wd->h;
    float sc = sx < sy ? sx : sy;
    SDL_Rect d = { 0, 0, (int)lroundf(wd->w * sc), (int)lroundf(wd->h * sc) };
    d.x = (ow - d.w) / 2;
    d.y = (oh - d.h) / 2;
    float hidpi = ww > 0 ? (float)ow / (float)ww : 1;
    int moved = memcmp(&d, &wd->dst, sizeof d) != 0 || sc != wd->scale || hidpi != wd->hidpi;
    wd->dst = d;
    wd->scale = sc;
    wd->hidpi = hidpi;
    return moved;
}

// A window coordinate in render pixels, fractional (as SDL maps a logical size: x / scale).
static void window_to_render(const window_t *wd, int x, int y, float *rx, float *ry)
{
    float s = wd->scale > 0 ? wd->scale : 1;
    *rx = ((float)x * wd->hidpi - (float)wd->dst.x) / s;
    *ry = ((float)y * wd->hidpi - (float)wd->dst.y) / s;
}

static void window_present(window_t *wd)
{
    window_layout(wd);
    SDL_UpdateTexture(wd->tex, NULL, wd->rgb, wd->w * 3);
    SDL_SetRenderDrawColor(wd->ren, 0, 0, 0, 255);
    SDL_RenderClear(wd->ren);
    SDL_RenderCopy(wd->ren, wd->tex, NULL, &wd->dst);
    SDL_RenderPresent(wd->ren);
}

static void toggle_fullscreen(window_t *wd)
{
    wd->fullscreen = !wd->fullscreen;
    SDL_SetWindowFullscreen(wd->win, wd->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
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

// ---- the session: one window, demos played one after another -------------------------

enum { PLAY_QUIT, PLAY_BACK, PLAY_OPEN };

typedef struct {
    const cli_t *cli;
    window_t wd;
    FILE *log;
    shelf_t *shelf;          // play DIR
    char next[1024];         // PLAY_OPEN: the file dropped on the window
    r_cam_key_t *keys;       // K: keyframes, times increasing
    int nkeys;
    r_camera_t *cam;         // the camera the keys choose (copied into the renderer when it changes)
} session_t;

// ---- one demo ---------------------------------------------------------------------

typedef struct {
    session_t *ss;
    demo_t *d;
    player_t *p;
    renderer_t *r;
    snd_t *snd;
    double clock, speed;
    int paused, at_end;
    double status_until, timeline_until;
    int help;
    char message[160];       // shown in the status line (a screenshot's name)
    // timeline
    int sc;                  // overlay pixel size
    int tl_x0, tl_x1, tl_y, band_h;
    int dragging, seek_pending;
    double seek_target;
    int clock_held;          // a seek (or the start) was just made: its moment is shown before the clock runs on
    // free camera
    int mouse_captured;
    int cam_dirty;
    int drawn;               // a frame was drawn (r_camera_state holds its view)
    int shots;
} play_t;

static void logf_(play_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(play_t *s, const char *fmt, ...)
{
    FILE *f = s->ss->log;
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fflush(f);
}

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
    s->clock_held = 1;
    player_stats_t st;
    player_get_stats(s->p, &st);
    logf_(s, "seek t=%.4f ms=%.2f\n", t, st.last_seek_ms);
    show_status(s);
}

static void set_paused(play_t *s, int paused)
{
    if (paused && !s->paused && s->snd)
        snd_stop_all(s->snd);   // the next frame played restarts the looping sounds
    s->paused = paused;
}

static const char *mode_name(r_cam_mode_t m)
{
    switch (m) {
    case R_CAM_FREE: return "free";
    case R_CAM_CHASE: return "chase";
    case R_CAM_FOLLOW: return "follow";
    case R_CAM_PATH: return "path";
    case R_CAM_EYES:
    default: return "eyes";
    }
}

static void capture_mouse(play_t *s, int on)
{
    if (s->mouse_captured == on)
        return;
    SDL_SetRelativeMouseMode(on ? SDL_TRUE : SDL_FALSE);
    s->mouse_captured = on;
}

static void set_mode(play_t *s, r_cam_mode_t mode)
{
    r_camera_t *c = s->ss->cam;
    if (mode == R_CAM_FREE && c->mode != R_CAM_FREE) {
        // the free camera starts where the view is now
        r_cam_state_t st;
        r_camera_state(s->r, &st);
        memcpy(c->origin, st.origin, sizeof c->origin);
        memcpy(c->angles, st.angles, sizeof c->angles);
        c->angles[2] = 0;
        c->pose_set = 1;
    }
    c->mode = mode;
    s->cam_dirty = 1;
    capture_mouse(s, mode == R_CAM_FREE);
}

// The next (dir 1) or previous (-1) active player after the one followed.
static void cycle_player(play_t *s, int dir)
{
    const world_t *w = s->d->world;
    r_camera_t *c = s->ss->cam;
    int cur = c->player >= 0 ? c->player : w->playernum;
    if (c->player_name[0]) {   // --camera follow:NAME: start from that player's slot
        r_cam_state_t st;
        r_camera_state(s->r, &st);
        cur = st.player >= 0 ? st.player : w->playernum;
    }
    for (int k = 1; k <= WORLD_MAX_PLAYERS; k++) {
        int i = ((cur + dir * k) % WORLD_MAX_PLAYERS + WORLD_MAX_PLAYERS) % WORLD_MAX_PLAYERS;
        if (w->players[i].active && w->players[i].name[0]) {
            c->player = i;
            c->player_name[0] = 0;
            break;
        }
    }
    set_mode(s, c->mode == R_CAM_CHASE ? R_CAM_CHASE : R_CAM_FOLLOW);
}

// K: a keyframe at the view drawn and the time shown, kept in time order (the same time replaces).
static void drop_key(play_t *s)
{
    session_t *ss = s->ss;
    r_cam_state_t st;
    r_camera_state(s->r, &st);
    r_cam_key_t k;
    memset(&k, 0, sizeof k);
    k.t = player_demo_time(s->p, s->clock);
    memcpy(k.origin, st.origin, sizeof k.origin);
    memcpy(k.angles, st.angles, sizeof k.angles);
    int i = 0;
    while (i < ss->nkeys && ss->keys[i].t < k.t - 1e-6)
        i++;
    if (i < ss->nkeys && fabs(ss->keys[i].t - k.t) <= 1e-6) {
        ss->keys[i] = k;
    } else if (ss->nkeys < R_CAM_MAX_KEYS) {
        memmove(&ss->keys[i + 1], &ss->keys[i], (size_t)(ss->nkeys - i) * sizeof k);
        ss->keys[i] = k;
        ss->nkeys++;
    } else {
        snprintf(s->message, sizeof s->message, "keyframes full (%d)", R_CAM_MAX_KEYS);
        return;
    }
    snprintf(s->message, sizeof s->message, "keyframe %d at %.2f s", ss->nkeys, k.t);
    logf_(s, "keyframe %d t=%.4f origin=%.1f,%.1f,%.1f\n", ss->nkeys, k.t, k.origin[0], k.origin[1], k.origin[2]);
}

// F12 (numbered) and p (named by the exact time): the renderer's frame, no overlays, at the render size.
static void screenshot(play_t *s, int timed)
{
    const cli_t *cli = s->ss->cli;
    char dir[1024], base[256], path[1400];
    const char *name = s->d->name, *slash = strrchr(name, '/');
    if (cli->shots)
        snprintf(dir, sizeof dir, "%s", cli->shots);
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - name), name);
    else
        snprintf(dir, sizeof dir, ".");
    snprintf(base, sizeof base, "%.200s", slash ? slash + 1 : name);
    char *dot = strrchr(base, '.');
    if (dot && dot != base)
        *dot = 0;
    size_t bl = strlen(base);
    if (bl > 4 && !strcasecmp(base + bl - 4, ".dm2"))   // x.dm2.gz
        base[bl - 4] = 0;
    if (timed) {
        snprintf(path, sizeof path, "%s/%s_t%09.4f.png", dir, base, player_demo_time(s->p, s->clock));
    } else {
        struct stat st;
        for (int n = ++s->shots; n < 100000; n++) {
            snprintf(path, sizeof path, "%s/%s_%04d.png", dir, base, n);
            if (stat(path, &st) != 0)
                break;
            s->shots = n + 1;
        }
    }
    int w, h, pitch;
    const uint8_t *pix = r_pixels(s->r, &w, &h, &pitch);
    char err[512];
    if (enc_write_png(path, pix, w, h, pitch, r_palette(s->r), err, sizeof err) < 0) {   // as export's frames
        log_error("%s", err);
        snprintf(s->message, sizeof s->message, "cannot write %.120s", path);
        return;
    }
    const char *shown = strrchr(path, '/');
    snprintf(s->message, sizeof s->message, "saved %.140s", shown ? shown + 1 : path);
    logf_(s, "shot %s\n", path);
    show_status(s);
}

static const char *key_name(SDL_Keycode k)
{
    const char *n = SDL_GetKeyName(k);
    return n && n[0] ? n : "?";
}

// Returns PLAY_* to leave, -1 to go on.
static int on_key(play_t *s, const SDL_KeyboardEvent *ev)
{
    SDL_Keycode k = ev->keysym.sym;
    int shift = (ev->keysym.mod & KMOD_SHIFT) != 0, alt = (ev->keysym.mod & KMOD_ALT) != 0;
    int freecam = s->ss->cam->mode == R_CAM_FREE;
    if (!ev->repeat)
        logf_(s, "key %s%s t=%.4f\n", shift ? "Shift+" : "", key_name(k), s->clock);
    if (ev->repeat && (k == SDLK_SPACE || k == SDLK_q || k == SDLK_e || k == SDLK_c))
        return -1;
    if (freecam && (k == SDLK_w || k == SDLK_a || k == SDLK_s || k == SDLK_d || k == SDLK_q || k == SDLK_e ||
                    k == SDLK_SPACE || k == SDLK_LCTRL || k == SDLK_RCTRL || k == SDLK_LSHIFT || k == SDLK_RSHIFT))
        return -1;   // the free camera's movement keys: held, read each frame
    switch (k) {
    case SDLK_ESCAPE:
        if (s->help) {
            s->help = 0;
            break;
        }
        return s->ss->shelf ? PLAY_BACK : PLAY_QUIT;
    case SDLK_q:
        return PLAY_QUIT;
    case SDLK_SPACE:
    case SDLK_PAUSE:
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
    case SDLK_c: {
        r_cam_mode_t m = s->ss->cam->mode;
        // eyes > chase > free > eyes; follow and path go on to chase (of the player followed)
        set_mode(s, m == R_CAM_CHASE ? R_CAM_FREE : m == R_CAM_FREE ? R_CAM_EYES : R_CAM_CHASE);
        break;
    }
    case SDLK_LEFTBRACKET:
        cycle_player(s, -1);
        break;
    case SDLK_RIGHTBRACKET:
        cycle_player(s, 1);
        break;
    case SDLK_k:
        drop_key(s);
        break;
    case SDLK_F1:
        s->help = !s->help;
        break;
    case SDLK_TAB:   // the score table while Tab is held (Forsaken's own; a no-op where the HUD has none)
        if (!ev->repeat)
            r_show_scores(s->r, 1);
        break;
    case SDLK_F12:
        screenshot(s, 0);
        return -1;
    case SDLK_p:
        screenshot(s, 1);
        return -1;
    case SDLK_F11:
        toggle_fullscreen(&s->ss->wd);
        break;
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        if (alt)
            toggle_fullscreen(&s->ss->wd);
        break;
    default:
        return -1;
    }
    show_status(s);
    return -1;
}

// The free camera: WASD on the view's plane, Q/Ctrl down, E/Space up, Shift faster; dt wall seconds.
static void fly(play_t *s, double dt)
{
    r_camera_t *c = s->ss->cam;
    if (!c->pose_set) {   // --camera free without a place: the renderer took the eyes' view
        if (!s->drawn)
            return;
        r_cam_state_t st;
        r_camera_state(s->r, &st);
        memcpy(c->origin, st.origin, sizeof c->origin);
        memcpy(c->angles, st.angles, sizeof c->angles);
        c->pose_set = 1;
    }
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    float fw = (float)(k[SDL_SCANCODE_W] - k[SDL_SCANCODE_S]);
    float rt = (float)(k[SDL_SCANCODE_D] - k[SDL_SCANCODE_A]);
    float up = (float)((k[SDL_SCANCODE_E] | k[SDL_SCANCODE_SPACE]) -
                       (k[SDL_SCANCODE_Q] | k[SDL_SCANCODE_LCTRL] | k[SDL_SCANCODE_RCTRL]));
    if (fw == 0 && rt == 0 && up == 0)
        return;
    float v = FREE_SPEED * (float)dt * ((k[SDL_SCANCODE_LSHIFT] | k[SDL_SCANCODE_RSHIFT]) ? 4.0f : 1.0f);
    float p = c->angles[0] * (float)M_PI / 180, y = c->angles[1] * (float)M_PI / 180;
    // Quake's axes: pitch down is positive, yaw turns from +x towards +y
    float f[3] = { cosf(p) * cosf(y), cosf(p) * sinf(y), -sinf(p) };
    float r[3] = { sinf(y), -cosf(y), 0 };
    for (int i = 0; i < 3; i++)
        c->origin[i] += v * (fw * f[i] + rt * r[i]);
    c->origin[2] += v * up;
    s->cam_dirty = 1;
}

static void look(play_t *s, int dx, int dy)
{
    r_camera_t *c = s->ss->cam;
    if (c->mode != R_CAM_FREE || !c->pose_set)
        return;
    c->angles[1] -= (float)dx * MOUSE_YAW;
    c->angles[0] += (float)dy * MOUSE_PITCH;
    if (c->angles[0] > 89)
        c->angles[0] = 89;
    if (c->angles[0] < -89)
        c->angles[0] = -89;
    c->angles[1] = fmodf(c->angles[1], 360.0f);
    s->cam_dirty = 1;
}

// ---- overlays ------------------------------------------------------------------------

static void layout_overlays(play_t *s)
{
    const window_t *wd = &s->ss->wd;
    s->sc = wd->h >= 400 ? 2 : 1;
    int sc = s->sc;
    s->tl_x0 = 6 * sc;
    s->tl_x1 = wd->w - 6 * sc;
    s->tl_y = (UI_CHAR_H + 5) * sc;
    s->band_h = s->tl_y + 10 * sc;
}

static void log_layout(play_t *s)
{
    const window_t *wd = &s->ss->wd;
    float k = wd->scale / (wd->hidpi > 0 ? wd->hidpi : 1);
    float ox = (float)wd->dst.x / wd->hidpi, oy = (float)wd->dst.y / wd->hidpi;
    logf_(s, "layout tl_x0=%.2f tl_x1=%.2f tl_y=%.2f band=%.2f\n", ox + (float)s->tl_x0 * k,
          ox + (float)s->tl_x1 * k, oy + ((float)s->tl_y + 3.0f * (float)s->sc) * k,
          oy + (float)s->band_h * k);
}

static double timeline_time(const play_t *s, float rx)
{
    double f = (rx - (float)s->tl_x0) / (double)(s->tl_x1 - s->tl_x0);
    if (f < 0)
        f = 0;
    if (f > 1)
        f = 1;
    double a = player_start(s->p), b = player_end(s->p);
    return a + f * (b - a);
}

static void draw_status(play_t *s, ui_canvas_t *c, int timeline)
{
    int sc = s->sc;
    char a[32], b[32], sp[16], cam[96], line[400];
    format_time(a, sizeof a, s->clock);
    format_time(b, sizeof b, player_end(s->p));
    format_speed(sp, sizeof sp, s->speed);
    const r_camera_t *cm = s->ss->cam;
    const world_t *w = s->d->world;
    snprintf(cam, sizeof cam, "%s", mode_name(cm->mode));
    if (cm->mode == R_CAM_FOLLOW || cm->mode == R_CAM_CHASE) {
        r_cam_state_t st;
        r_camera_state(s->r, &st);
        int slot = cm->player_name[0] ? st.player : cm->player;
        if (slot < 0)
            slot = w->playernum;
        const char *nm = slot >= 0 && slot < WORLD_MAX_PLAYERS ? w->players[slot].name : "";
        snprintf(cam, sizeof cam, "%s %.60s%s", mode_name(cm->mode), nm[0] ? nm : "?",
                 st.player != slot && slot != w->playernum ? " (not in view)" : "");
    }
    snprintf(line, sizeof line, "%s / %s  %s%s  %s%s%s", a, b, sp, s->at_end ? "  END" : s->paused ? "  PAUSED" : "",
             cam, s->message[0] ? "  " : "", s->message);
    int bh = (timeline ? s->band_h : s->tl_y - sc) ;
    ui_shade(c, 0, 0, c->w, bh, 1, 6);
    ui_text(c, 4 * sc, 3 * sc, sc, 0xffffff, line);
    if (!timeline)
        return;
    int x0 = s->tl_x0, x1 = s->tl_x1, y = s->tl_y, th = 6 * sc;
    double a0 = player_start(s->p), b0 = player_end(s->p), len = b0 - a0;
    ui_fill(c, x0, y, x1 - x0, th, 0x505860);
    int xc = len > 0 ? x0 + (int)lround((s->clock - a0) / len * (x1 - x0)) : x0;
    ui_fill(c, x0, y, xc - x0, th, 0xd09030);
    const double *lv;
    int nl = player_levels(s->p, &lv);
    for (int i = 1; i < nl; i++) {   // where a level begins (the first is the start)
        int x = len > 0 ? x0 + (int)lround((lv[i] - a0) / len * (x1 - x0)) : x0;
        ui_fill(c, x - sc / 2, y - 2 * sc, sc > 1 ? sc : 1, th + 4 * sc, 0x60d0ff);
    }
    ui_fill(c, xc - sc, y - 2 * sc, 2 * sc, th + 4 * sc, 0xffffff);
}

static const char *const help_lines[] = {
    "Space / Pause    pause, resume",
    "Left / Right     seek -5 / +5 s (Shift: 30 s)",
    "Up / Down        speed x2 / x1/2 (wheel too)",
    ". and ,          one server frame on / back",
    "Home             the start",
    "mouse            timeline: click or drag to seek",
    "C                camera: eyes > chase > free",
    "[ and ]          follow the previous / next player",
    "free camera      mouse look, WASD, E/Space up,",
    "                 Q/Ctrl down, Shift faster",
    "K                keyframe here (--camera-save)",
    "Tab (held)       score table (Forsaken)",
    "F12              screenshot (p: named by time)",
    "F11, Alt+Enter   fullscreen",
    "drop a file      play it",
    "F1               this help",
    "Esc              back to the shelf, or quit; Q quit",
};

static void draw_help(play_t *s, ui_canvas_t *c)
{
    int sc = s->sc, n = (int)(sizeof help_lines / sizeof help_lines[0]);
    int lw = 0;
    for (int i = 0; i < n; i++) {
        int tw = ui_text_width(sc, help_lines[i]);
        lw = tw > lw ? tw : lw;
    }
    int lh = (UI_CHAR_H + 1) * sc, bw = lw + 16 * sc, bh = (n + 2) * lh + 8 * sc;
    int x = (c->w - bw) / 2, y = (c->h - bh) / 2;
    if (x < 0)
        x = 0;
    if (y < 0)
        y = 0;
    ui_shade(c, x, y, bw, bh, 1, 4);
    ui_fill(c, x, y, bw, sc, 0xd09030);
    ui_text(c, x + 8 * sc, y + 5 * sc, sc, 0xd09030, "keys");
    for (int i = 0; i < n; i++)
        ui_text(c, x + 8 * sc, y + 5 * sc + (i + 2) * lh - lh / 2, sc, 0xe8e8e8, help_lines[i]);
}

// ---- the playback loop ----------------------------------------------------------

static int play_loop(play_t *s)
{
    session_t *ss = s->ss;
    window_t *wd = &ss->wd;
    const cli_t *cli = ss->cli;
    ui_canvas_t canvas = { wd->rgb, wd->w, wd->h };
    layout_overlays(s);
    double last = wall();
    long long shown = 0;
    double shown_clock = -1e300;
    int shown_status = -1, dirty = 1, result = -1, laid_out = 0;
    while (result < 0) {
        SDL_Event ev;
        // nothing moves while paused or at the end: sleep until an event (or the overlays expire);
        // the free camera flies while paused, so it looks at its keys every 8 ms
        int idle = (s->paused || s->at_end) && !dirty && !s->seek_pending;
        int wait_ms = ss->cam->mode == R_CAM_FREE ? 8 : 100;
        if (idle ? SDL_WaitEventTimeout(&ev, wait_ms) : SDL_PollEvent(&ev)) {
            do {
                float rx, ry;
                switch (ev.type) {
                case SDL_QUIT:
                    result = PLAY_QUIT;
                    break;
                case SDL_KEYDOWN: {
                    int r = on_key(s, &ev.key);
                    if (r >= 0)
                        result = r;
                    break;
                }
                case SDL_KEYUP:   // the free camera stops here (tests wait for it)
                    if (ev.key.keysym.sym == SDLK_TAB)
                        r_show_scores(s->r, 0);
                    if (ss->cam->mode == R_CAM_FREE)
                        logf_(s, "keyup %s t=%.4f\n", key_name(ev.key.keysym.sym), s->clock);
                    break;
                case SDL_DROPFILE:
                    snprintf(ss->next, sizeof ss->next, "%s", ev.drop.file);
                    SDL_free(ev.drop.file);
                    logf_(s, "drop %s\n", ss->next);
                    result = PLAY_OPEN;
                    break;
                case SDL_MOUSEWHEEL:
                    if (ev.wheel.y > 0)
                        s->speed = s->speed * 2 > MAX_SPEED ? MAX_SPEED : s->speed * 2;
                    else if (ev.wheel.y < 0)
                        s->speed = s->speed / 2 < MIN_SPEED ? MIN_SPEED : s->speed / 2;
                    show_status(s);
                    break;
                case SDL_MOUSEMOTION:
                    if (s->mouse_captured) {
                        look(s, ev.motion.xrel, ev.motion.yrel);
                        break;
                    }
                    s->timeline_until = wall() + TIMELINE_SECONDS;
                    show_status(s);
                    if (s->dragging) {
                        window_to_render(wd, ev.motion.x, ev.motion.y, &rx, &ry);
                        s->seek_target = timeline_time(s, rx);
                        s->seek_pending = 1;
                    }
                    break;
                case SDL_MOUSEBUTTONDOWN:
                    if (ev.button.button != SDL_BUTTON_LEFT)
                        break;
                    if (s->mouse_captured) {   // free camera: a click pauses (Space rises)
                        set_paused(s, !s->paused);
                        show_status(s);
                        break;
                    }
                    window_to_render(wd, ev.button.x, ev.button.y, &rx, &ry);
                    if (ry >= 0 && ry < s->band_h) {
                        s->dragging = 1;
                        s->seek_target = timeline_time(s, rx);
                        s->seek_pending = 1;
                        s->timeline_until = wall() + TIMELINE_SECONDS;
                    }
                    break;
                case SDL_MOUSEBUTTONUP:
                    if (ev.button.button == SDL_BUTTON_LEFT)
                        s->dragging = 0;
                    break;
                default:
                    break;
                }
                dirty = 1;
            } while (result < 0 && SDL_PollEvent(&ev));
        }
        if (result >= 0)
            break;
        if (s->seek_pending) {   // one seek a frame however fast the mouse drags
            s->seek_pending = 0;
            seek_to(s, s->seek_target);
        }
        // The time a seek took (the demo's first one builds its index: seconds on a slow
        // machine) is not played: the moment sought is shown first, then the clock runs on.
        double now = wall(), dt = s->clock_held ? 0 : now - last;
        last = now;
        s->clock_held = 0;
        if (ss->cam->mode == R_CAM_FREE)
            fly(s, dt);
        if (s->cam_dirty) {
            r_set_camera(s->r, ss->cam);
            s->cam_dirty = 0;
            dirty = 1;
        }
        if (!s->paused && !s->at_end)
            s->clock += dt * s->speed;
        if (player_advance(s->p, s->clock) < 0) {
            log_error("%s: out of memory", s->d->name);
            return PLAY_QUIT;
        }
        if (player_ended(s->p) && s->clock >= player_end(s->p)) {
            s->clock = player_end(s->p);
            if (!s->at_end) {
                s->at_end = 1;
                show_status(s);
            }
            if (cli->quit_at_end && shown_clock == s->clock)
                return ss->shelf ? PLAY_BACK : PLAY_QUIT;
        }
        int tl_on = now < s->timeline_until || s->dragging;
        int status_on = (now < s->status_until) | (tl_on << 1) | (s->help << 2);
        if (!dirty && s->clock == shown_clock && status_on == shown_status)
            continue;
        dirty = 0;

        double shown_t = player_demo_time(s->p, s->clock);
        r_render(s->r, s->d->world, shown_t);
        s->drawn = 1;
        if (s->snd) {   // the sound is heard from where the picture's camera is (docs/audio.md)
            float org[3], fwd[3], up[3];
            int body;
            if (r_camera_pose(s->r, s->d->world, shown_t, org, fwd, up, &body) == 0) {
                snd_listener_axes(s->snd, org, fwd, up);
                snd_listener_entity(s->snd, body);
            }
        }
        r_frame_rgb(s->r, wd->rgb);
        if (status_on & 3)
            draw_status(s, &canvas, tl_on);
        else
            s->message[0] = 0;
        if (s->help)
            draw_help(s, &canvas);
        window_present(wd);
        if (!laid_out || window_layout(wd)) {
            log_layout(s);
            laid_out = 1;
        }
        shown++;
        shown_clock = s->clock;
        shown_status = status_on;
        if (ss->log) {
            r_cam_state_t st;
            r_camera_state(s->r, &st);
            fprintf(ss->log,
                    "show %lld t=%.4f frame=%lld speed=%g paused=%d end=%d cam=%s player=%d origin=%.2f,%.2f,%.2f "
                    "angles=%.2f,%.2f,%.2f tl=%d help=%d\n",
                    shown, s->clock, player_frame(s->p), s->speed, s->paused, s->at_end, mode_name(ss->cam->mode),
                    st.player, st.origin[0], st.origin[1], st.origin[2], st.angles[0], st.angles[1], st.angles[2],
                    tl_on, s->help);
            fflush(ss->log);
        }
        // without vsync (e.g. a virtual display) do not spin faster than ~125 frames a second
        double spent = wall() - now;
        if (spent < 0.008)
            SDL_Delay((Uint32)((0.008 - spent) * 1000) + 1);
    }
    return result;
}

// Play one file in the session's window: PLAY_* (PLAY_BACK also when the demo cannot be played
// from the shelf), and *status the exit status it gives.
static int play_file(session_t *ss, const char *path, int *status)
{
    const cli_t *cli = ss->cli;
    window_t *wd = &ss->wd;
    demo_t *d = calloc(1, sizeof *d);
    play_t s;
    memset(&s, 0, sizeof s);
    s.ss = ss;
    s.d = d;
    int result = PLAY_QUIT;
    if (!d) {
        *status = EXIT_INTERNAL;
        return PLAY_QUIT;
    }
    if (demo_open(d, cli, path, NULL, 0) < 0) {
        log_error("%s", d->errmsg);
        *status = d->failed ? EXIT_DEMO_ERRORS : EXIT_USAGE;
        demo_close(d);
        free(d);
        return ss->shelf ? PLAY_BACK : PLAY_QUIT;
    }
    s.r = r_create(wd->w, wd->h);
    if (s.r) {   // --threads N: each frame drawn in N screen bands, one a thread (default one a core)
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        r_set_threads(s.r, cli->threads >= 0 ? cli->threads : ncpu > 0 ? (int)(ncpu > 16 ? 16 : ncpu) : 1);
    }
    s.snd = cli->nosound ? NULL : snd_create((float)cli->volume);   // NULL: silent, warned once already
    s.p = s.r ? player_create(d, cli, s.r, s.snd, NULL) : NULL;
    if (!s.p || player_scan(s.p) < 0) {
        log_error("%s: out of memory", d->name);
        *status = EXIT_INTERNAL;
        goto done;
    }
    char err[512];
    memset(ss->cam, 0, sizeof *ss->cam);
    if (cam_parse(cli->camera, ss->cam, err, sizeof err) < 0) {
        log_error("play: --camera: %s", err);
        *status = EXIT_USAGE;
        goto done;
    }
    ss->cam->smooth = 1;   // a window shows frames in order: the chase camera may lag (docs/cameras.md)
    r_set_camera(s.r, ss->cam);
    if (player_error(s.p))
        log_warn("%s", player_error(s.p));   // play what decodes
    if (player_frames(s.p) <= 0) {
        log_error("%s: the demo has no frames to show", d->name);
        *status = EXIT_DEMO_ERRORS;
        result = ss->shelf ? PLAY_BACK : PLAY_QUIT;
        goto done;
    }
    char title[1200];
    snprintf(title, sizeof title, "demoplay - %s", d->name);
    SDL_SetWindowTitle(wd->win, title);
    logf_(&s, "open %s start=%.4f end=%.4f frames=%lld\n", d->name, player_start(s.p), player_end(s.p),
          player_frames(s.p));
    s.speed = 1;
    seek_to(&s, ss->shelf == NULL && cli->have_start ? cli->start : player_start(s.p));
    capture_mouse(&s, ss->cam->mode == R_CAM_FREE);
    result = play_loop(&s);
    capture_mouse(&s, 0);

done:
    player_destroy(s.p);
    if (s.snd)
        snd_destroy(s.snd);
    r_destroy(s.r);
    demo_close(d);
    free(d);
    return result;
}

// ---- the shelf ------------------------------------------------------------------------

// The shelf until a demo is chosen (its index), a file is dropped (-2, ss->next) or quit (-1).
static int shelf_loop(session_t *ss, int *sel)
{
    window_t *wd = &ss->wd;
    ui_canvas_t canvas = { wd->rgb, wd->w, wd->h };
    int sc = wd->w >= 1200 && wd->h >= 800 ? 2 : 1, rows = 1, n = shelf_count(ss->shelf);
    int dirty = 1, shown_pending = -1, result = -3;
    SDL_SetWindowTitle(wd->win, "demoplay - shelf");
    if (ss->log) {
        fprintf(ss->log, "shelf %d\n", n);
        fflush(ss->log);
    }
    while (result == -3) {
        SDL_Event ev;
        if (SDL_WaitEventTimeout(&ev, 100)) {
            do {
                float rx, ry;
                switch (ev.type) {
                case SDL_QUIT:
                    result = -1;
                    break;
                case SDL_DROPFILE:
                    snprintf(ss->next, sizeof ss->next, "%s", ev.drop.file);
                    SDL_free(ev.drop.file);
                    result = -2;
                    break;
                case SDL_KEYDOWN:
                    switch (ev.key.keysym.sym) {
                    case SDLK_ESCAPE:
                    case SDLK_q: result = -1; break;
                    case SDLK_UP: (*sel)--; break;
                    case SDLK_DOWN: (*sel)++; break;
                    case SDLK_PAGEUP: *sel -= rows; break;
                    case SDLK_PAGEDOWN: *sel += rows; break;
                    case SDLK_HOME: *sel = 0; break;
                    case SDLK_END: *sel = n - 1; break;
                    case SDLK_RETURN:
                    case SDLK_KP_ENTER: result = *sel; break;
                    case SDLK_F11: toggle_fullscreen(wd); break;
                    default: break;
                    }
                    break;
                case SDL_MOUSEWHEEL:
                    *sel -= ev.wheel.y * 3;
                    break;
                case SDL_MOUSEBUTTONDOWN: {
                    window_to_render(wd, ev.button.x, ev.button.y, &rx, &ry);
                    int i = shelf_row_at(ss->shelf, &canvas, sc, (int)ry);
                    if (i >= 0 && ev.button.button == SDL_BUTTON_LEFT) {
                        if (i == *sel && ev.button.clicks >= 2)
                            result = i;
                        *sel = i;
                    }
                    break;
                }
                default:
                    break;
                }
                if (*sel >= n)
                    *sel = n - 1;
                if (*sel < 0)
                    *sel = 0;
                dirty = 1;
            } while (result == -3 && SDL_PollEvent(&ev));
        }
        int pending = shelf_pending(ss->shelf);
        if (result != -3 || (!dirty && pending == shown_pending))
            continue;
        dirty = 0;
        rows = shelf_draw(ss->shelf, &canvas, *sel, sc);
        window_present(wd);
        if (ss->log && pending != shown_pending) {
            fprintf(ss->log, "shelf-read %d\n", n - pending);
            fflush(ss->log);
        }
        shown_pending = pending;
    }
    return result;
}

int cmd_play(const cli_t *cli)
{
    int status = EXIT_OK;
    session_t ss;
    memset(&ss, 0, sizeof ss);
    ss.cli = cli;
    struct stat st;
    int is_dir = stat(cli->files[0], &st) == 0 && S_ISDIR(st.st_mode);
    char err[512];
    if (cli->camera && cam_check_spec(cli->camera, err, sizeof err) < 0) {
        log_error("play: --camera: %s", err);
        return EXIT_USAGE;
    }
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0) {
        log_error("play: cannot open a window: %s", SDL_GetError());
        return EXIT_INTERNAL;
    }
    // Without a display it can reach (DISPLAY unset or its server gone), SDL falls back to its
    // window-less drivers and play would run unseen, never ending; unless asked for by name
    // (SDL_VIDEODRIVER), that is an error.
    const char *driver = SDL_GetCurrentVideoDriver();
    const char *asked = getenv("SDL_VIDEODRIVER");
    if (driver && (!strcmp(driver, "offscreen") || !strcmp(driver, "dummy") || !strncmp(driver, "evdev", 5)) &&
        !(asked && asked[0])) {
        const char *d = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
        log_error("play: cannot open a window: no display reachable (DISPLAY=%s, WAYLAND_DISPLAY=%s; SDL would draw "
                  "to its window-less '%s' driver); `export` and `timedemo` run without one",
                  d && d[0] ? d : "(unset)", wl && wl[0] ? wl : "(unset)", driver);
        SDL_Quit();
        return EXIT_INTERNAL;
    }
    SDL_EventState(SDL_DROPFILE, SDL_ENABLE);
    const char *logpath = getenv("DEMOPLAY_PLAY_LOG");
    if (logpath && logpath[0]) {
        // emptied, then appended to: lines a test writes into it between ours stay in order
        ss.log = fopen(logpath, "w");
        if (ss.log)
            ss.log = freopen(logpath, "a", ss.log);
        if (!ss.log)
            log_warn("cannot write the play log '%s'", logpath);
    }
    ss.keys = calloc(R_CAM_MAX_KEYS, sizeof *ss.keys);
    ss.cam = calloc(1, sizeof *ss.cam);
    if (!ss.keys || !ss.cam) {
        log_error("play: out of memory");
        status = EXIT_INTERNAL;
        goto done;
    }
    if (is_dir) {
        ss.shelf = shelf_open(cli->files[0], cli, err, sizeof err);
        if (!ss.shelf) {
            log_error("%s", err);
            status = EXIT_USAGE;
            goto done;
        }
    }
    int w = cli->width ? cli->width : 640, h = cli->height ? cli->height : 480;
    if (window_open(&ss.wd, w, h, cli->scale > 0 ? cli->scale : default_scale(w, h)) < 0) {
        log_error("play: cannot open a window: %s", SDL_GetError());
        status = EXIT_INTERNAL;
        goto done;
    }
    const char *file = is_dir ? NULL : cli->files[0];
    int sel = 0;
    for (;;) {
        if (!file) {
            int r = shelf_loop(&ss, &sel);
            if (r == -1)
                break;
            file = r == -2 ? ss.next : shelf_entry(ss.shelf, r)->path;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s", file);
        int st_file = EXIT_OK;
        int r = play_file(&ss, path, &st_file);
        if (!ss.shelf)
            status = st_file;
        file = NULL;
        if (r == PLAY_QUIT)
            break;
        if (r == PLAY_OPEN)
            file = ss.next;
        else if (!ss.shelf)
            break;
    }
    if (cli->camera_save && ss.nkeys > 0) {
        if (cam_write_path(cli->camera_save, ss.keys, ss.nkeys) < 0) {
            log_error("play: cannot write %s: %s", cli->camera_save, strerror(errno));
            if (status == EXIT_OK)
                status = EXIT_INTERNAL;
        } else if (ss.log) {
            fprintf(ss.log, "camera-save %s keys=%d\n", cli->camera_save, ss.nkeys);
        }
    }

done:
    if (ss.log)
        fclose(ss.log);
    shelf_close(ss.shelf);
    window_close(&ss.wd);
    free(ss.keys);
    free(ss.cam);
    SDL_Quit();
    return status;
}
