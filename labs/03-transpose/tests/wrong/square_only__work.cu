/* WRONG ON PURPOSE: written for the square n x n matrices of the lecture
 * slides: n = rows is used for both sides. Right on 512 x 512, wrong on
 * the work stage's rectangular matrices.
 * Must first fail the work stage. */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
    for (int k = 0; k < TILE; k += ROWS) {
        int r = r0 + y + k, c = c0 + x;
        if (r < n && c < n) tile[y + k][x] = in[(size_t)r * n + c];
    }
    __syncthreads();
    for (int k = 0; k < TILE; k += ROWS) {
        int out_row = c0 + y + k, out_col = r0 + x;
        if (out_row < n && out_col < n) out[(size_t)out_row * n + out_col] = tile[x][y + k];
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    (void)cols;
    if (rows == 0) return cudaSuccess;
    int n = rows;
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    transpose_kernel<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
