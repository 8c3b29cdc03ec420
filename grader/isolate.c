/* isolate.c - see isolate.h. */
#define _POSIX_C_SOURCE 200809L
#include "isolate.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The jobs running now, so Ctrl-C on the grader takes their process
 * groups down too and the orphan hunt spares them. */
enum { ISO_MAX_RUNNING = 16 };
static volatile sig_atomic_t iso_running[ISO_MAX_RUNNING];

static void iso_on_interrupt(int sig)
{
    for (int i = 0; i < ISO_MAX_RUNNING; i++)
        if (iso_running[i] > 0) kill(-(pid_t)iso_running[i], SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int iso_register(pid_t pid)
{
    for (int i = 0; i < ISO_MAX_RUNNING; i++)
        if (iso_running[i] == 0) {
            iso_running[i] = pid;
            return 0;
        }
    return -1;
}

static void iso_unregister(pid_t pid)
{
    for (int i = 0; i < ISO_MAX_RUNNING; i++)
        if (iso_running[i] == pid) iso_running[i] = 0;
}

static int iso_is_running(pid_t pid)
{
    for (int i = 0; i < ISO_MAX_RUNNING; i++)
        if (iso_running[i] == pid) return 1;
    return 0;
}

int iso_spare(int pid)
{
    return iso_register((pid_t)pid);
}

void iso_unspare(int pid)
{
    iso_unregister((pid_t)pid);
}

static long iso_memory_limit_mb;

void iso_set_memory_limit_mb(long mb)
{
    iso_memory_limit_mb = mb > 0 ? mb : 0;
}

long iso_memory_limit(void)
{
    return iso_memory_limit_mb;
}

/* One process of /proc, as the fields of its stat line that we use. */
typedef struct {
    pid_t pid;
    long ppid, pgrp, rss_pages;
} iso_process;

/* Call fn for every process readable in /proc; returns how many fn
 * counted (its return values summed). */
static long iso_each_process(long (*fn)(const iso_process *, long), long arg)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    long total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0])) continue;
        char path[300], buf[1024];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = 0;
        /* Fields after the command name, which may hold spaces: state,
         * ppid, pgrp ... rss is field 24. */
        char *p = strrchr(buf, ')');
        iso_process proc = {(pid_t)atol(e->d_name), 0, 0, 0};
        if (p && sscanf(p + 2, "%*c %ld %ld %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
                               "%*d %*d %*d %*d %*u %*u %ld", &proc.ppid, &proc.pgrp,
                        &proc.rss_pages) == 3)
            total += fn(&proc, arg);
    }
    closedir(d);
    return total;
}

static long iso_rss_if_in_group(const iso_process *p, long group)
{
    return p->pgrp == group ? p->rss_pages : 0;
}

/* Resident memory of every process in the group, in MB: the child may run
 * others (compute-sanitizer runs the runner). */
static long iso_group_rss_mb(pid_t group)
{
    long page_kb = sysconf(_SC_PAGESIZE) / 1024;
    return iso_each_process(iso_rss_if_in_group, (long)group) * page_kb / 1024;
}

double iso_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static int iso_clean_env;

const char *const ISO_KEPT_ENVIRONMENT[] = {
    "PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER", NULL};

void iso_set_clean_environment(void)
{
    iso_clean_env = 1;
}

static int iso_reaper;

int iso_adopt_orphans(void)
{
#ifdef PR_SET_CHILD_SUBREAPER
    iso_reaper = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
#endif
    return iso_reaper ? 0 : -1;
}

static long iso_kill_if_child(const iso_process *p, long parent)
{
    if (p->ppid != parent || iso_is_running(p->pid)) return 0;
    kill(p->pid, SIGKILL);
    /* reaped by pid, so a running job's exit is left for its owner */
    return waitpid(p->pid, NULL, WNOHANG) == p->pid ? 0 : 1;
}

/* Kill and reap every child of ours still alive that is not a running
 * job: orphans that left their process group and were handed to us
 * (iso_adopt_orphans). */
