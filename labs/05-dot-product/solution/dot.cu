/* Lab 05 - dot product: the reference solution.
 *
 * The ladder (labs/05-dot-product/solution/ladder.cu, measured with
 * `make ladder LAB=05`):
 *   v1 one atomicAdd per element: 2^26 additions serialised on one address.
 *   v2 the lecture slides' kernel: one element per thread, a shared-memory tree per
 *      block, one atomicAdd per block; 2^18 blocks, each short-lived.
 *   v3 a grid that just fills the GPU, each thread summing many elements in
 *      a register (grid-stride loop), warp shuffles instead of the tree:
 *      one atomicAdd per block, about a thousand in all.
 *   v4 (this file) v3 with 16-byte loads: four elements of x and of y per
 *      load instruction, so more bytes are in flight per thread.
 *
 * Alignment. A float4 load needs a 16-byte aligned address and the contract
 * only promises 4. The first `head` elements (0 to 3) are done one by one
 * until x is aligned; if y is then aligned too (it is whenever x and y are
 * equally misaligned, as fresh cudaMalloc buffers are) both are read as
 * float4, otherwise y is read as four floats per step, which touches the
 * same memory sectors with more instructions. The last n - head mod 4
 * elements are done one by one at the end.
 *
 * d_result holds garbage on entry, so it is zeroed first, on the same
 * stream, which orders the memset before the kernel's atomics.
 */
#include <stdint.h>

#include <cuda_runtime.h>

#include "cuda_check.h"

static const int THREADS = 256;

/* The sum of v over the 32 lanes of a warp, in every lane. */
__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

/* Every thread's partial sum -> one atomicAdd per block: shuffles within
 * each warp, the warps' sums through shared memory, then warp 0. */
__device__ __forceinline__ void block_sum_to(float v, float *result)
{
    __shared__ float warp_sums[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (int)(blockDim.x / 32) ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(result, v);
    }
}

/* Thread t of the grid handles float4 steps t, t + stride, ... of the
 * aligned middle part; threads 0..head-1 also take one head element each,
 * and threads 0..2 one tail element each. Y_VEC says whether y is aligned
 * like x (read as float4) or not (read as four floats). */
template <bool Y_VEC>
__global__ void __launch_bounds__(256)
dot_vec4(const float *__restrict__ x, const float *__restrict__ y, int n, int head,
         float *result)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    float acc = 0.0f;
    if (tid < head) acc = x[tid] * y[tid];

    int n4 = (n - head) / 4;
    const float4 *x4 = reinterpret_cast<const float4 *>(x + head);
    const float *ym = y + head;
#pragma unroll 4
    for (int i = tid; i < n4; i += stride) {
        float4 a = __ldg(x4 + i);
        float4 b = Y_VEC ? __ldg(reinterpret_cast<const float4 *>(ym) + i)
                         : make_float4(__ldg(ym + 4 * i), __ldg(ym + 4 * i + 1),
                                       __ldg(ym + 4 * i + 2), __ldg(ym + 4 * i + 3));
        acc += a.x * b.x;
        acc += a.y * b.y;
        acc += a.z * b.z;
        acc += a.w * b.w;
    }

    int tail = head + 4 * n4 + tid;
    if (tail < n) acc += x[tail] * y[tail];
    block_sum_to(acc, result);
}

/* Blocks the whole GPU holds at once: more would only queue behind them. */
static cudaError_t resident_blocks(const void *kernel, int *blocks)
{
    int device, sms, per_sm;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_RETURN_IF_ERROR(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0));
    *blocks = sms * per_sm;
    return cudaSuccess;
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_result, 0, sizeof(float), stream);

    int head = (int)((16 - ((uintptr_t)d_x & 15)) & 15) / 4;
    if (head > n) head = n;
    bool y_vec = (((uintptr_t)(d_y + head)) & 15) == 0;
    const void *kernel = y_vec ? (const void *)dot_vec4<true> : (const void *)dot_vec4<false>;
    int blocks;
    CUDA_RETURN_IF_ERROR(resident_blocks(kernel, &blocks));
    int needed = ((n - head) / 4 + THREADS - 1) / THREADS + 1;
    if (needed < blocks) blocks = needed;

    /* The host-side queries above come first, so that the memset and the
     * kernel reach the GPU back to back. Same stream: the memset is done
     * before the first block adds to *d_result. */
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_result, 0, sizeof(float), stream));
    if (y_vec)
        dot_vec4<true><<<blocks, THREADS, 0, stream>>>(d_x, d_y, n, head, d_result);
    else
        dot_vec4<false><<<blocks, THREADS, 0, stream>>>(d_x, d_y, n, head, d_result);
    return cudaGetLastError();
}
