// r_fsfx.h -- Forsaken's ship effects that are neither shots nor models, as a function of time:
// the invulnerability bits (the game's CreateInvEffect / ProcessPolys POLY_INVBITS), the shield's
// flash, a dying ship's fire, a damaged ship's smoke, the sparks on a ship without shield
//
// The game makes them on its own clock, with rand(), into a pool it ages a tick at a time; here
// the sprites a ship shows at time t are worked out from t alone (each tick's from a hash of the
// ship and the tick), so a seek, a movie and a window show the same at the same moment.
// r_fsent.c draws them (added to the scene). Facts: docs/forsaken.md "Invulnerability", "Dying,
// damaged and bare ships".
#ifndef R_FSFX_H
#define R_FSFX_H

#include <stdint.h>

#define FSFX_TICKS_PER_SEC 71.0     // GAME_SECOND
#define FSFX_INV_PER_TICK  5        // CreateInvEffect( i, 5, 255, 64, 64 ) every tick
#define FSFX_INV_MAX_AGE   52       // ticks: its red (255 - 5 a tick) is gone at 51
#define FSFX_INV_RADIUS    75.0f    // ShieldVerts: the square 300 x GLOBAL_SCALE out from the centre
#define FSFX_SHIELD_HALF   32.0f    // ... 128 x GLOBAL_SCALE across each way (x each square's scale)
#define FSFX_INV_HALF      16.0f    // the invulnerability bits' scale 0.5

typedef struct {
    float dir[3];      // unit: from the ship's centre to the bit's middle (FSFX_INV_RADIUS out)
    float rgb[3];      // 0..1: red 255 - 5 a tick, green and blue 64 - 5 a tick (a = age in ticks)
    float age;         // ticks since it was made
    float scale;       // of ShieldVerts' square: half-width FSFX_SHIELD_HALF x scale (the bits: 0.5)
    int frame;         // BITS.OFF's frame: a sixth of the age, wrapping over `frames`
    uint32_t id;       // which bit: its tick x 8 + its number in the tick (0..4)
} r_fsfx_bit_t;

// The bits of ship entity `ship` at time t (seconds), made every tick since `since` (seconds:
// when it became invulnerable, or a large negative number if not known) and not gone yet; at most
// max into out; `frames` is BITS.OFF's frame count (at least 1). Returns how many.
int r_fsfx_inv_bits(int ship, double t, double since, int frames, r_fsfx_bit_t *out, int max);

// The shield's flash where a shot hit a ship (Primary.c's CreateShieldEffect, Polys.c's POLY_SHIELD):
// `spirals` of 4 CIRCLE.OFF squares each, all starting at `hit_dir` (unit, from the ship's centre
// to the hit) and sliding 2 degrees a tick towards a random direction of their own (from `seed`),
// the 4 a spiral set off 6 steps apart along it, sized 0.55, 0.7, 0.85, 1 of ShieldVerts (32 units
// each way) and lit 0.53 .. 1 of `rgb` (0..255), every channel losing 5 a tick; `ticks` since the
// hit (out[i].age). Returns how many (at most max).
int r_fsfx_shield_hit(const float hit_dir[3], uint32_t seed, int spirals, const float rgb[3], float ticks,
                      r_fsfx_bit_t *out, int max);

