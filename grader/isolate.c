/* isolate.c - see isolate.h. */
#define _POSIX_C_SOURCE 200809L
#include "isolate.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's process group, so Ctrl-C on the grader takes it down too. */
static volatile sig_atomic_t iso_current_group;

static void iso_on_interrupt(int sig)
{
    if (iso_current_group > 0) kill(-(pid_t)iso_current_group, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

static long iso_memory_limit_mb;

void iso_set_memory_limit_mb(long mb)
{
    iso_memory_limit_mb = mb > 0 ? mb : 0;
}

/* Resident memory of every process in the group, in MB: the child may run
 * others (compute-sanitizer runs the runner). */
static long iso_group_rss_mb(pid_t group)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    long pages = 0, page_kb = sysconf(_SC_PAGESIZE) / 1024;
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
        long pgrp = 0, rss = 0;
        if (p && sscanf(p + 2, "%*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
                               "%*d %*d %*d %*d %*u %*u %ld", &pgrp, &rss) == 2 &&
            pgrp == group)
            pages += rss;
    }
    closedir(d);
    return pages * page_kb / 1024;
}

static double iso_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void iso_child(char *const argv[], const char *log_path)
{
    setpgid(0, 0);
    int in = open("/dev/null", O_RDONLY);
    int out = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in < 0 || out < 0) _exit(127);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int iso_run(char *const argv[], const char *log_path, double limit_s,
            iso_result *r)
{
    memset(r, 0, sizeof *r);
    signal(SIGINT, iso_on_interrupt);
    signal(SIGTERM, iso_on_interrupt);
    double t0 = iso_now_s();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) iso_child(argv, log_path);
    setpgid(pid, pid); /* also here: no race with the child's own call */
    iso_current_group = pid;
    r->started = 1;

    int status = 0;
    double next_memory_check = 0;
    r->memory_limit_mb = iso_memory_limit_mb;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) return -1;
        if (iso_now_s() - t0 > limit_s) {
            r->timed_out = 1;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        if (iso_memory_limit_mb && iso_now_s() >= next_memory_check) {
            next_memory_check = iso_now_s() + 0.1;
            if (iso_group_rss_mb(pid) > iso_memory_limit_mb) {
                r->out_of_memory = 1;
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                break;
            }
        }
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL); /* whatever it left behind */
    iso_current_group = 0;
    r->wall_s = iso_now_s() - t0;
    if (r->timed_out || r->out_of_memory) return 0;
    if (WIFEXITED(status)) {
        r->exited = 1;
        r->exit_code = WEXITSTATUS(status);
        if (r->exit_code == 127) r->started = 0;
    } else if (WIFSIGNALED(status)) {
        r->signaled = 1;
        r->signal = WTERMSIG(status);
    }
    return 0;
}

void iso_describe(const iso_result *r, char *buf, size_t size)
{
    if (r->timed_out)
        snprintf(buf, size, "timed out after %.0f s", r->wall_s);
    else if (r->out_of_memory)
        snprintf(buf, size, "stopped after using more than %ld MB of host memory",
                 r->memory_limit_mb);
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
