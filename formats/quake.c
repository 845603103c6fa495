// quake.c -- Quake .dem decoder (protocols 15, FitzQuake 666, RMQ 999) -- being written
#include <string.h>

#include "decoder.h"

typedef struct { demo_info_t info; } q1_state_t;

static int q1_probe(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
static int q1_open(void *st, const uint8_t *data, size_t size, world_t *w, const dec_opts_t *o, dec_error_t *err)
{
    (void)st; (void)data; (void)size; (void)w; (void)o;
    dec_error_set(err, 0, "not implemented");
    return -1;
}
static int q1_read(void *st, world_t *w, dec_error_t *err) { (void)st; (void)w; (void)err; return 0; }
static size_t q1_offset(const void *st) { (void)st; return 0; }
static const demo_info_t *q1_info(const void *st) { return &((const q1_state_t *)st)->info; }
static void q1_close(void *st) { (void)st; }

const decoder_t q1_decoder = {
    "quake", GAME_QUAKE, sizeof(q1_state_t), q1_probe, q1_open, q1_read, q1_offset, q1_info, q1_close,
};
