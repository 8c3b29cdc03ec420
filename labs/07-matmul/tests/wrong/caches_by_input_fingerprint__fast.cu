/* WRONG ON PURPOSE: a cache keyed on a fingerprint of the inputs. Each
 * call copies the first 16 elements of A and of B to the host and compares
 * them, with m, n and k, to those of the last computed call; when they
 * match it copies the saved C into d_c instead of multiplying (a 4096^3
 * product takes milliseconds, a copy of C a few dozen microseconds). A
 * student who noticed that the fast stage calls the function hundreds of
 * times on the same matrices, and who read that a cache of pointers alone
 * is caught (remembers_last_answer__fast.cu), might try this: different
 * buffers or different matrices do miss.
 * In work and right every call has other matrices, so it always misses and
 * computes: it passes both. The fast stage must catch it: (i) between
 * timed calls the grader swaps two random elements of every input, which
 * almost never touches the first 16, so the timed calls still hit; (ii)
 * after timing it checks twice on one set of buffers: fresh matrices (the
 * cache misses and keeps their C), then the same matrices with a few
 * elements exchanged: the fingerprint matches and the saved C is stale
 * ("wrong after a few input elements were exchanged"). Without (ii) only
 * the physical bound would stand in the way, and a 64 MiB copy of C per
 * call is close to, not clearly beyond, the 3 x 64 MiB the call is counted
 * as moving. Must first fail the fast stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <string.h>

#include <cuda_runtime.h>

#include "cuda_check.h"

static const int FINGERPRINT = 16; /* elements of A and of B compared */

/* The last computed call: its sizes, its first elements, its answer. */
static struct {
    int m, n, k;
    float head[2 * FINGERPRINT];
    float *d_c; /* a device copy of C */
    size_t capacity_bytes;
    bool valid;
} saved;

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    float head[2 * FINGERPRINT];
    memset(head, 0, sizeof head);
    size_t a_count = (size_t)m * k, b_count = (size_t)k * n;
    size_t from_a = a_count < FINGERPRINT ? a_count : FINGERPRINT;
    size_t from_b = b_count < FINGERPRINT ? b_count : FINGERPRINT;
    if (from_a)
        CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(head, d_a, from_a * sizeof(float),
                                             cudaMemcpyDeviceToHost, stream));
    if (from_b)
        CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(head + FINGERPRINT, d_b, from_b * sizeof(float),
                                             cudaMemcpyDeviceToHost, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    size_t bytes = (size_t)m * n * sizeof(float);
    if (saved.valid && saved.m == m && saved.n == n && saved.k == k &&
        memcmp(saved.head, head, sizeof head) == 0)
        return cudaMemcpyAsync(d_c, saved.d_c, bytes, cudaMemcpyDeviceToDevice, stream);

    saved.valid = false;
    if (bytes > saved.capacity_bytes) {
        cudaFree(saved.d_c);
        saved.capacity_bytes = 0;
        CUDA_RETURN_IF_ERROR(cudaMalloc(&saved.d_c, bytes));
        saved.capacity_bytes = bytes;
    }
    CUDA_RETURN_IF_ERROR(reference_matmul(d_a, d_b, d_c, m, n, k, stream));
    CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(saved.d_c, d_c, bytes, cudaMemcpyDeviceToDevice, stream));
    saved.m = m, saved.n = n, saved.k = k;
    memcpy(saved.head, head, sizeof head);
    saved.valid = true;
    return cudaSuccess;
}
