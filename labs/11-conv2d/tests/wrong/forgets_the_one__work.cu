/* WRONG ON PURPOSE: forgets the offset: y[i] = 2 * x[i], not 2 * x[i] + 1.
 * Must first fail the work stage.
 * REPORT-SAYS: y[i] must be 2 * x[i] + 1: check
 *
 * Written by `make new-lab` for the placeholder problem. TODO(author):
 * replace with the lab's own mistakes: at least 8 files in this folder,
 * each named what__stage.cu after the first stage that must reject it. */
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

extern "C" cudaError_t conv2d(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    conv2d_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
