/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers and n of the last call are kept in static variables, and a call
 * with the same ones returns cudaSuccess at once ("the outputs already hold
 * the answer"; the fast stage calls the function hundreds of times on the
 * same buffers).
 * During the fast stage every call gets the same buffers, so after the first
 * one it returns at once, with nothing queued on the stream. This lab's re-
 * check after timing uses another size, on new buffers: the cache misses and
 * the answer is computed. But the grader then checks once more on the same
 * buffers with a few input elements exchanged: the cache hits and the
 * outputs keep the grader's poison ("wrong after a few input elements were
 * exchanged"). Were that missed, the timed calls, which move no bytes at
 * all, would still be "faster than the GPU can move memory" in the
 * memory-bound labs. The work and right stages never make two
 * calls in a row with the same pointers and sizes, so it passes them. Must
 * first fail the fast stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

/* The buffers and sizes of the last call that succeeded. */
static struct {
    const float *d_a;
    const float *d_b;
    const float *d_c;
    const float *d_r;
    const float *d_t;
    float *d_madd;
    float *d_dist;
    float *d_wave;
    int n;
    bool valid;
} last;

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_madd, d_dist and d_wave still hold it." */
    if (last.valid && last.d_a == d_a && last.d_b == d_b && last.d_c == d_c
        && last.d_r == d_r && last.d_t == d_t && last.d_madd == d_madd
        && last.d_dist == d_dist && last.d_wave == d_wave && last.n == n)
        return cudaSuccess;
    cudaError_t status = reference_ieee754(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave,
                                            n, stream);
    last = {d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave, n, status == cudaSuccess};
    return status;
}