// ---- other ships dying and damaged (secondary.c DoDamagedEffects, called by ProcessShips for every
// ship each frame; spotfx.c CreateSpotFXBurning; 2dPolys.c FmPolyProcess's FM_SPOTFX_BURNING,
// FM_ANIMSPEED, FM_BLACK_SMOKE; facts in docs/forsaken.md "Dying and damaged ships"). Every sprite is
// a frame of expl.off (Exp_Header), worked out from the time alone like the bits above.
#define FSFX_BURN_PER_TICK   5        // CreateSpotFXBurning: five FM_SPOTFX_BURNING ..
#define FSFX_BURN_AHEAD      48.75f   // .. at the ship's centre + its move's direction x SHIP_RADIUS x 0.65
#define FSFX_BURN_SIZE       1.5f     // 6 x GLOBAL_SCALE units a texel ..
#define FSFX_BURN_SHRINK     0.0375f  // .. less 0.15 x GLOBAL_SCALE a tick
#define FSFX_BURN_SPEED      6.0f     // 24 x GLOBAL_SCALE units a tick, less 0.15 a tick
#define FSFX_BURN_RGB        64       // R G B 64 (the burning ones and the still one)
#define FSFX_SMOKE_HULL      64       // DoDamagedEffects: black smoke while Hull < 64 ..
#define FSFX_SMOKE_BACK      62.5f    // .. 250 x GLOBAL_SCALE behind the ship's centre ..
#define FSFX_SMOKE_DOWN      6.5f     // .. and 26 x GLOBAL_SCALE below it (its own up)
#define FSFX_SMOKE_SIZE      0.5f     // SMOKE_TRAIL_SIZE: 2 x GLOBAL_SCALE units a texel

// One of the game's face-me sprites (FmPolys), where and how it is at a moment.
typedef struct {
    float pos[3];      // its centre (before FM_FLAG_MOVEOUT pulls it towards the eye)
    float rgb[3];      // 0..1: R G B / 255, added to the scene
    float scale;       // world units a texel (xsize)
    float rot;         // degrees about the line of sight
    float age;         // ticks since it was made
    int frame;         // expl.off's frame
    int moveout;       // FM_FLAG_MOVEOUT
    int kind;          // FSFX_SPRITE_*: which layout it is a frame of
    uint32_t id;       // its tick x 8 + its number in the tick
} r_fsfx_sprite_t;

// expl.off, BITS.OFF, BIGFLASH.OFF, SOLTRAIL.OFF, GRVTRAIL.OFF, NEWTRAIL.OFF, FLARE.OFF
enum { FSFX_SPRITE_EXPL, FSFX_SPRITE_BITS, FSFX_SPRITE_FLASH, FSFX_SPRITE_SOLTRAIL, FSFX_SPRITE_GRVTRAIL,
       FSFX_SPRITE_NEWTRAIL, FSFX_SPRITE_FLARE, FSFX_SPRITE_KINDS };

// A ship as the drawer knows it: its centre at `time` (seconds), its velocity (units a second: the
// game's LastMove, its move a tick, is vel / 71 -- assumed) and its forward and up axes. Where it
// was at another moment: org + vel x (that moment - time).
typedef struct {
    float org[3], vel[3], fwd[3], up[3];
    double time;
} r_fsfx_ship_t;

// A dying ship's (DEATH_MODE) fire at time t: every tick from `since` (seconds; a large negative
// number if not known) to `until` (when it stopped dying; a large number while it still is)
// CreateSpotFXBurning at FSFX_BURN_AHEAD along its move: five sprites flying
// back along it (each axis jittered by Random_Range(10000) / 7500 - 0.66, normalised) at 6 units a
// tick slowing 0.15 a tick, rising 0.15 a tick faster (the FmPoly's up, 0 1 0), shrinking, half a
// frame a tick, gone at the last of `frames`; and one still at the spot, a frame a tick,
// FM_FLAG_MOVEOUT. At most max.
int r_fsfx_burning(int ship, double t, double since, double until, const r_fsfx_ship_t *s, int frames,
                   r_fsfx_sprite_t *out, int max);

// A damaged ship's black smoke (DoDamagedEffects, Hull < 64, only while its move is not more than
// about 95 degrees from its nose): one FM_BLACK_SMOKE a tick since `since`, 62.5 units behind and
// 6.5 below its centre, R G B (64 - hull) x 3, flying back at 0.5 .. 1.5 units a tick slowing 0.2 a
// tick, rising 0.2 a tick faster, half a frame a tick. hull outside 0..63: none.
int r_fsfx_smoke(int ship, double t, double since, const r_fsfx_ship_t *s, int hull, int frames,
                 r_fsfx_sprite_t *out, int max);

