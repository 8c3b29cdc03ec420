/* Lab 06 - radial distribution function: the reference solution.
 *
 * The ladder (labs/06-histogram-rdf/solution/ladder.cu, `make ladder LAB=06`):
 *   v1 one launch per offset, one global atomicAdd per pair (the lecture slides'
 *      naive kernel; the fast stage's baseline).
 *   v2 the lecture slides' "optimised 1": still one launch per offset, a shared
 *      sub-histogram per block, flushed with one global atomic per bin.
 *   v3 the full-problem kernel: one launch for every pair, a 2-D grid
 *      (particles x chunks of offsets), each block many pairs into its
 *      shared sub-histogram, one global atomicAdd per bin per block.
 *   v4 v3 with a sub-histogram per warp.
 *   v5 (this file) v3 with the block's particles staged in shared memory:
 *      each block loads the 256 + 255 positions its pairs need once, as
 *      float4, and every thread reads its partners from there with no
 *      modulo and no bounds test inside the loop.
 *
 * Which pairs. Pair (i, j = (i + d) % n) for every offset d = 1 .. n/2 and
 * every i, except that for an even n the half offset d = n/2 meets each
 * pair twice ((i, i + n/2) and (i + n/2, i)), so it is taken for i < n/2
 * only. That is n(n-1)/2 pairs, each unordered pair once.
 *
 * Which bin. Exactly the contract's operations, each rounded to nearest:
 * dx = xj - xi, ..., s = (dx*dx + dy*dy) + dz*dz with every product and
 * sum rounded on its own (__fmul_rn and __fadd_rn: nvcc never contracts
 * these into an FMA), d = __fsqrt_rn(s), bin = (int)__fdiv_rn(d, dr); a
 * bin >= bins is dropped.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define THREADS 256 /* particles per block (x) */
#define OFFSETS 256 /* offsets per block (y): THREADS * OFFSETS pairs */

/* The contract's bin of the pair (a, b); >= bins means dropped. */
__device__ __forceinline__ int pair_bin(float4 a, float4 b, float dr)
{
    float dx = __fsub_rn(b.x, a.x), dy = __fsub_rn(b.y, a.y), dz = __fsub_rn(b.z, a.z);
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    return (int)__fdiv_rn(__fsqrt_rn(s), dr);
}

/* Block (bx, by): particles i0 .. i0 + 255 (i0 = 256 bx) and offsets
 * d0 .. d0 + 255 (d0 = 1 + 256 by). Its pairs need the positions
 * i0 + d0 .. i0 + d0 + 510 (modulo n): loaded once, coalesced, into
 * `tile`. Thread t holds particle i0 + t in registers and walks
 * tile[t + k] for offset d0 + k: consecutive threads read consecutive
 * float4s, so the shared loads have no bank conflicts. Only the loop bound
 * depends on the thread: offsets past n/2 do not exist, and the half
 * offset of an even n belongs to the first n/2 particles.
 *
 * The block counts into its own histogram in shared memory (fast atomics,
 * close to the SM, few collisions), then adds each non-zero bin to the
 * global histogram: about 65 thousand pairs per block, at most `bins`
 * global atomics. */
__global__ void __launch_bounds__(THREADS)
rdf_tiled(const float4 *__restrict__ pos, int n, int bins, float dr, unsigned int *hist)
{
    extern __shared__ unsigned int sub[]; /* bins counters */
    __shared__ float4 tile[THREADS + OFFSETS - 1];

    int t = threadIdx.x;
    int i0 = blockIdx.x * THREADS, d0 = 1 + blockIdx.y * OFFSETS;
    int half = n / 2;

    for (int b = t; b < bins; b += THREADS) sub[b] = 0;
    for (int k = t; k < THREADS + OFFSETS - 1; k += THREADS) {
        long long j = (long long)i0 + d0 + k; /* < 3n: at most two wraps */
        while (j >= n) j -= n;
        tile[k] = pos[j];
    }
    __syncthreads(); /* the histogram is zero and the tile is in place */

    int i = i0 + t;
    if (i < n) {
        float4 a = pos[i];
        int last = min(d0 + OFFSETS - 1, half); /* the last offset of this block */
        if (2 * last == n && i >= half) last--; /* the half offset: i < n/2 only */
        int count = last - d0 + 1;
#pragma unroll 4
        for (int k = 0; k < count; k++) {
            int bin = pair_bin(a, tile[t + k], dr);
            if (bin < bins) atomicAdd(sub + bin, 1u);
        }
    }
    __syncthreads(); /* every pair counted before the histogram is read */

    for (int b = t; b < bins; b += THREADS) {
        unsigned int c = sub[b];
        if (c) atomicAdd(hist + b, c);
    }
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    /* d_hist holds garbage: zero it first, on the same stream, so that the
     * memset is done before any block adds to it. */
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, (size_t)bins * sizeof(unsigned int), stream));
    if (n < 2 || bins == 0) return cudaSuccess; /* no pairs, or nowhere to count them */
    dim3 grid((n + THREADS - 1) / THREADS, (n / 2 + OFFSETS - 1) / OFFSETS);
    size_t shared_bytes = (size_t)bins * sizeof(unsigned int);
    rdf_tiled<<<grid, THREADS, shared_bytes, stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
