// hltent.c -- Half-Life's temp models (see hltent.h)
//
// The rules, from the public sources (facts only): the engine's R_TempModel / R_BreakModel
// as Xash3D FWGS reimplements them (engine/client/cl_tent.c) and the message layouts the
// SDK's client reads; the motion is the SDK client's HUD_TempEntUpdate (cl_dll/entity.cpp);
// the shells are cl_dll/ev_common.cpp's EV_EjectBrass / EV_GetDefaultShellInfo and the
// calls in ev_hldm.cpp (Counter-Strike 1.6's: cs16-client's cl_dll/events/event_<gun>.cpp,
// events/ev_common.cpp and include/eventscripts.h); the bounce sound types are R_TempModel's and R_BreakModel's hitSound;
// what a step is traced against is HUD_TempEntUpdate's EV_PlayerTrace flags (PM_WORLD_ONLY as
// ReHLDS's pmovetst.cpp reads it); the smoke trail's particles are Xash3D's cl_efx.c R_RocketTrail
// (render/r_hlfx.c). docs/goldsrc.md lists what is left out.
#include "hltent.h"

#include "angles.h"
#include "hlbullet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


// The places a model with a smoke trail took, one a step (step s at ring[s % HLTENT_RING]): the last
// HLTENT_TRAIL_LIFE seconds of steps and the place before them.
#define HLTENT_RING 84

typedef struct {
    uint8_t used;
    uint8_t trailed;           // spawned with FTENT_SMOKETRAIL: its places are kept in ring
    uint8_t effects;           // FTENT_FLICKER: the frame count (& 31) it lights on
    int owner;                 // FTENT_COLLIDEALL: the player it passes through (clientIndex)
    uint8_t hitsound;          // HLTENT_BOUNCE_* (0: silent)
    uint16_t hits;             // hits with the world so far (each its own random numbers)
    uint32_t id, seed;         // its log entry x 128 + piece; its stream for the bounce sounds
    int model;
    uint32_t pick;
    int flags;
    int rendermode, amount;    // the amount the fade starts from (baseline.renderamt)
    double birth, die;         // die: its life ends (FADEOUT: then fades over 2 s)
    uint32_t steps;            // steps taken: the state is at birth + steps * HLTENT_STEP
    vec3_t org, vel, ang, avel;
    uint32_t trail_last;       // the last step that left smoke (the flag still set after its collision)
    uint32_t ring_to;          // the last step whose place is in ring
    float ring[HLTENT_RING][3];
} tent_t;

struct hltent_s {
    tent_t t[HLTENT_MAX];
    uint32_t applied;          // log entries spawned so far
    int replay;                // after a seek: spawn the log's models again
    const bsp_t *bsp;          // the level they were spawned in
    const world_t *w;          // the frame of the latest hltent_frame: FTENT_COLLIDEALL's entities (NULL: none)
    uint8_t any_trail, any_flicker;   // a model with a smoke trail / FTENT_FLICKER was spawned (since the reset)
    uint32_t level_seq;
    uint32_t entry, entry_seed, piece;   // the log entry being spawned (alloc numbers its models)
};

hltent_t *hltent_create(void)
{
    hltent_t *p = calloc(1, sizeof *p);
    if (p)
        p->replay = 1;
    return p;
}

void hltent_free(hltent_t *p) { free(p); }

void hltent_clear(hltent_t *p)
{
    if (p) {
        p->replay = 1;
        p->w = NULL;
    }
}

int hltent_event_gun(const world_decal_t *e, vec3_t src, vec3_t ang)
{
    int zero = e->pos[0] == 0 && e->pos[1] == 0 && e->pos[2] == 0;
    if (e->local && zero && e->eye_valid) {
        memcpy(src, e->eye, sizeof(vec3_t));
        memcpy(ang, e->eye_angles, sizeof(vec3_t));
        return 0;
    }
    memcpy(src, e->pos, sizeof(vec3_t));
    float vh = e->ducking ? 12.0f : 28.0f, eye = e->eye[2] - e->pos[2];
    if (e->local && e->eye_valid && eye > 0 && eye < 64)
        vh = eye;
    src[2] += vh;
    memcpy(ang, e->angles, sizeof(vec3_t));
    return 1;
}

// Counter-Strike 1.6's events that fire along the aim + the punch the server fired with (its
// v_angle + punchangle): the event's angles are the aim, iparam1 / iparam2 the punch x 100
// (cs16-client's event_*.cpp). elite_left / elite_right fire along the aim as it comes and famas
// divides by 10^7 (nothing); Half-Life's own events carry other values there.
static const char *const punch_events[] = {
    "m3", "xm1014", "usp", "glock18", "p228", "fiveseven", "deagle", "tmp", "ump45", "mac10", "mp5n",
    "p90", "galil", "ak47", "aug", "m4a1", "sg552", "scout", "awp", "g3sg1", "sg550", "m249",
};

