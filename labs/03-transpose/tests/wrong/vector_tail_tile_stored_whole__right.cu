/* WRONG ON PURPOSE: a matrix with one row or one column is a vector, and
 * its transpose is the same floats in the same order, so it takes a
 * shortcut: a copy, one tile of 32 floats per block of one warp. The copy
 * guards its load with the input's bound (i < n, the load of a partial
 * tile, as the 2-D kernel does) but stores all 32 floats: the last,
 * partial tile writes up to 31 floats past the end of d_out. Every
 * element of d_out is right, and so is the 2-D kernel (32 x 32 shared
 * tiles, padded). Work has no vectors, so it passes; right's 1 x 1,
 * 1 x 1000, 1 x 65537, ... write into the guard bytes behind d_out.
 * REPORT-SAYS: a partial tile wrote past the end of d_out
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8
#define MAX_GRID_Y 65535

/* The 2-D case: one 32 x 32 tile per block, staged in shared memory
 * padded to 33 columns; the load guarded by the input's bounds, the store
 * by the output's. Tall matrices loop over tile rows (grid.y <= 65535). */
__global__ void transpose_tiles(const float *in, float *out, int rows, int cols)
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
        __syncthreads(); /* everyone done with the tile before it is reused */
    }
}

/* The vector case: block b, one warp, copies the tile of floats
 * 32 b .. 32 b + 31. */
__global__ void copy_vector(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f; /* the load of a partial tile, guarded */
    out[i] = v;                     /* the mistake: the store is not */
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    if (rows == 1 || cols == 1) {
        int n = rows * cols;
        copy_vector<<<(n + TILE - 1) / TILE, TILE, 0, stream>>>(d_in, d_out, n);
        return cudaGetLastError();
    }
    int tiles_down = (rows + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, tiles_down < MAX_GRID_Y ? tiles_down : MAX_GRID_Y);
    transpose_tiles<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
