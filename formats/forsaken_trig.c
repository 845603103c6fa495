// forsaken_trig.c -- the Forsaken decoder's trigger runner: see forsaken_trig.h
#include "forsaken_trig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANIM_SECOND 60.0          // a mod's delay in 60ths ...
#define TICKS_PER_SECOND 71.0     // ... counted down by the game's ticks (docs/forsaken.md "The game's tables")

static uint8_t *level_file(const asset_files_t *files, const char *level, const char *ext, size_t *size, char *path,
                           size_t cap)
{
    snprintf(path, cap, "levels/%s/%s.%s", level, level, ext);
    return asset_load(files, path, size);
}

int fs_trig_load(fs_trig_t *t, const asset_files_t *files, const char *level, char *warn, size_t cap)
{
    memset(t, 0, sizeof *t);
    if (warn && cap)
        warn[0] = 0;
    if (!files || !files->fn || !level || !level[0] || strlen(level) > 48)
        return 0;
    char path[128];
    size_t size;
    uint8_t *d = level_file(files, level, "trg", &size, path, sizeof path);
    if (!d)
        return 0;
    fstrg_t *trg = fstrg_load(d, size, path, warn, cap);
    free(d);
    if (!trg)
        return -1;
    fszon_t *zon = NULL;
    d = level_file(files, level, "zon", &size, path, sizeof path);
    if (d) {
        zon = fszon_load(d, size, path, warn, cap);
        free(d);
        if (!zon || fszon_check(zon, trg, path, warn, cap) < 0) {
            fszon_free(zon);
            fstrg_free(trg);
            return -1;
        }
    }
    if (trg->num_vars > FST_MAX_VARS || trg->num_triggers > FST_MAX_TRIGGERS || trg->num_conds > FST_MAX_CONDS ||
        (zon && zon->count > FST_MAX_AREAS)) {
        if (warn && cap)
            snprintf(warn, cap, "levels/%s/%s.trg: %d variables, %d triggers, %d conditions, %d areas: more than the "
                     "runner holds (%d, %d, %d, %d)", level, level, trg->num_vars, trg->num_triggers, trg->num_conds,
                     zon ? zon->count : 0, FST_MAX_VARS, FST_MAX_TRIGGERS, FST_MAX_CONDS, FST_MAX_AREAS);
        fszon_free(zon);
        fstrg_free(trg);
        return -1;
    }
    if (trg->num_vars == 0 || !zon || zon->count == 0) {   // nothing can ever fire (eight of the ten levels)
        fszon_free(zon);
        fstrg_free(trg);
        return 0;
    }
    t->trg = trg;
    t->zon = zon;
    for (int i = 0; i < trg->num_vars; i++)
        t->var[i] = trg->vars[i].init;
    // an area is on from the start but for one waiting for a trigger; one on after a delay is
    // taken as on (the level's start, when its delay began, is before the recording's)
    for (int i = 0; i < zon->count; i++)
        t->area_on[i] = zon->areas[i].gen_type != 2;
    // a shot's path ends at its first wall: the level's triangles, only where an area counts shots
    int shoots = 0;
    for (int i = 0; i < zon->count; i++)
        shoots |= zon->areas[i].player_mod[FSZON_SHOOTS] != FSZON_NONE;
    if (!shoots)
        return 0;
    d = level_file(files, level, "mxv", &size, path, sizeof path);
    char err[256];
    snprintf(err, sizeof err, "%s: not found", path);
    t->mesh = d ? mxv_load(d, size, path, err, sizeof err) : NULL;
    free(d);
    if (!t->mesh) {
        if (warn && cap)
            snprintf(warn, cap, "%s", err);
        return 1;
    }
    return 0;
}

void fs_trig_free(fs_trig_t *t)
{
    fstrg_free((fstrg_t *)t->trg);
    fszon_free((fszon_t *)t->zon);
    mxv_free((mxv_t *)t->mesh);
    t->trg = NULL;
    t->zon = NULL;
    t->mesh = NULL;
}

static void set_light(fs_trig_t *t, world_t *w, int light, int on, double time)
{
    if (light < 0 || light >= FSW_MAX_RTL)
        return;
    if (on && t->light_seen[light] && t->light_on[light])
        return;   // EnableRTLight on a light already on: it stays as it is
    if (!on && (!t->light_seen[light] || !t->light_on[light]))
        return;
    entity_state_t e;
    entity_state_clear(&e);
    e.modelindex = FSW_MODEL_TRIG;
    e.frame = on;
    e.animtime = (float)time;
    world_entity_update(w, FSW_RTL_ENT0 + light, &e);
    t->light_seen[light] = 1;
    t->light_on[light] = (uint8_t)on;
}

