/* WRONG ON PURPOSE: writes coordinates of the points instead of
 * distances (out[j * n + i] = coordinate j % dim of point i): every output
 * is written, none is a distance. Must first fail the work stage. */
#include <cuda_runtime.h>

__global__ void copy_points(const float *points, int n, int k, int dim, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int j = 0; j < k; j++) out[(size_t)j * n + i] = dim ? points[(size_t)(j % dim) * n + i] : 0.0f;
}

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    (void)d_centers;
    (void)metric;
    if (n == 0 || k == 0) return cudaSuccess;
    copy_points<<<(n + 255) / 256, 256, 0, stream>>>(d_points, n, k, dim, d_out);
    return cudaGetLastError();
}
