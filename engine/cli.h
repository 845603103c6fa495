// cli.h -- parsed command line shared by every command (engine/main.c fills it)
#ifndef CLI_H
#define CLI_H

#define CLI_MAX_FILES 256

typedef struct {
    const char *command;      // "info", "dump", ...
    const char *basedir;      // --basedir (default "."; see demo_basedir)
    int basedir_given;        // --basedir was on the command line
    const char *game;         // --game (NULL = the demo's own game dir, else base)
    int json;                 // --json
    int width, height;        // --size WxH (0 = command default)
    int have_at;
    double at;                // --at SECONDS
    double at_tol;            // --at written with d >= 4 decimals (as dump's time column): 0.5e-d, else 0
    const char *out;          // -o / --output
    double fps;               // --fps
    int have_from, have_to, have_start;
    double from, to, start;   // --from --to --start
    int scale;                // --scale N
    double volume;            // --volume 0..1
    int nosound;              // --nosound
    int quit_at_end;          // --quit-at-end
    const char *audio;        // --audio FILE
    int quiet;                // --quiet
    int notify;               // --notify on|off: notify, chat and centre-print lines (default on)
    const char *format;       // --format png|y4m (export; default: png to a folder, y4m for -o -)
    int threads;              // --threads N (-1 = the command's default: every core; 0 = none)
    const char *camera;       // --camera eyes|free[:X,Y,Z[,P,Y[,R]]]|chase[:N|NAME]|follow:N|NAME|path:FILE
    const char *camera_save;  // --camera-save FILE: play writes the keyframes dropped in the window
    const char *shots;        // --shots DIR: play's F12 / p screenshots (default: next to the demo)
    int nfiles;
    const char *files[CLI_MAX_FILES];
} cli_t;

// Exit statuses, documented in the README.
enum {
    EXIT_OK = 0,
    EXIT_DEMO_ERRORS = 1,     // a demo had errors / missing data made the job fail
    EXIT_USAGE = 2,           // bad command line, missing file
    EXIT_INTERNAL = 3         // out of memory, cannot write output
};

// Commands: each returns an exit status.
int cmd_info(const cli_t *cli);
int cmd_dump(const cli_t *cli);
int cmd_shot(const cli_t *cli);
int cmd_play(const cli_t *cli);
int cmd_timedemo(const cli_t *cli);
int cmd_export(const cli_t *cli);
int cmd_compile(const cli_t *cli);

#endif
