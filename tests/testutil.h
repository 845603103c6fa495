// testutil.h -- shared helpers for the cmocka tests: data folder, running demoplay, JSON peeks
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

// ../shared/data, or $DEMOPLAY_DATA. NULL when absent.
const char *tu_data_dir(void);
// Full path of a file under the data folder (static buffer rotation of 8).
const char *tu_data(const char *rel);
// Call first in a test that needs the real data: when it is missing, the test is
// SKIPPED with a loud line, and under CI=true it fails instead.
#define TU_REQUIRE_DATA()                                                          \
    do {                                                                           \
        if (!tu_data_dir()) {                                                      \
            if (tu_ci()) fail_msg("CI=true but the test data folder is missing");  \
            tu_skip_banner(__func__);                                              \
            skip();                                                                \
        }                                                                          \
    } while (0)
int tu_ci(void);
void tu_skip_banner(const char *test);
// The headless build (make pentium: -DDEMOPLAY_HEADLESS) has no play, export or sound:
// their tests say so and skip there.
#ifdef DEMOPLAY_HEADLESS
#define TU_REQUIRE_FULL_BUILD()                                                              \
    do {                                                                                     \
        print_message("*** SKIPPED %s: play, export and sound are not in the headless build ***\n", \
                      __func__);                                                             \
        skip();                                                                              \
    } while (0)
#else
#define TU_REQUIRE_FULL_BUILD() do { } while (0)
#endif

// The demoplay binary under test ($DEMOPLAY_BIN, default ./demoplay).
const char *tu_bin(void);
// A folder of this process's own for the files a test writes (/tmp/demoplay_test_PID, made on
// first use): two test runs at once (rel and san, two checkouts) never read each other's.
// `env` names a variable that overrides it (NULL: none).
const char *tu_tmpdir(const char *env);
// Run a shell command; capture stdout (malloc'd, NUL-terminated) and the exit status.
char *tu_run(const char *cmd, int *status);
// Read a whole file; NULL if missing.
uint8_t *tu_read(const char *path, size_t *size);
int tu_write(const char *path, const void *data, size_t size);
// v as n little-endian bytes at p (the test writers' files).
void tu_put_le(uint8_t *p, uint32_t v, int n);
// A 22050 Hz mono 16-bit WAV at `path` (its folders made): a `freq` Hz tone of `secs` seconds
// (games' sounds that shared/ does not have, for the sound tests' mod folders).
void tu_write_tone(const char *path, double secs, double freq);
// The energy (sum of squares of both channels) of a 16-bit stereo track of `frames` frames at
// `rate` between t0 and t1 seconds from its start.
double tu_energy(const int16_t *pcm, long frames, int rate, double t0, double t1);

// An RGB PNG (stb_image_write). 0, or -1.
int tu_write_png_rgb(const char *path, const uint8_t *rgb, int w, int h);
// Fraction (0..1) of pixels that differ between two PNGs (1 when either is missing or the sizes differ).
double tu_png_diff(const char *a, const char *b);
// Golden images: compare the PNG `out` with `gold` (fails beyond `tolerance`, a
// fraction of pixels); writes `gold` when it is missing (not under CI=true) or
// when DEMOPLAY_UPDATE_GOLDEN=1 (after a deliberate change in how things look).
void tu_golden(const char *label, const char *out, const char *gold, double tolerance);

// Tiny JSON peeks for the one-object-per-line output of `info --json`.
// Return 0 on success.
int tu_json_int(const char *json, const char *key, long long *out);
int tu_json_num(const char *json, const char *key, double *out);
int tu_json_str(const char *json, const char *key, char *out, size_t cap);

#endif

// A 768-byte grey-ramp palette for loaders that map images with their own palette to the level's.
const uint8_t *tu_palette(void);

// ---- a view for model tests (alias, MD2, studio): no level, just a framebuffer ----

#include "render/r_view.h"

typedef struct {
    int w, h;
    uint8_t *buf;              // w*h palette indices, cleared to 0
    float *z;                  // w*h, cleared to 0 (nothing drawn)
    uint8_t palette[768];
    uint8_t colormap[64 * 256 + 256];   // 64 light rows, then row 32 again (the spare row)
    r_view_t v;                // 90 degrees across, at the origin looking along +x
} tu_scene_t;

// palette: 768 bytes; colormap: 64 rows of 256.
void tu_scene_init(tu_scene_t *s, int w, int h, const uint8_t *palette, const uint8_t *colormap, int fullbright_start);
// Quake's gfx/palette.lmp and gfx/colormap.lmp from the test data into a scene. -1 when missing.
int tu_scene_init_quake(tu_scene_t *s, int w, int h);
void tu_scene_camera(tu_scene_t *s, float x, float y, float z, float pitch, float yaw);
void tu_scene_clear(tu_scene_t *s);
void tu_scene_free(tu_scene_t *s);
// The image as a PNG at `path`; tu_scene_png_env writes `name` into $DEMOPLAY_MODELS_PNG when set.
void tu_scene_write(const tu_scene_t *s, const char *path);
void tu_scene_png_env(const tu_scene_t *s, const char *name);