// The sparks where a primary hit a ship without shield (Primary.c ProcessPrimaryBullets: a ship
// with no shield and not invulnerable gets CreateColSparks from the pulsar, orbit pulsar, trojax,
// transpulse and pyrolite, CreateSmallColSparks from the suss-gun and laser; its shield's flash
// otherwise), `ticks` after the hit at `at`, `dir` the way out from the ship's centre (unit):
// BIGFLASH.OFF's frame (FM_FLASH: 3.5 units a texel shrinking 0.1 a tick, 16 ticks, R G B 255,
// FM_FLAG_MOVEOUT), expl.off (FM_ANIM: a frame every 3 ticks, R G B 192, 1.25 .. 2.25 units a
// texel, up to 16 units off each way, MOVEOUT) and 1 .. 2 BITS.OFF sparks (FM_BITS: a frame every
// 6 ticks, flying out along dir + up to 0.5 each way at 2 .. 4 units a tick, R G B 255 64 64,
// SPARKSIZE 2 units a texel). `small`: CreateSmallColSparks, the same one time in five, else
// nothing. The random parts from `seed`. Returns how many (at most max).
int r_fsfx_col_sparks(const float at[3], const float dir[3], uint32_t seed, int small, float ticks, int expl_frames,
                      int bits_frames, r_fsfx_sprite_t *out, int max);

// A burst of `count` FM_BITS sparks of BITS.OFF made at once at `at`, `ticks` after (Primary.c:
// CreateTrojaxExplosion's (PLevel + 10) / 5 + 5, CreateArcExplosion's 10 + Random_Range(10),
// CreateLaserPulse's 0 .. 2 a frame; 2dPolys.c FmPolyProcess FM_BITS): each flies straight along
// dir (unit) + each axis Random_Range(5120) / 5120 - 0.5, normalised, at (Random_Range(5120) / 640
// + 8) x 0.25 = 2 .. 4 units a tick, never slowing; a frame every 6 ticks, gone after the last of
// `bits_frames` (36 ticks for BITS.OFF's 6); SPARKSIZE 2 units a texel, coloured rgb (0..1), not
// pulled out. The random parts from `seed` and each spark's number. Returns how many (at most max).
#define FSFX_BITS_TICKS     6.0f     // FM_BITS: a frame every 6 ticks
#define FSFX_BITS_MAX_SPEED 4.0f     // (5119 / 640 + 8) x GLOBAL_SCALE units a tick, at most
#define FSFX_SPARK_SIZE     2.0f     // SPARKSIZE
int r_fsfx_bits_burst(const float at[3], const float dir[3], uint32_t seed, int count, const float rgb[3], float ticks,
                      int bits_frames, r_fsfx_sprite_t *out, int max);

// DestroySecondary's explosion where a missile ended, on a wall or a ship (secondary.c: the mug,
// solaris, thief, scatter, gravgon and titan CreateExplosion, the MFRL and pine missile
// CreateSmallExplosion), `ticks` after it at `at`: FM_ANIM frames of expl.off (a frame every 3
// ticks, gone after the last of `expl_frames`), R G B 192, FM_FLAG_MOVEOUT, each turned a random
// 0..359 degrees. CreateExplosion's loop draws its count afresh each pass (Count < Random_Range(3) +
// 1): 1, 2 or 3 sprites (1/3, 4/9, 2/9); its first at `at`, NORM_EXPLO_SIZE 4 units a texel; the
// others (and CreateSmallExplosion's one, `small`) up to 32 units off each way ((Random_Range(256) -
// 128) x 0.25), (Random_Range(10) + 6) x 0.25 = 1.5 .. 3.75 units a texel. The random parts from
// `seed`. Returns how many (at most max).
#define FSFX_EXPLO_SIZE 4.0f        // NORM_EXPLO_SIZE: 16 x GLOBAL_SCALE
int r_fsfx_explosion(const float at[3], uint32_t seed, int small, float ticks, int expl_frames, r_fsfx_sprite_t *out,
                     int max);

