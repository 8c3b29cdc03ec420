/* CORRECT, UNUSUAL: one thread per output summing the window column by
 * column (j outer, i inner) instead of row by row, and skipping the terms
 * outside the image instead of adding zeros. A different order of the same
 * sum rounds differently, and every order is within gamma_n * sum |terms|
 * of the exact value: the bound tolerance accepts any of them. The grid is
 * flat (one block per 32 x 8 tile, rows of tiles one after another), so a
 * tall image needs no more than 65535 blocks on any side but x.
 */
#include <cuda_runtime.h>

__global__ void conv2d_columns_first(const float *in, float *out, int rows, int cols,
                                     const float *filter, int radius, int col_tiles)
{
    int col = (blockIdx.x % col_tiles) * 32 + threadIdx.x;
    int row = (blockIdx.x / col_tiles) * 8 + threadIdx.y;
    if (row >= rows || col >= cols) return;
    int width = 2 * radius + 1;
    float sum = 0.0f;
    for (int j = -radius; j <= radius; j++) {
        int c = col + j;
        if (c < 0 || c >= cols) continue;
        for (int i = -radius; i <= radius; i++) {
            int r = row + i;
            if (r < 0 || r >= rows) continue;
            sum += filter[(i + radius) * width + (j + radius)] * in[(size_t)r * cols + c];
        }
    }
    out[(size_t)row * cols + col] = sum;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int col_tiles = (cols + 31) / 32, row_tiles = (rows + 7) / 8;
    conv2d_columns_first<<<(unsigned)col_tiles * (unsigned)row_tiles, dim3(32, 8), 0, stream>>>(
        d_in, d_out, rows, cols, d_filter, radius, col_tiles);
    return cudaGetLastError();
}