int hltent_event_aim(const world_decal_t *e, vec3_t src, vec3_t ang)
{
    if (!hltent_event_gun(e, src, ang))
        return 0;   // the demo's own view: it has the punch already
    for (size_t i = 0; i < sizeof punch_events / sizeof punch_events[0]; i++)
        if (!strcmp(punch_events[i], e->script)) {
            ang[0] += (float)e->args[0] / 100.0f;
            ang[1] += (float)e->args[1] / 100.0f;
            break;
        }
    return 1;
}

// ---- random numbers: each log entry's own stream ---------------------------------------------


static uint32_t rnd(uint32_t *x)
{
    uint32_t v = *x ? *x : 0x2545f491u;
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    return *x = v;
}

// COM_RandomFloat(lo, hi)
static float frand(uint32_t *x, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd(x) & 0xffffff) / 16777215.0f;
}

// COM_RandomLong(lo, hi)
static int irand(uint32_t *x, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int)(rnd(x) % (uint32_t)(hi - lo + 1));
}

static int sane(const float *v, float lim)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(v[k]) || fabsf(v[k]) > lim)
            return 0;
    return 1;
}

// ---- the pool -------------------------------------------------------------------------------

// When a model is gone for good: its life, and a FADEOUT's 2 s of fading (1 + life x 0.5 > 0).
static double end_time(const tent_t *e)
{
    return e->die + ((e->flags & HLTENT_FADEOUT) ? 2.0 : 0.0);
}

// A free slot at time `now` (never used, or its model gone), the first in the pool; NULL
// when every one is alive (CL_TempEntAlloc: "Overflow", the new one is not made).
static tent_t *alloc(hltent_t *p, int model, const vec3_t org, double now)
{
    for (int i = 0; i < HLTENT_MAX; i++) {
        tent_t *e = &p->t[i];
        if (e->used && now < end_time(e))
            continue;
        memset(e, 0, sizeof *e);
        e->used = 1;
        e->id = p->entry * 128u + (p->piece++ & 127u);   // the log entry being spawned and its piece
        e->seed = (e->id * 0x9e3779b9u) ^ p->entry_seed ^ 0x85ebca6bu;
        e->model = model;
        memcpy(e->org, org, sizeof(vec3_t));
        e->birth = now;
        e->die = now + 0.75;   // CL_PrepareTEnt's default
        e->rendermode = RM_NORMAL;
        e->amount = 255;
        return e;
    }
    return NULL;
}

// FTENT_SMOKETRAIL: its places are kept from its birth (step 0: where it was made).
static void start_trail(tent_t *e)
{
    e->flags |= HLTENT_SMOKETRAIL;
    e->trailed = 1;
    memcpy(e->ring[0], e->org, sizeof e->ring[0]);
}

// R_TempModel: a model with gravity that collides with the world; shells tumble. The model made
// (NULL: none).
static tent_t *temp_model(hltent_t *p, uint32_t *x, int model, const vec3_t pos, const vec3_t vel, float yaw,
                          float life, int soundtype, double now)
{
    if (model <= 0 || !sane(pos, 32768) || !sane(vel, 1e5f) || !isfinite(yaw))
        return NULL;
    tent_t *e = alloc(p, model, pos, now);
    if (!e)
        return NULL;
    e->flags = HLTENT_COLLIDEWORLD | HLTENT_GRAVITY_F;
    memcpy(e->vel, vel, sizeof(vec3_t));
    e->ang[1] = yaw;
    if (soundtype == 1 || soundtype == 2) {   // TE_BOUNCE_SHELL, TE_BOUNCE_SHOTSHELL
        e->hitsound = soundtype == 1 ? HLTENT_BOUNCE_SHELL : HLTENT_BOUNCE_SHOTSHELL;
        e->avel[0] = frand(x, -512, 511);
        e->avel[1] = frand(x, -255, 255);
        e->avel[2] = frand(x, -255, 255);
        e->flags |= HLTENT_ROTATE | (soundtype == 2 ? HLTENT_SLOWGRAVITY : 0);
    }
    e->pick = rnd(x);   // RandomLong(0, frameMax): body of a studio model, frame of a sprite
    e->die = now + (life > 0 && life < 1000 ? life : 0);
    return e;
}

