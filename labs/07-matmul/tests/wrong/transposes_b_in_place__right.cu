/* WRONG ON PURPOSE: "B is read down its columns, so transpose it first":
 * when B is square (k == n) the kernel transposes it in place, computes
 * C[i][j] = sum A[i][p] * Bt[j][p] with both operands read along rows,
 * and forgets that d_b belongs to the caller. The answer is right, so the
 * work stage (which checks the answers) passes; the right stage also
 * checks that every input comes back unchanged, and the B of 64 x 4 x 4
 * (and of 512^3) comes back transposed.
 * Must first fail the right stage ("changed the input d_b").
 * REPORT-SAYS: d_a and d_b are inputs: copy
 */
#include <cuda_runtime.h>

/* Swap B[p][j] and B[j][p] above the diagonal (p < j). */
__global__ void transpose_in_place(float *b, int size)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int p = blockIdx.y * blockDim.y + threadIdx.y;
    if (p < j && j < size) {
        float t = b[(size_t)p * size + j];
        b[(size_t)p * size + j] = b[(size_t)j * size + p];
        b[(size_t)j * size + p] = t;
    }
}

/* TRANSPOSED: b holds B^T (n x k), read along its rows. */
template <bool TRANSPOSED>
__global__ void matmul_kernel(const float *a, const float *b, float *c, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += a[(size_t)row * k + p] * (TRANSPOSED ? b[(size_t)col * k + p] : b[(size_t)p * n + col]);
    c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    if (k == n && k > 0) {
        dim3 tgrid((n + 31) / 32, (n + 7) / 8);
        transpose_in_place<<<tgrid, block, 0, stream>>>((float *)d_b, n);
        matmul_kernel<true><<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    } else {
        matmul_kernel<false><<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    }
    return cudaGetLastError();
}
