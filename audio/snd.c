// snd.c -- sound system: the world's sound events through OpenAL Soft, on a device or a loopback
#include "snd.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/bsp.h"
#include "../assets/studio.h"
#include "../engine/angles.h"
#include "../engine/log.h"
#include "snd_local.h"

// A fixed pool of sources, created once. Quake mixed 8 dynamic channels plus its
// static ones; 128 leaves room for the busier games. Static and entity loops may
// take all but SND_DYNAMIC_RESERVE, so effects are never starved by ambience.
#define SND_VOICES          128
#define SND_DYNAMIC_RESERVE 32
#define SND_RENDER_CHUNK    1024   // frames per alcRenderSamplesSOFT call, on a grid of the playback timeline
#define SND_STEP_RATES      8      // sample rates whose OpenAL step is measured at creation

// Quake's distance attenuation (snd_dma.c): gain = 1 - dist * attenuation / 1000,
// floored at 0. Quake II starts it 80 units out and halves it for all but static
// sounds. OpenAL's clamped linear model gives exactly this line when max distance
// is far beyond where the gain reaches 0 and the rolloff is scaled to match.
#define SND_NOMINAL_CLIP    1000.0f
#define SND_FAR             65536.0f
#define SND_Q2_PLACED_GAIN  0.6f

enum { V_FREE = 0, V_DYNAMIC, V_STATIC, V_LOOP, V_AMBIENT, V_RULE };   // V_RULE: snd_loops' (a game's rules)

typedef struct {
    ALuint src;
    int kind;           // V_*
    int entity, channel;
    int sound;          // index into the world's sounds[] (V_LOOP: what it plays)
    uint32_t serial;    // start order: the oldest is stolen first
    uint32_t seen;      // V_LOOP: world seq when its entity last carried the sound; V_RULE: the snd_loops call
    uint32_t key;       // V_RULE: the caller's id
    double t0;          // a lasting loop's start in world time (0: the level's clock; snd_loops: its `start`)
    uint8_t follow;     // position follows the entity (Quake II sounds without origin)
    uint8_t phase_due;  // loopback: a loop on the level clock waiting to start (start_due_loops)
    long long due_at;   // the sample it starts at, -1 until the first render after it was started
    double due_pos;     // its position there, source frames
    const snd_sfx_t *sfx;
} voice_t;

// A sound to start now or, delayed (Quake II time offsets, reload clicks), at `due`.
typedef struct {
    const snd_sfx_t *sfx;
    int entity, channel;
    float volume, attenuation, pitch;
    vec3_t origin;
    uint8_t has_origin;
    uint8_t local;
    float offset;       // seconds into the sample to start at (a sentence's word: its start %)
    double due;         // world time
} play_t;

#define SND_PENDING 64
#define SND_BOUNCES 64      // GoldSrc temp model hits heard in one frame (more are dropped)
#define SND_VIEW_MODELS 8   // GoldSrc view models kept read for their animation events
#define SND_CLIENT_REQS 4

struct snd_s {
    ALCdevice *dev;
    ALCcontext *ctx;
    int loopback;
    int float_out;      // loopback renders float and rounds itself: OpenAL dithers 16-bit output
    LPALCRENDERSAMPLESSOFT render;
    float *scratch;     // SND_RENDER_CHUNK stereo float frames
    float volume;
    int snd_vol;        // Quake's snd_vol: (int)(volume * 256), the integer scale of the final mix
    int resampler;      // AL_SOURCE_RESAMPLER_SOFT index, -1 = the library's
    int nvoices;

    // The clock loops run on (see phase_voice): output samples at `rate`
    int rate;
    long long head;         // loopback: the sample of the playback timeline the next snd_render starts at
    double clock_offset;    // playback time - world time (snd_set_clock; 0 until told)
    int phase_due;          // some voice waits for its position
    LPALGETSOURCEDSOFT get_sourced;
    struct { int rate; long long adv; } steps[SND_STEP_RATES];   // measured source advance per output sample
    int nsteps;

    vfs_t *fs;          // from the last snd_load_level, for sounds named later
    world_game_t game;
    uint32_t level_seq;
    uint32_t sounds_seq;  // world->sounds_seq the names were resolved for
    int have_level;
    uint32_t last_seq;  // world seq whose events were played
    int have_seq;
    int statics_started;
    uint32_t serial;
    uint32_t loops_mark;   // snd_loops calls
    int mirror;            // the level's world is left-handed (to_al)

    voice_t voices[SND_VOICES];
    play_t pending[SND_PENDING];
    int npending;

    // Quake's automatic ambients (water, sky) from the leaf under the listener
    snd_ambient_t amb;
    const snd_sfx_t *amb_sfx[2];
    float amb_vol[2];   // 0..255, Quake's master_vol
    int amb_voice[2];   // voice index or -1
    double amb_time;
    int have_amb_time;
    int amb_join;       // the levels were just set where they settle: again if the listener moves first
    vec3_t listener;    // Quake coordinates
    int own_set, own_entity;   // snd_listener_entity: whose sounds are the listener's own (own_set 0: the view's)
    // GoldSrc's sentences.txt, read from `fs` on the first sentence (sentences_fs: the fs it was read from)
    snd_sentences_t sentences;
    const vfs_t *sentences_fs;
    int sentences_missing;   // warned: no sentences.txt there
    // GoldSrc's temp models (engine/hltent.c) on the level's own tree, for their bounce sounds
    bsp_t *hl_bsp;
    hltent_t *hltent;
    hltent_bounce_t bounces[SND_BOUNCES];
    // GoldSrc's bullets (engine/hlbullet.c) on the same tree, for their impact sounds and ricochets;
    // sound/materials.txt read from `fs` on the first bullet (mat_fs: the fs it was read from)
    hlbullet_t bullets[HLBULLET_MAX];
    uint32_t bullets_applied;          // world->decal_log entries looked at
    hlmat_t mat[2];                    // HLMAT_HL, HLMAT_CS
    const vfs_t *mat_fs;
    // GoldSrc's view models, read for their animation events (the reloads' sounds), by model index
    // of the level (index 0: a free slot); the view model's animation as last heard
    struct {
        int index, ok;
        studio_t m;
    } vmodels[SND_VIEW_MODELS];
    int next_vmodel;
    int vm_valid, vm_index, vm_seq;
    double vm_start;
    float vm_frame;
    int16_t idx_slot[WORLD_MAX_SOUNDS];               // cache entry + 1 for sounds[i]; 0 = unresolved
    char idx_name[WORLD_MAX_SOUNDS][WORLD_NAME_LEN];  // the name it was resolved for
    snd_cache_t cache;
};

static void free_view_models(snd_t *s);

// ---- set-up ------------------------------------------------------------------

static void make_current(const snd_t *s)
{
    if (alcGetCurrentContext() != s->ctx)
        alcMakeContextCurrent(s->ctx);
}

static int pick_resampler(void)
{
    if (!alIsExtensionPresent("AL_SOFT_source_resampler"))
        return -1;
    LPALGETSTRINGISOFT get_stringi = (LPALGETSTRINGISOFT)alGetProcAddress("alGetStringiSOFT");
    if (!get_stringi)
        return -1;
    // A fixed resampler, named, so a user's alsoft.conf default cannot change the
    // export; cubic is the best that is cheap enough for a hundred voices.
    ALint n = alGetInteger(AL_NUM_RESAMPLERS_SOFT), linear = -1;
    for (ALint i = 0; i < n; i++) {
        const ALchar *name = get_stringi(AL_RESAMPLER_NAME_SOFT, i);
        if (name && strstr(name, "Cubic"))
            return i;
        if (name && strstr(name, "Linear"))
            linear = i;
    }
    return linear;
}

