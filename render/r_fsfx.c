// r_fsfx.c -- Forsaken's ship effects (invulnerability bits, shield hits, dying fire, damaged smoke,
// collision sparks), worked out from the time alone (see r_fsfx.h)
#include "r_fsfx.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../engine/world.h"
#include "../engine/world_fs.h"

static uint32_t next(uint32_t *x)
{
    *x = world_hash32(*x + 0x9e3779b9u);
    return *x;
}

// CreateInvEffect's direction: each axis Random_Range(5120) / 20480 - 0.125, normalised.
static void random_dir(uint32_t *x, float d[3])
{
    float l = 0;
    for (int k = 0; k < 3; k++) {
        d[k] = (float)(next(x) % 5120u) / 20480.0f - 0.125f;
        l += d[k] * d[k];
    }
    l = sqrtf(l);
    if (l < 1e-6f) {
        d[0] = d[1] = 0;
        d[2] = 1;
        return;
    }
    for (int k = 0; k < 3; k++)
        d[k] /= l;
}

// The slide from s to e: its angle, and the lerp's step a tick (2 degrees of it: D2R(2 / Angle),
// at most all of it).
static float slide_step(const float s[3], const float e[3], float *angle)
{
    float c = s[0] * e[0] + s[1] * e[1] + s[2] * e[2];
    c = c > 1 ? 1 : c < -1 ? -1 : c;
    *angle = acosf(c);
    float step = *angle > 0 ? (2.0f / *angle) * (float)(M_PI / 180) : 1;
    return step > 1 ? 1 : step;
}

// u (0..1) of the way from s to e along the great circle (`angle` apart), unit.
static void slide_at(const float s[3], const float e[3], float angle, float u, float out[3])
{
    float sn = sinf(angle);
    float wa = sn > 1e-5f ? sinf((1 - u) * angle) / sn : 1 - u, wb = sn > 1e-5f ? sinf(u * angle) / sn : u, l = 0;
    for (int j = 0; j < 3; j++) {
        out[j] = s[j] * wa + e[j] * wb;
        l += out[j] * out[j];
    }
    l = sqrtf(l);
    for (int j = 0; j < 3; j++)
        out[j] = l > 1e-6f ? out[j] / l : s[j];
}

int r_fsfx_inv_bits(int ship, double t, double since, int frames, r_fsfx_bit_t *out, int max)
{
    if (!isfinite(t) || !out || max <= 0)
        return 0;
    if (frames < 1)
        frames = 1;
    double now = t * FSFX_TICKS_PER_SEC;
    double last = floor(now), first = last - (FSFX_INV_MAX_AGE - 1);
    if (isfinite(since) && since * FSFX_TICKS_PER_SEC > first)
        first = ceil(since * FSFX_TICKS_PER_SEC);
    int n = 0;
    for (double tick = last; tick >= first && n < max; tick--) {
        float age = (float)(now - tick);
        for (int k = 0; k < FSFX_INV_PER_TICK && n < max; k++) {
            uint32_t x = world_hash32((uint32_t)ship * 0x85ebca6bu ^ (uint32_t)(int64_t)tick * 0xc2b2ae35u ^ (uint32_t)k);
            float s[3], e[3];
            random_dir(&x, s);
            random_dir(&x, e);
            float angle, step = slide_step(s, e, &angle);
            // ProcessPolys kills it the tick after its lerp reached the end
            if ((age - 1) * step >= 1)
                continue;
            float red = 255 - 5 * age, rest = 64 - 5 * age;
            if (red <= 0)
                continue;   // black, added: nothing to see
            float u = age * step < 1 ? age * step : 1;
            r_fsfx_bit_t *b = &out[n++];
            slide_at(s, e, angle, u, b->dir);
            b->rgb[0] = red / 255;
            b->rgb[1] = b->rgb[2] = rest > 0 ? rest / 255 : 0;
            b->age = age;
            b->scale = 0.5f;
            b->frame = (int)(age / 6) % frames;
            b->id = (uint32_t)(int64_t)tick * 8u + (uint32_t)k;
        }
    }
    return n;
}

