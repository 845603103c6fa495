// test_forsaken_spotsnd.c -- Forsaken's spot effects' sounds (render/r_fsspot.c, render/r_fssnd.c):
// the sounds of arena's and therm's .FX by the game's tables, their starts and stops by the effects'
// cycles, the game's loudness numbers, and on arena: the pilot beside the fire wall gets its
// "firembls" loop while it is on (none while off), the level's placed loops in range at the game's
// gains, the "thermal" one-shot at the start of its active times; in an exported track (tones under the
// names) the fire wall's loop sounds while on and not while off, and an export begun at 12 s (the sound
// joined after a seek into an on time) has the whole's samples.
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assets/fsspot.h"
#include "assets/mxv.h"
#include "render/r_fssnd.h"
#include "render/r_fsspot.h"

#include "fs_scene.h"

// The sounds of the two levels' effects: names, looping by the game's tables, volume, no-pan.
static void test_level_sounds(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    static const char *const want[2][15] = {
        { "compamb1.wav", "thermal.wav", "largefan.wav", "largefan.wav", "compamb1.wav", "firembls.wav", "ffield2.wav",
          "windesol.wav", "", "compamb2.wav" },
        { "exp1.wav", "", "", "pumpamb1.wav", "thermal.wav", "thermal.wav", "thermal.wav", "firembls.wav",
          "firembls.wav", "firembls.wav", "firembls.wav", "firembls.wav", "firembls.wav", "exp1.wav", "exp1.wav" },
    };
    const char *lv[2] = { "arena", "therm" };
    for (int l = 0; l < 2; l++) {
        fsspot_t *fx = fs_scene_fx(lv[l]);
        int loops = 0, shots = 0;
        for (int i = 0; i < fx->count; i++) {
            r_fsspot_sound_t sn;
            int has = r_fsspot_sound(&fx->fx[i], &sn);
            assert_string_equal(has ? sn.name : "", want[l][i]);
            if (!has)
                continue;
            int is_loop = strcmp(sn.name, "thermal.wav") && strcmp(sn.name, "exp1.wav");
            assert_int_equal(sn.loops, is_loop);
            loops += sn.loops;
            shots += !sn.loops;
            assert_int_equal(sn.lead, strcmp(sn.name, "exp1.wav") ? 1 : 0);
            assert_int_equal(sn.centred, fx->fx[i].type == FSSPOT_SOUND && fx->fx[i].sound_type == 1);
        }
        r_fsspot_sound_t sn;
        r_fsspot_sound(&fx->fx[0], &sn);
        printf("%s: %d loops, %d one-shots; its first: %s volume %.2f\n", lv[l], loops, shots, sn.name, sn.volume);
        assert_int_equal(loops, l == 0 ? 8 : 7);
        assert_int_equal(shots, l == 0 ? 1 : 6);
        assert_float_equal(sn.volume, l == 0 ? 0.8 : 1.0, 1e-6);
        fsspot_free(fx);
    }
    assert_true(r_fssnd_loops("Compamb1"));
    assert_true(r_fssnd_loops("FIREMBLS.WAV"));
    assert_true(r_fssnd_loops("siren0301"));   // a variant's number dropped
    assert_false(r_fssnd_loops("thermal"));
    assert_false(r_fssnd_loops("exp1"));
    assert_false(r_fssnd_loops(""));
}

