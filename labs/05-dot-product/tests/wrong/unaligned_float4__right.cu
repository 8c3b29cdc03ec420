/* WRONG ON PURPOSE: float4 loads from x and y as given, assuming 16-byte
 * aligned pointers (the tail after the last whole float4 is handled). The
 * contract promises only 4-byte alignment: in the right stage the pointers
 * are offset and the first float4 load faults (misaligned address).
 * Must first fail the right stage.
 * REPORT-SAYS: float4 load from a pointer that is not 16-byte aligned
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
    int tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    const float4 *y4 = reinterpret_cast<const float4 *>(y);
    float sum = 0.0f;
    for (int i = tid; i < n / 4; i += stride) {
        float4 a = x4[i], b = y4[i];
        sum += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    int tail = n / 4 * 4 + tid;
    if (tail < n) sum += x[tail] * y[tail];
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
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n / 4 + 255) / 256 + 1;
    if (blocks > 1024) blocks = 1024;
    dot_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
