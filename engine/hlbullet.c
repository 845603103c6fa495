// hlbullet.c -- the bullets of the weapons' client events (see hlbullet.h)
//
// The rules, from the public sources (facts only): the SDK's cl_dll/ev_hldm.cpp (EV_HLDM_FireBullets,
// EV_HLDM_CheckTracer, the guns' calls: pellets, range, spread, bullet type), and for Counter-Strike
// cs16-client's cl_dll/events/event_<gun>.cpp and ev_cs16.cpp; docs/goldsrc.md has the tables.
// Moved here from render/r_hldecal.c so that the sound system traces the same bullets.
#include "hlbullet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "angles.h"
#include "hltent.h"

float hlbullet_frand(uint32_t *x, float lo, float hi)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return lo + (hi - lo) * (float)(*x & 0xffff) / 65535.0f;
}

static int valid_pos(const float *p)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(p[k]) || fabsf(p[k]) > 32768.0f)
            return 0;
    return 1;
}

// Whether a brush entity is traced as its model (the client's physents with a model, Xash3D FWGS's
// CL_AddLinksToPmove / CL_CopyEntityToPhysEnt / PM_PlayerTraceExt): SOLID_BSP and SOLID_SLIDEBOX.
// SOLID_NOT ones (ladders, illusionaries, water) and triggers stop nothing; SOLID_BBOX ones
// (pushables) are boxes (box_physent).
static int brush_physent(const entity_state_t *s)
{
    return s->solid_type == HL_SOLID_BSP || s->solid_type == HL_SOLID_SLIDEBOX;
}

// A bullet's line against the world and the brush entities standing in this frame (the
// client's physents: doors, trains, walls), each traced in its model's space (origin only).
// Fills b's model, entity, endpos, ent_origin, normal and texture.
void hlbullet_trace(const bsp_t *bsp, const world_t *w, hlbullet_t *b)
{
    b->model = -1;
    b->entity = -1;
    b->player = 0;
    b->monster = 0;
    b->fraction = 1;
    b->startsolid = 0;
    memcpy(b->endpos, b->end, sizeof(vec3_t));
    memset(b->normal, 0, sizeof(vec3_t));
    bsp_trace_t best, tr;
    best.fraction = 2;
    int hit = bsp_trace(bsp, bsp->models[0].headnode, b->src, b->end, &tr);
    b->startsolid = tr.startsolid != 0;
    if (hit && !tr.startsolid) {
        best = tr;
        b->model = 0;
        b->entity = 0;
    }
    for (int i = 1; i < w->num_entities && w->entities; i++) {
        if (!world_entity_visible(w, i))
            continue;
        const world_entity_t *e = &w->entities[i];
        int mi = e->cur.modelindex;
        const char *name = mi > 0 && mi < w->num_models ? w->models[mi] : "";
        int sub = name[0] == '*' ? atoi(name + 1) : -1;
        if (sub <= 0 || sub >= bsp->num_models || !valid_pos(e->cur.origin) || !brush_physent(&e->cur))
            continue;
        vec3_t s, t;
        for (int k = 0; k < 3; k++) {
            s[k] = b->src[k] - e->cur.origin[k];
            t[k] = b->end[k] - e->cur.origin[k];
        }
        hit = bsp_trace(bsp, bsp->models[sub].headnode, s, t, &tr);
        b->startsolid |= tr.startsolid != 0;
        if (hit && !tr.startsolid && tr.fraction < best.fraction) {
            best = tr;
            for (int k = 0; k < 3; k++)
                best.endpos[k] += e->cur.origin[k];
            b->model = sub;
            b->entity = i;
            memcpy(b->ent_origin, e->cur.origin, sizeof(vec3_t));
        }
    }
    b->texture[0] = 0;
    if (b->model < 0)
        return;
    memcpy(b->endpos, best.endpos, sizeof(vec3_t));
    memcpy(b->normal, best.normal, sizeof(vec3_t));
    b->fraction = best.fraction;
    // the texture under the hit (the engine's EV_TraceTexture): the face the trace found there
    if (best.face >= 0 && best.face < bsp->num_faces) {
        const bsp_texinfo_t *ti = &bsp->texinfo[bsp->faces[best.face].texinfo];
        snprintf(b->texture, sizeof b->texture, "%s", bsp->textures[ti->texture].name);
    }
}

