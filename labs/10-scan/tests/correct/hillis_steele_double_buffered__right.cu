/* CORRECT, UNUSUAL: Hillis-Steele done right with two shared arrays
 * instead of one: each step reads one and writes the other, so a single
 * __syncthreads() per step is enough (the in-place version needs two).
 * 1024 threads per block, one element each; the block sums go up a level
 * by calling the same scan on them, in place, until one block is left.
 * Not work-efficient (10 steps of 1024 adds per block), but right.
 */
#include <cuda_runtime.h>

#define T 1024

__global__ void scan_blocks(const unsigned *in, unsigned *out, unsigned count, unsigned *sums)
{
    __shared__ unsigned buf[2][T];
    unsigned tid = threadIdx.x, i = blockIdx.x * T + tid;
    unsigned x = i < count ? in[i] : 0u;
    int src = 0;
    buf[src][tid] = x;
    __syncthreads();
    for (unsigned step = 1; step < T; step *= 2) {
        unsigned v = buf[src][tid];
        if (tid >= step) v += buf[src][tid - step];
        buf[1 - src][tid] = v;
        src = 1 - src;
        __syncthreads();
    }
    if (i < count) out[i] = buf[src][tid] - x;
    if (tid == T - 1) sums[blockIdx.x] = buf[src][tid];
}

__global__ void add_offsets(unsigned *out, unsigned count, const unsigned *offsets)
{
    unsigned i = blockIdx.x * T + threadIdx.x;
    if (i < count) out[i] += offsets[blockIdx.x];
}

static cudaError_t level(const unsigned *src, unsigned *dst, unsigned count, unsigned *scratch,
                         cudaStream_t st)
{
    unsigned blocks = (count + T - 1) / T;
    scan_blocks<<<blocks, T, 0, st>>>(src, dst, count, scratch);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || blocks == 1) return e;
    e = level(scratch, scratch, blocks, scratch + blocks, st);
    if (e != cudaSuccess) return e;
    add_offsets<<<blocks, T, 0, st>>>(dst, count, scratch);
    return cudaGetLastError();
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    return level(d_in, d_out, (unsigned)n, d_scratch, stream);
}
