/* WRONG ON PURPOSE: a cache keyed on a fingerprint of the input. Each call
 * copies the first 16 particles to the host and compares them, with n,
 * bins and dr, to those of the last computed call; when they match it
 * copies the saved histogram into d_hist instead of counting 44028^2 / 2
 * pairs. A student who noticed that the fast stage calls the function
 * hundreds of times on the same particles, and who read that a cache of
 * pointers alone is caught (remembers_last_answer__fast.cu), might try
 * this: different buffers or different particles do miss.
 * In work and right every call has other particles, so it always misses
 * and computes: it passes both. The fast stage must catch it: (i) between
 * timed calls the grader swaps two random elements of every input, which
 * almost never touches the first 64 floats, so the timed calls still hit
 * and look thousands of times faster than the baseline; (ii) after timing
 * it checks twice on one set of buffers: fresh particles (the cache misses
 * and keeps their histogram), then the same particles with a few
 * coordinates exchanged: the fingerprint matches and the saved histogram
 * is stale. (A swap of two whole particles would leave every pair
 * distance, and so the histogram, unchanged: the grader exchanges single
 * coordinates, x with x, never a whole (x, y, z, w) record.)
 * Without (ii) this would pass the fast stage: 0.7 MB per call is far below
 * what the memory could move. Fails the fast stage with "wrong after a few
 * input elements were exchanged".
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <string.h>

#include <cuda_runtime.h>

static const int FINGERPRINT = 16; /* particles compared */

/* The last computed call: its sizes, its first particles, its answer. */
static struct {
    int n, bins;
    float dr;
    float4 head[FINGERPRINT];
    unsigned int *d_hist; /* a device copy of the histogram */
    size_t capacity_bytes;
    bool valid;
} saved;

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    float4 head[FINGERPRINT];
    memset(head, 0, sizeof head);
    int sampled = n < FINGERPRINT ? n : FINGERPRINT;
    CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(head, d_pos, sampled * sizeof(float4),
                                         cudaMemcpyDeviceToHost, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    size_t bytes = (size_t)bins * sizeof(unsigned int);
    if (saved.valid && saved.n == n && saved.bins == bins && saved.dr == dr &&
        memcmp(saved.head, head, sizeof head) == 0)
        return cudaMemcpyAsync(d_hist, saved.d_hist, bytes, cudaMemcpyDeviceToDevice, stream);

    saved.valid = false;
    if (bytes > saved.capacity_bytes) {
        cudaFree(saved.d_hist);
        saved.capacity_bytes = 0;
        CUDA_RETURN_IF_ERROR(cudaMalloc(&saved.d_hist, bytes));
        saved.capacity_bytes = bytes;
    }
    CUDA_RETURN_IF_ERROR(reference_rdf(d_pos, n, bins, dr, d_hist, stream));
    CUDA_RETURN_IF_ERROR(
        cudaMemcpyAsync(saved.d_hist, d_hist, bytes, cudaMemcpyDeviceToDevice, stream));
    saved.n = n, saved.bins = bins, saved.dr = dr;
    memcpy(saved.head, head, sizeof head);
    saved.valid = true;
    return cudaSuccess;
}
