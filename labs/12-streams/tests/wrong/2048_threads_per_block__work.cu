/* WRONG ON PURPOSE: the reference solution with f applied by blocks of
 * 2048 threads, as if a bigger block kept up with the copies better. A block
 * holds at most 1024 threads, so every launch is refused and
 * cudaGetLastError says so; h_out is never written.
 * Must first fail the work stage.
 * REPORT-SAYS: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s|<<<(unsigned)((count + 255) / 256), 256, 0, s>>>|<<<(unsigned)((count + 2047) / 2048), 2048, 0, s>>>|
 */
#include <cuda_runtime.h>

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
