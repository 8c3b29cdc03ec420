/* WRONG ON PURPOSE: no `if (i < n)`: the threads of the last partial block
 * write past the ends of the outputs. The work sizes are multiples of the
 * block size, so nothing shows there. Must first fail the right stage.
 */
#include <math.h>

#include <cuda_runtime.h>

__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i], y = b[i], z = c[i];
    madd[2 * i] = __fadd_rn(__fmul_rn(x, y), z);
    madd[2 * i + 1] = fmaf(x, y, z);
    dist[i] = __fdiv_rn(__fsqrt_rn(__fadd_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)),
                                         __fmul_rn(z, z))),
                        r[i]);
    float ti = t[i];
    float u = fabsf(ti - rintf(ti)); /* distance to the nearest node */
    for (int k = 1; k < 64; k++) {
        float s = ti + k / 64.0f;
        u = fminf(u, fabsf(s - rintf(s)));
    }
    float m = isfinite(ti) ? sinpif(u) : ti - ti;
    wave[i] = m;
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
