/* probe_sandbox.cpp - the runner's seccomp sandbox (grader/runner/lockdown.cu)
 * tried call by call, on the CPU: each probe runs in a child that closes
 * the sandbox and then makes one system call directly (as a submission
 * that found libc's syscall() by scanning memory could). The fenced probes
 * make it on the thread that runs graded code (grader/runner/fence.cu), as
 * the runner does. Prints one line per probe: PASS name, or FAIL name:
 * what happened.
 *
 * Built by tests/run.sh with the CPU emulation's headers, like the
 * emulated runner.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../grader/runner/runner.h"

typedef enum { STOPPED, REFUSED, ALLOWED } expect;

static const char *record_path;
static int record_fd = -1;

static void ignore_signal(int) {}

static void *image_page(void) { return (void *)((uintptr_t)&record_path & ~(uintptr_t)4095); }

static void *thread_body(void *arg) { return arg; }

/* The call under test; returns what it returned, errno in *err. */
static long attempt(const char *name, int *err)
{
    long r = 0;
    errno = 0;
    if (!strcmp(name, "fork")) {
        r = syscall(SYS_fork);
        if (r == 0) _exit(0); /* a fork that got through: the copy must not run on */
    }
    else if (!strcmp(name, "execve")) {
        char *argv[] = {(char *)"/bin/true", NULL};
        r = syscall(SYS_execve, "/bin/true", argv, NULL);
    } else if (!strcmp(name, "setsid")) r = syscall(SYS_setsid);
    else if (!strcmp(name, "setpgid")) r = syscall(SYS_setpgid, 0, 0);
    else if (!strcmp(name, "kill_parent")) r = syscall(SYS_kill, getppid(), 0);
    else if (!strcmp(name, "kill_everyone")) r = syscall(SYS_kill, -1, 0);
    else if (!strcmp(name, "kill_self")) r = syscall(SYS_kill, getpid(), 0);
    else if (!strcmp(name, "ptrace")) r = syscall(SYS_ptrace, 0 /* TRACEME */, 0, 0, 0);
    else if (!strcmp(name, "process_vm_readv")) r = syscall(SYS_process_vm_readv, getppid(), 0, 0, 0, 0, 0);
    else if (!strcmp(name, "unshare")) r = syscall(SYS_unshare, 0);
    else if (!strcmp(name, "io_uring_setup")) r = syscall(SYS_io_uring_setup, 1, NULL);
    else if (!strcmp(name, "setrlimit")) {
        struct rlimit big = {RLIM_INFINITY, RLIM_INFINITY};
        r = syscall(SYS_prlimit64, 0, RLIMIT_FSIZE, &big, NULL);
    } else if (!strcmp(name, "getrlimit")) {
        struct rlimit now;
        r = syscall(SYS_prlimit64, 0, RLIMIT_FSIZE, NULL, &now);
    } else if (!strcmp(name, "sigaction_sigsys")) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_IGN;
        r = sigaction(SIGSYS, &sa, NULL);
    } else if (!strcmp(name, "open")) r = syscall(SYS_openat, AT_FDCWD, record_path, O_RDONLY);
    else if (!strcmp(name, "open_create")) r = syscall(SYS_openat, AT_FDCWD, "/tmp/cudalab-sandbox-x", O_WRONLY | O_CREAT, 0600);
    else if (!strcmp(name, "unlink")) r = syscall(SYS_unlinkat, AT_FDCWD, record_path, 0);
    else if (!strcmp(name, "truncate")) r = syscall(SYS_truncate, record_path, 0);
    else if (!strcmp(name, "socket")) r = syscall(SYS_socket, 1 /* AF_UNIX */, 1, 0);
    else if (!strcmp(name, "thread")) {
        pthread_t t;
        r = pthread_create(&t, NULL, thread_body, NULL);
        if (r == 0) r = pthread_join(t, NULL);
        if (r) errno = (int)r, r = -1;
    } else if (!strcmp(name, "write_stdout")) r = write(1, "", 0);
    else if (!strcmp(name, "write_response")) r = write(record_fd, "forged", 6);
    else if (!strcmp(name, "pwrite_response")) r = pwrite(record_fd, "forged", 6, 0);
    else if (!strcmp(name, "write_response_high_bits"))
        r = syscall(SYS_write, (long)record_fd | (1L << 32), "forged", 6);
    else if (!strcmp(name, "seek_response")) r = lseek(record_fd, 0, SEEK_SET);
    else if (!strcmp(name, "dup_response")) r = dup(record_fd);
    else if (!strcmp(name, "dup_over_response")) r = dup2(1, record_fd);
    else if (!strcmp(name, "close_response")) r = close(record_fd);
    else if (!strcmp(name, "fcntl_response")) r = fcntl(record_fd, F_GETFL);
    else if (!strcmp(name, "raw_thread")) {
        /* The flags of a thread, signals not blocked: stopped before the
         * child exists, so the stack does not matter. */
        r = syscall(SYS_clone, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
                                   CLONE_SYSVSEM, NULL, NULL, NULL, 0);
    } else if (!strcmp(name, "signal_handler")) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = ignore_signal;
        r = sigaction(SIGUSR1, &sa, NULL);
    } else if (!strcmp(name, "new_filter")) r = prctl(PR_SET_SECCOMP, 2, NULL);
    else if (!strcmp(name, "memory")) r = malloc(64 << 20) ? 0 : -1;
    /* The runner's own executable: this program's data page. */
    else if (!strcmp(name, "mprotect_image")) r = mprotect(image_page(), 4096, PROT_READ | PROT_WRITE);
    else if (!strcmp(name, "mmap_over_image"))
        r = (long)mmap(image_page(), 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    else if (!strcmp(name, "munmap_image")) r = munmap(image_page(), 4096);
    else if (!strcmp(name, "mremap_onto_image")) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        r = (long)syscall(SYS_mremap, p, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, image_page());
    } else if (!strcmp(name, "mprotect_heap")) {
        void *p = aligned_alloc(4096, 4096);
        r = p ? mprotect(p, 4096, PROT_READ | PROT_WRITE) : -1;
    }
    /* fence_start opens the file it watches the fenced thread through
     * right after this program opened the record file. */
    else if (!strcmp(name, "close_watch")) r = close(record_fd + 1);
    else if (!strcmp(name, "dup_over_watch")) r = dup2(1, record_fd + 1);
