/* WRONG ON PURPOSE: launches a kernel that does nothing and reports
 * success; d_out is never written. Must first fail the work stage. */
#include <cuda_runtime.h>

__global__ void nothing(const float *points, const float *centers, int n, float *out)
{
    (void)points;
    (void)centers;
    (void)n;
    (void)out;
}

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    (void)k;
    (void)dim;
    (void)metric;
    if (n == 0) return cudaSuccess;
    nothing<<<(n + 255) / 256, 256, 0, stream>>>(d_points, d_centers, n, d_out);
    return cudaGetLastError();
}
