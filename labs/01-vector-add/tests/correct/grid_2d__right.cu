/* CORRECT, in an unusual way: a 2-D grid of 128-thread blocks laid over the 1-D array.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    long long block = (long long)blockIdx.y * gridDim.x + blockIdx.x;
    long long i = block * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (n + 127) / 128;
    dim3 grid(blocks < 1024 ? blocks : 1024, (blocks + 1023) / 1024);
    add<<<grid, 128, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