// R_BreakModel: count pieces (0: by the box's surface, one a 12 x 12 area per face pair, at
// most 100) at random spots of the box that are not in a wall, thrown along dir with a
// random part, tumbling, falling slowly, fading out at the end.
static void break_model(hltent_t *p, const bsp_t *bsp, uint32_t *x, const world_decal_t *l, double now)
{
    const float *pos = l->pos, *size = l->size, *dir = l->velocity;
    float random = (float)l->args[0] * 10, life = (float)l->args[3] * 0.1f;
    int model = l->args[1], count = l->args[2], flags = l->args[4];
    if (model <= 0 || !sane(pos, 32768) || !sane(size, 65536) || !sane(dir, 1e5f))
        return;
    if (count == 0) {
        float c = (size[0] * size[1] + size[1] * size[2] + size[2] * size[0]) / (3 * 12.0f * 12.0f);
        count = c > 100 ? 100 : (int)c;
    }
    count = count < 0 ? 0 : count > 100 ? 100 : count;
    int type = flags & 0x4f;   // BREAK_TYPEMASK
    for (int i = 0; i < count; i++) {
        vec3_t spot;
        int j;
        for (j = 0; j < 32; j++) {
            for (int k = 0; k < 3; k++)
                spot[k] = pos[k] + frand(x, -0.5f, 0.5f) * size[k];
            int leaf = bsp_point_leaf(bsp, spot);
            if (leaf < 0 || leaf >= bsp->num_leafs || bsp->leafs[leaf].contents != BSP_CONTENTS_SOLID)
                break;
        }
        if (j == 32)
            continue;   // the piece would be in the wall
        tent_t *e = alloc(p, model, spot, now);
        if (!e)
            return;
        e->pick = rnd(x);
        e->hitsound = (uint8_t)type;   // "so we know how to play sound on collision"
        e->flags = HLTENT_COLLIDEWORLD | HLTENT_FADEOUT | HLTENT_SLOWGRAVITY;
        if (irand(x, 0, 255) < 200) {
            e->flags |= HLTENT_ROTATE;
            for (int k = 0; k < 3; k++)
                e->avel[k] = frand(x, -256, 255);
        }
        if (irand(x, 0, 255) < 100 && (flags & 0x10)) {   // BREAK_SMOKE
            start_trail(e);
            p->any_trail = 1;
        }
        if (type == 0x01 || (flags & 0x20)) {   // BREAK_GLASS, BREAK_TRANS: see-through at 128
            e->rendermode = RM_TEXTURE;
            e->amount = 128;
        }
        e->vel[0] = dir[0] + frand(x, -random, random);
        e->vel[1] = dir[1] + frand(x, -random, random);
        e->vel[2] = dir[2] + frand(x, 0, random);
        e->die = now + life + frand(x, 0, 1);   // an extra 0..1 s
    }
}

// R_TempSphereModel (TE_EXPLODEMODEL): count models thrown from one spot in random directions at
// `speed`, each a random body; one in 25.6 falls slowly, the rest with full gravity; most tumble
// (about -255.5 degrees a second on each axis); they bounce off the world for their life.
static void explode_model(hltent_t *p, uint32_t *x, const world_decal_t *l, double now)
{
    int model = l->args[0], count = l->args[1];
    float speed = l->fparam[0], life = (float)l->args[2] * 0.1f;
    if (model <= 0 || count <= 0 || !sane(l->pos, 32768) || !isfinite(speed) || fabsf(speed) > 1e5f)
        return;
    count = count > HLTENT_MAX ? HLTENT_MAX : count;   // a short: a full pool stops it anyway
    for (int i = 0; i < count; i++) {
        tent_t *e = alloc(p, model, l->pos, now);
        if (!e)
            return;
        e->pick = rnd(x);
        e->flags = HLTENT_COLLIDEWORLD | (irand(x, 0, 255) < 10 ? HLTENT_SLOWGRAVITY : HLTENT_GRAVITY_F);
        if (irand(x, 0, 255) < 200) {
            e->flags |= HLTENT_ROTATE;
            for (int k = 0; k < 3; k++)
                e->avel[k] = frand(x, -256, -255);
        }
        if (irand(x, 0, 255) < 100) {
            start_trail(e);
            p->any_trail = 1;
        }
        p->any_flicker = 1;
        e->flags |= HLTENT_FLICKER;   // its light: every 32nd frame, the i & 31st (hltent_lights)
        e->effects = (uint8_t)(i & 31);
        vec3_t d;
        for (int k = 0; k < 3; k++)
            d[k] = frand(x, -1, 1);
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; k++)
            e->vel[k] = len > 0 ? d[k] / len * speed : 0;
        e->die = now + (life > 0 ? life : 0);
    }
}

