// r_models.c -- entities with alias/sprite models, static entities, the view weapon, temp entities, beams, dlights
//
// Owns the level's models (parallel to world->models), the particle pool and
// the short-lived effects (beams, explosion sprites, dynamic lights), all in
// fixed arrays: nothing is allocated per frame.
#include "r_models.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/md2.h"
#include "../assets/pal.h"
#include "../assets/sp2.h"
#include "../engine/log.h"
#include "r_beam.h"
#include "r_mlocal.h"
#include "r_q2ent.h"
#include "r_q2fx.h"
#include "r_hlfx.h"
#include "r_hlmodes.h"
#include "r_hlsort.h"
#include "r_studio.h"

#define R_MAX_BEAMS 24
#define R_MAX_TEMP_SPRITES 32
#define R_MAX_MLIGHTS 32
#define ANIM_LERP_TIME 0.1      // Quake frames last 0.1 s: blend across that
#define IT_INVISIBILITY 524288  // Quake items bit: no view weapon while invisible

typedef struct {
    int entity;
    int model;          // XM_BOLT1 .. XM_BEAM
    double endtime;
    vec3_t start, end;
} r_beam_t;

typedef struct {
    vec3_t org;
    double start;
    int active;
} r_tsprite_t;

// Frame-blend history of one entity slot (server times): Quake's clients that blend
// poses (FitzQuake, TyrQuake) blend no pose of an entity around a muzzle flash.
typedef struct {
    double change, prev_change;   // the last two times its frame changed
    double flash;                 // the last time it had EF_MUZZLEFLASH
} r_anim_t;

typedef struct {
    r_dlight_t d;
    int key;            // entity it belongs to (a new light for it replaces the old), 0 = none
    double spawn;
    float radius0;
} r_mlight_t;

// Quake II: players' own models (modelindex 255) come from their skin strings
// "name\\model/skin": one body per distinct model, its weapons in the order of
// the "#w_..." names of the model list, and a skin per player.
#define R_MAX_VWEP 20          // the game's MAX_CLIENTWEAPONMODELS
#define R_MAX_PMODELS 16       // distinct player models in one level
#define R_BASE_CLIENT WORLD_MAX_PLAYERS   // male/grunt: players without a usable skin string

typedef struct {
    char name[32];                 // "male"
    r_model_t body;                // players/<name>/tris.md2
    r_model_t weapons[R_MAX_VWEP]; // players/<name>/<vwep name>
} r_pmodel_t;

typedef struct {
    char key[WORLD_NAME_LEN];      // the skin string it was made from
    int pmodel;                    // index into pmodels, -1 none
    uint8_t *skin;                 // the body's skin for this player (NULL: the model's own)
} r_client_t;

// How a game's entities are drawn, where games differ (a table, not tests of the game).
typedef struct {
    uint32_t hide_rf;              // renderfx bits of entities not drawn in the world view
    uint32_t viewer_rf;            // of those, the bits of the recording player's own model (drawn when
                                   // the camera is not in their eyes)
    uint32_t fullbright_rf;        // renderfx bits that light a model fully
    int own_model;                 // modelindex meaning "the player's own model" (0 = none)
    int raw_anim;                  // the raw EF_ANIM* bits of Quake II set frames by time
    int sprite_frames_wrap;        // sprite frame numbers past the end wrap (else frame 0)
    int flash_snaps;               // a muzzle flash stops the pose blend (Quake)
    int light_above;               // models lit from above, dlights on the ambient part (TyrQuake's Quake)
    int entity_alpha;              // RM_TEXTURE + renderamt: FitzQuake's entity alpha, drawn see-through
    int q2fx;                      // effects by Quake II's client rules (r_q2fx.c), not Quake's
    int q2_looks;                  // Quake II's client and ref_soft (r_q2ent.c): angles as they are, see-through
                                   // by its alphas, colour shells, light flags, lasers, the gun's own projection
    int hlfx;                      // temp entities and client events by Half-Life's rules (r_hlfx.c)
    int own_drawer;                // the game's entities and effects are drawn by its own files (Forsaken:
                                   // r_fsent.c), none here
} r_rules_t;

// Quake II's EF_* bits that set frames by time (its RF_* bits: r_q2ent.h)
enum { Q2EF_ANIM01 = 0x400, Q2EF_ANIM23 = 0x800, Q2EF_ANIM_ALL = 0x1000, Q2EF_ANIM_ALLFAST = 0x2000 };

static const r_rules_t r_rules[GAME_COUNT] = {
    // the player's own model is seen only in mirrors; weapon models only through the eyes;
    // beams are lasers, not models
    [GAME_QUAKE2] = {Q2RF_VIEWERMODEL | Q2RF_WEAPONMODEL | Q2RF_BEAM, Q2RF_VIEWERMODEL, Q2RF_FULLBRIGHT, 255, 1, 1, 0, 0, 0, 1, 1, 0, 0},
    [GAME_QUAKE] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0},
    [GAME_GOLDSRC] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0},
    [GAME_FORSAKEN] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
};

// Half-Life's client-side sprites (the muzzle flash; the first of these names that loads).
static const char *const hl_muzzle_names[] = {"sprites/muzzleflash1.spr", "sprites/muzzleflash2.spr",
                                              "sprites/muzz1.spr", "sprites/muz1.spr"};
// The engine's own three (cl_muzzleflash[0..2]), which the view models' flash events name by number.
static const char *const hl_muzzleflash_names[3] = {"sprites/muzzleflash1.spr", "sprites/muzzleflash2.spr",
                                                    "sprites/muzzleflash3.spr"};

static const r_rules_t *rules_of(const world_t *w)
{
    return &r_rules[w->game >= 0 && w->game < GAME_COUNT ? w->game : GAME_NONE];
}

// XM_EXPLOD: Quake's explosion sprite (Quake II's explosion models are r_q2fx.c's).
// XM_POWERSCREEN: Quake II's power screen, drawn as a green shell in front of its entity.
enum { XM_BOLT1, XM_BOLT2, XM_BOLT3, XM_BEAM, XM_EXPLOD, XM_POWERSCREEN, XM_COUNT };
static const char *const xm_names[XM_COUNT] = {"progs/bolt.mdl", "progs/bolt2.mdl", "progs/bolt3.mdl",
                                                "progs/beam.mdl", "progs/s_explod.spr",
                                                "models/items/armor/effect/tris.md2"};

struct r_models_s {
    uint8_t palette[768];          // the level's (r_models_load_level)
    r_model_t *models;          // parallel to world->models
    int num_models;
    uint32_t models_seq;        // world->models_seq the list was loaded for
    int explod_index;           // world model index of s_explod.spr, 0 = none
    r_model_t extra[XM_COUNT];  // client-side models of temp entities
    r_model_t box;              // stands in for missing models
    r_alias_scratch_t scratch;
    r_particles_t part;
    r_beam_t beams[R_MAX_BEAMS];
    r_tsprite_t tsprites[R_MAX_TEMP_SPRITES];
    r_mlight_t lights[R_MAX_MLIGHTS];
    uint32_t rng;
    int draw_entnum;            // the entity being drawn (GoldSrc's renderfx phase)
    uint32_t draw_rng;          // the drawing's random numbers, from the drawing time (r_models_draw)
    int vw_model, vw_frame, vw_prev_frame;  // view weapon animation
    double vw_start, vw_prev_start;
    int gun_frame, gun_old_frame;          // Quake II: the gun's frame in this and the last server frame
    vec3_t gun_offset, gun_old_offset, gun_angles, gun_old_angles;
    int gun_valid;
    int gun_entity;                        // whose view the gun's frames are (a camera may change it)
    int table_66_first;         // -1 unknown; 1: the palette's table holds a over b at 66 % at [a * 256 + b]
    const uint8_t *table_of;    // the table table_66_first was found for
    r_anim_t *anim;             // WORLD_MAX_ENTITIES
    pal_t *alpha_pal;           // the level palette's see-through table, made when first needed
    int alpha_ready;
    uint8_t *trans;             // WORLD_MAX_PLAYERS translated colormaps of 64 * 256
    int trans_key[WORLD_MAX_PLAYERS];
    const uint8_t *trans_src;
    vfs_t *fs;                  // of the level (r_models_load_level): player models load from it
    char vwep_names[R_MAX_VWEP][WORLD_NAME_LEN];   // the "#w_..." names, in order, without '#'
    int num_vwep;
    r_pmodel_t pmodels[R_MAX_PMODELS];
    int num_pmodels;
    r_client_t clients[WORLD_MAX_PLAYERS + 1];
    r_q2fx_t *q2fx;             // Quake II's effects
    r_model_t q2extra[Q2M_COUNT];   // and their client-side models
    r_studio_players_t *hlplayers;  // GoldSrc players' own models and legs (r_studio.c)
    r_hlfx_t *hlfx;             // Half-Life's temp entities and client events
    r_model_t hl_muzzle;        // its muzzle flash sprite
    r_model_t hl_muzzles[3];    // the engine's cl_muzzleflash[0..2] (the view models' flash events)
    hltent_draw_t *hltent_list;   // HLTENT_MAX: the temp models of a drawn frame (engine/hltent.c)
    int hltent_count;             // how many of them (this frame's)
    uint8_t hltent_warned[(WORLD_MAX_MODELS + 7) / 8];   // temp models whose missing file was warned about (a level)
    uint8_t hlspr_warned[(WORLD_MAX_MODELS + 7) / 8];    // effect sprites (the wall puffs) likewise
    hltent_trail_t *hltent_trails;       // HLFX_MAX_PARTICLES: their smoke trails' steps in a drawn frame
    r_hlparticle_t *hltent_smoke;        // HLFX_MAX_PARTICLES: those steps' particles
};

// ---- models ------------------------------------------------------------------

// A 16-unit box, one flat-shaded colour per face, for models that could not be loaded.
static int make_box(mdl_t *b)
{
    memset(b, 0, sizeof(*b));
    b->numskins = 1;
    b->skinwidth = b->skinheight = 4;
    b->numverts = 24;
    b->numtris = 12;
    b->numframes = 1;
    b->num_poses = 1;
    b->num_skin_images = 1;
    for (int k = 0; k < 3; k++) {
        b->scale[k] = 16.0f / 255.0f;
        b->translate[k] = -8;
        b->mins[k] = -8;
        b->maxs[k] = 8;
    }
    b->radius = 14;
    b->skins = calloc(1, sizeof(*b->skins));
    b->skin_pixels = malloc(16);
    b->st = calloc(24, sizeof(*b->st));
    b->tris = calloc(12, sizeof(*b->tris));
    b->frames = calloc(1, sizeof(*b->frames));
    b->poses = calloc(24, sizeof(*b->poses));
    b->intervals = calloc(1, sizeof(float));
    if (!b->skins || !b->skin_pixels || !b->st || !b->tris || !b->frames || !b->poses || !b->intervals) {
        mdl_free(b);
        return -1;
    }
    b->skins[0].count = 1;
    b->skins[0].first_interval = -1;
    b->frames[0].count = 1;
    b->frames[0].first_interval = -1;
    memset(b->skin_pixels, 250, 16);   // a yellow that reads as "placeholder" in any level
    // faces: axis, sign; corners walk counter-clockwise seen from outside
    for (int f = 0; f < 6; f++) {
        int axis = f / 2, pos = f & 1;
        int u = (axis + 1) % 3, w = (axis + 2) % 3;
        static const int cu[4] = {0, 1, 1, 0}, cw[4] = {0, 0, 1, 1};
        float n[3] = {0, 0, 0};
        n[axis] = pos ? 1.0f : -1.0f;
        int best = mdl_nearest_normal(n);
        for (int c = 0; c < 4; c++) {
            mdl_vert_t *p = &b->poses[f * 4 + c];
            p->v[axis] = pos ? 255 : 0;
            // reverse the walk on the negative faces so every face winds outward
            int cc = pos ? c : 3 - c;
            p->v[u] = cu[cc] ? 255 : 0;
            p->v[w] = cw[cc] ? 255 : 0;
            p->normal = (uint8_t)best;
            b->st[f * 4 + c].s = cu[cc] * 3;
            b->st[f * 4 + c].t = cw[cc] * 3;
        }
        for (int t = 0; t < 2; t++) {
            mdl_tri_t *tri = &b->tris[f * 2 + t];
            tri->facesfront = 1;
            tri->v[0] = f * 4;
            tri->v[1] = f * 4 + 1 + t;
            tri->v[2] = f * 4 + 2 + t;
        }
    }
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = s[n - k + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != suffix[i])
            return 0;
    }
    return 1;
}

static void free_model(r_model_t *rm)
{
    mdl_free(&rm->mdl);
    spr_free(&rm->spr);
    r_studio_free(rm->studio);
    rm->studio = NULL;
    rm->kind = RMOD_NONE;
}

