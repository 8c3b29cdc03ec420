/* WRONG ON PURPOSE: "an infinite input is a bug in the data": it writes 0
 * where x is infinite, where the formula gives an infinity. Work's
 * typical values hold none; right's special values do. Must first fail
 * the right stage.
 * REPORT-SAYS: Inf and NaN must pass through
 *
 * Written by `make new-lab` for the placeholder problem. TODO(author):
 * every lab whose spec has a special-values hint has a file that names
 * it. */
#include <math.h>

#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = isinf(x[i]) ? 0.0f : 2.0f * x[i] + 1.0f;
}

extern "C" cudaError_t conv2d(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    conv2d_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
