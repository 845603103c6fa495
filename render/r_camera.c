// r_camera.c -- cameras: the view from elsewhere than the recording player's eyes (docs/cameras.md)
//
// A player whose own view the demo carries (world_player_pov: Quake II relay recordings) is
// followed through it: r_camera_view gives the frame that view in place of the world's, and
// the frame is drawn as the eyes are (weapon, status bar, blends), from theirs.
//
// The front end computes the eyes' view for every frame (r_main.c's setup_view); a camera
// other than R_CAM_EYES then replaces its origin, angles and field of view:
//   FREE    a pose the caller moves (the window's fly mode); it starts at the eyes' view.
//   FOLLOW  another player's eyes: their own view when the demo carries it (above), else
//           their entity's place between the last two frames, the decoder's eye height
//           above it, their entity's angles with the pitch scaled back (the games store a
//           third of it: world_t.player_pitch_scale).
//   CHASE   behind and above a player's eye (their own, when the demo carries it), pulled
//           in front of walls by a trace through the level (bsp_trace), smoothed while playing.
//   PATH    keyframes (time, origin, angles, fov) through a Catmull-Rom spline.
// Only world data is read; nothing here knows a game.
#include <math.h>
#include <string.h>

#include "r_local.h"

#define CHASE_BACK 100.0f   // Quake's chase_back
#define CHASE_UP 16.0f      // and chase_up
#define CHASE_WALL 4.0f     // kept this far in front of what the trace hit
#define CHASE_SPEED 8.0f    // smoothing: the camera closes this part of the gap a second (1 - e^-8t)

void r_set_camera(renderer_t *r, const r_camera_t *cam)
{
    if (!r)
        return;
    for (int i = 1; i < r_bands_count(r); i++)   // every band's renderer draws from the same camera
        r_set_camera(r_bands_get(r, i), cam);
    if (cam)
        r->cam = *cam;
    else
        memset(&r->cam, 0, sizeof r->cam);
    if (r->cam.num_keys < 0)
        r->cam.num_keys = 0;
    r->pov_slot = -1;
    if (r->cam.num_keys > R_CAM_MAX_KEYS)
        r->cam.num_keys = R_CAM_MAX_KEYS;
    r->cam.player_name[sizeof r->cam.player_name - 1] = 0;
    r->chase_valid = 0;
    r->cam_prev_t = -1;
}

void r_camera_state(const renderer_t *r, r_cam_state_t *out) { *out = r->cam_state; }

// Names compare without case and without the high bit (Quake's coloured letters).
static int same_name(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = *a & 0x7f, y = *b & 0x7f;
        if (x >= 'A' && x <= 'Z')
            x += 32;
        if (y >= 'A' && y <= 'Z')
            y += 32;
        if (x != y)
            return 0;
        if (!x)
            return 1;
    }
}

// The player slot the camera means (-1: the recording player).
static int target_slot(const renderer_t *r, const world_t *w)
{
    if (r->cam.player_name[0]) {
        for (int i = 0; i < WORLD_MAX_PLAYERS; i++)
            if (w->players[i].active && same_name(w->players[i].name, r->cam.player_name))
                return i;
        return -2;   // nobody by that name (yet)
    }
    return r->cam.player >= 0 && r->cam.player < WORLD_MAX_PLAYERS ? r->cam.player : -1;
}

static float angle_mod(float a) { return a - 360.0f * floorf(a / 360.0f); }

// A player's eye between the world's last two frames; 0 when the player has no entity now.
static int player_eye(const world_t *w, int slot, double frac, vec3_t org, vec3_t ang, int *entity)
{
    if (slot < 0 || slot >= WORLD_MAX_PLAYERS)
        return 0;
    int n = w->players[slot].entity;
    if (n <= 0 || n >= w->num_entities || !world_entity_visible(w, n))
        return 0;
    const world_entity_t *e = &w->entities[n];
    float f = e->lerp_ok ? (float)frac : 1.0f;
    for (int k = 0; k < 3; k++) {
        org[k] = e->prev.origin[k] + (e->cur.origin[k] - e->prev.origin[k]) * f;
        float a = e->lerp_ok ? e->prev.angles[k] : e->cur.angles[k], b = e->cur.angles[k];
        float d = angle_mod(b - a + 180.0f) - 180.0f;
        ang[k] = a + d * f;
    }
    org[2] += w->player_eye_height;
    float p = angle_mod(ang[0] + 180.0f) - 180.0f;
    ang[0] = p * (w->player_pitch_scale != 0 ? w->player_pitch_scale : 1.0f);
    if (ang[0] > 89)
        ang[0] = 89;
    if (ang[0] < -89)
        ang[0] = -89;
    *entity = n;
    return 1;
}