// Half-Life sprites carry their own palette: their pixels are mapped to the
// level's once, here, so they draw like Quake's (index 255 transparent).
// Additive ones cannot add on 8 bits: their dark pixels, which would add
// almost nothing, become transparent instead (r_sprite_draw_hl adds the rest
// through a table); index-alpha ones keep their index, which is the alpha of the
// palette's last colour (r_hlmodes.c's index-alpha tables).
static void sprite_to_level(spr_t *sp, const uint8_t *palette)
{
    uint8_t map[256];
    for (int i = 0; i < 256; i++) {
        const uint8_t *c = sp->palette + i * 3;
        int bright = c[0] > c[1] ? (c[0] > c[2] ? c[0] : c[2]) : (c[1] > c[2] ? c[1] : c[2]);
        if (sp->texformat == SPR_TEX_INDEXALPHA)
            map[i] = (uint8_t)(i < 255 ? i : 254);   // the alpha itself: r_sprite_draw_hl blends by it
        else if ((sp->texformat == SPR_TEX_ALPHATEST && i == 255) || (sp->texformat == SPR_TEX_ADDITIVE && bright < 32))
            map[i] = 255;
        else
            map[i] = (uint8_t)pal_nearest(palette, 255, c[0], c[1], c[2]);
    }
    spr_remap(sp, map);
}

static uint8_t *vfs_file(void *ctx, const char *path, size_t *size) { return vfs_load(ctx, path, size); }

// Which loader a file needs, by its magic; files of unknown content go by
// their extension (so the loader's own error is the one reported).
typedef enum { LD_NONE, LD_MDL, LD_SPR, LD_MD2, LD_SP2, LD_STUDIO } r_loader_t;

static r_loader_t loader_for(const char *name, const uint8_t *bytes, size_t size)
{
    static const struct { const char magic[5]; r_loader_t ld; } magics[] = {
        {"IDPO", LD_MDL}, {"IDSP", LD_SPR}, {"IDP2", LD_MD2}, {"IDS2", LD_SP2}, {"IDST", LD_STUDIO}};
    for (size_t i = 0; bytes && size >= 4 && i < sizeof magics / sizeof magics[0]; i++)
        if (memcmp(bytes, magics[i].magic, 4) == 0)
            return magics[i].ld;
    return ends_with(name, ".mdl") ? LD_MDL : ends_with(name, ".spr") ? LD_SPR : ends_with(name, ".md2") ? LD_MD2
           : ends_with(name, ".sp2") ? LD_SP2 : LD_NONE;
}

// Load name into rm. Returns 1 when it is a model of ours but not in the game
// folders (the caller says so, once for all), 2 when it could not be loaded (said here).
static int load_model(r_model_t *rm, vfs_t *fs, const char *name, const uint8_t *palette)
{
    free_model(rm);
    snprintf(rm->name, sizeof rm->name, "%s", name);
    // "#w_..." are Quake II weapon names, found under each player model
    if (loader_for(name, NULL, 0) == LD_NONE || name[0] == '#')
        return 0;
    size_t size = 0;
    uint8_t *bytes = fs ? vfs_load(fs, name, &size) : NULL;
    char err[160];
    rm->kind = RMOD_MISSING;
    if (!bytes) {
        return 1;
    }
    r_loader_t ld = loader_for(name, bytes, size);
    if (ld == LD_STUDIO) {   // GoldSrc studio model
        rm->studio = r_studio_load(bytes, size, name, fs, palette, err, sizeof err);
        free(bytes);
        if (!rm->studio)
            log_warn("%s; drawn as a box", err);
        rm->kind = rm->studio ? RMOD_STUDIO : RMOD_MISSING;
        return rm->studio ? 0 : 2;
    }
    asset_files_t files = {fs ? vfs_file : NULL, fs};
    int rc = ld == LD_MDL   ? mdl_load(&rm->mdl, bytes, size, err, sizeof err)
             : ld == LD_SPR ? spr_load(&rm->spr, bytes, size, err, sizeof err)
             : ld == LD_MD2 ? md2_load(&rm->mdl, bytes, size, &files, err, sizeof err)
                            : sp2_load(&rm->spr, bytes, size, &files, err, sizeof err);
    free(bytes);
    if (rc < 0) {
        log_warn("%s: %s; drawn as a box", name, err);
        return 2;
    }
    if (ld == LD_SPR && rm->spr.has_palette)
        sprite_to_level(&rm->spr, palette);
    rm->kind = ld == LD_MDL || ld == LD_MD2 ? RMOD_ALIAS : RMOD_SPRITE;
    return 0;
}

static int ensure_scratch(r_models_t *m, int numverts)
{
    if (numverts <= m->scratch.cap)
        return 0;
    r_cvert_t *view = realloc(m->scratch.view, (size_t)numverts * sizeof(r_cvert_t));
    if (!view)
        return -1;
    m->scratch.view = view;
    d_vert_t *proj = realloc(m->scratch.proj, (size_t)numverts * sizeof(d_vert_t));
    if (!proj)
        return -1;
    m->scratch.proj = proj;
    d_subvert_t *sub = realloc(m->scratch.sub, (size_t)numverts * sizeof(d_subvert_t));
    if (!sub)
        return -1;
    m->scratch.sub = sub;
    m->scratch.cap = numverts;
    return 0;
}

// ---- Quake II player models -------------------------------------------------------

// A model or skin name from a demo: a plain file name, nothing that climbs out of players/.
static int plain_name(const char *s, size_t len)
{
    if (len == 0 || len > 31 || s[0] == '.')
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_' || s[i] == '-' || s[i] == '.'))
            return 0;
    return 1;
}

static int scratch_for(r_models_t *m, const r_model_t *rm)
{
    return rm->kind == RMOD_ALIAS ? ensure_scratch(m, rm->mdl.numverts) : 0;
}

// The player model `name`, loaded on first use with its weapons. -1: none.
static int pmodel_get(r_models_t *m, const char *name)
{
    for (int i = 0; i < m->num_pmodels; i++)
        if (strcmp(m->pmodels[i].name, name) == 0)
            return m->pmodels[i].body.kind == RMOD_ALIAS ? i : -1;
    if (m->num_pmodels >= R_MAX_PMODELS)
        return -1;
    r_pmodel_t *pm = &m->pmodels[m->num_pmodels++];
    snprintf(pm->name, sizeof pm->name, "%s", name);
    char path[WORLD_NAME_LEN * 2];
    snprintf(path, sizeof path, "players/%s/tris.md2", name);
    if (!m->fs || !vfs_exists(m->fs, path))
        return -1;   // remembered as absent: no second look
    load_model(&pm->body, m->fs, path, m->palette);
    if (pm->body.kind != RMOD_ALIAS || scratch_for(m, &pm->body) < 0) {
        free_model(&pm->body);
        return -1;
    }
    for (int k = 0; k < m->num_vwep; k++) {
        snprintf(path, sizeof path, "players/%s/%s", name, m->vwep_names[k]);
        if (vfs_exists(m->fs, path))
            load_model(&pm->weapons[k], m->fs, path, m->palette);
        if (pm->weapons[k].kind != RMOD_ALIAS || scratch_for(m, &pm->weapons[k]) < 0)
            free_model(&pm->weapons[k]);
    }
    return (int)(pm - m->pmodels);
}

// The player's skin picture players/<model>/<skin>.pcx fitted to the body: 0, or -1 when absent.
static int client_skin(r_models_t *m, r_client_t *c, const char *model, const char *skin)
{
    const mdl_t *body = &m->pmodels[c->pmodel].body.mdl;
    char path[WORLD_NAME_LEN * 2];
    snprintf(path, sizeof path, "players/%s/%s.pcx", model, skin);
    size_t size = 0;
    uint8_t *bytes = vfs_load(m->fs, path, &size);
    if (!bytes)
        return -1;
    if (!c->skin)
        c->skin = malloc((size_t)body->skinwidth * (size_t)body->skinheight);
    int rc = c->skin ? md2_skin_from_pcx(c->skin, body->skinwidth, body->skinheight, bytes, size) : -1;
    free(bytes);
    return rc;
}

// Make client c from a skin string, as the game does: an unknown model becomes
// male, a skin the model lacks is looked for under male, then male/grunt.
static void client_load(r_models_t *m, r_client_t *c, const char *info)
{
    snprintf(c->key, sizeof c->key, "%s", info);
    free(c->skin);
    c->skin = NULL;
    const char *ms = strchr(info, '\\');
    ms = ms ? ms + 1 : info;
    const char *slash = strpbrk(ms, "/\\");
    char model[32] = "male", skin[32] = "grunt";
    if (slash && plain_name(ms, (size_t)(slash - ms)) && plain_name(slash + 1, strlen(slash + 1))) {
        snprintf(model, sizeof model, "%.*s", (int)(slash - ms), ms);
        snprintf(skin, sizeof skin, "%s", slash + 1);
    }
    c->pmodel = pmodel_get(m, model);
    if (c->pmodel < 0) {
        snprintf(model, sizeof model, "male");
        c->pmodel = pmodel_get(m, model);
    }
    if (c->pmodel < 0)
        return;
    if (client_skin(m, c, model, skin) == 0)
        return;
    if (strcmp(model, "male") != 0) {
        int male = pmodel_get(m, "male");
        if (male >= 0) {
            c->pmodel = male;
            snprintf(model, sizeof model, "male");
            free(c->skin);
            c->skin = NULL;
            if (client_skin(m, c, model, skin) == 0)
                return;
        }
    }
    if (client_skin(m, c, model, "grunt") < 0) {
        free(c->skin);
        c->skin = NULL;
    }
}

// Players whose skin string changed get their models (allocation only then).
static void update_clients(r_models_t *m, const world_t *w)
{
    if (!rules_of(w)->own_model || !m->fs)
        return;
    if (!m->clients[R_BASE_CLIENT].key[0])
        client_load(m, &m->clients[R_BASE_CLIENT], "\\male/grunt");
    int n = w->maxclients > 0 && w->maxclients < WORLD_MAX_PLAYERS ? w->maxclients : WORLD_MAX_PLAYERS;
    for (int i = 0; i < n; i++) {
        const char *info = w->players[i].skin;
        r_client_t *c = &m->clients[i];
        if (!info[0]) {
            c->pmodel = -1;
            c->key[0] = 0;
        } else if (strcmp(info, c->key) != 0) {
            client_load(m, c, info);
        }
    }
}

// The client an entity's skin number names (its low byte), or the base one.
static const r_client_t *client_of(const r_models_t *m, int skinnum)
{
    const r_client_t *c = &m->clients[(skinnum & 0xff) < WORLD_MAX_PLAYERS ? (skinnum & 0xff) : R_BASE_CLIENT];
    return c->pmodel >= 0 ? c : &m->clients[R_BASE_CLIENT];
}

r_models_t *r_models_create(void)
{
    r_models_t *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->trans = malloc((size_t)WORLD_MAX_PLAYERS * 64 * 256);
    m->anim = malloc((size_t)WORLD_MAX_ENTITIES * sizeof *m->anim);
    m->hlplayers = r_studio_players_create();
    m->alpha_pal = malloc(sizeof *m->alpha_pal);
    m->q2fx = r_q2fx_create();
    m->hlfx = r_hlfx_create();
    m->hltent_list = malloc(HLTENT_MAX * sizeof *m->hltent_list);
    m->hltent_trails = malloc(HLFX_MAX_PARTICLES * sizeof *m->hltent_trails);
    m->hltent_smoke = malloc(HLFX_MAX_PARTICLES * sizeof *m->hltent_smoke);
    for (int i = 0; i <= WORLD_MAX_PLAYERS; i++)
        m->clients[i].pmodel = -1;
    if (!m->trans || !m->anim || !m->alpha_pal || !m->q2fx || !m->hlfx || !m->hltent_list || !m->hltent_trails ||
        !m->hltent_smoke || make_box(&m->box.mdl) < 0 || ensure_scratch(m, 24) < 0) {
        r_models_destroy(m);
        return NULL;
    }
    m->box.kind = RMOD_ALIAS;
    r_models_clear(m);
    return m;
}

static void free_players(r_models_t *m)
{
    for (int i = 0; i < m->num_pmodels; i++) {
        free_model(&m->pmodels[i].body);
        for (int k = 0; k < R_MAX_VWEP; k++)
            free_model(&m->pmodels[i].weapons[k]);
    }
    m->num_pmodels = 0;
    for (int i = 0; i <= WORLD_MAX_PLAYERS; i++) {
        free(m->clients[i].skin);
        m->clients[i].skin = NULL;
        m->clients[i].key[0] = 0;
        m->clients[i].pmodel = -1;
    }
}

static void free_level(r_models_t *m)
{
    free_players(m);
    for (int i = 0; i < m->num_models; i++)
        free_model(&m->models[i]);
    free(m->models);
    m->models = NULL;
    m->num_models = 0;
    m->num_vwep = 0;
    for (int i = 0; i < XM_COUNT; i++)
        free_model(&m->extra[i]);
    for (int i = 0; i < Q2M_COUNT; i++)
        free_model(&m->q2extra[i]);
    free_model(&m->hl_muzzle);
    for (int i = 0; i < 3; i++)
        free_model(&m->hl_muzzles[i]);
}

