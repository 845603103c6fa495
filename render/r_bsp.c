// r_bsp.c -- world front end: PVS, front-to-back BSP walk, frustum clipping, scan conversion into the span buffer
#include "r_local.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NEAR_CLIP 0.5f     // units in front of the eye; walls are never nearer (player hull)
#define MAX_DEPTH 1024     // BSP walk depth bound (real maps stay under 100)
#define BACKFACE_EPSILON 0.01f

typedef struct {
    float p[3];
} r_vert_t;

static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void r_world_setup(renderer_t *r)
{
    free(r->faces);
    free(r->trans_faces);
    free(r->node_visframe);
    free(r->leaf_visframe);
    free(r->pvs);
    r->faces = NULL;
    r->trans_faces = NULL;
    r->num_trans = 0;
    r->node_visframe = r->leaf_visframe = NULL;
    r->pvs = NULL;
    if (!r->bsp)
        return;
    const bsp_t *b = r->bsp;
    r->faces = calloc((size_t)b->num_faces + 1, sizeof(r_face_t));
    r->trans_faces = calloc((size_t)b->num_faces + 1, sizeof(int));
    r->node_visframe = calloc((size_t)b->num_nodes + 1, sizeof(int));
    r->leaf_visframe = calloc((size_t)b->num_leafs + 1, sizeof(int));
    r->pvs_size = ((size_t)b->num_leafs + 7) / 8 + 1;
    r->pvs = calloc(r->pvs_size, 1);
    if (!r->faces || !r->trans_faces || !r->node_visframe || !r->leaf_visframe || !r->pvs) {
        bsp_free(r->bsp);
        r->bsp = NULL;
        return;
    }
    for (int i = 0; i < b->num_faces; i++)
        for (int m = 0; m < BSP_MIPLEVELS; m++)
            r->faces[i].cache_ofs[m] = -1;
    // See-through world faces: Quake II's 33/66 % faces, and a Quake map's water
    // when its worldspawn asks (FitzQuake's "_wateralpha"/"wateralpha" key: the
    // map was compiled for it; lava, slime and teleporters stay solid).
    char wa[32] = "";
    if (b->version == 29) {
        bsp_worldspawn_value(b, "_wateralpha", wa, sizeof wa);
        if (!wa[0])
            bsp_worldspawn_value(b, "wateralpha", wa, sizeof wa);
    }
    float alpha = wa[0] ? (float)atof(wa) : 1.0f;
    int water = alpha < 0.84f ? (alpha < 0.5f ? R_DRAW_BLEND33 : R_DRAW_BLEND66) : 0;
    if (water && !r->pal.has_alphamap)
        pal_make_alphamap(&r->pal);
    for (int i = 0; i < b->num_faces && r->pal.has_alphamap; i++) {
        const bsp_face_t *f = &b->faces[i];
        const char *tn = b->textures[b->texinfo[f->texinfo].texture].name;
        if (f->flags & BSP_SURF_TRANS33)
            r->faces[i].trans_mode = R_DRAW_BLEND33;
        else if (f->flags & BSP_SURF_TRANS66)
            r->faces[i].trans_mode = R_DRAW_BLEND66;
        else if (water && (f->flags & BSP_SURF_TURB) && strncmp(tn, "*lava", 5) && strncmp(tn, "*slime", 6) &&
                 strncmp(tn, "*tele", 5))
            r->faces[i].trans_mode = water;
    }
    // GoldSrc's '{' textures on the world: index 255 is a hole (fences, grates,
    // ladders), drawn masked after the solid world so that what is behind shows.
    if (b->version == 30)
        for (int i = 0; i < b->num_faces; i++)
            if (b->textures[b->texinfo[b->faces[i].texinfo].texture].name[0] == '{')
                r->faces[i].trans_mode = R_DRAW_MASKED;
    r->framecount = 1;
    r->oldviewleaf = -2;
    r_surf_reset(r);
    r_sky_load(r);
}

// ---- models that are BSP files ------------------------------------------------

void r_ext_models_free(renderer_t *r)
{
    for (int i = 0; i < r->num_ext; i++) {
        bsp_free(r->ext[i].bsp);
        free(r->ext[i].faces);
    }
    r->num_ext = 0;
}

static uint8_t *ext_file(void *ctx, const char *path, size_t *size) { return vfs_load(ctx, path, size); }

void r_ext_models_load(renderer_t *r, vfs_t *fs, const world_t *w)
{
    r_ext_models_free(r);
    if (!fs || !w->models || !r->bsp || r->bsp->version == 38)
        return;
    for (int i = 2; i < w->num_models && r->num_ext < R_MAX_EXT_BSP; i++) {
        const char *name = w->models[i];
        size_t len = strlen(name);
        if (len < 5 || strcmp(name + len - 4, ".bsp") || !strcmp(name, w->map))
            continue;
        size_t size = 0;
        uint8_t *data = vfs_load(fs, name, &size);
        if (!data)
            continue;   // r_models reports missing models
        asset_files_t files = { ext_file, fs };
        char err[256];
        bsp_t *b = bsp_load_files(data, size, name, &files, err, sizeof err);
        free(data);
        if (!b)
            continue;
        r_face_t *faces = calloc((size_t)b->num_faces + 1, sizeof(r_face_t));
        if (!faces || b->num_models < 1) {
            free(faces);
            bsp_free(b);
            continue;
        }
        for (int f = 0; f < b->num_faces; f++)
            for (int m = 0; m < BSP_MIPLEVELS; m++)
                faces[f].cache_ofs[m] = -1;
        r->ext[r->num_ext].modelindex = i;
        r->ext[r->num_ext].bsp = b;
        r->ext[r->num_ext].faces = faces;
        r->num_ext++;
    }
}

