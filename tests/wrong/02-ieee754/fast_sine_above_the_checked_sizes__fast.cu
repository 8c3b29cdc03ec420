/* WRONG ON PURPOSE: the reference solution while n is small enough for the
 * CPU to check it, and the sine of the quietest sample by the intrinsic
 * __sinf above 2^22 elements: only the timed size, 2^24, gets there. __sinf's
 * error is absolute (about 2^-21.4), hundreds of ulp for results near 0.01,
 * yet a relative 1e-3 of the output's scale. Timed calls held to that scale
 * let it through; the wave is held to 2 ulp, so a timed call may lie at most
 * 4 ulp from the baseline's answer.
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
#include <math.h>

#include <cuda_runtime.h>

#include "cuda_check.h"

static const int THREADS = 256;
static const int SAMPLES = 64;

__device__ static float mul_add_rounded(float x, float y, float z)
{
    return __fadd_rn(__fmul_rn(x, y), z);
}

__device__ static float distance_rounded(float x, float y, float z, float r)
{
    float s = __fadd_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)), __fmul_rn(z, z));
    return __fdiv_rn(__fsqrt_rn(s), r);
}

/* min over k of |sin(pi (t + k/64))|. t + k/64.0f is one rounding whether
 * or not the compiler fuses k * (1/64) into it: the product is exact. */
__device__ static float quietest_sample(float t, bool large)
{
    if (!isfinite(t)) return t - t; /* NaN for NaN and for +-Inf */
    float nearest = fabsf(t - rintf(t));
#pragma unroll 8
    for (int k = 1; k < SAMPLES; k++) {
        float s = t + k * (1.0f / SAMPLES);
        nearest = fminf(nearest, fabsf(s - rintf(s)));
    }
    return large ? __sinf(3.14159265f * nearest) : sinpif(nearest);
}

/* Thread g handles elements g, g + stride, ...: consecutive threads read
 * consecutive floats of every input (coalesced), and each thread does many
 * elements, so the launch stays the size of the GPU. */
__global__ void ieee754_kernel(const float *__restrict__ a, const float *__restrict__ b,
                               const float *__restrict__ c, const float *__restrict__ r,
                               const float *__restrict__ t, float *__restrict__ madd,
                               float *__restrict__ dist, float *__restrict__ wave, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float x = a[i], y = b[i], z = c[i];
        madd[2 * i] = mul_add_rounded(x, y, z);
        madd[2 * i + 1] = __fmaf_rn(x, y, z);
        dist[i] = distance_rounded(x, y, z, r[i]);
        wave[i] = quietest_sample(t[i], n > (1 << 22));
    }
}

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int device, sms, per_sm;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_RETURN_IF_ERROR(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ieee754_kernel, THREADS, 0));
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > sms * per_sm) blocks = sms * per_sm;
    ieee754_kernel<<<blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist,
                                                   d_wave, n);
    return cudaGetLastError();
}
