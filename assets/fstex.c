// fstex.c -- Forsaken level texture animations (the .MXV's tail), bounded by the file
//
// Layout and rules: fstex.h and docs/forsaken.md "Texture animations" (the game's Mload.c:
// Mload, BackGroundTextureAnimation, HandleAnimCommands; Visi.c ReadGroupConnections,
// Mload.h's limits). Every count is checked against the bytes left before anything is read.
#include "fstex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"

#define CMD_DURATION 0x8001
#define CMD_DURATION1 0x8002
#define CMD_LOOPINIT 0x8003
#define CMD_LOOPEND 0x8004
#define CMD_END 0xffff
#define FOREVER 0xffff
#define MAX_COMMANDS 65536       // commands between two frames before a script is refused (ours)
#define GROUP_TABLE_BYTES 16     // a group's row of the connection tables: MAXGROUPS (128) bits
#define START_POINT_SIZE 40      // STARTPOS: f32 position, direction, up, u16 group, 2 bytes of padding

typedef struct {
    fstex_t *a;
    const mxv_t *m;
    int fill;                    // 0: validate and count, 1: copy (already validated)
    int polys, verts;
    size_t uvs;
    int *buf_first_poly;         // per mesh buffer: its first polygon (fill pass)
} walk_t;

// The sections between the portal section and the animations, skipped.
static int skip_middle(asset_rd_t *c, const mxv_t *m)
{
    size_t ng = (size_t)m->num_groups;
    for (int t = 0; t < 3; t++) {   // connected, visible, indirectly visible: table then lists
        if (asset_rd_need(c, ng, GROUP_TABLE_BYTES, "a group connection table") < 0)
            return -1;
        c->at += ng * GROUP_TABLE_BYTES;
        for (size_t g = 0; g < ng; g++) {
            int n;
            if (asset_rd_u16(c, "a group list's count", &n) < 0 || asset_rd_need(c, (size_t)n, 2, "a group list") < 0)
                return -1;
            c->at += (size_t)n * 2;
        }
    }
    for (size_t g = 0; g < ng; g++) {   // sound distances: num_groups x num_groups f32
        if (asset_rd_need(c, ng, 4, "a row of sound distances") < 0)
            return -1;
        c->at += ng * 4;
    }
    int cells;
    if (asset_rd_u16(c, "the light cell flag", &cells) < 0)
        return -1;
    if (cells) {
        if (asset_rd_need(c, 1, 4, "the cell size (f32)") < 0)
            return -1;
        c->at += 4;
        for (int g = 0; g < m->num_groups; g++) {
            if (asset_rd_need(c, 1, 2, "a group's buffer count") < 0)
                return -1;
            c->at += 2;
            size_t first_cells = 0;
            for (int b = 0; b < m->groups[g].num_buffers; b++) {
                if (asset_rd_need(c, 1, 20, "a buffer's cell origin, cell counts and index count") < 0)
                    return -1;
                const uint8_t *p = c->d + c->at + 12;
                size_t n = (size_t)asset_u16(p) * asset_u16(p + 2) * asset_u16(p + 4);
                int ni = asset_u16(p + 6);
                c->at += 20;
                if (asset_rd_need(c, (size_t)ni, 2, "vertex indices") < 0)
                    return -1;
                c->at += (size_t)ni * 2;
                if (asset_rd_need(c, n, 4, "vertex cells") < 0)
                    return -1;
                c->at += n * 4;
                if (b == 0)
                    first_cells = n;
            }
            if (asset_rd_need(c, first_cells, 4, "cell colours") < 0)
                return -1;
            c->at += first_cells * 4;
        }
    }
    int starts;
    if (asset_rd_u16(c, "a start point count", &starts) < 0 || asset_rd_need(c, (size_t)starts, START_POINT_SIZE, "start points") < 0)
        return -1;
    c->at += (size_t)starts * START_POINT_SIZE;
    int up;
    if (asset_rd_u16(c, "the up vector flag", &up) < 0)
        return -1;
    if (up) {
        if (asset_rd_need(c, ng, 12, "the groups' up vectors") < 0)
            return -1;
        c->at += ng * 12;
    }
    return 0;
}

