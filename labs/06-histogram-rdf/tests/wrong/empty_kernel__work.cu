/* WRONG ON PURPOSE: the histogram is zeroed and a kernel is launched, but
 * the kernel does nothing: every count is 0. Must first fail the work
 * stage.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void rdf_kernel(const float4 *pos, int n, int bins, float dr, unsigned int *hist)
{
    (void)pos, (void)n, (void)bins, (void)dr, (void)hist;
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, bins * sizeof(unsigned int), stream));
    if (n < 2 || bins == 0) return cudaSuccess;
    rdf_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
