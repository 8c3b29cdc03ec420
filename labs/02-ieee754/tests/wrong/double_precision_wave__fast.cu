/* WRONG ON PURPOSE: right but slow: each of the 64 samples evaluated with
 * the double-precision sinpi (of the sample's exact distance to its node),
 * like the baseline. Accurate far beyond the 2 ulp allowed, and bound by the
 * FP64 units. Must first fail the fast stage.
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
    double m = INFINITY;
    for (int k = 0; k < 64; k++) {
        float s = ti + k / 64.0f;
        m = fmin(m, sinpi((double)fabsf(s - rintf(s))));
    }
    wave[i] = isfinite(ti) ? (float)m : ti - ti;
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
