/* WRONG ON PURPOSE: right, but every thread adds its own product to the
 * result with atomicAdd: 2^26 atomics on one address, performed one after
 * another. This is the naive baseline itself (a speedup of about 1).
 * Must first fail the fast stage. */
#include <cuda_runtime.h>

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(result, x[i] * y[i]);
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    dot_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
