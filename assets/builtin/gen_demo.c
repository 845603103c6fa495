// gen_demo.c -- demos/builtin.dem: a walk through the built-in level, written with the project's Quake demo writer
//
// A protocol-15 demo as Quake 1.06+ records it: the cdtrack line, a signon block
// (serverinfo, lightstyles, baselines, statics), then one block per server frame
// at 20 Hz with svc_time, clientdata and an update for every entity present.
// The camera follows a path of key points; the door opens, a gem is picked up,
// figures walk, a gun fires, an explosion goes off, sounds play, centerprints show.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../formats/quake_write.h"
#include "gen.h"

#define FPS 20
#define LENGTH 32.0   // seconds of demo

// Precache lists (index 1 is the first entry; model 1 is the world).
enum { M_WORLD = 1, M_DOOR, M_PLAYER, M_GEM, M_WALKER, M_VGUN, M_EXPLOD, M_GLOW, NUM_MODELS = M_GLOW };
static const char *const model_names[NUM_MODELS] = {
    "maps/builtin.bsp", "*1", "progs/player.mdl", "progs/gem.mdl", "progs/walker.mdl",
    "progs/v_gun.mdl", "progs/s_explod.spr", "progs/s_glow.spr",
};
enum { S_HUM = 1, S_DOOR_START, S_DOOR_STOP, S_EXPLODE, S_PICKUP, S_TALK, S_LAND, S_GUN, NUM_SOUNDS = S_GUN };
static const char *const sound_names[NUM_SOUNDS] = {
    "misc/hum.wav", "doors/stndr1.wav", "doors/drclos4.wav", "weapons/r_exp3.wav",
    "items/itembk2.wav", "misc/talk.wav", "player/land.wav", "weapons/guncock.wav",
};

// Entities.
enum { E_PLAYER = 1, E_DOOR, E_GEM1, E_GEM2, E_GEM3, E_WALKER1, E_WALKER2, NUM_ENTITIES };

// Quake's item bits and stats used here.
enum { IT_SHOTGUN = 1, IT_SHELLS = 256, IT_AXE = 4096, IT_ARMOR1 = 8192 };

// The camera path: player origin (feet + 24) and view angles at given times;
// positions and angles are interpolated linearly between key points.
typedef struct { double t; float x, y, z, pitch, yaw; } cam_key_t;
#define CX(c) ((c) * 64 + 32.0f)
#define CY(row) ((GEN_ROWS - 1 - (row)) * 64 + 32.0f)
static const cam_key_t path[] = {
    { 0.0, GEN_START_X, GEN_START_Y, GEN_START_Z, 0, 20 },
    { 2.5, GEN_START_X, GEN_START_Y, GEN_START_Z, 5, 60 },
    { 3.5, GEN_START_X + 32, GEN_START_Y + 16, GEN_START_Z, 10, 40 },
    { 5.0, CX(5) - 8, CY(2), GEN_START_Z, 15, 10 },            // over the gem: picked up at 5.0
    { 6.5, CX(5), CY(3) + 8, GEN_START_Z, 0, -30 },
    { 8.0, CX(6), CY(3), GEN_START_Z, 0, 0 },                  // facing the door
    { 10.5, CX(6), CY(3), GEN_START_Z, -5, 0 },                // the door rises 9.0 .. 10.5
    { 13.0, CX(10) + 16, CY(3), GEN_START_Z, 5, 0 },           // through the corridor into room B
    { 14.5, CX(12), CY(1) + 8, GEN_START_Z, 25, -30 },         // looking down at the pool
    { 17.5, CX(17), CY(1) + 8, GEN_START_Z, 20, -120 },
    { 19.0, CX(17), CY(4), GEN_START_Z, 5, -160 },
    { 20.5, CX(12), CY(5), GEN_START_Z, 0, -90 },
    { 22.5, CX(12), CY(8), GEN_START_Z, 0, -90 },              // out into the courtyard
    { 24.0, CX(12), CY(9), GEN_START_Z, -45, -60 },            // the sky
    { 25.5, CX(10), CY(10), GEN_START_Z, 0, 0 },               // fires at 26, explosion at 26.4
    { 28.5, CX(10), CY(10), GEN_START_Z, -5, 20 },
    { 32.0, CX(8), CY(11), GEN_START_Z, 0, 150 },
};
#define NUM_KEYS ((int)(sizeof(path) / sizeof(path[0])))

