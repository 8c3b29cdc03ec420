/* WRONG ON PURPOSE, and an attack on the grader's time: wrong at every size
 * work asks for (n >= 1024: c = a + a), and it never returns below that. So
 * the grader's search for the smallest failing case, which calls it again
 * with n halved (512, 256, ...), finds a hang. That run is capped at 10 s
 * or work's own limit if smaller (the tests grade it with 5 s, so 5 s),
 * its result is only ever extra information, and a run that hangs shows
 * nothing: the verdict stays work's wrong value, with the lab's hint.
 * Must first fail the work stage.
 * TIME-LIMITS: 5,10
 * REPORT-SAYS: c[i] must be a[i] + b[i]: check
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: it hangs at every size below 1024, so the search for a smaller case times out and shows none
 */
#include <cuda_runtime.h>

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    volatile int spin = n < 1024;
    while (spin) {
    }
    (void)d_b;
    return reference_vector_add(d_a, d_a, d_c, n, stream);
}
