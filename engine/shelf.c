// shelf.c -- the folder's demos for `play DIR`: listing, reading in a thread, cache (see shelf.h)
#include "shelf.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "demo.h"
#include "log.h"

#define MAX_DEPTH 16
#define CACHE_VERSION "demoplay-shelf 1"

struct shelf_s {
    char dir[1024];
    cli_t cli;                // basedir / game for the decoders (a copy: the thread reads it)
    shelf_entry_t *e;
    int n;
    int scroll;               // first row shown
    SDL_Thread *thread;
    SDL_atomic_t stop;
    SDL_atomic_t pending;
    char cache_path[1024];
};

static int is_demo_name(const char *name)
{
    static const char *const ext[] = { ".dem", ".dm2", ".dm2.gz", ".dmo" };
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && !strcasecmp(name + n - k, ext[i]))
            return 1;
    }
    return 0;
}

static void list_dir(shelf_t *s, const char *path, const char *rel, int depth)
{
    if (depth > MAX_DEPTH)
        return;
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && s->n < SHELF_MAX) {
        if (de->d_name[0] == '.')
            continue;
        char full[1024], sub[256];
        if (snprintf(full, sizeof full, "%s/%s", path, de->d_name) >= (int)sizeof full)
            continue;
        if (snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name) >= (int)sizeof sub)
            continue;
        struct stat st;
        if (stat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            list_dir(s, full, sub, depth + 1);
        } else if (S_ISREG(st.st_mode) && is_demo_name(de->d_name)) {
            shelf_entry_t *e = &s->e[s->n++];
            memset(e, 0, sizeof *e);
            snprintf(e->path, sizeof e->path, "%s", full);
            snprintf(e->rel, sizeof e->rel, "%s", sub);
            e->size = (long long)st.st_size;
            e->mtime = (long long)st.st_mtime;
        }
    }
    closedir(d);
}

static int by_rel(const void *a, const void *b)
{
    return strcasecmp(((const shelf_entry_t *)a)->rel, ((const shelf_entry_t *)b)->rel);
}

// ---- the cache ------------------------------------------------------------------------

static void cache_location(shelf_t *s)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (x && x[0])
        snprintf(s->cache_path, sizeof s->cache_path, "%s/demoplay/shelf.tsv", x);
    else if (home && home[0])
        snprintf(s->cache_path, sizeof s->cache_path, "%s/.cache/demoplay/shelf.tsv", home);
}

// Fields are separated by tabs; names never hold one (they are cleaned when stored).
static void clean(char *s)
{
    for (; *s; s++)
        if (*s == '\t' || *s == '\n' || *s == '\r')
            *s = ' ';
}

static void cache_load(shelf_t *s)
{
    if (!s->cache_path[0])
        return;
    FILE *f = fopen(s->cache_path, "r");
    if (!f)
        return;
    char line[2048];
    if (!fgets(line, sizeof line, f) || strncmp(line, CACHE_VERSION, strlen(CACHE_VERSION)) != 0) {
        fclose(f);
        return;   // another version's cache: read the files again
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *fld[9];
        int nf = 0;
        char *p = line;
        while (nf < 9) {
            fld[nf++] = p;
            char *t = strchr(p, '\t');
            if (!t)
                break;
            *t = 0;
            p = t + 1;
        }
        if (nf != 9)
            continue;
        for (int i = 0; i < s->n; i++) {
            shelf_entry_t *e = &s->e[i];
            if (strcmp(e->path, fld[0]) != 0 || atoll(fld[1]) != e->size || atoll(fld[2]) != e->mtime)
                continue;
            int state = atoi(fld[3]);
            if (state != SHELF_READ && state != SHELF_BAD)
                break;
            snprintf(e->game, sizeof e->game, "%s", fld[4]);
            snprintf(e->map, sizeof e->map, "%s", fld[5]);
            e->length = atof(fld[6]);
            e->levels = atoi(fld[7]);
            snprintf(state == SHELF_BAD ? e->error : e->players,
                     state == SHELF_BAD ? sizeof e->error : sizeof e->players, "%s", fld[8]);
            SDL_AtomicSet(&e->state, state);
            break;
        }
    }
    fclose(f);
}

static void mkdirs_for(const char *file)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", file);
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
}

