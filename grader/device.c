/* device.c - see device.h. */
#define _POSIX_C_SOURCE 200809L
#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_lock.h"
#include "isolate.h"

int device_driver_present(void)
{
    return access("/dev/nvidiactl", F_OK) == 0 || access("/proc/driver/nvidia/version", F_OK) == 0;
}

void device_probe_start(device_probe *p, const char *probe, const char *scratch,
                        const char *lock_dir)
{
    snprintf(p->log, sizeof p->log, "%s/probe.log", scratch);
    snprintf(p->probe, sizeof p->probe, "%s", probe);
    fflush(NULL);
    p->pid = fork();
    if (p->pid > 0 && iso_spare(p->pid) != 0) { /* never: nothing else runs yet */
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
        p->pid = -1;
    }
    if (p->pid != 0) return; /* -1: device_probe_finish says the probe failed */
    /* The child, which ends with the grader: the probe's CUDA context
     * counts as a check of the GPU. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    gpu_lock gpu;
    gpu_lock_wait(lock_dir, GPU_SHARED, &gpu);
    char *argv[] = {(char *)probe, NULL};
    iso_result ir;
    int ran = iso_run(argv, p->log, 60, &ir) == 0 && ir.started;
    gpu_lock_release(&gpu);
    _exit(ran ? 0 : 1);
}

double device_probe_finish(device_probe *p, device_info *d)
{
    double t0 = iso_now_s();
    memset(d, 0, sizeof *d);
    int status = 0;
    int ran = p->pid > 0 && waitpid(p->pid, &status, 0) == p->pid && WIFEXITED(status) &&
              WEXITSTATUS(status) == 0;
    if (p->pid > 0) iso_unspare(p->pid);
    p->pid = -1;
    FILE *f = ran ? fopen(p->log, "r") : NULL;
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *v = strchr(line, '=');
        if (!v) continue;
        *v++ = 0;
        if (!strcmp(line, "status")) d->ok = !strcmp(v, "ok");
        else if (!strcmp(line, "error")) snprintf(d->error, sizeof d->error, "%s", v);
        else if (!strcmp(line, "name")) snprintf(d->name, sizeof d->name, "%s", v);
        else if (!strcmp(line, "cc")) snprintf(d->cc, sizeof d->cc, "%s", v);
        else if (!strcmp(line, "driver")) snprintf(d->driver, sizeof d->driver, "%s", v);
        else if (!strcmp(line, "runtime")) snprintf(d->runtime, sizeof d->runtime, "%s", v);
        else if (!strcmp(line, "pci_bus_id")) snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "%s", v);
        else if (!strcmp(line, "sm_count")) d->sm_count = atoi(v);
        else if (!strcmp(line, "clock_mhz")) d->clock_mhz = atoi(v);
        else if (!strcmp(line, "mem_clock_mhz")) d->mem_clock_mhz = atoi(v);
        else if (!strcmp(line, "l2_bytes")) d->l2_bytes = atoll(v);
        else if (!strcmp(line, "mem_bytes")) d->mem_bytes = atoll(v);
        else if (!strcmp(line, "regs_per_sm")) d->regs_per_sm = atoi(v);
        else if (!strcmp(line, "max_warps_per_sm")) d->max_warps_per_sm = atoi(v);
    }
    if (f) fclose(f);
    if (!ran) snprintf(d->error, sizeof d->error, "cannot run %s", p->probe);
    else if (!d->ok && !d->error[0]) snprintf(d->error, sizeof d->error, "the probe failed");
    return iso_now_s() - t0;
}
