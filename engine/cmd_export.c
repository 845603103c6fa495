// cmd_export.c -- `demoplay export` (placeholder until its issue lands)
#include "cli.h"
#include "log.h"

int cmd_export(const cli_t *cli)
{
    log_error("export: not implemented yet (%s)", cli->files[0]);
    return EXIT_INTERNAL;
}
