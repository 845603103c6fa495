// cmd_shot.c -- `demoplay shot` (placeholder until its issue lands)
#include "cli.h"
#include "log.h"

int cmd_shot(const cli_t *cli)
{
    log_error("shot: not implemented yet (%s)", cli->files[0]);
    return EXIT_INTERNAL;
}
