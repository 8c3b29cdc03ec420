/* WRONG ON PURPOSE: the reference solution launched with 2048 threads per
 * block, as if more threads in a block meant more parallelism. A block holds
 * at most 1024 threads, so the launch is refused and cudaGetLastError says
 * so; no output is written. The parallelism comes from the number of blocks.
 * Must first fail the work stage.
 * REPORT-SAYS: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/<<<blocks, THREADS, 0, stream>>>/<<<blocks, 8 * THREADS, 0, stream>>>/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    return reference_ieee754(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave, n, stream);
}
