// gen_sound.c -- sound/**/*.wav: synthesized effects (sines, filtered seeded noise, envelopes)
//
// RIFF WAVE, PCM 16-bit mono at 22050 Hz. Looping sounds carry Quake's loop
// point: a "cue " chunk whose first cue point gives the loop start, and a
// "LIST"/"adtl"/"ltxt" entry with purpose "mark" giving the loop length (what
// Cool Edit wrote and Quake's GetWavinfo reads). A loop is made seamless by
// synthesizing past its end and cross-fading that tail into its start.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define RATE 22050
#define TWO_PI (2.0 * M_PI)

// ---- building blocks -----------------------------------------------------------------------

typedef struct {
    float *s;
    int n;
} snd_t;

static int snd_new(snd_t *d, double seconds)
{
    d->n = (int)(seconds * RATE);
    d->s = calloc((size_t)d->n, sizeof(float));
    if (!d->s) {
        fprintf(stderr, "mkbuiltin: out of memory for a sound\n");
        return -1;
    }
    return 0;
}

// Seeded xorshift32: white noise in [-1, 1).
static float noise(uint32_t *st)
{
    return (float)(gen_rand(st) >> 8) / 8388608.0f - 1.0f;
}

static float unit(uint32_t *st) { return (noise(st) + 1.0f) * 0.5f; }   // [0, 1)

// One-pole low-pass: the coefficient for a cutoff in Hz.
static float lp_coef(double hz) { return (float)(1.0 - exp(-TWO_PI * hz / RATE)); }

// A band-pass biquad (constant 0 dB peak gain), coefficients set per use.
typedef struct {
    float b0, b2, a1, a2, x1, x2, y1, y2;
} biquad_t;

static void bp_set(biquad_t *f, double hz, double q)
{
    double w = TWO_PI * hz / RATE, alpha = sin(w) / (2 * q), a0 = 1 + alpha;
    f->b0 = (float)(alpha / a0);
    f->b2 = (float)(-alpha / a0);
    f->a1 = (float)(-2 * cos(w) / a0);
    f->a2 = (float)((1 - alpha) / a0);
}

static float bp_run(biquad_t *f, float x)
{
    float y = f->b0 * x + f->b2 * f->x2 - f->a1 * f->y1 - f->a2 * f->y2;
    f->x2 = f->x1;
    f->x1 = x;
    f->y2 = f->y1;
    f->y1 = y;
    return y;
}

// Attack then exponential decay (time constant tau), from time t0.
static float env(double t, double t0, double attack, double tau)
{
    double u = t - t0;
    if (u < 0)
        return 0;
    double a = attack > 0 && u < attack ? u / attack : 1.0;
    return (float)(a * exp(-(u > attack ? u - attack : 0) / tau));
}

// A sine that slides from f0 to f1 (exponentially over the first `glide` seconds).
typedef struct {
    double phase;
} osc_t;

static float osc_glide(osc_t *o, double t, double f0, double f1, double glide)
{
    double k = t < glide ? t / glide : 1.0;
    double f = f0 * pow(f1 / f0, k);
    o->phase += TWO_PI * f / RATE;
    if (o->phase > TWO_PI)
        o->phase -= TWO_PI;
    return (float)sin(o->phase);
}

// Make a loop of `len` samples seamless: d holds len + fade samples; the tail is
// cross-faded (equal power) into the start and dropped.
static void loop_crossfade(snd_t *d, int len)
{
    int fade = d->n - len;
    for (int i = 0; i < fade; i++) {
        double a = (double)i / fade;
        d->s[i] = (float)(d->s[i] * sin(a * M_PI / 2) + d->s[len + i] * cos(a * M_PI / 2));
    }
    d->n = len;
}

// Short fades at both ends so a one-shot sound starts and stops without a click.
static void edges(snd_t *d, double in, double out)
{
    int ni = (int)(in * RATE), no = (int)(out * RATE);
    for (int i = 0; i < ni && i < d->n; i++)
        d->s[i] *= (float)i / (float)ni;
    for (int i = 0; i < no && i < d->n; i++)
        d->s[d->n - 1 - i] *= (float)i / (float)no;
}

// ---- the WAV file ------------------------------------------------------------------------------

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

