// cmd_dump.c -- `demoplay dump [--json] FILE`: every block and message, one line each
#include <stdio.h>

#include "cli.h"
#include "demo.h"
#include "log.h"

int cmd_dump(const cli_t *cli)
{
    demo_t d;
    if (demo_open(&d, cli, cli->files[0], stdout, cli->json) < 0) {
        log_error("%s", d.errmsg);
        int st = d.failed ? EXIT_DEMO_ERRORS : EXIT_USAGE;
        demo_close(&d);
        return st;
    }
    while (demo_read_frame(&d) > 0)
        ;
    fflush(stdout);
    int st = EXIT_OK;
    if (d.failed) {
        log_error("%s", d.errmsg);
        st = EXIT_DEMO_ERRORS;
    }
    demo_close(&d);
    return st;
}