void r_models_destroy(r_models_t *m)
{
    if (!m)
        return;
    free_level(m);
    mdl_free(&m->box.mdl);
    free(m->scratch.view);
    free(m->scratch.proj);
    free(m->scratch.sub);
    free(m->trans);
    free(m->anim);
    r_studio_players_free(m->hlplayers);
    free(m->alpha_pal);
    r_q2fx_destroy(m->q2fx);
    r_hlfx_destroy(m->hlfx);
    free(m->hltent_list);
    free(m->hltent_trails);
    free(m->hltent_smoke);
    free(m);
}

// Load the models of the world's list whose names changed since they were loaded (all of
// them for a new level; later, the ones the game names in mid-level) into m->models, which
// holds w->num_models entries. Returns how many could not be loaded; the missing ones are
// reported in one line, not one per model: a mod's demo can name a hundred the folders lack.
static int load_named_models(r_models_t *m, const world_t *w)
{
    int n = m->num_models, missing = 0, absent = 0, first_absent = 0;
    for (int i = 1; i < n; i++) {
        r_model_t *rm = &m->models[i];
        // an empty name keeps what is loaded: a seek back before the precache list (to the
        // demo's start) empties the names, and the same names come back as it replays
        if (!w->models[i][0] || !strncmp(rm->name, w->models[i], WORLD_NAME_LEN))
            continue;
        int rc = load_model(rm, m->fs, w->models[i], m->palette);
        missing += rc != 0;
        if (rc == 1 && !absent++)
            first_absent = i;
        if (rm->kind == RMOD_ALIAS)
            ensure_scratch(m, rm->mdl.numverts);
        if (ends_with(w->models[i], "s_explod.spr"))
            m->explod_index = i;
        if (w->models[i][0] == '#' && m->num_vwep < R_MAX_VWEP)
            snprintf(m->vwep_names[m->num_vwep++], WORLD_NAME_LEN, "%s", w->models[i] + 1);
    }
    if (absent == 1)
        log_warn("%s: missing, drawn as a box", w->models[first_absent]);
    else if (absent > 1)
        log_warn("%d of the level's %d models are missing (the first: %s), drawn as boxes", absent, n - 1,
                 w->models[first_absent]);
    m->models_seq = w->models_seq;
    return missing;
}

int r_models_load_level(r_models_t *m, vfs_t *fs, const world_t *w, const uint8_t *palette)
{
    memcpy(m->palette, palette, sizeof m->palette);
    m->alpha_ready = 0;
    free_level(m);
    m->fs = fs;
    r_models_clear(m);
    int n = w->num_models > 0 && !rules_of(w)->own_drawer ? w->num_models : 0;
    if (n > WORLD_MAX_MODELS)
        n = WORLD_MAX_MODELS;
    m->models = calloc((size_t)(n > 0 ? n : 1), sizeof(r_model_t));
    if (!m->models)
        return -1;
    m->num_models = n;
    m->explod_index = 0;
    memset(m->hltent_warned, 0, sizeof m->hltent_warned);
    memset(m->hlspr_warned, 0, sizeof m->hlspr_warned);
    int missing = load_named_models(m, w);
    // temp entity models are the client's own; absent ones just are not drawn
    for (int i = 0; i < XM_COUNT; i++) {
        if (fs && vfs_exists(fs, xm_names[i]))
            load_model(&m->extra[i], fs, xm_names[i], m->palette);
        if (m->extra[i].kind == RMOD_MISSING)
            m->extra[i].kind = RMOD_NONE;
        if (m->extra[i].kind == RMOD_ALIAS && ensure_scratch(m, m->extra[i].mdl.numverts) < 0)
            return -1;
    }
    for (int i = 0; rules_of(w)->q2fx && i < Q2M_COUNT; i++) {
        if (fs && vfs_exists(fs, r_q2fx_model_names[i]))
            load_model(&m->q2extra[i], fs, r_q2fx_model_names[i], m->palette);
        if (m->q2extra[i].kind == RMOD_MISSING)
            m->q2extra[i].kind = RMOD_NONE;
        if (m->q2extra[i].kind == RMOD_ALIAS && ensure_scratch(m, m->q2extra[i].mdl.numverts) < 0)
            return -1;
    }
    for (size_t i = 0; rules_of(w)->hlfx && i < sizeof hl_muzzle_names / sizeof hl_muzzle_names[0]; i++) {
        if (fs && vfs_exists(fs, hl_muzzle_names[i]))
            load_model(&m->hl_muzzle, fs, hl_muzzle_names[i], m->palette);
        if (m->hl_muzzle.kind == RMOD_SPRITE)
            break;
        free_model(&m->hl_muzzle);
        m->hl_muzzle.kind = RMOD_NONE;
    }
    for (int i = 0; rules_of(w)->hlfx && i < 3; i++) {
        if (fs && vfs_exists(fs, hl_muzzleflash_names[i]))
            load_model(&m->hl_muzzles[i], fs, hl_muzzleflash_names[i], m->palette);
        if (m->hl_muzzles[i].kind != RMOD_SPRITE) {
            free_model(&m->hl_muzzles[i]);
            m->hl_muzzles[i].kind = RMOD_NONE;
        }
    }
    if (ensure_scratch(m, 24) < 0)
        return -1;
    update_clients(m, w);
    return missing;
}

struct r_hlfx_s *r_models_hlfx(r_models_t *m) { return m ? m->hlfx : NULL; }


void r_models_clear(r_models_t *m)
{
    r_part_clear(&m->part);
    if (m->q2fx)
        r_q2fx_clear(m->q2fx);
    r_hlfx_clear(m->hlfx);
    memset(m->beams, 0, sizeof(m->beams));
    memset(m->tsprites, 0, sizeof(m->tsprites));
    memset(m->lights, 0, sizeof(m->lights));
    m->rng = 0x9e3779b9u;
    m->vw_model = m->vw_frame = m->vw_prev_frame = 0;
    m->vw_start = m->vw_prev_start = -1e9;
    m->gun_valid = 0;
    for (int i = 0; i < WORLD_MAX_ENTITIES; i++)
        m->anim[i].change = m->anim[i].prev_change = m->anim[i].flash = -1e9;
    for (int i = 0; i < WORLD_MAX_PLAYERS; i++)
        m->trans_key[i] = -1;
    m->trans_src = NULL;
}

// ---- helpers -------------------------------------------------------------------

static float lerp_frac(const world_t *w, double t)
{
    double span = w->time - w->prev_time;
    if (!(span > 0))
        return 1;
    double f = (t - w->prev_time) / span;
    return f < 0 ? 0.0f : f > 1 ? 1.0f : (float)f;
}

static void entity_place(const world_entity_t *e, float frac, vec3_t org, vec3_t ang)
{
    for (int k = 0; k < 3; k++) {
        if (!e->lerp_ok) {
            org[k] = e->cur.origin[k];
            ang[k] = e->cur.angles[k];
            continue;
        }
        org[k] = e->prev.origin[k] + frac * (e->cur.origin[k] - e->prev.origin[k]);
        float d = e->cur.angles[k] - e->prev.angles[k];
        d -= 360.0f * floorf((d + 180.0f) / 360.0f);   // the short way round
        ang[k] = e->prev.angles[k] + frac * d;
    }
}

static const r_model_t *model_of(const r_models_t *m, int index)
{
    if (index <= 0 || index >= m->num_models)
        return NULL;
    const r_model_t *rm = &m->models[index];
    if (rm->kind == RMOD_MISSING)
        return &m->box;
    return rm->kind == RMOD_NONE ? NULL : rm;
}

int r_models_view_attachment(r_models_t *m, int model, int seq, int body, double elapsed, const vec3_t eye,
                             const vec3_t angles, int n, vec3_t out)
{
    const r_model_t *rm = m ? model_of(m, model) : NULL;
    if (!rm || rm->kind != RMOD_STUDIO)
        return -1;
    vec3_t axes[3];
    r_angle_vectors(angles, axes[0], axes[1], axes[2]);
    return r_studio_view_attachment_at(rm->studio, eye, (const vec3_t *)axes, seq, body, elapsed, n, out);
}

// The trail (R_RocketTrail type) of a model's flags, in CL_RelinkEntities' order of
// precedence: gib, zombie gib, tracer, tracer2, rocket, grenade, tracer3.
static int trail_type(int mflags, uint32_t effects)
{
    if ((mflags & MDL_EF_GIB) || (effects & EF_GIB))
        return 2;
    if (mflags & MDL_EF_ZOMGIB)
        return 4;
    if (mflags & MDL_EF_TRACER)
        return 3;
    if (mflags & MDL_EF_TRACER2)
        return 5;
    if ((mflags & MDL_EF_ROCKET) || (effects & EF_ROCKET))
        return 0;
    if ((mflags & MDL_EF_GRENADE) || (effects & EF_GRENADE))
        return 1;
    if (mflags & MDL_EF_TRACER3)
        return 6;
    return -1;
}

// Quake's player colours: rows 16..31 (shirt) and 96..111 (pants) replaced by
// the chosen ranges, reversed for the ranges painted dark-to-light.
static const uint8_t *player_colormap(r_models_t *m, const world_t *w, const r_view_t *v, int colormap)
{
    if (colormap < 1 || colormap > WORLD_MAX_PLAYERS || (w->maxclients > 0 && colormap > w->maxclients))
        return v->colormap;
    int slot = colormap - 1;
    int top = (w->players[slot].top_color & 15) * 16, bottom = (w->players[slot].bottom_color & 15) * 16;
    int key = top | (bottom >> 4);
    if (m->trans_src != v->colormap) {
        for (int i = 0; i < WORLD_MAX_PLAYERS; i++)
            m->trans_key[i] = -1;
        m->trans_src = v->colormap;
    }
    uint8_t *dst = m->trans + (size_t)slot * 64 * 256;
    if (m->trans_key[slot] != key) {
        for (int row = 0; row < 64; row++) {
            const uint8_t *src = v->colormap + row * 256;
            uint8_t *d = dst + row * 256;
            memcpy(d, src, 256);
            for (int j = 0; j < 16; j++) {
                d[16 + j] = src[top < 128 ? top + j : top + 15 - j];
                d[96 + j] = src[bottom < 128 ? bottom + j : bottom + 15 - j];
            }
        }
        m->trans_key[slot] = key;
    }
    return dst;
}

static int light_at(const r_view_t *v, const vec3_t p)
{
    // without a world (or its lighting) models are drawn fully lit, as Quake does for unlit maps
    return v->light_point ? v->light_point(v->light_ctx, p) : 255;
}

// Quake's model light (R_AliasSetupLighting): the lightmaps under p, at least minlight,
// for both parts; dlights reaching p add to the ambient part alone; then the ambient
// is held to 128 and the sum to 192.
static void model_light(const world_t *w, const r_view_t *v, const vec3_t p, int minlight, int *ambient, int *shade)
{
    if (!rules_of(w)->light_above) {   // id's rules, dlights in both parts
        int j = light_at(v, p);
        if (j < minlight)
            j = minlight;
        *ambient = j > 128 ? 128 : j;
        *shade = j + *ambient > 192 ? 192 - *ambient : j;
        return;
    }
    int j = v->light_point_world ? v->light_point_world(v->light_ctx, p) : light_at(v, p);
    if (j < minlight)
        j = minlight;
    int amb = j, sh = j;
    for (int l = 0; l < v->num_dlights; l++) {
        const r_dlight_t *d = &v->dlights[l];
        if (d->die < v->time || d->dark)
            continue;
        float dx = p[0] - d->origin[0], dy = p[1] - d->origin[1], dz = p[2] - d->origin[2];
        int add = (int)(d->radius - sqrtf(dx * dx + dy * dy + dz * dz));
        if (add > 0)
            amb += add;
    }
    if (amb > 128)
        amb = 128;
    if (amb + sh > 192)
        sh = 192 - amb;
    *ambient = amb;
    *shade = sh;
}

// Does a pose change at `change` blend in from the pose before? Not when the entity
// flashed since the change before it (FitzQuake's reset of the blend at a muzzle flash,
// which also snaps the next change).
static int blend_allowed(const r_rules_t *ru, double prev_change, double flash)
{
    return !ru->flash_snaps || !(flash > -1e8 && flash >= prev_change);
}

static float model_radius(const mdl_t *mdl)
{
    float r = 0;
    for (int k = 0; k < 3; k++) {
        float a = fabsf(mdl->mins[k]) > fabsf(mdl->maxs[k]) ? fabsf(mdl->mins[k]) : fabsf(mdl->maxs[k]);
        r += a * a;
    }
    return sqrtf(r);
}

// The level palette's computed see-through table (33 % at [a * 256 + b]), made the first time it is needed.
static const uint8_t *computed_table(r_models_t *m, const r_view_t *v)
{
    if (!m->alpha_ready) {
        memcpy(m->alpha_pal->palette, m->palette, 768);
        m->alpha_pal->fullbright_start = v->fullbright_start > 0 && v->fullbright_start <= 256 ? v->fullbright_start : 256;
        pal_make_alphamap(m->alpha_pal);
        m->alpha_ready = 1;
    }
    return m->alpha_pal->alphamap;
}