static const r_extbsp_t *ext_model(const renderer_t *r, int modelindex)
{
    for (int i = 0; i < r->num_ext; i++)
        if (r->ext[i].modelindex == modelindex)
            return &r->ext[i];
    return NULL;
}

// ---- span buffer ------------------------------------------------------------

// The rows of the view this renderer draws (r_view_t.y0/y1: a screen band, else all of them).
static void band_rows(const renderer_t *r, int *y0, int *y1)
{
    int a = r->view.y0, b = r->view.y1;
    *y0 = a > 0 ? (a < r->vh ? a : r->vh) : 0;
    *y1 = b > 0 && b < r->vh ? b : r->vh;
}

// A band's rows start free and the others full: a row's free runs depend on nothing but
// the polygons drawn on it, so the band's rows get the whole frame's spans, and the walk
// stops as soon as they are full (what it would meet after that is hidden in them).
void r_spanbuf_clear(renderer_t *r)
{
    int b0, b1;
    band_rows(r, &b0, &b1);
    for (int y = 0; y < r->vh; y++) {
        r->free[y * R_ROW_FREE_MAX].x0 = 0;
        r->free[y * R_ROW_FREE_MAX].x1 = (int16_t)r->vw;
        r->free_count[y] = y >= b0 && y < b1;
    }
    r->rows_left = b1 > b0 ? b1 - b0 : 0;
}

// What no polygon covered (outside the map, a view inside a wall): colour 0, nothing in the z-buffer.
static void spanbuf_fill_rest(renderer_t *r)
{
    for (int y = 0; y < r->vh; y++) {
        const r_free_t *f = &r->free[y * R_ROW_FREE_MAX];
        for (int i = 0; i < r->free_count[y]; i++)
            d_fill_span(r, f[i].x0, f[i].x1, y, 0);
    }
}

// Quake II: ref_soft draws no sky face. The first one its walk meets puts a box of
// the six sky pictures around the eye, sorted behind every face of the world
// (R_EmitSkyBox): what is behind a sky face and drawn, a room beyond the sky brush,
// shows through it, and the box fills what no face covers. z: 0, farthest.
static void spanbuf_fill_sky(renderer_t *r)
{
    d_grad_t zg;
    memset(&zg, 0, sizeof zg);
    int n = 0;
    for (int y = 0; y < r->vh; y++) {
        const r_free_t *f = &r->free[y * R_ROW_FREE_MAX];
        for (int i = 0; i < r->free_count[y]; i++) {
            if (f[i].x1 <= f[i].x0)
                continue;
            r->spans[n].x = f[i].x0;
            r->spans[n].y = (int16_t)y;
            r->spans[n].count = (int16_t)(f[i].x1 - f[i].x0);
            if (++n == R_SPAN_BATCH) {
                d_draw_spans_sky(r, r->spans, n, &zg, 0);
                n = 0;
            }
        }
    }
    if (n)
        d_draw_spans_sky(r, r->spans, n, &zg, 0);
}

// ---- polygons ---------------------------------------------------------------

typedef struct {
    renderer_t *r;
    r_surfctx_t *ctx;
    int nspans;
} r_polydraw_t;

static void flush_spans(renderer_t *r, r_surfctx_t *ctx, int n)
{
    if (n <= 0)
        return;
    r->stat_spans += n;
    const bsp_face_t *f = ctx->face;
    if (!f) {   // r_test_poly: flat colour, or count coverage when not using the span buffer
        for (int i = 0; i < n; i++) {
            uint8_t *p = r->buffer + (size_t)r->spans[i].y * (size_t)r->width + (size_t)r->spans[i].x;
            for (int k = 0; k < r->spans[i].count; k++)
                p[k] = ctx->ztest ? (uint8_t)(p[k] + 1) : (uint8_t)ctx->texture;
        }
        return;
    }
    const bsp_texture_t *tex = &r->bsp->textures[ctx->texture];
    d_grad_t g;
    if (f->flags & BSP_SURF_SKY) {
        d_gradients(r, ctx, 1.0f, 0, 0, &g);
        d_draw_spans_sky(r, r->spans, n, &g, ctx->ztest);
        return;
    }
    if (r->bsp->version == 38 && (f->flags & (BSP_SURF_TURB | BSP_SURF_FLOWING)) && tex->width >= 64 &&
        tex->height >= 64) {
        // ref_soft: warping and flowing faces unlit from the texture, flowing ones scrolled
        int turb[128];
        for (int i = 0; i < 128; i++)
            turb[i] = f->flags & BSP_SURF_TURB ? r->turbsin[(i + r->turb_ofs) & 127] : 0;
        int alpha_poly = r->draw_mode == R_DRAW_BLEND33 || r->draw_mode == R_DRAW_BLEND66;
        d_surfgrad_t sg;
        d_turb_gradients_q2(r, ctx, alpha_poly, &sg);
        d_draw_spans_turb_q2(r, &sg, r->bsp->texels + tex->offsets[0], turb, alpha_poly, r->spans, n, ctx->ztest);
        return;
    }
    if (f->flags & BSP_SURF_TURB) {
        d_gradients(r, ctx, 1.0f, ctx->svec[3], ctx->tvec[3], &g);
        d_draw_spans_turb(r, &g, r->bsp->texels + tex->offsets[0], tex->width, tex->height, r->spans, n, ctx->ztest);
        return;
    }
    // Quake II's see-through faces: ref_soft draws them as polygons (R_DrawAlphaSurfaces)
    // from the lit surface at full size, in chunks of 16 pixels never doubled.
    int q2_see = r->bsp->version == 38 && (r->draw_mode == R_DRAW_BLEND33 || r->draw_mode == R_DRAW_BLEND66);
    int mip = q2_see ? 0 : d_mip_level(r, ctx);
    const r_cached_t *c = r_surf_get(r, ctx, mip);
    if (!c)
        return;
    d_surfgrad_t sg;
    d_surf_gradients(r, ctx, mip, &sg);
    if (q2_see)
        sg.spanshift = 4;
    d_draw_spans_lit(r, &sg, c, r->spans, n, ctx->ztest);
}

