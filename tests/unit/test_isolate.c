/* test_isolate.c - children that exit, fail, crash, hang or talk, played by
 * small shell stand-ins (no GPU needed). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "isolate.h"

static char log_path[256];

static iso_result sh(const char *script, double limit_s)
{
    snprintf(log_path, sizeof log_path, "/tmp/cudalab-unit-%d.log", (int)getpid());
    unlink(log_path);
    char *argv[] = {"sh", "-c", (char *)script, NULL};
    iso_result r;
    memset(&r, 0, sizeof r);
    if (iso_run(argv, log_path, limit_s, &r) != 0) r.started = -1;
    return r;
}

static void a_clean_exit(void)
{
    iso_result r = sh("exit 0", 10);
    CHECK(r.started == 1 && r.exited && r.exit_code == 0 && !r.timed_out);
}

static void an_exit_code_comes_back(void)
{
    iso_result r = sh("exit 3", 10);
    CHECK(r.exited && r.exit_code == 3);
}

static void a_crash_is_a_signal(void)
{
    iso_result r = sh("kill -SEGV $$", 10);
    CHECK(r.signaled && r.signal == SIGSEGV && !r.exited);
    char how[96];
    iso_describe(&r, how, sizeof how);
    CHECK(strstr(how, "signal 11") != NULL);
}

static void a_hang_is_stopped_at_the_limit(void)
{
    iso_result r = sh("sleep 30", 0.5);
    CHECK(r.timed_out && r.wall_s < 5);
}

static void a_hang_in_a_grandchild_is_stopped_too(void)
{
    /* The child waits on a grandchild that ignores the usual signals. */
    iso_result r = sh("trap '' TERM INT; sleep 30 & wait", 0.5);
    CHECK(r.timed_out && r.wall_s < 5);
}

static void a_memory_hog_is_stopped_at_the_limit(void)
{
    /* tail keeps the whole "line" of /dev/zero in memory: it grows until
     * stopped. The grandchild counts: the limit is the process group's. */
    iso_set_memory_limit_mb(64);
    iso_result r = sh("tail /dev/zero & wait", 20);
    iso_set_memory_limit_mb(0);
    CHECK(r.out_of_memory && !r.timed_out && r.wall_s < 15);
    char how[96];
    iso_describe(&r, how, sizeof how);
    CHECK(strstr(how, "more than 64 MB") != NULL);
}

static void a_small_child_is_not_stopped_by_the_memory_limit(void)
{
    iso_set_memory_limit_mb(64);
    iso_result r = sh("sleep 0.3; exit 0", 10);
    iso_set_memory_limit_mb(0);
    CHECK(r.exited && r.exit_code == 0 && !r.out_of_memory);
}

static void output_goes_to_the_log(void)
{
    iso_result r = sh("echo to-stdout; echo to-stderr >&2", 10);
    CHECK(r.exited && r.exit_code == 0);
    char *tail = iso_log_tail(log_path, 1000);
    CHECK(tail && strstr(tail, "to-stdout") && strstr(tail, "to-stderr"));
    free(tail);
}

static void the_log_tail_starts_at_a_line(void)
{
    sh("i=0; while [ $i -lt 500 ]; do echo line-$i; i=$((i+1)); done", 10);
    char *tail = iso_log_tail(log_path, 100);
    CHECK(tail && strncmp(tail, "line-", 5) == 0 && strstr(tail, "line-499"));
    free(tail);
}

static void a_missing_program_is_not_started(void)
{
    char *argv[] = {"/nonexistent/program", NULL};
    iso_result r;
    CHECK(iso_run(argv, "/tmp/cudalab-unit-missing.log", 10, &r) == 0);
    CHECK(!r.started);
}

#include "grade.h"
#include "stages.h"

static long hazards_in(const char *text)
{
    snprintf(log_path, sizeof log_path, "/tmp/cudalab-unit-%d.log", (int)getpid());
    FILE *f = fopen(log_path, "w");
    if (!f) return -1;
    fputs(text, f);
    fclose(f);
    return racecheck_hazards(log_path);
}

static void racecheck_warnings_count_as_hazards(void)
{
    CHECK(hazards_in("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n") == 0);
    CHECK(hazards_in("=========     Write Thread (3, 0, 0) ...\n"
                     "========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)\n") == 2);
    CHECK(hazards_in("no summary at all\n") == 0);
}

static iso_result sh_limited(const char *script, const iso_limits *lim)
{
    snprintf(log_path, sizeof log_path, "/tmp/cudalab-unit-%d.log", (int)getpid());
    unlink(log_path);
    char *argv[] = {"sh", "-c", (char *)script, NULL};
    iso_result r;
    memset(&r, 0, sizeof r);
    if (iso_run_with(argv, log_path, lim, &r) != 0) r.started = -1;
    return r;
}

