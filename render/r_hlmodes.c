// r_hlmodes.c -- Half-Life's render modes and render fx in 8 bits: blend tables from the level palette, fx amounts
#include "r_hlmodes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../assets/pal.h"
#include "../assets/spr.h"
#include "../engine/log.h"
#include "../engine/vfs.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

static inline int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

void r_hl_build(r_hlmodes_t *hl, const uint8_t *palette)
{
    double t0 = now_ms();
    memcpy(hl->palette, palette, 768);
    // inverse colour cube: each 8 x 8 x 8 cell's centre to its nearest colour (not 255)
    pal_near_t near;
    pal_near_init(&near, palette, 255);
    for (int i = 0; i < 32768; i++)
        hl->inv[i] = (uint8_t)pal_near(&near, (i >> 10) << 3 | 4, ((i >> 5) & 31) << 3 | 4, (i & 31) << 3 | 4);
    for (int l = 0; l < HL_ALPHA_LEVELS; l++) {
        int a = (l + 1) * 256 / (HL_ALPHA_LEVELS + 1);   // 8.8: the source's share
        uint8_t *t = hl->alpha[l];
        for (int s = 0; s < 256; s++) {
            const uint8_t *cs = palette + s * 3;
            for (int d = 0; d < 256; d++) {
                const uint8_t *cd = palette + d * 3;
                t[s * 256 + d] = r_hl_nearest(hl, (cs[0] * a + cd[0] * (256 - a)) >> 8,
                                              (cs[1] * a + cd[1] * (256 - a)) >> 8, (cs[2] * a + cd[2] * (256 - a)) >> 8);
            }
        }
    }
    for (int l = 0; l < HL_ADD_LEVELS; l++) {
        int a = r_hl_add_frac(l);
        uint8_t *t = hl->add[l];
        for (int s = 0; s < 256; s++) {
            const uint8_t *cs = palette + s * 3;
            for (int d = 0; d < 256; d++) {
                const uint8_t *cd = palette + d * 3;
                t[s * 256 + d] = r_hl_nearest(hl, clamp255(cd[0] + (cs[0] * a >> 8)), clamp255(cd[1] + (cs[1] * a >> 8)),
                                              clamp255(cd[2] + (cs[2] * a >> 8)));
            }
        }
    }
    memset(hl->ia_key, 0, sizeof hl->ia_key);
    hl->ia_next = 0;
    hl->ready = 1;
    hl->build_ms = now_ms() - t0;
}

const uint8_t *r_hl_table(const r_hlmodes_t *hl, hl_blend_t kind, int amount)
{
    if (!hl || !hl->ready || amount <= 0)
        return NULL;
    if (amount > 255)
        amount = 255;
    if (kind == HL_BLEND_ADD) {
        int l = r_hl_add_level(amount);
        return l < 0 ? NULL : hl->add[l];
    }
    int l = r_hl_alpha_level(amount);
    return l >= 1 && l <= HL_ALPHA_LEVELS ? hl->alpha[l - 1] : NULL;
}

int r_hl_add_frac(int l)
{
    if (l < 0)
        return 0;
    if (l < HL_ADD_LOW)
        return 4 << l;   // 1/64, 1/32, 1/16, 1/8
    return l < HL_ADD_LEVELS ? (l - HL_ADD_LOW + 1) * 64 : 256;   // 1/4 .. 4/4
}

int r_hl_add_level(int amount)
{
    if (amount > 255)
        amount = 255;
    // the low levels' bounds: the geometric means of neighbours (255 x 2^-6.5, 2^-5.5, ...: 2.8, 5.6, 11.3,
    // 22.5, 45.1), so an amount is never more than a factor sqrt 2 from its level's
    if (amount < 3)
        return -1;
    if (amount < 6)
        return 0;
    if (amount < 12)
        return 1;
    if (amount < 23)
        return 2;
    if (amount < 46)
        return 3;
    int q = (amount * 4 + 128) / 256;   // nearest of 1/4 .. 4/4, as before the low levels
    return HL_ADD_LOW + (q < 1 ? 1 : q) - 1;
}

