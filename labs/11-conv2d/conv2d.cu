/* Lab 11 - conv2d: y[i] = 2 * x[i] + 1 for 0 <= i < n.
 *
 * This is the only file you edit. Read labs/11-conv2d/README.md first, then
 * follow the TODOs in order. Check your work with
 *
 *     make grade LAB=11
 *
 * The contract (the grader relies on it):
 *   - d_x and d_y are device pointers the grader owns; n >= 0, and n == 0
 *     must work. The pointers are 4-byte aligned, not necessarily 16.
 *   - d_x is an input: read it, never write it.
 *   - launch on `stream`, do not synchronize, and return the launch status.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

/* TODO(1): give every thread its own element: its global index is
 *          blockIdx.x * blockDim.x + threadIdx.x.
 * TODO(2): the grid is made of whole blocks, so the last block usually has
 *          threads past the end of the arrays. Let only threads with i < n
 *          read and write.
 * TODO(3): compute y[i] = 2 * x[i] + 1. */
__global__ void conv2d_kernel(const float *x, float *y, int n)
{
    (void)x;
    (void)y;
    (void)n;
}

extern "C" cudaError_t conv2d(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    /* TODO(4): with n == 0 there is nothing to do, and a grid of zero blocks
     *          is an invalid launch: return cudaSuccess right away. */

    /* TODO(5): choose the launch configuration. threads per block: a
     *          multiple of 32 (a warp), 256 is a good start. blocks: enough
     *          to cover n, rounded up: (n + threads - 1) / threads. */

    /* TODO(6): launch on the stream you were given:
     *          conv2d_kernel<<<blocks, threads, 0, stream>>>(d_x, d_y, n); */
    (void)d_x;
    (void)d_y;
    (void)n;
    (void)stream;

    /* TODO(7): a launch reports a bad configuration only through
     *          cudaGetLastError(); return it so the caller hears of it. */
    return cudaSuccess;
}
