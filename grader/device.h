/* device.h - what GPU there is, asked of the trusted probe (build/probe) in
 * a child, so the grader itself never holds a CUDA context.
 *
 * An answer that found a usable GPU is kept in the lock folder, named after
 * what it depends on (CUDA_VISIBLE_DEVICES, the machine's boot, the driver,
 * the probe): the next gradings read it and start no CUDA context for it,
 * which on a GPU shared by many gradings is one context fewer each (the
 * driver makes contexts one at a time).
 *
 * Where an NVIDIA driver is installed the answer is nearly always "a GPU",
 * so the grading builds for it while the probe runs (the probe may first
 * wait for other gradings' timings: gpu_lock.h); where none is, the probe
 * answers at once and the build is for the CPU emulation.
 */
#ifndef DEVICE_H
#define DEVICE_H

#include <sys/types.h>

#include "grade.h"

typedef struct {
    pid_t pid; /* the child that takes the GPU lock and runs the probe; -1: none */
    char probe[512], log[512];
    char cached[1024]; /* where a usable GPU's answer is kept for the next gradings */
    int from_cache;    /* answered by an earlier probe: no child was started */
} device_probe;

/* 1 when the machine has an NVIDIA driver (its device files). */
int device_driver_present(void);

/* Start asking; the answer is read by device_probe_finish. */
void device_probe_start(device_probe *p, const char *probe, const char *scratch,
                        const char *lock_dir);

/* Wait for the answer and read it into d. Returns the seconds waited. */
double device_probe_finish(device_probe *p, device_info *d);

#endif
