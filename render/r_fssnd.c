// r_fssnd.c -- Forsaken's sound rules (see r_fssnd.h; the game's sfx.c and sound_openal.c, facts only)
#include "r_fssnd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// Sounds the game's tables flag SFX_Looping: the generic ones (Sfx_Filenames) and the level-specific
// ones (LevelSpecificSfxLookup), by name.
static const char *const looping[] = {
    // Sfx_Filenames
    "compwrk", "electhrb", "firembls", "gravgfld", "laserbm", "mnacthum", "pinemove", "shipamb", "sonar",
    "steammcn", "unwatamb", "watrdrai", "watrfill",
    // LevelSpecificSfxLookup
    "acidpool", "aircond1", "aircond2", "aircond3", "airmoeng", "ammodump", "areahum1", "avatreng", "bikeengn",
    "boteng", "compamb1", "compamb2", "compamb3", "compamb4", "cranemov", "crysthum", "eled1mov", "eled2mov",
    "eled3mov", "eled4mov", "emergency", "ffdorcns", "ffield1", "ffield2", "ffield3", "fmorfmov", "forkleng",
    "frklftgo", "geekengn", "geiger", "gtretmov", "hollwam1", "huntreng", "indshum1", "indshum2", "indshum3",
    "indshum4", "intaler1", "largefan", "lavaloop", "leviteng", "lift1lp", "machamb1", "mainhumh", "mainhuml",
    "maxeng", "metateng", "mineleng", "mineseng", "mtrtspin", "mtscrape", "nearwatr", "pumpamb1", "pumpamb2",
    "roomtone1", "rumble1", "safedial", "sfindamb", "shadeeng", "shtlidle", "siren01", "siren02", "siren03",
    "siren04", "siren05", "smallfan", "smallfn2", "smallfn3", "smallfn4", "stndrmov", "subgenlp", "suppreng",
    "swarmeng", "tankeng", "throbamb", "thrstbrn", "torchbrn", "tubertat", "windesol", "windhol1", "windhol2",
    "windhol3", "shrtrumb", "firesbrn", "elechumh", "gasleak",
};

static int listed(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof looping / sizeof looping[0]; i++)
        if (strlen(looping[i]) == len && !strncasecmp(looping[i], name, len))
            return 1;
    return 0;
}

int r_fssnd_loops(const char *name)
{
    if (!name)
        return 0;
    size_t len = strlen(name);
    if (len > 4 && !strcasecmp(name + len - 4, ".wav"))
        len -= 4;
    if (!len)
        return 0;
    if (listed(name, len))
        return 1;
    // ReturnSFXIndex: not found, its last two digits (a variant's number) dropped
    return len > 2 && name[len - 1] >= '0' && name[len - 1] <= '9' && name[len - 2] >= '0' && name[len - 2] <= '9' &&
           listed(name, len - 2);
}

static float mb_gain(long mb)
{
    if (mb > 0)
        mb = 0;   // sound_volume: nothing above full
    return (float)pow(10.0, (double)mb / 2000.0);
}

float r_fssnd_gain(float distance, float vol)
{
    if (!(distance >= 0) || distance >= FSSND_MAX_DISTANCE || !(vol > 0))
        return 0;
    long mb = -(long)(distance * 0.6f);   // StartPannedSfx: "scale it down by a factor"
    mb = FSSND_MIN_MB - (long)((float)(FSSND_MIN_MB - mb) * vol);
    return mb_gain(mb);
}

float r_fssnd_loop_gain(float distance, float vol)
{
    if (!(distance >= 0) || distance >= FSSND_LOOP_DISTANCE || !(vol > 0))
        return 0;
    long mb = (long)(distance / FSSND_LOOP_DISTANCE * (float)FSSND_MIN_MB);   // ProcessLoopingSfx
    mb = FSSND_MIN_MB - (long)((float)(FSSND_MIN_MB - mb) * vol);
    return mb_gain(mb);
}

int r_fssnd_groups(const mxv_t *m, const float p[3], int *out, int max)
{
    int n = 0;
    if (!m || !m->has_portals)
        return 0;
    for (int g = 0; g < m->num_groups && n < max; g++) {
        const mxv_group_t *gr = &m->groups[g];
        if (fabsf(p[0] - gr->center[0]) <= gr->half_size[0] && fabsf(p[1] - gr->center[1]) <= gr->half_size[1] &&
            fabsf(p[2] - gr->center[2]) <= gr->half_size[2])
            out[n++] = g;
    }
    return n;
}

float r_fssnd_extra(const mxv_t *m, const int *from, int nfrom, const int *to, int nto)
{
    if (!m || !m->sound_info || nfrom <= 0 || nto <= 0)
        return 0;
    float best = 0;
    int have = 0;
    for (int i = 0; i < nfrom; i++)
        for (int j = 0; j < nto; j++) {
            if (from[i] < 0 || from[i] >= m->num_groups || to[j] < 0 || to[j] >= m->num_groups)
                continue;
            float x = m->sound_info[(size_t)from[i] * (size_t)m->num_groups + (size_t)to[j]];
            if (!have || x < best)
                best = x;
            have = 1;
        }
    return best;
}

void r_fssnd_variants_clear(r_fssnd_variants_t *vs)
{
    if (vs)
        vs->n = 0;
}

static int sound_exists(const asset_files_t *files, const char *dir, const char *file)
{
    char path[FSSND_NAME_LEN + 32];
    snprintf(path, sizeof path, "sound/%s%s", dir, file);
    size_t size = 0;
    uint8_t *d = asset_load(files, path, &size);
    free(d);
    return d != NULL;
}

// The game's two sound folders (GetSfxPath), then sound/ itself.
static const char *const sound_dirs[] = { "generic/", "mapped/", "" };

const char *r_fssnd_variant(r_fssnd_variants_t *vs, const asset_files_t *files, const char *name, uint32_t seed)
{
    if (!name || !vs)
        return name;
    size_t len = strlen(name);
    if (len + 1 > FSSND_NAME_LEN)
        return name;
    r_fssnd_variant_t *v = NULL;
    for (int i = 0; i < vs->n && !v; i++)
        if (!strcmp(vs->v[i].base, name))
            v = &vs->v[i];
    if (!v) {
        if (vs->n >= FSSND_VARIANT_NAMES)
            return name;
        v = &vs->v[vs->n++];
        memcpy(v->base, name, len + 1);
        v->count = 0;
        size_t stem = len > 4 && !strcmp(name + len - 4, ".wav") ? len - 4 : len;
        for (size_t d = 0; files && files->fn && d < sizeof sound_dirs / sizeof sound_dirs[0] && !v->count; d++) {
            if (sound_exists(files, sound_dirs[d], name)) {
                if (!sound_dirs[d][0])
                    break;   // sound/NAME.wav: the caller's own name
                snprintf(v->names[0], sizeof v->names[0], "%s%s", sound_dirs[d], name);
                v->count = 1;
                break;
            }
            for (int k = 0; k < FSSND_VARIANTS; k++) {   // NAME01.wav, NAME02.wav ... to the first missing
                snprintf(v->names[k], sizeof v->names[k], "%s%.*s%02d.wav", sound_dirs[d], (int)stem, name, k + 1);
                if (!sound_exists(files, "", v->names[k]))
                    break;
                v->count = k + 1;
            }
        }
    }
    if (v->count <= 0)
        return name;   // the caller's own (a weapon's name: a constant)
    return v->names[seed % (uint32_t)v->count];
}
