/* dispatch.c - see dispatch.h. */
#define _POSIX_C_SOURCE 200809L
#include "dispatch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int dsp_split(const char *list, char ids[][64], int max, int *n, char *err, size_t err_size)
{
    *n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= 64) {
            snprintf(err, err_size, "bad GPU list '%s': expected ids like 0,1,2", list);
            return -1;
        }
        if (*n == max) {
            snprintf(err, err_size, "more than %d GPUs in '%s'", max, list);
            return -1;
        }
        snprintf(ids[(*n)++], 64, "%.*s", (int)len, p);
        p += len + (p[len] == ',');
    }
    for (int i = 0; i < *n; i++)
        for (int k = 0; k < i; k++)
            if (!strcmp(ids[i], ids[k])) {
                snprintf(err, err_size, "GPU %s twice in '%s': one grading per GPU", ids[i], list);
                return -1;
            }
    return 0;
}

int dsp_gpus(const char *spec, char ids[][64], int max, int *n, char *err, size_t err_size)
{
    *n = 0;
    if (spec && !strcmp(spec, "none")) return 0;
    if (spec && strcmp(spec, "auto") != 0) return dsp_split(spec, ids, max, n, err, err_size);
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (visible && *visible) return dsp_split(visible, ids, max, n, err, err_size);
    FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
    if (!p) return 0;
    char line[512];
    while (fgets(line, sizeof line, p))
        if (!strncmp(line, "GPU ", 4) && *n < max) snprintf(ids[*n], 64, "%d", *n), (*n)++;
    pclose(p);
    return 0;
}

static void dsp_worker(const dsp_slot *slot, const char *command, const char *log_path,
                       const char *status_path, double limit_s)
{
    signal(SIGINT, SIG_DFL); /* the parent's guard is not ours */
    signal(SIGTERM, SIG_DFL);
    if (slot->gpu[0]) setenv("CUDA_VISIBLE_DEVICES", slot->gpu, 1);
    char *argv[] = {"/bin/sh", "-c", (char *)command, NULL};
    iso_result r;
    int rc = iso_run(argv, log_path, limit_s, &r);
    FILE *f = fopen(status_path, "w");
    if (!f) _exit(1);
    fprintf(f, "run=%d started=%d exited=%d exit_code=%d signaled=%d signal=%d timed_out=%d wall_s=%.3f\n",
            rc, r.started, r.exited, r.exit_code, r.signaled, r.signal, r.timed_out, r.wall_s);
    _exit(fclose(f) == 0 ? 0 : 1);
}

int dsp_start(dsp_slot *slot, const char *command, const char *log_path, const char *status_path,
              double limit_s)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) dsp_worker(slot, command, log_path, status_path, limit_s);
    slot->pid = pid;
    return 0;
}

int dsp_wait(dsp_slot *slots, int n)
{
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        for (int i = 0; i < n; i++)
            if (slots[i].pid == pid) {
                slots[i].pid = 0;
                return i;
            }
    }
}

int dsp_read_status(const char *status_path, iso_result *r)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(status_path, "r");
    if (!f) return -1;
    int run = -1;
    int got = fscanf(f, "run=%d started=%d exited=%d exit_code=%d signaled=%d signal=%d timed_out=%d wall_s=%lf",
                     &run, &r->started, &r->exited, &r->exit_code, &r->signaled, &r->signal,
                     &r->timed_out, &r->wall_s);
    fclose(f);
    return got == 8 && run == 0 ? 0 : -1;
}

static dsp_slot *dsp_guarded;
static int dsp_guarded_n;

static void dsp_on_signal(int sig)
{
    for (int i = 0; i < dsp_guarded_n; i++)
        if (dsp_guarded[i].pid > 0) kill(dsp_guarded[i].pid, SIGTERM);
    signal(sig, SIG_DFL);
    raise(sig);
}

void dsp_guard(dsp_slot *slots, int n)
{
    dsp_guarded = slots;
    dsp_guarded_n = n;
    signal(SIGINT, dsp_on_signal);
    signal(SIGTERM, dsp_on_signal);
}
