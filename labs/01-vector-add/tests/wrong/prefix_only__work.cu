/* WRONG ON PURPOSE: a fixed grid of 1024 blocks without a loop: only the first 262144 elements.
 * Must first fail the work stage.
 * REPORT-SAYS: the grid must cover all n
 * SMALLEST: its grid of 1024 blocks covers the first 262144 elements, so only larger cases lose any
 */
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
    add<<<1024, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