// Scale to `peak` (of full scale), write 16-bit PCM; loop_start >= 0 adds the loop chunks.
static int write_wav(const char *outdir, const char *rel, const snd_t *d, float peak, int loop_start)
{
    float max = 1e-9f;
    for (int i = 0; i < d->n; i++)
        max = fabsf(d->s[i]) > max ? fabsf(d->s[i]) : max;
    float gain = peak * 32767.0f / max;
    size_t data = (size_t)d->n * 2;
    size_t loop = loop_start >= 0 ? (8 + 28) + (8 + 4 + 8 + 20) : 0;
    size_t size = 12 + (8 + 16) + (8 + data) + loop;
    uint8_t *b = calloc(size, 1);
    if (!b) {
        fprintf(stderr, "mkbuiltin: out of memory for %s\n", rel);
        return -1;
    }
    memcpy(b, "RIFF", 4);
    put32(b + 4, (uint32_t)(size - 8));
    memcpy(b + 8, "WAVE", 4);
    uint8_t *p = b + 12;
    memcpy(p, "fmt ", 4);
    put32(p + 4, 16);
    put16(p + 8, 1);                 // PCM
    put16(p + 10, 1);                // mono
    put32(p + 12, RATE);
    put32(p + 16, RATE * 2);         // bytes per second
    put16(p + 20, 2);                // bytes per frame
    put16(p + 22, 16);               // bits per sample
    p += 24;
    memcpy(p, "data", 4);
    put32(p + 4, (uint32_t)data);
    for (int i = 0; i < d->n; i++) {
        long v = lrintf(d->s[i] * gain);
        v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
        put16(p + 8 + 2 * i, (uint32_t)(uint16_t)(int16_t)v);
    }
    p += 8 + data;
    if (loop_start >= 0) {
        memcpy(p, "cue ", 4);
        put32(p + 4, 28);
        put32(p + 8, 1);             // one cue point:
        put32(p + 12, 1);            //   its id
        put32(p + 16, (uint32_t)loop_start);   // position
        memcpy(p + 20, "data", 4);   //   in the data chunk
        put32(p + 24, 0);            //   chunk start
        put32(p + 28, 0);            //   block start
        put32(p + 32, (uint32_t)loop_start);   // sample offset: where the loop starts
        p += 36;
        memcpy(p, "LIST", 4);
        put32(p + 4, 4 + 8 + 20);
        memcpy(p + 8, "adtl", 4);
        memcpy(p + 12, "ltxt", 4);
        put32(p + 16, 20);
        put32(p + 20, 1);            // the cue point it labels
        put32(p + 24, (uint32_t)(d->n - loop_start));   // loop length in frames
        memcpy(p + 28, "mark", 4);   // purpose; country, language, dialect, code page stay 0
    }
    int rc = gen_write(outdir, rel, b, size);
    free(b);
    return rc;
}

// ---- the sounds ------------------------------------------------------------------------------------

// A machine hum: 60 Hz and its harmonics, a slow wobble, a faint whine. Every
// frequency is a whole number of cycles in one second, so the second loops exactly.
static int hum(snd_t *d)
{
    if (snd_new(d, 1.0) < 0)
        return -1;
    static const float harm[6] = { 0.5f, 0.35f, 0.2f, 0.12f, 0.06f, 0.04f };
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        double v = 0;
        for (int h = 0; h < 6; h++)
            v += harm[h] * sin(TWO_PI * 60 * (h + 1) * t + h * 0.7);
        v *= 1.0 + 0.18 * sin(TWO_PI * 2 * t);
        v += 0.015 * sin(TWO_PI * 1020 * t);
        d->s[i] = (float)v;
    }
    return 0;
}

// Door start: a thump, then a grinding scrape as the slab moves.
static int door_start(snd_t *d)
{
    if (snd_new(d, 0.8) < 0)
        return -1;
    uint32_t st = 0xd00a1u;
    osc_t thump = { 0 };
    biquad_t scrape = { 0 };
    bp_set(&scrape, 850, 2.5);
    float lp = 0, rumble = 0, a = lp_coef(500), ar = lp_coef(120);
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        float n = noise(&st);
        lp += a * (n - lp);
        rumble += ar * (n - rumble);
        float v = osc_glide(&thump, t, 75, 45, 0.15) * env(t, 0, 0.004, 0.09) * 0.9f;
        v += lp * env(t, 0, 0.001, 0.03) * 1.5f;
        // stick-slip: the scrape's loudness jitters at a rough 14 Hz
        float grind = 0.6f + 0.4f * (float)sin(TWO_PI * 14 * t + 1.3 * sin(TWO_PI * 3 * t));
        float body = (t < 0.12 ? (float)(t / 0.12) : 1.0f) * (t > 0.6 ? (float)((0.8 - t) / 0.2) : 1.0f);
        v += bp_run(&scrape, n) * grind * body * 0.8f * (t > 0.04 ? 1.0f : 0.0f);
        v += rumble * body * 2.5f;
        d->s[i] = v;
    }
    edges(d, 0.001, 0.02);
    return 0;
}

