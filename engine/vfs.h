// vfs.h -- the game file system: directories and PACK archives, case-insensitive
//
//     vfs_t *fs = vfs_create();
//     vfs_mount_game(fs, "/games/quake", "id1", "qfm");   // qfm falls back to id1
//     uint8_t *bytes = vfs_load(fs, "maps/e1m3.bsp", &size); // malloc'd, or NULL
//
// Search order, as Quake's COM_AddGameDirectory: the mod folder before the base
// folder; inside one folder, pakN.pak before ... before pak0.pak before loose
// files. Names are matched ignoring case, in paks and on disk (Quake II data
// has upper-case names). Pak directories are checked against the pak size when
// mounted: a bad pak is skipped with a warning, never read out of bounds.
#ifndef VFS_H
#define VFS_H

#include <stddef.h>
#include <stdint.h>

typedef struct vfs_s vfs_t;

vfs_t *vfs_create(void);
void vfs_free(vfs_t *fs);

// Add one folder (its loose files and its pak0.pak, pak1.pak ...) with a priority
// above everything added before. Returns the number of paks mounted, -1 if the
// folder does not exist.
int vfs_add_dir(vfs_t *fs, const char *dir);
// Mount basedir/basegame, then basedir/mod over it (mod may be NULL or equal to basegame).
int vfs_mount_game(vfs_t *fs, const char *basedir, const char *basegame, const char *mod);

// Load a file by its game path ("maps/e1m3.bsp"). Returns malloc'd bytes (one
// extra NUL byte after them) or NULL when absent; *size receives the length.
uint8_t *vfs_load(vfs_t *fs, const char *name, size_t *size);
int vfs_exists(vfs_t *fs, const char *name);
// Number of mounted search entries (folders + paks), for diagnostics.
int vfs_count(const vfs_t *fs);

// Open a real path ignoring case in every component; returns malloc'd path or NULL.
char *vfs_resolve_path(const char *path);
// Read a whole real file. NULL when it cannot be read.
uint8_t *vfs_read_file(const char *path, size_t *size);

#endif