// The starts: arena's fire wall (180 ticks on, 120 off) at tick 1 of each on time, stopped where it
// ends; arena's placed sounds (on 60 ticks, then disabled): one start, never stopped; therm's (on 0,
// off 0): one start, for ever; a delay; a trigger's: never; the explosion at tick 0.
static void test_sound_cycle(void **state)
{
    (void)state;
    fsspot_fx_t fx;
    memset(&fx, 0, sizeof fx);
    fx.type = FSSPOT_FIRE_WALL;
    fx.active = 3;
    fx.inactive = 2;
    int playing;
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 0, &playing), -1);
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 1, &playing), 1);
    assert_true(playing);
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 179, &playing), 1);
    assert_true(playing);
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 180, &playing), 1);
    assert_false(playing);
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 300, &playing), 1);
    assert_false(playing);
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 301, &playing), 301);
    assert_true(playing);
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 3001, &playing), 3001);
    fx.inactive = -1;   // arena's placed sounds: disabled after the first active time, a loop goes on
    fx.active = 1;
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 100000, &playing), 1);
    assert_true(playing);
    fx.active = 0;      // therm's: no active or inactive time
    fx.inactive = 0;
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 5000, &playing), 1);
    assert_true(playing);
    fx.gen_type = 1;    // after a delay of 2 s (120 ticks)
    fx.gen_delay = 2;
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 120, &playing), -1);
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 121, &playing), 121);
    fx.gen_type = 2;
    assert_int_equal(r_fsspot_sound_start(&fx, 1, 5000, &playing), -1);
    fx.gen_type = 0;
    fx.type = FSSPOT_EXPLOSION;
    fx.active = 1;
    fx.inactive = -1;
    assert_int_equal(r_fsspot_sound_start(&fx, 0, 0, &playing), 0);
}

// StartPannedSfx's and ProcessLoopingSfx's numbers through sound_volume's 10^(mB / 2000).
static void test_loudness(void **state)
{
    (void)state;
    printf("one-shot: 0 %.4f, 1000 %.4f, 6143 %.4f, 6144 %.4f, MFRL (0.85) at 0 %.4f; loop: 0 %.4f, 2304 %.4f, "
           "4607 %.4f, 4608 %.4f, volume 0.8 at 0 %.4f\n",
           r_fssnd_gain(0, 1), r_fssnd_gain(1000, 1), r_fssnd_gain(6143, 1), r_fssnd_gain(6144, 1), r_fssnd_gain(0, 0.85f),
           r_fssnd_loop_gain(0, 1), r_fssnd_loop_gain(2304, 1), r_fssnd_loop_gain(4607, 1), r_fssnd_loop_gain(4608, 1),
           r_fssnd_loop_gain(0, 0.8f));
    assert_float_equal(r_fssnd_gain(0, 1), 1.0, 1e-6);
    assert_float_equal(r_fssnd_gain(1000, 1), pow(10, -600 / 2000.0), 1e-6);   // -600 mB
    assert_float_equal(r_fssnd_gain(6143, 1), pow(10, -3685 / 2000.0), 1e-6);
    assert_float_equal(r_fssnd_gain(6144, 1), 0.0, 0);
    assert_float_equal(r_fssnd_gain(-1, 1), 0.0, 0);
    assert_float_equal(r_fssnd_gain(0, 0.85f), pow(10, -500 / 2000.0), 1e-6);   // -3333 + 2833
    assert_float_equal(r_fssnd_loop_gain(0, 1), 1.0, 1e-6);
    assert_float_equal(r_fssnd_loop_gain(2304, 1), pow(10, -1666 / 2000.0), 1e-6);
    assert_float_equal(r_fssnd_loop_gain(4608, 1), 0.0, 0);
    assert_float_equal(r_fssnd_loop_gain(0, 0.8f), pow(10, -667 / 2000.0), 1e-6);   // -3333 + 2666
}

// Variants: a sound folder with exp101.wav, exp102.wav, exp103.wav (no exp1.wav, no exp104.wav),
// bikexpl.wav and bikexpl01.wav: "exp1.wav" plays one of the three, picked by the seed (every one for
// some seed, the same for the same seed), "bikexpl.wav" itself, a missing name as asked; the folder
// looked at once per name. The game's own folders come first (GetSfxPath): generic/pulsfire.wav is
// played as "generic/pulsfire.wav" (though sound/pulsfire.wav is there too), mapped/firembls01.wav and
// 02 as variants of "firembls.wav".
static int lookups;
static uint8_t *fake_files(void *ctx, const char *path, size_t *size)
{
    (void)ctx;
    static const char *const have[] = { "sound/exp101.wav",          "sound/exp102.wav",          "sound/exp103.wav",
                                        "sound/bikexpl.wav",         "sound/bikexpl01.wav",       "sound/generic/pulsfire.wav",
                                        "sound/pulsfire.wav",        "sound/mapped/firembls01.wav", "sound/mapped/firembls02.wav" };
    lookups++;
    for (size_t i = 0; i < sizeof have / sizeof have[0]; i++)
        if (!strcmp(path, have[i])) {
            *size = 4;
            return calloc(1, 4);
        }
    return NULL;
}

