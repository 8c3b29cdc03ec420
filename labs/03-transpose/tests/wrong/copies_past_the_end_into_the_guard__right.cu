/* WRONG ON PURPOSE: the reference transpose, followed by a "tidy-up" that
 * copies the 32 floats after the end of d_in to the 32 after the end of
 * d_out (as a sample transpose that rounds its grid up without a bounds
 * check does). The answer is right; the extra writes are outside d_out.
 * The grader surrounds every buffer with guard bytes and looks for changed
 * ones; when every guard held the same pattern, a copy from one guard into
 * another changed nothing and this passed. Each buffer's guard now has a
 * pattern of its own, so the right stage reports the writes past d_out.
 * Must first fail the right stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

__global__ void tidy_up(const float *in, float *out, size_t n)
{
    out[n + threadIdx.x] = in[n + threadIdx.x];
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    cudaError_t status = reference_transpose(d_in, d_out, rows, cols, stream);
    if (status != cudaSuccess || rows == 0 || cols == 0) return status;
    tidy_up<<<1, 32, 0, stream>>>(d_in, d_out, (size_t)rows * cols);
    return cudaGetLastError();
}
