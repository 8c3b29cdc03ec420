/* WRONG ON PURPOSE: the grid is capped at 2048 blocks of 2 x 256 elements
 * (one "pass" of 2^20 elements), but the kernel has no grid-stride loop:
 * each thread adds its two elements and stops. Every work size fits in one
 * pass; n = 2^21 + 1 loses half its elements. Must first fail the right
 * stage. The cure: for (i = ...; i < n; i += 2 * 256 * gridDim.x).
 * SMALLEST: its one pass covers 2^20 elements, so only larger inputs lose any
 */
#include <cuda_runtime.h>

#define T 256
#define MAX_BLOCKS 2048

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
    int blocks = (n + 2 * T - 1) / (2 * T);
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    sum_into<<<blocks, T, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
