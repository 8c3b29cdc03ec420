/* lab.cu - lab @NN@'s trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, and the naive baseline the
 * fast stage compares against. Students do not edit it.
 *
 * Written by `make new-lab` for the placeholder problem y[i] = 2 * x[i] + 1.
 * TODO(author): change the prototype, the binding and the baseline with the
 * problem; keep the baseline right and plainly written, since every
 * speedup is measured against it (and labs/@ID@/solution/ladder.cu runs it
 * as its first rung).
 */
#include <cuda_runtime.h>

#include "lab_spec.h"

extern "C" cudaError_t @ENTRY@(const float *d_x, float *d_y, int n, cudaStream_t stream);
extern "C" const lab_spec @SYMBOL@;

/* The runner hands over the device buffers in the order of the spec's
 * buffer list (d_x, d_y) and the sizes in the order of its dims (n). */
static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return @ENTRY@((const float *)d[0], (float *)d[1], (int)dims[0], (cudaStream_t)stream);
}

/* The baseline: right, but with one warp per block. An SM holds at most 32
 * blocks at once, so 32-thread blocks fill only half of its 2048 thread
 * slots, and too few loads are in flight to cover the memory's latency. */
__global__ static void @ENTRY@_naive(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}

static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    int n = (int)dims[0];
    if (n == 0) return cudaSuccess; /* a grid of zero blocks is an invalid launch */
    @ENTRY@_naive<<<(n + 31) / 32, 32, 0, (cudaStream_t)stream>>>((const float *)d[0],
                                                                  (float *)d[1], n);
    return cudaGetLastError();
}

/* No vendor library: the roof is the same-run copy bandwidth (ROOF_COPY). */
extern "C" const lab_device LAB_DEVICE = {&@SYMBOL@, call_submission, call_baseline, NULL, NULL, 0};
