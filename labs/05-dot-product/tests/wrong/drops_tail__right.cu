/* WRONG ON PURPOSE: the lecture slides' kernel (one product per thread, one atomicAdd
 * per block) with the grid rounded down, n / 256 blocks: the last n % 256
 * elements are never added. Invisible when n is a multiple of 256, as every
 * work size is; with n < 256 no block runs and the answer stays 0.
 * Must first fail the right stage. */
#include <cuda_runtime.h>

__global__ void dot_kernel(const float *x, const float *y, float *result)
{
    __shared__ float partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = x[i] * y[i];
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    int blocks = n / 256;
    if (e != cudaSuccess || blocks == 0) return e;
    dot_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, d_result);
    return cudaGetLastError();
}
