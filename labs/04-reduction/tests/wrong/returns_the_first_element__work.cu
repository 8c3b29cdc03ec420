/* WRONG ON PURPOSE: *d_out = in[0], a copy of an input instead of the sum
 * (the skeleton's one-thread launch with the loop never written). The
 * call is cheap, succeeds and writes the output, so only its value tells:
 * for typical values around 1 the sum of n of them is about n. Must first
 * fail the work stage.
 */
#include <cuda_runtime.h>

__global__ void first(const float *in, float *out) { *out = in[0]; }

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    first<<<1, 1, 0, stream>>>(d_in, d_out);
    return cudaGetLastError();
}