int r_hl_alpha_level(int amount)
{
    if (amount <= 0)
        return 0;
    if (amount > 255)
        amount = 255;
    int l = (amount * (HL_ALPHA_LEVELS + 1) + 128) / 256;   // nearest of 1/5 .. 4/5, 1
    return l < 1 ? 1 : l;
}

const uint8_t *r_hl_indexalpha(r_hlmodes_t *hl, const uint8_t rgb[3], int amount)
{
    if (!hl || !hl->ready || amount <= 0)
        return NULL;
    int step = amount > 255 ? 15 : amount >> 4;   // 16 amount steps
    uint32_t key = ((uint32_t)rgb[0] << 24 | (uint32_t)rgb[1] << 16 | (uint32_t)rgb[2] << 8 | (uint32_t)step) + 1;
    for (int i = 0; i < HL_IA_CACHE; i++)
        if (hl->ia_key[i] == key)
            return hl->ia[i];
    int slot = hl->ia_next;
    hl->ia_next = (hl->ia_next + 1) % HL_IA_CACHE;
    int amt = step * 16 + 15;
    uint8_t *t = hl->ia[slot];
    for (int i = 0; i < 256; i++) {
        int a = i * amt / 255;   // 0..255
        for (int d = 0; d < 256; d++) {
            const uint8_t *cd = hl->palette + d * 3;
            if (a == 0) {   // fully transparent: the pixel stays itself
                t[i * 256 + d] = (uint8_t)d;
                continue;
            }
            t[i * 256 + d] = r_hl_nearest(hl, (rgb[0] * a + cd[0] * (255 - a)) / 255, (rgb[1] * a + cd[1] * (255 - a)) / 255,
                                          (rgb[2] * a + cd[2] * (255 - a)) / 255);
        }
        t[i * 256 + 255] = 255;
    }
    hl->ia_key[slot] = key;
    return t;
}

// A repeatable stand-in for the engine's random -32..31 (hologram flicker): the
// entity number and the twentieth of a second.
static int hl_noise(int entnum, double t)
{
    uint32_t h = (uint32_t)entnum * 2654435761u ^ (uint32_t)(int64_t)floor(t * 20.0) * 40503u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (int)(h & 63) - 32;
}

