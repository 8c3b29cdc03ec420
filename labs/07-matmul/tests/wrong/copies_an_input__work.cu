/* WRONG ON PURPOSE: "returns" A instead of computing A B: C is filled with
 * the first m*n values of A (or as many as A has), the rest left alone.
 * Must first fail the work stage.
 * REPORT-SAYS: C[i][j] = sum over p of A[i][p]
 */
#include <cuda_runtime.h>

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    (void)d_b;
    size_t count_c = (size_t)m * n, count_a = (size_t)m * k;
    size_t count = count_c < count_a ? count_c : count_a;
    if (count == 0) return cudaSuccess;
    return cudaMemcpyAsync(d_c, d_a, count * sizeof(float), cudaMemcpyDeviceToDevice, stream);
}
