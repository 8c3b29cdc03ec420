/* WRONG ON PURPOSE: no "bin < bins" test before the atomicAdd. A 2-D grid
 * over (particles, offsets), each pair added straight to the global
 * histogram. In the work stage every pair is within range, so it passes;
 * with far pairs the atomics land past the end of d_hist. Must first fail
 * the right stage.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void rdf_kernel(const float4 *pos, int n, float dr, unsigned int *hist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int d = 1 + blockIdx.y;
    if (i >= n || (2 * d == n && i >= n / 2)) return;
    float4 a = pos[i], b = pos[(i + d) % n];
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    int bin = (int)__fdiv_rn(__fsqrt_rn(s), dr);
    atomicAdd(&hist[bin], 1u);
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, bins * sizeof(unsigned int), stream));
    if (n < 2 || bins == 0) return cudaSuccess;
    dim3 grid((n + 255) / 256, n / 2);
    rdf_kernel<<<grid, 256, 0, stream>>>(d_pos, n, dr, d_hist);
    return cudaGetLastError();
}
