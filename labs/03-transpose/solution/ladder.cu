/* Lab 03's ladder: the same transpose, from the naive kernel to padded
 * shared-memory tiles, 32 and then 64 wide, and the order of the tiles. `make ladder LAB=03` checks every rung, then times
 * them all and a device-to-device copy at 8192 x 8192 and prints GB/s,
 * % of copy and the speedups.
 *
 * The lesson is coalescing: a transpose must read rows and write columns
 * (or the other way round), and a warp's access is only cheap when its 32
 * threads touch neighbouring addresses. A shared-memory tile lets both
 * global sides be rows; the column access moves into shared memory, where
 * the remaining enemy is the bank conflict.
 *
 * The rungs assume the grid fits (the ladder runs at 8192 x 8192); only
 * the reference, the last rung, handles matrices of any height.
 */
#include "transpose.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

/* v1: one thread per element, threadIdx.x along an input row (the fast
 * stage's baseline, labs/03-transpose/trusted/lab.cu). A warp reads one 128-byte
 * row segment, coalesced, and writes 32 elements rows * 4 bytes apart: 32
 * sectors of 32 bytes, each carrying 4 useful bytes. */
__global__ void transpose_naive_rows(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static int v1_naive(void *const *d, const int64_t *dims, void *s)
{
    int rows = (int)dims[0], cols = (int)dims[1];
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    transpose_naive_rows<<<grid, dim3(32, 8), 0, (cudaStream_t)s>>>(
        (const float *)d[0], (float *)d[1], rows, cols);
    return cudaGetLastError();
}

/* v1b: the other naive kernel, threadIdx.x down an input column: writes
 * coalesced, reads strided. Strided reads waste sectors too, but a sector
 * fetched for one warp holds the next 7 columns, which the block's other
 * warps (threadIdx.y) want soon: the L1 cache can serve them. Writes have
 * no such help. Compare it with v1 on your GPU. */
__global__ void transpose_naive_cols(const float *in, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static int v1b_naive_strided_reads(void *const *d, const int64_t *dims, void *s)
{
    int rows = (int)dims[0], cols = (int)dims[1];
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((rows + 31) / 32, (cols + 7) / 8);
    transpose_naive_cols<<<grid, dim3(32, 8), 0, (cudaStream_t)s>>>(
        (const float *)d[0], (float *)d[1], rows, cols);
    return cudaGetLastError();
}

/* v2 and v3: a 32 x 32 tile in shared memory, 32 x 8 threads, four
 * elements each, with PAD extra columns. Both global sides are coalesced
 * now.
 *   v2, PAD = 0: reading a column of the tile, tile[x][y + k] for
 *      x = 0..31, touches words 32 x apart: all in one bank, a 32-way bank
 *      conflict, so each such read takes 32 shared-memory cycles instead
 *      of one.
 *   v3, PAD = 1: word x * 33 + j lies in bank (x + j) % 32: a column read
 *      is conflict-free. Every byte now moves once, in full sectors. */
template <int PAD>
__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][32 + PAD];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
    for (int k = 0; k < 32; k += 8) {
        int r = r0 + y + k, c = c0 + x;
        if (r < rows && c < cols) tile[y + k][x] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    for (int k = 0; k < 32; k += 8) {
        int out_row = c0 + y + k, out_col = r0 + x;
        if (out_row < cols && out_col < rows) out[(size_t)out_row * rows + out_col] = tile[x][y + k];
    }
}

template <int PAD> static int tiles_32(void *const *d, const int64_t *dims, void *s)
{
    int rows = (int)dims[0], cols = (int)dims[1];
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((cols + 31) / 32, (rows + 31) / 32);
    transpose_tiled<PAD><<<grid, dim3(32, 8), 0, (cudaStream_t)s>>>((const float *)d[0],
                                                                     (float *)d[1], rows, cols);
    return cudaGetLastError();
}

/* v4: 64 x 64 tiles padded to 65 columns, the same 32 x 8 threads moving
 * sixteen elements each (move_tile, transpose.cu), one block per tile in a
 * 2-D grid: blockIdx.x across the columns of tiles, as v2 and v3. Each
 * output row is now written 256 contiguous bytes at a time instead of 128,
 * which DRAM serves at a higher rate. */
__global__ void __launch_bounds__(THREADS_X * ROWS)
    transpose_64_across_first(const float *__restrict__ in, float *__restrict__ out, int rows,
                              int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    move_tile(in, out, rows, cols, blockIdx.y * TILE, blockIdx.x * TILE, tile);
}

static int v4_tiles_64_padded(void *const *d, const int64_t *dims, void *s)
{
    int rows = (int)dims[0], cols = (int)dims[1];
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_64_across_first<<<grid, dim3(THREADS_X, ROWS), 0, (cudaStream_t)s>>>(
        (const float *)d[0], (float *)d[1], rows, cols);
    return cudaGetLastError();
}

/* v5: the reference (transpose.cu): v4's tiles, numbered down the columns
 * of tiles in a 1-D grid, so the blocks that run at one time write side by
 * side in the same output rows. */
static int v5_tiles_64_down_first(void *const *d, const int64_t *dims, void *s)
{
    return transpose((const float *)d[0], (float *)d[1], (int)dims[0], (int)dims[1],
                     (cudaStream_t)s);
}

static const lab_rung RUNGS[] = {
    {"v1_naive", v1_naive},
    {"v1b_naive_strided_reads", v1b_naive_strided_reads},
    {"v2_tiles_32x32_bank_conflicts", tiles_32<0>},
    {"v3_tiles_padded_33", tiles_32<1>},
    {"v4_tiles_64x64_padded", v4_tiles_64_padded},
    {"v5_tiles_64x64_down_first", v5_tiles_64_down_first},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