static void iso_end_orphans(void)
{
    if (!iso_reaper) return;
    for (int round = 0; round < 100; round++) {
        long found = iso_each_process(iso_kill_if_child, (long)getpid());
        if (!found) return;
        struct timespec nap = {0, 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

static void iso_child(char *const argv[], const char *log_path, const iso_limits *lim,
                      int stdin_fd)
{
    setpgid(0, 0);
    int in = stdin_fd >= 0 ? stdin_fd : open("/dev/null", O_RDONLY);
    int out = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in < 0 || out < 0) _exit(127);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    /* Nothing the grader (or whoever ran it) had open reaches the child:
     * no lock, no gradebook, no other student's files. */
    long max_fd = sysconf(_SC_OPEN_MAX);
    if (max_fd < 0 || max_fd > 65536) max_fd = 65536;
    for (int fd = STDERR_FILENO + 1; fd < max_fd; fd++) close(fd);
    if (lim->file_mb > 0) {
        struct rlimit fs = {(rlim_t)lim->file_mb << 20, (rlim_t)lim->file_mb << 20};
        setrlimit(RLIMIT_FSIZE, &fs);
    }
    signal(SIGXFSZ, SIG_DFL);
    signal(SIGPIPE, SIG_DFL); /* the grader ignores it (grade.c) */
    /* An unlimited stack makes the kernel map libraries and memory below
     * the program instead of above it, which the runner's fence relies on
     * (lockdown_fence in grader/runner/lockdown.cu): a finite one keeps the
     * usual layout. */
    struct rlimit stack;
    if (getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur == RLIM_INFINITY) {
        stack.rlim_cur = (rlim_t)64 << 20;
        setrlimit(RLIMIT_STACK, &stack);
    }
    static char *kept[sizeof ISO_KEPT_ENVIRONMENT / sizeof *ISO_KEPT_ENVIRONMENT];
    if (iso_clean_env) {
        int n = 0;
        for (int i = 0; ISO_KEPT_ENVIRONMENT[i]; i++) {
            const char *name = ISO_KEPT_ENVIRONMENT[i];
            const char *v = getenv(name);
            if (!v) continue;
            size_t len = strlen(name) + strlen(v) + 2;
            kept[n] = malloc(len);
            if (!kept[n]) _exit(127);
            snprintf(kept[n++], len, "%s=%s", name, v);
        }
        kept[n] = NULL;
        extern char **environ;
        environ = kept;
    }
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

static long iso_file_kb(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)(sb.st_size / 1024) : 0;
}

int iso_run(char *const argv[], const char *log_path, double limit_s,
            iso_result *r)
{
    iso_limits lim = {limit_s, iso_memory_limit_mb, 0, 0};
    return iso_run_with(argv, log_path, &lim, r);
}


int iso_run_with(char *const argv[], const char *log_path, const iso_limits *lim,
                 iso_result *r)
{
    iso_job job;
    if (iso_start(&job, argv, log_path, lim) != 0) {
        memset(r, 0, sizeof *r);
        return -1;
    }
    iso_wait(&job, 1, 0);
    *r = job.result;
    return 0;
}

/* iso_start with the child's stdin read from stdin_fd (the parent keeps
 * its own descriptor; -1: /dev/null). */
static int iso_start_fed(iso_job *job, char *const argv[], const char *log_path,
                         const iso_limits *lim, int stdin_fd)
{
    memset(job, 0, sizeof *job);
    job->limits = *lim;
    snprintf(job->log_path, sizeof job->log_path, "%s", log_path);
    signal(SIGINT, iso_on_interrupt);
    signal(SIGTERM, iso_on_interrupt);
    job->t0 = iso_now_s();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) iso_child(argv, log_path, lim, stdin_fd);
    setpgid(pid, pid); /* also here: no race with the child's own call */
    job->pid = pid;
    if (iso_register(pid) != 0) { /* more than ISO_MAX_RUNNING at once */
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return -1;
    }
    iso_result *r = &job->result;
    r->started = 1;
    r->memory_limit_mb = lim->memory_mb;
    r->log_limit_kb = lim->log_kb;
    r->file_limit_mb = lim->file_mb;
    return 0;
}

int iso_start(iso_job *job, char *const argv[], const char *log_path, const iso_limits *lim)
{
    return iso_start_fed(job, argv, log_path, lim, -1);
}

int iso_start_waiting(iso_job *job, char *const argv[], const char *log_path,
                      const iso_limits *limits, int *word)
{
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return -1;
    int started = iso_start_fed(job, argv, log_path, limits, pair[0]);
    close(pair[0]);
    if (started != 0) {
        close(pair[1]);
        return -1;
    }
    *word = pair[1];
    return 0;
}

void iso_wait_ready(int word, double limit_s)
{
    struct pollfd ready = {word, POLLIN, 0};
    char byte;
    if (poll(&ready, 1, (int)(limit_s * 1000)) == 1 && read(word, &byte, 1) < 0) {
        /* whatever happened, iso_wait will say how it ended */
    }
}

void iso_go(iso_job *job, int word)
{
    job->t0 = iso_now_s(); /* its limit counts from now, not from its start */
    /* A child that already died leaves a closed socket: no SIGPIPE for us. */
    void (*was)(int) = signal(SIGPIPE, SIG_IGN);
    if (write(word, "g", 1) != 1) { /* it died; iso_wait says how */
    }
    signal(SIGPIPE, was);
    close(word);
}

/* Why we ended a job (iso_job.ended_by_us); 0: it ended by itself. */
enum { ISO_TIMED_OUT = 1, ISO_OUT_OF_MEMORY, ISO_LOG_TOO_BIG, ISO_CANCELLED };

/* Stop a job's whole group now, for the reason given. */
static void iso_stop(iso_job *job, int why)
{
    kill(-job->pid, SIGKILL);
    kill(job->pid, SIGKILL);
    waitpid(job->pid, &job->status, 0);
    job->ended_by_us = why;
}

/* Look at a running job once: ended, or past a limit. 1 when it is over. */
static int iso_check(iso_job *job)
{
    pid_t done = waitpid(job->pid, &job->status, WNOHANG);
    if (done == job->pid) return 1;
    if (done < 0 && errno != EINTR) { /* lost: nothing of it can be read */
        job->ended_by_us = ISO_CANCELLED;
        return 1;
    }
    const iso_limits *lim = &job->limits;
    double now = iso_now_s();
    if (now - job->t0 > lim->time_s) {
        iso_stop(job, ISO_TIMED_OUT);
        return 1;
    }
    if ((lim->memory_mb || lim->log_kb) && now >= job->next_check) {
        job->next_check = now + 0.05;
        if (lim->memory_mb && iso_group_rss_mb(job->pid) > lim->memory_mb) {
            iso_stop(job, ISO_OUT_OF_MEMORY);
            return 1;
        }
        if (lim->log_kb && iso_file_kb(job->log_path) > lim->log_kb) {
            iso_stop(job, ISO_LOG_TOO_BIG);
            return 1;
        }
    }
    return 0;
}

/* A finished job's result, from how it ended. */
static void iso_finish(iso_job *job)
{
    iso_result *r = &job->result;
    kill(-job->pid, SIGKILL); /* whatever it left behind */
    iso_unregister(job->pid);
    job->done = 1;
    r->wall_s = iso_now_s() - job->t0;
    int status = job->status;
    switch (job->ended_by_us) {
    case ISO_TIMED_OUT: r->timed_out = 1; return;
    case ISO_OUT_OF_MEMORY: r->out_of_memory = 1; return;
    case ISO_LOG_TOO_BIG: r->log_too_big = 1; return;
    case ISO_CANCELLED: r->cancelled = 1; return;
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ && job->limits.file_mb) {
        r->file_too_big = 1;
        return;
    }
    if (WIFEXITED(status)) {
        r->exited = 1;
        r->exit_code = WEXITSTATUS(status);
        if (r->exit_code == 127) r->started = 0;
    } else if (WIFSIGNALED(status)) {
        r->signaled = 1;
        r->signal = WTERMSIG(status);
    }
}

int iso_wait_for(iso_job *jobs, int n, int which, double seconds)
{
    double until = iso_now_s() + seconds;
    for (;;) {
        for (int i = 0; i < n; i++)
            if (!jobs[i].done && iso_check(&jobs[i])) iso_finish(&jobs[i]);
        if (jobs[which].done || iso_now_s() >= until) break;
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (jobs[which].done) iso_end_orphans();
    return jobs[which].done;
}

void iso_wait(iso_job *jobs, int n, int which)
{
    iso_wait_for(jobs, n, which, INFINITY);
}

void iso_time_out(iso_job *job)
{
    if (job->done) return;
    iso_stop(job, ISO_TIMED_OUT);
    iso_finish(job);
    iso_end_orphans();
}

void iso_cancel(iso_job *jobs, int n)
{
    for (int i = 0; i < n; i++)
        if (!jobs[i].done) {
            iso_stop(&jobs[i], ISO_CANCELLED);
            iso_finish(&jobs[i]);
        }
    iso_end_orphans();
}

void iso_describe(const iso_result *r, char *buf, size_t size)
{
    if (r->cancelled)
        snprintf(buf, size, "stopped: an earlier run had already failed");
    else if (r->file_too_big)
        snprintf(buf, size, "stopped when a file it wrote passed %ld MB", r->file_limit_mb);
    else if (r->timed_out)
        snprintf(buf, size, "timed out after %.0f s", r->wall_s);
    else if (r->out_of_memory)
        snprintf(buf, size, "stopped after using more than %ld MB of host memory",
                 r->memory_limit_mb);
    else if (r->log_too_big)
        snprintf(buf, size, "stopped after printing more than %ld KB", r->log_limit_kb);
    else if (r->signaled)
        snprintf(buf, size, "killed by signal %d (%s)", r->signal,
                 strsignal(r->signal));
    else if (!r->started)
        snprintf(buf, size, "could not be started");
    else
        snprintf(buf, size, "exit code %d", r->exit_code);
}

char *iso_log_tail(const char *log_path, size_t max_bytes)
{
    FILE *f = fopen(log_path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > (long)max_bytes ? size - (long)max_bytes : 0;
    fseek(f, from, SEEK_SET);
    char *buf = malloc((size_t)(size - from) + 1);
    if (!buf) { fclose(f); return NULL; }
    size_t n = fread(buf, 1, (size_t)(size - from), f);
    fclose(f);
    buf[n] = 0;
    if (from > 0) { /* start at a whole line */
        char *nl = strchr(buf, '\n');
        if (nl) memmove(buf, nl + 1, strlen(nl + 1) + 1);
    }
    return buf;
}
