// snd.h -- sound: the world's sound events through OpenAL Soft, live or loopback
//
//     snd_t *s = snd_create(1.0f);                  // live device; NULL (+1 warning) if none
//     snd_t *s = snd_create_loopback(48000, 1.0f);  // export: render the mix ourselves
//     snd_load_level(s, fs, world);             // when world->level_seq changed
//     snd_frame(s, world);                      // after each decoded server frame
//     snd_listener(s, origin, angles);          // each drawn frame
//     snd_render(s, pcm, frames);               // loopback only: 16-bit stereo
//     snd_stop_all(s);                          // on seek; then snd_frame restarts loops
//     snd_set_clock(s, sample, offset);         // loopback: where the render head is in playback time
//
// Every function accepts s == NULL and then does nothing (snd_render writes
// silence): a NULL sound system is a silent one.
//
// What is played (docs/audio.md has the details): EV_SOUND with Quake's entity
// channels (a new sound on the same entity and channel replaces the old one;
// channel 0 never does), EV_STOPSOUND, the level's static sounds, Quake II entity
// loops (entity_state.sound), the sounds the games' clients made themselves
// (explosions, Quake II weapons from muzzle flashes, chat beeps), Quake's water
// and sky ambients from the map, Quake's linear distance attenuation, and 3D
// placement from the listener. Sounds with a WAV cue point loop until replaced
// or stopped. The loopback mix is deterministic: the same calls give the same bytes.
#ifndef SND_H
#define SND_H

#include <stdint.h>

#include "../engine/vfs.h"
#include "../engine/world.h"

typedef struct snd_s snd_t;

// The default output device, `volume` scaling everything as Quake's `volume` cvar
// does (the mix times (int)(volume * 256) / 256; 0..1, up to 4; demoplay's default 0.7).
snd_t *snd_create(float volume);
// An ALC_SOFT_loopback device mixing at `rate` Hz; NULL (+ an error) if OpenAL cannot.
snd_t *snd_create_loopback(int rate, float volume);
void snd_destroy(snd_t *s);
// Stop everything and load the level's sounds ("sound/" + name through fs).
// Sounds named later (Quake II configstrings) load when first played.
void snd_load_level(snd_t *s, vfs_t *fs, const world_t *w);
// Play the events of the world's latest frame (once per w->seq), start static
// sounds not started yet, follow entity loops.
void snd_frame(snd_t *s, const world_t *w);
// A sound the renderer's game rules decided (r_sounds: Forsaken's weapons, explosions, mines going
// off), `name` under the game's sound folder, at origin, at `volume` (1 full; clamped to 0..1),
// `attenuation` in Quake's units (1 normal; 0 none: the loudness is the caller's, in volume; the
// sound is still placed). After snd_frame of that frame.
void snd_play_at(snd_t *s, const world_t *w, const char *name, const float origin[3], float volume,
                 float attenuation);
// A lasting looping sound a game's rules keep going (render.h r_loops: Forsaken's placed sounds and
// the fire wall's), keyed by `id`: the same id call after call is the same sound.
typedef struct {
    uint32_t id;
    const char *name;        // under the game's sound folder
    float origin[3];
    float volume;            // 1 full (clamped to 0..1)
    float attenuation;       // Quake's units (1 normal; 0 none: the loudness is the caller's, in volume)
    uint8_t centred;         // heard in both ears alike (not placed)
    double start;            // world time it began: it plays (time - start) into its pass, then loops
} snd_loop_t;
// The loops the caller wants now, after snd_frame: each listed plays (a new one, or one whose start
// or sound changed, from where it would be had it played since `start`: a seek hears what playing
// does), each not listed stops; the whole sound loops (from its cue point when it has one).
void snd_loops(snd_t *s, const world_t *w, const snd_loop_t *loops, int n);
// Listener at the view: origin and Quake angles (pitch, yaw, roll in degrees).
void snd_listener(snd_t *s, const vec3_t origin, const vec3_t angles);
// Listener at the view: origin and the view's forward and up in the world's own axes (any game's:
// a left-handed world, world_left_handed, is mirrored into OpenAL's space with its sounds).
void snd_listener_axes(snd_t *s, const vec3_t origin, const vec3_t forward, const vec3_t up);
// Whose sounds are the listener's own (centred, never attenuated, as the games mix their player's):
// -1 (the default) the recording player's view entity; 0 nobody (a camera with no body: chase,
// free, a path); > 0 that entity (a followed player's). For sounds started from then on.
void snd_listener_entity(snd_t *s, int entity);
void snd_stop_all(snd_t *s);
// The clock lasting loops run on (docs/audio.md, "Loops and the level clock"):
// playback time = world time + offset (constant within a level), and, on a
// loopback, the next sample snd_render writes is sample `sample` of the playback
// timeline (llround(playback time * rate)). Call it before rendering from a new
// place (after a seek) and whenever the offset may have changed (a new level).
// Without it the clock is the world's time and the samples rendered since creation.
void snd_set_clock(snd_t *s, long long sample, double offset);
// Loopback only: mix exactly `frames` frames of interleaved 16-bit stereo (L, R).
// Returns 0; -1 (and silence) when s is not a loopback device.
int snd_render(snd_t *s, int16_t *stereo, int frames);
// Voices playing now (tests, diagnostics).
int snd_active_voices(snd_t *s);

#endif
