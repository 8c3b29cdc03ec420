/* WRONG ON PURPOSE: the reference transpose, but when the launch reports an
 * error it calls cudaDeviceReset() "to clear the sticky error" before
 * returning the status, as sample programs do at the end of main. Inside a
 * library call that destroys the caller's context: every buffer and
 * stream the grader holds is gone. Graded code may not reset the GPU: the
 * grader finds cudaDeviceReset in the compiled file and rejects it before
 * it runs. Must first fail the work stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    cudaError_t status = reference_transpose(d_in, d_out, rows, cols, stream);
    if (status != cudaSuccess) cudaDeviceReset(); /* start clean next time */
    return status;
}
