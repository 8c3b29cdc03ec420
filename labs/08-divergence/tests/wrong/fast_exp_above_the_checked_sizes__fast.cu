/* WRONG ON PURPOSE: the reference solution while n is small enough for the
 * CPU to check it; above 2^22 elements (only the timed size, 2^24, gets
 * there) 2^x becomes e^(x ln 2) with the fast intrinsic __expf, tens of ulp
 * off for |x| near 60 but within a relative 1e-3 of the output's scale.
 * Timed calls held to that scale let it through; d_y is held to 4 ulp, so
 * a timed call may lie at most 8 ulp from the baseline's answer.
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/value_of(float x)/value_of(float x, bool large)/
 * EDIT: s/return exp2f(x);/return large ? __expf(x * 0.6931472f) : exp2f(x);/
 * EDIT: s/int \*__restrict__ q, int i)/int *__restrict__ q, int i, bool large)/
 * EDIT: s/value_of<K>(x\[i\])/value_of<K>(x[i], large)/
 * EDIT: s/if (i >= n) return;/&\n    bool large = n > (1 << 22);/
 * EDIT: s/(int)i)/(int)i, large)/
 */
#include <cuda_runtime.h>

/* The entry point: the reference's, with the kernels edited as above. */
extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    return reference_divergence(d_x, d_m, d_y, d_q, n, stream);
}
