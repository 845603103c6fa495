// world.c -- the format-neutral world state: frame bookkeeping, interpolation inputs, snapshots
#include "world.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void entity_state_clear(entity_state_t *s)
{
    memset(s, 0, sizeof(*s));
    s->renderamt = 255;
    s->scale = 1.0f;
}

static void bounded_copy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

world_t *world_create(void)
{
    world_t *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->models = calloc(WORLD_MAX_MODELS, WORLD_NAME_LEN);
    w->sounds = calloc(WORLD_MAX_SOUNDS, WORLD_NAME_LEN);
    w->images = calloc(WORLD_MAX_IMAGES, WORLD_NAME_LEN);
    w->general = calloc(WORLD_MAX_GENERAL, WORLD_NAME_LEN);
    w->entities = calloc(WORLD_MAX_ENTITIES, sizeof(world_entity_t));
    w->statics = calloc(WORLD_MAX_STATICS, sizeof(world_static_t));
    w->static_sounds = calloc(WORLD_MAX_STATIC_SOUNDS, sizeof(world_static_sound_t));
    w->povs = calloc(WORLD_MAX_PLAYERS, sizeof(world_pov_t));
    w->capacity_full = 1;
    if (!w->models || !w->sounds || !w->images || !w->general || !w->entities || !w->statics || !w->static_sounds ||
        !w->povs) {
        world_free(w);
        return NULL;
    }
    world_reset(w);
    return w;
}

void world_free(world_t *w)
{
    if (!w)
        return;
    free(w->models);
    free(w->sounds);
    free(w->images);
    free(w->general);
    free(w->entities);
    free(w->statics);
    free(w->static_sounds);
    free(w->povs);
    free(w);
}

void world_new_level(world_t *w)
{
    for (int i = 0; i < w->num_models; i++)
        w->models[i][0] = 0;
    for (int i = 0; i < w->num_sounds; i++)
        w->sounds[i][0] = 0;
    for (int i = 0; i < w->num_images; i++)
        w->images[i][0] = 0;
    for (int i = 0; i < w->num_general; i++)
        w->general[i][0] = 0;
    w->num_models = w->num_sounds = w->num_images = w->num_general = 0;
    memset(w->entities, 0, sizeof(world_entity_t) * (size_t)w->num_entities);
    w->num_entities = 0;
    w->num_statics = 0;
    w->num_static_sounds = 0;
    memset(w->povs, 0, sizeof(world_pov_t) * (size_t)w->num_povs);
    w->num_povs = 0;
    memset(w->lightstyles, 0, sizeof(w->lightstyles));
    w->statusbar[0] = 0;
    w->sky_rotate = 0;
    memset(w->sky_axis, 0, sizeof(w->sky_axis));
    w->gravity = 0;
    memset(w->item_names, 0, sizeof(w->item_names));
    memset(w->decal_names, 0, sizeof(w->decal_names));
    w->decals_seq++;
    w->decal_log_count = 0;
    memset(&w->view, 0, sizeof(w->view));
    w->view.entity = -1;
    w->view.fov = 90.0f;
    w->map[0] = 0;
    w->level_name[0] = 0;
    w->level_seq++;
}

void world_reset(world_t *w)
{
    world_new_level(w);
    w->game = GAME_NONE;
    w->protocol = 0;
    w->level_seq = 0;
    w->seq = 0;
    w->time = w->prev_time = 0;
    w->server_time = 0;
    w->game_dir[0] = 0;
    w->maxclients = 0;
    w->deathmatch = 0;
    w->playernum = 0;
    w->player_eye_height = 0;
    w->player_pitch_scale = 1;
    memset(w->players, 0, sizeof(w->players));
    w->num_events = 0;
    w->dropped_events = 0;
    w->text_used = 1;
    w->text_arena[0] = 0;
}

