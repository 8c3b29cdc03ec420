/* WRONG ON PURPOSE: off by one: i <= n writes one element past the end.
 * Must first fail the right stage: work does not look past the outputs,
 * right checks the guard bytes behind d_y. */
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) y[i] = 2.0f * x[i] + 1.0f;
}

extern "C" cudaError_t conv2d(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    conv2d_kernel<<<n / 256 + 1, 256, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
