/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers and n of the last call are kept in static variables, and a call
 * with the same ones returns cudaSuccess at once ("*d_result already holds
 * the dot product"; the fast stage calls the function hundreds of times on
 * the same buffers).
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
    const float *d_x;
    const float *d_y;
    int n;
    float *d_result;
    bool valid;
} last;

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_result still holds it." */
    if (last.valid && last.d_x == d_x && last.d_y == d_y && last.n == n
        && last.d_result == d_result)
        return cudaSuccess;
    cudaError_t status = reference_dot(d_x, d_y, n, d_result, stream);
    last = {d_x, d_y, n, d_result, status == cudaSuccess};
    return status;
}
