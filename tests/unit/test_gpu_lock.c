/* test_gpu_lock.c - gradings taking turns on the GPU, played by forked
 * children that take the lock and say when they got it (no GPU needed). */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "gpu_lock.h"
#include "isolate.h"

static char dir[64];

static void fresh_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cudalab-unit-lock-XXXXXX");
    if (!mkdtemp(dir)) dir[0] = 0;
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* A child that waits `delay_s`, takes the lock, writes the time it got it
 * (seconds since `t0`) to `out`, holds it for `hold_s` and exits. It first
 * closes the parent's lock (`parents`, or NULL), which it inherited: a
 * grader's children exec at once, which closes it. Gives up after 10 s
 * (alarm), so a broken lock fails the test instead of hanging. */
static pid_t taker(gpu_use use, double delay_s, double hold_s, double t0, int out,
                   gpu_lock *parents)
{
    pid_t pid = fork();
    if (pid != 0) return pid;
    if (parents) gpu_lock_release(parents);
    alarm(10);
    usleep((useconds_t)(delay_s * 1e6));
    gpu_lock l;
    char why[256];
    if (gpu_lock_take(dir, use, &l, why, sizeof why) != 0) _exit(2);
    double got = iso_now_s() - t0;
    if (write(out, &got, sizeof got) != (ssize_t)sizeof got) _exit(3);
    usleep((useconds_t)(hold_s * 1e6));
    gpu_lock_release(&l);
    _exit(0);
}

