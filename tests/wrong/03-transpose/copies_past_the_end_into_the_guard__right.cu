/* WRONG ON PURPOSE: the reference transpose, followed by a "tidy-up" that
 * copies the 32 floats after the end of d_in to the 32 after the end of
 * d_out (as a sample transpose that rounds its grid up without a bounds
 * check does). The answer is right; the extra writes are outside d_out.
 * The grader surrounds every buffer with guard bytes and looks for changed
 * ones; when every guard held the same pattern, a copy from one guard into
 * another changed nothing and this passed. Each buffer's guard now has a
 * pattern of its own, so the right stage reports the writes past d_out.
 * Must first fail the right stage.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

static const int TILE = 32;     /* the tile is TILE x TILE elements  */
static const int ROWS = 8;      /* threads down the tile: TILE / ROWS elements each */
static const int MAX_GRID_Y = 65535;

/* Block (bx, by) owns the tile whose top-left input element is
 * (t * TILE, bx * TILE) for t = by, by + gridDim.y, ... (a loop only for
 * matrices more than 65535 tiles tall, which grid.y cannot hold).
 *
 * Load: thread (x, y) reads input rows y, y + 8, y + 16, y + 24 of the
 * tile at column x: each warp reads 32 neighbours of one row, coalesced,
 * and stores them along a row of the shared tile.
 *
 * Store: the tile's transpose lands at output rows bx * TILE + ..., output
 * columns t * TILE + ...; thread (x, y) writes output row y + k of the tile
 * at column x, which is input element (x, y + k) of the tile: tile[x][y + k].
 * Each warp again writes 32 neighbours of one row, coalesced; the strided
 * access happens in shared memory, where it is cheap, provided it does not
 * hit one bank repeatedly.
 *
 * Banks: shared memory serves a warp from 32 banks, 4-byte word w living
 * in bank w % 32. Reading tile[x][y + k] for x = 0..31 touches words
 * x * 33 + y + k: 33 is 1 more than a multiple of 32, so the 32 threads
 * land in 32 different banks. With 32 columns (v2) they would all land in
 * bank (y + k) % 32 and be served one after another.
 *
 * Partial tiles: the load is guarded by the input's bounds, the store by
 * the output's (output row < cols, output column < rows). Elements of the
 * tile that were not loaded are never stored. Every thread reaches every
 * __syncthreads(): the guards are inside, never around, the barriers. */
__global__ void transpose_padded(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tiles_down = (rows - 1) / TILE + 1;
    const int c0 = blockIdx.x * TILE;
    const int x = threadIdx.x, y = threadIdx.y;

    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        const int r0 = t * TILE;

        const int c = c0 + x;
        for (int k = 0; k < TILE; k += ROWS) {
            const int r = r0 + y + k;
            if (r < rows && c < cols) tile[y + k][x] = in[(size_t)r * cols + c];
        }
        /* Every thread stores elements that other warps loaded. */
        __syncthreads();

        const int out_col = r0 + x; /* an input row */
        for (int k = 0; k < TILE; k += ROWS) {
            const int out_row = c0 + y + k; /* an input column */
            if (out_row < cols && out_col < rows)
                out[(size_t)out_row * rows + out_col] = tile[x][y + k];
        }
        /* Before the next tile overwrites this one, every warp must be done
         * reading it. The condition is the same for the whole block. */
        if (t + (int)gridDim.y < tiles_down) __syncthreads();
    }
}

__global__ void tidy_up(const float *in, float *out, size_t n)
{
    out[n + threadIdx.x] = in[n + threadIdx.x];
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    const int tiles_across = (cols - 1) / TILE + 1;
    const int tiles_down = (rows - 1) / TILE + 1;
    dim3 grid(tiles_across, tiles_down < MAX_GRID_Y ? tiles_down : MAX_GRID_Y);
    transpose_padded<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    tidy_up<<<1, 32, 0, stream>>>(d_in, d_out, (size_t)rows * cols);
    return cudaGetLastError();
}
