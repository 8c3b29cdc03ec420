/* Lab 05 - dot product: *d_result = sum of x[i] * y[i] for 0 <= i < n.
 *
 * This is the only file you edit. Read labs/05-dot-product/README.md first,
 * then follow the TODOs in order. Check your work with
 *
 *     make grade LAB=05
 *
 * The contract (the grader relies on it):
 *   - d_x, d_y and d_result are device pointers the grader owns; n >= 0,
 *     and n == 0 must work (the answer is then 0).
 *   - d_result holds garbage on entry: nothing is zeroed for you.
 *   - The pointers are 4-byte aligned, not necessarily 16.
 *   - Launch on `stream`, do not synchronize, and return the launch status.
 *
 * The plan: every thread sums its own share of the products in a register,
 * each block adds its threads' sums in shared memory, and one thread per
 * block adds the block's sum to *result with atomicAdd.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define THREADS 256 /* threads per block: a power of two, for the tree below */

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    __shared__ float partial[THREADS];

    /* TODO(1): each thread sums its share of the products in a register:
     *              float sum = 0.0f;
     *          Use a grid-stride loop, so that any grid covers any n:
     *              for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
     *                   i += gridDim.x * blockDim.x)
     *                  sum += x[i] * y[i];                                    */

    /* TODO(2): put the thread's sum in partial[threadIdx.x], then wait until
     *          every thread of the block has done so: __syncthreads().       */

    /* TODO(3): add the block's THREADS partial sums in a tree: at each step
     *          the first `half` threads add partial[t + half] into
     *          partial[t], for half = THREADS / 2, THREADS / 4, ..., 1.
     *          Every step reads what the step before wrote, so put a
     *          __syncthreads() after each step, outside the if.               */

    /* TODO(4): partial[0] now holds the block's sum. Thread 0 adds it to the
     *          result: atomicAdd(result, partial[0]). Blocks finish in any
     *          order, so the additions come in a different order on every
     *          run: see "Why the last bits change" in the README.           */
    (void)x;
    (void)y;
    (void)n;
    (void)result;
    (void)partial;
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    /* TODO(5): the blocks add into *d_result, which holds garbage: zero it
     *          first, on your stream, so that it happens before the kernel:
     *              cudaMemsetAsync(d_result, 0, sizeof(float), stream)
     *          Return its error if it fails (CUDA_RETURN_IF_ERROR does that).
     *          Do this even when n == 0: the answer is then 0. */

    /* TODO(6): with n == 0 there is nothing to add, and a grid of zero
     *          blocks is an invalid launch: return cudaSuccess here. */

    /* TODO(7): choose the grid. With the grid-stride loop any number of
     *          blocks is right; to start, one thread per element:
     *              int blocks = (n + THREADS - 1) / THREADS;
     *          Then launch on the stream you were given:
     *              dot_kernel<<<blocks, THREADS, 0, stream>>>(d_x, d_y, n, d_result);
     *          For the fast stage, read "Making it fast" in the README: far
     *          fewer blocks, each looping over many elements, and wider loads. */
    (void)d_x;
    (void)d_y;
    (void)n;
    (void)d_result;
    (void)stream;

    /* TODO(8): return cudaGetLastError(), so that a refused launch is heard. */
    return cudaSuccess;
}
