/* test_device.c - asking what GPU there is, with a stand-in probe (a shell
 * script), beside other children of the grader (no GPU needed). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "device.h"
#include "isolate.h"

static char dir[64], probe[128];

/* A folder with a probe that answers like build/probe on a GPU. */
static int fake_probe(const char *answer)
{
    snprintf(dir, sizeof dir, "/tmp/cudalab-unit-device-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(probe, sizeof probe, "%s/probe", dir);
    FILE *f = fopen(probe, "w");
    if (!f) return -1;
    fprintf(f, "#!/bin/sh\nsleep 0.3\nprintf '%s'\n", answer);
    fclose(f);
    return chmod(probe, 0755);
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* The build's steps run (and end the grader's stray children) while the
 * probe is out: its answer must still arrive. */
static void the_probe_outlives_the_builds_children(void)
{
    CHECK(fake_probe("status=ok\\nname=Stand-in GPU\\nsm_count=132\\n") == 0);
    device_probe asking;
    device_probe_start(&asking, probe, dir, dir);
    char *step[] = {"true", NULL};
    iso_result r;
    CHECK(iso_run(step, "/dev/null", 10, &r) == 0 && r.exited && r.exit_code == 0);
    device_info d;
    device_probe_finish(&asking, &d);
    remove_dir();
    CHECK(d.ok);
    CHECK(strcmp(d.name, "Stand-in GPU") == 0 && d.sm_count == 132);
}

static void a_probe_that_cannot_run_is_said(void)
{
    snprintf(dir, sizeof dir, "/tmp");
    device_probe asking;
    device_probe_start(&asking, "/nonexistent/probe", "/tmp", "/tmp");
    device_info d;
    device_probe_finish(&asking, &d);
    CHECK(!d.ok);
    CHECK(strstr(d.error, "/nonexistent/probe") != NULL);
}

const unit_test device_tests[] = {
    TEST(the_probe_outlives_the_builds_children),
    TEST(a_probe_that_cannot_run_is_said),
};
const int device_tests_count = sizeof device_tests / sizeof device_tests[0];
