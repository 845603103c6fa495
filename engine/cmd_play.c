// cmd_play.c -- `demoplay play` (placeholder until its issue lands)
#include "cli.h"
#include "log.h"

int cmd_play(const cli_t *cli)
{
    log_error("play: not implemented yet (%s)", cli->files[0]);
    return EXIT_INTERNAL;
}
