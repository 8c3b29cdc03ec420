/* WRONG ON PURPOSE: 64 x 64 tiles in a 2-D grid with a loop over tile
 * rows (there for matrices more than 65535 tiles tall, which grid.y cannot
 * hold) stepping by `t + gridDim.y` instead of `t += gridDim.y`: the step
 * computes a value and throws it away, so t never moves. Every block goes
 * on loading, storing and meeting at its barriers for ever, at every size:
 * the first work call hangs, on any GPU.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does the loop over tile rows step forward
 * SMALLEST: a hang fails by the time limit, not on an answer to show
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
    const int tiles_down = (rows - 1) / TILE + 1;
    const int c0 = blockIdx.x * TILE, x = threadIdx.x, y = threadIdx.y;
    for (int t = blockIdx.y; t < tiles_down; t + gridDim.y) { /* the bug: t never moves */
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
        __syncthreads(); /* before the next tile overwrites this one */
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
