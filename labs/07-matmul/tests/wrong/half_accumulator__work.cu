/* WRONG ON PURPOSE: each thread keeps its sum in half precision "to save
 * registers": 11 significant bits (u = 2^-11), and every addition rounds
 * to them. The typical inputs' sums grow to tens, where a half's step is
 * 2^-5; the bound allows a few thousandths. Already the friendly sizes are
 * far outside it (the error-bound tolerance is tight where a sum has few
 * terms, and still tens of times too tight for half at k = 768).
 * Must first fail the work stage.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void matmul_kernel(const float *a, const float *b, float *c, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    __half sum = __float2half(0.0f);
    for (int p = 0; p < k; p++)
        sum = __hadd(sum, __float2half(a[(size_t)row * k + p] * b[(size_t)p * n + col]));
    c[(size_t)row * n + col] = __half2float(sum);
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    matmul_kernel<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
