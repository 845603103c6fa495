// r_studio.h -- GoldSrc studio models in the software renderer: load (level palette) and draw one entity
//
// r_models.c owns one r_studio_model_t per loaded studio model (kind RMOD_STUDIO):
// the model, its pose buffers and its transform scratch, all sized at load, so
// drawing allocates nothing.
#ifndef R_STUDIO_H
#define R_STUDIO_H

#include "../assets/studio.h"
#include "../engine/vfs.h"
#include "r_hllight.h"
#include "r_mlocal.h"

typedef struct r_studio_model_s {
    studio_t mdl;
    studio_pose_t pose;
    r_cvert_t *view;        // numverts: view-space positions
    d_vert_t *proj;         // numverts: projected (where view z >= R_NEAR_Z)
    float *nlight;          // numnorms: illumination 0..255 per normal (the engine's R_StudioLighting)
    float (*chrome)[2][3];  // numbones: the chrome s (right) and t (up) directions in model space
    uint8_t has_chrome;     // a texture is STUDIO_NF_CHROME: chrome directions are made per draw
    uint8_t flat;           // texel of the stand-in texture of models without textures
    int32_t *vert_norm;     // numverts: the first normal a vertex is drawn with (the glow shell's normal)
    // Player colours (GoldSrc's DM_Base / remap textures, studio_remap_ranges): the level palette's
    // search (NULL: the model has no such texture), the texels of those textures together, and per
    // player the remapped copies (r_studio_remap), made when first asked for
    pal_near_t *remap_near;
    uint8_t *remap_palette;           // the level's (768 bytes, in remap_near's block)
    size_t remap_texels;
    struct r_studio_remap_s *remap;   // WORLD_MAX_PLAYERS slots, NULL until one is asked for
} r_studio_model_t;

// The textures of sm with player `player`'s colours top and bottom (0..360, userinfo topcolor /
// bottomcolor): per texture index, the remapped pixels for a remap texture and NULL for the others;
// NULL when sm has none (or player is out of range). Made when the player's colours change (the
// model keeps one copy a player; allocated the first time only), so a frame allocates nothing.
const uint8_t *const *r_studio_remap(r_studio_model_t *sm, int player, int top, int bottom);

// Load a studio model (bytes start with "IDST"); companion files come from fs.
// Returns NULL with a message in err.
r_studio_model_t *r_studio_load(const uint8_t *bytes, size_t size, const char *name, vfs_t *fs,
                                const uint8_t *palette, char *err, size_t errcap);
void r_studio_free(r_studio_model_t *sm);

// What to draw: a posed studio model at a place, with its light.
typedef struct {
    int seq, body, skin;
    float frame;               // in the sequence's frames (studio_frame)
    float blend[2];            // 0..255, as entity_state_t.blending
    const uint8_t *ctl;        // controllers 0..3 and the mouth (5 bytes), NULL: the model's resting settings
    int gaitseq;               // players: the legs' sequence (0 none) at gaitframe
    float gaitframe;
    vec3_t origin, angles;     // entity angles, as the game sends them
    const vec3_t *axes;        // if set: forward, right, up used instead of angles (view model)
    float scale;               // 0 = 1
    float stretch_y;           // kRenderFxExplode (r_hl_explode_stretch): the model's y axis x (1 + this), -1..1
    int fx_jitter;             // kRenderFxDistort / Hologram's jitter this frame (r_hl_fx_jitter): the world
    float fx_scale[3];         // axes' components of the model's axes scaled by fx_scale, its origin moved
    vec3_t fx_move;            // by fx_move
    vec3_t jit_axes[3];        // (scratch: the jittered axes, r_studio.c)
    const uint8_t *colormap;
    r_hl_alight_t light;       // the engine's model light (r_hllight.h: r_hl_model_light)
    const uint8_t *mode_table; // GoldSrc render mode's table (r_hl_studio_blend), NULL = opaque
    const uint8_t *const *remap; // per texture index: pixels drawn instead of its own (r_studio_remap), or NULL
} r_studio_job_t;

void r_studio_draw(const r_view_t *v, r_studio_model_t *sm, const r_studio_job_t *job);
// kRenderFxGlowShell's second pass (after r_studio_draw of the same job): the model again, every
// vertex pushed out along its normal by amount x 0.05 units, textured by chrome coordinates whose
// origin circles at r_glowshellfreq (2.2) about the model, in `rgb` (0 0 0: white), added through
// the level's additive table. Draws nothing without v->hlmodes.
void r_studio_draw_shell(const r_view_t *v, r_studio_model_t *sm, const r_studio_job_t *job, const uint8_t rgb[3],
                         int amount, double time);
