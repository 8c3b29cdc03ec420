/* WRONG ON PURPOSE: the textbook shared-tile kernel with the textbook
 * grid, dim3 grid((n + 15) / 16, (m + 15) / 16): tile rows on the grid's y
 * side. A grid's y side holds at most 65535 blocks, so m > 1048560 rows
 * cannot be launched: the right stage's 2100001 x 3 x 5 gets "invalid
 * configuration argument". Everything else about the kernel is right.
 * Must first fail the right stage.
 * EMULATION: pass pass: the emulated right stage leaves out the 2100001-row case (two million fibers), so the kernel passes there
 */
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; p++) sum += as[ty][p] * bs[p][tx];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_tiled<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
