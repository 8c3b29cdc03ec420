/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers, rows and cols of the last call are kept in static variables, and
 * a call with the same ones returns cudaSuccess at once ("d_out already
 * holds the transpose"; the fast stage calls the function hundreds of times
 * on the same buffers).
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
    const float *d_in;
    float *d_out;
    int rows;
    int cols;
    bool valid;
} last;

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_out still holds it." */
    if (last.valid && last.d_in == d_in && last.d_out == d_out && last.rows == rows
        && last.cols == cols)
        return cudaSuccess;
    cudaError_t status = reference_transpose(d_in, d_out, rows, cols, stream);
    last = {d_in, d_out, rows, cols, status == cudaSuccess};
    return status;
}