// EnableSpotFX / DisableSpotFX of spot effect k: its marker (engine/world_fs.h FSW_SPOT_ENT0), from
// `time`; starting one again starts it again (EnableSpotFX resets its state).
static void set_spot(fs_trig_t *t, world_t *w, int k, int on, double time)
{
    if (k < 0 || k >= FSW_MAX_SPOT)
        return;
    entity_state_t e;
    entity_state_clear(&e);
    e.modelindex = FSW_MODEL_TRIG;
    e.frame = on;
    e.animtime = (float)time;
    world_entity_update(w, FSW_SPOT_ENT0 + k, &e);
    t->spot_seen[k] = 1;
}

// TriggerBackgroundAnimationGo / Stop of index entry k: its state only (the script goes on from
// where it stood); the marker (engine/world_fs.h FSW_TEXANIM_ENT0) carries the seconds it has run.
static void set_texanim(fs_trig_t *t, world_t *w, int k, int on, double time)
{
    if (k < 0 || k >= FSW_MAX_TEXANIM || (t->tex_seen[k] && t->tex_on[k] == on) || (!t->tex_seen[k] && !on))
        return;   // Go on one going, Stop on one stopped: nothing changes
    if (t->tex_seen[k] && t->tex_on[k])
        t->tex_run[k] += time - t->tex_since[k];
    t->tex_on[k] = (uint8_t)on;
    t->tex_since[k] = time;
    t->tex_seen[k] = 1;
    entity_state_t e;
    entity_state_clear(&e);
    e.modelindex = FSW_MODEL_TRIG;
    e.frame = on;
    e.animtime = (float)time;
    e.framerate = (float)t->tex_run[k];
    world_entity_update(w, FSW_TEXANIM_ENT0 + k, &e);
}

// The events of the conditions proved true (the game runs them on its next frame; here at once).
static void run_pending(fs_trig_t *t, world_t *w, double time)
{
    const fstrg_t *g = t->trg;
    for (int c = 0; c < g->num_conds; c++) {
        if (!t->pending[c])
            continue;
        t->pending[c] = 0;
        const fstrg_cond_t *cd = &g->conds[c];
        for (int k = 0; k < cd->ev_count; k++) {
            const fstrg_event_t *ev = &g->events[g->idx[cd->ev_first + k]];
            int arg = fstrg_event_arg(ev);
            switch (ev->type) {
            case FSTRG_EV_LIGHT_ON:
            case FSTRG_EV_LIGHT_OFF:
                set_light(t, w, arg, ev->type == FSTRG_EV_LIGHT_ON, time);
                break;
            case FSTRG_EV_AREA_ON:
            case FSTRG_EV_AREA_OFF:
                if (arg < t->zon->count)
                    t->area_on[arg] = ev->type == FSTRG_EV_AREA_ON;
                break;
            case FSTRG_EV_SPOTFX_START:
            case FSTRG_EV_SPOTFX_START + 1:
                set_spot(t, w, arg, ev->type == FSTRG_EV_SPOTFX_START, time);
                break;
            case FSTRG_EV_TEXANIM_START:
            case FSTRG_EV_TEXANIM_START + 1:
                set_texanim(t, w, arg, ev->type == FSTRG_EV_TEXANIM_START, time);
                break;
            default:
                break;   // pickups (already placed in a multiplayer game), doors ...: not run
            }
        }
    }
}

static int trigger_holds(int type, int32_t state, int32_t want)
{
    switch (type) {
    case FSTRG_EQUAL: return state == want;
    case FSTRG_NOTEQUAL: return state != want;
    case FSTRG_LESS: return state < want;
    case FSTRG_GREATER: return state > want;
    case FSTRG_LESSEQUAL: return state <= want;
    case FSTRG_GREATEREQUAL: return state >= want;
    case FSTRG_FLAGCOUNT: return __builtin_popcount((uint32_t)state) == want;
    default: return want >= 1 && want <= 32 && ((uint32_t)state >> (want - 1) & 1);   // FLAG_MASK
    }
}

