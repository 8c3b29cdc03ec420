/* WRONG ON PURPOSE: phase 1 of the three-phase scan only. Each block of
 * 1024 threads scans its own 1024 elements with warp shuffles, correctly,
 * but nobody scans the block sums or adds them back: every element past
 * the first block lacks the sum of all the blocks before it. Right at
 * n = 1024 (one block), wrong at 65536. Must first fail the work stage.
 * REPORT-SAYS: past the first block every element needs the sum
 * SMALLEST: it is right while one block's tile holds the whole input
 */
#include <cuda_runtime.h>

#define T 1024

__global__ void scan_blocks(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned s_warp[32];
    unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int i = blockIdx.x * T + tid;
    unsigned x = i < n ? in[i] : 0u, incl = x;
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned left = __shfl_up_sync(0xffffffffu, incl, d);
        if (lane >= d) incl += left;
    }
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        unsigned t = s_warp[lane], tincl = t;
        for (unsigned d = 1; d < 32; d *= 2) {
            unsigned left = __shfl_up_sync(0xffffffffu, tincl, d);
            if (lane >= d) tincl += left;
        }
        s_warp[lane] = tincl - t;
    }
    __syncthreads();
    if (i < n) out[i] = s_warp[warp] + incl - x;
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    (void)d_scratch;
    if (n == 0) return cudaSuccess;
    scan_blocks<<<(n + T - 1) / T, T, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
