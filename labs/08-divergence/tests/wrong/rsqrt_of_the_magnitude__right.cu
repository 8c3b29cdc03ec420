/* WRONG ON PURPOSE: the reference, but kind 2 takes rsqrtf(fabsf(x)) "to
 * keep NaN out of the output". The legacy code's 1 / sqrt(x) is NaN for a
 * negative x and -Inf for -0, and so must the answer be: this returns a
 * number and +Inf there. Work's inputs hold no negative kind-2 values;
 * right's special values do. Must first fail the right stage.
 * REPORT-SAYS: NaN/Inf in the wrong place
 *
 * EDIT: s/if (K == 2) return rsqrtf(x);/if (K == 2) return rsqrtf(fabsf(x));/
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    return reference_divergence(d_x, d_m, d_y, d_q, n, stream);
}
