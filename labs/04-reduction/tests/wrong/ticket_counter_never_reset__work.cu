/* WRONG ON PURPOSE: one launch does both passes, as in the CUDA samples'
 * threadFenceReduction: each block stores its partial in d_scratch, makes
 * it visible with __threadfence(), and takes a ticket from a __device__
 * counter; the block that draws ticket gridDim.x - 1 adds the partials.
 * The counter is "initialised" in its declaration (= 0), but that happens
 * once, when the module is loaded, and nobody sets it back after use. The
 * grid is always 256 blocks (a grid-stride loop covers any n), so the
 * first call draws tickets 0..255 and is right; the next call draws
 * 256..511, no block draws 255, and d_out is never written. The work
 * stage makes three calls in one run: the second one fails. Each call
 * alone, in a fresh process, would be right, and so would the smallest
 * case the report shows, which fails only after the smaller ones before
 * it: the report says so.
 * Must first fail the work stage.
 * REPORT-SAYS: it fails only after the smaller calls before it
 * SMALLEST-ON-GPU: a case that fails only after the calls before it, tried again alone
 */
#include <cuda_runtime.h>

#define T 256
#define BLOCKS 256

static __device__ unsigned int tickets = 0; /* set once, at load time */

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
        __threadfence();
        last = atomicAdd(&tickets, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    float t = 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += T) t += ((volatile float *)partial)[b];
    __syncthreads();
    float total = block_sum(t, s);
    if (threadIdx.x == 0) *out = total; /* and tickets is left as it is */
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    reduce_with_ticket<<<BLOCKS, T, 0, stream>>>(d_in, n, d_out, d_scratch);
    return cudaGetLastError();
}