// The line's first meeting with the box lo..hi (absolute), before the fraction `best` of the line
// src + d: that fraction (0 when src is inside it: the engine's startsolid, the trace stops where
// it starts), or -1 when it does not meet it before `best` (a slab test).
static float box_fraction(const float *src, const float *d, const float *lo, const float *hi, float best)
{
    float t0 = 0, t1 = best;
    for (int k = 0; k < 3; k++) {
        float a0 = lo[k] - src[k], c0 = hi[k] - src[k];
        if (d[k] == 0) {
            if (a0 > 0 || c0 < 0)
                return -1;
            continue;
        }
        float a = a0 / d[k], c = c0 / d[k];
        if (a > c) {
            float tmp = a;
            a = c;
            c = tmp;
        }
        t0 = a > t0 ? a : t0;
        t1 = c < t1 ? c : t1;
        if (t0 > t1)
            return -1;
    }
    return t0 < best ? t0 : -1;
}

// Whether entity i (not a player) is one of the client's box physents (Xash3D FWGS's
// CL_AddLinksToPmove and CL_CopyEntityToPhysEnt, facts in docs/goldsrc.md "Monsters"): present in
// the frame with a studio or brush model, SOLID_BBOX or SOLID_SLIDEBOX (SOLID_BSP brushes are
// hlbullet_trace's; SOLID_NOT and SOLID_TRIGGER are not solid), not owned by the recording player,
// not a dead body (mins z 0, maxs z 1) nor an empty box. PM_STUDIO_BOX traces its box.
static int box_physent(const world_t *w, int i)
{
    const entity_state_t *s = &w->entities[i].cur;
    if (s->solid || (s->solid_type != HL_SOLID_BBOX && s->solid_type != HL_SOLID_SLIDEBOX))
        return 0;   // (solid: a custom beam entity)
    if (s->modelindex <= 0 || s->modelindex >= w->num_models || !world_entity_visible(w, i))
        return 0;
    if (s->owner != 0 && s->owner == w->playernum + 1)
        return 0;
    if (s->box_mins[2] == 0 && s->box_maxs[2] == 1)
        return 0;
    int empty = 1;
    for (int k = 0; k < 3; k++)
        empty &= s->box_mins[k] == 0 && s->box_maxs[k] == 0;
    if (empty)
        return 0;
    const char *name = w->models[s->modelindex];
    size_t n = strlen(name);
    if (name[0] == '*')
        return s->solid_type == HL_SOLID_BBOX;   // a SOLID_SLIDEBOX brush is traced as its model
    return n > 4 && !strcmp(name + n - 4, ".mdl");   // sprites are no physents
}

// Then the boxes: the players the clients make solid for their traces (EV_SetSolidPlayers(idx - 1):
// every player but the shooter) as the hull of each player's state, -16 -16 -36 .. 16 16 36 about
// the origin standing, -16 -16 -18 .. 16 16 18 ducking (`usehull` 1: the physent's mins and maxs
// are the player hull of its usehull, Xash3D CL_SetSolidPlayers; PM_STUDIO_BOX traces that box)
// unless his state says SOLID_NOT (a dead player), and the other solid entities (box_physent: monsters) as their own box. A line that meets one
// before what hlbullet_trace found stops there: model and entity -1, `player` or `monster` that
// entity.
static void trace_boxes(const world_t *w, hlbullet_t *b, int shooter)
{
    static const float hull_min[2][3] = {{-16, -16, -36}, {-16, -16, -18}}, hull_max[2][3] = {{16, 16, 36}, {16, 16, 18}};
    int last = w->maxclients > 0 && w->maxclients <= WORLD_MAX_PLAYERS ? w->maxclients : 0;
    vec3_t d;
    for (int k = 0; k < 3; k++)
        d[k] = b->end[k] - b->src[k];
    float best = 1;   // the fraction of the line the hit found (1: the end)
    for (int k = 0; k < 3; k++)
        if (d[k] != 0 && b->model >= 0) {
            best = (b->endpos[k] - b->src[k]) / d[k];
            break;
        }
    int hit = 0;
    for (int i = 1; i < w->num_entities && w->entities; i++) {
        const entity_state_t *s = &w->entities[i].cur;
        const float *mins, *maxs;
        if (i == shooter)
            continue;
        if (i <= last) {
            // a dead player is SOLID_NOT (his entity state says so): not solid (CL_SetSolidPlayers)
            if (!world_entity_visible(w, i) || s->modelindex <= 0 || s->solid_type == HL_SOLID_NOT)
                continue;
            mins = hull_min[s->usehull != 0];
            maxs = hull_max[s->usehull != 0];
        } else {
            if (!box_physent(w, i))
                continue;
            mins = s->box_mins;
            maxs = s->box_maxs;
        }
        if (!valid_pos(s->origin))
            continue;
        vec3_t lo, hi;
        for (int k = 0; k < 3; k++) {
            lo[k] = s->origin[k] + mins[k];
            hi[k] = s->origin[k] + maxs[k];
        }
        float t = box_fraction(b->src, d, lo, hi, best);
        if (t < 0)
            continue;
        best = t;
        hit = i;
    }
    if (!hit)
        return;
    b->startsolid |= best == 0;   // inside the box: the engine's startsolid
    b->fraction = best;
    b->player = hit <= last ? hit : 0;
    b->monster = hit > last ? hit : 0;
    b->model = b->entity = -1;
    b->texture[0] = 0;
    memset(b->normal, 0, sizeof(vec3_t));
    for (int k = 0; k < 3; k++)
        b->endpos[k] = b->src[k] + d[k] * best;
}

