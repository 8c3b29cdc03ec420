/* Lab 11's ladder: every version of the lesson, slowest first.
 * `make ladder LAB=11` checks and times every rung in one run, next to a
 * device-to-device copy; `make ladder LAB=11 RESULTS=labs/11-conv2d/slides/ladder.json`
 * keeps the figures for the slides' chart (`make charts`).
 *
 * Written by `make new-lab` with two rungs of the placeholder problem:
 * the lab's own baseline and the reference. TODO(author): put the lesson's
 * steps between them, one rung per idea, each one a version a student
 * might write on the way.
 */
#include "conv2d.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

extern "C" const lab_device LAB_DEVICE; /* the lab's binding and baseline (trusted/lab.cu) */

/* v1: the fast stage's baseline itself, one thread per element in 32-thread
 * blocks. Calling it from lab.cu, rather than keeping a copy here, means the
 * first rung and the kernel every speedup is measured against cannot drift
 * apart. */
static int v1_baseline_blocks_of_32(void *const *d, const int64_t *dims, void *s)
{
    return LAB_DEVICE.baseline(d, dims, s);
}

/* v2: the reference, 256-thread blocks: a full SM, and enough loads in
 * flight to come near the copy bandwidth. */
static int v2_blocks_of_256(void *const *d, const int64_t *dims, void *s)
{
    return conv2d((const float *)d[0], (float *)d[1], (int)dims[0], (cudaStream_t)s);
}

static const lab_rung RUNGS[] = {
    {"v1_baseline_blocks_of_32", v1_baseline_blocks_of_32},
    {"v2_blocks_of_256", v2_blocks_of_256},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
