/* WRONG ON PURPOSE: madd[2i] and madd[2i+1] are neighbours, so the pair
 * is stored as one float2 at madd + 2i: one 8-byte store, which needs an
 * 8-byte aligned address. d_madd is only 4-byte aligned: right offsets it
 * by 4, 8, 12 or 0 bytes, and at 4 or 12 (n = 1, the first case with an
 * element, is 12 bytes off) the GPU raises a misaligned address fault for
 * certain on the first store. Every value is right, and work's pointers
 * are aligned, so it passes work.
 * Must first fail the right stage.
 * REPORT-SAYS: access through a pointer that is only 4-byte aligned
 */
#include <cuda_runtime.h>

#define THREADS 256
#define SAMPLES 64

/* One thread per element; every value is the contract's, only the store
 * of the madd pair is wrong. Work's pointers are 256-byte aligned, so
 * madd + 2i is 8-byte aligned there and it passes work. */
__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];

    float separate = __fadd_rn(__fmul_rn(x, y), z); /* two roundings, never fused */
    float fused = __fmaf_rn(x, y, z);               /* one rounding */
    /* BUG: 2i is even, but madd itself need not be 8-byte aligned. */
    reinterpret_cast<float2 *>(madd)[i] = make_float2(separate, fused);

    float s = __fadd_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)), __fmul_rn(z, z));
    dist[i] = __fdiv_rn(__fsqrt_rn(s), r[i]);

    /* 64 samples, each a float addition (k / 64 is exact); sinpif is
     * within 1 ulp. For an infinite or NaN t every sample is NaN, and so
     * is their minimum. */
    float ti = t[i];
    float m = fabsf(sinpif(ti));
    for (int k = 1; k < SAMPLES; k++) m = fminf(m, fabsf(sinpif(ti + k * (1.0f / SAMPLES))));
    wave[i] = m;
}

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (n + THREADS - 1) / THREADS;
    ieee754_kernel<<<blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist,
                                                   d_wave, n);
    return cudaGetLastError();
}