int r_hl_fx_amount(const entity_state_t *s, int entnum, double t, double since, const float *vieworg,
                   const float *vpn, const float *org)
{
    // frames drawn since the state came (a damaged clock: none; more than 4 s: as 4 s, the amount is 0 or 255 by then)
    int frames = since > 0 ? (int)((since < 4 ? since : 4) * HL_FX_FRAME_HZ) : 0;
    int amt = s->renderamt;
    double ofs = (double)entnum * 363.0;   // the engine de-syncs entities by their number
    int blend;
    switch (s->renderfx) {
    case HL_FX_PULSE_SLOW: blend = amt + (int)(16.0 * sin(t * 2.0 + ofs)); break;
    case HL_FX_PULSE_FAST: blend = amt + (int)(16.0 * sin(t * 8.0 + ofs)); break;
    case HL_FX_PULSE_SLOW_WIDE: blend = amt + (int)(64.0 * sin(t * 2.0 + ofs)); break;
    case HL_FX_PULSE_FAST_WIDE: blend = amt + (int)(64.0 * sin(t * 8.0 + ofs)); break;
    case HL_FX_STROBE_SLOW: blend = (int)(20.0 * sin(t * 4.0 + ofs)) < 0 ? 0 : amt; break;
    case HL_FX_STROBE_FAST: blend = (int)(20.0 * sin(t * 16.0 + ofs)) < 0 ? 0 : amt; break;
    case HL_FX_STROBE_FASTER: blend = (int)(20.0 * sin(t * 36.0 + ofs)) < 0 ? 0 : amt; break;
    case HL_FX_FLICKER_SLOW: blend = (int)(20.0 * (sin(t * 2.0) + sin(t * 17.0 + ofs))) < 0 ? 0 : amt; break;
    case HL_FX_FLICKER_FAST: blend = (int)(20.0 * (sin(t * 16.0) + sin(t * 23.0 + ofs))) < 0 ? 0 : amt; break;
    case HL_FX_DISTORT:
    case HL_FX_HOLOGRAM: {
        float dist = 1.0f;
        if (s->renderfx == HL_FX_HOLOGRAM && vieworg && vpn && org)
            dist = (org[0] - vieworg[0]) * vpn[0] + (org[1] - vieworg[1]) * vpn[1] + (org[2] - vieworg[2]) * vpn[2];
        if (dist <= 0) {
            blend = 0;
        } else {
            amt = 180;   // the engine forces the amount
            blend = dist <= 100 ? amt : (int)((1.0f - (dist - 100.0f) * (1.0f / 400.0f)) * (float)amt);
            blend += hl_noise(entnum, t);
        }
        break;
    }
    case HL_FX_FADE_SLOW: blend = amt - frames; break;   // renderamt - 1 a frame, at least 0
    case HL_FX_FADE_FAST: blend = amt - 4 * frames; break;
    case HL_FX_SOLID_SLOW: blend = amt + frames; break;   // + 1 a frame, at most 255
    case HL_FX_SOLID_FAST: blend = amt + 4 * frames; break;
    default:   // none, shells, ...
        blend = amt;
        break;
    }
    return clamp255(blend);
}

int r_hl_brush_unlit(int rendermode)
{
    return rendermode == RM_TEXTURE || rendermode == RM_COLOR || rendermode == RM_ADDITIVE || rendermode == RM_GLOW;
}

int r_hl_dead_player(const entity_state_t *s, int maxclients)
{
    if (s->renderfx != HL_FX_DEAD_PLAYER)
        return -1;
    return s->renderamt >= 1 && s->renderamt <= maxclients && s->renderamt <= WORLD_MAX_PLAYERS ? s->renderamt : 0;
}

float r_hl_explode_stretch(const entity_state_t *s, double time)
{
    if (s->renderfx != HL_FX_EXPLODE)
        return 1.0f;
    double k = 1.0 + (time - s->animtime) * 10.0;
    return !(k > 0) ? 0.0f : k > 2 ? 2.0f : (float)k;
}

// Draw k of the entity's frame: a hash of (entity number, frame number, k) (splitmix64's mixer).
static uint32_t jitter_draw(int entnum, int64_t frame, uint32_t k)
{
    uint64_t x = (uint64_t)(uint32_t)entnum * 0x9E3779B97F4A7C15ull ^ (uint64_t)frame * 0xBF58476D1CE4E5B9ull ^
                 ((uint64_t)k + 1) * 0x94D049BB133111EBull;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return (uint32_t)(x >> 32);
}

static float jitter_unit(uint32_t h) { return (float)((double)h / 4294967296.0); }   // 0 .. 1

int r_hl_fx_jitter(const entity_state_t *s, int entnum, double t, float axis_scale[3], float move[3])
{
    if ((s->renderfx != HL_FX_DISTORT && s->renderfx != HL_FX_HOLOGRAM) || !(t > -1e9 && t < 1e9))
        return 0;
    int64_t frame = (int64_t)floor(t * HL_FX_FRAME_HZ);
    if (jitter_draw(entnum, frame, 0) % 50 == 0) {   // RandomLong(0, 49) == 0: an axis scaled
        int axis = (jitter_draw(entnum, frame, 1) & 1) ? 2 : 0;   // x or z
        axis_scale[0] = axis_scale[1] = axis_scale[2] = 1.0f;
        move[0] = move[1] = move[2] = 0.0f;
        axis_scale[axis] = 1.0f + 0.484f * jitter_unit(jitter_draw(entnum, frame, 2));
        return 1;
    }
    if (jitter_draw(entnum, frame, 3) % 50 == 0) {   // else a second RandomLong(0, 49) == 0: moved
        int axis = (int)(jitter_draw(entnum, frame, 4) % 3);
        axis_scale[0] = axis_scale[1] = axis_scale[2] = 1.0f;
        move[0] = move[1] = move[2] = 0.0f;
        move[axis] = -10.0f + 20.0f * jitter_unit(jitter_draw(entnum, frame, 5));
        return 1;
    }
    return 0;
}

