// main.c -- command line: demoplay <command> [options] FILE...
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "cli.h"
#include "log.h"

enum {
    // bit i = commands[i] below
    C_PLAY = 1 << 0, C_INFO = 1 << 1, C_DUMP = 1 << 2, C_SHOT = 1 << 3,
    C_TIMEDEMO = 1 << 4, C_EXPORT = 1 << 5, C_COMPILE = 1 << 6,
    C_ALL = 0x7f, C_RENDER = C_SHOT | C_PLAY | C_TIMEDEMO | C_EXPORT
};

typedef struct {
    const char *name;
    int (*run)(const cli_t *);
    int min_files, max_files;
    const char *args;
    const char *help;
} command_t;

// The headless build (`make pentium`: -DDEMOPLAY_HEADLESS, no SDL, OpenAL or libpng)
// has no play or export: their entries stay (the option masks count table rows) with no run.
#ifdef DEMOPLAY_HEADLESS
#define CMD_PLAY NULL
#define CMD_EXPORT NULL
#else
#define CMD_PLAY cmd_play
#define CMD_EXPORT cmd_export
#endif

static const command_t commands[] = {
    { "play", CMD_PLAY, 1, 1, "FILE|DIR", "watch a demo in a window (the default when only a file is given); a folder: choose from its demos" },
    { "info", cmd_info, 1, CLI_MAX_FILES, "FILE...", "summary of each demo: format, map, frames, times, errors" },
    { "dump", cmd_dump, 1, 1, "FILE", "every block and message, one line each, with offsets" },
    { "shot", cmd_shot, 1, 1, "FILE", "render the view at --at SECONDS to a PNG (-o OUT.png)" },
    { "timedemo", cmd_timedemo, 1, 1, "FILE", "draw every server frame once, as fast as possible; print fps" },
    { "export", CMD_EXPORT, 1, 1, "FILE", "write frames (PNG or Y4M) at --fps and the sound track" },
    { "compile", cmd_compile, 1, 1, "TEXT", "turn a Quake `dump` text back into a demo (-o FILE.dem)" },
};
#define NUM_COMMANDS (int)(sizeof(commands) / sizeof(commands[0]))

typedef enum { A_NONE, A_STR, A_NUM, A_INT, A_SIZE } argkind_t;

typedef struct {
    const char *name;
    const char *alias;
    argkind_t kind;
    int cmds;
    const char *metavar;
    const char *help;
} option_t;

static const option_t options[] = {
    { "--basedir", NULL, A_STR, C_ALL, "DIR", "game install folder (default: the current directory, else the nearest of the demo's folder and its parents holding the game's base folder)" },
    { "--game", NULL, A_STR, C_ALL, "NAME", "mod folder; falls back to the base game folder (id1, baseq2, valve, Data)" },
    { "--json", NULL, A_NONE, C_INFO | C_DUMP | C_TIMEDEMO, NULL, "machine-readable output" },
    { "--size", NULL, A_SIZE, C_RENDER, "WxH", "render size (default 320x200 for shot)" },
    { "--at", NULL, A_NUM, C_SHOT, "SECONDS", "demo time to render" },
    { "--output", "-o", A_STR, C_SHOT | C_EXPORT | C_COMPILE, "PATH", "output file or folder ('-' = stdout for export)" },
    { "--fps", NULL, A_NUM, C_EXPORT, "N", "frames per second of the exported movie" },
    { "--from", NULL, A_NUM, C_EXPORT, "SECONDS", "export start time" },
    { "--to", NULL, A_NUM, C_EXPORT, "SECONDS", "export end time (exclusive)" },
    { "--start", NULL, A_NUM, C_PLAY, "SECONDS", "start playback there" },
    { "--scale", NULL, A_INT, C_PLAY, "N", "window scale factor" },
    { "--volume", NULL, A_NUM, C_PLAY | C_EXPORT, "0..1", "sound volume (default 0.7, as Quake's volume cvar)" },
    { "--nosound", NULL, A_NONE, C_PLAY | C_EXPORT, NULL, "no sound" },
    { "--quit-at-end", NULL, A_NONE, C_PLAY, NULL, "quit when the demo ends" },
    { "--audio", NULL, A_STR, C_EXPORT, "FILE", "WAV output when frames go to stdout (-o -)" },
    { "--notify", NULL, A_STR, C_SHOT | C_EXPORT | C_PLAY | C_TIMEDEMO, "on|off",
      "notify, chat and centre-print lines (off: as con_notifytime 0)" },
    { "--format", NULL, A_STR, C_EXPORT, "png|y4m",
      "png: indexed PNG files in the -o folder; y4m: one YUV4MPEG2 stream to -o FILE (or - for stdout)" },
    { "--threads", NULL, A_INT, C_EXPORT | C_TIMEDEMO | C_SHOT | C_PLAY, "N",
      "export: N render and N encoder threads (default: one a core; 0: none); timedemo: N drawing threads (default 1); "
      "play: each frame drawn in N screen bands, one a thread (default: one a core); shot: the same (default 1)" },
    { "--camera", NULL, A_STR, C_RENDER, "SPEC",
      "eyes (default), free[:X,Y,Z[,PITCH,YAW]], chase[:N|NAME], follow:N|NAME, path:FILE (docs/cameras.md)" },
    { "--camera-save", NULL, A_STR, C_PLAY, "FILE", "write the camera keyframes dropped with K to FILE at exit" },
    { "--shots", NULL, A_STR, C_PLAY, "DIR", "where F12 and p save screenshots (default: next to the demo)" },
    { "--quiet", "-q", A_NONE, C_ALL, NULL, "no warnings" },
};
#define NUM_OPTIONS (int)(sizeof(options) / sizeof(options[0]))

