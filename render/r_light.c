// r_light.c -- light styles, dynamic lights marked on surfaces, and the light at a point (for models)
#include "r_local.h"

#include <math.h>
#include <string.h>

void r_light_styles(renderer_t *r, const world_t *w, double t)
{
    double ft = t * 10;   // styles step at 10 Hz, as Quake's (a damaged demo's absurd time: frame 0)
    int frame = isfinite(ft) && ft > 0 && ft < 2e9 ? (int)ft : 0;
    // A letter weighs 22 in Quake ('m' = 264, no style = 256). Quake II's software
    // renderer weighed a style by its white level (r + g + b, 'm' = 3.0) times 128:
    // 'm' and no style = 384, 32 a letter.
    int q2 = r->bsp && r->bsp->version == 38;
    int unit = q2 ? 32 : 22, none = q2 ? 384 : 256;
    for (int i = 0; i < WORLD_MAX_LIGHTSTYLES; i++) {
        const char *s = w->lightstyles[i];
        size_t len = strnlen(s, WORLD_STYLE_LEN);
        if (!len) {
            r->lightstyles[i] = none;
            continue;
        }
        int c = s[frame % (int)len] - 'a';
        r->lightstyles[i] = c * unit;
    }
}

static void mark_node(renderer_t *r, int l, int node, int depth)
{
    const bsp_t *b = r->bsp;
    const r_dlight_t *dl = &r->view.dlights[l];
    while (node >= 0 && depth < 1024) {
        const bsp_node_t *nd = &b->nodes[node];
        const bsp_plane_t *pl = &b->planes[nd->plane];
        float d = dl->origin[0] * pl->normal[0] + dl->origin[1] * pl->normal[1] + dl->origin[2] * pl->normal[2] - pl->dist;
        if (d > dl->radius) {
            node = nd->children[0];
        } else if (d < -dl->radius) {
            node = nd->children[1];
        } else {
            for (int i = 0; i < nd->numfaces; i++) {
                r_face_t *rf = &r->faces[nd->firstface + i];
                if (rf->dlightframe != r->framecount) {
                    rf->dlightframe = r->framecount;
                    rf->dlightbits = 0;
                }
                rf->dlightbits |= (uint64_t)1 << l;
            }
            mark_node(r, l, nd->children[0], depth + 1);
            node = nd->children[1];
        }
        depth++;
    }
}

void r_mark_lights(renderer_t *r)
{
    for (int l = 0; l < r->view.num_dlights && l < 64; l++)
        if (r->view.dlights[l].radius > 0 && !r->view.dlights[l].elight)
            mark_node(r, l, r->bsp->models[0].headnode, 0);
}

// A Quake level's light at (s, t) of face f (texels), as the references' renderer
// (tyrquake) samples it for models: the 2x2 lightmap samples around the point,
// each the sum of its styles times style / 256, weighted bilinearly, floored.
static int light_bilinear(const renderer_t *r, const bsp_face_t *f, float s, float t)
{
    const bsp_t *b = r->bsp;
    int w = (f->extents[0] >> 4) + 1, h = (f->extents[1] >> 4) + 1;
    int ds = (int)floorf(s), dt = (int)floorf(t);
    if (ds > w - 2) ds = w - 2;
    if (dt > h - 2) dt = h - 2;
    if (ds < 0) ds = 0;   // a lightmap one sample wide or high: its only column / row
    if (dt < 0) dt = 0;
    int ds1 = ds + 1 < w ? ds + 1 : ds, dt1 = dt + 1 < h ? dt + 1 : dt;
    float smp[2][2] = { { 0, 0 }, { 0, 0 } };
    const uint8_t *lm = b->lightdata + f->lightofs;
    for (int st = 0; st < BSP_MAXSTYLES && f->styles[st] != 255; st++) {
        float scale = (float)r->lightstyles[f->styles[st]] * (1.0f / 256.0f);
        smp[0][0] += (float)lm[dt * w + ds] * scale;
        smp[0][1] += (float)lm[dt * w + ds1] * scale;
        smp[1][0] += (float)lm[dt1 * w + ds] * scale;
        smp[1][1] += (float)lm[dt1 * w + ds1] * scale;
        lm += w * h;
    }
    float fs = s - (float)ds, ft = t - (float)dt;
    return (int)floorf(smp[0][0] * (1 - fs) * (1 - ft) + smp[0][1] * fs * (1 - ft) + smp[1][0] * (1 - fs) * ft +
                       smp[1][1] * fs * ft);
}

