/* CORRECT, UNUSUAL: the skeleton's plan carried out: 16 x 16 shared tiles,
 * one output per thread, a 1-D grid of tiles (any m and n fit), zeros
 * loaded outside A and B, guarded stores, and k == 0 still launched so the
 * zeros are written. Right on every size; far too slow for the fast stage.
 * Must pass every stage up to right. */
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k,
                             int tiles_n)
{
    __shared__ float a_tile[TILE][TILE], b_tile[TILE][TILE];
    int row = (blockIdx.x / tiles_n) * TILE + threadIdx.y;
    int col = (blockIdx.x % tiles_n) * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        int pa = p0 + threadIdx.x, pb = p0 + threadIdx.y;
        a_tile[threadIdx.y][threadIdx.x] = row < m && pa < k ? a[(size_t)row * k + pa] : 0.0f;
        b_tile[threadIdx.y][threadIdx.x] = pb < k && col < n ? b[(size_t)pb * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; p++) sum += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_m = (m + TILE - 1) / TILE, tiles_n = (n + TILE - 1) / TILE;
    matmul_tiled<<<tiles_m * tiles_n, dim3(TILE, TILE), 0, stream>>>(d_a, d_b, d_c, m, n, k,
                                                                     tiles_n);
    return cudaGetLastError();
}