void world_begin_frame(world_t *w, double time)
{
    w->prev_time = w->time;
    w->time = time;
    w->seq++;
    w->num_events = 0;
    w->dropped_events = 0;
    w->text_used = 1;
    memcpy(w->view.prev_angles, w->view.angles, sizeof(vec3_t));
    memcpy(w->view.prev_origin, w->view.origin, sizeof(vec3_t));
    memcpy(w->view.prev_punch, w->view.punch, sizeof(vec3_t));
}

int world_entity_update(world_t *w, int num, const entity_state_t *st)
{
    if (num < 0 || num >= WORLD_MAX_ENTITIES)
        return -1;
    world_entity_t *e = &w->entities[num];
    if (num >= w->num_entities)
        w->num_entities = num + 1;
    const uint32_t seq = w->seq;
    if (e->seq == seq) {
        // a second update in the same frame replaces the first
        e->cur = *st;
        return 0;
    }
    if (e->seq != 0 && e->seq + 1 == seq) {
        // present in the frame before: that state is the one to lerp from
        e->prev = e->cur;
        // Quake's client snaps instead of lerping across a jump of more than 100 units
        e->lerp_ok = e->cur.modelindex == st->modelindex && !(fabsf(st->origin[0] - e->cur.origin[0]) > 100.0f) &&
                     !(fabsf(st->origin[1] - e->cur.origin[1]) > 100.0f) &&
                     !(fabsf(st->origin[2] - e->cur.origin[2]) > 100.0f);
        if (st->frame != e->cur.frame) {
            e->anim_prev_frame = e->cur.frame;
            e->anim_start_time = w->time;
        }
    } else {
        e->prev = *st;
        e->lerp_ok = 0;
        e->anim_prev_frame = st->frame;
        e->anim_start_time = w->time;
    }
    e->cur = *st;
    e->seq = seq;
    return 0;
}

int world_pov_update(world_t *w, int slot, const world_pov_t *pov)
{
    if (slot < 0 || slot >= WORLD_MAX_PLAYERS)
        return -1;
    world_pov_t *p = &w->povs[slot];
    if (slot >= w->num_povs)
        w->num_povs = slot + 1;
    // the last frame's view to blend from when it came in the frame before (or this one again)
    int had = p->seq != 0 && (p->seq + 1 == w->seq || p->seq == w->seq);
    vec3_t po, pa, pp;
    memcpy(po, had ? (p->seq == w->seq ? p->prev_origin : p->origin) : pov->origin, sizeof po);
    memcpy(pa, had ? (p->seq == w->seq ? p->prev_angles : p->angles) : pov->angles, sizeof pa);
    memcpy(pp, had ? (p->seq == w->seq ? p->prev_punch : p->punch) : pov->punch, sizeof pp);
    *p = *pov;
    memcpy(p->prev_origin, po, sizeof po);
    memcpy(p->prev_angles, pa, sizeof pa);
    memcpy(p->prev_punch, pp, sizeof pp);
    p->seq = w->seq;
    return 0;
}

int world_set_baseline(world_t *w, int num, const entity_state_t *st)
{
    if (num < 0 || num >= WORLD_MAX_ENTITIES)
        return -1;
    if (num >= w->num_entities)
        w->num_entities = num + 1;
    w->entities[num].baseline = *st;
    w->entities[num].has_baseline = 1;
    return 0;
}

int world_add_static(world_t *w, const entity_state_t *st)
{
    if (w->num_statics >= WORLD_MAX_STATICS)
        return -1;
    w->statics[w->num_statics++].s = *st;
    return 0;
}

int world_add_static_sound(world_t *w, const world_static_sound_t *s)
{
    if (w->num_static_sounds >= WORLD_MAX_STATIC_SOUNDS)
        return -1;
    w->static_sounds[w->num_static_sounds++] = *s;
    return 0;
}

static int set_name(char (*list)[WORLD_NAME_LEN], int32_t *count, int cap, int index, const char *name)
{
    if (index < 0 || index >= cap)
        return -1;
    bounded_copy(list[index], WORLD_NAME_LEN, name);
    if (index >= *count)
        *count = index + 1;
    return 0;
}

