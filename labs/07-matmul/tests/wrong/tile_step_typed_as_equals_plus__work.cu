/* WRONG ON PURPOSE: the tile loop's step is typed "p0 =+ TILE", which C
 * reads as p0 = +TILE: after the first tile p0 is 16 and stays 16. For any
 * k > 16 the loop never ends: the block loads the same tile, meets both
 * barriers and adds its products for ever (every thread of the block the
 * same way, so nothing waits on anything: it simply never stops). The
 * first work call (128 x 128 x 128) hangs, on every GPU.
 * Everything else is right: 16 x 16 tiles, zeros past the edges, both
 * barriers, guarded stores, C written also for k = 0.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does every tile loop advance
 * SMALLEST: a hang fails by the time limit, not on an answer to show
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
    for (int p0 = 0; p0 < k; p0 =+ TILE) { /* should be p0 += TILE */
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
    int tiles_n = (n + TILE - 1) / TILE;
    matmul_tiled<<<((m + TILE - 1) / TILE) * tiles_n, dim3(TILE, TILE), 0, stream>>>(
        d_a, d_b, d_c, m, n, k, tiles_n);
    return cudaGetLastError();
}
