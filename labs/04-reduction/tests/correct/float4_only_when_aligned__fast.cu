/* CORRECT, in an unusual way: instead of peeling the first elements one
 * by one until the address is 16-byte aligned, it picks one of two kernels
 * on the host: when d_in happens to be 16-byte aligned (cudaMalloc'd
 * buffers are), a template instance that reads float4s and then adds the
 * last n % 4 elements one by one; otherwise an instance that reads plain
 * floats. Both are grid-stride loops summing in a register, a warp
 * shuffle tree and one partial per block in d_scratch; a second one-block
 * launch of the scalar instance adds the partials into d_out. n == 0
 * needs no special case: one block adds nothing and writes 0. The fast
 * stage's buffer is a fresh cudaMalloc, so it is timed on the float4 path
 * (on an H200: 97% of the bound).
 * Must pass every stage up to and including fast. */
#include <cuda_runtime.h>
#include <stdint.h>

#define THREADS 256
#define MAX_BLOCKS 1024

template <bool VEC>
__global__ void block_sums(const float *__restrict__ in, int n, float *__restrict__ partial)
{
    __shared__ float warp_sums[THREADS / 32];
    int first = blockIdx.x * THREADS + threadIdx.x, stride = gridDim.x * THREADS;
    float v = 0.0f;
    int scalar_from = 0;
    if (VEC) { /* only instantiated for a 16-byte aligned in */
        const float4 *in4 = reinterpret_cast<const float4 *>(in);
        for (int i = first; i < n / 4; i += stride) {
            float4 q = in4[i];
            v += (q.x + q.y) + (q.z + q.w);
        }
        scalar_from = n / 4 * 4;
    }
    for (int i = scalar_from + first; i < n; i += stride) v += in[i];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < THREADS / 32 ? warp_sums[threadIdx.x] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (threadIdx.x == 0) partial[blockIdx.x] = v;
    }
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    int blocks = (n + 4 * THREADS - 1) / (4 * THREADS);
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    if (blocks < 1) blocks = 1;
    if ((uintptr_t)d_in % 16 == 0)
        block_sums<true><<<blocks, THREADS, 0, stream>>>(d_in, n, d_scratch);
    else
        block_sums<false><<<blocks, THREADS, 0, stream>>>(d_in, n, d_scratch);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    block_sums<false><<<1, THREADS, 0, stream>>>(d_scratch, blocks, d_out);
    return cudaGetLastError();
}
