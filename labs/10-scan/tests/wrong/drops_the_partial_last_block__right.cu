/* WRONG ON PURPOSE: blocks = max(1, n / T), rounded down, "since n is a
 * multiple of the block anyway" (it is at every work size), with the
 * max(1, ...) added after n = 1 failed: the elements of the last, partial
 * block are never scanned once there is more than one block. The levels
 * above (the block sums) round up, so the work sizes come out right. Must
 * first fail the right stage (n = 257: element 256 is never written).
 * REPORT-SAYS: including the last partial block
 * SMALLEST: it drops only a partial block after a whole one of 256, so 257 is the smallest that fails
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

__global__ void scan_blocks(const unsigned *in, unsigned *out, unsigned count, unsigned *sums)
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
    if (i < count) out[i] = s_warp[warp] + incl - x;
}

__global__ void add_offsets(unsigned *out, unsigned count, const unsigned *offsets)
{
    unsigned i = blockIdx.x * T + threadIdx.x;
    if (i < count) out[i] += offsets[blockIdx.x];
}

static cudaError_t level(const unsigned *src, unsigned *dst, unsigned count, unsigned blocks,
                         unsigned *scratch, cudaStream_t st)
{
    scan_blocks<<<blocks, T, 0, st>>>(src, dst, count, scratch);
    if (blocks == 1) return cudaGetLastError();
    unsigned up = (blocks + T - 1) / T; /* the levels above round up */
    cudaError_t e = level(scratch, scratch, blocks, up, scratch + blocks, st);
    if (e != cudaSuccess) return e;
    add_offsets<<<blocks, T, 0, st>>>(dst, count, scratch);
    return cudaGetLastError();
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    unsigned blocks = (unsigned)n / T; /* BUG: rounds down */
    if (blocks == 0) blocks = 1;
    return level(d_in, d_out, (unsigned)n, blocks, d_scratch, stream);
}
