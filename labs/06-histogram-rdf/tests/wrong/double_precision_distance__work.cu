/* WRONG ON PURPOSE: "more accurate is better": the distance and the
 * quotient in double precision. The result is closer to the true distance,
 * but the contract defines the float computation, and where the two
 * straddle a bin edge the pair lands elsewhere (about 100 of the 8 million
 * pairs at n = 4001). The contract, not the precision, is what makes the
 * GPU agree with the CPU. Must first fail the work stage.
 * SMALLEST: it differs only for pairs within an ulp of a bin edge, which the graded inputs plant among hundreds of particles
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

__device__ int pair_bin(float4 a, float4 b, float dr)
{
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y, dz = (double)b.z - a.z;
    return (int)(sqrt(dx * dx + dy * dy + dz * dz) / dr);
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