// ModifyTriggerVar: wrapping 32-bit arithmetic, as the game's ints on its machines.
static void modify_var(fs_trig_t *t, int v, int op, int32_t val)
{
    const fstrg_t *g = t->trg;
    uint32_t s = (uint32_t)t->var[v], old = s, u = (uint32_t)val;
    switch (op) {
    case FSTRG_SET: s = u; break;
    case FSTRG_RESET: s = (uint32_t)g->vars[v].init; break;
    case FSTRG_INC: s += u; break;
    case FSTRG_DEC: s -= u; break;
    case FSTRG_OR: s |= u; break;
    case FSTRG_AND: s &= u; break;
    case FSTRG_XOR: s ^= u; break;
    case FSTRG_MULTIPLY: s *= u; break;
    case FSTRG_DIVIDE:
        if (val != 0 && !((int32_t)s == INT32_MIN && val == -1))
            s = (uint32_t)((int32_t)s / val);
        break;
    case FSTRG_RANDOM: s = 0; break;   // Random_Range: the game's random numbers are not reproduced (no level uses it)
    case FSTRG_SETFLAG: if (val >= 1 && val <= 32) s |= 1u << (val - 1); break;
    default: if (val >= 1 && val <= 32) s &= ~(1u << (val - 1)); break;
    }
    t->var[v] = (int32_t)s;
    if (s == old)
        return;
    const fstrg_var_t *var = &g->vars[v];
    for (int i = 0; i < var->count; i++) {
        int ti = g->idx[var->first + i];
        const fstrg_trigger_t *tr = &g->triggers[ti];
        t->active[ti] = (uint8_t)trigger_holds(tr->type, t->var[v], tr->active_state);
        if (!t->active[ti])
            continue;
        for (int c = 0; c < tr->count; c++) {   // TestAllConditions
            int ci = g->idx[tr->first + c];
            const fstrg_cond_t *cd = &g->conds[ci];
            int all = 1;
            for (int k = 0; k < cd->trig_count && all; k++)
                all = t->active[g->idx[cd->trig_first + k]];
            if (all)
                t->pending[ci] = 1;
        }
    }
}

// ApplyTriggerMod: the mod and the ones chained after it (the loader refused chains that go round).
static void apply_mod(fs_trig_t *t, world_t *w, int m, double time)
{
    const fstrg_t *g = t->trg;
    for (int steps = 0; m >= 0 && m < g->num_mods && steps <= g->num_mods; steps++) {
        const fstrg_mod_t *md = &g->mods[m];
        if (md->delay != 0.0f) {
            if (t->nqueue < FST_MAX_QUEUE) {   // AddTriggerModQue (the game also drops one with no room)
                t->queue[t->nqueue].due = time + md->delay * ANIM_SECOND / TICKS_PER_SECOND;
                t->queue[t->nqueue].mod = m;
                t->queue[t->nqueue].chain = 0;
                t->nqueue++;
            }
        } else {
            modify_var(t, md->var, md->op, md->value);
            t->fired++;
        }
        m = md->next;
    }
    run_pending(t, w, time);
}

void fs_trig_host(fs_trig_t *t, world_t *w, const float pos[3], int group, int moving, double time)
{
    if (!t->trg)
        return;
    if (!moving) {
        t->have_pos = 0;
        return;
    }
    if (t->have_pos) {
        const fszon_t *z = t->zon;
        for (int i = 0; i < z->count; i++) {
            const fszon_area_t *a = &z->areas[i];
            // the game tests the areas of the ship's group; the group an update gives is the one
            // the ship ends in, so the path's two ends' groups are both taken (assumed)
            if (!t->area_on[i] || (a->group != group && a->group != t->group))
                continue;
            if (a->player_mod[FSZON_IN] == FSZON_NONE && a->player_mod[FSZON_ENTERS] == FSZON_NONE &&
                a->player_mod[FSZON_EXITS] == FSZON_NONE)
                continue;
            int hit = fszon_segment(z, a, t->pos, pos);
            if ((hit & FSZON_HIT_ENTRY) && a->player_mod[FSZON_ENTERS] != FSZON_NONE)
                apply_mod(t, w, a->player_mod[FSZON_ENTERS], time);
            if ((hit & FSZON_HIT_IN) && a->player_mod[FSZON_IN] != FSZON_NONE)
                apply_mod(t, w, a->player_mod[FSZON_IN], time);
            if ((hit & FSZON_HIT_EXIT) && a->player_mod[FSZON_EXITS] != FSZON_NONE)
                apply_mod(t, w, a->player_mod[FSZON_EXITS], time);
        }
    }
    memcpy(t->pos, pos, sizeof t->pos);
    t->group = group;
    t->have_pos = 1;
}

