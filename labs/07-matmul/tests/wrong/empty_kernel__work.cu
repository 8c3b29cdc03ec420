/* WRONG ON PURPOSE: the launch is right (a grid covering C, on the given
 * stream, the status returned) but the kernel body was never written, so
 * C keeps the grader's NaN poison.
 * Must first fail the work stage ("never written"). */
#include <cuda_runtime.h>

__global__ void matmul_kernel(const float *a, const float *b, float *c, int m, int n, int k)
{
    (void)a; (void)b; (void)c; (void)m; (void)n; (void)k;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    dim3 block(16, 16);
    unsigned tiles = (unsigned)((m + 15) / 16) * (unsigned)((n + 15) / 16);
    matmul_kernel<<<tiles, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
