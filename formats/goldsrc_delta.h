// goldsrc_delta.h -- GoldSrc delta descriptions (svc_deltadescription) and bit-packed delta decoding
//
// A GoldSrc server describes each compressed structure (entity_state_t,
// clientdata_t, weapon_data_t, event_t ...) in svc_deltadescription: a list of
// fields with a type, a bit count and multipliers. A delta on the wire is
// then: 3 bits = number of mask bytes, that many 8-bit mask bytes (bit i set =
// field i follows), then each present field in description order.
//
// Values are kept per "class" of structure in slots named by field name, so a
// description sent later (or a different description of the same structure,
// like entity_state_player_t and entity_state_t) lands in the same slots:
//
//     hl_delta_set_t set;            // part of the decoder state, plain data
//     hl_delta_reset(&set);
//     hl_delta_parse_description(&set, &bits, "entity_state_t", nfields, &err) ...
//     int d = hl_delta_find(&set, "entity_state_t");
//     hl_delta_read(&set, d, &bits, vals, HL_ENT_SLOTS, time, NULL, 0, dump, &err);
//     float x = hl_slot_f(&set, HL_CLS_ENT, vals, set.ent_slot[HL_ES_ORIGIN0]);
//
// Everything is plain data: copying an hl_delta_set_t copies all of it.
#ifndef GOLDSRC_DELTA_H
#define GOLDSRC_DELTA_H

#include <stdint.h>
#include <stdio.h>

#include "decoder.h"
#include "msg.h"

// Field types (delta.h of the GoldSrc SDK; public facts)
enum {
    HL_DT_BYTE = 1, HL_DT_SHORT = 2, HL_DT_FLOAT = 4, HL_DT_INTEGER = 8, HL_DT_ANGLE = 16,
    HL_DT_TIMEWINDOW_8 = 32, HL_DT_TIMEWINDOW_BIG = 64, HL_DT_STRING = 128
};
#define HL_DT_SIGNED 0x80000000u

#define HL_MAX_DELTAS 32          // distinct descriptions kept (HL sends about 10)
#define HL_MAX_FIELDS 128         // fields per description (a 3-bit mask count addresses 56)
#define HL_FIELD_NAME 32

// Structure classes whose values are kept in slots, and how many slots each has.
enum { HL_CLS_ENT = 0, HL_CLS_CD, HL_CLS_WD, HL_CLS_EV, HL_CLS_OTHER, HL_CLS_COUNT };
#define HL_ENT_SLOTS 96
#define HL_CD_SLOTS 64
#define HL_WD_SLOTS 32
#define HL_EV_SLOTS 32
#define HL_OTHER_SLOTS 128

// Entity fields the world state needs, looked up by name after every description.
enum {
    HL_ES_ORIGIN0, HL_ES_ORIGIN1, HL_ES_ORIGIN2, HL_ES_ANGLES0, HL_ES_ANGLES1, HL_ES_ANGLES2,
    HL_ES_MODELINDEX, HL_ES_FRAME, HL_ES_SKIN, HL_ES_BODY, HL_ES_SEQUENCE, HL_ES_ANIMTIME,
    HL_ES_FRAMERATE, HL_ES_RENDERMODE, HL_ES_RENDERAMT, HL_ES_COLOR_R, HL_ES_COLOR_G, HL_ES_COLOR_B,
    HL_ES_RENDERFX, HL_ES_SCALE, HL_ES_EFFECTS, HL_ES_COLORMAP, HL_ES_CONTROLLER0, HL_ES_CONTROLLER1,
    HL_ES_CONTROLLER2, HL_ES_CONTROLLER3, HL_ES_BLENDING0, HL_ES_BLENDING1, HL_ES_GAITSEQUENCE, HL_ES_WEAPONMODEL,
    HL_ES_USEHULL, HL_ES_SOLID, HL_ES_OWNER, HL_ES_MINS0, HL_ES_MINS1, HL_ES_MINS2, HL_ES_MAXS0, HL_ES_MAXS1,
    HL_ES_MAXS2, HL_ES_COUNT
};
// Client data fields the view needs.
enum {
    HL_CD_ORIGIN0, HL_CD_ORIGIN1, HL_CD_ORIGIN2, HL_CD_VELOCITY0, HL_CD_VELOCITY1, HL_CD_VELOCITY2,
    HL_CD_PUNCH0, HL_CD_PUNCH1, HL_CD_PUNCH2, HL_CD_VIEWOFS2, HL_CD_FOV, HL_CD_HEALTH, HL_CD_COUNT
};

typedef struct {
    char name[HL_FIELD_NAME];
    uint32_t type;             // HL_DT_* | HL_DT_SIGNED
    int32_t bits;              // significant bits, 0..32
    float pre, post;           // premultiply / postmultiply (1 when absent or unusable)
    int16_t slot;              // slot in the class's value array, -1 = not kept
} hl_field_t;

typedef struct {
    char name[HL_FIELD_NAME];
    int32_t cls;
    int32_t nfields;
    hl_field_t f[HL_MAX_FIELDS];
} hl_delta_t;

typedef struct {
    int32_t count;
    char names[HL_OTHER_SLOTS][HL_FIELD_NAME];
    uint8_t is_float[HL_OTHER_SLOTS];
} hl_slots_t;

typedef struct {
    int32_t count;
    hl_delta_t d[HL_MAX_DELTAS];
    hl_slots_t slots[HL_CLS_COUNT];
    int16_t ent_slot[HL_ES_COUNT];
    int16_t cd_slot[HL_CD_COUNT];
    // indices into d[] of the descriptions the decoder uses (-1 = not sent yet)
    int16_t d_entity, d_player, d_custom, d_clientdata, d_weapon, d_event;
} hl_delta_set_t;

// Where decoded fields are printed (NULL f: not printed).
typedef struct {
    FILE *f;
    int json;
} hl_dump_t;

void hl_delta_reset(hl_delta_set_t *set);
int hl_delta_find(const hl_delta_set_t *set, const char *name);
// Parse the fields of svc_deltadescription `name` (bit stream at b) and keep it.
// Returns 0, or -1 with err set.
int hl_delta_parse_description(hl_delta_set_t *set, bitmsg_t *b, const char *name, int nfields,
                               const hl_dump_t *dump, dec_error_t *err);
// Decode one delta with description `di` over vals[0..cap-1] (which hold the
// "from" values on entry). `time` is the server time for time-window fields.
// String fields go to str (may be NULL). Returns 0, or -1 with err set.
int hl_delta_read(const hl_delta_set_t *set, int di, bitmsg_t *b, uint32_t *vals, int cap, double time,
                  char *str, size_t strcap, const hl_dump_t *dump, dec_error_t *err);
// A slot's value as a float / an integer, whichever type the slot holds (0 when slot < 0).
float hl_slot_f(const hl_delta_set_t *set, int cls, const uint32_t *vals, int slot);
int32_t hl_slot_i(const hl_delta_set_t *set, int cls, const uint32_t *vals, int slot);
// Float to int32 without undefined behaviour: clamps, NaN -> 0.
int32_t hl_f2i(double v);

#endif
