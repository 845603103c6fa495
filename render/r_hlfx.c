// r_hlfx.c -- Half-Life's temp entities and client events (see r_hlfx.h)
//
// The numbers are the engine's temp entity behaviour as the SDK's efx_api (r_efx.h) and the
// public references document it, and the client dll's (cl_dll/ev_hldm.cpp) for the events;
// where this renderer cannot do what the engine does (traces, decals, bouncing models) the
// effect is left out and docs/goldsrc.md lists it.
#include "r_hlfx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/hlbullet.h"
#include "r_hlmodes.h"
#include "r_local.h"

typedef struct {
    r_hlsprite_t s;
    vec3_t vel;
    float start, die;
    float framerate;     // frames a second (0: frame 0)
    float fade;          // > 0: the amount falls to 0 over the last `fade` seconds
    float gravity;       // units / s^2 downward (FTENT_SLOWGRAVITY: half sv_gravity)
    float frame0;        // its first frame
    int follow;          // > 0: the entity it stays at (org = the entity's origin + offset)
    vec3_t offset;
    int attached;        // > 0: the player whose TE_KILLPLAYERATTACHMENTS ends it
    int active;
} sprite_t;

typedef struct {
    r_hlbeam_t b;
    float birth, die;
    float dz;            // circle beams: the second point's height over the first (radius = age x dz)
    int active;
} beam_t;

typedef struct {
    vec3_t org;
    float radius, decay, start, die, minlight;
    int key;             // > 0: the entity whose light it is (a new one replaces it)
    uint32_t rgb;        // 0x1RRGGBB: coloured (TE_DLIGHT, TE_ELIGHT); 0 white
    int elight;          // TE_ELIGHT: lights studio models only; follows entity `follow` (> 0)
    int follow;
} light_t;

struct r_hlfx_s {
    r_hlparticle_t p[HLFX_MAX_PARTICLES];
    int next_p;
    sprite_t spr[HLFX_MAX_SPRITES];
    int next_spr;
    beam_t beams[HLFX_MAX_BEAMS];
    int next_beam;
    light_t lights[HLFX_MAX_LIGHTS];
    int next_light;
    uint32_t rng;
    double flash_time;   // the latest local muzzle flash
    float flash_scale;
    vec3_t muzzle;
    int muzzle_valid;
    struct {             // the view model's own flash in the frame drawn (r_hlfx_set_view_flash)
        int model, shown, index;
        float scale;
        vec3_t org;
    } vflash;
    double now;
    const bsp_t *bsp;    // the level, for TE_FIZZ (r_hlfx_set_level) and the egon's trace
    struct {             // the view player's egon, from the world's log (r_hlfx_egon_frame)
        uint32_t applied;   // log entries read (0 after a clear: the log is read again)
        int on;             // an egon_fire came and no egon_stop since
        double since;       // the first egon_fire of this firing
        int mode;           // the latest egon_fire's iparam2 (1 FIRE_WIDE)
        int fade;           // a wide firing stopped: its flare grows and fades from stop_time
        double stop_time;
        float stop_frame;   // the flare's frame then (it no longer cycles)
        vec3_t stop_end;    // where the eye's line met a wall at the stop
    } egon;
    r_hlpuff_t puffs[HLFX_MAX_PUFFS];   // Counter-Strike's wall puffs of the frame (r_hldecal.c)
    int num_puffs;
};

r_hlfx_t *r_hlfx_create(void)
{
    r_hlfx_t *fx = malloc(sizeof(r_hlfx_t));
    r_hlfx_clear(fx);
    return fx;
}

void r_hlfx_destroy(r_hlfx_t *fx)
{
    free(fx);
}

void r_hlfx_clear(r_hlfx_t *fx)
{
    if (!fx)
        return;
    const bsp_t *bsp = fx->bsp;
    memset(fx, 0, sizeof *fx);
    fx->bsp = bsp;
    fx->flash_time = -1e9;
}

static uint32_t rnd(r_hlfx_t *fx)
{
    uint32_t x = fx->rng ? fx->rng : 0x2545f491u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return fx->rng = x;
}

static float frand(r_hlfx_t *fx, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd(fx) & 0xffff) / 65535.0f;
}

static void rgb(uint8_t *o, int r, int g, int b)
{
    o[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
    o[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    o[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
}

static int finite3(const float *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]) && fabsf(v[0]) < 1e6f && fabsf(v[1]) < 1e6f &&
           fabsf(v[2]) < 1e6f;
}

// ---- the pools: the oldest slot is reused when full -----------------------------------

static r_hlparticle_t *particle(r_hlfx_t *fx, const vec3_t org, float life)
{
    r_hlparticle_t *p = &fx->p[fx->next_p];
    fx->next_p = (fx->next_p + 1) % HLFX_MAX_PARTICLES;
    memset(p, 0, sizeof *p);
    memcpy(p->org, org, sizeof(vec3_t));
    p->birth = (float)fx->now;
    p->die = (float)fx->now + life;
    return p;
}

static sprite_t *sprite(r_hlfx_t *fx, int model, const vec3_t org, float life)
{
    sprite_t *s = &fx->spr[fx->next_spr];
    fx->next_spr = (fx->next_spr + 1) % HLFX_MAX_SPRITES;
    memset(s, 0, sizeof *s);
    s->active = 1;
    s->s.model = model;
    memcpy(s->s.org, org, sizeof(vec3_t));
    s->s.scale = 1;
    s->s.amount = 255;
    s->s.rendermode = RM_ADDITIVE;
    rgb(s->s.color, 255, 255, 255);
    s->start = (float)fx->now;
    s->die = (float)fx->now + life;
    return s;
}

static beam_t *beam(r_hlfx_t *fx, float life)
{
    beam_t *b = &fx->beams[fx->next_beam];
    fx->next_beam = (fx->next_beam + 1) % HLFX_MAX_BEAMS;
    memset(b, 0, sizeof *b);
    b->active = 1;
    b->birth = (float)fx->now;
    b->die = (float)fx->now + (life > 0 ? life : 0.1f);   // life 0: the engine keeps it a frame
    b->b.amount = 255;
    return b;
}

static light_t *light(r_hlfx_t *fx, int key, const vec3_t org, float radius, float life, float decay,
                      float minlight)
{
    light_t *l = NULL;
    for (int i = 0; key > 0 && i < HLFX_MAX_LIGHTS && !l; i++)
        if (fx->lights[i].key == key)
            l = &fx->lights[i];
    if (!l) {
        l = &fx->lights[fx->next_light];
        fx->next_light = (fx->next_light + 1) % HLFX_MAX_LIGHTS;
    }
    memcpy(l->org, org, sizeof(vec3_t));
    l->radius = radius;
    l->decay = decay;
    l->start = (float)fx->now;
    l->die = (float)fx->now + life;
    l->minlight = minlight;
    l->key = key;
    l->rgb = 0;
    l->elight = 0;
    l->follow = 0;
    return l;
}

// ---- the engine's particle palette ------------------------------------------------------

// Particles of TE_LAVASPLASH, TE_TELEPORT, TE_EXPLOSION2, TE_LARGEFUNNEL, TE_TAREXPLOSION,
// TE_SHOWLINE and TE_LINE / TE_BOX name indices of the engine's particle palette. Xash3D builds it
// from the game's gfx/palette.lmp, else from its own copy of Half-Life's particle palette
// (imagelib's palette_hl, "used only for particle colors"), which is Quake's but for index 244:
// green (0, 255, 0) where Quake's is light blue. No GoldSrc file of the data holds it and r_hlfx
// loads nothing, so rows 0..14 are drawn from three of their colours (columns 0, 7 and 15, read
// from Quake's gfx/palette.lmp) with the rest in between (the rows' ramps are near straight:
// single entries can be a little off); row 15 (the full-brights) is irregular and kept whole.
static const uint8_t pal_rows[15][3][3] = {
    {{0, 0, 0}, {107, 107, 107}, {235, 235, 235}},      {{15, 11, 7}, {75, 55, 27}, {143, 111, 35}},
    {{11, 11, 15}, {71, 71, 103}, {139, 139, 203}},     {{0, 0, 0}, {47, 47, 7}, {107, 107, 15}},
    {{7, 0, 0}, {63, 0, 0}, {127, 0, 0}},               {{19, 19, 0}, {87, 67, 7}, {175, 103, 35}},
    {{35, 19, 7}, {127, 59, 43}, {255, 243, 27}},       {{11, 7, 0}, {111, 71, 51}, {227, 179, 151}},
    {{171, 139, 163}, {95, 63, 75}, {15, 7, 7}},        {{187, 115, 159}, {107, 59, 75}, {15, 7, 7}},
    {{219, 195, 187}, {123, 99, 83}, {15, 11, 7}},      {{111, 131, 123}, {55, 75, 63}, {7, 11, 7}},
    {{255, 243, 27}, {139, 115, 7}, {11, 7, 0}},        {{0, 0, 255}, {47, 47, 143}, {11, 11, 15}},
    {{43, 0, 0}, {163, 39, 11}, {247, 211, 139}},
};
static const uint8_t pal_row15[16][3] = {
    {167, 123, 59}, {183, 155, 55}, {199, 195, 55}, {231, 227, 87}, {0, 255, 0},   {171, 231, 255},
    {215, 255, 255}, {103, 0, 0},   {139, 0, 0},    {179, 0, 0},    {215, 0, 0},   {255, 0, 0},
    {255, 243, 147}, {255, 247, 199}, {255, 255, 255}, {159, 91, 83},
};

void r_hlfx_palette(int index, uint8_t *o)
{
    index &= 255;
    if (index >= 240) {
        memcpy(o, pal_row15[index - 240], 3);
        return;
    }
    const uint8_t(*row)[3] = pal_rows[index >> 4];
    int c = index & 15, a = c < 7 ? 0 : 1, span = c < 7 ? 7 : 8, at = c < 7 ? c : c - 7;
    for (int k = 0; k < 3; k++)
        o[k] = (uint8_t)((row[a][k] * (span - at) + row[a + 1][k] * at + span / 2) / span);
}

// R_LookupColor: the particle palette's index nearest an RGB colour, by the engine's weights
// (0.2 red, 0.5 green, 0.3 blue), for TE_LINE and TE_BOX.
static int lookup_color(int r, int g, int b)
{
    int best = 0;
    float bd = 1e30f;
    for (int i = 0; i < 256; i++) {
        uint8_t c[3];
        r_hlfx_palette(i, c);
        float dr = (float)(r - c[0]), dg = (float)(g - c[1]), db = (float)(b - c[2]);
        float d = dr * dr * 0.2f + dg * dg * 0.5f + db * db * 0.3f;
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    return best;
}

// ---- the engine's particle effects (R_LavaSplash, R_TeleportSplash, ...) -------------------

// Quake's pt_slowgrav / pt_grav: sv_gravity x 0.05 (40 units / s^2 at 800)
#define SLOWGRAV_PART 40.0f
// HUD_TempEntUpdate's FTENT_SLOWGRAVITY: half of sv_gravity
#define SLOWGRAV_TENT 400.0f

static void normalize_to(vec3_t v, float len)
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++)
        v[k] = l > 0 ? v[k] / l * len : 0;
}

// R_LavaSplash: a 32 x 32 grid of lava drops (palette 224..231) thrown up and out, 2..2.62 s.
static void lava_splash(r_hlfx_t *fx, const vec3_t org)
{
    for (int i = -16; i < 16; i++)
        for (int j = -16; j < 16; j++) {
            vec3_t dir = {(float)j * 8 + frand(fx, 0, 7), (float)i * 8 + frand(fx, 0, 7), 256}, o;
            o[0] = org[0] + dir[0];
            o[1] = org[1] + dir[1];
            o[2] = org[2] + frand(fx, 0, 63);
            r_hlparticle_t *p = particle(fx, o, frand(fx, 2.0f, 2.62f));
            normalize_to(dir, frand(fx, 50, 113));
            memcpy(p->vel, dir, sizeof(vec3_t));
            p->gravity = SLOWGRAV_PART;
            r_hlfx_palette(224 + (int)(rnd(fx) % 8), p->color);
        }
}

// R_TeleportSplash: a box of 8 x 8 x 14 grey sparks (palette 7..14) flying out, 0.2..0.34 s.
static void teleport_splash(r_hlfx_t *fx, const vec3_t org)
{
    for (int i = -16; i < 16; i += 4)
        for (int j = -16; j < 16; j += 4)
            for (int k = -24; k < 32; k += 4) {
                vec3_t dir = {(float)j * 8, (float)i * 8, (float)k * 8}, o;
                o[0] = org[0] + (float)i + (float)(rnd(fx) & 3);
                o[1] = org[1] + (float)j + (float)(rnd(fx) & 3);
                o[2] = org[2] + (float)k + (float)(rnd(fx) & 3);
                r_hlparticle_t *p = particle(fx, o, 0.2f + 0.02f * (float)(rnd(fx) & 7));
                normalize_to(dir, 50 + (float)(rnd(fx) & 63));
                memcpy(p->vel, dir, sizeof(vec3_t));
                p->gravity = SLOWGRAV_PART;
                r_hlfx_palette(7 + (int)(rnd(fx) & 7), p->color);
            }
}

// R_ParticleExplosion2: 512 pt_blob particles +-16 about the point, thrown out at up to 256 u/s,
// 0.3 s. The message's colours (start + i % len) are only their first: GoldSrc's pt_blob (Xash3D's
// non-Quake branch, as TE_TAREXPLOSION's blobs) steps the colour through the spark ramp 10 times
// a second from its first, slows them by half of their speed a second and pulls them down at 5 x
// slow gravity. Quake's growing blobs in the message's colours are Xash3D's Quake-compatible mode.
static void explosion2(r_hlfx_t *fx, const vec3_t org, int start, int len)
{
    len = len > 0 ? len : 1;
    for (int i = 0; i < 512; i++) {
        vec3_t o;
        for (int k = 0; k < 3; k++)
            o[k] = org[k] + frand(fx, -16, 16);
        r_hlparticle_t *p = particle(fx, o, 0.3f);
        for (int k = 0; k < 3; k++)
            p->vel[k] = frand(fx, -256, 256);
        p->gravity = 5 * SLOWGRAV_PART;
        p->grow = -0.5f;
        p->ramp = HLFX_RAMP_SPARK;
        p->blob = 1;   // pt_blob
        r_hlfx_palette(start + i % len, p->color);   // the message's (the ramp's colours draw)
    }
}

// R_Implosion: count tracers from a box of `radius` above and around the point, each reaching
// it at the end of its life (the default tracer colour, gTracerColors[4]).
static void implosion(r_hlfx_t *fx, const vec3_t end, float radius, int count, float life)
{
    float dist = radius / 100.0f;
    life = life > 0 ? life : 0.1f;
    for (int i = 0; i < count; i++) {
        vec3_t d = {dist * frand(fx, -100, 100), dist * frand(fx, -100, 100), dist * frand(fx, 0, 100)}, o;
        for (int k = 0; k < 3; k++)
            o[k] = end[k] + d[k];
        r_hlparticle_t *p = particle(fx, o, life);
        for (int k = 0; k < 3; k++)
            p->vel[k] = -d[k] / life;
        p->additive = 1;
        rgb(p->color, 204, 204, 102);
    }
}

