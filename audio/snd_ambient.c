// snd_ambient.c -- Quake's automatic ambient sounds: the BSP leaf under the listener gives water and sky levels
//
// Quake's client plays ambience/water1.wav and ambience/wind2.wav by itself, at
// the levels the map compiler stored in each leaf (ambient_level[4]: water, sky,
// slime, lava; only the first two have sounds). This reads just what that needs
// from a BSP29 or BSP2 file -- planes, nodes, the leaves' ambient levels and the
// world model's head node -- with every index checked, so a damaged map can only
// give silence.
#include "snd_local.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LUMP_PLANES = 1, LUMP_NODES = 5, LUMP_LEAFS = 10, LUMP_MODELS = 14, NUM_LUMPS = 15 };

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static float rdf(const uint8_t *p)
{
    union { uint32_t u; float f; } v;
    v.u = rd32(p);
    return v.f;
}

void snd_ambient_free(snd_ambient_t *a)
{
    free(a->planes);
    free(a->nodes);
    free(a->levels);
    memset(a, 0, sizeof(*a));
}

int snd_ambient_load(snd_ambient_t *a, const uint8_t *b, size_t size, char *err, size_t cap)
{
    memset(a, 0, sizeof(*a));
    if (size < 4 + NUM_LUMPS * 8) {
        snprintf(err, cap, "offset 0: expected a BSP header of %d bytes, the file has %zu", 4 + NUM_LUMPS * 8, size);
        return -1;
    }
    uint32_t version = rd32(b);
    int bsp2 = !memcmp(b, "BSP2", 4);
    if (version != 29 && !bsp2) {
        snprintf(err, cap, "offset 0: expected BSP version 29 or \"BSP2\", found 0x%08x", (unsigned)version);
        return -1;
    }
    const size_t node_size = bsp2 ? 44 : 24, leaf_size = bsp2 ? 44 : 28;
    const size_t sizes[NUM_LUMPS] = { [LUMP_PLANES] = 20, [LUMP_NODES] = node_size, [LUMP_LEAFS] = leaf_size,
                                      [LUMP_MODELS] = 64 };
    const uint8_t *lump[NUM_LUMPS] = { 0 };
    size_t count[NUM_LUMPS] = { 0 };
    static const int used[4] = { LUMP_PLANES, LUMP_NODES, LUMP_LEAFS, LUMP_MODELS };
    for (int k = 0; k < 4; k++) {
        int i = used[k];
        uint32_t ofs = rd32(b + 4 + 8 * i), len = rd32(b + 8 + 8 * i);
        if (ofs > size || len > size - ofs || len % sizes[i]) {
            snprintf(err, cap, "offset %d: expected lump %d inside the file in whole %zu-byte records (%u bytes at %u)",
                     4 + 8 * i, i, sizes[i], (unsigned)len, (unsigned)ofs);
            return -1;
        }
        lump[i] = b + ofs;
        count[i] = len / sizes[i];
    }
    if (!count[LUMP_MODELS] || !count[LUMP_LEAFS] || count[LUMP_NODES] > (1u << 24) ||
        count[LUMP_LEAFS] > (1u << 24) || count[LUMP_PLANES] > (1u << 24)) {
        snprintf(err, cap, "offset 4: expected a world model, leaves and at most 2^24 nodes, planes, leaves");
        return -1;
    }
    a->num_planes = (int)count[LUMP_PLANES];
    a->num_nodes = (int)count[LUMP_NODES];
    a->num_leafs = (int)count[LUMP_LEAFS];
    a->planes = malloc(sizeof(*a->planes) * (a->num_planes ? (size_t)a->num_planes : 1));
    a->nodes = malloc(sizeof(*a->nodes) * (a->num_nodes ? (size_t)a->num_nodes : 1));
    a->levels = malloc(sizeof(*a->levels) * (size_t)a->num_leafs);
    if (!a->planes || !a->nodes || !a->levels) {
        snd_ambient_free(a);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    for (int i = 0; i < a->num_planes; i++) {
        const uint8_t *p = lump[LUMP_PLANES] + 20 * (size_t)i;
        for (int k = 0; k < 4; k++)
            a->planes[i][k] = rdf(p + 4 * k);
    }
    for (int i = 0; i < a->num_nodes; i++) {
        const uint8_t *p = lump[LUMP_NODES] + node_size * (size_t)i;
        a->nodes[i][0] = (int32_t)rd32(p);
        if (bsp2) {
            a->nodes[i][1] = (int32_t)rd32(p + 4);
            a->nodes[i][2] = (int32_t)rd32(p + 8);
        } else {
            // BSP29 children are shorts; negative ones are leaves (-1 - leaf)
            a->nodes[i][1] = (int16_t)(p[4] | (p[5] << 8));
            a->nodes[i][2] = (int16_t)(p[6] | (p[7] << 8));
        }
    }
    for (int i = 0; i < a->num_leafs; i++)
        memcpy(a->levels[i], lump[LUMP_LEAFS] + leaf_size * (size_t)i + leaf_size - 4, 4);
    a->headnode = (int32_t)rd32(lump[LUMP_MODELS] + 36);
    a->loaded = 1;
    return 0;
}

const uint8_t *snd_ambient_levels(const snd_ambient_t *a, const float *p)
{
    if (!a->loaded)
        return NULL;
    int32_t n = a->headnode;
    // a tree walk is at most as deep as there are nodes: a cycle in bad data ends here
    for (int steps = 0; n >= 0 && steps <= a->num_nodes; steps++) {
        if (n >= a->num_nodes)
            return NULL;
        int32_t pl = a->nodes[n][0];
        if (pl < 0 || pl >= a->num_planes)
            return NULL;
        const float *plane = a->planes[pl];
        float d = p[0] * plane[0] + p[1] * plane[1] + p[2] * plane[2] - plane[3];
        n = d > 0 ? a->nodes[n][1] : a->nodes[n][2];
    }
    if (n >= 0)
        return NULL;
    int64_t leaf = -1 - (int64_t)n;
    return leaf < a->num_leafs ? a->levels[leaf] : NULL;
}
