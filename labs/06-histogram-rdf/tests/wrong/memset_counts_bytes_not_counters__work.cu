/* WRONG ON PURPOSE: d_hist is zeroed on the stream, as it must be, but
 * with cudaMemsetAsync(d_hist, 0, bins, stream): the size of a memset is in
 * BYTES, and bins counters are 4 * bins bytes. Only the first quarter of
 * the histogram starts at zero; the other three quarters keep the
 * grader's garbage, and the blocks add their counts on top of it. The
 * kernel itself is right (2-D grid, shared sub-histogram, exact bins).
 * Must first fail the work stage.
 * REPORT-SAYS: the grader fills it with garbage
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define THREADS 256
#define OFFSETS 256

__global__ void rdf_kernel(const float4 *pos, int n, int bins, float dr, unsigned int *hist)
{
    extern __shared__ unsigned int sub[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) sub[b] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
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
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (sub[b]) atomicAdd(&hist[b], sub[b]);
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, bins, stream)); /* bins BYTES: a quarter */
    if (n < 2 || bins == 0) return cudaSuccess;
    dim3 grid((n + THREADS - 1) / THREADS, (n / 2 + OFFSETS - 1) / OFFSETS);
    rdf_kernel<<<grid, THREADS, bins * sizeof(unsigned int), stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
