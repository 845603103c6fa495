// snd_client.c -- sounds the games' clients play themselves: temp entities, muzzle flashes, chat, Q2 entity events
//
// The servers never send these as sound messages: Quake's client plays the
// explosion for TE_EXPLOSION, Quake II's plays every player weapon from its
// muzzle flash message. The tables below are the facts of the released clients
// (cl_tent.c, cl_fx.c, cl_parse.c); their rand() choices become a hash of the
// frame and event so the same demo always picks the same ricochet.
#include "snd_local.h"

#include <string.h>

#define HL_ATTN_NORM 0.8f   // GoldSrc's ATTN_NORM (const.h)

// Quake II attenuations and channels
#define ATTN_NONE   0.0f
#define ATTN_NORM   1.0f
#define ATTN_IDLE   2.0f
#define ATTN_STATIC 3.0f
#define CHAN_AUTO   0
#define CHAN_WEAPON 1
#define CHAN_BODY   4

// A stand-in for the client's rand(): fixed by the frame, the event and a salt.
static uint32_t pick(const world_t *w, int index, uint32_t salt)
{
    return world_hash32(w->seq * 0x9e3779b9U ^ (uint32_t)index * 0x85ebca6bU ^ salt);
}

static int add(snd_req_t *out, int n, int max, const char *name, int entity, int channel, float volume,
               float attenuation, const float *origin, float delay)
{
    if (n >= max || !name)
        return n;
    snd_req_t *r = &out[n];
    memset(r, 0, sizeof(*r));
    r->name = name;
    r->entity = entity;
    r->channel = channel;
    r->volume = volume;
    r->attenuation = attenuation;
    r->delay = delay;
    if (origin) {
        memcpy(r->origin, origin, sizeof(r->origin));
        r->has_origin = 1;
    }
    return n + 1;
}

static int add_local(snd_req_t *out, int n, int max, const char *name)
{
    n = add(out, n, max, name, 0, CHAN_AUTO, 1.0f, ATTN_NONE, NULL, 0.0f);
    if (n > 0)
        out[n - 1].local = 1;
    return n;
}

// ---- Quake ---------------------------------------------------------------------

static const char *const q1_ric[4] = { "weapons/ric3.wav", "weapons/ric1.wav", "weapons/ric2.wav",
                                       "weapons/ric3.wav" };

static int q1_event(const world_t *w, const world_event_t *ev, int index, snd_req_t *out, int max)
{
    if (ev->type == EV_PRINT) {
        // a print starting with \1 is a chat line: the intercom sound
        const char *t = world_event_text(w, ev);
        return t[0] == 1 ? add_local(out, 0, max, "misc/talk.wav") : 0;
    }
    if (ev->type != EV_TEMPENT)
        return 0;
    const world_fx_event_t *fx = &ev->u.fx;
    const char *name = NULL;
    switch (fx->kind) {
    case FX_SPIKE:
    case FX_SUPERSPIKE:
        // four times in five a tink, else one of the ricochets
        if (pick(w, index, 1) % 5)
            name = "weapons/tink1.wav";
        else
            name = q1_ric[pick(w, index, 2) & 3];
        break;
    case FX_EXPLOSION:
    case FX_TAREXPLOSION:
    case FX_EXPLOSION2:
        name = "weapons/r_exp3.wav";
        break;
    case FX_WIZSPIKE:
        name = "wizard/hit.wav";
        break;
    case FX_KNIGHTSPIKE:
        name = "hknight/hit.wav";
        break;
    default:
        return 0;
    }
    return add(out, 0, max, name, -1, 0, 1.0f, ATTN_NORM, fx->origin, 0.0f);
}

// ---- Quake II ------------------------------------------------------------------

enum {
    Q2TE_GUNSHOT = 0, Q2TE_BLASTER = 2, Q2TE_RAILTRAIL = 3, Q2TE_EXPLOSION1 = 5, Q2TE_EXPLOSION2 = 6,
    Q2TE_ROCKET_EXPLOSION = 7, Q2TE_GRENADE_EXPLOSION = 8, Q2TE_SPARKS = 9, Q2TE_SPLASH = 10,
    Q2TE_SCREEN_SPARKS = 12, Q2TE_SHIELD_SPARKS = 13, Q2TE_BULLET_SPARKS = 14,
    Q2TE_ROCKET_EXPLOSION_WATER = 17, Q2TE_GRENADE_EXPLOSION_WATER = 18, Q2TE_BOSSTPORT = 22,
    Q2TE_PLASMA_EXPLOSION = 28, Q2TE_EXPLOSION1_BIG = 53, Q2TE_EXPLOSION1_NP = 54
};

