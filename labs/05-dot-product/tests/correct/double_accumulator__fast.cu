/* CORRECT, UNUSUAL: every thread sums in double. A float times a float is
 * exact in double, and the double sums lose almost nothing, so each block's
 * sum is right to about 2^-50 before it is rounded once to float for the
 * atomicAdd. Double arithmetic costs more, but the kernel waits for memory
 * anyway (on a GPU with slow FP64, such as most GeForce cards, it might
 * not).
 * Must pass every stage up to fast. */
#include <cuda_runtime.h>

__global__ void dot_double(const float *__restrict__ x, const float *__restrict__ y, int n,
                           float *result)
{
    __shared__ double warp_sums[8];
    double sum = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += (double)x[i] * (double)y[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = threadIdx.x < 8 ? warp_sums[threadIdx.x] : 0.0;
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (threadIdx.x == 0) atomicAdd(result, (float)sum);
    }
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int device, sms, per_sm;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, dot_double, 256, 0);
    int blocks = (n + 255) / 256;
    if (blocks > sms * per_sm) blocks = sms * per_sm;
    dot_double<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