// How far OpenAL moves through a buffer of each common rate per output sample,
// in 1/65536 source frames, read back from the mixer itself: the loops' positions
// (phase_voice) must be the ones a voice playing since the level began would have
// reached, to the mixer's own fixed-point step. Loopback only (it renders here,
// before any sound of the export); other rates and live devices use the ideal ratio.
static void measure_steps(snd_t *s)
{
    static const int rates[SND_STEP_RATES] = { 8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000 };
    enum { PROBE = 1024 };
    if (!s->loopback || !s->get_sourced || s->nvoices < 1)
        return;
    int16_t *silence = calloc(4 * PROBE, sizeof(int16_t));
    void *out = malloc(sizeof(float) * 2 * PROBE);
    ALuint buf = 0, src = s->voices[0].src;
    alGetError();
    alGenBuffers(1, &buf);
    if (silence && out && alGetError() == AL_NO_ERROR) {
        for (int i = 0; i < SND_STEP_RATES; i++) {
            if (rates[i] > s->rate * 4)
                continue;
            alBufferData(buf, AL_FORMAT_MONO16, silence, 4 * PROBE * sizeof(int16_t), rates[i]);
            alSourcei(src, AL_BUFFER, (ALint)buf);
            alSourcei(src, AL_LOOPING, AL_FALSE);
            alSourcePlay(src);
            s->render(s->dev, out, PROBE);
            ALdouble pos = -1.0;
            s->get_sourced(src, AL_SAMPLE_OFFSET, &pos);
            alSourceStop(src);
            alSourcei(src, AL_BUFFER, 0);
            if (alGetError() == AL_NO_ERROR && pos > 0.0) {
                s->steps[s->nsteps].rate = rates[i];
                s->steps[s->nsteps].adv = llround(pos * 65536.0 / PROBE);
                s->nsteps++;
            }
        }
        alDeleteBuffers(1, &buf);
    }
    alGetError();
    free(silence);
    free(out);
}

static snd_t *finish_create(snd_t *s)
{
    make_current(s);
    alGetError();
    alDistanceModel(AL_LINEAR_DISTANCE_CLAMPED);
    alDopplerFactor(0.0f);   // the games had no Doppler; velocities stay 0 anyway
    // Quake scales the summed mix by snd_vol = volume * 256 (an int) as it clips it
    // to 16 bits. The float loopback does the same in snd_render, exactly; a sound
    // card (and a 16-bit-only loopback) gets it as the listener's gain.
    s->snd_vol = (int)(s->volume * 256.0f);
    alListenerf(AL_GAIN, s->float_out ? 1.0f : (float)s->snd_vol / 256.0f);
    s->resampler = pick_resampler();
    snd_cache_init(&s->cache, alIsExtensionPresent("AL_SOFT_loop_points"));
    s->amb_voice[0] = s->amb_voice[1] = -1;
    for (int i = 0; i < SND_VOICES; i++) {
        ALuint src = 0;
        alGenSources(1, &src);
        if (alGetError() != AL_NO_ERROR)
            break;
        if (s->resampler >= 0)
            alSourcei(src, AL_SOURCE_RESAMPLER_SOFT, s->resampler);
        alSourcef(src, AL_MAX_DISTANCE, SND_FAR);
        alGetError();
        s->voices[s->nvoices++].src = src;
    }
    if (s->nvoices < 16) {
        log_warn("sound: OpenAL gave only %d sources; sound off", s->nvoices);
        snd_destroy(s);
        return NULL;
    }
    ALCint freq = 0;
    alcGetIntegerv(s->dev, ALC_FREQUENCY, 1, &freq);
    if (!s->rate)
        s->rate = freq > 0 ? freq : 44100;
    if (alIsExtensionPresent("AL_SOFT_source_latency")) {
        s->get_sourced = (LPALGETSOURCEDSOFT)alGetProcAddress("alGetSourcedSOFT");
    }
    measure_steps(s);
    return s;
}

static float clamp_volume(float v)
{
    if (!(v >= 0.0f))
        return 0.0f;
    return v > 4.0f ? 4.0f : v;
}

snd_t *snd_create(float volume)
{
    ALCdevice *dev = alcOpenDevice(NULL);
    if (!dev) {
        log_warn("sound: no audio device; playing without sound");
        return NULL;
    }
    ALCcontext *ctx = alcCreateContext(dev, NULL);
    if (!ctx) {
        log_warn("sound: the audio device refused a context; playing without sound");
        alcCloseDevice(dev);
        return NULL;
    }
    snd_t *s = calloc(1, sizeof(*s));
    if (!s) {
        alcDestroyContext(ctx);
        alcCloseDevice(dev);
        return NULL;
    }
    s->dev = dev;
    s->ctx = ctx;
    s->volume = clamp_volume(volume);
    return finish_create(s);
}

snd_t *snd_create_loopback(int rate, float volume)
{
    if (rate < 8000 || rate > 192000) {
        log_error("sound: loopback rate %d Hz out of range 8000..192000", rate);
        return NULL;
    }
    if (!alcIsExtensionPresent(NULL, "ALC_SOFT_loopback")) {
        log_error("sound: OpenAL has no ALC_SOFT_loopback; cannot render a sound track");
        return NULL;
    }
    LPALCLOOPBACKOPENDEVICESOFT open_loopback =
        (LPALCLOOPBACKOPENDEVICESOFT)alcGetProcAddress(NULL, "alcLoopbackOpenDeviceSOFT");
    LPALCISRENDERFORMATSUPPORTEDSOFT supported =
        (LPALCISRENDERFORMATSUPPORTEDSOFT)alcGetProcAddress(NULL, "alcIsRenderFormatSupportedSOFT");
    LPALCRENDERSAMPLESSOFT render = (LPALCRENDERSAMPLESSOFT)alcGetProcAddress(NULL, "alcRenderSamplesSOFT");
    if (!open_loopback || !supported || !render) {
        log_error("sound: OpenAL lacks the loopback functions");
        return NULL;
    }
    ALCdevice *dev = open_loopback(NULL);
    if (!dev) {
        log_error("sound: cannot open an OpenAL loopback device");
        return NULL;
    }
    // Float when offered: OpenAL Soft dithers 16-bit output with a running noise
    // generator, so the same events would not give the same bytes twice.
    int float_out = supported(dev, rate, ALC_STEREO_SOFT, ALC_FLOAT_SOFT) == ALC_TRUE;
    if (!float_out && supported(dev, rate, ALC_STEREO_SOFT, ALC_SHORT_SOFT) != ALC_TRUE) {
        log_error("sound: the loopback device cannot render 16-bit stereo at %d Hz", rate);
        alcCloseDevice(dev);
        return NULL;
    }
    ALCint attrs[] = {
        ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT,
        ALC_FORMAT_TYPE_SOFT, float_out ? ALC_FLOAT_SOFT : ALC_SHORT_SOFT,
        ALC_FREQUENCY, rate,
        ALC_HRTF_SOFT, ALC_FALSE,              // plain stereo panning, no head model
        ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE,    // hard clipping, as the games did
        0
    };
    ALCcontext *ctx = alcCreateContext(dev, attrs);
    if (!ctx) {
        log_error("sound: the loopback device refused %d Hz stereo", rate);
        alcCloseDevice(dev);
        return NULL;
    }
    snd_t *s = calloc(1, sizeof(*s));
    float *scratch = float_out ? malloc(sizeof(float) * 2 * SND_RENDER_CHUNK) : NULL;
    if (!s || (float_out && !scratch)) {
        free(s);
        free(scratch);
        alcDestroyContext(ctx);
        alcCloseDevice(dev);
        return NULL;
    }
    s->dev = dev;
    s->ctx = ctx;
    s->loopback = 1;
    s->float_out = float_out;
    s->rate = rate;
    s->render = render;
    s->scratch = scratch;
    s->volume = clamp_volume(volume);
    return finish_create(s);
}

