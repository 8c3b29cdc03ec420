/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers and n of the last call are kept in static variables, and a call
 * with the same ones returns cudaSuccess at once ("*d_out already holds the
 * sum"; the fast stage calls the function hundreds of times on the same
 * buffers).
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
    const float *d_in;
    int n;
    float *d_out;
    float *d_scratch;
    bool valid;
} last;

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out,
                                  float *d_scratch, cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_out still holds it." */
    if (last.valid && last.d_in == d_in && last.n == n && last.d_out == d_out
        && last.d_scratch == d_scratch)
        return cudaSuccess;
    cudaError_t status = reference_reduce_sum(d_in, n, d_out, d_scratch, stream);
    last = {d_in, n, d_out, d_scratch, status == cudaSuccess};
    return status;
}
