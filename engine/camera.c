// camera.c -- --camera SPEC and camera path files (camera.h)
#include "camera.h"

#include "log.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Up to `max` comma-separated finite numbers; the count, or -1.
static int numbers(const char *s, float *out, int max)
{
    int n = 0;
    while (*s) {
        if (n == max)
            return -1;
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (end == s || errno || !isfinite(v) || fabs(v) > 1e6)
            return -1;
        out[n++] = (float)v;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

// "N" (1..WORLD_MAX_PLAYERS) or a name; into the camera.
static int target(const char *s, r_camera_t *c, char *err, size_t cap)
{
    if (!*s) {
        snprintf(err, cap, "expected a player number or name after ':'");
        return -1;
    }
    char *end;
    long n = strtol(s, &end, 10);
    if (!*end) {
        if (n < 1 || n > WORLD_MAX_PLAYERS) {
            snprintf(err, cap, "expected a player number 1..%d, got %s", WORLD_MAX_PLAYERS, s);
            return -1;
        }
        c->player = (int)n - 1;
        return 0;
    }
    if (strlen(s) >= sizeof c->player_name) {
        snprintf(err, cap, "player name '%.20s...' is too long", s);
        return -1;
    }
    snprintf(c->player_name, sizeof c->player_name, "%s", s);
    return 0;
}

static int parse(const char *spec, r_camera_t *c, int read_path, char *err, size_t cap)
{
    memset(c, 0, sizeof *c);
    c->player = -1;
    if (!spec || !strcmp(spec, "eyes")) {
        c->mode = R_CAM_EYES;
        return 0;
    }
    const char *colon = strchr(spec, ':');
    size_t kl = colon ? (size_t)(colon - spec) : strlen(spec);
    const char *arg = colon ? colon + 1 : NULL;
    if (kl == 4 && !strncmp(spec, "free", 4)) {
        c->mode = R_CAM_FREE;
        if (arg) {
            float v[6];
            int n = numbers(arg, v, 6);
            if (n != 3 && n != 5 && n != 6) {
                snprintf(err, cap, "free: expected X,Y,Z or X,Y,Z,PITCH,YAW[,ROLL], got '%s'", arg);
                return -1;
            }
            memcpy(c->origin, v, 3 * sizeof(float));
            for (int k = 3; k < n; k++)
                c->angles[k - 3] = v[k];
            c->pose_set = 1;
        }
        return 0;
    }
    if (kl == 5 && !strncmp(spec, "chase", 5)) {
        c->mode = R_CAM_CHASE;
        return arg ? target(arg, c, err, cap) : 0;
    }
    if (kl == 6 && !strncmp(spec, "follow", 6)) {
        c->mode = R_CAM_FOLLOW;
        if (!arg) {
            snprintf(err, cap, "follow: expected follow:N or follow:NAME");
            return -1;
        }
        return target(arg, c, err, cap);
    }
    if (kl == 4 && !strncmp(spec, "path", 4)) {
        c->mode = R_CAM_PATH;
        if (!arg || !*arg) {
            snprintf(err, cap, "path: expected path:FILE");
            return -1;
        }
        if (!read_path)
            return 0;
        FILE *f = fopen(arg, "rb");
        if (!f) {
            snprintf(err, cap, "%s: cannot open: %s", arg, strerror(errno));
            return -1;
        }
        enum { MAX_TEXT = 1 << 20 };   // a path of 256 keyframes is far below 1 MiB
        char *text = malloc(MAX_TEXT);
        if (!text) {
            fclose(f);
            snprintf(err, cap, "%s: out of memory", arg);
            return -1;
        }
        size_t len = fread(text, 1, MAX_TEXT - 1, f);
        int big = !feof(f);
        fclose(f);
        text[len] = 0;
        int rc = -1;
        if (big)
            snprintf(err, cap, "%s: expected a camera path below 1 MiB", arg);
        else if (memchr(text, 0, len))
            snprintf(err, cap, "%s: offset %zu: expected text, found a NUL byte", arg, (size_t)((char *)memchr(text, 0, len) - text));
        else
            rc = cam_parse_path(text, arg, c, err, cap);
        free(text);
        return rc;
    }
    snprintf(err, cap, "expected eyes, free, chase, follow:N or path:FILE, got '%s'", spec);
    return -1;
}

int cam_check_spec(const char *spec, char *err, size_t cap)
{
    r_camera_t *c = malloc(sizeof *c);
    if (!c) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    int rc = parse(spec, c, 0, err, cap);
    free(c);
    return rc;
}

int cam_parse(const char *spec, r_camera_t *out, char *err, size_t cap) { return parse(spec, out, 1, err, cap); }

int cam_parse_path(const char *text, const char *name, r_camera_t *c, char *err, size_t cap)
{
    c->mode = R_CAM_PATH;
    c->num_keys = 0;
    int line = 0;
    for (const char *p = text; *p;) {
        line++;
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char buf[512];
        if (n >= sizeof buf) {
            snprintf(err, cap, "%s:%d: line too long (expected TIME X Y Z PITCH YAW ROLL [FOV])", name, line);
            return -1;
        }
        memcpy(buf, p, n);
        buf[n] = 0;
        p = eol ? eol + 1 : p + n;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            continue;
        double v[8];
        int k = 0;
        while (*s && k < 9) {
            char *end;
            errno = 0;
            double x = strtod(s, &end);
            if (end == s || errno || !isfinite(x) || fabs(x) > 1e7) {
                snprintf(err, cap, "%s:%d: expected TIME X Y Z PITCH YAW ROLL [FOV] (numbers), got '%.40s'", name,
                         line, s);
                return -1;
            }
            if (k == 8) {
                snprintf(err, cap, "%s:%d: expected at most 8 numbers (TIME X Y Z PITCH YAW ROLL FOV)", name, line);
                return -1;
            }
            v[k++] = x;
            s = end;
            while (isspace((unsigned char)*s))
                s++;
        }
        if (k < 7) {
            snprintf(err, cap, "%s:%d: expected TIME X Y Z PITCH YAW ROLL [FOV], found %d numbers", name, line, k);
            return -1;
        }
        if (c->num_keys == R_CAM_MAX_KEYS) {
            snprintf(err, cap, "%s:%d: expected at most %d keyframes", name, line, R_CAM_MAX_KEYS);
            return -1;
        }
        if (c->num_keys > 0 && !(v[0] > c->keys[c->num_keys - 1].t)) {
            snprintf(err, cap, "%s:%d: expected times increasing, %g follows %g", name, line, v[0],
                     c->keys[c->num_keys - 1].t);
            return -1;
        }
        if (k == 8 && !(v[7] > 1 && v[7] < 179)) {
            snprintf(err, cap, "%s:%d: expected FOV 1..179, got %g", name, line, v[7]);
            return -1;
        }
        r_cam_key_t *key = &c->keys[c->num_keys++];
        key->t = v[0];
        for (int j = 0; j < 3; j++) {
            key->origin[j] = (float)v[1 + j];
            key->angles[j] = (float)v[4 + j];
        }
        key->fov = k == 8 ? (float)v[7] : 0;
    }
    if (!c->num_keys) {
        snprintf(err, cap, "%s: expected at least one keyframe (TIME X Y Z PITCH YAW ROLL [FOV])", name);
        return -1;
    }
    return 0;
}

int cam_write_path(const char *path, const r_cam_key_t *keys, int n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# demoplay camera path: TIME X Y Z PITCH YAW ROLL [FOV]\n");
    for (int i = 0; i < n; i++) {
        const r_cam_key_t *k = &keys[i];
        fprintf(f, "%.4f %.3f %.3f %.3f %.3f %.3f %.3f", k->t, k->origin[0], k->origin[1], k->origin[2], k->angles[0],
                k->angles[1], k->angles[2]);
        if (k->fov > 0)
            fprintf(f, " %.2f", k->fov);
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

int cam_from_cli(renderer_t *r, const char *spec, const char *command)
{
    r_camera_t *c = malloc(sizeof *c);
    if (!c) {
        log_error("%s: out of memory", command);
        return -1;
    }
    char err[512];
    int rc = cam_parse(spec, c, err, sizeof err);
    if (rc < 0) {
        log_error("%s: --camera: %s", command, err);
    } else {
        c->smooth = !strcmp(command, "play");   // a window shows frames in order; a file may not be made so
        r_set_camera(r, c);
    }
    free(c);
    return rc;
}

void cam_check_drawn(renderer_t *r, const char *spec, const char *demo, double t, int *warned)
{
    if (!spec || *warned || (strncmp(spec, "follow", 6) && strncmp(spec, "chase:", 6)))
        return;
    r_cam_state_t st;
    r_camera_state(r, &st);
    if (st.player >= 0 || st.recorder)
        return;   // the player followed, or the recording player (whose view is the eyes)
    log_warn("%s: --camera %s: that player is not in the frame at %.3f s (not connected, dead or out of the "
             "recording's view): showing the recording player's %s", demo, spec, t,
             strncmp(spec, "follow", 6) ? "back" : "eyes");
    *warned = 1;
}