void snd_destroy(snd_t *s)
{
    if (!s)
        return;
    make_current(s);
    for (int i = 0; i < s->nvoices; i++) {
        alSourceStop(s->voices[i].src);
        alSourcei(s->voices[i].src, AL_BUFFER, 0);
        alDeleteSources(1, &s->voices[i].src);
    }
    snd_cache_clear(&s->cache);
    snd_ambient_free(&s->amb);
    snd_sentences_free(&s->sentences);
    hltent_free(s->hltent);
    bsp_free(s->hl_bsp);
    free_view_models(s);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(s->ctx);
    alcCloseDevice(s->dev);
    free(s->scratch);
    free(s);
}

// ---- voices ------------------------------------------------------------------

// Quake's axes (x forward, y left, z up) to OpenAL's (x right, y up, -z forward
// by default): a rotation, so handedness and left/right survive.
// A world point or direction in OpenAL's right-handed space (x right, y up, z back): Quake's x
// forward, y left, z up as a rotation; a left-handed world (world_left_handed: Forsaken) mirrored
// first (its x negated), so that what lies to the listener's right is heard on the right.
static void to_al(const snd_t *s, const float *q, ALfloat *a)
{
    a[0] = s->mirror ? -q[0] : q[0];
    a[1] = q[2];
    a[2] = -q[1];
}

static void stop_voice(voice_t *v)
{
    alSourceStop(v->src);
    alSourcei(v->src, AL_BUFFER, 0);
    v->kind = V_FREE;
    v->follow = 0;
    v->phase_due = 0;
    v->sfx = NULL;
    v->key = 0;
    v->t0 = 0.0;
}

static int voice_playing(const voice_t *v)
{
    ALint state = AL_STOPPED;
    alGetSourcei(v->src, AL_SOURCE_STATE, &state);
    return state == AL_PLAYING;
}

static void stop_all_voices(snd_t *s)
{
    for (int i = 0; i < s->nvoices; i++)
        stop_voice(&s->voices[i]);
    s->statics_started = 0;
    s->npending = 0;
    s->amb_vol[0] = s->amb_vol[1] = 0.0f;
    s->amb_voice[0] = s->amb_voice[1] = -1;
    s->have_amb_time = 0;
}

static int count_kind_lasting(const snd_t *s)
{
    int n = 0;
    for (int i = 0; i < s->nvoices; i++)
        n += s->voices[i].kind == V_STATIC || s->voices[i].kind == V_LOOP || s->voices[i].kind == V_AMBIENT ||
             s->voices[i].kind == V_RULE;
    return n;
}

// A voice for a new sound. Dynamic sounds: the same entity and channel first (a
// new sound replaces the old one; channel 0 never does), then a free voice, then
// the oldest dynamic one. Lasting sounds (static, entity loops) take only free
// voices and leave SND_DYNAMIC_RESERVE for effects.
static voice_t *pick_voice(snd_t *s, int kind, int entity, int channel)
{
    if (kind == V_DYNAMIC && channel != 0) {
        for (int i = 0; i < s->nvoices; i++) {
            voice_t *v = &s->voices[i];
            if (v->kind == V_DYNAMIC && v->entity == entity && v->channel == channel) {
                stop_voice(v);
                return v;
            }
        }
    }
    voice_t *oldest = NULL;
    for (int i = 0; i < s->nvoices; i++) {
        voice_t *v = &s->voices[i];
        if (v->kind == V_DYNAMIC && !voice_playing(v))
            stop_voice(v);   // finished
        if (v->kind == V_FREE) {
            if (kind != V_DYNAMIC && count_kind_lasting(s) >= s->nvoices - SND_DYNAMIC_RESERVE)
                return NULL;
            return v;
        }
        if (v->kind == V_DYNAMIC && (!oldest || (int32_t)(v->serial - oldest->serial) < 0))
            oldest = v;
    }
    if (kind != V_DYNAMIC || !oldest)
        return NULL;
    stop_voice(oldest);
    return oldest;
}

static void flush_cache(snd_t *s)
{
    stop_all_voices(s);
    snd_cache_clear(&s->cache);
    memset(s->idx_slot, 0, sizeof(s->idx_slot));
    s->amb_sfx[0] = s->amb_sfx[1] = NULL;
}

static const snd_sfx_t *resolve(snd_t *s, const world_t *w, int index)
{
    if (index <= 0 || index >= w->num_sounds || index >= WORLD_MAX_SOUNDS)
        return NULL;
    const char *name = w->sounds[index];
    int slot = s->idx_slot[index];
    if (!slot || strcmp(s->idx_name[index], name)) {
        if (!s->fs)
            return NULL;   // nothing to load from yet
        const snd_sfx_t *e = snd_cache_get(&s->cache, s->fs, s->game, name);
        if (!e && name[0]) {
            flush_cache(s);   // full of other levels' sounds: start it again
            e = snd_cache_get(&s->cache, s->fs, s->game, name);
        }
        if (!e)
            return NULL;
        slot = (int)(e - s->cache.sfx) + 1;
        s->idx_slot[index] = (int16_t)slot;
        snprintf(s->idx_name[index], WORLD_NAME_LEN, "%s", name);
    }
    const snd_sfx_t *e = &s->cache.sfx[slot - 1];
    return e->buffer ? e : NULL;
}

// The entity whose sounds are the listener's own: the one snd_listener_entity named, else the view's.
static int view_entity(const snd_t *s, const world_t *w)
{
    if (s->own_set)
        return s->own_entity;
    if (w->view.entity > 0)
        return w->view.entity;
    return w->game == GAME_QUAKE2 ? w->playernum + 1 : -1;
}

static const float *entity_origin(const world_t *w, int entity)
{
    if (entity <= 0 || entity >= w->num_entities)
        return NULL;
    return w->entities[entity].cur.origin;
}

// Distance attenuation for one source; attenuation in Quake units (0 none .. 3 static).
static void set_attenuation(const snd_t *s, ALuint src, float attenuation)
{
    if (!(attenuation > 0.0f))
        attenuation = 0.0f;
    float ref = 0.0f, per_1000 = attenuation;
    if (s->game == GAME_QUAKE2) {
        ref = 80.0f;   // Quake II's SOUND_FULLVOLUME
        if (attenuation < 3.0f)
            per_1000 = attenuation * 0.5f;
    }
    alSourcef(src, AL_REFERENCE_DISTANCE, ref);
    alSourcef(src, AL_MAX_DISTANCE, ref + SND_FAR);
    alSourcef(src, AL_ROLLOFF_FACTOR, per_1000 * SND_FAR / SND_NOMINAL_CLIP);
}

static void set_position(const snd_t *s, voice_t *v, const float *origin)
{
    ALfloat p[3];
    to_al(s, origin, p);
    alSourcefv(v->src, AL_POSITION, p);
}

