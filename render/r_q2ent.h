// r_q2ent.h -- Quake II's rules for drawing entities (its client and ref_soft), as pure functions
//
// What Quake II's client (CL_AddPacketEntities, CL_AddViewWeapon, the explosion list)
// and its software renderer (R_AliasDrawModel, R_AliasSetupLighting, R_DrawBeam) decide
// about an entity before any pixel is drawn: how see-through it is, the colour of its
// shell, the light it gets, the view weapon's projection, a beam's colour, an
// explosion's skin. r_models.c asks these through its per-game rules table; nothing
// here draws, so the tests pin every rule with the game's own numbers.
#ifndef R_Q2ENT_H
#define R_Q2ENT_H

#include <stdint.h>

// Quake II's renderfx bits (q_shared.h)
enum {
    Q2RF_MINLIGHT = 1, Q2RF_VIEWERMODEL = 2, Q2RF_WEAPONMODEL = 4, Q2RF_FULLBRIGHT = 8, Q2RF_DEPTHHACK = 16,
    Q2RF_TRANSLUCENT = 32, Q2RF_FRAMELERP = 64, Q2RF_BEAM = 128, Q2RF_CUSTOMSKIN = 256, Q2RF_GLOW = 512,
    Q2RF_SHELL_RED = 1024, Q2RF_SHELL_GREEN = 2048, Q2RF_SHELL_BLUE = 4096,
    Q2RF_SHELL_DOUBLE = 0x10000, Q2RF_SHELL_HALF_DAM = 0x20000
};
#define Q2RF_SHELLS (Q2RF_SHELL_RED | Q2RF_SHELL_GREEN | Q2RF_SHELL_BLUE | Q2RF_SHELL_DOUBLE | Q2RF_SHELL_HALF_DAM)

// Quake II's effect bits that change how a model is drawn
enum {
    Q2EF_BFG = 0x80, Q2EF_COLOR_SHELL = 0x100, Q2EF_POWERSCREEN = 0x200, Q2EF_QUAD = 0x8000, Q2EF_PENT = 0x10000,
    Q2EF_PLASMA = 0x1000000, Q2EF_DOUBLE = 0x8000000, Q2EF_SPHERETRANS = 0x10000000, Q2EF_HALF_DAMAGE = 0x40000000,
    Q2EF_TRACKERTRAIL = 0x80000000u
};

#define Q2_POWERSUIT_SCALE 4.0f   // a shell stands this far out along the vertex normals
#define Q2_SHELL_ALPHA 0.30f
#define Q2_GUN_FOV 80.0f          // Yamagi's ref_soft draws the view weapon at r_gunfov 80 ...
#define Q2_GUN_Z 8.0f             // ... pushed sw_gunzposition 8 units further from the eye
#define Q2_GUN_ZSCALE 3.0f        // RF_DEPTHHACK: 1/z three times larger in the depth test

// See-through drawing as ref_soft chooses its span routine.
typedef enum { Q2_ALPHA_OPAQUE = 0, Q2_ALPHA_33, Q2_ALPHA_66 } q2_alpha_t;

// The shell flags the client makes of an entity's effects and renderfx (quad blue,
// pent red, double yellow, half damage; the rogue mission pack's mixing when `rogue`):
// the RF_SHELL_* bits to draw, 0 for no shell.
uint32_t r_q2_shell_bits(uint32_t effects, uint32_t renderfx, int rogue);
// The palette index ref_soft fills a shell with, for its RF_SHELL_* bits.
int r_q2_shell_color(uint32_t shell_bits);
// The alpha the client gives a model (1 = opaque): RF_TRANSLUCENT 0.70, EF_BFG 0.30,
// EF_PLASMA 0.6, EF_SPHERETRANS 0.3 (0.6 with EF_TRACKERTRAIL).
float r_q2_entity_alpha(uint32_t effects, uint32_t renderfx);
// ref_soft's choice for a textured model: above 0.66 opaque, above 0.33 the 66 % table, else 33 %.
q2_alpha_t r_q2_alpha_mode(float alpha);
// ... and for a flat shell or beam: above 0.33 the 66 % table, else 33 %.
q2_alpha_t r_q2_flat_alpha_mode(float alpha);
// R_AliasSetupLighting's light (0..255 scale, as R_LightPoint * 255) after RF_FULLBRIGHT
// (1.0), RF_MINLIGHT (at least 0.1) and RF_GLOW (0.1 * sin(7 t), never below 0.8 of it).
int r_q2_model_light(int light, uint32_t renderfx, double t);
// A beam's palette index: one of the four bytes of its skin number, `pick` 0..3.
int r_q2_beam_color(int32_t skinnum, int pick);
// The client's explosion model (ex_poly on r_explode/tris.md2, `frames` long: 15 for
// rockets, 19 for grenades) at whole frame f of its life: the skin it shows (0..4 orange,
// two frames each, then 5 and 6) and its alpha (1 = opaque; (16 - f) / 16 from frame 10);
// 0 when it is over (f >= frames - 1).
int r_q2_explosion_look(int f, int frames, int *skin, float *alpha);

#endif
