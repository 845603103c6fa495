// bsp38.c -- IBSP38 (Quake II) level loader into bsp_t (not written yet: refuses the file)
#include "bsp.h"

#include <stdio.h>

bsp_t *bsp38_load(const uint8_t *data, size_t size, const char *name, const asset_files_t *files,
                  char *err, size_t errcap)
{
    (void)data;
    (void)size;
    (void)files;
    if (err && errcap)
        snprintf(err, errcap, "%s: offset 0: expected BSP version 29 or 30 (IBSP 38 is not supported yet)", name);
    return NULL;
}
