// r_fsbgo.c -- Forsaken's background objects: the level's .BGO list, its .COBs, and where they are
//
// Rules from the game's BGObjects.c (ProcessBGObjects, ChangeBGState, UpdateBGObject),
// facts only; see docs/forsaken.md, "Background objects".
#include "r_fsbgo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/log.h"
#include "../engine/world_fs.h"

#define FSB_TICKS 71.0             // game ticks (framelag) a second: the animation time moves one a tick
#define FSB_DOOR_HOLD 180.0f       // ANIM_SECOND x 3: how long a door stays open

struct r_fsbgo_s {
    bgo_list_t list;
    cob_t **cob;                   // per object, NULL: its .COB did not load
    float (*axes)[3][3];           // per object: its placement
};

r_fsbgo_t *r_fsbgo_load(const asset_files_t *files, const char *level)
{
    if (!files || !files->fn || !level || !*level || strlen(level) > 48)
        return NULL;
    char path[160], err[256];
    snprintf(path, sizeof path, "levels/%s/%s.bgo", level, level);
    size_t size;
    uint8_t *d = asset_load(files, path, &size);
    if (!d)
        return NULL;   // no background objects: every level of the released data
    r_fsbgo_t *b = calloc(1, sizeof *b);
    if (!b || bgo_load(d, size, path, &b->list, err, sizeof err) < 0) {
        if (b)
            log_warn("%s (no background objects drawn)", err);
        free(d);
        free(b);
        return NULL;
    }
    free(d);
    int n = b->list.num;
    b->cob = calloc((size_t)(n ? n : 1), sizeof *b->cob);
    b->axes = calloc((size_t)(n ? n : 1), sizeof *b->axes);
    if (!b->cob || !b->axes) {
        r_fsbgo_free(b);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        const bgo_entry_t *e = &b->list.e[i];
        cob_axes_from_dir_up(e->dir, e->up, b->axes[i]);
        snprintf(path, sizeof path, "levels/%s/bgobjects/%s", level, e->cob);
        d = asset_load(files, path, &size);
        if (!d) {
            log_warn("%s: not found (background object %d is not drawn)", path, i);
            continue;
        }
        b->cob[i] = cob_load(d, size, path, err, sizeof err);
        free(d);
        if (!b->cob[i])
            log_warn("%s (background object %d is not drawn)", err, i);
    }
    return b;
}

void r_fsbgo_free(r_fsbgo_t *b)
{
    if (!b)
        return;
    for (int i = 0; b->cob && i < b->list.num; i++)
        cob_free(b->cob[i]);
    free(b->cob);
    free(b->axes);
    bgo_free(&b->list);
    free(b);
}

int r_fsbgo_count(const r_fsbgo_t *b) { return b ? b->list.num : 0; }
const bgo_entry_t *r_fsbgo_entry(const r_fsbgo_t *b, int i) { return b && i >= 0 && i < b->list.num ? &b->list.e[i] : NULL; }
const cob_t *r_fsbgo_cob(const r_fsbgo_t *b, int i) { return b && i >= 0 && i < b->list.num ? b->cob[i] : NULL; }

// Opening up to mid, held open, closing to overall, then closed (time 0): the path a door
// takes from animation time u (u past mid counts the time held, then the closing).
static float door_path(float u, float mid, float overall)
{
    if (u <= mid)
        return u;
    u -= mid;
    if (u <= FSB_DOOR_HOLD)
        return mid;
    float c = mid + (u - FSB_DOOR_HOLD);
    return c > overall ? 0.0f : c;
}

float r_fsbgo_door_time(int state, float t0, float ticks, float mid, float overall)
{
    if (!(ticks > 0))
        ticks = 0;
    switch (state) {
    case FSW_DOOR_OPENING:
        return door_path(t0 + ticks, mid, overall);
    case FSW_DOOR_OPEN:          // the hold is not sent: a whole one from the message (assumed)
        return door_path(mid + ticks, mid, overall);
    case FSW_DOOR_CLOSING: {
        float c = t0 + ticks;
        return c > overall ? 0.0f : c;
    }
    case FSW_DOOR_REVERSEOPENING: {
        float c = t0 - ticks;
        return c < 0 ? 0.0f : c;
    }
    case FSW_DOOR_REVERSECLOSING: {
        float c = t0 - ticks;
        return c >= mid ? c : door_path(mid + (mid - c), mid, overall);
    }
    default:
        return 0.0f;
    }
}

float r_fsbgo_time(const r_fsbgo_t *b, const world_t *w, int i, double t)
{
    const cob_t *c = r_fsbgo_cob(b, i);
    if (!c)
        return 0;
    const bgo_entry_t *e = &b->list.e[i];
    float overall = c->overall_time;
    int num = FSW_BGO_ENT0 + i;
    int sent = w && i < FSW_MAX_BGO && world_entity_visible(w, num) &&
               w->entities[num].cur.modelindex == FSW_MODEL_BGO;
    const entity_state_t *s = sent ? &w->entities[num].cur : NULL;
    float ticks = s ? (float)((t - s->animtime) * FSB_TICKS) : 0;
    switch (e->type) {
    case BGO_DOOR:
        return s ? r_fsbgo_door_time(s->frame, s->framerate, ticks, c->mid_time, overall) : 0.0f;
    case BGO_LOOPING:
        if (overall <= 0.001f)
            return 0;
        if (s)
            return s->frame == 2 ? fmodf(s->framerate + ticks, overall) : s->framerate;   // LOOPANIM_Animating
        // started with the level (or after its delay, which a demo's clock cannot place): in
        // step with the demo's clock; one waiting for a trigger stands still
        return e->gen_type == BGO_GEN_TRIGGERED ? 0.0f : (float)fmod(t * FSB_TICKS, overall);
    case BGO_ONEOFF:
        if (s)
            return s->frame == 2 ? fminf(s->framerate + ticks, overall) : s->framerate;
        return e->gen_type == BGO_GEN_TRIGGERED ? 0.0f : overall;   // played out before the demo
    case BGO_MULTISTEP:
        return s ? s->framerate : 0.0f;
    default:
        return 0.0f;
    }
}

int r_fsbgo_parts(const r_fsbgo_t *b, const world_t *w, double t, r_fsbgo_part_t *out, int max)
{
    if (!b)
        return 0;
    int n = 0;
    float pos[COB_MAX_COMPS][3], axes[COB_MAX_COMPS][3][3];
    for (int i = 0; i < b->list.num && n < max; i++) {
        const cob_t *c = b->cob[i];
        const bgo_entry_t *e = &b->list.e[i];
        if (!c)
            continue;
        float at = r_fsbgo_time(b, w, i, t);
        // a one-off animation that destroys itself at its end is gone
        if ((e->type == BGO_ONEOFF || e->type == BGO_MULTISTEP) && e->destroy_at_end && at >= c->overall_time)
            continue;
        cob_pose(c, at, e->pos, (const float(*)[3])b->axes[i], pos, axes);
        for (int k = 0; k < c->num_comps && n < max; k++) {
            if (c->comps[k].model < 0)
                continue;
            r_fsbgo_part_t *p = &out[n++];
            p->model = c->model_names[c->comps[k].model];
            memcpy(p->org, pos[k], sizeof p->org);
            memcpy(p->axes, axes[k], sizeof p->axes);
            p->object = i;
            cob_morph(c, k, at, &p->frame, &p->interp_frame, &p->interp_time);
        }
    }
    return n;
}