typedef struct {
    int pc, master;
    uint16_t loop[FSTEX_MAX_LOOPS];
} pstate_t;

// Play one script to its end or until its state repeats (the timeline), into a->steps from
// a->num_steps (the fill pass) or only counting (w->a->steps NULL).
static int play_script(asset_rd_t *c, fstex_t *a, int ai, size_t at, int size, pstate_t *seen, fstex_step_t *out)
{
    const uint8_t *s = c->d + at;
    pstate_t st;
    memset(&st, 0, sizeof st);
    fstex_anim_t *an = &a->anims[ai];
    int n = 0;
    an->cycle_from = -1;
    for (;;) {
        for (int j = 0; j < n; j++)
            if (memcmp(&seen[j], &st, sizeof st) == 0) {
                an->cycle_from = j;
                break;
            }
        if (an->cycle_from >= 0)
            break;
        if (n == FSTEX_MAX_STEPS)
            return asset_rd_fail(c, at, "a script that ends or repeats within %d frames", FSTEX_MAX_STEPS);
        seen[n] = st;
        int dur1 = -1, frame = -1;
        for (int k = 0; frame < 0; k++) {
            if (k == MAX_COMMANDS)
                return asset_rd_fail(c, at, "a frame within %d commands (the game would loop for ever)", MAX_COMMANDS);
            if (st.pc >= size)
                return asset_rd_fail(c, at + (size_t)size * 2, "a frame or the end (0xffff) before the script's end (%d words)", size);
            size_t here = at + (size_t)st.pc * 2;
            int v = asset_u16(s + (size_t)st.pc++ * 2);
            if (v < 0x8000) {
                frame = v;
                break;
            }
            int args = v == CMD_DURATION || v == CMD_DURATION1 ? 1 : v == CMD_LOOPINIT || v == CMD_LOOPEND ? 2 : 0;
            if (st.pc + args > size)
                return asset_rd_fail(c, here, "command 0x%04x's %d argument(s) inside the script", v, args);
            const uint8_t *arg = s + (size_t)st.pc * 2;
            if (v == CMD_END) {
                an->cycle_from = n;   // the last frame stays
                break;
            } else if (v == CMD_DURATION) {
                st.master = asset_u16(arg);
                dur1 = -1;
            } else if (v == CMD_DURATION1) {
                dur1 = asset_u16(arg);
            } else if (v == CMD_LOOPINIT || v == CMD_LOOPEND) {
                int k2 = asset_u16(arg);
                if (k2 >= FSTEX_MAX_LOOPS)
                    return asset_rd_fail(c, here + 2, "a loop counter below %d, got %d", FSTEX_MAX_LOOPS, k2);
                if (v == CMD_LOOPINIT) {
                    st.loop[k2] = asset_u16(arg + 2);
                } else {
                    int to = asset_u16(arg + 2);
                    if (to >= size)
                        return asset_rd_fail(c, here + 4, "a loop start inside the script (%d words), got %d", size, to);
                    if (st.loop[k2] == FOREVER || --st.loop[k2] != 0) {
                        st.pc = to;
                        continue;
                    }
                }
            }
            st.pc += args;
        }
        if (frame < 0)
            break;
        if (out)
            out[n] = (fstex_step_t){ (uint16_t)frame, (uint16_t)(dur1 >= 0 ? dur1 : st.master) };
        n++;
    }
    an->num_steps = n;
    return 0;
}

