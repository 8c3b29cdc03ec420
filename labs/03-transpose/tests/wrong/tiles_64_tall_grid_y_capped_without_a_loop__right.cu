/* WRONG ON PURPOSE: 64 x 64 tiles in a 2-D grid, blockIdx.y down the
 * rows of tiles with grid.y capped at 65535, and no loop over tile rows:
 * each block handles only the tile at blockIdx.y. A matrix more than
 * 65535 x 64 = 4194240 rows tall loses its bottom tiles: at 4194305 x 1
 * (65537 tiles of 64 rows) the last 65 rows of the input are never
 * transposed, so the end of d_out is never written. Every other size fits
 * and is right.
 * Must first fail the right stage.
 * EMULATION: pass pass: the CPU's right stage stops at 2097169 x 2, 32769 tiles of 64 rows, which fit grid.y without the loop
 * REPORT-SAYS: part of d_out was never written
 * SMALLEST: only a matrix more than 65535 tiles tall (over 4 million rows) loses tiles
 */
#include <cuda_runtime.h>

/* A 64 x 64 tile padded to 65 columns, 32 x 8 threads moving sixteen
 * elements each; blockIdx.x across the columns of tiles, blockIdx.y down,
 * with grid.y capped at 65535. */
enum { TILE = 64, ROWS = 8, MAX_GRID_Y = 65535 };

__global__ void transpose_tiles(const float *__restrict__ in, float *__restrict__ out, int rows,
                                int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    const int c0 = blockIdx.x * TILE, x = threadIdx.x, y = threadIdx.y;
    {
        const int t = blockIdx.y; /* the bug: no loop when the grid is capped */
        const int r0 = t * TILE;
        for (int k = 0; k < TILE; k += ROWS)
            for (int w = 0; w < TILE; w += 32) {
                int r = r0 + y + k, c = c0 + x + w;
                if (r < rows && c < cols) tile[y + k][x + w] = in[(size_t)r * cols + c];
            }
        __syncthreads();
        for (int k = 0; k < TILE; k += ROWS)
            for (int w = 0; w < TILE; w += 32) {
                int out_row = c0 + y + k, out_col = r0 + x + w;
                if (out_row < cols && out_col < rows)
                    out[(size_t)out_row * rows + out_col] = tile[x + w][y + k];
            }
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    const int tiles_across = (cols - 1) / TILE + 1, tiles_down = (rows - 1) / TILE + 1;
    dim3 grid(tiles_across, tiles_down < MAX_GRID_Y ? tiles_down : MAX_GRID_Y);
    transpose_tiles<<<grid, dim3(32, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
