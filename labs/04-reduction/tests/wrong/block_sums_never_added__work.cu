/* WRONG ON PURPOSE: the kernel of the lecture slides' first slide, launched once:
 * every block writes its partial sum to d_out[blockIdx.x] and nobody adds
 * the partials up (the recursive second launch, or an atomicAdd, is
 * missing). d_out[0] ends up as block 0's sum only, and the other blocks
 * write past the single float d_out holds. Must first fail the work stage.
 * REPORT-SAYS: the sum is off by more than
 * SMALLEST: it is right while one block of 512 elements holds the whole input
 */
#include <cuda_runtime.h>

#define T 256

__global__ void block_sums(const float *in, int n, float *out)
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
    if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    block_sums<<<(n + 2 * T - 1) / (2 * T), T, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