static int polygons(asset_rd_t *c, walk_t *w)
{
    const mxv_t *m = w->m;
    fstex_t *a = w->a;
    for (int g = 0; g < m->num_groups; g++)
        for (int b = 0; b < m->groups[g].num_buffers; b++) {
            int gb = m->groups[g].first_buffer + b;
            const mxv_buffer_t *buf = &m->buffers[gb];
            size_t at = c->at;
            int n;
            if (asset_rd_u16(c, "an animated polygon count", &n) < 0)
                return -1;
            if (n > FSTEX_MAX_POLYS_PER_BUFFER)
                return asset_rd_fail(c, at, "at most %d animated polygons a buffer, got %d", FSTEX_MAX_POLYS_PER_BUFFER, n);
            if (w->fill)
                w->buf_first_poly[gb] = w->polys;
            for (int i = 0; i < n; i++) {
                at = c->at;
                if (asset_rd_need(c, 1, 6, "an animated polygon (u16 animation, frames, vertices)") < 0)
                    return -1;
                int anim = asset_u16(c->d + at), frames = asset_u16(c->d + at + 2), nv = asset_u16(c->d + at + 4);
                if (anim >= a->num_anims)
                    return asset_rd_fail(c, at, "an animation below %d, got %d", a->num_anims, anim);
                if (frames < 1 || frames > FSTEX_MAX_FRAMES)
                    return asset_rd_fail(c, at + 2, "1..%d frames, got %d", FSTEX_MAX_FRAMES, frames);
                if (nv < 1 || nv > buf->num_verts)
                    return asset_rd_fail(c, at + 4, "1..%d vertices (its buffer's), got %d", buf->num_verts, nv);
                c->at += 6;
                if (asset_rd_need(c, (size_t)nv, 2, "vertex numbers") < 0)
                    return -1;
                for (int k = 0; k < nv; k++) {
                    int v = asset_u16(c->d + c->at + (size_t)k * 2);
                    if (v >= buf->num_verts)
                        return asset_rd_fail(c, c->at + (size_t)k * 2, "a vertex of its buffer (below %d), got %d", buf->num_verts, v);
                    if (w->fill)
                        a->vert[w->verts + k] = buf->first_vert + v;
                }
                c->at += (size_t)nv * 2;
                size_t nuv = (size_t)frames * (size_t)nv;
                if (asset_rd_need(c, nuv, 8, "frames x vertices (f32 u, v)") < 0)
                    return -1;
                for (size_t k = 0; k < nuv * 2; k++) {
                    float f = asset_f32(c->d + c->at + k * 4);
                    if (!isfinite(f) || fabsf(f) > 1e6f)
                        return asset_rd_fail(c, c->at + k * 4, "a finite texture coordinate, got %g", (double)f);
                    if (w->fill)
                        a->uv[w->uvs * 2 + k] = f;
                }
                if (w->fill) {
                    // its script's frames must be its own
                    const fstex_anim_t *an = &a->anims[anim];
                    for (int s = an->first_step; s < an->first_step + an->num_steps; s++)
                        if (a->steps[s].frame >= frames)
                            return asset_rd_fail(c, at + 2, "frames enough for animation %d's frame %d, got %d", anim,
                                                 a->steps[s].frame, frames);
                    a->polys[w->polys] = (fstex_poly_t){ g, b, anim, frames, nv, w->verts, w->uvs, 1, -1 };
                }
                c->at += nuv * 8;
                w->polys++;
                w->verts += nv;
                w->uvs += nuv;
            }
        }
    return 0;
}