static cam_key_t camera(double t)
{
    if (t <= path[0].t)
        return path[0];
    for (int i = 1; i < NUM_KEYS; i++) {
        if (t <= path[i].t) {
            const cam_key_t *a = &path[i - 1], *b = &path[i];
            float f = (float)((t - a->t) / (b->t - a->t));
            // ease in and out, so the camera does not jerk at key points
            f = f * f * (3 - 2 * f);
            cam_key_t k = { t, a->x + (b->x - a->x) * f, a->y + (b->y - a->y) * f, a->z + (b->z - a->z) * f,
                        a->pitch + (b->pitch - a->pitch) * f, a->yaw + (b->yaw - a->yaw) * f };
            return k;
        }
    }
    return path[NUM_KEYS - 1];
}

// Quake's U_* bits (formats/quake.c).
enum {
    U_MOREBITS = 1 << 0, U_ORIGIN1 = 1 << 1, U_ORIGIN2 = 1 << 2, U_ORIGIN3 = 1 << 3, U_ANGLE2 = 1 << 4,
    U_FRAME = 1 << 6, U_ANGLE1 = 1 << 8, U_ANGLE3 = 1 << 9, U_MODEL = 1 << 10, U_COLORMAP = 1 << 11,
    U_SKIN = 1 << 12, U_EFFECTS = 1 << 13,
};
enum { SU_VIEWHEIGHT = 1 << 0, SU_ITEMS = 1 << 9, SU_ONGROUND = 1 << 10, SU_WEAPONFRAME = 1 << 12,
       SU_ARMOR = 1 << 13, SU_WEAPON = 1 << 14 };
enum { TE_EXPLOSION = 3, TE_TELEPORT = 11 };

// One entity update: every field that differs from the baseline is sent (Quake
// fills absent fields from the baseline, not from the previous frame).
static void update(qw_demo_t *d, int num, const entity_state_t *base, const entity_state_t *s)
{
    uint32_t bits = 0;
    if (s->modelindex != base->modelindex)
        bits |= U_MODEL;
    if (s->frame != base->frame)
        bits |= U_FRAME;
    if (s->colormap != base->colormap)
        bits |= U_COLORMAP;
    if (s->skin != base->skin)
        bits |= U_SKIN;
    if (s->raw_effects != base->raw_effects)
        bits |= U_EFFECTS;
    static const uint32_t obits[3] = { U_ORIGIN1, U_ORIGIN2, U_ORIGIN3 };
    static const uint32_t abits[3] = { U_ANGLE1, U_ANGLE2, U_ANGLE3 };
    for (int k = 0; k < 3; k++) {
        if (s->origin[k] != base->origin[k])
            bits |= obits[k];
        if (s->angles[k] != base->angles[k])
            bits |= abits[k];
    }
    if (bits & 0xff00)
        bits |= U_MOREBITS;
    qw_update(d, bits, num, s, 0, 0, 0);
}

static void set_state(entity_state_t *s, int model, int frame, int colormap, float x, float y, float z, float yaw)
{
    memset(s, 0, sizeof(*s));
    s->modelindex = model;
    s->frame = frame;
    s->colormap = colormap;
    s->origin[0] = x;
    s->origin[1] = y;
    s->origin[2] = z;
    s->angles[1] = yaw;
}

static void lightstyle(qw_demo_t *d, int style, const char *map)
{
    qw_byte(d, QW_SVC_LIGHTSTYLE);
    qw_byte(d, style);
    qw_string(d, map);
}

static void updatestat(qw_demo_t *d, int index, int value)
{
    qw_byte(d, QW_SVC_UPDATESTAT);
    qw_byte(d, index);
    qw_long(d, value);
}

static void sound_at(qw_demo_t *d, int entity, int channel, int sound, float x, float y, float z)
{
    const float org[3] = { x, y, z };
    qw_sound(d, 0, 255, 64, entity, channel, sound, org);
}

