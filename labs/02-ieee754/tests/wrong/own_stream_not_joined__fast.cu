/* WRONG ON PURPOSE: the reference solution, but it launches on a stream of
 * its own and never makes the given stream wait for it, so the grader's
 * events time nothing. Every checked call waits for the whole GPU, so the
 * answers are right; the fast stage sees the GPU still busy after the timed
 * stream was done. Must first fail the fast stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    (void)stream;
    static cudaStream_t own;
    if (!own) CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
    return reference_ieee754(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave, n, own);
}
