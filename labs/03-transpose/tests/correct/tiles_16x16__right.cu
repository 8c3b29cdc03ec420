/* CORRECT, in an unusual way: 16 x 16 tiles, 16 x 16 threads, one element
 * per thread (the tile of older textbooks), padded to 17 columns. A warp
 * covers two rows of 16: 64-byte segments, still whole sectors. Whether
 * one element per thread keeps enough loads in flight for the fast stage
 * is for the calibration to say; it must pass work and right.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define TILE 16

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE;
    int tiles_down = (rows + TILE - 1) / TILE;
    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        int r0 = t * TILE;
        if (r0 + y < rows && c0 + x < cols) tile[y][x] = in[(size_t)(r0 + y) * cols + c0 + x];
        __syncthreads();
        if (c0 + y < cols && r0 + x < rows) out[(size_t)(c0 + y) * rows + r0 + x] = tile[x][y];
        __syncthreads();
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int tiles_down = (rows + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, tiles_down < 65535 ? tiles_down : 65535);
    transpose_kernel<<<grid, dim3(TILE, TILE), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
