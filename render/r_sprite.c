// r_sprite.c -- sprites of the five Quake orientation types, as two masked triangles
#include <math.h>

#include "r_mlocal.h"

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

void r_sprite_draw_alpha(const r_view_t *v, const spr_t *s, const spr_image_t *im, const vec3_t origin,
                         const vec3_t angles, const uint8_t *alphamap, int alpha66)
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
    float left = (float)im->origin_x, rgt = left + (float)im->width;
    float top = (float)im->origin_y, bot = top - (float)im->height;
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
                       im->height, v->colormap, D_UNLIT_MASKED, alphamap, alpha66};
    r_draw_poly(v, &ctx, q, 4, 0);
}
