// snd_cache.c -- sounds by precache name: VFS -> WAV -> mono 16-bit OpenAL buffers with loop points
#include "snd_local.h"

#include <AL/alext.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../assets/wav.h"
#include "../engine/log.h"

#define HASH_SIZE (SND_CACHE_MAX * 2)

void snd_cache_init(snd_cache_t *c, int loop_points)
{
    memset(c, 0, sizeof(*c));
    c->loop_points = loop_points;
}

void snd_cache_report(snd_cache_t *c)
{
    if (c->missing == 1)
        log_warn("sound: %s not found, it stays silent", c->first_missing);
    else if (c->missing > 1)
        log_warn("sound: %d files not found (the first: %s), they stay silent", c->missing, c->first_missing);
    c->missing = 0;
}

void snd_cache_clear(snd_cache_t *c)
{
    for (int i = 0; i < c->count; i++)
        if (c->sfx[i].buffer && c->sfx[i].alias == 0)
            alDeleteBuffers(1, &c->sfx[i].buffer);
    snd_cache_init(c, c->loop_points);
}

static uint32_t hash_key(const char *k)
{
    uint32_t h = 2166136261u;   // FNV-1a
    for (; *k; k++)
        h = (h ^ (uint8_t)*k) * 16777619u;
    return h;
}

int snd_sound_path(world_game_t game, const char *name, char *out, size_t cap)
{
    const char *n = name;
    if (game == GAME_GOLDSRC) {
        if (*n == '!')
            return 0;   // a sentence from sentences.txt, not a file
        // leading flag characters (stream, dry mix, directional ...) are not part of the path
        while (*n && strchr("*#@^)(}{<>?", *n))
            n++;
    } else if (game == GAME_QUAKE2) {
        if (*n == '#') {   // Quake II: '#' names a path from the game folder
            snprintf(out, cap, "%s", n + 1);
            return 1;
        }
        if (*n == '*') {   // a player model's own sound: the male set is the fallback
            snprintf(out, cap, "sound/player/male/%s", n + 1);
            return 1;
        }
    }
    if (!strncasecmp(n, "sound/", 6))
        snprintf(out, cap, "%s", n);
    else
        snprintf(out, cap, "sound/%s", n);
    return 1;
}

// Load one file into an AL buffer; fills e->buffer (0 when silent).
static void load_sfx(snd_cache_t *c, vfs_t *fs, const char *path, snd_sfx_t *e)
{
    if (!fs)
        return;
    size_t size = 0;
    uint8_t *bytes = vfs_load(fs, path, &size);
    if (!bytes) {
        if (!c->missing++)
            snprintf(c->first_missing, sizeof c->first_missing, "%s", path);
        return;
    }
    wav_info_t info;
    char err[160];
    if (wav_parse(bytes, size, &info, err, sizeof(err)) < 0) {
        log_warn("sound: %s: %s", path, err);
        free(bytes);
        return;
    }
    if (info.note[0])
        log_info("sound: %s: %s", path, info.note);
    if (info.frames <= 0) {
        free(bytes);
        return;
    }
    int16_t *pcm = malloc(wav_s16_bytes(&info));
    if (!pcm) {
        free(bytes);
        return;
    }
    int frames = wav_to_s16(bytes, size, &info, pcm);
    free(bytes);
    // Stereo files are folded to mono: OpenAL places only mono buffers in 3D, and
    // the games mixed every effect as a point source anyway.
    if (info.channels == 2)
        for (int i = 0; i < frames; i++)
            pcm[i] = (int16_t)(((int32_t)pcm[2 * i] + pcm[2 * i + 1]) / 2);
    alGetError();
    ALuint buf = 0;
    alGenBuffers(1, &buf);
    if (alGetError() != AL_NO_ERROR) {
        free(pcm);
        return;
    }
    alBufferData(buf, AL_FORMAT_MONO16, pcm, (ALsizei)((size_t)frames * sizeof(int16_t)), info.rate);
    free(pcm);
    if (alGetError() != AL_NO_ERROR) {
        log_warn("sound: %s: OpenAL refused %d frames at %d Hz", path, frames, info.rate);
        alDeleteBuffers(1, &buf);
        return;
    }
    if (info.loop_start > 0 && info.loop_start < frames && c->loop_points) {
        ALint pts[2] = { info.loop_start, frames };
        alBufferiv(buf, AL_LOOP_POINTS_SOFT, pts);
        alGetError();   // a refusal leaves the whole-sound loop, which is close enough
    }
    e->buffer = buf;
    e->loop_start = info.loop_start < frames ? info.loop_start : -1;
    e->frames = frames;
    e->rate = info.rate;
}