// Sutherland-Hodgman against one plane. The crossing point is always computed
// from the inside vertex toward the outside one, so two polygons sharing an edge
// get the very same new vertex: no cracks along clipped edges.
static int clip_poly(const r_vert_t *in, int n, r_vert_t *out, const float *normal, float dist)
{
    float d[R_MAX_POLY_VERTS];
    int anyout = 0;
    for (int i = 0; i < n; i++) {
        d[i] = dot3(in[i].p, normal) - dist;
        anyout |= d[i] < 0;
    }
    if (!anyout) {
        memcpy(out, in, sizeof(r_vert_t) * (size_t)n);
        return n;
    }
    int m = 0;
    for (int i = 0; i < n && m < R_MAX_POLY_VERTS - 1; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        int ini = d[i] >= 0, inj = d[j] >= 0;
        if (ini)
            out[m++] = in[i];
        if (ini != inj) {
            const r_vert_t *a = ini ? &in[i] : &in[j], *b = ini ? &in[j] : &in[i];
            float da = ini ? d[i] : d[j], db = ini ? d[j] : d[i];
            float t = da / (da - db);
            for (int k = 0; k < 3; k++)
                out[m].p[k] = a->p[k] + (b->p[k] - a->p[k]) * t;
            m++;
        }
    }
    return m;
}

// Scan-convert one edge into the bound arrays. Pixel (x, y) is inside when its
// centre is: rows from round(top), columns from round(x at the row centre); the
// same endpoints give the same numbers in both polygons of a shared edge.
static void scan_edge(renderer_t *r, float x0, float y0, float x1, float y1, int *ymin, int *ymax)
{
    int *dst = r->edge_a;
    if (y0 > y1) {
        float t = x0; x0 = x1; x1 = t;
        t = y0; y0 = y1; y1 = t;
        dst = r->edge_b;
    }
    int ys = (int)(y0 + 0.5f), ye = (int)(y1 + 0.5f);
    if (ys >= ye)
        return;
    float slope = (x1 - x0) / (y1 - y0);
    float x = x0 + ((float)ys + 0.5f - y0) * slope;
    for (int y = ys; y < ye; y++) {
        dst[y] = (int)(x + 0.5f);
        x += slope;
    }
    if (ys < *ymin) *ymin = ys;
    if (ye > *ymax) *ymax = ye;
}