static void usage_all(FILE *f)
{
    fprintf(f, "usage: demoplay <command> [options] FILE\n%s\n"
               "Plays, benchmarks and exports Quake, Quake II, Half-Life and Forsaken demos.\n\n"
               "commands:\n",
            commands[0].run ? "       demoplay FILE            (same as: demoplay play FILE)\n" : "");
    for (int i = 0; i < NUM_COMMANDS; i++)
        if (commands[i].run)
            fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'demoplay <command> --help' lists the options of a command.\n");
}

static void usage_command(FILE *f, int ci)
{
    const command_t *c = &commands[ci];
    fprintf(f, "usage: demoplay %s [options] %s\n\n%s\n\noptions:\n", c->name, c->args, c->help);
    for (int i = 0; i < NUM_OPTIONS; i++) {
        const option_t *o = &options[i];
        if (!(o->cmds & (1 << ci)))
            continue;
        char left[64];
        snprintf(left, sizeof(left), "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
                 o->metavar ? " " : "", o->metavar ? o->metavar : "");
        fprintf(f, "  %-26s %s\n", left, o->help);
    }
    fprintf(f, "  %-26s %s\n", "-h, --help", "this help");
}

static int parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

static int set_option(cli_t *cli, const option_t *o, const char *arg)
{
    double v = 0;
    if ((o->kind == A_NUM || o->kind == A_INT) && parse_number(arg, &v) < 0) {
        log_error("%s: expected a number, got '%s'", o->name, arg);
        return -1;
    }
    const char *n = o->name;
    if (!strcmp(n, "--basedir")) cli->basedir = arg, cli->basedir_given = 1;
    else if (!strcmp(n, "--game")) cli->game = arg;
    else if (!strcmp(n, "--json")) cli->json = 1;
    else if (!strcmp(n, "--at")) {
        cli->at = v;
        cli->have_at = 1;
        // A time copied from dump's column (rounded to 0.1 ms) names the block it
        // was printed for: with 4 or more decimals, half a unit of the last one is allowed.
        const char *dot = strchr(arg, '.');
        int decimals = 0;
        while (dot && dot[1 + decimals] >= '0' && dot[1 + decimals] <= '9')
            decimals++;
        cli->at_tol = decimals >= 4 && decimals < 12 ? 0.5 * pow(10.0, -decimals) : 0;
    }
    else if (!strcmp(n, "--output")) cli->out = arg;
    else if (!strcmp(n, "--fps")) cli->fps = v;
    else if (!strcmp(n, "--from")) { cli->from = v; cli->have_from = 1; }
    else if (!strcmp(n, "--to")) { cli->to = v; cli->have_to = 1; }
    else if (!strcmp(n, "--start")) { cli->start = v; cli->have_start = 1; }
    else if (!strcmp(n, "--scale")) cli->scale = (int)v;
    else if (!strcmp(n, "--volume")) cli->volume = v;
    else if (!strcmp(n, "--nosound")) cli->nosound = 1;
    else if (!strcmp(n, "--quit-at-end")) cli->quit_at_end = 1;
    else if (!strcmp(n, "--audio")) cli->audio = arg;
    else if (!strcmp(n, "--quiet")) cli->quiet = 1;
    else if (!strcmp(n, "--camera-save")) cli->camera_save = arg;
    else if (!strcmp(n, "--shots")) cli->shots = arg;
    else if (!strcmp(n, "--threads")) {
        if (v < 0 || v > 64 || v != floor(v)) {
            log_error("--threads: expected a whole number 0..64, got '%s'", arg);
            return -1;
        }
        cli->threads = (int)v;
    }
    else if (!strcmp(n, "--format")) {
        if (strcmp(arg, "png") && strcmp(arg, "y4m")) {
            log_error("--format: expected png or y4m, got '%s'", arg);
            return -1;
        }
        cli->format = arg;
    }
    else if (!strcmp(n, "--camera")) {
        char err[256];
        if (cam_check_spec(arg, err, sizeof err) < 0) {
            log_error("--camera: %s", err);
            return -1;
        }
        cli->camera = arg;
    }
    else if (!strcmp(n, "--notify")) {
        if (strcmp(arg, "on") && strcmp(arg, "off")) {
            log_error("--notify: expected on or off, got '%s'", arg);
            return -1;
        }
        cli->notify = !strcmp(arg, "on");
    }
    else if (!strcmp(n, "--size")) {
        int w, h;
        char x;
        if (sscanf(arg, "%d%c%d", &w, &x, &h) != 3 || (x != 'x' && x != 'X') || w < 16 || h < 16 || w > 3840 ||
            h > 2160) {
            log_error("--size: expected WxH between 16x16 and 3840x2160, got '%s'", arg);
            return -1;
        }
        cli->width = w;
        cli->height = h;
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli_t cli;
    memset(&cli, 0, sizeof(cli));
    cli.basedir = ".";
    cli.volume = 0.7;   // Quake's volume cvar default
    cli.notify = 1;
    cli.threads = -1;
    cli.scale = 0;

    if (argc < 2) {
        usage_all(stderr);
        return EXIT_USAGE;
    }
    int argi = 1;
    int ci = -1;
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage_all(stdout);
        return EXIT_OK;
    }
    for (int i = 0; i < NUM_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name))
            ci = i;
    if (ci >= 0)
        argi = 2;
    else if (argv[1][0] == '-') {
        ci = 0; // options before a lone FILE: play
    } else {
        // a lone FILE plays it; an unknown word that is not a file is a mistyped command
        FILE *f = fopen(argv[1], "rb");
        if (!f && !strchr(argv[1], '.') && !strchr(argv[1], '/')) {
            log_error("unknown command '%s' (see demoplay --help)", argv[1]);
            return EXIT_USAGE;
        }
        if (f)
            fclose(f);
        ci = 0;
    }
    cli.command = commands[ci].name;
    if (!commands[ci].run) {
        log_error("%s: not in this build (headless: no SDL, OpenAL or libpng; timedemo, shot, info, dump and "
                  "compile are)", cli.command);
        return EXIT_USAGE;
    }

    for (; argi < argc; argi++) {
        const char *a = argv[argi];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_command(stdout, ci);
            return EXIT_OK;
        }
        if (a[0] == '-' && a[1] != 0) {
            const option_t *o = NULL;
            const char *inl = NULL;
            for (int i = 0; i < NUM_OPTIONS; i++) {
                size_t nl = strlen(options[i].name);
                if (!strcmp(a, options[i].name) || (options[i].alias && !strcmp(a, options[i].alias))) {
                    o = &options[i];
                    break;
                }
                if (!strncmp(a, options[i].name, nl) && a[nl] == '=') {
                    o = &options[i];
                    inl = a + nl + 1;
                    break;
                }
            }
            if (!o || !(o->cmds & (1 << ci))) {
                log_error("%s: unknown option '%s' (see demoplay %s --help)", cli.command, a, cli.command);
                return EXIT_USAGE;
            }
            const char *arg = NULL;
            if (o->kind != A_NONE) {
                if (inl)
                    arg = inl;
                else if (argi + 1 < argc)
                    arg = argv[++argi];
                else {
                    log_error("%s: option %s needs a value (%s)", cli.command, o->name, o->metavar);
                    return EXIT_USAGE;
                }
            }
            if (set_option(&cli, o, arg) < 0)
                return EXIT_USAGE;
            continue;
        }
        if (cli.nfiles >= CLI_MAX_FILES) {
            log_error("%s: too many files (at most %d)", cli.command, CLI_MAX_FILES);
            return EXIT_USAGE;
        }
        cli.files[cli.nfiles++] = a;
    }
    if (cli.nfiles < commands[ci].min_files) {
        log_error("%s: missing %s (see demoplay %s --help)", cli.command, commands[ci].args, cli.command);
        return EXIT_USAGE;
    }
    if (cli.nfiles > commands[ci].max_files) {
        log_error("%s: takes one %s, got %d", cli.command, commands[ci].args, cli.nfiles);
        return EXIT_USAGE;
    }
    log_set_level(cli.quiet ? 0 : 1);
    return commands[ci].run(&cli);
}