// R_LargeFunnel and R_FunnelSprite: a 16 x 16 grid 32 units apart, 100..800 units up, flowing
// down into the point (flag 1 reversed: out of it), green particles (palette 244) and glow
// sprites (200, fading over the last 0.5 s).
static void large_funnel(r_hlfx_t *fx, const vec3_t org, int model, int reverse)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = -8; i < 8; i++)
            for (int j = -8; j < 8; j++) {
                vec3_t dest = {(float)i * 32 + org[0], (float)j * 32 + org[1], org[2] + frand(fx, 100, 800)};
                vec3_t from, dir;
                memcpy(from, reverse ? org : dest, sizeof from);
                for (int k = 0; k < 3; k++)
                    dir[k] = (reverse ? dest[k] : org[k]) - from[k];
                float vel = dest[2] / 8 < 64 ? 64 : dest[2] / 8;
                float dist = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
                vel += frand(fx, 64, 128);
                normalize_to(dir, vel);
                if (pass == 0) {
                    r_hlparticle_t *p = particle(fx, from, dist / vel);
                    memcpy(p->vel, dir, sizeof(vec3_t));
                    r_hlfx_palette(244, p->color);
                } else if (model > 0) {
                    // FTENT_FADEOUT at fadeSpeed 2: the last 0.5 s of its dist / vel - 0.5 + 0.5
                    float life = dist / vel;
                    sprite_t *s = sprite(fx, model, from, life > 0.05f ? life : 0.05f);
                    memcpy(s->vel, dir, sizeof(vec3_t));
                    s->s.rendermode = RM_GLOW;
                    s->s.amount = 200;
                    s->fade = 0.5f;
                }
            }
}

// R_Sprite_Trail: count glow sprites on the line, thrown along it at `speed` with a random
// part, falling slowly, for life + 0..4 s, then fading out over 2 s (fadeSpeed 0.5); random
// frames that cycle. Speed and randomness as the engine passes them (the bytes as they are).
static void sprite_trail(r_hlfx_t *fx, const vec3_t start, const vec3_t end, int model, int count, float life,
                         float scale, float amp, float speed)
{
    vec3_t delta = {end[0] - start[0], end[1] - start[1], end[2] - start[2]}, dir;
    memcpy(dir, delta, sizeof dir);
    normalize_to(dir, 1);
    amp /= 256.0f;
    for (int i = 0; i < count; i++) {
        vec3_t pos;
        for (int k = 0; k < 3; k++)
            pos[k] = start[k] + (count > 1 ? (float)i / ((float)count - 1) : 0) * delta[k];
        float t = life + frand(fx, 0, 4);
        sprite_t *s = sprite(fx, model, pos, t + 2);
        for (int k = 0; k < 3; k++)
            s->vel[k] = dir[k] * speed + frand(fx, -127, 128) * amp;
        s->gravity = SLOWGRAV_TENT;
        s->s.scale = scale;
        s->s.rendermode = RM_GLOW;
        s->fade = 2;
        s->frame0 = (float)(rnd(fx) & 63);
        s->framerate = 10;
        s->s.anim = HLFX_ANIM_LOOP;
    }
}

// R_Spray (TE_SPRAY) and R_Sprite_Spray (TE_SPRITE_SPRAY: glow, speed x 2): count sprites
// thrown along dir with `spread` % noise (more upward), speed x 0.8..1.2, falling slowly;
// glow ones at random frames, 0.35 s then fading over 0.5 s; others 10 frames a second.
static void spray(r_hlfx_t *fx, const vec3_t pos, const vec3_t dir, int model, int count, float speed, int spread,
                  int rendermode)
{
    float noise = (float)spread / 100.0f, znoise = noise * 1.5f > 1 ? 1 : noise * 1.5f;
    int glow = rendermode == RM_GLOW;
    for (int i = 0; i < count; i++) {
        sprite_t *s = sprite(fx, model, pos, glow ? 0.85f : 0.35f);
        s->s.rendermode = rendermode;
        s->gravity = SLOWGRAV_TENT;
        if (glow) {
            s->frame0 = (float)(rnd(fx) & 63);
            s->s.anim = HLFX_ANIM_LOOP;
            s->fade = 0.5f;
        } else {
            s->framerate = 10;
            s->s.anim = HLFX_ANIM_HOLD;
        }
        s->vel[0] = dir[0] + frand(fx, -noise, noise);
        s->vel[1] = dir[1] + frand(fx, -noise, noise);
        s->vel[2] = dir[2] + frand(fx, 0, znoise);
        float sp = frand(fx, speed * 0.8f, speed * 1.2f);
        for (int k = 0; k < 3; k++)
            s->vel[k] *= sp;
    }
}

// R_FizzEffect: density + 1 bubbles at random spots of the floor of the entity's brush model,
// rising 80..140 u/s to its top (gone 0.1 s before), drifting along its yaw at the speed its
// render colour holds (r << 8 | g, negative when b), alpha-tested, scale 1 / (2..5), random
// frames. The bounds are the level's model's (absolute, as the engine takes them).
static void fizz(r_hlfx_t *fx, const world_t *w, int ent, int model, int density)
{
    if (!fx->bsp || ent <= 0 || ent >= w->num_entities || w->entities[ent].seq != w->seq)
        return;
    const entity_state_t *st = &w->entities[ent].cur;
    int mi = st->modelindex;
    if (mi <= 0 || mi >= w->num_models || w->models[mi][0] != '*')
        return;
    int sub = atoi(w->models[mi] + 1);
    if (sub <= 0 || sub >= fx->bsp->num_models)
        return;
    const bsp_model_t *bm = &fx->bsp->models[sub];
    if (!finite3(bm->mins) || !finite3(bm->maxs))
        return;
    int count = density + 1;
    float height = bm->maxs[2] - bm->mins[2], width = bm->maxs[0] - bm->mins[0], depth = bm->maxs[1] - bm->mins[1];
    if (!(height > 0 && width >= 1 && depth >= 1))
        return;
    int c[3];
    for (int k = 0; k < 3; k++)
        c[k] = isfinite(st->rendercolor[k]) ? (int)fminf(fmaxf(st->rendercolor[k], 0), 255) : 0;
    float speed = (float)(c[0] << 8 | c[1]);
    if (c[2] != 0)
        speed = -speed;
    float yaw = isfinite(st->angles[1]) ? st->angles[1] * (float)M_PI / 180 : 0;
    for (int i = 0; i < count; i++) {
        vec3_t o = {bm->mins[0] + (float)(rnd(fx) % (uint32_t)width), bm->mins[1] + (float)(rnd(fx) % (uint32_t)depth),
                    bm->mins[2]};
        float zspeed = (float)(80 + rnd(fx) % 61);
        float life = height / zspeed - 0.1f;
        if (life <= 0)
            continue;
        sprite_t *s = sprite(fx, model, o, life);
        s->vel[0] = cosf(yaw) * speed;
        s->vel[1] = sinf(yaw) * speed;
        s->vel[2] = zspeed;
        s->frame0 = (float)(rnd(fx) & 63);
        s->s.anim = HLFX_ANIM_LOOP;
        s->s.scale = 1.0f / frand(fx, 2, 5);
        s->s.rendermode = RM_SOLID;
    }
}

// Whether entity n is a player drawn in this frame.
static int player_here(const world_t *w, int n)
{
    int maxc = w->maxclients > 0 ? w->maxclients : WORLD_MAX_PLAYERS;
    return n > 0 && n <= maxc && n < w->num_entities && w->entities[n].seq == w->seq;
}

// R_PlayerSprites: count sprites around a player (+-10, +-10, -20..36); the first flies off,
// the others stay with the player; normal mode, 20 frames a second, 0.35 s.
static void player_sprites(r_hlfx_t *fx, const world_t *w, int client, int model, int count)
{
    if (!player_here(w, client))
        return;
    const float *po = w->entities[client].cur.origin;
    for (int i = 0; i < count; i++) {
        vec3_t pos = {po[0] + frand(fx, -10, 10), po[1] + frand(fx, -10, 10), po[2] + frand(fx, -20, 36)};
        sprite_t *s = sprite(fx, model, pos, 0.35f);
        s->s.rendermode = RM_NORMAL;
        s->framerate = 20;
        s->s.anim = HLFX_ANIM_HOLD;
        for (int k = 0; k < 3; k++)
            s->offset[k] = pos[k] - po[k];
        if (i != 0) {
            s->follow = client;
            s->attached = client;
        } else {
            memcpy(s->vel, s->offset, sizeof(vec3_t));
            normalize_to(s->vel, 60);
            s->vel[1] = frand(fx, 20, 60);
        }
    }
}

// R_FireField: count sprites in a cube (flag 16: a square) of `radius`; flag 8 alpha-tested at
// 128, 32 additive at 80, else normal; life + -0.25..0.5 s; flag 4: 15 frames a second looping,
// else the whole animation over the life; flag 1 all, flag 2 half of them drift up 10..30 u/s.
static void fire_field(r_hlfx_t *fx, const vec3_t org, float radius, int model, int count, int flags, float life)
{
    for (int i = 0; i < count; i++) {
        vec3_t pos = {org[0] + frand(fx, -radius, radius), org[1] + frand(fx, -radius, radius), org[2]};
        if (!(flags & 16))
            pos[2] += frand(fx, -radius, radius);
        float t = life + frand(fx, -0.25f, 0.5f);
        sprite_t *s = sprite(fx, model, pos, t > 0.01f ? t : 0.01f);
        if (flags & 8) {
            s->s.rendermode = RM_SOLID;
            s->s.amount = 128;
        } else if (flags & 32) {
            s->s.amount = 80;
        } else {
            s->s.rendermode = RM_NORMAL;
        }
        if (flags & 4) {
            s->framerate = 15;
            s->s.anim = HLFX_ANIM_LOOP;
        } else {
            s->framerate = t > 0.01f ? 1.0f / t : 0;   // a fraction of the animation a second
            s->s.anim = HLFX_ANIM_SPREAD;
        }
        if ((flags & 1) || ((flags & 2) && !(rnd(fx) & 1)))
            s->vel[2] = frand(fx, 10, 30);
    }
}

// ---- temp entities ---------------------------------------------------------------------

// R_RunParticleEffect's dust: count grey points drifting, gone within half a second.
static void dust(r_hlfx_t *fx, const vec3_t org, int count)
{
    for (int i = 0; i < count; i++) {
        vec3_t o;
        for (int k = 0; k < 3; k++)
            o[k] = org[k] + frand(fx, -8, 8);
        r_hlparticle_t *p = particle(fx, o, 0.1f * (float)(rnd(fx) % 5));
        for (int k = 0; k < 3; k++)
            p->vel[k] = frand(fx, -15, 15);
        p->gravity = 40;
        int g = 60 + (int)(rnd(fx) % 40);
        rgb(p->color, g, g, g);
    }
}

// R_SparkShower: hot streaks thrown out and falling, additive.
static void sparks(r_hlfx_t *fx, const vec3_t org)
{
    for (int i = 0; i < 16; i++) {
        r_hlparticle_t *p = particle(fx, org, frand(fx, 0.3f, 0.6f));
        for (int k = 0; k < 2; k++)
            p->vel[k] = frand(fx, -150, 150);
        p->vel[2] = frand(fx, 0, 200);
        p->gravity = 800;
        p->additive = 1;
        rgb(p->color, 255, 200 + (int)(rnd(fx) % 56), 100);
    }
}

// R_FlickerParticles (TE_EXPLOSION's): 15 pt_blob2 particles from the point, +-32 u/s across and
// 80..143 up, 2 s; GoldSrc's pt_blob2 (as TE_TAREXPLOSION's blobs): the spark ramp from palette
// 254, the speed falling by half of itself a second, 5 x slow gravity (200 u/s^2).
static void flicker(r_hlfx_t *fx, const vec3_t org)
{
    for (int i = 0; i < 15; i++) {
        r_hlparticle_t *p = particle(fx, org, 2.0f);
        for (int k = 0; k < 2; k++)
            p->vel[k] = frand(fx, -32, 32);
        p->vel[2] = frand(fx, 80, 143);
        p->gravity = 5 * SLOWGRAV_PART;
        p->grow = -0.5f;
        p->ramp = HLFX_RAMP_SPARK;
        p->blob = 2;   // pt_blob2
        r_hlfx_palette(254, p->color);
    }
}

// Blood colour: the game sends a palette index of Half-Life's own palette; its red (70)
// and yellow (195, 247) blood are what games send.
static void blood_rgb(uint8_t *o, int index)
{
    if (index == 195 || index == 247)
        rgb(o, 200, 180, 0);
    else
        rgb(o, 120, 0, 0);
}

static void blood(r_hlfx_t *fx, const vec3_t org, const vec3_t dir, int color, int speed, int stream)
{
    int n = stream ? (speed > 0 ? (speed > 255 ? 255 : speed) : 20) : 40;
    for (int i = 0; i < n; i++) {
        r_hlparticle_t *p = particle(fx, org, frand(fx, 0.5f, 1.5f));
        float sp = stream ? (float)speed * frand(fx, 0.6f, 1.4f) : frand(fx, 20, 80);
        for (int k = 0; k < 3; k++)
            p->vel[k] = dir[k] * sp + frand(fx, -20, 20);
        p->gravity = 800;
        blood_rgb(p->color, color);
    }
}

// The tracer colours (r_efx's gTracerColors); 4 is the cvars' default yellow.
static const uint8_t tracer_colors[12][3] = {
    {255, 255, 255}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {204, 204, 102}, {255, 167, 17},
    {255, 130, 90}, {55, 60, 144}, {255, 130, 90}, {255, 140, 90}, {200, 130, 90}, {255, 120, 70}};

// A tracer: a streak from start toward end at 6000 units a second (tracerspeed).
static void tracer(r_hlfx_t *fx, const vec3_t start, const vec3_t end, int color, float length);

void r_hlfx_tracer(r_hlfx_t *fx, const vec3_t start, const vec3_t end)
{
    if (fx && finite3(start) && finite3(end))
        tracer(fx, start, end, 4, 64);   // R_TracerEffect, as TE_TRACER
}

static void tracer(r_hlfx_t *fx, const vec3_t start, const vec3_t end, int color, float length)
{
    vec3_t d = {end[0] - start[0], end[1] - start[1], end[2] - start[2]};
    float dist = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(dist > 1))
        return;
    float life = dist / 6000.0f;
    beam_t *b = beam(fx, life < 0.02f ? 0.02f : life);
    memcpy(b->b.start, start, sizeof(vec3_t));
    float len = length > 0 ? length : 64;
    for (int k = 0; k < 3; k++)
        b->b.end[k] = start[k] + d[k] / dist * (len < dist ? len : dist);
    b->b.width = 0.5f;   // drawn 2 x width: a streak 1 unit thick
    b->b.model = 0;
    memcpy(b->b.color, tracer_colors[color >= 0 && color < 12 ? color : 4], 3);
}

// The precache index of a model named by the client dll (EV_FindModelIndex), 0 when none.
static int model_named(const world_t *w, const char *name)
{
    for (int i = 1; i < w->num_models && w->models; i++)
        if (!strcmp(w->models[i], name))
            return i;
    return 0;
}

void r_hlfx_event_beam(r_hlfx_t *fx, const world_t *w, const vec3_t start, const vec3_t end, const char *sprite,
                       float life, float width, float brightness, const uint8_t rgb3[3])
{
    int model = fx ? model_named(w, sprite) : 0;
    if (!model || !finite3(start) || !finite3(end))
        return;
    beam_t *b = beam(fx, life);
    memcpy(b->b.start, start, sizeof(vec3_t));
    memcpy(b->b.end, end, sizeof(vec3_t));
    b->b.model = model;
    b->b.width = width;
    rgb(b->b.color, rgb3[0], rgb3[1], rgb3[2]);
    b->b.amount = brightness > 255 ? 255 : brightness > 0 ? (int)brightness : 0;
}

