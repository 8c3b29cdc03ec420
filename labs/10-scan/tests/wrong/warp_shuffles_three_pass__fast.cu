/* WRONG ON PURPOSE (too slow): rung v4 of the ladder, the
 * three-phase scan with warp shuffles, one element per thread in
 * 1024-thread blocks, the block sums scanned by calling the same code one
 * level up, then added back. Right everywhere and several times faster
 * than the baseline, but every element crosses DRAM four times (read and
 * write in phase 1, read and write again in phase 3) instead of twice, and
 * each thread loads 4 bytes at a time: it runs at under a third of the
 * copy bandwidth, below the roofline threshold. Must first fail the fast
 * stage, on a GPU (on the H100, 2026-11-27: 29.7-29.9% of copy and
 * 1.05-1.06x in six runs, against bars of 55% and 2.0x).
 * REPORT-SAYS: of copy
 */
#include <cuda_runtime.h>

#define T 1024

__device__ unsigned warp_scan(unsigned v, unsigned lane)
{
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned left = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += left;
    }
    return v;
}

__global__ void __launch_bounds__(T) scan_blocks(const unsigned *in, unsigned *out, unsigned count,
                                                 unsigned *sums)
{
    __shared__ unsigned s_warp[32];
    unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    unsigned i = blockIdx.x * T + tid;
    unsigned x = i < count ? in[i] : 0u, incl = warp_scan(x, lane);
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        unsigned t = s_warp[lane], tincl = warp_scan(t, lane);
        s_warp[lane] = tincl - t;
        if (lane == 31) sums[blockIdx.x] = tincl;
    }
    __syncthreads();
    if (i < count) out[i] = s_warp[warp] + incl - x;
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
