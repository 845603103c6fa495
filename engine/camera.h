// camera.h -- --camera SPEC and camera path files, turned into the renderer's camera (render.h)
//
//     eyes                     the recording player's view (default)
//     free[:X,Y,Z[,P,Y[,R]]]   a fly-through camera; without a place it starts at the eyes
//     chase[:N|NAME]           behind and above a player (default: the recording player)
//     follow:N|NAME            another player's eyes (N counts from 1, as `info` lists players)
//     path:FILE                keyframes "TIME X Y Z PITCH YAW ROLL [FOV]", one a line, '#' comments
#ifndef CAMERA_H
#define CAMERA_H

#include <stddef.h>

#include "../render/render.h"

// Syntax only (the path file is read by cam_parse): 0, or -1 with a message.
int cam_check_spec(const char *spec, char *err, size_t cap);
// The camera a spec asks for (NULL spec: the eyes). Reads a path file. 0, or -1 with a
// message naming the file, line and what was expected.
int cam_parse(const char *spec, r_camera_t *out, char *err, size_t cap);
// Keyframes from a path file's text (`name` for messages). 0, or -1 with a message.
int cam_parse_path(const char *text, const char *name, r_camera_t *out, char *err, size_t cap);
// The command line's camera (--camera) set on the renderer; logs the error and returns -1
// (a bad path file), else 0.
int cam_from_cli(renderer_t *r, const char *spec, const char *command);
// After drawing: a warning, once, when the camera could not look from where it was asked
// (the followed player is not in the frame); `t` for the message.
void cam_check_drawn(renderer_t *r, const char *spec, const char *demo, double t, int *warned);
// Write keyframes as a path file. 0, or -1 (errno set).
int cam_write_path(const char *path, const r_cam_key_t *keys, int n);

#endif
