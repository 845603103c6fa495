// goldsrc_events.h -- what Half-Life's client does with a game event, on the sound side
//
// The server names a client event (svc_event, the demo's event frames) by its script
// ("events/glock1.sc"); the game's client dll plays the shot and draws the flash. The
// numbers are those of Valve's released SDK (cl_dll/ev_hldm.cpp) and, for Counter-Strike,
// of the public re-creations of its client; the drawing side is render/r_hlfx.c.
#ifndef GOLDSRC_EVENTS_H
#define GOLDSRC_EVENTS_H

#include "../engine/world.h"

// The script's short name: "events/glock1.sc" -> "glock1" (into out, cap bytes).
void hl_event_short_name(const char *script, char *out, size_t cap);
// Whether an event of this name is one the rules know (sounds or effects).
int hl_event_known(const char *script);
// Queue the event (EV_GAMEEVENT, its name in the text arena) and the sounds its client
// plays (EV_SOUND by name). Returns 1 when the name was known, 0 when only the event was queued.
int hl_event_emit(world_t *w, const char *script, const world_game_event_t *args);

// The sounds the engine plays for a temp entity of type t (TE_EXPLOSION's explode3..5 unless its
// flags say no sound, the ricochets of TE_GUNSHOT / TE_GUNSHOTDECAL / TE_ARMOR_RICOCHET ...):
// EV_SOUND by name at pos. iv: the message's shorts and bytes in order.
void hl_tempent_sounds(world_t *w, int t, const float pos[3], const int32_t *iv, uint32_t seed);

#endif
