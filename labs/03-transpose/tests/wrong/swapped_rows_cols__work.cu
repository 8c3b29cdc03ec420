/* WRONG ON PURPOSE: the kernel is written in terms of (width, height), the
 * input's number of columns and rows, but is called with (rows, cols).
 * Square matrices come out right; the work stage's 1024 x 2048 and
 * 2048 x 768 do not.
 * Must first fail the work stage. */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
    for (int k = 0; k < TILE; k += ROWS) {
        int r = r0 + y + k, c = c0 + x;
        if (r < height && c < width) tile[y + k][x] = in[(size_t)r * width + c];
    }
    __syncthreads();
    for (int k = 0; k < TILE; k += ROWS) {
        int out_row = c0 + y + k, out_col = r0 + x;
        if (out_row < width && out_col < height)
            out[(size_t)out_row * height + out_col] = tile[x][y + k];
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols); /* (width, height) expected */
    return cudaGetLastError();
}