// CL_TempSprite's fading (FTENT_FADEOUT): whole for its life, then renderamt x (1 + over x
// fadeSpeed), fadeSpeed 0.5: gone 2 s after its life. No FTENT_SPRANIMATE: frame 0.
void r_hlfx_event_glow(r_hlfx_t *fx, const world_t *w, const vec3_t org, const char *name, float scale,
                       float amount, float life)
{
    int model = fx ? model_named(w, name) : 0;
    if (!model || !finite3(org) || !(life >= 0) || !(amount > 0))
        return;
    sprite_t *s = sprite(fx, model, org, (life < 30 ? life : 30) + 2);
    s->s.scale = scale;
    s->s.amount = amount >= 1 ? 255 : (int)(amount * 255);
    s->s.rendermode = RM_GLOW;
    s->fade = 2;
}

void r_hlfx_event_trail(r_hlfx_t *fx, const world_t *w, const vec3_t start, const vec3_t end, const char *sprite,
                        int count, float life, float scale, float amplitude, float speed)
{
    int model = fx ? model_named(w, sprite) : 0;
    if (model && finite3(start) && finite3(end) && count > 0)
        sprite_trail(fx, start, end, model, count > 255 ? 255 : count, life, scale, amplitude, speed);
}

static void beam_args(beam_t *b, int model, int width10, const int32_t *rgb3, int bright)
{
    b->b.model = model;
    b->b.width = (float)width10 * 0.1f;
    rgb(b->b.color, rgb3[0], rgb3[1], rgb3[2]);
    // the message's brightness byte scales the colour the beam adds: 0 adds nothing (the
    // engine's R_BeamSetup keeps brightness / 255, and its beams draw colour x brightness)
    b->b.amount = bright < 0 ? 0 : bright > 255 ? 255 : bright;
}

// The message's noise byte (amplitude x 100) and speed (CL_ParseViewBeam: x 0.01, x 0.1).
static void beam_noise(beam_t *b, int noise, float speed)
{
    b->b.amplitude = (float)(noise < 0 ? 0 : noise > 255 ? 255 : noise) * 0.01f;
    b->b.speed = speed >= 0 && speed < 1000 ? speed : 0;
}

// The message's start frame byte and frame rate byte (CL_ParseTEnt: x 0.1 frames a second).
static void beam_frames(beam_t *b, int frame, int rate10)
{
    b->b.frame = (float)(frame < 0 ? 0 : frame > 255 ? 255 : frame);
    b->b.framerate = (float)(rate10 < 0 ? 0 : rate10 > 255 ? 255 : rate10) * 0.1f;
}

static void entity_origin(const world_t *w, int n, vec3_t out)
{
    if (n > 0 && n < w->num_entities)
        memcpy(out, w->entities[n].cur.origin, sizeof(vec3_t));
}

// Now as a float no later than now (an effect ended now is gone at now).
static float now_f(const r_hlfx_t *fx)
{
    float f = (float)fx->now;
    return (double)f > fx->now ? nextafterf(f, -INFINITY) : f;
}

// A model index the level precached (CL_ModelHandle: anything else makes nothing).
static int model_ok(const world_t *w, int model)
{
    return model > 0 && model < w->num_models;
}

// ---- TE_TAREXPLOSION, TE_STREAK_SPLASH, TE_LINE, TE_BOX, TE_SHOWLINE, the circle beams --------

// R_BlobExplosion: 1024 blobs +-16 about the point, up to 256 u/s on each axis, 1..1.4 s. In
// GoldSrc (Xash3D's non-Quake branch of pt_blob / pt_blob2) a blob's colour steps through the
// spark ramp 10 times a second, its speed falls by half of itself a second and it falls at
// 5 x slow gravity (0.25 x sv_gravity: 200 u/s^2).
static void tar_explosion(r_hlfx_t *fx, const vec3_t org)
{
    for (int i = 0; i < 1024; i++) {
        vec3_t o;
        for (int k = 0; k < 3; k++)
            o[k] = org[k] + frand(fx, -16, 16);
        r_hlparticle_t *p = particle(fx, o, frand(fx, 1.0f, 1.4f));
        for (int k = 0; k < 3; k++)
            p->vel[k] = frand(fx, -256, 256);
        p->gravity = 5 * SLOWGRAV_PART;
        p->grow = -0.5f;
        p->ramp = HLFX_RAMP_SPARK;
        p->blob = (i & 1) ? 1 : 2;   // odd ones pt_blob, even ones pt_blob2
        r_hlfx_palette(254, p->color);   // the ramp's first
    }
}

// A pt_grav tracer (R_AllocTracer's): 0.1..0.5 s, sv_gravity, the horizontal speed falling by 0.9
// of itself a second, additive, fading over its last 0.5 s; `length` its streak's (ramp) scale.
static r_hlparticle_t *grav_tracer(r_hlfx_t *fx, const vec3_t org, const uint8_t *color, float length)
{
    r_hlparticle_t *p = particle(fx, org, frand(fx, 0.1f, 0.5f));
    p->gravity = 800;
    p->grow = -0.9f;
    p->grow_xy = 1;
    p->streak = length;
    p->additive = 1;
    p->fade = 1;
    rgb(p->color, color[0], color[1], color[2]);
    return p;
}

// R_StreakSplash: count tracers from the point along dir x speed, each with one random
// -random..random added to all three axes; 0.1..0.5 s; pt_grav tracers: sv_gravity (800), the
// horizontal speed falling by 0.9 of itself a second, fading over their last 0.5 s; the tracer
// colour table (gTracerColors, out of range: 4), streaks of vel x min(life left, 0.1).
static void streak_splash(r_hlfx_t *fx, const vec3_t org, const vec3_t dir, int color, int count, float speed,
                          float random)
{
    const uint8_t *c = tracer_colors[color >= 0 && color < 12 ? color : 4];
    count = count < 0 ? 0 : count > HLFX_MAX_PARTICLES ? HLFX_MAX_PARTICLES : count;
    for (int i = 0; i < count; i++) {
        r_hlparticle_t *p = grav_tracer(fx, org, c, 1);
        float add = frand(fx, -random, random);
        for (int k = 0; k < 3; k++)
            p->vel[k] = dir[k] * speed + add;
    }
}

// R_SparkStreaks: count tracers from the point, each axis -vmax..vmax (the engine's velocityMin,
// velocityMax), 0.1..0.5 s, colour 5 of gTracerColors, half a tracer's length (ramp 0.5),
// falling as pt_grav tracers do (the streak splash's rules).
static void spark_streaks(r_hlfx_t *fx, const vec3_t org, int count, float vmin, float vmax)
{
    for (int i = 0; i < count; i++) {
        r_hlparticle_t *p = grav_tracer(fx, org, tracer_colors[5], 0.5f);
        for (int k = 0; k < 3; k++)
            p->vel[k] = frand(fx, vmin, vmax);
    }
}

void r_hlfx_bullet_impact(r_hlfx_t *fx, const vec3_t pos, const vec3_t vieworg)
{
    if (!fx || !finite3(pos))
        return;
    float dist = 1000;
    if (vieworg && finite3(vieworg)) {
        vec3_t d = {pos[0] - vieworg[0], pos[1] - vieworg[1], pos[2] - vieworg[2]};
        dist = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        dist = dist > 1000 ? 1000 : dist;
    }
    int quantity = (int)((1000 - dist) / 100);
    quantity = quantity ? quantity : 1;
    int index = 30 * quantity / 100;   // the palette's darkest greys (0..3)
    spark_streaks(fx, pos, 2, -200, 200);
    for (int i = 0; i < quantity * 4; i++) {
        r_hlparticle_t *p = particle(fx, pos, 0.5f);
        float sp = frand(fx, 50, 100);
        for (int k = 0; k < 3; k++)
            p->vel[k] = frand(fx, -1, 1) * sp;
        p->gravity = SLOWGRAV_PART;   // pt_grav
        r_hlfx_palette(index, p->color);
    }
}

void r_hlfx_event_sparks(r_hlfx_t *fx, const vec3_t pos)
{
    if (fx && finite3(pos))
        sparks(fx, pos);
}

void r_hlfx_event_streaks(r_hlfx_t *fx, const vec3_t pos, const vec3_t dir, int color, int count, float speed,
                          float random)
{
    if (fx && finite3(pos) && finite3(dir) && isfinite(speed) && isfinite(random))
        streak_splash(fx, pos, dir, color, count, speed, random);
}

// PM_ParticleLine: a still particle every `step` units from start to end (both ends when the
// length is a whole number of steps), of palette colour `index`, for `life` seconds; at most
// `budget` of them (the engine stops when its pool is out). Returns how many were made.
static int particle_line(r_hlfx_t *fx, const vec3_t start, const vec3_t end, int index, float life, float step,
                         int budget)
{
    vec3_t d = {end[0] - start[0], end[1] - start[1], end[2] - start[2]};
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    int n = 0;
    if (!(len < 65536))
        return 0;
    for (float at = 0; at <= len && n < budget; at += step, n++) {
        float f = len > 0 ? at / len : 0;
        vec3_t o = {start[0] + d[0] * f, start[1] + d[1] * f, start[2] + d[2] * f};
        r_hlparticle_t *p = particle(fx, o, life);
        r_hlfx_palette(index, p->color);
    }
    return n;
}

// R_ParticleBox: the box's 12 edges as particle lines (the engine draws its 6 faces' outlines,
// each edge twice at the same places).
static void particle_box(r_hlfx_t *fx, const vec3_t lo, const vec3_t hi, int index, float life)
{
    int budget = HLFX_MAX_PARTICLES;
    for (int i = 0; i < 8; i++)
        for (int axis = 0; axis < 3; axis++) {
            if (i & (1 << axis))
                continue;   // each edge once: from the corner with that axis low
            vec3_t a = {(i & 1) ? hi[0] : lo[0], (i & 2) ? hi[1] : lo[1], (i & 4) ? hi[2] : lo[2]}, b;
            memcpy(b, a, sizeof b);
            b[axis] = hi[axis];
            budget -= particle_line(fx, a, b, index, life, 2, budget);
        }
}

// R_BeamCirclePoints (TE_BEAMTORUS / DISK / CYLINDER): a circle beam about `start` whose radius
// grows with its age x (end - start).z (R_DrawTorus etc. take freq x delta[2]; freq counts the
// seconds from 0 when speed is 0, speed x the client clock otherwise, where only the texture's
// scroll is meant: here it counts from 0 for every speed). Width: the byte itself (not 0.1's).
static void circle_beam(r_hlfx_t *fx, const world_fx_event_t *te, int shape)
{
    const int32_t *a = te->args;
    beam_t *b = beam(fx, (float)a[3] * 0.1f);
    memcpy(b->b.start, te->origin, sizeof(vec3_t));
    memcpy(b->b.end, te->end, sizeof(vec3_t));
    b->dz = te->end[2] - te->origin[2];
    beam_args(b, a[0], a[4] * 10, a + 6, a[9]);
    beam_frames(b, a[1], a[2]);
    b->b.shape = shape;
    b->b.height = (float)a[4];
}

