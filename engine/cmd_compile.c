// cmd_compile.c -- `demoplay compile TEXT -o FILE.dem`: a Quake `dump` text back into a demo (LMPC's compile)
//
// Reads the human form of `demoplay dump` (one message per line:
// "OFFSET TIME type key=value ..."), so dump + edit + compile edits a demo.
// The offsets, the time column and block sizes are recomputed, not trusted.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/quake_write.h"
#include "cli.h"
#include "log.h"
#include "vfs.h"

#define MAX_FIELDS 4200   // serverinfo lists up to 4095 models and sounds

typedef struct {
    const char *key;
    char *val;
} field_t;

typedef struct {
    const char *file;
    int line;
    char type[32];
    int nfields;
    field_t f[MAX_FIELDS];
    int bad;
    char why[256];
} line_t;

static void line_error(line_t *l, const char *fmt, const char *a)
{
    if (l->bad)
        return;
    l->bad = 1;
    snprintf(l->why, sizeof(l->why), fmt, a);
}

// Unescape a quoted dump string in place; returns the end of the token or NULL.
static char *unquote(char *p, char **out)
{
    char *dst = p + 1, *src = p + 1;
    *out = dst;
    while (*src && *src != '"') {
        if (*src == '\\' && src[1]) {
            src++;
            if (*src == 'n')
                *dst++ = '\n';
            else if (*src == 'x' && src[1] && src[2]) {
                char hex[3] = { src[1], src[2], 0 };
                *dst++ = (char)strtol(hex, NULL, 16);
                src += 2;
            } else
                *dst++ = *src;
            src++;
        } else
            *dst++ = *src++;
    }
    if (*src != '"')
        return NULL;
    *dst = 0;
    return src + 1;
}

static int parse_line(line_t *l, char *text)
{
    l->nfields = 0;
    l->bad = 0;
    char *p = text;
    // offset and time columns
    for (int col = 0; col < 2; col++) {
        while (*p == ' ')
            p++;
        while (*p && *p != ' ')
            p++;
    }
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " \n");
    if (n == 0 || n >= sizeof(l->type))
        return -1;
    memcpy(l->type, p, n);
    l->type[n] = 0;
    p += n;
    while (*p) {
        while (*p == ' ' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        char *eq = strchr(p, '=');
        if (!eq || l->nfields >= MAX_FIELDS)
            return -1;
        *eq = 0;
        field_t *f = &l->f[l->nfields++];
        f->key = p;
        p = eq + 1;
        if (*p == '"') {
            p = unquote(p, &f->val);
            if (!p)
                return -1;
        } else {
            f->val = p;
            p += strcspn(p, " \n\r");
            if (*p)
                *p++ = 0;
        }
    }
    return 0;
}

static const char *get(line_t *l, const char *key)
{
    for (int i = 0; i < l->nfields; i++)
        if (!strcmp(l->f[i].key, key))
            return l->f[i].val;
    line_error(l, "expected a field '%s'", key);
    return "0";
}

static int has(const line_t *l, const char *key)
{
    for (int i = 0; i < l->nfields; i++)
        if (!strcmp(l->f[i].key, key))
            return 1;
    return 0;
}

static long long num(line_t *l, const char *key)
{
    const char *v = get(l, key);
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 0);
    if (end == v || *end || errno)
        line_error(l, "expected an integer for '%s'", key);
    return x;
}

static float flt(line_t *l, const char *key)
{
    const char *v = get(l, key);
    char *end;
    float x = strtof(v, &end);
    if (end == v || *end)
        line_error(l, "expected a number for '%s'", key);
    return x;
}

static void vec(line_t *l, const char *key, float out[3])
{
    const char *v = get(l, key);
    char *end;
    for (int i = 0; i < 3; i++) {
        out[i] = strtof(v, &end);
        if (end == v || (i < 2 && *end != ',') || (i == 2 && *end)) {
            line_error(l, "expected x,y,z for '%s'", key);
            return;
        }
        v = end + 1;
    }
}

