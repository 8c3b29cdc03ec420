/* WRONG ON PURPOSE: the Kogge-Stone warp scan written as one line per
 * step, v += __shfl_up_sync(FULL, v, d), without "if (lane >= d)". For a
 * lane below d there is no lane d below it, and __shfl_up_sync then hands
 * back the lane's OWN value, so those lanes double theirs: lane 0 ends the
 * five steps with 32 times its element, and every lane below 16 adds a
 * part of its prefix twice. The rest (the warp totals scanned by one
 * thread, the block totals scanned by a one-thread kernel, the offsets
 * added back) is right. Already out[0] is wrong at n = 1024.
 * Must first fail the work stage.
 * REPORT-SAYS: exclusive means out[i] sums in[0..i-1]
 */
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)
#define FULL 0xffffffffu

__global__ void scan_blocks(const unsigned *in, unsigned *out, int n, unsigned *sums)
{
    __shared__ unsigned warp_base[WARPS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned x = i < n ? in[i] : 0u, v = x;
    for (unsigned d = 1; d < 32; d *= 2) v += __shfl_up_sync(FULL, v, d); /* lane >= d? */
    if (lane == 31) warp_base[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned run = 0;
        for (int w = 0; w < WARPS; w++) {
            unsigned t = warp_base[w];
            warp_base[w] = run;
            run += t;
        }
        sums[blockIdx.x] = run;
    }
    __syncthreads();
    if (i < n) out[i] = warp_base[warp] + v - x;
}

__global__ void scan_sums_serially(unsigned *sums, int count)
{
    unsigned run = 0;
    for (int b = 0; b < count; b++) {
        unsigned t = sums[b];
        sums[b] = run;
        run += t;
    }
}

__global__ void add_offsets(unsigned *out, int n, const unsigned *sums)
{
    int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) out[i] += sums[blockIdx.x];
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (n + THREADS - 1) / THREADS;
    scan_blocks<<<blocks, THREADS, 0, stream>>>(d_in, d_out, n, d_scratch);
    if (blocks > 1) {
        scan_sums_serially<<<1, 1, 0, stream>>>(d_scratch, blocks);
        add_offsets<<<blocks, THREADS, 0, stream>>>(d_out, n, d_scratch);
    }
    return cudaGetLastError();
}
