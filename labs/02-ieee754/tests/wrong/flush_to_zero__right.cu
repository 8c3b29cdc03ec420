/* WRONG ON PURPOSE: flushes subnormal inputs and results to zero, as
 * -ftz=true (part of -use_fast_math) does, believing subnormals are slow.
 * On the GPU they run at full speed, and IEEE-754 results depend on them.
 * Typical inputs have none. Must first fail the right stage.
 */
#include <math.h>

#include <cuda_runtime.h>

/* What the flush-to-zero mode does to every input and result. */
__device__ static float ftz(float v)
{
    return fabsf(v) < 1.17549435e-38f ? copysignf(0.0f, v) : v;
}

__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    madd[2 * i] = ftz(__fadd_rn(ftz(__fmul_rn(ftz(x), ftz(y))), ftz(z)));
    madd[2 * i + 1] = ftz(fmaf(ftz(x), ftz(y), ftz(z)));
    dist[i] = ftz(__fdiv_rn(__fsqrt_rn(__fadd_rn(__fadd_rn(ftz(__fmul_rn(x, x)), ftz(__fmul_rn(y, y))),
                                                 ftz(__fmul_rn(z, z)))),
                             ftz(r[i])));
    float ti = ftz(t[i]);
    float u = fabsf(ti - rintf(ti)); /* distance to the nearest node */
    for (int k = 1; k < 64; k++) {
        float s = ti + k / 64.0f;
        u = fminf(u, fabsf(s - rintf(s)));
    }
    float m = isfinite(ti) ? sinpif(u) : ti - ti;
    wave[i] = ftz(m);
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
