// goldsrc_events.c -- the sounds of Half-Life's client events (see goldsrc_events.h)
#include "goldsrc_events.h"

#include <stdio.h>
#include <string.h>

// GoldSrc's channels and its normal attenuation
enum { CH_WEAPON = 1, CH_ITEM = 3, CH_STATIC = 6 };
#define ATTN_NORM 0.8f

// A sound an event plays: one of up to three names (picked by the event's random numbers),
// a volume between vol_lo and vol_hi, a pitch of pitch + 0..pitch_range (percent).
typedef struct {
    const char *names[3];
    int channel;
    float vol_lo, vol_hi;
    int pitch, pitch_range;
} hl_ev_sound_t;

// Special cases that read the event's parameters.
// SP_BPARAM1 / SP_BPARAM2: the first sound when that parameter is set, else the second.
enum { SP_NONE, SP_GAUSS, SP_GAUSSSPIN, SP_TRAIN, SP_EGON_FIRE, SP_EGON_STOP, SP_BPARAM1, SP_BPARAM2, SP_SILENT };

typedef struct {
    const char *name;       // the script's short name
    int special;
    hl_ev_sound_t s[2];
} hl_ev_rule_t;

// A Counter-Strike gun: names a / b (the first pair; with SP_BPARAM*, c / d the other).
#define CS_GUN(n, sp, a, b, c, d) \
    {n, sp, {{{a, b}, CH_WEAPON, 1.0f, 1.0f, 94, 15}, {{c, d}, CH_WEAPON, 1.0f, 1.0f, 94, 15}}}

