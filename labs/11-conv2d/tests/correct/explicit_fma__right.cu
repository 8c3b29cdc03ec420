/* CORRECT, in an unusual way: the fused multiply-add written out with the
 * __fmaf_rn intrinsic. One rounding of the exact 2 * x + 1, and since
 * 2 * x is exact, the very bits of the separate multiply and add. Must
 * pass every stage up to and including right. */
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __fmaf_rn(2.0f, x[i], 1.0f);
}

extern "C" cudaError_t conv2d(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    conv2d_kernel<<<(n + 511) / 512, 512, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
