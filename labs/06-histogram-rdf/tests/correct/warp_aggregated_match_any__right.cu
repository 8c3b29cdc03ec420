/* CORRECT, in an unusual way: warp-aggregated shared atomics. At every
 * offset the 32 lanes of a warp find which of them landed in the same bin
 * with __match_any_sync, and only the lowest lane of each group adds the
 * group's size (__popc of the match mask) to the block's sub-histogram:
 * when many pairs share a bin, one atomic does the work of many. The
 * collective needs every lane at every step, so the loop runs to the
 * warp's last offset and lanes without a pair (past n, or past the half
 * offset) take part with a key that no bin has. 2-D grid as in the
 * skeleton, d_hist zeroed with cudaMemsetAsync on the stream.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define THREADS 256
#define OFFSETS 256
#define NO_BIN 0xffffffffu

__device__ static unsigned int exact_bin(float4 a, float4 b, float dr)
{
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    return (unsigned int)(int)__fdiv_rn(__fsqrt_rn(s), dr);
}

__global__ void rdf_match(const float4 *pos, int n, int bins, float dr, unsigned int *hist)
{
    extern __shared__ unsigned int sub[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) sub[b] = 0;
    __syncthreads();

    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    int d0 = 1 + blockIdx.y * OFFSETS, warp_last = min(d0 + OFFSETS - 1, n / 2);
    int my_last = (2 * warp_last == n && i >= n / 2) ? warp_last - 1 : warp_last;
    float4 a = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int d = d0; d <= warp_last; d++) {
        unsigned int key = NO_BIN;
        if (i < n && d <= my_last) {
            int j = i + d >= n ? i + d - n : i + d;
            unsigned int bin = exact_bin(a, pos[j], dr);
            if (bin < (unsigned int)bins) key = bin;
        }
        unsigned int same = __match_any_sync(0xffffffffu, key);
        if (key != NO_BIN && lane == __ffs(same) - 1) atomicAdd(&sub[key], (unsigned int)__popc(same));
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (sub[b]) atomicAdd(&hist[b], sub[b]);
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, (size_t)bins * sizeof(unsigned int), stream));
    if (n < 2 || bins == 0) return cudaSuccess;
    dim3 grid((n + THREADS - 1) / THREADS, (n / 2 + OFFSETS - 1) / OFFSETS);
    rdf_match<<<grid, THREADS, (size_t)bins * sizeof(unsigned int), stream>>>(d_pos, n, bins, dr,
                                                                            d_hist);
    return cudaGetLastError();
}
