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
 * Trusted code that fails on the fenced thread (a RUNNER_CHECK, or the
 * sandbox stopping a system call) cannot write its own record either: it
 * leaves its message here with fence_fail and stops, and fence_run hands
 * the message to the runner's thread, which writes it.
 */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

static sem_t job_posted, job_done;
static void (*job_fn)(void *);
static void *job_arg;
static const char *start_error;
static int fenced;

/* Set by fence_fail, read by fence_run once job_done is posted. */
static volatile int failed_code;
static char failed_message[sizeof(proto_fatal)];

static __thread int on_fence;

int fence_here(void) { return on_fence; }

static void *fence_main(void *)
{
    on_fence = 1;
    /* A signal handler of the grader's (the sandbox's, the emulator's fault
     * report) still runs on this thread after a stack overflow. */
    static char alternate[64 << 10];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alternate;
    ss.ss_size = sizeof alternate;
    sigaltstack(&ss, NULL);
    start_error = fenced ? lockdown_fence() : NULL;
    sem_post(&job_done);
    if (start_error) return NULL;
    for (;;) {
        while (sem_wait(&job_posted) != 0) {
        }
        job_fn(job_arg);
        sem_post(&job_done);
    }
}

const char *fence_open(int with_filter)
{
    fenced = with_filter;
    if (sem_init(&job_posted, 0, 0) != 0 || sem_init(&job_done, 0, 0) != 0)
        return "cannot make its semaphores";
    pthread_t thread;
    if (pthread_create(&thread, NULL, fence_main, NULL) != 0) return "cannot start its thread";
    pthread_detach(thread);
    while (sem_wait(&job_done) != 0) {
    }
    return start_error;
}

int fence_run(void (*job)(void *), void *arg, char *message, size_t size)
{
    job_fn = job;
    job_arg = arg;
    sem_post(&job_posted);
    while (sem_wait(&job_done) != 0) {
    }
    if (!failed_code) return 0;
    snprintf(message, size, "%s", failed_message);
    return failed_code;
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
