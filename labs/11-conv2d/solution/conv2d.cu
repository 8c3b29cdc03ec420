/* Lab 11 - 2-D convolution: the reference solution.
 *
 * out[r][c] = sum over |i|, |j| <= radius of filter[i + radius][j + radius]
 *             * in[r + i][c + j], in = 0 outside the image, 0 <= radius <= 7.
 *
 * What makes it fast, in the order the lesson adds it:
 *
 * 1. The filter lives in __constant__ memory, copied there on the caller's
 *    stream (cudaMemcpyToSymbolAsync, device to device), so the copy is
 *    ordered before the kernel without blocking the host or touching the
 *    default stream. Every thread of a warp reads the same filter word at
 *    the same time: the constant cache serves it to all 32 in one go (a
 *    broadcast), and with the radius known at compile time the index is a
 *    constant, so the compiler folds the word into the FMA as an operand.
 * 2. A block computes a tile of outputs from a shared-memory copy of the
 *    input values it needs: the tile and its halo, radius deep on every
 *    side, zeros where the halo leaves the image (the ghost cells). Each
 *    input value is loaded from global memory about once per block instead
 *    of (2 radius + 1)^2 times. The block (32 x 8 threads) is smaller than
 *    the tile, so it loads it in several passes over a flat index.
 * 3. Each thread computes a patch of 4 x 2 outputs: 4 rows of 2 adjacent
 *    columns, so a block of 32 x 8 threads makes a 64 x 32 tile. A row of
 *    the window around the patch, 2 + 2 radius values, is read from shared
 *    memory once (in pairs: the columns are adjacent, so one 8-byte load
 *    brings two) and each value feeds up to 8 FMAs from registers: at
 *    radius 1, 24 shared loads for 72 FMAs, where one output per thread
 *    needs 9 for 9. The wider tile also has less halo per output and
 *    loads its rows in 256-byte runs.
 * 4. The radius is a template parameter (one kernel per radius 0..7, chosen
 *    at run time), so every loop is unrolled and every index into the tile
 *    and the filter is a constant.
 * 5. At radius 0 to 2 the kernel asks for 8 blocks on each SM
 *    (__launch_bounds__(256, 8)): the compiler keeps to 32 registers, and
 *    64 warps per SM keep enough loads in flight for the kernel to run near
 *    the copy bandwidth. At larger radii the FMAs, not the loads, set the
 *    pace, and the registers are better spent on the window.
 *
 * At radius 1 the kernel moves the image once in and once out and runs near
 * the copy bandwidth; at radius 7 it does 225 FMAs per output and is bound
 * by the FMA units, not memory.
 */
#include <cuda_runtime.h>

#define MAX_RADIUS 7
#define MAX_WIDTH (2 * MAX_RADIUS + 1)

/* Threads per block: 32 x 8. */
#define BLOCK_X 32
#define BLOCK_Y 8
#define ROWS 4 /* outputs per thread: ROWS rows of COLS adjacent columns */

/* The largest filter any call may pass: 15 x 15 floats, 900 bytes. */
__constant__ float c_filter[MAX_WIDTH * MAX_WIDTH];

/* R: the radius; COLS: the patch's columns; MIN_BLOCKS: the blocks per SM
 * the registers must allow (1: no cap). */
