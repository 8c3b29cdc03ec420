/* WRONG ON PURPOSE: computes each sample as sin(M_PI * (double)s) in double
 * precision and rounds the result. Far more accurate than needed near a node,
 * except AT one: when s is an integer, sin(M_PI * s) is a tiny nonzero number
 * (M_PI is not pi), where the answer is exactly 0. Typical inputs never land
 * on a node; the right stage's do. Must first fail the right stage.
 */
#include <math.h>

#include <cuda_runtime.h>

__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    madd[2 * i] = __fadd_rn(__fmul_rn(x, y), z);
    madd[2 * i + 1] = fmaf(x, y, z);
    dist[i] = __fdiv_rn(__fsqrt_rn(__fadd_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)),
                                         __fmul_rn(z, z))),
                        r[i]);
    float ti = t[i];
    double m = fabs(sin(M_PI * (double)ti));
    for (int k = 1; k < 64; k++) m = fmin(m, fabs(sin(M_PI * (double)(ti + k / 64.0f))));
    wave[i] = (float)m;
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