// Rewrites the cache with this folder's entries and keeps other folders' lines.
static void cache_save(shelf_t *s)
{
    if (!s->cache_path[0])
        return;
    mkdirs_for(s->cache_path);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", s->cache_path);
    FILE *out = fopen(tmp, "w");
    if (!out)
        return;
    fprintf(out, "%s\n", CACHE_VERSION);
    FILE *in = fopen(s->cache_path, "r");
    if (in) {
        char line[2048];
        if (fgets(line, sizeof line, in) && !strncmp(line, CACHE_VERSION, strlen(CACHE_VERSION)))
            while (fgets(line, sizeof line, in)) {
                size_t k = strcspn(line, "\t");
                int ours = 0;
                for (int i = 0; i < s->n && !ours; i++)
                    ours = strlen(s->e[i].path) == k && !strncmp(line, s->e[i].path, k);
                if (!ours)
                    fputs(line, out);
            }
        fclose(in);
    }
    for (int i = 0; i < s->n; i++) {
        const shelf_entry_t *e = &s->e[i];
        int state = SDL_AtomicGet((SDL_atomic_t *)&e->state);
        if (state == SHELF_PENDING || strchr(e->path, '\t') || strchr(e->path, '\n'))
            continue;
        fprintf(out, "%s\t%lld\t%lld\t%d\t%s\t%s\t%.3f\t%d\t%s\n", e->path, e->size, e->mtime, state, e->game,
                e->map, e->length, e->levels, state == SHELF_BAD ? e->error : e->players);
    }
    if (fclose(out) == 0)
        rename(tmp, s->cache_path);
    else
        remove(tmp);
}

// ---- the reader thread ------------------------------------------------------------------

// The decoder's message without the file name it starts with (the list shows the name).
static void set_error(shelf_entry_t *e, const char *msg)
{
    size_t k = strlen(e->path);
    if (!strncmp(msg, e->path, k) && msg[k] == ':')
        msg += k + (msg[k + 1] == ' ' ? 2 : 1);
    snprintf(e->error, sizeof e->error, "%.*s", (int)sizeof e->error - 1, msg);
}

static void read_one(shelf_t *s, shelf_entry_t *e)
{
    demo_t *d = calloc(1, sizeof *d);
    if (!d)
        return;
    int state = SHELF_READ;
    if (demo_open(d, &s->cli, e->path, NULL, 0) < 0 && !d->failed) {
        set_error(e, d->errmsg);
        state = SHELF_BAD;
    } else {
        double first = 0, last = 0, offset = 0;
        int have = 0;
        uint32_t seq = 0;
        e->levels = 0;
        int started = 0;
        while (!d->failed && !SDL_AtomicGet(&s->stop)) {
            const demo_info_t *in = d->dec->info ? d->dec->info(d->state) : NULL;
            long long drawn = in ? in->drawn_frames : 0;
            if (demo_read_frame(d) <= 0)
                break;
            const world_t *w = d->world;
            if (have && w->time < last)   // a new level restarts the clock (as playback.c joins it)
                offset += last - w->time;
            last = w->time;
            have = 1;
            // the length counts from the first server frame, not the sign-on blocks before it
            if (!started && (!in || in->drawn_frames != drawn)) {
                first = last + offset;
                started = 1;
            }
            e->length = started ? last + offset - first : 0;
            if (w->level_seq != seq && w->map[0]) {
                seq = w->level_seq;
                if (!e->levels++) {
                    const char *m = w->map;
                    if (!strncasecmp(m, "maps/", 5))
                        m += 5;
                    snprintf(e->map, sizeof e->map, "%s", m);
                    char *dot = strrchr(e->map, '.');
                    if (dot && !strcasecmp(dot, ".bsp"))
                        *dot = 0;
                }
            }
            for (int i = 0; i < WORLD_MAX_PLAYERS; i++) {
                const char *nm = w->players[i].name;
                if (!nm[0] || !w->players[i].active)
                    continue;
                char plain[WORLD_NAME_LEN];
                size_t k = 0;
                for (; nm[k] && k + 1 < sizeof plain; k++)
                    plain[k] = ui_plain_char((unsigned char)nm[k]);
                plain[k] = 0;
                clean(plain);
                // already listed? (names are separated by ", ")
                const char *hit = e->players;
                int known = 0;
                size_t pl = strlen(plain);
                while ((hit = strstr(hit, plain)) != NULL && !known) {
                    known = (hit == e->players || hit[-1] == ' ') && (hit[pl] == ',' || hit[pl] == 0);
                    hit++;
                }
                size_t used = strlen(e->players);
                if (!known && used + pl + 3 < sizeof e->players)
                    snprintf(e->players + used, sizeof e->players - used, "%s%s", used ? ", " : "", plain);
            }
        }
        if (d->dec)
            snprintf(e->game, sizeof e->game, "%s", d->dec->name);
        if (d->failed && !have) {
            set_error(e, d->errmsg);
            state = SHELF_BAD;
        }
        clean(e->map);
        clean(e->error);
    }
    demo_close(d);
    free(d);
    if (!SDL_AtomicGet(&s->stop))
        SDL_AtomicSet(&e->state, state);   // the fields above are complete now
}

