/* WRONG ON PURPOSE: an estimate, not the answer. Above 2^24 elements (no
 * size the grader checks on the CPU is that large) it sums the products
 * of the first half only and doubles them, so it reads half the memory
 * and is timed at twice the speed. With the lab's typical inputs the
 * estimate lands within about 0.05% of the true sum: closer than the
 * naive baseline's own rounding drift, so comparing a timed call with the
 * baseline's answer cannot tell. What tells: before every timed round the
 * grader puts two large products of opposite sign at random places in the
 * input (lab_spec.fast.spike); a call that reads half the input misses
 * one of them about every other round and is off by far more than any
 * rounding, and the stage fails with "the timed calls computed a wrong
 * answer".
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
#include <cuda_runtime.h>

__global__ void dot_double(const float *__restrict__ x, const float *__restrict__ y, int n,
                           float scale, float *result)
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
        if (threadIdx.x == 0) atomicAdd(result, (float)(sum * scale));
    }
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int sampled = n > (1 << 24) ? n / 2 : n;
    float scale = (float)n / (float)sampled;
    int device, sms, per_sm;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, dot_double, 256, 0);
    int blocks = (sampled + 255) / 256;
    if (blocks > sms * per_sm) blocks = sms * per_sm;
    dot_double<<<blocks, 256, 0, stream>>>(d_x, d_y, sampled, scale, d_result);
    return cudaGetLastError();
}
