// fstrig.h -- Forsaken's level triggers: the trigger lists (.TRG) and the trigger areas (.ZON)
//
// Layouts, from the game's loaders (ForsakenW/forsaken ProjectX/Triggers.c Triggerload,
// TrigArea.c TriggerAreaload and its comment; docs/forsaken.md "Triggers"), all little-endian,
// fields one after the other (no padding):
//
// .TRG: "PRJX", u32 version 1, s32 counts of variables, triggers, mods, events, conditions; then
//   variables:  char[32] name, s32 initial state, s32 trigger count, s32 trigger indices
//   triggers:   u8 type (FSTRG_EQUAL ..), s32 variable, s32 active state, s32 condition count and indices
//   mods:       s32 op (FSTRG_SET ..), s32 variable, s32 value, f32 delay (seconds), s32 next mod (-1 none)
//   events:     u8 type (0..24, EventList[]), 64 bytes of data (MAXDATAPEREVENT)
//   conditions: s32 trigger count and indices, s32 event count and indices
// .ZON: "PRJX", u32 version 2, u16 area count; per area u16 group, u16 generation type, f32 delay,
//   u16 shape (0 sphere, 1 box, 2 convex hull), f32 position[3], f32 half size[3] (a sphere's
//   radius is half_size[0]); not a sphere: u16 side count and per side f32 normal[3], f32 offset
//   (inside: normal . p + offset <= 0 for every side); then u16 mods (0xffff none) when a player
//   is in / enters / exits / shoots into it, s16 primary and secondary weapon (-1 any), and the
//   same six for enemies.
//
// Every index is checked against its list (a hostile file is refused, never followed), so a
// loaded .TRG can be run without further checks; a .ZON's mods are checked against a .TRG by
// fszon_check.
//
//     char err[256];
//     fstrg_t *t = fstrg_load(bytes, size, "SHIP.TRG", err, sizeof err);  // "SHIP.TRG: offset N: expected ..."
#ifndef FSTRIG_H
#define FSTRIG_H

#include <stddef.h>
#include <stdint.h>

#define FSTRG_HEADER 28
#define FSTRG_NAME_LEN 32
#define FSTRG_EVENT_DATA 64          // MAXDATAPEREVENT
#define FSTRG_MAX_ITEMS 4096         // per list: far above any level (therm's 7 events)
#define FSTRG_EVENT_TYPES 25         // EventList[] 0..24

enum { FSTRG_EQUAL, FSTRG_NOTEQUAL, FSTRG_LESS, FSTRG_GREATER, FSTRG_LESSEQUAL, FSTRG_GREATEREQUAL,
       FSTRG_FLAGCOUNT, FSTRG_FLAGTEST, FSTRG_TRIGGER_TYPES };
enum { FSTRG_SET, FSTRG_RESET, FSTRG_INC, FSTRG_DEC, FSTRG_OR, FSTRG_AND, FSTRG_XOR, FSTRG_MULTIPLY,
       FSTRG_DIVIDE, FSTRG_RANDOM, FSTRG_SETFLAG, FSTRG_CLEARFLAG, FSTRG_OPS };
// The event types this project acts on (the others are listed in docs/forsaken.md)
enum { FSTRG_EV_PICKUP = 0, FSTRG_EV_TEXANIM_START = 8, FSTRG_EV_SPOTFX_START = 16,
       FSTRG_EV_LIGHT_ON = 19, FSTRG_EV_LIGHT_OFF = 20, FSTRG_EV_AREA_ON = 21, FSTRG_EV_AREA_OFF = 22 };

typedef struct {
    char name[FSTRG_NAME_LEN];   // NUL-terminated (the file's 32 bytes, the last forced to 0)
    int32_t init;
    int first, count;            // its triggers: idx[first .. first + count)
} fstrg_var_t;

typedef struct {
    int type, var;
    int32_t active_state;
    int first, count;            // its conditions in idx
} fstrg_trigger_t;

