/* WRONG ON PURPOSE: "k == 0: nothing to multiply, nothing to do". But C
 * = A B with k = 0 is the m x n zero matrix, and d_c holds garbage until
 * someone writes those zeros. The work sizes all have k > 0; the right
 * stage's 33 x 31 x 0 finds C never written, and halving m and n shows
 * the smallest such case, one element.
 * Must first fail the right stage.
 * REPORT-SAYS: smallest failing case found by halving the sizes: d_c: 1 of 1 elements wrong at m=1, n=1, k=0
 * SMALLEST-ON-GPU: two sizes halved down to one element
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
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0 || k == 0) return cudaSuccess; /* k == 0 still needs C = 0 */
    int tiles_n = (n + TILE - 1) / TILE;
    matmul_tiled<<<((m + TILE - 1) / TILE) * tiles_n, dim3(TILE, TILE), 0, stream>>>(
        d_a, d_b, d_c, m, n, k, tiles_n);
    return cudaGetLastError();
}
