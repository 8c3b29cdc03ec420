/* WRONG ON PURPOSE: a matrix with one row or one column is a vector whose
 * transpose is the same floats in the same order, so it is copied with
 * cudaMemcpyAsync on the given stream, a sound shortcut. But the count
 * passed is rows * cols, a number of floats, where cudaMemcpyAsync wants a
 * number of bytes: only the first quarter of the vector arrives (at 1 x 1,
 * one byte of the only float). Work has no vectors, and the padded-tile
 * kernel for every other shape is right, so it passes work; right's
 * 1 x 1, 1 x 1000, 1000 x 1, ... come back mostly never written.
 * Must first fail the right stage.
 */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols, int tiles_across)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int r0 = (int)(blockIdx.x / tiles_across) * TILE;
    int c0 = (int)(blockIdx.x % tiles_across) * TILE;
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
    if (rows == 1 || cols == 1) /* the count should be in bytes */
        return cudaMemcpyAsync(d_out, d_in, (size_t)rows * cols, cudaMemcpyDeviceToDevice,
                               stream);
    int tiles_across = (cols + TILE - 1) / TILE;
    unsigned tiles = (unsigned)tiles_across * (unsigned)((rows + TILE - 1) / TILE);
    transpose_kernel<<<tiles, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols,
                                                             tiles_across);
    return cudaGetLastError();
}