// A player's own eye between the last two frames when the demo carries their view
// (world_player_pov): their eye and view angles, blended as the recording player's are.
static int pov_eye(const world_t *w, int slot, double frac, vec3_t org, vec3_t ang)
{
    const world_pov_t *p = world_player_pov(w, slot);
    if (!p)
        return 0;
    float f = (float)frac;
    for (int k = 0; k < 3; k++) {
        org[k] = p->prev_origin[k] + (p->origin[k] - p->prev_origin[k]) * f;
        float d = angle_mod(p->angles[k] - p->prev_angles[k] + 180.0f) - 180.0f;
        ang[k] = p->prev_angles[k] + d * f;
    }
    return 1;
}

// The recording player's slot (a server-side recording has none).
static int is_recorder(const world_t *w, int slot)
{
    return slot == w->playernum && (w->view.origin_valid || w->view.entity > 0);
}

const world_view_t *r_camera_view(renderer_t *r, const world_t *w)
{
    int slot = r->cam.mode == R_CAM_FOLLOW ? target_slot(r, w) : -1;
    const world_pov_t *p = slot >= 0 && !is_recorder(w, slot) ? world_player_pov(w, slot) : NULL;
    if (!p) {
        r->pov_slot = -1;
        return &w->view;
    }
    // the world's view (its layout, intermission texts, items) with the player's own over it
    world_view_t *v = &r->pov_view;
    *v = w->view;
    v->entity = w->players[slot].entity;
    memcpy(v->origin, p->origin, sizeof(vec3_t));
    memcpy(v->prev_origin, p->prev_origin, sizeof(vec3_t));
    v->origin_valid = 1;
    memcpy(v->ofs, p->ofs, sizeof(vec3_t));
    memcpy(v->angles, p->angles, sizeof(vec3_t));
    memcpy(v->prev_angles, p->prev_angles, sizeof(vec3_t));
    memcpy(v->punch, p->punch, sizeof(vec3_t));
    memcpy(v->prev_punch, p->prev_punch, sizeof(vec3_t));
    memcpy(v->velocity, p->velocity, sizeof(vec3_t));
    v->gun_valid = 1;
    v->gun_model = p->gun_model;
    v->gun_frame = p->gun_frame;
    memcpy(v->gun_offset, p->gun_offset, sizeof(vec3_t));
    memcpy(v->gun_angles, p->gun_angles, sizeof(vec3_t));
    v->fov = p->fov > 0 ? p->fov : 90.0f;
    memcpy(v->blend, p->blend, sizeof v->blend);
    v->rdflags = p->rdflags;
    memset(v->stats, 0, sizeof v->stats);
    memcpy(v->stats, p->stats, sizeof p->stats);
    v->onground = p->onground;
    v->intermission = p->intermission;
    r->pov_slot = slot;
    return v;
}

static int point_contents(const renderer_t *r, const vec3_t p)
{
    if (!r->bsp)
        return 0;
    int leaf = bsp_point_leaf(r->bsp, p);
    return leaf >= 0 && leaf < r->bsp->num_leafs ? r->bsp->leafs[leaf].contents : 0;
}

// From the eye towards `want`: as far as the level lets a camera go, a little short of the wall.
static void clip_to_level(const renderer_t *r, const vec3_t eye, const vec3_t want, vec3_t out)
{
    memcpy(out, want, sizeof(vec3_t));
    float d0[3] = {want[0] - eye[0], want[1] - eye[1], want[2] - eye[2]};
    float len0 = sqrtf(d0[0] * d0[0] + d0[1] * d0[1] + d0[2] * d0[2]);
    if (!r->bsp && len0 > 0) {   // a mesh level (Forsaken's): stop CHASE_WALL before its first wall
        float u[3] = {d0[0] / len0, d0[1] / len0, d0[2] / len0};
        float hit = r_mesh_wall(r, eye, u, len0);
        if (hit < len0) {
            float keep = hit > CHASE_WALL ? hit - CHASE_WALL : 0;
            for (int k = 0; k < 3; k++)
                out[k] = eye[k] + u[k] * keep;
        }
        return;
    }
    if (!r->bsp || point_contents(r, eye) == BSP_CONTENTS_SOLID)
        return;
    bsp_trace_t tr;
    if (bsp_trace(r->bsp, r->bsp->models[0].headnode, eye, want, &tr)) {
        float d[3] = {want[0] - eye[0], want[1] - eye[1], want[2] - eye[2]};
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        float keep = len > 0 ? tr.fraction - CHASE_WALL / len : 0;
        if (keep < 0)
            keep = 0;
        for (int k = 0; k < 3; k++)
            out[k] = eye[k] + d[k] * keep;
    }
    // a corner the line slipped through: step back towards the eye until the point is open
    for (int i = 0; i < 16 && point_contents(r, out) == BSP_CONTENTS_SOLID; i++)
        for (int k = 0; k < 3; k++)
            out[k] += (eye[k] - out[k]) * 0.25f;
    if (point_contents(r, out) == BSP_CONTENTS_SOLID)
        memcpy(out, eye, sizeof(vec3_t));
}

