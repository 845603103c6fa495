// angles.h -- Quake's AngleVectors (pitch down positive, yaw left, roll right), shared by the
// renderer (r_angle_vectors) and the engine's own simulations (engine/hltent.c)
#ifndef ANGLES_H
#define ANGLES_H

#include <math.h>

#include "world.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static inline void angle_vectors(const vec3_t angles, vec3_t forward, vec3_t right, vec3_t up)
{
    double y = angles[1] * (M_PI / 180), p = angles[0] * (M_PI / 180), ro = angles[2] * (M_PI / 180);
    double sy = sin(y), cy = cos(y), sp = sin(p), cp = cos(p), sr = sin(ro), cr = cos(ro);
    forward[0] = (float)(cp * cy);
    forward[1] = (float)(cp * sy);
    forward[2] = (float)(-sp);
    right[0] = (float)(-sr * sp * cy + cr * sy);
    right[1] = (float)(-sr * sp * sy - cr * cy);
    right[2] = (float)(-sr * cp);
    up[0] = (float)(cr * sp * cy + sr * sy);
    up[1] = (float)(cr * sp * sy - sr * cy);
    up[2] = (float)(cr * cp);
}

#endif
