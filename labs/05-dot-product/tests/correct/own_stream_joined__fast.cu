/* CORRECT, UNUSUAL: the work runs on a stream of the file's own, made on
 * the first call, and the given stream waits for it through an event
 * before the call returns: joined work is the call's work, timed and
 * checked like work on the given stream. A grid of 8 blocks per SM loops
 * over the data, warps add with shuffles, one atomicAdd per block.
 * Must pass every stage up to fast.
 *
 * The same kernel is what grader/SECURITY.md measured starting at once on
 * a stream of one's own with ("Work started on a stream of its own").
 */
#include <cuda_runtime.h>

__device__ static float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void __launch_bounds__(256)
dot_grid_stride(const float *__restrict__ x, const float *__restrict__ y, int n, float *result)
{
    __shared__ float warp_sums[8];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += __ldg(x + i) * __ldg(y + i);
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
    static cudaStream_t own;
    static cudaEvent_t done;
    cudaError_t e;
    if (!own) {
        if ((e = cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking)) != cudaSuccess) return e;
        if ((e = cudaEventCreateWithFlags(&done, cudaEventDisableTiming)) != cudaSuccess) return e;
    }
    if ((e = cudaMemsetAsync(d_result, 0, sizeof(float), own)) != cudaSuccess) return e;
    if (n > 0) {
        int device, sms;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        dot_grid_stride<<<8 * sms, 256, 0, own>>>(d_x, d_y, n, d_result);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    if ((e = cudaEventRecord(done, own)) != cudaSuccess) return e;
    return cudaStreamWaitEvent(stream, done, 0);
}