static int reader(void *arg)
{
    shelf_t *s = arg;
    for (int i = 0; i < s->n && !SDL_AtomicGet(&s->stop); i++)
        if (SDL_AtomicGet(&s->e[i].state) == SHELF_PENDING) {
            read_one(s, &s->e[i]);
            SDL_AtomicAdd(&s->pending, -1);
        }
    return 0;
}

shelf_t *shelf_open(const char *dir, const cli_t *cli, char *err, size_t errcap)
{
    shelf_t *s = calloc(1, sizeof *s);
    if (s)
        s->e = calloc(SHELF_MAX, sizeof *s->e);
    if (!s || !s->e) {
        snprintf(err, errcap, "out of memory");
        free(s);
        return NULL;
    }
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    size_t k = strlen(s->dir);
    while (k > 1 && s->dir[k - 1] == '/')
        s->dir[--k] = 0;
    s->cli = *cli;
    s->cli.quiet = 1;
    list_dir(s, s->dir, "", 0);
    if (s->n == 0) {
        snprintf(err, errcap, "%s: no demo in this folder (.dem, .dm2, .dm2.gz, .dmo)", dir);
        free(s->e);
        free(s);
        return NULL;
    }
    qsort(s->e, (size_t)s->n, sizeof *s->e, by_rel);
    cache_location(s);
    cache_load(s);
    int pending = 0;
    for (int i = 0; i < s->n; i++)
        pending += SDL_AtomicGet(&s->e[i].state) == SHELF_PENDING;
    SDL_AtomicSet(&s->pending, pending);
    if (pending) {
        s->thread = SDL_CreateThread(reader, "shelf", s);
        if (!s->thread)
            log_warn("%s: cannot start the reader thread: %s", dir, SDL_GetError());
    }
    return s;
}

void shelf_close(shelf_t *s)
{
    if (!s)
        return;
    SDL_AtomicSet(&s->stop, 1);
    if (s->thread)
        SDL_WaitThread(s->thread, NULL);
    cache_save(s);
    free(s->e);
    free(s);
}

void shelf_wait(shelf_t *s)
{
    if (s->thread)
        SDL_WaitThread(s->thread, NULL);
    s->thread = NULL;
}

int shelf_count(const shelf_t *s) { return s->n; }
const shelf_entry_t *shelf_entry(const shelf_t *s, int i) { return i >= 0 && i < s->n ? &s->e[i] : NULL; }
int shelf_pending(const shelf_t *s) { return SDL_AtomicGet((SDL_atomic_t *)&s->pending); }

// ---- drawing ------------------------------------------------------------------------------

#define ROW_H(sc) ((UI_CHAR_H + 2) * (sc))
#define TOP(sc) (3 * ROW_H(sc))   // title, column heads, a gap

// The end of a path when it is too long (the file's name matters most).
static void clip_tail(char *out, size_t cap, const char *s, int max_chars)
{
    int n = (int)strlen(s);
    if (max_chars < 2 || n <= max_chars)
        snprintf(out, cap, "%.*s", max_chars < 0 ? 0 : max_chars, s);
    else
        snprintf(out, cap, "~%s", s + n - (max_chars - 1));
}

static void clip_copy(char *out, size_t cap, const char *s, int max_chars)
{
    if (max_chars < 1) {
        out[0] = 0;
        return;
    }
    if ((int)strlen(s) <= max_chars) {
        snprintf(out, cap, "%s", s);
        return;
    }
    snprintf(out, cap, "%.*s~", max_chars - 1, s);
}

