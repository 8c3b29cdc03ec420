/* WRONG ON PURPOSE: written the way a full SGEMM is, C = alpha * A B +
 * beta * C, with alpha = 1 and beta = 0 to get C = A B. But beta * C still
 * reads C, and C holds NaN on entry (the grader fills every output so):
 * 0 * NaN is NaN, so every element comes out NaN. The report must say why.
 * Must first fail the work stage.
 * REPORT-SAYS: 0 * NaN is NaN
 */
#include <cuda_runtime.h>

#define TILE 16

__global__ void sgemm(const float *a, const float *b, float *c, int m, int n, int k,
                      float alpha, float beta)
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
    if (row < m && col < n) {
        size_t i = (size_t)row * n + col;
        c[i] = alpha * sum + beta * c[i];
    }
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    sgemm<<<grid, dim3(TILE, TILE), 0, stream>>>(d_a, d_b, d_c, m, n, k, 1.0f, 0.0f);
    return cudaGetLastError();
}
