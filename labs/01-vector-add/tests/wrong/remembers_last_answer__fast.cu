/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers and n of the last call are kept in static variables, and a call
 * with the same ones returns cudaSuccess at once ("d_c already holds a + b":
 * a student who saw the grader call the function hundreds of times on the
 * same buffers might think of it).
 * During the fast stage every call gets the same buffers, so after the first
 * one it returns at once and the timed calls look free. After timing, the
 * grader refills those same buffers with fresh inputs (and NaN in the
 * outputs) and calls once more: the cache hits, nothing is written, and the
 * re-check fails ("wrong on fresh inputs after timing"). The work and right
 * stages never make two calls in a row with the same pointers and sizes (the
 * sizes differ, or the right stage's pointers are offset differently), so it
 * passes them. Must first fail the fast stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

/* The buffers and sizes of the last call that succeeded. */
static struct {
    const float *d_a;
    const float *d_b;
    float *d_c;
    int n;
    bool valid;
} last;

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b,
                                  float *d_c, int n, cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_c still holds it." */
    if (last.valid && last.d_a == d_a && last.d_b == d_b && last.d_c == d_c && last.n == n)
        return cudaSuccess;
    cudaError_t status = reference_vector_add(d_a, d_b, d_c, n, stream);
    last = {d_a, d_b, d_c, n, status == cudaSuccess};
    return status;
}
