/* WRONG ON PURPOSE: right, but one thread does the whole loop, like the CPU
 * version: no atomics, no race, and one load at a time on a GPU built for
 * hundreds of thousands. Far below the roof (and slower than the naive
 * baseline). So far below that the timing stops after a few rounds.
 * Must first fail the fast stage.
 * REPORT-SAYS: stopped early: far below a bar
 */
#include <cuda_runtime.h>

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    float sum = 0.0f;
    for (int i = 0; i < n; i++) sum += x[i] * y[i];
    *result = sum;
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    dot_kernel<<<1, 1, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