int shelf_draw(shelf_t *s, ui_canvas_t *c, int sel, int sc)
{
    int rh = ROW_H(sc), cw = UI_CHAR_W * sc;
    int rows = (c->h - TOP(sc) - rh) / rh;
    if (rows < 1)
        rows = 1;
    if (sel < s->scroll)
        s->scroll = sel;
    if (sel >= s->scroll + rows)
        s->scroll = sel - rows + 1;
    if (s->scroll > s->n - rows)
        s->scroll = s->n - rows;
    if (s->scroll < 0)
        s->scroll = 0;

    ui_fill(c, 0, 0, c->w, c->h, 0x101418);
    char line[512], a[256];
    int pending = shelf_pending(s);
    snprintf(line, sizeof line, "%.400s   %d demo%s", s->dir, s->n, s->n == 1 ? "" : "s");
    clip_copy(a, sizeof a, line, c->w / cw - 2);
    ui_text(c, cw, sc * 3, sc, 0xffd070, a);
    if (pending) {
        snprintf(line, sizeof line, "reading %d...", pending);
        ui_text(c, c->w - ui_text_width(sc, line) - cw, sc * 3, sc, 0x90a0b0, line);
    }
    // columns: name | game | map | length | players (what is left)
    int cols = c->w / cw - 2;
    int wn = cols * 34 / 100, wg = 9, wm = 12, wl = 8;
    int wp = cols - wn - wg - wm - wl - 4;
    int xn = cw, xg = xn + (wn + 1) * cw, xm = xg + (wg + 1) * cw, xl = xm + (wm + 1) * cw, xp = xl + (wl + 1) * cw;
    int y = rh + sc * 3;
    ui_text(c, xn, y, sc, 0x8090a0, "demo");
    ui_text(c, xg, y, sc, 0x8090a0, "game");
    ui_text(c, xm, y, sc, 0x8090a0, "map");
    ui_text(c, xl, y, sc, 0x8090a0, "length");
    ui_text(c, xp, y, sc, 0x8090a0, "players");
    ui_fill(c, cw, y + (UI_CHAR_H - 1) * sc, c->w - 2 * cw, sc, 0x404850);
    for (int r = 0; r < rows && s->scroll + r < s->n; r++) {
        int i = s->scroll + r;
        const shelf_entry_t *e = &s->e[i];
        y = TOP(sc) + r * rh;
        if (i == sel)
            ui_fill(c, cw / 2, y - sc, c->w - cw, rh, 0x30507a);
        uint32_t fg = i == sel ? 0xffffff : 0xc8d0d8;
        clip_tail(a, sizeof a, e->rel, wn);
        ui_text(c, xn, y, sc, fg, a);
        int state = SDL_AtomicGet((SDL_atomic_t *)&e->state);
        if (state == SHELF_PENDING) {
            ui_text(c, xg, y, sc, 0x708090, "...");
        } else if (state == SHELF_BAD) {
            clip_copy(a, sizeof a, e->error, cols - wn - 1);
            ui_text(c, xg, y, sc, 0xff7060, a);
        } else {
            clip_copy(a, sizeof a, e->game, wg);
            ui_text(c, xg, y, sc, fg, a);
            if (e->levels > 1)
                snprintf(line, sizeof line, "%s +%d", e->map, e->levels - 1);
            else
                snprintf(line, sizeof line, "%s", e->map);
            clip_copy(a, sizeof a, line, wm);
            ui_text(c, xm, y, sc, fg, a);
            long secs = lround(e->length);
            snprintf(line, sizeof line, "%ld:%02ld", secs / 60, secs % 60);
            ui_text(c, xl, y, sc, fg, line);
            clip_copy(a, sizeof a, e->players, wp);
            ui_text(c, xp, y, sc, fg, a);
        }
    }
    if (s->n > rows) {   // a scroll bar
        int track = rows * rh, x = c->w - cw / 2 - sc;
        ui_fill(c, x, TOP(sc), sc, track, 0x303840);
        ui_fill(c, x - sc, TOP(sc) + track * s->scroll / s->n, 3 * sc, track * rows / s->n + sc, 0x8090a0);
    }
    const char *help = "Up/Down PgUp/PgDn Home/End choose   Enter or double click: play   Esc: quit";
    ui_text(c, cw, c->h - rh, sc, 0x8090a0, help);
    return rows;
}

int shelf_row_at(const shelf_t *s, const ui_canvas_t *c, int sc, int y)
{
    int rh = ROW_H(sc);
    if (y < TOP(sc) - sc)
        return -1;
    int rows = (c->h - TOP(sc) - rh) / rh;
    int r = (y - TOP(sc) + sc) / rh;
    if (r < 0 || r >= rows || s->scroll + r >= s->n)
        return -1;
    return s->scroll + r;
}
