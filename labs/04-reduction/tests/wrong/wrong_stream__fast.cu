/* WRONG ON PURPOSE: a right and fast reduction, launched on the legacy
 * default stream instead of the stream it is given. The grader's stream
 * does not wait for the default stream, so the timing sees almost nothing
 * and reports a bandwidth above what the GPU can move. Right values (the
 * grader synchronizes the whole device before reading them), so it must
 * first fail the fast stage. */
#include <stdint.h>

#include <cuda_runtime.h>

#define T 256

__device__ float block_sum(float v)
{
    __shared__ float warp_sums[32];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
        for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    }
    return v;
}

__global__ void partials(const float *in, int n, int head, float *out)
{
    int tid = blockIdx.x * T + threadIdx.x, stride = gridDim.x * T;
    float v = tid < head ? in[tid] : 0.0f;
    const float4 *in4 = reinterpret_cast<const float4 *>(in + head);
    int n4 = (n - head) / 4;
    for (int i = tid; i < n4; i += stride) {
        float4 x = in4[i];
        v += (x.x + x.y) + (x.z + x.w);
    }
    if (head + 4 * n4 + tid < n) v += in[head + 4 * n4 + tid];
    v = block_sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void finish(const float *p, int count, float *out)
{
    float v = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) v += p[i];
    v = block_sum(v);
    if (threadIdx.x == 0) *out = v;
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)stream;
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), 0);
    int head = (int)(((16 - ((uintptr_t)d_in & 15)) & 15) / 4);
    if (head > n) head = n;
    int blocks = ((n - head) / 4 + T - 1) / T;
    if (blocks > 132 * 8) blocks = 132 * 8;
    if (blocks < 1) blocks = 1;
    partials<<<blocks, T>>>(d_in, n, head, d_scratch);
    finish<<<1, 1024>>>(d_scratch, blocks, d_out);
    return cudaGetLastError();
}