// The animations and everything after them; the first pass counts, the second fills.
static int walk_anims(asset_rd_t *c, walk_t *w, pstate_t *seen)
{
    fstex_t *a = w->a;
    const mxv_t *m = w->m;
    size_t at = c->at;
    int na;
    if (asset_rd_u16(c, "an animation count", &na) < 0)
        return -1;
    if (na > FSTEX_MAX_ANIMS)
        return asset_rd_fail(c, at, "at most %d animations, got %d", FSTEX_MAX_ANIMS, na);
    a->num_anims = na;
    int steps = 0;
    for (int i = 0; i < na; i++) {
        at = c->at;
        if (asset_rd_need(c, 1, 6, "an animation (u16 frames, max loops, size)") < 0)
            return -1;
        int size = asset_u16(c->d + at + 4);
        c->at += 6;
        if (asset_rd_need(c, (size_t)size, 2, "an animation script") < 0)
            return -1;
        fstex_anim_t *an = &a->anims[i];
        an->frames = asset_u16(c->d + at);
        an->max_loops = asset_u16(c->d + at + 2);
        an->first_step = steps;
        if (play_script(c, a, i, c->at, size, seen, w->fill ? a->steps + steps : NULL) < 0)
            return -1;
        if (w->fill) {
            an->lead_units = an->cycle_units = 0;
            for (int s = 0; s < an->num_steps; s++) {
                if (s < an->cycle_from)
                    an->lead_units += a->steps[steps + s].units;
                else
                    an->cycle_units += a->steps[steps + s].units;
            }
        }
        steps += an->num_steps;
        c->at += (size_t)size * 2;
    }
    a->num_steps = steps;
    if (na && polygons(c, w) < 0)
        return -1;
    at = c->at;
    if (asset_rd_u16(c, "the background colour flag", &a->num_colours) < 0)
        return -1;
    if (a->num_colours) {
        if (asset_rd_need(c, (size_t)m->num_groups, 4, "the groups' background colours") < 0)
            return -1;
        c->at += (size_t)m->num_groups * 4;
    }
    int has_index, ni = 0;
    if (asset_rd_u16(c, "the animation index flag", &has_index) < 0)
        return -1;
    if (has_index) {
        if (asset_rd_u16(c, "an animation index count", &ni) < 0 || asset_rd_need(c, (size_t)ni, 10, "animation index entries") < 0)
            return -1;
        for (int i = 0; i < ni; i++, c->at += 10) {
            const uint8_t *p = c->d + c->at;
            int g = asset_u16(p), b = asset_u16(p + 2), pi = asset_u16(p + 4), state = asset_u16(p + 6);
            if (g >= m->num_groups)
                return asset_rd_fail(c, c->at, "a group below %d, got %d", m->num_groups, g);
            if (b >= m->groups[g].num_buffers)
                return asset_rd_fail(c, c->at + 2, "a buffer of group %d below %d, got %d", g, m->groups[g].num_buffers, b);
            if (!w->fill)
                continue;
            int gb = m->groups[g].first_buffer + b, first = w->buf_first_poly[gb];
            int count = 0;
            while (first >= 0 && first + count < w->polys && a->polys[first + count].group == g &&
                   a->polys[first + count].buffer == b)
                count++;
            if (first < 0 || pi >= count)
                return asset_rd_fail(c, c->at + 4, "an animated polygon of group %d buffer %d (below %d), got %d", g, b,
                                     first < 0 ? 0 : count, pi);
            fstex_poly_t *po = &a->polys[first + pi];
            po->running = state == 1;   // TEXTUREANIM_Go; anything else never runs
            po->stop_mod = asset_s16(p + 8);
            a->index[i] = first + pi;
        }
    }
    a->num_index = ni;
    return 0;
}

void fstex_free(fstex_t *a)
{
    if (!a)
        return;
    free(a->anims);
    free(a->polys);
    free(a->steps);
    free(a->vert);
    free(a->uv);
    free(a->index);
    free(a);
}