int r_fsfx_shield_hit(const float hit_dir[3], uint32_t seed, int spirals, const float rgb[3], float ticks,
                      r_fsfx_bit_t *out, int max)
{
    if (!out || max <= 0 || !(ticks >= 0) || !isfinite(ticks) || spirals <= 0)
        return 0;
    float s[3], l = 0;
    for (int k = 0; k < 3; k++) {
        s[k] = isfinite(hit_dir[k]) ? hit_dir[k] : 0;
        l += s[k] * s[k];
    }
    l = sqrtf(l);
    if (l < 1e-6f)
        return 0;
    for (int k = 0; k < 3; k++)
        s[k] /= l;
    int n = 0;
    for (int sp = 0; sp < spirals && sp < 16 && n < max; sp++) {
        uint32_t x = world_hash32(seed * 0x85ebca6bu ^ (uint32_t)sp * 0xc2b2ae35u);
        float e[3];
        random_dir(&x, e);
        float angle, step = slide_step(s, e, &angle), start = 0;
        for (int q = 0; q < 4 && n < max && start < 1; q++, start += step * 6) {
            // ProcessPolys kills it the tick after its lerp reached the end
            if (start + (ticks - 1) * step >= 1)
                continue;
            float val = (255.0f - (float)(3 - q) * 40.0f) / 256.0f, lit[3];
            int any = 0;
            for (int k = 0; k < 3; k++) {
                float v = (rgb[k] > 0 ? rgb[k] : 0) * val - 5 * ticks;
                lit[k] = v > 0 ? v / 255 : 0;
                any |= v > 0;
            }
            if (!any)
                continue;
            float u = start + ticks * step;
            u = u < 1 ? u : 1;
            r_fsfx_bit_t *b = &out[n++];
            slide_at(s, e, angle, u, b->dir);
            for (int j = 0; j < 3; j++)
                b->rgb[j] = lit[j];
            b->age = ticks;
            b->scale = 1.0f - (float)(3 - q) * 0.15f;
            b->frame = 0;
            b->id = (uint32_t)(sp * 4 + q);
        }
    }
    return n;
}

// ---- dying and damaged ships -------------------------------------------------------------

static uint32_t tick_seed(int ship, double tick, uint32_t kind)
{
    return world_hash32((uint32_t)ship * 0x85ebca6bu ^ (uint32_t)(int64_t)tick * 0xc2b2ae35u ^ kind * 0x27d4eb2fu);
}

// The ticks a trail made at: from the last one at or before t back to `oldest` ticks ago, none
// before `since`. now = t in ticks.
static int tick_range(double t, double since, double until, double oldest, double *now, double *last, double *first)
{
    if (!isfinite(t))
        return 0;
    *now = t * FSFX_TICKS_PER_SEC;
    *last = floor(*now);
    if (isfinite(until) && until < t)
        *last = floor(until * FSFX_TICKS_PER_SEC);
    *first = *last - oldest;
    if (isfinite(since) && since * FSFX_TICKS_PER_SEC > *first)
        *first = ceil(since * FSFX_TICKS_PER_SEC);
    return *first <= *last;
}

static int ship_ok(const r_fsfx_ship_t *s)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(s->org[k]) || !isfinite(s->vel[k]) || !isfinite(s->fwd[k]) || !isfinite(s->up[k]))
            return 0;
    return isfinite(s->time);
}

// Where the ship was at game tick `tick` (moved along its velocity from s->time).
static void ship_at(const r_fsfx_ship_t *s, double tick, float p[3])
{
    float dt = (float)(tick / FSFX_TICKS_PER_SEC - s->time);
    for (int k = 0; k < 3; k++)
        p[k] = s->org[k] + s->vel[k] * dt;
}

int r_fsfx_burning(int ship, double t, double since, double until, const r_fsfx_ship_t *s, int frames,
                   r_fsfx_sprite_t *out, int max)
{
    if (!s || !out || max <= 0 || !ship_ok(s))
        return 0;
    frames = frames < 1 ? 1 : frames > 64 ? 64 : frames;
    double now, last, first;
    // the flying ones live 2 x frames ticks (half a frame a tick), the still one `frames`
    if (!tick_range(t, since, until, 2.0 * frames, &now, &last, &first))
        return 0;
    // the move's direction (NormaliseVector of no move leaves it 0: the fire sits on the centre)
    float n[3] = { s->vel[0], s->vel[1], s->vel[2] }, l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++)
        n[k] = l > 1e-3f ? n[k] / l : 0;
    float lc = (float)FSFX_BURN_RGB / 255;
    int cnt = 0;
    for (double tick = last; tick >= first && cnt < max; tick--) {
        float age = (float)(now - tick), at[3];
        ship_at(s, tick, at);
        for (int k = 0; k < 3; k++)
            at[k] += n[k] * FSFX_BURN_AHEAD;
        uint32_t x = tick_seed(ship, tick, 1);
        for (int q = 0; q <= FSFX_BURN_PER_TICK && cnt < max; q++) {
            float d[3], dl = 0;
            for (int k = 0; k < 3; k++) {
                d[k] = -n[k] + (float)(next(&x) % 10000u) / 7500.0f - 0.66f;
                dl += d[k] * d[k];
            }
            float rot = (float)(next(&x) % 360u);
            r_fsfx_sprite_t *sp = &out[cnt];
            memset(sp, 0, sizeof *sp);
            sp->rgb[0] = sp->rgb[1] = sp->rgb[2] = lc;
            sp->rot = rot;
            sp->age = age;
            sp->id = (uint32_t)(int64_t)tick * 8u + (uint32_t)q;
            if (q == FSFX_BURN_PER_TICK) {   // FM_ANIMSPEED, AnimSpeed 1: a frame a tick, still, MOVEOUT
                if (age >= (float)frames)
                    continue;
                memcpy(sp->pos, at, sizeof sp->pos);
                sp->scale = FSFX_BURN_SIZE;
                sp->frame = (int)age;
                sp->moveout = 1;
                cnt++;
                continue;
            }
            // FM_SPOTFX_BURNING: gone when its frame (half a tick) passes the last or its size is 0
            float size = FSFX_BURN_SIZE - FSFX_BURN_SHRINK * age;
            if (age * 0.5f >= (float)frames || !(size > 0))
                continue;
            dl = sqrtf(dl);
            float along = FSFX_BURN_SPEED * age - 0.075f * age * age, rise = 0.075f * age * age;
            for (int k = 0; k < 3; k++)
                sp->pos[k] = at[k] + (dl > 1e-6f ? d[k] / dl : 0) * along + (k == 1 ? rise : 0);
            sp->scale = size;
            sp->frame = (int)(age * 0.5f);
            cnt++;
        }
    }
    return cnt;
}

