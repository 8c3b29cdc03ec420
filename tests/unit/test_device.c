/* test_device.c - asking what GPU there is, with a stand-in probe (a shell
 * script), beside other children of the grader (no GPU needed). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
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

static device_info ask(void)
{
    device_probe asking;
    device_probe_start(&asking, probe, dir, dir);
    device_info d;
    device_probe_finish(&asking, &d);
    return d;
}

/* A usable GPU's answer is kept: the next grading reads it and starts no
 * probe (the stand-in now answers differently, and is not asked), unless
 * it may see other GPUs. */
static void a_usable_gpus_answer_is_kept_for_the_next_grading(void)
{
    CHECK(fake_probe("status=ok\nname=Stand-in GPU\nsm_count=132\n") == 0);
    unsetenv("CUDA_VISIBLE_DEVICES");
    CHECK(ask().ok);
    /* Rewritten in place, same file and time stamp: a cached answer wins. */
    struct stat before;
    CHECK(stat(probe, &before) == 0);
    FILE *f = fopen(probe, "r+");
    CHECK(f && fputs("#!/bin/sh\nexit 9\n", f) >= 0 && fclose(f) == 0);
    struct timespec times[2] = {before.st_atim, before.st_mtim};
    CHECK(utimensat(AT_FDCWD, probe, times, 0) == 0);
    device_probe asking;
    device_probe_start(&asking, probe, dir, dir);
    CHECK(asking.from_cache && asking.pid == -1);
    device_info d;
    device_probe_finish(&asking, &d);
    CHECK(d.ok && strcmp(d.name, "Stand-in GPU") == 0 && d.sm_count == 132);
    /* Other GPUs visible: asked again (and the stand-in now fails). */
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    CHECK(!ask().ok);
    unsetenv("CUDA_VISIBLE_DEVICES");
    remove_dir();
}

/* An answer without a usable GPU is never kept: the next grading asks. */
static void no_gpu_is_asked_again(void)
{
    CHECK(fake_probe("status=error\nerror=no GPU here\n") == 0);
    device_info d = ask();
    CHECK(!d.ok && strstr(d.error, "no GPU here"));
    device_probe asking;
    device_probe_start(&asking, probe, dir, dir);
    CHECK(!asking.from_cache);
    device_probe_finish(&asking, &d);
    remove_dir();
}

const unit_test device_tests[] = {
    TEST(a_usable_gpus_answer_is_kept_for_the_next_grading), TEST(no_gpu_is_asked_again),
    TEST(the_probe_outlives_the_builds_children),
    TEST(a_probe_that_cannot_run_is_said),
};
const int device_tests_count = sizeof device_tests / sizeof device_tests[0];
