// quake_write.h -- the Quake .dem writer: blocks and server messages, byte-exact with the decoder
//
//     qw_demo_t d;
//     qw_init(&d);
//     qw_cdtrack(&d, "-1\n");
//     qw_block_begin(&d, angles);
//     qw_serverinfo(&d, 15, 0, 1, 0, "My Level", models, nmodels, sounds, nsounds);
//     ... qw_time(&d, 0.1f); qw_update(&d, bits, num, &state) ...
//     qw_block_end(&d);
//     fwrite(d.data, 1, d.size, f); qw_free(&d);
//
// Used by `demoplay compile` (dump text back to a demo) and by the built-in
// demo generator. Values are encoded exactly as formats/quake.c decodes them,
// so dump -> compile gives back the original bytes.
#ifndef QUAKE_WRITE_H
#define QUAKE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/world.h"

typedef struct {
    uint8_t *data;
    size_t size, cap;
    size_t block_start;      // offset of the open block's size field, or SIZE_MAX
    int32_t protocol;        // set by qw_serverinfo: coords/angles follow it
    uint32_t protocolflags;
    int oom;                 // an allocation failed; data is incomplete
} qw_demo_t;

void qw_init(qw_demo_t *d);
void qw_free(qw_demo_t *d);

void qw_raw(qw_demo_t *d, const void *bytes, size_t n);
void qw_byte(qw_demo_t *d, int v);
void qw_short(qw_demo_t *d, int v);
void qw_long(qw_demo_t *d, int32_t v);
void qw_float(qw_demo_t *d, float v);
void qw_string(qw_demo_t *d, const char *s);
void qw_coord(qw_demo_t *d, float v);
void qw_angle(qw_demo_t *d, float v);

void qw_cdtrack(qw_demo_t *d, const char *line);   // e.g. "-1\n"
void qw_block_begin(qw_demo_t *d, const float angles[3]);
void qw_block_end(qw_demo_t *d);                    // patches the size

// Messages (ids as in formats/quake.c)
void qw_serverinfo(qw_demo_t *d, int32_t protocol, uint32_t flags, int maxclients, int gametype, const char *level,
                   const char *const *models, int nmodels, const char *const *sounds, int nsounds);
void qw_time(qw_demo_t *d, float t);
void qw_text(qw_demo_t *d, int svc, const char *text);   // print, stufftext, centerprint, finale, cutscene
// Entity update with the given bits (U_* as in the decoder); fields not in bits are not written.
// alpha/scale/lerpfinish are the raw FitzQuake bytes.
void qw_update(qw_demo_t *d, uint32_t bits, int num, const entity_state_t *st, int alpha, int scale, int lerpfinish);
// spawnbaseline (num >= 0) or spawnstatic (num < 0); version2 writes the FitzQuake bits form.
void qw_baseline(qw_demo_t *d, int num, int version2, int bits, const entity_state_t *st, int alpha, int scale);
void qw_sound(qw_demo_t *d, int bits, int volume, int attenuation, int entity, int channel, int sound,
              const float origin[3]);

enum {
    QW_SVC_NOP = 1, QW_SVC_DISCONNECT = 2, QW_SVC_UPDATESTAT = 3, QW_SVC_SETVIEW = 5, QW_SVC_TIME = 7,
    QW_SVC_PRINT = 8, QW_SVC_STUFFTEXT = 9, QW_SVC_SETANGLE = 10, QW_SVC_LIGHTSTYLE = 12,
    QW_SVC_UPDATENAME = 13, QW_SVC_UPDATEFRAGS = 14, QW_SVC_CLIENTDATA = 15, QW_SVC_UPDATECOLORS = 17,
    QW_SVC_PARTICLE = 18, QW_SVC_TEMP_ENTITY = 23, QW_SVC_SIGNONNUM = 25, QW_SVC_CENTERPRINT = 26,
    QW_SVC_SPAWNSTATICSOUND = 29, QW_SVC_INTERMISSION = 30, QW_SVC_FINALE = 31, QW_SVC_CDTRACK = 32,
};

#endif
