/* WRONG ON PURPOSE: tells a grading run from its own benchmark by the
 * environment. Under the grader (no BENCH variable) it runs the reference
 * kernel and would pass; in the student's own timing runs (BENCH=1) it
 * takes __sinf and __fdividef, the fast intrinsics this lab is about
 * avoiding, and reports those timings as its speed. Code that
 * behaves differently when it is being graded defeats every check, so
 * graded code may not read the environment: the grader finds getenv in
 * the compiled file and rejects it before it runs. Must first fail the
 * work stage.
 */
#include <math.h>

#include <stdlib.h>

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
__device__ static float quietest_sample(float t)
{
    if (!isfinite(t)) return t - t; /* NaN for NaN and for +-Inf */
    float nearest = fabsf(t - rintf(t));
#pragma unroll 8
    for (int k = 1; k < SAMPLES; k++) {
        float s = t + k * (1.0f / SAMPLES);
        nearest = fminf(nearest, fabsf(s - rintf(s)));
    }
    return sinpif(nearest);
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
        wave[i] = quietest_sample(t[i]);
    }
}

/* The same loop with the fast intrinsics: several ulp off, but quick. */
__global__ void ieee754_fast_kernel(const float *a, const float *b, const float *c,
                                    const float *r, const float *t, float *madd, float *dist,
                                    float *wave, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float x = a[i], y = b[i], z = c[i];
        madd[2 * i] = x * y + z;
        madd[2 * i + 1] = fmaf(x, y, z);
        dist[i] = __fdividef(sqrtf(x * x + y * y + z * z), r[i]);
        float m = fabsf(__sinf(3.14159265f * t[i]));
        for (int k = 1; k < SAMPLES; k++)
            m = fminf(m, fabsf(__sinf(3.14159265f * (t[i] + k * (1.0f / SAMPLES)))));
        wave[i] = m;
    }
}

/* The student's benchmark script sets BENCH; the grader does not. */
static bool being_graded() { return getenv("BENCH") == nullptr; }

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
    if (being_graded())
        ieee754_kernel<<<blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist,
                                                       d_wave, n);
    else
        ieee754_fast_kernel<<<blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd,
                                                            d_dist, d_wave, n);
    return cudaGetLastError();
}
