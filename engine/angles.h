// angles.h -- Quake's AngleVectors (pitch down positive, yaw left, roll right), shared by the
// renderer (r_angle_vectors) and the engine's own simulations (engine/hltent.c); Forsaken's rule
// for its own axes (fs_angle_vectors); world_angle_vectors picks a game's
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

// Forsaken's angles (docs/forsaken.md "Orientation": pitch, yaw, roll of R = Ry(yaw) Rx(pitch)
// Rz(roll) on its x right, y up, z forward axes): the columns of R, the images of z, x and y.
static inline void fs_angle_vectors(const float angles[3], float forward[3], float right[3], float up[3])
{
    double p = angles[0] * (M_PI / 180), y = angles[1] * (M_PI / 180), r = angles[2] * (M_PI / 180);
    double sp = sin(p), cp = cos(p), sy = sin(y), cy = cos(y), sr = sin(r), cr = cos(r);
    forward[0] = (float)(cp * sy);
    forward[1] = (float)(-sp);
    forward[2] = (float)(cp * cy);
    right[0] = (float)(cr * cy + sr * sp * sy);
    right[1] = (float)(sr * cp);
    right[2] = (float)(-cr * sy + sr * sp * cy);
    up[0] = (float)(-sr * cy + cr * sp * sy);
    up[1] = (float)(cr * cp);
    up[2] = (float)(sr * sy + cr * sp * cy);
}

// The view's axes from a world's view angles, by its game's rule.
static inline void world_angle_vectors(world_game_t game, const float angles[3], float forward[3], float right[3],
                                       float up[3])
{
    if (game == GAME_FORSAKEN)
        fs_angle_vectors(angles, forward, right, up);
    else
        angle_vectors(angles, forward, right, up);
}

#endif
