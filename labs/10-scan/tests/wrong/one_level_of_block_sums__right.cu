/* WRONG ON PURPOSE: the three-phase scan with its middle phase done by a
 * single block. 1024 threads scan 4 elements each (4096 per block); the
 * block sums are then scanned by ONE block of 1024 threads, one sum each,
 * which covers 1024 blocks: n <= 2^22, every work size. Above that the
 * sums past the 1024th are never scanned and their blocks get garbage
 * offsets. The cure is to recurse (or loop) until one block is left. Must
 * first fail the right stage, at (1 << 22) + 3.
 * REPORT-SAYS: at every level
 * SMALLEST: one level of block sums is enough up to a few million elements
 */
#include <cuda_runtime.h>

#define T 1024
#define PER_THREAD 4
#define PER_BLOCK (T * PER_THREAD)

__device__ unsigned warp_scan(unsigned v, unsigned lane)
{
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned left = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += left;
    }
    return v;
}

/* Exclusive scan of one value per thread over the block; *total gets the
 * block's sum. */
__device__ unsigned block_scan(unsigned v, unsigned *total)
{
    __shared__ unsigned s_warp[32];
    unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    unsigned incl = warp_scan(v, lane);
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        unsigned t = s_warp[lane], tincl = warp_scan(t, lane);
        s_warp[lane] = tincl - t;
        if (lane == 31) *total = tincl;
    }
    __syncthreads();
    return s_warp[warp] + incl - v;
}

__global__ void scan_blocks(const unsigned *in, unsigned *out, int n, unsigned *sums)
{
    __shared__ unsigned total;
    long long base = (long long)blockIdx.x * PER_BLOCK + (long long)threadIdx.x * PER_THREAD;
    unsigned x[PER_THREAD], run = 0;
    for (int k = 0; k < PER_THREAD; k++) {
        x[k] = base + k < n ? in[base + k] : 0u;
        unsigned v = x[k];
        x[k] = run;
        run += v;
    }
    unsigned before = block_scan(run, &total);
    for (int k = 0; k < PER_THREAD; k++)
        if (base + k < n) out[base + k] = before + x[k];
    if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

/* BUG: one block, one sum per thread: right for at most T block sums. */
__global__ void scan_sums_one_block(unsigned *sums, int count)
{
    __shared__ unsigned total;
    unsigned t = threadIdx.x;
    unsigned v = t < (unsigned)count ? sums[t] : 0u;
    unsigned e = block_scan(v, &total);
    if (t < (unsigned)count) sums[t] = e;
}

__global__ void add_offsets(unsigned *out, int n, const unsigned *offsets)
{
    long long base = (long long)blockIdx.x * PER_BLOCK;
    for (long long i = base + threadIdx.x; i < base + PER_BLOCK && i < n; i += T)
        out[i] += offsets[blockIdx.x];
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (int)(((long long)n + PER_BLOCK - 1) / PER_BLOCK);
    scan_blocks<<<blocks, T, 0, stream>>>(d_in, d_out, n, d_scratch);
    if (blocks > 1) {
        scan_sums_one_block<<<1, T, 0, stream>>>(d_scratch, blocks);
        add_offsets<<<blocks, T, 0, stream>>>(d_out, n, d_scratch);
    }
    return cudaGetLastError();
}
