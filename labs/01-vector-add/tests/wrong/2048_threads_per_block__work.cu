/* WRONG ON PURPOSE: the reference solution launched with 2048 threads per
 * block, as if more threads in a block meant more parallelism. A block holds
 * at most 1024 threads, so the launch is refused and cudaGetLastError says
 * so; c is never written. The parallelism comes from the number of blocks.
 * Must first fail the work stage.
 * REPORT-SAYS: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/<<<blocks, THREADS, 0, stream>>>/<<<blocks, 8 * THREADS, 0, stream>>>/g
 */
#include <cuda_runtime.h>

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    return reference_vector_add(d_a, d_b, d_c, n, stream);
}