// R_Projectile (TE_PROJECTILE): a model flying straight at its velocity (no gravity), turned
// along it, for `life` whole seconds or until it hits something: FTENT_COLLIDEALL (the world, the
// brush entities and the players but its owner, bound(1, owner, maxclients)) and FTENT_COLLIDEKILL.
static void projectile(hltent_t *p, const world_t *w, const world_decal_t *l, double now)
{
    int model = l->args[0], life = l->args[1];
    const float *v = l->velocity;
    if (model <= 0 || !sane(l->pos, 32768) || !sane(v, 1e5f))
        return;
    tent_t *e = alloc(p, model, l->pos, now);
    if (!e)
        return;
    memcpy(e->vel, v, sizeof(vec3_t));
    float xy = sqrtf(v[0] * v[0] + v[1] * v[1]);
    if (xy > 0 || v[2] != 0) {
        e->ang[0] = atan2f(v[2], xy) * (180.0f / (float)M_PI);
        e->ang[1] = xy > 0 ? atan2f(v[1], v[0]) * (180.0f / (float)M_PI) : 0;
    }
    e->flags = HLTENT_COLLIDEALL | HLTENT_COLLIDEKILL;
    int maxc = w->maxclients > 0 ? w->maxclients : 1;
    e->owner = l->args[2] < 1 ? 1 : l->args[2] > maxc ? maxc : l->args[2];
    e->die = now + (life > 0 ? life : 0);
}

// The weapons whose client events eject a shell, one table for both games (docs/goldsrc.md, "Shells"):
// Half-Life's (the SDK's ev_hldm.cpp with ev_common.cpp's EV_GetDefaultShellInfo) and Counter-Strike
// 1.6's (cs16-client's cl_dll/events/event_<gun>.cpp with its own EV_GetDefaultShellInfo and
// EV_EjectBrass). The offsets are forward, up, right of the gun position (the event's origin + the
// view height; the recording player's own from the demo's eye).
enum {
    SHELL_HL,   // thrown right 50..70, up 100..150, forward 25 on top of the shooter's velocity; the
                // shooter's yaw as the model's yaw
    SHELL_CS,   // thrown (right 50..70) x -sign(right offset), up 75..175, forward 25..250 on top of
                // half the shooter's velocity, the origin moved by a tenth of it; the yaw as its roll
};

typedef struct {
    const char *script;
    const char *model;
    uint8_t rule;              // SHELL_HL / SHELL_CS
    float other[3];            // forward, up, right for another player (Half-Life: everyone)
    float own[3];              // the recording player's own (cs16-client's EV_IsLocal branch, cl_righthand 1)
    uint8_t sound, count;      // TE_BOUNCE_* (1 shell, 2 shotgun shell); shells a shot
} shell_rule_t;

#define HL_SHELL(n, m, f, u, r, snd, c) { n, m, SHELL_HL, { f, u, r }, { f, u, r }, snd, c }
// Every Counter-Strike gun gives another player's shell 20 forward, 12 down, 4 right.
#define CS_SHELL(n, m, f, u, r, snd) { n, "models/" m ".mdl", SHELL_CS, { 20, -12, 4 }, { f, u, r }, snd, 1 }

static const shell_rule_t shells[] = {
    HL_SHELL("glock1", "models/shell.mdl", 20, -12, 4, 1, 1),
    HL_SHELL("glock2", "models/shell.mdl", 20, -12, 4, 1, 1),
    HL_SHELL("mp5", "models/shell.mdl", 20, -12, 4, 1, 1),
    HL_SHELL("shotgun1", "models/shotgunshell.mdl", 32, -12, 6, 2, 1),
    HL_SHELL("shotgun2", "models/shotgunshell.mdl", 32, -12, 6, 2, 2),
    // Counter-Strike 1.6: m3, scout and awp eject none
    CS_SHELL("usp", "pshell", 36, -14, 14, 1),
    CS_SHELL("glock18", "pshell", 36, -14, 14, 1),
    CS_SHELL("p228", "pshell", 36, -14, 14, 1),
    CS_SHELL("elite_left", "pshell", 35, -11, 16, 1),    // the left gun's shell from the right of the view
    CS_SHELL("elite_right", "pshell", 35, -11, -16, 1),
    CS_SHELL("fiveseven", "pshell", 36, -14, 14, 1),
    CS_SHELL("deagle", "pshell", 35, -11, 16, 1),
    CS_SHELL("tmp", "pshell", 32, -6, 11, 1),
    CS_SHELL("ump45", "pshell", 34, -10, 11, 1),
    CS_SHELL("mac10", "rshell", 32, -9, 11, 1),
    CS_SHELL("mp5n", "rshell", 36, -10, 11, 1),
    CS_SHELL("p90", "rshell", 35, -16, 22, 1),
    CS_SHELL("famas", "rshell", 17, -8, 14, 1),          // its punch / 10^7: nothing
    CS_SHELL("galil", "rshell", 20, -8, 10, 1),
    CS_SHELL("ak47", "rshell", 20, -8, 10, 1),
    CS_SHELL("aug", "rshell", 17, -8, 14, 1),
    CS_SHELL("m4a1", "rshell", 20, -8, 10, 1),
    CS_SHELL("sg552", "rshell", 20, -8, 10, 1),
    CS_SHELL("g3sg1", "rshell", 17, -8, 10, 1),         // (left-handed: 20, -8, -10)
    CS_SHELL("sg550", "rshell", 17, -8, 10, 1),
    CS_SHELL("m249", "rshell", 20, -10, 13, 1),
    CS_SHELL("xm1014", "shotgunshell", 22, -9, 11, 1),  // TE_BOUNCE_SHELL, not SHOTSHELL
};