static const char *const q2_ric[4] = { NULL, "world/ric1.wav", "world/ric2.wav", "world/ric3.wav" };
static const char *const q2_machgf[5] = { "weapons/machgf1b.wav", "weapons/machgf2b.wav", "weapons/machgf3b.wav",
                                          "weapons/machgf4b.wav", "weapons/machgf5b.wav" };
static const char *const q2_spark[3] = { "world/spark5.wav", "world/spark6.wav", "world/spark7.wav" };
static const char *const q2_step[4] = { "player/step1.wav", "player/step2.wav", "player/step3.wav",
                                        "player/step4.wav" };

static int q2_tempent(const world_t *w, const world_fx_event_t *fx, int index, snd_req_t *out, int max)
{
    const float *at = fx->origin;
    uint32_t r;
    switch (fx->raw_type) {
    case Q2TE_GUNSHOT:
    case Q2TE_BULLET_SPARKS:
        r = pick(w, index, 3) & 15;   // three times in sixteen, a ricochet
        if (r >= 1 && r <= 3)
            return add(out, 0, max, q2_ric[r], 0, 0, 1.0f, ATTN_NORM, at, 0.0f);
        return 0;
    case Q2TE_BLASTER:
    case Q2TE_SCREEN_SPARKS:
    case Q2TE_SHIELD_SPARKS:
        return add(out, 0, max, "weapons/lashit.wav", 0, 0, 1.0f, ATTN_NORM, at, 0.0f);
    case Q2TE_SPLASH:
        if (fx->color == 1)   // SPLASH_SPARKS
            return add(out, 0, max, q2_spark[pick(w, index, 4) % 3], 0, 0, 1.0f, ATTN_STATIC, at, 0.0f);
        return 0;
    case Q2TE_RAILTRAIL:
        return add(out, 0, max, "weapons/railgf1a.wav", 0, 0, 1.0f, ATTN_NORM, fx->end, 0.0f);
    case Q2TE_EXPLOSION2:
    case Q2TE_GRENADE_EXPLOSION:
        return add(out, 0, max, "weapons/grenlx1a.wav", 0, 0, 1.0f, ATTN_NORM, at, 0.0f);
    case Q2TE_GRENADE_EXPLOSION_WATER:
    case Q2TE_ROCKET_EXPLOSION_WATER:
        return add(out, 0, max, "weapons/xpld_wat.wav", 0, 0, 1.0f, ATTN_NORM, at, 0.0f);
    case Q2TE_EXPLOSION1:
    case Q2TE_ROCKET_EXPLOSION:
    case Q2TE_PLASMA_EXPLOSION:
    case Q2TE_EXPLOSION1_BIG:
    case Q2TE_EXPLOSION1_NP:
        return add(out, 0, max, "weapons/rocklx1a.wav", 0, 0, 1.0f, ATTN_NORM, at, 0.0f);
    case Q2TE_BOSSTPORT:
        return add(out, 0, max, "misc/bigtele.wav", 0, 0, 1.0f, ATTN_NONE, at, 0.0f);
    default:
        return 0;
    }
}

