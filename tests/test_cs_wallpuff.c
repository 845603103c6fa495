// test_cs_wallpuff.c -- Counter-Strike 1.6's wall puffs (cs16-client's EV_CS16Client_CreateSmoke,
// SMOKE_WALLPUFF, made by render/r_hldecal.c from the event log, moved and listed by r_hlfx.c):
// crossfire's usp shots each leave one puff of sprites/wall_puff1..4.spr (precached as models
// 225..228) at the bullet's hit, leaving the wall at 25 u/s along its normal; with a mod folder that
// gives the sprites (Half-Life's zerogxplode.spr, an additive sprite, linked under their names at
// test time) the shot's pixels change near where the puff projects, and without it nothing changes
// and the drawer warns once for each missing sprite.
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "assets/bsp.h"
#include "engine/hlbullet.h"
#include "engine/vfs.h"
#include "engine/world.h"
#include "formats/decoder.h"
#include "render/r_hlfx.h"
#include "render/r_local.h"
#include "render/r_models.h"
#include "render/render.h"

#define TW 640
#define TH 400
#include "hl_level.h"

#define MAX_PUFFS 16

// Where p is on the TW x TH screen of the view last drawn (r_main.c's projection: 4:3 with
// pixels 1.2 tall); 0 when behind the eye.
static int project(const renderer_t *r, const vec3_t p, float *sx, float *sy)
{
    r_cam_state_t cs;
    r_camera_state(r, &cs);
    float pi = (float)M_PI / 180, yaw = cs.angles[1] * pi, pitch = cs.angles[0] * pi, roll = cs.angles[2] * pi;
    float sy_ = sinf(yaw), cy = cosf(yaw), sp = sinf(pitch), cp = cosf(pitch), sr = sinf(roll), cr = cosf(roll);
    vec3_t fwd = {cp * cy, cp * sy_, -sp};
    vec3_t right = {-sr * sp * cy + cr * sy_, -sr * sp * sy_ - cr * cy, -sr * cp};
    vec3_t up = {cr * sp * cy + sr * sy_, cr * sp * sy_ - sr * cy, cr * cp};
    vec3_t d = {p[0] - cs.origin[0], p[1] - cs.origin[1], p[2] - cs.origin[2]};
    float z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
    if (z < 1)
        return 0;
    float xscale = (float)(TW / 2.0 / tan(cs.fov * M_PI / 360)), yscale = xscale / 1.2f;
    *sx = TW / 2.0f + xscale * (d[0] * right[0] + d[1] * right[1] + d[2] * right[2]) / z;
    *sy = TH / 2.0f - yscale * (d[0] * up[0] + d[1] * up[1] + d[2] * up[2]) / z;
    return 1;
}

typedef struct {
    r_hlsprite_t s;
    float dist;      // from the eye
    float sx, sy;    // on the screen
    int seen;
} puff_t;

// crossfire decoded up to time t in renderer r: the wall puffs listed then (r_hlfx_sprites' sprites
// of models 225..228), and the bullets of the log's entries (their hits, for the puffs to match).
static int puffs_at(renderer_t *r, double t, puff_t *out, int max, hlbullet_t *hits, int *nhits, double *times)
{
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
    uint32_t seq = 0;
    while (hl_decoder.read_frame(st, w, &err) > 0) {
        if (w->level_seq != seq && w->map[0]) {
            char e[256];
            assert_int_equal(r_load_level(r, fs, w, e, sizeof e), 0);
            seq = w->level_seq;
        }
        r_frame(r, w);
        if (w->time >= t)
            break;
    }
    r_render(r, w, t);
    *nhits = 0;
    for (uint32_t i = 0; i < w->decal_log_count && *nhits < 16; i++) {
        int kind = 0;
        hlbullet_t b[HLBULLET_MAX];
        int n = hlbullet_fire(r->bsp, w, &w->decal_log[i], NULL, b, HLBULLET_MAX, &kind);
        assert_int_equal(n, 1);   // the usp: one bullet
        assert_int_equal(kind, HLBULLET_SOUND_CS);
        times[*nhits] = w->decal_log[i].time;
        hits[(*nhits)++] = b[0];
    }
    r_hlsprite_t list[HLFX_MAX_SPRITES + 1 + HLFX_MAX_PUFFS];
    int n = r_hlfx_sprites(r_models_hlfx(r->models), t, list, HLFX_MAX_SPRITES + 1 + HLFX_MAX_PUFFS), np = 0;
    for (int i = 0; i < n && np < max; i++) {
        if (list[i].model < 225 || list[i].model > 228)
            continue;
        assert_true(!strncmp(w->models[list[i].model], "sprites/wall_puff", 17));
        puff_t *p = &out[np++];
        memset(p, 0, sizeof *p);
        p->s = list[i];
        float d2 = 0;
        for (int k = 0; k < 3; k++)
            d2 += (p->s.org[k] - w->view.origin[k]) * (p->s.org[k] - w->view.origin[k]);
        p->dist = sqrtf(d2);
        p->seen = project(r, p->s.org, &p->sx, &p->sy);
    }
    hl_decoder.close(st);
    free(st);
    world_free(w);
    vfs_free(fs);
    free(data);
    return np;
}