template <int R, int COLS, int MIN_BLOCKS>
__global__ void __launch_bounds__(BLOCK_X *BLOCK_Y, MIN_BLOCKS)
    conv2d_tiled(const float *__restrict__ in, float *__restrict__ out, int rows, int cols,
                 int col_tiles)
{
    const int W = 2 * R + 1;
    const int TILE_W = BLOCK_X * COLS, TILE_H = BLOCK_Y * ROWS;
    const int SH = TILE_H + 2 * R, SW = TILE_W + 2 * R;
    __shared__ __align__(16) float tile[SH][SW];

    /* One flat grid: blocks walk the tiles row by row (no 65535 limit on
     * the number of row tiles). */
    int tile_row = blockIdx.x / col_tiles, tile_col = blockIdx.x % col_tiles;
    int row0 = tile_row * TILE_H, col0 = tile_col * TILE_W;
    int tx = threadIdx.x, ty = threadIdx.y;

    /* Load the tile and its halo in passes of 256 over a flat index,
     * consecutive threads on consecutive columns (coalesced), 0 outside
     * the image. */
    for (int k = ty * BLOCK_X + tx; k < SH * SW; k += BLOCK_X * BLOCK_Y) {
        int y = k / SW, x = k % SW;
        int r = row0 - R + y, c = col0 - R + x;
        tile[y][x] = (r >= 0 && r < rows && c >= 0 && c < cols) ? in[(size_t)r * cols + c] : 0.0f;
    }
    __syncthreads();

    /* Thread (tx, ty) computes rows row0 + 4 ty .. + 3 of columns
     * col0 + COLS tx .. + COLS - 1. Input row y of the window (y from 0 to
     * 3 + 2R) is filter row y - k of output row k, and its value m is
     * filter column m - cc of output column cc: each value is read once
     * and used by up to 4 COLS outputs. */
    float acc[ROWS][COLS];
#pragma unroll
    for (int k = 0; k < ROWS; k++)
#pragma unroll
        for (int cc = 0; cc < COLS; cc++) acc[k][cc] = 0.0f;
#pragma unroll
    for (int y = 0; y < ROWS + 2 * R; y++) {
        float v[COLS + 2 * R];
#pragma unroll
        for (int m = 0; m < COLS + 2 * R; m++) v[m] = tile[ty * ROWS + y][tx * COLS + m];
#pragma unroll
        for (int k = 0; k < ROWS; k++) {
            int i = y - k;
            if (i < 0 || i >= W) continue;
#pragma unroll
            for (int j = 0; j < W; j++)
#pragma unroll
                for (int cc = 0; cc < COLS; cc++) acc[k][cc] += c_filter[i * W + j] * v[cc + j];
        }
    }

    /* Rows past the image end the loop; columns past it are skipped. (With
     * the two tests joined in one condition, ptxas kept 255 registers and
     * spilled at radius 6 and 7: 3.3 times slower.) */
#pragma unroll
    for (int k = 0; k < ROWS; k++) {
        int r = row0 + ty * ROWS + k;
        if (r >= rows) break;
#pragma unroll
        for (int cc = 0; cc < COLS; cc++) {
            int c = col0 + tx * COLS + cc;
            if (c < cols) out[(size_t)r * cols + c] = acc[k][cc];
        }
    }
}

template <int R, int COLS, bool CAPPED>
static cudaError_t launch(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    const int TILE_W = BLOCK_X * COLS, TILE_H = BLOCK_Y * ROWS;
    /* Capped: 8 blocks per SM where the loads set the pace (radius 0 to
     * 2), else whatever the registers allow. */
    const int MIN_BLOCKS = CAPPED && R <= 2 ? 8 : 1;
    int col_tiles = (cols + TILE_W - 1) / TILE_W;
    int row_tiles = (rows + TILE_H - 1) / TILE_H;
    dim3 block(BLOCK_X, BLOCK_Y);
    conv2d_tiled<R, COLS, MIN_BLOCKS><<<(unsigned)row_tiles * (unsigned)col_tiles, block, 0,
                                        stream>>>(in, out, rows, cols, col_tiles);
    return cudaGetLastError();
}

/* The filter's copy, then the kernel for this radius. The reference is
 * conv2d_patches<2, true>: 4 x 2 patches, 8 blocks per SM at small radii;
 * the ladder's rungs before it take one column and no register cap. */
template <int COLS, bool CAPPED>
static cudaError_t conv2d_patches(const float *d_in, float *d_out, int rows, int cols,
                                  const float *d_filter, int radius, cudaStream_t stream)
{
    if (radius < 0 || radius > MAX_RADIUS) return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0) return cudaSuccess; /* nothing to write */
    size_t width = 2 * (size_t)radius + 1;
    cudaError_t err = cudaMemcpyToSymbolAsync(c_filter, d_filter, width * width * sizeof(float),
                                              0, cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess) return err;
    switch (radius) {
    case 0: return launch<0, COLS, CAPPED>(d_in, d_out, rows, cols, stream);
    case 1: return launch<1, COLS, CAPPED>(d_in, d_out, rows, cols, stream);
    case 2: return launch<2, COLS, CAPPED>(d_in, d_out, rows, cols, stream);
    case 3: return launch<3, COLS, CAPPED>(d_in, d_out, rows, cols, stream);
    case 4: return launch<4, COLS, CAPPED>(d_in, d_out, rows, cols, stream);
    case 5: return launch<5, COLS, CAPPED>(d_in, d_out, rows, cols, stream);
    case 6: return launch<6, COLS, CAPPED>(d_in, d_out, rows, cols, stream);
    default: return launch<7, COLS, CAPPED>(d_in, d_out, rows, cols, stream);
    }
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return conv2d_patches<2, true>(d_in, d_out, rows, cols, d_filter, radius, stream);
}
