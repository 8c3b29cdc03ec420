/* WRONG ON PURPOSE: the bounds check "if (i >= n) return;" moved to the
 * top of the kernel, where it looks tidiest. In the last block of
 * particles (n is not a multiple of 256) the threads past n leave before
 * they have zeroed their share of the sub-histogram (counters t, t + 256,
 * ...) and before the flush: the counters they own start with whatever
 * shared memory held, and what the other threads add to them is never sent
 * to d_hist. The threads of a block share the zeroing and the flush, so
 * every thread must reach both, with or without a particle.
 * Must first fail the work stage.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define THREADS 256
#define OFFSETS 256

__global__ void rdf_kernel(const float4 *pos, int n, int bins, float dr, unsigned int *hist)
{
    extern __shared__ unsigned int sub[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return; /* no particle, nothing to do: but its counters are left behind */
    for (int b = threadIdx.x; b < bins; b += blockDim.x) sub[b] = 0;
    __syncthreads();
    float4 a = pos[i];
    int d0 = 1 + blockIdx.y * OFFSETS, last = min(d0 + OFFSETS - 1, n / 2);
    if (2 * last == n && i >= n / 2) last--;
    for (int d = d0; d <= last; d++) {
        int j = i + d >= n ? i + d - n : i + d;
        float4 b = pos[j];
        float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
        float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
        int bin = (int)__fdiv_rn(__fsqrt_rn(s), dr);
        if (bin < bins) atomicAdd(&sub[bin], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (sub[b]) atomicAdd(&hist[b], sub[b]);
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, bins * sizeof(unsigned int), stream));
    if (n < 2 || bins == 0) return cudaSuccess;
    dim3 grid((n + THREADS - 1) / THREADS, (n / 2 + OFFSETS - 1) / OFFSETS);
    rdf_kernel<<<grid, THREADS, bins * sizeof(unsigned int), stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
