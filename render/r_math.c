// r_math.c -- small vector helpers shared by the world, model and sprite drawers
#include <math.h>

#include "../engine/angles.h"
#include "r_view.h"

void r_angle_vectors(const vec3_t angles, vec3_t forward, vec3_t right, vec3_t up)
{
    angle_vectors(angles, forward, right, up);
}

static inline float dot3f(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void r_model_to_view(const r_view_t *v, const vec3_t *axes, const vec3_t angles, const vec3_t origin,
                     const float scale[3], const float trans[3], vec3_t ax[3], float A[3][3], float b[3])
{
    if (axes) {
        for (int k = 0; k < 3; k++) {
            ax[0][k] = axes[0][k];
            ax[1][k] = -axes[1][k];
            ax[2][k] = axes[2][k];
        }
    } else {
        // models are drawn with the pitch inverted, as Quake does
        vec3_t a = {-angles[0], angles[1], angles[2]}, right;
        r_angle_vectors(a, ax[0], right, ax[2]);
        for (int k = 0; k < 3; k++)
            ax[1][k] = -right[k];
    }
    const float *vaxis[3] = {v->vright, v->vup, v->vpn};
    vec3_t org;
    for (int k = 0; k < 3; k++)
        org[k] = origin[k] + trans[0] * ax[0][k] + trans[1] * ax[1][k] + trans[2] * ax[2][k] - v->vieworg[k];
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++)
            A[i][k] = scale[k] * dot3f(ax[k], vaxis[i]);
        b[i] = dot3f(org, vaxis[i]);
    }
}
