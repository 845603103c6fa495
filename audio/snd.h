// snd.h -- sound: the world's sound events through OpenAL Soft, live or loopback
//
//     snd_t *s = snd_create(1.0f);              // live device; NULL (+1 warning) if none
//     snd_t *s = snd_create_loopback(48000);    // export: render the mix ourselves
//     snd_load_level(s, fs, world);             // when world->level_seq changed
//     snd_frame(s, world);                      // after each decoded server frame
//     snd_listener(s, origin, angles);          // each drawn frame
//     snd_render(s, pcm, frames);               // loopback only: 16-bit stereo
//     snd_stop_all(s);                          // on seek; then snd_frame restarts loops
#ifndef SND_H
#define SND_H

#include <stdint.h>

#include "../engine/vfs.h"
#include "../engine/world.h"

typedef struct snd_s snd_t;

snd_t *snd_create(float volume);
snd_t *snd_create_loopback(int rate, float volume);
void snd_destroy(snd_t *s);
void snd_load_level(snd_t *s, vfs_t *fs, const world_t *w);
void snd_frame(snd_t *s, const world_t *w);
void snd_listener(snd_t *s, const vec3_t origin, const vec3_t angles);
void snd_stop_all(snd_t *s);
int snd_render(snd_t *s, int16_t *stereo, int frames);

#endif