static const snd_sfx_t *find_or_load(snd_cache_t *c, vfs_t *fs, const char *name, const char *path)
{
    char key[WORLD_NAME_LEN];
    size_t n = 0;
    for (; name[n] && n < sizeof(key) - 1; n++)
        key[n] = (char)tolower((unsigned char)name[n]);
    key[n] = 0;
    uint32_t h = hash_key(key) % HASH_SIZE;
    for (int probe = 0; probe < HASH_SIZE; probe++, h = (h + 1) % HASH_SIZE) {
        int slot = c->hash[h];
        if (!slot)
            break;
        if (!strcmp(c->sfx[slot - 1].key, key))
            return &c->sfx[slot - 1];
    }
    if (c->count >= SND_CACHE_MAX)
        return NULL;
    snd_sfx_t *e = &c->sfx[c->count];
    memset(e, 0, sizeof(*e));
    memcpy(e->key, key, n + 1);
    e->loop_start = -1;
    if (path)
        load_sfx(c, fs, path, e);
    c->hash[h] = (int16_t)(++c->count);
    return e;
}

const snd_sfx_t *snd_cache_get(snd_cache_t *c, vfs_t *fs, world_game_t game, const char *name)
{
    if (!name || !name[0])
        return NULL;
    char path[WORLD_NAME_LEN + 32];
    int is_file = snd_sound_path(game, name, path, sizeof(path));
    return find_or_load(c, fs, name, is_file ? path : NULL);
}

const snd_sfx_t *snd_cache_get_path(snd_cache_t *c, vfs_t *fs, const char *key, const char *path)
{
    if (!key || !key[0])
        return NULL;
    return find_or_load(c, fs, key, path);
}

const snd_sfx_t *snd_cache_get_sexed(snd_cache_t *c, vfs_t *fs, const char *model, const char *file)
{
    if (!fs || !file[0] || strstr(model, "..") || strstr(file, ".."))
        return NULL;
    char key[WORLD_NAME_LEN * 2 + 4];
    snprintf(key, sizeof(key), "*%s/%s", model, file);
    snd_sfx_t *memo = (snd_sfx_t *)find_or_load(c, fs, key, NULL);
    if (!memo)
        return NULL;
    if (memo->alias > 0)
        return &c->sfx[memo->alias - 1];
    if (memo->alias < 0)
        return NULL;
    // first use for this model: the first file that exists, found without warnings
    static const char *const where[3] = { "players/%s/%s", "sound/player/%s/%s", "players/%s/%s" };
    const char *folder[3] = { model, "male", "male" };
    char path[WORLD_NAME_LEN * 2 + 32];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), where[i], folder[i], file);
        if (!vfs_exists(fs, path))
            continue;
        char file_key[sizeof(path) + 1];
        snprintf(file_key, sizeof(file_key), "#%s", path);
        int memo_index = (int)(memo - c->sfx);
        const snd_sfx_t *f = find_or_load(c, fs, file_key, path);
        memo = &c->sfx[memo_index];
        if (f && f->buffer) {
            memo->alias = (int)(f - c->sfx) + 1;
            return f;
        }
        break;
    }
    memo->alias = -1;
    return NULL;
}
