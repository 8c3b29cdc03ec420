/* WRONG ON PURPOSE: the padded-tile transpose, launched on the default
 * stream instead of the one it is given. The grader times its own stream,
 * which then holds nothing: the kernel seems to take no time at all.
 * Must first fail the fast stage ("faster than the GPU can move memory"). */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

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
        __syncthreads();
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    (void)stream;
    if (rows == 0 || cols == 0) return cudaSuccess;
    int tiles_down = (rows + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, tiles_down < 65535 ? tiles_down : 65535);
    transpose_kernel<<<grid, dim3(TILE, ROWS)>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