// Clip, project, scan-convert, take the free pixels (or all, when z-tested), draw.
static void draw_poly(renderer_t *r, r_surfctx_t *ctx, const r_vert_t *verts, int n, int clipflags)
{
    r_vert_t buf[2][R_MAX_POLY_VERTS];
    const r_vert_t *in = verts;
    int cur = 0;
    for (int p = 0; p < 5 && n >= 3; p++) {
        if (!(clipflags & (1 << p)))
            continue;
        float nd[3];
        float dd;
        if (p < 4) {
            memcpy(nd, r->frustum_n[p], sizeof nd);
            dd = r->frustum_d[p];
        } else {
            memcpy(nd, r->vpn, sizeof nd);
            dd = dot3(r->vpn, r->vieworg) + NEAR_CLIP;
        }
        n = clip_poly(in, n, buf[cur], nd, dd);
        in = buf[cur];
        cur ^= 1;
    }
    if (n < 3)
        return;
    float sx[R_MAX_POLY_VERTS], sy[R_MAX_POLY_VERTS];
    float nearzi = 0, fw = (float)r->vw, fh = (float)r->vh;
    for (int i = 0; i < n; i++) {
        float l[3] = { in[i].p[0] - r->vieworg[0], in[i].p[1] - r->vieworg[1], in[i].p[2] - r->vieworg[2] };
        float z = dot3(l, r->vpn);
        if (z < NEAR_CLIP)
            z = NEAR_CLIP;
        float zi = 1.0f / z;
        if (zi > nearzi)
            nearzi = zi;
        float x = r->xcenter + r->xscale * dot3(l, r->vright) * zi;
        float y = r->ycenter - r->yscale * dot3(l, r->vup) * zi;
        sx[i] = x < 0 ? 0 : x > fw ? fw : x;
        sy[i] = y < 0 ? 0 : y > fh ? fh : y;
    }
    ctx->nearzi = nearzi;
    int ymin = r->vh, ymax = 0;
    // rows of the polygon's screen extent start without bounds
    float fy0 = sy[0], fy1 = sy[0];
    for (int i = 1; i < n; i++) {
        if (sy[i] < fy0) fy0 = sy[i];
        if (sy[i] > fy1) fy1 = sy[i];
    }
    int ry0 = (int)(fy0 + 0.5f), ry1 = (int)(fy1 + 0.5f);
    if (ry0 >= ry1)
        return;
    r->stat_polys++;
    if (!ctx->ztest) {
        // Hidden behind what the front-to-back walk drew: no row of its extent has a
        // free run reaching its columns (widened by a pixel for the edge stepping's
        // rounding), so nothing to scan.
        float fx0 = sx[0], fx1 = sx[0];
        for (int i = 1; i < n; i++) {
            if (sx[i] < fx0) fx0 = sx[i];
            if (sx[i] > fx1) fx1 = sx[i];
        }
        int cx0 = (int)(fx0 + 0.5f) - 1, cx1 = (int)(fx1 + 0.5f) + 1;
        int open = 0;
        for (int y = ry0; y < ry1 && !open; y++) {
            const r_free_t *f = &r->free[y * R_ROW_FREE_MAX];
            for (int i = 0; i < r->free_count[y]; i++)
                if (f[i].x0 < cx1 && f[i].x1 > cx0) {
                    open = 1;
                    break;
                }
        }
        if (!open)
            return;
    }
    for (int y = ry0; y < ry1; y++)
        r->edge_a[y] = r->edge_b[y] = -1;
    for (int i = 0; i < n; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        scan_edge(r, sx[i], sy[i], sx[j], sy[j], &ymin, &ymax);
    }
    int ns = 0, b0, b1;
    band_rows(r, &b0, &b1);   // a band: its rows only (z-tested polygons; the span buffer's others are full)
    if (ymin < b0)
        ymin = b0;
    if (ymax > b1)
        ymax = b1;
    for (int y = ymin; y < ymax; y++) {
        int a = r->edge_a[y], b = r->edge_b[y];
        if (a < 0 || b < 0)
            continue;
        int x0 = a < b ? a : b, x1 = a < b ? b : a;
        if (x0 >= x1)
            continue;
        if (ctx->ztest) {
            if (ns == R_SPAN_BATCH) {
                flush_spans(r, ctx, ns);
                ns = 0;
            }
            r->spans[ns].x = (int16_t)x0;
            r->spans[ns].y = (int16_t)y;
            r->spans[ns].count = (int16_t)(x1 - x0);
            ns++;
            continue;
        }
        int nf = r->free_count[y];
        if (!nf)
            continue;
        r_free_t *f = &r->free[y * R_ROW_FREE_MAX];
        int i = 0;
        while (i < nf) {
            if (f[i].x1 <= x0) {
                i++;
                continue;
            }
            if (f[i].x0 >= x1)
                break;
            int s0 = f[i].x0 > x0 ? f[i].x0 : x0, s1 = f[i].x1 < x1 ? f[i].x1 : x1;
            if (ns == R_SPAN_BATCH) {
                flush_spans(r, ctx, ns);
                ns = 0;
            }
            r->spans[ns].x = (int16_t)s0;
            r->spans[ns].y = (int16_t)y;
            r->spans[ns].count = (int16_t)(s1 - s0);
            ns++;
            if (f[i].x0 < x0 && f[i].x1 > x1) {
                if (nf < R_ROW_FREE_MAX) {
                    memmove(&f[i + 2], &f[i + 1], sizeof(r_free_t) * (size_t)(nf - i - 1));
                    f[i + 1].x0 = (int16_t)x1;
                    f[i + 1].x1 = f[i].x1;
                    f[i].x1 = (int16_t)x0;
                    nf++;
                } else if (x0 - f[i].x0 >= f[i].x1 - x1) {
                    f[i].x1 = (int16_t)x0;   // row list full: the smaller piece stays undrawn
                } else {
                    f[i].x0 = (int16_t)x1;
                }
                break;
            } else if (f[i].x0 < x0) {
                f[i].x1 = (int16_t)x0;
                i++;
            } else if (f[i].x1 > x1) {
                f[i].x0 = (int16_t)x1;
                break;
            } else {
                memmove(&f[i], &f[i + 1], sizeof(r_free_t) * (size_t)(nf - i - 1));
                nf--;
            }
        }
        r->free_count[y] = (uint8_t)nf;
        if (!nf)
            r->rows_left--;
    }
    flush_spans(r, ctx, ns);
}

// ---- surfaces -----------------------------------------------------------------

// Whole steps of `rate` a second at time t, for frame choices: never negative, and a
// demo's hostile time (1e21 s) wraps instead of overflowing the int.
static int time_steps(double t, double rate)
{
    double x = t * rate;
    if (!(x >= 0))
        return 0;
    return (int)fmod(x, 1e9);
}

static int animated_texture(const renderer_t *r, int t, int brush_entity)
{
    const bsp_texture_t *tex = &r->bsp->textures[t];
    // Quake II: a brush entity shows the frame of its chain the entity's frame names
    // (buttons, switches); the world steps 2 frames a second.
    if (r->bsp->version == 38) {
        if (!tex->anim_total)
            return t;
        int frame = brush_entity ? r->entity_frame : time_steps(r->time, 2);
        return tex->anim_frames[(frame < 0 ? 0 : frame) % tex->anim_total];
    }
    if (r->entity_frame && tex->alt_total)
        return tex->alt_frames[time_steps(r->time, 5) % tex->alt_total];
    if (tex->anim_total)
        return tex->anim_frames[time_steps(r->time, 5) % tex->anim_total];
    return t;
}

