/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers, n, k, dim and metric of the last call are kept in static
 * variables, and a call with the same ones returns cudaSuccess at once
 * ("d_out already holds the distances"; the fast stage calls the function
 * hundreds of times on the same buffers).
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
    const float *d_points;
    const float *d_centers;
    int n;
    int k;
    int dim;
    int metric;
    float *d_out;
    bool valid;
} last;

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_out still holds it." */
    if (last.valid && last.d_points == d_points && last.d_centers == d_centers
        && last.n == n && last.k == k && last.dim == dim && last.metric == metric
        && last.d_out == d_out)
        return cudaSuccess;
    cudaError_t status = reference_distances(d_points, d_centers,
                                             n, k, dim, metric, d_out, stream);
    last = {d_points, d_centers, n, k, dim, metric, d_out, status == cudaSuccess};
    return status;
}
