/* WRONG ON PURPOSE: a good kernel, but the memset and the launch go to the
 * default stream instead of the one it is given. The grader's stream then
 * holds nothing to wait for, so the timing sees no work at all.
 * Must first fail the fast stage ("faster than the GPU can move memory"). */
#include <cuda_runtime.h>

__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    __shared__ float warp_sums[8];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i] * y[i];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = warp_sum(threadIdx.x < 8 ? warp_sums[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0) atomicAdd(result, sum);
    }
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    (void)stream;
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), 0);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + 255) / 256;
    if (blocks > 2048) blocks = 2048;
    dot_kernel<<<blocks, 256>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
