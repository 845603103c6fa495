// r_hlmodes.h -- Half-Life's render modes (kRender*) and render fx (kRenderFx*) in 8 bits
//
// GoldSrc blends in true colour; here every blend is a 256 x 256 lookup table
// built from the level's palette when the level loads (table[src * 256 + dst]),
// one per mode and amount level, like Quake II's 33/66 % tables:
//
//     r_hl_build(&hl, level_palette);                  // once a level (timed: hl.build_ms)
//     int amt = r_hl_fx_amount(s, entnum, t, vieworg, vpn, origin);   // renderfx applied
//     const uint8_t *tab = r_hl_table(&hl, HL_BLEND_ADD, amt);        // NULL: opaque / not drawn
//
// Index 255 of the level palette is never produced (it is the '{' textures'
// see-through index).
#ifndef R_HLMODES_H
#define R_HLMODES_H

#include <stdint.h>

#include "../assets/spr.h"
#include "../engine/vfs.h"
#include "../engine/world.h"

// kRenderFx* (the SDK's const.h numbering)
enum {
    HL_FX_NONE = 0, HL_FX_PULSE_SLOW, HL_FX_PULSE_FAST, HL_FX_PULSE_SLOW_WIDE, HL_FX_PULSE_FAST_WIDE,
    HL_FX_FADE_SLOW, HL_FX_FADE_FAST, HL_FX_SOLID_SLOW, HL_FX_SOLID_FAST, HL_FX_STROBE_SLOW,
    HL_FX_STROBE_FAST, HL_FX_STROBE_FASTER, HL_FX_FLICKER_SLOW, HL_FX_FLICKER_FAST, HL_FX_NO_DISSIPATION,
    HL_FX_DISTORT, HL_FX_HOLOGRAM, HL_FX_DEAD_PLAYER, HL_FX_EXPLODE, HL_FX_GLOW_SHELL, HL_FX_CLAMP_MIN_SCALE
};

#define HL_ALPHA_LEVELS 4   // alpha tables at 1/5, 2/5, 3/5, 4/5 of the source
// additive tables: the source at 1/64, 1/32, 1/16, 1/8 (the low amounts: Counter-Strike's wall puffs and gun
// smoke add 1..18 % of their texture), then 1/4, 2/4, 3/4, 4/4 (r_hl_add_frac)
#define HL_ADD_LEVELS 8
#define HL_ADD_LOW 4        // add[0..3] the low levels, add[4..7] the quarters
#define HL_IA_CACHE 8       // index-alpha sprite tables (one per colour and amount step)

typedef enum { HL_BLEND_ALPHA, HL_BLEND_ADD } hl_blend_t;

typedef struct r_hlmodes_s {
    int ready;
    uint8_t palette[768];
    uint8_t inv[32768];     // 5-bit r,g,b (r << 10 | g << 5 | b) -> nearest index 0..254
    uint8_t alpha[HL_ALPHA_LEVELS][65536];
    uint8_t add[HL_ADD_LEVELS][65536];
    // index-alpha sprites: table[i * 256 + dst] = colour over dst at alpha i * amount / 255^2
    uint8_t ia[HL_IA_CACHE][65536];
    uint32_t ia_key[HL_IA_CACHE];   // rgb << 8 | amount step; 0 = free
    int ia_next;
    double build_ms;        // time the last r_hl_build took
    // the glow shell's texture (r_studio_draw_shell): sprites/shellchrome.spr's first frame as 64 x 64
    // intensities 0..15, when the game has it (r_hl_set_shell); else the drawer's stand-in
    uint8_t shell[64 * 64];
    int has_shell;
} r_hlmodes_t;

// Build the tables for a level palette (768 bytes). Fills hl->build_ms.
void r_hl_build(r_hlmodes_t *hl, const uint8_t *palette);
// The glow shell's texture from a sprite (sprites/shellchrome.spr): its first image sampled to 64 x 64,
// each texel's brightest channel (the sprite's own palette, else the level's) / 16; see-through
// texels (255) 0. 0, or -1 (has_shell cleared) for a sprite without an image.
int r_hl_set_shell(r_hlmodes_t *hl, const spr_t *sp);
// The same from the game's files (once a level, after r_hl_build); absent or damaged: the stand-in.
void r_hl_shell_from(r_hlmodes_t *hl, vfs_t *fs);
// Nearest index (0..254) of an RGB colour, through the 5-bit inverse table.
static inline uint8_t r_hl_nearest(const r_hlmodes_t *hl, int r, int g, int b)
{
    return hl->inv[(r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)];
}
// The client frames a second at which the engine's per-frame fades step (kRenderFxFadeSlow/Fast,
// SolidSlow/Fast: renderamt -1 / -4 / +1 / +4 each drawn frame until the next server state): fps_max's
// default, 72 (Xash3D's host.c; Quake's cl_maxfps), so that a picture does not depend on the drawing rate.
#define HL_FX_FRAME_HZ 72.0
// The entity's amount 0..255 at time t after its renderfx, by the engine's rules
// (CL_FxBlend): pulses, strobes, flickers by the entity number's phase, hologram
// and distort by the distance along the view (vieworg, vpn), org the entity's origin; fades and
// solids stepped for the frames of `since` seconds (the state's age: r_view_t.fx_since) at HL_FX_FRAME_HZ.
int r_hl_fx_amount(const entity_state_t *s, int entnum, double t, double since, const float *vieworg,
                   const float *vpn, const float *org);
