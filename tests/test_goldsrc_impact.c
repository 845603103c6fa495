// test_goldsrc_impact.c -- the bullets of Half-Life's and Counter-Strike's client events, heard where
// they hit: sound/materials.txt's reading (assets/hlmat.c), the clients' rules for the texture's
// sound and the ricochets (audio/snd_client.c), the bullets traced through c1a0 and crossfire by the
// shared trace (engine/hlbullet.c), and the sound track an OpenAL loopback mixes from c1a0 with shots
// in its log and a mod folder of generated tones under the impact sounds' names.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/bsp.h"
#include "assets/hlmat.h"
#include "audio/snd.h"
#include "audio/snd_local.h"
#include "engine/hlbullet.h"
#include "engine/hltent.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_local.h"
#include "render/render.h"

#define TW 64
#define TH 48
#include "hl_level.h"

#define RATE 48000

// c1a0's walls as the shared trace names them (a world face, a brush entity's)
static const char *const materials_txt =
    "// demoplay test materials\n"
    "\n"
    "M c2a4e_w1b\n"
    "w generic015v2\t\n"
    "G lab1_door2a\n"
    "  T   crossfire_x\n"
    "1 not_a_type\n"
    "V last_line_without_newline";

// ---- sound/materials.txt -------------------------------------------------------------------

static void test_materials(void **state)
{
    (void)state;
    hlmat_t m;
    assert_int_equal(hlmat_load(&m, materials_txt, strlen(materials_txt), HLMAT_HL), 4);
    // sorted without case; the lower-case letter upper-cased; the digit line and the last line
    // (no blank after its name) skipped
    assert_string_equal(m.names[0], "c2a4e_w1b");
    assert_string_equal(m.names[1], "crossfire_x");
    assert_int_equal(m.types[1], 'T');
    assert_int_equal(hlmat_type(&m, "c2a4e_w1b"), HLMAT_METAL);
    assert_int_equal(hlmat_type(&m, "C2A4E_W1B"), HLMAT_METAL);        // without case
    assert_int_equal(hlmat_type(&m, "generic015v2"), HLMAT_WOOD);
    assert_int_equal(hlmat_type(&m, "-0generic015v2"), HLMAT_WOOD);    // random tiling prefix
    assert_int_equal(hlmat_type(&m, "+Ageneric015v2"), HLMAT_WOOD);    // animation prefix
    assert_int_equal(hlmat_type(&m, "{lab1_door2a"), HLMAT_GRATE);     // see-through prefix
    assert_int_equal(hlmat_type(&m, "!lab1_door2a"), HLMAT_GRATE);     // water
    assert_int_equal(hlmat_type(&m, "-0{lab1_door2a"), HLMAT_GRATE);   // both
    assert_int_equal(hlmat_type(&m, "last_line_wit"), HLMAT_CONCRETE); // not read
    assert_int_equal(hlmat_type(&m, "c2a4e"), HLMAT_CONCRETE);         // unknown: concrete
    assert_int_equal(hlmat_type(&m, ""), HLMAT_CONCRETE);
    assert_int_equal(hlmat_type(&m, NULL), HLMAT_CONCRETE);
    // Half-Life compares 12 characters, Counter-Strike 16
    const char *lng = "M abcdefghijklmnopq\n";
    assert_int_equal(hlmat_load(&m, lng, strlen(lng), HLMAT_HL), 1);
    assert_string_equal(m.names[0], "abcdefghijkl");
    assert_int_equal(hlmat_type(&m, "abcdefghijklXYZ"), HLMAT_METAL);
    assert_int_equal(hlmat_load(&m, lng, strlen(lng), HLMAT_CS), 1);
    assert_string_equal(m.names[0], "abcdefghijklmnop");
    assert_int_equal(hlmat_type(&m, "abcdefghijklXYZ"), HLMAT_CONCRETE);
    assert_int_equal(hlmat_type(&m, "abcdefghijklmnop"), HLMAT_METAL);
    // no file: every texture concrete
    assert_int_equal(hlmat_load(&m, NULL, 0, HLMAT_HL), 0);
    assert_int_equal(hlmat_type(&m, "c2a4e_w1b"), HLMAT_CONCRETE);
    // Half-Life keeps 512 entries, Counter-Strike 1024
    size_t cap = 1100 * 16 + 1;
    char *big = malloc(cap);
    assert_non_null(big);
    size_t len = 0;
    for (int i = 0; i < 1100; i++)
        len += (size_t)snprintf(big + len, cap - len, "D t%05d\n", i);
    assert_int_equal(hlmat_load(&m, big, len, HLMAT_HL), 512);
    assert_int_equal(hlmat_type(&m, "t00511"), HLMAT_DIRT);
    assert_int_equal(hlmat_type(&m, "t00512"), HLMAT_CONCRETE);
    assert_int_equal(hlmat_load(&m, big, len, HLMAT_CS), 1024);
    assert_int_equal(hlmat_type(&m, "t01023"), HLMAT_DIRT);
    free(big);
}

// ---- the clients' rules --------------------------------------------------------------------

static int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