// The stand-in for sprites/shellchrome.spr (not in the data): its 64 x 64 intensities 0..15.
uint8_t r_studio_shell_texel(int s, int t);
// Attachment n of a job's pose in world space (as StudioCalcAttachments: muzzle flashes, beams); poses
// into sm's buffers. -1 (and the job's origin) when the model has no attachment n.
int r_studio_attachment(r_studio_model_t *sm, const r_studio_job_t *job, int n, vec3_t out);
// The chrome texel (s, t) of a model-space normal, for chrome directions made by r_studio_chrome_dirs
// from the bone's world position, the view origin and the view's right vector (the engine's
// SetupChrome: texels (n . right + 1) * 32 and (n . up + 1) * 32).
void r_studio_chrome_dirs(const float bone_world[3], const float vieworg[3], const float vright[3],
                          float right[3], float up[3]);
void r_studio_chrome_texel(const float normal[3], const float right[3], const float up[3], float *s, float *t);
// An entity: frame from the state's animtime on the game's clock `anim_clock`, lit by the engine's
// rules at its origin (r_hl_model_light; `light`, Quake's 0..255 scale, stands in for the world's
// light when the view has none, as in the model tests). The same for the view model and players.
// `entnum` is its entity number: the phase of its renderfx (CL_FxBlend: number x 363).
void r_studio_entity(const r_view_t *v, r_studio_model_t *sm, const vec3_t org, const vec3_t ang,
                     const entity_state_t *s, int entnum, double anim_clock, int light);
// Its attachment n in world space, posed as r_studio_entity would draw it.
int r_studio_entity_attachment(r_studio_model_t *sm, const vec3_t org, const vec3_t ang, const entity_state_t *s,
                               double anim_clock, int n, vec3_t out);
// The view model (weapon): sequence `seq` with body `body` started `elapsed` seconds ago, at the eye,
// turned with the view.
void r_studio_view_model(const r_view_t *v, r_studio_model_t *sm, int seq, int body, double elapsed, int light);
// Its attachment n (0: the muzzle) in world space, posed as r_studio_view_model draws it; -1 when none.
int r_studio_view_attachment(const r_view_t *v, r_studio_model_t *sm, int seq, int body, double elapsed, int n,
                             vec3_t out);
// The same from an eye at `org` looking along axes[0] (forward), axes[1] (right), axes[2] (up).
int r_studio_view_attachment_at(r_studio_model_t *sm, const vec3_t org, const vec3_t axes[3], int seq, int body,
                                double elapsed, int n, vec3_t out);

// ---- players (GoldSrc clients): their own models and their legs ----------------------------------

// The player renderer's state of one player's legs.
typedef struct {
    float gaityaw;             // where the legs face (degrees)
    float gaitframe;           // in the gait sequence's frames
    double last_time;          // drawing time of the last step
    uint8_t valid;
} r_studio_gait_t;

// One step of StudioEstimateGait + StudioProcessGait for a player whose body faces `yaw` and moves
// at `vel` (units/s) over dt seconds: turns the legs (g->gaityaw), advances g->gaitframe in gait
// sequence `gaitseq`, and gives the torso's turn against the legs (degrees, -120..120).
float r_studio_gait_step(r_studio_gait_t *g, const studio_t *m, int gaitseq, float yaw, const float vel[3], float dt);
// StudioPlayerBlend: the blend (0..255) of sequence `seq` for a player's pitch; *pitch keeps what
// the blend cannot show (0 inside the sequence's range).
int r_studio_player_blend(const studio_t *m, int seq, float *pitch);

typedef struct r_studio_players_s r_studio_players_t;
r_studio_players_t *r_studio_players_create(void);
void r_studio_players_free(r_studio_players_t *ps);
// After each server frame: players whose `model` userinfo (world_player_t.skin) changed get
// models/player/NAME/NAME.mdl (allocation only then); a new level forgets them all. Each player's
// top / bottom colours are kept for the draws (r_studio_remap).
void r_studio_players_update(r_studio_players_t *ps, const world_t *w, vfs_t *fs, const uint8_t *palette);
// Draw player `player` (0-based client number, entity player + 1): its own model when it has one,
// else `fallback`, legs by its gait sequence and velocity, torso by the controllers, aim by the
// blend; its render mode and fx as any entity's (phase: its entity number); its model's remap
// textures in its top / bottom colours (StudioDrawPlayer's StudioSetRemapColors).
void r_studio_player(const r_view_t *v, r_studio_players_t *ps, int player, r_studio_model_t *fallback,
                     const vec3_t org, const vec3_t ang, const entity_state_t *s, const vec3_t vel,
                     double anim_clock, int light);

// kRenderFxDeadPlayer's body (r_hl_dead_player gives `player`, 0-based here): drawn as player
// `player` is (its own model when it has one, else `fallback`: the player entity's model) at the body's
// place, angles, sequence and frame, the torso straight (controllers 127), no gait, in that player's
// colours; the body's render mode and fx by its own entity number `entnum`.
void r_studio_dead_player(const r_view_t *v, r_studio_players_t *ps, int player, r_studio_model_t *fallback,
                          const vec3_t org, const vec3_t ang, const entity_state_t *s, int entnum,
                          double anim_clock, int light);

#endif