static int model_index(const world_t *w, const char *name)
{
    for (int i = 1; i < w->num_models; i++)
        if (!strcmp(w->models[i], name))
            return i;
    return 0;   // EV_FindModelIndex: not precached, R_TempModel makes nothing
}

static void eject_brass(hltent_t *p, const world_t *w, uint32_t *x, const world_decal_t *e, double now)
{
    const shell_rule_t *rule = NULL;
    for (size_t i = 0; i < sizeof shells / sizeof shells[0] && !rule; i++)
        if (!strcmp(shells[i].script, e->script))
            rule = &shells[i];
    if (!rule)
        return;
    int model = model_index(w, rule->model);
    if (!model)
        return;
    vec3_t src, ang, vel;
    hltent_event_aim(e, src, ang);
    memcpy(vel, e->velocity, sizeof vel);
    if (!sane(src, 32768) || !sane(ang, 1e5f) || !sane(vel, 1e5f))
        return;
    vec3_t f, r, u;
    angle_vectors(ang, f, r, u);
    const float *off = e->local ? rule->own : rule->other;
    for (int n = 0; n < rule->count; n++) {
        vec3_t so, sv;
        if (rule->rule == SHELL_HL) {
            float fr = frand(x, 50, 70), fu = frand(x, 100, 150);
            for (int k = 0; k < 3; k++) {
                sv[k] = vel[k] + r[k] * fr + u[k] * fu + f[k] * 25;
                so[k] = src[k] + u[k] * off[1] + f[k] * off[0] + r[k] * off[2];
            }
        } else {
            float fr = frand(x, 50, 70), fu = frand(x, 75, 175), ff = frand(x, 25, 250);
            float dir = off[2] > 0 ? -1.0f : 1.0f;
            for (int k = 0; k < 3; k++) {
                sv[k] = vel[k] * 0.5f + r[k] * fr * dir + u[k] * fu + f[k] * ff;
                so[k] = vel[k] * 0.1f + src[k] + u[k] * off[1] + f[k] * off[0] + r[k] * off[2];
            }
        }
        // EV_EjectBrass: R_TempModel for 2.5 s (cs16-client: its last argument, the life, left at
        // 2.5 by every gun), the shooter's yaw as the yaw (Half-Life) or the roll (cs16-client)
        tent_t *t = temp_model(p, x, model, so, sv, ang[1], 2.5f, rule->sound, now);
        if (t && rule->rule == SHELL_CS) {
            t->ang[2] = t->ang[1];
            t->ang[1] = 0;
        }
    }
}

int hltent_crossbow_hit(const bsp_t *bsp, const world_t *w, const world_decal_t *e, hlbullet_t *b, vec3_t fwd)
{
    vec3_t ang, r, u;
    if (!bsp || strcmp(e->script, "crossbow2") != 0)
        return 0;
    hltent_event_gun(e, b->src, ang);
    if (!sane(b->src, 32768) || !sane(ang, 1e5f))
        return 0;
    angle_vectors(ang, fwd, r, u);
    for (int k = 0; k < 3; k++)
        b->end[k] = b->src[k] + fwd[k] * 8192;
    hlbullet_trace_all(bsp, w, b, e->entity);   // EV_SetSolidPlayers(idx - 1)
    if (b->player > 0 || b->monster > 0)
        return HLTENT_BOLT_BODY;   // "something organic": not a BSP model
    if (b->model < 0)
        return 0;
    // not glass (a brush entity of another render mode: the bolt would float when it breaks)
    if (b->entity > 0 && b->entity < w->num_entities && w->entities[b->entity].cur.rendermode != RM_NORMAL)
        return 0;
    return HLTENT_BOLT_WALL;
}

// EV_FireCrossbow2's bolt: crossbow_bolt.mdl 10 units short of the hit, along the shot, still
// (TE_BOUNCE_NULL, its callback holding it there) for 5 s.
static void crossbow_bolt(hltent_t *p, const bsp_t *bsp, const world_t *w, const world_decal_t *e, double now)
{
    int model = model_index(w, "models/crossbow_bolt.mdl");
    hlbullet_t b;
    vec3_t fwd, pos;
    if (!model || hltent_crossbow_hit(bsp, w, e, &b, fwd) != HLTENT_BOLT_WALL)
        return;
    for (int k = 0; k < 3; k++)
        pos[k] = b.endpos[k] - fwd[k] * 10;
    tent_t *t = alloc(p, model, pos, now);
    if (!t)
        return;
    float xy = sqrtf(fwd[0] * fwd[0] + fwd[1] * fwd[1]);
    t->ang[0] = atan2f(fwd[2], xy) * (180.0f / (float)M_PI);
    t->ang[1] = xy > 0 ? atan2f(fwd[1], fwd[0]) * (180.0f / (float)M_PI) : 0;
    t->flags = 0;
    t->die = now + 5;
}

