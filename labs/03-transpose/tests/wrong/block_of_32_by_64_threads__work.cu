/* WRONG ON PURPOSE: the reference solution with blocks of 32 x 64 threads,
 * as if a bigger block moved its tile faster. A block holds at most 1024 threads (32 x 32), so the launch is
 * refused and cudaGetLastError says so; out is never written.
 * Must first fail the work stage.
 * REPORT-SAYS: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/dim3(THREADS_X, ROWS)/dim3(THREADS_X, 2 * THREADS_X)/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    return reference_transpose(d_in, d_out, rows, cols, stream);
}