void hlbullet_trace_all(const bsp_t *bsp, const world_t *w, hlbullet_t *b, int shooter)
{
    hlbullet_trace(bsp, w, b);
    trace_boxes(w, b, shooter);
}

// Counter-Strike's bullet types (cs16-client's EV_DescribeBulletTypeParameters, `ev_cs16.cpp`): how
// many units past a wall's face the bullet goes on from (its power, which the wall's material cuts)
// and how far it may have flown on a trace for it to go through that wall (its distance).
enum { AMMO_NONE, AMMO_9MM, AMMO_45ACP, AMMO_50AE, AMMO_762MM, AMMO_556MM, AMMO_338MAG, AMMO_57MM, AMMO_357SIG,
       AMMO_BUCKSHOT, NUM_AMMO };
static const struct {
    int power;
    float distance;
} ammo[NUM_AMMO] = {
    [AMMO_NONE] = { 0, 0 },       [AMMO_9MM] = { 21, 800 },    [AMMO_45ACP] = { 15, 500 },
    [AMMO_50AE] = { 30, 1000 },   [AMMO_762MM] = { 39, 5000 }, [AMMO_556MM] = { 35, 4000 },
    [AMMO_338MAG] = { 45, 8000 }, [AMMO_57MM] = { 30, 2000 },  [AMMO_357SIG] = { 25, 800 },
    [AMMO_BUCKSHOT] = { 0, 0 },   // (the default case: none)
};

// The weapons whose client events fire bullets (ev_hldm.cpp; Counter-Strike's: cs16-client's
// event_<gun>.cpp): pellets a shot, range, and the spread (buckshot: random in the cone; the
// others: the server's own spread, fparam1/2, divided by fparam_div); Counter-Strike's also their
// bullet type and the walls a bullet stops on at most (EV_HLDM_FireBullets' iPenetration: the
// shotguns 1, the awp 3, every other gun 2; 0 here: Half-Life's, one trace).
typedef struct {
    const char *name;
    int shots_sp, shots_mp;
    float range;
    float spread_sp[2], spread_mp[2];   // buckshot cones; 0: fparam1/2 are the offsets
    int tracer_freq;                    // the mp5: every other bullet is a tracer and leaves no decal
    float fparam_div;                   // 0: 1 (the scout sends its spread x 1000)
    int sound;                          // HLBULLET_SOUND_*
    uint8_t type;                       // Counter-Strike: AMMO_*
    uint8_t walls;                      // Counter-Strike: walls a bullet stops on at most; 0 Half-Life
} bullet_rule_t;

// A Counter-Strike pistol or rifle: one bullet, the server's spread (the punch: hltent_event_aim).
#define CS_RIFLE(n, range, type, walls) { n, 1, 1, range, { 0, 0 }, { 0, 0 }, 0, 0, HLBULLET_SOUND_CS, type, walls }
#define CS_GUN(n, div, type) { n, 1, 1, 8192, { 0, 0 }, { 0, 0 }, 0, div, HLBULLET_SOUND_CS, type, 2 }

