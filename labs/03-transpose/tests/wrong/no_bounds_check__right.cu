/* WRONG ON PURPOSE: no bounds checks at all. Right whenever both sides are
 * multiples of the tile (every work size is); on a partial tile it reads
 * past the input and writes past the output, or onto other rows of it.
 * Must first fail the right stage. */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
    for (int k = 0; k < TILE; k += ROWS)
        tile[y + k][x] = in[(size_t)(r0 + y + k) * cols + c0 + x];
    __syncthreads();
    for (int k = 0; k < TILE; k += ROWS)
        out[(size_t)(c0 + y + k) * rows + r0 + x] = tile[x][y + k];
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
