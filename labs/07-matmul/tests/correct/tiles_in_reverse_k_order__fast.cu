/* RIGHT, AND FAST: the reference solution with one change: it walks the
 * tiles along k from the last to the first, so every C[i][j] sums the same
 * products in another order and rounds differently. The timed calls are
 * held to 1e-5 of the output's scale of the baseline's answer (lab 07's
 * timed_agreement), which sums from the first; two float orders land about
 * 5e-7 apart, so this must pass, at the reference's speed.
 *
 * EDIT: s/(tile) \* T::BK/(tiles_k - 1 - (tile)) * T::BK/
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

/* The reference, with the tile order the EDIT above reverses. */
extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    return reference_matmul(d_a, d_b, d_c, m, n, k, stream);
}