// FitzQuake's entity alpha (protocols 666/999): how an entity is seen through. Returns
// 0 when it is not drawn at all (alpha 0), else 1 with *amap the level's blend table
// (built from the palette the first time a level needs it) or NULL for opaque, and
// *a66 set for 66 % (alpha 0.5 and up) rather than 33 %.
static int entity_alpha(r_models_t *m, const world_t *w, const r_view_t *v, const entity_state_t *s,
                        const uint8_t **amap, int *a66)
{
    *amap = NULL;
    *a66 = 0;
    if (!rules_of(w)->entity_alpha || s->rendermode != RM_TEXTURE || s->renderamt >= 255)
        return 1;
    if (s->renderamt <= 0)
        return 0;
    *amap = computed_table(m, v);
    *a66 = s->renderamt >= 128;
    return 1;
}
static int brightness(const uint8_t *palette, int c) { return palette[c * 3] + palette[c * 3 + 1] + palette[c * 3 + 2]; }

// Which way round a see-through table is, from its own numbers: the brightest colour over
// the darkest at [a * 256 + b] lands above their middle when a counts 66 % (Quake II's
// colormap.pcx), below it when a counts 33 % (the computed one).
static int table_66_first(const uint8_t *amap, const uint8_t *palette)
{
    int hi = 0, lo = 0;
    for (int c = 1; c < 256; c++) {
        if (brightness(palette, c) > brightness(palette, hi))
            hi = c;
        if (brightness(palette, c) < brightness(palette, lo))
            lo = c;
    }
    int mid = (brightness(palette, hi) + brightness(palette, lo)) / 2;
    return brightness(palette, amap[hi * 256 + lo]) > mid;
}

// ref_soft's 33 or 66 % blend: the table (the palette's own, else computed) and the
// alpha66 flag d_polyse needs for it. NULL for opaque.
static const uint8_t *q2_table(r_models_t *m, const r_view_t *v, q2_alpha_t mode, int *a66)
{
    *a66 = 0;
    if (mode == Q2_ALPHA_OPAQUE)
        return NULL;
    const uint8_t *amap = v->alphamap;
    int flip = 0;
    if (amap) {
        if (m->table_of != amap) {
            m->table_66_first = table_66_first(amap, v->palette ? v->palette : m->palette);
            m->table_of = amap;
        }
        flip = m->table_66_first;
    } else {
        amap = computed_table(m, v);
    }
    // d_polyse draws amap[c * 256 + dst] (a66 = 0) or amap[dst * 256 + c] (a66 = 1)
    *a66 = (mode == Q2_ALPHA_66) != flip;
    return amap;
}

// How one model of an entity is drawn, beyond its state.
typedef struct {
    const uint8_t *skin;        // replaces the model's skin (Quake II player skins), or NULL
    int fullbright;
    uint32_t rfx;               // Quake II: the renderfx its light follows (r_q2_model_light)
    int translucent;            // Quake II: drawn through the 33/66 % tables by `alpha`
    float alpha;
    int shell;                  // Quake II: drawn as a colour shell of shell_color
    uint8_t shell_color;
} r_look_t;

// Quake II's model light (R_AliasSetupLighting): the light point after the entity's flags,
// then ambient at most 128 and ambient + shade at most 192.
static void q2_model_light(const r_view_t *v, const vec3_t p, uint32_t rfx, int *ambient, int *shade)
{
    int j = r_q2_model_light(rfx & Q2RF_FULLBRIGHT ? 255 : light_at(v, p), rfx, v->time);
    *ambient = j > 128 ? 128 : j;
    *shade = j + *ambient > 192 ? 192 - *ambient : j;
}

// Draw one entity's model. prev_frame < 0: no frame blend.
static void draw_entity(r_models_t *m, const world_t *w, r_view_t *v, const r_model_t *rm, const vec3_t org,
                        const vec3_t angles, const entity_state_t *s, int prev_frame, double anim_start,
                        const r_look_t *look)
{
    double t = v->time;
    vec3_t ang = {angles[0], angles[1], angles[2]};
    if (rm->kind == RMOD_STUDIO) {   // animtime counts on the game's clock
        r_studio_entity(v, rm->studio, org, ang, s, m->draw_entnum, w->server_time + (t - w->time), light_at(v, org));
        return;
    }
    if (rm->kind == RMOD_SPRITE) {
        const spr_t *sp = &rm->spr;
        float r = sp->radius > 0 ? sp->radius : (float)(sp->width > sp->height ? sp->width : sp->height);
        if (!r_sphere_visible(v, org, r))
            return;
        int frame = s->frame;
        if (rules_of(w)->sprite_frames_wrap && frame >= 0 && sp->numframes > 0)
            frame %= sp->numframes;
        if (v->hlmodes) {   // Half-Life's render modes and sprite formats (r_sprite.c)
            r_sprite_draw_hl(v, sp, spr_image(sp, frame, t), org, ang, s, m->draw_entnum);
            return;
        }
        const uint8_t *amap;
        int a66;
        if (rules_of(w)->q2_looks) {   // R_DrawSprite: anything below 1 through a table, 66 % above 0.33
            q2_alpha_t mode = !look || !look->translucent || look->alpha >= 1 ? Q2_ALPHA_OPAQUE
                              : look->alpha > 0.33f                       ? Q2_ALPHA_66 : Q2_ALPHA_33;
            amap = q2_table(m, v, mode, &a66);
            r_sprite_draw_alpha(v, sp, spr_image(sp, frame, t), org, ang, amap, a66);
        } else if (entity_alpha(m, w, v, s, &amap, &a66)) {
            r_sprite_draw_alpha(v, sp, spr_image(sp, frame, t), org, ang, amap, a66);
        }
        return;
    }
    const mdl_t *mdl = &rm->mdl;
    r_alias_job_t job = {0};
    if (!entity_alpha(m, w, v, s, &job.alphamap, &job.alpha66))
        return;
    if (!r_sphere_visible(v, org, model_radius(mdl)))
        return;
    if (mdl->flags & MDL_EF_ROTATE)
        ang[1] = (float)fmod(100.0 * t, 360.0);
    if (s->effects & EF_ROTATE) {
        // Quake II's pickups: upright, turning at 100 degrees a second
        ang[0] = ang[2] = 0;
        ang[1] = (float)fmod(100.0 * t, 360.0);
    }
    job.mdl = mdl;
    job.pose_b = mdl_pose(mdl, s->frame, t);
    job.pose_a = job.pose_b;
    job.blend = 1;
    if (prev_frame >= 0 && prev_frame != s->frame) {
        job.pose_a = mdl_pose(mdl, prev_frame, t);
        job.blend = (float)((t - anim_start) / ANIM_LERP_TIME);
    }
    memcpy(job.origin, org, sizeof(vec3_t));
    memcpy(job.angles, ang, sizeof(vec3_t));
    job.skin = look && look->skin ? look->skin : mdl_skin(mdl, s->skin, t);
    job.colormap = player_colormap(m, w, v, s->colormap);
    job.light_above = rules_of(w)->light_above;
    vec3_t axes[3];
    if (rules_of(w)->q2_looks) {
        // Quake II turns its models by their angles as they are (Quake inverts the pitch)
        r_angle_vectors(ang, axes[0], axes[1], axes[2]);
        job.axes = (const vec3_t *)axes;
        q2_model_light(v, org, look ? look->rfx : 0, &job.ambient, &job.shade);
        if (look && look->shell) {   // a flat colour, 4 units out along the normals, 33 % (alpha 0.30)
            job.flat = 1;
            job.flat_color = look->shell_color;
            job.shell = Q2_POWERSUIT_SCALE;
            job.alphamap = q2_table(m, v, r_q2_flat_alpha_mode(Q2_SHELL_ALPHA), &job.alpha66);
        } else if (look && look->translucent) {
            job.alphamap = q2_table(m, v, r_q2_alpha_mode(look->alpha), &job.alpha66);
        }
        r_alias_draw(v, &m->scratch, &job);
        return;
    }
    model_light(w, v, org, 0, &job.ambient, &job.shade);
    if (look && look->fullbright) {
        job.ambient = 128;
        job.shade = 0;
    }
    job.subdiv = 1;
    r_alias_draw(v, &m->scratch, &job);
}

// Quake II's frames set by time (EF_ANIM*: animated walls, lights, the BFG ball):
// `frame` or the one they give at time t.
static int timed_frame(const r_rules_t *ru, const entity_state_t *s, int frame, double t)
{
    if (!ru->raw_anim || t < 0 || t > 1e9)
        return frame;
    int autoanim = (int)(2 * t);    // two frames a second
    uint32_t fx = s->raw_effects;
    if (fx & Q2EF_ANIM01)
        return autoanim & 1;
    if (fx & Q2EF_ANIM23)
        return 2 + (autoanim & 1);
    if (fx & Q2EF_ANIM_ALL)
        return autoanim;
    if (fx & Q2EF_ANIM_ALLFAST)
        return (int)(10 * t);
    return frame;
}

// An entity's models: the main one (for Quake II also the player's own model
// and skin), then the linked ones (weapon, heads ...) at the same place.
// Quake II draws an entity's see-through models (its RF_TRANSLUCENT ones, its colour shell,
// a power screen) in a second pass after every solid one (ref_soft's R_DrawEntitiesOnList);
// `pass` 0 draws the solid ones, 1 the others. Other games draw everything in pass 0.
static void draw_entity_models(r_models_t *m, const world_t *w, r_view_t *v, const world_entity_t *e,
                               const vec3_t org, const vec3_t ang, int pass)
{
    m->draw_entnum = (int)(e - w->entities);
    const r_rules_t *ru = rules_of(w);
    entity_state_t s = e->cur;
    s.frame = timed_frame(ru, &s, s.frame, v->time);
    int prev = e->lerp_ok && s.frame == e->cur.frame ? e->anim_prev_frame : -1;
    const r_anim_t *an = &m->anim[e - w->entities];
    if (!blend_allowed(ru, an->prev_change, an->flash))
        prev = -1;
    r_look_t look = {NULL, (s.renderfx & ru->fullbright_rf) != 0, 0, 0, 1, 0, 0};
    uint32_t shell = 0;
    if (ru->q2_looks) {
        // CL_AddPacketEntities: a shell takes the entity's renderfx, the model keeps none
        shell = r_q2_shell_bits(s.raw_effects, s.renderfx, strcmp(w->game_dir, "rogue") == 0);
        look.rfx = shell ? 0 : s.renderfx;
        look.alpha = r_q2_entity_alpha(s.raw_effects, look.rfx);
        look.translucent = look.alpha < 1;
        look.fullbright = 0;
    }
    int main_pass = look.translucent ? 1 : 0;
    const r_client_t *client = NULL;
    const r_model_t *rm;
    if (ru->own_model && s.modelindex == ru->own_model) {
        client = client_of(m, s.skin);
        rm = client->pmodel >= 0 ? &m->pmodels[client->pmodel].body : NULL;
        look.skin = client->skin;
    } else {
        rm = model_of(m, s.modelindex);
        if (ru->own_model && (s.renderfx & Q2RF_CUSTOMSKIN))
            s.skin = 0;   // an image index, not a skin number
    }
    int hl_client = (int)(e - w->entities) - 1;
    int dead = rm && rm->kind == RMOD_STUDIO && !(hl_client >= 0 && hl_client < w->maxclients)
                   ? r_hl_dead_player(&s, w->maxclients) : -1;
    if (dead >= 0) {
        // GoldSrc's body queue (kRenderFxDeadPlayer): drawn as player `dead`, with the model the player
        // entity has when that player has none of its own; nothing for an amount that names no player
        const r_model_t *pm = dead > 0 && dead < w->num_entities ? model_of(m, w->entities[dead].cur.modelindex) : NULL;
        if (dead > 0 && pass == main_pass)
            r_studio_dead_player(v, m->hlplayers, dead - 1, pm && pm->kind == RMOD_STUDIO ? pm->studio : rm->studio,
                                 org, ang, &s, m->draw_entnum, w->server_time + (v->time - w->time), light_at(v, org));
    } else if (rm && pass == main_pass && rm->kind == RMOD_STUDIO && hl_client >= 0 && hl_client < w->maxclients) {
        // GoldSrc players: their own model, legs and aim (velocity from the last two server frames)
        float dt = (float)(w->time - w->prev_time);
        vec3_t vel = {0, 0, 0};
        for (int k = 0; k < 3 && e->lerp_ok && dt > 0.001f; k++)
            vel[k] = (e->cur.origin[k] - e->prev.origin[k]) / dt;
        r_studio_player(v, m->hlplayers, hl_client, rm->studio, org, ang, &s, vel, w->server_time + (v->time - w->time),
                        light_at(v, org));
    } else if (rm && pass == main_pass)
        draw_entity(m, w, v, rm, org, ang, &s, prev, e->anim_start_time, &look);
    if (pass == 1 && rm && shell) {
        r_look_t sh = look;
        sh.shell = 1;
        sh.shell_color = (uint8_t)r_q2_shell_color(shell);
        draw_entity(m, w, v, rm, org, ang, &s, prev, e->anim_start_time, &sh);
    }
    if (pass == 1 && ru->q2_looks && (s.raw_effects & Q2EF_POWERSCREEN) && m->extra[XM_POWERSCREEN].kind == RMOD_ALIAS) {
        r_look_t ps = {NULL, 0, 0, 1, Q2_SHELL_ALPHA, 1, (uint8_t)r_q2_shell_color(Q2RF_SHELL_GREEN)};
        entity_state_t pss = s;
        pss.frame = pss.skin = 0;
        draw_entity(m, w, v, &m->extra[XM_POWERSCREEN], org, ang, &pss, -1, 0, &ps);
    }
    if (pass != 0)
        return;
    const int32_t linked[3] = {s.modelindex2, s.modelindex3, s.modelindex4};
    look.skin = NULL;
    look.rfx = 0;   // linked models: no flags (Quake II)
    look.translucent = 0;
    for (int i = 0; i < 3; i++) {
        if (!linked[i])
            continue;
        rm = NULL;
        if (ru->own_model && linked[i] == ru->own_model) {
            // the player's weapon: the skin's second byte picks it from the "#w_..." list
            if (!client)
                client = client_of(m, s.skin);
            int k = (s.skin >> 8) & 0xff;
            const r_pmodel_t *pm = client->pmodel >= 0 ? &m->pmodels[client->pmodel] : NULL;
            const r_client_t *base = &m->clients[R_BASE_CLIENT];
            const r_pmodel_t *male = base->pmodel >= 0 ? &m->pmodels[base->pmodel] : NULL;
            if (k >= m->num_vwep)
                k = 0;
            if (pm && pm->weapons[k].kind == RMOD_ALIAS)
                rm = &pm->weapons[k];
            else if (pm && pm->weapons[0].kind == RMOD_ALIAS)
                rm = &pm->weapons[0];
            else if (male && male->weapons[0].kind == RMOD_ALIAS)
                rm = &male->weapons[0];
        } else {
            rm = model_of(m, linked[i]);
        }
        if (!rm)
            continue;
        entity_state_t ls = s;
        ls.skin = 0;
        draw_entity(m, w, v, rm, org, ang, &ls, prev, e->anim_start_time, &look);
    }
}

