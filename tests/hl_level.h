// hl_level.h -- for the GoldSrc effect tests (test_goldsrc_tent.c, test_goldsrc_te.c,
// test_goldsrc_decal.c, _egon.c, _beament.c): c1a0 decoded to a frame with its level loaded in a TW x TH renderer,
// and places ahead of its eye.
// Include after testutil.h, render/render.h and formats/decoder.h, with TW and TH defined.
// static inline: a test may leave some of them unused.
#ifndef HL_LEVEL_H
#define HL_LEVEL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const decoder_t hl_decoder;

typedef struct {
    uint8_t *data;
    vfs_t *fs;
    world_t *w;
    void *st;
    renderer_t *r;
} level_t;

// c1a0 decoded up to frame `frames` (the tram ride's start), its level loaded.
static inline void open_c1a0(level_t *L, int frames)
{
    size_t size = 0;
    L->data = tu_read(tu_data("goldsrc/demos/valve_c1a0.dem"), &size);
    assert_non_null(L->data);
    L->fs = vfs_create();
    assert_int_equal(vfs_add_dir(L->fs, tu_data("goldsrc/valve")), 0);
    L->w = world_create();
    L->st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    L->r = r_create(TW, TH);
    assert_int_equal(hl_decoder.open(L->st, L->data, size, L->w, &opts, &err), 0);
    int loaded = 0;
    for (int i = 0; i < frames && hl_decoder.read_frame(L->st, L->w, &err) > 0; i++) {
        if (!loaded && L->w->map[0] && L->w->num_models > 10) {
            char e[256];
            assert_int_equal(r_load_level(L->r, L->fs, L->w, e, sizeof e), 0);
            loaded = 1;
        }
        if (loaded)
            r_frame(L->r, L->w);
    }
    assert_true(loaded);
}

static inline void close_level(level_t *L)
{
    hl_decoder.close(L->st);
    r_destroy(L->r);
    free(L->st);
    world_free(L->w);
    vfs_free(L->fs);
    free(L->data);
}

static inline int model_index(const world_t *w, const char *name)
{
    for (int i = 1; i < w->num_models; i++)
        if (!strcmp(w->models[i], name))
            return i;
    return 0;
}

// A point `d` ahead of the eye (yaw only), `side` to its left, `dz` up.
static inline void ahead(const world_t *w, float d, float side, float dz, vec3_t out)
{
    float y = w->view.angles[1] * (float)M_PI / 180;
    out[0] = w->view.origin[0] + d * cosf(y) - side * sinf(y);
    out[1] = w->view.origin[1] + d * sinf(y) + side * cosf(y);
    out[2] = w->view.origin[2] + dz;
}

// A frame with no new events (the world's time unchanged).
static inline void empty_frame(world_t *w)
{
    w->num_events = 0;
    w->text_used = 0;
}

// The frame drawn at time t, copied into out (TW x TH palette indices).
static inline void render_at(renderer_t *r, const world_t *w, double t, uint8_t *out)
{
    r_render(r, w, t);
    int fw, fh, pitch;
    const uint8_t *px = r_pixels(r, &fw, &fh, &pitch);
    assert_int_equal(fw, TW);
    assert_int_equal(fh, TH);
    for (int y = 0; y < fh; y++)
        memcpy(out + (size_t)y * (size_t)fw, px + (size_t)y * (size_t)pitch, (size_t)fw);
}

#endif