static void state_fields(line_t *l, entity_state_t *st)
{
    entity_state_clear(st);
    st->modelindex = (int32_t)num(l, "model");
    st->frame = (int32_t)num(l, "frame");
    st->colormap = (int32_t)num(l, "colormap");
    st->skin = (int32_t)num(l, "skin");
    vec(l, "origin", st->origin);
    vec(l, "angles", st->angles);
}

static const struct { const char *name; int id; } simple[] = {
    { "nop", 1 }, { "disconnect", 2 }, { "killedmonster", 27 }, { "foundsecret", 28 }, { "sellscreen", 33 },
    { "intermission", 30 }, { "bf", 40 },
};
static const struct { const char *name; int id; } texts[] = {
    { "print", 8 }, { "stufftext", 9 }, { "centerprint", 26 }, { "finale", 31 }, { "cutscene", 34 },
};

static void emit(qw_demo_t *d, line_t *l)
{
    const char *t = l->type;
    for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++)
        if (!strcmp(t, simple[i].name)) {
            qw_byte(d, simple[i].id);
            return;
        }
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        if (!strcmp(t, texts[i].name)) {
            qw_text(d, texts[i].id, get(l, "text"));
            return;
        }
    float v3[3];
    if (!strcmp(t, "cdtrack") && has(l, "raw")) {
        qw_cdtrack(d, get(l, "raw"));
    } else if (!strcmp(t, "block")) {
        vec(l, "angles", v3);
        qw_block_begin(d, v3);
    } else if (!strcmp(t, "updatestat")) {
        qw_byte(d, 3);
        qw_byte(d, (int)num(l, "index"));
        qw_long(d, (int32_t)num(l, "value"));
    } else if (!strcmp(t, "version")) {
        qw_byte(d, 4);
        qw_long(d, (int32_t)num(l, "protocol"));
    } else if (!strcmp(t, "setview")) {
        qw_byte(d, 5);
        qw_short(d, (int)num(l, "entity"));
    } else if (!strcmp(t, "sound")) {
        vec(l, "origin", v3);
        qw_sound(d, (int)num(l, "bits"), (int)num(l, "volume"), (int)num(l, "attenuation"), (int)num(l, "entity"),
                 (int)num(l, "channel"), (int)num(l, "sound"), v3);
    } else if (!strcmp(t, "time")) {
        qw_time(d, flt(l, "time"));
    } else if (!strcmp(t, "setangle")) {
        vec(l, "angles", v3);
        qw_byte(d, 10);
        for (int i = 0; i < 3; i++)
            qw_angle(d, v3[i]);
    } else if (!strcmp(t, "serverinfo")) {
        static const char *models[MAX_FIELDS], *sounds[MAX_FIELDS];
        int nm = 0, ns = 0;
        for (int i = 0; i < l->nfields; i++) {
            if (!strcmp(l->f[i].key, "model"))
                models[nm++] = l->f[i].val;
            else if (!strcmp(l->f[i].key, "sound"))
                sounds[ns++] = l->f[i].val;
        }
        uint32_t flags = has(l, "flags") ? (uint32_t)num(l, "flags") : 0;
        qw_serverinfo(d, (int32_t)num(l, "protocol"), flags, (int)num(l, "maxclients"), (int)num(l, "gametype"),
                      get(l, "level"), models, nm, sounds, ns);
    } else if (!strcmp(t, "lightstyle")) {
        qw_byte(d, 12);
        qw_byte(d, (int)num(l, "style"));
        qw_string(d, get(l, "map"));
    } else if (!strcmp(t, "updatename")) {
        qw_byte(d, 13);
        qw_byte(d, (int)num(l, "player"));
        qw_string(d, get(l, "name"));
    } else if (!strcmp(t, "updatefrags")) {
        qw_byte(d, 14);
        qw_byte(d, (int)num(l, "player"));
        qw_short(d, (int)num(l, "frags"));
    } else if (!strcmp(t, "updatecolors")) {
        qw_byte(d, 17);
        qw_byte(d, (int)num(l, "player"));
        qw_byte(d, (int)num(l, "colors"));
    } else if (!strcmp(t, "clientdata")) {
        uint32_t bits = (uint32_t)num(l, "bits");
        int fitz = d->protocol != 15;
        qw_byte(d, 15);
        qw_short(d, (int)(bits & 0xffff));
        if (fitz && (bits & (1u << 15)))
            qw_byte(d, (int)(bits >> 16));
        if (fitz && (bits & (1u << 23)))
            qw_byte(d, (int)(bits >> 24));
        float punch[3], velocity[3];
        vec(l, "punch", punch);
        vec(l, "velocity", velocity);
        if (bits & 1)
            qw_byte(d, (int)num(l, "viewheight"));
        if (bits & 2)
            qw_byte(d, (int)num(l, "idealpitch"));
        for (int i = 0; i < 3; i++) {
            if (bits & (4u << i))
                qw_byte(d, (int)punch[i]);
            if (bits & (32u << i))
                qw_byte(d, (int)velocity[i] / 16);
        }
        if (has(l, "items"))
            qw_long(d, (int32_t)num(l, "items"));
        int weaponframe = (int)num(l, "weaponframe"), armor = (int)num(l, "armor"), weapon = (int)num(l, "weapon");
        int ammo = (int)num(l, "ammo"), shells = (int)num(l, "shells"), nails = (int)num(l, "nails");
        int rockets = (int)num(l, "rockets"), cells = (int)num(l, "cells");
        if (bits & (1u << 12))
            qw_byte(d, weaponframe);
        if (bits & (1u << 13))
            qw_byte(d, armor);
        if (bits & (1u << 14))
            qw_byte(d, weapon);
        qw_short(d, (int)num(l, "health"));
        qw_byte(d, ammo);
        qw_byte(d, shells);
        qw_byte(d, nails);
        qw_byte(d, rockets);
        qw_byte(d, cells);
        qw_byte(d, (int)num(l, "activeweapon"));
        if (fitz) {
            const int hi[] = { weapon, armor, ammo, shells, nails, rockets, cells };
            for (int i = 0; i < 7; i++)
                if (bits & (1u << (16 + i)))
                    qw_byte(d, hi[i] >> 8);
            if (bits & (1u << 24))
                qw_byte(d, weaponframe >> 8);
            if (bits & (1u << 25))
                qw_byte(d, (int)num(l, "weaponalpha"));
        }
    } else if (!strcmp(t, "stopsound")) {
        qw_byte(d, 16);
        qw_short(d, (int)((num(l, "entity") << 3) | (num(l, "channel") & 7)));
    } else if (!strcmp(t, "particle")) {
        float org[3];
        vec(l, "origin", org);
        vec(l, "velocity", v3);
        qw_byte(d, 18);
        for (int i = 0; i < 3; i++)
            qw_coord(d, org[i]);
        for (int i = 0; i < 3; i++)
            qw_byte(d, (int)(v3[i] * 16.0f));
        qw_byte(d, (int)num(l, "count"));
        qw_byte(d, (int)num(l, "color"));
    } else if (!strcmp(t, "damage")) {
        vec(l, "from", v3);
        qw_byte(d, 19);
        qw_byte(d, (int)num(l, "armor"));
        qw_byte(d, (int)num(l, "blood"));
        for (int i = 0; i < 3; i++)
            qw_coord(d, v3[i]);
    } else if (!strcmp(t, "spawnstatic") || !strcmp(t, "spawnstatic2") || !strcmp(t, "spawnbaseline") ||
               !strcmp(t, "spawnbaseline2")) {
        entity_state_t st;
        state_fields(l, &st);
        int v2 = t[strlen(t) - 1] == '2';
        int ent = !strncmp(t, "spawnbaseline", 13) ? (int)num(l, "entity") : -1;
        qw_baseline(d, ent, v2, v2 ? (int)num(l, "bits") : 0, &st, has(l, "alpha") ? (int)num(l, "alpha") : 0,
                    has(l, "scale") ? (int)num(l, "scale") : 0);
    } else if (!strcmp(t, "temp_entity")) {
        int type = (int)num(l, "type");
        qw_byte(d, 23);
        qw_byte(d, type);
        if (has(l, "entity"))
            qw_short(d, (int)num(l, "entity"));
        vec(l, "origin", v3);
        for (int i = 0; i < 3; i++)
            qw_coord(d, v3[i]);
        if (has(l, "end")) {
            vec(l, "end", v3);
            for (int i = 0; i < 3; i++)
                qw_coord(d, v3[i]);
        }
        if (type == 12) {
            qw_byte(d, (int)num(l, "colorstart"));
            qw_byte(d, (int)num(l, "colorlength"));
        }
    } else if (!strcmp(t, "setpause")) {
        qw_byte(d, 24);
        qw_byte(d, (int)num(l, "paused"));
    } else if (!strcmp(t, "signonnum")) {
        qw_byte(d, 25);
        qw_byte(d, (int)num(l, "signon"));
    } else if (!strcmp(t, "spawnstaticsound") || !strcmp(t, "spawnstaticsound2")) {
        vec(l, "origin", v3);
        int v2 = !strcmp(t, "spawnstaticsound2");
        qw_byte(d, v2 ? 44 : 29);
        for (int i = 0; i < 3; i++)
            qw_coord(d, v3[i]);
        if (v2)
            qw_short(d, (int)num(l, "sound"));
        else
            qw_byte(d, (int)num(l, "sound"));
        qw_byte(d, (int)num(l, "volume"));
        qw_byte(d, (int)num(l, "attenuation"));
    } else if (!strcmp(t, "cdtrack")) {
        qw_byte(d, 32);
        qw_byte(d, (int)num(l, "track"));
        qw_byte(d, (int)num(l, "loop"));
    } else if (!strcmp(t, "skybox")) {
        qw_byte(d, 37);
        qw_string(d, get(l, "name"));
    } else if (!strcmp(t, "fog")) {
        qw_byte(d, 41);
        qw_byte(d, (int)num(l, "density"));
        qw_byte(d, (int)num(l, "red"));
        qw_byte(d, (int)num(l, "green"));
        qw_byte(d, (int)num(l, "blue"));
        qw_short(d, (int)num(l, "time"));
    } else if (!strcmp(t, "updateentity")) {
        entity_state_t st;
        state_fields(l, &st);
        st.raw_effects = has(l, "effects") ? (uint32_t)num(l, "effects") : 0;
        qw_update(d, (uint32_t)num(l, "bits"), (int)num(l, "entity"), &st, has(l, "alpha") ? (int)num(l, "alpha") : 0,
                  has(l, "scale") ? (int)num(l, "scale") : 0, has(l, "lerpfinish") ? (int)num(l, "lerpfinish") : 0);
    } else {
        line_error(l, "expected a Quake message name, found '%s'", t);
    }
}

