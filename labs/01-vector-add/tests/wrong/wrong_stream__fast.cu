/* WRONG ON PURPOSE: launches on the default stream instead of the one it is given, hiding its time.
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
    (void)stream;
    if (n == 0) return cudaSuccess;
    add<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
