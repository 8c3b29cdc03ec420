/* WRONG ON PURPOSE: each thread computes 4 neighbouring outputs of a row
 * and, when cols is a multiple of 4, stores them as one float4 at
 * d_out + r * cols + c. The check makes every row start a whole number of
 * float4 after d_out, but d_out itself need not be 16-byte aligned: the
 * contract promises only 4 bytes. Everything else is right (the filter in
 * __constant__ memory, a shared tile with zeros in the halo outside the
 * image, every radius, the last partial tile, scalar stores with a guard
 * when cols is not a multiple of 4), so every output is right wherever
 * d_out is 16-byte aligned: work's pointers are, and it passes work. Right
 * offsets d_out by 0, 4, 8 or 12 bytes, and the first float4 store to
 * such an address faults (misaligned address) on the GPU. The right cases
 * before it have no row of a multiple of 4 columns (0, 17 or 1 of them),
 * so the first to fail is 1 x 300 (1 x 1000 on the GPU), with d_out
 * 12 bytes off.
 * Must first fail the right stage.
 * REPORT-SAYS: a vector access at an address that is not 16-byte aligned
 */
#include <cuda_runtime.h>

#define MAX_RADIUS 7
#define MAX_WIDTH (2 * MAX_RADIUS + 1)
#define PER_THREAD 4 /* outputs per thread, consecutive in a row */
#define BLOCK_X 8    /* threads across: 8 x 4 = 32 columns */
#define BLOCK_Y 32   /* threads down: one row each */
#define TILE_W (BLOCK_X * PER_THREAD)
#define TILE_H BLOCK_Y

__constant__ float c_filter[MAX_WIDTH * MAX_WIDTH];

/* One block per TILE_H x TILE_W tile of outputs, tiles numbered row by row
 * on a flat grid (no 65535 limit on the rows of tiles). */
__global__ void conv2d_four_per_thread(const float *in, float *out, int rows, int cols,
                                       int radius, int col_tiles, bool rows_of_float4)
{
    __shared__ float tile[TILE_H + 2 * MAX_RADIUS][TILE_W + 2 * MAX_RADIUS];
    int w = 2 * radius + 1;
    int sh = TILE_H + 2 * radius, sw = TILE_W + 2 * radius;
    int row0 = blockIdx.x / col_tiles * TILE_H, col0 = blockIdx.x % col_tiles * TILE_W;
    int tx = threadIdx.x, ty = threadIdx.y;

    /* The tile and its halo, zeros outside the image. */
    for (int k = ty * BLOCK_X + tx; k < sh * sw; k += BLOCK_X * BLOCK_Y) {
        int y = k / sw, x = k % sw;
        int r = row0 - radius + y, c = col0 - radius + x;
        tile[y][x] = (r >= 0 && r < rows && c >= 0 && c < cols) ? in[(size_t)r * cols + c] : 0.0f;
    }
    __syncthreads();

    /* Outputs (row0 + ty, col0 + 4 tx + q), q = 0..3: tile row ty + i,
     * tile column 4 tx + q + j is input (r + i - radius, c + j - radius). */
    float acc[PER_THREAD] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < w; i++)
        for (int j = 0; j < w; j++) {
            float f = c_filter[i * w + j];
            for (int q = 0; q < PER_THREAD; q++) acc[q] += f * tile[ty + i][tx * PER_THREAD + q + j];
        }

    int r = row0 + ty, c = col0 + tx * PER_THREAD;
    if (r >= rows || c >= cols) return;
    float *dst = out + (size_t)r * cols + c;
    if (rows_of_float4) {
        /* cols % 4 == 0 and c % 4 == 0: all 4 are inside the row, and
         * r * cols + c is a multiple of 4 floats. BUG: from d_out, which
         * is only 4-byte aligned; dst need not be 16-byte aligned. */
        *reinterpret_cast<float4 *>(dst) = make_float4(acc[0], acc[1], acc[2], acc[3]);
    } else {
        for (int q = 0; q < PER_THREAD; q++)
            if (c + q < cols) dst[q] = acc[q];
    }
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (radius < 0 || radius > MAX_RADIUS) return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0) return cudaSuccess; /* nothing to write */
    size_t width = 2 * (size_t)radius + 1;
    cudaError_t e = cudaMemcpyToSymbolAsync(c_filter, d_filter, width * width * sizeof(float), 0,
                                            cudaMemcpyDeviceToDevice, stream);
    if (e != cudaSuccess) return e;
    int col_tiles = (cols + TILE_W - 1) / TILE_W, row_tiles = (rows + TILE_H - 1) / TILE_H;
    dim3 block(BLOCK_X, BLOCK_Y);
    conv2d_four_per_thread<<<(unsigned)row_tiles * (unsigned)col_tiles, block, 0, stream>>>(
        d_in, d_out, rows, cols, radius, col_tiles, cols % 4 == 0);
    return cudaGetLastError();
}
