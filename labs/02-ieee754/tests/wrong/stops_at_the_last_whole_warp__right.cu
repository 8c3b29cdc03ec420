/* WRONG ON PURPOSE: the reference, but above 32 elements its grid-stride
 * loop stops at the last multiple of 32 ("the tail is less than a warp"):
 * the elements after it are never written. Every work size is a multiple
 * of 32, so work passes; right has n = 33, 1000, ... Must first fail the
 * right stage.
 * REPORT-SAYS: every output element must be written
 *
 * EDIT: s/; i < n; i += stride) {/; i < (n > 32 ? n - n % 32 : n); i += stride) {/
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: a size below one warp (32) has no whole warp to stop at; 33 values (66 outputs) is the smallest that fails
 */
#include <cuda_runtime.h>

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    return reference_ieee754(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave, n, stream);
}