// Door stop: a heavy clunk with a short metallic ring.
static int door_stop(snd_t *d)
{
    if (snd_new(d, 0.6) < 0)
        return -1;
    uint32_t st = 0xc1a4u;
    osc_t thud = { 0 };
    float lp = 0, a = lp_coef(350);
    static const double ring_hz[3] = { 313, 587, 1213 }, ring_tau[3] = { 0.25, 0.16, 0.08 };
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        lp += a * (noise(&st) - lp);
        float v = osc_glide(&thud, t, 90, 55, 0.2) * env(t, 0, 0.002, 0.12);
        v += lp * env(t, 0, 0.001, 0.05) * 2.0f;
        for (int k = 0; k < 3; k++)
            v += (float)(0.12 * sin(TWO_PI * ring_hz[k] * t)) * env(t, 0.003, 0.001, ring_tau[k]);
        d->s[i] = v;
    }
    edges(d, 0.0005, 0.05);
    return 0;
}

// Explosion: a noise burst whose low-pass closes as it dies, a falling boom
// underneath, and crackle in the first half second.
static int explosion(snd_t *d)
{
    if (snd_new(d, 1.5) < 0)
        return -1;
    uint32_t st = 0xe4b1u;
    osc_t boom = { 0 };
    float l1 = 0, l2 = 0, crack = 0;
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        double cut = 200 + 2800 * exp(-t / 0.25);
        float a = lp_coef(cut);
        float n = noise(&st);
        l1 += a * (n - l1);
        l2 += a * (l1 - l2);
        // the closing filter takes loudness away: give some back, so the tail rumbles rather than hums
        float v = l2 * env(t, 0, 0.006, 0.4) * 2.2f * (float)pow(cut / 3000, -0.35);
        v += osc_glide(&boom, t, 95, 32, 0.8) * env(t, 0, 0.01, 0.45) * 0.55f;
        if (t < 0.7 && unit(&st) < 0.004f * (float)(1.0 - t / 0.7))
            crack = noise(&st) > 0 ? 1.0f : -1.0f;   // a random pop
        v += crack * 0.5f;
        crack *= 0.9f;
        d->s[i] = v;
    }
    edges(d, 0.001, 0.1);
    return 0;
}

// Pickup: two bell-like notes a fifth apart.
static int pickup(snd_t *d)
{
    if (snd_new(d, 0.4) < 0)
        return -1;
    static const double note[2] = { 1046.5, 1568.0 }, start[2] = { 0.0, 0.07 };
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        float v = 0;
        for (int k = 0; k < 2; k++) {
            double u = t - start[k];
            if (u < 0)
                continue;
            float e = env(t, start[k], 0.002, 0.11);
            v += e * (float)(sin(TWO_PI * note[k] * u) + 0.3 * sin(TWO_PI * note[k] * 2.01 * u) +
                             0.1 * sin(TWO_PI * note[k] * 3.0 * u));
        }
        d->s[i] = v;
    }
    edges(d, 0.0005, 0.03);
    return 0;
}

// Talk: a short soft blip.
static int talk(snd_t *d)
{
    if (snd_new(d, 0.12) < 0)
        return -1;
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        double f = 880 + 220 * (t < 0.05 ? 0 : 1);   // two quick pitches
        d->s[i] = (float)((sin(TWO_PI * f * t) + 0.25 * sin(TWO_PI * 3 * f * t)) *
                          (t < 0.005 ? t / 0.005 : 1.0) * (t > 0.09 ? (0.12 - t) / 0.03 : 1.0));
    }
    return 0;
}

// Water: a low murmur and many small bubbles (sines gliding up as they pop).
static int water(snd_t *d)
{
    const double len = 2.0, fade = 0.25;
    if (snd_new(d, len + fade) < 0)
        return -1;
    uint32_t st = 0x3a7e4u;
    float l1 = 0, l2 = 0, a = lp_coef(280);
    for (int i = 0; i < d->n; i++) {
        float n = noise(&st);
        l1 += a * (n - l1);
        l2 += a * (l1 - l2);
        d->s[i] = l2 * 1.4f;
    }
    int bubbles = (int)((len + fade) * 30);
    for (int b = 0; b < bubbles; b++) {
        double t0 = unit(&st) * (len + fade), f0 = 350 + 1100 * unit(&st) * unit(&st);
        double dur = 0.02 + 0.05 * unit(&st), amp = 0.08 + 0.22 * unit(&st), rise = 1.5 + unit(&st);
        int i0 = (int)(t0 * RATE), n = (int)(dur * RATE);
        double phase = 0;
        for (int k = 0; k < n && i0 + k < d->n; k++) {
            double u = (double)k / RATE;
            phase += TWO_PI * f0 * (1 + rise * u / dur) / RATE;
            double e = (k < 40 ? k / 40.0 : 1.0) * exp(-u / (dur * 0.4));
            d->s[i0 + k] += (float)(amp * e * sin(phase));
        }
    }
    loop_crossfade(d, (int)(len * RATE));
    return 0;
}

