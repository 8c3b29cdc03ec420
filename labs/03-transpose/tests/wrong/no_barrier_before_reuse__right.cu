/* WRONG ON PURPOSE: a block walks down a column of tiles, reusing one
 * shared tile, with a __syncthreads() between filling and reading the tile
 * but none before the next tile overwrites it. A fast warp may start
 * storing tile t + 1 while a slow one still reads tile t: a write-after-read
 * race. In practice the fast warp first waits for its global loads of tile
 * t + 1 (hundreds of cycles), far longer than the slow warp needs for its
 * four shared-memory reads, so the answers come out right, every time, in
 * the work stage. compute-sanitizer racecheck does not depend on luck: on
 * the sanitize case with 300 rows (ten tiles down, eight blocks down) a
 * block reuses its tile, and racecheck reports the hazard.
 * Must first fail the right stage.
 * EMULATION: fail skipped: the emulator runs each thread up to its next barrier, so the missing one corrupts a tile at once; on a GPU memory latency hides it until racecheck
 * SMALLEST: the race needs a block to walk down a column of many tiles before a fast warp overtakes a slow one
 */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8
#define BLOCKS_DOWN 8 /* a few long-lived blocks per column of tiles */

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE;
    int tiles_down = (rows + TILE - 1) / TILE;
    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        int r0 = t * TILE;
        for (int k = 0; k < TILE; k += ROWS) {
            int r = r0 + y + k, c = c0 + x;
            if (r < rows && c < cols) tile[y + k][x] = in[(size_t)r * cols + c];
        }
        __syncthreads();
        for (int k = 0; k < TILE; k += ROWS) {
            int out_row = c0 + y + k, out_col = r0 + x;
            if (out_row < cols && out_col < rows)
                out[(size_t)out_row * rows + out_col] = tile[x][y + k];
        }
        /* the missing __syncthreads() before the tile is refilled */
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int tiles_down = (rows + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, tiles_down < BLOCKS_DOWN ? tiles_down : BLOCKS_DOWN);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