int r_fsfx_smoke(int ship, double t, double since, const r_fsfx_ship_t *s, int hull, int frames,
                 r_fsfx_sprite_t *out, int max)
{
    if (!s || !out || max <= 0 || hull < 0 || hull >= FSFX_SMOKE_HULL || !ship_ok(s))
        return 0;
    frames = frames < 1 ? 1 : frames > 64 ? 64 : frames;
    // "only when moving forward": the move against the nose, cos > -0.1 (no move: 0, it smokes)
    float l = sqrtf(s->vel[0] * s->vel[0] + s->vel[1] * s->vel[1] + s->vel[2] * s->vel[2]);
    float fl = sqrtf(s->fwd[0] * s->fwd[0] + s->fwd[1] * s->fwd[1] + s->fwd[2] * s->fwd[2]);
    float c = l > 1e-3f && fl > 1e-6f ? (s->vel[0] * s->fwd[0] + s->vel[1] * s->fwd[1] + s->vel[2] * s->fwd[2]) / (l * fl) : 0;
    if (!(c > -0.1f))
        return 0;
    double now, last, first;
    if (!tick_range(t, since, 1e30, 2.0 * frames, &now, &last, &first))
        return 0;
    float lc = (float)((FSFX_SMOKE_HULL - hull) * 3) / 255;
    int cnt = 0;
    for (double tick = last; tick >= first && cnt < max; tick--) {
        float age = (float)(now - tick), at[3];
        if (age * 0.5f >= (float)frames)
            continue;
        ship_at(s, tick, at);
        uint32_t x = tick_seed(ship, tick, 2);
        float rot = (float)(next(&x) % 360u);
        float s0 = ((float)(next(&x) % 4000u) / 1000.0f + 2.0f) * 0.25f;   // 0.5 .. 1.5 units a tick
        float stop = s0 / 0.2f;
        float along = age < stop ? s0 * age - 0.1f * age * age : s0 * s0 / 0.4f;
        float up_t = age < 50 ? age : 50;   // UpSpeed grows 0.2 a tick up to 10
        float rise = 0.1f * up_t * up_t + (age - up_t) * 10.0f;
        r_fsfx_sprite_t *sp = &out[cnt++];
        memset(sp, 0, sizeof *sp);
        for (int k = 0; k < 3; k++)
            sp->pos[k] = at[k] - s->fwd[k] / (fl > 1e-6f ? fl : 1) * (FSFX_SMOKE_BACK + along) -
                         s->up[k] * FSFX_SMOKE_DOWN + (k == 1 ? rise : 0);
        sp->rgb[0] = sp->rgb[1] = sp->rgb[2] = lc;
        sp->scale = FSFX_SMOKE_SIZE;
        sp->rot = rot;
        sp->age = age;
        sp->frame = (int)(age * 0.5f);
        sp->id = (uint32_t)(int64_t)tick * 8u;
    }
    return cnt;
}

int r_fsfx_headlight_on(int ship, double t, int dying)
{
    if (!dying)
        return 1;
    if (!isfinite(t))
        return 0;
    return (int)(tick_seed(ship, floor(t * FSFX_TICKS_PER_SEC), 3) & 1u);
}