static void temp_entity(qw_demo_t *d, int type, float x, float y, float z)
{
    qw_byte(d, QW_SVC_TEMP_ENTITY);
    qw_byte(d, type);
    qw_coord(d, x);
    qw_coord(d, y);
    qw_coord(d, z);
}

// svc_particle: a burst of `count` particles of `color` moving along dir.
static void particles(qw_demo_t *d, float x, float y, float z, int dx, int dy, int dz, int count, int color)
{
    qw_byte(d, QW_SVC_PARTICLE);
    qw_coord(d, x);
    qw_coord(d, y);
    qw_coord(d, z);
    qw_byte(d, dx);
    qw_byte(d, dy);
    qw_byte(d, dz);
    qw_byte(d, count);
    qw_byte(d, color);
}

static void clientdata(qw_demo_t *d, uint32_t items, int weaponframe, int armor, int health, int shells)
{
    int bits = SU_ITEMS | SU_ONGROUND | SU_WEAPON | (weaponframe ? SU_WEAPONFRAME : 0) | (armor ? SU_ARMOR : 0);
    qw_byte(d, QW_SVC_CLIENTDATA);
    qw_short(d, bits);
    qw_long(d, (int32_t)items);
    if (bits & SU_WEAPONFRAME)
        qw_byte(d, weaponframe);
    if (bits & SU_ARMOR)
        qw_byte(d, armor);
    qw_byte(d, M_VGUN);
    qw_short(d, health);
    qw_byte(d, shells);   // current ammo
    qw_byte(d, shells);
    qw_byte(d, 0);
    qw_byte(d, 0);
    qw_byte(d, 0);
    qw_byte(d, IT_SHOTGUN);   // active weapon
}

// Walker 1 waits in room B, walks along the pool, out through the corridor
// and across the courtyard (ahead of the camera, never in its way).
static const cam_key_t walker1_path[] = {
    { 12.0, CX(18), CY(5), 24, 0, 0 },
    { 16.5, CX(12), CY(5), 24, 0, 0 },
    { 19.5, CX(12), CY(9), 24, 0, 0 },
    { 30.0, CX(2), CY(9), 24, 0, 0 },
};

static cam_key_t follow(const cam_key_t *k, int n, double t)
{
    if (t <= k[0].t)
        return k[0];
    for (int i = 1; i < n; i++)
        if (t <= k[i].t) {
            float f = (float)((t - k[i - 1].t) / (k[i].t - k[i - 1].t));
            cam_key_t r = { t, k[i - 1].x + (k[i].x - k[i - 1].x) * f, k[i - 1].y + (k[i].y - k[i - 1].y) * f,
                            k[i - 1].z + (k[i].z - k[i - 1].z) * f, 0,
                            (float)(atan2(k[i].y - k[i - 1].y, k[i].x - k[i - 1].x) * 180 / M_PI) };
            return r;
        }
    cam_key_t r = k[n - 1];
    r.yaw = 180;
    return r;
}

static void walker1(double t, entity_state_t *s)
{
    int n = (int)(sizeof(walker1_path) / sizeof(walker1_path[0]));
    cam_key_t k = follow(walker1_path, n, t);
    int walking = t > walker1_path[0].t && t < walker1_path[n - 1].t;
    set_state(s, M_WALKER, walking ? (int)(t * 10) % 8 : 8, 0, k.x, k.y, k.z, t > walker1_path[0].t ? k.yaw : 180);
}

static void walker2(double t, entity_state_t *s)
{
    // an ellipse in the courtyard, in the player's colours (colormap 1), 8 walk frames at 10 Hz
    double a = t * 0.5;
    float x = CX(6) + 160 * (float)cos(a), y = CY(9) - 32 + 64 * (float)sin(a);
    float yaw = (float)(atan2(64 * cos(a), -160 * sin(a)) * 180 / M_PI);
    set_state(s, M_WALKER, (int)(t * 10) % 8, 1, x, y, 24, yaw);
}