// ev_hldm.cpp's numbers (volume RandomFloat(lo, hi), pitch base + RandomLong(0, range)).
static const hl_ev_rule_t rules[] = {
    {"glock1", SP_NONE, {{{"weapons/pl_gun3.wav"}, CH_WEAPON, 0.92f, 1.0f, 98, 3}}},
    {"glock2", SP_NONE, {{{"weapons/pl_gun3.wav"}, CH_WEAPON, 0.92f, 1.0f, 98, 3}}},
    {"shotgun1", SP_NONE, {{{"weapons/sbarrel1.wav"}, CH_WEAPON, 0.95f, 1.0f, 93, 31}}},
    {"shotgun2", SP_NONE, {{{"weapons/dbarrel1.wav"}, CH_WEAPON, 0.98f, 1.0f, 85, 31}}},
    {"mp5", SP_NONE, {{{"weapons/hks1.wav", "weapons/hks2.wav"}, CH_WEAPON, 1.0f, 1.0f, 94, 15}}},
    {"mp52", SP_NONE, {{{"weapons/glauncher.wav", "weapons/glauncher2.wav"}, CH_WEAPON, 1.0f, 1.0f, 94, 15}}},
    {"python", SP_NONE, {{{"weapons/357_shot1.wav", "weapons/357_shot2.wav"}, CH_WEAPON, 0.8f, 0.9f, 100, 0}}},
    {"gauss", SP_GAUSS, {{{"weapons/gauss2.wav"}, CH_WEAPON, 0.5f, 0.5f, 85, 31}}},
    {"gaussspin", SP_GAUSSSPIN, {{{"ambience/pulsemachine.wav"}, CH_WEAPON, 1.0f, 1.0f, 100, 0}}},
    {"train", SP_TRAIN, {{{NULL}, 0, 0, 0, 0, 0}}},
    {"vehicle", SP_TRAIN, {{{NULL}, 0, 0, 0, 0, 0}}},
    {"crowbar", SP_NONE, {{{"weapons/cbar_miss1.wav"}, CH_WEAPON, 1.0f, 1.0f, 98, 3}}},
    {"crossbow1", SP_NONE, {{{"weapons/xbow_fire1.wav"}, CH_WEAPON, 1.0f, 1.0f, 93, 15},
                            {{"weapons/xbow_reload1.wav"}, CH_ITEM, 0.95f, 1.0f, 93, 15}}},
    {"crossbow2", SP_NONE, {{{"weapons/xbow_fire1.wav"}, CH_WEAPON, 1.0f, 1.0f, 93, 15},
                            {{"weapons/xbow_reload1.wav"}, CH_ITEM, 0.95f, 1.0f, 93, 15}}},
    {"rpg", SP_NONE, {{{"weapons/rocketfire1.wav"}, CH_WEAPON, 0.9f, 0.9f, 100, 0},
                      {{"weapons/glauncher.wav"}, CH_ITEM, 0.7f, 0.7f, 100, 0}}},
    {"egon_fire", SP_EGON_FIRE, {{{NULL}, 0, 0, 0, 0, 0}}},
    {"egon_stop", SP_EGON_STOP, {{{"weapons/egon_off1.wav"}, CH_WEAPON, 0.98f, 0.98f, 100, 0}}},
    {"firehornet", SP_NONE, {{{"agrunt/ag_fire1.wav", "agrunt/ag_fire2.wav", "agrunt/ag_fire3.wav"}, CH_WEAPON,
                              1.0f, 1.0f, 100, 0}}},
    {"tripfire", SP_SILENT, {{{NULL}, 0, 0, 0, 0, 0}}},
    {"snarkfire", SP_NONE, {{{"squeek/sqk_hunt2.wav"}, CH_WEAPON, 1.0f, 1.0f, 105, 0}}},
    // Counter-Strike 1.6, as the open re-creation of its client (cs16-client, cl_dll/events/
    // event_<gun>.cpp) plays them: CHAN_WEAPON, volume 1, ATTN_NORM, pitch 94 + RandomLong(0, 15),
    // one of two names by RandomLong(0, 1) where there are two (docs/goldsrc.md)
    CS_GUN("usp", SP_BPARAM2, "weapons/usp1.wav", "weapons/usp2.wav", "weapons/usp_unsil-1.wav", NULL),
    CS_GUN("glock18", SP_NONE, "weapons/glock18-2.wav", NULL, NULL, NULL),
    CS_GUN("p228", SP_NONE, "weapons/p228-1.wav", NULL, NULL, NULL),
    CS_GUN("elite_left", SP_NONE, "weapons/elite_fire.wav", NULL, NULL, NULL),
    CS_GUN("elite_right", SP_NONE, "weapons/elite_fire.wav", NULL, NULL, NULL),
    CS_GUN("fiveseven", SP_NONE, "weapons/fiveseven-1.wav", NULL, NULL, NULL),
    CS_GUN("deagle", SP_NONE, "weapons/deagle-1.wav", "weapons/deagle-2.wav", NULL, NULL),
    CS_GUN("m3", SP_NONE, "weapons/m3-1.wav", NULL, NULL, NULL),
    CS_GUN("xm1014", SP_NONE, "weapons/xm1014-1.wav", NULL, NULL, NULL),
    CS_GUN("tmp", SP_NONE, "weapons/tmp-1.wav", "weapons/tmp-2.wav", NULL, NULL),
    CS_GUN("ump45", SP_NONE, "weapons/ump45-1.wav", NULL, NULL, NULL),
    CS_GUN("mac10", SP_NONE, "weapons/mac10-1.wav", NULL, NULL, NULL),
    CS_GUN("mp5n", SP_NONE, "weapons/mp5-1.wav", "weapons/mp5-2.wav", NULL, NULL),
    CS_GUN("p90", SP_NONE, "weapons/p90-1.wav", NULL, NULL, NULL),
    CS_GUN("famas", SP_NONE, "weapons/famas-1.wav", "weapons/famas-2.wav", NULL, NULL),
    CS_GUN("galil", SP_NONE, "weapons/galil-1.wav", "weapons/galil-2.wav", NULL, NULL),
    CS_GUN("ak47", SP_NONE, "weapons/ak47-1.wav", "weapons/ak47-2.wav", NULL, NULL),
    CS_GUN("aug", SP_NONE, "weapons/aug-1.wav", NULL, NULL, NULL),
    CS_GUN("m4a1", SP_BPARAM1, "weapons/m4a1-1.wav", NULL, "weapons/m4a1_unsil-1.wav", "weapons/m4a1_unsil-2.wav"),
    CS_GUN("sg552", SP_NONE, "weapons/sg552-1.wav", "weapons/sg552-2.wav", NULL, NULL),
    CS_GUN("scout", SP_NONE, "weapons/scout_fire-1.wav", NULL, NULL, NULL),
    CS_GUN("awp", SP_NONE, "weapons/awp1.wav", NULL, NULL, NULL),
    CS_GUN("g3sg1", SP_NONE, "weapons/g3sg1-1.wav", NULL, NULL, NULL),
    CS_GUN("sg550", SP_NONE, "weapons/sg550-1.wav", NULL, NULL, NULL),
    CS_GUN("m249", SP_NONE, "weapons/m249-1.wav", "weapons/m249-2.wav", NULL, NULL),
    CS_GUN("knife", SP_NONE, "weapons/knife_miss1.wav", NULL, NULL, NULL),
    {"createexplo", SP_SILENT, {{{NULL}, 0, 0, 0, 0, 0}}},   // cs16-client's handler does nothing
};

