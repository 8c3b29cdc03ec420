/* WRONG ON PURPOSE: the offset loop keeps two variables in step, the
 * offset d and the partner j = i + d (wrapped past n by a subtraction),
 * but the loop's header advances only j: "for (d = d0; d <= last; j++)".
 * d never moves, d <= last stays true, and every thread with i < n counts
 * pairs for ever (each pass loads a partner and counts the pair with an
 * atomicAdd: nothing the compiler may drop).
 * The first work call hangs (n = 1001; 201 in the emulation), on every GPU.
 * Everything else is right: the exact bin, the half offset for even n,
 * a shared histogram zeroed and flushed between barriers.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does every loop's index move towards its end?
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

__device__ int pair_bin(float4 a, float4 b, float dr)
{
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    return (int)__fdiv_rn(__fsqrt_rn(s), dr);
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
        if (2 * last == n && i >= n / 2) last--; /* the half offset, once */
        int j = i + d0 >= n ? i + d0 - n : i + d0;
        for (int d = d0; d <= last; j++) { /* should be d++, j++ */
            if (j >= n) j -= n;
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
