/* WRONG ON PURPOSE: the student read that grid.y may not exceed 65535 and
 * capped it: dim3((cols + 31) / 32, min((rows + 31) / 32, 65535)). But the
 * kernel still handles exactly one tile, the one at blockIdx.y, with no
 * loop over t = blockIdx.y, blockIdx.y + gridDim.y, ... So the launch is
 * accepted everywhere, and a matrix more than 65535 tiles tall silently
 * loses its bottom tiles: at 4194305 x 1 (131073 tiles down; 2097169 x 2,
 * 65537 tiles, in the CPU emulation) the rows below 65535 x 32 are never
 * transposed and those columns of d_out are never written. Every other
 * size has fewer than 65535 tiles down and is right.
 * Must first fail the right stage.
 * REPORT-SAYS: part of d_out was never written
 * SMALLEST: only a matrix more than 65535 tiles tall (over 2 million rows) loses tiles
 */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;
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
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int tiles_down = (rows + TILE - 1) / TILE;
    if (tiles_down > 65535) tiles_down = 65535; /* the grid's limit... */
    dim3 grid((cols + TILE - 1) / TILE, tiles_down);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