// Gather the face's vertices (transformed for brush models) and draw it.
static void draw_face(renderer_t *r, int fi, int clipflags, const float (*rot)[3], const float *org)
{
    const bsp_t *b = r->bsp;
    const bsp_face_t *f = &b->faces[fi];
    if (f->flags & BSP_SURF_NODRAW)
        return;
    if ((f->flags & BSP_SURF_SKY) && b->version == 38 && r->skybox_ok) {
        r->q2_sky_seen |= rot == NULL;   // the world's; a brush entity's sky face is not drawn either
        return;
    }
    r_surfctx_t ctx;
    ctx.face = f;
    ctx.face_index = fi;
    ctx.texture = animated_texture(r, b->texinfo[f->texinfo].texture, rot != NULL);
    ctx.ztest = rot != NULL || r->draw_mode != R_DRAW_OPAQUE;
    const bsp_plane_t *pl = &b->planes[f->plane];
    const bsp_texinfo_t *ti = &b->texinfo[f->texinfo];
    r_vert_t v[R_MAX_POLY_VERTS];
    int n = f->numedges < R_MAX_POLY_VERTS / 2 ? f->numedges : R_MAX_POLY_VERTS / 2;
    for (int i = 0; i < n; i++) {
        int32_t se = b->surfedges[f->firstedge + i];
        const float *p = b->vertices[se >= 0 ? b->edges[se][0] : b->edges[-se][1]];
        if (rot) {
            for (int k = 0; k < 3; k++)
                v[i].p[k] = rot[k][0] * p[0] + rot[k][1] * p[1] + rot[k][2] * p[2] + org[k];
        } else {
            memcpy(v[i].p, p, sizeof v[i].p);
        }
    }
    if (rot) {
        for (int k = 0; k < 3; k++) {
            ctx.normal[k] = rot[k][0] * pl->normal[0] + rot[k][1] * pl->normal[1] + rot[k][2] * pl->normal[2];
            ctx.svec[k] = rot[k][0] * ti->vecs[0][0] + rot[k][1] * ti->vecs[0][1] + rot[k][2] * ti->vecs[0][2];
            ctx.tvec[k] = rot[k][0] * ti->vecs[1][0] + rot[k][1] * ti->vecs[1][1] + rot[k][2] * ti->vecs[1][2];
        }
        ctx.dist = pl->dist + dot3(org, ctx.normal);
        ctx.svec[3] = ti->vecs[0][3] - dot3(org, ctx.svec);
        ctx.tvec[3] = ti->vecs[1][3] - dot3(org, ctx.tvec);
    } else {
        memcpy(ctx.normal, pl->normal, sizeof ctx.normal);
        ctx.dist = pl->dist;
        memcpy(ctx.svec, ti->vecs[0], sizeof ctx.svec);
        memcpy(ctx.tvec, ti->vecs[1], sizeof ctx.tvec);
    }
    if (r->faces[fi].dlightframe == r->framecount) {
        for (int l = 0; l < r->view.num_dlights; l++) {
            const float *o = r->view.dlights[l].origin;
            if (rot) {
                float d[3] = { o[0] - org[0], o[1] - org[1], o[2] - org[2] };
                for (int k = 0; k < 3; k++)   // inverse rotation = transpose
                    ctx.dl_org[l][k] = rot[0][k] * d[0] + rot[1][k] * d[1] + rot[2][k] * d[2];
            } else {
                memcpy(ctx.dl_org[l], o, sizeof(vec3_t));
            }
        }
    }
    draw_poly(r, &ctx, v, n, clipflags);
}

static int facing(const renderer_t *r, const bsp_face_t *f, float side_dist)
{
    return (f->flags & BSP_SURF_PLANEBACK) ? side_dist < -BACKFACE_EPSILON : side_dist > BACKFACE_EPSILON;
}

// ---- the world walk -------------------------------------------------------------

// Clip flags of a box: bit p set when the box straddles frustum plane p
// (plane 4 is the near plane); -1 when it is wholly outside one.
static int box_clipflags(const renderer_t *r, const float *mins, const float *maxs, int clipflags)
{
    for (int p = 0; p < 5; p++) {
        if (!(clipflags & (1 << p)))
            continue;
        const float *n = p < 4 ? r->frustum_n[p] : r->vpn;
        float d = p < 4 ? r->frustum_d[p] : dot3(r->vpn, r->vieworg) + NEAR_CLIP;
        float pos[3], neg[3];
        for (int k = 0; k < 3; k++) {
            pos[k] = n[k] >= 0 ? maxs[k] : mins[k];
            neg[k] = n[k] >= 0 ? mins[k] : maxs[k];
        }
        if (dot3(pos, n) < d)
            return -1;
        if (dot3(neg, n) >= d)
            clipflags &= ~(1 << p);
    }
    return clipflags;
}

static void mark_leaves(renderer_t *r)
{
    const bsp_t *b = r->bsp;
    r->viewleaf = bsp_point_leaf(b, r->vieworg);
    r->view_contents = b->leafs[r->viewleaf].contents;
    bsp_leaf_pvs(b, r->viewleaf, r->pvs, r->pvs_size);
    int nvis = b->models[0].visleafs;
    for (int i = 0; i < nvis; i++) {
        if (!(r->pvs[i >> 3] & (1 << (i & 7))))
            continue;
        int leaf = i + 1;
        if (r->leaf_visframe[leaf] == r->framecount)
            continue;
        r->leaf_visframe[leaf] = r->framecount;
        // Solid leaf 0 is shared; a leaf's parent chain leads to the root.
        for (int nd = b->leafs[leaf].parent; nd >= 0 && r->node_visframe[nd] != r->framecount; nd = b->nodes[nd].parent)
            r->node_visframe[nd] = r->framecount;
    }
    r->leaf_visframe[r->viewleaf] = r->framecount;
    for (int nd = b->leafs[r->viewleaf].parent; nd >= 0 && r->node_visframe[nd] != r->framecount; nd = b->nodes[nd].parent)
        r->node_visframe[nd] = r->framecount;
}