static void temp_entity(r_hlfx_t *fx, const world_t *w, const world_fx_event_t *te)
{
    const int32_t *a = te->args;
    const float *org = te->origin;
    if (!finite3(te->origin) || !finite3(te->end) || !finite3(te->dir))
        return;
    switch (te->raw_type) {
    case 3: {   // TE_EXPLOSION: flags 1 no additive, 2 no light, 4 no sound (decoder), 8 no particles,
                // 16 alpha-tested; R_Sprite_Explode: amount 180 (0xb4), 255 when not additive
        sprite_t *s = sprite(fx, a[0], org, 5);
        s->s.scale = (float)a[1] * 0.1f;
        s->framerate = (float)a[2];
        s->s.rendermode = (a[3] & 1) ? RM_NORMAL : (a[3] & 16) ? RM_SOLID : RM_ADDITIVE;
        s->s.amount = (a[3] & 1) ? 255 : 180;
        s->s.org[2] += 10;   // R_Sprite_Explode: 10 units up, rising 8 u/s (baseline.origin[2])
        s->vel[2] = 8;
        if (!(a[3] & 2)) {   // R_Explosion: a pale yellow flash and a red glow that lasts a second
            light(fx, 0, org, 200, 0.01f, 800, 0)->rgb = 0x1000000u | 250u << 16 | 250u << 8 | 150u;
            light(fx, 0, org, 150, 1.0f, 200, 0)->rgb = 0x1000000u | 255u << 16 | 190u << 8 | 40u;
        }
        if (!(a[3] & 8))
            flicker(fx, org);
        break;
    }
    case 17: {   // TE_SPRITE: additive at its brightness, its frames at 10 a second
        sprite_t *s = sprite(fx, a[0], org, 5);
        s->s.scale = (float)a[1] * 0.1f;
        s->s.amount = a[2];
        s->framerate = 10;
        break;
    }
    case 23: {   // TE_GLOWSPRITE: glow mode, fading out over its life
        float life = (float)a[1] * 0.1f;
        sprite_t *s = sprite(fx, a[0], org, life > 0 ? life : 0.1f);
        s->s.scale = (float)a[2] * 0.1f;
        s->s.amount = a[3];
        s->s.rendermode = RM_GLOW;
        s->fade = life;
        break;
    }
    case 5: {   // TE_SMOKE: rising, its frames at its framerate
        sprite_t *s = sprite(fx, a[0], org, 5);
        s->s.scale = (float)a[1] * 0.1f;
        s->framerate = (float)a[2];
        s->s.rendermode = RM_TEXTURE;
        s->s.amount = 200;
        s->vel[2] = 30;
        break;
    }
    case 2: case 109:   // TE_GUNSHOT, TE_GUNSHOTDECAL (the decal is not drawn)
        dust(fx, org, 20);
        break;
    case 126: {   // TE_MULTIGUNSHOT: the engine traces each pellet; here its dust at the origin
        int n = a[0] > 0 && a[0] < 64 ? a[0] : 1;
        dust(fx, org, 8 * n);
        break;
    }
    case 9: case 111:   // TE_SPARKS, TE_ARMOR_RICOCHET
        sparks(fx, org);
        break;
    case 101: case 103:   // TE_BLOODSTREAM, TE_BLOOD
        blood(fx, org, te->dir, a[0], a[1], te->raw_type == 101);
        break;
    case 115: {   // TE_BLOODSPRITE: the spray sprite, and drops
        sprite_t *s = sprite(fx, a[0], org, 0.5f);
        s->s.scale = (float)a[3] * 0.1f;
        s->s.rendermode = RM_TEXTURE;
        s->framerate = 10;
        static const vec3_t up = {0, 0, 1};
        blood(fx, org, up, a[2], 0, 0);
        break;
    }
    case 0: case 1: case 8: case 22: case 24: {   // beams
        beam_t *b;
        if (te->raw_type == 0) {
            b = beam(fx, (float)a[3] * 0.1f);
            memcpy(b->b.start, org, sizeof(vec3_t));
            memcpy(b->b.end, te->end, sizeof(vec3_t));
            beam_args(b, a[0], a[4], a + 6, a[9]);
            beam_noise(b, a[5], (float)a[10] * 0.1f);
            beam_frames(b, a[1], a[2]);
        } else if (te->raw_type == 1) {   // from an entity to a point
            b = beam(fx, (float)a[4] * 0.1f);
            b->b.start_ent = a[0];
            entity_origin(w, a[0], b->b.start);
            memcpy(b->b.end, org, sizeof(vec3_t));
            beam_args(b, a[1], a[5], a + 7, a[10]);
            beam_noise(b, a[6], (float)a[11] * 0.1f);
            beam_frames(b, a[2], a[3]);
        } else if (te->raw_type == 22) {   // follows an entity: from where it was to where it is
            b = beam(fx, (float)a[2] * 0.1f);
            entity_origin(w, a[0], b->b.start);
            memcpy(b->b.end, b->b.start, sizeof(vec3_t));
            b->b.end_ent = a[0];
            beam_args(b, a[1], a[3], a + 4, a[7]);
            b->b.framerate = 1;   // R_BeamFollow: frame rate 1, from frame 0
        } else {   // between two entities; TE_BEAMRING: the circle through them
            b = beam(fx, (float)a[5] * 0.1f);
            b->b.start_ent = a[0];
            b->b.end_ent = a[1];
            entity_origin(w, a[0], b->b.start);
            entity_origin(w, a[1], b->b.end);
            beam_args(b, a[2], a[6], a + 8, 255);
            beam_frames(b, a[3], a[4]);
            beam_noise(b, a[7], 0);   // (the speed byte is past the decoder's 12 arguments)
            b->b.ring = te->raw_type == 24;
        }
        break;
    }
    case 4:   // TE_TAREXPLOSION: R_BlobExplosion (Xash3D plays no sound; see docs/goldsrc.md)
        tar_explosion(fx, org);
        break;
    case 7:   // TE_LIGHTNING: R_BeamLightning: life, width (0.1's), noise, sprite; brightness 0.6
        if (model_ok(w, a[3])) {
            beam_t *b = beam(fx, (float)a[0] * 0.1f);
            memcpy(b->b.start, org, sizeof(vec3_t));
            memcpy(b->b.end, te->end, sizeof(vec3_t));
            static const int32_t white[3] = {255, 255, 255};
            beam_args(b, a[3], a[1], white, 153);
            beam_noise(b, a[2], 3.5f);
        }
        break;
    case 18:   // TE_BEAMSPRITE: CL_BeamSprite: a red beam (0.01 s, width 0.4, brightness 0.5..0.655)
        if (model_ok(w, a[0])) {   // and an additive sprite at the end (scale 0.1, 0.35, 0.01 s)
            beam_t *b = beam(fx, 0.01f);
            memcpy(b->b.start, org, sizeof(vec3_t));
            memcpy(b->b.end, te->end, sizeof(vec3_t));
            static const int32_t red[3] = {255, 0, 0};
            beam_args(b, a[0], 4, red, (int)(frand(fx, 0.5f, 0.655f) * 255));
        }
        if (model_ok(w, a[1])) {
            sprite_t *s = sprite(fx, a[1], te->end, 0.01f);
            s->s.scale = 0.1f;
            s->s.amount = 89;
        }
        break;
    case 19: case 20: case 21:   // TE_BEAMTORUS, TE_BEAMDISK, TE_BEAMCYLINDER
        if (model_ok(w, a[0]))
            circle_beam(fx, te, te->raw_type == 19 ? HLFX_BEAM_TORUS : te->raw_type == 20 ? HLFX_BEAM_DISK
                                                                                         : HLFX_BEAM_CYLINDER);
        break;
    case 25:   // TE_STREAK_SPLASH: position, direction, colour, count, speed, random velocity
        streak_splash(fx, org, te->dir, a[0], a[1], (float)a[2], (float)a[3]);
        break;
    case 30: case 31: {   // TE_LINE, TE_BOX: life in 0.1 s (a short), r, g, b
        int index = lookup_color(a[1], a[2], a[3]);
        float life = (float)a[0] * 0.1f;
        if (!(life > 0))
            break;
        if (te->raw_type == 30) {
            particle_line(fx, org, te->end, index, life, 2, HLFX_MAX_PARTICLES);
        } else {
            vec3_t lo, hi;
            for (int k = 0; k < 3; k++) {
                lo[k] = fminf(org[k], te->end[k]);
                hi[k] = fmaxf(org[k], te->end[k]);
            }
            particle_box(fx, lo, hi, index, life);
        }
        break;
    }
    case 102: {   // TE_SHOWLINE: R_ShowLine: a particle every 5 units (at 0, 5, .. while the length
                  // left is > 0), palette 75, 30 s
        vec3_t d = {te->end[0] - org[0], te->end[1] - org[1], te->end[2] - org[2]};
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        int n = len < 65536 ? (int)ceilf(len / 5) : 0;
        particle_line(fx, org, te->end, 75, 30, 5, n < HLFX_MAX_PARTICLES ? n : HLFX_MAX_PARTICLES);
        break;
    }
    case 6:   // TE_TRACER
        tracer(fx, org, te->end, 4, 64);
        break;
    case 127: {   // TE_USERTRACER: origin, velocity, life, colour, length
        float life = (float)a[0] * 0.1f;
        vec3_t end;
        for (int k = 0; k < 3; k++)
            end[k] = org[k] + te->dir[k] * (life > 0 ? life : 0.1f);
        tracer(fx, org, end, a[1], (float)a[2] * 0.1f * 16);
        break;
    }
    case 113: case 114: {   // TE_BUBBLES / TE_BUBBLETRAIL: sprites rising `height` at `speed`
        int n = a[1] > 0 ? (a[1] > 64 ? 64 : a[1]) : 0;
        float height = te->pos3[0], speed = te->pos3[1] > 1 ? te->pos3[1] : 8;
        for (int i = 0; i < n; i++) {
            vec3_t o;
            float f = frand(fx, 0, 1);
            for (int k = 0; k < 3; k++)
                o[k] = te->raw_type == 114 ? org[k] + (te->end[k] - org[k]) * f : frand(fx, org[k], te->end[k]);
            float life = height > 0 && height < 4096 ? height / speed : 1;
            sprite_t *s = sprite(fx, a[0], o, life > 10 ? 10 : life);
            s->vel[2] = speed;
            s->s.rendermode = RM_TEXTURE;
            s->s.amount = 255;
        }
        break;
    }
    case 10:   // TE_LAVASPLASH
        lava_splash(fx, org);
        break;
    case 11:   // TE_TELEPORT
        teleport_splash(fx, org);
        break;
    case 12:   // TE_EXPLOSION2: start colour, number of colours
        explosion2(fx, org, a[0], a[1]);
        break;
    case 14:   // TE_IMPLOSION: radius, count, life in 0.1 s
        implosion(fx, org, (float)a[0], a[1], (float)a[2] * 0.1f);
        break;
    case 15:   // TE_SPRITETRAIL: start, end, sprite, count, life 0.1 s, scale 0.1, speed, randomness
        if (model_ok(w, a[0]))
            sprite_trail(fx, org, te->end, a[0], a[1], (float)a[2] * 0.1f, (float)a[3] * 0.1f, (float)a[5],
                         (float)a[4]);
        break;
    case 105:   // TE_FIZZ: entity, sprite, density
        if (model_ok(w, a[1]))
            fizz(fx, w, a[0], a[1], a[2]);
        break;
    case 99:   // TE_KILLBEAM: the beams of that entity end now (a following beam keeps its end)
        for (int i = 0; i < HLFX_MAX_BEAMS; i++) {
            beam_t *b = &fx->beams[i];
            if (b->active && a[0] > 0 && (b->b.start_ent == a[0] || b->b.end_ent == a[0]) && b->die > fx->now)
                b->die = now_f(fx);
        }
        break;
    case 100:   // TE_LARGEFUNNEL: sprite, flags (1 reversed)
        large_funnel(fx, org, model_ok(w, a[0]) ? a[0] : 0, a[1] & 1);
        break;
    case 110:   // TE_SPRITE_SPRAY: position, direction, sprite, count, speed, noise
        if (model_ok(w, a[0]))
            spray(fx, org, te->dir, a[0], a[1], (float)a[2] * 2, a[3], RM_GLOW);
        break;
    case 120: {   // TE_SPRAY: position, direction, model, count, speed, noise, render mode
        int mode = a[4] >= RM_NORMAL && a[4] <= RM_ADDITIVE ? a[4] : RM_NORMAL;
        if (model_ok(w, a[0]))
            spray(fx, org, te->dir, a[0], a[1], (float)a[2], a[3], mode);
        break;
    }
    case 121:   // TE_PLAYERSPRITES: player, sprite, count, size variance (not kept)
        if (model_ok(w, a[1]))
            player_sprites(fx, w, a[0], a[1], a[2]);
        break;
    case 123:   // TE_FIREFIELD: radius, sprite, count, flags, life in 0.1 s
        if (model_ok(w, a[1]) && a[0] > 0)
            fire_field(fx, org, (float)a[0], a[1], a[2], a[3], (float)a[4] * 0.1f);
        break;
    case 124:   // TE_PLAYERATTACHMENT: player, height, model, life in 0.1 s (a short)
        if (model_ok(w, a[1]) && player_here(w, a[0]) && a[2] > 0 && isfinite(te->pos3[2]) &&
            fabsf(te->pos3[2]) < 4096) {
            vec3_t pos;
            memcpy(pos, w->entities[a[0]].cur.origin, sizeof pos);
            pos[2] += te->pos3[2];
            sprite_t *s = sprite(fx, a[1], pos, (float)a[2] * 0.1f);
            s->s.rendermode = RM_NORMAL;
            s->framerate = 10;
            s->s.anim = HLFX_ANIM_LOOP;
            s->follow = s->attached = a[0];
            s->offset[2] = te->pos3[2];
        }
        break;
    case 125:   // TE_KILLPLAYERATTACHMENTS: that player's attached sprites end now
        for (int i = 0; i < HLFX_MAX_SPRITES; i++) {
            sprite_t *s = &fx->spr[i];
            if (s->active && a[0] > 0 && s->attached == a[0] && s->die > fx->now)
                s->die = now_f(fx);
        }
        break;
    default:
        break;   // decals, temp models (r_hldecal.c, engine/hltent.c); TE_FIZZ ... (docs/goldsrc.md)
    }
}

// ---- client events -------------------------------------------------------------------

// The scripts whose client code calls EV_MuzzleFlash for the player who fired (ev_hldm.cpp's
// glock, shotgun, mp5, python, hornet gun; every Counter-Strike gun), and the flash's scale.
static const struct {
    const char *name;
    float scale;
} flashes[] = {
    {"glock1", 1}, {"glock2", 1}, {"shotgun1", 1}, {"shotgun2", 1}, {"mp5", 1}, {"python", 1},
    {"firehornet", 1}, {"hornetgun", 1}, {"usp", 1}, {"glock18", 1}, {"deagle", 1}, {"p228", 1},
    {"elite_left", 1}, {"elite_right", 1}, {"fiveseven", 1}, {"m3", 1}, {"xm1014", 1}, {"mac10", 1},
    {"tmp", 1}, {"mp5n", 1}, {"ump45", 1}, {"p90", 1}, {"galil", 1}, {"famas", 1}, {"ak47", 1},
    {"m4a1", 1}, {"sg552", 1}, {"aug", 1}, {"scout", 1}, {"awp", 1}, {"g3sg1", 1}, {"sg550", 1},
    {"m249", 1},
};

int r_hlfx_event_flashes(const char *name)
{
    char s[32];
    const char *b = strrchr(name, '/');
    b = b ? b + 1 : name;
    size_t n = strcspn(b, ".");
    if (n >= sizeof s)
        return 0;
    memcpy(s, b, n);
    s[n] = 0;
    for (size_t i = 0; i < sizeof flashes / sizeof flashes[0]; i++)
        if (!strcmp(flashes[i].name, s))
            return 1;
    return 0;
}

static void game_event(r_hlfx_t *fx, const world_t *w, const world_game_event_t *e)
{
    if (e->name >= WORLD_TEXT_ARENA || !r_hlfx_event_flashes(w->text_arena + e->name))
        return;
    // EF_MUZZLEFLASH's light (Quake's numbers, which GoldSrc's client descends from): 200 + rand & 31, 0.1 s,
    // minlight 32; at the muzzle of the view model, or in front of another player
    float radius = 200 + (float)(rnd(fx) & 31);
    if (e->local) {
        fx->flash_time = fx->now;
        fx->flash_scale = 0.1f;   // the view models' flash event options "11": muzzleflash1 at scale 0.1
        vec3_t org;
        if (fx->muzzle_valid) {
            memcpy(org, fx->muzzle, sizeof org);
        } else {
            memcpy(org, w->view.origin, sizeof org);
        }
        light(fx, e->entity > 0 ? e->entity : -1, org, radius, 0.1f, 0, 32);
        return;
    }
    vec3_t f, r, u, org;
    r_angle_vectors(e->angles, f, r, u);
    memcpy(org, e->origin, sizeof org);
    if (e->entity > 0 && e->entity < w->num_entities && w->entities[e->entity].seq == w->seq)
        memcpy(org, w->entities[e->entity].cur.origin, sizeof org);
    for (int k = 0; k < 3; k++)
        org[k] += 18 * f[k];
    org[2] += 16;
    light(fx, e->entity, org, radius, 0.1f, 0, 32);
}

void r_hlfx_frame(r_hlfx_t *fx, const world_t *w, double now, uint32_t seed)
{
    if (!fx)
        return;
    fx->now = now;
    fx->rng = seed | 1u;
    for (int i = 0; i < w->num_events && i < WORLD_MAX_EVENTS; i++) {
        const world_event_t *ev = &w->events[i];
        if (ev->type == EV_TEMPENT) {
            temp_entity(fx, w, &ev->u.fx);
        } else if (ev->type == EV_DLIGHT) {   // TE_DLIGHT / TE_ELIGHT: radius, life, decay
            const world_fx_event_t *d = &ev->u.fx;
            if (!finite3(d->origin))
                continue;
            float life = d->duration > 0 && d->duration < 30 ? d->duration : 0.1f;
            float radius = d->radius > 0 && d->radius < 4096 ? d->radius : 0;
            // TE_DLIGHT: the byte x 10 a second; TE_ELIGHT: the coord over the life in seconds (the
            // engine's CL_ParseTempEntity; a life of 0 keeps it whole), a shrinking radius as DLIGHT's
            float decay = d->raw_type == 27 ? (float)d->args[5] * 10 : 0;
            if (d->raw_type == 28 && isfinite(d->pos3[0]) && d->pos3[0] > 0)
                decay = d->duration > 0 ? d->pos3[0] / d->duration : d->pos3[0];
            if (radius > 0) {
                // TE_ELIGHT (28) lights the studio models near it only, following its entity, keyed
                // by it (a new one replaces it); TE_DLIGHT lights the world's surfaces and models
                int el = d->raw_type == 28, ent = el && d->entity > 0 && d->entity < 4096 ? d->entity : 0;
                light_t *l = light(fx, ent ? 0x10000 + ent : 0, d->origin, radius, life, decay, 0);
                l->rgb = 0x1000000u | ((uint32_t)d->color & 0xffffffu);
                l->elight = el;
                l->follow = ent;
            }
        } else if (ev->type == EV_PARTICLES) {   // TE_PARTICLEBURST and svc_particle: dust
            const world_fx_event_t *d = &ev->u.fx;
            if (finite3(d->origin))
                dust(fx, d->origin, d->count > 0 ? (d->count > 256 ? 256 : d->count) : 8);
        } else if (ev->type == EV_GAMEEVENT) {
            game_event(fx, w, &ev->u.game);
        }
    }
    // sprites that stay with a player (FTENT_PLYRATTACHMENT): where the player is in this frame
    for (int i = 0; i < HLFX_MAX_SPRITES; i++) {
        sprite_t *s = &fx->spr[i];
        if (s->active && s->follow > 0 && s->die > now && player_here(w, s->follow)) {
            for (int k = 0; k < 3; k++)
                s->s.org[k] = w->entities[s->follow].cur.origin[k] + s->offset[k];
        }
    }
}