int world_set_model(world_t *w, int index, const char *name)
{
    if (index >= 0 && index < WORLD_MAX_MODELS && (index >= w->num_models || strncmp(w->models[index], name, WORLD_NAME_LEN)))
        w->models_seq++;
    return set_name(w->models, &w->num_models, WORLD_MAX_MODELS, index, name);
}

int world_set_sound(world_t *w, int index, const char *name)
{
    if (index >= 0 && index < WORLD_MAX_SOUNDS && (index >= w->num_sounds || strncmp(w->sounds[index], name, WORLD_NAME_LEN)))
        w->sounds_seq++;
    return set_name(w->sounds, &w->num_sounds, WORLD_MAX_SOUNDS, index, name);
}

int world_set_image(world_t *w, int index, const char *name)
{
    if (index >= 0 && index < WORLD_MAX_IMAGES && (index >= w->num_images || strncmp(w->images[index], name, WORLD_NAME_LEN)))
        w->images_seq++;
    return set_name(w->images, &w->num_images, WORLD_MAX_IMAGES, index, name);
}

int world_set_general(world_t *w, int index, const char *s)
{
    return set_name(w->general, &w->num_general, WORLD_MAX_GENERAL, index, s);
}

int world_set_decal(world_t *w, int index, const char *name)
{
    if (index < 0 || index >= WORLD_MAX_DECALS)
        return -1;
    if (strncmp(w->decal_names[index], name, WORLD_DECAL_NAME_LEN - 1) != 0) {
        snprintf(w->decal_names[index], WORLD_DECAL_NAME_LEN, "%s", name);
        w->decals_seq++;
    }
    return 0;
}

world_decal_t *world_add_decal(world_t *w)
{
    world_decal_t *d = &w->decal_log[w->decal_log_count++ % WORLD_MAX_DECAL_LOG];
    memset(d, 0, sizeof *d);
    d->time = w->time;
    return d;
}

world_event_t *world_add_event(world_t *w, world_event_type_t type)
{
    if (w->num_events >= WORLD_MAX_EVENTS) {
        w->dropped_events++;
        return NULL;
    }
    world_event_t *ev = &w->events[w->num_events++];
    memset(ev, 0, sizeof(*ev));
    ev->type = type;
    return ev;
}

world_event_t *world_add_text_event(world_t *w, world_event_type_t type, const char *text, int level)
{
    size_t n = strlen(text);
    if (w->text_used + n + 1 > WORLD_TEXT_ARENA) {
        w->dropped_events++;
        return NULL;
    }
    world_event_t *ev = world_add_event(w, type);
    if (!ev)
        return NULL;
    ev->u.text.offset = w->text_used;
    ev->u.text.level = level;
    memcpy(w->text_arena + w->text_used, text, n + 1);
    w->text_used += (uint32_t)(n + 1);
    return ev;
}

size_t world_clone_bytes(const world_t *w)
{
    return sizeof(*w) + (size_t)w->num_models * WORLD_NAME_LEN + (size_t)w->num_sounds * WORLD_NAME_LEN +
           (size_t)w->num_images * WORLD_NAME_LEN + (size_t)w->num_general * WORLD_NAME_LEN +
           (size_t)w->num_entities * sizeof(world_entity_t) +
           (size_t)w->num_statics * sizeof(world_static_t) +
           (size_t)w->num_static_sounds * sizeof(world_static_sound_t) + (size_t)w->num_povs * sizeof(world_pov_t);
}

// malloc(0) may return NULL; always ask for at least one element
static void *dup_array(const void *src, size_t n, size_t size)
{
    void *p = malloc((n ? n : 1) * size);
    if (p && n)
        memcpy(p, src, n * size);
    return p;
}

