// vfs.c -- directories and PACK archives with case-insensitive look-up
#include "vfs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "log.h"

#define PAK_ENTRY_SIZE 64
#define PAK_NAME_LEN 56
#define VFS_MAX_PAKS 100

typedef struct {
    char name[PAK_NAME_LEN + 1];   // lower case
    uint32_t pos, len;
} pak_entry_t;

typedef struct search_s {
    struct search_s *next;         // lower priority
    char *dir;                     // loose folder, or NULL for a pak
    char *pak_path;
    pak_entry_t *entries;
    int num_entries;
} search_t;

struct vfs_s {
    search_t *head;                // highest priority first
};

vfs_t *vfs_create(void)
{
    return calloc(1, sizeof(vfs_t));
}

void vfs_free(vfs_t *fs)
{
    if (!fs)
        return;
    search_t *s = fs->head;
    while (s) {
        search_t *n = s->next;
        free(s->dir);
        free(s->pak_path);
        free(s->entries);
        free(s);
        s = n;
    }
    free(fs);
}

int vfs_count(const vfs_t *fs)
{
    int n = 0;
    for (search_t *s = fs->head; s; s = s->next)
        n++;
    return n;
}

uint8_t *vfs_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0) {
        fclose(f);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n + 1);
    if (!buf || fread(buf, 1, n, f) != n) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = 0;
    fclose(f);
    if (size)
        *size = n;
    return buf;
}

// Find `name` in folder `dir` ignoring case; returns malloc'd "dir/realname" or NULL.
static char *match_component(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    char *exact = malloc(dl + nl + 2);
    if (!exact)
        return NULL;
    snprintf(exact, dl + nl + 2, "%s/%s", dir, name);
    struct stat st;
    if (stat(exact, &st) == 0)
        return exact;
    DIR *d = opendir(dl ? dir : ".");
    if (!d) {
        free(exact);
        return NULL;
    }
    struct dirent *e;
    char *found = NULL;
    while ((e = readdir(d)) != NULL) {
        if (strcasecmp(e->d_name, name) == 0) {
            snprintf(exact, dl + nl + 2, "%s/%s", dir, e->d_name);
            found = exact;
            break;
        }
    }
    closedir(d);
    if (!found)
        free(exact);
    return found;
}

char *vfs_resolve_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return strdup(path);
    char *copy = strdup(path);
    if (!copy)
        return NULL;
    char *cur = strdup(path[0] == '/' ? "" : ".");
    char *save = NULL;
    for (char *tok = strtok_r(copy, "/", &save); tok && cur; tok = strtok_r(NULL, "/", &save)) {
        if (strcmp(tok, ".") == 0)
            continue;
        char *next = match_component(cur, tok);
        free(cur);
        cur = next;
    }
    free(copy);
    if (cur && stat(cur, &st) != 0) {
        free(cur);
        cur = NULL;
    }
    return cur;
}

static void lower_copy(char *dst, const char *src, size_t cap)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[i] = 0;
}

static search_t *open_pak(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t hdr[12];
    struct stat st;
    search_t *s = NULL;
    uint8_t *dir = NULL;
    if (fstat(fileno(f), &st) != 0 || fread(hdr, 1, 12, f) != 12 || memcmp(hdr, "PACK", 4) != 0) {
        log_warn("%s: offset 0: expected a PACK header; pak skipped", path);
        goto done;
    }
    uint32_t dirofs = hdr[4] | hdr[5] << 8 | hdr[6] << 16 | (uint32_t)hdr[7] << 24;
    uint32_t dirlen = hdr[8] | hdr[9] << 8 | hdr[10] << 16 | (uint32_t)hdr[11] << 24;
    uint64_t fsize = (uint64_t)st.st_size;
    if (dirlen % PAK_ENTRY_SIZE || (uint64_t)dirofs + dirlen > fsize) {
        log_warn("%s: offset 4: expected a directory of 64-byte entries inside the %llu-byte file, got %u bytes at %u; "
                 "pak skipped", path, (unsigned long long)fsize, dirlen, dirofs);
        goto done;
    }
    int n = (int)(dirlen / PAK_ENTRY_SIZE);
    dir = malloc(dirlen ? dirlen : 1);
    s = calloc(1, sizeof(*s));
    if (!dir || !s || fseek(f, (long)dirofs, SEEK_SET) != 0 || fread(dir, 1, dirlen, f) != dirlen) {
        free(s);
        s = NULL;
        goto done;
    }
    s->entries = calloc((size_t)(n ? n : 1), sizeof(pak_entry_t));
    s->pak_path = strdup(path);
    if (!s->entries || !s->pak_path) {
        free(s->entries);
        free(s->pak_path);
        free(s);
        s = NULL;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        const uint8_t *e = dir + i * PAK_ENTRY_SIZE;
        char name[PAK_NAME_LEN + 1];
        memcpy(name, e, PAK_NAME_LEN);
        name[PAK_NAME_LEN] = 0;
        uint32_t pos = e[56] | e[57] << 8 | e[58] << 16 | (uint32_t)e[59] << 24;
        uint32_t len = e[60] | e[61] << 8 | e[62] << 16 | (uint32_t)e[63] << 24;
        if ((uint64_t)pos + len > fsize) {
            log_warn("%s: offset %u: expected entry '%s' (%u bytes at %u) inside the file; entry skipped", path,
                     dirofs + (uint32_t)i * PAK_ENTRY_SIZE, name, len, pos);
            continue;
        }
        pak_entry_t *pe = &s->entries[s->num_entries++];
        lower_copy(pe->name, name, sizeof(pe->name));
        pe->pos = pos;
        pe->len = len;
    }
done:
    free(dir);
    fclose(f);
    return s;
}