// A player's muzzle flash (svc_muzzleflash): the weapon sound at the player, on its
// weapon channel; a few weapons add their reload sound 0.1 s later.
static int q2_muzzleflash(const world_t *w, const world_fx_event_t *fx, int index, snd_req_t *out, int max)
{
    int e = fx->entity;
    float vol = (fx->raw_type & 128) ? 0.2f : 1.0f;   // MZ_SILENCED
    const char *fire = NULL, *reload = NULL;
    int n = 0;
    switch (fx->raw_type & ~128) {
    case 0: fire = "weapons/blastf1a.wav"; break;                  // MZ_BLASTER
    case 1: fire = q2_machgf[pick(w, index, 5) % 5]; break;        // MZ_MACHINEGUN
    case 2: fire = "weapons/shotgf1b.wav"; reload = "weapons/shotgr1b.wav"; break;
    case 3: fire = q2_machgf[pick(w, index, 5) % 5]; break;        // MZ_CHAINGUN1
    case 4:                                                        // MZ_CHAINGUN2: two shots
        n = add(out, n, max, q2_machgf[pick(w, index, 5) % 5], e, CHAN_WEAPON, vol, ATTN_NORM, NULL, 0.0f);
        return add(out, n, max, q2_machgf[pick(w, index, 6) % 5], e, CHAN_AUTO, vol, ATTN_NORM, NULL, 0.05f);
    case 5:                                                        // MZ_CHAINGUN3: three
        n = add(out, n, max, q2_machgf[pick(w, index, 5) % 5], e, CHAN_WEAPON, vol, ATTN_NORM, NULL, 0.0f);
        n = add(out, n, max, q2_machgf[pick(w, index, 6) % 5], e, CHAN_AUTO, vol, ATTN_NORM, NULL, 0.033f);
        return add(out, n, max, q2_machgf[pick(w, index, 7) % 5], e, CHAN_AUTO, vol, ATTN_NORM, NULL, 0.066f);
    case 6: fire = "weapons/railgf1a.wav"; break;                  // MZ_RAILGUN
    case 7: fire = "weapons/rocklf1a.wav"; reload = "weapons/rocklr1b.wav"; break;
    case 8: fire = "weapons/grenlf1a.wav"; reload = "weapons/grenlr1b.wav"; break;
    case 9:                                                        // MZ_LOGIN, MZ_LOGOUT, MZ_RESPAWN
    case 10:
    case 11: fire = "weapons/grenlf1a.wav"; vol = 1.0f; break;
    case 12: fire = "weapons/bfg__f1y.wav"; break;                 // MZ_BFG
    case 13: fire = "weapons/sshotf1b.wav"; break;                 // MZ_SSHOTGUN
    case 14: fire = "weapons/hyprbf1a.wav"; break;                 // MZ_HYPERBLASTER
    case 15: fire = "items/respawn1.wav"; vol = 1.0f; break;       // MZ_ITEMRESPAWN
    case 16: fire = "weapons/rippfire.wav"; break;                 // MZ_IONRIPPER
    case 17: fire = "weapons/hyprbf1a.wav"; break;                 // MZ_BLUEHYPERBLASTER
    case 18: fire = "weapons/plasshot.wav"; break;                 // MZ_PHALANX
    default: return 0;
    }
    n = add(out, n, max, fire, e, CHAN_WEAPON, vol, ATTN_NORM, NULL, 0.0f);
    if (reload)
        n = add(out, n, max, reload, e, CHAN_AUTO, vol, ATTN_NORM, NULL, 0.1f);
    return n;
}

// A monster's muzzle flash (svc_muzzleflash2, MZ2_*): its weapon sound, from
// cl_fx.c's table, by ranges of flash numbers.
static const struct {
    uint8_t first, last;
    const char *sound;   // NULL: a silent flash (the game sends the sound itself)
    uint8_t attn_none;
} q2_monster_flash[] = {
    { 1, 3, "tank/tnkatck3.wav", 0 },        { 4, 22, "tank/tnkatk2", 0 },   // + a..e
    { 23, 25, "tank/tnkatck1.wav", 0 },      { 26, 38, "infantry/infatck1.wav", 0 },
    { 39, 40, "soldier/solatck2.wav", 0 },   { 41, 42, "soldier/solatck1.wav", 0 },
    { 43, 44, "soldier/solatck3.wav", 0 },   { 45, 52, "gunner/gunatck2.wav", 0 },
    { 53, 56, "gunner/gunatck3.wav", 0 },    { 57, 57, "chick/chkatck2.wav", 0 },
    { 58, 59, "flyer/flyatck3.wav", 0 },     { 60, 60, "medic/medatck1.wav", 0 },
    { 62, 62, "hover/hovatck1.wav", 0 },     { 63, 69, "infantry/infatck1.wav", 0 },
    { 70, 72, "tank/rocket.wav", 0 },        { 73, 77, "infantry/infatck1.wav", 1 },
    { 78, 81, "tank/rocket.wav", 0 },        { 82, 82, "floater/fltatck1.wav", 0 },
    // 83..100: soldiers 3..8, blaster / shotgun / machinegun in turn (below)
    { 102, 118, "makron/blaster.wav", 0 },   { 120, 125, "boss3/xfire.wav", 0 },
    // the mission packs' monsters
    { 138, 138, "infantry/infatck1.wav", 1 }, { 141, 141, "infantry/infatck1.wav", 0 },
    { 142, 142, "chick/chkatck2.wav", 0 },   { 143, 143, "soldier/solatck2.wav", 0 },
    { 144, 146, "tank/tnkatck3.wav", 0 },    { 148, 148, "weapons/disint2.wav", 0 },
    { 149, 149, "tank/tnkatck3.wav", 0 },    { 152, 152, "infantry/infatck1.wav", 1 },
    { 156, 190, "tank/tnkatck3.wav", 0 },    { 191, 191, "tank/rocket.wav", 0 },
};
static const char *const q2_tnkatk2[5] = { "tank/tnkatk2a.wav", "tank/tnkatk2b.wav", "tank/tnkatk2c.wav",
                                           "tank/tnkatk2d.wav", "tank/tnkatk2e.wav" };
