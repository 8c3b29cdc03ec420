/* Lab 01 - vector add: c[i] = a[i] + b[i] for 0 <= i < n.
 *
 * This is the only file you edit. Read labs/01-vector-add/README.md first,
 * then follow the TODOs in order. Check your work with
 *
 *     make grade LAB=01
 *
 * The contract (the grader relies on it):
 *   - d_a, d_b and d_c are device pointers the grader owns; n >= 0, and
 *     n == 0 must work. The pointers are 4-byte aligned, not necessarily 16.
 *   - launch on `stream`, do not synchronize, and return the launch status.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

/* TODO(1): give every thread its own element. A thread's global index is
 *          its block's index times the block size, plus its index inside
 *          the block: blockIdx.x * blockDim.x + threadIdx.x.
 * TODO(2): the grid is made of whole blocks, so the last block usually has
 *          threads past the end of the arrays. Let only threads with i < n
 *          read and write.
 * TODO(3): compute c[i] = a[i] + b[i]. */
__global__ void vector_add_kernel(const float *a, const float *b, float *c,
                                  int n)
{
    (void)a;
    (void)b;
    (void)c;
    (void)n;
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b,
                                  float *d_c, int n, cudaStream_t stream)
{
    /* TODO(4): with n == 0 there is nothing to do, and a grid of zero blocks
     *          is an invalid launch: return cudaSuccess right away. */

    /* TODO(5): choose the launch configuration. threads per block: a
     *          multiple of 32 (a warp), 256 is a good start. blocks: enough
     *          to cover n, rounded up: (n + threads - 1) / threads. */

    /* TODO(6): launch on the stream you were given:
     *          vector_add_kernel<<<blocks, threads, 0, stream>>>(d_a, d_b, d_c, n); */
    (void)d_a;
    (void)d_b;
    (void)d_c;
    (void)n;
    (void)stream;

    /* TODO(7): a launch reports a bad configuration only through
     *          cudaGetLastError(); return it so the caller hears of it. */
    return cudaSuccess;
}
