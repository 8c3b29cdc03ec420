/* probe_sandbox.cpp - the runner's seccomp sandbox (grader/runner/lockdown.cu)
 * tried call by call, on the CPU: each probe runs in a child that closes
 * the sandbox and then makes one system call directly (as a submission
 * that found libc's syscall() by scanning memory could). Prints one line
 * per probe: PASS name, or FAIL name: what happened.
 *
 * Built by tests/run.sh with the CPU emulation's headers, like the
 * emulated runner.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../grader/runner/runner.h"

typedef enum { STOPPED, REFUSED, ALLOWED } expect;

static const char *record_path;

static void *thread_body(void *arg) { return arg; }

/* The call under test; returns what it returned, errno in *err. */
static long attempt(const char *name, int *err)
{
    long r = 0;
    errno = 0;
    if (!strcmp(name, "fork")) r = syscall(SYS_fork);
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
    else if (!strcmp(name, "memory")) r = malloc(64 << 20) ? 0 : -1;
#if defined(__x86_64__)
    else if (!strcmp(name, "x32_fork")) r = syscall(0x40000000 | SYS_fork);
#endif
    *err = errno;
    return r;
}

/* Run one probe in a child; returns what was seen, in words. */
static int probe(const char *name, expect want, char *seen, size_t size)
{
    char path[] = "/tmp/cudalab-sandbox-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) { snprintf(seen, size, "mkstemp failed"); return 0; }
    close(fd);
    record_path = path;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *rsp = fopen(path, "wb");
        const char *why = rsp ? lockdown(rsp) : "cannot open the record file";
        if (why) { fprintf(stderr, "lockdown: %s\n", why); _exit(3); }
        int err = 0;
        long r = attempt(name, &err);
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
    static const struct { const char *name; expect want; } probes[] = {
        {"fork", STOPPED}, {"execve", STOPPED}, {"setsid", STOPPED}, {"setpgid", STOPPED},
        {"kill_parent", STOPPED}, {"kill_everyone", STOPPED}, {"ptrace", STOPPED},
        {"process_vm_readv", STOPPED}, {"unshare", STOPPED}, {"io_uring_setup", STOPPED},
        {"setrlimit", STOPPED}, {"sigaction_sigsys", STOPPED},
#if defined(__x86_64__)
        {"x32_fork", STOPPED},
#endif
        {"open", REFUSED}, {"open_create", REFUSED}, {"unlink", REFUSED}, {"truncate", REFUSED},
        {"socket", REFUSED},
        {"kill_self", ALLOWED}, {"getrlimit", ALLOWED}, {"thread", ALLOWED},
        {"write_stdout", ALLOWED}, {"memory", ALLOWED},
    };
    static const char *const words[] = {"stopped", "refused", "allowed"};
    int failed = 0;
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
        char seen[300];
        int ok = probe(probes[i].name, probes[i].want, seen, sizeof seen);
        failed += !ok;
        if (ok) printf("PASS sandbox/%s_is_%s\n", probes[i].name, words[probes[i].want]);
        else printf("FAIL sandbox/%s_is_%s: %s\n", probes[i].name, words[probes[i].want], seen);
    }
    return failed ? 1 : 0;
}