static int reaped_cleanly(pid_t pid)
{
    int status;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static double read_time(int fd)
{
    double t = -1;
    if (read(fd, &t, sizeof t) != (ssize_t)sizeof t) return -1;
    return t;
}

/* A fresh lock folder, and the lock held shared in it: 1 when done. */
static int shared_in_a_fresh_dir(gpu_lock *mine)
{
    fresh_dir();
    char why[256];
    return dir[0] && gpu_lock_take(dir, GPU_SHARED, mine, why, sizeof why) == 0;
}

static void checks_share_the_gpu(void)
{
    gpu_lock mine;
    CHECK(shared_in_a_fresh_dir(&mine));
    int p[2];
    CHECK(pipe(p) == 0);
    double t0 = iso_now_s();
    pid_t other = taker(GPU_SHARED, 0, 0, t0, p[1], &mine);
    close(p[1]);
    double got = read_time(p[0]);
    gpu_lock_release(&mine);
    CHECK(reaped_cleanly(other));
    close(p[0]);
    remove_dir();
    CHECK(got >= 0 && got < 1.0); /* did not wait for our shared hold */
}

static void timing_waits_for_every_check(void)
{
    gpu_lock mine;
    CHECK(shared_in_a_fresh_dir(&mine));
    int p[2];
    CHECK(pipe(p) == 0);
    double t0 = iso_now_s();
    pid_t timer = taker(GPU_EXCLUSIVE, 0, 0, t0, p[1], &mine);
    close(p[1]);
    usleep(400000);
    double released = iso_now_s() - t0;
    gpu_lock_release(&mine);
    double got = read_time(p[0]);
    CHECK(reaped_cleanly(timer));
    close(p[0]);
    remove_dir();
    CHECK(got >= released);
}

/* Holder: shared. Then a timer asks (and waits); then a check asks: the
 * check must not slip in beside the first holder, ahead of the timer. */
static void a_waiting_timer_goes_before_later_checks(void)
{
    gpu_lock mine;
    CHECK(shared_in_a_fresh_dir(&mine));
    int timer_pipe[2], check_pipe[2];
    CHECK(pipe(timer_pipe) == 0 && pipe(check_pipe) == 0);
    double t0 = iso_now_s();
    pid_t timer = taker(GPU_EXCLUSIVE, 0, 0.3, t0, timer_pipe[1], &mine);
    pid_t check = taker(GPU_SHARED, 0.2, 0, t0, check_pipe[1], &mine);
    close(timer_pipe[1]), close(check_pipe[1]);
    usleep(500000);
    gpu_lock_release(&mine);
    double timer_got = read_time(timer_pipe[0]), check_got = read_time(check_pipe[0]);
    int clean = reaped_cleanly(timer) & reaped_cleanly(check);
    close(timer_pipe[0]), close(check_pipe[0]);
    remove_dir();
    CHECK(clean);
    CHECK(timer_got >= 0.45);                /* after our release */
    CHECK(check_got >= timer_got + 0.25);    /* after the timer's hold */
}

/* Holder: shared. A timer asks, a check asks, a second timer asks, each
 * waiting. Once we let go, both timers go one after the other, and the
 * check that asked before the second timer waits for both: it would
 * otherwise cost the second timer a wait for the check's run. */
static void timings_go_back_to_back(void)
{
    gpu_lock mine;
    CHECK(shared_in_a_fresh_dir(&mine));
    int first_pipe[2], check_pipe[2], second_pipe[2];
    CHECK(pipe(first_pipe) == 0 && pipe(check_pipe) == 0 && pipe(second_pipe) == 0);
    double t0 = iso_now_s();
    pid_t first = taker(GPU_EXCLUSIVE, 0, 0.3, t0, first_pipe[1], &mine);
    pid_t check = taker(GPU_SHARED, 0.15, 0, t0, check_pipe[1], &mine);
    pid_t second = taker(GPU_EXCLUSIVE, 0.3, 0.3, t0, second_pipe[1], &mine);
    close(first_pipe[1]), close(check_pipe[1]), close(second_pipe[1]);
    usleep(500000);
    gpu_lock_release(&mine);
    double a = read_time(first_pipe[0]), b = read_time(second_pipe[0]);
    double check_got = read_time(check_pipe[0]);
    int clean = reaped_cleanly(first) & reaped_cleanly(check) & reaped_cleanly(second);
    close(first_pipe[0]), close(check_pipe[0]), close(second_pipe[0]);
    remove_dir();
    double earlier = a < b ? a : b, later = a < b ? b : a; /* either timer may go first */
    CHECK(clean);
    CHECK(earlier >= 0.45);                /* after our release */
    CHECK(later >= earlier + 0.25);        /* one timing at a time */
    CHECK(check_got >= later + 0.25);      /* after both */
}

static void see_gpus(const char *visible)
{
    if (visible) setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    else unsetenv("CUDA_VISIBLE_DEVICES");
}

/* We hold the lock exclusively for hold_s seconds, seeing holder_gpus as
 * CUDA_VISIBLE_DEVICES (NULL: unset), while a taker that sees taker_gpus
 * asks for it its own way: the seconds after which it got it, or -1 when
 * the test itself could not run. */
static double taker_beside(const char *holder_gpus, const char *taker_gpus, gpu_use use,
                           double hold_s)
{
    fresh_dir();
    if (!dir[0]) return -1;
    see_gpus(holder_gpus);
    gpu_lock mine;
    char why[256];
    int took = gpu_lock_take(dir, GPU_EXCLUSIVE, &mine, why, sizeof why);
    see_gpus(taker_gpus);
    int p[2];
    int piped = took == 0 && pipe(p) == 0;
    double t0 = iso_now_s();
    pid_t other = piped ? taker(use, 0, 0, t0, p[1], &mine) : -1;
    if (piped) close(p[1]);
    usleep((useconds_t)(hold_s * 1e6));
    gpu_lock_release(&mine);
    double got = piped ? read_time(p[0]) : -1;
    int clean = other > 0 && reaped_cleanly(other);
    if (piped) close(p[0]);
    unsetenv("CUDA_VISIBLE_DEVICES");
    remove_dir();
    return clean ? got : -1;
}

static void other_gpus_do_not_wait(void)
{
    double got = taker_beside("0", "1", GPU_EXCLUSIVE, 0.4);
    CHECK(got >= 0 && got < 0.35); /* at once, not after our release */
}

/* A class batch sets CUDA_VISIBLE_DEVICES=0 (or "0,1": it uses the first);
 * a grading started by hand sets nothing and uses GPU 0 too: one lock. */
static void unset_and_first_of_a_list_mean_the_same_gpu(void)
{
    CHECK(taker_beside("0,1", NULL, GPU_SHARED, 0.4) >= 0.35); /* after our release */
}

static void a_folder_that_is_not_there_is_said(void)
{
    gpu_lock l;
    char why[256] = "";
    CHECK(gpu_lock_take("/nonexistent/cudalab", GPU_SHARED, &l, why, sizeof why) == -1);
    CHECK(l.fd == -1);
    CHECK(strstr(why, "/nonexistent/cudalab/gpu-") != NULL);
    gpu_lock_release(&l); /* harmless when not held */
}

const unit_test gpu_lock_tests[] = {
    TEST(checks_share_the_gpu),
    TEST(timing_waits_for_every_check),
    TEST(a_waiting_timer_goes_before_later_checks),
    TEST(timings_go_back_to_back),
    TEST(other_gpus_do_not_wait),
    TEST(unset_and_first_of_a_list_mean_the_same_gpu),
    TEST(a_folder_that_is_not_there_is_said),
};
const int gpu_lock_tests_count = sizeof gpu_lock_tests / sizeof gpu_lock_tests[0];