static void add_light(r_models_t *m, int key, const vec3_t org, float radius, double spawn, double die, float decay,
                      float minlight)
{
    r_mlight_t *slot = NULL;
    if (key)
        for (int i = 0; i < R_MAX_MLIGHTS && !slot; i++)
            if (m->lights[i].key == key)
                slot = &m->lights[i];
    for (int i = 0; i < R_MAX_MLIGHTS && !slot; i++)
        if (m->lights[i].d.die < spawn || m->lights[i].d.radius <= 0)
            slot = &m->lights[i];
    if (!slot)
        slot = &m->lights[0];
    memset(slot, 0, sizeof(*slot));
    memcpy(slot->d.origin, org, sizeof(vec3_t));
    slot->d.radius = radius;
    slot->radius0 = radius;
    slot->d.die = (float)die;
    slot->d.decay = decay;
    slot->d.minlight = minlight;
    slot->d.color = -1;
    slot->key = key;
    slot->spawn = spawn;
}

static void add_beam(r_models_t *m, const world_fx_event_t *fx, int model, double now)
{
    r_beam_t *b = NULL;
    // a new beam from the same owner replaces its last one
    for (int i = 0; i < R_MAX_BEAMS && !b; i++)
        if (m->beams[i].endtime >= now && m->beams[i].entity == fx->entity)
            b = &m->beams[i];
    for (int i = 0; i < R_MAX_BEAMS && !b; i++)
        if (m->beams[i].endtime < now)
            b = &m->beams[i];
    if (!b)
        return;
    b->entity = fx->entity;
    b->model = model;
    b->endtime = now + 0.2;
    memcpy(b->start, fx->origin, sizeof(vec3_t));
    memcpy(b->end, fx->end, sizeof(vec3_t));
}

// The game's own explosion sprite entity at this spot? Then no second one.
static int explosion_entity_near(const r_models_t *m, const world_t *w, const vec3_t org)
{
    if (!m->explod_index)
        return 0;
    for (int n = 1; n < w->num_entities; n++) {
        const world_entity_t *e = &w->entities[n];
        if (e->seq != w->seq || e->cur.modelindex != m->explod_index)
            continue;
        float d2 = 0;
        for (int k = 0; k < 3; k++)
            d2 += (e->cur.origin[k] - org[k]) * (e->cur.origin[k] - org[k]);
        if (d2 < 32 * 32)
            return 1;
    }
    return 0;
}

// An explosion sprite at org (Quake's s_explod, 10 frames a second).
static void add_tsprite(r_models_t *m, const vec3_t org, double now)
{
    if (m->extra[XM_EXPLOD].kind != RMOD_SPRITE)
        return;
    r_tsprite_t *slot = &m->tsprites[0];
    for (int i = 0; i < R_MAX_TEMP_SPRITES; i++)
        if (!m->tsprites[i].active || m->tsprites[i].start < slot->start) {
            slot = &m->tsprites[i];
            if (!slot->active)
                break;
        }
    slot->active = 1;
    slot->start = now;
    memcpy(slot->org, org, sizeof(vec3_t));
}

static void temp_entity(r_models_t *m, const world_t *w, const world_fx_event_t *fx, double now)
{
    static const vec3_t zero = {0, 0, 0};
    r_particles_t *ps = &m->part;
    int count = fx->count > 0 ? (fx->count > 1024 ? 1024 : fx->count) : 0;
    int quake_colors = w->game == GAME_QUAKE || w->game == GAME_NONE;
    int color = quake_colors && fx->color >= 0 && fx->color < 256 ? fx->color : 0;
    switch (fx->kind) {
    case FX_SPIKE: r_part_effect(ps, fx->origin, zero, 0, 10); break;
    case FX_SUPERSPIKE:
    case FX_GUNSHOT: r_part_effect(ps, fx->origin, zero, 0, 20); break;
    case FX_WIZSPIKE: r_part_effect(ps, fx->origin, zero, 20, 30); break;
    case FX_KNIGHTSPIKE: r_part_effect(ps, fx->origin, zero, 226, 20); break;
    case FX_EXPLOSION:
        r_part_explosion(ps, fx->origin);
        add_light(m, 0, fx->origin, 350, now, now + 0.5, 300, 0);
        if (!explosion_entity_near(m, w, fx->origin))
            add_tsprite(m, fx->origin, now);
        break;
    case FX_EXPLOSION2:
        r_part_explosion2(ps, fx->origin, color, count ? count : 1);
        add_light(m, 0, fx->origin, 350, now, now + 0.5, 300, 0);
        break;
    case FX_TAREXPLOSION: r_part_blob(ps, fx->origin); break;
    case FX_LIGHTNING1: add_beam(m, fx, XM_BOLT1, w->time); break;
    case FX_LIGHTNING2: add_beam(m, fx, XM_BOLT2, w->time); break;
    case FX_LIGHTNING3: add_beam(m, fx, XM_BOLT3, w->time); break;
    case FX_BEAM: add_beam(m, fx, XM_BEAM, w->time); break;
    case FX_LAVASPLASH: r_part_lava_splash(ps, fx->origin); break;
    case FX_TELEPORT: r_part_teleport(ps, fx->origin); break;
    case FX_BLOOD: r_part_effect(ps, fx->origin, fx->dir, 73, count ? count : 20); break;
    case FX_RAILTRAIL: r_part_trail(ps, fx->origin, fx->end, 1); break;
    case FX_BFG_EXPLOSION: r_part_explosion2(ps, fx->origin, 208, 8); break;
    case FX_SPRITE:
    case FX_FLASHLIGHT:
    case FX_LASER:
        break;   // other games' effects: drawn by their own renderers' rules (not Quake's)
    default:     // sparks, splashes, smoke and unknown codes: a small burst
        r_part_effect(ps, fx->origin, fx->dir, color, count ? (count > 64 ? 64 : count) : 8);
        break;
    }
}

// ---- the contract ----------------------------------------------------------------

// A seed made from a time: the same frame (or the same drawing time) always
// gets the same random numbers, so a seek shows exactly what playing showed.
static uint32_t time_seed(double t, uint32_t salt)
{
    uint64_t x;
    memcpy(&x, &t, sizeof x);
    x ^= salt;
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (uint32_t)x | 1u;
}

// Models the game names after the level began (Quake II's grenades and gibs, GoldSrc's
// whole list, which comes frames after the level starts): loaded when they are named, as
// the game's client does, whether played or sought to.
static void load_new_models(r_models_t *m, const world_t *w)
{
    int n = w->num_models < WORLD_MAX_MODELS ? w->num_models : WORLD_MAX_MODELS;
    if (n > m->num_models) {
        r_model_t *nm = realloc(m->models, (size_t)n * sizeof *nm);
        if (!nm)
            return;
        memset(nm + m->num_models, 0, (size_t)(n - m->num_models) * sizeof *nm);
        m->models = nm;
        m->num_models = n;
    }
    load_named_models(m, w);
}

// The view a frame is drawn from (r_view_t.shown: the followed player's own, or the world's).
static const world_view_t *shown_view(const world_t *w, const r_view_t *v) { return v->shown ? v->shown : &w->view; }

void r_models_set_bsp(r_models_t *m, const bsp_t *bsp)
{
    if (m)
        r_hlfx_set_level(m->hlfx, bsp);
}

void r_models_frame(r_models_t *m, const world_t *w, const world_view_t *vw)
{
    if (!vw)
        vw = &w->view;
    if (rules_of(w)->own_drawer)
        return;
    if (m->models && m->models_seq != w->models_seq)
        load_new_models(m, w);
    // Effects of this frame are born at its time, as Quake's timedemo makes them (the
    // frame is read, its effects made, drawn once where they were made, then aged).
    r_part_advance(&m->part, w->time);
    r_part_reseed(&m->part, time_seed(w->time, 1));
    m->rng = time_seed(w->time, 2);
    double now = m->part.time;
    if (rules_of(w)->q2fx)   // Quake II's client rules: its own particles, explosions and lights
        r_q2fx_frame(m->q2fx, w, w->time, time_seed(w->time, 5));
    if (rules_of(w)->hlfx) {   // Half-Life's: temp entities, client events (r_hlfx.c)
        r_hlfx_frame(m->hlfx, w, w->time, time_seed(w->time, 6));
        r_hlfx_egon_frame(m->hlfx, w);
    }
    for (int i = 0; !rules_of(w)->q2fx && !rules_of(w)->hlfx && i < w->num_events; i++) {
        const world_event_t *ev = &w->events[i];
        if (ev->type == EV_TEMPENT) {
            temp_entity(m, w, &ev->u.fx, now);
        } else if (ev->type == EV_PARTICLES) {
            const world_fx_event_t *fx = &ev->u.fx;
            int count = fx->count < 0 ? 0 : fx->count > 1024 ? 1024 : fx->count;
            r_part_effect(&m->part, fx->origin, fx->dir, fx->color & 255, count);
        } else if (ev->type == EV_DLIGHT) {
            const world_fx_event_t *fx = &ev->u.fx;
            float dur = fx->duration > 0 && fx->duration < 10 ? fx->duration : 0.1f;
            float radius = fx->radius > 0 && fx->radius < 4096 ? fx->radius : 200;
            add_light(m, fx->entity > 0 ? fx->entity : 0, fx->origin, radius, now, w->time + dur, 0, 0);
        }
    }
    // trails and muzzle flashes of the entities present in this frame
    for (int n = 1; !rules_of(w)->q2fx && n < w->num_entities; n++) {
        const world_entity_t *e = &w->entities[n];
        if (!world_entity_visible(w, n))
            continue;
        const r_model_t *rm = model_of(m, e->cur.modelindex);
        int mflags = rm && rm->kind == RMOD_ALIAS ? rm->mdl.flags : 0;
        int tt = trail_type(mflags, e->cur.effects);
        if (tt >= 0 && e->lerp_ok)
            r_part_trail(&m->part, e->prev.origin, e->cur.origin, tt);
        if (e->cur.effects & EF_MUZZLEFLASH) {
            vec3_t f, r, u, org;
            r_angle_vectors(e->cur.angles, f, r, u);
            for (int k = 0; k < 3; k++)
                org[k] = e->cur.origin[k] + 18 * f[k];
            org[2] += 16;
            add_light(m, n, org, 200 + (float)(r_rand(&m->rng) & 31), now, w->time + 0.1, 0, 32);
        }
    }
    update_clients(m, w);
    r_studio_players_update(m->hlplayers, w, m->fs, m->palette);
    // view weapon frame changes, for its frame blend
    int wm = vw->stats[STAT_WEAPON], wf = vw->stats[STAT_WEAPONFRAME];
    if (vw->gun_valid) {
        wm = vw->gun_model;
        wf = vw->gun_frame;
    }
    if (vw->gun_valid) {
        // Quake II's CL_AddViewWeapon blends from the last server frame's gun (frame, offset, angles)
        int had = m->gun_valid && m->gun_entity == vw->entity;   // another player's gun: not blended
        m->gun_entity = vw->entity;
        m->gun_old_frame = had ? m->gun_frame : vw->gun_frame;
        m->gun_frame = vw->gun_frame;
        for (int k = 0; k < 3; k++) {
            m->gun_old_offset[k] = had ? m->gun_offset[k] : vw->gun_offset[k];
            m->gun_old_angles[k] = had ? m->gun_angles[k] : vw->gun_angles[k];
            m->gun_offset[k] = vw->gun_offset[k];
            m->gun_angles[k] = vw->gun_angles[k];
        }
        m->gun_valid = 1;
    }
    if (wm != m->vw_model) {
        m->vw_model = wm;
        m->vw_frame = m->vw_prev_frame = wf;
        m->vw_start = m->vw_prev_start = -1e9;
    } else if (wf != m->vw_frame) {
        m->vw_prev_frame = m->vw_frame;
        m->vw_frame = wf;
        m->vw_prev_start = m->vw_start;
        m->vw_start = w->time;
    }
    // frame changes and muzzle flashes of the entities, for the blend rules
    int ne = w->num_entities < WORLD_MAX_ENTITIES ? w->num_entities : WORLD_MAX_ENTITIES;
    for (int n = 1; n < ne; n++) {
        const world_entity_t *e = &w->entities[n];
        if (!world_entity_visible(w, n))
            continue;
        r_anim_t *a = &m->anim[n];
        if (e->anim_start_time != a->change) {
            a->prev_change = a->change;
            a->change = e->anim_start_time;
        }
        if (e->cur.effects & EF_MUZZLEFLASH)
            a->flash = w->time;
    }
}