// Wind: noise through a band-pass whose centre and loudness drift in slow
// gusts; the drifts have whole cycles in the loop's two seconds.
static int wind(snd_t *d)
{
    const double len = 2.0, fade = 0.25;
    if (snd_new(d, len + fade) < 0)
        return -1;
    uint32_t st = 0x771d2u;
    biquad_t f = { 0 }, g = { 0 };
    float low = 0, a = lp_coef(150);
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        double centre = 480 + 220 * sin(TWO_PI * 0.5 * t) + 60 * sin(TWO_PI * 1.5 * t + 1.0);
        bp_set(&f, centre, 4.0);
        bp_set(&g, centre * 2.3, 6.0);
        float n = noise(&st);
        low += a * (n - low);
        float gust = (float)(0.65 + 0.25 * sin(TWO_PI * 0.5 * t + 2.0) + 0.1 * sin(TWO_PI * 2.0 * t));
        d->s[i] = (bp_run(&f, n) + 0.35f * bp_run(&g, n) + low * 1.5f) * gust;
    }
    loop_crossfade(d, (int)(len * RATE));
    return 0;
}

// Landing: a soft body thud.
static int land(snd_t *d)
{
    if (snd_new(d, 0.3) < 0)
        return -1;
    uint32_t st = 0x1a2du;
    osc_t o = { 0 };
    float l1 = 0, l2 = 0, a = lp_coef(260);
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        float n = noise(&st);
        l1 += a * (n - l1);
        l2 += a * (l1 - l2);
        d->s[i] = l2 * env(t, 0, 0.003, 0.06) * 3.0f + osc_glide(&o, t, 85, 50, 0.1) * env(t, 0, 0.003, 0.08) * 0.8f;
    }
    edges(d, 0.0005, 0.03);
    return 0;
}

// Gun cock: two sharp mechanical clicks.
static int guncock(snd_t *d)
{
    if (snd_new(d, 0.25) < 0)
        return -1;
    uint32_t st = 0x9c0cu;
    static const double at[2] = { 0.0, 0.09 }, ring[2] = { 2600, 3900 };
    float prev = 0;
    for (int i = 0; i < d->n; i++) {
        double t = (double)i / RATE;
        float n = noise(&st), hp = n - prev;   // a first difference: bright noise
        prev = n;
        float v = 0;
        for (int k = 0; k < 2; k++) {
            double u = t - at[k];
            if (u < 0)
                continue;
            v += hp * env(t, at[k], 0.0002, 0.004) * (k ? 0.8f : 1.0f);
            v += (float)sin(TWO_PI * ring[k] * u) * env(t, at[k], 0.0002, 0.015) * 0.5f;
            v += (float)sin(TWO_PI * 700 * u) * env(t, at[k], 0.0005, 0.02) * 0.4f;
        }
        d->s[i] = v;
    }
    edges(d, 0.0001, 0.02);
    return 0;
}

int gen_sounds(const char *outdir)
{
    static const struct {
        const char *rel;
        int (*make)(snd_t *d);
        float peak;
        int loop;   // loops from its first sample
    } sounds[] = {
        { "sound/misc/hum.wav", hum, 0.45f, 1 },
        { "sound/doors/stndr1.wav", door_start, 0.8f, 0 },
        { "sound/doors/drclos4.wav", door_stop, 0.85f, 0 },
        { "sound/weapons/r_exp3.wav", explosion, 0.95f, 0 },
        { "sound/items/itembk2.wav", pickup, 0.6f, 0 },
        { "sound/misc/talk.wav", talk, 0.45f, 0 },
        { "sound/ambience/water1.wav", water, 0.5f, 1 },
        { "sound/ambience/wind2.wav", wind, 0.5f, 1 },
        { "sound/player/land.wav", land, 0.7f, 0 },
        { "sound/weapons/guncock.wav", guncock, 0.8f, 0 },
    };
    for (size_t i = 0; i < sizeof sounds / sizeof sounds[0]; i++) {
        snd_t d = { NULL, 0 };
        if (sounds[i].make(&d) < 0)
            return -1;
        int rc = write_wav(outdir, sounds[i].rel, &d, sounds[i].peak, sounds[i].loop ? 0 : -1);
        free(d.s);
        if (rc < 0)
            return -1;
    }
    return 0;
}
