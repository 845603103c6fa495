// snd.c -- sound system (placeholder until the audio work lands: silent)
#include "snd.h"

#include <stdlib.h>
#include <string.h>

struct snd_s { int loopback; };

snd_t *snd_create(float volume) { (void)volume; return NULL; }
snd_t *snd_create_loopback(int rate, float volume)
{
    (void)rate; (void)volume;
    snd_t *s = calloc(1, sizeof(*s));
    if (s)
        s->loopback = 1;
    return s;
}
void snd_destroy(snd_t *s) { free(s); }
void snd_load_level(snd_t *s, vfs_t *fs, const world_t *w) { (void)s; (void)fs; (void)w; }
void snd_frame(snd_t *s, const world_t *w) { (void)s; (void)w; }
void snd_listener(snd_t *s, const vec3_t origin, const vec3_t angles) { (void)s; (void)origin; (void)angles; }
void snd_stop_all(snd_t *s) { (void)s; }
int snd_render(snd_t *s, int16_t *stereo, int frames)
{
    (void)s;
    memset(stereo, 0, (size_t)frames * 4);
    return 0;
}