float r_hl_glow(float dist, float *scale)
{
    if (dist < 1.0f)
        dist = 1.0f;
    float b = 19000.0f / (dist * dist);
    if (scale)
        *scale = dist / 200.0f;
    return b < 0.05f ? 0.05f : b > 1.0f ? 1.0f : b;
}

int r_hl_studio_blend(const r_hlmodes_t *hl, const entity_state_t *s, int entnum, double t, double since,
                      const float *vieworg, const float *vpn, const float *org, const uint8_t **table)
{
    *table = NULL;
    if (s->rendermode == RM_NORMAL)
        return 1;
    int amt = r_hl_fx_amount(s, entnum, t, since, vieworg, vpn, org);
    if (amt <= 0)
        return 0;
    if (!hl || !hl->ready)
        return 1;
    switch (s->rendermode) {
    case RM_TEXTURE:
    case RM_COLOR:
        *table = r_hl_table(hl, HL_BLEND_ALPHA, amt);
        return 1;
    case RM_GLOW:
    case RM_ADDITIVE:
        *table = r_hl_table(hl, HL_BLEND_ADD, amt);
        return *table != NULL;   // too low to add anything (r_hl_add_level): not drawn
    default:
        return 1;
    }
}

int r_hl_set_shell(r_hlmodes_t *hl, const spr_t *sp)
{
    hl->has_shell = 0;
    if (!sp || sp->numframes < 1 || !sp->frames || !sp->images || !sp->pixels)
        return -1;
    const spr_image_t *im = spr_image(sp, 0, 0);
    if (im->width < 1 || im->height < 1 || im->offset > sp->pixels_size ||
        (size_t)im->width * (size_t)im->height > sp->pixels_size - im->offset)
        return -1;
    const uint8_t *pal = sp->has_palette ? sp->palette : hl->palette;
    for (int t = 0; t < 64; t++)
        for (int s = 0; s < 64; s++) {
            int x = s * im->width / 64, y = t * im->height / 64;
            uint8_t c = sp->pixels[im->offset + (size_t)y * (size_t)im->width + (size_t)x];
            const uint8_t *rgb = pal + 3 * c;
            int m = rgb[0] > rgb[1] ? (rgb[0] > rgb[2] ? rgb[0] : rgb[2]) : (rgb[1] > rgb[2] ? rgb[1] : rgb[2]);
            hl->shell[t * 64 + s] = c == 255 ? 0 : (uint8_t)(m >> 4);
        }
    hl->has_shell = 1;
    return 0;
}

void r_hl_shell_from(r_hlmodes_t *hl, vfs_t *fs)
{
    hl->has_shell = 0;
    size_t n = 0;
    uint8_t *bytes = fs && vfs_exists(fs, "sprites/shellchrome.spr") ? vfs_load(fs, "sprites/shellchrome.spr", &n) : NULL;
    if (!bytes)
        return;   // not in the data here: r_studio.c's stand-in pattern
    spr_t sp;
    char err[256] = "";
    if (spr_load(&sp, bytes, n, err, sizeof err) == 0) {
        if (r_hl_set_shell(hl, &sp) < 0)
            log_warn("sprites/shellchrome.spr: no image: the glow shell uses a stand-in pattern");
        spr_free(&sp);
    } else {
        log_warn("sprites/shellchrome.spr: %s: the glow shell uses a stand-in pattern", err);
    }
    free(bytes);
}