static void test_bullet_rules(void **state)
{
    (void)state;
    hlmat_t hl, cs;
    hlmat_load(&hl, materials_txt, strlen(materials_txt), HLMAT_HL);
    hlmat_load(&cs, materials_txt, strlen(materials_txt), HLMAT_CS);
    hlbullet_t b;
    memset(&b, 0, sizeof b);
    b.model = 0;
    b.entity = 0;
    b.endpos[0] = 10;
    b.endpos[1] = 20;
    b.endpos[2] = 30;
    snprintf(b.texture, sizeof b.texture, "c2a4e_w1b");   // metal
    snd_req_t r[4];
    int metal[2] = {0}, ric[5] = {0}, rics = 0, lowest = 200, highest = 0;
    for (uint32_t seed = 0; seed < 4000; seed++) {
        int n = snd_client_hl_bullet(&b, HLBULLET_SOUND_HL, &hl, seed, r, 4);
        assert_true(n == 1 || n == 2);
        // EV_HLDM_PlayTextureSound: at the hit, entity 0, volume 0.9, ATTN_NORM, pitch 96..111
        assert_true(starts(r[0].name, "player/pl_metal"));
        metal[r[0].name[15] - '1']++;
        assert_float_equal(r[0].volume, 0.9, 1e-6);
        assert_float_equal(r[0].attenuation, 0.8, 1e-6);
        assert_int_equal(r[0].entity, 0);
        assert_int_equal(r[0].channel, 0);
        assert_int_equal(r[0].has_origin, 1);
        assert_float_equal(r[0].origin[2], 30, 0);
        int p = (int)lroundf(r[0].pitch * 100);
        lowest = p < lowest ? p : lowest;
        highest = p > highest ? p : highest;
        if (n == 2) {   // the ricochet: one of ric1..5 at volume 1, ATTN_NORM, pitch 100
            assert_true(starts(r[1].name, "weapons/ric"));
            int k = atoi(r[1].name + 11);
            assert_true(k >= 1 && k <= 5);
            ric[k - 1]++;
            rics++;
            assert_float_equal(r[1].volume, 1.0, 0);
            assert_float_equal(r[1].attenuation, 0.8, 1e-6);
            assert_float_equal(r[1].pitch, 0, 0);   // the sample's own
            assert_int_equal(r[1].entity, -1);
            assert_float_equal(r[1].origin[0], 10, 0);
        }
    }
    printf("  metal: pl_metal1 %d, pl_metal2 %d; ricochets %d of 4000; pitch %d..%d\n", metal[0], metal[1], rics,
           lowest, highest);
    assert_true(metal[0] > 1800 && metal[1] > 1800);
    assert_true(rics > 1850 && rics < 2150);   // RandomLong(0, 0x7fff) < 0x7fff / 2
    for (int k = 0; k < 5; k++)
        assert_true(ric[k] > 300);
    assert_int_equal(lowest, 96);
    assert_int_equal(highest, 111);
    // another material, another sound: wood (debris/wood1..3, 0.9), vent (pl_duct1, 0.5), unknown: concrete
    static const struct { const char *tex; const char *prefix; float vol; } mats[] = {
        {"generic015v2", "debris/wood", 0.9f}, {"-0generic015v2", "debris/wood", 0.9f},
        {"no_such_tex", "player/pl_step", 0.9f}, {"", "player/pl_step", 0.9f},
    };
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++) {
        snprintf(b.texture, sizeof b.texture, "%s", mats[i].tex);
        for (uint32_t seed = 0; seed < 50; seed++) {
            assert_true(snd_client_hl_bullet(&b, HLBULLET_SOUND_HL, &hl, seed, r, 4) >= 1);
            assert_true(starts(r[0].name, mats[i].prefix));
            assert_float_equal(r[0].volume, mats[i].vol, 1e-6);
        }
    }
    // a brush entity (a door): no texture type, concrete whatever its texture
    snprintf(b.texture, sizeof b.texture, "lab1_door2a");
    b.model = 13;
    b.entity = 57;
    assert_true(snd_client_hl_bullet(&b, HLBULLET_SOUND_HL, &hl, 1, r, 4) >= 1);
    assert_true(starts(r[0].name, "player/pl_step"));
    b.entity = 0;
    b.model = 0;
    assert_true(snd_client_hl_bullet(&b, HLBULLET_SOUND_HL, &hl, 1, r, 4) >= 1);
    assert_true(starts(r[0].name, "player/pl_grate"));   // the same texture on the world: grate
    // buckshot: the ricochet only; a tracer or a miss: nothing
    int heard = 0;
    for (uint32_t seed = 0; seed < 400; seed++) {
        int n = snd_client_hl_bullet(&b, HLBULLET_SOUND_HL_BUCK, &hl, seed, r, 4);
        assert_true(n <= 1);
        if (n)
            assert_true(starts(r[0].name, "weapons/ric"));
        heard += n;
    }
    assert_true(heard > 150 && heard < 250);
    b.tracer = 1;
    assert_int_equal(snd_client_hl_bullet(&b, HLBULLET_SOUND_HL, &hl, 1, r, 4), 0);
    b.tracer = 0;
    b.model = -1;
    assert_int_equal(snd_client_hl_bullet(&b, HLBULLET_SOUND_HL, &hl, 1, r, 4), 0);
    b.model = 0;
    // Counter-Strike: metal and vents ricochet as ric_metal-1/2, the rest as ric1..5 and ric_conc-1/2
    int csric[7] = {0}, csmetal = 0;
    snprintf(b.texture, sizeof b.texture, "c2a4e_w1b");
    for (uint32_t seed = 0; seed < 2000; seed++) {
        int n = snd_client_hl_bullet(&b, HLBULLET_SOUND_CS, &cs, seed, r, 4);
        assert_true(starts(r[0].name, "player/pl_metal"));
        if (n == 2) {
            assert_true(starts(r[1].name, "weapons/ric_metal-"));
            csmetal++;
        }
    }
    assert_true(csmetal > 900 && csmetal < 1100);
    snprintf(b.texture, sizeof b.texture, "generic015v2");
    static const char *const csnames[7] = {"weapons/ric1.wav", "weapons/ric2.wav", "weapons/ric3.wav",
                                           "weapons/ric4.wav", "weapons/ric5.wav", "weapons/ric_conc-1.wav",
                                           "weapons/ric_conc-2.wav"};
    for (uint32_t seed = 0; seed < 4000; seed++)
        if (snd_client_hl_bullet(&b, HLBULLET_SOUND_CS, &cs, seed, r, 4) == 2)
            for (int k = 0; k < 7; k++)
                csric[k] += !strcmp(r[1].name, csnames[k]);
    for (int k = 0; k < 7; k++)
        assert_true(csric[k] > 200);
    // a wall's far side (a bullet through it, the trace back): no texture sound, the ricochet one
    // time in two, by the front's material (metal: ric_metal), whatever the far side's texture
    b.exit = 1;
    b.type = HLMAT_METAL;
    int exits = 0;
    for (uint32_t seed = 0; seed < 2000; seed++) {
        int n = snd_client_hl_bullet(&b, HLBULLET_SOUND_CS, &cs, seed, r, 4);
        assert_true(n <= 1);
        if (n)
            assert_true(starts(r[0].name, "weapons/ric_metal-"));
        exits += n;
    }
    printf("  Counter-Strike far sides: %d ricochets of 2000, no texture sound\n", exits);
    assert_true(exits > 900 && exits < 1100);
    b.exit = 0;
    b.type = 0;
    // the newer cs16-client's isSky (engine/hlbullet.c sets `sky` on a hit on the world's "sky"):
    // EV_HLDM_PlayTextureSound still sounds it (concrete: "sky" is in no materials.txt), and
    // EV_HLDM_DecalGunshot returns before its trace's ricochet: never one in 2000 seeds
    snprintf(b.texture, sizeof b.texture, "sky");
    b.sky = 1;
    for (uint32_t seed = 0; seed < 2000; seed++) {
        assert_int_equal(snd_client_hl_bullet(&b, HLBULLET_SOUND_CS, &cs, seed, r, 4), 1);
        assert_true(starts(r[0].name, "player/pl_step"));
        assert_float_equal(r[0].volume, 0.9, 1e-6);
    }
    b.sky = 0;
    int skyrics = 0;
    for (uint32_t seed = 0; seed < 2000; seed++)
        skyrics += snd_client_hl_bullet(&b, HLBULLET_SOUND_CS, &cs, seed, r, 4) == 2;
    printf("  Counter-Strike on \"sky\": no ricochet of 2000 (%d without isSky)\n", skyrics);
    assert_true(skyrics > 900 && skyrics < 1100);
    // snow is Counter-Strike's alone
    const char *snow = "N snowy\n";
    hlmat_load(&cs, snow, strlen(snow), HLMAT_CS);
    hlmat_load(&hl, snow, strlen(snow), HLMAT_HL);
    snprintf(b.texture, sizeof b.texture, "snowy");
    assert_true(snd_client_hl_bullet(&b, HLBULLET_SOUND_CS, &cs, 3, r, 4) >= 1);
    assert_true(starts(r[0].name, "debris/pl_snow"));
    assert_float_equal(r[0].volume, 0.7, 1e-6);
    assert_true(snd_client_hl_bullet(&b, HLBULLET_SOUND_HL, &hl, 3, r, 4) >= 1);
    assert_true(starts(r[0].name, "player/pl_step"));
}

