/* WRONG ON PURPOSE: the fast-math versions, as --use_fast_math would make
 * them: sqrt as s * rsqrtf(s) and __fdividef for the quotient, each off by
 * an ulp or two, so pairs near bin edges move (s = 0 is kept apart: its
 * rsqrtf is infinite). Must first fail the work stage. (In the emulation rsqrtf is an accurate
 * 1/sqrtf, but s times it is still not a correctly rounded square root.)
 * SMALLEST: it differs only for pairs within an ulp of a bin edge, which the graded inputs plant among hundreds of particles
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

__device__ int pair_bin(float4 a, float4 b, float dr)
{
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    float d = s > 0.0f ? s * rsqrtf(s) : 0.0f;
    return (int)__fdividef(d, dr);
}

__global__ void rdf_kernel(const float4 *pos, int n, int bins, float dr, unsigned int *hist)
{
    extern __shared__ unsigned int sub[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) sub[b] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 a = pos[i];
        int d0 = 1 + blockIdx.y * 256, last = min(d0 + 255, n / 2);
        if (2 * last == n && i >= n / 2) last--; /* the half offset: i < n/2 only */
        for (int d = d0; d <= last; d++) {
            int j = i + d >= n ? i + d - n : i + d;
            int bin = pair_bin(a, pos[j], dr);
            if (bin < bins) atomicAdd(&sub[bin], 1u);
        }
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
    dim3 grid((n + 255) / 256, (n / 2 + 255) / 256);
    rdf_kernel<<<grid, 256, bins * sizeof(unsigned int), stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
