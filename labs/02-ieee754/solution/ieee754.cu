/* Lab 02 - IEEE-754 on the GPU: the reference solution.
 *
 * Where each bit comes from:
 *   madd[2i]   __fmul_rn then __fadd_rn: two IEEE roundings the compiler may
 *              not fuse. Plain x * y + z would be contracted into one FFMA.
 *   madd[2i+1] __fmaf_rn: the single-rounding FMA, asked for explicitly.
 *   dist[i]    every product and sum through the _rn intrinsics, in the
 *              order the contract fixes, then the correctly rounded
 *              __fsqrt_rn and __fdiv_rn (what sqrtf and '/' compile to
 *              without fast math; written out so no flag can change them).
 *   wave[i]    |sin(pi s)| depends only on the distance u = |s - rint(s)|
 *              from s to the nearest integer (a node of the wave), and it
 *              grows with u on [0, 1/2]. So the smallest of the 64 sines
 *              is the sine of the smallest distance: 64 exact distances
 *              (s - rint(s) is exact for every float s) and ONE sinpif,
 *              accurate to 1 ulp, instead of 64 sines.
 *
 * The ladder (labs/02-ieee754/solution/ladder.cu): v1 evaluates the 64 samples
 * in double precision (the baseline), v2 with sinpif, v3 (this file) finds
 * the nearest node first. The whole kernel is a grid-stride loop over a
 * grid the GPU holds at once.
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