void r_hlfx_set_level(r_hlfx_t *fx, const bsp_t *bsp)
{
    if (fx)
        fx->bsp = bsp;
}

int r_hlfx_muzzle(const r_hlfx_t *fx, vec3_t out)
{
    if (!fx || !fx->muzzle_valid)
        return 0;
    memcpy(out, fx->muzzle, sizeof(vec3_t));
    return 1;
}

int r_hlfx_view_flash(const studio_t *st, int seq, double age, uint32_t seed, int *attachment, int *index,
                      float *scale)
{
    if (!st || seq < 0 || seq >= st->numseq || !(age >= 0))
        return 0;
    float to = studio_frame(st, seq, 0, age, 1.0f);
    float from = age < 0.05 ? -0.01f : studio_frame(st, seq, 0, age - 0.05, 1.0f);
    const studio_event_t *ev[8];
    int n = to >= from ? studio_events_between(st, seq, from, to, ev, 8)
                       : studio_events_between(st, seq, -0.01f, to, ev, 8);   // a loop went round
    for (int i = 0; i < n; i++) {
        int e = ev[i]->event;
        if (e != 5001 && e != 5011 && e != 5021 && e != 5031)
            continue;
        int type = atoi(ev[i]->options), ix = (type % 10) % 3;
        float sc = (float)(type / 10) * 0.1f;
        sc = sc == 0 ? 0.5f : sc;
        ix = ix < 0 ? 0 : ix;
        if (ix == 0)   // the rifle flash: x 0.5 .. 0.6
            sc *= 0.5f + 0.1f * (float)(world_hash32(seed) % 1001) / 1000.0f;
        *attachment = (e - 5001) / 10;
        *index = ix;
        *scale = sc;
        return 1;
    }
    return 0;
}

void r_hlfx_set_view_flash(r_hlfx_t *fx, int model, int shown, int index, float scale, const vec3_t org)
{
    if (!fx)
        return;
    fx->vflash.model = model != 0;
    fx->vflash.shown = model && shown && org && finite3(org) && index >= 0 && index < 3 && scale > 0 && scale < 100;
    if (fx->vflash.shown) {
        fx->vflash.index = index;
        fx->vflash.scale = scale;
        memcpy(fx->vflash.org, org, sizeof(vec3_t));
    }
}

void r_hlfx_set_muzzle(r_hlfx_t *fx, const vec3_t org, int valid)
{
    if (!fx)
        return;
    fx->muzzle_valid = valid > 0 && finite3(org) ? valid : 0;
    if (fx->muzzle_valid)
        memcpy(fx->muzzle, org, sizeof(vec3_t));
}

void r_hlfx_lights(const r_hlfx_t *fx, const world_t *w, r_view_t *v, double t)
{
    if (!fx)
        return;
    for (int i = 0; i < HLFX_MAX_LIGHTS; i++) {
        const light_t *l = &fx->lights[i];
        if (l->radius <= 0 || l->die < t || l->start > t + 1e-6 || v->num_dlights >= R_MAX_DLIGHTS)
            continue;
        float radius = l->radius - (float)(t - l->start) * l->decay;
        if (radius <= 0)
            continue;
        r_dlight_t *d = &v->dlights[v->num_dlights++];
        memset(d, 0, sizeof *d);
        memcpy(d->origin, l->org, sizeof(vec3_t));
        // the view model's flash light moves with the muzzle it was made at
        if (l->key > 0 && !l->follow && fx->muzzle_valid && fabs(fx->flash_time - l->start) < 1e-6)
            memcpy(d->origin, fx->muzzle, sizeof(vec3_t));
        d->radius = radius;
        d->die = l->die;
        d->minlight = l->minlight;
        d->color = -1;
        d->rgb = l->rgb;
        d->elight = l->elight;
        // an entity light moves with its entity (the engine's key & 0xfff = entity index)
        if (l->follow > 0 && w && l->follow < w->num_entities && world_entity_visible(w, l->follow))
            memcpy(d->origin, w->entities[l->follow].cur.origin, sizeof(vec3_t));
    }
}

void r_hlfx_set_puffs(r_hlfx_t *fx, const r_hlpuff_t *list, int n)
{
    if (!fx)
        return;
    if (n > HLFX_MAX_PUFFS)
        n = HLFX_MAX_PUFFS;
    fx->num_puffs = n > 0 ? n : 0;
    if (fx->num_puffs)
        memcpy(fx->puffs, list, sizeof *list * (size_t)fx->num_puffs);
}

// EV_HugWalls (the newer cs16-client's ev_cs16.cpp), the puff's hit callback: the velocity v of
// length len and direction u against the plane's normal n becomes b with its x and z swapped,
// times len x 1.5 (3000 past 2000) x 1.5, where a = (n1 u0 - u1 n0, n0 u2 - u0 n2, n2 u1 - u2 n1)
// and b = (n1 a2 - a1 n0, n0 a0 - a2 n2, n2 a1 - a0 n1) (products of the normal as the client
// writes them, not a cross product's order). On an axial wall that is the velocity along the
// wall, turned back and 2.25 times as fast.
static void hug_wall(vec3_t v, const float *n)
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    vec3_t u = {0, 0, 1};   // the SDK's Vector::Normalize of a zero vector
    if (len > 0)
        for (int k = 0; k < 3; k++)
            u[k] = v[k] / len;
    float a[3] = {n[1] * u[0] - u[1] * n[0], n[0] * u[2] - u[0] * n[2], n[2] * u[1] - u[2] * n[1]};
    float b[3] = {n[1] * a[2] - a[1] * n[0], n[0] * a[0] - a[2] * n[2], n[2] * a[1] - a[0] * n[1]};
    float s = (len <= 2000 ? len * 1.5f : 3000) * 1.5f;
    v[0] = b[2] * s;
    v[1] = b[1] * s;
    v[2] = b[0] * s;
}

// EV_WallPuff_Wind, called once a client frame (here 100 a second, fps_max's default): once past
// frame 7 the velocity keeps 0.97 of itself and rises 0.7 (its z at most 70); once past frame 6
// a wind along x and along y grows 0.075 a call up to 5 and is added to the velocity, each
// turning back (its strength 0) one call in 11 once over 3. The client's wind is one for all its
// puffs; here each puff has its own, from its seed, so that it does not depend on the others.
// Then the move, traced (FTENT_COLLIDEALL, HUD_TempEntUpdate) against the level's world when
// there is one: a move that meets a wall calls EV_HugWalls on the velocity, puts the puff where
// the move met it along the new velocity (the engine's "contact point": the old place + the
// fraction x the step x the new velocity) and reflects the new velocity off the wall
// (bounceFactor 1). A move that starts inside the world has fraction 0 and no plane: the
// velocity becomes 0. EV_SmokeRise (the gun smoke's callback) is the same without the wind; the
// gun smoke has FTENT_COLLIDEALL and EV_HugWalls as the wall puffs (cs16-client's
// EV_CS16Client_CreateSmoke sets them for every type). One client frame of puff s (frame: its
// sprite frame then; wind: EV_WallPuff_Wind's), `step` seconds long.
static void puff_step(int head, r_hlpuff_state_t *s, float step, float frame, int wind)
{
    float *v = s->vel, *out = s->org;
    if (frame > 7) {
        for (int k = 0; k < 3; k++)
            v[k] *= 0.97f;
        v[2] += 0.7f;
        if (v[2] > 70)
            v[2] = 70;
    }
    if (frame > 6 && wind) {
        for (int k = 0; k < 2; k++) {
            s->wind[k] = s->wind[k] + 0.075f > 5 ? 5 : s->wind[k] + 0.075f;
            v[k] += (float)s->sign[k] * s->wind[k];
        }
        for (int k = 1; k >= 0; k--)   // y's turn is drawn first, as the client does
            if (hlbullet_frand(&s->x, 0, 11) < 1 && s->wind[k] > 3) {
                s->wind[k] = 0;
                s->sign[k] = -s->sign[k];
            }
    }
    vec3_t to;
    for (int k = 0; k < 3; k++)
        to[k] = out[k] + v[k] * step;
    bsp_trace_t tr;
    if (head >= 0 && step > 0 && (bsp_trace(s->bsp, head, out, to, &tr) || tr.startsolid)) {
        float frac = tr.startsolid ? 0 : tr.fraction;
        vec3_t n = {0, 0, 0};
        if (!tr.startsolid)
            memcpy(n, tr.normal, sizeof n);
        hug_wall(v, n);
        float proj = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
        for (int k = 0; k < 3; k++) {
            out[k] += frac * step * v[k];
            v[k] -= 2 * proj * n[k];
        }
        return;
    }
    memcpy(out, to, sizeof to);
}

// The puff's frames from its start to `age`, from where its state says the last call left it when
// that was no later (a frame after the one before, as playing asks), else from the start.
void r_hlfx_puff_at(const bsp_t *bsp, const r_hlpuff_t *p, float age, vec3_t out)
{
    const float dt = 0.01f;
    int head = bsp && bsp->num_models > 0 ? bsp->models[0].headnode : -1;
    int steps = age > 0 ? (int)(age / dt) : 0;
    r_hlpuff_state_t own, *s = p->state ? p->state : &own;
    if (!p->state || s->bsp != bsp || s->steps < 0 || s->steps > steps) {   // from the start
        s->bsp = bsp;
        s->steps = 0;
        for (int k = 0; k < 3; k++) {
            s->org[k] = p->org[k];
            s->vel[k] = p->vel[k];
        }
        s->wind[0] = s->wind[1] = 0;
        s->sign[0] = s->sign[1] = 1;
        s->x = p->seed | 1u;
    }
    for (; s->steps < steps; s->steps++)   // the whole steps not done yet, kept
        puff_step(head, s, dt, (float)s->steps * dt * HLFX_PUFF_FRAMERATE, p->wind);
    r_hlpuff_state_t last = *s;            // the part of a step to `age`, not kept
    puff_step(head, &last, age - dt * (float)steps, (float)steps * dt * HLFX_PUFF_FRAMERATE, p->wind);
    memcpy(out, last.org, sizeof last.org);
}

// cs16-client's event_<gun>.cpp (the newer generation, docs/goldsrc.md "Gun smoke"): the pistols make
// SMOKE_PISTOL puffs 3 units behind the muzzle, a scale RandomFloat(lo, hi) for the shot; three
// (speed 0 at the scale, grey 7; 20 at the scale + 0.1, grey 10; 40 at the scale, grey 13), the usp
// only the second; the others one puff at the muzzle, speed 3, grey 20, of a fixed scale.
typedef struct {
    const char *script;
    uint8_t type;      // HLFX_SMOKE_*; the m4a1: rifle smoke, black with the silencer (bparam1)
    uint8_t count;     // pistols: 3, or 1 (the usp: the middle one)
    float lo, hi;      // the scale (pistols: RandomFloat(lo, hi))
} smoke_rule_t;

static const smoke_rule_t smoke_rules[] = {
    {"glock18", HLFX_SMOKE_PISTOL, 3, 0.15f, 0.3f},
    {"deagle", HLFX_SMOKE_PISTOL, 3, 0.2f, 0.3f},
    {"p228", HLFX_SMOKE_PISTOL, 3, 0.1f, 0.25f},
    {"fiveseven", HLFX_SMOKE_PISTOL, 3, 0.1f, 0.25f},
    {"usp", HLFX_SMOKE_PISTOL, 1, 0.2f, 0.35f},
    {"ak47", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"aug", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"famas", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"g3sg1", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"galil", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"m249", HLFX_SMOKE_RIFLE, 1, 0.4f, 0.4f},
    {"mac10", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"p90", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"sg550", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"sg552", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"m4a1", HLFX_SMOKE_RIFLE, 1, 0.3f, 0.3f},
    {"m3", HLFX_SMOKE_BLACK, 1, 0.4f, 0.4f},
    {"xm1014", HLFX_SMOKE_BLACK, 1, 0.3f, 0.3f},
    {"awp", HLFX_SMOKE_BLACK, 1, 0.5f, 0.5f},
    {"scout", HLFX_SMOKE_BLACK, 1, 0.3f, 0.3f},
    {"mp5n", HLFX_SMOKE_BLACK, 1, 0.3f, 0.3f},
    {"tmp", HLFX_SMOKE_BLACK, 1, 0.3f, 0.3f},
    {"ump45", HLFX_SMOKE_BLACK, 1, 0.2f, 0.2f},
};

int r_hlfx_smoke_sprites(int type) { return type == HLFX_SMOKE_PISTOL ? 2 : type == HLFX_SMOKE_RIFLE ? 3 : 4; }

void r_hlfx_smoke_name(int type, int pick, char *out, size_t cap)
{
    static const char *const base[3] = {"pistol", "rifle", "black"};
    int t = type >= 0 && type < 3 ? type : 0;
    int n = r_hlfx_smoke_sprites(t);
    snprintf(out, cap, "sprites/%s_smoke%d.spr", base[t], (pick >= 0 && pick < n ? pick : 0) + 1);
}

int r_hlfx_gunsmoke(const char *script, int bparam1, uint32_t *rng, r_hlsmoke_t out[HLFX_SMOKE_MAX])
{
    const smoke_rule_t *rule = NULL;
    for (size_t i = 0; i < sizeof smoke_rules / sizeof smoke_rules[0] && !rule; i++)
        if (!strcmp(smoke_rules[i].script, script))
            rule = &smoke_rules[i];
    if (!rule)
        return 0;   // elite, knife, the grenades: no smoke
    int type = !strcmp(script, "m4a1") && bparam1 ? HLFX_SMOKE_BLACK : rule->type;
    float scale = rule->lo + (rule->hi - rule->lo) * hlbullet_frand(rng, 0, 1);
    static const float speed[3] = {0, 20, 40}, more[3] = {0, 0.1f, 0};
    static const uint8_t grey[3] = {7, 10, 13};
    int n = 0;
    for (int i = 0; i < 3; i++) {
        if (rule->type != HLFX_SMOKE_PISTOL ? i > 0 : rule->count == 1 && i != 1)
            continue;
        r_hlsmoke_t *o = &out[n++];
        o->type = type;
        o->pick = (int)hlbullet_frand(rng, 0, (float)r_hlfx_smoke_sprites(type) - 0.001f);
        o->amount = 100 + (int)hlbullet_frand(rng, 0, 80.999f);
        if (rule->type == HLFX_SMOKE_PISTOL) {
            o->back = 3;
            o->speed = speed[i];
            o->scale = scale + more[i];
            o->grey = grey[i];
        } else {
            o->back = 0;
            o->speed = 3;
            o->scale = scale;
            o->grey = 20;
        }
    }
    return n;
}