static const char *const q2_soldier[3] = { "soldier/solatck2.wav", "soldier/solatck1.wav",
                                           "soldier/solatck3.wav" };

static int q2_monster_muzzleflash(const world_t *w, const world_fx_event_t *fx, int index, snd_req_t *out, int max)
{
    int n = fx->raw_type;
    if (n >= 83 && n <= 100)
        return add(out, 0, max, q2_soldier[(n - 83) % 3], fx->entity, CHAN_WEAPON, 1.0f, ATTN_NORM, NULL, 0.0f);
    for (size_t i = 0; i < sizeof(q2_monster_flash) / sizeof(q2_monster_flash[0]); i++) {
        if (n < q2_monster_flash[i].first || n > q2_monster_flash[i].last)
            continue;
        const char *name = q2_monster_flash[i].sound;
        if (n >= 4 && n <= 22)
            name = q2_tnkatk2[pick(w, index, 9) % 5];
        return add(out, 0, max, name, fx->entity, CHAN_WEAPON, 1.0f,
                   q2_monster_flash[i].attn_none ? ATTN_NONE : ATTN_NORM, NULL, 0.0f);
    }
    return 0;
}

static int q2_event(const world_t *w, const world_event_t *ev, int index, snd_req_t *out, int max)
{
    if (ev->type == EV_PRINT)   // PRINT_CHAT
        return ev->u.text.level == 3 ? add_local(out, 0, max, "misc/talk.wav") : 0;
    if (ev->type == EV_TEMPENT)
        return q2_tempent(w, &ev->u.fx, index, out, max);
    // the decoder gives muzzle flashes as lights: count 1 = a player's, 2 = a monster's
    if (ev->type == EV_DLIGHT && ev->u.fx.kind == FX_NONE && ev->u.fx.entity > 0) {
        if (ev->u.fx.count == 1)
            return q2_muzzleflash(w, &ev->u.fx, index, out, max);
        if (ev->u.fx.count == 2)
            return q2_monster_muzzleflash(w, &ev->u.fx, index, out, max);
    }
    return 0;
}

int snd_client_event(const world_t *w, const world_event_t *ev, int index, snd_req_t *out, int max)
{
    switch (w->game) {
    case GAME_QUAKE:
        return q1_event(w, ev, index, out, max);
    case GAME_QUAKE2:
        return q2_event(w, ev, index, out, max);
    default:
        return 0;
    }
}

// ---- Half-Life: temp models hitting the world ------------------------------------

static const char *const hl_shell[3] = { "player/pl_shell1.wav", "player/pl_shell2.wav", "player/pl_shell3.wav" };
static const char *const hl_sshell[3] = { "weapons/sshell1.wav", "weapons/sshell2.wav", "weapons/sshell3.wav" };
static const char *const hl_ric[5] = { "weapons/ric1.wav", "weapons/ric2.wav", "weapons/ric3.wav", "weapons/ric4.wav",
                                       "weapons/ric5.wav" };
static const char *const hl_glass[4] = { "debris/glass1.wav", "debris/glass2.wav", "debris/glass3.wav",
                                         "debris/glass4.wav" };
