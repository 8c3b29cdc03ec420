/* CORRECT, in an unusual way: 64 x 64 tiles moved by 64 x 16 threads, four
 * elements each, in a tile padded to 65 columns. A warp is half a row of
 * the block (x = 0..31 or 32..63), so a column read touches words
 * 65 x + j, banks (x + j) % 32: all different within the warp.
 * Must pass every stage up to and including fast. */
#include <cuda_runtime.h>

#define TILE 64
#define ROWS 16

__global__ void transpose_kernel(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE;
    int tiles_down = (rows + TILE - 1) / TILE;
    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        int r0 = t * TILE;
#pragma unroll
        for (int k = 0; k < TILE; k += ROWS) {
            int r = r0 + y + k, c = c0 + x;
            if (r < rows && c < cols) tile[y + k][x] = in[(size_t)r * cols + c];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k += ROWS) {
            int out_row = c0 + y + k, out_col = r0 + x;
            if (out_row < cols && out_col < rows)
                out[(size_t)out_row * rows + out_col] = tile[x][y + k];
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