// The table for a blend at amount 0..255; NULL when nothing is to be drawn (amount 0;
// additive: below 3, r_hl_add_level) or, for alpha, when the amount is near enough 255 to draw opaque (r_hl_alpha_level).
const uint8_t *r_hl_table(const r_hlmodes_t *hl, hl_blend_t kind, int amount);
// The additive level of an amount 0..255: -1 (not drawn: below 3, less than the 1/64 level's
// midpoint, which adds nothing visible), else 0..HL_ADD_LEVELS-1 (hl->add[]). 46 and up as
// the quarters always were (nearest of 1/4 .. 4/4); below, the nearest power of two by ratio
// (1/8 for 23..45, 1/16 for 12..22, 1/32 for 6..11, 1/64 for 3..5): within a factor 1.42.
int r_hl_add_level(int amount);
// The source's share in add[l], 8.8 (4 = 1/64 .. 256 = 1).
int r_hl_add_frac(int l);
// Alpha amount -> 0 (not drawn), 1..HL_ALPHA_LEVELS (table), HL_ALPHA_LEVELS + 1 (opaque).
int r_hl_alpha_level(int amount);
// Index-alpha sprite table for colour rgb at amount (built on first use, cached; no
// allocation). NULL when amount is 0.
const uint8_t *r_hl_indexalpha(r_hlmodes_t *hl, const uint8_t rgb[3], int amount);
// The draw-mode hook for studio models: 0 = not drawn; else *table is the blend table
// for d_polyctx_t.alphamap (alpha66 0), NULL = opaque. TransTexture / TransColor blend
// by alpha, Glow / TransAdd add, TransAlpha and Normal are solid. hl NULL: opaque.
int r_hl_studio_blend(const r_hlmodes_t *hl, const entity_state_t *s, int entnum, double t, double since,
                      const float *vieworg, const float *vpn, const float *org, const uint8_t **table);
// Brush entities: 1 when the render mode draws their faces without lightmaps, the texture as painted
// at the amount (the engine's R_BlendLightmaps returns before the lightmap pass for kRenderTransTexture,
// kRenderTransColor, kRenderTransAdd and kRenderGlow: Xash3D ref/gl/gl_rsurf.c); kRenderNormal and
// kRenderTransAlpha keep their light.
int r_hl_brush_unlit(int rendermode);
// kRenderFxDeadPlayer (17), the game's body queue: a body drawn as the player whose number
// (1..maxclients) is its renderamt (R_StudioDrawModel in Xash3D / the SDK's StudioModelRenderer:
// that player's model and colours, the body's own place, angles, sequence and frame, no legs, no
// weapon). Returns that player number, 0 when the engine draws nothing (an amount outside
// 1..maxclients), -1 for an entity that is not a dead player.
int r_hl_dead_player(const entity_state_t *s, int maxclients);
// kRenderFxExplode (18) on studio models (the SDK's StudioFxTransform): the model's own y axis
// stretched by 1 + 10 x (time - animtime), at most 2 (here at least 0: a hostile animtime ahead of
// the clock would mirror the model). 1 for other fx. The engine has no such rule for sprites.
float r_hl_explode_stretch(const entity_state_t *s, double time);
// kRenderFxDistort (15) / Hologram (16) on studio models (the SDK's StudioFxTransform): in a frame where
// RandomLong(0, 49) is 0, the world x or z row of the model's transform (its axes' x or z components)
// scaled by 1..1.484; else where a second RandomLong(0, 49) is 0, the model moved by -10..10 along world
// x, y or z. The engine draws new random numbers every frame; here they come from a hash of the entity
// number and the client frame of `t` (HL_FX_FRAME_HZ frames a second), so a moment always looks the
// same, played or sought. Returns 1 and fills axis_scale (world x, y, z; 1 1 1 otherwise) and move
// (world units; 0 0 0 otherwise) when this frame jitters; 0 (and no change) else, or for other fx.
int r_hl_fx_jitter(const entity_state_t *s, int entnum, double t, float axis_scale[3], float move[3]);
// Glow sprites (kRenderGlow): brightness 0..1 (19000 / dist^2, 0.05 .. 1) and the
// scale that keeps their size on screen (dist / 200), dist from the eye.
float r_hl_glow(float dist, float *scale);

#endif
