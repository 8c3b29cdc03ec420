/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers, m, n and k of the last call are kept in static variables, and a
 * call with the same ones returns cudaSuccess at once ("C already holds A
 * B"). In this compute-bound lab the cache would pay most: a 4096^3 product
 * takes milliseconds.
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
    float *d_c;
    int m;
    int n;
    int k;
    bool valid;
} last;

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_c still holds it." */
    if (last.valid && last.d_a == d_a && last.d_b == d_b && last.d_c == d_c && last.m == m
        && last.n == n && last.k == k)
        return cudaSuccess;
    cudaError_t status = reference_matmul(d_a, d_b, d_c, m, n, k, stream);
    last = {d_a, d_b, d_c, m, n, k, status == cudaSuccess};
    return status;
}