int r_fsfx_col_sparks(const float at[3], const float dir[3], uint32_t seed, int small, float ticks, int expl_frames,
                      int bits_frames, r_fsfx_sprite_t *out, int max)
{
    if (!at || !dir || !out || max <= 0 || !(ticks >= 0) || !isfinite(ticks))
        return 0;
    for (int k = 0; k < 3; k++)
        if (!isfinite(at[k]) || !isfinite(dir[k]))
            return 0;
    uint32_t x = world_hash32(seed * 0x9e3779b1u + 0x632be5abu);
    if (small && next(&x) % 5u != 0)
        return 0;   // CreateSmallColSparks: !Random_Range(5)
    int n = 0;
    // CreateBigFlash( Pos, Group, 3.5 ): FM_FLASH, 16 ticks of life, shrinking 0.1 a tick
    if (ticks < 16 && n < max) {
        r_fsfx_sprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        memcpy(s->pos, at, sizeof s->pos);
        s->rgb[0] = s->rgb[1] = s->rgb[2] = 1;
        s->scale = 3.5f - 0.1f * ticks;
        s->age = ticks;
        s->moveout = 1;
        s->kind = FSFX_SPRITE_FLASH;
        s->id = 0;
    }
    // the FM_ANIM explosion: placed and sized at random, a frame every 3 ticks
    float off[3], rot, scale;
    for (int k = 0; k < 3; k++)
        off[k] = ((float)(next(&x) % 128u) - 64.0f) * 0.25f;
    rot = (float)(next(&x) % 360u);
    scale = (float)(next(&x) % 5u + 5u) * 0.25f;
    if (ticks < 3.0f * (float)expl_frames && n < max) {
        r_fsfx_sprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        for (int k = 0; k < 3; k++)
            s->pos[k] = at[k] + off[k];
        s->rgb[0] = s->rgb[1] = s->rgb[2] = 192.0f / 255;
        s->scale = scale;
        s->rot = rot;
        s->age = ticks;
        s->frame = (int)(ticks / 3);
        s->moveout = 1;
        s->kind = FSFX_SPRITE_EXPL;
        s->id = 1;
    }
    // 1 .. 2 FM_BITS sparks flying straight out
    int sparks = 1 + (int)(next(&x) % 2u);
    for (int i = 0; i < sparks; i++) {
        float d[3], l = 0;
        for (int k = 0; k < 3; k++) {
            d[k] = dir[k] + (float)(next(&x) % 5120u) / 5120.0f - 0.5f;
            l += d[k] * d[k];
        }
        float speed = ((float)(next(&x) % 5120u) / 640.0f + 8.0f) * 0.25f;
        if (!(ticks < 6.0f * (float)bits_frames) || n >= max)
            continue;
        l = sqrtf(l);
        r_fsfx_sprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        for (int k = 0; k < 3; k++)
            s->pos[k] = at[k] + (l > 1e-6f ? d[k] / l : 0) * speed * ticks;
        s->rgb[0] = 1;
        s->rgb[1] = s->rgb[2] = 64.0f / 255;
        s->scale = 2.0f;
        s->age = ticks;
        s->frame = (int)(ticks / 6);
        s->kind = FSFX_SPRITE_BITS;
        s->id = 2u + (uint32_t)i;
    }
    return n;
}

int r_fsfx_bits_burst(const float at[3], const float dir[3], uint32_t seed, int count, const float rgb[3], float ticks,
                      int bits_frames, r_fsfx_sprite_t *out, int max)
{
    if (!at || !dir || !rgb || !out || max <= 0 || count <= 0 || bits_frames <= 0 || !(ticks >= 0) ||
        !(ticks < FSFX_BITS_TICKS * (float)bits_frames))
        return 0;
    for (int k = 0; k < 3; k++)
        if (!isfinite(at[k]) || !isfinite(dir[k]))
            return 0;
    int n = 0;
    for (int i = 0; i < count && n < max; i++) {
        uint32_t x = world_hash32(seed * 0x85ebca6bu + (uint32_t)i * 0xc2b2ae35u + 0x27d4eb2fu);
        float d[3], l = 0;
        for (int k = 0; k < 3; k++) {
            d[k] = dir[k] + (float)(next(&x) % 5120u) / 5120.0f - 0.5f;
            l += d[k] * d[k];
        }
        float speed = ((float)(next(&x) % 5120u) / 640.0f + 8.0f) * 0.25f;
        l = sqrtf(l);
        r_fsfx_sprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        for (int k = 0; k < 3; k++)
            s->pos[k] = at[k] + (l > 1e-6f ? d[k] / l : 0) * speed * ticks;
        memcpy(s->rgb, rgb, sizeof s->rgb);
        s->scale = FSFX_SPARK_SIZE;
        s->age = ticks;
        s->frame = (int)(ticks / FSFX_BITS_TICKS);
        s->kind = FSFX_SPRITE_BITS;
        s->id = (uint32_t)i;
    }
    return n;
}

int r_fsfx_explosion(const float at[3], uint32_t seed, int small, float ticks, int expl_frames, r_fsfx_sprite_t *out,
                     int max)
{
    if (!at || !out || max <= 0 || !(ticks >= 0) || !isfinite(ticks) || expl_frames <= 0 ||
        !(ticks < 3.0f * (float)expl_frames))
        return 0;
    for (int k = 0; k < 3; k++)
        if (!isfinite(at[k]))
            return 0;
    uint32_t x = world_hash32(seed * 0x85ebca6bu + 0x27d4eb2fu);
    int n = 0;
    for (int i = 0; n < max; i++) {
        if (!small && i > 0 && (int)(next(&x) % 3u) + 1 <= i)
            break;   // the loop's bound, drawn again each pass
        r_fsfx_sprite_t *s = &out[n++];
        memset(s, 0, sizeof *s);
        memcpy(s->pos, at, sizeof s->pos);
        s->scale = FSFX_EXPLO_SIZE;
        if (small || i > 0) {
            for (int k = 0; k < 3; k++)
                s->pos[k] += ((float)(next(&x) % 256u) - 128.0f) * 0.25f;
        }
        s->rot = (float)(next(&x) % 360u);
        if (small || i > 0)
            s->scale = (float)(next(&x) % 10u + 6u) * 0.25f;
        s->rgb[0] = s->rgb[1] = s->rgb[2] = 192.0f / 255;
        s->age = ticks;
        s->frame = (int)(ticks / 3);
        s->moveout = 1;
        s->kind = FSFX_SPRITE_EXPL;
        s->id = (uint32_t)i;
        if (small)
            break;
    }
    return n;
}

