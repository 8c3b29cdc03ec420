/* WRONG ON PURPOSE: tells a grading run from its own benchmark by the
 * environment. Under the grader (no BENCH variable) it runs the reference
 * kernel and would pass; in the student's own timing runs (BENCH=1) it
 * takes __sinf and __fdividef, the fast intrinsics this lab is about
 * avoiding, and reports those timings as its speed. Code that
 * behaves differently when it is being graded defeats every check, so
 * graded code may not read the environment: the grader finds getenv in
 * the compiled file and rejects it before it runs. Must first fail the
 * work stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <stdlib.h>

#include <cuda_runtime.h>

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
    if (being_graded())
        return reference_ieee754(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave, n, stream);
    /* The reference's launch, with the fast kernel. */
    if (n == 0) return cudaSuccess;
    int device, sms, per_sm;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_RETURN_IF_ERROR(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ieee754_kernel, THREADS, 0));
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > sms * per_sm) blocks = sms * per_sm;
    ieee754_fast_kernel<<<blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist,
                                                        d_wave, n);
    return cudaGetLastError();
}
