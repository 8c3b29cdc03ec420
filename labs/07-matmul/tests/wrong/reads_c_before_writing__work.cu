/* WRONG ON PURPOSE: the reference, but its store is written the way a full
 * SGEMM's is, C = alpha * A B + beta * C, with alpha = 1 and beta = 0 to
 * get C = A B. But beta * C still reads C, and C holds NaN on entry (the
 * grader fills every output so): 0 * NaN is NaN, so every element comes
 * out NaN. The report must say why. (The edits keep the one-float store,
 * which reads C, and drop the float4 one.)
 * Must first fail the work stage.
 * REPORT-SAYS: 0 * NaN is NaN
 *
 * EDIT: s/if (vec_c && col < n) {/if (0) {/
 * EDIT: s/if (col + j < n) dst\[j\] = v\[j\];/if (col + j < n) dst[j] = 1.0f * v[j] + 0.0f * dst[j];/
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    return reference_matmul(d_a, d_b, d_c, m, n, k, stream);
}
