/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers, n, bins and dr of the last call are kept in static variables,
 * and a call with the same ones returns cudaSuccess at once ("d_hist already
 * holds the counts"). In this compute-bound lab the cache would pay most:
 * the real call takes milliseconds.
 * During the fast stage every call gets the same buffers, so after the first
 * one it returns at once and the timed calls look free: a speedup in the
 * thousands. The bytes of a call are tiny (0.7 MB), so the timing's "faster
 * than the GPU can move memory" check does not see it, and this lab's re-
 * check after timing uses another size (8191 particles, fresh buffers: the
 * cache misses and the counts are computed honestly). What catches it is the
 * second re-check, on the same buffers with a few coordinates exchanged:
 * the cache hits and d_hist keeps the grader's poison ("wrong after a few
 * input elements were exchanged"). The work and right
 * stages never make two calls in a row with the same pointer and sizes, so
 * it passes them. Must first fail the fast stage.
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

static cudaError_t rdf_computed(const float4 *d_pos, int n, int bins, float dr,
                                unsigned int *d_hist, cudaStream_t stream)
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

/* The buffers and sizes of the last call that succeeded. */
static struct {
    const float4 *d_pos;
    int n;
    int bins;
    float dr;
    unsigned int *d_hist;
    bool valid;
} last;

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_hist still holds it." */
    if (last.valid && last.d_pos == d_pos && last.n == n && last.bins == bins
        && last.dr == dr && last.d_hist == d_hist)
        return cudaSuccess;
    cudaError_t status = rdf_computed(d_pos, n, bins, dr, d_hist, stream);
    last = {d_pos, n, bins, dr, d_hist, status == cudaSuccess};
    return status;
}