// The puffs' rules, on the list: one for each shot of the last 2 s that hit a wall, at its hit
// moved 25 u/s along the normal (before frame 6 at 35 frames a second: no wind, no rise yet),
// additive, scale 0.5, amount 100..180 dimmed by the grey of its colour (65: concrete, no
// materials.txt, every texture concrete).
static void test_crossfire_puffs(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    // 0.1 s after the third usp shot (2.08078 s): shots 1, 2 (1.86, 1.87) and 3 within 2 s
    double t = 2.18;
    renderer_t *r = r_create(TW, TH);
    puff_t p[MAX_PUFFS];
    hlbullet_t hit[16];
    double when[16];
    int nhits = 0;
    int n = puffs_at(r, t, p, MAX_PUFFS, hit, &nhits, when);
    r_destroy(r);
    assert_int_equal(nhits, 3);
    int walls = 0;
    for (int i = 0; i < nhits; i++)
        walls += hit[i].model >= 0;
    printf("  %d shots by %.2f s, %d on a wall; %d puffs listed\n", nhits, t, walls, n);
    assert_int_equal(walls, 3);
    assert_int_equal(n, walls);
    int used[MAX_PUFFS] = {0};
    for (int i = 0; i < nhits; i++) {
        float age = (float)(t - when[i]);
        // the puff of this shot: the one nearest where it would be without the wind
        int best = -1;
        float best_err = 1e9f;
        for (int j = 0; j < n; j++) {
            float err = 0;
            for (int k = 0; k < 3; k++) {
                float want = hit[i].endpos[k] + hit[i].normal[k] * 25 * age;
                err = fmaxf(err, fabsf(p[j].s.org[k] - want));
            }
            if (err < best_err)
                best_err = err, best = j;
        }
        assert_true(best >= 0);
        const puff_t *q = &p[best];
        printf("  shot at %.3f s: hit (%.1f %.1f %.1f) normal (%.2f %.2f %.2f), puff of model %d at (%.2f %.2f %.2f) "
               "(%.2f off the line), frame %.2f, amount %d, %.0f units away\n",
               when[i], hit[i].endpos[0], hit[i].endpos[1], hit[i].endpos[2], hit[i].normal[0], hit[i].normal[1],
               hit[i].normal[2], q->s.model, q->s.org[0], q->s.org[1], q->s.org[2], best_err, q->s.frame, q->s.amount,
               q->dist);
        if (age * 35 <= 6)
            assert_true(best_err < 0.05f);   // no wind yet: on the line
        else
            assert_true(best_err < 20 && q->s.org[2] > hit[i].endpos[2]);   // blown, and risen past frame 7
        assert_true(fabsf(q->s.frame - age * 35) < 1e-3f);
        assert_int_equal(q->s.rendermode, RM_ADDITIVE);
        assert_true(fabsf(q->s.scale - 0.5f) < 1e-6f);
        // 100..180 x 65 / 255
        assert_true(q->s.amount >= 100 * 65 / 255 && q->s.amount <= 180 * 65 / 255 + 1);
        assert_false(used[best]);   // one puff for each shot
        used[best] = 1;
    }
    // past the wind's start the puff leaves the line: after frame 7 it rises (0.7 a call)
    r_hlpuff_t q;
    memset(&q, 0, sizeof q);
    q.vel[0] = 25;   // 25 u/s off a wall facing +x
    q.wind = 1;
    q.seed = 1234;
    vec3_t a, b;
    r_hlfx_puff_at(NULL, &q, 0.15f, a);   // frame 5.25: on the line
    assert_true(fabsf(a[0] - 3.75f) < 1e-3f && a[1] == 0 && a[2] == 0);
    r_hlfx_puff_at(NULL, &q, 0.5f, b);    // frame 17.5: risen, blown
    printf("  a puff off a wall facing +x: (%.2f %.2f %.2f) at 0.15 s, (%.2f %.2f %.2f) at 0.5 s\n", a[0], a[1], a[2],
           b[0], b[1], b[2]);
    assert_true(b[2] > 1);
    assert_true(b[0] > 3.75f);
    r_hlfx_puff_at(NULL, &q, 0.5f, a);    // the same again (seek-stable)
    assert_true(a[0] == b[0] && a[1] == b[1] && a[2] == b[2]);
}