static void reset(hltent_t *p)
{
    memset(p->t, 0, sizeof p->t);
    p->any_trail = p->any_flicker = 0;
    p->applied = 0;
    p->replay = 0;
}

void hltent_frame(hltent_t *p, const bsp_t *bsp, const world_t *w)
{
    if (!p || !bsp || !w || w->game != GAME_GOLDSRC)
        return;
    uint32_t count = w->decal_log_count;
    if (p->replay || count < p->applied || p->bsp != bsp || p->level_seq != w->level_seq) {
        // a seek or a new level: the log is what playing spawned up to here; spawn it again
        reset(p);
        p->bsp = bsp;
        p->level_seq = w->level_seq;
    }
    p->w = w;   // the entities FTENT_COLLIDEALL's steps meet until the next frame
    uint32_t from = p->applied;
    if (count - from > WORLD_MAX_DECAL_LOG)
        from = count - WORLD_MAX_DECAL_LOG;   // older entries left the ring
    for (uint32_t i = from; i < count; i++) {
        const world_decal_t *l = &w->decal_log[i % WORLD_MAX_DECAL_LOG];
        uint32_t x = (l->seed ^ 0x6d2b79f5u) | 1u;   // a stream of its own (the decals use the seed)
        p->entry = i;
        p->entry_seed = l->seed;
        p->piece = 0;
        if (l->te == 106) {   // TE_MODEL: pos, velocity, yaw, model, bounce sound, life
            (void)temp_model(p, &x, l->args[1], l->pos, l->velocity, (float)l->args[0], (float)l->args[3] * 0.1f,
                             l->args[2], l->time);
        } else if (l->te == 108) {
            break_model(p, bsp, &x, l, l->time);
        } else if (l->te == 107) {
            explode_model(p, &x, l, l->time);
        } else if (l->te == 119) {
            projectile(p, w, l, l->time);
        } else if (l->te == 0) {
            eject_brass(p, w, &x, l, l->time);
            crossbow_bolt(p, bsp, w, l, l->time);
        }
    }
    p->applied = count;
}

// ---- motion: HUD_TempEntUpdate, one step of HLTENT_STEP ---------------------------------------

// One step; 1 when the model hit the world with a bounce sound type (*hit filled but its time).
static int step(tent_t *e, const bsp_t *bsp, const world_t *w, hltent_bounce_t *hit)
{
    int heard = 0;
    // the server's sv_gravity when the demo sent it (svc_newmovevars), else its default
    const float dt = (float)HLTENT_STEP, gravity = -dt * (w && w->gravity > 0 ? w->gravity : HLTENT_GRAVITY);
    vec3_t prev;
    memcpy(prev, e->org, sizeof prev);
    for (int k = 0; k < 3; k++)
        e->org[k] += e->vel[k] * dt;
    if (e->flags & HLTENT_ROTATE)
        for (int k = 0; k < 3; k++)
            e->ang[k] = fmodf(e->ang[k] + e->avel[k] * dt, 360.0f);
    bsp_trace_t tr;
    int collide = 0;
    if ((e->flags & HLTENT_COLLIDEALL) && w) {
        // EV_PlayerTrace without PM_WORLD_ONLY, every player solid (EV_SetSolidPlayers(-1)): the
        // world, the frame's brush entities, the players' and the monsters' boxes; its owner is
        // passed through
        hlbullet_t b;
        memset(&b, 0, sizeof b);
        memcpy(b.src, prev, sizeof b.src);
        memcpy(b.end, e->org, sizeof b.end);
        hlbullet_trace_all(bsp, w, &b, e->owner);
        if (b.model >= 0 || b.player > 0 || b.monster > 0) {
            float d2 = 0, h2 = 0;
            for (int k = 0; k < 3; k++) {
                d2 += (e->org[k] - prev[k]) * (e->org[k] - prev[k]);
                h2 += (b.endpos[k] - prev[k]) * (b.endpos[k] - prev[k]);
            }
            tr.fraction = d2 > 0 ? sqrtf(h2 / d2) : 0;
            memcpy(tr.normal, b.normal, sizeof tr.normal);
            collide = 1;
        }
    } else if (e->flags & (HLTENT_COLLIDEWORLD | HLTENT_COLLIDEALL)) {
        // PM_WORLD_ONLY: the world alone (COLLIDEALL without a frame: the world too)
        collide = bsp_trace(bsp, bsp->models[0].headnode, prev, e->org, &tr) && !tr.allsolid;
    }
    if (collide) {
        // at the contact point; damped by half with gravity; on a floor (normal up) slower than
        // three steps of gravity: stops, lies flat (pitch, roll 0) and no longer moves
        for (int k = 0; k < 3; k++)
            e->org[k] = prev[k] + tr.fraction * dt * e->vel[k];
        if (e->flags & HLTENT_COLLIDEKILL) {   // a projectile ends where it hits
            e->flags = 0;
            memset(e->vel, 0, sizeof e->vel);
            e->die = e->birth + (double)(e->steps + 1) * HLTENT_STEP;
            return 0;
        }
        float damp = 1;
        if (e->flags & (HLTENT_GRAVITY_F | HLTENT_SLOWGRAVITY)) {
            damp = 0.5f;
            if (tr.normal[2] > 0.9f && e->vel[2] <= 0 && e->vel[2] >= gravity * 3) {
                damp = 0;
                e->flags &= ~(HLTENT_ROTATE | HLTENT_GRAVITY_F | HLTENT_SLOWGRAVITY | HLTENT_COLLIDEWORLD |
                              HLTENT_SMOKETRAIL);
                e->ang[0] = e->ang[2] = 0;
            }
        }
        if (e->hitsound) {   // the sound callback: before the velocity changes
            memcpy(hit->org, e->org, sizeof hit->org);
            hit->zvel = abs((int)e->vel[2]);
            hit->damp = damp;
            hit->hitsound = e->hitsound;
            hit->id = e->id;
            hit->seed = e->seed ^ ((uint32_t)e->hits++ * 0x27d4eb2du);
            heard = 1;
        }
        if (damp != 0) {   // reflect the velocity (and, as the client fakes it, the yaw)
            float proj = e->vel[0] * tr.normal[0] + e->vel[1] * tr.normal[1] + e->vel[2] * tr.normal[2];
            for (int k = 0; k < 3; k++)
                e->vel[k] -= 2 * proj * tr.normal[k];
            e->ang[1] = -e->ang[1];
        }
        if (damp != 1) {
            for (int k = 0; k < 3; k++) {
                e->vel[k] *= damp;
                e->ang[k] *= 0.9f;
            }
        }
    }
    if (e->flags & HLTENT_GRAVITY_F)
        e->vel[2] += gravity;
    else if (e->flags & HLTENT_SLOWGRAVITY)
        e->vel[2] += gravity * 0.5f;
    return heard;
}

