/* device.c - see device.h. */
#define _POSIX_C_SOURCE 200809L
#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_lock.h"
#include "isolate.h"
#include "rng.h"

int device_driver_present(void)
{
    return access("/dev/nvidiactl", F_OK) == 0 || access("/proc/driver/nvidia/version", F_OK) == 0;
}

/* A file's first bytes into the fingerprint (none when it cannot be read). */
static uint64_t hash_file(uint64_t h, const char *path)
{
    char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    return rng_fnv1a(h, buf, n);
}

/* A text into the fingerprint, with its end ("ab" + "c" is not "a" + "bc"). */
static uint64_t hash_text(uint64_t h, const char *text)
{
    return rng_fnv1a(h, text ? text : "", text ? strlen(text) + 1 : 1);
}

/* The answer of an earlier probe holds while nothing it depends on has
 * changed: the GPUs this grading may see (CUDA_VISIBLE_DEVICES), this boot
 * of this machine, the driver, and the probe itself. Its name in the lock
 * folder (where graded code cannot write) says all of that. */
static void cached_answer_path(const char *probe, const char *lock_dir, char *buf, size_t size)
{
    uint64_t h = hash_text(RNG_FNV_BASIS, getenv("CUDA_VISIBLE_DEVICES"));
    h = hash_file(h, "/proc/sys/kernel/random/boot_id");
    h = hash_file(h, "/proc/driver/nvidia/version");
    struct stat st;
    char stamp[96] = "";
    if (stat(probe, &st) == 0)
        snprintf(stamp, sizeof stamp, "%llu.%llu.%lld.%ld", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino, (long long)st.st_mtim.tv_sec,
                 (long)st.st_mtim.tv_nsec);
    h = hash_text(hash_text(h, probe), stamp);
    snprintf(buf, size, "%s/probe-%016llx.txt", lock_dir, (unsigned long long)h);
}

/* Keep a probe's answer that found a usable GPU (written aside, then
 * renamed: a grading never reads half of one). */
static void keep_answer(const device_probe *p)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.%d", p->cached, (int)getpid());
    FILE *in = fopen(p->log, "r"), *out = in ? fopen(tmp, "w") : NULL;
    char buf[4096];
    size_t n;
    while (out && (n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    int written = out && fclose(out) == 0;
    if (in) fclose(in);
    if (!written || rename(tmp, p->cached) != 0) unlink(tmp);
}

void device_probe_start(device_probe *p, const char *probe, const char *scratch,
                        const char *lock_dir)
{
    snprintf(p->log, sizeof p->log, "%s/probe.log", scratch);
    snprintf(p->probe, sizeof p->probe, "%s", probe);
    cached_answer_path(probe, lock_dir, p->cached, sizeof p->cached);
    p->from_cache = access(p->cached, R_OK) == 0;
    if (p->from_cache) { /* no child, no lock, no CUDA context */
        snprintf(p->log, sizeof p->log, "%s", p->cached);
        p->pid = -1;
        return;
    }
    unlink(p->log); /* the run appends to its log */
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
    int ran = p->from_cache || (p->pid > 0 && waitpid(p->pid, &status, 0) == p->pid &&
                                WIFEXITED(status) && WEXITSTATUS(status) == 0);
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
    if (ran && d->ok && !p->from_cache) keep_answer(p);
    return iso_now_s() - t0;
}