// ---- secondary weapons in flight (secondary.c SecondaryWeaponAttribs[], InitOneSecBull,
// ProcessMissiles; 2dPolys.c FmPolyProcess; facts in docs/forsaken.md "Missiles in flight").
// `weapon` is the SECBULLPOSDIR weapon number (0 mug .. 12 titan shrapnel, engine/world_fs.h).
#define FSFX_MISSILE_SPEED  18.0f   // MISSILE_SPEED: MAXMOVESPEED (45 x GLOBAL_SCALE) x 1.6, units a tick
#define FSFX_MFRL_DROP      2.0f    // InitOneSecBull's DropCount: ticks the MFRL falls along its drop vector
#define FSFX_TRAIL_BACK     50.0f   // CreateTrail & co: a puff is born 200 x GLOBAL_SCALE behind the missile
#define FSFX_TRAIL_SPEED    14.4f   // .. flying on along the missile's direction at MISSILE_SPEED x 0.8
#define FSFX_MAX_TRAIL      64      // puffs one missile shows at most (32 with the game's layouts)

// Where a missile is `ticks` after it left: returns how far it has gone along its direction and sets
// *drop to how far along its drop vector (the MFRL's fall: MISSILE_SPEED a tick for its first 2
// ticks, then one tick at MISSILE_SPEED along its direction, then 2 x; the titan 0.75 x, the
// shrapnel 1.25 x, every other missile MISSILE_SPEED; mines 0).
float r_fsfx_missile_move(int weapon, float ticks, float *drop);
// The inverse along its direction: the ticks at which it has gone `along` (after its fall); a
// missile that does not move: 0.
float r_fsfx_missile_ticks(int weapon, float along);

// The smoke trail of a missile `ticks` after it left (ProcessMissiles' "Do Trails": one puff a tick
// once it no longer falls, never on the tick it ends): mug, MFRL, pine missile and titan
// CreateTrail (expl.off, FM_SMOKE_TRAIL), solaris CreateSolarisTrail (SOLTRAIL.OFF), gravgon
// CreateGravgonTrail (GRVTRAIL.OFF), thief and titan shrapnel CreateNewTrail (NEWTRAIL.OFF); the
// scatter and mines: none. Each puff is born FSFX_TRAIL_BACK behind where the missile was at its
// tick (org + drop x fall + dir x along) and flies on along dir from FSFX_TRAIL_SPEED, slowing 4
// (smoke) or 2 a tick, its frame moving 0.5 (smoke), 0.166 (solaris, new) or 0.1 (gravgon) a tick,
// gone at the last of `frames` (the layout's count), R G B ShadeTable[frame x 1, 3 or 5]; smoke
// 0.5 units a texel turned at random, the others 1.75 (the gravgon's growing 0.1 a tick), the new
// trail's turned at random. `end_ticks`: the tick the missile ended (a large number while it flies).
// Sprites' kind is FSFX_SPRITE_* of their layout. The random turns from `seed`. At most max.
int r_fsfx_missile_trail(int weapon, uint32_t seed, const float org[3], const float drop[3], const float dir[3],
                         float ticks, float end_ticks, int frames, r_fsfx_sprite_t *out, int max);
// The same trail along a path stepped a tick at a time (a homing missile's, r_fsent.c): `pos[k]` is
// where the missile was after tick k's move and `dir[k]` its direction then (unit), for k = 0 ..
// n - 1 (pos[0] where it started); ticks past n - 1 make no puff. Each puff is born FSFX_TRAIL_BACK
// behind pos[k] along -dir[k] and flies on along dir[k], as r_fsfx_missile_trail's.
int r_fsfx_missile_trail_path(int weapon, uint32_t seed, const float (*pos)[3], const float (*dir)[3], int n,
                              float ticks, float end_ticks, int frames, r_fsfx_sprite_t *out, int max);
// The FSFX_SPRITE_* layout a missile's trail is made of; -1 none.
int r_fsfx_missile_trail_kind(int weapon);

