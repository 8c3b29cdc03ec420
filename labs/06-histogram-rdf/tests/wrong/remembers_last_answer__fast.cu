/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers, n, bins and dr of the last call are kept in static variables,
 * and a call with the same ones returns cudaSuccess at once ("d_hist already
 * holds the counts"). In this compute-bound lab the cache would pay most:
 * the real call takes milliseconds.
 * During the fast stage every call gets the same buffers, so after the first
 * one it returns at once and the timed calls look free: a speedup in the
 * thousands. The bytes of a call are tiny (0.7 MB), so the timing's "faster
 * than the GPU can move memory" check does not see it, and this lab's re-
 * check after timing uses another size (8191 particles, fresh buffers: the
 * cache misses and the counts are computed honestly). What catches it is the
 * second re-check, on the same buffers with a few coordinates exchanged:
 * the cache hits and d_hist keeps the grader's poison ("wrong after a few
 * input elements were exchanged"). The work and right
 * stages never make two calls in a row with the same pointer and sizes, so
 * it passes them. Must first fail the fast stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

/* The buffers and sizes of the last call that succeeded. */
static struct {
    const float4 *d_pos;
    int n;
    int bins;
    float dr;
    unsigned int *d_hist;
    bool valid;
} last;

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_hist still holds it." */
    if (last.valid && last.d_pos == d_pos && last.n == n && last.bins == bins
        && last.dr == dr && last.d_hist == d_hist)
        return cudaSuccess;
    cudaError_t status = reference_rdf(d_pos, n, bins, dr, d_hist, stream);
    last = {d_pos, n, bins, dr, d_hist, status == cudaSuccess};
    return status;
}
