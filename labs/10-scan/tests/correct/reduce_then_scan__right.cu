/* CORRECT, in an unusual way: reduce, then scan, instead of scan, then
 * add. The first kernel only SUMS each tile of 2048 elements (256 threads,
 * 8 consecutive elements each) and writes nothing but the tile sums to
 * d_scratch; one block of 1024 threads then scans those sums in place,
 * chunk by chunk, carrying the running total from one chunk to the next;
 * the last kernel reads each tile again and scans it for real, starting
 * from its tile's offset. The input is read twice but the output written
 * once (scan-then-add writes it twice and reads it back once). Both block
 * scans are one helper: warp shuffles, then warp 0 scans the warp totals.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define THREADS 256
#define PER 8
#define TILE (THREADS * PER)
#define FULL 0xffffffffu

/* The exclusive scan of v over the block; *total gets the block's sum. */
__device__ unsigned block_exclusive(unsigned v, unsigned *total)
{
    __shared__ unsigned warp_sums[32];
    __shared__ unsigned block_sum;
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned inc = v;
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned below = __shfl_up_sync(FULL, inc, d);
        if (lane >= d) inc += below;
    }
    if (lane == 31) warp_sums[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        unsigned w = lane < blockDim.x / 32 ? warp_sums[lane] : 0u, winc = w;
        for (unsigned d = 1; d < 32; d *= 2) {
            unsigned below = __shfl_up_sync(FULL, winc, d);
            if (lane >= d) winc += below;
        }
        warp_sums[lane] = winc - w;
        if (lane == 31) block_sum = winc;
    }
    __syncthreads();
    unsigned result = warp_sums[warp] + inc - v;
    *total = block_sum;
    __syncthreads(); /* warp_sums is reused by the next call */
    return result;
}

__global__ void tile_sums(const unsigned *in, int n, unsigned *sums)
{
    int base = blockIdx.x * TILE + threadIdx.x * PER;
    unsigned run = 0, total;
    for (int j = 0; j < PER; j++)
        if (base + j < n) run += in[base + j];
    block_exclusive(run, &total);
    if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

__global__ void scan_sums(unsigned *sums, int count)
{
    unsigned carry = 0;
    for (int base = 0; base < count; base += blockDim.x) {
        int i = base + threadIdx.x;
        unsigned total, ex = block_exclusive(i < count ? sums[i] : 0u, &total);
        if (i < count) sums[i] = carry + ex;
        carry += total;
    }
}

__global__ void scan_tiles(const unsigned *in, unsigned *out, int n, const unsigned *sums)
{
    int base = blockIdx.x * TILE + threadIdx.x * PER;
    unsigned x[PER], run = 0, total;
    for (int j = 0; j < PER; j++) {
        x[j] = base + j < n ? in[base + j] : 0u;
        run += x[j];
    }
    unsigned at = sums[blockIdx.x] + block_exclusive(run, &total);
    for (int j = 0; j < PER; j++) {
        if (base + j < n) out[base + j] = at;
        at += x[j];
    }
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int tiles = (n + TILE - 1) / TILE;
    tile_sums<<<tiles, THREADS, 0, stream>>>(d_in, n, d_scratch);
    scan_sums<<<1, 1024, 0, stream>>>(d_scratch, tiles);
    scan_tiles<<<tiles, THREADS, 0, stream>>>(d_in, d_out, n, d_scratch);
    return cudaGetLastError();
}
