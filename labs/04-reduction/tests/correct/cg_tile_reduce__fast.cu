/* CORRECT, in an unusual way: the block sums are written with cooperative
 * groups instead of raw warp intrinsics. cg::tiled_partition<32> cuts the
 * block into warps, cg::reduce(warp, v, cg::plus<float>()) sums each warp
 * (a butterfly of shfl_xor: every lane gets the sum, no mask to get
 * wrong), lane 0 of each warp (thread_rank 0, meta_group_rank = which warp)
 * stores it, block.sync() replaces __syncthreads, and warp 0 reduces the
 * warp sums the same way. The rest is the reference's plan: a grid the
 * size of the GPU, a grid-stride loop with four independent 16-byte loads
 * after peeling the unaligned head, one partial per block in d_scratch and
 * a second one-block launch that adds them. Must pass every stage.
 */
#include <stdint.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define T 256
#define FINAL_T 1024

/* The sum of v over the block, in every thread of warp 0. */
__device__ __forceinline__ float block_sum(float v)
{
    __shared__ float warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
    }
    return v;
}

__global__ void __launch_bounds__(T) block_partials(const float *in, int n, int head, float *partials)
{
    int tid = blockIdx.x * T + threadIdx.x, stride = gridDim.x * T;
    float a = tid < head ? in[tid] : 0.0f, b = 0.0f, c = 0.0f, d = 0.0f;
    const float4 *in4 = reinterpret_cast<const float4 *>(in + head);
    int n4 = (n - head) / 4, i = tid;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        float4 x = in4[i], y = in4[i + stride], z = in4[i + 2 * stride], w = in4[i + 3 * stride];
        a += (x.x + x.y) + (x.z + x.w);
        b += (y.x + y.y) + (y.z + y.w);
        c += (z.x + z.y) + (z.z + z.w);
        d += (w.x + w.y) + (w.z + w.w);
    }
    for (; i < n4; i += stride) {
        float4 x = in4[i];
        a += (x.x + x.y) + (x.z + x.w);
    }
    if (head + 4 * n4 + tid < n) b += in[head + 4 * n4 + tid];
    float sum = block_sum((a + b) + (c + d));
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(FINAL_T) final_sum(const float *partials, int count, float *out)
{
    float v = 0.0f;
    for (int k = threadIdx.x; k < count; k += FINAL_T) v += partials[k];
    v = block_sum(v);
    if (threadIdx.x == 0) *out = v;
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    static int resident = 0;
    if (resident == 0) {
        int device, sms, per_sm;
        cudaError_t e = cudaGetDevice(&device);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, block_partials, T, 0);
        if (e != cudaSuccess) return e;
        resident = sms * per_sm;
    }
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    int head = (int)(((16 - ((uintptr_t)d_in & 15)) & 15) / 4);
    if (head > n) head = n;
    int blocks = ((n - head) / 4 + T - 1) / T; /* no more blocks than float4 for their threads */
    if (blocks > resident) blocks = resident;
    if (blocks < 1) blocks = 1;
    float *partials = blocks == 1 ? d_out : d_scratch;
    block_partials<<<blocks, T, 0, stream>>>(d_in, n, head, partials);
    if (blocks == 1) return cudaGetLastError();
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    final_sum<<<1, FINAL_T, 0, stream>>>(d_scratch, blocks, d_out);
    return cudaGetLastError();
}
