// fuzz_studio.c -- libFuzzer harness: the GoldSrc studio model loader, then a pose of every sequence
//
// Built by tools/fuzz.sh (a line in tests/fuzz/targets.txt). The input is the
// model; every companion file it asks for (sequence groups "<name>01.mdl" ...,
// textures "<name>t.mdl") is the same bytes again, so those readers are fed too.
// Each input is copied into an exact-size malloc so ASan catches any read past
// its end. A failed load must leave a "NAME: offset N: expected ..." message.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets/studio.h"
#include "fuzz_common.h"

typedef struct {
    const uint8_t *d;
    size_t n;
} input_t;

static uint8_t *same_bytes(void *ctx, const char *path, size_t *size)
{
    (void)path;
    const input_t *in = ctx;
    uint8_t *c = malloc(in->n ? in->n : 1);
    if (!c)
        return NULL;
    memcpy(c, in->d, in->n);
    *size = in->n;
    return c;
}

static void run(const uint8_t *d, size_t n)
{
    input_t in = {d, n};
    asset_files_t files = {same_bytes, &in};
    studio_t m;
    char err[256] = "";
    if (studio_load(&m, d, n, "models/fuzz.mdl", &files, NULL, err, sizeof err) < 0) {
        if (!strstr(err, "offset ") || !strstr(err, "expected")) {
            fprintf(stderr, "load failed without an offset: \"%s\"\n", err);
            abort();
        }
        return;
    }
    studio_pose_t p;
    if (studio_pose_alloc(&m, &p) < 0) {
        studio_free(&m);
        return;
    }
    volatile float sum = 0;
    static const uint8_t ctl[5] = {0, 64, 128, 255, 40};
    for (int s = -1; s <= m.numseq && s < 256; s++) {
        // out-of-range sequences stand for sequence 0
        int real = s >= 0 && s < m.numseq ? s : 0;
        float frames = m.numseq > 0 ? (float)m.seqs[real].numframes : 1.0f;
        for (int k = 0; k < 3; k++) {
            float f = studio_frame(&m, s, (float)(k * 100), k * 0.7, k ? 1.0f : -2.0f);
            if (!(f >= 0 && f <= frames))
                abort();
            studio_pose(&m, &p, s, k == 2 ? frames + 3 : f, 127.0f * (float)k, k == 1 ? ctl : NULL, k * 7);
            if (m.numverts > 0)
                sum += p.verts[m.numverts - 1][0];
        }
    }
    for (int part = 0; part < m.numbodyparts; part++) {
        const studio_submodel_t *sm = studio_body_model(&m, part, 12345);
        if (sm && (sm < m.submodels || sm >= m.submodels + m.numsubmodels))
            abort();
    }
    for (int i = 0; i < m.nummeshes; i++) {
        const studio_texture_t *t = studio_skin_texture(&m, i % 3 - 1, m.meshes[i].skinref);
        if (t)
            sum += t->pixels[(size_t)t->width * (size_t)t->height - 1];
    }
    for (int i = 0; i < m.numcorners; i++)
        if (m.corners[i].vert < 0 || m.corners[i].vert >= m.numverts || m.corners[i].norm < 0 ||
            m.corners[i].norm >= m.numnorms)
            abort();
    // every sequence's events, through the lookup the sound system uses
    for (int s = 0; s < m.numseq; s++) {
        const studio_event_t *ev[8];
        int n = studio_events_between(&m, s, -1e9f, 1e9f, ev, 8);
        for (int i = 0; i < n; i++)
            if (ev[i] < m.events || ev[i] >= m.events + m.numevents || strlen(ev[i]->options) > 64)
                abort();
    }
    (void)sum;
    studio_pose_free(&p);
    studio_free(&m);
}
