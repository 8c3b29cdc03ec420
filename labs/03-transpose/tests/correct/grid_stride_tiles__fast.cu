/* CORRECT, in an unusual way: a grid just large enough to fill the GPU
 * once, each block walking over the tiles tile = blockIdx.x,
 * blockIdx.x + gridDim.x, ... (row-major order of tiles). One shared tile
 * is reused, so a second __syncthreads() keeps the next tile's loads from
 * overwriting what slower warps still read.
 * Must pass every stage up to and including fast. */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    long long tiles_across = (cols + TILE - 1) / TILE;
    long long tiles = tiles_across * ((rows + TILE - 1) / TILE);
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        int r0 = (int)(t / tiles_across) * TILE, c0 = (int)(t % tiles_across) * TILE;
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
    if (rows == 0 || cols == 0) return cudaSuccess;
    int device, sms, per_sm;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transpose_kernel, TILE * ROWS, 0);
    if (e != cudaSuccess) return e;
    long long tiles = (long long)((cols + TILE - 1) / TILE) * ((rows + TILE - 1) / TILE);
    long long blocks = (long long)sms * per_sm;
    if (blocks > tiles) blocks = tiles;
    transpose_kernel<<<(unsigned)blocks, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