// ---- homing (secondary.c SecondaryWeaponAttribs[]' MISMOVE_HOMING, TurnSpeed and ViewCone;
// InitOneSecBull: ViewCone = COSD(ViewCone / 2); ProcessMissiles' MIS_STRAIGHT / MIS_HOMING; facts in
// docs/forsaken.md "Homing missiles").
#define FSFX_THIEF_LIFE 600.0f      // InitOneSecBull: the thief's LifeSpan in ticks, then CreateExplosion
// The solaris (1.5 degrees a tick, cone 120), thief (3, 360) and scatter (2, 180): 1 and their turn
// (radians a tick) and the cosine of half their view cone; any other weapon: 0.
int r_fsfx_homing(int weapon, float *turn, float *cone_cos);
// `dir` (unit) turned towards `to` (unit) by at most `max_turn` radians along the great circle
// between them, into `out` (unit); at once when the angle is smaller (the game's quaternion lerp by
// D2R(TurnSpeed) x framelag / Angle, at most 1).
void r_fsfx_turn_towards(const float dir[3], const float to[3], float max_turn, float out[3]);

// ---- the scatter's own trail (secondary.c ProcessMissiles' SCATTERMISSILE case and
// CreateScatterTrail; Include/Secondary.h MAXOLDPOS, NUMSCATTERPOINTS; facts in docs/forsaken.md
// "The scatter's trail"): a tube of three-sided rings, one 47.5 units behind the missile, one behind
// each of its kept places (every 8 ticks, the last 10), fading out along it.
#define FSFX_SCATTER_INTERVAL 8     // InitOneSecBull: the scatter's Interval (ticks)
#define FSFX_SCATTER_MAXOLD   10    // MAXOLDPOS: places kept
#define FSFX_SCATTER_BACK     47.5f // each ring 190 x GLOBAL_SCALE behind its place
#define FSFX_SCATTER_POINT    6.0f  // OutlineOffsets: (0, -6) (6, 6) (-6, 6), not scaled by GLOBAL_SCALE
// The places kept `ticks` after the launch, newest first: out[i] = the tick index k - 1 of the
// place kept at tick k (k = 8, 16, ... up to the ticks run: the place after tick k - 1's move,
// kept before tick k's), at most `max` and FSFX_SCATTER_MAXOLD; only those below `npath` (the
// points known). Returns how many.
int r_fsfx_scatter_kept(float ticks, int npath, int *out, int max);
// The ring behind place p flying along dir (unit): its three points (the offsets turned by the
// rotation taking the game's Forward, +z, to dir).
void r_fsfx_scatter_ring(const float p[3], const float dir[3], float out[3][3]);
// The colour (0..1 of each of R G B) of ring `ring` of a tube with `kept` places: ring 0 (behind the
// missile) 255; ring m >= 1 (kept place m - 1) (kept - (m - 1)) x (255 / MAXOLDPOS) / 256 of 128.
float r_fsfx_scatter_shade(int kept, int ring);

// ---- the sphere models (models.c ProcessModels MODFUNC_Scale / Scale2 / Explode, ModelDisp,
// ProcessModel; secondary.c CreateGravgonField, CreateShockwave, ProcessMines; facts in
// docs/forsaken.md "The gravgon's field", "Shockwaves", "Mines"). MODEL_Sphere is ball1.mx (LOD
// ball2.mx, ball3.mx): a 50-unit sphere drawn Scale times its size, facing the eye.
#define FSFX_BALL_RADIUS      50.0f  // ball1.mx's vertices' distance from its middle (the data)
#define FSFX_FIELD_MAX        10.0f  // CreateGravgonField: MaxScale of both spheres
#define FSFX_FIELD_DEC        0.075f // GRAVGON_SCALE_DEC: Scale lost a tick
#define FSFX_FIELD_LIFE       600    // LifeCount (ticks); NO_GRAVGON_TIMER is defined: it counts down
#define FSFX_FIELD_PERIOD     134    // ticks from one wrap to the next at a tick a frame (10 / 0.075 = 133.3)
#define FSFX_SHOCK_GROW       40.0f  // MODFUNC_Explode: Scale grows MaxScale / 40 a tick, gone past MaxScale

