/* CORRECT, in an unusual way: one launch does both passes, as the CUDA
 * samples' threadFenceReduction does. Every block writes its partial sum
 * to d_scratch, makes it visible with __threadfence(), and takes a ticket
 * from a counter in global memory (a __device__ variable); the block that
 * draws the last ticket adds the partials and writes d_out, then sets the
 * counter back to 0 for the next call. No cooperative launch, no second
 * kernel. Must pass every stage up to and including right.
 */
#include <cuda_runtime.h>

#define T 256
#define MAX_BLOCKS 1024

__device__ unsigned int blocks_done = 0;

__device__ float block_sum(float v, float *s)
{
    s[threadIdx.x] = v;
    __syncthreads();
    for (int half = T / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    return s[0];
}

__global__ void reduce_with_ticket(const float *in, int n, float *out, float *partial)
{
    __shared__ float s[T];
    __shared__ bool last;
    float v = 0.0f;
    for (int i = blockIdx.x * T + threadIdx.x; i < n; i += gridDim.x * T) v += in[i];
    float mine = block_sum(v, s);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = mine;
        __threadfence(); /* the partial is seen before the ticket is */
        last = atomicAdd(&blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    float t = 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += T) t += ((volatile float *)partial)[b];
    __syncthreads(); /* s is reused */
    float total = block_sum(t, s);
    if (threadIdx.x == 0) {
        *out = total;
        blocks_done = 0; /* ready for the next call */
    }
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    int blocks = (n + T - 1) / T;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    if (blocks < 1) blocks = 1; /* n == 0: one block writes 0 */
    reduce_with_ticket<<<blocks, T, 0, stream>>>(d_in, n, d_out, d_scratch);
    return cudaGetLastError();
}