static void a_flood_of_output_is_stopped_at_the_log_limit(void)
{
    iso_limits lim = {20, 0, 0, 64};
    iso_result r = sh_limited("yes 0123456789abcdef", &lim);
    CHECK(r.log_too_big && r.wall_s < 15);
    char how[96];
    iso_describe(&r, how, sizeof how);
    CHECK(strstr(how, "more than 64 KB") != NULL);
}

static void a_file_past_the_file_limit_stops_the_child(void)
{
    iso_limits lim = {20, 0, 1, 0};
    iso_result r = sh_limited("head -c 3000000 /dev/zero > /tmp/cudalab-unit-big.bin", &lim);
    unlink("/tmp/cudalab-unit-big.bin");
    char how[96];
    iso_describe(&r, how, sizeof how);
    CHECK(r.file_too_big || (r.exited && r.exit_code == 128 + SIGXFSZ)); /* sh: head died of it */
    iso_result small = sh_limited("head -c 1000 /dev/zero > /tmp/cudalab-unit-big.bin", &lim);
    unlink("/tmp/cudalab-unit-big.bin");
    CHECK(small.exited && small.exit_code == 0);
}

static void no_descriptor_reaches_the_child(void)
{
    int fd = open("/dev/null", O_RDONLY); /* not close-on-exec */
    CHECK(fd > 2);
    char script[128];
    snprintf(script, sizeof script, "[ -e /proc/self/fd/%d ] && exit 9; exit 0", fd);
    iso_result r = sh(script, 10);
    close(fd);
    CHECK(r.exited && r.exit_code == 0);
}

/* Neither the instructor's secret nor the runner's switch that leaves its
 * sandbox open for a profiler run by hand (CUDALAB_PROFILING, in an
 * instructor's shell, say) reaches a child of the grader. */
static void the_environment_is_cleaned(void)
{
    setenv("CUDALAB_INSTRUCTOR_SEED", "s3cret", 1);
    setenv("CUDALAB_PROFILING", "1", 1);
    iso_set_clean_environment();
    iso_result r = sh("[ -n \"$CUDALAB_INSTRUCTOR_SEED\" ] && exit 9; [ -n \"$CUDALAB_PROFILING\" ] && exit 7; "
                      "[ -n \"$PATH\" ] || exit 8; exit 0", 10);
    unsetenv("CUDALAB_INSTRUCTOR_SEED");
    unsetenv("CUDALAB_PROFILING");
    CHECK(r.exited && r.exit_code == 0);
}

/* Jobs side by side: each is looked after (a later one's limit holds while
 * an earlier one is awaited), waiting for one neither reaps nor kills the
 * others, and cancelling stops what still runs. */
static void jobs_run_side_by_side(void)
{
    char logs[3][256];
    char *fast[] = {"sh", "-c", "exit 4", NULL};
    char *slow[] = {"sh", "-c", "sleep 0.3; exit 5", NULL};
    char *hang[] = {"sh", "-c", "sleep 100", NULL};
    char **argv[3] = {slow, fast, hang};
    iso_limits lim[3] = {{10, 0, 0, 0}, {10, 0, 0, 0}, {0.5, 0, 0, 0}};
    iso_job jobs[3];
    for (int i = 0; i < 3; i++) {
        snprintf(logs[i], sizeof logs[i], "/tmp/cudalab-unit-%d-job%d.log", (int)getpid(), i);
        CHECK(iso_start(&jobs[i], argv[i], logs[i], &lim[i]) == 0);
    }
    iso_wait(jobs, 3, 1); /* the quick one, while the others go on */
    CHECK(jobs[1].done && jobs[1].result.exited && jobs[1].result.exit_code == 4);
    iso_wait(jobs, 3, 0); /* not reaped or killed by the wait for job 1 */
    CHECK(jobs[0].result.exited && jobs[0].result.exit_code == 5);
    CHECK(jobs[0].result.wall_s >= 0.25 && jobs[0].result.wall_s < 5);
    iso_wait(jobs, 3, 2);
    CHECK(jobs[2].result.timed_out && jobs[2].result.wall_s < 5);

    char *more[] = {"sh", "-c", "sleep 100", NULL};
    iso_limits long_limit = {60, 0, 0, 0};
    CHECK(iso_start(&jobs[0], more, logs[0], &long_limit) == 0);
    iso_cancel(jobs, 1);
    CHECK(jobs[0].done && jobs[0].result.cancelled && jobs[0].result.wall_s < 5);
    char how[96];
    iso_describe(&jobs[0].result, how, sizeof how);
    CHECK(strstr(how, "stopped") != NULL);
    for (int i = 0; i < 3; i++) unlink(logs[i]);
}