int cmd_compile(const cli_t *cli)
{
    const char *in = cli->files[0];
    if (!cli->out) {
        log_error("compile: missing -o FILE.dem");
        return EXIT_USAGE;
    }
    size_t size;
    char *text = (char *)vfs_read_file(in, &size);
    if (!text) {
        log_error("%s: no such file", in);
        return EXIT_USAGE;
    }
    static line_t l;
    l.file = in;
    qw_demo_t d;
    qw_init(&d);
    int status = EXIT_OK;
    int lineno = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        lineno++;
        if (*p && *p != '#') {
            if (parse_line(&l, p) < 0) {
                log_error("%s: line %d: expected 'OFFSET TIME type key=value ...'", in, lineno);
                status = EXIT_DEMO_ERRORS;
                break;
            }
            emit(&d, &l);
            if (l.bad) {
                log_error("%s: line %d: %s: %s", in, lineno, l.type, l.why);
                status = EXIT_DEMO_ERRORS;
                break;
            }
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    qw_block_end(&d);
    free(text);
    if (status == EXIT_OK) {
        FILE *f = fopen(cli->out, "wb");
        if (!f || d.oom || fwrite(d.data, 1, d.size, f) != d.size) {
            log_error("%s: cannot write the demo", cli->out);
            status = EXIT_INTERNAL;
        }
        if (f && fclose(f) != 0)
            status = EXIT_INTERNAL;
    }
    qw_free(&d);
    return status;
}