static const bullet_rule_t bullets[] = {
    { "glock1", 1, 1, 8192, { 0, 0 }, { 0, 0 }, 0, 0, HLBULLET_SOUND_HL, 0, 0 },   // BULLET_PLAYER_9MM
    { "glock2", 1, 1, 8192, { 0, 0 }, { 0, 0 }, 0, 0, HLBULLET_SOUND_HL, 0, 0 },
    { "mp5", 1, 1, 8192, { 0, 0 }, { 0, 0 }, 2, 0, HLBULLET_SOUND_HL, 0, 0 },      // BULLET_PLAYER_MP5
    { "python", 1, 1, 8192, { 0, 0 }, { 0, 0 }, 0, 0, HLBULLET_SOUND_HL, 0, 0 },   // BULLET_PLAYER_357
    { "shotgun1", 6, 4, 2048, { 0.08716f, 0.08716f }, { 0.08716f, 0.04362f }, 0, 0, HLBULLET_SOUND_HL_BUCK, 0, 0 },
    { "shotgun2", 12, 8, 2048, { 0.08716f, 0.08716f }, { 0.17365f, 0.04362f }, 0, 0, HLBULLET_SOUND_HL_BUCK, 0, 0 },
    // Counter-Strike 1.6 (docs/goldsrc.md): the shotguns' buckshot in a 0.0725 cone, 8192 units
    { "m3", 9, 9, 8192, { 0.0725f, 0.0725f }, { 0.0725f, 0.0725f }, 0, 0, HLBULLET_SOUND_CS, AMMO_BUCKSHOT, 1 },
    { "xm1014", 6, 6, 8192, { 0.0725f, 0.0725f }, { 0.0725f, 0.0725f }, 0, 0, HLBULLET_SOUND_CS, AMMO_BUCKSHOT, 1 },
    CS_RIFLE("usp", 8192, AMMO_45ACP, 2),
    CS_RIFLE("glock18", 4096, AMMO_9MM, 2),
    CS_RIFLE("p228", 8192, AMMO_357SIG, 2),
    CS_GUN("elite_left", 0, AMMO_9MM),    // the aim as it comes (no punch)
    CS_GUN("elite_right", 0, AMMO_9MM),
    CS_RIFLE("fiveseven", 8192, AMMO_57MM, 2),
    CS_RIFLE("deagle", 8192, AMMO_50AE, 2),
    CS_RIFLE("tmp", 8192, AMMO_9MM, 2),
    CS_RIFLE("ump45", 8192, AMMO_45ACP, 2),
    CS_RIFLE("mac10", 8192, AMMO_45ACP, 2),
    CS_RIFLE("mp5n", 8192, AMMO_9MM, 2),
    CS_RIFLE("p90", 8192, AMMO_57MM, 2),
    CS_GUN("famas", 0, AMMO_556MM),       // cs16-client: punch / 10^7, nothing
    CS_RIFLE("galil", 8192, AMMO_556MM, 2),
    CS_RIFLE("ak47", 8192, AMMO_762MM, 2),
    CS_RIFLE("aug", 8192, AMMO_556MM, 2),
    CS_RIFLE("m4a1", 8192, AMMO_556MM, 2),
    CS_RIFLE("sg552", 8192, AMMO_556MM, 2),
    CS_GUN("scout", 1000, AMMO_762MM),    // its spread comes x 1000
    CS_RIFLE("awp", 8192, AMMO_338MAG, 3),
    CS_RIFLE("g3sg1", 8192, AMMO_762MM, 2),
    CS_RIFLE("sg550", 8192, AMMO_556MM, 2),
    CS_RIFLE("m249", 8192, AMMO_556MM, 2),
};

static const bullet_rule_t *find_rule(const char *script)
{
    for (size_t i = 0; i < sizeof bullets / sizeof bullets[0]; i++)
        if (!strcmp(bullets[i].name, script))
            return &bullets[i];
    return NULL;
}

int hlbullet_cs_penetration(const char *script, int *power, float *distance, int *walls)
{
    const bullet_rule_t *rule = script ? find_rule(script) : NULL;
    if (!rule || !rule->walls)
        return 0;
    *power = ammo[rule->type].power;
    *distance = ammo[rule->type].distance;
    *walls = rule->walls;
    return 1;
}

