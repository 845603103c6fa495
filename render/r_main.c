// r_main.c -- the frame driver: renderer life cycle, level loading, view setup, the order of drawing, output
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

#include "r_hldecal.h"
#include "../engine/hltent.h"
#include "r_local.h"
#include "r_hllight.h"
#include "../engine/log.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

renderer_t *r_create(int width, int height)
{
    if (width < 16 || height < 16 || width > R_MAX_WIDTH || height > R_MAX_HEIGHT)
        return NULL;
    renderer_t *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->width = width;
    r->height = height;
    size_t px = (size_t)width * (size_t)height;
    r->buffer = calloc(px, 1);
    r->zbuffer = calloc(px, sizeof(float));
    r->free = calloc((size_t)height * R_ROW_FREE_MAX, sizeof(r_free_t));
    r->free_count = calloc((size_t)height, 1);
    r->edge_a = calloc((size_t)height + 1, sizeof(int));
    r->edge_b = calloc((size_t)height + 1, sizeof(int));
    // Surface cache: Quake sized it by screen pixels too; this holds a whole
    // frame's surfaces at every size we allow, so a frame never rebuilds twice.
    r->cache_size = (size_t)2 * 1024 * 1024 + px * 24;
    r->cache = malloc(r->cache_size);
    r->warp_buf = malloc(px);
    r->warp_col = calloc((size_t)height, sizeof(int));
    r->warp_row = calloc((size_t)width, sizeof(int));
    r->models = r_models_create();
    r->fsent = r_fsent_create();
    r->r2d = r_2d_create();
    r->hltent = hltent_create();
    if (!r->buffer || !r->zbuffer || !r->free || !r->free_count || !r->edge_a || !r->edge_b || !r->cache || !r->warp_buf || !r->warp_col || !r->warp_row ||
        !r->models || !r->fsent || !r->r2d || !r->hltent) {
        r_destroy(r);
        return NULL;
    }
    pal_load(&r->pal, NULL, GAME_QUAKE, NULL, 0);
    memcpy(r->shown_palette, r->pal.palette, 768);
    for (int i = 0; i < 128; i++)
        r->turbsin[i] = (int)(8 * 65536 * (1 + sin(i * 2 * M_PI / 128)));
    r->sky_texture = -1;
    r->framecount = 1;
    r->dmg_time = -1;
    r->cam_prev_t = -1;
    r->pov_slot = -1;
    return r;
}

void r_destroy(renderer_t *r)
{
    if (!r)
        return;
    r_bands_free(r);
    r_ext_models_free(r);
    r_hldecal_free(r);
    hltent_free(r->hltent);
    bsp_free(r->bsp);
    r_fsworld_free(r->fsworld);
    r_fsent_destroy(r->fsent);
    r_skybox_free(r);
    free(r->faces);
    free(r->trans_faces);
    free(r->hl);
    r_hllight_free(r->hllight);
    free(r->node_visframe);
    free(r->leaf_visframe);
    free(r->pvs);
    free(r->buffer);
    free(r->zbuffer);
    free(r->free);
    free(r->free_count);
    free(r->edge_a);
    free(r->edge_b);
    free(r->cache);
    free(r->warp_buf);
    free(r->warp_col);
    free(r->warp_row);
    r_models_destroy(r->models);
    r_2d_destroy(r->r2d);
    free(r);
}