#if defined(__x86_64__)
    else if (!strcmp(name, "x32_fork")) r = syscall(0x40000000 | SYS_fork);
#endif
    *err = errno;
    return r;
}

typedef struct {
    const char *name;
    long r;
    int err;
} fenced_attempt;

static void attempt_job(void *arg)
{
    fenced_attempt *a = (fenced_attempt *)arg;
    a->r = attempt(a->name, &a->err);
}

/* Where a probe makes its call: the runner's thread, the fenced thread,
 * or a thread started before the sandbox closed, as the CUDA libraries
 * start theirs while CUDA comes up (a host function the driver calls runs
 * on one of those). */
enum { ON_RUNNER, ON_FENCE, ON_EARLY_THREAD };

static int early_go[2];

static void *early_thread(void *arg)
{
    char byte;
    if (read(early_go[0], &byte, 1) != 1) return NULL;
    attempt_job(arg);
    return NULL;
}

/* Run one probe in a child, fenced or not; returns what was seen, in words. */
static int probe(const char *name, int where, expect want, char *seen, size_t size)
{
    const int fenced = where == ON_FENCE;
    char path[] = "/tmp/cudalab-sandbox-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) { snprintf(seen, size, "mkstemp failed"); return 0; }
    close(fd);
    record_path = path;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10); /* a probe that got through may leave the child stuck */
        record_fd = open(path, O_WRONLY | O_TRUNC);
        /* As the runner does: the fenced thread starts before the sandbox
         * closes. */
        const char *why = record_fd >= 0 ? NULL : "cannot open the record file";
        fenced_attempt early = {name, 0, 0};
        pthread_t early_id;
        if (!why && where == ON_EARLY_THREAD &&
            (pipe(early_go) != 0 || pthread_create(&early_id, NULL, early_thread, &early) != 0))
            why = "cannot start the early thread";
        if (!why && fenced) why = fence_start();
        if (!why) why = lockdown(record_fd);
        if (!why && fenced) why = fence_open(1);
        if (why) { fprintf(stderr, "lockdown: %s\n", why); _exit(3); }
        int err = 0;
        long r;
        if (fenced) {
            /* As the runner does: a failure on the fenced thread is written
             * by this one. */
            fenced_attempt a = {name, 0, 0};
            char message[sizeof(proto_fatal)];
            int code = fence_run(attempt_job, &a, message, sizeof message);
            if (code) {
                proto_rec_head head = {PROTO_MAGIC, REC_FATAL, -1, 0};
                proto_fatal fatal;
                memset(&fatal, 0, sizeof fatal);
                snprintf(fatal.message, sizeof fatal.message, "%s", message);
                if (write(record_fd, &head, sizeof head) < 0 ||
                    write(record_fd, &fatal, sizeof fatal) < 0)
                    _exit(4);
                _exit(code);
            }
            r = a.r;
            err = a.err;
        } else if (where == ON_EARLY_THREAD) {
            if (write(early_go[1], "", 1) != 1 || pthread_join(early_id, NULL) != 0) _exit(5);
            r = early.r;
            err = early.err;
        } else {
            r = attempt(name, &err);
        }
        if (r < 0 && err == EACCES) _exit(10);
        if (r >= 0) _exit(11);
        _exit(12);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char text[1024] = "";
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    unlink(path);
    unlink("/tmp/cudalab-sandbox-x");
    const char *message = n > sizeof(proto_rec_head) ? text + sizeof(proto_rec_head) : "";
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    snprintf(seen, size, "exit %d, record '%.120s'", code, message);
    switch (want) {
    case STOPPED:
        return code == RUNNER_EXIT_SANDBOX && !strncmp(message, LOCKDOWN_FATAL, strlen(LOCKDOWN_FATAL));
    case REFUSED: return code == 10;
    case ALLOWED: return code == 11;
    }
    return 0;
}