static void walk_node(renderer_t *r, int node, int clipflags, int depth)
{
    const bsp_t *b = r->bsp;
    if (r->rows_left <= 0 || depth > MAX_DEPTH)
        return;
    if (node < 0) {
        int leaf = -(node + 1);
        const bsp_leaf_t *lf = &b->leafs[leaf];
        if (lf->contents == BSP_CONTENTS_SOLID || r->leaf_visframe[leaf] != r->framecount)
            return;
        if (clipflags && box_clipflags(r, lf->mins, lf->maxs, clipflags) < 0)
            return;
        for (int i = 0; i < lf->nummarks; i++)
            r->faces[b->marks[lf->firstmark + i]].visframe = r->framecount;
        return;
    }
    const bsp_node_t *nd = &b->nodes[node];
    if (r->node_visframe[node] != r->framecount)
        return;
    if (clipflags) {
        clipflags = box_clipflags(r, nd->mins, nd->maxs, clipflags);
        if (clipflags < 0)
            return;
    }
    const bsp_plane_t *pl = &b->planes[nd->plane];
    float d = dot3(r->vieworg, pl->normal) - pl->dist;
    int side = d >= 0 ? 0 : 1;
    walk_node(r, nd->children[side], clipflags, depth + 1);
    for (int i = 0; i < nd->numfaces && r->rows_left > 0; i++) {
        int fi = nd->firstface + i;
        const bsp_face_t *f = &b->faces[fi];
        if (r->faces[fi].visframe != r->framecount || !facing(r, f, d))
            continue;
        if (r->faces[fi].trans_mode) {
            r->trans_faces[r->num_trans++] = fi;   // each face once a frame: within num_faces
            continue;
        }
        draw_face(r, fi, clipflags, NULL, NULL);
    }
    walk_node(r, nd->children[side ^ 1], clipflags, depth + 1);
}

void r_draw_world(renderer_t *r, const world_t *w)
{
    (void)w;
    r->entity_frame = 0;
    r->num_trans = 0;
    r->draw_mode = R_DRAW_OPAQUE;
    r_spanbuf_clear(r);
    if (!r->bsp) {
        spanbuf_fill_rest(r);
        return;
    }
    mark_leaves(r);
    r_mark_lights(r);
    r->q2_sky_seen = 0;
    walk_node(r, r->bsp->models[0].headnode, 31, 0);
    if (r->q2_sky_seen)
        spanbuf_fill_sky(r);
    else
        spanbuf_fill_rest(r);
}

// ---- brush models -----------------------------------------------------------------

static float lerp_angle(float a, float b, float frac)
{
    float d = b - a;
    d -= 360.0f * floorf((d + 180.0f) / 360.0f);
    return a + d * frac;
}

// GoldSrc: the draw mode of a brush entity by its render mode and amount (after
// its renderfx), with r->draw_table / draw_color set for the blends; -1: not drawn.
static int hl_brush_mode(renderer_t *r, const entity_state_t *s, int entnum, const float *org)
{
    if (s->rendermode == RM_NORMAL)
        return R_DRAW_OPAQUE;
    int amt = r_hl_fx_amount(s, entnum, r->time, r->view.fx_since, r->vieworg, r->vpn, org);
    if (amt <= 0)
        return -1;
    switch (s->rendermode) {
    case RM_SOLID:   // kRenderTransAlpha: '{' holes, otherwise solid
        return R_DRAW_MASKED;
    case RM_TEXTURE:
    case RM_GLOW: {   // kRenderGlow on a brush: blended as TransTexture (the engine has no case of its own)
        int l = r_hl_alpha_level(amt);
        if (l > HL_ALPHA_LEVELS)
            return R_DRAW_MASKED;
        r->draw_table = r_hl_table(r->hl, HL_BLEND_ALPHA, amt);
        return R_DRAW_TABLE;
    }
    case RM_COLOR: {   // the render colour, not the texture, at the amount
        int l = r_hl_alpha_level(amt);
        r->draw_table = r->hl->alpha[(l > HL_ALPHA_LEVELS ? HL_ALPHA_LEVELS : l) - 1];
        r->draw_color = r_hl_nearest(r->hl, (int)s->rendercolor[0], (int)s->rendercolor[1], (int)s->rendercolor[2]);
        return R_DRAW_COLOR;
    }
    default:   // kRenderTransAdd: added at the amount
        r->draw_table = r_hl_table(r->hl, HL_BLEND_ADD, amt);
        return r->draw_table ? R_DRAW_TABLE : -1;   // too low to add anything (r_hl_add_level)
    }
}

// The draw mode of a brush entity's faces: GoldSrc render modes, Quake II face flags.
// Returns -1 for an entity not drawn at all (amount 0).
static int face_mode(const renderer_t *r, const entity_state_t *s, const bsp_face_t *f)
{
    if (!r->pal.has_alphamap)
        return R_DRAW_OPAQUE;
    switch (s->rendermode) {
    case RM_SOLID:
        return R_DRAW_MASKED;
    case RM_TEXTURE:
    case RM_ADDITIVE:
    case RM_GLOW:
    case RM_COLOR:
        return s->renderamt <= 0 ? -1 : s->renderamt < 128 ? R_DRAW_BLEND33 : s->renderamt < 255 ? R_DRAW_BLEND66 : R_DRAW_OPAQUE;
    default:
        return f->flags & BSP_SURF_TRANS33 ? R_DRAW_BLEND33 : f->flags & BSP_SURF_TRANS66 ? R_DRAW_BLEND66 : R_DRAW_OPAQUE;
    }
}

