// r_2d.c -- 2D front: the per-game HUD table, picture loading, frame events (prints, flashes, damage) and screen blends
//
// Nothing here knows a game's HUD layout: each game is one r_2d_game_t entry
// (pictures by slot, its bar/intermission drawers, its blend colours). Quake's
// is in r_sbar.c, Quake II's in r_hud_q2.c.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../assets/pcx.h"
#include "../engine/log.h"
#include "r_2d_local.h"

static const r_2d_game_t *const games[] = {
    &r_2d_game_quake,
    &r_2d_game_goldsrc,
    &r_2d_game_quake2,
    &r_2d_game_forsaken,
};

static const r_2d_game_t *game_for(world_game_t g)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (games[i]->game == g)
            return games[i];
    return NULL;
}

r_2d_t *r_2d_create(void)
{
    r_2d_t *d = calloc(1, sizeof(r_2d_t));
    if (d) {
        d->vcshift = (r_2d_cshift_t){ { 130, 80, 50 }, 0 };   // Quake's cshift_empty
        d->pilot = -1;
    }
    return d;
}

static void free_pics(r_2d_t *d)
{
    for (int i = 0; i < R2D_MAX_PICS; i++)
        wad_pic_free(&d->pics[i]);
    d->first_named = d->num_named = 0;
    d->fs = NULL;
}

void r_2d_destroy(r_2d_t *d)
{
    if (!d)
        return;
    free_pics(d);
    free(d);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcasecmp(s + n - k, suffix);
}

// A PCX picture (Quake II): its colours are already indices of the game palette,
// so only the pixels are kept.
static int load_pcx(wad_pic_t *p, vfs_t *fs, const char *name)
{
    size_t size = 0;
    uint8_t *bytes = fs ? vfs_load(fs, name, &size) : NULL;
    if (!bytes)
        return -1;
    char err[160] = "";
    pcx_t pcx;
    int rc = pcx_load(&pcx, bytes, size, err, sizeof err);
    free(bytes);
    if (rc < 0) {
        log_warn("%s: %s", name, err);
        return -1;
    }
    memset(p, 0, sizeof(*p));
    p->width = pcx.width;
    p->height = pcx.height;
    p->pixels = pcx.pixels;   // ownership moves to the picture (wad_pic_free frees it)
    return 0;
}

static int load_pic(wad_pic_t *p, vfs_t *fs, const wad_t *wad, const char *wadname, const char *name)
{
    char err[160] = "";
    if (has_suffix(name, ".pcx"))
        return load_pcx(p, fs, name);
    if (strchr(name, '/')) {
        size_t size = 0;
        uint8_t *bytes = vfs_load(fs, name, &size);
        if (!bytes)
            return -1;
        int rc = wad_pic_from_lmp(p, bytes, size, err, sizeof err);
        free(bytes);
        if (rc < 0)
            log_warn("%s: %s", name, err);
        return rc;
    }
    const wad_lump_t *l = wad ? wad_find(wad, name) : NULL;
    if (!l)
        return -1;
    int rc;
    if (l->type == WAD_TYP_QPIC) {
        rc = wad_lump_pic(wad, l, p, err, sizeof err);
    } else {
        // Quake's conchars: a headerless 128 x 128 block (stored with the miptex type).
        size_t size;
        const uint8_t *bytes = wad_lump_data(wad, l, &size);
        rc = bytes && size == 128 * 128 ? wad_pic_from_raw(p, bytes, size, 128, 128, err, sizeof err) : -1;
        if (rc < 0 && !err[0])
            snprintf(err, sizeof err, "offset %u: expected a picture lump, got type 0x%02x of %u bytes",
                     l->offset, l->type, l->disksize);
    }
    if (rc < 0)
        log_warn("%s lump %s: %s", wadname, name, err);
    return rc;
}

