/* WRONG ON PURPOSE: each thread loads the shared tile in steps of the
 * radius: its own cell and the cells radius and 2 radius further right and
 * down (with 32 x 8 threads and radius <= 7 the three steps cover the
 * whole (8 + 2r) x (32 + 2r) tile with its halo). For radius 0 the step is
 * 0: dy and dx stay 0, the tests 0 <= 2 radius stay true, and every thread
 * stores the same cell for ever. The work stage has radii 1 to 3 only, so it passes;
 * right's fourth call, 1 x 1 at radius 0 (the three before it are empty
 * images), hangs, on every GPU.
 * Everything else is right: the filter in __constant__ memory copied on the
 * stream, zeros outside the image, the barrier, guarded stores.
 * Must first fail the right stage.
 * TIME-LIMITS: 30,6
 * REPORT-SAYS: also for radius 0
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 */
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define MAX_R 7

__constant__ float c_filter[(2 * MAX_R + 1) * (2 * MAX_R + 1)];

__global__ void conv_tiled(const float *in, float *out, int rows, int cols, int radius,
                           int col_tiles)
{
    __shared__ float tile[BY + 2 * MAX_R][BX + 2 * MAX_R];
    int tx = threadIdx.x, ty = threadIdx.y, w = 2 * radius + 1;
    int row0 = (blockIdx.x / col_tiles) * BY, col0 = (blockIdx.x % col_tiles) * BX;
    for (int dy = 0; dy <= 2 * radius; dy += radius) /* a step of 0 for radius 0 */
        for (int dx = 0; dx <= 2 * radius; dx += radius) {
            int y = ty + dy, x = tx + dx, r = row0 - radius + y, c = col0 - radius + x;
            tile[y][x] = r >= 0 && r < rows && c >= 0 && c < cols ? in[(size_t)r * cols + c] : 0.0f;
        }
    __syncthreads();
    int row = row0 + ty, col = col0 + tx;
    if (row >= rows || col >= cols) return;
    float sum = 0.0f;
    for (int i = 0; i < w; i++)
        for (int j = 0; j < w; j++) sum += c_filter[i * w + j] * tile[ty + i][tx + j];
    out[(size_t)row * cols + col] = sum;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    size_t w = 2 * (size_t)radius + 1;
    cudaError_t e = cudaMemcpyToSymbolAsync(c_filter, d_filter, w * w * sizeof(float), 0,
                                            cudaMemcpyDeviceToDevice, stream);
    if (e != cudaSuccess) return e;
    int col_tiles = (cols + BX - 1) / BX, row_tiles = (rows + BY - 1) / BY;
    conv_tiled<<<(unsigned)row_tiles * (unsigned)col_tiles, dim3(BX, BY), 0, stream>>>(
        d_in, d_out, rows, cols, radius, col_tiles);
    return cudaGetLastError();
}