// ---- the bullets through real levels ---------------------------------------------------------

// The recording player's glock shot along its view turned by pitch / yaw (as the decoder logs it).
static world_decal_t *shoot(world_t *w, float pitch, float yaw, uint32_t seed)
{
    world_decal_t *ev = world_add_decal(w);
    snprintf(ev->script, sizeof ev->script, "glock1");
    ev->entity = 1;
    ev->local = 1;
    ev->seed = seed;
    ev->eye_valid = 1;
    memcpy(ev->eye, w->view.origin, sizeof ev->eye);
    ev->eye_angles[0] = pitch;
    ev->eye_angles[1] = w->view.angles[1] + yaw;
    return ev;
}

static float dist(const float *a, const float *b)
{
    return sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

// The zoomed crossbow's bolt striking the world (EV_FireCrossbow2): weapons/xbow_hit1.wav at the
// hit on entity 0, CHAN_BODY, volume 0.95..1 (every value over 200 seeds in range, not all the
// same), ATTN_NORM 0.8, the normal pitch. Striking a player: xbow_hitbod1 or 2 (both over 200
// seeds) on the shooter's entity, CHAN_BODY, volume 1, ATTN_NORM, at the hit; never xbow_hit1.
static void test_crossbow_sound(void **state)
{
    (void)state;
    snd_req_t r[4];
    const float at[3] = { 10, 20, 30 };
    float lo = 2, hi = 0;
    int bod[2] = {0, 0};
    for (uint32_t seed = 1; seed <= 200; seed++) {
        assert_int_equal(snd_client_hl_crossbow(at, 0, 3, seed, r, 4), 1);
        assert_string_equal(r[0].name, "weapons/xbow_hit1.wav");
        assert_int_equal(r[0].entity, 0);
        assert_int_equal(r[0].channel, 4);   // CHAN_BODY
        assert_true(r[0].volume >= 0.95f && r[0].volume <= 1.0f);
        assert_true(fabsf(r[0].attenuation - 0.8f) < 1e-6f);
        assert_true(r[0].has_origin && r[0].origin[2] == 30);
        lo = r[0].volume < lo ? r[0].volume : lo;
        hi = r[0].volume > hi ? r[0].volume : hi;
        assert_int_equal(snd_client_hl_crossbow(at, 1, 3, seed, r, 4), 1);
        assert_true(starts(r[0].name, "weapons/xbow_hitbod"));
        bod[0] += !strcmp(r[0].name, "weapons/xbow_hitbod1.wav");
        bod[1] += !strcmp(r[0].name, "weapons/xbow_hitbod2.wav");
        assert_int_equal(r[0].entity, 3);
        assert_int_equal(r[0].channel, 4);
        assert_float_equal(r[0].volume, 1.0, 1e-6);
        assert_true(fabsf(r[0].attenuation - 0.8f) < 1e-6f);
        assert_true(r[0].has_origin && r[0].origin[0] == 10 && r[0].origin[2] == 30);
        assert_true(r[0].pitch == 0.0f || r[0].pitch == 1.0f);
    }
    printf("crossbow sounds: xbow_hit1 volume %.3f..%.3f; on a player hitbod1 %d, hitbod2 %d of 200\n", lo, hi, bod[0],
           bod[1]);
    assert_true(hi - lo > 0.03f);
    assert_true(bod[0] > 60 && bod[1] > 60 && bod[0] + bod[1] == 200);
    assert_int_equal(snd_client_hl_crossbow(at, 0, 3, 1, r, 0), 0);
    assert_int_equal(snd_client_hl_crossbow(at, 1, 3, 1, r, 0), 0);
}

// c1a0's tram at 0.33 s: to the right a wall of the world (c2a4e_w1b), below the floor
// (generic015v2), ahead a door (entity 123, lab1_door2a); each bullet stops on it, and the texture
// under the hit is the one the materials name, so each sounds its own material.
static void test_c1a0_bullets(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    hlmat_t m;
    hlmat_load(&m, materials_txt, strlen(materials_txt), HLMAT_HL);
    static const struct {
        float pitch, yaw;
        int model, entity;
        const char *texture, *sound;
        float dist;
    } shots[] = {
        {0, 90, 0, 0, "c2a4e_w1b", "player/pl_metal", 102},
        {60, 0, 0, 0, "generic015v2", "debris/wood", 74},
        {0, 0, 32, 123, "lab1_door2a", "player/pl_step", 156},
    };
    for (size_t i = 0; i < sizeof shots / sizeof shots[0]; i++) {
        world_decal_t *ev = shoot(w, shots[i].pitch, shots[i].yaw, 777);
        hlbullet_t b[HLBULLET_MAX];
        int kind = -1;
        assert_int_equal(hlbullet_fire(L.r->bsp, w, ev, NULL, b, HLBULLET_MAX, &kind), 1);
        assert_int_equal(kind, HLBULLET_SOUND_HL);
        printf("  pitch %3.0f yaw %3.0f: model %d entity %d '%s' %.1f units\n", shots[i].pitch, shots[i].yaw,
               b[0].model, b[0].entity, b[0].texture, dist(b[0].src, b[0].endpos));
        assert_int_equal(b[0].model, shots[i].model);
        assert_int_equal(b[0].entity, shots[i].entity);
        assert_string_equal(b[0].texture, shots[i].texture);
        assert_true(fabsf(dist(b[0].src, b[0].endpos) - shots[i].dist) < 1.0f);
        assert_int_equal(b[0].tracer, 0);
        assert_true(b[0].decal >= 1 && b[0].decal <= 5);
        snd_req_t r[4];
        assert_true(snd_client_hl_bullet(&b[0], kind, &m, 9, r, 4) >= 1);
        assert_true(starts(r[0].name, shots[i].sound));
        assert_memory_equal(r[0].origin, b[0].endpos, sizeof(vec3_t));
    }
    // the shotgun: 6 pellets, each where it stops, sounding only ricochets
    world_decal_t *ev = shoot(w, 60, 0, 4242);
    snprintf(ev->script, sizeof ev->script, "shotgun1");
    hlbullet_t b[HLBULLET_MAX];
    int kind = -1;
    assert_int_equal(hlbullet_fire(L.r->bsp, w, ev, NULL, b, HLBULLET_MAX, &kind), 6);
    assert_int_equal(kind, HLBULLET_SOUND_HL_BUCK);
    // the crowbar fires nothing
    snprintf(ev->script, sizeof ev->script, "crowbar");
    assert_int_equal(hlbullet_fire(L.r->bsp, w, ev, NULL, b, HLBULLET_MAX, &kind), 0);
    close_level(&L);
}

// crossfire's ten usp shots (Counter-Strike's rules) hit the wall 1250 units ahead: the world,
// its texture named, every one a hit the client sounds (too far to be heard: ATTN_NORM fades to
// nothing at 1000 / 0.8 = 1250 units).
static void test_crossfire_bullets(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size = 0;
    uint8_t *data = tu_read(tu_data("goldsrc/demos/cstrike_crossfire.dem"), &size);
    assert_non_null(data);
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    world_t *w = world_create();
    void *st = calloc(1, hl_decoder.state_size);
    dec_error_t err;
    dec_opts_t opts = {0};
    assert_int_equal(hl_decoder.open(st, data, size, w, &opts, &err), 0);
    bsp_t *bsp = NULL;
    int fired = 0, hits = 0;
    uint32_t seen = 0;
    char texture[16] = "";
    while (hl_decoder.read_frame(st, w, &err) > 0) {
        if (!bsp && w->map[0]) {
            size_t n = 0;
            uint8_t *b = vfs_load(fs, w->map, &n);
            assert_non_null(b);
            char e[256];
            bsp = bsp_load(b, n, w->map, e, sizeof e);
            assert_non_null(bsp);
            free(b);
        }
        for (; seen < w->decal_log_count; seen++) {
            const world_decal_t *l = &w->decal_log[seen % WORLD_MAX_DECAL_LOG];
            hlbullet_t b[HLBULLET_MAX];
            int kind = -1;
            assert_int_equal(hlbullet_fire(bsp, w, l, NULL, b, HLBULLET_MAX, &kind), 1);
            assert_int_equal(kind, HLBULLET_SOUND_CS);
            fired++;
            if (b[0].model != 0)
                continue;
            hits++;
            assert_int_equal(b[0].entity, 0);
            if (!texture[0])
                snprintf(texture, sizeof texture, "%s", b[0].texture);
            assert_string_equal(b[0].texture, texture);
            assert_true(fabsf(b[0].endpos[1] + 1632.0f) < 1.0f);   // the wall's plane
            snd_req_t r[4];
            assert_true(snd_client_hl_bullet(&b[0], kind, NULL, l->seed, r, 4) >= 1);
            assert_true(starts(r[0].name, "player/pl_step"));   // no materials: concrete
        }
    }
    printf("  crossfire: %d usp bullets, %d on the world's '%s'\n", fired, hits, texture);
    assert_int_equal(fired, 10);
    assert_int_equal(hits, 10);
    assert_true(texture[0] != 0);
    bsp_free(bsp);
    hl_decoder.close(st);
    free(st);
    world_free(w);
    vfs_free(fs);
    free(data);
}

// ---- the sound track ---------------------------------------------------------------------------

// The last sample after t0 that is not silent, in seconds after t0 (0: none).
static double sounding(const int16_t *pcm, long frames, double t0, double t1)
{
    long a = (long)(t0 * RATE), last = -1;
    for (long i = a; i < (long)(t1 * RATE) && i < frames; i++)
        if (pcm[2 * i] || pcm[2 * i + 1])
            last = i;
    return last < 0 ? 0 : (double)(last - a) / RATE;
}

// c1a0 through a loopback with two glock shots in its log: at 0.3 s at the metal wall on the
// right, at 1.2 s at the wooden floor. The mod folder has sound/materials.txt and tones under the
// metal sounds' names (0.03 s) and the wood's (0.25 s), no ricochet or concrete sound: each shot
// is heard from its frame, as long as its material's tone, and the track is silent before and
// between them.
static void test_track(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/impactmod", tu_tmpdir(NULL));
    static const char *const metal[] = {"player/pl_metal1.wav", "player/pl_metal2.wav"};
    static const char *const wood[] = {"debris/wood1.wav", "debris/wood2.wav", "debris/wood3.wav"};
    char path[700];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/sound/%s", dir, metal[i]);
        tu_write_tone(path, 0.03, 440);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/sound/%s", dir, wood[i]);
        tu_write_tone(path, 0.25, 440);
    }
    snprintf(path, sizeof path, "%s/sound/materials.txt", dir);
    assert_int_equal(tu_write(path, materials_txt, strlen(materials_txt)), 0);
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    assert_int_equal(vfs_add_dir(fs, dir), 0);
    snd_t *s = snd_create_loopback(RATE, 1.0f);
    assert_non_null(s);
    snd_load_level(s, fs, w);
    hlmat_t m;
    hlmat_load(&m, materials_txt, strlen(materials_txt), HLMAT_HL);

    const double seconds = 2.0;
    long total = (long)(seconds * RATE) + RATE;
    int16_t *pcm = calloc((size_t)total * 2, sizeof *pcm);
    assert_non_null(pcm);
    double start = w->time, at[2] = {0, 0};
    int shot = 0;
    long pos = 0;
    dec_error_t err;
    while (hl_decoder.read_frame(L.st, w, &err) > 0 && w->time - start < seconds) {
        double t = w->time - start;
        if (shot < 2 && t > (shot == 0 ? 0.3 : 1.2)) {
            world_decal_t *ev = shot == 0 ? shoot(w, 0, 90, 1001) : shoot(w, 60, 0, 2002);
            // what the sound system should request: the same trace and rules beside it
            hlbullet_t b[HLBULLET_MAX];
            int kind;
            assert_int_equal(hlbullet_fire(L.r->bsp, w, ev, NULL, b, HLBULLET_MAX, &kind), 1);
            snd_req_t r[4];
            assert_true(snd_client_hl_bullet(&b[0], kind, &m, world_hash32(ev->seed), r, 4) >= 1);
            printf("  shot %d at %.3f s: '%s' -> %s (volume %.2f, attenuation %.2f, pitch %.2f)\n", shot, t,
                   b[0].texture, r[0].name, r[0].volume, r[0].attenuation, r[0].pitch);
            assert_true(starts(r[0].name, shot == 0 ? "player/pl_metal" : "debris/wood"));
            at[shot++] = t;
        }
        long upto = lround(t * RATE);
        if (upto > pos) {
            assert_int_equal(snd_render(s, pcm + 2 * pos, (int)(upto - pos)), 0);
            pos = upto;
        }
        snd_listener(s, w->view.origin, w->view.angles);
        snd_frame(s, w);
    }
    assert_int_equal(shot, 2);
    long upto = pos + RATE / 2;
    assert_int_equal(snd_render(s, pcm + 2 * pos, (int)(upto - pos)), 0);
    for (int i = 0; i < 2; i++) {
        double before = tu_energy(pcm, upto, RATE, at[i] - 0.2, at[i]);
        double after = tu_energy(pcm, upto, RATE, at[i], at[i] + 0.03);
        double len = sounding(pcm, upto, at[i], at[i] + 0.6);
        printf("  shot %d: energy before %.3g, after %.3g; sounding %.3f s\n", i, before, after, len);
        assert_true(before == 0);
        assert_true(after > 1e7);
        // the material's own tone: metal 0.03 s, wood 0.25 s (at pitch 0.96..1.11)
        if (i == 0)
            assert_true(len > 0.02 && len < 0.04);
        else
            assert_true(len > 0.2 && len < 0.27);
    }
    assert_true(tu_energy(pcm, upto, RATE, 0, at[0]) == 0);
    assert_true(tu_energy(pcm, upto, RATE, at[0] + 0.05, at[1]) == 0);
    free(pcm);
    snd_destroy(s);
    vfs_free(fs);
    close_level(&L);
}