static int still(const tent_t *e)
{
    return !(e->flags & (HLTENT_ROTATE | HLTENT_GRAVITY_F | HLTENT_SLOWGRAVITY | HLTENT_COLLIDEWORLD |
                         HLTENT_COLLIDEALL)) &&
           e->vel[0] == 0 && e->vel[1] == 0 && e->vel[2] == 0;
}

// Fixed steps from its birth up to t (a model at rest skips them: nothing changes); the hits of
// steps ending after t0 go to out (while there is room).
static void advance(tent_t *e, const bsp_t *bsp, const world_t *w, double t, double t0, hltent_bounce_t *out, int max, int *n)
{
    double last = t < e->die || !(e->flags & HLTENT_FADEOUT) ? t : e->die + 2.0;
    uint32_t want = (uint32_t)fmin(floor((last - e->birth) / HLTENT_STEP + 1e-6), 1e7);
    while (e->steps < want) {
        if (still(e)) {
            e->steps = want;
            break;
        }
        hltent_bounce_t hit;
        int heard = step(e, bsp, w, &hit);
        e->steps++;
        if (e->trailed) {   // its place after the step; smoke if the flag outlived the step's collision
            memcpy(e->ring[e->steps % HLTENT_RING], e->org, sizeof e->ring[0]);
            e->ring_to = e->steps;
            if (e->flags & HLTENT_SMOKETRAIL)
                e->trail_last = e->steps;
        }
        if (heard && out) {
            hit.time = e->birth + (double)e->steps * HLTENT_STEP;
            if (hit.time > t0 && *n < max)
                out[(*n)++] = hit;
        }
    }
}

int hltent_bounces(hltent_t *p, const bsp_t *bsp, double t0, double t1, hltent_bounce_t *out, int max)
{
    int n = 0;
    if (!p || p->replay || !bsp || p->bsp != bsp || !isfinite(t0) || !isfinite(t1) || !out || max <= 0)
        return 0;   // (cleared: the pool is stale until hltent_frame spawns the log again)
    for (int i = 0; i < HLTENT_MAX; i++) {
        tent_t *e = &p->t[i];
        // the ones that ended before the window are done; the others step to t1 or their end
        if (e->used && t1 >= e->birth && end_time(e) > t0)
            advance(e, bsp, p->w, fmin(t1, end_time(e)), t0, out, max, &n);
    }
    return n;
}

