/* WRONG ON PURPOSE: the store is guarded with the thread's *input*
 * position (r0 + y + k < rows, c0 + x < cols), as in many a textbook
 * version, instead of the output's. On a partial tile of a non-square
 * matrix the two differ: some threads read tile elements that were never
 * loaded and write them out (past the end of d_out, or over other rows),
 * while other elements of d_out are never written. On whole tiles (every
 * work size) both guards are always true.
 * Must first fail the right stage.
 * REPORT-SAYS: NaN or Inf in the wrong
 */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
    for (int k = 0; k < TILE; k += ROWS) {
        int r = r0 + y + k, c = c0 + x;
        if (r < rows && c < cols) tile[y + k][x] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    for (int k = 0; k < TILE; k += ROWS) {
        int r = r0 + y + k, c = c0 + x; /* the load's position, not the store's */
        if (r < rows && c < cols) out[(size_t)(c0 + y + k) * rows + r0 + x] = tile[x][y + k];
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
