/* WRONG ON PURPOSE: the reference solution with its first pass launched
 * with 2048 threads per block, as if a bigger block reduced more at once. A
 * block holds at most 1024 threads (and this kernel promised the compiler
 * 256 with __launch_bounds__), so the launch is refused and
 * cudaGetLastError says so.
 * Must first fail the work stage.
 * REPORT-SAYS: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/block_partials<<<blocks, THREADS, 0, stream>>>/block_partials<<<blocks, 8 * THREADS, 0, stream>>>/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    return reference_reduce_sum(d_in, n, d_out, d_scratch, stream);
}