static void push_dlight(r_view_t *v, const vec3_t org, float radius, float die, float minlight)
{
    if (v->num_dlights >= R_MAX_DLIGHTS || v->num_dlights < 0)
        return;
    r_dlight_t *d = &v->dlights[v->num_dlights++];
    memset(d, 0, sizeof(*d));
    memcpy(d->origin, org, sizeof(vec3_t));
    d->radius = radius;
    d->die = die;
    d->minlight = minlight;
    d->color = -1;
}

// Quake keys an entity's lights by the entity: its bright or dim light, or a rocket's,
// made every frame, takes the place of a muzzle flash it made before.
static int entity_light_replaces(const r_models_t *m, const world_t *w, int n)
{
    if (!world_entity_visible(w, n))
        return 0;
    const world_entity_t *e = &w->entities[n];
    const r_model_t *rm = model_of(m, e->cur.modelindex);
    int mflags = rm && rm->kind == RMOD_ALIAS ? rm->mdl.flags : 0;
    return (e->cur.effects & (EF_BRIGHTLIGHT | EF_DIMLIGHT)) || trail_type(mflags, e->cur.effects) == 0;
}

// The view model's own muzzle flash (r_hlfx_view_flash has Half-Life's rule) at the attachment
// its event names, posed as the view model is drawn; a view model that is not a studio model: the
// weapon events' flash (r_hlfx.c).
static void view_flash(r_models_t *m, const world_t *w, const r_view_t *v, const r_model_t *vm, const vec3_t muzzle)
{
    const world_view_t *vw = &w->view;
    if (!vm || vm->kind != RMOD_STUDIO) {
        r_hlfx_set_view_flash(m->hlfx, 0, 0, 0, 0, NULL);
        return;
    }
    int seq = vw->stats[STAT_WEAPONFRAME], att = 0, index = 0;
    double age = v->time - vw->weaponanim_time;
    float scale = 0;
    vec3_t org;
    if (vw->stats[STAT_HEALTH] <= 0 || vw->intermission ||
        !r_hlfx_view_flash(&vm->studio->mdl, seq, age, (uint32_t)(vw->weaponanim_time * 1000), &att, &index, &scale)) {
        r_hlfx_set_view_flash(m->hlfx, 1, 0, 0, 0, NULL);
        return;
    }
    if (r_studio_view_attachment(v, vm->studio, seq, vw->weaponanim_body, age, att, org) != 0)
        memcpy(org, muzzle, sizeof org);   // no such attachment: the muzzle as found above
    r_hlfx_set_view_flash(m->hlfx, 1, 1, index, scale, org);
}

void r_models_lights(r_models_t *m, const world_t *w, r_view_t *v)
{
    if (rules_of(w)->own_drawer)
        return;
    double t = v->time;
    if (rules_of(w)->q2fx) {
        r_q2fx_lights(m->q2fx, w, v, t);
        return;
    }
    if (rules_of(w)->hlfx) {   // the view model's muzzle, then the effects' lights
        vec3_t muzzle;
        const r_model_t *vm = model_of(m, w->view.stats[STAT_WEAPON]);
        int ok = vm && vm->kind == RMOD_STUDIO &&
                 r_studio_view_attachment(v, vm->studio, w->view.stats[STAT_WEAPONFRAME], w->view.weaponanim_body,
                                          t - w->view.weaponanim_time, 0, muzzle) == 0;
        if (!ok)   // no view model (or no attachment): a little ahead of the eye, below and right
            for (int k = 0; k < 3; k++)
                muzzle[k] = v->vieworg[k] + 24 * v->vpn[k] + 6 * v->vright[k] - 6 * v->vup[k];
        r_hlfx_set_muzzle(m->hlfx, muzzle, ok ? 2 : 1);
        view_flash(m, w, v, vm, muzzle);
        r_hlfx_lights(m->hlfx, w, v, t);
    }
    uint32_t rng = time_seed(t, 3);   // flicker from the drawing time alone
    for (int i = 0; i < R_MAX_MLIGHTS; i++) {
        r_mlight_t *l = &m->lights[i];
        if (l->radius0 <= 0 || l->d.die < t)
            continue;
        if (l->key > 0 && l->key < w->num_entities && entity_light_replaces(m, w, l->key))
            continue;
        double age = t - l->spawn;
        float radius = l->radius0 - (float)(age > 0 ? age : 0) * l->d.decay;
        if (radius > 0)
            push_dlight(v, l->d.origin, radius, l->d.die, l->d.minlight);
    }
    float frac = lerp_frac(w, t);
    for (int n = 1; n < w->num_entities; n++) {
        const world_entity_t *e = &w->entities[n];
        if (!world_entity_visible(w, n))
            continue;
        uint32_t fx = e->cur.effects;
        const r_model_t *rm = model_of(m, e->cur.modelindex);
        int rocket = trail_type(rm && rm->kind == RMOD_ALIAS ? rm->mdl.flags : 0, fx) == 0;
        if (!(fx & (EF_BRIGHTLIGHT | EF_DIMLIGHT)) && !rocket)
            continue;
        vec3_t org, ang;
        entity_place(e, frac, org, ang);
        // one light an entity (CL_AllocDlight keyed by it): a rocket's replaces a dim
        // light, which replaces a bright one
        if (rocket) {
            push_dlight(v, org, 200, (float)t + 0.01f, 0);
        } else if (fx & EF_DIMLIGHT) {
            push_dlight(v, org, 200 + (float)(r_rand(&rng) & 31), (float)t + 0.001f, 0);
        } else {
            vec3_t o = {org[0], org[1], org[2] + 16};
            push_dlight(v, o, 400 + (float)(r_rand(&rng) & 31), (float)t + 0.001f, 0);
        }
    }
}

// ---- Half-Life's effects (r_hlfx.c): sprites through the render-mode tables, beams, particles ----

void r_models_draw_hlsprite(r_models_t *m, r_view_t *v, const r_hlsprite_t *hs)
{
    const r_model_t *rm = hs->model == HLFX_CLIENT_MUZZLE ? &m->hl_muzzle
                           : hs->model <= HLFX_CLIENT_MUZZLE1 && hs->model >= HLFX_CLIENT_MUZZLE3
                               ? &m->hl_muzzles[HLFX_CLIENT_MUZZLE1 - hs->model]
                               : model_of(m, hs->model);
    if (rm == &m->box && hs->model > 0 && hs->model < WORLD_MAX_MODELS) {
        // precached, its file not found (Counter-Strike's wall puffs without the game's folder)
        int k = hs->model;
        if (!(m->hlspr_warned[k / 8] & (1u << (k % 8)))) {
            m->hlspr_warned[k / 8] |= (uint8_t)(1u << (k % 8));
            log_warn("effect sprite %s (index %d) is missing: not drawn", m->models[k].name, k);
        }
        return;
    }
    if (!rm || rm->kind != RMOD_SPRITE || rm->spr.numframes <= 0 || !v->hlmodes)
        return;
    const spr_t *sp = &rm->spr;
    int frame = (int)hs->frame, nf = sp->numframes;
    if (hs->anim == HLFX_ANIM_SPREAD)   // a fraction of the whole animation
        frame = (int)(hs->frame * (float)nf);
    if (!(frame >= 0))
        frame = 0;
    if (hs->model == HLFX_CLIENT_MUZZLE || hs->anim == HLFX_ANIM_LOOP)
        frame %= nf;
    else if (frame >= nf && (hs->anim == HLFX_ANIM_HOLD || hs->anim == HLFX_ANIM_SPREAD))
        frame = nf - 1;
    else if (frame >= nf)
        return;   // its animation has run once
    entity_state_t st;
    memset(&st, 0, sizeof st);
    st.rendermode = hs->rendermode;
    st.renderfx = hs->renderfx;
    st.renderamt = hs->amount;
    st.scale = hs->scale > 0 ? hs->scale : 1;
    for (int k = 0; k < 3; k++)
        st.rendercolor[k] = hs->color[k];
    static const vec3_t zero = {0, 0, 0};
    float r = (sp->radius > 0 ? sp->radius : 32) * st.scale;
    if (r_sphere_visible(v, hs->org, r))
        r_sprite_draw_hl(v, sp, spr_image(sp, frame, v->time), hs->org, zero, &st, 0);
}

// A beam textured with its sprite's frame at the view's time (r_hlfx_beam_frame: the start
// frame and the frame rate the message or the entity gave it).
static void draw_beam(const r_models_t *m, const r_view_t *v, const r_hlbeam_t *b)
{
    const r_model_t *rm = model_of(m, b->model);
    r_hlbeam_tex_t tex = {0};
    if (rm && rm->kind == RMOD_SPRITE && rm->spr.numframes > 0 && rm->spr.pixels) {
        const spr_t *sp = &rm->spr;
        const spr_image_t *im = spr_image(sp, r_hlfx_beam_frame(b, v->time, sp->numframes), v->time);
        if (im->width > 0 && im->height > 0 && im->offset <= sp->pixels_size &&
            (sp->pixels_size - im->offset) / (size_t)im->width >= (size_t)im->height) {
            tex.pixels = sp->pixels + im->offset;
            tex.width = im->width;
            tex.height = im->height;
        }
    }
    r_hlfx_draw_beam_tex(v, b, tex.pixels ? &tex : NULL);
}

static void draw_hlfx(r_models_t *m, const world_t *w, r_view_t *v)
{
    // the temp sprites (r_hlfx_sprites) are r_hlsort.c's: drawn with the translucent entities
    r_hlbeam_t beams[HLFX_MAX_BEAMS];
    int n = r_hlfx_beams(m->hlfx, v->time, beams, HLFX_MAX_BEAMS);
    for (int i = 0; i < n; i++)
        draw_beam(m, v, &beams[i]);
    // the view player's egon: its beams and flare where the view's line meets a wall now
    r_hlsprite_t flare;
    r_hlfx_egon(m->hlfx, w, v, beams, &n, &flare);
    for (int i = 0; i < n; i++)
        draw_beam(m, v, &beams[i]);
    if (flare.model)   // also the wide mode's flare fading after the stop
        r_models_draw_hlsprite(m, v, &flare);
    r_hlfx_draw_particles(m->hlfx, v, v->time);
}

// ---- Half-Life's custom (beam) entities: r_hlfx.c's rules, the ends placed here ---------------

// Where a beam's end at entity n is (R_BeamComputePoint): its origin as drawn, or its attachment
// att - 1 (1..15) posed as the entity is drawn; a player's attachments are its weapon model's (the
// engine's StudioDrawPlayer leaves the weapon model's in the entity). 0: no such entity now.
static int beam_point(const r_models_t *m, const world_t *w, const r_view_t *v, float frac, int n, int att, vec3_t out)
{
    if (n <= 0 || n >= w->num_entities || !world_entity_visible(w, n))
        return 0;
    const world_entity_t *e = &w->entities[n];
    vec3_t org, ang;
    entity_place(e, frac, org, ang);
    memcpy(out, org, sizeof(vec3_t));
    if (att <= 0)
        return 1;
    const r_model_t *rm = model_of(m, n <= w->maxclients && e->cur.weaponmodel > 0 ? e->cur.weaponmodel : e->cur.modelindex);
    if (rm && rm->kind == RMOD_STUDIO)
        r_studio_entity_attachment(rm->studio, org, ang, &e->cur, w->server_time + (v->time - w->time), att - 1, out);
    return 1;
}

