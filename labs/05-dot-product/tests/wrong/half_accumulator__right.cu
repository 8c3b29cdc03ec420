/* WRONG ON PURPOSE: each thread accumulates in half precision (11
 * significant bits, u = 2^-11) "to save registers". Every product is rounded
 * to half, an error of up to 2^-12 of the term, 4096 times the float
 * rounding the bound allows per step. With thousands of terms the bound
 * (gamma_n grows with n) is wide enough to hide it, so the work sizes
 * pass; with n = 1 the bound is one float rounding and the half result is
 * far outside it.
 * Must first fail the right stage.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    __shared__ float warp_sums[8];
    __half acc = __float2half(0.0f);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc = __hadd(acc, __float2half(x[i] * y[i]));
    float sum = warp_sum(__half2float(acc));
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
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    dot_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
