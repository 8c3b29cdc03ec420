/* WRONG ON PURPOSE: the reference solution launched with 2048 threads per
 * block, as if more threads in a block meant more parallelism. A block holds
 * at most 1024 threads (and this kernel promised the compiler 256 with
 * __launch_bounds__), so the launch is refused and cudaGetLastError says so;
 * nothing runs. The parallelism comes from the number of blocks.
 * Must first fail the work stage.
 * REPORT-SAYS: a launch was refused: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/<<<blocks, THREADS, 0, stream>>>/<<<blocks, 8 * THREADS, 0, stream>>>/g
 */
#include <cuda_runtime.h>

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    return reference_dot(d_x, d_y, n, d_result, stream);
}
