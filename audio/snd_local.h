// snd_local.h -- private to audio/: the sound cache (precache name -> OpenAL buffer)
#ifndef SND_LOCAL_H
#define SND_LOCAL_H

#include <AL/al.h>

#include "../engine/vfs.h"
#include "../engine/world.h"

// Distinct sound names kept loaded at once. Levels share most of their sounds,
// so buffers stay across level changes and seeks; when this many different names
// have been seen, the cache is emptied and refilled.
#define SND_CACHE_MAX WORLD_MAX_SOUNDS   // one level never fills it

typedef struct {
    char key[WORLD_NAME_LEN];   // the precache name, lower case
    ALuint buffer;              // 0: missing, damaged or empty (silent)
    int loop_start;             // frame the loop returns to; -1 = plays once
    int frames;
    int rate;
} snd_sfx_t;

typedef struct {
    snd_sfx_t sfx[SND_CACHE_MAX];
    int count;
    int16_t hash[SND_CACHE_MAX * 2];   // entry + 1, 0 = empty (open addressing)
    int loop_points;                   // AL_SOFT_loop_points present
} snd_cache_t;

void snd_cache_init(snd_cache_t *c, int loop_points);
// The entry for a precache name, loading it on first use ("sound/" + name through
// the VFS, as the game would). A name that cannot be loaded gets a silent entry
// (buffer 0) and one warning. NULL when the name is empty or the cache is full.
const snd_sfx_t *snd_cache_get(snd_cache_t *c, vfs_t *fs, world_game_t game, const char *name);
// Delete every buffer. No source may still have one attached.
void snd_cache_clear(snd_cache_t *c);

// The file a precache name refers to, per game. 0 when the name is not a file
// (a GoldSrc sentence "!NAME"), 1 otherwise.
int snd_sound_path(world_game_t game, const char *name, char *out, size_t cap);

#endif