// ---- secondary weapons in flight

// A missile's speed once it flies straight, units a tick (SecondaryWeaponAttribs[] Speed; the MFRL
// reaches it after its fall and a tick at StartSpeed; the pine missile's table has SpeedInc and 2 x,
// but its state is MIS_STRAIGHT, which never accelerates: it flies at its StartSpeed)
static float missile_speed(int weapon)
{
    switch (weapon) {
    case FSW_TITAN:
        return FSFX_MISSILE_SPEED * 0.75f;
    case FSW_TITANSHRAPNEL:
        return FSFX_MISSILE_SPEED * 1.25f;
    case FSW_MFRL:
        return FSFX_MISSILE_SPEED * 2;
    case FSW_PURGEMINE:
    case FSW_PINEMINE:
    case FSW_QUANTUMMINE:
    case FSW_SPIDERMINE:
        return 0;
    default:
        return weapon >= 0 && weapon < FSW_NUM_SECONDARY ? FSFX_MISSILE_SPEED : 0;
    }
}

float r_fsfx_missile_move(int weapon, float ticks, float *drop)
{
    float fall = 0, along;
    if (!(ticks > 0))
        ticks = 0;   // NaN too
    if (weapon == FSW_MFRL) {
        // MIS_DROP: DropCount 2 loses a tick a tick, the missile moving MISSILE_SPEED along its drop
        // vector; the tick after it reached 0, MIS_ACCELERATE moves it at its StartSpeed along its
        // direction, then SpeedInc (MISSILE_SPEED, once) takes it to 2 x
        fall = FSFX_MISSILE_SPEED * (ticks < FSFX_MFRL_DROP ? ticks : FSFX_MFRL_DROP);
        float f = ticks - FSFX_MFRL_DROP;
        along = f <= 0 ? 0 : f <= 1 ? FSFX_MISSILE_SPEED * f : FSFX_MISSILE_SPEED + 2 * FSFX_MISSILE_SPEED * (f - 1);
    } else {
        along = missile_speed(weapon) * ticks;
    }
    if (drop)
        *drop = fall;
    return along;
}

float r_fsfx_missile_ticks(int weapon, float along)
{
    if (weapon == FSW_MFRL) {
        if (!(along > 0))
            return FSFX_MFRL_DROP;
        return FSFX_MFRL_DROP + (along <= FSFX_MISSILE_SPEED ? along / FSFX_MISSILE_SPEED
                                                            : 1 + (along - FSFX_MISSILE_SPEED) / (2 * FSFX_MISSILE_SPEED));
    }
    float s = missile_speed(weapon);
    return s > 0 && along > 0 ? along / s : 0;
}

// 2dPolys.c's ShadeTable: a smoke puff's R G B by its frame
static const uint8_t shade_table[16] = { 255, 200, 128, 104, 96, 92, 80, 77, 74, 72, 69, 66, 64, 64, 64, 64 };

typedef struct {
    int kind;        // FSFX_SPRITE_*
    float size;      // units a texel at birth ..
    float grow;      // .. and a tick
    float slow;      // speed lost a tick
    float rate;      // frames a tick
    float shade;     // ShadeTable's index: frame x this
    int turn;        // turned at random (Random_Range(360)), else 0
} trail_rule_t;

static int trail_rule(int weapon, trail_rule_t *r)
{
    static const trail_rule_t smoke = { FSFX_SPRITE_EXPL, 0.5f, 0, 4, 0.5f, 1, 1 };           // FM_SMOKE_TRAIL
    static const trail_rule_t solaris = { FSFX_SPRITE_SOLTRAIL, 1.75f, 0, 2, 0.166f, 3, 0 };  // FM_SOLARIS_TRAIL
    static const trail_rule_t gravgon = { FSFX_SPRITE_GRVTRAIL, 1.75f, 0.1f, 2, 0.1f, 5, 0 }; // FM_GRAVGON_TRAIL
    static const trail_rule_t newt = { FSFX_SPRITE_NEWTRAIL, 1.75f, 0, 2, 0.166f, 3, 1 };     // FM_NEW_TRAIL
    switch (weapon) {
    case FSW_MUG:
    case FSW_MFRL:
    case FSW_PINEMISSILE:
    case FSW_TITAN:
        *r = smoke;
        return 1;
    case FSW_SOLARIS:
        *r = solaris;
        return 1;
    case FSW_GRAVGON:
        *r = gravgon;
        return 1;
    case FSW_THIEF:
    case FSW_TITANSHRAPNEL:
        *r = newt;
        return 1;
    default:
        return 0;   // the scatter's CreateScatterTrail is another thing; mines make none
    }
}

