/* WRONG ON PURPOSE: zeroes d_result with cudaMemsetAsync on stream 0 (as
 * when the stream argument is left out), the legacy default stream, which is
 * not ordered with the grader's non-blocking stream: the memset and the
 * kernel race. On an idle GPU the memset (queued first, and tiny) usually
 * wins, which hides the bug; the grader holds the default stream back during
 * work and right (see labs/05-dot-product/trusted/lab.cu), so the memset lands after
 * the kernel and the result is 0.
 * Must first fail the work stage (on a GPU; the CPU emulation runs streams in
 * order and cannot show this race).
 * EMULATION: pass pass: emulated streams run in order, so the memset on the default stream always comes first; on a GPU the runner holds the default stream back
 */
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
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), 0);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    dot_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