static void an_orphan_that_left_the_group_is_ended(void)
{
    CHECK(iso_adopt_orphans() == 0);
    const char *pid_file = "/tmp/cudalab-unit-orphan.pid";
    unlink(pid_file);
    char script[200];
    snprintf(script, sizeof script, "setsid sleep 30 & echo $! > %s; exit 0", pid_file);
    iso_result r = sh(script, 10);
    CHECK(r.exited && r.exit_code == 0);
    FILE *f = fopen(pid_file, "r");
    int pid = 0;
    CHECK(f && fscanf(f, "%d", &pid) == 1 && pid > 0);
    if (f) fclose(f);
    unlink(pid_file);
    CHECK(pid > 0 && kill(pid, 0) != 0 && errno == ESRCH);
}

/* A child that says it is ready on its stdin, then waits there for the
 * word (the fast stage's runner, a ladder's), and whose clock starts when
 * it is told to go: 0.8 s of waiting for the word do not count against
 * its 1 s. */
static void a_fed_child_waits_for_the_word_on_its_own_time(void)
{
    snprintf(log_path, sizeof log_path, "/tmp/cudalab-unit-%d.log", (int)getpid());
    unlink(log_path);
    char *argv[] = {"sh", "-c", "printf r >&0; read word; sleep 0.5; echo \"heard $word\"", NULL};
    iso_limits lim = {1.0, 0, 0, 0};
    iso_job job;
    int word;
    CHECK(iso_start_waiting(&job, argv, log_path, &lim, &word) == 0);
    double t0 = iso_now_s();
    iso_wait_ready(word, 5);
    CHECK(iso_now_s() - t0 < 1.0); /* the byte came: no wait for the limit */
    nanosleep(&(struct timespec){0, 800000000}, NULL);
    iso_go(&job, word);
    iso_wait(&job, 1, 0);
    CHECK(job.result.exited && job.result.exit_code == 0 && !job.result.timed_out);
    CHECK(job.result.wall_s > 0.4 && job.result.wall_s < 0.9);
    char *tail = iso_log_tail(log_path, 256);
    int heard = tail && strstr(tail, "heard g") != NULL;
    free(tail);
    CHECK(heard);
}

/* A wait with a time of its own returns while the job goes on; stopping
 * it then reads as a time-out (the work stage's limit inside a run of
 * work's and right's calls). */
static void a_wait_for_a_while_and_a_time_out_of_ones_own(void)
{
    char log[256];
    snprintf(log, sizeof log, "/tmp/cudalab-unit-%d-waitfor.log", (int)getpid());
    char *slow[] = {"sh", "-c", "sleep 100", NULL};
    iso_limits lim = {60, 0, 0, 0};
    iso_job job;
    CHECK(iso_start(&job, slow, log, &lim) == 0);
    double t0 = iso_now_s();
    CHECK(iso_wait_for(&job, 1, 0, 0.1) == 0 && !job.done);
    CHECK(iso_now_s() - t0 >= 0.09 && iso_now_s() - t0 < 5);
    iso_time_out(&job);
    CHECK(job.done && job.result.timed_out && !job.result.exited && job.result.wall_s < 5);
    char *quick[] = {"sh", "-c", "exit 3", NULL};
    CHECK(iso_start(&job, quick, log, &lim) == 0);
    CHECK(iso_wait_for(&job, 1, 0, 30) == 1 && job.result.exit_code == 3);
    iso_time_out(&job); /* a job already done stays as it ended */
    CHECK(!job.result.timed_out && job.result.exited);
    unlink(log);
}

const unit_test isolate_tests[] = {
    TEST(a_fed_child_waits_for_the_word_on_its_own_time),
    TEST(a_flood_of_output_is_stopped_at_the_log_limit),
    TEST(a_file_past_the_file_limit_stops_the_child), TEST(no_descriptor_reaches_the_child),
    TEST(the_environment_is_cleaned), TEST(an_orphan_that_left_the_group_is_ended),
    TEST(jobs_run_side_by_side), TEST(a_wait_for_a_while_and_a_time_out_of_ones_own),
    TEST(racecheck_warnings_count_as_hazards),
    TEST(a_clean_exit), TEST(an_exit_code_comes_back), TEST(a_crash_is_a_signal),
    TEST(a_hang_is_stopped_at_the_limit), TEST(a_hang_in_a_grandchild_is_stopped_too),
    TEST(output_goes_to_the_log), TEST(the_log_tail_starts_at_a_line),
    TEST(a_missing_program_is_not_started), TEST(a_memory_hog_is_stopped_at_the_limit),
    TEST(a_small_child_is_not_stopped_by_the_memory_limit),
};
const int isolate_tests_count = sizeof isolate_tests / sizeof isolate_tests[0];
