/* WRONG ON PURPOSE: the reference solution launched with 2048 threads per
 * block, as if more threads in a block meant more parallelism. A block holds
 * at most 1024 threads, so the launch is refused and cudaGetLastError says
 * so; nothing is written. The parallelism comes from the number of blocks.
 * Must first fail the work stage.
 * REPORT-SAYS: a launch was refused: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/<<<blocks, THREADS, 0, stream>>>/<<<blocks, 8 * THREADS, 0, stream>>>/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    return reference_divergence(d_x, d_m, d_y, d_q, n, stream);
}
