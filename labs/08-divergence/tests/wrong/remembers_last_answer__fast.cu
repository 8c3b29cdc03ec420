/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers and n of the last call are kept in static variables, and a call
 * with the same ones returns cudaSuccess at once ("d_y and d_q already hold
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
    const float *d_x;
    const int *d_m;
    float *d_y;
    int *d_q;
    int n;
    bool valid;
} last;

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_y and d_q still hold it." */
    if (last.valid && last.d_x == d_x && last.d_m == d_m && last.d_y == d_y
        && last.d_q == d_q && last.n == n)
        return cudaSuccess;
    cudaError_t status = reference_divergence(d_x, d_m, d_y, d_q, n, stream);
    last = {d_x, d_m, d_y, d_q, n, status == cudaSuccess};
    return status;
}
