/* gpu_lock.c - see gpu_lock.h. */
#define _DEFAULT_SOURCE
#include "gpu_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "isolate.h"

/* "gpu-0", "gpu-GPU-8a1f...": the GPU a grading uses, which is the first
 * of CUDA_VISIBLE_DEVICES, or GPU 0 when it is not set (so a class batch
 * that sets CUDA_VISIBLE_DEVICES=0 and a grading that sets nothing take
 * turns on the same lock); anything but letters, digits and dashes made
 * an underscore. */
static void lock_name(char *buf, size_t size)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (!visible || !*visible) visible = "0";
    size_t at = (size_t)snprintf(buf, size, "gpu-");
    for (const char *c = visible; *c && *c != ',' && at + 1 < size && at < 100; c++)
        buf[at++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                            (*c >= '0' && *c <= '9') || *c == '-'
                        ? *c
                        : '_';
    buf[at] = 0;
}

static int open_lock(const char *dir, const char *name, const char *suffix)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, suffix);
    return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
}

/* flock, again after a signal. */
static int lock_fd(int fd, int how)
{
    int r;
    do r = flock(fd, how);
    while (r != 0 && errno == EINTR);
    return r;
}

int gpu_lock_take(const char *dir, gpu_use use, gpu_lock *l, char *why, size_t why_size)
{
    l->fd = l->timing_fd = -1;
    l->waited_s = 0;
    char name[128];
    lock_name(name, sizeof name);
    int timings = open_lock(dir, name, "timings"), gpu = open_lock(dir, name, "lock");
    if (timings < 0 || gpu < 0) {
        snprintf(why, why_size, "cannot open %s/%s.lock: %s", dir, name, strerror(errno));
        if (timings >= 0) close(timings);
        if (gpu >= 0) close(gpu);
        return -1;
    }
    double t0 = iso_now_s();
    /* A timing takes its place among the timings and keeps it until it is
     * done; a check waits until there is none (gpu_lock.h). */
    int queued = use == GPU_EXCLUSIVE ? lock_fd(timings, LOCK_SH)
                                      : lock_fd(timings, LOCK_EX) || lock_fd(timings, LOCK_UN);
    if (queued != 0 || lock_fd(gpu, use == GPU_EXCLUSIVE ? LOCK_EX : LOCK_SH) != 0) {
        snprintf(why, why_size, "cannot lock %s/%s.lock: %s", dir, name, strerror(errno));
        close(timings);
        close(gpu);
        return -1;
    }
    if (use == GPU_EXCLUSIVE) l->timing_fd = timings;
    else close(timings);
    l->fd = gpu;
    l->waited_s = iso_now_s() - t0;
    return 0;
}

void gpu_lock_release(gpu_lock *l)
{
    /* Closing the last descriptor drops a flock. */
    if (l->fd >= 0) close(l->fd);
    if (l->timing_fd >= 0) close(l->timing_fd);
    l->fd = l->timing_fd = -1;
}

double gpu_lock_wait(const char *dir, gpu_use use, gpu_lock *l)
{
    static int said;
    char why[1200];
    if (gpu_lock_take(dir, use, l, why, sizeof why) == 0) return l->waited_s;
    if (!said++)
        fprintf(stderr, "grade: %s; gradings side by side may disturb each other's timing\n", why);
    return 0;
}
