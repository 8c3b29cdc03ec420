/* WRONG ON PURPOSE: the tile loop runs k / TILE times, rounding down, so
 * the last k % TILE terms of every sum are dropped. The rows and columns
 * are guarded, and every work size has k a multiple of 32, so nothing is
 * missing there; k = 17 (no full tile at all: C comes out 0), 31, 33, 65
 * ... in the right stage lose terms.
 * Must first fail the right stage. */
#include <cuda_runtime.h>

#define TILE 32

__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k,
                             int tiles_n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = (blockIdx.x / tiles_n) * TILE + ty, col = (blockIdx.x % tiles_n) * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k / TILE; t++) { /* should be (k + TILE - 1) / TILE */
        int p0 = t * TILE;
        as[ty][tx] = row < m ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
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
