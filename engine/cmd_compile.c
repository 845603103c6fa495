// cmd_compile.c -- `demoplay compile` (placeholder until its issue lands)
#include "cli.h"
#include "log.h"

int cmd_compile(const cli_t *cli)
{
    log_error("compile: not implemented yet (%s)", cli->files[0]);
    return EXIT_INTERNAL;
}
