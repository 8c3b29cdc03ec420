/* WRONG ON PURPOSE: the exclusive scan written as an inclusive one stored
 * one place to the right: out[i + 1] = in[0] + ... + in[i] for every
 * i < n, and out[0] = 0. Every value in out[0..n-1] is right, but the
 * last thread also writes out[n], one word past the end of d_out. Must
 * first fail the right stage: work does not look past the outputs, right
 * checks the guard bytes behind d_out.
 * REPORT-SAYS: past the end of
 */
#include <cuda_runtime.h>

#define T 256

__device__ unsigned warp_scan(unsigned v, unsigned lane)
{
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned left = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += left;
    }
    return v;
}

__global__ void scan_blocks(const unsigned *in, unsigned *out, unsigned count, unsigned *sums,
                            unsigned shift)
{
    __shared__ unsigned s_warp[T / 32];
    unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    unsigned i = blockIdx.x * T + tid;
    unsigned x = i < count ? in[i] : 0u, incl = warp_scan(x, lane);
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        unsigned t = lane < T / 32 ? s_warp[lane] : 0u, tincl = warp_scan(t, lane);
        if (lane < T / 32) s_warp[lane] = tincl - t;
        if (lane == T / 32 - 1) sums[blockIdx.x] = tincl;
    }
    __syncthreads();
    /* shift == 1: the inclusive prefix of i is the exclusive one of i + 1 */
    if (i < count) out[i + shift] = s_warp[warp] + incl - (shift ? 0u : x);
    if (shift && i == 0) out[0] = 0;
}

__global__ void add_offsets(unsigned *out, unsigned count, const unsigned *offsets, unsigned shift)
{
    unsigned i = blockIdx.x * T + threadIdx.x;
    if (i < count) out[i + shift] += offsets[blockIdx.x];
}

static cudaError_t level(const unsigned *src, unsigned *dst, unsigned count, unsigned blocks,
                         unsigned *scratch, unsigned shift, cudaStream_t st)
{
    scan_blocks<<<blocks, T, 0, st>>>(src, dst, count, scratch, shift);
    if (blocks == 1) return cudaGetLastError();
    cudaError_t e = level(scratch, scratch, blocks, (blocks + T - 1) / T, scratch + blocks, 0, st);
    if (e != cudaSuccess) return e;
    add_offsets<<<blocks, T, 0, st>>>(dst, count, scratch, shift);
    return cudaGetLastError();
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    unsigned blocks = ((unsigned)n + T - 1) / T;
    return level(d_in, d_out, (unsigned)n, blocks, d_scratch, 1, stream);
}
