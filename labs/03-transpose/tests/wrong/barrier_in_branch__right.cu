/* WRONG ON PURPOSE: the __syncthreads() sits inside the bounds check, so on
 * a tile that sticks out past the last column only some threads of the
 * block reach it. That is undefined: the block may hang, or the threads
 * that skipped the barrier read tile elements before they are loaded.
 * The work stage's sizes are multiples of the tile, so every thread takes
 * the branch there; the right stage's are not (and synccheck reports the
 * divergent barrier).
 * Must first fail the right stage. */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
    int c = c0 + x;
    if (c < cols) {
        for (int k = 0; k < TILE; k += ROWS) {
            int r = r0 + y + k;
            if (r < rows) tile[y + k][x] = in[(size_t)r * cols + c];
        }
        __syncthreads(); /* not every thread of the block gets here */
    }
    for (int k = 0; k < TILE; k += ROWS) {
        int out_row = c0 + y + k, out_col = r0 + x;
        if (out_row < cols && out_col < rows) out[(size_t)out_row * rows + out_col] = tile[x][y + k];
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
