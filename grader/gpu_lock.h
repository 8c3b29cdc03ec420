/* gpu_lock.h - gradings side by side take turns on the GPU.
 *
 * Checking a submission's answers (the probe, work, right, the sanitizers)
 * can share the GPU with other checks: they only need the right answer.
 * Timing cannot: another process's kernels would be timed with the
 * submission's, and the fast stage's look for other processes on the GPU
 * would call the run disturbed. So every grading holds a lock on the GPU
 * while it uses it: shared to check, exclusive to time (the fast stage, a
 * ladder). A class batch or `make test` can then run several gradings at
 * once on one GPU: their builds and checks overlap, their timings never do.
 * Checks hold it only while their runs go (the probe; the run of work's
 * and right's calls, with the sanitizers' runs beside it once work's calls
 * passed; the run that looks for a smaller failing case), so
 * a grading that waits to time waits for runs, never for judging on the
 * CPU.
 *
 * Timings go first, back to back: while a grading waits to time or times,
 * a check that asks waits until no timing is waiting or running. A timing
 * then waits only for the checks already running, and the checks that
 * queued meanwhile run together afterwards, so the GPU goes from a batch of
 * checks to a run of timings and back, rather than paying a wait for every
 * running check between each two timings. Checks cannot wait for ever:
 * every timing belongs to a grading whose checks are done, so once the
 * gradings running have each timed, no timing is left to wait for.
 *
 * The locks are two files (flock) in a folder of the checkout, named after
 * the GPU the grading uses (the first of CUDA_VISIBLE_DEVICES, 0 when
 * unset): <name>.lock, shared by checks and exclusive to a timing, and
 * <name>.timings, which every timing holds shared from the moment it asks
 * and a check takes exclusively for a blink before it asks. Gradings that
 * name one GPU differently (an index and a UUID), or run from another
 * checkout, do not see each other's locks; the fast stage's check for
 * other processes still catches them. A lock ends with the grader, however
 * it ends; the runner and compute-sanitizer never hold it (the files close
 * on exec).
 */
#ifndef GPU_LOCK_H
#define GPU_LOCK_H

#include <stddef.h>

typedef enum { GPU_SHARED, GPU_EXCLUSIVE } gpu_use;

typedef struct {
    int fd;          /* the lock file, -1 when not held */
    int timing_fd;   /* a timing's place among the timings, -1 for a check */
    double waited_s; /* how long taking it took */
} gpu_lock;

/* Waits until the GPU can be used this way. Returns 0 when held; -1 when
 * the lock files in dir cannot be opened (why says so), and the grading
 * goes on without the lock. */
int gpu_lock_take(const char *dir, gpu_use use, gpu_lock *l, char *why, size_t why_size);

void gpu_lock_release(gpu_lock *l);

/* gpu_lock_take for a grading: a lock that cannot be had is said once on
 * stderr and the grading goes on without it. Returns the seconds waited. */
double gpu_lock_wait(const char *dir, gpu_use use, gpu_lock *l);

#endif