// A bullet stops on another player (the clients' EV_SetSolidPlayers: every player but the
// shooter, as the box of his hull: standing -16 -16 -36 .. 16 16 36, ducking -16 -16 -18 .. 16 16
// 18): c1a0's glock shot at the
// metal wall 102 units to the left, with a second player put 60 units along its line, stops where
// it enters his box, leaves no decal, sounds as flesh (weapons/bullet_hit1 or 2, volume 1,
// attenuation 1) with no ricochet; the shooter's own box never stops it; a player beside the
// line (76 units over it) does not either; one 30 over it stops it standing, not ducking.
static void test_bullet_player(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    hlmat_t m;
    hlmat_load(&m, materials_txt, strlen(materials_txt), HLMAT_HL);
    hlbullet_t b[HLBULLET_MAX];
    int kind;
    assert_int_equal(hlbullet_fire(L.r->bsp, w, shoot(w, 0, 90, 777), NULL, b, HLBULLET_MAX, &kind), 1);
    assert_int_equal(b[0].model, 0);
    assert_int_equal(b[0].player, 0);
    float wall = dist(b[0].src, b[0].endpos), dir[3];
    for (int k = 0; k < 3; k++)
        dir[k] = (b[0].endpos[k] - b[0].src[k]) / wall;
    int pm = model_index(w, "models/player.mdl");
    assert_true(pm > 0);
    w->maxclients = 2;
    // on the line; beside it (over it by more than the box's 36 + 36); 30 over it standing (the
    // line crosses his box's lower half) and the same ducking (usehull 1: -18 .. 18, above the line)
    static const struct { float dz; int usehull, hit; const char *what; } cases[] = {
        {0, 0, 1, "on"}, {76, 0, 0, "beside"}, {30, 0, 1, "standing 30 over"}, {30, 1, 0, "ducking 30 over"}};
    for (int c = 0; c < 4; c++) {
        int side = !cases[c].hit;
        entity_state_t st;
        entity_state_clear(&st);
        st.modelindex = pm;
        st.solid_type = HL_SOLID_SLIDEBOX;   // alive (a dead player is SOLID_NOT)
        st.usehull = (uint8_t)cases[c].usehull;
        for (int k = 0; k < 3; k++)
            st.origin[k] = b[0].src[k] + 60 * dir[k];
        st.origin[2] += cases[c].dz;
        assert_int_equal(world_entity_update(w, 2, &st), 0);
        // the shooter (entity 1) stands at the gun: its own box is not in the way
        entity_state_t me;
        entity_state_clear(&me);
        me.modelindex = pm;
        memcpy(me.origin, b[0].src, sizeof me.origin);
        assert_int_equal(world_entity_update(w, 1, &me), 0);
        hlbullet_t p[HLBULLET_MAX];
        assert_int_equal(hlbullet_fire(L.r->bsp, w, shoot(w, 0, 90, 777), NULL, p, HLBULLET_MAX, &kind), 1);
        printf("  player %s the line: model %d player %d at %.1f units, decal %d\n", cases[c].what, p[0].model,
               p[0].player, dist(p[0].src, p[0].endpos), p[0].decal);
        snd_req_t r[4];
        int n = snd_client_hl_bullet(&p[0], kind, &m, 1234, r, 4);
        if (side) {
            assert_int_equal(p[0].player, 0);
            assert_int_equal(p[0].model, 0);
            assert_true(fabsf(dist(p[0].src, p[0].endpos) - wall) < 0.01f);
            continue;
        }
        assert_int_equal(p[0].player, 2);
        assert_int_equal(p[0].model, -1);
        assert_int_equal(p[0].decal, 0);
        // the box's near side: 16 units before the centre straight on, at most 16 x sqrt 2 slanted
        // (the line may be a little slanted: within 30 of his centre it still enters by a side)
        float d = dist(p[0].src, p[0].endpos);
        assert_true(d >= 60 - 16 * 1.4143f - 0.01f && d <= 60 - 16 + 0.01f);
        assert_int_equal(n, 1);   // the body's sound, no ricochet
        assert_true(starts(r[0].name, "weapons/bullet_hit"));
        assert_float_equal(r[0].volume, 1.0, 1e-6);
        assert_float_equal(r[0].attenuation, 1.0, 1e-6);
    }
    close_level(&L);
}