static void start_voice(snd_t *s, voice_t *v, const snd_sfx_t *sfx, const float *origin, int relative,
                        float volume, float attenuation, float pitch, int loop)
{
    ALuint src = v->src;
    alSourcei(src, AL_BUFFER, (ALint)sfx->buffer);
    alSourcei(src, AL_LOOPING, loop ? AL_TRUE : AL_FALSE);
    if (!(volume >= 0.0f))
        volume = 0.0f;
    if (volume > 1.0f)
        volume = 1.0f;
    // Quake II pans with half of Quake's gain (0.5 x (1 +- dot)) but plays the
    // player's own and unattenuated sounds at full gain: its placed sounds are
    // quieter than the rest by about this much against OpenAL's panning.
    if (s->game == GAME_QUAKE2 && !relative && origin)
        volume *= SND_Q2_PLACED_GAIN;
    alSourcef(src, AL_GAIN, volume);
    if (!(pitch > 0.0f))
        pitch = 1.0f;
    alSourcef(src, AL_PITCH, pitch < 0.05f ? 0.05f : pitch > 8.0f ? 8.0f : pitch);
    if (relative || !origin) {
        // the listener's own sounds: centred and never attenuated, as Quake mixes them
        static const ALfloat zero[3] = { 0, 0, 0 };
        alSourcei(src, AL_SOURCE_RELATIVE, AL_TRUE);
        alSourcefv(src, AL_POSITION, zero);
        set_attenuation(s, src, 0.0f);
    } else {
        alSourcei(src, AL_SOURCE_RELATIVE, AL_FALSE);
        set_position(s, v, origin);
        set_attenuation(s, src, attenuation);
    }
    alSourcePlay(src);
    v->serial = ++s->serial;
    v->sfx = sfx;
    v->phase_due = 0;
}

// ---- loops on the level clock ----------------------------------------------------
//
// A looping sound that lasts (static sounds, Quake II entity loops, Quake's
// ambients) plays at the position it would have reached had it started when the
// level's clock read 0 and never stopped: a function of the demo time alone, so
// the same moment sounds the same whether playback came to it from the start,
// by a seek, or an export began a few seconds before it. Quake II's client did the same
// for its entity loops (the mixer's sample count modulo the sound's length);
// Quake started its static sounds when the level's sign-on arrived, which the
// level clock's 0 stands for.

static long long step_for(const snd_t *s, int rate)
{
    for (int i = 0; i < s->nsteps; i++)
        if (s->steps[i].rate == rate)
            return s->steps[i].adv;
    return llround((double)rate * 65536.0 / (double)s->rate);
}

// Where v's loop is at output sample `now` of the playback timeline, in source frames (it began at
// world time v->t0: 0, the level's clock, but for snd_loops' own starts).
static double loop_position(const snd_t *s, const voice_t *v, long long now)
{
    const snd_sfx_t *sfx = v->sfx;
    long long elapsed = now - llround((s->clock_offset + v->t0) * (double)s->rate);
    if (elapsed < 0)
        elapsed = 0;
    elapsed %= 1LL << 40;   // 260 days at 48 kHz: keeps the product below 2^63
    unsigned long long pos = (unsigned long long)elapsed * (unsigned long long)step_for(s, sfx->rate);
    long long frame = (long long)(pos >> 16);
    // the first pass plays the whole sound, then the loop: from the cue point when
    // the buffer has it (AL_SOFT_loop_points), else from the start
    long long ls = sfx->loop_start > 0 && s->cache.loop_points ? sfx->loop_start : 0;
    if (frame >= sfx->frames)
        frame = ls + (frame - ls) % (sfx->frames - ls);
    return (double)frame + (double)(pos & 0xffff) / 65536.0;
}

// A lasting loop just started on v. Live: placed at once from the world's time.
// Loopback: it waits for the first render (the render head is then exactly where
// it starts, even when the caller tells the clock only after a seek) and then for
// the first sample at which its position is exact as a float -- OpenAL Soft 1.19
// takes sample offsets as floats, and a rounded fraction would differ with the
// moment the loop was started. That is a wait of a few samples, at most 4096 (a
// position on a whole frame).
static void phase_voice(snd_t *s, voice_t *v, double world_time)
{
    if (!v->sfx || v->sfx->frames <= 0 || v->sfx->rate <= 0)
        return;
    if (!s->loopback) {
        float x = (float)loop_position(s, v, llround((world_time + s->clock_offset) * (double)s->rate));
        alSourcef(v->src, AL_SAMPLE_OFFSET, x);
        alGetError();
        return;
    }
    alSourceStop(v->src);   // nothing rendered since alSourcePlay: silent
    v->phase_due = 1;
    v->due_at = -1;
    s->phase_due = 1;
}

// Loopback, at the render head: start the waiting loops whose sample has come and
// return the next sample one waits for (or `limit`).
static long long start_due_loops(snd_t *s, long long limit)
{
    if (!s->phase_due)
        return limit;
    int waiting = 0;
    for (int i = 0; i < s->nvoices; i++) {
        voice_t *v = &s->voices[i];
        if (!v->phase_due)
            continue;
        if (v->due_at < 0) {
            long long at = s->head;
            double x = loop_position(s, v, at);
            for (int k = 0; k < 65536 && (double)(float)x != x; k++)
                x = loop_position(s, v, ++at);
            v->due_at = at;
            v->due_pos = x;
        }
        if (v->due_at <= s->head) {
            alSourcef(v->src, AL_SAMPLE_OFFSET, (float)v->due_pos);
            alSourcePlay(v->src);
            alGetError();
            v->phase_due = 0;
            continue;
        }
        waiting = 1;
        if (v->due_at < limit)
            limit = v->due_at;
    }
    s->phase_due = waiting;
    return limit;
}

static void start_play(snd_t *s, const world_t *w, const play_t *p)
{
    voice_t *v = pick_voice(s, V_DYNAMIC, p->entity, p->channel);
    if (!v)
        return;
    const float *origin = p->has_origin ? p->origin : entity_origin(w, p->entity);
    // Quake II does not place sounds without attenuation: they are everywhere, centred
    int relative = p->local || (p->entity > 0 && p->entity == view_entity(s, w)) ||
                   (s->game == GAME_QUAKE2 && !(p->attenuation > 0.0f));
    v->kind = V_DYNAMIC;
    v->entity = p->entity;
    v->channel = p->channel;
    v->sound = 0;
    v->follow = !p->has_origin && !relative && origin != NULL;
    // A sound with a cue point loops until something replaces or stops it (Quake's
    // door and platform movement sounds work this way).
    start_voice(s, v, p->sfx, origin, relative, p->volume, p->attenuation, p->pitch, p->sfx->loop_start >= 0);
    if (p->offset > 0.0f) {
        alSourceStop(v->src);   // an offset is taken when the source starts
        alSourcef(v->src, AL_SEC_OFFSET, p->offset);
        alSourcePlay(v->src);
    }
}

static void play(snd_t *s, const world_t *w, const play_t *p, float delay)
{
    if (!(delay > 0.0f)) {
        start_play(s, w, p);
        return;
    }
    if (s->npending >= SND_PENDING)
        return;   // a burst of delayed sounds: the latest ones are dropped
    play_t *q = &s->pending[s->npending++];
    *q = *p;
    q->due = w->time + delay;
}

static const snd_sfx_t *sexed_sound(snd_t *s, const world_t *w, int entity, const char *name);