int r_hlfx_sprites(const r_hlfx_t *fx, double t, r_hlsprite_t *out, int max)
{
    int n = 0;
    if (!fx)
        return 0;
    // the view model's own flash (its animation events), when it has a studio model
    if (fx->vflash.model && fx->vflash.shown && n < max) {
        r_hlsprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        s->model = HLFX_CLIENT_MUZZLE1 - fx->vflash.index;
        memcpy(s->org, fx->vflash.org, sizeof(vec3_t));
        s->scale = fx->vflash.scale;
        s->rendermode = RM_ADDITIVE;
        s->amount = 255;
        s->view = 1;
        s->frame = (float)(world_hash32((uint32_t)(t * 1000) * 0x9e3779b9u) % 64);   // a random frame (wrapped)
        s->anim = HLFX_ANIM_LOOP;
        rgb(s->color, 255, 255, 255);
    }
    // else the weapon events' flash: one sprite at the view model's muzzle (the engine shows it a
    // frame; 0.05 s here, so a movie at 20..30 frames a second shows it once)
    if (!fx->vflash.model && t >= fx->flash_time - 1e-6 && t < fx->flash_time + 0.05 && n < max) {
        r_hlsprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        s->model = HLFX_CLIENT_MUZZLE;
        memcpy(s->org, fx->muzzle, sizeof(vec3_t));
        s->scale = fx->flash_scale > 0 ? fx->flash_scale : 1;
        s->rendermode = RM_ADDITIVE;
        s->amount = 255;
        s->view = 1;
        s->frame = (float)((uint32_t)(fx->flash_time * 1000) % 3);
        rgb(s->color, 255, 255, 255);
    }
    for (int i = 0; i < HLFX_MAX_SPRITES && n < max; i++) {
        const sprite_t *s = &fx->spr[i];
        if (!s->active || t < s->start - 1e-6 || t >= s->die)
            continue;
        float age = (float)(t - s->start);
        r_hlsprite_t *o = &out[n++];
        *o = s->s;
        for (int k = 0; k < 3; k++)
            o->org[k] += s->vel[k] * age;
        o->org[2] -= 0.5f * s->gravity * age * age;
        o->frame = s->frame0 + (s->framerate > 0 ? age * s->framerate : 0);
        if (s->fade > 0) {
            float left = (float)(s->die - t);
            if (left < s->fade)
                o->amount = (int)((float)o->amount * left / s->fade);
        }
    }
    // the wall puffs and gun smoke: additive, their frames at 35 a second, gone after the last
    for (int i = 0; i < fx->num_puffs && n < max; i++) {
        const r_hlpuff_t *p = &fx->puffs[i];
        float age = (float)(t - p->start);
        if (!(age >= -1e-6f) || age >= HLFX_PUFF_MAX_AGE)
            continue;
        r_hlsprite_t *o = &out[n++];
        memset(o, 0, sizeof *o);
        o->model = p->model;
        r_hlfx_puff_at(fx->bsp, p, age > 0 ? age : 0, o->org);
        o->frame = (age > 0 ? age : 0) * HLFX_PUFF_FRAMERATE;
        o->scale = p->scale > 0 ? p->scale : 0.5f;
        o->rendermode = RM_ADDITIVE;
        // the engine's additive sprite is its texture x the colour x the amount; the 8-bit blend
        // tables add by amount alone, so the colour's grey (the mean of its three) dims the amount
        o->amount = p->amount * ((p->color[0] + p->color[1] + p->color[2]) / 3) / 255;
        memcpy(o->color, p->color, 3);
        o->anim = HLFX_ANIM_ONCE;
    }
    return n;
}

int r_hlfx_beam_frame(const r_hlbeam_t *b, double t, int numframes)
{
    if (numframes <= 0)
        return 0;
    double f = (double)b->frame + (double)b->framerate * t;
    if (!(f >= 0 && f < 2147483647.0))
        return 0;   // R_GetSpriteFrame: a frame out of range is frame 0
    return (int)f % numframes;
}

int r_hlfx_beams(const r_hlfx_t *fx, double t, r_hlbeam_t *out, int max)
{
    int n = 0;
    for (int i = 0; fx && i < HLFX_MAX_BEAMS && n < max; i++) {
        const beam_t *b = &fx->beams[i];
        if (!b->active || t >= b->die)
            continue;
        r_hlbeam_t *o = &out[n++];
        *o = b->b;
        // R_BeamSetup: freq = speed x the time made, then R_BeamDraw adds each frame's time; the
        // engine makes new noise every frame: here from the beam and the time, so a moment
        // always shows the same noise
        float age = (float)(t - b->birth);
        o->freq = o->speed * b->birth + (age > 0 ? age : 0);
        uint64_t tb;
        memcpy(&tb, &t, sizeof tb);
        o->seed = (uint32_t)i * 2654435761u ^ (uint32_t)(tb ^ tb >> 32) ^ (uint32_t)(b->birth * 1000.0f);
        if (o->shape != HLFX_BEAM_SEGS) {
            // R_DrawTorus / R_DrawCylinder: freq x delta[2]; R_DrawDisk: fmod(freq, width x 0.1) x delta[2]
            float r = age > 0 ? age : 0;
            if (o->shape == HLFX_BEAM_DISK)
                r = o->height * 0.1f > 0 ? fmodf(r, o->height * 0.1f) : 0;
            o->radius = r * b->dz;
            o->radius2 = r * (b->dz + o->height);
        }
    }
    return n;
}

// ---- custom (beam) entities: CBeam's encoding (the SDK's effects.h, customentity.h) ---------------

void r_hlfx_beament_ends(const entity_state_t *s, r_hlbeament_t *out)
{
    memset(out, 0, sizeof *out);
    out->type = s->rendermode & 0x0f;
    if (out->type > HLFX_BEAMENT_HOSE)
        out->type = HLFX_BEAMENT_POINTS;   // no other type: drawn between its points
    // BEAMENT_ENTITY / BEAMENT_ATTACHMENT: 12 bits of entity, 4 of attachment; sent as 16 bits
    int seq = (int)((uint32_t)s->sequence & 0xffffu), skin = (int)((uint32_t)s->skin & 0xffffu);
    if (out->type == HLFX_BEAMENT_ENTS) {
        out->start_ent = seq & 0xfff;
        out->start_att = seq >> 12;
    }
    // BEAM_ENTPOINT: the start is the point (the SDK's PointEntInit, the GoldSrc reconstruction's
    // R_DrawBeamEntList; Xash3D also lets a non-zero sequence move the start: see docs/goldsrc.md)
    if (out->type == HLFX_BEAMENT_ENTS || out->type == HLFX_BEAMENT_ENTPOINT) {
        out->end_ent = skin & 0xfff;
        out->end_att = skin >> 12;
    }
}

void r_hlfx_beament(const entity_state_t *s, int entnum, const vec3_t start, const vec3_t end, int amount, double t,
                    r_hlbeam_t *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->start, start, sizeof(vec3_t));
    memcpy(out->end, end, sizeof(vec3_t));
    out->model = s->modelindex;
    // R_BeamSetup(origin, angles, modelindex, life 0, scale, body / 100, fx blend / 255, animtime)
    out->width = isfinite(s->scale) && s->scale > 0 && s->scale < 1000 ? s->scale : 0;
    out->amplitude = (float)(s->body < 0 ? 0 : s->body > 255 ? 255 : s->body) * 0.01f;
    out->speed = isfinite(s->animtime) && fabsf(s->animtime) < 1000 ? s->animtime : 0;
    out->amount = amount < 0 ? 0 : amount > 255 ? 255 : amount;
    for (int k = 0; k < 3; k++) {
        float c = s->rendercolor[k];
        out->color[k] = (uint8_t)(c > 0 && c < 255 ? c : c >= 255 ? 255 : 0);
    }
    out->flags = s->rendermode & 0xf0;
    // the state's frame, still: the GoldSrc reconstruction's R_DrawBeamEntList gives the beam a frame
    // rate of 0 (Xash3D FWGS takes curstate.framerate, which the demos' custom delta does not send)
    out->frame = s->frame > 0 && s->frame < 65536 ? (float)s->frame : 0;
    // R_BeamSetup: freq = speed x the time (the frame's time added by R_BeamDraw is left out: a
    // moment is one picture); new noise every frame: here from the entity and the moment
    double tt = isfinite(t) && fabs(t) < 1e7 ? t : 0;
    out->freq = (float)(out->speed * tt);
    uint64_t tb;
    memcpy(&tb, &tt, sizeof tb);
    out->seed = (uint32_t)entnum * 2246822519u ^ (uint32_t)(tb ^ tb >> 32) ^ 0x9e3779b9u;
}

// ---- drawing: additive or solid dots -------------------------------------------------------

static void plot(const r_view_t *v, const vec3_t org, uint8_t index, const uint8_t *table, float size)
{
    float d0 = org[0] - v->vieworg[0], d1 = org[1] - v->vieworg[1], d2 = org[2] - v->vieworg[2];
    float z = d0 * v->vpn[0] + d1 * v->vpn[1] + d2 * v->vpn[2];
    if (!(z >= 4.0f))
        return;
    float zi = 1.0f / z;
    float fu = v->xcenter + zi * v->xscale * (d0 * v->vright[0] + d1 * v->vright[1] + d2 * v->vright[2]);
    float fv = v->ycenter - zi * v->yscale * (d0 * v->vup[0] + d1 * v->vup[1] + d2 * v->vup[2]);
    int pix = (int)(size * v->xscale * zi + 0.5f);
    pix = pix < 1 ? 1 : pix > 8 ? 8 : pix;
    int u0 = (int)(fu - (float)pix * 0.5f), y0 = (int)(fv - (float)pix * 0.5f);
    if (!(fu > -16 && fv > -16 && fu < (float)v->width + 16 && fv < (float)v->height + 16))
        return;
    for (int y = y0; y < y0 + pix; y++) {
        if (y < 0 || y >= v->height || y < v->y0 || y >= r_view_y1(v))   // a band: its rows only
            continue;
        for (int x = u0; x < u0 + pix; x++) {
            if (x < 0 || x >= v->width)
                continue;
            size_t zi_at = (size_t)y * (size_t)v->width + (size_t)x;
            if (v->zbuffer[zi_at] > zi)
                continue;
            uint8_t *dst = v->buffer + (size_t)y * (size_t)v->rowbytes + x;
            *dst = table ? table[(size_t)index * 256 + *dst] : index;
        }
    }
}

static uint8_t nearest(const r_view_t *v, const uint8_t *c)
{
    if (v->hlmodes)
        return r_hl_nearest(v->hlmodes, c[0], c[1], c[2]);
    int best = 0, bd = 1 << 30;
    for (int i = 0; v->palette && i < 256; i++) {
        int dr = v->palette[i * 3] - c[0], dg = v->palette[i * 3 + 1] - c[1], db = v->palette[i * 3 + 2] - c[2];
        int d = dr * dr + dg * dg + db * db;
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    return (uint8_t)best;
}

// Its velocity `age` seconds after its birth (for a tracer's streak).
static void particle_vel(const r_hlparticle_t *p, float age, vec3_t v)
{
    float g = p->grow != 0 ? expf(p->grow * age) : 1;
    for (int k = 0; k < 3; k++)
        v[k] = p->vel[k] * (k == 2 && p->grow_xy ? 1 : g);
    v[2] -= p->gravity * age;
}

int r_hlfx_blob_shown(const r_hlparticle_t *p, uint32_t slot, double t)
{
    if (!p->blob)
        return 1;
    if (t < (double)p->birth + 1e-4)   // its first frame (birth is a float of the time it was made)
        return p->blob == 2;
    uint64_t tb;
    memcpy(&tb, &t, sizeof tb);
    uint32_t h = slot * 2654435761u ^ (uint32_t)tb ^ (uint32_t)(tb >> 32);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    h *= 3266489917u;
    h ^= h >> 16;
    return (h & 3) == 0;
}

// One particle alive at t (its age `age`, `left` seconds to live), through `add` when additive.
static void draw_particle(const r_view_t *v, const r_hlparticle_t *p, const uint8_t *add, float age, float left)
{
    vec3_t o;
    r_hlfx_particle_at(p, age, o);
    uint8_t c[3];
    memcpy(c, p->color, 3);
    if (p->ramp == HLFX_RAMP_SPARK) {   // gSparkRamp, 10 steps a second
        static const uint8_t spark_ramp[9] = {254, 253, 252, 111, 110, 109, 108, 103, 96};
        r_hlfx_palette(spark_ramp[(int)(age * 10) % 9], c);
    } else if (p->ramp == HLFX_RAMP_FIRE) {   // pt_fire: ramp3, 5 steps a second, gone at 6
        static const uint8_t ramp3[6] = {0x6d, 0x6b, 6, 5, 4, 3};
        int step = (int)p->ramp_from + (int)(age * 5);
        if (step < 0 || step >= 6)
            return;
        r_hlfx_palette(ramp3[step], c);
    }
    const uint8_t *table = p->additive ? add : NULL;
    if (p->additive && p->fade && v->hlmodes) {
        int amt = (int)(255 * 2 * left);
        table = r_hl_table(v->hlmodes, HL_BLEND_ADD, amt > 255 ? 255 : amt);
        if (!table)
            return;
    }
    uint8_t index = nearest(v, c);
    if (p->streak <= 0) {
        plot(v, o, index, table, 1.5f);
        return;
    }
    // a tracer: from its place along its velocity x streak x min(life left, 0.1)
    vec3_t vel;
    particle_vel(p, age, vel);
    float k = p->streak * (left < 0.1f ? left : 0.1f);
    vec3_t d = {vel[0] * k, vel[1] * k, vel[2] * k};
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    int steps = (int)(len / 1.5f) + 1;
    steps = steps > 256 ? 256 : steps;
    for (int s = 0; s <= steps; s++) {
        float f = (float)s / (float)steps;
        vec3_t q = {o[0] + d[0] * f, o[1] + d[1] * f, o[2] + d[2] * f};
        plot(v, q, index, table, 1.0f);
    }
}

void r_hlfx_draw_particles(const r_hlfx_t *fx, const r_view_t *v, double t)
{
    if (!fx || !v->buffer || !v->zbuffer)
        return;
    const uint8_t *add = v->hlmodes ? r_hl_table(v->hlmodes, HL_BLEND_ADD, 255) : NULL;
    for (int i = 0; i < HLFX_MAX_PARTICLES; i++) {
        const r_hlparticle_t *p = &fx->p[i];
        if (p->die <= p->birth || t >= p->die || t < p->birth - 1e-6 || !r_hlfx_blob_shown(p, (uint32_t)i, t))
            continue;
        draw_particle(v, p, add, (float)(t - p->birth), (float)(p->die - t));
    }
}

void r_hlfx_draw_particle_list(const r_view_t *v, const r_hlparticle_t *list, int n, double t)
{
    if (!list || !v->buffer || !v->zbuffer)
        return;
    const uint8_t *add = v->hlmodes ? r_hl_table(v->hlmodes, HL_BLEND_ADD, 255) : NULL;
    for (int i = 0; i < n; i++) {
        const r_hlparticle_t *p = &list[i];
        if (p->die <= p->birth || t >= p->die || t < p->birth - 1e-6 || !r_hlfx_blob_shown(p, (uint32_t)i, t))
            continue;
        draw_particle(v, p, add, (float)(t - p->birth), (float)(p->die - t));
    }
}

// R_RocketTrail, types 0 and 1 (Xash3D FWGS's cl_efx.c; GoldSrc's own is not released): a particle
// every 3 units of the line (the first at start; a part of 3 at the end makes one too), each
// start + one random -3..3 added to all three axes, pt_fire from ramp3 step 0..3 (rocket) or 2..5
// (smoke): it rises (sv_gravity x 0.05 = 40 u/s^2 up, from still) and steps through the ramp 5 times a
// second, gone at 6 (so 0.2..0.8 s of smoke).
int r_hlfx_rocket_trail(const vec3_t start, const vec3_t end, int type, float birth, uint32_t seed,
                        r_hlparticle_t *out, int max)
{
    if ((type != 0 && type != 1) || !out || !finite3(start) || !finite3(end))
        return 0;
    vec3_t d = {end[0] - start[0], end[1] - start[1], end[2] - start[2]};
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 0) || len > 8192)
        return 0;
    for (int k = 0; k < 3; k++)
        d[k] *= 3 / len;   // the line's direction x 3: one particle a step
    uint32_t x = seed | 1u;
    int n = 0;
    vec3_t at = {start[0], start[1], start[2]};
    for (; len > 0 && n < max; len -= 3) {
        r_hlparticle_t *p = &out[n++];
        memset(p, 0, sizeof *p);
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        int from = (int)(x % 4u) + type * 2;   // RandomLong(0 + type x 2, 3 + type x 2)
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        float off = -3.0f + 6.0f * (float)(x & 0xffff) / 65535.0f;   // RandomFloat(-3, 3), all three axes
        for (int k = 0; k < 3; k++)
            p->org[k] = at[k] + off;
        p->birth = birth;
        p->die = birth + (float)(6 - from) * 0.2f;
        p->gravity = -SLOWGRAV_PART;   // pt_fire: vel[2] += the same 40 u/s^2, up
        p->ramp = HLFX_RAMP_FIRE;
        p->ramp_from = (uint8_t)from;
        for (int k = 0; k < 3; k++)
            at[k] += d[k];
    }
    return n;
}