// A bullet on a monster (c1a0's scientist, entity 75 as decoded: SOLID_SLIDEBOX, -16 -16 0 .. 16
// 16 72, put 60 units along the glock shot of test_bullet_player): EV_HLDM_PlayTextureSound knows
// the world (entity 0) and the players only, so a monster sounds as its default, concrete
// (player/pl_step1 or 2, volume 0.9, ATTN_NORM 0.8), and, not being SOLID_BSP, never ricochets
// (400 seeds, where the wall's shot ricochets in about half).
static void test_bullet_monster_sound(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    hlmat_t m;
    hlmat_load(&m, materials_txt, strlen(materials_txt), HLMAT_HL);
    hlbullet_t b[HLBULLET_MAX];
    int kind;
    assert_int_equal(hlbullet_fire(L.r->bsp, w, shoot(w, 0, 90, 777), NULL, b, HLBULLET_MAX, &kind), 1);
    float wall = dist(b[0].src, b[0].endpos), dir[3];
    for (int k = 0; k < 3; k++)
        dir[k] = (b[0].endpos[k] - b[0].src[k]) / wall;
    int wall_rics = 0;
    for (uint32_t seed = 0; seed < 400; seed++) {
        snd_req_t r[4];
        wall_rics += snd_client_hl_bullet(&b[0], kind, &m, seed, r, 4) == 2;
    }
    entity_state_t st = w->entities[75].cur;
    assert_string_equal(w->models[st.modelindex], "models/scientist.mdl");
    assert_int_equal(st.solid_type, HL_SOLID_SLIDEBOX);
    for (int k = 0; k < 3; k++)
        st.origin[k] = b[0].src[k] + 60 * dir[k];
    st.origin[2] -= 36;
    assert_int_equal(world_entity_update(w, 75, &st), 0);
    assert_int_equal(hlbullet_fire(L.r->bsp, w, shoot(w, 0, 90, 777), NULL, b, HLBULLET_MAX, &kind), 1);
    assert_int_equal(b[0].monster, 75);
    int steps = 0, rics = 0;
    for (uint32_t seed = 0; seed < 400; seed++) {
        snd_req_t r[4];
        int n = snd_client_hl_bullet(&b[0], kind, &m, seed, r, 4);
        rics += n == 2;
        assert_int_equal(n, 1);
        assert_true(!strcmp(r[0].name, "player/pl_step1.wav") || !strcmp(r[0].name, "player/pl_step2.wav"));
        steps += !strcmp(r[0].name, "player/pl_step1.wav");
        assert_float_equal(r[0].volume, 0.9, 1e-6);
        assert_float_equal(r[0].attenuation, 0.8, 1e-6);
        assert_int_equal(r[0].entity, 0);
    }
    printf("a glock bullet on c1a0's scientist: pl_step1 in %d of 400 seeds, %d ricochets (on the wall: %d)\n", steps,
           rics, wall_rics);
    assert_true(steps > 100 && steps < 300);
    assert_int_equal(rics, 0);
    assert_true(wall_rics > 100);
    close_level(&L);
}

