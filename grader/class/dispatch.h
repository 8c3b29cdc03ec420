/* dispatch.h - graders side by side, one per GPU.
 *
 * Each grading runs in a worker process that sets CUDA_VISIBLE_DEVICES to
 * its slot's GPU and runs the grader through iso_run (time limit, own
 * process group, killed with everything it started). A slot holds one
 * grading at a time, so every submission is timed alone on its GPU. The
 * worker leaves how the grader ended in a small status file; the parent
 * alone writes results, so results.jsonl has a single writer.
 */
#ifndef CLASS_DISPATCH_H
#define CLASS_DISPATCH_H

#include <stddef.h>
#include <sys/types.h>

#include "isolate.h"

enum { DSP_MAX_SLOTS = 64 };

typedef struct {
    pid_t pid;      /* 0: free */
    char gpu[64];   /* CUDA_VISIBLE_DEVICES for its children; "": leave it alone */
    size_t job;     /* the caller's index of what it grades */
} dsp_slot;

/* The GPUs to use: "0,1,2"; "none"; or "auto" (NULL): the list in
 * CUDA_VISIBLE_DEVICES when set (Slurm sets it), else one per line of
 * `nvidia-smi -L`, else none. */
int dsp_gpus(const char *spec, char ids[][64], int max, int *n, char *err, size_t err_size);

/* Start a worker in slot: sh -c command, output to log_path, at most
 * limit_s seconds; how it ended goes to status_path. */
int dsp_start(dsp_slot *slot, const char *command, const char *log_path,
              const char *status_path, double limit_s);
/* Wait for any busy slot's worker to end; returns its index (slot freed). */
int dsp_wait(dsp_slot *slots, int n);
/* How the grader ended, from a worker's status file. */
int dsp_read_status(const char *status_path, iso_result *r);
/* On SIGINT or SIGTERM, stop every worker (each takes its grader down)
 * before dying, so no grader outlives an interrupted batch. */
void dsp_guard(dsp_slot *slots, int n);

#endif