void hl_event_short_name(const char *script, char *out, size_t cap)
{
    if (!cap)
        return;
    const char *b = strrchr(script, '/');
    b = b ? b + 1 : script;
    size_t n = strcspn(b, ".");
    if (n >= cap)
        n = cap - 1;
    memcpy(out, b, n);
    out[n] = 0;
}

static const hl_ev_rule_t *rule_of(const char *script)
{
    char s[32];
    hl_event_short_name(script, s, sizeof s);
    if (!strcmp(s, "hornetgun"))   // the SDK's script for the hornet gun is firehornet.sc
        strcpy(s, "firehornet");
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!strcmp(rules[i].name, s))
            return &rules[i];
    return NULL;
}

int hl_event_known(const char *script)
{
    return rule_of(script) != NULL;
}

static uint32_t next(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

static float rand_float(uint32_t *x, float lo, float hi)
{
    return lo + (hi - lo) * (float)(next(x) & 0xffff) / 65535.0f;
}

static uint32_t add_name(world_t *w, const char *name)
{
    size_t n = strlen(name);
    if (w->text_used + n + 1 > WORLD_TEXT_ARENA)
        return 0;
    uint32_t at = w->text_used;
    memcpy(w->text_arena + at, name, n + 1);
    w->text_used += (uint32_t)(n + 1);
    return at + 1;
}

static void play(world_t *w, const world_game_event_t *a, const char *name, int channel, float vol, float pitch)
{
    if (!name)
        return;
    uint32_t at = add_name(w, name);
    world_event_t *ev = at ? world_add_event(w, EV_SOUND) : NULL;
    if (!ev)
        return;
    world_sound_event_t *se = &ev->u.sound;
    se->name = at;
    se->sound = 0;
    se->entity = a->entity;
    se->channel = channel;
    se->volume = vol < 0 ? 0 : vol > 1 ? 1 : vol;
    se->attenuation = ATTN_NORM;
    se->pitch = pitch;
    memcpy(se->origin, a->origin, sizeof(vec3_t));
    se->has_origin = 1;
}

static void play_rule(world_t *w, const world_game_event_t *a, const hl_ev_sound_t *s, uint32_t *x, float vol_add)
{
    int nn = 0;
    while (nn < 3 && s->names[nn])
        nn++;
    if (!nn)
        return;
    const char *name = s->names[nn > 1 ? next(x) % (uint32_t)nn : 0];
    float vol = rand_float(x, s->vol_lo, s->vol_hi) + vol_add;
    int pitch = s->pitch + (s->pitch_range ? (int)(next(x) % (uint32_t)(s->pitch_range + 1)) : 0);
    play(w, a, name, s->channel, vol, (float)pitch / 100.0f);
}

// EV_TrainPitchAdjust: iparam1 packs the noise (bits 12..14), the volume (bits 6..11, / 40)
// and the pitch (bits 0..5, x 10); bparam1 stops it.
static void train(world_t *w, const world_game_event_t *a)
{
    static const char *const noises[7] = {NULL, "plats/ttrain1.wav", "plats/ttrain2.wav", "plats/ttrain3.wav",
                                          "plats/ttrain4.wav", "plats/ttrain6.wav", "plats/ttrain7.wav"};
    int p = a->iparam[0];
    int noise = (p >> 12) & 7;
    if (noise < 1 || noise > 6)
        return;
    if (a->bparam[0]) {
        world_event_t *ev = world_add_event(w, EV_STOPSOUND);
        if (ev) {
            ev->u.sound.entity = a->entity;
            ev->u.sound.channel = CH_STATIC;
        }
        return;
    }
    play(w, a, noises[noise], CH_STATIC, (float)((p >> 6) & 63) / 40.0f, (float)(10 * (p & 63)) / 100.0f);
}

int hl_event_emit(world_t *w, const char *script, const world_game_event_t *args)
{
    uint32_t at = add_name(w, script);
    world_event_t *ev = at ? world_add_event(w, EV_GAMEEVENT) : NULL;
    if (ev) {
        ev->u.game = *args;
        ev->u.game.name = at - 1;
    }
    const hl_ev_rule_t *r = rule_of(script);
    if (!r)
        return 0;
    uint32_t x = args->seed | 1u;
    switch (r->special) {
    case SP_SILENT:
        break;
    case SP_GAUSS:   // louder with the charge: 0.5 + damage / 400
        play_rule(w, args, &r->s[0], &x, args->fparam[0] / 400.0f);
        break;
    case SP_GAUSSSPIN:   // the spin's pitch is iparam1
        play(w, args, r->s[0].names[0], CH_WEAPON, 1.0f, (float)args->iparam[0] / 100.0f);
        break;
    case SP_TRAIN:
        train(w, args);
        break;
    case SP_EGON_FIRE: {   // bparam1: starting (wind-up), iparam2: wide mode (louder, higher)
        int wide = args->iparam[1] != 0;
        // the wind-up on CHAN_WEAPON, the run (which egon_stop stops) on CHAN_STATIC
        play(w, args, args->bparam[0] ? "weapons/egon_windup2.wav" : "weapons/egon_run3.wav",
             args->bparam[0] ? CH_WEAPON : CH_STATIC, wide ? 0.98f : 0.9f, wide ? 1.25f : 1.0f);
        break;
    }
    case SP_EGON_STOP: {
        world_event_t *st = world_add_event(w, EV_STOPSOUND);
        if (st) {
            st->u.sound.entity = args->entity;
            st->u.sound.channel = CH_STATIC;
        }
        if (args->iparam[0])   // iparam1: the egon ran (the server's m_fireState != FIRE_OFF)
            play_rule(w, args, &r->s[0], &x, 0);
        break;
    }
    case SP_BPARAM1:   // the m4a1's silencer
        play_rule(w, args, &r->s[args->bparam[0] ? 0 : 1], &x, 0);
        break;
    case SP_BPARAM2:   // the usp's silencer
        play_rule(w, args, &r->s[args->bparam[1] ? 0 : 1], &x, 0);
        break;
    default:
        for (int i = 0; i < 2; i++)
            play_rule(w, args, &r->s[i], &x, 0);
        break;
    }
    return 1;
}

// The engine's R_RicochetSound: one of ric1..5 at full volume, normal attenuation.
static const char *const ric[5] = {"weapons/ric1.wav", "weapons/ric2.wav", "weapons/ric3.wav", "weapons/ric4.wav",
                                   "weapons/ric5.wav"};

void hl_tempent_sounds(world_t *w, int t, const float pos[3], const int32_t *iv, uint32_t seed)
{
    world_game_event_t a;
    memset(&a, 0, sizeof a);
    memcpy(a.origin, pos, sizeof(vec3_t));
    uint32_t x = seed | 1u;
    switch (t) {
    case 3:   // TE_EXPLOSION: flags byte 4 = TE_EXPLFLAG_NOSOUND
        if (!(iv[3] & 4)) {
            static const char *const ex[3] = {"weapons/explode3.wav", "weapons/explode4.wav", "weapons/explode5.wav"};
            play(w, &a, ex[next(&x) % 3], 0, 1.0f, 1.0f);
        }
        break;
    case 2: case 109: case 111:   // TE_GUNSHOT, TE_GUNSHOTDECAL, TE_ARMOR_RICOCHET
        play(w, &a, ric[next(&x) % 5], 0, 1.0f, 1.0f);
        break;
    case 9:   // TE_SPARKS: the engine's spark shower is silent; the game plays its own
    default:
        break;
    }
}
