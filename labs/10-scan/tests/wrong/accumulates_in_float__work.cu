/* WRONG ON PURPOSE: the block sums are carried in float "so they cannot
 * overflow". A float holds every integer only up to 2^24; above that it
 * rounds to a multiple of 2, 4, 8 ..., and a sum of unsigned words must
 * wrap modulo 2^32 instead. Right while the offsets stay below 2^24 (n up
 * to 65536 of the small typical values), wrong from 2^20 elements on.
 * Must first fail the work stage.
 * REPORT-SAYS: no float
 * SMALLEST: a float holds every integer below 2^24, so only long inputs round their block sums
 */
#include <cuda_runtime.h>

#define T 1024

__global__ void scan_blocks(const unsigned *in, unsigned *out, int n, float *sums)
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
        if (lane == 31) sums[blockIdx.x] = (float)tincl;
    }
    __syncthreads();
    if (i < n) out[i] = s_warp[warp] + incl - x;
}

/* One thread turns the block sums into offsets, in float. */
__global__ void scan_sums(float *sums, int count)
{
    float run = 0.0f;
    for (int b = 0; b < count; b++) {
        float v = sums[b];
        sums[b] = run;
        run += v;
    }
}

__global__ void add_offsets(unsigned *out, int n, const float *offsets)
{
    int i = blockIdx.x * T + threadIdx.x;
    if (i < n) out[i] += (unsigned)offsets[blockIdx.x];
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (n + T - 1) / T;
    float *sums = (float *)d_scratch;
    scan_blocks<<<blocks, T, 0, stream>>>(d_in, d_out, n, sums);
    scan_sums<<<1, 1, 0, stream>>>(sums, blocks);
    add_offsets<<<blocks, T, 0, stream>>>(d_out, n, sums);
    return cudaGetLastError();
}
