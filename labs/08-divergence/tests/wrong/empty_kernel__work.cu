/* WRONG ON PURPOSE: the kernel is launched, on the right stream, and does
 * nothing: every output keeps the grader's poison.
 * Must first fail the work stage ("never written"). */
#include <cuda_runtime.h>

__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    (void)x;
    (void)m;
    (void)y;
    (void)q;
    (void)n;
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    divergence_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
