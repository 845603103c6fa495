// r_sprite.c -- sprites of the five Quake orientation types, as two masked triangles
#include <math.h>

#include "r_mlocal.h"
#include "r_hlmodes.h"

static inline float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static int normalize(vec3_t v)
{
    float len = sqrtf(dot3(v, v));
    if (len <= 0)
        return 0;
    for (int k = 0; k < 3; k++)
        v[k] /= len;
    return 1;
}

void r_sprite_draw(const r_view_t *v, const spr_t *s, const spr_image_t *im, const vec3_t origin,
                   const vec3_t angles)
{
    r_sprite_draw_alpha(v, s, im, origin, angles, NULL, 0);
}

// The sprite's quad, scaled, through the blend table (NULL: masked opaque); zscale > 1
// lets it pass the depth test nearer than it is (glow sprites are not depth-tested).
static void sprite_quad(const r_view_t *v, const spr_t *s, const spr_image_t *im, const vec3_t origin,
                        const vec3_t angles, const uint8_t *alphamap, int alpha66, float scale, float zscale)
{
    vec3_t up, right, fwd;
    // cos(1 degree): upright sprites seen from straight above or below have no sensible axes
    const float limit = 0.999848f;
    switch (s->type) {
    case SPR_FACING_UPRIGHT: {
        vec3_t t = {origin[0] - v->vieworg[0], origin[1] - v->vieworg[1], origin[2] - v->vieworg[2]};
        if (!normalize(t) || t[2] > limit || t[2] < -limit)
            return;
        up[0] = up[1] = 0;
        up[2] = 1;
        right[0] = t[1];
        right[1] = -t[0];
        right[2] = 0;
        if (!normalize(right))
            return;
        break;
    }
    case SPR_VP_PARALLEL_UPRIGHT:
        if (v->vpn[2] > limit || v->vpn[2] < -limit)
            return;
        up[0] = up[1] = 0;
        up[2] = 1;
        right[0] = v->vpn[1];
        right[1] = -v->vpn[0];
        right[2] = 0;
        if (!normalize(right))
            return;
        break;
    case SPR_ORIENTED:
        r_angle_vectors(angles, fwd, right, up);
        break;
    case SPR_VP_PARALLEL_ORIENTED: {
        float a = angles[2] * (float)(M_PI / 180.0), sr = sinf(a), cr = cosf(a);
        for (int k = 0; k < 3; k++) {
            right[k] = v->vright[k] * cr + v->vup[k] * sr;
            up[k] = v->vright[k] * -sr + v->vup[k] * cr;
        }
        break;
    }
    default:   // SPR_VP_PARALLEL
        for (int k = 0; k < 3; k++) {
            right[k] = v->vright[k];
            up[k] = v->vup[k];
        }
        break;
    }
    // corners: upper-left at (origin_x, origin_y), x to the right, y up
    float left = (float)im->origin_x * scale, rgt = left + (float)im->width * scale;
    float top = (float)im->origin_y * scale, bot = top - (float)im->height * scale;
    const float cu[4] = {top, top, bot, bot}, cr[4] = {left, rgt, rgt, left};
    const float cs[4] = {0, (float)im->width, (float)im->width, 0}, ct[4] = {0, 0, (float)im->height, (float)im->height};
    r_cvert_t q[4];
    for (int i = 0; i < 4; i++) {
        vec3_t p;
        for (int k = 0; k < 3; k++)
            p[k] = origin[k] + up[k] * cu[i] + right[k] * cr[i] - v->vieworg[k];
        q[i].x = dot3(p, v->vright);
        q[i].y = dot3(p, v->vup);
        q[i].z = dot3(p, v->vpn);
        q[i].s = cs[i];
        q[i].t = ct[i];
        q[i].l = 0;
    }
    d_polyctx_t ctx = {v->buffer, v->width, v->height, v->rowbytes, v->zbuffer, s->pixels + im->offset, im->width,
                       im->height, v->colormap, D_UNLIT_MASKED, alphamap, alpha66, v->y0, v->y1};
    if (zscale != 1.0f)
        r_draw_poly_z(v, &ctx, q, 4, 0, zscale);
    else
        r_draw_poly(v, &ctx, q, 4, 0);
}

