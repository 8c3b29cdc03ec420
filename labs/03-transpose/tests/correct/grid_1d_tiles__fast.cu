/* CORRECT, in an unusual way: a 1-D grid with one block per tile; each
 * block turns its number into a tile row and column. grid.x may hold
 * 2^31 - 1 blocks, so no matrix is too tall for it, and no block loops.
 * Must pass every stage up to and including fast. */
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
        if (out_row < cols && out_col < rows) out[(size_t)out_row * rows + out_col] = tile[x][y + k];
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int tiles_across = (cols + TILE - 1) / TILE;
    unsigned tiles = (unsigned)tiles_across * (unsigned)((rows + TILE - 1) / TILE);
    transpose_kernel<<<tiles, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols,
                                                             tiles_across);
    return cudaGetLastError();
}
