/* WRONG ON PURPOSE: the wave's samples are walked with a float offset s
 * from 1/64 to 1 in steps of 1 / 64, but 1 / 64 is INTEGER division: 0.
 * So s never moves, s < 1 stays true and the loop never ends (it keeps
 * storing into d_wave, so the compiler cannot drop it). Every element with
 * i < n enters it: the first work call (n = 1024) hangs, on every GPU.
 * Everything else is right: with 1.0f / 64 the offsets k/64 are exact and
 * t + s is the contract's t + k/64.0f.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does every loop's index move towards its end?
 * SMALLEST: a hang fails by the time limit, not on an answer to show
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
    wave[i] = fabsf(sinpif(t[i])); /* sample 0: a NaN or infinite t gives NaN */
    for (float s = 1.0f / 64; s < 1.0f; s += 1 / 64) /* should be 1.0f / 64 */
        wave[i] = fminf(wave[i], fabsf(sinpif(t[i] + s)));
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