static void test_variants(void **state)
{
    (void)state;
    static r_fssnd_variants_t vs;
    r_fssnd_variants_clear(&vs);
    asset_files_t files = { fake_files, NULL };
    int seen[3] = { 0, 0, 0 };
    lookups = 0;
    for (uint32_t seed = 0; seed < 60; seed++) {
        const char *n = r_fssnd_variant(&vs, &files, "exp1.wav", seed);
        assert_true(!strncmp(n, "exp10", 5) && n[5] >= '1' && n[5] <= '3' && !strcmp(n + 6, ".wav"));
        seen[n[5] - '1']++;
        assert_string_equal(r_fssnd_variant(&vs, &files, "exp1.wav", seed), n);
    }
    int first = lookups;
    assert_string_equal(r_fssnd_variant(&vs, &files, "bikexpl.wav", 7), "bikexpl.wav");
    assert_string_equal(r_fssnd_variant(&vs, &files, "nothere.wav", 7), "nothere.wav");
    int after = lookups;
    r_fssnd_variant(&vs, &files, "nothere.wav", 8);
    printf("exp1.wav's variants over 60 seeds: exp101 %d, exp102 %d, exp103 %d; the folders looked at %d times for "
           "exp1 (generic/ and mapped/: its own name and 01; sound/: its own name, 01..04), %d for all three names\n",
           seen[0], seen[1], seen[2], first, after);
    assert_true(seen[0] > 5 && seen[1] > 5 && seen[2] > 5);
    assert_int_equal(first, 2 + 2 + 5);
    assert_int_equal(after, first + 5 + 6);
    assert_int_equal(lookups, after);   // no second look
    assert_string_equal(r_fssnd_variant(&vs, &files, "pulsfire.wav", 3), "generic/pulsfire.wav");
    int fire[2] = { 0, 0 };
    for (uint32_t seed = 0; seed < 20; seed++) {
        const char *n = r_fssnd_variant(&vs, &files, "firembls.wav", seed);
        assert_true(!strcmp(n, "mapped/firembls01.wav") || !strcmp(n, "mapped/firembls02.wav"));
        fire[n[16] - '1']++;
    }
    assert_true(fire[0] > 0 && fire[1] > 0);
}

// The levels' sound distances (the .MXV's SoundInfo table after the group connections).
static void test_sound_distances(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    const char *lv[] = { "arena", "therm", "ship", "alpha", "smalls", "tunnels" };
    for (int l = 0; l < 6; l++) {
        mxv_t *m = fs_scene_mxv(lv[l]);
        int ng = m->num_groups, neg = 0, zero = 0, diag = 0;
        float mx = 0;
        if (!m->sound_info)
            printf("%s: %s\n", lv[l], m->sound_warning);
        assert_non_null(m->sound_info);
        for (int i = 0; i < ng; i++)
            for (int j = 0; j < ng; j++) {
                float x = m->sound_info[i * ng + j];
                neg += x < 0;
                zero += x == 0;
                diag += i == j && x == 0;
                mx = x > mx ? x : mx;
            }
        printf("%s: %d groups, sound distances: %d negative, %d zero (%d on the diagonal), largest %.1f; [0][1] %.1f\n",
               lv[l], ng, neg, zero, diag, mx, m->sound_info[1]);
        assert_int_equal(diag, ng);
        assert_int_equal(neg, 0);
        if (l == 0) {   // arena
            assert_int_equal(ng, 32);
            assert_int_equal(zero, 289);
            assert_float_equal(mx, 11813.8, 0.05);
        } else if (l == 1) {   // therm
            assert_int_equal(ng, 16);
            assert_int_equal(zero, 86);
            assert_float_equal(mx, 10407.7, 0.05);
        }
        mxv_free(m);
    }
}