world_t *world_clone(const world_t *w)
{
    world_t *c = malloc(sizeof(*c));
    if (!c)
        return NULL;
    memcpy(c, w, sizeof(*c));
    c->capacity_full = 0;
    c->models = dup_array(w->models, (size_t)w->num_models, WORLD_NAME_LEN);
    c->sounds = dup_array(w->sounds, (size_t)w->num_sounds, WORLD_NAME_LEN);
    c->images = dup_array(w->images, (size_t)w->num_images, WORLD_NAME_LEN);
    c->general = dup_array(w->general, (size_t)w->num_general, WORLD_NAME_LEN);
    c->entities = dup_array(w->entities, (size_t)w->num_entities, sizeof(world_entity_t));
    c->statics = dup_array(w->statics, (size_t)w->num_statics, sizeof(world_static_t));
    c->static_sounds = dup_array(w->static_sounds, (size_t)w->num_static_sounds, sizeof(world_static_sound_t));
    c->povs = dup_array(w->povs, (size_t)w->num_povs, sizeof(world_pov_t));
    if (!c->models || !c->sounds || !c->images || !c->general || !c->entities || !c->statics || !c->static_sounds ||
        !c->povs) {
        world_free(c);
        return NULL;
    }
    return c;
}

int world_restore(world_t *dst, const world_t *snap)
{
    if (!dst->capacity_full)
        return -1;
    char (*models)[WORLD_NAME_LEN] = dst->models;
    char (*sounds)[WORLD_NAME_LEN] = dst->sounds;
    char (*images)[WORLD_NAME_LEN] = dst->images;
    char (*general)[WORLD_NAME_LEN] = dst->general;
    world_entity_t *entities = dst->entities;
    world_static_t *statics = dst->statics;
    world_static_sound_t *static_sounds = dst->static_sounds;
    world_pov_t *povs = dst->povs;
    int32_t old_povs = dst->num_povs;
    int32_t old_models = dst->num_models, old_sounds = dst->num_sounds, old_images = dst->num_images;
    int32_t old_general = dst->num_general;
    int32_t old_entities = dst->num_entities;

    memcpy(dst, snap, sizeof(*dst));
    dst->capacity_full = 1;
    dst->models = models;
    dst->sounds = sounds;
    dst->images = images;
    dst->general = general;
    dst->entities = entities;
    dst->statics = statics;
    dst->static_sounds = static_sounds;
    dst->povs = povs;
    memcpy(povs, snap->povs, (size_t)snap->num_povs * sizeof(world_pov_t));
    if (old_povs > snap->num_povs)
        memset(povs + snap->num_povs, 0, (size_t)(old_povs - snap->num_povs) * sizeof(world_pov_t));
    memcpy(models, snap->models, (size_t)snap->num_models * WORLD_NAME_LEN);
    memcpy(sounds, snap->sounds, (size_t)snap->num_sounds * WORLD_NAME_LEN);
    memcpy(images, snap->images, (size_t)snap->num_images * WORLD_NAME_LEN);
    memcpy(general, snap->general, (size_t)snap->num_general * WORLD_NAME_LEN);
    memcpy(entities, snap->entities, (size_t)snap->num_entities * sizeof(world_entity_t));
    memcpy(statics, snap->statics, (size_t)snap->num_statics * sizeof(world_static_t));
    memcpy(static_sounds, snap->static_sounds, (size_t)snap->num_static_sounds * sizeof(world_static_sound_t));
    // what lies beyond the snapshot's counts must read as empty, as in a fresh world
    for (int i = snap->num_models; i < old_models; i++)
        models[i][0] = 0;
    for (int i = snap->num_sounds; i < old_sounds; i++)
        sounds[i][0] = 0;
    for (int i = snap->num_images; i < old_images; i++)
        images[i][0] = 0;
    for (int i = snap->num_general; i < old_general; i++)
        general[i][0] = 0;
    if (old_entities > snap->num_entities)
        memset(entities + snap->num_entities, 0,
               (size_t)(old_entities - snap->num_entities) * sizeof(world_entity_t));
    return 0;
}
