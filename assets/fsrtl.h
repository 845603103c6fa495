// fsrtl.h -- Forsaken's real-time lights (Data/Levels/<level>/<level>.RTL)
//
// A level's lights that the game switches, pulses, flickers or turns (ship's four are switched
// on by its trigger, docs/forsaken.md "Triggers"). Layout, from the game's loader
// (ForsakenW/forsaken ProjectX/rtlight.c LoadRTLights, Include/rtlight.h), all little-endian,
// fields one after the other:
//
//     char[4] "PRJX", u32 version 2 (RTL_VERSION_NUMBER), u16 light count; per light
//     u16 type (0 fixed, 1 pulsing, 2 flickering, 3 spot), u16 group, f32 position[3],
//     f32 range (the XLIGHT's size), f32 r g b (0..1; the game multiplies them by 255),
//     u16 generation type (0 at once, 1 after the delay, 2 by a trigger), f32 generation delay
//     (seconds), then by type:
//       fixed:      u16 on pulse type, u16 off pulse type, f32 on time, f32 off time
//       pulsing:    u16 pulse type, f32 on time, stay-on time, off time, stay-off time
//       flickering: f32 stay-on chance, stay-off chance, stay-on time, stay-off time
//       spot:       f32 direction[3], up[3], cone (degrees, the whole angle), rotation period
//     pulse types: 0 blink, 1 ramp, 2 half wave, 3 wave. Times are seconds; the game counts them
//     in 60ths (ANIM_SECOND) and moves them on by its ticks (framelag).
//
//     char err[256];
//     fsrtl_t *l = fsrtl_load(bytes, size, "SHIP.RTL", err, sizeof err);  // "SHIP.RTL: offset N: expected ..."
#ifndef FSRTL_H
#define FSRTL_H

#include <stddef.h>
#include <stdint.h>

#define FSRTL_HEADER 10
enum { FSRTL_FIXED, FSRTL_PULSING, FSRTL_FLICKERING, FSRTL_SPOT };
enum { FSRTL_GEN_AT_ONCE, FSRTL_GEN_TIME, FSRTL_GEN_TRIGGER };
enum { FSRTL_BLINK, FSRTL_RAMP, FSRTL_HALFWAVE, FSRTL_WAVE };

typedef struct {
    int type, group;
    float pos[3], range;
    float rgb[3];                // 0..255 (the file's 0..1 x 255, as the game)
    int gen_type;
    float gen_delay;             // seconds
    // fixed: on_type, off_type, t[0] on time, t[1] off time
    // pulsing: on_type (the pulse type), t[0..3] on, stay-on, off, stay-off times
    // flickering: t[0..3] stay-on chance, stay-off chance, stay-on time, stay-off time
    // spot: dir, up, cone (degrees), period (seconds a turn, 0 none)
    int on_type, off_type;
    float t[4];
    float dir[3], up[3], cone, period;
} fsrtl_light_t;

typedef struct {
    int count;
    fsrtl_light_t *lights;
    size_t end;                  // bytes read
} fsrtl_t;

// NULL and "name: offset N: expected ..." in err when the bytes are not a .RTL as laid out (cut
// short, another magic or version, a light or pulse type out of range, a value that is not
// finite, a negative range or time). Bytes after the last light are ignored.
fsrtl_t *fsrtl_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap);
void fsrtl_free(fsrtl_t *l);

// A pulsing light's brightness 0..1 `t` seconds after it was switched on (the game's
// ProcessRTLights for LIGHT_PULSING: on, stay on, off, stay off, round again; each stretch's times
// in 60ths, moved on at the game's 71 ticks a second; the pulse type shapes the on and off
// stretches). A fixed light: its on stretch, then 1. Others: 1. Before 0: 0.
float fsrtl_pulse(const fsrtl_light_t *l, double t);

#endif
