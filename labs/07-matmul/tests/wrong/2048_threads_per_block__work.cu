/* WRONG ON PURPOSE: the reference solution launched with 2048 threads per
 * block, one per output of a 32 x 64 tile instead of many outputs per
 * thread of a 128 x 128 one. A block holds at most 1024 threads (and this
 * kernel promised the compiler far fewer with __launch_bounds__), so the
 * launch is refused and cudaGetLastError says so; C keeps the NaN it held.
 * Must first fail the work stage.
 * REPORT-SAYS: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/<<<blocks, T::THREADS, T::SMEM, stream>>>/<<<blocks, 2048, T::SMEM, stream>>>/g
 */
#include <cuda_runtime.h>

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n, int k,
                              cudaStream_t stream)
{
    return reference_matmul(d_a, d_b, d_c, m, n, k, stream);
}
