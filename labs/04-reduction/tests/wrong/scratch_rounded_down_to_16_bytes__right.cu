/* WRONG ON PURPOSE: the block sums go to d_scratch, but through a pointer
 * rounded DOWN to a 16-byte boundary "so that the second pass could read
 * them as float4". Every sum is right; when d_scratch is not 16-byte
 * aligned (right offsets every pointer by 4, 8 or 12 bytes) the first
 * block's sum lands in front of the buffer. Work's pointers are aligned,
 * so it passes work.
 * REPORT-SAYS: a vector access rounded down
 */
#include <stdint.h>

#include <cuda_runtime.h>

#define T 256

__global__ void block_sums(const float *in, int n, float *part)
{
    __shared__ float s[T];
    float v = 0.0f;
    for (int i = blockIdx.x * T + threadIdx.x; i < n; i += gridDim.x * T) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) part[blockIdx.x] = s[0];
}

__global__ void final_sum(const float *part, int count, float *out)
{
    __shared__ float s[T];
    float v = 0.0f;
    for (int i = threadIdx.x; i < count; i += T) v += part[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = s[0];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    int blocks = (n + T - 1) / T;
    if (blocks > 1024) blocks = 1024;
    float *part = (float *)((uintptr_t)d_scratch & ~(uintptr_t)15); /* the mistake */
    block_sums<<<blocks, T, 0, stream>>>(d_in, n, part);
    final_sum<<<1, T, 0, stream>>>(part, blocks, d_out);
    return cudaGetLastError();
}