// The material of a Counter-Strike hit as EV_HLDM_PlayTextureSound returns it: a player's body is
// flesh, the world's by its texture (concrete when materials.txt does not name it; none when no face
// holds the hit: EV_TraceTexture's NULL), anything else (a brush entity, a hostage's box) none.
static char cs_type(const hlmat_t *mat, const hlbullet_t *b)
{
    if (b->player)
        return HLMAT_FLESH;
    return b->entity == 0 && b->texture[0] ? hlmat_type(mat, b->texture) : 0;
}

// How the wall's material cuts a bullet's power (EV_HLDM_FireBullets' switch; the power is an int,
// so the product is cut to a whole number).
static int cut_power(int power, char type)
{
    double f = 1;
    switch (type) {
    case HLMAT_METAL: f = 0.15; break;
    case HLMAT_CONCRETE: f = 0.25; break;
    case HLMAT_VENT:
    case HLMAT_GRATE: f = 0.5; break;
    case HLMAT_TILE: f = 0.65; break;
    case HLMAT_COMPUTER: f = 0.4; break;
    default: break;
    }
    return (int)((double)power * f);
}

// One Counter-Strike bullet from src along dir (not of unit length: the aim plus the spread, as the
// client's vecDir), cs16-client's EV_HLDM_FireBullets loop. Each trace (players solid, the shooter
// left out) runs `dist` x dir from where the bullet is; the distance it flew (fraction x dist) past
// the type's distance leaves it no more walls, else one fewer. Its hit gets the material, which cuts
// the power, and a decal (on the world or a brush entity). With walls left, the distance left halves,
// the bullet goes on from the hit + power x dir, and a trace from there back to the gun that does
// not start inside something makes a second hit where it meets the wall's far side (`exit`). A trace
// that starts inside something (a wall thicker than the power, or the gun inside a brush entity or
// a box: the engine's startsolid, fraction 0) or flies no distance ends the bullet. A hit on the
// world's `sky` texture (isSky) is listed (its sound) with no decal and no far side. Writes hits
// at out[n..max), returns the new n; *x: the random stream.
static int fire_cs(const bsp_t *bsp, const world_t *w, const world_decal_t *e, const hlmat_t *mat,
                   const bullet_rule_t *rule, const vec3_t gun, const vec3_t dir, const vec3_t tracer_src, int bullet,
                   uint32_t *x, hlbullet_t *out, int n, int max)
{
    float dist = rule->range, reach = ammo[rule->type].distance;
    int power = ammo[rule->type].power, walls = rule->walls;
    vec3_t from;
    memcpy(from, gun, sizeof from);
    while (walls > 0 && n < max) {
        hlbullet_t *b = &out[n];
        memset(b, 0, sizeof *b);
        memcpy(b->src, from, sizeof(vec3_t));
        memcpy(b->tracer_src, tracer_src, sizeof(vec3_t));
        for (int k = 0; k < 3; k++)
            b->end[k] = from[k] + dist * dir[k];
        b->bullet = (uint8_t)bullet;
        hlbullet_trace_all(bsp, w, b, e->entity);
        float flown = b->fraction * dist;
        // a trace that starts inside something (the first one too: a gun inside a brush entity or
        // another player's box; later ones inside the wall the bullet went into) has the engine's
        // fraction 0, as one with no distance left: the client's flCurrentDistance 0 ends the bullet
        if (b->startsolid || flown == 0)
            break;
        n++;
        walls = flown > reach ? 0 : walls - 1;
        b->type = cs_type(mat, b);
        power = cut_power(power, b->type);
        // isSky (EV_HLDM_PlayTextureSound: the world's texture named exactly "sky"): the texture's
        // sound and the power's cut as any other, then EV_HLDM_DecalGunshot returns at once
        b->sky = b->entity == 0 && !strcmp(b->texture, "sky");
        if (b->model >= 0 && !b->sky)
            b->decal = (uint8_t)((int)hlbullet_frand(x, 0, 4.999f) + 1);   // RandomLong(0, 4) + 1
        if (walls <= 0 || n >= max)
            break;
        dist = (dist - flown) * 0.5f;
        for (int k = 0; k < 3; k++)
            from[k] = b->endpos[k] + (float)power * dir[k];
        // the trace back, from where the bullet goes on to the gun: the wall's far side
        hlbullet_t *o = &out[n];
        memset(o, 0, sizeof *o);
        memcpy(o->src, from, sizeof(vec3_t));
        memcpy(o->end, gun, sizeof(vec3_t));
        memcpy(o->tracer_src, tracer_src, sizeof(vec3_t));
        hlbullet_trace_all(bsp, w, o, e->entity);
        if (o->startsolid || o->model < 0 || b->sky)
            continue;   // inside the wall still, on a body, or the front's isSky: nothing there
        o->exit = 1;
        o->bullet = (uint8_t)bullet;
        o->type = b->type;   // the front's material picks the puff and the sparks
        o->decal = (uint8_t)((int)hlbullet_frand(x, 0, 4.999f) + 1);
        n++;
    }
    return n;
}

