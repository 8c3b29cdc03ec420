/* Lab 03 - matrix transpose: the reference solution.
 *
 * The ladder (labs/03-transpose/solution/ladder.cu), at 8192 x 8192:
 *   v1 naive, one thread per element: reads coalesced, writes 32 sectors
 *      per warp: 13-16% of copy bandwidth.
 *   v2 32 x 32 shared-memory tiles, 32 x 8 threads: both global sides
 *      coalesced, but reading a column of the tile hits one bank 32 times.
 *   v3 the same tile padded to 33 columns: the column read is spread over
 *      all 32 banks: 84% of copy on an H200 (91% on an H100).
 *   v4 64 x 64 tiles padded to 65 columns: 93% on an H200.
 *   v5 (this file) v4's tiles, numbered down the columns of tiles in a
 *      1-D grid: 96.5% on an H200 (2026-12-02).
 *
 * Why v4 beats v3 although both move every byte once, in full sectors (on
 * an H200, Nsight Compute reads 256 MiB from DRAM for the 256 MiB input
 * either way): a 32-wide tile writes each output row as one 128-byte piece,
 * and the next piece of that row comes from another block, 8192 x 4 bytes
 * away in the input. DRAM serves long runs of neighbouring addresses best;
 * a 64-wide tile writes 256 contiguous bytes per output row (and reads 256
 * per input row), and DRAM throughput rises from 74% to 79% of its peak.
 *
 * Why v5 beats v4: which tiles are moved at the same moment. Blocks start
 * in about the order of their number; numbered down first, the blocks in
 * flight write side by side in the same output rows, so the writes, which
 * DRAM minds most (the naive kernel with strided writes is 3x slower than
 * the one with strided reads), come in long runs, and the reads are the
 * side that is scattered.
 *
 * One block moves one 64 x 64 tile. Its 32 x 8 threads each move sixteen
 * elements: two columns 32 apart, eight rows 8 apart. That keeps sixteen
 * loads in flight per thread to cover memory latency, and the block at 256
 * threads and 16.6 KB of shared memory, so eight blocks share an SM.
 */
#include <climits>
#include <cuda_runtime.h>

#include "cuda_check.h"

static const int TILE = 64;      /* the tile is TILE x TILE elements */
static const int THREADS_X = 32; /* one warp across the tile: TILE / 32 columns each */
static const int ROWS = 8;       /* threads down the tile: TILE / ROWS rows each */

/* Move the tile whose top-left input element is (r0, c0), through `tile`.
 *
 * Load: thread (x, y) reads input rows y + k (k = 0, 8, ..., 56) of the
 * tile at columns x and x + 32: each warp reads 32 neighbours of one row,
 * coalesced, twice, and stores them along a row of the shared tile.
 *
 * Store: the tile's transpose lands at output rows c0 + ..., output
 * columns r0 + ...; thread (x, y) writes output row y + k of the tile at
 * columns x and x + 32, which are input elements (x, y + k) and
 * (x + 32, y + k) of the tile: tile[x][y + k] and tile[x + 32][y + k].
 * Each warp again writes 32 neighbours of one row, coalesced; the strided
 * access happens in shared memory, where it is cheap, provided it does not
 * hit one bank repeatedly.
 *
 * Banks: shared memory serves a warp from 32 banks, 4-byte word w living
 * in bank w % 32. Reading tile[x][j] for x = 0..31 touches words
 * x * 65 + j: 65 is 1 more than a multiple of 32, so the 32 threads land
 * in 32 different banks. With 64 columns they would all land in bank
 * j % 32 and be served one after another.
 *
 * Partial tiles: the load is guarded by the input's bounds, the store by
 * the output's (output row < cols, output column < rows). Elements of the
 * tile that were not loaded are never stored. Every thread reaches the
 * __syncthreads(): the guards are inside, never around, the barrier. */
__device__ __forceinline__ void move_tile(const float *__restrict__ in, float *__restrict__ out,
                                          int rows, int cols, int r0, int c0,
                                          float (*tile)[TILE + 1])
{
    const int x = threadIdx.x, y = threadIdx.y;
#pragma unroll
    for (int k = 0; k < TILE; k += ROWS) {
        const int r = r0 + y + k;
#pragma unroll
        for (int w = 0; w < TILE; w += THREADS_X) {
            const int c = c0 + x + w;
            if (r < rows && c < cols) tile[y + k][x + w] = in[(size_t)r * cols + c];
        }
    }
    /* Every thread stores elements that other warps loaded. */
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k += ROWS) {
        const int out_row = c0 + y + k; /* an input column */
#pragma unroll
        for (int w = 0; w < TILE; w += THREADS_X) {
            const int out_col = r0 + x + w; /* an input row */
            if (out_row < cols && out_col < rows)
                out[(size_t)out_row * rows + out_col] = tile[x + w][y + k];
        }
    }
}

/* One block per tile, numbered down the columns of tiles: block b moves
 * the tile in tile row b % tiles_down, tile column b / tiles_down. Blocks
 * start in about the order of their number, so the blocks running at one
 * time hold tiles stacked in one column of tiles: their outputs sit side
 * by side in the same output rows, and DRAM gets long runs of neighbouring
 * writes, where numbering across a row of tiles (blockIdx.x along the
 * columns) puts them in output rows 64 apart. A 1-D grid holds every tile
 * (gridDim.x goes up to 2^31 - 1; gridDim.y would stop at 65535). */
__global__ void __launch_bounds__(THREADS_X * ROWS)
    transpose_padded(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tiles_down = (rows - 1) / TILE + 1;
    const int b = blockIdx.x;
    move_tile(in, out, rows, cols, (b % tiles_down) * TILE, (b / tiles_down) * TILE, tile);
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    const long long tiles = (long long)((rows - 1) / TILE + 1) * ((cols - 1) / TILE + 1);
    if (tiles > INT_MAX) return cudaErrorInvalidValue; /* more than a grid holds */
    transpose_padded<<<(unsigned)tiles, dim3(THREADS_X, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