// Quake II's software renderer (Yamagi's, the reference) sends its palette through
// 255 * ((i + 0.5) / 255.5)^g + 0.5 with g = 2.1 - vid_gamma: at vid_gamma 1 that is
// 1.1, every colour a little darker (the mid greys by 4-6 %). Quake's renderer and
// the others show their palette as it is.
static void set_gamma(renderer_t *r, double g)
{
    r->gamma_on = g != 1.0;
    for (int i = 0; i < 256; i++) {
        int v = r->gamma_on ? (int)(255.0 * pow((i + 0.5) / 255.5, (double)(float)g) + 0.5) : i;
        r->gamma[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

static uint8_t *vfs_file(void *ctx, const char *path, size_t *size) { return vfs_load(ctx, path, size); }

void r_set_quiet(renderer_t *r, int on) { r->quiet = on != 0; }
int r_quiet(const renderer_t *r) { return r && r->quiet; }

static int load_level(renderer_t *r, vfs_t *fs, const world_t *w, char *err, size_t errcap);
static void frame(renderer_t *r, const world_t *w);

int r_load_level(renderer_t *r, vfs_t *fs, const world_t *w, char *err, size_t errcap)
{
    int was = r->quiet ? log_mute_thread(1) : 0;
    r_bands_load_start(r, fs, w);   // the other bands' renderers hold the level too, loaded meanwhile
    int rc = load_level(r, fs, w, err, errcap);
    r_bands_load_finish(r);
    if (r->quiet)
        log_mute_thread(was);
    return rc;
}

void r_frame(renderer_t *r, const world_t *w)
{
    int was = r->quiet ? log_mute_thread(1) : 0;
    frame(r, w);
    if (r->quiet)
        log_mute_thread(was);
}

static int load_level(renderer_t *r, vfs_t *fs, const world_t *w, char *err, size_t errcap)
{
    int rc = 0;
    char perr[256] = "";
    if (err && errcap)
        err[0] = 0;
    if (pal_load(&r->pal, fs, w->game, perr, sizeof perr) < 0 && err && errcap) {
        snprintf(err, errcap, "%s", perr);
        rc = -1;
    }
    memcpy(r->shown_palette, r->pal.palette, 768);
    set_gamma(r, w->game == GAME_QUAKE2 ? 2.1 - 1.0 : 1.0);
    bsp_free(r->bsp);
    r->bsp = NULL;
    r_fsworld_free(r->fsworld);
    r->fsworld = w->game == GAME_FORSAKEN ? r_fsworld_load(fs, w->map, err, errcap) : NULL;
    if (r->fsworld) {
        pal_set(&r->pal, r_fsworld_palette(r->fsworld), 256);
        memcpy(r->shown_palette, r->pal.palette, 768);
    }
    snprintf(r->map, sizeof r->map, "%s", w->map);
    if (w->game == GAME_FORSAKEN)
        rc = r->fsworld ? 0 : -1;   // the level brings its own palette
    else if (w->map[0]) {
        size_t size = 0;
        uint8_t *data = fs ? vfs_load(fs, w->map, &size) : NULL;
        char berr[512] = "";
        if (!data) {
            snprintf(berr, sizeof berr, "%s: not found in the game folders (%d searched)", w->map, fs ? vfs_count(fs) : 0);
        } else {
            asset_files_t files = { fs ? vfs_file : NULL, fs };
            r->bsp = bsp_load_files(data, size, w->map, &files, berr, sizeof berr);
            free(data);
        }
        if (!r->bsp) {
            if (err && errcap)
                snprintf(err, errcap, "%s", berr);
            rc = -1;
        }
    }
    if (r->hl)
        r->hl->ready = 0;
    if (r->bsp && r->bsp->has_palette) {
        pal_set(&r->pal, r->bsp->palette, 255);   // 255: '{' textures' see-through index, never lit
        memcpy(r->shown_palette, r->pal.palette, 768);
        // GoldSrc's render modes: blend tables from this palette, once a level
        if (!r->hl)
            r->hl = malloc(sizeof *r->hl);
        if (r->hl) {
            r_hl_build(r->hl, r->pal.palette);
            r_hl_shell_from(r->hl, fs);   // the glow shell's chrome sprite, when the game has it
            log_info("%s: render-mode tables (%d alpha, %d additive levels) built in %.1f ms", w->map,
                     HL_ALPHA_LEVELS, HL_ADD_LEVELS, r->hl->build_ms);
        }
        if (!r->hllight)   // the coloured light's tables (r_hllight.c)
            r->hllight = r_hllight_create();
        if (r->hllight && r->hl) {
            r_hllight_build(r->hllight, r->pal.palette, r->hl->inv);
            log_info("%s: coloured light tables built in %.1f ms", w->map, r_hllight_build_ms(r->hllight));
        }
    }
    r_world_setup(r);
    r_hldecal_load_level(r, fs, w);   // GoldSrc's decals (needs the faces and blend tables)
    r_ext_models_load(r, fs, w);
    r_skybox_load(r, fs);
    if (w->map[0] && !r->bsp && !r->fsworld && rc == 0) {
        if (err && errcap)
            snprintf(err, errcap, "%s: out of memory", w->map);
        rc = -1;
    }
    r_models_load_level(r->models, fs, w, r->pal.palette);
    // Forsaken's ships, pickups and shots (r_fsent.c): models found in Data as they are needed
    asset_files_t fsfiles = { fs ? vfs_file : NULL, fs };
    r_fsent_load(r->fsent, r->fsworld ? &fsfiles : NULL, r->pal.palette, r_fsworld_mesh(r->fsworld));
    r_2d_load(r->r2d, fs, w, r->pal.palette);
    return rc;
}

// Quake's V_ParseDamage kick: the view rolls and pitches away from where the
// hit came from, by count x 0.6 (v_kickroll, v_kickpitch) along the view's right
// and forward, count = (blood + armor) / 2, at least 10.
static void damage_kick(renderer_t *r, const world_t *w, const world_damage_event_t *dmg)
{
    const world_view_t *v = &w->view;
    if (v->entity <= 0 || v->entity >= w->num_entities || !w->entities)
        return;
    const world_entity_t *e = &w->entities[v->entity];
    float count = dmg->blood * 0.5f + dmg->armor * 0.5f;
    if (count < 10)
        count = 10;
    // the player's origin and angles as the client last placed them (before this frame)
    vec3_t from, ang = { -v->prev_angles[0], v->prev_angles[1], 0 }, fwd, rt, up;
    for (int k = 0; k < 3; k++)
        from[k] = dmg->from[k] - e->prev.origin[k];
    float len = sqrtf(from[0] * from[0] + from[1] * from[1] + from[2] * from[2]);
    if (len > 0)
        for (int k = 0; k < 3; k++)
            from[k] /= len;
    r_angle_vectors(ang, fwd, rt, up);
    r->dmg_roll = count * (from[0] * rt[0] + from[1] * rt[1] + from[2] * rt[2]) * 0.6f;
    r->dmg_pitch = count * (from[0] * fwd[0] + from[1] * fwd[1] + from[2] * fwd[2]) * 0.6f;
    r->dmg_time = w->time;
}

// V_CalcRefdef's stair smoothing, once a server frame (the reference's timedemo
// renders once a block): on the ground and higher than before, the eye's height
// rises 80 units a second (frame time = the block's step) and never lags more
// than 12; anything else (falling, in the air) snaps it to the entity.
static void step_smoothing(renderer_t *r, const world_t *w)
{
    const world_view_t *v = &w->view;
    if (w->game != GAME_QUAKE || v->entity <= 0 || v->entity >= w->num_entities || !w->entities)
        return;
    float z = w->entities[v->entity].cur.origin[2];
    double dt = w->time - w->prev_time;
    if (dt < 0)
        dt = 0;
    if (r->step_valid && v->onground && z - r->step_oldz > 0) {
        r->step_oldz += (float)(dt * 80);
        if (r->step_oldz > z)
            r->step_oldz = z;
        if (z - r->step_oldz > 12)
            r->step_oldz = z - 12;
    } else {
        r->step_oldz = z;
    }
    r->step_valid = 1;
}

// Quake II's stair smoothing, as Yamagi's client does it in a demo (the player
// is frozen there, so the predicted origin is the frame's): when the origin is
// 8, 12 or 16 units (+- 1/8) above the previous frame's, on the ground and
// moving, the eye is lowered by that step and comes back up linearly over 100 ms
// of the client's clock (CL_PredictMovement, CL_CalcViewValues). Watching a demo,
// that clock is the demo's, and so it is here for every command: a timedemo's
// clock runs at however fast the machine draws, which a picture of a moment should
// not depend on (the Quake II references were drawn that way: docs/quake2.md).
static void q2_step_frame(renderer_t *r, const world_t *w, const world_view_t *v)
{
    if (w->game != GAME_QUAKE2 || !v->origin_valid)
        return;
    float z = v->origin[2] - v->ofs[2];
    if (r->q2_oldz_valid) {
        float d = (z - r->q2_oldz) * 8;
        int moving = v->velocity[0] != 0 || v->velocity[1] != 0 || v->velocity[2] != 0;
        int step = (d > 62 && d < 66) || (d > 94 && d < 98) || (d > 126 && d < 130);
        if (step && moving && v->onground) {
            r->q2_step = roundf(d) / 8;
            r->q2_step_time = w->prev_time;
        }
    }
    r->q2_oldz = z;
    r->q2_oldz_valid = 1;
}

// How far below the player's eye Quake II draws the view at demo time t.
static float q2_step_lag(const renderer_t *r, double t)
{
    if (r->q2_step <= 0)
        return 0;
    double ms = (t - r->q2_step_time) * 1000;
    if (ms < 0 || ms >= 100)
        return 0;
    return r->q2_step * (float)(100 - ms) / 100;
}

int r_sounds(const renderer_t *r, r_sound_t *out, int max)
{
    return r ? r_fsent_sounds(r->fsent, out, max) : 0;
}

int r_loops(const renderer_t *r, r_loop_t *out, int max)
{
    return r ? r_fsent_loops(r->fsent, out, max) : 0;
}

float r_mesh_wall(const renderer_t *r, const float org[3], const float dir[3], float max)
{
    return r->fsworld ? r_fsent_first_wall(r->fsent, org, dir, max) : max;
}

int r_game_sounds(world_game_t game)
{
    return game == GAME_FORSAKEN;   // r_fsent's weapons, explosions, deaths and mines
}

static void frame(renderer_t *r, const world_t *w)
{
    if (r_bands_count(r) > 1) {   // every band's renderer takes every frame (its warnings said once)
        int was = log_mute_thread(1);
        for (int i = 1; i < r_bands_count(r); i++)
            r_frame(r_bands_get(r, i), w);
        log_mute_thread(was);
    }
    // the view the frames are drawn from (the followed player's own, when the demo has it);
    // a change of whose view it is starts its stair smoothing anew
    int was = r->pov_slot;
    const world_view_t *shown = r_camera_view(r, w);
    if (r->pov_slot != was)
        r->q2_oldz_valid = 0, r->q2_step = 0;
    r->view.shown = shown;
    r_2d_set_view(r->r2d, shown);
    r_models_set_bsp(r->models, r->bsp);   // TE_FIZZ fills a brush model (r_hlfx.c)
    r_models_frame(r->models, w, shown);
    r_fsent_set_view(r->fsent, shown);   // its sounds' loudness heard from the view drawn
    // a game whose rules decide the sounds' loudness here hears them from the picture's camera, when
    // it is not the view drawn (the eyes, or a followed player's own: r_fsent_set_view above)
    if (r_game_sounds(w->game)) {
        float eye[3], f[3], u[3];
        int placed = r->cam.mode != R_CAM_FREE || r->cam.pose_set;   // a free camera starts where it is first drawn
        int away = r->cam.mode != R_CAM_EYES && placed && r_camera_pose(r, w, w->time, eye, f, u, NULL) == 0;
        r_fsent_hear_from(r->fsent, away ? eye : NULL);
    }
    r_fsent_frame(r->fsent, w);
    r_fsent_set_view(r->fsent, NULL);
    r_2d_frame(r->r2d, w);
    step_smoothing(r, w);
    q2_step_frame(r, w, shown);
    if (w->game == GAME_QUAKE)
        for (int i = 0; i < w->num_events; i++)
            if (w->events[i].type == EV_DAMAGE)
                damage_kick(r, w, &w->events[i].u.damage);
    if (w->game == GAME_GOLDSRC) {
        r_hldecal_frame(r, w);
        hltent_frame(r->hltent, r->bsp, w);   // temp models from the same log
    }
}

void r_clear_transients(renderer_t *r, int from_start)
{
    for (int i = 1; i < r_bands_count(r); i++)
        r_clear_transients(r_bands_get(r, i), from_start);
    r->dmg_time = -1;
    r->step_valid = 0;
    r->q2_oldz_valid = 0;
    r->q2_step = 0;
    r_models_clear(r->models);
    r_fsent_clear(r->fsent);
    r_2d_clear(r->r2d, from_start);
    r_hldecal_clear(r, from_start);
    hltent_clear(r->hltent);
}

void r_set_notify(renderer_t *r, int on) { r_2d_set_notify(r->r2d, on); }
void r_show_scores(renderer_t *r, int on) { r_2d_show_scores(r->r2d, on); }
void r_set_fs_spotfx(renderer_t *r, int on) { r_fsent_set_spotfx(r->fsent, on); }

static float lerp_angle(float a, float b, float f)
{
    float d = b - a;
    d -= 360.0f * floorf((d + 180.0f) / 360.0f);
    return a + d * f;
}

// Quake's view bob (cl_bob 0.02, cl_bobcycle 0.6, cl_bobup 0.5) from the player's speed.
static float calc_bob(const world_t *w, double t)
{
    double cycle = fmod(t, 0.6) / 0.6;
    if (cycle < 0.5)
        cycle = M_PI * cycle / 0.5;
    else
        cycle = M_PI + M_PI * (cycle - 0.5) / 0.5;
    const float *v = w->view.velocity;
    double bob = sqrt(v[0] * v[0] + v[1] * v[1]) * 0.02;
    bob = bob * 0.3 + bob * 0.7 * sin(cycle);
    return (float)(bob > 4 ? 4 : bob < -7 ? -7 : bob);
}

// Quake's view roll (cl_rollangle 2 at cl_rollspeed 200) from sideways speed.
static float calc_roll(const world_t *w, const vec3_t right)
{
    float side = w->view.velocity[0] * right[0] + w->view.velocity[1] * right[1] + w->view.velocity[2] * right[2];
    float sign = side < 0 ? -1.0f : 1.0f;
    side = fabsf(side);
    side = side < 200 ? side * 2.0f / 200 : 2.0f;
    return side * sign;
}

// Quake II's turning sky (CS_SKYROTATE degrees a second about CS_SKYAXIS, the
// GL renderer's rule: the box turned by t x rate): a view direction meets the
// turned box where the unturned one is met by the direction turned back, so the
// view's axes are turned by -t x rate (Rodrigues) once a frame.
static void sky_axes(renderer_t *r, const world_t *w, double t)
{
    const float *ax = w->sky_axis;
    float len = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    memcpy(r->sky_vpn, r->vpn, sizeof(vec3_t));
    memcpy(r->sky_vright, r->vright, sizeof(vec3_t));
    memcpy(r->sky_vup, r->vup, sizeof(vec3_t));
    if (w->sky_rotate == 0 || !(len > 1e-6f))
        return;
    double ang = -fmod(t * w->sky_rotate, 360.0) * M_PI / 180;
    float c = (float)cos(ang), s = (float)sin(ang), u[3] = { ax[0] / len, ax[1] / len, ax[2] / len };
    float *vs[3] = { r->sky_vpn, r->sky_vright, r->sky_vup };
    for (int i = 0; i < 3; i++) {
        float *v = vs[i], o[3];
        float dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
        float cr[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
        for (int k = 0; k < 3; k++)
            o[k] = v[k] * c + cr[k] * s + u[k] * dot * (1 - c);
        memcpy(v, o, sizeof o);
    }
}

void r_view_vectors(const world_t *w, const float ang[3], float f[3], float rt[3], float up[3])
{
    // a Forsaken view turns by its own convention (r_fsworld.h); the others by Quake's
    (w->game == GAME_FORSAKEN ? r_fs_angle_vectors : r_angle_vectors)(ang, f, rt, up);
}

// Where the view is: the recording player's eyes by the game's rules, then the camera
// asked for (r_camera.c) in their place.
// commit 0 (r_camera_pose): the pose only; what the frame keeps of it (the base angles and bob the
// gun is drawn with, the camera's state and lag) is left as drawn.
static void view_pose(renderer_t *r, const world_t *w, double t, double frac, vec3_t org, vec3_t ang, float *fov_out,
                      int commit)
{
    r_view_t *v = &r->view;
    const world_view_t *wv = v->shown;
    float bob_out = 0;
    memset(org, 0, sizeof(vec3_t));
    for (int k = 0; k < 3; k++)
        ang[k] = lerp_angle(wv->prev_angles[k], wv->angles[k], (float)frac);
    int bobbing = 0;
    if (wv->origin_valid) {
        for (int k = 0; k < 3; k++)
            org[k] = wv->prev_origin[k] + (wv->origin[k] - wv->prev_origin[k]) * (float)frac;
        // Quake II's client shows a step the frame's height less the step's lag (not the
        // blend between the frames, which would count the step twice); at ten frames a
        // second the two agree, with slower frames the eye is up after 100 ms
        float lag = w->game == GAME_QUAKE2 ? q2_step_lag(r, t) : 0;
        if (lag > 0)
            org[2] = wv->origin[2] - lag;
        else if (w->game == GAME_QUAKE2 && r->q2_step > 0 && r->q2_step_time == w->prev_time)
            org[2] = wv->origin[2];   // this frame's step is done: the frame's height
    } else if (wv->entity > 0 && wv->entity < w->num_entities && w->entities) {
        const world_entity_t *e = &w->entities[wv->entity];
        float f = e->lerp_ok ? (float)frac : 1.0f;
        for (int k = 0; k < 3; k++)
            org[k] = e->prev.origin[k] + (e->cur.origin[k] - e->prev.origin[k]) * f;
        // Intermission, finale and cutscene: Quake looks from the view entity
        // with that entity's own angles (the camera the level moves), not the
        // client's (V_CalcIntermissionRefdef); no view height, bob or kick.
        // The camera always sways there (v_idlescale 1: roll 0.1 degrees at 0.5
        // rad/s, pitch 0.3 at 1, yaw 0.3 at 2).
        if (wv->intermission && w->game == GAME_QUAKE) {
            for (int k = 0; k < 3; k++)
                ang[k] = lerp_angle(e->prev.angles[k], e->cur.angles[k], f);
            ang[2] += (float)(0.1 * sin(t * 0.5));
            ang[0] += (float)(0.3 * sin(t * 1.0));
            ang[1] += (float)(0.3 * sin(t * 2.0));
        }
        if (!wv->intermission && w->game != GAME_FORSAKEN) {   // a Forsaken ship's eye is its centre
            int zero = wv->ofs[0] == 0 && wv->ofs[1] == 0 && wv->ofs[2] == 0;
            for (int k = 0; k < 3; k++)
                org[k] += zero ? (k == 2 ? 22.0f : 0.0f) : wv->ofs[k];
            bobbing = w->game == GAME_QUAKE;
            // Quake keeps the eye off node planes (a water surface seen exactly
            // edge-on vanishes): 1/32 unit added on each axis.
            if (bobbing)
                for (int k = 0; k < 3; k++)
                    org[k] += 1.0f / 32;
        }
    }
    if (commit)
        memcpy(v->base_angles, ang, sizeof(vec3_t));
    if (bobbing) {
        vec3_t f, rt, up;
        r_angle_vectors(ang, f, rt, up);
        bob_out = calc_bob(w, t);
        org[2] += bob_out;
        if (r->step_valid)   // stair smoothing: the eye lags a step up (the gun follows the eye)
            org[2] += r->step_oldz - w->entities[wv->entity].cur.origin[2];
        ang[2] += calc_roll(w, rt);
        // the damage kick fades linearly over v_kicktime 0.5 s of demo time
        double kt = r->dmg_time >= 0 ? 0.5 - (t - r->dmg_time) : 0;
        if (kt > 0 && kt <= 0.5) {
            ang[2] += (float)(kt / 0.5) * r->dmg_roll;
            ang[0] += (float)(kt / 0.5) * r->dmg_pitch;
        }
        if (wv->stats[STAT_HEALTH] <= 0 && w->seq > 1)
            ang[2] = 80;   // dead: Quake lays the view on its side
    }
    // Quake II's client adds the kick whatever the player's pm_type (a frozen
    // player, as in opentdm's timeouts, keeps the kick it had)
    if (!wv->intermission || w->game == GAME_QUAKE2)
        for (int k = 0; k < 3; k++)
            // Quake II's client blends the kick from the last frame's (CL_CalcViewValues);
            // Quake's punch is the frame's, as it came
            ang[k] += w->game == GAME_QUAKE2 ? lerp_angle(wv->prev_punch[k], wv->punch[k], (float)frac) : wv->punch[k];
    // Quake II's client keeps the eye off node planes the same way (V_RenderView):
    // 1/16 unit on each axis, half the protocol's step
    if (w->game == GAME_QUAKE2)
        for (int k = 0; k < 3; k++)
            org[k] += 1.0f / 16;
    float fov = wv->fov > 1 && wv->fov < 179 ? wv->fov : 90.0f;
    if (commit)
        v->bob = bob_out;
    r_camera_apply(r, w, t, frac, org, ang, &fov, commit);   // another camera than the eyes (r_camera.c)
    *fov_out = fov > 1 && fov < 179 ? fov : 90.0f;
}

int r_camera_pose(renderer_t *r, const world_t *w, double t, float origin[3], float forward[3], float up[3],
                  int *body)
{
    if (!r || !w)
        return -1;
    // the view the frame is drawn from, as r_render_setup takes it; what the renderer shows is kept
    const world_view_t *was_shown = r->view.shown;
    int was_pov = r->pov_slot;
    r->view.shown = r_camera_view(r, w);
    vec3_t org, ang, rt;
    float fov;
    view_pose(r, w, t, world_frac(w, t), org, ang, &fov, 0);
    r->view.shown = was_shown;
    r->pov_slot = was_pov;
    memcpy(origin, org, sizeof(vec3_t));
    r_view_vectors(w, ang, forward, rt, up);
    if (body)
        *body = r->cam_body;
    return 0;
}

static void setup_view(renderer_t *r, const world_t *w, double t, const vec3_t org, const vec3_t ang, float fov)
{
    r_view_t *v = &r->view;
    memcpy(v->vieworg, org, sizeof(vec3_t));
    memcpy(v->viewangles, ang, sizeof(vec3_t));
    r_view_vectors(w, ang, v->vpn, v->vright, v->vup);

    // Field of view: `fov` is horizontal at 4:3; wider screens keep 4:3's
    // vertical angle. 320x200 and 640x400 are 4:3 screens with tall pixels, as
    // Quake showed them; the status bar only takes rows off the bottom.
    float pa = (r->width * 10 == r->height * 16 && r->width <= 640) ? 1.2f : 1.0f;
    double aspect = (double)r->width / ((double)r->height * pa);
    double tx = tan(fov * M_PI / 360);
    double ty43 = tx * 0.75;
    if (aspect >= 4.0 / 3.0)
        tx = ty43 * aspect;
    r->xscale = (float)(r->width / 2.0 / tx);
    r->yscale = r->xscale / pa;
    r->xcenter = r->vw / 2.0f;
    r->ycenter = r->vh / 2.0f;
    r->xc_pix = r->xcenter - 0.5f;
    r->yc_pix = r->ycenter - 0.5f;
    v->xcenter = r->xcenter;
    v->ycenter = r->ycenter;
    v->xscale = r->xscale;
    v->yscale = r->yscale;
    v->fov_x = (float)(2 * atan(r->vw / 2.0 / r->xscale) * 180 / M_PI);
    v->fov_y = (float)(2 * atan(r->vh / 2.0 / r->yscale) * 180 / M_PI);
    memcpy(r->vieworg, v->vieworg, sizeof(vec3_t));
    memcpy(r->vpn, v->vpn, sizeof(vec3_t));
    memcpy(r->vright, v->vright, sizeof(vec3_t));
    memcpy(r->vup, v->vup, sizeof(vec3_t));
    sky_axes(r, w, t);

    // Frustum planes through the eye and the screen edges, normals inward.
    float ws[4] = { r->xcenter, r->vw - r->xcenter, r->ycenter, r->vh - r->ycenter };
    for (int p = 0; p < 4; p++) {
        float *n = r->frustum_n[p];
        for (int k = 0; k < 3; k++) {
            float side = p == 0 ? r->xscale * r->vright[k] : p == 1 ? -r->xscale * r->vright[k]
                       : p == 2 ? -r->yscale * r->vup[k] : r->yscale * r->vup[k];
            n[k] = ws[p] * r->vpn[k] + side;
        }
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int k = 0; k < 3; k++)
            n[k] /= len;
        r->frustum_d[p] = n[0] * r->vieworg[0] + n[1] * r->vieworg[1] + n[2] * r->vieworg[2];
    }
}

// Under water, slime or lava the 3D view ripples: every row is shifted
// sideways and every column up or down by a sine wave that moves with time
// (Quake's amplitude of 3 pixels at 320 wide, scaled with the view).
static void warp_view(renderer_t *r, double t)
{
    int w = r->vw, h = r->vh;
    float amp = 3.0f * (float)w / 320.0f;
    if (amp < 1)
        amp = 1;
    double phase = t * 2.5 * M_PI;
    for (int y = 0; y < h; y++)
        r->warp_col[y] = (int)(amp * (1 + sin(phase + y * 2 * M_PI * 4 / h)));
    for (int x = 0; x < w; x++)
        r->warp_row[x] = (int)(amp * (1 + sin(phase + x * 2 * M_PI * 4 / w)));
    memcpy(r->warp_buf, r->buffer, (size_t)w * (size_t)h);
    for (int y = 0; y < h; y++) {
        uint8_t *dst = r->buffer + (size_t)y * (size_t)r->width;
        int xo = r->warp_col[y];
        for (int x = 0; x < w; x++) {
            int sx = x + xo, sy = y + r->warp_row[x];
            sx = sx < w ? sx : w - 1;
            sy = sy < h ? sy : h - 1;
            dst[x] = r->warp_buf[(size_t)sy * (size_t)r->width + (size_t)sx];
        }
    }
}

// The frame's set-up: time, view pose, status bar, projection, light styles. sbar < 0: the
// status bar's rows as the 2D layer says; else those (a band renderer takes the main one's).
// Returns the fraction between the world's last two frames.
double r_render_setup(renderer_t *r, const world_t *w, double t, int sbar)
{
    r_view_t *v = &r->view;
    double frac = world_frac(w, t);
    r->framecount++;
    r->time = t;
    double turb = t * 20;   // liquids ripple at Quake's speed (a damaged demo's absurd time: no ripple)
    r->turb_ofs = isfinite(turb) && fabs(turb) < 2e9 ? (int)turb & 127 : 0;
    r->stat_polys = r->stat_spans = r->stat_surfs_built = r->stat_brush_polys = 0;

    vec3_t org, ang;
    float fov;
    v->shown = r_camera_view(r, w);   // the recording player's view, or the followed player's own
    r_2d_set_view(r->r2d, v->shown);
    view_pose(r, w, t, frac, org, ang, &fov, 1);   // before the status bar: a camera away from the eyes has none
    if (sbar < 0)
        sbar = r_2d_sbar_lines(r->r2d, w, r->width, r->height);
    if (sbar < 0)
        sbar = 0;
    if (sbar > r->height - 16)
        sbar = r->height - 16;
    r->vw = r->width;
    r->vh = r->height - sbar;

    v->buffer = r->buffer;
    v->zbuffer = r->zbuffer;
    v->width = r->vw;
    v->height = r->vh;
    v->rowbytes = r->width;
    v->colormap = r->pal.colormap;
    v->palette = r->pal.palette;
    v->alphamap = r->pal.has_alphamap ? r->pal.alphamap : NULL;
    v->hlmodes = r->hl && r->hl->ready ? r->hl : NULL;
    v->fullbright_start = r->pal.fullbright_start;
    v->time = t;
    v->fx_since = t - w->prev_time;
    v->light_point = r_light_point;
    v->light_point_world = r_light_point_world;
    v->light_ctx = r;
    v->num_dlights = 0;
    setup_view(r, w, t, org, ang, fov);
    r_light_styles(r, w, t);
    r_models_lights(r->models, w, v);
    if (w->game == GAME_GOLDSRC)   // the temp models' lights (FTENT_FLICKER)
        r_models_hltent_lights(v, r->hltent, r->bsp);
    if (v->num_dlights > R_MAX_DLIGHTS)
        v->num_dlights = R_MAX_DLIGHTS;
    return frac;
}

// The 3D view, rows [zone->y0, zone->y1) only when zone is a band's (NULL: all of them).
void r_render_3d(renderer_t *r, const world_t *w, double frac, r_band_zone_t *zone)
{
    r_view_t *v = &r->view;
    v->zone = zone;
    v->y0 = zone ? zone->y0 : 0;
    v->y1 = zone ? zone->y1 : r->vh;
    r->view_contents = 0;
    r_draw_world(r, w);
    r_fsent_light_level(r->fsent, w, v->time, r->fsworld);   // Forsaken's moving lights on the level
    r_fsent_level_texanims(w, v->time, r->fsworld);          // and its trigger-started texture animations
    r->stat_polys += r_fsworld_draw(r->fsworld, v);
    int world_polys = r->stat_polys;
    r->stat_world_polys = world_polys;
    r_draw_brush_entities(r, w, frac);
    r->stat_brush_polys = r->stat_polys - world_polys;
    r_models_draw(r->models, w, v);
    if (w->game == GAME_GOLDSRC) {   // the temp models (engine/hltent.c), drawn with the level's models
        r_models_draw_hltent(r->models, w, v, r->hltent, r->bsp);
        r_hl_draw_translucent(r, w, frac);   // then every translucent entity, far to near
    }
    r_models_draw_fx(r->models, w, v);
    r->stat_polys += r_fsent_draw(r->fsent, w, v);
    r_draw_see_through(r, w, frac, w->game != GAME_GOLDSRC);   // GoldSrc's entities: sorted above
    v->zone = NULL;
    v->y0 = 0;
    v->y1 = r->vh;
}

// What reads the whole frame, after the 3D view: the underwater warp, the 2D layer, the blends.
void r_render_finish(renderer_t *r, const world_t *w, double t)
{
    r_view_t *v = &r->view;
    if (r->bsp && (r->view_contents == BSP_CONTENTS_WATER || r->view_contents == BSP_CONTENTS_SLIME ||
                   r->view_contents == BSP_CONTENTS_LAVA))
        warp_view(r, t);

    v->height = r->height;   // 2D covers the whole frame
    v->y1 = r->height;
    r_2d_draw(r->r2d, w, v);
    int contents = r->bsp ? r->view_contents : 0;
    if (contents == BSP_CONTENTS_EMPTY || contents == BSP_CONTENTS_SOLID || contents == BSP_CONTENTS_SKY)
        contents = 0;
    r_2d_blend(r->r2d, w, t, contents, r->pal.palette, r->shown_palette);
    if (r->gamma_on)
        for (int i = 0; i < 768; i++)
            r->shown_palette[i] = r->gamma[r->shown_palette[i]];
}

void r_render(renderer_t *r, const world_t *w, double t)
{
    if (r_bands_render(r, w, t))   // the view in screen bands on several threads (r_bands.c)
        return;
    double frac = r_render_setup(r, w, t, -1);
    r_render_3d(r, w, frac, NULL);
    r_render_finish(r, w, t);
}

const uint8_t *r_pixels(const renderer_t *r, int *width, int *height, int *pitch)
{
    *width = r->width;
    *height = r->height;
    *pitch = r->width;
    return r->buffer;
}

const uint8_t *r_palette(const renderer_t *r) { return r->shown_palette; }

void r_frame_rgb(const renderer_t *r, uint8_t *rgb)
{
    size_t n = (size_t)r->width * (size_t)r->height;
    const uint8_t *pal = r->shown_palette;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *c = pal + r->buffer[i] * 3;
        rgb[i * 3] = c[0];
        rgb[i * 3 + 1] = c[1];
        rgb[i * 3 + 2] = c[2];
    }
}

int r_write_png(const renderer_t *r, const char *path)
{
    uint8_t *rgb = malloc((size_t)r->width * (size_t)r->height * 3);
    if (!rgb)
        return -1;
    r_frame_rgb(r, rgb);
    int ok = stbi_write_png(path, r->width, r->height, 3, rgb, r->width * 3);
    free(rgb);
    return ok ? 0 : -1;
}

int r_world_polys(const renderer_t *r) { return r->stat_world_polys; }

double r_level_tables_ms(const renderer_t *r) { return r->hl && r->hl->ready ? r->hl->build_ms : -1.0; }