static const char *const hl_metal[6] = { "debris/metal1.wav", "debris/metal2.wav", "debris/metal3.wav",
                                         "debris/metal4.wav", "debris/metal5.wav", "debris/metal6.wav" };
static const char *const hl_flesh[7] = { "debris/flesh1.wav", "debris/flesh2.wav", "debris/flesh3.wav",
                                         "debris/flesh4.wav", "debris/flesh5.wav", "debris/flesh6.wav",
                                         "debris/flesh7.wav" };
static const char *const hl_wood[4] = { "debris/wood1.wav", "debris/wood2.wav", "debris/wood3.wav",
                                        "debris/wood4.wav" };
static const char *const hl_concrete[3] = { "debris/concrete1.wav", "debris/concrete2.wav", "debris/concrete3.wav" };

// The client's COM_RandomLong(lo, hi) for draw k of one hit: from the hit's own seed.
static int hl_rand(const hltent_bounce_t *b, uint32_t k, int lo, int hi)
{
    return lo + (int)(world_hash32(world_hash32(b->seed) + k * 0x9e3779b9U) % (uint32_t)(hi - lo + 1));
}

// CL_TempEntPlaySound (the engine's; Xash3D FWGS's cl_tent.c has the same rules, docs/goldsrc.md):
// a name of the type's set; shells always when falling at 200 a second or more, else one hit in
// four; other types one hit in six; nothing when the model stopped there (damp 0); volume 0.8
// (shotgun shells 0.5) times the vertical speed over 350 (shells) or 450, at most 1; debris one
// time in four at a random pitch of 95..105; on the model's own body channel, normal attenuation.
int snd_client_hl_bounce(const hltent_bounce_t *b, snd_req_t *out, int max)
{
    const char *const *set;
    int count, shell = 0;
    float vol = 0.8f;
    switch (b->hitsound) {
    case HLTENT_BOUNCE_GLASS: set = hl_glass; count = 4; break;
    case HLTENT_BOUNCE_METAL: set = hl_metal; count = 6; break;
    case HLTENT_BOUNCE_FLESH: set = hl_flesh; count = 7; break;
    case HLTENT_BOUNCE_WOOD: set = hl_wood; count = 4; break;
    case HLTENT_BOUNCE_SHRAP: set = hl_ric; count = 5; break;
    case HLTENT_BOUNCE_SHOTSHELL: set = hl_sshell; count = 3; shell = 1; vol = 0.5f; break;
    case HLTENT_BOUNCE_SHELL: set = hl_shell; count = 3; shell = 1; break;
    case HLTENT_BOUNCE_CONCRETE: set = hl_concrete; count = 3; break;
    default: return 0;   // no type, or a mix of materials
    }
    const char *name = set[hl_rand(b, 0, 0, count - 1)];
    if (shell ? b->zvel < 200 && hl_rand(b, 1, 0, 3) != 0 : hl_rand(b, 1, 0, 5) != 0)
        return 0;
    if (!(b->damp > 0.0f))
        return 0;
    float f = (float)b->zvel / (shell ? 350.0f : 450.0f);
    vol *= f < 1.0f ? f : 1.0f;
    if (!(vol > 0.0f))
        return 0;   // a zero-volume voice: nothing to hear
    float pitch = !shell && hl_rand(b, 2, 0, 3) == 0 ? (float)hl_rand(b, 3, 95, 105) * 0.01f : 1.0f;
    int n = add(out, 0, max, name, -1 - (int)(b->id & 0xffffff), CHAN_BODY, vol, HL_ATTN_NORM, b->org, 0.0f);
    if (n > 0)
        out[0].pitch = pitch;
    return n;
}

// ---- Half-Life: bullets hitting the world ---------------------------------------

// The texture sounds of EV_HLDM_PlayTextureSound (the SDK's ev_hldm.cpp; Counter-Strike's the same
// with snow added, cs16-client's ev_cs16.cpp): names by material, the volume.
typedef struct {
    char type;
    float volume;
    int count;
    const char *names[4];
} hl_texsound_t;