// The zoomed crossbow's shot heard through c1a0's loopback (audio/snd.c by hltent_crossbow_hit):
// at 0.3 s at the metal wall on the right (xbow_hit1: a 0.03 s tone in the mod folder), at 1.2 s
// the same shot with a second player put 60 units along its line: it stops on him (where his box
// begins, no bolt) and xbow_hitbod1 / 2 (0.25 s tones) are heard instead, not xbow_hit1.
static void test_crossbow_track(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    char dir[512], path[700];
    snprintf(dir, sizeof dir, "%s/xbowmod", tu_tmpdir(NULL));
    static const struct { const char *name; double len; } tones[] = {
        {"weapons/xbow_hit1.wav", 0.03}, {"weapons/xbow_hitbod1.wav", 0.25}, {"weapons/xbow_hitbod2.wav", 0.25}};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/sound/%s", dir, tones[i].name);
        tu_write_tone(path, tones[i].len, 440);
    }
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    assert_int_equal(vfs_add_dir(fs, dir), 0);
    snd_t *s = snd_create_loopback(RATE, 1.0f);
    assert_non_null(s);
    snd_load_level(s, fs, w);
    int pm = model_index(w, "models/player.mdl");
    assert_true(pm > 0);
    const double seconds = 2.0;
    long total = (long)(seconds * RATE) + RATE;
    int16_t *pcm = calloc((size_t)total * 2, sizeof *pcm);
    assert_non_null(pcm);
    double start = w->time, at[2] = {0, 0};
    int shot = 0;
    long pos = 0;
    dec_error_t err;
    while (hl_decoder.read_frame(L.st, w, &err) > 0 && w->time - start < seconds) {
        double t = w->time - start;
        if (shot < 2 && t > (shot == 0 ? 0.3 : 1.2)) {
            world_decal_t *ev = shoot(w, 0, 90, 31 + (uint32_t)shot);
            snprintf(ev->script, sizeof ev->script, "crossbow2");
            hlbullet_t b;
            vec3_t fwd;
            assert_int_equal(hltent_crossbow_hit(L.r->bsp, w, ev, &b, fwd), HLTENT_BOLT_WALL);
            float wall = dist(b.src, b.endpos);
            if (shot == 1) {
                w->maxclients = 2;
                entity_state_t st;
                entity_state_clear(&st);
                st.modelindex = pm;
                st.solid_type = HL_SOLID_SLIDEBOX;
                for (int k = 0; k < 3; k++)
                    st.origin[k] = b.src[k] + 60 * fwd[k];
                assert_int_equal(world_entity_update(w, 2, &st), 0);
                assert_int_equal(hltent_crossbow_hit(L.r->bsp, w, ev, &b, fwd), HLTENT_BOLT_BODY);
                assert_int_equal(b.player, 2);
            }
            printf("  shot %d at %.3f s: stops %.1f units out (the wall %.1f), player %d\n", shot, t,
                   dist(b.src, b.endpos), wall, b.player);
            assert_true(shot == 0 ? fabsf(dist(b.src, b.endpos) - 102) < 1
                                  : dist(b.src, b.endpos) >= 60 - 16 * 1.4143f && dist(b.src, b.endpos) <= 44.01f);
            at[shot++] = t;
        }
        long upto = lround(t * RATE);
        if (upto > pos) {
            assert_int_equal(snd_render(s, pcm + 2 * pos, (int)(upto - pos)), 0);
            pos = upto;
        }
        snd_listener(s, w->view.origin, w->view.angles);
        snd_frame(s, w);
    }
    assert_int_equal(shot, 2);
    long upto = pos + RATE / 2;
    assert_int_equal(snd_render(s, pcm + 2 * pos, (int)(upto - pos)), 0);
    for (int i = 0; i < 2; i++) {
        double before = tu_energy(pcm, upto, RATE, at[i] - 0.2, at[i]);
        double after = tu_energy(pcm, upto, RATE, at[i], at[i] + 0.03);
        double len = sounding(pcm, upto, at[i], at[i] + 0.6);
        printf("  shot %d: energy before %.3g, after %.3g; sounding %.3f s\n", i, before, after, len);
        assert_true(before == 0);
        assert_true(after > 1e7);
        if (i == 0)
            assert_true(len > 0.02 && len < 0.04);   // xbow_hit1
        else
            assert_true(len > 0.2 && len < 0.27);    // xbow_hitbod1 / 2, not xbow_hit1
    }
    free(pcm);
    snd_destroy(s);
    vfs_free(fs);
    close_level(&L);
}