// The gravgon field's two spheres `ticks` after CreateGravgonField, as ProcessModels steps them a
// tick at a time (a frame a tick; between two ticks the shrink goes on, not below 0): sphere 0
// starts at Scale 10, sphere 1 at 5 (half a cycle later); each loses FSFX_FIELD_DEC a tick and is
// put back to 10 when it goes below 0; once its 600 ticks of LifeCount are gone it dies at its next
// wrap (sphere 1 at tick 603, sphere 0 at 670). scale[k] gets each one's Scale (0 when gone).
// Returns a mask of the spheres there (bit k: sphere k).
int r_fsfx_gravgon(float ticks, float scale[2]);
// ProcessModel's vertex colour channel for a sphere at `scale` of `max_scale` (the field's blue, the
// shockwave's red): 255 - min(255, scale x 128 / max + 128), as the game's byte (127 .. 0).
int r_fsfx_sphere_shade(float scale, float max_scale);
// CreateShockwave's sphere `ticks` after it was made with ShockwaveSize `size`: its Scale (size x
// ticks / 40), or -1 when it is not there (before, past 40 ticks, a size not above 0).
float r_fsfx_shock_sphere(float size, float ticks);
// ProcessMines: a purge mine's Pos is StartPos + UpVector x COSD( (int)(LifeCount x 3) % 360 ) x
// 200 x GLOBAL_SCALE, a quantum mine's COSD( (int)(LifeCount x 2.5) % 360 ) x 75 x GLOBAL_SCALE;
// the others do not bob (0). `life` is the LifeCount in ticks.
float r_fsfx_mine_bob(int weapon, float life);
// ProcessMines: purge, quantum and spider mines turn 2 degrees a tick about their own up; the pine
// mine turns towards its target instead (0 here). Degrees after `ticks`.
float r_fsfx_mine_turn(int weapon, float ticks);
// DestroySecondary's sound for a mine going off (SFX_Exp4 purge, SFX_Exp5 pine, SFX_QuantumMineExplode
// quantum, SFX_Exp6 spider), as its file in the game's sound table (sfx.c: "exp4", "exp5", "quantexp",
// "exp6") + ".wav"; NULL for anything else.
const char *r_fsfx_mine_sound(int weapon);
// The sound InitOnePrimBull plays for a primary shot (primary.c; files from sfx.c's table): pulsar
// SFX_Pulsar "pulsfire", trojax SFX_Trojax "trojfire", pyrolite SFX_Pyroloop "pyroloop" (at most
// one a second: FSFX_PYRO_SOUND_TICKS), transpulse SFX_Transpulse "tpfire2", suss-gun SFX_Suss_Gun
// "sussgnf3", laser SFX_Laser "laser2c", orbit pulsar SFX_Orbit "orbitpls"; + ".wav"; NULL others.
const char *r_fsfx_prim_sound(int weapon);
#define FSFX_PYRO_SOUND_TICKS 60.0f   // PyroCount: a pyrolite shot plays once 60 ticks have gone by
// The sound InitOneSecBull plays for a secondary launched (secondary.c): mug, solaris, scatter,
// gravgon, pine missile SFX_MissileLaunch "mslaun2"; titan SFX_TitanLaunch "titanln"; MFRL
// SFX_MFRLLaunch "mfrln" at VolModify 0.85 (*volume, else 1); purge, pine, quantum and spider mines
// SFX_DropMine "minelay"; NULL for the thief and the titan's shrapnel (none).
const char *r_fsfx_sec_sound(int weapon, float *volume);
// Whether DestroySecondary ends this missile with CreateExplosion (and so SFX_BangBang): mug,
// solaris, thief, scatter, gravgon, titan. The MFRL and pine missile get CreateSmallExplosion.
int r_fsfx_sec_bang(int weapon);
#define FSFX_SND_BANG "exp1.wav"      // SFX_BangBang (sfx.c "exp1"): CreateExplosion's sound
#define FSFX_SND_BIKE "bikexpl.wav"   // SFX_BikeExplode (sfx.c "bikexpl"): a ship's mode turned limbo
#define FSFX_SND_SHIPHIT "shieldht.wav"   // SFX_ShipHit (sfx.c "shieldht"): a primary shot meeting a ship

// ProcessShips' headlight of a ship with its light on: always, but on a dying ship on one frame in
// two at random (Random_Range(2)); here on the ticks whose hash is odd. 1 on, 0 off.
int r_fsfx_headlight_on(int ship, double t, int dying);

#endif