// A horizontal circle of dots about c (radius r, at height z), `size` units each and apart.
static void circle_dots(const r_view_t *v, const vec3_t c, float r, float z, uint8_t index, const uint8_t *table,
                        float size)
{
    if (!(r > 0 && r < 65536))
        return;
    int steps = (int)(6.2831853f * r / size) + 8;
    steps = steps > 2048 ? 2048 : steps;
    for (int i = 0; i < steps; i++) {
        float a = 6.2831853f * (float)i / (float)steps;
        vec3_t o = {c[0] + r * sinf(a), c[1] + r * cosf(a), z};
        plot(v, o, index, table, size);
    }
}

// The circle beams: TE_BEAMTORUS a circle line (R_DrawTorus: +-width about it, facing the
// view: dots 2 x width wide), TE_BEAMDISK the filled disk (rings of dots from the centre),
// TE_BEAMCYLINDER the band from the radius at start + width (brightness 0) to radius2 at
// start - width (brightness 1), R_DrawCylinder's triangle strip shaded by TriBrightness.
static void circle_shape(const r_view_t *v, const r_hlbeam_t *b, uint8_t index, const uint8_t *add)
{
    const float *c = b->start;
    float r = fabsf(b->radius);
    if (b->shape == HLFX_BEAM_TORUS) {
        circle_dots(v, c, r, c[2], index, add, fmaxf(2 * b->width, 1));
    } else if (b->shape == HLFX_BEAM_DISK) {
        float step = fmaxf(2, r / 24);
        if (!(r < 65536))
            return;
        plot(v, c, index, add, step);
        for (float rr = step; rr <= r + 1e-3f; rr += step)
            circle_dots(v, c, rr, c[2], index, add, step);
    } else {
        float h = b->height, r2 = fabsf(b->radius2);
        if (!(h > 0 && h < 4096))
            return;
        float step = fmaxf(2, 2 * h / 16);
        for (float at = 0; at <= 2 * h + 1e-3f; at += step) {
            float f = at / (2 * h);   // 0 at the top, 1 at the bottom
            const uint8_t *table = add;
            if (v->hlmodes) {
                table = r_hl_table(v->hlmodes, HL_BLEND_ADD, (int)((float)b->amount * f));
                if (!table)
                    continue;
            }
            circle_dots(v, c, r + (r2 - r) * f, c[2] + h - at, index, table, step);
        }
    }
}

// A point in camera space: right, up, forward (the eye's distances).
static void to_camera(const r_view_t *v, const vec3_t p, float out[3])
{
    float d0 = p[0] - v->vieworg[0], d1 = p[1] - v->vieworg[1], d2 = p[2] - v->vieworg[2];
    out[0] = d0 * v->vright[0] + d1 * v->vright[1] + d2 * v->vright[2];
    out[1] = d0 * v->vup[0] + d1 * v->vup[1] + d2 * v->vup[2];
    out[2] = d0 * v->vpn[0] + d1 * v->vpn[1] + d2 * v->vpn[2];
}

// How a beam's pixels are painted: its colour added at its amount x the brightness (the level's
// add tables), or (solid, FBEAM_SOLID) the colour x the brightness written; without the level's
// tables the colour is written.
typedef struct {
    const r_view_t *v;
    const r_hlbeam_t *b;
    int solid;
    const r_hlbeam_tex_t *tex;  // the sprite's frame (NULL: the colour alone)
    uint8_t tint[256];          // with a texture: each texel x the beam's colour, as a palette index
    uint8_t index;              // the colour's palette index
    int level;                  // the brightness (0..255) the table and colour below are for; -1 none yet
    const uint8_t *table;
    uint8_t shade;              // the colour at that brightness (solid)
    int draw;
} beam_paint_t;

static void paint_init(beam_paint_t *pt, const r_view_t *v, const r_hlbeam_t *b)
{
    pt->v = v;
    pt->b = b;
    pt->solid = (b->flags & HLFX_BEAMF_SOLID) != 0;
    pt->index = pt->shade = nearest(v, b->color);
    pt->level = -1;
    pt->table = NULL;
    pt->draw = 0;
    pt->tex = NULL;
}

// With the sprite's frame: each texel's colour times the beam's (the engine's vertex colour
// modulating the texture), found in the palette once per beam drawn.
static void paint_texture(beam_paint_t *pt, const r_hlbeam_tex_t *tex)
{
    if (!tex || !tex->pixels || tex->width <= 0 || tex->height <= 0 || !pt->v->palette)
        return;
    pt->tex = tex;
    const uint8_t *pal = pt->v->palette, *c = pt->b->color;
    for (int i = 0; i < 256; i++) {
        uint8_t m[3];
        for (int k = 0; k < 3; k++)
            m[k] = (uint8_t)(pal[i * 3 + k] * c[k] / 255);
        pt->tint[i] = nearest(pt->v, m);
    }
}

// The table and colour at brightness `level` (0..255).
static void paint_level(beam_paint_t *pt, int level)
{
    level = level < 0 ? 0 : level > 255 ? 255 : level;
    if (level == pt->level)
        return;
    pt->level = level;
    if (pt->solid) {
        uint8_t c[3];
        for (int k = 0; k < 3; k++)
            c[k] = (uint8_t)((int)pt->b->color[k] * level / 255);
        pt->shade = nearest(pt->v, c);
        pt->table = NULL;
        pt->draw = 1;
        return;
    }
    pt->table = pt->v->hlmodes ? r_hl_table(pt->v->hlmodes, HL_BLEND_ADD, pt->b->amount * level / 255) : NULL;
    pt->shade = pt->index;
    pt->draw = pt->v->hlmodes ? pt->table != NULL : level > 0;
}

// One straight piece of a beam from a to b, `width` units across and facing the eye, as the
// engine's strips (R_DrawSegs: the edges +-width / 2 about the line, in the view's plane): the
// screen quad it projects to, every pixel whose centre it covers once (at least a pixel across),
// z-tested against the world and painted at the brightness going from ba at a to bb at b (0..1).
// Cut at 4 units before the eye.
static void strip(const r_view_t *v, const vec3_t a, const vec3_t b, beam_paint_t *pt, float ba, float bb, float width,
                  float v0, float v1)
{
    float p[2][3];
    to_camera(v, a, p[0]);
    to_camera(v, b, p[1]);
    const float znear = 4.0f;
    if (!(p[0][2] >= znear) && !(p[1][2] >= znear))
        return;
    for (int e = 0; e < 2; e++) {
        if (!(p[e][2] >= znear)) {   // move this end to the near plane along the piece
            const float *q = p[1 - e];
            float f = (q[2] - znear) / (q[2] - p[e][2]);
            if (!(f >= 0 && f <= 1))
                return;
            for (int k = 0; k < 3; k++)
                p[e][k] = q[k] + (p[e][k] - q[k]) * f;
            p[e][2] = znear;
        }
    }
    float sx[2], sy[2], hw[2], iz[2];
    for (int e = 0; e < 2; e++) {
        iz[e] = 1.0f / p[e][2];
        sx[e] = v->xcenter + v->xscale * p[e][0] * iz[e];
        sy[e] = v->ycenter - v->yscale * p[e][1] * iz[e];
        hw[e] = 0.5f * width * v->xscale * iz[e];
        hw[e] = hw[e] < 0.5f ? 0.5f : hw[e];
        if (!(fabsf(sx[e]) < 1e6f && fabsf(sy[e]) < 1e6f && hw[e] < 1e6f))
            return;
    }
    int shaded = ba != bb;
    if (!shaded) {
        paint_level(pt, (int)(ba * 255.0f + 0.5f));
        if (!pt->draw)
            return;
    }
    float ex = sx[1] - sx[0], ey = sy[1] - sy[0], l2 = ex * ex + ey * ey;
    float nx = 0, ny = 1;   // the quad's across direction (a piece seen end on: a square about it)
    if (l2 > 1e-6f) {
        float l = sqrtf(l2);
        nx = -ey / l;
        ny = ex / l;
    }
    float cx[4] = {sx[0] + nx * hw[0], sx[1] + nx * hw[1], sx[1] - nx * hw[1], sx[0] - nx * hw[0]};
    float cy[4] = {sy[0] + ny * hw[0], sy[1] + ny * hw[1], sy[1] - ny * hw[1], sy[0] - ny * hw[0]};
    if (l2 <= 1e-6f) {
        cx[0] = cx[3] = sx[0] - hw[0];
        cx[1] = cx[2] = sx[0] + hw[0];
        cy[0] = cy[1] = sy[0] - hw[0];
        cy[2] = cy[3] = sy[0] + hw[0];
    }
    float ylo = cy[0], yhi = cy[0];
    for (int k = 1; k < 4; k++) {
        ylo = cy[k] < ylo ? cy[k] : ylo;
        yhi = cy[k] > yhi ? cy[k] : yhi;
    }
    int y0 = (int)ceilf(ylo - 0.5f), y1 = (int)ceilf(yhi - 0.5f) - 1;   // centres in [lo, hi)
    int top = v->y0 > 0 ? v->y0 : 0, bottom = r_view_y1(v) - 1;
    y0 = y0 < top ? top : y0;
    y1 = y1 > bottom ? bottom : y1;
    for (int y = y0; y <= y1; y++) {
        float yc = (float)y + 0.5f, xl = 1e30f, xr = -1e30f;
        for (int k = 0; k < 4; k++) {   // the row's span: where it crosses the quad's edges
            int j = (k + 1) & 3;
            if ((cy[k] <= yc && cy[j] > yc) || (cy[j] <= yc && cy[k] > yc)) {
                float x = cx[k] + (yc - cy[k]) * (cx[j] - cx[k]) / (cy[j] - cy[k]);
                xl = x < xl ? x : xl;
                xr = x > xr ? x : xr;
            }
        }
        int x0 = (int)ceilf(xl - 0.5f), x1 = (int)ceilf(xr - 0.5f) - 1;
        x0 = x0 < 0 ? 0 : x0;
        x1 = x1 > v->width - 1 ? v->width - 1 : x1;
        uint8_t *row = v->buffer + (size_t)y * (size_t)v->rowbytes;
        const float *zrow = v->zbuffer + (size_t)y * (size_t)v->width;
        for (int x = x0; x <= x1; x++) {
            // 1/z is linear on the screen: the nearest point of the piece's line gives it (and the
            // brightness: the engine's colours are interpolated on the screen too)
            float t = l2 > 1e-6f ? (((float)x + 0.5f - sx[0]) * ex + (yc - sy[0]) * ey) / l2 : 0;
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            if (zrow[x] > iz[0] + (iz[1] - iz[0]) * t)
                continue;
            if (shaded)
                paint_level(pt, (int)((ba + (bb - ba) * t) * 255.0f + 0.5f));
            if (!pt->draw)
                continue;
            uint8_t c = pt->shade;
            if (pt->tex) {   // the texel: u across (0 on one edge, 1 on the other), v along
                const r_hlbeam_tex_t *tx = pt->tex;
                float across = ((float)x + 0.5f - sx[0]) * nx + (yc - sy[0]) * ny;
                float half = hw[0] + (hw[1] - hw[0]) * t;
                int tu = (int)((0.5f + 0.5f * across / half) * (float)tx->width);
                tu = tu < 0 ? 0 : tu >= tx->width ? tx->width - 1 : tu;
                float tv = v0 + (v1 - v0) * t;
                int iv = (int)floorf((tv - floorf(tv)) * (float)tx->height);
                iv = iv < 0 ? 0 : iv >= tx->height ? tx->height - 1 : iv;
                uint8_t texel = tx->pixels[(size_t)iv * (size_t)tx->width + (size_t)tu];
                if (texel == 255)
                    continue;
                c = pt->tint[texel];
            }
            row[x] = pt->table ? pt->table[(size_t)c * 256 + row[x]] : c;
        }
    }
}

#define HLFX_NOISE_DIVS 128   // the engine's NOISE_DIVISIONS

// The engine's fractal noise (midpoint displacement of a power-of-two wave, ends 0): the middle
// is its ends' mean plus divs x a random -0.125 .. 0.125, then each half the same.
static void frac_noise(float *noise, int divs, uint32_t *x)
{
    int half = divs >> 1;
    if (divs < 2)
        return;
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    noise[half] = (noise[0] + noise[divs]) * 0.5f + (float)divs * ((float)(*x >> 8) * (0.25f / 16777216.0f) - 0.125f);
    if (half > 1) {
        frac_noise(noise + half, half, x);
        frac_noise(noise, half, x);
    }
}

// Where the beam's texture starts along it (R_DrawSegs' vLast): fmod(freq x speed, 1).
static float tex_start(const r_hlbeam_t *b)
{
    double f = (double)b->freq * (double)b->speed;
    return isfinite(f) && fabs(f) < 1e9 ? (float)(f - floor(f)) : 0;
}

