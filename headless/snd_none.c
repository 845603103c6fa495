// snd_none.c -- the silent sound system of the headless build (`make pentium`: no OpenAL)
//
// Only that build compiles this file, in place of audio/*.c: the same snd.h
// functions, each doing what the real ones do with s == NULL (nothing; snd_render
// writes silence), and snd_create* return NULL, so no caller needs an #ifdef.
#include "../audio/snd.h"

#include <string.h>

snd_t *snd_create(float volume)
{
    (void)volume;
    return NULL;
}

snd_t *snd_create_loopback(int rate, float volume)
{
    (void)rate;
    (void)volume;
    return NULL;
}

void snd_destroy(snd_t *s) { (void)s; }

void snd_load_level(snd_t *s, vfs_t *fs, const world_t *w)
{
    (void)s;
    (void)fs;
    (void)w;
}

void snd_frame(snd_t *s, const world_t *w)
{
    (void)s;
    (void)w;
}

void snd_play_at(snd_t *s, const world_t *w, const char *name, const float origin[3], float volume,
                 float attenuation)
{
    (void)volume;
    (void)attenuation;
    (void)s;
    (void)w;
    (void)name;
    (void)origin;
}

void snd_loops(snd_t *s, const world_t *w, const snd_loop_t *loops, int n)
{
    (void)s;
    (void)w;
    (void)loops;
    (void)n;
}

void snd_listener(snd_t *s, const vec3_t origin, const vec3_t angles)
{
    (void)s;
    (void)origin;
    (void)angles;
}

void snd_listener_axes(snd_t *s, const vec3_t origin, const vec3_t forward, const vec3_t up)
{
    (void)s;
    (void)origin;
    (void)forward;
    (void)up;
}

void snd_stop_all(snd_t *s) { (void)s; }

int snd_render(snd_t *s, int16_t *stereo, int frames)
{
    (void)s;
    if (stereo && frames > 0)
        memset(stereo, 0, (size_t)frames * 2 * sizeof(*stereo));
    return -1;
}

int snd_active_voices(snd_t *s)
{
    (void)s;
    return 0;
}
