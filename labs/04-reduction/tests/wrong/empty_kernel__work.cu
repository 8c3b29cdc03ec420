/* WRONG ON PURPOSE: launches a kernel that does nothing and reports
 * success; d_out is never written. Must first fail the work stage. */
#include <cuda_runtime.h>

__global__ void nothing(const float *in, int n, float *out)
{
    (void)in;
    (void)n;
    (void)out;
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    nothing<<<1, 256, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
