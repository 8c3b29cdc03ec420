/* WRONG ON PURPOSE: the launch is right (a grid covering n, on the given
 * stream, the status returned) but the kernel's body was never written:
 * the skeleton's launch with TODO(2) skipped. Nothing faults and the call
 * reports success, so only the outputs tell: d_c keeps the grader's NaN
 * poison. Must first fail the work stage ("never written").
 */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    /* TODO: c[i] = a[i] + b[i] */
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
