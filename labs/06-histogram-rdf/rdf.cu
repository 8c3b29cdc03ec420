/* Lab 06 - radial distribution function: a histogram of the distances of
 * all pairs of n particles in 3-D.
 *
 * This is the only file you edit. Read labs/06-histogram-rdf/README.md
 * first, then follow the TODOs in order. Check your work with
 *
 *     make grade LAB=06
 *
 * The contract (the grader relies on it):
 *   - d_pos holds n particles as float4 (x, y, z, w); w is not part of the
 *     distance. d_hist holds `bins` counters. Both are device pointers the
 *     grader owns; d_pos is 16-byte aligned (it is an array of float4).
 *   - 0 <= n, 0 <= bins <= 8192, dr > 0; n < 2 and bins == 0 must work.
 *   - d_hist[k] = the number of unordered pairs {i, j}, i != j, whose bin is
 *     k, each pair counted once; pairs whose bin is >= bins are dropped.
 *   - The bin of a pair, every operation rounded to the nearest float on
 *     its own, never fused into an FMA:
 *         dx = xj - xi;  dy = yj - yi;  dz = zj - zi;
 *         s = (dx*dx + dy*dy) + dz*dz;   d = sqrt(s);   bin = (int)(d / dr);
 *     With __fmul_rn, __fadd_rn, __fsqrt_rn and __fdiv_rn it is exactly the
 *     CPU's result. The comparison is exact.
 *   - d_hist holds garbage on entry: nothing is zeroed for you.
 *   - Launch on `stream`, do not synchronize, and return the launch status.
 *
 * The plan (the lecture slides' offset formulation): pair i with j = (i + d) % n for
 * the offsets d = 1 .. n/2. For an even n the last offset, d = n/2, pairs
 * i with i + n/2 and i + n/2 with i again: take it for i < n/2 only.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define THREADS 256 /* particles per block (blockIdx.x) */
#define OFFSETS 256 /* offsets per block (blockIdx.y) */

/* The contract's bin of the pair (a, b). */
__device__ int pair_bin(float4 a, float4 b, float dr)
{
    /* TODO(1): compute the distance exactly as the contract says:
     *              float dx = b.x - a.x;  (and dy, dz: a subtraction is one
     *                                      rounding, nothing to fuse)
     *              float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx),
     *                                            __fmul_rn(dy, dy)),
     *                                  __fmul_rn(dz, dz));
     *              return (int)__fdiv_rn(__fsqrt_rn(s), dr);
     *          Written as sqrtf(dx*dx + dy*dy + dz*dz) / dr, nvcc fuses the
     *          products and sums into FMAs and some pairs change bins: see
     *          "Exact distances" in the README. */
    (void)a;
    (void)b;
    (void)dr;
    return 0;
}

/* Block (bx, by): particles i = bx * THREADS + threadIdx.x, offsets
 * d = 1 + by * OFFSETS ... (at most OFFSETS of them, none past n/2). */
__global__ void rdf_kernel(const float4 *pos, int n, int bins, float dr, unsigned int *hist)
{
    extern __shared__ unsigned int sub[]; /* this block's histogram: bins counters */

    /* TODO(2): zero the block's histogram: thread t clears sub[t],
     *          sub[t + blockDim.x], ... (bins may exceed the block size).
     *          Then __syncthreads(): no thread may count before every
     *          counter is zero. */

    /* TODO(3): this thread's pairs. With i = blockIdx.x * blockDim.x +
     *          threadIdx.x (skip the loop when i >= n), load a = pos[i]
     *          once, then for every offset d of this block:
     *              int d0 = 1 + blockIdx.y * OFFSETS;
     *              int last = min(d0 + OFFSETS - 1, n / 2);
     *              if (2 * last == n && i >= n / 2) last--;   // half offset
     *              for (int d = d0; d <= last; d++) {
     *                  int j = (i + d) % n;   // or a subtraction: why?
     *                  int bin = pair_bin(a, pos[j], dr);
     *                  if (bin < bins) atomicAdd(&sub[bin], 1u);
     *              }
     *          The atomicAdd is needed: two threads may hit the same bin. */

    /* TODO(4): __syncthreads() (every pair counted), then add the block's
     *          histogram to the global one, one atomicAdd per non-zero bin:
     *              for (int b = threadIdx.x; b < bins; b += blockDim.x)
     *                  if (sub[b]) atomicAdd(&hist[b], sub[b]);           */
    (void)pos;
    (void)n;
    (void)bins;
    (void)dr;
    (void)hist;
    (void)sub;
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    /* TODO(5): the blocks add into d_hist, which holds garbage: zero it
     *          first, on your stream (so it happens before the kernel):
     *              cudaMemsetAsync(d_hist, 0, bins * sizeof(unsigned int), stream)
     *          Return its error if it fails (CUDA_RETURN_IF_ERROR). Do this
     *          even when there is nothing to count. */

    /* TODO(6): with n < 2 there are no pairs, and with bins == 0 nowhere to
     *          count them; a grid with no blocks is an invalid launch:
     *          return cudaSuccess here. */

    /* TODO(7): launch one kernel for every pair, on your stream, with the
     *          block's histogram as dynamic shared memory:
     *              dim3 grid((n + THREADS - 1) / THREADS,
     *                        (n / 2 + OFFSETS - 1) / OFFSETS);
     *              rdf_kernel<<<grid, THREADS, bins * sizeof(unsigned int),
     *                           stream>>>(d_pos, n, bins, dr, d_hist);     */
    (void)d_pos;
    (void)n;
    (void)bins;
    (void)dr;
    (void)d_hist;
    (void)stream;

    /* TODO(8): return cudaGetLastError(), so that a refused launch is heard. */
    return cudaSuccess;
}
