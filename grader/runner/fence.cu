/* fence.cu - the thread that runs graded code.
 *
 * The sandbox (lockdown.cu) keeps graded code inside this process. The
 * fence keeps it away from what the process reports: every call of a lab
 * function (the submission's, and the trusted ones timed beside it, made
 * the same way) runs on one thread of its own, whose seccomp filter adds
 * to the sandbox's: that thread may not write to, move, duplicate or close
 * the response file, start threads, install signal handlers or change the
 * filters (lockdown_fence). The runner's own thread, the only one that
 * writes records, waits while a call runs; and no graded code runs while
 * it writes, since there is no thread graded code could have started, no
 * handler it could have installed, and no CUDA host callback it may queue
 * (grader/symbols.c refuses those). grader/SECURITY.md says what is left.
 *
 * Graded code could also tell the runner's thread that its call is over
 * while it goes on running (the semaphores are in memory it can reach), and
 * rewrite the runner's stack or data as the runner works. So fence_run
 * only believes "done" once the kernel says that thread is asleep on its
 * semaphore for the next job (/proc/self/task/TID/syscall, opened before
 * the sandbox closed; lockdown_fence keeps graded code off that
 * descriptor), and only the runner wakes it from there.
 *
 * Trusted code that fails on the fenced thread (a RUNNER_CHECK, or the
 * sandbox stopping a system call) cannot write its own record either: it
 * leaves its message here with fence_fail and stops, and fence_run hands
 * the message to the runner's thread, which writes it.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

static sem_t job_posted, job_done, go;
static void (*job_fn)(void *);
static void *job_arg;
static const char *start_error;
static int fenced;
static long fence_tid;
static int watch_fd = -1; /* /proc/self/task/<fence_tid>/syscall */

/* Set by fence_fail, read by fence_run once job_done is posted. */
static volatile int failed_code;
static char failed_message[sizeof(proto_fatal)];

static __thread int on_fence;

/* sem_wait until it takes the post (a signal may interrupt it). */
static void wait_on(sem_t *s)
{
    while (sem_wait(s) != 0) {
    }
}

int fence_here(void) { return on_fence; }

static void *fence_main(void *)
{
    on_fence = 1;
    fence_tid = syscall(SYS_gettid);
    sem_post(&job_done);
    wait_on(&go);
    /* A signal handler of the grader's (the sandbox's, the emulator's fault
     * report) still runs on this thread after a stack overflow. */
    static char alternate[64 << 10];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alternate;
    ss.ss_size = sizeof alternate;
    sigaltstack(&ss, NULL);
    start_error = fenced ? lockdown_fence(watch_fd) : NULL;
    sem_post(&job_done);
    if (start_error) return NULL;
    for (;;) {
        wait_on(&job_posted);
        job_fn(job_arg);
        sem_post(&job_done);
    }
}

const char *fence_start(void)
{
    if (sem_init(&job_posted, 0, 0) != 0 || sem_init(&job_done, 0, 0) != 0 ||
        sem_init(&go, 0, 0) != 0)
        return "cannot make its semaphores";
    pthread_t thread;
    if (pthread_create(&thread, NULL, fence_main, NULL) != 0) return "cannot start its thread";
    pthread_detach(thread);
    wait_on(&job_done);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/syscall", fence_tid);
    watch_fd = open(path, O_RDONLY | O_CLOEXEC);
    return watch_fd < 0 ? "cannot watch its thread (/proc/self/task/TID/syscall)" : NULL;
}

const char *fence_open(int with_filter)
{
    fenced = with_filter;
    sem_post(&go);
    wait_on(&job_done);
    return start_error;
}

/* 1 when the fenced thread sleeps in the futex of job_posted, 0 when it
 * does anything else, -1 when the kernel cannot be asked. */
static int fence_idle(void)
{
    char text[256];
    ssize_t n = pread(watch_fd, text, sizeof text - 1, 0);
    if (n <= 0) return -1;
    text[n] = 0;
    long nr;
    unsigned long long address;
    if (sscanf(text, "%ld %llx", &nr, &address) != 2) return 0; /* "running" */
    uintptr_t at = (uintptr_t)address, sem = (uintptr_t)&job_posted;
    return nr == SYS_futex && at >= sem && at < sem + sizeof job_posted;
}

int fence_run(void (*job)(void *), void *arg, char *message, size_t size)
{
    job_fn = job;
    job_arg = arg;
    sem_post(&job_posted);
    wait_on(&job_done);
    if (failed_code) {
        snprintf(message, size, "%s", failed_message);
        return failed_code;
    }
    /* Believed once the thread is back asleep (graded code still running
     * there keeps the runner waiting, until the stage's time is up). */
    for (int tries = 0;; tries++) {
        int idle = fence_idle();
        if (idle > 0) break;
        if (idle < 0) {
            snprintf(message, size, "cannot watch the thread that runs graded code");
            return RUNNER_EXIT_FATAL;
        }
        if (tries < 1000) {
            sched_yield();
        } else {
            struct timespec nap = {0, 50 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    /* Posts graded code made itself would end the next wait early. */
    while (sem_trywait(&job_done) == 0) {
    }
    return 0;
}

void fence_fail(int code, const char *message)
{
    size_t n = strlen(message);
    if (n >= sizeof failed_message) n = sizeof failed_message - 1;
    memcpy(failed_message, message, n);
    failed_message[n] = 0;
    failed_code = code;
    sem_post(&job_done);
    for (;;) pause();
}
