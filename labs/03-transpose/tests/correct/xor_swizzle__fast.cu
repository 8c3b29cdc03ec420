/* CORRECT, in an unusual way: no padding column; instead element (i, j) of
 * the tile is stored at tile[i][j ^ i]. For a fixed row i, j ^ i runs over
 * all 32 columns as j does (the row loads are conflict-free); for a fixed
 * column j, word 32 i + (j ^ i) lies in bank j ^ i, again all 32 banks as
 * i runs (the column reads are conflict-free too). The tile keeps its
 * 32 x 32 size, the trick large tensor-core kernels use.
 * Must pass every stage up to and including fast. */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE;
    int tiles_down = (rows + TILE - 1) / TILE;
    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        int r0 = t * TILE;
        for (int k = 0; k < TILE; k += ROWS) {
            int i = y + k, r = r0 + i, c = c0 + x;
            if (r < rows && c < cols) tile[i][x ^ i] = in[(size_t)r * cols + c];
        }
        __syncthreads();
        for (int k = 0; k < TILE; k += ROWS) {
            int j = y + k, out_row = c0 + j, out_col = r0 + x;
            if (out_row < cols && out_col < rows)
                out[(size_t)out_row * rows + out_col] = tile[x][j ^ x];
        }
        __syncthreads();
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int tiles_down = (rows + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, tiles_down < 65535 ? tiles_down : 65535);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
