/* WRONG ON PURPOSE: the reference, but with n == 0 it returns at once
 * ("nothing to sum"): d_out keeps whatever it held, where the sum of no
 * elements is 0. Work never asks for n == 0. Must first fail the right
 * stage.
 * REPORT-SAYS: d_out was never written
 *
 * EDIT: s#if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);#if (n == 0) return cudaSuccess;#
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    return reference_reduce_sum(d_in, n, d_out, d_scratch, stream);
}
