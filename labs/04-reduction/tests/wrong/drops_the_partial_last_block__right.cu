/* WRONG ON PURPOSE: blocks = n / 512 rounds down, so the elements after the
 * last whole block of 2 x 256 are never added (at least one block is
 * launched, so tiny arrays still work). Every work size is a multiple of
 * 512 and passes; n = 1000 loses 488 elements. Must first fail the right
 * stage. The cure: round up, (n + 511) / 512, and guard both loads.
 * SMALLEST: it drops only a partial block after a whole one, so it needs more than 512 elements
 */
#include <cuda_runtime.h>

#define T 256

__global__ void sum_into(const float *in, int n, float *out)
{
    __shared__ float s[T];
    int tid = threadIdx.x, i = blockIdx.x * 2 * T + tid;
    float v = i < n ? in[i] : 0.0f;
    if (i + T < n) v += in[i + T];
    s[tid] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, s[0]);
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = n / (2 * T);
    if (blocks == 0) blocks = 1;
    sum_into<<<blocks, T, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
