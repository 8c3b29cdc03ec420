/* WRONG ON PURPOSE: hands the dot product to cuBLAS (cublasSdot, with the
 * result written straight to d_result on the device). It computes the
 * right value, and the lab's fast stage itself compares with cuBLAS, so a
 * student might think it fair; but the lab forbids the library whose job
 * it teaches. The grader finds cuBLAS's symbols in the compiled object and
 * rejects it before anything is linked or run (this file would not even
 * link: the submission is not built with -lcublas). Must first fail the
 * work stage.
 * EMULATION: fail skipped: the emulation has no cuBLAS, so the file does not build there
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    static cublasHandle_t handle = nullptr;
    if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    /* n == 0: cuBLAS writes 0, as the contract asks. */
    if (cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE) != CUBLAS_STATUS_SUCCESS ||
        cublasSdot(handle, n, d_x, 1, d_y, 1, d_result) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaGetLastError();
}