// commit 0 (r_camera_pose): the place at t without moving the camera's lag state; at the time last
// drawn, a lagging camera is where it was drawn.
static void chase(renderer_t *r, const world_t *w, double t, const vec3_t eye, const vec3_t eye_ang, vec3_t org,
                  vec3_t ang, int commit)
{
    // behind along the player's heading (level: the pitch left out), above along the world's up
    vec3_t flat = {0, eye_ang[1], eye_ang[2]}, f, rt, up;
    r_view_vectors(w, flat, f, rt, up);
    vec3_t want = {eye[0] - f[0] * CHASE_BACK, eye[1] - f[1] * CHASE_BACK, eye[2] - f[2] * CHASE_BACK};
    want[world_up_axis(w->game)] += CHASE_UP;   // Forsaken's up is its y
    vec3_t place;
    clip_to_level(r, eye, want, place);
    // while playing (frames a moment apart) the camera follows with a lag; a shot, a seek
    // or a jump in time puts it in place at once
    double dt = t - r->cam_prev_t;
    if (!commit && r->cam.smooth && r->chase_valid && r->cam_prev_t >= 0 && dt == 0) {
        memcpy(place, r->chase_org, sizeof(vec3_t));   // the place drawn at this time
    } else if (r->cam.smooth && r->chase_valid && r->cam_prev_t >= 0 && dt > 0 && dt < 0.25) {
        float k = 1.0f - expf(-CHASE_SPEED * (float)dt);
        vec3_t s;
        for (int i = 0; i < 3; i++)
            s[i] = r->chase_org[i] + (place[i] - r->chase_org[i]) * k;
        clip_to_level(r, eye, s, place);   // the lag must not carry it into a wall
    }
    if (commit) {
        memcpy(r->chase_org, place, sizeof(vec3_t));
        r->chase_valid = 1;
    }
    memcpy(org, place, sizeof(vec3_t));
    // looking the way the player looks (the same angles, in the game's own convention)
    memcpy(ang, eye_ang, sizeof(vec3_t));
}

// Catmull-Rom through p0..p3 at u (0..1 between p1 and p2).
static float catmull(float p0, float p1, float p2, float p3, float u)
{
    return 0.5f * (2 * p1 + (-p0 + p2) * u + (2 * p0 - 5 * p1 + 4 * p2 - p3) * u * u + (-p0 + 3 * p1 - 3 * p2 + p3) * u * u * u);
}

static void path(const r_camera_t *c, double t, vec3_t org, vec3_t ang, float *fov)
{
    int n = c->num_keys;
    const r_cam_key_t *k = c->keys;
    int i = 0;
    if (t <= k[0].t)
        i = 0;
    else if (t >= k[n - 1].t)
        i = n - 1;
    else
        while (i + 1 < n && k[i + 1].t <= t)
            i++;
    if (i >= n - 1 || n == 1 || t <= k[0].t) {
        const r_cam_key_t *e = t <= k[0].t ? &k[0] : &k[n - 1];
        memcpy(org, e->origin, sizeof(vec3_t));
        memcpy(ang, e->angles, sizeof(vec3_t));
        if (e->fov > 0)
            *fov = e->fov;
        return;
    }
    const r_cam_key_t *a = &k[i > 0 ? i - 1 : i], *b = &k[i], *c2 = &k[i + 1], *d = &k[i + 2 < n ? i + 2 : i + 1];
    double span = c2->t - b->t;
    float u = span > 0 ? (float)((t - b->t) / span) : 0;
    for (int j = 0; j < 3; j++) {
        org[j] = catmull(a->origin[j], b->origin[j], c2->origin[j], d->origin[j], u);
        // angles: each key unwrapped to the nearest turn of the one before it
        float p1 = b->angles[j];
        float p0 = p1 + angle_mod(a->angles[j] - p1 + 180) - 180;
        float p2 = p1 + angle_mod(c2->angles[j] - p1 + 180) - 180;
        float p3 = p2 + angle_mod(d->angles[j] - p2 + 180) - 180;
        ang[j] = catmull(p0, p1, p2, p3, u);
    }
    if (b->fov > 0 && c2->fov > 0)
        *fov = b->fov + (c2->fov - b->fov) * u;
}

