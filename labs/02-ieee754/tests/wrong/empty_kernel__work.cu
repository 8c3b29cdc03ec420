/* WRONG ON PURPOSE: the launch is right (a grid covering n, on the given
 * stream, the status returned) but the kernel does nothing: the bodies of
 * the three outputs were left for later. Nothing faults and the call
 * reports success, so only the outputs tell: d_madd, d_dist and d_wave
 * keep the grader's NaN poison. Must first fail the work stage ("never
 * written").
 */
#include <cuda_runtime.h>

__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n)
{
    /* TODO: madd[2i], madd[2i+1], dist[i], wave[i] */
}

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    ieee754_kernel<<<blocks, threads, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist,
                                                   d_wave, n);
    return cudaGetLastError();
}
