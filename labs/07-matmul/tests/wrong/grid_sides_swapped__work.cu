/* WRONG ON PURPOSE: the kernel puts columns of C on x and rows on y
 * (col = blockIdx.x * 16 + threadIdx.x, row = blockIdx.y * 16 +
 * threadIdx.y), and guards both, but the grid is sized the other way
 * round: dim3((m + 15) / 16, (n + 15) / 16), "rows first", as the sizes
 * are listed. Right whenever m == n; when n > m the columns past m are
 * never computed (and when m > n the rows past n), so the work stage's
 * rectangular sizes leave part of C never written. Every index stays
 * inside A, B and C, so nothing faults.
 * Must first fail the work stage.
 * REPORT-SAYS: never written
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
    dim3 grid((m + TILE - 1) / TILE, (n + TILE - 1) / TILE); /* x should be n's */
    matmul_tiled<<<grid, dim3(TILE, TILE), 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