static const hl_texsound_t hl_texsounds[] = {
    {HLMAT_CONCRETE, 0.9f, 2, {"player/pl_step1.wav", "player/pl_step2.wav"}},   // also the default
    {HLMAT_METAL, 0.9f, 2, {"player/pl_metal1.wav", "player/pl_metal2.wav"}},
    {HLMAT_DIRT, 0.9f, 3, {"player/pl_dirt1.wav", "player/pl_dirt2.wav", "player/pl_dirt3.wav"}},
    {HLMAT_VENT, 0.5f, 2, {"player/pl_duct1.wav", "player/pl_duct1.wav"}},
    {HLMAT_GRATE, 0.9f, 2, {"player/pl_grate1.wav", "player/pl_grate4.wav"}},
    {HLMAT_TILE, 0.8f, 4, {"player/pl_tile1.wav", "player/pl_tile3.wav", "player/pl_tile2.wav", "player/pl_tile4.wav"}},
    {HLMAT_SLOSH, 0.9f, 4, {"player/pl_slosh1.wav", "player/pl_slosh3.wav", "player/pl_slosh2.wav",
                            "player/pl_slosh4.wav"}},
    {HLMAT_WOOD, 0.9f, 3, {"debris/wood1.wav", "debris/wood2.wav", "debris/wood3.wav"}},
    {HLMAT_GLASS, 0.8f, 3, {"debris/glass1.wav", "debris/glass2.wav", "debris/glass3.wav"}},
    {HLMAT_COMPUTER, 0.8f, 3, {"debris/glass1.wav", "debris/glass2.wav", "debris/glass3.wav"}},
    {HLMAT_FLESH, 1.0f, 2, {"weapons/bullet_hit1.wav", "weapons/bullet_hit2.wav"}},
    {HLMAT_SNOW, 0.7f, 4, {"debris/pl_snow1.wav", "debris/pl_snow2.wav", "debris/pl_snow3.wav",
                           "debris/pl_snow4.wav"}},   // Counter-Strike only
};
static const char *const cs_ric_metal[2] = {"weapons/ric_metal-1.wav", "weapons/ric_metal-2.wav"};
static const char *const cs_ric[7] = {"weapons/ric1.wav", "weapons/ric2.wav", "weapons/ric3.wav",
                                      "weapons/ric4.wav", "weapons/ric5.wav", "weapons/ric_conc-1.wav",
                                      "weapons/ric_conc-2.wav"};

// Draw k of a bullet's own random numbers: COM_RandomLong(lo, hi).
static int bullet_rand(uint32_t seed, uint32_t k, int lo, int hi)
{
    return lo + (int)(world_hash32(world_hash32(seed) + k * 0x9e3779b9U) % (uint32_t)(hi - lo + 1));
}


int snd_client_hl_bullet(const hlbullet_t *b, int kind, const hlmat_t *mat, uint32_t seed, snd_req_t *out, int max)
{
    if (b->tracer || (b->model < 0 && !b->player && !b->monster))
        return 0;   // a tracer sounds nothing (the mp5's); a bullet that hit nothing here neither
    int n = 0;
    // the material: a player's body is flesh, the world's by its texture, anything else (a brush
    // entity, a monster's box: EV_HLDM_PlayTextureSound knows only entity 0 and the players) no
    // type, which sounds as concrete
    char type = b->player ? HLMAT_FLESH : b->entity == 0 && mat ? hlmat_type(mat, b->texture) : 0;
    if (b->exit)
        type = b->type;   // a wall's far side: its front's material (engine/hlbullet.c)
    if (type == HLMAT_SNOW && kind != HLBULLET_SOUND_CS)
        type = 0;   // Half-Life's client knows no snow: its default
    // a Counter-Strike bullet's hit on a wall's far side (the trace back after it went through)
    // sounds no texture: EV_HLDM_DecalGunshot alone, whose decal trace may ricochet
    if (kind != HLBULLET_SOUND_HL_BUCK && !b->exit) {
        const hl_texsound_t *t = &hl_texsounds[0];
        for (size_t i = 0; i < sizeof hl_texsounds / sizeof hl_texsounds[0]; i++)
            if (hl_texsounds[i].type == type)
                t = &hl_texsounds[i];
        // EV_PlaySound(0, endpos, CHAN_STATIC, name, volume, ATTN_NORM (flesh 1), 0, 96 + 0..15)
        n = add(out, n, max, t->names[bullet_rand(seed, 0, 0, t->count - 1)], 0, CHAN_AUTO, t->volume,
                type == HLMAT_FLESH ? 1.0f : HL_ATTN_NORM, b->endpos, 0.0f);
        if (n > 0)
            out[n - 1].pitch = (float)(96 + bullet_rand(seed, 1, 0, 15)) / 100.0f;
    }
    // EV_HLDM_GunshotDecalTrace (brush hits only, not a body): RandomLong(0, 0x7fff) below
    // 0x7fff / 2 makes a ricochet
    // (Counter-Strike's isSky: EV_HLDM_DecalGunshot returns before that trace: no ricochet)
    int r = bullet_rand(seed, 2, 0, 0x7fff);
    if (b->player || b->monster || b->sky || r >= 0x7fff / 2)
        return n;
    const char *name;
    if (kind != HLBULLET_SOUND_CS)
        name = hl_ric[r % 5];
    else if (type == HLMAT_VENT || type == HLMAT_METAL)
        name = cs_ric_metal[r % 2];
    else
        name = cs_ric[r % 7];
    return add(out, n, max, name, -1, CHAN_AUTO, 1.0f, HL_ATTN_NORM, b->endpos, 0.0f);
}

