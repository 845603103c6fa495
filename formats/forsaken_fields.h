// forsaken_fields.h -- each Forsaken message's plain fields, described once
//
// One table per message layout: for every field its byte offset in the payload,
// its wire and struct types, where it lies in the decoded struct (offsetof) and
// how `dump` shows it. The parser (forsaken_parse.c), the writer (forsaken_write.c)
// and dump (forsaken.c) each walk the same table, so a layout is written down
// in one place (the idea of Quake II's / Quake III's netField_t tables). Messages
// with rules a table cannot say (the ship updates' packed parts, the level
// checksum, conversions with rounding, values dump computes) are code that calls
// these tables for their plain part; see docs/forsaken.md.
#ifndef FORSAKEN_FIELDS_H
#define FORSAKEN_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "forsaken.h"

// Wire type -> struct type. Integers are stored and written by their bits
// (an int16_t from an s16, a wider struct field from a narrower wire one).
enum {
    FS_K_U8,       // u8 -> uint8_t
    FS_K_U16,      // u16 -> uint16_t
    FS_K_S16,      // s16 -> int16_t
    FS_K_U32,      // u32 -> uint32_t
    FS_K_S32,      // u32 -> int32_t
    FS_K_U64,      // u64 -> uint64_t
    FS_K_F32,      // f32 -> float
    FS_K_U16_U32,  // u16 -> uint32_t
    FS_K_S16_F32,  // s16 -> float as sent (written back truncated to int16)
    FS_K_STR,      // char[count] -> text up to its NUL, control bytes as '?'; written with a NUL inside
    FS_K_STR_FULL  // the same, but all `count` bytes may be text when written
};

// How dump shows a field (key=value, or JSON).
enum {
    FS_D_NONE,     // not shown (or shown by the message's own code)
    FS_D_INT,      // one integer (the first element)
    FS_D_HEX,      // an integer in hex (text) / a number (JSON)
    FS_D_NUM,      // a float
    FS_D_VEC,      // count floats: (a b c)
    FS_D_FVEC,     // count integers shown as floats: (a b c)
    FS_D_IVEC,     // count integers: (a b c)
    FS_D_HEX2,     // two u32, low then high, as one 64-bit hex
    FS_D_STR,      // text
    FS_D_MSGNAME   // a message code, by its name ("unknown" for a code the game does not define)
};

typedef struct {
    const char *name;   // dump key
    uint8_t dump;       // FS_D_*
    uint8_t kind;       // FS_K_*
    uint8_t count;      // elements (a vector: 3); FS_K_STR*: the field's bytes
    uint16_t wire;      // byte offset in the payload (or in the block the table describes)
    uint16_t field;     // offsetof in the decoded struct
} fs_field_t;

typedef struct {
    const fs_field_t *fields;
    uint8_t count;
    uint8_t no_writer;  // MSG_GUARANTEEDMSG, MSG_BIGPACKET: built with fs_encode_guaranteed/_bigpacket
} fs_fields_t;

// The table of message `code` when its whole layout is plain fields, else NULL
// (an unknown code, or a message whose layout is code: ship updates, MSG_STATUS,
// MSG_LONGSTATUS, the SHORT* lists, the interpolations, MSG_VERYSHORTDROPPICKUP).
const fs_fields_t *fs_msg_fields(uint8_t code);

// Parts of the layouts that are code: a ship update's head (player, flags, status or
// weapons, group; the movement after it is code), a STATUSMSG (at 0 in MSG_STATUS, at 8 or 4 in
// MSG_LONGSTATUS; the level checksum after it is code) and one entry of the SHORT* lists.
extern const fs_fields_t fs_ship_fields;         // UPDATE, VERYSHORTUPDATE
extern const fs_fields_t fs_fship_fields;        // the F variants and GROUPONLY_VERYSHORTFUPDATE
extern const fs_fields_t fs_status_fields;
extern const fs_fields_t fs_pickupinfo_fields;   // SHORTPICKUP, 52 bytes an entry
extern const fs_fields_t fs_mineinfo_fields;     // SHORTMINE, 76 bytes an entry
extern const fs_fields_t fs_regenslot_fields;    // SHORTREGENSLOT, 40 bytes an entry

// The bytes one element of a field takes on the wire and in the struct (a string: all of it).
static inline size_t fs_field_wire_size(const fs_field_t *f)
{
    static const uint8_t size[] = { 1, 2, 2, 4, 4, 8, 4, 2, 2, 0, 0 };
    return f->kind >= FS_K_STR ? f->count : size[f->kind];
}

static inline size_t fs_field_mem_size(const fs_field_t *f)
{
    static const uint8_t size[] = { 1, 2, 2, 4, 4, 8, 4, 4, 4, 0, 0 };
    return f->kind >= FS_K_STR ? (size_t)f->count + 1 : size[f->kind];
}

#endif
