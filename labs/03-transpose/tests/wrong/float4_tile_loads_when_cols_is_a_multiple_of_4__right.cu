/* WRONG ON PURPOSE: when cols is a multiple of 4, each thread loads its
 * four elements of the tile as one float4 from d_in + r * cols + c. The
 * check makes every row start a whole number of float4 after d_in, but
 * d_in itself need not be 16-byte aligned: the contract promises only 4
 * bytes. A float4 load is one 16-byte load, and the GPU raises a
 * misaligned address fault for certain when its address is not a
 * multiple of 16. Everything else is right (32 x 32 tiles padded to 33
 * columns, loads guarded by the input's bounds, stores by the output's,
 * a loop over tile rows for matrices more than 65535 tiles tall, scalar
 * loads when cols is not a multiple of 4), so every output is right
 * wherever d_in is 16-byte aligned: work's pointers are, and it passes
 * work. Right offsets d_in by 0, 4, 8 or 12 bytes; the cases before
 * 1 x 1000 are empty or 1 x 1, so that is the first to fail, with d_in
 * 4 bytes off.
 * Must first fail the right stage.
 * REPORT-SAYS: access through a pointer that is only 4-byte aligned
 * SMALLEST: the float4 loads need cols a multiple of 4: 1 x 1000 halves to 500, then 250
 */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8
#define MAX_GRID_Y 65535

/* Block (bx, by) owns the tiles whose top-left input element is
 * (t * TILE, bx * TILE) for t = by, by + gridDim.y, ... */
__global__ void transpose_tiles(const float *in, float *out, int rows, int cols,
                                bool rows_of_float4)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE;
    int tiles_down = (rows + TILE - 1) / TILE;

    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        int r0 = t * TILE;
        if (rows_of_float4) {
            /* 32 rows of 8 float4, one per thread. cols % 4 == 0 and
             * c % 4 == 0: the four are all inside the row or all outside. */
            int id = y * TILE + x, tr = id / (TILE / 4), tc = 4 * (id % (TILE / 4));
            int r = r0 + tr, c = c0 + tc;
            if (r < rows && c < cols) {
                /* BUG: from d_in, which is only 4-byte aligned. */
                float4 v = *reinterpret_cast<const float4 *>(in + (size_t)r * cols + c);
                tile[tr][tc] = v.x;
                tile[tr][tc + 1] = v.y;
                tile[tr][tc + 2] = v.z;
                tile[tr][tc + 3] = v.w;
            }
        } else {
            for (int k = 0; k < TILE; k += ROWS) {
                int r = r0 + y + k, c = c0 + x;
                if (r < rows && c < cols) tile[y + k][x] = in[(size_t)r * cols + c];
            }
        }
        __syncthreads();

        int out_col = r0 + x; /* an input row */
        for (int k = 0; k < TILE; k += ROWS) {
            int out_row = c0 + y + k; /* an input column */
            if (out_row < cols && out_col < rows)
                out[(size_t)out_row * rows + out_col] = tile[x][y + k];
        }
        /* The next tile overwrites this one: every warp must be done. */
        if (t + (int)gridDim.y < tiles_down) __syncthreads();
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int tiles_across = (cols + TILE - 1) / TILE, tiles_down = (rows + TILE - 1) / TILE;
    dim3 grid(tiles_across, tiles_down < MAX_GRID_Y ? tiles_down : MAX_GRID_Y);
    transpose_tiles<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols,
                                                           cols % 4 == 0);
    return cudaGetLastError();
}
