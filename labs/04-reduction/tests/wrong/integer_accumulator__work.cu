/* WRONG ON PURPOSE: each thread sums its elements into an int, as in the
 * lecture slides' integer reduction. `sum += in[i]` converts back to int after every
 * addition and drops the fraction: values between 0.25 and 1.75 add 0 or 1.
 * Must first fail the work stage. */
#include <cuda_runtime.h>

#define T 256

__global__ void sum_into(const float *in, int n, float *out)
{
    __shared__ int warp_sums[T / 32];
    int sum = 0;
    for (int i = blockIdx.x * T + threadIdx.x; i < n; i += gridDim.x * T) sum += in[i];
    for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < T / 32; w++) total += warp_sums[w];
        atomicAdd(out, (float)total);
    }
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + T - 1) / T;
    if (blocks > 1024) blocks = 1024;
    sum_into<<<blocks, T, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
