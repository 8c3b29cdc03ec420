/* CORRECT, in an unusual way: a matrix with one row or one column is a
 * vector, and its transpose is the same floats in the same order
 * (out[c * 1 + 0] = in[0 * cols + c]), so for those shapes no kernel runs
 * at all: one cudaMemcpyAsync, device to device, on the given stream,
 * copies them. The copy engine takes any 4-byte alignment and any length,
 * so 1 x 65537 and 65537 x 1 need no tiles and no grid limits. Every other
 * shape goes through padded 32 x 32 tiles, a block looping down its
 * column of tiles so that matrices taller than grid.y allows still fit.
 * Must pass every stage up to and including fast. */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols)
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
        __syncthreads(); /* the tile is refilled by the next iteration */
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    if (rows == 1 || cols == 1)
        return cudaMemcpyAsync(d_out, d_in, (size_t)rows * cols * sizeof(float),
                               cudaMemcpyDeviceToDevice, stream);
    int tiles_down = (rows + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, tiles_down < 65535 ? tiles_down : 65535);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
