/* WRONG ON PURPOSE: launches a kernel that does nothing: d_result is never written.
 * Must first fail the work stage. */
#include <cuda_runtime.h>

__global__ void dot_kernel(const float *, const float *, int, float *) {}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    dot_kernel<<<(n + 255) / 256 + 1, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