// TriggerAreaPlayerShootsCheck's weapon test: an area that names weapons (not both -1, not both
// 0) takes a primary only when its primary weapon is the shot's; otherwise any shot.
static int takes_weapon(const fszon_area_t *a, int weapon)
{
    int names = (a->player_primary != -1 || a->player_secondary != -1) && (a->player_primary != 0 || a->player_secondary != 0);
    return !names || weapon == a->player_primary;
}

void fs_trig_shot(fs_trig_t *t, world_t *w, const float pos[3], const float dir[3], int weapon, double time)
{
    if (!t->trg || !t->mesh || weapon < 0 || weapon >= FSW_NUM_PRIMARY)
        return;
    float speed = fsw_primary_speed(weapon), len = 0, d[3];
    for (int k = 0; k < 3; k++)
        len += dir[k] * dir[k];
    len = sqrtf(len);
    // the laser's move is nothing each frame (its Speed 0, its beam follows the ship): it enters nothing
    if (!(speed > 0) || !(len > 1e-6f) || !isfinite(len) || !isfinite(pos[0]) || !isfinite(pos[1]) || !isfinite(pos[2]))
        return;
    for (int k = 0; k < 3; k++)
        d[k] = dir[k] / len;
    float reach = speed * fsw_primary_life(weapon), wall = -1, end[3];
    const fszon_t *z = t->zon;
    for (int i = 0; i < z->count; i++) {
        const fszon_area_t *a = &z->areas[i];
        if (!t->area_on[i] || a->player_mod[FSZON_SHOOTS] == FSZON_NONE || !takes_weapon(a, weapon))
            continue;
        for (int k = 0; k < 3; k++)
            end[k] = pos[k] + d[k] * reach;
        if (!(fszon_segment(z, a, pos, end) & FSZON_HIT_ENTRY))
            continue;   // Entry only: a shot that starts inside counts nothing
        if (wall < 0)
            wall = mxv_first_hit(t->mesh, pos, d, reach, NULL);   // once a shot, and only for one heading in
        for (int k = 0; k < 3; k++)
            end[k] = pos[k] + d[k] * wall;
        if (!(fszon_segment(z, a, pos, end) & FSZON_HIT_ENTRY))
            continue;   // a wall on the way
        float f = fszon_entry_at(z, a, pos, end);
        double due = time + (f > 0 ? f * wall : 0) / (speed * TICKS_PER_SECOND);
        if (t->nqueue < FST_MAX_QUEUE) {
            t->queue[t->nqueue].due = due;
            t->queue[t->nqueue].mod = a->player_mod[FSZON_SHOOTS];
            t->queue[t->nqueue].chain = 1;
            t->nqueue++;
        } else {
            apply_mod(t, w, a->player_mod[FSZON_SHOOTS], time);   // no room to wait: now
        }
    }
}

void fs_trig_tick(fs_trig_t *t, world_t *w, double time)
{
    if (!t->trg || !t->nqueue)
        return;
    for (int i = 0; i < t->nqueue;) {
        if (t->queue[i].due <= time) {
            int m = t->queue[i].mod, chain = t->queue[i].chain;
            const fstrg_mod_t *md = &t->trg->mods[m];
            t->queue[i] = t->queue[--t->nqueue];
            if (chain) {   // a shot got to its area: the area's mod as TriggerAreaPlayerShootsCheck runs it
                apply_mod(t, w, m, time);
                continue;
            }
            modify_var(t, md->var, md->op, md->value);
            t->fired++;
            run_pending(t, w, time);
        } else {
            i++;
        }
    }
}

void fs_trig_resubmit(const fs_trig_t *t, world_t *w)
{
    for (int i = 0; i < FSW_MAX_RTL; i++) {
        world_entity_t *e = &w->entities[FSW_RTL_ENT0 + i];
        if (t->light_seen[i] && e->seq != w->seq) {
            entity_state_t s = e->cur;
            world_entity_update(w, FSW_RTL_ENT0 + i, &s);
        }
    }
    for (int i = 0; i < FSW_MAX_SPOT; i++) {
        world_entity_t *e = &w->entities[FSW_SPOT_ENT0 + i];
        if (t->spot_seen[i] && e->seq != w->seq) {
            entity_state_t s = e->cur;
            world_entity_update(w, FSW_SPOT_ENT0 + i, &s);
        }
    }
    for (int i = 0; i < FSW_MAX_TEXANIM; i++) {
        world_entity_t *e = &w->entities[FSW_TEXANIM_ENT0 + i];
        if (t->tex_seen[i] && e->seq != w->seq) {
            entity_state_t s = e->cur;
            world_entity_update(w, FSW_TEXANIM_ENT0 + i, &s);
        }
    }
}
