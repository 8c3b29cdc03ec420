/* WRONG ON PURPOSE: correct, but warp-sized 32-thread blocks: the naive baseline itself.
 * Must first fail the fast stage. */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    add<<<(n + 32 - 1) / 32, 32, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