// A GoldSrc sentence: its words one after another on the event's channel, each from
// its start % (the next word, on the same channel, cuts it at its end %), at the
// event's pitch moved by the word's, and its volume scaled by the word's
// (audio/snd_sentence.c has the file's rules). Time compression is not applied.
static void play_sentence(snd_t *s, const world_t *w, const world_sound_event_t *ev)
{
    if (!s->fs)
        return;
    if (s->sentences_fs != s->fs) {
        s->sentences_fs = s->fs;
        s->sentences_missing = 0;
        size_t size = 0;
        char *text = (char *)vfs_load(s->fs, "sound/sentences.txt", &size);
        snd_sentences_free(&s->sentences);
        if (!text || snd_sentences_load(&s->sentences, text, size) < 0) {
            log_warn("sound: %s: the demo speaks sentences; they are silent",
                     text ? "sound/sentences.txt: out of memory" : "no sound/sentences.txt");
            s->sentences_missing = 1;
        }
        free(text);
    }
    const snd_word_t *wd;
    int n = snd_sentence_words(&s->sentences, ev->sentence - 1, &wd);
    if (n < 0) {
        if (!s->sentences_missing)
            log_warn("sound: sentence %d is not in sound/sentences.txt (%d sentences)", ev->sentence - 1,
                     s->sentences.count);
        return;
    }
    float delay = ev->time_offset;
    for (int k = 0; k < n; k++) {
        char path[80];
        snprintf(path, sizeof(path), "sound/%s", wd[k].file);
        const snd_sfx_t *sfx = snd_cache_get_path(&s->cache, s->fs, wd[k].file, path);
        if (!sfx || !sfx->buffer || sfx->frames <= 0 || sfx->rate <= 0)
            continue;
        float pitch = ev->pitch > 0.0f ? ev->pitch : 1.0f;
        if (wd[k].pitch >= 0)
            pitch += (float)(wd[k].pitch - 100) * 0.01f;
        if (pitch < 0.05f)
            pitch = 0.05f;
        float len = (float)sfx->frames / (float)sfx->rate;
        int start = wd[k].start < 100 ? wd[k].start : 0, end = wd[k].end > start && wd[k].end <= 100 ? wd[k].end : 100;
        play_t p = { .sfx = sfx, .entity = ev->entity, .channel = ev->channel,
                     .volume = ev->volume * (float)wd[k].volume * 0.01f, .attenuation = ev->attenuation,
                     .pitch = pitch, .has_origin = ev->has_origin, .offset = len * (float)start * 0.01f };
        memcpy(p.origin, ev->origin, sizeof(p.origin));
        play(s, w, &p, delay);
        delay += len * (float)(end - start) * 0.01f / pitch;
    }
}

static void play_event(snd_t *s, const world_t *w, const world_sound_event_t *ev)
{
    if (ev->sentence) {
        play_sentence(s, w, ev);
        return;
    }
    const snd_sfx_t *sfx;
    if (ev->name) {   // a sound the game's client plays by name
        if (!s->fs || ev->name - 1 >= WORLD_TEXT_ARENA)
            return;
        sfx = snd_cache_get(&s->cache, s->fs, s->game, w->text_arena + ev->name - 1);
    } else if (s->game == GAME_QUAKE2 && ev->sound > 0 && ev->sound < w->num_sounds && w->sounds[ev->sound][0] == '*')
        sfx = s->fs ? sexed_sound(s, w, ev->entity, w->sounds[ev->sound]) : NULL;
    else
        sfx = resolve(s, w, ev->sound);
    if (!sfx)
        return;
    play_t p = { .sfx = sfx, .entity = ev->entity, .channel = ev->channel, .volume = ev->volume,
                 .attenuation = ev->attenuation, .pitch = ev->pitch, .has_origin = ev->has_origin };
    memcpy(p.origin, ev->origin, sizeof(p.origin));
    play(s, w, &p, ev->time_offset);
}

// Quake II player sounds named "*x.wav" come from the player's model folder.
static const snd_sfx_t *sexed_sound(snd_t *s, const world_t *w, int entity, const char *name)
{
    char model[WORLD_NAME_LEN] = "male";
    if (entity >= 1 && entity <= WORLD_MAX_PLAYERS) {
        const char *skin = w->players[entity - 1].skin;   // "name\\model/skin"
        const char *bs = strchr(skin, '\\');
        const char *m = bs ? bs + 1 : skin;
        size_t n = strcspn(m, "/");
        if (n > 0 && n < sizeof(model))
            snprintf(model, sizeof(model), "%.*s", (int)n, m);
    }
    return snd_cache_get_sexed(&s->cache, s->fs, model, name + 1);
}

static void play_request(snd_t *s, const world_t *w, const snd_req_t *r)
{
    if (!s->fs)
        return;
    const snd_sfx_t *sfx = r->name[0] == '*' && s->game == GAME_QUAKE2
                               ? sexed_sound(s, w, r->entity, r->name)
                               : snd_cache_get(&s->cache, s->fs, s->game, r->name);
    if (!sfx || !sfx->buffer)
        return;
    play_t p = { .sfx = sfx, .entity = r->entity, .channel = r->channel, .volume = r->volume,
                 .attenuation = r->attenuation, .pitch = r->pitch > 0.0f ? r->pitch : 1.0f,
                 .has_origin = r->has_origin, .local = r->local };
    memcpy(p.origin, r->origin, sizeof(p.origin));
    play(s, w, &p, r->delay);
}

// Delayed sounds whose time has come; after a jump back in time they are dropped.
static void run_pending(snd_t *s, const world_t *w)
{
    int keep = 0;
    for (int i = 0; i < s->npending; i++) {
        play_t *p = &s->pending[i];
        if (p->due <= w->time + 1e-6) {
            if (p->due > w->time - 1.0)
                start_play(s, w, p);
        } else if (p->due < w->time + 5.0) {
            s->pending[keep++] = *p;
        }
    }
    s->npending = keep;
}

static void stop_event(snd_t *s, const world_sound_event_t *ev)
{
    for (int i = 0; i < s->nvoices; i++) {
        voice_t *v = &s->voices[i];
        if (v->kind == V_DYNAMIC && v->entity == ev->entity && v->channel == ev->channel)
            stop_voice(v);
    }
}

// GoldSrc: the temp models that hit the world since the frame before (engine/hltent.c steps them
// from the world's log as the renderer does). The models spawned by this frame's log entries
// step too, after those before them had their last steps (a new one may take an ended one's slot).
static void play_bounces(snd_t *s, const world_t *w)
{
    if (!s->hl_bsp || !s->hltent)
        return;
    snd_req_t req[SND_CLIENT_REQS];
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            hltent_frame(s->hltent, s->hl_bsp, w);
        int n = hltent_bounces(s->hltent, s->hl_bsp, w->prev_time, w->time, s->bounces, SND_BOUNCES);
        for (int i = 0; i < n; i++) {
            int k = snd_client_hl_bounce(&s->bounces[i], req, SND_CLIENT_REQS);
            for (int j = 0; j < k; j++)
                play_request(s, w, &req[j]);
        }
    }
}

// GoldSrc: sound/materials.txt from the game folders (both clients' readings), once per fs. Without
// it every texture is concrete, as the game's client has it (PM_FindTextureType's default).
static void load_materials(snd_t *s)
{
    if (s->mat_fs == s->fs)
        return;
    s->mat_fs = s->fs;
    size_t size = 0;
    char *text = s->fs ? (char *)vfs_load(s->fs, "sound/materials.txt", &size) : NULL;
    int n = hlmat_load(&s->mat[HLMAT_HL], text, size, HLMAT_HL);
    hlmat_load(&s->mat[HLMAT_CS], text, size, HLMAT_CS);
    if (!text && s->fs)
        log_warn("sound: no sound/materials.txt in the game folders: every bullet hit sounds as concrete "
                 "(player/pl_step1, pl_step2), the game's default");
    else if (!n)
        log_warn("sound: sound/materials.txt names no texture: every bullet hit sounds as concrete");
    free(text);
}