int hlbullet_fire(const bsp_t *bsp, const world_t *w, const world_decal_t *e, const hlmat_t *mat, hlbullet_t *out,
                  int max, int *sound)
{
    if (!bsp || !w || !e || e->te != 0 || bsp->num_models <= 0 || max <= 0)
        return 0;
    const bullet_rule_t *rule = find_rule(e->script);
    if (!rule)
        return 0;
    if (sound)
        *sound = rule->sound;
    // the gun and its aim (EV_GetGunPosition, engine/hltent.c: the shells come from the same place)
    vec3_t src, ang;
    hltent_event_aim(e, src, ang);
    if (!valid_pos(src) || !isfinite(ang[0]) || !isfinite(ang[1]) || !isfinite(ang[2]))
        return 0;
    vec3_t fwd, right, up;
    angle_vectors(ang, fwd, right, up);
    int mp = w->maxclients > 1;
    int shots = mp ? rule->shots_mp : rule->shots_sp;
    const float *cone = mp ? rule->spread_mp : rule->spread_sp;
    int player = e->entity >= 1 && e->entity <= (w->maxclients > 0 ? w->maxclients : WORLD_MAX_PLAYERS);
    uint32_t x = e->seed ? e->seed : 1;
    int n = 0;
    for (int shot = 0; shot < shots && n < max; shot++) {
        float sx, sy;
        if (cone[0] > 0) {
            float z;
            int guard = 0;
            do {
                sx = hlbullet_frand(&x, -0.5f, 0.5f) + hlbullet_frand(&x, -0.5f, 0.5f);
                sy = hlbullet_frand(&x, -0.5f, 0.5f) + hlbullet_frand(&x, -0.5f, 0.5f);
                z = sx * sx + sy * sy;
            } while (z > 1 && ++guard < 32);
            sx *= cone[0];
            sy *= cone[1];
        } else {
            float div = rule->fparam_div > 0 ? rule->fparam_div : 1;
            sx = isfinite(e->fparam[0]) ? e->fparam[0] / div : 0;
            sy = isfinite(e->fparam[1]) ? e->fparam[1] / div : 0;
        }
        vec3_t dir, tracer_src;
        for (int k = 0; k < 3; k++) {
            dir[k] = fwd[k] + sx * right[k] + sy * up[k];
            tracer_src[k] = src[k] + (player ? (k == 2 ? -4.0f : 0.0f) + right[k] * 2 + fwd[k] * 16 : 0);
        }
        if (rule->walls) {   // Counter-Strike: through walls
            n = fire_cs(bsp, w, e, mat, rule, src, dir, tracer_src, shot, &x, out, n, max);
            continue;
        }
        hlbullet_t *b = &out[n++];
        memset(b, 0, sizeof *b);
        memcpy(b->src, src, sizeof(vec3_t));
        memcpy(b->tracer_src, tracer_src, sizeof(vec3_t));
        for (int k = 0; k < 3; k++)
            b->end[k] = src[k] + rule->range * dir[k];
        b->bullet = (uint8_t)shot;
        hlbullet_trace_all(bsp, w, b, e->entity);
        // EV_HLDM_CheckTracer: the shots that draw a tracer (the mp5's every other, counted a
        // player) leave no decal (and, the mp5's, no texture sound)
        if (rule->tracer_freq && (e->fired + (uint32_t)shot) % (uint32_t)rule->tracer_freq == 0) {
            b->tracer = 1;
            continue;
        }
        if (b->model < 0)
            continue;
        b->decal = (uint8_t)((int)hlbullet_frand(&x, 0, 4.999f) + 1);   // RandomLong(0, 4) + 1
    }
    return n;
}