// see_through: 0 draws the solid faces, 1 the see-through ones (after every solid one,
// which a see-through face does not hide: it writes no depth).
static void draw_brush(renderer_t *r, const bsp_model_t *m, const entity_state_t *s, const vec3_t org, const vec3_t ang,
                       int see_through, int entnum)
{
    const bsp_t *b = r->bsp;
    float rot[3][3];
    int rotated = ang[0] != 0 || ang[1] != 0 || ang[2] != 0;
    if (rotated) {
        vec3_t f, rt, up;
        r_angle_vectors(ang, f, rt, up);
        for (int k = 0; k < 3; k++) {   // model x -> forward, y -> left, z -> up
            rot[k][0] = f[k];
            rot[k][1] = -rt[k];
            rot[k][2] = up[k];
        }
    } else {
        memset(rot, 0, sizeof rot);
        rot[0][0] = rot[1][1] = rot[2][2] = 1;
    }
    // Cull by the bounding box (a sphere around it when rotated).
    float mins[3], maxs[3];
    for (int k = 0; k < 3; k++) {
        if (rotated) {
            float rad = 0;
            for (int j = 0; j < 3; j++) {
                float e = fabsf(m->mins[j]) > fabsf(m->maxs[j]) ? fabsf(m->mins[j]) : fabsf(m->maxs[j]);
                rad += e * e;
            }
            rad = sqrtf(rad);
            mins[k] = org[k] - rad;
            maxs[k] = org[k] + rad;
        } else {
            mins[k] = org[k] + m->mins[k];
            maxs[k] = org[k] + m->maxs[k];
        }
    }
    int clipflags = box_clipflags(r, mins, maxs, 31);
    if (clipflags < 0)
        return;
    int hl_mode = R_DRAW_OPAQUE;
    if (r->hl && r->hl->ready) {
        hl_mode = hl_brush_mode(r, s, entnum, org);
        if (hl_mode < 0 || (hl_mode >= R_DRAW_BLEND33) != see_through)
            return;
    }
    r->entity_frame = s->frame;
    // A see-through entity in a game without a blend table (FitzQuake's alpha on a
    // Quake brush entity): the palette's table, made the first time a level needs it.
    if (s->rendermode != RM_NORMAL && !r->pal.has_alphamap)
        pal_make_alphamap(&r->pal);
    // Dynamic lights on the model's faces, in model space.
    for (int l = 0; l < r->view.num_dlights && l < 64; l++) {
        const r_dlight_t *dl = &r->view.dlights[l];
        float d[3] = { dl->origin[0] - org[0], dl->origin[1] - org[1], dl->origin[2] - org[2] }, lo[3];
        for (int k = 0; k < 3; k++)
            lo[k] = rot[0][k] * d[0] + rot[1][k] * d[1] + rot[2][k] * d[2];
        for (int i = 0; i < m->numfaces; i++) {
            int fi = m->firstface + i;
            const bsp_plane_t *pl = &b->planes[b->faces[fi].plane];
            float dist = dot3(lo, pl->normal) - pl->dist;
            if (dist > dl->radius || dist < -dl->radius)
                continue;
            r_face_t *rf = &r->faces[fi];
            if (rf->dlightframe != r->framecount) {
                rf->dlightframe = r->framecount;
                rf->dlightbits = 0;
            }
            rf->dlightbits |= (uint64_t)1 << l;
        }
    }
    // The eye in model space decides which faces face it.
    // GoldSrc's blended modes draw the faces without their lightmaps
    r->surf_unlit = r->hl && r->hl->ready && r_hl_brush_unlit(s->rendermode);
    float d[3] = { r->vieworg[0] - org[0], r->vieworg[1] - org[1], r->vieworg[2] - org[2] }, eye[3];
    for (int k = 0; k < 3; k++)
        eye[k] = rot[0][k] * d[0] + rot[1][k] * d[1] + rot[2][k] * d[2];
    for (int i = 0; i < m->numfaces; i++) {
        int fi = m->firstface + i;
        const bsp_face_t *f = &b->faces[fi];
        const bsp_plane_t *pl = &b->planes[f->plane];
        if (!facing(r, f, dot3(eye, pl->normal) - pl->dist))
            continue;
        int mode = r->hl && r->hl->ready ? hl_mode : face_mode(r, s, f);
        if (mode < 0 || (mode >= R_DRAW_BLEND33) != see_through)
            continue;
        r->draw_mode = mode;
        draw_face(r, fi, clipflags, (const float (*)[3])rot, org);
    }
    r->draw_mode = R_DRAW_OPAQUE;
    r->surf_unlit = 0;
    r->entity_frame = 0;
}

static int submodel_index(const renderer_t *r, const world_t *w, int modelindex)
{
    if (modelindex <= 0 || modelindex >= w->num_models || !w->models)
        return -1;
    const char *name = w->models[modelindex];
    if (name[0] != '*')
        return -1;
    int n = atoi(name + 1);
    return n > 0 && n < r->bsp->num_models ? n : -1;
}

static void draw_brush_pass(renderer_t *r, const world_t *w, double frac, int see_through);

void r_draw_brush_entities(renderer_t *r, const world_t *w, double frac)
{
    if (!r->bsp)
        return;
    // the world's masked faces ('{' fences): solid where drawn, before the models
    for (int i = 0; i < r->num_trans; i++) {
        if (r->faces[r->trans_faces[i]].trans_mode != R_DRAW_MASKED)
            continue;
        r->draw_mode = R_DRAW_MASKED;
        draw_face(r, r->trans_faces[i], 31, NULL, NULL);
    }
    r->draw_mode = R_DRAW_OPAQUE;
    if (w->entities)
        draw_brush_pass(r, w, frac, 0);
}