int r_fsfx_missile_trail_kind(int weapon)
{
    trail_rule_t r;
    return trail_rule(weapon, &r) ? r.kind : -1;
}

// How far a puff has flown `age` ticks after its birth: FSFX_TRAIL_SPEED the first tick, `slow`
// less each tick after, never below 0 (whole ticks as the game steps them, linear between).
static float puff_flight(float age, float slow)
{
    float d = 0, s = FSFX_TRAIL_SPEED;
    int n = (int)age;
    for (int j = 0; j < n && s > 0; j++, s -= slow)
        d += s;
    return d + (s > 0 ? s * (age - (float)n) : 0);
}

// The puffs of either a straight missile (org, drop, dir) or one stepped a tick at a time (path,
// pdir, npath: npath > 0).
static int trail_puffs(int weapon, uint32_t seed, const float org[3], const float drop[3], const float dir[3],
                       const float (*path)[3], const float (*pdir)[3], int npath, float ticks, float end_ticks,
                       int frames, r_fsfx_sprite_t *out, int max)
{
    trail_rule_t r;
    if (!out || max <= 0 || !(ticks >= 0) || !isfinite(ticks) || frames <= 0 || !trail_rule(weapon, &r) ||
        !(end_ticks > 0))
        return 0;
    frames = frames > 64 ? 64 : frames;
    float life = (float)frames / r.rate;   // ticks until its frame reaches the layout's count
    float first = weapon == FSW_MFRL ? FSFX_MFRL_DROP + 1 : 1;   // no smoke while it falls
    float last = floorf(ticks);
    if (end_ticks <= last)
        last = ceilf(end_ticks) - 1;   // the tick it ends on makes none
    int n = 0;
    for (float k = last; k >= first && n < max; k--) {
        float age = ticks - k;
        if (age >= life)
            break;
        float fly = puff_flight(age, r.slow) - FSFX_TRAIL_BACK;
        if (npath > 0 && (int)k >= npath)
            continue;   // not stepped yet
        r_fsfx_sprite_t *sp = &out[n++];
        memset(sp, 0, sizeof *sp);
        if (npath > 0) {
            for (int j = 0; j < 3; j++)
                sp->pos[j] = path[(int)k][j] + pdir[(int)k][j] * fly;
        } else {
            float fall, along = r_fsfx_missile_move(weapon, k, &fall);
            for (int j = 0; j < 3; j++)
                sp->pos[j] = org[j] + drop[j] * fall + dir[j] * (along + fly);
        }
        int si = (int)(age * r.rate * r.shade);
        float c = (float)shade_table[si > 15 ? 15 : si] / 255;
        sp->rgb[0] = sp->rgb[1] = sp->rgb[2] = c;
        sp->scale = r.size + r.grow * age;
        uint32_t x = world_hash32(seed * 0x9e3779b1u + (uint32_t)(int32_t)k * 0x85ebca6bu);
        sp->rot = r.turn ? (float)(next(&x) % 360u) : 0;
        sp->age = age;
        sp->frame = (int)(age * r.rate);
        sp->kind = r.kind;
        sp->id = (uint32_t)(int32_t)k;
    }
    return n;
}

int r_fsfx_missile_trail(int weapon, uint32_t seed, const float org[3], const float drop[3], const float dir[3],
                         float ticks, float end_ticks, int frames, r_fsfx_sprite_t *out, int max)
{
    if (!org || !drop || !dir)
        return 0;
    for (int k = 0; k < 3; k++)
        if (!isfinite(org[k]) || !isfinite(drop[k]) || !isfinite(dir[k]))
            return 0;
    return trail_puffs(weapon, seed, org, drop, dir, NULL, NULL, 0, ticks, end_ticks, frames, out, max);
}

int r_fsfx_missile_trail_path(int weapon, uint32_t seed, const float (*pos)[3], const float (*dir)[3], int n,
                              float ticks, float end_ticks, int frames, r_fsfx_sprite_t *out, int max)
{
    if (!pos || !dir || n <= 0)
        return 0;
    return trail_puffs(weapon, seed, NULL, NULL, NULL, pos, dir, n, ticks, end_ticks, frames, out, max);
}

int r_fsfx_homing(int weapon, float *turn, float *cone_cos)
{
    float deg, cone;
    switch (weapon) {
    case FSW_SOLARIS:
        deg = 1.5f, cone = 120;
        break;
    case FSW_THIEF:
        deg = 3.0f, cone = 360;
        break;
    case FSW_SCATTER:
        deg = 2.0f, cone = 180;
        break;
    default:
        return 0;
    }
    if (turn)
        *turn = deg * (float)(3.14159265358979323846 / 180);
    if (cone_cos)
        *cone_cos = (float)cos(cone / 2 * 3.14159265358979323846 / 180);
    return 1;
}