// GoldSrc: the bullets of the client events logged in this frame (engine/hlbullet.c traces them
// as the renderer does for their decals), each sounding where it hit by its texture's material and
// one time in two a ricochet (audio/snd_client.c has the rules). Entries of earlier frames (after a
// seek, the log's older ones) are not heard.
static void play_bullets(snd_t *s, const world_t *w)
{
    uint32_t count = w->decal_log_count, from = s->bullets_applied;
    if (count < from || count - from > WORLD_MAX_DECAL_LOG)
        from = count > WORLD_MAX_DECAL_LOG ? count - WORLD_MAX_DECAL_LOG : 0;   // a new level or a seek
    s->bullets_applied = count;
    if (!s->hl_bsp)
        return;
    snd_req_t req[SND_CLIENT_REQS];
    for (uint32_t i = from; i < count; i++) {
        const world_decal_t *l = &w->decal_log[i % WORLD_MAX_DECAL_LOG];
        if (l->te != 0 || fabs(l->time - w->time) > 1e-6)
            continue;
        hlbullet_t bolt;
        vec3_t fwd;
        int hit = hltent_crossbow_hit(s->hl_bsp, w, l, &bolt, fwd);
        if (hit) {   // the zoomed crossbow's bolt, on a wall or a player
            int k = snd_client_hl_crossbow(bolt.endpos, hit == HLTENT_BOLT_BODY, l->entity, l->seed, req,
                                           SND_CLIENT_REQS);
            for (int j = 0; j < k; j++)
                play_request(s, w, &req[j]);
            continue;
        }
        int kind = HLBULLET_SOUND_HL, power, walls;
        float reach;
        if (hlbullet_cs_penetration(l->script, &power, &reach, &walls))
            load_materials(s);   // Counter-Strike's bullets: the walls' materials cut their power
        int n = hlbullet_fire(s->hl_bsp, w, l, s->mat_fs == s->fs ? &s->mat[HLMAT_CS] : NULL, s->bullets,
                              HLBULLET_MAX, &kind);
        if (n > 0)
            load_materials(s);
        for (int b = 0; b < n; b++) {
            const hlmat_t *mat = &s->mat[kind == HLBULLET_SOUND_CS ? HLMAT_CS : HLMAT_HL];
            int k = snd_client_hl_bullet(&s->bullets[b], kind, mat, world_hash32(l->seed ^ (uint32_t)b * 0x85ebca6bU),
                                         req, SND_CLIENT_REQS);
            for (int j = 0; j < k; j++)
                play_request(s, w, &req[j]);
        }
    }
}

// GoldSrc: view model `index` of the level, read once for its events (NULL: none, or not a studio
// model the game folders have; the renderer says what is wrong with it).
static const studio_t *view_model(snd_t *s, const world_t *w, int index)
{
    if (index <= 0 || index >= w->num_models || !s->fs)
        return NULL;
    for (int i = 0; i < SND_VIEW_MODELS; i++)
        if (s->vmodels[i].index == index)
            return s->vmodels[i].ok ? &s->vmodels[i].m : NULL;
    int slot = s->next_vmodel;
    s->next_vmodel = (slot + 1) % SND_VIEW_MODELS;
    if (s->vmodels[slot].ok)
        studio_free(&s->vmodels[slot].m);
    s->vmodels[slot].index = index;
    s->vmodels[slot].ok = 0;
    const char *name = w->models[index];
    size_t len = strlen(name), size = 0;
    if (len < 4 || strcmp(name + len - 4, ".mdl"))
        return NULL;
    uint8_t *data = vfs_load(s->fs, name, &size);
    char err[200];
    if (data && studio_load(&s->vmodels[slot].m, data, size, name, NULL, NULL, err, sizeof(err)) == 0)
        s->vmodels[slot].ok = 1;
    free(data);
    return s->vmodels[slot].ok ? &s->vmodels[slot].m : NULL;
}

static void free_view_models(snd_t *s)
{
    for (int i = 0; i < SND_VIEW_MODELS; i++) {
        if (s->vmodels[i].ok)
            studio_free(&s->vmodels[i].m);
        s->vmodels[i].ok = s->vmodels[i].index = 0;
    }
    s->vm_valid = 0;
}

// GoldSrc: the sounds of the view model's animation (studio event 5004: the reloads' clip sounds),
// as the engine's StudioClientEvents gives them to the client while it draws the view model: the
// events whose frame the animation passed since the frame before, from below frame 0 in the frame
// its animation began. Nothing while the player is dead or at an intermission (no view model is
// drawn); after a seek or a change of view the events from the next frame on.
static void play_view_events(snd_t *s, const world_t *w)
{
    const world_view_t *vw = &w->view;
    int index = vw->stats[STAT_WEAPON], seq = vw->stats[STAT_WEAPONFRAME];
    const studio_t *m = vw->stats[STAT_HEALTH] > 0 && !vw->intermission ? view_model(s, w, index) : NULL;
    if (!m || seq < 0 || seq >= m->numseq) {
        s->vm_valid = 0;
        return;
    }
    float to = studio_frame(m, seq, 0, w->time - vw->weaponanim_time, 1.0f), from = to;
    if (vw->weaponanim_time > w->prev_time)
        from = -0.01f;   // begun in this frame
    else if (s->vm_valid && s->vm_index == index && s->vm_seq == seq && s->vm_start == vw->weaponanim_time)
        from = s->vm_frame;
    s->vm_valid = 1;
    s->vm_index = index;
    s->vm_seq = seq;
    s->vm_start = vw->weaponanim_time;
    s->vm_frame = to;
    const studio_event_t *ev[16];
    int n = 0;
    if (to >= from) {
        n = studio_events_between(m, seq, from, to, ev, 16);
    } else {   // a looping sequence went round
        n = studio_events_between(m, seq, from, (float)m->seqs[seq].numframes, ev, 16);
        n += studio_events_between(m, seq, -0.01f, to, ev + n, 16 - n);
    }
    snd_req_t req[1];
    for (int i = 0; i < n; i++)
        if (ev[i]->event == 5004 && snd_client_hl_view_sound(ev[i]->options, vw->origin, req, 1) == 1)
            play_request(s, w, &req[0]);
}

// Static sounds of the level (Quake's spawnstaticsound): started once per level
// or seek, as they are added. Quake plays only sounds with a loop point there.
static void start_statics(snd_t *s, const world_t *w)
{
    for (; s->statics_started < w->num_static_sounds; s->statics_started++) {
        const world_static_sound_t *ss = &w->static_sounds[s->statics_started];
        const snd_sfx_t *sfx = resolve(s, w, ss->sound);
        if (!sfx || (sfx->loop_start < 0 && s->game == GAME_QUAKE))
            continue;
        voice_t *v = pick_voice(s, V_STATIC, 0, 0);
        if (!v)
            continue;
        v->kind = V_STATIC;
        v->entity = 0;
        v->channel = 0;
        v->sound = ss->sound;
        start_voice(s, v, sfx, ss->origin, 0, ss->volume, ss->attenuation, 1.0f, sfx->loop_start >= 0);
        if (sfx->loop_start >= 0)
            phase_voice(s, v, w->time);
    }
}

