/* WRONG ON PURPOSE: 2048 threads per block is an invalid launch; the error is cleared and cudaSuccess returned.
 * Must first fail the work stage. */
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
    add<<<(n + 2047) / 2048, 2048, 0, stream>>>(d_a, d_b, d_c, n);
    (void)cudaGetLastError(); /* swallowed */
    return cudaSuccess;
}