// The view model's own sounds (studio event 5004): c1a0 through a loopback with the glock's view
// model (models/v_9mmhandgun.mdl, which shared/ has) put in the player's hand, its reload (sequence
// 5, 18 frames a second) begun at 0.3 s: the clip's sounds come where the animation passes frames 4
// (items/9mmclip2.wav) and 23 (items/9mmclip1.wav), at 0.3 + 4 / 18 and 0.3 + 23 / 18 s, not
// before; the same model idling (sequence 0, no events) is silent. Tones in a mod folder.
static void view_model_track(int seq, int16_t **pcm_out, long *frames_out, double *begun)
{
    level_t L;
    open_c1a0(&L, 40);
    world_t *w = L.w;
    char dir[512], path[700];
    snprintf(dir, sizeof dir, "%s/viewmod", tu_tmpdir(NULL));
    static const char *const clips[] = {"items/9mmclip1.wav", "items/9mmclip2.wav"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/sound/%s", dir, clips[i]);
        tu_write_tone(path, 0.03, 440);
    }
    vfs_t *fs = vfs_create();
    assert_int_equal(vfs_add_dir(fs, tu_data("goldsrc/valve")), 0);
    assert_int_equal(vfs_add_dir(fs, dir), 0);
    int vm = model_index(w, "models/v_9mmhandgun.mdl");
    if (!vm) {
        vm = w->num_models;
        assert_int_equal(world_set_model(w, vm, "models/v_9mmhandgun.mdl"), 0);
    }
    snd_t *s = snd_create_loopback(RATE, 1.0f);
    assert_non_null(s);
    snd_load_level(s, fs, w);
    const double seconds = 2.0;
    long total = (long)(seconds * RATE) + RATE;
    int16_t *pcm = calloc((size_t)total * 2, sizeof *pcm);
    assert_non_null(pcm);
    double start = w->time, anim = -1;
    long pos = 0;
    dec_error_t err;
    while (hl_decoder.read_frame(L.st, w, &err) > 0 && w->time - start < seconds) {
        double t = w->time - start;
        if (anim < 0 && t > 0.3)
            anim = w->time;
        if (anim >= 0) {   // the demo's own view (no weapon) replaced in every frame
            w->view.stats[STAT_WEAPON] = vm;
            w->view.stats[STAT_WEAPONFRAME] = seq;
            w->view.weaponanim_time = anim;
        }
        long upto = lround(t * RATE);
        if (upto > pos) {
            assert_int_equal(snd_render(s, pcm + 2 * pos, (int)(upto - pos)), 0);
            pos = upto;
        }
        snd_listener(s, w->view.origin, w->view.angles);
        snd_frame(s, w);
    }
    long upto = pos + RATE / 2;
    assert_int_equal(snd_render(s, pcm + 2 * pos, (int)(upto - pos)), 0);
    *pcm_out = pcm;
    *frames_out = upto;
    *begun = anim - start;
    snd_destroy(s);
    vfs_free(fs);
    close_level(&L);
}

