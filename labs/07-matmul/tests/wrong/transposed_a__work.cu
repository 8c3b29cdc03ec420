/* WRONG ON PURPOSE: A is indexed as if it were stored column-major,
 * a[p * m + row] instead of a[row * k + p], so the kernel computes A^T B
 * read through the wrong strides (a mix-up of the row length of A with
 * its number of rows). Every index stays inside A, so nothing faults: the
 * values are simply wrong, on the square work size too.
 * Must first fail the work stage. */
#include <cuda_runtime.h>

__global__ void matmul_kernel(const float *a, const float *b, float *c, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++) sum += a[(size_t)p * m + row] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    matmul_kernel<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