void r_sprite_draw_alpha(const r_view_t *v, const spr_t *s, const spr_image_t *im, const vec3_t origin,
                         const vec3_t angles, const uint8_t *alphamap, int alpha66)
{
    sprite_quad(v, s, im, origin, angles, alphamap, alpha66, 1.0f, 1.0f);
}

// ---- Half-Life's sprites: render modes, texture formats, glow --------------------

int r_sprite_hl_blend(const r_view_t *v, const spr_t *s, const entity_state_t *st, int entnum, const vec3_t origin,
                      const uint8_t **table, float *scale, float *zscale)
{
    r_hlmodes_t *hl = v->hlmodes;
    *table = NULL;
    *scale = st->scale > 0 && st->scale < 100 ? st->scale : 1.0f;
    *zscale = 1.0f;
    int amt = st->rendermode == RM_NORMAL ? 255 : r_hl_fx_amount(st, entnum, v->time, v->fx_since, v->vieworg, v->vpn,
                                                                                 origin);
    if (amt <= 0)
        return 0;
    if (st->rendermode == RM_GLOW) {
        vec3_t d = {origin[0] - v->vieworg[0], origin[1] - v->vieworg[1], origin[2] - v->vieworg[2]};
        float dist = sqrtf(dot3(d, d)), z = dot3(d, v->vpn), gs;
        if (z < R_NEAR_Z)
            return 0;
        // the engine traces from the eye to the glow and hides it when something solid stops
        // the line more than 8 units short of it (Xash3D's R_SpriteGlowBlend: (1 - fraction) x
        // dist > 8); here the depth buffer at its centre says how far the solid is: a glow on a
        // wall (the egon's flare, the gauss's) shows
        int px = (int)(v->xcenter + v->xscale * dot3(d, v->vright) / z);
        int py = (int)(v->ycenter - v->yscale * dot3(d, v->vup) / z);
        if (px >= 0 && py >= 0 && px < v->width && py < v->height && !r_view_pixel_known(v, px, py))
            r_view_pixels_unknown(v, 0, 0, v->width, v->height);   // a band that has not drawn it: nor the glow's pixels
        float zslack = dist > 8.0f ? z * (1.0f - 8.0f / dist) : 0;   // the depth 8 units back along the line
        if (px >= 0 && py >= 0 && px < v->width && py < v->height && zslack > 0 &&
            v->zbuffer[(size_t)py * (size_t)v->width + (size_t)px] > 1.0f / zslack * 1.001f)
            return 0;
        // kRenderFxNoDissipation: the glow keeps its amount and size at any distance (Xash3D's
        // R_SpriteGlowBlend returns 1 before the distance rules)
        if (st->renderfx != 14) {
            amt = (int)((float)amt * r_hl_glow(dist, &gs));
            *scale *= gs;
        }
        *zscale = 1.0e6f;
        if (amt <= 0)
            return 0;
    }
    if (s->texformat == SPR_TEX_INDEXALPHA) {   // the pixel is the alpha of the palette's last colour
        *table = r_hl_indexalpha(hl, s->palette + 255 * 3, st->rendermode == RM_NORMAL ? 255 : amt);
        return *table != NULL;
    }
    switch (st->rendermode) {
    case RM_GLOW:
    case RM_ADDITIVE:
        *table = r_hl_table(hl, HL_BLEND_ADD, amt);
        return !hl || *table != NULL;   // an amount too low to add anything (r_hl_add_level): not drawn
    case RM_TEXTURE:
    case RM_COLOR:
        *table = r_hl_table(hl, HL_BLEND_ALPHA, amt);   // NULL at full amount: opaque
        return 1;
    case RM_SOLID:
        return 1;   // alpha test: index 255 out, the rest solid
    default:        // normal: as the texture format says
        if (s->texformat == SPR_TEX_ADDITIVE)
            *table = r_hl_table(hl, HL_BLEND_ADD, 255);
        return 1;
    }
}

void r_sprite_draw_hl(const r_view_t *v, const spr_t *s, const spr_image_t *im, const vec3_t origin,
                      const vec3_t angles, const entity_state_t *st, int entnum)
{
    const uint8_t *table;
    float scale, zscale;
    if (!v->hlmodes || !r_sprite_hl_blend(v, s, st, entnum, origin, &table, &scale, &zscale))
        return;
    sprite_quad(v, s, im, origin, angles, table, 0, scale, zscale);
}