static void test_view_model_sounds(void **state)
{
    (void)state;
    TU_REQUIRE_FULL_BUILD();
    TU_REQUIRE_DATA();
    int16_t *pcm;
    long n;
    double begun;
    view_model_track(5, &pcm, &n, &begun);
    double at[2] = {begun + 4 / 18.0, begun + 23 / 18.0};
    for (int i = 0; i < 2; i++) {
        double before = tu_energy(pcm, n, RATE, at[i] - 0.15, at[i] - 0.02);
        double after = tu_energy(pcm, n, RATE, at[i], at[i] + 0.06);
        double len = sounding(pcm, n, at[i] - 0.02, at[i] + 0.5);
        printf("  clip %d at %.3f s: energy before %.3g, after %.3g, sounding %.3f s\n", i, at[i], before, after, len);
        assert_true(before == 0);
        assert_true(after > 1e7);
    }
    assert_true(tu_energy(pcm, n, RATE, 0, at[0] - 0.02) == 0);
    assert_true(tu_energy(pcm, n, RATE, at[0] + 0.1, at[1] - 0.02) == 0);
    assert_true(tu_energy(pcm, n, RATE, at[1] + 0.1, (double)n / RATE) == 0);
    free(pcm);
    view_model_track(0, &pcm, &n, &begun);   // idle1: no events
    assert_true(tu_energy(pcm, n, RATE, 0, (double)n / RATE) == 0);
    free(pcm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_materials),
        cmocka_unit_test(test_bullet_rules),
        cmocka_unit_test(test_crossbow_sound),
        cmocka_unit_test(test_c1a0_bullets),
        cmocka_unit_test(test_crossfire_bullets),
        cmocka_unit_test(test_bullet_player),
        cmocka_unit_test(test_bullet_monster_sound),
        cmocka_unit_test(test_crossbow_track),
        cmocka_unit_test(test_track),
        cmocka_unit_test(test_view_model_sounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
