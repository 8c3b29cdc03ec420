/* CORRECT, UNUSUAL: every thread keeps a Kahan-compensated sum: the low
 * bits each addition rounds away are kept in `lost` and fed back into the
 * next one. The per-thread error no longer grows with the number of terms.
 * The block and the atomics add as usual. The extra flops are free: the
 * kernel waits for memory anyway. (Built without fast math, as the grader
 * does, the compiler may not simplify (t - sum) - y away.)
 * Must pass every stage up to fast. */
#include <cuda_runtime.h>

__global__ void dot_kahan(const float *__restrict__ x, const float *__restrict__ y, int n,
                          float *result)
{
    __shared__ float warp_sums[8];
    float sum = 0.0f, lost = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float term = x[i] * y[i] - lost;
        float t = sum + term;
        lost = (t - sum) - term;
        sum = t;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = threadIdx.x < 8 ? warp_sums[threadIdx.x] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (threadIdx.x == 0) atomicAdd(result, sum);
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
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, dot_kahan, 256, 0);
    int blocks = (n + 255) / 256;
    if (blocks > sms * per_sm) blocks = sms * per_sm;
    dot_kahan<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
