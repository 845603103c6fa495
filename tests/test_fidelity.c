// test_fidelity.c -- demoplay's Quake frames against id's software renderer: `make fidelity` as a test
//
// Runs tools/fidelity.sh --check (../shared/tools/fidelity.py on every reference
// folder: frames drawn by the games' own renderers at exact demo times), prints
// its table, and checks that every Quake reference has a median PSNR >= 40 dB and
// median identical pixels >= 98 %. Measured once, in the plain pass (the
// sanitizer build draws the same pixels, 5x slower).
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_quake_fidelity(void **state)
{
    (void)state;
    TU_REQUIRE_DATA();
    if (strstr(tu_bin(), "/san/")) {
        printf("fidelity: measured in the plain pass, not under the sanitizers\n");
        return;
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "DEMOPLAY_BIN='%s' sh tools/fidelity.sh --check 2>&1", tu_bin());
    int status = 0;
    char *out = tu_run(cmd, &status);
    assert_non_null(out);
    printf("%s", out);
    static const char *const demos[] = { "dosquake101_e2m3", "dosquake101_e4m2", "lq_demo1_lite", "lq_demo2_lite",
                                         "qfm_e1m3" };
    for (size_t i = 0; i < sizeof demos / sizeof demos[0]; i++) {
        const char *line = strstr(out, demos[i]);
        if (!line)
            fail_msg("fidelity: no result for %s", demos[i]);
        double med = 0, p10 = 0, ge30 = 0, ident = 0;
        char name[64];
        if (sscanf(line, "%63s %lf %lf %lf%% %lf%%", name, &med, &p10, &ge30, &ident) != 5)
            fail_msg("fidelity: cannot read the line of %s", demos[i]);
        if (med < 40.0 || ident < 98.0)
            fail_msg("fidelity: %s: median %.2f dB, %.1f%% identical (want >= 40 dB, >= 98%%)", demos[i], med, ident);
    }
    assert_int_equal(status, 0);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quake_fidelity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