int main(void)
{
    /* where: 0 the runner's thread, 1 the fenced one, 2 an early thread. */
    static const struct { const char *name; int where; expect want; } probes[] = {
        {"fork", 0, STOPPED}, {"execve", 0, STOPPED}, {"setsid", 0, STOPPED},
        {"setpgid", 0, STOPPED}, {"kill_parent", 0, STOPPED}, {"kill_everyone", 0, STOPPED},
        {"ptrace", 0, STOPPED}, {"process_vm_readv", 0, STOPPED}, {"unshare", 0, STOPPED},
        {"io_uring_setup", 0, STOPPED}, {"setrlimit", 0, STOPPED}, {"sigaction_sigsys", 0, STOPPED},
#if defined(__x86_64__)
        {"x32_fork", 0, STOPPED},
#endif
        {"open", 0, REFUSED}, {"open_create", 0, REFUSED}, {"unlink", 0, REFUSED},
        {"truncate", 0, REFUSED}, {"socket", 0, REFUSED},
        {"kill_self", 0, ALLOWED}, {"getrlimit", 0, ALLOWED}, {"thread", 0, ALLOWED},
        {"write_stdout", 0, ALLOWED}, {"memory", 0, ALLOWED}, {"write_response", 0, ALLOWED},
        /* On the thread that runs graded code. */
        {"write_response", 1, STOPPED}, {"pwrite_response", 1, STOPPED},
        {"write_response_high_bits", 1, STOPPED}, {"seek_response", 1, STOPPED},
        {"dup_response", 1, STOPPED}, {"dup_over_response", 1, STOPPED},
        {"close_response", 1, STOPPED}, {"fcntl_response", 1, STOPPED},
        {"raw_thread", 1, STOPPED}, {"signal_handler", 1, STOPPED}, {"new_filter", 1, STOPPED},
        {"fork", 1, STOPPED}, {"open", 1, REFUSED},
        {"mprotect_image", 1, STOPPED}, {"mmap_over_image", 1, STOPPED},
        {"munmap_image", 1, STOPPED}, {"mremap_onto_image", 1, STOPPED},
        {"close_watch", 1, STOPPED}, {"dup_over_watch", 1, STOPPED},
        {"write_stdout", 1, ALLOWED}, {"memory", 1, ALLOWED}, {"kill_self", 1, ALLOWED},
        {"mprotect_heap", 1, ALLOWED}, {"mprotect_image", 0, ALLOWED},
        /* On a thread that was there before the sandbox closed. */
        {"open", 2, REFUSED}, {"socket", 2, REFUSED}, {"fork", 2, STOPPED},
        {"kill_parent", 2, STOPPED}, {"setsid", 2, STOPPED}, {"write_stdout", 2, ALLOWED},
    };
    static const char *const words[] = {"stopped", "refused", "allowed"};
    int failed = 0;
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
        char seen[300];
        int ok = probe(probes[i].name, probes[i].where, probes[i].want, seen, sizeof seen);
        failed += !ok;
        static const char *const places[] = {"", "fenced_", "early_thread_"};
        const char *where = places[probes[i].where];
        if (ok) printf("PASS sandbox/%s%s_is_%s\n", where, probes[i].name, words[probes[i].want]);
        else printf("FAIL sandbox/%s%s_is_%s: %s\n", where, probes[i].name, words[probes[i].want], seen);
    }
    return failed ? 1 : 0;
}