// ---- drawn: the sprites given by a mod folder --------------------------------------------------

static void make_dirs(char *base, size_t cap)
{
    snprintf(base, cap, "/tmp/demoplay_cspuff_%d", (int)getpid());
    char cmd[PATH_MAX * 8], valve[PATH_MAX];
    assert_non_null(realpath(tu_data("goldsrc/valve"), valve));
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && mkdir -p '%s/csmod/sprites' '%s/emptymod' && ln -sfn '%s' '%s/valve' && "
             "for i in 1 2 3 4; do ln -sfn '%s/sprites/zerogxplode.spr' \"%s/csmod/sprites/wall_puff$i.spr\"; done",
             base, base, base, valve, base, valve, base);
    assert_int_equal(system(cmd), 0);
}

static void remove_dirs(const char *base)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    assert_int_equal(system(cmd), 0);
}

static void test_crossfire_puffs_drawn(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    double t = 2.18;
    renderer_t *r = r_create(TW, TH);
    puff_t p[MAX_PUFFS];
    hlbullet_t hit[16];
    double when[16];
    int nhits = 0;
    int n = puffs_at(r, t, p, MAX_PUFFS, hit, &nhits, when);
    r_destroy(r);
    assert_true(n >= 1);
    char base[256];
    make_dirs(base, sizeof base);
    const char *mods[2] = {"csmod", "emptymod"};
    char out[2][512];
    for (int m = 0; m < 2; m++) {
        snprintf(out[m], sizeof out[m], "%s/%s.png", base, mods[m]);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "%s shot --basedir %s --game %s --at %.4f --size %dx%d -o %s '%s' 2>&1", tu_bin(),
                 base, mods[m], t, TW, TH, out[m], tu_data("goldsrc/demos/cstrike_crossfire.dem"));
        int status = 0;
        char *log = tu_run(cmd, &status);
        assert_int_equal(status, 0);
        // without the files: each sprite a puff wants is said missing once
        const char *want = "effect sprite sprites/wall_puff";
        const char *at = strstr(log, want);
        if (m == 1) {
            if (!at)
                fail_msg("no warning about the wall puffs in:\n%s", log);
            for (int k = 225; k <= 228; k++) {
                char one[96];
                snprintf(one, sizeof one, "effect sprite sprites/wall_puff%d.spr (index %d) is missing", k - 224, k);
                const char *a1 = strstr(log, one);
                assert_true(!a1 || !strstr(a1 + 1, one));
            }
        } else {
            assert_null(at);
        }
        free(log);
    }
    int w0, h0, c0, w1, h1, c1;
    uint8_t *a = stbi_load(out[0], &w0, &h0, &c0, 3), *b = stbi_load(out[1], &w1, &h1, &c1, 3);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(w0, TW);
    assert_int_equal(w1, TW);
    assert_int_equal(h0, TH);
    int changed = 0, near = 0;
    float far = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            const uint8_t *pa = a + 3 * (y * TW + x), *pb = b + 3 * (y * TW + x);
            if (pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2])
                continue;
            changed++;
            // brighter, never darker (added)
            assert_true(pa[0] + pa[1] + pa[2] >= pb[0] + pb[1] + pb[2]);
            float best = 1e9f;
            for (int i = 0; i < n; i++) {
                if (!p[i].seen)
                    continue;
                // the sprite's half size on the screen: 32 units (64 x 0.5) over the distance
                float e = sqrtf((x + 0.5f - p[i].sx) * (x + 0.5f - p[i].sx) + (y + 0.5f - p[i].sy) * (y + 0.5f - p[i].sy));
                best = e < best ? e : best;
            }
            near += best < 8;
            far = best > far ? best : far;
        }
    for (int i = 0; i < n; i++)
        printf("  puff %d on the screen at (%.1f, %.1f), %.0f units away\n", i, p[i].sx, p[i].sy, p[i].dist);
    printf("  drawn: %d pixels change, %d within 8 pixels of a puff (the farthest %.1f away)\n", changed, near, far);
    assert_true(changed >= 4);
    assert_int_equal(near, changed);
    stbi_image_free(a);
    stbi_image_free(b);
    tu_golden("cs_wallpuff", out[0], "tests/golden/goldsrc/cs_wallpuff.png", 0.01);
    remove_dirs(base);
}