// Each custom entity's beam, made from its state in this frame (nothing is kept between frames):
// its origin (interpolated, as the engine's ent->origin) to its end point (curstate.angles, as
// sent), or the entities it names. A beam without a sprite model is not drawn (R_BeamDraw), nor
// one whose end entity is gone (R_BeamRecomputeEndpoints; a gone start entity leaves its origin).
static void draw_beaments(const r_models_t *m, const world_t *w, r_view_t *v, float frac)
{
    for (int n = 1; n < w->num_entities; n++) {
        const world_entity_t *e = &w->entities[n];
        if (!e->cur.solid || !world_entity_visible(w, n) || (e->cur.effects & EF_NODRAW))
            continue;
        const r_model_t *rm = model_of(m, e->cur.modelindex);
        if (!rm || rm->kind != RMOD_SPRITE)
            continue;
        r_hlbeament_t ends;
        r_hlfx_beament_ends(&e->cur, &ends);
        vec3_t start, end, ang;
        entity_place(e, frac, start, ang);
        memcpy(end, e->cur.angles, sizeof end);
        vec3_t p;
        if (ends.start_ent > 0 && beam_point(m, w, v, frac, ends.start_ent, ends.start_att, p))
            memcpy(start, p, sizeof start);
        if (ends.end_ent > 0 && !beam_point(m, w, v, frac, ends.end_ent, ends.end_att, end))
            continue;
        int amount = r_hl_fx_amount(&e->cur, n, v->time, v->fx_since, v->vieworg, v->vpn, start);
        r_hlbeam_t b;
        r_hlfx_beament(&e->cur, n, start, end, amount, v->time, &b);
        draw_beam(m, v, &b);
    }
}

// ---- Half-Life's temp models (engine/hltent.c): shells, gibs, breakable chunks ----------------------

// The variations a temp model picks from (R_TempModel / R_BreakModel: RandomLong(0, frameMax)):
// a studio model's bodies (the product of its body parts' choices), a sprite's frames.
static int variations(const r_model_t *rm)
{
    if (rm->kind == RMOD_SPRITE)
        return rm->spr.numframes > 0 ? rm->spr.numframes : 1;
    if (rm->kind != RMOD_STUDIO)
        return 1;
    const studio_t *sm = &rm->studio->mdl;
    long long n = 1;
    for (int i = 0; i < sm->numbodyparts && n < (1 << 20); i++)
        n *= sm->bodyparts[i].nummodels > 0 ? sm->bodyparts[i].nummodels : 1;
    return (int)(n < (1 << 20) ? n : 1 << 20);
}

void r_models_hltent_lights(r_view_t *v, hltent_t *tents, const bsp_t *bsp)
{
    vec3_t at[R_MAX_DLIGHTS];
    int n = hltent_lights(tents, bsp, v->time, at, R_MAX_DLIGHTS);
    for (int i = 0; i < n && v->num_dlights < R_MAX_DLIGHTS; i++) {
        r_dlight_t *d = &v->dlights[v->num_dlights++];
        memset(d, 0, sizeof *d);
        memcpy(d->origin, at[i], sizeof(vec3_t));
        d->radius = HLTENT_FLICKER_RADIUS;
        d->die = (float)(v->time + HLTENT_STEP);
        d->color = -1;
        d->rgb = 0x1000000u | (255u << 16) | (120u << 8);   // 255 120 0
    }
}

int r_models_hltent_count(const r_models_t *m) { return m ? m->hltent_count : 0; }

int r_models_hltent_centre(r_models_t *m, int i, float centre[3], int *rendermode)
{
    if (!m || i < 0 || i >= m->hltent_count)
        return 0;
    const hltent_draw_t *d = &m->hltent_list[i];
    const r_model_t *rm = model_of(m, d->model);
    memcpy(centre, d->org, sizeof(vec3_t));
    if (rm && rm->kind == RMOD_STUDIO)   // the header's box, as an entity's (r_models_entity_centre)
        for (int k = 0; k < 3; k++)
            centre[k] += (rm->studio->mdl.bbmin[k] + rm->studio->mdl.bbmax[k]) * 0.5f;
    *rendermode = d->rendermode;
    return 1;
}

void r_models_draw_hltent_one(r_models_t *m, const world_t *w, r_view_t *v, int i)
{
    if (!m || i < 0 || i >= m->hltent_count || !v->buffer || !v->zbuffer || !v->colormap)
        return;
    const hltent_draw_t *l = m->hltent_list;
    const r_model_t *rm = model_of(m, l[i].model);
    if (rm == &m->box) {
        // precached, its file not found (a mod's shell the folders lack): the model lives on
        // and is heard bouncing (the sound system's own simulation), it is just not drawn
        int k = l[i].model;
        if (!(m->hltent_warned[k / 8] & (1u << (k % 8)))) {
            m->hltent_warned[k / 8] |= (uint8_t)(1u << (k % 8));
            log_warn("temp model %s (index %d) is missing: not drawn (its bounce sounds still play)",
                     w->models[k], k);
        }
        return;
    }
    if (!rm || (rm->kind != RMOD_STUDIO && rm->kind != RMOD_SPRITE))
        return;
    entity_state_t s;
    memset(&s, 0, sizeof s);
    s.modelindex = l[i].model;
    int var = (int)(l[i].pick % (uint32_t)variations(rm));
    if (rm->kind == RMOD_SPRITE)
        s.frame = var;
    else
        s.body = var;
    s.rendermode = l[i].rendermode;
    s.renderamt = l[i].amount;
    s.scale = 1;
    s.rendercolor[0] = s.rendercolor[1] = s.rendercolor[2] = 255;
    memcpy(s.origin, l[i].org, sizeof(vec3_t));
    memcpy(s.angles, l[i].ang, sizeof(vec3_t));
    m->draw_entnum = 0;
    draw_entity(m, w, v, rm, l[i].org, l[i].ang, &s, -1, 0, NULL);
}

void r_models_draw_hltent(r_models_t *m, const world_t *w, r_view_t *v, hltent_t *tents, const bsp_t *bsp)
{
    hltent_draw_t *l = m->hltent_list;
    m->hltent_count = 0;
    if (!tents || !l || !v->buffer || !v->zbuffer || !v->colormap)
        return;
    int n = hltent_list(tents, bsp, v->time, l, HLTENT_MAX);
    m->hltent_count = n;
    for (int i = 0; i < n; i++)   // the translucent ones (fading) are drawn sorted (r_hlsort.c)
        if (l[i].rendermode == RM_NORMAL)
            r_models_draw_hltent_one(m, w, v, i);
    // FTENT_SMOKETRAIL: R_RocketTrail(before, after, 1) of each step (r_hlfx.c's rules), made again
    // from the steps each frame drawn; at most HLFX_MAX_PARTICLES (the engine's particle pool: a full
    // pool makes no more)
    n = hltent_trails(tents, bsp, v->time, m->hltent_trails, HLFX_MAX_PARTICLES);
    int np = 0;
    for (int i = 0; i < n && np < HLFX_MAX_PARTICLES; i++) {
        const hltent_trail_t *tr = &m->hltent_trails[i];
        np += r_hlfx_rocket_trail(tr->start, tr->end, 1, (float)tr->time, tr->seed, m->hltent_smoke + np,
                                  HLFX_MAX_PARTICLES - np);
    }
    r_hlfx_draw_particle_list(v, m->hltent_smoke, np, v->time);
}

// ---- Quake II's effects (r_q2fx.c): their models, beams and particles ------------------------

// The see-through table of the level: the palette's own (Quake II's colormap.pcx) or one
// computed from the palette.
static const uint8_t *level_alphamap(r_models_t *m, const r_view_t *v)
{
    return v->alphamap ? v->alphamap : computed_table(m, v);
}

// One effect model: full bright or lit where it is, seen through by ref_soft's levels
// (above 0.66 solid, above 0.33 the 66 % table, else 33 %).
static void draw_fx_model(r_models_t *m, const world_t *w, r_view_t *v, const r_q2fx_model_t *fm)
{
    const r_model_t *rm = &m->q2extra[fm->model];
    const uint8_t *amap = fm->alpha > 0.66f ? NULL : level_alphamap(m, v);
    int a66 = fm->alpha > 0.33f;
    if (rm->kind == RMOD_SPRITE) {
        const spr_t *sp = &rm->spr;
        if (sp->numframes > 0 && r_sphere_visible(v, fm->org, sp->radius > 0 ? sp->radius : 32))
            r_sprite_draw_alpha(v, sp, spr_image(sp, fm->frame % sp->numframes, v->time), fm->org, fm->angles,
                                amap, a66);
        return;
    }
    if (rm->kind != RMOD_ALIAS || !r_sphere_visible(v, fm->org, model_radius(&rm->mdl)))
        return;
    const mdl_t *mdl = &rm->mdl;
    r_alias_job_t job = {0};
    job.mdl = mdl;
    job.pose_a = job.pose_b = mdl_pose(mdl, fm->frame, v->time);
    job.blend = 1;
    memcpy(job.origin, fm->org, sizeof job.origin);
    memcpy(job.angles, fm->angles, sizeof job.angles);
    job.skin = mdl_skin(mdl, fm->skin, v->time);
    job.colormap = v->colormap;
    job.light_above = rules_of(w)->light_above;
    // ref_soft's RF_FULLBRIGHT: light 1.0, clamped as any model's to 128 ambient + 64 shade, so
    // the faces towards the light are drawn brighter than the skin (the explosions' white heat)
    if (fm->fullbright)
        q2_model_light(v, fm->org, Q2RF_FULLBRIGHT, &job.ambient, &job.shade);
    else
        model_light(w, v, fm->org, 0, &job.ambient, &job.shade);
    vec3_t axes[3];   // Quake II turns its models by their angles as they are
    r_angle_vectors(job.angles, axes[0], axes[1], axes[2]);
    job.axes = (const vec3_t *)axes;
    job.alphamap = amap;
    job.alpha66 = a66;
    r_alias_draw(v, &m->scratch, &job);
}

static void draw_q2fx(r_models_t *m, const world_t *w, r_view_t *v, uint32_t *rng)
{
    r_q2fx_model_t list[Q2FX_MAX_EXPLOSIONS];
    int n = r_q2fx_models(m->q2fx, v->time, list, Q2FX_MAX_EXPLOSIONS);
    for (int i = 0; i < n; i++)
        if (list[i].model >= 0 && list[i].model < Q2M_COUNT)
            draw_fx_model(m, w, v, &list[i]);
    r_q2fx_beam_t beams[Q2FX_MAX_BEAMS];
    n = r_q2fx_beams(m->q2fx, w, v, v->time, beams, Q2FX_MAX_BEAMS);
    for (int i = 0; i < n; i++)
        if (beams[i].model >= 0 && beams[i].model < Q2M_COUNT && m->q2extra[beams[i].model].kind == RMOD_ALIAS)
            r_beam_draw(v, &m->scratch, &m->q2extra[beams[i].model].mdl, beams[i].start, beams[i].end, rng);
    // the client's own lasers (TE_BFG_LASER): drawn as the entities' RF_BEAM lasers, alpha 0.30
    r_q2fx_laser_t lasers[Q2FX_MAX_LASERS];
    n = r_q2fx_lasers(m->q2fx, v->time, lasers, Q2FX_MAX_LASERS);
    if (n > 0) {
        int a66;
        const uint8_t *amap = q2_table(m, v, r_q2_flat_alpha_mode(Q2_SHELL_ALPHA), &a66);
        for (int i = 0; i < n; i++)
            r_beam_laser(v, lasers[i].start, lasers[i].end, lasers[i].width, lasers[i].color, amap, a66);
    }
    r_q2fx_draw_particles(m->q2fx, v, v->time, level_alphamap(m, v));
}

// Quake II's view weapon (CL_AddViewWeapon, then ref_soft for RF_WEAPONMODEL | RF_DEPTHHACK |
// RF_MINLIGHT): at the eye plus the gun offset, turned by the view's angles plus the gun's,
// both blended from the last server frame as the frame is (frame 0, a new weapon, is not
// blended); projected at a 80 degree field of view (r_gunfov) 8 units further out
// (sw_gunzposition), three times nearer in the depth test; at least light 0.1.
static void draw_q2_gun(r_models_t *m, const world_t *w, r_view_t *v, const mdl_t *mdl)
{
    float f = lerp_frac(w, v->time);
    r_alias_job_t job = {0};
    job.mdl = mdl;
    int cur = m->gun_frame, old = cur == 0 ? 0 : m->gun_old_frame;
    job.pose_b = mdl_pose(mdl, cur, v->time);
    job.pose_a = mdl_pose(mdl, old, v->time);
    job.blend = f;
    vec3_t ang, axes[3];
    for (int k = 0; k < 3; k++) {
        float d = m->gun_angles[k] - m->gun_old_angles[k];
        d -= 360.0f * floorf((d + 180.0f) / 360.0f);
        ang[k] = v->viewangles[k] + m->gun_old_angles[k] + f * d;
    }
    r_angle_vectors(ang, axes[0], axes[1], axes[2]);
    job.axes = (const vec3_t *)axes;
    // the client places the gun before it moves the eye 1/16 unit off node planes (V_RenderView)
    for (int k = 0; k < 3; k++)
        job.origin[k] = v->vieworg[k] - 1.0f / 16 + m->gun_old_offset[k] + f * (m->gun_offset[k] - m->gun_old_offset[k]);
    vec3_t lit;
    memcpy(lit, job.origin, sizeof lit);   // lit where it is, before its push out
    for (int k = 0; k < 3; k++)
        job.origin[k] += Q2_GUN_Z * v->vpn[k];
    job.skin = mdl_skin(mdl, 0, v->time);
    job.colormap = v->colormap;
    q2_model_light(v, lit, Q2RF_MINLIGHT, &job.ambient, &job.shade);
    job.zscale = Q2_GUN_ZSCALE;
    // its own scales: the view's, as a 80 degree view would have them
    const world_view_t *vw = shown_view(w, v);
    float fov = vw->fov > 1 && vw->fov < 179 ? vw->fov : 90.0f;
    float k = tanf(fov * (float)(M_PI / 360.0)) / tanf(Q2_GUN_FOV * (float)(M_PI / 360.0));
    float scales[2] = {v->xscale * k, v->yscale * k};
    job.proj_scale = scales;
    r_alias_draw(v, &m->scratch, &job);
}