// Light where the segment start..end first meets a lit surface, or -1.
static int light_trace(const renderer_t *r, int node, const float *start, const float *end, int depth)
{
    const bsp_t *b = r->bsp;
    if (node < 0 || depth > 1024)
        return -1;
    const bsp_node_t *nd = &b->nodes[node];
    const bsp_plane_t *pl = &b->planes[nd->plane];
    float front = start[0] * pl->normal[0] + start[1] * pl->normal[1] + start[2] * pl->normal[2] - pl->dist;
    float back = end[0] * pl->normal[0] + end[1] * pl->normal[1] + end[2] * pl->normal[2] - pl->dist;
    int side = front < 0;
    if ((back < 0) == side)
        return light_trace(r, nd->children[side], start, end, depth + 1);
    float frac = front / (front - back);
    float mid[3];
    for (int k = 0; k < 3; k++)
        mid[k] = start[k] + (end[k] - start[k]) * frac;
    int v = light_trace(r, nd->children[side], start, mid, depth + 1);
    if (v >= 0)
        return v;
    for (int i = 0; i < nd->numfaces; i++) {
        const bsp_face_t *f = &b->faces[nd->firstface + i];
        if (f->flags & (BSP_SURF_SKY | BSP_SURF_TURB | BSP_SURF_NODRAW))
            continue;
        const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
        float s = mid[0] * ti->vecs[0][0] + mid[1] * ti->vecs[0][1] + mid[2] * ti->vecs[0][2] + ti->vecs[0][3];
        float t = mid[0] * ti->vecs[1][0] + mid[1] * ti->vecs[1][1] + mid[2] * ti->vecs[1][2] + ti->vecs[1][3];
        if (b->version == 29) {   // Quake: the sample point in lightmap units, bilinear
            float ls = (s - (float)f->texturemins[0]) * 0.0625f, lt = (t - (float)f->texturemins[1]) * 0.0625f;
            float fs = floorf(ls), ft = floorf(lt);
            if (fs < 0 || ft < 0 || fs > (float)(f->extents[0] >> 4) || ft > (float)(f->extents[1] >> 4))
                continue;
            if (!b->light_size)
                return 255;
            return f->lightofs < 0 ? 0 : light_bilinear(r, f, ls, lt);
        }
        int ds = (int)s - f->texturemins[0], dt = (int)t - f->texturemins[1];
        if (ds < 0 || dt < 0 || ds > f->extents[0] || dt > f->extents[1])
            continue;
        if (!b->light_size)
            return 255;
        if (f->lightofs < 0)
            return 0;
        int smax = (f->extents[0] >> 4) + 1, tmax = (f->extents[1] >> 4) + 1;
        // Yamagi's ref_soft lights models by the mean of the sample's r, g, b (its faces
        // by the brightest component): measured on action_demo's view weapon
        const uint8_t *lm = (b->lightdata_mean ? b->lightdata_mean : b->lightdata) + f->lightofs + (dt >> 4) * smax + (ds >> 4);
        int sum = 0;
        for (int st = 0; st < BSP_MAXSTYLES && f->styles[st] != 255; st++) {
            sum += *lm * r->lightstyles[f->styles[st]];
            lm += smax * tmax;
        }
        return sum >> 8;
    }
    return light_trace(r, nd->children[!side], mid, end, depth + 1);
}

int r_light_point_world(void *ctx, const vec3_t p)
{
    const renderer_t *r = ctx;
    if (!r->bsp)
        return 200;
    // Quake's references trace 8192 units down (+ 2); the other games 2048
    float end[3] = { p[0], p[1], p[2] - (r->bsp->version == 29 ? 8194.0f : 2048.0f) };
    int v = light_trace(r, r->bsp->models[0].headnode, p, end, 0);
    return v < 0 ? 0 : v;
}

int r_light_point(void *ctx, const vec3_t p)
{
    const renderer_t *r = ctx;
    if (!r->bsp)
        return 200;
    int v = r_light_point_world(ctx, p);
    for (int l = 0; l < r->view.num_dlights; l++) {
        const r_dlight_t *dl = &r->view.dlights[l];
        if (dl->elight || dl->dark)   // (ref_soft's R_LightPoint adds only what is above 0)
            continue;
        float d[3] = { p[0] - dl->origin[0], p[1] - dl->origin[1], p[2] - dl->origin[2] };
        float add = dl->radius - sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (add > 0)
            v += (int)add;
    }
    return v > 255 ? 255 : v;
}
