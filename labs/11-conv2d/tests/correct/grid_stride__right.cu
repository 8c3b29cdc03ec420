/* CORRECT, in an unusual way: a fixed grid of 64 blocks of 128 threads
 * whatever n is; each thread steps through the array by the size of the
 * grid (a grid-stride loop), so large sizes loop and small ones leave
 * threads idle. Must pass every stage up to and including right.
 *
 * Written by `make new-lab` for the placeholder problem. TODO(author):
 * replace with at least 3 unusual but correct versions of the lab's own. */
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float *x, float *y, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = 2.0f * x[i] + 1.0f;
}

extern "C" cudaError_t conv2d(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    conv2d_kernel<<<64, 128, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