// ---- arena: the pilot beside the fire wall ----------------------------------------------

static const float FIRE_AT[3] = { -952, 1725, -1791 };

// A demo on arena: the pilot still at `eye`, a ship update every 0.1 s up to `end` s.
static void write_scene(const char *path, const float eye[3], const float ang[3], double end)
{
    fs_scene_demo(path, "arena", eye, ang, end, 10, 0.05);
}

static void scene_eye(float eye[3], float ang[3])
{
    eye[0] = FIRE_AT[0] + 320;
    eye[1] = FIRE_AT[1];
    eye[2] = FIRE_AT[2] + 100;   // in the fire wall's group (2: z -1920..-1664)
    ang[0] = 0;
    ang[1] = 180;   // looking along -z, at the flames' path
    ang[2] = 0;
}

static float dist(const float *a, const float *b)
{
    float d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
    return sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

typedef struct {
    int groups, frames, wall_frames, off_frames, heard, near_only, thermal;
    double thermal_at[2];
    float wall_gain, thermal_gain;
} arena_run_t;

// The scene from `eye`, frame by frame: every loop listed at the game's gain for its effect (distance
// + SoundInfo from the camera's groups), the fire wall's only in its on ticks from its on time's start,
// the placed ones heard all the time, "thermal" where its active times begin.
static void arena_case(const float eye[3], const float ang[3], arena_run_t *o)
{
    memset(o, 0, sizeof *o);
    o->thermal_at[0] = o->thermal_at[1] = -1;
    char demo[512];
    static int runs;
    snprintf(demo, sizeof demo, "%s/fs_spotsnd_%d_%d.dmo", tu_tmpdir(NULL), (int)getpid(), runs++);
    write_scene(demo, eye, ang, 6.2);
    fsspot_t *fx = fs_scene_fx("arena");
    fs_run_t run;
    fs_run_open(&run, demo, 32, 20);
    // the camera's groups and, per effect, the SoundInfo entry to its group and the game's gain
    mxv_t *m = fs_scene_mxv("arena");
    int eg[8];
    o->groups = r_fssnd_groups(m, eye, eg, 8);
    float gain[16] = { 0 };
    for (int i = 0; i < fx->count && i < 16; i++) {
        r_fsspot_sound_t sn;
        int g = fx->fx[i].group;
        float extra = r_fssnd_extra(m, eg, o->groups, &g, 1);
        if (!r_fsspot_sound(&fx->fx[i], &sn))
            continue;
        float dd = dist(fx->fx[i].pos, eye) + extra;
        gain[i] = sn.loops ? r_fssnd_loop_gain(dd, sn.volume) : r_fssnd_gain(dd, sn.volume);
        if (i != 5 && sn.loops) {
            o->heard += gain[i] > 0;
            o->near_only += dist(fx->fx[i].pos, eye) < FSSND_LOOP_DISTANCE && !(gain[i] > 0);
        }
    }
    mxv_free(m);
    o->wall_gain = gain[5];
    o->thermal_gain = gain[1];
    while (player_step(run.p) > 0) {
        const world_t *w = run.d.world;
        if (w->game != GAME_FORSAKEN || w->time < 0.01)
            continue;
        o->frames++;
        r_loop_t l[64];
        int n = r_loops(run.r, l, 64), wall = -1, placed = 0;
        for (int i = 0; i < n; i++) {
            if (l[i].id == 0x46530000u + 5)
                wall = i;
            else
                placed++;
            assert_true(l[i].attenuation == 0);
            int e = (int)(l[i].id - 0x46530000u);
            assert_true(e >= 0 && e < 16);
            assert_float_equal(l[i].volume, gain[e], 1e-6);
        }
        long tick = (long)floor(w->time * 71.0);
        int on = tick % 300 >= 1 && tick % 300 < 180;
        if (wall >= 0) {
            o->wall_frames++;
            assert_true(on);
            assert_string_equal(l[wall].name, "firembls.wav");
            assert_float_equal(l[wall].start, (tick / 300 * 300 + 1) / 71.0, 1e-9);
            assert_float_equal(l[wall].origin[0], FIRE_AT[0], 0.1);
        } else {
            o->off_frames++;
            assert_true(!on || !(o->wall_gain > 0));
        }
        assert_int_equal(placed, o->heard);
        r_sound_t s[32];
        int ns = r_sounds(run.r, s, 32);
        for (int i = 0; i < ns; i++)
            if (!strcmp(s[i].name, "thermal.wav")) {
                assert_true(o->thermal < 2);
                o->thermal_at[o->thermal++] = w->time;
                assert_float_equal(s[i].volume, o->thermal_gain, 1e-6);
                assert_true(s[i].attenuation == 0);
            }
    }
    printf("arena from %.0f %.0f %.0f (camera in %d group(s)): %d frames, the fire wall's loop in %d (gain %.4f at %.1f "
           "units), not in %d; %d placed loops heard (%d more inside 4608 units but for SoundInfo); \"thermal\" (gain "
           "%.4f) at %.2f s and %.2f s\n",
           eye[0], eye[1], eye[2], o->groups, o->frames, o->wall_frames, o->wall_gain, dist(FIRE_AT, eye), o->off_frames,
           o->heard, o->near_only, o->thermal_gain, o->thermal_at[0], o->thermal_at[1]);
    fs_run_close(&run);
    fsspot_free(fx);
    if (getenv("FS_SPOTSND_KEEP"))   // the scene kept for timedemo / callgrind
        printf("kept %s\n", demo);
    else
        remove(demo);
}

static void test_arena_sounds(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    float eye[3], ang[3];
    scene_eye(eye, ang);
    arena_run_t o;
    arena_case(eye, ang, &o);
    // beside the fire wall (in its room, groups 2 and 21): its loop in its on ticks (46 of the 63 frames);
    // the level's SoundInfo puts every placed sound out of reach, though seven loops lie inside 4608
    // units and "thermal" inside 6144
    assert_int_equal(o.groups, 2);
    assert_int_equal(o.wall_frames, 46);
    assert_int_equal(o.off_frames, 17);
    assert_float_equal(o.wall_gain, r_fssnd_loop_gain(dist(FIRE_AT, eye), 1), 1e-6);   // the same group: SoundInfo 0
    assert_int_equal(o.heard, 0);
    assert_int_equal(o.near_only, 7);
    assert_int_equal(o.thermal, 0);
    // in group 14 near the "thermal" vent: it sounds where its active times (240 ticks on, 120 off)
    // begin, ticks 1 and 361 (5.085 s): in the frames at 0.05 and 5.15 s
    float vent[3] = { -2400, 400, 1664 };
    arena_case(vent, ang, &o);
    assert_int_equal(o.thermal, 2);
    assert_true(o.thermal_gain > 0.1f);
    assert_int_equal(o.heard, 3);        // and three placed loops, two more cut by SoundInfo
    assert_int_equal(o.near_only, 2);
    assert_int_equal(o.wall_frames, 0);  // the fire wall 3974 units off, beyond its SoundInfo
    assert_float_equal(o.thermal_at[0], 0.05, 1e-6);
    assert_float_equal(o.thermal_at[1], 5.15, 1e-6);
}

// therm's gravity sparks (effect 2, group 11: 120 ticks on, 180 off): "elecspk.wav" at volume 0.25
// (VolModify) on the ticks r_fsspot_spark_sound picks while on, each in the frame that passes its tick,
// at the game's gain, each with a burst (r_fsspot_burst: its flash and light); none in the off ticks;
// about one tick in 24.
static void test_therm_sparks(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    fsspot_t *fx = fs_scene_fx("therm");
    assert_int_equal(fx->fx[2].type, FSSPOT_GRAVITY_SPARKS);
    float eye[3] = { fx->fx[2].pos[0], fx->fx[2].pos[1] + 150, fx->fx[2].pos[2] }, ang[3] = { 0, 0, 0 };
    char demo[512];
    snprintf(demo, sizeof demo, "%s/fs_sparks_%d.dmo", tu_tmpdir(NULL), (int)getpid());
    fs_scene_demo(demo, "therm", eye, ang, 8.0, 10, 0.05);
    fs_run_t run;
    fs_run_open(&run, demo, 32, 20);
    mxv_t *m = fs_scene_mxv("therm");
    int eg[8], neg = r_fssnd_groups(m, eye, eg, 8), g = fx->fx[2].group;
    float gain = r_fssnd_gain(dist(fx->fx[2].pos, eye) + r_fssnd_extra(m, eg, neg, &g, 1), 0.25f);
    mxv_free(m);
    int heard = 0, wanted = 0, on_ticks = 0, frames = 0, bursts = 0;
    double prev = -1;
    while (player_step(run.p) > 0) {
        const world_t *w = run.d.world;
        if (w->game != GAME_FORSAKEN || w->time < 0.01)
            continue;
        r_sound_t s[32];
        int ns = r_sounds(run.r, s, 32), here = 0;
        for (int i = 0; i < ns; i++)
            if (!strcmp(s[i].name, "elecspk.wav")) {
                here++;
                assert_float_equal(s[i].volume, gain, 1e-6);
                assert_float_equal(s[i].origin[0], fx->fx[2].pos[0], 1e-3);
            }
        int want = 0;
        if (prev >= 0)   // the first frame hears its last 0.25 s; checked from the second on
            for (long k = (long)floor(prev * 71.0) + 1; k <= (long)floor(w->time * 71.0); k++) {
                want += r_fsspot_spark_sound(&fx->fx[2], 2, k);
                on_ticks += r_fsspot_on(&fx->fx[2], k);
                if (r_fsspot_spark_sound(&fx->fx[2], 2, k)) {
                    assert_true(k % 300 < 120);                     // only while on ..
                    assert_true(r_fsspot_burst(&fx->fx[2], 2, k) > 0);   // .. with a burst (its flash and light)
                }
                bursts += r_fsspot_on(&fx->fx[2], k) && r_fsspot_burst(&fx->fx[2], 2, k) > 0;
            }
        if (prev >= 0) {
            assert_int_equal(here, want);
            heard += here;
            wanted += want;
            frames++;
        }
        prev = w->time;
    }
    printf("therm's gravity sparks from 150 units: %d elecspk in %d frames (%d on ticks, %d bursts), gain %.4f\n", heard,
           frames, on_ticks, bursts, gain);
    assert_true(heard >= 5 && heard == wanted);
    assert_true(heard * 10 < on_ticks && heard * 50 > on_ticks);   // about one in 24
    assert_true(gain > 0.05f);   // VolModify 0.25: -2523 mB at 150 units
    fs_run_close(&run);
    fsspot_free(fx);
    remove(demo);
}

// The same loop in `export`'s track: tones under "firembls01.wav" and "firembls02.wav" (its variants;
// the level's other sounds missing: silent) heard in the fire wall's on times and not in its off
// times; exported from 12 s (its sound joined after the seek to the pre-roll's start, 2 s, inside an on
// time) the samples are the whole's, the same variant included.
static int16_t *export_track(const char *dir, const char *demo, double from, double to, long *frames)
{
    char cmd[4096], path[512];
    snprintf(cmd, sizeof cmd, "%s export -q %s --basedir %s --game snd --from %g --to %g --fps 10 --size 64x48 -o "
             "%s/out 2>&1", tu_bin(), demo, dir, from, to, dir);
    int status = -1;
    char *out = tu_run(cmd, &status);
    if (status != 0)
        fail_msg("%s: %s", cmd, out ? out : "");
    free(out);
    snprintf(path, sizeof path, "%s/out/audio.wav", dir);
    size_t size = 0;
    uint8_t *wav = tu_read(path, &size);
    assert_non_null(wav);
    assert_true(size > 44);
    *frames = (long)(size - 44) / 4;
    int16_t *pcm = malloc((size_t)*frames * 4);
    memcpy(pcm, wav + 44, (size_t)*frames * 4);
    free(wav);
    return pcm;
}

static void test_export_firewall_loop(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    TU_REQUIRE_FULL_BUILD();
    float eye[3], ang[3];
    scene_eye(eye, ang);
    char dir[600], cmd[8192], data[4096], demo[700], path[700];
    snprintf(dir, sizeof dir, "%s/spotsnd_export", tu_tmpdir(NULL));
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    assert_int_equal(system(cmd), 0);
    assert_non_null(realpath(tu_data("forsaken/Data"), data));
    snprintf(cmd, sizeof cmd, "ln -sfn '%s' %s/Data", data, dir);
    assert_int_equal(system(cmd), 0);
    for (int v = 1; v <= 2; v++) {   // two variants, no firembls.wav: each on time picks one (from its start)
        snprintf(path, sizeof path, "%s/snd/sound/firembls%02d.wav", dir, v);
        tu_write_tone(path, 0.37, 431 + 156 * (v - 1));
    }
    snprintf(demo, sizeof demo, "%s/scene.dmo", dir);
    write_scene(demo, eye, ang, 16.2);
    long n_whole = 0, n_part = 0;
    int16_t *whole = export_track(dir, demo, 0, 16, &n_whole);
    int16_t *part = export_track(dir, demo, 12, 16, &n_part);
    assert_int_equal(n_whole, 16 * 48000);
    assert_int_equal(n_part, 4 * 48000);
    // ticks (1/71 s) 1..180 on, 180..300 off, and so on: on [0.014, 2.535) s, off [2.535, 4.225), on
    // [4.239, 6.761), ..., off [10.986, 12.676); heard from the first frame (every 0.1 s) on or off
    double on1 = tu_energy(whole, n_whole, 48000, 0.1, 2.45), off1 = tu_energy(whole, n_whole, 48000, 2.6, 4.15);
    double on2 = tu_energy(whole, n_whole, 48000, 4.3, 6.7), off3 = tu_energy(whole, n_whole, 48000, 11.1, 12.6);
    // which variant each on time played: the tone's rising zero crossings a second (431 or 587 Hz)
    double hz[4];
    const double from_s[4] = { 0.5, 4.5, 9.0, 13.0 };
    for (int k = 0; k < 4; k++) {
        int ups = 0;
        long a0 = (long)(from_s[k] * 48000);
        for (long i = a0 + 1; i < a0 + 48000; i++) {   // both ears: the wall is off to one side
            int prev = whole[2 * (i - 1)] + whole[2 * (i - 1) + 1], cur = whole[2 * i] + whole[2 * i + 1];
            ups += prev < 0 && cur >= 0;
        }
        hz[k] = ups;
    }
    printf("export: the on times' tones from 0.5, 4.5, 9.0, 13.0 s: %.0f %.0f %.0f %.0f Hz\n", hz[0], hz[1], hz[2], hz[3]);
    int low = 0, high = 0;
    for (int k = 0; k < 4; k++) {
        low += fabs(hz[k] - 431) < 10;
        high += fabs(hz[k] - 587) < 10;
    }
    assert_int_equal(low + high, 4);
    long differ = 0;
    int maxd = 0;
    for (long i = 0; i < 2 * n_part; i++) {
        int dd = abs(whole[2 * 12 * 48000 + i] - part[i]);
        differ += dd != 0;
        maxd = dd > maxd ? dd : maxd;
    }
    printf("export: the fire wall's loop: %.3g on (0.1..2.45 s), %.3g off (2.6..4.15), %.3g on (4.3..6.7), %.3g off "
           "(11.1..12.6); exported from 12 s: %ld of %ld samples differ from the whole's (largest %d)\n",
           on1, off1, on2, off3, differ, 2 * n_part, maxd);
    assert_true(on1 > 1e10 && on2 > 1e10);
    assert_true(off1 == 0 && off3 == 0);
    assert_true(maxd <= 1 && differ <= 2 * n_part / 10000);
    free(whole);
    free(part);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_level_sounds),
        cmocka_unit_test(test_sound_cycle),
        cmocka_unit_test(test_loudness),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_sound_distances),
        cmocka_unit_test(test_arena_sounds),
        cmocka_unit_test(test_therm_sparks),
        cmocka_unit_test(test_export_firewall_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