static void push(vfs_t *fs, search_t *s)
{
    s->next = fs->head;
    fs->head = s;
}

int vfs_add_dir(vfs_t *fs, const char *dir)
{
    char *real = vfs_resolve_path(dir);
    struct stat st;
    if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(real);
        return -1;
    }
    search_t *s = calloc(1, sizeof(*s));
    if (!s) {
        free(real);
        return -1;
    }
    s->dir = real;
    push(fs, s);
    int paks = 0;
    for (int i = 0; i < VFS_MAX_PAKS; i++) {
        char name[32];
        snprintf(name, sizeof(name), "pak%d.pak", i);
        char *path = match_component(real, name);
        if (!path)
            break;
        search_t *p = open_pak(path);
        free(path);
        if (p) {
            push(fs, p);
            paks++;
        }
    }
    return paks;
}

int vfs_mount_game(vfs_t *fs, const char *basedir, const char *basegame, const char *mod)
{
    char path[4096];
    int found = 0;
    if (basegame) {
        snprintf(path, sizeof(path), "%s/%s", basedir, basegame);
        if (vfs_add_dir(fs, path) >= 0)
            found++;
    }
    if (mod && *mod && (!basegame || strcasecmp(mod, basegame) != 0)) {
        snprintf(path, sizeof(path), "%s/%s", basedir, mod);
        if (vfs_add_dir(fs, path) >= 0)
            found++;
    }
    return found;
}

static int bad_game_path(const char *name)
{
    // game paths never climb out of their folder
    return name[0] == '/' || strstr(name, "..") != NULL || strchr(name, '\\') != NULL;
}

uint8_t *vfs_load(vfs_t *fs, const char *name, size_t *size)
{
    if (!name || !*name || bad_game_path(name))
        return NULL;
    char lower[PAK_NAME_LEN + 1];
    size_t nl = strlen(name);
    lower_copy(lower, name, sizeof(lower));
    for (search_t *s = fs->head; s; s = s->next) {
        if (s->dir) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", s->dir, name);
            char *real = vfs_resolve_path(path);
            if (real) {
                uint8_t *b = vfs_read_file(real, size);
                free(real);
                if (b)
                    return b;
            }
            continue;
        }
        if (nl > PAK_NAME_LEN)
            continue;
        for (int i = 0; i < s->num_entries; i++) {
            if (strcmp(s->entries[i].name, lower) != 0)
                continue;
            FILE *f = fopen(s->pak_path, "rb");
            if (!f)
                return NULL;
            uint8_t *b = malloc((size_t)s->entries[i].len + 1);
            if (!b || fseek(f, (long)s->entries[i].pos, SEEK_SET) != 0 ||
                fread(b, 1, s->entries[i].len, f) != s->entries[i].len) {
                free(b);
                fclose(f);
                return NULL;
            }
            fclose(f);
            b[s->entries[i].len] = 0;
            if (size)
                *size = s->entries[i].len;
            return b;
        }
    }
    return NULL;
}

int vfs_exists(vfs_t *fs, const char *name)
{
    if (!name || !*name || bad_game_path(name))
        return 0;
    char lower[PAK_NAME_LEN + 1];
    lower_copy(lower, name, sizeof(lower));
    for (search_t *s = fs->head; s; s = s->next) {
        if (s->dir) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", s->dir, name);
            char *real = vfs_resolve_path(path);
            free(real);
            if (real)
                return 1;
            continue;
        }
        if (strlen(name) > PAK_NAME_LEN)
            continue;
        for (int i = 0; i < s->num_entries; i++)
            if (strcmp(s->entries[i].name, lower) == 0)
                return 1;
    }
    return 0;
}
