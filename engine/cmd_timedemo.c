// cmd_timedemo.c -- `demoplay timedemo` (placeholder until its issue lands)
#include "cli.h"
#include "log.h"

int cmd_timedemo(const cli_t *cli)
{
    log_error("timedemo: not implemented yet (%s)", cli->files[0]);
    return EXIT_INTERNAL;
}
