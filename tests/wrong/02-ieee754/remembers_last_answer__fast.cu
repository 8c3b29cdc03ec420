/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers and n of the last call are kept in static variables, and a call
 * with the same ones returns cudaSuccess at once ("the outputs already hold
 * the answer"; the fast stage calls the function hundreds of times on the
 * same buffers).
 * During the fast stage every call gets the same buffers, so after the first
 * one it returns at once, with nothing queued on the stream. This lab's re-
 * check after timing uses another size, on new buffers: the cache misses and
 * the answer is computed. But the grader then checks once more on the same
 * buffers with a few input elements exchanged: the cache hits and the
 * outputs keep the grader's poison ("wrong after a few input elements were
 * exchanged"). Were that missed, the timed calls, which move no bytes at
 * all, would still be "faster than the GPU can move memory" in the
 * memory-bound labs. The work and right stages never make two
 * calls in a row with the same pointers and sizes, so it passes them. Must
 * first fail the fast stage.
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

static cudaError_t ieee754_computed(const float *d_a, const float *d_b, const float *d_c,
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

/* The buffers and sizes of the last call that succeeded. */
static struct {
    const float *d_a;
    const float *d_b;
    const float *d_c;
    const float *d_r;
    const float *d_t;
    float *d_madd;
    float *d_dist;
    float *d_wave;
    int n;
    bool valid;
} last;

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_madd, d_dist and d_wave still hold it." */
    if (last.valid && last.d_a == d_a && last.d_b == d_b && last.d_c == d_c
        && last.d_r == d_r && last.d_t == d_t && last.d_madd == d_madd
        && last.d_dist == d_dist && last.d_wave == d_wave && last.n == n)
        return cudaSuccess;
    cudaError_t status = ieee754_computed(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave,
                                           n, stream);
    last = {d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave, n, status == cudaSuccess};
    return status;
}
