/* CORRECT, UNUSUAL: no shared memory and no __syncthreads at all. A grid
 * that fills the GPU loops over the data; each warp adds its 32 sums with
 * shuffles and its lane 0 sends one atomicAdd: one atomic per warp (a few
 * thousand in all) instead of one per block. Blocks of 1024 threads.
 * Must pass every stage up to fast. */
#include <cuda_runtime.h>

__global__ void dot_warps(const float *__restrict__ x, const float *__restrict__ y, int n,
                          float *result)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i] * y[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(result, sum);
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int device, sms;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    int blocks = (n + 1023) / 1024;
    if (blocks > 2 * sms) blocks = 2 * sms; /* 2048 threads per SM */
    dot_warps<<<blocks, 1024, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
