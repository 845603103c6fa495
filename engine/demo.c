// demo.c -- finding, loading, inflating and probing a demo; driving its decoder
#include "demo.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

#include "../assets/bsp.h"
#include "log.h"

static const char *const base_folders[GAME_COUNT] = {
    [GAME_NONE] = "id1", [GAME_QUAKE] = "id1", [GAME_QUAKE2] = "baseq2",
    [GAME_GOLDSRC] = "valve", [GAME_FORSAKEN] = "Data",
};

const char *demo_base_folder(world_game_t game)
{
    return (game >= 0 && game < GAME_COUNT) ? base_folders[game] : "id1";
}

// Inflate a gzip stream; NULL with *why set on failure.
static uint8_t *gunzip(const uint8_t *in, size_t in_size, size_t *out_size, const char **why, size_t *at)
{
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        *why = "zlib init failed";
        return NULL;
    }
    size_t cap = in_size * 4 + 1024, len = 0;
    uint8_t *out = malloc(cap + 1);
    zs.next_in = (Bytef *)in;
    zs.avail_in = (uInt)in_size;
    int rc = Z_OK;
    while (out && rc != Z_STREAM_END) {
        if (len == cap) {
            if (cap >= DEMO_MAX_SIZE) {
                *why = "a gzip stream of at most 1 GiB";
                break;
            }
            cap *= 2;
            uint8_t *n = realloc(out, cap + 1);
            if (!n)
                break;
            out = n;
        }
        zs.next_out = out + len;
        zs.avail_out = (uInt)(cap - len);
        rc = inflate(&zs, Z_NO_FLUSH);
        len = cap - zs.avail_out;
        if (rc == Z_STREAM_END)
            break;
        if (rc != Z_OK && !(rc == Z_BUF_ERROR && zs.avail_out == 0)) {
            *why = zs.avail_in == 0 ? "more gzip data (the file is truncated)" : "a valid gzip stream";
            break;
        }
    }
    *at = (size_t)zs.total_in;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    out[len] = 0;
    *out_size = len;
    return out;
}

static uint8_t *find_in_games(const cli_t *cli, const char *name, size_t *size)
{
    // not a path: look inside the game folders and their paks, mod first
    for (int g = GAME_QUAKE; g < GAME_COUNT; g++) {
        vfs_t *fs = vfs_create();
        if (!fs)
            return NULL;
        vfs_mount_game(fs, cli->basedir, base_folders[g], cli->game);
        uint8_t *b = vfs_load(fs, name, size);
        if (!b) {
            char alt[1100];
            snprintf(alt, sizeof(alt), "demos/%s", name);
            b = vfs_load(fs, alt, size);
        }
        vfs_free(fs);
        if (b)
            return b;
    }
    return NULL;
}

// A decoder's warning while reading: "FILE: offset N: what", once per offset, the first few.
static void demo_warn(void *ctx, long long offset, const char *what)
{
    demo_t *d = ctx;
    if (d->warned && offset <= d->warned_upto)
        return;   // said already (the same bytes decoded again after a seek)
    d->warned_upto = offset;
    if (++d->warned <= DEMO_MAX_WARNINGS)
        log_warn("%s: offset %lld: %s", d->name, offset, what);
    if (d->warned == DEMO_MAX_WARNINGS)
        log_warn("%s: further warnings are not shown (`demoplay info` counts them, `dump` shows each)", d->name);
}

// The game's files for a decoder's open (dec_opts_t.files: Forsaken's level triggers): the game
// data mounted as demo_mount does, quietly (the commands mount it again, and say so, when the
// level loads), on the first file asked for; freed when open returns (why not kept for
// demo_mount: docs/forsaken.md, "Triggers", "mounted twice").
typedef struct {
    const demo_t *d;
    const cli_t *cli;
    vfs_t *fs;
    int tried;
} demo_files_t;

static uint8_t *demo_game_file(void *ctx, const char *path, size_t *size)
{
    demo_files_t *f = ctx;
    if (!f->tried && f->cli) {
        f->tried = 1;
        f->fs = vfs_create();
        const char *mod = f->cli->game;
        if (!mod && f->d->world && f->d->world->game_dir[0])
            mod = f->d->world->game_dir;
        char found[4096];
        if (f->fs)
            vfs_mount_game(f->fs, demo_basedir(f->d, f->cli, found, sizeof found),
                           base_folders[f->d->dec ? f->d->dec->game : GAME_QUAKE], mod);
    }
    return f->fs ? vfs_load(f->fs, path, size) : NULL;
}