static float door_z(double t)
{
    if (t < 9.0)
        return 0;
    if (t > 10.5)
        return GEN_DOOR_RISE;
    return (float)((t - 9.0) / 1.5) * GEN_DOOR_RISE;
}

int gen_demo(const char *outdir)
{
    qw_demo_t d;
    qw_init(&d);
    static const float zero[3] = { 0, 0, 0 };

    // ---- signon: server info, precaches, view entity
    qw_cdtrack(&d, "-1\n");
    qw_block_begin(&d, zero);
    qw_text(&d, QW_SVC_PRINT, "\2\ndemoplay built-in demo (made by assets/builtin)\n");
    qw_serverinfo(&d, 15, 0, 1, 0, "The demoplay built-in level", model_names, NUM_MODELS, sound_names, NUM_SOUNDS);
    qw_byte(&d, QW_SVC_CDTRACK);
    qw_byte(&d, 0);
    qw_byte(&d, 0);
    qw_byte(&d, QW_SVC_SETVIEW);
    qw_short(&d, E_PLAYER);
    qw_byte(&d, QW_SVC_SIGNONNUM);
    qw_byte(&d, 1);
    qw_block_end(&d);

    // ---- signon 2: statics and baselines
    entity_state_t base[NUM_ENTITIES], s;
    memset(base, 0, sizeof(base));
    qw_block_begin(&d, zero);
    // glowing orbs by the lights, and the hum of a machine in room B
    for (int i = 0; i < GEN_NUM_LIGHTS; i++) {
        set_state(&s, M_GLOW, 0, 0, gen_lights[i].x, gen_lights[i].y, gen_lights[i].z + 8, 0);
        qw_baseline(&d, -1, 0, 0, &s, 0, 0);
    }
    qw_byte(&d, QW_SVC_SPAWNSTATICSOUND);
    qw_coord(&d, CX(18));
    qw_coord(&d, CY(1));
    qw_coord(&d, 64);
    qw_byte(&d, S_HUM);
    qw_byte(&d, 200);
    qw_byte(&d, 64 * 3);   // static attenuation
    set_state(&base[E_PLAYER], M_PLAYER, 0, 1, GEN_START_X, GEN_START_Y, GEN_START_Z, 0);
    set_state(&base[E_DOOR], M_DOOR, 0, 0, 0, 0, 0, 0);
    set_state(&base[E_GEM1], M_GEM, 0, 0, CX(5), CY(2), 16, 0);
    set_state(&base[E_GEM2], M_GEM, 0, 0, CX(2), CY(5), 16, 0);
    set_state(&base[E_GEM3], M_GEM, 0, 0, CX(14), CY(3), GEN_WATER_Z + 24, 0);
    walker1(0, &base[E_WALKER1]);
    walker2(0, &base[E_WALKER2]);
    for (int n = 1; n < NUM_ENTITIES; n++)
        qw_baseline(&d, n, 0, 0, &base[n], 0, 0);
    qw_byte(&d, QW_SVC_SIGNONNUM);
    qw_byte(&d, 2);
    qw_block_end(&d);

    // ---- the frames
    uint32_t items = IT_SHOTGUN | IT_SHELLS | IT_AXE;
    int armor = 0, shells = 25;
    int frames = (int)(LENGTH * FPS);
    for (int f = 0; f <= frames; f++) {
        double t = 1.0 + f / (double)FPS;   // server time starts at 1 s, as Quake's does
        double dt = t - 1.0;                // demo-relative time for the script
        cam_key_t cam = camera(dt);
        float ang[3] = { cam.pitch, cam.yaw, 0 };
        qw_block_begin(&d, ang);
        qw_time(&d, (float)t);
        if (f == 0) {
            qw_byte(&d, QW_SVC_UPDATENAME);
            qw_byte(&d, 0);
            qw_string(&d, "visitor");
            qw_byte(&d, QW_SVC_UPDATECOLORS);
            qw_byte(&d, 0);
            qw_byte(&d, 4 << 4 | 13);   // shirt red, pants blue
            lightstyle(&d, 0, "m");
            lightstyle(&d, 1, "mmnmmommommnonmmonqnmmo");   // Quake's flicker
            updatestat(&d, 11, 0);   // total secrets
            updatestat(&d, 12, 1);   // total monsters
            qw_byte(&d, QW_SVC_SETANGLE);
            for (int k = 0; k < 3; k++)
                qw_angle(&d, ang[k]);
            qw_text(&d, QW_SVC_CENTERPRINT, "Welcome to demoplay\nthe built-in demo");
        }
        // the script's events, each in the frame that reaches its time
        double t0 = dt - 0.5 / FPS, t1 = dt + 0.5 / FPS;
#define AT(x) ((x) >= t0 && (x) < t1)
        if (AT(5.0)) {
            items |= IT_ARMOR1;
            armor = 100;
            sound_at(&d, E_PLAYER, 3, S_PICKUP, cam.x, cam.y, cam.z);
            qw_text(&d, QW_SVC_PRINT, "You got the green armor\n");
            qw_text(&d, QW_SVC_STUFFTEXT, "bf\n");
        }
        if (AT(9.0))
            sound_at(&d, E_DOOR, 1, S_DOOR_START, CX(8), CY(3), 64);
        if (AT(10.5))
            sound_at(&d, E_DOOR, 1, S_DOOR_STOP, CX(8), CY(3), 64);
        if (AT(11.0))
            qw_text(&d, QW_SVC_PRINT, "The door is open\n");
        if (AT(16.0))
            temp_entity(&d, TE_TELEPORT, CX(14), CY(3), GEN_WATER_Z + 24);
        if (AT(23.0))
            sound_at(&d, E_PLAYER, 4, S_LAND, cam.x, cam.y, cam.z);
        if (AT(26.0)) {
            sound_at(&d, E_PLAYER, 1, S_GUN, cam.x, cam.y, cam.z);
            shells--;
        }
        if (AT(26.4))
            temp_entity(&d, TE_EXPLOSION, CX(15), CY(10), 48);
        if (AT(28.0))
            qw_text(&d, QW_SVC_CENTERPRINT, "Now play a real demo:\ndemoplay play --basedir QUAKEDIR FILE.dem");
        // a fountain of sparks in the courtyard, twice a second
        if (f % 10 == 0)
            particles(&d, CX(3), CY(10), 8, 0, 0, 127, 24, GP(GP_GOLD, 15));
#undef AT
        int weaponframe = dt >= 26.0 && dt < 26.3 ? 1 : 0;
        clientdata(&d, items, weaponframe, armor, 100, shells);

        // entities present in this frame
        set_state(&s, M_PLAYER, 0, 1, cam.x, cam.y, cam.z, cam.yaw);
        if (weaponframe)
            s.raw_effects = 2;   // EF_MUZZLEFLASH
        update(&d, E_PLAYER, &base[E_PLAYER], &s);
        s = base[E_DOOR];
        s.origin[2] = door_z(dt);
        update(&d, E_DOOR, &base[E_DOOR], &s);
        if (dt < 5.0)
            update(&d, E_GEM1, &base[E_GEM1], &base[E_GEM1]);
        s = base[E_GEM2];
        s.raw_effects = 8;   // EF_DIMLIGHT: it glows (baselines carry no effects)
        update(&d, E_GEM2, &base[E_GEM2], &s);
        if (dt >= 16.0)   // appears with the teleport flash over the pool
            update(&d, E_GEM3, &base[E_GEM3], &base[E_GEM3]);
        walker1(dt, &s);
        update(&d, E_WALKER1, &base[E_WALKER1], &s);
        walker2(dt, &s);
        update(&d, E_WALKER2, &base[E_WALKER2], &s);
        qw_block_end(&d);
    }
    // Quake ends a recording with a disconnect
    qw_block_begin(&d, zero);
    qw_byte(&d, QW_SVC_DISCONNECT);
    qw_block_end(&d);

    int rc = -1;
    if (d.oom)
        fprintf(stderr, "mkbuiltin: out of memory writing the demo\n");
    else
        rc = gen_write(outdir, "demos/builtin.dem", d.data, d.size);
    qw_free(&d);
    return rc;
}