int snd_client_entity_event(const world_t *w, int e, snd_req_t *out, int max)
{
    if (w->game != GAME_QUAKE2 || e <= 0 || e >= w->num_entities)
        return 0;
    const world_entity_t *ent = &w->entities[e];
    if (ent->seq != w->seq)
        return 0;
    switch (ent->cur.event) {
    case 1:   // EV_ITEM_RESPAWN
        return add(out, 0, max, "items/respawn1.wav", e, CHAN_WEAPON, 1.0f, ATTN_IDLE, NULL, 0.0f);
    case 2:   // EV_FOOTSTEP
        return add(out, 0, max, q2_step[pick(w, e, 8) & 3], e, CHAN_BODY, 1.0f, ATTN_NORM, NULL, 0.0f);
    case 3:   // EV_FALLSHORT
        return add(out, 0, max, "player/land1.wav", e, CHAN_AUTO, 1.0f, ATTN_NORM, NULL, 0.0f);
    case 4:   // EV_FALL
        return add(out, 0, max, "*fall2.wav", e, CHAN_AUTO, 1.0f, ATTN_NORM, NULL, 0.0f);
    case 5:   // EV_FALLFAR
        return add(out, 0, max, "*fall1.wav", e, CHAN_AUTO, 1.0f, ATTN_NORM, NULL, 0.0f);
    case 6:   // EV_PLAYER_TELEPORT
        return add(out, 0, max, "misc/tele1.wav", e, CHAN_WEAPON, 1.0f, ATTN_IDLE, NULL, 0.0f);
    default:
        return 0;
    }
}

static const char *const q1_preload[] = { "weapons/tink1.wav", "weapons/ric1.wav", "weapons/ric2.wav",
                                          "weapons/ric3.wav", "weapons/r_exp3.wav", "wizard/hit.wav",
                                          "hknight/hit.wav", "misc/talk.wav", NULL };
