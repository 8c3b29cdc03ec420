/* WRONG ON PURPOSE: every thread moves its 4 consecutive elements as one
 * uint4 (a 16-byte load from d_in and a 16-byte store to d_out) straight
 * from the pointers it was given, assuming they are 16-byte aligned; only
 * a thread whose 4 elements run past n moves them one by one. The scan
 * itself is right (a tile of 1024 per block, warp shuffles, the tile sums
 * scanned recursively in d_scratch and added back), so every output is
 * right wherever the pointers are 16-byte aligned: work's are, and it
 * passes work. The contract promises only 4 bytes: right offsets d_in and
 * d_out by 0, 4, 8 or 12 bytes, each differently, and the first uint4
 * access at such an address faults (misaligned address) on the GPU. Sizes
 * below 4 move no uint4, so the first right case to fail is n = 31 (d_in
 * aligned there, d_out 4 bytes off: the store faults).
 * Must first fail the right stage.
 * REPORT-SAYS: a uint4 access on a pointer that is not 16-byte aligned
 */
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu
#define THREADS 256            /* threads per block, a multiple of 32 */
#define TILE (4 * THREADS)     /* elements per block: 4 per thread */

/* Inclusive scan of one value per lane of a warp. */
__device__ static unsigned warp_inclusive_scan(unsigned v, unsigned lane)
{
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned left = __shfl_up_sync(FULL_MASK, v, d);
        if (lane >= d) v += left;
    }
    return v;
}

/* Exclusive scan of v over the block; *total gets the sum of every v.
 * Every thread must call it, once per kernel. */
__device__ static unsigned block_exclusive_scan(unsigned v, unsigned *total)
{
    __shared__ unsigned warp_before[THREADS / 32];
    __shared__ unsigned block_total;
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned incl = warp_inclusive_scan(v, lane);
    if (lane == 31) warp_before[warp] = incl;
    __syncthreads();
    if (warp == 0) { /* scan the warps' totals */
        unsigned t = lane < THREADS / 32 ? warp_before[lane] : 0u;
        unsigned t_incl = warp_inclusive_scan(t, lane);
        if (lane < THREADS / 32) warp_before[lane] = t_incl - t;
        if (lane == 31) block_total = t_incl;
    }
    __syncthreads();
    *total = block_total;
    return warp_before[warp] + incl - v;
}

/* Block b scans in[b * TILE .. (b + 1) * TILE) into out (exclusive, within
 * the tile) and, if tile_sums is given, writes the tile's total to
 * tile_sums[b]. in and out may be the same array: every thread reads its
 * own 4 elements before the block's barriers and writes them after. */
__global__ void scan_tiles(const unsigned *in, unsigned *out, int n, unsigned *tile_sums)
{
    long long base = (long long)blockIdx.x * TILE + 4LL * threadIdx.x;
    bool whole = base + 4 <= n; /* all 4 of this thread's elements exist */
    unsigned x0, x1, x2, x3;
    if (whole) {
        /* BUG: in + base is 16-byte aligned only if in is. */
        uint4 q = *reinterpret_cast<const uint4 *>(in + base);
        x0 = q.x, x1 = q.y, x2 = q.z, x3 = q.w;
    } else { /* the last, partial group: past n counts as 0 */
        x0 = base < n ? in[base] : 0u;
        x1 = base + 1 < n ? in[base + 1] : 0u;
        x2 = base + 2 < n ? in[base + 2] : 0u;
        x3 = base + 3 < n ? in[base + 3] : 0u;
    }
    unsigned total;
    unsigned before = block_exclusive_scan(x0 + x1 + x2 + x3, &total);
    unsigned y0 = before, y1 = y0 + x0, y2 = y1 + x1, y3 = y2 + x2;
    if (whole) {
        /* BUG: the same for out. */
        *reinterpret_cast<uint4 *>(out + base) = make_uint4(y0, y1, y2, y3);
    } else {
        if (base < n) out[base] = y0;
        if (base + 1 < n) out[base + 1] = y1;
        if (base + 2 < n) out[base + 2] = y2;
        if (base + 3 < n) out[base + 3] = y3;
    }
    if (tile_sums && threadIdx.x == 0) tile_sums[blockIdx.x] = total;
}

/* out[i] += offsets[i / TILE]: the sum of every tile before i's. Same
 * layout as scan_tiles, 4 elements a thread, a uint4 where all 4 exist. */
__global__ void add_tile_offsets(unsigned *out, int n, const unsigned *offsets)
{
    long long base = (long long)blockIdx.x * TILE + 4LL * threadIdx.x;
    unsigned add = offsets[blockIdx.x];
    if (base + 4 <= n) {
        uint4 *p = reinterpret_cast<uint4 *>(out + base); /* BUG, as above */
        uint4 q = *p;
        *p = make_uint4(q.x + add, q.y + add, q.z + add, q.w + add);
    } else {
        for (long long i = base; i < base + 4 && i < n; i++) out[i] += add;
    }
}

/* Exclusive scan of n > 0 elements; scratch holds at least
 * n / TILE + 4 words per level below this one. */
static cudaError_t scan_level(const unsigned *in, unsigned *out, int n, unsigned *scratch,
                              cudaStream_t stream)
{
    int tiles = (n + TILE - 1) / TILE;
    if (tiles == 1) { /* one tile: no sums to carry */
        scan_tiles<<<1, THREADS, 0, stream>>>(in, out, n, nullptr);
        return cudaGetLastError();
    }
    unsigned *sums = scratch;
    scan_tiles<<<tiles, THREADS, 0, stream>>>(in, out, n, sums);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    /* The tile sums, scanned in place; the next level's scratch starts at
     * the next multiple of 4 words after them. */
    e = scan_level(sums, sums, tiles, scratch + (tiles + 3) / 4 * 4, stream);
    if (e != cudaSuccess) return e;
    add_tile_offsets<<<tiles, THREADS, 0, stream>>>(out, n, sums);
    return cudaGetLastError();
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess; /* nothing to write, nothing to launch */
    return scan_level(d_in, d_out, n, d_scratch, stream);
}
