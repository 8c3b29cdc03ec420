/* WRONG ON PURPOSE, and a lesson: every float operation of madd[2i] and
 * dist done in double and rounded back to float at once,
 * (float)((double)x * y), hoping the conversions keep nvcc from fusing
 * anything. Each step alone IS the correctly rounded float result (a double
 * has more than 2 * 24 + 2 bits), and that is exactly why it fails: nvcc
 * recognises (float)((double)p * (double)q) as a plain float multiply and
 * (float)((double)p + (double)q) as a plain float add, and then fuses the
 * two into one FMA, as it would a*b+c (seen on an H200: 290 of 2048 madd
 * elements off by 1 to 21 ulp). Only __fmul_rn/__fadd_rn are never fused.
 * Must first fail the work stage.
 * EMULATION: pass pass: g++ -ffp-contract=off never fuses, so on the CPU it is right.
 */
#include <math.h>

#include <cuda_runtime.h>

__device__ static float mul(float p, float q) { return (float)((double)p * (double)q); }
__device__ static float add(float p, float q) { return (float)((double)p + (double)q); }

__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    madd[2 * i] = add(mul(x, y), z);
    madd[2 * i + 1] = fmaf(x, y, z);
    dist[i] = (float)((double)(float)sqrt((double)add(add(mul(x, x), mul(y, y)), mul(z, z))) /
                      (double)r[i]);
    float ti = t[i];
    float u = fabsf(ti - rintf(ti));
    for (int k = 1; k < 64; k++) {
        float s = ti + k / 64.0f;
        u = fminf(u, fabsf(s - rintf(s)));
    }
    wave[i] = isfinite(ti) ? sinpif(u) : ti - ti;
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