// FNV-1a of the status bar and layout programs (the `picn` names they hold)
static uint32_t programs_hash(const world_t *w)
{
    uint32_t h = 2166136261u;
    for (const char *s = w->statusbar; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    h = (h ^ 0xffu) * 16777619u;
    for (const char *s = w->view.layout; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

int r_2d_load(r_2d_t *d, vfs_t *fs, const world_t *w, const uint8_t *palette)
{
    memcpy(d->palette, palette, sizeof d->palette);
    free_pics(d);
    d->game = game_for(w->game);
    const r_2d_game_t *g = d->game;
    if (!g || !fs)
        return 0;
    wad_t wad;
    int have_wad = 0;
    size_t size = 0;
    uint8_t *bytes = g->wad ? vfs_load(fs, g->wad, &size) : NULL;
    if (bytes) {
        char err[160];
        if (wad_open(&wad, bytes, size, err, sizeof err) == 0)
            have_wad = 1;
        else
            log_warn("%s: %s", g->wad, err);
    }
    int loaded = 0;
    for (int i = 0; i < g->num_pics && i < R2D_MAX_PICS; i++)
        if (g->pics[i] && load_pic(&d->pics[i], fs, have_wad ? &wad : NULL, g->wad, g->pics[i]) == 0)
            loaded++;
    if (have_wad)
        wad_close(&wad);
    free(bytes);
    if (g->load)
        loaded += g->load(d, fs);
    d->first_named = g->num_pics < R2D_MAX_PICS ? g->num_pics : R2D_MAX_PICS;
    if (g->load_named) {
        d->fs = fs;
        d->named_images_seq = w->images_seq;
        d->named_programs = programs_hash(w);
        g->load_named(d, fs, w);
        for (int i = 0; i < d->num_named; i++)
            loaded += d->pics[d->first_named + i].pixels != NULL;
    }
    return loaded;
}

static int named_slot(const r_2d_t *d, const char *path)
{
    for (int i = 0; i < d->num_named; i++)
        if (!strcasecmp(d->pic_names[i], path))
            return d->first_named + i;
    return -1;
}

int r_2d_named_load(r_2d_t *d, vfs_t *fs, const char *path)
{
    int slot = named_slot(d, path);
    if (slot >= 0)
        return slot;
    size_t n = strlen(path);
    if (!n || n >= R2D_PIC_NAME || d->first_named + d->num_named >= R2D_MAX_PICS)
        return -1;
    slot = d->first_named + d->num_named;
    memcpy(d->pic_names[d->num_named++], path, n + 1);
    load_pic(&d->pics[slot], fs, NULL, "", path);   // a missing file keeps its slot, without pixels
    return slot;
}

const wad_pic_t *r_2d_named(const r_2d_t *d, const char *path)
{
    int slot = named_slot(d, path);
    return slot >= 0 && d->pics[slot].pixels ? &d->pics[slot] : NULL;
}

void r_2d_clear(r_2d_t *d, int from_start)
{
    memset(d->con, 0, sizeof d->con);
    d->con_head = d->con_count = d->con_open = d->con_cr = 0;
    d->center_set = 0;
    d->center[0] = 0;
    d->damage.percent = d->bonus.percent = 0;
    d->faceanimtime = 0;
    memset(d->item_gettime, 0, sizeof d->item_gettime);
    d->items_known = 0;
    d->level_known = 0;
    d->adopt_silently = !from_start;
    d->vcshift = (r_2d_cshift_t){ { 130, 80, 50 }, 0 };
    memset(&d->fsmsg, 0, sizeof d->fsmsg);
}

// ---- frame events -----------------------------------------------------------

static void bonus_flash(r_2d_t *d, double time)
{
    if (!d->game)
        return;
    memcpy(d->bonus.dest, d->game->bonus_color, sizeof d->bonus.dest);
    d->bonus.percent = (float)d->game->bonus_percent;
    d->bonus_time = time;
}

// Quake's V_UpdatePalette ages the damage and bonus shifts once a client frame,
// after the frame's messages: percent (an int) -= frametime * rate, truncated
// toward zero, not below 0. A demo's frame time is its block's time step, so a
// flash is stepped here once per server frame exactly as the game stepped it
// (the truncation makes a bonus flash at 72 blocks a second last 25 blocks, 0.35 s).
static float aged(float percent, double dt, float rate)
{
    double p = (double)(int)percent - dt * rate;
    int v = (int)p;
    return v > 0 ? (float)v : 0;
}

static void damage(r_2d_t *d, const world_damage_event_t *e, double time)
{
    // Quake's V_ParseDamage: the red shift grows with the damage, up to 150.
    double count = e->blood * 0.5 + e->armor * 0.5;
    if (count < 10)
        count = 10;
    d->faceanimtime = time + 0.2;
    if (!d->game)
        return;
    float p = d->damage.percent + (float)(3 * count);
    d->damage.percent = p > 150 ? 150 : p < 0 ? 0 : p;
    d->damage_time = time;
    static const int armor_only[3] = { 200, 100, 100 }, mixed[3] = { 220, 50, 50 }, blood[3] = { 255, 0, 0 };
    const int *c = e->armor > e->blood ? armor_only : e->armor ? mixed : blood;
    memcpy(d->damage.dest, c, sizeof d->damage.dest);
}

// Console commands the demo stuffs into the client: "bf" (bonus flash) and
// "v_cshift r g b percent" change what is drawn; everything else is ignored.
static void stufftext(r_2d_t *d, const char *text, double time)
{
    const char *p = text;
    while (*p) {
        char cmd[128];
        size_t n = 0;
        while (*p && *p != '\n' && *p != ';') {
            if (n < sizeof cmd - 1)
                cmd[n++] = *p;
            p++;
        }
        cmd[n] = 0;
        if (*p)
            p++;
        char name[32] = "";
        int a[4] = { 0, 0, 0, 0 };
        int got = sscanf(cmd, " %31s %d %d %d %d", name, &a[0], &a[1], &a[2], &a[3]);
        if (got < 1)
            continue;
        if (!strcmp(name, "bf")) {
            bonus_flash(d, time);
        } else if (!strcmp(name, "v_cshift")) {
            d->vcshift = (r_2d_cshift_t){ { a[0], a[1], a[2] }, (float)a[3] };
        }
    }
}

// Quake's client prints this when a level starts (CL_ParseServerInfo).
static void level_banner(r_2d_t *d, const world_t *w)
{
    if (!d->game || !d->game->level_banner)
        return;
    static const char bar[] = "\n\n\35\36\36\36\36\36\36\36\36\36\36\36\36\36\36\36\36\36\36\36\36\36\36"
                              "\36\36\36\36\36\36\36\36\36\36\36\36\36\36\37\n\n";
    char name[sizeof w->level_name + 4];
    snprintf(name, sizeof name, "\2%s\n", w->level_name);
    r_2d_con_print(d, bar, w->time, 0);
    r_2d_con_print(d, name, w->time, 0);
}

static void level_start(r_2d_t *d, const world_t *w)
{
    int silent = d->adopt_silently;
    d->level_seq = w->level_seq;
    d->level_known = 1;
    d->adopt_silently = 0;
    memset(d->item_gettime, 0, sizeof d->item_gettime);
    d->faceanimtime = 0;
    if (silent) {
        d->items = w->view.items;
        d->items_known = 1;
        return;
    }
    // A new level, as Quake's client sees it: its state was cleared, so every
    // item arrives anew (the weapons flash) and the blends start from nothing.
    d->items = 0;
    d->items_known = 1;
    d->damage.percent = d->bonus.percent = 0;
    // The banner goes where the level starts among the frame's prints (EV_LEVEL),
    // so the server's VERSION line before it is ended as in Quake.
    int has_level_event = 0;
    for (int i = 0; i < w->num_events; i++)
        has_level_event |= w->events[i].type == EV_LEVEL;
    if (!has_level_event)
        level_banner(d, w);
}

void r_2d_frame(r_2d_t *d, const world_t *w)
{
    int banner = 0;
    if (!d->level_known || w->level_seq != d->level_seq) {
        banner = !d->adopt_silently;
        level_start(d, w);
    }
    uint32_t items = w->view.items;
    if (!d->items_known) {
        d->items = items;
        d->items_known = 1;
    }
    if (items != d->items) {
        // Quake's item_gettime: when each bit appeared, for the pickup flashes.
        for (int j = 0; j < 32; j++)
            if ((items & (1u << j)) && !(d->items & (1u << j)))
                d->item_gettime[j] = w->time;
        d->items = items;
    }
    // pictures the level names after it began (Quake II's CS_IMAGES in mid-level, a new
    // layout's `picn`): looked for once each, as the game's client registers them
    if (d->game && d->game->load_named && d->fs) {
        uint32_t ph = programs_hash(w);
        if (w->images_seq != d->named_images_seq || ph != d->named_programs) {
            d->named_images_seq = w->images_seq;
            d->named_programs = ph;
            d->game->load_named(d, d->fs, w);
        }
    }
    int own_text = d->game && d->game->own_text;
    if (d->game && d->game->frame)
        d->game->frame(d, w);
    for (int i = 0; i < w->num_events; i++) {
        const world_event_t *ev = &w->events[i];
        if (own_text && (ev->type == EV_PRINT || ev->type == EV_CHAT || ev->type == EV_CENTERPRINT))
            continue;
        switch (ev->type) {
        case EV_PRINT: {
            int chat = d->game && d->game->chat_print_level && ev->u.text.level == d->game->chat_print_level;
            r_2d_con_print(d, world_event_text(w, ev), w->time, chat ? 128 : 0);
            break;
        }
        case EV_CHAT:
            r_2d_con_print(d, world_event_text(w, ev), w->time, 128);
            break;
        case EV_CENTERPRINT:
            r_2d_center_print(d, world_event_text(w, ev), w->time);
            if (d->game && d->game->center_clears_notify)
                for (int k = 0; k < R2D_CON_LINES; k++)
                    d->con[k].time = -1e9;   // Quake II's Con_ClearNotify: the lines are kept, not shown
            break;
        case EV_STUFFTEXT:
            stufftext(d, world_event_text(w, ev), w->time);
            break;
        case EV_BONUSFLASH:
            bonus_flash(d, w->time);
            break;
        case EV_DAMAGE:
            damage(d, &ev->u.damage, w->time);
            break;
        case EV_LEVEL:
            if (banner)
                level_banner(d, w);
            break;
        default:
            break;
        }
    }
    double dt = w->time - w->prev_time;
    if (d->game && dt > 0 && dt < 1) {
        d->damage.percent = aged(d->damage.percent, dt, d->game->damage_decay);
        d->bonus.percent = aged(d->bonus.percent, dt, d->game->bonus_decay);
    }
}

// ---- drawing ----------------------------------------------------------------

int r_2d_sbar_lines(const r_2d_t *d, const world_t *w, int width, int height)
{
    if (!d || !d->game || !d->game->sbar_lines || d->hud_off || width <= 0 || height <= 0)
        return 0;
    int s = r_2d_scale(width, height);
    return d->game->sbar_lines(d, w, width / s, height / s) * s;
}

void r_2d_draw(r_2d_t *d, const world_t *w, r_view_t *v)
{
    if (!d || !v->buffer || v->width <= 0 || v->height <= 0)
        return;
    r_2d_canvas_t c;
    r_2d_canvas_init(&c, v);
    double t = v->time;
    const r_2d_game_t *g = d->game;
    if (g && g->draw_intermission && g->draw_intermission(d, w, &c, t))
        return;
    double center_time = g && g->center_time > 0 ? g->center_time : R2D_CENTER_TIME;
    if (!d->notify_off && d->center_set && t - d->center_start < center_time)
        r_2d_draw_center_text(d, &c, d->center, -1);
    d->num_draw_prints = 0;
    if (g && g->draw_hud && (!d->hud_off || g->hud_always))
        g->draw_hud(d, w, &c, t);
    if (d->num_draw_prints)   // the game printed while drawing: its console shows those lines
        r_2d_draw_prints(d, &c);
    else if (!d->notify_off)
        r_2d_draw_notify(d, &c, t);
}

void r_2d_set_notify(r_2d_t *d, int on)
{
    if (d)
        d->notify_off = !on;
}

void r_2d_set_hud(r_2d_t *d, int on)
{
    if (d)
        d->hud_off = !on;
}

void r_2d_set_pilot(r_2d_t *d, int slot)
{
    if (d)
        d->pilot = slot >= 0 && slot < WORLD_MAX_PLAYERS ? slot : -1;
}

void r_2d_set_view(r_2d_t *d, const world_view_t *view)
{
    if (d)
        d->view = view;
}

void r_2d_show_scores(r_2d_t *d, int on)
{
    if (d)
        d->scores_on = on != 0;
}

// ---- screen blends ----------------------------------------------------------

// Quake's (percent * delta) >> 8, as a floor on every platform.
static int shift8(int x) { return x >= 0 ? x >> 8 : -((-x + 255) >> 8); }

// The blend the game computed (Quake II: damage, pickups, powerups, liquids),
// mixed in as Quake II's software renderer does: c + alpha * (rgb * 255 - c).
static void view_blend(const float *blend, uint8_t *pal)
{
    float a = blend[3];
    if (!(a > 0))   // also refuses NaN
        return;
    if (a > 1)
        a = 1;
    float premult[3];
    for (int k = 0; k < 3; k++) {
        float v = blend[k];
        v = v > 0 ? (v < 1 ? v : 1) : 0;
        premult[k] = v * a * 255.0f;
    }
    for (int i = 0; i < 768; i++) {
        float v = premult[i % 3] + (1 - a) * (float)pal[i];
        pal[i] = (uint8_t)(v > 255 ? 255 : v);
    }
}

void r_2d_blend(r_2d_t *d, const world_t *w, double t, int contents, const uint8_t *base, uint8_t *out)
{
    const r_2d_game_t *g = d ? d->game : NULL;
    if (!g) {
        memcpy(out, base, 768);
        return;
    }
    r_2d_cshift_t sh[4];
    // Quake's order: contents, damage, bonus, powerup.
    if (contents == -4)
        sh[0] = g->contents_slime;
    else if (contents == -5)
        sh[0] = g->contents_lava;
    else if (contents >= -2)
        sh[0] = d->vcshift;       // empty, solid, or none
    else
        sh[0] = g->contents_water; // water, and anything else below (Quake's default case)
    sh[1] = d->damage;
    sh[2] = d->bonus;
    sh[3].percent = 0;
    if (d->hud_off)   // a camera away from the recording player: not their flashes
        sh[1].percent = sh[2].percent = 0;
    for (int i = 0; !d->hud_off && i < g->num_powerups; i++)
        if (r_2d_view(d, w)->items & g->powerups[i].items) {
            memcpy(sh[3].dest, g->powerups[i].dest, sizeof sh[3].dest);
            sh[3].percent = (float)g->powerups[i].percent;
            break;
        }
    int pct[4];
    for (int j = 0; j < 4; j++) {
        pct[j] = (int)sh[j].percent;   // Quake keeps percent as an int
        if (pct[j] < 0)
            pct[j] = 0;
        if (pct[j] > 255)
            pct[j] = 255;
    }
    if (!(pct[0] | pct[1] | pct[2] | pct[3]))   // no shift (most frames): the palette as it is
        memcpy(out, base, 768);
    else
        for (int i = 0; i < 256; i++)
            for (int k = 0; k < 3; k++) {
                int c = base[i * 3 + k];
                for (int j = 0; j < 4; j++)
                    if (pct[j])
                        c += shift8(pct[j] * (sh[j].dest[k] - c));
                out[i * 3 + k] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
            }
    if (g->view_blend && !d->hud_off)
        view_blend(r_2d_view(d, w)->blend, out);
}
