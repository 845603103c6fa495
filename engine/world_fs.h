// world_fs.h -- Forsaken's own numbers that the world carries in its raw fields
//
// The decoder (formats/forsaken.c) and Forsaken's drawing rules (render/r_fsent.c)
// both read them from here (docs/forsaken.md, "World state mapping").
#ifndef WORLD_FS_H
#define WORLD_FS_H

// Model indices: the demo has no precache lists; the renderer picks the real model from the skin.
enum { FSW_MODEL_LEVEL = 1, FSW_MODEL_SHIP = 2, FSW_MODEL_PICKUP = 3, FSW_MODEL_BGO = 4,
       FSW_MODEL_LPICK = 5,     // the level pickups' markers below (nothing drawn for them)
       FSW_MODEL_TRIG = 6 };    // the triggers' markers below (nothing drawn for them)

// Entities: ship of player p is p + 1 (p 0..32); pickups are FSW_PICKUP_ENT0 + slot. A pickup's
// raw_effects: FSW_PICKUP_SPARKLE when its message asked for it to twinkle into life
// (InitOnePickup's Sparkle: the regeneration sprite, the model hidden for 32 ticks); its animtime:
// the world time of the message that put it where it is (dropped, or dropped again elsewhere), so
// the twinkle at any time follows from the world alone (a seek shows what playing shows).
#define FSW_SHIPS 33
#define FSW_PICKUP_ENT0 64
#define FSW_MAX_PICKUPS 1024       // pickups the messages put in the level at once
#define FSW_PICKUP_SPARKLE 1u

// The level's own pickups, placed by the host at the level's start from its .PIC (no message
// places them in the host's recording: render/r_fsent.c draws them from the file,
// assets/fspic.h says which). Entity FSW_LPICK_INFO says how the game placed them: raw_effects
// FSW_LPICK_HOST when the recording is the host's (it carries no MSG_SHORTPICKUP list, which only
// a joining player is sent), FSW_LPICK_RANDOM when the header asks for random pickups (the game
// shuffles the slots by its random numbers: not reproduced, not drawn); skin the header's game
// flags, body and sequence its allowed-pickup bits (low, high 32). Level pickup id k (1..
// FSW_MAX_LPICK, InitOnePickup's owner 0xffff) is gone once entity FSW_LPICK_INFO + k is in the
// world: a MSG_KILLPICKUP named it (its animtime: when). Both have modelindex FSW_MODEL_LPICK.
#define FSW_LPICK_INFO (FSW_PICKUP_ENT0 + FSW_MAX_PICKUPS)
#define FSW_MAX_LPICK 959
#define FSW_LPICK_HOST 1u
#define FSW_LPICK_RANDOM 2u

// Background objects (doors ..., the level's .BGO list): object i is entity FSW_BGO_ENT0 + i once a
// MSG_BGOUPDATE named it (before that it is in the state the level starts it in). Its fields:
// modelindex FSW_MODEL_BGO, frame = the state the message set (doors: FSW_DOOR_*), framerate = the
// object's animation time the message set (60ths of a second of its .COB animation), animtime =
// the world time of that message. The drawer moves it on from there by the game's rules, so the
// picture at any time follows from the world alone (a seek shows what playing shows).
#define FSW_BGO_ENT0 2048
_Static_assert(FSW_LPICK_INFO + FSW_MAX_LPICK < FSW_BGO_ENT0, "level pickups below the background objects");
#define FSW_MAX_BGO 256            // MAXBGOBJECTS

// What the level's triggers did (formats/forsaken_trig.c runs the level's .TRG and .ZON on the
// host's ship path): real-time light k of the level's .RTL (assets/fsrtl.h) was switched by a
// trigger once entity FSW_RTL_ENT0 + k is in the world: modelindex FSW_MODEL_TRIG, frame 1 on /
// 0 off, animtime the world time of the switch. The drawer pulses it from there by the .RTL
// (render/r_fsent.c), so a seek shows what playing shows.
#define FSW_RTL_ENT0 (FSW_BGO_ENT0 + FSW_MAX_BGO)
#define FSW_MAX_RTL 64
// Spot effect k of the level's .FX (assets/fsspot.h) waiting for a trigger was started (event 16,
// EnableSpotFX: frame 1) or stopped (event 17, DisableSpotFX: frame 0) once entity FSW_SPOT_ENT0 + k
// is in the world: modelindex FSW_MODEL_TRIG, animtime the world time of the event. The drawer
// runs the effect from that moment (render/r_fsspot.c), so a seek shows what playing shows.
#define FSW_SPOT_ENT0 (FSW_RTL_ENT0 + FSW_MAX_RTL)
#define FSW_MAX_SPOT 512           // MAXSPOTFX
// Texture animation k of the level's .MXV index (assets/fstex.h fstex_t.index; the triggers'
// events 8 / 9, TriggerBackgroundAnimationGo / Stop) was started (frame 1) or stopped (frame 0)
// once entity FSW_TEXANIM_ENT0 + k is in the world: modelindex FSW_MODEL_TRIG, animtime the world
// time of the event, framerate the seconds its script had run (started by triggers) before it.
// Go only sets the polygon's state: its script goes on from where it stood. The drawer shows the
// script's frame at framerate + (frame ? t - animtime : 0) seconds (render/r_fsent.c), so a seek
// shows what playing shows.
#define FSW_TEXANIM_ENT0 (FSW_SPOT_ENT0 + FSW_MAX_SPOT)
#define FSW_MAX_TEXANIM 256        // index entries a trigger can name here (therm's: 45)
enum { FSW_DOOR_CLOSED, FSW_DOOR_OPENING, FSW_DOOR_OPEN, FSW_DOOR_CLOSING, FSW_DOOR_REVERSEOPENING,
       FSW_DOOR_REVERSECLOSING };

