/* WRONG ON PURPOSE: hands the product to cuBLAS. cublasSgemm works on
 * column-major matrices; a row-major C = A B is the column-major
 * C^T = B^T A^T, so it is called with the operands swapped. Right on every
 * size, and as fast as the fast stage's own yardstick, which is the point:
 * the lab forbids the library it measures against. The grader finds
 * cuBLAS's symbols in the compiled object and rejects it before it runs.
 * Must first fail the work stage.
 * EMULATION: fail skipped: the emulation has no cuBLAS, so the file does not build there
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    if (k == 0) return cudaMemsetAsync(d_c, 0, (size_t)m * n * sizeof(float), stream);
    static cublasHandle_t handle = nullptr;
    if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    const float one = 1.0f, zero = 0.0f;
    if (cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS ||
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, n, d_a, k, &zero,
                    d_c, n) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaGetLastError();
}