// After the models and particles, as Quake's (tyrquake's translucent liquids) and
// Quake II's renderers order it: what is seen through a window or water is drawn
// by then, models under the water included. brush_entities 0: the entities' see-through
// faces are drawn elsewhere (GoldSrc's, sorted with its other translucent entities).
void r_draw_see_through(renderer_t *r, const world_t *w, double frac, int brush_entities)
{
    if (!r->bsp)
        return;
    // the world's see-through faces (Quake II windows, water), far to near
    for (int i = r->num_trans - 1; i >= 0; i--) {
        if (r->faces[r->trans_faces[i]].trans_mode == R_DRAW_MASKED)
            continue;
        r->draw_mode = r->faces[r->trans_faces[i]].trans_mode;
        draw_face(r, r->trans_faces[i], 31, NULL, NULL);
    }
    r->draw_mode = R_DRAW_OPAQUE;
    if (w->entities && brush_entities)
        draw_brush_pass(r, w, frac, 1);
}

// A model that is a BSP file: drawn by the same code with its level data swapped in.
static void draw_ext_brush(renderer_t *r, const r_extbsp_t *x, const entity_state_t *s, const vec3_t org,
                           const vec3_t ang, int see_through, int entnum)
{
    bsp_t *wb = r->bsp;
    r_face_t *wf = r->faces;
    r->bsp = x->bsp;
    r->faces = x->faces;
    draw_brush(r, &x->bsp->models[0], s, org, ang, see_through, entnum);
    r->bsp = wb;
    r->faces = wf;
}

// Entity n's brush model and where it is drawn (n >= w->num_entities: static entity
// n - w->num_entities): its state, and its submodel (*sm >= 0) or BSP file (*x); 0 for none.
static const entity_state_t *brush_entity(renderer_t *r, const world_t *w, int n, double frac, int *sm,
                                          const r_extbsp_t **x, vec3_t org, vec3_t ang)
{
    const world_entity_t *ent = NULL;
    const entity_state_t *s;
    if (n >= 1 && n < w->num_entities) {
        ent = &w->entities[n];
        s = &ent->cur;
    } else if (n >= w->num_entities && w->statics && n - w->num_entities < w->num_statics) {
        s = &w->statics[n - w->num_entities].s;
    } else {
        return NULL;
    }
    // most entities have no brush model: known before the place is worked out
    *sm = submodel_index(r, w, s->modelindex);
    *x = *sm < 0 ? ext_model(r, s->modelindex) : NULL;
    if (*sm < 0 && !*x)
        return NULL;
    if (ent) {
        float f = ent->lerp_ok ? (float)frac : 1.0f;
        for (int k = 0; k < 3; k++) {
            org[k] = ent->prev.origin[k] + (ent->cur.origin[k] - ent->prev.origin[k]) * f;
            ang[k] = lerp_angle(ent->prev.angles[k], ent->cur.angles[k], f);
        }
    } else {
        memcpy(org, s->origin, sizeof(vec3_t));
        memcpy(ang, s->angles, sizeof(vec3_t));
    }
    return s;
}

static void draw_brush_entity(renderer_t *r, const world_t *w, int n, double frac, int see_through)
{
    int sm;
    const r_extbsp_t *x;
    vec3_t org, ang;
    const entity_state_t *s = brush_entity(r, w, n, frac, &sm, &x, org, ang);
    if (!s || (n < w->num_entities && (s->effects & EF_NODRAW)))   // statics: as spawned
        return;
    if (x)
        draw_ext_brush(r, x, s, org, ang, see_through, n);
    else
        draw_brush(r, &r->bsp->models[sm], s, org, ang, see_through, n);
}

int r_brush_entity_centre(renderer_t *r, const world_t *w, int n, double frac, float centre[3])
{
    int sm;
    const r_extbsp_t *x;
    vec3_t org, ang;
    if (!r->bsp || !brush_entity(r, w, n, frac, &sm, &x, org, ang))
        return 0;
    const bsp_model_t *m = x ? &x->bsp->models[0] : &r->bsp->models[sm];
    for (int k = 0; k < 3; k++)
        centre[k] = org[k] + (m->mins[k] + m->maxs[k]) * 0.5f;
    return 1;
}

void r_draw_brush_entity(renderer_t *r, const world_t *w, int n, double frac)
{
    if (r->bsp && w->entities)
        draw_brush_entity(r, w, n, frac, 1);
}

static void draw_brush_pass(renderer_t *r, const world_t *w, double frac, int see_through)
{
    for (int e = 1; e < w->num_entities; e++)
        if (world_entity_visible(w, e))
            draw_brush_entity(r, w, e, frac, see_through);
    for (int i = 0; i < w->num_statics && w->statics; i++)
        draw_brush_entity(r, w, w->num_entities + i, frac, see_through);
}

int r_test_poly(renderer_t *r, const float (*verts)[3], int n, int use_spanbuf, uint8_t color)
{
    r_vert_t v[R_MAX_POLY_VERTS];
    if (n < 3 || n > R_MAX_POLY_VERTS / 2)
        return -1;
    for (int i = 0; i < n; i++)
        memcpy(v[i].p, verts[i], sizeof v[i].p);
    r_surfctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.texture = color;
    ctx.ztest = !use_spanbuf;
    int before = r->stat_spans;
    draw_poly(r, &ctx, v, n, 31);
    return r->stat_spans - before;
}