void r_camera_apply(renderer_t *r, const world_t *w, double t, double frac, vec3_t org, vec3_t ang, float *fov,
                    int commit)
{
    // commit 0: only the pose (r_camera_pose); the frame's view, state and HUD stay as drawn
    r_cam_state_t st_probe, *st = commit ? &r->cam_state : &st_probe;
    int detached = 0, hide_entity = 0;
    st->player = -1;
    st->recorder = 0;
    r_camera_t *c = &r->cam;
    int slot = -1, ent = 0;
    vec3_t eye, eye_ang;
    switch (c->mode) {
    case R_CAM_FREE:
        if (!c->pose_set) {   // it starts where the eyes are
            memcpy(c->origin, org, sizeof(vec3_t));
            memcpy(c->angles, ang, sizeof(vec3_t));
            c->angles[2] = 0;
            c->pose_set = 1;
        }
        memcpy(org, c->origin, sizeof(vec3_t));
        memcpy(ang, c->angles, sizeof(vec3_t));
        if (c->fov > 0)
            *fov = c->fov;
        detached = 1;
        break;
    case R_CAM_FOLLOW:
        slot = target_slot(r, w);
        if (slot >= 0 && slot == r->pov_slot) {
            st->player = slot;   // the frame's view is theirs (r_camera_view): their eyes as drawn
            break;
        }
        st->recorder = slot >= 0 && is_recorder(w, slot);
        if (st->recorder || slot < 0 || !player_eye(w, slot, frac, eye, eye_ang, &ent))
            break;   // the recording player, or the player is not in the frame: the eyes
        memcpy(org, eye, sizeof(vec3_t));
        memcpy(ang, eye_ang, sizeof(vec3_t));
        detached = 1;
        hide_entity = ent;
        st->player = slot;
        break;
    case R_CAM_CHASE:
        slot = target_slot(r, w);
        if (slot >= 0 && !is_recorder(w, slot) && player_eye(w, slot, frac, eye, eye_ang, &ent)) {
            pov_eye(w, slot, frac, eye, eye_ang);   // their own eye and angles, when the demo has them
            st->player = slot;
        } else {   // the recording player: from the eyes computed
            st->recorder = slot >= 0 && is_recorder(w, slot);
            memcpy(eye, org, sizeof(vec3_t));
            memcpy(eye_ang, ang, sizeof(vec3_t));
        }
        chase(r, w, t, eye, eye_ang, org, ang, commit);
        detached = 1;
        break;
    case R_CAM_PATH:
        if (c->num_keys > 0) {
            path(c, t, org, ang, fov);
            detached = 1;
        }
        break;
    case R_CAM_EYES:
    default:
        // a recording without a player (Quake II's server-side demos): the first player's eyes
        if (!w->view.origin_valid && w->view.entity <= 0)
            for (int i = 0; i < WORLD_MAX_PLAYERS; i++)
                if (w->players[i].active && player_eye(w, i, frac, eye, eye_ang, &ent)) {
                    memcpy(org, eye, sizeof(vec3_t));
                    memcpy(ang, eye_ang, sizeof(vec3_t));
                    detached = 1;
                    hide_entity = ent;
                    st->player = i;
                    break;
                }
        break;
    }
    // the body the eyes are: the followed player's entity, the recording player's (-1), or none
    int own = st->player >= 0 && (c->mode == R_CAM_FOLLOW || c->mode == R_CAM_EYES);
    r->cam_body = own ? w->players[st->player].entity : detached ? 0 : -1;
    if (!commit)
        return;
    r_view_t *v = &r->view;
    v->detached = detached;
    v->hide_entity = hide_entity;
    r->cam_prev_t = t;
    memcpy(st->origin, org, sizeof(vec3_t));
    memcpy(st->angles, ang, sizeof(vec3_t));
    st->fov = *fov;
    st->contents = point_contents(r, org);
    r_2d_set_hud(r->r2d, !v->detached);
    // following a player's eyes: a HUD that can show any player's numbers shows theirs
    r_2d_set_pilot(r->r2d, c->mode == R_CAM_FOLLOW ? st->player : -1);
}
