/* WRONG ON PURPOSE: the lecture slides' naive version, right on every input: one
 * launch per offset d, thread i takes the pair (i, (i + d) % n) and adds
 * one to its bin with an atomicAdd in global memory. n/2 short launches,
 * a modulo per pair, and every pair an atomic on one of a few hundred
 * global counters. It is the fast stage's baseline. Must first fail the
 * fast stage.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void rdf_offset(const float4 *pos, int n, int d, int count, float dr, int bins,
                           unsigned int *hist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    float4 a = pos[i], b = pos[(i + d) % n];
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    int bin = (int)__fdiv_rn(__fsqrt_rn(s), dr);
    if (bin < bins) atomicAdd(&hist[bin], 1u);
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, bins * sizeof(unsigned int), stream));
    if (bins == 0) return cudaSuccess;
    for (int d = 1; d <= n / 2; d++) {
        int count = 2 * d == n ? n / 2 : n; /* the half offset: i < n/2 only */
        rdf_offset<<<(count + 255) / 256, 256, 0, stream>>>(d_pos, n, d, count, dr, bins, d_hist);
    }
    return cudaGetLastError();
}
