// fspic.h -- Forsaken's placed pickups (Data/Levels/<level>/<level>.PIC)
//
// A level's .PIC lists its pickup regeneration points ("regen slots"). Layout, from the game's
// loader (ForsakenW/forsaken ProjectX/Pickups.c LoadPickupsPositions), all little-endian:
//
//     char[4] "PRJX" (MAGIC_NUMBER), u32 version 1 (PIC_VERSION_NUMBER), s16 slot count,
//     then 30 bytes a slot: u16 generation type (0 at once, 1 after a delay, 2 by a trigger),
//     u16 regeneration type (0 random, 1 the same, 2 once only), f32 generation delay (seconds),
//     f32 lifespan (-1: for ever), f32 x y z, u16 group, u16 pickup type (below 46,
//     MAXPICKUPTYPES), u16 trigger mod (0xffff: none)
//
// The game refuses the whole file for a type of 46 or more; so does fspic_load.
//
//     char err[256];
//     fspic_t *p = fspic_load(bytes, size, "SHIP.PIC", err, sizeof err);   // "SHIP.PIC: offset N: expected ..."
//     fspic_placed_t placed[FSPIC_MAX_SLOTS];
//     int n = fspic_place(p, allowed_bits, game_flags, placed, FSPIC_MAX_SLOTS);
//     fspic_free(p);
#ifndef FSPIC_H
#define FSPIC_H

#include <stddef.h>
#include <stdint.h>

#define FSPIC_HEADER 10
#define FSPIC_SLOT_SIZE 30
#define FSPIC_MAX_SLOTS 959         // more than any level has (therm's 49); the ids the world can name
#define FSPIC_PICKUP_TYPES 46       // MAXPICKUPTYPES
#define FSPIC_TYPE_FLAG 40          // PICKUP_Flag: only in a capture-the-flag game
#define FSPIC_TYPE_BOUNTY 41        // PICKUP_Bounty: only in a bounty hunt
#define FSPIC_FLAG_GAME_BIT 0x0400u    // the demo header's game flags (Main.h FlagGameBit)
#define FSPIC_BOUNTY_GAME_BIT 0x0800u  // BountyGameBit

typedef struct {
    uint16_t gen_type, regen_type;
    float gen_delay, lifespan;
    float pos[3];
    uint16_t group, type, trigger_mod;
} fspic_slot_t;

typedef struct {
    int count;
    fspic_slot_t *slots;
    size_t end;                 // bytes read (the file's size when it is exactly as laid out)
} fspic_t;

// A pickup the host put in the level at its start: slot `slot`, InitOnePickup's owner 0xffff and id.
typedef struct {
    int slot;
    uint16_t id, type, group;
    float pos[3];
} fspic_placed_t;

// NULL and "name: offset N: expected ..." in err when the bytes are not a .PIC as laid out
// (cut short, another magic or version, a count below 0 or above FSPIC_MAX_SLOTS, a type of 46
// or more, a position that is not finite). Bytes after the last slot are ignored.
fspic_t *fspic_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap);
void fspic_free(fspic_t *p);

// The pickups a multiplayer game's host places when the level starts (LoadPickupsPositions with
// random pickups off): every slot, whatever its generation type (a multiplayer game makes them
// all "at once"), whose type the game allows (`allowed`: the demo header's bit per type) and
// that is not the flag outside a capture-the-flag game nor the bounty outside a bounty hunt
// (`game_flags`: the header's), numbered 1, 2, ... in slot order (++PickupIdCount). Writes at
// most max into out; returns how many.
int fspic_place(const fspic_t *p, uint64_t allowed, uint32_t game_flags, fspic_placed_t *out, int max);

#endif
