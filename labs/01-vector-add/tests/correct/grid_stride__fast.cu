/* CORRECT, in an unusual way: a scalar grid-stride loop over a fixed grid of 8 blocks per SM.
 * Must pass every stage up to and including fast. */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    int sms = 0;
    cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    if (e != cudaSuccess) return e;
    add<<<8 * sms, 256, 0, stream>>>(d_a, d_b, d_c, n); /* n == 0: the loop is empty */
    return cudaGetLastError();
}