// Quake II entity loops (entity_state.sound): one voice per entity carrying a
// sound this frame, at the entity, static attenuation; gone with the entity.
static void update_loops(snd_t *s, const world_t *w)
{
    for (int e = 1; e < w->num_entities; e++) {
        const world_entity_t *ent = &w->entities[e];
        if (ent->seq != w->seq || ent->cur.sound <= 0)
            continue;
        voice_t *v = NULL;
        for (int i = 0; i < s->nvoices; i++)
            if (s->voices[i].kind == V_LOOP && s->voices[i].entity == e) {
                v = &s->voices[i];
                break;
            }
        if (v && v->sound != ent->cur.sound) {
            stop_voice(v);
            v = NULL;
        }
        if (v) {
            set_position(s, v, ent->cur.origin);
            v->seen = w->seq;
            continue;
        }
        const snd_sfx_t *sfx = resolve(s, w, ent->cur.sound);
        if (!sfx || !(v = pick_voice(s, V_LOOP, e, 0)))
            continue;
        v->kind = V_LOOP;
        v->entity = e;
        v->channel = 0;
        v->sound = ent->cur.sound;
        v->seen = w->seq;
        start_voice(s, v, sfx, ent->cur.origin, 0, 1.0f, 3.0f, 1.0f, 1);
        phase_voice(s, v, w->time);
    }
    for (int i = 0; i < s->nvoices; i++)
        if (s->voices[i].kind == V_LOOP && s->voices[i].seen != w->seq)
            stop_voice(&s->voices[i]);
}

// Quake's S_UpdateAmbientSounds: each ambient moves towards 0.3 x the leaf's level
// (nothing under 8) at 100 per second, centred like the listener's own sounds.
static void update_ambients(snd_t *s, double time)
{
    if (!s->amb.loaded)
        return;
    // Joining the level (its start, a seek, a jump in time): the levels start
    // where they settle, not at 0, so they do not depend on where playback began
    double dt = s->have_amb_time ? time - s->amb_time : -1.0;
    int snap = !(dt >= 0.0 && dt <= 1.0);
    s->amb_time = time;
    s->have_amb_time = 1;
    s->amb_join = snap;   // a listener set before the next frame places them again
    const uint8_t *level = snd_ambient_levels(&s->amb, s->listener);
    for (int i = 0; i < 2; i++) {
        float target = level ? 0.3f * level[i] : 0.0f;
        if (target < 8.0f)
            target = 0.0f;
        float step = (float)dt * 100.0f, vol = s->amb_vol[i];
        if (!level)
            vol = 0.0f;   // outside the map: Quake drops them at once
        else if (snap)
            vol = target;
        else if (vol < target)
            vol = vol + step > target ? target : vol + step;
        else if (vol > target)
            vol = vol - step < target ? target : vol - step;
        s->amb_vol[i] = vol;
        voice_t *v = s->amb_voice[i] >= 0 ? &s->voices[s->amb_voice[i]] : NULL;
        if (vol <= 0.0f || !s->amb_sfx[i]) {
            if (v)
                stop_voice(v);
            s->amb_voice[i] = -1;
        } else if (v) {
            alSourcef(v->src, AL_GAIN, vol / 255.0f);
        } else if ((v = pick_voice(s, V_AMBIENT, 0, 0)) != NULL) {
            v->kind = V_AMBIENT;
            v->entity = 0;
            v->channel = 0;
            v->sound = 0;
            start_voice(s, v, s->amb_sfx[i], NULL, 1, vol / 255.0f, 0.0f, 1.0f, 1);
            phase_voice(s, v, time);
            s->amb_voice[i] = (int)(v - s->voices);
        }
    }
}

// ---- the API -----------------------------------------------------------------

static void new_level(snd_t *s, const world_t *w)
{
    stop_all_voices(s);
    free_view_models(s);   // model indices are the level's
    s->game = w->game;
    s->mirror = world_left_handed(w->game);
    s->level_seq = w->level_seq;
    s->have_level = 1;
    s->have_seq = 0;
}

void snd_load_level(snd_t *s, vfs_t *fs, const world_t *w)
{
    if (!s || !w)
        return;
    make_current(s);
    s->fs = fs;
    if (s->game != w->game) {
        flush_cache(s);   // names map to files per game: forget the other game's
    }
    new_level(s, w);
    for (int i = 1; i < w->num_sounds && i < WORLD_MAX_SOUNDS; i++)
        resolve(s, w, i);
    s->sounds_seq = w->sounds_seq;
    // Quake's ambients: the map's leaves and the two sounds, when both are there
    snd_ambient_free(&s->amb);
    s->amb_sfx[0] = s->amb_sfx[1] = NULL;
    if (fs && w->game == GAME_QUAKE && w->map[0]) {
        static const char *const amb_names[2] = { "ambience/water1.wav", "ambience/wind2.wav" };
        size_t size = 0;
        uint8_t *bsp = vfs_load(fs, w->map, &size);
        char err[200];
        if (bsp && snd_ambient_load(&s->amb, bsp, size, err, sizeof(err)) < 0)
            log_info("sound: %s: %s; no ambient sounds", w->map, err);
        free(bsp);
        char path[WORLD_NAME_LEN + 32];
        for (int i = 0; i < 2 && s->amb.loaded; i++) {
            snd_sound_path(w->game, amb_names[i], path, sizeof(path));
            if (vfs_exists(fs, path)) {
                const snd_sfx_t *e = snd_cache_get(&s->cache, fs, w->game, amb_names[i]);
                s->amb_sfx[i] = e && e->buffer ? e : NULL;
            }
        }
    }
    // GoldSrc: the level's tree, which the temp models bounce on (a level that cannot be read: no
    // bounce sounds; the renderer says what is wrong with it)
    bsp_free(s->hl_bsp);
    s->hl_bsp = NULL;
    hltent_clear(s->hltent);
    if (fs && w->game == GAME_GOLDSRC && w->map[0]) {
        size_t size = 0;
        uint8_t *data = vfs_load(fs, w->map, &size);
        char err[200];
        if (data && !(s->hl_bsp = bsp_load(data, size, w->map, err, sizeof(err))))
            log_info("sound: %s; no bounce sounds", err);
        free(data);
        if (s->hl_bsp && !s->hltent && !(s->hltent = hltent_create())) {
            bsp_free(s->hl_bsp);
            s->hl_bsp = NULL;
        }
    }
    // the clients' own sounds, quietly: a missing one warns only if it is played
    char path[WORLD_NAME_LEN + 32];
    for (const char *const *n = snd_client_preload(w->game); fs && *n; n++)
        if (snd_sound_path(w->game, *n, path, sizeof(path)) && vfs_exists(fs, path))
            snd_cache_get(&s->cache, fs, w->game, *n);
    snd_cache_report(&s->cache);
}

void snd_frame(snd_t *s, const world_t *w)
{
    if (!s || !w)
        return;
    make_current(s);
    if (!s->have_level || s->level_seq != w->level_seq || s->game != w->game)
        new_level(s, w);   // a level without snd_load_level: sounds load on first use
    if (s->fs && s->sounds_seq != w->sounds_seq) {
        // names set after the level began (GoldSrc's resource list comes frames later)
        for (int i = 1; i < w->num_sounds && i < WORLD_MAX_SOUNDS; i++)
            resolve(s, w, i);
        s->sounds_seq = w->sounds_seq;
    }
    start_statics(s, w);
    if (!s->have_seq || s->last_seq != w->seq) {
        s->have_seq = 1;
        s->last_seq = w->seq;
        run_pending(s, w);
        snd_req_t req[SND_CLIENT_REQS];
        for (int i = 0; i < w->num_events && i < WORLD_MAX_EVENTS; i++) {
            const world_event_t *ev = &w->events[i];
            if (ev->type == EV_SOUND)
                play_event(s, w, &ev->u.sound);
            else if (ev->type == EV_STOPSOUND)
                stop_event(s, &ev->u.sound);
            int n = snd_client_event(w, ev, i, req, SND_CLIENT_REQS);
            for (int k = 0; k < n; k++)
                play_request(s, w, &req[k]);
        }
        if (w->game == GAME_GOLDSRC) {
            play_bounces(s, w);
            play_bullets(s, w);
            play_view_events(s, w);
        }
        if (w->game == GAME_QUAKE2)
            for (int e = 1; e < w->num_entities; e++)
                if (w->entities[e].cur.event && w->entities[e].seq == w->seq) {
                    int n = snd_client_entity_event(w, e, req, SND_CLIENT_REQS);
                    for (int k = 0; k < n; k++)
                        play_request(s, w, &req[k]);
                }
    }
    update_loops(s, w);
    update_ambients(s, w->time);
    snd_cache_report(&s->cache);   // sounds first named or played in this frame
    for (int i = 0; i < s->nvoices; i++) {
        voice_t *v = &s->voices[i];
        if (v->kind == V_DYNAMIC && v->follow && v->entity > 0 && v->entity < w->num_entities &&
            w->entities[v->entity].seq == w->seq)
            set_position(s, v, w->entities[v->entity].cur.origin);
    }
}