int demo_open(demo_t *d, const cli_t *cli, const char *name, FILE *dump, int dump_json)
{
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "%s", name);
    char *real = vfs_resolve_path(name);
    if (real) {
        d->data = vfs_read_file(real, &d->size);
        free(real);
        if (!d->data) {
            snprintf(d->errmsg, sizeof(d->errmsg), "%s: cannot read the file", name);
            return -1;
        }
    } else {
        d->data = find_in_games(cli, name, &d->size);
        if (!d->data) {
            snprintf(d->errmsg, sizeof(d->errmsg), "%s: no such file (as a path, or in the game folders under '%s')",
                     name, cli->basedir);
            return -1;
        }
    }
    if (d->size >= 2 && d->data[0] == 0x1f && d->data[1] == 0x8b) {
        const char *why = "";
        size_t at = 0, n = 0;
        uint8_t *raw = gunzip(d->data, d->size, &n, &why, &at);
        if (!raw) {
            snprintf(d->errmsg, sizeof(d->errmsg), "%s: offset %zu: expected %s", name, at, why);
            d->failed = 1;
            free(d->data);
            d->data = NULL;
            return -1;
        }
        free(d->data);
        d->data = raw;
        d->size = n;
    }
    d->dec = decoder_probe(d->data, d->size);
    if (!d->dec) {
        snprintf(d->errmsg, sizeof(d->errmsg),
                 "%s: offset 0: expected a Quake, Quake II, Half-Life or Forsaken demo (no decoder recognises these bytes)",
                 name);
        d->failed = 1;
        return -1;
    }
    d->world = world_create();
    d->state = calloc(1, d->dec->state_size);
    if (!d->world || !d->state) {
        snprintf(d->errmsg, sizeof(d->errmsg), "%s: out of memory", name);
        return -1;
    }
    d->opts.dump = dump;
    d->opts.dump_json = dump_json;
    d->opts.warn = demo_warn;
    d->opts.warn_ctx = d;
    demo_files_t files = { d, cli, NULL, 0 };
    d->opts.files.fn = demo_game_file;
    d->opts.files.ctx = &files;
    int opened = d->dec->open(d->state, d->data, d->size, d->world, &d->opts, &d->err);
    vfs_free(files.fs);
    memset(&d->opts.files, 0, sizeof d->opts.files);
    if (opened < 0) {
        snprintf(d->errmsg, sizeof(d->errmsg), "%s: offset %lld: %s", name, d->err.offset, d->err.what);
        d->failed = 1;
        return -1;
    }
    const demo_info_t *in = d->dec->info ? d->dec->info(d->state) : NULL;
    if (in && in->warning[0])
        log_warn("%s: offset %lld: %s", name, in->warning_offset, in->warning);
    return 0;
}

int demo_read_frame(demo_t *d)
{
    if (d->failed)
        return -1;
    if (d->ended)
        return 0;
    int r = d->dec->read_frame(d->state, d->world, &d->err);
    if (r < 0) {
        d->failed = 1;
        snprintf(d->errmsg, sizeof(d->errmsg), "%s: offset %lld: %s", d->name, d->err.offset, d->err.what);
    } else if (r == 0) {
        d->ended = 1;
    }
    return r;
}

void demo_close(demo_t *d)
{
    if (d->dec && d->state)
        d->dec->close(d->state);
    free(d->state);
    world_free(d->world);
    free(d->data);
    memset(d, 0, sizeof(*d));
}

// Whether dir/sub is a folder (its name matched without regard to case, as the games' files).
static int has_folder(const char *dir, const char *sub)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    char *real = vfs_resolve_path(path);
    struct stat st;
    int ok = real && stat(real, &st) == 0 && S_ISDIR(st.st_mode);
    free(real);
    return ok;
}