static void draw_view_weapon(r_models_t *m, const world_t *w, r_view_t *v)
{
    const world_view_t *vw = shown_view(w, v);
    if (vw->intermission)
        return;
    int model = vw->stats[STAT_WEAPON], frame = vw->stats[STAT_WEAPONFRAME];
    if (vw->gun_valid) {
        // Quake II: the game hides the gun itself (index 0); the client hides it in wide views
        model = vw->gun_model;
        frame = vw->gun_frame;
        if (vw->fov > 90)
            return;
    } else if (vw->stats[STAT_HEALTH] <= 0) {
        return;
    }
    if (w->game == GAME_QUAKE && (vw->items & IT_INVISIBILITY))
        return;
    const r_model_t *rm = model_of(m, model);
    if (rm == &m->box)
        return;   // a missing view weapon: a placeholder box at the eye would fill the view
    if (rm && rm->kind == RMOD_STUDIO) {
        // GoldSrc: each weapon animation message (re)starts its sequence, the same one too
        r_studio_view_model(v, rm->studio, frame, vw->weaponanim_body, v->time - vw->weaponanim_time,
                            light_at(v, v->vieworg));
        return;
    }
    if (!rm || rm->kind != RMOD_ALIAS)
        return;
    vec3_t axes[3];
    memcpy(axes[0], v->vpn, sizeof(vec3_t));
    memcpy(axes[1], v->vright, sizeof(vec3_t));
    memcpy(axes[2], v->vup, sizeof(vec3_t));
    const mdl_t *mdl = &rm->mdl;
    r_alias_job_t job = {0};
    job.mdl = mdl;
    job.axes = (const vec3_t *)axes;
    job.pose_b = mdl_pose(mdl, frame, v->time);
    job.pose_a = job.pose_b;
    job.blend = 1;
    double flash = -1e9;
    if (vw->entity > 0 && vw->entity < w->num_entities)
        flash = m->anim[vw->entity].flash;   // the player's flash stops the gun's blend
    if (m->vw_prev_frame != m->vw_frame && m->vw_frame == frame && blend_allowed(rules_of(w), m->vw_prev_start, flash)) {
        job.pose_a = mdl_pose(mdl, m->vw_prev_frame, v->time);
        job.blend = (float)((v->time - m->vw_start) / ANIM_LERP_TIME);
    }
    memcpy(job.origin, v->vieworg, sizeof(vec3_t));
    if (vw->gun_valid && rules_of(w)->q2_looks && m->gun_valid) {
        draw_q2_gun(m, w, v, mdl);
        return;
    }
    if (vw->gun_valid) {
        // Quake II: the gun's own offset (world axes) and turn on top of the view's
        vec3_t ang = {v->viewangles[0] + vw->gun_angles[0], v->viewangles[1] + vw->gun_angles[1],
                      v->viewangles[2] + vw->gun_angles[2]};
        r_angle_vectors(ang, axes[0], axes[1], axes[2]);
        for (int k = 0; k < 3; k++)
            job.origin[k] += vw->gun_offset[k];
    } else if (w->game == GAME_QUAKE) {
        // Quake's V_CalcRefdef: the gun turns with the client's angles (no view roll,
        // no punch), sits at the eye without its 1/32 offsets, moves forward with the
        // bob by 0.4 of it, and 2 units up at full screen size (the same amount of gun
        // stays visible at every size)
        r_angle_vectors(v->base_angles, axes[0], axes[1], axes[2]);
        for (int k = 0; k < 3; k++)
            job.origin[k] += axes[0][k] * v->bob * 0.4f - 1.0f / 32;
        job.origin[2] += 2;
    } else {
        job.origin[2] += 2;
    }
    job.skin = mdl_skin(mdl, 0, v->time);
    job.colormap = v->colormap;
    model_light(w, v, job.origin, 24, &job.ambient, &job.shade);   // always some light on the gun
    job.light_above = rules_of(w)->light_above;
    job.zscale = 3;   // Quake's gun sits three times nearer in the depth test: it never sinks into walls
    r_alias_draw(v, &m->scratch, &job);
}

// World entity n's models in one pass (draw_entity_models); Quake II's lasers in the see-through pass.
// GoldSrc's entities in a render mode other than Normal are drawn sorted (r_hlsort.c): `sorted` 1
// draws only those, 0 only the others.
// What draw_entity_n needs of the frame and the view, worked out once a pass.
typedef struct {
    const r_rules_t *ru;
    int view_ent;   // the eyes' body: the recording player's, or the followed player's when the view is their own
    int rec_ent;    // the recording player's own model is drawn (RF_VIEWERMODEL too) when the view is not theirs
} ent_pass_t;

static ent_pass_t ent_pass(const world_t *w, const r_view_t *v)
{
    ent_pass_t ps;
    ps.ru = rules_of(w);
    ps.view_ent = shown_view(w, v)->entity;
    ps.rec_ent = v->detached || ps.view_ent != w->view.entity ? w->view.entity : -1;
    return ps;
}

static void draw_entity_n(r_models_t *m, const world_t *w, r_view_t *v, const ent_pass_t *ps, float frac, int pass,
                          uint32_t *rng, int n, int sorted)
{
    const r_rules_t *ru = ps->ru;
    const int view_ent = ps->view_ent, rec_ent = ps->rec_ent;
    if (!world_entity_visible(w, n))
        return;
    const world_entity_t *e = &w->entities[n];
    if (pass == 0 && !sorted && (e->cur.effects & EF_BRIGHTFIELD)) {   // the viewer's own too, as Quake's client
        vec3_t org, ang;
        entity_place(e, frac, org, ang);
        r_part_entity_field(&m->part, v, org);
    }
    // the camera's own body is not drawn: the recording player's in their eyes, the
    // followed player's in theirs
    if (v->detached ? n == v->hide_entity : n == view_ent)
        return;
    if (ru->hlfx && e->cur.solid)   // GoldSrc's custom entities are beams (draw_beaments)
        return;
    if (ru->q2_looks && (e->cur.renderfx & Q2RF_BEAM) && !(e->cur.effects & EF_NODRAW)) {
        // a laser from origin to old_origin (not interpolated), `frame` wide, in one of the
        // four colours of its skin number, picked anew each frame; alpha 0.30
        if (pass == 1) {
            int a66;
            const uint8_t *amap = q2_table(m, v, r_q2_flat_alpha_mode(Q2_SHELL_ALPHA), &a66);
            int color = r_q2_beam_color(e->cur.skin, (int)(r_rand(rng) & 3));
            r_beam_laser(v, e->cur.origin, e->cur.old_origin, e->cur.frame, (uint8_t)color, amap, a66);
        }
        return;
    }
    uint32_t hide = n == rec_ent ? ru->hide_rf & ~ru->viewer_rf : ru->hide_rf;
    if ((e->cur.effects & EF_NODRAW) || (e->cur.renderfx & hide))
        return;
    if (ru->hlfx && r_hl_sorted_mode(e->cur.rendermode) != sorted)
        return;
    vec3_t org, ang;
    entity_place(e, frac, org, ang);
    draw_entity_models(m, w, v, e, org, ang, pass);
}

static void draw_static(r_models_t *m, const world_t *w, r_view_t *v, int i)
{
    const entity_state_t *s = &w->statics[i].s;
    if (s->effects & EF_NODRAW)
        return;
    const r_model_t *rm = model_of(m, s->modelindex);
    m->draw_entnum = w->num_entities + i;
    if (rm)
        draw_entity(m, w, v, rm, s->origin, s->angles, s, -1, 0, NULL);
}

int r_models_entity_centre(r_models_t *m, const world_t *w, const r_view_t *v, int n, float centre[3])
{
    const entity_state_t *s;
    vec3_t org, ang;
    if (n >= 1 && n < w->num_entities) {
        s = &w->entities[n].cur;
        entity_place(&w->entities[n], lerp_frac(w, v->time), org, ang);
    } else if (n >= w->num_entities && w->statics && n - w->num_entities < w->num_statics) {
        s = &w->statics[n - w->num_entities].s;
        memcpy(org, s->origin, sizeof(vec3_t));
    } else {
        return 0;
    }
    const r_model_t *rm = model_of(m, s->modelindex);
    if (!rm)
        return 0;
    memcpy(centre, org, sizeof(vec3_t));
    if (rm->kind == RMOD_STUDIO)   // the header's box (a sprite's and a missing model's: about the origin)
        for (int k = 0; k < 3; k++)
            centre[k] += (rm->studio->mdl.bbmin[k] + rm->studio->mdl.bbmax[k]) * 0.5f;
    return 1;
}

void r_models_draw_entity(r_models_t *m, const world_t *w, r_view_t *v, int n)
{
    if (!v->buffer || !v->zbuffer || !v->colormap || rules_of(w)->own_drawer)
        return;
    if (n >= 1 && n < w->num_entities) {
        ent_pass_t ps = ent_pass(w, v);
        draw_entity_n(m, w, v, &ps, lerp_frac(w, v->time), 0, &m->draw_rng, n, 1);
    }
    else if (n >= w->num_entities && w->statics && n - w->num_entities < w->num_statics)
        draw_static(m, w, v, n - w->num_entities);
}

void r_models_draw(r_models_t *m, const world_t *w, r_view_t *v)
{
    if (!v->buffer || !v->zbuffer || !v->colormap || rules_of(w)->own_drawer)
        return;
    double t = v->time;
    m->draw_rng = time_seed(t, 4);   // beam roll from the drawing time alone
    uint32_t *rng = &m->draw_rng;
    float frac = lerp_frac(w, t);
    const r_rules_t *ru = rules_of(w);
    const ent_pass_t ps = ent_pass(w, v);

    for (int n = 1; n < w->num_entities; n++)
        draw_entity_n(m, w, v, &ps, frac, 0, rng, n, 0);
    for (int i = 0; i < w->num_statics; i++)
        if (!ru->hlfx || !r_hl_sorted_mode(w->statics[i].s.rendermode))
            draw_static(m, w, v, i);
    for (int i = 0; i < R_MAX_BEAMS; i++) {
        r_beam_t *b = &m->beams[i];
        if (b->endtime < t || m->extra[b->model].kind != RMOD_ALIAS)
            continue;
        vec3_t start = {b->start[0], b->start[1], b->start[2]};
        int owner = b->entity;
        if (owner > 0 && owner == shown_view(w, v)->entity && owner < w->num_entities) {
            // the player's own bolt follows the player between updates
            vec3_t ang;
            entity_place(&w->entities[owner], frac, start, ang);
        }
        r_beam_draw(v, &m->scratch, &m->extra[b->model].mdl, start, b->end, rng);
    }
    if (m->extra[XM_EXPLOD].kind == RMOD_SPRITE) {
        const spr_t *sp = &m->extra[XM_EXPLOD].spr;
        for (int i = 0; i < R_MAX_TEMP_SPRITES; i++) {
            r_tsprite_t *ts = &m->tsprites[i];
            if (!ts->active)
                continue;
            double age = t - ts->start;
            int frame = (int)(age * 10);
            if (frame >= sp->numframes || age < -1) {
                ts->active = 0;
                continue;
            }
            if (frame < 0)
                frame = 0;
            static const vec3_t zero = {0, 0, 0};
            if (r_sphere_visible(v, ts->org, sp->radius > 0 ? sp->radius : 32))
                r_sprite_draw(v, sp, spr_image(sp, frame, t), ts->org, zero);
        }
    }
    if (!v->detached)
        draw_view_weapon(m, w, v);
    if (ru->q2_looks)   // Quake II's see-through models after every solid one
        for (int n = 1; n < w->num_entities; n++)
            draw_entity_n(m, w, v, &ps, frac, 1, rng, n, 0);
}

void r_models_draw_fx(r_models_t *m, const world_t *w, r_view_t *v)
{
    if (!v->buffer || !v->zbuffer || !v->colormap || rules_of(w)->own_drawer)
        return;
    const r_rules_t *ru = rules_of(w);
    float frac = lerp_frac(w, v->time);
    if (ru->q2fx) {   // Quake II's explosions, beams and particles (r_q2fx.c)
        draw_q2fx(m, w, v, &m->draw_rng);
        return;
    }
    if (ru->hlfx) {   // Half-Life's beam entities, temp entities and client events (r_hlfx.c)
        draw_beaments(m, w, v, frac);
        draw_hlfx(m, w, v);
    }
    r_part_draw(&m->part, v, v->time);
}