static const char *const q2_preload[] = {
    "world/ric1.wav", "world/ric2.wav", "world/ric3.wav", "weapons/lashit.wav", "weapons/railgf1a.wav",
    "weapons/grenlx1a.wav", "weapons/xpld_wat.wav", "weapons/rocklx1a.wav", "weapons/blastf1a.wav",
    "weapons/machgf1b.wav", "weapons/machgf2b.wav", "weapons/machgf3b.wav", "weapons/machgf4b.wav",
    "weapons/machgf5b.wav", "weapons/shotgf1b.wav", "weapons/shotgr1b.wav", "weapons/rocklf1a.wav",
    "weapons/rocklr1b.wav", "weapons/grenlf1a.wav", "weapons/grenlr1b.wav", "weapons/bfg__f1y.wav",
    "weapons/sshotf1b.wav", "weapons/hyprbf1a.wav", "items/respawn1.wav", "player/step1.wav",
    "player/step2.wav", "player/step3.wav", "player/step4.wav", "player/land1.wav", "misc/tele1.wav",
    "misc/talk.wav", NULL
};
static const char *const hl_preload[] = {
    "player/pl_shell1.wav", "player/pl_shell2.wav", "player/pl_shell3.wav", "weapons/sshell1.wav",
    "weapons/sshell2.wav", "weapons/sshell3.wav", "weapons/ric1.wav", "weapons/ric2.wav", "weapons/ric3.wav",
    "weapons/ric4.wav", "weapons/ric5.wav", "debris/glass1.wav", "debris/glass2.wav", "debris/glass3.wav",
    "debris/glass4.wav", "debris/metal1.wav", "debris/metal2.wav", "debris/metal3.wav", "debris/metal4.wav",
    "debris/metal5.wav", "debris/metal6.wav", "debris/flesh1.wav", "debris/flesh2.wav", "debris/flesh3.wav",
    "debris/flesh4.wav", "debris/flesh5.wav", "debris/flesh6.wav", "debris/flesh7.wav", "debris/wood1.wav",
    "debris/wood2.wav", "debris/wood3.wav", "debris/wood4.wav", "debris/concrete1.wav", "debris/concrete2.wav",
    "debris/concrete3.wav", "player/pl_step1.wav", "player/pl_step2.wav", "player/pl_metal1.wav",
    "player/pl_metal2.wav", "player/pl_dirt1.wav", "player/pl_dirt2.wav", "player/pl_dirt3.wav", "player/pl_duct1.wav",
    "player/pl_grate1.wav", "player/pl_grate4.wav", "player/pl_tile1.wav", "player/pl_tile2.wav", "player/pl_tile3.wav",
    "player/pl_tile4.wav", "player/pl_slosh1.wav", "player/pl_slosh2.wav", "player/pl_slosh3.wav",
    "player/pl_slosh4.wav", "weapons/bullet_hit1.wav", "weapons/bullet_hit2.wav", "debris/pl_snow1.wav",
    "debris/pl_snow2.wav", "debris/pl_snow3.wav", "debris/pl_snow4.wav", "weapons/ric_metal-1.wav",
    "weapons/ric_metal-2.wav", "weapons/ric_conc-1.wav", "weapons/ric_conc-2.wav", NULL
};
static const char *const no_preload[] = { NULL };

const char *const *snd_client_preload(world_game_t game)
{
    return game == GAME_QUAKE ? q1_preload : game == GAME_QUAKE2 ? q2_preload : game == GAME_GOLDSRC ? hl_preload
                                                                                                   : no_preload;
}

int snd_client_hl_crossbow(const float pos[3], int body, int shooter, uint32_t seed, snd_req_t *out, int max)
{
    if (body) {
        // EV_FireCrossbow2 on "something organic" (not a BSP model): EV_PlaySound(idx, endpos, CHAN_BODY,
        // "weapons/xbow_hitbod1.wav" or 2 by RandomLong(0, 1), 1, ATTN_NORM, 0, PITCH_NORM): on the
        // shooter's entity, at the hit
        static const char *const hitbod[2] = {"weapons/xbow_hitbod1.wav", "weapons/xbow_hitbod2.wav"};
        return add(out, 0, max, hitbod[bullet_rand(seed, 4, 0, 1)], shooter, CHAN_BODY, 1.0f, HL_ATTN_NORM, pos, 0.0f);
    }
    // EV_FireCrossbow2: EV_PlaySound(0, endpos, CHAN_BODY, "weapons/xbow_hit1.wav", 0.95..1, ATTN_NORM, 0, PITCH_NORM)
    float volume = 0.95f + 0.05f * (float)bullet_rand(seed, 3, 0, 1000) / 1000.0f;
    return add(out, 0, max, "weapons/xbow_hit1.wav", 0, CHAN_BODY, volume, HL_ATTN_NORM, pos, 0.0f);
}

int snd_client_hl_view_sound(const char *name, const float pos[3], snd_req_t *out, int max)
{
    // HUD_StudioEvent 5004: pfnPlaySoundByNameAtLocation(options, 1.0, attachment 0); the engine
    // starts it as S_StartSound(origin, entity 0, CHAN_AUTO, volume, ATTN_NORM, PITCH_NORM)
    // (Xash3D's reading: CHAN_ITEM, attenuation 1.0)
    if (!name || !name[0])
        return 0;
    return add(out, 0, max, name, 0, CHAN_AUTO, 1.0f, HL_ATTN_NORM, pos, 0.0f);
}