typedef struct {
    int op, var;
    int32_t value;
    float delay;                 // seconds (the game counts it in 60ths, ANIM_SECOND)
    int next;                    // -1 none
} fstrg_mod_t;

typedef struct {
    int type;
    uint8_t data[FSTRG_EVENT_DATA];
} fstrg_event_t;

typedef struct {
    int trig_first, trig_count;  // in idx
    int ev_first, ev_count;
} fstrg_cond_t;

typedef struct {
    int num_vars, num_triggers, num_mods, num_events, num_conds;
    fstrg_var_t *vars;
    fstrg_trigger_t *triggers;
    fstrg_mod_t *mods;
    fstrg_event_t *events;
    fstrg_cond_t *conds;
    int num_idx;
    int *idx;                    // every index list, one after the other
    size_t end;                  // bytes read
} fstrg_t;

// NULL and "name: offset N: expected ..." in err when the bytes are not a .TRG as laid out (cut
// short, another magic or version, a count below 0 or above FSTRG_MAX_ITEMS, a type or op out of
// range, an index outside its list, a delay that is not finite). Bytes after the end are ignored.
fstrg_t *fstrg_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap);
void fstrg_free(fstrg_t *t);

// The 16-bit value at the start of an event's data (the light, area, effect ... it names).
static inline int fstrg_event_arg(const fstrg_event_t *e) { return e->data[0] | e->data[1] << 8; }

#define FSZON_HEADER 10
#define FSZON_NONE 0xffff
#define FSZON_MAX_SIDES 256          // per area: far above a box's 6
enum { FSZON_SPHERE, FSZON_BOX, FSZON_HULL };
enum { FSZON_IN, FSZON_ENTERS, FSZON_EXITS, FSZON_SHOOTS };   // index of mods[]

typedef struct {
    float normal[3], offset;
} fszon_side_t;

typedef struct {
    int group, gen_type;
    float gen_delay;
    int shape;
    float pos[3], half[3];
    int first_side, num_sides;   // in sides
    uint16_t player_mod[4];      // FSZON_IN .. FSZON_SHOOTS, FSZON_NONE none
    int16_t player_primary, player_secondary;
    uint16_t enemy_mod[4];
    int16_t enemy_primary, enemy_secondary;
} fszon_area_t;

typedef struct {
    int count;
    fszon_area_t *areas;
    int num_sides;
    fszon_side_t *sides;
    size_t end;
} fszon_t;

// NULL and "name: offset N: expected ..." in err when the bytes are not a .ZON as laid out (cut
// short, another magic or version, a shape out of 0..2, more than FSZON_MAX_SIDES sides, a value
// that is not finite). Bytes after the last area are ignored.
fszon_t *fszon_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap);
void fszon_free(fszon_t *z);

// 0, or -1 and "name: area N: ..." in err when an area names a mod the .TRG does not have.
int fszon_check(const fszon_t *z, const fstrg_t *t, const char *name, char *err, size_t cap);

// How the segment a -> b meets area `ar` (the game's TriggerAreaProcess / RayToHull): bits
// FSZON_HIT_ENTRY (it crosses a side inward where the crossing lies within the other sides; a
// sphere: a outside, b inside), FSZON_HIT_EXIT (the reverse), FSZON_HIT_IN (both ends inside).
enum { FSZON_HIT_ENTRY = 1, FSZON_HIT_EXIT = 2, FSZON_HIT_IN = 4 };
int fszon_segment(const fszon_t *z, const fszon_area_t *ar, const float a[3], const float b[3]);
// Where along a -> b (0..1) the segment first gets inside area `ar` (the last inward crossing of
// a side, Cyrus-Beck; a sphere's surface); -1 when it never does, 0 when a is inside.
float fszon_entry_at(const fszon_t *z, const fszon_area_t *ar, const float a[3], const float b[3]);

#endif