void snd_play_at(snd_t *s, const world_t *w, const char *name, const float origin[3], float volume,
                 float attenuation)
{
    if (!s || !w || !name || !origin)
        return;
    make_current(s);
    snd_req_t r;
    memset(&r, 0, sizeof(r));
    r.name = name;
    r.volume = volume > 0 ? (volume < 1 ? volume : 1.0f) : 0.0f;   // a NaN is silent
    r.attenuation = attenuation >= 0 ? attenuation : 0.0f;
    memcpy(r.origin, origin, sizeof(r.origin));
    r.has_origin = 1;
    play_request(s, w, &r);
}

static int finite_origin(const float *o)
{
    return isfinite(o[0]) && isfinite(o[1]) && isfinite(o[2]);
}

void snd_loops(snd_t *s, const world_t *w, const snd_loop_t *loops, int n)
{
    if (!s || !w)
        return;
    make_current(s);
    uint32_t mark = ++s->loops_mark;
    for (int i = 0; loops && i < n; i++) {
        const snd_loop_t *l = &loops[i];
        if (!l->name || !l->name[0] || !finite_origin(l->origin) || !isfinite(l->start))
            continue;
        voice_t *v = NULL;
        for (int k = 0; k < s->nvoices; k++)
            if (s->voices[k].kind == V_RULE && s->voices[k].key == l->id) {
                v = &s->voices[k];
                break;
            }
        const snd_sfx_t *sfx = s->fs ? snd_cache_get(&s->cache, s->fs, s->game, l->name) : NULL;
        if (sfx && !sfx->buffer)
            sfx = NULL;
        if (v && (v->sfx != sfx || v->t0 != l->start)) {   // another sound, or begun again
            stop_voice(v);
            v = NULL;
        }
        if (!sfx)
            continue;
        float vol = l->volume > 0 ? (l->volume < 1 ? l->volume : 1.0f) : 0.0f;   // a NaN is silent
        if (v) {
            if (!l->centred)
                set_position(s, v, l->origin);
            alSourcef(v->src, AL_GAIN, vol);
            set_attenuation(s, v->src, l->centred ? 0.0f : l->attenuation);
            v->seen = mark;
            continue;
        }
        if (!(v = pick_voice(s, V_RULE, 0, 0)))
            continue;
        v->kind = V_RULE;
        v->entity = 0;
        v->channel = 0;
        v->sound = 0;
        v->key = l->id;
        v->t0 = l->start;
        v->seen = mark;
        start_voice(s, v, sfx, l->origin, l->centred, vol, l->attenuation, 1.0f, 1);
        phase_voice(s, v, w->time);
    }
    for (int k = 0; k < s->nvoices; k++)
        if (s->voices[k].kind == V_RULE && s->voices[k].seen != mark)
            stop_voice(&s->voices[k]);
    snd_cache_report(&s->cache);
}

void snd_listener(snd_t *s, const vec3_t origin, const vec3_t angles)
{
    vec3_t fwd, right, up;
    angle_vectors(angles, fwd, right, up);   // Quake's: pitch down is positive, yaw turns left, roll tilts right
    snd_listener_axes(s, origin, fwd, up);
}

void snd_listener_entity(snd_t *s, int entity)
{
    if (!s)
        return;
    s->own_set = entity >= 0;
    s->own_entity = entity >= 0 ? entity : 0;
}

void snd_listener_axes(snd_t *s, const vec3_t origin, const vec3_t forward, const vec3_t up)
{
    if (!s)
        return;
    make_current(s);
    ALfloat ori[6], pos[3];
    to_al(s, forward, ori);
    to_al(s, up, ori + 3);
    to_al(s, origin, pos);
    memcpy(s->listener, origin, sizeof(s->listener));
    alListenerfv(AL_POSITION, pos);
    alListenerfv(AL_ORIENTATION, ori);
    if (s->amb_join) {
        // after a seek the player plays the frame before the view is known: the
        // ambients joined at the wrong place; place them again at the listener
        s->have_amb_time = 0;
        update_ambients(s, s->amb_time);
        s->amb_join = 0;
    }
}

void snd_set_clock(snd_t *s, long long sample, double offset)
{
    if (!s)
        return;
    s->head = sample;
    s->clock_offset = isfinite(offset) ? offset : 0.0;
}

void snd_stop_all(snd_t *s)
{
    if (!s)
        return;
    make_current(s);
    // last_seq is kept: the frame already heard is not played again, only the
    // loops of the new time start at the next snd_frame
    stop_all_voices(s);
    hltent_clear(s->hltent);   // the temp models step again from the log (their hits of the window only)
    s->vm_valid = 0;           // the view model's events from the next frame on
}

int snd_render(snd_t *s, int16_t *stereo, int frames)
{
    if (frames <= 0)
        return 0;
    if (!s || !s->loopback) {
        memset(stereo, 0, (size_t)frames * 4);
        return s ? -1 : 0;
    }
    make_current(s);
    // OpenAL Soft ramps a changed gain over the whole of the mix call that follows
    // the change, so calls end on a fixed grid of the playback timeline (and where
    // the caller stops, at each server frame): whatever span an export covers, the
    // same samples come from the same calls
    for (int done = 0; done < frames;) {
        long long q = s->head / SND_RENDER_CHUNK;
        if (s->head < 0 && q * SND_RENDER_CHUNK != s->head)
            q--;   // floor
        long long next = start_due_loops(s, (q + 1) * SND_RENDER_CHUNK);
        int n = frames - done;
        if ((long long)n > next - s->head)
            n = (int)(next - s->head);
        s->head += n;
        int16_t *out = stereo + 2 * (size_t)done;
        if (!s->float_out) {
            s->render(s->dev, out, n);
            done += n;
            continue;
        }
        s->render(s->dev, s->scratch, n);
        for (int i = 0; i < 2 * n; i++) {
            // Quake's Snd_WriteLinearBlastStereo16: val = (paint * snd_vol) >> 8,
            // then clipped to 16 bits (the paint buffer is an int, never saturated)
            float x = s->scratch[i] * 32768.0f;
            x = x > 2097152.0f ? 2097152.0f : x < -2097152.0f ? -2097152.0f : x;   // 2^21 * 1024 fits an int
            long long paint = llrintf(x == x ? x : 0.0f);
            long long scaled = paint * s->snd_vol;
            long long val = scaled >= 0 ? scaled / 256 : -((-scaled + 255) / 256);   // >> 8, floor
            out[i] = (int16_t)(val > 32767 ? 32767 : val < -32768 ? -32768 : val);
        }
        done += n;
    }
    return 0;
}

int snd_active_voices(snd_t *s)
{
    if (!s)
        return 0;
    make_current(s);
    int n = 0;
    for (int i = 0; i < s->nvoices; i++)
        n += s->voices[i].kind != V_FREE && (s->voices[i].phase_due || voice_playing(&s->voices[i]));
    return n;
}
