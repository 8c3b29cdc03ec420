/* WRONG ON PURPOSE: the reference's warp-per-kind map, but a thread also
 * stops when its own index (blockIdx.x * 256 + threadIdx.x) is past n, as
 * in the one-thread-per-element kernel it came from. The map sends thread t
 * elsewhere than element t, so near the end of a partial block elements
 * below n are left to threads that have stopped: never written. Every work
 * size is a multiple of 256. Must first fail the right stage.
 * REPORT-SAYS: every element must be written, d_y and d_q
 *
 * EDIT: s/if (i >= n) return;/if (i >= n || (long long)blockIdx.x * THREADS + threadIdx.x >= n) return;/
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    return reference_divergence(d_x, d_m, d_y, d_q, n, stream);
}
