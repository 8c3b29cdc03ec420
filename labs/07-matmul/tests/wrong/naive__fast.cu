/* WRONG ON PURPOSE (too slow): the naive kernel, one thread per output and
 * every operand from global memory, right on every size (rows beyond the
 * grid's y side are reached by a loop). It is the fast stage's baseline,
 * so its speedup is 1x and it reaches about an eighth of cuBLAS.
 * Must first fail the fast stage. */
#include <cuda_runtime.h>

__global__ void matmul_naive(const float *a, const float *b, float *c, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n) return;
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < m; row += gridDim.y * blockDim.y) {
        float sum = 0.0f;
        for (int p = 0; p < k; p++) sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int rows = (m + 7) / 8;
    dim3 block(32, 8), grid((n + 31) / 32, rows < 65535 ? rows : 65535);
    matmul_naive<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
