/* WRONG ON PURPOSE: the grid is rounded down (n / 256 blocks, at least
 * one), so above 256 elements the last partial block is never launched.
 * Must first fail the right stage: every size of work is a multiple of
 * 256, and right's are not.
 * REPORT-SAYS: the grid must cover all n elements
 * SMALLEST: it drops only a partial block after a whole one of 256, so more than 256 elements
 */
#include <cuda_runtime.h>

__global__ void @ENTRY@_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}

extern "C" cudaError_t @ENTRY@(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = n / 256 > 0 ? n / 256 : 1;
    @ENTRY@_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