const char *demo_basedir(const demo_t *d, const cli_t *cli, char *buf, size_t cap)
{
    const char *given = cli->basedir ? cli->basedir : ".";
    world_game_t g = d->dec ? d->dec->game : GAME_QUAKE;
    const char *base = base_folders[g >= 0 && g < GAME_COUNT ? g : GAME_QUAKE];
    if (cli->basedir_given || has_folder(given, base) || !strchr(d->name, '/') || cap < 2)
        return given;
    snprintf(buf, cap, "%s", d->name);
    for (int up = 0; up < 5; up++) {
        char *slash = strrchr(buf, '/');
        if (!slash)
            break;
        if (slash == buf)
            slash[1] = 0;   // "/": the root
        else
            *slash = 0;
        if (has_folder(buf, base))
            return buf;
        if (slash == buf)
            break;
    }
    return given;
}

vfs_t *demo_mount(const demo_t *d, const cli_t *cli)
{
    vfs_t *fs = vfs_create();
    if (!fs)
        return NULL;
    world_game_t g = d->dec ? d->dec->game : GAME_QUAKE;
    const char *mod = cli->game;
    if (!mod && d->world && d->world->game_dir[0])
        mod = d->world->game_dir;
    char found[4096];
    const char *basedir = demo_basedir(d, cli, found, sizeof found);
    if (vfs_mount_game(fs, basedir, base_folders[g], mod) == 0)
        log_warn("no game data for %s under '%s' (looked for %s/%s, and in the demo's folder and its parents)",
                 d->name, basedir, basedir, base_folders[g]);
    else if (basedir == found && !cli->quiet)
        log_info("%s: the game data is under %s (the demo's folders; --basedir sets it)", d->name, basedir);
    return fs;
}

// Brush models (*1..*N) of `map` in basedir/folder (its loose files and paks alone); -1 if absent.
static int brush_models_in(const char *basedir, const char *folder, const char *map)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", basedir, folder);
    vfs_t *fs = vfs_create();
    if (!fs)
        return -1;
    int n = -1;
    if (vfs_add_dir(fs, path) >= 0) {
        size_t size = 0;
        uint8_t *data = vfs_load(fs, map, &size);
        int models = data ? bsp_model_count(data, size) : -1;
        n = models > 0 ? models - 1 : -1;
        free(data);
    }
    vfs_free(fs);
    return n;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

// The first folder (by name) under basedir, other than the base folder, whose map has `want`
// brush models; copied to out ("" if none).
static void find_mod(const char *basedir, const char *base, const char *map, int want, char *out, size_t cap)
{
    out[0] = 0;
    char *real = vfs_resolve_path(basedir);
    DIR *dir = real ? opendir(real) : NULL;
    if (!dir) {
        free(real);
        return;
    }
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && n < (int)(sizeof names / sizeof names[0])) {
        if (e->d_name[0] == '.' || !strcasecmp(e->d_name, base))
            continue;
        char path[2048];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", real, e->d_name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && (names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(dir);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    for (int i = 0; i < n; i++) {
        if (!out[0] && brush_models_in(real, names[i], map) == want)
            snprintf(out, cap, "%s", names[i]);
        free(names[i]);
    }
    free(real);
}

int demo_check_mod(const demo_t *d, const cli_t *cli)
{
    const world_t *w = d->world;
    if (!d->dec || d->dec->game != GAME_QUAKE || !w || !w->map[0] || w->game_dir[0] || (cli->game && cli->game[0]))
        return 0;
    int listed = 0;
    for (int i = 1; i < w->num_models; i++) {
        const char *m = w->models[i];
        if (m[0] == '*' && m[1] >= '0' && m[1] <= '9')
            listed++;
    }
    const char *base = base_folders[GAME_QUAKE];
    char found[4096];
    const char *basedir = demo_basedir(d, cli, found, sizeof found);
    int have = brush_models_in(basedir, base, w->map);
    if (have < 0 || have == listed)
        return 0;
    char mod[256];
    find_mod(basedir, base, w->map, listed, mod, sizeof mod);
    if (mod[0])
        log_warn("%s: %s in %s has %d brush models, the demo lists %d: it was probably recorded with --game %s",
                 d->name, w->map, base, have, listed, mod);
    else
        log_warn("%s: %s in %s has %d brush models, the demo lists %d, and no other folder under %s has a %s "
                 "with %d: the demo was probably recorded on another version of the map",
                 d->name, w->map, base, have, listed, basedir, w->map, listed);
    return 1;
}
