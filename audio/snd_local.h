// snd_local.h -- private to audio/: the sound cache (precache name -> OpenAL buffer)
#ifndef SND_LOCAL_H
#define SND_LOCAL_H

#include <AL/al.h>

#include "../assets/hlmat.h"
#include "../engine/hlbullet.h"
#include "../engine/hltent.h"
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
    int alias;                  // entry + 1 whose buffer this name shares; -1 = known missing
} snd_sfx_t;

typedef struct {
    snd_sfx_t sfx[SND_CACHE_MAX];
    int count;
    int16_t hash[SND_CACHE_MAX * 2];   // entry + 1, 0 = empty (open addressing)
    int loop_points;                   // AL_SOFT_loop_points present
    int missing;                       // files not found since the last snd_cache_report
    char first_missing[WORLD_NAME_LEN + 32];
} snd_cache_t;

void snd_cache_init(snd_cache_t *c, int loop_points);
// The entry for a precache name, loading it on first use ("sound/" + name through
// the VFS, as the game would). A name that cannot be loaded gets a silent entry
// (buffer 0), counted for snd_cache_report. NULL when the name is empty or the cache is full.
const snd_sfx_t *snd_cache_get(snd_cache_t *c, vfs_t *fs, world_game_t game, const char *name);
// The same for an explicit file: `key` names the entry, `path` is the file to load.
const snd_sfx_t *snd_cache_get_path(snd_cache_t *c, vfs_t *fs, const char *key, const char *path);
// A Quake II player sound "*file" for a model: players/MODEL/file, else the male
// set (sound/player/male/file, players/male/file), as the Quake II client falls back.
const snd_sfx_t *snd_cache_get_sexed(snd_cache_t *c, vfs_t *fs, const char *model, const char *file);
// One line for the files found missing since the last report (a mod's demo can name
// two hundred sounds the folders lack); then the count starts again.
void snd_cache_report(snd_cache_t *c);
// Delete every buffer. No source may still have one attached.
void snd_cache_clear(snd_cache_t *c);

// The file a precache name refers to, per game. 0 when the name is not a file
// (a GoldSrc sentence "!NAME"), 1 otherwise.
int snd_sound_path(world_game_t game, const char *name, char *out, size_t cap);

// ---- sounds the clients play themselves (snd_client.c) ----

typedef struct {
    const char *name;       // precache-style name ("weapons/r_exp3.wav"; Quake II "*fall1.wav")
    int entity, channel;
    float volume, attenuation;
    float delay;            // seconds after this frame
    float pitch;            // 1 = the sample's own rate (0 is taken as 1)
    vec3_t origin;
    uint8_t has_origin;     // else at (and following) the entity
    uint8_t local;          // the listener's own: centred, not attenuated
} snd_req_t;

// Sounds a game's client starts for event number `index` of the frame (temp
// entities, Quake II muzzle flashes, chat). Returns how many were written (<= max).
int snd_client_event(const world_t *w, const world_event_t *ev, int index, snd_req_t *out, int max);
// GoldSrc: the sound the engine's client plays when a temp model hits the world (its
// CL_TempEntPlaySound), or none (0) by the rules of its type and chance.
int snd_client_hl_bounce(const hltent_bounce_t *b, snd_req_t *out, int max);
// GoldSrc: the sounds a client event's bullet makes where it hits (EV_HLDM_PlayTextureSound's
// sound of the texture's material from `mat`, and the ricochet of EV_HLDM_GunshotDecalTrace one
// time in two), by the rules of `kind` (HLBULLET_SOUND_*); the random draws from `seed`.
int snd_client_hl_bullet(const hlbullet_t *b, int kind, const hlmat_t *mat, uint32_t seed, snd_req_t *out, int max);
// The zoomed crossbow's bolt striking the world at pos (EV_FireCrossbow2: weapons/xbow_hit1.wav), or,
// body set, a player there (xbow_hitbod1/2 on the shooter's entity `shooter`).
int snd_client_hl_crossbow(const float pos[3], int body, int shooter, uint32_t seed, snd_req_t *out, int max);
// GoldSrc: a view model's animation sound (studio event 5004, its options the sound's name) at pos.
int snd_client_hl_view_sound(const char *name, const float pos[3], snd_req_t *out, int max);
// Quake II entity events (entity_state.event: footsteps, falls, teleports) of entity e.
int snd_client_entity_event(const world_t *w, int e, snd_req_t *out, int max);
// The names those may use, to load with the level. NULL-terminated.
const char *const *snd_client_preload(world_game_t game);

// ---- Quake's automatic ambient sounds (snd_ambient.c) ----

typedef struct {
    int loaded;
    int num_planes, num_nodes, num_leafs;
    int32_t headnode;
    float (*planes)[4];      // normal, dist
    int32_t (*nodes)[3];     // plane, front child, back child (negative: leaf -1 - child)
    uint8_t (*levels)[4];    // per leaf: water, sky, slime, lava (0..255)
} snd_ambient_t;

// Read the leaf tree of a BSP29 / BSP2 map. 0, or -1 with "offset N: expected ...".
int snd_ambient_load(snd_ambient_t *a, const uint8_t *bsp, size_t size, char *err, size_t cap);
void snd_ambient_free(snd_ambient_t *a);
// The ambient levels of the leaf holding point p, or NULL.
const uint8_t *snd_ambient_levels(const snd_ambient_t *a, const float *p);

// ---- GoldSrc sentences (snd_sentence.c) ----------------------------------------

#define SND_SENTENCE_MAX 4096    // sentences read from one sentences.txt
#define SND_SENTENCE_WORDS 32    // words of one sentence

typedef struct {
    char file[64];               // under sound/: "hgrunt/squad.wav"
    int16_t pitch;               // percent; -1: the sound's own
    int16_t volume, start, end;  // percent (start and end of the sample)
    int16_t time_compress;       // percent (read, not applied)
} snd_word_t;

typedef struct {
    int count;                   // sentences
    int32_t *first;              // count + 1: sentence i's words are words[first[i] .. first[i + 1])
    snd_word_t *words;
    int nwords;
} snd_sentences_t;

// Read a sentences.txt; 0, or -1 out of memory (the table keeps what was read).
int snd_sentences_load(snd_sentences_t *t, const char *text, size_t size);
// Sentence `index`'s words: how many (0 for a sentence without words), -1 when there is no such sentence.
int snd_sentence_words(const snd_sentences_t *t, int index, const snd_word_t **words);
void snd_sentences_free(snd_sentences_t *t);

#endif