// EV_HugWalls: a puff off crossfire's wall out_w6b (its face at x 896, facing -x: the hit at
// 895.97, 896 units along +x from (0, -1500, -1600)) leaves it at 25 u/s, then the wind (+x at
// first) blows it back. Not traced (NULL, the code before) it goes through the wall; traced
// against the level it never does: the move that meets the wall turns along it (the velocity
// made n x (n x u) with x and z swapped, 2.25 times as fast, then reflected), so it slides on
// the wall's face. The same positions again (from the hit each time: a seek shows the same).
static void test_hug_walls(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    size_t size;
    uint8_t *d = tu_read(tu_data("goldsrc/valve/maps/crossfire.bsp"), &size);
    assert_non_null(d);
    char err[256] = "";
    bsp_t *bsp = bsp_load_files(d, size, "maps/crossfire.bsp", NULL, err, sizeof err);
    free(d);
    if (!bsp)
        fail_msg("%s", err);
    r_hlpuff_t q;
    memset(&q, 0, sizeof q);
    q.org[0] = 895.969f;
    q.org[1] = -1500;
    q.org[2] = -1600;
    q.vel[0] = -25;   // 25 u/s off the wall (its normal -x)
    q.wind = 1;
    q.seed = 1234;
    int through = 0, differ = 0, first = -1;
    float most_x = -1e9f, met[3] = {0, 0, 0}, end[3] = {0, 0, 0}, free_end[3] = {0, 0, 0};
    for (int i = 1; i <= 40; i++) {
        float age = 0.025f * (float)i;
        vec3_t free_path, hug, again;
        r_hlfx_puff_at(NULL, &q, age, free_path);
        r_hlfx_puff_at(bsp, &q, age, hug);
        r_hlfx_puff_at(bsp, &q, age, again);
        assert_true(hug[0] == again[0] && hug[1] == again[1] && hug[2] == again[2]);
        int same = free_path[0] == hug[0] && free_path[1] == hug[1] && free_path[2] == hug[2];
        if (!same && first < 0) {
            first = i;
            memcpy(met, hug, sizeof met);
        }
        memcpy(end, hug, sizeof end);
        memcpy(free_end, free_path, sizeof free_end);
        if (first < 0)
            assert_true(same);   // until the wall is met, the same path
        differ += !same;
        through += free_path[0] > 896;
        most_x = hug[0] > most_x ? hug[0] : most_x;
        assert_true(hug[0] < 896);   // never through the wall
        if (i % 4 == 0)
            printf("  %.2f s: untraced (%.2f %.2f %.2f), traced (%.2f %.2f %.2f)\n", age, free_path[0], free_path[1],
                   free_path[2], hug[0], hug[1], hug[2]);
    }
    printf("  the wall met after %.3f s (%d of 40 samples off the untraced path); untraced %d through the wall, "
           "traced none (x at most %.3f)\n", first * 0.025, differ, through, most_x);
    assert_true(first > 0);
    assert_int_equal(differ, 40 - first + 1);   // once met, never back on the untraced path
    assert_true(through > 0);
    // blown +y and rising when it met the wall; turned back along it after: at 1 s lower and
    // further -y than where it met it, where the untraced one went on +y and up
    printf("  met at (%.2f %.2f %.2f); at 1 s (%.2f %.2f %.2f), untraced (%.2f %.2f %.2f)\n", met[0], met[1], met[2],
           end[0], end[1], end[2], free_end[0], free_end[1], free_end[2]);
    assert_true(end[1] < met[1] - 5 && end[2] < met[2]);
    assert_true(free_end[1] > met[1] && free_end[2] > met[2]);
    // the same puff with a state kept between calls (as the ring's puffs have: a frame goes on
    // from where the one before left it): at rising ages, then an earlier one (from the hit
    // again), then past the wall, the very places of stepping from the hit each time
    r_hlpuff_state_t st;
    st.steps = -1;
    r_hlpuff_t kept = q;
    kept.state = &st;
    const float ages[] = {0, 0.013f, 0.25f, 0.7f, 0.705f, 0.999f, 0.4f, 0.4f, 1.6f};
    for (size_t i = 0; i < sizeof ages / sizeof ages[0]; i++) {
        vec3_t a, b;
        r_hlfx_puff_at(bsp, &kept, ages[i], a);
        r_hlfx_puff_at(bsp, &q, ages[i], b);
        if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2])
            fail_msg("at %.3f s the kept state gives (%.4f %.4f %.4f), from the hit (%.4f %.4f %.4f)", (double)ages[i],
                     a[0], a[1], a[2], b[0], b[1], b[2]);
    }
    assert_int_equal(st.steps, (int)(1.6f / 0.01f));   // the whole steps to 1.6 s, kept
    bsp_free(bsp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossfire_puffs),
        cmocka_unit_test(test_crossfire_puffs_drawn),
        cmocka_unit_test(test_hug_walls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
