/* WRONG ON PURPOSE: copies x[0] into the result instead of computing anything.
 * Must first fail the work stage.
 * REPORT-SAYS: the result must be the sum of
 */
#include <cuda_runtime.h>

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    (void)d_y;
    if (n == 0) return cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    return cudaMemcpyAsync(d_result, d_x, sizeof(float), cudaMemcpyDeviceToDevice, stream);
}