void r_fsfx_turn_towards(const float dir[3], const float to[3], float max_turn, float out[3])
{
    float c = dir[0] * to[0] + dir[1] * to[1] + dir[2] * to[2];
    c = c < -1 ? -1 : c > 1 ? 1 : c;
    float angle = acosf(c);
    if (!(angle > max_turn)) {   // within a tick's turn (or NaN): straight at it
        memcpy(out, to, 3 * sizeof *out);
        return;
    }
    // the part of `to` square to `dir`: the way to turn (when `to` is straight behind, any square way)
    float perp[3], l = 0;
    for (int k = 0; k < 3; k++) {
        perp[k] = to[k] - dir[k] * c;
        l += perp[k] * perp[k];
    }
    l = sqrtf(l);
    if (l < 1e-6f) {
        float a[3] = { fabsf(dir[0]) < 0.9f ? 1.0f : 0.0f, fabsf(dir[0]) < 0.9f ? 0.0f : 1.0f, 0 };
        perp[0] = dir[1] * a[2] - dir[2] * a[1];
        perp[1] = dir[2] * a[0] - dir[0] * a[2];
        perp[2] = dir[0] * a[1] - dir[1] * a[0];
        l = sqrtf(perp[0] * perp[0] + perp[1] * perp[1] + perp[2] * perp[2]);
    }
    float cs = cosf(max_turn), sn = sinf(max_turn), n = 0;
    for (int k = 0; k < 3; k++) {
        out[k] = dir[k] * cs + perp[k] / l * sn;
        n += out[k] * out[k];
    }
    n = sqrtf(n);
    for (int k = 0; k < 3; k++)
        out[k] /= n;
}

// ---- the scatter's own trail

int r_fsfx_scatter_kept(float ticks, int npath, int *out, int max)
{
    if (!out || max <= 0 || !(ticks >= FSFX_SCATTER_INTERVAL) || !isfinite(ticks) || npath <= 0)
        return 0;
    max = max < FSFX_SCATTER_MAXOLD ? max : FSFX_SCATTER_MAXOLD;
    // ProcessMissiles: Time += framelag each tick; when it reaches Interval the place before this
    // tick's move goes in front (OldPos[0]), the oldest beyond MAXOLDPOS dropping off
    int run = (int)floorf(ticks), n = 0;
    for (int k = run - run % FSFX_SCATTER_INTERVAL; k >= FSFX_SCATTER_INTERVAL && n < max; k -= FSFX_SCATTER_INTERVAL)
        if (k - 1 < npath)
            out[n++] = k - 1;
    return n;
}

void r_fsfx_scatter_ring(const float p[3], const float dir[3], float out[3][3])
{
    static const float offs[3][2] = { { 0, -FSFX_SCATTER_POINT }, { FSFX_SCATTER_POINT, FSFX_SCATTER_POINT },
                                      { -FSFX_SCATTER_POINT, FSFX_SCATTER_POINT } };
    float d[3] = { dir[0], dir[1], dir[2] }, l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(l > 1e-6f)) {
        d[0] = d[1] = 0;
        d[2] = 1;
    } else {
        for (int k = 0; k < 3; k++)
            d[k] /= l;
    }
    // QuatFrom2Vectors( Forward, Dir ): the shortest turn from +z to d, about z x d (Rodrigues);
    // straight back: half a turn about y (ours: the game's choice there was not read)
    float ax[3] = { -d[1], d[0], 0 }, s = sqrtf(ax[0] * ax[0] + ax[1] * ax[1]), c = d[2];
    for (int i = 0; i < 3; i++) {
        float v[3] = { offs[i][0], offs[i][1], 0 }, r[3];
        if (s < 1e-6f) {
            r[0] = c > 0 ? v[0] : -v[0];
            r[1] = v[1];
            r[2] = 0;
        } else {
            float k[3] = { ax[0] / s, ax[1] / s, 0 };
            float kv = k[0] * v[0] + k[1] * v[1];
            float kx[3] = { k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0] };
            for (int j = 0; j < 3; j++)
                r[j] = v[j] * c + kx[j] * s + k[j] * kv * (1 - c);
        }
        for (int j = 0; j < 3; j++)
            out[i][j] = (isfinite(p[j]) ? p[j] : 0) - d[j] * FSFX_SCATTER_BACK + r[j];
    }
}

float r_fsfx_scatter_shade(int kept, int ring)
{
    if (ring <= 0)
        return 1;
    if (kept > FSFX_SCATTER_MAXOLD)
        kept = FSFX_SCATTER_MAXOLD;
    int trans = (kept - (ring - 1)) * (255 / FSFX_SCATTER_MAXOLD);
    if (trans <= 0)
        return 0;
    return (float)(int)((float)trans / 256.0f * 128.0f) / 255.0f;   // the u_int8_t of TransFloat x 128
}

// ---- the sphere models ------------------------------------------------------------------------

// A field sphere's Scale after n whole ticks: from s0 it loses FSFX_FIELD_DEC a tick, first wraps back
// to FSFX_FIELD_MAX at tick `first`, then every FSFX_FIELD_PERIOD ticks.
static float field_scale_n(long n, float s0, long first)
{
    if (n < first)
        return s0 - FSFX_FIELD_DEC * (float)n;
    return FSFX_FIELD_MAX - FSFX_FIELD_DEC * (float)((n - first) % FSFX_FIELD_PERIOD);
}

