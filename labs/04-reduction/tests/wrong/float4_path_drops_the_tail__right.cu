/* WRONG ON PURPOSE: the float4 path is taken only when d_in is 16-byte
 * aligned (a scalar kernel serves the other pointers), which is right; but
 * it reads the n / 4 whole float4s and stops, assuming n is a multiple of
 * 4, as every size in the work stage is. With an aligned d_in and n % 4 of
 * 1, 2 or 3, the last elements are never added (n = 31 loses three). The
 * scalar path, the warp shuffles and the second pass are right.
 * Must first fail the right stage.
 * REPORT-SAYS: the sum is off by more than
 */
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
    if (VEC) {
        const float4 *in4 = reinterpret_cast<const float4 *>(in);
        for (int i = first; i < n / 4; i += stride) { /* n % 4 elements left out */
            float4 q = in4[i];
            v += (q.x + q.y) + (q.z + q.w);
        }
    } else {
        for (int i = first; i < n; i += stride) v += in[i];
    }
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
