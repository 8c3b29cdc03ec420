/* WRONG ON PURPOSE: a race on the shared tiles. The second __syncthreads()
 * of the tile loop, after the products are added, is missing: a warp that
 * is done with tile t goes on to store its elements of tile t+1 while
 * other warps may still be reading tile t. The early warp's global loads
 * take a few hundred cycles, the others need a few dozen to finish their 16
 * products, so one might hope the race stays hidden: on an H100 it does
 * not (some 21 thousand of the 524 thousand sums of a work size came out
 * wrong), and compute-sanitizer racecheck would report the
 * write-after-read hazard anyway.
 * Must first fail the work stage.
 */
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k,
                             int tiles_n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = (blockIdx.x / tiles_n) * TILE + ty, col = (blockIdx.x % tiles_n) * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; p++) sum += as[ty][p] * bs[p][tx];
        /* missing: __syncthreads(); before the next tile overwrites these */
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_n = (n + TILE - 1) / TILE;
    matmul_tiled<<<((m + TILE - 1) / TILE) * tiles_n, dim3(TILE, TILE), 0, stream>>>(
        d_a, d_b, d_c, m, n, k, tiles_n);
    return cudaGetLastError();
}
