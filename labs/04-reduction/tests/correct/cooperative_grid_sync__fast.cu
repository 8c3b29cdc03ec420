/* CORRECT, in an unusual way: one cooperative launch does both passes. Every
 * block writes its partial sum to d_scratch, the whole grid waits at
 * grid.sync() (which also makes those writes visible to every block), and
 * block 0 adds the partials. A cooperative grid may hold no more blocks than
 * the GPU runs at once, which is the right size for a grid-stride loop
 * anyway. 16-byte loads after peeling the unaligned head. Must pass every
 * stage.
 * EMULATION: skipped skipped: cooperative groups are not emulated yet, so the grader
 * sends the file to a GPU instead of failing it (exit 3)
 */
#include <stdint.h>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define T 256

__device__ float block_sum(float v)
{
    __shared__ float warp_sums[T / 32];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0.0f;
    if (threadIdx.x == 0)
        for (int w = 0; w < T / 32; w++) v += warp_sums[w];
    __syncthreads(); /* warp_sums is reused by the second call */
    return v;
}

__global__ void __launch_bounds__(T) both_passes(const float *in, int n, int head,
                                                  float *partial, float *out)
{
    int tid = blockIdx.x * T + threadIdx.x, stride = gridDim.x * T;
    float a = tid < head ? in[tid] : 0.0f, b = 0.0f;
    const float4 *in4 = reinterpret_cast<const float4 *>(in + head);
    int n4 = (n - head) / 4, i = tid;
    for (; i + stride < n4; i += 2 * stride) {
        float4 x = in4[i], y = in4[i + stride];
        a += (x.x + x.y) + (x.z + x.w);
        b += (y.x + y.y) + (y.z + y.w);
    }
    if (i < n4) {
        float4 x = in4[i];
        a += (x.x + x.y) + (x.z + x.w);
    }
    if (head + 4 * n4 + tid < n) b += in[head + 4 * n4 + tid];
    float v = block_sum(a + b);
    if (threadIdx.x == 0) partial[blockIdx.x] = v;

    cg::this_grid().sync();

    if (blockIdx.x == 0) {
        v = 0.0f;
        for (int k = threadIdx.x; k < (int)gridDim.x; k += T) v += partial[k];
        v = block_sum(v);
        if (threadIdx.x == 0) *out = v;
    }
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    static int resident = 0;
    if (resident == 0) {
        int device, sms, per_sm;
        cudaError_t e = cudaGetDevice(&device);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, both_passes, T, 0);
        if (e != cudaSuccess) return e;
        resident = sms * per_sm;
    }
    int head = (int)(((16 - ((uintptr_t)d_in & 15)) & 15) / 4);
    if (head > n) head = n;
    int blocks = ((n - head) / 4 + T - 1) / T;
    if (blocks > resident) blocks = resident;
    if (blocks < 1) blocks = 1; /* n == 0 too: block 0 writes the 0 */
    void *args[] = {(void *)&d_in, (void *)&n, (void *)&head, (void *)&d_scratch, (void *)&d_out};
    return cudaLaunchCooperativeKernel((const void *)both_passes, blocks, T, args, 0, stream);
}