// A beam in segments (R_BeamSetup, and R_DrawSegs as the half-life1_win32_722 reconstruction of
// the software engine's R_PART.C has it): one segment per 4 units when the amplitude is at least
// 0.5, else per 16 (at most the noise's 128). Fractal noise: each inner point moved by noise x
// amplitude x its length / 100 (at least 0.5) along the view's up, and by that times
// cos(fraction x 3 pi + freq) along its right, so the bolt does not look diagonal. Sine noise
// (FBEAM_SINENOISE: the egon's inner beam, a custom entity's BEAM_FSINE): at least 16 segments,
// the noise sin(i x pi / 128) read from the first point on, amplitude x 100 units, each point
// moved by it x sin(fraction x pi x segments / 10 + freq) along the view's up and x cos(...)
// along its right. The brightness goes 0 -> 1 along it with BEAM_FSHADEIN, 1 -> 0 with
// BEAM_FSHADEOUT (a custom entity's flags; the first wins). Each segment a strip.
static void segs_line(const r_view_t *v, const r_hlbeam_t *b, const vec3_t d, float len, beam_paint_t *pt, float width)
{
    int sine = b->sine || (b->flags & HLFX_BEAMF_SINE) != 0;
    float noise[HLFX_NOISE_DIVS + 1];
    int segments = (int)(len * (b->amplitude >= 0.5f ? 0.25f : 0.075f) + 3.0f);
    segments = segments > HLFX_NOISE_DIVS ? HLFX_NOISE_DIVS : segments;
    if (sine && segments < 16)
        segments = 16;
    if (segments < 2)
        return;
    float length = len * 0.01f < 0.5f ? 0.5f : len * 0.01f, scale = b->amplitude;
    if (sine) {
        for (int i = 0; i < HLFX_NOISE_DIVS; i++)
            noise[i] = sinf((float)i * 3.14159265f / (float)HLFX_NOISE_DIVS);
        noise[HLFX_NOISE_DIVS] = 0;
        scale *= 100.0f;
        length = (float)segments * 0.1f;
    } else {
        noise[0] = noise[HLFX_NOISE_DIVS] = 0;
        uint32_t x = b->seed | 1;
        frac_noise(noise, HLFX_NOISE_DIVS, &x);
        scale *= length;
    }
    float div = 1.0f / (float)(segments - 1);
    int step = (int)((float)HLFX_NOISE_DIVS * div * 65536.0f), at = sine ? 0 : step;
    int in = (b->flags & HLFX_BEAMF_SHADEIN) != 0, out = (b->flags & HLFX_BEAMF_SHADEOUT) != 0;
    float bright = in ? 0.0f : 1.0f;
    // the texture along it: once every 100 units, from fmod(freq x speed, 1)
    float tv = tex_start(b), tv_step = len * 0.01f * div;
    vec3_t last;
    memcpy(last, b->start, sizeof last);
    for (int i = 1; i < segments; i++, at += step) {
        float f = (float)i * div;
        float next = in ? f : out ? 1.0f - f : 1.0f;
        vec3_t p;
        for (int k = 0; k < 3; k++)
            p[k] = b->start[k] + d[k] * f;
        if (scale != 0) {
            float factor = noise[(at >> 16) < HLFX_NOISE_DIVS ? at >> 16 : HLFX_NOISE_DIVS] * scale;
            float up = sine ? factor * sinf(f * 3.14159265f * length + b->freq) : factor;
            float side = factor * cosf(f * 3.14159265f * (sine ? length : 3.0f) + b->freq);
            for (int k = 0; k < 3; k++)
                p[k] += up * v->vup[k] + side * v->vright[k];
        }
        strip(v, last, p, pt, bright, next, width, tv, tv + tv_step);
        memcpy(last, p, sizeof last);
        bright = next;
        tv += tv_step;
    }
}

void r_hlfx_draw_beam(const r_view_t *v, const r_hlbeam_t *b)
{
    r_hlfx_draw_beam_tex(v, b, NULL);
}

void r_hlfx_draw_beam_tex(const r_view_t *v, const r_hlbeam_t *b, const r_hlbeam_tex_t *tex)
{
    // a solid beam is drawn in its colour whatever its brightness (kRenderNormal: Xash3D's
    // TriColor4f scales the colour by the brightness under kRenderTransAdd only)
    int solid = (b->flags & HLFX_BEAMF_SOLID) != 0;
    if (!v->buffer || !v->zbuffer || !finite3(b->start) || !finite3(b->end) || (b->amount <= 0 && !solid))
        return;
    const uint8_t *add = v->hlmodes ? r_hl_table(v->hlmodes, HL_BLEND_ADD, b->amount) : NULL;
    if (v->hlmodes && !add && !solid)
        return;
    uint8_t index = nearest(v, b->color);
    vec3_t d = {b->end[0] - b->start[0], b->end[1] - b->start[1], b->end[2] - b->start[2]};
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    // R_DrawSegs / R_DrawRing / R_DrawBeamFollow put the strip's edges +-width about the line:
    // the beam is 2 x width thick (width: the message's byte x 0.1)
    float width = b->width > 0.25f ? 2 * b->width : 0.5f;
    if (b->shape != HLFX_BEAM_SEGS) {
        circle_shape(v, b, index, add);
        return;
    }
    if (b->ring) {   // a circle in the horizontal plane through both ends
        float r = len * 0.5f;
        vec3_t c = {b->start[0] + d[0] * 0.5f, b->start[1] + d[1] * 0.5f, b->start[2] + d[2] * 0.5f};
        int steps = (int)(r * 0.5f) + 16;
        steps = steps > 512 ? 512 : steps;
        for (int i = 0; i < steps; i++) {
            float a = 6.2831853f * (float)i / (float)steps;
            vec3_t o = {c[0] + r * cosf(a), c[1] + r * sinf(a), c[2]};
            plot(v, o, index, add, width);
        }
        return;
    }
    beam_paint_t pt;
    paint_init(&pt, v, b);
    paint_texture(&pt, tex);
    if (b->flags & (HLFX_BEAMF_SINE | HLFX_BEAMF_SHADEIN | HLFX_BEAMF_SHADEOUT | HLFX_BEAMF_SOLID)) {
        if (len >= 0.1f)   // R_BeamDraw: no really short beams
            segs_line(v, b, d, len, &pt, width);
        return;
    }
    if ((b->amplitude != 0 || b->sine) && len >= 0.1f) {
        segs_line(v, b, d, len, &pt, width);
        return;
    }
    float tv = tex_start(b);
    strip(v, b->start, b->end, &pt, 1.0f, 1.0f, width, tv, tv + len * 0.01f);
}

void r_hlfx_particle_at(const r_hlparticle_t *p, float age, vec3_t o)
{
    // pt_blob: dv/dt = grow x v, so the way gone is v (e^(grow t) - 1) / grow (a drag when grow < 0)
    float f = p->grow != 0 ? (expf(p->grow * age) - 1) / p->grow : age;
    for (int k = 0; k < 3; k++)
        o[k] = p->org[k] + p->vel[k] * (k == 2 && p->grow_xy ? age : f);
    o[2] -= 0.5f * p->gravity * age * age;
}


int r_hlfx_particles(const r_hlfx_t *fx, double t, r_hlparticle_t *out, int max)
{
    int n = 0;
    for (int i = 0; fx && i < HLFX_MAX_PARTICLES && n < max; i++)
        if (fx->p[i].die > fx->p[i].birth && t < fx->p[i].die && t >= fx->p[i].birth - 1e-6)
            out[n++] = fx->p[i];
    return n;
}

int r_hlfx_num_particles(const r_hlfx_t *fx, double t)
{
    int n = 0;
    for (int i = 0; fx && i < HLFX_MAX_PARTICLES; i++)
        n += fx->p[i].die > fx->p[i].birth && t < fx->p[i].die && t >= fx->p[i].birth - 1e-6;
    return n;
}

double r_hlfx_flash_time(const r_hlfx_t *fx)
{
    return fx ? fx->flash_time : -1e9;
}

// ---- the egon (EV_EgonFire, EV_EgonStop, hl_objects.cpp's UpdateBeams) ---------------------------

// The precache index of a model the client dll names, any case ("sprites/XSpark1.spr"); 0 none.
static int model_named_nocase(const world_t *w, const char *name)
{
    for (int i = 1; i < w->num_models && w->models; i++)
        if (!strcasecmp(w->models[i], name))
            return i;
    return 0;
}

void r_hlfx_egon_frame(r_hlfx_t *fx, const world_t *w)
{
    if (!fx)
        return;
    uint32_t count = w->decal_log_count;
    if (count < fx->egon.applied) {   // a new level, or a seek back: read the log again
        fx->egon.applied = 0;
        fx->egon.on = 0;
    }
    uint32_t from = fx->egon.applied;
    if (count - from > WORLD_MAX_DECAL_LOG)
        from = count - WORLD_MAX_DECAL_LOG;   // older entries left the ring
    for (uint32_t i = from; i < count; i++) {
        const world_decal_t *l = &w->decal_log[i % WORLD_MAX_DECAL_LOG];
        if (l->te || !l->local)
            continue;   // the SDK's client draws the beams of its own player only (EV_IsLocal)
        if (!strcmp(l->script, "egon_fire")) {
            // the beams are made by the startup event (bparam1); a later one (the run sound, 2 s
            // on) while none are there says it fires all the same: the startup left the log
            if (!fx->egon.on)
                fx->egon.since = l->time;
            fx->egon.on = 1;
            fx->egon.mode = l->args[1];
        } else if (!strcmp(l->script, "egon_stop")) {
            // halflife-updated's EV_EgonStop: a wide firing's flare stays where it was, growing
            // and fading (the line from the eye and angles the event was logged with)
            if (fx->egon.on && fx->egon.mode == 1 && l->eye_valid && fx->bsp && finite3(l->eye) &&
                finite3(l->eye_angles)) {
                vec3_t fwd, right, up;
                r_angle_vectors(l->eye_angles, fwd, right, up);
                hlbullet_t tr;
                memset(&tr, 0, sizeof tr);
                for (int k = 0; k < 3; k++) {
                    tr.src[k] = l->eye[k];
                    tr.end[k] = l->eye[k] + 2048.0f * fwd[k];
                }
                hlbullet_trace_all(fx->bsp, w, &tr, w->playernum + 1);   // where the beams ended
                memcpy(fx->egon.stop_end, tr.endpos, sizeof(vec3_t));
                fx->egon.stop_time = l->time;
                fx->egon.stop_frame = (float)(l->time - fx->egon.since) * 10.0f;
                fx->egon.fade = 1;
            }
            fx->egon.on = 0;
        }
    }
    fx->egon.applied = count;
}

// The stopped wide firing's flare at t (halflife-updated: die = the stop, FTENT_FADEOUT with
// fadeSpeed 2: the amount 255 x (1 - 2 x age), gone at 0.5 s; EV_EgonFlareCallback adds 10 x the
// time to its scale every 0.1 s; the frame no longer cycles). 0: none.
static int egon_fade(const r_hlfx_t *fx, const world_t *w, double t, r_hlsprite_t *flare)
{
    double age = t - fx->egon.stop_time;
    if (!fx->egon.fade || age < 0 || age >= 0.5 || w->maxclients > 1)
        return 0;
    int fm = model_named_nocase(w, "sprites/XSpark1.spr");
    int amount = (int)(255.0 * (1.0 - 2.0 * age));
    if (!fm || amount <= 0)
        return 0;
    flare->model = fm;
    memcpy(flare->org, fx->egon.stop_end, sizeof flare->org);
    flare->frame = fx->egon.stop_frame;
    flare->scale = 1.0f + (float)floor(age * 10.0) * 1.0f;   // 10 x 0.1 s a step
    flare->rendermode = RM_GLOW;
    flare->amount = amount;
    rgb(flare->color, 255, 255, 255);
    flare->anim = HLFX_ANIM_LOOP;
    flare->renderfx = 14;   // kRenderFxNoDissipation
    return 1;
}

int r_hlfx_egon(const r_hlfx_t *fx, const world_t *w, const r_view_t *v, r_hlbeam_t beams[2], int *nbeams,
                r_hlsprite_t *flare)
{
    *nbeams = 0;
    memset(flare, 0, sizeof *flare);
    if (!fx || !fx->bsp || v->detached || (v->shown && v->shown != &w->view))
        return 0;
    if (!fx->egon.on) {
        egon_fade(fx, w, v->time, flare);
        return 0;
    }
    if (w->view.intermission || w->view.stats[STAT_HEALTH] <= 0)
        return 0;
    // the weapon changed (the holster's egon_stop not seen): the view model is no longer the egon's
    int vm = w->view.stats[STAT_WEAPON];
    const char *name = vm > 0 && vm < w->num_models && w->models ? w->models[vm] : "";
    size_t nl = strlen(name);
    if (nl < 10 || strcasecmp(name + nl - 10, "v_egon.mdl"))
        return 0;
    if (!finite3(v->vieworg) || !finite3(v->vpn))
        return 0;
    // UpdateBeams: from the eye along the view, 2048 units, the world, the brush entities, the
    // other players (EV_SetSolidPlayers) and the monsters, as the bullets' boxes
    hlbullet_t tr;
    memset(&tr, 0, sizeof tr);
    for (int k = 0; k < 3; k++) {
        tr.src[k] = v->vieworg[k];
        tr.end[k] = v->vieworg[k] + 2048.0f * v->vpn[k];
    }
    hlbullet_trace_all(fx->bsp, w, &tr, w->playernum + 1);
    // R_BeamEntPoint(idx | 0x1000): the player's attachment 0, the view model's muzzle in first
    // person; without one, egon.cpp's offset from the gun (8 down, 3 right)
    vec3_t start;
    if (fx->muzzle_valid == 2)
        memcpy(start, fx->muzzle, sizeof start);
    else
        for (int k = 0; k < 3; k++)
            start[k] = v->vieworg[k] - 8.0f * v->vup[k] + 3.0f * v->vright[k];
    double t = v->time;
    float age = (float)(t - fx->egon.since);
    if (age < 0)
        age = 0;
    uint64_t tb;
    memcpy(&tb, &t, sizeof tb);
    uint32_t seed = (uint32_t)(tb ^ tb >> 32) * 2654435761u ^ 0x6e676f65u;
    int model = model_named_nocase(w, "sprites/xbeam1.spr");
    if (model) {
        // EV_EgonFire: two beams, life 99999 (kept by UpdateBeams), colour 50 50 125 (as
        // halflife-updated passes it, / 255), brightness 0.7: width 3.5, amplitude 0.2, speed 55,
        // FBEAM_SINENOISE; width 5, amplitude 0.08, speed 25
        static const float width[2] = {3.5f, 5.0f}, amp[2] = {0.2f, 0.08f}, speed[2] = {55, 25};
        for (int i = 0; i < 2; i++) {
            r_hlbeam_t *b = &beams[i];
            memset(b, 0, sizeof *b);
            memcpy(b->start, start, sizeof b->start);
            memcpy(b->end, tr.endpos, sizeof b->end);
            b->model = model;
            b->width = width[i];
            rgb(b->color, 50, 50, 125);
            b->amount = (int)(0.7f * 255);
            b->amplitude = amp[i];
            b->speed = speed[i];
            b->freq = speed[i] * (float)fx->egon.since + age;   // R_BeamSetup, then each frame's time
            b->seed = seed ^ (uint32_t)i * 0x9e3779b9u;
            b->sine = i == 0;
        }
        *nbeams = 2;
    }
    // halflife-updated's flare (Vit_amiN): R_TempSprite at the end, scale 1, glow at 255 with
    // kRenderFxNoDissipation, frames cycling 10 a second; drawn in single player, and in
    // multiplayer where the beam ends on a creature (here: another player or a monster's box)
    int fm = w->maxclients <= 1 || tr.player || tr.monster ? model_named_nocase(w, "sprites/XSpark1.spr") : 0;
    if (fm) {
        flare->model = fm;
        memcpy(flare->org, tr.endpos, sizeof flare->org);
        flare->frame = age * 10.0f;
        flare->scale = 1;
        flare->rendermode = RM_GLOW;
        flare->amount = 255;
        rgb(flare->color, 255, 255, 255);
        flare->anim = HLFX_ANIM_LOOP;
        flare->renderfx = 14;   // kRenderFxNoDissipation
    }
    return 1;
}
