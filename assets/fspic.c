// fspic.c -- Forsaken's placed pickups (.PIC): see fspic.h
#include "fspic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"

static fspic_t *fail(fspic_t *p, char *err, size_t cap, const char *name, size_t off, const char *what)
{
    char msg[200];
    asset_fail(msg, sizeof msg, off, "%s", what);
    if (err && cap)
        snprintf(err, cap, "%s: %s", name ? name : "pic", msg);
    fspic_free(p);
    return NULL;
}

fspic_t *fspic_load(const uint8_t *data, size_t size, const char *name, char *err, size_t cap)
{
    char what[160];
    if (!data || size < FSPIC_HEADER) {
        snprintf(what, sizeof what, "expected a %d-byte header (PRJX, version, count), found %zu bytes", FSPIC_HEADER,
                 data ? size : 0);
        return fail(NULL, err, cap, name, 0, what);
    }
    if (memcmp(data, "PRJX", 4) != 0)
        return fail(NULL, err, cap, name, 0, "expected the magic PRJX");
    uint32_t version = asset_u32(data + 4);
    if (version != 1) {
        snprintf(what, sizeof what, "expected version 1 (PIC_VERSION_NUMBER), found %u", version);
        return fail(NULL, err, cap, name, 4, what);
    }
    int count = asset_s16(data + 8);
    if (count < 0 || count > FSPIC_MAX_SLOTS) {
        snprintf(what, sizeof what, "expected a slot count 0..%d, found %d", FSPIC_MAX_SLOTS, count);
        return fail(NULL, err, cap, name, 8, what);
    }
    size_t need = FSPIC_HEADER + (size_t)count * FSPIC_SLOT_SIZE;
    if (need > size) {
        snprintf(what, sizeof what, "expected %d slots of %d bytes (%zu bytes), found %zu (cut short)", count,
                 FSPIC_SLOT_SIZE, need - FSPIC_HEADER, size - FSPIC_HEADER);
        return fail(NULL, err, cap, name, FSPIC_HEADER + (size - FSPIC_HEADER) / FSPIC_SLOT_SIZE * FSPIC_SLOT_SIZE,
                    what);
    }
    fspic_t *p = calloc(1, sizeof *p);
    if (!p || !(p->slots = calloc((size_t)(count ? count : 1), sizeof *p->slots)))
        return fail(p, err, cap, name, 8, "expected memory for the slots");
    p->count = count;
    p->end = need;
    for (int i = 0; i < count; i++) {
        const uint8_t *s = data + FSPIC_HEADER + (size_t)i * FSPIC_SLOT_SIZE;
        size_t at = (size_t)(s - data);
        fspic_slot_t *o = &p->slots[i];
        o->gen_type = asset_u16(s);
        o->regen_type = asset_u16(s + 2);
        o->gen_delay = asset_f32(s + 4);
        o->lifespan = asset_f32(s + 8);
        for (int k = 0; k < 3; k++)
            o->pos[k] = asset_f32(s + 12 + 4 * k);
        o->group = asset_u16(s + 24);
        o->type = asset_u16(s + 26);
        o->trigger_mod = asset_u16(s + 28);
        if (o->type >= FSPIC_PICKUP_TYPES) {
            snprintf(what, sizeof what, "expected a pickup type below %d in slot %d, found %u (the game refuses the file)",
                     FSPIC_PICKUP_TYPES, i, o->type);
            return fail(p, err, cap, name, at + 26, what);
        }
        if (!isfinite(o->pos[0]) || !isfinite(o->pos[1]) || !isfinite(o->pos[2])) {
            snprintf(what, sizeof what, "expected a finite position in slot %d", i);
            return fail(p, err, cap, name, at + 12, what);
        }
    }
    return p;
}

void fspic_free(fspic_t *p)
{
    if (!p)
        return;
    free(p->slots);
    free(p);
}

int fspic_place(const fspic_t *p, uint64_t allowed, uint32_t game_flags, fspic_placed_t *out, int max)
{
    int n = 0;
    for (int i = 0; p && i < p->count && n < max; i++) {
        const fspic_slot_t *s = &p->slots[i];
        if (!(allowed >> s->type & 1))
            continue;   // FilterPickup: not in the game's allowed list
        if (s->type == FSPIC_TYPE_FLAG && !(game_flags & FSPIC_FLAG_GAME_BIT))
            continue;
        if (s->type == FSPIC_TYPE_BOUNTY && !(game_flags & FSPIC_BOUNTY_GAME_BIT))
            continue;
        fspic_placed_t *o = &out[n++];
        o->slot = i;
        o->id = (uint16_t)n;   // ++Ships[WhoIAm].PickupIdCount, from 0 at the level's start
        o->type = s->type;
        o->group = s->group;
        memcpy(o->pos, s->pos, sizeof o->pos);
    }
    return n;
}
