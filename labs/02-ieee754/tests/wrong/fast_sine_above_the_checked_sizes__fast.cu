/* WRONG ON PURPOSE: the reference solution while n is small enough for the
 * CPU to check it, and the sine of the quietest sample by the intrinsic
 * __sinf above 2^22 elements: only the timed size, 2^24, gets there. __sinf's
 * error is absolute (about 2^-21.4), hundreds of ulp for results near 0.01,
 * yet a relative 1e-3 of the output's scale. Timed calls held to that scale
 * let it through; the wave is held to 2 ulp, so a timed call may lie at most
 * 4 ulp from the baseline's answer.
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/quietest_sample(float t)/quietest_sample(float t, bool large)/
 * EDIT: s/return sinpif(nearest);/return large ? __sinf(3.14159265f * nearest) : sinpif(nearest);/
 * EDIT: s/quietest_sample(t\[i\])/quietest_sample(t[i], n > (1 << 22))/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    return reference_ieee754(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave, n, stream);
}
