/* WRONG ON PURPOSE: the first pass reads d_in as float4 straight from the
 * pointer it was given (reinterpret_cast<const float4 *>(d_in)), without
 * adding the first 0..3 elements one by one until the address is 16-byte
 * aligned. The last n % 4 elements after the final whole float4 are added
 * one by one, and the rest (a grid-stride loop, warp shuffles, a second
 * pass over the block sums) is right, so every sum is right wherever d_in
 * is 16-byte aligned: work's pointers are, and it passes work. The
 * contract promises only 4 bytes: right offsets d_in by 4, 8 or 12 bytes,
 * and the first float4 load from such an address faults (misaligned
 * address) on the GPU. Sizes below 4 never load a float4, and n = 31 comes
 * with an aligned d_in, so the first right case to fail is n = 33.
 * Must first fail the right stage.
 * REPORT-SAYS: a float4 load from an address that is not 16-byte aligned
 */
#include <cuda_runtime.h>

#define THREADS 256   /* threads per block, a multiple of 32 */
#define MAX_BLOCKS 1024 /* at most this many block sums for the second pass */

/* The sum of v over the 32 lanes of a warp, in lane 0. */
__device__ static float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* The sum of v over the block, in thread 0. Every thread must call it. */
__device__ static float block_sum(float v)
{
    __shared__ float warp_sums[THREADS / 32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = 0.0f;
    if (warp == 0) {
        if (lane < THREADS / 32) v = warp_sums[lane];
        v = warp_sum(v);
    }
    return v;
}

/* Pass 1: each block sums its share of the n / 4 float4 of in (a
 * grid-stride loop), plus the 0..3 elements after the last whole float4,
 * and writes one sum to partials[blockIdx.x]. */
__global__ void float4_partial_sums(const float *in, int n, float *partials)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    /* BUG: in is only 4-byte aligned; in[0] need not start a float4. */
    const float4 *in4 = reinterpret_cast<const float4 *>(in);
    int n4 = n / 4;
    float sum = 0.0f;
    for (int i = tid; i < n4; i += stride) {
        float4 v = in4[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    int tail = 4 * n4 + tid; /* threads 0..2 of block 0 take the tail */
    if (tail < n) sum += in[tail];
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

/* Pass 2: one block adds the block sums and writes the total. */
__global__ void add_partials(const float *partials, int count, float *out)
{
    float sum = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partials[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) *out = sum;
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out,
                                  float *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    /* One float4 per thread at most, at least one block (n < 4 still
     * needs one, for the tail), no more block sums than MAX_BLOCKS. */
    int blocks = (n / 4 + THREADS - 1) / THREADS;
    if (blocks < 1) blocks = 1;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    if (blocks == 1) { /* a single block writes the answer itself */
        float4_partial_sums<<<1, THREADS, 0, stream>>>(d_in, n, d_out);
        return cudaGetLastError();
    }
    float4_partial_sums<<<blocks, THREADS, 0, stream>>>(d_in, n, d_scratch);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    add_partials<<<1, THREADS, 0, stream>>>(d_scratch, blocks, d_out);
    return cudaGetLastError();
}
