/* WRONG ON PURPOSE: the reference, but with n == 0 it returns at once
 * ("nothing to add"): d_result keeps whatever it held, where the dot
 * product of empty vectors is 0. Work never asks for n == 0. Must first
 * fail the right stage.
 * REPORT-SAYS: d_result must be written even when n == 0
 *
 * EDIT: s#if (n == 0) return cudaMemsetAsync(d_result, 0, sizeof(float), stream);#if (n == 0) return cudaSuccess;#
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    return reference_dot(d_x, d_y, n, d_result, stream);
}