// Where a model stepped to t is drawn at t: between steps on along its velocity and spin (no
// collision inside a step).
static void place_at(const tent_t *e, double t, vec3_t org, vec3_t ang)
{
    float frac = (float)(t - (e->birth + e->steps * HLTENT_STEP));
    frac = frac < 0 ? 0 : frac > (float)HLTENT_STEP ? (float)HLTENT_STEP : frac;
    for (int k = 0; k < 3; k++) {
        org[k] = e->org[k] + e->vel[k] * frac;
        ang[k] = e->ang[k] + ((e->flags & HLTENT_ROTATE) ? e->avel[k] * frac : 0);
    }
}

int hltent_list(hltent_t *p, const bsp_t *bsp, double t, hltent_draw_t *out, int max)
{
    int n = 0;
    if (!p || !bsp || p->bsp != bsp || !isfinite(t))
        return 0;
    for (int i = 0; i < HLTENT_MAX; i++) {
        tent_t *e = &p->t[i];
        if (!e->used || t < e->birth || t >= end_time(e))
            continue;
        advance(e, bsp, p->w, t, 0, NULL, 0, NULL);
        if (t >= end_time(e))
            continue;   // it ended on the way (a projectile that hit the world)
        if (n >= max)
            continue;
        hltent_draw_t *d = &out[n++];
        d->model = e->model;
        d->pick = e->pick;
        place_at(e, t, d->org, d->ang);
        d->rendermode = e->rendermode;
        d->amount = e->amount;
        if (t >= e->die) {   // FADEOUT: solid ones turn see-through, the amount falls to 0 in 2 s
            if (d->rendermode == RM_NORMAL)
                d->rendermode = RM_TEXTURE;
            d->amount = (int)((float)e->amount * (1.0f - (float)(t - e->die) * 0.5f));
            if (d->amount <= 0) {
                n--;
                continue;
            }
        }
    }
    return n;
}

int hltent_trails(hltent_t *p, const bsp_t *bsp, double t, hltent_trail_t *out, int max)
{
    int n = 0;
    if (!p || !p->any_trail || !bsp || p->bsp != bsp || !isfinite(t) || !out)
        return 0;
    for (int i = 0; i < HLTENT_MAX && n < max; i++) {
        tent_t *e = &p->t[i];
        double end = end_time(e);
        if (!e->used || !e->trailed || t < e->birth || t >= end + HLTENT_TRAIL_LIFE)
            continue;
        advance(e, bsp, p->w, fmin(t, end), 0, NULL, 0, NULL);
        // the steps ending in (t - life, t] that left smoke and whose places (and the one before) are kept
        double hi_f = floor((t - e->birth) / HLTENT_STEP + 1e-6);
        double lo_f = floor((t - HLTENT_TRAIL_LIFE - e->birth) / HLTENT_STEP + 1e-6) + 1;
        uint32_t last = e->trail_last < e->ring_to ? e->trail_last : e->ring_to;
        uint32_t hi = hi_f < (double)last ? (uint32_t)hi_f : last;
        uint32_t lo = lo_f > 1 ? (uint32_t)lo_f : 1;
        if (e->ring_to + 2 > HLTENT_RING && lo < e->ring_to + 2 - HLTENT_RING)
            lo = e->ring_to + 2 - HLTENT_RING;
        for (uint32_t s = lo; s <= hi && n < max; s++) {
            hltent_trail_t *o = &out[n++];
            memcpy(o->start, e->ring[(s - 1) % HLTENT_RING], sizeof o->start);
            memcpy(o->end, e->ring[s % HLTENT_RING], sizeof o->end);
            o->time = e->birth + (double)s * HLTENT_STEP;
            o->seed = (e->seed ^ (s * 0x9e3779b9u)) * 0x85ebca6bu + 0x6d2b79f5u;
        }
    }
    return n;
}

int hltent_lights(hltent_t *p, const bsp_t *bsp, double t, vec3_t *out, int max)
{
    int n = 0;
    if (!p || !p->any_flicker || !bsp || p->bsp != bsp || !isfinite(t) || !out || t < 0 || t > 1e7)
        return 0;
    uint32_t frame = (uint32_t)floor(t / HLTENT_STEP + 1e-6) & 31u;
    for (int i = 0; i < HLTENT_MAX && n < max; i++) {
        tent_t *e = &p->t[i];
        if (!e->used || !(e->flags & HLTENT_FLICKER) || e->effects != frame || t < e->birth || t >= end_time(e))
            continue;
        advance(e, bsp, p->w, t, 0, NULL, 0, NULL);
        if (t >= end_time(e))
            continue;
        vec3_t ang;
        place_at(e, t, out[n++], ang);   // where it is drawn
    }
    return n;
}

int hltent_count(const hltent_t *p, double t)
{
    int n = 0;
    for (int i = 0; p && i < HLTENT_MAX; i++)
        n += p->t[i].used && t >= p->t[i].birth && t < end_time(&p->t[i]);
    return n;
}
