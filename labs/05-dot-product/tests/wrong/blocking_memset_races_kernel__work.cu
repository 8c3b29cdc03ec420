/* WRONG ON PURPOSE: zeroes d_result with cudaMemset, believing it finishes
 * before the function goes on. It does not: on device memory cudaMemset is
 * asynchronous with respect to the host, and it is queued on the legacy
 * default stream, which is not ordered with the grader's non-blocking
 * stream. The memset and the kernel race; the grader holds the default
 * stream back during work and right (labs/05-dot-product/trusted/lab.cu), so the
 * memset lands after the kernel and the result is 0.
 * Must first fail the work stage (on a GPU; the CPU emulation runs streams in
 * order and cannot show this race).
 * EMULATION: pass pass: emulated streams run in order, so the memset always comes first; on a GPU the runner holds the default stream back
 */
#include <cuda_runtime.h>

__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i] * y[i];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0) atomicAdd(result, sum); /* one atomic per warp */
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemset(d_result, 0, sizeof(float)); /* "synchronous" */
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    dot_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