fstex_t *fstex_load(const uint8_t *data, size_t size, const char *name, const mxv_t *m, char *err, size_t errcap)
{
    asset_rd_t c = { data, data ? size : 0, 0, name ? name : "mxv", err, errcap, 0 };
    if (err && errcap)
        err[0] = 0;
    fstex_t *a = calloc(1, sizeof *a);
    pstate_t *seen = malloc(FSTEX_MAX_STEPS * sizeof *seen);
    if (!a || !seen || !m) {
        asset_rd_fail(&c, 0, !m ? "a level mesh to walk from" : "memory for the texture animations");
        free(seen);
        free(a);
        return NULL;
    }
    if (m->has_portals) {
        c.at = m->portal_end;
        if (skip_middle(&c, m) < 0)
            goto bad;
    } else {
        c.at = m->mesh_end;
        if (c.at >= c.n) {   // the file ends with its meshes: nothing animates
            a->start = a->end = c.at;
            free(seen);
            return a;
        }
        int format;
        if (asset_rd_u16(&c, "a portal section format (u16)", &format) < 0)
            goto bad;
        if (format != 0) {
            asset_rd_fail(&c, m->mesh_end, "a portal section that loads (%s)", m->portal_warning[0] ? m->portal_warning : "refused");
            goto bad;
        }
    }
    size_t tail = c.at;
    a->start = tail;
    walk_t w = { a, m, 0, 0, 0, 0, NULL };
    fstex_anim_t count_anims[FSTEX_MAX_ANIMS];
    a->anims = count_anims;
    int rc = walk_anims(&c, &w, seen);
    a->anims = NULL;
    if (rc < 0)
        goto bad;
    a->anims = calloc(a->num_anims ? (size_t)a->num_anims : 1, sizeof *a->anims);
    a->polys = calloc(w.polys ? (size_t)w.polys : 1, sizeof *a->polys);
    a->steps = calloc(a->num_steps ? (size_t)a->num_steps : 1, sizeof *a->steps);
    a->vert = calloc(w.verts ? (size_t)w.verts : 1, sizeof *a->vert);
    a->uv = calloc(w.uvs ? w.uvs * 2 : 1, sizeof *a->uv);
    a->index = calloc(a->num_index ? (size_t)a->num_index : 1, sizeof *a->index);
    int *first = malloc(((size_t)m->num_buffers + 1) * sizeof *first);
    if (!a->anims || !a->polys || !a->steps || !a->vert || !a->uv || !a->index || !first) {
        free(first);
        asset_rd_fail(&c, tail, "memory for %d animated polygons", w.polys);
        goto bad;
    }
    for (int i = 0; i <= m->num_buffers; i++)
        first[i] = -1;
    walk_t fill = { a, m, 1, 0, 0, 0, first };
    c.at = tail;
    rc = walk_anims(&c, &fill, seen);
    free(first);
    if (rc < 0)
        goto bad;
    a->num_polys = fill.polys;
    a->end = c.at;
    free(seen);
    return a;
bad:
    free(seen);
    fstex_free(a);
    return NULL;
}

int fstex_anim_frame(const fstex_t *a, int anim, int64_t u)
{
    if (!a || anim < 0 || anim >= a->num_anims)
        return 0;
    const fstex_anim_t *an = &a->anims[anim];
    if (an->num_steps == 0)
        return 0;   // no frame before the end: the first stays
    const fstex_step_t *s = a->steps + an->first_step;
    int from = 0, to = an->cycle_from;
    if (u < 0)
        u = 0;
    if (u >= an->lead_units) {
        if (an->cycle_from >= an->num_steps || an->cycle_units <= 0)
            return s[an->num_steps - 1].frame;   // ended (or a cycle of no time: the game would spin in it)
        u = (u - an->lead_units) % an->cycle_units;
        from = an->cycle_from;
        to = an->num_steps;
    }
    int64_t at = 0;
    for (int i = from; i < to; i++) {
        at += s[i].units;
        if (u < at)
            return s[i].frame;
    }
    return s[to - 1].frame;
}

int fstex_frame(const fstex_t *a, int i, double t)
{
    if (!a || i < 0 || i >= a->num_polys || !a->polys[i].running)
        return 0;
    double u = t * FSTEX_UNITS_PER_SECOND;
    int64_t units = !(u > 0) ? 0 : u > 1e15 ? (int64_t)1e15 : (int64_t)u;
    return fstex_anim_frame(a, a->polys[i].anim, units);
}

const float *fstex_uv(const fstex_t *a, int i, int f)
{
    const fstex_poly_t *p = &a->polys[i];
    if (f < 0 || f >= p->frames)
        f = 0;
    return a->uv + (p->first_uv + (size_t)f * (size_t)p->num_verts) * 2;
}
