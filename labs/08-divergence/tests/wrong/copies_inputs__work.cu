/* WRONG ON PURPOSE: passes the inputs through: y[i] = x[i] and q[i] = m[i]
 * (the skeleton's copy loop, with the four kinds' bodies still to be
 * written). One thread per element, bounds checked, on the given stream:
 * every output is written and nothing faults, so only the values tell.
 * Must first fail the work stage.
 * REPORT-SAYS: d_y: the kind of element i is i
 */
#include <cuda_runtime.h>

__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    y[i] = x[i];
    q[i] = m[i];
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    divergence_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
