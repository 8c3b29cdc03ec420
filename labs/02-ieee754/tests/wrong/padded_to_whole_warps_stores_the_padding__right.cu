/* WRONG ON PURPOSE: n is rounded up to whole warps ("the last warp then
 * runs the 64-sample loop without divergence"): the padding lanes load
 * harmless stand-ins (0, and r = 1) instead of reading past the inputs,
 * compute like everyone else, and then store their results too: up to 31
 * elements past the end of d_madd (62 floats), d_dist and d_wave. Every
 * value in range is right. Work's sizes are multiples of 32, so there is
 * no padding and it passes; right's n = 1, 31, 33, ... write into the
 * guard bytes behind the outputs.
 * REPORT-SAYS: threads past the end wrote
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <math.h>

#include <cuda_runtime.h>

#define THREADS 256
#define SAMPLES 64

__global__ void ieee754_padded(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n,
                               int lanes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= lanes) return;
    /* The loads are guarded: a padding lane never reads past an input. */
    int real = i < n;
    float x = real ? a[i] : 0.0f, y = real ? b[i] : 0.0f, z = real ? c[i] : 0.0f;
    float ri = real ? r[i] : 1.0f, ti = real ? t[i] : 0.0f;

    float separate = __fadd_rn(__fmul_rn(x, y), z); /* two roundings */
    float fused = __fmaf_rn(x, y, z);               /* one rounding */
    float s = __fadd_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)), __fmul_rn(z, z));
    float d = __fdiv_rn(__fsqrt_rn(s), ri);

    /* |sin(pi s)| grows with the distance from s to the nearest integer,
     * so the smallest sample is the sine of the smallest distance. */
    float w = ti - ti; /* NaN for NaN and +-Inf */
    if (isfinite(ti)) {
        float nearest = fabsf(ti - rintf(ti));
        for (int k = 1; k < SAMPLES; k++) {
            float sk = ti + k * (1.0f / SAMPLES);
            nearest = fminf(nearest, fabsf(sk - rintf(sk)));
        }
        w = sinpif(nearest);
    }

    /* The mistake: the stores are not guarded like the loads (i < n). */
    madd[2 * i] = separate;
    madd[2 * i + 1] = fused;
    dist[i] = d;
    wave[i] = w;
}

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int lanes = (n + 31) / 32 * 32; /* whole warps */
    int blocks = (lanes + THREADS - 1) / THREADS;
    ieee754_padded<<<blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist,
                                                   d_wave, n, lanes);
    return cudaGetLastError();
}
