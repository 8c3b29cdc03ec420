/* WRONG ON PURPOSE: each thread scans 4 consecutive elements serially in
 * registers, and the guard was written for whole groups only: a thread
 * whose group runs past n (4 * t + 3 >= n) treats all four as zeros and
 * writes none of them, "since the group is incomplete". With n a multiple
 * of 4, as at every work size, no group is incomplete and every output is
 * right (the thread totals are scanned with warp shuffles and shared
 * memory, the block totals by a one-thread kernel, and the offsets added
 * back). At n = 1, 2, 31, 33, ... the last n % 4 outputs are never
 * written. The cure: guard each element, 4 * t + j < n.
 * Must first fail the right stage.
 * REPORT-SAYS: never written
 */
#include <cuda_runtime.h>

#define THREADS 256
#define TILE (4 * THREADS)
#define FULL 0xffffffffu

__global__ void scan_blocks(const unsigned *in, unsigned *out, int n, unsigned *sums)
{
    __shared__ unsigned warp_base[THREADS / 32];
    int base = blockIdx.x * TILE + 4 * threadIdx.x;
    bool whole = base + 3 < n; /* a partial group counts as empty */
    unsigned x[4], run = 0;
    for (int j = 0; j < 4; j++) {
        x[j] = whole ? in[base + j] : 0u;
        run += x[j];
    }
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, v = run;
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned below = __shfl_up_sync(FULL, v, d);
        if (lane >= d) v += below;
    }
    if (lane == 31) warp_base[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (int w = 0; w < THREADS / 32; w++) {
            unsigned t = warp_base[w];
            warp_base[w] = total;
            total += t;
        }
        sums[blockIdx.x] = total;
    }
    __syncthreads();
    unsigned at = warp_base[warp] + v - run;
    for (int j = 0; j < 4 && whole; j++) {
        out[base + j] = at;
        at += x[j];
    }
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
    for (int i = blockIdx.x * TILE + threadIdx.x; i < n && i < (blockIdx.x + 1) * TILE;
         i += THREADS)
        out[i] += sums[blockIdx.x];
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (n + TILE - 1) / TILE;
    scan_blocks<<<blocks, THREADS, 0, stream>>>(d_in, d_out, n, d_scratch);
    if (blocks > 1) {
        scan_sums_serially<<<1, 1, 0, stream>>>(d_scratch, blocks);
        add_offsets<<<blocks, THREADS, 0, stream>>>(d_out, n, d_scratch);
    }
    return cudaGetLastError();
}