int r_fsfx_gravgon(float ticks, float scale[2])
{
    // sphere 0: Scale 10, below 0 after 134 ticks (10 - 133 x 0.075 = 0.025); sphere 1: Scale 5,
    // below 0 after 67 (5 - 66 x 0.075 = 0.05)
    static const float s0[2] = { FSFX_FIELD_MAX, FSFX_FIELD_MAX / 2 };
    static const long first[2] = { FSFX_FIELD_PERIOD, FSFX_FIELD_PERIOD / 2 };
    int mask = 0;
    for (int k = 0; k < 2; k++) {
        scale[k] = 0;
        if (!(ticks >= 0) || !(ticks < 1e6f))
            continue;
        // dies at its first wrap on or after the tick its LifeCount reached 0
        long death = first[k];
        if (death < FSFX_FIELD_LIFE)
            death += (FSFX_FIELD_LIFE - first[k] + FSFX_FIELD_PERIOD - 1) / FSFX_FIELD_PERIOD * FSFX_FIELD_PERIOD;
        long n = (long)floorf(ticks);
        if (n >= death)
            continue;
        float s = field_scale_n(n, s0[k], first[k]) - FSFX_FIELD_DEC * (ticks - (float)n);
        scale[k] = s > 0 ? s : 0;
        mask |= 1 << k;
    }
    return mask;
}

int r_fsfx_sphere_shade(float scale, float max_scale)
{
    if (!(max_scale > 0) || !isfinite(scale))
        return 0;
    float c2 = scale * (128.0f / max_scale) + 128.0f;
    if (c2 > 255.0f)
        c2 = 255.0f;
    float c = 255.0f - c2;
    return c <= 0 ? 0 : c >= 255 ? 255 : (int)c;   // the game's (u_int8_t) of it
}

float r_fsfx_shock_sphere(float size, float ticks)
{
    if (!(size > 0) || !(ticks >= 0) || !(ticks <= FSFX_SHOCK_GROW))
        return -1;
    return size / FSFX_SHOCK_GROW * ticks;
}

float r_fsfx_mine_bob(int weapon, float life)
{
    float rate, height;
    if (weapon == FSW_PURGEMINE) {
        rate = 3.0f;
        height = 50.0f;    // 200 x GLOBAL_SCALE
    } else if (weapon == FSW_QUANTUMMINE) {
        rate = 2.5f;
        height = 18.75f;   // 75 x GLOBAL_SCALE
    } else {
        return 0;
    }
    if (!(life >= 0) || !(life < 1e9f))
        life = 0;
    long val = (long)(life * rate) % 360;   // the game's whole degrees (int16_t, then % 360)
    return (float)cos(val * (M_PI / 180)) * height;
}

const char *r_fsfx_mine_sound(int weapon)
{
    switch (weapon) {
    case FSW_PURGEMINE:
        return "exp4.wav";
    case FSW_PINEMINE:
        return "exp5.wav";
    case FSW_QUANTUMMINE:
        return "quantexp.wav";
    case FSW_SPIDERMINE:
        return "exp6.wav";
    default:
        return NULL;
    }
}

const char *r_fsfx_prim_sound(int weapon)
{
    switch (weapon) {
    case FSW_PULSAR:
        return "pulsfire.wav";
    case FSW_TROJAX:
        return "trojfire.wav";
    case FSW_PYROLITE:
        return "pyroloop.wav";
    case FSW_TRANSPULSE:
        return "tpfire2.wav";
    case FSW_SUSSGUN:
        return "sussgnf3.wav";
    case FSW_LASER:
        return "laser2c.wav";
    case FSW_ORBITPULSAR:
        return "orbitpls.wav";
    default:
        return NULL;
    }
}

const char *r_fsfx_sec_sound(int weapon, float *volume)
{
    if (volume)
        *volume = weapon == FSW_MFRL ? 0.85f : 1.0f;
    switch (weapon) {
    case FSW_MUG:
    case FSW_SOLARIS:
    case FSW_SCATTER:
    case FSW_GRAVGON:
    case FSW_PINEMISSILE:
        return "mslaun2.wav";
    case FSW_TITAN:
        return "titanln.wav";
    case FSW_MFRL:
        return "mfrln.wav";
    case FSW_PURGEMINE:
    case FSW_PINEMINE:
    case FSW_QUANTUMMINE:
    case FSW_SPIDERMINE:
        return "minelay.wav";
    default:
        return NULL;
    }
}

int r_fsfx_sec_bang(int weapon)
{
    return weapon == FSW_MUG || weapon == FSW_SOLARIS || weapon == FSW_THIEF || weapon == FSW_SCATTER ||
           weapon == FSW_GRAVGON || weapon == FSW_TITAN;
}

float r_fsfx_mine_turn(int weapon, float ticks)
{
    if (weapon != FSW_PURGEMINE && weapon != FSW_QUANTUMMINE && weapon != FSW_SPIDERMINE)
        return 0;
    if (!(ticks >= 0) || !(ticks < 1e9f))
        return 0;
    return fmodf(2.0f * ticks, 360.0f);
}