// world_fx_event_t.raw_type: the message code that made the effect.
enum {
    FSW_FX_SHORTMINE = 0x2f,     // a mine already laid, from the list a joiner is sent (RegenMineList): as
                                 // FSW_FX_SECBULL, and args[FSW_FX_ARG_LIFE] its LifeCount (ticks) when sent
    FSW_FX_PRIMBULL = 0x55,      // a primary weapon shot: args weapon, power level, bullet id, owner
    FSW_FX_SECBULL = 0x66,       // a secondary weapon launched at origin (Pos + Offset): args weapon, 0, bullet
                                 // id, owner; pos3 its drop vector (DropDir: the MFRL falls along it); end its
                                 // up vector (UpVector: a mine bobs along it and turns about it)
    FSW_FX_SHIPDIED = 0x77,      // a ship blew up at origin (entity = its ship)
    FSW_FX_EXPSECONDARY = 0xcc,  // a mine or missile exploded (ExplodeSecondary): radius = its ShockwaveSize
                                 // (CreateShockwave's, 0: none); args -1, 0, bullet id, owner
    FSW_FX_EXPLODESHIP = 0xe8,
    FSW_FX_TITANBITS = 0xfd,     // one of the titan star's shrapnel bits, dir = its direction
    FSW_FX_SHOCKWAVE = 0xff      // CreateShockwave at origin: radius = its ShockwaveSize (the flash's units a texel)
};
enum { FSW_FX_ARG_WEAPON = 0, FSW_FX_ARG_POWER = 1, FSW_FX_ARG_ID = 2, FSW_FX_ARG_OWNER = 3,
       FSW_FX_ARG_CHARGE = 4,     // the trojax's PLevel 0..100 (MSG_PRIMBULLPOSDIR), -1 not sent
       FSW_FX_ARG_LIFE = 5 };     // a secondary's LifeCount in whole ticks when it was made (0 but MSG_SHORTMINE's)
#define FSW_FX_MAX_LIFE 1000000   // the largest LifeCount the decoder passes on (ticks; hostile values clamped)

// The ship flag bits kept in entity_state_t.raw_effects (the u32 of every update).
enum {
    FSW_SHIP_ENABLE = 1u << 10, FSW_SHIP_PRIMFIRE = 1u << 15, FSW_SHIP_STEALTH = 1u << 16,
    FSW_SHIP_INVUL = 1u << 20, FSW_SHIP_LIGHT = 1u << 30,
    FSW_SHIP_MULTIPLES = 0xfu,   // bits 0-3: the orbit pulsars (NumMultiples) circling the ship
    FSW_SHIP_MODE_SHIFT = 6      // 2 bits: 0 normal, 1 dying, 2 limbo (blown up)
};

// Primary weapons (PULSAR ..) and secondary weapons (MUGMISSILE ..) as the messages number them.
enum { FSW_PULSAR, FSW_TROJAX, FSW_PYROLITE, FSW_TRANSPULSE, FSW_SUSSGUN, FSW_LASER, FSW_ORBITPULSAR, FSW_NUM_PRIMARY };
// PrimaryWeaponAttribs[] (Primary.c): a primary's speed in units a tick (1/71 s; the laser's 0:
// its beam is the ship's) and its LifeCount in ticks: the renderer's flight and the decoder's trigger
// areas both use these.
static inline float fsw_primary_speed(int weapon)
{
    return weapon == FSW_PYROLITE ? 20.0f : weapon == FSW_TRANSPULSE ? 48.0f : weapon == FSW_LASER ? 0.0f : 32.0f;
}
static inline float fsw_primary_life(int weapon)
{
    return weapon == FSW_PYROLITE ? 64.0f : weapon == FSW_LASER ? 12.0f : 1000.0f;
}
enum {
    FSW_MUG, FSW_SOLARIS, FSW_THIEF, FSW_SCATTER, FSW_GRAVGON, FSW_MFRL, FSW_TITAN, FSW_PURGEMINE, FSW_PINEMINE,
    FSW_QUANTUMMINE, FSW_SPIDERMINE, FSW_PINEMISSILE, FSW_TITANSHRAPNEL, FSW_NUM_SECONDARY
};

#endif
